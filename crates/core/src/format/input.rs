//! Raw input handling shared by every reader: size limits, gzip detection and the one error
//! type whose one-line message names the file and what is wrong with it.

use std::fmt;

/// Limits applied before and during parsing, so hostile or accidental input cannot exhaust
/// memory (the web viewer runs in a browser tab).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Largest accepted input, in bytes, after decompression.
    pub max_bytes: u64,
}

impl Default for ReadLimits {
    fn default() -> Self {
        // A whole-program dump of ~7k code objects is ~10 MB of JSON; leave ample room.
        ReadLimits { max_bytes: 512 * 1024 * 1024 }
    }
}

/// What is wrong with an input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputErrorKind {
    /// The file has no bytes (or only white space).
    Empty,
    /// The file, or its decompressed content, exceeds [`ReadLimits::max_bytes`].
    TooLarge {
        /// Size seen (a lower bound when decompression was cut short).
        bytes: u64,
        /// The limit in force.
        limit: u64,
    },
    /// Content that goes on past [`ReadLimits::max_bytes`] (compressed data inflating past it, a
    /// device or a pipe): reading stopped one byte past the limit, so its full size is unknown
    /// (and never needed).
    InflatedTooLarge {
        /// The limit in force.
        limit: u64,
    },
    /// A share link whose body inflates to more than `ratio` times its compressed bytes
    /// (links specdiff makes inflate 3–4 times): refused at `limit`, before reading further.
    InflatesTooFar {
        /// Its compressed bytes.
        compressed: u64,
        /// Where inflating stopped.
        limit: u64,
        /// The most times its size a link may inflate.
        ratio: u64,
    },
    /// A JSON document nested deeper than the readers allow (64 levels; real files nest
    /// less than 10).
    TooDeep {
        /// How deep it nests.
        depth: u64,
        /// The deepest nesting allowed.
        limit: u64,
    },
    /// The content ends early (cut-off download, interrupted write).
    Truncated(String),
    /// The content is not JSON at all.
    NotJson(String),
    /// The content is not UTF-8, which JSON text must be.
    NotUtf8 {
        /// 1-based position of the first byte that is not UTF-8, in the (inflated) text.
        byte: u64,
        /// Its value.
        value: u8,
    },
    /// An object names one key twice (serde would keep either; a dump names each once).
    DuplicateKey {
        /// JSON path of the object, `(top level)` for the document itself.
        path: String,
        /// The key.
        key: String,
    },
    /// Valid JSON (or text), but not the kind of file expected.
    NotADump(String),
    /// A dump written by a newer specdiff than this one.
    NewerVersion {
        /// Version found in the file.
        found: u64,
        /// Newest version this reader understands.
        supported: u64,
    },
    /// A field has the wrong type or an impossible value; `path` is its JSON path.
    BadField {
        /// JSON path such as `code[12].instructions[3][1]`.
        path: String,
        /// What is wrong.
        detail: String,
    },
    /// A raw pystats file with a line that is not `key : value`.
    BadStatsLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// Two inputs cannot be compared.
    Incompatible(String),
}

/// The path [`InputErrorKind::BadField`] and [`InputErrorKind::DuplicateKey`] give for the
/// document itself.
pub(crate) const TOP_LEVEL: &str = "(top level)";

/// An input that could not be read, with the file name it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// File name as the user gave it.
    pub file: String,
    /// What is wrong.
    pub kind: InputErrorKind,
}

impl InputError {
    /// Builds an error for `file`.
    pub fn new(file: impl Into<String>, kind: InputErrorKind) -> Self {
        InputError { file: file.into(), kind }
    }
}

/// A size for a message: bytes below 1 MB, else MB (one decimal below 10) or GB (one decimal).
fn size(bytes: u64) -> String {
    const MB: f64 = 1024.0 * 1024.0;
    let mb = bytes as f64 / MB;
    if bytes < 1 << 20 {
        format!("{} bytes", grouped(bytes))
    } else if mb < 10.0 {
        format!("{mb:.1} MB")
    } else if mb < 1024.0 {
        format!("{mb:.0} MB")
    } else {
        format!("{:.1} GB", mb / 1024.0)
    }
}

