//! Files in and out: bytes (plain or gzip) to the [`crate::model`] types and back, with size
//! limits and one-line errors ([`InputError`]).
//!
//! - `input.rs`: size limits, gzip, sniffing, the error type.
//! - `document.rs`: the one reader of JSON documents (decompress → sniff → depth → header →
//!   errors), with `nesting.rs` (the depth cap), `header.rs` and `json_path.rs` (the path of
//!   a bad field).
//! - `dump.rs` (with its fast path `dump_scan.rs`): dumps. `builder.rs`: dumps built in code.
//! - `stats.rs` and `pystats.rs`: standalone stats files and CPython's raw pystats files.
//! - `cost_model.rs`: cost models (`specdiff calibrate`), and the ones committed for the
//!   interpreters measured here.
//! - `capture.rs` and `linetable.rs`: the byte-format work `specdiff dump` does for its Python
//!   harness (cache words, counters, positions from `co_linetable`).

pub(crate) mod builder;
pub(crate) mod capture;
pub(crate) mod cost_model;
pub(crate) mod document;
pub(crate) mod dump;
pub(crate) mod dump_scan;
pub(crate) mod header;
pub(crate) mod input;
pub(crate) mod json_path;
pub(crate) mod linetable;
pub(crate) mod nesting;
pub(crate) mod pystats;
pub(crate) mod stats;

pub use builder::{CodeBuilder, DumpBuilder};
pub use capture::{finish_instructions, RawCode};
pub use cost_model::{committed_cost_model, committed_cost_model_versions, read_cost_model};
pub use dump::{read_dump, to_json};
pub use input::{
    gzip_corrupt, gzip_truncated, is_gzip, read_within, sniff, InputError, InputErrorKind, ReadLimits, Sniffed,
};
pub use linetable::decode_hex;
pub use pystats::{parse_pystats, read_pystats, read_stats, PystatsOptions, DEFAULT_NUMBERED_VERSION};
pub use stats::{read_stats_file, StatsFile, STATS_FORMAT_NAME, STATS_FORMAT_VERSION};
