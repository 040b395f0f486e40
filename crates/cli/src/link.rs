//! `specdiff diff --link BASE_URL`: the share link of a diff, opened by the hosted viewer at
//! `BASE_URL` (`https://OWNER.github.io/REPO/`).
//!
//! The payload is `specdiff_core::share`'s, the codec the viewer's "share link" button uses,
//! and it is chosen the same way: both dumps whole when the link fits a pull-request comment,
//! otherwise only the code objects of the functions whose specialization changed (worst
//! first), halved until it fits. The viewer decodes either with the same reader, so it shows the same rows.

use std::collections::HashSet;

use specdiff_core::share::{self, ShareNote, SharePayload};
use specdiff_core::{DiffReport, Dump};

/// The environment variable `--link` falls back to, so CI sets the viewer's address once.
pub const ENV: &str = "SPECDIFF_LINK_BASE";

/// Changed functions kept at most in a reduced link (as the viewer's button keeps).
const MAX_KEPT_FUNCTIONS: usize = 400;

/// The viewer's address: `--link`'s value, else [`ENV`]'s when it is set and not empty (so a
/// CI that sets it for every job can still run `specdiff diff` without a link by leaving it
/// empty), checked by [`parse_base`].
pub fn base_url(flag: Option<&str>) -> Result<Option<String>, String> {
    if let Some(text) = flag {
        return parse_base(text, "--link").map(Some);
    }
    match std::env::var(ENV) {
        Ok(text) if !text.is_empty() => parse_base(&text, ENV).map(Some),
        _ => Ok(None),
    }
}

/// Checks a viewer address given as `origin` (the flag or the variable): an `http(s)://`
/// address with nothing a Markdown link or a terminal would break on. Any `#…` part is
/// dropped (the link's own hash replaces it).
pub fn parse_base(text: &str, origin: &str) -> Result<String, String> {
    let url = text.split('#').next().unwrap_or("");
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(format!("{origin} {text:?}: not an http:// or https:// address of the viewer"));
    }
    if let Some(c) = url.chars().find(|c| c.is_whitespace() || c.is_control() || "<>()\"'`[]\\".contains(*c)) {
        return Err(format!("{origin} {text:?}: the address contains {c:?}"));
    }
    Ok(url.to_string())
}

/// The viewer's URL with the diff of `base` and `head` in its hash (`BASE_URL#share=s1.…`).
pub fn share_link(base_url: &str, base: &Dump, head: &Dump, report: &DiffReport) -> String {
    format!("{base_url}#share={}", payload(base, head, report))
}

fn payload(base: &Dump, head: &Dump, report: &DiffReport) -> String {
    let note = note(base, head, false);
    let full = share::encode(&SharePayload { base: Some(base.clone()), head: Some(head.clone()), note });
    if full.len() <= share::COMMENT_FRIENDLY_CHARS {
        return full;
    }
    reduced_payload(base, head, report, MAX_KEPT_FUNCTIONS, share::COMMENT_FRIENDLY_CHARS)
}

/// The payload of the HTML report (`diff --format html`): always reduced to the changed
/// functions, all of them as long as the payload stays under the longest link the page
/// opens (`share::MAX_LINK_CHARS`).
pub fn report_payload(base: &Dump, head: &Dump, report: &DiffReport) -> String {
    reduced_payload(base, head, report, usize::MAX, share::MAX_LINK_CHARS)
}

fn note(base: &Dump, head: &Dump, reduced: bool) -> ShareNote {
    ShareNote { base_code_total: base.code.len(), head_code_total: head.code.len(), reduced, comment: None }
}

/// Only the code objects of the functions whose specialization changed (worst first, at most
/// `max_kept`), halved until the payload is at most `max_chars` long.
fn reduced_payload(base: &Dump, head: &Dump, report: &DiffReport, max_kept: usize, max_chars: usize) -> String {
    let mut wanted: Vec<(u32, u32)> = report
        .functions
        .iter()
        // As the viewer's button: functions whose specialization changed (sites added or
        // removed by a code edit alone do not count).
        .filter(|f| f.counts.changed_sites() > f.counts.added + f.counts.removed)
        .map(|f| (f.base_code, f.head_code))
        .take(max_kept)
        .collect();
    loop {
        let kept = |pick: fn(&(u32, u32)) -> u32| wanted.iter().map(|w| pick(w) as usize).collect::<HashSet<usize>>();
        let (keep_base, keep_head) = (kept(|w| w.0), kept(|w| w.1));
        let reduced = SharePayload {
            base: Some(share::reduce(base, |i, _| keep_base.contains(&i))),
            head: Some(share::reduce(head, |i, _| keep_head.contains(&i))),
            note: note(base, head, true),
        };
        let link = share::encode(&reduced);
        if link.len() <= max_chars || wanted.is_empty() {
            return link;
        }
        wanted.truncate(wanted.len() / 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_addresses_are_checked() {
        assert_eq!(parse_base("https://o.github.io/specdiff/", "--link").unwrap(), "https://o.github.io/specdiff/");
        assert_eq!(parse_base("http://127.0.0.1:8080/x/#tab=stats", "--link").unwrap(), "http://127.0.0.1:8080/x/");
        for bad in ["o.github.io/specdiff/", "javascript:alert(1)", "https://a b/", "https://x/)[y]", ""] {
            let e = parse_base(bad, "--link").unwrap_err();
            assert!(e.starts_with("--link ") && !e.contains('\n'), "{e}");
        }
    }
}
