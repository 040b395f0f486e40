//! The pull-request action (action.yml) runs `scripts/ci/specdiff_pr.py` for everything but the
//! GitHub API call; this runs that script as the action does, on the demo pair under every
//! interpreter present: dump each side, write the comment and the verdict, fail (or not) on a
//! regression, and fail with one line when a run failed or the runs are not comparable. Then
//! the poster's tests (`node --test tests/ci/`) read the artifact it made. The whole action, with
//! its git checkouts, venvs and the comment workflow, is run by scripts/action-runner.py.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::*;

fn script(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("python3");
    c.arg(repo_root().join("scripts/ci/specdiff_pr.py")).args(args).current_dir(repo_root());
    c.env("SPECDIFF", env!("CARGO_BIN_EXE_specdiff"))
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("SPECDIFF_LINK_BASE");
    c.envs(env.iter().copied()).output().expect("python3 runs")
}

fn ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what}: {:?}\n{}", o.status, String::from_utf8_lossy(&o.stderr));
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Two checkouts of one program, `bench.py`: the demo's base and head versions of it.
fn checkouts(dir: &Path) -> (String, String) {
    let demo = repo_root().join("examples/demo");
    for side in ["base", "head"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
        std::fs::copy(demo.join(format!("{side}.py")), dir.join(side).join("bench.py")).unwrap();
    }
    (dir.join("base").to_str().unwrap().into(), dir.join("head").to_str().unwrap().into())
}

