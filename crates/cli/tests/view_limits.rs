//! `specdiff view`'s limits (issue 31), on the real binary over raw TCP: request heads over
//! 8 KB (line) or 32 KB (all) get 414/431 without the server growing, one client that
//! pipelines requests and reads nothing blocks no other, idle and trickling clients are closed
//! after the head timeout, silent clients over the cap push out the oldest waiting one (so
//! they cannot keep the page out), and 503 comes only when every place is answering.
//!
//! The waits below only bound hangs (a broken server fails instead of hanging the test); no
//! assertion is about how long anything took.

mod common;
mod view_server;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use view_server::*;

/// The server's limits (src/serve/http.rs, docs/hostile-input.md).
const MAX_CONNECTIONS: usize = 32;

/// Sends `request`; returns the answer's status, and the server's peak memory growth in kB.
fn sent_costs(view: &View, request: Vec<u8>) -> (u16, u64) {
    let before = view.peak_kb();
    let (status, _) = exchange(view.port, request);
    (status, view.peak_kb().saturating_sub(before))
}

#[test]
fn oversized_request_heads_are_refused_without_growing_the_server() {
    let Some(view) = view_demo() else { return };
    let (root, host) = (view.root.clone(), view.host());
    let url = |n: usize| {
        format!(
            "GET {root}{} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
            "a".repeat(n)
        )
        .into_bytes()
    };
    let field = |n: usize| {
        format!(
            "GET {root} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nX-Big: {}\r\n\r\n",
            "b".repeat(n)
        )
        .into_bytes()
    };
    let fields = |n: usize| {
        let many: String = (0..n).map(|i| format!("X-{i}: {i}\r\n")).collect();
        format!("GET {root} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{many}\r\n")
            .into_bytes()
    };
    // Just under the limits: answered (a 404 for the long path, the page for the rest).
    assert_eq!(exchange(view.port, url(8000)).0, 404);
    assert_eq!(exchange(view.port, field(30_000)).0, 200);
    assert_eq!(exchange(view.port, fields(60)).0, 200);
    assert_eq!(
        exchange(view.port, url(1 << 20)).0,
        414,
        "a 1 MB request line"
    );
    assert_eq!(
        exchange(view.port, field(1 << 20)).0,
        431,
        "a 1 MB header field"
    );
    assert_eq!(
        exchange(view.port, fields(50_000)).0,
        431,
        "50,000 header fields"
    );
    // Memory: 32 MB of URL or of header fields cost the server (nearly) nothing. The old
    // server kept every byte.
    for (what, request) in [("URL", url(32 << 20)), ("header field", field(32 << 20))] {
        let (status, grew) = sent_costs(&view, request);
        assert!(status == 414 || status == 431, "a 32 MB {what}: {status}");
        assert!(
            grew < 8 * 1024,
            "a 32 MB {what} grew the server's peak memory by {grew} kB"
        );
    }
    assert_eq!(get(view.port, &root, &host).0, 200, "still serving");
}

#[test]
fn a_client_that_reads_nothing_blocks_no_other() {
    let Some(view) = view_demo() else { return };
    let (root, host) = (view.root.clone(), view.host());
    // One client asks for the page 20 times in one go (megabytes more than the socket buffers
    // hold) and never reads; another connects and says nothing.
    let mut stuck = TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    let twenty = format!("GET {root} HTTP/1.1\r\nHost: {host}\r\n\r\n").repeat(20);
    stuck.write_all(twenty.as_bytes()).unwrap();
    let _silent = TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    // Give the server time to be stuck writing to the first, then ask for the dump.
    std::thread::sleep(Duration::from_millis(500));
    let (base, _, key) = demo();
    let (status, body) = get(
        view.port,
        &format!("{root}dumps/base-base-{key}.json"),
        &host,
    );
    assert_eq!(status, 200);
    assert!(
        body == std::fs::read(base).unwrap(),
        "another client gets the dump whole"
    );
    drop(stuck);
}

/// Reads from `s` until the server closes it: true when it did within [`HANG`]; `trickle`
/// sends one more byte of a never-ending head every 200 ms meanwhile.
fn closed_by_server(mut s: TcpStream, trickle: bool) -> bool {
    let started = Instant::now();
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0u8; 1024];
    let mut head = b"GET / HTTP/1.1\r\nX-Slow: "
        .iter()
        .chain(std::iter::repeat(&b'z'));
    while started.elapsed() < HANG {
        if trickle && s.write_all(&[*head.next().unwrap()]).is_err() {
            return true;
        }
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn idle_and_trickling_clients_are_closed() {
    let Some(view) = view_demo() else { return };
    let connect = || TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    let trickling = {
        let trickler = connect();
        std::thread::spawn(move || closed_by_server(trickler, true))
    };
    let idle: Vec<_> = (0..3)
        .map(|_| {
            let s = connect();
            std::thread::spawn(move || closed_by_server(s, false))
        })
        .collect();
    assert!(
        trickling.join().unwrap(),
        "a client sending its head a byte at a time is never closed"
    );
    let open = idle
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|closed| !closed)
        .count();
    assert_eq!(open, 0, "idle connections left open");
    assert_eq!(get(view.port, &view.root, &view.host()).0, 200);
}

#[test]
fn silent_clients_cannot_keep_the_page_out() {
    let Some(view) = view_demo() else { return };
    let connect = || TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    // Twice as many silent connections as there are places, as another local user without
    // the token can open: each new one over the cap pushes out the oldest still waiting.
    let silent: Vec<TcpStream> = (0..2 * MAX_CONNECTIONS).map(|_| connect()).collect();
    let (status, body) = get(view.port, &view.root, &view.host());
    assert_eq!(status, 200, "the page is served while {} silent clients are connected", silent.len());
    assert!(!body.is_empty());
    drop(silent);
    // A request without the token is answered 403 and its connection closed, though it asked
    // to keep it: no place is kept by a client the server does not serve.
    let mut stranger = TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    stranger.set_read_timeout(Some(HANG)).unwrap();
    write!(stranger, "GET / HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n\r\n", view.host()).unwrap();
    let mut answer = String::new();
    let _ = stranger.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 403 ") && answer.contains("\r\nConnection: close\r\n"), "{answer}");
}

#[test]
fn every_place_answering_refuses_the_next_with_503() {
    let Some(view) = view_demo() else { return };
    let (root, host) = (view.root.clone(), view.host());
    // Every place is taken by a client that asked for the page 20 times in one go and reads
    // nothing: all are answering, none waiting, so none can be pushed out.
    let twenty = format!("GET {root} HTTP/1.1\r\nHost: {host}\r\n\r\n").repeat(20);
    let stuck: Vec<TcpStream> = (0..MAX_CONNECTIONS)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", view.port)).unwrap();
            s.write_all(twenty.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let mut next = TcpStream::connect(("127.0.0.1", view.port)).unwrap();
    next.set_read_timeout(Some(HANG)).unwrap();
    let mut answer = String::new();
    let _ = next.read_to_string(&mut answer);
    assert_eq!(answer.lines().next(), Some("HTTP/1.1 503 Service Unavailable"), "{answer}");
    // Once they are gone, their places are free again.
    drop(stuck);
    let deadline = Instant::now() + HANG;
    while get(view.port, &root, &host).0 != 200 {
        assert!(Instant::now() < deadline, "never served again");
        std::thread::sleep(Duration::from_millis(100));
    }
}
