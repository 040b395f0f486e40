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
//! Layers, from the bottom:
//! - [`input`]: bytes → decompressed text, with size limits and gzip detection.
//! - [`dump`]: the dump format (see `docs/dump-format.md`) and its reader.
//! - [`capture`] and [`linetable`]: the byte-format work `specdiff dump` does for its Python
//!   harness (cache words, counters, positions from `co_linetable`).
//! - [`stats`]: specialization statistics (pystats), parsed from raw files or taken from a dump.
#![warn(missing_docs)]

pub mod capture;
pub mod dump;
mod dump_scan;
pub mod failure_kinds;
mod header;
pub mod input;
mod json_path;
pub mod linetable;
pub mod map;
mod opcode_tables;
pub mod pystats;
pub mod share;
pub mod stats;
pub mod stats_diff;

pub use dump::{read_dump, Dump};
pub use input::{InputError, InputErrorKind, ReadLimits};

// The diff engine (docs/engine.md): normalize → match → align → classify → explain →
// summarize, with the report types of docs/diff-format.md.
pub mod align;
pub mod builder;
pub mod classify;
pub mod counters;
pub mod diff;
pub mod explain;
mod identical;
pub mod matching;
pub mod normalize;
pub mod report;
pub mod rows;
pub mod spelling;
pub mod summary;

pub use classify::{Change, ChangeKind};
pub use diff::{diff_dumps, function_rows, DiffError, DiffOptions, DiffSession};
pub use report::{DiffReport, FunctionDiff, FunctionRows};
