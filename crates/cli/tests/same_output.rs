//! The outputs of `specdiff diff` stay byte-identical through refactors: text, markdown and
//! JSON of the demo pair's recorded dumps (CPython 3.11, 3.12, 3.13), and the gate's text and
//! stderr, against golden files in `tests/golden/`.
//!
//! The golden files were written by the `specdiff` of commit f23f3e1, before the core was
//! regrouped into folders and the wording moved into the core, so this test is the recorded
//! proof that neither changed a byte. When a change to the output is intended, regenerate them
//! with `SPECDIFF_BLESS=1 cargo test -p specdiff-cli --test same_output` and review the diff.

use std::path::Path;
use std::process::Command;

const DUMPS: &str = "../core/tests/fixtures/dumps";

/// Runs `specdiff diff ARGS BASE HEAD` from the crate folder (paths in the output are relative).
fn diff(args: &[&str], version: &str) -> (i32, String, String) {
    let base = format!("{DUMPS}/demo-base-{version}.json.gz");
    let head = format!("{DUMPS}/demo-head-{version}.json.gz");
    let o = Command::new(env!("CARGO_BIN_EXE_specdiff"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("diff")
        .args(args)
        .args([&base, &head])
        .env_remove("NO_COLOR")
        .output()
        .expect("run specdiff");
    (o.status.code().unwrap_or(-1), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// Compares `actual` with the golden file `name`, printing a line diff on failure.
fn assert_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("SPECDIFF_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if expected != actual {
        let mut report = format!("{name} differs from the golden file (- golden, + now):\n");
        let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        for i in 0..e.len().max(a.len()) {
            match (e.get(i), a.get(i)) {
                (Some(x), Some(y)) if x == y => {}
                (x, y) => {
                    report.push_str(&format!("line {}:\n- {}\n+ {}\n", i + 1, x.unwrap_or(&"<none>"), y.unwrap_or(&"<none>")));
                }
            }
        }
        if expected.len() != actual.len() && expected.lines().eq(actual.lines()) {
            report.push_str("(the line endings or the final newline differ)\n");
        }
        panic!("{report}");
    }
}

#[test]
fn every_format_is_byte_identical_to_the_recorded_output() {
    for version in ["3.11", "3.12", "3.13"] {
        for (format, ext) in [("text", "txt"), ("markdown", "md"), ("json", "json")] {
            let mut args = vec!["--format", format];
            if format == "text" {
                args.extend(["--color", "never"]);
            }
            let (code, out, err) = diff(&args, version);
            assert_eq!(code, 0, "{version} {format}: {err}");
            assert_golden(&format!("demo-{version}.{ext}"), &out);
        }
    }
}

#[test]
fn the_gate_says_the_same_words() {
    let (code, out, err) = diff(&["--fail-on-regression", "--color", "never"], "3.12");
    assert_eq!(code, 1, "the demo pair regresses: {err}");
    assert_golden("demo-3.12-gate.txt", &out);
    assert_golden("demo-3.12-gate.stderr", &err);
}
