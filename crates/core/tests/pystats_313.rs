//! The pystats reader and summary against real CPython 3.13.5 files and against 3.13.5's own
//! `Tools/scripts/summarize_stats.py` (a rewrite of the 3.11 script: HTML tables, counts with
//! thousands separators, ratios over `hit + miss + execution_count`): every number of its
//! execution-count, pair-count, specialization, specialization-effectiveness, call, object,
//! GC and meta tables must equal ours.
//!
//! Everything is in the repository: `tests/fixtures/pystats-3.13/` holds the two programs, the
//! raw files CPython 3.13.5 (`--enable-pystats`, `scripts/build-pystats-python.sh 3.13`)
//! wrote for them, the script's output for each, and the script's name for every failure kind
//! (see the README there for how they were made).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use specdiff_core::format::{parse_pystats, read_pystats, PystatsOptions};
use specdiff_core::cpython::{failure_kind_name, op_family, OpKind};
use specdiff_core::model::Stats;
use specdiff_core::report::{diff_stats, percent, summarize, Delta};

const V313: Option<(u32, u32)> = Some((3, 13));

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pystats-3.13")
}

fn gunzip(name: &str) -> String {
    let path = fixtures().join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_string(&mut text).unwrap();
    text
}

/// The raw file of `which` ("base" or "head"), read as CPython 3.13 (from the gzip file, as
/// the reader takes it).
fn load(which: &str) -> Stats {
    let name = format!("raw_{which}.txt.gz");
    let bytes = std::fs::read(fixtures().join(&name)).unwrap();
    parse_pystats(&name, &bytes, &PystatsOptions { python: V313, ..Default::default() }).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------------------------
// The fixture: summarize_stats.py's output, its HTML tables parsed back

#[derive(Debug)]
struct Table {
    /// The enclosing `## ` section.
    section: String,
    /// The enclosing `### ` subsection ("" when none).
    sub: String,
    /// The first header cell (`Name`, `Kind`, `Success`, `Failure kind`, `Instructions`, "").
    first: String,
    /// Cells of each body row; a cell's text is its first non-empty line (a label with a
    /// `<details>` note keeps only the label).
    rows: Vec<Vec<String>>,
}

struct Fixture {
    tables: Vec<Table>,
    /// The `### ` headings of the "Specialization stats" section: the families listed.
    families: Vec<String>,
}

impl Fixture {
    fn parse(name: &str) -> Fixture {
        let text = gunzip(name);
        let (mut section, mut sub) = (String::new(), String::new());
        let (mut tables, mut families) = (Vec::new(), Vec::new());
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if let Some(t) = line.strip_prefix("## ") {
                section = t.to_string();
                sub.clear();
            } else if let Some(t) = line.strip_prefix("### ") {
                sub = t.to_string();
                if section == "Specialization stats" {
                    families.push(sub.clone());
                }
            } else if line == "<table>" {
                let mut table = Table { section: section.clone(), sub: sub.clone(), first: String::new(), rows: Vec::new() };
                let mut header_seen = false;
                let mut row: Option<Vec<String>> = None;
                while let Some(line) = lines.next() {
                    if line == "</table>" {
                        break;
                    } else if let Some(th) = line.strip_prefix("<th ") {
                        if !header_seen {
                            let inner = &th[th.find('>').unwrap() + 1..];
                            table.first = inner.strip_suffix("</th>").unwrap().to_string();
                            header_seen = true;
                        }
                    } else if line == "<tr>" {
                        row = Some(Vec::new());
                    } else if line == "</tr>" {
                        if let Some(r) = row.take().filter(|r| !r.is_empty()) {
                            table.rows.push(r);
                        }
                    } else if let Some(td) = line.strip_prefix("<td ") {
                        let inner = &td[td.find('>').unwrap() + 1..];
                        let cell = match inner.strip_suffix("</td>") {
                            Some(one_line) => one_line.to_string(),
                            None => {
                                // A multi-line cell: its label, then a <details> note.
                                let mut label = inner.to_string();
                                for l in lines.by_ref() {
                                    if l == "</td>" {
                                        break;
                                    }
                                    if label.is_empty() {
                                        label = l.to_string();
                                    }
                                }
                                label
                            }
                        };
                        row.as_mut().expect("<td> inside <tr>").push(cell);
                    }
                }
                tables.push(table);
            }
        }
        assert!(tables.len() > 20 && families.len() > 10, "{name}: nothing parsed");
        Fixture { tables, families }
    }

    /// The tables of `section` (and `sub`) whose first header cell is `first`.
    fn tables(&self, section: &str, sub: &str, first: &str) -> Vec<&Table> {
        self.tables.iter().filter(|t| t.section == section && t.sub == sub && t.first == first).collect()
    }

    /// The one such table's rows; empty when the script printed none (it skips empty tables).
    fn rows(&self, section: &str, sub: &str, first: &str) -> Vec<Vec<String>> {
        let found = self.tables(section, sub, first);
        assert!(found.len() <= 1, "{section}/{sub}/{first}: {} tables", found.len());
        found.first().map_or_else(Vec::new, |t| t.rows.clone())
    }
}

