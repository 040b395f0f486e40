//! Shared by the CLI integration tests: finds every CPython 3.11+ on this machine (pyenv's
//! 3.11–3.13, the native 3.14 and 3.15 scripts/setup.sh unpacks from Debian's packages, and
//! 3.14 as pyodide under node), records which ran and which were skipped or missing
//! (specdiff-test-support decides which), and runs `specdiff`.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use specdiff_core::format::read_dump;
use specdiff_core::model::Dump;
use specdiff_core::ReadLimits;

pub use specdiff_test_support::{ran, skip_or_fail, Need};

pub mod diff_demo;

/// One interpreter the tests run.
#[derive(Debug, Clone)]
pub struct Interpreter {
    /// `"3.12"` — the minor version this entry stands for.
    pub minor: &'static str,
    /// What tells this entry apart in file names and messages: the minor, or `3.14-pyodide`.
    pub key: &'static str,
    /// CPython compiled to WebAssembly under node: no threads, no subprocesses, no asyncio.run.
    pub pyodide: bool,
    /// What to pass as `--python`.
    pub python: PathBuf,
    /// How the test record names it: `3.12.1`, `3.14.2(pyodide)`, `3.11-pystats`.
    pub label: String,
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

impl Interpreter {
    /// `(3, minor)`.
    pub fn version(&self) -> (u32, u32) {
        let (major, minor) = self.minor.split_once('.').unwrap();
        (major.parse().unwrap(), minor.parse().unwrap())
    }
}

/// The interpreters the tests run, in this order: what `key` each has, and its minor version.
const KEYS: [(&str, &str); 6] =
    [("3.11", "3.11"), ("3.12", "3.12"), ("3.13", "3.13"), ("3.14", "3.14"), ("3.14-pyodide", "3.14"), ("3.15", "3.15")];

fn find(key: &'static str, minor: &'static str) -> Result<Interpreter, String> {
    if key == "3.14-pyodide" {
        let root = repo_root();
        let wrapper = root.join("scripts/python-pyodide");
        let package = root.join(".tools/npm/node_modules/pyodide");
        if !wrapper.exists() {
            return Err("scripts/python-pyodide is missing".into());
        }
        if !package.join("package.json").exists() {
            return Err("pyodide is not installed in .tools/npm".into());
        }
        if Command::new("node").arg("--version").output().is_err() {
            return Err("node is not installed".into());
        }
        let version = specdiff_test_support::pyodide_python_version(&package).unwrap_or_else(|| minor.into());
        return Ok(Interpreter { minor, key, pyodide: true, python: wrapper, label: format!("{version}(pyodide)") });
    }
    let native = |python: PathBuf, label: String| Interpreter { minor, key, pyodide: false, python, label };
    if let Some((label, python)) = specdiff_test_support::native_python(&repo_root(), minor) {
        return Ok(native(python, label));
    }
    if let Some((version, python)) = specdiff_test_support::pyenv_newest(minor) {
        return Ok(native(python, version));
    }
    let name = format!("python{minor}");
    match Command::new(&name).arg("--version").output() {
        Ok(o) if o.status.success() => {
            let version = String::from_utf8_lossy(&o.stdout).trim().trim_start_matches("Python ").to_string();
            Ok(native(PathBuf::from(name), version))
        }
        _ => Err(format!("no CPython {minor} found (.tools/native-python, pyenv or {name} on PATH)")),
    }
}

/// What provides the interpreter `key` for the tests.
fn need(key: &str) -> Need {
    match key {
        "3.14-pyodide" => Need::pyodide(),
        "3.14" | "3.15" => Need::native(key),
        _ => Need::cpython(key),
    }
}

/// The CPython versions `scripts/build-pystats-python.sh VERSION` builds with
/// `--enable-pystats`; tests/pystats_capture.rs runs under each one present.
pub const PYSTATS_MINORS: [&str; 2] = ["3.11", "3.13"];

/// The `--enable-pystats` build of CPython `minor` (one of [`PYSTATS_MINORS`]): env
/// `SPECDIFF_PYSTATS_PYTHON` (3.11) or `SPECDIFF_PYSTATS_PYTHON_3_13` (3.13), else the one
/// `scripts/build-pystats-python.sh MINOR` installs (`.tools/pystats-python/bin/python3.11`,
/// `.tools/pystats-python-3.13/bin/python3.13`). Only checked to exist: running a 3.11 one
/// would leave a stats file in `/tmp/py_stats`.
pub fn pystats_python(minor: &str) -> Result<PathBuf, String> {
    let var = match minor {
        "3.11" => "SPECDIFF_PYSTATS_PYTHON".to_string(),
        _ => format!("SPECDIFF_PYSTATS_PYTHON_{}", minor.replace('.', "_")),
    };
    if let Some(p) = std::env::var_os(&var).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("{var}={} does not exist", p.display())) };
    }
    let prefix = match minor {
        "3.11" => ".tools/pystats-python".to_string(),
        _ => format!(".tools/pystats-python-{minor}"),
    };
    let p = repo_root().join(prefix).join(format!("bin/python{minor}"));
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("no {}", p.display()))
    }
}

