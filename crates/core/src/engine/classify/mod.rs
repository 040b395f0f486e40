//! Classifying aligned sites: what happened to each specialization site between two runs.
//!
//! A *specialization site* is a site whose instruction has an adaptive counter (`ops[3]` is
//! `"adaptive"`). A paired row where only one side is a site (a family that specializes in
//! one CPython version only, like 3.11's `FOR_ITER`) is `unchanged`. For every aligned row of such sites the classifier
//! picks one [`ChangeKind`], by these rules in order (`docs/engine.md`, "Classification").
//! Each side's counter is read with its own version's rules (`VersionRules`); evidence is
//! compared across sides only where the two versions' counters mean the same thing.
//!
//! 1. only in base → `removed`; only in head → `added`; a paired row where one side is a site
//!    and the other is not: between dumps of one version only a code change does that (3.13's
//!    `CALL` → `CALL_KW` when a keyword argument was added): `lost` when base's was
//!    specialized, `gained` when head's is, else `unchanged`; between versions the family
//!    specializes in one only (3.11's `FOR_ITER`): `unchanged`;
//! 2. `rewritten` rows (attribute load ↔ `getattr()`, ↔ `super()`): `changed` when both are
//!    attribute accesses and both specialized (one specialized path for another); else `lost`
//!    when the attribute access was base's and specialized, `gained` when it is head's and
//!    specialized, else `changed`; `minor` when base's is specialized and head's did not run
//!    (enough), as in rule 3;
//!    `call_form` rows (a call ↔ a `CALL_FUNCTION_EX` call) between dumps of different
//!    versions: `minor` when either side is specialized (which forms a version specializes
//!    is the interpreter's doing), else `unchanged`; in one version, rule 1 or the rules below;
//! 3. the snapshots differ (lost, gained, changed) but the sampler saw both runs flip through
//!    both forms, each at least twice → `unchanged`: two phases of one cycle. Else base specialized, head not →
//!    `lost` when head's counter shows the site ran; `minor` when it did not run (enough) in
//!    head: a workload change, not a lost specialization;
//!
//! *2b.* `modified` rows whose sites name different things (another attribute, global or
//! operator): `changed` when either is specialized, unless both have the same form; else
//! `unchanged`: two operations, not one in two runs;
//!
//! 4. same specialization, head's counter shows at least `min_misses` (8) more misses than
//!    a base that held (fewer than `min_misses`, and the sampler never saw it re-specialize)
//!    → `missing` when the sampler saw head re-specialize it more than base beyond its luck
//!    (rule 5's test), or could not have seen that (a run unsampled, or head's too short for
//!    enough looks); else `minor` (a snapshot of a miss counter does not say how many misses
//!    there were);
//! 5. head's churn (re-specializations seen by the sampler: opname flips, or a miss counter
//!    that went back up) above base's, at least twice it and more than the sampler's luck
//!    (a one-sided sign test at 5 %) → `churning`;
//! 6. base not specialized, head specialized → `gained`;
//! 7. both specialized, different specializations → `changed`; same, more misses → `minor`;
//! 8. both generic: `unchanged` when either side is a 3.11 instruction that gave up (no
//!    specialization exists for it there); `minor` when head proves more failed attempts but
//!    the evidence is not comparable (different counter models, base never ran the site, or
//!    the sampler did not see base's line at least half as often, by share of the run's
//!    samples, as head's) or short of `min_failures` (2) more; else `backed_off` when it is;
//! 9. otherwise `unchanged`.
//!
//! With the JIT on in either run (`under_jit`): the same form on both sides, and any `RESUME`
//! row, is `unchanged` whatever its counters; and where the source line is the same on both
//! sides, a regression is `minor` when a trace ran the site (an executor's uop came from it, or
//! it is in the dump's `inlined`) or when it is `lost` from a base that was missing too while
//! head was seen holding base's form and losing it.
//!
//! Regressions (what a function's `regressions` counts and the gate fails on) are `lost`,
//! `missing` and `backed_off`; `minor` keeps the smaller counter movements visible.


mod change;
mod site_view;
#[cfg(test)]
mod tests;

pub use change::{Cause, Change, ChangeKind, ChurnInfo};
pub(crate) use change::{churn_info, ClassifyOptions};
pub(crate) use site_view::SiteView;
pub(crate) use site_view::same_statement;

