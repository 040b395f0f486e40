//! Per-family before/after bar chart, drawn as SVG by the app (no chart library).

use yew::prelude::*;

use crate::format::{grouped, percent, percent_compact};
use crate::view_model::{FamilyBar, Share};

/// Props of [`FamilyChart`].
#[derive(Properties, PartialEq)]
pub struct FamilyChartProps {
    /// One entry per family, most sites first.
    pub bars: Vec<FamilyBar>,
}

const LABEL_W: f64 = 190.0;
const BAR_W: f64 = 300.0;
const ROW_H: f64 = 26.0;
/// Widths of one character, with room to spare, of the family names (11.5 px monospace) and
/// of the values (10.5 px sans-serif; digits are 5.6 to 7.2 px wide in the common system fonts):
/// the chart is as wide as its longest texts, so no label runs past its edge.
const LABEL_CHAR_W: f64 = 7.2;
const VALUE_CHAR_W: f64 = 7.4;

fn value_text(s: Share) -> String {
    format!("{} ({}/{})", percent_compact(s.ratio()), grouped(s.specialized as u64), grouped(s.sites as u64))
}

/// Specialized share per family; base above head.
#[function_component(FamilyChart)]
pub fn family_chart(props: &FamilyChartProps) -> Html {
    if props.bars.is_empty() {
        return html! { <p class="muted">{"No adaptive sites."}</p> };
    }
    let both = props.bars.iter().any(|b| b.base.is_some()) && props.bars.iter().any(|b| b.head.is_some());
    let top = if both { 22.0 } else { 4.0 };
    let height = top + ROW_H * props.bars.len() as f64;
    let longest = |text: &dyn Fn(&FamilyBar) -> usize| props.bars.iter().map(text).max().unwrap_or(0) as f64;
    let label_w = LABEL_W.max(longest(&|b| b.family.chars().count()) * LABEL_CHAR_W + 8.0);
    let values = longest(&|b| [b.base, b.head].iter().flatten().map(|s| value_text(*s).chars().count()).max().unwrap_or(0));
    let width = label_w + BAR_W + 6.0 + values * VALUE_CHAR_W;
    let bar = |y: f64, h: f64, s: Option<Share>, class: &'static str, who: &'static str, family: &str| -> Html {
        let Some(s) = s else { return html! {} };
        let w = (s.ratio() * BAR_W).max(if s.specialized > 0 { 1.5 } else { 0.0 });
        let tip = format!("{family} · {who}: {} of {} sites specialized ({})", grouped(s.specialized as u64), grouped(s.sites as u64), percent(s.ratio()));
        html! {
            <g>
                <rect x={label_w.to_string()} y={y.to_string()} width={BAR_W.to_string()} height={h.to_string()} class="bar-bg" />
                <rect x={label_w.to_string()} y={y.to_string()} width={format!("{w:.1}")} height={h.to_string()} class={class}>
                    <title>{tip.clone()}</title>
                </rect>
                <text x={(label_w + BAR_W + 6.0).to_string()} y={(y + h - 1.0).to_string()} class="bar-val">
                    {value_text(s)}
                    <title>{tip}</title>
                </text>
            </g>
        }
    };
    html! {
        <svg class="family-chart" viewBox={format!("0 0 {width} {height}")} width="100%" role="img"
            aria-label="specialized share per instruction family">
            if both {
                <g class="legend">
                    <rect x={label_w.to_string()} y="4" width="10" height="8" class="bar-base" />
                    <text x={(label_w + 14.0).to_string()} y="12" class="bar-val">{"base"}</text>
                    <rect x={(label_w + 60.0).to_string()} y="4" width="10" height="8" class="bar-head" />
                    <text x={(label_w + 74.0).to_string()} y="12" class="bar-val">{"head"}</text>
                </g>
            }
            { for props.bars.iter().enumerate().map(|(i, b)| {
                let y0 = top + ROW_H * i as f64;
                let regressed = match (b.base, b.head) { (Some(x), Some(y)) => y.ratio() + 1e-9 < x.ratio(), _ => false };
                html! {
                    <g class={classes!("fam", regressed.then_some("regressed"))} data-family={b.family.clone()}>
                        <text x={(label_w - 8.0).to_string()} y={(y0 + 15.0).to_string()} class="fam-label" text-anchor="end">{b.family.clone()}</text>
                        if both {
                            { bar(y0 + 2.0, 9.0, b.base, "bar-base", "base", &b.family) }
                            { bar(y0 + 13.0, 9.0, b.head, "bar-head", "head", &b.family) }
                        } else {
                            { bar(y0 + 5.0, 14.0, b.base.or(b.head), "bar-head", "run", &b.family) }
                        }
                    </g>
                }
            }) }
        </svg>
    }
}
