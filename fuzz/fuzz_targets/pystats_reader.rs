//! Feeds arbitrary bytes to the raw pystats reader (and what it returns to the summary, the
//! diff and the JSON writer): nothing may panic, and every error is one line naming the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use specdiff_core::pystats::{parse_pystats, PystatsOptions};
use specdiff_core::stats::StatsFile;
use specdiff_core::stats_diff::{diff_stats, summarize};
use specdiff_core::ReadLimits;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the version the file is read as, so all three paths are explored.
    let (python, bytes) = match data.split_first() {
        Some((b, rest)) => ([None, Some((3, 12)), Some((3, 13))][*b as usize % 3], rest),
        None => (None, data),
    };
    let options = PystatsOptions { python, limits: ReadLimits { max_bytes: 1 << 20 } };
    match parse_pystats("fuzz.txt", bytes, &options) {
        Ok(stats) => {
            let _ = summarize(&stats);
            let _ = diff_stats(&stats, &stats);
            let _ = StatsFile::new(stats, "fuzz").to_json();
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz.txt: ") && !message.contains('\n'), "{message:?}");
        }
    }
});
