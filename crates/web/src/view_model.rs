//! View models: what the engine (in the worker) sends to the page. Plain data, serializable,
//! already formatted for display where formatting needs domain knowledge. The components only
//! lay these out; they compute nothing about specialization.

use crate::wire::{Reader, Wire};
use crate::{wire_struct, wire_unit_enum};

/// One of the two runs being compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The run before the change.
    Base,
    /// The run after the change.
    Head,
}

impl Side {
    /// Both sides, base first.
    pub const BOTH: [Side; 2] = [Side::Base, Side::Head];

    /// 0 for base, 1 for head.
    pub fn index(self) -> usize {
        match self {
            Side::Base => 0,
            Side::Head => 1,
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Base => Side::Head,
            Side::Head => Side::Base,
        }
    }

    /// `"base"` or `"head"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Base => "base",
            Side::Head => "head",
        }
    }
}

/// The per-pane label of a loaded run (like Compiler Explorer's pane titles).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideInfo {
    /// File name of the dump (or of the first stats file).
    pub file: String,
    /// `"CPython 3.12.1"`.
    pub python: String,
    /// The command line of the run.
    pub command: String,
    /// Start of the run, `"2026-01-02 10:11 UTC"`.
    pub date: String,
    /// Number of code objects in the dump.
    pub code_objects: usize,
    /// Raw pystats files loaded for this side.
    pub stats_files: Vec<String>,
    /// A dump is loaded (not only stats).
    pub has_dump: bool,
    /// Extra remark, e.g. "reduced: 12 of 7,012 code objects (share link)".
    pub note: Option<String>,
}

/// How a specialization site (or a whole function) compares between the runs: the core's
/// `ChangeKind` (`Unchanged` for a single run), whose label and description come from the core's
/// wording; [`ClassText`] adds the CSS names.
pub use specdiff_core::ChangeKind;

/// Display texts of a [`ChangeKind`].
pub trait ClassText: Sized {
    /// Snake-case name, as the CLI prints it (also the CSS class suffix).
    fn name(self) -> &'static str;
    /// Parses [`ClassText::name`].
    fn from_name(s: &str) -> Option<Self>;
}

impl ClassText for ChangeKind {
    fn name(self) -> &'static str {
        self.as_str()
    }

    fn from_name(s: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// What the page is showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nothing loaded.
    Empty,
    /// One run: coverage.
    Single(Side),
    /// Two runs: the diff.
    Diff,
}

/// Good or bad, for colouring a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Better in head.
    Good,
    /// Worse in head.
    Bad,
    /// Neither.
    Neutral,
}

/// A run-level number, per side.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// What it is.
    pub label: String,
    /// Base value, formatted.
    pub base: Option<String>,
    /// Head value, formatted.
    pub head: Option<String>,
    /// Head minus base, formatted.
    pub delta: Option<String>,
    /// Colour of the delta.
    pub tone: Tone,
    /// Explanation in plain words.
    pub tip: Option<String>,
}

/// Specialized sites out of all sites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Share {
    /// Sites currently in a specialized form.
    pub specialized: u32,
    /// All adaptive sites.
    pub sites: u32,
}

impl Share {
    /// `specialized / sites`, 0 when there are no sites.
    pub fn ratio(self) -> f64 {
        if self.sites == 0 {
            0.0
        } else {
            self.specialized as f64 / self.sites as f64
        }
    }
}

/// One family (base instruction) in the before/after bar chart.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyBar {
    /// E.g. `"LOAD_ATTR"`.
    pub family: String,
    /// Base run.
    pub base: Option<Share>,
    /// Head run.
    pub head: Option<Share>,
}

/// An entry of the "top regressions" (or, for one run, "hottest") list.
#[derive(Clone, Debug, PartialEq)]
pub struct TopItem {
    /// Function key (see [`FunctionRow::key`]).
    pub key: String,
    /// Offset of the site the item is about, when it is about one.
    pub offset: Option<u32>,
    /// Qualified name.
    pub title: String,
    /// `file:line`.
    pub location: String,
    /// Classification of the site or function.
    pub class: ChangeKind,
    /// What happened, in words.
    pub detail: String,
    /// Ranking score (hotness × regressions).
    pub score: f64,
}

/// Run-level view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overview {
    /// Run-level numbers.
    pub metrics: Vec<Metric>,
    /// Per-family specialized share.
    pub families: Vec<FamilyBar>,
    /// Ranked list.
    pub top: Vec<TopItem>,
    /// Number of sites per class (diff only).
    pub class_totals: Vec<(ChangeKind, u32)>,
    /// The changed, added and removed functions as the core's
    /// [`specdiff_core::view::Overview::changed_words`] says them (diff only): the one count
    /// the tabs, the overview and the CLI share.
    pub changed: String,
}

