//! Specialization statistics ("pystats") as CPython's `--enable-pystats` builds collect them.
//!
//! This module owns the [`Stats`] structure (one run, possibly summed over several raw files),
//! its JSON form (stored in dumps as `pystats` and written by `specdiff stats -o`; described in
//! `docs/stats-format.md`), the standalone `specdiff-stats` file, and the per-version opcode
//! facts that give the counters meaning: which family an opname belongs to and what kind of
//! instruction it is. Raw files are parsed by [`crate::pystats`]; summaries and diffs live in
//! [`crate::stats_diff`].

use serde::{Deserialize, Serialize};

use crate::header::{Header, HeaderField};
use crate::input::{decompressed, sniff, InputError, InputErrorKind, ReadLimits, Sniffed};
use crate::map::Map;
use crate::opcode_tables::{OpcodeTable, TABLES};

/// One run's specialization statistics.
///
/// Every counter is summed over the raw files the run wrote (CPython writes one file per
/// process). Counters absent from the raw files are zero.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// The CPython minor version (`"3.11"`, `"3.12"`, …) whose opcode table named the opcodes.
    /// Raw files of 3.11 and 3.12 number opcodes, so the reader had to be told (or assumed
    /// 3.11); 3.13+ files name them and this is `None` unless the caller knew the version.
    #[serde(default)]
    pub python: Option<String>,
    /// How many raw files were summed.
    #[serde(default)]
    pub files: u64,
    /// Tier-1 instructions by opname (specialized forms are entries of their own).
    #[serde(default)]
    pub opcodes: Map<String, OpcodeStats>,
    /// Tier-2 micro-ops (`uops[NAME]…` keys, 3.13+), by name.
    #[serde(default)]
    pub uops: Map<String, OpcodeStats>,
    /// Call and frame counters (`"Calls to PyEval_EvalDefault"`, `"Frames pushed"`,
    /// `"Frame objects created"`, `"Calls via PyEval_EvalFrame[N]"` …), by raw key.
    #[serde(default)]
    pub calls: Map<String, u64>,
    /// Object counters (`"Object allocations"`, `"Object new values"` …), by raw key.
    #[serde(default)]
    pub objects: Map<String, u64>,
    /// Garbage-collector counters by generation, then by name (`"collections"` for the raw
    /// key `GC[0] collections`). 3.12+.
    #[serde(default)]
    pub gc: Map<u32, Map<String, u64>>,
    /// Every other counter (optimizer, histograms, rare events …), by raw key.
    #[serde(default)]
    pub other: Map<String, u64>,
}

/// Counters of one instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpcodeStats {
    /// CPython marked the instruction as a family head it (could) specialize
    /// (`opcode[N].specializable`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub specializable: bool,
    /// Times the instruction executed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub execution_count: u64,
    /// The `specialization.*` counters.
    #[serde(default, skip_serializing_if = "Specialization::is_empty")]
    pub specialization: Specialization,
    /// `specialization.failure_kinds[N]` by `N` (named per family and version by
    /// [`crate::failure_kinds::failure_kind_name`]).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub failure_kinds: Map<u32, u64>,
    /// `pair_count[NEXT]`: how often opname `NEXT` executed right after this one.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub pairs: Map<String, u64>,
    /// Any other per-instruction counter, by the key after `opcode[X].`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub other: Map<String, u64>,
}

/// The `specialization.*` counters of one instruction.
///
/// In CPython these are mostly counted on the family head (the base instruction): hits,
/// deferrals, successes and failures of all `LOAD_ATTR_*` forms are counted on `LOAD_ATTR`;
/// a miss is counted both on the specialized form and on the head.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Specialization {
    /// Attempts to specialize that succeeded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub success: u64,
    /// Attempts to specialize that failed (broken down in `failure_kinds`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failure: u64,
    /// Executions of a specialized form whose guards held.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit: u64,
    /// Executions of the adaptive form while its counter was still backing off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deferred: u64,
    /// Executions of a specialized form whose guards failed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub miss: u64,
    /// Misses that exhausted the counter and turned the site back into the adaptive form.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deopt: u64,
}

impl Specialization {
    /// All counters are zero.
    pub fn is_empty(&self) -> bool {
        *self == Specialization::default()
    }

