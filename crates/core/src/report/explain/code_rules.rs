//! Rules that read the code around a change: a site that did not run, an attribute load
//! turned into `getattr()`, a call whose argument form changed, code moved into a
//! comprehension, module globals created in a loop, a class that gained `__getattr__`.

use crate::cpython::counters::CounterState;
use crate::cpython::facts::{cpython, specializes, Shape};
use crate::cpython::normalize::{key_family, SiteTag};
use crate::engine::align::RowKind;
use crate::engine::classify::{Cause, ChangeKind, SiteView};
use crate::engine::matching::identity;

use super::context::{ExplainContext, Facts};

/// Lost at a site head did not run (enough): a change of the workload, not of the code.
pub(super) fn not_run(f: &Facts) -> Option<(Cause, String)> {
    let h = f.head?.counter()?;
    // `lost` only on a rewritten row; a site head did not run is `minor` (classify/mod.rs rule 3).
    let lost_unrun = f.change.kind == ChangeKind::Minor && f.base.is_some_and(|b| b.specialized());
    if f.change.kind != ChangeKind::Lost && !lost_unrun {
        return None;
    }
    // A site whose form changed while head ran did run, whatever its counter reads now: a
    // deopt resets it (pycparser 2.22's `RESUME_CHECK` → `RESUME` on 3.15 read as untouched).
    let head_op = &f.head?.op().name;
    if f.change.head_churn.as_ref().is_some_and(|ch| ch.seen.iter().any(|seen| seen != head_op)) {
        return None;
    }
    // Nor did a site a trace ran in head sit idle: a trace's recording resets the counter.
    if f.head?.in_trace() {
        return None;
    }
    let version = f.head?.rules.version;
    let why = match h.state {
        CounterState::Cold => "this site did not run in head (its counter is untouched), so it was never specialized".to_string(),
        CounterState::Warming => {
            // From the measured warm-up: generic after one run, specialized after two.
            let when = match (specializes(version, Shape::AttrLoadAfter1Run), specializes(version, Shape::AttrLoadAfter2Runs)) {
                (Some(false), Some(true)) => format!("; {} first tries on its second execution", cpython(version)),
                _ => String::new(),
            };
            format!("this site ran too few times in head to be specialized (no specialization attempt yet{when})")
        }
        _ => return None,
    };
    Some((Cause::NotRun, why))
}

/// A `modified` row pairing sites that name different things (classified `changed` or
/// `unchanged`: [`crate::engine::classify::other_operation`]): say what each side does, and that
/// their counters are not compared.
pub(super) fn other_operation(f: &Facts) -> Option<(Cause, String)> {
    let (b, h) = (f.base?, f.head?);
    if f.change.kind != ChangeKind::Changed || f.change.row_kind != RowKind::Modified || !crate::engine::classify::other_operation(&b, &h) {
        return None;
    }
    let (ob, oh) = (b.operand()?, h.operand()?);
    let what = match h.family() {
        "LOAD_GLOBAL" | "LOAD_NAME" => "global",
        "BINARY_OP" | "COMPARE_OP" | "CONTAINS_OP" => "operator",
        _ if h.site.tag.is_attribute_access() => "attribute",
        _ => "operand",
    };
    Some((Cause::OtherOperation, format!("another operation: head's site uses the {what} `{oh}` where base's used `{ob}`, so their counters are not compared")))
}

/// A pair of calls of different names on different statements (classified `changed` at most:
/// [`crate::engine::classify::calls_another`]): say which names, and that their counters are
/// not compared. After the rules that know why a call moved (into a comprehension's code).
pub(super) fn other_callee(f: &Facts) -> Option<(Cause, String)> {
    let (b, h) = (f.base?, f.head?);
    if f.change.kind != ChangeKind::Changed || !crate::engine::classify::calls_another(&b, &h) {
        return None;
    }
    let (cb, ch) = (b.callee_name()?, h.callee_name()?);
    let why = format!("another operation: head's site calls `{ch}` where base's called `{cb}`, on another statement, so their counters are not compared");
    Some((Cause::OtherOperation, why))
}

