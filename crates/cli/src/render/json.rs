//! The JSON rendering of a diff (`specdiff diff --format json`): the engine's report exactly
//! as `specdiff_core` serializes it (documented in `docs/diff-format.md`), with two keys the
//! command adds: `stats_diff` (the pystats diff, `null` unless both runs have statistics) and
//! `gate` (the `--fail-on-regression` verdict, `null` without that flag), `view` (the counts
//! and each function's hotness estimate with its interval, as text and markdown show them), and
//! with `--link`
//! `link` (the diff's share link for the viewer).

use serde::Serialize;
use specdiff_core::report::{DiffReport, StatsDiff};
use specdiff_core::view::cost::DiffCost;
use specdiff_core::view::{FunctionView, GateResult, Overview};

use super::RenderInput;

#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    report: &'a DiffReport,
    stats_diff: Option<&'a StatsDiff>,
    gate: Option<&'a GateResult>,
    view: ViewOutput<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<&'a str>,
}

/// The core's view of the diff: the counts and each function's hotness with its interval, as
/// every other output shows them.
#[derive(Serialize)]
struct ViewOutput<'a> {
    overview: &'a Overview,
    functions: &'a [FunctionView],
    /// `--cost`: the regressions' estimated cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<&'a DiffCost>,
}

/// Renders the report as pretty-printed JSON, ending in a newline.
pub fn render(input: &RenderInput) -> Vec<u8> {
    let view = ViewOutput { overview: &input.view.overview, functions: &input.view.functions, cost: input.view.cost.as_ref() };
    let out = Output { report: input.report, stats_diff: input.stats, gate: input.view.gate.as_ref(), view, link: input.link };
    let mut bytes = serde_json::to_vec_pretty(&out).expect("the report serializes");
    bytes.push(b'\n');
    bytes
}
