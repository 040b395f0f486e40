//! The words and numbers every output shares: the terminal text, the pull-request markdown and
//! the page all call these, so one diff reads the same wherever it is shown (the test
//! `crates/cli/tests/one_wording.rs` compares them on a real diff).
//!
//! Number formats: [`grouped`] thousands, [`percent`] for shares (one decimal),
//! [`percent_compact`] where a chart label has little room, [`signed`] for differences,
//! [`count`] for "1 site" / "3 sites". Report words: [`ChangeKind::label`] and
//! [`ChangeKind::describe`], [`opnames`] and [`lines`] of a change, [`change_sentence`],
//! [`function_counts`], [`other_changes`], and [`counter_words`] for a decoded
//! adaptive counter. Untrusted text (names, paths, source lines a program put in its dump) goes
//! through [`inert`] before any output shows it. The pystats ratio in summarize_stats.py's own format is
//! [`crate::report::percent`], kept beside the statistics it reproduces.

use std::borrow::Cow;
use std::fmt::Write;

use crate::cpython::counters::{Counter, CounterState};
use crate::engine::align::RowKind;
use crate::engine::classify::{Change, ChangeKind};
use crate::report::types::{DiffReport, FunctionDiff};

/// `12345` → `"12,345"`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A share (0..=1) with one decimal: `0.432` → `"43.2%"`; tiny non-zero shares show as
/// `"<0.1%"`, so a share that is there never reads as zero.
pub fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", share * 100.0)
    }
}

/// A share for a narrow chart label: whole percents from 10% up, one decimal below
/// (`0.1234` → `"12%"`, `0.01234` → `"1.2%"`).
pub fn percent_compact(share: f64) -> String {
    let p = share * 100.0;
    if p == 0.0 || p >= 10.0 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}

/// A signed difference: `+3`, `−1,204`, or for a share (`as_share`) `+2.5 pp`.
pub fn signed(d: f64, as_share: bool) -> String {
    let sign = if d > 0.0 {
        "+"
    } else if d < 0.0 {
        "−"
    } else {
        "±"
    };
    if as_share {
        let pp = d.abs() * 100.0;
        if pp < 0.1 {
            format!("{sign}{pp:.2} pp")
        } else {
            format!("{sign}{pp:.1} pp")
        }
    } else if d.fract() == 0.0 {
        format!("{sign}{}", grouped(d.abs() as u64))
    } else {
        format!("{sign}{:.2}", d.abs())
    }
}

/// `"1 site"` / `"3 sites"`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl ChangeKind {
    /// The short label people read: the JSON name with spaces (`"backed off"`).
    pub fn label(self) -> &'static str {
        match self {
            ChangeKind::BackedOff => "backed off",
            k => k.as_str(),
        }
    }

    /// What the kind means, in one sentence.
    pub fn describe(self) -> &'static str {
        match self {
            ChangeKind::Lost => "specialized in base, generic (or rewritten away) in head",
            ChangeKind::Missing => "same specialization, but head's counter shows more misses since it was specialized",
            ChangeKind::BackedOff => "generic in both runs; head's backoff shows more failed specialization attempts",
            ChangeKind::Churning => "the sampler saw head's opname flip at this site more often than base's",
            ChangeKind::Changed => "specialized in both runs, differently",
            ChangeKind::Gained => "generic in base, specialized in head",
            ChangeKind::Minor => {
                "counters moved, but not enough to matter or not comparable (a few more misses or failed attempts, a site one run did not execute): not a regression"
            }
            ChangeKind::Added => "only in head (code edit)",
            ChangeKind::Removed => "only in base (code edit)",
            ChangeKind::Unchanged => "the same in both runs",
        }
    }
}

/// `"BINARY_OP_ADD_INT → BINARY_OP"`, with `∅` for a missing side.
///
/// On a `rewritten` row one side is the attribute access and the other the `getattr()` or
/// `setattr()` call (or the load from a kept `super()` object, or a `super().name` load) that
/// replaced it, or that it
/// replaced: that side is named as such, so the row never reads as one opcode turning into an
/// unrelated one (`LOAD_ATTR_SLOT → gone: getattr() call (CALL_BUILTIN_FAST)`).
pub fn opnames(c: &Change) -> String {
    let show = |op: Option<&str>, gone: &str| -> String {
        match op {
            None => "∅".into(),
            Some(o) if c.row_kind == RowKind::Rewritten && !o.starts_with(c.family.as_str()) => {
                let what = if o.starts_with("LOAD_ATTR") || o.starts_with("LOAD_METHOD") {
                    "load from a super() object"
                } else if o.starts_with("LOAD_SUPER_ATTR") {
                    "super() method load"
                } else if c.family == "STORE_ATTR" {
                    "setattr() call"
                } else if c.family.contains("SUBSCR") || c.family == "BINARY_OP" {
                    "method call"
                } else {
                    "getattr() call"
                };
                // A `super()` load specializes too: it is no "gone" form.
                let gone = if o.starts_with("LOAD_SUPER_ATTR") { "" } else { gone };
                format!("{gone}{what} ({o})")
            }
            Some(o) => o.into(),
        }
    };
    match (c.base.as_deref(), c.head.as_deref()) {
        (Some(b), Some(h)) if b == h => b.to_string(),
        (b, h) => format!("{} → {}", show(b, ""), show(h, "gone: ")),
    }
}

