//! `specdiff dump` across CPython versions, including one it does not know yet: every
//! interpreter present dumps imports as its own `dis` lists them (3.15 changed
//! `IMPORT_NAME`'s argument), a version whose rules are withheld (`SPECDIFF_ASSUME_NEWEST`
//! pretends an older one is the newest the harness knows) still dumps, checked against `dis`
//! and with one line saying which rules it assumed, and a failure of the harness itself is
//! specdiff's own one-line error, never the program's exit status.

mod common;

use common::*;

const IMPORTS: &str = "import sys\nfrom os import path\nimport os.path as osp\n";

/// `(opname, argrepr)` of the `IMPORT_NAME`s of the `-c` program's module body.
fn imports(d: &specdiff_core::Dump) -> Vec<(String, String)> {
    let module = d
        .code
        .iter()
        .find(|c| d.str(c.qualname) == "<module>" && d.files[c.file as usize].path == "<string>")
        .expect("the -c program's module body");
    listing(d, module).into_iter().filter(|(op, _, _)| op == "IMPORT_NAME").map(|(op, arg, _)| (op, arg)).collect()
}

#[test]
fn imports_dump_as_each_version_lists_them() {
    let tmp = tempfile::tempdir().unwrap();
    for py in native_interpreters() {
        let d = dump_ok(py, tmp.path(), "imports", &["-c", IMPORTS]);
        let names: Vec<String> = imports(&d).into_iter().map(|(_, arg)| arg).collect();
        assert_eq!(names, ["sys", "os", "os.path"], "{}", py.label);
    }
}

#[test]
fn a_version_newer_than_the_harness_knows_dumps_checked_against_dis() {
    let Some(py) = interpreter("a_version_newer_than_the_harness_knows_dumps_checked_against_dis", "3.15") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let known = dump_ok(py, tmp.path(), "known", &["-c", IMPORTS]);
    let out = tmp.path().join("assumed.json");
    let o = specdiff()
        .env("SPECDIFF_ASSUME_NEWEST", "3.14")
        .args(["dump", "--python"])
        .arg(&py.python)
        .arg("-o")
        .arg(&out)
        .args(["-c", IMPORTS])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("newer than any specdiff knows")).collect();
    assert_eq!(notes.len(), 1, "one line says which rules were assumed: {err}");
    assert!(notes[0].contains("decoded with 3.14's rules") && notes[0].contains("taken from dis"), "{}", notes[0]);
    assert!(notes[0].contains("3-bit backoff"), "the counter layout is measured, not assumed: {}", notes[0]);
    // 3.14's rules read 3.15's IMPORT_NAME argument as a plain name index; dis corrected it.
    let assumed = read(&out);
    assert_eq!(imports(&assumed), imports(&known));
    assert_eq!(assumed.python.counter_backoff_bits, Some(3));
}

#[test]
fn a_failure_of_the_harness_is_specdiffs_own_error() {
    let tmp = tempfile::tempdir().unwrap();
    // The program takes away a module the harness imports only to write the dump.
    let program = "import sys; sys.modules['json'] = None; sys.exit(5)";
    for py in native_interpreters() {
        let out = tmp.path().join(format!("failed-{}.json", py.key));
        let o = dump_with(py, &out, &["-c", program]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(70), "{}: {err}", py.label);
        let line = err.lines().find(|l| l.starts_with("specdiff: internal error")).unwrap_or_else(|| panic!("{err}"));
        assert!(line.contains("while building the dump") && line.contains("ModuleNotFoundError") && line.contains("json"), "{line}");
        assert!(line.ends_with("--debug prints the traceback)"), "{line}");
        assert!(!err.contains("Traceback") && !err.contains("status 5"), "{}: {err}", py.label);
        assert!(!out.exists(), "nothing written");
        let o = specdiff().args(["dump", "--debug", "--python"]).arg(&py.python).arg("-o").arg(&out).args(["-c", program]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(70), "{err}");
        assert!(err.contains("Traceback (most recent call last):") && err.contains("write_json"), "{err}");
        ran("a_failure_of_the_harness_is_specdiffs_own_error", &py.label);
    }
}