/// `n` with thousands separators: `1,999,872`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (k, d) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A size and the limit it passed, in units that tell them apart: exact bytes when the
/// rounded figures would read alike (`too large (1.9 MB, limit 1.9 MB)`, issue 31).
fn size_and_limit(bytes: u64, limit: u64) -> (String, String) {
    let (a, b) = (size(bytes), size(limit));
    if a == b {
        (format!("{} bytes", grouped(bytes)), format!("{} bytes", grouped(limit)))
    } else {
        (a, b)
    }
}

impl fmt::Display for InputErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputErrorKind::Empty => write!(f, "empty file"),
            InputErrorKind::TooLarge { bytes, limit } => {
                let (bytes, limit) = size_and_limit(*bytes, *limit);
                write!(f, "too large ({bytes}, limit {limit})")
            }
            InputErrorKind::InflatedTooLarge { limit } => {
                let limit = size(*limit);
                write!(f, "too large (read more than {limit}, limit {limit})")
            }
            InputErrorKind::InflatesTooFar { compressed, limit, ratio } => write!(
                f,
                "its {} of compressed data inflate past {}, more than {ratio} times (links specdiff makes inflate about 4 times): refused",
                size(*compressed),
                size(*limit)
            ),
            InputErrorKind::TooDeep { depth, limit } => {
                write!(f, "nested too deeply ({depth} levels, limit {limit})")
            }
            InputErrorKind::Truncated(d) => write!(f, "truncated: {d}"),
            InputErrorKind::NotJson(d) => write!(f, "not JSON: {d}"),
            InputErrorKind::NotUtf8 { byte, value } => write!(f, "not UTF-8 (byte {byte} is {value:#04x})"),
            InputErrorKind::DuplicateKey { path, key } if path == TOP_LEVEL => {
                write!(f, "duplicate key `{key}` at the top level")
            }
            InputErrorKind::DuplicateKey { path, key } => write!(f, "duplicate key `{key}` in {path}"),
            InputErrorKind::NotADump(d) => write!(f, "not a specdiff dump: {d}"),
            InputErrorKind::NewerVersion { found, supported } => write!(
                f,
                "newer format version {found} (this specdiff reads up to {supported}; upgrade specdiff)"
            ),
            InputErrorKind::BadField { path, detail } => write!(f, "bad field {path}: {detail}"),
            InputErrorKind::BadStatsLine { line, detail } => {
                write!(f, "not a pystats file: line {line}: {detail}")
            }
            InputErrorKind::Incompatible(d) => write!(f, "{d}"),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, always: messages are shown next to a file in the page and in CI logs.
        let text = format!("{}: {}", self.file, self.kind);
        f.write_str(&text.replace(['\n', '\r'], " "))
    }
}

impl std::error::Error for InputError {}

/// True when `bytes` starts with the gzip magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.len() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
}

/// Returns the content of `bytes`, decompressed when it is gzip, enforcing `limits`.
pub(crate) fn decompressed<'a>(
    file: &str,
    bytes: &'a [u8],
    limits: ReadLimits,
) -> Result<std::borrow::Cow<'a, [u8]>, InputError> {
    check_size(file, bytes.len(), limits.max_bytes)?;
    if !is_gzip(bytes) {
        return Ok(std::borrow::Cow::Borrowed(bytes));
    }
    gunzip(file, bytes, limits).map(std::borrow::Cow::Owned)
}

/// Refuses an input of `len` bytes when that is over `limit`.
pub(crate) fn check_size(file: &str, len: usize, limit: u64) -> Result<(), InputError> {
    if len as u64 > limit {
        return Err(InputError::new(file, InputErrorKind::TooLarge { bytes: len as u64, limit }));
    }
    Ok(())
}

/// Inflates a gzip input (every member of a multi-member file), enforcing `limits`.
#[cfg(feature = "gzip")]
fn gunzip(file: &str, bytes: &[u8], limits: ReadLimits) -> Result<Vec<u8>, InputError> {
    let err = |kind| InputError::new(file, kind);
    // The size the last member's trailer states (mod 2^32): exact for a single-member file,
    // so an honest file is inflated into one allocation. Only a hint: a multi-member file's
    // last trailer says nothing of the others, and any trailer can lie. DEFLATE inflates at
    // most ~1032×, which bounds what a hostile trailer can make us reserve.
    let stated = bytes.len().checked_sub(4).map_or(0, |at| {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    });
    let hint = stated.min(bytes.len().saturating_mul(1032));
    match inflate_within(|| flate2::read::MultiGzDecoder::new(bytes), hint, limits.max_bytes) {
        Ok(Some(out)) => Ok(out),
        Ok(None) => Err(err(InputErrorKind::InflatedTooLarge { limit: limits.max_bytes })),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(err(gzip_truncated())),
        Err(e) => Err(err(gzip_corrupt(&e.to_string()))),
    }
}

