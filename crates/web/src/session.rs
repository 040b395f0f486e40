//! The session: the page's engine, which holds the loaded runs and answers [`Request`]s with [`Response`]s. Pure Rust with
//! no browser calls, so it runs in the web worker, on the main thread as a fallback, and in
//! native unit tests alike. Reading, normalizing, matching and classifying are `specdiff_core`'s
//! work; [`crate::analysis`] turns their results into view models.
//!
//! Every request goes through [`Session::handle`]: loading files (`load.rs`), share links
//! (`share_link.rs`, compressed by the [`Compression`] the session was made with) and the
//! stats table (`stats_table.rs`) live beside this file.

use std::rc::Rc;

use specdiff_core::model::Dump;
use specdiff_core::format::ReadLimits;
use specdiff_core::model::Stats;
use specdiff_core::report::DiffReport;
use specdiff_core::share::{ShareNote, TrimmedFunction};
#[cfg(test)]
use specdiff_core::share;

use crate::analysis::{self, detail, digest, Entries, Pair};
use crate::view_model::*;
use crate::protocol::{Request, Response};

mod load;
mod share_link;
mod stats_table;

pub use load::{plan_load, InputFile, Plan};

#[cfg(not(target_arch = "wasm32"))]
pub use share_link::CoreCompression;
pub use share_link::{Compression, Pending};

/// The browser's input limit: 256 MB per file after decompression. A whole-program dump of ~7k
/// code objects is ~10–30 MB, and a tab holding two parsed dumps of the maximum size would need
/// a few GB, which is about what browsers give one tab.
pub const BROWSER_LIMITS: ReadLimits = ReadLimits { max_bytes: 256 * 1024 * 1024 };

/// Said above the listing of a function a share link carries trimmed.
const TRIMMED: &str = "this share link carries only the changed sites of this function and one row of code around each; its specialized shares are the sender's, counted over the whole function";

/// One loaded run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The label shown on its pane.
    pub info: SideInfo,
    /// The dump, unless only stats were loaded.
    pub dump: Option<Rc<Dump>>,
    /// Raw pystats loaded next to it.
    pub stats: Option<Stats>,
    /// Stable key of every code object (same order as `dump.code`).
    keys: Vec<String>,
}

impl Run {
    fn new(info: SideInfo, dump: Option<Dump>, stats: Option<Stats>) -> Run {
        let keys = dump.as_ref().map(analysis::code_keys).unwrap_or_default();
        Run { info, dump: dump.map(Rc::new), stats, keys }
    }

    /// Statistics: raw files loaded for this side win over the dump's own.
    fn stats(&self) -> Option<&Stats> {
        self.stats.as_ref().or(self.dump.as_ref().and_then(|d| d.pystats.as_ref()))
    }
}

/// What the loaded runs give: the core's matching/diff session, and the view models built
/// from it (kept until the runs change).
struct Analysis {
    pair: Pair,
    /// The diff report of the two runs (`Diff` only), kept for share links.
    report: Option<DiffReport>,
    /// One run (coverage, `Single`) or two (`Diff`); never `Empty`.
    mode: Mode,
    entries: Entries,
    summary: Summary,
}

/// The engine state.
pub struct Session {
    sides: [Option<Run>; 2],
    generation: u64,
    analysis: Option<Analysis>,
    /// Makes and opens share links (the browser's compressor in the viewer).
    compression: Box<dyn Compression>,
    /// The note of the share link the loaded runs came from, until other runs are loaded.
    opened: Option<ShareNote>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("sides", &self.sides).field("generation", &self.generation).finish()
    }
}

impl Session {
    /// An empty session whose share links go through `compression`.
    pub fn new(compression: Box<dyn Compression>) -> Session {
        Session { sides: Default::default(), generation: 0, analysis: None, compression, opened: None }
    }

    /// The run on `side`.
    pub fn run(&self, side: Side) -> Option<&Run> {
        self.sides[side.index()].as_ref()
    }

