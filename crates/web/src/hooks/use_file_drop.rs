//! Files dragged over and dropped anywhere on the page.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::DragEvent;
use yew::prelude::*;

use crate::browser;
use crate::components::Ctx;
use crate::state::Action;

/// Shows the drop overlay while files are dragged over the page ([`Action::Drag`]) and loads
/// the files dropped outside the panes (sides assigned by the engine).
#[hook]
pub fn use_file_drop(ctx: Ctx) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let opts = EventListenerOptions::enable_prevent_default();
        let c = ctx.clone();
        let over = EventListener::new_with_options(&window, "dragover", opts, move |e| {
            let e: &DragEvent = e.unchecked_ref();
            if browser::drag_has_files(e) {
                e.prevent_default();
                c.dispatch.emit(Action::Drag(true));
            }
        });
        let c = ctx.clone();
        let leave = EventListener::new(&window, "dragleave", move |e| {
            let e: &DragEvent = e.unchecked_ref();
            if e.related_target().is_none() {
                c.dispatch.emit(Action::Drag(false));
            }
        });
        let drop_files = EventListener::new_with_options(&window, "drop", opts, move |e| {
            let e: &DragEvent = e.unchecked_ref();
            e.prevent_default();
            ctx.dispatch.emit(Action::Drag(false));
            ctx.load(None, browser::dropped_files(e));
        });
        move || drop([over, leave, drop_files])
    });
}