/// `"54,413"` → 54413.
fn count(cell: &str) -> u64 {
    cell.replace(',', "").parse().unwrap_or_else(|_| panic!("fixture cell {cell:?} is not a count"))
}

// ---------------------------------------------------------------------------------------------
// The equivalence

/// Asserts that every number of the fixture's tables equals ours; returns how many it checked.
fn assert_equivalent(which: &str) -> usize {
    let stats = load(which);
    let summary = summarize(&stats);
    let fx = Fixture::parse(&format!("summarize_stats_{which}.md.gz"));
    let total = summary.total_executions;
    let mut checked = 0;

    // Execution counts: the same opnames with the same counts in the same order, except that
    // the script keeps equal counts in opcode-number order, which a named file does not give.
    let rows = fx.rows("Execution counts", "", "Name");
    assert_eq!(rows.len(), summary.executions.len(), "{which}: number of executed opnames");
    let theirs: Vec<u64> = rows.iter().map(|r| count(&r[1])).collect();
    let ours: Vec<u64> = summary.executions.iter().map(|e| e.count).collect();
    assert_eq!(ours, theirs, "{which}: execution counts, in order");
    let mut cumulative = 0;
    for r in &rows {
        let e = summary.executions.iter().find(|e| e.opname == r[0]).unwrap_or_else(|| panic!("{which}: no {}", r[0]));
        cumulative += e.count;
        let miss = if e.miss > 0 { percent(e.miss, e.count) } else { String::new() };
        let row = vec![e.opname.clone(), e.count.to_string(), percent(e.count, total), percent(cumulative, total), miss];
        let mut theirs = r.clone();
        theirs[1] = count(&r[1]).to_string();
        assert_eq!(row, theirs, "{which}: execution counts row");
        checked += 4;
    }

    // Top-100 pair counts, with their share and running share of all executions.
    let rows = fx.rows("Pair counts", "", "Pair");
    assert_eq!(rows.len(), 100, "{which}: pair rows");
    let mut cumulative = 0;
    for r in &rows {
        let (a, b) = r[0].split_once(' ').unwrap();
        let n = stats.opcodes[a].pairs.get(b).copied();
        assert_eq!(n, Some(count(&r[1])), "{which}: pair {a} {b}");
        cumulative += n.unwrap();
        assert_eq!((percent(n.unwrap(), total), percent(cumulative, total)), (r[2].clone(), r[3].clone()), "{which}: pair {a} {b}");
        checked += 3;
    }

    // Specialization stats: the same families (specializable, with executions), each table
    // equal. The ratios are over `hit + miss + execution_count` (FamilySummary::total).
    let mut ours: Vec<&str> =
        summary.families.iter().filter(|f| f.specializable && f.total() > 0).map(|f| f.family.as_str()).collect();
    ours.sort();
    assert_eq!(ours, fx.families, "{which}: families");
    for name in &fx.families {
        let f = summary.family(name).unwrap();
        let total = f.total();
        let row = |label: &str, v: u64, den: u64| vec![label.to_string(), v.to_string(), percent(v, den)];
        let norm = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
            rows.into_iter().map(|mut r| {
                r[1] = count(&r[1]).to_string();
                r
            }).collect()
        };
        // Every non-zero `specialization.*` counter but success and failure, by name.
        let kinds: Vec<Vec<String>> = [("deferred", f.deferred), ("deopt", f.deopt), ("hit", f.hit), ("miss", f.miss)]
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(l, v)| row(l, *v, total))
            .collect();
        assert_eq!(norm(fx.rows("Specialization stats", name, "Kind")), kinds, "{which}: {name} kinds");
        checked += 2 * kinds.len();
        let attempts =
            if f.attempts() > 0 { vec![row("Success", f.success, f.attempts()), row("Failure", f.failure, f.attempts())] } else { vec![] };
        assert_eq!(norm(fx.rows("Specialization stats", name, "Success")), attempts, "{which}: {name} attempts");
        checked += 2 * attempts.len();
        let failures: Vec<Vec<String>> =
            f.failure_kinds.iter().map(|k| row(&k.name.label, k.count, f.failure)).collect();
        assert_eq!(norm(fx.rows("Specialization stats", name, "Failure kind")), failures, "{which}: {name} failure kinds");
        checked += 3 * failures.len();
    }

    // Specialization effectiveness: every execution is basic, of a specializable head, or of
    // a specialized form (a hit unless it missed). Checks our opname kinds against the
    // interpreter's own list of specialized instructions, which the script uses.
    let (mut basic, mut not_specialized, mut hits, mut misses) = (0, 0, 0, 0);
    for (name, s) in &stats.opcodes {
        if s.execution_count == 0 {
            continue;
        }
        if s.specializable {
            not_specialized += s.execution_count;
        } else if op_family(V313, name).1 == OpKind::Specialized {
            hits += s.execution_count - s.specialization.miss;
            misses += s.specialization.miss;
        } else {
            basic += s.execution_count;
        }
    }
    let expected: Vec<Vec<String>> = [("Basic", basic), ("Not specialized", not_specialized), ("Specialized hits", hits), ("Specialized misses", misses)]
        .iter()
        .map(|(l, v)| vec![l.to_string(), v.to_string(), percent(*v, total)])
        .collect();
    let mut theirs = fx.rows("Specialization effectiveness", "", "Instructions");
    theirs.iter_mut().for_each(|r| r[1] = count(&r[1]).to_string());
    assert_eq!(theirs, expected, "{which}: specialization effectiveness");
    checked += 8;
    // … and its top-10 tables of deferred executions and of misses, by opname.
    for r in fx.rows("Specialization effectiveness", "Deferred by instruction", "Name") {
        assert_eq!(stats.opcodes[&r[0]].specialization.deferred, count(&r[1]), "{which}: deferred {}", r[0]);
        checked += 1;
    }
    for r in fx.rows("Specialization effectiveness", "Misses by instruction", "Name") {
        assert_eq!(stats.opcodes[&r[0]].specialization.miss, count(&r[1]), "{which}: misses {}", r[0]);
        checked += 1;
    }

    // Call stats: `Calls to …` and `Frame…` by key; `Calls via PyEval_EvalFrame[N]`, which the
    // script names after Include/cpython/pystats.h, in key order.
    let rows = fx.rows("Call stats", "", "");
    let mut via = stats.calls.iter().filter(|(k, _)| k.starts_with("Calls via PyEval_EvalFrame["));
    for r in &rows {
        let ours = if r[0].starts_with("Calls via PyEval_EvalFrame (") {
            via.next().map(|(_, v)| *v)
        } else {
            stats.calls.get(&r[0]).copied()
        };
        assert_eq!(ours, Some(count(&r[1])), "{which}: call stats {}", r[0]);
        checked += 1;
    }
    assert!(via.next().is_none() && rows.len() == stats.calls.len(), "{which}: call stats rows");

    // Object stats: the script drops the `Object ` prefix and capitalizes the rest.
    let rows = fx.rows("Object stats", "", "");
    assert_eq!(rows.len(), stats.objects.len(), "{which}: object stats rows");
    for r in &rows {
        let key = format!("Object {}{}", r[0][..1].to_lowercase(), &r[0][1..]);
        assert_eq!(stats.objects.get(&key).copied(), Some(count(&r[1])), "{which}: {key}");
        checked += 1;
    }

    // GC stats by generation; the number of files.
    let rows = fx.rows("GC stats", "", "Generation");
    assert_eq!(rows.len(), stats.gc.len(), "{which}: GC generations");
    for r in &rows {
        let g = &stats.gc[&(count(&r[0]) as u32)];
        let ours = [g["collections"], g["objects collected"], g["object visits"]];
        assert_eq!(ours.to_vec(), r[1..].iter().map(|c| count(c)).collect::<Vec<_>>(), "{which}: GC[{}]", r[0]);
        checked += 3;
    }
    assert_eq!(fx.rows("Meta stats", "", ""), vec![vec!["Number of data files".to_string(), stats.files.to_string()]]);
    checked + 1
}

