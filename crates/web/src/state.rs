//! The page state: one [`AppState`], changed only by [`Action`]s through the pure reducer
//! [`AppState::apply`] (wrapped as a Yew `Reducible`). Side effects (talking to the engine,
//! writing the URL hash) are done by the components, from the state.

use std::rc::Rc;

use yew::Reducible;

use crate::model::{ChangeKind, FunctionDetail, FunctionRow, Mode, Side, SideInfo, StatsTable, Summary};
use crate::protocol::Response;
use crate::route::{Route, Tab};
use crate::stats_order::{StatsKey, StatsSort};

/// Shared, immutable data compared by identity: view models can be large (10k function rows),
/// and props are compared on every render.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What a side's pane shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideState {
    /// The loaded run's label.
    pub info: Option<SideInfo>,
    /// Work in progress: label and fraction 0–1.
    pub progress: Option<(String, f64)>,
    /// The last error (the core reader's one-line message).
    pub error: Option<String>,
}

/// Function list order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// Hotness × regressions (or × unspecialized sites for one run).
    #[default]
    Score,
    /// Share of samples.
    Hot,
    /// Qualified name.
    Name,
    /// Number of changed sites.
    Changes,
    /// Specialized share (lowest first).
    Coverage,
}

impl Sort {
    /// Every order, in menu order.
    pub const ALL: [Sort; 5] = [Sort::Score, Sort::Hot, Sort::Changes, Sort::Coverage, Sort::Name];

    /// Menu label (also the `<option>` value).
    pub fn name(self) -> &'static str {
        match self {
            Sort::Score => "impact",
            Sort::Hot => "hotness",
            Sort::Name => "name",
            Sort::Changes => "changes",
            Sort::Coverage => "coverage",
        }
    }

    /// Parses [`Sort::name`].
    pub fn from_name(s: &str) -> Option<Sort> {
        Sort::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// A message across the top of the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// One line.
    pub text: String,
    /// Red or neutral.
    pub error: bool,
}

/// A share link made by the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareState {
    /// The `s4.…` payload.
    pub payload: String,
    /// What the link holds, in words.
    pub note: Option<String>,
    /// True when it carries no source text and short paths.
    pub redacted: bool,
}

/// List filters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Search text (all words must match name, module or location).
    pub query: String,
    /// Only functions with a site of this class.
    pub class: Option<ChangeKind>,
    /// Show unchanged functions too (diff mode).
    pub show_unchanged: bool,
    /// Order.
    pub sort: Sort,
}

/// The whole page state.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// Base and head panes.
    pub sides: [SideState; 2],
    /// Overview and function list of what is loaded.
    pub summary: Shared<Summary>,
    /// Tab and selected function (mirrored in the URL hash).
    pub route: Route,
    /// The selected function's view, once the engine sent it.
    pub detail: Option<Shared<FunctionDetail>>,
    /// The stats table, once the engine sent it.
    pub stats: Option<Shared<StatsTable>>,
    /// The stats table's order (kept when new stats arrive).
    pub stats_sort: StatsSort,
    /// Function list filters.
    pub filter: Filter,
    /// Keyboard help shown.
    pub help: bool,
    /// Message across the top.
    pub notice: Option<Notice>,
    /// Work in progress not tied to a side (share links, pairs of dumps).
    pub progress: Option<(String, f64)>,
    /// The last share link made.
    pub share: Option<ShareState>,
    /// Where the engine runs (`"worker"`, `"main thread"`), once it is up.
    pub engine: Option<String>,
    /// Files are being dragged over the page.
    pub dragging: bool,
    /// Incremented to ask the search box to take the focus.
    pub focus_search: u32,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            sides: Default::default(),
            summary: Shared::new(Summary::empty()),
            route: Route::default(),
            detail: None,
            stats: None,
            stats_sort: StatsSort::default(),
            filter: Filter::default(),
            help: false,
            notice: None,
            progress: None,
            share: None,
            engine: None,
            dragging: false,
            focus_search: 0,
        }
    }
}

