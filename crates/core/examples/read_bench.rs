//! Times the dump reader on one file: `read_dump` (plain typed parse + validation) against the
//! same parse with `serde_path_to_error` tracking the JSON path of every value (what
//! `read_dump` did before; it now finds the path of a bad field from the error's position,
//! `src/json_path.rs`), and against a parse into `serde_json::Value`. Single thread, min of N
//! interleaved runs. (`serde_path_to_error` is a dev-dependency, for this and the tests.)
//!
//! ```text
//! cargo run --release -p specdiff-core --example read_bench -- DUMP.json [RUNS]
//! ```

use std::time::Instant;

use specdiff_core::model::Dump;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: read_bench DUMP.json [RUNS]");
    let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let bytes = std::fs::read(path).expect("read");
    let (mut fast, mut tracked, mut value) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..runs {
        let t = Instant::now();
        let d = specdiff_core::read_dump(path, &bytes, Default::default()).expect("read_dump");
        fast = fast.min(t.elapsed().as_secs_f64());
        drop(d);
        let t = Instant::now();
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let d: Dump = serde_path_to_error::deserialize(&mut de).expect("parse");
        tracked = tracked.min(t.elapsed().as_secs_f64());
        drop(d);
        let t = Instant::now();
        let v: serde_json::Value = serde_json::from_slice(&bytes).expect("value");
        value = value.min(t.elapsed().as_secs_f64());
        drop(v);
    }
    println!("{} KB, min of {runs}:", bytes.len() / 1024);
    println!("  read_dump (plain parse + validation)   {:>7.1} ms", fast * 1e3);
    println!("  parse with serde_path_to_error only    {:>7.1} ms", tracked * 1e3);
    println!("  parse into serde_json::Value           {:>7.1} ms", value * 1e3);
}
