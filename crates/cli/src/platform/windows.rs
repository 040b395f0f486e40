//! Windows: a console Ctrl-C reaches every process attached to the console, so there is
//! nothing to forward; an interpreter killed by it exits with `STATUS_CONTROL_C_EXIT`.
//! CPython's pystats builds write to `c:\temp\py_stats`.

use std::path::PathBuf;
use std::process::{Child, ExitStatus};

use super::windows_rules;
use super::Ended;

pub const PYSTATS_DIR: &str = windows_rules::PYSTATS_DIR;
pub const PYTHON_NAMES: &[&str] = windows_rules::PYTHON_NAMES;
pub const PYTHON_FALLBACK: &str = windows_rules::PYTHON_FALLBACK;

pub fn pystats_lock_path() -> PathBuf {
    windows_rules::pystats_lock_path()
}

pub fn ended(status: &ExitStatus) -> Ended {
    windows_rules::ended(status.code())
}

pub fn forward_interrupt(_child: &Child) -> bool {
    false
}