use crate::cpython::counters::Counter;
use crate::cpython::normalize::{canonical_opname, SiteTag};
use crate::engine::align::RowKind;
use crate::model::RunInfo;

/// Classifies one aligned row; `None` when neither side is a specialization site.
pub(crate) fn classify(b: Option<&SiteView>, h: Option<&SiteView>, kind: RowKind, opts: &ClassifyOptions) -> Option<ChangeKind> {
    let k = classify_site(b, h, kind, opts);
    match (k, b, h) {
        // Executors or `inlined` offsets are there only with the JIT on, which dumps of 3.13
        // (no `sys._jit`) do not say.
        (Some(k), Some(b), Some(h)) if jit_on(b) || jit_on(h) || b.in_trace() || h.in_trace() => Some(under_jit(k, b, h)),
        _ => k,
    }
}

/// Whether the run had the JIT on.
fn jit_on(v: &SiteView) -> bool {
    v.dump.python.jit.as_ref().and_then(|j| j.enabled) == Some(true)
}

/// What a kind proves when either run had the JIT on. A site's tier-1 form and counters then
/// move only while tier 1 runs it: not while a trace does, including traces the dump cannot
/// show (side executors, executors detached before the end, callers' traces that went into
/// this function), and 3.15's trace recording leaves the counters of the specialized
/// instructions it records at 0 (measured on 3.15.0: `x in {9, 32}` in a function a hot loop
/// calls reads 0 with the JIT, 52 without; 3.14.8 reads 52 both ways). So:
/// - the same form on both sides with other counters is `unchanged`: miss counts say nothing
///   (no "N misses" sentence), `missing` is not proven, and nor are more failed attempts of a
///   generic site;
/// - where the statement is the same on both sides (the same source text, or no source to
///   tell), a regression is `minor` when a trace ran the site (an executor's uop came from it,
///   or it is in the dump's `inlined`), or when it is `lost` from a base that was missing too
///   (misses since it specialized, other than a counter at 0, or seen re-specializing) while
///   head was seen holding base's specialization after its warm-up and then losing it: both
///   runs met both kinds of value, and which one each snapshot ended on is timing. Measured:
///   sqlglot's parser on 3.15, the same program dumped 18 times under load, lost
///   `TO_BOOL_NONE` at `tokens or self.ID_VAR_TOKENS` in 29 of 153 pairs, base at 2 misses or
///   seen re-specializing, head seen in `TO_BOOL_NONE`; 0 of 15 pairs with the JIT off. A
///   statement that changed (markdown-it-py 3.0's `in (0x09, 0x20)` for 2.2's
///   `in {0x09, 0x20}`) keeps its regression: the edit, not timing, explains it;
/// - any other loss counts: of the 101 regressions the 24 real upgrades of `tests/real` show
///   with the JIT on, this leaves 4 silent where the rule without head's churn left 20 (18 of
///   them reported with the JIT off too).
///
/// (`backed_off` needs base's samples, which the JIT makes incomparable: `base_ran_as_often`.)
fn under_jit(k: ChangeKind, b: &SiteView, h: &SiteView) -> ChangeKind {
    let same_form = b.op().name == h.op().name;
    if same_form && matches!(k, ChangeKind::Minor | ChangeKind::Missing) {
        return ChangeKind::Unchanged;
    }
    // `RESUME`'s forms follow the JIT, not the program: `RESUME_CHECK_JIT` lets a trace start
    // at a function's entry, and a function that ran only inside traces keeps a plain
    // `RESUME` (3.15, sqlglot dumped twice: a "gained" and a "churning" `RESUME` on unchanged
    // code).
    if b.op().family == "RESUME" && h.op().family == "RESUME" {
        return ChangeKind::Unchanged;
    }
    // A generic head site a trace ran is no site "head did not run": 3.15's trace recording
    // resets the counters it records, which then read "too few runs" (markdown-it-py 3.0's
    // `first_ch not in ("|", "-", ":")`, a tuple where 2.2 tested a set).
    let unrun = h.counter().is_some_and(|c| !c.ran());
    let k = if k == ChangeKind::Minor && b.specialized() && !h.specialized() && unrun && h.in_trace() { ChangeKind::Lost } else { k };
    if !k.is_regression() {
        return k;
    }
    // The exact text, not `same_statement`'s shared words: `in {0x7C, 0x2D}` → `in ("|", "-")`
    // is an edit that explains the loss.
    let same_text = match (b.source_text(), h.source_text()) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    let base_missed = b.counter().is_some_and(|c| c.misses() > 0 && c.value > 0) || b.churn().is_some_and(|c| c.effective_flips > 0);
    let head_held_it = h.churn().is_some_and(|c| c.effective_flips > 0 && c.seen.contains(&b.op().name));
    let timing = b.in_trace() || h.in_trace() || (k == ChangeKind::Lost && base_missed && head_held_it);
    if same_text && timing {
        ChangeKind::Minor
    } else {
        k
    }
}