/// Head's line no longer calls what made the site's operand (classified `changed`, not lost:
/// [`crate::engine::classify::call_dropped`]): say which call went, and that the site's
/// generic form is the price of less work.
pub(super) fn less_work(f: &Facts) -> Option<(Cause, String)> {
    let (b, h) = (f.base?, f.head?);
    if f.change.kind != ChangeKind::Changed || !b.specialized() || h.specialized() {
        return None;
    }
    let (tb, th) = (b.source_text()?, h.source_text()?);
    let calls = |line| -> Vec<String> { super::callee_rules::called_names(line).into_iter().map(|(n, _)| format!("`{n}()`")).collect() };
    let (then, now) = (calls(tb), calls(th));
    if !crate::engine::classify::call_dropped(&b, &h) {
        if !crate::engine::classify::operand_remade(&b, &h) {
            return None;
        }
        let new: Vec<&String> = now.iter().filter(|n| !then.contains(n)).collect();
        let old: Vec<&String> = then.iter().filter(|n| !now.contains(n)).collect();
        if new.is_empty() {
            return None;
        }
        let join = |v: Vec<&String>| v.into_iter().map(String::as_str).collect::<Vec<_>>().join(", ");
        let was = if old.is_empty() { String::new() } else { format!(" where it was made by {}", join(old)) };
        return Some((
            Cause::OperandRemade,
            format!(
                "{} is now made by {}{was} (`{tb}` → `{th}`): the code changed, and the dumps cannot tell whether the new code is slower ({} where base had {})",
                if f.change.family == "FOR_ITER" { "the iterable" } else { "the operand" },
                join(new),
                h.op().name,
                b.op().name
            ),
        ));
    }
    let gone: Vec<&String> = then.iter().filter(|n| !now.contains(n)).collect();
    let what = if gone.is_empty() { "a call".to_string() } else { gone.into_iter().map(String::as_str).collect::<Vec<_>>().join(", ") };
    Some((
        Cause::LessWork,
        format!(
            "head no longer calls {what} to make this operand (`{tb}` → `{th}`): less work than base, though {} is generic where base had {}",
            h.op().name,
            b.op().name
        ),
    ))
}

/// The function assigns a `super()` object to a name (`parent = super()`), as its source shows.
fn keeps_super(v: &SiteView) -> bool {
    let file = v.code.file;
    let last = v.code.instructions.iter().filter_map(|i| i.line).max().unwrap_or(v.code.first_line);
    (v.code.first_line..=last).filter_map(|l| v.dump.source_line(file, l)).any(|text| {
        text.split_once('=').is_some_and(|(target, value)| {
            !target.contains(['(', '=', '!', '<', '>']) && value.trim_start().starts_with("super(")
        })
    })
}

