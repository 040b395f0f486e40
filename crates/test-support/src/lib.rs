//! What specdiff's tests may take from the machine — interpreters, tools, a data set — and the
//! one rule for when one is missing: a test skips (prints `SKIPPED …` and returns) on a
//! developer's machine, but fails where the setup must have installed it, i.e. when
//! `SPECDIFF_REQUIRE_INTERPRETERS=1` (`.ci/run` sets it) or, without that variable, `CI=true`.
//! Something nothing installs ([`Need::optional`]) is a skip everywhere.
//!
//! Every check is appended, one line each, to [`record_path`]; `scripts/test.sh` turns that
//! record into one summary line ([`summary`], binary `test-summary`).

mod find;
mod record;

pub use find::{native_python, pyenv_exact, pyenv_newest, pyodide_python_version};
pub use record::{record_path, summary, Entry, Outcome};

/// The variable that makes a missing required interpreter fail the test.
pub const REQUIRE_VAR: &str = "SPECDIFF_REQUIRE_INTERPRETERS";

/// Something a test needs that a machine may lack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// How the record and the summary name it: `3.12`, `3.14(pyodide)`, `3.11-pystats`, …
    pub label: String,
    /// What installs it on a machine set up like CI's; `None` when nothing does (optional).
    pub installed_by: Option<String>,
}

impl Need {
    /// Something the setup installs: missing in CI is a failure.
    pub fn required(label: impl Into<String>, installed_by: impl Into<String>) -> Need {
        Need { label: label.into(), installed_by: Some(installed_by.into()) }
    }

    /// Something nothing installs: missing is a skip everywhere.
    pub fn optional(label: impl Into<String>) -> Need {
        Need { label: label.into(), installed_by: None }
    }

    /// pyenv's CPython `version` (a minor like `3.12`, or exactly `3.12.1`). The machine's
    /// pyenv has them (CI's image; scripts/setup.sh does not install CPython).
    pub fn cpython(version: &str) -> Need {
        Need::required(version, format!("`pyenv install {version}` (the CI image's pyenv has 3.11.7, 3.12.1, 3.13.0)"))
    }

    /// Native CPython `minor` (3.14, 3.15), unpacked from Debian's packages into
    /// `.tools/native-python` by the setup.
    pub fn native(minor: &str) -> Need {
        Need::required(minor, "scripts/setup.sh (scripts/install-native-python.py: Debian forky's packages into .tools/native-python)")
    }

    /// CPython 3.14 as the npm package pyodide under node.
    pub fn pyodide() -> Need {
        Need::required("3.14(pyodide)", "scripts/setup.sh (npm pyodide into .tools/npm)")
    }

    /// The `--enable-pystats` build of CPython `minor` (3.11 or 3.13).
    pub fn pystats(minor: &str) -> Need {
        Need::required(
            format!("{minor}-pystats"),
            format!("scripts/setup.sh (scripts/build-pystats-python.sh {minor})"),
        )
    }

    /// PyPy, to test the refusal of a Python that is not CPython.
    pub fn pypy3() -> Need {
        Need::required("pypy3", "scripts/setup.sh (apt-get install pypy3)")
    }

    /// The recorded CPython 3.11.2 pystats files in `shared/data/pystats-3.11` beside the
    /// repository.
    pub fn pystats_data() -> Need {
        Need::required(
            "pystats-3.11-data",
            "the CI checkout (shared/data/pystats-3.11 beside the repository; nothing downloads it)",
        )
    }
}

/// What to do about a missing [`Need`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Print this line and return: the test checked nothing.
    Skip(String),
    /// Fail the test with this message.
    Fail(String),
}

/// True when missing required things fail tests: [`REQUIRE_VAR`] is `1` (any other value:
/// no), else `CI` is `true`. `var` reads the environment.
pub fn strict_in(var: impl Fn(&str) -> Option<String>) -> bool {
    match var(REQUIRE_VAR) {
        Some(v) => v == "1",
        None => var("CI").is_some_and(|v| v == "true"),
    }
}

/// [`strict_in`] of this process's environment.
pub fn strict() -> bool {
    strict_in(|k| std::env::var(k).ok())
}

