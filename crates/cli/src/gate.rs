//! The regression gate of `specdiff diff --fail-on-regression`: which regressed functions are
//! hot enough to fail a pull request.
//!
//! A function *regressed* when the engine counts regressions in it (`lost` + `missing` +
//! `backed_off` sites). It is *hot* when its hotness — the share of a run's samples with the
//! function anywhere on the stack — reaches `--min-hotness` percent in the base run or in the
//! head run. Only runs that were sampled count: when neither run has samples (sampler `off`
//! with `specdiff dump --no-sample`, or `unavailable` as under pyodide) nothing is known about
//! hotness, and every regressed function counts as hot, so a regression is never hidden by a
//! missing sampler.

use serde::Serialize;
use specdiff_core::{DiffReport, FunctionDiff};

/// The default `--min-hotness`, in percent of samples.
pub const DEFAULT_MIN_HOTNESS: f64 = 1.0;

/// One regressed function as the gate saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateFunction {
    /// `module:qualname`.
    pub function: String,
    /// Regressed sites.
    pub regressions: u32,
    /// Hotness in percent (the larger of the sampled runs'); `None` when no run was sampled.
    pub hotness: Option<f64>,
}

/// The gate's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateResult {
    /// True when at least one hot function regressed: `specdiff diff` exits 1.
    pub tripped: bool,
    /// `--min-hotness`, in percent.
    pub min_hotness: f64,
    /// True when neither run was sampled, so every regressed function counted as hot.
    pub unsampled: bool,
    /// Regressed functions at or above the threshold, in report order.
    pub hot: Vec<GateFunction>,
    /// Regressed functions below it.
    pub cold: Vec<GateFunction>,
}

/// Hotness of `f` in percent over the sampled runs, `None` when no run was sampled.
pub fn hotness_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    let sides = [(report.base.samples, f.hotness.base_share), (report.head.samples, f.hotness.head_share)];
    sides.iter().filter(|(samples, _)| *samples > 0).map(|(_, share)| share * 100.0).reduce(f64::max)
}

/// Applies the gate to a report.
pub fn evaluate(report: &DiffReport, min_hotness: f64) -> GateResult {
    let unsampled = report.base.samples == 0 && report.head.samples == 0;
    let (mut hot, mut cold) = (Vec::new(), Vec::new());
    for f in report.functions.iter().filter(|f| f.regressions > 0) {
        let hotness = hotness_percent(report, f);
        let entry =
            GateFunction { function: format!("{}:{}", f.module, f.qualname), regressions: f.regressions, hotness };
        match hotness {
            Some(h) if h < min_hotness => cold.push(entry),
            _ => hot.push(entry),
        }
    }
    GateResult { tripped: !hot.is_empty(), min_hotness, unsampled, hot, cold }
}

/// Parses `--min-hotness`: a percentage, 0 or more (above 100 nothing is hot).
pub fn parse_min_hotness(text: &str) -> Result<f64, String> {
    let value: f64 =
        text.trim().trim_end_matches('%').parse().map_err(|_| format!("{text:?} is not a percentage like 1 or 0.5"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("{text:?}: the percentage must be 0 or more"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_hotness_parses_percentages() {
        assert_eq!(parse_min_hotness("1"), Ok(1.0));
        assert_eq!(parse_min_hotness("0.5%"), Ok(0.5));
        assert_eq!(parse_min_hotness("1000"), Ok(1000.0));
        assert!(parse_min_hotness("-1").is_err());
        assert!(parse_min_hotness("NaN").is_err());
        assert!(parse_min_hotness("lots").is_err());
    }
}
