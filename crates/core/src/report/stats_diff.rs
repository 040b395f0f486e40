//! Summaries of one run's specialization statistics and the diff of two runs.
//!
//! The numbers are those of CPython's own `Tools/scripts/summarize_stats.py` of the version
//! that wrote the stats: per family (a base instruction with its specialized forms) the
//! counters CPython records on the family head — hits, misses, deopts, deferrals,
//! specialization successes and failures, and the failure kinds by name — plus execution
//! counts per opname with each specialized form's own misses. The tests check them against
//! that script's output for real 3.11.2 and 3.13.5 files (`tests/pystats.rs`).
//!
//! Failure kinds are named by [`crate::cpython::failure_kinds`].

use litemap::LiteMap;

use serde::Serialize;

use crate::cpython::failure_kinds::{failure_kind_name, FailureKindName};
use crate::cpython::opcodes::{op_family, OpKind};
use crate::model::stats::Stats;

// ---------------------------------------------------------------------------------------------
// Summary of one run

/// One failure kind's count within a family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureKindCount {
    /// The number CPython recorded.
    pub kind: u32,
    /// Its name for this family and version.
    pub name: FailureKindName,
    /// Failures of this kind.
    pub count: u64,
}

/// One opname of a family and how it ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemberCount {
    /// The opname, e.g. `"LOAD_ATTR_SLOT"`.
    pub opname: String,
    /// Its kind.
    pub kind: OpKind,
    /// Times it executed.
    pub execution_count: u64,
    /// Its own misses (for a specialized form: executions whose guard failed).
    pub miss: u64,
}

/// One family's specialization counters, as CPython records them on the family head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FamilySummary {
    /// The family head, e.g. `"LOAD_ATTR"`.
    pub family: String,
    /// CPython marked the head `specializable`.
    pub specializable: bool,
    /// Executions of the head itself (3.11: before quickening, summarize_stats calls it
    /// "unquickened"; 3.12+: every execution of the head, its deferred ones included).
    pub unquickened: u64,
    /// The head's executions include its deferred ones (3.12+, where the head is its own
    /// adaptive form; 3.11 has separate `*_ADAPTIVE` forms), so [`FamilySummary::total`] does
    /// not add them again.
    pub deferred_in_unquickened: bool,
    /// Executions of the adaptive form while backing off.
    pub deferred: u64,
    /// Executions of specialized forms whose guards held.
    pub hit: u64,
    /// Executions of specialized forms whose guards failed.
    pub miss: u64,
    /// Misses that turned a site back into the adaptive form.
    pub deopt: u64,
    /// Specialization attempts that succeeded.
    pub success: u64,
    /// Specialization attempts that failed.
    pub failure: u64,
    /// Failures by kind, most frequent first (ties as summarize_stats sorts them: higher kind
    /// number first up to 3.12, lower first from 3.13).
    pub failure_kinds: Vec<FailureKindCount>,
    /// The other opnames of the family that executed, most executed first.
    pub members: Vec<MemberCount>,
}

impl FamilySummary {
    /// The family's executions, the denominator of summarize_stats.py's ratios:
    /// `deferred + hit + miss + unquickened` for 3.11, `hit + miss + unquickened` from 3.12
    /// (see [`FamilySummary::deferred_in_unquickened`]; 3.13's script sums exactly these).
    pub fn total(&self) -> u64 {
        let deferred = if self.deferred_in_unquickened { 0 } else { self.deferred };
        [deferred, self.hit, self.miss, self.unquickened].iter().fold(0u64, |t, v| t.saturating_add(*v))
    }

    /// `success + failure`.
    pub fn attempts(&self) -> u64 {
        self.success.saturating_add(self.failure)
    }
}

/// Executions of one opname.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExecutionCount {
    /// The opname.
    pub opname: String,
    /// Its family head.
    pub family: String,
    /// Its kind.
    pub kind: OpKind,
    /// Times it executed.
    pub count: u64,
    /// Its own misses; 0 for family heads, whose `miss` counter sums their members' misses.
    pub miss: u64,
}

