//! The top-level entry points: [`diff_dumps`] (the whole report) and [`function_rows`] (the
//! aligned rows of one function, on demand), both thin wrappers over [`DiffSession`], which
//! keeps the normalizer, the code matching and the explanation context between calls.
//!
//! Pipeline per matched pair: normalize → align → classify → explain → summarize.

use crate::engine::align::{align_sites, AlignedRow, RowKind};
use crate::report::traces::{self, LoopTrace};
use crate::engine::classify::{build_change, classify, Change, ChangeKind, SiteView};
pub use crate::report::options::{DiffError, DiffOptions};
use crate::report::options::RELATED_SIMILARITY;
use crate::model::dump::Dump;
use crate::report::explain::{explain, stats_evidence, ExplainContext, Facts};
use crate::report::rewritten::{demoted, is_rewritten};
use crate::report::sent::{apply, SentExplanation};
use crate::report::identical::FastPath;
use crate::report::paths::PathDisplay;
use crate::engine::match_code;
use crate::engine::matching::{identity, program_code, CodePair, Matching};
use crate::engine::names::CodeNames;
use crate::cpython::normalize::{Normalizer, Side, Site};
use crate::report::types::*;
use crate::report::types::{function_ref, run_ref, run_warnings, warning};
use crate::util::glob::glob_match;
use crate::util::sort;
use crate::report::summary::{family_counts, rank_order, score, Hotness, KindCounts, ShareTally};


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
    pub(crate) explain: Option<ExplainContext<'a>>,
    /// What each side's code objects are called in every output.
    pub(crate) names: (CodeNames, CodeNames),
    /// How each side's file paths are shown (worked out once, not per function).
    pub(crate) paths: (PathDisplay<'a>, PathDisplay<'a>),
    /// Use [`FastPath`] for identical pairs (off only in tests, to compare both paths).
    pub(crate) fast: bool,
    /// Explanations a share link's sender gave, put back over this session's own.
    pub(crate) sent: Vec<SentExplanation>,
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
    /// Too little of the pair aligns to compare its sites ([`crate::report::rewritten`]).
    pub(crate) rewritten: bool,
}

impl Compared {
    /// Every instruction paired by the alignment: within each row whose sites are the same
    /// code, the two sites' instructions one to one from their ends (as the page lays them
    /// out); in a row whose code changed, the primary instructions only. An instruction
    /// outside any site's key (a `NOP`, `NOT_TAKEN`, `EXTENDED_ARG`) is paired too, so a trace's
    /// exit there is not taken for new.
    pub(crate) fn instruction_pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for r in &self.rows {
            let (Some(b), Some(h)) = (r.base, r.head) else { continue };
            let (b, h) = (&self.base_sites[b as usize], &self.head_sites[h as usize]);
            if r.kind == RowKind::Same {
                out.extend((b.start..b.end).rev().zip((h.start..h.end).rev()));
            } else {
                out.push((b.primary, h.primary));
            }
        }
        out
    }
}

impl<'a> DiffSession<'a> {
    /// Matches the code objects of `base` and `head`.
    pub fn new(base: &'a Dump, head: &'a Dump, options: DiffOptions) -> Self {
        let mut norm = Normalizer::new(base, head);
        let matching = match_code(&mut norm);
        let names = (CodeNames::of(base), CodeNames::of(head));
        let paths = (PathDisplay::of(base), PathDisplay::of(head));
        DiffSession { base, head, options, norm, matching, explain: None, names, paths, fast: true, sent: Vec::new() }
    }

