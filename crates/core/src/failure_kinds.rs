//! The names of specialization failure kinds. CPython numbers them per family (`SPEC_FAIL_*`
//! in `Python/specialize.c`), and the numbers change between versions; this module holds the
//! tables read from each version's source and names a kind as `summarize_stats.py` does.

use serde::Serialize;

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
