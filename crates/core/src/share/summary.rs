//! How [`SharedSummary`] travels in a link's note: as one flat list of strings, the texts
//! then the integers in decimal (the similarity as its f64 bits; the import-time regressions
//! last, absent from notes written before them, which read as 0), not as nested JSON
//! objects. Reading nested objects would need a serde visitor per struct in the viewer's wasm
//! (several KB against its size budget); a list of strings reuses the reader the viewer has. Shares are recomputed from their counts, so they are the sender's to the bit.

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde::{Serialize, Serializer};

use super::SharedSummary;
use crate::report::summary::{FamilyCount, KindCounts, Share};
use crate::report::types::{RunRef, RunSummary};

/// Integers of one run: version (2), samples, code objects.
const RUN_INTS: usize = 4;
/// Integers before the families: two runs, five counts, ten kinds, two shares, similarity.
const FIXED_INTS: usize = 2 * RUN_INTS + 5 + 10 + 4 + 1;

fn share(sites: u32, specialized: u32) -> Share {
    let mut s = Share::default();
    s.merge(&Share { sites, specialized, share: 0.0 });
    s
}

impl SharedSummary {
    /// The two lists (see the module docs).
    fn to_wire(&self) -> (Vec<String>, Vec<u64>) {
        let s = &self.summary;
        let mut strings = Vec::new();
        let mut ints = Vec::new();
        for r in [&self.base, &self.head] {
            strings.extend([r.label.clone(), r.python.clone(), r.sampler.clone()]);
            ints.extend([r.version.0 as u64, r.version.1 as u64, r.samples, r.code_objects as u64]);
        }
        ints.extend([s.matched, s.changed, s.added, s.removed, s.regressions].map(u64::from));
        let k = &s.counts;
        ints.extend(
            [k.lost, k.missing, k.backed_off, k.churning, k.changed, k.gained, k.added, k.removed, k.minor, k.unchanged]
                .map(u64::from),
        );
        ints.extend([s.base.sites, s.base.specialized, s.head.sites, s.head.specialized].map(u64::from));
        ints.push(s.similarity.to_bits());
        for f in &s.families {
            strings.push(f.family.clone());
            ints.extend([f.base.sites, f.base.specialized, f.head.sites, f.head.specialized].map(u64::from));
        }
        // Last, so that notes written before it (which end with the families) still read.
        ints.push(u64::from(s.import_time_regressions));
        (strings, ints)
    }

    /// The summary of two lists, `None` when they do not fit together (a forged note). Read
    /// in order from iterators, not by index: no bounds check (and its panic path) per field.
    fn from_wire(strings: Vec<String>, ints: Vec<u64>) -> Option<SharedSummary> {
        let families = strings.len().checked_sub(6)?;
        // Every integer but the similarity's bits is a count that fits a u32 (samples too, in
        // practice); the similarity is a finite number (a NaN would not equal itself).
        let similarity = f64::from_bits(*ints.get(FIXED_INTS - 1)?);
        let counts_fit = ints.iter().enumerate().all(|(i, &n)| i == FIXED_INTS - 1 || n <= u32::MAX as u64);
        let with_import_time = ints.len() == FIXED_INTS + 4 * families + 1;
        if !(with_import_time || ints.len() == FIXED_INTS + 4 * families) || !counts_fit || !similarity.is_finite() {
            return None;
        }
        let mut strings = strings.into_iter();
        let mut ints = ints.into_iter();
        let mut text = || strings.next().unwrap_or_default();
        let mut int = || ints.next().unwrap_or_default();
        let mut run = |int: &mut dyn FnMut() -> u64| RunRef {
            label: text(),
            python: text(),
            sampler: text(),
            version: (int() as u32, int() as u32),
            samples: int(),
            code_objects: int() as u32,
        };
        let (base, head) = (run(&mut int), run(&mut int));
        let (matched, changed, added, removed, regressions) = (int() as u32, int() as u32, int() as u32, int() as u32, int() as u32);
        let counts = KindCounts {
            lost: int() as u32,
            missing: int() as u32,
            backed_off: int() as u32,
            churning: int() as u32,
            changed: int() as u32,
            gained: int() as u32,
            added: int() as u32,
            removed: int() as u32,
            minor: int() as u32,
            unchanged: int() as u32,
        };
        let (b, h) = (share(int() as u32, int() as u32), share(int() as u32, int() as u32));
        int();
        let families = (0..families).map(|_| FamilyCount { family: text(), base: share(int() as u32, int() as u32), head: share(int() as u32, int() as u32) }).collect();
        // A note from before the import-time count (links already sent must still open) has
        // none: 0.
        let import_time_regressions = if with_import_time { int() as u32 } else { 0 };
        let summary = RunSummary { matched, changed, added, removed, regressions, import_time_regressions, counts, base: b, head: h, families, similarity };
        Some(SharedSummary { base, head, summary })
    }
}

impl Serialize for SharedSummary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (mut strings, ints) = self.to_wire();
        strings.extend(ints.iter().map(u64::to_string));
        strings.serialize(s)
    }
}

impl<'de> Deserialize<'de> for SharedSummary {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut strings = Vec::<String>::deserialize(d)?;
        // 6 + F strings, then FIXED_INTS + 4 F integers.
        let families = strings.len().saturating_sub(6 + FIXED_INTS) / 5;
        let ints = strings.split_off((6 + families).min(strings.len()));
        let ints: Option<Vec<u64>> = ints.iter().map(|n| n.parse().ok()).collect();
        ints.and_then(|ints| SharedSummary::from_wire(strings, ints))
            .ok_or_else(|| D::Error::custom("the run summary does not fit together"))
    }
}
