//! Writes two dumps reduced to the functions whose specialization changed between them
//! (`share::wanted`, through `share::reduce`), gzipped: how the fixtures
//! `tests/fixtures/dumps/pyparsing-*-3.12.json.gz` were made from the dumps of
//! `scripts/link-sizes.sh` (see `tests/fixtures/dumps/README.md`).
//!
//! ```text
//! cargo run --release -p specdiff-core --example changed_only -- BASE HEAD OUT_BASE OUT_HEAD
//! ```

use std::io::Write;

use specdiff_core::format::to_json;
use specdiff_core::share::{reduce, wanted};
use specdiff_core::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, head] = [&args[0], &args[1]].map(|p| read_dump(p, &std::fs::read(p).expect("a dump"), ReadLimits::default()).expect("a dump"));
    let options = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
    let report = diff_dumps(&base, &head, &options).expect("a report");
    let pairs = wanted(&report);
    for (dump, out, side) in [(&base, &args[2], 0), (&head, &args[3], 1)] {
        let keep: Vec<u32> = pairs.iter().map(|p| if side == 0 { p.0 } else { p.1 }).collect();
        let reduced = reduce(dump, |i, _| keep.contains(&(i as u32)));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&to_json(&reduced)).expect("a Vec");
        std::fs::write(out, gz.finish().expect("a Vec")).expect("written");
        println!("{out}: {} code objects", reduced.code.len());
    }
}
