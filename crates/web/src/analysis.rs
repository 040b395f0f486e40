//! Turns `specdiff_core`'s results into view models: the diff report (two runs) or the
//! coverage of one run, and the aligned rows of one function. Every number and every
//! classification here comes from the core (normalizer, matching, classifier, explainer,
//! summaries); this module only picks, words and orders them for display.

use std::collections::HashMap;
use std::rc::Rc;

use specdiff_core::engine::SiteView;
use specdiff_core::report::{DiffOptions, DiffSession};
use specdiff_core::model::Dump;
use specdiff_core::engine::identity;
use specdiff_core::cpython::{Normalizer, Side as CoreSide};
use specdiff_core::report::{ChangeKind, Counter, CounterState, DiffReport, FunctionRows, InstrView, Row};
use specdiff_core::report::{Hotness, KindCounts, ShareTally};

use crate::format::{count, percent, seconds, signed, sort_dyn, sort_indices};
use crate::model::*;

impl From<specdiff_core::report::Share> for Share {
    fn from(s: specdiff_core::report::Share) -> Share {
        Share { specialized: s.specialized, sites: s.sites }
    }
}

/// The stable key of a code object: `module:qualname`, with `~n` for the n-th code object of
/// the same identity (ordered as in the dump), so links survive reloads.
pub fn code_keys(dump: &Dump) -> Vec<String> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    dump.code
        .iter()
        .map(|c| {
            let (module, qualname) = identity(dump, c);
            let base = format!("{module}:{qualname}");
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}~{n}")
            }
        })
        .collect()
}

/// A [`DiffSession`] kept between requests, with the dumps it borrows.
///
/// The session borrows the two dumps; they are kept alive by the `Rc`s next to it and never
/// mutated, and `session` is declared first so it is dropped before them.
pub struct Pair {
    session: DiffSession<'static>,
    norm: Normalizer<'static>,
    base: Rc<Dump>,
    head: Rc<Dump>,
}

impl Pair {
    /// Matches `base` and `head` (the same dump twice for the coverage of one run).
    pub fn new(base: Rc<Dump>, head: Rc<Dump>) -> Pair {
        // SAFETY: the references point into the `Rc` allocations this struct owns; the dumps
        // are never mutated while it lives, and the borrowing fields are dropped first.
        let (b, h): (&'static Dump, &'static Dump) = unsafe { (&*Rc::as_ptr(&base), &*Rc::as_ptr(&head)) };
        let options = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
        Pair { session: DiffSession::new(b, h, options), norm: Normalizer::new(b, h), base, head }
    }

    /// The base dump.
    pub fn base(&self) -> &Dump {
        &self.base
    }

    /// The head dump.
    pub fn head(&self) -> &Dump {
        &self.head
    }

    /// The diff report.
    pub fn report(&mut self) -> DiffReport {
        self.session.report().expect("allow_unrelated: a report is always returned")
    }

    /// The aligned rows of one function.
    pub fn rows(&mut self, base: Option<u32>, head: Option<u32>) -> FunctionRows {
        self.session.function_rows(base, head)
    }

    /// The core's specialized share of one code object, overall and per family.
    pub fn tally(&mut self, side: CoreSide, code: u32) -> ShareTally {
        let dump: &'static Dump = self.norm.dump(side);
        let rules = self.norm.rules(side);
        let mut t = ShareTally::default();
        for site in self.norm.sites(side, code) {
            t.add(&SiteView { dump, code: &dump.code[code as usize], site, rules });
        }
        t
    }

    /// The code matching.
    pub fn matched_pairs(&self) -> Vec<(u32, u32)> {
        self.session.matching().pairs.iter().map(|p| (p.base, p.head)).collect()
    }
}

/// Where a function key points: code indices on each side.
pub type Entries = HashMap<String, (Option<u32>, Option<u32>)>;

