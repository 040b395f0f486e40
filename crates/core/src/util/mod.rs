//! Crate-wide helpers that know nothing about CPython or specdiff's formats: the one stable
//! sort ([`sort`]), glob matching for the diff's `--module`/`--function` filters ([`glob`]) and
//! the sorted map of the public types ([`map`]).

pub(crate) mod glob;
pub(crate) mod map;
pub(crate) mod sort;

pub use map::Map;
pub use sort::{sort_by, sort_indices};
