//! Renamed and moved functions: after [`super::matching`] has paired code objects by name,
//! a function left alone on each side (`compute_total` only in base, `order_total` only in
//! head) is paired with its old self by its body, so that a regression inside it is reported
//! (and gated) like any other instead of vanishing into "removed" plus "added".
//!
//! Two leftover functions pair when all of these hold (`docs/engine.md`, "Renamed functions"):
//! - both are functions (`def`, generator, `async def`; not module or class bodies, lambdas
//!   or comprehensions, which follow their enclosing function, below);
//! - they are in the same module, or both are the program's own code
//!   ([`super::matching::program_code`]): a function moved between two of the program's
//!   modules pairs, library functions only within their module;
//! - both have at least [`MIN_SITES`] sites: `return self._x` is too common a body to tell
//!   two small functions apart, or to say that two programs share code;
//! - their normalized site keys (instruction families with operands: attribute, global and
//!   local names, constants) have a Dice similarity of at least [`MIN_SIMILARITY`];
//! - each is the other's best candidate, strictly: a tie for first place pairs nothing.
//!
//! Code defined inside a renamed function (lambdas, comprehensions, nested functions) then
//! pairs by the same rules, small bodies included, among the code whose enclosing code objects
//! were paired as renamed.
//!
//! Dumps list only code that ran, so an unchanged program can leave two different functions
//! unpaired (one ran only in base, the other only in head). Neither is a candidate when its
//! enclosing code (module, class or function body), paired with its counterpart on the other
//! side, still makes a function of its name there (a `<code object NAME …>` constant): it
//! exists on both sides and only did not run on one. The thresholds keep apart what is left,
//! and the noise-floor tests (`crates/cli/tests/noise_floor.rs`) check that repeated runs pair
//! nothing wrongly.

use crate::cpython::normalize::{Key, Normalizer, Side};
use crate::model::dump::{CodeKind, Dump};
use crate::util::sort::sort_by;

use super::matching::{identity_ref, program_code, similarity, CodePair, Matching};

/// The least Dice similarity of two functions' site keys for a rename.
pub(crate) const MIN_SIMILARITY: f64 = 0.8;

/// Functions with fewer sites than this never pair by their bodies.
pub(crate) const MIN_SITES: usize = 6;

/// Most candidate pairs weighed across modules; past it only same-module pairs are weighed.
const MAX_CROSS_PAIRS: usize = 1 << 20;

/// Pairs renamed and moved functions among `m`'s added and removed code (module docs).
pub(crate) fn pair_renamed(norm: &mut Normalizer, m: &mut Matching) {
    if m.added.is_empty() || m.removed.is_empty() {
        return;
    }
    let (base, head) = (norm.dump(Side::Base), norm.dump(Side::Head));
    let is_function = |d: &Dump, i: &u32| {
        matches!(
            d.code[*i as usize].kind,
            CodeKind::Function | CodeKind::Generator | CodeKind::Coroutine | CodeKind::AsyncGenerator
        )
    };
    // The counterpart of each paired code object, to look into a function's enclosing code
    // on the other side.
    let (mut to_head, mut to_base) = (vec![u32::MAX; base.code.len()], vec![u32::MAX; head.code.len()]);
    for p in &m.pairs {
        (to_head[p.base as usize], to_base[p.head as usize]) = (p.head, p.base);
    }
    // A function whose enclosing code on the other side still makes a function of its name
    // exists there too: it only did not run there.
    let gone = |d: &Dump, other: &Dump, counterpart: &[u32], i: u32| {
        let c = &d.code[i as usize];
        let within = c.parent.map_or(u32::MAX, |p| counterpart[p as usize]);
        within == u32::MAX || !makes(other, within, d.str(c.name))
    };
    let removed: Vec<u32> =
        m.removed.iter().copied().filter(|i| is_function(base, i) && gone(base, head, &to_head, *i)).collect();
    let added: Vec<u32> =
        m.added.iter().copied().filter(|i| is_function(head, i) && gone(head, base, &to_base, *i)).collect();
    if removed.is_empty() || added.is_empty() {
        return;
    }
    let (base_own, head_own) = (program_code(base), program_code(head));
    let cross = removed.len() * added.len() <= MAX_CROSS_PAIRS;
    let mut pairs = best_pairs(norm, &removed, &added, MIN_SITES, &|b, h| {
        name_of(base, b).0 == name_of(head, h).0 || (cross && base_own[b as usize] && head_own[h as usize])
    });
    // Code inside the renamed functions (and inside that, and so on).
    let mut outer = pairs.clone();
    while !outer.is_empty() {
        let parent = |d: &Dump, i: &u32| d.code[*i as usize].parent;
        let inner_b: Vec<u32> = m.removed.iter().copied().filter(|i| outer.iter().any(|p| Some(p.0) == parent(base, i))).collect();
        let inner_h: Vec<u32> = m.added.iter().copied().filter(|i| outer.iter().any(|p| Some(p.1) == parent(head, i))).collect();
        // Small bodies too: only code inside a pair of renamed functions is weighed.
        let inner = best_pairs(norm, &inner_b, &inner_h, 1, &|b, h| {
            outer.iter().any(|p| Some(p.0) == parent(base, &b) && Some(p.1) == parent(head, &h))
        });
        pairs.extend_from_slice(&inner);
        outer = inner;
    }
    if pairs.is_empty() {
        return;
    }
    m.removed.retain(|i| !pairs.iter().any(|p| p.0 == *i));
    m.added.retain(|i| !pairs.iter().any(|p| p.1 == *i));
    m.pairs.extend(pairs.into_iter().map(|(base, head)| CodePair { base, head }));
    sort_by(&mut m.pairs, Ord::cmp);
}

