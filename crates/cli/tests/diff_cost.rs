//! `specdiff diff --cost` on the real demo fixtures: the JSON's `view.cost` holds each
//! estimate inside its interval and inside the run, text says the same total, and a diff
//! with no model for its version, or a bad model file, is one line and status 2.

mod common;

use common::specdiff;

fn fixture(name: &str) -> String {
    format!("{}/../core/tests/fixtures/dumps/{name}.json.gz", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn cost_estimates_hold_their_intervals_and_text_says_the_json_total() {
    let (base, head) = (fixture("demo-base-3.12"), fixture("demo-head-3.12"));
    let out = specdiff().args(["diff", "--cost", "--json", &base, &head]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cost = &json["view"]["cost"];
    assert_eq!(cost["model_python"], "3.12.1");
    let total = &cost["total"];
    let (p, low, high) = (total["percent"].as_f64().unwrap(), total["low"].as_f64().unwrap(), total["high"].as_f64().unwrap());
    assert!(0.0 < low && low <= p && p <= high && high <= 100.0, "{total}");
    for f in cost["functions"].as_array().unwrap() {
        for site in f["sites"].as_array().unwrap() {
            if site["cost"]["estimate"] == "estimated" {
                let s = &site["cost"]["share"];
                assert!(s["low"].as_f64() <= s["percent"].as_f64() && s["percent"].as_f64() <= s["high"].as_f64(), "{site}");
            } else {
                assert!(site["cost"]["why"].as_str().is_some_and(|w| !w.is_empty()), "{site}");
            }
        }
    }
    let text = specdiff().args(["diff", "--cost", &base, &head]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let line = text.lines().find(|l| l.starts_with("Estimated cost of the lost specializations")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(&format!("≈ {:.1}% of run time", p)), "{line} vs {p}");
    // Without --cost nothing changes: the key is absent.
    let plain = specdiff().args(["diff", "--json", &base, &head]).output().unwrap();
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain["view"].get("cost").is_none());
}

#[test]
fn no_model_or_a_bad_one_is_one_line_and_status_2() {
    let (base, head) = (fixture("demo-base-3.11"), fixture("demo-head-3.11"));
    let out = specdiff().args(["diff", "--cost", &base, &head]).env("XDG_CACHE_HOME", "/nonexistent").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no cost model for CPython 3.11") && err.trim().lines().count() == 1, "{err}");
    let (base, head) = (fixture("demo-base-3.12"), fixture("demo-head-3.12"));
    let out = specdiff().args(["diff", "--cost", "--cost-model", &base, &base, &head]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a cost model") && err.trim().lines().count() == 1, "{err}");
}
