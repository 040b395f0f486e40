//! A SIGKILLed `specdiff dump` takes the program's whole process tree with it (issue 31, item
//! 11; docs/hostile-input.md, "Outputs and the program's process tree"): not only the
//! interpreter, which the parent-death signal already reached, but what it started, in its
//! process group or in a session of its own. Linux only (the checks read /proc). The waits
//! are generous bounds against hangs, not what is measured.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{any_native, specdiff};

/// A program that starts two `sleep`s (one in its process group, one in a new session, as a
/// daemon would), writes `<pid> <sleep> <sleep>` to `ready` and waits.
fn program(ready: &Path) -> String {
    format!(
        "import os, subprocess, time\n\
         a = subprocess.Popen(['sleep', '300'])\n\
         b = subprocess.Popen(['sleep', '301'], start_new_session=True)\n\
         open({:?}, 'w').write('%d %d %d' % (os.getpid(), a.pid, b.pid))\n\
         while True:\n    time.sleep(0.05)\n",
        ready.display().to_string()
    )
}

/// Whether `pid` runs (a zombie has ended) and its command line contains `what` (so that a
/// reused pid is not taken for the process).
fn running(pid: i32, what: &str) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat
        .rsplit_once(')')
        .map(|(_, r)| r.trim_start().chars().next());
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    !matches!(state, Some(Some('Z' | 'X'))) && String::from_utf8_lossy(&cmdline).contains(what)
}

#[test]
fn a_sigkilled_dump_leaves_nothing_of_the_program_running() {
    let python = &any_native().python;
    let dir = tempfile::tempdir().unwrap();
    let ready = dir.path().join("ready");
    let mut child = specdiff()
        .arg("dump")
        .arg("--python")
        .arg(python)
        .arg("-o")
        .arg(dir.path().join("d.json"))
        .args(["-c", &program(&ready)])
        .env("TMPDIR", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let pids: Vec<i32> = loop {
        if let Ok(s) = std::fs::read_to_string(&ready) {
            let v: Vec<i32> = s.split(' ').filter_map(|w| w.parse().ok()).collect();
            if v.len() == 3 {
                break v;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "specdiff ended before the program started"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the program never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let procs = [(pids[0], "python"), (pids[1], "sleep"), (pids[2], "sleep")];
    assert!(procs.iter().all(|&(p, w)| running(p, w)), "{procs:?}");
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    // Reparented processes take a moment to be killed and reaped: poll, at most 30 s.
    let start = Instant::now();
    loop {
        let left: Vec<_> = procs.iter().filter(|&&(p, w)| running(p, w)).collect();
        if left.is_empty() {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            for &&(p, _) in &left {
                unsafe { libc::kill(p, libc::SIGKILL) };
            }
            panic!("still running 30 s after specdiff was killed: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The reaper between specdiff and the interpreter ends the way the interpreter ended, so a
/// program killed by a signal is still reported as such (status 128 + the signal).
#[test]
fn a_program_killed_by_a_signal_is_still_reported_by_its_signal() {
    let python = &any_native().python;
    let dir = tempfile::tempdir().unwrap();
    for (sig, n) in [("SIGTERM", 15), ("SIGUSR2", 12)] {
        let o = specdiff()
            .arg("dump")
            .arg("--python")
            .arg(python)
            .arg("-o")
            .arg(dir.path().join("d.json"))
            .args([
                "-c",
                &format!("import os, signal; os.kill(os.getpid(), signal.{sig})"),
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(128 + n), "{err}");
        assert!(
            err.contains(&format!("was killed by signal {n}; no dump written")),
            "{err}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "no dump"
        );
    }
}
