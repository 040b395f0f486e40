//! Benchmark of the diff engine: parse + match + align + classify + explain + summarize of
//! two whole-program dumps, and the on-demand rows of one function.
//!
//! ```text
//! cargo run --release -p specdiff-core --example engine_bench                # fixtures, scaled
//! cargo run --release -p specdiff-core --example engine_bench -- BASE HEAD   # your dumps
//! ```
//!
//! Without arguments it uses the demo fixtures and also a synthetic "whole program": the
//! fixture's code objects replicated under distinct module names until there are
//! `SPECDIFF_BENCH_CODE` (default 7000) of them, the head copy with every 10th code object's
//! specialized instructions turned generic. Prints one line per measurement (median of runs).

use std::time::{Duration, Instant};

use specdiff_core::format::to_json;
use specdiff_core::model::Dump;
use specdiff_core::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps");
    let (bp, hp) = match args.as_slice() {
        [b, h] => (b.clone(), h.clone()),
        _ => (format!("{fixtures}/demo-base-3.12.json.gz"), format!("{fixtures}/demo-head-3.12.json.gz")),
    };
    let (bb, hb) = (std::fs::read(&bp).expect("base dump"), std::fs::read(&hp).expect("head dump"));
    let base = read_dump(&bp, &bb, ReadLimits::default()).expect("base");
    let head = read_dump(&hp, &hb, ReadLimits::default()).expect("head");
    bench("given dumps", &bb, &hb);
    if args.is_empty() {
        let n: usize = std::env::var("SPECDIFF_BENCH_CODE").ok().and_then(|s| s.parse().ok()).unwrap_or(7000);
        let (sb, sh) = (scale(&base, n, false), scale(&head, n, true));
        bench(&format!("synthetic {n} code objects"), &to_json(&sb), &to_json(&sh));
    }
    worst_case_alignment();
}

/// One huge code object (a generated module body) against a heavily edited copy: the case
/// Myers' work limit exists for.
fn worst_case_alignment() {
    use specdiff_core::engine::{align_sites, AlignOptions};
    use specdiff_core::cpython::{Site, SiteTag};
    let n = 50_000u32;
    let mut x = 0x2545F4914F6CDD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let site = |i: u32, key: u64| Site { start: i, end: i + 1, primary: i, spec: i, key, tag: SiteTag::Plain, callee: 0 };
    let base: Vec<Site> = (0..n).map(|i| site(i, next() % 64)).collect();
    // Head: every third site replaced, so half of everything differs.
    let head: Vec<Site> = base.iter().map(|s| if next() % 3 == 0 { site(s.start, 64 + next() % 64) } else { *s }).collect();
    let t = median(3, || {
        std::hint::black_box(align_sites(&base, &head, &AlignOptions::default()));
    });
    println!("worst case: one code object of {n} sites vs a copy with a third replaced");
    println!("  align_sites     {t:>10.2?}  (Myers, no deadline)");
}

fn bench(label: &str, base_bytes: &[u8], head_bytes: &[u8]) {
    let runs = 5;
    let parse = median(runs, || {
        let b = read_dump("base", base_bytes, ReadLimits::default()).unwrap();
        let h = read_dump("head", head_bytes, ReadLimits::default()).unwrap();
        std::hint::black_box((b, h));
    });
    let base = read_dump("base", base_bytes, ReadLimits::default()).unwrap();
    let head = read_dump("head", head_bytes, ReadLimits::default()).unwrap();
    let opts = DiffOptions { allow_unrelated: true, ..Default::default() };
    let mut report = None;
    let diff = median(runs, || report = Some(diff_dumps(&base, &head, &opts).unwrap()));
    let report = report.unwrap();
    let instructions: usize = base.code.iter().chain(&head.code).map(|c| c.instructions.len()).sum();
    let rows = report.functions.first().map(|f| {
        let mut session = DiffSession::new(&base, &head, opts.clone());
        let _ = session.report();
        median(runs, || {
            std::hint::black_box(session.function_rows(Some(f.base_code), Some(f.head_code)));
        })
    });
    println!(
        "{label}: {} + {} code objects, {instructions} instructions, {} KB + {} KB input",
        base.code.len(),
        head.code.len(),
        base_bytes.len() / 1024,
        head_bytes.len() / 1024
    );
    println!("  parse both      {:>10.2?}", parse);
    println!("  diff_dumps      {:>10.2?}  ({} functions changed, {} regressions)", diff, report.functions.len(), report.summary.regressions);
    if let Some(r) = rows {
        println!("  function_rows   {:>10.2?}  (top function, session reused)", r);
    }
}

fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    t[runs / 2]
}

/// Replicates `d`'s code objects under distinct module names until there are `n`.
fn scale(d: &Dump, n: usize, degrade: bool) -> Dump {
    let mut out = d.clone();
    out.code.clear();
    let generic: Vec<Option<u32>> = d
        .ops
        .iter()
        .map(|o| d.ops.iter().position(|g| g.family == o.family && !g.specialized && g.counter == o.counter).map(|i| i as u32))
        .collect();
    let mut copy = 0;
    while out.code.len() < n && !d.code.is_empty() {
        let module = out.strings.len() as u32;
        out.strings.push(format!("bench_module_{copy}"));
        for c in &d.code {
            if out.code.len() >= n {
                break;
            }
            let mut c = c.clone();
            c.module = module;
            c.parent = c.parent.map(|p| p + (copy * d.code.len()) as u32).filter(|&p| (p as usize) < n);
            if degrade && out.code.len().is_multiple_of(10) {
                for ins in &mut c.instructions {
                    if d.ops[ins.op as usize].specialized {
                        if let Some(g) = generic[ins.op as usize] {
                            ins.op = g;
                        }
                    }
                }
            }
            out.code.push(c);
        }
        copy += 1;
    }
    out
}
