//! One diff tells one story: every count and hotness figure the CLI's text, markdown and JSON,
//! the HTML report and the page show is the core's [`View`] of the diff. For three pairs (the
//! demo, a real library's upgrade, and a cross-version diff with import-time regressions),
//! this compares the view with the CLI's outputs of the same dumps (the golden files
//! `crates/cli/tests/same_output.rs` keeps byte-identical to what `specdiff diff` writes), with
//! the page's summary of the two dumps, and with the page's summary of the HTML report's
//! payload (the share codec `specdiff diff --format html` embeds, opened as the page opens it).

use std::io::Read;
use std::path::Path;

use serde_json::Value;
use specdiff_core::report::wording::{count, grouped, inert, percent};
use specdiff_core::report::Hotness;
use specdiff_core::share::{self, LinkOptions};
use specdiff_core::view::{FunctionView, HotnessEstimate, View};
use specdiff_core::{diff_dumps, read_dump, DiffOptions, ReadLimits};

use crate::session::tests::{collect, session};
use crate::session::InputFile;
use crate::view_model::{Side, Summary};
use crate::protocol::{Request, Response};

/// The bytes of the core's fixture dump `name` (`demo-base-3.12`, …), inflated.
pub(super) fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/dumps").join(format!("{name}.json.gz"));
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_end(&mut json).unwrap();
    json
}

/// The CLI's golden output `name` (`demo-3.12.txt`, …).
pub(super) fn golden(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/golden").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Markdown as a reader sees it: without code-span backticks and backslash escapes.
pub(super) fn as_read(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut chars = markdown.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '`' => {}
            c => out.push(c),
        }
    }
    out
}

fn last_summary(v: Vec<Response>) -> Summary {
    v.into_iter()
        .rev()
        .find_map(|r| match r {
            Response::Summary(s) => Some(*s),
            _ => None,
        })
        .expect("a summary")
}

/// `12.0% (95% CI …)` as a function's facts say it in the text and the JSON; empty when unsampled.
fn interval(v: &FunctionView) -> String {
    v.hotness.map(|e| e.with_interval()).unwrap_or_default()
}

/// The page's counts and hotness figures, of the whole dumps or of an opened payload.
fn page_agrees(what: &str, page: &Summary, view: &View, every_function: bool) {
    let o = &view.overview;
    assert_eq!(page.overview.changed, o.changed_words(), "{what}: the Functions tab");
    let metric = |label: &str| page.overview.metrics.iter().find(|m| m.label == label).and_then(|m| m.delta.clone());
    assert_eq!(metric("regressions"), Some(o.regression_words()), "{what}");
    let functions = [o.matched, o.changed, o.added, o.removed].map(|n| grouped(n as u64));
    let functions = format!("{} matched · {} changed · {} added · {} removed", functions[0], functions[1], functions[2], functions[3]);
    assert_eq!(metric("functions"), Some(functions), "{what}");
    let mut found = 0;
    for v in &view.functions {
        let row = page.rows.iter().find(|r| r.module == inert(&v.module) && r.qualname == inert(&v.qualname));
        let Some(row) = row else {
            assert!(!every_function, "{what}: {}:{} has no row", v.module, v.qualname);
            continue;
        };
        found += 1;
        assert_eq!(row.hot, v.hotness.map_or(0.0, |e| e.share()), "{what}: {}:{}", v.module, v.qualname);
        // The row's tooltip: the figure with its interval, as the text and the JSON say it.
        if v.hotness.is_some() {
            assert_eq!(row.hot_words(), format!("{} of samples", interval(v)), "{what}: {}:{}", v.module, v.qualname);
        }
    }
    assert!(found > 0, "{what}: no function of the view is on the page");
    for item in &page.overview.top {
        let v = view.functions.iter().find(|v| inert(&v.qualname) == item.title).expect("a top item is a changed function");
        let hot = percent(v.hotness.map_or(0.0, |e| e.share()));
        assert!(item.detail.contains(&format!(" · {hot} of samples · ")), "{what}: {}", item.detail);
        assert!(item.detail.starts_with(&count(v.regressions as u64, "regression", "regressions")), "{what}: {}", item.detail);
    }
}