    /// Adds `other` counter by counter (saturating: sums of real counters never get near
    /// `u64::MAX`, and hostile input must not panic).
    pub fn add(&mut self, other: &Specialization) {
        self.success = self.success.saturating_add(other.success);
        self.failure = self.failure.saturating_add(other.failure);
        self.hit = self.hit.saturating_add(other.hit);
        self.deferred = self.deferred.saturating_add(other.deferred);
        self.miss = self.miss.saturating_add(other.miss);
        self.deopt = self.deopt.saturating_add(other.deopt);
    }
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn add_map<K: Ord + Clone>(into: &mut Map<K, u64>, from: &Map<K, u64>) {
    for (k, v) in from {
        let slot = into.entry(k.clone()).or_insert(0);
        *slot = slot.saturating_add(*v);
    }
}

impl OpcodeStats {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &OpcodeStats) {
        self.specializable |= other.specializable;
        self.execution_count = self.execution_count.saturating_add(other.execution_count);
        self.specialization.add(&other.specialization);
        add_map(&mut self.failure_kinds, &other.failure_kinds);
        add_map(&mut self.pairs, &other.pairs);
        add_map(&mut self.other, &other.other);
    }
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
        add_map(&mut self.calls, &other.calls);
        add_map(&mut self.objects, &other.objects);
        for (generation, counters) in &other.gc {
            add_map(self.gc.entry(*generation).or_default(), counters);
        }
        add_map(&mut self.other, &other.other);
        Ok(())
    }

    /// Sum of `execution_count` over all tier-1 instructions.
    pub fn total_executions(&self) -> u64 {
        self.opcodes.values().fold(0u64, |t, s| t.saturating_add(s.execution_count))
    }

    /// The `(major, minor)` version in [`Stats::python`], when it parses.
    pub fn minor_version(&self) -> Option<(u32, u32)> {
        self.python.as_deref().and_then(parse_minor_version)
    }
}

// ---------------------------------------------------------------------------------------------
// Opcode facts per version

/// What kind of instruction an opname is, within its family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    /// The family head (`LOAD_ATTR`), or an instruction without a family.
    Base,
    /// A 3.11 `*_ADAPTIVE` form: the head, waiting to specialize.
    Adaptive,
    /// A type specialization (`LOAD_ATTR_SLOT`).
    Specialized,
    /// A 3.11 `*_QUICK` form or a superinstruction (`LOAD_FAST__LOAD_FAST`): faster, not typed.
    Quickened,
}

/// `"3.11"` or `"3.11.2"` → `(3, 11)`.
pub fn parse_minor_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// The table for `minor`, if specdiff has one.
pub(crate) fn table_for(minor: (u32, u32)) -> Option<&'static OpcodeTable> {
    TABLES.iter().copied().find(|t| t.minor == minor)
}

/// The table used to interpret opnames of `minor`: its own, or the newest one for versions
/// newer than every table (their opnames are mostly those of the newest known version).
fn table_or_newest(minor: Option<(u32, u32)>) -> &'static OpcodeTable {
    let newest = TABLES[TABLES.len() - 1];
    match minor {
        Some(m) => table_for(m).unwrap_or(newest),
        None => newest,
    }
}

/// The CPython versions specdiff has opcode tables for, oldest first.
pub fn known_versions() -> Vec<(u32, u32)> {
    TABLES.iter().map(|t| t.minor).collect()
}

/// The exact interpreter (e.g. `"3.11.7"`) the table for `minor` was generated with.
pub fn table_generated_with(minor: (u32, u32)) -> Option<&'static str> {
    table_for(minor).map(|t| t.generated_with)
}

/// The versions whose raw pystats files number opcodes (and that specdiff can map).
pub fn numbered_versions() -> Vec<(u32, u32)> {
    TABLES.iter().filter(|t| !t.by_number.is_empty()).map(|t| t.minor).collect()
}

/// The opname of opcode `number` in CPython `minor` (only 3.11 and 3.12 number opcodes in raw
/// pystats files). Unused numbers are named `<N>`, as CPython's own tools name them.
pub fn opname_for_number(minor: (u32, u32), number: u32) -> Option<&'static str> {
    table_for(minor)?.by_number.get(number as usize).copied()
}

/// The family (the base instruction it deoptimizes to) and kind of `opname` in CPython
/// `minor` (`None`: the newest known version).
///
/// Opnames missing from the table (a newer CPython) fall back to the longest family head that
/// prefixes them (`BINARY_OP_SUBSCR_LIST_INT` → `BINARY_OP`), else to themselves.
pub fn op_family(minor: Option<(u32, u32)>, opname: &str) -> (String, OpKind) {
    let table = table_or_newest(minor);
    if let Ok(i) = table.ops.binary_search_by(|(name, _, _)| (*name).cmp(opname)) {
        let (_, family, kind) = table.ops[i];
        return (family.to_string(), kind);
    }
    let head = table
        .ops
        .iter()
        .filter(|(_, family, kind)| {
            *kind == OpKind::Specialized
                && opname.len() > family.len() + 1
                && opname.starts_with(family)
                && opname.as_bytes()[family.len()] == b'_'
        })
        .map(|(_, family, _)| *family)
        .max_by_key(|f| f.len());
    match head {
        Some(f) => (f.to_string(), OpKind::Specialized),
        None => (opname.to_string(), OpKind::Base),
    }
}

