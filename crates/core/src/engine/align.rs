//! Aligning the sites of one matched pair of code objects.
//!
//! Three passes, each order-preserving (see `docs/engine.md`, "Alignment"):
//! 1. a diff (`similar`, Myers by default) of the normalized keys: equal keys are `same` rows;
//! 2. inside each changed region, a second diff on the family part of the keys pairs sites
//!    whose operand changed (`p.x` → `p.y`): `modified` rows. It pairs calls of the same name
//!    first (`cpython/callee.rs`), then any sites of one family in what is left;
//! 3. inside what is left, sites whose family changed because the code changed: an attribute
//!    load on one side with a `getattr(...)` call on the other (`rewritten`), and a call with
//!    a `CALL_FUNCTION_EX` call (`*args`/`**kwargs`) on the other (`call_form`). 3.13's
//!    `CALL_KW` needs no pairing here: its key family is `CALL` (`spelling.rs`).
//!
//! Everything else is `base_only` or `head_only`. Every site of both sides appears in
//! exactly one row, in order.

use std::ops::Range;

use serde::{Deserialize, Serialize};
#[cfg(feature = "align-algorithms")]
use similar::{capture_diff_slices_deadline, Algorithm};
use similar::DiffOp;

use crate::cpython::normalize::{Site, SiteTag};

/// How two sites were put side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// Same key on both sides.
    Same,
    /// Same family, different operand.
    Modified,
    /// An attribute load on one side, a `getattr()` call on the other.
    Rewritten,
    /// A call on one side, a `CALL_FUNCTION_EX` call (`*args`, `**kwargs`) on the other.
    CallForm,
    /// Only in base.
    BaseOnly,
    /// Only in head.
    HeadOnly,
}

/// One aligned row: site indices into the two sides' site lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlignedRow {
    /// How the sites relate.
    pub kind: RowKind,
    /// Base site index.
    pub base: Option<u32>,
    /// Head site index.
    pub head: Option<u32>,
}

/// The diff algorithm for the first pass.
///
/// Without the cargo feature `align-algorithms` (on by default; the web viewer turns it off to
/// link only Myers) every choice runs Myers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlignAlgorithm {
    /// `similar`'s Myers with its built-in, deterministic work limit (the default).
    #[default]
    Myers,
    /// Patience diff (anchors on keys unique on both sides).
    Patience,
    /// Histogram diff.
    Histogram,
    /// Classic LCS table (quadratic memory: small code objects only).
    Lcs,
}

#[cfg(feature = "align-algorithms")]
impl AlignAlgorithm {
    fn similar(self) -> Algorithm {
        match self {
            AlignAlgorithm::Myers => Algorithm::Myers,
            AlignAlgorithm::Patience => Algorithm::Patience,
            AlignAlgorithm::Histogram => Algorithm::Histogram,
            AlignAlgorithm::Lcs => Algorithm::Lcs,
        }
    }
}

/// Alignment settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AlignOptions {
    /// The first-pass algorithm.
    pub algorithm: AlignAlgorithm,
    /// A wall-clock limit per code object pair, in milliseconds. `None` (the default) keeps
    /// results reproducible; Myers' work limit already bounds the worst case. Ignored on
    /// `wasm32`, where `std::time::Instant` is unavailable.
    pub deadline_ms: Option<u64>,
}

/// How many items of two sequences the first pass's diff lines up as equal.
pub(crate) fn equal_items(old: &[u64], new: &[u64]) -> usize {
    diff(&AlignOptions::default(), old, new)
        .iter()
        .map(|op| match op {
            DiffOp::Equal { len, .. } => *len,
            _ => 0,
        })
        .sum()
}

