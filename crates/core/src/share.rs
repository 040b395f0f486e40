//! Share links: two runs (or a reduced form of them) packed into one URL-safe string that the
//! web viewer puts in its URL hash (`#share=s2.…`), so a diff can be pasted into a pull request.
//!
//! Format of a link payload, version 2 (version 1, `s1.` / `specdiff-share 1`, still opens):
//!
//! ```text
//! "s2." + base64url( raw DEFLATE( body ) )                       (base64url without padding)
//! body = "specdiff-share 2\n"
//!        <ShareNote as JSON> "\n"
//!        <byte length of the base dump, decimal> "\n" <base dump JSON>
//!        <byte length of the head dump, decimal> "\n" <head dump JSON>
//! ```
//!
//! The dumps are in the ordinary dump format (see `docs/dump-format.md`), always through
//! [`reduce`] (to the code objects worth showing, without what no view reads); a length of 0
//! means "no run on that side". The [`ShareNote`] says how much was left out and carries the
//! sender's run-level numbers ([`SharedSummary`], written by `summary.rs`). What a CLI link
//! carries under its cap is `pick.rs`'s choice. Decoding reads each dump with the dump reader
//! (every check it makes applies), and limits the link length ([`MAX_LINK_CHARS`]) and the
//! decompressed size (the caller's [`ReadLimits`], at most [`MAX_BODY_BYTES`]).

use serde::{Deserialize, Serialize};

use crate::format::dump::{read_dump, to_json};
#[cfg(feature = "share-flate")]
use crate::format::input::read_within;
use crate::format::input::{check_size, InputError, InputErrorKind, ReadLimits};
use crate::model::dump::Dump;
use crate::report::types::{RunRef, RunSummary};

mod pick;
mod reduce;
mod summary;
#[cfg(feature = "share-flate")]
pub use pick::{link_payload, LinkOptions};
pub use pick::{left_out_sentence, shared_summary, wanted};
pub use reduce::{redact, reduce, short_path};

/// The link version [`encode`] writes.
pub const VERSION: u32 = 2;

/// Prefix of the payloads [`encode`] writes (version 2).
pub const PREFIX: &str = "s2.";

/// Prefix of version-1 payloads (specdiff before share links carried the sender's summary);
/// they still open.
pub const PREFIX_V1: &str = "s1.";

/// Inflated body [`decode`] accepts at most, whatever the caller's limits: 64 MB, far above
/// any link a browser takes (2 MB of text inflates to ~10 MB of dump JSON), far below what
/// stalls a tab; a deflate bomb stops here.
pub const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

/// Longest payload [`decode`] accepts (2 MB: Chromium's URL limit is 2 MiB).
pub const MAX_LINK_CHARS: usize = 2_000_000;

/// Payloads longer than this do not fit in a GitHub comment (65,536 characters) together with
/// the rest of the URL; [`encode`] still produces them, callers should warn.
pub const COMMENT_FRIENDLY_CHARS: usize = 60_000;

/// What a typical pull request's link should stay under (20 changed functions of a real
/// program): chat programs and issue trackers take it. Whole dumps travel only below this.
pub const TYPICAL_CHARS: usize = 8_192;

/// The default hard cap of a link: past it the least important changed functions are left
/// out (`--link-cap` in the CLI).
pub const DEFAULT_CAP_CHARS: usize = 32_768;

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
    /// The sender's run-level numbers (version 2): a reduced link shows these, not numbers
    /// recomputed from the kept code objects.
    ///
    /// The viewer's wasm reads it but does not write it (`summary.rs`'s writer does not fit
    /// its size budget): links made by the page's share button carry no summary, and a view
    /// opened from them recomputes the overview from the runs the link carries.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", serde(skip_serializing))]
    pub summary: Option<SharedSummary>,
    /// Changed functions the sender had that the link leaves out (past the cap).
    #[serde(default)]
    pub left_out: usize,
    /// True when source text was left out and paths shortened ([`redact`]).
    #[serde(default)]
    pub redacted: bool,
}

/// The run-level part of the sender's diff report: what the overview shows. In the note it is
/// two flat lists (`summary.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct SharedSummary {
    /// The base run as the report names it (code objects, samples …).
    pub base: RunRef,
    /// The head run.
    pub head: RunRef,
    /// Whole-run numbers (shares, counts, families).
    pub summary: RunSummary,
}

const MAGIC: &str = "specdiff-share 2\n";
const MAGIC_V1: &str = "specdiff-share 1\n";

