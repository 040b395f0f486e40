//! Classifying aligned sites: what happened to each specialization site between two runs.
//!
//! A *specialization site* is a site whose instruction has an adaptive counter (`ops[3]` is
//! `"adaptive"`). A paired row where only one side is a site (a family that specializes in
//! one CPython version only, like 3.11's `FOR_ITER`) is `unchanged`. For every aligned row of such sites the classifier
//! picks one [`ChangeKind`], by these rules in order (`docs/engine.md`, "Classification").
//! Each side's counter is read with its own version's rules (`VersionRules`); evidence is
//! compared across sides only where the two versions' counters mean the same thing.
//!
//! 1. only in base → `removed`; only in head → `added`; a paired row where one side is a site
//!    and the other is not: between dumps of one version only a code change does that (3.13's
//!    `CALL` → `CALL_KW` when a keyword argument was added): `lost` when base's was
//!    specialized, `gained` when head's is, else `unchanged`; between versions the family
//!    specializes in one only (3.11's `FOR_ITER`): `unchanged`;
//! 2. `rewritten` rows (attribute load ↔ `getattr()`): `lost` when the attribute load was
//!    base's and specialized, `gained` when it is head's and specialized, else `changed`;
//!    `call_form` rows (a call ↔ a `CALL_FUNCTION_EX` call) between dumps of different
//!    versions: `minor` when either side is specialized (which forms a version specializes
//!    is the interpreter's doing), else `unchanged`; in one version, rule 1 or the rules below;
//! 3. the snapshots differ (lost, gained, changed) but the sampler saw both runs flip through
//!    both forms → `unchanged`: two phases of one cycle. Else base specialized, head not →
//!    `lost` when head's counter shows the site ran; `minor` when it did not run (enough) in
//!    head: a workload change, not a lost specialization;
//! 4. same specialization, head's counter shows at least `min_misses` (8) more misses than
//!    a base that held (fewer than `min_misses`, and the sampler never saw it re-specialize)
//!    → `missing`;
//! 5. head's churn (re-specializations seen by the sampler: opname flips, or a miss counter
//!    that went back up) above base's, and at least twice it → `churning`;
//! 6. base not specialized, head specialized → `gained`;
//! 7. both specialized, different specializations → `changed`; same, more misses → `minor`;
//! 8. both generic: `unchanged` when either side is a 3.11 instruction that gave up (no
//!    specialization exists for it there); `minor` when head proves more failed attempts but
//!    the evidence is not comparable (different counter models, base never ran the site, or
//!    the sampler did not see base's line at least half as often, by share of the run's
//!    samples, as head's) or short of `min_failures` (2) more; else `backed_off` when it is;
//! 9. otherwise `unchanged`.
//!
//! Regressions (what a function's `regressions` counts and the gate fails on) are `lost`,
//! `missing` and `backed_off`; `minor` keeps the smaller counter movements visible.

use serde::{Deserialize, Serialize};

use crate::engine::align::RowKind;
use crate::cpython::counters::{Counter, VersionRules};
use crate::model::dump::{CodeInfo, CounterKind, Dump, Instruction, OpInfo};
use crate::cpython::normalize::{canonical_opname, normalize_argrepr, Site, SiteTag};

/// Which explanation rule named a change's cause (`docs/engine.md`, "Explanations"): the
/// machine-readable half of [`Change::explanation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The site did not run (enough) in head.
    NotRun,
    /// An attribute load became a `getattr()` call.
    GetattrCall,
    /// An attribute store became a `setattr()` call.
    SetattrCall,
    /// `super().attr` became a load from a `super()` object kept in a variable.
    SuperProxy,
    /// A subscript became a call of a method doing its work (`d[k]` → `d.get(k)`), or the
    /// reverse.
    SubscriptCall,
    /// The call passes its arguments differently (keywords, `*`/`**`).
    CallForm,
    /// The code moved into a comprehension or generator expression of its own.
    MovedIntoComprehension,
    /// The other side's CPython has no such specialization.
    VersionLacks,
    /// Operands mix int and float.
    IntFloatMixing,
    /// Module globals are created or deleted while the program runs.
    GlobalsWritten,
    /// A class owning the attribute gained or lost an attribute hook (`__getattribute__`,
    /// 3.11's `__getattr__`, `__setattr__`, `__delattr__`).
    ClassHook,
    /// A class owning the attribute gained or lost `__slots__`.
    Slots,
    /// The attribute became (or stopped being) a property or other class-level definition.
    Descriptor,
    /// Running code assigns attributes of the class.
    ClassMutated,
    /// Instances get attributes outside `__init__`, or lose them.
    InstanceLayout,
    /// The called function is defined differently, or the line calls another one.
    CalleeChanged,
    /// The called class gained or lost a metaclass.
    Metaclass,
    /// The call passes another number of arguments, and its form was made for an exact one.
    ArgCount,
    /// The operand's type changed from one specialized type to another.
    OperandType,
    /// A still-specialized site's guard fails on what reaches it.
    GuardMisses,
    /// The site re-specializes while the program runs.
    Churning,
    /// Unchanged code in one interpreter: what reaches the site changed.
    InputsChanged,
    /// Different interpreters specialize the same code differently.
    InterpreterChanged,
}

