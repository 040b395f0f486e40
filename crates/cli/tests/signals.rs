//! Stopping specdiff (SIGTERM, SIGHUP, SIGINT, SIGKILL) while a real program runs under a
//! native CPython: the program and what it started are stopped, specdiff says so in one line
//! and exits 128 + the signal, and no temporary folder or `.part` file is left (or, after a
//! SIGKILL, the next run removes it). Also the program's own exits and processes: `os._exit`
//! status passed on, other processes reported, no fork warning of the harness's making.
//! Linux only: the checks read /proc. Timeouts are generous bounds against hangs, not criteria.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// A program that writes `<pid> <pgid>` to `ready` once running, optionally starts a sleeping
/// child process of its own, then sleeps until stopped.
fn sleeper(ready: &Path, with_child: bool, ignore_term: bool) -> String {
    format!(
        "import os, signal, subprocess, sys, time\n\
         {}\
         {}\
         open({:?}, 'w').write('%d %d' % (os.getpid(), os.getpgrp()))\n\
         while True:\n    time.sleep(0.05)\n",
        if ignore_term { "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" } else { "" },
        if with_child { "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n" } else { "" },
        ready.display().to_string()
    )
}

fn native() -> &'static Interpreter {
    any_native()
}

/// A private temporary folder for specdiff (`TMPDIR`) and one for the output.
struct Scene {
    _root: tempfile::TempDir,
    tmpdir: PathBuf,
    outdir: PathBuf,
}

impl Scene {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let tmpdir = root.path().join("tmp");
        let outdir = root.path().join("out");
        std::fs::create_dir(&tmpdir).unwrap();
        std::fs::create_dir(&outdir).unwrap();
        Scene { _root: root, tmpdir, outdir }
    }

    /// `specdiff dump -c CODE` with SIGHUP at its default, as in a terminal session, whatever
    /// this test runs under (`nohup` leaves SIGHUP ignored, and specdiff keeps that choice).
    fn dump(&self, code: &str) -> Command {
        let mut c = self.dump_inheriting_sighup(code);
        set_disposition(&mut c, libc::SIGHUP, libc::SIG_DFL);
        c
    }

    fn dump_inheriting_sighup(&self, code: &str) -> Command {
        let mut c = specdiff();
        c.arg("dump")
            .arg("--python")
            .arg(&native().python)
            .arg("-o")
            .arg(self.outdir.join("d.json"))
            .args(["-c", code])
            .env("TMPDIR", &self.tmpdir)
            .stderr(Stdio::piped())
            .stdout(Stdio::null());
        c
    }

    fn ready(&self) -> PathBuf {
        self.outdir.join("ready")
    }

    /// Entries left in the temporary folder and `.part` files beside the output.
    fn litter(&self) -> Vec<String> {
        let names = |d: &Path| -> Vec<String> {
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
        };
        let mut v = names(&self.tmpdir);
        v.extend(names(&self.outdir).into_iter().filter(|n| n.ends_with(".part")));
        v
    }
}

/// Waits for the program's `<pid> <pgid>`.
fn wait_ready(ready: &Path, child: &mut Child) -> (i32, i32) {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(ready) {
            if let Some((a, b)) = s.split_once(' ') {
                return (a.parse().unwrap(), b.parse().unwrap());
            }
        }
        assert!(child.try_wait().unwrap().is_none(), "specdiff ended before the program started");
        assert!(start.elapsed() < Duration::from_secs(60), "the program never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `specdiff dump` on [`sleeper`] and waits until the program runs: (specdiff, the
/// program's pid, its process group).
fn start_sleeper(s: &Scene, with_child: bool, ignore_term: bool) -> (Child, i32, i32) {
    let mut child = s.dump(&sleeper(&s.ready(), with_child, ignore_term)).spawn().unwrap();
    let (pid, pgid) = wait_ready(&s.ready(), &mut child);
    (child, pid, pgid)
}

/// Sends `sig` to specdiff alone and waits for it: its exit code and stderr.
fn stop(child: Child, sig: i32) -> (Option<i32>, String) {
    unsafe { libc::kill(child.id() as i32, sig) };
    let o = wait_bounded(child);
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn wait_bounded(child: Child) -> Output {
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    rx.recv_timeout(Duration::from_secs(90)).unwrap_or_else(|_| {
        unsafe { libc::kill(pid, libc::SIGKILL) };
        panic!("specdiff did not end within 90 s of the signal")
    })
}

/// Live (not zombie) processes whose process group is `pgid`, or that are `pid`.
fn live(pgid: i32, pid: i32) -> Vec<i32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<i32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        // After the command: state, ppid, pgrp.
        if f[0] != "Z" && f[0] != "X" && (f[2].parse() == Ok(pgid) || p == pid) {
            v.push(p);
        }
    }
    v
}

/// `live` becomes empty (processes reparented after their parent died take a moment to go).
fn assert_none_left(pgid: i32, pid: i32) {
    let start = Instant::now();
    while !live(pgid, pid).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "processes of the program still run: {:?}", live(pgid, pid));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts `cmd` with `sig`'s disposition set to `action` (`SIG_DFL`, `SIG_IGN`), as a
/// caller's choice is inherited through exec.
fn set_disposition(cmd: &mut Command, sig: i32, action: libc::sighandler_t) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec; signal(2) is async-signal-safe and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(sig, action);
            Ok(())
        })
    };
}

