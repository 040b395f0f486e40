//! What specdiff's sentences say of each CPython version (`crates/core/src/cpython/facts.rs`)
//! is what that version does: `programs/version_facts/probe.py` runs each shape of code on
//! every interpreter present and prints the opname its site ended with, and each line must
//! equal the measured entry for that version. Every opname named there must also be one the
//! version's opcode table has, with the family the shape's site belongs to.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::{interpreters, repo_root};
use specdiff_core::cpython::{has_opname, observed, Shape, MEASURED_VERSIONS};

#[test]
fn every_measured_fact_holds_on_its_interpreter() {
    let probe = repo_root().join("crates/cli/tests/programs/version_facts/probe.py");
    let mut failures = Vec::new();
    let mut versions_seen = Vec::new();
    for py in interpreters() {
        let version = py.version();
        let out = Command::new(&py.python).arg(&probe).output().unwrap();
        assert!(out.status.success(), "{}: {}", py.label, String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let got: BTreeMap<&str, &str> =
            text.lines().filter_map(|l| l.split_once(char::is_whitespace)).map(|(k, v)| (k, v.trim())).collect();
        versions_seen.push(version);
        for shape in Shape::ALL {
            let want = observed(version, shape);
            let seen = got.get(shape.name()).copied();
            if want != seen {
                failures.push(format!("{}: {} is {seen:?} there, facts.rs says {want:?}", py.label, shape.name()));
            }
        }
        assert_eq!(got.len(), Shape::ALL.iter().filter(|s| observed(version, **s).is_some()).count(), "{}: {text}", py.label);
    }
    for version in MEASURED_VERSIONS {
        for shape in Shape::ALL {
            let Some(name) = observed(version, shape) else { continue };
            if !has_opname(version, name) {
                failures.push(format!("{version:?}: {name} ({}) is not in that version's opcode table", shape.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("version facts checked on {versions_seen:?}");
}
