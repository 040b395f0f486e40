//! The connections of `specdiff view`'s server: HTTP/1.1 over std's `TcpListener`, with every
//! resource a client can make it spend bounded (issue 31). The request head is parsed by
//! `httparse`; reading it, timing it and answering are here.
//!
//! - The head is read into one buffer that stops growing at [`MAX_HEAD`] (+ one read): a
//!   request line over [`MAX_REQUEST_LINE`] gets 414, a head over [`MAX_HEAD`] or with more
//!   than [`MAX_HEADERS`] fields 431, then the connection is closed. (A 400 MB URL used to
//!   take the server to 2 GB: the old server read any head whole.)
//! - A head must arrive whole within [`HEAD_TIMEOUT`] of the server waiting for it (a new
//!   connection, or the end of the previous answer on a kept-alive one): a silent or trickling
//!   client is closed, not waited for. An answer that makes no progress for
//!   [`WRITE_TIMEOUT`] (a client that asks and never reads) ends its connection.
//! - Each connection has its own thread, at most [`MAX_CONNECTIONS`] at once. One more takes
//!   the place of the oldest connection still waiting for a request head, which is closed; only
//!   when every place is answering is it refused with 503 (`serve/pool.rs`). So a client that
//!   pipelines requests and reads nothing blocks only itself (the old server answered every
//!   client from one thread, in order), and silent clients cannot keep the page out.
//! - Only GET and HEAD are served and no request body is ever read: a request that announces
//!   one is answered, then its connection closed, so no body is taken for a next request.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::pool::{Place, Pool};
use super::{Answer, Site};
use crate::output::plain_io_error;

/// The longest request line (method, path, version), in bytes; longer gets 414.
pub const MAX_REQUEST_LINE: usize = 8 * 1024;
/// The longest request head (request line and header fields), in bytes; longer gets 431.
pub const MAX_HEAD: usize = 32 * 1024;
/// The most header fields in one request; more gets 431.
pub const MAX_HEADERS: usize = 64;
/// How long a request head may take to arrive, whole.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long writing an answer may make no progress.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a refused client's remaining bytes are read and dropped before closing ([`linger`]).
const LINGER: Duration = Duration::from_secs(2);
/// A connection's thread needs little: its head buffer is on the heap.
const STACK_SIZE: usize = 256 * 1024;
/// One read's worth of bytes.
const CHUNK: usize = 4096;

/// A server bound to `127.0.0.1:port` (0: any free port).
pub struct Server {
    listener: TcpListener,
    port: u16,
}

impl Server {
    /// Binds the loopback address; the error is one line.
    pub fn bind(port: u16) -> Result<Server, String> {
        let cannot =
            |e: io::Error| format!("cannot listen on 127.0.0.1:{port}: {}", plain_io_error(&e));
        let listener = TcpListener::bind(("127.0.0.1", port)).map_err(cannot)?;
        let port = listener.local_addr().map_err(cannot)?.port();
        Ok(Server { listener, port })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Answers requests until the process ends (Ctrl-C ends it, see `signals`).
    pub fn run(self, site: Site) -> ! {
        let site = Arc::new(site);
        let pool = Arc::new(Pool::default());
        loop {
            let stream = match self.listener.accept() {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was taken: not the
                // end of the server. The pause keeps a lasting error from spinning a core.
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
            };
            let Some(place) = pool.take() else {
                busy(stream);
                continue;
            };
            let site = Arc::clone(&site);
            let port = self.port;
            // When no thread can be made, the closure is dropped: its stream closes, its
            // place is given back.
            let _ = std::thread::Builder::new()
                .name("specdiff-view".into())
                .stack_size(STACK_SIZE)
                .spawn(move || serve(stream, &site, port, &place));
        }
    }
}

/// Every place answering: 503 from the accepting thread, whose only wait is the pool's bounded
/// handover, so the write does not block (a new socket's empty send buffer takes these few
/// bytes at once).
fn busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let _ = stream.write_all(&head(503, "text/plain; charset=utf-8", 0, true));
}

/// What a request head says that matters here.
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    /// The `Host` field; `None` when there is none, several, or it is not UTF-8.
    host: Option<String>,
    /// The client asked to close (`Connection: close`, or HTTP/1.0).
    close: bool,
    /// A body follows (`Content-Length` other than 0, or `Transfer-Encoding`).
    has_body: bool,
}