/// One run's statistics, summarized.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatsSummary {
    /// [`Stats::python`].
    pub python: Option<String>,
    /// Sum of all execution counts.
    pub total_executions: u64,
    /// Families with any specialization activity, busiest first (by [`FamilySummary::total`]).
    pub families: Vec<FamilySummary>,
    /// Every opname that executed, most executed first (ties: by name, descending, as 3.11's
    /// summarize_stats sorts them; 3.13's keeps ties in opcode-number order, which named
    /// files do not give, so there only the order of equal counts can differ).
    pub executions: Vec<ExecutionCount>,
}

impl StatsSummary {
    /// The family `name`, if it is listed.
    pub fn family(&self, name: &str) -> Option<&FamilySummary> {
        self.families.iter().find(|f| f.family == name)
    }

    /// The execution count of `opname` (0 when it did not run).
    pub fn executions_of(&self, opname: &str) -> u64 {
        self.executions.iter().find(|e| e.opname == opname).map_or(0, |e| e.count)
    }
}

/// `num / den` as summarize_stats.py prints a ratio: `"12.3%"` (one decimal); `""` when `den`
/// is 0 (where the script would divide by zero).
pub fn percent(num: u64, den: u64) -> String {
    if den == 0 {
        return String::new();
    }
    // Same arithmetic as Python's `f"{100*num/den:0.1f}%"`: an exact integer product, one
    // correctly rounded division, then correctly rounded formatting.
    format!("{:.1}%", (100u128 * num as u128) as f64 / den as f64)
}

/// Summarizes one run.
pub fn summarize(stats: &Stats) -> StatsSummary {
    let minor = stats.minor_version();
    // No version: named opcodes, so 3.13+.
    let deferred_in_unquickened = minor.is_none_or(|m| m >= (3, 12));
    let newer_script = minor.is_none_or(|m| m >= (3, 13));
    let mut executions = Vec::new();
    let mut members: LiteMap<String, Vec<MemberCount>> = LiteMap::new();
    for (name, s) in &stats.opcodes {
        let (family, kind) = op_family(minor, name);
        if s.execution_count > 0 {
            // A head's `miss` counts its members' misses (CPython counts each miss twice); the
            // miss ratio of an opname is about its own guards, so heads show none.
            let miss = if s.specializable || family == *name { 0 } else { s.specialization.miss };
            executions.push(ExecutionCount {
                opname: name.clone(),
                family: family.clone(),
                kind,
                count: s.execution_count,
                miss,
            });
        }
        if family != *name && (s.execution_count > 0 || s.specialization.miss > 0) {
            members.entry(family).or_default().push(MemberCount {
                opname: name.clone(),
                kind,
                execution_count: s.execution_count,
                miss: s.specialization.miss,
            });
        }
    }
    crate::util::sort::sort_by(&mut executions, |a, b| b.count.cmp(&a.count).then_with(|| b.opname.cmp(&a.opname)));

    let mut families = Vec::new();
    // Family heads: opnames that are their own family and have specialization counters or
    // members that ran. (A specialized form's own `miss` is shown under its head.)
    let mut heads: Vec<String> = stats
        .opcodes
        .iter()
        .filter(|(name, s)| {
            (s.specializable || !s.specialization.is_empty() || !s.failure_kinds.is_empty())
                && op_family(minor, name).0 == **name
        })
        .map(|(name, _)| name)
        .chain(members.keys())
        .cloned()
        .collect();
    crate::util::sort::sort_by(&mut heads, String::cmp);
    heads.dedup();
    for head in heads {
        let empty = Default::default();
        let s = stats.opcodes.get(&head).unwrap_or(&empty);
        let mut failure_kinds: Vec<FailureKindCount> = s
            .failure_kinds
            .iter()
            .filter(|(_, &count)| count > 0)
            .map(|(&kind, &count)| FailureKindCount { kind, name: failure_kind_name(minor, &head, kind), count })
            .collect();
        if newer_script {
            crate::util::sort::sort_by(&mut failure_kinds, |a, b| b.count.cmp(&a.count).then(a.kind.cmp(&b.kind)));
        } else {
            crate::util::sort::sort_by(&mut failure_kinds, |a, b| b.count.cmp(&a.count).then(b.kind.cmp(&a.kind)));
        }
        let mut m = members.remove(head.as_str()).unwrap_or_default();
        crate::util::sort::sort_by(&mut m, |a, b| b.execution_count.cmp(&a.execution_count).then_with(|| a.opname.cmp(&b.opname)));
        let sp = &s.specialization;
        families.push(FamilySummary {
            family: head,
            specializable: s.specializable,
            unquickened: s.execution_count,
            deferred_in_unquickened,
            deferred: sp.deferred,
            hit: sp.hit,
            miss: sp.miss,
            deopt: sp.deopt,
            success: sp.success,
            failure: sp.failure,
            failure_kinds,
            members: m,
        });
    }
    crate::util::sort::sort_by(&mut families, |a, b| b.total().cmp(&a.total()).then_with(|| a.family.cmp(&b.family)));
    StatsSummary { python: stats.python.clone(), total_executions: stats.total_executions(), families, executions }
}

