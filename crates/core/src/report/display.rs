//! How long an untrusted string may be when it is shown: the display caps every output for
//! people (terminal text, the PR comment, the page) shares, and [`capped`], the one way a
//! longer string is shortened. JSON output keeps every string whole; it is for programs.
//!
//! Why: a dump interns its strings, so one 1 MB qualname shared by 700 code objects costs the
//! input 1 MB once, but an output that repeats it per function costs 700 MB (issue 31 item 5).
//! Capping what is shown bounds every output line by a constant, so an output's size follows
//! the number of things the input holds, not the length of the names it repeats.

use std::borrow::Cow;

use super::wording::{grouped, inert};
use crate::util::fnv::{fnv, FNV_OFFSET};

/// Characters shown of a name: a function, module, file, family, opname, operand, run label.
pub const NAME_CAP: usize = 200;
/// Characters shown of a sentence that quotes names: an explanation, a warning, a note.
pub const SENTENCE_CAP: usize = 1_000;

/// Characters kept from the end of a cut string: names that differ only past the head stay
/// apart by their ends (`….<locals>.f` and `….<locals>.g`), and by the marker's hash.
const TAIL: usize = 40;
/// Room for the marker: `…[` and `]…`, a length up to `999,999,999,999`, ` chars #` and 8
/// hex digits.
const MARKER: usize = 4 + 15 + 8 + 8;

/// `text` at most `max` characters long (`max` ≥ 100): a longer one keeps its start and end,
/// joined by a marker naming the whole length and a hash of the whole string, so two long
/// names that differ anywhere are still shown different:
/// `QQQ…QQ…[1,000,000 chars #9f0c23aa]…QQQ`. Borrowed when it fits, which is almost always.
/// Written small (no formatting machinery): the page carries it in its wasm.
pub fn capped(text: &str, max: usize) -> Cow<'_, str> {
    // Only the first `max + 1` characters are walked to decide: linear in what is shown.
    let Some((fits_end, _)) = text.char_indices().nth(max) else {
        return Cow::Borrowed(text);
    };
    let n = max + text[fits_end..].chars().count();
    let mut out: String = text.chars().take(max - TAIL - MARKER).collect();
    out.push_str("…[");
    out.push_str(&grouped(n as u64));
    out.push_str(" chars #");
    let h = hash(text.as_bytes());
    out.extend((0..8).rev().filter_map(|i| char::from_digit((h >> (4 * i)) & 15, 16)));
    out.push_str("]…");
    let tail_start = text.char_indices().rev().nth(TAIL - 1).map_or(0, |(i, _)| i);
    out.push_str(&text[tail_start..]);
    Cow::Owned(out)
}

/// `text` capped at `max` characters, then made inert ([`inert`]): what a person is shown of
/// an untrusted string. At most `max` characters before escaping, so at most `6 × max` after
/// (`\u202e` is six characters for one).
pub fn shown(text: &str, max: usize) -> Cow<'_, str> {
    match capped(text, max) {
        Cow::Borrowed(t) => inert(t),
        Cow::Owned(t) => Cow::Owned(inert(&t).into_owned()),
    }
}

/// 32-bit FNV-1a ([`fnv`], folded from 64 bits): stable across runs and platforms (a marker is
/// part of byte-identical output), cheap, and only meant to tell names apart, not to resist
/// forgery.
fn hash(bytes: &[u8]) -> u32 {
    let h = fnv(FNV_OFFSET, bytes);
    (h ^ (h >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_borrowed() {
        assert!(matches!(capped("pkg.mod:f", NAME_CAP), Cow::Borrowed("pkg.mod:f")));
        let exact = "é".repeat(NAME_CAP);
        assert!(matches!(capped(&exact, NAME_CAP), Cow::Borrowed(_)));
    }

    #[test]
    fn long_text_keeps_its_ends_and_stays_distinct() {
        let a = format!("start{}end_a", "Q".repeat(1_000_000));
        let b = format!("start{}end_b", "Q".repeat(1_000_000));
        let (ca, cb) = (capped(&a, NAME_CAP), capped(&b, NAME_CAP));
        assert!(ca.chars().count() <= NAME_CAP, "{ca}");
        assert!(ca.starts_with("startQQ") && ca.ends_with("QQend_a"), "{ca}");
        assert!(ca.contains("…[1,000,010 chars #"), "{ca}");
        assert_ne!(ca, cb);
        // Same ends, different middles: the hash tells them apart.
        let c = format!("{}x{}", "Q".repeat(5_000), "Q".repeat(5_000));
        let d = format!("{}y{}", "Q".repeat(5_000), "Q".repeat(5_000));
        assert_ne!(capped(&c, NAME_CAP), capped(&d, NAME_CAP));
        // Multi-byte characters are cut on their boundaries.
        let e = "é👩‍💻".repeat(1_000);
        let ce = capped(&e, NAME_CAP);
        assert!(ce.chars().count() <= NAME_CAP && ce.contains("…[4,000 chars #"), "{ce}");
        assert_eq!(capped(&a, NAME_CAP), capped(&a, NAME_CAP), "deterministic");
    }

    #[test]
    fn shown_caps_then_escapes() {
        let s = "\u{202e}".repeat(10_000);
        let out = shown(&s, NAME_CAP);
        assert!(!out.contains('\u{202e}') && out.starts_with("\\u202e"));
        assert!(out.chars().count() <= 6 * NAME_CAP);
        assert_eq!(shown("a\x1bb", NAME_CAP), "a\\x1bb");
    }
}
