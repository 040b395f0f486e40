//! The digest of what is loaded: the function list (one [`FunctionRow`] per code object,
//! all built by `function_row`), the run-level metrics, the family chart and the top list,
//! for two runs ([`diff_summary`]) or one ([`single_summary`]).

use specdiff_core::model::Dump;
use specdiff_core::engine::{identity, CodeNames};
use specdiff_core::report::wording::{change_sentence, inert};
use specdiff_core::report::{DiffReport, Hotness, ShareTally};
use specdiff_core::share::{SharedSummary, TrimmedFunction};
use specdiff_core::view::HotnessEstimate;

use super::{counts_of, short_path, status_of, Entries, Pair};
use crate::format::{grouped, percent, count, seconds, signed, sort_dyn, sort_indices};
use crate::view_model::*;

/// What a row says about its function beyond the code object's own name, place and kind.
struct RowFacts {
    hot: f64,
    /// The estimate `hot` comes from, for its interval.
    estimate: Option<HotnessEstimate>,
    before: Option<Share>,
    after: Option<Share>,
    counts: Vec<(ChangeKind, u32)>,
    status: ChangeKind,
    score: f64,
}

/// `file:first_line` of a code object, the file by its last path component.
fn location(dump: &Dump, code: u32) -> String {
    let c = &dump.code[code as usize];
    format!("{}:{}", inert(short_path(&dump.files[c.file as usize].path)), c.first_line)
}

/// The row of code object `code` of `dump` (head's for a matched pair).
fn function_row(dump: &Dump, names: &CodeNames, code: u32, key: String, facts: RowFacts) -> FunctionRow {
    let c = &dump.code[code as usize];
    let (module, qualname) = (identity(dump, c).0, names.name(dump, code));
    // Shown as text; bidi controls in a name would reorder what the page shows around them.
    FunctionRow {
        key,
        qualname: inert(qualname).into_owned(),
        module: inert(&module).into_owned(),
        location: location(dump, code),
        kind: c.kind.as_str().to_string(),
        hot: facts.hot,
        hot_interval: facts.estimate.map(|e| ((e.low, e.high), e.samples)),
        before: facts.before,
        after: facts.after,
        counts: facts.counts,
        status: facts.status,
        score: facts.score,
        ops: Vec::new(),
    }
}

/// Tooltips of the metrics both kinds of summary show.
const TIP_PYTHON: &str = "the interpreter that ran the program";
const TIP_SPECIALIZED: &str = "sites in a specialized form at the end of the run";
const TIP_SITES: &str = "instructions with an adaptive counter";
const TIP_SAMPLES: &str = "hotness samples taken while the program ran";
const TIP_WALL: &str = "wall time of the program";

