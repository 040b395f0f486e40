//! Import-time code: what every output counts apart from the program's own running code.
//!
//! Module and class bodies run once, when imported; the interpreter's import machinery
//! (`importlib._bootstrap`, `importlib._bootstrap_external`, `<frozen importlib…>`) and its
//! startup (`site`, `sitecustomize`, `usercustomize`) run before or around the program; and a
//! function every sample of which was taken inside an import (an `Enum` metaclass building a
//! module's enums, a dataclass decorator, `re.compile` of a module-level pattern) ran for an
//! import. Their counters move with import order and caches, not with the code under review:
//! chardet 4 → 5 had 81 regressions in its headline, 28 of them in `enum` internals that ran
//! at import (issue 29). The report lists these functions after the others, marked, and its
//! headline, summary, markdown, page and gate count their regressions apart, by this one
//! definition.

use super::types::{CodeKind, Hotness};

/// Modules the interpreter runs at startup, before the program (`site` imports the other two).
const STARTUP_MODULES: [&str; 3] = ["site", "sitecustomize", "usercustomize"];

/// True for code that runs at import time: module and class bodies, the interpreter's import
/// machinery and startup, and functions sampled only inside imports.
pub fn is_import_time(kind: CodeKind, module: &str, hotness: &Hotness) -> bool {
    let h = hotness;
    let only_inside_imports = h.base_share + h.head_share > 0.0 && h.base_runtime_share + h.head_runtime_share == 0.0;
    matches!(kind, CodeKind::Module | CodeKind::Class)
        || module == "importlib._bootstrap"
        || module == "importlib._bootstrap_external"
        || module.starts_with("<frozen importlib")
        || STARTUP_MODULES.contains(&module)
        || only_inside_imports
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_machinery_startup_and_import_only_samples_are_import_time() {
        let none = Hotness::default();
        assert!(is_import_time(CodeKind::Module, "app", &none));
        assert!(is_import_time(CodeKind::Class, "app", &none));
        assert!(is_import_time(CodeKind::Function, "importlib._bootstrap", &none));
        assert!(is_import_time(CodeKind::Function, "<frozen importlib._bootstrap_external>", &none));
        for (module, startup) in [("site", true), ("sitecustomize", true), ("usercustomize", true), ("sites", false), ("mysite.site", false)] {
            assert_eq!(is_import_time(CodeKind::Function, module, &none), startup, "{module}");
        }
        assert!(!is_import_time(CodeKind::Function, "app", &none), "never sampled: nothing says import");
        // 5 % of the samples, all inside an import: import-time code, not counted.
        let inside = Hotness { base_samples: 5, head_samples: 5, base_share: 0.05, head_share: 0.05, ..Hotness::default() };
        assert!(is_import_time(CodeKind::Function, "enum", &inside));
        // 5 % of which 2 % outside imports: a function like any other.
        let outside = Hotness { head_runtime_share: 0.02, ..inside };
        assert!(!is_import_time(CodeKind::Function, "enum", &outside));
    }
}
