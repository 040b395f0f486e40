//! The callee rule: a call site whose specialization changed while the line calls a function
//! that head defines differently (a decorator added or removed, a new signature, a generator,
//! a class where there was a function), or calls another function than in base. The callee is
//! found by name on the call's source line and looked up in both programs' definitions
//! ([`super::program`]; `super().name(` up the caller's class's bases); the sentence quotes the
//! definition's line.
//!
//! And the arity rule: a call whose number of arguments changed, lost (or gained) a form made
//! for an exact number of them (`CALL_STR_1`, `CALL_BUILTIN_O`, `CALL_PY_EXACT_ARGS` …).

use crate::cpython::facts::{cpython, specializes, Shape};
use crate::cpython::spelling::canonical_opname;
use crate::engine::classify::{Cause, ChangeKind, SiteView};

use super::context::{ExplainContext, Facts};
use super::class_rules::receiver_of;
use super::program::{parameters, Def, DefKind, ProgramFacts};

/// Names called on a line: identifiers right before `(` (`obj.method(` gives `method`), each
/// with whether it is an attribute (`.` before it: a method or a module's function).
pub(super) fn called_names(line: &str) -> Vec<(&str, bool)> {
    let bytes = line.as_bytes();
    let mut out: Vec<(&str, bool)> = Vec::new();
    for (i, _) in line.match_indices('(') {
        let end = i;
        let start = bytes[..end].iter().rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).map_or(0, |p| p + 1);
        let name = &line[start..end];
        let attribute = start > 0 && bytes[start - 1] == b'.';
        if !name.is_empty() && !name.as_bytes()[0].is_ascii_digit() && !out.iter().any(|(n, _)| *n == name) {
            out.push((name, attribute));
        }
    }
    out
}

/// The dotted expression each call on `line` calls, in order: `os.path.exists` for
/// `os.path.exists(f)`, `f.exists` for `f.exists()`, as far as the text shows it.
pub(super) fn called_chains(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    line.match_indices('(')
        .map(|(end, _)| &line[bytes[..end].iter().rposition(|&b| !word(b)).map_or(0, |p| p + 1)..end])
        .filter(|chain| chain.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_'))
        .collect()
}

/// A definition with its key `(module, qualname)`.
type Found<'a> = (&'a (String, String), &'a Def);

/// The definition a module-level `name` of `module` is, following what the module imports
/// (`from m import f`, re-exports of re-exports, and `from m import *`); `None` when the dump
/// does not show it (a module that is not in the dump, a name bound by other code).
pub(super) fn global<'a>(facts: &'a ProgramFacts, module: &str, name: &str) -> Option<Found<'a>> {
    resolve(facts, module, name, &mut STAR_LOOKUPS.clone()).ok().flatten()
}

/// Module lookups one [`global`] may make: `networkx`'s `nx.shortest_path` is four star
/// imports deep, through packages that star-import dozens of modules each.
const STAR_LOOKUPS: u32 = 2048;

/// What `name` is in `module`: `Ok(None)` when the module's statements and star imports do
/// not bind it, `Err(())` when the dump cannot tell.
fn resolve<'a>(facts: &'a ProgramFacts, module: &str, name: &str, budget: &mut u32) -> Result<Option<Found<'a>>, ()> {
    *budget = budget.checked_sub(1).ok_or(())?;
    if let Some(found) = entry(facts, (module.to_string(), name.to_string())) {
        return match &found.1.kind {
            DefKind::Import { module: m, name: Some(n) } => resolve(facts, m, n, budget)?.map(Some).ok_or(()),
            DefKind::Import { name: None, .. } => Err(()),
            _ => Ok(Some(found)),
        };
    }
    if !facts.files.contains_key(module) {
        return Err(()); // Not in the dump: it could bind anything.
    }
    let Some(stars) = facts.stars.get(module) else { return Ok(None) };
    // A star import leaves out names that start with `_` (without `__all__`, which is not
    // read here); two star imports that bind the name to different definitions would need
    // the statements' order to tell which is last: unknown.
    if name.starts_with('_') {
        return Ok(None);
    }
    let mut found: Option<Found<'a>> = None;
    for star in stars {
        if let Some(f) = resolve(facts, star, name, budget)? {
            if found.is_some_and(|g| g.0 != f.0) {
                return Err(());
            }
            found = Some(f);
        }
    }
    Ok(found)
}

