//! # specdiff-web
//!
//! The specdiff web viewer: drop two dumps, see the specialization diff. A Yew app whose state
//! is one `Reducible` ([`state::AppState`]); the dumps are read, diffed and turned into view
//! models by the [`session`] in a web worker (the same wasm binary, started as a module worker),
//! so big files never block the page. Everything that knows about CPython comes from
//! `specdiff_core`; this crate only lays it out.
//!
//! Layers:
//! - [`view_model`], [`protocol`], [`wire`]: the data exchanged with the engine and its binary form.
//! - [`session`], [`analysis`]: pure Rust, runs anywhere (native unit tests included).
//! - [`state`], [`route`], [`stats_order`], [`format`](mod@format): the page state, its pure reducer
//!   and what it is shown with.
//! - [`bridge`], [`browser`], [`components`], [`hooks`]: browser I/O, the Yew components and
//!   their page-wide event listeners.

pub mod session;
pub mod format;
pub mod view_model;
pub mod protocol;
pub mod wire;
pub mod route;
pub mod state;
pub mod stats_order;
pub mod analysis;
pub mod bridge;
pub mod browser;
pub mod components;
pub mod hooks;

/// Starts the page (called by `main` in the browser; a worker instance starts nothing and
/// waits for `specdiff_worker_message`).
pub fn start() {
    if web_sys::window().is_none() {
        return;
    }
    yew::Renderer::<components::app::App>::new().render();
}
