//! Share links: two runs (or a reduced form of them) packed into one URL-safe string that the
//! web viewer puts in its URL hash (`#share=s4.…`), so a diff can be pasted into a pull request.
//!
//! Format of a link payload, version 4 (versions 1–3, `s1.` to `s3.`, still open):
//!
//! ```text
//! "s4." + base64url( raw DEFLATE( body ) )                       (base64url without padding)
//! body = "specdiff-share 4\n"
//!        <ShareNote as JSON> "\n"
//!        <byte length of the base dump, decimal> "\n" <base dump, packed>
//!        <byte length of the head dump, decimal> "\n" <head dump, packed>
//! ```
//!
//! The dumps hold what the dump format holds (see `docs/dump-format.md`): their header as the
//! dump format's JSON, their ops and code as binary columns laid out for DEFLATE
//! (`packed.rs`; versions 1–3 carried them whole in the dump format), always
//! through [`reduce`] (to the code objects worth showing, without what no view reads); a length of 0
//! means "no run on that side". The [`ShareNote`] says how much was left out and carries the
//! sender's run-level numbers ([`SharedSummary`], written by `summary.rs`). What a link
//! carries under its cap is `pick.rs`'s choice; since version 3 a reduced link's changed
//! functions are trimmed to their changes and a row of context (`trim.rs`), and the note
//! lists them with their whole-function shares ([`ShareNote::trimmed`]). Decoding checks each dump as the dump reader
//! does, and limits the link length ([`MAX_LINK_CHARS`]) and the
//! decompressed size (the caller's [`ReadLimits`], at most [`MAX_BODY_BYTES`]).

use serde::{Deserialize, Serialize};

use crate::format::dump::read_dump;
#[cfg(feature = "share-flate")]
use crate::format::input::inflate_within;
use crate::format::input::{check_size, InputError, InputErrorKind, ReadLimits};
use crate::model::dump::Dump;
use crate::report::types::{RunRef, RunSummary};
pub use crate::report::SentExplanation;

mod packed;
mod pick;
mod reduce;
mod summary;
mod trim;
#[cfg(feature = "share-flate")]
pub use pick::link_payload;
pub use pick::{left_out_sentence, redacted, shared_summary, wanted, Fitting, LinkBuilder, LinkOptions};
pub use reduce::{redact, reduce, short_path};
pub use trim::{trimmed_functions, TrimmedFunction, CONTEXT_ROWS};

/// The link version [`encode`] writes.
pub const VERSION: u32 = 4;

/// Prefix of the payloads [`encode`] writes (version 4).
pub const PREFIX: &str = "s4.";

/// Prefixes of older payloads, which still open: version 1 (before links carried the
/// sender's summary), version 2 (before trimmed functions) and version 3 (before packed
/// dumps).
pub const OLDER_PREFIXES: [&str; 3] = ["s1.", "s2.", "s3."];

/// Inflated body [`decode`] accepts at most, whatever the caller's limits: 64 MB, far above
/// any link a browser takes (2 MB of text inflates to ~10 MB of dump JSON), far below what
/// stalls a tab; a deflate bomb stops here.
pub const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

/// Inflated body of a version-4 link [`read_body`] accepts at most: 16 MB. Its packed code
/// takes up to ~12× its size in memory (an instruction of 10 bytes is a 120-byte
/// [`crate::model::dump::Instruction`]), against ~2.5× for dump JSON; a real link's body is
/// ~5× its DEFLATE, so a 2 MB link of real code stays under it.
pub const MAX_PACKED_BODY_BYTES: u64 = 16 * 1024 * 1024;

/// How many times its DEFLATE bytes a version-4 link's body may inflate to: 64. Packed dumps
/// are dense: real links inflate 3–4 times (`docs/hostile-input.md`), and DEFLATE's limit is
/// ~1,032, so a bomb is refused after reading 64 times its own size, not 16 MB.
pub const MAX_INFLATION: u64 = 64;

