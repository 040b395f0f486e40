//! What each CPython version's specializer does with the shapes of code that explanations talk
//! about, kept as data measured on each version, never as prose: a sentence that states a
//! version's behaviour is generated from [`observed`], and says nothing where the data has no
//! entry for that version (one specdiff does not know yet) or where the version behaves
//! otherwise.
//!
//! Each [`Shape`] is an experiment of `crates/cli/tests/programs/version_facts/probe.py`: a
//! fresh site run a known number of times with known operands, then its opname.
//! `crates/cli/tests/version_facts.rs` runs that probe on every interpreter and checks every
//! entry below against it, and against the version's opcode table
//! ([`super::opcodes::op_family`]).

use super::opcodes::{op_family, OpKind};

/// One experiment of the probe: a shape of code and what runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `x + y` with an int and a float, 100 times.
    IntPlusFloat,
    /// `x < y` with an int and a float, 100 times.
    IntLessFloat,
    /// `x + y` with two lists, 100 times.
    ListPlusList,
    /// `x + y` with `10 ** 12` (an int of more than one 30-bit digit) and 1, 100 times.
    BigIntPlusInt,
    /// `o.x` on a class, run once.
    AttrLoadAfter1Run,
    /// The same load, run a second time.
    AttrLoadAfter2Runs,
    /// `g(a=1)`, `g` a Python function, 100 times.
    PyCallWithKeywords,
    /// `C()`, `C` a class with a Python `__init__` made by `type`, 100 times.
    ClassCallType,
    /// `C()`, the same class made by a metaclass of its own, 100 times.
    ClassCallMetaclass,
    /// `C.x` on a class made by `type`, 100 times.
    ClassAttrType,
    /// `C.x` on a class made by a metaclass of its own, 100 times.
    ClassAttrMetaclass,
    /// `o(1)`, `o` an instance whose class defines `__call__`, 100 times.
    CallObjectDunderCall,
    /// `super().m()` written in one expression, 100 times (3.12+: 3.11 has no LOAD_SUPER_ATTR).
    SuperMethodOneExpression,
}

impl Shape {
    /// Every shape, in the probe's order.
    pub const ALL: [Shape; 13] = [
        Shape::IntPlusFloat,
        Shape::IntLessFloat,
        Shape::ListPlusList,
        Shape::BigIntPlusInt,
        Shape::AttrLoadAfter1Run,
        Shape::AttrLoadAfter2Runs,
        Shape::PyCallWithKeywords,
        Shape::ClassCallType,
        Shape::ClassCallMetaclass,
        Shape::ClassAttrType,
        Shape::ClassAttrMetaclass,
        Shape::CallObjectDunderCall,
        Shape::SuperMethodOneExpression,
    ];

    /// The name the probe prints.
    pub fn name(self) -> &'static str {
        match self {
            Shape::IntPlusFloat => "int_plus_float",
            Shape::IntLessFloat => "int_less_float",
            Shape::ListPlusList => "list_plus_list",
            Shape::BigIntPlusInt => "big_int_plus_int",
            Shape::AttrLoadAfter1Run => "attr_load_after_1_run",
            Shape::AttrLoadAfter2Runs => "attr_load_after_2_runs",
            Shape::PyCallWithKeywords => "py_call_with_keywords",
            Shape::ClassCallType => "class_call_type",
            Shape::ClassCallMetaclass => "class_call_metaclass",
            Shape::ClassAttrType => "class_attr_type",
            Shape::ClassAttrMetaclass => "class_attr_metaclass",
            Shape::CallObjectDunderCall => "call_object_dunder_call",
            Shape::SuperMethodOneExpression => "super_method_one_expression",
        }
    }
}

/// The versions measured, oldest first: the columns of [`MEASURED`].
pub const VERSIONS: [(u32, u32); 5] = [(3, 11), (3, 12), (3, 13), (3, 14), (3, 15)];

