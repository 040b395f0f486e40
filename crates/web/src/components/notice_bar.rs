//! Warnings about the loaded runs (e.g. CPython version mismatch) and one-off notices.

use yew::prelude::*;

use super::Ctx;
use crate::format::shown;
use crate::state::{Action, Notice};

/// Props of [`NoticeBar`].
#[derive(Properties, PartialEq)]
pub struct NoticeBarProps {
    /// A one-off message (dismissable).
    pub notice: Option<Notice>,
    /// Warnings about what is loaded.
    pub warnings: Vec<String>,
}

/// Messages across the top of the page.
#[function_component(NoticeBar)]
pub fn notice_bar(props: &NoticeBarProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let dismiss = ctx.dispatch.reform(|_| Action::DismissNotice);
    html! {
        <>
            if let Some(n) = &props.notice {
                <div class={classes!("notice", n.error.then_some("error"))} role="alert">
                    <span>{n.text.clone()}</span>
                    <button class="icon-btn small" onclick={dismiss} title="dismiss (Esc)">{"✕"}</button>
                </div>
            }
            { for props.warnings.iter().map(|w| html! { <div class="notice warning" role="status">{"⚠ "}{shown(w)}</div> }) }
        </>
    }
}
