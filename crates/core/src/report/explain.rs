//! Explanation rules: small, independent checks that recognize a common cause of a change
//! and return one English sentence, or `None`. [`explain`] tries them in a fixed order and
//! keeps the first answer. Each rule is described (and its evidence cited) in
//! `docs/engine.md`, "Explanations".

use std::cell::OnceCell;
use std::collections::HashMap;

use litemap::LiteMap;

use crate::engine::classify::{Change, ChangeKind, SiteView};
use crate::cpython::counters::CounterState;
use crate::model::dump::{CodeKind, Dump};
use crate::engine::matching::{identity, Matching};
use crate::cpython::normalize::{key_family, Key, Normalizer, Side, Site};

/// Facts about a program pair that rules need beyond one site, computed once per diff.
#[derive(Debug)]
pub(crate) struct ExplainContext<'a> {
    base: &'a Dump,
    head: &'a Dump,
    head_version: (u32, u32),
    /// Head classes whose body stores `__getattr__` while base's body of the same class does not.
    getattr_classes: Vec<String>,
    /// Per module: global writes (STORE/DELETE_GLOBAL, module-level STORE/DELETE_NAME in a loop)
    /// that head has and base does not. Made when a rule first asks (it reads every
    /// instruction of both dumps, and most diffs have no `LOAD_GLOBAL` change).
    global_writes: OnceCell<LiteMap<String, Vec<GlobalWrite>>>,
    /// Added head comprehension-like code objects, by the head index of their parent.
    added_children: HashMap<u32, Vec<(String, u32, Vec<Key>)>>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct GlobalWrite {
    code: String,
    name: String,
    in_loop: bool,
    delete: bool,
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

impl<'a> ExplainContext<'a> {
    /// Precomputes the program-wide facts.
    pub(crate) fn new(norm: &mut Normalizer<'a>, matching: &Matching) -> Self {
        let (base, head) = (norm.dump(Side::Base), norm.dump(Side::Head));
        let base_getattr = getattr_class_bodies(base);
        let mut getattr_classes = getattr_class_bodies(head);
        getattr_classes.retain(|c| base_getattr.binary_search(c).is_err());
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
            head_version: head.python.minor_version(),
            getattr_classes,
            global_writes: OnceCell::new(),
            added_children,
        }
    }

    fn global_writes(&self) -> &LiteMap<String, Vec<GlobalWrite>> {
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

/// The first rule that recognizes the change's cause.
pub(crate) fn explain(ctx: &ExplainContext, f: &Facts) -> Option<String> {
    not_run(f)
        .or_else(|| getattr_call(f))
        .or_else(|| call_form(f))
        .or_else(|| moved_into_comprehension(ctx, f))
        .or_else(|| int_float_mixing(f))
        .or_else(|| globals_written(ctx, f))
        .or_else(|| class_gained_getattr(ctx, f))
        .or_else(|| receiver_types_vary(f))
}

fn is(k: ChangeKind, kinds: &[ChangeKind]) -> bool {
    kinds.contains(&k)
}

/// Lost at a site head did not run (enough): a change of the workload, not of the code.
pub(crate) fn not_run(f: &Facts) -> Option<String> {
    let h = f.head?.counter()?;
    // `lost` only on a rewritten row; a site head did not run is `minor` (classify.rs rule 3).
    let lost_unrun = f.change.kind == ChangeKind::Minor && f.base.is_some_and(|b| b.specialized());
    if f.change.kind != ChangeKind::Lost && !lost_unrun {
        return None;
    }
    match h.state {
        CounterState::Cold => Some("this site did not run in head (its counter is untouched), so it was never specialized".into()),
        CounterState::Warming => Some(
            "this site ran too few times in head to be specialized (no specialization attempt yet; CPython 3.12+ first tries on its second execution)".into(),
        ),
        _ => None,
    }
}

/// `x.a` became `getattr(x, name)`.
pub(crate) fn getattr_call(f: &Facts) -> Option<String> {
    if f.change.row_kind != crate::engine::align::RowKind::Rewritten || f.change.kind != ChangeKind::Lost {
        return None;
    }
    let attr = f.change.operand.as_deref().unwrap_or("attr");
    let i = f.head_index?;
    let prev = f.head_sites.get(i.checked_sub(1)?)?;
    let h = f.head?;
    let prev_ins = &h.code.instructions[prev.primary as usize];
    let op = h.dump.op(prev_ins);
    let arg = h.dump.str(prev_ins.argrepr);
    let last = arg.rsplit(", ").next().unwrap_or(arg);
    let constant = matches!(key_family(&op.name, &op.family).as_ref(), "LOAD_CONST");
    Some(if constant {
        format!("the attribute load `.{attr}` became a getattr() call (with the constant name {last}); a builtin call is not specialized like an attribute load")
    } else {
        format!("the attribute load `.{attr}` became getattr(…, {last}) with a dynamic (non-constant) name; a getattr() call is not specialized like an attribute load")
    })
}

/// A call's form changed with its arguments: keyword arguments (`CALL_KW` on 3.13+,
/// `KW_NAMES` before) or `*args`/`**kwargs` (`CALL_FUNCTION_EX`), added or removed.
pub(crate) fn call_form(f: &Facts) -> Option<String> {
    if !is(f.change.kind, &[ChangeKind::Lost, ChangeKind::Gained, ChangeKind::Changed]) {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    let (fb, fh) = (call_form_of(&b)?, call_form_of(&h)?);
    if fb == fh {
        return None;
    }
    let (major, minor) = h.rules.version;
    let tail = match f.change.kind {
        ChangeKind::Lost if !h.is_site() => format!("; CPython {major}.{minor} has no specialization for that form of call"),
        ChangeKind::Lost if fh == CallForm::Keywords && h.rules.version <= (3, 12) => {
            format!("; CPython {major}.{minor} specializes calls with keyword arguments only for builtin functions and methods")
        }
        ChangeKind::Lost => "; that form of call stayed generic here".to_string(),
        _ => String::new(),
    };
    Some(format!("the call now {} where it {} in base{tail}", fh.now(), fb.then()))
}

/// How a call passes its arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CallForm {
    Positional,
    Keywords,
    Unpacked,
}

impl CallForm {
    fn now(self) -> &'static str {
        match self {
            CallForm::Positional => "passes its arguments positionally",
            CallForm::Keywords => "passes keyword arguments",
            CallForm::Unpacked => "unpacks its arguments with * or ** (CALL_FUNCTION_EX)",
        }
    }
    fn then(self) -> &'static str {
        match self {
            CallForm::Positional => "passed them positionally",
            CallForm::Keywords => "passed keyword arguments",
            CallForm::Unpacked => "unpacked them with * or **",
        }
    }
}

