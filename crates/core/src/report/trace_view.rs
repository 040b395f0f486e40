//! The JIT traces of one function's loops laid side by side for display: per loop with an
//! executor on either side, base's and head's main-trace uops aligned with `similar`, each uop
//! with the bytecode offset it came from, so a viewer can link it to its instruction row.
//! What changed and why is [`crate::report::traces`]'s; this only lays the uops out, and
//! carries that module's kind and sentence for the loops it reports.

use serde::{Deserialize, Serialize};
use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::traces::{is_jump, loop_executor, loop_traces_of, Paired, TraceChangeKind};
use crate::model::{CodeInfo, Dump, Executor};

/// One loop's traces, side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceView {
    /// Byte offset of the loop's jump, per side (`None`: the side has no such code object).
    pub offsets: [Option<u32>; 2],
    /// The jump's source line (head's, else base's).
    pub line: Option<u32>,
    /// Per side: whether an executor was attached (`None`: none), and if so whether it was
    /// still valid when the run ended.
    pub valid: [Option<bool>; 2],
    /// What changed, as the diff reports it; `None` when the traces are the same (or there is
    /// one run only).
    pub change: Option<TraceChangeKind>,
    /// The diff's sentence for the change.
    pub explanation: Option<String>,
    /// The aligned uops.
    pub rows: Vec<TraceRow>,
}

/// One line of the side-by-side trace: a uop on either side or both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    /// Base's uop (absent: head added one here).
    pub base: Option<TraceUop>,
    /// Head's uop (absent: base's is gone).
    pub head: Option<TraceUop>,
    /// The two sides' uops have the same name.
    pub same: bool,
}

/// One uop of a main trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceUop {
    /// Its name, e.g. `_GUARD_TYPE_VERSION`.
    pub name: String,
    /// Byte offset of the instruction of this code object it came from (`None`: an inlined
    /// callee's, or added by the optimizer).
    pub offset: Option<u32>,
}

/// The side-by-side traces of a function pair. `pairs` are the aligned instruction indices
/// (base, head), as for [`super::traces::loop_traces`], whose loops ([`Paired::loops`]) these are; with one side only (a new or gone function, or one
/// run shown alone), that side's loops with an executor each get a one-sided view. Executors
/// attached elsewhere (where a trace that ended early resumes) are not a loop's: not shown.
pub(crate) fn trace_views(base: &Dump, bc: Option<&CodeInfo>, head: &Dump, hc: Option<&CodeInfo>, pairs: &[(u32, u32)]) -> Vec<TraceView> {
    let uops = |d: &Dump, e: &Executor| -> Vec<TraceUop> {
        e.uops.iter().map(|u| TraceUop { name: d.str(u.name).to_string(), offset: u.offset }).collect()
    };
    let (bc, hc) = match (bc, hc) {
        (Some(bc), Some(hc)) => (bc, hc),
        (one_b, one_h) => {
            let (d, c, side) = match (one_b, one_h) {
                (Some(c), None) => (base, c, 0),
                (None, Some(c)) => (head, c, 1),
                _ => return Vec::new(),
            };
            // The executors on loops (a jump back, after its `EXTENDED_ARG`s), as in a pair.
            return (0..c.instructions.len() as u32)
                .filter(|&i| is_jump(d, c, i))
                .filter_map(|i| Some((i, loop_executor(d, c, i)?)))
                .map(|(i, e)| one_sided(side, e, c, i, uops(d, e)))
                .collect();
        }
    };
    if bc.executors.is_none() && hc.executors.is_none() {
        return Vec::new();
    }
    let paired = Paired::new(bc, hc, pairs);
    let changes = loop_traces_of(&paired, base, bc, head, hc, pairs);
    let mut out = Vec::new();
    // The loops the trace diff compares, and only those.
    for (bi, hi, _) in paired.loops(base, bc, head, hc, pairs) {
        let (bo, ho) = (bc.instructions[bi as usize].offset, hc.instructions[hi as usize].offset);
        let (be, he) = (loop_executor(base, bc, bi), loop_executor(head, hc, hi));
        if be.is_none() && he.is_none() {
            continue;
        }
        let change = changes.iter().find(|t| t.base_offset == bo && t.head_offset == ho);
        let (bu, hu) = (be.map(|e| uops(base, e)).unwrap_or_default(), he.map(|e| uops(head, e)).unwrap_or_default());
        out.push(TraceView {
            offsets: [Some(bo), Some(ho)],
            line: hc.instructions[hi as usize].line.or(bc.instructions[bi as usize].line),
            valid: [be.map(|e| e.valid), he.map(|e| e.valid)],
            change: change.map(|t| t.kind),
            explanation: change.map(|t| t.explanation.clone()),
            rows: aligned(bu, hu),
        });
    }
    out
}

