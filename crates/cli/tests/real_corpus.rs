//! Real library upgrades (issue 29): the twelve pure-Python PyPI upgrades of `tests/real`
//! (wheels pinned by version and SHA256 in `manifest.json`, fetched by the setup), each with a
//! realistic workload, dumped on CPython 3.12, 3.13, 3.14 and 3.15 and diffed base → head.
//!
//! - Every diff is run twice, in separate processes, and must be byte-identical.
//! - Every regression reported in a library's own code that was graded by hand
//!   (`tests/real/graded.json`, each against both versions' sources and a `dis` repro in
//!   `tests/real/repro/`) must keep its verdict, as a ratchet on what the grading found: a real
//!   `lost` one must still be reported (other kinds rest on counter phases and the sampler,
//!   which vary between runs), one graded "not real" must not newly gate, and no cause may
//!   turn wrong. What was already wrong, or gated although not real, when it was graded is
//!   counted in the doc (the work issue 29 leaves), and fails the test no more.
//! - Every library function the gate names must have a regression graded real: gate precision
//!   is 100 % or the test fails, naming the function to grade.
//! - At least 80 % of the real regressions reported have a right cause (all versions together).
//! - The results, per version, go to `docs/real-corpus.md`: right / imprecise / wrong /
//!   silent over the graded sites, the real ones' share with a right cause, and the gate's
//!   precision.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{interpreters, on_two_threads, repo_root, specdiff, Interpreter};
use serde_json::Value;

/// Causes that name nothing in the program: imprecise, never wrong.
const GENERIC: [&str; 4] = ["inputs_changed", "guard_misses", "churning", "interpreter_changed"];

fn real() -> PathBuf {
    repo_root().join("tests/real")
}

/// The import package of each library (its own code; the rest is stdlib and dependencies).
fn package(library: &str) -> &str {
    match library {
        "python-dateutil" => "dateutil",
        "markdown-it-py" => "markdown_it",
        "beautifulsoup4" => "bs4",
        other => other,
    }
}

fn diff_json(base: &Path, head: &Path) -> (Vec<u8>, i32) {
    let o = specdiff().args(["diff", "--json", "--fail-on-regression"]).arg(base).arg(head).output().unwrap();
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}: {}", base.display(), String::from_utf8_lossy(&o.stderr));
    (o.stdout, code)
}

/// One graded site of `graded.json`.
struct Grade {
    library: String,
    python: String,
    function: String,
    kind: String,
    head_line: u64,
    real: bool,
    accept: Vec<String>,
    /// The grade of specdiff's cause when graded: `right`, `imprecise`, `wrong`, `silent`.
    was: String,
    /// specdiff's cause when graded.
    cause_then: Option<String>,
    /// Its function was in the gate's list when graded.
    gated_then: bool,
}

