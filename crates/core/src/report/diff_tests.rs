//! Tests of the diff pipeline: the fast path for identical pairs against the full comparison,
//! and telling different programs apart by their own code.

use super::*;
use crate::engine::classify::ClassifyOptions;
use crate::format::builder::DumpBuilder;
use crate::format::dump::read_dump;

fn fixture(name: &str) -> Dump {
    let path = format!("{}/tests/fixtures/dumps/{name}.json.gz", env!("CARGO_MANIFEST_DIR"));
    read_dump(&path, &std::fs::read(&path).unwrap(), Default::default()).unwrap()
}

/// The report with and without the fast path for identical pairs (as JSON, errors too).
fn both_paths(base: &Dump, head: &Dump, options: &DiffOptions) -> (String, String) {
    let run = |fast: bool| {
        let mut s = DiffSession::new(base, head, options.clone());
        s.fast = fast;
        match s.report() {
            Ok(r) => serde_json::to_string_pretty(&r).unwrap(),
            Err(e) => e.to_string(),
        }
    };
    (run(true), run(false))
}

#[test]
fn fast_path_reports_exactly_what_the_full_comparison_does() {
    let mut options = vec![DiffOptions::default(), DiffOptions { allow_unrelated: true, ..Default::default() }];
    options.push(DiffOptions { modules: vec!["__main__".into()], ..Default::default() });
    options.push(DiffOptions { classify: ClassifyOptions { min_misses: 0, min_flips: 0, min_failures: 0 }, ..Default::default() });
    let mut fast_pairs = 0;
    for v in ["3.11", "3.12", "3.13"] {
        let dumps: Vec<Dump> = ["demo-base", "demo-head", "poly-mono", "poly-poly", "rules-base", "rules-head"]
            .iter()
            .map(|n| fixture(&format!("{n}-{v}")))
            .collect();
        for b in &dumps {
            for h in &dumps {
                for o in &options {
                    let (fast, full) = both_paths(b, h, o);
                    assert_eq!(fast, full, "{v} {} vs {}", b.label(), h.label());
                }
                let mut s = DiffSession::new(b, h, DiffOptions::default());
                if let Some(mut f) = s.fast_path() {
                    let pairs = s.matching.pairs.clone();
                    fast_pairs += pairs.iter().filter(|p| f.identical(&mut s.norm, p.base, p.head)).count();
                }
            }
        }
    }
    assert!(fast_pairs > 100, "the fast path was taken {fast_pairs} times");
}

/// Two programs that share a big library (identical code) but none of their own code.
#[test]
fn different_programs_are_told_apart_by_their_own_code() {
    let program = |main_ops: &[(&str, &str)]| {
        let mut b = DumpBuilder::new("3.12.1");
        for i in 0..20 {
            b.code("json", &format!("f{i}"), 1).ins("LOAD_FAST", "x", 2).ins("LOAD_ATTR_SLOT", "a", 2).finish();
        }
        let mut c = b.code("__main__", "<module>", 1);
        for (op, arg) in main_ops {
            c = c.ins(op, arg, 2);
        }
        c.finish();
        b.code("helper", "g", 1).ins("LOAD_GLOBAL", main_ops[0].1, 1).finish();
        let mut d = b.build();
        d.run.cwd = "/home/u".into();
        d.run.target.value = "app/main.py".into();
        d.files[0].path = "/usr/lib/python3.12/json/__init__.py".into();
        d.files[1].path = "app/main.py".into();
        d.files[2].path = "/home/u/app/helper.py".into();
        d
    };
    let a = program(&[("LOAD_NAME", "print"), ("LOAD_CONST", "1"), ("CALL", ""), ("POP_TOP", "")]);
    let b = program(&[("LOAD_NAME", "input"), ("CALL", ""), ("STORE_NAME", "s"), ("LOAD_NAME", "len")]);
    let err = diff_dumps(&a, &b, &DiffOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "these dumps are from different programs (CPython 3.12.1 · prog.py vs CPython 3.12.1 · prog.py): \
         2 of their own code objects share a name, but only 20% of their own code is alike"
    );
    assert!(diff_dumps(&a, &a, &DiffOptions::default()).is_ok());
    // With a filter on the library, only library code is compared: no check.
    let json = DiffOptions { modules: vec!["json".into()], ..Default::default() };
    assert!(diff_dumps(&a, &b, &json).is_ok());
    // Without own code on a side (here: the target is elsewhere and nothing is __main__),
    // everything is compared, as before.
    let mut c = b.clone();
    c.run.target.value = "/elsewhere/x.py".into();
    c.strings.iter_mut().filter(|s| *s == "__main__").for_each(|s| *s = "main".into());
    let r = diff_dumps(&a, &c, &DiffOptions::default()).unwrap();
    assert_eq!(r.summary.matched, 21);
}

/// Identical but for what differs between any two runs: code object addresses in
/// operands and the cache words after the counter (type versions, pointers).
#[test]
fn identical_code_is_recognized_across_runs() {
    let build = |addr: &str, cached: u16, line: u32| {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("m", "f", line)
            .ins("LOAD_CONST", &format!("<code object g at {addr}, file \"m.py\", line 3>"), line + 1)
            .ins("LOAD_ATTR_METHOD_NO_DICT", "append", line + 1)
            .churn(2, &["LOAD_ATTR", "LOAD_ATTR_METHOD_NO_DICT"])
            .ins("CALL_PY_EXACT_ARGS", "", line + 1)
            .finish();
        let mut d = b.build();
        d.code[0].instructions[1].cache.extend([0, cached, 7]);
        d
    };
    let (a, b) = (build("0x7f01", 11, 1), build("0x7f99", 12, 5));
    let mut s = DiffSession::new(&a, &b, DiffOptions::default());
    let mut f = s.fast_path().unwrap();
    assert!(f.identical(&mut s.norm, 0, 0));
    let (fast, full) = both_paths(&a, &b, &DiffOptions::default());
    assert_eq!(fast, full);
    // A different counter word is not identical.
    let mut c = build("0x7f01", 11, 1);
    c.code[0].instructions[1].cache[0] -= 16;
    c.code[0].instructions[1].counter = Some((51, 0));
    let mut s = DiffSession::new(&a, &c, DiffOptions::default());
    let mut f = s.fast_path().unwrap();
    assert!(!f.identical(&mut s.norm, 0, 0));
}
