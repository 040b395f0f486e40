//! Hostile text: a program controls its qualnames, module and file names, attribute names,
//! source lines and argv, and a pull request controls file names. None of it may reach a
//! terminal (or a Markdown comment) as something to interpret: escape sequences (clear screen,
//! OSC 8 links, window titles), CR and LF that forge report lines, BEL, C1 controls and bidi
//! overrides are shown as visible escapes (`\x1b`, `\u202e`). Each case here is a row of the
//! table in docs/hostile-input.md ("Terminal and markdown").

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use specdiff_core::format::{to_json, DumpBuilder};
use specdiff_core::model::Dump;

use common::specdiff;

/// Everything a terminal would act on, in one string: clear screen, an OSC 8 hyperlink, an
/// OSC 0 window title, CR and LF forging a line, BEL, a right-to-left override, a C1 CSI and
/// a bidi isolate.
const PAYLOAD: &str = "\x1b[2J\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07\x1b]0;pwned\x07\rFAKE\nspecdiff: regression gate passed\x07\u{202e}txt.exe\u{9b}31m\u{2066}";

/// How each part of [`PAYLOAD`] must be shown.
const SHOWN: &[&str] = &[
    "\\x1b[2J",
    "\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07",
    "\\x1b]0;pwned\\x07",
    "\\rFAKE\\nspecdiff: regression gate passed\\x07",
    "\\u202etxt.exe",
    "\\x9b31m",
    "\\u2066",
];

/// The SGR sequences the text renderer itself writes with `--color always`.
const OWN_SGR: &[&str] = &["0", "1", "2", "31", "32", "33", "36", "1;31", "1;32"];

/// A dump whose every untrusted field carries `payload`: module (and so file path), qualname,
/// attribute operand, source lines, argv (the run label), and functions only on one side.
/// Base's attribute load is specialized, head's ran and is not (backed off): a regression the
/// gate counts (no samples, so every regression is hot).
fn dump(payload: &str, head: bool) -> Dump {
    let mut b = DumpBuilder::new("3.12.1");
    let module = format!("evil{payload}");
    let c = b.code(&module, &format!("Klass.meth{payload}"), 1).ins("LOAD_FAST", "self", 2);
    let attr = format!("attr{payload}");
    let c = if head { c.ins("LOAD_ATTR", &attr, 2).backoff(3) } else { c.ins("LOAD_ATTR_SLOT", &attr, 2) };
    c.finish();
    let side = if head { "only_head" } else { "only_base" };
    // A specializable site, so the report lists it ("only in" lists leave out code with none).
    b.code(&module, &format!("{side}{payload}"), 4).ins("LOAD_FAST", "x", 5).ins("LOAD_ATTR_SLOT", "y", 5).finish();
    b.source(&module, 1, &format!("def meth{payload}(self):"));
    b.source(&module, 2, &format!("    return self.attr  # {payload}"));
    let mut d = b.build();
    d.run.argv = vec![format!("prog{payload}.py")];
    d
}

/// Writes base and head dumps carrying `payload` into `dir`.
fn write_pair(dir: &Path, payload: &str) -> (PathBuf, PathBuf) {
    let (base, head) = (dir.join("base.json"), dir.join("head.json"));
    std::fs::write(&base, to_json(&dump(payload, false))).unwrap();
    std::fs::write(&head, to_json(&dump(payload, true))).unwrap();
    (base, head)
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    specdiff().args(args).env_remove("NO_COLOR").env_remove("SPECDIFF_LINK_BASE").output().unwrap()
}

