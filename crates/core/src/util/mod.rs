//! Crate-wide helpers that know nothing about CPython or specdiff's formats: the one stable
//! sort (`sort.rs`), glob matching for the diff's `--module`/`--function` filters (`glob.rs`) and
//! the sorted map of the public types (`map.rs`) and the one run-stable hash (`fnv.rs`).

pub mod fnv;
pub(crate) mod glob;
pub(crate) mod map;
pub(crate) mod sort;

pub use map::Map;
pub use sort::{sort_by, sort_indices};
