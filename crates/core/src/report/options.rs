//! What a diff is asked to do ([`DiffOptions`]) and why it can refuse ([`DiffError`]): the
//! inputs and the one error of [`super::diff_dumps`], apart from the pipeline that uses them.

use serde::{Deserialize, Serialize};

use crate::engine::align::AlignOptions;
use crate::engine::classify::ClassifyOptions;

/// What to diff and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DiffOptions {
    /// Glob patterns (`*`, `?`) for functions: a code object is included when one matches its
    /// qualname, `module.qualname` or `module:qualname`. Empty: all.
    pub functions: Vec<String>,
    /// Glob patterns for module names. Empty: all.
    pub modules: Vec<String>,
    /// Also list unchanged functions and unchanged sites (`--all`).
    pub include_unchanged: bool,
    /// Classifier thresholds.
    pub classify: ClassifyOptions,
    /// Alignment settings.
    pub align: AlignOptions,
    /// Return a report (with an `unrelated` warning) instead of
    /// [`DiffError::DifferentPrograms`].
    pub allow_unrelated: bool,
    /// Run the explanation rules.
    pub explain: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            functions: vec![],
            modules: vec![],
            include_unchanged: false,
            classify: ClassifyOptions::default(),
            align: AlignOptions::default(),
            allow_unrelated: false,
            explain: true,
        }
    }
}

/// Why two dumps cannot be diffed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiffError {
    /// The programs' own code has nothing in common, or less than half of it is alike
    /// (docs/engine.md, "Different programs").
    #[error("these dumps are from different programs ({base} vs {head}): {detail}")]
    DifferentPrograms {
        /// Base label.
        base: String,
        /// Head label.
        head: String,
        /// Code objects of the programs' own code matched by name.
        matched: u32,
        /// How alike the programs' own code is: 2 × sites aligned as `same` in the matched
        /// pairs / all sites of the own code objects of both sides, matched or not.
        best_similarity: f64,
        /// Human-readable reason.
        detail: String,
    },
}

/// Below this similarity of their own code, two dumps are considered different programs.
pub(crate) const RELATED_SIMILARITY: f64 = 0.5;
