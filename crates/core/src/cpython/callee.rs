//! Which name a call calls, as its code object shows it.
//!
//! Every CPython 3.11–3.15 call is built the same way: a load that pushes the callable with the
//! `NULL` (or `self`) slot a call needs, its arguments, then the call. The load is
//! `LOAD_GLOBAL f + NULL`, `LOAD_ATTR m + NULL|self` (3.11's `LOAD_METHOD m`), or
//! `LOAD_SUPER_ATTR m + NULL|self`; any other callable (a local, a call's result, a subscript)
//! gets a bare `PUSH_NULL`, which names nothing. A `with` statement's calls are named by what
//! pushed their callables: `BEFORE_WITH` (3.11–3.13) pushes the bound `__exit__` that the call
//! at the block's end calls; 3.14's `LOAD_SPECIAL __exit__` and `LOAD_SPECIAL __enter__` push
//! the two methods, each with its `self`. Reading back from a call, each call met
//! closes one such load, so the load left open is the call's own. The name is kept only when
//! that load starts on the line where the call starts: the call's span is the callee
//! expression followed by the arguments, so anything else is a code shape this reading does
//! not know, and nothing is said.
//!
//! The aligner uses the name to pair a call with the call of the same name (docutils
//! 0.18 → 0.21: `self.transforms.sort(); self.transforms.reverse()` became
//! `self.transforms.sort(reverse=True)`, and the keyword call paired with `reverse()`), and the
//! classifier to tell two calls of different things apart.

use crate::model::dump::{CodeInfo, Dump, Instruction};

use super::spelling::strip_null_marks;

/// How far back a call's callable load is looked for, in instructions: far more than any call
/// with readable arguments needs, and a bound on the work per call.
const LOOK_BACK: usize = 256;

/// The name called by the call at instruction `call` of `code`, when a load that starts where
/// the call starts pushed it: `f` for `f(x)`, `sort` for `self.items.sort(reverse=True)`,
/// `reset` for `super().reset()`. `None` for any other callee or shape.
pub(crate) fn called_name<'a>(dump: &'a Dump, code: &CodeInfo, call: usize) -> Option<&'a str> {
    let (load, name) = callable_of(dump, code, call)?;
    let name = match name {
        Some(name) => attributes_after(dump, &code.instructions, load).unwrap_or(name),
        None => loaded_before_null(dump, &code.instructions, load)?,
    };
    same_start(&code.instructions[load], &code.instructions[call]).then_some(name)
}

/// 3.12 calls a module's function with the `NULL` pushed by the module's load and plain
/// attribute loads after it (`itertools.chain(…)`: `LOAD_GLOBAL NULL + itertools`, `LOAD_ATTR
/// chain`): the call calls the last of those attributes, on the load's line.
fn attributes_after<'a>(dump: &'a Dump, ins: &[Instruction], load: usize) -> Option<&'a str> {
    let after = ins[load + 1..].iter().take_while(|x| {
        let text = dump.str(x.argrepr);
        dump.op(x).family == "LOAD_ATTR" && strip_null_marks(text).len() == text.len() && same_start(x, &ins[load])
    });
    after.last().map(|x| dump.str(x.argrepr)).filter(|t| !t.is_empty())
}

/// The load that pushed the callable of the call at `call` (its index, and the name it loads,
/// `None` for a bare `PUSH_NULL`), found by reading back over whole calls.
fn callable_of<'a>(dump: &'a Dump, code: &CodeInfo, call: usize) -> Option<(usize, Option<&'a str>)> {
    let ins = &code.instructions;
    if !is_call(dump, ins.get(call)?) || runs_comprehension(dump, ins, call) {
        return None;
    }
    let mut open_calls = 0u32;
    for i in (call.saturating_sub(LOOK_BACK)..call).rev() {
        let x = &ins[i];
        if is_call(dump, x) {
            if !runs_comprehension(dump, ins, i) {
                open_calls += 1;
            }
            continue;
        }
        let Some(name) = callable_load(dump, x) else { continue };
        if open_calls == 0 {
            return Some((i, name));
        }
        open_calls -= 1;
    }
    None
}