/// Why no request was read.
#[derive(Debug)]
enum Refusal {
    /// Closed, reset or timed out: nothing to answer.
    Gone,
    /// Answer this status with this line, then close.
    Status(u16, &'static str),
}

/// Serves one connection: its requests in order, until it closes, errs or times out.
fn serve(mut stream: TcpStream, site: &Site, port: u16, place: &Place) {
    let _ = stream.set_nodelay(true);
    if stream.set_write_timeout(Some(WRITE_TIMEOUT)).is_err() {
        return;
    }
    // Bytes read and not yet used: the rest of a pipelined batch.
    let mut pending = Vec::new();
    loop {
        let waiting = place.waiting(&stream);
        let read = read_request(&mut stream, &mut pending);
        drop(waiting);
        let request = match read {
            Ok(request) => request,
            Err(Refusal::Gone) => return,
            Err(Refusal::Status(status, why)) => {
                let _ = respond(&mut stream, false, &Answer::text(status, why), true);
                return linger(stream, place);
            }
        };
        let answer = site.answer(
            &request.method,
            &request.target,
            request.host.as_deref(),
            port,
        );
        // A refused request (no token, another Host) closes its connection: a client without
        // the token keeps no place beyond its one answer and the linger, where it can be
        // pushed out (`serve/pool.rs`).
        let close = request.close || request.has_body || answer.status == 403;
        if respond(&mut stream, request.method == "HEAD", &answer, close).is_err() {
            return;
        }
        if close {
            return linger(stream, place);
        }
    }
}

/// Reads the next request head into `pending` (which may already hold it) and takes it out.
fn read_request(stream: &mut TcpStream, pending: &mut Vec<u8>) -> Result<Request, Refusal> {
    let deadline = Instant::now() + HEAD_TIMEOUT;
    let mut chunk = [0u8; CHUNK];
    loop {
        if let Some(request) = parse(pending)? {
            return Ok(request);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(Refusal::Gone);
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err(Refusal::Gone),
            Ok(n) => pending.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Refusal::Gone),
        }
    }
}

/// The request whose head starts `buf`, taken out of it; `None` while the head is incomplete
/// and within the limits. `buf` holds at most [`MAX_HEAD`] + one read when this is called.
fn parse(buf: &mut Vec<u8>) -> Result<Option<Request>, Refusal> {
    // The request line is measured first (after the empty lines a client may send before it,
    // which httparse skips): a long URL is a 414 whatever else is wrong.
    let start = buf
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .unwrap_or(buf.len());
    let line = buf[start..]
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(buf.len() - start);
    if line > MAX_REQUEST_LINE {
        return Err(Refusal::Status(
            414,
            "URI too long: a request line takes at most 8 KB",
        ));
    }
    let too_big = Refusal::Status(
        431,
        "request header fields too large: a request head takes at most 32 KB and 64 fields",
    );
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut fields);
    let used = match head.parse(buf) {
        Ok(httparse::Status::Complete(used)) if used <= MAX_HEAD => used,
        Ok(httparse::Status::Complete(_)) => return Err(too_big),
        Ok(httparse::Status::Partial) if buf.len() < MAX_HEAD => return Ok(None),
        Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
            return Err(too_big)
        }
        Err(_) => {
            return Err(Refusal::Status(
                400,
                "bad request: not an HTTP/1.1 request head",
            ))
        }
    };
    let named = |name: &'static str| {
        head.headers
            .iter()
            .filter(move |h| h.name.eq_ignore_ascii_case(name))
    };
    let mut hosts = named("host").map(|h| std::str::from_utf8(h.value).ok());
    let host = match (hosts.next(), hosts.next()) {
        (Some(Some(one)), None) => Some(one.to_string()),
        _ => None,
    };
    let says_close = named("connection").any(|h| {
        h.value
            .split(|&b| b == b',')
            .any(|token| token.trim_ascii().eq_ignore_ascii_case(b"close"))
    });
    let has_body = named("transfer-encoding").next().is_some()
        || named("content-length").any(|h| h.value.trim_ascii() != b"0");
    let request = Request {
        method: head.method.unwrap_or_default().to_string(),
        target: head.path.unwrap_or_default().to_string(),
        host,
        close: says_close || head.version != Some(1),
        has_body,
    };
    buf.drain(..used);
    Ok(Some(request))
}

/// Writes `answer` (without its body for HEAD); `close` says the connection ends after it.
fn respond(
    stream: &mut TcpStream,
    head_only: bool,
    answer: &Answer,
    close: bool,
) -> io::Result<()> {
    stream.write_all(&head(
        answer.status,
        answer.content_type,
        answer.body.len(),
        close,
    ))?;
    if !head_only {
        // The body is shared, not copied: a dump can be hundreds of megabytes.
        stream.write_all(&answer.body)?;
    }
    stream.flush()
}