fn diff(base: &Path, head: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec!["diff".as_ref()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    args.extend([base.as_os_str(), head.as_os_str()]);
    run(&args)
}

/// Characters a terminal or a bidi-aware viewer acts on. Written out here rather than taken
/// from the code under test, so a gap there cannot hide itself.
fn acted_on(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Fails when `out` holds a character a terminal would act on, other than line breaks and
/// (`own_sgr`) the renderer's own colour sequences.
fn assert_inert(what: &str, out: &str, own_sgr: bool) {
    let mut rest = out;
    while let Some(i) = rest.find(|c: char| c != '\n' && acted_on(c)) {
        let tail = &rest[i..];
        if own_sgr {
            if let Some(sgr) = tail.strip_prefix("\x1b[").and_then(|t| t.split_once('m')).map(|(code, _)| code) {
                if OWN_SGR.contains(&sgr) {
                    rest = &tail[2 + sgr.len() + 1..];
                    continue;
                }
            }
        }
        let at = out.len() - tail.len();
        let context: String = out[at.saturating_sub(60)..].chars().take(120).collect();
        panic!("{what}: {:?} reaches the output at byte {at}: {context:?}", tail.chars().next().unwrap());
    }
}

fn text(o: &[u8]) -> String {
    String::from_utf8(o.to_vec()).expect("output is UTF-8")
}

#[test]
fn text_and_markdown_show_escapes_and_forge_no_lines() {
    let dir = tempfile::tempdir().unwrap();
    let benign_dir = dir.path().join("benign");
    std::fs::create_dir(&benign_dir).unwrap();
    let (base, head) = write_pair(dir.path(), PAYLOAD);
    let (plain_base, plain_head) = write_pair(&benign_dir, "");
    for (what, extra, own_sgr) in [
        ("text --color never", &["--color", "never", "--all"][..], false),
        ("text --color always", &["--color", "always", "--all"][..], true),
        ("markdown", &["--format", "markdown"][..], false),
    ] {
        let o = diff(&base, &head, extra);
        assert_eq!(o.status.code(), Some(0), "{what}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        assert_inert(what, &out, own_sgr);
        for shown in SHOWN {
            // Markdown keeps a value on one line by turning CR and LF into spaces.
            let md = shown.replace("\\r", " ").replace("\\n", " ");
            let shown = if what == "markdown" { md.as_str() } else { shown };
            assert!(out.contains(shown), "{what}: {shown:?} is not shown in\n{out}");
        }
        // Every place a name, path, operand or source line appears, escaped.
        assert!(out.contains("Klass.meth\\x1b[2J") && out.contains("attr\\x1b[2J"), "{what}:\n{out}");
        assert!(out.contains("only_head\\x1b") && out.contains("only_base\\x1b"), "{what}:\n{out}");
        assert!(out.contains("return self.attr  # \\x1b[2J") && out.contains("prog\\x1b[2J"), "{what}:\n{out}");
        // The same report of harmless names has exactly as many lines: none was forged.
        let plain = text(&diff(&plain_base, &plain_head, extra).stdout);
        assert_eq!(out.lines().count(), plain.lines().count(), "{what}:\n{out}\n---\n{plain}");
        assert!(!out.lines().any(|l| l.starts_with("specdiff: regression gate passed")), "{what}");
    }
}

#[test]
fn the_gate_line_on_stderr_is_inert() {
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = write_pair(dir.path(), PAYLOAD);
    for colour in ["never", "always"] {
        let o = diff(&base, &head, &["--fail-on-regression", "--color", colour]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert_inert("gate stderr", &err, false);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("specdiff: regression gate tripped: 1 hot function regressed: evil\\x1b[2J"), "{err}");
        assert!(err.contains("Klass.meth\\x1b[2J\\x1b]8;;https://evil.example/\\x07click"), "{err}");
        let out = text(&o.stdout);
        assert!(out.contains("Regression gate:") && out.contains("Klass.meth\\x1b[2J"), "{out}");
        assert_inert("gate stdout", &out, colour == "always");
    }
}

#[test]
fn errors_naming_hostile_files_are_one_inert_line() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _) = write_pair(dir.path(), PAYLOAD);
    // A file name a pull request chose (no `/` in a name), for a file that is not there and
    // one that is no dump.
    let name = PAYLOAD.replace('/', "_");
    let missing = dir.path().join(format!("missing{name}.json"));
    let garbage = dir.path().join(format!("garbage{name}.json"));
    std::fs::write(&garbage, b"{\"format\": 1}").unwrap();
    // A different program (no code in common) whose argv, in the error, is hostile.
    let mut b = DumpBuilder::new("3.12.1");
    b.code("other", "g", 1).ins("LOAD_FAST", "y", 2).finish();
    let mut other = b.build();
    other.run.argv = vec![format!("other{PAYLOAD}.py")];
    let unrelated = dir.path().join("unrelated.json");
    std::fs::write(&unrelated, to_json(&other)).unwrap();
    let stats_missing = dir.path().join(format!("stats{name}"));
    let cases: Vec<(&str, Vec<&std::ffi::OsStr>, &str)> = vec![
        ("missing dump", vec!["diff".as_ref(), missing.as_os_str(), base.as_os_str()], "missing\\x1b[2J"),
        ("not a dump", vec!["diff".as_ref(), base.as_os_str(), garbage.as_os_str()], "garbage\\x1b[2J"),
        ("different programs", vec!["diff".as_ref(), base.as_os_str(), unrelated.as_os_str()], "other\\x1b[2J"),
        ("missing stats", vec!["stats".as_ref(), stats_missing.as_os_str()], "stats\\x1b[2J"),
    ];
    for (what, args, shown) in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert_inert(what, &err, false);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("specdiff: error: ") && err.contains(shown), "{what}: {err}");
        assert!(err.contains("\\u202etxt.exe"), "{what}: {err}");
    }
}