#[test]
fn base_numbers_equal_summarize_stats_313() {
    let n = assert_equivalent("base");
    assert!(n > 500, "only {n} numbers checked");
    writeln!(std::io::stderr(), "3.13 base: {n} numbers equal summarize_stats.py's").unwrap();
}

#[test]
fn head_numbers_equal_summarize_stats_313() {
    let n = assert_equivalent("head");
    assert!(n > 500, "only {n} numbers checked");
    writeln!(std::io::stderr(), "3.13 head: {n} numbers equal summarize_stats.py's").unwrap();
}

#[test]
fn spot_check_against_the_fixture_by_hand() {
    // Numbers read off summarize_stats_base.md(.gz), so a bug in the parser above cannot make
    // the equivalence vacuous.
    let s = summarize(&load("base"));
    assert_eq!(s.executions[0].opname, "LOAD_FAST");
    assert_eq!(s.executions[0].count, 54413);
    let f = s.family("BINARY_OP").unwrap();
    assert_eq!((f.deferred, f.hit, f.miss, f.success, f.failure), (2121, 37646, 53, 26, 18));
    assert_eq!(percent(f.hit, f.total()), "94.6%");
    let kinds: Vec<(&str, u64)> = f.failure_kinds.iter().map(|k| (k.name.label.as_str(), k.count)).collect();
    assert_eq!(kinds, vec![("multiply different types", 10), ("and int", 8)]);
    assert_eq!(f.failure_kinds[0].name.constant.as_deref(), Some("SPEC_FAIL_BINARY_OP_MULTIPLY_DIFFERENT_TYPES"));
}

