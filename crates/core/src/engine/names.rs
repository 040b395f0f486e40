//! Display names of code objects: what every output (text, markdown, JSON, the page) calls a
//! code object, so that code objects sharing a `(module, qualname)` are not shown as
//! identical rows (issue 14).
//!
//! A code object whose `(module, qualname)` no other code object of its dump has is shown by its
//! `co_qualname`, as it always was. Code objects sharing one are shown by their owner (the
//! `__qualname__` their functions carry, `Point.__init__` for a dataclass's exec'd
//! `__create_fn__.<locals>.__init__`; else the qualname); those still sharing a name get the
//! place they were made, `make.<locals>.<lambda>@12:8` (`made_at`, else `@first_line` for
//! dumps without it); those still alike (the same `exec`'d text run twice) are numbered in dump
//! order, `f#1`, `f#2` (the harness writes code in a stable order, see `docs/dump-format.md`).
//! Names depend only on the dump, so a name is the same in every output of it and in every run
//! of the same program.

use std::collections::HashMap;

use crate::engine::matching::{identity_ref, owner_ref};
use crate::model::dump::Dump;

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
                for (k, (&i, label)) in same.iter().zip(&labels).enumerate() {
                    let twins = labels.iter().filter(|l| *l == label).count();
                    names[i as usize] = Some(if twins == 1 {
                        label.clone()
                    } else {
                        let n = labels[..k].iter().filter(|l| *l == label).count() + 1;
                        format!("{owner}#{n}")
                    });
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
}
