//! `specdiff diff` on bad input: one line on stderr naming the file and what is wrong, exit
//! code 2, nothing on stdout.

mod common;

use common::diff_demo::*;
use common::*;
use serde_json::Value;

#[test]
fn bad_inputs_are_one_line_errors() {
    let d = &demos()[0];
    let good = p(&d.head);
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let bytes = std::fs::read(&d.base).unwrap();
    std::fs::write(path("truncated.json"), &bytes[..bytes.len() / 2]).unwrap();
    assert_bad(&[&path("truncated.json"), good], &["truncated.json: truncated"]);
    std::fs::write(path("notes.json"), "hello, world\n").unwrap();
    assert_bad(&[&path("notes.json"), good], &["notes.json: not JSON"]);
    std::fs::write(path("stats.txt"), "opcode[LOAD_ATTR].specialization.hit : 5\n").unwrap();
    assert_bad(&[good, &path("stats.txt")], &["stats.txt: not a specdiff dump", "pystats"]);
    let mut v: Value = serde_json::from_slice(&bytes).unwrap();
    v["version"] = 99.into();
    std::fs::write(path("newer.json"), serde_json::to_vec(&v).unwrap()).unwrap();
    assert_bad(&[&path("newer.json"), good], &["newer.json: newer format version 99"]);
    assert_bad(&[&path("missing.json"), good], &["missing.json: cannot read: no such file"]);
    let o = diff(&[good, p(&d.base), "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2), "bad usage: {}", stderr(&o));

    // Two unrelated programs, whole-program dumps: they share the library code both loaded
    // (stdlib modules, identical), but not their own code. The demo pair (also whole-program
    // dumps) is one program: every other test here diffs it without the error.
    for py in interpreters() {
        let demo = demos().iter().find(|d| d.py.key == py.key).unwrap();
        let churn = dump_ok(py, dir.path(), "churn", &["crates/cli/tests/programs/churn.py", "2", "5"]);
        assert!(churn.code.iter().any(|c| churn.str(c.module) != "__main__"), "a whole-program dump");
        let other = path(&format!("churn-{}.json", py.key));
        // The message names both files: two `-c` runs have the same label.
        let base_name = demo.base.file_name().unwrap().to_str().unwrap();
        let other_name = format!("churn-{}.json: these dumps", py.key);
        let both = [base_name, other_name.as_str(), "these dumps are from different programs", "of their own code"];
        assert_bad(&[p(&demo.base), &other], &both);
        let o = diff(&["--allow-unrelated", p(&demo.base), &other]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("seem to be from different programs"), "{}", stdout(&o));
        let o = diff(&[p(&demo.base), p(&demo.head)]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    }
}