/// Packs `payload` into a link payload string (`"s2.…"`): [`pack`] of [`deflate`] of [`body`].
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
    let limits = body_limits(limits);
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
    let Some(body) = text.strip_prefix(PREFIX).or_else(|| text.strip_prefix(PREFIX_V1)) else {
        let version = text.split('.').next().unwrap_or("");
        // Said as such (not "not a dump"): the reader should upgrade, not doubt the link. A
        // fixed sentence: formatting the version number costs wasm bytes for nothing.
        let newer = version.strip_prefix('s').and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n > VERSION as u64);
        return Err(err(if newer && text.contains('.') {
            InputErrorKind::Incompatible("made by a newer specdiff: upgrade specdiff to open it".into())
        } else {
            InputErrorKind::NotADump("it does not start with \"s2.\" (or \"s1.\")".into())
        }));
    };
    base64url_decode(body).map_err(|at| {
        err(InputErrorKind::NotADump(format!(
            "character {} is not base64url (was the link cut or edited?)",
            at + PREFIX.len() + 1
        )))
    })
}

/// The caller's limits, lowered to [`MAX_BODY_BYTES`]: what an inflater of a link body must
/// stop at (the web viewer's `DecompressionStream` loop too).
pub fn body_limits(limits: ReadLimits) -> ReadLimits {
    ReadLimits { max_bytes: limits.max_bytes.min(MAX_BODY_BYTES) }
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
    let rest = body.strip_prefix(MAGIC.as_bytes()).or_else(|| body.strip_prefix(MAGIC_V1.as_bytes())).ok_or_else(not_share)?;
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
    use crate::model::dump::{Churn, CodeInfo, CodeKind, FileInfo, Instruction, OpInfo};

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
    fn version_1_links_still_open_and_version_2_carries_the_summary() {
        let d = sample();
        let note = ShareNote { left_out: 3, redacted: true, ..ShareNote::default() };
        let p = SharePayload { base: Some(d.clone()), head: None, note };
        // A version-1 link: the old magic and prefix, a note without the new fields.
        let mut v1 = body(&p);
        let old_note = br#"{"base_code_total":0,"head_code_total":0,"reduced":false,"comment":null}"#;
        let note_end = v1.iter().skip(MAGIC.len()).position(|&b| b == b'\n').unwrap() + MAGIC.len();
        v1.splice(..note_end, MAGIC_V1.bytes().chain(old_note.iter().copied()));
        let mut link = PREFIX_V1.to_string();
        base64url_encode(&deflate(&v1), &mut link);
        let back = decode(&link, ReadLimits::default()).unwrap();
        assert_eq!((back.base, back.note), (Some(d), ShareNote::default()));
        // Version 2 keeps the new fields.
        assert_eq!(decode(&encode(&p), ReadLimits::default()).unwrap().note, p.note);
        assert_eq!(left_out_sentence(&p.note).unwrap(), "leaves out 3 changed functions (the least important, to stay short); carries no source text and short paths (redacted)");
    }

    #[test]
    fn deflate_bombs_stop_at_the_body_limit() {
        // 200 MB of zeros compress to ~200 KB; the decoder stops at 64 MB whatever the limits.
        let zeros = vec![0u8; 200 * 1024 * 1024];
        let link = pack(&deflate(&zeros));
        let e = decode(&link, ReadLimits { max_bytes: u64::MAX }).unwrap_err().to_string();
        assert!(e.contains("64") && !e.contains('\n'), "{e}");
    }

    /// The demo pair recorded in `www/demo` (real CPython 3.12 runs of `examples/demo`).
    fn demo_pair() -> (Dump, Dump) {
        let read = |f: &str| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f;
            read_dump(f, &std::fs::read(path).unwrap(), ReadLimits::default()).unwrap()
        };
        (read("base.json"), read("head.json"))
    }

    fn demo_report(base: &Dump, head: &Dump) -> crate::report::DiffReport {
        crate::report::diff_dumps(base, head, &crate::report::DiffOptions::default()).unwrap()
    }

    #[test]
    fn a_link_carries_the_senders_numbers_and_the_same_changed_functions() {
        let (base, head) = demo_pair();
        let report = demo_report(&base, &head);
        let (link, note) = link_payload(&base, &head, &report, LinkOptions { cap: DEFAULT_CAP_CHARS, redact: false });
        assert!(link.starts_with(PREFIX) && link.len() <= DEFAULT_CAP_CHARS, "{}", link.len());
        let p = decode(&link, ReadLimits::default()).unwrap();
        assert_eq!(p.note, note);
        assert_eq!(note.left_out, 0);
        assert_eq!(note.summary.as_ref().unwrap(), &shared_summary(&report));
        // The carried dumps diff to the same changed functions, sites and kinds.
        let again = demo_report(p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
        type Sites = Vec<(Option<u32>, Option<u32>, String)>;
        let rows = |r: &crate::report::DiffReport| -> Vec<(String, Sites)> {
            r.functions
                .iter()
                .map(|f| (f.qualname.clone(), f.changes.iter().map(|c| (c.base_offset, c.head_offset, format!("{:?}", c.kind))).collect()))
                .collect()
        };
        // (Functions changed by a code edit alone are not carried: their sites were added or
        // removed, not specialized differently.)
        let mut sent = report.clone();
        sent.functions.retain(|f| f.counts.changed_sites() > f.counts.added + f.counts.removed);
        assert_eq!(rows(&again), rows(&sent));
        assert!(rows(&sent).len() >= 3);
    }

    #[test]
    fn past_the_cap_the_least_important_functions_are_left_out() {
        let (base, head) = demo_pair();
        let report = demo_report(&base, &head);
        let all = wanted(&report);
        assert!(all.len() >= 3, "the demo changes several functions: {}", all.len());
        // A cap between the link of one function and the link of all of them.
        let one = link_payload(&base, &head, &report, LinkOptions { cap: 1, redact: false });
        assert_eq!(one.1.left_out, all.len(), "below any link: nothing kept, all counted");
        let full = link_payload(&base, &head, &report, LinkOptions { cap: usize::MAX, redact: false }).0;
        let cap = full.len() - 1;
        let (link, note) = link_payload(&base, &head, &report, LinkOptions { cap, redact: false });
        assert!(link.len() <= cap, "{} > {cap}", link.len());
        assert!(note.reduced && note.left_out >= 1 && note.left_out < all.len(), "{note:?}");
        let p = decode(&link, ReadLimits::default()).unwrap();
        let kept = all.len() - note.left_out;
        // The functions kept are the first ones of the report's order (the most important).
        let names = |d: &Dump| d.code.iter().map(|c| d.str(c.qualname).to_string()).collect::<Vec<_>>();
        let head_kept = names(p.head.as_ref().unwrap());
        for &(_, h) in &all[..kept] {
            assert!(head_kept.contains(&head.str(head.code[h as usize].qualname).to_string()), "{head_kept:?}");
        }
        // The summary is the sender's whole-run one, not recomputed from what was kept.
        let s = p.note.summary.unwrap();
        assert_eq!(s.head.code_objects as usize, head.code.len());
        assert!(head.code.len() > p.head.unwrap().code.len());
        let sentence = left_out_sentence(&note).unwrap();
        assert!(sentence.contains(&format!("leaves out {} changed function", note.left_out)), "{sentence}");
    }

    #[test]
    fn redacted_links_carry_no_source_text_or_long_paths() {
        let (base, head) = demo_pair();
        let report = demo_report(&base, &head);
        let (link, note) = link_payload(&base, &head, &report, LinkOptions { cap: DEFAULT_CAP_CHARS, redact: true });
        assert!(note.redacted);
        let p = decode(&link, ReadLimits::default()).unwrap();
        for d in [p.base.unwrap(), p.head.unwrap()] {
            assert!(d.files.iter().all(|f| f.source.is_empty() && !f.path.contains('/')), "{:?}", d.files);
            let text = String::from_utf8(to_json(&d)).unwrap();
            assert!(!text.contains(&base.run.cwd) || base.run.cwd.is_empty(), "the working directory leaks");
        }
    }

    #[test]
    fn hostile_links_give_one_line_errors() {
        let l = ReadLimits::default();
        let (base, head) = demo_pair();
        let report = demo_report(&base, &head);
        let link = link_payload(&base, &head, &report, LinkOptions { cap: DEFAULT_CAP_CHARS, redact: false }).0;
        let one_line = |r: Result<SharePayload, InputError>| match r {
            Ok(_) => None,
            Err(e) => {
                let m = e.to_string();
                assert!(m.starts_with("share link") && !m.contains('\n'), "{m}");
                Some(m)
            }
        };
        // Cut anywhere: never a panic, never a payload.
        for cut in (PREFIX.len()..link.len()).step_by(97) {
            assert!(one_line(decode(&link[..cut], l)).is_some(), "cut at {cut} decoded");
        }
        // Altered characters: an error, or (when the change lands where DEFLATE does not
        // notice) a payload the dump reader accepted; never a panic.
        let bytes = link.as_bytes();
        for at in (PREFIX.len()..link.len()).step_by(53) {
            let mut b = bytes.to_vec();
            b[at] = if b[at] == b'A' { b'B' } else { b'A' };
            let _ = one_line(decode(std::str::from_utf8(&b).unwrap(), l));
        }
        // Huge or impossible counts in the body.
        let forged = |dumps: &str| {
            let mut body = MAGIC.as_bytes().to_vec();
            body.extend(b"{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false}\n");
            body.extend(dumps.as_bytes());
            pack(&deflate(&body))
        };
        let m = one_line(decode(&forged("99999999999999999999999\n{}"), l)).unwrap();
        assert!(m.contains("not a specdiff share"), "{m}");
        let m = one_line(decode(&forged("4000000000\n{}"), l)).unwrap();
        assert!(m.contains("ends early"), "{m}");
        let m = one_line(decode(&forged("-1\n"), l)).unwrap();
        assert!(m.contains("not a specdiff share"), "{m}");
        // A run summary whose lists do not fit together, or with a count past u32.
        for summary in [r#"["a"]"#, r#"["a","b","c","d","e","f","1"]"#, r#"[1,2]"#] {
            let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{summary}}}\n0\n0\n");
            let m = one_line(decode(&pack(&deflate(body.as_bytes())), l)).unwrap();
            assert!(m.contains("not a specdiff share"), "{m}");
        }
        let (_, note) = link_payload(&base, &head, &report, LinkOptions { cap: DEFAULT_CAP_CHARS, redact: false });
        let mut fields = serde_json::to_value(&note.summary).unwrap();
        let ints = fields.as_array_mut().unwrap();
        let at = ints.len() - 1;
        ints[at] = serde_json::json!("99999999999999999999999");
        let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{fields}}}\n0\n0\n");
        assert!(one_line(decode(&pack(&deflate(body.as_bytes())), l)).unwrap().contains("not a specdiff share"));
        // A similarity that is not a number (it would not equal itself when read back).
        let mut fields = serde_json::to_value(&note.summary).unwrap();
        let strings = 6 + note.summary.as_ref().unwrap().summary.families.len();
        // (The similarity is the 28th integer: 8 of the runs, 5 counts, 10 kinds, 4 share counts.)
        fields.as_array_mut().unwrap()[strings + 27] = serde_json::json!(f64::NAN.to_bits().to_string());
        let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{fields}}}\n0\n0\n");
        assert!(one_line(decode(&pack(&deflate(body.as_bytes())), l)).unwrap().contains("not a specdiff share"));
        let huge_note = format!("{}{{\"base_code_total\":1e400}}\n0\n0\n", MAGIC);
        assert!(one_line(decode(&pack(&deflate(huge_note.as_bytes())), l)).is_some());
    }

    #[test]
    fn redact_leaves_out_source_and_shortens_paths() {
        let mut d = sample();
        d.files[0].path = "/home/me/venv/lib/python3.12/site-packages/pkg/mod.py".into();
        d.files[0].module = Some("pkg.mod".into());
        d.strings[4] = "<code object f at 0x1, file \"/home/me/venv/lib/python3.12/site-packages/pkg/mod.py\", line 1>".into();
        d.run.cwd = "/home/me".into();
        let r = redact(&d);
        assert_eq!(r.files[0].path, "pkg/mod.py");
        assert!(r.files[0].source.is_empty());
        assert_eq!(r.str(4), "<code object f at 0x1, file \"pkg/mod.py\", line 1>");
        let text = String::from_utf8(crate::format::dump::to_json(&reduce(&r, |_, _| true))).unwrap();
        assert!(!text.contains("/home/me") && !text.contains("return p.x"), "{text}");
        assert_eq!(short_path("/a/b/pkg/__init__.py", Some("pkg")), "pkg/__init__.py");
        assert_eq!(short_path("C:\\x\\prog.py", Some("__main__")), "prog.py");
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
        assert!(msg("hello").contains("does not start with \"s2.\" (or \"s1.\")"), "{}", msg("hello"));
        assert_eq!(msg("s9.AAAA"), "share link: made by a newer specdiff: upgrade specdiff to open it");
        assert_eq!(msg("s10.AAAA"), msg("s9.AAAA"));
        assert!(msg("s2x.AAAA").contains("does not start with"), "{}", msg("s2x.AAAA"));
        assert!(msg("s1.ab$d").contains("character 6 is not base64url"), "{}", msg("s1.ab$d"));
        assert!(msg("s2.ab$d").contains("character 6 is not base64url"), "{}", msg("s2.ab$d"));
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
