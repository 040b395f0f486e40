//! Share-link sizes of one diff: for the first 5, 10 and 20 changed functions (trimmed, as
//! `specdiff diff --link` carries them), the link body in version 3's layout (dumps as dump
//! JSON) and version 4's (packed, `share/packed.rs`), each compressed with flate2's best and
//! with zopfli (as `share::deflate`, and with zopfli's defaults), in link characters, with
//! the time each compressor took. The ratios behind `docs/web.md`, "Link sizes".
//!
//! ```text
//! cargo run --release -p specdiff-core --example link_deflate -- BASE HEAD
//! ```

use std::io::Write;
use std::time::Instant;

use specdiff_core::format::to_json;
use specdiff_core::share::{body, deflate, LinkBuilder, SharePayload};
use specdiff_core::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, head] = [&args[0], &args[1]].map(|p| read_dump(p, &std::fs::read(p).expect("a dump"), ReadLimits::default()).expect("a dump"));
    let options = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
    let report = diff_dumps(&base, &head, &options).expect("a report");
    let mut builder = LinkBuilder::new(&base, &head, &report, &options);
    println!("{} changed functions", builder.wanted());
    println!("functions  layout  body bytes  flate2 best  zopfli (share::deflate)  zopfli defaults");
    let wanted = builder.wanted();
    for n in [5, 10, 20].into_iter().filter(|&n| n <= wanted) {
        let p = builder.trimmed(n, &[]);
        for (layout, bytes) in [("v3", version_3_body(&p)), ("v4", body(&p))] {
            let (flate2, t1) = timed(|| flate2_best(&bytes));
            let (ours, t2) = timed(|| deflate(&bytes));
            let (slow, t3) = timed(|| zopfli_defaults(&bytes));
            println!(
                "{n:>9}  {layout:>6}  {:>10}  {:>6} ({t1:>4} ms)  {:>6} ({t2:>4} ms)  {:>6} ({t3:>4} ms)",
                bytes.len(),
                chars(&flate2),
                chars(&ours),
                chars(&slow)
            );
        }
    }
}

/// A version-3 body: the dumps in the dump format.
fn version_3_body(p: &SharePayload) -> Vec<u8> {
    let mut out = b"specdiff-share 3\n".to_vec();
    out.extend(serde_json::to_vec(&p.note).expect("a note"));
    out.push(b'\n');
    for dump in [&p.base, &p.head] {
        let json = dump.as_ref().map(to_json).unwrap_or_default();
        out.extend(format!("{}\n", json.len()).as_bytes());
        out.extend(json);
    }
    out
}

/// Characters of the link payload of `deflated` bytes (prefix and unpadded base64url).
fn chars(deflated: &[u8]) -> usize {
    3 + (deflated.len() * 4).div_ceil(3)
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, u128) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_millis())
}

fn flate2_best(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).expect("a Vec");
    enc.finish().expect("a Vec")
}

fn zopfli_defaults(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    zopfli::compress(zopfli::Options::default(), zopfli::Format::Deflate, bytes, &mut out).expect("a Vec");
    out
}
