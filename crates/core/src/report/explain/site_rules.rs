//! Rules that read the two specializations of a site: what each specialized form says the site
//! saw (a list, a slot, a bound method…), a form the other interpreter does not have, int/float
//! mixing, and — when no rule names a cause — what the counters prove and nothing more.
//!
//! A specialized opname is a fact about what reached the site when it specialized: CPython
//! picks `LOAD_ATTR_SLOT` only for a `__slots__` member, `FOR_ITER_GEN` only for a generator.
//! [`saw`] turns those facts into words, so a `changed` site says what changed, for every
//! family, without guessing.

use crate::cpython::facts::{cpython, specializes, Shape};
use crate::cpython::opcodes::table_for;
use crate::cpython::spelling::canonical_opname;
use crate::engine::align::RowKind;
use crate::engine::classify::{same_statement, Cause, ChangeKind, SiteView};

use super::context::{ExplainContext, Facts};
use super::program::float_constants;

/// What a site specialized as `opname` saw, in words ("a list", "a `__slots__` slot"); `None`
/// for forms that say nothing about types (3.11's `*_QUICK`, generic forms).
pub(crate) fn saw(opname: &str) -> Option<&'static str> {
    let name = canonical_opname(opname);
    let name = name.as_ref();
    // Whole names first: they say more than their parts.
    let whole = match name {
        "CALL_ALLOC_AND_ENTER_INIT" => "a Python class being instantiated, its `__init__` inlined",
        "CALL_BOUND_METHOD_EXACT_ARGS" | "CALL_BOUND_METHOD_GENERAL" => "a bound method of a Python function",
        "CALL_PY_EXACT_ARGS" => "a Python function called with exactly its positional parameters",
        "CALL_PY_WITH_DEFAULTS" => "a Python function called relying on default arguments",
        "CALL_PY_GENERAL" | "CALL_KW_PY" => "a Python function",
        "CALL_BUILTIN_CLASS" => "a builtin class",
        "CALL_TYPE_1" => "`type(x)`",
        "CALL_STR_1" => "`str(x)`",
        "CALL_TUPLE_1" => "`tuple(x)`",
        "CALL_LEN" => "`len()`",
        "CALL_ISINSTANCE" => "`isinstance()`",
        "CALL_LIST_APPEND" => "`list.append`",
        "CALL_BUILTIN_O" | "CALL_BUILTIN_FAST" | "CALL_BUILTIN_FAST_WITH_KEYWORDS" => "a builtin function",
        "CALL_METHOD_DESCRIPTOR_O"
        | "CALL_METHOD_DESCRIPTOR_FAST"
        | "CALL_METHOD_DESCRIPTOR_NOARGS"
        | "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS" => "a method of a builtin type",
        "CALL_NON_PY_GENERAL" => "a callable that is not a Python function",
        "LOAD_ATTR_INSTANCE_VALUE" => "an instance attribute kept in the object's inline values",
        "LOAD_ATTR_WITH_HINT" | "STORE_ATTR_WITH_HINT" => "an attribute in the instance's `__dict__`",
        "LOAD_ATTR_SLOT" | "STORE_ATTR_SLOT" => "a `__slots__` slot",
        "STORE_ATTR_INSTANCE_VALUE" => "an instance attribute kept in the object's inline values",
        "LOAD_ATTR_MODULE" => "a module attribute",
        "LOAD_ATTR_CLASS" | "LOAD_ATTR_CLASS_WITH_METACLASS_CHECK" => "an attribute of a class object",
        "LOAD_ATTR_PROPERTY" => "a property",
        "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN" => "a class with a Python `__getattribute__`",
        "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES" | "LOAD_ATTR_NONDESCRIPTOR_NO_DICT" => {
            "a plain (non-descriptor) class attribute read through an instance"
        }
        "LOAD_ATTR_METHOD_WITH_VALUES" | "LOAD_ATTR_METHOD_NO_DICT" | "LOAD_ATTR_METHOD_LAZY_DICT" | "LOAD_ATTR_METHOD_WITH_DICT" => {
            "a method looked up on an instance"
        }
        "LOAD_GLOBAL_MODULE" => "a module global",
        "LOAD_GLOBAL_BUILTIN" => "a builtin",
        "LOAD_SUPER_ATTR_ATTR" => "an attribute through `super()`",
        "LOAD_SUPER_ATTR_METHOD" => "a method through `super()`",
        "UNPACK_SEQUENCE_TWO_TUPLE" => "a tuple of two",
        "FOR_ITER_GEN" => "a generator",
        // 3.15, measured: a str or bytes iterated directly (not bytearray, array, memoryview,
        // or an iterator made by iter()).
        "FOR_ITER_VIRTUAL" => "a str or bytes iterated directly",
        "SEND_GEN" => "a generator or coroutine",
        "TO_BOOL_NONE" => "`None`",
        "TO_BOOL_ALWAYS_TRUE" => "an instance of a class without `__bool__` or `__len__`",
        _ => "",
    };
    if !whole.is_empty() {
        return Some(whole);
    }
    // Then the type a family's form names (`BINARY_SUBSCR_LIST_INT`, `CONTAINS_OP_SET`).
    let family_forms = ["BINARY_SUBSCR_", "STORE_SUBSCR_", "FOR_ITER_", "UNPACK_SEQUENCE_", "CONTAINS_OP_", "TO_BOOL_", "COMPARE_OP_", "BINARY_OP_"];
    let rest = family_forms.iter().find_map(|p| name.strip_prefix(p))?;
    let tokens: Vec<&str> = rest.split('_').collect();
    let ty = |t: &str| match t {
        "LIST" => Some("a list"),
        "TUPLE" => Some("a tuple"),
        "DICT" => Some("a dict"),
        "SET" => Some("a set or frozenset"),
        "RANGE" => Some("a range"),
        "STR" | "UNICODE" => Some("a str"),
        "INT" => Some("an int"),
        "FLOAT" => Some("a float"),
        "BOOL" => Some("a bool"),
        "GETITEM" => Some("a class with a Python `__getitem__`"),
        _ => None,
    };
    // The container comes first (`LIST_INT`: a list indexed by an int).
    tokens.iter().find_map(|t| ty(t))
}

