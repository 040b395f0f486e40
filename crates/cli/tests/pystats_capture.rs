//! `specdiff dump` under a real CPython 3.11 built with `--enable-pystats`
//! (`scripts/build-pystats-python.sh`; or env `SPECDIFF_PYSTATS_PYTHON`): the dump carries the
//! run's specialization statistics, read from the file the interpreter wrote into
//! `/tmp/py_stats` when it exited, and that file is not left behind.
//!
//! Without the build every test here prints `SKIPPED: …` to stderr and passes; the interpreter
//! report (`target/specdiff-test-interpreters.txt`) says the same.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::*;
use specdiff_core::pystats::{read_pystats, PystatsOptions};
use specdiff_core::stats::Stats;
use specdiff_core::Dump;

/// The tests here check what appears in the shared `/tmp/py_stats`: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// The real 3.11.2 pystats data set (sample programs and the raw files they wrote), in the
/// `shared/` folder that sits beside the repository (here and in CI).
fn samples_dir() -> PathBuf {
    repo_root().join("../shared/data/pystats-3.11")
}

/// The pystats build, or `None` after printing why the test is skipped.
fn pystats_build() -> Option<Interpreter> {
    let _ = interpreters(); // writes the interpreter report, which names the pystats build too
    match pystats_python() {
        Ok(python) => Some(Interpreter { minor: "3.11", python }),
        Err(why) => {
            eprintln!("SKIPPED: {why}");
            None
        }
    }
}