/// Builds the diff summary of two runs. The overview's run-level numbers are `sent`'s when a
/// share link carried the sender's (its dumps may hold only the changed functions), else
/// the report's.
pub fn diff_summary(
    pair: &mut Pair,
    report: &DiffReport,
    base_keys: &[String],
    head_keys: &[String],
    (sent, trimmed): (Option<&SharedSummary>, &[TrimmedFunction]),
    summary: &mut Summary,
) -> Entries {
    let (sent_summary, base_run, head_run) = match sent {
        Some(x) => (&x.summary, &x.base, &x.head),
        None => (&report.summary, &report.base, &report.head),
    };
    let (bd, hd) = (pair.base(), pair.head());
    // Hotness as every output shows it: the core's estimate over the sampled runs.
    let runs = (report.base.samples, report.head.samples);
    let mut entries = Entries::new();
    let mut rows = Vec::new();
    let take_key = |key: &str, entries: &mut Entries, codes: (Option<u32>, Option<u32>)| -> String {
        let mut k = key.to_string();
        while entries.contains_key(&k) {
            k.push('\'');
        }
        entries.insert(k.clone(), codes);
        k
    };
    // The base code of each head code object the report lists (matching pairs them 1:1).
    let mut changed: Vec<Option<u32>> = vec![None; hd.code.len()];
    for f in &report.functions {
        changed[f.head_code as usize] = Some(f.base_code);
        let key = take_key(&head_keys[f.head_code as usize], &mut entries, (Some(f.base_code), Some(f.head_code)));
        // A trimmed function's own code holds only some of its sites: the sender's shares.
        let sender = trimmed.iter().find(|t| (t.base_code, t.head_code) == (f.base_code, f.head_code));
        let (before, after) = sender.map_or((f.specialized_before, f.specialized_after), |t| (t.before, t.after));
        let facts = RowFacts {
            hot: estimate_share(runs, &f.hotness),
            estimate: HotnessEstimate::of(runs, &f.hotness),
            before: Some(before.into()),
            after: Some(after.into()),
            counts: counts_of(&f.counts),
            status: status_of(&f.counts),
            score: f.score,
        };
        let mut row = function_row(hd, pair.names(true), f.head_code, key, facts);
        if let Some(from) = &f.renamed_from {
            row.location.push_str(" · renamed from ");
            row.location.push_str(&inert(from));
        }
        rows.push(row);
    }
    // Matched functions without changes (the report leaves them out).
    let mut tallies = pair.tallies();
    for (b, h) in pair.matched_pairs() {
        if changed[h as usize] == Some(b) {
            continue;
        }
        // No changed site: both sides have the same sites, specialized the same way, so one
        // side's share stands for both.
        let share = Some(tallies.of(specdiff_core::cpython::Side::Head, h).total.into());
        let estimate = HotnessEstimate::of(runs, &Hotness::of(Some((bd, &bd.code[b as usize])), Some((hd, &hd.code[h as usize]))));
        let hot = estimate.map_or(0.0, |e| e.share());
        let key = take_key(&head_keys[h as usize], &mut entries, (Some(b), Some(h)));
        let facts = RowFacts { hot, estimate, before: share, after: share, counts: Vec::new(), status: ChangeKind::Unchanged, score: 0.0 };
        rows.push(function_row(hd, pair.names(true), h, key, facts));
    }
    for (list, class, keys, dump, head_side) in
        [(&report.added_functions, ChangeKind::Added, head_keys, hd, true), (&report.removed_functions, ChangeKind::Removed, base_keys, bd, false)]
    {
        for f in list {
            let codes = if head_side { (None, Some(f.code)) } else { (Some(f.code), None) };
            let key = take_key(&keys[f.code as usize], &mut entries, codes);
            let share: Share = f.specialized.into();
            let facts = RowFacts {
                hot: f.hotness_share,
                estimate: None,
                before: (!head_side).then_some(share),
                after: head_side.then_some(share),
                counts: vec![(class, share.sites)].into_iter().filter(|(_, n)| *n > 0).collect(),
                status: class,
                score: 0.0,
            };
            rows.push(function_row(dump, pair.names(head_side), f.code, key, facts));
        }
    }
    // Changed functions first, in the report's ranking (hotness × regressions); then the
    // unchanged ones and the added/removed ones, hottest first.
    let changed = report.functions.len();
    let group = |i: usize| -> u8 {
        if i < changed {
            0
        } else if rows[i].status == ChangeKind::Unchanged {
            2
        } else {
            1
        }
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    sort_indices(&mut order, &|a, b| {
        group(a).cmp(&group(b)).then_with(|| if group(a) == 0 { a.cmp(&b) } else { rows[b].hot.total_cmp(&rows[a].hot).then(a.cmp(&b)) })
    });
    summary.rows = order.into_iter().map(|i| rows[i].clone()).collect();

    let s = sent_summary;
    // The counts every output shows: the core's view of the (sender's) summary.
    let counts = specdiff_core::view::Overview::of(s, &report.functions);
    summary.overview.changed = counts.changed_words();
    summary.warnings = report.warnings.iter().map(|w| w.message.clone()).collect();
    let mut m = Vec::new();
    let metric = |label: &str, b: String, h: String, delta: Option<String>, tone: Tone, tip: &str| Metric {
        label: label.into(),
        base: Some(b),
        head: Some(h),
        delta,
        tone,
        tip: Some(tip.into()),
    };
    let tone = |d: f64, higher_better: bool| {
        if d == 0.0 {
            Tone::Neutral
        } else if (d > 0.0) == higher_better {
            Tone::Good
        } else {
            Tone::Bad
        }
    };
    let delta = |d: f64, share: bool| (d != 0.0).then(|| signed(d, share));
    m.push(metric("CPython", base_run.python.clone(), head_run.python.clone(), None, Tone::Neutral, TIP_PYTHON));
    let d = s.head.share - s.base.share;
    m.push(metric(
        "specialized share",
        percent(s.base.share),
        percent(s.head.share),
        delta(d, true),
        tone(d, true),
        "specialization sites in a specialized form, out of all sites (all code objects)",
    ));
    let d = s.head.specialized as f64 - s.base.specialized as f64;
    m.push(metric(
        "specialized sites",
        grouped(s.base.specialized as u64),
        grouped(s.head.specialized as u64),
        delta(d, false),
        tone(d, true),
        TIP_SPECIALIZED,
    ));
    let d = s.head.sites as f64 - s.base.sites as f64;
    m.push(metric(
        "specialization sites",
        grouped(s.base.sites as u64),
        grouped(s.head.sites as u64),
        delta(d, false),
        Tone::Neutral,
        TIP_SITES,
    ));
    let d = head_run.code_objects as f64 - base_run.code_objects as f64;
    m.push(metric(
        "code objects",
        grouped(base_run.code_objects as u64),
        grouped(head_run.code_objects as u64),
        delta(d, false),
        Tone::Neutral,
        "code objects in each dump",
    ));
    m.push(Metric {
        label: "functions".into(),
        base: None,
        head: None,
        // All four, zeros too: a reader (and tests/e2e/links.mjs) reads them by position.
        delta: Some(format!(
            "{} matched · {} changed · {} added · {} removed",
            grouped(counts.matched as u64),
            grouped(counts.changed as u64),
            grouped(counts.added as u64),
            grouped(counts.removed as u64)
        )),
        tone: Tone::Neutral,
        tip: Some("code objects matched by module and qualified name".into()),
    });
    m.push(Metric {
        label: "regressions".into(),
        base: None,
        head: None,
        delta: Some(counts.regression_words()),
        tone: if counts.regressions > 0 { Tone::Bad } else { Tone::Good },
        tip: Some("lost + missing + backed-off sites over the matched functions; import-time code (module and class bodies, importlib, site, code run only inside imports) counted apart".into()),
    });
    m.push(metric("samples", grouped(base_run.samples), grouped(head_run.samples), None, Tone::Neutral, TIP_SAMPLES));
    let d = hd.run.duration_s - bd.run.duration_s;
    // The sign of `signed`, the magnitude in the cells' own unit.
    let wall = (d != 0.0).then(|| format!("{}{}", signed(d, false).chars().next().unwrap_or('±'), seconds(d.abs())));
    m.push(metric("wall time", seconds(bd.run.duration_s), seconds(hd.run.duration_s), wall, tone(d, false), TIP_WALL));
    m.push(Metric {
        label: "code similarity".into(),
        base: None,
        head: None,
        delta: Some(percent(s.similarity)),
        tone: Tone::Neutral,
        tip: Some("instruction similarity of the matched code objects, weighted by size (100% = same code)".into()),
    });
    summary.overview.metrics = m;
    let bars = s.families.iter().map(|f| FamilyBar {
        family: f.family.clone(),
        base: Some(f.base.into()).filter(|x: &Share| x.sites > 0),
        head: Some(f.head.into()).filter(|x: &Share| x.sites > 0),
    });
    summary.overview.families = top_bars(bars.collect());
    summary.overview.class_totals = counts_of(&s.counts);
    summary.overview.top = report
        .functions
        .iter()
        .filter(|f| f.regressions > 0 && !f.import_time)
        .take(12)
        .map(|f| {
            let first = f.changes.iter().find(|c| c.kind.is_regression()).or(f.changes.first());
            let detail = first.map(change_sentence).unwrap_or_default();
            let key =
                entries.iter().find(|(_, v)| **v == (Some(f.base_code), Some(f.head_code))).map(|(k, _)| k.clone()).unwrap_or_default();
            TopItem {
                key,
                offset: first.and_then(|c| c.head_offset.or(c.base_offset)),
                title: inert(&f.qualname).into_owned(),
                location: location(hd, f.head_code),
                class: first.map_or(ChangeKind::Lost, |c| c.kind),
                detail: format!(
                    "{} · {} of samples · {}",
                    count(f.regressions as u64, "regression", "regressions"),
                    percent(estimate_share(runs, &f.hotness)),
                    detail
                ),
                score: f.score,
            }
        })
        .collect();
    entries
}

/// A matched function's hotness as every output shows it (the core's estimate over the sampled
/// runs, outside imports), as a share; 0 when no run was sampled.
fn estimate_share(runs: (u64, u64), h: &Hotness) -> f64 {
    HotnessEstimate::of(runs, h).map_or(0.0, |e| e.share())
}

/// The chart's families: the 14 with the most sites on either side.
fn top_bars(mut bars: Vec<FamilyBar>) -> Vec<FamilyBar> {
    let weight = |b: &FamilyBar| b.base.map_or(0, |s| s.sites).max(b.head.map_or(0, |s| s.sites));
    sort_dyn(&mut bars, &|a, b| weight(b).cmp(&weight(a)).then_with(|| a.family.cmp(&b.family)));
    bars.truncate(14);
    bars
}

/// Builds the coverage summary of one run on `side` (`pair` holds the same dump twice).
pub fn single_summary(pair: &Pair, keys: &[String], side: Side, summary: &mut Summary) -> Entries {
    let d = pair.base();
    let n = d.code.len() as u32;
    let mut tallies = pair.tallies();
    let mut total = ShareTally::default();
    let mut rows = Vec::with_capacity(n as usize);
    let mut entries = Entries::new();
    for i in 0..n {
        let t = tallies.of(specdiff_core::cpython::Side::Base, i);
        total.merge(&t);
        let hot = Hotness::of(Some((d, &d.code[i as usize])), None).base_share;
        let share: Share = t.total.into();
        let unspecialized = share.sites - share.specialized;
        entries.insert(keys[i as usize].clone(), (Some(i), Some(i)));
        let facts = RowFacts {
            hot,
            estimate: None,
            before: Some(share),
            after: None,
            counts: Vec::new(),
            status: ChangeKind::Unchanged,
            score: if hot > 0.0 { hot * unspecialized as f64 } else { unspecialized as f64 * 1e-9 },
        };
        rows.push(function_row(d, pair.names(false), i, keys[i as usize].clone(), facts));
    }
    sort_dyn(&mut rows, &|a, b| b.score.total_cmp(&a.score).then(b.hot.total_cmp(&a.hot)).then_with(|| a.key.cmp(&b.key)));
    summary.overview.top = rows
        .iter()
        .filter(|r| r.hot > 0.0 && r.score > 0.0)
        .take(12)
        .map(|r| {
            let s = r.before.unwrap_or_default();
            TopItem {
                key: r.key.clone(),
                offset: None,
                title: r.qualname.clone(),
                location: r.location.clone(),
                class: ChangeKind::Unchanged,
                detail: format!("{} of {} sites not specialized · {} of samples", s.sites - s.specialized, s.sites, percent(r.hot)),
                score: r.score,
            }
        })
        .collect();
    let one = |label: &str, v: String, tip: &str| {
        let (base, head) = on_side(side, v);
        Metric { label: label.into(), base, head, delta: None, tone: Tone::Neutral, tip: Some(tip.into()) }
    };
    summary.overview.metrics = vec![
        one("CPython", d.python.version.clone(), TIP_PYTHON),
        one("specialized share", percent(total.total.share), "specialization sites in a specialized form, out of all sites"),
        one("specialized sites", grouped(total.total.specialized as u64), TIP_SPECIALIZED),
        one("specialization sites", grouped(total.total.sites as u64), TIP_SITES),
        one("code objects", grouped(n as u64), "code objects in the dump"),
        one("samples", grouped(d.run.sampler.samples), TIP_SAMPLES),
        one("wall time", seconds(d.run.duration_s), TIP_WALL),
    ];
    let bars = total.families.iter().map(|(f, s)| {
        let (base, head) = on_side(side, Share::from(*s));
        FamilyBar { family: f.clone(), base, head }
    });
    summary.overview.families = top_bars(bars.collect());
    if d.run.sampler.samples == 0 {
        summary.warnings.push(format!(
            "this run has no hotness samples (sampler {}{}): functions are ranked by unspecialized sites",
            d.run.sampler.mode,
            d.run.sampler.note.as_deref().map(|n| format!(": {n}")).unwrap_or_default()
        ));
    }
    summary.rows = rows;
    entries
}

/// One run's value in its side's column: `(base, head)`.
fn on_side<T>(side: Side, v: T) -> (Option<T>, Option<T>) {
    if side == Side::Base {
        (Some(v), None)
    } else {
        (None, Some(v))
    }
}
