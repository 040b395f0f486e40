use super::*;
use crate::format::builder::DumpBuilder;
use crate::cpython::counters::VersionRules;
use crate::cpython::normalize::{Normalizer, Side, Site};
use crate::model::dump::Dump;

/// Classifies the single site of `f` in two one-instruction dumps of CPython `bv` and `hv`.
/// With `quickened`, each code object also holds a specialized instruction (3.11: the
/// code was quickened).
fn kind_across(bv: &str, hv: &str, base: (&str, u16), head: (&str, u16), quickened: bool) -> Option<ChangeKind> {
    kind_sampled(bv, hv, (base, 10), (head, 10), quickened)
}

/// [`kind_across`] with the number of samples on the site's line in each run (of 100).
fn kind_sampled(
    bv: &str,
    hv: &str,
    base: ((&str, u16), u64),
    head: ((&str, u16), u64),
    quickened: bool,
) -> Option<ChangeKind> {
    kind_runs(bv, hv, base, head, quickened, 100)
}

/// [`kind_sampled`] of two runs of `total` samples each (0: neither run was sampled).
fn kind_runs(
    bv: &str,
    hv: &str,
    base: ((&str, u16), u64),
    head: ((&str, u16), u64),
    quickened: bool,
    total: u64,
) -> Option<ChangeKind> {
    let mk = |v: &str, ((op, word), hits): ((&str, u16), u64)| {
        let mut b = DumpBuilder::new(v);
        b.samples(total);
        let mut c = b.code("m", "f", 1).ins(op, "x", 1).word(word).samples(hits, &[(1, hits)]);
        if quickened {
            c = c.ins("LOAD_FAST", "y", 1);
            c = if v.starts_with("3.11") { c.ins("LOAD_ATTR_SLOT", "z", 1).word(53) } else { c.ins("LOAD_ATTR_SLOT", "z", 1).word(832) };
        }
        c.finish();
        b.build()
    };
    classify_first_sites(&mk(bv, base), &mk(hv, head))
}

/// The kind of the first site of each dump's first code object, aligned as the same site.
fn classify_first_sites(bd: &Dump, hd: &Dump) -> Option<ChangeKind> {
    classify_first_as(bd, hd, RowKind::Same)
}

/// [`classify_first_sites`] aligned as a row of `row` kind.
fn classify_first_as(bd: &Dump, hd: &Dump, row: RowKind) -> Option<ChangeKind> {
    let mut n = Normalizer::new(bd, hd);
    let (bs, hs) = (n.sites(Side::Base, 0)[0], n.sites(Side::Head, 0)[0]);
    fn view(d: &Dump, site: Site) -> SiteView<'_> {
        SiteView { dump: d, code: &d.code[0], site, rules: VersionRules::of(d) }
    }
    classify(Some(&view(bd, bs)), Some(&view(hd, hs)), row, &ClassifyOptions::default())
}

/// Rule 2b: a `modified` row whose sites name different attributes pairs two operations
/// (tomlkit's `self._map.get(key)` → `self.item(key)`): `changed`, never `lost`. A call whose
/// argument count changed names nothing, and stays comparable.
#[test]
fn sites_naming_different_things_are_not_compared() {
    let one = |op: &str, name: &str, word: u16| {
        let mut b = DumpBuilder::new("3.12.1");
        b.samples(100);
        b.code("m", "f", 1).ins(op, name, 1).word(word).samples(10, &[(1, 10)]).finish();
        b.build()
    };
    let (hint, generic) = (one("LOAD_ATTR_WITH_HINT", "_map", 832), one("LOAD_ATTR", "item", 34));
    assert_eq!(classify_first_as(&hint, &generic, RowKind::Modified), Some(ChangeKind::Changed));
    let (slot, slot_y) = (one("LOAD_ATTR_SLOT", "x", 832), one("LOAD_ATTR_SLOT", "y", spec312(30)));
    assert_eq!(classify_first_as(&slot, &slot_y, RowKind::Modified), Some(ChangeKind::Unchanged));
    let (call, call_generic) = (one("CALL_PY_EXACT_ARGS", "", 832), one("CALL", "", 34));
    assert_eq!(classify_first_as(&call, &call_generic, RowKind::Modified), Some(ChangeKind::Lost));
}

