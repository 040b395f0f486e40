//! Reader for CPython's raw pystats files: the `/tmp/py_stats/<random hex>.txt` files a
//! `--enable-pystats` interpreter writes when it exits (one per process).
//!
//! A raw file is one `key : value` line per non-zero counter (some lines indented, some keys
//! without the space before `:`). CPython 3.11 and 3.12 name instructions by NUMBER
//! (`opcode[106].specialization.hit`), 3.13+ by NAME (`opcode[LOAD_ATTR]…`). A file does not
//! say which CPython wrote it, so numbered files are read with the table of the version the
//! caller names (3.11 when it names none); named files are recognized by their keys.
//!
//! Every file is checked strictly (a malformed line is an error with its line number, never a
//! guess), because a silently misread counter would make every later comparison wrong.

use crate::cpython::opcodes::{table_for, OpcodeTable};
use crate::format::document::load;
use crate::format::input::{InputError, InputErrorKind, ReadLimits, Sniffed};
use crate::format::stats::read_stats_input;
use crate::model::stats::{OpcodeStats, Stats};
use crate::util::map::{collect_sorted, Map};

/// The version assumed for numbered files when the caller does not name one.
pub const DEFAULT_NUMBERED_VERSION: (u32, u32) = (3, 11);

/// How to read raw pystats files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PystatsOptions {
    /// The CPython `(major, minor)` that wrote the files. Needed for numbered files (3.11 or
    /// 3.12; [`DEFAULT_NUMBERED_VERSION`] when `None`); for named files it is only recorded.
    pub python: Option<(u32, u32)>,
    /// Size limits.
    pub limits: ReadLimits,
}

/// Reads one raw pystats file. `file` names it in error messages.
pub fn parse_pystats(file: &str, bytes: &[u8], options: &PystatsOptions) -> Result<Stats, InputError> {
    let input = load(file, bytes, options.limits)?;
    Parser::new(file, options).parse(&input.content)
}

/// Reads a file that is either a raw pystats file or a standalone `specdiff-stats` JSON file
/// (told apart by their first bytes).
pub fn read_stats(file: &str, bytes: &[u8], options: &PystatsOptions) -> Result<Stats, InputError> {
    let input = load(file, bytes, options.limits)?;
    if input.sniffed == Sniffed::Json {
        return read_stats_input(input);
    }
    Parser::new(file, options).parse(&input.content)
}

/// Reads several files of one run (one per process) and sums them. Each item is
/// `(file name, bytes)`; raw and `specdiff-stats` files may be mixed.
pub fn read_pystats<'a, I>(files: I, options: &PystatsOptions) -> Result<Stats, InputError>
where
    I: IntoIterator<Item = (&'a str, &'a [u8])>,
{
    let mut total = Stats::default();
    for (name, bytes) in files {
        let one = read_stats(name, bytes, options)?;
        total.merge(&one).map_err(|kind| InputError::new(name, kind))?;
    }
    Ok(total)
}

/// Numbered (3.11, 3.12) or named (3.13+) opcode keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Numbered,
    Named,
}

struct Parser<'a> {
    file: &'a str,
    options: &'a PystatsOptions,
    /// The style of the first opcode key and its line, so a mixture is reported precisely.
    style: Option<(Style, usize)>,
    table: Option<&'static OpcodeTable>,
    stats: Staged,
}

/// The counters while they are read: pairs in reading order, made the sorted maps of [`Stats`]
/// once at the end ([`collect_sorted`]). Inserting into those maps line by line would cost a
/// shift per key on a hostile file with its keys in reverse (quadratic); a `BTreeMap` would
/// cost the viewer's wasm a copy of its code per key type.
#[derive(Default)]
struct Staged {
    opcodes: Tally<String, StagedOp>,
    uops: Tally<String, StagedOp>,
    calls: Tally<String, u64>,
    objects: Tally<String, u64>,
    gc: Tally<u32, Tally<String, u64>>,
    other: Tally<String, u64>,
}

/// Pairs in reading order; a key repeats only where its lines are not together.
struct Tally<K, V>(Vec<(K, V)>);

impl<K, V> Default for Tally<K, V> {
    fn default() -> Self {
        Tally(Vec::new())
    }
}

