//! Share links in the engine: opening one (its body inflated by the bridge, or natively by the
//! core) and making one of what is loaded, made shorter from fewer functions when it would be
//! too long for a pull-request comment. The link format is `specdiff_core::share`'s.

use std::rc::Rc;

use specdiff_core::model::Dump;
use specdiff_core::share::{self, ShareNote, SharePayload};

use super::{side_info, InputFile, Run, Session, BROWSER_LIMITS};
use crate::format::count;
use crate::model::*;
use crate::protocol::Response;

impl Session {
    /// `inflated`: the link's body as the bridge inflated it (one file, or its error); without
    /// it the link is decoded here, which only native builds can (see [`decode_share`]).
    pub(super) fn open_share(&mut self, payload: &str, inflated: Vec<InputFile>, out: &mut dyn FnMut(Response)) {
        out(Response::Progress { side: None, label: "opening the share link".into(), fraction: 0.2 });
        let decoded = match inflated.into_iter().next() {
            Some(InputFile { error: Some(e), .. }) => Err(e),
            Some(f) => share::read_body(&f.bytes, BROWSER_LIMITS).map_err(|e| e.to_string()),
            None => decode_share(payload),
        };
        match decoded {
            Ok(p) => {
                let note = p.note;
                for (side, dump, total) in
                    [(Side::Base, p.base, note.base_code_total), (Side::Head, p.head, note.head_code_total)]
                {
                    match dump {
                        Some(d) => {
                            let mut info = side_info(&format!("{} (share link)", side.name()), Some(&d), &[]);
                            if note.reduced {
                                info.note = Some(format!(
                                    "share link: {} of {} code objects (the changed ones)",
                                    count(d.code.len() as u64),
                                    count(total as u64)
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
            }
            Err(message) => out(Response::Failed { side: None, message }),
        }
    }

    /// A share link made with the core's deflater (native builds; see [`decode_share`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn share_here(&self, focus: Option<&str>) -> Response {
        use std::future::Future;
        use std::task::{Context, Poll, Waker};
        let link = self.share(focus, |body| std::future::ready(Ok(share::deflate(&body))));
        // The compressor is always ready, so one poll finishes the whole search.
        match std::pin::pin!(link).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(response) => response,
            Poll::Pending => unreachable!("a ready compressor never waits"),
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub(super) fn share_here(&self, _focus: Option<&str>) -> Response {
        Response::Failed { side: None, message: "share link: links are made by the bridge in this build".into() }
    }

    /// A share link of what is loaded, `deflate` being the raw DEFLATE compressor: the core's
    /// natively, the browser's `CompressionStream` in the web viewer (see `bridge.rs`), whose
    /// links differ byte-wise from the core's but decode the same everywhere. Asynchronous
    /// because the browser's compressor is; links too long for a comment are made again
    /// from fewer functions, each try compressed anew.
    pub async fn share<F, Fut>(&self, focus: Option<&str>, deflate: F) -> Response
    where
        F: Fn(Vec<u8>) -> Fut,
        Fut: std::future::Future<Output = Result<Vec<u8>, String>>,
    {
        let encode = |p: SharePayload| {
            let packed = deflate(share::body(&p));
            async move { packed.await.map(|z| share::pack(&z)) }
        };
        let base = self.run(Side::Base).and_then(|r| r.dump.clone());
        let head = self.run(Side::Head).and_then(|r| r.dump.clone());
        if base.is_none() && head.is_none() {
            return Response::Failed { side: None, message: "nothing to share: load a dump first".into() };
        }
        let totals = (base.as_ref().map_or(0, |d| d.code.len()), head.as_ref().map_or(0, |d| d.code.len()));
        let note = |reduced: bool| ShareNote {
            base_code_total: totals.0,
            head_code_total: totals.1,
            reduced,
            comment: focus.map(str::to_string),
        };
        let full = SharePayload { base: base.as_deref().cloned(), head: head.as_deref().cloned(), note: note(false) };
        let payload = match encode(full).await {
            Ok(p) => p,
            Err(e) => return Response::Failed { side: None, message: format!("share link: {e}") },
        };
        if payload.len() <= share::COMMENT_FRIENDLY_CHARS {
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
            .filter(|r| if a.single.is_some() { r.score > 0.0 && r.hot > 0.0 } else { r.is_changed() && r.status != Class::Added && r.status != Class::Removed })
            .map(|r| r.key.as_str())
            .collect();
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
            let reduce = |d: &Option<Rc<Dump>>, keep: &[bool]| d.as_ref().map(|d| share::reduce(d, |i, _| keep.get(i).copied().unwrap_or(false)));
            let (rb, rh) = if a.single == Some(Side::Head) {
                (None, reduce(&head, &keep[0]))
            } else {
                (reduce(&base, &keep[0]), reduce(&head, &keep[1]))
            };
            let kept = rh.as_ref().or(rb.as_ref()).map_or(0, |d| d.code.len());
            let p = SharePayload { base: rb, head: rh, note: note(true) };
            let payload = match encode(p).await {
                Ok(p) => p,
                Err(e) => return Response::Failed { side: None, message: format!("share link: {e}") },
            };
            if payload.len() <= share::COMMENT_FRIENDLY_CHARS || wanted.is_empty() {
                let mut text = format!(
                    "reduced to {} of {} code objects (the changed ones) to keep the link short",
                    count(kept as u64),
                    count(totals.0.max(totals.1) as u64)
                );
                if payload.len() > share::COMMENT_FRIENDLY_CHARS {
                    text.push_str(&format!("; still {} characters: too long for a GitHub comment", count(payload.len() as u64)));
                }
                return Response::ShareLink { payload, note: Some(text) };
            }
            let n = wanted.len() / 2;
            wanted.truncate(n);
        }
    }
}

/// A share link decoded by the core. Native builds (the tests) link its inflater; the wasm
/// build does not (the core's `share-flate` is off there): the bridge inflates links with
/// the browser's `DecompressionStream` and hands the engine the body.
#[cfg(not(target_arch = "wasm32"))]
fn decode_share(payload: &str) -> Result<SharePayload, String> {
    share::decode(payload, BROWSER_LIMITS).map_err(|e| e.to_string())
}

#[cfg(target_arch = "wasm32")]
fn decode_share(payload: &str) -> Result<SharePayload, String> {
    share::unpack(payload).map_err(|e| e.to_string())?;
    Err(format!("{}: this build inflates links in the bridge only", share::SOURCE_NAME))
}
