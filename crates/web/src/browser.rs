//! Small wrappers around browser APIs used by the components (all I/O of the page lives here
//! and in [`crate::bridge`]).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DragEvent, File, FileList};

use crate::bridge::js_error;

/// The files of a `FileList`.
pub fn files_of_list(list: Option<FileList>) -> Vec<File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The files dropped by a drag event (none for dragged text or links).
pub fn dropped_files(e: &DragEvent) -> Vec<File> {
    files_of_list(e.data_transfer().and_then(|dt| dt.files()))
}

/// True when a drag carries files (not text or an element of the page).
pub fn drag_has_files(e: &DragEvent) -> bool {
    let Some(dt) = e.data_transfer() else { return false };
    let types = dt.types();
    types.iter().any(|t| t.as_string().as_deref() == Some("Files"))
}

/// `location.hash`, with its `#`.
pub fn hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Sets the URL's hash unless it is already `hash`: a new history entry when `push` (another
/// tab or function, so Back returns to it), else in place (typing a search, opening a fold).
/// Through the History API, which fires no `hashchange`: the state already holds the route.
pub fn set_hash(hash: &str, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let current = w.location().hash().unwrap_or_default();
    let normalized = |h: &str| h.trim_start_matches('#').to_string();
    if normalized(&current) == normalized(hash) {
        return;
    }
    let url = page_url(hash);
    if let Ok(h) = w.history() {
        let _ = if push {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}

/// The page's URL without its hash, followed by `hash`.
pub fn page_url(hash: &str) -> String {
    let Some(w) = web_sys::window() else { return hash.to_string() };
    let href = w.location().href().unwrap_or_default();
    let base = href.split('#').next().unwrap_or("");
    format!("{base}{hash}")
}

/// Fetches `url` (same origin) as a `File` named after its last path segment.
pub async fn fetch_file(url: &str) -> Result<File, String> {
    let w = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(w.fetch_with_str(url)).await.map_err(|e| format!("{url}: {}", js_error(&e)))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("{url}: not a response"))?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {}", resp.status()));
    }
    let blob = JsFuture::from(resp.blob().map_err(|e| js_error(&e))?).await.map_err(|e| js_error(&e))?;
    let name = url.rsplit('/').next().unwrap_or(url);
    let parts = js_sys::Array::of1(&blob);
    File::new_with_blob_sequence(&parts, name).map_err(|e| js_error(&e))
}

/// The demo pair: `demo/base.json` and `demo/head.json` next to the page (or the URLs in
/// `globalThis.specdiffDemo = [base, head]`, which the offline single-file page sets, or
/// `[base]` alone: `specdiff view BASE` serves one run).
pub async fn fetch_demo() -> Result<Vec<File>, String> {
    let urls: Vec<String> = js_sys::Reflect::get(&js_sys::global(), &"specdiffDemo".into())
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
        .map(|a| a.iter().filter_map(|v| v.as_string()).collect())
        .filter(|v: &Vec<String>| matches!(v.len(), 1 | 2))
        .unwrap_or_else(|| vec!["demo/base.json".into(), "demo/head.json".into()]);
    let mut files = Vec::new();
    for (i, url) in urls.iter().enumerate() {
        let f = fetch_file(url).await.map_err(|e| format!("demo not available ({e})"))?;
        // data: URLs have no useful last segment; name them.
        if url.starts_with("data:") {
            let name = if i == 0 { "base.json" } else { "head.json" };
            let parts = js_sys::Array::of1(&f);
            files.push(File::new_with_blob_sequence(&parts, name).map_err(|e| js_error(&e))?);
        } else {
            files.push(f);
        }
    }
    Ok(files)
}

/// What the CLI told the page that it made (`globalThis.specdiffPage`, see the CLI's
/// `viewer.rs`): absent on the hosted page and the offline file.
pub struct MadeByCli {
    /// The hosted viewer's address share links use (`--link`, `SPECDIFF_LINK_BASE`).
    pub viewer: Option<String>,
}

/// [`MadeByCli`], when the page is a `diff --format html` report or `specdiff view`'s page.
pub fn made_by_cli() -> Option<MadeByCli> {
    let page = js_sys::Reflect::get(&js_sys::global(), &"specdiffPage".into()).ok().filter(|v| v.is_object())?;
    let viewer = js_sys::Reflect::get(&page, &"viewer".into()).ok().and_then(|v| v.as_string());
    Some(MadeByCli { viewer })
}

/// True when the page was opened from this machine (a file, or a loopback server such as
/// `specdiff view`'s): a link to its own address opens nowhere else.
pub fn served_locally() -> bool {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return true };
    let host = loc.hostname().unwrap_or_default();
    loc.protocol().unwrap_or_default() == "file:" || host == "localhost" || host == "[::1]" || host.starts_with("127.")
}

/// Copies `text` to the clipboard (best effort; the share box also selects the text).
pub fn copy_text(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// True when the key event comes from a text field (typing must not trigger shortcuts).
pub fn from_text_field(e: &web_sys::KeyboardEvent) -> bool {
    let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || t.has_attribute("contenteditable")
}

/// Marks the page as ready for scripts and tests: `<body data-engine="worker">`.
pub fn mark_ready(engine: &str) {
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = body.set_attribute("data-engine", engine);
    }
}