/// An answer's status line and header fields.
fn head(status: u16, content_type: &str, length: usize, close: bool) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    };
    // no-referrer: the page's URL holds the token, and no request may carry it elsewhere.
    format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         Connection: {}\r\n\r\n",
        if close { "close" } else { "keep-alive" }
    )
    .into_bytes()
}

/// Closes after a refusal or a last answer. The client may still be sending (the rest of a
/// 1 MB URL, a body): closing with unread bytes makes the kernel reset the connection, which
/// can destroy the answer before the client reads it. So: stop writing, then read and drop
/// what comes, in a fixed buffer, for at most [`LINGER`]; meanwhile the connection counts as
/// waiting, so a new one may take its place.
fn linger(mut stream: TcpStream, place: &Place) {
    let _ = stream.shutdown(Shutdown::Write);
    let _waiting = place.waiting(&stream);
    let deadline = Instant::now() + LINGER;
    let mut sink = [0u8; CHUNK];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut sink) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(bytes: &[u8]) -> Result<Option<Request>, Refusal> {
        parse(&mut bytes.to_vec())
    }

    fn status(r: Result<Option<Request>, Refusal>) -> u16 {
        match r {
            Err(Refusal::Status(s, _)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn heads_are_read_as_far_as_they_go() {
        let mut buf = b"GET /a HTTP/1.1\r\nHost: h:1\r\n\r\nGET /b HTTP/1.1\r\nHo".to_vec();
        let first = parse(&mut buf).unwrap().unwrap();
        assert_eq!(
            (
                first.method.as_str(),
                first.target.as_str(),
                first.host.as_deref()
            ),
            ("GET", "/a", Some("h:1"))
        );
        assert!(!first.close && !first.has_body);
        assert!(
            parse(&mut buf).unwrap().is_none(),
            "the second is not whole yet"
        );
        buf.extend_from_slice(b"st: h:1\r\nConnection: keep-alive, Close\r\n\r\n");
        let second = parse(&mut buf).unwrap().unwrap();
        assert!(second.target == "/b" && second.close && buf.is_empty());
        let old = parsed(b"GET / HTTP/1.0\r\nHost: h:1\r\n\r\n")
            .unwrap()
            .unwrap();
        assert!(old.close, "HTTP/1.0 closes");
    }

    #[test]
    fn hosts_must_be_one() {
        let two = parsed(b"GET / HTTP/1.1\r\nHost: a:1\r\nhost: b:1\r\n\r\n")
            .unwrap()
            .unwrap();
        let none = parsed(b"GET / HTTP/1.1\r\n\r\n").unwrap().unwrap();
        assert!(two.host.is_none() && none.host.is_none());
    }

    #[test]
    fn bodies_are_noticed() {
        for field in [
            "Content-Length: 5",
            "Transfer-Encoding: chunked",
            "content-length:  7 ",
        ] {
            let head = format!("GET / HTTP/1.1\r\nHost: h:1\r\n{field}\r\n\r\n");
            assert!(
                parsed(head.as_bytes()).unwrap().unwrap().has_body,
                "{field}"
            );
        }
        assert!(
            !parsed(b"GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
                .unwrap()
                .unwrap()
                .has_body
        );
    }

    #[test]
    fn limits() {
        let long_line = format!("GET /{} HTTP/1.1\r\n", "a".repeat(MAX_REQUEST_LINE));
        assert_eq!(status(parsed(long_line.as_bytes())), 414, "a whole line");
        assert_eq!(
            status(parsed(&vec![b'a'; MAX_REQUEST_LINE + 1])),
            414,
            "a line not ended yet"
        );
        assert!(
            parsed(&vec![b'A'; MAX_REQUEST_LINE]).unwrap().is_none(),
            "up to the limit: wait"
        );
        let mut big = b"GET / HTTP/1.1\r\n".to_vec();
        for i in 0..MAX_HEAD / 4000 + 1 {
            big.extend_from_slice(format!("X-Filler-{i}: {}\r\n", "v".repeat(4000)).as_bytes());
        }
        assert_eq!(status(parsed(&big)), 431, "too many bytes, not ended");
        let fields: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: v\r\n")).collect();
        assert_eq!(
            status(parsed(format!("GET / HTTP/1.1\r\n{fields}\r\n").as_bytes())),
            431,
            "too many fields"
        );
        assert_eq!(status(parsed(b"GET / HTTP/1.1\r\nBad Field\r\n\r\n")), 400);
        assert_eq!(
            status(parsed(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")),
            400,
            "TLS to a plain port"
        );
    }
}
