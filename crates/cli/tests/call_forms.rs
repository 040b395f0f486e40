//! A call whose form changed (`tests/programs/call_forms`): `area(w, h)` became
//! `area(w, h=h)` and `combine(pair[0], pair[1])` became `combine(*pair)`, on real dumps of
//! every interpreter present. Each call is one row (never a removed call plus an added one),
//! lost where that version cannot specialize the new form, explained by the form, and the
//! gate fails; the demo's megamorphic `shape.area()` call, whose form did not change, gets no
//! call-form explanation.

mod common;

use std::path::Path;

use common::{dump_in, interpreters, ran, repo_root, specdiff, Interpreter};
use serde_json::Value;

fn dump(py: &Interpreter, dir: &Path, folder: &str, side: &str) -> std::path::PathBuf {
    let out = dir.join(format!("{side}-{}.json", py.key));
    let o = dump_in(py, &repo_root().join(folder), &out, &[format!("{side}.py")]);
    assert!(o.status.success(), "{folder}/{side}.py under {}: {}", py.label, String::from_utf8_lossy(&o.stderr));
    out
}

fn report(base: &Path, head: &Path, extra: &[&str]) -> (Value, i32) {
    let o = specdiff()
        .args(["diff", "--json", "--fail-on-regression", "--min-hotness", "0"])
        .args(extra)
        .arg(base)
        .arg(head)
        .output()
        .expect("specdiff runs");
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&o.stderr));
    (serde_json::from_slice(&o.stdout).unwrap(), code)
}

/// The call sites of `function` on `line` of head (a call is a CALL* or PRECALL* opcode).
fn calls<'a>(r: &'a Value, function: &str, line: u64) -> Vec<&'a Value> {
    let f = r["functions"].as_array().unwrap().iter().find(|f| f["qualname"] == function);
    let Some(f) = f else { return vec![] };
    let is_call = |op: &Value| op.as_str().is_some_and(|o| o.starts_with("CALL") || o.starts_with("PRECALL"));
    f["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| (c["head_line"] == line || c["base_line"] == line) && (is_call(&c["base"]) || is_call(&c["head"])))
        .collect()
}

#[test]
fn a_call_whose_form_changed_is_one_site_lost_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    for py in interpreters() {
        let label = &py.label;
        let (base, head) = (dump(py, dir.path(), "crates/cli/tests/programs/call_forms", "base"), dump(py, dir.path(), "crates/cli/tests/programs/call_forms", "head"));
        let (r, code) = report(&base, &head, &["--module", "__main__"]);
        for (function, line, form) in [("total_area", 16, "passes keyword arguments"), ("combine_all", 23, "unpacks its arguments with * or **")] {
            let sites = calls(&r, function, line);
            assert_eq!(sites.len(), 1, "{label}: {function}: one call row, not a removed and an added one: {sites:#?}");
            let c = sites[0];
            assert!(c["base"].is_string() && c["head"].is_string(), "{label}: {function}: {c:#}");
            let kind = c["kind"].as_str().unwrap();
            if py.version() >= (3, 14) {
                // 3.14 specializes keyword calls (CALL_KW_PY) and may specialize the new form.
                assert!(["lost", "changed", "gained", "unchanged"].contains(&kind), "{label}: {function}: {c:#}");
            } else {
                assert_eq!(kind, "lost", "{label}: {function}: {c:#}");
            }
            if kind == "lost" {
                let why = c["explanation"].as_str().unwrap_or_default();
                assert!(why.contains(&format!("the call now {form}")), "{label}: {function}: {why}");
                assert!(why.contains("where it passed only positional arguments in base"), "{label}: {function}: {why}");
            }
        }
        if py.version() < (3, 14) {
            assert_eq!(code, 1, "{label}: the lost calls must fail the gate: {:#}", r["gate"]);
        }
        ran("call_forms", label);
    }
}

#[test]
fn a_call_that_kept_its_form_gets_no_call_form_explanation() {
    // The demo: `shape.area()` in total_area sees three classes in head; its form is the same.
    let dir = tempfile::tempdir().unwrap();
    for py in interpreters() {
        let (base, head) = (dump(py, dir.path(), "examples/demo", "base"), dump(py, dir.path(), "examples/demo", "head"));
        let (r, _) = report(&base, &head, &["--module", "__main__", "--all"]);
        for f in r["functions"].as_array().unwrap() {
            for c in f["changes"].as_array().unwrap() {
                let why = c["explanation"].as_str().unwrap_or_default();
                assert!(!why.contains("the call now"), "{}: {}: {c:#}", py.label, f["qualname"]);
            }
        }
    }
}