/// The opname each shape's site had after its runs, per version of [`VERSIONS`] (measured on
/// 3.11.7, 3.12.1, 3.13.0, 3.14.8, 3.15.0); `None` where the shape cannot be written.
const MEASURED: [(Shape, [Option<&str>; 5]); 13] = [
    (Shape::IntPlusFloat, [Some("BINARY_OP_ADAPTIVE"), Some("BINARY_OP"), Some("BINARY_OP"), Some("BINARY_OP_EXTEND"), Some("BINARY_OP_EXTEND")]),
    (Shape::IntLessFloat, [Some("COMPARE_OP"), Some("COMPARE_OP"), Some("COMPARE_OP"), Some("COMPARE_OP"), Some("COMPARE_OP")]),
    (Shape::ListPlusList, [Some("BINARY_OP_ADAPTIVE"), Some("BINARY_OP"), Some("BINARY_OP"), Some("BINARY_OP"), Some("BINARY_OP_EXTEND")]),
    (Shape::BigIntPlusInt, [Some("BINARY_OP_ADD_INT"), Some("BINARY_OP_ADD_INT"), Some("BINARY_OP_ADD_INT"), Some("BINARY_OP_ADD_INT"), Some("BINARY_OP")]),
    (Shape::AttrLoadAfter1Run, [Some("LOAD_ATTR"), Some("LOAD_ATTR"), Some("LOAD_ATTR"), Some("LOAD_ATTR"), Some("LOAD_ATTR")]),
    (Shape::AttrLoadAfter2Runs, [Some("LOAD_ATTR"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS")]),
    (Shape::PyCallWithKeywords, [Some("CALL_ADAPTIVE"), Some("CALL"), Some("CALL_KW"), Some("CALL_KW_PY"), Some("CALL_KW_PY")]),
    (Shape::ClassCallType, [Some("CALL_ADAPTIVE"), Some("CALL"), Some("CALL_ALLOC_AND_ENTER_INIT"), Some("CALL_ALLOC_AND_ENTER_INIT"), Some("CALL_ALLOC_AND_ENTER_INIT")]),
    (Shape::ClassCallMetaclass, [Some("CALL_ADAPTIVE"), Some("CALL"), Some("CALL_NON_PY_GENERAL"), Some("CALL_NON_PY_GENERAL"), Some("CALL_NON_PY_GENERAL")]),
    (Shape::ClassAttrType, [Some("LOAD_ATTR_ADAPTIVE"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS"), Some("LOAD_ATTR_CLASS")]),
    (Shape::ClassAttrMetaclass, [Some("LOAD_ATTR_ADAPTIVE"), Some("LOAD_ATTR"), Some("LOAD_ATTR"), Some("LOAD_ATTR_CLASS_WITH_METACLASS_CHECK"), Some("LOAD_ATTR_CLASS_WITH_METACLASS_CHECK")]),
    (Shape::CallObjectDunderCall, [Some("CALL_ADAPTIVE"), Some("CALL"), Some("CALL_NON_PY_GENERAL"), Some("CALL_NON_PY_GENERAL"), Some("CALL_NON_PY_GENERAL")]),
    (Shape::SuperMethodOneExpression, [None, Some("LOAD_SUPER_ATTR_METHOD"), Some("LOAD_SUPER_ATTR_METHOD"), Some("LOAD_SUPER_ATTR_METHOD"), Some("LOAD_SUPER_ATTR_METHOD")]),
];

/// The opname `shape`'s site had on CPython `version` after its runs; `None` when that version
/// was not measured (or the shape cannot be written on it).
pub fn observed(version: (u32, u32), shape: Shape) -> Option<&'static str> {
    let column = VERSIONS.iter().position(|v| *v == version)?;
    MEASURED.iter().find(|(s, _)| *s == shape)?.1[column]
}

/// Whether `shape`'s site was specialized on `version`: `Some(false)` when it stayed generic,
/// `None` when the version was not measured. Generic includes a generic-call form such as
/// `CALL_NON_PY_GENERAL`, which specializes nothing about the callee.
pub fn specializes(version: (u32, u32), shape: Shape) -> Option<bool> {
    let name = observed(version, shape)?;
    Some(op_family(Some(version), name).1 == OpKind::Specialized && !is_generic_call(name))
}

/// A specialized form that still calls through the generic path.
pub(crate) fn is_generic_call(opname: &str) -> bool {
    opname == "CALL_NON_PY_GENERAL"
}

/// `"CPython 3.13"`.
pub(crate) fn cpython(version: (u32, u32)) -> String {
    format!("CPython {}.{}", version.0, version.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_versions_have_no_facts() {
        assert_eq!(observed((3, 16), Shape::IntPlusFloat), None);
        assert_eq!(specializes((3, 10), Shape::IntPlusFloat), None);
    }

    #[test]
    fn facts_read_per_version() {
        assert_eq!(specializes((3, 13), Shape::IntPlusFloat), Some(false));
        assert_eq!(specializes((3, 14), Shape::IntPlusFloat), Some(true));
        assert_eq!(specializes((3, 11), Shape::IntPlusFloat), Some(false));
        assert_eq!(specializes((3, 15), Shape::ListPlusList), Some(true));
        assert_eq!(specializes((3, 14), Shape::ListPlusList), Some(false));
        assert_eq!(specializes((3, 13), Shape::ClassCallMetaclass), Some(false));
        assert_eq!(specializes((3, 13), Shape::ClassCallType), Some(true));
        assert_eq!(specializes((3, 12), Shape::PyCallWithKeywords), Some(false));
        assert_eq!(specializes((3, 13), Shape::PyCallWithKeywords), Some(false));
        assert_eq!(specializes((3, 14), Shape::PyCallWithKeywords), Some(true));
        assert_eq!(observed((3, 11), Shape::SuperMethodOneExpression), None);
        assert!(Shape::ALL.iter().all(|s| MEASURED.iter().any(|(m, _)| m == s)));
    }
}
