//! Display names of code objects: what every output (text, markdown, JSON, the page) calls a
//! code object, so that code objects sharing a `(module, qualname)` are not shown as
//! identical rows (issue 14).
//!
//! A code object whose `(module, qualname)` no other code object of its dump has is shown by its
//! `co_qualname`, as it always was. Code objects sharing one are shown by their owner (the
//! `__qualname__` their functions carry, `Point.__init__` for a dataclass's exec'd
//! `__create_fn__.<locals>.__init__`; else the qualname); those still sharing a name get the
//! place they were made, `make.<locals>.<lambda>@12:8` (`made_at`, else `@first_line` for
//! dumps without it); those still alike (`exec`'d functions) get their `body` in hex, `f#9ac3`,
//! and a same-bodied twin `f#9ac3~2` after the busiest, so that a twin one run's dump lacks
//! renames no other; dumps without `body` number them in dump order, `f#1`, `f#2` (the harness
//! writes code in a stable order, see `docs/dump-format.md`).
//! Names depend only on the dump, so a name is the same in every output of it and in every run
//! of the same program.

use std::collections::HashMap;

use crate::engine::matching::{identity_ref, owner_ref};
use crate::model::dump::Dump;
use crate::util::sort::sort_by_key;

/// The display name of every code object of one dump.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CodeNames {
    /// Per code object, its name when it is not its `co_qualname`.
    names: Vec<Option<String>>,
}

/// Code indices grouped by a pair of strings: the type [`crate::engine::matching`] groups
/// with, reused (`.1` unused) so that the viewer's wasm carries one copy of its code.
type Groups<'d> = HashMap<(&'d str, &'d str), (Vec<u32>, Vec<u32>)>;

impl CodeNames {
    /// The names of `dump`'s code objects.
    pub fn of(dump: &Dump) -> CodeNames {
        let mut names = vec![None; dump.code.len()];
        let mut shared = Groups::new();
        for (i, c) in dump.code.iter().enumerate() {
            shared.entry(identity_ref(dump, c)).or_default().0.push(i as u32);
        }
        for (&(module, _), (codes, _)) in shared.iter().filter(|(_, g)| g.0.len() > 1) {
            let mut by_owner = Groups::new();
            for &i in codes {
                by_owner.entry((module, owner_ref(dump, &dump.code[i as usize]))).or_default().0.push(i);
            }
            for (&(_, owner), (same, _)) in &by_owner {
                if let [i] = same[..] {
                    let c = &dump.code[i as usize];
                    if c.owner.is_some_and(|o| o != c.qualname) {
                        names[i as usize] = Some(owner.to_string());
                    }
                    continue;
                }
                let labels: Vec<String> = same
                    .iter()
                    .map(|&i| {
                        let c = &dump.code[i as usize];
                        match c.made_at {
                            Some((line, col)) => format!("{owner}@{line}:{col}"),
                            None => format!("{owner}@{}", c.first_line),
                        }
                    })
                    .collect();
                // The code objects sharing each label, in dump order: one pass, not a rescan of
                // the group per code object (quadratic: 100k `exec`'d `f`s took 117 s, issue 31).
                let mut twins: HashMap<&str, Vec<u32>> = HashMap::new();
                for (&i, label) in same.iter().zip(&labels) {
                    twins.entry(label).or_default().push(i);
                }
                for (&i, label) in same.iter().zip(&labels) {
                    if let [_] = twins[label.as_str()][..] {
                        names[i as usize] = Some(label.clone());
                    }
                }
                for group in twins.values().filter(|g| g.len() > 1) {
                    match twin_tags(dump, group) {
                        Some(tags) => {
                            for (&i, tag) in group.iter().zip(tags) {
                                names[i as usize] = Some(format!("{owner}#{tag}"));
                            }
                        }
                        None => {
                            for (n, &i) in group.iter().enumerate() {
                                names[i as usize] = Some(format!("{owner}#{}", n + 1));
                            }
                        }
                    }
                }
            }
        }
        CodeNames { names }
    }

    /// The display name of code object `code` of `dump` (the dump these names are of).
    pub fn name<'d>(&'d self, dump: &'d Dump, code: u32) -> &'d str {
        match &self.names[code as usize] {
            Some(n) => n,
            None => dump.str(dump.code[code as usize].qualname),
        }
    }
}

