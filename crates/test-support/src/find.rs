//! Finding interpreters on this machine: pyenv's, and the Python version inside the npm
//! package pyodide.

use std::path::{Path, PathBuf};
use std::process::Command;

/// pyenv's newest `minor.N` interpreter, as (`minor.N`, its `bin/python3`), if pyenv has one.
pub fn pyenv_newest(minor: &str) -> Option<(String, PathBuf)> {
    let out = Command::new("pyenv").args(["versions", "--bare"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let patch = |v: &str| -> Option<u32> { v.strip_prefix(minor)?.strip_prefix('.')?.parse().ok() };
    let version = text.lines().map(str::trim).filter(|v| patch(v).is_some()).max_by_key(|v| patch(v))?.to_string();
    let python = pyenv_exact(&version)?;
    Some((version, python))
}

/// pyenv's CPython `version` exactly (`3.12.1`): its `bin/python3`, if installed.
pub fn pyenv_exact(version: &str) -> Option<PathBuf> {
    let out = Command::new("pyenv").args(["prefix", version]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let python = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("bin/python3");
    python.is_file().then_some(python)
}

/// The CPython version the pyodide package in `package_dir` carries (`info.python` of its
/// `pyodide-lock.json`), without starting it.
pub fn pyodide_python_version(package_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(package_dir.join("pyodide-lock.json")).ok()?;
    let lock: serde_json::Value = serde_json::from_str(&text).ok()?;
    lock["info"]["python"].as_str().map(str::to_string)
}