impl<K: Ord, V: Default> Tally<K, V> {
    /// The value of `key` to update: the last pair's when it has that key (the counters of
    /// one instruction come one after the other), else a new one.
    fn slot(&mut self, key: K) -> &mut V {
        if self.0.last().is_none_or(|(last, _)| *last != key) {
            self.0.push((key, V::default()));
        }
        &mut self.0.last_mut().expect("just pushed").1
    }

    /// The sorted map, equal keys folded by `merge`.
    fn finish<W>(self, mut value: impl FnMut(V) -> W, mut merge: impl FnMut(&mut W, W)) -> Map<K, W> {
        collect_sorted(self.0.into_iter().map(|(k, v)| (k, value(v))).collect(), |a, b| merge(a, b))
    }
}

fn sum(a: &mut u64, b: u64) {
    *a = a.saturating_add(b);
}

impl Tally<String, u64> {
    fn counts(self) -> Map<String, u64> {
        self.finish(|v| v, sum)
    }
}

/// One instruction's counters while they are read: its maps staged like [`Staged`]'s.
#[derive(Default)]
struct StagedOp {
    /// The plain counters (its maps stay empty until [`StagedOp::finish`]).
    op: OpcodeStats,
    failure_kinds: Tally<u32, u64>,
    pairs: Tally<String, u64>,
    other: Tally<String, u64>,
}

impl StagedOp {
    fn finish(self) -> OpcodeStats {
        OpcodeStats {
            failure_kinds: self.failure_kinds.finish(|v| v, sum),
            pairs: self.pairs.counts(),
            other: self.other.counts(),
            ..self.op
        }
    }
}

impl Staged {
    fn finish(self) -> Stats {
        let ops = |t: Tally<String, StagedOp>| t.finish(StagedOp::finish, |a, b| a.add(&b));
        Stats {
            opcodes: ops(self.opcodes),
            uops: ops(self.uops),
            calls: self.calls.counts(),
            objects: self.objects.counts(),
            gc: self.gc.finish(Tally::counts, |a, b| crate::util::map::add_counts(a, &b)),
            other: self.other.counts(),
            ..Stats::default()
        }
    }
}

/// A short, quoted, one-line excerpt of `text` for an error message.
fn excerpt(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{:?}…", &text[..i]),
        None => format!("{text:?}"),
    }
}