/// [`kind_across`] on two 3.12 dumps.
fn kind(base: (&str, u16), head: (&str, u16), _row: RowKind) -> Option<ChangeKind> {
    kind_across("3.12.1", "3.12.1", base, head, false)
}

/// The 3.12 word of a specialized instruction with `misses` misses since specialization.
fn spec312(misses: u16) -> u16 {
    (52 - misses) << 4
}

#[test]
fn kinds_from_opnames_and_counters() {
    assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 34), RowKind::Same), Some(ChangeKind::Lost));
    assert_eq!(kind(("LOAD_ATTR", 34), ("LOAD_ATTR_SLOT", 832), RowKind::Same), Some(ChangeKind::Gained));
    assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR_PROPERTY", 832), RowKind::Same), Some(ChangeKind::Changed));
    assert_eq!(kind(("LOAD_ATTR_SLOT", 816), ("LOAD_ATTR_SLOT", 816), RowKind::Same), Some(ChangeKind::Unchanged));
    assert_eq!(kind(("LOAD_ATTR", 17), ("LOAD_ATTR", 1), RowKind::Same), Some(ChangeKind::Unchanged));
    assert_eq!(kind(("LOAD_FAST", 0), ("LOAD_FAST", 0), RowKind::Same), None);
}

/// Rule 4: one more miss on a still-specialized site is `minor`; `min_misses` (8) more is
/// `missing`, the same on 3.11 (word 53 − misses) and 3.12+ (value 52 − misses). These runs
/// were not sampled, so the counters are all the evidence there is (see the next test).
#[test]
fn misses_regress_only_past_the_threshold() {
    let kind = |b: (&str, u16), h: (&str, u16), _row: RowKind| kind_runs("3.12.1", "3.12.1", (b, 0), (h, 0), false, 0);
    let kind_across = |bv: &str, hv: &str, b: (&str, u16), h: (&str, u16), q: bool| kind_runs(bv, hv, (b, 0), (h, 0), q, 0);
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(1)), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(7)), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(8)), RowKind::Same), Some(ChangeKind::Missing));
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(20)), ("LOAD_ATTR_SLOT", spec312(27)), RowKind::Same), Some(ChangeKind::Minor));
    // A base already missing (12) cycles like head (39): two points of one cycle, `minor`.
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(12)), ("LOAD_ATTR_SLOT", spec312(39)), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(7)), ("LOAD_ATTR_SLOT", spec312(15)), RowKind::Same), Some(ChangeKind::Missing));
    assert_eq!(kind(("LOAD_ATTR_SLOT", spec312(5)), ("LOAD_ATTR_SLOT", spec312(0)), RowKind::Same), Some(ChangeKind::Unchanged));
    let v11 = |b: u16, h: u16| kind_across("3.11.7", "3.11.7", ("LOAD_ATTR_SLOT", 53 - b), ("LOAD_ATTR_SLOT", 53 - h), false);
    assert_eq!(v11(0, 1), Some(ChangeKind::Minor));
    assert_eq!(v11(0, 30), Some(ChangeKind::Missing));
    // Across versions both count misses since specialization: comparable.
    let x = |h: u16| kind_across("3.11.7", "3.12.1", ("LOAD_ATTR_SLOT", 53), ("LOAD_ATTR_SLOT", spec312(h)), false);
    assert_eq!((x(2), x(30)), (Some(ChangeKind::Minor), Some(ChangeKind::Missing)));
    assert!(ChangeKind::Missing.is_regression() && !ChangeKind::Minor.is_regression());
}

/// Rule 4 in sampled runs: a snapshot of head's miss counter says how many misses there were
/// since its last specialization, not in all. A few dozen (packaging 24.2's new `Version`
/// subclass passing through `Version.__init__` 18 times) and a megamorphic site look alike;
/// only re-specializations seen beyond the sampler's luck prove that the misses go on, where
/// the sampler could have seen enough of them (a run of 100 samples could; of 3 not).
#[test]
fn a_miss_counter_snapshot_gates_only_with_the_samplers_proof() {
    let (fresh, missed) = (("LOAD_ATTR_SLOT", spec312(0)), ("LOAD_ATTR_SLOT", spec312(30)));
    assert_eq!(kind(fresh, missed, RowKind::Same), Some(ChangeKind::Minor));
    // Too few looks to prove anything: the counters are all there is.
    assert_eq!(kind_runs("3.12.1", "3.12.1", (fresh, 3), (missed, 3), false, 3), Some(ChangeKind::Missing));
    // A long run that never found the function: cold, not proven.
    assert_eq!(kind_runs("3.12.1", "3.12.1", (fresh, 0), (missed, 0), false, 1000), Some(ChangeKind::Minor));
    // sqlglot's dialect parsers: base 1 miss, head 45 and four re-specializations seen (one
    // run in 16 sees that by luck).
    assert_eq!(kind_churned((spec312(1), 0), (spec312(45), 4)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(1), 0), (spec312(45), 5)), Some(ChangeKind::Missing));
}

