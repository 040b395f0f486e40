//! What changed in the JIT's traces of a function's loops (`docs/diff-format.md`, `traces`):
//! loops paired by the site alignment of their `JUMP_BACKWARD`, then per pair whether a
//! tier-2 executor was attached on each side when the run ended, whether it was still valid,
//! and its main trace's uops aligned base → head with `similar`, with the exits the head
//! trace has where base's had none and, where the dumps show it, why: the instruction the new
//! exit resumes at lost or changed its specialization, or head's trace ends before the loop's
//! end. Dumps without executors give nothing.
//!
//! Executors come and go between two runs of the same program (warm-up and cleanup timing,
//! invalidations from code the loop does not show: 26 trace changes over 24 pairs of
//! unchanged real programs on 3.14, 57 on 3.15, before this rule). So a loop whose code and
//! specializations are the same on both sides reports nothing, and a trace lost, gained or
//! invalidated is reported only with a cause the dumps show: the JIT or the jump's form, or a
//! module global the loop now rebinds.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::model::{CodeInfo, Dump, Executor};

/// How a loop's trace changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceChangeKind {
    /// Base had an executor on the loop, head has none: the loop runs in tier 1. A regression;
    /// reported only with a cause.
    Lost,
    /// Head has an executor where base had none, and the jump's form differs.
    Gained,
    /// Head's executor is attached but no longer valid (base's was), for a cause the dumps
    /// show. A regression.
    Invalidated,
    /// Both have one, and the main traces' uops or exits differ.
    Changed,
}

impl TraceChangeKind {
    /// The kind's word, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lost => "lost",
            Self::Gained => "gained",
            Self::Invalidated => "invalidated",
            Self::Changed => "changed",
        }
    }
}

/// One loop whose trace changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopTrace {
    /// What changed.
    pub kind: TraceChangeKind,
    /// Byte offset of the loop's jump in base.
    pub base_offset: u32,
    /// Byte offset of the loop's jump in head.
    pub head_offset: u32,
    /// Head's source line of the jump.
    pub line: Option<u32>,
    /// Uops in base's main trace (`None`: no executor).
    pub base_uops: Option<u32>,
    /// Uops in head's main trace.
    pub head_uops: Option<u32>,
    /// Uop names only base's trace has, in order (aligned with `similar`).
    pub removed_uops: Vec<String>,
    /// Uop names only head's trace has, in order.
    pub added_uops: Vec<String>,
    /// Exits of head's trace at instructions where base's had none of that kind.
    pub new_exits: Vec<NewExit>,
    /// Instructions head's trace went through whose adaptive opname differs from their aligned
    /// base instruction's: `[line, base opname, head opname]`, in trace order, each once.
    pub respecialized: Vec<(Option<u32>, String, String)>,
    /// `lost` or `invalidated`, or a trace that now ends early: the gate counts it.
    pub regression: bool,
    /// One sentence.
    pub explanation: String,
}

/// An exit head's trace has that base's has not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewExit {
    /// `side`, `deopt`, `error` or `other` (`docs/dump-format.md`, "Executors").
    pub kind: String,
    /// Head byte offset of the instruction tier 1 resumes at.
    pub offset: u32,
    /// Its source line.
    pub line: Option<u32>,
    /// Its adaptive opname in head.
    pub opname: String,
    /// Its opname in base, when the instruction is paired and named otherwise there.
    pub base_opname: Option<String>,
    /// The uops whose guard leaves by it.
    pub guards: Vec<String>,
}

/// True when either side has an executor: nothing to compare otherwise.
pub(crate) fn any_executor(bc: &CodeInfo, hc: &CodeInfo) -> bool {
    bc.executors.is_some() || hc.executors.is_some()
}

/// A function pair's instruction alignment, looked up by head index and by byte offset.
pub(crate) struct Paired {
    head_to_base: HashMap<u32, u32>,
    b_at: HashMap<u32, u32>,
    h_at: HashMap<u32, u32>,
}

