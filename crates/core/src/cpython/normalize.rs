//! Normalization: turns one code object's instructions into *sites*, each with a key that
//! compares by meaning across runs and CPython versions (3.11–3.14).
//!
//! A site is a contiguous run of instructions: one *primary* instruction plus the
//! instructions folded into it (`EXTENDED_ARG`, `NOP`, `CACHE`, `PUSH_NULL`, `KW_NAMES`,
//! 3.11 `PRECALL`, instrumentation placeholders), which precede it. Every instruction belongs
//! to exactly one site, in order. The key is `(family id, operand id)`; the rules (which
//! spellings are unified, what is dropped) are listed in `docs/engine.md` ("Normalization").
//! Per-version spellings live in [`crate::cpython::spelling`], counter semantics in
//! [`crate::cpython::counters`].

use std::collections::HashMap;

use crate::cpython::callee::called_name;
use crate::cpython::counters::VersionRules;
use crate::model::dump::{CodeInfo, CounterKind, Dump, Instruction, OpInfo};
pub(crate) use crate::cpython::spelling::{canonical_opname, key_family, normalize_argrepr};

/// A normalized key: family id in the high 32 bits, operand id in the low 32 bits.
pub(crate) type Key = u64;

/// Which dump a site comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The "before" dump.
    Base,
    /// The "after" dump.
    Head,
}

/// One normalized site of a code object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    /// First instruction index (inclusive).
    pub start: u32,
    /// One past the last instruction index.
    pub end: u32,
    /// The instruction the key describes.
    pub primary: u32,
    /// The instruction whose opname and counter stand for the site's specialization
    /// (the primary, except a 3.11 CALL whose specialized `PRECALL_*` did the work).
    pub spec: u32,
    /// The comparison key.
    pub key: Key,
    /// What the site is, for rewrite pairing (see [`crate::engine::align_sites`]).
    pub tag: SiteTag,
    /// For a call, the interned name it calls when its code shows one (`callee.rs`); 0
    /// otherwise.
    pub callee: u32,
}

impl Site {
    /// The family part of the key.
    pub fn family_id(&self) -> u32 {
        (self.key >> 32) as u32
    }
    /// The operand part of the key.
    pub fn operand_id(&self) -> u32 {
        self.key as u32
    }
}

/// Structural tags used to pair sites whose code was rewritten into another form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteTag {
    /// Nothing special.
    Plain,
    /// An attribute load (`LOAD_ATTR`, 3.11 `LOAD_METHOD`).
    AttrLoad,
    /// A `CALL` whose callee is the builtin name `getattr` loaded shortly before.
    GetattrCall,
    /// An attribute store (`STORE_ATTR`).
    AttrStore,
    /// A `CALL` whose callee is the builtin name `setattr` loaded shortly before.
    SetattrCall,
    /// A `super().attr` load (3.12+ `LOAD_SUPER_ATTR`).
    SuperAttr,
    /// A subscript load or store (`BINARY_SUBSCR`, `STORE_SUBSCR`, 3.14's `BINARY_OP []`).
    Subscr,
    /// A call of a method that does a subscript's work (`.get`, `.__getitem__`,
    /// `.__setitem__`, `.setdefault`, `.pop`), loaded on the call's line.
    SubscriptCall,
    /// The call that runs a comprehension's own code object, made just before it
    /// (`MAKE_FUNCTION`, the iterable, `GET_ITER`): 3.11's list, dict and set comprehensions
    /// and every version's generator expressions. 3.12+ inline the first three (PEP 709), so
    /// across versions this call has no counterpart and must not take another call's place.
    ComprehensionCall,
    /// Any other call (`CALL`, which keys 3.13's `CALL_KW` too, and `CALL_FUNCTION_EX`).
    Call,
}

impl SiteTag {
    /// An attribute load, store or `super()` load: the form a rewrite into a builtin call
    /// (`getattr`, `setattr`) or through a saved `super()` object leaves.
    pub fn is_attribute_access(self) -> bool {
        matches!(self, SiteTag::AttrLoad | SiteTag::AttrStore | SiteTag::SuperAttr)
    }
}

/// What normalization does with an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Its own site.
    Primary,
    /// Folded into the next site.
    Fold,
    /// 3.11 `PRECALL`: folded into the next site, which may take its specialization.
    Precall,
}

#[derive(Debug, Clone, Copy)]
struct OpClass {
    family: u32,
    role: Role,
    /// The operand never takes part in the key (jumps, `MAKE_FUNCTION` flags).
    drop_operand: bool,
}

