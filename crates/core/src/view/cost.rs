//! What a regressed site costs, estimated as a share of the head run's time with an interval
//! (`docs/cost-model.md`, "Estimated cost"): executions × what one execution of the lost form
//! saves (the [`CostModel`]) over the run's time.
//!
//! The dumps count no executions; the sampler's samples do give a *pass*'s share of the run:
//! a site's innermost loop (the samples on all of its lines, since the sampler sees a loop at
//! its jump back), or else the site's line. Every instruction of a pass runs about as often
//! as the others, so the share one instruction takes is its cost over the pass's cost, each
//! instruction priced by the model: its form's measured time, a simple instruction's (a local
//! load or store, a pop, a jump) where the model timed those, else 1–30 ns. So a site costs
//! `pass share × saved / pass time`, the interval taking the share's Wilson interval, the
//! saving's p10–p90 and the pass time's two ends. A churning site is priced though it is not
//! a regression: as a missing one (half the saving, from none), or with the whole saving where
//! the model timed its form on a site missing in turn, which is a churning site. Not
//! estimated, and saying why: runs not sampled, a site generic on both sides, a form the model
//! did not measure. A site that now does less work (`less_work`), or that head's code no
//! longer has, costs nothing. A call into Python code is priced in its pass without its
//! callee's body, which the sampler counts in the callee's frame.

use crate::engine::{Cause, Change, ChangeKind};
use crate::model::{CostModel, Dump, FormCost, Instruction};
use crate::report::wording::{count, percent};
use crate::report::traces::{innermost_loops, loop_samples, samples_on};
use crate::report::{DiffReport, FunctionDiff};
use crate::util::sort;
use crate::view::hotness::share_interval;

/// The per-execution time, in ns, of an instruction the model has no figure for: its low end,
/// point and high end (a local load is ~1 ns, a call into C tens).
const UNPRICED_NS: (f64, f64, f64) = (1.0, 3.0, 30.0);

/// An estimated share of run time, in percent, with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CostShare {
    /// The estimate.
    pub percent: f64,
    /// The interval's low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
}

impl CostShare {
    /// No time at all.
    pub const ZERO: CostShare = CostShare { percent: 0.0, low: 0.0, high: 0.0 };

    /// The sum of two disjoint parts of one run: never above the whole run.
    fn plus(self, other: CostShare) -> CostShare {
        let capped = |x: f64| x.min(100.0);
        CostShare { percent: capped(self.percent + other.percent), low: capped(self.low + other.low), high: capped(self.high + other.high) }
    }
}

/// One site's estimate, or why there is none.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "estimate")]
pub enum SiteCost {
    /// Estimated.
    Estimated {
        /// The share of the head run's time.
        share: CostShare,
    },
    /// Costs nothing: the site does less work in head, or head no longer has it.
    Nothing {
        /// Why.
        why: String,
    },
    /// Not estimated.
    Unknown {
        /// Why.
        why: String,
    },
}

/// The estimated cost of a regressed or churning site of `f`.
pub fn site_cost(report: &DiffReport, head: &Dump, model: &CostModel, f: &FunctionDiff, change: &Change) -> SiteCost {
    let loops = loops_of(head, f);
    site_cost_in(report, head, model, f, change, &loops)
}

/// Each of `f`'s head instructions' innermost loop.
fn loops_of(head: &Dump, f: &FunctionDiff) -> Vec<Option<(u32, u32)>> {
    head.code.get(f.head_code as usize).map(|c| innermost_loops(head, c)).unwrap_or_default()
}

