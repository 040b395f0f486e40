//! Share-link decoding (`#share=s4.…` in the web viewer's URL): arbitrary text must never
//! panic, every error is one line named "share link…", and whatever decodes encodes to a link
//! that decodes to the same payload.
//!
//! The first byte picks the mode: even → the rest is the link text as is (exercises the
//! prefix, base64url and DEFLATE layers); odd → the rest is an inflated link *body*, read with
//! `read_body` as the web viewer does after inflating, so the fuzzer reaches the body parser
//! and the dump reader behind it without having to forge DEFLATE streams. (It used to deflate
//! and base64-encode the body for `decode`: that took four fifths of the target's time.)
//!
//! An input starting `\0x` is expanded first (`common/amplify.rs`): a few bytes then stand
//! for a document megabytes long or deep, where costs that grow faster than the input show.
#![no_main]

#[path = "../common/amplify.rs"]
mod amplify;

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use specdiff_core::share::{body, body_limits, decode, pack, read_body, trimmed_functions, SOURCE_NAME};
use specdiff_core::ReadLimits;

const LIMITS: ReadLimits = ReadLimits { max_bytes: 1 << 20 };

fuzz_target!(|data: &[u8]| {
    let data = &*amplify::expand(data);
    let Some((&mode, rest)) = data.split_first() else { return };
    let decoded = if mode % 2 == 0 {
        decode(&String::from_utf8_lossy(rest), LIMITS)
    } else {
        read_body(rest, body_limits(LIMITS))
    };
    match decoded {
        Ok(payload) => {
            // A note's trimmed functions (version 3) are read whatever their count: their
            // shares never claim more specialized sites than sites.
            for t in trimmed_functions(&payload.note.trimmed) {
                assert!(t.before.specialized <= t.before.sites && t.after.specialized <= t.after.sites, "{t:?}");
            }
            // Re-encoding may grow a dump (e.g. `1e5` is written `100000.0`): allow for it.
            // Deflated with flate2's fastest, not the CLI's zopfli: any DEFLATE decodes the
            // same, and zopfli would take most of the target's time.
            let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(&body(&payload)).unwrap();
            let again = decode(&pack(&enc.finish().unwrap()), ReadLimits { max_bytes: 1 << 26 })
                .unwrap_or_else(|e| panic!("an encoded payload does not decode: {e}"));
            assert_eq!(again.note, payload.note);
            for (a, b) in [(&again.base, &payload.base), (&again.head, &payload.head)] {
                assert_eq!(a.is_some(), b.is_some());
                if let (Some(a), Some(b)) = (a, b) {
                    assert_eq!((&a.strings, &a.ops, &a.files, &a.code), (&b.strings, &b.ops, &b.files, &b.code));
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with(SOURCE_NAME) && !message.contains('\n'), "{message:?}");
        }
    }
});

