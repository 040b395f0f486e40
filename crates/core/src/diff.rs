//! The top-level entry points: [`diff_dumps`] (the whole report) and [`function_rows`] (the
//! aligned rows of one function, on demand), both thin wrappers over [`DiffSession`], which
//! keeps the normalizer, the code matching and the explanation context between calls.
//!
//! Pipeline per matched pair: normalize → align → classify → explain → summarize.

use serde::{Deserialize, Serialize};

use crate::align::{align_sites, AlignOptions, AlignedRow, RowKind};
use crate::classify::{build_change, classify, Change, ChangeKind, ClassifyOptions, SiteView};
use crate::dump::Dump;
use crate::explain::{explain, ExplainContext, Facts};
use crate::matching::{identity, match_code, Matching};
use crate::normalize::{Normalizer, Side, Site};
use crate::report::*;
use crate::report::{function_ref, run_ref, run_warnings, warning};
use crate::summary::{family_counts, rank_order, score, Hotness, KindCounts, ShareTally};

/// What to diff and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DiffOptions {
    /// Glob patterns (`*`, `?`) for functions: a code object is included when one matches its
    /// qualname, `module.qualname` or `module:qualname`. Empty: all.
    pub functions: Vec<String>,
    /// Glob patterns for module names. Empty: all.
    pub modules: Vec<String>,
    /// Also list unchanged functions and unchanged sites (`--all`).
    pub include_unchanged: bool,
    /// Classifier thresholds.
    pub classify: ClassifyOptions,
    /// Alignment settings.
    pub align: AlignOptions,
    /// Return a report (with an `unrelated` warning) instead of
    /// [`DiffError::DifferentPrograms`].
    pub allow_unrelated: bool,
    /// Run the explanation rules.
    pub explain: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            functions: vec![],
            modules: vec![],
            include_unchanged: false,
            classify: ClassifyOptions::default(),
            align: AlignOptions::default(),
            allow_unrelated: false,
            explain: true,
        }
    }
}

/// Why two dumps cannot be diffed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiffError {
    /// No code object in common (or only same-named code that differs entirely).
    #[error("these dumps are from different programs ({base} vs {head}): {detail}")]
    DifferentPrograms {
        /// Base label.
        base: String,
        /// Head label.
        head: String,
        /// Code objects matched by name.
        matched: u32,
        /// Best instruction similarity among them.
        best_similarity: f64,
        /// Human-readable reason.
        detail: String,
    },
}

/// Below this best pair similarity, two dumps are considered unrelated programs.
pub const RELATED_SIMILARITY: f64 = 0.5;

/// Diffs two dumps. Returns [`DiffError::DifferentPrograms`] when they share no code (unless
/// `options.allow_unrelated`). Diffing a dump with itself yields an empty report.
pub fn diff_dumps(base: &Dump, head: &Dump, options: &DiffOptions) -> Result<DiffReport, DiffError> {
    DiffSession::new(base, head, options.clone()).report()
}

/// The aligned, classified rows of one function pair (either side may be absent for added
/// or removed code objects). Indices are those of [`FunctionDiff::base_code`] etc.
pub fn function_rows(base: &Dump, head: &Dump, base_code: Option<u32>, head_code: Option<u32>, options: &DiffOptions) -> FunctionRows {
    DiffSession::new(base, head, options.clone()).function_rows(base_code, head_code)
}

/// A diff in progress: reuse it to compute the report and then rows of several functions.
pub struct DiffSession<'a> {
    pub(crate) base: &'a Dump,
    pub(crate) head: &'a Dump,
    pub(crate) options: DiffOptions,
    pub(crate) norm: Normalizer<'a>,
    pub(crate) matching: Matching,
    pub(crate) explain: Option<ExplainContext>,
}

/// Everything computed for one pair.
pub(crate) struct Compared {
    pub(crate) base_sites: Vec<Site>,
    pub(crate) head_sites: Vec<Site>,
    pub(crate) rows: Vec<AlignedRow>,
    pub(crate) kinds: Vec<Option<ChangeKind>>,
    pub(crate) changes: Vec<Change>,
    pub(crate) counts: KindCounts,
    pub(crate) tallies: (ShareTally, ShareTally),
    pub(crate) edits: u32,
    pub(crate) same: usize,
}

impl<'a> DiffSession<'a> {
    /// Matches the code objects of `base` and `head`.
    pub fn new(base: &'a Dump, head: &'a Dump, options: DiffOptions) -> Self {
        let mut norm = Normalizer::new(base, head);
        let matching = match_code(&mut norm);
        DiffSession { base, head, options, norm, matching, explain: None }
    }

