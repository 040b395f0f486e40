//! `specdiff view` without a browser: the real binary serving real dumps (the demo pair) on
//! 127.0.0.1, spoken to over raw TCP so every request goes out exactly as written. It answers
//! only its own `Host`, refuses `..`, serves only the page and the two dumps (byte for byte),
//! and the page names them. Built without the viewer, it says how to get it in one line. The
//! page itself is opened in Chromium by tests/e2e/view.mjs.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

use common::*;

/// Kills the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `GET path` with `Host: host`, exactly as written; the status and the body.
fn get(port: u16, path: &str, host: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a full answer");
    let head = String::from_utf8_lossy(&all[..end]).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("{head}"));
    (status, all[end + 4..].to_vec())
}

#[test]
fn view_serves_only_the_viewer_and_the_dumps_to_its_own_host() {
    let py = &interpreters()[0];
    let dir = tempfile::tempdir().unwrap();
    dump_ok(py, dir.path(), "base", &["examples/demo/base.py", "20"]);
    dump_ok(py, dir.path(), "head", &["examples/demo/head.py", "20"]);
    let (base, head) = (
        dir.path().join(format!("base-{}.json", py.key)),
        dir.path().join(format!("head-{}.json", py.key)),
    );
    let mut child = specdiff()
        .args(["view", "--no-open", "--port", "0"])
        .args([&base, &head])
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
        return;
    }
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let server = Server(child);
    let url = line
        .split(" at ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|s| s.strip_suffix('/'))
        .unwrap()
        .parse()
        .unwrap();
    let ours = format!("127.0.0.1:{port}");

    let (status, page) = get(port, "/", &ours);
    let page = String::from_utf8(page).unwrap();
    let base_url = format!("dumps/base-base-{}.json", py.key);
    let head_url = format!("dumps/head-head-{}.json", py.key);
    assert_eq!(status, 200);
    assert!(
        page.contains(&format!(
            "globalThis.specdiffDemo = [\"{base_url}\",\"{head_url}\"];"
        )),
        "the page names the dumps"
    );
    assert!(
        page.contains("connect-src 'self' "),
        "the page may fetch from its server"
    );
    for (url, path) in [(&base_url, &base), (&head_url, &head)] {
        let (status, body) = get(port, &format!("/{url}"), &ours);
        assert_eq!(status, 200, "{url}");
        assert!(
            body == std::fs::read(path).unwrap(),
            "{url}: not the file's bytes ({} bytes)",
            body.len()
        );
    }
    assert_eq!(get(port, "/", &format!("localhost:{port}")).0, 200);

    // DNS rebinding: another name (or no port, or another port) for this address.
    for host in [
        "attacker.example",
        &format!("attacker.example:{port}"),
        "127.0.0.1",
        "127.0.0.1:1",
        &format!("127.0.0.1.nip.io:{port}"),
    ] {
        let (status, body) = get(port, "/", host);
        assert_eq!(status, 403, "Host: {host}");
        assert!(
            !String::from_utf8_lossy(&body).contains("specdiffDemo"),
            "Host: {host}"
        );
    }
    for path in [
        format!("/dumps/../{base_url}"),
        "/../../../etc/passwd".into(),
        "/%2e%2e/%2e%2e/etc/passwd".into(),
        "/dumps/..%2f..%2fetc%2fpasswd".into(),
    ] {
        assert_eq!(get(port, &path, &ours).0, 400, "{path}");
    }
    let file = base.file_name().unwrap().to_str().unwrap();
    for path in [
        "/dumps/",
        "/dumps",
        "/index.html",
        "/specdiff-offline.html",
        &format!("/{file}"),
        &format!("/dumps/{file}"),
        "/etc/passwd",
    ] {
        assert_eq!(get(port, path, &ours).0, 404, "{path}");
    }
    drop(server);
}
