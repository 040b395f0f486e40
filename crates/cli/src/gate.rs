//! The regression gate of `specdiff diff --fail-on-regression`: which regressed functions are
//! hot enough to fail a pull request.
//!
//! A function *regressed* when the engine counts regressions in it (`lost` + `missing` +
//! `backed_off` sites). It is *hot* when its hotness — the share of a run's samples with the
//! function anywhere on the stack, not counting samples taken while a module was being
//! imported — reaches `--min-hotness` percent in the base run or in the head run *with 95 %
//! confidence*: the Wilson score interval's lower end of that share must reach the threshold.
//! A sampled share is an estimate, and a short run's one sample in 49 (2 %) says only that the
//! function ran at least once; an unchanged program whose `enum` metaclass was caught once
//! outside an import failed the gate that way. Only runs that were sampled count: when neither run has samples (sampler `off`
//! with `specdiff dump --no-sample`, or `unavailable` as under pyodide) nothing is known about
//! hotness, and every regressed function counts as hot, so a regression is never hidden by a
//! missing sampler.
//!
//! Import-time code does not fail the gate unless `--gate-import-time` asks: module and class
//! bodies (they run once, when imported), the interpreter's own import machinery
//! (`importlib._bootstrap`, `importlib._bootstrap_external`, `<frozen importlib…>`), its
//! startup (`site`, `sitecustomize`, `usercustomize`: they run before the program, and
//! `site.abs_paths` walks a set of modules in an order that depends on their addresses: under
//! pyodide it came out `lost` between two runs of an unchanged program), and any
//! function every sample of which was taken inside an import (an `Enum` metaclass building
//! the enums of a module being imported, a dataclass decorator, `re.compile` of a module-level
//! pattern). Their counters move with import order and caches, not with the code under review;
//! the report still lists them, and the verdict counts them apart (`import_time`).

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
    /// The hotness the samples prove with 95 % confidence, in percent (the larger of the
    /// sampled runs' Wilson lower bounds): what the gate compares with `--min-hotness`.
    pub hotness_floor: Option<f64>,
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

/// Hotness of `f` in percent over the sampled runs, outside imports; `None` when no run was
/// sampled.
pub fn hotness_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    hotness_estimate(report, f).map(|e| e.percent)
}

/// The hotness of `f` that its samples prove with 95 % confidence, in percent: the larger of
/// the sampled runs' [`share_floor`]s; `None` when no run was sampled.
pub fn hotness_floor_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    sampled_sides(report, f).map(|(samples, share)| share_floor(share, samples) * 100.0).reduce(f64::max)
}

/// What the samples say about `f`'s hotness, from the sampled run where it is the hottest:
/// `None` when no run was sampled.
pub fn hotness_estimate(report: &DiffReport, f: &FunctionDiff) -> Option<HotnessEstimate> {
    sampled_sides(report, f).max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))).map(|(samples, share)| {
        let (low, high) = share_interval(share, samples);
        HotnessEstimate { percent: share * 100.0, low: low * 100.0, high: high * 100.0, samples }
    })
}

/// A sampled hotness with its 95 % interval, in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HotnessEstimate {
    /// The measured share of the run's samples.
    pub percent: f64,
    /// The Wilson interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The run's samples.
    pub samples: u64,
}

/// `(run samples, runtime share)` of each sampled run.
fn sampled_sides(report: &DiffReport, f: &FunctionDiff) -> impl Iterator<Item = (u64, f64)> {
    let h = &f.hotness;
    [(report.base.samples, h.base_runtime_share), (report.head.samples, h.head_runtime_share)]
        .into_iter()
        .filter(|(samples, _)| *samples > 0)
}

/// The lower end of the 95 % Wilson score interval of a share measured as `share` of
/// `samples` samples (see [`share_interval`]).
pub fn share_floor(share: f64, samples: u64) -> f64 {
    share_interval(share, samples).0
}

/// The 95 % Wilson score interval of a share measured as `share` of `samples` samples. Each
/// sample sees the function on the stack or not, so the count is binomial; Wilson's interval
/// stays inside 0–1 and is sound at the small counts of a short run, where the normal
/// approximation claims a single sample proves a share above zero. No samples: `(0, 1)`.
pub fn share_interval(share: f64, samples: u64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054; // two-sided 95 %
    if samples == 0 {
        return (0.0, 1.0);
    }
    let n = samples as f64;
    // The count, recovered from the rounded share; a share is a count over `samples`.
    let p = (share * n).round().clamp(0.0, n) / n;
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let scale = 1.0 + z2 / n;
    (((centre - spread) / scale).max(0.0), ((centre + spread) / scale).min(1.0))
}