/// A call of any form (3.11's `PRECALL` is the first half of its `CALL`, not a call).
fn is_call(dump: &Dump, i: &Instruction) -> bool {
    matches!(dump.op(i).family.as_str(), "CALL" | "CALL_KW" | "CALL_FUNCTION_EX")
}

/// `Some(name)` for a load that pushes a callable and its `NULL`/`self` slot, `Some(None)` for
/// a bare `PUSH_NULL` (a callable with no name), `None` for any other instruction.
fn callable_load<'a>(dump: &'a Dump, i: &Instruction) -> Option<Option<&'a str>> {
    let op = dump.op(i);
    let text = dump.str(i.argrepr);
    match op.family.as_str() {
        "PUSH_NULL" => return Some(None),
        "BEFORE_WITH" => return Some(Some("__exit__")),
        "BEFORE_ASYNC_WITH" => return Some(Some("__aexit__")),
        "LOAD_METHOD" | "LOAD_SPECIAL" => return Some(Some(text).filter(|t| !t.is_empty())),
        _ => {}
    }
    let name = strip_null_marks(text);
    (name.len() != text.len() && !name.is_empty()).then_some(Some(name))
}

/// 3.13+ pushes the `NULL` after the callable: a module's function (`codecs.open(…)`,
/// specialized as `LOAD_ATTR_MODULE open` then `PUSH_NULL`) is named by the attribute or global
/// load right before the `PUSH_NULL` at `null`, when that load is on the `PUSH_NULL`'s line.
fn loaded_before_null<'a>(dump: &'a Dump, ins: &[Instruction], null: usize) -> Option<&'a str> {
    let x = ins.get(null.checked_sub(1)?)?;
    let family = dump.op(x).family.as_str();
    let named = matches!(family, "LOAD_ATTR" | "LOAD_GLOBAL" | "LOAD_NAME");
    let text = strip_null_marks(dump.str(x.argrepr));
    (named && !text.is_empty() && same_start(x, &ins[null])).then_some(text)
}

/// The call runs a generator expression's (3.11: any comprehension's) code object: it takes
/// the iterator `GET_ITER` made, with no callable load of its own.
fn runs_comprehension(dump: &Dump, ins: &[Instruction], call: usize) -> bool {
    ins[..call]
        .iter()
        .rev()
        .find(|i| !matches!(dump.op(i).family.as_str(), "PRECALL" | "CACHE" | "EXTENDED_ARG"))
        .is_some_and(|i| matches!(dump.op(i).family.as_str(), "GET_ITER" | "GET_AITER"))
}

