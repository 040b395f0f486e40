//! Trimmed functions (link version 3). Of a changed function a reduced link carries only the
//! sites of its changes and [`CONTEXT_ROWS`] aligned rows around each, not the whole body: a
//! changed function of a real program is 100–400 instructions a side, of which a pull request
//! changes a handful. What the trimmed code cannot tell, the note carries
//! ([`TrimmedFunction`]: the function's specialized shares, counted by the sender over the
//! whole function). A trim is checked before it travels: the trimmed pair is diffed again
//! and a function whose changes read differently there (another alignment, other kinds) is
//! carried whole; explanations that read differently travel in the note instead
//! (`report/sent.rs`).

use crate::cpython::normalize::Site;
use crate::engine::align::AlignedRow;
use crate::engine::classify::{Change, ChangeKind};
use crate::model::dump::Dump;
use crate::report::diff::DiffSession;
use crate::report::summary::Share;

/// Aligned rows of unchanged code kept before and after each changed row.
pub const CONTEXT_ROWS: usize = 1;

/// Integers per function in [`super::ShareNote::trimmed`].
const WIRE_INTS: usize = 6;

/// A function a link carries trimmed: its code objects in the link's dumps and its
/// specialized shares over the whole function (the trimmed code holds only some sites).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrimmedFunction {
    /// The base code object's index in the link's base dump.
    pub base_code: u32,
    /// The head code object's index in the link's head dump.
    pub head_code: u32,
    /// Specialized sites of the whole base function.
    pub before: Share,
    /// Specialized sites of the whole head function.
    pub after: Share,
}

/// Instruction masks of a dump's code objects, by index: `None` (or past the end) keeps the
/// whole code object.
pub(crate) type Masks = Vec<Option<Vec<bool>>>;

/// The trimmed functions a note lists (see [`TrimmedFunction`]); a list that does not come in
/// whole groups of six is read as far as it does.
pub fn trimmed_functions(wire: &[u32]) -> Vec<TrimmedFunction> {
    let share = |sites: u32, specialized: u32| {
        let mut s = Share::default();
        s.merge(&Share {
            sites,
            specialized: specialized.min(sites),
            share: 0.0,
        });
        s
    };
    wire.chunks_exact(WIRE_INTS)
        .map(|w| TrimmedFunction {
            base_code: w[0],
            head_code: w[1],
            before: share(w[2], w[3]),
            after: share(w[4], w[5]),
        })
        .collect()
}

/// The note's form of `functions`.
pub(super) fn trimmed_wire(functions: &[TrimmedFunction]) -> Vec<u32> {
    functions
        .iter()
        .flat_map(|f| {
            [
                f.base_code,
                f.head_code,
                f.before.sites,
                f.before.specialized,
                f.after.sites,
                f.after.specialized,
            ]
        })
        .collect()
}

/// What a changed function's trim needs, worked out once per function: the instructions to
/// keep on each side and the function's changes as the reader sees them.
pub(crate) struct Trim {
    /// Base instructions to keep.
    pub(crate) base: Vec<bool>,
    /// Head instructions to keep.
    pub(crate) head: Vec<bool>,
    /// The pair's changes, as [`readable_changes`] gives them.
    pub(crate) changes: Vec<Change>,
}

/// The trim of the pair `b`, `h` (code indices of the session's dumps): the sites of the
/// rows within `context` rows of a changed row.
pub(crate) fn trim(session: &mut DiffSession, b: u32, h: u32, context: usize) -> Trim {
    let c = session.compare(Some(b), Some(h), false);
    let n = c.rows.len();
    let mut near = vec![false; n];
    for (i, kind) in c.kinds.iter().enumerate() {
        if kind.is_some_and(|k| k != ChangeKind::Unchanged) {
            near[i.saturating_sub(context)..(i + context + 1).min(n)].fill(true);
        }
    }
    let mut base = vec![false; session.base.code[b as usize].instructions.len()];
    let mut head = vec![false; session.head.code[h as usize].instructions.len()];
    let mark = |mask: &mut Vec<bool>, sites: &[Site], site: Option<u32>| {
        if let Some(s) = site.and_then(|s| sites.get(s as usize)) {
            let end = (s.end as usize).min(mask.len());
            mask[(s.start as usize).min(end)..end].fill(true);
        }
    };
    for (row, _) in c.rows.iter().zip(&near).filter(|(_, near)| **near) {
        let AlignedRow {
            base: b, head: h, ..
        } = *row;
        mark(&mut base, &c.base_sites, b);
        mark(&mut head, &c.head_sites, h);
    }
    Trim {
        base,
        head,
        changes: unrowed(c.changes),
    }
}

/// The changes of a pair as the reader sees them, without the row numbers (trimming
/// renumbers rows).
pub(crate) fn readable_changes(session: &mut DiffSession, b: u32, h: u32) -> Vec<Change> {
    unrowed(session.compare(Some(b), Some(h), false).changes)
}

fn unrowed(mut changes: Vec<Change>) -> Vec<Change> {
    for c in &mut changes {
        c.row = 0;
    }
    changes
}

/// True when `dump`'s code object `code` keeps every instruction under `masks`.
pub(crate) fn whole(masks: &Masks, code: usize, dump: &Dump) -> bool {
    masks
        .get(code)
        .and_then(Option::as_ref)
        .is_none_or(|m| m.len() == dump.code[code].instructions.len() && m.iter().all(|&k| k))
}
