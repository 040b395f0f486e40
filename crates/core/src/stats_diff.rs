//! Summaries of one run's specialization statistics and the diff of two runs.
//!
//! The numbers are those of CPython's own `Tools/scripts/summarize_stats.py` (3.11): per
//! family (a base instruction with its specialized forms) the counters CPython records on the
//! family head — hits, misses, deopts, deferrals, specialization successes and failures, and
//! the failure kinds by name — plus execution counts per opname with each specialized form's
//! own misses. The tests check them against that script's output for real 3.11 files.
//!
//! This module also owns the names of failure kinds: CPython numbers them per family
//! (`SPEC_FAIL_*` in `Python/specialize.c`) and the numbers change between versions.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::stats::{op_family, OpKind, Stats};

// ---------------------------------------------------------------------------------------------
// Failure-kind names

/// `(group, kind, NAME)`: CPython's `#define SPEC_FAIL_<group>_<NAME> <kind>` (group `""`: a
/// kind common to all families). Data read from CPython 3.11's `Python/specialize.c`.
const FAIL_KINDS_311: &[(&str, u32, &str)] = &[
    ("", 0, "OTHER"),
    ("", 1, "NO_DICT"),
    ("", 2, "OVERRIDDEN"),
    ("", 3, "OUT_OF_VERSIONS"),
    ("", 4, "OUT_OF_RANGE"),
    ("", 5, "EXPECTED_ERROR"),
    ("", 6, "WRONG_NUMBER_ARGUMENTS"),
    ("LOAD_GLOBAL", 18, "NON_STRING_OR_SPLIT"),
    ("ATTR", 8, "OVERRIDING_DESCRIPTOR"),
    ("ATTR", 9, "NON_OVERRIDING_DESCRIPTOR"),
    ("ATTR", 10, "NOT_DESCRIPTOR"),
    ("ATTR", 11, "METHOD"),
    ("ATTR", 12, "MUTABLE_CLASS"),
    ("ATTR", 13, "PROPERTY"),
    ("ATTR", 14, "NON_OBJECT_SLOT"),
    ("ATTR", 15, "READ_ONLY"),
    ("ATTR", 16, "AUDITED_SLOT"),
    ("ATTR", 17, "NOT_MANAGED_DICT"),
    ("ATTR", 18, "NON_STRING_OR_SPLIT"),
    ("ATTR", 19, "MODULE_ATTR_NOT_FOUND"),
    ("LOAD_METHOD", 8, "OVERRIDING_DESCRIPTOR"),
    ("LOAD_METHOD", 9, "NON_OVERRIDING_DESCRIPTOR"),
    ("LOAD_METHOD", 10, "NOT_DESCRIPTOR"),
    ("LOAD_METHOD", 11, "METHOD"),
    ("LOAD_METHOD", 12, "MUTABLE_CLASS"),
    ("LOAD_METHOD", 13, "PROPERTY"),
    ("LOAD_METHOD", 14, "NON_OBJECT_SLOT"),
    ("LOAD_METHOD", 15, "IS_ATTR"),
    ("LOAD_METHOD", 16, "DICT_SUBCLASS"),
    ("LOAD_METHOD", 17, "BUILTIN_CLASS_METHOD"),
    ("LOAD_METHOD", 18, "CLASS_METHOD_OBJ"),
    ("LOAD_METHOD", 19, "OBJECT_SLOT"),
    ("LOAD_METHOD", 20, "HAS_DICT"),
    ("LOAD_METHOD", 21, "HAS_MANAGED_DICT"),
    ("LOAD_METHOD", 22, "INSTANCE_ATTRIBUTE"),
    ("LOAD_METHOD", 23, "METACLASS_ATTRIBUTE"),
    ("SUBSCR", 8, "ARRAY_INT"),
    ("SUBSCR", 9, "ARRAY_SLICE"),
    ("SUBSCR", 10, "LIST_SLICE"),
    ("SUBSCR", 11, "TUPLE_SLICE"),
    ("SUBSCR", 12, "STRING_INT"),
    ("SUBSCR", 13, "STRING_SLICE"),
    ("SUBSCR", 15, "BUFFER_INT"),
    ("SUBSCR", 16, "BUFFER_SLICE"),
    ("SUBSCR", 17, "SEQUENCE_INT"),
    ("SUBSCR", 18, "BYTEARRAY_INT"),
    ("SUBSCR", 19, "BYTEARRAY_SLICE"),
    ("SUBSCR", 20, "PY_SIMPLE"),
    ("SUBSCR", 21, "PY_OTHER"),
    ("SUBSCR", 22, "DICT_SUBCLASS_NO_OVERRIDE"),
    ("SUBSCR", 23, "NOT_HEAP_TYPE"),
    ("BINARY_OP", 8, "ADD_DIFFERENT_TYPES"),
    ("BINARY_OP", 9, "ADD_OTHER"),
    ("BINARY_OP", 10, "AND_DIFFERENT_TYPES"),
    ("BINARY_OP", 11, "AND_INT"),
    ("BINARY_OP", 12, "AND_OTHER"),
    ("BINARY_OP", 13, "FLOOR_DIVIDE"),
    ("BINARY_OP", 14, "LSHIFT"),
    ("BINARY_OP", 15, "MATRIX_MULTIPLY"),
    ("BINARY_OP", 16, "MULTIPLY_DIFFERENT_TYPES"),
    ("BINARY_OP", 17, "MULTIPLY_OTHER"),
    ("BINARY_OP", 18, "OR"),
    ("BINARY_OP", 19, "POWER"),
    ("BINARY_OP", 20, "REMAINDER"),
    ("BINARY_OP", 21, "RSHIFT"),
    ("BINARY_OP", 22, "SUBTRACT_DIFFERENT_TYPES"),
    ("BINARY_OP", 23, "SUBTRACT_OTHER"),
    ("BINARY_OP", 24, "TRUE_DIVIDE_DIFFERENT_TYPES"),
    ("BINARY_OP", 25, "TRUE_DIVIDE_FLOAT"),
    ("BINARY_OP", 26, "TRUE_DIVIDE_OTHER"),
    ("BINARY_OP", 27, "XOR"),
    ("CALL", 9, "COMPLEX_PARAMETERS"),
    ("CALL", 10, "CO_NOT_OPTIMIZED"),
    ("CALL", 11, "INSTANCE_METHOD"),
    ("CALL", 12, "CMETHOD"),
    ("CALL", 13, "PYCFUNCTION"),
    ("CALL", 14, "PYCFUNCTION_WITH_KEYWORDS"),
    ("CALL", 15, "PYCFUNCTION_FAST_WITH_KEYWORDS"),
    ("CALL", 16, "PYCFUNCTION_NOARGS"),
    ("CALL", 17, "BAD_CALL_FLAGS"),
    ("CALL", 18, "CLASS"),
    ("CALL", 19, "PYTHON_CLASS"),
    ("CALL", 20, "METHOD_DESCRIPTOR"),
    ("CALL", 21, "BOUND_METHOD"),
    ("CALL", 22, "STR"),
    ("CALL", 23, "CLASS_NO_VECTORCALL"),
    ("CALL", 24, "CLASS_MUTABLE"),
    ("CALL", 25, "KWNAMES"),
    ("CALL", 26, "METHOD_WRAPPER"),
    ("CALL", 27, "OPERATOR_WRAPPER"),
    ("CALL", 28, "PYFUNCTION"),
    ("CALL", 29, "PEP_523"),
    ("COMPARE_OP", 12, "DIFFERENT_TYPES"),
    ("COMPARE_OP", 13, "STRING"),
    ("COMPARE_OP", 14, "NOT_FOLLOWED_BY_COND_JUMP"),
    ("COMPARE_OP", 15, "BIG_INT"),
    ("COMPARE_OP", 16, "BYTES"),
    ("COMPARE_OP", 17, "TUPLE"),
    ("COMPARE_OP", 18, "LIST"),
    ("COMPARE_OP", 19, "SET"),
    ("COMPARE_OP", 20, "BOOL"),
    ("COMPARE_OP", 21, "BASEOBJECT"),
    ("COMPARE_OP", 22, "FLOAT_LONG"),
    ("COMPARE_OP", 23, "LONG_FLOAT"),
    ("COMPARE_OP", 24, "EXTENDED_ARG"),
    ("FOR_ITER", 10, "GENERATOR"),
    ("FOR_ITER", 11, "COROUTINE"),
    ("FOR_ITER", 12, "ASYNC_GENERATOR"),
    ("FOR_ITER", 13, "LIST"),
    ("FOR_ITER", 14, "TUPLE"),
    ("FOR_ITER", 15, "SET"),
    ("FOR_ITER", 16, "STRING"),
    ("FOR_ITER", 17, "BYTES"),
    ("FOR_ITER", 18, "RANGE"),
    ("FOR_ITER", 19, "ITERTOOLS"),
    ("FOR_ITER", 20, "DICT_KEYS"),
    ("FOR_ITER", 21, "DICT_ITEMS"),
    ("FOR_ITER", 22, "DICT_VALUES"),
    ("FOR_ITER", 23, "ENUMERATE"),
    ("UNPACK_SEQUENCE", 8, "ITERATOR"),
    ("UNPACK_SEQUENCE", 9, "SEQUENCE"),
];

