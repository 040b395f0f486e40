//! Two files the `specdiff` binary embeds, written to OUT_DIR:
//!
//! - `harness.py`, the Python harness `specdiff dump` runs: the parts in `src/harness/`
//!   (`NN_name.py`, one section each) joined in name order by `harness_join.rs`, which
//!   tests/harness_parts.rs includes too. It runs as one file (see `harness_join.rs`), but is
//!   kept as parts of a size to read and review.
//! - `viewer.html.gz`, the web viewer when it has been built: the one-file page
//!   `scripts/build-web.sh` writes (`dist/specdiff-offline.html`, or the one in the folder
//!   `SPECDIFF_VIEWER_DIST` names), gzip-compressed. Without it the file is empty and
//!   `specdiff view` / `diff --format html` say how to get it, so a fresh clone (or the crate
//!   from crates.io, which has no `dist/`) still builds with cargo alone.

use std::io::Write;
use std::path::{Path, PathBuf};

include!("harness_join.rs");

const PAGE: &str = "specdiff-offline.html";

fn main() {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    harness(&manifest, &out_dir);
    viewer(&manifest, &out_dir);
}

/// OUT_DIR/harness.py from the parts; a change to the folder (a part added, removed or renamed)
/// or to a part reruns this.
fn harness(manifest: &Path, out_dir: &Path) {
    let dir = manifest.join("src/harness");
    println!("cargo::rerun-if-changed={}", dir.display());
    let parts = harness_parts(&dir).unwrap_or_else(|e| panic!("the harness: {e}"));
    for (name, _) in &parts {
        println!("cargo::rerun-if-changed={}", dir.join(name).display());
    }
    std::fs::write(out_dir.join("harness.py"), join_harness(&parts)).expect("OUT_DIR is writable");
}

/// OUT_DIR/viewer.html.gz, empty when the viewer has not been built.
fn viewer(manifest: &Path, out_dir: &Path) {
    println!("cargo::rerun-if-env-changed=SPECDIFF_VIEWER_DIST");
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
    let out = out_dir.join("viewer.html.gz");
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
