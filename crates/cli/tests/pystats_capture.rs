//! `specdiff dump` under real CPythons built with `--enable-pystats` — 3.11 and 3.13, from
//! `scripts/build-pystats-python.sh [3.11|3.13]` (or env `SPECDIFF_PYSTATS_PYTHON`,
//! `SPECDIFF_PYSTATS_PYTHON_3_13`): the dump carries the run's specialization statistics, read
//! from the file the interpreter wrote into `/tmp/py_stats` (3.11: when it exited; 3.13: when
//! the harness called `sys._stats_dump()` after the program), and no file is left behind.
//!
//! Every test runs its checks under each pystats build present and records which ran. A
//! missing build (or the 3.11 data set) is a skip, printed as `SKIPPED <test>: …`, except
//! where the setup must have installed it (`SPECDIFF_REQUIRE_INTERPRETERS=1`, `CI=true`):
//! then the test fails naming it. scripts/test.sh's summary line lists both.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::*;
use specdiff_core::format::{read_pystats, PystatsOptions};
use specdiff_core::model::Stats;
use specdiff_core::Dump;

/// The tests here check what appears in the shared `/tmp/py_stats`: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// The real 3.11.2 pystats data set (sample programs and the raw files they wrote), in the
/// `shared/` folder that sits beside the repository (here and in CI).
fn samples_dir() -> PathBuf {
    repo_root().join("../shared/data/pystats-3.11")
}

/// The same two programs with the raw files CPython 3.13.5 wrote for them (gzip), in the
/// repository: core's summarize_stats fixture.
fn samples_313_dir() -> PathBuf {
    repo_root().join("crates/core/tests/fixtures/pystats-3.13")
}

/// Every pystats build present, each recorded as run by `test`; a missing one is a skip, or a
/// failure where the setup must have built it (see specdiff-test-support).
fn pystats_builds(test: &str) -> Vec<Interpreter> {
    let mut found = Vec::new();
    for minor in PYSTATS_MINORS {
        match pystats_python(minor) {
            Ok(python) => {
                let label = format!("{minor}-pystats");
                ran(test, &label);
                found.push(Interpreter { minor, key: minor, pyodide: false, python, label });
            }
            Err(why) => skip_or_fail(test, &Need::pystats(minor), &why),
        }
    }
    found
}

/// `"3.13"` → `(3, 13)`.
fn version(py: &Interpreter) -> (u32, u32) {
    let (major, minor) = py.minor.split_once('.').unwrap();
    (major.parse().unwrap(), minor.parse().unwrap())
}