/// What happened to one site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Specialized in base, generic (or rewritten away) in head.
    Lost,
    /// Same specialization, but head's counter shows more misses since specialization.
    Missing,
    /// Generic on both sides; head's backoff shows more failed specialization attempts.
    BackedOff,
    /// The sampler saw head's opname flip at this site more often than base's.
    Churning,
    /// Specialized on both sides, differently.
    Changed,
    /// Generic in base, specialized in head.
    Gained,
    /// Counters moved, but not enough to matter (a few more misses or failed attempts), or in
    /// a way the two runs cannot compare (a site one run did not execute, counters of
    /// different versions): shown, never a regression.
    Minor,
    /// A specialization site only head has (code edit).
    Added,
    /// A specialization site only base has (code edit).
    Removed,
    /// Nothing changed.
    Unchanged,
}

impl ChangeKind {
    /// Every kind, in report order.
    pub const ALL: [ChangeKind; 10] = [
        ChangeKind::Lost,
        ChangeKind::Missing,
        ChangeKind::BackedOff,
        ChangeKind::Churning,
        ChangeKind::Changed,
        ChangeKind::Gained,
        ChangeKind::Minor,
        ChangeKind::Added,
        ChangeKind::Removed,
        ChangeKind::Unchanged,
    ];

    /// The JSON name, e.g. `"backed_off"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Lost => "lost",
            ChangeKind::Missing => "missing",
            ChangeKind::BackedOff => "backed_off",
            ChangeKind::Churning => "churning",
            ChangeKind::Changed => "changed",
            ChangeKind::Gained => "gained",
            ChangeKind::Minor => "minor",
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Unchanged => "unchanged",
        }
    }

    /// Counted in a function's `regressions`: `lost`, `missing` and `backed_off`.
    pub fn is_regression(self) -> bool {
        matches!(self, ChangeKind::Lost | ChangeKind::Missing | ChangeKind::BackedOff)
    }
}

/// Thresholds of the classifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassifyOptions {
    /// Misses head must show (beyond base's) to be `missing`; fewer are `minor`. A snapshot
    /// shows at most 52 misses since the last specialization (the 53rd deoptimizes, 3.11, or
    /// re-specializes, 3.12+), so a site that misses on most executions sits anywhere in that
    /// range while a healthy one shows a handful; see `docs/engine.md` for the measurements.
    pub min_misses: u16,
    /// Re-specializations head must show (beyond base's) to be `churning`. 2: one seen in one
    /// run and not in the other is the sampler's luck as often as a change (a repeated run of
    /// the pyparsing benchmark showed 26 such sites, all in cold code).
    pub min_flips: u32,
    /// Failed attempts head's backoff must prove (beyond base's) to be `backed_off`; each one
    /// doubles the generic executions it proves (2^failures), so 2 is 4× base's.
    #[serde(default = "default_min_failures")]
    pub min_failures: u8,
}

fn default_min_failures() -> u8 {
    ClassifyOptions::default().min_failures
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions { min_misses: 8, min_flips: 2, min_failures: 2 }
    }
}

/// Churn seen at one side of a site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChurnInfo {
    /// Re-specializations the sampler saw: opname changes, and (on the same specialized
    /// opname) a miss counter that went back up.
    pub flips: u32,
    /// `flips` minus the warm-up transitions (generic forms seen before the first
    /// specialization, e.g. 3.11 `LOAD_GLOBAL` → `LOAD_GLOBAL_ADAPTIVE` →
    /// `LOAD_GLOBAL_BUILTIN`): the re-specializations and deopts the classifier counts.
    pub effective_flips: u32,
    /// Opnames seen, in order of first sight.
    pub seen: Vec<String>,
}

/// Builds a [`ChurnInfo`] from a dump's churn record.
pub(crate) fn churn_info(dump: &Dump, c: &crate::model::dump::Churn) -> ChurnInfo {
    let ops = &dump.ops;
    let warmup = c
        .seen
        .iter()
        .position(|&o| ops[o as usize].specialized)
        .unwrap_or(c.seen.len().saturating_sub(1)) as u32;
    ChurnInfo {
        flips: c.flips,
        effective_flips: c.flips.saturating_sub(warmup),
        seen: c.seen.iter().map(|&o| ops[o as usize].name.clone()).collect(),
    }
}

