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
    /// An import binds the name: `import module` (`name` `None`; `import a.b` binds `a`, so
    /// `module` is `a`) or `from module import name`, with relative modules made absolute.
    Import { module: String, name: Option<String> },
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
            DefKind::Class { .. } | DefKind::Import { .. } => return None,
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
    /// Per module: its file, as reports show paths.
    pub(super) files: LiteMap<String, String>,
    /// Per module: the modules its body star-imports (`from m import *`), in order.
    pub(super) stars: LiteMap<String, Vec<String>>,
}

impl ProgramFacts {
    /// Where the definition `key` is, for a sentence: `` `module:qualname` (file:line) ``.
    pub(super) fn place(&self, key: &(String, String), def: &Def) -> String {
        format!("`{}:{}` ({})", key.0, key.1, self.at(key, def))
    }

    /// `file:line` of the definition `key` (`line N` when its module's file is unknown).
    pub(super) fn at(&self, key: &(String, String), def: &Def) -> String {
        match self.files.get(&key.0) {
            Some(file) => format!("{file}:{}", def.line),
            None => format!("line {}", def.line),
        }
    }
}

/// The module an `IMPORT_NAME` in `importer` names, made absolute: `level` leading dots go up
/// from the importer's package (`None` when they go past its top).
fn absolute_module(importer: &str, is_package: bool, level: usize, module: &str) -> Option<String> {
    if level == 0 {
        return Some(module.to_string());
    }
    let mut parts: Vec<&str> = importer.split('.').collect();
    if !is_package {
        parts.pop();
    }
    for _ in 1..level {
        parts.pop()?;
    }
    if parts.is_empty() {
        return None;
    }
    let package = parts.join(".");
    Some(if module.is_empty() { package } else { format!("{package}.{module}") })
}

/// The small integer constant an instruction loads: `LOAD_CONST 1 (1)`'s argrepr before 3.14;
/// 3.14's `LOAD_SMALL_INT 1` has an empty argrepr and the value in its `arg` (issue 29: every
/// `from .element import Tag` in beautifulsoup4 was read as a top-level `element` on 3.14).
fn int_constant(d: &Dump, i: &Instruction) -> Option<usize> {
    if d.op(i).name == "LOAD_SMALL_INT" {
        return i.arg.map(|a| a as usize);
    }
    d.str(i.argrepr).parse().ok()
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

/// Code objects by `(parent, name)`, the first of each in dump order: what a `LOAD_CONST <code
/// object NAME at …>` in the body of `parent` loads. Built once per dump, since a lookup by
/// scanning every code object per definition was quadratic in whole programs.
type Children<'d> = std::collections::HashMap<(u32, &'d str), u32>;

fn children(d: &Dump) -> Children<'_> {
    let mut map = Children::new();
    for (i, c) in d.code.iter().enumerate() {
        if let Some(parent) = c.parent {
            map.entry((parent, d.str(c.name))).or_insert(i as u32);
        }
    }
    map
}