/// The form of the call at site `v`, by its instructions' families (`key_family`, which keys
/// 3.13's `CALL_KW` as `CALL`, so that one is told by its own family first); `None` when it
/// is no call.
fn call_form_of(v: &SiteView) -> Option<CallForm> {
    let family = |i: &crate::model::dump::Instruction| {
        let op = v.dump.op(i);
        key_family(&op.name, &op.family)
    };
    let primary = v.dump.op(&v.code.instructions[v.site.primary as usize]);
    let ins = &v.code.instructions[v.site.start as usize..v.site.end as usize];
    match family(&v.code.instructions[v.site.primary as usize]).as_ref() {
        "CALL_FUNCTION_EX" => Some(CallForm::Unpacked),
        "CALL" if primary.family.ends_with("CALL_KW") || ins.iter().any(|i| family(i) == "KW_NAMES") => Some(CallForm::Keywords),
        "CALL" => Some(CallForm::Positional),
        _ => None,
    }
}

/// The code moved into a generator expression or comprehension with its own code object.
pub(crate) fn moved_into_comprehension(ctx: &ExplainContext, f: &Facts) -> Option<String> {
    if !is(f.change.kind, &[ChangeKind::Removed, ChangeKind::Lost]) || f.head.is_some() {
        return None;
    }
    let key = f.base_key?;
    let children = ctx.added_children.get(&f.head_code?)?;
    let (name, line, _) = children.iter().find(|(_, _, keys)| keys.binary_search(&key).is_ok())?;
    Some(format!("this code moved into `{name}` (line {line}), a separate code object added in head; its sites are reported there"))
}