/// [`site_cost`] given each of the function's head instructions' innermost loop (computed once
/// per function: [`innermost_loops`]).
fn site_cost_in(report: &DiffReport, head: &Dump, model: &CostModel, f: &FunctionDiff, change: &Change, loops: &[Option<(u32, u32)>]) -> SiteCost {
    if change.cause == Some(Cause::LessWork) {
        return SiteCost::Nothing { why: "head's line does less work".into() };
    }
    let Some(head_op) = change.head.as_deref() else {
        return SiteCost::Nothing { why: "head no longer has the site".into() };
    };
    let Some(line) = change.head_line else {
        return SiteCost::Unknown { why: "head's site has no line to count samples at".into() };
    };
    if report.head.samples == 0 {
        return SiteCost::Unknown { why: "the head run was not sampled".into() };
    }
    let saved = match (change.kind, change.base.as_deref()) {
        (ChangeKind::Lost | ChangeKind::Missing | ChangeKind::Churning, Some(base_op)) => match saving(model, base_op) {
            Some(s) => s,
            None => return SiteCost::Unknown { why: format!("the cost model has no figure for {base_op}") },
        },
        _ => return SiteCost::Unknown { why: format!("{head_op} lost no specialized form") },
    };
    // A missing site still hits on some executions: between none and all of them miss. So
    // does a churning one: it re-specializes after its misses (53 of them, 3.12+), and in
    // between it may hit most of the time. Where the model timed the form on a site missing
    // in turn (attribute loads and stores, calls), it timed a churning site: its saving.
    let timed_churning = || measured_form(model, change.base.as_deref().unwrap_or_default()).is_some_and(|f| f.generic_by.contains("in turn"));
    let (saved_low, saved_point) = match change.kind {
        ChangeKind::Churning if timed_churning() => (0.0, saved.1),
        ChangeKind::Missing | ChangeKind::Churning => (0.0, saved.1 / 2.0),
        _ => (saved.0.max(0.0), saved.1.max(0.0)),
    };
    // The sampler sees the program where it lets other threads run: at a loop's jump back,
    // a call, a function's start. A loop's time lands on its jump's line, whichever line
    // spent it, so a site in a loop is priced as a share of the loop's pass, with the samples
    // on all of the loop's lines; elsewhere, of its line's.
    let code = head.code.get(f.head_code as usize);
    let index = code.zip(change.head_offset).and_then(|(c, offset)| c.instructions.binary_search_by_key(&offset, |i| i.offset).ok());
    let region = code.zip(index.and_then(|i| loops.get(i).copied().flatten()));
    // A lost site runs the generic instruction in head: the pass's time counts what the model
    // measured that to take, not the family's first form's generic time (or 1–30 ns, for the
    // families whose generic time was measured on a site missing in turn).
    // A form that enters a Python frame was timed with its callee's body, whose time the
    // sampler sees in the callee, not in this pass: the site keeps its saving only.
    let site = match (change.kind, change.head_offset, change.base.as_deref()) {
        (ChangeKind::Lost, Some(offset), Some(base_op)) if enters_python(base_op) => Some((offset, saved.1.max(0.0) + UNPRICED_NS.1)),
        (ChangeKind::Lost, Some(offset), Some(base_op)) => {
            measured_form(model, base_op).map(|form| (offset, own_time(model, form, form.generic_ns)))
        }
        _ => None,
    };
    let samples_total = report.head.samples;
    // (point, low, high) percent for a pass with `samples` over `instructions`.
    let estimate = |samples: u64, instructions: &[&Instruction]| {
        let share = samples as f64 / samples_total as f64;
        let (share_low, share_high) = share_interval(share, samples_total);
        let (pass_low, pass_point, pass_high) = pass_time(head, model, instructions, site);
        (
            100.0 * share * saved_point / pass_point.max(saved_point).max(f64::MIN_POSITIVE),
            100.0 * share_low * saved_low / pass_high.max(saved_low).max(f64::MIN_POSITIVE),
            100.0 * share_high * saved.2.max(0.0) / pass_low.max(saved.2).max(f64::MIN_POSITIVE),
        )
    };
    let (percent, low, high) = match region {
        Some((c, (target, jump))) => {
            let (whole, own) = (target as usize..=jump as usize, |i: usize| loops.get(i).copied().flatten() == Some((target, jump)));
            let all: Vec<&Instruction> = c.instructions[whole.clone()].iter().collect();
            if whole.clone().all(own) {
                estimate(loop_samples(c, target, jump), &all)
            } else {
                // An outer loop's pass holds its inner loops, which run many times per pass:
                // priced as one pass each they would make a site of the outer loop run as often
                // as their bodies (a `for x in VALUES` load priced at 20 % of a run it costs
                // 0.04 % of). The point takes the outer loop's own instructions and the samples
                // on the lines no inner loop shares; the high end, the whole pass.
                let mine: Vec<&Instruction> = whole.clone().filter(|&i| own(i)).map(|i| &c.instructions[i]).collect();
                let mut inner: Vec<u32> = whole.filter(|&i| !own(i)).filter_map(|i| c.instructions[i].line).collect();
                inner.sort_unstable();
                let own_lines = mine.iter().filter_map(|i| i.line).filter(|l| inner.binary_search(l).is_err()).collect();
                let (point, low, _) = estimate(samples_on(c, own_lines), &mine);
                let (_, _, high) = estimate(loop_samples(c, target, jump), &all);
                (point, low, high)
            }
        }
        None => {
            let on_line: Vec<&Instruction> = code.map(|c| c.instructions.iter().filter(|i| i.line == Some(line)).collect()).unwrap_or_default();
            estimate(change.hotness, &on_line)
        }
    };
    // Wilson's low end of no samples is zero give or take rounding: the interval holds the point.
    SiteCost::Estimated { share: CostShare { percent, low: low.min(percent), high: high.max(percent) } }
}

