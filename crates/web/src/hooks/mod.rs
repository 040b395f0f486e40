//! The app's page-wide event listeners as custom hooks, one per file (as in yew's
//! `function_todomvc` example). Each installs its window listeners once and removes them when
//! the component that uses it goes away.

mod use_dialog_focus;
mod use_file_drop;
mod use_keyboard;
mod use_navigation;

pub use use_dialog_focus::use_dialog_focus;
pub use use_file_drop::use_file_drop;
pub use use_keyboard::use_keyboard;
pub use use_navigation::use_navigation;
