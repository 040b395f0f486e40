//! Embeds the web viewer in the `specdiff` binary when it has been built: the one-file page
//! `scripts/build-web.sh` writes (`dist/specdiff-offline.html`, or the one in the folder
//! `SPECDIFF_VIEWER_DIST` names), gzip-compressed into `OUT_DIR/viewer.html.gz`. Without it the
//! file is empty and `specdiff view` / `diff --format html` say how to get it, so a fresh clone
//! (or the crate from crates.io, which has no `dist/`) still builds with cargo alone.

use std::io::Write;
use std::path::PathBuf;

const PAGE: &str = "specdiff-offline.html";

fn main() {
    println!("cargo::rerun-if-env-changed=SPECDIFF_VIEWER_DIST");
    let manifest = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let dist = match std::env::var_os("SPECDIFF_VIEWER_DIST").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        // In this repository only: a packaged crate (crates.io, the sdist) has no workspace.
        None if manifest.join("../../Cargo.toml").exists() => manifest.join("../../dist"),
        None => manifest.join("no-viewer"),
    };
    let page = dist.join(PAGE);
    // A path that does not exist yet reruns this script on every build, so building the
    // viewer later is picked up by the next `cargo build`.
    println!("cargo::rerun-if-changed={}", page.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("viewer.html.gz");
    let bytes = match std::fs::read(&page) {
        Ok(html) => {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            enc.write_all(&html).expect("writing to a Vec cannot fail");
            enc.finish().expect("writing to a Vec cannot fail")
        }
        Err(_) => Vec::new(),
    };
    // Tells the package's tests which behaviour to expect from `view` and `--format html`.
    if !bytes.is_empty() {
        println!("cargo::rustc-env=SPECDIFF_VIEWER_EMBEDDED=1");
    }
    std::fs::write(&out, bytes).expect("OUT_DIR is writable");
}