/// The specialization exists in one side's CPython only: the other interpreter cannot
/// specialize the site that way, whatever the program does.
pub(super) fn version_lacks(f: &Facts) -> Option<(Cause, String)> {
    let (b, h) = (f.base?, f.head?);
    let (vb, vh) = (b.rules.version, h.rules.version);
    if vb == vh {
        return None;
    }
    let (absent_in, present_in, name, other) = if f.kind_is(&[ChangeKind::Lost, ChangeKind::Changed]) && b.specialized() && !exists(vh, &b.op().name)? {
        (vh, vb, &b.op().name, h)
    } else if f.kind_is(&[ChangeKind::Gained, ChangeKind::Changed]) && h.specialized() && !exists(vb, &h.op().name)? {
        (vb, vh, &h.op().name, b)
    } else {
        return None;
    };
    let what = saw(name).map(|w| format!(", for {w}")).unwrap_or_default();
    let instead = if other.specialized() { format!("; it specializes as {} instead", other.op().name) } else { String::new() };
    Some((
        Cause::VersionLacks,
        format!(
            "CPython {}.{} has no {name} (CPython {}.{}'s specialization of this site{what}){instead}",
            absent_in.0, absent_in.1, present_in.0, present_in.1
        ),
    ))
}

/// Whether CPython `version` has a specialization spelled `opname` (in any version's spelling);
/// `None` when specdiff has no opcode table for that version.
fn exists(version: (u32, u32), opname: &str) -> Option<bool> {
    let table = table_for(version)?;
    let want = canonical_opname(opname);
    Some(table.ops.iter().any(|(name, _, _)| canonical_opname(name) == want))
}

