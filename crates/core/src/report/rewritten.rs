//! Rewritten functions (issue 29): a pair of functions so different that their sites cannot be
//! compared line by line. When fewer than a third of their specialization sites align as the
//! same code ([`REWRITTEN_BELOW`]) and there are enough of them for that share to mean
//! something ([`REWRITTEN_MIN_SITES`]), the aligner's pairs are guesses: sqlglot 25's
//! `Generator.binary` and `connector_sql` became stack loops (20 % aligned), and their "lost"
//! sites paired `self.sql(expression, 'this')` with `self.maybe_comment(op, comments=…)`.
//! Such a function's site regressions on rows the aligner paired by position (`same`,
//! `modified`) are shown as `minor`, with this sentence, and the function is flagged
//! `rewritten`: every output shows its specialized share on each side. Rows paired on
//! evidence (an attribute store and the `setattr()` call that replaced it, a call and its
//! `*args` form) count as aligned and keep their kind: a frozen dataclass's `__init__` is
//! rewritten from stores to `object.__setattr__` calls, and that loss is real.
//!
//! Measured on the real corpus (151 functions with a regression, 10 upgrades, 3.12–3.15): the
//! three below a third were all mispairings (20 %, 20 %, 33 %); the lowest real regression
//! aligned 44 %.

use crate::engine::classify::{Cause, ChangeKind};

/// Below this share of aligned sites (`2 · aligned rows / (base sites + head sites)`) a
/// function is rewritten.
pub const REWRITTEN_BELOW: f64 = 1.0 / 3.0;

/// Fewer sites than this on both sides together, and one edit moves the share too far.
pub const REWRITTEN_MIN_SITES: usize = 20;

/// Whether a pair with `same` aligned rows of `sites` sites in all is rewritten.
pub fn is_rewritten(same: usize, sites: usize) -> bool {
    sites >= REWRITTEN_MIN_SITES && (2 * same) as f64 / (sites as f64) < REWRITTEN_BELOW
}

/// What a site of a rewritten function is shown as, with its cause and sentence, when its
/// own kind would claim a regression; `None` when it keeps its kind.
pub fn demoted(kind: ChangeKind, same: usize, sites: usize) -> Option<(ChangeKind, Cause, String)> {
    if !matches!(kind, ChangeKind::Lost | ChangeKind::Missing | ChangeKind::BackedOff | ChangeKind::Churning) {
        return None;
    }
    let share = (200 * same) / sites.max(1);
    Some((
        ChangeKind::Minor,
        Cause::Rewritten,
        format!(
            "the function was rewritten ({share}% of its sites align with base's), so its sites are not compared line by line: read its specialized share on each side"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_third_aligned_with_enough_sites_is_rewritten() {
        assert!(is_rewritten(6, 60)); // 20 %
        assert!(!is_rewritten(10, 60)); // 33.3 %: not below a third
        assert!(!is_rewritten(1, 10)); // too few sites to tell
        assert_eq!(demoted(ChangeKind::Changed, 6, 60), None);
        let (kind, cause, why) = demoted(ChangeKind::Lost, 6, 60).unwrap();
        assert_eq!((kind, cause), (ChangeKind::Minor, Cause::Rewritten));
        assert!(why.starts_with("the function was rewritten (20% of its sites align"), "{why}");
    }
}
