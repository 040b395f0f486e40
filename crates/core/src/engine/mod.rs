//! The diff engine's per-site work (`docs/engine.md`): pair the code objects of two runs
//! (`matching.rs`, then renamed functions by their bodies: `renames.rs`), align the normalized sites of each pair (`align.rs`) and classify every
//! aligned row (`classify/`); and name each code object for display (`names.rs`).
//! Assembling these into a report is [`crate::report`]'s job.

pub(crate) mod align;
pub(crate) mod classify;
pub(crate) mod matching;
pub(crate) mod names;
pub(crate) mod renames;

pub use align::{align_sites, AlignAlgorithm, AlignOptions, AlignedRow, RowKind};
pub use classify::{Cause, Change, ChangeKind, ChurnInfo};
pub use matching::identity;
pub use names::CodeNames;

/// Matches the code objects of two runs: by name (`matching.rs`), then renamed and moved
/// functions by their bodies (`renames.rs`).
pub(crate) fn match_code(norm: &mut crate::cpython::normalize::Normalizer) -> matching::Matching {
    let mut m = matching::match_by_name(norm);
    renames::pair_renamed(norm, &mut m);
    m
}
