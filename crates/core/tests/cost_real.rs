//! Estimated costs on the real demo dumps (`tests/fixtures/dumps`, 3.12 and 3.13) with the
//! committed cost models: the demo's hot regressions cost a share of the run inside the
//! line's own share, its intervals hold the estimate, and what cannot be estimated says why.

use specdiff_core::format::committed_cost_model;
use specdiff_core::report::ChangeKind;
use specdiff_core::view::cost::{function_cost, site_cost, SiteCost};
use specdiff_core::*;

fn load(name: &str) -> model::Dump {
    let path = format!("{}/tests/fixtures/dumps/{name}.json.gz", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_dump(&path, &bytes, ReadLimits::default()).unwrap()
}

#[test]
fn demo_regressions_cost_less_than_their_lines_and_hold_their_intervals() {
    for (v, minor) in [("3.12", (3, 12)), ("3.13", (3, 13))] {
        let (base, head) = (load(&format!("demo-base-{v}")), load(&format!("demo-head-{v}")));
        let report = diff_dumps(&base, &head, &DiffOptions::default()).unwrap();
        let model = committed_cost_model(minor).unwrap();
        assert!(report.head.samples > 0, "{v}: the fixture is sampled");
        let mut estimated = 0;
        for f in &report.functions {
            for c in f.changes.iter().filter(|c| c.kind.is_regression()) {
                match site_cost(&report, &head, &model, f, c) {
                    SiteCost::Estimated { share } => {
                        estimated += 1;
                        let line_share = 100.0 * c.hotness as f64 / report.head.samples as f64;
                        assert!(share.low <= share.percent && share.percent <= share.high, "{v} {}: {share:?}", f.qualname);
                        assert!(share.percent <= line_share + 1e-9, "{v} {}: {share:?} above the line's {line_share}%", f.qualname);
                        assert!(share.low >= 0.0, "{v}: {share:?}");
                    }
                    SiteCost::Unknown { why } | SiteCost::Nothing { why } => assert!(!why.is_empty()),
                }
            }
        }
        let dot_sum = report.functions.iter().find(|f| f.qualname == "dot_sum").unwrap();
        let lost_slot = dot_sum.changes.iter().find(|c| c.kind == ChangeKind::Lost && c.family == "LOAD_ATTR").unwrap();
        match site_cost(&report, &head, &model, dot_sum, lost_slot) {
            SiteCost::Estimated { share } => assert!(share.percent > 0.0, "{v}: the hot loop's lost slot load costs something: {share:?}"),
            other => panic!("{v}: dot_sum's lost LOAD_ATTR_SLOT not estimated: {other:?}"),
        }
        let (total, _) = function_cost(&report, &head, &model, dot_sum);
        assert!(total.percent > 0.0 && total.percent < 100.0, "{v}: {total:?}");
        assert!(estimated > 0, "{v}");
        eprintln!("{v}: dot_sum ≈ {:.2}% ({:.2}–{:.2}%)", total.percent, total.low, total.high);
    }
}
