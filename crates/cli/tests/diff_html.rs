//! `specdiff diff --format html`: the viewer page with the diff inside (the share payload, or
//! whole dumps with `--full`), and the one-line error of a specdiff built without the viewer.

mod common;

use common::diff_demo::*;
use common::*;
use serde_json::Value;

/// The one-line error of `view` and `--format html` in a specdiff built without the viewer.
const NOT_BUILT: &str = "built without the web viewer: run ./scripts/build-web.sh, then rebuild";

/// `--format html`: the viewer page with the diff inside — by default the share payload of the
/// changed functions (every function whose specialization changed is in it), with `--full`
/// both dumps whole as gzip `data:` URLs; the page's built-in demo pair is gone. Built without
/// the viewer: one line saying how to get it. (The page itself is opened in Chromium by
/// tests/e2e/view.mjs.)
#[test]
fn html_report_carries_the_diff() {
    let d = &demos()[0];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.html");
    let args = ["--format", "html", "-o", p(&out), p(&d.base), p(&d.head)];
    assert_bad(&["--full", p(&d.base), p(&d.head)], &["--full is for --format html"]);
    if option_env!("SPECDIFF_VIEWER_EMBEDDED").is_none() {
        assert_bad(&args, &[NOT_BUILT]);
        assert!(!out.exists());
        return;
    }
    let o = diff(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.contains("globalThis.specdiffDemo = undefined;"), "{}", &html[..200]);
    // No hosted viewer given: the page is told so (its share box then says its links open
    // only on this machine); with --link, its share links use that address.
    assert!(html.contains("globalThis.specdiffPage={viewer:null};"));
    let linked = dir.path().join("linked.html");
    let o = diff(&["--format", "html", "--link", "https://o.github.io/r/#x", "-o", p(&linked), p(&d.base), p(&d.head)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&linked).unwrap().contains("globalThis.specdiffPage={viewer:\"https://o.github.io/r/\"};"));
    let start = html.find("'#share=").expect("the share payload is in the page") + "'#share=".len();
    let payload = &html[start..start + html[start..].find('\'').unwrap()];
    let shared = specdiff_core::share::decode(payload, specdiff_core::ReadLimits::default()).unwrap();
    let (base, head) = (read(&d.base), read(&d.head));
    assert!(shared.note.reduced);
    assert_eq!((shared.note.base_code_total, shared.note.head_code_total), (base.code.len(), head.code.len()));
    let (sb, sh) = (shared.base.unwrap(), shared.head.unwrap());
    let r = json_report(&[p(&d.base), p(&d.head)], 0);
    let specialization_changed = |f: &&Value| {
        f["counts"].as_object().unwrap().iter().any(|(k, n)| !["unchanged", "added", "removed"].contains(&k.as_str()) && n.as_u64() > Some(0))
    };
    let changed: Vec<&str> = r["functions"].as_array().unwrap().iter().filter(specialization_changed).map(|f| f["qualname"].as_str().unwrap()).collect();
    assert!(changed.contains(&"dot_sum"), "{changed:?}");
    for q in &changed {
        for (name, dump) in [("base", &sb), ("head", &sh)] {
            assert!(dump.code.iter().any(|c| dump.str(c.qualname) == *q), "{q} not in the report's {name}");
        }
    }
    assert!(sb.code.len() < base.code.len() && sh.code.len() < head.code.len());

    let o = diff(&[&["--full"][..], &args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(!html.contains("'#share="));
    let urls: Vec<&str> = html.split("\"data:application/gzip;base64,").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
    assert_eq!(urls.len(), 2);
    for (b64, (path, want)) in urls.iter().zip([(&d.base, &base), (&d.head, &head)]) {
        let url_safe: String = b64.trim_end_matches('=').chars().map(|c| match c { '+' => '-', '/' => '_', c => c }).collect();
        let gz = specdiff_core::share::base64url_decode(&url_safe).unwrap();
        let got = specdiff_core::read_dump("inside", &gz, specdiff_core::ReadLimits::default()).unwrap();
        assert!(got == *want, "{}: the dump inside the report differs", path.display());
    }
}
