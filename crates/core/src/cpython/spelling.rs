//! Version spellings: how each CPython version (3.11–3.14) names the same instruction family,
//! operand and specialization, and the one spelling [`crate::cpython::normalize`] compares by.
//! Every rule here is listed, with its reason, in `docs/engine.md` ("Normalization").

use std::borrow::Cow;

/// The family part of a key: the dump's family with version spellings unified.
pub(crate) fn key_family<'s>(name: &'s str, family: &'s str) -> Cow<'s, str> {
    let mut f = if family.is_empty() { name } else { family };
    f = f.strip_prefix("INSTRUMENTED_").unwrap_or(f);
    for suffix in ["_ADAPTIVE", "_QUICK"] {
        f = f.strip_suffix(suffix).unwrap_or(f);
    }
    if let Some(rest) = f.strip_prefix("POP_JUMP_FORWARD_IF_").or_else(|| f.strip_prefix("POP_JUMP_BACKWARD_IF_")) {
        return Cow::Owned(format!("POP_JUMP_IF_{rest}"));
    }
    Cow::Borrowed(match f {
        "LOAD_METHOD" => "LOAD_ATTR",
        "CALL_KW" => "CALL",
        "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP_BACKWARD_NO_INTERRUPT" | "JUMP_NO_INTERRUPT" => "JUMP",
        "LOAD_FAST_CHECK" | "LOAD_FAST_BORROW" => "LOAD_FAST",
        "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => "LOAD_FAST_LOAD_FAST",
        "LOAD_SMALL_INT" => "LOAD_CONST",
        other => other,
    })
}

/// The operand part of a key: `argrepr` without run- and version-specific spelling.
pub(crate) fn normalize_argrepr(s: &str) -> String {
    // Jump targets: "to 54" (3.11, 3.12) or "to L2" (3.13+).
    if let Some(t) = s.strip_prefix("to ") {
        let t = t.strip_prefix('L').unwrap_or(t);
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return String::new();
        }
    }
    let mut s = strip_null_marks(s);
    if let Some(inner) = s.strip_prefix("bool(").and_then(|t| t.strip_suffix(')')) {
        s = inner;
    }
    if let Some(rest) = s.strip_prefix("<code object ") {
        let name = rest.split(" at 0x").next().unwrap_or(rest);
        return format!("<code object {name}>");
    }
    strip_addresses(s)
}

/// A name as `dis` shows it on a load that also pushes `NULL` or `self`: `NULL + f`,
/// `NULL|self + get` (3.11, 3.12), `get + NULL|self` (3.13+) are `f` and `get`.
pub(crate) fn strip_null_marks(s: &str) -> &str {
    let mut s = s;
    for p in ["NULL|self + ", "NULL + "] {
        s = s.strip_prefix(p).unwrap_or(s);
    }
    for p in [" + NULL|self", " + NULL"] {
        s = s.strip_suffix(p).unwrap_or(s);
    }
    s
}

/// Removes `" at 0x…"` memory addresses (they differ between runs).
fn strip_addresses(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" at 0x") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 6..];
        let n = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        rest = &after[n..];
    }
    out.push_str(rest);
    out
}

/// The spelling of a specialization used to compare opnames across versions: 3.11
/// `PRECALL_*` and `LOAD_METHOD_*`, `*_NO_KW_*` and 3.11 `COMPARE_OP_*_JUMP` are renamed to
/// their 3.13 names.
pub(crate) fn canonical_opname(name: &str) -> Cow<'_, str> {
    let mut s = Cow::Borrowed(name);
    if let Some(rest) = s.strip_prefix("PRECALL_") {
        s = Cow::Owned(format!("CALL_{rest}"));
    }
    if let Some(rest) = s.strip_prefix("LOAD_METHOD_") {
        s = Cow::Owned(match rest {
            "CLASS" | "MODULE" => format!("LOAD_ATTR_{rest}"),
            _ => format!("LOAD_ATTR_METHOD_{rest}"),
        });
    }
    if s.contains("_NO_KW_") {
        s = Cow::Owned(s.replacen("_NO_KW_", "_", 1));
    }
    if s.starts_with("COMPARE_OP_") && s.ends_with("_JUMP") {
        s = Cow::Owned(s[..s.len() - 5].to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_unify_versions() {
        assert_eq!(key_family("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR"), "LOAD_ATTR");
        assert_eq!(key_family("LOAD_METHOD_WITH_VALUES", "LOAD_METHOD"), "LOAD_ATTR");
        assert_eq!(key_family("RESUME_QUICK", "RESUME"), "RESUME");
        assert_eq!(key_family("JUMP_BACKWARD_QUICK", "JUMP_BACKWARD"), "JUMP");
        assert_eq!(key_family("POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_FALSE"), "POP_JUMP_IF_FALSE");
        assert_eq!(key_family("POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NONE"), "POP_JUMP_IF_NONE");
        assert_eq!(key_family("INSTRUMENTED_CALL", "INSTRUMENTED_CALL"), "CALL");
        assert_eq!(key_family("LOAD_FAST_CHECK", "LOAD_FAST_CHECK"), "LOAD_FAST");
        assert_eq!(key_family("LOAD_FAST__LOAD_FAST", "LOAD_FAST"), "LOAD_FAST");
        assert_eq!(key_family("EXTENDED_ARG_QUICK", "EXTENDED_ARG"), "EXTENDED_ARG");
        assert_eq!(key_family("LOAD_FAST_AND_CLEAR", "LOAD_FAST_AND_CLEAR"), "LOAD_FAST_AND_CLEAR");
    }

    #[test]
    fn argreprs_unify_versions() {
        assert_eq!(normalize_argrepr("to 54"), "");
        assert_eq!(normalize_argrepr("to L2"), "");
        assert_eq!(normalize_argrepr("NULL + getattr"), "getattr");
        assert_eq!(normalize_argrepr("getattr + NULL"), "getattr");
        assert_eq!(normalize_argrepr("NULL|self + meth"), "meth");
        assert_eq!(normalize_argrepr("meth + NULL|self"), "meth");
        assert_eq!(normalize_argrepr("bool(<)"), "<");
        assert_eq!(
            normalize_argrepr("<code object <lambda> at 0x7f66d29a9bf0, file \"/tmp/x.py\", line 13>"),
            "<code object <lambda>>"
        );
        assert_eq!(normalize_argrepr("<function f at 0x7f00ab>"), "<function f>");
        assert_eq!(normalize_argrepr("'to 5x'"), "'to 5x'");
    }

    #[test]
    fn canonical_specialization_names() {
        assert_eq!(canonical_opname("PRECALL_NO_KW_LEN"), "CALL_LEN");
        assert_eq!(canonical_opname("CALL_NO_KW_LEN"), "CALL_LEN");
        assert_eq!(canonical_opname("LOAD_METHOD_WITH_VALUES"), "LOAD_ATTR_METHOD_WITH_VALUES");
        assert_eq!(canonical_opname("LOAD_METHOD_MODULE"), "LOAD_ATTR_MODULE");
        assert_eq!(canonical_opname("COMPARE_OP_INT_JUMP"), "COMPARE_OP_INT");
        assert_eq!(canonical_opname("LOAD_ATTR_SLOT"), "LOAD_ATTR_SLOT");
    }
}
