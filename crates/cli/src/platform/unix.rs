//! Unix: signals (the stop requests specdiff watches, through signal-hook; a child ended by
//! SIGINT was interrupted; requests are passed on with kill(2) to the program's process group),
//! process liveness, and the fixed `/tmp` paths CPython's pystats builds use.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus};

use super::{Ended, Grouping};

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

pub fn watch_stop_requests(on: fn(i32)) {
    let mut wanted = vec![libc::SIGINT, libc::SIGTERM];
    if !ignored(libc::SIGHUP) {
        wanted.push(libc::SIGHUP);
    }
    match signal_hook::iterator::Signals::new(&wanted) {
        Ok(mut signals) => {
            std::thread::spawn(move || signals.forever().for_each(on));
        }
        Err(e) => eprintln!("specdiff: warning: cannot watch for signals ({e}); a stopped specdiff may leave temporary files"),
    }
}

/// Whether `sig` is set to be ignored (inherited from the caller, as under `nohup`).
fn ignored(sig: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current disposition into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

pub fn stop_name(sig: i32) -> String {
    match sig {
        libc::SIGINT => "SIGINT (Ctrl-C)".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}

pub fn prepare_child(cmd: Command) -> (Command, Grouping) {
    #[cfg(target_os = "linux")]
    let mut cmd = super::reaper::wrap(cmd);
    #[cfg(not(target_os = "linux"))]
    let mut cmd = cmd;
    let own_group = !foreground_of_a_terminal();
    if own_group {
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    let parent = std::process::id();
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe
    // functions (sigaction, prctl, getppid), allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            if libc::sigaction(libc::SIGINT, &dfl, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // specdiff died before the line above: it would never be sent.
                if libc::getppid() as u32 != parent {
                    return Err(std::io::Error::other(
                        "specdiff ended while starting the program",
                    ));
                }
            }
            Ok(())
        });
    }
    (cmd, Grouping { own_group })
}

/// Whether specdiff's process group is the foreground group of the terminal on stdin, stdout
/// or stderr.
fn foreground_of_a_terminal() -> bool {
    // SAFETY: getpgrp and tcgetpgrp only read; a descriptor that is not a terminal gives -1.
    unsafe {
        let me = libc::getpgrp();
        [0, 1, 2].iter().any(|&fd| libc::tcgetpgrp(fd) == me)
    }
}

/// Nothing to do: the process group and, on Linux, the reaper were set up before the start.
pub fn adopt(_child: &Child) {}

pub fn send_stop(child: &Child, grouping: Grouping, sig: i32) {
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill(2) on the child we spawned and have not reaped (the caller's contract), or
    // on the process group it leads, which lives while the child does.
    unsafe { libc::kill(if grouping.own_group { -pid } else { pid }, sig) };
}

pub fn kill_program(child: &mut Child, grouping: Grouping) {
    if grouping.own_group {
        send_stop(child, grouping, libc::SIGKILL);
    } else {
        let _ = child.kill();
    }
}

pub fn group_alive(pid: u32, grouping: Grouping) -> bool {
    // SAFETY: signal 0 only checks that the group exists (a group id is not reused while any
    // member lives).
    grouping.own_group
        && unsafe { libc::kill(-(pid as libc::pid_t), 0) == 0 || errno() == libc::EPERM }
}

pub fn kill_group(pid: u32, grouping: Grouping) {
    if grouping.own_group {
        // SAFETY: as in group_alive.
        unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
    }
}

pub fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 sends nothing; it only tells whether the process exists.
    pid > 0 && unsafe { libc::kill(pid, 0) == 0 || errno() == libc::EPERM }
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

pub fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    // The mode asked at open(2); the kernel takes the umask off it.
    Some(std::fs::Permissions::from_mode(0o666))
}

pub fn special_kind(t: &std::fs::FileType) -> Option<super::Special> {
    use super::Special;
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        Some(Special::Fifo)
    } else if t.is_char_device() {
        Some(Special::CharDevice)
    } else if t.is_block_device() {
        Some(Special::BlockDevice)
    } else if t.is_socket() {
        Some(Special::Socket)
    } else {
        None
    }
}

pub fn open_in_place(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a named pipe without a reader fails with ENXIO instead of waiting for ever
    // (and a serial line does not wait for its carrier).
    let file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    // SAFETY: fcntl on a descriptor we own; only the O_NONBLOCK status flag is changed.
    unsafe {
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(file)
}

pub fn no_reader(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ENXIO)
}