/// One side of [`kind_seen`]: the site's opname and counter word, and the sampler's churn
/// (flips, opnames seen).
type Seen<'a> = (&'a str, u16, u32, &'a [&'a str]);

/// Two 3.12 dumps of one site, each with its snapshot and what the sampler saw.
fn kind_seen(base: Seen, head: Seen) -> Option<ChangeKind> {
    let mk = |(op, word, flips, seen): Seen| {
        let mut b = DumpBuilder::new("3.12.1");
        b.samples(100);
        let mut c = b.code("m", "f", 1).ins(op, "x", 1).word(word).samples(10, &[(1, 10)]);
        if flips > 0 {
            c = c.churn(flips, seen);
        }
        c.finish();
        b.build()
    };
    classify_first_sites(&mk(base), &mk(head))
}

/// [`kind_seen`] of a `LOAD_ATTR_SLOT` site re-specialized in place `flips` times.
fn kind_churned((bw, bf): (u16, u32), (hw, hf): (u16, u32)) -> Option<ChangeKind> {
    const SLOT: &[&str] = &["LOAD_ATTR_SLOT"];
    kind_seen(("LOAD_ATTR_SLOT", bw, bf, SLOT), ("LOAD_ATTR_SLOT", hw, hf, SLOT))
}

/// A base the sampler saw re-specialize in place was cycling, whatever its snapshot shows:
/// head's higher count is another point of a cycle (`minor`, not `missing`). A head that
/// re-specializes where base held is `churning` when its snapshot hides the misses, and
/// stays `missing` when the counter proves them.
#[test]
fn re_specializations_in_place_tell_a_cycling_site_from_one_that_held() {
    assert_eq!(kind_churned((spec312(2), 0), (spec312(35), 0)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(2), 0), (spec312(35), 6)), Some(ChangeKind::Missing));
    assert_eq!(kind_churned((spec312(2), 3), (spec312(35), 3)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(2), 1), (spec312(35), 0)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(0), 0), (spec312(3), 5)), Some(ChangeKind::Churning));
    // Four flips seen where base showed none: one run in 16 does that by luck alone.
    assert_eq!(kind_churned((spec312(0), 0), (spec312(3), 4)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(0), 0), (spec312(30), 4)), Some(ChangeKind::Minor));
    assert_eq!(kind_churned((spec312(0), 2), (spec312(0), 2)), Some(ChangeKind::Unchanged));
    // Churning in both runs: more in head only at twice base's count (sampled counts vary).
    assert_eq!(kind_churned((spec312(0), 1086), (spec312(0), 1123)), Some(ChangeKind::Unchanged));
    assert_eq!(kind_churned((spec312(0), 1086), (spec312(0), 2172)), Some(ChangeKind::Churning));
}

/// Two snapshots of a site both runs saw flipping between the same forms are two phases
/// of one behaviour: neither `changed` nor `lost`. One side seen flipping is not enough.
#[test]
fn churn_counts_must_beat_the_samplers_luck() {
    // The sign test's edges: P(head ≥ fh of n flips | ½ each) under 5 %.
    assert!(!more_than_chance(0, 4) && more_than_chance(0, 5));
    assert!(!more_than_chance(1, 5) && !more_than_chance(1, 6) && more_than_chance(1, 7));
    assert!(!more_than_chance(1086, 1123) && more_than_chance(1086, 2172));
    assert!(!more_than_chance(u32::MAX, u32::MAX) && more_than_chance(0, u32::MAX), "no loop over a fuzzed count");
}

