//! The function view: both sides aligned, source lines interleaved with the instructions,
//! sites coloured by classification with their explanation inline, unchanged runs folded.

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::ins_cell::InsCell;
use super::legend::{Legend, Terms};
use crate::model::{ChangeKind, ClassText, DetailRow, FunctionDetail, FunctionRow, Mode};
use crate::state::Shared;
use crate::format::{plural, shown};

/// Props of [`FunctionView`].
#[derive(Properties, PartialEq)]
pub struct FunctionViewProps {
    /// The view, once the engine sent it.
    pub detail: Option<Shared<FunctionDetail>>,
    /// Selected key.
    pub selected: Option<String>,
    /// The selected row (title while the view loads).
    pub row: Option<FunctionRow>,
}

/// The selected function.
#[function_component(FunctionView)]
pub fn function_view(props: &FunctionViewProps) -> Html {
    // The unfolded runs belong to the function they were opened in, so the state carries its
    // key: another selection starts folded with no effect to reset it (an effect could run
    // after a first click and undo it).
    let unfolded = use_state(|| (props.selected.clone(), Vec::<usize>::new()));
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
    let Some(key) = &props.selected else {
        return html! { <section class="fview empty"><p class="muted">{"Select a function, or press j to jump to the next change."}</p></section> };
    };
    let Some(d) = props.detail.as_ref().filter(|d| &d.key == key) else {
        let title = props.row.as_ref().map_or(key.clone(), |r| r.qualname.clone());
        return html! { <section class="fview loading"><h2>{title}</h2><p class="muted">{"loading…"}</p></section> };
    };
    let diff = d.mode == Mode::Diff;
    let cols = if diff { 7 } else { 3 };

    let folds = Folds {
        open: if unfolded.0 == props.selected { &unfolded.1 } else { &[] },
        state: &unfolded,
        selected: &props.selected,
    };
    let mut body = Vec::new();
    let mut fold_index = 0usize;
    for row in &d.rows {
        render_row(row, diff, cols, &mut fold_index, &folds, &mut body);
    }
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
            <div class="listing-wrap" tabindex="0" role="region" aria-label={format!("instructions of {}", d.title)}>
                <table class={classes!("listing", diff.then_some("diff"))}>
                    <thead>
                        if diff {
                            <tr><th class="off">{"off"}</th><th>{"base"}</th><th class="ctr">{"ctr"}</th>
                                <th class="off">{"off"}</th><th>{"head"}</th><th class="ctr">{"ctr"}</th><th class="cls"></th></tr>
                        } else {
                            <tr><th class="off">{"off"}</th><th>{"instruction"}</th><th class="ctr">{"counter"}</th></tr>
                        }
                    </thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
        </section>
    }
}

/// The folds of the function shown: which are open (by index in the view), and the state that
/// opening one sets.
struct Folds<'a> {
    open: &'a [usize],
    state: &'a UseStateHandle<(Option<String>, Vec<usize>)>,
    selected: &'a Option<String>,
}

fn render_row(row: &DetailRow, diff: bool, cols: usize, fold_index: &mut usize, folds: &Folds<'_>, out: &mut Vec<Html>) {
    match row {
        DetailRow::Source { line, text, samples } => {
            let hot = samples[0].max(samples[1]);
            out.push(html! {
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
            let cls = class.filter(|c| *c != ChangeKind::Unchanged).map(|c| format!("c-{}", c.name()));
            out.push(html! {
                <tr class={classes!("insrow", cls.clone(), cls.is_some().then_some("marked"))}
                    data-class={class.map(|c| c.name()).unwrap_or("")}>
                    <InsCell ins={base.clone()} />
                    if diff {
                        <InsCell ins={head.clone()} />
                        <td class="cls">if let Some(c) = class { if *c != ChangeKind::Unchanged { <ClassBadge class={*c} /> } }</td>
                    }
                </tr>
            });
            if let Some(e) = explain {
                out.push(html! {
                    <tr class={classes!("explain-row", cls)}>
                        <td class="off"></td>
                        <td class="explain" colspan={(cols - 1).to_string()}>{"↳ "}{shown(e)}</td>
                    </tr>
                });
            }
        }
        DetailRow::Fold { rows } => {
            let i = *fold_index;
            *fold_index += 1;
            if folds.open.contains(&i) {
                for r in rows {
                    render_row(r, diff, cols, fold_index, folds, out);
                }
            } else {
                let n = rows.iter().filter(|r| matches!(r, DetailRow::Ins { .. })).count();
                let state = folds.state.clone();
                let opened = (folds.selected.clone(), folds.open.iter().copied().chain([i]).collect::<Vec<_>>());
                let onclick = Callback::from(move |_| state.set(opened.clone()));
                out.push(html! {
                    <tr class="fold" {onclick} title="click to unfold">
                        <td colspan={cols.to_string()}>{format!("⋯ {} folded", plural(n as u64, "unchanged instruction", "unchanged instructions"))}</td>
                    </tr>
                });
            }
        }
    }
}
