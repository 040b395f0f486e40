//! The overview tab: run-level numbers, the per-family chart, and the ranked list of the
//! regressions that matter most (hotness × regressions).

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::family_chart::FamilyChart;
use super::legend::{Legend, Terms};
use super::Ctx;
use crate::view_model::{ChangeKind, Mode, Summary, Tone};
use crate::state::{Action, Shared};

/// Props of [`OverviewView`].
#[derive(Properties, PartialEq)]
pub struct OverviewProps {
    /// What is loaded.
    pub summary: Shared<Summary>,
}

/// The overview tab.
#[function_component(OverviewView)]
pub fn overview_view(props: &OverviewProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let s = &props.summary;
    let o = &s.overview;
    let diff = s.mode == Mode::Diff;
    let (has_base, has_head) = match s.mode {
        Mode::Diff => (true, true),
        Mode::Single(side) => (side.index() == 0, side.index() == 1),
        Mode::Empty => (false, false),
    };
    let metrics = html! {
        <table class="metrics">
            <thead><tr><th></th>
                if has_base { <th>{"base"}</th> }
                if has_head { <th>{"head"}</th> }
                if diff { <th>{"Δ"}</th> }
            </tr></thead>
            <tbody>
            { for o.metrics.iter().map(|m| {
                let tone = match m.tone { Tone::Good => "good", Tone::Bad => "bad", Tone::Neutral => "" };
                let span = has_base as usize + has_head as usize + diff as usize;
                if m.base.is_none() && m.head.is_none() {
                    // A run-level fact (not per side): one cell across the value columns.
                    html! {
                        <tr title={m.tip.clone().unwrap_or_default()}>
                            <th>{m.label.clone()}</th>
                            <td class={classes!("fact", tone)} colspan={span.to_string()}>{m.delta.clone().unwrap_or_default()}</td>
                        </tr>
                    }
                } else {
                    html! {
                        <tr title={m.tip.clone().unwrap_or_default()}>
                            <th>{m.label.clone()}</th>
                            if has_base { <td>{m.base.clone().unwrap_or_default()}</td> }
                            if has_head { <td>{m.head.clone().unwrap_or_default()}</td> }
                            if diff { <td class={classes!("delta", tone)}>{m.delta.clone().unwrap_or_default()}</td> }
                        </tr>
                    }
                }
            }) }
            </tbody>
        </table>
    };
    let top_title = if diff { "Top regressions · the hottest functions that lost the most" } else { "Hottest functions with unspecialized sites" };
    // The next step, said in words and one Enter away: the button takes the focus when the
    // overview of a new load appears (so the focus is not left on the page's body).
    let worst_button = use_node_ref();
    {
        let worst_button = worst_button.clone();
        use_effect_with(s.generation, move |_| {
            if let Some(b) = worst_button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    let worst = o.top.first().filter(|_| diff).map(|t| {
        let key = t.key.clone();
        let onclick = ctx.dispatch.reform(move |_| Action::Select(key.clone()));
        html! {
            <section class="card worst" aria-label="worst regression">
                <p class="worst-text">{"Worst regression: "}<strong>{t.title.clone()}</strong>
                    {format!(" ({}) · {}", t.location, t.detail)}</p>
                <button class="btn primary" ref={worst_button.clone()} {onclick} data-key={t.key.clone()}>
                    {format!("open {} ›", t.title)}</button>
            </section>
        }
    });
    let top = if o.top.is_empty() {
        html! { <p class="muted">{ if diff { "No regressions: every site that was specialized still is." } else { "Nothing to rank: no hot function has unspecialized sites." } }</p> }
    } else {
        html! {
            <table class="top-list">
                <tbody>
                { for o.top.iter().enumerate().map(|(i, t)| {
                    let key = t.key.clone();
                    let onclick = ctx.dispatch.reform(move |_| Action::Select(key.clone()));
                    // The name is a button (Tab, Enter); the whole row still takes a click.
                    html! {
                        <tr class="clickable" {onclick} data-key={t.key.clone()}>
                            <td class="rank">{i + 1}</td>
                            <td>
                                if t.class != ChangeKind::Unchanged { <ClassBadge class={t.class} /> }
                            </td>
                            <td class="name"><button type="button" class="link-btn qual"
                                onclick={let d = ctx.dispatch.clone(); let key = t.key.clone(); Callback::from(move |e: MouseEvent| {
                                    e.stop_propagation();
                                    d.emit(Action::Select(key.clone()));
                                })}>{t.title.clone()}</button>
                                <span class="loc">{t.location.clone()}</span></td>
                            <td class="detail">{t.detail.clone()}</td>
                            <td class="num">{score_words(t.score, diff)}</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
        }
    };
    // One run: say that it is one, and what brings the diff, so the coverage shown after the
    // first of two picks does not read as the diff.
    let one_run = match s.mode {
        Mode::Single(side) => Some(html! {
            <p class="card one-run" role="status">{format!(
                "One run loaded ({}): this is its coverage. Add the {} dump (its pane's “open…”, or drop it) to see the diff.",
                side.name(),
                if side.index() == 0 { "head" } else { "base" }
            )}</p>
        }),
        _ => None,
    };
    html! {
        <div class="overview">
            {for one_run}
            {for worst}
            <div class="ov-grid">
                <section class="card">
                    <h3>{ if diff { "Runs" } else { "Run" } }</h3>
                    {metrics}
                    if diff && !o.class_totals.is_empty() {
                        <h3 class="sub">{"Sites by class"}</h3>
                        <div class="chips">
                            { for o.class_totals.iter().filter(|(c, n)| *c != ChangeKind::Unchanged && *n > 0).map(|(c, n)| {
                                let c = *c;
                                let d = ctx.dispatch.clone();
                                let onclick = Callback::from(move |_| {
                                    d.emit(Action::SetClass(Some(c)));
                                    d.emit(Action::SelectTab(crate::route::Tab::Functions));
                                });
                                html! { <button type="button" class="chip-link" {onclick}
                                    title={format!("list the functions with {} sites", c.label())}><ClassBadge class={c} count={Some(*n)} /></button> }
                            }) }
                        </div>
                    }
                    if diff {
                        <Legend kinds={o.class_totals.iter().filter(|(_, n)| *n > 0).map(|(c, _)| *c).collect::<Vec<_>>()} terms={Terms::Shares} />
                    }
                </section>
                <section class="card">
                    <h3>{"Specialized share by family"}
                        <span class="muted small">{ if diff { " · base vs head" } else { "" } }</span></h3>
                    <FamilyChart bars={o.families.clone()} />
                </section>
            </div>
            <section class="card">
                <h3>{top_title}</h3>
                if diff && !o.top.is_empty() {
                    <p class="muted small">{"impact = the function's hotness (its share of the samples, 0 to 1) \
                        × its regressions: higher is worse, and the list is in that order."}</p>
                }
                {top}
            </section>
        </div>
    }
}

/// The ranking score with what it is: "impact 2.00" (hotness × regressions; for one run,
/// hotness × unspecialized sites).
fn score_words(score: f64, diff: bool) -> Html {
    let tip = if diff { "share of samples × regressions" } else { "share of samples × unspecialized sites" };
    html! { <span title={tip}>{format!("impact {score:.2}")}</span> }
}
