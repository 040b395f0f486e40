//! A cost model as plain types: what one execution of each specialized form saves against the
//! generic form of the same operation, measured on one interpreter by `specdiff calibrate`
//! (`docs/cost-model.md`). No reading (that is `format/cost_model.rs`), no estimates (that is
//! `view/cost.rs`).

use serde::{Deserialize, Serialize};

/// The value of `format` in a cost model document.
pub const COST_MODEL_FORMAT: &str = "specdiff-cost-model";
/// The newest cost model version this crate reads, and the one `calibrate.py` writes.
pub const COST_MODEL_VERSION: u64 = 1;

/// One interpreter's measured costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostModel {
    /// Always [`COST_MODEL_FORMAT`].
    pub format: String,
    /// The document version.
    pub version: u64,
    /// `sys.version_info[:3]` of the measured interpreter, `"3.12.1"`.
    pub python: String,
    /// `sys.implementation.name`.
    pub implementation: String,
    /// `"full"` or `"quick"` (fewer, shorter rounds: for tests, not for estimates).
    pub mode: String,
    /// Interleaved rounds per form.
    pub rounds: u32,
    /// Executions of the operation per timed loop.
    pub executions: u64,
    /// Whole calibrations taken, each form keeping the one with its median saving (models
    /// from before there were passes took one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
    /// What one simple instruction (a local load or store, a pop, a jump on a bool) takes;
    /// models from before it was measured have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simple: Option<SimpleCost>,
    /// The measured forms.
    pub forms: Vec<FormCost>,
    /// The families or operations not measured, each with why.
    #[serde(default)]
    pub unmeasured: Vec<Unmeasured>,
}

/// What one specialized form saves per execution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormCost {
    /// The family as people know it: `"BINARY_SUBSCR"` also on 3.14+, where it is a
    /// `BINARY_OP`.
    pub family: String,
    /// The operation timed, `"int + int"`.
    pub operation: String,
    /// The specialized opname dis showed at the site.
    pub specialized: String,
    /// The opname dis showed at the generic site before timing.
    pub generic: String,
    /// How the site was kept generic (`"int subclass operands"`, `"the site missing: 8
    /// classes in turn"`).
    pub generic_by: String,
    /// The opname at the generic site after timing (a missing site stays specialized).
    #[serde(default)]
    pub generic_after: Option<String>,
    /// The timed body's instructions besides the site (operand loads, a pop), whose time
    /// `specialized_ns` and `generic_ns` hold; absent in older models.
    #[serde(default)]
    pub others: Option<u32>,
    /// Median nanoseconds per execution of the specialized site, loop overhead taken off.
    pub specialized_ns: f64,
    /// The same for the generic site.
    pub generic_ns: f64,
    /// Median of the rounds' generic − specialized differences: what one execution saves.
    pub saved_ns: f64,
    /// 10th percentile of those differences.
    pub saved_low_ns: f64,
    /// 90th percentile.
    pub saved_high_ns: f64,
}

/// The time of one simple instruction, from a loop body of them against the empty loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimpleCost {
    /// The instructions the body adds to the loop.
    pub instructions: u32,
    /// Median nanoseconds per instruction over the rounds.
    pub ns: f64,
    /// 10th percentile.
    pub low_ns: f64,
    /// 90th percentile.
    pub high_ns: f64,
}

/// A family or operation the calibration did not time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmeasured {
    /// The family.
    pub family: String,
    /// Why not.
    pub why: String,
}
