//! # specdiff-core
//!
//! Everything specdiff knows about CPython's specializing interpreter that is not a process, a
//! terminal or a web page: it reads dumps (`specdiff dump` output) and raw pystats files,
//! normalizes them per CPython version, matches code objects across two runs, aligns their
//! instructions, classifies every site and summarizes the result.
//!
//! The crate is pure Rust with no I/O of its own: callers hand it bytes and a file name (for
//! error messages), so it builds unchanged for native targets and for `wasm32-unknown-unknown`.
//!
//! ## The pipeline
//!
//! The modules are folders in data-flow order; each uses only the ones above it in this list
//! (the test `tests/structure.rs` keeps it so, for every crate of the workspace):
//!
//! 1. [`util`]: crate-wide helpers (the one stable sort, globs, the sorted [`util::Map`]).
//! 2. [`model`]: the data: a run's [`Dump`] and its pystats [`model::Stats`], as plain types.
//! 3. [`cpython`]: per-version CPython knowledge: opcode tables, failure-kind names, spellings,
//!    counters, and the normalizer that makes sites comparable across versions.
//! 4. [`format`](mod@format): bytes in and out: [`read_dump`], stats and raw pystats readers, the dump
//!    builder, and the one-line [`InputError`]s.
//! 5. [`engine`]: match code objects, align their sites, classify each aligned row.
//! 6. [`report`]: [`diff_dumps`] drives the engine into a [`DiffReport`], with explanations,
//!    summaries and the diff of two runs' pystats.
//! 7. [`share`]: two runs packed into a URL-safe share link.
//! 8. [`view`]: what every output shows of a diff, derived once: hotness as an estimate with
//!    its interval, the regression gate's verdict.
//!
//! ## The public surface
//!
//! What the CLI and the page use, re-exported here: the readers ([`read_dump`],
//! [`ReadLimits`], [`InputError`]), the diff ([`diff_dumps`], [`DiffSession`], [`DiffOptions`],
//! [`DiffReport`] and its [`FunctionDiff`], [`Change`], [`ChangeKind`], [`FunctionRows`]), and
//! the view every output renders ([`View`], [`Overview`], [`FunctionView`],
//! [`HotnessEstimate`], [`GateOptions`], [`GateResult`]). Beside them, by module: the words
//! and number formats every output shares ([`report::wording`]), share links ([`share`]),
//! the format readers and writers ([`format`](mod@format)), the data types ([`model`]). No edge uses the
//! engine's internals (the normalizer, a site's view for the classifier): [`report::Tallies`]
//! counts a code object's specialized share for them, and the explanation rules are
//! crate-private.
//!
//! ## Example
//!
//! Two runs of one function: in the base run `x.attr` specialized to `LOAD_ATTR_SLOT`, in the
//! head run it stayed the generic `LOAD_ATTR`. Real dumps come from `specdiff dump`; here the
//! [`format::DumpBuilder`] writes them, and [`read_dump`] reads them back as it would a file.
//!
//! ```
//! use specdiff_core::format::{to_json, DumpBuilder};
//! use specdiff_core::{diff_dumps, read_dump, ChangeKind, DiffOptions, ReadLimits};
//!
//! // A dump of a module whose function `f` runs `p.x` with `attr` as the opname.
//! let run = |attr: &str| {
//!     let mut b = DumpBuilder::new("3.12.1");
//!     b.code("app", "<module>", 1).ins("RESUME", "", 1).ins("RETURN_VALUE", "", 1).finish();
//!     b.code("app", "f", 3)
//!         .ins("RESUME", "", 3)
//!         .ins("LOAD_FAST", "p", 4)
//!         .ins(attr, "x", 4)
//!         .backoff(4)
//!         .ins("RETURN_VALUE", "", 5)
//!         .finish();
//!     to_json(&b.build())
//! };
//! let base = read_dump("base.json", &run("LOAD_ATTR_SLOT"), ReadLimits::default())?;
//! let head = read_dump("head.json", &run("LOAD_ATTR"), ReadLimits::default())?;
//!
//! let report = diff_dumps(&base, &head, &DiffOptions::default())?;
//! assert_eq!(report.summary.regressions, 1);
//! let f = &report.functions[0];
//! assert_eq!(f.qualname, "f");
//! let change = &f.changes[0];
//! assert_eq!((change.kind, change.family.as_str()), (ChangeKind::Lost, "LOAD_ATTR"));
//! assert_eq!(change.base.as_deref(), Some("LOAD_ATTR_SLOT"));
//! assert_eq!(change.base_line, Some(4));
//!
//! // Bad input is one line that names the file.
//! let e = read_dump("notes.txt", b"hello", ReadLimits::default()).unwrap_err();
//! assert_eq!(e.to_string(), "notes.txt: not JSON: it does not start with '{'");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]
#![warn(unreachable_pub)]

pub mod util;

pub mod model;

pub mod cpython;

pub mod format;

pub mod engine;

pub mod report;

pub mod share;

pub mod view;

pub use format::{read_dump, InputError, InputErrorKind, ReadLimits};
pub use model::Dump;
pub use report::{
    diff_dumps, function_rows, Change, ChangeKind, DiffError, DiffOptions, DiffReport, DiffSession, FunctionDiff,
    FunctionRows,
};
pub use view::{FunctionView, GateOptions, GateResult, HotnessEstimate, Overview, View};
