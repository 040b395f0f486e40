//! What the `specdiff view` tests share (tests/view.rs, tests/view_limits.rs): the demo pair
//! dumped once per test binary, a running server that is killed when the test ends, and raw
//! requests sent exactly as written.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::common::*;

/// Generous next to the server's 10 s head timeout: only a server that never closes fails.
pub const HANG: Duration = Duration::from_secs(40);

/// The demo pair, dumped once for all the tests of this file: (base, head, interpreter key).
pub fn demo() -> &'static (PathBuf, PathBuf, &'static str) {
    static DEMO: OnceLock<(PathBuf, PathBuf, &'static str)> = OnceLock::new();
    DEMO.get_or_init(|| {
        let py = &interpreters()[0];
        let dir = tempfile::tempdir().unwrap().keep();
        dump_ok(py, &dir, "base", &["examples/demo/base.py", "20"]);
        dump_ok(py, &dir, "head", &["examples/demo/head.py", "20"]);
        let at = |side: &str| dir.join(format!("{side}-{}.json", py.key));
        (at("base"), at("head"), py.key)
    })
}

/// A running `specdiff view`, killed when the test ends, passed or not.
pub struct View {
    pub child: Child,
    pub port: u16,
    /// The path of the printed URL: `/t/TOKEN/`.
    pub root: String,
    /// The line it printed.
    pub line: String,
}

impl Drop for View {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl View {
    /// `127.0.0.1:PORT`, the `Host` to send.
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The server's peak resident memory so far, in kB (Linux).
    pub fn peak_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

/// Starts `specdiff view --port 0 ARGS` (`cmd` may set its environment); `None` when this
/// specdiff has no viewer (after checking it says so in one line).
pub fn start(mut cmd: Command, args: &[&Path]) -> Option<View> {
    let mut child = cmd
        .args(["view", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if option_env!("SPECDIFF_VIEWER_EMBEDDED").is_none() {
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("built without the web viewer: run ./scripts/build-web.sh, then rebuild"),
            "{err}"
        );
        return None;
    }
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split(" at ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("{url}"));
    let (port, path) = rest.split_at(rest.find('/').unwrap());
    let view = View {
        child,
        port: port.parse().unwrap(),
        root: path.to_string(),
        line: line.trim_end().to_string(),
    };
    Some(view)
}

pub fn view_demo() -> Option<View> {
    let (base, head, _) = demo();
    start(specdiff(), &[base, head])
}

/// Sends `request` exactly as written (from a thread of its own, so a server that stops
/// reading cannot block the answer's read) and returns the answer's status and body.
pub fn exchange(port: u16, request: Vec<u8>) -> (u16, Vec<u8>) {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(HANG)).unwrap();
    let mut w = s.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = w.write_all(&request);
    });
    let mut all = Vec::new();
    // A reset after the answer was read (the server closing on unread bytes) still leaves it.
    let read = (&s).read_to_end(&mut all);
    let _ = s.shutdown(std::net::Shutdown::Both);
    writer.join().unwrap();
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no whole answer ({} bytes, {read:?})", all.len()));
    let head = String::from_utf8_lossy(&all[..end]).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("{head}"));
    (status, all[end + 4..].to_vec())
}

/// `GET path` with `Host: host`, exactly as written; the status and the body.
pub fn get(port: u16, path: &str, host: &str) -> (u16, Vec<u8>) {
    exchange(
        port,
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into_bytes(),
    )
}
