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
//!
//! Import-time code does not fail the gate unless `--gate-import-time` asks: module and class
//! bodies (they run once, when imported) and the interpreter's own import machinery
//! (`importlib._bootstrap`, `importlib._bootstrap_external`, `<frozen importlib…>`). Their
//! counters move with import order and caches, not with the code under review; the report
//! still lists them, and the verdict counts them apart (`import_time`).

use serde::Serialize;
use specdiff_core::model::CodeKind;
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
    /// Regressed import-time functions, not counted (`--gate-import-time` counts them).
    pub import_time: Vec<GateFunction>,
}

/// True for code that runs at import time: module and class bodies, and the interpreter's
/// import machinery.
pub fn is_import_time(f: &FunctionDiff) -> bool {
    matches!(f.kind, CodeKind::Module | CodeKind::Class)
        || f.module == "importlib._bootstrap"
        || f.module == "importlib._bootstrap_external"
        || f.module.starts_with("<frozen importlib")
}

/// Hotness of `f` in percent over the sampled runs, `None` when no run was sampled.
pub fn hotness_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    let sides = [(report.base.samples, f.hotness.base_share), (report.head.samples, f.hotness.head_share)];
    sides.iter().filter(|(samples, _)| *samples > 0).map(|(_, share)| share * 100.0).reduce(f64::max)
}

/// Applies the gate to a report; import-time code counts only with `import_time`.
pub fn evaluate(report: &DiffReport, min_hotness: f64, import_time: bool) -> GateResult {
    let unsampled = report.base.samples == 0 && report.head.samples == 0;
    let (mut hot, mut cold, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for f in report.functions.iter().filter(|f| f.regressions > 0) {
        let hotness = hotness_percent(report, f);
        let entry =
            GateFunction { function: format!("{}:{}", f.module, f.qualname), regressions: f.regressions, hotness };
        if !import_time && is_import_time(f) {
            skipped.push(entry);
            continue;
        }
        match hotness {
            Some(h) if h < min_hotness => cold.push(entry),
            _ => hot.push(entry),
        }
    }
    GateResult { tripped: !hot.is_empty(), min_hotness, unsampled, hot, cold, import_time: skipped }
}

/// Parses `--min-hotness`: a percentage from 0 to 100. Above 100 no function could ever be
/// hot, a gate that silently never trips, so it is refused like any other impossible value.
pub fn parse_min_hotness(text: &str) -> Result<f64, String> {
    let shown = crate::render::inert(text);
    let value: f64 =
        text.trim().trim_end_matches('%').parse().map_err(|_| format!("'{shown}' is not a percentage like 1 or 0.5"))?;
    if !value.is_finite() {
        return Err(format!("'{shown}' is not a finite number; the percentage must be from 0 to 100"));
    }
    if !(0.0..=100.0).contains(&value) {
        return Err(format!("'{shown}' is out of range; the percentage must be from 0 to 100"));
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
        assert_eq!(parse_min_hotness("0"), Ok(0.0));
        assert_eq!(parse_min_hotness("100%"), Ok(100.0));
        for (text, reason) in [
            ("101", "out of range"),
            ("1000", "out of range"),
            ("-1", "out of range"),
            ("inf", "not a finite number"),
            ("-inf", "not a finite number"),
            ("NaN", "not a finite number"),
            ("lots", "not a percentage like 1 or 0.5"),
            ("", "not a percentage like 1 or 0.5"),
        ] {
            let e = parse_min_hotness(text).unwrap_err();
            assert!(e.starts_with(&format!("'{text}' ")) && e.contains(reason), "{text}: {e}");
        }
    }
}