fn short_path(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn counts_of(k: &KindCounts) -> Vec<(Class, u32)> {
    ChangeKind::ALL.iter().map(|&c| (c, k.get(c))).filter(|(_, n)| *n > 0).collect()
}

/// The function-level class: the most telling class among its sites.
fn status_of(k: &KindCounts) -> Class {
    ChangeKind::ALL
        .iter()
        .copied()
        .find(|&c| c != ChangeKind::Unchanged && k.get(c) > 0)
        .unwrap_or(Class::Unchanged)
}

/// Builds the diff summary of two runs.
pub fn diff_summary(pair: &mut Pair, base_keys: &[String], head_keys: &[String], summary: &mut Summary) -> Entries {
    let report = pair.report();
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
    let mut changed: Vec<Option<u32>> = vec![None; pair.head().code.len()];
    for f in &report.functions {
        changed[f.head_code as usize] = Some(f.base_code);
        let key = take_key(&head_keys[f.head_code as usize], &mut entries, (Some(f.base_code), Some(f.head_code)));
        rows.push(FunctionRow {
            key,
            qualname: f.qualname.clone(),
            module: f.module.clone(),
            location: format!("{}:{}", short_path(&f.file), f.head_first_line),
            kind: f.kind.as_str().to_string(),
            hot: f.hotness.rank_share(),
            before: Some(f.specialized_before.into()),
            after: Some(f.specialized_after.into()),
            counts: counts_of(&f.counts),
            status: status_of(&f.counts),
            score: f.score,
        });
    }
    // Matched functions without changes (the report leaves them out).
    for (b, h) in pair.matched_pairs() {
        if changed[h as usize] == Some(b) {
            continue;
        }
        // No changed site: both sides have the same sites, specialized the same way, so one
        // side's share stands for both.
        let th = pair.tally(CoreSide::Head, h);
        let (bd, hd) = (pair.base(), pair.head());
        let c = &hd.code[h as usize];
        let (module, qualname) = identity(hd, c);
        let hot = Hotness::of(Some((bd, &bd.code[b as usize])), Some((hd, c))).rank_share();
        let key = take_key(&head_keys[h as usize], &mut entries, (Some(b), Some(h)));
        rows.push(FunctionRow {
            key,
            qualname,
            module,
            location: format!("{}:{}", short_path(&hd.files[c.file as usize].path), c.first_line),
            kind: c.kind.as_str().to_string(),
            hot,
            before: Some(th.total.into()),
            after: Some(th.total.into()),
            counts: Vec::new(),
            status: Class::Unchanged,
            score: 0.0,
        });
    }
    for (list, class, keys, head_side) in [
        (&report.added_functions, Class::Added, head_keys, true),
        (&report.removed_functions, Class::Removed, base_keys, false),
    ] {
        for f in list {
            let codes = if head_side { (None, Some(f.code)) } else { (Some(f.code), None) };
            let key = take_key(&keys[f.code as usize], &mut entries, codes);
            let share: Share = f.specialized.into();
            rows.push(FunctionRow {
                key,
                qualname: f.qualname.clone(),
                module: f.module.clone(),
                location: format!("{}:{}", short_path(&f.file), f.first_line),
                kind: f.kind.as_str().to_string(),
                hot: f.hotness_share,
                before: (!head_side).then_some(share),
                after: head_side.then_some(share),
                counts: vec![(class, share.sites)].into_iter().filter(|(_, n)| *n > 0).collect(),
                status: class,
                score: 0.0,
            });
        }
    }
    // Changed functions first, in the report's ranking (hotness × regressions); then the
    // unchanged ones and the added/removed ones, hottest first.
    let changed = report.functions.len();
    let group = |i: usize| -> u8 {
        if i < changed {
            0
        } else if rows[i].status == Class::Unchanged {
            2
        } else {
            1
        }
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    sort_indices(&mut order, &|a, b| {
        group(a).cmp(&group(b)).then_with(|| {
            if group(a) == 0 {
                a.cmp(&b)
            } else {
                rows[b].hot.total_cmp(&rows[a].hot).then(a.cmp(&b))
            }
        })
    });
    summary.rows = order.into_iter().map(|i| rows[i].clone()).collect();

    let s = &report.summary;
    summary.warnings = report.warnings.iter().map(|w| w.message.clone()).collect();
    let (bd, hd) = (pair.base(), pair.head());
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
    m.push(metric("CPython", report.base.python.clone(), report.head.python.clone(), None, Tone::Neutral, "the interpreter that ran the program"));
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
    m.push(metric("specialized sites", count(s.base.specialized as u64), count(s.head.specialized as u64), delta(d, false), tone(d, true), "sites in a specialized form at the end of the run"));
    let d = s.head.sites as f64 - s.base.sites as f64;
    m.push(metric("specialization sites", count(s.base.sites as u64), count(s.head.sites as u64), delta(d, false), Tone::Neutral, "instructions with an adaptive counter"));
    m.push(metric("code objects", count(report.base.code_objects as u64), count(report.head.code_objects as u64), None, Tone::Neutral, "code objects in each dump"));
    m.push(Metric {
        label: "functions".into(),
        base: None,
        head: None,
        delta: Some(format!(
            "{} matched · {} changed · {} added · {} removed",
            count(s.matched as u64),
            count(s.changed as u64),
            count(s.added as u64),
            count(s.removed as u64)
        )),
        tone: Tone::Neutral,
        tip: Some("code objects matched by module and qualified name".into()),
    });
    m.push(Metric {
        label: "regressions".into(),
        base: None,
        head: None,
        delta: Some(count(s.regressions as u64)),
        tone: if s.regressions > 0 { Tone::Bad } else { Tone::Good },
        tip: Some("lost + missing + backed-off sites over all matched functions".into()),
    });
    m.push(metric("samples", count(report.base.samples), count(report.head.samples), None, Tone::Neutral, "hotness samples taken while the program ran"));
    let d = hd.run.duration_s - bd.run.duration_s;
    m.push(metric("wall time", seconds(bd.run.duration_s), seconds(hd.run.duration_s), None, tone(d, false), "wall time of the program"));
    m.push(Metric {
        label: "code similarity".into(),
        base: None,
        head: None,
        delta: Some(percent(s.similarity)),
        tone: Tone::Neutral,
        tip: Some("instruction similarity of the matched code objects, weighted by size (100% = same code)".into()),
    });
    summary.overview.metrics = m;
    let mut bars: Vec<FamilyBar> = s
        .families
        .iter()
        .map(|f| FamilyBar {
            family: f.family.clone(),
            base: Some(f.base.into()).filter(|x: &Share| x.sites > 0),
            head: Some(f.head.into()).filter(|x: &Share| x.sites > 0),
        })
        .collect();
    sort_bars(&mut bars);
    summary.overview.families = bars;
    summary.overview.class_totals = counts_of(&s.counts);
    summary.overview.top = report
        .functions
        .iter()
        .filter(|f| f.regressions > 0)
        .take(12)
        .map(|f| {
            let first = f.changes.iter().find(|c| c.kind.is_regression()).or(f.changes.first());
            let detail = first.map(describe_change).unwrap_or_default();
            let key = entries.iter().find(|(_, v)| **v == (Some(f.base_code), Some(f.head_code))).map(|(k, _)| k.clone()).unwrap_or_default();
            TopItem {
                key,
                offset: first.and_then(|c| c.head_offset.or(c.base_offset)),
                title: f.qualname.clone(),
                location: format!("{}:{}", short_path(&f.file), f.head_first_line),
                class: first.map_or(Class::Lost, |c| c.kind),
                detail: format!(
                    "{} regression{} · {} of samples · {}",
                    f.regressions,
                    if f.regressions == 1 { "" } else { "s" },
                    percent(f.hotness.rank_share()),
                    detail
                ),
                score: f.score,
            }
        })
        .collect();
    entries
}

fn describe_change(c: &specdiff_core::report::Change) -> String {
    let what = match (&c.base, &c.head) {
        (Some(b), Some(h)) if b != h => format!("{b} → {h}"),
        (Some(b), _) => b.clone(),
        (None, Some(h)) => h.clone(),
        (None, None) => c.family.clone(),
    };
    let line = c.head_line.or(c.base_line).map(|l| format!(" (line {l})")).unwrap_or_default();
    match &c.explanation {
        Some(e) => format!("{what}{line}: {e}"),
        None => format!("{what}{line}"),
    }
}

fn sort_bars(bars: &mut Vec<FamilyBar>) {
    let weight = |b: &FamilyBar| b.base.map_or(0, |s| s.sites).max(b.head.map_or(0, |s| s.sites));
    sort_dyn(bars, &|a, b| weight(b).cmp(&weight(a)).then_with(|| a.family.cmp(&b.family)));
    bars.truncate(14);
}

/// Builds the coverage summary of one run (`pair` holds the same dump twice).
pub fn single_summary(pair: &mut Pair, keys: &[String], side: Side, summary: &mut Summary) -> Entries {
    let n = pair.base().code.len() as u32;
    let mut total = ShareTally::default();
    let mut rows = Vec::with_capacity(n as usize);
    let mut entries = Entries::new();
    for i in 0..n {
        let t = pair.tally(CoreSide::Base, i);
        total.merge(&t);
        let d = pair.base();
        let c = &d.code[i as usize];
        let (module, qualname) = identity(d, c);
        let hot = Hotness::of(Some((d, c)), None).base_share;
        let share: Share = t.total.into();
        let unspecialized = share.sites - share.specialized;
        entries.insert(keys[i as usize].clone(), (Some(i), Some(i)));
        rows.push(FunctionRow {
            key: keys[i as usize].clone(),
            qualname,
            module,
            location: format!("{}:{}", short_path(&d.files[c.file as usize].path), c.first_line),
            kind: c.kind.as_str().to_string(),
            hot,
            before: Some(share),
            after: None,
            counts: Vec::new(),
            status: Class::Unchanged,
            score: if hot > 0.0 { hot * unspecialized as f64 } else { unspecialized as f64 * 1e-9 },
        });
    }
    sort_dyn(&mut rows, &|a, b| b.score.total_cmp(&a.score).then(b.hot.total_cmp(&a.hot)).then_with(|| a.key.cmp(&b.key)));
    let d = pair.base();
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
                class: Class::Unchanged,
                detail: format!("{} of {} sites not specialized · {} of samples", s.sites - s.specialized, s.sites, percent(r.hot)),
                score: r.score,
            }
        })
        .collect();
    let one = |label: &str, v: String, tip: &str| {
        let (base, head) = if side == Side::Base { (Some(v), None) } else { (None, Some(v)) };
        Metric { label: label.into(), base, head, delta: None, tone: Tone::Neutral, tip: Some(tip.into()) }
    };
    summary.overview.metrics = vec![
        one("CPython", d.python.version.clone(), "the interpreter that ran the program"),
        one("specialized share", percent(total.total.share), "specialization sites in a specialized form, out of all sites"),
        one("specialized sites", count(total.total.specialized as u64), "sites in a specialized form at the end of the run"),
        one("specialization sites", count(total.total.sites as u64), "instructions with an adaptive counter"),
        one("code objects", count(n as u64), "code objects in the dump"),
        one("samples", count(d.run.sampler.samples), "hotness samples taken while the program ran"),
        one("wall time", seconds(d.run.duration_s), "wall time of the program"),
    ];
    let mut bars: Vec<FamilyBar> = total
        .families
        .iter()
        .map(|(f, s)| {
            let s: Share = (*s).into();
            let (base, head) = if side == Side::Base { (Some(s), None) } else { (None, Some(s)) };
            FamilyBar { family: f.clone(), base, head }
        })
        .collect();
    sort_bars(&mut bars);
    summary.overview.families = bars;
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

