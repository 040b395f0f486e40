//! A coloured classification chip: `lost 3`.

use yew::prelude::*;

use crate::view_model::{ChangeKind, ClassText};
use crate::format::count;

/// Props of [`ClassBadge`].
#[derive(Properties, PartialEq)]
pub struct ClassBadgeProps {
    /// The class.
    pub class: ChangeKind,
    /// A count to show after the name.
    #[prop_or_default]
    pub count: Option<u32>,
    /// Only the count (compact rows); the name is in the tooltip.
    #[prop_or_default]
    pub compact: bool,
}

/// Classification chip; the tooltip says what the class means in plain words.
#[function_component(ClassBadge)]
pub fn class_badge(props: &ClassBadgeProps) -> Html {
    let c = props.class;
    let text = match (props.count, props.compact) {
        (Some(n), true) => n.to_string(),
        (Some(n), false) => format!("{} {}", c.label(), n),
        (None, _) => c.label().to_string(),
    };
    let tip = match props.count {
        Some(n) => format!("{} {}: {}", count(n as u64, "site", "sites"), c.label(), c.describe()),
        None => format!("{}: {}", c.label(), c.describe()),
    };
    html! { <span class={classes!("badge", format!("c-{}", c.name()))} title={tip} data-class={c.name()}>{text}</span> }
}
