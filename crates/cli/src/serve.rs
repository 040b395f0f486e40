//! The loopback HTTP server of `specdiff view`: the viewer page and the runs it opens, on
//! `127.0.0.1` only, with `tiny_http` (one thread, requests answered in order).
//!
//! What it serves is a fixed table of paths built before it starts ([`Site`]): `/` (the
//! page) and one path per dump. Nothing is read from disk while serving, so no request can
//! name a file: there is no listing, no path outside, and any path with a `..` segment is
//! refused outright. Every request must carry the `Host` the server is reached at
//! (`127.0.0.1:PORT` or `localhost:PORT`): a page on another site whose name an attacker
//! points at 127.0.0.1 (DNS rebinding) sends its own name and gets 403.

use std::collections::HashMap;
use std::sync::Arc;

/// One file the server answers with.
pub struct Entry {
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Arc<Vec<u8>>,
}

/// Everything the server may answer with, by path (`/`, `/dumps/base-x.json`, …).
pub struct Site {
    entries: HashMap<String, Entry>,
}

/// An answer: status, content type, body.
#[derive(Debug)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Arc<Vec<u8>>,
}

impl Site {
    /// An empty table.
    pub fn new() -> Site {
        Site {
            entries: HashMap::new(),
        }
    }

    /// Serves `body` at `path` (which starts with `/`).
    pub fn add(&mut self, path: &str, content_type: &'static str, body: Vec<u8>) {
        debug_assert!(path.starts_with('/'));
        self.entries.insert(
            path.to_string(),
            Entry {
                content_type,
                body: Arc::new(body),
            },
        );
    }

    /// The answer to `method url` with header `Host: host`, for a server listening on `port`.
    pub fn answer(&self, method: &str, url: &str, host: Option<&str>, port: u16) -> Answer {
        let text = |status: u16, why: &str| Answer {
            status,
            content_type: "text/plain; charset=utf-8",
            body: Arc::new(format!("{why}\n").into_bytes()),
        };
        if !host.is_some_and(|h| host_is_ours(h, port)) {
            return text(403, "forbidden: this server answers only requests addressed to it by its loopback address");
        }
        if method != "GET" && method != "HEAD" {
            return text(405, "method not allowed");
        }
        let path = url.split(['?', '#']).next().unwrap_or("");
        // Decoded as far as a `..` could hide (`%2e%2e`, `%2E.`); the table has no `%` paths.
        let lowered = path
            .to_ascii_lowercase()
            .replace("%2e", ".")
            .replace("%2f", "/")
            .replace("%5c", "\\");
        if lowered.split(['/', '\\']).any(|seg| seg == "..") {
            return text(400, "bad request: paths with .. are refused");
        }
        match self.entries.get(path) {
            Some(e) => Answer {
                status: 200,
                content_type: e.content_type,
                body: e.body.clone(),
            },
            None => text(404, "not found"),
        }
    }
}

/// True when `host` (a `Host` header) is this server's loopback address: `127.0.0.1:PORT` or
/// `localhost:PORT` (what the printed URL and a browser's address bar send).
pub fn host_is_ours(host: &str, port: u16) -> bool {
    let host = host.trim();
    let Some((name, p)) = host.rsplit_once(':') else {
        return false;
    };
    p.parse::<u16>().ok() == Some(port)
        && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
}

/// A server bound to `127.0.0.1:port` (0: any free port).
pub struct Server {
    server: tiny_http::Server,
    port: u16,
}

impl Server {
    /// Binds the loopback address; the error is one line.
    pub fn bind(port: u16) -> Result<Server, String> {
        let server = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or("the server has no IP address")?;
        Ok(Server { server, port })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Answers requests until the process ends (Ctrl-C ends it, see `signals`).
    pub fn run(self, site: &Site) -> Result<(), String> {
        loop {
            let request = self
                .server
                .recv()
                .map_err(|e| format!("the server stopped: {e}"))?;
            let host = request
                .headers()
                .iter()
                .find(|h| h.field.equiv("Host"))
                .map(|h| h.value.as_str().to_string());
            let answer = site.answer(
                request.method().as_str(),
                request.url(),
                host.as_deref(),
                self.port,
            );
            let header = |k: &str, v: &str| {
                tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("valid header")
            };
            let length = answer.body.len();
            let headers = vec![
                header("Content-Type", answer.content_type),
                header("Cache-Control", "no-store"),
                header("X-Content-Type-Options", "nosniff"),
            ];
            // The body is shared, not copied: a dump can be hundreds of megabytes.
            let body = std::io::Cursor::new(Shared(answer.body));
            // With its length, not chunked (tiny_http chunks bodies over 32 KB by default).
            let response =
                tiny_http::Response::new(answer.status.into(), headers, body, Some(length), None)
                    .with_chunked_threshold(usize::MAX);
            // A browser that left mid-answer is not an error of ours.
            let _ = request.respond(response);
        }
    }
}

/// A shared body as `Cursor` reads it.
struct Shared(Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Site {
        let mut s = Site::new();
        s.add("/", "text/html; charset=utf-8", b"<html>".to_vec());
        s.add("/dumps/base-a.json", "application/json", b"{}".to_vec());
        s
    }

    #[test]
    fn only_our_host_is_answered() {
        let s = site();
        assert_eq!(
            s.answer("GET", "/", Some("127.0.0.1:8123"), 8123).status,
            200
        );
        assert_eq!(
            s.answer("GET", "/", Some("localhost:8123"), 8123).status,
            200
        );
        for bad in [
            None,
            Some("evil.example:8123"),
            Some("127.0.0.1:8124"),
            Some("127.0.0.1"),
            Some("127.0.0.1.evil.example:8123"),
            Some(""),
        ] {
            let a = s.answer("GET", "/", bad, 8123);
            assert_eq!(a.status, 403, "{bad:?}");
            assert!(!a.body.starts_with(b"<html>"));
        }
    }

    #[test]
    fn only_known_paths_are_served() {
        let s = site();
        let host = Some("127.0.0.1:1");
        assert_eq!(
            s.answer("GET", "/dumps/base-a.json", host, 1)
                .body
                .as_slice(),
            b"{}"
        );
        assert_eq!(s.answer("GET", "/?x=1#y", host, 1).status, 200);
        assert_eq!(s.answer("HEAD", "/", host, 1).status, 200);
        assert_eq!(s.answer("POST", "/", host, 1).status, 405);
        for missing in [
            "/dumps/",
            "/dumps",
            "/index.html",
            "/etc/passwd",
            "//",
            "/dumps/base-a.json/",
        ] {
            assert_eq!(s.answer("GET", missing, host, 1).status, 404, "{missing}");
        }
        for dots in [
            "/../etc/passwd",
            "/dumps/../dumps/base-a.json",
            "/%2e%2e/x",
            "/dumps/%2E./base-a.json",
            "/..%2fx",
            "/..\\x",
            "/..",
        ] {
            assert_eq!(s.answer("GET", dots, host, 1).status, 400, "{dots}");
        }
    }

    #[test]
    fn hosts() {
        assert!(host_is_ours("127.0.0.1:80", 80) && host_is_ours("LOCALHOST:80", 80));
        assert!(
            !host_is_ours("[::1]:80", 80)
                && !host_is_ours("127.0.0.2:80", 80)
                && !host_is_ours("127.0.0.1:080x", 80)
        );
    }
}
