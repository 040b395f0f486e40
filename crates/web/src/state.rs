//! The page state: one [`AppState`], changed only by [`Action`]s through the pure reducer
//! [`AppState::apply`] (wrapped as a Yew `Reducible`). Side effects (talking to the engine,
//! writing the URL hash) are done by the components, from the state.

use std::rc::Rc;

use yew::Reducible;

use crate::view_model::{ChangeKind, FunctionDetail, FunctionRow, Mode, Side, SideInfo, StatsTable, Summary};
use crate::protocol::Response;
pub use crate::route::{Filter, Sort};
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
    /// The function whose view Escape closed, with a count that changes each time: its row
    /// in the list takes the focus back.
    pub focus_row: Option<(u32, String)>,
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
            help: false,
            notice: None,
            progress: None,
            share: None,
            engine: None,
            dragging: false,
            focus_search: 0,
            focus_row: None,
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
    /// A site of the selected function was picked (its row in the listing, from 1).
    SelectSite(u32),
    /// A fold of the selected function was opened (its index in the listing).
    Unfold(u32),
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
    /// Escape: close help, share box, notice; with none of them open, the function view.
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
            Action::SelectTab(tab) => {
                self.route.tab = tab;
                self.open_first_function();
            }
            Action::Select(key) => {
                if self.route.function.as_deref() != Some(key.as_str()) {
                    self.detail = None;
                    self.route.site = None;
                    self.route.open.clear();
                }
                self.route.function = Some(key);
                self.route.tab = Tab::Functions;
            }
            Action::SelectSite(n) => self.route.site = Some(n),
            Action::Unfold(i) => {
                if let Err(at) = self.route.open.binary_search(&i) {
                    self.route.open.insert(at, i);
                }
            }
            Action::Step(dir) => {
                if let Some(key) = self.step_target(dir) {
                    return self.apply(Action::Select(key));
                }
            }
            Action::SetQuery(q) => self.route.filter.query = q,
            Action::SetClass(c) => {
                self.route.filter.class = c;
                if c == Some(ChangeKind::Unchanged) {
                    self.route.filter.show_unchanged = true;
                }
            }
            Action::SetShowUnchanged(b) => self.route.filter.show_unchanged = b,
            Action::SetSort(s) => self.route.filter.sort = s,
            Action::SortStats(key) => self.stats_sort = self.stats_sort.clicked(key),
            Action::ToggleHelp => self.help = !self.help,
            Action::Escape => {
                let dialog = self.help || self.share.is_some() || self.notice.is_some();
                self.help = false;
                self.share = None;
                self.notice = None;
                if !dialog && self.route.tab == Tab::Functions {
                    if let Some(key) = self.route.function.take() {
                        self.detail = None;
                        self.route.site = None;
                        self.route.open.clear();
                        let n = self.focus_row.as_ref().map_or(1, |(n, _)| n + 1);
                        self.focus_row = Some((n, key));
                    }
                }
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
                self.open_first_function();
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

    /// The Functions tab never opens on an empty pane: with no function selected (and a list to
    /// pick from), the first changed function of the list as shown (any, for one run) is.
    fn open_first_function(&mut self) {
        if self.route.tab == Tab::Functions && self.route.function.is_none() && self.summary.mode != Mode::Empty {
            if let Some(key) = self.step_target(1) {
                self.route.function = Some(key);
            }
        }
    }

    /// Indices into `summary.rows` of the rows the list shows, in order.
    pub fn visible_rows(&self) -> Vec<usize> {
        visible_rows(&self.summary, &self.route.filter)
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
    // Per word, which of the summary's opnames it finds (`BINARY_OP_ADD_INT`, `add_int`).
    let op_hits: Vec<Vec<bool>> = words
        .iter()
        .map(|w| summary.opnames.iter().map(|op| crate::format::lowercase(op).contains(w.as_str())).collect())
        .collect();
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
            // The key is `module:qualname`, the form the CLI prints and the URL carries.
            let hay = crate::format::lowercase(&format!("{} {} {}", r.key, r.qualname, r.location));
            words.iter().zip(&op_hits).all(|(w, hits)| {
                hay.contains(w.as_str()) || r.ops.iter().any(|&op| hits.get(op as usize).copied().unwrap_or(false))
            })
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
mod tests;
