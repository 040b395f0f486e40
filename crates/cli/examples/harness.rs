//! Writes the harness `specdiff dump` runs (the parts in `src/harness/` joined by build.rs, the
//! same file the binary embeds) to FILE, for what runs the harness without the CLI:
//! `scripts/make_fixtures.sh`, `bench/dump_bench.sh`, and `tests/python/fidelity.py` and
//! `harness_cli.py` run by hand (they read its path from `SPECDIFF_HARNESS`).
//!
//! ```text
//! cargo run -q -p specdiff-cli --example harness -- FILE
//! ```

const HARNESS: &str = include_str!(concat!(env!("OUT_DIR"), "/harness.py"));

fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: harness FILE (writes the harness specdiff dump runs to FILE)");
        std::process::exit(2);
    };
    if let Err(e) = std::fs::write(&path, HARNESS) {
        eprintln!("harness: cannot write {}: {e}", std::path::Path::new(&path).display());
        std::process::exit(1);
    }
}