    /// Handles one request; `files` are the files attached to a `Load`. Every response,
    /// progress included, goes to `out` as soon as it is known. Only share links wait (for
    /// the compressor); everything else is done in the first poll.
    pub async fn handle(&mut self, request: Request, files: Vec<InputFile>, out: &mut dyn FnMut(Response)) {
        match request {
            Request::Load { side } => {
                self.opened = None;
                self.load(side, files, out);
                self.refresh(out);
            }
            Request::OpenShare { payload } => {
                self.open_share(&payload, out).await;
                self.refresh(out);
            }
            Request::Clear { side } => {
                self.opened = None;
                self.sides[side.index()] = None;
                out(Response::Cleared { side });
                self.refresh(out);
            }
            Request::Swap => {
                self.opened = None;
                self.sides.swap(0, 1);
                for side in Side::BOTH {
                    match &self.sides[side.index()] {
                        Some(r) => out(Response::Loaded { side, info: r.info.clone() }),
                        None => out(Response::Cleared { side }),
                    }
                }
                self.refresh(out);
            }
            Request::Function { key } => out(match self.function(&key) {
                Some(d) => Response::Function(Box::new(d)),
                None => Response::Failed { side: None, message: format!("no function {key:?} in the loaded runs") },
            }),
            Request::Share { focus, redact } => out(self.share(focus.as_deref(), redact).await),
            Request::Stats => out(Response::Stats(Box::new(self.stats_table()))),
        }
    }

    /// Recomputes the analysis of what is loaded and sends the summary.
    fn refresh(&mut self, out: &mut dyn FnMut(Response)) {
        self.generation += 1;
        self.analysis = None;
        let dumps: Vec<(Side, Rc<Dump>)> = Side::BOTH.into_iter().filter_map(|s| Some((s, self.run(s)?.dump.clone()?))).collect();
        let has_stats = Side::BOTH.iter().any(|&s| self.run(s).is_some_and(|r| r.stats().is_some()));
        let mut summary = Summary::empty();
        summary.generation = self.generation;
        summary.has_stats = has_stats;
        match dumps.as_slice() {
            [] => {
                if has_stats {
                    summary.warnings.push("only pystats loaded: see the stats tab".into());
                }
            }
            [(side, d)] => {
                out(Response::Progress { side: None, label: "measuring coverage".into(), fraction: 0.8 });
                let pair = Pair::new(d.clone(), d.clone());
                let keys = &self.run(*side).unwrap().keys;
                summary.mode = Mode::Single(*side);
                let entries = digest::single_summary(&pair, keys, *side, &mut summary);
                self.analysis = Some(Analysis { pair, report: None, mode: summary.mode, entries, summary: Summary::empty() });
            }
            [(_, b), (_, h)] => {
                out(Response::Progress { side: None, label: "matching and classifying".into(), fraction: 0.8 });
                let sent_explanations = self.opened.as_ref().map(|n| n.explained.clone()).unwrap_or_default();
                let mut pair = Pair::with_sent(b.clone(), h.clone(), sent_explanations);
                summary.mode = Mode::Diff;
                let (bk, hk) = (&self.run(Side::Base).unwrap().keys, &self.run(Side::Head).unwrap().keys);
                let sent = self.opened.as_ref().and_then(|n| n.summary.as_ref());
                let trimmed = self.trimmed();
                let report = pair.report();
                let entries = digest::diff_summary(&mut pair, &report, bk, hk, (sent, &trimmed), &mut summary);
                self.analysis = Some(Analysis { pair, report: Some(report), mode: summary.mode, entries, summary: Summary::empty() });
            }
            _ => unreachable!("two sides at most"),
        }
        if let Some(a) = &mut self.analysis {
            crate::analysis::opnames::index(&mut summary, &a.entries, (a.pair.base(), a.pair.head()));
            a.summary = summary.clone();
        }
        out(Response::Summary(Box::new(summary)));
    }

    /// The overview and function list of what is loaded.
    pub fn summary(&self) -> Summary {
        match &self.analysis {
            Some(a) => a.summary.clone(),
            None => {
                let mut s = Summary::empty();
                s.generation = self.generation;
                s.has_stats = Side::BOTH.iter().any(|&s| self.run(s).is_some_and(|r| r.stats().is_some()));
                s
            }
        }
    }

