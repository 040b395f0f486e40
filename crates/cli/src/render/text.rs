//! The terminal rendering of a diff (`specdiff diff --format text`): the ranked run summary,
//! warnings, then every changed function, worst first, with each changed site's opnames,
//! source lines and explanation; then functions present on one side only, the pystats diff
//! and the regression gate's verdict. Colour is ANSI, on only when the caller says so.
//!
//! Every value that comes from a dump or a pystats file (names, paths, source lines, opnames,
//! explanations and warnings that quote them) is passed through [`inert`], so the only escape
//! sequences in the output are this module's own colours and the only line breaks its own;
//! names are first capped at `NAME_CAP` characters and sentences at `SENTENCE_CAP` ([`name`],
//! [`sentence`]), so every line is bounded whatever the dump's strings.

use std::fmt::Write;

use specdiff_core::Change;
use specdiff_core::report::{Delta, FunctionDiff, FunctionRef, StatsDiff};
use specdiff_core::view::gate::import_time_note;
use specdiff_core::ChangeKind;

use super::*;

/// Functions listed per side in "only in base/head" before `… N more` (all with `--all`).
const ONE_SIDE_SHOWN: usize = 10;
/// Families shown in the pystats section.
const STATS_FAMILIES: usize = 12;
/// Longest source line shown, in characters.
const SOURCE_WIDTH: usize = 160;

/// ANSI styling, or none.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn wrap(self, code: &str, s: &str) -> String {
        if self.0 && !s.is_empty() {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn dim(self, s: &str) -> String {
        self.wrap("2", s)
    }
    fn red(self, s: &str) -> String {
        self.wrap("31", s)
    }
    fn green(self, s: &str) -> String {
        self.wrap("32", s)
    }
    fn yellow(self, s: &str) -> String {
        self.wrap("33", s)
    }
    fn kind(self, k: ChangeKind) -> String {
        let label = format!("{:<10}", k.as_str());
        match k {
            ChangeKind::Lost | ChangeKind::Missing | ChangeKind::BackedOff => self.wrap("1;31", &label),
            ChangeKind::Gained => self.wrap("1;32", &label),
            ChangeKind::Churning | ChangeKind::Changed => self.wrap("33", &label),
            ChangeKind::Added | ChangeKind::Removed => self.wrap("36", &label),
            ChangeKind::Minor | ChangeKind::Unchanged => self.dim(&label),
        }
    }
}

/// What the cost estimate is worth on the interpreter the model was measured on (`"3.14.8"`),
/// as `bench/cost_validation.py` measured it with the committed model of that version
/// (`docs/cost-validation.md`): said wherever the estimate is.
pub(crate) fn validated(model_python: &str) -> String {
    // Single-change test programs whose estimate came within ±50 % of the measured time.
    const AGREED: [(&str, u32); 4] = [("3.12.", 7), ("3.13.", 10), ("3.14.", 10), ("3.15.", 10)];
    match AGREED.iter().find(|(v, _)| model_python.starts_with(v)) {
        Some((_, n)) => format!("a rough estimate: within ±50 % of the measured time on {n} of 10 test programs on this version"),
        None => "a rough estimate, not checked against measured time on this version".into(),
    }
}

/// `--cost`: the regressions' estimated share of run time, in total and per function (most
/// costly first: the report is ranked by it), in the core's words, which markdown shares.
fn cost_lines(out: &mut String, cost: &specdiff_core::view::cost::DiffCost) {
    let _ = writeln!(out, "\nEstimated cost of the lost specializations (CPython {} cost model; {}, docs/cost-validation.md): {}", cost.model_python, validated(&cost.model_python), sentence(&cost.words()));
    // A function not estimated is listed too: silence would read as "costs nothing".
    for f in cost.functions.iter().filter(|f| !f.import_time && (f.share.high > 0.0 || f.not_estimated > 0)) {
        let _ = writeln!(out, "  {}  {}", name(&f.qualname), sentence(&f.words()));
    }
}

