//! What a Windows (or pip) user meets that these Linux machines can still show on real runs:
//! sources with CRLF line ends, dumps whose paths have drive letters and backslashes, and the
//! interpreter `specdiff dump` picks when it is installed into a virtual environment.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use serde_json::Value;

/// `specdiff dump --no-sample --include __main__ -o OUT SCRIPT 30` under `py`, with a fixed
/// hash seed so that two runs of the same program take the same paths.
fn dump_main(py: &Interpreter, out: &Path, script: &Path) {
    let o = specdiff()
        .args(["dump", "--no-sample", "--include", "__main__", "--python"])
        .arg(&py.python)
        .arg("-o")
        .arg(out)
        .arg(script)
        .arg("30")
        .env("PYTHONHASHSEED", "0")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: dump of {} failed: {}",
        py.minor,
        script.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn diff(args: &[&str]) -> Output {
    specdiff()
        .arg("diff")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The source lines a dump recorded for the file whose path ends in `suffix`.
fn recorded_source(dump: &specdiff_core::Dump, suffix: &str) -> Vec<(u32, String)> {
    let file = dump
        .files
        .iter()
        .find(|f| f.path.ends_with(suffix))
        .unwrap_or_else(|| panic!("no file {suffix}"));
    let mut lines = Vec::new();
    for (first, run) in &file.source {
        for (i, s) in run.iter().enumerate() {
            lines.push((first + i as u32, dump.strings[*s as usize].clone()));
        }
    }
    lines
}

#[test]
fn crlf_sources_dump_and_diff_like_lf_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let lf_src = std::fs::read_to_string(repo_root().join("examples/demo/base.py")).unwrap();
    assert!(!lf_src.contains('\r'));
    std::fs::create_dir_all(tmp.path().join("lf")).unwrap();
    std::fs::create_dir_all(tmp.path().join("crlf")).unwrap();
    let (lf, crlf) = (
        tmp.path().join("lf/base.py"),
        tmp.path().join("crlf/base.py"),
    );
    std::fs::write(&lf, &lf_src).unwrap();
    std::fs::write(&crlf, lf_src.replace('\n', "\r\n")).unwrap();
    let hot_line = line_of(&lf, "total += p.x * p.y");
    for py in interpreters() {
        let (a, b) = (
            tmp.path().join(format!("lf-{}.json", py.key)),
            tmp.path().join(format!("crlf-{}.json", py.key)),
        );
        dump_main(py, &a, &lf);
        dump_main(py, &b, &crlf);
        let (da, db) = (read(&a), read(&b));
        let (sa, sb) = (
            recorded_source(&da, "lf/base.py"),
            recorded_source(&db, "crlf/base.py"),
        );
        assert!(
            sb.iter().all(|(_, t)| !t.contains('\r')),
            "{}: a CR is left in the source: {sb:?}",
            py.minor
        );
        assert_eq!(
            sa, sb,
            "{}: CRLF and LF sources must be recorded alike",
            py.minor
        );
        assert!(
            sb.iter()
                .any(|(l, t)| *l == hot_line && t.trim() == "total += p.x * p.y"),
            "{}: {sb:?}",
            py.minor
        );
        // The same program checked out with either line end: nothing to report.
        let out = text(&diff(&[p(&a), p(&b)]));
        assert!(
            out.starts_with("specdiff diff: no specialization changes"),
            "{}: {out}",
            py.minor
        );
    }
}

/// Code compiled at run time under a made-up file name that starts with `<` but does not end
/// with `>` (networkx 3's `argmap` names its generated wrappers "<class '…argmap'>
/// compilation N") has no source: the dump must not record the text of the module that ran
/// `compile` for it, which linecache returns when it is handed that module's loader.
#[test]
fn code_under_a_made_up_file_name_records_no_source_of_its_module() {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("gen.py");
    std::fs::write(
        &script,
        "import sys\nSRC = 'def gen(x):\\n    return x + 1\\n'\nexec(compile(SRC, \"<class 'gen'> compilation 1\", 'exec'))\nn = 0\nfor i in range(int(sys.argv[1]) * 10):\n    n = gen(n)\n",
    )
    .unwrap();
    for py in interpreters() {
        let out = tmp.path().join(format!("gen-{}.json", py.key));
        dump_main(py, &out, &script);
        let dump = read(&out);
        assert!(dump.files.iter().any(|f| f.path.ends_with("compilation 1")), "{}: the generated code is not in the dump", py.minor);
        let generated = recorded_source(&dump, "compilation 1");
        assert!(generated.is_empty(), "{}: a made-up file got its module's text: {generated:?}", py.minor);
        assert!(recorded_source(&dump, "gen.py").iter().any(|(_, t)| t.trim() == "n = gen(n)"), "{}", py.minor);
    }
}

/// `path` as it would read on Windows under `root` (a drive-letter folder).
fn windows_path(root: &str, path: &str) -> String {
    format!("{root}{}", path.replace('/', "\\"))
}

/// The dump at `from` with every path in it rewritten by [`windows_path`], written to `to`.
fn as_windows_dump(from: &Path, to: &Path, root: &str) {
    let mut d: Value = serde_json::from_slice(&std::fs::read(from).unwrap()).unwrap();
    for f in d["files"].as_array_mut().unwrap() {
        let path = f["path"].as_str().unwrap();
        if path.starts_with('/') {
            f["path"] = windows_path(root, path).into();
        }
    }
    for (section, key) in [("run", "cwd"), ("python", "executable")] {
        let field = &mut d[section][key];
        *field = windows_path(root, field.as_str().unwrap()).into();
    }
    let script = windows_path(root, d["run"]["argv"][0].as_str().unwrap());
    d["run"]["argv"][0] = script.clone().into();
    d["run"]["target"]["value"] = script.into();
    d["python"]["platform"] = "win-amd64".into();
    std::fs::write(to, serde_json::to_vec(&d).unwrap()).unwrap();
}

/// Each function of a JSON report as (module, qualname, change kinds) — what the diff found,
/// without where the files were.
fn found(report: &Value) -> Vec<(String, String, Vec<String>)> {
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let kinds = f["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["kind"].to_string())
                .collect();
            (f["module"].to_string(), f["qualname"].to_string(), kinds)
        })
        .collect()
}

