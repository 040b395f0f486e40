//! Messages between the page and the engine (which runs in a web worker, or on the main thread
//! when no worker can be started). Both ends are this same program, so the messages are the
//! compact binary form of these enums ([`crate::wire`]); file contents travel next to them as
//! `File`/`Blob` objects.

use crate::view_model::{FunctionDetail, Side, SideInfo, StatsTable, Summary};
use crate::wire::{self, Reader, Wire};

/// Page → engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Load the attached files. `side: None` assigns them (see `engine::plan_load`).
    Load {
        /// Target side, or automatic.
        side: Option<Side>,
    },
    /// Load the runs carried by a share link payload (`s1.…`).
    OpenShare {
        /// The payload.
        payload: String,
    },
    /// Forget one side.
    Clear {
        /// Which.
        side: Side,
    },
    /// Exchange base and head.
    Swap,
    /// Send the function view of `key`.
    Function {
        /// A [`crate::view_model::FunctionRow::key`].
        key: String,
    },
    /// Make a share link of what is loaded.
    Share {
        /// Function the link should open (kept in full even when reducing).
        focus: Option<String>,
        /// Leave out source text and shorten file paths (`share::redacted`).
        redact: bool,
    },
    /// Send the stats table.
    Stats,
}

/// Engine → page.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// The engine is running (sent once by a worker after start-up).
    Ready {
        /// `"worker"` or `"main thread"`.
        mode: String,
    },
    /// Work in progress.
    Progress {
        /// Side it concerns, if one.
        side: Option<Side>,
        /// What is being done, e.g. `"parsing base.json.gz"`.
        label: String,
        /// 0–1.
        fraction: f64,
    },
    /// A side was loaded.
    Loaded {
        /// Which.
        side: Side,
        /// Its label.
        info: SideInfo,
    },
    /// A side was emptied.
    Cleared {
        /// Which.
        side: Side,
    },
    /// A file (or link) could not be read. `message` is the core reader's one-line message.
    Failed {
        /// Side it concerns (`None`: a share link or the engine itself).
        side: Option<Side>,
        /// One line.
        message: String,
    },
    /// Overview and function list for what is loaded now.
    Summary(Box<Summary>),
    /// A function view.
    Function(Box<FunctionDetail>),
    /// A share link payload.
    ShareLink {
        /// `s4.…`.
        payload: String,
        /// What the link holds, in words (runs or functions, trimmed, source, paths, size
        /// warnings), shown before it is copied.
        note: Option<String>,
        /// True when it carries no source text and short paths.
        redacted: bool,
    },
    /// The stats table.
    Stats(Box<StatsTable>),
}

impl Request {
    /// The message for `postMessage`.
    pub fn to_bytes(&self) -> Vec<u8> {
        wire::encode(self)
    }

    /// Reads [`Request::to_bytes`] output.
    pub fn from_bytes(b: &[u8]) -> Option<Request> {
        wire::decode(b)
    }
}

impl Response {
    /// The message for `postMessage`.
    pub fn to_bytes(&self) -> Vec<u8> {
        wire::encode(self)
    }

    /// Reads [`Response::to_bytes`] output.
    pub fn from_bytes(b: &[u8]) -> Option<Response> {
        wire::decode(b)
    }
}

impl Wire for Request {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Request::Load { side } => {
                out.push(0);
                side.put(out);
            }
            Request::OpenShare { payload } => {
                out.push(1);
                payload.put(out);
            }
            Request::Clear { side } => {
                out.push(2);
                side.put(out);
            }
            Request::Swap => out.push(3),
            Request::Function { key } => {
                out.push(4);
                key.put(out);
            }
            Request::Share { focus, redact } => {
                out.push(5);
                focus.put(out);
                redact.put(out);
            }
            Request::Stats => out.push(6),
        }
    }

    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some(match r.varint()? {
            0 => Request::Load { side: Wire::take(r)? },
            1 => Request::OpenShare { payload: Wire::take(r)? },
            2 => Request::Clear { side: Wire::take(r)? },
            3 => Request::Swap,
            4 => Request::Function { key: Wire::take(r)? },
            5 => Request::Share { focus: Wire::take(r)?, redact: Wire::take(r)? },
            6 => Request::Stats,
            _ => return None,
        })
    }
}

