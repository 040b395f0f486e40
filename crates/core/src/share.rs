//! Share links: two runs (or a reduced form of them) packed into one URL-safe string that the
//! web viewer puts in its URL hash (`#share=s1.…`), so a diff can be pasted into a pull request.
//!
//! Format of a link payload, version 1:
//!
//! ```text
//! "s1." + base64url( raw DEFLATE( body ) )                       (base64url without padding)
//! body = "specdiff-share 1\n"
//!        <ShareNote as JSON> "\n"
//!        <byte length of the base dump, decimal> "\n" <base dump JSON>
//!        <byte length of the head dump, decimal> "\n" <head dump JSON>
//! ```
//!
//! The dumps are in the ordinary dump format (see `docs/dump-format.md`), usually reduced with
//! [`reduce`] to the code objects worth showing; a length of 0 means "no run on that side". The
//! [`ShareNote`] says how much was left out. Decoding reads each dump with the dump reader
//! (every check it makes applies), and limits the link length ([`MAX_LINK_CHARS`]) and the
//! decompressed size (the caller's [`ReadLimits`]).

use litemap::LiteMap;
use serde::{Deserialize, Serialize};

use crate::format::dump::{read_dump, to_json};
#[cfg(feature = "share-flate")]
use crate::format::input::read_within;
use crate::format::input::{check_size, InputError, InputErrorKind, ReadLimits};
use crate::model::dump::{CodeInfo, Dump, FileInfo, FORMAT_NAME, FORMAT_VERSION};

/// Prefix of every version-1 payload.
pub const PREFIX: &str = "s1.";

/// Longest payload [`decode`] accepts (2 MB: Chromium's URL limit is 2 MiB).
pub const MAX_LINK_CHARS: usize = 2_000_000;

/// Payloads longer than this do not fit in a GitHub comment (65,536 characters) together with
/// the rest of the URL; [`encode`] still produces them, callers should warn.
pub const COMMENT_FRIENDLY_CHARS: usize = 60_000;

/// The name errors are reported under.
pub const SOURCE_NAME: &str = "share link";

/// Everything a share link carries.
#[derive(Debug, Clone, PartialEq)]
pub struct SharePayload {
    /// The base run, when there is one.
    pub base: Option<Dump>,
    /// The head run, when there is one.
    pub head: Option<Dump>,
    /// What was left out.
    pub note: ShareNote,
}

/// How a payload was reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ShareNote {
    /// Code objects of the base dump before reduction.
    pub base_code_total: usize,
    /// Code objects of the head dump before reduction.
    pub head_code_total: usize,
    /// True when only some code objects were kept.
    pub reduced: bool,
    /// Optional free text (e.g. the function the link points at).
    #[serde(default)]
    pub comment: Option<String>,
}

const MAGIC: &str = "specdiff-share 1\n";

/// Packs `payload` into a link payload string (`"s1.…"`): [`pack`] of [`deflate`] of [`body`].
#[cfg(feature = "share-flate")]
pub fn encode(payload: &SharePayload) -> String {
    pack(&deflate(&body(payload)))
}

/// The uncompressed body of a link (see the module docs).
pub fn body(payload: &SharePayload) -> Vec<u8> {
    let mut body = MAGIC.as_bytes().to_vec();
    body.extend(serde_json::to_vec(&payload.note).expect("a ShareNote always serializes"));
    body.push(b'\n');
    for dump in [&payload.base, &payload.head] {
        let json = dump.as_ref().map(to_json).unwrap_or_default();
        body.extend(format!("{}\n", json.len()).as_bytes());
        body.extend(json);
    }
    body
}

