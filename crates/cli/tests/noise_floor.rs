//! The noise floor on real interpreters (issue 14): each realistic workload of
//! `tests/noise/workloads` (stdlib text processing, dataclasses and namedtuples, a parser,
//! templates compiled with exec, asyncio, classes, a unittest suite), dumped three times
//! under every interpreter present and diffed pairwise, gives no regression and passes
//! `--fail-on-regression` (the asyncio workload not under pyodide, which cannot run it).
//! `scripts/noise_floor.py` measures the same with five runs and a pytest suite for the table
//! in `docs/engine.md`.

mod common;

use std::path::{Path, PathBuf};

use common::{dump_in, interpreters, regressions_outside_import_time, repo_root, specdiff, Interpreter};
use serde_json::Value;

const RUNS: usize = 3;

/// `(name, arguments after specdiff dump)`, run in the workloads' folder.
const WORKLOADS: &[(&str, &[&str])] = &[
    ("logs", &["logs.py"]),
    ("records", &["records.py"]),
    ("exprs", &["exprs.py"]),
    ("templates", &["templates.py"]),
    ("tasks", &["tasks.py"]),
    ("shapes", &["shapes.py"]),
    ("unittest", &["-m", "unittest", "-q", "test_inventory"]),
];

fn workloads_dir() -> PathBuf {
    repo_root().join("tests/noise/workloads")
}

fn dump(py: &Interpreter, dir: &Path, name: &str, args: &[&str], k: usize) -> PathBuf {
    let out = dir.join(format!("{name}-{}-{k}.json.gz", py.minor));
    let o = dump_in(py, &workloads_dir(), &out, args);
    assert!(o.status.success(), "{name} under {}: {}", py.label, String::from_utf8_lossy(&o.stderr));
    out
}

/// The regressions `base → head` reports outside import-time code (see
/// [`regressions_outside_import_time`]), and the gate's exit code.
fn regressions(base: &Path, head: &Path) -> (Vec<String>, i32) {
    let o = specdiff()
        .arg("diff")
        .arg(base)
        .arg(head)
        .args(["--json", "--fail-on-regression"])
        .output()
        .expect("specdiff runs");
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    (regressions_outside_import_time(&report), code)
}

#[test]
fn unchanged_workloads_give_no_regression_on_any_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for py in interpreters() {
        for (name, args) in WORKLOADS {
            if *name == "tasks" && py.pyodide {
                // Pyodide runs no event loop of its own (asyncio.run needs WebAssembly stack
                // switching, which node lacks): not a missing interpreter, a missing feature.
                println!("noise floor: tasks (asyncio) not run under {}: pyodide has no asyncio.run", py.label);
                continue;
            }
            let dumps: Vec<PathBuf> = (0..RUNS).map(|k| dump(py, dir.path(), name, args, k)).collect();
            for i in 0..RUNS {
                for j in i + 1..RUNS {
                    let (found, code) = regressions(&dumps[i], &dumps[j]);
                    if code != 0 || !found.is_empty() {
                        failures.push(format!("{name} under {} (runs {i} → {j}): exit {code}, {found:?}", py.label));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "false alarms on unchanged programs:\n{}", failures.join("\n"));
}
