//! A churning site costs time, though it is not a regression (issue 36): the cost-validation
//! pair `bench/cost_validation/call_poly.py`, whose head calls four functions in turn at one
//! `handle(1)` site, dumped on every native interpreter with a cost model (3.12+). The site is
//! `churning` on each, priced as a missing site (interval from nothing) with a point above
//! nothing, counted in the diff's total, and the gate stays as it was: no regression, so
//! `--fail-on-regression --cost --min-cost 1%` passes. Measured, the change costs 11–21 % of
//! the run (docs/cost-validation.md).

mod common;

use common::{dump_in, native_interpreters, on_two_threads, repo_root, specdiff, Interpreter};
use serde_json::Value;

fn dumps(interp: &Interpreter, dir: &std::path::Path) -> (String, String) {
    let bench = repo_root().join("bench/cost_validation");
    let side = |name: &str| {
        let out = dir.join(format!("call_poly-{name}-{}.json.gz", interp.key));
        let o = dump_in(interp, &bench, &out, &["call_poly.py", name]);
        assert!(o.status.success(), "{}: {}", interp.label, String::from_utf8_lossy(&o.stderr));
        out.to_string_lossy().into_owned()
    };
    (side("base"), side("head"))
}

#[test]
fn a_churning_call_in_a_hot_loop_is_priced_and_does_not_gate() {
    let dir = tempfile::tempdir().unwrap();
    let interps: Vec<&Interpreter> = native_interpreters().filter(|i| i.version() >= (3, 12)).collect();
    assert!(!interps.is_empty(), "no native CPython 3.12+");
    let pairs = on_two_threads(&interps, |i| dumps(i, dir.path()));
    for (interp, (base, head)) in interps.iter().zip(&pairs) {
        let out = specdiff().args(["diff", "--cost", "--json", base, head]).output().unwrap();
        assert!(out.status.success(), "{}: {}", interp.label, String::from_utf8_lossy(&out.stderr));
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let hot = json["functions"].as_array().unwrap().iter().find(|f| f["qualname"] == "hot").unwrap_or_else(|| panic!("{}: no hot", interp.label));
        assert_eq!(hot["regressions"], 0, "{}: {hot}", interp.label);
        let churning: Vec<&Value> = hot["changes"].as_array().unwrap().iter().filter(|c| c["kind"] == "churning").collect();
        assert!(churning.iter().any(|c| c["family"] == "CALL"), "{}: the call churns: {hot}", interp.label);
        let cost = &json["view"]["cost"];
        let f = cost["functions"].as_array().unwrap().iter().find(|f| f["qualname"] == "hot").unwrap_or_else(|| panic!("{}: hot not priced: {cost}", interp.label));
        let site = f["sites"].as_array().unwrap().iter().find(|s| s["family"] == "CALL").unwrap();
        assert_eq!(site["cost"]["estimate"], "estimated", "{}: {site}", interp.label);
        let share = &site["cost"]["share"];
        let (p, low, high) = (share["percent"].as_f64().unwrap(), share["low"].as_f64().unwrap(), share["high"].as_f64().unwrap());
        // Between never and always missing: the interval starts at nothing.
        assert!(low == 0.0 && 1.0 < p && p <= high && high <= 100.0, "{}: {share}", interp.label);
        assert!(cost["total"]["percent"].as_f64().unwrap() >= p, "{}: the total counts it: {cost}", interp.label);
        let gate = specdiff().args(["diff", "--fail-on-regression", "--cost", "--min-cost", "1%", base, head]).output().unwrap();
        assert_eq!(gate.status.code(), Some(0), "{}: {}", interp.label, String::from_utf8_lossy(&gate.stdout));
        eprintln!("{}: call_poly's churning call ≈ {p:.1}% ({low:.1}–{high:.1}%)", interp.label);
    }
}
