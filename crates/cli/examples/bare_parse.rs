//! Benchmark baseline for `specdiff diff`: only read and parse two dump files, nothing else,
//! the same way `specdiff diff` reads them (both files at once, one thread each). Used by
//! `bench/diff_bench.sh`, which times whole processes; see `docs/benchmarks.md`.
//!
//! ```text
//! cargo run --release -p specdiff-cli --example bare_parse -- [--typed] BASE HEAD
//! ```
//!
//! By default each file is parsed into a generic `serde_json::Value` (gzip is not handled:
//! give plain `.json`). With `--typed` each is read with `specdiff_core::read_dump`, the
//! dump reader `specdiff diff` itself uses (parse + validation, no diff). It uses the same
//! allocator as `specdiff` (mimalloc), so the baseline gets the same head start.

use std::path::Path;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn parse(path: &Path, typed: bool) -> usize {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if typed {
        let name = path.display().to_string();
        let dump = specdiff_core::read_dump(&name, &bytes, Default::default()).unwrap_or_else(|e| panic!("{e}"));
        dump.code.len()
    } else {
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        value["code"].as_array().map_or(0, Vec::len)
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let typed = args.first().is_some_and(|a| a == "--typed");
    if typed {
        args.remove(0);
    }
    let [base, head] = args.as_slice() else {
        eprintln!("usage: bare_parse [--typed] BASE HEAD");
        std::process::exit(2);
    };
    let (b, h) = std::thread::scope(|s| {
        let h = s.spawn(|| parse(Path::new(head), typed));
        (parse(Path::new(base), typed), h.join().unwrap())
    });
    println!("{b} + {h} code objects");
}
