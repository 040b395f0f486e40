//! Finding and probing the Python interpreter a dump runs under: it must exist, be CPython and
//! be 3.11 or newer, and we need to know whether it is a pystats build.

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

use crate::output::display_path;

/// What the probe learned about an interpreter.
#[derive(Debug, Clone, Deserialize)]
pub struct PythonProbe {
    /// `sys.implementation.name` (`"cpython"`, `"pypy"` …).
    pub implementation: String,
    /// `sys.version_info[:3]`.
    pub version: (u32, u32, u32),
    /// Configured with `--enable-pystats`.
    pub pystats: bool,
    /// `importlib.util.find_spec(module) is not None`, when a module was asked about.
    pub module_found: Option<bool>,
    /// The files running that module runs (its file; for a package, `__init__.py` and
    /// `__main__.py`), when found and named in UTF-8: a dump must not be written over them.
    #[serde(default)]
    pub module_files: Vec<String>,
}

impl PythonProbe {
    /// `"CPython 3.12.1"`.
    pub fn describe(&self) -> String {
        let name = match self.implementation.as_str() {
            "cpython" => "CPython".to_string(),
            "pypy" => "PyPy".to_string(),
            other => other.to_string(),
        };
        format!("{name} {}.{}.{}", self.version.0, self.version.1, self.version.2)
    }
}

// Written to run on any Python from 2.7 on, so that old interpreters get our clear message
// rather than a syntax error.
const PROBE: &str = r#"
import os, sys, json
try:
    import sysconfig
    args = sysconfig.get_config_var("CONFIG_ARGS") or ""
    stats = "--enable-pystats" in args or bool(sysconfig.get_config_var("Py_STATS"))
except Exception:
    stats = False
found = None
files = []
if len(sys.argv) > 1:
    try:
        import importlib.util
        spec = importlib.util.find_spec(sys.argv[1])
        found = spec is not None
        origin = getattr(spec, "origin", None)
        if origin and os.path.isfile(origin):
            files.append(origin)
            if spec.submodule_search_locations is not None:
                files.append(os.path.join(os.path.dirname(origin), "__main__.py"))
    except Exception:
        found = False
    def utf8(name):   # JSON text (and our reader) cannot carry a name that is not
        try:
            name.encode("utf-8")
            return True
        except UnicodeError:
            return False
    files = [f for f in files if utf8(f)]
impl = getattr(sys, "implementation", None)
print("SPECDIFF-PROBE " + json.dumps({
    "implementation": impl.name if impl else "cpython",
    "version": list(sys.version_info[:3]),
    "pystats": stats,
    "module_found": found,
    "module_files": files,
}))
if stats:
    # A pystats build writes its stats when it finalizes (3.11: a file in /tmp/py_stats, if
    # that folder exists). The probe's own would be litter there: leave without finalizing.
    import os
    sys.stdout.flush()
    os._exit(0)
"#;

/// Runs `python` once to learn what it is. `module`: also ask whether it can import it.
pub fn probe(python_path: &Path, module: Option<&str>) -> Result<PythonProbe, String> {
    let python = display_path(python_path);
    let mut cmd = Command::new(python_path);
    cmd.arg("-c").arg(PROBE);
    if let Some(m) = module {
        cmd.arg(m);
    }
    let output = cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!("python not found: '{python}' (install CPython 3.11+ or pass --python PATH)")
        }
        std::io::ErrorKind::PermissionDenied => format!("python '{python}' is not executable"),
        _ => format!("cannot run python '{python}': {e}"),
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().find_map(|l| l.strip_prefix("SPECDIFF-PROBE "));
    let Some(line) = line else {
        let err = String::from_utf8_lossy(&output.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return Err(format!("'{python}' does not behave like a Python interpreter ({})", last.trim()));
    };
    serde_json::from_str(line).map_err(|e| format!("'{python}': unreadable probe answer ({e})"))
}

/// Checks that the interpreter can give adaptive bytecode.
pub fn check_supported(python_path: &Path, p: &PythonProbe) -> Result<(), String> {
    let python = display_path(python_path);
    if p.implementation != "cpython" {
        return Err(format!("'{python}' is {}, not CPython: adaptive bytecode needs CPython 3.11+", p.describe()));
    }
    if p.version < (3, 11, 0) {
        return Err(format!("adaptive bytecode needs CPython 3.11+ ('{python}' is {})", p.describe()));
    }
    Ok(())
}
