//! The regression gate on real dumps of one unchanged workload
//! (`tests/programs/gate_workload.py`) under CPython 3.11, 3.12 and 3.13: repeated runs and
//! one extra miss on hot specialized sites do not fail it, cross-version diffs read each side's
//! counters with its own rules (no `%`/`>>`/`&` backoff misreadings), import-time code counts
//! only with `--gate-import-time` (code sampled only inside imports too:
//! `tests/programs/import_only.py` across versions), and a real regression (the demo's
//! refactors) still fails it.
//!
//! Hotness comes from a sampling thread, so nothing here depends on exact sample counts.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use common::*;
use serde_json::Value;

const WORKLOAD: &str = "crates/cli/tests/programs/gate_workload.py";
const ROUNDS: &str = "400";
/// `__main__` functions whose code and behaviour are the same in every run and version.
const STEADY: [&str; 5] = ["mix", "checksum", "tokenize", "Inventory.weigh", "Item.total"];

fn work_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("specdiff-gate-tests-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// Dumps the workload with `extra` arguments under `py`, once per name.
fn dump(py: &Interpreter, name: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec![WORKLOAD, ROUNDS];
    args.extend_from_slice(extra);
    dump_ok(py, work_dir(), name, &args);
    work_dir().join(format!("{name}-{}.json", py.key))
}

fn diff(args: &[&str]) -> Output {
    specdiff().arg("diff").args(args).env("NO_COLOR", "1").current_dir(repo_root()).output().expect("specdiff runs")
}

/// The JSON report of `base` → `head` with `--fail-on-regression` and `extra`, and the exit code.
fn gated(base: &Path, head: &Path, extra: &[&str]) -> (Value, i32) {
    let mut args =
        vec![base.to_str().unwrap(), head.to_str().unwrap(), "--json", "--fail-on-regression", "--allow-unrelated"];
    args.extend_from_slice(extra);
    let o = diff(&args);
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&o.stderr));
    (serde_json::from_slice(&o.stdout).unwrap(), code)
}

fn main_function<'a>(r: &'a Value, qualname: &str) -> Option<&'a Value> {
    r["functions"].as_array().unwrap().iter().find(|f| f["module"] == "__main__" && f["qualname"] == qualname)
}

fn kinds(f: &Value) -> Vec<String> {
    f["changes"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap().to_string()).collect()
}

/// Every interpreter of 3.11–3.13 asked for; a missing one skips or fails the test.
fn versions(test: &str) -> Vec<&'static Interpreter> {
    ["3.11", "3.12", "3.13"].iter().filter_map(|m| interpreter(test, m)).collect()
}

#[test]
fn repeated_runs_and_cross_version_diffs_of_unchanged_code_do_not_regress() {
    let pys = versions("repeated_runs_and_cross_version_diffs_of_unchanged_code_do_not_regress");
    let runs: Vec<(PathBuf, PathBuf)> =
        pys.iter().map(|py| (dump(py, "steady-a", &[]), dump(py, "steady-b", &[]))).collect();
    for (py, (a, b)) in pys.iter().zip(&runs) {
        let (r, code) = gated(a, b, &[]);
        // The report may list import-machinery sites (they move with garbage collection); the
        // gate leaves them out, and nothing else regressed.
        let found = regressions_outside_import_time(&r);
        assert!(found.is_empty(), "{}: repeated run: {found:?}\n{:#}", py.label, r["functions"]);
        assert_eq!(r["gate"]["hot"].as_array().unwrap().len(), 0, "{}: {:#}", py.label, r["gate"]);
        assert_eq!(code, 0, "{}", py.label);
    }
    for (i, j) in [(0, 1), (1, 2), (0, 2)] {
        if j >= runs.len() {
            continue;
        }
        let (label, (base, head)) = (format!("{} → {}", pys[i].label, pys[j].label), (&runs[i].0, &runs[j].0));
        let (r, _) = gated(base, head, &[]);
        for q in STEADY {
            if let Some(f) = main_function(&r, q) {
                assert_eq!(f["regressions"], 0, "{label}: {q}: {:#}", f["changes"]);
            }
        }
        // roundtrip()'s comprehensions are code objects of their own on 3.11 and inlined on
        // 3.12+ (PEP 709): the call that ran one is removed, never paired with the call of
        // `dataclasses.asdict` after it (that pairing read as a lost CALL_PY_EXACT_ARGS).
        if let Some(f) = main_function(&r, "roundtrip") {
            assert_eq!(f["regressions"], 0, "{label}: roundtrip: {:#}", f["changes"]);
        }
        // No backoff comparison across the 3.11 / 3.12 counter models, in the program's code.
        for f in r["functions"].as_array().unwrap().iter().filter(|f| f["module"] == "__main__") {
            let ks = kinds(f);
            if pys[i].minor == "3.11" {
                assert!(!ks.iter().any(|k| k == "backed_off"), "{label}: {}: {ks:?}", f["qualname"]);
            }
        }
        // 3.11's `%`, `>>`, `&` sites in mix() gave up for good: read as such, never as cold.
        if pys[i].minor == "3.11" {
            let (all, _) = gated(base, head, &["--all", "--function", "mix"]);
            let mix = main_function(&all, "mix").unwrap_or_else(|| panic!("{label}: {all:#}"));
            let ops: Vec<_> = mix["changes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| {
                    c["family"] == "BINARY_OP" && ["%", ">>", "&"].contains(&c["operand"].as_str().unwrap_or(""))
                })
                .collect();
            assert!(ops.len() >= 3, "{label}: {mix:#}");
            for c in ops {
                assert_eq!(c["base_counter"]["state"], "gave_up", "{label}: {c:#}");
                assert_eq!(c["kind"], "unchanged", "{label}: {c:#}");
            }
        }
    }
}

