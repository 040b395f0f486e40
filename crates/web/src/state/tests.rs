//! The reducer's tests: filters, steps, loading, the URL's list state, Escape.

use super::*;
use crate::view_model::{Share, SideInfo};

fn row(key: &str, status: ChangeKind, counts: Vec<(ChangeKind, u32)>, hot: f64) -> FunctionRow {
    FunctionRow {
        key: key.into(),
        qualname: key.into(),
        module: "m".into(),
        location: format!("m.py:{}", key.len()),
        kind: "function".into(),
        hot,
        hot_interval: None,
        before: Some(Share { specialized: 1, sites: 2 }),
        after: Some(Share { specialized: 0, sites: 2 }),
        counts,
        status,
        score: hot,
        ops: Vec::new(),
    }
}

fn diff_state() -> AppState {
    let mut s = Summary::empty();
    s.generation = 1;
    s.mode = Mode::Diff;
    s.rows = vec![
        row("a", ChangeKind::Changed, vec![(ChangeKind::Lost, 2)], 0.9),
        row("b", ChangeKind::Unchanged, vec![], 0.5),
        row("c", ChangeKind::Changed, vec![(ChangeKind::Gained, 1)], 0.3),
        row("d", ChangeKind::Added, vec![], 0.1),
    ];
    AppState::default().apply(Action::Engine(Response::Summary(Box::new(s))))
}

fn keys(st: &AppState) -> Vec<&str> {
    st.visible_rows().into_iter().map(|i| st.summary.rows[i].key.as_str()).collect()
}

#[test]
fn diff_list_hides_unchanged_by_default_and_filters() {
    let st = diff_state();
    assert_eq!(keys(&st), ["a", "c", "d"]);
    let st = st.apply(Action::SetShowUnchanged(true));
    assert_eq!(keys(&st), ["a", "b", "c", "d"]);
    let st = st.apply(Action::SetClass(Some(ChangeKind::Lost)));
    assert_eq!(keys(&st), ["a"]);
    let st = st.apply(Action::SetClass(None)).apply(Action::SetQuery("  C ".into()));
    assert_eq!(keys(&st), ["c"]);
    let st = st.apply(Action::SetQuery(String::new())).apply(Action::SetSort(Sort::Name));
    assert_eq!(keys(&st), ["a", "b", "c", "d"]);
}

#[test]
fn j_and_k_step_through_changed_functions_and_wrap() {
    let st = diff_state().apply(Action::SetShowUnchanged(true));
    let st = st.apply(Action::Step(1));
    assert_eq!(st.route.function.as_deref(), Some("a"));
    assert_eq!(st.route.tab, Tab::Functions);
    let st = st.apply(Action::Step(1));
    assert_eq!(st.route.function.as_deref(), Some("c"), "b is unchanged and skipped");
    let st = st.apply(Action::Step(1)).apply(Action::Step(1));
    assert_eq!(st.route.function.as_deref(), Some("a"), "wraps");
    let st = st.apply(Action::Step(-1));
    assert_eq!(st.route.function.as_deref(), Some("d"));
    // No rows: nothing happens.
    let empty = AppState::default().apply(Action::Step(1));
    assert_eq!(empty.route.function, None);
}

#[test]
fn loading_progress_and_errors_per_side() {
    let st = AppState::default().apply(Action::LoadStarted { side: Some(Side::Head), names: vec!["h.json".into()] });
    assert_eq!(st.sides[1].progress.as_ref().unwrap().0, "reading h.json");
    assert!(st.busy());
    let info = SideInfo { file: "b.json".into(), ..Default::default() };
    let st = st
        .apply(Action::Engine(Response::Loaded { side: Side::Base, info: info.clone() }))
        .apply(Action::Engine(Response::Failed { side: Some(Side::Head), message: "h.json: not JSON: x".into() }));
    assert_eq!(st.sides[0].info.as_ref(), Some(&info), "the other side stays loaded");
    assert_eq!(st.sides[1].error.as_deref(), Some("h.json: not JSON: x"));
    assert!(!st.busy());
    // A new load on the failed side clears its error.
    let st = st.apply(Action::LoadStarted { side: Some(Side::Head), names: vec!["h2.json".into()] });
    assert_eq!(st.sides[1].error, None);
}