// ---------------------------------------------------------------------------------------------
// Diff of two runs

/// A counter in the base run and in the head run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Delta {
    /// Value in the base run.
    pub base: u64,
    /// Value in the head run.
    pub head: u64,
}

impl Delta {
    /// `head - base`.
    pub fn change(&self) -> i128 {
        self.head as i128 - self.base as i128
    }

    /// The change relative to the base, in percent (`None` when the base is 0).
    pub fn relative(&self) -> Option<f64> {
        (self.base != 0).then(|| self.change() as f64 * 100.0 / self.base as f64)
    }
}

/// A failure kind in both runs. Kinds are matched by name, not number: numbers mean different
/// things in different CPython versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureKindDiff {
    /// The name (from the base run when it has the kind, else from the head run).
    pub name: FailureKindName,
    /// Failures of this kind.
    pub count: Delta,
}

/// One opname of a family in both runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemberDiff {
    /// The opname.
    pub opname: String,
    /// Its kind.
    pub kind: OpKind,
    /// Times it executed.
    pub execution_count: Delta,
    /// Its own misses.
    pub miss: Delta,
}

/// One family in both runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FamilyDiff {
    /// The family head.
    pub family: String,
    /// Executions of the head itself.
    pub unquickened: Delta,
    /// Deferred executions.
    pub deferred: Delta,
    /// Hits.
    pub hit: Delta,
    /// Misses.
    pub miss: Delta,
    /// Deopts.
    pub deopt: Delta,
    /// Successful specializations.
    pub success: Delta,
    /// Failed specializations.
    pub failure: Delta,
    /// Failures by kind, biggest absolute change first.
    pub failure_kinds: Vec<FailureKindDiff>,
    /// Opnames of the family, biggest absolute change in executions first.
    pub members: Vec<MemberDiff>,
}

/// One opname's executions in both runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExecutionDiff {
    /// The opname.
    pub opname: String,
    /// Its family head.
    pub family: String,
    /// Executions.
    pub count: Delta,
    /// Own misses.
    pub miss: Delta,
}

/// What changed between two runs' statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatsDiff {
    /// Base run's [`Stats::python`].
    pub base_python: Option<String>,
    /// Head run's [`Stats::python`].
    pub head_python: Option<String>,
    /// Total executions.
    pub total_executions: Delta,
    /// Every family of either run, biggest change first (sum of absolute changes of hits,
    /// misses, deferrals and unquickened executions).
    pub families: Vec<FamilyDiff>,
    /// Every opname that ran in either run, biggest absolute change first.
    pub executions: Vec<ExecutionDiff>,
}

