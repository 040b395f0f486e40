//! Everything `specdiff` does differently on Unix and Windows, behind one small interface:
//! which stop requests specdiff watches for, how a child interpreter is started, stopped and
//! how its end is read (signals and process groups), whether a process still lives, where CPython's pystats builds write and where the lock that serializes them
//! lives (temporary files), and which interpreter a dump runs by default. The rest of the
//! crate uses only this module; nothing else names `std::os::unix` or `std::os::windows`.
//!
//! The Windows rules that are plain data (exit codes, file names) live in `windows_rules`,
//! compiled on every platform so that the unit tests check them on Linux too.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};

#[cfg(target_os = "linux")]
mod reaper;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

mod windows_rules;

/// How the interpreter process ended, as far as the dump's error messages care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Code(i32),
    /// Ctrl-C ended it (Unix: SIGINT; Windows: `STATUS_CONTROL_C_EXIT`).
    Interrupted,
    /// Unix only: another signal ended it.
    #[cfg_attr(windows, allow(dead_code))]
    Signal(i32),
}

/// Reads `status` the platform's way.
pub fn ended(status: &ExitStatus) -> Ended {
    imp::ended(status)
}

/// The stop request a terminal's Ctrl-C makes: SIGINT (Windows: the console's Ctrl-C, given
/// the same number so that both exit 130).
pub const INTERRUPT: i32 = 2;

/// Calls `on` (from a thread of its own) with the number of every stop request specdiff gets:
/// Unix SIGINT, SIGTERM and SIGHUP (not SIGHUP when the caller ignores it, as `nohup` does);
/// Windows Ctrl-C. Call once.
pub fn watch_stop_requests(on: fn(i32)) {
    imp::watch_stop_requests(on)
}

/// How a stop request is named in messages: `SIGTERM`, `SIGINT (Ctrl-C)`.
pub fn stop_name(sig: i32) -> String {
    imp::stop_name(sig)
}

/// How a dump's interpreter was started, for reaching it (and what it started) later.
#[derive(Debug, Clone, Copy)]
pub struct Grouping {
    /// Unix: the child leads a process group of its own, so a signal can reach everything the
    /// program started. Not when specdiff runs in the foreground of a terminal: the program
    /// must stay in the terminal's foreground group to read it and to get its Ctrl-C and
    /// Ctrl-Z itself (a terminal delivers those to specdiff and the program alike).
    own_group: bool,
}

impl Grouping {
    /// Whether a Ctrl-C reaches the program without specdiff passing it on (a terminal's
    /// Ctrl-C reaches the whole foreground group; Windows: the whole console).
    pub fn shares_ctrl_c(self) -> bool {
        !self.own_group
    }
}

/// Prepares `cmd` (the interpreter of a dump): its process group (see [`Grouping`]), SIGINT
/// back to its default so that a caller that ignores it (a script's background job) does not
/// make Ctrl-C useless, and on Linux death with specdiff (SIGKILL when specdiff dies, so a
/// killed specdiff leaves no orphan behind).
///
/// On Linux the command returned runs `cmd` under specdiff's reaper (`reaper.rs`), so that
/// everything the program starts dies with specdiff too, even when specdiff is killed.
pub fn prepare_child(cmd: Command) -> (Command, Grouping) {
    imp::prepare_child(cmd)
}

/// When this process is specdiff's reaper (Linux, see [`prepare_child`]), runs it and exits.
/// Call first thing in `main`, before any thread starts.
pub fn run_as_reaper_if_asked() {
    #[cfg(target_os = "linux")]
    reaper::run_if_asked();
}

/// Ties the program's processes to specdiff right after the start: on Windows a Job Object
/// that kills them all when specdiff's process ends, however it ends; nothing elsewhere
/// ([`prepare_child`] did it before the start).
pub fn adopt(child: &Child) {
    imp::adopt(child)
}

/// Sends stop request `sig` to the program: its whole process group when it has one, else the
/// child alone. Call only while the child is not yet reaped. On Windows nothing is sent (a
/// console delivers Ctrl-C to every process attached to it and cannot aim it at one).
pub fn send_stop(child: &Child, grouping: Grouping, sig: i32) {
    imp::send_stop(child, grouping, sig)
}

/// Kills the program outright (Unix: SIGKILL to its group, or to it alone).
pub fn kill_program(child: &mut Child, grouping: Grouping) {
    imp::kill_program(child, grouping)
}

/// Whether processes the program started still run in its process group after the program
/// itself ended (`pid`: the program's, the group's id). Always `false` without a group.
pub fn group_alive(pid: u32, grouping: Grouping) -> bool {
    imp::group_alive(pid, grouping)
}

/// Kills what is left of the program's process group (see [`group_alive`]).
pub fn kill_group(pid: u32, grouping: Grouping) {
    imp::kill_group(pid, grouping)
}

/// Whether process `pid` still runs; `true` when that cannot be told (Windows), so that
/// nothing of a live process is ever taken for litter.
pub fn process_alive(pid: u32) -> bool {
    imp::process_alive(pid)
}

/// The permissions a new output file gets: Unix `rw-rw-rw-` less the umask, as the shell's
/// `>` gives (a temporary file alone would be `rw-------`, unreadable to a CI artifact
/// upload running as another user); `None` where files have no such mode (Windows).
pub fn new_file_permissions() -> Option<std::fs::Permissions> {
    imp::new_file_permissions()
}

/// A destination that is neither a regular file nor a folder, as `-o` treats it
/// (`output::PendingOutput`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(windows, allow(dead_code))]
pub enum Special {
    /// A named pipe: written in place, only when something reads it.
    Fifo,
    /// `/dev/null`, `/dev/full`, a terminal: written in place.
    CharDevice,
    /// A disk: refused (a dump there would overwrite the disk's contents).
    BlockDevice,
    /// A Unix socket: refused (it cannot be opened as a file).
    Socket,
}

