//! What one dump says about the program's classes and definitions, read from the bytecode of
//! module and class bodies and methods: the names a class body defines (and how: a plain
//! value, a function, a decorated function, a property), the attributes its methods set on
//! `self`, the class attributes other code assigns while the program runs, and the source
//! text of each definition's `def` line. The class and callee rules compare these facts
//! between base and head.

use litemap::LiteMap;

use crate::cpython::spelling::{key_family, strip_null_marks};
use crate::model::dump::{CodeInfo, CodeKind, Dump, Instruction};

/// How a body defines a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum DefKind {
    /// `name = value` (the names the value's expression loads).
    Value(Vec<String>),
    /// `def name` (with its decorators' names, outermost first) or a lambda.
    Function { decorators: Vec<String>, generator: bool },
    /// `class name`, with the metaclass its statement names (`class P(metaclass=Meta)`: the
    /// name loaded for it, `""` when it is not a plain name; inherited metaclasses are not
    /// followed) and its bases as written, as dotted names (`None` when one is another
    /// expression, `Generic[T]`, or they are unpacked).
    Class { metaclass: Option<String>, bases: Option<Vec<String>> },
}

/// One definition in a module or class body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Def {
    pub(super) kind: DefKind,
    /// The line of the store (a decorated `def`: its first decorator's).
    pub(super) line: u32,
    /// The `def …:` line's text (functions only).
    pub(super) signature: Option<String>,
    /// A function whose code object is not in the dump (3.11 leaves a function called a few
    /// times unquickened, without evidence that it ran, and the dump leaves it out).
    pub(super) unseen: bool,
}

impl Def {
    /// A property or another decorator that makes the name a descriptor on the class.
    pub(super) fn property(&self) -> Option<&str> {
        let names = match &self.kind {
            DefKind::Function { decorators, .. } => decorators,
            DefKind::Value(names) => names,
            DefKind::Class { .. } => return None,
        };
        names.iter().map(String::as_str).find(|n| matches!(*n, "property" | "cached_property" | "functools.cached_property"))
    }
}

/// One class.
#[derive(Debug, Clone, Default)]
pub(super) struct ClassFacts {
    /// Line of the class body.
    pub(super) line: u32,
    /// What the body defines, by name.
    pub(super) defs: LiteMap<String, Def>,
    /// `(attribute, method, line)` of each `self.attribute = …` in its methods.
    pub(super) sets: Vec<(String, String, u32)>,
    /// `(attribute, method, line)` of each `del self.attribute`.
    pub(super) deletes: Vec<(String, String, u32)>,
}

impl ClassFacts {
    /// Its instances or the class itself have `attr`.
    pub(super) fn owns(&self, attr: &str) -> bool {
        self.defs.contains_key(attr) || self.sets.iter().any(|(a, _, _)| a == attr)
    }

    /// Some of its methods are not in the dump: what they set on `self` is unknown.
    pub(super) fn methods_unseen(&self) -> bool {
        self.defs.values().any(|d| d.unseen)
    }

    /// Attributes set outside `__init__` (and not in it), with where.
    pub(super) fn late_sets(&self) -> Vec<&(String, String, u32)> {
        let init: Vec<&str> = self.sets.iter().filter(|(_, m, _)| m == "__init__").map(|(a, _, _)| a.as_str()).collect();
        self.sets.iter().filter(|(a, m, _)| m != "__init__" && !init.contains(&a.as_str())).collect()
    }
}

/// `(code qualname, line)` of code that assigns an attribute of a class while running.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct ClassStore {
    pub(super) class: String,
    pub(super) attr: String,
    pub(super) code: String,
    pub(super) line: u32,
}

/// The facts of one dump.
#[derive(Debug, Default)]
pub(super) struct ProgramFacts {
    /// Classes by `(module, qualname)`.
    pub(super) classes: LiteMap<(String, String), ClassFacts>,
    /// Module-level definitions by `(module, name)`, and methods by `(module, Class.name)`.
    pub(super) defs: LiteMap<(String, String), Def>,
    /// Class attributes assigned by running code.
    pub(super) class_stores: Vec<ClassStore>,
    /// Per module: the float constants its code loads, as `repr()` wrote them, with their line.
    pub(super) floats: LiteMap<String, Vec<(String, u32)>>,
}

