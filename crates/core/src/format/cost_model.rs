//! Cost models (`docs/cost-model.md`): the reader of the document `specdiff calibrate` writes,
//! and the models measured on this project's interpreters, committed under
//! `crates/core/cost-models/` and read through the same reader.

use crate::format::document::{load, DocumentKind};
use crate::format::input::{InputError, InputErrorKind, ReadLimits};
use crate::model::cost::{CostModel, COST_MODEL_FORMAT, COST_MODEL_VERSION};
use crate::model::dump::FORMAT_NAME;

static COST_MODEL: DocumentKind = DocumentKind {
    format: COST_MODEL_FORMAT,
    version: COST_MODEL_VERSION,
    raw_pystats: None,
    others: &[(FORMAT_NAME, "this is a specdiff dump, not a cost model (make one with `specdiff calibrate`)")],
};

/// The models measured here, by `(major, minor)`: `(version, file name, text)`.
const COMMITTED: &[((u32, u32), &str, &str)] = &[
    ((3, 12), "3.12.json", include_str!("../../cost-models/3.12.json")),
    ((3, 13), "3.13.json", include_str!("../../cost-models/3.13.json")),
    ((3, 14), "3.14.json", include_str!("../../cost-models/3.14.json")),
    ((3, 15), "3.15.json", include_str!("../../cost-models/3.15.json")),
];

/// Reads a cost model (plain or gzip JSON). `file` names it in error messages.
pub fn read_cost_model(file: &str, bytes: &[u8], limits: ReadLimits) -> Result<CostModel, InputError> {
    let mut document = load(file, bytes, limits)?.json(&COST_MODEL)?;
    document.check_header()?;
    let model: CostModel = document.parse()?;
    let low_above_high = model.forms.iter().position(|f| f.saved_low_ns > f.saved_high_ns);
    if let Some(i) = low_above_high {
        let detail = "saved_low_ns is above saved_high_ns".to_string();
        return Err(InputError::new(file, InputErrorKind::BadField { path: format!("forms[{i}]"), detail }));
    }
    Ok(model)
}

/// The model measured here on CPython `version` (major, minor), if there is one.
pub fn committed_cost_model(version: (u32, u32)) -> Option<CostModel> {
    let (_, name, text) = COMMITTED.iter().find(|(v, _, _)| *v == version)?;
    // A committed file that does not read is a build defect the tests catch, not user input.
    read_cost_model(name, text.as_bytes(), ReadLimits::default()).ok()
}

/// The versions with a committed model.
pub fn committed_cost_model_versions() -> Vec<(u32, u32)> {
    COMMITTED.iter().map(|(v, _, _)| *v).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_model_reads_and_names_its_version() {
        for (version, name, text) in COMMITTED {
            let model = read_cost_model(name, text.as_bytes(), ReadLimits::default()).unwrap();
            assert!(model.python.starts_with(&format!("{}.{}.", version.0, version.1)), "{name}: {}", model.python);
            assert_eq!(model.mode, "full", "{name}: a committed model is a full calibration");
            assert!(model.forms.len() >= 10, "{name}: {} forms", model.forms.len());
        }
    }

    #[test]
    fn a_dump_given_as_a_cost_model_is_told_so() {
        let err = read_cost_model("d.json", br#"{"format": "specdiff-dump", "version": 1}"#, ReadLimits::default()).unwrap_err();
        assert!(err.to_string().contains("not a cost model"), "{err}");
    }
}
