//! Summaries: per-function and whole-run numbers derived from classified sites, and the
//! ranking of functions.
//!
//! - *specialized share* of a code object = specialized sites / specialization sites (sites
//!   with an adaptive counter), per side;
//! - *regressions* = `lost` + `missing` + `backed_off` sites (churning, changed and removed
//!   sites are reported but not counted);
//! - *hotness share* = the code object's total samples (`samples[1]`) / the run's samples,
//!   0 when the sampler was off;
//! - functions rank by `hotness share × regressions`, then regressions, then name.

use litemap::LiteMap;
use serde::{Deserialize, Serialize};

use crate::cpython::normalize::{Normalizer, Side};
use crate::engine::classify::{ChangeKind, SiteView};
use crate::model::dump::{CodeInfo, Dump};
use crate::util::map::Map;

/// Specialization sites and how many are specialized, on one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// Sites with an adaptive counter.
    pub sites: u32,
    /// Of those, specialized.
    pub specialized: u32,
    /// `specialized / sites` (0 when there are no sites).
    pub share: f64,
}

impl Share {
    /// Counts one site.
    pub fn add(&mut self, specialized: bool) {
        self.sites += 1;
        self.specialized += specialized as u32;
        self.share = self.specialized as f64 / self.sites as f64;
    }

    /// Adds another share's counts.
    pub fn merge(&mut self, other: &Share) {
        self.sites += other.sites;
        self.specialized += other.specialized;
        self.share = if self.sites == 0 { 0.0 } else { self.specialized as f64 / self.sites as f64 };
    }
}

/// How hot a function was, on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Hotness {
    /// Base samples with the code anywhere on the stack (`samples[1]`).
    pub base_samples: u64,
    /// Head samples with the code anywhere on the stack.
    pub head_samples: u64,
    /// `base_samples` / base run samples (0 when unsampled).
    pub base_share: f64,
    /// `head_samples` / head run samples (0 when unsampled).
    pub head_share: f64,
    /// `base_share` without the samples taken while a module was being imported: how hot
    /// the function is in what the program does once its imports are done.
    #[serde(default)]
    pub base_runtime_share: f64,
    /// `head_share` without the samples taken while a module was being imported.
    #[serde(default)]
    pub head_runtime_share: f64,
}

impl Hotness {
    /// Hotness of a pair of optional code objects.
    pub fn of(base: Option<(&Dump, &CodeInfo)>, head: Option<(&Dump, &CodeInfo)>) -> Self {
        let side = |s: Option<(&Dump, &CodeInfo)>| match s {
            Some((d, c)) => {
                let total = d.run.sampler.samples;
                let share = |n: u64| if total == 0 { 0.0 } else { n as f64 / total as f64 };
                (c.samples.1, share(c.samples.1), share(c.samples.1.saturating_sub(c.import_samples)))
            }
            None => (0, 0.0, 0.0),
        };
        let ((bs, bh, br), (hs, hh, hr)) = (side(base), side(head));
        Hotness { base_samples: bs, head_samples: hs, base_share: bh, head_share: hh, base_runtime_share: br, head_runtime_share: hr }
    }

    /// The share used for ranking: head's, or base's when head has no such code.
    pub fn rank_share(&self) -> f64 {
        if self.head_share > 0.0 {
            self.head_share
        } else {
            self.base_share
        }
    }
}

/// Number of sites of each kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCounts {
    /// `lost` sites.
    pub lost: u32,
    /// `missing` sites.
    pub missing: u32,
    /// `backed_off` sites.
    pub backed_off: u32,
    /// `churning` sites.
    pub churning: u32,
    /// `changed` sites.
    pub changed: u32,
    /// `gained` sites.
    pub gained: u32,
    /// `added` sites.
    pub added: u32,
    /// `removed` sites.
    pub removed: u32,
    /// `minor` sites (absent in reports written before the kind existed).
    #[serde(default)]
    pub minor: u32,
    /// `unchanged` sites.
    pub unchanged: u32,
}

impl KindCounts {
    /// Counts one site.
    pub fn add(&mut self, kind: ChangeKind) {
        *self.get_mut(kind) += 1;
    }

    /// The count of `kind`.
    pub fn get(&self, kind: ChangeKind) -> u32 {
        let mut c = *self;
        *c.get_mut(kind)
    }

    fn get_mut(&mut self, kind: ChangeKind) -> &mut u32 {
        match kind {
            ChangeKind::Lost => &mut self.lost,
            ChangeKind::Missing => &mut self.missing,
            ChangeKind::BackedOff => &mut self.backed_off,
            ChangeKind::Churning => &mut self.churning,
            ChangeKind::Changed => &mut self.changed,
            ChangeKind::Gained => &mut self.gained,
            ChangeKind::Minor => &mut self.minor,
            ChangeKind::Added => &mut self.added,
            ChangeKind::Removed => &mut self.removed,
            ChangeKind::Unchanged => &mut self.unchanged,
        }
    }

    /// `lost + missing + backed_off`.
    pub fn regressions(&self) -> u32 {
        self.lost + self.missing + self.backed_off
    }

    /// Every kind except `unchanged`.
    pub fn changed_sites(&self) -> u32 {
        ChangeKind::ALL.iter().filter(|k| **k != ChangeKind::Unchanged).map(|k| self.get(*k)).sum()
    }