/// The cost of one function's regressions (the estimated ones) and how many were not estimated.
pub fn function_cost(report: &DiffReport, head: &Dump, model: &CostModel, f: &FunctionDiff) -> (CostShare, u32) {
    let loops = loops_of(head, f);
    let costs: Vec<SiteCost> = priced_sites(report, head, model, f, &loops).map(|(_, cost)| cost).collect();
    sum_sites(&costs)
}

/// The sites of `f` an estimate prices, each with its estimate: its regressions, and its
/// churning sites that could be estimated. A churning site is not a regression (it may hold
/// its form most of the time), but it does the same work and keeps missing, and a site in a
/// hot loop that churns costs time (`call_poly`: 11–21 % of the run, docs/cost-validation.md);
/// its interval starts at nothing, so it never reaches `--min-cost` by itself. One that cannot
/// be estimated is left out rather than counted as a regression not estimated.
fn priced_sites<'a>(
    report: &'a DiffReport,
    head: &'a Dump,
    model: &'a CostModel,
    f: &'a FunctionDiff,
    loops: &'a [Option<(u32, u32)>],
) -> impl Iterator<Item = (&'a Change, SiteCost)> + 'a {
    f.changes
        .iter()
        .filter(|c| c.kind.is_regression() || c.kind == ChangeKind::Churning)
        .map(move |c| (c, site_cost_in(report, head, model, f, c, loops)))
        .filter(|(c, cost)| c.kind.is_regression() || matches!(cost, SiteCost::Estimated { .. }))
}

/// The sum of sites' estimates, and how many were not estimated.
fn sum_sites<'a>(costs: impl IntoIterator<Item = &'a SiteCost>) -> (CostShare, u32) {
    let (mut total, mut unknown) = (CostShare::ZERO, 0);
    for cost in costs {
        match cost {
            SiteCost::Estimated { share } => total = total.plus(*share),
            SiteCost::Nothing { .. } => {}
            SiteCost::Unknown { .. } => unknown += 1,
        }
    }
    (total, unknown)
}

/// `(low, point, high)` ns one execution of `opname` saves: its own measured form, else the
/// median and extremes of its family's measured forms.
fn saving(model: &CostModel, opname: &str) -> Option<(f64, f64, f64)> {
    if let Some(form) = measured_form(model, opname) {
        return Some((form.saved_low_ns, form.saved_ns, form.saved_high_ns));
    }
    let family: Vec<&FormCost> = model.forms.iter().filter(|f| same_family(f, opname)).collect();
    let mut points: Vec<f64> = family.iter().map(|f| f.saved_ns).collect();
    points.sort_by(f64::total_cmp);
    let median = *points.get(points.len() / 2)?;
    let low = family.iter().map(|f| f.saved_low_ns).fold(f64::INFINITY, f64::min);
    let high = family.iter().map(|f| f.saved_high_ns).fold(f64::NEG_INFINITY, f64::max);
    Some((low, median, high))
}

/// The model's measurement of the specialized form `opname` itself, when it has one.
fn measured_form<'m>(model: &'m CostModel, opname: &str) -> Option<&'m FormCost> {
    model.forms.iter().find(|f| f.specialized == opname)
}

