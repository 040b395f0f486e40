//! The function view: the core's aligned rows of one function laid out line by line, with the
//! source lines between them, counters in plain words, and long unchanged stretches folded.

use specdiff_core::model::Dump;
use specdiff_core::report::wording::{counter_words, inert};
use specdiff_core::report::trace_view::TraceUop;
use specdiff_core::report::{FunctionRows, InstrView, Row};
use specdiff_core::report::KindCounts;

use super::{counts_of, status_of};
use crate::format::{percent, count};
use crate::view_model::*;

fn ins_view(v: &InstrView, site: bool) -> Ins {
    let (counter, tip) = match &v.counter {
        Some(c) => {
            let (s, t) = counter_words(c);
            (Some(s), Some(t))
        }
        None => (None, None),
    };
    let arg = if v.argrepr.is_empty() { v.arg.map(|a| a.to_string()).unwrap_or_default() } else { inert(&v.argrepr).into_owned() };
    Ins {
        offset: v.offset,
        op: v.opname.clone(),
        family: v.family.clone(),
        arg,
        specialized: v.specialized,
        site: site && v.primary && v.counter.is_some(),
        counter,
        tip,
        churn: v.churn.as_ref().filter(|c| c.flips > 0).map(|c| format!("{} seen by the sampler: {}", count(c.flips as u64, "flip", "flips"), c.seen.join(" → "))),
    }
}

/// Builds the function view from the core's aligned rows. `mode`: [`Mode::Single`] for one
/// run (base == head): only the base column is shown and nothing is folded.
pub fn detail(rows: &FunctionRows, key: &str, dumps: (&Dump, &Dump), mode: Mode) -> FunctionDetail {
    let (bd, hd) = dumps;
    let single = matches!(mode, Mode::Single(_));
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
            (Some(h), _) if !single => (h.instructions.last().and_then(|i| i.line).or(h.line), &rows.head_source),
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
                            text: inert(text).into_owned(),
                            samples: [samples(bd, rows.base_code, n), samples(hd, rows.head_code, n)],
                        });
                        interesting.push(false);
                    }
                }
                shown_max = shown_max.max(l);
                current_line = Some(l);
            }
        }
        push_row(row, single, &mut out, &mut interesting);
    }
    let traces = traces(rows, &out, single);
    let rows_out = if single { out } else { fold(out, &interesting) };
    let loc = |d: &Dump, code: Option<u32>| {
        code.map(|c| {
            let c = &d.code[c as usize];
            let path = specdiff_core::report::paths::PathDisplay::of(d).show(&d.files[c.file as usize].path);
            format!("{}:{}", inert(&path), c.first_line)
        })
    };
    let kind = rows
        .head_code
        .map(|c| hd.code[c as usize].kind)
        .or(rows.base_code.map(|c| bd.code[c as usize].kind))
        .map_or(String::new(), |k| k.as_str().to_string());
    let mut explanations = Vec::new();
    if single {
        // One primary instruction per site side: the base's, the run's own.
        let primaries = || rows.rows.iter().filter_map(|r| r.base.as_ref()?.instructions.iter().find(|i| i.primary && i.counter.is_some()));
        let (sites, spec) = (primaries().count(), primaries().filter(|i| i.specialized).count());
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
                "{} (lost, missing or backed off); hover a counter for what it says",
                count(regressions as u64, "regression", "regressions")
            ));
        }
    }
    let locations = if single { [loc(bd, rows.base_code), None] } else { [loc(bd, rows.base_code), loc(hd, rows.head_code)] };
    FunctionDetail {
        key: key.to_string(),
        title: inert(&rows.qualname).into_owned(),
        locations,
        kind,
        mode,
        explanations,
        counts: if single { Vec::new() } else { counts_of(&counts) },
        status: if single { ChangeKind::Unchanged } else { status_of(&counts) },
        rows: rows_out,
        traces,
    }
}