/// `x.a` became `getattr(x, name)`.
pub(super) fn getattr_call(f: &Facts) -> Option<(Cause, String)> {
    let subscript = f.base.is_some_and(|b| b.site.tag == SiteTag::Subscr) || f.head.is_some_and(|h| h.site.tag == SiteTag::Subscr);
    let kinds: &[ChangeKind] = if subscript { &[ChangeKind::Lost, ChangeKind::Changed, ChangeKind::Gained] } else { &[ChangeKind::Lost] };
    if f.change.row_kind != crate::engine::align::RowKind::Rewritten || !f.kind_is(kinds) {
        return None;
    }
    let attr = f.change.operand.as_deref().unwrap_or("attr");
    let h = f.head?;
    match (f.base.map(|b| b.site.tag), h.site.tag) {
        (Some(SiteTag::SuperAttr), SiteTag::AttrLoad) => {
            // Only where head keeps a `super()` object in a variable (tomlkit's
            // `super().__new__(cls, v)` → `int.__new__(cls, v)` keeps none).
            if !keeps_super(&h) {
                return None;
            }
            let version = h.rules.version;
            let rule = match specializes(version, Shape::SuperMethodOneExpression) {
                Some(true) => format!("; {} specializes `super().attr` only written in one expression (LOAD_SUPER_ATTR)", cpython(version)),
                _ => String::new(),
            };
            return Some((
                Cause::SuperProxy,
                format!("`super().{attr}` became a load of `.{attr}` from a `super()` object kept in a variable{rule}"),
            ));
        }
        (Some(SiteTag::Subscr), SiteTag::SubscriptCall) | (Some(SiteTag::SubscriptCall), SiteTag::Subscr) => {
            return subscript_call(f);
        }
        (_, SiteTag::SetattrCall) => {
            // `object.__setattr__(self, "x", v)`: the method loaded on the call's line (the
            // normalizer tagged the call by it; the arguments' loads come in between).
            let line = h.line();
            let dunder = f.head_index.and_then(|i| f.head_sites.get(i.saturating_sub(16)..i)).is_some_and(|before| {
                before.iter().any(|s| {
                    let ins = &h.code.instructions[s.primary as usize];
                    ins.line == line && h.dump.str(ins.argrepr).contains("__setattr__")
                })
            });
            let call = if dunder { "a call of `__setattr__` (as a frozen dataclass's `__init__` does)" } else { "a setattr() call" };
            return Some((
                Cause::SetattrCall,
                format!("the attribute store `.{attr} = …` became {call}; a call is not specialized like an attribute store"),
            ));
        }
        // Only a call of the builtin `getattr` is one (issue 29: a 3.13 `CALL_KW` paired with
        // base's `args.get("cube", [])` was "a getattr() call with the constant name ('key',)").
        (_, SiteTag::GetattrCall) => {}
        _ => return None,
    }
    let i = f.head_index?;
    let prev = f.head_sites.get(i.checked_sub(1)?)?;
    let prev_ins = &h.code.instructions[prev.primary as usize];
    let op = h.dump.op(prev_ins);
    let arg = h.dump.str(prev_ins.argrepr);
    let last = arg.rsplit(", ").next().unwrap_or(arg);
    let constant = matches!(key_family(&op.name, &op.family).as_ref(), "LOAD_CONST");
    let why = if constant {
        format!("the attribute load `.{attr}` became a getattr() call (with the constant name {last}); a builtin call is not specialized like an attribute load")
    } else {
        format!("the attribute load `.{attr}` became getattr(…, {last}) with a dynamic (non-constant) name; a getattr() call is not specialized like an attribute load")
    };
    Some((Cause::GetattrCall, why))
}

/// A subscript (`d[k]`, `d[k] = v`) became a call of a method doing its work (`d.get(k)`,
/// `d.__setitem__(k, v)`), or the reverse: the method is named from its load on the line.
fn subscript_call(f: &Facts) -> Option<(Cause, String)> {
    let (b, h) = (f.base?, f.head?);
    let call = if h.site.tag == SiteTag::SubscriptCall { h } else { b };
    let line = call.line();
    let method = call.code.instructions[..call.site.start as usize]
        .iter()
        .filter(|i| i.line == line && key_family(&call.dump.op(i).name, &call.dump.op(i).family) == "LOAD_ATTR")
        .map(|i| crate::cpython::normalize::normalize_argrepr(call.dump.str(i.argrepr)))
        .next_back()?;
    let why = if call.site.tag == h.site.tag {
        format!(
            "the subscript ({}) became a `.{method}(…)` call ({}): a method call specializes as a call, not as the container's lookup",
            b.op().name,
            h.op().name
        )
    } else {
        format!("the `.{method}(…)` call ({}) became a subscript ({}), which specializes for the container's type", b.op().name, h.op().name)
    };
    Some((Cause::SubscriptCall, why))
}

/// The two sites' lines call the same names (`f(`, `.m(`), as far as their source shows: a
/// paired call whose line calls other things is another call, whatever its form (issue 29:
/// sqlglot's `self.sql(…)` paired with `self.maybe_comment(op, comments=…)`).
fn same_calls(b: &SiteView, h: &SiteView) -> bool {
    fn names<'a>(v: &SiteView<'a>) -> Option<Vec<&'a str>> {
        let mut n: Vec<&str> = super::callee_rules::called_names(v.source_text()?).into_iter().map(|(n, _)| n).collect();
        n.sort_unstable();
        n.dedup();
        Some(n)
    }
    match (names(b), names(h)) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// A call's form changed with its arguments: keyword arguments (`CALL_KW` on 3.13+,
