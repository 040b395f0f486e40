//! The pull-request action (action.yml) runs `scripts/ci/specdiff_pr.py` for everything but the
//! GitHub API call; this runs that script as the action does, on the demo pair under every
//! interpreter present: dump each side, write the comment and the verdict, fail (or not) on a
//! regression. Then the poster's tests (`node --test tests/ci/`) read the artifact it made.

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

#[test]
fn the_action_script_dumps_diffs_and_decides_on_real_dumps() {
    let tmp = tempfile::tempdir().unwrap();
    let root = repo_root();
    let root = root.to_str().unwrap();
    for py in interpreters() {
        let out = tmp.path().join(py.key);
        let (base, head) = (out.join("base.json"), out.join("head.json"));
        let python = py.python.to_str().unwrap();
        for (side, file) in [("base", &base), ("head", &head)] {
            let command = format!("examples/demo/{side}.py 200");
            let o = script(
                &["dump", root, file.to_str().unwrap()],
                &[("SPECDIFF_COMMAND", &command), ("SPECDIFF_PYTHON", python)],
            );
            ok(&o, &format!("dump {side} under {}", py.minor));
        }
        let (b, h, dir) = (base.to_str().unwrap(), head.to_str().unwrap(), out.to_str().unwrap());
        let env = [
            ("PR_NUMBER", "7"),
            ("SPECDIFF_FAIL_ON_REGRESSION", "true"),
            ("SPECDIFF_LINK_BASE", "http://127.0.0.1:9/x/"),
        ];
        ok(&script(&["report", b, h, dir], &env), "report");
        let comment = text(&out.join("comment.md"));
        assert!(comment.starts_with("<!-- specdiff -->\n## specdiff: "), "{}", &comment[..200]);
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
    let o = script(&["dump", root, "/tmp/never.json"], &[("SPECDIFF_COMMAND", " ")]);
    assert_eq!(o.status.code(), Some(2));

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
