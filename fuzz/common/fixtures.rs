//! The 18 dump fixtures (`crates/core/tests/fixtures/dumps`, CPython 3.11–3.13) the targets
//! that diff start from, read once per process.

use std::sync::OnceLock;

use specdiff_core::model::Dump;
use specdiff_core::{read_dump, ReadLimits};

macro_rules! fixtures {
    ($($name:literal),* $(,)?) => {
        [$(include_bytes!(concat!("../../crates/core/tests/fixtures/dumps/", $name, ".json.gz")).as_slice()),*]
    };
}

const FIXTURES: [&[u8]; 18] = fixtures!(
    "demo-base-3.11", "demo-base-3.12", "demo-base-3.13", "demo-head-3.11", "demo-head-3.12", "demo-head-3.13",
    "poly-mono-3.11", "poly-mono-3.12", "poly-mono-3.13", "poly-poly-3.11", "poly-poly-3.12", "poly-poly-3.13",
    "rules-base-3.11", "rules-base-3.12", "rules-base-3.13", "rules-head-3.11", "rules-head-3.12", "rules-head-3.13",
);

/// The fixtures, read once.
pub fn dumps() -> &'static [Dump] {
    static DUMPS: OnceLock<Vec<Dump>> = OnceLock::new();
    DUMPS.get_or_init(|| {
        FIXTURES.iter().map(|b| read_dump("fixture", b, ReadLimits::default()).expect("fixtures read")).collect()
    })
}