/// The same for CPython 3.12, read from its `Python/specialize.c`. Kinds 7 and 8 became
/// common ones, which shifted most family-specific numbers by one.
const FAIL_KINDS_312: &[(&str, u32, &str)] = &[
    ("", 0, "OTHER"),
    ("", 1, "NO_DICT"),
    ("", 2, "OVERRIDDEN"),
    ("", 3, "OUT_OF_VERSIONS"),
    ("", 4, "OUT_OF_RANGE"),
    ("", 5, "EXPECTED_ERROR"),
    ("", 6, "WRONG_NUMBER_ARGUMENTS"),
    ("", 7, "CODE_COMPLEX_PARAMETERS"),
    ("", 8, "CODE_NOT_OPTIMIZED"),
    ("LOAD_GLOBAL", 17, "NON_DICT"),
    ("LOAD_GLOBAL", 18, "NON_STRING_OR_SPLIT"),
    ("SUPER", 9, "BAD_CLASS"),
    ("SUPER", 10, "SHADOWED"),
    ("ATTR", 9, "OVERRIDING_DESCRIPTOR"),
    ("ATTR", 10, "NON_OVERRIDING_DESCRIPTOR"),
    ("ATTR", 11, "NOT_DESCRIPTOR"),
    ("ATTR", 12, "METHOD"),
    ("ATTR", 13, "MUTABLE_CLASS"),
    ("ATTR", 14, "PROPERTY"),
    ("ATTR", 15, "NON_OBJECT_SLOT"),
    ("ATTR", 16, "READ_ONLY"),
    ("ATTR", 17, "AUDITED_SLOT"),
    ("ATTR", 18, "NOT_MANAGED_DICT"),
    ("ATTR", 19, "NON_STRING_OR_SPLIT"),
    ("ATTR", 20, "MODULE_ATTR_NOT_FOUND"),
    ("ATTR", 21, "SHADOWED"),
    ("ATTR", 22, "BUILTIN_CLASS_METHOD"),
    ("ATTR", 23, "CLASS_METHOD_OBJ"),
    ("ATTR", 24, "OBJECT_SLOT"),
    ("ATTR", 25, "HAS_MANAGED_DICT"),
    ("ATTR", 26, "INSTANCE_ATTRIBUTE"),
    ("ATTR", 27, "METACLASS_ATTRIBUTE"),
    ("ATTR", 28, "PROPERTY_NOT_PY_FUNCTION"),
    ("ATTR", 29, "NOT_IN_KEYS"),
    ("ATTR", 30, "NOT_IN_DICT"),
    ("ATTR", 31, "CLASS_ATTR_SIMPLE"),
    ("ATTR", 32, "CLASS_ATTR_DESCRIPTOR"),
    ("ATTR", 33, "BUILTIN_CLASS_METHOD_OBJ"),
    ("SUBSCR", 9, "ARRAY_INT"),
    ("SUBSCR", 10, "ARRAY_SLICE"),
    ("SUBSCR", 11, "LIST_SLICE"),
    ("SUBSCR", 12, "TUPLE_SLICE"),
    ("SUBSCR", 13, "STRING_INT"),
    ("SUBSCR", 14, "STRING_SLICE"),
    ("SUBSCR", 15, "BUFFER_INT"),
    ("SUBSCR", 16, "BUFFER_SLICE"),
    ("SUBSCR", 17, "SEQUENCE_INT"),
    ("SUBSCR", 18, "BYTEARRAY_INT"),
    ("SUBSCR", 19, "BYTEARRAY_SLICE"),
    ("SUBSCR", 20, "PY_SIMPLE"),
    ("SUBSCR", 21, "PY_OTHER"),
    ("SUBSCR", 22, "DICT_SUBCLASS_NO_OVERRIDE"),
    ("SUBSCR", 23, "NOT_HEAP_TYPE"),
    ("BINARY_OP", 9, "ADD_DIFFERENT_TYPES"),
    ("BINARY_OP", 10, "ADD_OTHER"),
    ("BINARY_OP", 11, "AND_DIFFERENT_TYPES"),
    ("BINARY_OP", 12, "AND_INT"),
    ("BINARY_OP", 13, "AND_OTHER"),
    ("BINARY_OP", 14, "FLOOR_DIVIDE"),
    ("BINARY_OP", 15, "LSHIFT"),
    ("BINARY_OP", 16, "MATRIX_MULTIPLY"),
    ("BINARY_OP", 17, "MULTIPLY_DIFFERENT_TYPES"),
    ("BINARY_OP", 18, "MULTIPLY_OTHER"),
    ("BINARY_OP", 19, "OR"),
    ("BINARY_OP", 20, "POWER"),
    ("BINARY_OP", 21, "REMAINDER"),
    ("BINARY_OP", 22, "RSHIFT"),
    ("BINARY_OP", 23, "SUBTRACT_DIFFERENT_TYPES"),
    ("BINARY_OP", 24, "SUBTRACT_OTHER"),
    ("BINARY_OP", 25, "TRUE_DIVIDE_DIFFERENT_TYPES"),
    ("BINARY_OP", 26, "TRUE_DIVIDE_FLOAT"),
    ("BINARY_OP", 27, "TRUE_DIVIDE_OTHER"),
    ("BINARY_OP", 28, "XOR"),
    ("CALL", 11, "INSTANCE_METHOD"),
    ("CALL", 12, "CMETHOD"),
    ("CALL", 13, "CFUNC_VARARGS"),
    ("CALL", 14, "CFUNC_VARARGS_KEYWORDS"),
    ("CALL", 15, "CFUNC_NOARGS"),
    ("CALL", 16, "CFUNC_METHOD_FASTCALL_KEYWORDS"),
    ("CALL", 17, "METH_DESCR_VARARGS"),
    ("CALL", 18, "METH_DESCR_VARARGS_KEYWORDS"),
    ("CALL", 19, "METH_DESCR_METHOD_FASTCALL_KEYWORDS"),
    ("CALL", 20, "BAD_CALL_FLAGS"),
    ("CALL", 21, "PYTHON_CLASS"),
    ("CALL", 22, "PEP_523"),
    ("CALL", 23, "BOUND_METHOD"),
    ("CALL", 24, "STR"),
    ("CALL", 25, "CLASS_NO_VECTORCALL"),
    ("CALL", 26, "CLASS_MUTABLE"),
    ("CALL", 27, "KWNAMES"),
    ("CALL", 28, "METHOD_WRAPPER"),
    ("CALL", 29, "OPERATOR_WRAPPER"),
    ("COMPARE_OP", 12, "DIFFERENT_TYPES"),
    ("COMPARE_OP", 13, "STRING"),
    ("COMPARE_OP", 14, "BIG_INT"),
    ("COMPARE_OP", 15, "BYTES"),
    ("COMPARE_OP", 16, "TUPLE"),
    ("COMPARE_OP", 17, "LIST"),
    ("COMPARE_OP", 18, "SET"),
    ("COMPARE_OP", 19, "BOOL"),
    ("COMPARE_OP", 20, "BASEOBJECT"),
    ("COMPARE_OP", 21, "FLOAT_LONG"),
    ("COMPARE_OP", 22, "LONG_FLOAT"),
    ("ITER", 10, "GENERATOR"),
    ("ITER", 11, "COROUTINE"),
    ("ITER", 12, "ASYNC_GENERATOR"),
    ("ITER", 13, "LIST"),
    ("ITER", 14, "TUPLE"),
    ("ITER", 15, "SET"),
    ("ITER", 16, "STRING"),
    ("ITER", 17, "BYTES"),
    ("ITER", 18, "RANGE"),
    ("ITER", 19, "ITERTOOLS"),
    ("ITER", 20, "DICT_KEYS"),
    ("ITER", 21, "DICT_ITEMS"),
    ("ITER", 22, "DICT_VALUES"),
    ("ITER", 23, "ENUMERATE"),
    ("ITER", 24, "MAP"),
    ("ITER", 25, "ZIP"),
    ("ITER", 26, "SEQ_ITER"),
    ("ITER", 27, "REVERSED_LIST"),
    ("ITER", 28, "CALLABLE"),
    ("ITER", 29, "ASCII_STRING"),
    ("ITER", 30, "ASYNC_GENERATOR_SEND"),
    ("UNPACK_SEQUENCE", 9, "ITERATOR"),
    ("UNPACK_SEQUENCE", 10, "SEQUENCE"),
];

