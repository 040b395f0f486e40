//! Share links in the engine: opening one and making one of what is loaded, made shorter from
//! fewer functions when it would be too long for a pull-request comment, with the
//! [`Compression`] the session was given. The link format is `specdiff_core::share`'s.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use specdiff_core::model::Dump;
use specdiff_core::report::DiffOptions;
use specdiff_core::share::{self, Fitting, LinkBuilder, ShareNote, SharePayload};

use super::load::side_info;
use super::{Analysis, Run, Session};
use crate::format::grouped;
use crate::view_model::*;
use crate::protocol::Response;

/// A future of the compressor (the browser's streams finish later; the core's at once).
pub type Pending<T> = Pin<Box<dyn Future<Output = T>>>;

/// The compression of share links. The viewer's wasm carries no deflater or inflater: the
/// bridge passes the browser's `CompressionStream`/`DecompressionStream` in (see
/// `bridge.rs`); native builds use the core's ([`CoreCompression`]). Any DEFLATE decodes the
/// same, so links made by either open with both.
pub trait Compression {
    /// Raw DEFLATE of a link's body (`share::body`); `Err`: why not, one line.
    fn deflate(&self, body: Vec<u8>) -> Pending<Result<Vec<u8>, String>>;
    /// A link payload opened (unpacked, inflated, read): the runs it carries, or the one-line
    /// error `share::decode` gives for it.
    fn decode(&self, payload: &str) -> Pending<Result<SharePayload, String>>;
}

/// The core's compression (`share::deflate` / `share::decode`): native builds only, where
/// the core's `share-flate` is on.
#[cfg(not(target_arch = "wasm32"))]
pub struct CoreCompression;

#[cfg(not(target_arch = "wasm32"))]
impl Compression for CoreCompression {
    fn deflate(&self, body: Vec<u8>) -> Pending<Result<Vec<u8>, String>> {
        Box::pin(std::future::ready(Ok(share::deflate(&body))))
    }

    fn decode(&self, payload: &str) -> Pending<Result<SharePayload, String>> {
        Box::pin(std::future::ready(share::decode(payload, super::BROWSER_LIMITS).map_err(|e| e.to_string())))
    }
}

impl Session {
    /// Opens a share link: its runs replace what is loaded.
    pub(super) async fn open_share(&mut self, payload: &str, out: &mut dyn FnMut(Response)) {
        out(Response::Progress { side: None, label: "opening the share link".into(), fraction: 0.2 });
        match self.compression.decode(payload).await {
            Ok(p) => {
                let note = p.note;
                for (side, dump, total) in [(Side::Base, p.base, note.base_code_total), (Side::Head, p.head, note.head_code_total)] {
                    match dump {
                        Some(d) => {
                            let mut info = side_info(&format!("{} (share link)", side.name()), Some(&d), &[]);
                            if note.reduced {
                                // What the link leaves out, said on each run's card.
                                info.note = Some(format!(
                                    "share link: {} of {} code objects (the changed ones); leaves out {} function(s) whose specialization changed",
                                    grouped(d.code.len() as u64),
                                    grouped(total as u64),
                                    note.left_out,
                                ));
                            }
                            let run = Run::new(info, Some(d), None);
                            out(Response::Loaded { side, info: run.info.clone() });
                            self.sides[side.index()] = Some(run);
                        }
                        None => {
                            self.sides[side.index()] = None;
                            out(Response::Cleared { side });
                        }
                    }
                }
                // Kept until other runs are loaded: `refresh` shows its summary and omissions.
                self.opened = Some(note);
            }
            Err(message) => out(Response::Failed { side: None, message }),
        }
    }

