//! The same two dumps give the same output, byte for byte, in every format and every process
//! (issue 29): `programs/determinism/templates.py` makes thirty functions that all share one
//! module and qualname (`<template>:root`, as Jinja2's compiled templates do), and its head
//! variant changes some of their bodies. Each `specdiff diff` below is a process of its own, so
//! anything that hangs on a hash seed or on the order code happened to be read in shows up as
//! two different outputs.

mod common;

use std::path::Path;

use common::*;

fn dump_variant(py: &Interpreter, dir: &Path, variant: &str) -> std::path::PathBuf {
    let out = dir.join(format!("templates-{variant}-{}.json.gz", py.key));
    let o = specdiff()
        .env("VARIANT", variant)
        .args(["dump", "--python"])
        .arg(&py.python)
        .arg("-o")
        .arg(&out)
        .arg("templates.py")
        .current_dir(repo_root().join("crates/cli/tests/programs/determinism"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}: {}", py.label, String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn repeated_diffs_of_same_named_code_are_identical() {
    let tmp = tempfile::tempdir().unwrap();
    for py in native_interpreters() {
        let (base, head) = (dump_variant(py, tmp.path(), "base"), dump_variant(py, tmp.path(), "head"));
        for format in ["text", "json", "markdown"] {
            let run = || {
                let o = specdiff()
                    .args(["diff", "--color", "never", "--fail-on-regression", "--format", format])
                    .arg(&base)
                    .arg(&head)
                    .output()
                    .unwrap();
                (o.status.code(), o.stdout, o.stderr)
            };
            let first = run();
            assert!(matches!(first.0, Some(0 | 1)), "{}: {}", py.label, String::from_utf8_lossy(&first.2));
            for k in 1..4 {
                let again = run();
                assert!(again == first, "{} {format}: run {k} differs from run 0:\n{}\n---\n{}", py.label,
                    String::from_utf8_lossy(&first.1), String::from_utf8_lossy(&again.1));
            }
        }
        // Each base `root` pairs with the head `root` of the same template: the JSON lists no
        // `root` as added or removed, since every template is still there.
        let o = specdiff().args(["diff", "--json", "--all"]).arg(&base).arg(&head).output().unwrap();
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for side in ["added_functions", "removed_functions"] {
            let roots: Vec<&serde_json::Value> =
                r[side].as_array().unwrap().iter().filter(|f| f.to_string().contains("root")).collect();
            assert!(roots.is_empty(), "{}: {side} {roots:?}", py.label);
        }
        ran("repeated_diffs_of_same_named_code_are_identical", &py.label);
    }
}