#[test]
fn one_extra_miss_on_a_hot_specialized_site_does_not_fail_the_gate() {
    for py in versions("one_extra_miss_on_a_hot_specialized_site_does_not_fail_the_gate") {
        let base = dump(py, "miss-base", &[]);
        let head = dump(py, "miss-head", &["--one-miss"]);
        let (r, code) = gated(&base, &head, &["--function", "Inventory.weigh"]);
        let f = main_function(&r, "Inventory.weigh").unwrap_or_else(|| panic!("{}: {r:#}", py.label));
        let changes = f["changes"].as_array().unwrap();
        // The extra miss is there, shown as `minor` with its evidence, and is no regression.
        let minor: Vec<_> = changes.iter().filter(|c| c["kind"] == "minor").collect();
        assert!(!minor.is_empty(), "{}: {changes:#?}", py.label);
        for c in &minor {
            let (b, h) = (c["base_counter"]["misses"].as_u64().unwrap(), c["head_counter"]["misses"].as_u64().unwrap());
            assert_eq!(h, b + 1, "{}: {c:#}", py.label);
            assert!(c["explanation"].as_str().unwrap().starts_with("1 miss since it was specialized"), "{c:#}");
        }
        assert_eq!(f["regressions"], 0, "{}: {changes:#?}", py.label);
        assert_eq!(code, 0, "{}", py.label);
    }
}

#[test]
fn real_regressions_still_fail_the_gate() {
    for py in versions("real_regressions_still_fail_the_gate") {
        let b = dump_ok(py, work_dir(), "demo-base", &["examples/demo/base.py", "1000"]);
        dump_ok(py, work_dir(), "demo-head", &["examples/demo/head.py", "1000"]);
        let base = work_dir().join(format!("demo-base-{}.json", py.key));
        let head = work_dir().join(format!("demo-head-{}.json", py.key));
        let (r, code) = gated(&base, &head, &[]);
        assert_eq!(code, 1, "{}: {:#}", py.label, r["gate"]);
        // `p.x` → `getattr(p, name)` in dot_sum: lost, gating, with its evidence.
        let dot = main_function(&r, "dot_sum").unwrap();
        assert!(dot["regressions"].as_u64().unwrap() >= 1, "{}: {dot:#}", py.label);
        let hot: Vec<_> =
            r["gate"]["hot"].as_array().unwrap().iter().map(|g| g["function"].as_str().unwrap()).collect();
        if b.run.sampler.samples > 0 {
            assert!(hot.contains(&"__main__:dot_sum"), "{}: {hot:?}", py.label);
        }
        // The float accumulator in scale(): lost, and the explanation leads with the backoff
        // evidence (failed attempts and the executions they prove).
        let scale = main_function(&r, "scale").unwrap();
        let lost = scale["changes"].as_array().unwrap().iter().find(|c| c["kind"] == "lost").unwrap();
        assert!(lost["explanation"].as_str().unwrap().starts_with("generic for at least "), "{lost:#}");
    }
}