#[test]
fn under_nohup_sighup_is_left_ignored_and_sigterm_still_stops_it() {
    let s = Scene::new();
    let mut cmd = s.dump_inheriting_sighup(&sleeper(&s.ready(), true, false));
    set_disposition(&mut cmd, libc::SIGHUP, libc::SIG_IGN);
    let mut child = cmd.spawn().unwrap();
    let (pid, pgid) = wait_ready(&s.ready(), &mut child);
    unsafe { libc::kill(child.id() as i32, libc::SIGHUP) };
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().unwrap().is_none(), "specdiff ended on a SIGHUP it was started to ignore");
    assert!(!live(pgid, pid).is_empty(), "the program ended on a SIGHUP specdiff was started to ignore");
    let (code, err) = stop(child, libc::SIGTERM);
    assert_eq!(code, Some(143), "{err}");
    assert_none_left(pgid, pid);
    assert_eq!(s.litter(), Vec::<String>::new());
}

#[test]
fn sigterm_and_sighup_stop_the_program_and_what_it_started_and_leave_no_file() {
    for (sig, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")] {
        let s = Scene::new();
        let (child, pid, pgid) = start_sleeper(&s, true, false);
        assert_ne!(pgid, child.id() as i32, "the program runs in a process group of its own");
        let (code, err) = stop(child, sig);
        assert_eq!(code, Some(128 + sig), "{name}: {err}");
        assert!(
            err.contains(&format!("specdiff: interrupted by {name}; the program was stopped; no dump written")),
            "{name}: {err}"
        );
        assert_none_left(pgid, pid);
        assert_eq!(s.litter(), Vec::<String>::new(), "{name} left files behind");
        assert!(!s.outdir.join("d.json").exists());
    }
}

#[test]
fn a_program_that_ignores_sigterm_is_killed_after_the_grace_period() {
    let s = Scene::new();
    let (child, pid, pgid) = start_sleeper(&s, false, true);
    let (code, err) = stop(child, libc::SIGTERM);
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("interrupted by SIGTERM; the program did not stop within 5 s and was killed"), "{err}");
    assert_none_left(pgid, pid);
    assert_eq!(s.litter(), Vec::<String>::new());
}

#[test]
fn sigint_reaches_the_program_even_when_the_caller_ignores_it() {
    for ignored in [false, true] {
        let s = Scene::new();
        let mut cmd = s.dump(&sleeper(&s.ready(), false, false));
        if ignored {
            // As a script's background job is started: SIGINT ignored, inherited by exec.
            set_disposition(&mut cmd, libc::SIGINT, libc::SIG_IGN);
        }
        let mut child = cmd.spawn().unwrap();
        let (pid, pgid) = wait_ready(&s.ready(), &mut child);
        let (code, err) = stop(child, libc::SIGINT);
        assert_eq!(code, Some(130), "ignored={ignored}: {err}");
        assert!(err.contains("interrupted (Ctrl-C); dump of the state at interruption written"), "{err}");
        assert_eq!(read(&s.outdir.join("d.json")).run.exception.as_deref(), Some("KeyboardInterrupt"));
        assert_none_left(pgid, pid);
        assert_eq!(s.litter(), Vec::<String>::new());
    }
}