/// Reads `reader` to its end when that is at most `limit` bytes (`None` when there is more),
/// holding at most `limit` bytes: the buffer starts at `hint` (capped at `limit`) and doubles,
/// capped at `limit`, only when data still comes. Past the limit it stops one read later. For
/// data that can be read only once (a device, a pipe): at most 1.5× the limit while the
/// buffer moves (the limit alone when `hint` was right), not the 3× of `read_to_end`'s
/// doubling past it. Data that can be read again is read by [`inflate_within`].
pub fn read_within(mut reader: impl std::io::Read, hint: usize, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(hint.max(64 * 1024).min(limit));
    loop {
        if fill(&mut reader, &mut out, limit)? {
            return Ok(Some(out));
        }
        // At most one byte past the limit: a device is read no further than that.
        let mut probe = [0u8; 4096];
        let n = read_some(&mut reader, &mut probe[..(limit - out.len()).saturating_add(1).min(4096)])?;
        if n == 0 {
            return Ok(Some(out));
        }
        if out.len() + n > limit {
            return Ok(None);
        }
        // Doubling, but straight to the limit when the step after would pass it: a last small
        // step would copy a buffer of nearly the limit into one of the limit (2× it at once).
        let next = if out.len().saturating_mul(4) > limit { limit } else { out.len() * 2 };
        let next = next.max(out.len() + n);
        out.reserve_exact(next - out.len());
        out.extend_from_slice(&probe[..n]);
    }
}

/// Reads to the end of `open()`'s data when that is at most `limit` bytes (`None` when there
/// is more), for data that can be read again (inflating gzip or a share link). The first
/// read fills a buffer of `hint` (capped at `limit`), exact for an honest gzip trailer. When
/// more comes, it is not kept: the rest is counted (stopping one byte past the limit), and
/// the data read again into a buffer of its real size. So the peak is the limit whatever the
/// hint says (a multi-member gzip whose last trailer stated 511 MB held 1 GB: a buffer that
/// grows holds its old and its new block while it moves), at the cost of inflating twice
/// when the hint was short.
#[cfg(any(feature = "gzip", feature = "share-flate"))]
pub(crate) fn inflate_within<R: std::io::Read>(
    open: impl Fn() -> R,
    hint: usize,
    limit: u64,
) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut reader = open();
    let mut out = Vec::with_capacity(hint.max(64 * 1024).min(limit));
    if fill(&mut reader, &mut out, limit)? {
        return Ok(Some(out));
    }
    let mut scratch = vec![0u8; 64 * 1024];
    // The buffer is full: a read tells the end of the data (the hint was exact) from more.
    // Each read stops one byte past the limit at most.
    let room = |total: usize| (limit - total).saturating_add(1).min(64 * 1024);
    let mut total = out.len();
    let mut n = read_some(&mut reader, &mut scratch[..room(total)])?;
    if n == 0 {
        return Ok(Some(out));
    }
    drop(out);
    while n > 0 {
        total += n;
        if total > limit {
            return Ok(None);
        }
        n = read_some(&mut reader, &mut scratch[..room(total)])?;
    }
    drop(scratch);
    let mut out = Vec::with_capacity(total);
    open().take(total as u64).read_to_end(&mut out)?;
    Ok(Some(out))
}

/// Reads into `out` up to its capacity (at most `limit`); true when the data ended first.
fn fill(reader: &mut impl std::io::Read, out: &mut Vec<u8>, limit: usize) -> std::io::Result<bool> {
    use std::io::Read;
    let full = out.capacity().min(limit);
    reader.take((full - out.len()) as u64).read_to_end(out)?;
    Ok(out.len() < full)
}