/// Whether `opname` is a form of the family `form` was measured in (`LOAD_ATTR_CLASS` and
/// `LOAD_ATTR_SLOT`; 3.14's `BINARY_OP_SUBSCR_*` with the `BINARY_SUBSCR` forms).
fn same_family(form: &FormCost, opname: &str) -> bool {
    let subscr = |op: &str| op.starts_with("BINARY_SUBSCR") || op.starts_with("BINARY_OP_SUBSCR");
    if subscr(opname) || subscr(&form.specialized) {
        return subscr(opname) && subscr(&form.specialized);
    }
    opname.starts_with(&format!("{}_", form.family))
}

/// `(low, point, high)` ns of one pass over head's `instructions`; `site`, `(offset, ns)`: the
/// instruction at that offset takes that time.
fn pass_time(head: &Dump, model: &CostModel, instructions: &[&Instruction], site: Option<(u32, f64)>) -> (f64, f64, f64) {
    let mut total = (0.0, 0.0, 0.0);
    for ins in instructions {
        let Some(op) = head.ops.get(ins.op as usize) else { continue };
        let at_site = site.filter(|(offset, _)| *offset == ins.offset).map(|(_, ns)| ns);
        // A call into Python code: the calibration's time holds the callee's body, which the
        // sampler counts in the callee's frame, so here it is priced as an unmeasured instruction.
        let priced = at_site.or_else(|| {
            (!enters_python(&op.name)).then(|| model.forms.iter().find_map(|f| {
                if f.specialized == op.name {
                    Some(own_time(model, f, f.specialized_ns))
                } else if f.generic == op.name && !f.generic_by.contains("in turn") {
                    Some(own_time(model, f, f.generic_ns))
                } else {
                    None
                }
            }))?
        });
        let simple = model.simple.as_ref().filter(|_| is_simple(&op.name));
        let (low, point, high) = match (priced, simple) {
            (Some(ns), _) => (ns.max(UNPRICED_NS.0), ns.max(UNPRICED_NS.0), ns.max(UNPRICED_NS.0)),
            // One body's average: the simple kinds differ up to 2× between them (0.8–2.3 ns
            // measured on 3.12–3.15), more than between the calibration's rounds.
            (None, Some(s)) => (s.ns.max(0.1) / 2.0, s.ns.max(0.1), 2.0 * s.ns.max(0.1)),
            (None, None) => UNPRICED_NS,
        };
        total = (total.0 + low, total.1 + point, total.2 + high);
    }
    if total.1 == 0.0 {
        UNPRICED_NS
    } else {
        total
    }
}

/// `ns`, a time the model measured for `form`'s timed body, without the body's other
/// instructions (operand loads, a pop) at the simple instructions' time: the site's own time,
/// as a program's pass counts those instructions apart. Never below one simple instruction.
fn own_time(model: &CostModel, form: &FormCost, ns: f64) -> f64 {
    match (&model.simple, form.others) {
        (Some(s), Some(others)) => (ns - f64::from(others) * s.ns).max(s.ns),
        _ => ns,
    }
}

/// Whether the specialized form `opname` runs Python code in a new frame (a call of a Python
/// function or method, a class's `__init__`, a property, `__getitem__`, a generator): the
/// sampler sees that time in the callee's frame, not at the call.
fn enters_python(opname: &str) -> bool {
    const PREFIXES: [&str; 4] = ["CALL_PY_", "CALL_BOUND_METHOD_", "CALL_KW_PY", "CALL_KW_BOUND_METHOD"];
    const EXACT: [&str; 7] = [
        "CALL_ALLOC_AND_ENTER_INIT",
        "BINARY_SUBSCR_GETITEM",
        "BINARY_OP_SUBSCR_GETITEM",
        "LOAD_ATTR_PROPERTY",
        "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN",
        "FOR_ITER_GEN",
        "SEND_GEN",
    ];
    PREFIXES.iter().any(|p| opname.starts_with(p)) || EXACT.contains(&opname)
}