fn raw_files() -> BTreeSet<PathBuf> {
    std::fs::read_dir("/tmp/py_stats")
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// `specdiff dump -o DIR/NAME.json ARGS…` (run in `dir`) with the pystats build; checks what
/// every such dump must show.
fn dump_stats(py: &Interpreter, dir: &Path, name: &str, args: &[&str]) -> (Dump, Stats) {
    let out = dir.join(format!("{name}.json"));
    let o = specdiff()
        .arg("dump")
        .arg("--python")
        .arg(&py.python)
        .arg("-o")
        .arg(&out)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("specdiff runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "specdiff dump {args:?} failed ({:?}):\n{stderr}", o.status);
    // The stats went to a file, not to the program's stderr (CPython 3.11 prints them there
    // when /tmp/py_stats does not exist).
    assert!(!stderr.contains("opcode["), "stats table printed to stderr:\n{stderr}");
    assert!(!stderr.contains("pystats"), "specdiff complained about pystats:\n{stderr}");
    let dump = read(&out);
    assert_eq!(dump.python.minor_version(), (3, 11), "{:?}", dump.python);
    assert!(dump.python.pystats_build, "the dump should say it came from a pystats build");
    assert!(!dump.code.is_empty() && dump.code.iter().any(|c| !c.instructions.is_empty()), "the dump lost its code");
    let stats = dump.pystats.clone().expect("a pystats build's dump has `pystats`");
    assert_eq!(stats.python.as_deref(), Some("3.11"));
    assert_eq!(stats.files, 1, "one process, one raw file");
    let load_attr = &stats.opcodes["LOAD_ATTR"];
    assert!(load_attr.specializable);
    assert!(load_attr.specialization.hit > 0 && load_attr.specialization.success > 0, "LOAD_ATTR family: {load_attr:?}");
    assert!(stats.calls.get("Calls to PyEval_EvalDefault").copied().unwrap_or(0) > 0, "calls: {:?}", stats.calls);
    (dump, stats)
}

fn executions(s: &Stats, op: &str) -> u64 {
    s.opcodes.get(op).map_or(0, |o| o.execution_count)
}

/// The opnames of the instructions of `qualname` (in `file`) on the line containing `needle`.
fn ops_on_line(d: &Dump, file: &Path, qualname: &str, needle: &str) -> Vec<String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let line = line_of(file, needle);
    listing(d, code(d, &name, qualname))
        .into_iter()
        .filter(|(_, _, l)| *l == Some(line))
        .map(|(op, _, _)| op)
        .collect()
}

/// The data set's pair: `P` has `__slots__` in `sample.py` and not in `sample_head.py`, so
/// the program executes `LOAD_ATTR_SLOT` in base only. Compared with the raw files recorded
/// from the same programs under CPython 3.11.2 (`SAMPLES/base`, `SAMPLES/head`).
///
/// CPython 3.11 cannot switch its counters on or off, so a 3.11 dump's stats cover the whole
/// interpreter process: start-up, the harness's set-up and the program. The dump itself is
/// built in a forked child that never writes its counters. The harness's share is measured
/// with a dump of `-c pass`: the program's own counts are the difference.
#[test]
fn sample_pair_slot_loads_counted_in_base_only() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(py) = pystats_build() else { return };
    let samples_path = samples_dir();
    let samples = samples_path.as_path();
    if !samples.join("sample.py").exists() {
        eprintln!("SKIPPED: {} (the recorded pystats data set) is not on this machine", samples.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for f in ["sample.py", "sample_head.py"] {
        std::fs::copy(samples.join(f), tmp.path().join(f)).unwrap();
    }
    let before = raw_files();
    let base_py = tmp.path().join("sample.py");
    let head_py = tmp.path().join("sample_head.py");
    let (base, base_stats) = dump_stats(&py, tmp.path(), "base", &["sample.py"]);
    let (head, head_stats) = dump_stats(&py, tmp.path(), "head", &["sample_head.py"]);
    let (idle_dump, idle_stats) = dump_stats(&py, tmp.path(), "idle", &["-c", "pass"]);
    let (idle_big, idle_big_stats) = dump_stats(&py, tmp.path(), "idle-big", &["--include-unrun", "-c", "pass"]);
    let left: Vec<_> = raw_files().difference(&before).cloned().collect();
    assert!(left.is_empty(), "the consumed raw stats files should be deleted, found {left:?}");

    // The harness's share is its set-up only, not the dump it builds. Measured with CPython
    // 3.11.2: 5,756 LOAD_ATTR_INSTANCE_VALUE, no LOAD_ATTR_SLOT, ~151,500 instructions executed
    // in all (the interpreter's own start-up: 654, 0, ~47,000). When the dump was built in
    // the process it counted 26,900 / 27 / 1.7 million, and 67,000 / 27 / 4.3 million with
    // `--include-unrun`.
    let total = |s: &Stats| s.opcodes.values().map(|o| o.execution_count).sum::<u64>();
    let instance = |s: &Stats| executions(s, "LOAD_ATTR_INSTANCE_VALUE");
    assert!(instance(&idle_stats) < 10_000, "harness overhead: {} LOAD_ATTR_INSTANCE_VALUE", instance(&idle_stats));
    assert!(total(&idle_stats) < 400_000, "harness overhead: {} instructions executed", total(&idle_stats));
    // A dump ~7 times bigger (every code object loaded, not only those that ran) costs the
    // counted process nothing more than reading one more option.
    assert!(idle_big.code.len() > 5 * idle_dump.code.len(), "--include-unrun dumps more");
    assert_eq!(instance(&idle_big_stats), instance(&idle_stats), "building a bigger dump is not counted");
    assert!(total(&idle_big_stats).abs_diff(total(&idle_stats)) < 1_000, "building a bigger dump is not counted: {} vs {}", total(&idle_big_stats), total(&idle_stats));

    // The statistics: the program's slot loads (beyond the harness's own) are in base only.
    let slot = |s: &Stats| executions(s, "LOAD_ATTR_SLOT");
    let idle = slot(&idle_stats);
    let (b, h) = (slot(&base_stats), slot(&head_stats));
    assert_eq!(idle, 0, "the harness's set-up loads no slot");
    assert!(b > idle, "base executes LOAD_ATTR_SLOT (p.x, p.y on a __slots__ class): {b} vs {idle} without a program");
    assert_eq!(h, idle, "head has no __slots__: no LOAD_ATTR_SLOT beyond the harness's own");

    // … and the program's share is what CPython 3.11.2 recorded for these programs (a
    // recorded run covers start-up and the program, which executes no slot load at start-up;
    // repeated runs agree to within ±1).
    let recorded = |sub: &str| -> Stats {
        let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(samples.join(sub))
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.display().to_string(), std::fs::read(&p).unwrap())
            })
            .collect();
        let options = PystatsOptions { python: Some((3, 11)), ..Default::default() };
        read_pystats(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())), &options).unwrap()
    };
    let (rb, rh) = (recorded("base"), recorded("head"));
    assert!(slot(&rb).abs_diff(b - idle) <= 1, "base LOAD_ATTR_SLOT: {b} - {idle}, recorded {}", slot(&rb));
    assert_eq!(slot(&rh), 0, "recorded head");

    // The dumps' adaptive bytecode tells the same story at the line that loads p.x + p.y.
    let base_ops = ops_on_line(&base, &base_py, "attrs", "s += p.x + p.y");
    let head_ops = ops_on_line(&head, &head_py, "attrs", "s += p.x + p.y");
    assert_eq!(base_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 2, "base: {base_ops:?}");
    assert!(!head_ops.iter().any(|o| o == "LOAD_ATTR_SLOT"), "head: {head_ops:?}");
}

