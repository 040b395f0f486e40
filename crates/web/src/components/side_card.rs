//! One run's pane label (like Compiler Explorer's per-pane titles): file, CPython version,
//! command and date; a file picker; the side's error or progress. Files dropped on the card
//! go to this side.

use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use super::progress_bar::ProgressBar;
use super::Ctx;
use crate::browser;
use crate::format::{grouped, count, shown};
use crate::view_model::Side;
use crate::protocol::Request;
use crate::state::SideState;

/// Props of [`SideCard`].
#[derive(Properties, PartialEq)]
pub struct SideCardProps {
    /// Which side.
    pub side: Side,
    /// Its state.
    pub state: SideState,
}

/// A side's pane label and input.
#[function_component(SideCard)]
pub fn side_card(props: &SideCardProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let over = use_state(|| false);
    let input = use_node_ref();
    let side = props.side;

    let on_pick = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            let files = browser::files_of_list(el.files());
            ctx.load(Some(side), files);
            el.set_value("");
        })
    };
    let open = {
        let input = input.clone();
        Callback::from(move |_| {
            if let Some(el) = input.cast::<HtmlInputElement>() {
                el.click();
            }
        })
    };
    let clear = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.bridge.send(Request::Clear { side }, Vec::new()))
    };
    let on_drag_over = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            if browser::drag_has_files(&e) {
                e.prevent_default();
                over.set(true);
            }
        })
    };
    let on_drag_leave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let on_drop = {
        let over = over.clone();
        let ctx = ctx.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            e.stop_propagation();
            over.set(false);
            ctx.dispatch.emit(crate::state::Action::Drag(false));
            ctx.load(Some(side), browser::dropped_files(&e));
        })
    };

    let st = &props.state;
    let body = if let Some(info) = &st.info {
        let mut facts = vec![shown(&info.python)];
        if !info.command.is_empty() {
            facts.push(info.command.clone());
        }
        if !info.date.is_empty() {
            facts.push(info.date.clone());
        }
        if info.has_dump {
            facts.push(format!("{} code objects", grouped(info.code_objects as u64)));
        }
        if !info.stats_files.is_empty() {
            facts.push(format!("+{}", count(info.stats_files.len() as u64, "pystats file", "pystats files")));
        }
        let title = facts.join(" · ");
        html! {
            <>
                <div class="side-file" title={info.file.clone()}>{info.file.clone()}</div>
                <div class="side-facts" title={title.clone()}>{title}</div>
                if let Some(n) = &info.note { <div class="side-note">{n.clone()}</div> }
            </>
        }
    } else if st.progress.is_none() && st.error.is_none() {
        html! { <div class="side-empty">{format!("drop the {} dump here, or ", side.name())}
            <button class="link" onclick={open.clone()}>{"choose a file"}</button></div> }
    } else {
        html! {}
    };

    html! {
        <section
            class={classes!("side-card", format!("side-{}", side.name()), over.then_some("over"), st.error.is_some().then_some("has-error"))}
            ondragover={on_drag_over} ondragleave={on_drag_leave} ondrop={on_drop}
            aria-label={format!("{} run", side.name())}
            data-side={side.name()}
        >
            <div class="side-row">
                <span class={classes!("side-tag", side.name())}>{side.name()}</span>
                <div class="side-main">{body}</div>
                <div class="side-buttons">
                    <button class="btn small" title={format!("open a dump (.json, .json.gz) and/or pystats files (.txt) as {}", side.name())} onclick={open}>{"open…"}</button>
                    if st.info.is_some() {
                        <button class="icon-btn small" title={format!("unload {}", side.name())} onclick={clear}>{"✕"}</button>
                    }
                </div>
                <input ref={input} type="file" multiple=true accept=".json,.gz,.txt,application/json,application/gzip,text/plain"
                    class="hidden-input" onchange={on_pick} data-side={side.name()} />
            </div>
            if let Some((label, fraction)) = st.progress.clone() { <ProgressBar {label} {fraction} /> }
            if let Some(err) = &st.error { <div class="side-error" role="alert" title={err.clone()}>{err.clone()}</div> }
        </section>
    }
}
