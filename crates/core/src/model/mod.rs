//! The data every later stage passes along, as plain Rust types: one run's [`Dump`]
//! (`docs/dump-format.md`), its specialization [`Stats`], and an interpreter's measured
//! [`CostModel`]. No reading, no CPython knowledge:
//! the readers are in [`crate::format`], the per-version meaning in [`crate::cpython`].

pub(crate) mod cost;
pub(crate) mod dump;
pub(crate) mod jit;
pub(crate) mod stats;

pub use cost::{CostModel, FormCost, SimpleCost, Unmeasured, COST_MODEL_FORMAT, COST_MODEL_VERSION};
pub use dump::{
    Churn, CodeInfo, CodeKind, CounterKind, CounterLayout, Dump, FileInfo, Filters, Instruction, OpInfo, PythonInfo, RunInfo,
    SamplerInfo, Target, FORMAT_NAME, FORMAT_VERSION,
};
pub use jit::{Executor, Exit, JitInfo, Uop};
pub use stats::{parse_minor_version, OpcodeStats, Specialization, Stats};