/// `BINARY_OP_*_INT` / `*_FLOAT` lost or switched: operands mix int and float.
pub(crate) fn int_float_mixing(f: &Facts) -> Option<String> {
    if !is(f.change.kind, &[ChangeKind::Lost, ChangeKind::Changed, ChangeKind::Churning, ChangeKind::BackedOff]) {
        return None;
    }
    if !matches!(f.change.family.as_str(), "BINARY_OP" | "COMPARE_OP") {
        return None;
    }
    // ASCII names: `to_ascii_lowercase` keeps Unicode's case tables out of the web viewer.
    let ty = |n: &str| ["INT", "FLOAT"].into_iter().find(|t| n.split('_').any(|p| p == *t));
    let base = f.change.base.as_deref()?;
    let head = f.change.head.as_deref()?;
    let op = f.change.operand.as_deref().map(|o| format!("`{o}` ")).unwrap_or_default();
    match (ty(base), ty(head)) {
        (Some(a), Some(b)) if a != b => Some(format!(
            "{op}now works on {} where it worked on {} ({base} → {head}): int/float mixing",
            b.to_ascii_lowercase(),
            a.to_ascii_lowercase()
        )),
        (Some(a), None) => Some(format!(
            "int/float mixing: {op}was specialized for {} operands ({base}) and now sees mixed or other types; BINARY_OP specializes only when both operands are int or both float",
            a.to_ascii_lowercase()
        )),
        _ if f.change.kind == ChangeKind::Churning && ty(base).is_some() => {
            Some(format!("int/float mixing: {op}flips between int and float specializations"))
        }
        _ => None,
    }
}

/// `LOAD_GLOBAL` deoptimized in a module whose globals head creates or deletes in a loop.
pub(crate) fn globals_written(ctx: &ExplainContext, f: &Facts) -> Option<String> {
    if !is(f.change.kind, &[ChangeKind::Lost, ChangeKind::Missing, ChangeKind::Churning, ChangeKind::BackedOff]) {
        return None;
    }
    if f.change.family != "LOAD_GLOBAL" {
        return None;
    }
    let v = f.head.or(f.base)?;
    let module = identity(v.dump, v.code).0;
    let writes = ctx.global_writes().get(&module)?;
    let name = f.change.operand.as_deref()?;
    let w = writes
        .iter()
        .find(|w| w.name == name)
        .or_else(|| writes.iter().find(|w| w.in_loop))?;
    let verb = if w.delete { "deletes" } else { "assigns" };
    let place = if w.in_loop { " in a loop" } else { "" };
    Some(format!(
        "`{}` {verb} the global `{}`{place} (new in head); creating or deleting module globals changes the module dict's keys, so LOAD_GLOBAL specializations miss (re-assigning an existing global does not)",
        w.code, w.name
    ))
}

/// 3.11: attribute loads are not specialized on instances of a class with `__getattr__`.
pub(crate) fn class_gained_getattr(ctx: &ExplainContext, f: &Facts) -> Option<String> {
    if f.change.kind != ChangeKind::Lost || ctx.head_version != (3, 11) || ctx.getattr_classes.is_empty() {
        return None;
    }
    if !matches!(f.change.family.as_str(), "LOAD_ATTR" | "LOAD_METHOD") {
        return None;
    }
    let list: Vec<String> = ctx.getattr_classes.iter().take(3).map(|c| format!("`{c}`")).collect();
    Some(format!(
        "probably {} gained `__getattr__` in head: CPython 3.11 does not specialize attribute loads on instances of classes that define `__getattr__`",
        list.join(", ")
    ))
}

