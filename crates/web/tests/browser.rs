//! Component tests in a real browser (headless Chromium through chromedriver):
//! `cargo test -p specdiff-web --target wasm32-unknown-unknown` (see .cargo/config.toml and
//! crates/web/webdriver.json; scripts/e2e.sh runs them).
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gloo::timers::future::sleep;
use specdiff_web::bridge::Bridge;
use specdiff_web::components::app::App;
use specdiff_web::components::function_list::{FunctionList, ROW_HEIGHT};
use specdiff_web::components::function_view::{FunctionView, FunctionViewProps};
use specdiff_web::components::Ctx;
use specdiff_web::view_model::*;
use specdiff_web::protocol::{Request, Response};
use specdiff_web::state::{Action, Filter, Shared};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{DataTransfer, DragEvent, DragEventInit, Element, File, KeyboardEvent, KeyboardEventInit};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Real dumps made by the harness from examples/demo (base.py and head.py, 300 rounds).
const BASE: &str = include_str!("../../../www/demo/base.json");
const HEAD: &str = include_str!("../../../www/demo/head.json");

fn document() -> web_sys::Document {
    gloo::utils::document()
}

const STYLE: &str = include_str!("../../../www/style.css");

/// A fresh mount point, with the viewer's style sheet and an empty URL hash.
fn new_root() -> Element {
    if document().get_element_by_id("specdiff-style").is_none() {
        let style = document().create_element("style").unwrap();
        style.set_id("specdiff-style");
        style.set_text_content(Some(STYLE));
        document().head().unwrap().append_child(&style).unwrap();
    }
    let w = gloo::utils::window();
    let path = w.location().pathname().unwrap();
    w.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path)).unwrap();
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    root
}

fn file(name: &str, text: &str) -> File {
    let parts = js_sys::Array::of1(&text.into());
    File::new_with_str_sequence(&parts, name).unwrap()
}

/// Dispatches a real `drop` event carrying `files` on `target` (it bubbles, as a user's does).
fn drop_files(target: &web_sys::EventTarget, files: &[File]) {
    let dt = DataTransfer::new().unwrap();
    for f in files {
        dt.items().add_with_file(f).unwrap();
    }
    let init = DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&dt));
    let e = DragEvent::new_with_event_init_dict("drop", &init).unwrap();
    target.dispatch_event(&e).unwrap();
}

fn press(key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let e = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().body().unwrap().dispatch_event(&e).unwrap();
}

