//! The outputs of `specdiff diff` stay byte-identical through refactors: text, markdown and
//! JSON of the demo pair's recorded dumps (CPython 3.11, 3.12, 3.13), and the gate's text and
//! stderr, against golden files in `tests/golden/`; and the three formats of a real library's
//! upgrade (pyparsing) and of a diff with import-time regressions, which
//! `crates/web/src/analysis/one_story.rs` compares with the page.
//!
//! The golden files were written by the `specdiff` of commit f23f3e1, before the core was
//! regrouped into folders and the wording moved into the core, so this test is the recorded
//! proof that neither changed a byte. When a change to the output is intended, regenerate them
//! with `SPECDIFF_BLESS=1 cargo test -p specdiff-cli --test same_output` and review the diff.

use std::path::Path;
use std::process::Command;

const DUMPS: &str = "../core/tests/fixtures/dumps";

/// Runs `specdiff diff ARGS BASE HEAD` of the demo pair of `version`.
fn diff(args: &[&str], version: &str) -> (i32, String, String) {
    diff_pair(args, &format!("demo-base-{version}"), &format!("demo-head-{version}"))
}

/// Runs `specdiff diff ARGS BASE HEAD` of two fixture dumps from the crate folder (paths in
/// the output are relative).
fn diff_pair(args: &[&str], base: &str, head: &str) -> (i32, String, String) {
    let base = format!("{DUMPS}/{base}.json.gz");
    let head = format!("{DUMPS}/{head}.json.gz");
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

/// The other pairs `crates/web/src/analysis/one_story.rs` compares with the page: a real
/// library's upgrade and a diff with import-time regressions.
#[test]
fn a_library_upgrade_and_import_time_code_read_the_same_too() {
    for (name, base, head) in [
        ("pyparsing-3.12", "pyparsing-3.2.0-3.12", "pyparsing-3.2.3-3.12"),
        ("import-only", "import-only-3.12", "import-only-3.13"),
    ] {
        for (format, ext) in [("text", "txt"), ("markdown", "md"), ("json", "json")] {
            let (code, out, err) = diff_pair(&["--format", format, "--color", "never"][..if format == "text" { 4 } else { 2 }], base, head);
            assert_eq!(code, 0, "{name} {format}: {err}");
            assert_golden(&format!("{name}.{ext}"), &out);
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
