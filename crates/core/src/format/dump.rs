//! The dump reader and writer: a dump file (`docs/dump-format.md`) to a [`Dump`] and back.
//! Reading checks everything a later stage relies on (types, table indices), so the rest of
//! the crate can index the tables without re-checking.

use crate::format::document::{load, DocumentKind};
use crate::format::dump_scan::scan_dump;
use crate::format::input::{InputError, InputErrorKind, ReadLimits};
use crate::model::dump::{Dump, FORMAT_NAME, FORMAT_VERSION};

/// Dumps, to the document reader.
static DUMP: DocumentKind = DocumentKind {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    raw_pystats: Some("this is a raw pystats file (load it as stats, not as a dump)"),
    others: &[],
};

/// Reads a dump from `bytes` (plain or gzip JSON). `file` names it in error messages.
pub fn read_dump(file: &str, bytes: &[u8], limits: ReadLimits) -> Result<Dump, InputError> {
    let document = load(file, bytes, limits)?.json(&DUMP)?;
    // The fast path: a scanner for the canonical shape `specdiff dump` writes
    // (src/format/dump_scan.rs). Anything else, and every error, goes through a plain typed
    // parse; when that fails, the JSON path of the bad field is found from the error's position
    // (tracking the path of every value while parsing would cost about as much as the parse
    // itself, and a second copy of the deserialization code).
    let dump: Dump = match scan_dump(document.content()) {
        Some(d) => d,
        None => document.parse()?,
    };
    document.check_parsed(&dump.format, dump.version)?;
    validate(&dump).map_err(|kind| document.error(kind))?;
    Ok(dump)
}

/// The checks [`read_dump`] makes of a dump built some other way than from its JSON (a
/// share link's packed dump): its format name and version, and every table index.
pub(crate) fn check_built(dump: &Dump) -> Result<(), InputErrorKind> {
    DUMP.judge_text(&dump.format, Some(dump.version))?;
    validate(dump)
}

/// Checks what `docs/dump-format.md` refuses (an interpreter other than CPython 3.11 or later)
/// and every table index, so consumers can index without checks.
fn validate(d: &Dump) -> Result<(), InputErrorKind> {
    let bad = |path: String, detail: String| Err(InputErrorKind::BadField { path, detail });
    if d.python.implementation != "cpython" {
        let found = &d.python.implementation;
        return bad("python.implementation".into(), format!("{found:?}: only CPython dumps are read (\"cpython\")"));
    }
    if d.python.minor_version() < (3, 11) || d.python.version_info.0 != 3 {
        let (major, minor) = d.python.minor_version();
        return bad("python.version_info".into(), format!("{major}.{minor}: specdiff reads CPython 3.11 and later"));
    }
    let (ns, no, nf, nc) = (d.strings.len(), d.ops.len(), d.files.len(), d.code.len());
    if d.strings.first().map(String::as_str) != Some("") {
        return bad("strings[0]".into(), "must be the empty string".into());
    }
    for (fi, f) in d.files.iter().enumerate() {
        let mut previous_end = 0u64;
        for (ri, (first, lines)) in f.source.iter().enumerate() {
            if (*first as u64) < previous_end {
                return bad(format!("files[{fi}].source[{ri}]"), "runs overlap or are not ascending".into());
            }
            previous_end = *first as u64 + lines.len() as u64;
            // Readers number a run's lines from `first` in u32 (the line numbers' type).
            if previous_end > u64::from(u32::MAX) + 1 {
                return bad(format!("files[{fi}].source[{ri}]"), format!("lines run past the largest line number ({})", u32::MAX));
            }
            if let Some(j) = lines.iter().position(|&s| s as usize >= ns) {
                return bad(
                    format!("files[{fi}].source[{ri}][1][{j}]"),
                    format!("string index {} out of range ({ns} strings)", lines[j]),
                );
            }
        }
    }
    for (ci, c) in d.code.iter().enumerate() {
        let owner = c.owner.map(|o| ("owner", o));
        for (name, v) in [("module", c.module), ("qualname", c.qualname), ("name", c.name)].into_iter().chain(owner) {
            if v as usize >= ns {
                return bad(format!("code[{ci}].{name}"), format!("string index {v} out of range ({ns} strings)"));
            }
        }
        if c.file as usize >= nf {
            return bad(format!("code[{ci}].file"), format!("file index {} out of range ({nf} files)", c.file));
        }
        if let Some(p) = c.parent {
            if p as usize >= nc || p as usize == ci {
                return bad(format!("code[{ci}].parent"), format!("code index {p} is not another code object"));
            }
        }
        for (ii, ins) in c.instructions.iter().enumerate() {
            let at = |k: usize| format!("code[{ci}].instructions[{ii}][{k}]");
            if ins.op as usize >= no {
                return bad(at(1), format!("op index {} out of range ({no} ops)", ins.op));
            }
            if ins.argrepr as usize >= ns {
                return bad(at(3), format!("string index {} out of range ({ns} strings)", ins.argrepr));
            }
            if let Some(ch) = &ins.churn {
                if let Some(&s) = ch.seen.iter().find(|&&s| s as usize >= no) {
                    return bad(at(8), format!("op index {s} out of range ({no} ops)"));
                }
            }
        }
        if let Some((path, detail)) = bad_executor(ci, c, ns) {
            return bad(path, detail);
        }
        if let Some(offsets) = &c.inlined {
            // One way to write each set: what a share link packs as deltas must read back.
            if offsets.is_empty() || offsets.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!("code[{ci}].inlined"), "offsets not ascending, or none (leave the key out)".to_string());
            }
        }
    }
    Ok(())
}