/// Applies the gate to a report; import-time code counts only with `import_time`.
pub fn evaluate(report: &DiffReport, min_hotness: f64, import_time: bool) -> GateResult {
    let unsampled = report.base.samples == 0 && report.head.samples == 0;
    let (mut hot, mut cold, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for f in report.functions.iter().filter(|f| f.regressions > 0) {
        let (hotness, hotness_floor) = (hotness_percent(report, f), hotness_floor_percent(report, f));
        let function = format!("{}:{}", f.module, f.qualname);
        let entry = GateFunction { function, regressions: f.regressions, hotness, hotness_floor };
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

/// Parses `--min-hotness`: a percentage from 0 to 100. Above 100 no function could ever be
/// hot, a gate that silently never trips, so it is refused like any other impossible value.
pub fn parse_min_hotness(text: &str) -> Result<f64, String> {
    let shown = crate::render::inert(text);
    let value: f64 =
        text.trim().trim_end_matches('%').parse().map_err(|_| format!("'{shown}' is not a percentage like 1 or 0.5"))?;
    crate::command_line::within(value, &shown, 0.0..=100.0, "percentage", "")
}

#[cfg(test)]
mod tests {
    use specdiff_core::model::CodeKind;
    use super::*;
    use specdiff_core::report::Hotness;

    #[test]
    fn samples_inside_imports_do_not_make_a_function_hot() {
        let mut report: DiffReport = serde_json::from_str(include_str!("../tests/golden/demo-3.12.json")).unwrap();
        report.base.samples = 100;
        report.head.samples = 100;
        let mut f = report.functions.iter().find(|f| f.kind == CodeKind::Function).unwrap().clone();
        f.module = "enum".into();
        // 5 % of which 2 % outside imports: a function like any other, 2 % hot (which code is
        // import time is `specdiff_core::report::import_time`'s, tested there).
        f.hotness = Hotness { base_samples: 5, head_samples: 5, base_share: 0.05, head_share: 0.05, ..Hotness::default() };
        f.hotness.head_runtime_share = 0.02;
        assert_eq!(hotness_percent(&report, &f), Some(2.0));
    }

    #[test]
    fn the_gate_counts_import_time_functions_apart() {
        let mut report: DiffReport = serde_json::from_str(include_str!("../tests/golden/demo-3.12.json")).unwrap();
        report.functions.retain(|f| f.regressions > 0);
        let all = report.functions.len();
        assert!(all > 0);
        report.functions[0].import_time = true;
        let g = evaluate(&report, 0.0, false);
        assert_eq!((g.hot.len(), g.import_time.len()), (all - 1, 1));
        // `--gate-import-time` counts it.
        assert_eq!(evaluate(&report, 0.0, true).hot.len(), all);
    }

    #[test]
    fn share_floor_is_the_wilson_lower_bound() {
        // Reference values of the 95 % Wilson score interval (z = 1.96).
        for (k, n, floor) in [(1, 49, 0.00361), (2, 49, 0.01126), (5, 49, 0.04434), (20, 20, 0.83887), (0, 100, 0.0)] {
            let got = share_floor(k as f64 / n as f64, n);
            assert!((got - floor).abs() < 1e-4, "{k}/{n}: {got}");
        }
        assert_eq!(share_floor(0.5, 0), 0.0);
        assert_eq!(share_interval(0.5, 0), (0.0, 1.0));
        // More samples of the same share prove more.
        assert!(share_floor(0.02, 49) < share_floor(0.02, 500));
        assert!(share_floor(0.02, 5000) > 0.015);
    }

    #[test]
    fn share_interval_is_the_wilson_interval() {
        // Reference values (z = 1.96): a short run's 25 % is anything from 5 % to 70 %.
        for (k, n, low, high) in [(1, 4, 0.04559, 0.69936), (0, 4, 0.0, 0.48989), (20, 20, 0.83887, 1.0), (49, 98, 0.40289, 0.59711), (12, 340, 0.02030, 0.06067)] {
            let (l, h) = share_interval(k as f64 / n as f64, n);
            assert!((l - low).abs() < 1e-4 && (h - high).abs() < 1e-4, "{k}/{n}: {l}–{h}");
        }
    }

    #[test]
    fn the_estimate_shown_is_the_hotter_sampled_run() {
        let mut report: DiffReport = serde_json::from_str(include_str!("../tests/golden/demo-3.12.json")).unwrap();
        report.base.samples = 4;
        report.head.samples = 400;
        let mut f = report.functions[0].clone();
        f.hotness.base_runtime_share = 0.25;
        f.hotness.head_runtime_share = 0.10;
        let e = hotness_estimate(&report, &f).unwrap();
        assert_eq!((e.percent, e.samples), (25.0, 4));
        assert!((e.low - 4.559).abs() < 1e-2 && (e.high - 69.936).abs() < 1e-2, "{e:?}");
        report.base.samples = 0;
        let e = hotness_estimate(&report, &f).unwrap();
        assert_eq!((e.percent, e.samples), (10.0, 400));
        report.head.samples = 0;
        assert_eq!(hotness_estimate(&report, &f), None);
    }

    #[test]
    fn one_sample_of_a_short_run_does_not_make_a_function_hot() {
        let mut report: DiffReport = serde_json::from_str(include_str!("../tests/golden/demo-3.12.json")).unwrap();
        report.base.samples = 49;
        report.head.samples = 49;
        report.functions.retain(|f| f.regressions > 0);
        for f in &mut report.functions {
            f.hotness = Hotness::default();
        }
        let (one, two) = (1.0 / 49.0, 2.0 / 49.0);
        report.functions[0].hotness.head_runtime_share = one;
        let g = evaluate(&report, 1.0, false);
        assert!(!g.tripped, "{g:#?}");
        let cold = &g.cold[0];
        assert!((cold.hotness.unwrap() - 2.04).abs() < 0.01 && cold.hotness_floor.unwrap() < 0.4, "{cold:?}");
        // Two samples of 49 prove 1.1 %: hot, as is the same share of a run ten times longer.
        report.functions[0].hotness.head_runtime_share = two;
        assert!(evaluate(&report, 1.0, false).tripped);
        report.functions[0].hotness.head_runtime_share = one;
        report.head.samples = 490;
        assert!(evaluate(&report, 1.0, false).tripped);
        // `--min-hotness 0` counts every regressed function, sampled or not.
        assert_eq!(evaluate(&report, 0.0, false).hot.len(), report.functions.len());
    }

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
