//! `-o` naming something that is not a regular file (issue 31, item 1; docs/hostile-input.md,
//! "Outputs and the program's process tree"): a character device (`/dev/full`, `/dev/null`)
//! or a named pipe is written in place and its errors reported, a pipe nobody reads is refused
//! at once, a symbolic link is followed and stays a link. Each check ends by looking at the
//! node itself: still the same kind (and device numbers), never swapped for a regular file.
//! The tests run as root here (as CI jobs often do), where a rename over `/dev/full` succeeds:
//! the private copies made with mknod(2) are checked first, so a regression replaces those,
//! never the machine's own. Linux only (mknod, mkfifo, /proc).
#![cfg(target_os = "linux")]

mod common;

use std::ffi::CString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{any_native, repo_root, specdiff};

fn demo(name: &str) -> PathBuf {
    repo_root().join("www/demo").join(name)
}

/// `specdiff diff --format json -o OUT` on the two demo dumps.
fn diff_to(out: &Path) -> Command {
    let mut c = specdiff();
    c.args(["diff", "--format", "json", "-o"])
        .arg(out)
        .arg(demo("base.json"))
        .arg(demo("head.json"));
    c
}

/// `specdiff dump -o OUT -c 'x = 1'` under a native interpreter.
fn dump_to(out: &Path) -> Command {
    let python = &any_native().python;
    let mut c = specdiff();
    c.arg("dump")
        .arg("--python")
        .arg(python)
        .arg("-o")
        .arg(out)
        .args(["-c", "x = 1"]);
    c
}

/// Runs `cmd` to its end, killing it (and failing) if it has not ended within 120 s: the
/// bound catches a hang; it is not what the tests measure.
fn run_bounded(mut cmd: Command) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("specdiff hung writing its output")
        })
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn c_path(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap()
}

/// A private character device `major:minor` at `path`; `false` when mknod is not permitted
/// (not root, or a container without CAP_MKNOD).
fn mknod_char(path: &Path, major: u32, minor: u32) -> bool {
    let mode = libc::S_IFCHR | 0o666;
    unsafe { libc::mknod(c_path(path).as_ptr(), mode, libc::makedev(major, minor)) == 0 }
}

/// `path` is still a character device with these numbers (not a file renamed over it).
fn assert_char_device(path: &Path, major: u32, minor: u32) {
    let m = std::fs::symlink_metadata(path).unwrap();
    assert!(
        m.file_type().is_char_device(),
        "{} was replaced: {:?}",
        path.display(),
        m.file_type()
    );
    assert_eq!(m.rdev(), libc::makedev(major, minor), "{}", path.display());
}

/// exit 2 and exactly one line on stderr containing each of `needles`.
fn assert_one_line_error(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "missing {n:?} in: {err}");
    }
}

#[test]
fn a_full_device_reports_no_space_and_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let private = dir.path().join("full");
    let mut targets = Vec::new();
    if mknod_char(&private, 1, 7) {
        targets.push(private);
    } else {
        eprintln!("note: mknod not permitted; only the real /dev/full is checked");
    }
    // The machine's own node last: a regression has replaced the private copy by then.
    targets.push(PathBuf::from("/dev/full"));
    for target in &targets {
        assert_no_space(diff_to(target), target);
    }
    // stats -o: the same writer.
    let raw = dir.path().join("raw.txt");
    std::fs::write(&raw, "opcode[1].execution_count : 2\n").unwrap();
    let mut stats = specdiff();
    stats.arg("stats").arg("-o").arg(&targets[0]).arg(&raw);
    assert_no_space(stats, &targets[0]);
    // dump: the error comes after the program ran, and it is still one line.
    assert_no_space(dump_to(&targets[0]), &targets[0]);
}

/// `cmd`, writing to a full device `full`, fails with one line saying so; `full` stays the
/// device.
fn assert_no_space(cmd: Command, full: &Path) {
    let o = run_bounded(cmd);
    let says = format!("cannot write {}: no space left on device", full.display());
    assert_one_line_error(&o, &[&says]);
    assert_char_device(full, 1, 7);
}

#[test]
fn a_null_device_takes_the_output_and_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null");
    if !mknod_char(&null, 1, 3) {
        eprintln!("note: mknod not permitted; skipped (the real /dev/null is not risked)");
        return;
    }
    for cmd in [diff_to(&null), dump_to(&null)] {
        let o = run_bounded(cmd);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_char_device(&null, 1, 3);
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left beside it"
    );
}

fn mkfifo(path: &Path) {
    assert_eq!(unsafe { libc::mkfifo(c_path(path).as_ptr(), 0o600) }, 0);
}

fn assert_fifo(path: &Path) {
    let t = std::fs::symlink_metadata(path).unwrap().file_type();
    assert!(t.is_fifo(), "{} was replaced: {t:?}", path.display());
}