/// One row of the function list.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionRow {
    /// Stable identity across reloads and links: `module:qualname` (plus `~n` for duplicates).
    pub key: String,
    /// `co_qualname`.
    pub qualname: String,
    /// Module name.
    pub module: String,
    /// `file:line`.
    pub location: String,
    /// `"function"`, `"module"`, …
    pub kind: String,
    /// Share of all samples with this code on the stack, 0–1: the core's
    /// [`specdiff_core::view::HotnessEstimate`] (outside imports, the hotter sampled side).
    pub hot: f64,
    /// That estimate's 95 % interval in percent and the samples behind it, as the CLI prints
    /// them (`None`: no run sampled, or a function on one side only).
    pub hot_interval: Option<((f64, f64), u64)>,
    /// Specialized share before (base, or the single run).
    pub before: Option<Share>,
    /// Specialized share after (head).
    pub after: Option<Share>,
    /// Sites per class, non-zero ones only (diff only).
    pub counts: Vec<(ChangeKind, u32)>,
    /// Function-level classification (`Unchanged` for a single run).
    pub status: ChangeKind,
    /// Ranking score.
    pub score: f64,
    /// The opnames of its instructions (both runs'), as indices into [`Summary::opnames`],
    /// ascending: what a search for `BINARY_OP_ADD_INT` finds.
    pub ops: Vec<u32>,
}

impl FunctionRow {
    /// The row's hotness as the CLI words it: with its 95 % interval and samples where there
    /// is one (a matched function of a sampled run), `"48.0% (95% CI 44.1–51.9%, 940 samples)
    /// of samples"`.
    pub fn hot_words(&self) -> String {
        let figure = match self.hot_interval {
            Some(((low, high), samples)) => specdiff_core::view::HotnessEstimate { percent: self.hot * 100.0, low, high, samples }.with_interval(),
            None => crate::format::percent(self.hot),
        };
        format!("{figure} of samples")
    }

    /// Number of sites of `class`.
    pub fn count(&self, class: ChangeKind) -> u32 {
        self.counts.iter().find(|(c, _)| *c == class).map_or(0, |(_, n)| *n)
    }

    /// Sites that differ between the runs.
    pub fn changes(&self) -> u32 {
        self.counts.iter().filter(|(c, _)| *c != ChangeKind::Unchanged).map(|(_, n)| n).sum()
    }

    /// True when the function differs between the runs.
    pub fn is_changed(&self) -> bool {
        self.status != ChangeKind::Unchanged || self.changes() > 0
    }
}

/// Everything the page needs after a (re)load: the overview and the function list.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Increases with every load; lets the page drop stale answers.
    pub generation: u64,
    /// What is shown.
    pub mode: Mode,
    /// Run-level view.
    pub overview: Overview,
    /// All functions.
    pub rows: Vec<FunctionRow>,
    /// Warnings shown above everything (e.g. CPython version mismatch).
    pub warnings: Vec<String>,
    /// Specialization statistics are available.
    pub has_stats: bool,
    /// Every opname of the loaded runs' instructions, once each, sorted ([`FunctionRow::ops`]).
    pub opnames: Vec<String>,
}

impl Summary {
    /// The summary shown when nothing is loaded.
    pub fn empty() -> Summary {
        Summary {
            generation: 0,
            mode: Mode::Empty,
            overview: Overview::default(),
            rows: Vec::new(),
            warnings: Vec::new(),
            has_stats: false,
            opnames: Vec::new(),
        }
    }
}

/// One instruction in the function view.
#[derive(Clone, Debug, PartialEq)]
pub struct Ins {
    /// Offset in bytes.
    pub offset: u32,
    /// Opname (adaptive form).
    pub op: String,
    /// Family (base instruction).
    pub family: String,
    /// `argrepr` (or the numeric arg).
    pub arg: String,
    /// A specialized form.
    pub specialized: bool,
    /// An adaptive site (has a counter).
    pub site: bool,
    /// Short counter text, e.g. `"52·b4"`.
    pub counter: Option<String>,
    /// Plain-words explanation of the counter.
    pub tip: Option<String>,
    /// Churn text, e.g. `"3 flips: LOAD_ATTR → LOAD_ATTR_SLOT → LOAD_ATTR"`.
    pub churn: Option<String>,
}

/// A row of the function view.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // rows are built once and rendered; boxing buys nothing
pub enum DetailRow {
    /// A source line.
    Source {
        /// Line number.
        line: u32,
        /// Text (without newline).
        text: String,
        /// Self samples on this line, per side.
        samples: [u64; 2],
    },
    /// An instruction, or an aligned pair of instructions.
    Ins {
        /// Base (or the single run's) instruction.
        base: Option<Ins>,
        /// Head instruction.
        head: Option<Ins>,
        /// Classification of the site (diff only).
        class: Option<ChangeKind>,
        /// Why, in words (diff only).
        explain: Option<String>,
    },
    /// A run of unchanged rows, folded.
    Fold {
        /// The folded rows.
        rows: Vec<DetailRow>,
    },
}

/// The function view.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDetail {
    /// The key it was asked for.
    pub key: String,
    /// Qualified name.
    pub title: String,
    /// `file:line` per side.
    pub locations: [Option<String>; 2],
    /// Kind of code object.
    pub kind: String,
    /// Single or diff.
    pub mode: Mode,
    /// Explanations shown above the listing.
    pub explanations: Vec<String>,
    /// Sites per class.
    pub counts: Vec<(ChangeKind, u32)>,
    /// Function-level classification.
    pub status: ChangeKind,
    /// The listing.
    pub rows: Vec<DetailRow>,
    /// The JIT traces of its loops (dumps with executors only).
    pub traces: Vec<TraceDetail>,
}