/// Shared string interner for keys of both dumps.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    ids: HashMap<String, u32>,
    names: Vec<String>,
}

impl Interner {
    /// A new interner; id 0 is the empty string.
    pub(crate) fn new() -> Self {
        let mut i = Interner::default();
        i.intern("");
        i
    }
    /// The id of `s`, adding it when new.
    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(s.to_string());
        self.ids.insert(s.to_string(), id);
        id
    }
    /// The string of `id`.
    pub(crate) fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }
}

/// Per-dump normalization state (op classes and an operand cache).
#[derive(Debug)]
struct SideState {
    rules: VersionRules,
    /// Merge adjacent local-variable pairs into 3.13 superinstruction keys.
    merge_fast_pairs: bool,
    /// Merge `LOAD_CONST x; RETURN_VALUE` into a `RETURN_CONST x` key.
    merge_return_const: bool,
    ops: Vec<OpClass>,
    operands: Vec<u32>,
}

/// Operand ids of numeric operands (`#2`, for instructions without an `argrepr`), shared by
/// both sides: small arguments in a table, the rest in a map.
#[derive(Debug, Default)]
struct ArgOperands {
    small: Vec<u32>,
    large: HashMap<u32, u32>,
}

/// Numeric arguments below this are looked up in [`ArgOperands::small`].
const SMALL_ARGS: u32 = 1024;

/// Normalizes the code objects of a base and a head dump against each other.
#[derive(Debug)]
pub(crate) struct Normalizer<'a> {
    base: &'a Dump,
    head: &'a Dump,
    interner: Interner,
    arg_operands: ArgOperands,
    sides: [SideState; 2],
    fam_load_attr: u32,
    /// `STORE_ATTR` and `LOAD_SUPER_ATTR`, the other attribute families a rewrite pairs.
    fam_attr_other: [u32; 2],
    fam_call: u32,
    /// `CALL_FUNCTION_EX`, the other family of a call (`CALL_KW` is keyed as `CALL`).
    fam_call_ex: u32,
    fam_global_loads: [u32; 2],
    getattr: u32,
    setattr: u32,
    /// `__setattr__`: `object.__setattr__(self, name, v)` (a frozen dataclass's `__init__`)
    /// is a [`SiteTag::SetattrCall`] too.
    setattr_method: u32,
    /// `BINARY_SUBSCR`, `STORE_SUBSCR`, `BINARY_OP`, and the operand `[]` of 3.14's subscript.
    fam_subscr: [u32; 4],
    /// The methods [`SiteTag::SubscriptCall`] names.
    subscript_methods: [u32; 5],
    /// `MAKE_FUNCTION` and `GET_ITER`, which come before a [`SiteTag::ComprehensionCall`].
    fam_make_iter: [u32; 2],
}

const UNSET: u32 = u32::MAX;

impl<'a> Normalizer<'a> {
    /// Prepares normalization of `base` and `head` (cheap: work is done per code object).
    pub(crate) fn new(base: &'a Dump, head: &'a Dump) -> Self {
        let (rb, rh) = (VersionRules::of(base), VersionRules::of(head));
        let mut interner = Interner::new();
        let mk = |d: &Dump, me: VersionRules, other: VersionRules, it: &mut Interner| SideState {
            rules: me,
            merge_fast_pairs: me.version <= (3, 12) && other.version >= (3, 13),
            merge_return_const: !has_return_const(me.version) && has_return_const(other.version),
            ops: d.ops.iter().map(|o| classify_op(o, it)).collect(),
            operands: vec![UNSET; d.strings.len()],
        };
        let sides = [mk(base, rb, rh, &mut interner), mk(head, rh, rb, &mut interner)];
        let fam_load_attr = interner.intern("LOAD_ATTR");
        let fam_call = interner.intern("CALL");
        let fam_call_ex = interner.intern("CALL_FUNCTION_EX");
        let fam_global_loads = [interner.intern("LOAD_GLOBAL"), interner.intern("LOAD_NAME")];
        let getattr = interner.intern("getattr");
        let setattr = interner.intern("setattr");
        let setattr_method = interner.intern("__setattr__");
        let fam_attr_other = [interner.intern("STORE_ATTR"), interner.intern("LOAD_SUPER_ATTR")];
        let fam_subscr = ["BINARY_SUBSCR", "STORE_SUBSCR", "BINARY_OP", "[]"].map(|n| interner.intern(n));
        let subscript_methods = ["get", "__getitem__", "__setitem__", "setdefault", "pop"].map(|n| interner.intern(n));
        let fam_make_iter = ["MAKE_FUNCTION", "GET_ITER"].map(|n| interner.intern(n));
        let arg_operands = ArgOperands { small: vec![UNSET; SMALL_ARGS as usize], large: HashMap::new() };
        Normalizer {
            base,
            head,
            interner,
            arg_operands,
            sides,
            fam_load_attr,
            fam_attr_other,
            fam_call,
            fam_call_ex,
            fam_global_loads,
            getattr,
            setattr,
            setattr_method,
            fam_subscr,
            subscript_methods,
            fam_make_iter,
        }
    }