impl Paired {
    /// `pairs`: the aligned instruction indices (base, head) of the whole function.
    pub(crate) fn new(bc: &CodeInfo, hc: &CodeInfo, pairs: &[(u32, u32)]) -> Self {
        Paired { head_to_base: pairs.iter().map(|&(b, h)| (h, b)).collect(), b_at: by_offset(bc), h_at: by_offset(hc) }
    }

    /// The loops both sides have, as `(base jump, head jump, head jump's target)`: paired
    /// backward jumps whose targets are paired too (a jump inserted before another would
    /// otherwise pair with the wrong loop). The one definition of "the same loop" for the
    /// trace diff and the side-by-side view.
    pub(crate) fn loops(&self, base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, pairs: &[(u32, u32)]) -> Vec<(u32, u32, u32)> {
        pairs
            .iter()
            .filter(|&&(bi, hi)| is_jump(base, bc, bi) && is_jump(head, hc, hi))
            .filter_map(|&(bi, hi)| {
                let (bt, ht) = (jump_target(base, bc, bi, &self.b_at)?, jump_target(head, hc, hi, &self.h_at)?);
                (self.head_to_base.get(&ht) == Some(&bt)).then_some((bi, hi, ht))
            })
            .collect()
    }

    /// The loop `(bi, hi, ht)` of [`Paired::loops`], from head's `ht` to its jump `hi`, is
    /// base's loop ending at `bi` instruction for instruction, each with the same adaptive
    /// opname and argument (a jump's by its relative `arg`, whose label text moves with code
    /// before it).
    fn loop_unchanged(&self, base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, (bi, hi, ht): (u32, u32, u32)) -> bool {
        let Some(&bt) = self.head_to_base.get(&ht) else { return false };
        if bi < bt || bi - bt != hi - ht {
            return false;
        }
        (0..=hi - ht).all(|k| {
            if self.head_to_base.get(&(ht + k)) != Some(&(bt + k)) {
                return false;
            }
            let (b, h) = (&bc.instructions[(bt + k) as usize], &hc.instructions[(ht + k) as usize]);
            let (brep, hrep) = (base.str(b.argrepr), head.str(h.argrepr));
            base.op(b).name == head.op(h).name && (brep == hrep || (brep.starts_with("to ") && hrep.starts_with("to ") && b.arg == h.arg))
        })
    }
}

/// Instruction `i` is a loop's backward jump.
pub(crate) fn is_jump(d: &Dump, c: &CodeInfo, i: u32) -> bool {
    c.instructions.get(i as usize).is_some_and(|ins| d.op(ins).family == "JUMP_BACKWARD")
}

/// The trace changes of one function pair. `pairs` are the aligned instruction indices
/// (base, head) of the whole function, used to pair loops and to name what an exit's
/// instruction was in base.
pub(crate) fn loop_traces(base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, pairs: &[(u32, u32)]) -> Vec<LoopTrace> {
    if !any_executor(bc, hc) {
        return Vec::new();
    }
    loop_traces_of(&Paired::new(bc, hc, pairs), base, bc, head, hc, pairs)
}

