//! The Windows rules that are plain data, compiled on every platform so that they are unit
//! tested on the Linux machines the tests run on (`windows.rs` only adapts them to std types).
#![cfg_attr(not(windows), allow(dead_code))]

use std::path::PathBuf;

use super::Ended;

/// `Python/specialize.c` writes to this folder when `MS_WINDOWS` is defined.
pub const PYSTATS_DIR: &str = r"c:\temp\py_stats";
/// A venv's `Scripts` folder holds `python.exe` beside `specdiff.exe`.
pub const PYTHON_NAMES: &[&str] = &["python.exe"];
/// python.org's installer and the Microsoft Store put `python` on PATH, not `python3`.
pub const PYTHON_FALLBACK: &str = "python";

/// `STATUS_CONTROL_C_EXIT`: how a process ended by a console Ctrl-C exits (CPython 3.8+
/// also leaves with it after an uncaught KeyboardInterrupt).
pub const STATUS_CONTROL_C_EXIT: u32 = 0xC000_013A;

/// Beside the pystats folder, like on Unix, so every specdiff finds the same lock.
pub fn pystats_lock_path() -> PathBuf {
    PathBuf::from(r"c:\temp\specdiff-py_stats.lock")
}

/// A Windows exit code (`ExitStatus::code`, always `Some` there) read as an [`Ended`].
pub fn ended(code: Option<i32>) -> Ended {
    match code {
        Some(c) if c as u32 == STATUS_CONTROL_C_EXIT => Ended::Interrupted,
        Some(c) => Ended::Code(c),
        None => Ended::Code(-1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_c_exit_status_reads_as_interrupted() {
        // What ExitStatus::code gives on Windows for 0xC000013A: the DWORD as an i32.
        assert_eq!(ended(Some(-1_073_741_510)), Ended::Interrupted);
        assert_eq!(ended(Some(0)), Ended::Code(0));
        assert_eq!(ended(Some(3)), Ended::Code(3));
        // The harness's own "interrupted, dump written" status is an ordinary code.
        assert_eq!(ended(Some(130)), Ended::Code(130));
        // Another NTSTATUS (access violation) is a plain failure code, not an interruption.
        assert_eq!(
            ended(Some(0xC000_0005_u32 as i32)),
            Ended::Code(-1_073_741_819)
        );
    }

    #[test]
    fn pystats_paths_are_cpythons_drive_letter_paths() {
        assert!(PYSTATS_DIR.starts_with(r"c:\"));
        assert!(pystats_lock_path()
            .to_string_lossy()
            .starts_with(r"c:\temp\"));
    }
}
