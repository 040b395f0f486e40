//! The explanation corpus (issue 16): before/after program pairs in
//! `tests/programs/explain/CASE/{base.py,head.py,case.json}`, each dumped once per interpreter
//! present and diffed. Every regressed (or changed) site of the case's function is graded
//! against the causes its `case.json` accepts; pairs whose change did nothing must report no
//! regression. The results are written to `docs/explain-corpus.md` and the quality bars of
//! the issue are asserted: no wrong explanation, no false alarm, every renamed hot function
//! paired, no regression missed, and at least 90 % of graded sites explained by a specific
//! cause.
//!
//! `case.json`: `what` (one sentence), `function` (head qualname in `__main__`), `grade`
//! (`regressed`: lost, missing and backed-off sites; `changed`: changed sites; `churning`:
//! sites seen flipping; several joined by `|`; `none`: a pair
//! whose change did nothing, a false alarm when the gate fails or a regression is reported
//! outside the import-time code the gate leaves out), `causes` (the `cause` values that are right), optional
//! `explains` (a phrase a right cause's sentence must hold, else it is counted wrong), optional
//! `renamed_from` (base qualname), and `versions` (`{"3.11": {...}}`: fields that differ on
//! one interpreter; `{"grade": "skip"}` where the case does not apply).
//!
//! `SPECDIFF_CORPUS=case,case` runs only those cases (and leaves the docs alone).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{dump_in, interpreters, on_two_threads, regressions_outside_import_time, repo_root, specdiff, Interpreter};
use serde_json::Value;

/// Causes that are true whenever they fire but name no evidence in the program: they count as
/// unspecific, never as wrong, unless a case accepts them.
const GENERIC: [&str; 4] = ["inputs_changed", "guard_misses", "churning", "interpreter_changed"];

fn corpus() -> PathBuf {
    repo_root().join("crates/cli/tests/programs/explain")
}

struct Case {
    name: String,
    spec: Value,
}

impl Case {
    /// `field` for interpreter `minor`: its override, else the case's.
    fn get(&self, minor: &str, field: &str) -> Value {
        let over = &self.spec["versions"][minor][field];
        if !over.is_null() {
            return over.clone();
        }
        self.spec[field].clone()
    }
}

fn cases() -> Vec<Case> {
    let only: Option<Vec<String>> =
        std::env::var("SPECDIFF_CORPUS").ok().map(|s| s.split(',').map(str::to_string).collect());
    let mut out = Vec::new();
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if !dir.join("case.json").exists() || only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let text = std::fs::read_to_string(dir.join("case.json")).unwrap();
        let spec: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
        out.push(Case { name, spec });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A count taken from one grade, for the totals table.
type Pick = dyn Fn(&Grade) -> usize;

/// The grade of one case on one interpreter.
#[derive(Default, Clone)]
struct Grade {
    skipped: bool,
    control: bool,
    sites: usize,
    correct: usize,
    unspecific: Vec<String>,
    wrong: Vec<String>,
    missed: bool,
    renamed: Option<bool>,
    false_alarm: Option<String>,
    /// `(family, cause)` of each rightly explained site.
    covered: Vec<(String, String)>,
}

impl Grade {
    fn cell(&self) -> String {
        if self.skipped {
            return "n/a".into();
        }
        if self.control {
            return match &self.false_alarm {
                None => "✓ quiet".into(),
                Some(why) => format!("✗ false alarm: {why}"),
            };
        }
        if self.missed {
            return "✗ missed".into();
        }
        let mut cell = format!("{}/{}", self.correct, self.sites);
        cell = if self.correct == self.sites { format!("✓ {cell}") } else { format!("~ {cell}") };
        if !self.unspecific.is_empty() {
            cell.push_str(&format!(" (unspecific: {})", self.unspecific.join(", ")));
        }
        if !self.wrong.is_empty() {
            cell.push_str(&format!(" ✗ wrong: {}", self.wrong.join(", ")));
        }
        if self.renamed == Some(false) {
            cell.push_str(" ✗ rename not paired");
        }
        cell
    }
}

fn dump(py: &Interpreter, dir: &Path, case: &str, side: &str) -> Result<PathBuf, String> {
    let out = dir.join(format!("{case}-{side}.json"));
    let o = dump_in(py, &corpus().join(case), &out, &[format!("{side}.py")]);
    if !o.status.success() {
        return Err(format!("{case}/{side}.py under {}: {}", py.label, String::from_utf8_lossy(&o.stderr)));
    }
    Ok(out)
}

fn diff(base: &Path, head: &Path, extra: &[&str]) -> (Value, i32) {
    let o = specdiff().args(["diff", "--json", "--fail-on-regression"]).args(extra).arg(base).arg(head).output().unwrap();
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&o.stderr));
    (serde_json::from_slice(&o.stdout).unwrap(), code)
}

