//! Files dragged over and dropped anywhere on the page.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::DragEvent;
use yew::prelude::*;

use crate::browser;
use crate::state::Action;

/// Shows the drop overlay while files are dragged over the page ([`Action::Drag`], through
/// `dispatch`) and hands the files dropped outside the panes to `load` (the page's loader, which
/// lets the engine assign the sides). Hooks sit below the components: they take callbacks, not
/// the components' context.
#[hook]
pub fn use_file_drop(dispatch: Callback<Action>, load: Callback<Vec<web_sys::File>>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let opts = EventListenerOptions::enable_prevent_default();
        let c = dispatch.clone();
        let over = EventListener::new_with_options(&window, "dragover", opts, move |e| {
            let e: &DragEvent = e.unchecked_ref();
            if browser::drag_has_files(e) {
                e.prevent_default();
                c.emit(Action::Drag(true));
            }
        });
        let c = dispatch.clone();
        let leave = EventListener::new(&window, "dragleave", move |e| {
            let e: &DragEvent = e.unchecked_ref();
            if e.related_target().is_none() {
                c.emit(Action::Drag(false));
            }
        });
        let drop_files = EventListener::new_with_options(&window, "drop", opts, move |e| {
            let e: &DragEvent = e.unchecked_ref();
            e.prevent_default();
            dispatch.emit(Action::Drag(false));
            load.emit(browser::dropped_files(e));
        });
        move || drop([over, leave, drop_files])
    });
}
