//! What a reader on another machine sees of a run (issue 14, "Paths as a reader needs them"),
//! on real interpreters: the stdlib as `<stdlib>/…`, the program relative to the folder it
//! ran in, the run header as typed (`-m pkg …`), a true warning for a run that exited 1
//! after running everything, and output files that honour the umask.

mod common;

use std::path::Path;
use std::process::Output;

use common::{dump_in, interpreters, read, specdiff};
use specdiff_core::report::paths::PathDisplay;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A package `app` with a `__main__` that runs stdlib code (json) and code of its own.
fn write_package(dir: &Path) {
    let pkg = dir.join("app");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("__init__.py"), "").unwrap();
    std::fs::write(
        pkg.join("work.py"),
        "import json\n\ndef encode(rows):\n    return [json.dumps(r) for r in rows]\n",
    )
    .unwrap();
    std::fs::write(
        pkg.join("__main__.py"),
        "import sys\nfrom app.work import encode\nfor _ in range(300):\n    encode([{'a': 1, 'b': [1, 2]}] * 20)\nprint(sys.argv[1:])\n",
    )
    .unwrap();
}

#[test]
fn stdlib_and_program_paths_are_shown_as_a_reader_needs_them() {
    for interp in interpreters() {
        let dir = tempfile::tempdir().unwrap();
        write_package(dir.path());
        let out = dir.path().join("run.json");
        let o = dump_in(interp, dir.path(), &out, &["-m", "app", "--fast"]);
        assert!(o.status.success(), "{}: {}", interp.label, stderr(&o));
        let d = read(&out);
        assert!(!d.python.paths.stdlib.is_empty(), "{}: the dump records the stdlib's folder", interp.label);
        assert_eq!(d.label(), format!("CPython {} · -m app --fast", d.python.version), "{}", interp.label);

        let shown = PathDisplay::of(&d);
        let files: Vec<(String, String)> = d.files.iter().map(|f| (f.path.clone(), shown.show(&f.path))).collect();
        let find = |suffix: &str| {
            files
                .iter()
                .find(|(raw, _)| raw.replace('\\', "/").ends_with(suffix))
                .unwrap_or_else(|| panic!("{}: no file ending in {suffix} in {files:#?}", interp.label))
        };
        assert_eq!(find("/json/encoder.py").1, "<stdlib>/json/encoder.py", "{}", interp.label);
        assert_eq!(find("app/work.py").1, "app/work.py", "{}", interp.label);
        for (raw, display) in &files {
            for stdlib in &d.python.paths.stdlib {
                if raw.starts_with(&format!("{stdlib}/")) {
                    assert!(display.starts_with("<"), "{}: {raw} shown as {display}", interp.label);
                }
            }
        }
    }
}

#[test]
fn a_test_run_that_exits_1_is_not_said_to_have_skipped_code() {
    let interp = &interpreters()[0];
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("test_two.py"),
        "import unittest\n\nclass T(unittest.TestCase):\n    def test_fails(self):\n        self.assertEqual(1, 2)\n\n    def test_passes(self):\n        self.assertEqual(sum(range(10)), 45)\n",
    )
    .unwrap();
    let out = dir.path().join("run.json");
    let o = dump_in(interp, dir.path(), &out, &["-m", "unittest", "test_two"]);
    assert_eq!(o.status.code(), Some(1), "the program's status passes through: {}", stderr(&o));
    let d = specdiff().arg("diff").arg(&out).arg(&out).current_dir(dir.path()).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&d.stdout), stderr(&d));
    assert!(text.contains("run exited with status 1"), "{text}");
    assert!(!text.contains("did not run"), "{text}");
    assert!(text.contains("-m unittest test_two"), "the header shows the command as typed: {text}");
}

#[cfg(unix)]
#[test]
fn output_files_honour_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let interp = &interpreters()[0];
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.py"), "def f(x):\n    return x + 1\nfor i in range(200):\n    f(i)\n").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let sh = |umask: &str, args: &str| {
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_specdiff"))
            .env("PY", &interp.python)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{args}: {}", stderr(&o));
    };
    sh("027", "dump --python \"$PY\" -o run.json prog.py");
    assert_eq!(mode(&dir.path().join("run.json")), 0o640);
    sh("002", "diff run.json run.json --format json -o diff.json");
    assert_eq!(mode(&dir.path().join("diff.json")), 0o664);
    sh("022", "dump --python \"$PY\" -o run.json.gz prog.py");
    assert_eq!(mode(&dir.path().join("run.json.gz")), 0o644);
}
