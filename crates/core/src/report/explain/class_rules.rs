//! Rules that name a class change behind an attribute site: a class whose instances have the
//! site's attribute gained or lost an attribute hook or `__slots__`, turned the attribute into
//! a property or class-level definition, has its attributes assigned while the program runs,
//! or sets attributes on its instances outside `__init__`; or a class whose own attributes are
//! read is made by a metaclass now. Each compares the class's facts
//! ([`super::program`]) in base and head, so unchanged classes never explain anything, and
//! each names the class, the definition and its line in head.

use crate::cpython::facts::{cpython, specializes, Shape};
use crate::engine::classify::{Cause, ChangeKind};

use super::callee_rules::{global, imported_module};
use super::context::{ExplainContext, Facts};
use super::program::{ClassFacts, Def, DefKind, ProgramFacts};

/// The attribute families and the change kinds a class change can explain.
fn applies(f: &Facts) -> Option<(&'static str, String)> {
    let kinds = [ChangeKind::Lost, ChangeKind::Missing, ChangeKind::BackedOff, ChangeKind::Changed, ChangeKind::Churning];
    if !f.kind_is(&kinds) {
        return None;
    }
    let fam = match f.change.family.as_str() {
        "LOAD_ATTR" | "LOAD_METHOD" | "LOAD_SUPER_ATTR" => "load",
        "STORE_ATTR" => "store",
        _ => return None,
    };
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != h.rules.version {
        return None; // across interpreters the program is the same; its classes explain nothing
    }
    Some((fam, f.change.operand.clone()?))
}

/// The hooks that decide how CPython `version` specializes attribute loads or stores.
fn relevant_hooks(fam: &str, version: (u32, u32)) -> &'static [&'static str] {
    match fam {
        // 3.12+ specializes instance loads of classes with `__getattr__` (docs/engine.md).
        "load" if version <= (3, 11) => &["__getattribute__", "__getattr__"],
        "load" => &["__getattribute__"],
        _ => &["__setattr__", "__delattr__"],
    }
}

/// Head classes that own `attr` in base or head, with their base counterpart. When no class
/// is seen to own it and exactly one class of the site's own module has methods the dump left
/// out (what they set is unknown), that class is the owner; a class of another module is no
/// evidence (issue 29: networkx's `func.__doc__ = f.__doc__` was blamed on `pathlib.PurePath`,
/// the one class of the whole run with unseen methods).
fn owners<'a>(ctx: &'a ExplainContext, f: &Facts, attr: &'a str) -> Vec<(&'a (String, String), &'a ClassFacts, Option<&'a ClassFacts>)> {
    let (base, head) = (ctx.base_facts(), ctx.head_facts());
    // A class without a base counterpart (new, or renamed) has nothing to compare with.
    let pairs: Vec<_> = head.classes.iter().filter_map(|(key, h)| Some((key, h, base.classes.get(key)?))).collect();
    let owning: Vec<_> = pairs.iter().filter(|(_, h, b)| h.owns(attr) || b.owns(attr)).map(|&(k, h, b)| (k, h, Some(b))).collect();
    if !owning.is_empty() || head.classes.values().chain(base.classes.values()).any(|c| c.owns(attr)) {
        return owning;
    }
    let Some(site) = f.head else { return Vec::new() };
    let module = site.dump.str(site.code.module);
    let unseen: Vec<_> = pairs.iter().filter(|((m, _), h, b)| m == module && (h.methods_unseen() || b.methods_unseen())).collect();
    match unseen.as_slice() {
        [(k, h, b)] => vec![(*k, *h, Some(*b))],
        _ => Vec::new(),
    }
}

