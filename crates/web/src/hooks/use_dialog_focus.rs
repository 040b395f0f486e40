//! A dialog's focus: taken when it opens (its `[data-autofocus]` control, else its first),
//! kept inside it while it is open (Tab and Shift+Tab go round its controls, not through the
//! dimmed page behind), and given back to what had it when it closes.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// What Tab can reach inside a dialog.
const FOCUSABLE: &str = "button:not([disabled]), input:not([disabled]), select, a[href], [tabindex]:not([tabindex='-1'])";

fn controls(root: &Element) -> Vec<HtmlElement> {
    let Ok(list) = root.query_selector_all(FOCUSABLE) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)?.dyn_into::<HtmlElement>().ok()).collect()
}

/// Moves the focus into the dialog rendered at `dialog` while the calling component is mounted.
#[hook]
pub fn use_dialog_focus(dialog: NodeRef) {
    use_effect_with((), move |_| {
        let doc = gloo::utils::document();
        let previous = doc.active_element().and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let Some(root) = dialog.cast::<Element>() {
            let first = root
                .query_selector("[data-autofocus]")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                .or_else(|| controls(&root).into_iter().next());
            if let Some(el) = first {
                let _ = el.focus();
            }
        }
        let trap = {
            let doc = doc.clone();
            EventListener::new_with_options(&doc.clone(), "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let e: &KeyboardEvent = e.unchecked_ref();
                if e.key() != "Tab" {
                    return;
                }
                let Some(root) = dialog.cast::<Element>() else { return };
                let items = controls(&root);
                let (Some(first), Some(last)) = (items.first(), items.last()) else { return };
                let active = doc.active_element();
                let inside = active.as_ref().is_some_and(|a| root.contains(Some(a)));
                let at = |el: &HtmlElement| active.as_ref().is_some_and(|a| a == el.unchecked_ref::<Element>());
                let target = match (e.shift_key(), inside) {
                    (true, false) => Some(last),
                    (false, false) => Some(first),
                    (true, true) if at(first) => Some(last),
                    (false, true) if at(last) => Some(first),
                    _ => None,
                };
                if let Some(el) = target {
                    e.prevent_default();
                    let _ = el.focus();
                }
            })
        };
        move || {
            drop(trap);
            if let Some(el) = previous.filter(|el| el.is_connected()) {
                let _ = el.focus();
            }
        }
    });
}
