//! How [`SharedSummary`] travels in a link's note: as two flat lists, the strings and the
//! integers (the similarity as its f64 bits), not as nested JSON objects. Reading nested
//! objects would need a serde visitor per struct in the viewer's wasm (several KB against its
//! size budget); the lists reuse the readers of `Vec<String>` and `Vec<u64>` the dump reader
//! has already. Shares are recomputed from their counts, so they are the sender's to the bit.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::SharedSummary;
use crate::report::summary::{FamilyCount, KindCounts, Share};
use crate::report::types::{RunRef, RunSummary};

/// Integers of one run: version (2), samples, code objects.
const RUN_INTS: usize = 4;
/// Integers before the families: two runs, five counts, ten kinds, two shares, similarity.
const FIXED_INTS: usize = 2 * RUN_INTS + 5 + 10 + 4 + 1;

fn share(sites: u64, specialized: u64) -> Share {
    let mut s = Share::default();
    s.merge(&Share { sites: sites as u32, specialized: specialized as u32, share: 0.0 });
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
        (strings, ints)
    }

    /// The summary of two lists, `None` when they do not fit together (a forged note).
    fn from_wire(strings: Vec<String>, ints: Vec<u64>) -> Option<SharedSummary> {
        let families = strings.len().checked_sub(6)?;
        if ints.len() != FIXED_INTS + 4 * families || ints.iter().take(FIXED_INTS - 1).any(|&n| n > u32::MAX as u64) {
            return None;
        }
        let mut strings = strings.into_iter();
        let mut next_str = || strings.next().unwrap_or_default();
        let mut run = |i: &[u64]| RunRef {
            label: next_str(),
            python: next_str(),
            sampler: next_str(),
            version: (i[0] as u32, i[1] as u32),
            samples: i[2],
            code_objects: i[3] as u32,
        };
        let (base, head) = (run(&ints[..RUN_INTS]), run(&ints[RUN_INTS..2 * RUN_INTS]));
        let n = &ints[2 * RUN_INTS..];
        let u = |i: usize| n[i] as u32;
        let counts = KindCounts {
            lost: u(5),
            missing: u(6),
            backed_off: u(7),
            churning: u(8),
            changed: u(9),
            gained: u(10),
            added: u(11),
            removed: u(12),
            minor: u(13),
            unchanged: u(14),
        };
        let families = n[20..]
            .chunks_exact(4)
            .zip(strings)
            .map(|(c, family)| FamilyCount { family, base: share(c[0], c[1]), head: share(c[2], c[3]) })
            .collect();
        let summary = RunSummary {
            matched: u(0),
            changed: u(1),
            added: u(2),
            removed: u(3),
            regressions: u(4),
            counts,
            base: share(n[15], n[16]),
            head: share(n[17], n[18]),
            families,
            similarity: f64::from_bits(n[19]),
        };
        Some(SharedSummary { base, head, summary })
    }
}

impl Serialize for SharedSummary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_wire().serialize(s)
    }
}

impl<'de> Deserialize<'de> for SharedSummary {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (strings, ints) = <(Vec<String>, Vec<u64>)>::deserialize(d)?;
        SharedSummary::from_wire(strings, ints).ok_or_else(|| D::Error::custom("the run summary's lists do not fit"))
    }
}
