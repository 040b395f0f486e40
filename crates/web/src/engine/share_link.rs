//! Share links in the engine: opening one and making one of what is loaded, made shorter from
//! fewer functions when it would be too long for a pull-request comment, with the
//! [`Compression`] the session was given. The link format is `specdiff_core::share`'s.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use specdiff_core::model::Dump;
use specdiff_core::share::{self, ShareNote, SharePayload};

use super::load::side_info;
use super::{Run, Session};
use crate::format::grouped;
use crate::model::*;
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
                                    "share link: {} of {} code objects (the changed ones); leaves out {} changed function(s)",
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
    /// anew.
    pub(super) async fn share(&self, focus: Option<&str>) -> Response {
        let encode = |p: SharePayload| {
            let packed = self.compression.deflate(share::body(&p));
            async move { packed.await.map(|z| share::pack(&z)) }
        };
        let base = self.run(Side::Base).and_then(|r| r.dump.clone());
        let head = self.run(Side::Head).and_then(|r| r.dump.clone());
        if base.is_none() && head.is_none() {
            return Response::Failed { side: None, message: "nothing to share: load a dump first".into() };
        }
        // A view opened from a link passes on the sender's totals, numbers and omissions.
        let opened = self.opened.as_ref();
        let totals = match opened {
            Some(n) => (n.base_code_total, n.head_code_total),
            None => (base.as_ref().map_or(0, |d| d.code.len()), head.as_ref().map_or(0, |d| d.code.len())),
        };
        let left_before = opened.map_or(0, |n| n.left_out);
        let note = |reduced: bool, left_out: usize| ShareNote {
            base_code_total: totals.0,
            head_code_total: totals.1,
            reduced: reduced || opened.is_some_and(|n| n.reduced),
            comment: focus.map(str::to_string),
            // Not written by the wasm (see `ShareNote::summary`).
            summary: None,
            left_out: left_before + left_out,
            redacted: opened.is_some_and(|n| n.redacted),
            // The runs of a link with trimmed functions travel again as they came (below).
            trimmed: opened.map(|n| n.trimmed.clone()).unwrap_or_default(),
        };
        // Whole, but through `reduce` as the CLI's: what no view reads is left out.
        let whole = |d: &Option<Rc<Dump>>| keep_only(d, None);
        let full = SharePayload { base: whole(&base), head: whole(&head), note: note(false, 0) };
        let payload = match encode(full).await {
            Ok(p) => p,
            Err(e) => return Response::Failed { side: None, message: format!("share link: {e}") },
        };
        // A link's trimmed functions are indices into its runs: reducing them again would
        // renumber them (the link fitted the sender's cap already).
        if payload.len() <= share::TYPICAL_CHARS || opened.is_some_and(|n| !n.trimmed.is_empty()) {
            return Response::ShareLink { payload, note: None };
        }
        // Too long for a PR comment: keep the changed functions (for one run: the ranked ones)
        // and the focused one, halving the list until the link fits.
        let Some(a) = &self.analysis else {
            return Response::ShareLink { payload, note: None };
        };
        let mut wanted: Vec<&str> = a
            .summary
            .rows
            .iter()
            .filter(|r| {
                if matches!(a.mode, Mode::Single(_)) {
                    r.score > 0.0 && r.hot > 0.0
                } else {
                    r.is_changed() && r.status != Class::Added && r.status != Class::Removed
                }
            })
            .map(|r| r.key.as_str())
            .collect();
        let all = wanted.len();
        wanted.truncate(400);
        loop {
            // Code objects to keep, per side (one run: both entries index that run's dump).
            let mut keep: [Vec<bool>; 2] = Default::default();
            let mut mark = |side: usize, i: Option<u32>| {
                if let Some(i) = i.map(|i| i as usize) {
                    let v = &mut keep[side];
                    if v.len() <= i {
                        v.resize(i + 1, false);
                    }
                    v[i] = true;
                }
            };
            for k in wanted.iter().copied().chain(focus) {
                if let Some(&(b, h)) = a.entries.get(k) {
                    mark(0, b);
                    mark(1, h);
                }
            }
            let reduce = |d: &Option<Rc<Dump>>, keep: &[bool]| keep_only(d, Some(keep));
            let (rb, rh) = if a.mode == Mode::Single(Side::Head) {
                (None, reduce(&head, &keep[0]))
            } else {
                (reduce(&base, &keep[0]), reduce(&head, &keep[1]))
            };
            let kept = rh.as_ref().or(rb.as_ref()).map_or(0, |d| d.code.len());
            let p = SharePayload { base: rb, head: rh, note: note(true, all - wanted.len()) };
            let payload = match encode(p).await {
                Ok(p) => p,
                Err(e) => return Response::Failed { side: None, message: format!("share link: {e}") },
            };
            if payload.len() <= share::DEFAULT_CAP_CHARS || wanted.is_empty() {
                let mut text = format!(
                    "reduced to {} of {} code objects (the changed ones) to keep the link short",
                    grouped(kept as u64),
                    grouped(totals.0.max(totals.1) as u64)
                );
                if payload.len() > share::COMMENT_FRIENDLY_CHARS {
                    text.push_str(&format!("; still {} characters: too long for a GitHub comment", grouped(payload.len() as u64)));
                }
                return Response::ShareLink { payload, note: Some(text) };
            }
            let n = wanted.len() / 2;
            wanted.truncate(n);
        }
    }
}

/// `share::reduce` of `dump` to the code objects `keep` marks (all of them for `None`). One
/// closure type for both: each is a copy of `reduce` in the wasm.
fn keep_only(dump: &Option<Rc<Dump>>, keep: Option<&[bool]>) -> Option<Dump> {
    dump.as_ref().map(|d| share::reduce(d, |i, _| keep.is_none_or(|k| k.get(i).copied().unwrap_or(false))))
}
