//! The callee rule: a call site whose specialization changed while the line calls a function
//! that head defines differently (a decorator added or removed, a new signature, a generator,
//! a class where there was a function), or calls another function than in base. The callee is
//! found by name on the call's source line and looked up in both programs' definitions
//! ([`super::program`]); the sentence quotes the definition's line.

use crate::engine::classify::{Cause, ChangeKind};

use super::context::{ExplainContext, Facts};
use super::program::{parameters, Def, DefKind, ProgramFacts};

/// Names called on a line: identifiers right before `(` (`obj.method(` gives `method`), each
/// with whether it is an attribute (`.` before it: a method or a module's function).
fn called_names(line: &str) -> Vec<(&str, bool)> {
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

/// The one definition a call of `name` can reach in `facts`, or `None` when that is not
/// known: a bare name is the calling module's own definition, else the only one of that name
/// in the program; an attribute (`obj.name(`, `super().name(`) must be the only method or
/// function of that name (a method defined in several classes could be any of them, and
/// naming the wrong one is worse than naming none).
pub(super) fn callee<'a>(facts: &'a ProgramFacts, module: &str, (name, attribute): (&'a str, bool)) -> Option<(&'a (String, String), &'a Def)> {
    if !attribute {
        if let Some((key, def)) = facts.defs.iter().find(|((m, q), _)| m == module && q == name) {
            return Some((key, def));
        }
    }
    let mut all = facts.defs.iter().filter(move |((_, q), _)| if attribute { q == name || q.rsplit('.').next() == Some(name) } else { q == name });
    let one = all.next()?;
    all.next().is_none().then_some(one)
}

fn decorators(d: &Def) -> &[String] {
    match &d.kind {
        DefKind::Function { decorators, .. } => decorators,
        _ => &[],
    }
}

/// How a definition changed between base and head, in words; `None` when it did not.
fn definition_change(name: &str, now: &Def, then: &Def) -> Option<String> {
    let (dn, dt) = (decorators(now), decorators(then));
    if dn != dt {
        let added: Vec<&String> = dn.iter().filter(|d| !dt.contains(d)).collect();
        let removed: Vec<&String> = dt.iter().filter(|d| !dn.contains(d)).collect();
        return Some(match (added.first(), removed.first()) {
            (Some(a), _) => format!("`{name}` is wrapped by `@{a}` in head (line {}): the call goes to what the decorator returns, not to the function", now.line),
            (None, Some(r)) => format!("`{name}` is no longer wrapped by `@{r}` in head (line {})", now.line),
            (None, None) => return None,
        });
    }
    match (&now.kind, &then.kind) {
        (DefKind::Function { generator: true, .. }, DefKind::Function { generator: false, .. }) => {
            return Some(format!("`{name}` became a generator function in head (line {})", now.line));
        }
        (DefKind::Function { generator: false, .. }, DefKind::Function { generator: true, .. }) => {
            return Some(format!("`{name}` is no longer a generator function in head (line {})", now.line));
        }
        (DefKind::Class { .. }, DefKind::Function { .. }) => return Some(format!("`{name}` is a class in head (line {}), where it was a function", now.line)),
        (DefKind::Function { .. }, DefKind::Class { .. }) => return Some(format!("`{name}` is a function in head (line {}), where it was a class", now.line)),
        (DefKind::Value(_), DefKind::Function { .. }) => {
            return Some(format!("`{name}` is assigned a value in head (line {}), where it was a `def`", now.line))
        }
        _ => {}
    }
    // Annotations and default values do not change how a call is specialized; the parameters do.
    let shape = |d: &Def| d.signature.as_deref().and_then(parameters);
    match (shape(now), shape(then)) {
        (Some(n), Some(t)) if n != t => Some(format!("`{name}`'s parameters changed: `{n}` in head (line {}), were `{t}`", now.line)),
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
    for &n in names_h.iter().filter(|(n, _)| !called_in(&names_b, n)) {
        if let Some((_, d)) = callee(head, module_h, n) {
            let was: Vec<String> = names_b.iter().filter(|(o, _)| !called_in(&names_h, o)).map(|(o, _)| format!("`{o}`")).collect();
            let was = if was.is_empty() { String::new() } else { format!(" where it called {}", was.join(", ")) };
            return Some((Cause::CalleeChanged, format!("the call now goes to `{}` (defined at line {}){was}", n.0, d.line)));
        }
    }
    for &n in names_h.iter().filter(|(n, _)| called_in(&names_b, n)) {
        let Some((key, now)) = callee(head, module_h, n) else { continue };
        // The same definition must be the only one base's line could reach too.
        let Some((key_b, then)) = callee(base, module_b, n) else { continue };
        if key_b != key {
            continue;
        }
        if let Some(why) = metaclass_change(n.0, now, then) {
            return Some((Cause::Metaclass, why));
        }
        if let Some(why) = definition_change(n.0, now, then) {
            return Some((Cause::CalleeChanged, why));
        }
    }
    None
}

/// A called class whose statement names a metaclass in one program and not in the other.
fn metaclass_change(name: &str, now: &Def, then: &Def) -> Option<String> {
    let (DefKind::Class { metaclass: m_now }, DefKind::Class { metaclass: m_then }) = (&now.kind, &then.kind) else {
        return None;
    };
    let named = |m: &str| if m.is_empty() { "a metaclass".to_string() } else { format!("the metaclass `{m}`") };
    let rule = "3.13+ specializes a class call only when its metaclass is `type`";
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
        assert_eq!(definition_change("f", &plain, &plain), None);
        let cached = f(vec!["functools.lru_cache".into()], false, "def f(a):");
        assert!(definition_change("f", &cached, &plain).unwrap().contains("wrapped by `@functools.lru_cache`"));
        let gen = f(vec![], true, "def f(a):");
        assert!(definition_change("f", &gen, &plain).unwrap().contains("became a generator"));
        let kw = f(vec![], false, "def f(a, *, b=1):");
        assert!(definition_change("f", &kw, &plain).unwrap().contains("parameters changed: `(a, *, b=…)` in head (line 3), were `(a)`"));
        // Annotations alone change nothing a call depends on.
        let annotated = f(vec![], false, "def f(a: int) -> int:");
        assert_eq!(definition_change("f", &annotated, &plain), None);
    }

    #[test]
    fn a_metaclass_gained_or_lost_is_said_and_an_unchanged_one_is_not() {
        let class = |metaclass: Option<&str>| Def { kind: DefKind::Class { metaclass: metaclass.map(str::to_string) }, line: 12, signature: None, unseen: false };
        let (plain, meta, other) = (class(None), class(Some("Registered")), class(Some("")));
        assert!(metaclass_change("P", &meta, &plain).unwrap().starts_with("class `P` is made by the metaclass `Registered` in head (line 12), by `type` in base"));
        assert!(metaclass_change("P", &plain, &other).unwrap().starts_with("class `P` is no longer made by a metaclass in head"));
        assert_eq!(metaclass_change("P", &meta, &meta), None);
        assert_eq!(metaclass_change("P", &plain, &plain), None);
        let function = Def { kind: DefKind::Function { decorators: vec![], generator: false }, line: 3, signature: None, unseen: false };
        assert_eq!(metaclass_change("P", &meta, &function), None, "a function that became a class is the callee rule's");
    }
}
