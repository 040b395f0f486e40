//! What the classifier says about a site: its [`ChangeKind`], the [`Cause`] an explanation rule
//! named, the churn the sampler saw ([`ChurnInfo`]), the thresholds ([`ClassifyOptions`]) and
//! the [`Change`] record every report is made of.

use serde::{Deserialize, Serialize};

use crate::cpython::counters::Counter;
use crate::engine::align::RowKind;
use crate::model::dump::Dump;

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
    /// The module an attribute is loaded from gained a module-level `__getattr__`.
    ModuleHook,
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
    /// The class attribute a load finds holds a value of a mutable type (an instance of a
    /// Python class, a class made by a Python metaclass) in head only.
    ClassAttrType,
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
    /// Head's line no longer calls what made the site's operand (`not len(b)` → `not b`):
    /// less work than base, whatever the site's form.
    LessWork,
    /// Head's rewritten line makes the site's operand by another call (`range(len(b))` →
    /// `enumerate(b)`): the dumps cannot tell whether that is slower.
    OperandRemade,
    /// The paired sites name different things (another attribute, global or operator): two
    /// operations, whose counters are not compared.
    OtherOperation,
    /// The function was rewritten: too little of it aligns to compare its sites.
    Rewritten,
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
