//! The stats tab: specialization statistics (pystats) per family, base and head, sortable by
//! any header, with each family's failed attempts broken down by kind on request.

use yew::prelude::*;

use super::Ctx;
use crate::format::{grouped, count};
use crate::view_model::{Side, StatsTable};
use crate::state::{Action, Shared};
use crate::stats_order::{order, StatsKey, StatsSort};

/// Props of [`StatsView`].
#[derive(Properties, PartialEq)]
pub struct StatsViewProps {
    /// The table, once the engine sent it.
    pub table: Option<Shared<StatsTable>>,
    /// Any stats loaded.
    pub has_stats: bool,
    /// The rows' order.
    pub sort: StatsSort,
}

/// The stats table.
#[function_component(StatsView)]
pub fn stats_view(props: &StatsViewProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    // Families whose failure kinds are shown (a view detail, like folds: not in the state).
    let opened = use_state(Vec::<String>::new);
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
    let sides: Vec<Side> = Side::BOTH.into_iter().filter(|s| t.sides[s.index()]).collect();
    let sort = props.sort;
    let header = |key: StatsKey, label: String, title: String, class: &'static str, span: usize| {
        let dispatch = ctx.dispatch.clone();
        let onclick = Callback::from(move |_| dispatch.emit(Action::SortStats(key)));
        // A button inside, so the headers take the keyboard focus and Enter/Space sort too.
        html! {
            <th class={class} colspan={span.to_string()} aria-sort={sort.aria(key)}>
                <button class="sort" {title} {onclick}>{label}{sort.arrow(key)}</button>
            </th>
        }
    };
    let tone = |c: usize, b: Option<u64>, h: Option<u64>| match (b, h, t.better.get(c).copied().flatten()) {
        // Head cells that moved are coloured: green when better, red when worse.
        (Some(b), Some(h), Some(up)) if b != h => if (h > b) == up { "good" } else { "bad" },
        _ => "",
    };
    // Rows are pushed into plain vectors: each distinct iterator chain handed to `html!`
    // would be another copy of the collecting code in the wasm.
    let push_cells = |out: &mut Vec<Html>, c: usize, b: Option<u64>, h: Option<u64>| {
        for &s in &sides {
            let (v, class) = if s == Side::Base { (b, "") } else { (h, tone(c, b, h)) };
            out.push(html! { <td class={classes!("num", class)}>{v.map(grouped).unwrap_or_default()}</td> });
        }
    };
    // Failure kinds sit under the last column, which the engine makes "failure".
    let last = t.columns.len().saturating_sub(1);
    let mut rows = Vec::new();
    for i in order(t, sort) {
        let r = &t.rows[i];
        let open = opened.contains(&r.name);
        let toggle = (!r.kinds.is_empty()).then(|| {
            let (opened, name) = (opened.clone(), r.name.clone());
            let onclick = Callback::from(move |_| {
                let mut now = (*opened).clone();
                match now.iter().position(|n| *n == name) {
                    Some(at) => {
                        now.remove(at);
                    }
                    None => now.push(name.clone()),
                }
                opened.set(now);
            });
            let n = r.kinds.len();
            let label = format!("{} {}", if open { "▾" } else { "▸" }, count(n as u64, "failure kind", "failure kinds"));
            html! { <button class="kinds-toggle" aria-expanded={open.to_string()} {onclick}>{label}</button> }
        });
        let mut cells = vec![html! { <th>{r.name.clone()}{toggle}</th> }];
        for c in 0..t.columns.len() {
            push_cells(&mut cells, c, r.base[c], r.head[c]);
        }
        rows.push(html! { <tr>{cells}</tr> });
        for k in r.kinds.iter().filter(|_| open) {
            let mut cells = vec![html! {
                <td class="kind" colspan={(1 + last * sides.len()).to_string()} title={k.constant.clone()}>{k.label.clone()}</td>
            }];
            push_cells(&mut cells, last, k.base, k.head);
            rows.push(html! { <tr class="kind-row">{cells}</tr> });
        }
    }
    let mut groups = vec![header(StatsKey::Name, "opcode".into(), "sort by name".into(), "", 1)];
    let mut values = vec![header(StatsKey::Executions, "by executions".into(), "sort by executions (the first order)".into(), "side-th", 1)];
    for (c, name) in t.columns.iter().enumerate() {
        groups.push(header(StatsKey::Change(c), name.clone(), format!("sort by how far {name} moved"), "", sides.len()));
        for &side in &sides {
            let title = format!("sort by {} {name}", side.name());
            values.push(header(StatsKey::Value { column: c, side }, side.name().into(), title, "side-th", 1));
        }
    }
    html! {
        <section class="card stats">
            { for t.notes.iter().map(|n| html! { <p class="muted small">{n.clone()}</p> }) }
            <div class="table-wrap">
            <p class="muted small">{"Counters CPython keeps per instruction family (on the family head). \
                Head values that moved are green when better, red when worse. Click a header to sort: \
                a counter's name sorts by how far it moved, base or head by that value."}</p>
            <table class="stats-table">
                <thead>
                    <tr>{groups}</tr>
                    <tr>{values}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            </div>
        </section>
    }
}
