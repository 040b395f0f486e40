//! What the explanation rules may look at: the facts of one change ([`Facts`]) and the
//! program-wide facts computed once per diff ([`ExplainContext`]), such as the classes that
//! gained `__getattr__` and the module globals head creates or deletes.

use std::cell::OnceCell;
use std::collections::HashMap;

use litemap::LiteMap;

use crate::engine::classify::{Change, ChangeKind, SiteView};
use crate::model::dump::{CodeKind, Dump};
use crate::engine::matching::{identity, Matching};

use super::program::ProgramFacts;
use super::stats_evidence::{failure_growth, FailureGrowth};
use crate::cpython::normalize::{Key, Normalizer, Side, Site};

/// Facts about a program pair that rules need beyond one site, computed once per diff.
#[derive(Debug)]
pub(crate) struct ExplainContext<'a> {
    pub(super) base: &'a Dump,
    pub(super) head: &'a Dump,
    /// Per module: global writes (STORE/DELETE_GLOBAL, module-level STORE/DELETE_NAME in a loop)
    /// that head has and base does not. Made when a rule first asks (it reads every
    /// instruction of both dumps, and most diffs have no `LOAD_GLOBAL` change).
    global_writes: OnceCell<LiteMap<String, Vec<GlobalWrite>>>,
    /// Added head comprehension-like code objects, by the head index of their parent.
    pub(super) added_children: HashMap<u32, Vec<(String, u32, Vec<Key>)>>,
    /// Classes and definitions of each program, made when a class or callee rule first asks.
    facts: (OnceCell<ProgramFacts>, OnceCell<ProgramFacts>),
    /// The pystats failure kinds that grew, when both runs have stats; made when first asked.
    failure_growth: OnceCell<Option<FailureGrowth>>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct GlobalWrite {
    pub(super) code: String,
    pub(super) name: String,
    pub(super) in_loop: bool,
    pub(super) delete: bool,
}

/// What a rule may look at for one change.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts<'a> {
    /// The classified change.
    pub change: &'a Change,
    /// Base side of the site.
    pub base: Option<SiteView<'a>>,
    /// Head side of the site.
    pub head: Option<SiteView<'a>>,
    /// All head sites of the code object, and the index of this one among them.
    pub head_sites: &'a [Site],
    /// Index of the head site in `head_sites`.
    pub head_index: Option<usize>,
    /// The head code object index of the function pair.
    pub head_code: Option<u32>,
    /// The normalized key of the base site.
    pub base_key: Option<Key>,
}

impl Facts<'_> {
    /// The change is of one of `kinds`.
    pub(super) fn kind_is(&self, kinds: &[ChangeKind]) -> bool {
        kinds.contains(&self.change.kind)
    }
}

impl<'a> ExplainContext<'a> {
    /// Precomputes the program-wide facts.
    pub(crate) fn new(norm: &mut Normalizer<'a>, matching: &Matching) -> Self {
        let (base, head) = (norm.dump(Side::Base), norm.dump(Side::Head));
        let mut added_children: HashMap<u32, Vec<(String, u32, Vec<Key>)>> = HashMap::new();
        for &a in &matching.added {
            let c = &head.code[a as usize];
            let (Some(parent), true) = (c.parent, c.kind == CodeKind::Comprehension || head.str(c.name).starts_with('<')) else {
                continue;
            };
            let mut keys = norm.keys(Side::Head, a);
            crate::util::sort::sort_by(&mut keys, Ord::cmp);
            added_children.entry(parent).or_default().push((head.str(c.qualname).to_string(), c.first_line, keys));
        }
        ExplainContext {
            base,
            head,
            global_writes: OnceCell::new(),
            added_children,
            facts: (OnceCell::new(), OnceCell::new()),
            failure_growth: OnceCell::new(),
        }
    }

    /// The pystats failure kinds that grew from base to head (`stats_evidence.rs`), when both
    /// runs have stats.
    pub(crate) fn failure_growth(&self) -> Option<&FailureGrowth> {
        self.failure_growth
            .get_or_init(|| Some(failure_growth(self.base.pystats.as_ref()?, self.head.pystats.as_ref()?)))
            .as_ref()
    }

    /// Base's classes and definitions.
    pub(super) fn base_facts(&self) -> &ProgramFacts {
        self.facts.0.get_or_init(|| ProgramFacts::of(self.base))
    }

    /// Head's classes and definitions.
    pub(super) fn head_facts(&self) -> &ProgramFacts {
        self.facts.1.get_or_init(|| ProgramFacts::of(self.head))
    }

