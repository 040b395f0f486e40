//! Stats as files: the standalone `specdiff-stats` file (`specdiff stats -o`, described in
//! `docs/stats-format.md`) and its reader, and summing the stats of a run's files.

use serde::{Deserialize, Serialize};

use crate::format::document::{load, DocumentKind, Input};
use crate::format::input::{InputError, InputErrorKind, ReadLimits};
use crate::model::dump::FORMAT_NAME;
use crate::model::stats::Stats;
use crate::util::map::add_counts;

/// The value of `format` in a standalone stats file.
pub const STATS_FORMAT_NAME: &str = "specdiff-stats";
/// The newest standalone stats file version this crate reads, and the one it writes.
pub const STATS_FORMAT_VERSION: u64 = 1;

/// A standalone stats file (`specdiff stats -o out.json`): a header and one [`Stats`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsFile {
    /// Always [`STATS_FORMAT_NAME`].
    pub format: String,
    /// At most [`STATS_FORMAT_VERSION`].
    pub version: u64,
    /// The program that wrote it, e.g. `"specdiff 0.1.0"`.
    #[serde(default)]
    pub generator: String,
    /// The statistics.
    pub stats: Stats,
}

impl StatsFile {
    /// Wraps `stats` with the current header.
    pub fn new(stats: Stats, generator: impl Into<String>) -> Self {
        StatsFile {
            format: STATS_FORMAT_NAME.to_string(),
            version: STATS_FORMAT_VERSION,
            generator: generator.into(),
            stats,
        }
    }

    /// Serializes as pretty-printed JSON (a few hundred lines; meant to be read and diffed).
    pub fn to_json(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).expect("a StatsFile always serializes");
        v.push(b'\n');
        v
    }
}

/// Standalone stats files, to the document reader.
static STATS: DocumentKind = DocumentKind {
    format: STATS_FORMAT_NAME,
    version: STATS_FORMAT_VERSION,
    raw_pystats: None,
    others: &[(FORMAT_NAME, "this is a specdiff dump, not a stats file (its stats are under \"pystats\")")],
};

/// Reads a standalone stats file (plain or gzip JSON). `file` names it in error messages.
pub fn read_stats_file(file: &str, bytes: &[u8], limits: ReadLimits) -> Result<Stats, InputError> {
    read_stats_input(load(file, bytes, limits)?)
}

/// [`read_stats_file`] of an input already loaded.
pub(crate) fn read_stats_input(input: Input<'_>) -> Result<Stats, InputError> {
    let mut document = input.json(&STATS)?;
    // The header first, so a dump or a newer file gets a precise message rather than a type
    // error deep inside (stats files are small; the extra scan costs nothing).
    document.check_header()?;
    let parsed: StatsFile = document.parse()?;
    Ok(parsed.stats)
}

impl Stats {
    /// Adds the counters of `other` (another process of the same run) into `self`.
    ///
    /// Fails when the two name opcodes after different CPython versions: summing a 3.11
    /// `LOAD_ATTR` with a 3.12 one would mix two different instruction sets.
    pub fn merge(&mut self, other: &Stats) -> Result<(), InputErrorKind> {
        if self.python != other.python && !self.opcodes.is_empty() && !other.opcodes.is_empty() {
            let show = |p: &Option<String>| match p {
                Some(v) => format!("CPython {v} opcode numbers"),
                None => "opcode names (CPython 3.13+)".to_string(),
            };
            return Err(InputErrorKind::Incompatible(format!(
                "cannot sum stats that use {} with stats that use {}",
                show(&self.python),
                show(&other.python)
            )));
        }
        // A file without opcode counters says nothing about the numbering; take the other's.
        if self.opcodes.is_empty() && (!other.opcodes.is_empty() || self.python.is_none()) {
            self.python = other.python.clone();
        }
        self.files = self.files.saturating_add(other.files);
        for (name, s) in &other.opcodes {
            self.opcodes.entry(name.clone()).or_default().add(s);
        }
        for (name, s) in &other.uops {
            self.uops.entry(name.clone()).or_default().add(s);
        }
        add_counts(&mut self.calls, &other.calls);
        add_counts(&mut self.objects, &other.objects);
        for (generation, counters) in &other.gc {
            add_counts(self.gc.entry(*generation).or_default(), counters);
        }
        add_counts(&mut self.other, &other.other);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::{OpcodeStats, Specialization};

    #[test]
    fn merge_refuses_mixed_versions() {
        let mut a = Stats { python: Some("3.11".into()), ..Default::default() };
        a.opcodes.insert("POP_TOP".into(), OpcodeStats { execution_count: 1, ..Default::default() });
        let mut b = a.clone();
        b.python = Some("3.12".into());
        assert!(matches!(a.merge(&b), Err(InputErrorKind::Incompatible(_))));
        let c = a.clone();
        a.merge(&c).unwrap();
        assert_eq!(a.opcodes["POP_TOP"].execution_count, 2);
    }

    #[test]
    fn stats_file_round_trip_and_errors() {
        let mut s = Stats { python: Some("3.11".into()), files: 1, ..Default::default() };
        s.opcodes.insert(
            "LOAD_ATTR".into(),
            OpcodeStats {
                specializable: true,
                specialization: Specialization { hit: 5, ..Default::default() },
                failure_kinds: [(13, 2)].into_iter().collect(),
                ..Default::default()
            },
        );
        s.gc.entry(0).or_default().insert("collections".into(), 3);
        let bytes = StatsFile::new(s.clone(), "test").to_json();
        assert_eq!(read_stats_file("s.json", &bytes, ReadLimits::default()).unwrap(), s);

        let e = read_stats_file("s.json", b"{\"format\": \"specdiff-stats\", \"version\": 9, \"stats\": {}}", ReadLimits::default()).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::NewerVersion { found: 9, .. }), "{e}");
        let e = read_stats_file("s.json", b"{\"format\": \"specdiff-dump\"}", ReadLimits::default()).unwrap_err();
        assert!(e.to_string().starts_with("s.json: not a specdiff dump: this is a specdiff dump"), "{e}");
        let e = read_stats_file("s.json", b"{\"format\": \"specdiff-stats\", \"version\": 1, \"stats\": {\"files\": \"x\"}}", ReadLimits::default()).unwrap_err();
        assert!(matches!(&e.kind, InputErrorKind::BadField { path, .. } if path == "stats.files"), "{e}");
        let e = read_stats_file("s.json", b"{\"format\": ", ReadLimits::default()).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::Truncated(_)), "{e}");
        // Whatever else "format" holds is named in the message.
        for (format, shown) in [("\"other\"", "\"other\""), ("7", "7"), ("-1", "a negative number"), ("[1, {}]", "a list"), ("{\"a\": [2]}", "an object")] {
            let text = format!("{{\"version\": 1, \"format\": {format}, \"stats\": {{}}}}");
            let e = read_stats_file("s.json", text.as_bytes(), ReadLimits::default()).unwrap_err();
            assert_eq!(e.to_string(), format!("s.json: not a specdiff dump: \"format\" is {shown}, expected \"specdiff-stats\""));
        }
    }
}