/// `"line 53 → 54"`, `"line 54"` when both sides agree, `""` when neither side has a line.
pub fn lines(c: &Change) -> String {
    let show = |l: Option<u32>| l.map_or("?".to_string(), |l| l.to_string());
    match (c.base_line, c.head_line) {
        (Some(b), Some(h)) if b == h => format!("line {b}"),
        (None, None) => String::new(),
        (b, h) if c.base.is_none() => format!("line {}", show(h.or(b))),
        (b, h) if c.head.is_none() => format!("line {}", show(b.or(h))),
        (b, h) => format!("line {} → {}", show(b), show(h)),
    }
}

/// One change in one sentence: `"LOAD_ATTR_SLOT → CALL (line 12): the load became getattr…"`.
pub fn change_sentence(c: &Change) -> String {
    let where_ = lines(c);
    let mut s = opnames(c);
    if !where_.is_empty() {
        s.push_str(&format!(" ({where_})"));
    }
    if let Some(e) = &c.explanation {
        s.push_str(": ");
        s.push_str(e);
    }
    s
}

/// The counter evidence behind a regression or a `minor` change, in words: `"31 misses since
/// it was specialized (base 0); line sampled 11 times"`, `"generic for at least 2,048
/// executions (11 failed attempts; base 2)"`. `None` for other kinds or without counters.
pub fn evidence(c: &Change) -> Option<String> {
    use ChangeKind::*;
    if !matches!(c.kind, Lost | Missing | BackedOff | Minor) {
        return None;
    }
    let (b, h) = (c.base_counter?, c.head_counter?);
    let mut s = match (b.state, h.state) {
        (CounterState::Specialized { misses: mb }, CounterState::Specialized { misses: mh }) if mh > mb => {
            let misses = count(mh as u64, "miss", "misses");
            match c.base_churn.as_ref().map_or(0, |ch| ch.effective_flips) {
                0 => format!("{misses} since it was specialized (base {mb}; the 53rd deoptimizes or re-specializes it)"),
                n => format!(
                    "{misses} since it was specialized (base {mb}, yet base re-specialized {} while sampled: both cycle through 53 misses)",
                    count(n as u64, "time", "times")
                ),
            }
        }
        (_, CounterState::BackedOff { failures }) => format!(
            "generic for at least {} executions ({}; base {})",
            grouped(h.executions_proven()),
            count(failures as u64, "failed attempt", "failed attempts"),
            b.failures()
        ),
        _ => return None,
    };
    if c.hotness > 0 {
        s.push_str(&format!("; line sampled {}", count(c.hotness, "time", "times")));
    }
    Some(s)
}

/// A change's explanation with its [`evidence`] first: what every output shows as "why".
pub fn with_evidence(c: &Change, explanation: Option<String>) -> Option<String> {
    match (evidence(c), explanation) {
        (Some(e), Some(x)) => Some(format!("{e}: {x}")),
        (e, x) => e.or(x),
    }
}

/// `"renamed from app:compute_total"` when the function was paired with its old self under
/// another name or module (`FunctionDiff::renamed_from`).
pub fn renamed(f: &FunctionDiff) -> Option<String> {
    f.renamed_from.as_ref().map(|from| format!("renamed from {from}"))
}

/// `"1 regression · 1 gained · 1 changed"`: the function's non-zero site counts; import-time
/// code says so first, and that its regressions are counted apart.
pub fn function_counts(f: &FunctionDiff) -> String {
    let mut parts = vec![];
    if f.import_time {
        parts.push("import time (counted apart)".to_string());
    }
    if f.rewritten {
        parts.push("rewritten (its sites are not compared line by line)".to_string());
    }
    if f.regressions > 0 {
        parts.push(count(f.regressions as u64, "regression", "regressions"));
    }
    for k in ChangeKind::ALL {
        if k.is_regression() || k == ChangeKind::Unchanged {
            continue;
        }
        let n = f.counts.get(k);
        if n > 0 {
            parts.push(format!("{n} {}", k.label()));
        }
    }
    if parts.is_empty() {
        parts.push("unchanged".into());
    }
    parts.join(" · ")
}

