//! Specialization statistics ("pystats") as CPython's `--enable-pystats` builds collect them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One run's specialization statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Per opname (specialized forms included), as named by the interpreter's own tables.
    pub opcodes: BTreeMap<String, OpcodeStats>,
    /// Every other counter, by its key in the raw file (`"Calls to PyEval_EvalDefault"` …).
    pub other: BTreeMap<String, u64>,
}

/// Counters of one opcode.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OpcodeStats {
    /// `execution_count`.
    #[serde(default)]
    pub execution_count: u64,
    /// `specialization.*` counters (`success`, `failure`, `hit`, `deferred`, `miss`, `deopt`).
    #[serde(default)]
    pub specialization: BTreeMap<String, u64>,
    /// `specialization.failure_kinds[N]` by `N`.
    #[serde(default)]
    pub failure_kinds: BTreeMap<u32, u64>,
}