    /// The dump of `side`.
    pub(crate) fn dump(&self, side: Side) -> &'a Dump {
        match side {
            Side::Base => self.base,
            Side::Head => self.head,
        }
    }

    /// The counter rules of `side`.
    pub(crate) fn rules(&self, side: Side) -> VersionRules {
        self.sides[side as usize].rules
    }

    /// The interner that names key parts.
    pub(crate) fn interner(&self) -> &Interner {
        &self.interner
    }

    /// The family name a key stands for.
    #[cfg(test)]
    pub(crate) fn family_name(&self, key: Key) -> &str {
        self.interner.name((key >> 32) as u32)
    }

    /// The sites of code object `code` of `side`.
    pub(crate) fn sites(&mut self, side: Side, code: u32) -> Vec<Site> {
        self.sites_with(side, code, true)
    }

    /// The sites of `code` without their operands: the same grouping of instructions (start,
    /// end, primary, spec) as [`Self::sites`], but each key is the family alone, no
    /// cross-version merging and no tags. Cheaper; for counting (the diff's fast path for
    /// identical code, where both dumps have the same version so nothing would merge).
    pub(crate) fn site_shapes(&mut self, side: Side, code: u32) -> Vec<Site> {
        self.sites_with(side, code, false)
    }

    fn sites_with(&mut self, side: Side, code: u32, keys: bool) -> Vec<Site> {
        let dump = self.dump(side);
        let c = &dump.code[code as usize];
        let mut sites: Vec<Site> = Vec::with_capacity(c.instructions.len());
        let mut pending: Option<u32> = None;
        let mut precall: Option<u32> = None;
        for (i, ins) in c.instructions.iter().enumerate() {
            let i = i as u32;
            let class = self.sides[side as usize].ops[ins.op as usize];
            match class.role {
                Role::Fold | Role::Precall => {
                    pending.get_or_insert(i);
                    if class.role == Role::Precall {
                        precall = Some(i);
                    }
                    continue;
                }
                Role::Primary => {}
            }
            let operand = if class.drop_operand || !keys { 0 } else { self.operand(side, c, i) };
            let key = ((class.family as u64) << 32) | operand as u64;
            let spec = match precall.take() {
                Some(p) if precall_wins(dump, c, p, i) => p,
                _ => i,
            };
            let start = pending.take().unwrap_or(i);
            sites.push(Site { start, end: i + 1, primary: i, spec, key, tag: SiteTag::Plain, callee: 0 });
        }
        if let Some(p) = pending {
            let n = c.instructions.len() as u32;
            match sites.last_mut() {
                Some(last) => last.end = n,
                None => {
                    let class = self.sides[side as usize].ops[c.instructions[p as usize].op as usize];
                    let key = (class.family as u64) << 32;
                    sites.push(Site { start: p, end: n, primary: p, spec: p, key, tag: SiteTag::Plain, callee: 0 });
                }
            }
        }
        if keys {
            self.merge_pairs(side, &mut sites);
            self.tag(dump, c, &mut sites);
        }
        sites
    }

    /// The keys of `code`'s sites.
    pub(crate) fn keys(&mut self, side: Side, code: u32) -> Vec<Key> {
        self.sites(side, code).iter().map(|s| s.key).collect()
    }

    fn operand(&mut self, side: Side, c: &CodeInfo, i: u32) -> u32 {
        self.operand_of(side, &c.instructions[i as usize])
    }

    /// The operand id of an instruction of `side` (as in its key, unless its family drops
    /// the operand).
    pub(crate) fn operand_of(&mut self, side: Side, ins: &Instruction) -> u32 {
        if ins.argrepr == 0 {
            return match ins.arg {
                Some(arg) => self.arg_operand(arg),
                None => 0,
            };
        }
        let cached = self.sides[side as usize].operands[ins.argrepr as usize];
        if cached != UNSET {
            return cached;
        }
        let text = normalize_argrepr(self.dump(side).str(ins.argrepr));
        let id = self.interner.intern(&text);
        self.sides[side as usize].operands[ins.argrepr as usize] = id;
        id
    }

    /// The operand id of a numeric argument (`#arg`), interned once per value.
    fn arg_operand(&mut self, arg: u32) -> u32 {
        let cached = match self.arg_operands.small.get(arg as usize) {
            Some(&id) => id,
            None => self.arg_operands.large.get(&arg).copied().unwrap_or(UNSET),
        };
        if cached != UNSET {
            return cached;
        }
        let id = self.interner.intern(&format!("#{arg}"));
        match self.arg_operands.small.get_mut(arg as usize) {
            Some(slot) => *slot = id,
            None => {
                self.arg_operands.large.insert(arg, id);
            }
        }
        id
    }

    /// Cross-version merging of instruction pairs that the other side spells as one.
    fn merge_pairs(&mut self, side: Side, sites: &mut Vec<Site>) {
        let st = &self.sides[side as usize];
        if !st.merge_fast_pairs && !st.merge_return_const {
            return;
        }
        let (fast_pairs, return_const) = (st.merge_fast_pairs, st.merge_return_const);
        let name = |it: &Interner, s: &Site| it.name(s.family_id()).to_string();
        let mut out: Vec<Site> = Vec::with_capacity(sites.len());
        let mut i = 0;
        while i < sites.len() {
            if i + 1 < sites.len() {
                let (a, b) = (name(&self.interner, &sites[i]), name(&self.interner, &sites[i + 1]));
                let merged = match (a.as_str(), b.as_str()) {
                    ("LOAD_FAST", "LOAD_FAST") if fast_pairs => Some("LOAD_FAST_LOAD_FAST"),
                    ("STORE_FAST", "LOAD_FAST") if fast_pairs => Some("STORE_FAST_LOAD_FAST"),
                    ("STORE_FAST", "STORE_FAST") if fast_pairs => Some("STORE_FAST_STORE_FAST"),
                    ("LOAD_CONST", "RETURN_VALUE") if return_const => Some("RETURN_CONST"),
                    _ => None,
                };
                if let Some(m) = merged {
                    let (x, y) = (sites[i], sites[i + 1]);
                    let operand = if m == "RETURN_CONST" {
                        x.operand_id()
                    } else {
                        let t = format!("{}, {}", self.interner.name(x.operand_id()), self.interner.name(y.operand_id()));
                        self.interner.intern(&t)
                    };
                    let fam = self.interner.intern(m);
                    let key = ((fam as u64) << 32) | operand as u64;
                    out.push(Site { start: x.start, end: y.end, primary: x.primary, spec: x.spec, key, tag: SiteTag::Plain, callee: 0 });
                    i += 2;
                    continue;
                }
            }
            out.push(sites[i]);
            i += 1;
        }
        *sites = out;
    }

    fn tag(&mut self, dump: &Dump, c: &CodeInfo, sites: &mut [Site]) {
        for i in 0..sites.len() {
            let f = sites[i].family_id();
            if f == self.fam_load_attr {
                sites[i].tag = SiteTag::AttrLoad;
            } else if f == self.fam_attr_other[0] {
                sites[i].tag = SiteTag::AttrStore;
            } else if f == self.fam_attr_other[1] {
                sites[i].tag = SiteTag::SuperAttr;
            } else if f == self.fam_subscr[0]
                || f == self.fam_subscr[1]
                || (f == self.fam_subscr[2] && sites[i].operand_id() == self.fam_subscr[3])
            {
                sites[i].tag = SiteTag::Subscr;
            } else if f == self.fam_call {
                if let Some(name) = called_name(dump, c, sites[i].primary as usize) {
                    sites[i].callee = self.interner.intern(name);
                }
                let before = &sites[i.saturating_sub(4)..i];
                let runs_comprehension = before.last().is_some_and(|s| s.family_id() == self.fam_make_iter[1])
                    && before.iter().any(|s| s.family_id() == self.fam_make_iter[0]);
                if runs_comprehension {
                    sites[i].tag = SiteTag::ComprehensionCall;
                    continue;
                }
                let line = c.instructions[sites[i].primary as usize].line;
                let method = sites[..i].iter().rev().take(16).find(|s| {
                    s.family_id() == self.fam_load_attr && c.instructions[s.primary as usize].line == line
                });
                if method.is_some_and(|m| self.subscript_methods.contains(&m.operand_id())) {
                    sites[i].tag = SiteTag::SubscriptCall;
                    continue;
                }
                if method.is_some_and(|m| m.operand_id() == self.setattr_method) {
                    sites[i].tag = SiteTag::SetattrCall;
                    continue;
                }
                let callee = sites[..i].iter().rev().take(16).find(|s| {
                    self.fam_global_loads.contains(&s.family_id())
                        && c.instructions[s.primary as usize].line == line
                });
                sites[i].tag = match callee.map(|s| s.operand_id()) {
                    Some(name) if name == self.getattr => SiteTag::GetattrCall,
                    Some(name) if name == self.setattr => SiteTag::SetattrCall,
                    _ => SiteTag::Call,
                };
            } else if f == self.fam_call_ex {
                sites[i].tag = SiteTag::Call;
                if let Some(name) = called_name(dump, c, sites[i].primary as usize) {
                    sites[i].callee = self.interner.intern(name);
                }
            }
        }
    }
}