/// Plain words for a decoded counter: `(short text, tooltip)`.
pub fn counter_words(c: &Counter) -> (String, String) {
    let raw = format!("counter {}·{} (value·backoff)", c.value, c.backoff);
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match c.state {
        CounterState::Cold => ("cold".into(), format!("has not run since the code was quickened; {raw}")),
        CounterState::Warming => (
            format!("warm {}", c.value),
            format!("not specialized yet: {} left before it tries to specialize, no failed attempt so far; {raw}", plural(c.value as u64, "execution", "executions")),
        ),
        CounterState::BackedOff { failures } => (
            format!("{failures} fail"),
            format!(
                "{} to specialize: backing off, next try in {}; {raw}",
                plural(failures as u64, "failed attempt", "failed attempts"),
                plural(c.value as u64, "execution", "executions")
            ),
        ),
        CounterState::Specialized { misses } => (
            format!("{misses} miss"),
            format!("{} since it was specialized; {raw}", plural(misses as u64, "miss", "misses")),
        ),
    }
}

fn ins_view(v: &InstrView, site: bool) -> Ins {
    let (counter, tip) = match &v.counter {
        Some(c) => {
            let (s, t) = counter_words(c);
            (Some(s), Some(t))
        }
        None => (None, None),
    };
    let arg = if v.argrepr.is_empty() { v.arg.map(|a| a.to_string()).unwrap_or_default() } else { v.argrepr.clone() };
    Ins {
        offset: v.offset,
        op: v.opname.clone(),
        family: v.family.clone(),
        arg,
        specialized: v.specialized,
        site: site && v.primary && v.counter.is_some(),
        counter,
        tip,
        churn: v.churn.as_ref().filter(|c| c.flips > 0).map(|c| format!("{} flips seen by the sampler: {}", c.flips, c.seen.join(" → "))),
    }
}

