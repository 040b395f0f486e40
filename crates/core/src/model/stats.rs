//! Specialization statistics ("pystats") as CPython's `--enable-pystats` builds collect them:
//! the [`Stats`] of one run (possibly summed over several raw files) and its JSON form, stored
//! in dumps as `pystats` and in standalone stats files (`docs/stats-format.md`).
//!
//! Plain data: the raw-file reader and the stats file are in `format`, the opcode facts that
//! give the counters meaning (family, kind of instruction) in `cpython`, summaries and diffs in
//! `report`.

use serde::{Deserialize, Serialize};

use crate::util::map::{add_counts, Map};

/// One run's specialization statistics.
///
/// Every counter is summed over the raw files the run wrote (CPython writes one file per
/// process). Counters absent from the raw files are zero.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// The CPython minor version (`"3.11"`, `"3.12"`, …) whose opcode table named the opcodes.
    /// Raw files of 3.11 and 3.12 number opcodes, so the reader had to be told (or assumed
    /// 3.11); 3.13+ files name them and this is `None` unless the caller knew the version.
    #[serde(default)]
    pub python: Option<String>,
    /// How many raw files were summed.
    #[serde(default)]
    pub files: u64,
    /// Tier-1 instructions by opname (specialized forms are entries of their own).
    #[serde(default)]
    pub opcodes: Map<String, OpcodeStats>,
    /// Tier-2 micro-ops (`uops[NAME]…` keys, 3.13+), by name.
    #[serde(default)]
    pub uops: Map<String, OpcodeStats>,
    /// Call and frame counters (`"Calls to PyEval_EvalDefault"`, `"Frames pushed"`,
    /// `"Frame objects created"`, `"Calls via PyEval_EvalFrame[N]"` …), by raw key.
    #[serde(default)]
    pub calls: Map<String, u64>,
    /// Object counters (`"Object allocations"`, `"Object new values"` …), by raw key.
    #[serde(default)]
    pub objects: Map<String, u64>,
    /// Garbage-collector counters by generation, then by name (`"collections"` for the raw
    /// key `GC[0] collections`). 3.12+.
    #[serde(default)]
    pub gc: Map<u32, Map<String, u64>>,
    /// Every other counter (optimizer, histograms, rare events …), by raw key.
    #[serde(default)]
    pub other: Map<String, u64>,
}

/// Counters of one instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpcodeStats {
    /// CPython marked the instruction as a family head it (could) specialize
    /// (`opcode[N].specializable`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub specializable: bool,
    /// Times the instruction executed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub execution_count: u64,
    /// The `specialization.*` counters.
    #[serde(default, skip_serializing_if = "Specialization::is_empty")]
    pub specialization: Specialization,
    /// `specialization.failure_kinds[N]` by `N` (named per family and version by
    /// [`crate::cpython::failure_kinds::failure_kind_name`]).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub failure_kinds: Map<u32, u64>,
    /// `pair_count[NEXT]`: how often opname `NEXT` executed right after this one.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub pairs: Map<String, u64>,
    /// Any other per-instruction counter, by the key after `opcode[X].`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub other: Map<String, u64>,
}

/// The `specialization.*` counters of one instruction.
///
/// In CPython these are mostly counted on the family head (the base instruction): hits,
/// deferrals, successes and failures of all `LOAD_ATTR_*` forms are counted on `LOAD_ATTR`;
/// a miss is counted both on the specialized form and on the head.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Specialization {
    /// Attempts to specialize that succeeded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub success: u64,
    /// Attempts to specialize that failed (broken down in `failure_kinds`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failure: u64,
    /// Executions of a specialized form whose guards held.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit: u64,
    /// Executions of the adaptive form while its counter was still backing off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deferred: u64,
    /// Executions of a specialized form whose guards failed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub miss: u64,
    /// Misses that exhausted the counter and turned the site back into the adaptive form.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deopt: u64,
}

impl Specialization {
    /// All counters are zero.
    pub fn is_empty(&self) -> bool {
        *self == Specialization::default()
    }

    /// Adds `other` counter by counter (saturating: sums of real counters never get near
    /// `u64::MAX`, and hostile input must not panic).
    pub fn add(&mut self, other: &Specialization) {
        self.success = self.success.saturating_add(other.success);
        self.failure = self.failure.saturating_add(other.failure);
        self.hit = self.hit.saturating_add(other.hit);
        self.deferred = self.deferred.saturating_add(other.deferred);
        self.miss = self.miss.saturating_add(other.miss);
        self.deopt = self.deopt.saturating_add(other.deopt);
    }
}

pub(crate) fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl OpcodeStats {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &OpcodeStats) {
        self.specializable |= other.specializable;
        self.execution_count = self.execution_count.saturating_add(other.execution_count);
        self.specialization.add(&other.specialization);
        add_counts(&mut self.failure_kinds, &other.failure_kinds);
        add_counts(&mut self.pairs, &other.pairs);
        add_counts(&mut self.other, &other.other);
    }
}

impl Stats {
    /// Sum of `execution_count` over all tier-1 instructions.
    pub fn total_executions(&self) -> u64 {
        self.opcodes.values().fold(0u64, |t, s| t.saturating_add(s.execution_count))
    }

    /// The `(major, minor)` version in [`Stats::python`], when it parses.
    pub fn minor_version(&self) -> Option<(u32, u32)> {
        self.python.as_deref().and_then(parse_minor_version)
    }
}

/// `"3.11"` or `"3.11.2"` → `(3, 11)`.
pub fn parse_minor_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}