/// Both instructions start on the same line. Not the column too, though dumps have it: a
/// share link carries no columns (`share/reduce.rs`), and its reader must name each call as
/// the sender did.
fn same_start(a: &Instruction, b: &Instruction) -> bool {
    a.line.is_some() && a.line == b.line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;

    /// The names called by the calls of one code object of `ops`, all on line 1.
    fn called(version: &str, ops: &[(&str, &str)]) -> Vec<Option<String>> {
        let mut b = DumpBuilder::new(version);
        let mut c = b.code("m", "f", 1);
        for (op, arg) in ops {
            c = c.ins(op, arg, 1);
        }
        c.finish();
        let d = b.build();
        let code = &d.code[0];
        (0..code.instructions.len())
            .filter(|&i| is_call(&d, &code.instructions[i]))
            .map(|i| called_name(&d, code, i).map(str::to_string))
            .collect()
    }

    #[test]
    fn a_method_call_with_keywords_names_its_method() {
        let ops = [
            ("LOAD_FAST", "self"),
            ("LOAD_ATTR", "transforms"),
            ("LOAD_ATTR", "sort + NULL|self"),
            ("LOAD_CONST", "True"),
            ("LOAD_CONST", "('reverse',)"),
            ("CALL_KW", ""),
        ];
        assert_eq!(called("3.13.0", &ops), [Some("sort".to_string())]);
    }

    #[test]
    fn nested_calls_name_their_own_callee() {
        // f(g(x), h.m(y))
        let ops = [
            ("LOAD_GLOBAL", "f + NULL"),
            ("LOAD_GLOBAL", "g + NULL"),
            ("LOAD_FAST", "x"),
            ("CALL", "1"),
            ("LOAD_GLOBAL", "h"),
            ("LOAD_ATTR", "m + NULL|self"),
            ("LOAD_FAST", "y"),
            ("CALL", "1"),
            ("CALL", "2"),
        ];
        let names = called("3.13.0", &ops);
        assert_eq!(names, [Some("g".into()), Some("m".into()), Some("f".into())]);
    }

    #[test]
    fn older_spellings_and_generator_arguments() {
        // 3.12: sorted(p for p in xs); 3.11's LOAD_METHOD.
        let ops = [
            ("LOAD_GLOBAL", "NULL + sorted"),
            ("LOAD_CONST", "<code object <genexpr>>"),
            ("MAKE_FUNCTION", "0"),
            ("LOAD_FAST", "xs"),
            ("GET_ITER", ""),
            ("CALL", "0"),
            ("CALL", "1"),
        ];
        assert_eq!(called("3.12.1", &ops), [None, Some("sorted".into())]);
        // 3.12: itertools.chain(iter([x]), x), a module's function: the NULL comes with the module.
        let ops = [
            ("LOAD_GLOBAL", "NULL + itertools"),
            ("LOAD_ATTR", "chain"),
            ("LOAD_GLOBAL", "NULL + iter"),
            ("LOAD_FAST", "x"),
            ("BUILD_LIST", "1"),
            ("CALL", "1"),
            ("LOAD_FAST", "x"),
            ("CALL", "2"),
        ];
        assert_eq!(called("3.12.1", &ops), [Some("iter".into()), Some("chain".into())]);
        let ops = [("LOAD_FAST", "a"), ("LOAD_METHOD", "append"), ("LOAD_FAST", "x"), ("PRECALL", "1"), ("CALL", "1")];
        assert_eq!(called("3.11.7", &ops), [Some("append".into())]);
    }

    #[test]
    fn a_with_statements_calls_name_exit_and_enter() {
        // `with open(p) as f: s = f.read()` as 3.12.1 and 3.14.8 compile it (`dis`).
        let body = [("STORE_FAST", "f"), ("LOAD_FAST", "f"), ("LOAD_ATTR", "NULL|self + read"), ("CALL", "0"), ("STORE_FAST", "s")];
        let exit = [("LOAD_CONST", "None"), ("LOAD_CONST", "None"), ("LOAD_CONST", "None")];
        let ops: Vec<_> = [("LOAD_GLOBAL", "NULL + open"), ("LOAD_FAST", "p"), ("CALL", "1"), ("BEFORE_WITH", "")]
            .into_iter()
            .chain(body)
            .chain(exit)
            .chain([("CALL", "2")])
            .collect();
        assert_eq!(called("3.12.1", &ops), [Some("open".into()), Some("read".into()), Some("__exit__".into())]);
        let ops: Vec<_> = [("LOAD_GLOBAL", "open + NULL"), ("LOAD_FAST", "p"), ("CALL", "1"), ("COPY", "1"), ("LOAD_SPECIAL", "__exit__")]
            .into_iter()
            .chain([("SWAP", "2"), ("SWAP", "3"), ("LOAD_SPECIAL", "__enter__"), ("CALL", "0")])
            .chain(body)
            .chain(exit)
            .chain([("CALL", "3")])
            .collect();
        let names = called("3.14.0", &ops);
        assert_eq!(names, [Some("open".into()), Some("__enter__".into()), Some("read".into()), Some("__exit__".into())]);
    }

    #[test]
    fn a_callable_without_a_name_names_nothing() {
        // cls(x) on 3.13 and 3.14: the local, then a bare PUSH_NULL.
        let ops = [("LOAD_FAST", "cls"), ("PUSH_NULL", ""), ("LOAD_FAST", "x"), ("CALL", "1")];
        assert_eq!(called("3.14.0", &ops), [None]);
        // codecs.open(f) on 3.13: the module attribute, then the NULL.
        let ops = [("LOAD_GLOBAL", "codecs"), ("LOAD_ATTR", "open"), ("PUSH_NULL", ""), ("LOAD_FAST", "f"), ("CALL", "1")];
        assert_eq!(called("3.13.0", &ops), [Some("open".into())]);
        // A call with no load before it at all.
        assert_eq!(called("3.13.0", &[("LOAD_FAST", "x"), ("CALL", "0")]), [None]);
    }
}