impl Wire for Response {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Response::Ready { mode } => {
                out.push(0);
                mode.put(out);
            }
            Response::Progress { side, label, fraction } => {
                out.push(1);
                side.put(out);
                label.put(out);
                fraction.put(out);
            }
            Response::Loaded { side, info } => {
                out.push(2);
                side.put(out);
                info.put(out);
            }
            Response::Cleared { side } => {
                out.push(3);
                side.put(out);
            }
            Response::Failed { side, message } => {
                out.push(4);
                side.put(out);
                message.put(out);
            }
            Response::Summary(s) => {
                out.push(5);
                s.put(out);
            }
            Response::Function(f) => {
                out.push(6);
                f.put(out);
            }
            Response::ShareLink { payload, note, redacted } => {
                out.push(7);
                payload.put(out);
                note.put(out);
                redacted.put(out);
            }
            Response::Stats(t) => {
                out.push(8);
                t.put(out);
            }
        }
    }

    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some(match r.varint()? {
            0 => Response::Ready { mode: Wire::take(r)? },
            1 => Response::Progress { side: Wire::take(r)?, label: Wire::take(r)?, fraction: Wire::take(r)? },
            2 => Response::Loaded { side: Wire::take(r)?, info: Wire::take(r)? },
            3 => Response::Cleared { side: Wire::take(r)? },
            4 => Response::Failed { side: Wire::take(r)?, message: Wire::take(r)? },
            5 => Response::Summary(Wire::take(r)?),
            6 => Response::Function(Wire::take(r)?),
            7 => Response::ShareLink { payload: Wire::take(r)?, note: Wire::take(r)?, redacted: Wire::take(r)? },
            8 => Response::Stats(Wire::take(r)?),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::*;

    /// Every variant survives its binary form (the engine tests cover real summaries).
    #[test]
    fn messages_round_trip() {
        let ins = Ins {
            offset: 18,
            op: "LOAD_ATTR_SLOT".into(),
            family: "LOAD_ATTR".into(),
            arg: "x".into(),
            specialized: true,
            site: true,
            counter: Some("0 miss".into()),
            tip: None,
            churn: Some("2 flips".into()),
        };
        let source = DetailRow::Source { line: 3, text: "    return p.x".into(), samples: [7, u64::MAX] };
        let pair = DetailRow::Ins { base: Some(ins.clone()), head: None, class: Some(ChangeKind::Lost), explain: Some("why".into()) };
        let detail = FunctionDetail {
            key: "m:f~2".into(),
            title: "f".into(),
            locations: [Some("a.py:1".into()), None],
            kind: "function".into(),
            mode: Mode::Single(Side::Head),
            explanations: vec!["one".into()],
            counts: ChangeKind::ALL.iter().map(|&c| (c, 1)).collect(),
            status: ChangeKind::BackedOff,
            rows: vec![source.clone(), DetailRow::Fold { rows: vec![source, pair.clone()] }, pair],
            traces: vec![TraceDetail {
                line: Some(4),
                sides: ["12 uops".into(), "no trace".into()],
                change: Some("lost".into()),
                explanation: None,
                rows: vec![TraceLine { base: Some(("_SET_IP".into(), Some(3))), head: None, same: false }],
            }],
        };
        let mut summary = Summary::empty();
        summary.generation = 9;
        summary.mode = Mode::Diff;
        summary.overview.metrics.push(Metric { label: "l".into(), base: None, head: Some("h".into()), delta: None, tone: Tone::Bad, tip: None });
        summary.overview.families.push(FamilyBar { family: "CALL".into(), base: Some(Share { specialized: 1, sites: 2 }), head: None });
        summary.overview.top.push(TopItem { key: "k".into(), offset: Some(4), title: "t".into(), location: "a.py:1".into(), class: ChangeKind::Churning, detail: "d".into(), score: 0.25 });
        summary.rows.push(FunctionRow {
            key: "k".into(),
            qualname: "q".into(),
            module: "m".into(),
            location: "a.py:1".into(),
            kind: "function".into(),
            hot: 0.5,
            hot_interval: Some(((41.25, 58.75), 120)),
            before: None,
            after: Some(Share::default()),
            counts: vec![(ChangeKind::Gained, 3)],
            status: ChangeKind::Gained,
            score: 1e-9,
            ops: vec![0, 2],
        });
        summary.opnames = vec!["BINARY_OP".into(), "CALL".into(), "LOAD_ATTR_SLOT".into()];
        let stats = StatsTable {
            columns: vec!["hit".into()],
            better: vec![Some(true), None],
            sides: [true, false],
            rows: vec![StatsRow {
                name: "CALL".into(),
                base: vec![Some(1), None],
                head: vec![],
                kinds: vec![StatsKind { label: "kind 7".into(), constant: String::new(), base: Some(2), head: None }],
            }],
            notes: vec![],
        };
        let responses = [
            Response::Ready { mode: "worker".into() },
            Response::Progress { side: None, label: "parsing".into(), fraction: 0.3 },
            Response::Loaded { side: Side::Base, info: SideInfo { stats_files: vec!["1.txt".into()], note: Some("n".into()), ..Default::default() } },
            Response::Cleared { side: Side::Head },
            Response::Failed { side: Some(Side::Head), message: "x.json: bad".into() },
            Response::Summary(Box::new(summary)),
            Response::Function(Box::new(detail)),
            Response::ShareLink { payload: "s1.abc".into(), note: None, redacted: true },
            Response::Stats(Box::new(stats)),
        ];
        for r in responses {
            let bytes = r.to_bytes();
            assert_eq!(Response::from_bytes(&bytes), Some(r));
            assert_eq!(Response::from_bytes(&bytes[..bytes.len() - 1]), None);
        }
        let requests = [
            Request::Load { side: Some(Side::Head) },
            Request::OpenShare { payload: "s1.x".into() },
            Request::Clear { side: Side::Base },
            Request::Swap,
            Request::Function { key: "m:f".into() },
            Request::Share { focus: None, redact: true },
            Request::Stats,
        ];
        for r in requests {
            assert_eq!(Request::from_bytes(&r.to_bytes()), Some(r));
        }
        assert_eq!(Request::from_bytes(&[7]), None);
        assert_eq!(Response::from_bytes(&[]), None);
    }
}
