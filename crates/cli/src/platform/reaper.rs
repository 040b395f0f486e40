//! Linux: the small process between specdiff and a dump's interpreter that makes the program's
//! whole process tree die with specdiff, even when specdiff is killed outright (SIGKILL).
//!
//! The parent-death signal alone reaches only the interpreter: what the program started is
//! reparented to PID 1 and runs on. So specdiff starts itself again (`/proc/self/exe`, the
//! running binary even if its file was replaced since) as the *reaper*, which marks itself a
//! child subreaper (`PR_SET_CHILD_SUBREAPER`) and starts the interpreter. Every process the
//! program starts, in its process group or not (`setsid`, daemons forking twice), is then a
//! descendant of the reaper, and is reparented to it, not to PID 1, when its parent ends.
//! When specdiff dies the reaper learns it (its parent-death signal, SIGUSR1, checked against
//! `getppid`), kills its children with SIGKILL, reaps them, and repeats until it has none: the
//! orphans of each round are its children in the next.
//!
//! Otherwise it is transparent: it leads the program's process group (specdiff puts it there),
//! passes on a stop request that specdiff sends to it alone (when the program shares a
//! terminal's group; a terminal's own Ctrl-C reaches the program directly and is not passed
//! twice), and ends the way the interpreter ended (its exit status, or the same signal), so
//! that specdiff reads the program's end as before. Processes the program leaves running when
//! it ends normally are left, as under plain `python`.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::process::Command;

/// The first argument that makes `specdiff` the reaper; then specdiff's pid, the program and
/// its arguments.
const REAPER_ARG: &str = "--specdiff-internal-reaper";

/// The signal the reaper gets when specdiff dies (its parent-death signal).
const PARENT_DIED: i32 = libc::SIGUSR1;

/// The signals the reaper waits for (blocked, read with sigwaitinfo).
const WATCHED: [i32; 5] = [
    libc::SIGCHLD,
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    PARENT_DIED,
];

/// `cmd` run under the reaper, or `cmd` itself where `/proc` is missing.
pub fn wrap(cmd: Command) -> Command {
    let me = std::path::Path::new("/proc/self/exe");
    if !me.exists() {
        return cmd;
    }
    let mut w = Command::new(me);
    w.arg0("specdiff");
    w.arg(REAPER_ARG)
        .arg(std::process::id().to_string())
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => w.env(k, v),
            None => w.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        w.current_dir(dir);
    }
    w
}

/// When this process was started as the reaper, runs it and exits; otherwise returns at
/// once. Call first thing in `main`, before any thread is started (the reaper's signals are
/// blocked in its one thread).
pub fn run_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(OsStr::new(REAPER_ARG)) {
        return;
    }
    let parent = args
        .next()
        .and_then(|p| p.to_str()?.parse::<libc::pid_t>().ok());
    let program = args.next();
    let (Some(parent), Some(program)) = (parent, program) else {
        eprintln!("specdiff: error: {REAPER_ARG} is for specdiff's own use");
        std::process::exit(2);
    };
    std::process::exit(reap(parent, &program, args.collect()))
}

/// The reaper's life: start the program, pass on what specdiff sends, end as it ended.
fn reap(parent: libc::pid_t, program: &OsStr, args: Vec<OsString>) -> i32 {
    // SAFETY: plain system calls on this process, which has one thread; nothing is shared.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in WATCHED {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        libc::prctl(libc::PR_SET_PDEATHSIG, PARENT_DIED);
        // What `ps` and `top` show instead of `exe` (from /proc/self/exe); 15 bytes and NUL.
        libc::prctl(libc::PR_SET_NAME, c"specdiff-reaper".as_ptr());
        set
    };
    // specdiff died before the line above: the signal will never come.
    if unsafe { libc::getppid() } != parent {
        return 128 + libc::SIGKILL;
    }
    let me = std::process::id() as libc::pid_t;
    let mut cmd = Command::new(program);
    cmd.args(args);
    // SAFETY: between fork and exec; sigprocmask, prctl and getppid are async-signal-safe and
    // allocate nothing. The mask is inherited through exec: the program must start with none
    // of the reaper's signals blocked.
    unsafe {
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        cmd.pre_exec(move || {
            if libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != me {
                return Err(std::io::Error::other(
                    "specdiff ended while starting the program",
                ));
            }
            Ok(())
        });
    }
    let child = match cmd.spawn() {
        Ok(c) => c.id() as libc::pid_t,
        Err(e) => {
            eprintln!(
                "specdiff: error: cannot run python '{}': {e}",
                program.to_string_lossy()
            );
            return 2;
        }
    };
    // SAFETY: as above; getpgrp only reads.
    let own_group = unsafe { libc::getpgrp() } == me;
    loop {
        // SAFETY: siginfo_t is plain data, filled by sigwaitinfo.
        let (sig, from) = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let sig = libc::sigwaitinfo(&set, &mut info);
            (sig, if sig > 0 { info.si_pid() } else { 0 })
        };
        if unsafe { libc::getppid() } != parent {
            kill_all_children(me);
            return 128 + libc::SIGKILL;
        }
        match sig {
            libc::SIGCHLD => {
                if let Some(status) = reap_children(child) {
                    return end_like(status);
                }
            }
            // From specdiff to the reaper alone (the program shares a terminal's group): pass
            // it on. Sent to the group, the program got it too; from the terminal (si_pid 0)
            // or anyone else, it is not specdiff's request.
            libc::SIGINT | libc::SIGTERM | libc::SIGHUP if from == parent && !own_group => {
                unsafe { libc::kill(child, sig) };
            }
            _ => {}
        }
    }
}

/// Reaps every child that has ended; the wait status of `program` if it is one of them.
fn reap_children(program: libc::pid_t) -> Option<i32> {
    let mut found = None;
    loop {
        let mut status = 0;
        // SAFETY: waitpid on our own children, without blocking.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return found;
        }
        if pid == program {
            found = Some(status);
        }
    }
}

/// Ends this process the way the program's wait `status` says it ended: the same exit status,
/// or the same signal (without a core file of the reaper's own).
fn end_like(status: i32) -> i32 {
    if libc::WIFEXITED(status) {
        return libc::WEXITSTATUS(status);
    }
    let sig = libc::WTERMSIG(status);
    // SAFETY: resets one signal to its default, unblocks it and sends it to this process.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        libc::signal(sig, libc::SIG_DFL);
        let mut one: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut one);
        libc::sigaddset(&mut one, sig);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
        libc::kill(libc::getpid(), sig);
    }
    128 + sig
}

/// Kills the reaper's children and reaps them until none is left: each killed process's own
/// children are reparented to the reaper (a subreaper) and are killed in the next round.
fn kill_all_children(me: libc::pid_t) {
    loop {
        let children = children_of(me);
        for &pid in &children {
            // SAFETY: our own children, not yet reaped (a pid is not reused before that).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let flags = if children.is_empty() {
            libc::WNOHANG
        } else {
            0
        };
        // SAFETY: waits for any child of ours.
        let reaped = unsafe { libc::waitpid(-1, std::ptr::null_mut(), flags) };
        if reaped < 0 {
            return; // ECHILD: no child left
        }
        if reaped == 0 {
            // A child not listed yet (reparented while /proc was read): look again.
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// The processes whose parent is `parent`, from `/proc/<pid>/stat`.
fn children_of(parent: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
            ppid == Some(parent)
        })
        .collect()
}