/// Waits (up to 10 s) for `selector` under `root` to exist and satisfy `ok`.
async fn wait_for(root: &Element, selector: &str, ok: impl Fn(&Element) -> bool) -> Element {
    for _ in 0..500 {
        if let Some(el) = root.query_selector(selector).unwrap() {
            if ok(&el) {
                return el;
            }
        }
        sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {selector}; page: {}", root.inner_html().chars().take(3000).collect::<String>());
}

fn text(el: &Element) -> String {
    el.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn dropping_two_real_dumps_shows_the_diff_and_keyboard_navigation_works() {
    let root = new_root();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    for _ in 0..500 {
        if document().body().unwrap().has_attribute("data-engine") {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }

    // Head first: the viewer puts "base"/"head" by name, whatever the drop order.
    drop_files(&root, &[file("head.json", HEAD), file("base.json", BASE)]);
    wait_for(&root, ".side-base .side-file", |e| text(e) == "base.json").await;
    wait_for(&root, ".side-head .side-file", |e| text(e) == "head.json").await;
    let facts = wait_for(&root, ".side-head .side-facts", |e| text(e).contains("CPython 3.")).await;
    assert!(text(&facts).contains("examples/demo/head.py"), "{}", text(&facts));

    // Overview: the regressed functions, ranked, with their class.
    let top = wait_for(&root, ".top-list", |e| text(e).contains("dot_sum")).await;
    assert!(text(&top).contains("total_area"));
    assert!(top.query_selector(".badge.c-lost").unwrap().is_some());
    assert!(root.query_selector(".family-chart .fam[data-family=LOAD_ATTR]").unwrap().is_some());

    // j: the first change, opened with both sides aligned.
    press("j");
    let view = wait_for(&root, ".fview[data-key]", |_| true).await;
    let first = view.get_attribute("data-key").unwrap();
    wait_for(&root, "tr.insrow[data-class=lost]", |_| true).await;
    press("j");
    wait_for(&root, ".fview[data-key]", |e| e.get_attribute("data-key").as_deref() != Some(first.as_str())).await;
    press("k");
    wait_for(&root, ".fview[data-key]", |e| e.get_attribute("data-key").as_deref() == Some(first.as_str())).await;
    assert!(gloo::utils::window().location().hash().unwrap().contains("fn="), "the selection is in the URL");

    // dot_sum: LOAD_ATTR_SLOT lost to getattr(), explained inline.
    let row = wait_for(&root, ".frow[data-key='__main__:dot_sum']", |_| true).await;
    row.unchecked_ref::<web_sys::HtmlElement>().click();
    let lost = wait_for(&root, ".fview[data-key='__main__:dot_sum'] tr.insrow[data-class=lost]", |_| true).await;
    assert!(text(&lost).contains("LOAD_ATTR_SLOT"), "{}", text(&lost));
    let explain = wait_for(&root, ".fview tr.explain-row.c-lost", |_| true).await;
    assert!(text(&explain).contains("getattr"), "{}", text(&explain));

    // `/` focuses the search box.
    press("/");
    wait_for(&root, "input.search", |e| document().active_element().as_ref() == Some(e)).await;
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn a_bad_file_gets_the_reader_message_and_the_other_side_stays() {
    let root = new_root();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    wait_for(&root, ".side-head", |_| true).await;
    let base_card = wait_for(&root, ".side-card.side-base", |_| true).await;
    drop_files(&base_card, &[file("base.json", BASE)]);
    wait_for(&root, ".side-base .side-file", |e| text(e) == "base.json").await;
    // Coverage of one run.
    wait_for(&root, ".metrics", |e| text(e).contains("specialized share")).await;

    let head_card = root.query_selector(".side-card.side-head").unwrap().unwrap();
    drop_files(&head_card, &[file("broken.json", "{\"format\": \"specdiff-dump\", \"version\": 1")]);
    let err = wait_for(&root, ".side-head .side-error", |_| true).await;
    assert_eq!(text(&err), "broken.json: truncated: the JSON ends early (line 1)");
    assert_eq!(text(&root.query_selector(".side-base .side-file").unwrap().unwrap()), "base.json");

    drop_files(&head_card, &[file("notes.txt", "hello world\n")]);
    let err = wait_for(&root, ".side-head .side-error", |e| text(e).starts_with("notes.txt")).await;
    assert!(text(&err).contains("pystats"), "{}", text(&err));
    app.destroy();
    root.remove();
}

/// A share link of the demo pair made by the core's `share::encode` (flate2's DEFLATE).
const CORE_LINK: &str = include_str!("fixtures/demo-core.link");

/// A dump written gzip-compressed by `specdiff dump` (a core test fixture).
const GZ_BASE: &[u8] = include_bytes!("../../core/tests/fixtures/dumps/demo-base-3.12.json.gz");

fn bytes_file(name: &str, bytes: &[u8]) -> File {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    File::new_with_u8_array_sequence(&parts, name).unwrap()
}

/// Sends `request` (with `files`) to an engine on this thread, through the bridge's reading,
/// inflating and deflating; returns every response up to the summary or failure.
async fn ask(bridge_files: Vec<File>, request: Request) -> Vec<Response> {
    let got = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    let bridge = Bridge::local(Callback::from(move |r: Response| sink.borrow_mut().push(r)));
    bridge.send(request, bridge_files);
    for _ in 0..500 {
        let done = got.borrow().iter().any(|r| {
            matches!(r, Response::Summary(_) | Response::ShareLink { .. } | Response::Failed { side: None, .. })
        });
        if done {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }
    got.take()
}

fn failure(responses: &[Response]) -> Option<String> {
    responses.iter().find_map(|r| match r {
        Response::Failed { message, .. } => Some(message.clone()),
        _ => None,
    })
}

#[wasm_bindgen_test]
async fn gzip_dumps_are_inflated_by_the_browser_and_bad_ones_named() {
    // The core's gzip reader is not in the wasm: the bridge inflates with DecompressionStream.
    let load = Request::Load { side: Some(Side::Base) };
    let v = ask(vec![bytes_file("base.json.gz", GZ_BASE)], load.clone()).await;
    assert_eq!(failure(&v), None);
    let info = v.iter().find_map(|r| match r {
        Response::Loaded { info, .. } => Some(info.clone()),
        _ => None,
    });
    assert!(info.as_ref().is_some_and(|i| i.python.starts_with("CPython 3.12") && i.code_objects > 0), "{info:?}");

    let v = ask(vec![bytes_file("cut.json.gz", &GZ_BASE[..GZ_BASE.len() / 2])], load.clone()).await;
    assert_eq!(failure(&v).as_deref(), Some("cut.json.gz: truncated: the gzip stream ends early"));

    let mut corrupt = GZ_BASE.to_vec();
    corrupt[GZ_BASE.len() - 8] ^= 0xff; // the CRC-32 of the trailer
    let v = ask(vec![bytes_file("bad.json.gz", &corrupt)], load).await;
    let message = failure(&v).unwrap_or_default();
    assert!(message.starts_with("bad.json.gz: not a specdiff dump: corrupt gzip data ("), "{message}");
}

#[wasm_bindgen_test]
async fn share_links_are_deflated_and_inflated_by_the_browser() {
    // Made with CompressionStream, opened with DecompressionStream; a link made by the core's
    // flate2 (any other DEFLATE) opens too.
    let got = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    let bridge = Bridge::local(Callback::from(move |r: Response| sink.borrow_mut().push(r)));
    bridge.send(Request::Load { side: None }, vec![file("base.json", BASE), file("head.json", HEAD)]);
    bridge.send(Request::Share { focus: None, redact: false }, vec![]);
    let mut link = None;
    for _ in 0..500 {
        link = got.borrow().iter().find_map(|r| match r {
            Response::ShareLink { payload, .. } => Some(payload.clone()),
            _ => None,
        });
        if link.is_some() {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }
    let link = link.expect("a share link");
    assert!(link.starts_with("s4."), "{link}");
    for payload in [link.clone(), CORE_LINK.trim().to_string()] {
        let v = ask(vec![], Request::OpenShare { payload }).await;
        assert_eq!(failure(&v), None);
        assert!(v.iter().any(|r| matches!(r, Response::Summary(s) if s.mode == Mode::Diff)));
    }
    let v = ask(vec![], Request::OpenShare { payload: link[..link.len() / 2].to_string() }).await;
    assert_eq!(failure(&v).as_deref(), Some("share link: truncated: the link ends early (was it cut when copied?)"));
}

fn ins(op: &str, specialized: bool, counter: &str) -> Ins {
    Ins {
        offset: 10,
        op: op.into(),
        family: "LOAD_ATTR".into(),
        arg: "x".into(),
        specialized,
        site: true,
        counter: Some(counter.into()),
        tip: Some(format!("{counter}: plain words")),
        churn: None,
    }
}

#[wasm_bindgen_test]
async fn every_classification_is_rendered_with_its_colour_badge_and_explanation() {
    let rows: Vec<DetailRow> = std::iter::once(DetailRow::Source { line: 3, text: "    return p.x".into(), samples: [2, 1] })
        .chain(ChangeKind::ALL.iter().map(|&c| DetailRow::Ins {
            base: (c != ChangeKind::Added).then(|| ins("LOAD_ATTR_SLOT", true, "0 miss")),
            head: (c != ChangeKind::Removed).then(|| ins("LOAD_ATTR", false, "3 fail")),
            class: Some(c),
            explain: Some(format!("because {}", c.name())),
        }))
        .chain(std::iter::once(DetailRow::Fold { rows: vec![DetailRow::Ins { base: None, head: None, class: None, explain: None }] }))
        .collect();
    let detail = FunctionDetail {
        key: "m:f".into(),
        title: "f".into(),
        locations: [Some("m.py:1".into()), Some("m.py:2".into())],
        kind: "function".into(),
        mode: Mode::Diff,
        explanations: vec!["1 regression".into()],
        counts: ChangeKind::ALL.iter().map(|&c| (c, 1)).collect(),
        status: ChangeKind::Lost,
        rows,
        traces: vec![],
    };
    let root = new_root();
    let app = yew::Renderer::<ViewHost>::with_root_and_props(root.clone(), ViewHostProps { detail: Shared::new(detail) }).render();
    wait_for(&root, ".fview", |_| true).await;
    for c in ChangeKind::ALL {
        let tr = wait_for(&root, &format!("tr.insrow[data-class={}]", c.name()), |_| true).await;
        if c == ChangeKind::Unchanged {
            assert!(!tr.class_name().contains("marked"), "unchanged rows are not coloured");
            continue;
        }
        assert!(tr.class_name().contains(&format!("c-{}", c.name())), "{}", tr.class_name());
        let badge = tr.query_selector(".badge").unwrap().expect("a badge");
        assert_eq!(text(&badge), c.label());
        assert!(badge.get_attribute("title").unwrap().contains(c.describe()));
        let explain = tr.next_element_sibling().unwrap();
        assert_eq!(text(&explain), format!("↳ because {}", c.name()));
    }
    // One side missing is drawn as an empty cell; counters carry their words.
    assert!(root.query_selector("tr.insrow[data-class=added] td.none").unwrap().is_some());
    let ctr = root.query_selector("tr.insrow[data-class=lost] .counter").unwrap().unwrap();
    assert_eq!(ctr.get_attribute("title").as_deref(), Some("0 miss: plain words"));
    // Every changed site has a link button; the fold opens on click (of its button).
    assert_eq!(root.query_selector_all("tr.insrow.marked button.site-link").unwrap().length(), ChangeKind::ALL.len() as u32 - 1);
    let fold = root.query_selector("tr.fold button").unwrap().unwrap();
    fold.unchecked_ref::<web_sys::HtmlElement>().click();
    for _ in 0..50 {
        if root.query_selector("tr.fold").unwrap().is_none() {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }
    assert!(root.query_selector("tr.fold").unwrap().is_none());
    app.destroy();
    root.remove();
}

#[derive(Properties, PartialEq)]
struct ViewHostProps {
    detail: Shared<FunctionDetail>,
}

/// A function view whose folds open as the page's reducer opens them (`Action::Unfold`).
#[function_component(ViewHost)]
fn view_host(props: &ViewHostProps) -> Html {
    let open = use_state(Vec::<u32>::new);
    let ctx = {
        let open = open.clone();
        let dispatch = Callback::from(move |a: Action| {
            if let Action::Unfold(i) = a {
                open.set([(*open).clone(), vec![i]].concat());
            }
        });
        Ctx { bridge: Bridge::local(Callback::from(|_| {})), dispatch }
    };
    let props = FunctionViewProps { detail: Some(props.detail.clone()), selected: Some("m:f".into()), row: None, open: (*open).clone(), site: None };
    html! {
        <ContextProvider<Ctx> context={ctx}>
            <FunctionView ..props />
        </ContextProvider<Ctx>>
    }
}

#[derive(Properties, PartialEq)]
struct ListHostProps {
    summary: Shared<Summary>,
}

#[function_component(ListHost)]
fn list_host(props: &ListHostProps) -> Html {
    let ctx = use_memo((), |_| {
        let dispatch = Callback::from(|_| {});
        Ctx { bridge: Bridge::local(Callback::from(|_| {})), dispatch }
    });
    html! {
        <ContextProvider<Ctx> context={(*ctx).clone()}>
            <div style="height:600px;display:flex">
                <FunctionList summary={props.summary.clone()} filter={Filter::default()} selected={None::<String>} focus_search={0} focus_row={None::<(u32, String)>} />
            </div>
        </ContextProvider<Ctx>>
    }
}

#[wasm_bindgen_test]
async fn ten_thousand_functions_are_virtualized() {
    let mut s = Summary::empty();
    s.mode = Mode::Single(Side::Base);
    s.rows = (0..10_000)
        .map(|i| FunctionRow {
            key: format!("m:f{i}"),
            qualname: format!("f{i}"),
            module: "m".into(),
            location: format!("m.py:{i}"),
            kind: "function".into(),
            hot: 0.0,
            hot_interval: None,
            before: Some(Share { specialized: 1, sites: 2 }),
            after: None,
            counts: vec![],
            status: ChangeKind::Unchanged,
            score: 0.0,
            ops: vec![],
        })
        .collect();
    let root = new_root();
    let app = yew::Renderer::<ListHost>::with_root_and_props(root.clone(), ListHostProps { summary: Shared::new(s) }).render();
    wait_for(&root, ".frow", |_| true).await;
    let n = root.query_selector_all(".frow").unwrap().length();
    assert!(n > 10 && n < 120, "{n} rows in the DOM");
    let count = root.query_selector(".flist-count").unwrap().unwrap();
    assert!(text(&count).contains("10,000 of 10,000"), "{}", text(&count));
    // Scrolling to the end renders the last rows.
    let list = root.query_selector(".vlist").unwrap().unwrap();
    list.set_scroll_top((ROW_HEIGHT * 10_000.0) as i32);
    list.dispatch_event(&web_sys::Event::new("scroll").unwrap()).unwrap();
    wait_for(&root, ".frow[data-key='m:f9999']", |_| true).await;
    app.destroy();
    root.remove();
}

/// A raw DEFLATE stream that inflates to `matches` × 258 + 1 zero bytes (one fixed-Huffman
/// block: a literal 0, then copies of length 258 at distance 1), ~13 bits per 258 bytes.
fn deflate_bomb(matches: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut n) = (0u32, 0u32);
    // Huffman codes go most significant bit first into an LSB-first bit stream.
    let mut code = |value: u32, len: u32, out: &mut Vec<u8>| {
        for i in (0..len).rev() {
            acc |= ((value >> i) & 1) << n;
            n += 1;
            if n == 8 {
                out.push(acc as u8);
                (acc, n) = (0, 0);
            }
        }
    };
    code(1, 1, &mut out); // BFINAL
    code(0b10, 2, &mut out); // BTYPE 01 (fixed), written LSB first
    code(0x30, 8, &mut out); // literal 0
    for _ in 0..matches {
        code(0xC5, 8, &mut out); // length 258 (code 285)
        code(0, 5, &mut out); // distance 1 (code 0)
    }
    code(0, 7, &mut out); // end of block
    code(0, 7, &mut out); // flush the last byte
    out
}

#[wasm_bindgen_test]
async fn a_deflate_bomb_link_stops_at_the_body_limit_in_the_browser() {
    // ~480 KB of DEFLATE that would inflate to 77 MB: the browser's inflater stops at the
    // link body limit (64 MB) and the page says so in one line.
    let link = specdiff_core::share::pack(&deflate_bomb(300_000));
    assert!(link.len() < specdiff_core::share::MAX_LINK_CHARS, "{}", link.len());
    let v = ask(vec![], Request::OpenShare { payload: link }).await;
    let message = failure(&v).unwrap_or_default();
    assert!(message.starts_with("share link: too large (") && !message.contains('\n'), "{message}");
}