/// The loops' traces, each uop linked to the listing's instruction row (numbered from 1 in
/// listing order, folded rows included, as the route's `site`) of the instruction it came
/// from on its side.
fn traces(rows: &FunctionRows, listing: &[DetailRow], single: bool) -> Vec<TraceDetail> {
    let mut at: [std::collections::HashMap<u32, u32>; 2] = Default::default();
    let mut n = 0;
    for r in listing {
        if let DetailRow::Ins { base, head, .. } = r {
            n += 1;
            for (side, ins) in [base, head].into_iter().enumerate() {
                if let Some(i) = ins {
                    at[side].insert(i.offset, n);
                }
            }
        }
    }
    let side_words = |valid: Option<bool>, uops: usize| match valid {
        None => "no trace".to_string(),
        Some(true) => count(uops as u64, "uop", "uops"),
        Some(false) => format!("{}, invalidated", count(uops as u64, "uop", "uops")),
    };
    rows.traces
        .iter()
        .map(|t| {
            let link = |side: usize, u: &Option<TraceUop>| u.as_ref().map(|u| (u.name.clone(), u.offset.and_then(|o| at[side].get(&o).copied())));
            let uops_on = |side: usize| t.rows.iter().filter(|r| if side == 0 { r.base.is_some() } else { r.head.is_some() }).count();
            TraceDetail {
                line: t.line,
                sides: if single { [side_words(t.valid[0], uops_on(0)), String::new()] } else { [0, 1].map(|s| side_words(t.valid[s], uops_on(s))) },
                change: t.change.map(|k| k.as_str().to_string()).filter(|_| !single),
                explanation: t.explanation.clone().filter(|_| !single),
                rows: t
                    .rows
                    .iter()
                    .filter(|r| !single || r.base.is_some())
                    .map(|r| TraceLine { base: link(0, &r.base), head: if single { None } else { link(1, &r.head) }, same: r.same || single })
                    .collect(),
            }
        })
        .collect()
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
        // Before a changed site, the context reaches back at least to the source line the
        // site is on: the fold never hides the line of a change.
        let site_line = (i < n).then(|| (start..i).rev().find(|&j| matches!(rows[j], Some(DetailRow::Source { .. })))).flatten();
        let trail = match (i == n, site_line) {
            (true, _) => 0,
            (false, Some(j)) => CONTEXT.max(i - j),
            (false, None) => CONTEXT,
        };
        let lead = if start == 0 { 0 } else { CONTEXT };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn src(line: u32) -> DetailRow {
        DetailRow::Source { line, text: format!("line {line}"), samples: [0, 0] }
    }

    fn ins(_: u32) -> DetailRow {
        DetailRow::Ins { base: None, head: None, class: None, explain: None }
    }

    fn shown_lines(rows: &[DetailRow]) -> Vec<u32> {
        rows.iter().filter_map(|r| if let DetailRow::Source { line, .. } = r { Some(*line) } else { None }).collect()
    }

    #[test]
    fn each_uop_links_to_the_listing_row_of_its_own_sides_instruction() {
        use specdiff_core::report::trace_view::{TraceRow, TraceView};
        let at = |offset: u32| Ins {
            offset,
            op: "X".into(),
            family: "X".into(),
            arg: String::new(),
            specialized: false,
            site: false,
            counter: None,
            tip: None,
            churn: None,
        };
        // Rows 1..=3; head's offsets are shifted by 2 from base's (an instruction added above).
        let listing = vec![
            src(1),
            DetailRow::Ins { base: Some(at(0)), head: Some(at(0)), class: None, explain: None },
            DetailRow::Ins { base: None, head: Some(at(2)), class: None, explain: None },
            DetailRow::Ins { base: Some(at(2)), head: Some(at(4)), class: None, explain: None },
        ];
        let uop = |name: &str, offset: Option<u32>| Some(TraceUop { name: name.into(), offset });
        let rows = FunctionRows {
            qualname: "f".into(),
            module: "m".into(),
            base_code: Some(0),
            head_code: Some(0),
            rows: vec![],
            changes: vec![],
            base_source: Default::default(),
            head_source: Default::default(),
            traces: vec![TraceView {
                offsets: [Some(2), Some(4)],
                line: Some(1),
                valid: [Some(true), None],
                change: None,
                explanation: None,
                rows: vec![
                    TraceRow { base: uop("_A", Some(2)), head: uop("_A", Some(4)), same: true },
                    TraceRow { base: uop("_B", None), head: None, same: false },
                ],
            }],
        };
        let t = &traces(&rows, &listing, false)[0];
        assert_eq!(t.sides, ["2 uops".to_string(), "no trace".to_string()]);
        assert_eq!(t.rows[0].base, Some(("_A".into(), Some(3))), "base offset 2 is row 3");
        assert_eq!(t.rows[0].head, Some(("_A".into(), Some(3))), "head offset 4 is row 3 too");
        assert_eq!(t.rows[1].base, Some(("_B".into(), None)), "a uop from no instruction of this code links nowhere");
        // One run shows base's column only.
        let one = &traces(&rows, &listing, true)[0];
        assert!(one.rows.iter().all(|r| r.head.is_none()) && one.sides[1].is_empty());
    }

    #[test]
    fn a_fold_never_hides_the_source_line_of_a_change() {
        // Line 1: 20 unchanged instructions; line 2: 12 unchanged, then the changed site.
        let mut rows = vec![src(1)];
        let mut interesting = vec![false];
        rows.extend((0..20).map(ins));
        interesting.extend([false; 20]);
        rows.push(src(2));
        interesting.push(false);
        rows.extend((0..12).map(ins));
        interesting.extend([false; 12]);
        rows.push(ins(99));
        interesting.push(true);
        let folded = fold(rows, &interesting);
        assert_eq!(shown_lines(&folded), [2], "line 2, the change's, stays outside the fold");
        let Some(DetailRow::Fold { rows: inside }) = folded.iter().find(|r| matches!(r, DetailRow::Fold { .. })) else {
            panic!("the long unchanged stretch of line 1 is folded")
        };
        assert_eq!(inside.len(), 21, "line 1 and its instructions");
        // With the change's line close by, the usual three rows of context.
        let mut rows = vec![src(1)];
        rows.extend((0..20).map(ins));
        rows.push(src(2));
        rows.push(ins(98));
        rows.push(ins(99));
        let mut interesting = vec![false; rows.len()];
        *interesting.last_mut().unwrap() = true;
        let folded = fold(rows, &interesting);
        assert_eq!(shown_lines(&folded), [2]);
        assert!(matches!(folded[0], DetailRow::Fold { .. }));
    }
}