/// Attribute/call sites that see several receiver types.
pub(crate) fn receiver_types_vary(f: &Facts) -> Option<String> {
    let fam = f.change.family.as_str();
    if !matches!(fam, "LOAD_ATTR" | "LOAD_METHOD" | "STORE_ATTR" | "CALL" | "LOAD_SUPER_ATTR" | "PRECALL") {
        return None;
    }
    let c = f.change;
    match c.kind {
        ChangeKind::Churning => {
            let seen = c.head_churn.as_ref().map(|ch| ch.seen.join(", ")).unwrap_or_default();
            let n = c.head_churn.as_ref().map_or(0, |ch| ch.effective_flips);
            Some(format!("the receiver's type varies at this site: it changed specialization {n} times while sampled ({seen})"))
        }
        // The miss count itself leads the sentence (wording::evidence).
        ChangeKind::Missing => Some("the receiver's type varies at this site".to_string()),
        ChangeKind::Lost | ChangeKind::BackedOff if c.head_counter.is_some_and(|k| k.failures() > 0) => Some(
            "the receiver's type varies at this site (polymorphic): it deoptimized and specialization attempts now fail".to_string(),
        ),
        _ => None,
    }
}

/// Class bodies (by `module.qualname`) that store `__getattr__`, sorted, without repeats.
fn getattr_class_bodies(d: &Dump) -> Vec<String> {
    let mut out = Vec::new();
    for c in d.code.iter().filter(|c| c.kind == CodeKind::Class) {
        let stores = c.instructions.iter().any(|i| d.op(i).family == "STORE_NAME" && d.str(i.argrepr) == "__getattr__");
        if stores {
            let (m, q) = identity(d, c);
            out.push(format!("{m}.{q}"));
        }
    }
    crate::util::sort::sort_by(&mut out, String::cmp);
    out.dedup();
    out
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
        let target = repr
            .strip_prefix("to ")
            .and_then(|t| t.parse::<u32>().ok())
            .or_else(|| (i.offset + 2 + 2 * i.cache.len() as u32).checked_sub(2 * i.arg?));
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

    fn change(kind: ChangeKind, family: &str, base: &str, head: &str) -> Change {
        Change { operand: Some("+".into()), ..Change::for_test(kind, family, (Some(base), Some(head)), (Some(1), Some(1))) }
    }


    fn facts(c: &Change) -> Facts<'_> {
        Facts { change: c, base: None, head: None, head_sites: &[], head_index: None, head_code: None, base_key: None }
    }

    #[test]
    fn int_float_rule() {
        let c = change(ChangeKind::Lost, "BINARY_OP", "BINARY_OP_ADD_INT", "BINARY_OP");
        assert!(int_float_mixing(&facts(&c)).unwrap().starts_with("int/float mixing: `+` was specialized for int"));
        let c = change(ChangeKind::Changed, "BINARY_OP", "BINARY_OP_ADD_INT", "BINARY_OP_ADD_FLOAT");
        assert!(int_float_mixing(&facts(&c)).unwrap().contains("now works on float where it worked on int"));
        let c = change(ChangeKind::Lost, "BINARY_OP", "BINARY_OP_ADD_UNICODE", "BINARY_OP");
        assert_eq!(int_float_mixing(&facts(&c)), None);
        let c = change(ChangeKind::Lost, "LOAD_ATTR", "LOAD_ATTR_SLOT", "LOAD_ATTR");
        assert_eq!(int_float_mixing(&facts(&c)), None);
    }

    #[test]
    fn receiver_rule_needs_evidence() {
        let mut c = change(ChangeKind::Missing, "LOAD_ATTR", "LOAD_ATTR_SLOT", "LOAD_ATTR_SLOT");
        assert!(receiver_types_vary(&facts(&c)).unwrap() == "the receiver's type varies at this site");
        c.kind = ChangeKind::Lost;
        assert_eq!(receiver_types_vary(&facts(&c)), None, "a loss without failing attempts says nothing about types");
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