fn grades() -> Vec<Grade> {
    let path = real().join("graded.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Vec::new() };
    let all: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    all.iter()
        .map(|g| Grade {
            library: g["library"].as_str().unwrap().into(),
            python: g["python"].as_str().unwrap().into(),
            function: g["function"].as_str().unwrap().into(),
            kind: g["kind"].as_str().unwrap().into(),
            head_line: g["head_line"].as_u64().unwrap_or(0),
            real: g["verdict"] == "real",
            accept: g["accept_causes"].as_array().map(|a| a.iter().filter_map(|c| c.as_str().map(str::to_string)).collect()).unwrap_or_default(),
            was: g["grade"].as_str().unwrap_or("").into(),
            cause_then: g["specdiff_cause"].as_str().map(str::to_string),
            gated_then: g["gated_when_graded"].as_bool().unwrap_or(false),
        })
        .collect()
}

#[test]
fn real_upgrades_are_deterministic_and_keep_their_graded_verdicts() {
    const TEST: &str = "real_upgrades_are_deterministic_and_keep_their_graded_verdicts";
    let wheels = repo_root().join(".tools/real/wheels");
    if !wheels.is_dir() {
        let need = specdiff_test_support::Need::required("real-corpus", "scripts/setup.sh (tests/real/corpus.py fetch)");
        return specdiff_test_support::skip_or_fail(TEST, &need, "no .tools/real/wheels");
    }
    let pythons: Vec<_> = interpreters().iter().filter(|i| !i.pyodide && i.version() >= (3, 12)).collect();
    let out = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(real().join("corpus.py")).arg("dump");
    for py in &pythons {
        cmd.arg("--python").arg(format!("{}={}", py.minor, py.python.display()));
    }
    cmd.arg("--specdiff").arg(env!("CARGO_BIN_EXE_specdiff"));
    cmd.arg("--out").arg(out.path()).arg("--site").arg(repo_root().join(".tools/real/site")).args(["--jobs", "2"]);
    let o = cmd.env("WHEELS", &wheels).output().unwrap();
    assert!(o.status.success(), "corpus.py dump:\n{}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));

    let manifest: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(real().join("manifest.json")).unwrap()).unwrap();
    let grades = grades();
    let mut failures = Vec::new();
    let mut table: BTreeMap<String, Row> = BTreeMap::new();
    let cells: Vec<(&Value, &Interpreter)> = manifest.iter().flat_map(|lib| pythons.iter().map(move |py| (lib, *py))).collect();
    // Each diff twice, in separate processes, for the determinism check.
    let diffs = on_two_threads(&cells, |(lib, py)| {
        let dump = |side: &str| {
            out.path().join(format!("{}-{}-py{}.json.gz", lib["name"].as_str().unwrap(), lib[side]["version"].as_str().unwrap(), py.minor))
        };
        let (base, head) = (dump("base"), dump("head"));
        (diff_json(&base, &head), diff_json(&base, &head))
    });
    for ((lib, py), ((first, code), (again, code_again))) in cells.iter().zip(diffs) {
        let name = lib["name"].as_str().unwrap();
        if first != again || code != code_again {
            failures.push(format!("{name} on {}: two runs of the same diff differ", py.label));
        }
        let report: Value = serde_json::from_slice(&first).unwrap();
        let row = table.entry(py.minor.to_string()).or_default();
        let gated: Vec<&str> =
            report["gate"]["hot"].as_array().unwrap().iter().filter_map(|g| g["function"].as_str()).collect();
        let own = |f: &str| f.split(':').next().is_some_and(|m| m == package(name) || m.starts_with(&format!("{}.", package(name))));
        row.gated += gated.iter().filter(|f| own(f)).count();
        for g in grades.iter().filter(|g| g.library == name && g.python == py.minor) {
            let (module, qualname) = g.function.split_once(':').unwrap();
            let found = report["functions"].as_array().unwrap().iter().find(|f| f["module"] == module && f["qualname"] == qualname);
            let change = found.and_then(|f| {
                f["changes"].as_array().unwrap().iter().find(|c| c["kind"] == g.kind.as_str() && c["head_line"].as_u64() == Some(g.head_line))
            });
            let gates = gated.contains(&g.function.as_str()) && change.is_some();
            match (g.real, change) {
                // A lost specialization is in the snapshot's opcodes; `backed_off` and
                // `missing` also rest on counter phases and the sampler, which vary between
                // runs (sqlglot's 3.13 `_scan_var` is backed off in one run of base and not
                // in the next): only a lost one must always be found again.
                (true, None) if g.kind == "lost" => {
                    failures.push(format!("{name} on {}: the real regression {} {} line {} is no longer reported", py.label, g.function, g.kind, g.head_line))
                }
                (false, Some(_)) if gates => {
                    row.false_alarms += 1;
                    if !g.gated_then {
                        failures.push(format!("{name} on {}: {} line {}, graded not real, now gates", py.label, g.function, g.head_line));
                    }
                }
                _ => {}
            }
            if let Some(c) = change {
                let cause = c["cause"].as_str();
                // The cause it was graded with keeps its grade; another is judged by the
                // causes the grading accepts.
                let graded = ["right", "imprecise", "wrong", "silent"].iter().position(|w| *w == g.was);
                let k = match cause {
                    c if c == g.cause_then.as_deref() && graded.is_some() => graded.unwrap(),
                    None => 3,
                    Some(c) if g.accept.iter().any(|a| a == c) => 0,
                    Some(c) if GENERIC.contains(&c) => 1,
                    Some(_) => 2,
                };
                row.grades[k] += 1;
                if g.real {
                    row.real[0] += usize::from(k == 0);
                    row.real[1] += 1;
                }
                if k == 2 && g.was != "wrong" {
                    failures.push(format!("{name} on {}: {} line {}: cause {cause:?}, right would be {:?}", py.label, g.function, g.head_line, g.accept));
                }
            }
        }
        // Every library function the gate names must have a regression graded real (issue 29:
        // "every function the gate names really regressed"); one it names without is either a
        // false alarm or a report nobody has graded yet, and both need a look.
        for f in gated.iter().filter(|f| own(f)) {
            if grades.iter().any(|g| g.library == name && g.python == py.minor && g.real && g.function == **f) {
                row.gated_real += 1;
            } else {
                failures.push(format!("{name} on {}: the gate names {f}, which has no regression graded real", py.label));
            }
        }
    }
    // Issue 29: at least 80 % of the real regressions reported with a right, specific cause,
    // over the four versions (each version's share moves by a site or two between runs: 3.14's
    // was 22, 22 and 21 of 25 in three runs; the doc shows each).
    let (right, real) = table.values().fold((0, 0), |(a, b), r| (a + r.real[0], b + r.real[1]));
    if right * 5 < real * 4 {
        failures.push(format!("{right} of {real} real regressions have a right cause, under 80 %"));
    }
    write_doc(&table, grades.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One version's figures in `docs/real-corpus.md`.
#[derive(Default)]
struct Row {
    /// Graded sites reported now: right, imprecise, wrong, silent.
    grades: [usize; 4],
    /// Of them, the ones graded real: with a right cause, and all.
    real: [usize; 2],
    /// Library functions the gate names.
    gated: usize,
    /// Of them, those with a regression graded real.
    gated_real: usize,
    /// Sites graded not real in functions the gate names.
    false_alarms: usize,
}

fn write_doc(table: &BTreeMap<String, Row>, graded: usize) {
    let mut doc = String::from(
        "# Real library upgrades\n\nGenerated by `crates/cli/tests/real_corpus.rs` (do not edit): the twelve upgrades of\n`tests/real` (see its README.md), dumped and diffed on each CPython. Graded sites are the\nregressions in each library's own code checked by hand (`tests/real/graded.json`, with `dis`\nrepros in `tests/real/repro/`): *right* when specdiff's cause is one the grading accepts,\n*imprecise* when it is a generic cause (true, naming nothing in the program), *wrong* otherwise,\n*silent* with no cause. *Real regressions with a right cause*: of the graded sites reported now that\nreally regressed, those whose cause is right (issue 29 asks for 80 %). Gate precision: of the\nlibrary functions the gate names, those with a regression graded real.\n\n",
    );
    doc.push_str(&format!("{graded} graded sites in all.\n\n"));
    doc.push_str("| CPython | right | imprecise | wrong | silent | real regressions with a right cause | library functions gated | of them with a real regression | not-real sites in gated functions |\n|---|---|---|---|---|---|---|---|---|\n");
    for (v, r) in table {
        let [right, real] = r.real;
        let share = (right * 100).checked_div(real).map_or("—".to_string(), |p| format!("{right} of {real} ({p} %)"));
        doc.push_str(&format!(
            "| {v} | {} | {} | {} | {} | {share} | {} | {} | {} |\n",
            r.grades[0], r.grades[1], r.grades[2], r.grades[3], r.gated, r.gated_real, r.false_alarms
        ));
    }
    doc.push_str("\nEvery regression specdiff reported in the twelve libraries' own code was graded on each of the four versions (a site may be graded twice when two sites share a line); sites reported since the grading are not in the table.\n");
    std::fs::write(repo_root().join("docs/real-corpus.md"), doc).unwrap();
}
