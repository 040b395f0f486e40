//! The diff report types: what [`crate::report::diff::diff_dumps`] returns and what renderers (CLI
//! text/markdown, JSON, the web UI) consume. The JSON form is documented in
//! `docs/diff-format.md`; field names here are that contract.
//!
//! The report is light: per function it keeps the classified changes, not the aligned rows.
//! Rows (every instruction of both sides, side by side, with source lines) are computed on
//! demand for one function by [`crate::report::diff::function_rows`] / [`crate::report::diff::DiffSession`].

use serde::{Deserialize, Serialize};

use crate::model::dump::Dump;
use crate::util::map::Map;
use crate::engine::matching::identity;
use crate::report::paths::PathDisplay;
use crate::engine::names::CodeNames;

pub use crate::engine::align::RowKind;
pub use crate::engine::classify::{Change, ChangeKind, ChurnInfo};
pub use crate::cpython::counters::{Counter, CounterState};
pub use crate::model::dump::CodeKind;
pub use crate::report::summary::{FamilyCount, Hotness, KindCounts, Share};

/// The value of the report's `format` key.
pub const REPORT_FORMAT: &str = "specdiff-diff";
/// The report format version.
pub const REPORT_VERSION: u32 = 1;

/// The result of diffing two dumps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffReport {
    /// Always [`REPORT_FORMAT`].
    pub format: String,
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// The base run.
    pub base: RunRef,
    /// The head run.
    pub head: RunRef,
    /// Things the reader must know (different versions, unsampled runs …).
    pub warnings: Vec<Warning>,
    /// Whole-run numbers.
    pub summary: RunSummary,
    /// Matched functions with changes (all matched functions with `include_unchanged`),
    /// ranked by hotness × regressions, then regressions, then name.
    pub functions: Vec<FunctionDiff>,
    /// Code objects only head has.
    pub added_functions: Vec<FunctionRef>,
    /// Code objects only base has.
    pub removed_functions: Vec<FunctionRef>,
}

impl DiffReport {
    /// True when nothing changed (no changed site, no added or removed code object).
    pub fn is_empty(&self) -> bool {
        self.functions.iter().all(|f| f.counts.changed_sites() == 0)
            && self.added_functions.is_empty()
            && self.removed_functions.is_empty()
    }
}

/// One run, as the report names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRef {
    /// `"CPython 3.12.1 · script.py args"`.
    pub label: String,
    /// `"3.12.1"`.
    pub python: String,
    /// `[major, minor]`.
    pub version: (u32, u32),
    /// Samples the sampler took (0 when off).
    pub samples: u64,
    /// Sampler mode (`"thread"`, `"signal"`, `"off"`, `"unavailable"`).
    pub sampler: String,
    /// Code objects in the dump.
    pub code_objects: u32,
}

/// A warning shown above the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Stable identifier: `version_mismatch`, `assumed_counters`, `unsampled`, `run_failed`,
    /// `unrelated`, `no_match_for_filters`.
    pub code: String,
    /// One English sentence.
    pub message: String,
}

/// Whole-run numbers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Code objects present in both dumps (after filters).
    pub matched: u32,
    /// Matched code objects with at least one changed site.
    pub changed: u32,
    /// Code objects only in head.
    pub added: u32,
    /// Code objects only in base.
    pub removed: u32,
    /// Sum of `regressions` over functions that are not import-time code
    /// ([`crate::report::import_time`]).
    pub regressions: u32,
    /// Sum of `regressions` over import-time functions: shown, counted apart.
    #[serde(default)]
    pub import_time_regressions: u32,
    /// Sites of each kind, over matched functions.
    pub counts: KindCounts,
    /// Specialized share of all (included) base code objects.
    pub base: Share,
    /// Specialized share of all (included) head code objects.
    pub head: Share,
    /// Per-family before/after counts over all included code objects.
    pub families: Vec<FamilyCount>,
    /// Mean instruction similarity of matched pairs, weighted by size (1 = identical code).
    pub similarity: f64,
}

