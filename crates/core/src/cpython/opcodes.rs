//! Opcode facts per CPython version: which family an opname belongs to, what kind of
//! instruction it is, and which opname a 3.11/3.12 raw pystats file means by an opcode number.
//! The data are the generated [`tables`]; this module answers questions about them.

use serde::{Deserialize, Serialize};

mod tables;

pub(crate) use tables::OpcodeTable;
use tables::TABLES;

/// What kind of instruction an opname is, within its family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    /// The family head (`LOAD_ATTR`), or an instruction without a family.
    Base,
    /// A 3.11 `*_ADAPTIVE` form: the head, waiting to specialize.
    Adaptive,
    /// A type specialization (`LOAD_ATTR_SLOT`).
    Specialized,
    /// A 3.11 `*_QUICK` form or a superinstruction (`LOAD_FAST__LOAD_FAST`): faster, not typed.
    Quickened,
}

/// The table for `minor`, if specdiff has one.
pub(crate) fn table_for(minor: (u32, u32)) -> Option<&'static OpcodeTable> {
    TABLES.iter().copied().find(|t| t.minor == minor)
}

/// The table used to interpret opnames of `minor`: its own, or the newest one for versions
/// newer than every table (their opnames are mostly those of the newest known version).
fn table_or_newest(minor: Option<(u32, u32)>) -> &'static OpcodeTable {
    let newest = TABLES[TABLES.len() - 1];
    match minor {
        Some(m) => table_for(m).unwrap_or(newest),
        None => newest,
    }
}

/// The CPython versions specdiff has opcode tables for, oldest first.
pub fn known_versions() -> Vec<(u32, u32)> {
    TABLES.iter().map(|t| t.minor).collect()
}

/// The exact interpreter (e.g. `"3.11.7"`) the table for `minor` was generated with.
pub fn table_generated_with(minor: (u32, u32)) -> Option<&'static str> {
    table_for(minor).map(|t| t.generated_with)
}

/// The versions whose raw pystats files number opcodes (and that specdiff can map).
pub fn numbered_versions() -> Vec<(u32, u32)> {
    TABLES.iter().filter(|t| !t.by_number.is_empty()).map(|t| t.minor).collect()
}

/// The opname of opcode `number` in CPython `minor` (only 3.11 and 3.12 number opcodes in raw
/// pystats files). Unused numbers are named `<N>`, as CPython's own tools name them.
// Only the tests ask by number; the raw-pystats reader indexes the table itself.
#[cfg(test)]
pub(crate) fn opname_for_number(minor: (u32, u32), number: u32) -> Option<&'static str> {
    table_for(minor)?.by_number.get(number as usize).copied()
}

/// True when CPython `minor`'s opcode table has `opname` (false for a version without one).
pub fn has_opname(minor: (u32, u32), opname: &str) -> bool {
    table_for(minor).is_some_and(|t| t.ops.binary_search_by(|(name, _, _)| (*name).cmp(opname)).is_ok())
}

/// The family (the base instruction it deoptimizes to) and kind of `opname` in CPython
/// `minor` (`None`: the newest known version).
///
/// Opnames missing from the table (a newer CPython) fall back to the longest family head that
/// prefixes them (`BINARY_OP_SUBSCR_LIST_INT` → `BINARY_OP`), else to themselves.
pub fn op_family(minor: Option<(u32, u32)>, opname: &str) -> (String, OpKind) {
    let table = table_or_newest(minor);
    if let Ok(i) = table.ops.binary_search_by(|(name, _, _)| (*name).cmp(opname)) {
        let (_, family, kind) = table.ops[i];
        return (family.to_string(), kind);
    }
    let head = table
        .ops
        .iter()
        .filter(|(_, family, kind)| {
            *kind == OpKind::Specialized
                && opname.len() > family.len() + 1
                && opname.starts_with(family)
                && opname.as_bytes()[family.len()] == b'_'
        })
        .map(|(_, family, _)| *family)
        .max_by_key(|f| f.len());
    match head {
        Some(f) => (f.to_string(), OpKind::Specialized),
        None => (opname.to_string(), OpKind::Base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::parse_minor_version;

    #[test]
    fn families_and_kinds_per_version() {
        assert_eq!(op_family(Some((3, 11)), "LOAD_ATTR_SLOT"), ("LOAD_ATTR".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 11)), "LOAD_ATTR_ADAPTIVE"), ("LOAD_ATTR".into(), OpKind::Adaptive));
        assert_eq!(op_family(Some((3, 11)), "LOAD_FAST__LOAD_FAST"), ("LOAD_FAST".into(), OpKind::Quickened));
        assert_eq!(op_family(Some((3, 11)), "RESUME_QUICK"), ("RESUME".into(), OpKind::Quickened));
        assert_eq!(op_family(Some((3, 12)), "LOAD_ATTR_METHOD_NO_DICT"), ("LOAD_ATTR".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 12)), "POP_TOP"), ("POP_TOP".into(), OpKind::Base));
        assert_eq!(op_family(None, "TO_BOOL_INT"), ("TO_BOOL".into(), OpKind::Specialized));
        // A 3.14 name unknown to every table falls back to its family head by prefix.
        assert_eq!(op_family(Some((3, 14)), "BINARY_OP_SUBSCR_LIST_INT"), ("BINARY_OP".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 14)), "NEW_THING"), ("NEW_THING".into(), OpKind::Base));
    }

    #[test]
    fn numbers_map_to_names() {
        assert_eq!(opname_for_number((3, 11), 106), Some("LOAD_ATTR"));
        assert_eq!(opname_for_number((3, 11), 93), Some("FOR_ITER"));
        assert_eq!(opname_for_number((3, 11), 256), None);
        assert_eq!(opname_for_number((3, 13), 1), None);
        assert_eq!(numbered_versions(), vec![(3, 11), (3, 12)]);
        assert_eq!(parse_minor_version("3.12.1"), Some((3, 12)));
        assert_eq!(parse_minor_version("x"), None);
    }
}