/// Builds the function view from the core's aligned rows. `single`: one run (base == head),
/// only the base column is shown and nothing is folded.
pub fn detail(rows: &FunctionRows, key: &str, dumps: (&Dump, &Dump), single: Option<Side>) -> FunctionDetail {
    let (bd, hd) = dumps;
    let mut out = Vec::new();
    let mut interesting = Vec::new();
    let mut current_line: Option<u32> = None;
    let mut shown_max: u32 = 0;
    let samples = |d: &Dump, code: Option<u32>, line: u32| -> u64 {
        code.and_then(|c| d.code[c as usize].line_samples.iter().find(|s| s.0 == line)).map_or(0, |s| s.1)
    };
    let mut counts = KindCounts::default();
    for row in &rows.rows {
        if let Some(k) = row.change {
            counts.add(k);
        }
        // Source lines: head's numbering when head has the row, else base's.
        let (line, source) = match (&row.head, &row.base) {
            (Some(h), _) if single.is_none() => (h.instructions.last().and_then(|i| i.line).or(h.line), &rows.head_source),
            (_, Some(b)) => (b.instructions.last().and_then(|i| i.line).or(b.line), &rows.base_source),
            (Some(h), None) => (h.line, &rows.head_source),
            (None, None) => (None, &rows.head_source),
        };
        if let Some(l) = line {
            if current_line != Some(l) {
                let from = if l > shown_max && l - shown_max <= 4 && shown_max > 0 { shown_max + 1 } else { l };
                for n in from..=l {
                    if let Some(text) = source.get(&n) {
                        out.push(DetailRow::Source {
                            line: n,
                            text: text.clone(),
                            samples: [samples(bd, rows.base_code, n), samples(hd, rows.head_code, n)],
                        });
                        interesting.push(false);
                    }
                }
                shown_max = shown_max.max(l);
                current_line = Some(l);
            }
        }
        push_row(row, single.is_some(), &mut out, &mut interesting);
    }
    let rows_out = if single.is_some() { out } else { fold(out, &interesting) };
    let loc = |d: &Dump, code: Option<u32>| {
        code.map(|c| {
            let c = &d.code[c as usize];
            format!("{}:{}", d.files[c.file as usize].path, c.first_line)
        })
    };
    let kind = rows
        .head_code
        .map(|c| hd.code[c as usize].kind)
        .or(rows.base_code.map(|c| bd.code[c as usize].kind))
        .map_or(String::new(), |k| k.as_str().to_string());
    let mut explanations = Vec::new();
    if let Some(side) = single {
        let code = if side == Side::Base { rows.base_code } else { rows.head_code };
        let _ = code;
        let sites = rows.rows.iter().filter(|r| r.base.as_ref().is_some_and(|b| b.instructions.iter().any(|i| i.primary && i.counter.is_some()))).count();
        let spec = rows
            .rows
            .iter()
            .filter(|r| r.base.as_ref().is_some_and(|b| b.instructions.iter().any(|i| i.primary && i.counter.is_some() && i.specialized)))
            .count();
        explanations.push(format!(
            "{} of {} specialization sites specialized ({}). Hover a counter for what it says.",
            spec,
            sites,
            percent(if sites == 0 { 0.0 } else { spec as f64 / sites as f64 })
        ));
    } else {
        match (rows.base_code, rows.head_code) {
            (None, Some(_)) => explanations.push("only in head: this code object is new".into()),
            (Some(_), None) => explanations.push("only in base: this code object is gone".into()),
            _ => {}
        }
        let regressions = counts.regressions();
        if regressions > 0 {
            explanations.push(format!(
                "{} regression{} (lost, missing or backed off); hover a counter for what it says",
                regressions,
                if regressions == 1 { "" } else { "s" }
            ));
        }
    }
    let locations = match single {
        Some(_) => [loc(bd, rows.base_code), None],
        None => [loc(bd, rows.base_code), loc(hd, rows.head_code)],
    };
    FunctionDetail {
        key: key.to_string(),
        title: rows.qualname.clone(),
        locations,
        kind,
        mode: single.map_or(Mode::Diff, Mode::Single),
        explanations,
        counts: if single.is_some() { Vec::new() } else { counts_of(&counts) },
        status: if single.is_some() { Class::Unchanged } else { status_of(&counts) },
        rows: rows_out,
    }
}