/// `"(2 lost, 1 missing, 0 backed off)"`: how the regressed sites of a report divide, import-time
/// code apart (like [`crate::view::Overview`]).
pub fn regression_kinds(report: &DiffReport) -> String {
    let mut c = super::types::KindCounts::default();
    for f in report.functions.iter().filter(|f| !f.import_time) {
        c.merge(&f.counts);
    }
    format!(
        "({} {}, {} {}, {} {})",
        c.lost,
        ChangeKind::Lost.label(),
        c.missing,
        ChangeKind::Missing.label(),
        c.backed_off,
        ChangeKind::BackedOff.label()
    )
}

/// Changes other than regressions and gains, over the whole run: `"1 changed, 2 added sites"`.
pub fn other_changes(report: &DiffReport) -> String {
    let c = &report.summary.counts;
    let parts: Vec<String> = [
        (ChangeKind::Churning, c.churning),
        (ChangeKind::Changed, c.changed),
        (ChangeKind::Minor, c.minor),
        (ChangeKind::Added, c.added),
        (ChangeKind::Removed, c.removed),
    ]
    .iter()
    .filter(|(_, n)| *n > 0)
    .map(|(k, n)| format!("{n} {}", k.label()))
    .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        format!("{} sites", parts.join(", "))
    }
}

