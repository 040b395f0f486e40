//! `specdiff diff --link`: one link in every format (and from the environment), in the
//! core's share codec the viewer opens; `--link-cap` and `--redact`. On the demo pair dumped
//! under every interpreter present (`common/diff_demo.rs`).

mod common;

use common::diff_demo::*;
use common::*;
use serde_json::Value;

/// `--link` in every format (and from the environment) gives one link, in the core's share
/// codec (the one the viewer opens): both dumps, reduced as the viewer's button reduces them
/// to the functions whose specialization changed when whole they would not fit in a PR comment.
#[test]
fn link_in_every_format_carries_both_dumps() {
    let url = "http://127.0.0.1:9/specdiff/";
    for d in demos() {
        let args = ["--link", url, p(&d.base), p(&d.head)];
        let text = stdout(&diff(&args));
        let last = text.lines().last().unwrap();
        let link = last
            .strip_prefix("open in the viewer: ")
            .unwrap_or_else(|| panic!("last line: {last}"));
        assert_eq!(json_report(&args, 0)["link"], link, "{}", d.py.minor);
        let md = stdout(&diff(&[&["--format", "markdown"][..], &args].concat()));
        assert!(
            md.lines()
                .take(3)
                .any(|l| l == format!("**[open in the viewer]({link})**")),
            "{}",
            &md[..300]
        );
        let from_env = specdiff()
            .args(["diff", "--json", p(&d.base), p(&d.head)])
            .env("SPECDIFF_LINK_BASE", url)
            .output()
            .unwrap();
        assert_eq!(
            serde_json::from_slice::<Value>(&from_env.stdout).unwrap()["link"],
            link
        );
        let payload = link.strip_prefix(&format!("{url}#share=")).unwrap();
        let shared =
            specdiff_core::share::decode(payload, specdiff_core::ReadLimits::default()).unwrap();
        let (base, head) = (read(&d.base), read(&d.head));
        assert_eq!(
            (shared.note.base_code_total, shared.note.head_code_total),
            (base.code.len(), head.code.len())
        );
        let (sb, sh) = (shared.base.unwrap(), shared.head.unwrap());
        assert!(link.len() <= 61_000, "{} characters", link.len());
        if shared.note.reduced {
            assert!(sh.code.len() < head.code.len() && sb.code.len() < base.code.len());
            let r = json_report(&args, 0);
            let specialization_changed =
                |f: &&Value| f["counts"].as_object().unwrap().iter().any(|(k, n)| !["unchanged", "added", "removed"].contains(&k.as_str()) && n.as_u64() > Some(0));
            for f in r["functions"].as_array().unwrap().iter().filter(specialization_changed) {
                let q = f["qualname"].as_str().unwrap();
                for (name, dump) in [("base", &sb), ("head", &sh)] {
                    assert!(
                        dump.code.iter().any(|c| dump.str(c.qualname) == q),
                        "{q} not in the link's {name}"
                    );
                }
            }
        } else {
            // Whole, less what no view reads (cache words past the counter, columns).
            let whole = |d: &specdiff_core::Dump| specdiff_core::share::reduce(d, |_, _| true);
            assert_eq!((sb, sh), (whole(&base), whole(&head)));
        }
        // The sender's run-level numbers travel with the link, as the JSON report has them.
        let r = json_report(&args, 0);
        let sent = shared.note.summary.expect("version 2 links carry the summary");
        let json = |v: Result<Value, serde_json::Error>| v.unwrap();
        assert_eq!(json(serde_json::to_value(&sent.base)), r["base"]);
        assert_eq!(json(serde_json::to_value(&sent.head)), r["head"]);
        assert_eq!(json(serde_json::to_value(&sent.summary)), r["summary"]);
        assert_eq!(shared.note.left_out, 0);
    }
    let d = &demos()[0];
    assert!(
        json_report(&[p(&d.base), p(&d.head)], 0)
            .get("link")
            .is_none(),
        "no link without --link"
    );
    assert_bad(
        &["--link", "example.org/specdiff", p(&d.base), p(&d.head)],
        &["--link", "not an http"],
    );
}

/// `--link-cap`: past the cap the least important changed functions are left out, and the
/// text and markdown say how many (the number the link itself carries); `--redact` leaves
/// source text out of the link.
#[test]
fn link_cap_and_redact() {
    let url = "http://127.0.0.1:9/specdiff/";
    let d = &demos()[0];
    let payload_of = |text: &str| {
        let link = text.lines().last().unwrap().strip_prefix("open in the viewer: ").unwrap().to_string();
        let payload = link.strip_prefix(&format!("{url}#share=")).unwrap().to_string();
        (specdiff_core::share::decode(&payload, specdiff_core::ReadLimits::default()).unwrap(), payload.len())
    };
    let (whole, len) = payload_of(&stdout(&diff(&["--link", url, p(&d.base), p(&d.head)])));
    assert_eq!(whole.note.left_out, 0);
    // The largest cap (in tenths of the whole link) that leaves something out.
    let caps: Vec<String> = (1..10).rev().map(|tenths| (len * tenths / 10).to_string()).collect();
    let (args, text, capped, capped_len) = caps
        .iter()
        .map(|cap| {
            let args = ["--link", url, "--link-cap", cap.as_str(), p(&d.base), p(&d.head)];
            let text = stdout(&diff(&args));
            let (capped, capped_len) = payload_of(&text);
            assert!(capped_len <= cap.parse().unwrap(), "{capped_len} > {cap}");
            (args, text, capped, capped_len)
        })
        .find(|(_, _, c, _)| c.note.left_out > 0)
        .expect("some cap leaves a function out");
    let n = capped.note.left_out;
    assert!(capped_len < len && capped.head.unwrap().code.len() < read(&d.head).code.len(), "{n} left out, {capped_len} characters");
    let plural = if n == 1 { "" } else { "s" };
    assert!(text.contains(&format!("\nThe link leaves out {n} function{plural} whose specialization changed ")), "{text}");
    let md = stdout(&diff(&[&["--format", "markdown"][..], &args].concat()));
    assert!(md.contains(&format!("_The link leaves out {n} function{plural} whose specialization changed ")), "{}", &md[..600]);
    // Redacted: no source line, no directory in any path.
    let (redacted, _) = payload_of(&stdout(&diff(&["--link", url, "--redact", p(&d.base), p(&d.head)])));
    assert!(redacted.note.redacted);
    for dump in [redacted.base.unwrap(), redacted.head.unwrap()] {
        assert!(dump.files.iter().all(|f| f.source.is_empty() && !f.path.contains('/')), "{:?}", dump.files);
    }
}
