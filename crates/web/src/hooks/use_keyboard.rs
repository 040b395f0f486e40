//! The keyboard shortcuts (`j`/`k`, `/`, `?`, `Escape`, `1`–`3`), page-wide.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::browser;
use crate::route::Tab;
use crate::state::Action;

/// Turns shortcut keys pressed anywhere on the page (outside text fields) into actions.
#[hook]
pub fn use_keyboard(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let listener = EventListener::new_with_options(&window, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
            let e: &KeyboardEvent = e.unchecked_ref();
            on_key(&dispatch, e);
        });
        move || drop(listener)
    });
}

fn on_key(dispatch: &Callback<Action>, e: &KeyboardEvent) {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    let key = e.key();
    if browser::from_text_field(e) {
        if key == "Escape" {
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.blur();
            }
        }
        return;
    }
    let action = match key.as_str() {
        "j" => Action::Step(1),
        "k" => Action::Step(-1),
        "/" => Action::FocusSearch,
        "?" => Action::ToggleHelp,
        "Escape" => Action::Escape,
        "1" => Action::SelectTab(Tab::Overview),
        "2" => Action::SelectTab(Tab::Functions),
        "3" => Action::SelectTab(Tab::Stats),
        _ => return,
    };
    e.prevent_default();
    dispatch.emit(action);
}
