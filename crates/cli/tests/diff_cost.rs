//! `specdiff diff --cost` on the real demo fixtures: the JSON's `view.cost` holds each
//! estimate inside its interval and inside the run, text and markdown say the same total in
//! the same words, the regressed functions come ranked by their estimate, the gate's
//! `--min-cost` fails below the estimates' low ends and passes above them, and a diff with no
//! model for its version, or a bad model file, is one line and status 2. (`noise_floor.rs`
//! runs `--min-cost` on repeated runs of unchanged programs.)

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

/// `specdiff diff ARGS demo-base-3.12 demo-head-3.12`: exit code, stdout, stderr.
fn demo(args: &[&str]) -> (i32, String, String) {
    let (base, head) = (fixture("demo-base-3.12"), fixture("demo-head-3.12"));
    let out = specdiff().arg("diff").args(args).args([&base, &head]).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), text(&out.stdout), text(&out.stderr))
}

fn share(v: &serde_json::Value) -> (f64, f64, f64) {
    (v["percent"].as_f64().unwrap(), v["low"].as_f64().unwrap(), v["high"].as_f64().unwrap())
}

#[test]
fn min_cost_fails_below_the_estimates_low_end_and_passes_above_it() {
    // --min-cost 0: every hot function counts, each with the estimate the gate weighed.
    let (code, out, err) = demo(&["--fail-on-regression", "--cost", "--min-cost", "0", "--json"]);
    assert_eq!(code, 1, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let gate = &json["gate"];
    let hot = gate["hot"].as_array().unwrap();
    let lows: Vec<f64> = hot.iter().filter(|f| !f["cost"].is_null()).map(|f| share(&f["cost"]).1).collect();
    let highest_low = lows.iter().copied().fold(0.0, f64::max);
    eprintln!("demo 3.12: hot functions' estimates {:?}", hot.iter().map(|f| (&f["function"], &f["cost"])).collect::<Vec<_>>());
    assert!(highest_low >= 0.1, "the demo's hot loop costs a measurable share at its low end: {hot:?}");
    // A low threshold: the demo's lost slot load and polymorphic calls still fail the gate.
    let (code, out, err) = demo(&["--fail-on-regression", "--cost", "--min-cost", "0.1%", "--json"]);
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["gate"]["min_cost"], 0.1);
    for f in json["gate"]["hot"].as_array().unwrap() {
        assert!(share(&f["cost"]).1 >= 0.1, "counted below the threshold: {f}");
    }
    assert!(err.contains("hot function") && err.contains("costing ≥ 0.1% of run time (estimate's low end) regressed:"), "{err}");
    // Above every low end (yet under some point estimates): nothing is shown to cost that much.
    let above = format!("{:.2}%", highest_low + 0.01);
    let (code, out, err) = demo(&["--fail-on-regression", "--cost", "--min-cost", &above, "--json"]);
    assert_eq!(code, 0, "{above}: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let g = &json["gate"];
    assert!(g["hot"].as_array().unwrap().is_empty() && !g["cheap"].as_array().unwrap().is_empty(), "{g}");
    // The text gate says why it passed.
    let (code, out, _) = demo(&["--fail-on-regression", "--cost", "--min-cost", &above, "--color", "never"]);
    assert_eq!(code, 0);
    let threshold = above.trim_end_matches('%').parse::<f64>().unwrap();
    assert!(out.contains(&format!("Regression gate: passed (functions with hotness ≥ 1% at 95% confidence count; with an estimated cost ≥ {threshold}% of run time at its interval's low end)")), "{out}");
    assert!(out.contains(&format!("whose estimated cost's low end is below {threshold}% not counted")), "{out}");
}

#[test]
fn min_cost_needs_cost_and_the_gate_and_reads_percentages() {
    let (code, _, err) = demo(&["--fail-on-regression", "--min-cost", "1%"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--cost"), "{err}");
    let (code, _, err) = demo(&["--cost", "--min-cost", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--min-cost is for --fail-on-regression"), "{err}");
    let (code, _, err) = demo(&["--fail-on-regression", "--cost", "--min-cost", "lots"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'lots' is not a percentage"), "{err}");
    // `1%` and `1` are the same threshold.
    assert_eq!(demo(&["--fail-on-regression", "--cost", "--min-cost", "1%", "--json"]).1, demo(&["--fail-on-regression", "--cost", "--min-cost", "1", "--json"]).1);
}

#[test]
fn cost_ranks_the_regressed_functions_in_every_format() {
    let (_, plain, _) = demo(&["--json"]);
    let (_, costed, _) = demo(&["--cost", "--json"]);
    let (plain, costed): (serde_json::Value, serde_json::Value) = (serde_json::from_str(&plain).unwrap(), serde_json::from_str(&costed).unwrap());
    let names = |j: &serde_json::Value| -> Vec<String> { j["functions"].as_array().unwrap().iter().map(|f| f["qualname"].as_str().unwrap().to_string()).collect() };
    let (before, after) = (names(&plain), names(&costed));
    let mut sorted = (before.clone(), after.clone());
    sorted.0.sort();
    sorted.1.sort();
    assert_eq!(sorted.0, sorted.1, "the same functions");
    // Each function with regressions, outside import-time code, in the order of its estimate;
    // every other function where it was.
    let cost: Vec<&serde_json::Value> = costed["view"]["cost"]["functions"].as_array().unwrap().iter().filter(|f| f["import_time"] == false).collect();
    let points: Vec<f64> = cost.iter().map(|f| share(&f["share"]).0).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    let ranked: Vec<&str> = cost.iter().map(|f| f["qualname"].as_str().unwrap()).collect();
    let regressed: Vec<&str> = costed["functions"].as_array().unwrap().iter().filter(|f| f["regressions"].as_u64() > Some(0) && f["import_time"] != true).map(|f| f["qualname"].as_str().unwrap()).collect();
    assert_eq!(ranked, regressed);
    for (i, f) in plain["functions"].as_array().unwrap().iter().enumerate() {
        if f["regressions"] == 0 {
            assert_eq!(before[i], after[i], "a function without regressions keeps its place");
        }
    }
    eprintln!("demo 3.12: engine order {before:?}; by cost {after:?} ({points:?})");
    // The view and the gate follow the same order; text and markdown list the functions so.
    assert_eq!(names(&costed["view"]), after);
    let (_, text, _) = demo(&["--cost", "--color", "never"]);
    let (_, md, _) = demo(&["--cost", "--format", "markdown"]);
    let at = |out: &str, q: &str| out.find(&format!("__main__:{q}")).unwrap_or_else(|| panic!("{q}"));
    for pair in regressed.windows(2) {
        assert!(at(&text, pair[0]) < at(&text, pair[1]), "{pair:?}");
        assert!(at(&md, pair[0]) < at(&md, pair[1]), "{pair:?}");
    }
}

#[test]
fn markdown_says_the_cost_in_texts_words() {
    let (code, md, err) = demo(&["--cost", "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    let (_, text, _) = demo(&["--cost", "--color", "never"]);
    // The recorded line (the committed 3.12 fixtures and cost model): change it only when the
    // model, the estimate or its wording changes on purpose.
    let line = md.lines().find(|l| l.starts_with("**Estimated cost")).unwrap_or_else(|| panic!("{md}"));
    assert_eq!(line, "**Estimated cost of the lost specializations:** ≈ 35.5% of run time (0.8%–100.0%) (CPython 3.12.1 cost model; a rough estimate: within ±50 % of the measured time on 7 of 10 test programs on this version)");
    let total = line.trim_start_matches("**Estimated cost of the lost specializations:** ").split(" (CPython").next().unwrap();
    assert!(text.contains(&format!("): {total}\n")), "text says {total} too:\n{text}");
    // Each regressed function: the same words in the table's column as in text's list.
    let json: serde_json::Value = serde_json::from_str(&demo(&["--cost", "--json"]).1).unwrap();
    for f in json["view"]["cost"]["functions"].as_array().unwrap().iter().filter(|f| f["import_time"] == false) {
        let q = f["qualname"].as_str().unwrap();
        let text_line = text.lines().find(|l| l.starts_with(&format!("  {q}  "))).unwrap_or_else(|| panic!("{q}: {text}"));
        let words = text_line.trim_start_matches(&format!("  {q}  "));
        let row = md.lines().find(|l| l.starts_with(&format!("| `__main__:{q}` |"))).unwrap_or_else(|| panic!("{q}"));
        assert!(row.contains(&format!(" | {words} | ")), "{row} vs {words}");
    }
    assert!(md.contains("| function | hot | regressions | estimated cost | sites | specialized |"), "{md}");
    // Without --cost not a word of it (same_output.rs holds the whole comment byte for byte).
    let (_, plain, _) = demo(&["--format", "markdown"]);
    assert!(!plain.contains("stimated cost"), "{plain}");
}