#[test]
fn bad_share_links_drop_the_share_from_the_route_and_say_why() {
    let st = AppState { route: Route::parse("#share=s1.xx"), ..AppState::default() };
    let st = st.apply(Action::Engine(Response::Failed {
        side: None,
        message: "share link: corrupt compressed data (was the link edited?)".into(),
    }));
    assert_eq!(st.route.share, None);
    assert!(st.notice.as_ref().unwrap().error);
    let st = st.apply(Action::Escape);
    assert_eq!(st.notice, None);
}

#[test]
fn stale_function_views_are_ignored() {
    let st = diff_state().apply(Action::Select("a".into()));
    let detail = |key: &str| FunctionDetail {
        key: key.into(),
        title: key.into(),
        locations: [None, None],
        kind: "function".into(),
        mode: Mode::Diff,
        explanations: vec![],
        counts: vec![],
        status: ChangeKind::Changed,
        rows: vec![],
        traces: vec![],
    };
    let st = st.apply(Action::Engine(Response::Function(Box::new(detail("c")))));
    assert!(st.detail.is_none());
    let st = st.apply(Action::Engine(Response::Function(Box::new(detail("a")))));
    assert_eq!(st.detail.as_ref().unwrap().key, "a");
    // Navigating away drops it; a new summary generation too.
    let st = st.apply(Action::Navigate(Route::parse("#fn=c")));
    assert!(st.detail.is_none());
    assert_eq!(st.route.tab, Tab::Functions);
}

#[test]
fn help_focus_and_tabs() {
    let st = AppState::default().apply(Action::ToggleHelp);
    assert!(st.help);
    let st = st.apply(Action::Escape);
    assert!(!st.help);
    let st = st.apply(Action::FocusSearch);
    assert_eq!((st.route.tab, st.focus_search), (Tab::Functions, 1));
    let st = st.apply(Action::SelectTab(Tab::Stats));
    assert_eq!(st.route.tab, Tab::Stats);
}

#[test]
fn stats_sort_follows_header_clicks_and_outlives_new_stats() {
    let hit = StatsKey::Value { column: 1, side: Side::Head };
    let st = AppState::default().apply(Action::SortStats(hit));
    assert_eq!(st.stats_sort, StatsSort { key: hit, descending: true });
    let st = st.apply(Action::SortStats(hit));
    assert_eq!(st.stats_sort, StatsSort { key: hit, descending: false });
    let st = st.apply(Action::Engine(Response::Stats(Box::default())));
    assert!(st.stats.is_some());
    assert_eq!(st.stats_sort, StatsSort { key: hit, descending: false });
}

#[test]
fn reducible_wraps_apply() {
    let st = Rc::new(AppState::default());
    let next = st.clone().reduce(Action::ToggleHelp);
    assert!(next.help && !st.help);
}

/// The recorded demo pair (real CPython 3.11 runs) through the engine, as the page gets it.
fn demo_state() -> AppState {
    use crate::session::tests::{collect, session};
    use crate::protocol::Request;
    let read = |f: &str| std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f).unwrap();
    let files = vec![
        crate::session::InputFile::new("base.json", read("base.json")),
        crate::session::InputFile::new("head.json", read("head.json")),
    ];
    let v = collect(&mut session(), Request::Load { side: None }, files);
    let summary = v.into_iter().find(|r| matches!(r, Response::Summary(_))).expect("a summary");
    AppState::default().apply(Action::Engine(summary))
}