/// [`loop_traces`] with the alignment looked up once by the caller.
pub(crate) fn loop_traces_of(p: &Paired, base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, pairs: &[(u32, u32)]) -> Vec<LoopTrace> {
    let (head_to_base, b_at, h_at) = (&p.head_to_base, &p.b_at, &p.h_at);
    let mut out = Vec::new();
    for (bi, hi, ht) in p.loops(base, bc, head, hc, pairs) {
        if p.loop_unchanged(base, bc, head, hc, (bi, hi, ht)) {
            // Same code, same forms: what differs in the trace is not in the dumps (warm-up
            // timing, an invalidation from elsewhere, a callee traced into), and the same
            // program run twice differs so. Silence rather than a guess.
            continue;
        }
        let (bo, ho) = (bc.instructions[bi as usize].offset, hc.instructions[hi as usize].offset);
        let be = loop_executor(base, bc, bi);
        let he = loop_executor(head, hc, hi);
        let line = hc.instructions[hi as usize].line;
        // The jump's adaptive form on each side (`JUMP_BACKWARD_JIT`, `_NO_JIT`, unquickened).
        let jumps = (base.op(&bc.instructions[bi as usize]).name.as_str(), head.op(&hc.instructions[hi as usize]).name.as_str());
        let names = |d: &Dump, e: &Executor| e.uops.iter().map(|u| d.str(u.name).to_string()).collect::<Vec<_>>();
        let mut t = LoopTrace {
            kind: TraceChangeKind::Changed,
            base_offset: bo,
            head_offset: ho,
            line,
            base_uops: be.map(|e| e.uops.len() as u32),
            head_uops: he.map(|e| e.uops.len() as u32),
            removed_uops: vec![],
            added_uops: vec![],
            new_exits: vec![],
            respecialized: vec![],
            regression: false,
            explanation: String::new(),
        };
        match (be, he) {
            (None, None) => continue,
            (Some(_), None) => {
                t.kind = TraceChangeKind::Lost;
                let jump = head.op(&hc.instructions[hi as usize]);
                if !jump.specialized && jump.name == jump.family {
                    // 3.14+ quickens the jump the first time it runs: head never went round,
                    // so there is no trace to compare (how often code runs is hotness's story).
                    continue;
                } else if let Some(why) = lost_why(base, bc, head, hc, jumps, (hi, ht)) {
                    (t.explanation, t.regression) = (why, true);
                } else {
                    // Executors come and go between runs of the same program (warm-up and
                    // cleanup timing, invalidations the loop's code does not show): a loss
                    // nothing in the dumps accounts for is not reported.
                    continue;
                }
            }
            (None, Some(_)) => {
                let (bop, hop) = jumps;
                if bop == hop {
                    continue; // As for a lost trace: no cause, no report.
                }
                t.kind = TraceChangeKind::Gained;
                t.explanation = format!("the loop is traced in head: its jump is {hop} where base had {bop}, and a tier-2 executor is attached to it");
            }
            (Some(b), Some(h)) => {
                let (bn, hn) = (names(base, b), names(head, h));
                for op in capture_diff_slices(Algorithm::Myers, &bn, &hn) {
                    match op {
                        DiffOp::Equal { .. } => {}
                        DiffOp::Delete { old_index, old_len, .. } => t.removed_uops.extend_from_slice(&bn[old_index..old_index + old_len]),
                        DiffOp::Insert { new_index, new_len, .. } => t.added_uops.extend_from_slice(&hn[new_index..new_index + new_len]),
                        DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                            t.removed_uops.extend_from_slice(&bn[old_index..old_index + old_len]);
                            t.added_uops.extend_from_slice(&hn[new_index..new_index + new_len]);
                        }
                    }
                }
                t.new_exits = new_exits(base, bc, b, head, hc, h, head_to_base, b_at, h_at);
                t.respecialized = respecialized(base, bc, head, hc, h, head_to_base, h_at);
                let early = ends_early(head, hc, h).filter(|_| runs_to_top(base, b));
                // An invalidation is reported only with its cause, like a lost trace.
                let invalidated = (b.valid && !h.valid).then(|| rebound_global(base, bc, head, hc, hi, ht)).flatten();
                if let Some(why) = invalidated {
                    t.kind = TraceChangeKind::Invalidated;
                    t.regression = true;
                    t.explanation = format!("head's executor on the loop is no longer valid, so its next entry leaves for tier 1: {why}");
                } else if let Some(line) = early {
                    // Part of the loop now runs in tier 1 on every pass: a loss, like a lost trace.
                    t.regression = true;
                    let at = line.map_or(String::new(), |l| format!(" at line {l}"));
                    t.explanation = format!(
                        "the trace ends early: head's stops{at} and leaves for tier 1 there (its last uop is an exit), where base's runs the loop body back to its top ({} → {} uops)",
                        t.base_uops.unwrap_or(0),
                        t.head_uops.unwrap_or(0)
                    );
                } else if t.added_uops.is_empty() && t.removed_uops.is_empty() && t.new_exits.is_empty() {
                    continue;
                } else {
                    t.explanation = changed_why(&t);
                }
            }
        }
        if t.regression {
            // Whether an executor is attached when a run ends depends on warm-up and cleanup
            // timing for a loop that runs little: the same program, run twice on 3.15, lost
            // and regained such traces. Only a loop the sampler found busy in head counts.
            let seen = loop_samples(hc, ht, hi);
            let run = head.run.sampler.samples;
            if seen < HOT_LOOP_SAMPLES || (seen as f64) < run as f64 * HOT_LOOP_SHARE {
                t.regression = false;
                t.explanation += &format!(
                    "; not counted: the loop's lines were sampled {seen} time{} in head, too few to tell this from warm-up and cleanup timing (at least {HOT_LOOP_SAMPLES}, and 1% of the run, count)",
                    if seen == 1 { "" } else { "s" }
                );
            }
        }
        out.push(t);
    }
    out
}

