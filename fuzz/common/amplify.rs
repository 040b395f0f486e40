//! Small fuzz inputs that stand for large, regular ones, so the fuzzer reaches the costs that
//! grow with size (nesting depth, key counts, run lengths): issue 15's 200,000-deep document
//! is 1.2 MB, far past the few KB libFuzzer's inputs grow to, and as raw bytes it would never
//! be found.
//!
//! `\0x`, a count (u16, little-endian), then five parts split at NUL bytes: `prefix`, `open`,
//! `middle`, `close`, `suffix` stand for `prefix + open × n + middle + close × n + suffix`
//! with `n = count × 16`, cut at 2 MiB (twice the targets' read limit). Any other input is
//! taken as it is.

use std::borrow::Cow;

const MAGIC: &[u8] = b"\0x";
const MAX: usize = 2 << 20;

pub fn expand(data: &[u8]) -> Cow<'_, [u8]> {
    let Some(rest) = data.strip_prefix(MAGIC) else { return Cow::Borrowed(data) };
    let Some((count, rest)) = rest.split_first_chunk::<2>() else { return Cow::Borrowed(data) };
    let n = u16::from_le_bytes(*count) as usize * 16;
    let mut parts = rest.splitn(5, |&b| b == 0);
    let mut part = || parts.next().unwrap_or_default();
    let (prefix, open, middle, close, suffix) = (part(), part(), part(), part(), part());
    let mut out = Vec::new();
    let mut push = |bytes: &[u8], times: usize| {
        for _ in 0..times {
            let room = MAX - out.len();
            if room == 0 || bytes.is_empty() {
                return;
            }
            out.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    };
    push(prefix, 1);
    push(open, n);
    push(middle, 1);
    push(close, n);
    push(suffix, 1);
    Cow::Owned(out)
}
