//! The record of what the tests ran with and what they lacked: one tab-separated line per check
//! (`ran|skipped|missing`, label, test, reason), appended by every test process, and its
//! one-line summary.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// How one check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The test ran with it.
    Ran,
    /// Missing, and the test skipped.
    Skipped,
    /// Missing where it is required: the test failed.
    Missing,
}

impl Outcome {
    fn word(self) -> &'static str {
        match self {
            Outcome::Ran => "ran",
            Outcome::Skipped => "skipped",
            Outcome::Missing => "missing",
        }
    }
}

/// One line of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub outcome: Outcome,
    pub label: String,
    pub test: String,
    pub why: String,
}

impl Entry {
    fn line(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        format!("{}\t{}\t{}\t{}\n", self.outcome.word(), clean(&self.label), clean(&self.test), clean(&self.why))
    }

    fn parse(line: &str) -> Option<Entry> {
        let mut f = line.splitn(4, '\t');
        let outcome = match f.next()? {
            "ran" => Outcome::Ran,
            "skipped" => Outcome::Skipped,
            "missing" => Outcome::Missing,
            _ => return None,
        };
        let label = f.next()?.to_string();
        let test = f.next()?.to_string();
        Some(Entry { outcome, label, test, why: f.next().unwrap_or("").to_string() })
    }
}

/// `$CARGO_TARGET_DIR/specdiff-test-interpreters.txt`, else the workspace's
/// `target/specdiff-test-interpreters.txt`. scripts/test.sh empties it before the tests.
pub fn record_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("specdiff-test-interpreters.txt")
}

/// Appends `e` in one write, so lines of tests running in parallel do not interleave.
pub(crate) fn append(e: &Entry) {
    let path = record_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // The record is a report: a test does not fail because it cannot be written.
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&path) {
        let _ = f.write_all(e.line().as_bytes());
    }
}

/// The summary line of a record: `interpreters: ran A B …; skipped: X (why; tests) …` and,
/// when a required one was missing, `; MISSING (tests failed): …`. Interpreters come first in
/// version order, then pystats builds, then the rest.
pub fn summary(record: &str) -> String {
    let entries: Vec<Entry> = record.lines().filter_map(Entry::parse).collect();
    let mut ran: Vec<&str> = entries.iter().filter(|e| e.outcome == Outcome::Ran).map(|e| e.label.as_str()).collect();
    ran.sort_by_key(|l| (order(l), version_key(l)));
    ran.dedup();
    let mut out = format!("interpreters: ran {}", if ran.is_empty() { "none".into() } else { ran.join(" ") });
    for (outcome, title) in [(Outcome::Skipped, "skipped"), (Outcome::Missing, "MISSING (tests failed)")] {
        // label -> (reasons, tests), each kept once, in the record's order.
        let mut by_label: BTreeMap<&str, (Vec<&str>, Vec<&str>)> = BTreeMap::new();
        for e in entries.iter().filter(|e| e.outcome == outcome) {
            let (whys, tests) = by_label.entry(&e.label).or_default();
            if !whys.contains(&e.why.as_str()) {
                whys.push(&e.why);
            }
            if !tests.contains(&e.test.as_str()) {
                tests.push(&e.test);
            }
        }
        if by_label.is_empty() && outcome == Outcome::Missing {
            continue;
        }
        let items: Vec<String> = by_label
            .iter()
            .map(|(label, (whys, tests))| format!("{label} ({}; in {})", whys.join("; "), tests.join(", ")))
            .collect();
        out.push_str(&format!("; {title}: {}", if items.is_empty() { "none".into() } else { items.join(", ") }));
    }
    out
}

/// CPython versions, then pystats builds, then everything else.
fn order(label: &str) -> u8 {
    match label {
        l if l.contains("-pystats") => 1,
        l if l.starts_with(|c: char| c.is_ascii_digit()) => 0,
        _ => 2,
    }
}

/// `3.9.1` before `3.11.7`: the numbers at the start of the label, compared as numbers.
fn version_key(label: &str) -> (Vec<u32>, &str) {
    let digits = label.split(|c: char| !c.is_ascii_digit() && c != '.').next().unwrap_or("");
    (digits.split('.').filter_map(|n| n.parse().ok()).collect(), label)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(outcome: Outcome, label: &str, test: &str, why: &str) -> String {
        Entry { outcome, label: label.into(), test: test.into(), why: why.into() }.line()
    }

    #[test]
    fn summary_lists_each_ran_label_once_in_order() {
        // The file as the tests write it: several binaries, some interpreters more than once.
        let record = "ran\t3.13-pystats\tcapture\t\nran\t3.12.1\tinterpreters\t\nran\tpypy3\tpypy\t\n\
                      ran\t3.14.2(pyodide)\tinterpreters\t\nran\t3.11.7\tinterpreters\t\n\
                      ran\t3.12.1\topcode_tables\t\nran\t3.11-pystats\tcapture\t\n";
        assert_eq!(
            summary(record),
            "interpreters: ran 3.11.7 3.12.1 3.14.2(pyodide) 3.11-pystats 3.13-pystats pypy3; skipped: none"
        );
    }

    #[test]
    fn summary_names_skips_and_failures_with_reasons_and_tests() {
        let record = [
            e(Outcome::Ran, "3.12.1", "interpreters", ""),
            e(Outcome::Skipped, "CPython<3.11", "old_python", "none here; optional"),
            e(Outcome::Skipped, "CPython<3.11", "old_python", "none here; optional"),
            e(Outcome::Missing, "3.13-pystats", "capture_a", "no build"),
            e(Outcome::Missing, "3.13-pystats", "capture_b", "no build"),
            "garbage line\n".to_string(),
        ]
        .concat();
        assert_eq!(
            summary(&record),
            "interpreters: ran 3.12.1; skipped: CPython<3.11 (none here; optional; in old_python); \
             MISSING (tests failed): 3.13-pystats (no build; in capture_a, capture_b)"
        );
    }

    #[test]
    fn fields_cannot_break_the_line_format() {
        let line =
            Entry { outcome: Outcome::Skipped, label: "a\tb".into(), test: "t".into(), why: "x\ny".into() }.line();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(Entry::parse(line.trim_end()).unwrap().why, "x y");
        assert_eq!(summary(""), "interpreters: ran none; skipped: none");
    }
}