/// The pairs of `removed` (base) and `added` (head) code that `admissible` allows, are
/// similar enough and are each other's strict best candidates (module docs).
fn best_pairs(
    norm: &mut Normalizer,
    removed: &[u32],
    added: &[u32],
    min_sites: usize,
    admissible: &dyn Fn(u32, u32) -> bool,
) -> Vec<(u32, u32)> {
    let keys = |norm: &mut Normalizer, side, list: &[u32]| -> Vec<Vec<Key>> {
        list.iter()
            .map(|&i| {
                let mut k = norm.keys(side, i);
                sort_by(&mut k, Ord::cmp);
                k
            })
            .collect()
    };
    let (bk, hk) = (keys(norm, Side::Base, removed), keys(norm, Side::Head, added));
    // For each candidate: (best similarity, its best counterpart, whether that best is tied).
    let mut best_b: Vec<(f64, usize, bool)> = vec![(0.0, usize::MAX, false); removed.len()];
    let mut best_h: Vec<(f64, usize, bool)> = vec![(0.0, usize::MAX, false); added.len()];
    for (x, &b) in removed.iter().enumerate() {
        for (y, &h) in added.iter().enumerate() {
            if !admissible(b, h) {
                continue;
            }
            if bk[x].len().min(hk[y].len()) < min_sites {
                continue;
            }
            let s = similarity(&bk[x], &hk[y]);
            if s < MIN_SIMILARITY {
                continue;
            }
            for (best, other) in [(&mut best_b[x], y), (&mut best_h[y], x)] {
                if s > best.0 {
                    *best = (s, other, false);
                } else if s == best.0 {
                    best.2 = true;
                }
            }
        }
    }
    let mut out = vec![];
    for (x, &(_, y, tie)) in best_b.iter().enumerate() {
        if y != usize::MAX && !tie && best_h[y].1 == x && !best_h[y].2 {
            out.push((removed[x], added[y]));
        }
    }
    out
}

/// Whether code object `code` of `d` makes a function named `name`: it loads a code constant
/// of that name (`<code object NAME at 0x…, file …>`, as `dis` shows it).
fn makes(d: &Dump, code: u32, name: &str) -> bool {
    d.code[code as usize].instructions.iter().any(|i| {
        d.str(i.argrepr)
            .strip_prefix("<code object ")
            .and_then(|rest| rest.strip_prefix(name))
            .is_some_and(|rest| rest.starts_with(" at "))
    })
}

/// `(module, qualname)` of code object `i` of `d`.
fn name_of(d: &Dump, i: u32) -> (&str, &str) {
    identity_ref(d, &d.code[i as usize])
}

#[cfg(test)]
mod tests {
    use crate::cpython::normalize::Normalizer;
    use crate::engine::match_code;
    use crate::format::builder::DumpBuilder;
    use crate::model::dump::Dump;

    /// A dump of functions `(module, qualname, attribute names loaded in order)`.
    fn dump(functions: &[(&str, &str, &[&str])]) -> Dump {
        let mut b = DumpBuilder::new("3.12.1");
        for (k, (module, qualname, attrs)) in functions.iter().enumerate() {
            let mut c = b.code(module, qualname, 10 * k as u32 + 1).ins("LOAD_FAST", "self", 1);
            for a in *attrs {
                c = c.ins("LOAD_ATTR_INSTANCE_VALUE", a, 2);
            }
            c.ins("RETURN_VALUE", "", 3).finish();
        }
        b.build()
    }

    /// `(base, head)` qualnames of every pair whose `module:qualname` differ.
    fn renames(base: &Dump, head: &Dump) -> Vec<(String, String)> {
        let m = match_code(&mut Normalizer::new(base, head));
        let name = |d: &Dump, i: u32| {
            let c = &d.code[i as usize];
            (d.str(c.module).to_string(), d.str(c.qualname).to_string())
        };
        m.pairs
            .iter()
            .map(|p| (name(base, p.base), name(head, p.head)))
            .filter(|(b, h)| b != h)
            .map(|(b, h)| (b.1, h.1))
            .collect()
    }

    const BODY: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