#[test]
fn the_action_script_dumps_diffs_and_decides_on_real_dumps() {
    let tmp = tempfile::tempdir().unwrap();
    let (base_checkout, head_checkout) = checkouts(tmp.path());
    for py in interpreters() {
        let out = tmp.path().join(py.key);
        let (base, head) = (out.join("base.json"), out.join("head.json"));
        let python = py.python.to_str().unwrap();
        for (checkout, file) in [(&base_checkout, &base), (&head_checkout, &head)] {
            let o = script(
                &["dump", checkout, file.to_str().unwrap()],
                &[("SPECDIFF_COMMAND", "bench.py 200"), ("SPECDIFF_PYTHON", python)],
            );
            ok(&o, &format!("dump {checkout} under {}", py.minor));
        }
        let (b, h, dir) = (base.to_str().unwrap(), head.to_str().unwrap(), out.to_str().unwrap());
        let env = [
            ("PR_NUMBER", "7"),
            ("SPECDIFF_FAIL_ON_REGRESSION", "true"),
            ("SPECDIFF_LINK_BASE", "http://127.0.0.1:9/x/"),
            ("SPECDIFF_KEY", "bench-py3"),
            ("HEAD_SHA", "0123abc"),
            ("RUN_URL", "https://github.example/o/r/actions/runs/5"),
        ];
        ok(&script(&["report", b, h, dir], &env), "report");
        let comment = text(&out.join("comment.md"));
        let stamp = "<!-- specdiff key=bench-py3 -->\n<sub>job `bench-py3` · head 0123abc · [run](https://github.example/o/r/actions/runs/5)</sub>\n\n## specdiff: ";
        assert!(comment.starts_with(stamp), "{}", &comment[..300]);
        assert_eq!(text(&out.join("key")), "bench-py3\n");
        let link = format!("**[open in the viewer](http://127.0.0.1:9/x/#share={}", specdiff_core::share::PREFIX);
        assert!(comment.contains(&link), "{}", &comment[..400]);
        assert!(comment.contains("dot_sum") && comment.chars().count() <= 65_536);
        assert_eq!(text(&out.join("pr-number")), "7\n");
        // The demo's regressions are hot (or hotness is unknown, under pyodide): the gate trips.
        assert_eq!(text(&out.join("verdict")), "regressed\n", "{}", py.minor);
        let v = script(&["verdict", dir], &[]);
        assert_eq!(v.status.code(), Some(1), "{}", String::from_utf8_lossy(&v.stderr));
        // Without --fail-on-regression the check passes, with the same comment.
        ok(&script(&["report", b, h, dir], &[("PR_NUMBER", "7")]), "report without the gate");
        assert_eq!(text(&out.join("verdict")), "pass\n");
        ok(&script(&["verdict", dir], &[]), "verdict");
        assert!(!text(&out.join("comment.md")).contains("open in the viewer"));
    }
    let first = tmp.path().join(interpreters()[0].key);
    let (b, h) = (first.join("base.json"), first.join("head.json"));
    for (number, needle) in [("", "PR_NUMBER ''"), ("7; id", "PR_NUMBER '7; id': not a pull-request number")] {
        let o = script(
            &["report", b.to_str().unwrap(), h.to_str().unwrap(), first.to_str().unwrap()],
            &[("PR_NUMBER", number)],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!((o.status.code(), err.lines().count()), (Some(2), 1), "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let o = script(&["dump", &head_checkout, "/tmp/never.json"], &[("SPECDIFF_COMMAND", " ")]);
    assert_eq!(o.status.code(), Some(2));
    gate_refuses_broken_and_incomparable_runs(&first, &base_checkout, tmp.path());

    // The poster's unit tests, and its reading of this artifact.
    let o = Command::new("node")
        .args(["--test", "tests/ci/"])
        .current_dir(repo_root())
        .env("SPECDIFF_ARTIFACT_DIR", &first)
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && report.contains("# fail 0") && report.contains("# skipped 0"), "{report}");
}

/// With the gate on, a failed run, a missing dump, another interpreter or another program fails
/// the check with one line, and the comment opens with the same reason.
fn gate_refuses_broken_and_incomparable_runs(good: &Path, base_checkout: &str, tmp: &Path) {
    let crash = tmp.join("crash");
    std::fs::create_dir_all(&crash).unwrap();
    std::fs::write(crash.join("bench.py"), "def f(): raise ValueError('@org/team broke it')\nf()\n").unwrap();
    let crashed = tmp.join("crashed.json");
    let python = interpreters()[0].python.to_str().unwrap().to_owned();
    let o = script(
        &["dump", crash.to_str().unwrap(), crashed.to_str().unwrap()],
        &[("SPECDIFF_COMMAND", "bench.py"), ("SPECDIFF_PYTHON", &python)],
    );
    ok(&o, "dump of a crashing program (its dump is still made)");
    let other = tmp.join("other.json");
    let o = script(
        &["dump", base_checkout, other.to_str().unwrap()],
        &[("SPECDIFF_COMMAND", "bench.py 300"), ("SPECDIFF_PYTHON", &python)],
    );
    ok(&o, "dump with other arguments");
    let base = good.join("base.json");
    let mut cases = vec![
        (crashed.clone(), "the head run failed: ValueError: &#64;org/team broke it".to_owned()),
        (tmp.join("never.json"), "the head dump is missing".to_owned()),
        (other, "not comparable: base ran `script bench.py 200`, head `script bench.py 300`".to_owned()),
    ];
    // Another interpreter (the first one is the base's): its dump of the same program.
    if let Some(py) = interpreters().iter().skip(1).find(|p| p.minor != interpreters()[0].minor && !p.pyodide) {
        let theirs = tmp.join("other-python.json");
        let o = script(
            &["dump", base_checkout, theirs.to_str().unwrap()],
            &[("SPECDIFF_COMMAND", "bench.py 200"), ("SPECDIFF_PYTHON", py.python.to_str().unwrap())],
        );
        ok(&o, "dump under another interpreter");
        cases.push((theirs, "not comparable: base ran ".to_owned()));
    }
    for (head, why) in &cases {
        let out = tmp.join("gate");
        let env = [("PR_NUMBER", "7"), ("SPECDIFF_FAIL_ON_REGRESSION", "true")];
        ok(&script(&["report", base.to_str().unwrap(), head.to_str().unwrap(), out.to_str().unwrap()], &env), why);
        let comment = text(&out.join("comment.md"));
        assert!(
            comment.starts_with(&format!("<!-- specdiff key=specdiff -->\n## specdiff: ⚠️ {why}")),
            "{comment:.300}"
        );
        let v = script(&["verdict", out.to_str().unwrap()], &[]);
        let err = String::from_utf8_lossy(&v.stderr);
        assert_eq!((v.status.code(), err.lines().count()), (Some(1), 1), "{err}");
        assert!(err.starts_with(&format!("specdiff_pr: {why}")), "{err}");
    }
}
