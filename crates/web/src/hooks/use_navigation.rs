//! Back/forward and edited URLs: the route follows the URL hash.

use gloo::events::EventListener;
use yew::prelude::*;

use crate::browser;
use crate::route::Route;
use crate::state::Action;

/// Dispatches [`Action::Navigate`] with the route of the URL hash whenever it changes
/// (`hashchange`, `popstate`).
#[hook]
pub fn use_navigation(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let listeners = ["hashchange", "popstate"].map(|event| {
            let dispatch = dispatch.clone();
            EventListener::new(&window, event, move |_| dispatch.emit(Action::Navigate(Route::parse(&browser::hash()))))
        });
        move || drop(listeners)
    });
}