/// One classified site: the unit of every report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// What happened.
    pub kind: ChangeKind,
    /// The instruction family (head's spelling when head has the site).
    pub family: String,
    /// Base opname (the specialization, when there is one).
    pub base: Option<String>,
    /// Head opname.
    pub head: Option<String>,
    /// Base source line.
    pub base_line: Option<u32>,
    /// Head source line.
    pub head_line: Option<u32>,
    /// Why, when an explanation rule recognizes the cause.
    pub explanation: Option<String>,
    /// The rule that wrote the explanation's cause (`None` when only evidence is known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The operand (`argrepr`, normalized), e.g. the attribute or global name.
    pub operand: Option<String>,
    /// Base byte offset.
    pub base_offset: Option<u32>,
    /// Head byte offset.
    pub head_offset: Option<u32>,
    /// Base counter.
    pub base_counter: Option<Counter>,
    /// Head counter.
    pub head_counter: Option<Counter>,
    /// Base churn.
    pub base_churn: Option<ChurnInfo>,
    /// Head churn.
    pub head_churn: Option<ChurnInfo>,
    /// Sampler hits on the site's line in head (in base for removed sites).
    pub hotness: u64,
    /// Head's source text of the line (base's for removed sites).
    pub source: Option<String>,
    /// How the sites were aligned.
    pub row_kind: RowKind,
    /// Index of the row in [`crate::report::diff::function_rows`]' output.
    pub row: u32,
}

#[cfg(test)]
impl Change {
    /// A change with only what tests of the wording and the explainer look at.
    pub(crate) fn for_test(
        kind: ChangeKind,
        family: &str,
        (base, head): (Option<&str>, Option<&str>),
        (base_line, head_line): (Option<u32>, Option<u32>),
    ) -> Change {
        Change {
            kind,
            family: family.into(),
            base: base.map(Into::into),
            head: head.map(Into::into),
            base_line,
            head_line,
            explanation: None,
            cause: None,
            operand: None,
            base_offset: None,
            head_offset: None,
            base_counter: None,
            head_counter: None,
            base_churn: None,
            head_churn: None,
            hotness: 0,
            source: None,
            row_kind: RowKind::Same,
            row: 0,
        }
    }
}

/// One side of an aligned site, with what the classifier reads from it.
#[derive(Debug, Clone, Copy)]
pub struct SiteView<'a> {
    /// The dump.
    pub dump: &'a Dump,
    /// The code object.
    pub code: &'a CodeInfo,
    /// The site.
    pub site: Site,
    /// Counter rules of the dump's interpreter.
    pub rules: VersionRules,
}

impl<'a> SiteView<'a> {
    /// The instruction standing for the site's specialization.
    pub fn spec(&self) -> &'a Instruction {
        &self.code.instructions[self.site.spec as usize]
    }
    /// The instruction the key describes.
    pub fn primary(&self) -> &'a Instruction {
        &self.code.instructions[self.site.primary as usize]
    }
    /// The op of [`Self::spec`].
    pub fn op(&self) -> &'a OpInfo {
        self.dump.op(self.spec())
    }
    /// Has an adaptive counter.
    pub fn is_site(&self) -> bool {
        self.op().counter == Some(CounterKind::Adaptive)
            || self.dump.op(self.primary()).counter == Some(CounterKind::Adaptive)
    }
    /// Is specialized.
    pub fn specialized(&self) -> bool {
        self.op().specialized
    }
    /// The counter of the specialization instruction, read with this side's version rules
    /// (3.11: a plain `BINARY_OP`/`COMPARE_OP` in quickened code has given up, not cold).
    pub fn counter(&self) -> Option<Counter> {
        let op = self.op();
        let quickened = self.rules.gives_up(op) && self.quickened();
        self.rules.read_in(op, self.spec(), quickened)
    }
    /// 3.11: the code object was quickened (holds an `*_ADAPTIVE` or specialized instruction).
    fn quickened(&self) -> bool {
        self.code.instructions.iter().any(|i| {
            let o = self.dump.op(i);
            o.specialized || o.name.ends_with("_ADAPTIVE")
        })
    }
    /// The site's family as the dump spells it (the primary's).
    pub fn family(&self) -> &'a str {
        &self.dump.op(self.primary()).family
    }
    /// Source line.
    pub fn line(&self) -> Option<u32> {
        self.spec().line.or(self.primary().line)
    }
    /// Sampler hits on the site's line.
    pub fn hotness(&self) -> u64 {
        let Some(line) = self.line() else { return 0 };
        let ls = &self.code.line_samples;
        ls.binary_search_by_key(&line, |&(l, _)| l).map(|i| ls[i].1).unwrap_or(0)
    }
    /// Churn recorded on any instruction of the site (the largest).
    pub fn churn(&self) -> Option<ChurnInfo> {
        let ins = &self.code.instructions[self.site.start as usize..self.site.end as usize];
        let c = ins.iter().filter_map(|i| i.churn.as_ref()).max_by_key(|c| c.flips)?;
        Some(churn_info(self.dump, c))
    }
    /// The normalized operand.
    pub fn operand(&self) -> Option<String> {
        let p = self.primary();
        (p.argrepr != 0).then(|| normalize_argrepr(self.dump.str(p.argrepr))).filter(|s| !s.is_empty())
    }
    /// The source text of the site's line.
    pub fn source(&self) -> Option<String> {
        self.dump.source_line(self.code.file, self.line()?).map(str::to_string)
    }
}