#[test]
fn windows_paths_in_dumps_diff_like_unix_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let dir = tmp.path();
    let (base, head) = (dir.join("base.json"), dir.join("head.json"));
    dump_main(py, &base, &repo_root().join("examples/demo/base.py"));
    dump_main(py, &head, &repo_root().join("examples/demo/head.py"));
    // Two machines, two drives: the base from a developer's C:, the head from a CI runner's D:.
    let (wbase, whead) = (dir.join("win-base.json"), dir.join("win-head.json"));
    as_windows_dump(&base, &wbase, r"C:\Users\dev");
    as_windows_dump(&head, &whead, r"D:\a\work");
    let json = |a: &Path, b: &Path| -> Value {
        serde_json::from_str(&text(&diff(&["--format", "json", p(a), p(b)]))).unwrap()
    };
    let unix = found(&json(&base, &head));
    assert!(!unix.is_empty(), "the demo pair has changes");
    assert_eq!(
        found(&json(&wbase, &whead)),
        unix,
        "drive letters and backslashes must not change what is matched"
    );

    let win_head = windows_path(r"D:\a\work", p(&repo_root().join("examples/demo/head.py")));
    let txt = text(&diff(&[p(&wbase), p(&whead)]));
    assert!(
        txt.contains(&format!("__main__:main  {win_head}:")),
        "the text names the Windows file as it is: {txt}"
    );
    assert!(
        txt.contains(&format!("· {win_head} 30 ")),
        "the header shows the Windows command line: {txt}"
    );
    // Markdown: a path is user data. In a code span its backslashes are literal; anywhere else
    // each must be escaped, or Markdown would eat it (`\a` shows as `a`).
    let md = text(&diff(&["--format", "markdown", p(&wbase), p(&whead)]));
    assert!(md.contains(&format!("`{win_head}:")), "{md}");
    assert!(md.contains(&win_head.replace('\\', "\\\\")), "{md}");
    for line in md.lines() {
        let outside_code: String = line.split('`').step_by(2).collect();
        assert!(
            !outside_code.contains(&win_head),
            "unescaped Windows path in Markdown: {line}"
        );
    }
}

/// A virtual environment of `py` with `specdiff` copied into its `bin`, as pip installs it.
fn venv_with_specdiff(py: &Interpreter, dir: &Path) -> PathBuf {
    let venv = dir.join(format!("venv-{}", py.key));
    let o = std::process::Command::new(&py.python)
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: venv: {}",
        py.minor,
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::copy(env!("CARGO_BIN_EXE_specdiff"), venv.join("bin/specdiff")).unwrap();
    venv
}

#[test]
fn installed_in_a_venv_dump_runs_that_venvs_python() {
    let tmp = tempfile::tempdir().unwrap();
    // Pyodide is a node script, not an interpreter a venv can be made of.
    for py in native_interpreters() {
        let venv = venv_with_specdiff(py, tmp.path());
        let out = tmp.path().join(format!("d-{}.json", py.key));
        let o = std::process::Command::new(venv.join("bin/specdiff"))
            .args(["dump", "--no-sample", "-o"])
            .arg(&out)
            .arg(repo_root().join("examples/demo/base.py"))
            .arg("5")
            .env_remove("SPECDIFF_PYTHON")
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}: {}",
            py.minor,
            String::from_utf8_lossy(&o.stderr)
        );
        let d = read(&out);
        assert_eq!(
            Path::new(&d.python.executable),
            venv.join("bin/python3"),
            "{}",
            py.minor
        );
        assert!(
            d.python.version.starts_with(py.minor),
            "{}: ran {}",
            py.minor,
            d.python.version
        );
        // --python (and SPECDIFF_PYTHON) still win over the venv's interpreter.
        let o = std::process::Command::new(venv.join("bin/specdiff"))
            .args(["dump", "--no-sample", "-o"])
            .arg(&out)
            .args(["-c", "pass"])
            .env("SPECDIFF_PYTHON", "/nonexistent/python9")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("/nonexistent/python9"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