/// `KW_NAMES` before) or `*args`/`**kwargs` (`CALL_FUNCTION_EX`), added or removed.
pub(super) fn call_form(f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost, ChangeKind::Gained, ChangeKind::Changed]) {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    let (fb, fh) = (call_form_of(&b)?, call_form_of(&h)?);
    if fb == fh || !same_calls(&b, &h) {
        return None;
    }
    let version = h.rules.version;
    let (major, minor) = version;
    let tail = match f.change.kind {
        ChangeKind::Lost if !h.is_site() => format!("; CPython {major}.{minor} has no specialization for that form of call"),
        // Only where base called a Python function (docutils' `list.sort()` → `sort(reverse=True)`
        // on 3.12 is a C method's call: the measured fact says nothing about it).
        ChangeKind::Lost
            if fh == CallForm::Keywords
                && ["CALL_PY_", "CALL_BOUND_METHOD_"].iter().any(|p| b.op().name.starts_with(p))
                && specializes(version, Shape::PyCallWithKeywords) == Some(false) =>
        {
            format!("; {} has no specialized call of a Python function with keyword arguments", cpython(version))
        }
        ChangeKind::Lost => "; that form of call stayed generic here".to_string(),
        _ => String::new(),
    };
    // A call with no arguments passes none, not "them positionally" (docutils' `sort()` →
    // `sort(reverse=True)`).
    let none = |v: &SiteView, form: CallForm| form == CallForm::Positional && v.primary().arg == Some(0);
    let then = if none(&b, fb) { "passed none" } else { fb.then() };
    if fb == CallForm::Unpacked && call_arguments(&b)?.unpacks == 0 {
        return None; // Base's many arguments, not an unpacking: not worded here.
    }
    let now = match fh {
        _ if none(&h, fh) => "passes no arguments".to_string(),
        CallForm::Unpacked => {
            // The compiler also calls with CALL_FUNCTION_EX when the arguments are too many
            // for the stack (positional + 2 per keyword > 30): attrs 23.2's `_CountingAttr(…)`
            // with a 16th keyword. The source tells the two apart; without it, say nothing.
            let args = call_arguments(&h)?;
            if args.unpacks > 0 {
                fh.now().to_string()
            } else if args.positional + 2 * args.keywords > 30 {
                format!(
                    "passes {} keyword and {} positional arguments, too many for the compiler to pass on the stack, so it collects them (positional ones in a tuple, keywords in a dict) and calls with CALL_FUNCTION_EX",
                    args.keywords, args.positional
                )
            } else {
                return None;
            }
        }
        _ => fh.now().to_string(),
    };
    Some((Cause::CallForm, format!("the call now {now} where it {then} in base{tail}")))
}

/// A call's arguments as its source shows them.
struct CallArguments {
    positional: usize,
    keywords: usize,
    /// `*x` and `**x` among them.
    unpacks: usize,
}