/// The method `name` of the class `class` (a qualname in `module`): its own, else the first of
/// its chain of single bases defined in the same module ([`super_callee`]).
fn method<'a>(facts: &'a ProgramFacts, module: &str, class: &str, name: &str) -> Option<Found<'a>> {
    entry(facts, (module.to_string(), format!("{class}.{name}"))).or_else(|| super_callee(facts, module, class, name))
}

/// The definition `key`, with the key as the map holds it.
fn entry(facts: &ProgramFacts, key: (String, String)) -> Option<Found<'_>> {
    facts.defs.get_indexed(facts.defs.find_index(&key).ok()?)
}

/// The one definition a call of `name` on `line`, in the code `caller` (a qualname) of
/// `module`, reaches; `None` when the dump does not show which. Never a search by name across
/// the program (issue 29: `memoryview(buf).cast(` is not `typing.cast`):
/// - a bare name: the calling module's own definition, or the one it imports under that name;
/// - an attribute: only through a receiver the dump resolves: `self.`/`cls.` in a method (its
///   class, then the class's single bases in the module), a module the calling module imports
///   (`import m` … `m.f(`), or a class the module defines or imports (`C.f(`).
pub(super) fn callee<'a>(facts: &'a ProgramFacts, module: &str, caller: &str, line: &str, (name, attribute): (&'a str, bool)) -> Option<Found<'a>> {
    if !attribute {
        return global(facts, module, name);
    }
    let receiver = receiver_of(line, name)?;
    if matches!(receiver, "self" | "cls") {
        let class = caller.rsplit_once('.')?.0;
        return method(facts, module, class, name);
    }
    if let Some(m) = imported_module(facts, module, receiver) {
        return global(facts, &m, name);
    }
    match &facts.defs.get(&(module.to_string(), receiver.to_string()))?.kind {
        DefKind::Import { module: m, name: Some(n) } => {
            // `from m import C`: a class.
            let (key, def) = global(facts, m, n)?;
            matches!(def.kind, DefKind::Class { .. }).then_some(())?;
            method(facts, &key.0, &key.1, name)
        }
        DefKind::Class { .. } => method(facts, module, receiver, name),
        _ => None,
    }
}

/// The module `receiver` names in `module`, as the module imports it: `import m` (`import
/// a.b` binds `a`), or `from pkg import sub` where `pkg.sub` is a module in the dump.
pub(super) fn imported_module(facts: &ProgramFacts, module: &str, receiver: &str) -> Option<String> {
    match &facts.defs.get(&(module.to_string(), receiver.to_string()))?.kind {
        DefKind::Import { module: m, name: None } => Some(m.clone()),
        DefKind::Import { module: m, name: Some(n) } => Some(format!("{m}.{n}")).filter(|sub| facts.files.contains_key(sub)),
        _ => None,
    }
}

fn decorators(d: &Def) -> &[String] {
    match &d.kind {
        DefKind::Function { decorators, .. } => decorators,
        _ => &[],
    }
}

/// How a definition changed between base and head, in words (`at`: where head defines it,
/// `file:line`); `None` when it did not.
fn definition_change(name: &str, at: &str, now: &Def, then: &Def) -> Option<String> {
    let (dn, dt) = (decorators(now), decorators(then));
    // One decorator spelled two ways (`@not_implemented_for` imported, `@nx.utils.
    // not_implemented_for` through the package: networkx 2.8 → 3.4) is not a new one.
    let last = |d: &String| d.rsplit('.').next().unwrap_or(d).to_string();
    // `self.f()` where `f` is a property calls what the property returns, not `f`: its
    // definition says nothing of the callee (marshmallow 3.21's `set_class` went from a
    // `@property` returning `set` to `set_class = OrderedSet`; the call lost `CALL_BUILTIN_CLASS`
    // to the new callee, a Python class, not to the decorator).
    let property = |ds: &[String]| ds.iter().any(|d| matches!(last(d).as_str(), "property" | "cached_property" | "getter" | "setter" | "deleter"));
    if property(dn) || property(dt) {
        return None;
    }
    let (ln, lt): (Vec<String>, Vec<String>) = (dn.iter().map(last).collect(), dt.iter().map(last).collect());
    if ln != lt {
        let added: Vec<&String> = dn.iter().filter(|d| !lt.contains(&last(d))).collect();
        let removed: Vec<&String> = dt.iter().filter(|d| !ln.contains(&last(d))).collect();
        return Some(match (added.first(), removed.first()) {
            (Some(a), _) => format!("`{name}` is wrapped by `@{a}` in head ({at}): the call goes to what the decorator returns, not to the function"),
            (None, Some(r)) => format!("`{name}` is no longer wrapped by `@{r}` in head ({at})"),
            (None, None) => return None,
        });
    }
    match (&now.kind, &then.kind) {
        (DefKind::Function { generator: true, .. }, DefKind::Function { generator: false, .. }) => {
            return Some(format!("`{name}` became a generator function in head ({at})"));
        }
        (DefKind::Function { generator: false, .. }, DefKind::Function { generator: true, .. }) => {
            return Some(format!("`{name}` is no longer a generator function in head ({at})"));
        }
        (DefKind::Class { .. }, DefKind::Function { .. }) => return Some(format!("`{name}` is a class in head ({at}), where it was a function")),
        (DefKind::Function { .. }, DefKind::Class { .. }) => return Some(format!("`{name}` is a function in head ({at}), where it was a class")),
        (DefKind::Value(_), DefKind::Function { .. }) => {
            return Some(format!("`{name}` is assigned a value in head ({at}), where it was a `def`"))
        }
        (DefKind::Import { module, .. }, DefKind::Function { .. }) => {
            return Some(format!("`{name}` is imported from `{module}` in head ({at}), where it was a `def`"))
        }
        _ => {}
    }
    // Annotations and default values do not change how a call is specialized; the parameters do.
    let shape = |d: &Def| d.signature.as_deref().and_then(parameters);
    match (shape(now), shape(then)) {
        (Some(n), Some(t)) if n != t => Some(format!("`{name}`'s parameters changed: `{n}` in head ({at}), were `{t}`")),
        _ => None,
    }
}

/// A call site whose callee's definition changed, or whose line calls another function.
pub(super) fn callee_changed(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let kinds = [ChangeKind::Lost, ChangeKind::Missing, ChangeKind::BackedOff, ChangeKind::Changed, ChangeKind::Churning];
    if !f.kind_is(&kinds) || !matches!(f.change.family.as_str(), "CALL" | "CALL_KW" | "PRECALL") {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != h.rules.version {
        return None;
    }
    let text_h = h.dump.source_line(h.code.file, h.line()?)?;
    let text_b = b.dump.source_line(b.code.file, b.line()?)?;
    let (names_h, names_b) = (called_names(text_h), called_names(text_b));
    let (base, head) = (ctx.base_facts(), ctx.head_facts());
    let (module_h, module_b) = (h.dump.str(h.code.module), b.dump.str(b.code.module));
    let called_in = |names: &[(&str, bool)], n: &str| names.iter().any(|(o, _)| *o == n);
    // The line calls a function it did not call in base, which head defines.
    let (caller_h, caller_b) = (h.dump.str(h.code.qualname), b.dump.str(b.code.qualname));
    // "Now goes to" reads the line's change as the cause: only when the rows are one statement.
    let statement = crate::engine::classify::same_statement(&b, &h);
    for &n in names_h.iter().filter(|(n, _)| statement && !called_in(&names_b, n)) {
        if let Some((key, d)) = callee(head, module_h, caller_h, text_h, n) {
            let was: Vec<String> = names_b.iter().filter(|(o, _)| !called_in(&names_h, o)).map(|(o, _)| format!("`{o}`")).collect();
            let was = if was.is_empty() { String::new() } else { format!(" where it called {}", was.join(", ")) };
            return Some((Cause::CalleeChanged, format!("the call now goes to {}{was}", head.place(key, d))));
        }
    }
    for &n in names_h.iter().filter(|(n, _)| called_in(&names_b, n)) {
        let through_super = |line: &str| n.1 && line.contains(&format!("super().{}(", n.0));
        let Some((key, now)) = reach(head, module_h, caller_h, text_h, through_super(text_h), n) else { continue };
        // The same definition must be the only one base's line could reach too.
        let Some((key_b, then)) = reach(base, module_b, caller_b, text_b, through_super(text_b), n) else { continue };
        if key_b != key {
            continue;
        }
        // Through `super()` the method is named with its class: it is not the caller's own.
        let name = if through_super(text_h) { key.1.as_str() } else { n.0 };
        if let Some(why) = metaclass_change(h.rules.version, name, now, then) {
            return Some((Cause::Metaclass, why));
        }
        let qualified = format!("{}:{}", key.0, key.1);
        if let Some(why) = definition_change(&qualified, &head.at(key, now), now, then) {
            return Some((Cause::CalleeChanged, why));
        }
    }
    None
}

/// What a call of `n` in the code `caller` (its qualname) reaches: through `super()` when the
/// line says `super().name(` ([`super_callee`]), else [`callee`].
fn reach<'a>(facts: &'a ProgramFacts, module: &str, caller: &str, line: &str, through_super: bool, n: (&'a str, bool)) -> Option<Found<'a>> {
    if through_super {
        let class = caller.rsplit_once('.')?.0;
        return super_callee(facts, module, class, n.0);
    }
    callee(facts, module, caller, line, n)
}

/// The method `super().name(` reaches from a method of `class` (a qualname in `module`): up
/// the chain of single bases the module defines, the first class whose body defines `name`.
/// `None` when a class on the way has several bases or one defined elsewhere (an import):
/// Python's method resolution order would have to be computed, and naming a wrong method is
/// worse than naming none.
fn super_callee<'a>(facts: &'a ProgramFacts, module: &str, class: &str, name: &str) -> Option<(&'a (String, String), &'a Def)> {
    let in_module = |qualname: &str| facts.defs.iter().find(|((m, q), _)| m == module && q == qualname);
    let mut class = class.to_string();
    // Python cannot make a cycle of bases; a fuzzed dump can.
    for _ in 0..64 {
        let (_, def) = in_module(&class)?;
        let DefKind::Class { bases: Some(bases), .. } = &def.kind else { return None };
        let [base] = bases.as_slice() else { return None };
        if let Some(found) = in_module(&format!("{base}.{name}")) {
            return Some(found);
        }
        class = base.clone();
    }
    None
}

/// The call forms made for an exact number of arguments: what each is for, and the number
/// (`None`: as many as the function has parameters).
const FIXED_ARITY: [(&str, &str, Option<u32>); 11] = [
    ("CALL_STR_1", "`str()` with one argument", Some(1)),
    ("CALL_TUPLE_1", "`tuple()` with one argument", Some(1)),
    ("CALL_TYPE_1", "`type()` with one argument", Some(1)),
    ("CALL_LEN", "`len()` with one argument", Some(1)),
    ("CALL_ISINSTANCE", "`isinstance()` with two arguments", Some(2)),
    ("CALL_LIST_APPEND", "`list.append` with one argument", Some(1)),
    ("CALL_BUILTIN_O", "a builtin function taking exactly one argument", Some(1)),
    ("CALL_METHOD_DESCRIPTOR_O", "a method of a builtin type taking exactly one argument", Some(1)),
    ("CALL_METHOD_DESCRIPTOR_NOARGS", "a method of a builtin type taking no argument", Some(0)),
    ("CALL_PY_EXACT_ARGS", "calls passing exactly as many arguments as the function has parameters", None),
    ("CALL_BOUND_METHOD_EXACT_ARGS", "calls passing exactly as many arguments as the function has parameters", None),
];

/// What form `form` (a canonical opname) is for and its number of arguments, when it is made
/// for an exact number.
fn fixed_arity(form: &str) -> Option<(&'static str, Option<u32>)> {
    FIXED_ARITY.iter().find(|(f, _, _)| *f == form).map(|&(_, what, n)| (what, n))
}

/// A call that passes another number of arguments than in base, at a site whose specialized
/// form (base's when lost or changed, head's when gained) is made for an exact number of them.
/// Measured on 3.11–3.14 (`crates/cli/tests/programs/explain/call_arg_count_*`): `str(b)` →
/// `str(b, "ascii")` loses `*_STR_1` (3.11, 3.12) or changes it to `CALL_BUILTIN_CLASS` (3.13+);
/// a call that leaves a parameter to its default changes `CALL_PY_EXACT_ARGS` to
/// `CALL_PY_WITH_DEFAULTS` (3.11, 3.12) or `CALL_PY_GENERAL` (3.13+). The line must call the same
/// names on both sides, so a call of another function is never read as an arity change.
pub(super) fn arg_count(f: &Facts) -> Option<(Cause, String)> {
    if !matches!(f.change.family.as_str(), "CALL" | "PRECALL") {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    // The oparg: the arguments passed, not counting the callee or a method call's `self`.
    let (nb, nh) = (b.primary().arg?, h.primary().arg?);
    let (side, passed) = match f.change.kind {
        ChangeKind::Lost | ChangeKind::Changed if b.specialized() => (b, nb),
        ChangeKind::Gained | ChangeKind::Changed if h.specialized() => (h, nh),
        _ => return None,
    };
    let form = side.op().name.as_str();
    let (what, arity) = fixed_arity(canonical_opname(form).as_ref())?;
    if nb == nh || arity.is_some_and(|a| a != passed) {
        return None;
    }
    let names = |v: &SiteView| Some(called_names(v.dump.source_line(v.code.file, v.line()?)?).into_iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>());
    let (names_b, names_h) = (names(&b)?, names(&h)?);
    if names_b.is_empty() || names_b != names_h {
        return None;
    }
    // The same names on other receivers are other functions (docutils: `os.path.exists(f)` →
    // `f.exists()`, pathlib's method, whose keyword-only parameter is what stops
    // `CALL_PY_EXACT_ARGS`).
    if called_chains(b.source_text()?) != called_chains(h.source_text()?) {
        return None;
    }
    let passes = if nh == 1 { "1 argument".to_string() } else { format!("{nh} arguments") };
    Some((Cause::ArgCount, format!("the call now passes {passes} where it passed {nb}; `{form}` is only for {what}")))
}

/// A called class whose statement names a metaclass in one program and not in the other, on a
/// `version` whose measured facts show class calls specialized only for `type`'s classes.
fn metaclass_change(version: (u32, u32), name: &str, now: &Def, then: &Def) -> Option<String> {
    let (DefKind::Class { metaclass: m_now, .. }, DefKind::Class { metaclass: m_then, .. }) = (&now.kind, &then.kind) else {
        return None;
    };
    if (specializes(version, Shape::ClassCallType), specializes(version, Shape::ClassCallMetaclass)) != (Some(true), Some(false)) {
        return None;
    }
    let named = |m: &str| if m.is_empty() { "a metaclass".to_string() } else { format!("the metaclass `{m}`") };
    let rule = format!("{} specializes a class call only when its metaclass is `type`", cpython(version));
    match (m_now, m_then) {
        (Some(m), None) => Some(format!("class `{name}` is made by {} in head (line {}), by `type` in base; {rule}", named(m), now.line)),
        (None, Some(m)) => Some(format!("class `{name}` is no longer made by {} in head (line {}); {rule}", named(m), now.line)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn called_names_are_read_from_the_line() {
        assert_eq!(called_names("total += area(s) + self.scale(x, len(y))"), [("area", false), ("scale", true), ("len", false)]);
        assert_eq!(called_names("x = (a + b)"), Vec::<(&str, bool)>::new());
    }

    #[test]
    fn definition_changes_say_what_changed() {
        let f = |decorators: Vec<String>, generator, sig: &str| Def {
            kind: DefKind::Function { decorators, generator },
            line: 3,
            signature: Some(sig.to_string()),
            unseen: false,
        };
        let plain = f(vec![], false, "def f(a):");
        assert_eq!(definition_change("f", "m.py:3", &plain, &plain), None);
        let cached = f(vec!["functools.lru_cache".into()], false, "def f(a):");
        assert!(definition_change("f", "m.py:3", &cached, &plain).unwrap().contains("wrapped by `@functools.lru_cache`"));
        let gen = f(vec![], true, "def f(a):");
        assert!(definition_change("f", "m.py:3", &gen, &plain).unwrap().contains("became a generator"));
        let kw = f(vec![], false, "def f(a, *, b=1):");
        assert!(definition_change("f", "m.py:3", &kw, &plain).unwrap().contains("parameters changed: `(a, *, b=…)` in head (m.py:3), were `(a)`"));
        // Annotations alone change nothing a call depends on.
        let annotated = f(vec![], false, "def f(a: int) -> int:");
        assert_eq!(definition_change("f", "m.py:3", &annotated, &plain), None);
        // networkx 2.8 → 3.4: one decorator spelled two ways, and one added.
        let then = f(vec!["not_implemented_for".into()], false, "def f(a):");
        let respelled = f(vec!["nx.utils.not_implemented_for".into()], false, "def f(a):");
        assert_eq!(definition_change("f", "m.py:3", &respelled, &then), None);
        let now = f(vec!["nx.utils.not_implemented_for".into(), "nx._dispatchable".into()], false, "def f(a):");
        let why = definition_change("f", "m.py:3", &now, &then).unwrap();
        assert!(why.contains("wrapped by `@nx._dispatchable`") && !why.contains("not_implemented_for"), "{why}");
        // A property, on either side: the call calls its value, which the definition does not show.
        let value = Def { kind: DefKind::Value(vec!["OrderedSet".into()]), line: 317, signature: None, unseen: false };
        for prop in ["property", "functools.cached_property"] {
            let p = f(vec![prop.into()], false, "def f(self):");
            assert_eq!(definition_change("f", "m.py:3", &value, &p), None, "{prop}");
            assert_eq!(definition_change("f", "m.py:3", &p, &plain), None, "{prop}");
        }
    }

    #[test]
    fn callees_resolve_through_what_the_caller_can_see_never_by_bare_name() {
        let def = |kind: DefKind, line: u32| Def { kind, line, signature: None, unseen: false };
        let function = || DefKind::Function { decorators: vec![], generator: false };
        let import = |m: &str, n: Option<&str>| DefKind::Import { module: m.into(), name: n.map(str::to_string) };
        let mut facts = ProgramFacts::default();
        for (m, q, d) in [
            ("typing", "cast", def(function(), 2119)),
            ("app", "cast", def(import("typing", Some("cast")), 1)),
            ("app", "re", def(import("re", None), 2)),
            ("app", "util", def(import("lib.util", None), 3)),
            ("app", "Shape", def(import("lib.shapes", Some("Shape")), 4)),
            ("app", "Box", def(DefKind::Class { metaclass: None, bases: Some(vec![]) }, 10)),
            ("app", "Box.area", def(function(), 12)),
            ("app", "local", def(function(), 20)),
            ("re", "search", def(function(), 174)),
            ("lib.util", "helper", def(function(), 5)),
            ("lib.shapes", "Shape", def(DefKind::Class { metaclass: None, bases: Some(vec![]) }, 7)),
            ("lib.shapes", "Shape.scale", def(function(), 9)),
            ("other", "decode", def(function(), 1)),
        ] {
            facts.defs.insert((m.into(), q.into()), d);
        }
        facts.files.insert("app".into(), "app.py".into());
        let found = |caller: &str, line: &str, name: &str, attribute: bool| {
            callee(&facts, "app", caller, line, (name, attribute)).map(|(k, d)| format!("{}:{}@{}", k.0, k.1, d.line))
        };
        // chardet: `memoryview(buf).cast(` is no call of typing.cast, imported or not.
        assert_eq!(found("f", "return memoryview(buf).cast('B')", "cast", true), None);
        assert_eq!(found("f", "x = cast(int, y)", "cast", false), Some("typing:cast@2119".into()));
        // mistune: a compiled pattern's `.search(` is not `re.search`; `re.search(` is.
        assert_eq!(found("f", "m = self.pattern.search(text)", "search", true), None);
        assert_eq!(found("f", "m = PATTERN.search(text)", "search", true), None);
        assert_eq!(found("f", "m = re.search(p, text)", "search", true), Some("re:search@174".into()));
        assert_eq!(found("f", "util.helper(1)", "helper", true), Some("lib.util:helper@5".into()));
        assert_eq!(found("Box.total", "return self.area()", "area", true), Some("app:Box.area@12".into()));
        assert_eq!(found("f", "Box.area(b)", "area", true), Some("app:Box.area@12".into()));
        assert_eq!(found("f", "Shape.scale(s, 2)", "scale", true), Some("lib.shapes:Shape.scale@9".into()));
        assert_eq!(found("f", "local()", "local", false), Some("app:local@20".into()));
        // A name the module neither defines nor imports is not another module's `decode`.
        assert_eq!(found("f", "decode(b)", "decode", false), None);
        assert_eq!(found("f", "b.decode()", "decode", true), None);
        let (key, d) = callee(&facts, "app", "f", "local()", ("local", false)).unwrap();
        assert_eq!(facts.place(key, d), "`app:local` (app.py:20)");
    }

    #[test]
    fn super_calls_follow_single_bases_of_the_module_only() {
        let mut facts = ProgramFacts::default();
        let class = |bases: &[&str]| Def {
            kind: DefKind::Class { metaclass: None, bases: Some(bases.iter().map(|b| b.to_string()).collect()) },
            line: 1,
            signature: None,
            unseen: false,
        };
        let method = Def { kind: DefKind::Function { decorators: vec![], generator: false }, line: 2, signature: None, unseen: false };
        let classes = [("A", class(&[])), ("B", class(&["A"])), ("C", class(&["B"])), ("Two", class(&["B", "Mixin"])), ("Lib", class(&["lib.Base"]))];
        for (q, d) in classes.into_iter().chain([("A.m", method.clone()), ("C.m", method)]) {
            facts.defs.insert(("m".into(), q.into()), d);
        }
        let found = |class: &str| super_callee(&facts, "m", class, "m").map(|(k, _)| k.1.clone());
        assert_eq!(found("B"), Some("A.m".into()));
        assert_eq!(found("C"), Some("A.m".into()), "through B, which does not define it, not C's own");
        assert_eq!(found("Two"), None, "two bases: the method resolution order decides");
        assert_eq!(found("Lib"), None, "a base from another module");
        assert_eq!(found("A"), None, "no base defines it");
    }

    #[test]
    fn called_chains_keep_the_receiver() {
        assert_eq!(called_chains("if os.path.exists(f):"), ["os.path.exists"]);
        assert_eq!(called_chains("if f.exists():"), ["f.exists"]);
        assert_eq!(called_chains("x = str(self.a.b(1), (2, 3))"), ["str", "self.a.b"]);
    }

    #[test]
    fn every_fixed_arity_form_is_a_form_of_some_table() {
        // A misspelled name would make the rule silently never fire.
        let canonical: Vec<String> = crate::cpython::opcodes::known_versions()
            .into_iter()
            .flat_map(|v| crate::cpython::opcodes::table_for(v).unwrap().ops.iter().map(|(n, _, _)| canonical_opname(n).into_owned()))
            .collect();
        for (form, _, _) in FIXED_ARITY {
            assert!(canonical.iter().any(|c| c == form), "{form} is in no opcode table");
        }
        // Forms that take any number of arguments are not fixed.
        for form in ["CALL_PY_WITH_DEFAULTS", "CALL_PY_GENERAL", "CALL_BUILTIN_FAST", "CALL_BUILTIN_CLASS", "CALL_METHOD_DESCRIPTOR_FAST"] {
            assert_eq!(fixed_arity(form), None, "{form}");
        }
        assert_eq!(fixed_arity(&canonical_opname("PRECALL_NO_KW_STR_1")), Some(("`str()` with one argument", Some(1))));
    }

    #[test]
    fn a_metaclass_gained_or_lost_is_said_and_an_unchanged_one_is_not() {
        let class = |metaclass: Option<&str>| Def {
            kind: DefKind::Class { metaclass: metaclass.map(str::to_string), bases: Some(vec![]) },
            line: 12,
            signature: None,
            unseen: false,
        };
        let (plain, meta, other) = (class(None), class(Some("Registered")), class(Some("")));
        let v = (3, 13);
        assert!(metaclass_change(v, "P", &meta, &plain).unwrap().starts_with("class `P` is made by the metaclass `Registered` in head (line 12), by `type` in base"));
        assert!(metaclass_change(v, "P", &meta, &plain).unwrap().ends_with("CPython 3.13 specializes a class call only when its metaclass is `type`"));
        assert!(metaclass_change(v, "P", &plain, &other).unwrap().starts_with("class `P` is no longer made by a metaclass in head"));
        assert_eq!(metaclass_change(v, "P", &meta, &meta), None);
        assert_eq!(metaclass_change(v, "P", &plain, &plain), None);
        let function = Def { kind: DefKind::Function { decorators: vec![], generator: false }, line: 3, signature: None, unseen: false };
        assert_eq!(metaclass_change(v, "P", &meta, &function), None, "a function that became a class is the callee rule's");
        // 3.12 specializes no class call without a Python `__init__` inlined, metaclass or not;
        // a version with no measured facts says nothing.
        assert_eq!(metaclass_change((3, 12), "P", &meta, &plain), None);
        assert_eq!(metaclass_change((3, 16), "P", &meta, &plain), None);
    }
}