    /// The function view of `key`.
    pub fn function(&mut self, key: &str) -> Option<FunctionDetail> {
        let a = self.analysis.as_mut()?;
        let &(b, h) = a.entries.get(key)?;
        let rows = a.pair.rows(b, h);
        let mut detail = detail::detail(&rows, key, (a.pair.base(), a.pair.head()), a.mode);
        if self.trimmed().iter().any(|t| (Some(t.base_code), Some(t.head_code)) == (b, h)) {
            detail.explanations.insert(0, TRIMMED.into());
        }
        Some(detail)
    }

    /// The functions the opened share link carries trimmed.
    fn trimmed(&self) -> Vec<TrimmedFunction> {
        self.opened.as_ref().map(|n| specdiff_core::share::trimmed_functions(&n.trimmed)).unwrap_or_default()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn dump_json(qualnames: &[&str], specialized: bool, started: &str) -> Vec<u8> {
        let mut strings = vec!["".to_string(), "__main__".into(), "x".into(), "def f(p):".into(), "    return p.x".into()];
        let mut code = Vec::new();
        for (i, q) in qualnames.iter().enumerate() {
            strings.push(q.to_string());
            let s = strings.len() - 1;
            code.push(serde_json::json!({
                "file": 0, "module": 1, "qualname": s, "name": s, "first_line": 1 + i as u32 * 10,
                "kind": "function", "parent": null, "ran": true, "samples": [1, 2],
                "line_samples": [[2, 1]],
                "instructions": [
                    [0, 0, 0, 0, 1, null, []],
                    [2, if specialized { 2 } else { 1 }, 0, 2, 2, null, [if specialized { 832 } else { 34 }, 0, 0], if specialized { [52, 0] } else { [2, 2] }]
                ]
            }));
        }
        serde_json::to_vec(&serde_json::json!({
            "format": "specdiff-dump", "version": 1, "generator": "test",
            "python": {"version": "3.12.1", "version_info": [3, 12, 1, "final", 0], "implementation": "cpython",
                       "executable": "python3", "platform": "linux-x86_64", "pystats_build": false},
            "run": {"argv": ["prog.py", "--fast"], "target": {"kind": "script", "value": "prog.py"}, "cwd": "/",
                    "started": started, "duration_s": 0.5, "exit_status": 0, "exception": null,
                    "sampler": {"mode": "thread", "interval_ms": 1.0, "samples": 4, "note": null},
                    "filters": {"include": [], "exclude": [], "include_unrun": false}},
            "strings": strings,
            "ops": [["RESUME", "RESUME", false, null], ["LOAD_ATTR", "LOAD_ATTR", false, "adaptive"],
                    ["LOAD_ATTR_SLOT", "LOAD_ATTR", true, "adaptive"]],
            "files": [{"path": "/src/prog.py", "module": "__main__", "source": [[1, [3, 4]]]}],
            "code": code,
            "pystats": null
        }))
        .unwrap()
    }

    /// A session as the tests use it: share links made and opened by the core.
    pub(crate) fn session() -> Session {
        Session::new(Box::new(CoreCompression))
    }

    /// Runs a request; every response also goes through its binary form (as to the page).
    pub(crate) fn collect(session: &mut Session, req: Request, files: Vec<InputFile>) -> Vec<Response> {
        use std::future::Future;
        use std::task::{Context, Poll, Waker};
        assert_eq!(Request::from_bytes(&req.to_bytes()).as_ref(), Some(&req));
        let mut v = Vec::new();
        // The core's compressor is always ready, so one poll handles the whole request.
        let handled = std::pin::pin!(session.handle(req, files, &mut |r| v.push(r))).poll(&mut Context::from_waker(Waker::noop()));
        assert!(matches!(handled, Poll::Ready(())), "a request waited with the core's compressor");
        for r in &v {
            assert_eq!(Response::from_bytes(&r.to_bytes()).as_ref(), Some(r));
        }
        v
    }

    fn summary_of(v: &[Response]) -> &Summary {
        v.iter()
            .find_map(|r| match r {
                Response::Summary(s) => Some(&**s),
                _ => None,
            })
            .expect("a summary")
    }

    #[test]
    fn plan_assigns_sides() {
        let d = |n: &str| InputFile::new(n, dump_json(&["f"], true, "2026-01-01T00:00:00Z"));
        let t = |n: &str| InputFile::new(n, b"opcode[1].execution_count : 5\n".to_vec());
        assert!(matches!(plan_load(None, vec![d("a.json")], [false, false], [false, false]), Plan::Sides(v) if v[0].0 == Side::Base));
        assert!(matches!(plan_load(None, vec![d("a.json")], [true, false], [false, false]), Plan::Sides(v) if v[0].0 == Side::Head));
        assert!(matches!(plan_load(None, vec![d("a.json")], [true, true], [false, false]), Plan::Sides(v) if v[0].0 == Side::Head));
        assert!(matches!(plan_load(None, vec![d("a.json"), d("b.json")], [true, true], [false, false]), Plan::Pair(..)));
        assert!(matches!(plan_load(None, vec![t("1.txt"), t("2.txt")], [false, false], [false, false]), Plan::Sides(v) if v[0].1.len() == 2));
        assert!(matches!(plan_load(None, vec![d("a"), d("b"), d("c")], [false, false], [false, false]), Plan::Refused(None, m) if m.contains("at most two")));
        assert!(matches!(plan_load(Some(Side::Head), vec![d("a"), d("b")], [false, false], [false, false]), Plan::Refused(Some(Side::Head), _)));
        assert!(matches!(plan_load(Some(Side::Head), vec![d("a"), t("s.txt")], [false, false], [false, false]), Plan::Sides(v) if v[0].0 == Side::Head && v[0].1.len() == 2));
    }

    #[test]
    fn one_dump_gives_coverage() {
        let mut s = session();
        let v = collect(&mut s, Request::Load { side: None }, vec![InputFile::new("run.json", dump_json(&["f", "g"], false, "2026-01-01T00:00:00Z"))]);
        assert!(matches!(&v[0], Response::Progress { .. }));
        let info = v.iter().find_map(|r| match r { Response::Loaded { side: Side::Base, info } => Some(info), _ => None }).unwrap();
        assert_eq!(info.python, "CPython 3.12.1");
        assert_eq!(info.command, "prog.py --fast");
        assert_eq!(info.date, "2026-01-01 00:00 UTC");
        let sum = summary_of(&v);
        assert_eq!(sum.mode, Mode::Single(Side::Base));
        assert_eq!(sum.rows.len(), 2);
        assert_eq!(sum.rows[0].before, Some(Share { specialized: 0, sites: 1 }));
        assert!(sum.overview.families.iter().any(|f| f.family == "LOAD_ATTR"));
        let d = s.function("__main__:f").unwrap();
        assert!(matches!(&d.rows[0], DetailRow::Source { line: 1, text, .. } if text == "def f(p):"));
        let site = d.rows.iter().find_map(|r| match r { DetailRow::Ins { base: Some(i), .. } if i.site => Some(i), _ => None }).unwrap();
        assert_eq!(site.op, "LOAD_ATTR");
        // The generic side ran and failed once (word 34 = (2, 2)): a `lost` site in a diff.
        assert_eq!(site.counter.as_deref(), Some("1 fail"));
        assert!(site.tip.as_deref().unwrap().contains("1 failed attempt to specialize"), "{:?}", site.tip);
    }

    #[test]
    fn hostile_names_and_source_are_shown_inert() {
        let evil = "f\u{202e}gol.py\x1b[2J";
        let shown = "f\\u202egol.py\\x1b[2J";
        let mut s = session();
        let v = collect(&mut s, Request::Load { side: None }, vec![
            InputFile::new("base.json", dump_json(&[evil], true, "2026-01-01T00:00:00Z")),
            InputFile::new("head.json", dump_json(&[evil], false, "2026-01-02T00:00:00Z")),
        ]);
        let sum = summary_of(&v);
        let key = format!("__main__:{evil}");
        let row = sum.rows.iter().find(|r| r.key == key).unwrap();
        assert_eq!(row.qualname, shown);
        assert_eq!(sum.overview.top[0].title, shown);
        let d = s.function(&key).unwrap();
        assert_eq!(d.title, shown);
    }

    #[test]
    fn bad_file_keeps_the_other_side() {
        let mut s = session();
        collect(&mut s, Request::Load { side: Some(Side::Base) }, vec![InputFile::new("a.json", dump_json(&["f"], true, "2026-01-01T00:00:00Z"))]);
        let v = collect(&mut s, Request::Load { side: Some(Side::Head) }, vec![InputFile::new("b.json", b"{\"format\": \"specdiff-dump\", \"version\": 1".to_vec())]);
        let msg = v.iter().find_map(|r| match r { Response::Failed { side: Some(Side::Head), message } => Some(message), _ => None }).unwrap();
        assert_eq!(msg, "b.json: truncated: the JSON ends early (line 1)");
        assert!(s.run(Side::Base).is_some());
        assert_eq!(summary_of(&v).mode, Mode::Single(Side::Base));
        let v = collect(&mut s, Request::Load { side: Some(Side::Head) }, vec![InputFile::new("c.json", b"hello".to_vec())]);
        assert!(v.iter().any(|r| matches!(r, Response::Failed { message, .. } if message == "c.json: not JSON: it does not start with '{'")));
    }

    #[test]
    fn pair_orders_by_name_then_date() {
        let mut s = session();
        let late = InputFile::new("x.json", dump_json(&["f"], false, "2026-02-01T00:00:00Z"));
        let early = InputFile::new("y.json", dump_json(&["f"], true, "2026-01-01T00:00:00Z"));
        let v = collect(&mut s, Request::Load { side: None }, vec![late, early]);
        assert_eq!(s.run(Side::Base).unwrap().info.file, "y.json");
        assert_eq!(summary_of(&v).mode, Mode::Diff);
        let head = InputFile::new("head.json", dump_json(&["f"], false, "2026-01-01T00:00:00Z"));
        let base = InputFile::new("base.json", dump_json(&["f"], true, "2026-02-01T00:00:00Z"));
        collect(&mut s, Request::Load { side: None }, vec![head, base]);
        assert_eq!(s.run(Side::Base).unwrap().info.file, "base.json");
        collect(&mut s, Request::Swap, vec![]);
        assert_eq!(s.run(Side::Base).unwrap().info.file, "head.json");
    }

    #[test]
    fn two_dumps_give_the_core_diff() {
        let mut s = session();
        let v = collect(&mut s, Request::Load { side: None }, vec![
            InputFile::new("base.json", dump_json(&["f", "g"], true, "2026-01-01T00:00:00Z")),
            InputFile::new("head.json", dump_json(&["f", "g"], false, "2026-01-02T00:00:00Z")),
        ]);
        let sum = summary_of(&v);
        assert_eq!(sum.mode, Mode::Diff);
        let f = sum.rows.iter().find(|r| r.key == "__main__:f").unwrap();
        assert_eq!(f.count(ChangeKind::Lost), 1);
        assert_eq!(f.status, ChangeKind::Lost);
        assert_eq!((f.before, f.after), (Some(Share { specialized: 1, sites: 1 }), Some(Share { specialized: 0, sites: 1 })));
        assert!(sum.overview.class_totals.contains(&(ChangeKind::Lost, 2)));
        assert_eq!(sum.overview.top.len(), 2);
        assert!(sum.overview.families.iter().any(|b| b.family == "LOAD_ATTR" && b.base.unwrap().specialized == 2));
        let d = s.function("__main__:f").unwrap();
        assert_eq!(d.mode, Mode::Diff);
        let lost = d.rows.iter().find_map(|r| match r {
            DetailRow::Ins { base: Some(b), head: Some(h), class: Some(ChangeKind::Lost), .. } => Some((b.op.clone(), h.op.clone())),
            _ => None,
        });
        assert_eq!(lost, Some(("LOAD_ATTR_SLOT".to_string(), "LOAD_ATTR".to_string())));
        assert!(matches!(&d.rows[0], DetailRow::Source { line: 1, .. }));
        // The same view through a request (and its binary form), and the stats table.
        let v = collect(&mut s, Request::Function { key: "__main__:f".into() }, vec![]);
        assert!(matches!(&v[..], [Response::Function(f)] if **f == d));
        let v = collect(&mut s, Request::Stats, vec![]);
        assert!(matches!(&v[..], [Response::Stats(_)]));
        // Same dump twice: nothing changed.
        let v = collect(&mut s, Request::Load { side: Some(Side::Head) }, vec![InputFile::new("b2.json", dump_json(&["f", "g"], true, "2026-01-02T00:00:00Z"))]);
        assert!(summary_of(&v).rows.iter().all(|r| !r.is_changed()));
    }

    #[test]
    fn a_cli_link_shows_the_senders_numbers_and_what_it_leaves_out() {
        // The recorded demo pair (real CPython 3.11 runs), linked by the CLI's code with a cap
        // that leaves functions out: the overview shows the sender's whole-run numbers, not
        // the kept code objects', and each run's card says how many functions were left out.
        let read = |f: &str| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f;
            specdiff_core::read_dump(f, &std::fs::read(path).unwrap(), ReadLimits::default()).unwrap()
        };
        let (base, head) = (read("base.json"), read("head.json"));
        let report = specdiff_core::diff_dumps(&base, &head, &Default::default()).unwrap();
        let full = specdiff_core::share::link_payload(&base, &head, &report, share::LinkOptions { cap: usize::MAX, redact: false }).0;
        let (payload, note) = (1..10)
            .rev()
            .map(|tenths| specdiff_core::share::link_payload(&base, &head, &report, share::LinkOptions { cap: full.len() * tenths / 10, redact: false }))
            .find(|(_, n)| n.left_out > 0)
            .expect("some cap leaves a function out");
        let mut s = session();
        let v = collect(&mut s, Request::OpenShare { payload }, vec![]);
        let sum = summary_of(&v);
        let metric = |label: &str| sum.overview.metrics.iter().find(|m| m.label == label).unwrap().clone();
        let objects = metric("code objects");
        assert_eq!((objects.base.unwrap(), objects.head.unwrap()), (base.code.len().to_string(), head.code.len().to_string()));
        assert!(s.run(Side::Head).unwrap().dump.as_ref().unwrap().code.len() < head.code.len());
        let sites = metric("specialization sites");
        assert_eq!(sites.head.unwrap(), report.summary.head.sites.to_string());
        let card = s.run(Side::Head).unwrap().info.note.clone().unwrap();
        assert!(card.contains(&format!("leaves out {} function(s) whose specialization changed", note.left_out)), "{card}");
        // Its functions travel trimmed: their rows show the sender's whole-function shares,
        // and their listing says it is trimmed.
        let trimmed = share::trimmed_functions(&note.trimmed);
        assert!(!trimmed.is_empty(), "the demo's changed functions have unchanged code to leave out");
        let entries = s.analysis.as_ref().unwrap().entries.clone();
        for t in trimmed {
            let key = entries.iter().find(|(_, &codes)| codes == (Some(t.base_code), Some(t.head_code))).unwrap().0.clone();
            let row = sum.rows.iter().find(|r| r.key == key).unwrap();
            assert_eq!((row.before, row.after), (Some(t.before.into()), Some(t.after.into())), "{key}");
            assert_eq!(s.function(&key).unwrap().explanations.first().map(String::as_str), Some(TRIMMED), "{key}");
        }
        // Other runs loaded afterwards forget the link's numbers.
        let v = collect(&mut s, Request::Swap, vec![]);
        let objects = summary_of(&v).overview.metrics.iter().find(|m| m.label == "code objects").unwrap().clone();
        assert_ne!(objects.head.unwrap(), base.code.len().to_string());
    }