/// A version-4 link's body may always inflate to 4 MB, however short its DEFLATE.
pub const INFLATION_FLOOR: u64 = 4 * 1024 * 1024;

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
    #[serde(default)]
    pub summary: Option<SharedSummary>,
    /// Changed functions the sender had that the link leaves out (past the cap).
    #[serde(default)]
    pub left_out: usize,
    /// True when source text was left out and paths shortened ([`redact`]).
    #[serde(default)]
    pub redacted: bool,
    /// The functions carried trimmed (version 3), six integers each: read them with
    /// [`trimmed_functions`].
    #[serde(default)]
    pub trimmed: Vec<u32>,
    /// The sender's explanations of the changes the link's dumps alone would explain
    /// differently (their reason rests on code the link leaves out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explained: Vec<SentExplanation>,
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

const MAGIC: &str = "specdiff-share 4\n";
const OLDER_MAGICS: [&str; 3] = ["specdiff-share 1\n", "specdiff-share 2\n", "specdiff-share 3\n"];

/// Packs `payload` into a link payload string (`"s4.…"`): [`pack`] of [`deflate`] of [`body`].
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
        let packed = dump.as_ref().map(packed::pack).unwrap_or_default();
        body.extend(format!("{}\n", packed.len()).as_bytes());
        body.extend(packed);
    }
    body
}

/// Bodies up to this size are compressed with zopfli; flate2's best above. The body of a link
/// of 20 trimmed functions is ~20 KB (~50 ms of zopfli); the search for what fits the cap
/// tries links of up to 32,768 characters, whose bodies are ~100–200 KB (each ~1 s of
/// zopfli, ~5 ms of flate2), and whole dumps of a large program are megabytes.
#[cfg(feature = "share-flate")]
const ZOPFLI_MAX_BODY: usize = 64 * 1024;

/// Raw DEFLATE of a [`body`]: zopfli's up to [`ZOPFLI_MAX_BODY`] bytes, flate2's best above.
/// zopfli with 5 iterations and at most 3 block splits makes the 31 KB body of the pyparsing
/// pair's 20-function link 8.5 % smaller than flate2's best (5,586 against 6,102 bytes) in
/// ~50 ms; its defaults gain 0.8 % more in ~6× the time (`examples/link_deflate.rs`).
#[cfg(feature = "share-flate")]
pub fn deflate(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    if body.len() <= ZOPFLI_MAX_BODY {
        let options = zopfli::Options {
            iteration_count: std::num::NonZeroU64::new(5).expect("5 is not zero"),
            maximum_block_splits: 3,
            ..zopfli::Options::default()
        };
        let mut out = Vec::new();
        zopfli::compress(options, zopfli::Format::Deflate, body, &mut out).expect("writing to a Vec cannot fail");
        return out;
    }
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
    let stop = inflate_limit(text, packed.len(), limits);
    // Links compress ~5×; the buffer grows past that only while data comes, up to the limit.
    let reader = || flate2::read::DeflateDecoder::new(packed.as_slice());
    match inflate_within(reader, packed.len().saturating_mul(8), stop.max_bytes) {
        Ok(Some(body)) => read_body(&body, body_limits(limits)),
        Ok(None) => Err(inflated_too_far(text, packed.len(), limits)),
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
        // Not "empty file": a link has no file, and nothing after `#share=` is a link cut short.
        return Err(err(InputErrorKind::Truncated("nothing follows \"#share=\" (was the link cut when copied?)".into())));
    }
    check_size(SOURCE_NAME, text.len(), MAX_LINK_CHARS as u64)?;
    let Some(body) = std::iter::once(PREFIX).chain(OLDER_PREFIXES).find_map(|p| text.strip_prefix(p)) else {
        let version = text.split('.').next().unwrap_or("");
        // Said as such (not "not a dump"): the reader should upgrade, not doubt the link. A
        // fixed sentence: formatting the version number costs wasm bytes for nothing.
        let newer = version.strip_prefix('s').and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n > VERSION as u64);
        return Err(err(if newer && text.contains('.') {
            InputErrorKind::Incompatible("made by a newer specdiff: upgrade specdiff to open it".into())
        } else {
            InputErrorKind::NotADump("it does not start with \"s4.\" (or \"s3.\", \"s2.\", \"s1.\")".into())
        }));
    };
    base64url_decode(body).map_err(|at| {
        // Past the last character: the text stops inside a byte, as a link cut when copied does.
        if at >= body.trim_end_matches('=').len() {
            return cut_error();
        }
        err(InputErrorKind::NotADump(format!(
            "character {} is not base64url (was the link cut or edited?)",
            at + PREFIX.len() + 1
        )))
    })
}