fn classify_site(b: Option<&SiteView>, h: Option<&SiteView>, kind: RowKind, opts: &ClassifyOptions) -> Option<ChangeKind> {
    let (b, h) = match (b, h) {
        (None, None) => return None,
        (Some(b), None) => return b.is_site().then_some(ChangeKind::Removed),
        (None, Some(h)) => return h.is_site().then_some(ChangeKind::Added),
        (Some(b), Some(h)) => (b, h),
    };
    if !b.is_site() && !h.is_site() {
        return None;
    }
    let same_version = b.rules.version == h.rules.version;
    let (sb, sh) = (b.is_site() && b.specialized(), h.is_site() && h.specialized());
    // Across versions, which call forms specialize is the interpreter's doing: shown, never
    // a regression.
    if kind == RowKind::CallForm && !same_version {
        return Some(if sb || sh { ChangeKind::Minor } else { ChangeKind::Unchanged });
    }
    if calls_another(b, h) {
        // Two calls of different names on different statements (docutils 0.18 → 0.21:
        // `x.extend(g)` and `y.sort(key=k)`, `codecs.open(…)` and `super().read(…, encoding=…)`):
        // different work, whose counters say nothing about each other. On one statement
        // (`s.decode('ascii')` → `str(s, "ascii")`) it is the same work another way, compared
        // as any pair is.
        // A head site that never ran is `minor`, as for any pair.
        let head_idle = sb && !sh && h.counter().is_some_and(|c| !c.ran());
        return Some(if head_idle {
            ChangeKind::Minor
        } else if sb || sh {
            ChangeKind::Changed
        } else {
            ChangeKind::Unchanged
        });
    }
    if b.is_site() != h.is_site() {
        // Within one version only a change of the code does this: a call whose new form has
        // no specialization (3.13's `CALL_KW` when a keyword argument was added,
        // `CALL_FUNCTION_EX` before 3.14) lost what the old form had, or gained it back.
        if same_version {
            return Some(if sb {
                ChangeKind::Lost
            } else if sh {
                ChangeKind::Gained
            } else {
                ChangeKind::Unchanged
            });
        }
        // The family specializes on one version only (3.11 `FOR_ITER`): not comparable.
        return Some(ChangeKind::Unchanged);
    }
    // A rewritten row whose head site did not run (enough) lost nothing: head did not do that
    // work (issue 29: beautifulsoup4's `kwargs['string']` paired with 4.12's
    // `kwargs.pop('text')`, a branch the workload never takes in head, gated `_find_all`).
    if kind == RowKind::Rewritten && sb && !sh && h.counter().is_some_and(|c| !c.ran()) {
        return Some(ChangeKind::Minor);
    }
    if kind == RowKind::Rewritten && (b.site.tag == SiteTag::Subscr || h.site.tag == SiteTag::Subscr) {
        // A subscript ↔ a method call doing its work: both may specialize.
        return Some(match (sb, sh) {
            (true, false) => ChangeKind::Lost,
            (false, true) => ChangeKind::Gained,
            (true, true) => ChangeKind::Changed,
            (false, false) => ChangeKind::Unchanged,
        });
    }
    if kind == RowKind::Rewritten {
        // An attribute access ↔ another form of it: `getattr()`/`setattr()` (a call that does
        // the lookup generically) loses or gains the specialization; another attribute access
        // specialized too (a method call ↔ `super().method()`, issue 29: chardet's
        // `CharSetProber.reset(self)` → `super().reset()`) is one specialized path replaced by
        // another.
        let (ab, ah) = (b.site.tag.is_attribute_access(), h.site.tag.is_attribute_access());
        return Some(if ab && ah && sb && sh {
            ChangeKind::Changed
        } else if ab && sb {
            ChangeKind::Lost
        } else if ah && sh {
            ChangeKind::Gained
        } else {
            ChangeKind::Changed
        });
    }
    if kind == RowKind::Modified && other_operation(b, h) {
        // Another attribute, global or operator on the paired line (tomlkit's `self._map.get(key)`
        // → `self.item(key)`): different work, whose counters say nothing about each other.
        let same_form = sb && sh && b.op().name == h.op().name;
        return Some(if (sb || sh) && !same_form { ChangeKind::Changed } else { ChangeKind::Unchanged });
    }
    let (cb, ch) = (b.counter(), h.counter());
    let same = sb && sh && if b.rules.version == h.rules.version {
        b.op().name == h.op().name
    } else {
        canonical_opname(&b.op().name) == canonical_opname(&h.op().name)
    };
    // Both models count misses since the last specialization from 52/53 down: comparable when
    // base held. A base already at `min_misses`, or one the sampler saw re-specialize, was
    // failing too: its counter and head's stop at two arbitrary points of a cycle (3.12+
    // re-specializes every 53 misses), so their difference says nothing.
    let (mb, mh) = (cb.map_or(0, |c| c.misses()), ch.map_or(0, |c| c.misses()));
    let min = opts.min_misses.max(1);
    // Each side's churn once: `flips()` and `same_cycle` would each rebuild it.
    let (churn_b, churn_h) = (b.churn(), h.churn());
    let flips = |c: &Option<ChurnInfo>| c.as_ref().map_or(0, |c| c.effective_flips);
    let (fb, fh) = (flips(&churn_b), flips(&churn_h));
    let base_held = mb < min && fb == 0;
    // Sampled counts vary with the run (how often the sampler looked): a site that churns in
    // both runs churns more in head only when it does so at least twice as often.
    let churns_more = fh >= fb.saturating_add(opts.min_flips) && fh >= fb.saturating_mul(2) && flips_more_than_chance(b, h, fb, fh);
    Some(if sb != sh || (sb && !same) {
        if same_cycle(b, churn_b.as_ref(), h, churn_h.as_ref()) {
            ChangeKind::Unchanged
        } else if sb && !sh {
            // A site head did not run (enough) lost nothing: the workload changed.
            if ch.is_some_and(|c| !c.ran()) {
                ChangeKind::Minor
            } else if same_version && (call_dropped(b, h) || operand_remade(b, h)) {
                // Head does less work here, or makes the operand by another call on a rewritten
                // line: not a regression the dumps can prove (issue 29: chardet's
                // `not len(byte_str)` → `not byte_str`, and `for i in range(len(buf))` →
                // `for i, byte in enumerate(buf)`, both as fast or faster).
                ChangeKind::Changed
            } else {
                ChangeKind::Lost
            }
        } else if churns_more {
            ChangeKind::Churning
        } else if sh && !sb {
            ChangeKind::Gained
        } else {
            ChangeKind::Changed
        }
    } else if same && base_held && mh >= mb.saturating_add(min) {
        // The counters prove misses since head's last specialization, but not how many there
        // were in all: a site that misses a few dozen times in a whole run (a new subclass
        // passing through, issue 29's packaging) and a megamorphic one show the same snapshot.
        // Only head's re-specializations, seen by the sampler more often than base's beyond
        // its luck, prove that the misses go on. Where the sampler could not have seen that
        // many (no sampler, or too few looks at the function) nothing can tell, and the
        // counters count as before (the gate says when the runs were unsampled).
        if churns_more || !could_prove(b, h, fb) {
            ChangeKind::Missing
        } else {
            ChangeKind::Minor
        }
    } else if churns_more {
        ChangeKind::Churning
    } else if sb && sh && mh > mb {
        ChangeKind::Minor
    } else if sb && sh {
        ChangeKind::Unchanged
    } else {
        generic_both(cb, ch, b.rules.model == h.rules.model, base_ran_as_often(b, h), opts)
    })
}

