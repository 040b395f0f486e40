//! The passed-callee rule: a call of one of the function's parameters (`scale(v)` in
//! `def hot(values, scale)`) whose specialization changed because the callers now pass an
//! object called through `__call__` (an instance of a class defining it, a
//! `functools.partial`, an `operator.itemgetter` …) where they passed a function, or the
//! reverse. CPython 3.11 and 3.12 have no specialized call for such objects; 3.13+ calls them
//! only through the generic `CALL_NON_PY_GENERAL`. The callers are found by name in the
//! source lines the dump keeps, and every one of them must pass the same thing: a function
//! called from elsewhere, or with different callables, leaves the rule silent.

use crate::cpython::facts::{cpython, is_generic_call, observed, specializes, Shape};
use crate::cpython::spelling::canonical_opname;
use crate::engine::classify::{Cause, ChangeKind, SiteView};

use super::context::{ExplainContext, Facts};
use super::callee_rules::called_names;
use super::program::{bracketed, bracketed_items, parameter_list, parameter_name, DefKind, ProgramFacts};

/// Types from the standard library whose instances are called through their type's
/// `tp_call`, never specialized as a function call.
const CALLABLE_OBJECTS: [&str; 4] = ["partial", "itemgetter", "attrgetter", "methodcaller"];

/// What the callers pass for the parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Passed {
    /// An object called through `__call__`: an instance of a class defining it, or of a
    /// standard-library callable type. The words name it.
    Object(String),
    /// A function (a `def`, a lambda) or whatever a function returned: not an object
    /// with `__call__` as far as the program says.
    Function(String),
}

/// The call site of the caller and what it passes, in words: `SCALE` (line 22).
struct Passing {
    text: String,
    line: u32,
    passed: Passed,
}

/// A call of a parameter whose callers pass an object called through `__call__` on one side
/// and a function on the other.
pub(super) fn passed_callee(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let kinds = [ChangeKind::Lost, ChangeKind::Missing, ChangeKind::BackedOff, ChangeKind::Changed, ChangeKind::Gained];
    if !f.kind_is(&kinds) || !matches!(f.change.family.as_str(), "CALL" | "PRECALL") {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != h.rules.version {
        return None;
    }
    let (called_h, called_b) = (called_parameter(ctx.head_facts(), &h)?, called_parameter(ctx.base_facts(), &b)?);
    let name = called_h.0;
    if called_b.0 != name {
        return None;
    }
    let head = passing(ctx.head_facts(), &h, called_h)?;
    let base = passing(ctx.base_facts(), &b, called_b)?;
    let (object_side, function_side) = match (&head.passed, &base.passed) {
        (Passed::Object(_), Passed::Function(_)) => (&h, &b),
        (Passed::Function(_), Passed::Object(_)) => (&b, &h),
        _ => return None,
    };
    // Each side must show what its callee gets: the function a specialized call, the object
    // nothing specialized or the generic form of 3.13+.
    let generic = |v: &SiteView| canonical_opname(&v.op().name) == "CALL_NON_PY_GENERAL";
    if !function_side.specialized() || generic(function_side) || (object_side.specialized() && !generic(object_side)) {
        return None;
    }
    let describe = |p: &Passing| match &p.passed {
        Passed::Object(what) | Passed::Function(what) => format!("`{}` (line {}), {what}", p.text, p.line),
    };
    let version = h.rules.version;
    let consequence = match observed(version, Shape::CallObjectDunderCall) {
        Some(form) if is_generic_call(form) => {
            format!("{} calls an object through `__call__` only with its generic `{form}`", cpython(version))
        }
        Some(_) if specializes(version, Shape::CallObjectDunderCall) == Some(false) => {
            format!("{} has no specialized call for an object called through `__call__`", cpython(version))
        }
        _ => return None,
    };
    let caller = h.dump.str(h.code.qualname);
    Some((Cause::CalleeChanged, format!("`{caller}`'s callers pass `{name}`: in head {}; in base {}; {consequence}", describe(&head), describe(&base))))
}

/// The parameter the site's line calls (the only bare name it calls that is one), with its
/// position when it can be passed positionally.
fn called_parameter<'a>(facts: &ProgramFacts, v: &SiteView<'a>) -> Option<(&'a str, Option<usize>)> {
    let def = facts.defs.get(&(v.dump.str(v.code.module).to_string(), v.dump.str(v.code.qualname).to_string()))?;
    let DefKind::Function { .. } = def.kind else { return None };
    let mut positional = true;
    let mut params = Vec::new();
    for p in parameter_list(def.signature.as_deref()?)? {
        let name = parameter_name(p);
        if name.starts_with('*') {
            positional = false;
        }
        if name != "/" && !name.starts_with('*') {
            params.push((name.to_string(), positional));
        }
    }
    let line = v.dump.source_line(v.code.file, v.line()?)?;
    let mut called = called_names(line).into_iter().filter(|(n, attribute)| !attribute && params.iter().any(|(p, _)| p == n));
    let (name, _) = called.next()?;
    if called.next().is_some() {
        return None;
    }
    let at = params.iter().position(|(p, _)| p == name)?;
    Some((name, params[at].1.then_some(at)))
}

