//! Renamed and moved functions on real dumps of every interpreter present
//! (`tests/programs/renames`, whose README lists the pairs): a renamed hot function is paired
//! with its old self and its regression fails the gate; a method of a renamed class, and a
//! function moved into another of the program's modules, are paired too; near-misses (another
//! function with a loop of the same shape, small getters of other attributes) are not.

mod common;

use std::path::{Path, PathBuf};

use common::{dump_in, interpreters, ran, repo_root, specdiff, Interpreter};
use serde_json::Value;

fn corpus() -> PathBuf {
    repo_root().join("crates/cli/tests/programs/renames")
}

/// Dumps one side of `case`: `case/SIDE.py`, or `case/SIDE/app.py` run in its folder.
fn dump(py: &Interpreter, dir: &Path, case: &str, side: &str) -> PathBuf {
    let out = dir.join(format!("{case}-{side}.json"));
    let folder = corpus().join(case).join(side);
    let o = if folder.is_dir() {
        dump_in(py, &folder, &out, &["app.py"])
    } else {
        dump_in(py, &corpus().join(case), &out, &[format!("{side}.py")])
    };
    assert!(o.status.success(), "{case}/{side} under {}: {}", py.label, String::from_utf8_lossy(&o.stderr));
    out
}

/// The JSON report of `case` with `--fail-on-regression`, and the exit code.
fn report(py: &Interpreter, dir: &Path, case: &str) -> (Value, i32) {
    let (base, head) = (dump(py, dir, case, "base"), dump(py, dir, case, "head"));
    let o = specdiff()
        .args(["diff", "--json", "--fail-on-regression", "--min-hotness", "0"])
        .arg(&base)
        .arg(&head)
        .output()
        .expect("specdiff runs");
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&o.stderr));
    (serde_json::from_slice(&o.stdout).unwrap(), code)
}

/// `module:qualname` of each entry of `list` (`added_functions`, `removed_functions`).
fn names(r: &Value, list: &str) -> Vec<String> {
    r[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}:{}", f["module"].as_str().unwrap(), f["qualname"].as_str().unwrap()))
        .collect()
}

fn function<'a>(r: &'a Value, module: &str, qualname: &str) -> Option<&'a Value> {
    r["functions"].as_array().unwrap().iter().find(|f| f["module"] == module && f["qualname"] == qualname)
}

#[test]
fn renamed_and_moved_functions_pair_and_near_misses_do_not() {
    let dir = tempfile::tempdir().unwrap();
    for py in interpreters() {
        let d = dir.path().join(py.key);
        std::fs::create_dir_all(&d).unwrap();
        let label = &py.label;

        // A renamed hot function that regressed: paired, reported and gated.
        let (r, code) = report(py, &d, "rename_regressed");
        let f = function(&r, "__main__", "order_total").unwrap_or_else(|| panic!("{label}: {:#}", r["functions"]));
        assert_eq!(f["renamed_from"], "__main__:compute_total", "{label}: {f:#}");
        assert!(f["regressions"].as_u64().unwrap() >= 1, "{label}: {f:#}");
        assert!(!names(&r, "removed_functions").contains(&"__main__:compute_total".to_string()), "{label}");
        assert!(!names(&r, "added_functions").contains(&"__main__:order_total".to_string()), "{label}");
        assert_eq!(code, 1, "{label}: the renamed function's regression must fail the gate: {:#}", r["gate"]);
        assert!(
            r["gate"]["hot"].as_array().unwrap().iter().any(|g| g["function"] == "__main__:order_total"),
            "{label}: {:#}",
            r["gate"]
        );
        // Functions that kept their names say nothing of renames.
        for f in r["functions"].as_array().unwrap().iter().filter(|f| f["qualname"] != "order_total") {
            assert!(f.get("renamed_from").is_none(), "{label}: {f:#}");
        }

        // A method of a renamed class, with the comprehension inside it (a code object of its
        // own before 3.12): paired, so neither side lists it.
        let (r, code) = report(py, &d, "moved_method");
        let (removed, added) = (names(&r, "removed_functions"), names(&r, "added_functions"));
        for gone in removed.iter().chain(&added) {
            assert!(!gone.contains(".total"), "{label}: {gone} left unpaired: {removed:?} / {added:?}");
        }
        assert_eq!(code, 0, "{label}");

        // A function moved from the script into a module of its own beside it.
        let (r, _) = report(py, &d, "split_module");
        let (removed, added) = (names(&r, "removed_functions"), names(&r, "added_functions"));
        assert!(!removed.iter().any(|n| n.ends_with(":parse_record")), "{label}: {removed:?}");
        assert!(!added.iter().any(|n| n.ends_with(":parse_record")), "{label}: {added:?}");

        // Near-misses stay apart.
        let (r, _) = report(py, &d, "near_miss");
        assert!(names(&r, "removed_functions").contains(&"__main__:area_sum".to_string()), "{label}: {r:#}");
        assert!(names(&r, "added_functions").contains(&"__main__:perimeter_sum".to_string()), "{label}: {r:#}");
        let (r, _) = report(py, &d, "small_getters");
        assert!(names(&r, "removed_functions").contains(&"__main__:P.x".to_string()), "{label}: {r:#}");
        assert!(names(&r, "added_functions").contains(&"__main__:P.y".to_string()), "{label}: {r:#}");
        ran("renames", label);
    }
}

#[test]
fn text_and_markdown_say_renamed_from() {
    let py = &interpreters()[0];
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = (dump(py, dir.path(), "rename_regressed", "base"), dump(py, dir.path(), "rename_regressed", "head"));
    for (format, want) in [
        ("text", "__main__:order_total  head.py:15 · renamed from __main__:compute_total"),
        ("markdown", "`__main__:order_total` (renamed from `__main__:compute_total`)"),
    ] {
        let o = specdiff()
            .args(["diff", "--format", format, "--color", "never"])
            .arg(&base)
            .arg(&head)
            .current_dir(corpus())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(want), "{format}: no {want:?} in\n{out}");
    }
}
