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
    /// The link's address is the hosted viewer's (the CLI's `--link`), not this page's.
    pub hosted_viewer: bool,
    /// The link opens only on this machine (the page is a file or on a loopback server, and
    /// no hosted viewer's address was given).
    pub local_only: bool,
}

/// Shows the link and what it holds, copies it; a switch makes it again without source
/// text and with short paths.
#[function_component(ShareBox)]
pub fn share_box(props: &ShareBoxProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let dialog = use_node_ref();
    crate::hooks::use_dialog_focus(dialog.clone());
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
            <div class="modal share" role="dialog" aria-modal="true" aria-label="share link" ref={dialog} onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <div class="modal-head"><h2>{"Share link"}</h2>
                    <button class="icon-btn" onclick={close} title="close (Esc)">{"✕"}</button></div>
                <p class={classes!("share-where", if props.local_only { "warn" } else { "muted" })}>{ where_it_opens(props) }</p>
                <div class="share-row">
                    <input class="share-url" aria-label="share link" readonly=true value={props.url.clone()} onfocus={select} />
                    <button class="btn primary" onclick={copy} data-autofocus="true">{ if *copied { "copied" } else { "copy" } }</button>
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

/// Where the link opens, truthfully for the page's form.
fn where_it_opens(props: &ShareBoxProps) -> &'static str {
    if props.local_only {
        "This link opens only on this machine: this page was opened from a file or from a server on \
         this machine, and no hosted viewer was given. For a link others can open, give the hosted \
         viewer's address to specdiff diff --format html or specdiff view with --link \
         https://OWNER.github.io/REPO/ (or SPECDIFF_LINK_BASE), or share from the hosted viewer."
    } else if props.hosted_viewer {
        "The link opens the hosted viewer, with the runs inside it (compressed, after #): opening it \
         sends them nowhere."
    } else {
        "The runs travel inside the link (compressed, after #): opening it loads this viewer and \
         sends them nowhere."
    }
}
