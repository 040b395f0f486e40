//! Evidence from the runs' pystats, when both dumps carry them (`specdiff dump` under a CPython
//! built with `--enable-pystats`). CPython counts, per family, why its attempts to specialize
//! failed (the `SPEC_FAIL_*` kinds of `Python/specialize.c`). The counts are the whole run's,
//! not one site's, and sites that failed alike in both runs cancel out of their growth: a kind
//! that grew from base to head is what newly failing sites met. For a lost or backed-off site
//! it confirms a rule's cause when it is a kind that cause makes CPython record, and when no
//! rule found a cause it says which failure grew most, as run-wide evidence (no cause named).

use litemap::LiteMap;

use crate::engine::classify::{Cause, Change, ChangeKind};
use crate::model::stats::Stats;
use crate::report::stats_diff::{failure_kind_deltas, summarize};
use crate::report::wording::grouped;

/// Per family head (`"LOAD_ATTR"`): the failure kinds whose count grew from base to head, as
/// `(label, base count, head count)`, most grown first.
pub(crate) type FailureGrowth = LiteMap<String, Vec<(String, u64, u64)>>;

/// The failure kinds that grew in each family between the runs' stats.
pub(crate) fn failure_growth(base: &Stats, head: &Stats) -> FailureGrowth {
    let (b, h) = (summarize(base), summarize(head));
    let mut growth = FailureGrowth::new();
    for family in &h.families {
        let mut grown: Vec<(String, u64, u64)> = failure_kind_deltas(b.family(&family.family), Some(family))
            .into_iter()
            .filter(|k| k.count.head > k.count.base)
            .map(|k| (k.name.label, k.count.base, k.count.head))
            .collect();
        crate::util::sort::sort_by(&mut grown, |x, y| (y.2 - y.1).cmp(&(x.2 - x.1)).then_with(|| x.0.cmp(&y.0)));
        if !grown.is_empty() {
            growth.insert(family.family.clone(), grown);
        }
    }
    growth
}

/// The failure kinds (`summarize_stats.py`'s labels) that `cause` makes CPython record when it
/// stops a site of its family from specializing.
fn kinds_of(cause: Cause) -> &'static [&'static str] {
    match cause {
        Cause::Descriptor => &[
            "property",
            "overriding descriptor",
            "non overriding descriptor",
            "not descriptor",
            "method",
            "property not py function",
            "class attr descriptor",
        ],
        Cause::ClassHook => &["overridden"],
        Cause::Slots => &["non object slot", "object slot", "audited slot"],
        Cause::InstanceLayout => &["not managed dict", "non string or split", "shadowed"],
        Cause::ClassMutated => &["out of versions", "mutable class"],
        Cause::GlobalsWritten => &["out of versions", "non string or split"],
        Cause::IntFloatMixing => &[
            "add different types",
            "subtract different types",
            "multiply different types",
            "true divide different types",
            "different types",
        ],
        Cause::CallForm => &["kwnames", "complex parameters"],
        Cause::Metaclass => &["metaclass"],
        Cause::ClassAttrType => &["mutable class"],
        _ => &[],
    }
}

/// The sentence the stats add to the explanation of `change`, whose rule found `cause`.
pub(crate) fn stats_evidence(growth: &FailureGrowth, change: &Change, cause: Option<Cause>) -> Option<String> {
    if !matches!(change.kind, ChangeKind::Lost | ChangeKind::BackedOff) {
        return None;
    }
    let family = change.family.as_str();
    let grown = growth.get(family)?;
    let said = |(label, base, head): &(String, u64, u64)| {
        format!("{family} specializations failed {} times for “{label}” in head ({} in base)", grouped(*head), grouped(*base))
    };
    match cause {
        Some(c) => grown.iter().find(|k| kinds_of(c).contains(&k.0.as_str())).map(|k| format!("pystats agree: {}", said(k))),
        None => grown.first().map(|k| format!("pystats, whole run: {}, more than for any other reason", said(k))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stats_confirm_a_matching_cause_and_otherwise_name_the_biggest_growth() {
        let mut growth = FailureGrowth::new();
        growth.insert("LOAD_ATTR".into(), vec![("not managed dict".into(), 5, 900), ("property".into(), 0, 40)]);
        let lost = Change::for_test(ChangeKind::Lost, "LOAD_ATTR", (Some("LOAD_ATTR_SLOT"), Some("LOAD_ATTR")), (Some(1), Some(1)));
        // A rule's cause is confirmed by the kind it makes CPython record, even when another grew more.
        assert_eq!(
            stats_evidence(&growth, &lost, Some(Cause::Descriptor)).unwrap(),
            "pystats agree: LOAD_ATTR specializations failed 40 times for “property” in head (0 in base)"
        );
        // A cause whose kinds did not grow: the stats say nothing (they would not agree).
        assert_eq!(stats_evidence(&growth, &lost, Some(Cause::ClassHook)), None);
        // No cause: the kind that grew most, said as the whole run's.
        assert_eq!(
            stats_evidence(&growth, &lost, None).unwrap(),
            "pystats, whole run: LOAD_ATTR specializations failed 900 times for “not managed dict” in head (5 in base), more than for any other reason"
        );
        // Only sites that stopped specializing; other families have nothing to say.
        let changed = Change { kind: ChangeKind::Changed, ..lost.clone() };
        assert_eq!(stats_evidence(&growth, &changed, None), None);
        let other = Change { family: "STORE_ATTR".into(), ..lost };
        assert_eq!(stats_evidence(&growth, &other, None), None);
    }

    #[test]
    fn every_kind_named_for_a_cause_is_a_label_cpython_uses() {
        use crate::cpython::failure_kinds::all_labels;
        let labels = all_labels();
        for cause in [
            Cause::Descriptor,
            Cause::ClassHook,
            Cause::Slots,
            Cause::InstanceLayout,
            Cause::ClassMutated,
            Cause::GlobalsWritten,
            Cause::IntFloatMixing,
            Cause::CallForm,
            Cause::Metaclass,
            Cause::ClassAttrType,
        ] {
            for kind in kinds_of(cause) {
                assert!(labels.iter().any(|l| l == kind), "{cause:?}: {kind} is no failure kind");
            }
        }
    }
}
