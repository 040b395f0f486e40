//! Feeds arbitrary bytes to the stats reader (raw pystats text, or a `specdiff-stats` JSON
//! file, plain or gzip), and what it returns to the summary, the diff, the merge and the JSON
//! writer: nothing may panic, every error is one line naming the file, and what the writer
//! writes reads back unchanged.
//!
//! An input starting `\0x` is expanded first (`common/amplify.rs`): a few bytes then stand
//! for a document megabytes long or deep, where costs that grow faster than the input show.
#![no_main]

#[path = "../common/amplify.rs"]
mod amplify;

use libfuzzer_sys::fuzz_target;
use specdiff_core::format::{read_stats, read_stats_file, PystatsOptions, StatsFile};
use specdiff_core::report::{diff_stats, summarize};
use specdiff_core::ReadLimits;

fuzz_target!(|data: &[u8]| {
    let data = &*amplify::expand(data);
    // The first byte picks the version the file is read as, so all three paths are explored.
    let (python, bytes) = match data.split_first() {
        Some((b, rest)) => ([None, Some((3, 12)), Some((3, 13))][*b as usize % 3], rest),
        None => (None, data),
    };
    let options = PystatsOptions { python, limits: ReadLimits { max_bytes: 1 << 20 } };
    // `read_stats` sniffs: raw text goes to the same parser as `parse_pystats`, JSON to the
    // standalone stats file reader.
    match read_stats("fuzz.txt", bytes, &options) {
        Ok(stats) => {
            let _ = summarize(&stats);
            let _ = diff_stats(&stats, &stats);
            let mut sum = stats.clone();
            sum.merge(&stats).expect("a run's stats merge with themselves");
            let _ = summarize(&sum);
            let json = StatsFile::new(stats.clone(), "fuzz").to_json();
            let again = read_stats_file("again.json", &json, ReadLimits { max_bytes: 1 << 26 })
                .unwrap_or_else(|e| panic!("written stats do not read back: {e}"));
            assert_eq!(again, stats);
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz.txt: ") && !message.contains('\n'), "{message:?}");
        }
    }
});