/// Aligns two site lists.
pub fn align_sites(base: &[Site], head: &[Site], options: &AlignOptions) -> Vec<AlignedRow> {
    // `super().attr` (`LOAD_SUPER_ATTR`) and a load of the same attribute are one key when
    // either side has the former: rewriting it as `s = super(); s.attr` adds a call before
    // the load, which would otherwise pair with the call after it.
    let has_super = base.iter().chain(head).any(|s| s.tag == SiteTag::SuperAttr);
    let attr_load = |s: &Site| matches!(s.tag, SiteTag::SuperAttr | SiteTag::AttrLoad);
    let key = |s: &Site| {
        if has_super && attr_load(s) {
            (u64::from(u32::MAX) << 32) | u64::from(s.operand_id())
        } else {
            comprehension_apart(s, s.key)
        }
    };
    let bk: Vec<u64> = base.iter().map(key).collect();
    let hk: Vec<u64> = head.iter().map(key).collect();
    let ops = diff(options, &bk, &hk);
    let mut out = Vec::with_capacity(base.len().max(head.len()));
    for_each_region(&ops, |equal, b, h| {
        if equal {
            for (i, j) in b.zip(h) {
                let kind = if base[i].tag == head[j].tag { RowKind::Same } else { RowKind::Rewritten };
                out.push(row(kind, Some(i), Some(j)));
            }
        } else {
            region(base, head, b, h, options, &mut out);
        }
    });
    out
}

fn diff(options: &AlignOptions, old: &[u64], new: &[u64]) -> Vec<DiffOp> {
    #[cfg(not(target_arch = "wasm32"))]
    let deadline = options
        .deadline_ms
        .map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
    #[cfg(target_arch = "wasm32")]
    let deadline = None;
    capture_diff_slices_deadline(options.algorithm.similar(), old, new, deadline)
}

/// Without `align-algorithms`: every choice runs Myers, and only Myers is linked (`similar`
/// picks its algorithm at run time, so naming one links them all).
#[cfg(not(feature = "align-algorithms"))]
struct Myers;

#[cfg(not(feature = "align-algorithms"))]
impl AlignAlgorithm {
    fn similar(self) -> Myers {
        Myers
    }
}

#[cfg(not(feature = "align-algorithms"))]
fn capture_diff_slices_deadline(_: Myers, old: &[u64], new: &[u64], deadline: Option<std::time::Instant>) -> Vec<DiffOp> {
    myers_only(old, new, deadline)
}

/// What `similar::capture_diff_slices_deadline(Algorithm::Myers, …)` does (a test checks it).
#[cfg(any(test, not(feature = "align-algorithms")))]
fn myers_only(old: &[u64], new: &[u64], deadline: Option<std::time::Instant>) -> Vec<DiffOp> {
    use similar::algorithms::{myers, Capture, Compact, Replace};
    let mut d = Compact::new(Replace::new(Capture::new()), old, new);
    match myers::diff_deadline(&mut d, old, 0..old.len(), new, 0..new.len(), deadline) {
        Ok(()) => d.into_inner().into_inner().into_ops(),
        Err(never) => match never {},
    }
}

fn row(kind: RowKind, base: Option<usize>, head: Option<usize>) -> AlignedRow {
    AlignedRow { kind, base: base.map(|i| i as u32), head: head.map(|i| i as u32) }
}

/// Calls `f(equal, base_range, head_range)` for maximal runs of equal and of changed items.
fn for_each_region(ops: &[DiffOp], mut f: impl FnMut(bool, Range<usize>, Range<usize>)) {
    let mut pending: Option<(Range<usize>, Range<usize>)> = None;
    for op in ops {
        let (o, n) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { .. } = op {
            if let Some((b, h)) = pending.take() {
                f(false, b, h);
            }
            f(true, o, n);
        } else {
            pending = Some(match pending.take() {
                Some((b, h)) => (b.start..o.end.max(b.end), h.start..n.end.max(h.end)),
                None => (o, n),
            });
        }
    }
    if let Some((b, h)) = pending {
        f(false, b, h);
    }
}

/// Second and third passes on a changed region. The second pass runs twice: first with a
/// call's key holding the name it calls (`callee.rs`), so that a call pairs with the call of
/// the same name before any other call (docutils: `sort(); reverse()` → `sort(reverse=True)`
/// paired the keyword call with `reverse()`); then on the family alone, in what is left.
fn region(base: &[Site], head: &[Site], b: Range<usize>, h: Range<usize>, options: &AlignOptions, out: &mut Vec<AlignedRow>) {
    if b.is_empty() || h.is_empty() {
        out.extend(b.map(|i| row(RowKind::BaseOnly, Some(i), None)));
        out.extend(h.map(|j| row(RowKind::HeadOnly, None, Some(j))));
        return;
    }
    let named = |s: &Site| comprehension_apart(s, ((s.family_id() as u64) << 32) | s.callee as u64);
    let has_names = |r: &Range<usize>, sites: &[Site]| sites[r.clone()].iter().any(|s| s.callee != 0);
    if !has_names(&b, base) || !has_names(&h, head) {
        return by_family(base, head, b, h, options, out);
    }
    modified_by(base, head, b, h, options, named, out, |rb, rh, out| by_family(base, head, rb, rh, options, out));
}