    /// A share link of what is loaded. Asynchronous because the browser's compressor is;
    /// links too long for a comment are made again from fewer functions, each try compressed
    /// anew. A diff's link is `share::LinkBuilder`'s, as the CLI's. (One function with one
    /// compressor call per kind of try: each `async` call site is a state machine in the wasm.)
    pub(super) async fn share(&self, focus: Option<&str>, redact: bool) -> Response {
        // Redaction changes no code: the runs are picked and trimmed as they are, and each
        // payload is redacted as it is encoded (as the CLI's `--redact`).
        let encode = |p: SharePayload| {
            let p = if redact { share::redacted(p) } else { p };
            let packed = self.compression.deflate(share::body(&p));
            async move { packed.await.map(|z| share::pack(&z)).map_err(|e| Response::Failed { side: None, message: format!("share link: {e}") }) }
        };
        let base = self.run(Side::Base).and_then(|r| r.dump.clone());
        let head = self.run(Side::Head).and_then(|r| r.dump.clone());
        if base.is_none() && head.is_none() {
            return Response::Failed { side: None, message: "nothing to share: load a dump first".into() };
        }
        let comment = focus.map(str::to_string);
        let whole = |d: &Option<Rc<Dump>>| keep_only(d, None);
        // A diff is linked as the CLI links it (its report, the core's builder); a view opened
        // from a link passes on the same runs with the sender's note (below): its numbers,
        // omissions and trimmed functions stay true of them.
        let options = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
        let mut builder = match (&self.analysis, &base, &head) {
            (Some(Analysis { report: Some(report), .. }), Some(b), Some(h)) if self.opened.is_none() => {
                Some(LinkBuilder::new(b, h, report, &options))
            }
            _ => None,
        };
        let totals = (base.as_ref().map_or(0, |d| d.code.len()), head.as_ref().map_or(0, |d| d.code.len()));
        let note = ShareNote { base_code_total: totals.0, head_code_total: totals.1, comment: comment.clone(), ..ShareNote::default() };
        let full = match (&builder, &self.opened) {
            (Some(builder), _) => {
                let mut p = builder.whole();
                p.note.comment = comment.clone();
                p
            }
            (None, Some(opened)) => SharePayload { base: whole(&base), head: whole(&head), note: ShareNote { comment: comment.clone(), ..opened.clone() } },
            (None, None) => SharePayload { base: whole(&base), head: whole(&head), note: note.clone() },
        };
        let payload = match encode(full).await {
            Ok(p) => p,
            Err(failed) => return failed,
        };
        // What the link holds, said in the share box before it is copied.
        let holds = |what: String, payload: String| {
            let mut text = what;
            text.push_str(if redact { "; no source lines, file paths cut to their package" } else { "; source lines and full file paths" });
            if payload.len() > share::COMMENT_FRIENDLY_CHARS {
                text.push_str("; too long for a GitHub comment");
            }
            Response::ShareLink { payload, note: Some(text), redacted: redact }
        };
        let runs = |n: usize| format!("{} code objects", grouped(n as u64));
        let whole_runs = match (&base, &head) {
            (Some(_), Some(_)) => format!("both runs whole ({} and {})", runs(totals.0), runs(totals.1)),
            _ => format!("the run whole ({})", runs(totals.0.max(totals.1))),
        };
        if self.opened.is_some() {
            return holds("the runs of the link this view was opened from".into(), payload);
        }
        if payload.len() <= share::TYPICAL_CHARS {
            return holds(whole_runs, payload);
        }
        let Some(a) = &self.analysis else {
            return holds(whole_runs, payload);
        };
        // Too long for a PR comment. A diff: the most important functions whose specialization
        // changed (`Overview::specialization_changed`), trimmed,
        // as many as fit (`share::Fitting`); one run: its ranked functions (and the focused
        // one), halving the list until the link fits.
        let also: Vec<(u32, u32)> = focus.and_then(|k| a.entries.get(k)).and_then(|&(b, h)| Some((b?, h?))).into_iter().collect();
        let mut wanted: Vec<&str> = a.summary.rows.iter().filter(|r| r.score > 0.0 && r.hot > 0.0).map(|r| r.key.as_str()).collect();
        let all = builder.as_ref().map_or(wanted.len(), LinkBuilder::wanted);
        wanted.truncate(400);
        let mut fitting = Fitting::new(all, share::DEFAULT_CAP_CHARS);
        let mut best: Option<(usize, String)> = None;
        loop {
            let n = match &builder {
                Some(_) => fitting.next(),
                None => (best.is_none()).then_some(wanted.len()),
            };
            let Some(n) = n else { break };
            let p = match &mut builder {
                Some(builder) => {
                    let mut p = builder.trimmed(n, &also);
                    p.note.comment = comment.clone();
                    p
                }
                None => {
                    let mut keep: Vec<bool> = Vec::new();
                    for k in wanted[..n].iter().copied().chain(focus) {
                        if let Some(i) = a.entries.get(k).and_then(|&(b, h)| h.or(b)).map(|i| i as usize) {
                            if keep.len() <= i {
                                keep.resize(i + 1, false);
                            }
                            keep[i] = true;
                        }
                    }
                    let reduce = |d: &Option<Rc<Dump>>| keep_only(d, Some(&keep));
                    let (rb, rh) = if a.mode == Mode::Single(Side::Head) { (None, reduce(&head)) } else { (reduce(&base), reduce(&head)) };
                    SharePayload { base: rb, head: rh, note: ShareNote { reduced: true, left_out: all - n, ..note.clone() } }
                }
            };
            let payload = match encode(p).await {
                Ok(p) => p,
                Err(failed) => return failed,
            };
            let fits = payload.len() <= share::DEFAULT_CAP_CHARS;
            fitting.tried(n, payload.len());
            if builder.is_some() {
                if fits || best.is_none() {
                    best = Some((n, payload));
                }
            } else if fits || n == 0 {
                best = Some((n, payload));
            } else {
                wanted.truncate(n / 2);
            }
        }
        let (kept, payload) = best.unwrap_or((0, payload));
        let what = match builder {
            Some(_) => format!(
                "the {} most important of {} functions whose specialization changed, trimmed to their changes{}, and the run-level numbers",
                grouped(kept as u64),
                grouped(all as u64),
                if also.is_empty() { "" } else { " (the selected one whole)" }
            ),
            None => format!("{} of {} ranked functions", grouped(kept as u64), grouped(all as u64)),
        };
        holds(what, payload)
    }
}

/// `share::reduce` of `dump` to the code objects `keep` marks (all of them for `None`). One
/// closure type for both: each is a copy of `reduce` in the wasm.
fn keep_only(dump: &Option<Rc<Dump>>, keep: Option<&[bool]>) -> Option<Dump> {
    dump.as_ref().map(|d| share::reduce(d, |i, _| keep.is_none_or(|k| k.get(i).copied().unwrap_or(false))))
}