/// Flips are counted where the sampler looked: a head whose code it found on the stack twice
/// as often sees about twice the re-specializations of one unchanged behaviour (lark 1.2.2's
/// `Symbol.__eq__` on 3.15: 1 against 7, its function sampled 10 against 20 times).
#[test]
fn churn_counts_are_weighed_by_how_often_each_run_was_looked_at() {
    const SLOT: &[&str] = &["LOAD_ATTR_SLOT"];
    let mk = |flips: u32, samples: u64| {
        let mut b = DumpBuilder::new("3.15.0");
        b.samples(1000);
        b.code("m", "f", 1).ins("LOAD_ATTR_SLOT", "x", 1).word(spec312(0)).samples(samples, &[(1, samples)]).churn(flips, SLOT).finish();
        b.build()
    };
    assert_eq!(classify_first_sites(&mk(1, 10), &mk(7, 10)), Some(ChangeKind::Churning));
    assert_eq!(classify_first_sites(&mk(1, 10), &mk(7, 20)), Some(ChangeKind::Unchanged));
    // A monomorphic base against a head that keeps re-specializing still churns.
    assert_eq!(classify_first_sites(&mk(0, 10), &mk(9, 20)), Some(ChangeKind::Churning));
    // A head looked at less weighs by halves, as before: the looks are only estimated.
    assert_eq!(classify_first_sites(&mk(1, 20), &mk(5, 10)), Some(ChangeKind::Unchanged));
    assert!(!more_than_chance_at(1, 7, 2.0 / 3.0) && more_than_chance_at(1, 7, 0.5));
    assert!(!more_than_chance_at(0, 5, 1.0) && more_than_chance_at(0, 1, 0.0));
    assert!(!more_than_chance_at(0, 0, 0.5) && !more_than_chance_at(900, 100, 0.999), "q^n underflows: the normal approximation");
}

#[test]
fn snapshots_of_one_cycle_are_not_a_change() {
    const BOTH: &[&str] = &["LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT"];
    let (value, hint) = ("LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT");
    assert_eq!(kind_seen((hint, 832, 2656, BOTH), (value, 832, 2551, BOTH)), Some(ChangeKind::Unchanged));
    assert_eq!(kind_seen((hint, 832, 0, BOTH), (value, 832, 0, BOTH)), Some(ChangeKind::Changed));
    assert_eq!(kind_seen((hint, 832, 0, BOTH), (value, 832, 5, BOTH)), Some(ChangeKind::Churning));
    const ONE: &[&str] = &["LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR"];
    assert_eq!(kind_seen((hint, 832, 5, BOTH), (value, 832, 5, ONE)), Some(ChangeKind::Changed));
    // A lost site: base flips through the generic form head stopped in, and head was seen
    // specialized too: a phase. Head never seen specialized: lost.
    const GENERIC: &[&str] = &["LOAD_ATTR", "LOAD_ATTR_SLOT"];
    assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 9, GENERIC), ("LOAD_ATTR", 34, 9, GENERIC)), Some(ChangeKind::Unchanged));
    assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 9, GENERIC), ("LOAD_ATTR", 34, 0, GENERIC)), Some(ChangeKind::Lost));
    // Head seen flipping once after warm-up (generic, specialized, then generic where it
    // stayed): a loss that lasted, however often base cycled (pyparsing 3.2 on 3.12).
    assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 4, GENERIC), ("LOAD_ATTR", 34, 2, GENERIC)), Some(ChangeKind::Lost));
    assert_eq!(kind_seen(("LOAD_ATTR_SLOT", 832, 4, GENERIC), ("LOAD_ATTR", 34, 3, GENERIC)), Some(ChangeKind::Unchanged));
}

/// Rule 3: a specialization head did not run (cold, or 3.12+ warming after one
/// execution) is not lost; one that ran and failed is.
#[test]
fn lost_needs_head_to_have_run_the_site() {
    assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 17), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 1), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR_SLOT", 832), ("LOAD_ATTR", 34), RowKind::Same), Some(ChangeKind::Lost));
    let v11 = kind_across("3.11.7", "3.11.7", ("LOAD_ATTR_SLOT", 53), ("LOAD_ATTR_ADAPTIVE", 501), false);
    assert_eq!(v11, Some(ChangeKind::Lost));
}

