//! The JIT's noise floor on real code (issue 35): three libraries of the real corpus
//! (`tests/real`) whose unchanged programs once showed the most trace changes between two runs
//! (sqlglot lost three hot loops' traces in one pair on 3.14), each version-for-head dumped
//! three times with `PYTHON_JIT=1` on native 3.14 and 3.15 and diffed run against run, each
//! pair (sqlglot on 3.15 once failed the gate in 29 of 153 pairs: `docs/engine.md`).
//!
//! Executors come and go between runs of one program, so the diff reports a trace change only
//! where the dumps show something that changed in the loop (`docs/diff-format.md`, "Run to
//! run"). Here the code is the same: no trace regression, the gate passes with
//! `--gate-traces`, and every trace change left is one whose loop has a tier-1 instruction that
//! took another form in the other run (`respecialized`), which the trace follows.
//!
//! The other side of the rules that keep timing out (`under_jit` in the classifier): a real
//! upgrade's losses that an edit explains are still reported with the JIT on (markdown-it-py
//! 2.2 → 3.0, its base dumped once more).

mod common;

use std::path::Path;
use std::process::Command;

use common::{interpreters, repo_root, specdiff};
use serde_json::Value;

const LIBRARIES: [&str; 3] = ["sqlglot", "markdown-it-py", "tomlkit"];

/// Dumps one version (`side`) of each library on each JIT interpreter into `out`.
fn dump_all(out: &Path, pythons: &[&common::Interpreter], side: &str, libraries: &[&str]) {
    let mut cmd = Command::new("python3");
    cmd.arg(repo_root().join("tests/real/corpus.py")).arg("dump").args(["--side", side, "--jobs", "2"]);
    for py in pythons {
        cmd.arg("--python").arg(format!("{}={}", py.minor, py.python.display()));
    }
    for lib in libraries {
        cmd.args(["--only", lib]);
    }
    cmd.arg("--specdiff").arg(env!("CARGO_BIN_EXE_specdiff"));
    cmd.arg("--out").arg(out).arg("--site").arg(repo_root().join(".tools/real/site"));
    let o = cmd.env("WHEELS", repo_root().join(".tools/real/wheels")).env("PYTHON_JIT", "1").output().unwrap();
    assert!(o.status.success(), "corpus.py dump:\n{}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

#[test]
fn real_libraries_run_three_times_with_the_jit_show_no_regression() {
    const TEST: &str = "real_libraries_run_three_times_with_the_jit_show_no_regression";
    if !repo_root().join(".tools/real/wheels").is_dir() {
        let need = specdiff_test_support::Need::required("real-corpus", "scripts/setup.sh (tests/real/corpus.py fetch)");
        return specdiff_test_support::skip_or_fail(TEST, &need, "no .tools/real/wheels");
    }
    let pythons: Vec<_> = interpreters().iter().filter(|i| !i.pyodide && i.version() >= (3, 14)).collect();
    assert!(!pythons.is_empty() || std::env::var_os("SPECDIFF_REQUIRE_INTERPRETERS").is_none(), "no native 3.14+");
    let runs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    runs.iter().for_each(|r| dump_all(r.path(), &pythons, "head", &LIBRARIES));
    // And markdown-it-py's base, for the real regressions the JIT must not hide (below).
    dump_all(runs[0].path(), &pythons, "base", &["markdown-it-py"]);
    let pairs = [(&runs[0], &runs[1]), (&runs[0], &runs[2]), (&runs[1], &runs[2])];

    let manifest: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(repo_root().join("tests/real/manifest.json")).unwrap()).unwrap();
    let mut problems = Vec::new();
    let mut loops_compared = 0;
    for py in &pythons {
        for lib in manifest.iter().filter(|l| LIBRARIES.contains(&l["name"].as_str().unwrap())) {
            let name = format!("{}-{}-py{}.json.gz", lib["name"].as_str().unwrap(), lib["head"]["version"].as_str().unwrap(), py.minor);
            loops_compared += executors(&runs[0].path().join(&name));
            for (first, second) in pairs {
                let (a, b) = (first.path().join(&name), second.path().join(&name));
                let o = specdiff().args(["diff", "--json", "--fail-on-regression", "--gate-traces"]).arg(&a).arg(&b).output().unwrap();
                let report: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
                if o.status.code() != Some(0) {
                    problems.push(format!("{name}: the gate failed: {}", report["gate"]));
                }
                for f in report["functions"].as_array().unwrap() {
                    // `RESUME`'s forms follow the JIT, not the program (sqlglot on 3.15: a
                    // "gained" or "churning" `RESUME` in most pairs before `under_jit` said so).
                    for c in f["changes"].as_array().into_iter().flatten().filter(|c| c["family"] == "RESUME") {
                        problems.push(format!("{name}: {}:{} line {}: {} {} → {}", f["module"], f["qualname"], c["head_line"], c["kind"], c["base"], c["head"]));
                    }
                    for t in f["traces"].as_array().into_iter().flatten() {
                        let unexplained = t["respecialized"].as_array().is_none_or(|r| r.is_empty());
                        if t["regression"] == true || unexplained {
                            problems.push(format!("{name}: {}:{} line {}: {} — {}", f["module"], f["qualname"], t["line"], t["kind"], t["explanation"]));
                        }
                    }
                }
            }
        }
    }
    // The test means something only if the runs had traces to compare.
    assert!(pythons.is_empty() || loops_compared >= 20, "only {loops_compared} executors in the first runs' dumps");
    assert!(problems.is_empty(), "trace changes on unchanged code:\n{}", problems.join("\n"));

    // What the JIT rules must not hide: markdown-it-py 3.0 tests characters with `in` on a
    // tuple where 2.2 used a set (`table`'s lines 76, 83 and 94, `isSpace`), which no CPython
    // specializes; the sites run in traces, yet the edit, not timing, explains the loss.
    for py in &pythons {
        let report = |side: &str| {
            let lib = manifest.iter().find(|l| l["name"] == "markdown-it-py").unwrap();
            runs[0].path().join(format!("markdown-it-py-{}-py{}.json.gz", lib[side]["version"].as_str().unwrap(), py.minor))
        };
        let o = specdiff().args(["diff", "--json"]).arg(report("base")).arg(report("head")).output().unwrap();
        let report: Value = serde_json::from_slice(&o.stdout).unwrap();
        let lost: Vec<(String, u64)> = report["functions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["changes"].as_array().into_iter().flatten().map(move |c| (f, c)))
            .filter(|(_, c)| c["kind"] == "lost" && c["base"] == "CONTAINS_OP_SET")
            .map(|(f, c)| (f["qualname"].as_str().unwrap().to_string(), c["head_line"].as_u64().unwrap()))
            .collect();
        // Which of them a dump shows lost is the JIT's doing: a trace's recording resets the
        // counters it records, and a head site whose trace the dump could not read then looks
        // idle (`minor`). Three of the four, in any run seen so far (CI: `table` 76, 94 and
        // `isSpace`; here: `table` 83, 94 and `isSpace`, and all four once traces are read).
        let wanted = [("table", 76), ("table", 83), ("table", 94), ("isSpace", 164)];
        let reported = wanted.iter().filter(|want| lost.iter().any(|(q, l)| q == want.0 && *l == want.1)).count();
        assert!(reported >= 3, "{}: only {reported} of {wanted:?} reported lost: {lost:?}", py.minor);
    }
}

/// Executors attached in one dump.
fn executors(path: &Path) -> usize {
    let dump = common::read(path);
    dump.code.iter().map(|c| c.executors.as_ref().map_or(0, Vec::len)).sum()
}