/// The first table index of a code object's executors out of range: a uop's or an exit's
/// name past the strings, a uop's exit past its executor's exits.
fn bad_executor(ci: usize, c: &crate::model::CodeInfo, ns: usize) -> Option<(String, String)> {
    for (ei, e) in c.executors.iter().flatten().enumerate() {
        let at = |what: String| format!("code[{ci}].executors[{ei}].{what}");
        let exits = e.exits.as_ref().map_or(0, Vec::len);
        for (ui, u) in e.uops.iter().enumerate() {
            if u.name as usize >= ns {
                return Some((at(format!("uops[{ui}][0]")), format!("string index {} out of range ({ns} strings)", u.name)));
            }
            for (k, stub) in [(3, u.exit), (4, u.error)] {
                if let Some(x) = stub.filter(|&x| x as usize >= exits) {
                    return Some((at(format!("uops[{ui}][{k}]")), format!("exit index {x} out of range ({exits} exits)")));
                }
            }
        }
        for (xi, x) in e.exits.iter().flatten().enumerate() {
            if x.1 as usize >= ns {
                return Some((at(format!("exits[{xi}][1]")), format!("string index {} out of range ({ns} strings)", x.1)));
            }
        }
    }
    None
}

/// Serializes a dump as compact JSON.
pub fn to_json(dump: &Dump) -> Vec<u8> {
    serde_json::to_vec(dump).expect("a Dump always serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    fn message(bytes: &[u8]) -> String {
        read_dump("d.json", bytes, ReadLimits::default()).unwrap_err().to_string()
    }

    /// Reading succeeds on the fast path; every failure comes back with the slow path's message
    /// (JSON path of the bad field, line of a syntax error …).
    #[test]
    fn errors_name_the_json_path() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("__main__", "f", 1).ins("LOAD_FAST", "p", 2).ins("LOAD_ATTR_SLOT", "x", 2).finish();
        let dump = b.build();
        let good = to_json(&dump);
        assert_eq!(read_dump("d.json", &good, ReadLimits::default()).unwrap(), dump);
        let text = String::from_utf8(good).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();

        let mut bad = v.clone();
        bad["code"][0]["instructions"][0][1] = "LOAD_ATTR".into();
        assert_eq!(
            message(&serde_json::to_vec(&bad).unwrap()),
            "d.json: bad field code[0].instructions[0][1]: invalid type: string \"LOAD_ATTR\", expected u32"
        );
        let mut bad = v.clone();
        bad["run"]["sampler"]["samples"] = (-1).into();
        assert_eq!(
            message(&serde_json::to_vec(&bad).unwrap()),
            "d.json: bad field run.sampler.samples: invalid value: integer `-1`, expected u64"
        );
        let mut bad = v.clone();
        bad.as_object_mut().unwrap().remove("ops");
        assert_eq!(message(&serde_json::to_vec(&bad).unwrap()), "d.json: bad field (top level): missing field `ops`");
        v["format"] = "other".into();
        assert_eq!(
            message(&serde_json::to_vec(&v).unwrap()),
            "d.json: not a specdiff dump: \"format\" is \"other\", expected \"specdiff-dump\""
        );
        // Trailing characters after the object.
        assert_eq!(
            message(format!("{text} x").as_bytes()),
            format!("d.json: not JSON: syntax error at line 1 column {}", text.len() + 2)
        );
        let cut = &text[..text.len() / 2];
        assert!(message(cut.as_bytes()).starts_with("d.json: truncated: the JSON ends early (line 1)"));
        assert_eq!(message(b"{\"a\": [1, 2}"), "d.json: not JSON: syntax error at line 1 column 12");
        assert_eq!(message(b"{\"format\": 1}"), "d.json: bad field format: invalid type: integer `1`, expected a string");
    }

    /// Issue 31: duplicate keys, bytes that are not UTF-8, another interpreter or format
    /// version 0 were read, or refused with a message that named something else.
    #[test]
    fn what_the_format_refuses_is_named() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("__main__", "f", 1).ins("LOAD_FAST", "p", 2).finish();
        let text = String::from_utf8(to_json(&b.build())).unwrap();
        let with = |at: &str, insert: &str| {
            let i = text.find(at).unwrap() + at.len();
            format!("{}{insert}{}", &text[..i], &text[i..])
        };
        assert_eq!(message(with("{", "\"format\":\"x\",").as_bytes()), "d.json: duplicate key `format` at the top level");
        assert_eq!(message(with("\"code\":[{", "\"file\":0,").as_bytes()), "d.json: duplicate key `file` in code[0]");
        let mut latin = text.clone().into_bytes();
        latin.insert(text.find("__main__").unwrap(), 0xe9);
        let at = text.find("__main__").unwrap() + 1;
        assert_eq!(message(&latin), format!("d.json: not UTF-8 (byte {at} is 0xe9)"));
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["version"] = 0.into();
        let version0 = "d.json: bad field version: 0 is not a format version (versions start at 1)";
        assert_eq!(message(&serde_json::to_vec(&v).unwrap()), version0);
        v["version"] = 1.into();
        v["python"]["implementation"] = "pypy".into();
        let pypy = "d.json: bad field python.implementation: \"pypy\": only CPython dumps are read (\"cpython\")";
        assert_eq!(message(&serde_json::to_vec(&v).unwrap()), pypy);
        v["python"]["implementation"] = "cpython".into();
        v["python"]["version_info"][1] = 10.into();
        let old = "d.json: bad field python.version_info: 3.10: specdiff reads CPython 3.11 and later";
        assert_eq!(message(&serde_json::to_vec(&v).unwrap()), old);
    }

    #[test]
    fn source_runs_end_at_the_largest_line_number() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("__main__", "f", 2).ins("LOAD_FAST", "p", 2).finish();
        b.source("__main__", 2, "def f(p):");
        let mut v: serde_json::Value = serde_json::from_slice(&to_json(&b.build())).unwrap();
        let line = |v: &mut serde_json::Value, first: u64| v["files"][0]["source"][0][0] = first.into();
        line(&mut v, u64::from(u32::MAX));
        assert!(read_dump("d.json", &serde_json::to_vec(&v).unwrap(), ReadLimits::default()).is_ok(), "one line at the largest number");
        v["files"][0]["source"][0][1].as_array_mut().unwrap().push(1.into());
        assert_eq!(
            message(&serde_json::to_vec(&v).unwrap()),
            format!("d.json: bad field files[0].source[0]: lines run past the largest line number ({})", u32::MAX)
        );
    }
}