/// `BINARY_OP_*_INT` / `*_FLOAT` lost or switched: operands mix int and float. A switch names
/// both types itself; a loss needs evidence that floats are new ([`float_evidence`], asked
/// only then: it reads the programs' facts).
pub(super) fn int_float_mixing(f: &Facts, float_evidence: impl FnOnce() -> Option<String>) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost, ChangeKind::Changed, ChangeKind::Churning, ChangeKind::BackedOff]) {
        return None;
    }
    if !matches!(f.change.family.as_str(), "BINARY_OP" | "COMPARE_OP") {
        return None;
    }
    let base = f.change.base.as_deref()?;
    let head = f.change.head.as_deref()?;
    // 3.14's `BINARY_OP_SUBSCR_LIST_INT` indexes a list by an int: no arithmetic.
    if base.contains("SUBSCR") || head.contains("SUBSCR") {
        return None;
    }
    // ASCII names: `to_ascii_lowercase` keeps Unicode's case tables out of the web viewer.
    let ty = |n: &str| ["INT", "FLOAT"].into_iter().find(|t| n.split('_').any(|p| p == *t));
    let op = f.change.operand.as_deref().map(|o| format!("`{o}` ")).unwrap_or_default();
    let why = match (ty(base), ty(head)) {
        (Some(a), Some(b)) if a != b => format!(
            "{op}now works on {} where it worked on {} ({base} → {head}): int/float mixing",
            b.to_ascii_lowercase(),
            a.to_ascii_lowercase()
        ),
        // 3.14's `BINARY_OP_EXTEND` specializes mixed operands (int and float among them).
        (Some(a), None) if f.change.kind != ChangeKind::Changed || head == "BINARY_OP_EXTEND" => {
            let evidence = float_evidence()?;
            let version = f.head?.rules.version;
            format!(
                "int/float mixing: {op}was specialized for {} operands ({base}) and now sees mixed types ({evidence}){}",
                a.to_ascii_lowercase(),
                mixed_operands_clause(version, &f.change.family, head)
            )
        }
        _ if f.change.kind == ChangeKind::Churning && ty(base).is_some() => {
            format!("int/float mixing: {op}flips between int and float specializations")
        }
        _ => return None,
    };
    Some((Cause::IntFloatMixing, why))
}

/// What `version` does with an int and a float at a `family` site, from its measured facts:
/// nothing when the version was not measured.
fn mixed_operands_clause(version: (u32, u32), family: &str, head: &str) -> String {
    let (shape, what) = if family == "COMPARE_OP" {
        (Shape::IntLessFloat, "a comparison of an int with a float")
    } else {
        (Shape::IntPlusFloat, "arithmetic on an int and a float")
    };
    match specializes(version, shape) {
        Some(false) => format!("; {} has no specialized form for {what}", cpython(version)),
        Some(true) if head == "BINARY_OP_EXTEND" => {
            format!("; {} specializes {what} as BINARY_OP_EXTEND", cpython(version))
        }
        _ => String::new(),
    }
}

/// Why floats may reach the site, from the function itself (issue 29: a float constant
/// anywhere in the module "explained" an Enum comparison): a float form among the function's
/// other head sites, or a float constant the head function loads that the base function does
/// not. Silent otherwise.
pub(super) fn float_evidence(_ctx: &ExplainContext, f: &Facts) -> Option<String> {
    let h = f.head?;
    let b = f.base?;
    if let Some(i) = h.code.instructions.iter().find(|i| h.dump.op(i).specialized && h.dump.op(i).name.contains("FLOAT")) {
        return Some(format!("{} at line {}", h.dump.op(i).name, i.line.unwrap_or(0)));
    }
    let before = float_constants(b.dump, b.code);
    let after = float_constants(h.dump, h.code);
    if let Some((value, line)) = after.iter().find(|(r, _)| !before.iter().any(|(o, _)| o == r)) {
        return Some(format!("head adds the float constant {value} at line {line}"));
    }
    // A float passed to this function on a line that calls it by name (`hot(scores, 49.5)`),
    // in code of the same module, new in head.
    let passed = |v: &SiteView| -> Vec<(String, u32)> {
        let name = v.dump.str(v.code.name);
        let call = format!("{name}(");
        let module = v.dump.str(v.code.module);
        v.dump
            .code
            .iter()
            .filter(|c| c.file == v.code.file && v.dump.str(c.module) == module)
            .flat_map(|c| float_constants(v.dump, c))
            .filter(|(_, l)| v.dump.source_line(v.code.file, *l).is_some_and(|t| t.contains(&call)))
            .collect()
    };
    let then = passed(&b);
    let (value, line) = passed(&h).into_iter().find(|(r, _)| !then.iter().any(|(o, _)| o == r))?;
    Some(format!("head passes the float {value} to `{}` at line {line}", h.dump.str(h.code.name)))
}