/// The decision, for `test` lacking `need` because of `why`.
pub fn verdict(strict: bool, test: &str, need: &Need, why: &str) -> Verdict {
    match &need.installed_by {
        Some(step) if strict => Verdict::Fail(format!(
            "{test}: {} is missing ({why}); it is required here ({REQUIRE_VAR}=1 or CI=true): {step} installs it",
            need.label
        )),
        Some(step) => Verdict::Skip(format!("SKIPPED {test}: {} is missing ({why}; {step} installs it)", need.label)),
        None => {
            Verdict::Skip(format!("SKIPPED {test}: {} is missing ({why}; optional, nothing installs it)", need.label))
        }
    }
}

/// Records that `test` ran with `label` (e.g. `3.12.1`, `3.14.2(pyodide)`).
pub fn ran(test: &str, label: &str) {
    record::append(&Entry { outcome: Outcome::Ran, label: label.into(), test: test.into(), why: String::new() });
}

/// Records that `test` lacks `need` because of `why` and returns the [`verdict`] under this
/// environment, for a caller that gathers several before failing.
pub fn missing(test: &str, need: &Need, why: &str) -> Verdict {
    let v = verdict(strict(), test, need, why);
    let outcome = if matches!(v, Verdict::Fail(_)) { Outcome::Missing } else { Outcome::Skipped };
    record::append(&Entry { outcome, label: need.label.clone(), test: test.into(), why: why.into() });
    v
}

/// [`missing`], then acts on it: prints the SKIPPED line (the caller returns), or panics.
#[track_caller]
pub fn skip_or_fail(test: &str, need: &Need, why: &str) {
    act(vec![missing(test, need, why)]);
}

/// Prints every skip, then panics with every failure, if any.
#[track_caller]
pub fn act(verdicts: Vec<Verdict>) {
    let mut failures = Vec::new();
    for v in verdicts {
        match v {
            // Straight to stderr: cargo's capture would hide the line of a passing test.
            Verdict::Skip(line) => {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "{line}");
            }
            Verdict::Fail(msg) => failures.push(msg),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_switch_and_ci_decide_strictness() {
        assert!(!strict_in(env(&[])));
        assert!(strict_in(env(&[(REQUIRE_VAR, "1")])));
        assert!(strict_in(env(&[("CI", "true")])));
        assert!(!strict_in(env(&[("CI", "1")])), "GitHub and GitLab set CI=true; other values are not CI's");
        // The switch wins over CI both ways, so a developer can run CI's environment locally.
        assert!(!strict_in(env(&[(REQUIRE_VAR, "0"), ("CI", "true")])));
        assert!(strict_in(env(&[(REQUIRE_VAR, "1"), ("CI", "false")])));
    }

    #[test]
    fn a_missing_required_thing_fails_only_when_strict() {
        let need = Need::pystats("3.13");
        let why = "SPECDIFF_PYSTATS_PYTHON_3_13=/nonexistent does not exist";
        let Verdict::Skip(line) = verdict(false, "t", &need, why) else { panic!("not strict: a skip") };
        assert!(line.starts_with("SKIPPED t: 3.13-pystats is missing (") && line.contains(why), "{line}");
        assert!(line.contains("scripts/build-pystats-python.sh 3.13"), "names what installs it: {line}");
        let Verdict::Fail(msg) = verdict(true, "t", &need, why) else { panic!("strict: a failure") };
        assert!(msg.contains("3.13-pystats") && msg.contains(why) && msg.contains(REQUIRE_VAR), "{msg}");
        assert!(msg.contains("scripts/build-pystats-python.sh 3.13"), "{msg}");
    }

    #[test]
    fn a_missing_optional_thing_skips_even_when_strict() {
        let need = Need::optional("CPython<3.11");
        for strict in [false, true] {
            let Verdict::Skip(line) = verdict(strict, "old", &need, "none here") else { panic!("optional: a skip") };
            assert!(line.contains("optional"), "{line}");
        }
    }

    #[test]
    #[should_panic(expected = "required here")]
    fn act_panics_with_the_failures_after_printing_the_skips() {
        act(vec![
            verdict(true, "t", &Need::optional("x"), "absent"),
            verdict(true, "t", &Need::pypy3(), "not on PATH"),
        ]);
    }
}