/// Raw DEFLATE of a [`body`], at the best compression flate2 has.
#[cfg(feature = "share-flate")]
pub fn deflate(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(body).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

/// A link payload from the raw DEFLATE of a [`body`]. Any encoder's DEFLATE will do: the web
/// viewer uses the browser's `CompressionStream('deflate-raw')`, whose bytes differ from
/// [`deflate`]'s, and [`decode`] reads both.
pub fn pack(packed: &[u8]) -> String {
    let mut out = String::with_capacity(PREFIX.len() + packed.len() * 4 / 3 + 4);
    out.push_str(PREFIX);
    base64url_encode(packed, &mut out);
    out
}

/// Unpacks a link payload made by [`encode`]. Errors are one line, named [`SOURCE_NAME`].
#[cfg(feature = "share-flate")]
pub fn decode(text: &str, limits: ReadLimits) -> Result<SharePayload, InputError> {
    let packed = unpack(text)?;
    // Links compress ~5×; the buffer grows past that only while data comes, up to the limit.
    let reader = flate2::read::DeflateDecoder::new(packed.as_slice());
    match read_within(reader, packed.len().saturating_mul(8), limits.max_bytes) {
        Ok(Some(body)) => read_body(&body, limits),
        Ok(None) => Err(InputError::new(SOURCE_NAME, InputErrorKind::InflatedTooLarge { limit: limits.max_bytes })),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(cut_error()),
        Err(_) => Err(corrupt_error()),
    }
}

/// The first half of [`decode`]: the raw DEFLATE bytes a link payload carries, after the
/// checks of its length, version prefix and base64url. Callers without the `share-flate`
/// feature (the web viewer, which inflates with the browser's `DecompressionStream`) inflate
/// them themselves and hand the result to [`read_body`].
pub fn unpack(text: &str) -> Result<Vec<u8>, InputError> {
    let err = |kind| InputError::new(SOURCE_NAME, kind);
    let text = text.trim();
    if text.is_empty() {
        return Err(err(InputErrorKind::Empty));
    }
    check_size(SOURCE_NAME, text.len(), MAX_LINK_CHARS as u64)?;
    let Some(body) = text.strip_prefix(PREFIX) else {
        let version = text.split('.').next().unwrap_or("");
        let detail = if text.contains('.') && version.starts_with('s') {
            format!("unknown link version {version:?} (this specdiff reads \"s1\"; upgrade specdiff)")
        } else {
            "it does not start with \"s1.\"".to_string()
        };
        return Err(err(InputErrorKind::NotADump(detail)));
    };
    base64url_decode(body).map_err(|at| {
        err(InputErrorKind::NotADump(format!(
            "character {} is not base64url (was the link cut or edited?)",
            at + PREFIX.len() + 1
        )))
    })
}

/// The error for compressed data that stops early (a link cut when copied).
pub fn cut_error() -> InputError {
    InputError::new(SOURCE_NAME, InputErrorKind::Truncated("the link ends early (was it cut when copied?)".into()))
}

/// The error for compressed data that does not inflate.
pub fn corrupt_error() -> InputError {
    InputError::new(SOURCE_NAME, InputErrorKind::NotADump("corrupt compressed data (was the link edited?)".into()))
}

/// The second half of [`decode`]: reads an inflated link body (at most `limits.max_bytes`;
/// one byte more means it was larger).
pub fn read_body(body: &[u8], limits: ReadLimits) -> Result<SharePayload, InputError> {
    let err = |kind| InputError::new(SOURCE_NAME, kind);
    let cut = cut_error;
    check_size(SOURCE_NAME, body.len(), limits.max_bytes)?;
    let not_share = || err(InputErrorKind::NotADump("the content is not a specdiff share".into()));
    let rest = body.strip_prefix(MAGIC.as_bytes()).ok_or_else(not_share)?;
    let line = |rest: &[u8]| -> Option<(usize, usize)> {
        let nl = rest.iter().position(|&b| b == b'\n')?;
        Some((nl, nl + 1))
    };
    let (nl, skip) = line(rest).ok_or_else(cut)?;
    let note: ShareNote = serde_json::from_slice(&rest[..nl]).map_err(|_| not_share())?;
    let mut rest = &rest[skip..];
    let mut dumps = [None, None];
    for (i, side) in ["base", "head"].iter().enumerate() {
        let (nl, skip) = line(rest).ok_or_else(cut)?;
        let len: usize = std::str::from_utf8(&rest[..nl]).ok().and_then(|s| s.parse().ok()).ok_or_else(not_share)?;
        rest = &rest[skip..];
        if rest.len() < len {
            return Err(cut());
        }
        if len > 0 {
            dumps[i] = Some(read_dump(&format!("{SOURCE_NAME} ({side})"), &rest[..len], limits)?);
        }
        rest = &rest[len..];
    }
    let [base, head] = dumps;
    Ok(SharePayload { base, head, note })
}

/// A copy of `dump` with only the code objects for which `keep(index, code)` is true, and only
/// the strings, ops, files and source lines they use. Parents that are dropped become `None`.
pub fn reduce(dump: &Dump, mut keep: impl FnMut(usize, &CodeInfo) -> bool) -> Dump {
    let kept: Vec<usize> = (0..dump.code.len()).filter(|&i| keep(i, &dump.code[i])).collect();
    // Old index → new index, for code objects, ops and files (vectors: the indices are dense).
    let mut new_index: Vec<Option<u32>> = vec![None; dump.code.len()];
    for (n, &i) in kept.iter().enumerate() {
        new_index[i] = Some(n as u32);
    }

    let mut strings = Interner::new(dump);
    let mut ops: Vec<_> = Vec::new();
    let mut op_map: Vec<Option<u32>> = vec![None; dump.ops.len()];
    let mut map_op = |op: u32, ops: &mut Vec<_>| -> u32 {
        *op_map[op as usize].get_or_insert_with(|| {
            ops.push(dump.ops[op as usize].clone());
            (ops.len() - 1) as u32
        })
    };

    // Lines each file must keep: the span of every kept code object.
    let mut spans: LiteMap<u32, Vec<(u32, u32)>> = LiteMap::new();
    for &i in &kept {
        let c = &dump.code[i];
        let last = c.instructions.iter().filter_map(|x| x.line).max().unwrap_or(c.first_line);
        spans.entry(c.file).or_default().push((c.first_line.min(last), c.first_line.max(last)));
    }
    let mut files = Vec::new();
    let mut file_map: Vec<Option<u32>> = vec![None; dump.files.len()];
    for (&f, ranges) in &spans {
        let src = &dump.files[f as usize];
        let mut source = Vec::new();
        for (first, lines) in &src.source {
            // Split each run into the pieces inside some range.
            let mut current: Option<(u32, Vec<u32>)> = None;
            for (k, &s) in lines.iter().enumerate() {
                let line = first + k as u32;
                if ranges.iter().any(|&(a, b)| a <= line && line <= b) {
                    let idx = strings.get(dump, s);
                    match &mut current {
                        Some((_, v)) => v.push(idx),
                        None => current = Some((line, vec![idx])),
                    }
                } else if let Some(run) = current.take() {
                    source.push(run);
                }
            }
            if let Some(run) = current.take() {
                source.push(run);
            }
        }
        file_map[f as usize] = Some(files.len() as u32);
        files.push(FileInfo { path: src.path.clone(), module: src.module.clone(), source });
    }

    let mut code = Vec::with_capacity(kept.len());
    for &i in &kept {
        let c = &dump.code[i];
        let mut n = c.clone();
        n.file = file_map[c.file as usize].expect("the file of every kept code object is kept");
        n.module = strings.get(dump, c.module);
        n.qualname = strings.get(dump, c.qualname);
        n.name = strings.get(dump, c.name);
        n.owner = c.owner.map(|o| strings.get(dump, o));
        n.parent = c.parent.and_then(|p| new_index.get(p as usize).copied().flatten());
        for ins in &mut n.instructions {
            ins.op = map_op(ins.op, &mut ops);
            ins.argrepr = strings.get(dump, ins.argrepr);
            if let Some(ch) = &mut ins.churn {
                for s in &mut ch.seen {
                    *s = map_op(*s, &mut ops);
                }
            }
        }
        code.push(n);
    }

    Dump {
        format: FORMAT_NAME.to_string(),
        version: FORMAT_VERSION,
        generator: dump.generator.clone(),
        python: dump.python.clone(),
        run: dump.run.clone(),
        strings: strings.table,
        ops,
        files,
        code,
        pystats: dump.pystats.clone(),
    }
}

/// The reduced dump's string table: each string of the original that is used, once, in the
/// order first used (index 0 stays the empty string).
struct Interner {
    table: Vec<String>,
    /// Original string index → new one.
    index: Vec<Option<u32>>,
}

impl Interner {
    fn new(dump: &Dump) -> Self {
        let mut index = vec![None; dump.strings.len()];
        if let Some(first) = index.first_mut() {
            *first = Some(0);
        }
        Interner { table: vec![String::new()], index }
    }

    fn get(&mut self, dump: &Dump, s: u32) -> u32 {
        let table = &mut self.table;
        *self.index[s as usize].get_or_insert_with(|| {
            table.push(dump.str(s).to_string());
            (table.len() - 1) as u32
        })
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Appends the unpadded base64url form of `bytes` to `out`.
pub fn base64url_encode(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for k in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
}

/// Decodes unpadded (or padded) base64url; on error returns the index of the bad character.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, usize> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(i),
        } as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        // One dangling character cannot encode a byte.
        return Err(text.len() - 1);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::dump::{Churn, CodeKind, Instruction, OpInfo};

    fn sample() -> Dump {
        let strings: Vec<String> =
            ["", "__main__", "f", "g", "x", "def f(p):", "    return p.x", "def g():", "    pass", "h", "unused"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let ins = |offset, op, line| Instruction {
            offset,
            op,
            arg: Some(0),
            argrepr: 4,
            line: Some(line),
            pos: None,
            cache: vec![],
            counter: None,
            churn: None,
        };
        let code = |name, first_line, ins: Vec<Instruction>, parent| CodeInfo {
            file: 0,
            module: 1,
            qualname: name,
            name,
            first_line,
            kind: CodeKind::Function,
            parent,
            ran: true,
            owner: None,
            made_at: None,
            body: None,
            samples: (1, 2),
            line_samples: vec![],
            instructions: ins,
        };
        let mut g_ins = ins(0, 1, 4);
        g_ins.churn = Some(Churn { flips: 2, seen: vec![0, 2] });
        let mut dump = crate::format::builder::DumpBuilder::new("3.12.1").build();
        dump.python.executable = "/usr/bin/python3".into();
        dump.run.sampler.mode = "off".into();
        Dump {
            strings,
            ops: vec![
                OpInfo { name: "LOAD_ATTR".into(), family: "LOAD_ATTR".into(), specialized: false, counter: None },
                OpInfo { name: "RESUME".into(), family: "RESUME".into(), specialized: false, counter: None },
                OpInfo { name: "LOAD_ATTR_SLOT".into(), family: "LOAD_ATTR".into(), specialized: true, counter: None },
            ],
            files: vec![FileInfo {
                path: "prog.py".into(),
                module: Some("__main__".into()),
                source: vec![(1, vec![5, 6]), (3, vec![7, 8])],
            }],
            code: vec![
                code(2, 1, vec![ins(0, 0, 1), ins(2, 2, 2)], None),
                code(3, 3, vec![g_ins], Some(0)),
                code(9, 10, vec![], None),
            ],
            ..dump
        }
    }

    #[test]
    fn base64url_round_trips() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            let mut s = String::new();
            base64url_encode(&bytes, &mut s);
            assert!(!s.contains(['+', '/', '=']));
            assert_eq!(base64url_decode(&s).unwrap(), bytes);
        }
        assert_eq!(base64url_decode("ab*d"), Err(2));
    }

    #[test]
    fn encode_decode_round_trip() {
        let d = sample();
        let p = SharePayload { base: Some(d.clone()), head: Some(d), note: ShareNote::default() };
        let link = encode(&p);
        assert!(link.starts_with(PREFIX));
        assert_eq!(decode(&link, ReadLimits::default()).unwrap(), p);
    }

    #[test]
    fn links_from_any_deflate_encoder_decode() {
        // The web viewer packs links compressed by the browser (zlib's DEFLATE, not flate2's):
        // other bytes, the same payload.
        use std::io::Write;
        let d = sample();
        let p = SharePayload { base: Some(d.clone()), head: Some(d), note: ShareNote::default() };
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&body(&p)).unwrap();
        let other = pack(&enc.finish().unwrap());
        assert_ne!(other, encode(&p));
        assert_eq!(decode(&other, ReadLimits::default()).unwrap(), p);
        // A link made by Chromium's CompressionStream('deflate-raw') from the demo pair
        // (tests/fixtures/share/, see its README).
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/share");
        let link = std::fs::read_to_string(format!("{dir}/demo-chromium.link")).unwrap();
        let p = decode(&link, ReadLimits::default()).unwrap();
        let demo = |f: &str| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f;
            crate::format::dump::read_dump(f, &std::fs::read(path).unwrap(), ReadLimits::default()).unwrap()
        };
        assert_eq!(p.base, Some(demo("base.json")));
        assert_eq!(p.head, Some(demo("head.json")));
        assert_ne!(link.trim(), encode(&p), "the browser's DEFLATE differs from flate2's");
    }

    #[test]
    fn reduce_keeps_only_what_is_used() {
        let d = sample();
        let r = reduce(&d, |_, c| d.str(c.qualname) == "g");
        assert_eq!(r.code.len(), 1);
        assert_eq!(r.code[0].parent, None, "dropped parent becomes None");
        assert_eq!(r.str(r.code[0].qualname), "g");
        assert!(!r.strings.iter().any(|s| s == "unused" || s == "def f(p):"));
        assert_eq!(r.files[0].source, vec![(3, vec![r.strings.iter().position(|s| s == "def g():").unwrap() as u32, r.strings.iter().position(|s| s == "    pass").unwrap() as u32])]);
        assert_eq!(r.source_line(0, 4), Some("    pass"));
        let ch = r.code[0].instructions[0].churn.as_ref().unwrap();
        assert_eq!(ch.seen.iter().map(|&o| r.ops[o as usize].name.as_str()).collect::<Vec<_>>(), ["LOAD_ATTR", "LOAD_ATTR_SLOT"]);
        // The reduced dump is itself a valid dump.
        crate::format::dump::read_dump("r.json", &crate::format::dump::to_json(&r), ReadLimits::default()).unwrap();
        // Keeping a child and its parent keeps the link.
        let r = reduce(&d, |_, c| d.str(c.qualname) != "h");
        assert_eq!(r.code[1].parent, Some(0));
    }

    #[test]
    fn bad_links_get_clear_messages() {
        let l = ReadLimits::default();
        let msg = |s: &str| decode(s, l).unwrap_err().to_string();
        assert_eq!(msg(""), "share link: empty file");
        assert!(msg("hello").contains("does not start with \"s1.\""), "{}", msg("hello"));
        assert!(msg("s9.AAAA").contains("unknown link version \"s9\""), "{}", msg("s9.AAAA"));
        assert!(msg("s1.ab$d").contains("character 6 is not base64url"), "{}", msg("s1.ab$d"));
        let p = SharePayload { base: Some(sample()), head: None, note: ShareNote::default() };
        let link = encode(&p);
        let cut = &link[..link.len() / 2];
        assert!(msg(cut).contains("ends early") || msg(cut).contains("corrupt"), "{}", msg(cut));
        let tiny = ReadLimits { max_bytes: 100 };
        assert!(decode(&link, tiny).unwrap_err().to_string().contains("too large"));
        // Valid compression of something that is not a share.
        use std::io::Write;
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(b"{\"x\":1}").unwrap();
        let mut s = PREFIX.to_string();
        base64url_encode(&enc.finish().unwrap(), &mut s);
        assert!(msg(&s).contains("not a specdiff share"), "{}", msg(&s));
    }
}
