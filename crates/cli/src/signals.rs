//! What specdiff does when it is told to stop (SIGTERM, SIGHUP, SIGINT; Windows: Ctrl-C).
//!
//! While a dump's program runs, the dump handles the request itself ([`supervise`] and
//! [`take`]: it passes the request on, waits for the program and cleans up, `dump_cmd`). At
//! any other time the temporary files registered here ([`Litter`]) are removed, one line
//! says what happened and specdiff exits with 128 + the signal number, as a shell reports a
//! process ended by that signal.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;

use crate::platform;

/// The last request received while supervising and not yet taken (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);
static SUPERVISING: AtomicBool = AtomicBool::new(false);
static LITTER: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// What to say instead of "stopped before finishing" (see [`say_on_stop`]).
static STOP_MESSAGE: Mutex<Option<&'static str>> = Mutex::new(None);

/// Starts watching for stop requests. Call once, first thing.
pub fn install() {
    platform::watch_stop_requests(on_request);
}

fn on_request(sig: i32) {
    if SUPERVISING.load(Ordering::SeqCst) {
        RECEIVED.store(sig, Ordering::SeqCst);
        return;
    }
    let paths = LITTER.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for p in &paths {
        // Whatever is still there; the main thread may be removing or renaming it meanwhile.
        let _ = if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else {
            std::fs::remove_file(p)
        };
    }
    match *STOP_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(message) => eprintln!("{message}"),
        None => eprintln!(
            "specdiff: interrupted by {}; stopped before finishing, temporary files removed",
            platform::stop_name(sig)
        ),
    }
    std::process::exit(128 + sig);
}

/// For a command whose normal end is a stop request (`specdiff view` serves until Ctrl-C):
/// the line to print then instead of "stopped before finishing". The exit code stays 128 +
/// the signal number.
pub fn say_on_stop(message: &'static str) {
    *STOP_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
}

/// While alive, stop requests are left to the caller ([`take`]) instead of ending specdiff.
pub struct Supervision(());

/// See [`Supervision`].
pub fn supervise() -> Supervision {
    RECEIVED.store(0, Ordering::SeqCst);
    SUPERVISING.store(true, Ordering::SeqCst);
    Supervision(())
}

impl Drop for Supervision {
    fn drop(&mut self) {
        SUPERVISING.store(false, Ordering::SeqCst);
    }
}

/// The stop request received since the last call, if any.
pub fn take() -> Option<i32> {
    match RECEIVED.swap(0, Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// A temporary file or folder that a stop request must not leave behind; registered while
/// this is alive (the owner removes it itself otherwise, e.g. `tempfile`'s drop).
pub struct Litter(PathBuf);

impl Litter {
    pub fn new(path: &Path) -> Self {
        LITTER
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path.to_path_buf());
        Litter(path.to_path_buf())
    }
}

impl Drop for Litter {
    fn drop(&mut self) {
        let mut all = LITTER.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = all.iter().position(|p| *p == self.0) {
            all.swap_remove(i);
        }
    }
}
