//! One instruction of the function view: opname (coloured when specialized), argument,
//! counter (with its meaning in the tooltip) and churn.

use yew::prelude::*;

use crate::format::shown;
use crate::view_model::Ins;

/// Props of [`InsCell`].
#[derive(Properties, PartialEq)]
pub struct InsCellProps {
    /// The instruction, or none (this side has no counterpart).
    pub ins: Option<Ins>,
}

/// An instruction cell.
#[function_component(InsCell)]
pub fn ins_cell(props: &InsCellProps) -> Html {
    let Some(i) = &props.ins else {
        return html! { <td class="ins none" colspan="3"></td> };
    };
    let op_class = classes!("op", i.specialized.then_some("spec"), (i.site && !i.specialized).then_some("site"));
    // The opname and family come from the dump as they are (the argument is already inert).
    let op = shown(&i.op);
    let op_tip = if i.op == i.family {
        if i.site { format!("{op} (adaptive, not specialized)") } else { op.clone() }
    } else {
        format!("{op} (family {})", shown(&i.family))
    };
    html! {
        <>
            <td class="off">{i.offset}</td>
            <td class="ins">
                <span class={op_class} title={op_tip}>{op}</span>
                if !i.arg.is_empty() { <span class="arg" title={i.arg.clone()}>{i.arg.clone()}</span> }
                if let Some(ch) = &i.churn { <span class="churn" title={ch.clone()}>{"↻"}</span> }
            </td>
            <td class="ctr">
                if let Some(c) = &i.counter {
                    <span class="counter" title={i.tip.clone().unwrap_or_default()}>{c.clone()}</span>
                }
            </td>
        </>
    }
}