/// Runs `cmd` (which writes to named pipe `fifo`) while reading the pipe: the bytes read.
/// The reader opens the pipe without waiting (O_NONBLOCK) before `cmd` starts, so `cmd`
/// always finds it, and reads until `cmd` has ended and the pipe is empty.
fn run_reading(cmd: Command, fifo: &Path) -> (Output, Vec<u8>) {
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(fifo)
        .unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let seen = done.clone();
    let thread = std::thread::spawn(move || {
        let (mut got, mut buf) = (Vec::new(), [0u8; 65536]);
        loop {
            let finished = seen.load(Ordering::SeqCst);
            match reader.read(&mut buf) {
                Ok(n) if n > 0 => got.extend_from_slice(&buf[..n]),
                // No writer yet / any more (0), or a writer and no data yet (EAGAIN).
                _ if finished => return got,
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    let o = run_bounded(cmd);
    done.store(true, Ordering::SeqCst);
    (o, thread.join().unwrap())
}

#[test]
fn a_named_pipe_is_written_when_read_and_refused_at_once_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    mkfifo(&fifo);
    // Nothing reads it: one line at once, before any work (a blocking open waited for ever).
    for cmd in [diff_to(&fifo), dump_to(&fifo)] {
        let o = run_bounded(cmd);
        assert_one_line_error(
            &o,
            &[&format!(
                "cannot write {}: it is a named pipe (FIFO) and nothing reads it",
                fifo.display()
            )],
        );
        assert_fifo(&fifo);
    }
    // Read: the reader gets the whole report, the same bytes a regular file gets.
    let file = dir.path().join("report.json");
    let o = run_bounded(diff_to(&file));
    assert!(o.status.success(), "{}", stderr(&o));
    let (o, got) = run_reading(diff_to(&fifo), &fifo);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_fifo(&fifo);
    assert_eq!(got, std::fs::read(&file).unwrap());
    let (o, got) = run_reading(dump_to(&fifo), &fifo);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_fifo(&fifo);
    assert!(
        got.starts_with(b"{\"format\":\"specdiff-dump\""),
        "{}",
        String::from_utf8_lossy(&got[..got.len().min(80)])
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file left beside them"
    );
}

fn link_target(link: &Path) -> PathBuf {
    assert!(
        std::fs::symlink_metadata(link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "{} is no longer a link",
        link.display()
    );
    std::fs::read_link(link).unwrap()
}

#[test]
fn a_symbolic_link_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let report = d.join("report.json");
    assert!(run_bounded(diff_to(&report)).status.success());
    let expected = std::fs::read(&report).unwrap();
    // A link to an existing file, a chain of two links, a link to nothing yet (relative
    // targets, resolved from the link's folder).
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/old.json"), "old").unwrap();
    std::os::unix::fs::symlink("sub/old.json", d.join("link.json")).unwrap();
    std::os::unix::fs::symlink("link.json", d.join("chain.json")).unwrap();
    std::os::unix::fs::symlink("sub/new.json", d.join("dangling.json")).unwrap();
    for (link, target, file) in [
        ("link.json", "sub/old.json", "sub/old.json"),
        ("chain.json", "link.json", "sub/old.json"),
        ("dangling.json", "sub/new.json", "sub/new.json"),
    ] {
        std::fs::write(d.join("sub/old.json"), "old").unwrap();
        let o = run_bounded(diff_to(&d.join(link)));
        assert!(o.status.success(), "{link}: {}", stderr(&o));
        assert_eq!(link_target(&d.join(link)), Path::new(target), "{link}");
        assert_eq!(
            std::fs::read(d.join(file)).unwrap(),
            expected,
            "{link}: the target got the report"
        );
    }
    // dump: a link to an earlier dump is replaced through the link; a link to a file that is
    // not a dump, or to the script, is refused as that file is.
    std::fs::remove_file(d.join("sub/new.json")).unwrap();
    let o = run_bounded(dump_to(&d.join("dangling.json")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        link_target(&d.join("dangling.json")),
        Path::new("sub/new.json")
    );
    assert!(std::fs::read(d.join("sub/new.json"))
        .unwrap()
        .starts_with(b"{\"format\":\"specdiff-dump\""));
    std::fs::write(d.join("notes.txt"), "my notes").unwrap();
    std::os::unix::fs::symlink("notes.txt", d.join("to-notes.json")).unwrap();
    let o = run_bounded(dump_to(&d.join("to-notes.json")));
    assert_one_line_error(
        &o,
        &[
            "refusing to overwrite",
            "to-notes.json",
            "not a specdiff dump",
        ],
    );
    assert_eq!(std::fs::read(d.join("notes.txt")).unwrap(), b"my notes");
    let script = d.join("prog.py");
    std::fs::write(&script, "x = 1\n").unwrap();
    std::os::unix::fs::symlink("prog.py", d.join("to-script.json")).unwrap();
    let python = &any_native().python;
    let mut cmd = specdiff();
    cmd.arg("dump")
        .arg("--python")
        .arg(python)
        .arg("--force")
        .arg("-o")
        .arg(d.join("to-script.json"))
        .arg(&script);
    let o = run_bounded(cmd);
    assert_one_line_error(&o, &["refusing to write", "to-script.json", "the script"]);
    assert_eq!(std::fs::read(&script).unwrap(), b"x = 1\n");
    assert_eq!(link_target(&d.join("to-script.json")), Path::new("prog.py"));
    // A loop of links is one line, not a hang.
    std::os::unix::fs::symlink("loop-b", d.join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", d.join("loop-b")).unwrap();
    let o = run_bounded(diff_to(&d.join("loop-a")));
    assert_one_line_error(&o, &["cannot write", "loop-a", "symbolic links"]);
    let parts: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .collect();
    assert!(parts.is_empty(), "temporary files left: {parts:?}");
}