/// Rule 8: backoff compared only with the same counter model, a base that ran the site,
/// and `min_failures` (2) more failed attempts.
#[test]
fn backed_off_needs_comparable_evidence() {
    // 3.12: (value, backoff) words: 34 = 1 failure, 7436 = 11, 202·16+8 = 7.
    let w = |f: u16| ((1u16 << (f + 1)) - 2) << 4 | (f + 1);
    assert_eq!(kind(("LOAD_ATTR", 1), ("LOAD_ATTR", w(7)), RowKind::Same), Some(ChangeKind::BackedOff));
    assert_eq!(kind(("LOAD_ATTR", w(1)), ("LOAD_ATTR", w(2)), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR", w(1)), ("LOAD_ATTR", w(3)), RowKind::Same), Some(ChangeKind::BackedOff));
    // A base that failed as often as the threshold could not specialize it either.
    assert_eq!(kind(("LOAD_ATTR", w(2)), ("LOAD_ATTR", w(7)), RowKind::Same), Some(ChangeKind::Minor));
    assert_eq!(kind(("LOAD_ATTR", w(9)), ("LOAD_ATTR", w(11)), RowKind::Same), Some(ChangeKind::Minor));
    // Base never ran the site: a workload change, not a backoff.
    assert_eq!(kind(("LOAD_ATTR", 17), ("LOAD_ATTR", w(7)), RowKind::Same), Some(ChangeKind::Minor));
    // 3.11 → 3.12: different counter models.
    let x = kind_across("3.11.7", "3.12.1", ("LOAD_ATTR_ADAPTIVE", 1), ("LOAD_ATTR", w(11)), false);
    assert_eq!(x, Some(ChangeKind::Minor));
    // 3.12 → 3.13: the same model.
    let y = kind_across("3.12.1", "3.13.0", ("LOAD_ATTR", 1), ("LOAD_ATTR", w(11)), false);
    assert_eq!(y, Some(ChangeKind::BackedOff));
    // The noise floor's asyncio shutdown (3.12, `_weakrefset` `item = itemref()`): base
    // warming, head 2 failures, the line never sampled in either run; or sampled in head
    // 4× as often as in base: head ran it more, which is no regression.
    let s = |hb: u64, hh: u64| kind_sampled("3.12.1", "3.12.1", (("CALL", 1), hb), (("CALL", w(2)), hh), false);
    assert_eq!(s(0, 0), Some(ChangeKind::Minor));
    assert_eq!(s(5, 20), Some(ChangeKind::Minor));
    assert_eq!(s(10, 20), Some(ChangeKind::BackedOff));
    assert_eq!(s(20, 20), Some(ChangeKind::BackedOff));
}

/// The 3.11 → 3.12 misreading of issue 14: a 3.11 `BINARY_OP %` in quickened code is plain
/// `BINARY_OP` at word 0 however often it ran (3.11 gave up on it), and 3.12 backs off on
/// it: generic on both sides, nothing changed. Without quickening evidence it is cold.
#[test]
fn py311_gave_up_binary_op_is_not_cold() {
    let w11 = kind_across("3.11.7", "3.12.1", ("BINARY_OP", 0), ("BINARY_OP", 2838 << 4 | 12), true);
    assert_eq!(w11, Some(ChangeKind::Unchanged));
    let w13 = kind_across("3.12.1", "3.11.7", ("BINARY_OP", 2838 << 4 | 12), ("BINARY_OP", 0), true);
    assert_eq!(w13, Some(ChangeKind::Unchanged));
    let cold = kind_across("3.11.7", "3.12.1", ("BINARY_OP", 0), ("BINARY_OP", 2838 << 4 | 12), false);
    assert_eq!(cold, Some(ChangeKind::Minor));
}

#[test]
fn effective_flips_exclude_warm_up() {
    let mut b = DumpBuilder::new("3.11.7");
    let ops: Vec<u32> = ["LOAD_GLOBAL", "LOAD_GLOBAL_ADAPTIVE", "LOAD_GLOBAL_BUILTIN", "LOAD_GLOBAL_MODULE"].iter().map(|o| b.op(o)).collect();
    let d = b.build();
    let warm = churn_info(&d, &crate::model::dump::Churn { flips: 2, seen: ops[..3].to_vec() });
    assert_eq!((warm.flips, warm.effective_flips), (2, 0));
    let churn = churn_info(&d, &crate::model::dump::Churn { flips: 7, seen: ops.clone() });
    assert_eq!(churn.effective_flips, 5);
    assert_eq!(churn.seen[3], "LOAD_GLOBAL_MODULE");
}