/// One specialization replaced another: each names what the site saw.
pub(super) fn operand_type(f: &Facts) -> Option<(Cause, String)> {
    if f.change.kind != ChangeKind::Changed {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    let (sb, sh) = (saw(&b.op().name)?, saw(&h.op().name)?);
    if sb == sh || !same_statement(&b, &h) {
        return None;
    }
    // A base whose site already held head's form saw both kinds: which form each snapshot
    // caught is timing, not a change (pycparser's `if n.declname`, str and `None` in both
    // versions; a call that meets a function and a bound method in both). Head holding both
    // is a change seen happening (a builtin shadowed by a global assigned during the run).
    let (fb, fh) = (&b.op().name, &h.op().name);
    let base_held_both = f.change.base_churn.as_ref().is_some_and(|ch| ch.seen.contains(fb) && ch.seen.contains(fh));
    // So did two operand-typed sites that both miss: each met operands its own form refuses.
    // (An attribute's form says what the attribute is, which misses on other classes leave
    // true: pyparsing 3.2's `mayReturnEmpty`, a property in every subclass.)
    let misses = |v: &SiteView| v.counter().is_some_and(|k| k.misses() > 0);
    let operand_typed = OPERAND_FAMILIES.contains(&f.change.family.as_str());
    if base_held_both || (operand_typed && misses(&b) && misses(&h)) {
        return None;
    }
    let subject = subject(f.change.family.as_str(), f.change.operand.as_deref());
    Some((Cause::OperandType, format!("{subject} is now {sh} where it was {sb}")))
}

/// The families whose specialization depends only on the types of their operands.
const OPERAND_FAMILIES: [&str; 9] =
    ["BINARY_OP", "COMPARE_OP", "BINARY_SUBSCR", "STORE_SUBSCR", "CONTAINS_OP", "UNPACK_SEQUENCE", "FOR_ITER", "TO_BOOL", "SEND"];

/// An operand-typed site (its specialization depends only on operand types) lost its form in
/// one interpreter: what it was specialized for no longer reaches it.
pub(super) fn operand_lost(f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost, ChangeKind::BackedOff]) {
        return None;
    }
    if !OPERAND_FAMILIES.contains(&f.change.family.as_str()) {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != h.rules.version || h.counter().is_none_or(|k| k.failures() == 0) || slices(&b) != slices(&h) {
        return None;
    }
    let was = base_saw(&b)?;
    let subject = subject(f.change.family.as_str(), f.change.operand.as_deref());
    Some((
        Cause::OperandType,
        // "Exactly": the forms check the exact type, so a subclass fails them too (jinja2 3.1's
        // lexer rules became a `NamedTuple`, still a tuple).
        format!("{subject} is no longer exactly {was}: base specialized it for that ({}), and head's attempts fail on what reaches it now", b.op().name),
    ))
}

/// The site subscripts with a constant slice (`s[:6]`: 3.14+ fold it into `BINARY_OP []` with a
/// `slice(…)` constant): another operation than an index, so a site paired with one on the other
/// side says nothing about what reaches either (issue 29: dateutil's `….split(…, 1)[0]` paired
/// with `frac.group(1)[:6]` was "no longer a list").
fn slices(v: &SiteView) -> bool {
    v.before().is_some_and(|i| v.dump.str(i.argrepr).starts_with("slice("))
}

/// What the words of [`saw`] describe at a site of `family`.
fn subject(family: &str, operand: Option<&str>) -> String {
    match (family, operand) {
        ("LOAD_ATTR" | "LOAD_METHOD" | "STORE_ATTR" | "LOAD_SUPER_ATTR", Some(a)) => format!("`.{a}`"),
        ("LOAD_GLOBAL", Some(g)) => format!("`{g}`"),
        ("CALL" | "CALL_KW" | "PRECALL", _) => "the callee".into(),
        ("FOR_ITER", _) => "the iterable".into(),
        ("BINARY_SUBSCR" | "STORE_SUBSCR", _) => "the container".into(),
        ("CONTAINS_OP", _) => "the container tested with `in`".into(),
        ("UNPACK_SEQUENCE", _) => "the sequence unpacked".into(),
        ("TO_BOOL", _) => "the value tested".into(),
        ("SEND", _) => "the object awaited or delegated to (`await`, `yield from`)".into(),
        (_, Some(o)) if !o.is_empty() => format!("the operand of `{o}`"),
        _ => "the operand".into(),
    }
}

