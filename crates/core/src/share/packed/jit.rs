//! The JIT's part of a packed link body ([`super`]): the executors of the code objects that
//! have them, then the `inlined` offsets, after every other column; a dump with neither
//! writes nothing, so links made before them read as they did.

use super::{bad, Reader, Writer};
use crate::format::input::InputErrorKind;
use crate::model::dump::CodeInfo;
use crate::model::{Executor, Exit, Uop};

/// The kinds of exit stub a link names by number; another kind travels as text.
const EXIT_KINDS: [&str; 4] = ["side", "deopt", "error", "other"];

/// The JIT's executors (issue 35), last: the code objects that have them (as gaps between
/// their indices), then each executor's fields and its uops and exits; then, where any code
/// object has `inlined` offsets, those code objects (gaps) and their offsets (deltas). A dump
/// without either writes nothing, so its link is what it was before they were carried, and a
/// link made before them ends where this would start (one made before `inlined`, after the
/// executors).
pub(super) fn pack_executors(w: &mut Writer, code: &[CodeInfo]) {
    let with: Vec<(usize, &Vec<Executor>)> = code.iter().enumerate().filter_map(|(i, c)| Some((i, c.executors.as_ref()?))).collect();
    let inlined: Vec<(usize, &Vec<u32>)> = code.iter().enumerate().filter_map(|(i, c)| Some((i, c.inlined.as_ref()?))).collect();
    if with.is_empty() && inlined.is_empty() {
        return;
    }
    pack_executor_list(w, with);
    if inlined.is_empty() {
        return;
    }
    w.u(inlined.len() as u64);
    let mut previous = 0;
    for (i, offsets) in inlined {
        w.u((i - std::mem::replace(&mut previous, i)) as u64);
        w.u(offsets.len() as u64);
        let mut last = 0;
        for &o in offsets {
            w.u(u64::from(o.saturating_sub(std::mem::replace(&mut last, o))));
        }
    }
}

fn pack_executor_list(w: &mut Writer, with: Vec<(usize, &Vec<Executor>)>) {
    w.u(with.len() as u64);
    let mut previous = 0;
    for (i, executors) in with {
        w.u((i - std::mem::replace(&mut previous, i)) as u64);
        w.u(executors.len() as u64);
        for e in executors {
            w.u(e.offset as u64);
            w.u(e.valid as u64);
            w.u(e.length as u64);
            w.u(e.uops.len() as u64);
            for u in &e.uops {
                w.u(u.name as u64);
                w.u(u.oparg as u64);
                [u.offset, u.exit, u.error].into_iter().for_each(|v| w.opt(v.map(u64::from)));
            }
            w.opt(e.exits.as_ref().map(|x| x.len() as u64));
            for x in e.exits.iter().flatten() {
                match EXIT_KINDS.iter().position(|k| *k == x.0) {
                    Some(k) => w.u(k as u64),
                    None => {
                        w.u(EXIT_KINDS.len() as u64 + x.0.len() as u64);
                        w.0.extend(x.0.as_bytes());
                    }
                }
                w.u(x.1 as u64);
                w.opt(x.2.map(u64::from));
            }
        }
    }
}

/// Reads what [`pack_executors`] wrote into `code`.
pub(super) fn unpack_executors(r: &mut Reader, code: &mut [CodeInfo]) -> Result<(), InputErrorKind> {
    // Each code object with executors takes at least 2 bytes (its gap and their count), each
    // executor 5, each uop 5, each exit 3.
    let n = r.count("executors", 2)?;
    if n == 0 && r.left() == 0 {
        // Never written: a dump without executors or `inlined` has no section at all.
        return Err(bad("executors", "an empty section"));
    }
    let mut at: Option<usize> = None;
    for _ in 0..n {
        let c = next_code(r, "executors", &mut at, code)?;
        let mut executors = Vec::new();
        for _ in 0..r.count("executors", 5)? {
            let (offset, valid, length) = (r.u32("executors")?, r.up_to("executors", 1)? == 1, r.u32("executors")?);
            let mut uops = Vec::new();
            for _ in 0..r.count("uops", 5)? {
                uops.push(Uop { name: r.u32("uops")?, oparg: r.u32("uops")?, offset: r.opt32("uops")?, exit: r.opt32("uops")?, error: r.opt32("uops")? });
            }
            let exits = match r.opt("exits")? {
                None => None,
                Some(k) if k.saturating_mul(3) > r.left() as u64 => return Err(bad("exits", "more than the bytes left can hold")),
                Some(k) => {
                    let mut exits = Vec::new();
                    for _ in 0..k {
                        exits.push(exit(r)?);
                    }
                    Some(exits)
                }
            };
            executors.push(Executor { offset, valid, length, uops, exits });
        }
        c.executors = Some(executors);
    }
    if r.left() != 0 {
        unpack_inlined(r, code)?;
    }
    Ok(())
}

/// Reads the `inlined` offsets [`pack_executors`] wrote after the executors: ascending, each
/// code object once.
fn unpack_inlined(r: &mut Reader, code: &mut [CodeInfo]) -> Result<(), InputErrorKind> {
    // Each code object listed takes at least 3 bytes: its gap, its count and one offset.
    let n = r.count("inlined", 3)?;
    if n == 0 {
        return Err(bad("inlined", "an empty section"));
    }
    let mut at: Option<usize> = None;
    for _ in 0..n {
        let c = next_code(r, "inlined", &mut at, code)?;
        // None, a repeat (a delta of 0) or a sum past 2^32 reads as offsets that do not
        // ascend, which the dump reader's checks refuse once the body is read.
        let k = r.count("inlined", 1)?;
        let (mut offsets, mut last) = (Vec::with_capacity(k), 0u32);
        for _ in 0..k {
            last = last.saturating_add(r.u32("inlined")?);
            offsets.push(last);
        }
        c.inlined = Some(offsets);
    }
    Ok(())
}

/// The next code object a section lists, by its gap from the previous one's index (the first
/// by its index): each at most once, and one the dump has.
fn next_code<'c>(r: &mut Reader, field: &str, at: &mut Option<usize>, code: &'c mut [CodeInfo]) -> Result<&'c mut CodeInfo, InputErrorKind> {
    let gap = r.count(field, 0)?;
    let i = match *at {
        None => gap,
        Some(_) if gap == 0 => return Err(bad(field, "a code object listed twice")),
        Some(a) => a.saturating_add(gap),
    };
    let len = code.len();
    *at = Some(i);
    code.get_mut(i).ok_or_else(|| bad(field, format!("code object {i} of {len}")))
}

fn exit(r: &mut Reader) -> Result<Exit, InputErrorKind> {
    let k = r.u("exits")?;
    let kind = match EXIT_KINDS.get(k as usize) {
        Some(kind) => kind.to_string(),
        None => {
            let len = usize::try_from(k - EXIT_KINDS.len() as u64).ok().filter(|&l| l <= r.left()).ok_or_else(|| bad("exits", "a kind longer than the bytes left"))?;
            r.text("exits", len)?
        }
    };
    Ok(Exit(kind, r.u32("exits")?, r.opt32("exits")?))
}