/// The code object named `name` among `parent`'s children.
fn child_named<'d>(d: &'d Dump, children: &Children<'_>, parent: u32, name: &str) -> Option<&'d CodeInfo> {
    children.get(&(parent, name)).map(|&i| &d.code[i as usize])
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

/// The module the `IMPORT_NAME` at `segment[at]` imports, made absolute from `importer`: 3.15
/// adds " + lazy" / " + eager" to its text; the level is the constant two before it.
fn import_target(d: &Dump, segment: &[&Instruction], at: usize, importer: &str, is_package: bool) -> Option<String> {
    let text = d.str(segment[at].argrepr).split(" + ").next().unwrap_or("");
    let level = at.checked_sub(2).and_then(|l| int_constant(d, segment[l])).unwrap_or(0);
    absolute_module(importer, is_package, level, text)
}

/// What a module or class body defines, and the modules it star-imports, in order.
fn body_defs(d: &Dump, children: &Children<'_>, index: u32, body: &CodeInfo) -> (LiteMap<String, Def>, Vec<String>) {
    let mut defs = LiteMap::new();
    let mut stars = Vec::new();
    let mut segment: Vec<&Instruction> = Vec::new();
    // The module of the last `IMPORT_NAME` (absolute), for `from m import a, b`: one import,
    // then an `IMPORT_FROM` and a store per name.
    let mut imported: Option<String> = None;
    let (module, _) = crate::engine::matching::identity(d, body);
    let is_package = d.files[body.file as usize].path.ends_with("__init__.py");
    for i in &body.instructions {
        let fam = family(d, i);
        // `from m import *` stores nothing: its names come from `m` when the body runs. Its
        // import must not be read as the import of the next name stored.
        if fam == "IMPORT_STAR" || (d.op(i).name == "CALL_INTRINSIC_1" && d.str(i.argrepr) == "INTRINSIC_IMPORT_STAR") {
            if let Some(at) = segment.iter().rposition(|s| family(d, s) == "IMPORT_NAME") {
                stars.extend(import_target(d, &segment, at, &module, is_package));
            }
            segment.clear();
            continue;
        }
        // A statement that binds no name ends here too: an annotation (`pos: int` under
        // `from __future__ import annotations` stores into `__annotations__`), a store into an
        // item or attribute, a `del`, an expression statement. Left in the segment it was read
        // as part of the next `def`: cssselect 1.3's `Token.type` came out "decorated with
        // `@__annotations__`" at the annotation's line.
        if matches!(fam.as_ref(), "STORE_SUBSCR" | "STORE_ATTR" | "DELETE_SUBSCR" | "DELETE_ATTR" | "DELETE_NAME" | "POP_TOP") {
            segment.clear();
            continue;
        }
        if !matches!(fam.as_ref(), "STORE_NAME" | "STORE_GLOBAL") {
            segment.push(i);
            continue;
        }
        let name = d.str(i.argrepr).to_string();
        let line = segment.iter().find_map(|s| s.line).or(i.line).unwrap_or(0);
        let at = segment.iter().rposition(|s| family(d, s) == "IMPORT_NAME");
        if let Some(at) = at {
            imported = import_target(d, &segment, at, &module, is_package);
        }
        let from = segment.iter().rev().find(|s| family(d, s) == "IMPORT_FROM").map(|s| d.str(s.argrepr).to_string());
        // `import a.b as c` is IMPORT_NAME a.b (no from-list: None), IMPORT_FROM b: `c` is the
        // module a.b itself.
        let no_fromlist = at.and_then(|a| a.checked_sub(1)).is_some_and(|p| d.str(segment[p].argrepr) == "None");
        if no_fromlist && from.is_some() {
            if let Some(m) = &imported {
                defs.insert(name, Def { kind: DefKind::Import { module: m.clone(), name: None }, line, signature: None, unseen: false });
            }
            segment.clear();
            continue;
        }
        let imports = segment.iter().any(|s| matches!(family(d, s).as_ref(), "IMPORT_NAME" | "IMPORT_FROM"));
        if imports {
            if let Some(m) = &imported {
                let kind = match from {
                    Some(n) => DefKind::Import { module: m.clone(), name: Some(n) },
                    // `import a.b.c` binds `a`.
                    None => DefKind::Import { module: m.split('.').next().unwrap_or(m).to_string(), name: None },
                };
                defs.insert(name, Def { kind, line, signature: None, unseen: false });
            }
            segment.clear();
            continue;
        }
        let make = segment.iter().position(|s| family(d, s) == "MAKE_FUNCTION");
        let code = segment.iter().rev().find_map(|s| code_const_name(d.str(s.argrepr)));
        let child = code.and_then(|n| child_named(d, children, index, n));
        // A `def name` or `class name` makes a code object of that name; `name = lambda …` makes
        // the value itself. A function made inside another value (`FUNCTIONS = {…, "X": lambda
        // args: …}`, sqlglot's dialect tables) leaves the store a plain value: issue 29 saw such
        // a dict described as "a method decorated with `@PROPERTY_PARSERS.pop`".
        let defines = |m: usize| {
            code == Some(name.as_str())
                || (code == Some("<lambda>")
                    && segment[m + 1..].iter().all(|s| !matches!(family(d, s).as_ref(), "CALL" | "PRECALL" | "BUILD_MAP" | "BUILD_LIST" | "BUILD_TUPLE" | "BUILD_SET" | "DICT_UPDATE" | "DICT_MERGE" | "LIST_EXTEND" | "MAP_ADD")))
        };
        let kind = match (make, code) {
            (Some(m), Some(_)) if defines(m) || segment.iter().any(|s| family(d, s) == "LOAD_BUILD_CLASS") => {
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
    (defs, stars)
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
/// The float constants the code object `c` itself loads, as `repr()` wrote them, with their
/// line.
pub(super) fn float_constants(d: &Dump, c: &CodeInfo) -> Vec<(String, u32)> {
    c.instructions
        .iter()
        .filter(|i| matches!(d.op(i).family.as_str(), "LOAD_CONST" | "RETURN_CONST" | "LOAD_SMALL_INT"))
        .map(|i| (d.str(i.argrepr), i.line.unwrap_or(0)))
        .filter(|(repr, _)| is_float_literal(repr))
        .map(|(repr, line)| (repr.to_string(), line))
        .collect()
}

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
        let paths = crate::report::paths::PathDisplay::of(d);
        let children = children(d);
        for (index, c) in d.code.iter().enumerate() {
            let (module, qualname) = crate::engine::matching::identity(d, c);
            if c.kind == CodeKind::Module && !facts.files.contains_key(&module) {
                facts.files.insert(module.clone(), paths.show(&d.files[c.file as usize].path));
            }
            match c.kind {
                CodeKind::Module => {
                    let (defs, stars) = body_defs(d, &children, index as u32, c);
                    for (name, def) in defs {
                        facts.defs.insert((module.clone(), name), def);
                    }
                    if !stars.is_empty() {
                        facts.stars.insert(module, stars);
                    }
                }
                CodeKind::Class => {
                    let (defs, _) = body_defs(d, &children, index as u32, c);
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
        // Per opcode of the dump's table: `Some(true)` for a `STORE_ATTR`, `Some(false)` for a
        // `DELETE_ATTR`. Worked out once: every instruction of the program is looked at here.
        let attr_op: Vec<Option<bool>> = d
            .ops
            .iter()
            .map(|op| match key_family(&op.name, &op.family).as_ref() {
                "STORE_ATTR" => Some(true),
                "DELETE_ATTR" => Some(false),
                _ => None,
            })
            .collect();
        for c in &d.code {
            if matches!(c.kind, CodeKind::Module | CodeKind::Class) {
                continue;
            }
            let mut names = None;
            for (k, i) in c.instructions.iter().enumerate() {
                let Some(stores) = attr_op.get(i.op as usize).copied().flatten() else {
                    continue;
                };
                let (module, qualname, method_of) = names.get_or_insert_with(|| {
                    let (module, qualname) = crate::engine::matching::identity(d, c);
                    let method_of = qualname.rsplit_once('.').map(|(cls, m)| (cls.to_string(), m.to_string()));
                    (module, qualname, method_of)
                });
                let (module, qualname, method_of) = (&*module, &*qualname, &*method_of);
                let attr = d.str(i.argrepr).to_string();
                let line = i.line.unwrap_or(0);
                let prev = k.checked_sub(1).map(|p| &c.instructions[p]);
                let receiver = prev.and_then(|p| loaded_name(d, p)).map(|n| n.rsplit(", ").next().unwrap_or(n));
                if let (Some("self"), Some((cls, method))) = (receiver, method_of) {
                    if let Some(class) = facts.classes.get_mut(&(module.clone(), cls.clone())) {
                        let list = if stores { &mut class.sets } else { &mut class.deletes };
                        list.push((attr, method.clone(), line));
                    }
                    continue;
                }
                // `Cls.attr = …`, `Cls.attr += 1`: a load of a class's name on the same line.
                let on_line = c.instructions.iter().filter(|j| j.line == i.line && j.offset < i.offset);
                let class = on_line.filter_map(|j| loaded_name(d, j)).find_map(|n| {
                    class_names.iter().find(|(m, q)| m == module && q == n).map(|(_, q)| q.clone())
                });
                if let Some(class) = class {
                    facts.class_stores.push(ClassStore { class, attr, code: qualname.to_string(), line });
                }
            }
        }
        facts.class_stores.sort();
        facts.class_stores.dedup();
        facts
    }
}

#[cfg(test)]
#[path = "program_tests.rs"]
mod tests;