/// No rule named a cause: say only what the counters prove. A still-specialized site that
/// misses has a guard that fails; a site that keeps re-specializing sees varying input; a lost
/// site in unchanged code of one interpreter sees different input than in base.
pub(super) fn site_guard(f: &Facts) -> Option<(Cause, String)> {
    let c = f.change;
    match c.kind {
        ChangeKind::Churning => {
            let seen = c.head_churn.as_ref().map(|ch| ch.seen.join(", ")).unwrap_or_default();
            let n = c.head_churn.as_ref().map_or(0, |ch| ch.effective_flips);
            Some((Cause::Churning, format!("what reaches this site varies: it re-specialized {n} times while sampled ({seen})")))
        }
        // The miss count itself leads the sentence (wording::evidence).
        ChangeKind::Missing => Some((Cause::GuardMisses, guard_words(c.family.as_str()).to_string())),
        ChangeKind::Lost | ChangeKind::BackedOff if c.head_counter.is_some_and(|k| k.failures() > 0) => {
            // Only a loss of base's specialization says what reaches the site changed: a site
            // generic on both sides (backed off) had failed in base already (markdown's
            // `isblocklevel`: 9 failed attempts in base).
            let (b, h) = (f.base?, f.head?);
            if b.rules.version != h.rules.version {
                let (vb, vh) = (b.rules.version, h.rules.version);
                return Some((
                    Cause::InterpreterChanged,
                    format!(
                        "the runs use different interpreters (CPython {}.{} → {}.{}), and {}.{}'s specializer refuses what reaches this site{}",
                        vb.0, vb.1, vh.0, vh.1, vh.0, vh.1,
                        version_difference(vb, vh, &b.op().name)
                    ),
                ));
            }
            // A call's callee can be defined differently while its line stays the same (a
            // parameter added to it): "what reaches it" would not be the whole story.
            if c.row_kind != RowKind::Same || c.kind != ChangeKind::Lost || matches!(c.family.as_str(), "CALL" | "CALL_KW" | "PRECALL") {
                return None;
            }
            // "The same" must hold of the text too: alignment pairs sites by their keys, and a
            // rewritten function can pair two different lines that load the same name.
            let (tb, th) = (b.source_text(), h.source_text());
            if tb.is_none() || tb != th {
                return None;
            }
            let was = base_saw(&b).map(|w| format!(" (specialized for {w} in base)")).unwrap_or_default();
            Some((
                Cause::InputsChanged,
                format!("the site's code is the same{was} and the interpreter too, so what reaches it changed: a different type or callee, several of them, or instances laid out differently (their attributes set in another order or number)"),
            ))
        }
        _ => None,
    }
}

/// A measured difference between the two versions that bears on a site specialized as
/// `base_form` in `vb` (facts.rs): said as a difference, not as the proven cause.
fn version_difference(vb: (u32, u32), vh: (u32, u32), base_form: &str) -> String {
    let base_form = canonical_opname(base_form);
    if base_form == "BINARY_OP_ADD_INT"
        && specializes(vb, Shape::BigIntPlusInt) == Some(true)
        && specializes(vh, Shape::BigIntPlusInt) == Some(false)
    {
        return format!(
            "; one measured difference: {} leaves `+` generic on an int as large as 10**12, which {} specializes",
            cpython(vh),
            cpython(vb)
        );
    }
    String::new()
}

fn base_saw(b: &SiteView) -> Option<&'static str> {
    b.specialized().then(|| saw(&b.op().name)).flatten()
}

