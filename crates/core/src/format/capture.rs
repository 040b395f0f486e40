//! Finishing the instructions `specdiff dump`'s Python harness leaves raw: the harness decodes
//! opnames, args and argreprs, and hands over each code object's `co_linetable` and adaptive
//! code; this fills in what is pure byte-format work — each instruction's line and positions
//! ([`crate::format::linetable`]), its inline cache words and its decoded counter — which in Python
//! was two fifths of the harness's decoding time on 3.11 (`docs/benchmarks.md`, "Dump").

use crate::model::dump::{CounterKind, CounterLayout, Instruction, OpInfo};
use crate::format::linetable::fill_positions;

/// A code object's raw bytes, as the harness hands them over.
#[derive(Debug, Clone, Copy)]
pub struct RawCode<'a> {
    /// `co_firstlineno`.
    pub first_line: i64,
    /// `co_linetable`.
    pub linetable: &'a [u8],
    /// `_co_code_adaptive`, as snapshotted when the instructions were decoded.
    pub adaptive_code: &'a [u8],
}

/// Fills line, positions, cache words and counter of `instructions` (the code object's every
/// instruction, caches excepted, in offset order, as the harness's fast path decodes them).
///
/// An instruction's cache words are the code units from the one after it to the next
/// instruction (to the end for the last), read in native byte order like the interpreter
/// writes them; its counter is the first word as `(value, backoff)` when its op's counter
/// kind is adaptive or JIT, split by `layout`. Fails, without touching anything, when the
/// offsets do not fit the code (not increasing, odd, or past its end).
pub fn finish_instructions(
    instructions: &mut [Instruction],
    raw: RawCode<'_>,
    ops: &[OpInfo],
    layout: CounterLayout,
) -> Result<(), String> {
    let len = raw.adaptive_code.len();
    let mut previous = None;
    for ins in instructions.iter() {
        let offset = ins.offset as usize;
        if !offset.is_multiple_of(2) || offset + 2 > len || previous.is_some_and(|p| p >= offset) {
            return Err(format!("instruction offset {offset} does not fit {len} bytes of code"));
        }
        if ins.op as usize >= ops.len() {
            return Err(format!("instruction at offset {offset} has op {}, past the ops table", ins.op));
        }
        previous = Some(offset);
    }
    let ends: Vec<usize> = instructions.iter().skip(1).map(|i| i.offset as usize).chain([len]).collect();
    for (ins, end) in instructions.iter_mut().zip(ends) {
        let words = &raw.adaptive_code[ins.offset as usize + 2..end];
        ins.cache = words.chunks_exact(2).map(|w| u16::from_ne_bytes([w[0], w[1]])).collect();
        let counted = matches!(ops[ins.op as usize].counter, Some(CounterKind::Adaptive | CounterKind::Jit));
        ins.counter = match ins.cache.first() {
            Some(&w) if counted => Some(layout.split(w)),
            _ => None,
        };
    }
    fill_positions(instructions, raw.linetable, raw.first_line);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(counter: Option<CounterKind>) -> OpInfo {
        OpInfo { name: "X".into(), family: "X".into(), specialized: false, counter }
    }

    fn instruction(offset: u32, op: u32) -> Instruction {
        Instruction { offset, op, ..Default::default() }
    }

    fn words(ws: &[u16]) -> Vec<u8> {
        ws.iter().flat_map(|w| w.to_ne_bytes()).collect()
    }

    #[test]
    fn caches_run_to_the_next_instruction_and_counters_decode_by_kind() {
        // `def f(): return x` on 3.11.7: RESUME, LOAD_GLOBAL + 5 cache units, RETURN_VALUE.
        let code = words(&[0x0097, 0x0074, 0x0035, 0, 0, 0, 0, 0x0053]);
        let ops = [op(None), op(Some(CounterKind::Adaptive)), op(Some(CounterKind::Branch))];
        let mut ins = vec![instruction(0, 0), instruction(2, 1), instruction(14, 2)];
        let raw = RawCode { first_line: 2, linetable: &[0x80, 0x00, 0x95, 0x01, 0x88, 0x18], adaptive_code: &code };
        finish_instructions(&mut ins, raw, &ops, CounterLayout::SPLIT_12_4).unwrap();
        assert_eq!(ins[0].cache, Vec::<u16>::new());
        assert_eq!(ins[1].cache, vec![0x35, 0, 0, 0, 0]);
        assert_eq!(ins[1].counter, Some((3, 5)), "0x35: value 3, backoff 5");
        assert_eq!(ins[2].counter, None, "no cache words");
        assert_eq!((ins[1].line, ins[1].pos), (Some(2), Some((Some(2), Some(16), Some(17)))));
    }

    #[test]
    fn branch_counters_stay_raw() {
        let code = words(&[0x0001, 0xabcd]);
        let mut ins = vec![instruction(0, 0)];
        let raw = RawCode { first_line: 1, linetable: &[], adaptive_code: &code };
        finish_instructions(&mut ins, raw, &[op(Some(CounterKind::Branch))], CounterLayout::SPLIT_12_4).unwrap();
        assert_eq!((ins[0].cache.clone(), ins[0].counter), (vec![0xabcd], None));
    }

    #[test]
    fn offsets_that_do_not_fit_are_refused_untouched() {
        let code = words(&[1, 2, 3]);
        let raw = RawCode { first_line: 1, linetable: &[], adaptive_code: &code };
        for offsets in [vec![0, 6], vec![2, 2], vec![4, 2], vec![1]] {
            let mut ins: Vec<_> = offsets.iter().map(|&o| instruction(o, 0)).collect();
            let before = ins.clone();
            assert!(finish_instructions(&mut ins, raw, &[op(None)], CounterLayout::SPLIT_12_4).is_err(), "{offsets:?}");
            assert_eq!(ins, before);
        }
        let mut bad_op = vec![instruction(0, 7)];
        assert!(finish_instructions(&mut bad_op, raw, &[op(None)], CounterLayout::SPLIT_12_4).is_err());
    }
}
