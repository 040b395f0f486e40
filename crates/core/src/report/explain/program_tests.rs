//! Tests of [`super`]: definitions, bases, metaclasses, decorators and imports read from
//! module and class bodies.

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

#[test]
fn imports_bind_names_to_absolute_modules() {
    // In package `pkg.sub` (a plain module): `import os.path`, `import re as regex`,
    // `from typing import cast, List as L`, `from .util import helper`,
    // `import lib.util as u`, and 3.15's suffix.
    let mut b = DumpBuilder::new("3.15.0");
    b.code("pkg.sub", "<module>", 1)
        .ins("LOAD_SMALL_INT", "0", 1)
        .ins("LOAD_CONST", "None", 1)
        .ins("IMPORT_NAME", "os.path", 1)
        .ins("STORE_NAME", "os", 1)
        .ins("LOAD_SMALL_INT", "0", 2)
        .ins("LOAD_CONST", "None", 2)
        .ins("IMPORT_NAME", "re + eager", 2)
        .ins("STORE_NAME", "regex", 2)
        .ins("LOAD_SMALL_INT", "0", 3)
        .ins("LOAD_CONST", "('cast', 'List')", 3)
        .ins("IMPORT_NAME", "typing", 3)
        .ins("IMPORT_FROM", "cast", 3)
        .ins("STORE_NAME", "cast", 3)
        .ins("IMPORT_FROM", "List", 3)
        .ins("STORE_NAME", "L", 3)
        .ins("POP_TOP", "", 3)
        .ins("LOAD_SMALL_INT", "1", 4)
        .ins("LOAD_CONST", "('helper',)", 4)
        .ins("IMPORT_NAME", "util", 4)
        .ins("IMPORT_FROM", "helper", 4)
        .ins("STORE_NAME", "helper", 4)
        .ins("POP_TOP", "", 4)
        .ins("LOAD_SMALL_INT", "0", 5)
        .ins("LOAD_CONST", "None", 5)
        .ins("IMPORT_NAME", "lib.util", 5)
        .ins("IMPORT_FROM", "util", 5)
        .ins("STORE_NAME", "u", 5)
        .ins("POP_TOP", "", 5)
        .finish();
    let facts = ProgramFacts::of(&b.build());
    let kind = |n: &str| facts.defs[&("pkg.sub".to_string(), n.to_string())].kind.clone();
    let import = |m: &str, n: Option<&str>| DefKind::Import { module: m.into(), name: n.map(str::to_string) };
    assert_eq!(kind("os"), import("os", None));
    assert_eq!(kind("regex"), import("re", None));
    assert_eq!(kind("cast"), import("typing", Some("cast")));
    assert_eq!(kind("L"), import("typing", Some("List")));
    assert_eq!(kind("helper"), import("pkg.util", Some("helper")));
    assert_eq!(kind("u"), import("lib.util", None), "`import lib.util as u` is the module");
    assert_eq!(absolute_module("pkg.sub", true, 1, "x"), Some("pkg.sub.x".into()), "a package's own .x");
    assert_eq!(absolute_module("pkg.sub", false, 2, ""), None, "past the top");
}

/// `from MODULE import *` at `line` (3.12+: the intrinsic).
fn star<'b>(m: crate::format::builder::CodeBuilder<'b>, module: &str, line: u32) -> crate::format::builder::CodeBuilder<'b> {
    m.ins("LOAD_CONST", "0", line)
        .ins("LOAD_CONST", "('*',)", line)
        .ins("IMPORT_NAME", module, line)
        .ins("CALL_INTRINSIC_1", "INTRINSIC_IMPORT_STAR", line)
        .ins("POP_TOP", "", line)
}

/// `def NAME` at `line`.
fn def<'b>(m: crate::format::builder::CodeBuilder<'b>, name: &str, line: u32) -> crate::format::builder::CodeBuilder<'b> {
    m.ins("LOAD_CONST", &format!("<code object {name} at 0x1, file \"m.py\", line {line}>"), line)
        .ins("MAKE_FUNCTION", "", line)
        .ins("STORE_NAME", name, line)
}

#[test]
fn names_are_followed_through_star_imports_only_when_one_definition_is_bound() {
    // networkx: `nx.shortest_path` is bound by `from networkx.algorithms import *` and three
    // more star imports below it (issue 29: such calls were silent).
    use super::super::callee_rules::global;
    let mut b = DumpBuilder::new("3.12.1");
    let top = star(star(b.code("pkg", "<module>", 1), "pkg.a", 1), "pkg.b", 2);
    def(star(top, "pkg.c", 3), "after", 4).finish();
    def(def(def(b.code("pkg.a", "<module>", 1), "f", 1), "_private", 2), "both", 3).finish();
    def(def(b.code("pkg.b", "<module>", 1), "g", 1), "both", 2).finish();
    def(b.code("pkg.c", "<module>", 1), "h", 1).finish();
    def(star(b.code("solo", "<module>", 1), "elsewhere", 1), "k", 2).finish();
    let facts = ProgramFacts::of(&b.build());
    let found = |name: &str| global(&facts, "pkg", name).map(|(key, _)| format!("{}:{}", key.0, key.1));
    assert_eq!(found("f").as_deref(), Some("pkg.a:f"));
    assert_eq!(found("g").as_deref(), Some("pkg.b:g"));
    assert_eq!(found("after").as_deref(), Some("pkg:after"), "a def after a star import is a def, not that import");
    assert_eq!(facts.stars[&"pkg".to_string()], ["pkg.a", "pkg.b", "pkg.c"]);
    assert_eq!(found("_private"), None, "a star import leaves out names starting with _");
    assert_eq!(found("both"), None, "two star imports bind it: which is last is not read");
    assert_eq!(found("h").as_deref(), Some("pkg.c:h"));
    let solo = |name: &str| global(&facts, "solo", name).map(|(key, _)| key.1.as_str());
    assert_eq!(solo("k"), Some("k"), "its own def");
    assert_eq!(solo("f"), None, "solo star-imports a module the dump does not have: f could come from it");
    assert_eq!(found("nowhere"), None);
}
