//! The share link dialog.

use yew::prelude::*;

use super::Ctx;
use crate::browser;
use crate::format::grouped;
use crate::protocol::Request;
use crate::state::Action;

/// Props of [`ShareBox`].
#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    /// The full link.
    pub url: String,
    /// What the link holds, in the engine's words.
    pub note: Option<String>,
    /// True when the link carries no source text and short paths.
    pub redacted: bool,
    /// The function the link opens (asked for again when the switch changes).
    pub focus: Option<String>,
}

/// Shows the link and what it holds, copies it; a switch makes it again without source
/// text and with short paths.
#[function_component(ShareBox)]
pub fn share_box(props: &ShareBoxProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let copied = use_state(|| false);
    let close = ctx.dispatch.reform(|_| Action::CloseShare);
    let copy = {
        let url = props.url.clone();
        let copied = copied.clone();
        Callback::from(move |_| {
            browser::copy_text(&url);
            copied.set(true);
        })
    };
    let redact = {
        let (bridge, focus) = (ctx.bridge.clone(), props.focus.clone());
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            bridge.send(Request::Share { focus: focus.clone(), redact: on }, Vec::new());
        })
    };
    let select = Callback::from(|e: FocusEvent| {
        let el: web_sys::HtmlInputElement = e.target_unchecked_into();
        el.select();
    });
    html! {
        <div class="modal-backdrop" onclick={close.clone()}>
            <div class="modal share" role="dialog" aria-label="share link" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <div class="modal-head"><h2>{"Share link"}</h2>
                    <button class="icon-btn" onclick={close} title="close (Esc)">{"✕"}</button></div>
                <p class="muted">{"The runs travel inside the link (compressed, after #), so opening it needs no server and sends nothing anywhere."}</p>
                <div class="share-row">
                    <input class="share-url" aria-label="share link" readonly=true value={props.url.clone()} onfocus={select} />
                    <button class="btn primary" onclick={copy}>{ if *copied { "copied" } else { "copy" } }</button>
                </div>
                <p class="share-holds">{"The link holds "}{props.note.clone().unwrap_or_default()}
                    {format!(" · {} characters", grouped(props.url.len() as u64))}</p>
                <label class="share-redact">
                    <input type="checkbox" checked={props.redacted} onchange={redact} />
                    {" leave out source lines and shorten file paths (code, sites and numbers stay)"}
                </label>
            </div>
        </div>
    }
}