/// The site's operand was a call's result in base and a plain value in head, with fewer calls
/// on the line: head no longer makes the value the site works on (`not len(b)` → `not b`,
/// `x + f(y)` → `x + y`), so it does less work there whatever the site's form.
pub(crate) fn call_dropped(b: &SiteView, h: &SiteView) -> bool {
    b.before().is_some_and(|i| b.is_call(i))
        && !h.before().is_some_and(|i| h.is_call(i))
        && h.calls_on_line() < b.calls_on_line()
}

/// Head's operand is a call's result (the iterable of a `for`: the call before `GET_ITER`),
/// base's was one too or head's line calls more, and the site's source line is another text:
/// the code makes the operand another way (`range(len(buf))` → `enumerate(buf)`, `value` →
/// `enumerate(value)`), and the dumps cannot tell whether the new code is slower.
pub(crate) fn operand_remade(b: &SiteView, h: &SiteView) -> bool {
    // The instruction that made the operand: the one before the site, or before its GET_ITER.
    let made_by_call = |v: &SiteView| {
        let producer = match v.before() {
            Some(i) if matches!(v.dump.op(i).family.as_str(), "GET_ITER" | "GET_AITER") => {
                v.site.start.checked_sub(2).and_then(|k| v.code.instructions.get(k as usize))
            }
            other => other,
        };
        producer.is_some_and(|i| v.is_call(i))
    };
    let (tb, th) = (b.source_text(), h.source_text());
    // Base's operand was a call's result too, or head's line calls more (sqlglot's `for v in
    // value` → `for index, v in enumerate(value)`).
    let remade = made_by_call(b) || h.calls_on_line() > b.calls_on_line();
    made_by_call(h) && remade && tb.is_some() && th.is_some() && tb != th
}

