//! The JSON rendering of a diff (`specdiff diff --format json`): the engine's report exactly
//! as `specdiff_core` serializes it (documented in `docs/diff-format.md`), with two keys the
//! command adds: `stats_diff` (the pystats diff, `null` unless both runs have statistics) and
//! `gate` (the `--fail-on-regression` verdict, `null` without that flag), and with `--link`
//! `link` (the diff's share link for the viewer).

use serde::Serialize;
use specdiff_core::report::{DiffReport, StatsDiff};
use specdiff_core::view::GateResult;

use super::RenderInput;

#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    report: &'a DiffReport,
    stats_diff: Option<&'a StatsDiff>,
    gate: Option<&'a GateResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<&'a str>,
}

/// Renders the report as pretty-printed JSON, ending in a newline.
pub fn render(input: &RenderInput) -> Vec<u8> {
    let out = Output { report: input.report, stats_diff: input.stats, gate: input.view.gate.as_ref(), link: input.link };
    let mut bytes = serde_json::to_vec_pretty(&out).expect("the report serializes");
    bytes.push(b'\n');
    bytes
}