/// The 1-based line number of byte offset `pos`.
fn line_of(content: &[u8], pos: usize) -> usize {
    content[..pos.min(content.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// `prefix` + inner + `]` → inner.
fn bracketed<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    text.strip_prefix(prefix)?.strip_suffix(']')
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, options: &'a PystatsOptions) -> Self {
        Parser { file, options, style: None, table: None, stats: Staged::default() }
    }

    fn bad(&self, line: usize, detail: String) -> InputError {
        InputError::new(self.file, InputErrorKind::BadStatsLine { line, detail })
    }

    /// Parses `content` (never empty: [`load`] refuses empty files).
    fn parse(mut self, content: &[u8]) -> Result<Stats, InputError> {
        if let Some(pos) = content.iter().position(|&b| b == 0) {
            return Err(self.bad(line_of(content, pos), "binary data (a NUL byte), not a pystats text file".into()));
        }
        let text = match std::str::from_utf8(content) {
            Ok(t) => t,
            Err(e) => return Err(self.bad(line_of(content, e.valid_up_to()), "not UTF-8 text".into())),
        };
        for (i, line) in text.split('\n').enumerate() {
            // `trim` also drops the `\r` of files that went through Windows.
            let line = line.trim();
            if !line.is_empty() {
                self.line(i + 1, line)?;
            }
        }
        let fmt = |(major, minor): (u32, u32)| format!("{major}.{minor}");
        let python = match (self.style, self.table) {
            (Some((Style::Numbered, _)), Some(t)) => Some(fmt(t.minor)),
            _ => self.options.python.map(fmt),
        };
        Ok(Stats { python, files: 1, ..self.stats.finish() })
    }

    fn line(&mut self, n: usize, line: &str) -> Result<(), InputError> {
        // Split at the LAST colon: the value is a plain integer, keys may in principle hold ':'.
        let Some(colon) = line.rfind(':') else {
            return Err(self.bad(n, format!("expected `key : value`, found {}", excerpt(line))));
        };
        let key = line[..colon].trim();
        let value_text = line[colon + 1..].trim();
        if key.is_empty() {
            return Err(self.bad(n, format!("no key before ':' in {}", excerpt(line))));
        }
        let value = self.value(n, key, value_text)?;
        if let Some(rest) = key.strip_prefix("opcode[") {
            let (op, counter) = self.split_op(n, key, rest)?;
            let name = self.opcode_name(n, op)?;
            let pair = match bracketed(counter, "pair_count[") {
                Some(next) => Some(self.opcode_name(n, next)?),
                None => None,
            };
            let mut entry = std::mem::take(self.stats.opcodes.slot(name));
            let r = self.counter(n, &mut entry, counter, pair, value);
            self.stats.opcodes.0.last_mut().expect("the slot just used").1 = entry;
            r
        } else if let Some(rest) = key.strip_prefix("uops[") {
            // Tier-2 micro-ops are always named (3.13+); no table lookup.
            let (op, counter) = self.split_op(n, key, rest)?;
            let pair = bracketed(counter, "pair_count[").map(str::to_string);
            let mut entry = std::mem::take(self.stats.uops.slot(op.to_string()));
            let r = self.counter(n, &mut entry, counter, pair, value);
            self.stats.uops.0.last_mut().expect("the slot just used").1 = entry;
            r
        } else {
            self.plain(key, value);
            Ok(())
        }
    }

    fn value(&self, n: usize, key: &str, text: &str) -> Result<u64, InputError> {
        if text.is_empty() {
            return Err(self.bad(n, format!("no value after {}", excerpt(key))));
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(n, format!("value {} of {} is not a non-negative integer", excerpt(text), excerpt(key))));
        }
        text.parse::<u64>().map_err(|_| self.bad(n, format!("value {} does not fit in 64 bits", excerpt(text))))
    }

    /// `X].counter` (after `opcode[`) → `(X, counter)`.
    fn split_op<'t>(&self, n: usize, key: &str, rest: &'t str) -> Result<(&'t str, &'t str), InputError> {
        let malformed = || self.bad(n, format!("expected `opcode[X].counter`, found {}", excerpt(key)));
        let close = rest.find(']').ok_or_else(malformed)?;
        let op = &rest[..close];
        let counter = rest[close + 1..].strip_prefix('.').ok_or_else(malformed)?;
        if op.is_empty() || counter.is_empty() {
            return Err(malformed());
        }
        Ok((op, counter))
    }

    /// The opname for an opcode reference: a number looked up in the version's table, or a
    /// name taken as it is.
    fn opcode_name(&mut self, n: usize, op: &str) -> Result<String, InputError> {
        let style = if op.bytes().all(|b| b.is_ascii_digit()) { Style::Numbered } else { Style::Named };
        match self.style {
            None => self.style = Some((style, n)),
            Some((first, first_line)) if first != style => {
                let (this, that) = match style {
                    Style::Numbered => ("numbers", "names"),
                    Style::Named => ("names", "numbers"),
                };
                return Err(self.bad(
                    n,
                    format!("this line {this} opcodes but line {first_line} {that} them (one file comes from one CPython)"),
                ));
            }
            Some(_) => {}
        }
        if style == Style::Named {
            if op.chars().any(char::is_whitespace) {
                return Err(self.bad(n, format!("opcode name {} contains white space", excerpt(op))));
            }
            return Ok(op.to_string());
        }
        let table = self.numbered_table(n)?;
        let (major, minor) = table.minor;
        let out_of_table = || {
            self.bad(
                n,
                format!(
                    "opcode number {} is outside the CPython {major}.{minor} table (0-{})",
                    excerpt(op),
                    table.by_number.len() - 1
                ),
            )
        };
        let number: usize = op.parse().map_err(|_| out_of_table())?;
        table.by_number.get(number).map(|s| s.to_string()).ok_or_else(out_of_table)
    }

    fn numbered_table(&mut self, n: usize) -> Result<&'static OpcodeTable, InputError> {
        if let Some(t) = self.table {
            return Ok(t);
        }
        let version = self.options.python.unwrap_or(DEFAULT_NUMBERED_VERSION);
        let table = match table_for(version) {
            Some(t) if !t.by_number.is_empty() => t,
            _ => {
                let (major, minor) = version;
                return Err(self.bad(
                    n,
                    format!(
                        "this file numbers opcodes, as CPython 3.11 and 3.12 do, but it was read as CPython {major}.{minor} (give 3.11 or 3.12)"
                    ),
                ));
            }
        };
        self.table = Some(table);
        Ok(table)
    }

    /// Applies one `opcode[X].<counter>` (or `uops[X].<counter>`) line.
    fn counter(
        &self,
        n: usize,
        entry: &mut StagedOp,
        counter: &str,
        pair: Option<String>,
        value: u64,
    ) -> Result<(), InputError> {
        let add = |slot: &mut u64| *slot = slot.saturating_add(value);
        if let Some(next) = pair {
            add(entry.pairs.slot(next));
            return Ok(());
        }
        let s = &mut entry.op.specialization;
        match counter {
            // CPython prints `specializable : 1` for family heads; the line's presence is the fact.
            "specializable" => entry.op.specializable = true,
            "execution_count" => add(&mut entry.op.execution_count),
            "specialization.success" => add(&mut s.success),
            "specialization.failure" => add(&mut s.failure),
            "specialization.hit" => add(&mut s.hit),
            "specialization.deferred" => add(&mut s.deferred),
            "specialization.miss" => add(&mut s.miss),
            "specialization.deopt" => add(&mut s.deopt),
            _ if counter.starts_with("specialization.failure_kinds[") => {
                let kind = bracketed(counter, "specialization.failure_kinds[")
                    .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|k| k.parse::<u32>().ok())
                    .ok_or_else(|| self.bad(n, format!("bad failure kind in {}", excerpt(counter))))?;
                add(entry.failure_kinds.slot(kind));
            }
            _ if counter.starts_with("pair_count") => {
                return Err(self.bad(n, format!("expected `pair_count[X]`, found {}", excerpt(counter))));
            }
            _ => add(entry.other.slot(counter.to_string())),
        }
        Ok(())
    }

    /// Counters that are not per instruction, grouped the way CPython's summarize_stats.py
    /// groups them (by key prefix).
    fn plain(&mut self, key: &str, value: u64) {
        let add = |slot: &mut u64| *slot = slot.saturating_add(value);
        if let Some((generation, name)) = gc_key(key) {
            add(self.stats.gc.slot(generation).slot(name.to_string()));
        } else if key.starts_with("Calls ") || key.starts_with("Frame") {
            add(self.stats.calls.slot(key.to_string()));
        } else if key.starts_with("Object ") {
            add(self.stats.objects.slot(key.to_string()));
        } else {
            add(self.stats.other.slot(key.to_string()));
        }
    }
}