/// The paired sites are calls of different names (`cpython/callee.rs`) on lines that are not
/// one statement and do not assign the same target.
pub(crate) fn calls_another(b: &SiteView, h: &SiteView) -> bool {
    let (cb, ch) = (b.site.callee, h.site.callee);
    cb != 0 && ch != 0 && cb != ch && !same_statement(b, h) && !same_target(b, h)
}

/// Both lines assign to the same target (`init_ptrs = set()` → `init_ptrs =
/// OrderedSet[RulePtr]()` in lark: the same value made another way, a real loss).
fn same_target(b: &SiteView, h: &SiteView) -> bool {
    fn target(line: &str) -> Option<&str> {
        let bytes = line.as_bytes();
        let i = (0..bytes.len()).find(|&i| {
            bytes[i] == b'='
                && bytes.get(i + 1) != Some(&b'=')
                && !(i > 0 && matches!(bytes[i - 1], b'=' | b'<' | b'>' | b'!'))
        })?;
        Some(line[..i].trim()).filter(|t| !t.is_empty() && !t.contains('('))
    }
    matches!((b.source_text().and_then(target), h.source_text().and_then(target)), (Some(x), Some(y)) if x == y)
}

/// The paired sites name different things (an attribute, a global, an operator): the row pairs
/// two operations, not one operation in two runs.
pub(crate) fn other_operation(b: &SiteView, h: &SiteView) -> bool {
    matches!((b.operand(), h.operand()), (Some(x), Some(y)) if x != y)
}

/// How often the harness's sampler looks at one code object's opcodes for churn, at most
/// (`CHURN_EVERY_S` in the harness, `crates/cli/src/harness/00_header.py`), in seconds.
const CHURN_LOOK_EVERY_S: f64 = 0.010;

/// Whether the sampler could have proven head's re-specializations against base's `fb`: both
/// runs were sampled, and head's run was long enough that, had every look the sampler could take
/// at one function seen a flip, the flips would beat its luck (rule 5's test). It looks only when
/// it takes a sample, and at one code object at most every 10 ms, so a run of 24 ms (pyodide's 4
/// signals, a short recorded demo) can prove nothing either way, and its counters are the
/// evidence. In a longer run a function the sampler rarely or never found is cold: what its
/// snapshot shows is not worth a regression (typing's and enum's internals, run once at
/// start-up, showed 14–48 misses in real upgrades).
fn could_prove(b: &SiteView, h: &SiteView, fb: u32) -> bool {
    let run = &h.dump.run;
    let looks = u32::try_from(run.sampler.samples.min(looks_in(run))).unwrap_or(u32::MAX);
    b.dump.run.sampler.samples > 0 && run.sampler.samples > 0 && more_than_chance(fb, looks)
}

/// How many times the sampler could have read the site's counters: the samples that found its
/// code object on the stack, at most one per `CHURN_LOOK_EVERY_S` of the run.
fn churn_looks(s: &SiteView) -> u64 {
    s.code.samples.1.min(looks_in(&s.dump.run))
}