/// What a failing guard of `family` means.
fn guard_words(family: &str) -> &'static str {
    match family {
        "LOAD_ATTR" | "LOAD_METHOD" | "STORE_ATTR" | "LOAD_SUPER_ATTR" => {
            "its guard fails: the receiver's type, or that type's version (it changes when the class is modified), is not the one it was specialized for"
        }
        "CALL" | "CALL_KW" | "PRECALL" => {
            "its guard fails: the callee is not the one it was specialized for, or (in deep recursion) its frame does not fit the thread's data stack"
        }
        "LOAD_GLOBAL" => "its guard fails: the module's or the builtins' dict keys changed since it specialized",
        "BINARY_OP" | "COMPARE_OP" | "CONTAINS_OP" | "TO_BOOL" => "its guard fails: operands of other types reach it",
        "BINARY_SUBSCR" | "STORE_SUBSCR" | "UNPACK_SEQUENCE" | "FOR_ITER" | "SEND" => {
            "its guard fails: containers or iterables of other types (or sizes) reach it"
        }
        _ => "its guard fails on what reaches it",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::classify::Change;

    fn facts(c: &Change) -> Facts<'_> {
        Facts { change: c, base: None, head: None, head_sites: &[], head_index: None, head_code: None, base_key: None }
    }

    fn change(kind: ChangeKind, family: &str, base: &str, head: &str) -> Change {
        Change { operand: Some("+".into()), ..Change::for_test(kind, family, (Some(base), Some(head)), (Some(1), Some(1))) }
    }

    #[test]
    fn int_float_rule() {
        let why = |c: &Change| int_float_mixing(&facts(c), || None).map(|(_, w)| w);
        // A loss names int/float mixing only with evidence of floats (none here).
        let c = change(ChangeKind::Lost, "BINARY_OP", "BINARY_OP_ADD_INT", "BINARY_OP");
        assert_eq!(why(&c), None);
        let c = change(ChangeKind::Changed, "BINARY_OP", "BINARY_OP_ADD_INT", "BINARY_OP_ADD_UNICODE");
        assert_eq!(why(&c), None, "int → str is no int/float mixing");
        let c = change(ChangeKind::Changed, "BINARY_OP", "BINARY_OP_SUBSCR_LIST_INT", "BINARY_OP_SUBSCR_DICT");
        assert_eq!(why(&c), None, "3.14 subscripts are no arithmetic");
        let c = change(ChangeKind::Changed, "BINARY_OP", "BINARY_OP_ADD_INT", "BINARY_OP_ADD_FLOAT");
        assert!(why(&c).unwrap().contains("now works on float where it worked on int"));
        let c = change(ChangeKind::Lost, "BINARY_OP", "BINARY_OP_ADD_UNICODE", "BINARY_OP");
        assert_eq!(why(&c), None);
        let c = change(ChangeKind::Lost, "LOAD_ATTR", "LOAD_ATTR_SLOT", "LOAD_ATTR");
        assert_eq!(why(&c), None);
    }


    #[test]
    fn forms_say_what_the_site_saw() {
        assert_eq!(saw("BINARY_SUBSCR_LIST_INT"), Some("a list"));
        assert_eq!(saw("BINARY_SUBSCR_TUPLE_INT"), Some("a tuple"));
        assert_eq!(saw("FOR_ITER_RANGE"), Some("a range"));
        assert_eq!(saw("FOR_ITER_GEN"), Some("a generator"));
        assert_eq!(saw("LOAD_ATTR_SLOT"), Some("a `__slots__` slot"));
        // 3.11 spellings read as their 3.13 names.
        assert_eq!(saw("LOAD_METHOD_WITH_VALUES"), Some("a method looked up on an instance"));
        assert_eq!(saw("PRECALL_NO_KW_LEN"), Some("`len()`"));
        assert_eq!(saw("COMPARE_OP_INT_JUMP"), Some("an int"));
        // Generic and quickened forms say nothing.
        assert_eq!(saw("LOAD_ATTR"), None);
        assert_eq!(saw("LOAD_FAST__LOAD_FAST"), None);
        assert_eq!(saw("BINARY_OP_ADAPTIVE"), None);
    }

    #[test]
    fn guard_rule_names_no_receiver_for_a_plain_loss() {
        let mut c = change(ChangeKind::Missing, "LOAD_ATTR", "LOAD_ATTR_SLOT", "LOAD_ATTR_SLOT");
        let (cause, why) = site_guard(&facts(&c)).unwrap();
        assert_eq!(cause, Cause::GuardMisses);
        assert!(why.starts_with("its guard fails: the receiver's type"), "{why}");
        c.kind = ChangeKind::Lost;
        assert_eq!(site_guard(&facts(&c)), None, "a loss without failing attempts says nothing");
    }

    #[test]
    fn every_table_form_of_a_typed_family_has_words() {
        // A form the tables know but `saw` does not describe would make `changed` rows of
        // that family unexplained: list them so that a new CPython's forms get words.
        let typed = ["BINARY_SUBSCR_", "STORE_SUBSCR_", "FOR_ITER_", "UNPACK_SEQUENCE_", "CONTAINS_OP_", "LOAD_GLOBAL_", "LOAD_SUPER_ATTR_"];
        let mut missing = Vec::new();
        for v in crate::cpython::opcodes::known_versions() {
            for (name, _, kind) in table_for(v).unwrap().ops {
                let typed_form = typed.iter().any(|p| name.starts_with(p));
                if *kind == crate::cpython::opcodes::OpKind::Specialized && typed_form && saw(name).is_none() {
                    missing.push(format!("{}.{} {name}", v.0, v.1));
                }
            }
        }
        assert!(missing.is_empty(), "{missing:?}");
    }
}
