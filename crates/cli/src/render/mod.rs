//! Rendering a diff report for people and programs: what every output format of
//! `specdiff diff` shares (the input bundle, number formatting, source lines of a change),
//! with one module per format: [`text`] (terminal), [`markdown`] (a pull-request comment),
//! [`json`] (the engine's report, for tools). The report itself comes from
//! `specdiff_core::diff`; nothing here classifies or ranks.

pub mod json;
pub mod markdown;
mod md_escape;
#[cfg(test)]
mod props;
pub mod text;

use specdiff_core::Change;
use specdiff_core::report::{DiffReport, FunctionDiff, Share, StatsDiff};
use specdiff_core::Dump;

use specdiff_core::view::{FunctionView, GateResult, View};

/// The widest a padded name column gets in text tables (families, opnames): a longer name is
/// printed whole and only its own row loses the alignment. Rust's formatter refuses widths
/// past 65,535 (a panic), which a crafted dump's names can reach.
pub const NAME_COLUMN_MAX: usize = 48;

// The words and numbers every output shares live once, in the core, and so does `inert`, the
// one escaping of untrusted text (names, paths, source lines) for every output.
pub use specdiff_core::report::wording::{
    count, function_counts, grouped, inert, lines, opnames as ops, other_changes, percent as pct, regression_kinds,
    renamed,
};
// How long an untrusted string may be when shown (text and markdown; JSON keeps it whole).
pub use specdiff_core::report::display::{capped, shown, NAME_CAP, SENTENCE_CAP};

/// Everything a renderer may show.
pub struct RenderInput<'a> {
    /// The engine's report.
    pub report: &'a DiffReport,
    /// The base dump (for base-side source lines).
    pub base: &'a Dump,
    /// The head dump.
    pub head: &'a Dump,
    /// The pystats diff, when both runs have statistics.
    pub stats: Option<&'a StatsDiff>,
    /// Why there is no stats diff although one run has statistics.
    pub stats_note: Option<&'a str>,
    /// What every output shows of the diff: the counts, each function's hotness, the gate's
    /// verdict (with `--fail-on-regression`), what the link leaves out.
    pub view: &'a View,
    /// The diff's share link for the viewer, with `--link`.
    pub link: Option<&'a str>,
}

/// `module:qualname` with each part capped at `max` characters (never a string of the whole
/// name built first): a long module does not hide the qualname, nor one the other.
pub fn capped_function(module: &str, qualname: &str, max: usize) -> String {
    format!("{}:{}", capped(module, max), capped(qualname, max))
}

/// `module:qualname` as a person is shown it: each part capped at [`NAME_CAP`], inert.
pub fn shown_function(module: &str, qualname: &str) -> String {
    format!("{}:{}", name(module), name(qualname))
}

/// A name from a dump as shown: at most [`NAME_CAP`] characters, inert.
pub fn name(s: &str) -> std::borrow::Cow<'_, str> {
    shown(s, NAME_CAP)
}

/// A sentence that quotes names (explanation, warning, note) as shown: at most
/// [`SENTENCE_CAP`] characters, inert.
pub fn sentence(s: &str) -> std::borrow::Cow<'_, str> {
    shown(s, SENTENCE_CAP)
}

/// `"72.1% (512/710)"`; `"–"` when there are no sites.
pub fn share(s: &Share) -> String {
    if s.sites == 0 {
        "–".into()
    } else {
        format!("{} ({}/{})", pct(s.share), s.specialized, s.sites)
    }
}

/// The source text of a change: base's and head's lines (when the dumps kept them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeSource {
    /// `(line, text)` in base.
    pub base: Option<(u32, String)>,
    /// `(line, text)` in head.
    pub head: Option<(u32, String)>,
}

impl ChangeSource {
    /// True when both sides show the same text (or only one side has text).
    pub fn same_text(&self) -> bool {
        match (&self.base, &self.head) {
            (Some((_, b)), Some((_, h))) => b.trim() == h.trim(),
            _ => true,
        }
    }
}

/// The source lines of change `c` of function `f`.
pub fn change_source(input: &RenderInput, f: &FunctionDiff, c: &Change) -> ChangeSource {
    let side = |d: &Dump, code: u32, line: Option<u32>, present: bool| -> Option<(u32, String)> {
        let line = line.filter(|_| present)?;
        let file = d.code.get(code as usize)?.file;
        Some((line, d.source_line(file, line)?.to_string()))
    };
    ChangeSource {
        base: side(input.base, f.base_code, c.base_line, c.base.is_some()),
        head: side(input.head, f.head_code, c.head_line, c.head.is_some()),
    }
}

/// The function's hotness as shown: `Some("43.2%")`, `None` when neither run was sampled.
pub fn hotness(f: &FunctionView) -> Option<String> {
    f.hotness.map(|e| pct(e.share()))
}

/// `f`'s hotness with its 95 % interval and the samples behind it, for a function's facts:
/// `12.0% (95% CI 6.1–21.9%, 49 samples)`; `None` when no run was sampled.
pub fn hotness_with_interval(f: &FunctionView) -> Option<String> {
    f.hotness.map(|e| e.with_interval())
}

/// Families whose specialized share changed, in the report's (alphabetical) order.
pub fn changed_families(report: &DiffReport) -> impl Iterator<Item = &specdiff_core::report::FamilyCount> {
    report.summary.families.iter().filter(|f| f.base.sites != f.head.sites || f.base.specialized != f.head.specialized)
}

/// Cuts `text` to at most `max` characters, ending in `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => {
            let cut = text[..i].char_indices().nth(max.saturating_sub(1)).map_or(i, |(j, _)| j);
            format!("{}…", &text[..cut])
        }
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(pct(0.4321), "43.2%");
        assert_eq!(pct(0.0), "0.0%");
        assert_eq!(pct(0.0001), "<0.1%");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(12), "12");
        assert_eq!(count(1, "site", "sites"), "1 site");
        assert_eq!(share(&Share { sites: 4, specialized: 3, share: 0.75 }), "75.0% (3/4)");
        assert_eq!(share(&Share::default()), "–");
    }

    #[test]
    fn clipping() {
        assert_eq!(clip("abcdef", 10), "abcdef");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("ééééé", 3), "éé…");
        assert_eq!(clip("abc", 3), "abc");
    }
}
