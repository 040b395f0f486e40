//! Windows: a console Ctrl-C reaches every process attached to the console, so there is
//! nothing to forward; an interpreter killed by it exits with `STATUS_CONTROL_C_EXIT`.
//! CPython's pystats builds write to `c:\temp\py_stats`. Ctrl-C is the only stop request
//! watched (through ctrlc); whether another process lives is not asked, so no file of one is
//! ever swept as litter.

use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus};

use super::windows_rules;
use super::{Ended, Grouping};

pub const PYSTATS_DIR: &str = windows_rules::PYSTATS_DIR;
pub const PYTHON_NAMES: &[&str] = windows_rules::PYTHON_NAMES;
pub const PYTHON_FALLBACK: &str = windows_rules::PYTHON_FALLBACK;

pub fn pystats_lock_path() -> PathBuf {
    windows_rules::pystats_lock_path()
}

pub fn ended(status: &ExitStatus) -> Ended {
    windows_rules::ended(status.code())
}

pub fn watch_stop_requests(on: fn(i32)) {
    if let Err(e) = ctrlc::set_handler(move || on(super::INTERRUPT)) {
        eprintln!("specdiff: warning: cannot watch for Ctrl-C ({e}); an interrupted specdiff may leave temporary files");
    }
}

pub fn stop_name(_sig: i32) -> String {
    "Ctrl-C".into()
}

pub fn prepare_child(cmd: Command) -> (Command, Grouping) {
    (cmd, Grouping { own_group: false })
}

/// Puts the program into a Job Object that kills every process in it when its last handle
/// closes, and leaves specdiff's handle open: the system closes it when specdiff's process
/// ends, however it ends (also when killed), and with it ends what the program started, which
/// joins the job from its start. Best effort: without a job (an older Windows that does not
/// nest jobs) the program simply runs as before.
pub fn adopt(child: &Child) {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Foundation::CloseHandle;
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
        SetInformationJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
        JOB_OBJECT_LIMIT_BREAKAWAY_OK, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    };
    // SAFETY: Win32 calls on a job created here and on the child's process handle, which the
    // `Child` keeps open; `info` is plain data of the size passed.
    unsafe {
        let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            return;
        }
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        // Breakaway stays allowed: a program that asks for it (CREATE_BREAKAWAY_FROM_JOB) would
        // otherwise fail to start its process, which plain python lets it do.
        info.BasicLimitInformation.LimitFlags =
            JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK;
        let set = SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            &info as *const _ as *const std::ffi::c_void,
            std::mem::size_of_val(&info) as u32,
        );
        if set == 0 || AssignProcessToJobObject(job, child.as_raw_handle()) == 0 {
            CloseHandle(job);
        }
    }
}

pub fn send_stop(_child: &Child, _grouping: Grouping, _sig: i32) {}

pub fn kill_program(child: &mut Child, _grouping: Grouping) {
    let _ = child.kill();
}

pub fn group_alive(_pid: u32, _grouping: Grouping) -> bool {
    false
}

pub fn kill_group(_pid: u32, _grouping: Grouping) {}

pub fn process_alive(_pid: u32) -> bool {
    true
}

pub fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}

/// Windows has no FIFOs or device nodes in the file system that `std::fs::metadata` reports
/// as such: every destination is a file or a folder.
pub fn special_kind(_t: &std::fs::FileType) -> Option<super::Special> {
    None
}

pub fn open_in_place(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).open(path)
}

pub fn no_reader(_e: &std::io::Error) -> bool {
    false
}
