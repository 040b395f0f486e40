//! `specdiff diff --link BASE_URL`: the share link of a diff, opened by the hosted viewer at
//! `BASE_URL` (`https://OWNER.github.io/REPO/`).
//!
//! The payload is `specdiff_core::share`'s (`link_payload`), the codec the viewer's "share
//! link" button uses: both dumps whole when small, otherwise the changed functions worst
//! first up to `--link-cap`, with the sender's run-level numbers; `--redact` leaves source
//! text out.

use specdiff_core::share::{self, LinkOptions, ShareNote};
use specdiff_core::{DiffReport, Dump};

/// The environment variable `--link` falls back to, so CI sets the viewer's address once.
pub const ENV: &str = "SPECDIFF_LINK_BASE";

/// The viewer's address: `--link`'s value, else [`ENV`]'s when it is set and not empty (so a
/// CI that sets it for every job can still run `specdiff diff` without a link by leaving it
/// empty), checked by [`parse_base`].
pub fn base_url(flag: Option<&str>) -> Result<Option<String>, String> {
    if let Some(text) = flag {
        return parse_base(text, "--link").map(Some);
    }
    // A value that is not Unicode cannot be an address: treated as unset, as before.
    match crate::command_line::env_value(ENV).and_then(|v| v.into_string().ok()) {
        Some(text) => parse_base(&text, ENV).map(Some),
        None => Ok(None),
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

/// The viewer's URL with the diff of `base` and `head` in its hash (`BASE_URL#share=s4.…`),
/// and the note of what it carries (what it leaves out is part of the diff's view).
pub fn share_link(base_url: &str, base: &Dump, head: &Dump, report: &DiffReport, options: LinkOptions) -> (String, ShareNote) {
    let (payload, note) = share::link_payload(base, head, report, options);
    (format!("{base_url}#share={payload}"), note)
}

/// The payload of the HTML report (`diff --format html`): the same codec as a link, with the
/// longest payload the page opens as its cap ([`share::MAX_LINK_CHARS`]) instead of a
/// comment's, so it keeps every changed function that fits there.
pub fn report_payload(base: &Dump, head: &Dump, report: &DiffReport) -> String {
    share::link_payload(base, head, report, LinkOptions { cap: share::MAX_LINK_CHARS, redact: false }).0
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
