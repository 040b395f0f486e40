//! The function list: search, class filter, sort, and a virtualized list (only the rows in
//! view are in the DOM, so 10k functions scroll smoothly).
//!
//! The rows in view are laid out by the browser, between two spacers that stand for the rows
//! above and below at [`ROW_HEIGHT`] each: most rows are two lines high, and one whose name
//! and location need more lines grows to fit them, so no name is ever cut (issue 33: names of
//! 60–100 characters at 390 px). A tall row only shifts the rows after it while it is in view.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::class_badge::ClassBadge;
use super::function_row::FunctionRowView;
use super::Ctx;
use crate::format::{grouped, count};
use crate::view_model::{ChangeKind, Mode, Summary};
use crate::state::{visible_rows, Action, Filter, Shared, Sort};

/// Height of a row of two lines in CSS pixels (`.frow`'s `min-height` in the style sheet): what
/// the spacers count for each row not in the DOM.
pub const ROW_HEIGHT: f64 = 42.0;
/// Rows rendered above and below the visible ones.
const OVERSCAN: usize = 12;

/// Props of [`FunctionList`].
#[derive(Properties, PartialEq)]
pub struct FunctionListProps {
    /// Rows come from here.
    pub summary: Shared<Summary>,
    /// Search, class filter, sort.
    pub filter: Filter,
    /// Selected function key.
    pub selected: Option<String>,
    /// Changes when `/` is pressed: the search box takes the focus.
    pub focus_search: u32,
    /// Changes when Escape closed a function view: that function's row takes the focus.
    pub focus_row: Option<(u32, String)>,
}