impl StatsDiff {
    /// The family `name`, if either run has it.
    pub fn family(&self, name: &str) -> Option<&FamilyDiff> {
        self.families.iter().find(|f| f.family == name)
    }

    /// The executions of `opname` in both runs (zeros when neither ran it).
    pub fn executions_of(&self, opname: &str) -> Delta {
        self.executions.iter().find(|e| e.opname == opname).map_or_else(Delta::default, |e| e.count)
    }

    /// The families whose specialization counters (hits, misses, deferrals, deopts, failures)
    /// differ between the runs, in the diff's order (biggest change first).
    pub fn changed_families(&self) -> impl Iterator<Item = &FamilyDiff> {
        self.families.iter().filter(|f| [f.hit, f.miss, f.deferred, f.failure, f.deopt].iter().any(|d| d.base != d.head))
    }
}

fn magnitude(deltas: &[Delta]) -> u128 {
    deltas.iter().map(|d| d.change().unsigned_abs()).sum()
}

/// One family's failure kinds in both runs, joined by label (a run without the family, or
/// without a kind, counts 0), sorted by label.
pub fn failure_kind_deltas(base: Option<&FamilySummary>, head: Option<&FamilySummary>) -> Vec<FailureKindDiff> {
    let mut kinds: LiteMap<String, FailureKindDiff> = LiteMap::new();
    for (side, summary) in [(0, base), (1, head)] {
        for k in summary.map(|f| f.failure_kinds.as_slice()).unwrap_or(&[]) {
            let entry = kinds
                .entry(k.name.label.clone())
                .or_insert_with(|| FailureKindDiff { name: k.name.clone(), count: Delta::default() });
            let count = if side == 0 { &mut entry.count.base } else { &mut entry.count.head };
            *count = count.saturating_add(k.count);
        }
    }
    kinds.into_iter().map(|(_, v)| v).collect()
}