// ---------------------------------------------------------------------------------------------
// The standalone stats file

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

/// Reads a standalone stats file (plain or gzip JSON). `file` names it in error messages.
pub fn read_stats_file(file: &str, bytes: &[u8], limits: ReadLimits) -> Result<Stats, InputError> {
    let err = |kind| InputError::new(file, kind);
    let content = decompressed(file, bytes, limits)?;
    if content.iter().all(u8::is_ascii_whitespace) {
        return Err(err(InputErrorKind::Empty));
    }
    if sniff(&content) != Sniffed::Json {
        return Err(err(InputErrorKind::NotJson("it does not start with '{'".into())));
    }
    // Check the header first, so a dump or a newer file gets a precise message rather than a
    // type error deep inside.
    let header: Header = match serde_json::from_slice(&content) {
        Ok(h) => h,
        Err(e) => return Err(err(json_error_kind(&e))),
    };
    match header.format {
        Some(HeaderField::Text(f)) if f == STATS_FORMAT_NAME => {}
        Some(HeaderField::Text(f)) if f == crate::dump::FORMAT_NAME => {
            return Err(err(InputErrorKind::NotADump(
                "this is a specdiff dump, not a stats file (its stats are under \"pystats\")".into(),
            )))
        }
        Some(f) => {
            return Err(err(InputErrorKind::NotADump(format!(
                "\"format\" is {f}, expected \"{STATS_FORMAT_NAME}\""
            ))))
        }
        None => return Err(err(InputErrorKind::NotADump("no \"format\" key".into()))),
    }
    if let Some(HeaderField::Number(v)) = header.version {
        if v > STATS_FORMAT_VERSION {
            return Err(err(InputErrorKind::NewerVersion { found: v, supported: STATS_FORMAT_VERSION }));
        }
    }
    let parsed: StatsFile = serde_json::from_slice(&content).map_err(|inner| {
        let path = crate::json_path::error_path(&content, &inner);
        let detail = inner.to_string();
        let detail = match detail.rfind(" at line ") {
            Some(i) => detail[..i].to_string(),
            None => detail,
        };
        err(InputErrorKind::BadField { path: if path == "." { "(top level)".into() } else { path }, detail })
    })?;
    Ok(parsed.stats)
}

fn json_error_kind(e: &serde_json::Error) -> InputErrorKind {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => InputErrorKind::Truncated(format!("the JSON ends early (line {})", e.line())),
        Category::Data => InputErrorKind::NotADump("the top level is not a JSON object".into()),
        _ => InputErrorKind::NotJson(format!("syntax error at line {} column {}", e.line(), e.column())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_kinds_per_version() {
        assert_eq!(op_family(Some((3, 11)), "LOAD_ATTR_SLOT"), ("LOAD_ATTR".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 11)), "LOAD_ATTR_ADAPTIVE"), ("LOAD_ATTR".into(), OpKind::Adaptive));
        assert_eq!(op_family(Some((3, 11)), "LOAD_FAST__LOAD_FAST"), ("LOAD_FAST".into(), OpKind::Quickened));
        assert_eq!(op_family(Some((3, 11)), "RESUME_QUICK"), ("RESUME".into(), OpKind::Quickened));
        assert_eq!(op_family(Some((3, 12)), "LOAD_ATTR_METHOD_NO_DICT"), ("LOAD_ATTR".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 12)), "POP_TOP"), ("POP_TOP".into(), OpKind::Base));
        assert_eq!(op_family(None, "TO_BOOL_INT"), ("TO_BOOL".into(), OpKind::Specialized));
        // A 3.14 name unknown to every table falls back to its family head by prefix.
        assert_eq!(op_family(Some((3, 14)), "BINARY_OP_SUBSCR_LIST_INT"), ("BINARY_OP".into(), OpKind::Specialized));
        assert_eq!(op_family(Some((3, 14)), "NEW_THING"), ("NEW_THING".into(), OpKind::Base));
    }

    #[test]
    fn numbers_map_to_names() {
        assert_eq!(opname_for_number((3, 11), 106), Some("LOAD_ATTR"));
        assert_eq!(opname_for_number((3, 11), 93), Some("FOR_ITER"));
        assert_eq!(opname_for_number((3, 11), 256), None);
        assert_eq!(opname_for_number((3, 13), 1), None);
        assert_eq!(numbered_versions(), vec![(3, 11), (3, 12)]);
        assert_eq!(parse_minor_version("3.12.1"), Some((3, 12)));
        assert_eq!(parse_minor_version("x"), None);
    }

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