#[test]
fn search_finds_the_clis_module_qualname_and_opnames() {
    let st = demo_state().apply(Action::SetShowUnchanged(true));
    let found = |q: &str| {
        let st = st.clone().apply(Action::SetQuery(q.into()));
        let mut keys: Vec<String> = keys(&st).into_iter().map(String::from).collect();
        keys.sort();
        keys
    };
    // `module:qualname`, as `specdiff diff` prints it and the URL carries it.
    assert!(found("__main__:main").contains(&"__main__:main".to_string()), "{:?}", found("__main__:main"));
    assert!(found("__main__:dot_sum") == ["__main__:dot_sum"], "{:?}", found("__main__:dot_sum"));
    // An opname: `scale`'s int additions became float ones in head (BINARY_OP_ADD_INT in base).
    let add_int = found("BINARY_OP_ADD_INT");
    assert!(add_int.contains(&"__main__:scale".to_string()), "{add_int:?}");
    assert!(!add_int.contains(&"__main__:Point.__init__".to_string()), "{add_int:?}");
    assert_eq!(found("binary_op_add_int"), add_int, "case does not matter");
    // Every word must match: a name and an opname together narrow it.
    assert_eq!(found("scale BINARY_OP_ADD_INT"), ["__main__:scale"]);
    assert!(found("NO_SUCH_OPNAME_ANYWHERE").is_empty());
}

#[test]
fn same_named_code_objects_have_the_clis_distinct_names() {
    // The three lambdas of `make_shapes` share a qualname: the list shows the names the core
    // gives them (this recorded pair predates `made_at`, so they are numbered).
    let st = demo_state();
    let mut lambdas: Vec<&str> =
        st.summary.rows.iter().filter(|r| r.qualname.contains("<lambda>")).map(|r| r.qualname.as_str()).collect();
    lambdas.sort();
    let read = |f: &str| std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f).unwrap();
    let head = specdiff_core::read_dump("head.json", &read("head.json"), specdiff_core::ReadLimits::default()).unwrap();
    let names = specdiff_core::engine::CodeNames::of(&head);
    let mut core: Vec<&str> = (0..head.code.len() as u32).map(|i| names.name(&head, i)).filter(|n| n.contains("<lambda>")).collect();
    core.sort();
    assert_eq!(lambdas, core);
    assert_eq!(lambdas.len(), 3);
    assert!(lambdas[0] != lambdas[1] && lambdas[1] != lambdas[2], "{lambdas:?}");
}

#[test]
fn the_url_keeps_the_list_state_the_folds_and_the_site() {
    let st = diff_state()
        .apply(Action::SetQuery("a".into()))
        .apply(Action::SetClass(Some(ChangeKind::Lost)))
        .apply(Action::SetSort(Sort::Hot))
        .apply(Action::Select("a".into()))
        .apply(Action::Unfold(2))
        .apply(Action::Unfold(0))
        .apply(Action::Unfold(2))
        .apply(Action::SelectSite(7));
    let hash = st.route.to_hash();
    assert_eq!(hash, "#tab=functions&fn=a&site=7&open=0.2&q=a&kind=lost&sort=hotness");
    // A reload: the state starts from the hash, and the engine's summary restores the view.
    let reloaded = AppState { route: Route::parse(&hash), ..AppState::default() };
    assert_eq!(reloaded.route, st.route);
    let reloaded = reloaded.apply(Action::Engine(Response::Summary(Box::new((*diff_state().summary).clone()))));
    assert_eq!(keys(&reloaded), ["a"]);
    assert_eq!(reloaded.route.function.as_deref(), Some("a"));
    // Another function starts folded, with no site.
    let other = st.apply(Action::Select("c".into()));
    assert_eq!((other.route.open.len(), other.route.site), (0, None));
}

#[test]
fn the_functions_tab_opens_on_the_first_change_and_escape_closes_it() {
    let st = diff_state().apply(Action::SelectTab(Tab::Functions));
    assert_eq!(st.route.function.as_deref(), Some("a"), "not an empty pane");
    // Escape with a dialog open closes the dialog only.
    let st = st.apply(Action::ToggleHelp).apply(Action::Escape);
    assert_eq!((st.help, st.route.function.as_deref()), (false, Some("a")));
    // Then it closes the function view, and the list's row takes the focus back.
    let st = st.apply(Action::Escape);
    assert_eq!(st.route.function, None);
    assert_eq!(st.focus_row, Some((1, "a".to_string())));
    // The overview tab stays as it is; nothing is loaded: nothing to open.
    assert_eq!(diff_state().apply(Action::SelectTab(Tab::Overview)).route.function, None);
    assert_eq!(AppState::default().apply(Action::SelectTab(Tab::Functions)).route.function, None);
}
