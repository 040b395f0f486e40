//! The JIT's tier-2 traces (issue 35) on native CPython 3.14 and 3.15 with `PYTHON_JIT=1`:
//! the dump records every executor attached to a loop (its uops with their bytecode offsets,
//! its exits, the schema holds), and the diff reports each loop change of the corpus in
//! `tests/programs/jit/CASE/{base.py,head.py,case.json}` with the right kind, line and cause,
//! the gate failing exactly on lost traces and traces that end early when asked
//! (`--gate-traces`), and not otherwise; `unchanged` is the noise floor with the JIT on.
//!
//! `case.json`: `what`, `function` (qualname in `__main__`), `kind` (`lost`, `gained`,
//! `changed`, `invalidated`, or `null`: no trace change anywhere), `line` (the loop jump's head
//! line, optional), `explains` (a phrase the trace's explanation holds), `gate` (whether
//! `--fail-on-regression` fails), optional `diff_args`. Every program is dumped once per
//! interpreter (all tests share the dumps).

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::{interpreters, read, repo_root, specdiff, Interpreter};
use serde_json::Value;

fn corpus() -> PathBuf {
    repo_root().join("crates/cli/tests/programs/jit")
}

/// The native interpreters with executors to read (3.14+).
fn jit_interpreters() -> Vec<&'static Interpreter> {
    interpreters().iter().filter(|i| !i.pyodide && i.version() >= (3, 14)).collect()
}

fn cases() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("case.json").exists())
        .map(|d| {
            let spec = serde_json::from_str(&std::fs::read_to_string(d.join("case.json")).unwrap()).unwrap();
            (d.file_name().unwrap().to_string_lossy().into_owned(), spec)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn dump_jit(py: &Interpreter, script: &Path, out: &Path, jit: &str) {
    let o = specdiff()
        .env("PYTHON_JIT", jit)
        .args(["dump", "--python"])
        .arg(&py.python)
        .arg("-o")
        .arg(out)
        .arg(script)
        .current_dir(corpus())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&o.stderr));
}

/// Every case dumped once per interpreter with the JIT on: the folder holding
/// `CASE-{base,head}-MINOR.json`.
fn dumps() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for py in jit_interpreters() {
            std::thread::scope(|s| {
                for (name, _) in cases() {
                    for side in ["base", "head"] {
                        let (dir, name) = (dir.path(), name.clone());
                        s.spawn(move || {
                            let out = dir.join(format!("{name}-{side}-{}.json", py.minor));
                            dump_jit(py, &corpus().join(&name).join(format!("{side}.py")), &out, "1");
                        });
                    }
                }
            });
        }
        dir
    })
    .path()
}

fn dump_path(case: &str, side: &str, py: &Interpreter) -> PathBuf {
    dumps().join(format!("{case}-{side}-{}.json", py.minor))
}

fn diff(case: &str, py: &Interpreter, extra: &[&str]) -> (Value, bool) {
    let o: std::process::Output = specdiff()
        .args(["diff", "--format", "json", "--fail-on-regression"])
        .args(extra)
        .arg(dump_path(case, "base", py))
        .arg(dump_path(case, "head", py))
        .output()
        .unwrap();
    let failed = match o.status.code() {
        Some(0) => false,
        Some(1) => true,
        _ => panic!("{case} {}: {}", py.minor, String::from_utf8_lossy(&o.stderr)),
    };
    (serde_json::from_slice(&o.stdout).unwrap(), failed)
}