/// Whether `opname` is one of the simple instructions the calibration times as one price: a
/// local's load or store (their superinstructions too), a constant's load, a pop, a copy or
/// swap, a jump, a no-op, and a truth test of a bool or `None`. Each does a few pointer moves
/// and no call, so they take about the same time (measured 0.8–2.3 ns on 3.12–3.15).
fn is_simple(opname: &str) -> bool {
    const PREFIXES: [&str; 8] =
        ["LOAD_FAST", "STORE_FAST", "LOAD_CONST", "POP_JUMP_IF_", "JUMP_BACKWARD", "JUMP_FORWARD", "TO_BOOL_BOOL", "TO_BOOL_NONE"];
    const EXACT: [&str; 10] = ["LOAD_SMALL_INT", "POP_TOP", "NOP", "NOT_TAKEN", "COPY", "SWAP", "PUSH_NULL", "END_FOR", "POP_ITER", "EXTENDED_ARG"];
    PREFIXES.iter().any(|p| opname.starts_with(p)) || EXACT.contains(&opname)
}

/// The estimate of a whole diff: each function with regressions or priced churning sites,
/// and their sum.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DiffCost {
    /// The interpreter the model was measured on, `"3.12.1"`.
    pub model_python: String,
    /// The sum over functions outside import-time code.
    pub total: CostShare,
    /// Regressed sites not estimated, in those functions.
    pub not_estimated: u32,
    /// Each function with regressions or a churning site estimated, in the report's order
    /// ([`rank_by_cost`] ranks those with regressions).
    pub functions: Vec<FunctionCost>,
}

/// One function's estimate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FunctionCost {
    /// Module name.
    pub module: String,
    /// The report's display name.
    pub qualname: String,
    /// Its code objects in base and head: what ties the estimate to its report entry (names
    /// can repeat in a report; the pair cannot). Not in the JSON, which has the names.
    #[serde(skip)]
    pub code: (u32, u32),
    /// Import-time code: left out of the total.
    pub import_time: bool,
    /// The sum of its estimated sites.
    pub share: CostShare,
    /// Its regressed sites not estimated.
    pub not_estimated: u32,
    /// Its regressed sites, each with its estimate or why there is none, and its churning
    /// sites that were estimated.
    pub sites: Vec<SiteEstimate>,
}

impl FunctionCost {
    /// Whether at least one of its sites has an estimate (a function whose sites all cost
    /// nothing or were not estimated has none to rank or gate by).
    pub fn estimated(&self) -> bool {
        self.sites.iter().any(|s| matches!(s.cost, SiteCost::Estimated { .. }))
    }

    /// Why its first site that was not estimated was not; `None` when every site was.
    pub fn unknown_why(&self) -> Option<&str> {
        self.sites.iter().find_map(|s| match &s.cost {
            SiteCost::Unknown { why } => Some(why.as_str()),
            _ => None,
        })
    }

    /// Its cost as every output words it: `≈ 2.1% of run time (1.2%–3.4%)`, with
    /// `; 1 site not estimated: why` when some were not; `not estimated: why` when none was;
    /// `costs nothing: why` when every site does less work or is gone.
    pub fn words(&self) -> String {
        let why = self.unknown_why();
        if !self.estimated() {
            return match (why, self.sites.first()) {
                (Some(why), _) => format!("not estimated: {why}"),
                (None, Some(SiteEstimate { cost: SiteCost::Nothing { why }, .. })) => format!("costs nothing: {why}"),
                _ => "costs nothing".into(),
            };
        }
        match why {
            Some(why) => format!(
                "{}; {} not estimated: {why}",
                cost_sentence(&self.share),
                count(self.not_estimated as u64, "site", "sites")
            ),
            None => cost_sentence(&self.share),
        }
    }
}

/// One regressed or churning site and its estimate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SiteEstimate {
    /// What happened to it: a regression's kind, or `churning`.
    pub kind: ChangeKind,
    /// The family.
    pub family: String,
    /// Base opname.
    pub base: Option<String>,
    /// Head opname.
    pub head: Option<String>,
    /// Head's line.
    pub line: Option<u32>,
    /// The estimate.
    pub cost: SiteCost,
}

