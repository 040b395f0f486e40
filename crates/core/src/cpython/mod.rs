//! What specdiff knows about CPython's specializing interpreter, per version: the opcode
//! tables (`opcodes.rs`), the names of specialization failure kinds (`failure_kinds.rs`), how
//! an opname or operand is spelled across versions (`spelling.rs`), what an inline cache
//! counter means (`counters.rs`), what each version's specializer does with the code shapes
//! explanations name (`facts.rs`, measured data) and, built on those, the [`Normalizer`] that turns a code
//! object's instructions into version-independent sites (`normalize.rs`).
//!
//! Depends only on [`crate::model`] and [`crate::util`].

pub(crate) mod callee;
pub(crate) mod counters;
pub(crate) mod facts;
pub(crate) mod failure_kinds;
pub(crate) mod normalize;
pub(crate) mod opcodes;
pub(crate) mod spelling;

pub use counters::{Counter, CounterModel, CounterState, VersionRules};
pub use facts::{observed, specializes, Shape, VERSIONS as MEASURED_VERSIONS};
pub use failure_kinds::{failure_kind_name, FailureKindName};
pub use normalize::{Side, Site, SiteTag};
pub use opcodes::{has_opname, known_versions, numbered_versions, op_family, table_generated_with, OpKind};