/// Samples on a loop's lines (those of its instructions, from its jump's target to the jump)
/// below which a lost, invalidated or shortened trace is reported but not counted; and the
/// share of the run's samples they must also reach.
pub const HOT_LOOP_SAMPLES: u64 = 5;
/// See [`HOT_LOOP_SAMPLES`].
pub const HOT_LOOP_SHARE: f64 = 0.01;

/// Each instruction's index by its offset.
fn by_offset(c: &CodeInfo) -> HashMap<u32, u32> {
    c.instructions.iter().enumerate().map(|(i, ins)| (ins.offset, i as u32)).collect()
}

/// The instruction a backward jump `i` goes to (3.11+: its arg counts code units back from
/// the end of its inline cache), past the `EXTENDED_ARG`s that may start it.
fn jump_target(d: &Dump, c: &CodeInfo, i: u32, at: &HashMap<u32, u32>) -> Option<u32> {
    let ins = c.instructions.get(i as usize)?;
    let end = ins.offset + 2 + 2 * ins.cache.len() as u32;
    let mut t = *at.get(&end.checked_sub(2 * ins.arg?)?)?;
    while t < i && d.op(&c.instructions[t as usize]).family == "EXTENDED_ARG" {
        t += 1;
    }
    Some(t)
}

/// Each instruction's innermost loop, as (its jump's target, the jump): instruction indices;
/// `None` outside every loop. Loops are painted shortest first, each instruction once (a
/// "next unpainted" pointer skips painted runs), so the work is linear in the code however
/// the loops overlap.
pub(crate) fn innermost_loops(d: &Dump, c: &CodeInfo) -> Vec<Option<(u32, u32)>> {
    let n = c.instructions.len();
    let at = by_offset(c);
    let mut loops: Vec<(u32, u32)> =
        (0..n as u32).filter(|&i| is_jump(d, c, i)).filter_map(|i| Some((jump_target(d, c, i, &at)?, i))).filter(|&(t, j)| t <= j).collect();
    // Shortest first; ties by position, so the same code paints the same way.
    loops.sort_by_key(|&(t, j)| (j - t, t));
    let mut owner = vec![None; n];
    // next[i]: the first index at or after i not painted yet (n: none).
    let mut next: Vec<usize> = (0..=n).collect();
    fn find(next: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while next[root] != root {
            root = next[root];
        }
        let mut k = i;
        while next[k] != root {
            let up = next[k];
            next[k] = root;
            k = up;
        }
        root
    }
    for (target, jump) in loops {
        let mut i = find(&mut next, target as usize);
        while i <= jump as usize {
            owner[i] = Some((target, jump));
            next[i] = i + 1;
            i = find(&mut next, i + 1);
        }
    }
    owner
}

/// The sampler's hits on the lines of the loop whose jump `jump` goes back to `target`.
pub(crate) fn loop_samples(c: &CodeInfo, target: u32, jump: u32) -> u64 {
    samples_on(c, c.instructions.get(target as usize..=jump as usize).into_iter().flatten().filter_map(|i| i.line).collect())
}

/// The sampler's hits on `lines` of `c` (each line counted once, however often it is listed).
pub(crate) fn samples_on(c: &CodeInfo, mut lines: Vec<u32>) -> u64 {
    lines.sort_unstable();
    lines.dedup();
    c.line_samples.iter().filter(|(l, _)| lines.binary_search(l).is_ok()).map(|(_, n)| n).sum()
}