/// The second pass on the family alone, then the third.
fn by_family(base: &[Site], head: &[Site], b: Range<usize>, h: Range<usize>, options: &AlignOptions, out: &mut Vec<AlignedRow>) {
    let family = |s: &Site| comprehension_apart(s, s.family_id() as u64);
    modified_by(base, head, b, h, options, family, out, |rb, rh, out| rewrites(base, head, rb, rh, out));
}

/// Diffs a region's sites by `key`: equal runs are `modified` rows, the rest goes to `rest`.
#[allow(clippy::too_many_arguments)]
fn modified_by(
    base: &[Site],
    head: &[Site],
    b: Range<usize>,
    h: Range<usize>,
    options: &AlignOptions,
    key: impl Fn(&Site) -> u64,
    out: &mut Vec<AlignedRow>,
    mut rest: impl FnMut(Range<usize>, Range<usize>, &mut Vec<AlignedRow>),
) {
    let bk: Vec<u64> = base[b.clone()].iter().map(&key).collect();
    let hk: Vec<u64> = head[h.clone()].iter().map(&key).collect();
    let ops = diff(options, &bk, &hk);
    for_each_region(&ops, |equal, rb, rh| {
        let (rb, rh) = (rb.start + b.start..rb.end + b.start, rh.start + h.start..rh.end + h.start);
        if equal {
            out.extend(rb.zip(rh).map(|(i, j)| row(RowKind::Modified, Some(i), Some(j))));
        } else {
            rest(rb, rh, out);
        }
    });
}

/// `key`, or for the call that runs a comprehension's code object a key no other call has:
/// it pairs only with its like, never with the call that follows an inlined comprehension.
fn comprehension_apart(s: &Site, key: u64) -> u64 {
    if s.tag == SiteTag::ComprehensionCall {
        u64::MAX
    } else {
        key
    }
}

/// How two leftover sites of different families relate, if they do.
fn rewrite(x: &Site, y: &Site) -> Option<RowKind> {
    use SiteTag::{AttrLoad, AttrStore, Call, GetattrCall, SetattrCall, Subscr, SubscriptCall, SuperAttr};
    match (x.tag, y.tag) {
        (AttrLoad, GetattrCall)
        | (GetattrCall, AttrLoad)
        | (AttrStore, SetattrCall)
        | (SetattrCall, AttrStore)
        | (Subscr, SubscriptCall)
        | (SubscriptCall, Subscr) => Some(RowKind::Rewritten),
        // `super().m()` ↔ `s = super(); s.m()`: the same attribute, another family.
        (SuperAttr, AttrLoad) | (AttrLoad, SuperAttr) if x.operand_id() == y.operand_id() => Some(RowKind::Rewritten),
        (Call | GetattrCall | SetattrCall | SubscriptCall, Call | GetattrCall | SetattrCall | SubscriptCall)
            if x.family_id() != y.family_id() =>
        {
            Some(RowKind::CallForm)
        }
        _ => None,
    }
}