#[test]
fn after_a_sigkill_the_program_dies_too_and_the_next_run_removes_the_leftovers() {
    let s = Scene::new();
    let (mut child, pid, pgid) = start_sleeper(&s, false, false);
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    assert_none_left(pgid, pid);
    let left = s.litter();
    assert!(left.iter().any(|n| n.starts_with(&format!("specdiff-run-{}-", child.id()))), "{left:?}");
    assert!(left.iter().any(|n| n.starts_with(&format!(".specdiff-{}-", child.id()))), "{left:?}");
    let o = s.dump("pass").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(s.litter(), Vec::<String>::new(), "the next run did not clean up");
}

#[test]
fn os_exit_status_is_passed_on() {
    let s = Scene::new();
    let o = s.dump("import os\nos._exit(5)").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(err.contains("exited with status 5 without writing the dump (the program called os._exit(5)"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!s.outdir.join("d.json").exists());
    assert_eq!(s.litter(), Vec::<String>::new());
}

#[test]
fn other_processes_of_the_program_are_reported_as_not_captured() {
    for method in ["fork", "spawn"] {
        let s = Scene::new();
        let code = format!(
            "import multiprocessing as mp, os\n\
             if __name__ == '__main__':\n    \
                 p = mp.get_context({method:?}).Process(target=os.getpid)\n    p.start()\n    p.join()\n"
        );
        let o = s.dump(&code).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{method}: {err}");
        assert!(
            err.contains("warning: the program started other processes (")
                && err.contains("1 multiprocessing process(es)")
                && err.contains("their bytecode is not captured"),
            "{method}: {err}"
        );
        assert_eq!(err.contains("os.fork()"), method == "fork", "{method}: {err}");
        assert_eq!(read(&s.outdir.join("d.json")).run.exit_status, 0);
    }
    let s = Scene::new();
    let o = s.dump("print('alone')").output().unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("other processes"));
}

#[test]
fn a_forked_child_returning_into_the_harness_writes_no_dump_of_its_own() {
    let s = Scene::new();
    let code = "import os, sys\npid = os.fork()\nif pid:\n    os.waitpid(pid, 0)\nelse:\n    sys.exit(7)\n";
    let o = s.dump(code).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err.matches("specdiff: wrote").count(), 1, "{err}");
    assert_eq!(read(&s.outdir.join("d.json")).run.exit_status, 0, "the parent's dump, not the child's");
}

#[test]
fn fork_warns_about_threads_only_when_the_program_has_them() {
    const TEST: &str = "fork_warns_about_threads_only_when_the_program_has_them";
    for minor in ["3.12", "3.13"] {
        let Some(py) = interpreter(TEST, minor) else { return };
        ran(TEST, &py.label);
        let fork = "pid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)\n";
        let plain = format!("import os, time\ntime.sleep(0.05)\n{fork}");
        let threaded =
            format!("import os, threading, time\nthreading.Thread(target=time.sleep, args=(1,)).start()\ntime.sleep(0.05)\n{fork}");
        let warning = "is multi-threaded, use of fork()";
        for (code, program_has_threads) in [(&plain, false), (&threaded, true)] {
            let bare = Command::new(&py.python).args(["-c", code]).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&bare.stderr).contains(warning), program_has_threads, "{minor}: plain python");
            let tmp = tempfile::tempdir().unwrap();
            let o = dump_with(py, &tmp.path().join("f.json"), &["-c", code]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{minor}: {err}");
            assert_eq!(err.contains(warning), program_has_threads, "{minor}, threads={program_has_threads}: {err}");
        }
    }
}

#[test]
fn a_stopped_diff_removes_its_part_file() {
    let tmp = tempfile::tempdir().unwrap();
    // A named pipe as input: the diff waits on it with its output reserved.
    let fifo = tmp.path().join("base.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = tmp.path().join("report.md");
    let child = specdiff()
        .arg("diff")
        .arg(&fifo)
        .arg(&fifo)
        .arg("-o")
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let parts = || -> Vec<_> {
        std::fs::read_dir(tmp.path()).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".part")).collect()
    };
    let start = Instant::now();
    while parts().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(60), "the diff never reserved its output");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, err) = stop(child, libc::SIGTERM);
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("interrupted by SIGTERM"), "{err}");
    assert!(parts().is_empty() && !out.exists());
}
