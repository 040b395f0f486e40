//! Feeds arbitrary bytes (plain or gzip JSON) to the dump reader: nothing may panic, and every
//! error is one line naming the file. A dump the reader accepts must be usable by everything
//! downstream: it is written back and read again, its source lines are looked up, and it is
//! diffed with itself (the reader's validation is what lets the engine index without checks).
//!
//! An input starting `\0x` is expanded first (`common/amplify.rs`): a few bytes then stand
//! for a document megabytes long or deep, where costs that grow faster than the input show.
#![no_main]

#[path = "../common/amplify.rs"]
mod amplify;

use libfuzzer_sys::fuzz_target;
use specdiff_core::format::to_json;
use specdiff_core::{read_dump, DiffOptions, DiffSession, ReadLimits};

const LIMITS: ReadLimits = ReadLimits { max_bytes: 1 << 20 };

fuzz_target!(|data: &[u8]| {
    let data = &*amplify::expand(data);
    let dump = match read_dump("fuzz.json", data, LIMITS) {
        Ok(d) => d,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz.json: ") && !message.contains('\n'), "{message:?}");
            return;
        }
    };
    // What the writer makes of an accepted dump, the reader accepts again, unchanged (floats
    // aside: serde_json's default float parsing may differ in the last bit).
    let again = read_dump("again.json", &to_json(&dump), ReadLimits { max_bytes: 1 << 24 })
        .unwrap_or_else(|e| panic!("a dump read once does not read again: {e}"));
    assert_eq!((&again.strings, &again.ops, &again.files, &again.code), (&dump.strings, &dump.ops, &dump.files, &dump.code));

    let _ = dump.label();
    for c in &dump.code {
        for ins in &c.instructions {
            if let Some(line) = ins.line {
                let _ = dump.source_line(c.file, line);
            }
        }
        let _ = dump.source_line(c.file, c.first_line);
    }

    // The web viewer always allows unrelated dumps, so a report always comes back.
    let options = DiffOptions { allow_unrelated: true, include_unchanged: true, ..Default::default() };
    let mut session = DiffSession::new(&dump, &dump, options);
    let report = session.report().expect("allow_unrelated: a report is always returned");
    for f in &report.functions {
        let _ = session.function_rows(Some(f.base_code), Some(f.head_code));
    }
});