    /// Adds another count.
    pub fn merge(&mut self, o: &KindCounts) {
        for k in ChangeKind::ALL {
            *self.get_mut(k) += o.get(k);
        }
    }
}

/// Before/after site counts of one instruction family.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilyCount {
    /// Family name (the dump's spelling; 3.11 `LOAD_METHOD` is counted as `LOAD_ATTR`).
    pub family: String,
    /// Base.
    pub base: Share,
    /// Head.
    pub head: Share,
}

/// Accumulates per-side shares, by family.
#[derive(Debug, Clone, Default)]
pub struct ShareTally {
    /// All families.
    pub total: Share,
    /// By family.
    pub families: Map<String, Share>,
}

impl ShareTally {
    /// Counts one site (ignored unless it is a specialization site).
    pub(crate) fn add(&mut self, v: &SiteView) {
        if !v.is_site() {
            return;
        }
        let s = v.specialized();
        self.total.add(s);
        self.family_mut(tally_family(v.family())).add(s);
    }

    /// Counts `share.sites` sites of `family` (the dump's spelling) at once.
    pub(crate) fn add_family(&mut self, family: &str, share: &Share) {
        self.total.merge(share);
        self.family_mut(tally_family(family)).merge(share);
    }

    /// The share of family `fam`, created empty when new (no allocation when it exists).
    fn family_mut(&mut self, fam: &str) -> &mut Share {
        if !self.families.contains_key(fam) {
            self.families.insert(fam.to_string(), Share::default());
        }
        self.families.get_mut(fam).expect("just inserted")
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &ShareTally) {
        self.total.merge(&o.total);
        for (f, s) in &o.families {
            self.family_mut(f).merge(s);
        }
    }
}

/// The specialized share of single code objects of two dumps, overall and per family, counted
/// as the report counts a run's: for a function the report does not list (no changed site,
/// so one side's share stands for both) and for the coverage of one run (the same dump twice).
pub struct Tallies<'a> {
    norm: Normalizer<'a>,
}

impl<'a> Tallies<'a> {
    /// Tallies of the code objects of `base` and `head`.
    pub fn new(base: &'a Dump, head: &'a Dump) -> Self {
        Tallies { norm: Normalizer::new(base, head) }
    }

    /// The tally of code object `code` of the `side` dump.
    pub fn of(&mut self, side: Side, code: u32) -> ShareTally {
        let (dump, rules) = (self.norm.dump(side), self.norm.rules(side));
        let mut t = ShareTally::default();
        for site in self.norm.sites(side, code) {
            t.add(&SiteView { dump, code: &dump.code[code as usize], site, rules });
        }
        t
    }
}

/// The family a site is counted under: the dump's spelling, 3.11 `LOAD_METHOD` as `LOAD_ATTR`.
fn tally_family(family: &str) -> &str {
    match family {
        "LOAD_METHOD" => "LOAD_ATTR",
        f => f,
    }
}

/// Joins a base and a head tally into per-family rows, sorted by family.
pub(crate) fn family_counts(base: &ShareTally, head: &ShareTally) -> Vec<FamilyCount> {
    let mut all: LiteMap<&str, FamilyCount> = LiteMap::new();
    for (f, s) in &base.families {
        all.entry(f).or_insert_with(|| FamilyCount { family: f.clone(), ..Default::default() }).base = *s;
    }
    for (f, s) in &head.families {
        all.entry(f).or_insert_with(|| FamilyCount { family: f.clone(), ..Default::default() }).head = *s;
    }
    all.into_iter().map(|(_, v)| v).collect()
}

/// The ranking score: hotness share × regressions.
pub(crate) fn score(hotness: &Hotness, regressions: u32) -> f64 {
    hotness.rank_share() * regressions as f64
}

/// Orders by score (descending), then regressions (descending), then `(module, qualname)`,
/// then first line.
pub(crate) fn rank_order(a: (f64, u32, &str, &str, u32), b: (f64, u32, &str, &str, u32)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then(b.1.cmp(&a.1))
        .then_with(|| a.2.cmp(b.2))
        .then_with(|| a.3.cmp(b.3))
        .then(a.4.cmp(&b.4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_counts() {
        let mut s = Share::default();
        s.add(true);
        s.add(false);
        assert_eq!((s.sites, s.specialized, s.share), (2, 1, 0.5));
        let mut k = KindCounts::default();
        for kind in [ChangeKind::Lost, ChangeKind::Missing, ChangeKind::Churning, ChangeKind::Unchanged] {
            k.add(kind);
        }
        assert_eq!(k.regressions(), 2);
        assert_eq!(k.changed_sites(), 3);
    }

    #[test]
    fn ranking_breaks_ties_by_regressions_then_name() {
        use std::cmp::Ordering::*;
        assert_eq!(rank_order((0.5, 1, "m", "a", 1), (0.1, 9, "m", "b", 1)), Less);
        assert_eq!(rank_order((0.0, 2, "m", "z", 1), (0.0, 1, "m", "a", 1)), Less);
        assert_eq!(rank_order((0.0, 1, "m", "a", 1), (0.0, 1, "m", "b", 1)), Less);
    }
}