fn raw_files() -> BTreeSet<PathBuf> {
    std::fs::read_dir("/tmp/py_stats")
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// `specdiff dump -o DIR/NAME.json ARGS…` (run in `dir`) with the pystats build `py`; checks
/// what every such dump must show.
fn dump_stats(py: &Interpreter, dir: &Path, name: &str, args: &[&str]) -> (Dump, Stats) {
    let out = dir.join(format!("{name}-{}.json", py.key));
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
    let v = py.minor;
    assert!(o.status.success(), "{v}: specdiff dump {args:?} failed ({:?}):\n{stderr}", o.status);
    // The stats went to a file, not to the program's stderr (CPython prints them there when
    // /tmp/py_stats does not exist).
    assert!(!stderr.contains("opcode["), "{v}: stats table printed to stderr:\n{stderr}");
    assert!(!stderr.contains("pystats"), "{v}: specdiff complained about pystats:\n{stderr}");
    let dump = read(&out);
    assert_eq!(dump.python.minor_version(), version(py), "{:?}", dump.python);
    assert!(dump.python.pystats_build, "{v}: the dump should say it came from a pystats build");
    assert!(!dump.code.is_empty() && dump.code.iter().any(|c| !c.instructions.is_empty()), "{v}: the dump lost its code");
    let stats = dump.pystats.clone().unwrap_or_else(|| panic!("{v}: a pystats build's dump has `pystats`"));
    assert_eq!(stats.python.as_deref(), Some(v));
    assert_eq!(stats.files, 1, "{v}: one process, one raw file");
    assert!(stats.calls.get("Calls to PyEval_EvalDefault").copied().unwrap_or(0) > 0, "{v}: calls: {:?}", stats.calls);
    (dump, stats)
}

/// The program loaded attributes often enough for `LOAD_ATTR` to specialize and hit.
fn assert_attrs_specialized(py: &Interpreter, s: &Stats) {
    let load_attr = &s.opcodes["LOAD_ATTR"];
    assert!(load_attr.specializable, "{}", py.minor);
    assert!(
        load_attr.specialization.hit > 0 && load_attr.specialization.success > 0,
        "{}: LOAD_ATTR family: {load_attr:?}",
        py.minor
    );
}

fn executions(s: &Stats, op: &str) -> u64 {
    s.opcodes.get(op).map_or(0, |o| o.execution_count)
}

fn total(s: &Stats) -> u64 {
    s.opcodes.values().map(|o| o.execution_count).sum()
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

/// The raw files of one recorded run, summed.
fn recorded(files: &[PathBuf], python: (u32, u32)) -> Stats {
    let contents: Vec<(String, Vec<u8>)> =
        files.iter().map(|p| (p.display().to_string(), std::fs::read(p).unwrap())).collect();
    let options = PystatsOptions { python: Some(python), ..Default::default() };
    read_pystats(contents.iter().map(|(n, b)| (n.as_str(), b.as_slice())), &options).unwrap()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect()
}

/// The data set's pair: `P` has `__slots__` in `sample.py` and not in `sample_head.py`, so
/// the program executes `LOAD_ATTR_SLOT` in base only. Compared with the raw files recorded
/// from the same programs (3.11.2: `SAMPLES/base`, `SAMPLES/head`; 3.13.5: core's fixture
/// `raw_base.txt.gz`, `raw_head.txt.gz`).
///
/// CPython 3.11 cannot switch its counters on or off, so a 3.11 dump's stats cover the whole
/// interpreter process: start-up, the harness's set-up and the program. The dump itself is
/// built in a forked child that never writes its counters. The harness's share is measured
/// with a dump of `-c pass`: the program's own counts are the difference. On 3.13 the harness
/// clears the counters just before the program and writes them just after: a dump of
/// `-c pass` counts next to nothing.
#[test]
fn sample_pair_slot_loads_counted_in_base_only() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for py in pystats_builds("sample_pair_slot_loads_counted_in_base_only") {
        let v = py.minor;
        let programs = samples_313_dir();
        let recorded_311 = samples_dir();
        if v == "3.11" && !recorded_311.join("base").is_dir() {
            let why = format!("no {}", recorded_311.join("base").display());
            skip_or_fail("sample_pair_slot_loads_counted_in_base_only (3.11)", &Need::pystats_data(), &why);
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        for f in ["sample.py", "sample_head.py"] {
            std::fs::copy(programs.join(f), tmp.path().join(f)).unwrap();
        }
        let before = raw_files();
        let base_py = tmp.path().join("sample.py");
        let head_py = tmp.path().join("sample_head.py");
        // 3.13: without the sampler thread, whose frame walk (`code.co_filename`, a member
        // that 3.13 specializes to LOAD_ATTR_SLOT) would add slot loads to whichever program
        // ran long enough to be sampled; 3.11 does not specialize that load.
        let args = |a: &[&'static str]| -> Vec<&'static str> {
            if v == "3.11" { a.to_vec() } else { [&["--no-sample"], a].concat() }
        };
        let (base, base_stats) = dump_stats(&py, tmp.path(), "base", &args(&["sample.py"]));
        let (head, head_stats) = dump_stats(&py, tmp.path(), "head", &args(&["sample_head.py"]));
        let (idle_dump, idle_stats) = dump_stats(&py, tmp.path(), "idle", &args(&["-c", "pass"]));
        let (idle_big, idle_big_stats) = dump_stats(&py, tmp.path(), "idle-big", &args(&["--include-unrun", "-c", "pass"]));
        let left: Vec<_> = raw_files().difference(&before).cloned().collect();
        assert!(left.is_empty(), "{v}: the consumed raw stats files should be deleted, found {left:?}");
        assert_attrs_specialized(&py, &base_stats);
        assert_attrs_specialized(&py, &head_stats);

        // The harness's share is its set-up only (3.11) or nearly nothing (3.13), never the
        // dump it builds. Measured with CPython 3.11.2: 4,675 LOAD_ATTR_INSTANCE_VALUE, no
        // LOAD_ATTR_SLOT, ~146,500 instructions executed in all (the interpreter's own
        // start-up: 654, 0, ~47,000). When the dump was built in the process it counted
        // 26,900 / 27 / 1.7 million, and 67,000 / 27 / 4.3 million with `--include-unrun`.
        // With CPython 3.13.5 and --no-sample: 0 / 0 / about 100 (`exec` of the program and
        // the calls around it).
        let instance = |s: &Stats| executions(s, "LOAD_ATTR_INSTANCE_VALUE");
        let (max_instance, max_total) = if v == "3.11" { (10_000, 400_000) } else { (0, 1_000) };
        assert!(instance(&idle_stats) <= max_instance, "{v}: harness overhead: {} LOAD_ATTR_INSTANCE_VALUE", instance(&idle_stats));
        assert!(total(&idle_stats) < max_total, "{v}: harness overhead: {} instructions executed", total(&idle_stats));
        if v == "3.11" {
            assert_attrs_specialized(&py, &idle_stats);
        }
        // A dump ~4-7 times bigger (every code object loaded, not only those that ran) costs
        // the counted process nothing more than reading one more option.
        assert!(idle_big.code.len() > 3 * idle_dump.code.len(), "{v}: --include-unrun dumps more");
        assert_eq!(instance(&idle_big_stats), instance(&idle_stats), "{v}: building a bigger dump is not counted");
        assert!(
            total(&idle_big_stats).abs_diff(total(&idle_stats)) < 1_000,
            "{v}: building a bigger dump is not counted: {} vs {}",
            total(&idle_big_stats),
            total(&idle_stats)
        );

        // The statistics: the program's slot loads (beyond the harness's own) are in base only.
        let slot = |s: &Stats| executions(s, "LOAD_ATTR_SLOT");
        let idle = slot(&idle_stats);
        let (b, h) = (slot(&base_stats), slot(&head_stats));
        assert_eq!(idle, 0, "{v}: the harness's set-up loads no slot");
        assert!(b > idle, "{v}: base executes LOAD_ATTR_SLOT (p.x, p.y on a __slots__ class): {b} vs {idle} without a program");
        assert_eq!(h, idle, "{v}: head has no __slots__: no LOAD_ATTR_SLOT beyond the harness's own");

        // … and the program's share is what CPython recorded for these programs. A recorded
        // run covers start-up, the program and (3.13) the exit: 3.11.2 executes no slot load
        // outside the program, 3.13.5 executes 130, as head's recording shows. Repeated runs
        // agree to within ±1.
        if v == "3.11" {
            let (rb, rh) = (recorded(&files_in(&recorded_311.join("base")), (3, 11)), recorded(&files_in(&recorded_311.join("head")), (3, 11)));
            assert!(slot(&rb).abs_diff(b - idle) <= 1, "base LOAD_ATTR_SLOT: {b} - {idle}, recorded {}", slot(&rb));
            assert_eq!(slot(&rh), 0, "recorded head");
        } else {
            let (rb, rh) = (recorded(&[programs.join("raw_base.txt.gz")], (3, 13)), recorded(&[programs.join("raw_head.txt.gz")], (3, 13)));
            assert!(slot(&rb) > slot(&rh), "{v}: recorded base {} vs head {}", slot(&rb), slot(&rh));
            assert!((slot(&rb) - slot(&rh)).abs_diff(b) <= 1, "{v}: base LOAD_ATTR_SLOT: {b}, recorded {} - {}", slot(&rb), slot(&rh));
        }

        // The dumps' adaptive bytecode tells the same story at the line that loads p.x + p.y.
        let base_ops = ops_on_line(&base, &base_py, "attrs", "s += p.x + p.y");
        let head_ops = ops_on_line(&head, &head_py, "attrs", "s += p.x + p.y");
        assert_eq!(base_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 2, "{v}: base: {base_ops:?}");
        assert!(!head_ops.iter().any(|o| o == "LOAD_ATTR_SLOT"), "{v}: head: {head_ops:?}");
    }
}

/// The bundled demo pair: `dot_sum`'s `p.x` became `getattr(p, key)`, so one of its two slot
/// loads is gone; the stats and the dump's bytecode agree.
#[test]
fn demo_pair_loses_one_of_two_slot_loads() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for py in pystats_builds("demo_pair_loses_one_of_two_slot_loads") {
        let v = py.minor;
        let tmp = tempfile::tempdir().unwrap();
        let demo = repo_root().join("examples/demo");
        let before = raw_files();
        let (base, base_stats) = dump_stats(&py, tmp.path(), "base", &[demo.join("base.py").to_str().unwrap(), "30"]);
        let (head, head_stats) = dump_stats(&py, tmp.path(), "head", &[demo.join("head.py").to_str().unwrap(), "30"]);
        let left: Vec<_> = raw_files().difference(&before).cloned().collect();
        assert!(left.is_empty(), "{v}: the consumed raw stats files should be deleted, found {left:?}");
        assert_attrs_specialized(&py, &base_stats);
        assert_attrs_specialized(&py, &head_stats);

        let base_ops = ops_on_line(&base, &demo.join("base.py"), "dot_sum", "total += p.x * p.y");
        let head_ops = ops_on_line(&head, &demo.join("head.py"), "dot_sum", "total += getattr(p, key) * p.y");
        assert_eq!(base_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 2, "{v}: base: {base_ops:?}");
        assert_eq!(head_ops.iter().filter(|o| *o == "LOAD_ATTR_SLOT").count(), 1, "{v}: head: {head_ops:?}");

        // 30 rounds over 2000 points: base loads two slots per point, head one.
        let (b, h) = (executions(&base_stats, "LOAD_ATTR_SLOT"), executions(&head_stats, "LOAD_ATTR_SLOT"));
        assert!(b >= 2 * 30 * 1990, "{v}: base LOAD_ATTR_SLOT executions: {b}");
        assert!(h >= 30 * 1990 && h < b * 6 / 10, "{v}: head LOAD_ATTR_SLOT executions: {h} (base {b})");
        // head's mixed shapes: `shape.area()` sees three classes, so the method loads miss
        // more (3.11: the LOAD_METHOD family; 3.12+ loads methods with LOAD_ATTR).
        let family = if v == "3.11" { "LOAD_METHOD" } else { "LOAD_ATTR" };
        let misses = |s: &Stats| s.opcodes.get(family).map_or(0, |o| o.specialization.miss);
        assert!(misses(&head_stats) > misses(&base_stats), "{v}: {family} misses: head {} base {}", misses(&head_stats), misses(&base_stats));
    }
}

/// Explanations cite the runs' failure kinds when both dumps have pystats (issue 16): the
/// corpus pair whose accumulator starts as a float loses `BINARY_OP_ADD_INT`, the rule says
/// int/float mixing, and the stats agree with CPython's own reason for the failed attempts
/// ("add different types", which only head's runs record). A change the stats cannot speak
/// to (`dot_sum`'s load that became `getattr`: no site left to fail) gets no such words.
#[test]
fn explanations_cite_the_failure_kinds_that_grew() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for py in pystats_builds("explanations_cite_the_failure_kinds_that_grew") {
        let v = py.minor;
        let tmp = tempfile::tempdir().unwrap();
        let case = repo_root().join("crates/cli/tests/programs/explain/op_int_accumulator_float");
        dump_stats(&py, tmp.path(), "base", &[case.join("base.py").to_str().unwrap()]);
        dump_stats(&py, tmp.path(), "head", &[case.join("head.py").to_str().unwrap()]);
        let report = diff_json(&tmp.path().join(format!("base-{v}.json")), &tmp.path().join(format!("head-{v}.json")));
        let lost: Vec<&serde_json::Value> = report["functions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["changes"].as_array().unwrap())
            .filter(|c| c["kind"] == "lost" && c["family"] == "BINARY_OP")
            .collect();
        assert!(!lost.is_empty(), "{v}: no lost BINARY_OP site: {report}");
        for c in lost {
            let why = c["explanation"].as_str().unwrap_or_default();
            assert_eq!(c["cause"], "int_float_mixing", "{v}: {why}");
            assert!(
                why.contains("; pystats agree: BINARY_OP specializations failed ") && why.contains(" for “add different types” in head (0 in base)"),
                "{v}: {why}"
            );
        }
        // The demo's getattr change: its loss has no site in head, the stats stay out of it.
        let demo = repo_root().join("examples/demo");
        dump_stats(&py, tmp.path(), "demo-base", &[demo.join("base.py").to_str().unwrap(), "3"]);
        dump_stats(&py, tmp.path(), "demo-head", &[demo.join("head.py").to_str().unwrap(), "3"]);
        let report = diff_json(&tmp.path().join(format!("demo-base-{v}.json")), &tmp.path().join(format!("demo-head-{v}.json")));
        for c in report["functions"].as_array().unwrap().iter().flat_map(|f| f["changes"].as_array().unwrap()) {
            if c["cause"] == "getattr_call" {
                assert!(!c["explanation"].as_str().unwrap().contains("pystats"), "{v}: {c}");
            }
        }
    }
}

/// `specdiff diff --format json BASE HEAD`, parsed.
fn diff_json(base: &Path, head: &Path) -> serde_json::Value {
    let o = specdiff().args(["diff", "--format", "json"]).arg(base).arg(head).output().expect("specdiff runs");
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("a JSON report")
}

/// On a pystats build the dump is written by a forked child: the program's output still comes
/// out once, in full, and its exit status and exception are specdiff's and the dump's.
#[test]
fn forked_dump_keeps_output_and_exit_status() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for py in pystats_builds("forked_dump_keeps_output_and_exit_status") {
        let v = py.minor;
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
        assert_eq!(o.status.code(), Some(7), "{v}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&o.stdout), format!("out{}", "x".repeat(9000)), "{v}");
        assert_eq!(stderr.matches("err\n").count(), 1, "{v}: {stderr}");
        assert_eq!(d.run.exit_status, 7, "{v}");
        assert!(d.pystats.is_some(), "{v}: {stderr}");
        let (o, d) = run("raise", "def f():\n    raise ValueError('boom')\nf()");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{v}: {stderr}");
        assert_eq!(stderr.matches("Traceback").count(), 1, "{v}: {stderr}");
        assert_eq!(d.run.exception.as_deref(), Some("ValueError: boom"), "{v}");
        assert!(d.pystats.is_some(), "{v}: {stderr}");
        // A program that never starts (here a syntax error): 3.11 counts the whole process
        // anyway; 3.13 counts only the program, so there is nothing to report.
        let (o, d) = run("syntax", "def f(:\n");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{v}: {stderr}");
        assert!(d.run.exception.as_deref().is_some_and(|e| e.starts_with("SyntaxError")), "{v}: {:?}", d.run.exception);
        assert_eq!(d.pystats.is_some(), v == "3.11", "{v}: {stderr}");
        let left: Vec<_> = raw_files().difference(&before).cloned().collect();
        assert!(left.is_empty(), "{v}: the consumed raw stats files should be deleted, found {left:?}");
    }
}

/// The switch, end to end: this test binary re-runs one of its tests with both pystats builds
/// pointed at a path that does not exist. Without `SPECDIFF_REQUIRE_INTERPRETERS` it passes,
/// printing SKIPPED; with it, it fails naming the build and what installs it. Both record what
/// happened (in a folder of their own, not the real record).
#[test]
fn a_missing_build_skips_here_and_fails_where_required() {
    const TEST: &str = "forked_dump_keeps_output_and_exit_status";
    for (require, passes, record_word) in [("0", true, "skipped"), ("1", false, "missing")] {
        let target = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(std::env::current_exe().unwrap())
            .args([TEST, "--exact", "--nocapture", "--test-threads=1"])
            .env("SPECDIFF_PYSTATS_PYTHON", "/nonexistent/python3.11")
            .env("SPECDIFF_PYSTATS_PYTHON_3_13", "/nonexistent/python3.13")
            .env("SPECDIFF_REQUIRE_INTERPRETERS", require)
            .env("CARGO_TARGET_DIR", target.path())
            .output()
            .unwrap();
        let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.success(), passes, "SPECDIFF_REQUIRE_INTERPRETERS={require}:\n{out}");
        let why = "(SPECDIFF_PYSTATS_PYTHON=/nonexistent/python3.11 does not exist";
        if passes {
            assert!(out.contains(&format!("SKIPPED {TEST}: 3.11-pystats is missing {why}")), "{out}");
            assert!(out.contains(&format!("SKIPPED {TEST}: 3.13-pystats is missing")), "{out}");
        } else {
            assert!(out.contains(&format!("{TEST}: 3.11-pystats is missing {why}); it is required here")), "{out}");
            assert!(out.contains("scripts/build-pystats-python.sh 3.11) installs it"), "{out}");
        }
        let record = std::fs::read_to_string(target.path().join("specdiff-test-interpreters.txt")).unwrap();
        assert!(record.starts_with(&format!("{record_word}\t3.11-pystats\t{TEST}\t")), "{record}");
    }
}
