//! The data every later stage passes along, as plain Rust types: one run's [`Dump`]
//! (`docs/dump-format.md`) and its specialization [`Stats`]. No reading, no CPython knowledge:
//! the readers are in [`crate::format`], the per-version meaning in [`crate::cpython`].

pub(crate) mod dump;
pub(crate) mod jit;
pub(crate) mod stats;

pub use dump::{
    Churn, CodeInfo, CodeKind, CounterKind, CounterLayout, Dump, FileInfo, Filters, Instruction, OpInfo, PythonInfo, RunInfo,
    SamplerInfo, Target, FORMAT_NAME, FORMAT_VERSION,
};
pub use jit::{Executor, Exit, JitInfo, Uop};
pub use stats::{parse_minor_version, OpcodeStats, Specialization, Stats};
