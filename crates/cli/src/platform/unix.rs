//! Unix: signals (a child ended by SIGINT was interrupted; Ctrl-C is forwarded with kill(2))
//! and the fixed `/tmp` paths CPython's pystats builds use.

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, ExitStatus};

use super::Ended;

pub const PYSTATS_DIR: &str = "/tmp/py_stats";
pub const PYTHON_NAMES: &[&str] = &["python3", "python"];
pub const PYTHON_FALLBACK: &str = "python3";

/// Beside [`PYSTATS_DIR`] rather than in `$TMPDIR`: every specdiff that shares that folder
/// must find the same lock, whatever its environment.
pub fn pystats_lock_path() -> PathBuf {
    PathBuf::from("/tmp/specdiff-py_stats.lock")
}

pub fn ended(status: &ExitStatus) -> Ended {
    match (status.signal(), status.code()) {
        (Some(libc::SIGINT), _) => Ended::Interrupted,
        (Some(sig), _) => Ended::Signal(sig),
        (None, Some(code)) => Ended::Code(code),
        // Neither a signal nor a code: only a stopped/continued status, which wait never gives.
        (None, None) => Ended::Signal(0),
    }
}

pub fn forward_interrupt(child: &Child) -> bool {
    // SAFETY: kill(2) with a pid we spawned and still own (not yet reaped: the caller holds
    // the Child and has not seen it exit).
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) == 0 }
}