/// The name an instruction loads (`LOAD_GLOBAL`'s `NULL + f` is `f`).
fn loaded_name<'d>(d: &'d Dump, i: &Instruction) -> Option<&'d str> {
    let family = family(d, i);
    let loads = ["LOAD_NAME", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_FAST", "LOAD_FAST_LOAD_FAST", "LOAD_ATTR", "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF"];
    if !loads.contains(&family.as_ref()) {
        return None;
    }
    Some(strip_null_marks(d.str(i.argrepr)))
}

/// The instruction's family in one spelling for every version (3.14's `LOAD_FAST_BORROW` is
/// `LOAD_FAST`, 3.11's `LOAD_METHOD` is `LOAD_ATTR`).
fn family<'d>(d: &'d Dump, i: &Instruction) -> std::borrow::Cow<'d, str> {
    let op = d.op(i);
    key_family(&op.name, &op.family)
}

/// The code object a `LOAD_CONST <code object NAME at …>` loads, by name among `parent`'s
/// children.
fn child_named<'d>(d: &'d Dump, parent: u32, name: &str) -> Option<&'d CodeInfo> {
    d.code.iter().find(|c| c.parent == Some(parent) && d.str(c.name) == name)
}

fn code_const_name(repr: &str) -> Option<&str> {
    let rest = repr.strip_prefix("<code object ")?;
    Some(rest.split(" at ").next().unwrap_or(rest).trim_end_matches('>'))
}

/// The `def …:` text of a function: the first of up to eight lines from `first_line`
/// (decorators come first) that starts with `def` or `async def`, joined with the lines after
/// it when the parameters span several (up to 40 lines; `None` when they do not close by then
/// or the source is missing).
fn signature(d: &Dump, c: &CodeInfo) -> Option<String> {
    // Saturating: a dump's `first_line` can be anything up to u32::MAX (found by fuzzing).
    let start = (c.first_line..c.first_line.saturating_add(8)).find(|&l| {
        d.source_line(c.file, l).map(str::trim).is_some_and(|t| t.starts_with("def ") || t.starts_with("async def "))
    })?;
    let mut text = String::new();
    for l in start..start.saturating_add(40) {
        let line = d.source_line(c.file, l)?.trim();
        if !text.is_empty() && !text.ends_with('(') && !line.starts_with(')') {
            text.push(' ');
        }
        text.push_str(line);
        if parameters(&text).is_some() {
            return Some(text);
        }
    }
    None
}

/// The comma-separated items of a bracketed list whose `(` is just before `text` (a `def`'s
/// parameters, a call's arguments), each whole and trimmed, up to the `)` that closes it;
/// `None` when it does not close. Brackets and quotes nest; no Python parser.
pub(super) fn bracketed_items(text: &str) -> Option<Vec<&str>> {
    bracketed(text).map(|(items, _)| items)
}