#[test]
fn import_time_code_counts_only_with_the_flag() {
    // The 3.11 → 3.12 upgrade changes importlib's and module bodies' counters.
    let (Some(a), Some(b)) = (
        interpreter("import_time_code_counts_only_with_the_flag", "3.11"),
        interpreter("import_time_code_counts_only_with_the_flag", "3.12"),
    ) else {
        return;
    };
    let (base, head) = (dump(a, "imp", &[]), dump(b, "imp", &[]));
    let (r, _) = gated(&base, &head, &["--min-hotness", "0"]);
    let skipped = r["gate"]["import_time"].as_array().unwrap();
    assert!(!skipped.is_empty(), "{:#}", r["gate"]);
    let is_import = |name: &str| name.contains("importlib._bootstrap") || name.ends_with(":<module>");
    assert!(skipped.iter().any(|g| is_import(g["function"].as_str().unwrap())), "{skipped:#?}");
    for g in r["gate"]["hot"].as_array().unwrap() {
        let name = g["function"].as_str().unwrap();
        assert!(!name.contains("importlib._bootstrap") && !name.ends_with(":<module>"), "{name}");
    }
    let (r2, code2) = gated(&base, &head, &["--min-hotness", "0", "--gate-import-time"]);
    assert_eq!(r2["gate"]["import_time"].as_array().unwrap().len(), 0);
    let hot2: Vec<_> = r2["gate"]["hot"].as_array().unwrap().iter().map(|g| g["function"].as_str().unwrap()).collect();
    assert!(hot2.iter().any(|n| is_import(n)), "{hot2:?}");
    assert_eq!(code2, 1);
}

/// Code that only ran inside imports does not fail the gate. Across an interpreter upgrade the
/// standard library's own code changes and its counters with it: before, every pair of
/// 3.11, 3.12 and 3.13 dumps of `import_only.py` failed on `enum:EnumType.__new__` (3–5 % of
/// the samples, every one of them inside `import dataclasses`).
#[test]
fn code_sampled_only_inside_imports_does_not_fail_the_gate() {
    let pys = versions("code_sampled_only_inside_imports_does_not_fail_the_gate");
    let mut dumps = Vec::new();
    // The sampler counts the samples taken inside imports: all of the import machinery's own.
    for py in &pys {
        let d = dump_ok(py, work_dir(), "import-only", &["crates/cli/tests/programs/import_only.py"]);
        dumps.push(work_dir().join(format!("import-only-{}.json", py.key)));
        let importlib: Vec<_> = d.code.iter().filter(|c| d.str(c.module).starts_with("importlib._bootstrap") && c.samples.1 > 0).collect();
        assert!(!importlib.is_empty(), "{}: no sample inside an import", py.label);
        for c in importlib {
            assert_eq!(c.import_samples, c.samples.1, "{}: {}", py.label, d.str(c.qualname));
        }
    }
    for (i, j) in [(0, 1), (1, 2), (0, 2)] {
        if j >= dumps.len() {
            continue;
        }
        let (r, code) = gated(&dumps[i], &dumps[j], &[]);
        assert_eq!(code, 0, "{} → {}: {:#}", pys[i].label, pys[j].label, r["gate"]);
    }
}

/// Module names come from the file, not a default: on 3.13 `collections/abc.py` replaces
/// itself in `sys.modules` with `_collections_abc`, and its module body was credited to
/// `__main__`. No code from a file outside the program may be `__main__`'s.
#[test]
fn library_files_are_never_credited_to_main() {
    for py in versions("library_files_are_never_credited_to_main") {
        let d = read(&dump(py, "modules", &[]));
        for c in &d.code {
            let path = &d.files[c.file as usize].path;
            if path.starts_with('<') || path.ends_with("gate_workload.py") {
                continue;
            }
            assert_ne!(d.str(c.module), "__main__", "{}: {} in {path}", py.label, d.str(c.qualname));
        }
        if py.minor == "3.13" {
            let abc = d.code.iter().find(|c| d.files[c.file as usize].path.ends_with("collections/abc.py"));
            let abc = abc.unwrap_or_else(|| panic!("3.13 runs collections/abc.py when json/dataclasses import it"));
            assert_eq!(d.str(abc.module), "collections.abc");
        }
    }
}
