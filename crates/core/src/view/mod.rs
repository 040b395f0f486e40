//! The view stage: what every output shows of one diff, derived once from a
//! [`DiffReport`](crate::DiffReport) by [`View::of`]. The CLI's text, markdown and JSON, its
//! HTML report and the page render a `View` instead of deriving their own numbers, so one diff
//! tells one story:
//!
//! - [`Overview`]: the counts, with one written definition each of matched, changed, added
//!   and removed functions, regressions and gains, and import-time code counted apart
//!   ([`overview`]);
//! - [`FunctionView`]: one row per changed function, its hotness as an estimate with its 95 %
//!   interval ([`hotness`]);
//! - [`GateResult`]: the regression gate's verdict and its reasons, when asked for ([`gate`]);
//! - what a share link leaves out ([`View::link_note`]);
//! - what a regressed site or function costs as a share of run time, estimated with a
//!   [`CostModel`](crate::model::CostModel) ([`cost`]; `specdiff diff --cost`).

pub mod cost;
pub mod gate;
pub mod hotness;
pub mod overview;

pub use gate::{evaluate, GateFunction, GateResult, DEFAULT_MIN_HOTNESS};
pub use hotness::{hotness_estimate, HotnessEstimate};
pub use overview::Overview;

use crate::report::{DiffReport, FunctionDiff};
use crate::share::ShareNote;

/// One changed function as every output shows it, in the report's order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FunctionView {
    /// Module name.
    pub module: String,
    /// The display name (`co_qualname`, or what tells code objects sharing it apart).
    pub qualname: String,
    /// Its regressions ([`Overview::regressions`]'s definition, import-time code included:
    /// [`FunctionView::import_time`] says whether they count apart).
    pub regressions: u32,
    /// Its gains.
    pub gains: u32,
    /// Import-time code, its regressions counted apart.
    pub import_time: bool,
    /// Its hotness over the sampled runs, outside imports; `None` when no run was sampled.
    pub hotness: Option<HotnessEstimate>,
}

impl FunctionView {
    fn of(report: &DiffReport, f: &FunctionDiff) -> Self {
        FunctionView {
            module: f.module.clone(),
            qualname: f.qualname.clone(),
            regressions: f.regressions,
            gains: f.gains,
            import_time: f.import_time,
            hotness: hotness_estimate(report, f),
        }
    }
}

/// How the regression gate is applied (`--min-hotness`, `--gate-import-time`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateOptions {
    /// The hotness, in percent, a regressed function's samples must prove to count.
    pub min_hotness: f64,
    /// Count import-time code too.
    pub import_time: bool,
    /// Count loops that lost (part of) their JIT trace (`--gate-traces`).
    pub traces: bool,
    /// `--min-cost`: the share of run time, in percent, a hot regressed function's estimated
    /// cost must reach at its interval's low end to count; applies with a cost estimate only.
    pub min_cost: Option<f64>,
}

/// What every output shows of one diff.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// The counts.
    pub overview: Overview,
    /// The changed functions, in the report's order (worst first).
    pub functions: Vec<FunctionView>,
    /// The gate's verdict, when the gate was asked for.
    pub gate: Option<GateResult>,
    /// What the diff's share link leaves out ("leaves out 3 changed functions …"), when it
    /// leaves anything out.
    pub link_note: Option<String>,
    /// The estimated cost of the regressions, when a cost model was given.
    pub cost: Option<cost::DiffCost>,
}

impl View {
    /// The view of `report`, with the gate's verdict when `gate` is given.
    pub fn of(report: &DiffReport, gate: Option<GateOptions>) -> Self {
        Self::costed(report, gate, None)
    }

    /// The view of `report` with the regressions' estimated cost, when there is one: the
    /// gate's `min_cost` weighs it. Rank the report first ([`cost::rank_by_cost`]) when the
    /// outputs are to list functions by cost: the view keeps the report's order.
    pub fn costed(report: &DiffReport, gate: Option<GateOptions>, cost: Option<cost::DiffCost>) -> Self {
        View {
            overview: Overview::of(&report.summary, &report.functions),
            functions: report.functions.iter().map(|f| FunctionView::of(report, f)).collect(),
            gate: gate.map(|g| evaluate(report, &g, cost.as_ref())),
            link_note: None,
            cost,
        }
    }

    /// The same view with what a share link made with `note` leaves out.
    pub fn with_link(mut self, note: &ShareNote) -> Self {
        self.link_note = crate::share::left_out_sentence(note);
        self
    }

    /// The row of `f`, one of the report's functions (by its code objects); `None` for a
    /// function the report does not list.
    pub fn function(&self, report: &DiffReport, f: &FunctionDiff) -> Option<&FunctionView> {
        let i = report.functions.iter().position(|g| (g.base_code, g.head_code) == (f.base_code, f.head_code))?;
        self.functions.get(i)
    }
}