/// What every call of the site's function passes for `param` (at `position`), when all of
/// them in the kept source of its file pass the same thing, and no other file calls it.
fn passing(facts: &ProgramFacts, v: &SiteView, (param, position): (&str, Option<usize>)) -> Option<Passing> {
    let caller = v.dump.str(v.code.qualname);
    let module = v.dump.str(v.code.module);
    let needle = format!("{caller}(");
    let mut found: Option<Passing> = None;
    for (file, info) in v.dump.files.iter().enumerate() {
        for (first, lines) in &info.source {
            for (k, &s) in lines.iter().enumerate() {
                // (The reader keeps runs within u32 line numbers; `first..` would still step past.)
                let Some(n) = first.checked_add(k as u32) else { break };
                let text = v.dump.str(s);
                for (at, _) in text.match_indices(needle.as_str()) {
                    let before = text[..at].trim_end();
                    let joined = text[..at].chars().next_back().is_some_and(identifier_char);
                    if joined || before.ends_with("def") {
                        continue;
                    }
                    // A call from another file, or through an attribute, may pass anything.
                    if file as u32 != v.code.file || text[..at].ends_with('.') {
                        return None;
                    }
                    let arg = argument(bracketed_items(&text[at + caller.len() + 1..])?, param, position)?;
                    let (passed, line) = resolve(facts, v, module, arg, n, true)?;
                    if found.as_ref().is_some_and(|f| f.text != arg || f.passed != passed) {
                        return None;
                    }
                    found = Some(Passing { text: arg.to_string(), line, passed });
                }
            }
        }
    }
    found
}

/// The argument a call passes for `param`: by keyword, else at `position`. `None` when the
/// call unpacks `*args` or `**kwargs` (it could be in them).
fn argument<'t>(args: Vec<&'t str>, param: &str, position: Option<usize>) -> Option<&'t str> {
    if args.iter().any(|a| a.starts_with('*')) {
        return None;
    }
    if let Some((_, value)) = args.iter().filter_map(|a| keyword(a)).find(|(n, _)| *n == param) {
        return Some(value);
    }
    args.into_iter().filter(|a| keyword(a).is_none()).nth(position?)
}

/// The value of a module-level `name = value` line (not indented, not `==`).
fn assigned_value<'t>(line: &'t str, name: &str) -> Option<&'t str> {
    let value = line.strip_prefix(name)?.trim_start().strip_prefix('=')?;
    (!value.starts_with('=')).then(|| value.trim())
}

fn is_lambda(expr: &str) -> bool {
    expr.strip_prefix("lambda").is_some_and(|rest| rest.starts_with([' ', ':']))
}

/// `C` when `expr` is a call `C(…)` and nothing after it (`C(3).method` is a bound method).
fn called_by(expr: &str) -> Option<&str> {
    let (callee, rest) = expr.split_once('(')?;
    let (_, close) = bracketed(rest)?;
    rest[close + 1..].trim().is_empty().then(|| callee.trim())
}

/// `name=value` as `(name, value)`.
fn keyword(arg: &str) -> Option<(&str, &str)> {
    let (name, rest) = arg.split_once('=')?;
    (is_identifier(name.trim()) && !rest.starts_with('=')).then(|| (name.trim(), rest.trim()))
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| !c.is_ascii_digit()) && s.chars().all(identifier_char)
}

/// A character of a Python identifier; any non-ASCII one counts (Unicode's tables would
/// weigh more in the web page than telling the rare non-letter apart is worth).
fn identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii()
}