/// The bundled demo pair: `dot_sum`'s `p.x` became `getattr(p, key)`, so one of its two slot
/// loads is gone; the stats and the dump's bytecode agree.
#[test]
fn demo_pair_loses_one_of_two_slot_loads() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(py) = pystats_build() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let demo = repo_root().join("examples/demo");
    let before = raw_files();
    let (base, base_stats) = dump_stats(&py, tmp.path(), "base", &[demo.join("base.py").to_str().unwrap(), "30"]);
    let (head, head_stats) = dump_stats(&py, tmp.path(), "head", &[demo.join("head.py").to_str().unwrap(), "30"]);
    let left: Vec<_> = raw_files().difference(&before).cloned().collect();
    assert!(left.is_empty(), "the consumed raw stats files should be deleted, found {left:?}");

    let base_ops = ops_on_line(&base, &demo.join("base.py"), "dot_sum", "total += p.x * p.y");
    let head_ops = ops_on_line(&head, &demo.join("head.py"), "dot_sum", "total += getattr(p, key) * p.y");
    assert_eq!(base_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 2, "base: {base_ops:?}");
    assert_eq!(head_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 1, "head: {head_ops:?}");

    // 30 rounds over 2000 points: base loads two slots per point, head one.
    let (b, h) = (executions(&base_stats, "LOAD_ATTR_SLOT"), executions(&head_stats, "LOAD_ATTR_SLOT"));
    assert!(b >= 2 * 30 * 1990, "base LOAD_ATTR_SLOT executions: {b}");
    assert!(h >= 30 * 1990 && h < b * 6 / 10, "head LOAD_ATTR_SLOT executions: {h} (base {b})");
    // head's mixed shapes: `shape.area()` sees three classes, so LOAD_METHOD misses more.
    let misses = |s: &Stats| s.opcodes.get("LOAD_METHOD").map_or(0, |o| o.specialization.miss);
    assert!(misses(&head_stats) > misses(&base_stats), "LOAD_METHOD misses: head {} base {}", misses(&head_stats), misses(&base_stats));
}

/// On a pystats build the dump is written by a forked child: the program's output still comes
/// out once, in full, and its exit status and exception are specdiff's and the dump's.
#[test]
fn forked_dump_keeps_output_and_exit_status() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(py) = pystats_build() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let before = raw_files();
    let run = |name: &str, program: &str| {
        let out = tmp.path().join(format!("{name}.json"));
        let o = specdiff()
            .args(["dump", "--python"])
            .arg(&py.python)
            .arg("-o")
            .arg(&out)
            .args(["-c", program])
            .output()
            .expect("specdiff runs");
        (o, read(&out))
    };
    // stdout is a pipe: block-buffered, and not flushed by the program.
    let (o, d) = run("exit7", "import sys\nprint('out', end='')\nsys.stdout.write('x' * 9000)\nsys.stderr.write('err\\n')\nsys.exit(7)");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(7), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("out{}", "x".repeat(9000)));
    assert_eq!(stderr.matches("err\n").count(), 1, "{stderr}");
    assert_eq!(d.run.exit_status, 7);
    assert!(d.pystats.is_some(), "{stderr}");
    let (o, d) = run("raise", "def f():\n    raise ValueError('boom')\nf()");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches("Traceback").count(), 1, "{stderr}");
    assert_eq!(d.run.exception.as_deref(), Some("ValueError: boom"));
    assert!(d.pystats.is_some(), "{stderr}");
    let left: Vec<_> = raw_files().difference(&before).cloned().collect();
    assert!(left.is_empty(), "the consumed raw stats files should be deleted, found {left:?}");
}
