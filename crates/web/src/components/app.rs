//! The root component: owns the state (one `use_reducer`), starts the engine, installs the
//! page-wide listeners ([`crate::hooks`]: drop anywhere, keyboard, back/forward) and lays out
//! the panes.

use yew::prelude::*;

use super::drop_overlay::DropOverlay;
use super::function_list::FunctionList;
use super::function_view::FunctionView;
use super::help_overlay::HelpOverlay;
use super::notice_bar::NoticeBar;
use super::overview::OverviewView;
use super::share_box::ShareBox;
use super::side_card::SideCard;
use super::stats_view::StatsView;
use super::tabs::Tabs;
use super::welcome::Welcome;
use super::Ctx;
use crate::bridge::Bridge;
use crate::browser;
use crate::hooks::{use_file_drop, use_keyboard, use_navigation};
use crate::view_model::{Mode, Side};
use crate::protocol::Request;
use crate::route::{Route, Tab};
use crate::state::{Action, AppState};

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState { route: Route::parse(&browser::hash()), ..Default::default() });
    let ctx = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| {
            let dispatch = Callback::from(move |a: Action| dispatcher.dispatch(a));
            let bridge = Bridge::start(dispatch.reform(Action::Engine));
            Ctx { dispatch, bridge }
        })
    };

    // Page-wide listeners, installed once.
    use_navigation(ctx.dispatch.clone());
    use_keyboard(ctx.dispatch.clone());
    let c = (*ctx).clone();
    use_file_drop(c.dispatch.clone(), Callback::from(move |files| c.load(None, files)));

    // The URL hash mirrors the route: another tab or function is a history entry, the rest
    // (search, filter, sort, folds, site) is written in place.
    let shown = use_mut_ref(|| None::<Route>);
    use_effect_with(state.route.clone(), move |route| {
        let push = shown.borrow().as_ref().is_some_and(|r| (r.tab, &r.function) != (route.tab, &route.function));
        browser::set_hash(&route.to_hash(), push);
        *shown.borrow_mut() = Some(route.clone());
    });
    let made_by_cli = use_memo((), |_| browser::made_by_cli());

    // Share links and #demo open once per distinct value.
    let opened = use_mut_ref(|| None::<String>);
    {
        let ctx = ctx.clone();
        use_effect_with(state.route.share.clone(), move |share| {
            if let Some(p) = share {
                if opened.borrow().as_deref() != Some(p.as_str()) {
                    *opened.borrow_mut() = Some(p.clone());
                    ctx.bridge.send(Request::OpenShare { payload: p.clone() }, Vec::new());
                }
            }
        });
    }
    {
        let ctx = ctx.clone();
        use_effect_with(state.route.demo, move |demo| {
            if *demo {
                ctx.load_demo();
            }
        });
    }

    // Ask the engine for what the route shows.
    {
        let ctx = ctx.clone();
        let mode = state.summary.mode;
        use_effect_with((state.route.function.clone(), state.summary.generation, mode), move |(f, _, mode)| {
            if let (Some(key), false) = (f, *mode == Mode::Empty) {
                ctx.bridge.send(Request::Function { key: key.clone() }, Vec::new());
            }
        });
    }
    {
        let ctx = ctx.clone();
        let want = state.route.tab == Tab::Stats && state.summary.has_stats;
        use_effect_with((want, state.summary.generation), move |(want, _)| {
            if *want {
                ctx.bridge.send(Request::Stats, Vec::new());
            }
        });
    }
    use_effect_with(state.engine.clone(), |engine| {
        if let Some(e) = engine {
            browser::mark_ready(e);
        }
    });

    let swap = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.bridge.send(Request::Swap, Vec::new()))
    };
    let demo = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.load_demo())
    };
    let share = {
        let ctx = ctx.clone();
        let focus = state.route.function.clone();
        Callback::from(move |_| ctx.bridge.send(Request::Share { focus: focus.clone(), redact: false }, Vec::new()))
    };
    let help = ctx.dispatch.reform(|_| Action::ToggleHelp);

    let summary = state.summary.clone();
    let loaded = state.sides.iter().any(|s| s.info.is_some());
    let body = if summary.mode == Mode::Empty && state.route.tab != Tab::Stats {
        html! { <Welcome busy={state.busy()} missing={missing_runs(&state.route)} demo={made_by_cli.is_none()} /> }
    } else {
        match state.route.tab {
            Tab::Overview => html! { <OverviewView summary={summary.clone()} /> },
            Tab::Functions => html! {
                <div class="split">
                    <FunctionList
                        summary={summary.clone()}
                        filter={state.route.filter.clone()}
                        selected={state.route.function.clone()}
                        focus_search={state.focus_search}
                        focus_row={state.focus_row.clone()}
                    />
                    <FunctionView
                        detail={state.detail.clone()}
                        selected={state.route.function.clone()}
                        row={state.selected_row().cloned()}
                        open={state.route.open.clone()}
                        site={state.route.site}
                    />
                </div>
            },
            Tab::Stats => {
                html! { <StatsView table={state.stats.clone()} has_stats={summary.has_stats} sort={state.stats_sort} /> }
            }
        }
    };

    let share_url = state.share.as_ref().map(|s| {
        let route = Route { share: Some(s.payload.clone()), demo: false, ..state.route.clone() };
        let viewer = made_by_cli.as_ref().as_ref().and_then(|m| m.viewer.clone());
        let url = match &viewer {
            Some(base) => format!("{base}{}", route.to_hash()),
            None => browser::page_url(&route.to_hash()),
        };
        (url, s.note.clone(), s.redacted, viewer.is_some())
    });
    let local_only = use_memo((), |_| browser::served_locally());

    html! {
        <ContextProvider<Ctx> context={(*ctx).clone()}>
            <div class={classes!("app", state.dragging.then_some("dragging"))}>
                <header class="topbar">
                    <div class="brand" title="specdiff: what CPython's specializing interpreter did, before and after">
                        <span class="logo">{"◆"}</span>{"specdiff"}
                    </div>
                    <SideCard side={Side::Base} state={state.sides[0].clone()} />
                    <button class="icon-btn swap" title="swap base and head" onclick={swap}
                        disabled={!loaded || state.busy()}>{"⇄"}</button>
                    <SideCard side={Side::Head} state={state.sides[1].clone()} />
                    <div class="actions">
                        // The CLI's pages (a report, `specdiff view`) hold the user's runs: their
                        // "demo" would open those again, so it is not offered there.
                        if made_by_cli.is_none() {
                            <button class="btn" onclick={demo} disabled={state.busy()}
                                title="load the demo pair (a refactor that loses three specializations)">{"load demo"}</button>
                        }
                        <button class="btn" onclick={share} disabled={!loaded || state.busy()}
                            title="make a link that carries these runs (paste it in a pull request)">{"share link"}</button>
                        <button class="icon-btn" onclick={help} title="keyboard shortcuts (?)">{"?"}</button>
                    </div>
                </header>
                if let Some((label, fraction)) = state.progress.clone() {
                    <div class="global-progress"><super::progress_bar::ProgressBar {label} {fraction} /></div>
                }
                <NoticeBar notice={state.notice.clone()} warnings={summary.warnings.clone()} />
                <Tabs tab={state.route.tab} summary={summary.clone()} />
                // A scroll region: focusable, so it scrolls from the keyboard too.
                <main class="body" tabindex="0">{body}</main>
                <footer class="statusbar">
                    <span>{format!("engine: {}", state.engine.clone().unwrap_or_else(|| "starting".into()))}</span>
                    <span>{"everything stays in this tab: no uploads, no network requests"}</span>
                    <span class="keys">{"j/k next/prev change · / search · ? help"}</span>
                </footer>
                if state.help { <HelpOverlay /> }
                if let Some((url, note, redacted, hosted_viewer)) = share_url {
                    <ShareBox {url} {note} {redacted} focus={state.route.function.clone()} {hosted_viewer}
                        local_only={!hosted_viewer && *local_only} />
                }
                if state.dragging { <DropOverlay /> }
            </div>
        </ContextProvider<Ctx>>
    }
}

/// What a reload without the runs lost, in words: the URL points at a view of runs that were
/// picked or dropped (they stay in the tab that read them), or None when it points at nothing.
fn missing_runs(route: &Route) -> Option<String> {
    if route.share.is_some() || route.demo {
        return None;
    }
    let what = match (&route.function, route.tab) {
        (Some(f), _) => format!("the function {f}"),
        (None, Tab::Overview) if route.filter == Default::default() => return None,
        (None, tab) => format!("the {} tab", tab.name()),
    };
    Some(what)
}