/// Classifies one aligned row; `None` when neither side is a specialization site.
pub(crate) fn classify(b: Option<&SiteView>, h: Option<&SiteView>, kind: RowKind, opts: &ClassifyOptions) -> Option<ChangeKind> {
    let (b, h) = match (b, h) {
        (None, None) => return None,
        (Some(b), None) => return b.is_site().then_some(ChangeKind::Removed),
        (None, Some(h)) => return h.is_site().then_some(ChangeKind::Added),
        (Some(b), Some(h)) => (b, h),
    };
    if !b.is_site() && !h.is_site() {
        return None;
    }
    let same_version = b.rules.version == h.rules.version;
    let (sb, sh) = (b.is_site() && b.specialized(), h.is_site() && h.specialized());
    // Across versions, which call forms specialize is the interpreter's doing: shown, never
    // a regression.
    if kind == RowKind::CallForm && !same_version {
        return Some(if sb || sh { ChangeKind::Minor } else { ChangeKind::Unchanged });
    }
    if b.is_site() != h.is_site() {
        // Within one version only a change of the code does this: a call whose new form has
        // no specialization (3.13's `CALL_KW` when a keyword argument was added,
        // `CALL_FUNCTION_EX` before 3.14) lost what the old form had, or gained it back.
        if same_version {
            return Some(if sb {
                ChangeKind::Lost
            } else if sh {
                ChangeKind::Gained
            } else {
                ChangeKind::Unchanged
            });
        }
        // The family specializes on one version only (3.11 `FOR_ITER`): not comparable.
        return Some(ChangeKind::Unchanged);
    }
    if kind == RowKind::Rewritten && (b.site.tag == SiteTag::Subscr || h.site.tag == SiteTag::Subscr) {
        // A subscript ↔ a method call doing its work: both may specialize.
        return Some(match (sb, sh) {
            (true, false) => ChangeKind::Lost,
            (false, true) => ChangeKind::Gained,
            (true, true) => ChangeKind::Changed,
            (false, false) => ChangeKind::Unchanged,
        });
    }
    if kind == RowKind::Rewritten {
        return Some(if b.site.tag.is_attribute_access() && sb {
            ChangeKind::Lost
        } else if h.site.tag.is_attribute_access() && sh {
            ChangeKind::Gained
        } else {
            ChangeKind::Changed
        });
    }
    let (cb, ch) = (b.counter(), h.counter());
    let same = sb && sh && if b.rules.version == h.rules.version {
        b.op().name == h.op().name
    } else {
        canonical_opname(&b.op().name) == canonical_opname(&h.op().name)
    };
    // Both models count misses since the last specialization from 52/53 down: comparable when
    // base held. A base already at `min_misses`, or one the sampler saw re-specialize, was
    // failing too: its counter and head's stop at two arbitrary points of a cycle (3.12+
    // re-specializes every 53 misses), so their difference says nothing.
    let (mb, mh) = (cb.map_or(0, |c| c.misses()), ch.map_or(0, |c| c.misses()));
    let min = opts.min_misses.max(1);
    // Each side's churn once: `flips()` and `same_cycle` would each rebuild it.
    let (churn_b, churn_h) = (b.churn(), h.churn());
    let flips = |c: &Option<ChurnInfo>| c.as_ref().map_or(0, |c| c.effective_flips);
    let (fb, fh) = (flips(&churn_b), flips(&churn_h));
    let base_held = mb < min && fb == 0;
    // Sampled counts vary with the run (how often the sampler looked): a site that churns in
    // both runs churns more in head only when it does so at least twice as often.
    let churns_more = fh >= fb.saturating_add(opts.min_flips) && fh >= fb.saturating_mul(2);
    Some(if sb != sh || (sb && !same) {
        if same_cycle(b, churn_b.as_ref(), h, churn_h.as_ref()) {
            ChangeKind::Unchanged
        } else if sb && !sh {
            // A site head did not run (enough) lost nothing: the workload changed.
            if ch.is_some_and(|c| !c.ran()) {
                ChangeKind::Minor
            } else {
                ChangeKind::Lost
            }
        } else if churns_more {
            ChangeKind::Churning
        } else if sh && !sb {
            ChangeKind::Gained
        } else {
            ChangeKind::Changed
        }
    } else if same && base_held && mh >= mb.saturating_add(min) {
        // Before churning: the counters prove the misses; head's sampled re-specializations
        // (3.12+ re-specializes in place, so a megamorphic site churns) only add to it.
        ChangeKind::Missing
    } else if churns_more {
        ChangeKind::Churning
    } else if sb && sh && mh > mb {
        ChangeKind::Minor
    } else if sb && sh {
        ChangeKind::Unchanged
    } else {
        generic_both(cb, ch, b.rules.model == h.rules.model, base_ran_as_often(b, h), opts)
    })
}