/// Renders the whole text report. `all`: list every function on one side (not only the
/// first few).
pub fn render(input: &RenderInput, color: bool, all: bool) -> String {
    let p = Paint(color);
    let r = input.report;
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", p.bold("specdiff diff:"), p.bold(&input.view.overview.headline()));
    for (side, run) in [("base", &r.base), ("head", &r.head)] {
        let samples = if run.samples > 0 {
            count(run.samples, "sample", "samples")
        } else {
            format!("sampler {}", name(&run.sampler))
        };
        let _ = writeln!(
            out,
            "  {side}  {}  {}",
            name(&run.label),
            p.dim(&format!("({} code objects, {samples})", grouped(run.code_objects as u64)))
        );
    }
    if !r.warnings.is_empty() {
        out.push('\n');
        for w in &r.warnings {
            let _ = writeln!(out, "{} {}", p.yellow("warning:"), sentence(&w.message));
        }
    }
    summary(&mut out, input, p);
    if let Some(cost) = &input.view.cost {
        cost_lines(&mut out, cost);
    }
    if !r.functions.is_empty() {
        let title = if r.functions.iter().any(|f| f.counts.changed_sites() == 0) {
            "Functions, worst first"
        } else {
            "Changed functions, worst first"
        };
        // --cost ranks the report's regressed functions by their estimate (`rank_by_cost`).
        let ranked = if input.view.cost.is_some() { " (regressions by estimated cost)" } else { "" };
        let title = format!("{title}{ranked}");
        let _ = writeln!(out, "\n{}", p.bold(&title));
        for (f, v) in r.functions.iter().zip(&input.view.functions) {
            function(&mut out, input, f, v, p);
        }
    }
    one_side(&mut out, "Only in head", &r.added_functions, all, p);
    one_side(&mut out, "Only in base", &r.removed_functions, all, p);
    if let Some(s) = input.stats {
        stats(&mut out, s, p);
    } else if let Some(note) = input.stats_note {
        let _ = writeln!(out, "\n{} {}", p.dim("pystats:"), sentence(note));
    }
    if let Some(g) = &input.view.gate {
        gate(&mut out, g, p);
    }
    if let Some(link) = input.link {
        // The link stays the last line (scripts take it with `tail -n 1`).
        if let Some(note) = &input.view.link_note {
            let _ = writeln!(out, "\nThe link {note}.");
        } else {
            out.push('\n');
        }
        let _ = writeln!(out, "open in the viewer: {}", inert(link));
    }
    out
}

fn summary(out: &mut String, input: &RenderInput, p: Paint) {
    let r = input.report;
    let (s, o) = (&r.summary, &input.view.overview);
    out.push('\n');
    let _ = writeln!(out, "  specialized sites  {} → {}", share(&s.base), share(&s.head));
    let regs = if o.regressions == 0 {
        p.green("none")
    } else {
        p.red(&format!("{} {}", count(o.regressions as u64, "site", "sites"), regression_kinds(r)))
    };
    let _ = writeln!(out, "  regressions        {regs}");
    let gains = if o.gains == 0 { "none".to_string() } else { p.green(&count(o.gains as u64, "site", "sites")) };
    let _ = writeln!(out, "  gains              {gains}");
    let _ = writeln!(out, "  other changes      {}", other_changes(r));
    let _ = writeln!(
        out,
        "  functions          {} changed of {} matched · {} only in head · {} only in base",
        o.changed, o.matched, o.added, o.removed
    );
    let families: Vec<_> = changed_families(r).collect();
    if !families.is_empty() {
        let families: Vec<_> = families.into_iter().map(|f| (name(&f.family), f)).collect();
        let width =
            families.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0).min(super::NAME_COLUMN_MAX);
        let _ = writeln!(out, "  families (specialized sites, base → head)");
        for (name, f) in families {
            let arrow = format!("{} → {}", share(&f.base), share(&f.head));
            let arrow = if f.head.share < f.base.share { p.red(&arrow) } else { p.green(&arrow) };
            let _ = writeln!(out, "    {name:<width$}  {arrow}");
        }
    }
}

fn function(out: &mut String, input: &RenderInput, f: &FunctionDiff, v: &FunctionView, p: Paint) {
    let mut facts = vec![format!("{}:{}", name(&f.file), f.head_first_line)];
    facts.extend(renamed(f).map(|r| sentence(&r).into_owned()));
    if let Some(h) = hotness_with_interval(v) {
        facts.push(format!("hot {h}"));
    }
    facts.push(function_counts(f));
    facts.push(format!("specialized {} → {}", pct(f.specialized_before.share), pct(f.specialized_after.share)));
    let name = shown_function(&f.module, &f.qualname);
    let name = if f.regressions > 0 && !f.import_time { p.red(&name) } else { name };
    let _ = writeln!(out, "\n{}  {}", p.bold(&name), p.dim(&facts.join(" · ")));
    for c in &f.changes {
        change(out, input, f, c, p);
    }
    for t in &f.traces {
        let word = format!("trace {}", t.kind.as_str());
        let word = if t.regression { p.red(&word) } else { p.yellow(&word) };
        let at = t.line.map_or_else(String::new, |l| format!("  line {l}"));
        let _ = writeln!(out, "  {word:<14} loop jump at offset {}{}", t.head_offset, p.dim(&at));
        let _ = writeln!(out, "            {} {}", p.dim("why:"), sentence(&t.explanation));
    }
}

