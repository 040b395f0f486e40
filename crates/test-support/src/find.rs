//! Finding interpreters on this machine: pyenv's, the native ones scripts/setup.sh unpacks
//! into `.tools/native-python`, and the Python version inside the npm package pyodide.

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

/// The native CPython `minor` (`"3.14"`, `"3.15"`) that `scripts/install-native-python.py`
/// unpacks under `repo/.tools/native-python`, as (its full version, its executable), if it is
/// there and runs.
pub fn native_python(repo: &Path, minor: &str) -> Option<(String, PathBuf)> {
    let python = repo.join(".tools/native-python").join(minor).join("usr/bin").join(format!("python{minor}"));
    if !python.is_file() {
        return None;
    }
    let out = Command::new(&python).args(["-c", "import platform; print(platform.python_version())"]).output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && version.starts_with(&format!("{minor}."))).then_some((version, python))
}

/// The CPython version the pyodide package in `package_dir` carries (`info.python` of its
/// `pyodide-lock.json`), without starting it.
pub fn pyodide_python_version(package_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(package_dir.join("pyodide-lock.json")).ok()?;
    let lock: serde_json::Value = serde_json::from_str(&text).ok()?;
    lock["info"]["python"].as_str().map(str::to_string)
}
