//! The loopback server of `specdiff view`: the viewer page and the runs it opens, on
//! `127.0.0.1` only, to its own user only. This file owns who is answered and with what
//! ([`Site`]); `serve/http.rs` owns the connections (bounded request heads, timeouts, one
//! thread per connection up to a cap); `serve/pool.rs` owns the connection places and who
//! gives one up when all are taken.
//!
//! What it serves is a fixed table of paths built before it starts: the page and one path per
//! dump. Nothing is read from disk while serving, so no request can name a file: there is no
//! listing, no path outside, and any path with a `..` segment is refused outright.
//!
//! Who may read it: the port is open to every user of the machine (`ss -ltn` shows it), and
//! dumps hold source lines and paths. So, as Jupyter's server does, every path sits under a
//! secret made per run, 32 random bytes from the OS in hex: `/t/TOKEN/` is the page,
//! `/t/TOKEN/dumps/base-NAME` a dump (the page's relative URLs keep working unchanged). The
//! token exists only in this process and in the URL it prints (and hands the browser through a
//! file only its user can read, `view_cmd`), never on a command line. A request without it, or
//! with a wrong one, gets 403 with an empty body; the comparison takes the same time wherever
//! the first wrong character is.
//!
//! Every request must also carry the `Host` the server is reached at (`127.0.0.1:PORT` or
//! `localhost:PORT`): a page on another site whose name an attacker points at 127.0.0.1 (DNS
//! rebinding) sends its own name and gets 403.

mod http;
mod pool;

use std::collections::HashMap;
use std::sync::Arc;

pub use http::Server;

/// One file the server answers with.
struct Entry {
    /// The `Content-Type`.
    content_type: &'static str,
    /// The body.
    body: Arc<Vec<u8>>,
}

/// The secret every request must carry: 32 random bytes, 64 lowercase hex digits.
pub struct Token(String);

impl Token {
    /// A fresh token from the operating system's random source; the error is one line.
    pub fn generate() -> Result<Token, String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| {
            format!("cannot make the viewer's access token: no randomness from the system ({e})")
        })?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The path prefix the token guards: `/t/TOKEN/`.
    pub fn root(&self) -> String {
        format!("/t/{}/", self.0)
    }
}

/// Everything the server may answer with: paths under the token's root (`""` is the page,
/// `dumps/base-x.json` a dump).
pub struct Site {
    token: Token,
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

impl Answer {
    /// `status` with a one-line plain-text body (empty `why`: no body at all).
    pub fn text(status: u16, why: &str) -> Answer {
        Answer {
            status,
            content_type: "text/plain; charset=utf-8",
            body: Arc::new(if why.is_empty() {
                Vec::new()
            } else {
                format!("{why}\n").into_bytes()
            }),
        }
    }
}

impl Site {
    /// An empty table guarded by `token`.
    pub fn new(token: Token) -> Site {
        Site {
            token,
            entries: HashMap::new(),
        }
    }

    /// The page's path, `/t/TOKEN/`: what the printed URL ends with.
    pub fn root(&self) -> String {
        self.token.root()
    }

    /// Serves `body` at `path` under the token's root (`""`: the root itself).
    pub fn add(&mut self, path: &str, content_type: &'static str, body: Vec<u8>) {
        debug_assert!(!path.starts_with('/'));
        self.entries.insert(
            path.to_string(),
            Entry {
                content_type,
                body: Arc::new(body),
            },
        );
    }

    /// The answer to `method target` with header `Host: host`, for a server listening on
    /// `port`. The order matters: nothing about the table (not even whether a path exists)
    /// is told to a request that lacks the token.
    pub fn answer(&self, method: &str, target: &str, host: Option<&str>, port: u16) -> Answer {
        if !host.is_some_and(|h| host_is_ours(h, port)) {
            return Answer::text(403, "forbidden: this server answers only requests addressed to it by its loopback address");
        }
        let path = target.split(['?', '#']).next().unwrap_or("");
        let Some(rest) = self.under_token(path) else {
            return Answer::text(403, "");
        };
        if method != "GET" && method != "HEAD" {
            return Answer::text(405, "method not allowed");
        }
        // Decoded as far as a `..` could hide (`%2e%2e`, `%2E.`); the table has no `%` paths.
        let lowered = rest
            .to_ascii_lowercase()
            .replace("%2e", ".")
            .replace("%2f", "/")
            .replace("%5c", "\\");
        if lowered.split(['/', '\\']).any(|seg| seg == "..") {
            return Answer::text(400, "bad request: paths with .. are refused");
        }
        match self.entries.get(rest) {
            Some(e) => Answer {
                status: 200,
                content_type: e.content_type,
                body: e.body.clone(),
            },
            None => Answer::text(404, "not found"),
        }
    }