/// One `read`, retried when interrupted.
fn read_some(reader: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// What is wrong with a gzip input that stops early. Public so a caller that inflates gzip
/// itself (the web viewer) reports it in the same words.
pub fn gzip_truncated() -> InputErrorKind {
    InputErrorKind::Truncated("the gzip stream ends early".into())
}

/// What is wrong with a gzip input that does not inflate (`why`: the inflater's reason).
pub fn gzip_corrupt(why: &str) -> InputErrorKind {
    InputErrorKind::NotADump(format!("corrupt gzip data ({why})"))
}

/// Without the `gzip` feature the caller inflates gzip inputs itself (the web viewer does it
/// with the browser's `DecompressionStream`); one that did not gets a clear error.
#[cfg(not(feature = "gzip"))]
fn gunzip(file: &str, _bytes: &[u8], _limits: ReadLimits) -> Result<Vec<u8>, InputError> {
    Err(InputError::new(
        file,
        InputErrorKind::NotADump("gzip-compressed, and this build reads only uncompressed files".into()),
    ))
}

/// What kind of file some bytes look like, judged from their first bytes only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// Starts with `{`: a JSON document (a dump, or a stats export).
    Json,
    /// Lines of `key : value`, as CPython's pystats writes them.
    RawPystats,
    /// Neither.
    Unknown,
}

/// Guesses the kind of an (already decompressed) input.
pub fn sniff(content: &[u8]) -> Sniffed {
    let head = &content[..content.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return Sniffed::Json;
    }
    let first = trimmed.lines().next().unwrap_or("");
    if first.contains(" : ") && !first.starts_with('[') {
        return Sniffed::RawPystats;
    }
    Sniffed::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_name_the_file() {
        let e = InputError::new("a.json", InputErrorKind::NotJson("bad\nthing".into()));
        assert_eq!(e.to_string(), "a.json: not JSON: bad thing");
        let e = InputError::new("b.json", InputErrorKind::TooLarge { bytes: 300 << 20, limit: 256 << 20 });
        assert_eq!(e.to_string(), "b.json: too large (300 MB, limit 256 MB)");
        // Figures that would read alike are given in bytes (issue 31: "1.9 MB, limit 1.9 MB").
        let e = InputError::new("c.json", InputErrorKind::TooLarge { bytes: 1_999_872, limit: 1_999_000 });
        assert_eq!(e.to_string(), "c.json: too large (1,999,872 bytes, limit 1,999,000 bytes)");
        let e = InputError::new("d.json", InputErrorKind::TooLarge { bytes: 4 << 30, limit: 512 << 20 });
        assert_eq!(e.to_string(), "d.json: too large (4.0 GB, limit 512 MB)");
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn gzip_is_detected_and_limited() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&vec![b'x'; 10_000]).unwrap();
        let gz = enc.finish().unwrap();
        let out = decompressed("f.gz", &gz, ReadLimits { max_bytes: 20_000 }).unwrap();
        assert_eq!(out.len(), 10_000);
        let e = decompressed("f.gz", &gz, ReadLimits { max_bytes: 5_000 }).unwrap_err();
        // Inflation stops past the limit: the message says so rather than naming a size.
        assert_eq!(e.kind, InputErrorKind::InflatedTooLarge { limit: 5_000 }, "{e}");
        assert_eq!(e.to_string(), "f.gz: too large (read more than 5,000 bytes, limit 5,000 bytes)");
        // Exactly at the limit is not over it, whatever the buffer's growth steps.
        for limit in [10_000, 10_001, 9_999, 100] {
            let r = decompressed("f.gz", &gz, ReadLimits { max_bytes: limit });
            let expected = if limit >= 10_000 { Ok(10_000) } else { Err(InputErrorKind::InflatedTooLarge { limit }) };
            assert_eq!(r.map(|c| c.len()).map_err(|e| e.kind), expected);
        }
        let e = decompressed("f.gz", &gz[..gz.len() / 2], ReadLimits::default()).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::Truncated(_)), "{e}");
    }

    /// An endless device is read to one byte past the limit, whatever the buffer's start.
    #[test]
    fn endless_input_is_read_to_one_byte_past_the_limit() {
        struct Counted(u64);
        impl std::io::Read for Counted {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0 += buf.len() as u64;
                Ok(buf.len())
            }
        }
        for (hint, limit) in [(0, 100_000), (100_000, 100_000), (5_000, 300_001), (1 << 20, 4_096)] {
            let mut device = Counted(0);
            assert_eq!(read_within(&mut device, hint, limit).unwrap(), None);
            assert_eq!(device.0, limit + 1, "hint {hint}, limit {limit}");
        }
    }

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"  {\"format\": 1}"), Sniffed::Json);
        assert_eq!(sniff(b"opcode[93].specializable : 1\n"), Sniffed::RawPystats);
        assert_eq!(sniff(b"hello"), Sniffed::Unknown);
    }
}
