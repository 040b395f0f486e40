//! The stats tab: specialization statistics (pystats) per opcode, base and head.

use yew::prelude::*;

use crate::format::count;
use crate::model::StatsTable;
use crate::state::Shared;

/// Props of [`StatsView`].
#[derive(Properties, PartialEq)]
pub struct StatsViewProps {
    /// The table, once the engine sent it.
    pub table: Option<Shared<StatsTable>>,
    /// Any stats loaded.
    pub has_stats: bool,
}

/// The stats table.
#[function_component(StatsView)]
pub fn stats_view(props: &StatsViewProps) -> Html {
    if !props.has_stats {
        return html! {
            <section class="card stats empty">
                <p>{"No specialization statistics loaded."}</p>
                <p class="muted">{"They come from a CPython built with --enable-pystats: either inside a dump made with such an \
                    interpreter, or as the raw files it writes (drop them on a side; several files make one run)."}</p>
            </section>
        };
    }
    let Some(t) = &props.table else { return html! { <section class="card stats"><p class="muted">{"loading…"}</p></section> } };
    let sides: Vec<usize> = (0..2).filter(|&i| t.sides[i]).collect();
    let cell = |v: Option<u64>| v.map(count).unwrap_or_default();
    html! {
        <section class="card stats">
            { for t.notes.iter().map(|n| html! { <p class="muted small">{n.clone()}</p> }) }
            <div class="table-wrap">
            <p class="muted small">{"Counters CPython keeps per instruction family (on the family head). \
                Head values that moved are green when better, red when worse."}</p>
            <table class="stats-table">
                <thead>
                    <tr><th rowspan="2">{"opcode"}</th>
                        { for t.columns.iter().map(|c| html! { <th colspan={sides.len().to_string()}>{c.clone()}</th> }) }</tr>
                    <tr>{ for t.columns.iter().flat_map(|_| sides.iter().map(|&i| html! { <th class="side-th">{ if i == 0 { "base" } else { "head" } }</th> })) }</tr>
                </thead>
                <tbody>
                { for t.rows.iter().map(|r| html! {
                    <tr>
                        <th>{r.name.clone()}</th>
                        { for (0..t.columns.len()).flat_map(|c| sides.iter().map(move |&i| {
                            let v = if i == 0 { r.base[c] } else { r.head[c] };
                            // Head cells that moved are coloured: green when better, red when worse.
                            let tone = match (i, r.base[c], r.head[c], t.better.get(c).copied().flatten()) {
                                (1, Some(b), Some(h), Some(up)) if b != h => if (h > b) == up { "good" } else { "bad" },
                                _ => "",
                            };
                            html! { <td class={classes!("num", tone)}>{cell(v)}</td> }
                        })) }
                    </tr>
                }) }
                </tbody>
            </table>
            </div>
        </section>
    }
}