/// One loop's JIT traces, base and head side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceDetail {
    /// The loop's jump's source line.
    pub line: Option<u32>,
    /// Per side, what the run left on the loop: "12 uops", "no trace", "12 uops, invalidated".
    pub sides: [String; 2],
    /// The diff's word for the change (`lost`, `changed`, …), when it reports one.
    pub change: Option<String>,
    /// Its sentence.
    pub explanation: Option<String>,
    /// The aligned uops.
    pub rows: Vec<TraceLine>,
}

/// One line of a trace: a uop on either side or both.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceLine {
    /// Base's uop, and the listing's instruction row (from 1, the route's `site`) it came from.
    pub base: Option<(String, Option<u32>)>,
    /// Head's.
    pub head: Option<(String, Option<u32>)>,
    /// Same uop on both sides.
    pub same: bool,
}

/// The stats tab: one table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatsTable {
    /// Column names (after the name column), per side.
    pub columns: Vec<String>,
    /// Per column: is a larger head value better (`Some(true)`), worse (`Some(false)`), neither.
    pub better: Vec<Option<bool>>,
    /// Sides present.
    pub sides: [bool; 2],
    /// Rows.
    pub rows: Vec<StatsRow>,
    /// Remarks (e.g. where the stats came from).
    pub notes: Vec<String>,
}

/// One row of the stats table.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRow {
    /// Opcode or counter name.
    pub name: String,
    /// Base values, one per column.
    pub base: Vec<Option<u64>>,
    /// Head values, one per column.
    pub head: Vec<Option<u64>>,
    /// The family's failed specialization attempts by kind, most frequent first.
    pub kinds: Vec<StatsKind>,
}

/// Failed specialization attempts of one kind (`specialization.failure_kinds[N]`).
#[derive(Clone, Debug, PartialEq)]
pub struct StatsKind {
    /// As CPython's `summarize_stats.py` names it (`"string int"`, `"kind 7"`).
    pub label: String,
    /// The `SPEC_FAIL_…` constant of `Python/specialize.c`, when known.
    pub constant: String,
    /// Base count (None: no base run).
    pub base: Option<u64>,
    /// Head count (None: no head run).
    pub head: Option<u64>,
}

// The binary form of the view models (see `crate::wire`).
wire_unit_enum!(Side, Side::BOTH);
wire_unit_enum!(ChangeKind, ChangeKind::ALL);
wire_unit_enum!(Tone, [Tone::Good, Tone::Bad, Tone::Neutral]);
wire_struct!(SideInfo { file, python, command, date, code_objects, stats_files, has_dump, note });
wire_struct!(Metric { label, base, head, delta, tone, tip });
wire_struct!(Share { specialized, sites });
wire_struct!(FamilyBar { family, base, head });
wire_struct!(TopItem { key, offset, title, location, class, detail, score });
wire_struct!(Overview { metrics, families, top, class_totals, changed });
wire_struct!(FunctionRow { key, qualname, module, location, kind, hot, hot_interval, before, after, counts, status, score, ops });
wire_struct!(Summary { generation, mode, overview, rows, warnings, has_stats, opnames });
wire_struct!(Ins { offset, op, family, arg, specialized, site, counter, tip, churn });
wire_struct!(FunctionDetail { key, title, locations, kind, mode, explanations, counts, status, rows, traces });
wire_struct!(TraceDetail { line, sides, change, explanation, rows });
wire_struct!(TraceLine { base, head, same });
wire_struct!(StatsTable { columns, better, sides, rows, notes });
wire_struct!(StatsRow { name, base, head, kinds });
wire_struct!(StatsKind { label, constant, base, head });

impl Wire for Mode {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Mode::Empty => out.push(0),
            Mode::Single(side) => {
                out.push(1);
                side.put(out);
            }
            Mode::Diff => out.push(2),
        }
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        match r.varint()? {
            0 => Some(Mode::Empty),
            1 => Side::take(r).map(Mode::Single),
            2 => Some(Mode::Diff),
            _ => None,
        }
    }
}

impl Wire for DetailRow {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            DetailRow::Source { line, text, samples } => {
                out.push(0);
                line.put(out);
                text.put(out);
                samples.put(out);
            }
            DetailRow::Ins { base, head, class, explain } => {
                out.push(1);
                base.put(out);
                head.put(out);
                class.put(out);
                explain.put(out);
            }
            DetailRow::Fold { rows } => {
                out.push(2);
                rows.put(out);
            }
        }
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some(match r.varint()? {
            0 => DetailRow::Source { line: Wire::take(r)?, text: Wire::take(r)?, samples: Wire::take(r)? },
            1 => DetailRow::Ins { base: Wire::take(r)?, head: Wire::take(r)?, class: Wire::take(r)?, explain: Wire::take(r)? },
            2 => DetailRow::Fold { rows: Wire::take(r)? },
            _ => return None,
        })
    }
}
