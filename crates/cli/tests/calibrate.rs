//! `specdiff calibrate --quick` on every interpreter present: the forms it timed are the ones
//! dis showed at the sites (the calibration refuses to time a site in another form), they are
//! that version's opnames, and the model committed for the version (`crates/core/cost-models/`)
//! covers the same forms, so a diff's estimate names what the interpreter really does. A quick
//! run is never cached.

mod common;

use std::collections::BTreeSet;

use common::{interpreters, specdiff};
use specdiff_core::cpython::{has_opname, op_family};
use specdiff_core::format::{committed_cost_model, read_cost_model, ReadLimits};

#[test]
fn quick_calibration_times_the_forms_dis_shows_and_the_committed_model_has_them() {
    let mut checked = Vec::new();
    for py in interpreters().iter().filter(|p| !p.pyodide && p.version() >= (3, 12)) {
        let cache = tempfile::tempdir().unwrap();
        let out = specdiff()
            .args(["calibrate", "--quick", "--json", "--python"])
            .arg(&py.python)
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {}", py.label, String::from_utf8_lossy(&out.stderr));
        let model = read_cost_model("stdout", &out.stdout, ReadLimits::default()).unwrap();
        let version = py.version();
        assert!(model.python.starts_with(&format!("{}.{}.", version.0, version.1)), "{}: {}", py.label, model.python);
        assert_eq!(model.mode, "quick");
        for f in &model.forms {
            assert!(has_opname(version, &f.specialized), "{}: {} is not a {version:?} opname", py.label, f.specialized);
            let (family, _) = op_family(Some(version), &f.specialized);
            assert_ne!(family, f.specialized, "{}: {} is a base form", py.label, f.specialized);
            let missing_site = f.generic_by.contains("in turn");
            assert!(missing_site || f.generic == family, "{}: {} timed against {}", py.label, f.specialized, f.generic);
        }
        let families: BTreeSet<&str> = model.forms.iter().map(|f| f.family.as_str()).collect();
        for needed in ["BINARY_OP", "BINARY_SUBSCR", "COMPARE_OP", "LOAD_ATTR", "LOAD_GLOBAL", "STORE_ATTR", "CALL", "UNPACK_SEQUENCE"] {
            assert!(families.contains(needed), "{}: no {needed} form timed: {families:?}", py.label);
        }
        if let Some(committed) = committed_cost_model(version) {
            let forms = |m: &specdiff_core::model::CostModel| -> BTreeSet<String> { m.forms.iter().map(|f| format!("{} {}", f.operation, f.specialized)).collect() };
            assert_eq!(forms(&committed), forms(&model), "{}: the committed model's forms differ from what the interpreter does", py.label);
        }
        assert!(std::fs::read_dir(cache.path()).unwrap().next().is_none(), "{}: a quick calibration was cached", py.label);
        checked.push(py.label.clone());
    }
    eprintln!("calibrated (quick) on {checked:?}");
}