/// The estimate of every regressed site of `report`, and of every churning one that can be
/// estimated, priced with `model`.
pub fn diff_cost(report: &DiffReport, head: &Dump, model: &CostModel) -> DiffCost {
    let mut total = CostShare::ZERO;
    let mut not_estimated = 0;
    let mut functions = Vec::new();
    let churns = |f: &FunctionDiff| f.changes.iter().any(|c| c.kind == ChangeKind::Churning);
    for f in report.functions.iter().filter(|f| f.regressions > 0 || churns(f)) {
        let loops = loops_of(head, f);
        let sites: Vec<SiteEstimate> = priced_sites(report, head, model, f, &loops)
            .map(|(c, cost)| SiteEstimate { kind: c.kind, family: c.family.clone(), base: c.base.clone(), head: c.head.clone(), line: c.head_line, cost })
            .collect();
        if sites.is_empty() {
            continue;
        }
        // `function_cost`'s sum, of the sites just estimated rather than estimating them again.
        let (share, unknown) = sum_sites(sites.iter().map(|s| &s.cost));
        if !f.import_time {
            total = total.plus(share);
            not_estimated += unknown;
        }
        functions.push(FunctionCost {
            module: f.module.clone(),
            qualname: f.qualname.clone(),
            code: (f.base_code, f.head_code),
            import_time: f.import_time,
            share,
            not_estimated: unknown,
            sites,
        });
    }
    DiffCost { model_python: model.python.clone(), total, not_estimated, functions }
}

impl DiffCost {
    /// The estimate of the function whose code objects are `code` (base, head); `None` for a
    /// function without regressed sites.
    pub fn function(&self, code: (u32, u32)) -> Option<&FunctionCost> {
        self.functions.iter().find(|f| f.code == code)
    }

    /// The diff's cost as every output words it: `≈ 2.1% of run time (1.2%–3.4%)`, with
    /// `; 3 sites not estimated` when some were not, or `not estimated: why` when no site
    /// outside import-time code was.
    pub fn words(&self) -> String {
        let counted = self.functions.iter().filter(|f| !f.import_time);
        if self.not_estimated > 0 && !counted.clone().any(FunctionCost::estimated) {
            let why = counted.filter_map(FunctionCost::unknown_why).next().unwrap_or("no site was estimated");
            return format!("not estimated: {why}");
        }
        match self.not_estimated {
            0 => cost_sentence(&self.total),
            n => format!("{}; {} not estimated", cost_sentence(&self.total), count(n as u64, "site", "sites")),
        }
    }
}

/// Ranks the functions of `report` with regressions by their estimated cost, most costly
/// first (the point estimate), and `cost.functions` with them. Only those functions trade
/// places, among the places they held, so every other function keeps its own; import-time
/// code stays after the program's (the engine's order), functions without an estimate follow
/// the estimated ones, and ties keep the engine's order: the same dumps rank the same.
pub fn rank_by_cost(report: &mut DiffReport, cost: &mut DiffCost) {
    let by_code: std::collections::HashMap<(u32, u32), &FunctionCost> = cost.functions.iter().map(|c| (c.code, c)).collect();
    // (report index, key): the key sorts import-time code last, then unestimated, then by cost.
    let mut ranked: Vec<(usize, (bool, bool, f64))> = Vec::new();
    for (i, f) in report.functions.iter().enumerate().filter(|(_, f)| f.regressions > 0) {
        let c = by_code.get(&(f.base_code, f.head_code)).filter(|c| c.estimated());
        ranked.push((i, (f.import_time, c.is_none(), -c.map_or(0.0, |c| c.share.percent))));
    }
    let slots: Vec<usize> = ranked.iter().map(|r| r.0).collect();
    // The crate's stable sort: equal keys keep the engine's order.
    sort::sort_by(&mut ranked, |(_, a), (_, b)| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)));
    let mut taken: Vec<Option<FunctionDiff>> = std::mem::take(&mut report.functions).into_iter().map(Some).collect();
    let mut source: Vec<usize> = (0..taken.len()).collect();
    for (&slot, &(from, _)) in slots.iter().zip(&ranked) {
        source[slot] = from;
    }
    report.functions = source.into_iter().map(|i| taken[i].take().expect("a permutation")).collect();
    let position: std::collections::HashMap<(u32, u32), usize> =
        report.functions.iter().enumerate().map(|(i, f)| ((f.base_code, f.head_code), i)).collect();
    sort::sort_by_key(&mut cost.functions, |c| position.get(&c.code).copied().unwrap_or(usize::MAX));
}

/// `≈ 2.1% of run time (1.2%–3.4%)`.
pub fn cost_sentence(share: &CostShare) -> String {
    let p = |x: f64| percent(x / 100.0);
    format!("≈ {} of run time ({}–{})", p(share.percent), p(share.low), p(share.high))
}
