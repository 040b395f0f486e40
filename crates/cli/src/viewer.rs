//! The web viewer inside the binary: the one-file page `scripts/build-web.sh` writes
//! (`dist/specdiff-offline.html`), embedded gzip-compressed by `build.rs` when it was built
//! before specdiff, and the two pages made of it — the HTML report of `diff --format html`
//! (the runs inside the file) and the page `specdiff view` serves (the runs fetched from it).
//!
//! The page is told which runs to open through what it already reads at start: the URL hash
//! (`#share=s1.…`, `specdiff_core::share`'s payload, as `--link` makes it; or `#demo`) and
//! `globalThis.specdiffDemo`, the URLs "load demo" fetches (`data:` URLs in the offline page).
//! A small inline script sets both before the app starts, and `globalThis.specdiffPage`:
//! that the CLI made the page (so its "load demo" would open these runs again and is not
//! offered) and the hosted viewer's address its share links use (`--link`, or
//! `SPECDIFF_LINK_BASE`), or null (the page then says its links open only on this machine).

use std::io::{Read, Write};

use specdiff_core::format::to_json;
use specdiff_core::{share, DiffReport, Dump};

use crate::link;

/// The page, gzip-compressed; empty when the viewer was not built before specdiff.
static PAGE_GZ: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/viewer.html.gz"));

/// The line of the offline page that lists its built-in demo pair (replaced by ours).
const DEMO_LINE: &str = "globalThis.specdiffDemo = ";

/// What to do when the viewer is not in this binary: one line.
pub const NOT_BUILT: &str = "this specdiff was built without the web viewer: run ./scripts/build-web.sh, then rebuild specdiff (cargo build --release -p specdiff-cli)";

/// The viewer page as built (with its demo pair), or [`NOT_BUILT`].
pub fn page() -> Result<String, String> {
    if PAGE_GZ.is_empty() {
        return Err(NOT_BUILT.to_string());
    }
    let mut html = String::new();
    flate2::read::GzDecoder::new(PAGE_GZ)
        .read_to_string(&mut html)
        .map_err(|e| format!("the embedded web viewer is damaged ({e}); rebuild specdiff"))?;
    if !html.contains(DEMO_LINE) {
        return Err("the embedded web viewer is not a page scripts/build-web.sh wrote; rebuild it and specdiff".into());
    }
    Ok(html)
}