/// Kinds 0–8 have kept these numbers since 3.12 (checked in the 3.12, 3.13-development and
/// 3.14 sources); the family-specific ones of 3.13+ are not named (no verified source).
const COMMON_KINDS_313: &[(&str, u32, &str)] = &[
    ("", 0, "OTHER"),
    ("", 1, "NO_DICT"),
    ("", 2, "OVERRIDDEN"),
    ("", 3, "OUT_OF_VERSIONS"),
    ("", 4, "OUT_OF_RANGE"),
    ("", 5, "EXPECTED_ERROR"),
    ("", 6, "WRONG_NUMBER_ARGUMENTS"),
    ("", 7, "CODE_COMPLEX_PARAMETERS"),
    ("", 8, "CODE_NOT_OPTIMIZED"),
];

/// A failure kind's name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FailureKindName {
    /// As CPython's `summarize_stats.py` prints it: `"string int"`; `"kind 7"` when unknown.
    pub label: String,
    /// The `#define` in `Python/specialize.c`, e.g. `"SPEC_FAIL_SUBSCR_STRING_INT"`.
    pub constant: Option<String>,
}

/// Names failure kind `kind` of `family` (a family head such as `"LOAD_ATTR"`) for CPython
/// `minor` (`None`: a version that names opcodes, 3.13+).
///
/// Follows `summarize_stats.py` of the same version: a kind below the first family-specific
/// number (7 in 3.11, 9 from 3.12) is common to all families; otherwise it is looked up in the
/// family's group (`LOAD_ATTR` and `STORE_ATTR` share `ATTR`, the subscripts share `SUBSCR`,
/// 3.11 `PRECALL` uses `CALL`'s, 3.12 `FOR_ITER` and `SEND` share `ITER`).
pub fn failure_kind_name(minor: Option<(u32, u32)>, family: &str, kind: u32) -> FailureKindName {
    let (table, first_specific, group): (&[(&str, u32, &str)], u32, &str) = match minor {
        Some((3, 11)) => {
            let group = if family.ends_with("ATTR") {
                "ATTR"
            } else if family.ends_with("SUBSCR") {
                "SUBSCR"
            } else if family.starts_with("PRECALL") {
                "CALL"
            } else {
                family
            };
            (FAIL_KINDS_311, 7, group)
        }
        Some((3, 12)) => (FAIL_KINDS_312, 9, group_312(family)),
        _ => (COMMON_KINDS_313, 9, ""),
    };
    let wanted = if kind < first_specific { "" } else { group };
    if let Some((g, _, name)) = table.iter().find(|(g, k, _)| *k == kind && *g == wanted) {
        let full = if g.is_empty() { name.to_string() } else { format!("{g}_{name}") };
        return FailureKindName {
            label: name.replace('_', " ").to_lowercase(),
            constant: Some(format!("SPEC_FAIL_{full}")),
        };
    }
    FailureKindName { label: format!("kind {kind}"), constant: None }
}

