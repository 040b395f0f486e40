//! The diff's fast path for matched pairs whose instructions are identical, which in a
//! whole-program diff are nearly all of them: it proves a pair identical and counts what the
//! report needs from it without aligning or classifying (docs/engine.md, "Performance").

use crate::model::dump::{CounterKind, Dump};
use crate::cpython::normalize::{Normalizer, Side};
use crate::report::summary::{Share, ShareTally};

/// The report's fast path for matched pairs whose instructions are identical (see
/// [`FastPath::identical`]; lines and offsets may differ).
/// Such a pair has no changes: every site aligns with itself as `same` and classifies as
/// `unchanged`. So instead of aligning and classifying it, the report counts its sites (for
/// the similarity) and its specialization sites (for `counts.unchanged` and the specialized
/// shares, per family, identical on both sides), from one side's site grouping. In a
/// whole-program diff nearly every pair takes this path.
pub(crate) struct FastPath {
    /// Base op index → head op index of the same op (every field equal), or `u32::MAX`.
    op_map: Vec<u32>,
    /// Per base op index, as the primary instruction of specialization sites of identical
    /// pairs: those sites and how many of them are specialized.
    per_op: Vec<Share>,
    /// Base string index → a head string index found equal to it, or `u32::MAX`. Operands
    /// repeat, so most comparisons become one lookup instead of a `memcmp`.
    same_string: Vec<u32>,
}

impl FastPath {
    pub(crate) fn new(base: &Dump, head: &Dump) -> Self {
        let by_name: std::collections::HashMap<&str, u32> =
            head.ops.iter().enumerate().map(|(i, o)| (o.name.as_str(), i as u32)).collect();
        let op_map = base
            .ops
            .iter()
            .map(|o| match by_name.get(o.name.as_str()) {
                Some(&h) if head.ops[h as usize] == *o => h,
                _ => u32::MAX,
            })
            .collect();
        FastPath {
            op_map,
            per_op: vec![Share::default(); base.ops.len()],
            same_string: vec![u32::MAX; base.strings.len()],
        }
    }

    /// Whether base code object `b` and head code object `h` have identical instructions, as
    /// far as the engine reads them: the same op, `arg`, operand (`argrepr` as is, or after
    /// normalization: `<code object f at 0x…>` differs between runs), counter word and number
    /// of cache words, and churn. The other cache words (type versions, cached pointers) also
    /// differ between runs and are never read.
    pub(crate) fn identical(&mut self, norm: &mut Normalizer, b: u32, h: u32) -> bool {
        let (base, head) = (norm.dump(Side::Base), norm.dump(Side::Head));
        let (bi, hi) = (&base.code[b as usize].instructions, &head.code[h as usize].instructions);
        let (rb, rh) = (norm.rules(Side::Base), norm.rules(Side::Head));
        let op_map = &self.op_map;
        let same_op = |x: u32, y: u32| op_map[x as usize] == y;
        let same_string = &mut self.same_string;
        let mut same_text = |x: u32, y: u32| {
            let known = same_string[x as usize] == y;
            known || (base.str(x) == head.str(y)).then(|| same_string[x as usize] = y).is_some()
        };
        bi.len() == hi.len()
            && bi.iter().zip(hi).all(|(x, y)| {
                same_op(x.op, y.op)
                    && x.arg == y.arg
                    && x.counter == y.counter
                    && x.cache.len() == y.cache.len()
                    && rb.raw_word(x) == rh.raw_word(y)
                    && (same_text(x.argrepr, y.argrepr)
                        || norm.operand_of(Side::Base, x) == norm.operand_of(Side::Head, y))
                    && match (&x.churn, &y.churn) {
                        (None, None) => true,
                        (Some(p), Some(q)) => {
                            p.flips == q.flips
                                && p.seen.len() == q.seen.len()
                                && p.seen.iter().zip(&q.seen).all(|(&s, &t)| same_op(s, t))
                        }
                        _ => false,
                    }
            })
    }

    /// Counts base code object `b` of an identical pair: returns its sites and its
    /// specialization sites, and adds the latter to the per-op tally.
    pub(crate) fn count(&mut self, norm: &mut Normalizer, b: u32) -> (usize, u32) {
        let dump = norm.dump(Side::Base);
        let code = &dump.code[b as usize];
        let sites = norm.site_shapes(Side::Base, b);
        let mut specialization_sites = 0;
        for s in &sites {
            let (primary, spec) = (&code.instructions[s.primary as usize], &code.instructions[s.spec as usize]);
            let (p, q) = (dump.op(primary), dump.op(spec));
            // As `SiteView::is_site` and `SiteView::specialized`.
            if q.counter == Some(CounterKind::Adaptive) || p.counter == Some(CounterKind::Adaptive) {
                self.per_op[primary.op as usize].add(q.specialized);
                specialization_sites += 1;
            }
        }
        (sites.len(), specialization_sites)
    }

    /// The specialized shares of all identical pairs counted (the same on both sides).
    pub(crate) fn tally(self, base: &Dump) -> ShareTally {
        let mut t = ShareTally::default();
        for (op, share) in self.per_op.iter().enumerate() {
            if share.sites > 0 {
                t.add_family(&base.ops[op].family, share);
            }
        }
        t
    }
}