    #[test]
    fn the_share_button_makes_the_clis_link() {
        // The page's button and `specdiff diff --link` build a diff's link with the same code
        // (`share::LinkBuilder`, `share::Fitting`, the same caps); natively the session
        // compresses as the CLI does, so the two payloads are the same string. Twice: the
        // recorded demo pair (under 8,192 characters whole: both runs whole) and 1,500 changed
        // functions of six sites each (past the cap: the most important kept, trimmed to
        // their change, the rest counted), both with the sender's numbers.
        let read = |f: &str| std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f).unwrap();
        let many: Vec<String> = (0..1500).map(|i| format!("f{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let longer = |bytes: Vec<u8>| {
            let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            for c in v["code"].as_array_mut().unwrap() {
                let ins = c["instructions"].as_array_mut().unwrap();
                ins.extend((0..4).map(|k| serde_json::json!([4 + 2 * k, 1, 0, 2, 2, null, [34, 0, 0], [2, 2]])));
            }
            serde_json::to_vec(&v).unwrap()
        };
        let pairs = [
            (read("base.json"), read("head.json")),
            (
                longer(dump_json(&names, true, "2026-01-01T00:00:00Z")),
                longer(dump_json(&names, false, "2026-01-02T00:00:00Z")),
            ),
        ];
        for (i, (b, h)) in pairs.into_iter().enumerate() {
            let dump = |bytes: &[u8]| specdiff_core::read_dump("x.json", bytes, ReadLimits::default()).unwrap();
            let (base, head) = (dump(&b), dump(&h));
            let report = specdiff_core::diff_dumps(&base, &head, &Default::default()).unwrap();
            let mut s = session();
            collect(&mut s, Request::Load { side: None }, vec![InputFile::new("base.json", b), InputFile::new("head.json", h)]);
            // The share box's switch is the CLI's --redact: the same link again.
            for redact in [true, false] {
                let (cli, _) = share::link_payload(&base, &head, &report, share::LinkOptions { cap: share::DEFAULT_CAP_CHARS, redact });
                let v = collect(&mut s, Request::Share { focus: None, redact }, vec![]);
                let Response::ShareLink { payload, note: Some(holds), redacted } = &v[0] else { panic!("{v:?}") };
                assert!(payload == &cli, "pair {i}, redact {redact}: the button's link differs from the CLI's");
                assert_eq!(*redacted, redact);
                // The box says what the link holds before it is copied.
                let said = if redact { "; no source lines, file paths cut to their package" } else { "; source lines and full file paths" };
                assert!(holds.contains(said) && holds.contains(["both runs whole", "of 1,500 functions whose specialization changed, trimmed"][i]), "{holds}");
            }
            let (_, note) = share::link_payload(&base, &head, &report, share::LinkOptions { cap: share::DEFAULT_CAP_CHARS, redact: false });
            assert_eq!(note.summary, Some(share::shared_summary(&report)), "pair {i}");
            // The demo fits whole; of the 1,500 some are left out, the rest trimmed.
            let trimmed = !share::trimmed_functions(&note.trimmed).is_empty();
            assert_eq!((i, note.reduced, note.left_out > 0, trimmed), (i, i == 1, i == 1, i == 1), "{note:?}");
        }
    }

    #[test]
    fn share_round_trip_through_the_session() {
        let mut s = session();
        collect(&mut s, Request::Load { side: None }, vec![
            InputFile::new("base.json", dump_json(&["f", "g"], true, "2026-01-01T00:00:00Z")),
            InputFile::new("head.json", dump_json(&["f", "g"], false, "2026-01-02T00:00:00Z")),
        ]);
        let v = collect(&mut s, Request::Share { focus: Some("__main__:f".into()), redact: false }, vec![]);
        let Response::ShareLink { payload, .. } = &v[0] else { panic!("{v:?}") };
        let mut t = session();
        let v = collect(&mut t, Request::OpenShare { payload: payload.clone() }, vec![]);
        assert_eq!(summary_of(&v).mode, Mode::Diff);
        assert_eq!(t.run(Side::Head).unwrap().info.file, "head (share link)");
        let v = collect(&mut t, Request::OpenShare { payload: "s1.@@".into() }, vec![]);
        assert!(v.iter().any(|r| matches!(r, Response::Failed { side: None, message } if message.starts_with("share link: "))));
    }
}
