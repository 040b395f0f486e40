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
    /// Position from the top of the list, in pixels.
    pub top: f64,
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
    let (outer, leaf) = split_name(&r.qualname);
    html! {
        <button type="button" class={classes!("frow", props.selected.then_some("selected"), (props.diff && !r.is_changed()).then_some("unchanged"))}
            style={format!("top:{}px", props.top)} {onclick} aria-current={props.selected.then_some("true")}
            data-key={r.key.clone()} title={format!("{} · {} · {}", r.qualname, r.module, r.location)}>
            <span class="heat" title={r.hot_words()}><span style={format!("width:{heat:.0}%")}></span></span>
            <span class="fname">
                // The last part of the name is what tells same-named code objects apart
                // (`<lambda>@59:13`): it is never the part a narrow row cuts.
                <span class="qual"><span class="qual-outer">{outer}</span><span class="qual-leaf">{leaf}</span></span>
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

/// A display name split before its last part: `make_shapes.<locals>.` and `<lambda>@59:13`
/// (a dot after the `@` of a place, or inside `<…>`, does not split).
pub fn split_name(name: &str) -> (&str, &str) {
    let head = name.split_once('@').map_or(name, |(h, _)| h);
    let mut depth = 0i32;
    let mut cut = 0;
    for (i, c) in head.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '.' if depth == 0 => cut = i + 1,
            _ => {}
        }
    }
    name.split_at(cut)
}

#[cfg(test)]
mod tests {
    use super::split_name;

    #[test]
    fn names_split_before_the_part_that_tells_them_apart() {
        assert_eq!(split_name("make_shapes.<locals>.<lambda>@59:13"), ("make_shapes.<locals>.", "<lambda>@59:13"));
        assert_eq!(split_name("Point.__init__"), ("Point.", "__init__"));
        assert_eq!(split_name("main"), ("", "main"));
        assert_eq!(split_name("f#9ac3~2"), ("", "f#9ac3~2"));
        assert_eq!(split_name("<genexpr>@3:1.5"), ("", "<genexpr>@3:1.5"));
    }
}