/// The arguments of the call at site `v`, read from the source span of its call instruction
/// (its positions cover the whole call expression); `None` without the source, or when the
/// span does not end with the call's own parentheses.
///
/// A dump keeps the source lines where instructions start, so a line of the span it lacks
/// holds no argument's code: a closing `)` alone, as black writes long calls. It is read as
/// that, and a span that then does not close is not read at all.
fn call_arguments(v: &SiteView) -> Option<CallArguments> {
    let ins = v.primary();
    let (line, (end_line, col, end_col)) = (ins.line?, ins.pos?);
    let (end_line, col, end_col) = (end_line?, col? as usize, end_col? as usize);
    let mut text = String::new();
    let mut missing = false;
    for l in line..=end_line.min(line.saturating_add(200)) {
        let Some(src) = v.dump.source_line(v.code.file, l) else {
            if l == line {
                return None; // The call's own start: nothing to read.
            }
            missing = true;
            continue;
        };
        let end = if l == end_line { end_col.min(src.len()) } else { src.len() };
        let start = if l == line { col.min(end) } else { 0 };
        text.push_str(src.get(start..end)?);
        text.push(' ');
    }
    if missing && !text.trim_end().ends_with(')') {
        text.push(')');
    }
    let open = text.find('(')?;
    let (items, close) = super::program::bracketed(&text[open + 1..])?;
    if !text[open + 1 + close + 1..].trim().is_empty() {
        return None; // `f(x)(y)`: the first parentheses are not this call's.
    }
    let keyword = |i: &&str| {
        let name = i.split('=').next().unwrap_or("");
        i.contains('=') && !i.starts_with('*') && !i.contains("==") && name.trim().bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let unpacks = items.iter().filter(|i| i.starts_with('*')).count();
    let keywords = items.iter().filter(|i| keyword(i)).count();
    Some(CallArguments { positional: items.len() - keywords - unpacks, keywords, unpacks })
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
            // "Them" would say the same arguments moved; jinja2 3.1's template call only added
            // a keyword (`…, _loop_vars=_loop_vars)`).
            CallForm::Positional => "passed only positional arguments",
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
pub(super) fn moved_into_comprehension(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    let children = ctx.added_children.get(&f.head_code?)?;
    if let Some(h) = f.head {
        // The head call runs a comprehension added on its line (3.11 `<listcomp>`, any
        // `<genexpr>`): base's call it is paired with moved inside.
        let calls = ["CALL", "CALL_KW", "PRECALL"];
        if !calls.contains(&f.change.family.as_str()) || f.change.kind == ChangeKind::Added {
            return None;
        }
        let line = h.line()?;
        // A lambda on the line is no loop the call runs (issue 29: sqlglot's
        // `expression.walk(prune=lambda n: …)` read as "the loop moved into `<lambda>`").
        let (name, _, _) = children.iter().find(|(n, l, _)| *l == line && !n.ends_with("<lambda>"))?;
        let why = format!("the loop moved into `{name}` (line {line}), a separate code object added in head; this call now runs it (or consumes it), and the calls that were here are inside it");
        return Some((Cause::MovedIntoComprehension, why));
    }
    if !f.kind_is(&[ChangeKind::Removed, ChangeKind::Lost]) {
        return None;
    }
    let key = f.base_key?;
    let (name, line, _) = children.iter().find(|(_, _, keys)| keys.binary_search(&key).is_ok())?;
    let why = format!("this code moved into `{name}` (line {line}), a separate code object added in head; its sites are reported there");
    Some((Cause::MovedIntoComprehension, why))
}

/// An attribute load lost its method form because the call on its line now unpacks `*`/`**`
/// (`CALL_FUNCTION_EX` takes a callable, so the method is loaded bound).
pub(super) fn method_load_for_unpacked_call(f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost, ChangeKind::Changed]) || !matches!(f.change.family.as_str(), "LOAD_ATTR" | "LOAD_METHOD") {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    let unpacks = |v: &SiteView| {
        let line = v.line();
        v.code.instructions.iter().any(|i| i.line == line && v.dump.op(i).family == "CALL_FUNCTION_EX")
    };
    if !unpacks(&h) || unpacks(&b) {
        return None;
    }
    let attr = f.change.operand.as_deref().unwrap_or("attr");
    Some((
        Cause::CallForm,
        format!("the call on this line now unpacks its arguments with * or ** (CALL_FUNCTION_EX), so `.{attr}` is loaded as a bound method instead of a method and `self` apart"),
    ))
}

/// `LOAD_GLOBAL` deoptimized in a module whose globals head creates or deletes in a loop.
pub(super) fn globals_written(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost, ChangeKind::Missing, ChangeKind::Churning, ChangeKind::BackedOff]) {
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
    let why = format!(
        "`{}` {verb} the global `{}`{place} (new in head); creating or deleting module globals changes the module dict's keys, so LOAD_GLOBAL specializations miss (re-assigning an existing global does not)",
        w.code, w.name
    );
    Some((Cause::GlobalsWritten, why))
}
