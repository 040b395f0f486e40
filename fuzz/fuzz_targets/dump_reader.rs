//! Feeds arbitrary bytes to the dump reader: nothing may panic, and every error is one line
//! naming the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use specdiff_core::{read_dump, ReadLimits};

fuzz_target!(|data: &[u8]| {
    if let Err(e) = read_dump("fuzz.json", data, ReadLimits { max_bytes: 1 << 20 }) {
        let message = e.to_string();
        assert!(message.starts_with("fuzz.json: ") && !message.contains('\n'), "{message:?}");
    }
});