/// Every CPython 3.11–3.15 present (3.14 twice: native and pyodide), each recorded as run (see specdiff-test-support). One
/// missing is a skip (its line printed once per test binary) or, where the setup must have
/// installed it (`SPECDIFF_REQUIRE_INTERPRETERS=1`, `CI=true`), a failure of every test that
/// asks.
pub fn interpreters() -> &'static [Interpreter] {
    static FOUND: OnceLock<Vec<Interpreter>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let mut found = Vec::new();
        let mut verdicts = Vec::new();
        for (key, minor) in KEYS {
            match find(key, minor) {
                Ok(i) => {
                    ran("interpreters", &i.label);
                    found.push(i);
                }
                Err(why) => verdicts.push(specdiff_test_support::missing("interpreters", &need(key), &why)),
            }
        }
        specdiff_test_support::act(verdicts);
        assert!(!found.is_empty(), "no CPython 3.11+ at all on this machine");
        found
    })
}

/// The interpreter `key` (`"3.12"`, `"3.14-pyodide"`) if present; if not, `test` skips (the
/// caller returns) or fails, as [`skip_or_fail`] decides.
pub fn interpreter(test: &str, key: &str) -> Option<&'static Interpreter> {
    let found = interpreters().iter().find(|i| i.key == key);
    if found.is_none() {
        skip_or_fail(test, &need(key), &format!("CPython {key} is not among the interpreters found"));
    }
    found
}

/// The native interpreters present (pyodide cannot start processes or threads).
pub fn native_interpreters() -> impl Iterator<Item = &'static Interpreter> {
    interpreters().iter().filter(|i| !i.pyodide)
}

/// A native interpreter, for tests that need one and do not care which (the first found).
/// Strict runs have them all; `interpreters()` already fails when none is present.
pub fn any_native() -> &'static Interpreter {
    native_interpreters()
        .next()
        .expect("a native CPython (pyodide cannot start processes)")
}

/// The `specdiff` binary under test.
pub fn specdiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_specdiff"))
}

/// Runs `specdiff dump --python PY -o OUT ARGS…` in the repository's root and returns the
/// process output.
pub fn dump_with<A: AsRef<OsStr>>(interp: &Interpreter, out: &Path, args: &[A]) -> Output {
    dump_in(interp, &repo_root(), out, args)
}

/// [`dump_with`] run in `cwd` (relative script paths and `-m` modules are found there).
pub fn dump_in<A: AsRef<OsStr>>(interp: &Interpreter, cwd: &Path, out: &Path, args: &[A]) -> Output {
    specdiff()
        .arg("dump")
        .arg("--python")
        .arg(&interp.python)
        .arg("-o")
        .arg(out)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("specdiff runs")
}

/// Dumps `args` and reads the dump back, failing the test with specdiff's stderr on error.
pub fn dump_ok(interp: &Interpreter, dir: &Path, name: &str, args: &[&str]) -> Dump {
    let out = dir.join(format!("{name}-{}.json", interp.key));
    let o = dump_with(interp, &out, args);
    assert!(
        o.status.success(),
        "specdiff dump {args:?} under {} failed ({:?}):\n{}",
        interp.minor,
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    read(&out)
}

/// Reads a dump file with the core reader.
pub fn read(path: &Path) -> Dump {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_dump(&path.display().to_string(), &bytes, ReadLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The code object `qualname` from a file ending in `file_suffix`.
pub fn code<'a>(d: &'a Dump, file_suffix: &str, qualname: &str) -> &'a specdiff_core::model::CodeInfo {
    d.code
        .iter()
        .find(|c| d.str(c.qualname) == qualname && d.files[c.file as usize].path.ends_with(file_suffix))
        .unwrap_or_else(|| {
            let names: Vec<_> = d
                .code
                .iter()
                .filter(|c| d.files[c.file as usize].path.ends_with(file_suffix))
                .map(|c| d.str(c.qualname))
                .collect();
            panic!("no code object {qualname} in {file_suffix}; have {names:?}")
        })
}

/// `(opname, argrepr, line)` of every instruction of `c`.
pub fn listing(d: &Dump, c: &specdiff_core::model::CodeInfo) -> Vec<(String, String, Option<u32>)> {
    c.instructions
        .iter()
        .map(|i| (d.op(i).name.clone(), d.str(i.argrepr).to_string(), i.line))
        .collect()
}

/// The 1-based line of the first line of `file` containing `needle`.
pub fn line_of(file: &Path, needle: &str) -> u32 {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle:?} not in {}", file.display())) as u32 + 1
}

/// The regressed sites of a `specdiff diff --json --fail-on-regression` report
/// (`module:qualname kind line N`) outside the import-time code its gate leaves out: module and
/// class bodies and `importlib._bootstrap*`, whose weakref callbacks run when the garbage
/// collector does, which differs between runs of one unchanged program.
pub fn regressions_outside_import_time(report: &serde_json::Value) -> Vec<String> {
    let import_time: Vec<&str> =
        report["gate"]["import_time"].as_array().unwrap().iter().map(|g| g["function"].as_str().unwrap()).collect();
    let mut found = Vec::new();
    for f in report["functions"].as_array().unwrap() {
        let name = format!("{}:{}", f["module"].as_str().unwrap(), f["qualname"].as_str().unwrap());
        if import_time.contains(&name.as_str()) {
            continue;
        }
        for c in f["changes"].as_array().unwrap() {
            let kind = c["kind"].as_str().unwrap();
            if matches!(kind, "lost" | "missing" | "backed_off") {
                found.push(format!("{name} {kind} line {}", c["head_line"]));
            }
        }
    }
    found
}

/// `work` applied to every item, two at a time (the machines the tests run on have two cores,
/// and a test's time is mostly spent waiting for interpreter and specdiff processes); the
/// results come back in the items' order, whatever order they finish in.
pub fn on_two_threads<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                done.lock().unwrap().push((i, result));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
