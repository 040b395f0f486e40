//! The harness's own checks, run under every interpreter present: `fidelity.py` compares the
//! decoder with `dis.get_instructions(code, adaptive=True)` on every code object of a real
//! multi-module program, `harness_cli.py` runs the harness as the CLI does and checks its dumps.

mod common;

use common::*;

fn run_under_each(script: &str, args: &[&str]) {
    let path = repo_root().join("crates/cli/tests/python").join(script);
    let mut failures = Vec::new();
    for py in interpreters() {
        let o = std::process::Command::new(&py.python)
            .arg(&path)
            .args(args)
            .current_dir(repo_root())
            .output()
            .expect("the interpreter runs");
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        eprintln!("--- {script} under CPython {}:\n{}", py.minor, out.lines().last().unwrap_or(""));
        if !o.status.success() {
            failures.push(format!("CPython {} ({:?}):\n{out}\n{err}", py.minor, o.status));
        }
    }
    assert!(failures.is_empty(), "{script} failed:\n{}", failures.join("\n"));
}

#[test]
fn decoder_matches_dis_on_every_code_object() {
    run_under_each("fidelity.py", &[]);
}

#[test]
fn harness_dumps_pass_their_checks() {
    // harness_cli.py starts processes, which pyodide cannot: a native interpreter drives it and
    // runs the harness under every interpreter present, pyodide included.
    let driver = interpreters().iter().find(|i| i.minor != "3.14").expect("a native interpreter");
    let mut cmd = std::process::Command::new(&driver.python);
    cmd.arg(repo_root().join("crates/cli/tests/python/harness_cli.py"));
    cmd.args(interpreters().iter().map(|i| &i.python));
    let o = cmd.current_dir(repo_root()).output().expect("the interpreter runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "harness_cli.py failed:\n{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("ok "), "harness_cli.py checked nothing:\n{out}");
}