fn has_return_const(version: (u32, u32)) -> bool {
    ((3, 12)..=(3, 13)).contains(&version)
}

/// A 3.11 `PRECALL` that specialized for a C callable performs the whole call (the `CALL`
/// after it never executes), so it stands for the site. `PRECALL_PYFUNC` and
/// `PRECALL_BOUND_METHOD` only prepare a Python call that `CALL` specializes.
fn precall_wins(dump: &Dump, c: &CodeInfo, precall: u32, call: u32) -> bool {
    let p = dump.op(&c.instructions[precall as usize]);
    let k = dump.op(&c.instructions[call as usize]);
    p.specialized && !k.specialized && !matches!(p.name.as_str(), "PRECALL_PYFUNC" | "PRECALL_BOUND_METHOD")
}

fn classify_op(op: &OpInfo, interner: &mut Interner) -> OpClass {
    let family = key_family(&op.name, &op.family);
    let role = match family.as_ref() {
        "PRECALL" => Role::Precall,
        "EXTENDED_ARG" | "CACHE" | "NOP" | "PUSH_NULL" | "KW_NAMES" | "LINE" | "INSTRUCTION"
        | "NOT_TAKEN" => Role::Fold,
        _ => Role::Primary,
    };
    let drop_operand = family == "MAKE_FUNCTION" || family == "JUMP" || op.counter == Some(CounterKind::Branch);
    OpClass { family: interner.intern(&family), role, drop_operand }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    fn dump(version: &str, ops: &[(&str, &str)]) -> Dump {
        let mut b = DumpBuilder::new(version);
        let mut c = b.code("m", "f", 1);
        for (op, arg) in ops {
            c = c.ins(op, arg, 1);
        }
        c.finish();
        b.build()
    }

    #[test]
    fn folded_instructions_join_the_next_site() {
        let d = dump("3.11.7", &[("EXTENDED_ARG", ""), ("LOAD_CONST", "1"), ("PRECALL_NO_KW_LEN", ""), ("CALL_ADAPTIVE", ""), ("NOP", "")]);
        let mut n = Normalizer::new(&d, &d);
        let s = n.sites(Side::Base, 0);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].start, s[0].end, s[0].primary), (0, 2, 1));
        assert_eq!((s[1].start, s[1].end, s[1].primary, s[1].spec), (2, 5, 3, 2), "PRECALL stands for the call; trailing NOP joins the last site");
        assert_eq!(n.family_name(s[1].key), "CALL");
    }

    #[test]
    fn pairs_merge_only_against_a_version_that_spells_them_as_one() {
        let old = dump("3.12.1", &[("LOAD_FAST__LOAD_FAST", "a"), ("LOAD_FAST", "b"), ("LOAD_CONST", "None"), ("RETURN_VALUE", "")]);
        let new = dump("3.13.0", &[("LOAD_FAST_LOAD_FAST", "a, b"), ("LOAD_CONST", "None"), ("RETURN_VALUE", "")]);
        let mut n = Normalizer::new(&old, &new);
        let (b, h) = (n.keys(Side::Base, 0), n.keys(Side::Head, 0));
        assert_eq!(b, h);
        let mut same = Normalizer::new(&old, &old);
        assert_eq!(same.keys(Side::Base, 0).len(), 4, "no merging between equal versions");
    }

    #[test]
    fn getattr_calls_are_tagged() {
        let d = dump("3.13.0", &[("LOAD_GLOBAL_BUILTIN", "getattr + NULL"), ("LOAD_FAST_LOAD_FAST", "p, key"), ("CALL_BUILTIN_FAST", ""), ("LOAD_ATTR_SLOT", "x")]);
        let mut n = Normalizer::new(&d, &d);
        let tags: Vec<SiteTag> = n.sites(Side::Base, 0).iter().map(|s| s.tag).collect();
        assert_eq!(tags, [SiteTag::Plain, SiteTag::Plain, SiteTag::GetattrCall, SiteTag::AttrLoad]);
    }
}
