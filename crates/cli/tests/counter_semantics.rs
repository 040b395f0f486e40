//! The counter semantics the engine reads dumps by (`docs/engine.md`, "Counter semantics";
//! `crates/core/src/cpython/counters.rs`), measured again on every interpreter present:
//! `programs/counter_probe/probe.py` specializes one attribute load, feeds it misses until it
//! re-specializes, and runs an addition that never specializes, printing the site's opname and
//! counter word after each step. 3.11 has rules of its own; 3.12, 3.13 and 3.14 share one set
//! (3.14 measured natively and under pyodide); 3.15 keeps those rules on a 13/3-bit word, with
//! backoffs that grow twice as fast. This test is what makes each version's rules more than an
//! assumption.

mod common;

use std::process::Command;

use common::{interpreters, repo_root};

#[test]
fn every_interpreter_counts_as_the_engine_reads_it() {
    let dir = repo_root().join("crates/cli/tests/programs/counter_probe");
    let mut failures = Vec::new();
    for py in interpreters() {
        let expected = match py.version() {
            (3, 11) => "expected-3.11.txt",
            (3, 12..=14) => "expected-3.12-3.14.txt",
            _ => "expected-3.15.txt",
        };
        let want = std::fs::read_to_string(dir.join(expected)).unwrap();
        let out = Command::new(&py.python).arg(dir.join("probe.py")).output().unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {}", py.label, String::from_utf8_lossy(&out.stderr));
        if got != want {
            let diff: Vec<String> = want
                .lines()
                .zip(got.lines().chain(std::iter::repeat("(missing)")))
                .filter(|(w, g)| w != g)
                .map(|(w, g)| format!("    want {w}\n    got  {g}"))
                .collect();
            failures.push(format!("{} differs from {expected}:\n{}", py.label, diff.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