#[test]
fn the_file_is_read_as_named_313() {
    let s = load("base");
    assert_eq!((s.python.as_deref(), s.files), (Some("3.13"), 1));
    assert!(s.opcodes["LOAD_ATTR"].specializable && s.opcodes["BINARY_SLICE"].specializable);
    assert!(s.uops.is_empty(), "no tier 2 in a default build");
    assert!(s.other.keys().all(|k| k.starts_with("Rare event")), "{:?}", s.other.keys());
    assert_eq!(s.gc.len(), 3);
    // Without a version the same file reads the same, only unversioned.
    let bytes = std::fs::read(fixtures().join("raw_base.txt.gz")).unwrap();
    let plain = parse_pystats("b", &bytes, &PystatsOptions::default()).unwrap();
    assert_eq!(plain.python, None);
    assert_eq!(plain.opcodes, s.opcodes);
    // And a 3.13 file cannot be summed with a 3.11 one.
    let eleven = read_pystats([("a.txt", b"opcode[1].execution_count : 1\n".as_slice()), ("b.txt.gz", bytes.as_slice())], &PystatsOptions::default());
    assert!(eleven.unwrap_err().to_string().starts_with("b.txt.gz: cannot sum stats"));
}

#[test]
fn diff_shows_the_real_effects_of_the_head_changes_313() {
    let d = diff_stats(&load("base"), &load("head"));
    // Head: class P lost __slots__, so p.x / p.y are instance-value loads instead of slot loads
    // (130 slot loads are the interpreter's own, at start-up and exit, in both runs).
    // The program's 2 × 2,000 loads, less the 2 of its first run (not yet specialized).
    assert_eq!(d.executions_of("LOAD_ATTR_SLOT"), Delta { base: 4128, head: 130 });
    assert_eq!(d.executions_of("LOAD_ATTR_INSTANCE_VALUE"), Delta { base: 5248, head: 9246 });
    // Head: ints() gets floats two times in three, so the int specializations miss.
    let bo = d.family("BINARY_OP").unwrap();
    assert_eq!(bo.miss, Delta { base: 53, head: 3497 });
    assert_eq!(d.executions_of("BINARY_OP_ADD_INT"), Delta { base: 19449, head: 19183 });
}

#[test]
fn failure_kinds_are_named_as_summarize_stats_313_names_them() {
    // Every (family, kind) the script can meet: its name, or "kind N" when it has none.
    let text = std::fs::read_to_string(fixtures().join("failure_kind_labels.tsv")).unwrap();
    let mut labels: BTreeMap<(String, u32), String> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (family, kind, label) = (cols.next().unwrap(), cols.next().unwrap(), cols.next().unwrap());
        labels.insert((family.to_string(), kind.parse().unwrap()), label.to_string());
    }
    let families: std::collections::BTreeSet<String> = labels.keys().map(|(f, _)| f.clone()).collect();
    assert_eq!(families.len(), 15, "{families:?}");
    let mut named = 0;
    for family in &families {
        for kind in 0..40 {
            let want = labels.get(&(family.clone(), kind)).cloned().unwrap_or_else(|| format!("kind {kind}"));
            assert_eq!(failure_kind_name(V313, family, kind).label, want, "{family} kind {kind}");
            named += usize::from(labels.contains_key(&(family.clone(), kind)));
        }
    }
    assert_eq!(named, labels.len());
}