/// How the page gets its runs.
pub enum Runs<'a> {
    /// A share payload (`s1.…`) opened from the hash.
    Share(&'a str),
    /// One or two URLs (base, head) fetched by "load demo" (`#demo`).
    Urls(&'a [String]),
}

/// `page` (from [`page`]) opening `runs` as soon as it starts; `fetch_own_origin`: let the page
/// fetch from the origin that serves it (its CSP allows no origin at all by default, as a
/// `file://` page must); `viewer`: the hosted viewer's address (checked by
/// [`crate::link::parse_base`]) its share links open on.
pub fn with_runs(page: &str, runs: Runs<'_>, fetch_own_origin: bool, viewer: Option<&str>) -> String {
    let (demo, key, hash) = match runs {
        Runs::Share(payload) => ("undefined".to_string(), "share", format!("share={payload}")),
        Runs::Urls(urls) => (
            serde_json::to_string(urls).expect("strings serialize"),
            "demo",
            "demo".to_string(),
        ),
    };
    let start = page
        .find(DEMO_LINE)
        .expect("page() checked the line is there")
        + DEMO_LINE.len();
    let end = start + page[start..].find('\n').unwrap_or(page.len() - start);
    let mut out = String::with_capacity(page.len() + hash.len() + 512);
    out.push_str(&page[..start]);
    out.push_str(&demo);
    out.push(';');
    out.push_str(&page[end..]);
    // Before the app's module script (module scripts run after the document is parsed): the
    // hash is the route the app starts with. Kept when the hash already opens these runs (a
    // reload after navigating keeps `&tab=…&fn=…`).
    // `parse_base` let no quote, `<` or `>` into the address: it cannot end the script.
    let viewer = serde_json::to_string(&viewer).expect("strings serialize");
    let script = format!(
        "<script>globalThis.specdiffPage={{viewer:{viewer}}};if(!/(^#|&)({key})(=|&|$)/.test(location.hash))history.replaceState(null,'','#{hash}'+(location.hash.length>1?'&'+location.hash.slice(1):''));</script>"
    );
    out = out.replacen("<body>", &format!("<body>{script}"), 1);
    if fetch_own_origin {
        out = out.replacen("connect-src ", "connect-src 'self' ", 1);
    }
    out
}

/// The HTML report of `diff --format html`: the page with the diff inside, for `file://`.
/// By default the changed functions only (the share payload `link::report_payload` makes;
/// the page says how many code objects it kept); `full`: both dumps whole, as gzip `data:` URLs
/// (no length limit, unlike a share payload in the hash).
/// `viewer`: the hosted viewer's address the page's share links use.
pub fn report(base: &Dump, head: &Dump, diff: &DiffReport, full: bool, viewer: Option<&str>) -> Result<String, String> {
    let page = page()?;
    Ok(if full {
        let urls = [base, head].map(|d| data_url(&gzip(&to_json(d))));
        with_runs(&page, Runs::Urls(&urls), false, viewer)
    } else {
        with_runs(
            &page,
            Runs::Share(&link::report_payload(base, head, diff)),
            false,
            viewer,
        )
    })
}

/// gzip at the default level: at `best` two whole-program dumps take seconds longer for a
/// few percent.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

/// A `data:` URL of `bytes` in standard base64 (what `data:` URLs take), from the core's
/// base64url.
fn data_url(bytes: &[u8]) -> String {
    let mut b64 = String::with_capacity(bytes.len() * 4 / 3 + 4);
    share::base64url_encode(bytes, &mut b64);
    let mut out: String = b64
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    format!("data:application/gzip;base64,{out}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAKE: &str = "<html><head><meta http-equiv=\"Content-Security-Policy\" content=\"connect-src blob: data:\"></head><body><script>\nglobalThis.specdiffDemo = [\"data:application/json;base64,AAA\", \"data:x;base64,BBB\"];\nrest();\n</script></body></html>";

    #[test]
    fn data_urls_are_standard_base64() {
        assert_eq!(data_url(&[0xfb, 0xff]), "data:application/gzip;base64,+/8=");
        assert_eq!(data_url(b"abc"), "data:application/gzip;base64,YWJj");
        assert_eq!(data_url(b"a"), "data:application/gzip;base64,YQ==");
    }

    #[test]
    fn runs_replace_the_demo_pair() {
        let share = with_runs(FAKE, Runs::Share("s1.abc"), false, None);
        assert!(
            share.contains("globalThis.specdiffDemo = undefined;\nrest();"),
            "{share}"
        );
        assert!(
            share.contains("'#share=s1.abc'")
                && !share.contains("AAA")
                && !share.contains("'self'"),
            "{share}"
        );
        let urls = vec![
            "dumps/base-a.json".to_string(),
            "dumps/head-b.json".to_string(),
        ];
        let view = with_runs(FAKE, Runs::Urls(&urls), true, Some("https://o.github.io/r/"));
        assert!(
            view.contains(
                "globalThis.specdiffDemo = [\"dumps/base-a.json\",\"dumps/head-b.json\"];"
            ),
            "{view}"
        );
        assert!(
            view.contains("connect-src 'self' blob: data:") && view.contains("'#demo'"),
            "{view}"
        );
        // The page knows the CLI made it, and where its share links open.
        assert!(
            view.contains("<script>globalThis.specdiffPage={viewer:\"https://o.github.io/r/\"};"),
            "{view}"
        );
        assert!(share.contains("globalThis.specdiffPage={viewer:null};"), "{share}");
    }
}