/// An attribute load on a class object (`Config.scale`: `LOAD_ATTR_CLASS` in base) whose
/// class is made by a metaclass in head, where base's class statement named none. Measured
/// (`attr_class_metaclass_added` in the corpus): 3.12 and 3.13 leave such a load generic,
/// 3.14 specializes it with a metaclass check (`LOAD_ATTR_CLASS_WITH_METACLASS_CHECK`); 3.11
/// never specializes attribute loads on classes.
pub(super) fn class_metaclass(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (fam, attr) = applies(f)?;
    let (b, h) = (f.base?, f.head?);
    if fam != "load" || f.change.base.as_deref() != Some("LOAD_ATTR_CLASS") {
        return None;
    }
    let receiver = receiver_of(h.dump.source_line(h.code.file, h.line()?)?, &attr)?;
    let (key, now) = global(ctx.head_facts(), h.dump.str(h.code.module), receiver)?;
    let (key_b, then) = global(ctx.base_facts(), b.dump.str(b.code.module), receiver)?;
    let (DefKind::Class { metaclass: Some(m), .. }, DefKind::Class { metaclass: None, .. }) = (&now.kind, &then.kind) else {
        return None;
    };
    if key != key_b {
        return None;
    }
    let version = h.rules.version;
    let effect = match f.change.head.as_deref() {
        Some("LOAD_ATTR_CLASS_WITH_METACLASS_CHECK") => format!("{} then checks the metaclass on every load", cpython(version)),
        Some(_) if (specializes(version, Shape::ClassAttrType), specializes(version, Shape::ClassAttrMetaclass)) == (Some(true), Some(false)) => {
            format!("{} specializes attribute loads on a class only when its metaclass is `type`", cpython(version))
        }
        _ => return None,
    };
    let meta = if m.is_empty() { "a metaclass".to_string() } else { format!("the metaclass `{m}`") };
    Some((Cause::Metaclass, format!("class `{receiver}` is made by {meta} in head (line {}), by `type` in base; {effect}", now.line)))
}

/// The name right before `.attr` on a source line: `Config` in `t += Config.scale`; `None`
/// when the receiver is not a plain name (`a.b.attr`, `f().attr`).
pub(super) fn receiver_of<'a>(line: &'a str, attr: &str) -> Option<&'a str> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let pattern = format!(".{attr}");
    line.match_indices(&pattern).find_map(|(i, _)| {
        if bytes.get(i + pattern.len()).is_some_and(|&b| word(b)) {
            return None;
        }
        let start = bytes[..i].iter().rposition(|&b| !word(b)).map_or(0, |p| p + 1);
        let name = &line[start..i];
        let plain = !name.is_empty() && !bytes[start].is_ascii_digit() && (start == 0 || bytes[start - 1] != b'.');
        plain.then_some(name)
    })
}