#[test]
fn dumps_record_each_loop_executor_with_its_uops_offsets_and_exits() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("docs/dump.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for py in jit_interpreters() {
        let path = dump_path("type_mixed", "base", py);
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).take(5).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{}: {}", py.minor, errors.join("\n"));
        let d = read(&path);
        let jit = d.python.jit.clone().expect("3.14+ says what its JIT is");
        assert_eq!((jit.executors_readable, jit.enabled), (true, Some(true)), "{}", py.minor);
        let c = d.code.iter().find(|c| d.str(c.qualname) == "total").unwrap();
        let exs = c.executors.as_ref().unwrap_or_else(|| panic!("{}: `total`'s loop has no executor", py.minor));
        assert_eq!(exs.len(), 1, "{}", py.minor);
        let e = &exs[0];
        // Attached to the loop's jump; every uop offset is an instruction of `total`.
        let jump = c.instructions.iter().find(|i| i.offset == e.offset).unwrap();
        assert_eq!(d.op(jump).name, "JUMP_BACKWARD_JIT", "{}", py.minor);
        assert!(e.valid && e.uops.len() > 10 && (e.uops.len() as u32) < e.length, "{}: {e:?}", py.minor);
        let offsets: Vec<u32> = c.instructions.iter().map(|i| i.offset).collect();
        for u in &e.uops {
            assert!(u.offset.is_none_or(|o| offsets.contains(&o)), "{}: uop {} at {:?}", py.minor, d.str(u.name), u.offset);
        }
        // The add in the loop: its uop and its guard's exit, both at the BINARY_OP.
        let add = c.instructions.iter().find(|i| d.op(i).name == "BINARY_OP_ADD_INT").unwrap();
        let exits = e.exits.as_ref().expect("the stubs are told from the trace");
        assert!(
            e.uops.iter().any(|u| d.str(u.name).starts_with("_BINARY_OP_ADD_INT") && u.offset == Some(add.offset)),
            "{}",
            py.minor
        );
        let guard = e.uops.iter().find(|u| d.str(u.name).starts_with("_GUARD_") && u.offset == Some(add.offset)).unwrap();
        let exit = &exits[guard.exit.unwrap() as usize];
        assert_eq!((exit.0.as_str(), exit.2), ("side", Some(add.offset)), "{}", py.minor);
    }
}

#[test]
fn a_loops_trace_names_the_instructions_it_runs_in_the_calls_it_inlines() {
    // `total`'s loop calls `Point.norm1` and `scale`: its trace goes into both, and each
    // callee's `inlined` lists the instructions it ran there (its loads of `x` and `y`, the
    // multiply), each one of the callee's; `total` itself and `main` list none.
    for py in jit_interpreters() {
        let d = read(&dump_path("callee_inlined", "base", py));
        let code = |q: &str| d.code.iter().find(|c| d.str(c.qualname) == q).unwrap_or_else(|| panic!("{}: no {q}", py.minor));
        assert!(code("total").executors.is_some(), "{}: `total`'s loop has no executor", py.minor);
        for (callee, site) in [("Point.norm1", "LOAD_ATTR_SLOT"), ("scale", "BINARY_OP_MULTIPLY_INT")] {
            let c = code(callee);
            let inlined = c.inlined.as_ref().unwrap_or_else(|| panic!("{}: {callee} has no `inlined`", py.minor));
            let offsets: Vec<u32> = c.instructions.iter().map(|i| i.offset).collect();
            assert!(inlined.iter().all(|o| offsets.contains(o)), "{}: {callee} {inlined:?} not all its instructions", py.minor);
            let sites: Vec<u32> = c.instructions.iter().filter(|i| d.op(i).name == site).map(|i| i.offset).collect();
            assert!(!sites.is_empty() && sites.iter().all(|o| inlined.contains(o)), "{}: {callee}'s {site} {sites:?} not in {inlined:?}", py.minor);
        }
        assert!(code("total").inlined.is_none() && code("main").inlined.is_none(), "{}", py.minor);
    }
}

#[test]
fn without_the_jit_nothing_is_recorded() {
    for py in jit_interpreters() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("off.json");
        dump_jit(py, &corpus().join("type_mixed/base.py"), &out, "0");
        let d = read(&out);
        assert_eq!(d.python.jit.as_ref().and_then(|j| j.enabled), Some(false), "{}", py.minor);
        assert!(d.code.iter().all(|c| c.executors.is_none()), "{}", py.minor);
    }
}