/// The trace runs the loop body back to its top (`_JUMP_TO_TOP` last).
fn runs_to_top(d: &Dump, e: &Executor) -> bool {
    e.uops.last().is_some_and(|u| d.str(u.name) == "_JUMP_TO_TOP")
}

/// The executor on the loop whose jump is instruction `i`. CPython attaches it where the
/// jump's instruction starts, its `EXTENDED_ARG`s included (a jump back over more than 255
/// code units has one), so it may sit at an offset before the jump's own.
pub(crate) fn loop_executor<'c>(d: &Dump, c: &'c CodeInfo, i: u32) -> Option<&'c Executor> {
    let mut k = i as usize;
    loop {
        let offset = c.instructions.get(k)?.offset;
        if let Some(e) = c.executors.iter().flatten().find(|e| e.offset == offset) {
            return Some(e);
        }
        k = k.checked_sub(1)?;
        if d.op(&c.instructions[k]).family != "EXTENDED_ARG" {
            return None;
        }
    }
}

/// Where the main trace of `e` leaves for tier 1 before the loop's end, as the line it
/// resumes at (`Some(None)`: at no known line): its last uop is an exit to an instruction
/// of this code with no executor attached there (a trace that reached its length limit ends
/// so). A trace that runs the body back to its top ends with `_JUMP_TO_TOP` instead.
fn ends_early(d: &Dump, c: &CodeInfo, e: &Executor) -> Option<Option<u32>> {
    let last = e.uops.last()?;
    let name = d.str(last.name);
    if name != "_EXIT_TRACE" && name != "_DYNAMIC_EXIT" {
        return None;
    }
    let offset = last.offset?;
    let ins = c.instructions.iter().find(|i| i.offset == offset)?;
    // Where another executor waits, the loop goes on in tier 2.
    if c.executors.iter().flatten().any(|x| x.offset == offset) {
        return None;
    }
    Some(ins.line)
}

/// Why a loop has no executor in head, where the dumps show a cause (`None`: they do not,
/// and executors come and go between runs of the same program).
fn lost_why(base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, (bop, hop): (&str, &str), (hi, ht): (u32, u32)) -> Option<String> {
    let jit_on = |d: &Dump| d.python.jit.as_ref().and_then(|j| j.enabled);
    if jit_on(head) == Some(false) && jit_on(base) != Some(false) {
        return Some("the loop is no longer traced: the JIT was off in head's run".into());
    }
    if bop != hop {
        return Some(format!("the loop is no longer traced: its jump is {hop} in head where base had {bop}"));
    }
    let why = rebound_global(base, bc, head, hc, hi, ht)?;
    Some(format!("the loop is no longer traced: no executor was attached to its jump when head's run ended, and {why}"))
}

/// A module global head's loop (instructions `ht..=hi`) rebinds or deletes and base's function
/// never stores: CPython invalidates the executors that rely on a module's globals whenever one
/// is rebound (the dict watcher), so each pass that rebinds it throws the loop's trace away.
fn rebound_global(base: &Dump, bc: &CodeInfo, head: &Dump, hc: &CodeInfo, hi: u32, ht: u32) -> Option<String> {
    let stores = |d: &Dump, i: &crate::model::Instruction| matches!(d.op(i).family.as_str(), "STORE_GLOBAL" | "DELETE_GLOBAL");
    // Base's whole function: a store that moved within it is not new to the loop's run.
    let ins = hc.instructions.get(ht as usize..=hi as usize)?.iter().find(|h| {
        stores(head, h) && !bc.instructions.iter().any(|b| stores(base, b) && base.str(b.argrepr) == head.str(h.argrepr))
    })?;
    let at = ins.line.map_or(String::new(), |l| format!(" at line {l}"));
    Some(format!(
        "head's loop rebinds the module global `{}`{at}, which invalidates the executors that rely on the module's globals",
        head.str(ins.argrepr)
    ))
}

