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
//!
//! With `--min-cost PCT` (which needs `--cost`) a hot regressed function also has to be shown
//! to cost: the low end of its estimated cost's interval ([`super::cost`]) must reach PCT % of
//! the head run's time. The low end, as hotness uses its 95 % floor, so that a run-to-run
//! wobble in a few samples cannot fail a pull request. A function whose cost was not estimated
//! (a run not sampled, a form the model has no figure for, a lost JIT trace) does not fail
//! the gate then, but is listed as not estimated with why, so nothing is dropped silently.

use serde::Serialize;

use super::cost::{cost_sentence, CostShare, DiffCost};
use super::hotness::{hotness_floor_percent, hotness_percent};
use super::GateOptions;
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
    /// With `--min-cost`: its estimated cost, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostShare>,
    /// With `--min-cost`: why its cost was not estimated (then it does not fail the gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_estimated: Option<String>,
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

    /// Its cost as the gate weighed it (`≈ 2.1% of run time (1.2%–3.4%)`, or
    /// `not estimated: why`); `None` without `--min-cost`.
    pub fn cost_words(&self) -> Option<String> {
        match (&self.cost, &self.not_estimated) {
            (Some(share), Some(why)) => Some(format!("{} for the sites estimated; the rest not estimated: {why}", cost_sentence(share))),
            (None, Some(why)) => Some(format!("not estimated: {why}")),
            (Some(share), None) => Some(cost_sentence(share)),
            (None, None) => None,
        }
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
    /// `--min-cost`, in percent of run time, when it applied (with a cost estimate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_cost: Option<f64>,
    /// With `--min-cost`: hot regressed functions whose estimate's low end is below it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cheap: Vec<GateFunction>,
    /// With `--min-cost`: hot regressed functions whose cost was not estimated, not counted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_estimated: Vec<GateFunction>,
}

impl GateResult {
    /// What a regressed function must show to count: `hotness ≥ 1% at 95% confidence`, and
    /// with `--min-cost` `, estimated cost ≥ 1% of run time at its interval's low end`; or that
    /// neither run was sampled.
    pub fn basis(&self) -> String {
        let hot = if self.unsampled {
            "neither run was sampled, so every regressed function counts".to_string()
        } else {
            format!("hotness ≥ {}% at 95% confidence", self.min_hotness)
        };
        match self.min_cost {
            Some(c) => format!("{hot}; estimated cost ≥ {c}% of run time at its interval's low end"),
            None => hot,
        }
    }