fn one_sided(side: usize, e: &Executor, c: &CodeInfo, jump: u32, uops: Vec<TraceUop>) -> TraceView {
    let mut offsets = [None, None];
    offsets[side] = Some(c.instructions[jump as usize].offset);
    let mut valid = [None, None];
    valid[side] = Some(e.valid);
    let rows = uops
        .into_iter()
        .map(|u| if side == 0 { TraceRow { base: Some(u), head: None, same: false } } else { TraceRow { base: None, head: Some(u), same: false } })
        .collect();
    let line = c.instructions[jump as usize].line;
    TraceView { offsets, line, valid, change: None, explanation: None, rows }
}

/// Base's and head's uops aligned by name; a replaced run is shown side by side, the longer
/// side's rest alone.
fn aligned(b: Vec<TraceUop>, h: Vec<TraceUop>) -> Vec<TraceRow> {
    // `String`s, as `traces` aligns them: one instantiation of the diff for both (smaller wasm).
    let (bn, hn): (Vec<String>, Vec<String>) = (b.iter().map(|u| u.name.clone()).collect(), h.iter().map(|u| u.name.clone()).collect());
    let ops = capture_diff_slices(Algorithm::Myers, &bn, &hn);
    let mut out = Vec::with_capacity(b.len().max(h.len()));
    for op in ops {
        let (o, ol, n, nl) = match op {
            DiffOp::Equal { old_index, new_index, len } => (old_index, len, new_index, len),
            DiffOp::Delete { old_index, old_len, new_index } => (old_index, old_len, new_index, 0),
            DiffOp::Insert { old_index, new_index, new_len } => (old_index, 0, new_index, new_len),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => (old_index, old_len, new_index, new_len),
        };
        let same = matches!(op, DiffOp::Equal { .. });
        for k in 0..ol.max(nl) {
            let base = (k < ol).then(|| b[o + k].clone());
            let head = (k < nl).then(|| h[n + k].clone());
            out.push(TraceRow { base, head, same });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(name: &str, offset: u32) -> TraceUop {
        TraceUop { name: name.into(), offset: Some(offset) }
    }

    #[test]
    fn a_replaced_run_sits_side_by_side_and_the_rest_alone() {
        let b = vec![u("_START", 0), u("_GUARD_TYPE_VERSION", 4), u("_LOAD_ATTR_SLOT", 4), u("_JUMP_TO_TOP", 8)];
        let h = vec![u("_START", 0), u("_LOAD_ATTR", 4), u("_CHECK_PERIODIC", 6), u("_ERROR_POP_N", 6), u("_JUMP_TO_TOP", 8)];
        let rows = aligned(b, h);
        fn names(r: &TraceRow) -> (Option<&str>, Option<&str>, bool) {
            (r.base.as_ref().map(|u| u.name.as_str()), r.head.as_ref().map(|u| u.name.as_str()), r.same)
        }
        let got: Vec<_> = rows.iter().map(names).collect();
        assert_eq!(got[0], (Some("_START"), Some("_START"), true));
        assert_eq!(got.last().unwrap(), &(Some("_JUMP_TO_TOP"), Some("_JUMP_TO_TOP"), true));
        // Every uop of each side appears once, in order.
        let side = |f: fn(&TraceRow) -> Option<&TraceUop>| rows.iter().filter_map(f).map(|u| u.name.clone()).collect::<Vec<_>>();
        assert_eq!(side(|r| r.base.as_ref()), ["_START", "_GUARD_TYPE_VERSION", "_LOAD_ATTR_SLOT", "_JUMP_TO_TOP"]);
        assert_eq!(side(|r| r.head.as_ref()), ["_START", "_LOAD_ATTR", "_CHECK_PERIODIC", "_ERROR_POP_N", "_JUMP_TO_TOP"]);
        assert!(rows[1..rows.len() - 1].iter().all(|r| !r.same), "the middle differs");
        assert_eq!(rows.len(), 5, "two replaced by three take three rows, not five");
    }
}