/// Everything that can happen to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Files were handed to the engine.
    LoadStarted {
        /// Pane they were dropped on (None: anywhere).
        side: Option<Side>,
        /// Their names.
        names: Vec<String>,
    },
    /// The engine answered.
    Engine(Response),
    /// The URL hash changed (back/forward, a pasted link).
    Navigate(Route),
    /// A tab was clicked.
    SelectTab(Tab),
    /// A function was picked.
    Select(String),
    /// `j` (+1) / `k` (−1): next or previous changed function.
    Step(i32),
    /// Search text.
    SetQuery(String),
    /// Change-kind filter chip.
    SetClass(Option<ChangeKind>),
    /// "show unchanged" toggle.
    SetShowUnchanged(bool),
    /// Sort order.
    SetSort(Sort),
    /// A stats table header was clicked.
    SortStats(StatsKey),
    /// `?`.
    ToggleHelp,
    /// Escape: close help, share box, notice.
    Escape,
    /// Files dragged over the page (true) or gone (false).
    Drag(bool),
    /// `/`.
    FocusSearch,
    /// Close the notice.
    DismissNotice,
    /// Close the share box.
    CloseShare,
    /// A message for the user that did not come from the engine.
    Notify(Notice),
}

impl AppState {
    /// The pure reducer.
    pub fn apply(mut self, action: Action) -> AppState {
        match action {
            Action::LoadStarted { side, names } => {
                let label = format!("reading {}", names.join(", "));
                match side {
                    Some(s) => {
                        let st = &mut self.sides[s.index()];
                        st.progress = Some((label, 0.0));
                        st.error = None;
                    }
                    None => self.progress = Some((label, 0.0)),
                }
                self.route.share = None;
                self.route.demo = false;
                self.share = None;
                self.notice = None;
                self.dragging = false;
            }
            Action::Engine(r) => self.engine_response(r),
            Action::Navigate(route) => {
                if route.function != self.route.function {
                    self.detail = None;
                }
                self.route = route;
            }
            Action::SelectTab(tab) => self.route.tab = tab,
            Action::Select(key) => {
                if self.route.function.as_deref() != Some(key.as_str()) {
                    self.detail = None;
                }
                self.route.function = Some(key);
                self.route.tab = Tab::Functions;
            }
            Action::Step(dir) => {
                if let Some(key) = self.step_target(dir) {
                    return self.apply(Action::Select(key));
                }
            }
            Action::SetQuery(q) => self.filter.query = q,
            Action::SetClass(c) => {
                self.filter.class = c;
                if c == Some(ChangeKind::Unchanged) {
                    self.filter.show_unchanged = true;
                }
            }
            Action::SetShowUnchanged(b) => self.filter.show_unchanged = b,
            Action::SetSort(s) => self.filter.sort = s,
            Action::SortStats(key) => self.stats_sort = self.stats_sort.clicked(key),
            Action::ToggleHelp => self.help = !self.help,
            Action::Escape => {
                self.help = false;
                self.share = None;
                self.notice = None;
            }
            Action::Drag(d) => self.dragging = d,
            Action::FocusSearch => {
                self.route.tab = Tab::Functions;
                self.focus_search += 1;
            }
            Action::DismissNotice => self.notice = None,
            Action::CloseShare => self.share = None,
            Action::Notify(n) => self.notice = Some(n),
        }
        self
    }

    fn engine_response(&mut self, r: Response) {
        match r {
            Response::Ready { mode } => self.engine = Some(mode),
            Response::Progress { side, label, fraction } => match side {
                Some(s) => self.sides[s.index()].progress = Some((label, fraction)),
                None => self.progress = Some((label, fraction)),
            },
            Response::Loaded { side, info } => {
                let st = &mut self.sides[side.index()];
                st.info = Some(info);
                st.error = None;
                st.progress = None;
            }
            Response::Cleared { side } => self.sides[side.index()] = SideState::default(),
            Response::Failed { side: Some(s), message } => {
                let st = &mut self.sides[s.index()];
                st.info = None;
                st.progress = None;
                st.error = Some(message);
            }
            Response::Failed { side: None, message } => {
                self.progress = None;
                for st in &mut self.sides {
                    st.progress = None;
                }
                if message.starts_with(specdiff_core::share::SOURCE_NAME) {
                    self.route.share = None;
                }
                self.notice = Some(Notice { text: message, error: true });
            }
            Response::Summary(s) => {
                let new_generation = s.generation != self.summary.generation;
                self.summary = Shared::new(*s);
                self.progress = None;
                for st in &mut self.sides {
                    st.progress = None;
                }
                if new_generation {
                    self.detail = None;
                    self.stats = None;
                }
            }
            Response::Function(d) => {
                if self.route.function.as_deref() == Some(d.key.as_str()) {
                    self.detail = Some(Shared::new(*d));
                }
            }
            Response::ShareLink { payload, note, redacted } => self.share = Some(ShareState { payload, note, redacted }),
            Response::Stats(t) => self.stats = Some(Shared::new(*t)),
        }
    }