fn grade(case: &Case, py: &Interpreter, dir: &Path) -> Result<Grade, String> {
    let mode = case.get(py.minor, "grade");
    let mode = mode.as_str().unwrap_or_else(|| panic!("{}: grade", case.name));
    if mode == "skip" {
        return Ok(Grade { skipped: true, ..Grade::default() });
    }
    let (base, head) = (dump(py, dir, &case.name, "base")?, dump(py, dir, &case.name, "head")?);
    let mut g = Grade::default();
    if mode == "none" {
        g.control = true;
        let (r, code) = diff(&base, &head, &[]);
        // As the noise floor counts them: regressions in the import-time code the gate leaves
        // out (`importlib._bootstrap`'s weakref callbacks run when the garbage collector does,
        // so a run of `ctl_comments` on 3.12 once showed three) are not the program's.
        let regressed = regressions_outside_import_time(&r);
        if !regressed.is_empty() || code != 0 {
            g.false_alarm = Some(format!("{} ({})", regressed.join(", "), if code == 0 { "gate passed" } else { "gate failed" }));
        }
        return Ok(g);
    }
    let (r, _) = diff(&base, &head, &["--min-hotness", "0"]);
    let function = case.get(py.minor, "function");
    let function = function.as_str().unwrap();
    let f = r["functions"].as_array().unwrap().iter().find(|f| f["module"] == "__main__" && f["qualname"] == function);
    let renamed_from = case.get(py.minor, "renamed_from");
    if let Some(old) = renamed_from.as_str() {
        g.renamed = Some(f.is_some_and(|f| f["renamed_from"] == format!("__main__:{old}")));
    }
    // `changed|churning`: the sampler decides between them (a site that flips between two
    // forms is `churning` when it was seen doing so, else `changed`).
    let kinds: Vec<&str> = mode
        .split('|')
        .flat_map(|m| match m {
            "changed" => &["changed"][..],
            "churning" => &["churning"][..],
            _ => &["lost", "missing", "backed_off"][..],
        })
        .copied()
        .collect();
    let causes = case.get(py.minor, "causes");
    let accepted: Vec<&str> = causes.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let changes = f.map(|f| f["changes"].as_array().unwrap().clone()).unwrap_or_default();
    for c in changes.iter().filter(|c| kinds.contains(&c["kind"].as_str().unwrap())) {
        g.sites += 1;
        let line = c["head_line"].as_u64().or(c["base_line"].as_u64()).unwrap_or(0);
        let label = format!("{} {} line {line}", c["kind"].as_str().unwrap(), c["cause"].as_str().unwrap_or("none"));
        // `explains`: a phrase the right cause's sentence must hold (the cause id alone does
        // not show that the sentence is true: attrs' 16 keywords were once "unpacks with *").
        let explains = case.get(py.minor, "explains");
        let says = c["explanation"].as_str().unwrap_or("");
        match c["cause"].as_str() {
            Some(cause) if accepted.contains(&cause) && explains.as_str().is_some_and(|p| !says.contains(p)) => {
                g.wrong.push(format!("{label}: {says} (should say {explains})"));
            }
            Some(cause) if accepted.contains(&cause) => {
                g.correct += 1;
                g.covered.push((c["family"].as_str().unwrap_or("").to_string(), cause.to_string()));
            }
            Some(cause) if !GENERIC.contains(&cause) => g.wrong.push(format!("{label}: {}", c["explanation"].as_str().unwrap_or(""))),
            _ => g.unspecific.push(label),
        }
    }
    g.missed = g.sites == 0;
    Ok(g)
}