/// Third pass: pairs rewritten sites ([`rewrite`]), in order; the rest is one-sided.
fn rewrites(base: &[Site], head: &[Site], b: Range<usize>, h: Range<usize>, out: &mut Vec<AlignedRow>) {
    let (mut bi, mut hj) = (b.start, h.start);
    for i in b.clone() {
        if i < bi {
            continue;
        }
        let Some((j, kind)) = (hj..h.end).find_map(|j| Some((j, rewrite(&base[i], &head[j])?))) else { continue };
        out.extend((bi..i).map(|x| row(RowKind::BaseOnly, Some(x), None)));
        out.extend((hj..j).map(|y| row(RowKind::HeadOnly, None, Some(y))));
        out.push(row(kind, Some(i), Some(j)));
        bi = i + 1;
        hj = j + 1;
    }
    out.extend((bi..b.end).map(|x| row(RowKind::BaseOnly, Some(x), None)));
    out.extend((hj..h.end).map(|y| row(RowKind::HeadOnly, None, Some(y))));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(fam: u32, operand: u32, tag: SiteTag) -> Site {
        Site { start: 0, end: 1, primary: 0, spec: 0, key: ((fam as u64) << 32) | operand as u64, tag, callee: 0 }
    }

    fn p(fam: u32, operand: u32) -> Site {
        site(fam, operand, SiteTag::Plain)
    }

    #[test]
    fn same_modified_and_one_sided() {
        let base = [p(1, 1), p(2, 5), p(3, 0)];
        let head = [p(1, 1), p(2, 6), p(4, 0), p(3, 0)];
        let rows = align_sites(&base, &head, &AlignOptions::default());
        let kinds: Vec<RowKind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [RowKind::Same, RowKind::Modified, RowKind::HeadOnly, RowKind::Same]);
    }

    #[cfg(feature = "align-algorithms")]
    proptest::proptest! {
        /// The Myers-only path (the web viewer's build) gives exactly `similar`'s Myers ops.
        #[test]
        fn myers_only_is_similar_myers(
            old in proptest::collection::vec(0u64..6, 0..60),
            new in proptest::collection::vec(0u64..6, 0..60),
        ) {
            proptest::prop_assert_eq!(myers_only(&old, &new, None), capture_diff_slices_deadline(Algorithm::Myers, &old, &new, None));
        }
    }

    #[test]
    fn attribute_load_pairs_with_getattr_call() {
        let (lf, la, lg, call) = (1, 2, 3, 4);
        let base = [p(lf, 10), site(la, 20, SiteTag::AttrLoad), p(9, 0)];
        let head = [p(lg, 30), p(lf, 10), p(lf, 11), site(call, 2, SiteTag::GetattrCall), p(9, 0)];
        let rows = align_sites(&base, &head, &AlignOptions::default());
        assert!(rows.contains(&AlignedRow { kind: RowKind::Rewritten, base: Some(1), head: Some(3) }), "{rows:?}");
    }

    #[test]
    fn stores_subscripts_and_super_pair_with_their_rewrites() {
        let (lf, store, sub, la, call, sup, glob) = (1, 2, 3, 4, 5, 6, 7);
        // `p.x = v` → `setattr(p, name, v)`.
        let base = [p(lf, 10), site(store, 20, SiteTag::AttrStore), p(9, 0)];
        let head = [p(glob, 30), p(lf, 10), site(call, 3, SiteTag::SetattrCall), p(9, 0)];
        let rows = align_sites(&base, &head, &AlignOptions::default());
        assert!(rows.contains(&AlignedRow { kind: RowKind::Rewritten, base: Some(1), head: Some(2) }), "{rows:?}");
        // `d[k]` → `d.get(k)`: the subscript pairs with the call, the method load is new.
        let base = [p(lf, 10), site(sub, 0, SiteTag::Subscr), p(9, 0)];
        let head = [p(lf, 10), site(la, 21, SiteTag::AttrLoad), site(call, 1, SiteTag::SubscriptCall), p(9, 0)];
        let rows = align_sites(&base, &head, &AlignOptions::default());
        assert!(rows.contains(&AlignedRow { kind: RowKind::Rewritten, base: Some(1), head: Some(2) }), "{rows:?}");
        assert!(rows.contains(&AlignedRow { kind: RowKind::HeadOnly, base: None, head: Some(1) }), "{rows:?}");
        // `super().m()` → `s = super(); s.m()`: the call of `super()` is new, the call of `m`
        // stays paired with the call of `m`.
        let base = [p(glob, 40), site(sup, 22, SiteTag::SuperAttr), site(call, 0, SiteTag::Call), p(9, 0)];
        let head = [p(glob, 40), site(call, 0, SiteTag::Call), p(lf, 12), site(la, 22, SiteTag::AttrLoad), site(call, 0, SiteTag::Call), p(9, 0)];
        let rows = align_sites(&base, &head, &AlignOptions::default());
        assert!(rows.contains(&AlignedRow { kind: RowKind::Rewritten, base: Some(1), head: Some(3) }), "{rows:?}");
        assert!(rows.contains(&AlignedRow { kind: RowKind::Same, base: Some(2), head: Some(4) }), "{rows:?}");
    }
}