/// One matched function and what changed in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionDiff {
    /// The display name: `co_qualname`, or what tells apart code objects sharing it
    /// (`Point.__init__`, `make.<locals>.<lambda>@12:8`; [`crate::engine::CodeNames`]).
    pub qualname: String,
    /// Module name (the file path for code without one).
    pub module: String,
    /// `module:qualname` of the base function when this one was renamed or moved to another
    /// module in the change and paired with its old self by its body (`engine/renames.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// `lost` + `missing` + `backed_off` sites.
    pub regressions: u32,
    /// Import-time code (a module or class body, import machinery, interpreter startup, or
    /// sampled only inside imports: [`crate::report::import_time`]): listed after the rest,
    /// its regressions counted apart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub import_time: bool,
    /// `gained` sites.
    pub gains: u32,
    /// Classified sites, in head order (all sites, `unchanged` included, with
    /// `include_unchanged`; otherwise only changed ones).
    pub changes: Vec<Change>,
    /// Code kind (head's).
    pub kind: CodeKind,
    /// Index into base `code`, for [`crate::report::diff::function_rows`].
    pub base_code: u32,
    /// Index into head `code`.
    pub head_code: u32,
    /// Source file (head's path).
    pub file: String,
    /// Base `co_firstlineno`.
    pub base_first_line: u32,
    /// Head `co_firstlineno`.
    pub head_first_line: u32,
    /// Site counts by kind.
    pub counts: KindCounts,
    /// Specialized share in base.
    pub specialized_before: Share,
    /// Specialized share in head.
    pub specialized_after: Share,
    /// Sampler hotness.
    pub hotness: Hotness,
    /// Ranking score: hotness share × regressions.
    pub score: f64,
    /// Non-specialization instructions added or removed (code edits), not listed in `changes`.
    pub edits: u32,
    /// Instruction similarity of the pair (1 = same normalized code).
    pub similarity: f64,
    /// Fewer than a third of its sites align with base's: they are not compared line by
    /// line and none is a regression ([`crate::report::rewritten`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewritten: bool,
    /// Loops whose JIT trace changed ([`crate::report::traces`]); empty without executors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<crate::report::traces::LoopTrace>,
}

impl FunctionDiff {
    /// Loops that lost their trace or whose executor was invalidated: the gate counts them
    /// beside `regressions`.
    pub fn trace_regressions(&self) -> u32 {
        self.traces.iter().filter(|t| t.regression).count() as u32
    }

    /// *Function whose specialization changed*: a changed function with at least one site
    /// whose kind is neither `unchanged`, `added` nor `removed`, so not a code edit alone, or
    /// with a loop whose JIT trace changed (tier 2 specializes too). A share link picks among
    /// these ([`crate::share::wanted`]).
    pub fn specialization_changed(&self) -> bool {
        self.counts.changed_sites() > self.counts.added + self.counts.removed || !self.traces.is_empty()
    }
}

/// A code object present on one side only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionRef {
    /// The display name: `co_qualname`, or what tells apart code objects sharing it
    /// (`Point.__init__`, `make.<locals>.<lambda>@12:8`; [`crate::engine::CodeNames`]).
    pub qualname: String,
    /// Module name.
    pub module: String,
    /// Code kind.
    pub kind: CodeKind,
    /// Index into that side's `code`.
    pub code: u32,
    /// Source file.
    pub file: String,
    /// `co_firstlineno`.
    pub first_line: u32,
    /// Specialization sites and how many are specialized.
    pub specialized: Share,
    /// Samples with this code on the stack.
    pub samples: u64,
    /// Share of the run's samples.
    pub hotness_share: f64,
}

/// The aligned rows of one function pair, for side-by-side display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionRows {
    /// The display name: `co_qualname`, or what tells apart code objects sharing it
    /// (`Point.__init__`, `make.<locals>.<lambda>@12:8`; [`crate::engine::CodeNames`]).
    pub qualname: String,
    /// Module name.
    pub module: String,
    /// Base code index, if the function exists in base.
    pub base_code: Option<u32>,
    /// Head code index, if it exists in head.
    pub head_code: Option<u32>,
    /// One row per site pair; every instruction of both code objects appears once, in order.
    pub rows: Vec<Row>,
    /// The classified changes (same as the report's; `Change::row` indexes `rows`).
    pub changes: Vec<Change>,
    /// Base source lines the rows refer to.
    pub base_source: Map<u32, String>,
    /// Head source lines the rows refer to.
    pub head_source: Map<u32, String>,
    /// The JIT traces of the function's loops, side by side (dumps with executors only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<super::trace_view::TraceView>,
}

