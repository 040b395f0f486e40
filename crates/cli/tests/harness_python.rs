//! The harness's own checks, run under every interpreter present: `fidelity.py` compares the
//! decoder with `dis.get_instructions(code, adaptive=True)` on every code object of a real
//! multi-module program (what the CLI finishes in Rust — positions, cache words, counters — is
//! checked here, with the CLI's own code), `harness_cli.py` runs the harness as the CLI does
//! and checks its dumps. Both get the harness the binary embeds (`SPECDIFF_HARNESS`).

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde::Deserialize;
use specdiff_core::format::{decode_hex, finish_instructions, RawCode};
use specdiff_core::model::{CounterKind, CounterLayout, Instruction, OpInfo};

/// The harness the binary embeds (build.rs joins `src/harness/`), written into `dir` under
/// the name `specdiff dump` gives it; the Python checks read its path from `SPECDIFF_HARNESS`.
fn embedded_harness(dir: &Path) -> PathBuf {
    let path = dir.join("specdiff_harness.py");
    std::fs::write(&path, include_str!(concat!(env!("OUT_DIR"), "/harness.py"))).expect("a temporary file");
    path
}

#[test]
fn decoder_matches_dis_on_every_code_object() {
    let script = repo_root().join("crates/cli/tests/python/fidelity.py");
    let work = tempfile::tempdir().expect("a temporary folder");
    let harness = embedded_harness(work.path());
    let mut failures = Vec::new();
    for py in interpreters() {
        let left = work.path().join(format!("left-to-cli-{}.json", py.key));
        let o = std::process::Command::new(&py.python)
            .arg(&script)
            .arg("--left-to-cli")
            .arg(&left)
            .env("SPECDIFF_HARNESS", &harness)
            .current_dir(repo_root())
            .output()
            .expect("the interpreter runs");
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        let summary: Vec<&str> = out.lines().rev().take(2).collect();
        eprintln!("--- fidelity.py under CPython {}:\n{}", py.minor, summary.join("\n"));
        if !o.status.success() {
            failures.push(format!("CPython {} ({:?}):\n{out}\n{err}", py.minor, o.status));
            continue;
        }
        let text = std::fs::read_to_string(&left).expect("fidelity.py wrote what it left to the CLI");
        let codes: Vec<LeftToCli> = serde_json::from_str(&text).expect("JSON");
        assert!(codes.len() > 1000, "CPython {}: only {} code objects checked", py.minor, codes.len());
        let layout = CounterLayout::of_version(py.version());
        let bad: Vec<String> = codes.iter().filter_map(|c| c.mismatch(layout)).take(5).collect();
        if !bad.is_empty() {
            failures.push(format!("CPython {}: what the CLI finishes differs from dis:\n{}", py.minor, bad.join("\n")));
        }
    }
    assert!(failures.is_empty(), "fidelity.py failed:\n{}", failures.join("\n"));
}

/// One code object the harness left for the CLI to finish: its raw bytes, and per instruction
/// what it must come to.
#[derive(Deserialize)]
struct LeftToCli {
    first_line: i64,
    linetable: String,
    code: String,
    #[serde(rename = "where")]
    name: String,
    instructions: Vec<Expected>,
}

#[derive(Deserialize)]
struct Expected {
    offset: u32,
    /// Its op's counter kind is adaptive or JIT.
    counted: bool,
    /// dis's `[lineno, end_lineno, col_offset, end_col_offset]`.
    positions: [Option<i64>; 4],
    cache: Vec<u16>,
    counter: Option<(u16, u8)>,
}

impl LeftToCli {
    fn mismatch(&self, layout: CounterLayout) -> Option<String> {
        let linetable = decode_hex(&self.linetable).expect("hex");
        let code = decode_hex(&self.code).expect("hex");
        let op = |counter| OpInfo { name: String::new(), family: String::new(), specialized: false, counter };
        let ops = [op(None), op(Some(CounterKind::Adaptive))];
        let mut instructions: Vec<Instruction> = self
            .instructions
            .iter()
            .map(|e| Instruction { offset: e.offset, op: u32::from(e.counted), ..Default::default() })
            .collect();
        let raw = RawCode { first_line: self.first_line, linetable: &linetable, adaptive_code: &code };
        if let Err(e) = finish_instructions(&mut instructions, raw, &ops, layout) {
            return Some(format!("  {}: {e}", self.name));
        }
        for (ins, want) in instructions.iter().zip(&self.instructions) {
            // A dump holds no negative line or column: the reader gives "none" for them.
            let [line, end_line, col, end_col] = want.positions.map(|v| v.and_then(|v| u32::try_from(v).ok()));
            let want = (line, line.map(|_| (end_line, col, end_col)), want.cache.clone(), want.counter);
            let got = (ins.line, ins.pos, ins.cache.clone(), ins.counter);
            if got != want {
                return Some(format!("  {} offset {}: CLI {got:?}\n      dis and raw reads {want:?}", self.name, ins.offset));
            }
        }
        None
    }
}

#[test]
fn harness_dumps_pass_their_checks() {
    // harness_cli.py starts processes, which pyodide cannot: a native interpreter drives it and
    // runs the harness under every interpreter present, pyodide included.
    let driver = any_native();
    let work = tempfile::tempdir().expect("a temporary folder");
    let mut cmd = std::process::Command::new(&driver.python);
    cmd.arg(repo_root().join("crates/cli/tests/python/harness_cli.py"));
    cmd.env("SPECDIFF_HARNESS", embedded_harness(work.path()));
    cmd.args(interpreters().iter().map(|i| &i.python));
    let o = cmd.current_dir(repo_root()).output().expect("the interpreter runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "harness_cli.py failed:\n{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("ok "), "harness_cli.py checked nothing:\n{out}");
}
