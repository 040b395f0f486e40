//! The legend shown where its words are used (not only in the `?` dialog, not only on hover):
//! the change kinds on screen with what each means, and, beside a listing or the run numbers,
//! the listing's columns, counter words and signs (`off`, `ctr`, `N miss`, `↻`, `pp`). The
//! words are the core's (`ChangeKind::describe`, `wording::LISTING_TERMS`).

use specdiff_core::report::wording::LISTING_TERMS;
use yew::prelude::*;

use super::class_badge::ClassBadge;
use crate::view_model::ChangeKind;

/// Which terms of [`LISTING_TERMS`] a legend shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Terms {
    /// None: the kinds only.
    None,
    /// A function's listing: its columns, counter words and churn sign.
    Listing,
    /// The run numbers: `pp`.
    Shares,
}

/// Props of [`Legend`].
#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The change kinds to explain (those on screen), in the order given.
    pub kinds: Vec<ChangeKind>,
    /// The terms to explain besides the kinds.
    pub terms: Terms,
}

/// A small legend: each kind's badge with its meaning, then the terms.
#[function_component(Legend)]
pub fn legend(props: &LegendProps) -> Html {
    let terms = LISTING_TERMS.iter().filter(|(t, _)| match props.terms {
        Terms::None => false,
        Terms::Listing => *t != "pp",
        Terms::Shares => *t == "pp",
    });
    html! {
        <dl class="legend-bar">
            { for props.kinds.iter().filter(|c| **c != ChangeKind::Unchanged).map(|c| html! {
                <div><dt><ClassBadge class={*c} /></dt><dd>{c.describe()}</dd></div>
            }) }
            { for terms.map(|(t, meaning)| html! {
                <div><dt><code>{*t}</code></dt><dd>{*meaning}</dd></div>
            }) }
        </dl>
    }
}
