//! Outputs bounded and inert (issue 31): a dump interns its strings, so one long qualname
//! shared by many code objects is cheap to write but was repeated whole on every line that
//! named one; and a program's own text (an exception message) reached the PR comment as
//! Markdown GitHub acts on (mentions, links). The rows of docs/hostile-input.md, "Outputs
//! bounded and inert".

mod common;

use std::path::Path;
use std::time::Instant;

use specdiff_core::format::{to_json, DumpBuilder};

use common::specdiff;

/// `n` code objects sharing one qualname of `len` characters, each with an attribute load
/// that base specialized and head backed off from: `n` regressed functions with one name.
fn shared_name_pair(dir: &Path, n: usize, len: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let qualname = format!("Klass.{}", "Q".repeat(len));
    let side = |head: bool| {
        let mut b = DumpBuilder::new("3.12.1");
        for i in 0..n {
            let line = 1 + 3 * i as u32;
            let c = b.code("mod", &qualname, line).ins("LOAD_FAST", "self", line + 1);
            let c = if head {
                c.ins("LOAD_ATTR", "attr", line + 1).backoff(3)
            } else {
                c.ins("LOAD_ATTR_SLOT", "attr", line + 1)
            };
            c.finish();
        }
        to_json(&b.build())
    };
    let (base, head) = (dir.join(format!("base-{n}.json")), dir.join(format!("head-{n}.json")));
    std::fs::write(&base, side(false)).unwrap();
    std::fs::write(&head, side(true)).unwrap();
    (base, head)
}

/// `specdiff diff --format FORMAT`: (stdout bytes, seconds).
fn diff_size(base: &Path, head: &Path, format: &str) -> (usize, f64) {
    let start = Instant::now();
    let o = specdiff()
        .args(["diff", "--format", format, "--color", "never"])
        .args([base, head])
        .env_remove("SPECDIFF_LINK_BASE")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{format}: {}", String::from_utf8_lossy(&o.stderr));
    (o.stdout.len(), start.elapsed().as_secs_f64())
}

#[test]
fn a_long_name_shared_by_many_functions_is_shown_capped() {
    // 100,000-character qualname (the was 1 MB; this keeps a debug build quick), shared
    // by N and 10 N code objects. Before: text output grew by the whole name per function
    // (N × 100 KB); now each is shown in at most 200 characters (`…[100,008 chars #…]…`).
    let dir = tempfile::tempdir().unwrap();
    let (n, len) = (20, 100_000);
    let small = shared_name_pair(dir.path(), n, len);
    let big = shared_name_pair(dir.path(), 10 * n, len);
    for format in ["text", "markdown"] {
        let (bytes_n, secs_n) = diff_size(&small.0, &small.1, format);
        let (bytes_10n, secs_10n) = diff_size(&big.0, &big.1, format);
        // Bounded by the number of functions, not by the name's length: 2 KB a function.
        assert!(bytes_n < 2_048 * n + 8_192, "{format}: {bytes_n} bytes for {n} functions");
        assert!(bytes_10n < 2_048 * 10 * n + 8_192, "{format}: {bytes_10n} bytes for {} functions", 10 * n);
        // And proportional: 10× the functions, at most ~10× the bytes (plus the fixed part).
        assert!(bytes_10n <= 11 * bytes_n, "{format}: {bytes_n} → {bytes_10n} bytes");
        // Time follows the input too (10× the input costs < 30× the time).
        assert!(secs_10n < 30.0 * secs_n, "{format}: {secs_n:.2} s → {secs_10n:.2} s");
    }
    let text = String::from_utf8(
        specdiff().args(["diff", "--color", "never"]).args([&small.0, &small.1]).output().unwrap().stdout,
    )
    .unwrap();
    let names: Vec<&str> = text.lines().filter(|l| l.starts_with("mod:Klass.")).collect();
    assert_eq!(names.len(), n, "{text}");
    for line in &names {
        let name = line.split("  ").next().unwrap();
        assert!(name.chars().count() <= 4 + 200, "mod: + a capped qualname: {name}");
        // The engine tells them apart as `Klass.QQ…Q@LINE`: the end and the hash keep it.
        assert!(name.contains("…[100,00") && name.contains(" chars #"), "{name}");
    }
}

#[test]
fn a_programs_mentions_and_urls_are_not_acted_on_in_markdown() {
    // Issue 31: the exception of the head run lands in the comment's `> [!WARNING]`.
    let dir = tempfile::tempdir().unwrap();
    let side = |exception: Option<&str>| {
        let mut b = DumpBuilder::new("3.12.1");
        b.code("@octocat", "f", 1).ins("LOAD_ATTR_SLOT", "www.evil.example", 2).finish();
        let mut d = b.build();
        d.run.exception = exception.map(str::to_string);
        to_json(&d)
    };
    let (base, head) = (dir.path().join("base.json"), dir.path().join("head.json"));
    std::fs::write(&base, side(None)).unwrap();
    std::fs::write(&head, side(Some("RuntimeError: cc @octocat @github/security-team see https://evil.example/x")))
        .unwrap();
    let o = specdiff().args(["diff", "--format", "markdown"]).args([&base, &head]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8(o.stdout).unwrap();
    let warning = md.lines().find(|l| l.starts_with("> the head run stopped")).unwrap_or_else(|| panic!("{md}"));
    assert!(
        warning.contains(
            "(RuntimeError: cc @&#8203;octocat @&#8203;github/security-team see https:&#8203;//evil.example/x)"
        ),
        "{warning}"
    );
    // Outside code spans, no `@` starts a mention and no URL is left for GitHub to link.
    for line in md.lines() {
        let outside: String = line.split('`').step_by(2).collect();
        assert!(!outside.contains("@o") && !outside.contains("@g"), "a mention: {line}");
        assert!(!outside.contains("://") && !outside.contains("www."), "a link: {line}");
    }
}
