//! The regression gate (`specdiff diff --fail-on-regression`): which regressed functions are
//! hot enough to fail a pull request. The CLI applies it and exits 1; its verdict is part of
//! the [`View`](super::View) every output renders.
//!
//! A function *regressed* when the engine counts regressions in it (`lost` + `missing` +
//! `backed_off` sites). It is *hot* when its hotness — the share of a run's samples with the
//! function anywhere on the stack, not counting samples taken while a module was being
//! imported — reaches `--min-hotness` percent in the base run or in the head run *with 95 %
//! confidence*: the Wilson score interval's lower end of that share must reach the threshold
//! ([`super::hotness`]). An unchanged program whose `enum` metaclass was caught once outside
//! an import failed the gate on one sample in 49 before. Only runs that were sampled count:
//! when neither run has samples (sampler `off` with `specdiff dump --no-sample`, or
//! `unavailable` as under pyodide) nothing is known about hotness, and every regressed
//! function counts as hot, so a regression is never hidden by a missing sampler.
//!
//! Import-time code ([`crate::report::import_time`], the report's `import_time` flag) does not
//! fail the gate unless `--gate-import-time` asks: the report still lists it, and the verdict
//! counts it apart (`import_time`).

use serde::Serialize;

use super::hotness::{hotness_floor_percent, hotness_percent};
use crate::report::wording::{count, percent};
use crate::report::{DiffReport, FunctionDiff};

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
    /// The hotness the samples prove with 95 % confidence, in percent (the larger of the
    /// sampled runs' Wilson lower bounds): what the gate compares with `--min-hotness`.
    pub hotness_floor: Option<f64>,
}

impl GateFunction {
    /// Its hotness with what its samples prove (the gate compares the latter):
    /// `hot 12.0% (≥ 6.1% at 95% confidence)`; `None` when no run was sampled.
    pub fn hotness_words(&self) -> Option<String> {
        let h = self.hotness?;
        Some(match self.hotness_floor {
            Some(floor) => format!("hot {} (≥ {} at 95% confidence)", percent(h / 100.0), percent(floor / 100.0)),
            None => format!("hot {}", percent(h / 100.0)),
        })
    }
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

/// The gate's line about regressed import-time code it did not count.
pub fn import_time_note(n: usize) -> String {
    format!(
        "{} in import-time code (module and class bodies, importlib, site, code run only inside imports) not counted; --gate-import-time counts them",
        count(n as u64, "regressed function", "regressed functions")
    )
}

/// Applies the gate to a report; import-time code counts only with `import_time`, loops that
/// lost (part of) their JIT trace only with `traces`: whether an executor is attached when a
/// run ends varies from run to run of the same program (sqlglot's hot loops on 3.14, dumped
/// twice), so a lost trace is reported, and gates only when asked.
pub fn evaluate(report: &DiffReport, min_hotness: f64, import_time: bool, traces: bool) -> GateResult {
    let unsampled = report.base.samples == 0 && report.head.samples == 0;
    let (mut hot, mut cold, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    let counted = |f: &FunctionDiff| f.regressions + if traces { f.trace_regressions() } else { 0 };
    for f in report.functions.iter().filter(|f| counted(f) > 0) {
        let (hotness, hotness_floor) = (hotness_percent(report, f), hotness_floor_percent(report, f));
        let function = format!("{}:{}", f.module, f.qualname);
        let regressions = counted(f);
        let entry = GateFunction { function, regressions, hotness, hotness_floor };
        // The report's flag: the one definition every output shares (`report/import_time.rs`).
        if !import_time && f.import_time {
            skipped.push(entry);
            continue;
        }
        match hotness_floor {
            Some(h) if h < min_hotness => cold.push(entry),
            _ => hot.push(entry),
        }
    }
    GateResult { tripped: !hot.is_empty(), min_hotness, unsampled, hot, cold, import_time: skipped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Hotness;

    fn demo() -> DiffReport {
        serde_json::from_str(include_str!("../../../cli/tests/golden/demo-3.12.json")).unwrap()
    }

    #[test]
    fn the_gate_counts_import_time_functions_apart() {
        let mut report = demo();
        report.functions.retain(|f| f.regressions > 0);
        let all = report.functions.len();
        assert!(all > 0);
        report.functions[0].import_time = true;
        let g = evaluate(&report, 0.0, false, false);
        assert_eq!((g.hot.len(), g.import_time.len()), (all - 1, 1));
        // `--gate-import-time` counts it.
        assert_eq!(evaluate(&report, 0.0, true, false).hot.len(), all);
    }

    #[test]
    fn one_sample_of_a_short_run_does_not_make_a_function_hot() {
        let mut report = demo();
        report.base.samples = 49;
        report.head.samples = 49;
        report.functions.retain(|f| f.regressions > 0);
        for f in &mut report.functions {
            f.hotness = Hotness::default();
        }
        let (one, two) = (1.0 / 49.0, 2.0 / 49.0);
        report.functions[0].hotness.head_runtime_share = one;
        let g = evaluate(&report, 1.0, false, false);
        assert!(!g.tripped, "{g:#?}");
        let cold = &g.cold[0];
        assert!((cold.hotness.unwrap() - 2.04).abs() < 0.01 && cold.hotness_floor.unwrap() < 0.4, "{cold:?}");
        // Two samples of 49 prove 1.1 %: hot, as is the same share of a run ten times longer.
        report.functions[0].hotness.head_runtime_share = two;
        assert!(evaluate(&report, 1.0, false, false).tripped);
        report.functions[0].hotness.head_runtime_share = one;
        report.head.samples = 490;
        assert!(evaluate(&report, 1.0, false, false).tripped);
        // `--min-hotness 0` counts every regressed function, sampled or not.
        assert_eq!(evaluate(&report, 0.0, false, false).hot.len(), report.functions.len());
    }
}