    /// The gate's line about hot regressed functions `--min-cost` did not count: those it
    /// shows to cost less, and those whose cost was not estimated (each listed by the
    /// caller with [`GateFunction::cost_words`]); `None` without any.
    pub fn min_cost_note(&self) -> Option<String> {
        let c = self.min_cost?;
        let mut parts = Vec::new();
        if !self.cheap.is_empty() {
            parts.push(format!(
                "{} whose estimated cost's low end is below {c}% not counted",
                count(self.cheap.len() as u64, "hot regressed function", "hot regressed functions")
            ));
        }
        if !self.not_estimated.is_empty() {
            parts.push(format!(
                "{} not counted: cost not estimated",
                count(self.not_estimated.len() as u64, "hot regressed function", "hot regressed functions")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
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
/// run ends varies from run to run of the same program (sqlglot's hot loops, dumped twice), so
/// a lost trace is reported, and gates only when asked. `min_cost` applies only with `cost`
/// (the CLI requires `--cost` for it); without an estimate the gate is the hotness gate alone,
/// the stricter of the two.
pub fn evaluate(report: &DiffReport, options: &GateOptions, cost: Option<&DiffCost>) -> GateResult {
    let GateOptions { min_hotness, import_time, traces, min_cost } = *options;
    let min_cost = cost.and(min_cost);
    let unsampled = report.base.samples == 0 && report.head.samples == 0;
    let (mut hot, mut cold, mut skipped, mut cheap, mut unknown) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let counted = |f: &FunctionDiff| f.regressions + if traces { f.trace_regressions() } else { 0 };
    for f in report.functions.iter().filter(|f| counted(f) > 0) {
        let (hotness, hotness_floor) = (hotness_percent(report, f), hotness_floor_percent(report, f));
        let function = format!("{}:{}", f.module, f.qualname);
        let regressions = counted(f);
        let mut entry = GateFunction { function, regressions, hotness, hotness_floor, cost: None, not_estimated: None };
        // The report's flag: the one definition every output shares (`report/import_time.rs`).
        if !import_time && f.import_time {
            skipped.push(entry);
            continue;
        }
        if matches!(hotness_floor, Some(h) if h < min_hotness) {
            cold.push(entry);
            continue;
        }
        let (Some(min_cost), Some(cost)) = (min_cost, cost) else {
            hot.push(entry);
            continue;
        };
        match cost_verdict(f, cost, traces, min_cost) {
            Verdict::Counts(share) => {
                entry.cost = Some(share);
                hot.push(entry);
            }
            Verdict::Below(share) => {
                entry.cost = Some(share);
                cheap.push(entry);
            }
            Verdict::NotEstimated(share, why) => {
                entry.cost = share;
                entry.not_estimated = Some(why);
                unknown.push(entry);
            }
        }
    }
    GateResult {
        tripped: !hot.is_empty(),
        min_hotness,
        unsampled,
        hot,
        cold,
        import_time: skipped,
        min_cost,
        cheap,
        not_estimated: unknown,
    }
}

/// How `--min-cost` weighs one hot regressed function.
enum Verdict {
    /// Its estimate's low end reaches the threshold: it fails the gate.
    Counts(CostShare),
    /// Its estimate's low end is below, and every regression was estimated (or costs nothing).
    Below(CostShare),
    /// The estimated part is below, and the rest was not estimated: the part estimated (if
    /// any) and why the rest was not.
    NotEstimated(Option<CostShare>, String),
}

/// The sites not estimated only add to a function's cost, so an estimated part whose low end
/// reaches `min_cost` proves the whole does; below it, they leave the answer open.
fn cost_verdict(f: &FunctionDiff, cost: &DiffCost, traces: bool, min_cost: f64) -> Verdict {
    let fc = cost.function((f.base_code, f.head_code));
    let share = fc.filter(|c| c.estimated()).map(|c| c.share);
    if let Some(s) = share.filter(|s| s.low >= min_cost) {
        return Verdict::Counts(s);
    }
    if let Some(why) = fc.and_then(|c| c.unknown_why()) {
        return Verdict::NotEstimated(share, why.to_string());
    }
    if traces && f.trace_regressions() > 0 {
        return Verdict::NotEstimated(share, "the cost model does not price a lost JIT trace".into());
    }
    Verdict::Below(share.unwrap_or(fc.map_or(CostShare::ZERO, |c| c.share)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Hotness;
    use crate::view::cost::{FunctionCost, SiteCost, SiteEstimate};
    use crate::engine::ChangeKind;

    fn demo() -> DiffReport {
        serde_json::from_str(include_str!("../../../cli/tests/golden/demo-3.12.json")).unwrap()
    }

    fn options(min_hotness: f64, import_time: bool) -> GateOptions {
        GateOptions { min_hotness, import_time, traces: false, min_cost: None }
    }

    /// A cost estimate of each regressed function of `report`: `site(i)` is the one site of
    /// the `i`th.
    fn costs(report: &DiffReport, site: impl Fn(usize) -> SiteCost) -> DiffCost {
        let functions = report
            .functions
            .iter()
            .filter(|f| f.regressions > 0)
            .enumerate()
            .map(|(i, f)| {
                let cost = site(i);
                let (share, not_estimated) = match &cost {
                    SiteCost::Estimated { share } => (*share, 0),
                    SiteCost::Nothing { .. } => (CostShare::ZERO, 0),
                    SiteCost::Unknown { .. } => (CostShare::ZERO, 1),
                };
                let site = SiteEstimate { kind: ChangeKind::Lost, family: "LOAD_ATTR".into(), base: None, head: None, line: None, cost };
                FunctionCost {
                    module: f.module.clone(),
                    qualname: f.qualname.clone(),
                    code: (f.base_code, f.head_code),
                    import_time: f.import_time,
                    share,
                    not_estimated,
                    sites: vec![site],
                }
            })
            .collect();
        DiffCost { model_python: "3.12.1".into(), total: CostShare::ZERO, not_estimated: 0, functions }
    }

    fn estimated(low: f64, percent: f64, high: f64) -> SiteCost {
        SiteCost::Estimated { share: CostShare { percent, low, high } }
    }

    #[test]
    fn the_gate_counts_import_time_functions_apart() {
        let mut report = demo();
        report.functions.retain(|f| f.regressions > 0);
        let all = report.functions.len();
        assert!(all > 0);
        report.functions[0].import_time = true;
        let g = evaluate(&report, &options(0.0, false), None);
        assert_eq!((g.hot.len(), g.import_time.len()), (all - 1, 1));
        // `--gate-import-time` counts it.
        assert_eq!(evaluate(&report, &options(0.0, true), None).hot.len(), all);
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
        let g = evaluate(&report, &options(1.0, false), None);
        assert!(!g.tripped, "{g:#?}");
        let cold = &g.cold[0];
        assert!((cold.hotness.unwrap() - 2.04).abs() < 0.01 && cold.hotness_floor.unwrap() < 0.4, "{cold:?}");
        // Two samples of 49 prove 1.1 %: hot, as is the same share of a run ten times longer.
        report.functions[0].hotness.head_runtime_share = two;
        assert!(evaluate(&report, &options(1.0, false), None).tripped);
        report.functions[0].hotness.head_runtime_share = one;
        report.head.samples = 490;
        assert!(evaluate(&report, &options(1.0, false), None).tripped);
        // `--min-hotness 0` counts every regressed function, sampled or not.
        assert_eq!(evaluate(&report, &options(0.0, false), None).hot.len(), report.functions.len());
    }

    #[test]
    fn min_cost_counts_a_function_whose_estimate_low_end_reaches_it() {
        let mut report = demo();
        report.functions.retain(|f| f.regressions > 0 && !f.import_time);
        let n = report.functions.len();
        let cost = costs(&report, |_| estimated(1.2, 2.1, 3.4));
        let min = |c: f64| GateOptions { min_cost: Some(c), ..options(0.0, false) };
        // At the low end or under it: every hot function counts, with its estimate.
        for threshold in [0.5, 1.2] {
            let g = evaluate(&report, &min(threshold), Some(&cost));
            assert!(g.tripped && g.hot.len() == n && g.cheap.is_empty(), "{threshold}: {g:#?}");
            assert_eq!(g.hot[0].cost_words().unwrap(), "≈ 2.1% of run time (1.2%–3.4%)");
            assert!(g.basis().ends_with(&format!("estimated cost ≥ {threshold}% of run time at its interval's low end")));
        }
        // Above the low end, though under the point estimate: none is shown to cost that much.
        let g = evaluate(&report, &min(2.0), Some(&cost));
        assert!(!g.tripped && g.cheap.len() == n && g.not_estimated.is_empty(), "{g:#?}");
        let note = g.min_cost_note().unwrap();
        assert!(note.contains("whose estimated cost's low end is below 2% not counted"), "{note}");
        // Without an estimate `min_cost` does not apply: the hotness gate alone, the stricter.
        let g = evaluate(&report, &min(50.0), None);
        assert!(g.tripped && g.hot.len() == n && g.min_cost.is_none() && g.min_cost_note().is_none());
    }

    #[test]
    fn min_cost_lists_what_was_not_estimated_without_failing_on_it() {
        let mut report = demo();
        report.functions.retain(|f| f.regressions > 0 && !f.import_time);
        let n = report.functions.len();
        assert!(n >= 2, "{n}");
        // The first not estimated; the second costs nothing; the rest a lot.
        let cost = costs(&report, |i| match i {
            0 => SiteCost::Unknown { why: "the head run was not sampled".into() },
            1 => SiteCost::Nothing { why: "head's line does less work".into() },
            _ => estimated(5.0, 6.0, 7.0),
        });
        let g = evaluate(&report, &GateOptions { min_cost: Some(1.0), ..options(0.0, false) }, Some(&cost));
        assert_eq!((g.hot.len(), g.cheap.len(), g.not_estimated.len()), (n - 2, 1, 1), "{g:#?}");
        assert_eq!(g.tripped, n > 2);
        let unknown = &g.not_estimated[0];
        assert_eq!(unknown.cost_words().unwrap(), "not estimated: the head run was not sampled");
        assert!(g.min_cost_note().unwrap().ends_with("1 hot regressed function not counted: cost not estimated"));
        // A part estimated whose low end reaches the threshold fails whatever the rest costs.
        let mut partial = cost.clone();
        let f = &mut partial.functions[0];
        f.sites.push(SiteEstimate { kind: ChangeKind::Lost, family: "BINARY_OP".into(), base: None, head: None, line: None, cost: estimated(1.5, 2.0, 3.0) });
        f.share = CostShare { percent: 2.0, low: 1.5, high: 3.0 };
        let counts = |c: f64| evaluate(&report, &GateOptions { min_cost: Some(c), ..options(0.0, false) }, Some(&partial));
        assert!(counts(1.0).hot.iter().any(|h| h.function == g.not_estimated[0].function));
        // Below it, the rest is open: listed, not counted, with the part that was estimated.
        let g = counts(2.0);
        let words = g.not_estimated[0].cost_words().unwrap();
        assert!(words.starts_with("≈ 2.0% of run time (1.5%–3.0%) for the sites estimated; the rest not estimated: the head run"), "{words}");
        // Without `min_cost` nothing of this shows: the JSON stays as it was.
        let plain = serde_json::to_value(evaluate(&report, &options(0.0, false), Some(&cost))).unwrap();
        assert!(plain.get("min_cost").is_none() && plain.get("cheap").is_none() && plain["hot"][0].get("cost").is_none());
    }
}
