//! The tab strip: overview, functions (with the count of changed ones), stats.

use yew::prelude::*;

use super::Ctx;
use crate::format::grouped;
use crate::view_model::{Mode, Summary};
use crate::route::Tab;
use crate::state::{Action, Shared};

/// Props of [`Tabs`].
#[derive(Properties, PartialEq)]
pub struct TabsProps {
    /// Current tab.
    pub tab: Tab,
    /// For the counts.
    pub summary: Shared<Summary>,
}

/// Tab strip.
#[function_component(Tabs)]
pub fn tabs(props: &TabsProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let s = &props.summary;
    let label = |t: Tab| -> String {
        match t {
            Tab::Overview => "Overview".into(),
            Tab::Functions => match s.mode {
                Mode::Diff => format!("Functions · {}", s.overview.changed),
                Mode::Single(_) => format!("Functions · {}", grouped(s.rows.len() as u64)),
                Mode::Empty => "Functions".into(),
            },
            Tab::Stats => if s.has_stats { "Stats".into() } else { "Stats · none".into() },
        }
    };
    html! {
        <nav class="tabs" role="tablist">
            { for Tab::ALL.into_iter().map(|t| {
                let onclick = ctx.dispatch.reform(move |_| Action::SelectTab(t));
                html! {
                    <button role="tab" class={classes!("tab", (t == props.tab).then_some("active"))}
                        aria-selected={(t == props.tab).to_string()} {onclick} data-tab={t.name()}>
                        {label(t)}
                    </button>
                }
            }) }
        </nav>
    }
}