    #[test]
    fn a_renamed_function_pairs_with_its_old_self() {
        let base = dump(&[("m", "compute_total", &BODY), ("m", "keep", &["z"])]);
        let head = dump(&[("m", "keep", &["z"]), ("m", "order_total", &BODY)]);
        assert_eq!(renames(&base, &head), [("compute_total".into(), "order_total".into())]);
        // Edited a little too (one load of ten sites changed): still itself.
        let head = dump(&[("m", "order_total", &["a", "b", "c", "d", "e", "f", "g", "x"])]);
        assert_eq!(renames(&base, &head), [("compute_total".into(), "order_total".into())]);
    }

    #[test]
    fn below_the_threshold_nothing_pairs() {
        // Half the loads differ: Dice 0.6 over the sites (LOAD_FAST, RETURN_VALUE and 4 of 8).
        let base = dump(&[("m", "area_sum", &BODY)]);
        let head = dump(&[("m", "perimeter_sum", &["a", "b", "c", "d", "w", "x", "y", "z"])]);
        assert_eq!(renames(&base, &head), []);
    }

    #[test]
    fn small_bodies_never_pair() {
        let base = dump(&[("m", "P.x", &["_x"])]);
        assert_eq!(renames(&base, &dump(&[("m", "P.y", &["_y"])])), []);
        assert_eq!(renames(&base, &dump(&[("m", "P.get_x", &["_x"])])), []);
    }

    #[test]
    fn a_function_its_module_still_makes_is_no_rename() {
        // An unchanged program: `a` ran only in base, `b` (alike) only in head; both modules
        // make both functions.
        let mut bb = DumpBuilder::new("3.12.1");
        bb.code("m", "<module>", 1)
            .ins("LOAD_CONST", "<code object a at 0x1, file \"m.py\", line 2>", 1)
            .ins("LOAD_CONST", "<code object b at 0x2, file \"m.py\", line 9>", 1)
            .finish();
        let mut c = bb.code("m", "a", 2).ins("LOAD_FAST", "self", 2);
        for a in BODY {
            c = c.ins("LOAD_ATTR_INSTANCE_VALUE", a, 3);
        }
        c.finish();
        let mut base = bb.build();
        base.code[1].parent = Some(0);
        let mut head = base.clone();
        head.strings.push("b".into());
        let b = head.strings.len() as u32 - 1;
        (head.code[1].qualname, head.code[1].name) = (b, b);
        assert_eq!(renames(&base, &head), []);
        // A rename: base makes only `a`, head only `b`.
        base.code[0].instructions.remove(1);
        head.code[0].instructions.remove(0);
        assert_eq!(renames(&base, &head), [("a".into(), "b".into())]);
    }

    #[test]
    fn a_tie_pairs_nothing() {
        // Two head functions are equally good candidates for one base function.
        let base = dump(&[("m", "old", &BODY)]);
        let head = dump(&[("m", "new_a", &BODY), ("m", "new_b", &BODY)]);
        assert_eq!(renames(&base, &head), []);
    }

    #[test]
    fn library_functions_pair_only_within_their_module() {
        // Runs of `python -c`: only `__main__` is the program's own code.
        let code_run = |mut d: Dump| {
            d.run.target.kind = "code".into();
            d
        };
        let base = code_run(dump(&[("lib.a", "helper", &BODY)]));
        let head = code_run(dump(&[("lib.b", "helper2", &BODY)]));
        assert_eq!(renames(&base, &head), []);
        let head = code_run(dump(&[("lib.a", "helper2", &BODY)]));
        assert_eq!(renames(&base, &head), [("helper".into(), "helper2".into())]);
        // The program's own code pairs across modules (a module split).
        let (base, head) = (dump(&[("app", "helper", &BODY)]), dump(&[("app.util", "helper", &BODY)]));
        assert_eq!(renames(&base, &head), [("helper".into(), "helper".into())]);
    }

    #[test]
    fn code_inside_a_renamed_function_follows_it() {
        let mut b = DumpBuilder::new("3.12.1");
        for (q, l) in [("compute", &BODY[..]), ("compute.<locals>.<lambda>", &["k"][..])] {
            let mut c = b.code("m", q, 1).ins("LOAD_FAST", "self", 1);
            for a in l {
                c = c.ins("LOAD_ATTR_INSTANCE_VALUE", a, 2);
            }
            c.ins("RETURN_VALUE", "", 3).finish();
        }
        let mut base = b.build();
        base.code[1].parent = Some(0);
        let mut head = base.clone();
        for (i, q) in ["total", "total.<locals>.<lambda>"].into_iter().enumerate() {
            head.strings.push(q.into());
            head.code[i].qualname = head.strings.len() as u32 - 1;
        }
        let mut got = renames(&base, &head);
        got.sort();
        assert_eq!(
            got,
            [("compute".into(), "total".into()), ("compute.<locals>.<lambda>".into(), "total.<locals>.<lambda>".into())]
        );
    }
}
