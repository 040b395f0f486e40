//! The overview tab: run-level numbers, the per-family chart, and the ranked list of the
//! regressions that matter most (hotness × regressions).

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::family_chart::FamilyChart;
use super::legend::{Legend, Terms};
use super::Ctx;
use crate::model::{ChangeKind, Mode, Summary, Tone};
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
    let top_title = if diff { "Top regressions · ranked by hotness × regressions" } else { "Hottest functions with unspecialized sites" };
    let top = if o.top.is_empty() {
        html! { <p class="muted">{ if diff { "No regressions: every site that was specialized still is." } else { "Nothing to rank: no hot function has unspecialized sites." } }</p> }
    } else {
        html! {
            <table class="top-list">
                <tbody>
                { for o.top.iter().enumerate().map(|(i, t)| {
                    let key = t.key.clone();
                    let onclick = ctx.dispatch.reform(move |_| Action::Select(key.clone()));
                    html! {
                        <tr class="clickable" {onclick} data-key={t.key.clone()}>
                            <td class="rank">{i + 1}</td>
                            <td>
                                if t.class != ChangeKind::Unchanged { <ClassBadge class={t.class} /> }
                            </td>
                            <td class="name"><span class="qual">{t.title.clone()}</span>
                                <span class="loc">{t.location.clone()}</span></td>
                            <td class="detail">{t.detail.clone()}</td>
                            <td class="num" title="ranking score">{format!("{:.2}", t.score)}</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
        }
    };
    html! {
        <div class="overview">
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
                                html! { <span class="chip-link" {onclick}><ClassBadge class={c} count={Some(*n)} /></span> }
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
                {top}
            </section>
        </div>
    }
}