/// One aligned row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// How the two sides relate.
    pub kind: RowKind,
    /// The classification, when the row is a specialization site.
    pub change: Option<ChangeKind>,
    /// The explanation of a change.
    pub explanation: Option<String>,
    /// Base side.
    pub base: Option<RowSide>,
    /// Head side.
    pub head: Option<RowSide>,
}

impl Row {
    /// Worth showing when folding: a changed site or an edit.
    pub fn is_interesting(&self) -> bool {
        !matches!(self.change, None | Some(ChangeKind::Unchanged)) || self.kind != RowKind::Same
    }
}

/// One side of a row: a site and its instructions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowSide {
    /// Site index.
    pub site: u32,
    /// Source line of the site.
    pub line: Option<u32>,
    /// Sampler hits on that line.
    pub hotness: u64,
    /// The site's instructions (folded ones first, the primary last).
    pub instructions: Vec<InstrView>,
}

/// One instruction, resolved for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstrView {
    /// Index in the code object's instructions.
    pub index: u32,
    /// Byte offset.
    pub offset: u32,
    /// Opname.
    pub opname: String,
    /// Family.
    pub family: String,
    /// A specialized form.
    pub specialized: bool,
    /// `arg`.
    pub arg: Option<u32>,
    /// `argrepr`, as `dis` prints it.
    pub argrepr: String,
    /// Source line.
    pub line: Option<u32>,
    /// The instruction the site's key describes.
    pub primary: bool,
    /// The decoded adaptive counter.
    pub counter: Option<Counter>,
    /// Churn seen by the sampler.
    pub churn: Option<ChurnInfo>,
}

pub(crate) fn warning(code: &str, message: String) -> Warning {
    Warning { code: code.into(), message }
}

pub(crate) fn run_warnings(base: &Dump, head: &Dump) -> Vec<Warning> {
    let mut w = vec![];
    let (bv, hv) = (&base.python.version, &head.python.version);
    if base.python.minor_version() != head.python.minor_version() {
        w.push(warning("version_mismatch", format!("the dumps are from different CPython versions: {bv} vs {hv}")));
    }
    for (name, d) in [("base", base), ("head", head)] {
        let v = d.python.minor_version();
        if crate::cpython::counters::VersionRules::new(v.0, v.1).assumed {
            let rules = if v <= (3, 11) { "3.11" } else { "3.12–3.15" };
            w.push(warning("assumed_counters", format!("the {name} run is CPython {}: its counters are read with the {rules} rules (not measured on this version)", d.python.version)));
        }
        if d.run.sampler.samples == 0 {
            w.push(warning("unsampled", format!("the {name} run has no samples (sampler {}): hotness is 0 and functions rank by regressions", d.run.sampler.mode)));
        }
        // Only an uncaught exception proves that code was skipped; a status alone (a test
        // run with one failing test exits 1) proves nothing about what ran.
        if let Some(exception) = &d.run.exception {
            w.push(warning("run_failed", format!("the {name} run stopped at an uncaught exception ({exception}): code after it did not run")));
        } else if d.run.exit_status != 0 {
            w.push(warning(
                "run_failed",
                format!("the {name} run exited with status {}: compare it only with a run that did the same work", d.run.exit_status),
            ));
        }
    }
    w
}

pub(crate) fn run_ref(d: &Dump) -> RunRef {
    RunRef {
        label: d.label(),
        python: d.python.version.clone(),
        version: d.python.minor_version(),
        samples: d.run.sampler.samples,
        sampler: d.run.sampler.mode.clone(),
        code_objects: d.code.len() as u32,
    }
}

pub(crate) fn function_ref(d: &Dump, names: &CodeNames, paths: &PathDisplay, i: u32, share: Share) -> FunctionRef {
    let c = &d.code[i as usize];
    let module = identity(d, c).0;
    let qualname = names.name(d, i).to_string();
    let h = Hotness::of(Some((d, c)), None);
    FunctionRef {
        qualname,
        module,
        kind: c.kind,
        code: i,
        file: paths.show(&d.files[c.file as usize].path),
        first_line: c.first_line,
        specialized: share,
        samples: c.samples.1,
        hotness_share: h.base_share,
    }
}
