//! The function view: both sides aligned, source lines interleaved with the instructions,
//! sites coloured by classification with their explanation inline, unchanged runs folded, and
//! below it the loops' JIT traces ([`super::loop_traces`]).

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::ins_cell::InsCell;
use super::legend::{Legend, Terms};
use super::loop_traces::LoopTraces;
use super::Ctx;
use crate::view_model::{ChangeKind, ClassText, DetailRow, FunctionDetail, FunctionRow, Mode};
use crate::protocol::Request;
use crate::state::{Action, Shared};
use crate::format::{count, shown};

/// Props of [`FunctionView`].
#[derive(Properties, PartialEq)]
pub struct FunctionViewProps {
    /// The view, once the engine sent it.
    pub detail: Option<Shared<FunctionDetail>>,
    /// Selected key.
    pub selected: Option<String>,
    /// The selected row (title while the view loads).
    pub row: Option<FunctionRow>,
    /// The folds unfolded (the route's `open`).
    pub open: Vec<u32>,
    /// The selected site (the route's `site`: its instruction row, from 1).
    pub site: Option<u32>,
}

/// The selected function.
#[function_component(FunctionView)]
pub fn function_view(props: &FunctionViewProps) -> Html {
    // On a narrow screen the view sits below the function list: bring it into sight when a
    // function opens (where it already is in sight, as beside the list, nothing moves).
    let section = use_node_ref();
    {
        let section = section.clone();
        let shown = props.detail.as_ref().map(|d| d.key.clone());
        use_effect_with(shown, move |shown| {
            if let (Some(_), Some(el)) = (shown, section.cast::<web_sys::Element>()) {
                let top = el.get_bounding_client_rect().top();
                if top > gloo::utils::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(f64::MAX) * 0.6 {
                    el.scroll_into_view();
                }
            }
        });
    }
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let listing = use_node_ref();
    // The selected site is scrolled into view once its function's listing is there.
    {
        let listing = listing.clone();
        let shown = props.detail.as_ref().map(|d| d.key.clone());
        use_effect_with((props.site, shown), move |(site, _)| {
            if site.is_some() {
                if let Some(row) = listing.cast::<web_sys::Element>().and_then(|l| l.query_selector(".selected-site").ok().flatten()) {
                    row.scroll_into_view_with_bool(false);
                }
            }
        });
    }
    // An unfolded fold's button is gone: the focus it had goes to the listing, not the body.
    {
        let listing = listing.clone();
        use_effect_with(props.open.len(), move |_| {
            let on_body = gloo::utils::document().active_element().is_none_or(|e| e.tag_name() == "BODY");
            if on_body {
                if let Some(el) = listing.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let Some(key) = &props.selected else {
        return html! { <section class="fview empty"><p class="muted">{"Select a function, or press j to jump to the next change."}</p></section> };
    };
    let Some(d) = props.detail.as_ref().filter(|d| &d.key == key) else {
        let title = props.row.as_ref().map_or(key.clone(), |r| r.qualname.clone());
        return html! { <section class="fview loading"><h2>{title}</h2><p class="muted">{"loading…"}</p></section> };
    };
    let diff = d.mode == Mode::Diff;
    let cols = if diff { 7 } else { 3 };

    let mut listing_rows = Listing { diff, cols, open: &props.open, site: props.site, ctx: &ctx, key, fold: 0, ins: 0, out: Vec::new() };
    for row in &d.rows {
        listing_rows.row(row);
    }
    let body = listing_rows.out;
    let locations = match &d.locations {
        [Some(a), Some(b)] if a == b => a.clone(),
        [Some(a), Some(b)] => format!("{a} → {b}"),
        [Some(a), None] | [None, Some(a)] => a.clone(),
        [None, None] => String::new(),
    };
    html! {
        <section class="fview" data-key={d.key.clone()} ref={section}>
            <header class="fview-head">
                <h2>{d.title.clone()}</h2>
                <span class="kind">{d.kind.clone()}</span>
                if diff && d.status != ChangeKind::Unchanged { <ClassBadge class={d.status} /> }
                <span class="loc">{locations}</span>
                <span class="fcounts">
                    { for d.counts.iter().filter(|(c, n)| *c != ChangeKind::Unchanged && *n > 0).map(|(c, n)| html! { <ClassBadge class={*c} count={Some(*n)} /> }) }
                </span>
            </header>
            if !d.explanations.is_empty() {
                <ul class="explanations">{ for d.explanations.iter().map(|e| html! { <li>{shown(e)}</li> }) }</ul>
            }
            <Legend kinds={d.counts.iter().filter(|(_, n)| *n > 0).map(|(c, _)| *c).collect::<Vec<_>>()} terms={Terms::Listing} />
            <div class="listing-wrap" ref={listing} tabindex="0" role="region" aria-label={format!("instructions of {}", d.title)}>
                <table class={classes!("listing", diff.then_some("diff"))}>
                    <thead>
                        if diff {
                            <tr><th class="off">{"off"}</th><th>{"base"}</th><th class="ctr">{"ctr"}</th>
                                <th class="off">{"off"}</th><th>{"head"}</th><th class="ctr">{"ctr"}</th><th class="cls">{"kind"}</th></tr>
                        } else {
                            <tr><th class="off">{"off"}</th><th>{"instruction"}</th><th class="ctr">{"counter"}</th></tr>
                        }
                    </thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
            <LoopTraces traces={d.traces.clone()} {diff} site={props.site} />
        </section>
    }
}

/// The listing's rows as they are rendered: the folds opened by the route (and any holding the
/// selected site), each instruction row numbered from 1 (the route's `site`), a link button on
/// every changed site.
struct Listing<'a> {
    diff: bool,
    cols: usize,
    open: &'a [u32],
    site: Option<u32>,
    ctx: &'a Ctx,
    key: &'a str,
    /// Folds seen so far.
    fold: u32,
    /// Instruction rows seen so far (shown or folded).
    ins: u32,
    out: Vec<Html>,
}

impl Listing<'_> {
    fn row(&mut self, row: &DetailRow) {
        let (diff, cols) = (self.diff, self.cols);
        match row {
            DetailRow::Source { line, text, samples } => {
                let hot = samples[0].max(samples[1]);
                self.out.push(html! {
                    <tr class="src">
                        <td class="lineno">{line}</td>
                        <td class="code" colspan={(cols - 1).to_string()}>
                            <span class="srctext">{text.clone()}</span>
                            if hot > 0 { <span class="samples" title="sampler hits on this line (base / head)">{
                                if diff { format!("{} / {} samples", samples[0], samples[1]) } else { format!("{} samples", samples[0]) }
                            }</span> }
                        </td>
                    </tr>
                });
            }
            DetailRow::Ins { base, head, class, explain } => {
                self.ins += 1;
                let n = self.ins;
                let cls = class.filter(|c| *c != ChangeKind::Unchanged).map(|c| format!("c-{}", c.name()));
                let selected = self.site == Some(n);
                let link = cls.as_ref().map(|_| {
                    let (ctx, key) = (self.ctx.clone(), self.key.to_string());
                    let onclick = Callback::from(move |_| {
                        ctx.dispatch.emit(Action::SelectSite(n));
                        ctx.bridge.send(Request::Share { focus: Some(key.clone()), redact: false }, Vec::new());
                    });
                    html! { <button type="button" class="site-link" {onclick} aria-label={format!("share a link to this site (row {n})")}
                        title="share a link to this site">{"link"}</button> }
                });
                self.out.push(html! {
                    <tr class={classes!("insrow", cls.clone(), cls.is_some().then_some("marked"), selected.then_some("selected-site"))}
                        data-class={class.map(|c| c.name()).unwrap_or("")} data-site={n.to_string()}>
                        <InsCell ins={base.clone()} />
                        if diff {
                            <InsCell ins={head.clone()} />
                            <td class="cls">if let Some(c) = class { if *c != ChangeKind::Unchanged { <ClassBadge class={*c} /> } }{for link}</td>
                        }
                    </tr>
                });
                if let Some(e) = explain {
                    self.out.push(html! {
                        <tr class={classes!("explain-row", cls)}>
                            <td class="off"></td>
                            <td class="explain" colspan={(cols - 1).to_string()}>{"↳ "}{shown(e)}</td>
                        </tr>
                    });
                }
            }
            DetailRow::Fold { rows } => {
                let i = self.fold;
                self.fold += 1;
                let n = rows.iter().filter(|r| matches!(r, DetailRow::Ins { .. })).count() as u32;
                let holds_site = self.site.is_some_and(|s| s > self.ins && s <= self.ins + n);
                if self.open.contains(&i) || holds_site {
                    for r in rows {
                        self.row(r);
                    }
                } else {
                    self.ins += n;
                    let onclick = self.ctx.dispatch.reform(move |_| Action::Unfold(i));
                    self.out.push(html! {
                        <tr class="fold">
                            <td colspan={cols.to_string()}>
                                <button type="button" class="link-btn" {onclick} title="unfold">
                                    {format!("⋯ {} folded", count(n as u64, "unchanged instruction", "unchanged instructions"))}
                                </button>
                            </td>
                        </tr>
                    });
                }
            }
        }
    }
}