/// `GC[1] object visits` → `(1, "object visits")`.
fn gc_key(key: &str) -> Option<(u32, &str)> {
    let rest = key.strip_prefix("GC[")?;
    let close = rest.find(']')?;
    let digits = &rest[..close];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = rest[close + 1..].trim();
    if name.is_empty() {
        return None;
    }
    Some((digits.parse().ok()?, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Stats, InputError> {
        parse_pystats("t.txt", text.as_bytes(), &PystatsOptions::default())
    }

    #[test]
    fn numbered_311_lines() {
        let s = parse(
            "opcode[93].specializable : 1\n    opcode[106].specialization.hit : 5\n\
             opcode[106].pair_count[1] : 2\n    opcode[106].specialization.failure_kinds[13] : 4\n\
             Calls to PyEval_EvalDefault: 7\nObject allocations: 3\nGC[2] collections: 1\nSomething new: 9\n",
        )
        .unwrap();
        assert_eq!(s.python.as_deref(), Some("3.11"));
        assert!(s.opcodes["FOR_ITER"].specializable);
        let la = &s.opcodes["LOAD_ATTR"];
        assert_eq!(la.specialization.hit, 5);
        assert_eq!(la.pairs["POP_TOP"], 2);
        assert_eq!(la.failure_kinds[&13], 4);
        assert_eq!(s.calls["Calls to PyEval_EvalDefault"], 7);
        assert_eq!(s.objects["Object allocations"], 3);
        assert_eq!(s.gc[&2]["collections"], 1);
        assert_eq!(s.other["Something new"], 9);
    }

    #[test]
    fn named_and_312() {
        let s = parse("opcode[LOAD_ATTR].pair_count[POP_TOP] : 3\nuops[_GUARD].execution_count : 2\n").unwrap();
        assert_eq!(s.python, None);
        assert_eq!(s.opcodes["LOAD_ATTR"].pairs["POP_TOP"], 3);
        assert_eq!(s.uops["_GUARD"].execution_count, 2);
        let o = PystatsOptions { python: Some((3, 12)), ..Default::default() };
        let s = parse_pystats("t.txt", b"opcode[122].execution_count : 1\n", &o).unwrap();
        assert_eq!(s.python.as_deref(), Some("3.12"));
        assert_eq!(s.opcodes.keys().collect::<Vec<_>>(), vec![crate::cpython::opcodes::opname_for_number((3, 12), 122).unwrap()]);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let msg = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(msg("opcode[1].execution_count : 1\nhello\n"), "t.txt: not a pystats file: line 2: expected `key : value`, found \"hello\"");
        assert_eq!(msg("opcode[1].execution_count : x1\n"), "t.txt: not a pystats file: line 1: value \"x1\" of \"opcode[1].execution_count\" is not a non-negative integer");
        assert_eq!(msg("opcode[1].execution_count : -1\n"), "t.txt: not a pystats file: line 1: value \"-1\" of \"opcode[1].execution_count\" is not a non-negative integer");
        assert_eq!(msg("opcode[300].execution_count : 1\n"), "t.txt: not a pystats file: line 1: opcode number \"300\" is outside the CPython 3.11 table (0-255)");
        assert_eq!(msg("opcode[99999999999999].execution_count : 1\n"), "t.txt: not a pystats file: line 1: opcode number \"99999999999999\" is outside the CPython 3.11 table (0-255)");
        assert_eq!(msg(" \n\n"), "t.txt: empty file");
        assert_eq!(msg("a : 1\n\0\0"), "t.txt: not a pystats file: line 2: binary data (a NUL byte), not a pystats text file");
        assert!(msg("a : 1\n\u{1}\u{2}\n").contains("line 2: expected `key : value`"));
        let e = parse_pystats("t.txt", b"a : 1\n\xff\xfe : 2", &PystatsOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "t.txt: not a pystats file: line 2: not UTF-8 text");
        assert!(msg("opcode[1].execution_count : 1\nopcode[POP_TOP].execution_count : 1\n")
            .contains("line 2: this line names opcodes but line 1 numbers them"));
        assert!(msg("opcode[1] : 1\n").contains("expected `opcode[X].counter`"));
        assert!(msg("opcode[1].specialization.failure_kinds[x] : 1\n").contains("bad failure kind"));
        assert!(msg("opcode[1].execution_count : 99999999999999999999999\n").contains("does not fit in 64 bits"));
        let o = PystatsOptions { python: Some((3, 13)), ..Default::default() };
        let e = parse_pystats("t.txt", b"opcode[1].execution_count : 1\n", &o).unwrap_err();
        assert!(e.to_string().contains("read as CPython 3.13 (give 3.11 or 3.12)"), "{e}");
    }

    #[test]
    fn several_files_sum() {
        let a: &[u8] = b"opcode[1].execution_count : 2\nCalls to PyEval_EvalDefault: 1\n";
        let b: &[u8] = b"opcode[1].execution_count : 3\nCalls to PyEval_EvalDefault: 1\n";
        let s = read_pystats([("a.txt", a), ("b.txt", b)], &PystatsOptions::default()).unwrap();
        assert_eq!(s.files, 2);
        assert_eq!(s.opcodes["POP_TOP"].execution_count, 5);
        assert_eq!(s.calls["Calls to PyEval_EvalDefault"], 2);
        let c: &[u8] = b"opcode[POP_TOP].execution_count : 3\n";
        let e = read_pystats([("a.txt", a), ("c.txt", c)], &PystatsOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("c.txt: cannot sum stats that use CPython 3.11 opcode numbers"), "{e}");
    }
}