    /// The code matching.
    pub fn matching(&self) -> &Matching {
        &self.matching
    }

    pub(crate) fn view(&self, side: Side, code: u32, site: Site) -> SiteView<'a> {
        let dump = self.norm.dump(side);
        SiteView { dump, code: &dump.code[code as usize], site, rules: self.norm.rules(side) }
    }

    pub(crate) fn compare(&mut self, b: Option<u32>, h: Option<u32>, keep_all: bool) -> Compared {
        if self.options.explain && self.explain.is_none() {
            self.explain = Some(ExplainContext::new(&mut self.norm, &self.matching));
        }
        let base_sites = b.map(|i| self.norm.sites(Side::Base, i)).unwrap_or_default();
        let head_sites = h.map(|i| self.norm.sites(Side::Head, i)).unwrap_or_default();
        let rows: Vec<AlignedRow> = match (b, h) {
            (Some(_), Some(_)) => align_sites(&base_sites, &head_sites, &self.options.align),
            _ => (0..base_sites.len() as u32)
                .map(|i| AlignedRow { kind: RowKind::BaseOnly, base: Some(i), head: None })
                .chain((0..head_sites.len() as u32).map(|j| AlignedRow { kind: RowKind::HeadOnly, base: None, head: Some(j) }))
                .collect(),
        };
        let (mut tb, mut th) = (ShareTally::default(), ShareTally::default());
        for s in &base_sites {
            tb.add(&self.view(Side::Base, b.unwrap(), *s));
        }
        for s in &head_sites {
            th.add(&self.view(Side::Head, h.unwrap(), *s));
        }
        let mut c = Compared {
            kinds: Vec::with_capacity(rows.len()),
            changes: vec![],
            counts: KindCounts::default(),
            tallies: (tb, th),
            edits: 0,
            same: rows.iter().filter(|r| r.kind == RowKind::Same).count(),
            base_sites,
            head_sites,
            rows,
        };
        for (ri, row) in c.rows.iter().enumerate() {
            let bv = row.base.map(|i| self.view(Side::Base, b.unwrap(), c.base_sites[i as usize]));
            let hv = row.head.map(|j| self.view(Side::Head, h.unwrap(), c.head_sites[j as usize]));
            let kind = classify(bv.as_ref(), hv.as_ref(), row.kind, &self.options.classify);
            c.kinds.push(kind);
            let Some(kind) = kind else {
                c.edits += matches!(row.kind, RowKind::BaseOnly | RowKind::HeadOnly) as u32;
                continue;
            };
            c.counts.add(kind);
            if kind == ChangeKind::Unchanged && !keep_all {
                continue;
            }
            let mut change = build_change(kind, bv.as_ref(), hv.as_ref(), row.kind, ri as u32);
            if let (Some(ctx), true) = (&self.explain, kind != ChangeKind::Unchanged) {
                let facts = Facts {
                    change: &change,
                    base: bv,
                    head: hv,
                    head_sites: &c.head_sites,
                    head_index: row.head.map(|j| j as usize),
                    head_code: h,
                    base_key: row.base.map(|i| c.base_sites[i as usize].key),
                };
                change.explanation = explain(ctx, &facts);
            }
            c.changes.push(change);
        }
        c
    }

    fn included(&self, side: Side, code: u32) -> bool {
        let d = self.norm.dump(side);
        let (module, qualname) = identity(d, &d.code[code as usize]);
        let o = &self.options;
        (o.modules.is_empty() || o.modules.iter().any(|p| glob_match(p, &module)))
            && (o.functions.is_empty()
                || o.functions.iter().any(|p| {
                    glob_match(p, &qualname)
                        || glob_match(p, &format!("{module}.{qualname}"))
                        || glob_match(p, &format!("{module}:{qualname}"))
                }))
    }

    /// Computes the whole report.
    pub fn report(&mut self) -> Result<DiffReport, DiffError> {
        let (base, head) = (self.base, self.head);
        let filtered = !self.options.functions.is_empty() || !self.options.modules.is_empty();
        let mut warnings = run_warnings(base, head);
        let pairs: Vec<_> = self.matching.pairs.iter().copied().filter(|p| self.included(Side::Head, p.head)).collect();
        let mut summary = RunSummary { matched: pairs.len() as u32, ..Default::default() };
        let (mut tb, mut th) = (ShareTally::default(), ShareTally::default());
        let (mut functions, mut same, mut total, mut best) = (vec![], 0usize, 0usize, 0f64);
        for p in &pairs {
            let c = self.compare(Some(p.base), Some(p.head), self.options.include_unchanged);
            let (nb, nh) = (c.base_sites.len(), c.head_sites.len());
            same += c.same;
            total += nb + nh;
            best = best.max(if nb + nh == 0 { 1.0 } else { 2.0 * c.same as f64 / (nb + nh) as f64 });
            tb.merge(&c.tallies.0);
            th.merge(&c.tallies.1);
            summary.counts.merge(&c.counts);
            let changed = c.counts.changed_sites() > 0;
            summary.changed += changed as u32;
            if changed || self.options.include_unchanged {
                functions.push(self.function_diff(p.base, p.head, c));
            }
        }
        let (removed, added) = (self.matching.removed.clone(), self.matching.added.clone());
        let removed_functions = self.side_refs(Side::Base, removed, &mut tb);
        let added_functions = self.side_refs(Side::Head, added, &mut th);
        summary.added = added_functions.len() as u32;
        summary.removed = removed_functions.len() as u32;
        summary.regressions = functions.iter().map(|f: &FunctionDiff| f.regressions).sum();
        summary.base = tb.total;
        summary.head = th.total;
        summary.families = family_counts(&tb, &th);
        summary.similarity = if total == 0 { 1.0 } else { 2.0 * same as f64 / total as f64 };
        let unrelated = (!filtered || !pairs.is_empty())
            && (pairs.is_empty() || best < RELATED_SIMILARITY)
            && !(base.code.is_empty() && head.code.is_empty());
        if unrelated {
            let detail = if pairs.is_empty() {
                "no code object in common".to_string()
            } else {
                format!("{} code objects share a name, but their code differs (best similarity {:.0}%)", pairs.len(), best * 100.0)
            };
            if !self.options.allow_unrelated {
                return Err(DiffError::DifferentPrograms {
                    base: base.label(),
                    head: head.label(),
                    matched: pairs.len() as u32,
                    best_similarity: best,
                    detail,
                });
            }
            warnings.push(warning("unrelated", format!("these dumps seem to be from different programs: {detail}")));
        }
        if filtered && pairs.is_empty() && added_functions.is_empty() && removed_functions.is_empty() {
            warnings.push(warning("no_match_for_filters", "no code object matches the function/module filters".into()));
        }
        functions.sort_by(|a, b| {
            rank_order(
                (a.score, a.regressions, &a.module, &a.qualname, a.head_first_line),
                (b.score, b.regressions, &b.module, &b.qualname, b.head_first_line),
            )
        });
        Ok(DiffReport {
            format: REPORT_FORMAT.into(),
            version: REPORT_VERSION,
            base: run_ref(base),
            head: run_ref(head),
            warnings,
            summary,
            functions,
            added_functions,
            removed_functions,
        })
    }

    /// Summaries of code objects present on one side only.
    fn side_refs(&mut self, side: Side, list: Vec<u32>, tally: &mut ShareTally) -> Vec<FunctionRef> {
        let mut out = vec![];
        let list: Vec<u32> = list.into_iter().filter(|&i| self.included(side, i)).collect();
        for i in list {
            let c = match side {
                Side::Base => self.compare(Some(i), None, false),
                Side::Head => self.compare(None, Some(i), false),
            };
            let t = if side == Side::Base { &c.tallies.0 } else { &c.tallies.1 };
            tally.merge(t);
            out.push(function_ref(self.norm.dump(side), i, t.total));
        }
        out
    }

    fn function_diff(&self, b: u32, h: u32, c: Compared) -> FunctionDiff {
        let (bc, hc) = (&self.base.code[b as usize], &self.head.code[h as usize]);
        let (module, qualname) = identity(self.head, hc);
        let hotness = Hotness::of(Some((self.base, bc)), Some((self.head, hc)));
        let regressions = c.counts.regressions();
        let n = c.base_sites.len() + c.head_sites.len();
        FunctionDiff {
            qualname,
            module,
            regressions,
            gains: c.counts.gained,
            changes: c.changes,
            kind: hc.kind,
            base_code: b,
            head_code: h,
            file: self.head.files[hc.file as usize].path.clone(),
            base_first_line: bc.first_line,
            head_first_line: hc.first_line,
            counts: c.counts,
            specialized_before: c.tallies.0.total,
            specialized_after: c.tallies.1.total,
            score: score(&hotness, regressions),
            hotness,
            edits: c.edits,
            similarity: if n == 0 { 1.0 } else { 2.0 * c.same as f64 / n as f64 },
        }
    }
}

/// Glob matching with `*` (any run of characters) and `?` (one character).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs() {
        assert!(glob_match("dot_*", "dot_sum"));
        assert!(glob_match("*.<locals>.*", "f.<locals>.g"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "ac"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("main", "main2"));
    }
}
