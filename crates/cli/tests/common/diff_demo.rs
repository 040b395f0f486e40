//! The demo pair for the `specdiff diff` tests (`diff.rs`, `diff_links.rs`, `diff_gate.rs`,
//! `diff_filters.rs`, `diff_bad_input.rs`, `diff_html.rs`): dumped under every interpreter
//! present, once per test process, and the helpers that run `specdiff diff` on it and read
//! its output.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;

use super::*;

/// Rounds of the demo's main loop: enough for the sampler to see the hot functions.
pub const ROUNDS: &str = "1000";

/// The demo pair dumped under one interpreter.
pub struct Demo {
    pub py: Interpreter,
    pub base: PathBuf,
    pub head: PathBuf,
    /// Both runs have samples (false under pyodide: no threads).
    pub sampled: bool,
}

/// A folder for this test process under cargo's test tmpdir; folders of finished runs are
/// removed.
pub fn work_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let prefix = "specdiff-diff-tests-";
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if let Some(pid) = name.strip_prefix(prefix) {
                if !Path::new("/proc").join(pid).exists() {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let dir = root.join(format!("{prefix}{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// The demo pair under every interpreter, dumped once per test process (in parallel).
pub fn demos() -> &'static [Demo] {
    static DEMOS: OnceLock<Vec<Demo>> = OnceLock::new();
    DEMOS.get_or_init(|| {
        let dir = work_dir();
        std::thread::scope(|s| {
            let jobs: Vec<_> = interpreters()
                .iter()
                .map(|py| {
                    s.spawn(move || {
                        let b = dump_ok(py, dir, "demo-base", &["examples/demo/base.py", ROUNDS]);
                        let h = dump_ok(py, dir, "demo-head", &["examples/demo/head.py", ROUNDS]);
                        Demo {
                            py: py.clone(),
                            base: dir.join(format!("demo-base-{}.json", py.key)),
                            head: dir.join(format!("demo-head-{}.json", py.key)),
                            sampled: b.run.sampler.samples > 0 && h.run.sampler.samples > 0,
                        }
                    })
                })
                .collect();
            jobs.into_iter().map(|j| j.join().unwrap()).collect()
        })
    })
}

/// Runs `specdiff diff ARGS…` from the repository root, with NO_COLOR set.
pub fn diff(args: &[&str]) -> Output {
    specdiff()
        .arg("diff")
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("SPECDIFF_LINK_BASE")
        .current_dir(repo_root())
        .output()
        .expect("specdiff runs")
}

pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// `specdiff diff --format json ARGS…`, checked to exit `code`, parsed.
pub fn json_report(args: &[&str], code: i32) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let o = diff(&all);
    assert_eq!(o.status.code(), Some(code), "specdiff diff {all:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&o)))
}

pub fn function<'a>(report: &'a Value, qualname: &str) -> &'a Value {
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["qualname"] == qualname && f["module"] == "__main__")
        .unwrap_or_else(|| panic!("no function {qualname} in the report: {:#}", report["functions"]))
}

pub fn changes(f: &Value) -> &Vec<Value> {
    f["changes"].as_array().unwrap()
}

pub fn demo_file(name: &str) -> PathBuf {
    repo_root().join("examples/demo").join(name)
}

/// Asserts a one-line `specdiff: error: …` on stderr containing every `needle`, and exit 2.
pub fn assert_bad(args: &[&str], needles: &[&str]) {
    let o = diff(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected: {err}");
    assert!(err.starts_with("specdiff: error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
    }
}