/// What tells each of `twins` apart (same module, owner and place made; in dump order) when
/// every one has a `body`: its body as hex, 4 digits unless two bodies share them, and for
/// bodies alike (the same `exec`'d text run twice), `~2`, `~3` after the busiest. A tag that
/// depends on nothing but the code itself and its same-bodied twins, so that a twin present in
/// one run and not in the next (a function that ran once, which the harness only sometimes
/// sees) renames none of the others. `None` when one has no `body`.
///
/// Linear after one sort: the bodies sharing their first 4 digits are found by sorting, and a
/// code object's rank among its same-bodied twins is its place in that order (counting, per
/// code object, the twins busier than it was quadratic in a group).
fn twin_tags(dump: &Dump, twins: &[u32]) -> Option<Vec<String>> {
    let bodies: Vec<u32> = twins.iter().map(|&j| dump.code[j as usize].body).collect::<Option<_>>()?;
    let short = |b: u32| b >> 16;
    // Same body: the one that did most first (specialized instructions, then samples), then
    // dump order, which for code alike in all else is the order of what it did.
    let busy = |j: u32| {
        let c = &dump.code[j as usize];
        let specialized = c.instructions.iter().filter(|ins| dump.op(ins).specialized).count();
        (std::cmp::Reverse(specialized), std::cmp::Reverse(c.samples.1), j)
    };
    let mut order: Vec<_> = twins.iter().zip(&bodies).enumerate().map(|(k, (&j, &b))| (b, busy(j), k)).collect();
    sort_by_key(&mut order, |&(b, busy, _)| (b, busy));
    let mut tags = vec![String::new(); twins.len()];
    let mut at = 0;
    while at < order.len() {
        // The run of bodies sharing this one's first 4 digits, then each body within it.
        let prefix = short(order[at].0);
        let end = at + order[at..].iter().take_while(|e| short(e.0) == prefix).count();
        let alone = order[at..end].iter().all(|e| e.0 == order[at].0);
        let mut rank = 0;
        for (n, &(b, _, k)) in order[at..end].iter().enumerate() {
            rank = if n > 0 && order[at + n - 1].0 == b { rank + 1 } else { 0 };
            let hex = if alone { format!("{:04x}", short(b)) } else { format!("{b:08x}") };
            tags[k] = if rank == 0 { hex } else { format!("{hex}~{}", rank + 1) };
        }
        at = end;
    }
    Some(tags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    #[test]
    fn shared_names_become_distinct_and_unique_ones_stay() {
        let mut b = DumpBuilder::new("3.12.1");
        for q in ["f", "make.<locals>.<lambda>", "make.<locals>.<lambda>", "__create_fn__.<locals>.__init__",
            "__create_fn__.<locals>.__init__", "g", "g", "g", "total"] {
            b.code("m", q, 1).ins("RETURN_CONST", "None", 1).finish();
        }
        let mut d = b.build();
        d.code[1].made_at = Some((12, 8));
        d.code[2].made_at = Some((12, 30));
        let owner = |d: &mut Dump, s: &str| {
            d.strings.push(s.into());
            Some(d.strings.len() as u32 - 1)
        };
        d.code[3].owner = owner(&mut d, "Point.__init__");
        d.code[4].owner = owner(&mut d, "Size.__init__");
        d.code[7].first_line = 5;
        // Unique: shown as co_qualname even with an owner (code swapped into another function).
        d.code[8].owner = owner(&mut d, "other");
        let names = CodeNames::of(&d);
        let all: Vec<&str> = (0..d.code.len() as u32).map(|i| names.name(&d, i)).collect();
        assert_eq!(
            all,
            ["f", "make.<locals>.<lambda>@12:8", "make.<locals>.<lambda>@12:30", "Point.__init__", "Size.__init__", "g#1", "g#2", "g@5", "total"]
        );
    }

    /// `exec`'d twins (same name, same place made) are told apart by their bodies, and the
    /// busiest of a same-bodied pair keeps the plain tag: a cold twin that one run's dump has
    /// and the next one's lacks renames no other code object (the 3.11 CI run that paired `f#3`
    /// with `f#4`).
    #[test]
    fn exec_twins_keep_their_names_when_a_cold_twin_comes_and_goes() {
        let names_of = |with_cold: bool| {
            let mut b = DumpBuilder::new("3.12.1");
            b.code("m", "f", 1).ins("BINARY_OP", "+", 1).finish();
            b.code("m", "f", 1).ins("BINARY_OP_MULTIPLY_FLOAT", "*", 1).finish();
            b.code("m", "f", 1).ins("BINARY_OP_ADD_INT", "+", 1).finish();
            b.code("m", "f", 1).ins("BINARY_OP_ADD_UNICODE", "+", 1).finish();
            let mut d = b.build();
            for (c, body) in d.code.iter_mut().zip([0xa1b2_0001, 0x77c0_0002, 0xa1b2_0001, 0xa1b2_0003]) {
                c.made_at = Some((1, 0));
                c.body = Some(body);
            }
            if !with_cold {
                d.code.remove(0);
            }
            let names = CodeNames::of(&d);
            (0..d.code.len() as u32).map(|i| names.name(&d, i).to_string()).collect::<Vec<_>>()
        };
        assert_eq!(names_of(true), ["f#a1b20001~2", "f#77c0", "f#a1b20001", "f#a1b20003"]);
        assert_eq!(names_of(false), ["f#77c0", "f#a1b20001", "f#a1b20003"]);
    }
}