#[test]
fn the_corpus_is_explained_right_or_not_at_all() {
    let cases = cases();
    let pys = interpreters();
    assert!(!cases.is_empty(), "no case in {}", corpus().display());
    let tmp = tempfile::tempdir().unwrap();
    let jobs: Vec<(usize, usize)> = (0..cases.len()).flat_map(|c| (0..pys.len()).map(move |p| (c, p))).collect();
    let results = on_two_threads(&jobs, |&(c, p)| {
        let dir = tmp.path().join(pys[p].key);
        std::fs::create_dir_all(&dir).unwrap();
        grade(&cases[c], &pys[p], &dir)
    });
    let grades: BTreeMap<(usize, usize), Grade> = jobs
        .into_iter()
        .zip(results)
        .map(|(k, g)| (k, g.unwrap_or_else(|e| panic!("{e}"))))
        .collect();

    // Totals per interpreter and overall.
    let mut table = String::new();
    let header: Vec<&str> = pys.iter().map(|p| p.key).collect();
    let total = |pick: &Pick, p: Option<usize>| -> usize {
        grades.iter().filter(|((_, q), _)| p.is_none_or(|p| p == *q)).map(|(_, g)| pick(g)).sum()
    };
    let rows: [(&str, &Pick); 8] = [
        ("graded sites", &|g| g.sites),
        ("explained by a right, specific cause", &|g| g.correct),
        ("unspecific (a generic true cause, or none)", &|g| g.unspecific.len()),
        ("**wrong explanations**", &|g| g.wrong.len()),
        ("cases whose regression was not reported", &|g| usize::from(g.missed)),
        ("renamed hot functions paired", &|g| usize::from(g.renamed == Some(true))),
        ("renamed hot functions (cases)", &|g| usize::from(g.renamed.is_some())),
        ("**false alarms** on pairs whose change did nothing", &|g| usize::from(g.false_alarm.is_some())),
    ];
    table.push_str(&format!("| | {} | all |\n|---|{}---:|\n", header.join(" | "), "---:|".repeat(pys.len())));
    for (label, pick) in rows {
        let per: Vec<String> = (0..pys.len()).map(|p| total(pick, Some(p)).to_string()).collect();
        table.push_str(&format!("| {label} | {} | {} |\n", per.join(" | "), total(pick, None)));
    }
    let controls = cases.iter().filter(|c| c.spec["grade"] == "none").count();
    let (sites, correct) = (total(&|g| g.sites, None), total(&|g| g.correct, None));
    let share = if sites == 0 { 0.0 } else { correct as f64 / sites as f64 };

    let mut cases_table = format!("| case | what | right causes | {} |\n|---|---|---|{}\n", header.join(" | "), "---|".repeat(pys.len()));
    for (ci, case) in cases.iter().enumerate() {
        let cells: Vec<String> = (0..pys.len()).map(|p| grades[&(ci, p)].cell().replace('|', "\\|")).collect();
        let causes = case.spec["causes"].as_array().map(|a| a.iter().filter_map(Value::as_str).map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")).unwrap_or_default();
        let what = case.spec["what"].as_str().unwrap_or("").replace('|', "\\|");
        let causes = if case.spec["grade"] == "none" { "— (nothing changed)".to_string() } else { causes };
        cases_table.push_str(&format!("| `{}` | {what} | {causes} | {} |\n", case.name, cells.join(" | ")));
    }
    // Coverage: family × cause × interpreter, each cell naming the pairs that show it.
    let mut coverage: BTreeMap<(String, String), Vec<Vec<String>>> = BTreeMap::new();
    for ((c, p), g) in &grades {
        for key in &g.covered {
            let cells = coverage.entry(key.clone()).or_insert_with(|| vec![Vec::new(); pys.len()]);
            if !cells[*p].contains(&cases[*c].name) {
                cells[*p].push(cases[*c].name.clone());
            }
        }
    }
    let mut coverage_table = format!("| family | cause | {} |\n|---|---|{}\n", header.join(" | "), "---|".repeat(pys.len()));
    for ((family, cause), cells) in &coverage {
        let cells: Vec<String> =
            cells.iter().map(|names| if names.is_empty() { "–".into() } else { names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ") }).collect();
        coverage_table.push_str(&format!("| `{family}` | `{cause}` | {} |\n", cells.join(" | ")));
    }
    let labels: Vec<&str> = pys.iter().map(|p| p.label.as_str()).collect();
    let doc = format!(
        "# Explanation corpus\n\n\
         Generated by `cargo test -p specdiff-cli --test explain_corpus` (do not edit): {} program\n\
         pairs in `crates/cli/tests/programs/explain` ({controls} of them are pairs whose change did\n\
         nothing), each dumped once per interpreter and diffed. Interpreters: {}.\n\
         A site is graded *right* when its `cause` is one the case accepts, *unspecific* when it is\n\
         none or one of the causes that are true whenever they fire but name nothing in the\n\
         program ({}), and *wrong* otherwise. `docs/engine.md` (\"Explanations\") describes the rules.\n\
         Every pair is also a silence test for every other rule: a rule that fires on a pair whose\n\
         causes do not include it counts as wrong. The pairs were written alongside the rules, so\n\
         the share below is what the rules do on the causes they were built for, not a measurement\n\
         on programs nobody here has seen.\n\n\
         **{correct} of {sites} graded sites ({:.1} %) explained by a right, specific cause.**\n\n{table}\n## Cases\n\n{cases_table}\n\
         ## Coverage\n\nFamily × cause × interpreter: the pairs in which a site of that family got that (right)\n\
         cause.\n\n{coverage_table}",
        cases.len(),
        labels.join(", "),
        GENERIC.map(|g| format!("`{g}`")).join(", "),
        share * 100.0
    );
    let partial = std::env::var("SPECDIFF_CORPUS").is_ok();
    if !partial {
        std::fs::write(repo_root().join("docs/explain-corpus.md"), &doc).unwrap();
    }
    println!("{doc}");

    let problems: Vec<String> = grades
        .iter()
        .filter(|(_, g)| !g.wrong.is_empty() || g.false_alarm.is_some() || g.missed || g.renamed == Some(false))
        .map(|((c, p), g)| format!("{} on {}: {}", cases[*c].name, pys[*p].label, g.cell()))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if !partial {
        assert!(cases.len() >= 40, "the corpus has {} pairs; the issue asks for at least 40", cases.len());
        assert!(share >= 0.9, "{correct} of {sites} graded sites explained ({:.1} %), below 90 %", share * 100.0);
    }
}
