//! Messages between the page and the engine (which runs in a web worker, or on the main thread
//! when no worker can be started). Both ends are this same program, so the messages are the
//! serde JSON of these enums; file contents travel next to them as `File`/`Blob` objects.

use serde::{Deserialize, Serialize};

use crate::model::{FunctionDetail, Side, SideInfo, StatsTable, Summary};

/// Page → engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        /// A [`crate::model::FunctionRow::key`].
        key: String,
    },
    /// Make a share link of what is loaded.
    Share {
        /// Function the link should open (kept in full even when reducing).
        focus: Option<String>,
    },
    /// Send the stats table.
    Stats,
}

/// Engine → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        /// `s1.…`.
        payload: String,
        /// Remark (reduction, size warnings).
        note: Option<String>,
    },
    /// The stats table.
    Stats(Box<StatsTable>),
}

impl Request {
    /// Serializes for `postMessage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("requests always serialize")
    }

    /// Parses [`Request::to_json`] output.
    pub fn from_json(s: &str) -> Option<Request> {
        serde_json::from_str(s).ok()
    }
}

impl Response {
    /// Serializes for `postMessage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("responses always serialize")
    }

    /// Parses [`Response::to_json`] output.
    pub fn from_json(s: &str) -> Option<Response> {
        serde_json::from_str(s).ok()
    }
}