fn group_312(family: &str) -> &str {
    if family == "LOAD_SUPER_ATTR" {
        "SUPER"
    } else if family.ends_with("ATTR") {
        "ATTR"
    } else if family == "FOR_ITER" || family == "SEND" {
        "ITER"
    } else if family.ends_with("SUBSCR") {
        "SUBSCR"
    } else {
        family
    }
}

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
    /// Executions of the head itself (before quickening; summarize_stats calls it
    /// "unquickened").
    pub unquickened: u64,
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
    /// Failures by kind, most frequent first (ties: higher kind number first, as
    /// summarize_stats sorts them).
    pub failure_kinds: Vec<FailureKindCount>,
    /// The other opnames of the family that executed, most executed first.
    pub members: Vec<MemberCount>,
}

impl FamilySummary {
    /// `deferred + hit + miss + unquickened`: the denominator of the ratios in 3.11's
    /// summarize_stats.py.
    pub fn total(&self) -> u64 {
        [self.deferred, self.hit, self.miss, self.unquickened].iter().fold(0u64, |t, v| t.saturating_add(*v))
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
    /// Every opname that executed, most executed first (ties: by name, descending, as
    /// summarize_stats sorts them).
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
    let mut executions = Vec::new();
    let mut members: BTreeMap<String, Vec<MemberCount>> = BTreeMap::new();
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
    executions.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| b.opname.cmp(&a.opname)));

    let mut families = Vec::new();
    // Family heads: opnames that are their own family and have specialization counters or
    // members that ran. (A specialized form's own `miss` is shown under its head.)
    let heads: BTreeSet<String> = stats
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
    for head in heads {
        let empty = Default::default();
        let s = stats.opcodes.get(&head).unwrap_or(&empty);
        let mut failure_kinds: Vec<FailureKindCount> = s
            .failure_kinds
            .iter()
            .filter(|(_, &count)| count > 0)
            .map(|(&kind, &count)| FailureKindCount { kind, name: failure_kind_name(minor, &head, kind), count })
            .collect();
        failure_kinds.sort_by(|a, b| b.count.cmp(&a.count).then(b.kind.cmp(&a.kind)));
        let mut m = members.remove(head.as_str()).unwrap_or_default();
        m.sort_by(|a, b| b.execution_count.cmp(&a.execution_count).then_with(|| a.opname.cmp(&b.opname)));
        let sp = &s.specialization;
        families.push(FamilySummary {
            family: head,
            specializable: s.specializable,
            unquickened: s.execution_count,
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
    families.sort_by(|a, b| b.total().cmp(&a.total()).then_with(|| a.family.cmp(&b.family)));
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
}

fn magnitude(deltas: &[Delta]) -> u128 {
    deltas.iter().map(|d| d.change().unsigned_abs()).sum()
}

/// Compares two runs.
pub fn diff_stats(base: &Stats, head: &Stats) -> StatsDiff {
    let (b, h) = (summarize(base), summarize(head));
    let names: BTreeSet<&str> = b.families.iter().chain(&h.families).map(|f| f.family.as_str()).collect();
    let mut families = Vec::new();
    for name in names {
        let (bf, hf) = (b.family(name), h.family(name));
        let d = |get: fn(&FamilySummary) -> u64| Delta { base: bf.map_or(0, get), head: hf.map_or(0, get) };
        let mut kinds: BTreeMap<String, FailureKindDiff> = BTreeMap::new();
        for (side, summary) in [(0, bf), (1, hf)] {
            for k in summary.map(|f| f.failure_kinds.as_slice()).unwrap_or(&[]) {
                let entry = kinds
                    .entry(k.name.label.clone())
                    .or_insert_with(|| FailureKindDiff { name: k.name.clone(), count: Delta::default() });
                if side == 0 {
                    entry.count.base += k.count;
                } else {
                    entry.count.head += k.count;
                }
            }
        }
        let mut failure_kinds: Vec<FailureKindDiff> = kinds.into_values().collect();
        failure_kinds.sort_by(|x, y| {
            y.count.change().unsigned_abs().cmp(&x.count.change().unsigned_abs()).then_with(|| x.name.label.cmp(&y.name.label))
        });
        let mut members: BTreeMap<String, MemberDiff> = BTreeMap::new();
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
        let mut members: Vec<MemberDiff> = members.into_values().collect();
        members.sort_by(|x, y| {
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
    families.sort_by(|x, y| {
        magnitude(&[y.hit, y.miss, y.deferred, y.unquickened])
            .cmp(&magnitude(&[x.hit, x.miss, x.deferred, x.unquickened]))
            .then_with(|| x.family.cmp(&y.family))
    });

    let mut executions: BTreeMap<&str, ExecutionDiff> = BTreeMap::new();
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
    let mut executions: Vec<ExecutionDiff> = executions.into_values().collect();
    executions.sort_by(|x, y| {
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