fn one_story(golden_name: &str, base_name: &str, head_name: &str) {
    let (base_json, head_json) = (fixture(base_name), fixture(head_name));
    let base = read_dump(base_name, &base_json, ReadLimits::default()).unwrap();
    let head = read_dump(head_name, &head_json, ReadLimits::default()).unwrap();
    let report = diff_dumps(&base, &head, &DiffOptions::default()).unwrap();
    let view = View::of(&report, None);
    let o = &view.overview;

    // JSON: the summary's counts and each function's, and the shares its hotness comes from.
    let json: Value = serde_json::from_str(&golden(&format!("{golden_name}.json"))).unwrap();
    let s = &json["summary"];
    let n = |v: &Value| v.as_u64().unwrap() as u32;
    assert_eq!(
        (n(&s["matched"]), n(&s["changed"]), n(&s["added"]), n(&s["removed"])),
        (o.matched, o.changed, o.added, o.removed),
        "{golden_name}.json"
    );
    assert_eq!((n(&s["regressions"]), n(&s["import_time_regressions"]), n(&s["counts"]["gained"])), (o.regressions, o.import_time_regressions, o.gains));
    let functions = json["functions"].as_array().unwrap();
    assert_eq!(functions.len(), view.functions.len(), "{golden_name}.json");
    let runs = (json["base"]["samples"].as_u64().unwrap(), json["head"]["samples"].as_u64().unwrap());
    // JSON's `view`: the overview as the core counts it, and each function's estimate.
    let shown_view = &json["view"];
    assert_eq!(shown_view["overview"], serde_json::to_value(o).unwrap(), "{golden_name}.json: view.overview");
    assert_eq!(o.specialization_changed as usize, share::wanted(&report).len(), "{golden_name}: what a link picks among");
    let estimates = shown_view["functions"].as_array().unwrap();
    assert_eq!(estimates.len(), view.functions.len(), "{golden_name}.json: view.functions");
    for (e, v) in estimates.iter().zip(&view.functions) {
        // As shown: serde_json's float parsing may differ from the printed value in the last bit.
        let h = &e["hotness"];
        let f = |k: &str| h[k].as_f64().unwrap();
        let shown = (!h.is_null()).then(|| HotnessEstimate { percent: f("percent"), low: f("low"), high: f("high"), samples: h["samples"].as_u64().unwrap() });
        assert_eq!(shown.map(|e| e.with_interval()), v.hotness.map(|e| e.with_interval()), "{golden_name}.json: {}", v.qualname);
        assert_eq!((e["qualname"].as_str(), n(&e["regressions"])), (Some(v.qualname.as_str()), v.regressions));
    }
    for (f, v) in functions.iter().zip(&view.functions) {
        let hotness: Hotness = serde_json::from_value(f["hotness"].clone()).unwrap();
        // As shown: the JSON's shares went through decimal text, so the last bit may differ.
        let shown = HotnessEstimate::of(runs, &hotness).map(|e| e.with_interval()).unwrap_or_default();
        assert_eq!(shown, interval(v), "{golden_name}.json: {}", v.qualname);
        assert_eq!(n(&f["regressions"]), v.regressions);
        assert_eq!(f["import_time"].as_bool().unwrap_or(false), v.import_time);
    }

    // Text: the headline, the counts, each function's hotness with its interval.
    let text = golden(&format!("{golden_name}.txt"));
    assert_eq!(text.lines().next(), Some(format!("specdiff diff: {}", o.headline()).as_str()));
    let counts = format!("changed of {} matched · {} only in head · {} only in base", o.matched, o.added, o.removed);
    assert!(text.contains(&format!("  functions          {} {counts}\n", o.changed)), "{golden_name}.txt");
    let regressions = if o.regressions == 0 { "none".to_string() } else { count(o.regressions as u64, "site", "sites") };
    assert!(text.contains(&format!("  regressions        {regressions}")), "{golden_name}.txt");
    for v in &view.functions {
        let name = format!("{}  ", inert(&format!("{}:{}", v.module, v.qualname)));
        let line = text.lines().find(|l| l.starts_with(&name)).unwrap_or_else(|| panic!("{golden_name}.txt: no {name}"));
        match v.hotness {
            Some(e) => assert!(line.contains(&format!(" · hot {} · ", e.with_interval())), "{line}"),
            None => assert!(!line.contains(" · hot "), "{line}"),
        }
    }

    // Markdown: the headline, the counts, the table's hotness and regressions.
    let md = as_read(&golden(&format!("{golden_name}.md")));
    assert!(md.starts_with(&format!("## specdiff: {}\n", o.headline())), "{golden_name}.md");
    let counts = format!("changed of {} matched, {} only in head, {} only in base", o.matched, o.added, o.removed);
    assert!(md.contains(&format!("**functions:** {} {counts}", o.changed)), "{golden_name}.md");
    let mut rows = 0;
    for v in &view.functions {
        let start = format!("| {}:{} |", v.module, v.qualname);
        if let Some(line) = md.lines().find(|l| l.starts_with(&start)) {
            let cells: Vec<&str> = line.split(" | ").collect();
            let hot = v.hotness.map(|e| percent(e.share())).unwrap_or_else(|| "–".into());
            assert_eq!((cells[1], cells[2]), (hot.as_str(), v.regressions.to_string().as_str()), "{golden_name}.md: {line}");
            rows += 1;
        }
    }
    assert!(rows > 0, "{golden_name}.md: no function row");

    // The page, of the two dumps.
    let mut page = session();
    collect(&mut page, Request::Load { side: Some(Side::Base) }, vec![InputFile::new(format!("{base_name}.json"), base_json)]);
    let whole = last_summary(collect(&mut page, Request::Load { side: Some(Side::Head) }, vec![InputFile::new(format!("{head_name}.json"), head_json)]));
    page_agrees(&format!("{golden_name}: the page"), &whole, &view, true);

    // The HTML report: its payload opened as the page opens it.
    let payload = share::link_payload(&base, &head, &report, LinkOptions { cap: share::MAX_LINK_CHARS, redact: false }).0;
    let opened = last_summary(collect(&mut session(), Request::OpenShare { payload }, vec![]));
    page_agrees(&format!("{golden_name}: the HTML report"), &opened, &view, false);
}

#[test]
fn the_demo_pair_tells_one_story() {
    one_story("demo-3.12", "demo-base-3.12", "demo-head-3.12");
}

#[test]
fn a_library_upgrade_tells_one_story() {
    one_story("pyparsing-3.12", "pyparsing-3.2.0-3.12", "pyparsing-3.2.3-3.12");
}

#[test]
fn import_time_code_is_counted_apart_alike() {
    one_story("import-only", "import-only-3.12", "import-only-3.13");
}