/// What the expression `expr` (written at `line` of the module) is, with the line that says
/// so: a lambda, a module-level function, an instance of a module class defining `__call__`,
/// a standard-library callable object, what a module function returns; a module-level name
/// is followed once to its assignment. `None` for anything else.
fn resolve(facts: &ProgramFacts, v: &SiteView, module: &str, expr: &str, line: u32, follow: bool) -> Option<(Passed, u32)> {
    if is_lambda(expr) {
        return Some((Passed::Function("a lambda".into()), line));
    }
    let def_of = |name: &str| facts.defs.get(&(module.to_string(), name.to_string()));
    if is_identifier(expr) {
        let def = def_of(expr)?;
        return match &def.kind {
            DefKind::Function { .. } => Some((Passed::Function(format!("the function `{expr}`")), def.line)),
            DefKind::Value(_) if follow => {
                // A name the module assigns on several lines could hold either value.
                let file = v.dump.files.get(v.code.file as usize)?;
                if file.source.iter().flat_map(|(_, lines)| lines).filter(|&&s| assigned_value(v.dump.str(s), expr).is_some()).count() > 1 {
                    return None;
                }
                let value = assigned_value(v.dump.source_line(v.code.file, def.line)?, expr)?;
                resolve(facts, v, module, value, def.line, false)
            }
            _ => None,
        };
    }
    let callee = called_by(expr)?;
    let last = callee.rsplit('.').next().unwrap_or(callee);
    let library = match callee.split_once('.') {
        Some((m, _)) => matches!(m, "functools" | "operator"),
        None => def_of(callee).is_none(),
    };
    if library && CALLABLE_OBJECTS.contains(&last) && callee.matches('.').count() <= 1 {
        return Some((Passed::Object(format!("a `{callee}` object")), line));
    }
    let def = def_of(callee)?;
    match def.kind {
        DefKind::Class { .. } => {
            let class = facts.classes.get(&(module.to_string(), callee.to_string()))?;
            let call = class.defs.get("__call__")?;
            Some((Passed::Object(format!("an instance of `{callee}`, whose class defines `__call__` (line {})", call.line)), line))
        }
        DefKind::Function { .. } => Some((Passed::Function(format!("what `{callee}` returns")), line)),
        DefKind::Value(_) | DefKind::Import { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_for_a_parameter_is_found_by_keyword_or_position() {
        let args = |s| bracketed_items(s).unwrap();
        assert_eq!(argument(args("VALUES, SCALE)"), "scale", Some(1)), Some("SCALE"));
        assert_eq!(argument(args("VALUES, scale=partial(f, rate=0.1))"), "scale", Some(1)), Some("partial(f, rate=0.1)"));
        assert_eq!(argument(args("values=V, scale=S)"), "values", Some(0)), Some("V"));
        assert_eq!(argument(args("V, x == y)"), "flag", Some(1)), Some("x == y"), "a comparison is not a keyword");
        assert_eq!(argument(args("V)"), "scale", Some(1)), None, "left to its default");
        assert_eq!(argument(args("*args)"), "scale", Some(1)), None, "unpacked: could be anything");
        assert_eq!(argument(args("V, **options)"), "scale", Some(1)), None);
        assert_eq!(argument(args("V, S)"), "scale", None), None, "keyword-only, not passed by keyword");
    }

    #[test]
    fn only_a_whole_call_or_lambda_is_resolved() {
        assert_eq!(called_by("Scaler(3)"), Some("Scaler"));
        assert_eq!(called_by("functools.partial(f, rate=g(1))"), Some("functools.partial"));
        assert_eq!(called_by("Scaler(3).scale"), None, "a bound method");
        assert_eq!(called_by("make()(3)"), None);
        assert_eq!(called_by("SCALE"), None);
        assert!(is_lambda("lambda v: v * 3") && is_lambda("lambda: 0"));
        assert!(!is_lambda("lambdas[0]") && !is_lambda("lambda_table"));
        assert_eq!(assigned_value("SCALE = Scaler(3)", "SCALE"), Some("Scaler(3)"));
        assert_eq!(assigned_value("SCALE == 3", "SCALE"), None);
        assert_eq!(assigned_value("    SCALE = 3", "SCALE"), None, "not at module level");
    }

    #[test]
    fn items_keep_nested_brackets_and_strings_whole() {
        assert_eq!(bracketed_items("a, f(b, c), [d, e], \"x, )\")").unwrap(), ["a", "f(b, c)", "[d, e]", "\"x, )\""]);
        assert_eq!(bracketed_items("a, b,)").unwrap(), ["a", "b"]);
        assert_eq!(bracketed_items(")").unwrap(), Vec::<&str>::new());
        assert_eq!(bracketed_items("a, (b"), None, "a call that goes on on the next line");
    }
}