#[test]
fn the_corpus_loop_changes_are_reported_with_their_kind_and_cause() {
    let mut problems = Vec::new();
    for py in jit_interpreters() {
        for (name, spec) in cases() {
            let extra: Vec<&str> = spec["diff_args"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let (report, failed) = diff(&name, py, &extra);
            let all: Vec<&Value> = report["functions"].as_array().unwrap().iter().flat_map(|f| f["traces"].as_array().into_iter().flatten()).collect();
            let at = format!("{name} on {}", py.minor);
            if failed != spec["gate"].as_bool().unwrap() {
                problems.push(format!("{at}: gate failed = {failed}"));
            }
            // A trace change gates only when asked (`--gate-traces`).
            if extra.contains(&"--gate-traces") {
                let without: Vec<&str> = extra.iter().copied().filter(|a| *a != "--gate-traces").collect();
                if diff(&name, py, &without).1 {
                    problems.push(format!("{at}: the gate fails without --gate-traces"));
                }
            }
            let Some(kind) = spec["kind"].as_str() else {
                if !all.is_empty() {
                    problems.push(format!("{at}: expected no trace change, got {all:?}"));
                }
                continue;
            };
            let function = report["functions"].as_array().unwrap().iter().find(|f| f["qualname"] == spec["function"]);
            let traces: Vec<&Value> = function.map(|f| f["traces"].as_array().into_iter().flatten().collect()).unwrap_or_default();
            let found = traces.iter().find(|t| {
                t["kind"] == kind
                    && (spec["line"].is_null() || t["line"] == spec["line"])
                    && t["explanation"].as_str().unwrap().contains(spec["explains"].as_str().unwrap())
            });
            if found.is_none() {
                problems.push(format!("{at}: no `{kind}` trace explained with {:?}: {traces:?}", spec["explains"]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_unchanged_program_dumped_twice_with_the_jit_shows_no_trace_change() {
    // The noise floor: the same program, two runs, the JIT on; and each run against itself.
    for py in jit_interpreters() {
        let dir = tempfile::tempdir().unwrap();
        let again = dir.path().join("again.json");
        dump_jit(py, &corpus().join("generator_in_loop/head.py"), &again, "1");
        let o = specdiff()
            .args(["diff", "--format", "json", "--fail-on-regression"])
            .arg(dump_path("generator_in_loop", "head", py))
            .arg(&again)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}: {}", py.minor, String::from_utf8_lossy(&o.stdout));
        let report: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(
            report["functions"].as_array().unwrap().iter().all(|f| f["traces"].is_null()),
            "{}: {report}",
            py.minor
        );
    }
}

#[test]
fn the_side_by_side_rows_carry_each_loops_traces_with_their_bytecode_offsets() {
    // What the page shows (issue 35): the loop of `total` whose int add became the mixed form,
    // base's and head's uops aligned, every uop of each side's executor there once and in order,
    // each pointing at an instruction of its own side; the add's uops are where they differ.
    use specdiff_core::{function_rows, DiffOptions};
    for py in jit_interpreters() {
        let (base, head) = (read(&dump_path("type_mixed", "base", py)), read(&dump_path("type_mixed", "head", py)));
        let index = |d: &specdiff_core::model::Dump| d.code.iter().position(|c| d.str(c.qualname) == "total").unwrap() as u32;
        let (bi, hi) = (index(&base), index(&head));
        let rows = function_rows(&base, &head, Some(bi), Some(hi), &DiffOptions::default());
        assert_eq!(rows.traces.len(), 1, "{}: one loop", py.minor);
        let t = &rows.traces[0];
        assert_eq!((t.line, t.valid), (Some(4), [Some(true), Some(true)]), "{}", py.minor);
        assert_eq!(t.change.map(|k| k.as_str()), Some("changed"), "{}", py.minor);
        for (d, code, side) in [(&base, bi, 0), (&head, hi, 1)] {
            let c = &d.code[code as usize];
            let e = &c.executors.as_ref().unwrap()[0];
            assert_eq!(t.offsets[side], Some(e.offset), "{}", py.minor);
            let shown: Vec<(String, Option<u32>)> = t
                .rows
                .iter()
                .filter_map(|r| if side == 0 { r.base.as_ref() } else { r.head.as_ref() })
                .map(|u| (u.name.clone(), u.offset))
                .collect();
            let dumped: Vec<(String, Option<u32>)> = e.uops.iter().map(|u| (d.str(u.name).to_string(), u.offset)).collect();
            assert_eq!(shown, dumped, "{} side {side}", py.minor);
            let offsets: Vec<u32> = c.instructions.iter().map(|i| i.offset).collect();
            assert!(shown.iter().all(|(_, o)| o.is_none_or(|o| offsets.contains(&o))), "{}", py.minor);
        }
        // Where they differ is the add (`t + v`): uops from its instruction on both sides.
        let add = |d: &specdiff_core::model::Dump, code: u32| {
            d.code[code as usize].instructions.iter().find(|i| d.op(i).family == "BINARY_OP").map(|i| i.offset)
        };
        let (ba, ha) = (add(&base, bi), add(&head, hi));
        let differs = |side: usize, at: Option<u32>| {
            t.rows.iter().filter(|r| !r.same).filter_map(|r| if side == 0 { r.base.as_ref() } else { r.head.as_ref() }).any(|u| u.offset == at)
        };
        assert!(differs(0, ba) && differs(1, ha), "{}: {:?}", py.minor, t.rows);
        assert!(t.rows.iter().any(|r| r.same), "{}: most of the loop is the same", py.minor);
    }
}

#[test]
fn a_share_link_carries_the_traces_so_the_page_it_opens_reports_them() {
    // `specdiff diff --link` on every corpus pair with a trace change: the link's dumps, diffed
    // as the page diffs them, report the same trace changes as the original dumps, and a
    // function with executors travels whole (its uops point into the whole body).
    let url = "http://127.0.0.1:9/specdiff/";
    for py in jit_interpreters() {
        for (name, spec) in cases().into_iter().filter(|(_, s)| s["kind"].is_string()) {
            let extra: Vec<&str> = spec["diff_args"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let (report, _) = diff(&name, py, &[&["--link", url][..], &extra].concat());
            let link = report["link"].as_str().unwrap_or_else(|| panic!("{name} {}: no link", py.minor));
            let shared = specdiff_core::share::decode(link.strip_prefix(&format!("{url}#share=")).unwrap(), specdiff_core::ReadLimits::default())
                .unwrap_or_else(|e| panic!("{name} {}: {e}", py.minor));
            let (sb, sh) = (shared.base.unwrap(), shared.head.unwrap());
            let options = specdiff_core::DiffOptions { allow_unrelated: extra.contains(&"--allow-unrelated"), ..Default::default() };
            let reopened = specdiff_core::diff_dumps(&sb, &sh, &options).unwrap_or_else(|e| panic!("{name} {}: {e}", py.minor));
            let traces = |fs: Vec<(String, Value)>| fs.into_iter().filter(|(_, t)| !t.is_null()).collect::<Vec<_>>();
            let want = traces(report["functions"].as_array().unwrap().iter().map(|f| (f["qualname"].as_str().unwrap().to_string(), f["traces"].clone())).collect());
            let got = traces(reopened.functions.iter().filter(|f| !f.traces.is_empty()).map(|f| (f.qualname.clone(), serde_json::to_value(&f.traces).unwrap())).collect());
            assert!(!want.is_empty(), "{name} {}: the case has a trace change", py.minor);
            assert_eq!(got, want, "{name} on {}: the link's dumps report other trace changes", py.minor);
        }
    }
}
