//! Input files read within the readers' size limit, and the one-line messages of the dump
//! reader (issue 31, `docs/hostile-input.md`, "Readers, round two"). The big inputs are a
//! sparse file and `/dev/zero`, never written out; `specdiff` runs under an address-space
//! limit (`ulimit -v`), so a reader that reads them whole dies instead of taking the machine's
//! memory: before the fix `diff` and `stats` read a 4 GB sparse file and `/dev/zero` whole (3 GB
//! and more before anything stopped them).

use std::path::{Path, PathBuf};
use std::process::Output;

/// The demo's base dump: a real dump of a real run.
fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/demo/base.json")
}

/// `specdiff ARGS…` in `dir`, its address space limited to `kb` kilobytes.
#[cfg(unix)]
fn specdiff_within(dir: &Path, kb: u64, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_specdiff"))
        .args(args)
        .output()
        .unwrap()
}

/// Asserts exit status 2, nothing on stdout and exactly `line` on stderr.
fn refused(o: &Output, line: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!((o.status.code(), err.trim_end()), (Some(2), line), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(o.stdout.is_empty());
}

/// A regular file past the limit is refused from its size: not a byte read, whatever it holds.
#[cfg(unix)]
#[test]
fn a_file_past_the_limit_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::File::create(dir.path().join("sparse.json")).unwrap().set_len(4 << 30).unwrap();
    std::fs::copy(demo(), dir.path().join("x.json")).unwrap();
    // 400 MB of address space: less than the limit, so nothing of that size was allocated.
    let line = "specdiff: error: sparse.json: too large (4.0 GB, limit 512 MB)";
    refused(&specdiff_within(dir.path(), 400_000, &["diff", "sparse.json", "x.json"]), line);
    refused(&specdiff_within(dir.path(), 400_000, &["diff", "x.json", "sparse.json"]), line);
    refused(&specdiff_within(dir.path(), 400_000, &["stats", "sparse.json"]), line);
}

/// A device (or pipe) is read to one byte past the limit, into one buffer of the limit: 1.5 GB
/// of address space is enough for the 512 MB limit and the other dump.
#[cfg(target_os = "linux")]
#[test]
fn a_device_is_read_only_to_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(demo(), dir.path().join("x.json")).unwrap();
    let line = "specdiff: error: /dev/zero: too large (read more than 512 MB, limit 512 MB)";
    refused(&specdiff_within(dir.path(), 1_500_000, &["diff", "/dev/zero", "x.json"]), line);
    refused(&specdiff_within(dir.path(), 1_500_000, &["stats", "/dev/zero"]), line);
}

/// What the dump reader refuses, each in one exact line: the JSON edited the way issue 31 did.
#[test]
fn wrong_dumps_get_one_exact_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(demo()).unwrap();
    std::fs::write(dir.path().join("x.json"), &text).unwrap();
    let dump: serde_json::Value = serde_json::from_str(&text).unwrap();
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut d = dump.clone();
        edit(&mut d);
        std::fs::write(dir.path().join(name), serde_json::to_vec(&d).unwrap()).unwrap();
    };
    let diff = |file: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_specdiff"))
            .current_dir(dir.path())
            .args(["diff", file, "x.json"])
            .output()
            .unwrap()
    };
    // A second "format" key was "the top level is not a JSON object".
    std::fs::write(
        dir.path().join("dup.json"),
        format!("{{\"format\": \"specdiff-dump\", {}", &text.trim_start()[1..]),
    )
    .unwrap();
    refused(&diff("dup.json"), "specdiff: error: dup.json: duplicate key `format` at the top level");
    // Invalid UTF-8 was "syntax error at line 1 column 57".
    let key = text.find("\"generator\"").unwrap() + "\"generator\"".len();
    let at = key + text[key..].find('"').unwrap() + 1;
    let mut bytes = text.clone().into_bytes();
    bytes.insert(at, 0xff);
    std::fs::write(dir.path().join("latin.json"), &bytes).unwrap();
    refused(&diff("latin.json"), &format!("specdiff: error: latin.json: not UTF-8 (byte {} is 0xff)", at + 1));
    // Accepted, although dump-format.md says they are refused.
    edited("pypy.json", &|d| d["python"]["implementation"] = "pypy".into());
    refused(
        &diff("pypy.json"),
        "specdiff: error: pypy.json: bad field python.implementation: \"pypy\": only CPython dumps are read (\"cpython\")",
    );
    edited("v0.json", &|d| d["version"] = 0.into());
    refused(
        &diff("v0.json"),
        "specdiff: error: v0.json: bad field version: 0 is not a format version (versions start at 1)",
    );
    edited("py310.json", &|d| d["python"]["version_info"][1] = 10.into());
    refused(
        &diff("py310.json"),
        "specdiff: error: py310.json: bad field python.version_info: 3.10: specdiff reads CPython 3.11 and later",
    );
}
