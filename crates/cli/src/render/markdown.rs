//! The Markdown rendering of a diff (`specdiff diff --format markdown`), made to be posted as a
//! GitHub pull-request comment: a headline, the run summary as a table, the regression gate,
//! a table of the changed functions (worst regressions first), then one collapsible
//! `<details>` section per function with its changed sites, source lines and explanations;
//! functions present on one side only and the pystats diff follow, also collapsed. With
//! `--cost` the estimated cost of the regressions (in the diff, per function in the table and
//! in each function's summary, and what `--min-cost` did at the gate) in the core's words,
//! the same as text's; without it, nothing of this is written.
//!
//! GitHub refuses comments of 65,536 characters or more, so the output is always shorter:
//! every section except the per-function details is bounded by construction, and details are
//! added worst first while they fit; the rest is replaced by "… N more functions not shown".
//! All user data is escaped (see `md_escape`).

use std::fmt::Write;

use specdiff_core::report::{Delta, FunctionDiff, FunctionRef, StatsDiff};
use specdiff_core::view::cost::DiffCost;
use specdiff_core::view::gate::import_time_note;
use specdiff_core::ChangeKind;

use super::md_escape::{code, html, one_line, prose, text};
use super::*;

/// GitHub's limit on a comment, in characters; the output stays below it.
pub const GITHUB_COMMENT_LIMIT: usize = 65_536;
/// Rows of the function table.
const TABLE_ROWS: usize = 25;
/// Sites listed in one function's details.
const SITES_PER_FUNCTION: usize = 30;
/// Functions named per side in the "only in base/head" sections.
const ONE_SIDE_SHOWN: usize = 30;
/// Families in the pystats section.
const STATS_FAMILIES: usize = 15;
/// Longest name (cut by `capped`, which keeps long names distinct) or source line (cut by
/// `clip`), in characters.
const NAME_WIDTH: usize = 120;
const SOURCE_WIDTH: usize = 160;
/// Room kept for the closing note.
const NOTE_ROOM: usize = 400;
/// Room a `--link` leaves at least for the rest of the comment (headline, runs, totals).
const LINK_ROOM: usize = 4_000;