    /// What follows `/t/TOKEN/` in `path`, when `path` carries this site's token.
    fn under_token<'p>(&self, path: &'p str) -> Option<&'p str> {
        let (given, rest) = path.strip_prefix("/t/")?.split_once('/')?;
        same_secret(given.as_bytes(), self.token.0.as_bytes()).then_some(rest)
    }
}

/// `a == b` in a time that depends on their lengths only (the token's length is no secret):
/// no early exit at the first difference that a timing attack could measure.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
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

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn site() -> Site {
        let mut s = Site::new(Token(T.into()));
        s.add("", "text/html; charset=utf-8", b"<html>".to_vec());
        s.add("dumps/base-a.json", "application/json", b"{}".to_vec());
        s
    }

    #[test]
    fn tokens_are_fresh_hex_of_32_bytes() {
        let (a, b) = (Token::generate().unwrap(), Token::generate().unwrap());
        assert_eq!(a.0.len(), 64);
        assert!(a
            .0
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
        assert_ne!(a.0, b.0);
        assert_eq!(a.root(), format!("/t/{}/", a.0));
    }

    #[test]
    fn only_our_host_is_answered() {
        let s = site();
        let root = s.root();
        assert_eq!(
            s.answer("GET", &root, Some("127.0.0.1:8123"), 8123).status,
            200
        );
        assert_eq!(
            s.answer("GET", &root, Some("localhost:8123"), 8123).status,
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
            let a = s.answer("GET", &root, bad, 8123);
            assert_eq!(a.status, 403, "{bad:?}");
            assert!(!a.body.starts_with(b"<html>"));
        }
    }

    #[test]
    fn only_the_token_opens_anything() {
        let s = site();
        let host = Some("127.0.0.1:1");
        let wrong = format!("{}0", &T[..63]);
        for path in [
            "/".to_string(),
            "/dumps/base-a.json".into(),
            "/t/".into(),
            format!("/t/{T}"),
            format!("/t/{wrong}/"),
            format!("/t/{wrong}/dumps/base-a.json"),
            format!("/t/{}/", &T[..63]),
            format!("/t/{T}0/"),
            format!("/t/{}/", T.to_ascii_uppercase()),
            format!("/x/{T}/"),
        ] {
            for method in ["GET", "HEAD", "POST"] {
                let a = s.answer(method, &path, host, 1);
                assert_eq!((a.status, a.body.len()), (403, 0), "{method} {path}");
            }
        }
        assert_eq!(
            s.answer("GET", &format!("/t/{T}/?x=1#y"), host, 1).status,
            200
        );
    }

    #[test]
    fn only_known_paths_are_served() {
        let s = site();
        let host = Some("127.0.0.1:1");
        let at = |p: &str| format!("/t/{T}/{p}");
        assert_eq!(
            s.answer("GET", &at("dumps/base-a.json"), host, 1)
                .body
                .as_slice(),
            b"{}"
        );
        assert_eq!(s.answer("HEAD", &at(""), host, 1).status, 200);
        assert_eq!(s.answer("POST", &at(""), host, 1).status, 405);
        for missing in [
            "dumps/",
            "dumps",
            "index.html",
            "etc/passwd",
            "/",
            "dumps/base-a.json/",
        ] {
            assert_eq!(
                s.answer("GET", &at(missing), host, 1).status,
                404,
                "{missing}"
            );
        }
        for dots in [
            "../etc/passwd",
            "dumps/../dumps/base-a.json",
            "%2e%2e/x",
            "dumps/%2E./base-a.json",
            "..%2fx",
            "..\\x",
            "..",
        ] {
            assert_eq!(s.answer("GET", &at(dots), host, 1).status, 400, "{dots}");
        }
    }

    #[test]
    fn secrets_compare_by_value() {
        assert!(same_secret(b"abc", b"abc") && same_secret(b"", b""));
        assert!(
            !same_secret(b"abc", b"abd")
                && !same_secret(b"abc", b"ab")
                && !same_secret(b"xbc", b"abc")
        );
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
