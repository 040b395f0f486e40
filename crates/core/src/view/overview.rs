//! The counts of one diff, each with its one written definition: every output (the terminal's
//! headline, the PR comment, the JSON report's `summary`, the page's overview and tabs, the
//! HTML report) shows these numbers and no count of its own.

use crate::report::wording::{count, grouped};
use crate::report::types::RunSummary;
use crate::report::FunctionDiff;

/// The overview counts of a diff.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Overview {
    /// *Matched function*: a code object present in both runs (after filters), paired by
    /// module and qualified name, or by its body when it was renamed or moved.
    pub matched: u32,
    /// *Changed function*: a matched function with at least one site whose kind is not
    /// `unchanged` (code edits that add or remove sites count). The report lists exactly these.
    pub changed: u32,
    /// *Function whose specialization changed*: a changed function with a site that is not a
    /// code edit alone ([`FunctionDiff::specialization_changed`]); a share link picks among these.
    pub specialization_changed: u32,
    /// *Added function*: a code object only in the head run.
    pub added: u32,
    /// *Removed function*: a code object only in the base run.
    pub removed: u32,
    /// *Regression*: a `lost`, `missing` or `backed_off` site of a matched function that is not
    /// import-time code ([`crate::report::import_time`]).
    pub regressions: u32,
    /// Functions with at least one regression, import-time code apart.
    pub regressed_functions: u32,
    /// Regressions in import-time code: shown, counted apart from [`Overview::regressions`],
    /// and left out of the gate unless `--gate-import-time` asks.
    pub import_time_regressions: u32,
    /// *Gain*: a `gained` site of a matched function.
    pub gains: u32,
    /// *Lost trace*: a loop of a matched function, not import-time code, whose JIT executor
    /// head lost or had invalidated, or whose trace now ends early ([`crate::report::traces`]);
    /// the gate counts it. Left out
    /// of the JSON when 0 (every diff of dumps without executors).
    #[serde(skip_serializing_if = "no_traces")]
    pub lost_traces: u32,
}

fn no_traces(n: &u32) -> bool {
    *n == 0
}

impl Overview {
    /// The counts of a diff whose run-level numbers are `summary` and whose changed functions
    /// are `functions` (the report's; a share link's may be fewer, and then the sender's
    /// summary still counts them all).
    pub fn of(summary: &RunSummary, functions: &[FunctionDiff]) -> Self {
        let regressed = functions.iter().filter(|f| f.regressions > 0 && !f.import_time).count() as u32;
        Overview {
            matched: summary.matched,
            changed: summary.changed,
            specialization_changed: functions.iter().filter(|f| f.specialization_changed()).count() as u32,
            added: summary.added,
            removed: summary.removed,
            regressions: summary.regressions,
            regressed_functions: regressed,
            import_time_regressions: summary.import_time_regressions,
            gains: summary.counts.gained,
            lost_traces: functions.iter().filter(|f| !f.import_time).map(FunctionDiff::trace_regressions).sum(),
        }
    }

    /// One sentence: `"6 regressions in 4 functions, 1 gain"`, with import-time regressions in
    /// parentheses.
    pub fn headline(&self) -> String {
        if self.regressions == 0 && self.gains == 0 && self.changed == 0 && self.lost_traces == 0 {
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
        if self.import_time_regressions > 0 {
            s.push_str(&format!(" ({} more at import time)", self.import_time_regressions));
        }
        if self.lost_traces > 0 {
            let loops = count(self.lost_traces as u64, "loop", "loops");
            if self.regressions == 0 {
                s = s.replacen("no regressions", "no site regressions", 1);
            }
            // Lost, invalidated, or ending early (part of the loop in tier 1): all a loss.
            s.push_str(&format!(
                "; {loops} lost {}",
                if self.lost_traces == 1 { "its JIT trace or part of it" } else { "their JIT traces or parts of them" }
            ));
        }
        s
    }

    /// `"5 changed · 7 added"`: the changed, added and removed functions, the zero ones left out
    /// (`"none changed"` when all are zero).
    pub fn changed_words(&self) -> String {
        let mut out = String::new();
        for (n, word) in [(self.changed, " changed"), (self.added, " added"), (self.removed, " removed")] {
            if n > 0 {
                if !out.is_empty() {
                    out.push_str(" · ");
                }
                out.push_str(&grouped(n as u64));
                out.push_str(word);
            }
        }
        if out.is_empty() {
            out.push_str("none changed");
        }
        out
    }

    /// `"12"`, or `"12 (+3 at import time)"`: the regressions with import-time code apart.
    pub fn regression_words(&self) -> String {
        if self.import_time_regressions > 0 {
            format!("{} (+{} at import time)", grouped(self.regressions as u64), grouped(self.import_time_regressions as u64))
        } else {
            grouped(self.regressions as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_the_counts() {
        let o = Overview { matched: 9, changed: 5, added: 7, regressions: 6, regressed_functions: 4, gains: 1, ..Overview::default() };
        assert_eq!(o.headline(), "6 regressions in 4 functions, 1 gain");
        assert_eq!(o.changed_words(), "5 changed · 7 added");
        assert_eq!(o.regression_words(), "6");
        let o = Overview { import_time_regressions: 3, ..o };
        assert_eq!(o.headline(), "6 regressions in 4 functions, 1 gain (3 more at import time)");
        assert_eq!(o.regression_words(), "6 (+3 at import time)");
        assert_eq!(Overview::default().headline(), "no specialization changes");
        assert_eq!(Overview::default().changed_words(), "none changed");
    }
}