/// Hot regressed functions listed under the gate's verdict (the table below has them all).
const GATE_ROWS: usize = 5;

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Renders the Markdown report; the result is shorter than `limit` characters (pass
/// [`GITHUB_COMMENT_LIMIT`]).
pub fn render(input: &RenderInput, limit: usize) -> String {
    let r = input.report;
    let mut top = String::new();
    header(&mut top, input);
    let mut bottom = String::new();
    one_side(&mut bottom, "Only in head", &r.added_functions);
    one_side(&mut bottom, "Only in base", &r.removed_functions);
    if let Some(s) = input.stats {
        stats(&mut bottom, s);
    } else if let Some(note) = input.stats_note {
        let _ = writeln!(bottom, "\n_pystats: {}_", text(&clip(note, 600)));
    }
    let mut out = top;
    let mut used = chars(&out) + chars(&bottom) + NOTE_ROOM;
    let with_sites: Vec<(&FunctionDiff, &FunctionView)> = r
        .functions
        .iter()
        .zip(&input.view.functions)
        .filter(|(f, _)| f.changes.iter().any(|c| c.kind != ChangeKind::Unchanged) || !f.traces.is_empty())
        .collect();
    let mut shown = 0;
    for (f, v) in &with_sites {
        let section = details(input, f, v);
        let n = chars(&section);
        if used + n >= limit {
            break;
        }
        out.push_str(&section);
        used += n;
        shown += 1;
    }
    if shown < with_sites.len() {
        let _ = writeln!(
            out,
            "\n… {} more functions not shown (the comment limit is {} characters; `specdiff diff --format text` lists all)",
            with_sites.len() - shown,
            grouped(limit as u64)
        );
    }
    out.push_str(&bottom);
    // Every part above is bounded; this only guards against a mistake in those bounds.
    if chars(&out) >= limit {
        let keep = limit.saturating_sub(NOTE_ROOM);
        let cut = out.char_indices().nth(keep).map_or(out.len(), |(i, _)| i);
        out.truncate(cut);
        out.push_str("\n\n… output cut at GitHub's comment limit\n");
    }
    out
}

fn header(out: &mut String, input: &RenderInput) {
    let r = input.report;
    let s = &r.summary;
    let _ = writeln!(out, "## specdiff: {}\n", input.view.overview.headline());
    match input.link {
        Some(link) if chars(link) + LINK_ROOM <= GITHUB_COMMENT_LIMIT => {
            let _ = writeln!(out, "**[open in the viewer]({link})**\n");
            if let Some(note) = &input.view.link_note {
                let _ = writeln!(out, "_The link {note}._\n");
            }
        }
        Some(link) => {
            let _ = writeln!(
                out,
                "_The share link ({} characters) does not fit in a comment._\n",
                grouped(chars(link) as u64)
            );
        }
        None => {}
    }
    for (name, run) in [("base", &r.base), ("head", &r.head)] {
        let samples = if run.samples > 0 {
            count(run.samples, "sample", "samples")
        } else {
            format!("sampler {}", text(&capped(&run.sampler, NAME_WIDTH)))
        };
        let _ = writeln!(
            out,
            "**{name}** {} ({} code objects, {samples})  ",
            code(&clip(&run.label, 200), false),
            grouped(run.code_objects as u64)
        );
    }
    for w in &r.warnings {
        let _ = writeln!(out, "\n> [!WARNING]\n> {}", prose(&clip(&w.message, 400), false));
    }
    let _ = writeln!(out, "\n| specialized sites | base | head |\n|---|---:|---:|");
    let _ = writeln!(out, "| **all** | {} | {} |", share(&s.base), share(&s.head));
    for f in changed_families(r).take(40) {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            code(&capped(&f.family, NAME_WIDTH), true),
            share(&f.base),
            share(&f.head)
        );
    }
    let o = &input.view.overview;
    let regs = if o.regressions == 0 {
        "none".to_string()
    } else {
        format!("{} {}", count(o.regressions as u64, "site", "sites"), regression_kinds(r))
    };
    let _ = writeln!(
        out,
        "\n**Regressions:** {regs} · **gains:** {} · **other changes:** {} · **functions:** {} changed of {} matched, {} only in head, {} only in base",
        count(o.gains as u64, "site", "sites"),
        other_changes(r),
        o.changed,
        o.matched,
        o.added,
        o.removed
    );
    if let Some(cost) = &input.view.cost {
        // The core's words, as text prints them; `text` leaves them as they are and escapes
        // only what a dump put in (an opname in a "why").
        let _ = writeln!(
            out,
            "\n**Estimated cost of the lost specializations:** {} (CPython {} cost model; {})",
            text(&clip(&cost.words(), 600)),
            text(&capped(&cost.model_python, NAME_WIDTH)),
            super::text::validated(&cost.model_python)
        );
    }
    if let Some(g) = &input.view.gate {
        let basis = g.basis();
        let verdict = if g.tripped {
            format!("❌ failed: {} regressed", count(g.hot.len() as u64, "hot function", "hot functions"))
        } else {
            "✅ passed".to_string()
        };
        let _ = writeln!(out, "\n**Regression gate:** {verdict} ({basis})");
        if !g.hot.is_empty() {
            out.push('\n');
        }
        for f in g.hot.iter().take(GATE_ROWS) {
            let h = f.hotness_words().map(|h| format!("{h}, ")).unwrap_or_default();
            let c = f.cost_words().map(|c| format!(", {}", text(&c))).unwrap_or_default();
            let _ = writeln!(
                out,
                "- {}: {h}{}{c}",
                code(&capped(&f.function, NAME_WIDTH), false),
                count(f.regressions as u64, "regression", "regressions")
            );
        }
        if g.hot.len() > GATE_ROWS {
            let _ = writeln!(out, "- _… and {} more_", g.hot.len() - GATE_ROWS);
        }
        if let Some(note) = g.min_cost_note() {
            let _ = writeln!(out, "\n{note}");
            if !g.not_estimated.is_empty() {
                out.push('\n');
            }
            for f in g.not_estimated.iter().take(GATE_ROWS) {
                let words = clip(&f.cost_words().unwrap_or_default(), 600);
                let _ = writeln!(out, "- {}: {}", code(&capped(&f.function, NAME_WIDTH), false), text(&words));
            }
            if g.not_estimated.len() > GATE_ROWS {
                let _ = writeln!(out, "- _… and {} more_", g.not_estimated.len() - GATE_ROWS);
            }
        }
        if !g.import_time.is_empty() {
            let _ = writeln!(out, "\n{}", import_time_note(g.import_time.len()));
        }
    }
    if r.functions.is_empty() {
        return;
    }
    // With --cost the table gains a column, and the report arrives ranked by it.
    let cost = input.view.cost.as_ref();
    if cost.is_some() {
        let _ = writeln!(out, "\n### Changed functions, worst first (regressions by estimated cost)\n");
        let _ = writeln!(out, "| function | hot | regressions | estimated cost | sites | specialized |\n|---|---:|---:|---|---|---|");
    } else {
        let _ = writeln!(out, "\n### Changed functions, worst first\n");
        let _ = writeln!(out, "| function | hot | regressions | sites | specialized |\n|---|---:|---:|---|---|");
    }
    for (f, v) in r.functions.iter().zip(&input.view.functions).take(TABLE_ROWS) {
        let cost_cell = match cost {
            Some(c) => format!(" {} |", cost_cell(c, f)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |{cost_cell} {} | {} → {} |",
            renamed_cell(f),
            hotness(v).unwrap_or_else(|| "–".into()),
            f.regressions,
            function_counts(f),
            pct(f.specialized_before.share),
            pct(f.specialized_after.share)
        );
    }
    if r.functions.len() > TABLE_ROWS {
        let _ = writeln!(out, "\n_… and {} more functions, not in this table_", r.functions.len() - TABLE_ROWS);
    }
    out.push('\n');
}

/// The table's cost cell (`--cost`): the core's words for the function's estimate, `–` for a
/// function without regressed sites.
fn cost_cell(cost: &DiffCost, f: &FunctionDiff) -> String {
    match cost.function((f.base_code, f.head_code)) {
        Some(c) => text(&clip(&c.words(), 600)),
        None => "–".into(),
    }
}

/// The table's function cell: its name, and the old one when it was renamed.
fn renamed_cell(f: &FunctionDiff) -> String {
    let name = code(&capped_function(&f.module, &f.qualname, NAME_WIDTH), true);
    match &f.renamed_from {
        Some(from) => format!("{name} (renamed from {})", code(&capped(from, NAME_WIDTH), true)),
        None => name,
    }
}

/// A fence for a code block holding `lines`: backticks, longer than any run inside.
fn fence(lines: &[String]) -> String {
    let longest = lines.iter().flat_map(|l| l.split(|c| c != '`')).map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

fn details(input: &RenderInput, f: &FunctionDiff, v: &FunctionView) -> String {
    let mut out = String::new();
    let name = capped_function(&f.module, &f.qualname, NAME_WIDTH);
    let mut facts: Vec<String> = renamed(f).map(|r| capped(&r, 2 * NAME_WIDTH).into_owned()).into_iter().collect();
    facts.push(function_counts(f));
    if let Some(h) = hotness_with_interval(v) {
        facts.push(format!("hot {h}"));
    }
    if let Some(c) = input.view.cost.as_ref().and_then(|c| c.function((f.base_code, f.head_code))) {
        facts.push(format!("estimated cost {}", clip(&c.words(), 600)));
    }
    let _ = writeln!(
        out,
        "\n<details><summary><code>{}</code> — {}</summary>\n",
        html(&name, false),
        html(&facts.join(" · "), true)
    );
    let _ = writeln!(out, "{}\n", code(&format!("{}:{}", capped(&f.file, 200), f.head_first_line), false));
    let changed: Vec<_> = f.changes.iter().filter(|c| c.kind != ChangeKind::Unchanged).collect();
    for c in changed.iter().take(SITES_PER_FUNCTION) {
        let operand =
            c.operand.as_deref().map(|o| format!(" {}", code(&capped(o, NAME_WIDTH), false))).unwrap_or_default();
        // The one wording of the opnames (a rewritten row names its getattr() call).
        let ops_text = code(&capped(&ops(c), 2 * NAME_WIDTH), false);
        let _ = writeln!(
            out,
            "- **{}** {}{operand}: {ops_text} ({})",
            c.kind.as_str().replace('_', " "),
            code(&capped(&c.family, NAME_WIDTH), false),
            lines(c)
        );
        let src = change_source(input, f, c);
        let show = |sign: char, l: u32, t: &str| format!("{sign} {l:>4} │ {}", clip(t.trim(), SOURCE_WIDTH));
        let block: Vec<String> = match (&src.base, &src.head) {
            (Some((bl, bt)), Some((hl, ht))) if !src.same_text() => {
                vec![show('-', *bl, bt), show('+', *hl, ht)]
            }
            (_, Some((l, t))) | (Some((l, t)), None) => vec![show(' ', *l, t)],
            (None, None) => vec![],
        };
        if !block.is_empty() {
            let fence = fence(&block);
            let _ = writeln!(out, "  {fence}diff");
            for line in &block {
                let _ = writeln!(out, "  {}", one_line(line));
            }
            let _ = writeln!(out, "  {fence}");
        }
        if let Some(e) = &c.explanation {
            let _ = writeln!(out, "  ↳ {}", prose(&clip(e, 600), false));
        }
    }
    if changed.len() > SITES_PER_FUNCTION {
        let _ = writeln!(out, "- … {} more sites", changed.len() - SITES_PER_FUNCTION);
    }
    for t in f.traces.iter().take(SITES_PER_FUNCTION) {
        let at = t.line.map_or_else(String::new, |l| format!(" (line {l})"));
        let _ = writeln!(out, "- **trace {}**: loop jump at offset {}{at}", t.kind.as_str(), t.head_offset);
        let _ = writeln!(out, "  ↳ {}", prose(&clip(&t.explanation, 600), false));
    }
    out.push_str("\n</details>\n");
    out
}

fn one_side(out: &mut String, title: &str, list: &[FunctionRef]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n<details><summary>{title} ({})</summary>\n", list.len());
    for f in list.iter().take(ONE_SIDE_SHOWN) {
        let _ = writeln!(
            out,
            "- {} ({}:{}, specialized {})",
            code(&capped_function(&f.module, &f.qualname, NAME_WIDTH), false),
            text(&capped(&f.file, 200)),
            f.first_line,
            share(&f.specialized)
        );
    }
    if list.len() > ONE_SIDE_SHOWN {
        let _ = writeln!(out, "- … {} more", list.len() - ONE_SIDE_SHOWN);
    }
    out.push_str("\n</details>\n");
}

fn delta(d: &Delta) -> String {
    let change = match d.relative() {
        Some(r) if d.base != d.head => format!(" ({r:+.0}%)"),
        None if d.head > 0 => " (new)".into(),
        _ => String::new(),
    };
    format!("{} → {}{change}", grouped(d.base), grouped(d.head))
}

fn stats(out: &mut String, s: &StatsDiff) {
    let _ = writeln!(out, "\n<details><summary>Specialization statistics (pystats)</summary>\n");
    let _ = writeln!(out, "Instructions executed: {}\n", delta(&s.total_executions));
    let families: Vec<_> = s.changed_families().take(STATS_FAMILIES).collect();
    if families.is_empty() {
        let _ = writeln!(out, "No family's specialization counters changed.");
    } else {
        let _ = writeln!(out, "| family | hit | miss | deferred | deopt | failure | top failure kinds |\n|---|---:|---:|---:|---:|---:|---|");
        for f in families {
            let kinds: Vec<String> = f
                .failure_kinds
                .iter()
                .filter(|k| k.count.base != k.count.head)
                .take(3)
                .map(|k| {
                    format!(
                        "{} {} → {}",
                        text(&capped(&k.name.label, NAME_WIDTH)),
                        grouped(k.count.base),
                        grouped(k.count.head)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                code(&capped(&f.family, NAME_WIDTH), true),
                delta(&f.hit),
                delta(&f.miss),
                delta(&f.deferred),
                delta(&f.deopt),
                delta(&f.failure),
                kinds.join(", ")
            );
        }
    }
    out.push_str("\n</details>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use specdiff_core::report::DiffReport;

    fn dump() -> specdiff_core::Dump {
        let run = json!({"argv": ["x.py"], "target": {"kind": "script", "value": "x.py"}, "cwd": "/", "started": "",
            "duration_s": 1.0, "exit_status": 0, "exception": null,
            "sampler": {"mode": "thread", "interval_ms": 1.0, "samples": 100, "note": null},
            "filters": {"include": [], "exclude": [], "include_unrun": false}});
        let d = json!({"format": "specdiff-dump", "version": 1, "generator": "t", "run": run,
            "python": {"version": "3.12.1", "version_info": [3, 12, 1, "final", 0], "implementation": "cpython",
                       "executable": "python3", "platform": "linux", "pystats_build": false},
            "strings": [""], "ops": [], "files": [], "code": [], "pystats": null});
        specdiff_core::read_dump("t.json", &serde_json::to_vec(&d).unwrap(), Default::default()).unwrap()
    }

    /// A report of `n` regressed functions with hostile names, built through the report's
    /// JSON form.
    fn report(n: usize) -> DiffReport {
        let counts = json!({"lost": 5, "missing": 0, "backed_off": 0, "churning": 0, "changed": 0, "gained": 0,
            "added": 0, "removed": 0, "unchanged": 0});
        let share = json!({"sites": 5, "specialized": 5, "share": 1.0});
        let change = json!({"kind": "lost", "family": "LOAD_ATTR", "base": "LOAD_ATTR_SLOT", "head": "LOAD_ATTR",
            "base_line": 3, "head_line": 3, "explanation": "the load `.x|y` became *getattr* <b>[x](y)</b> @you",
            "operand": "x`|`y", "base_offset": 2, "head_offset": 2, "base_counter": null, "head_counter": null,
            "base_churn": null, "head_churn": null, "hotness": 1, "source": "x", "row_kind": "same", "row": 0});
        let functions: Vec<_> = (0..n)
            .map(|i| {
                json!({"qualname": format!("f{i}.<locals>.g|`</code></summary>`<script>"), "module": "m_*x*",
                "regressions": 5, "gains": 0, "changes": vec![change.clone(); 5], "kind": "function",
                "base_code": 0, "head_code": 0, "file": "a|b.py", "base_first_line": 1, "head_first_line": 1,
                "counts": counts, "specialized_before": share, "specialized_after": share,
                "hotness": {"base_samples": 1, "head_samples": 1, "base_share": 0.01, "head_share": 0.01},
                "score": 0.05, "edits": 0, "similarity": 1.0})
            })
            .collect();
        let run = json!({"label": "CPython 3.12.1 · x.py", "python": "3.12.1", "version": [3, 12], "samples": 100,
            "sampler": "thread", "code_objects": n});
        serde_json::from_value(json!({"format": "specdiff-diff", "version": 1, "base": run, "head": run,
            "warnings": [{"code": "x", "message": "a `b|c` <d>"}],
            "summary": {"matched": n, "changed": n, "added": 0, "removed": 0, "regressions": 5 * n, "counts": counts,
                        "base": share, "head": share, "families": [], "similarity": 1.0},
            "functions": functions, "added_functions": [], "removed_functions": []}))
        .unwrap()
    }

    #[test]
    fn big_reports_are_cut_to_the_limit_and_user_data_is_escaped() {
        let (base, head) = (dump(), dump());
        let r = report(3000);
        let view = View::of(&r, None);
        let input = RenderInput { report: &r, base: &base, head: &head, stats: None, stats_note: None, view: &view, link: None };
        let md = render(&input, GITHUB_COMMENT_LIMIT);
        assert!(chars(&md) < GITHUB_COMMENT_LIMIT, "{}", chars(&md));
        let shown = md.matches("\n<details><summary><code>").count();
        assert!(shown > 10, "{shown}");
        assert!(md.contains(&format!("\n… {} more functions not shown", 3000 - shown)), "{}", &md[md.len() - 300..]);
        assert_eq!(md.matches("\n| ``m_*x*:f").count(), TABLE_ROWS);
        assert!(!md.contains("<b>"), "raw HTML from user data");
        for line in md.lines().filter(|l| l.contains("<script>")) {
            assert!(line.starts_with("| ``m_"), "only inside code spans: {line}");
        }
        assert!(md
            .contains("<summary><code>m_*x*:f0.&lt;locals&gt;.g|`&lt;/code&gt;&lt;/summary&gt;`&lt;script&gt;</code>"));
        assert!(md.contains("| ``m_*x*:f0.<locals>.g\\|`</code></summary>`<script>`` |"), "table cells escape pipes");
        assert!(md.contains("↳ the load `.x|y` became \\*getattr\\* \\<b\\>\\[x\\](y)\\</b\\> @&#8203;you"));
        // A small limit still holds.
        let small = render(&input, 5_000);
        assert!(chars(&small) < 5_000, "{}", chars(&small));
    }

    #[test]
    fn a_link_opens_the_comment_unless_it_crowds_out_the_rest() {
        let (base, head) = (dump(), dump());
        let r = report(3000);
        let view = View::of(&r, None);
        let md_with = |link: &str| {
            let input = RenderInput {
                report: &r,
                base: &base,
                head: &head,
                stats: None,
                stats_note: None,
                view: &view,
                link: Some(link),
            };
            render(&input, GITHUB_COMMENT_LIMIT)
        };
        let link = format!("https://o.github.io/specdiff/#share=s1.{}", "A".repeat(20_000));
        let md = md_with(&link);
        assert_eq!(md.lines().nth(2), Some(format!("**[open in the viewer]({link})**").as_str()));
        assert!(chars(&md) < GITHUB_COMMENT_LIMIT && md.contains("more functions not shown"));
        let long = format!("https://o.github.io/specdiff/#share=s1.{}", "A".repeat(GITHUB_COMMENT_LIMIT));
        let md = md_with(&long);
        assert!(!md.contains("open in the viewer") && chars(&md) < GITHUB_COMMENT_LIMIT);
        assert!(md.contains("_The share link (65,575 characters) does not fit in a comment._"), "{}", &md[..300]);
    }

    #[test]
    fn fences_outgrow_backticks_in_the_source() {
        assert_eq!(fence(&["plain".into()]), "```");
        assert_eq!(fence(&["s = '````'".into()]), "`````");
    }
}
