//! Per-family before/after bar chart, drawn with HTML and laid out by the style sheet's grid (no
//! chart library). Not SVG: a scaled drawing shrinks its text with its width (on a phone the
//! labels were ~6 px), while HTML keeps the text's size and the style sheet moves the labels
//! above the bars on narrow screens (`.family-chart` in `www/style.css`).

use yew::prelude::*;

use crate::format::{grouped, percent, percent_compact};
use crate::view_model::{FamilyBar, Share};

/// Props of [`FamilyChart`].
#[derive(Properties, PartialEq)]
pub struct FamilyChartProps {
    /// One entry per family, most sites first.
    pub bars: Vec<FamilyBar>,
}

/// Specialized share per family; base above head.
#[function_component(FamilyChart)]
pub fn family_chart(props: &FamilyChartProps) -> Html {
    if props.bars.is_empty() {
        return html! { <p class="muted">{"No adaptive sites."}</p> };
    }
    let both = props.bars.iter().any(|b| b.base.is_some()) && props.bars.iter().any(|b| b.head.is_some());
    // A bar is two cells of the chart's grid: its track (with the filled part) and its value.
    let bar = |s: Option<Share>, class: &'static str, who: &'static str, family: &str| -> Html {
        // A side without the family keeps its two cells (empty), so the next bar stays in its row.
        let Some(s) = s else { return html! { <><span></span><span></span></> } };
        // A sliver stays visible for any specialized site.
        let w = (s.ratio() * 100.0).max(if s.specialized > 0 { 0.4 } else { 0.0 });
        let tip = format!("{family} · {who}: {} of {} sites specialized ({})", grouped(s.specialized as u64), grouped(s.sites as u64), percent(s.ratio()));
        html! {
            <>
                <span class="bar-bg" title={tip.clone()}><span class={class} style={format!("width:{w:.1}%")}></span></span>
                <span class="bar-val" title={tip}>{format!("{} ({}/{})", percent_compact(s.ratio()), grouped(s.specialized as u64), grouped(s.sites as u64))}</span>
            </>
        }
    };
    html! {
        <figure class={classes!("family-chart", both.then_some("both"))} aria-label="specialized share per instruction family">
            if both {
                <span class="fam-legend"><span class="swatch bar-base"></span>{"base"}<span class="swatch bar-head"></span>{"head"}</span>
            }
            { for props.bars.iter().map(|b| {
                let regressed = match (b.base, b.head) { (Some(x), Some(y)) => y.ratio() + 1e-9 < x.ratio(), _ => false };
                html! {
                    <div class={classes!("fam", regressed.then_some("regressed"))} data-family={b.family.clone()}>
                        <span class="fam-label">{b.family.clone()}</span>
                        if both {
                            { bar(b.base, "bar-base", "base", &b.family) }
                            { bar(b.head, "bar-head", "head", &b.family) }
                        } else {
                            { bar(b.base.or(b.head), "bar-head", "run", &b.family) }
                        }
                    </div>
                }
            }) }
        </figure>
    }
}
