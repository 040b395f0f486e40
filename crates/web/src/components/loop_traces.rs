//! The JIT traces of the selected function's loops, below its listing: per loop, base's and
//! head's uops side by side (one column for one run), what the diff says changed, and each uop
//! a button that selects the instruction row it came from in the listing (the route's `site`:
//! the listing unfolds around it and scrolls it into view).

use yew::prelude::*;

use super::Ctx;
use crate::view_model::{TraceDetail, TraceLine};
use crate::format::shown;
use crate::state::Action;

/// Props of [`LoopTraces`].
#[derive(Properties, PartialEq)]
pub struct LoopTracesProps {
    /// The loops.
    pub traces: Vec<TraceDetail>,
    /// Two columns (a diff) or one (one run).
    pub diff: bool,
    /// The selected instruction row.
    pub site: Option<u32>,
}

/// The loops' traces.
#[function_component(LoopTraces)]
pub fn loop_traces(props: &LoopTracesProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    if props.traces.is_empty() {
        return Html::default();
    }
    let uop = |u: &Option<(String, Option<u32>)>| -> Html {
        match u {
            None => html! { <td class="none"></td> },
            Some((name, None)) => html! { <td><span class="uop" title="from an inlined callee, or added by the optimizer">{shown(name)}</span></td> },
            Some((name, Some(n))) => {
                // Uop names come from the dump as they are: shown inert, like opnames.
                let (n, name) = (*n, shown(name));
                let onclick = ctx.dispatch.reform(move |_| Action::SelectSite(n));
                let selected = props.site == Some(n);
                html! {
                    <td class={classes!(selected.then_some("from-selected"))}>
                        <button type="button" class="uop link-btn" {onclick} title={format!("go to the instruction it came from (row {n})")}
                            aria-label={format!("{name}: go to the instruction it came from, row {n}")}>{name}</button>
                    </td>
                }
            }
        }
    };
    let line = |l: &TraceLine| {
        let class = match (&l.base, &l.head, l.same) {
            (_, _, true) => None,
            (Some(_), None, _) => Some("t-removed"),
            (None, Some(_), _) => Some("t-added"),
            _ => Some("t-replaced"),
        };
        html! {
            <tr class={classes!(class)}>
                {uop(&l.base)}
                if props.diff { {uop(&l.head)} }
            </tr>
        }
    };
    html! {
        <section class="traces" aria-label="JIT traces of the loops">
            <h3>{"JIT traces"}</h3>
            { for props.traces.iter().map(|t| {
                let at = t.line.map_or("a loop".to_string(), |l| format!("the loop at line {l}"));
                html! {
                    <div class="trace">
                        <h4>{format!("Trace of {at}")}
                            if let Some(c) = &t.change { {" "}<span class={classes!("badge", format!("t-{c}"))}>{format!("trace {c}")}</span> }
                        </h4>
                        if let Some(e) = &t.explanation { <p class="trace-why">{shown(e)}</p> }
                        <div class="trace-wrap" tabindex="0" role="region" aria-label={format!("uops of {at}")}>
                            <table class="trace-table">
                                <thead><tr>
                                    if props.diff {
                                        <th>{format!("base: {}", t.sides[0])}</th><th>{format!("head: {}", t.sides[1])}</th>
                                    } else {
                                        <th>{t.sides[0].clone()}</th>
                                    }
                                </tr></thead>
                                <tbody>{ for t.rows.iter().map(line) }</tbody>
                            </table>
                        </div>
                    </div>
                }
            }) }
        </section>
    }
}