/// The most looks at one code object `run` leaves time for: one per `CHURN_LOOK_EVERY_S`.
fn looks_in(run: &RunInfo) -> u64 {
    (run.duration_s / CHURN_LOOK_EVERY_S).max(0.0).min(f64::from(u32::MAX)) as u64 + 1
}

/// [`more_than_chance`] for flips seen by samplers that looked at the site's code unequally
/// often: under "both runs churn alike" a flip seen is head's with the share of the looks that
/// were head's, when head was looked at more; never less than ½, since the looks are only
/// estimated (a frame that stays on the stack is looked at once per 10 ms, a short call each
/// time it is found), and a head looked at less must not make fewer flips count. lark 1.1.7 →
/// 1.2.2 on 3.15: `Symbol.__eq__`, unchanged and comparing two classes' instances in both, was
/// seen re-specializing 1 time in base and 7 in head, whose Earley parser calls it about twice
/// as often; by halves that is 3.5 % luck, and it gated.
fn flips_more_than_chance(b: &SiteView, h: &SiteView, fb: u32, fh: u32) -> bool {
    let (lb, lh) = (churn_looks(b), churn_looks(h));
    let p = if lb + lh == 0 { 0.5 } else { (lh as f64 / (lb + lh) as f64).max(0.5) };
    more_than_chance_at(fb, fh, p)
}

/// Both runs were seen re-specializing through the form the other run's snapshot shows: the
/// two snapshots are two phases of one behaviour, not a change. (In the pyparsing bump,
/// `_parseNoCache`'s `self.debug` flips between `LOAD_ATTR_INSTANCE_VALUE` and
/// `LOAD_ATTR_WITH_HINT` thousands of times in both versions, and each snapshot caught one.)
/// A side seen flipping once went from its first form to its last and stayed: warm-up, or a
/// loss that lasted, not a cycle (pyparsing 3.2's `self_expr._parse` on 3.12 went from
/// `LOAD_ATTR_METHOD_WITH_VALUES` to `LOAD_ATTR` once and backed off, while base, on a busy
/// machine, was seen deoptimizing and re-specializing 4 times).
fn same_cycle(b: &SiteView, cb: Option<&ChurnInfo>, h: &SiteView, ch: Option<&ChurnInfo>) -> bool {
    let (Some(cb), Some(ch)) = (cb, ch) else { return false };
    let (ob, oh) = (&b.op().name, &h.op().name);
    cb.effective_flips >= 2 && ch.effective_flips >= 2 && cb.seen.contains(oh) && ch.seen.contains(ob)
}

/// Whether head's `fh` re-specializations seen, against base's `fb`, are more than the
/// sampler's luck: under "both runs churn alike" each of the `fb + fh` flips seen is head's
/// with probability ½, and head seeing `fh` or more must have a chance under 5 % (a one-sided
/// sign test). A site that cycles in every run (3.11 specializes `stack[-1]` as
/// `BINARY_SUBSCR_LIST_INT`, whose guard refuses negative indices) was seen flipping 1 time in
/// one run of a program and 5 in the next; 0 against 5 or more is needed, 1 against 7.
fn more_than_chance(fb: u32, fh: u32) -> bool {
    more_than_chance_at(fb, fh, 0.5)
}

/// The one-sided binomial test: of `fb + fh` flips, each head's with probability `p`, head
/// seeing `fh` or more has a chance under 5 %.
fn more_than_chance_at(fb: u32, fh: u32, p: f64) -> bool {
    let n = u64::from(fb) + u64::from(fh);
    if fh == 0 || p >= 1.0 {
        return false;
    }
    if p <= 0.0 {
        return true;
    }
    let q = 1.0 - p;
    // C(n, i) p^i q^(n-i) for i = fh..=n, each from the last, from q^n: exact while q^n is a
    // normal f64 (0.5^1000 is); past that, or past 1000 flips, the normal approximation (exact
    // enough here; a dump's counts can be anything).
    let first = if n <= 1000 { q.powi(n as i32) } else { 0.0 };
    if first < 1e-300 {
        let (n, fh) = (n as f64, f64::from(fh));
        return (fh - n * p) / (n * p * q).sqrt() > 1.645;
    }
    let (mut term, mut tail) = (first, 0.0);
    for i in 0..=n {
        if i >= u64::from(fh) {
            tail += term;
        }
        term *= (n - i) as f64 / (i + 1) as f64 * (p / q);
    }
    tail < 0.05
}

