//! Times [`specdiff_core::format::finish_instructions`] on the raw code of a whole program: the
//! Rust half of `specdiff dump`'s decoding (positions, cache words, counters), which
//! `bench/dump_bench.sh` adds to the harness's Python half before comparing with `dis`. The
//! input is what `bench/dump_bench.py --raw-code FILE` writes: `[[first_line, co_linetable as
//! hex, adaptive code as hex, [instruction offsets], [counter decoded?]], ...]`. Prints the
//! best of N runs; each run decodes the hex and finishes the instructions, as `specdiff dump`
//! does, with the same allocator (mimalloc).
//!
//! ```text
//! cargo run --release -p specdiff-cli --example capture_bench -- FILE [RUNS]
//! ```

use std::time::Instant;

use specdiff_core::format::{decode_hex, finish_instructions, RawCode};
use specdiff_core::model::{CounterKind, CounterLayout, Instruction, OpInfo};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Record = (i64, String, String, Vec<u32>, Vec<bool>);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: capture_bench FILE [RUNS]");
    let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let codes: Vec<Record> = serde_json::from_slice(&std::fs::read(path).expect("read")).expect("raw code JSON");
    let op = |counter| OpInfo { name: String::new(), family: String::new(), specialized: false, counter };
    let ops = [op(None), op(Some(CounterKind::Adaptive))];
    let mut best = f64::MAX;
    let mut filled = 0;
    for _ in 0..runs {
        // The instructions exist already (the harness decoded them); not timed.
        let mut all: Vec<Vec<Instruction>> = codes.iter().map(|c| instructions(&c.3, &c.4)).collect();
        let t = Instant::now();
        for ((first_line, linetable, code, _, _), instructions) in codes.iter().zip(&mut all) {
            let linetable = decode_hex(linetable).expect("hex");
            let code = decode_hex(code).expect("hex");
            let raw = RawCode { first_line: *first_line, linetable: &linetable, adaptive_code: &code };
            finish_instructions(instructions, raw, &ops, CounterLayout::SPLIT_12_4).expect("offsets fit");
        }
        best = best.min(t.elapsed().as_secs_f64());
        filled = all.iter().flatten().filter(|i| i.line.is_some()).count();
    }
    let n: usize = codes.iter().map(|c| c.3.len()).sum();
    println!("capture finish: {} code objects, {n} instructions ({filled} with a line), best of {runs}: {:.2} ms", codes.len(), best * 1e3);
}

fn instructions(offsets: &[u32], counted: &[bool]) -> Vec<Instruction> {
    offsets
        .iter()
        .zip(counted)
        .map(|(&offset, &c)| Instruction { offset, op: u32::from(c), ..Default::default() })
        .collect()
}
