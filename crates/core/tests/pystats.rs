//! The pystats reader and summary against real CPython 3.11.2 files and against CPython's own
//! `Tools/scripts/summarize_stats.py` (3.11): the acceptance bar is that every number in that
//! script's specialization-stats and execution-count tables equals ours.
//!
//! The raw files live in `shared/data/pystats-3.11/` beside the repository (CI has them there);
//! a missing file fails the tests, it does not skip them. The script's output for those files
//! is in `tests/fixtures/pystats/` (see the README there for how it was produced).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use specdiff_core::format::{parse_pystats, read_pystats, read_stats_file, PystatsOptions, StatsFile};
use specdiff_core::cpython::{known_versions, table_generated_with};
use specdiff_core::model::{parse_minor_version, Stats};
use specdiff_core::report::{diff_stats, percent, summarize, Delta};
use specdiff_core::{InputErrorKind, ReadLimits};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared_dir() -> PathBuf {
    repo_root().join("../shared/data/pystats-3.11")
}

/// The single `*.txt` file of `shared/data/pystats-3.11/<which>/`, as (name, bytes).
fn shared_file(which: &str) -> (String, Vec<u8>) {
    let dir = shared_dir().join(which);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!("the shared pystats files are missing: cannot read {}: {e} (they belong in shared/data/pystats-3.11 beside the repository)", dir.display())
    });
    let mut txt: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    txt.sort();
    assert_eq!(txt.len(), 1, "expected exactly one .txt file in {}", dir.display());
    let bytes = std::fs::read(&txt[0]).unwrap();
    (txt[0].display().to_string(), bytes)
}