/// The instructions of head's trace (this code's own) whose opname differs from base's.
fn respecialized(
    base: &Dump,
    bc: &CodeInfo,
    head: &Dump,
    hc: &CodeInfo,
    h: &Executor,
    head_to_base: &HashMap<u32, u32>,
    h_at: &HashMap<u32, u32>,
) -> Vec<(Option<u32>, String, String)> {
    let mut out: Vec<(Option<u32>, String, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for off in h.uops.iter().filter_map(|u| u.offset) {
        let Some(&hi) = h_at.get(&off) else { continue };
        if !seen.insert(hi) {
            continue;
        }
        let Some(&bi) = head_to_base.get(&hi) else { continue };
        let (hins, bins) = (&hc.instructions[hi as usize], &bc.instructions[bi as usize]);
        let (bop, hop) = (&base.op(bins).name, &head.op(hins).name);
        if bop != hop && head.op(hins).family != "JUMP_BACKWARD" {
            out.push((hins.line, bop.clone(), hop.clone()));
        }
    }
    out
}

fn changed_why(t: &LoopTrace) -> String {
    let (b, h) = (t.base_uops.unwrap_or(0), t.head_uops.unwrap_or(0));
    let mut s = format!("the trace changed: {b} → {h} uops");
    if let Some((line, bop, hop)) = t.respecialized.first() {
        let line = line.map_or("?".to_string(), |l| l.to_string());
        s += &format!("; the instruction at line {line} in the loop is {hop} where base had {bop}, and the trace follows it");
        if let Some(e) = t.new_exits.iter().find(|e| e.opname == *hop) {
            s += &format!(" with a new {} exit there", e.kind);
        }
    } else if let Some(e) = t.new_exits.iter().find(|e| e.base_opname.is_some()) {
        let was = e.base_opname.as_deref().unwrap_or("");
        s += &format!(
            "; the instruction at line {} is {} where base had {was}, and the trace now has {} {} exit there",
            e.line.map_or("?".to_string(), |l| l.to_string()),
            e.opname,
            if e.kind == "error" { "an" } else { "a" },
            e.kind
        );
    } else if let Some(e) = t.new_exits.first() {
        let line = e.line.map_or("?".to_string(), |l| l.to_string());
        s += &format!("; a new {} exit at line {line} ({})", e.kind, e.opname);
        if t.new_exits.len() > 1 {
            s += &format!(" and {} more", t.new_exits.len() - 1);
        }
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn new_exits(
    base: &Dump,
    bc: &CodeInfo,
    b: &Executor,
    head: &Dump,
    hc: &CodeInfo,
    h: &Executor,
    head_to_base: &HashMap<u32, u32>,
    b_at: &HashMap<u32, u32>,
    h_at: &HashMap<u32, u32>,
) -> Vec<NewExit> {
    let (Some(bx), Some(hx)) = (&b.exits, &h.exits) else { return vec![] };
    let base_has: std::collections::HashSet<(&str, u32)> =
        bx.iter().filter_map(|x| Some((x.0.as_str(), *b_at.get(&x.2?)?))).collect();
    let mut out: Vec<NewExit> = Vec::new();
    for (xi, x) in hx.iter().enumerate() {
        let Some(off) = x.2 else { continue };
        let Some(&hi) = h_at.get(&off) else { continue };
        let paired = head_to_base.get(&hi).copied();
        if paired.is_some_and(|bi| base_has.contains(&(x.0.as_str(), bi))) {
            continue;
        }
        if out.iter().any(|e| e.offset == off && e.kind == x.0) {
            continue;
        }
        let hins = &hc.instructions[hi as usize];
        let opname = head.op(hins).name.clone();
        let base_opname = paired.map(|bi| base.op(&bc.instructions[bi as usize]).name.clone()).filter(|n| *n != opname);
        let guards = h
            .uops
            .iter()
            .filter(|u| u.exit == Some(xi as u32) || u.error == Some(xi as u32))
            .map(|u| head.str(u.name).to_string())
            .collect();
        out.push(NewExit { kind: x.0.clone(), offset: off, line: hins.line, opname, base_opname, guards });
    }
    out
}
