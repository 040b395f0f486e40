//! The page shows untrusted text inert (issue 31 item 10): opnames, families and explanations
//! that quote operands, carrying ESC, BEL, U+202E and U+2066, rendered by the real component in headless Chromium
//! (`cargo test -p specdiff-web --target wasm32-unknown-unknown --test hostile_page`).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use gloo::timers::future::sleep;
use specdiff_web::components::function_view::{FunctionView, FunctionViewProps};
use specdiff_web::model::*;
use specdiff_web::state::Shared;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const HOSTILE: &str = "\x1b[2J\x07\u{202e}txt\u{2066}";

fn ins(op: &str, arg: &str) -> Ins {
    Ins {
        offset: 10,
        op: op.into(),
        family: format!("FAM{HOSTILE}"),
        arg: arg.into(),
        specialized: false,
        site: true,
        counter: None,
        tip: None,
        churn: None,
    }
}

#[wasm_bindgen_test]
async fn hostile_opnames_and_explanations_are_shown_inert() {
    let rows = vec![DetailRow::Ins {
        base: Some(ins(&format!("LOAD{HOSTILE}"), "attr")),
        head: Some(ins("LOAD_ATTR", "x")),
        class: Some(ChangeKind::Lost),
        explain: Some(format!("the load `attr{HOSTILE}` lost")),
    }];
    let detail = FunctionDetail {
        key: "m:f".into(),
        title: "f".into(),
        locations: [Some("m.py:1".into()), None],
        kind: "function".into(),
        mode: Mode::Diff,
        explanations: vec![format!("cc {HOSTILE}")],
        counts: vec![(ChangeKind::Lost, 1)],
        status: ChangeKind::Lost,
        rows,
    };
    let root = gloo::utils::document().create_element("div").unwrap();
    gloo::utils::document().body().unwrap().append_child(&root).unwrap();
    let props = FunctionViewProps { detail: Some(Shared::new(detail)), selected: Some("m:f".into()), row: None };
    let app = yew::Renderer::<FunctionView>::with_root_and_props(root.clone(), props).render();
    for _ in 0..500 {
        if root.query_selector("tr.insrow").unwrap().is_some() {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }
    let html = root.inner_html();
    let raw = ['\x1b', '\x07', '\u{202e}', '\u{2066}'];
    assert!(!html.contains(raw), "a raw control or bidi character reaches the page");
    for shown in ["LOAD\\x1b[2J\\x07\\u202etxt\\u2066", "attr\\x1b[2J", "cc \\x1b[2J", "FAM\\x1b[2J"] {
        assert!(html.contains(shown), "{shown} is not shown in {}", html.chars().take(2000).collect::<String>());
    }
    app.destroy();
    root.remove();
}
