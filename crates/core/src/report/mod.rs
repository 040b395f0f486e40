//! From the engine's pieces to what users read: [`diff_dumps`] and [`DiffSession`] drive
//! normalize → match → align → classify → explain → summarize (`diff.rs`) into a [`DiffReport`]
//! (the types of `docs/diff-format.md`, `types.rs`), with explanations (`explain/`), hotness
//! and coverage summaries (`summary.rs`), a fast path for identical code (`identical.rs`), the
//! side-by-side rows of one function (`rows.rs`), and the diff of two runs' pystats
//! (`stats_diff.rs`), the JIT traces of a function's loops, what changed (`traces`) and side by side (`trace_view`), the explanations a share link carries (`sent.rs`), file paths as a reader needs them ([`paths`]), which code runs at import time and is counted apart ([`import_time`]), the words and number formats every output shares ([`wording`]), and how long an untrusted string may be when shown ([`display`]).

pub(crate) mod diff;
pub(crate) mod options;
pub mod display;
pub(crate) mod explain;
pub(crate) mod identical;
pub mod import_time;
pub mod paths;
pub mod rewritten;
pub(crate) mod rows;
pub(crate) mod sent;
pub(crate) mod stats_diff;
pub(crate) mod summary;
pub mod trace_view;
pub mod traces;
pub(crate) mod types;
pub mod wording;

pub use diff::{diff_dumps, function_rows, DiffError, DiffOptions, DiffSession};
pub use sent::SentExplanation;
pub use stats_diff::{
    diff_stats, failure_kind_deltas, percent, summarize, Delta, FamilySummary, StatsDiff, StatsSummary,
};
pub use summary::{ShareTally, Tallies};
pub use types::{
    Change, ChangeKind, ChurnInfo, CodeKind, Counter, CounterState, DiffReport, FamilyCount, FunctionDiff, FunctionRef,
    FunctionRows, Hotness, InstrView, KindCounts, Row, RowKind, RowSide, Share, REPORT_FORMAT, REPORT_VERSION,
};
