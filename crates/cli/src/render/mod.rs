//! Rendering a diff report for people and programs: what every output format of
//! `specdiff diff` shares (the input bundle, number formatting, source lines of a change),
//! with one module per format: [`text`] (terminal), [`markdown`] (a pull-request comment),
//! [`json`] (the engine's report, for tools). The report itself comes from
//! `specdiff_core::diff`; nothing here classifies or ranks.

pub mod json;
pub mod markdown;
mod md_escape;
pub mod text;

use specdiff_core::engine::Change;
use specdiff_core::report::{DiffReport, FunctionDiff, Share, StatsDiff};
use specdiff_core::Dump;

use crate::gate::GateResult;

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
    /// The regression gate's verdict, with `--fail-on-regression`.
    pub gate: Option<&'a GateResult>,
    /// The diff's share link for the viewer, with `--link`.
    pub link: Option<&'a str>,
}

/// `module:qualname`.
pub fn function_name(module: &str, qualname: &str) -> String {
    format!("{module}:{qualname}")
}

/// `0.432` → `"43.2%"`; tiny non-zero shares show as `"<0.1%"`.
pub fn pct(share: f64) -> String {
    if share > 0.0 && share < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", share * 100.0)
    }
}

/// `"72.1% (512/710)"`; `"–"` when there are no sites.
pub fn share(s: &Share) -> String {
    if s.sites == 0 {
        "–".into()
    } else {
        format!("{} ({}/{})", pct(s.share), s.specialized, s.sites)
    }
}

/// `"1 site"` / `"3 sites"`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

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

/// `"BINARY_OP_ADD_INT → BINARY_OP"`, with `∅` for a missing side.
pub fn ops(c: &Change) -> String {
    match (c.base.as_deref(), c.head.as_deref()) {
        (Some(b), Some(h)) if b == h => b.to_string(),
        (b, h) => format!("{} → {}", b.unwrap_or("∅"), h.unwrap_or("∅")),
    }
}

/// `"line 53 → 54"`, `"line 54"` when both sides agree.
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
pub fn hotness(input: &RenderInput, f: &FunctionDiff) -> Option<String> {
    crate::gate::hotness_percent(input.report, f).map(|p| pct(p / 100.0))
}

/// `"1 regression · 1 gained · 1 changed"`: the function's non-zero site counts.
pub fn function_counts(f: &FunctionDiff) -> String {
    use specdiff_core::ChangeKind;
    let mut parts = vec![];
    if f.regressions > 0 {
        parts.push(count(f.regressions as u64, "regression", "regressions"));
    }
    for k in ChangeKind::ALL {
        if k.is_regression() || k == ChangeKind::Unchanged {
            continue;
        }
        let n = f.counts.get(k);
        if n > 0 {
            parts.push(format!("{n} {}", k.as_str().replace('_', " ")));
        }
    }
    if parts.is_empty() {
        parts.push("unchanged".into());
    }
    parts.join(" · ")
}

/// Families whose specialized share changed, in the report's (alphabetical) order.
pub fn changed_families(report: &DiffReport) -> impl Iterator<Item = &specdiff_core::report::FamilyCount> {
    report.summary.families.iter().filter(|f| f.base.sites != f.head.sites || f.base.specialized != f.head.specialized)
}

/// `"6 regressions in 4 functions"`-style headline numbers.
pub struct Headline {
    /// Regressed sites.
    pub regressions: u32,
    /// Functions with regressions.
    pub regressed_functions: usize,
    /// Gained sites.
    pub gains: u32,
    /// Functions with any changed site.
    pub changed_functions: u32,
}

impl Headline {
    /// The numbers of `report`.
    pub fn of(report: &DiffReport) -> Self {
        Headline {
            regressions: report.summary.regressions,
            regressed_functions: report.functions.iter().filter(|f| f.regressions > 0).count(),
            gains: report.summary.counts.gained,
            changed_functions: report.summary.changed,
        }
    }

    /// One sentence: `"6 regressions in 4 functions, 1 gain"`.
    pub fn sentence(&self) -> String {
        if self.regressions == 0 && self.gains == 0 && self.changed_functions == 0 {
            return "no specialization changes".into();
        }
        let mut s = if self.regressions == 0 {
            "no regressions".to_string()
        } else {
            format!(
                "{} in {}",
                count(self.regressions as u64, "regression", "regressions"),
                count(self.regressed_functions as u64, "function", "functions")
            )
        };
        if self.gains > 0 {
            s.push_str(&format!(", {}", count(self.gains as u64, "gain", "gains")));
        }
        s
    }
}

/// Changes other than regressions and gains, over the whole run: `"1 changed, 2 added"`.
pub fn other_changes(report: &DiffReport) -> String {
    use specdiff_core::ChangeKind::*;
    let c = &report.summary.counts;
    let parts: Vec<String> = [(Churning, c.churning), (Changed, c.changed), (Added, c.added), (Removed, c.removed)]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.as_str()))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        format!("{} sites", parts.join(", "))
    }
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