/// One core row → one line per instruction; the sides' instruction lists are aligned from the
/// end (the primary instruction is last on both), the class and explanation go on that line.
fn push_row(row: &Row, single: bool, out: &mut Vec<DetailRow>, interesting: &mut Vec<bool>) {
    let empty = Vec::new();
    let b = row.base.as_ref().map_or(&empty, |s| &s.instructions);
    let h = if single { &empty } else { row.head.as_ref().map_or(&empty, |s| &s.instructions) };
    let n = b.len().max(h.len());
    let class = row.change;
    let marked = !single && row.is_interesting();
    for k in 0..n {
        let last = k + 1 == n;
        let pick = |v: &Vec<InstrView>| -> Option<Ins> {
            let offset = n - v.len();
            (k >= offset).then(|| ins_view(&v[k - offset], true))
        };
        out.push(DetailRow::Ins {
            base: pick(b),
            head: if single { None } else { pick(h) },
            class: if last && !single { class } else { None },
            explain: if last { row.explanation.clone() } else { None },
        });
        interesting.push(marked);
    }
}

/// Folds runs of uninteresting rows longer than `MIN_FOLD`, keeping `CONTEXT` rows of context.
fn fold(rows: Vec<DetailRow>, interesting: &[bool]) -> Vec<DetailRow> {
    const CONTEXT: usize = 3;
    const MIN_FOLD: usize = 8;
    let mut out = Vec::new();
    let mut i = 0;
    let n = rows.len();
    let mut rows: Vec<Option<DetailRow>> = rows.into_iter().map(Some).collect();
    while i < n {
        if interesting[i] {
            out.push(rows[i].take().unwrap());
            i += 1;
            continue;
        }
        let start = i;
        while i < n && !interesting[i] {
            i += 1;
        }
        let (lead, trail) = (if start == 0 { 0 } else { CONTEXT }, if i == n { 0 } else { CONTEXT });
        if i - start > lead + trail + MIN_FOLD {
            for r in &mut rows[start..start + lead] {
                out.push(r.take().unwrap());
            }
            let folded: Vec<DetailRow> = rows[start + lead..i - trail].iter_mut().map(|r| r.take().unwrap()).collect();
            out.push(DetailRow::Fold { rows: folded });
            for r in &mut rows[i - trail..i] {
                out.push(r.take().unwrap());
            }
        } else {
            for r in &mut rows[start..i] {
                out.push(r.take().unwrap());
            }
        }
    }
    out
}