/// True for a character a terminal, an editor or a browser would act on instead of showing:
/// the C0 controls (ESC starts escape sequences, OSC 8 links and window titles; BEL ends them;
/// CR, LF and TAB move the cursor), DEL, the C1 controls (U+0085 is a newline, U+009B a CSI),
/// the bidirectional controls (U+202E reverses the text after it, so `gol.` can read as
/// `.log`), the line and paragraph separators, and the invisible characters that hide text
/// or split a name that looks whole (zero-width space, word joiner, BOM, interlinear
/// annotations). Ordinary Unicode, joiners inside emoji and soft hyphens included, is left
/// alone: non-ASCII names and source are legitimate.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// `text` made inert for a terminal (or any output): every [`is_unsafe_char`] is written as a
/// visible escape in Python's `repr` style (`\n`, `\r`, `\t`, `\x1b`, `\x9b`, `\u202e`),
/// so it is shown, never interpreted, and the result is always one line. Borrowed when there
/// is nothing to escape, which is almost always. A backslash already in the text is kept as it
/// is (Windows paths stay readable), so the escapes are for the eye, not a reversible encoding.
pub fn inert(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe_char(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe_char(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// What the words and signs of a function's listing and of the overview's differences mean,
/// for a legend beside them: `(term, meaning)`. The counter words are [`counter_words`]'s short
/// texts (`N` stands for the number), `pp` is [`signed`]'s unit for shares.
pub const LISTING_TERMS: [(&str, &str); 9] = [
    ("off", "the instruction's offset in its code object's bytecode"),
    ("ctr", "the site's adaptive counter, in words:"),
    ("N miss", "specialized; N misses since it was specialized"),
    ("N fail", "generic; N failed attempts to specialize, backing off"),
    ("warm N", "not specialized yet; N executions before it first tries"),
    ("cold", "has not run since the code was quickened"),
    ("generic", "CPython 3.11 stopped trying: no specialization for this operation"),
    ("↻", "the sampler saw this site's opname change while the program ran (churn)"),
    ("pp", "percentage points: the difference of two shares"),
];

/// Plain words for a decoded adaptive counter: `(short text, longer explanation)`.
pub fn counter_words(c: &Counter) -> (String, String) {
    let raw = format!("counter {}·{} (value·backoff)", c.value, c.backoff);
    match c.state {
        CounterState::Cold => ("cold".into(), format!("has not run since the code was quickened; {raw}")),
        CounterState::Warming => (
            format!("warm {}", c.value),
            format!(
                "not specialized yet: {} left before it tries to specialize, no failed attempt so far; {raw}",
                count(c.value as u64, "execution", "executions")
            ),
        ),
        CounterState::BackedOff { failures } => (
            format!("{failures} fail"),
            format!(
                "{} to specialize: backing off, next try in {}; {raw}",
                count(failures as u64, "failed attempt", "failed attempts"),
                count(c.value as u64, "execution", "executions")
            ),
        ),
        CounterState::GaveUp => (
            "generic".into(),
            format!("3.11 has no specialization for this operation and stopped trying: generic however often it runs; {raw}"),
        ),
        CounterState::Specialized { misses } => (
            format!("{misses} miss"),
            format!("{} since it was specialized; {raw}", count(misses as u64, "miss", "misses")),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(12), "12");
        assert_eq!(grouped(0), "0");
        assert_eq!(percent(0.4321), "43.2%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(0.0001), "<0.1%");
        assert_eq!(percent_compact(0.1234), "12%");
        assert_eq!(percent_compact(0.01234), "1.2%");
        assert_eq!(percent_compact(0.0), "0%");
        assert_eq!(count(1, "site", "sites"), "1 site");
        assert_eq!(count(3, "site", "sites"), "3 sites");
        assert_eq!(signed(-1204.0, false), "−1,204");
        assert_eq!(signed(3.0, false), "+3");
        assert_eq!(signed(0.025, true), "+2.5 pp");
        assert_eq!(signed(0.0, true), "±0.00 pp");
    }

    #[test]
    fn kind_words() {
        assert_eq!(ChangeKind::BackedOff.label(), "backed off");
        assert_eq!(ChangeKind::Lost.label(), "lost");
        for k in ChangeKind::ALL {
            assert!(!k.describe().is_empty() && !k.label().contains('_'), "{k:?}");
        }
    }

    fn change(base: Option<&str>, head: Option<&str>, lines: (Option<u32>, Option<u32>)) -> Change {
        Change::for_test(ChangeKind::Lost, "LOAD_ATTR", (base, head), lines)
    }


    #[test]
    fn change_words() {
        let c = change(Some("LOAD_ATTR_SLOT"), Some("LOAD_ATTR"), (Some(12), Some(13)));
        assert_eq!(opnames(&c), "LOAD_ATTR_SLOT → LOAD_ATTR");
        assert_eq!(lines(&c), "line 12 → 13");
        assert_eq!(change_sentence(&c), "LOAD_ATTR_SLOT → LOAD_ATTR (line 12 → 13)");
        let mut gone = change(Some("LOAD_ATTR_SLOT"), None, (Some(12), None));
        gone.explanation = Some("the load became getattr(p, name)".into());
        assert_eq!(change_sentence(&gone), "LOAD_ATTR_SLOT → ∅ (line 12): the load became getattr(p, name)");
        assert_eq!(lines(&change(None, None, (None, None))), "");
    }

    #[test]
    fn counters_in_words() {
        let c = |value, backoff, state| Counter { value, backoff, state };
        assert_eq!(counter_words(&c(0, 0, CounterState::Cold)).0, "cold");
        let (short, long) = counter_words(&c(1, 4, CounterState::Specialized { misses: 1 }));
        assert_eq!(short, "1 miss");
        assert!(long.starts_with("1 miss since it was specialized; counter 1·4"), "{long}");
        let (short, long) = counter_words(&c(30, 5, CounterState::BackedOff { failures: 2 }));
        assert_eq!(short, "2 fail");
        assert!(long.starts_with("2 failed attempts to specialize: backing off, next try in 30 executions"), "{long}");
    }

    #[test]
    fn the_legend_names_every_counter_word() {
        // Every short counter text, with its number written as N, is a term of the legend.
        let c = |value, state| Counter { value, backoff: 4, state };
        let states = [
            c(0, CounterState::Cold),
            c(7, CounterState::Warming),
            c(30, CounterState::BackedOff { failures: 2 }),
            c(0, CounterState::GaveUp),
            c(1, CounterState::Specialized { misses: 3 }),
        ];
        for state in states {
            let short = counter_words(&state).0;
            let term: String = short.split(' ').map(|w| if w.parse::<u32>().is_ok() { "N" } else { w }).collect::<Vec<_>>().join(" ");
            assert!(LISTING_TERMS.iter().any(|(t, _)| *t == term), "{short} ({term}) is not in LISTING_TERMS");
        }
        assert!(signed(0.025, true).ends_with(" pp") && LISTING_TERMS.iter().any(|(t, _)| *t == "pp"));
    }

    #[test]
    fn inert_shows_controls_and_bidi() {
        assert!(matches!(inert("pkg.mod:Klass.<locals>.f · é λ 👩‍💻"), Cow::Borrowed(_)));
        assert_eq!(inert("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(inert("\x1b]8;;http://x\x07link\x1b]8;;\x07"), "\\x1b]8;;http://x\\x07link\\x1b]8;;\\x07");
        assert_eq!(inert("one\ntwo\rthree\tfour"), "one\\ntwo\\rthree\\tfour");
        assert_eq!(inert("\u{7f}\u{85}\u{9b}"), "\\x7f\\x85\\x9b");
        assert_eq!(inert("evil\u{202e}gol.py"), "evil\\u202egol.py");
        assert_eq!(inert("\u{2066}\u{200b}\u{feff}\u{2028}"), "\\u2066\\u200b\\ufeff\\u2028");
        assert_eq!(inert("C:\\x1b"), "C:\\x1b");
        for c in (0..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            assert!(!inert(&c.to_string()).chars().any(is_unsafe_char), "{c:?}");
        }
    }
}
