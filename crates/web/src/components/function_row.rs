//! One row of the virtualized function list.

use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::Ctx;
use crate::format::percent;
use crate::view_model::{ChangeKind, FunctionRow, Share};
use crate::state::Action;

/// Props of [`FunctionRowView`].
#[derive(Properties, PartialEq)]
pub struct FunctionRowProps {
    /// The row.
    pub row: FunctionRow,
    /// Currently selected.
    pub selected: bool,
    /// Diff mode (show classes) or one run (show coverage).
    pub diff: bool,
}

fn share_text(s: Option<Share>) -> String {
    match s {
        Some(s) if s.sites > 0 => format!("{}/{}", s.specialized, s.sites),
        Some(_) => "–".into(),
        None => "·".into(),
    }
}

/// A function in the list.
#[function_component(FunctionRowView)]
pub fn function_row_view(props: &FunctionRowProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let r = &props.row;
    let key = r.key.clone();
    let onclick = ctx.dispatch.reform(move |_| Action::Select(key.clone()));
    let heat = (r.hot.sqrt() * 100.0).clamp(0.0, 100.0);
    let status = if props.diff && matches!(r.status, ChangeKind::Added | ChangeKind::Removed) { Some(r.status) } else { None };
    let share = if props.diff {
        format!("{} → {}", share_text(r.before), share_text(r.after))
    } else {
        share_text(r.before)
    };
    let share_tip = if props.diff {
        "specialized sites / adaptive sites: base → head".to_string()
    } else {
        format!("specialized sites / adaptive sites ({})", percent(r.before.map_or(0.0, |s| s.ratio())))
    };
    html! {
        <button type="button" class={classes!("frow", props.selected.then_some("selected"), (props.diff && !r.is_changed()).then_some("unchanged"))}
            {onclick} aria-current={props.selected.then_some("true")}
            data-key={r.key.clone()} title={format!("{} · {} · {}", r.qualname, r.module, r.location)}>
            <span class="heat" title={r.hot_words()}><span style={format!("width:{heat:.0}%")}></span></span>
            // The name and its location wrap over the row's lines (`.fname`): read whole,
            // `<lambda>@59:13` included, not only in the row's title.
            <span class="fname">
                <span class="qual">{r.qualname.clone()}</span>
                <span class="loc">{r.location.clone()}</span>
            </span>
            <span class="fbadges">
                if let Some(st) = status { <ClassBadge class={st} /> }
                { for r.counts.iter().filter(|(c, n)| *c != ChangeKind::Unchanged && *n > 0).map(|(c, n)| html! {
                    <ClassBadge class={*c} count={Some(*n)} compact=true />
                }) }
            </span>
            <span class="fshare" title={share_tip}>{share}</span>
        </button>
    }
}