/// The same through a real run: a CPython program (tests/programs/hostile_names.py) names its
/// module, file and function with escape sequences, CR/LF, BEL and U+202E, and once raises an
/// exception with them; `specdiff dump` records it all, `specdiff diff` and `dump`'s own
/// stderr line show it inert.
#[test]
fn a_real_program_with_hostile_names() {
    let Some(interp) = common::interpreter("a_real_program_with_hostile_names", "3.12") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let program = common::repo_root().join("crates/cli/tests/programs/hostile_names.py");
    let program = program.to_str().unwrap();
    let (base, head) = (dir.path().join("base.json"), dir.path().join("head.json"));
    let folder = dir.path().to_str().unwrap();
    for (out, mode) in [(&base, "mono"), (&head, "poly")] {
        let o = common::dump_with(interp, out, &[program, mode, folder]);
        assert!(o.status.success(), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let escaped = "evil\\x1b[2J\\x1b]0;pwned\\x07\\rFAKE\\nspecdiff: regression gate passed\\x07\\u202etxt.exe";
    for (what, extra, own_sgr) in [
        ("text --color never", &["--color", "never"][..], false),
        ("text --color always", &["--color", "always"][..], true),
        ("markdown", &["--format", "markdown"][..], false),
    ] {
        let o = diff(&base, &head, extra);
        assert_eq!(o.status.code(), Some(0), "{what}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        assert_inert(what, &out, own_sgr);
        let module = if what == "markdown" { escaped.replace("\\r", " ").replace("\\n", " ") } else { escaped.into() };
        assert!(out.contains(&format!("{module}:total\\x1b[2J")), "{what}:\n{out}");
        assert!(out.contains("s += p.x  # \\x1b[2J\\x1b]0;pwned\\x07 FAKE"), "{what}:\n{out}");
    }
    // The program's own traceback is its own stderr; specdiff's line about it is inert.
    let o = common::dump_with(interp, &dir.path().join("raised.json"), &[program, "raise"]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().find(|l| l.starts_with("specdiff: the program raised")).unwrap_or_else(|| panic!("{err}"));
    assert_inert("dump stderr", line, false);
    assert!(line.contains("ValueError: \\x1b[2J\\x1b]0;pwned\\x07\\rFAKE"), "{line}");
}

#[test]
fn names_longer_than_any_column_do_not_break_the_table() {
    // A family and opname of 70,000 characters (past what Rust's formatter pads: a panic, exit
    // 101, before): the text table prints them capped, with no padding past its column.
    let dir = tempfile::tempdir().unwrap();
    let long = "F".repeat(70_000);
    let pair = |specialized: bool| {
        let mut b = DumpBuilder::new("3.12.1");
        let name = if specialized { format!("{long}_X") } else { long.clone() };
        b.op_explicit(&name, &long, specialized, Some(specdiff_core::model::CounterKind::Adaptive));
        b.code("m", "f", 1).ins(&name, "x", 2).finish();
        to_json(&b.build())
    };
    let (base, head) = (dir.path().join("base.json"), dir.path().join("head.json"));
    std::fs::write(&base, pair(true)).unwrap();
    std::fs::write(&head, pair(false)).unwrap();
    for format in ["text", "markdown", "json"] {
        let o = diff(&base, &head, &["--format", format, "--color", "never"]);
        assert_eq!(o.status.code(), Some(0), "{format}: {}", text(&o.stderr));
        // JSON keeps the name whole; text and Markdown show it capped, with its length
        // (docs/hostile-input.md, "Outputs bounded and inert").
        let out = text(&o.stdout);
        assert!(if format == "json" { out.contains(&long) } else { out.contains("…[70,000 chars #") }, "{format}");
    }
}
