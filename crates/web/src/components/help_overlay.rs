//! Keyboard shortcuts and a short legend (`?`).

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::Ctx;
use crate::view_model::ChangeKind;
use crate::state::Action;

/// The help dialog.
#[function_component(HelpOverlay)]
pub fn help_overlay() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let dialog = use_node_ref();
    crate::hooks::use_dialog_focus(dialog.clone());
    let close = ctx.dispatch.reform(|_| Action::ToggleHelp);
    let keys = [
        ("j / k", "next / previous changed function"),
        ("/", "search functions"),
        ("1 2 3", "overview, functions, stats"),
        ("?", "this help"),
        ("Esc", "close dialogs, leave the search box, close the function view"),
        ("Tab, Enter", "move between and open rows, chips, folds and links"),
    ];
    html! {
        <div class="modal-backdrop" onclick={close.clone()}>
            <div class="modal" role="dialog" aria-modal="true" aria-label="help" ref={dialog} onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <div class="modal-head"><h2>{"Keyboard and legend"}</h2>
                    <button class="icon-btn" onclick={close} title="close (Esc)">{"✕"}</button></div>
                <table class="keys-table">
                    { for keys.iter().map(|(k, v)| html! { <tr><td><kbd>{*k}</kbd></td><td>{*v}</td></tr> }) }
                </table>
                <h3>{"Site classes"}</h3>
                <table class="legend">
                    { for ChangeKind::ALL.iter().map(|c| html! {
                        <tr><td><ClassBadge class={*c} /></td><td>{c.describe()}</td></tr>
                    }) }
                </table>
                <p class="muted">{"Counters are shown as value·backoff; hover one for its meaning. \
                    Drop files anywhere; nothing leaves this tab."}</p>
            </div>
        </div>
    }
}