    pub(super) fn global_writes(&self) -> &LiteMap<String, Vec<GlobalWrite>> {
        self.global_writes.get_or_init(|| {
            let old = global_writes_by_module(self.base);
            let mut new_writes = LiteMap::new();
            for (module, writes) in global_writes_by_module(self.head) {
                let before = old.get(&module);
                let new: Vec<_> = writes.into_iter().filter(|w| before.is_none_or(|o| !o.contains(w))).collect();
                if !new.is_empty() {
                    new_writes.insert(module, new);
                }
            }
            new_writes
        })
    }
}


fn global_writes_by_module(d: &Dump) -> LiteMap<String, Vec<GlobalWrite>> {
    // Per op, classified once (not per instruction): `Some((global, delete))` for
    // STORE/DELETE_GLOBAL (`global`) and STORE/DELETE_NAME (which count only in module bodies,
    // decided below).
    let writes: Vec<Option<(bool, bool)>> = d
        .ops
        .iter()
        .map(|o| match o.family.as_str() {
            "STORE_GLOBAL" => Some((true, false)),
            "DELETE_GLOBAL" => Some((true, true)),
            "STORE_NAME" => Some((false, false)),
            "DELETE_NAME" => Some((false, true)),
            _ => None,
        })
        .collect();
    let mut out: LiteMap<String, Vec<GlobalWrite>> = LiteMap::new();
    for c in &d.code {
        let mut loops = None;
        let module_body = c.kind == CodeKind::Module;
        for i in &c.instructions {
            let (global, delete) = match writes[i.op as usize] {
                Some((global, delete)) if global || module_body => (global, delete),
                _ => continue,
            };
            let loops = loops.get_or_insert_with(|| loop_ranges(d, c));
            let in_loop = loops.iter().any(|&(a, b)| a <= i.offset && i.offset <= b);
            if !global && !in_loop {
                continue; // module-level definitions and imports
            }
            let (m, q) = identity(d, c);
            let w = GlobalWrite { code: q, name: d.str(i.argrepr).to_string(), in_loop, delete };
            let list = out.entry(m).or_default();
            if !list.contains(&w) {
                list.push(w);
            }
        }
    }
    out
}

/// Byte-offset ranges `[target, jump]` of backward jumps.
fn loop_ranges(d: &Dump, c: &crate::model::dump::CodeInfo) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in &c.instructions {
        let op = d.op(i);
        let backward = op.family.starts_with("JUMP_BACKWARD") || op.family.starts_with("POP_JUMP_BACKWARD");
        if !backward {
            continue;
        }
        let repr = d.str(i.argrepr);
        // Checked: offsets and args come from the file (fuzzing found `2 * arg` overflowing).
        let next = || i.offset.checked_add(2)?.checked_add(u32::try_from(i.cache.len()).ok()?.checked_mul(2)?);
        let target = repr
            .strip_prefix("to ")
            .and_then(|t| t.parse::<u32>().ok())
            .or_else(|| next()?.checked_sub(i.arg?.checked_mul(2)?));
        if let Some(t) = target {
            out.push((t, i.offset));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    /// Found by fuzzing (`diff_engine`): a backward jump whose arg or offset is near
    /// `u32::MAX` overflowed the target's arithmetic.
    #[test]
    fn loop_ranges_of_absurd_jumps_are_left_out() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("m", "f", 1).ins("JUMP_BACKWARD", "", 1).finish();
        let mut d = b.build();
        let jump = &mut d.code[0].instructions[0];
        jump.arg = Some(u32::MAX);
        assert_eq!(loop_ranges(&d, &d.code[0]), []);
        let jump = &mut d.code[0].instructions[0];
        (jump.arg, jump.offset) = (Some(1), u32::MAX);
        assert_eq!(loop_ranges(&d, &d.code[0]), []);
        let jump = &mut d.code[0].instructions[0];
        (jump.arg, jump.offset) = (Some(2), 10);
        assert_eq!(loop_ranges(&d, &d.code[0]), [(8 + 2 * jump_cache(&d), 10)]);
    }

    fn jump_cache(d: &Dump) -> u32 {
        d.code[0].instructions[0].cache.len() as u32
    }

    #[test]
    fn global_writes_in_loops() {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("m", "<module>", 1).ins("STORE_NAME", "CONST", 1).ins("STORE_NAME", "tmp", 3).ins("JUMP_BACKWARD", "to 2", 3).finish();
        b.code("m", "f", 5).ins("STORE_GLOBAL", "g", 6).finish();
        let d = b.build();
        let w = global_writes_by_module(&d).get("m").unwrap().clone();
        let names: Vec<(&str, bool)> = w.iter().map(|w| (w.name.as_str(), w.in_loop)).collect();
        assert_eq!(names, [("tmp", true), ("g", false)], "module-level definitions outside loops are not writes");
        assert_eq!(loop_ranges(&d, &d.code[0]), [(2, 4)]);
    }
}