/// A class that owns the attribute gained or lost a hook the interpreter checks, in its own
/// body or through a base class of its module (a mixin's `__getattr__`).
pub(super) fn class_hook(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (fam, attr) = applies(f)?;
    let version = f.head?.rules.version;
    for ((module, class), h, b) in owners(ctx, f, &attr) {
        for hook in relevant_hooks(fam, version) {
            let (now, then) = (h.defs.get(*hook), b.and_then(|b| b.defs.get(*hook)));
            let (verb, line, through) = match (now, then) {
                (Some(d), None) => ("gained", d.line, String::new()),
                (None, Some(d)) => ("lost", d.line, String::new()),
                (None, None) => {
                    let inherited = |facts| inherited_hook(facts, module, class, hook);
                    match (inherited(ctx.head_facts()), inherited(ctx.base_facts())) {
                        (Some(Some((from, line))), Some(None)) => ("gained", line, format!(" through its base class `{from}`")),
                        (Some(None), Some(Some((from, line)))) => ("lost", line, format!(" (base had it through its base class `{from}`)")),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let what = if fam == "load" { "loads" } else { "stores" };
            return Some((
                Cause::ClassHook,
                format!("class `{class}`, whose instances have `.{attr}`, {verb} `{hook}` in head{through} (line {line}); CPython {}.{} specializes attribute {what} only on classes without it", version.0, version.1),
            ));
        }
    }
    None
}

/// A module attribute load (`LOAD_ATTR_MODULE` in base) whose module gained a module-level
/// `__getattr__` (PEP 562) in head: the specializer refuses a module whose dict holds one
/// (`specialize_module_load_attr`), so every such load stays generic (attrs 23.2 added
/// `__getattr__ = _make_getattr(__name__)` to `attr`; measured on 3.12 and 3.14; 3.15
/// specializes them).
pub(super) fn module_hook(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (fam, attr) = applies(f)?;
    let (b, h) = (f.base?, f.head?);
    // 3.15 specializes such loads (measured on 3.15.0: `LOAD_ATTR_MODULE` with and without).
    let version = h.rules.version;
    if fam != "load" || b.op().name != "LOAD_ATTR_MODULE" || h.op().specialized || version >= (3, 15) {
        return None;
    }
    let text = h.dump.source_line(h.code.file, h.line()?)?;
    let receiver = receiver_of(text, &attr)?;
    // The receiver is the same module on both sides, as each calling module imports it.
    let (head, base) = (ctx.head_facts(), ctx.base_facts());
    let module = imported_module(head, h.dump.str(h.code.module), receiver)?;
    if imported_module(base, b.dump.str(b.code.module), receiver)? != module {
        return None;
    }
    let key = (module.clone(), "__getattr__".to_string());
    let hook = head.defs.get(&key)?;
    if base.defs.contains_key(&key) || !base.files.contains_key(&module) {
        return None;
    }
    Some((
        Cause::ModuleHook,
        format!(
            "module `{module}` defines a module-level `__getattr__` in head ({}); {} does not specialize attribute loads on a module that has one, so `{receiver}.{attr}` stays generic",
            head.at(&key, hook),
            cpython(version)
        ),
    ))
}

/// Where `class` (a qualname in `module`) inherits `hook` from: `Some(Some((base, line)))`
/// when one of its bases, or theirs, defines it in the module; `Some(None)` when every class
/// it inherits from is known (defined in the module, or `object`) and none does; `None` when
/// a base is imported or not a plain name, so the hook could be there.
fn inherited_hook(facts: &ProgramFacts, module: &str, class: &str, hook: &str) -> Option<Option<(String, u32)>> {
    let mut todo = vec![class.to_string()];
    let mut seen: Vec<String> = Vec::new();
    let mut known = true;
    while let Some(name) = todo.pop() {
        // Python cannot make a cycle of bases; a fuzzed dump can.
        if seen.contains(&name) || seen.len() > 64 {
            continue;
        }
        seen.push(name.clone());
        if name != class {
            if let Some(d) = facts.classes.get(&(module.to_string(), name.clone())).and_then(|c| c.defs.get(hook)) {
                return Some(Some((name, d.line)));
            }
        }
        match facts.defs.get(&(module.to_string(), name)).map(|d| &d.kind) {
            Some(DefKind::Class { bases: Some(bases), .. }) => todo.extend(bases.iter().filter(|b| *b != "object").cloned()),
            _ => known = false,
        }
    }
    known.then_some(None)
}

/// A class that owns the attribute gained or lost `__slots__`.
pub(super) fn slots(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (_, attr) = applies(f)?;
    for ((_, class), h, b) in owners(ctx, f, &attr) {
        let (now, then) = (h.defs.get("__slots__"), b.and_then(|b| b.defs.get("__slots__")));
        let why = match (now, then) {
            (Some(d), None) => format!("class `{class}` gained `__slots__` in head (line {}): `.{attr}` of its instances is a slot now, not an instance attribute", d.line),
            (None, Some(_)) => format!("class `{class}` lost its `__slots__` in head: `.{attr}` of its instances is an instance attribute now, not a slot"),
            _ => continue,
        };
        return Some((Cause::Slots, why));
    }
    None
}

/// The attribute is now defined in the class body (a property, a descriptor, a class
/// attribute), or no longer.
pub(super) fn descriptor(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (_, attr) = applies(f)?;
    for ((_, class), h, b) in owners(ctx, f, &attr) {
        let (now, then) = (h.defs.get(&attr), b.and_then(|b| b.defs.get(&attr)));
        if let (Some(d), Some(t)) = (now, then) {
            if let Some(why) = property_getter_change(class, &attr, d, t) {
                return Some((Cause::Descriptor, why));
            }
        }
        // Only a change of what the definition *is* (a property, a method, a nested class, a
        // plain value, an import) changes how CPython looks it up; another expression for the
        // same kind of value does not (issue 29: sqlglot's `FUNC_TOKENS = {...}` rebuilt from
        // other names was "explained" as a descriptor change on 14 sites).
        if now.map(category) == then.map(category) {
            continue;
        }
        // "Base set it on instances" only when base's methods do (issue 29: mistune's
        // `state_cls` is new in head, with no attribute of that name in base at all).
        let set_in_base = b.and_then(|b| b.sets.iter().find(|(a, _, _)| *a == attr));
        let why = match (now, then, set_in_base) {
            (Some(d), Some(t), _) => format!("`{class}.{attr}` is {} in head (line {}), where it was {}", describe(d), d.line, describe(t)),
            (Some(d), None, Some((_, method, line))) => format!(
                "`{class}.{attr}` is {} in head (line {}), where base set it on instances (`{method}`, line {line})",
                describe(d),
                d.line
            ),
            (Some(_), None, None) => continue,
            (None, Some(t), _) if h.sets.iter().any(|(a, _, _)| *a == attr) => {
                format!("`{class}.{attr}` is no longer {} in head: the attribute lives on instances now", describe(t))
            }
            // Gone from the class's body and not set on its instances: it comes from somewhere
            // the dumps do not show (a base, a hook), so nothing is said (sqlglot's
            // `Oracle.Parser._parse_hint` moved to the shared base class).
            (None, Some(_), _) | (None, None, _) => continue,
        };
        return Some((Cause::Descriptor, why));
    }
    None
}

/// The attribute is new in the body of a class that the instances' class inherits from, and
/// those instances set it: each `self.attr` now shadows a class-level definition (issue 29:
/// beautifulsoup4 4.12 moved `known_xml = None` from `NavigableString` up to `PageElement`,
/// which `Tag` inherits, and `Tag.__init__`'s `self.known_xml = …` stopped specializing).
/// Only for a `self.attr` site in a method of that class or of a class related to it by
/// inheritance, so that the instances are the ones the class facts describe, and only where
/// every class it inherits from is known in both dumps.
pub(super) fn inherited_descriptor(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (_, attr) = applies(f)?;
    let h = f.head?;
    let (module, qualname) = (h.dump.str(h.code.module), h.dump.str(h.code.qualname));
    if receiver_of(h.dump.source_line(h.code.file, h.line()?)?, &attr)? != "self" {
        return None;
    }
    let site_class = (module.to_string(), qualname.rsplit_once('.')?.0.to_string());
    let (base, head) = (ctx.base_facts(), ctx.head_facts());
    // The site's own class first: `Tag.__init__`'s store is about `Tag`, though its subclass
    // `BeautifulSoup` sets the attribute too.
    let owners = owners(ctx, f, &attr);
    let (own, others): (Vec<_>, Vec<_>) = owners.into_iter().partition(|(key, _, _)| **key == site_class);
    for (key, hc, bc) in own.into_iter().chain(others) {
        let sets = |c: &ClassFacts| c.sets.iter().find(|(a, _, _)| *a == attr).cloned();
        let (Some((_, method, line)), Some(_)) = (sets(hc), bc.and_then(sets)) else { continue };
        if hc.defs.contains_key(&attr) || bc.is_some_and(|b| b.defs.contains_key(&attr)) {
            continue; // its own body defines it: `descriptor` compares that
        }
        let Some(up) = ancestors(head, key) else { continue };
        let related = *key == site_class || up.contains(&site_class) || ancestors(head, &site_class).is_some_and(|a| a.contains(key));
        if !related {
            continue;
        }
        let base_up = ancestors(base, key);
        let (Some(Some((from, d))), Some(None)) = (inherited_def(head, &up, &attr), base_up.and_then(|up| inherited_def(base, &up, &attr))) else { continue };
        return Some((
            Cause::Descriptor,
            format!(
                "`{}.{attr}` is {} in head (line {}), inherited by `{}`, whose instances set `.{attr}` (`{method}`, line {line}); in base no class it inherits from defined `{attr}`",
                from.1,
                describe(d),
                d.line,
                key.1
            ),
        ));
    }
    None
}

/// Every class `class` inherits from, nearest first, resolved through the module's own classes
/// and what it imports ([`global`]); `None` when one is not known (a base written as another
/// expression or a dotted name, a class the dump does not show): then a definition could be
/// anywhere.
fn ancestors(facts: &ProgramFacts, class: &(String, String)) -> Option<Vec<(String, String)>> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut next = 0;
    let mut key = class.clone();
    loop {
        let DefKind::Class { bases: Some(bases), .. } = &facts.defs.get(&key)?.kind else { return None };
        for b in bases.iter().filter(|b| *b != "object") {
            let (k, d) = global(facts, &key.0, b)?;
            if !matches!(d.kind, DefKind::Class { .. }) {
                return None;
            }
            // Python cannot make a cycle of bases; a fuzzed dump can.
            if *k == *class || found.contains(k) || found.len() > 64 {
                continue;
            }
            found.push(k.clone());
        }
        // Breadth-first: the classes found so far are the queue.
        let Some(k) = found.get(next) else { break };
        key = k.clone();
        next += 1;
    }
    Some(found)
}

/// The class-level definition of `attr` that a class with the ancestors `up` ([`ancestors`])
/// inherits: `Some(Some(…))` from the one of them that defines it, `Some(None)` when none does;
/// `None` when several do (which one wins is the MRO's business, not said here).
fn inherited_def<'a>(facts: &'a ProgramFacts, up: &[(String, String)], attr: &str) -> Option<Option<(&'a (String, String), &'a Def)>> {
    let mut defining = up.iter().filter_map(|k| {
        let i = facts.classes.find_index(k).ok()?;
        let (key, c) = facts.classes.get_indexed(i)?;
        Some((key, c.defs.get(attr)?))
    });
    match (defining.next(), defining.next()) {
        (found, None) => Some(found),
        _ => None,
    }
}

/// What a definition is, as far as attribute lookup cares: a property (by its decorator), a
/// method, a nested class, a plain value, an import.
/// A `property` whose getter became (or stopped being) one of `operator`'s getters, written in
/// C: CPython specializes a property's load (`LOAD_ATTR_PROPERTY`, 3.12+) only when its getter
/// is a Python function (cssselect 1.1 → 1.3's `Token.type`: `property(operator.itemgetter(0))`
/// became an `@property` method, and the reverse change loses the specialization).
fn property_getter_change(class: &str, attr: &str, now: &Def, then: &Def) -> Option<String> {
    fn c_getter(d: &Def) -> Option<&str> {
        match &d.kind {
            DefKind::Value(names) if d.property() == Some("property") => {
                names.iter().map(String::as_str).find(|n| matches!(*n, "itemgetter" | "attrgetter" | "methodcaller"))
            }
            _ => None,
        }
    }
    let python_getter = |d: &Def| matches!(&d.kind, DefKind::Function { .. }) && d.property() == Some("property");
    match (c_getter(now), c_getter(then)) {
        (Some(g), None) if python_getter(then) => Some(format!(
            "`{class}.{attr}` is a `property` whose getter is `operator.{g}` in head (line {}), where it was a method decorated with `@property` (line {}): CPython specializes a property's load only when its getter is a Python function",
            now.line, then.line
        )),
        (None, Some(g)) if python_getter(now) => Some(format!(
            "`{class}.{attr}` is a method decorated with `@property` in head (line {}), where its getter was `operator.{g}` (line {}): CPython specializes a property's load only when its getter is a Python function",
            now.line, then.line
        )),
        _ => None,
    }
}

fn category(d: &Def) -> (u8, Option<&str>) {
    if let Some(p) = d.property() {
        return (0, Some(p));
    }
    let k = match &d.kind {
        // `@staticmethod` and `@classmethod` make another kind of descriptor than a plain
        // method (`attr_staticmethod_call`: `self.clamp` loads a staticmethod object now).
        DefKind::Function { decorators, .. } => {
            if let Some(kind) = decorators.iter().find(|n| matches!(n.as_str(), "staticmethod" | "classmethod")) {
                return (5, Some(kind));
            }
            1
        }
        DefKind::Class { .. } => 2,
        DefKind::Value(_) => 3,
        DefKind::Import { .. } => 4,
    };
    (k, None)
}

fn describe(d: &Def) -> String {
    if let Some(p) = d.property() {
        return format!("a `{p}`");
    }
    match &d.kind {
        DefKind::Function { decorators, .. } if !decorators.is_empty() => format!("a method decorated with `@{}`", decorators.join("`, `@")),
        DefKind::Function { .. } => "a method".into(),
        DefKind::Class { .. } => "a nested class".into(),
        DefKind::Value(_) => "a class attribute".into(),
        DefKind::Import { module, name: Some(n) } => format!("`{n}` imported from `{module}`"),
        DefKind::Import { module, name: None } => format!("the module `{module}`"),
    }
}

/// Running code assigns attributes of a class that owns the site's attribute (new in head):
/// each assignment changes the class's version, which the site's guard checks.
pub(super) fn class_mutated(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (_, attr) = applies(f)?;
    let (base, head) = (ctx.base_facts(), ctx.head_facts());
    for ((_, class), _, _) in owners(ctx, f, &attr) {
        let new = head.class_stores.iter().filter(|s| &s.class == class).find(|s| {
            !base.class_stores.iter().any(|o| o.class == s.class && o.attr == s.attr && o.code == s.code)
        });
        if let Some(s) = new {
            return Some((
                Cause::ClassMutated,
                format!("`{}` assigns `{class}.{}` while the program runs (line {}), new in head: each assignment to a class changes its version, and specializations on its instances miss", s.code, s.attr, s.line),
            ));
        }
    }
    None
}

/// Instances of a class that owns the attribute get attributes outside `__init__`, or lose
/// them, new in head: its instances no longer share one attribute layout.
pub(super) fn instance_layout(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let (_, attr) = applies(f)?;
    for ((_, class), h, b) in owners(ctx, f, &attr) {
        // An attribute base already added after `__init__` (in any method) changes no layout
        // when head adds it in one more method (issue 29: beautifulsoup4 4.12's `reset` sets
        // `_most_recent_element`, which 4.9's `pushTag` already added late).
        let old_late: Vec<&str> = b.map(|b| b.late_sets().iter().map(|(a, _, _)| a.as_str()).collect()).unwrap_or_default();
        // What a method base defines but did not run sets is unknown: not evidence of a change
        // (issue 29: pathlib's `PurePath._load_parts`, which only head's run called, made
        // networkx's `func.__doc__ = f.__doc__` a "new" layout of `PurePath` instances).
        let seen_in_base = |m: &str| b.is_some_and(|b| b.defs.get(m).is_none_or(|d| !d.unseen));
        if let Some((a, m, line)) = h.late_sets().into_iter().find(|(a, m, _)| !old_late.contains(&a.as_str()) && seen_in_base(m)) {
            return Some((
                Cause::InstanceLayout,
                format!("`{class}.{m}` adds `.{a}` to instances after `__init__` (line {line}), new in head: instances of `{class}` no longer share one attribute layout"),
            ));
        }
        let old_del: Vec<&str> = b.map(|b| b.deletes.iter().map(|(a, _, _)| a.as_str()).collect()).unwrap_or_default();
        if let Some((a, m, line)) = h.deletes.iter().find(|(a, m, _)| !old_del.contains(&a.as_str()) && seen_in_base(m)) {
            return Some((
                Cause::InstanceLayout,
                format!("`{class}.{m}` deletes `.{a}` from instances (line {line}), new in head: instances of `{class}` no longer share one attribute layout"),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_receiver_is_the_plain_name_before_the_attribute() {
        assert_eq!(receiver_of("t += Config.scale", "scale"), Some("Config"));
        assert_eq!(receiver_of("t += Config.scales + Other.scale", "scale"), Some("Other"));
        assert_eq!(receiver_of("t += self.cfg.scale", "scale"), None);
        assert_eq!(receiver_of("t += make().scale", "scale"), None);
    }

    #[test]
    fn hooks_are_inherited_from_bases_of_the_module_only() {
        let mut facts = ProgramFacts::default();
        let class = |bases: Option<&[&str]>| Def {
            kind: DefKind::Class { metaclass: None, bases: bases.map(|b| b.iter().map(|b| b.to_string()).collect()) },
            line: 1,
            signature: None,
            unseen: false,
        };
        let hook = Def { kind: DefKind::Function { decorators: vec![], generator: false }, line: 7, signature: None, unseen: false };
        let chain: [(&str, Option<&[&str]>); 7] = [
            ("Mixin", Some(&[])),
            ("Record", Some(&["object", "Mixin"])),
            ("Line", Some(&["Record"])),
            ("Plain", Some(&[])),
            ("Lib", Some(&["lib.Base"])),
            ("Odd", None),
            ("Loop", Some(&["Loop"])),
        ];
        for (name, bases) in chain {
            facts.defs.insert(("m".into(), name.into()), class(bases));
            facts.classes.insert(("m".into(), name.into()), ClassFacts::default());
        }
        facts.classes.get_mut(&("m".to_string(), "Mixin".to_string())).unwrap().defs.insert("__getattr__".into(), hook);
        let found = |c: &str| inherited_hook(&facts, "m", c, "__getattr__");
        assert_eq!(found("Line"), Some(Some(("Mixin".into(), 7))), "two levels up");
        assert_eq!(found("Plain"), Some(None), "known to have none");
        assert_eq!(found("Lib"), None, "an imported base could have it");
        assert_eq!(found("Odd"), None, "bases not plain names");
        assert_eq!(found("Loop"), Some(None), "a cycle (only a fuzzed dump has one) ends");
        assert_eq!(found("Mixin"), Some(None), "its own body is the class rule's direct check");
    }

    #[test]
    fn class_attributes_are_inherited_through_imports_and_only_when_unambiguous() {
        let mut facts = ProgramFacts::default();
        let def = |kind: DefKind| Def { kind, line: 3, signature: None, unseen: false };
        let class = |bases: &[&str]| def(DefKind::Class { metaclass: None, bases: Some(bases.iter().map(|b| b.to_string()).collect()) });
        let key = |m: &str, n: &str| (m.to_string(), n.to_string());
        // `pkg.element`: `Tag(PageElement)`, `PageElement(object)` with `known_xml = None`,
        // `Mixin` with its own `known_xml`; `pkg`: `from .element import Tag`, `Soup(Tag)`,
        // `Far(nowhere.Base)`; `pkg.element` also `Both(Tag, Mixin)`.
        let classes: [(&str, &str, &[&str]); 6] = [
            ("pkg.element", "PageElement", &["object"]),
            ("pkg.element", "Tag", &["PageElement"]),
            ("pkg.element", "Mixin", &[]),
            ("pkg", "Soup", &["Tag"]),
            ("pkg.element", "Both", &["Tag", "Mixin"]),
            ("pkg", "Far", &["nowhere.Base"]),
        ];
        for (m, n, bases) in classes {
            facts.defs.insert(key(m, n), class(bases));
            facts.classes.insert(key(m, n), ClassFacts::default());
        }
        facts.defs.insert(key("pkg", "Tag"), def(DefKind::Import { module: "pkg.element".into(), name: Some("Tag".into()) }));
        for owner in ["PageElement", "Mixin"] {
            facts.classes.get_mut(&key("pkg.element", owner)).unwrap().defs.insert("known_xml".into(), def(DefKind::Value(vec![])));
        }
        let from = |m: &str, n: &str| {
            let up = ancestors(&facts, &key(m, n))?;
            inherited_def(&facts, &up, "known_xml").map(|o| o.map(|(k, _)| k.1.clone()))
        };
        assert_eq!(from("pkg", "Soup"), Some(Some("PageElement".into())), "through an import and two classes");
        assert_eq!(from("pkg.element", "PageElement"), Some(None), "its own body is not inherited");
        assert_eq!(from("pkg", "Far"), None, "a dotted base is not followed");
        assert_eq!(from("pkg.element", "Both"), None, "two ancestors define it: the MRO decides");
        assert_eq!(ancestors(&facts, &key("pkg", "Soup")), Some(vec![key("pkg.element", "Tag"), key("pkg.element", "PageElement")]));
    }
}