    /// This session with the explanations a share link carries (`ShareNote::explained`),
    /// which replace its own for the changes they name.
    pub fn with_sent(mut self, sent: Vec<SentExplanation>) -> Self {
        self.sent = sent;
        self
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
        let sites = base_sites.len() + head_sites.len();
        // Rows the aligner paired on evidence (the same code, a `getattr()`/`setattr()` or
        // call-form rewrite) are aligned; `Modified` rows are its guesses.
        let aligned = rows.iter().filter(|r| matches!(r.kind, RowKind::Same | RowKind::Rewritten | RowKind::CallForm)).count();
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
            rewritten: b.is_some() && h.is_some() && is_rewritten(aligned, sites),
            base_sites,
            head_sites,
            rows,
        };
        for (ri, row) in c.rows.iter().enumerate() {
            let bv = row.base.map(|i| self.view(Side::Base, b.unwrap(), c.base_sites[i as usize]));
            let hv = row.head.map(|j| self.view(Side::Head, h.unwrap(), c.head_sites[j as usize]));
            let mut kind = classify(bv.as_ref(), hv.as_ref(), row.kind, &self.options.classify);
            let guessed = matches!(row.kind, RowKind::Same | RowKind::Modified);
            let demotion = kind.filter(|_| c.rewritten && guessed).and_then(|k| demoted(k, aligned, sites));
            if let Some((k, _, _)) = &demotion {
                kind = Some(*k);
            }
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
            if let Some((_, cause, why)) = demotion {
                change.explanation = crate::report::wording::with_evidence(&change, Some(why));
                change.cause = Some(cause);
            } else if let (Some(ctx), true) = (&self.explain, kind != ChangeKind::Unchanged) {
                let facts = Facts {
                    change: &change,
                    base: bv,
                    head: hv,
                    head_sites: &c.head_sites,
                    head_index: row.head.map(|j| j as usize),
                    head_code: h,
                    base_key: row.base.map(|i| c.base_sites[i as usize].key),
                };
                let (cause, why) = explain(ctx, &facts).unzip();
                let stats = ctx.failure_growth().and_then(|g| stats_evidence(g, &change, cause));
                let why = match (why, stats) {
                    (Some(w), Some(s)) => Some(format!("{w}; {s}")),
                    (w, s) => w.or(s),
                };
                change.explanation = crate::report::wording::with_evidence(&change, why);
                change.cause = cause;
            }
            c.changes.push(change);
        }
        if let (Some(b), Some(h), false) = (b, h, self.sent.is_empty()) {
            apply(&mut c.changes, &self.sent, b, h);
        }
        c
    }

    /// The display names of `side`'s code objects.
    pub fn names(&self, side: Side) -> &CodeNames {
        match side {
            Side::Base => &self.names.0,
            Side::Head => &self.names.1,
        }
    }

    fn included(&self, side: Side, code: u32) -> bool {
        let d = self.norm.dump(side);
        let (module, qualname) = identity(d, &d.code[code as usize]);
        let shown = self.names(side).name(d, code);
        let o = &self.options;
        // The display name and the co_qualname both count: `Point.__init__` and
        // `*__create_fn__*` both select a dataclass's `__init__`.
        (o.modules.is_empty() || o.modules.iter().any(|p| glob_match(p, &module)))
            && (o.functions.is_empty()
                || o.functions.iter().any(|p| {
                    [qualname.as_str(), shown].iter().any(|q| {
                        glob_match(p, q) || glob_match(p, &format!("{module}.{q}")) || glob_match(p, &format!("{module}:{q}"))
                    })
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
        let (mut functions, mut same, mut total) = (vec![], 0usize, 0usize);
        // The different-programs check looks at the programs' own code (docs/engine.md,
        // "Different programs"): how much of it, matched or not, aligns as `same`.
        let program = ProgramCode::new(base, head);
        let (mut program_pairs, mut program_same, mut program_total) = (0usize, 0usize, 0usize);
        let mut fast = self.fast_path();
        for p in &pairs {
            let own = program.includes(p);
            program_pairs += own as usize;
            if let Some(f) = fast.as_mut() {
                if f.identical(&mut self.norm, p.base, p.head) && self.identical_traces(p.base, p.head) {
                    let (sites, specialization_sites) = f.count(&mut self.norm, p.base);
                    same += sites;
                    total += 2 * sites;
                    if own {
                        program_same += sites;
                        program_total += 2 * sites;
                    }
                    summary.counts.unchanged += specialization_sites;
                    continue;
                }
            }
            let c = self.compare(Some(p.base), Some(p.head), self.options.include_unchanged);
            let (nb, nh) = (c.base_sites.len(), c.head_sites.len());
            same += c.same;
            total += nb + nh;
            if own {
                program_same += c.same;
                program_total += nb + nh;
            }
            tb.merge(&c.tallies.0);
            th.merge(&c.tallies.1);
            summary.counts.merge(&c.counts);
            let traces = self.traces(p.base, p.head, &c);
            let changed = c.counts.changed_sites() > 0 || !traces.is_empty();
            summary.changed += changed as u32;
            if changed || self.options.include_unchanged {
                functions.push(self.function_diff(p.base, p.head, c, traces));
            }
        }
        if let Some(f) = fast {
            let t = f.tally(base);
            tb.merge(&t);
            th.merge(&t);
        }
        let (removed, added) = (self.matching.removed.clone(), self.matching.added.clone());
        let removed_functions = self.side_refs(Side::Base, removed, &mut tb, &program, &mut program_total);
        let added_functions = self.side_refs(Side::Head, added, &mut th, &program, &mut program_total);
        summary.added = added_functions.len() as u32;
        summary.removed = removed_functions.len() as u32;
        for f in &functions {
            *if f.import_time { &mut summary.import_time_regressions } else { &mut summary.regressions } += f.regressions;
        }
        summary.base = tb.total;
        summary.head = th.total;
        summary.families = family_counts(&tb, &th);
        summary.similarity = if total == 0 { 1.0 } else { 2.0 * same as f64 / total as f64 };
        let mut alike = if program_total == 0 { 1.0 } else { 2.0 * program_same as f64 / program_total as f64 };
        if program_pairs > 0 && alike < RELATED_SIMILARITY {
            alike = alike.max(self.moved_code_similarity(&program));
        }
        let unrelated = (!filtered || program_pairs > 0)
            && (program_pairs == 0 || alike < RELATED_SIMILARITY)
            && !(base.code.is_empty() && head.code.is_empty());
        if unrelated {
            let detail = match (program_pairs, program.applies) {
                (0, false) => "no code object in common".to_string(),
                (0, true) => "none of their own code is in both (module __main__, files next to the script)".to_string(),
                (n, false) => {
                    format!("{n} code objects share a name, but only {:.0}% of their code is alike", alike * 100.0)
                }
                (n, true) => format!(
                    "{n} of their own code objects share a name, but only {:.0}% of their own code is alike",
                    alike * 100.0
                ),
            };
            if !self.options.allow_unrelated {
                return Err(DiffError::DifferentPrograms {
                    base: base.label(),
                    head: head.label(),
                    matched: program_pairs as u32,
                    best_similarity: alike,
                    detail,
                });
            }
            warnings.push(warning("unrelated", format!("these dumps seem to be from different programs: {detail}")));
        }
        if filtered && pairs.is_empty() && added_functions.is_empty() && removed_functions.is_empty() {
            warnings.push(warning("no_match_for_filters", "no code object matches the function/module filters".into()));
        }
        // Import-time code after the program's own, each part ranked.
        sort::sort_by(&mut functions, |a, b| {
            a.import_time.cmp(&b.import_time).then_with(|| {
                rank_order(
                    (a.score, a.regressions, &a.module, &a.qualname, a.head_first_line),
                    (b.score, b.regressions, &b.module, &b.qualname, b.head_first_line),
                )
            })
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

    /// The fast path for identical pairs, when the options allow it: the report lists no
    /// unchanged sites (`include_unchanged` off), both dumps have the same CPython version
    /// (so nothing is merged across versions and counters read alike), and the classifier's
    /// thresholds are at least 1 (so identical sites are `unchanged`, not `missing` or
    /// `churning`).
    fn fast_path(&self) -> Option<FastPath> {
        let o = &self.options;
        let same_version = self.norm.rules(Side::Base).version == self.norm.rules(Side::Head).version;
        if !self.fast || o.include_unchanged || !same_version || o.classify.min_flips == 0 || o.classify.min_misses == 0 {
            return None;
        }
        Some(FastPath::new(self.base, self.head))
    }

    /// Summaries of code objects present on one side only; adds the sites of those that are
    /// the programs' code to `program_sites`.
    /// How alike the programs' own code is when code may have moved between functions (a
    /// module-level loop wrapped in `def main()`, a function extracted or renamed): all own
    /// sites of each side in source order (file, line), aligned as one sequence; 2 × the sites
    /// aligned equal / all own sites. Moved code keeps its place in the file, unrelated code
    /// does not line up. Only asked when the per-function measure finds too little in common.
    fn moved_code_similarity(&mut self, program: &ProgramCode) -> f64 {
        // The path is borrowed from the dump (its lifetime, not `self`'s): no copy per site.
        let mut seqs: [Vec<(&str, u32, u32, u64)>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Base, Side::Head].into_iter().enumerate() {
            let d = self.norm.dump(side);
            for code in 0..d.code.len() as u32 {
                if !(program.includes_one(side, code) && self.included(side, code)) {
                    continue;
                }
                let c = &d.code[code as usize];
                let file = d.files[c.file as usize].path.as_str();
                for s in self.norm.sites(side, code) {
                    let i = &c.instructions[s.primary as usize];
                    seqs[k].push((file, i.line.unwrap_or(c.first_line), i.offset, s.key));
                }
            }
            crate::util::sort::sort_by(&mut seqs[k], |a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        }
        let keys = |s: &[(&str, u32, u32, u64)]| s.iter().map(|t| t.3).collect::<Vec<u64>>();
        let (old, new) = (keys(&seqs[0]), keys(&seqs[1]));
        let total = old.len() + new.len();
        if total == 0 {
            return 0.0;
        }
        2.0 * crate::engine::align::equal_items(&old, &new) as f64 / total as f64
    }

    fn side_refs(
        &mut self,
        side: Side,
        list: Vec<u32>,
        tally: &mut ShareTally,
        program: &ProgramCode,
        program_sites: &mut usize,
    ) -> Vec<FunctionRef> {
        let mut out = vec![];
        let list: Vec<u32> = list.into_iter().filter(|&i| self.included(side, i)).collect();
        for i in list {
            let c = match side {
                Side::Base => self.compare(Some(i), None, false),
                Side::Head => self.compare(None, Some(i), false),
            };
            let t = if side == Side::Base { &c.tallies.0 } else { &c.tallies.1 };
            // No site to specialize, nothing to gain or lose; and on 3.11–3.12, where such code
            // leaves no adaptive trace of having run, a dump has it only when the sampler
            // caught it running: two runs of the same code list different ones (jmespath's
            // `ast.field`), so "only in base" would be the sampler's doing.
            if t.total.sites == 0 {
                continue;
            }
            tally.merge(t);
            if program.includes_one(side, i) {
                *program_sites += c.base_sites.len() + c.head_sites.len();
            }
            let paths = if side == Side::Base { &self.paths.0 } else { &self.paths.1 };
            out.push(function_ref(self.norm.dump(side), self.names(side), paths, i, t.total));
        }
        out
    }

    /// The loop trace changes of a compared pair, loops paired by its site alignment.
    fn traces(&self, b: u32, h: u32, c: &Compared) -> Vec<LoopTrace> {
        let (bc, hc) = (&self.base.code[b as usize], &self.head.code[h as usize]);
        if !traces::any_executor(bc, hc) {
            return Vec::new();
        }
        traces::loop_traces(self.base, bc, self.head, hc, &c.instruction_pairs())
    }

    /// For the identical-code fast path: no loop's trace changed either (instructions pair
    /// one to one).
    fn identical_traces(&self, b: u32, h: u32) -> bool {
        let (bc, hc) = (&self.base.code[b as usize], &self.head.code[h as usize]);
        if !traces::any_executor(bc, hc) {
            return true;
        }
        let pairs: Vec<(u32, u32)> = (0..bc.instructions.len().min(hc.instructions.len()) as u32).map(|i| (i, i)).collect();
        traces::loop_traces(self.base, bc, self.head, hc, &pairs).is_empty()
    }

    fn function_diff(&self, b: u32, h: u32, c: Compared, traces: Vec<LoopTrace>) -> FunctionDiff {
        let (bc, hc) = (&self.base.code[b as usize], &self.head.code[h as usize]);
        let (base_id, head_id) = (identity(self.base, bc), identity(self.head, hc));
        let qualname = self.names.1.name(self.head, h).to_string();
        let renamed_from =
            (base_id != head_id).then(|| format!("{}:{}", base_id.0, self.names.0.name(self.base, b)));
        let module = head_id.0;
        let hotness = Hotness::of(Some((self.base, bc)), Some((self.head, hc)));
        let regressions = c.counts.regressions();
        let n = c.base_sites.len() + c.head_sites.len();
        let import_time = super::import_time::is_import_time(hc.kind, &module, &hotness);
        FunctionDiff {
            qualname,
            module,
            renamed_from,
            regressions,
            import_time,
            gains: c.counts.gained,
            changes: c.changes,
            kind: hc.kind,
            base_code: b,
            head_code: h,
            file: self.paths.1.show(&self.head.files[hc.file as usize].path),
            base_first_line: bc.first_line,
            head_first_line: hc.first_line,
            counts: c.counts,
            specialized_before: c.tallies.0.total,
            specialized_after: c.tallies.1.total,
            score: score(&hotness, regressions + traces.iter().filter(|t| t.regression).count() as u32),
            hotness,
            edits: c.edits,
            similarity: if n == 0 { 1.0 } else { 2.0 * c.same as f64 / n as f64 },
            rewritten: c.rewritten,
            traces,
        }
    }
}

/// The code the different-programs check looks at: pairs where either side is its program's
/// own code ([`program_code`]), or every pair when either dump has no code of its own (a
/// dump filtered to library code, a builder dump with no run).
struct ProgramCode {
    applies: bool,
    base: Vec<bool>,
    head: Vec<bool>,
}

impl ProgramCode {
    fn new(base: &Dump, head: &Dump) -> Self {
        let (b, h) = (program_code(base), program_code(head));
        let applies = b.contains(&true) && h.contains(&true);
        ProgramCode { applies, base: b, head: h }
    }

    fn includes(&self, p: &CodePair) -> bool {
        !self.applies || self.base[p.base as usize] || self.head[p.head as usize]
    }

    /// For code only one side has.
    fn includes_one(&self, side: Side, code: u32) -> bool {
        !self.applies || [&self.base, &self.head][side as usize][code as usize]
    }
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