/// [`bracketed_items`], with the byte offset of the closing `)` in `text`.
pub(super) fn bracketed(text: &str) -> Option<(Vec<&str>, usize)> {
    let (mut depth, mut quote, mut items, mut start) = (0i32, None::<char>, Vec::new(), 0);
    for (at, ch) in text.char_indices() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
            }
            continue;
        }
        match ch {
            '\'' | '"' => quote = Some(ch),
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                items.push(text[start..at].trim());
                items.retain(|i: &&str| !i.is_empty());
                return Some((items, at));
            }
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(text[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// The parameters of a `def` text as a call sees them: names, `/`, `*`, `**`, and `=…` for a
/// default, without annotations and default values (`(self, loc, *, flag=…)`). `None` when
/// the parentheses do not close.
pub(super) fn parameters(def: &str) -> Option<String> {
    let shape: Vec<String> = parameter_list(def)?
        .into_iter()
        .map(|p| {
            let name = parameter_name(p);
            if p.contains('=') { format!("{name}=…") } else { name.to_string() }
        })
        .collect();
    Some(format!("({})", shape.join(", ")))
}

/// A parameter's name as written in a `def` (`b: int = 1` → `b`; `*args`, `/` and `*` as they are).
pub(super) fn parameter_name(param: &str) -> &str {
    param.split([':', '=']).next().unwrap_or("").trim()
}

/// The parameters of a `def` text, each as written (with annotation and default).
pub(super) fn parameter_list(def: &str) -> Option<Vec<&str>> {
    bracketed_items(&def[def.find('(')? + 1..])
}

/// What a module or class body defines.
fn body_defs(d: &Dump, index: u32, body: &CodeInfo) -> LiteMap<String, Def> {
    let mut defs = LiteMap::new();
    let mut segment: Vec<&Instruction> = Vec::new();
    for i in &body.instructions {
        let fam = family(d, i);
        if !matches!(fam.as_ref(), "STORE_NAME" | "STORE_GLOBAL") {
            segment.push(i);
            continue;
        }
        let name = d.str(i.argrepr).to_string();
        let line = segment.iter().find_map(|s| s.line).or(i.line).unwrap_or(0);
        let make = segment.iter().position(|s| family(d, s) == "MAKE_FUNCTION");
        let code = segment.iter().rev().find_map(|s| code_const_name(d.str(s.argrepr)));
        let child = code.and_then(|n| child_named(d, index, n));
        let kind = match (make, code) {
            (Some(m), Some(_)) => {
                let class = segment.iter().any(|s| family(d, s) == "LOAD_BUILD_CLASS");
                if class {
                    DefKind::Class { metaclass: metaclass(d, &segment), bases: class_bases(d, &segment) }
                } else {
                    let before = &segment[..m];
                    let after = &segment[m + 1..];
                    let called = after.iter().filter(|s| matches!(family(d, s).as_ref(), "CALL" | "PRECALL")).count();
                    // Each decorator is one load chain before the code; `functools.lru_cache`
                    // is `LOAD_NAME functools` + `LOAD_ATTR lru_cache`.
                    let mut decorators = Vec::new();
                    let mut k = 0;
                    while k < before.len() && decorators.len() < called {
                        if let Some(n) = loaded_name(d, before[k]) {
                            let mut full = n.to_string();
                            while k + 1 < before.len() && matches!(family(d, before[k + 1]).as_ref(), "LOAD_ATTR" | "LOAD_METHOD") {
                                k += 1;
                                full = format!("{full}.{}", loaded_name(d, before[k]).unwrap_or(""));
                            }
                            decorators.push(full);
                        }
                        k += 1;
                    }
                    let generator = child.is_some_and(|c| matches!(c.kind, CodeKind::Generator | CodeKind::AsyncGenerator));
                    DefKind::Function { decorators, generator }
                }
            }
            _ => DefKind::Value(segment.iter().filter_map(|s| loaded_name(d, s)).map(str::to_string).collect()),
        };
        let is_function = matches!(kind, DefKind::Function { .. });
        let signature = if is_function { child.and_then(|c| signature(d, c)) } else { None };
        let unseen = is_function && child.is_none();
        defs.insert(name, Def { kind, line, signature, unseen });
        segment.clear();
    }
    defs
}

/// The metaclass a class statement's instructions (`segment`, `LOAD_BUILD_CLASS` … the call)
/// pass: the keyword names (3.11/3.12 `KW_NAMES`, 3.13+ a constant tuple before `CALL_KW`)
/// hold `'metaclass'`, and when they hold nothing else its value is the name loaded just
/// before them.
fn metaclass(d: &Dump, segment: &[&Instruction]) -> Option<String> {
    let at = segment.iter().position(|s| {
        let repr = d.str(s.argrepr);
        repr.starts_with('(') && repr.contains("'metaclass'") && matches!(family(d, s).as_ref(), "KW_NAMES" | "LOAD_CONST")
    })?;
    let only = d.str(segment[at].argrepr) == "('metaclass',)";
    let name = segment[..at].last().and_then(|s| loaded_name(d, s)).filter(|_| only);
    Some(name.unwrap_or("").to_string())
}

/// The bases a class statement's instructions (`segment`) pass: the names loaded after the
/// class's name constant, up to the call, less one value per keyword argument; dotted names
/// (`abc.ABC`) are kept whole. `None` when an expression among them is more than a name.
fn class_bases(d: &Dump, segment: &[&Instruction]) -> Option<Vec<String>> {
    let make = segment.iter().position(|s| family(d, s) == "MAKE_FUNCTION")?;
    let named = segment[make..].iter().position(|s| family(d, s) == "LOAD_CONST" && d.str(s.argrepr).starts_with('\''))?;
    let mut names: Vec<String> = Vec::new();
    let mut keywords = 0;
    for s in &segment[make + named + 1..] {
        let repr = d.str(s.argrepr);
        match family(d, s).as_ref() {
            "CALL" | "PRECALL" | "CALL_KW" => break,
            // Keyword names: 3.11/3.12 `KW_NAMES` (3.11's dis leaves its text empty: then
            // they cannot be counted), 3.13+ a constant tuple before `CALL_KW`.
            "KW_NAMES" if repr.is_empty() => return None,
            "KW_NAMES" => keywords = repr.matches('\'').count() / 2,
            "LOAD_CONST" if repr.starts_with('(') => keywords = repr.matches('\'').count() / 2,
            "LOAD_ATTR" => {
                let last = names.last_mut()?;
                last.push('.');
                last.push_str(strip_null_marks(repr));
            }
            "PUSH_NULL" | "NOP" | "CACHE" | "EXTENDED_ARG" => {}
            _ => names.push(loaded_name(d, s)?.to_string()),
        }
    }
    names.truncate(names.len().checked_sub(keywords)?);
    Some(names)
}

/// `0.0`, `-1.5`, `2e-05`, `inf` as `repr()` writes floats (no parser: it would cost the web
/// viewer 4 KB).
fn is_float_literal(repr: &str) -> bool {
    let body = repr.strip_prefix('-').unwrap_or(repr);
    if matches!(body, "inf" | "nan") {
        return true;
    }
    let (mantissa, exponent) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (body, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((a, b)) => (digits(a) || a.is_empty()) && (digits(b) || b.is_empty()) && !(a.is_empty() && b.is_empty()),
        None => digits(mantissa),
    };
    mantissa_ok && (exponent.is_some() || mantissa.contains('.')) && exponent.is_none_or(digits)
}

impl ProgramFacts {
    /// Reads the facts of `d`.
    pub(super) fn of(d: &Dump) -> Self {
        let mut facts = ProgramFacts::default();
        for (index, c) in d.code.iter().enumerate() {
            let (module, qualname) = crate::engine::matching::identity(d, c);
            for i in &c.instructions {
                let repr = d.str(i.argrepr);
                let constant = matches!(d.op(i).family.as_str(), "LOAD_CONST" | "RETURN_CONST" | "LOAD_SMALL_INT");
                if constant && is_float_literal(repr) {
                    let floats = match facts.floats.get_mut(&module) {
                        Some(list) => list,
                        None => {
                            facts.floats.insert(module.clone(), Vec::new());
                            facts.floats.get_mut(&module).expect("just inserted")
                        }
                    };
                    floats.push((repr.to_string(), i.line.unwrap_or(0)));
                }
            }
            match c.kind {
                CodeKind::Module => {
                    for (name, def) in body_defs(d, index as u32, c) {
                        facts.defs.insert((module.clone(), name), def);
                    }
                }
                CodeKind::Class => {
                    let defs = body_defs(d, index as u32, c);
                    for (name, def) in &defs {
                        facts.defs.insert((module.clone(), format!("{qualname}.{name}")), def.clone());
                    }
                    let class = facts.classes.entry((module, qualname)).or_default();
                    class.line = c.first_line;
                    class.defs = defs;
                }
                _ => {}
            }
        }
        let class_names: Vec<(String, String)> = facts.classes.keys().cloned().collect();
        for c in &d.code {
            if matches!(c.kind, CodeKind::Module | CodeKind::Class) {
                continue;
            }
            let (module, qualname) = crate::engine::matching::identity(d, c);
            let method_of = qualname.rsplit_once('.').map(|(cls, m)| (cls.to_string(), m.to_string()));
            for (k, i) in c.instructions.iter().enumerate() {
                let fam = family(d, i);
                if !matches!(fam.as_ref(), "STORE_ATTR" | "DELETE_ATTR") {
                    continue;
                }
                let attr = d.str(i.argrepr).to_string();
                let line = i.line.unwrap_or(0);
                let prev = k.checked_sub(1).map(|p| &c.instructions[p]);
                let receiver = prev.and_then(|p| loaded_name(d, p)).map(|n| n.rsplit(", ").next().unwrap_or(n));
                if let (Some("self"), Some((cls, method))) = (receiver, &method_of) {
                    if let Some(class) = facts.classes.get_mut(&(module.clone(), cls.clone())) {
                        let list = if fam == "STORE_ATTR" { &mut class.sets } else { &mut class.deletes };
                        list.push((attr, method.clone(), line));
                    }
                    continue;
                }
                // `Cls.attr = …`, `Cls.attr += 1`: a load of a class's name on the same line.
                let on_line = c.instructions.iter().filter(|j| j.line == i.line && j.offset < i.offset);
                let class = on_line.filter_map(|j| loaded_name(d, j)).find_map(|n| {
                    class_names.iter().find(|(m, q)| *m == module && q == n).map(|(_, q)| q.clone())
                });
                if let Some(class) = class {
                    facts.class_stores.push(ClassStore { class, attr, code: qualname.clone(), line });
                }
            }
        }
        facts.class_stores.sort();
        facts.class_stores.dedup();
        facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    /// Found by fuzzing (`diff_engine`): a code object whose first line is near `u32::MAX`
    /// overflowed the lines searched for its `def` (a panic in debug builds).
    #[test]
    fn signatures_are_looked_up_near_the_largest_line_number() {
        let mut b = DumpBuilder::new("3.12.1");
        let top = u32::MAX - 2;
        b.code("m", "f", top).ins("RESUME", "", top).finish();
        b.source("m", top, "def f(a,");
        b.source("m", top + 1, "      b):");
        b.source("m", top + 2, "    pass");
        let d = b.build();
        assert_eq!(signature(&d, &d.code[0]).as_deref(), Some("def f(a, b):"));
        let mut b = DumpBuilder::new("3.12.1");
        b.code("m", "g", u32::MAX).ins("RESUME", "", 1).finish();
        b.source("m", u32::MAX, "def g(a,");
        let d = b.build();
        assert_eq!(signature(&d, &d.code[0]), None);
    }

    #[test]
    fn float_literals_are_told_from_other_constants() {
        for yes in ["0.0", "-1.5", "2e-05", "1.5E+10", "inf", "-inf", "nan", "3."] {
            assert!(is_float_literal(yes), "{yes}");
        }
        for no in ["0", "-3", "'0.0'", "x", "", ".", "e5", "1.2.3", "None", "(1.0, 2.0)"] {
            assert!(!is_float_literal(no), "{no}");
        }
    }
    #[test]
    fn bases_are_read_from_the_class_statement() {
        // As 3.11, 3.12 and 3.13 compile `class C(abc.ABC, Mixin, metaclass=M)` (measured).
        let statement = |version: &str, bases: &[(&str, &str)], keywords: &[(&str, &str)]| {
            let mut b = DumpBuilder::new(version);
            let head = [("LOAD_BUILD_CLASS", ""), ("PUSH_NULL", ""), ("LOAD_CONST", "<code object C at 0x1, file \"m.py\", line 1>")];
            let ins = head.iter().chain(&[("MAKE_FUNCTION", ""), ("LOAD_CONST", "'C'")]).chain(bases).chain(keywords);
            let m = ins.fold(b.code("m", "<module>", 1), |m, (op, repr)| m.ins(op, repr, 1));
            m.ins("CALL", "", 1).ins("STORE_NAME", "C", 1).finish();
            match &ProgramFacts::of(&b.build()).defs[&("m".to_string(), "C".to_string())].kind {
                DefKind::Class { bases, .. } => bases.clone(),
                other => panic!("{other:?}"),
            }
        };
        let names = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let abc_mixin = [("LOAD_NAME", "abc"), ("LOAD_ATTR", "ABC"), ("LOAD_NAME", "Mixin"), ("LOAD_NAME", "M")];
        assert_eq!(statement("3.13.0", &abc_mixin, &[("LOAD_CONST", "('metaclass',)")]), names(&["abc.ABC", "Mixin"]));
        assert_eq!(statement("3.12.1", &abc_mixin, &[("KW_NAMES", "('metaclass',)")]), names(&["abc.ABC", "Mixin"]));
        assert_eq!(statement("3.11.7", &abc_mixin, &[("KW_NAMES", "")]), None, "keywords that cannot be counted");
        assert_eq!(statement("3.12.1", &[("LOAD_NAME", "Base")], &[]), names(&["Base"]));
        assert_eq!(statement("3.12.1", &[], &[]), names(&[]));
        let generic = [("LOAD_NAME", "Generic"), ("LOAD_NAME", "T"), ("BINARY_SUBSCR", "")];
        assert_eq!(statement("3.12.1", &generic, &[]), None, "`Generic[T]` is no name");
    }

    #[test]
    fn metaclasses_are_read_from_the_class_statement() {
        // 3.12 passes keyword names with KW_NAMES, 3.13 as a constant tuple before CALL_KW.
        for (version, kw, call) in [("3.12.1", "KW_NAMES", "CALL"), ("3.13.0", "LOAD_CONST", "CALL_KW")] {
            let class = |name: &str, line: u32, keywords: Option<(&str, &str)>| {
                let mut ins = vec![
                    ("LOAD_BUILD_CLASS".to_string(), String::new()),
                    ("LOAD_CONST".into(), format!("<code object {name} at 0x1, file \"m.py\", line {line}>")),
                    ("MAKE_FUNCTION".into(), String::new()),
                    ("LOAD_CONST".into(), format!("'{name}'")),
                ];
                match keywords {
                    Some((value, names)) => ins.extend([
                        ("LOAD_NAME".into(), value.to_string()),
                        (kw.to_string(), names.to_string()),
                        (call.to_string(), "3".into()),
                    ]),
                    None => ins.push((call.to_string(), "2".into())),
                }
                ins.push(("STORE_NAME".into(), name.to_string()));
                ins.into_iter().map(move |(op, repr)| (op, repr, line))
            };
            let mut b = DumpBuilder::new(version);
            let all = class("Plain", 1, None)
                .chain(class("Meta", 3, Some(("Registered", "('metaclass',)"))))
                .chain(class("Both", 5, Some(("flag", "('metaclass', 'flag')"))));
            all.fold(b.code("m", "<module>", 1), |m, (op, repr, line)| m.ins(&op, &repr, line)).finish();
            let facts = ProgramFacts::of(&b.build());
            let kind = |n: &str| facts.defs[&("m".to_string(), n.to_string())].kind.clone();
            let none = Some(Vec::new());
            assert_eq!(kind("Plain"), DefKind::Class { metaclass: None, bases: none.clone() }, "{version}");
            assert_eq!(kind("Meta"), DefKind::Class { metaclass: Some("Registered".into()), bases: none }, "{version}");
            // With other keywords the value's name is not told apart: "a metaclass".
            // (This statement loads one value for two keywords: its bases cannot be told.)
            assert_eq!(kind("Both"), DefKind::Class { metaclass: Some(String::new()), bases: None }, "{version}");
        }
    }

    #[test]
    fn parameters_leave_out_annotations_and_default_values() {
        assert_eq!(parameters("def preParse(self, instring: str, loc: int) -> int:").unwrap(), "(self, instring, loc)");
        assert_eq!(parameters("def preParse(self, instring, loc):").unwrap(), "(self, instring, loc)");
        assert_eq!(
            parameters("def f(a, /, b: Union[int, str] = (1, 2), *args, sep: str = \", )\", flag=False, **kw: Any) -> None:").unwrap(),
            "(a, /, b=…, *args, sep=…, flag=…, **kw)"
        );
        assert_eq!(parameters("def as_list(self, *, flatten: bool = False) -> list:").unwrap(), "(self, *, flatten=…)");
        assert_eq!(parameters("def try_parse("), None, "not closed");
    }

    #[test]
    fn decorators_are_read_from_the_body() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("m", "<module>", 1)
            .ins("LOAD_NAME", "functools", 1)
            .ins("LOAD_ATTR", "lru_cache", 1)
            .ins("LOAD_CONST", "<code object f at 0x1, file \"m.py\", line 1>", 2)
            .ins("MAKE_FUNCTION", "", 2)
            .ins("CALL", "0", 2)
            .ins("STORE_NAME", "f", 2)
            .ins("LOAD_CONST", "3", 4)
            .ins("STORE_NAME", "LIMIT", 4)
            .finish();
        let d = b.build();
        let facts = ProgramFacts::of(&d);
        let f = &facts.defs[&("m".to_string(), "f".to_string())];
        assert_eq!(f.kind, DefKind::Function { decorators: vec!["functools.lru_cache".into()], generator: false });
        assert_eq!(facts.defs[&("m".to_string(), "LIMIT".to_string())].kind, DefKind::Value(vec![]));
    }
}