/// Compares two runs.
pub fn diff_stats(base: &Stats, head: &Stats) -> StatsDiff {
    let (b, h) = (summarize(base), summarize(head));
    let mut names: Vec<&str> = b.families.iter().chain(&h.families).map(|f| f.family.as_str()).collect();
    crate::util::sort::sort_by(&mut names, |x, y| x.cmp(y));
    names.dedup();
    let mut families = Vec::new();
    for name in names {
        let (bf, hf) = (b.family(name), h.family(name));
        let d = |get: fn(&FamilySummary) -> u64| Delta { base: bf.map_or(0, get), head: hf.map_or(0, get) };
        let mut failure_kinds = failure_kind_deltas(bf, hf);
        crate::util::sort::sort_by(&mut failure_kinds, |x, y| {
            y.count.change().unsigned_abs().cmp(&x.count.change().unsigned_abs()).then_with(|| x.name.label.cmp(&y.name.label))
        });
        let mut members: LiteMap<String, MemberDiff> = LiteMap::new();
        for (side, summary) in [(0, bf), (1, hf)] {
            for m in summary.map(|f| f.members.as_slice()).unwrap_or(&[]) {
                let entry = members.entry(m.opname.clone()).or_insert_with(|| MemberDiff {
                    opname: m.opname.clone(),
                    kind: m.kind,
                    execution_count: Delta::default(),
                    miss: Delta::default(),
                });
                if side == 0 {
                    entry.execution_count.base = m.execution_count;
                    entry.miss.base = m.miss;
                } else {
                    entry.execution_count.head = m.execution_count;
                    entry.miss.head = m.miss;
                }
            }
        }
        let mut members: Vec<MemberDiff> = members.into_iter().map(|(_, v)| v).collect();
        crate::util::sort::sort_by(&mut members, |x, y| {
            y.execution_count
                .change()
                .unsigned_abs()
                .cmp(&x.execution_count.change().unsigned_abs())
                .then_with(|| x.opname.cmp(&y.opname))
        });
        families.push(FamilyDiff {
            family: name.to_string(),
            unquickened: d(|f| f.unquickened),
            deferred: d(|f| f.deferred),
            hit: d(|f| f.hit),
            miss: d(|f| f.miss),
            deopt: d(|f| f.deopt),
            success: d(|f| f.success),
            failure: d(|f| f.failure),
            failure_kinds,
            members,
        });
    }
    crate::util::sort::sort_by(&mut families, |x, y| {
        magnitude(&[y.hit, y.miss, y.deferred, y.unquickened])
            .cmp(&magnitude(&[x.hit, x.miss, x.deferred, x.unquickened]))
            .then_with(|| x.family.cmp(&y.family))
    });

    let mut executions: LiteMap<&str, ExecutionDiff> = LiteMap::new();
    for (side, summary) in [(0, &b), (1, &h)] {
        for e in &summary.executions {
            let entry = executions.entry(e.opname.as_str()).or_insert_with(|| ExecutionDiff {
                opname: e.opname.clone(),
                family: e.family.clone(),
                count: Delta::default(),
                miss: Delta::default(),
            });
            if side == 0 {
                entry.count.base = e.count;
                entry.miss.base = e.miss;
            } else {
                entry.count.head = e.count;
                entry.miss.head = e.miss;
            }
        }
    }
    let mut executions: Vec<ExecutionDiff> = executions.into_iter().map(|(_, v)| v).collect();
    crate::util::sort::sort_by(&mut executions, |x, y| {
        y.count.change().unsigned_abs().cmp(&x.count.change().unsigned_abs()).then_with(|| x.opname.cmp(&y.opname))
    });
    StatsDiff {
        base_python: base.python.clone(),
        head_python: head.python.clone(),
        total_executions: Delta { base: b.total_executions, head: h.total_executions },
        families,
        executions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_kinds_are_named_per_family_and_version() {
        let n = |m, f, k| failure_kind_name(m, f, k).label;
        assert_eq!(n(Some((3, 11)), "LOAD_ATTR", 0), "other");
        assert_eq!(n(Some((3, 11)), "LOAD_ATTR", 13), "property");
        assert_eq!(n(Some((3, 11)), "STORE_ATTR", 17), "not managed dict");
        assert_eq!(n(Some((3, 11)), "BINARY_SUBSCR", 12), "string int");
        assert_eq!(n(Some((3, 11)), "PRECALL", 16), "pycfunction noargs");
        assert_eq!(n(Some((3, 11)), "LOAD_GLOBAL", 18), "non string or split");
        assert_eq!(n(Some((3, 11)), "FOR_ITER", 18), "range");
        assert_eq!(n(Some((3, 11)), "CALL", 7), "kind 7");
        assert_eq!(failure_kind_name(Some((3, 11)), "CALL", 25).constant.as_deref(), Some("SPEC_FAIL_CALL_KWNAMES"));
        assert_eq!(failure_kind_name(Some((3, 11)), "CALL", 0).constant.as_deref(), Some("SPEC_FAIL_OTHER"));
        assert_eq!(n(Some((3, 12)), "LOAD_ATTR", 14), "property");
        assert_eq!(n(Some((3, 12)), "CALL", 7), "code complex parameters");
        assert_eq!(n(Some((3, 12)), "SEND", 13), "list");
        assert_eq!(n(Some((3, 12)), "LOAD_SUPER_ATTR", 10), "shadowed");
        assert_eq!(n(Some((3, 13)), "LOAD_ATTR", 14), "property");
        assert_eq!(n(Some((3, 13)), "FOR_ITER", 18), "range");
        assert_eq!(n(Some((3, 13)), "CALL", 23), "bound method");
        assert_eq!(n(None, "LOAD_ATTR", 4), "out of range");
        assert_eq!(n(None, "LOAD_ATTR", 14), "kind 14");
    }

    #[test]
    fn percent_matches_python_formatting() {
        assert_eq!(percent(1393, 3874), "36.0%");
        assert_eq!(percent(1, 8), "12.5%");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(0, 5), "0.0%");
        assert_eq!(percent(3, 0), "");
    }
}