fn change(out: &mut String, input: &RenderInput, f: &FunctionDiff, c: &Change, p: Paint) {
    let operand = c.operand.as_deref().map(|o| format!("  `{}`", name(o))).unwrap_or_default();
    let _ = writeln!(
        out,
        "  {} {:<14} {}{}  {}",
        p.kind(c.kind),
        name(&c.family),
        sentence(&ops(c)),
        operand,
        p.dim(&lines(c))
    );
    if c.kind == ChangeKind::Unchanged {
        return;
    }
    let src = change_source(input, f, c);
    let show = |l: u32, t: &str| format!("{l:>5} │ {}", inert(&clip(t.trim(), SOURCE_WIDTH)));
    match (&src.base, &src.head) {
        (Some((bl, bt)), Some((hl, ht))) if !src.same_text() => {
            let _ = writeln!(out, "           {}", p.red(&format!("-{}", show(*bl, bt))));
            let _ = writeln!(out, "           {}", p.green(&format!("+{}", show(*hl, ht))));
        }
        (_, Some((l, t))) | (Some((l, t)), None) => {
            let _ = writeln!(out, "            {}", show(*l, t));
        }
        (None, None) => {}
    }
    if let Some(e) = &c.explanation {
        let _ = writeln!(out, "            {} {}", p.dim("why:"), sentence(e));
    }
}

fn one_side(out: &mut String, title: &str, list: &[FunctionRef], all: bool, p: Paint) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{} ({})", p.bold(title), list.len());
    let shown = if all { list.len() } else { ONE_SIDE_SHOWN.min(list.len()) };
    for f in &list[..shown] {
        let _ = writeln!(
            out,
            "  {}  {}",
            shown_function(&f.module, &f.qualname),
            p.dim(&format!("{}:{} · specialized {}", name(&f.file), f.first_line, share(&f.specialized)))
        );
    }
    if shown < list.len() {
        let _ = writeln!(out, "  … {} more (--all lists them)", list.len() - shown);
    }
}

fn delta(d: &Delta, more_is_bad: bool, p: Paint) -> String {
    let s = format!("{} → {}", grouped(d.base), grouped(d.head));
    match d.head.cmp(&d.base) {
        std::cmp::Ordering::Equal => s,
        std::cmp::Ordering::Greater if more_is_bad => p.red(&s),
        std::cmp::Ordering::Less if !more_is_bad => p.red(&s),
        _ => p.green(&s),
    }
}

fn stats(out: &mut String, s: &StatsDiff, p: Paint) {
    let _ = writeln!(out, "\n{}", p.bold("Specialization statistics (pystats), base → head"));
    let _ = writeln!(out, "  instructions executed  {}", delta(&s.total_executions, false, Paint(false)));
    let families: Vec<_> = s.changed_families().take(STATS_FAMILIES).collect();
    if families.is_empty() {
        let _ = writeln!(out, "  no family's specialization counters changed");
        return;
    }
    for f in families {
        let _ = writeln!(
            out,
            "  {:<22} hit {}  miss {}  deferred {}  deopt {}  failure {}",
            name(&f.family),
            delta(&f.hit, false, p),
            delta(&f.miss, true, p),
            delta(&f.deferred, true, p),
            delta(&f.deopt, true, p),
            delta(&f.failure, true, p)
        );
        let kinds: Vec<String> = f
            .failure_kinds
            .iter()
            .filter(|k| k.count.base != k.count.head)
            .take(3)
            .map(|k| format!("{} {}", name(&k.name.label), delta(&k.count, true, p)))
            .collect();
        if !kinds.is_empty() {
            let _ = writeln!(out, "  {:<22} failures: {}", "", kinds.join(", "));
        }
    }
}

fn gate(out: &mut String, g: &GateResult, p: Paint) {
    let basis = if g.unsampled {
        "neither run was sampled, so every regressed function counts".to_string()
    } else {
        format!("functions with hotness ≥ {}% at 95% confidence count", g.min_hotness)
    };
    let basis = match g.min_cost {
        Some(c) => format!("{basis}; with an estimated cost ≥ {c}% of run time at its interval's low end"),
        None => basis,
    };
    let verdict = if g.tripped {
        p.red(&format!("FAILED: {} regressed", count(g.hot.len() as u64, "hot function", "hot functions")))
    } else {
        p.green("passed")
    };
    let _ = writeln!(out, "\n{} {verdict} ({basis})", p.bold("Regression gate:"));
    for f in &g.hot {
        let h = f.hotness_words().map(|h| format!("{h} · ")).unwrap_or_default();
        let c = f.cost_words().map(|c| format!(" · {c}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}  {}",
            name(&f.function),
            p.dim(&format!("{h}{}{c}", count(f.regressions as u64, "regression", "regressions")))
        );
    }
    if let Some(note) = g.min_cost_note() {
        let _ = writeln!(out, "  {note}");
        for f in &g.not_estimated {
            let _ = writeln!(out, "    {}  {}", name(&f.function), p.dim(&sentence(&f.cost_words().unwrap_or_default())));
        }
    }
    if !g.cold.is_empty() {
        let _ = writeln!(
            out,
            "  {} not shown to reach {}% not counted",
            count(g.cold.len() as u64, "regressed function", "regressed functions"),
            g.min_hotness
        );
    }
    if !g.import_time.is_empty() {
        let _ = writeln!(out, "  {}", import_time_note(g.import_time.len()));
    }
}