/// Both runs were seen re-specializing through the form the other run's snapshot shows: the
/// two snapshots are two phases of one behaviour, not a change. (In the pyparsing bump,
/// `_parseNoCache`'s `self.debug` flips between `LOAD_ATTR_INSTANCE_VALUE` and
/// `LOAD_ATTR_WITH_HINT` thousands of times in both versions, and each snapshot caught one.)
fn same_cycle(b: &SiteView, cb: Option<&ChurnInfo>, h: &SiteView, ch: Option<&ChurnInfo>) -> bool {
    let (Some(cb), Some(ch)) = (cb, ch) else { return false };
    let (ob, oh) = (&b.op().name, &h.op().name);
    cb.effective_flips > 0 && ch.effective_flips > 0 && cb.seen.contains(oh) && ch.seen.contains(ob)
}

/// Whether the sampler saw base's line of the site at least half as often as head's, as shares
/// of each run's samples. Failed attempts back off exponentially, so each extra one head shows
/// only proves that head ran the generic site about twice as often: an unchanged program whose
/// run varies (asyncio shutdown, the garbage collector) shows that too. More failures are
/// evidence of a regression only when base ran the site about as much and failed less.
fn base_ran_as_often(b: &SiteView, h: &SiteView) -> bool {
    let share = |v: &SiteView| v.hotness() as f64 / v.dump.run.sampler.samples.max(1) as f64;
    b.hotness() > 0 && share(b) * 2.0 >= share(h)
}

/// Rule 8: both sides generic. Backoff is compared only when both counters mean the same
/// thing: the same counter model (3.11 counts failures from backoff 0, 3.12+ from 1) and a
/// base that ran the site; a 3.11 instruction that gave up has no specialization to lose.
fn generic_both(
    cb: Option<Counter>,
    ch: Option<Counter>,
    same_model: bool,
    ran_as_often: bool,
    opts: &ClassifyOptions,
) -> ChangeKind {
    use crate::cpython::counters::CounterState;
    let gave_up = |c: Option<Counter>| c.is_some_and(|c| c.state == CounterState::GaveUp);
    if gave_up(cb) || gave_up(ch) {
        return ChangeKind::Unchanged;
    }
    let (fb, fh) = (cb.map_or(0, |c| c.failures()), ch.map_or(0, |c| c.failures()));
    if fh <= fb {
        return ChangeKind::Unchanged;
    }
    let base_ran = cb.is_some_and(|c| !c.is_cold());
    if same_model && base_ran && ran_as_often && fh >= fb.saturating_add(opts.min_failures.max(1)) {
        ChangeKind::BackedOff
    } else {
        ChangeKind::Minor
    }
}

