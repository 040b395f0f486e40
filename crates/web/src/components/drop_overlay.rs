//! The hint shown while files are dragged over the page.

use yew::prelude::*;

/// Full-page drop hint.
#[function_component(DropOverlay)]
pub fn drop_overlay() -> Html {
    html! {
        <div class="drop-overlay" aria-hidden="true">
            <div class="drop-box">
                <div class="drop-title">{"Drop dumps to compare"}</div>
                <div class="drop-sub">{"two dumps: base and head (by name, else by start time) · one dump: the next free side · pystats .txt files: one run"}</div>
                <div class="drop-sub">{"or drop on the base / head pane to choose the side"}</div>
            </div>
        </div>
    }
}
