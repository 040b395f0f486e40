//! The Yew function components, one per file. They read the state and view models, lay them
//! out, and turn user input into [`crate::state::Action`]s and engine requests.

pub mod app;
pub mod class_badge;
pub mod drop_overlay;
pub mod family_chart;
pub mod function_list;
pub mod function_row;
pub mod function_view;
pub mod help_overlay;
pub mod ins_cell;
pub mod legend;
pub mod loop_traces;
pub mod notice_bar;
pub mod overview;
pub mod progress_bar;
pub mod share_box;
pub mod side_card;
pub mod stats_view;
pub mod tabs;
pub mod welcome;

use yew::Callback;

use crate::bridge::Bridge;
use crate::state::Action;

/// What every component may reach: the reducer's dispatch and the engine.
#[derive(Clone, PartialEq)]
pub struct Ctx {
    /// Dispatches an [`Action`].
    pub dispatch: Callback<Action>,
    /// The engine.
    pub bridge: Bridge,
}

impl Ctx {
    /// Hands `files` to the engine for `side` (None: automatic), telling the state first.
    pub fn load(&self, side: Option<crate::view_model::Side>, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        let names = files.iter().map(|f| f.name()).collect();
        self.dispatch.emit(Action::LoadStarted { side, names });
        self.bridge.load(side, files);
    }

    /// Fetches and loads the demo pair.
    pub fn load_demo(&self) {
        let ctx = self.clone();
        self.dispatch.emit(Action::LoadStarted { side: None, names: vec!["demo".into()] });
        wasm_bindgen_futures::spawn_local(async move {
            match crate::browser::fetch_demo().await {
                Ok(files) => ctx.load(None, files),
                Err(e) => ctx.dispatch.emit(Action::Engine(crate::protocol::Response::Failed { side: None, message: e })),
            }
        });
    }
}