    /// Indices into `summary.rows` of the rows the list shows, in order.
    pub fn visible_rows(&self) -> Vec<usize> {
        visible_rows(&self.summary, &self.filter)
    }

    /// The key `j`/`k` moves to: the next/previous changed function (any function for one run)
    /// in the list as shown, wrapping around.
    pub fn step_target(&self, dir: i32) -> Option<String> {
        let rows = &self.summary.rows;
        let visible = self.visible_rows();
        let diff = self.summary.mode == Mode::Diff;
        let candidates: Vec<usize> = visible.iter().copied().filter(|&i| !diff || rows[i].is_changed()).collect();
        if candidates.is_empty() {
            return None;
        }
        let current = self.route.function.as_deref().and_then(|k| visible.iter().position(|&i| rows[i].key == k));
        let next = match current {
            None => {
                if dir >= 0 {
                    candidates[0]
                } else {
                    *candidates.last().unwrap()
                }
            }
            Some(pos) => {
                let cand_pos: Vec<usize> =
                    candidates.iter().map(|&i| visible.iter().position(|&v| v == i).unwrap()).collect();
                if dir >= 0 {
                    cand_pos.iter().find(|&&p| p > pos).map_or(candidates[0], |&p| visible[p])
                } else {
                    cand_pos.iter().rev().find(|&&p| p < pos).map_or(*candidates.last().unwrap(), |&p| visible[p])
                }
            }
        };
        Some(rows[next].key.clone())
    }

    /// The selected function's row, if it is in the list.
    pub fn selected_row(&self) -> Option<&FunctionRow> {
        let key = self.route.function.as_deref()?;
        self.summary.rows.iter().find(|r| r.key == key)
    }

    /// Any side is loading.
    pub fn busy(&self) -> bool {
        self.progress.is_some() || self.sides.iter().any(|s| s.progress.is_some())
    }
}

/// Filters and sorts the rows of `summary` (indices into `summary.rows`).
pub fn visible_rows(summary: &Summary, filter: &Filter) -> Vec<usize> {
    let words: Vec<String> = filter.query.split_whitespace().map(crate::format::lowercase).collect();
    let diff = summary.mode == Mode::Diff;
    let mut out: Vec<usize> = summary
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            if let Some(c) = filter.class {
                if r.status != c && r.count(c) == 0 {
                    return false;
                }
            } else if diff && !filter.show_unchanged && !r.is_changed() {
                return false;
            }
            if words.is_empty() {
                return true;
            }
            let hay = crate::format::lowercase(&format!("{} {} {}", r.qualname, r.module, r.location));
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .map(|(i, _)| i)
        .collect();
    let rows = &summary.rows;
    let share = |r: &FunctionRow| r.after.or(r.before).map_or(1.0, |s| if s.sites == 0 { 1.0 } else { s.ratio() });
    match filter.sort {
        Sort::Score => {} // the engine sends rows ranked by score
        Sort::Hot => crate::format::sort_indices(&mut out, &|a, b| rows[b].hot.total_cmp(&rows[a].hot)),
        Sort::Name => crate::format::sort_indices(&mut out, &|a, b| rows[a].qualname.cmp(&rows[b].qualname).then(rows[a].module.cmp(&rows[b].module))),
        Sort::Changes => crate::format::sort_indices(&mut out, &|a, b| rows[b].changes().cmp(&rows[a].changes()).then(rows[b].score.total_cmp(&rows[a].score))),
        Sort::Coverage => crate::format::sort_indices(&mut out, &|a, b| share(&rows[a]).total_cmp(&share(&rows[b]))),
    }
    out
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(Rc::unwrap_or_clone(self).apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Share, SideInfo};

    fn row(key: &str, status: ChangeKind, counts: Vec<(ChangeKind, u32)>, hot: f64) -> FunctionRow {
        FunctionRow {
            key: key.into(),
            qualname: key.into(),
            module: "m".into(),
            location: format!("m.py:{}", key.len()),
            kind: "function".into(),
            hot,
            before: Some(Share { specialized: 1, sites: 2 }),
            after: Some(Share { specialized: 0, sites: 2 }),
            counts,
            status,
            score: hot,
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
}