impl Special {
    /// How a message names it.
    pub fn name(self) -> &'static str {
        match self {
            Special::Fifo => "a named pipe (FIFO)",
            Special::CharDevice => "a character device",
            Special::BlockDevice => "a block device",
            Special::Socket => "a socket",
        }
    }
}

/// Which [`Special`] node `t` is; `None` for a regular file, a folder or a symbolic link.
pub fn special_kind(t: &std::fs::FileType) -> Option<Special> {
    imp::special_kind(t)
}

/// Opens an existing special node for writing, in place: without creating or truncating it
/// and without blocking (a named pipe nobody reads fails at once, see [`no_reader`]); the
/// file returned blocks again on write, as a pipe's writer should.
pub fn open_in_place(path: &Path) -> std::io::Result<File> {
    imp::open_in_place(path)
}

/// Whether `e`, from [`open_in_place`] on a named pipe, means that nothing reads it (ENXIO).
pub fn no_reader(e: &std::io::Error) -> bool {
    imp::no_reader(e)
}

/// The folder a CPython pystats build writes its raw stats files to (fixed in CPython's
/// `Python/specialize.c`, per platform).
pub fn pystats_dir() -> &'static Path {
    Path::new(imp::PYSTATS_DIR)
}

/// The lock file that serializes specdiff dumps sharing [`pystats_dir`].
pub fn pystats_lock_path() -> PathBuf {
    imp::pystats_lock_path()
}

/// Takes an exclusive lock on `file`, calling `waiting` first if someone else holds it.
/// `false` if the lock cannot be had at all (the caller goes on without it).
pub fn lock_exclusive(file: &File, waiting: impl FnOnce()) -> bool {
    match file.try_lock() {
        Ok(()) => true,
        Err(TryLockError::WouldBlock) => {
            waiting();
            file.lock().is_ok()
        }
        Err(TryLockError::Error(_)) => false,
    }
}

/// The interpreter `specdiff dump` runs when neither `--python` nor `SPECDIFF_PYTHON` says:
/// the one next to the `specdiff` executable when there is one (installed into a virtual
/// environment, or beside a Python by pip), because that is the Python whose code the user
/// wants to see; else the platform's usual command name.
pub fn default_python() -> String {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().and_then(|d| python_in(d, imp::PYTHON_NAMES)));
    match beside {
        Some(p) => p.display().to_string(),
        None => imp::PYTHON_FALLBACK.to_string(),
    }
}

/// Where specdiff keeps what it can make again (calibrated cost models): `$XDG_CACHE_HOME`, else
/// `~/.cache` (Unix), `%LOCALAPPDATA%` (Windows), then `specdiff`; `None` when the
/// environment names no such place.
pub fn cache_dir() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) { set("LOCALAPPDATA") } else { set("XDG_CACHE_HOME").or_else(|| set("HOME").map(|h| h.join(".cache"))) };
    base.map(|b| b.join("specdiff"))
}

/// The first of `names` that is a file in `dir`.
fn python_in(dir: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_beside_the_executable_is_found_by_each_platforms_names() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(python_in(dir.path(), &["python3", "python"]), None);
        std::fs::write(dir.path().join("python"), "").unwrap();
        assert_eq!(
            python_in(dir.path(), &["python3", "python"]),
            Some(dir.path().join("python"))
        );
        std::fs::write(dir.path().join("python3"), "").unwrap();
        assert_eq!(
            python_in(dir.path(), &["python3", "python"]),
            Some(dir.path().join("python3"))
        );
        // A venv's Scripts folder on Windows: only python.exe counts there.
        assert_eq!(python_in(dir.path(), windows_rules::PYTHON_NAMES), None);
        std::fs::write(dir.path().join("python.exe"), "").unwrap();
        assert_eq!(
            python_in(dir.path(), windows_rules::PYTHON_NAMES),
            Some(dir.path().join("python.exe"))
        );
        // A folder of that name is not an interpreter.
        let sub = tempfile::tempdir().unwrap();
        std::fs::create_dir(sub.path().join("python3")).unwrap();
        assert_eq!(python_in(sub.path(), &["python3"]), None);
    }

    #[test]
    fn a_held_lock_makes_the_second_taker_wait() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let open = move || {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .unwrap()
        };
        let first = open();
        assert!(lock_exclusive(&first, || panic!("nobody holds it yet")));
        let (tx, rx) = std::sync::mpsc::channel();
        let second = std::thread::spawn(move || {
            let f = open();
            let mut waited = false;
            let got = lock_exclusive(&f, || waited = true);
            tx.send(()).unwrap();
            (got, waited)
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(
            rx.try_recv().is_err(),
            "the second taker must wait while the first holds the lock"
        );
        drop(first);
        assert_eq!(second.join().unwrap(), (true, true));
    }

    #[cfg(unix)]
    #[test]
    fn unix_exit_statuses_read_as_before() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(ended(&ExitStatus::from_raw(3 << 8)), Ended::Code(3));
        assert_eq!(
            ended(&ExitStatus::from_raw(libc::SIGINT)),
            Ended::Interrupted
        );
        assert_eq!(
            ended(&ExitStatus::from_raw(libc::SIGKILL)),
            Ended::Signal(libc::SIGKILL)
        );
        assert_eq!(pystats_dir(), Path::new("/tmp/py_stats"));
        assert_eq!(
            pystats_lock_path(),
            Path::new("/tmp/specdiff-py_stats.lock")
        );
    }
}
