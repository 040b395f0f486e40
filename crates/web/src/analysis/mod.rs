//! Turns `specdiff_core`'s results into view models: the diff report (two runs) or the
//! coverage of one run ([`digest`]), and the aligned rows of one function ([`detail`]). Every
//! number and every classification comes from the core (normalizer, matching, classifier,
//! explainer, summaries); this module only picks, words and orders them for display.
//!
//! [`Pair`] owns the two dumps and the core's `DiffSession` that borrows them (a
//! [`self_cell`]: no unsafe code here).

use std::collections::HashMap;
use std::rc::Rc;

use specdiff_core::report::{DiffOptions, DiffSession, SentExplanation};
use specdiff_core::model::Dump;
use specdiff_core::engine::{identity, CodeNames};
use specdiff_core::cpython::Side;
use specdiff_core::report::{ChangeKind, DiffReport, FunctionRows};
use specdiff_core::report::{KindCounts, Tallies};

use crate::view_model::Share;

pub mod detail;
pub mod opnames;
pub mod digest;
#[cfg(test)]
mod one_story;
#[cfg(test)]
mod one_wording;

impl From<specdiff_core::report::Share> for Share {
    fn from(s: specdiff_core::report::Share) -> Share {
        Share { specialized: s.specialized, sites: s.sites }
    }
}

/// The stable key of a code object: `module:name` with the core's display name (which tells
/// apart code objects sharing a qualname: `Point.__init__`, `<lambda>@12:8`), with `~n` for
/// the n-th code object of the same name (ordered as in the dump), so links survive reloads.
pub fn code_keys(dump: &Dump) -> Vec<String> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    let names = CodeNames::of(dump);
    dump.code
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (module, qualname) = (identity(dump, c).0, names.name(dump, i as u32));
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

/// The core's diff session, named for [`self_cell`].
type Diff<'a> = DiffSession<'a>;

self_cell::self_cell!(
    /// The two dumps and the core's diff session that borrows them.
    struct Matched {
        owner: (Rc<Dump>, Rc<Dump>),
        #[covariant]
        dependent: Diff,
    }
);

/// The two dumps being compared (the same dump twice for the coverage of one run) and the
/// core's `DiffSession` of them, kept between requests so opening a function does not match
/// the dumps again (~20 ms natively for 8k code objects, against ~20 µs for the rows).
pub struct Pair {
    matched: Matched,
}

impl Pair {
    /// Matches `base` and `head`. Unrelated programs are diffed anyway (the report then
    /// carries a warning).
    pub fn new(base: Rc<Dump>, head: Rc<Dump>) -> Pair {
        Pair::with_sent(base, head, Vec::new())
    }

    /// [`Pair::new`] with the explanations a share link's sender gave (they replace the
    /// pair's own for the changes they name).
    pub fn with_sent(base: Rc<Dump>, head: Rc<Dump>, sent: Vec<SentExplanation>) -> Pair {
        let options = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
        Pair { matched: Matched::new((base, head), |(b, h)| DiffSession::new(b, h, options).with_sent(sent)) }
    }

    /// The base dump.
    pub fn base(&self) -> &Dump {
        &self.matched.borrow_owner().0
    }

    /// The head dump.
    pub fn head(&self) -> &Dump {
        &self.matched.borrow_owner().1
    }

    /// The diff report.
    pub fn report(&mut self) -> DiffReport {
        self.matched.with_dependent_mut(|_, diff| diff.report().expect("allow_unrelated: a report is always returned"))
    }

    /// The aligned rows of one function.
    pub fn rows(&mut self, base: Option<u32>, head: Option<u32>) -> FunctionRows {
        self.matched.with_dependent_mut(|_, diff| diff.function_rows(base, head))
    }

    /// The display names of the base (`head == false`) or head dump's code objects.
    pub fn names(&self, head: bool) -> &CodeNames {
        self.matched.borrow_dependent().names(if head { Side::Head } else { Side::Base })
    }

    /// The code matching: `(base, head)` code indices of the matched pairs.
    pub fn matched_pairs(&self) -> Vec<(u32, u32)> {
        self.matched.borrow_dependent().matching().pairs.iter().map(|p| (p.base, p.head)).collect()
    }

    /// The core's specialized share of single code objects of the pair.
    pub fn tallies(&self) -> Tallies<'_> {
        Tallies::new(self.base(), self.head())
    }
}

/// Where a function key points: code indices on each side.
pub type Entries = HashMap<String, (Option<u32>, Option<u32>)>;

fn short_path(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn counts_of(k: &KindCounts) -> Vec<(ChangeKind, u32)> {
    ChangeKind::ALL.iter().map(|&c| (c, k.get(c))).filter(|(_, n)| *n > 0).collect()
}

/// The function-level class: the most telling class among its sites.
fn status_of(k: &KindCounts) -> ChangeKind {
    ChangeKind::ALL.iter().copied().find(|&c| c != ChangeKind::Unchanged && k.get(c) > 0).unwrap_or(ChangeKind::Unchanged)
}