/// Search box, filters and the virtualized list.
#[function_component(FunctionList)]
pub fn function_list(props: &FunctionListProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let search = use_node_ref();
    let scroller = use_node_ref();
    // (scroll top, viewport height)
    let view = use_state(|| (0.0f64, 800.0f64));

    let visible = use_memo((props.summary.clone(), props.filter.clone()), |(s, f)| visible_rows(s, f));
    let class_counts = use_memo(props.summary.clone(), |s| {
        ChangeKind::ALL
            .iter()
            .map(|&c| (c, s.rows.iter().filter(|r| r.status == c || r.count(c) > 0).count()))
            .filter(|(_, n)| *n > 0)
            .collect::<Vec<_>>()
    });

    {
        let search = search.clone();
        use_effect_with(props.focus_search, move |n| {
            if *n > 0 {
                if let Some(el) = search.cast::<HtmlInputElement>() {
                    let _ = el.focus();
                    el.select();
                }
            }
        });
    }
    {
        let scroller = scroller.clone();
        use_effect_with(props.focus_row.clone(), move |row| {
            if let (Some((_, key)), Some(el)) = (row, scroller.cast::<web_sys::Element>()) {
                if let Some(b) = row_button(&el, |k| k == key) {
                    let _ = b.focus();
                }
            }
        });
    }
    // Keep the selected row in view (j/k, links, back/forward).
    {
        let scroller = scroller.clone();
        let visible = visible.clone();
        let rows = props.summary.clone();
        let view = view.clone();
        use_effect_with(props.selected.clone(), move |sel| {
            let Some(key) = sel else { return };
            let Some(pos) = visible.iter().position(|&i| rows.rows[i].key == *key) else { return };
            let Some(el) = scroller.cast::<HtmlElement>() else { return };
            let top = pos as f64 * ROW_HEIGHT;
            let (st, h) = (el.scroll_top() as f64, el.client_height() as f64);
            if top < st || top + ROW_HEIGHT > st + h {
                let target = (top - h / 2.0).max(0.0);
                el.set_scroll_top(target as i32);
                view.set((target, h));
            }
        });
    }
    // Measure the viewport once it exists.
    {
        let scroller = scroller.clone();
        let view = view.clone();
        use_effect_with((), move |_| {
            if let Some(el) = scroller.cast::<HtmlElement>() {
                view.set((el.scroll_top() as f64, el.client_height() as f64));
            }
        });
    }

    let onscroll = {
        let view = view.clone();
        let scroller = scroller.clone();
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<HtmlElement>() {
                view.set((el.scroll_top() as f64, el.client_height() as f64));
            }
        })
    };
    let oninput = ctx.dispatch.reform(|e: InputEvent| {
        let el: HtmlInputElement = e.target_unchecked_into();
        Action::SetQuery(el.value())
    });
    let onsort = ctx.dispatch.reform(|e: Event| {
        let el: HtmlSelectElement = e.target_unchecked_into();
        Action::SetSort(Sort::from_name(&el.value()).unwrap_or_default())
    });
    let onunchanged = ctx.dispatch.reform(|e: Event| {
        let el: HtmlInputElement = e.target_unchecked_into();
        Action::SetShowUnchanged(el.checked())
    });

    // Up and down arrows move between rows (Tab reaches them too; Enter opens one).
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        let down = match e.key().as_str() {
            "ArrowDown" => true,
            "ArrowUp" => false,
            _ => return,
        };
        let is_row = |t: &web_sys::Element| t.get_attribute("data-key").is_some() && t.tag_name() == "BUTTON";
        let Some(row) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).filter(is_row) else {
            return;
        };
        // The first and last rows' siblings are the spacers: not rows, so the key scrolls.
        let next = if down { row.next_element_sibling() } else { row.previous_element_sibling() };
        if let Some(b) = next.filter(is_row).and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
            e.prevent_default();
            let _ = b.focus();
        }
    });
    let s = &props.summary;
    let diff = s.mode == Mode::Diff;
    let total = visible.len();
    let (scroll_top, height) = *view;
    let first = ((scroll_top / ROW_HEIGHT) as usize).saturating_sub(OVERSCAN).min(total);
    let last = (first + (height / ROW_HEIGHT).ceil() as usize + 2 * OVERSCAN).min(total);

    let chips = if diff {
        html! {
            <div class="chips filter-chips">
                <button class={classes!("chip", props.filter.class.is_none().then_some("on"))}
                    onclick={ctx.dispatch.reform(|_| Action::SetClass(None))}>{"all changes"}</button>
                { for class_counts.iter().filter(|(c, _)| *c != ChangeKind::Unchanged).map(|&(c, n)| {
                    let on = props.filter.class == Some(c);
                    let onclick = ctx.dispatch.reform(move |_| Action::SetClass(if on { None } else { Some(c) }));
                    html! {
                        <button class={classes!("chip", on.then_some("on"))} {onclick}
                            title={format!("{} with {} sites: {}", count(n as u64, "function", "functions"), c.label(), c.describe())}>
                            <ClassBadge class={c} />{format!(" {n}")}
                        </button>
                    }
                }) }
            </div>
        }
    } else {
        html! {}
    };

    html! {
        <aside class="flist">
            <div class="flist-tools">
                <input ref={search} class="search" type="search" placeholder="search functions  ( / )"
                    value={props.filter.query.clone()} {oninput} aria-label="search functions" />
                <select class="sort" onchange={onsort} aria-label="sort by" title="sort by">
                    { for Sort::ALL.iter().filter(|x| diff || **x != Sort::Changes).map(|x| html! {
                        <option value={x.name()} selected={*x == props.filter.sort}>{format!("by {}", x.name())}</option>
                    }) }
                </select>
            </div>
            {chips}
            <div class="flist-count">
                <span>{format!("{} of {} functions", grouped(total as u64), grouped(s.rows.len() as u64))}</span>
                if diff {
                    <label class="toggle"><input type="checkbox" checked={props.filter.show_unchanged} onchange={onunchanged} />{" show unchanged"}</label>
                }
            </div>
            <div class="vlist" ref={scroller} {onscroll} {onkeydown} role="region" aria-label="functions">
                <div class="vlist-inner">
                    <div style={format!("height:{}px", first as f64 * ROW_HEIGHT)}></div>
                    { for (first..last).map(|pos| {
                        let row = &s.rows[visible[pos]];
                        html! {
                            <FunctionRowView key={row.key.clone()} row={row.clone()}
                                selected={props.selected.as_deref() == Some(row.key.as_str())} {diff} />
                        }
                    }) }
                    <div style={format!("height:{}px", (total - last) as f64 * ROW_HEIGHT)}></div>
                </div>
                if total == 0 {
                    <div class="empty-list">{ if diff && !props.filter.show_unchanged && props.filter.query.is_empty() && props.filter.class.is_none() {
                        "No function changed. Tick “show unchanged” to browse them all."
                    } else { "No function matches." } }</div>
                }
            </div>
        </aside>
    }
}

/// The rendered row button whose key passes `wanted`.
fn row_button(list: &web_sys::Element, wanted: impl Fn(&str) -> bool) -> Option<HtmlElement> {
    let rows = list.query_selector_all(".frow").ok()?;
    (0..rows.length())
        .filter_map(|i| rows.get(i)?.dyn_into::<HtmlElement>().ok())
        .find(|b| b.get_attribute("data-key").is_some_and(|k| wanted(&k)))
}
