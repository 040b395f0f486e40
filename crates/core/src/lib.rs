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
//! - [`stats`]: specialization statistics (pystats), parsed from raw files or taken from a dump.
#![warn(missing_docs)]

pub mod dump;
pub mod input;
pub mod stats;

pub use dump::{read_dump, Dump};
pub use input::{InputError, InputErrorKind, ReadLimits};
