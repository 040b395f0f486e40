//! The share link dialog.

use yew::prelude::*;

use super::Ctx;
use crate::browser;
use crate::format::grouped;
use crate::state::Action;

/// Props of [`ShareBox`].
#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    /// The full link.
    pub url: String,
    /// Remark from the engine (reduction, size).
    pub note: Option<String>,
}

/// Shows the link, copies it.
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
                    <input class="share-url" readonly=true value={props.url.clone()} onfocus={select} />
                    <button class="btn primary" onclick={copy}>{ if *copied { "copied" } else { "copy" } }</button>
                </div>
                <p class="muted">{format!("{} characters", grouped(props.url.len() as u64))}
                    if let Some(n) = &props.note { {" · "}{n.clone()} }
                </p>
            </div>
        </div>
    }
}