/// Builds the [`Change`] record of a classified row (explanation left empty).
pub(crate) fn build_change(kind: ChangeKind, b: Option<&SiteView>, h: Option<&SiteView>, row_kind: RowKind, row: u32) -> Change {
    let attr_side = match (row_kind, b, h) {
        (RowKind::Rewritten, Some(b), _) if b.site.tag.is_attribute_access() || b.site.tag == SiteTag::Subscr => b,
        (RowKind::Rewritten, _, Some(h)) if h.site.tag.is_attribute_access() || h.site.tag == SiteTag::Subscr => h,
        (_, _, Some(h)) => h,
        (_, Some(b), None) => b,
        (_, None, None) => unreachable!("a change has at least one side"),
    };
    let main = h.or(b).expect("a change has at least one side");
    let local = if h.is_some() && kind != ChangeKind::Removed { h } else { b };
    let local = local.unwrap_or(main);
    Change {
        kind,
        family: attr_side.family().to_string(),
        base: b.map(|v| v.op().name.clone()),
        head: h.map(|v| v.op().name.clone()),
        base_line: b.and_then(|v| v.line()),
        head_line: h.and_then(|v| v.line()),
        explanation: None,
        cause: None,
        operand: attr_side.operand(),
        base_offset: b.map(|v| v.spec().offset),
        head_offset: h.map(|v| v.spec().offset),
        base_counter: b.and_then(|v| v.counter()),
        head_counter: h.and_then(|v| v.counter()),
        base_churn: b.and_then(|v| v.churn()),
        head_churn: h.and_then(|v| v.churn()),
        hotness: local.hotness(),
        source: local.source(),
        row_kind,
        row,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;
    use crate::cpython::normalize::{Normalizer, Side};

    /// Classifies the single site of `f` in two one-instruction dumps of CPython `bv` and `hv`.
    /// With `quickened`, each code object also holds a specialized instruction (3.11: the
    /// code was quickened).
    fn kind_across(bv: &str, hv: &str, base: (&str, u16), head: (&str, u16), quickened: bool) -> Option<ChangeKind> {
        kind_sampled(bv, hv, (base, 10), (head, 10), quickened)
    }

    /// [`kind_across`] with the number of samples on the site's line in each run (of 100).
    fn kind_sampled(
        bv: &str,
        hv: &str,
        base: ((&str, u16), u64),
        head: ((&str, u16), u64),
        quickened: bool,
    ) -> Option<ChangeKind> {
        let mk = |v: &str, ((op, word), hits): ((&str, u16), u64)| {
            let mut b = DumpBuilder::new(v);
            b.samples(100);
            let mut c = b.code("m", "f", 1).ins(op, "x", 1).word(word).samples(hits, &[(1, hits)]);
            if quickened {
                c = c.ins("LOAD_FAST", "y", 1);
                c = if v.starts_with("3.11") { c.ins("LOAD_ATTR_SLOT", "z", 1).word(53) } else { c.ins("LOAD_ATTR_SLOT", "z", 1).word(832) };
            }
            c.finish();
            b.build()
        };
        let (bd, hd) = (mk(bv, base), mk(hv, head));
        let mut n = Normalizer::new(&bd, &hd);
        let (bs, hs) = (n.sites(Side::Base, 0)[0], n.sites(Side::Head, 0)[0]);
        fn view(d: &Dump, site: Site) -> SiteView<'_> {
            SiteView { dump: d, code: &d.code[0], site, rules: VersionRules::of(d) }
        }
        classify(Some(&view(&bd, bs)), Some(&view(&hd, hs)), RowKind::Same, &ClassifyOptions::default())
    }

    /// [`kind_across`] on two 3.12 dumps.
    fn kind(base: (&str, u16), head: (&str, u16), _row: RowKind) -> Option<ChangeKind> {
        kind_across("3.12.1", "3.12.1", base, head, false)
    }

    /// The 3.12 word of a specialized instruction with `misses` misses since specialization.
    fn spec312(misses: u16) -> u16 {
        (52 - misses) << 4
    }

    #[test]
    fn kinds_from_opnames_and_counters() {
        assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 34), RowKind::Same), Some(ChangeKind::Lost));
        assert_eq!(kind(("LOAD_ATTR", 34), ("LOAD_ATTR_SLOT", 832), RowKind::Same), Some(ChangeKind::Gained));
        assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR_PROPERTY", 832), RowKind::Same), Some(ChangeKind::Changed));
        assert_eq!(kind(("LOAD_ATTR_SLOT", 816), ("LOAD_ATTR_SLOT", 816), RowKind::Same), Some(ChangeKind::Unchanged));
        assert_eq!(kind(("LOAD_ATTR", 17), ("LOAD_ATTR", 1), RowKind::Same), Some(ChangeKind::Unchanged));
        assert_eq!(kind(("LOAD_FAST", 0), ("LOAD_FAST", 0), RowKind::Same), None);
    }

    /// Rule 7: one more miss on a still-specialized site is `minor`; `min_misses` (8) more is
    /// `missing`, the same on 3.11 (word 53 − misses) and 3.12+ (value 52 − misses).
    #[test]
    fn misses_regress_only_past_the_threshold() {
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(1)), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(7)), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(8)), RowKind::Same), Some(ChangeKind::Missing));
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(20)), ("LOAD_ATTR_SLOT", spec312(27)), RowKind::Same), Some(ChangeKind::Minor));
        // A base already missing (12) cycles like head (39): two points of one cycle, `minor`.
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(12)), ("LOAD_ATTR_SLOT", spec312(39)), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(7)), ("LOAD_ATTR_SLOT", spec312(15)), RowKind::Same), Some(ChangeKind::Missing));
        assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(5)), ("LOAD_ATTR_SLOT", spec312(0)), RowKind::Same), Some(ChangeKind::Unchanged));
        let v11 = |b: u16, h: u16| kind_across("3.11.7", "3.11.7", ("LOAD_ATTR_SLOT", 53 - b), ("LOAD_ATTR_SLOT", 53 - h), false);
        assert_eq!(v11(0, 1), Some(ChangeKind::Minor));
        assert_eq!(v11(0, 30), Some(ChangeKind::Missing));
        // Across versions both count misses since specialization: comparable.
        let x = |h: u16| kind_across("3.11.7", "3.12.1", ("LOAD_ATTR_SLOT", 53), ("LOAD_ATTR_SLOT", spec312(h)), false);
        assert_eq!((x(2), x(30)), (Some(ChangeKind::Minor), Some(ChangeKind::Missing)));
        assert!(ChangeKind::Missing.is_regression() && !ChangeKind::Minor.is_regression());
    }

    /// One side of [`kind_seen`]: the site's opname and counter word, and the sampler's churn
    /// (flips, opnames seen).
    type Seen<'a> = (&'a str, u16, u32, &'a [&'a str]);

    /// Two 3.12 dumps of one site, each with its snapshot and what the sampler saw.
    fn kind_seen(base: Seen, head: Seen) -> Option<ChangeKind> {
        let mk = |(op, word, flips, seen): Seen| {
            let mut b = DumpBuilder::new("3.12.1");
            b.samples(100);
            let mut c = b.code("m", "f", 1).ins(op, "x", 1).word(word).samples(10, &[(1, 10)]);
            if flips > 0 {
                c = c.churn(flips, seen);
            }
            c.finish();
            b.build()
        };
        let (bd, hd) = (mk(base), mk(head));
        let mut n = Normalizer::new(&bd, &hd);
        let (bs, hs) = (n.sites(Side::Base, 0)[0], n.sites(Side::Head, 0)[0]);
        let (bv, hv) = (
            SiteView { dump: &bd, code: &bd.code[0], site: bs, rules: VersionRules::of(&bd) },
            SiteView { dump: &hd, code: &hd.code[0], site: hs, rules: VersionRules::of(&hd) },
        );
        classify(Some(&bv), Some(&hv), RowKind::Same, &ClassifyOptions::default())
    }

    /// [`kind_seen`] of a `LOAD_ATTR_SLOT` site re-specialized in place `flips` times.
    fn kind_churned((bw, bf): (u16, u32), (hw, hf): (u16, u32)) -> Option<ChangeKind> {
        const SLOT: &[&str] = &["LOAD_ATTR_SLOT"];
        kind_seen(("LOAD_ATTR_SLOT", bw, bf, SLOT), ("LOAD_ATTR_SLOT", hw, hf, SLOT))
    }

    /// A base the sampler saw re-specialize in place was cycling, whatever its snapshot shows:
    /// head's higher count is another point of a cycle (`minor`, not `missing`). A head that
    /// re-specializes where base held is `churning` when its snapshot hides the misses, and
    /// stays `missing` when the counter proves them.
    #[test]
    fn re_specializations_in_place_tell_a_cycling_site_from_one_that_held() {
        assert_eq!(kind_churned((spec312(2), 0), (spec312(35), 0)), Some(ChangeKind::Missing));
        assert_eq!(kind_churned((spec312(2), 3), (spec312(35), 3)), Some(ChangeKind::Minor));
        assert_eq!(kind_churned((spec312(2), 1), (spec312(35), 0)), Some(ChangeKind::Minor));
        assert_eq!(kind_churned((spec312(0), 0), (spec312(3), 4)), Some(ChangeKind::Churning));
        assert_eq!(kind_churned((spec312(0), 0), (spec312(30), 4)), Some(ChangeKind::Missing));
        assert_eq!(kind_churned((spec312(0), 2), (spec312(0), 2)), Some(ChangeKind::Unchanged));
        // Churning in both runs: more in head only at twice base's count (sampled counts vary).
        assert_eq!(kind_churned((spec312(0), 1086), (spec312(0), 1123)), Some(ChangeKind::Unchanged));
        assert_eq!(kind_churned((spec312(0), 1086), (spec312(0), 2172)), Some(ChangeKind::Churning));
    }

    /// Two snapshots of a site both runs saw flipping between the same forms are two phases
    /// of one behaviour: neither `changed` nor `lost`. One side seen flipping is not enough.
    #[test]
    fn snapshots_of_one_cycle_are_not_a_change() {
        const BOTH: &[&str] = &["LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT"];
        let (value, hint) = ("LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT");
        assert_eq!(kind_seen((hint, 832, 2656, BOTH), (value, 832, 2551, BOTH)), Some(ChangeKind::Unchanged));
        assert_eq!(kind_seen((hint, 832, 0, BOTH), (value, 832, 0, BOTH)), Some(ChangeKind::Changed));
        assert_eq!(kind_seen((hint, 832, 0, BOTH), (value, 832, 5, BOTH)), Some(ChangeKind::Churning));
        const ONE: &[&str] = &["LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR"];
        assert_eq!(kind_seen((hint, 832, 5, BOTH), (value, 832, 5, ONE)), Some(ChangeKind::Changed));
        // A lost site: base flips through the generic form head stopped in, and head was seen
        // specialized too: a phase. Head never seen specialized: lost.
        const GENERIC: &[&str] = &["LOAD_ATTR", "LOAD_ATTR_SLOT"];
        assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 9, GENERIC), ("LOAD_ATTR", 34, 9, GENERIC)), Some(ChangeKind::Unchanged));
        assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 9, GENERIC), ("LOAD_ATTR", 34, 0, GENERIC)), Some(ChangeKind::Lost));
    }

    /// Rule 3: a specialization head did not run (cold, or 3.12+ warming after one
    /// execution) is not lost; one that ran and failed is.
    #[test]
    fn lost_needs_head_to_have_run_the_site() {
        assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 17), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 1), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 34), RowKind::Same), Some(ChangeKind::Lost));
        let v11 = kind_across("3.11.7", "3.11.7", ("LOAD_ATTR_SLOT", 53), ("LOAD_ATTR_ADAPTIVE", 501), false);
        assert_eq!(v11, Some(ChangeKind::Lost));
    }

    /// Rule 8: backoff compared only with the same counter model, a base that ran the site,
    /// and `min_failures` (2) more failed attempts.
    #[test]
    fn backed_off_needs_comparable_evidence() {
        // 3.12: (value, backoff) words: 34 = 1 failure, 7436 = 11, 202·16+8 = 7.
        let w = |f: u16| ((1u16 << (f + 1)) - 2) << 4 | (f + 1);
        assert_eq!(kind(("LOAD_ATTR", 1), ("LOAD_ATTR", w(7)), RowKind::Same), Some(ChangeKind::BackedOff));
        assert_eq!(kind(("LOAD_ATTR", w(1)), ("LOAD_ATTR", w(2)), RowKind::Same), Some(ChangeKind::Minor));
        assert_eq!(kind(("LOAD_ATTR", w(1)), ("LOAD_ATTR", w(3)), RowKind::Same), Some(ChangeKind::BackedOff));
        // Base never ran the site: a workload change, not a backoff.
        assert_eq!(kind(("LOAD_ATTR", 17), ("LOAD_ATTR", w(7)), RowKind::Same), Some(ChangeKind::Minor));
        // 3.11 → 3.12: different counter models.
        let x = kind_across("3.11.7", "3.12.1", ("LOAD_ATTR_ADAPTIVE", 1), ("LOAD_ATTR", w(11)), false);
        assert_eq!(x, Some(ChangeKind::Minor));
        // 3.12 → 3.13: the same model.
        let y = kind_across("3.12.1", "3.13.0", ("LOAD_ATTR", 1), ("LOAD_ATTR", w(11)), false);
        assert_eq!(y, Some(ChangeKind::BackedOff));
        // The noise floor's asyncio shutdown (3.12, `_weakrefset` `item = itemref()`): base
        // warming, head 2 failures, the line never sampled in either run; or sampled in head
        // 4× as often as in base: head ran it more, which is no regression.
        let s = |hb: u64, hh: u64| kind_sampled("3.12.1", "3.12.1", (("CALL", 1), hb), (("CALL", w(2)), hh), false);
        assert_eq!(s(0, 0), Some(ChangeKind::Minor));
        assert_eq!(s(5, 20), Some(ChangeKind::Minor));
        assert_eq!(s(10, 20), Some(ChangeKind::BackedOff));
        assert_eq!(s(20, 20), Some(ChangeKind::BackedOff));
    }

    /// The 3.11 → 3.12 misreading of issue 14: a 3.11 `BINARY_OP %` in quickened code is plain
    /// `BINARY_OP` at word 0 however often it ran (3.11 gave up on it), and 3.12 backs off on
    /// it: generic on both sides, nothing changed. Without quickening evidence it is cold.
    #[test]
    fn py311_gave_up_binary_op_is_not_cold() {
        let w11 = kind_across("3.11.7", "3.12.1", ("BINARY_OP", 0), ("BINARY_OP", 2838 << 4 | 12), true);
        assert_eq!(w11, Some(ChangeKind::Unchanged));
        let w13 = kind_across("3.12.1", "3.11.7", ("BINARY_OP", 2838 << 4 | 12), ("BINARY_OP", 0), true);
        assert_eq!(w13, Some(ChangeKind::Unchanged));
        let cold = kind_across("3.11.7", "3.12.1", ("BINARY_OP", 0), ("BINARY_OP", 2838 << 4 | 12), false);
        assert_eq!(cold, Some(ChangeKind::Minor));
    }

    #[test]
    fn effective_flips_exclude_warm_up() {
        let mut b = DumpBuilder::new("3.11.7");
        let ops: Vec<u32> = ["LOAD_GLOBAL", "LOAD_GLOBAL_ADAPTIVE", "LOAD_GLOBAL_BUILTIN", "LOAD_GLOBAL_MODULE"].iter().map(|o| b.op(o)).collect();
        let d = b.build();
        let warm = churn_info(&d, &crate::model::dump::Churn { flips: 2, seen: ops[..3].to_vec() });
        assert_eq!((warm.flips, warm.effective_flips), (2, 0));
        let churn = churn_info(&d, &crate::model::dump::Churn { flips: 7, seen: ops.clone() });
        assert_eq!(churn.effective_flips, 5);
        assert_eq!(churn.seen[3], "LOAD_GLOBAL_MODULE");
    }
}