/// Whether the sampler saw base's line of the site at least half as often as head's, as shares
/// of each run's samples. Failed attempts back off exponentially, so each extra one head shows
/// only proves that head ran the generic site about twice as often: an unchanged program whose
/// run varies (asyncio shutdown, the garbage collector) shows that too. More failures are
/// evidence of a regression only when base ran the site about as much and failed less.
/// With the JIT on in either run, samples do not count tier-1 executions: a line that runs in
/// a trace is sampled while its counters stand still, and they stop wherever the trace began
/// (3.15, the same program dumped twice with `PYTHON_JIT=1`: one run's site 2 failed attempts
/// in, the other's 5). Nothing then says base ran the site as often.
fn base_ran_as_often(b: &SiteView, h: &SiteView) -> bool {
    if jit_on(b) || jit_on(h) {
        return false;
    }
    let share = |v: &SiteView| v.hotness() as f64 / v.dump.run.sampler.samples.max(1) as f64;
    b.hotness() > 0 && share(b) * 2.0 >= share(h)
}

/// Rule 8: both sides generic. Backoff is compared only when both counters mean the same
/// thing: the same counter model (3.11 counts failures from backoff 0, 3.12+ from 1) and a
/// base that ran the site; a 3.11 instruction that gave up has no specialization to lose.
fn generic_both(
    cb: Option<Counter>,
    ch: Option<Counter>,
    same_model: bool,
    ran_as_often: bool,
    opts: &ClassifyOptions,
) -> ChangeKind {
    use crate::cpython::counters::CounterState;
    let gave_up = |c: Option<Counter>| c.is_some_and(|c| c.state == CounterState::GaveUp);
    if gave_up(cb) || gave_up(ch) {
        return ChangeKind::Unchanged;
    }
    let (fb, fh) = (cb.map_or(0, |c| c.failures()), ch.map_or(0, |c| c.failures()));
    if fh <= fb {
        return ChangeKind::Unchanged;
    }
    let base_ran = cb.is_some_and(|c| !c.is_cold());
    // A base that itself failed `min_failures` times could not specialize the site either:
    // head failing more only shows that head ran it more (packaging 22.0 → 24.2 on 3.12:
    // `Specifier._compare_less_than_equal`, 9 or 10 failed attempts in base, 10 or 11 in head,
    // gated in one CI run of several).
    let base_failed_too = fb >= opts.min_failures.max(1);
    if same_model && base_ran && ran_as_often && !base_failed_too && fh >= fb.saturating_add(opts.min_failures.max(1)) {
        ChangeKind::BackedOff
    } else {
        ChangeKind::Minor
    }
}

/// Builds the [`Change`] record of a classified row (explanation left empty).
pub(crate) fn build_change(kind: ChangeKind, b: Option<&SiteView>, h: Option<&SiteView>, row_kind: RowKind, row: u32) -> Change {
    let attr_side = match (row_kind, b, h) {
        (RowKind::Rewritten, Some(b), _) if b.site.tag.is_attribute_access() || b.site.tag == SiteTag::Subscr => b,
        (RowKind::Rewritten, _, Some(h)) if h.site.tag.is_attribute_access() || h.site.tag == SiteTag::Subscr => h,
        (_, _, Some(h)) => h,
        (_, Some(b), None) => b,
        (_, None, None) => unreachable!("a change has at least one side"),
    };
    let main = h.or(b).expect("a change has at least one side");
    let local = if h.is_some() && kind != ChangeKind::Removed { h } else { b };
    let local = local.unwrap_or(main);
    Change {
        kind,
        family: attr_side.family().to_string(),
        base: b.map(|v| v.op().name.clone()),
        head: h.map(|v| v.op().name.clone()),
        base_line: b.and_then(|v| v.line()),
        head_line: h.and_then(|v| v.line()),
        explanation: None,
        cause: None,
        operand: attr_side.operand(),
        base_offset: b.map(|v| v.spec().offset),
        head_offset: h.map(|v| v.spec().offset),
        base_counter: b.and_then(|v| v.counter()),
        head_counter: h.and_then(|v| v.counter()),
        base_churn: b.and_then(|v| v.churn()),
        head_churn: h.and_then(|v| v.churn()),
        hotness: local.hotness(),
        source: local.source(),
        row_kind,
        row,
    }
}