/// The caller's limits, lowered to [`MAX_BODY_BYTES`]: what a link body may be.
pub fn body_limits(limits: ReadLimits) -> ReadLimits {
    ReadLimits { max_bytes: limits.max_bytes.min(MAX_BODY_BYTES) }
}

/// Where an inflater of the link `text`, whose DEFLATE bytes [`unpack`] gave as `compressed`
/// long, must stop (the web viewer's `DecompressionStream` loop too): [`body_limits`], and
/// for a version-4 link [`MAX_PACKED_BODY_BYTES`] and [`MAX_INFLATION`] times `compressed`
/// (at least [`INFLATION_FLOOR`]). Older links carry dump JSON, which compresses further.
pub fn inflate_limit(text: &str, compressed: usize, limits: ReadLimits) -> ReadLimits {
    ReadLimits { max_bytes: size_limit(text, limits).min(ratio_limit(text, compressed)) }
}

/// The link is of the current version, whose body carries packed dumps.
fn packed_link(text: &str) -> bool {
    text.trim().starts_with(PREFIX)
}

/// What a link body may be: [`body_limits`], and [`MAX_PACKED_BODY_BYTES`] for version 4.
fn size_limit(text: &str, limits: ReadLimits) -> u64 {
    let body = body_limits(limits).max_bytes;
    if packed_link(text) { body.min(MAX_PACKED_BODY_BYTES) } else { body }
}

/// How far a version-4 link may inflate for its length (no bound for older ones).
fn ratio_limit(text: &str, compressed: usize) -> u64 {
    if packed_link(text) { (compressed as u64).saturating_mul(MAX_INFLATION).max(INFLATION_FLOOR) } else { u64::MAX }
}

/// The error for a link body that inflated past [`inflate_limit`].
pub fn inflated_too_far(text: &str, compressed: usize, limits: ReadLimits) -> InputError {
    let (size, ratio) = (size_limit(text, limits), ratio_limit(text, compressed));
    let kind = if ratio < size {
        InputErrorKind::InflatesTooFar { compressed: compressed as u64, limit: ratio, ratio: MAX_INFLATION }
    } else {
        InputErrorKind::InflatedTooLarge { limit: size }
    };
    InputError::new(SOURCE_NAME, kind)
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
    let packed = body.starts_with(MAGIC.as_bytes());
    if packed && body.len() as u64 > MAX_PACKED_BODY_BYTES {
        return Err(err(InputErrorKind::InflatedTooLarge { limit: MAX_PACKED_BODY_BYTES }));
    }
    let rest = std::iter::once(MAGIC).chain(OLDER_MAGICS).find_map(|m| body.strip_prefix(m.as_bytes())).ok_or_else(not_share)?;
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
        let name = || format!("{SOURCE_NAME} ({side})");
        if len > 0 && packed {
            dumps[i] = Some(packed::unpack(&name(), &rest[..len], limits)?.ok_or_else(not_share)?);
        } else if len > 0 {
            dumps[i] = Some(read_dump(&name(), &rest[..len], limits)?);
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

/// Decodes unpadded (or padded) base64url; on error returns the index of the bad character,
/// or the length of the text without padding when it ends inside a byte (one character
/// after a whole group: a cut text).
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
        // One dangling character cannot encode a byte: the text ends early.
        return Err(text.len());
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