fn load(which: &str) -> Stats {
    let (name, bytes) = shared_file(which);
    parse_pystats(&name, &bytes, &PystatsOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------------------------
// The fixture: summarize_stats.py's markdown, parsed back into tables

#[derive(Debug, Default)]
struct FixtureFamily {
    /// `(label, count, ratio)` of the "Kind" table (labels trimmed).
    kinds: Vec<(String, u64, String)>,
    /// Success / Failure rows.
    attempts: Vec<(String, u64, String)>,
    /// Failure-kind rows, in the script's order.
    failures: Vec<(String, u64, String)>,
}

#[derive(Debug, Default)]
struct Fixture {
    /// `(name, count, self, cumulative, miss ratio)`, in the script's order.
    executions: Vec<(String, u64, String, String, String)>,
    /// Top pairs: `(first, second, count)`.
    pairs: Vec<(String, String, u64)>,
    families: BTreeMap<String, FixtureFamily>,
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

fn num(cell: &str) -> u64 {
    cell.parse().unwrap_or_else(|_| panic!("fixture cell {cell:?} is not a count"))
}

fn parse_fixture(name: &str) -> Fixture {
    let path = repo_root().join("crates/core/tests/fixtures/pystats").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut fx = Fixture::default();
    let (mut section, mut family, mut table) = (String::new(), String::new(), String::new());
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().copied().enumerate() {
        let is_header = lines.get(i + 1).is_some_and(|next| next.starts_with("|---"));
        if let Some(t) = line.strip_prefix("## ") {
            section = t.to_string();
            family.clear();
        } else if let Some(t) = line.strip_prefix("### ") {
            family = t.to_string();
        } else if line.starts_with("|---") {
            continue;
        } else if is_header {
            // `|Name | Count | …`; the attempts table's header has an empty first cell.
            table = cells(line)[0].clone();
        } else if line.starts_with("| ") {
            let c = cells(line);
            match (section.as_str(), table.as_str()) {
                ("Execution counts", "Name") => {
                    fx.executions.push((c[0].clone(), num(&c[1]), c[2].clone(), c[3].clone(), c[4].clone()))
                }
                ("Pair counts", "Pair") => {
                    let (a, b) = c[0].split_once(' ').unwrap();
                    fx.pairs.push((a.to_string(), b.to_string(), num(&c[1])));
                }
                ("Specialization stats", t) => {
                    let row = (c[0].clone(), num(&c[1]), c[2].clone());
                    let f = fx.families.entry(family.clone()).or_default();
                    match t {
                        "Kind" => f.kinds.push(row),
                        "" => f.attempts.push(row),
                        "Failure kind" => f.failures.push(row),
                        other => panic!("unexpected table {other:?} in family {family}"),
                    }
                }
                _ => {}
            }
        }
    }
    assert!(!fx.executions.is_empty() && !fx.families.is_empty(), "{name}: nothing parsed");
    fx
}

/// Asserts that every number of the fixture equals ours; returns how many numbers it checked.
fn assert_equivalent(which: &str) -> usize {
    let stats = load(which);
    let summary = summarize(&stats);
    let fx = parse_fixture(&format!("summarize_stats_{which}.md"));
    let mut checked = 0;

    // Execution counts: same rows, same order, same count, self, cumulative and miss ratio.
    let total = summary.total_executions;
    let mut cumulative = 0;
    assert_eq!(summary.executions.len(), fx.executions.len(), "{which}: number of executed opnames");
    for (ours, theirs) in summary.executions.iter().zip(&fx.executions) {
        cumulative += ours.count;
        let miss = if ours.miss > 0 { percent(ours.miss, ours.count) } else { String::new() };
        let row = (ours.opname.clone(), ours.count, percent(ours.count, total), percent(cumulative, total), miss);
        assert_eq!(&row, theirs, "{which}: execution counts row");
        checked += 4;
    }

    // Specialization stats: the same families (specializable, with activity), every row equal.
    let ours: Vec<&str> = summary
        .families
        .iter()
        .filter(|f| f.specializable && f.total() > 0)
        .map(|f| f.family.as_str())
        .collect();
    let mut ours_sorted = ours.clone();
    ours_sorted.sort();
    assert_eq!(ours_sorted, fx.families.keys().map(String::as_str).collect::<Vec<_>>(), "{which}: families");
    for (name, theirs) in &fx.families {
        let f = summary.family(name).unwrap();
        let total = f.total();
        let fields = [
            ("unquickened", f.unquickened),
            ("specialization.deferred", f.deferred),
            ("specialization.deopt", f.deopt),
            ("hit", f.hit),
            ("miss", f.miss),
        ];
        // The script shows a row for every counter present in the file, i.e. every non-zero one.
        let expected: Vec<(String, u64, String)> = fields
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(label, v)| (label.to_string(), *v, percent(*v, total)))
            .collect();
        let mut got = theirs.kinds.clone();
        got.sort_by_key(|r| fields.iter().position(|(l, _)| *l == r.0).unwrap_or(usize::MAX));
        assert_eq!(got, expected, "{which}: {name} kind table");
        checked += 2 * expected.len();

        let attempts = f.attempts();
        let expected = vec![
            ("Success".to_string(), f.success, percent(f.success, attempts)),
            ("Failure".to_string(), f.failure, percent(f.failure, attempts)),
        ];
        assert_eq!(theirs.attempts, expected, "{which}: {name} attempts");
        checked += 4;

        let expected: Vec<(String, u64, String)> = f
            .failure_kinds
            .iter()
            .map(|k| (k.name.label.clone(), k.count, percent(k.count, f.failure)))
            .collect();
        assert_eq!(theirs.failures, expected, "{which}: {name} failure kinds");
        checked += 3 * expected.len();
    }

    // Top-100 pair counts.
    assert_eq!(fx.pairs.len(), 100, "{which}: pair rows");
    for (a, b, count) in &fx.pairs {
        assert_eq!(stats.opcodes[a].pairs.get(b), Some(count), "{which}: pair {a} {b}");
        checked += 1;
    }
    checked
}

#[test]
fn base_numbers_equal_summarize_stats() {
    let n = assert_equivalent("base");
    assert!(n > 300, "only {n} numbers checked");
    writeln!(std::io::stderr(), "base: {n} numbers equal summarize_stats.py's").unwrap();
}

#[test]
fn head_numbers_equal_summarize_stats() {
    let n = assert_equivalent("head");
    assert!(n > 300, "only {n} numbers checked");
    writeln!(std::io::stderr(), "head: {n} numbers equal summarize_stats.py's").unwrap();
}

#[test]
fn spot_check_against_the_fixture_by_hand() {
    // A few numbers read off summarize_stats_base.md, so a bug in the fixture parser above
    // cannot make the equivalence tests vacuous.
    let s = summarize(&load("base"));
    let f = s.family("BINARY_SUBSCR").unwrap();
    assert_eq!((f.unquickened, f.deferred, f.deopt, f.hit, f.miss), (1393, 1078, 24, 107, 1272));
    assert_eq!((f.success, f.failure), (34, 17));
    let kinds: Vec<(&str, u64)> = f.failure_kinds.iter().map(|k| (k.name.label.as_str(), k.count)).collect();
    assert_eq!(kinds, vec![("string int", 8), ("other", 5), ("string slice", 4)]);
    assert_eq!(f.failure_kinds[0].name.constant.as_deref(), Some("SPEC_FAIL_SUBSCR_STRING_INT"));
    let f = s.family("FOR_ITER").unwrap();
    assert_eq!((f.unquickened, f.failure), (38657, 38657));
    assert_eq!(f.failure_kinds[0].name.label, "range");
    assert_eq!(s.executions[0].opname, "LOAD_FAST");
    assert_eq!(s.executions[0].count, 48602);
    assert_eq!(s.executions_of("CALL_PY_EXACT_ARGS"), 13861);
    assert_eq!(percent(s.family("CALL").unwrap().miss, s.family("CALL").unwrap().total()), "13.8%");
}

#[test]
fn other_counters_are_read() {
    let s = load("base");
    assert_eq!(s.files, 1);
    assert_eq!(s.python.as_deref(), Some("3.11"));
    assert_eq!(s.calls["Calls to PyEval_EvalDefault"], 13246);
    assert_eq!(s.calls["Frame objects created"], 79);
    assert_eq!(s.objects["Object allocations"], 55711);
    assert_eq!(s.objects["Object materialize dict (str subclass)"], 0);
    assert!(s.opcodes["FOR_ITER"].specializable);
    assert_eq!(s.opcodes["CACHE"].pairs["POP_TOP"], 2020);
    assert_eq!(s.opcodes["LOAD_ATTR"].failure_kinds[&13], 12);
    assert!(s.other.is_empty() && s.gc.is_empty() && s.uops.is_empty(), "{:?}", s.other);
}

#[test]
fn diff_shows_the_real_effects_of_the_head_changes() {
    let d = diff_stats(&load("base"), &load("head"));
    // Head: class P lost __slots__, so p.x / p.y are instance-dict loads instead of slot loads.
    assert_eq!(d.executions_of("LOAD_ATTR_SLOT"), Delta { base: 3986, head: 0 });
    assert_eq!(d.executions_of("LOAD_ATTR_INSTANCE_VALUE"), Delta { base: 4640, head: 8626 });
    let la = d.family("LOAD_ATTR").unwrap();
    assert_eq!(la.hit, Delta { base: 8830, head: 8830 });
    let slot = la.members.iter().find(|m| m.opname == "LOAD_ATTR_SLOT").unwrap();
    assert_eq!(slot.execution_count, Delta { base: 3986, head: 0 });

    // Head: ints() gets floats two times in three, so the int specializations miss and deopt.
    let bo = d.family("BINARY_OP").unwrap();
    assert_eq!(bo.miss, Delta { base: 53, head: 2915 });
    assert_eq!(bo.deopt, Delta { base: 1, head: 55 });
    assert_eq!(bo.hit, Delta { base: 37554, head: 33033 });
    assert_eq!(bo.deferred, Delta { base: 2029, head: 5681 });
    assert_eq!(bo.failure, Delta { base: 13, head: 32 });
    assert_eq!(d.executions_of("BINARY_OP_ADD_INT"), Delta { base: 19419, head: 18866 });
    let add_int = d.executions.iter().find(|e| e.opname == "BINARY_OP_ADD_INT").unwrap();
    assert_eq!(add_int.miss, Delta { base: 53, head: 1007 });
    let kinds: BTreeMap<&str, Delta> =
        bo.failure_kinds.iter().map(|k| (k.name.label.as_str(), k.count)).collect();
    assert_eq!(kinds["multiply different types"], Delta { base: 10, head: 13 });
    assert_eq!(kinds["add different types"], Delta { base: 0, head: 3 });
    assert_eq!(kinds["subtract different types"], Delta { base: 0, head: 3 });
    assert_eq!(kinds["and int"], Delta { base: 3, head: 3 });
    // The failure kinds that changed most come first.
    assert_eq!(bo.failure_kinds[0].name.label, "remainder");
}

#[test]
fn several_files_are_one_run() {
    let (name, bytes) = shared_file("base");
    let once = load("base");
    let twice = read_pystats([(name.as_str(), bytes.as_slice()), ("copy.txt", bytes.as_slice())], &PystatsOptions::default()).unwrap();
    assert_eq!(twice.files, 2);
    assert_eq!(twice.opcodes["LOAD_FAST"].execution_count, 2 * once.opcodes["LOAD_FAST"].execution_count);
    assert_eq!(twice.calls["Frames pushed"], 2 * once.calls["Frames pushed"]);
    assert!(twice.opcodes["FOR_ITER"].specializable);
}

#[test]
fn json_round_trip_of_real_stats() {
    let s = load("head");
    let bytes = StatsFile::new(s.clone(), "specdiff test").to_json();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("\"format\": \"specdiff-stats\""));
    assert_eq!(read_stats_file("s.json", &bytes, ReadLimits::default()).unwrap(), s);
    // Both kinds of file go through the same entry point.
    let via_reader = read_pystats([("s.json", bytes.as_slice())], &PystatsOptions::default()).unwrap();
    assert_eq!(via_reader, s);
}

#[test]
fn shared_file_read_as_312_fails_or_differs_visibly() {
    // The caller decides the numbering; 3.12 numbers differ, so the names differ.
    let (name, bytes) = shared_file("base");
    let o = PystatsOptions { python: Some((3, 12)), ..Default::default() };
    let s = parse_pystats(&name, &bytes, &o).unwrap();
    assert_eq!(s.python.as_deref(), Some("3.12"));
    assert_ne!(s.opcodes.keys().collect::<Vec<_>>(), load("base").opcodes.keys().collect::<Vec<_>>());
}

#[test]
fn errors_are_one_line_and_name_the_file() {
    let o = PystatsOptions::default();
    let e = parse_pystats("x.txt", b"", &o).unwrap_err();
    assert_eq!(e.kind, InputErrorKind::Empty);
    let e = parse_pystats("x.txt", b"opcode[1].execution_count : 1\nnot a counter\n", &o).unwrap_err();
    assert!(matches!(e.kind, InputErrorKind::BadStatsLine { line: 2, .. }), "{e}");
    let e = parse_pystats("x.txt", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &o).unwrap_err();
    assert!(e.to_string().starts_with("x.txt: not a pystats file: line "), "{e}");
}

// ---------------------------------------------------------------------------------------------
// The generated opcode tables are what the interpreters say

/// Where the generated tables live, relative to the repository root: the one place to change
/// here when the file moves (scripts/gen_opcode_tables.py has it as `TABLES_RS`; this test
/// checks that the header the script writes names the same path).
const OPCODE_TABLES_RS: &str = "crates/core/src/cpython/opcodes/tables.rs";

/// Runs scripts/gen_opcode_tables.py under the exact interpreters the checked-in tables were
/// generated with and compares its output with the file byte for byte. Without one of them:
/// a skip, or a failure where the setup must provide them (specdiff-test-support).
#[test]
fn opcode_tables_match_the_interpreters() {
    use specdiff_test_support::{pyenv_exact, ran, skip_or_fail, Need};
    const TEST: &str = "opcode_tables_match_the_interpreters";
    let root = repo_root();
    // (the version the table names, the interpreter, the version it is now). The native
    // 3.14+ come from Debian's moving packages: a newer patch release must give the same
    // tables, so the comparison ignores the patch number there.
    let mut pythons = Vec::new();
    for minor in known_versions() {
        let version = table_generated_with(minor).unwrap();
        if minor >= (3, 14) {
            let short = format!("{}.{}", minor.0, minor.1);
            let Some((now, exe)) = specdiff_test_support::native_python(&root, &short) else {
                let why = format!("no native {short} in .tools/native-python; {OPCODE_TABLES_RS} was not re-verified");
                return skip_or_fail(TEST, &Need::native(&short), &why);
            };
            pythons.push((version, exe, now));
            continue;
        }
        let Some(exe) = pyenv_exact(version) else {
            let why = format!("`pyenv prefix {version}` has no bin/python3; {OPCODE_TABLES_RS} was not re-verified");
            return skip_or_fail(TEST, &Need::cpython(version), &why);
        };
        pythons.push((version, exe, version.to_string()));
    }
    let mut cmd = std::process::Command::new(&pythons[0].1);
    cmd.arg(root.join("scripts/gen_opcode_tables.py"));
    for (_, p, _) in &pythons {
        cmd.arg("--python").arg(p);
    }
    let out = cmd.output().expect("run scripts/gen_opcode_tables.py");
    assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut generated = String::from_utf8(out.stdout).expect("UTF-8");
    for (version, _, now) in &pythons {
        if now != version {
            generated = generated.replace(&format!("\"{now}\""), &format!("\"{version}\"")).replace(now.as_str(), version);
        }
    }
    let path = root.join(OPCODE_TABLES_RS);
    let checked_in = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        generated.as_bytes() == checked_in,
        "{OPCODE_TABLES_RS} is stale: regenerate it with scripts/gen_opcode_tables.py (see its header)"
    );
    // The header tells a reader how to regenerate the file, at the path it has.
    let header = String::from_utf8_lossy(&checked_in);
    assert!(header.starts_with("//! Opcode tables of CPython "), "{OPCODE_TABLES_RS}: no generated header");
    assert!(header.contains("GENERATED by `scripts/gen_opcode_tables.py`: do not edit"), "{OPCODE_TABLES_RS}");
    let writes_here = format!("//!     -o {OPCODE_TABLES_RS}\n");
    assert!(header.contains(&writes_here), "the header's command does not write {OPCODE_TABLES_RS}");
    for (version, _, now) in &pythons {
        let (major, minor) = parse_minor_version(version).unwrap();
        let python = if (major, minor) >= (3, 14) {
            format!("--python .tools/native-python/{major}.{minor}/usr/bin/python{major}.{minor} ")
        } else {
            format!("--python \"$(pyenv prefix {version})/bin/python3\"")
        };
        assert!(header.contains(&python), "the header's command lacks {version}");
        ran(TEST, now);
    }
    writeln!(std::io::stderr(), "{TEST}: verified against {} interpreters", pythons.len()).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Robustness: hostile bytes never panic

fn never_panics(bytes: &[u8]) {
    for python in [None, Some((3, 12)), Some((3, 13))] {
        let o = PystatsOptions { python, limits: ReadLimits { max_bytes: 1 << 20 } };
        match parse_pystats("fuzz.txt", bytes, &o) {
            Ok(s) => {
                let summary = summarize(&s);
                let _ = diff_stats(&s, &s);
                let _ = StatsFile::new(s, "fuzz").to_json();
                let _ = summary.families.len();
            }
            Err(e) => {
                let m = e.to_string();
                assert!(m.starts_with("fuzz.txt: "), "{m}");
                assert!(!m.contains('\n') && !m.contains('\r'), "{m:?}");
                assert!(m.len() < 400, "{m}");
            }
        }
    }
}

fn base_bytes() -> Vec<u8> {
    shared_file("base").1
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        never_panics(&bytes);
    }

    #[test]
    fn arbitrary_lines_never_panic(
        lines in proptest::collection::vec(
            "( *opcode\\[[0-9A-Z_<>]{0,6}\\]\\.(specializable|execution_count|specialization\\.(hit|miss|failure_kinds\\[[0-9x]{0,12}\\])|pair_count\\[[0-9A-Z_]{0,5}\\])?|uops\\[[A-Z_]{0,4}\\]\\.execution_count|GC\\[[0-9]{0,11}\\][a-z ]{0,8}|[A-Za-z ]{0,12}) ?:? ?[0-9a-z-]{0,22}",
            0..24,
        )
    ) {
        never_panics(lines.join("\n").as_bytes());
    }

    #[test]
    fn mutated_real_files_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..12)
    ) {
        let mut bytes = base_bytes();
        for (at, byte, op) in edits {
            if bytes.is_empty() { break; }
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                2 => { bytes.remove(i); }
                _ => bytes.truncate(i),
            }
        }
        never_panics(&bytes);
    }
}
