//! The page shows untrusted text inert (issue 31 item 10): opnames, families, explanations
//! that quote operands, and JIT uop names, carrying ESC, BEL, U+202E and U+2066, rendered by the real component in headless Chromium
//! (`cargo test -p specdiff-web --target wasm32-unknown-unknown --test hostile_page`, run by
//! `scripts/e2e.sh`).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use gloo::timers::future::sleep;
use specdiff_web::bridge::Bridge;
use specdiff_web::components::function_view::{FunctionView, FunctionViewProps};
use specdiff_web::components::Ctx;
use specdiff_web::view_model::*;
use specdiff_web::state::Shared;
use wasm_bindgen_test::*;
use yew::prelude::*;

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
        traces: vec![TraceDetail {
            line: Some(3),
            sides: ["2 uops".into(), "1 uop".into()],
            change: Some("changed".into()),
            explanation: Some(format!("the trace changed at `why{HOSTILE}`")),
            rows: vec![
                TraceLine { base: Some((format!("_UOP{HOSTILE}"), Some(1))), head: Some((format!("_UOP{HOSTILE}"), Some(1))), same: true },
                TraceLine { base: Some((format!("_GONE{HOSTILE}"), None)), head: None, same: false },
            ],
        }],
    };
    let root = gloo::utils::document().create_element("div").unwrap();
    gloo::utils::document().body().unwrap().append_child(&root).unwrap();
    let app = yew::Renderer::<Host>::with_root_and_props(root.clone(), HostProps { detail: Shared::new(detail) }).render();
    for _ in 0..500 {
        if root.query_selector("tr.insrow").unwrap().is_some() {
            break;
        }
        sleep(Duration::from_millis(20)).await;
    }
    let html = root.inner_html();
    let raw = ['\x1b', '\x07', '\u{202e}', '\u{2066}'];
    assert!(!html.contains(raw), "a raw control or bidi character reaches the page");
    for shown in ["LOAD\\x1b[2J\\x07\\u202etxt\\u2066", "attr\\x1b[2J", "cc \\x1b[2J", "FAM\\x1b[2J", "_UOP\\x1b[2J", "_GONE\\x1b[2J", "why\\x1b[2J"] {
        assert!(html.contains(shown), "{shown} is not shown in {}", html.chars().take(2000).collect::<String>());
    }
    app.destroy();
    root.remove();
}

#[derive(Properties, PartialEq)]
struct HostProps {
    detail: Shared<FunctionDetail>,
}

/// The function view with the context the page gives it (nothing is dispatched here).
#[function_component(Host)]
fn host(props: &HostProps) -> Html {
    let ctx = Ctx { bridge: Bridge::local(Callback::from(|_| {})), dispatch: Callback::from(|_| {}) };
    let props = FunctionViewProps { detail: Some(props.detail.clone()), selected: Some("m:f".into()), row: None, open: vec![], site: None };
    html! {
        <ContextProvider<Ctx> context={ctx}>
            <FunctionView ..props />
        </ContextProvider<Ctx>>
    }
}
