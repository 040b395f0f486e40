//! Where the engine runs: in a web worker started from this same wasm binary (the page
//! hands its compiled `WebAssembly.Module` to the worker, so nothing is downloaded twice), or on
//! the main thread when no worker can be started (tests, old browsers, some `file://` pages).
//!
//! The worker side is [`specdiff_worker_message`], called by a tiny bootstrap script for every
//! message; requests are handled one at a time, in order.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, File, MessageEvent, Url, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use specdiff_core::format::{gzip_corrupt, gzip_truncated, is_gzip, InputError, InputErrorKind};
use specdiff_core::share::{self, SharePayload};

use crate::session::{Compression, InputFile, Pending, Session, BROWSER_LIMITS};
use crate::view_model::Side;
use crate::protocol::{Request, Response};

/// Runs requests one after the other against one [`Session`].
struct Runner {
    session: RefCell<Session>,
    queue: RefCell<VecDeque<(Request, Vec<File>)>>,
    busy: Cell<bool>,
    out: Box<dyn Fn(Response)>,
    /// Give the browser a chance to paint between steps (main-thread mode).
    yield_between: bool,
}

impl Runner {
    fn new(out: Box<dyn Fn(Response)>, yield_between: bool) -> Rc<Runner> {
        Rc::new(Runner {
            session: RefCell::new(Session::new(Box::new(BrowserCompression))),
            queue: RefCell::new(VecDeque::new()),
            busy: Cell::new(false),
            out,
            yield_between,
        })
    }

    fn push(self: &Rc<Self>, request: Request, files: Vec<File>) {
        self.queue.borrow_mut().push_back((request, files));
        if !self.busy.replace(true) {
            let me = self.clone();
            wasm_bindgen_futures::spawn_local(async move {
                loop {
                    let next = me.queue.borrow_mut().pop_front();
                    let Some((request, files)) = next else { break };
                    me.run(request, files).await;
                }
                me.busy.set(false);
            });
        }
    }

    // Requests run one at a time (see `push`): nothing else borrows the session while a share
    // link waits for the browser's compressor.
    #[allow(clippy::await_holding_refcell_ref)]
    async fn run(&self, request: Request, files: Vec<File>) {
        let side = match &request {
            Request::Load { side } => *side,
            _ => None,
        };
        let total = files.len().max(1) as f64;
        let mut inputs = Vec::with_capacity(files.len());
        for (i, f) in files.iter().enumerate() {
            (self.out)(Response::Progress { side, label: format!("reading {}", f.name()), fraction: i as f64 / total * 0.3 });
            match read_blob(f).await {
                Ok(bytes) if is_gzip(&bytes) => inputs.push(match gunzip(f, BROWSER_LIMITS.max_bytes).await {
                    Ok(bytes) => InputFile::new(f.name(), bytes),
                    Err(kind) => InputFile::unreadable(f.name(), InputError::new(f.name(), kind).to_string()),
                }),
                Ok(bytes) => inputs.push(InputFile::new(f.name(), bytes)),
                Err(e) => {
                    (self.out)(Response::Failed { side, message: format!("{}: cannot read the file ({e})", f.name()) });
                    (self.out)(Response::Progress { side, label: String::new(), fraction: 1.0 });
                    return;
                }
            }
        }
        if self.yield_between {
            gloo::timers::future::TimeoutFuture::new(0).await;
        }
        self.session.borrow_mut().handle(request, inputs, &mut |r| (self.out)(r)).await;
    }
}

async fn read_blob(blob: &Blob) -> Result<Vec<u8>, String> {
    let buf = JsFuture::from(blob.array_buffer()).await.map_err(|e| js_error(&e))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

#[wasm_bindgen]
extern "C" {
    /// The browser's streaming inflater (web-sys has it only among its unstable APIs).
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> WritableStream;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> web_sys::ReadableStream;
    /// A stream's writable side (only what feeding it in slices needs).
    type WritableStream;
    #[wasm_bindgen(method, js_name = getWriter)]
    fn get_writer(this: &WritableStream) -> StreamWriter;
    type StreamWriter;
    #[wasm_bindgen(method, getter)]
    fn ready(this: &StreamWriter) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn write(this: &StreamWriter, chunk: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn close(this: &StreamWriter) -> js_sys::Promise;

    /// The browser's streaming compressor (likewise).
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;
}

/// Share links compressed by the browser (`CompressionStream`/`DecompressionStream`,
/// `deflate-raw`): the wasm then carries no deflater. Its bytes differ from the core's
/// `share::deflate`; any DEFLATE decodes the same. Errors are the core's (`share::decode`).
struct BrowserCompression;

impl Compression for BrowserCompression {
    fn deflate(&self, body: Vec<u8>) -> Pending<Result<Vec<u8>, String>> {
        Box::pin(deflate_raw(body))
    }

    fn decode(&self, payload: &str) -> Pending<Result<SharePayload, String>> {
        let payload = payload.to_string();
        Box::pin(async move { decode_share(&payload).await.map_err(|e| e.to_string()) })
    }
}

/// Raw DEFLATE by the browser's `CompressionStream('deflate-raw')` (zlib's, in Chromium).
async fn deflate_raw(body: Vec<u8>) -> Result<Vec<u8>, String> {
    let failed = |e: &JsValue| format!("cannot compress ({})", js_error(e));
    let deflater = CompressionStream::new("deflate-raw").map_err(|e| failed(&e))?;
    let blob = Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&js_sys::Uint8Array::from(body.as_slice()))).map_err(|e| failed(&e))?;
    drop(body);
    read_through(&blob, deflater.unchecked_ref(), u64::MAX).await.map_err(|e| match e {
        Inflate::Corrupt(why) => format!("cannot compress ({why})"),
        _ => "cannot compress".to_string(),
    })
}

/// A share link's body inflated by the browser (`deflate-raw`) and read by the core.
async fn decode_share(payload: &str) -> Result<SharePayload, InputError> {
    let packed = share::unpack(payload)?;
    // A version-4 link stops at 64 times its compressed bytes: a bomb costs the tab a few MB.
    let stop = share::inflate_limit(payload, packed.len(), BROWSER_LIMITS).max_bytes;
    let body = inflate_sliced(&packed, stop).await.map_err(|e| match e {
        Inflate::TooLarge => share::inflated_too_far(payload, packed.len(), BROWSER_LIMITS),
        Inflate::Truncated => share::cut_error(),
        Inflate::Corrupt(_) => share::corrupt_error(),
    })?;
    share::read_body(&body, share::body_limits(BROWSER_LIMITS))
}

/// Inflates a gzip file with the browser's `DecompressionStream` (so the wasm carries no
/// inflater or CRC tables), stopping as soon as more than `limit` bytes come out. Errors are
/// the ones `specdiff_core::format` gives for the same file.
async fn gunzip(blob: &Blob, limit: u64) -> Result<Vec<u8>, InputErrorKind> {
    inflate(blob, "gzip", limit).await.map_err(|e| match e {
        Inflate::Truncated => gzip_truncated(),
        Inflate::Corrupt(why) => gzip_corrupt(&why),
        Inflate::TooLarge => InputErrorKind::InflatedTooLarge { limit },
    })
}

/// Why [`inflate`] failed.
enum Inflate {
    /// The compressed data stops early.
    Truncated,
    /// It is not valid compressed data (the browser's message).
    Corrupt(String),
    /// More than the cap came out (inflation stopped there; the full size is never needed).
    TooLarge,
}

/// `blob` inflated by the browser's `DecompressionStream(format)`, reading at most `cap` bytes.
async fn inflate(blob: &Blob, format: &str, cap: u64) -> Result<Vec<u8>, Inflate> {
    let inflater = DecompressionStream::new(format).map_err(|e| Inflate::Corrupt(js_error(&e)))?;
    read_through(blob, inflater.unchecked_ref(), cap).await
}

/// Raw DEFLATE `data` inflated by the browser, fed in 1 KB slices, reading at most `cap`
/// bytes. Chromium inflates each piece written to a `DecompressionStream` whole, whatever the
/// reader takes: a blob's 64 KB pieces of a bomb are 64 MB each, and the tab grew by ~330 MB
/// before a 16 MB cap could stop it. A 1 KB slice inflates to at most ~1 MB.
async fn inflate_sliced(data: &[u8], cap: u64) -> Result<Vec<u8>, Inflate> {
    let inflater = DecompressionStream::new("deflate-raw").map_err(|e| Inflate::Corrupt(js_error(&e)))?;
    let writer = inflater.writable().get_writer();
    let slices: Vec<js_sys::Uint8Array> = data.chunks(1024).map(js_sys::Uint8Array::from).collect();
    wasm_bindgen_futures::spawn_local(async move {
        // Each write waits for the reader to take what the last one gave (backpressure); a
        // cancelled reader rejects them, which ends this task.
        for slice in slices {
            if JsFuture::from(writer.ready()).await.is_err() || JsFuture::from(writer.write(&slice)).await.is_err() {
                return;
            }
        }
        let _ = JsFuture::from(writer.close()).await;
    });
    read_all(inflater.readable(), cap).await
}

/// The bytes of `blob` passed through the transform stream `transform`, at most `cap` of them.
async fn read_through(blob: &Blob, transform: &web_sys::ReadableWritablePair, cap: u64) -> Result<Vec<u8>, Inflate> {
    read_all(blob.stream().pipe_through(transform), cap).await
}

/// The bytes of `stream`, at most `cap` of them.
async fn read_all(stream: web_sys::ReadableStream, cap: u64) -> Result<Vec<u8>, Inflate> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| {
            let why = js_error(&e);
            // Chromium's TypeError for a stream that stops early: "Compressed input was truncated."
            if why.contains("truncated") {
                Inflate::Truncated
            } else {
                Inflate::Corrupt(why)
            }
        })?;
        let field = |name: &str| js_sys::Reflect::get(&chunk, &name.into()).unwrap_or(JsValue::TRUE);
        if field("done").is_truthy() {
            return Ok(out);
        }
        let value: js_sys::Uint8Array = field("value").unchecked_into();
        let start = out.len();
        let end = start + value.length() as usize;
        if end as u64 > cap {
            let _ = reader.cancel();
            return Err(Inflate::TooLarge);
        }
        out.resize(end, 0);
        value.copy_to(&mut out[start..]);
    }
}

/// A readable one-line form of a JS error value.
pub fn js_error(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

thread_local! {
    static WORKER_RUNNER: Rc<Runner> = Runner::new(Box::new(post_to_page), false);
}

fn post_to_page(r: Response) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let msg = message(&r.to_bytes());
    let _ = scope.post_message_with_transfer(&msg, &js_sys::Array::of1(&msg.buffer()));
}

/// A message's bytes in a fresh `ArrayBuffer` (transferred, not copied, by `postMessage`).
fn message(bytes: &[u8]) -> js_sys::Uint8Array {
    js_sys::Uint8Array::from(bytes)
}

/// The bytes of a message made by [`message`].
fn message_bytes(v: &JsValue) -> Option<Vec<u8>> {
    v.dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
}

/// Worker entry point: one message from the page, `{req: Uint8Array, files: File[]}`.
#[wasm_bindgen]
pub fn specdiff_worker_message(data: JsValue) {
    let req = js_sys::Reflect::get(&data, &"req".into()).ok().and_then(|v| message_bytes(&v));
    let Some(request) = req.as_deref().and_then(Request::from_bytes) else {
        post_to_page(Response::Failed { side: None, message: "engine: unreadable request".into() });
        return;
    };
    let files = files_of(&data);
    WORKER_RUNNER.with(|r| r.push(request, files));
}

fn files_of(data: &JsValue) -> Vec<File> {
    let Ok(list) = js_sys::Reflect::get(data, &"files".into()) else {
        return Vec::new();
    };
    let Ok(arr) = list.dyn_into::<js_sys::Array>() else {
        return Vec::new();
    };
    arr.iter().filter_map(|v| v.dyn_into::<File>().ok()).collect()
}

enum Backend {
    /// Waiting for the worker's "ready"; requests are kept until then.
    Starting(Worker, Vec<(Request, Vec<File>)>),
    Worker(Worker),
    Local(Rc<Runner>),
}

struct Inner {
    backend: RefCell<Backend>,
    on_response: Callback<Response>,
    listeners: RefCell<Vec<JsValue>>,
}

/// The page's handle on the engine.
#[derive(Clone)]
pub struct Bridge {
    inner: Rc<Inner>,
}

impl PartialEq for Bridge {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

/// The bootstrap of the worker: imports the wasm-bindgen glue, instantiates the module the page
/// sends first, then passes every further message to `specdiff_worker_message`, in order.
/// It reports to the page with two strings, `"ready"` and `"failed: …"`; everything else the
/// worker sends is a [`Response`]'s bytes.
/// The first message is `{module, glueText}`: `glueText` (the glue's source, set by the offline
/// single-file page) is imported from a blob: URL made inside the worker, because a `file://`
/// page's blob: URLs cannot be imported by its worker.
fn bootstrap(glue_url: &str) -> String {
    let glue = serde_json::to_string(glue_url).expect("a string serializes");
    format!(
        "let ready;\n\
         self.onmessage = (e) => {{\n\
           if (!ready) {{\n\
             const first = e.data;\n\
             const url = first.glueText ? URL.createObjectURL(new Blob([first.glueText], {{ type: 'text/javascript' }})) : {glue};\n\
             ready = import(url).then(async (m) => {{ await m.default({{ module_or_path: first.module }}); return m; }});\n\
             ready.then(() => self.postMessage('ready'), (err) => self.postMessage('failed: ' + String(err)));\n\
             return;\n\
           }}\n\
           ready.then((m) => m.specdiff_worker_message(e.data));\n\
         }};\n"
    )
}

/// The URL of this program's wasm-bindgen JS glue, set by the page's loader script.
fn glue_url() -> Option<String> {
    js_sys::Reflect::get(&js_sys::global(), &"specdiffGlue".into()).ok()?.as_string().filter(|s| !s.is_empty())
}

impl Bridge {
    /// Starts the engine: in a worker when possible, else on the main thread. Every response
    /// (including `Ready`) goes to `on_response`.
    pub fn start(on_response: Callback<Response>) -> Bridge {
        let bridge = Bridge {
            inner: Rc::new(Inner {
                backend: RefCell::new(Backend::Local(Runner::new(Box::new(|_| {}), true))),
                on_response,
                listeners: RefCell::new(Vec::new()),
            }),
        };
        match glue_url().ok_or_else(|| JsValue::from_str("no glue URL")).and_then(|g| bridge.spawn(&g)) {
            Ok(()) => {
                // Fall back if the worker does not report within a few seconds.
                let weak = Rc::downgrade(&bridge.inner);
                gloo::timers::callback::Timeout::new(8_000, move || {
                    if let Some(inner) = weak.upgrade() {
                        Bridge { inner }.fall_back("the worker did not start in time");
                    }
                })
                .forget();
            }
            Err(_) => bridge.use_local(),
        }
        bridge
    }

    /// The engine on the main thread (tests, and when workers are unavailable).
    pub fn local(on_response: Callback<Response>) -> Bridge {
        let bridge = Bridge {
            inner: Rc::new(Inner {
                backend: RefCell::new(Backend::Local(Runner::new(Box::new(|_| {}), true))),
                on_response,
                listeners: RefCell::new(Vec::new()),
            }),
        };
        bridge.use_local();
        bridge
    }

    fn use_local(&self) {
        let cb = self.inner.on_response.clone();
        let runner = Runner::new(
            Box::new(move |r| {
                timeline(&r);
                cb.emit(r)
            }),
            true,
        );
        *self.inner.backend.borrow_mut() = Backend::Local(runner);
        let cb = self.inner.on_response.clone();
        // Asynchronously, like a worker would, so the page state exists when it arrives.
        wasm_bindgen_futures::spawn_local(async move { cb.emit(Response::Ready { mode: "main thread".into() }) });
    }

    fn spawn(&self, glue: &str) -> Result<(), JsValue> {
        let parts = js_sys::Array::of1(&JsValue::from_str(&bootstrap(glue)));
        let opts = BlobPropertyBag::new();
        opts.set_type("text/javascript");
        let blob = Blob::new_with_str_sequence_and_options(&parts, &opts)?;
        let url = Url::create_object_url_with_blob(&blob)?;
        // A classic worker that loads the glue with import(): module workers cannot be started
        // from blob: URLs on file:// pages (the offline single-file viewer).
        let wopts = WorkerOptions::new();
        wopts.set_type(WorkerType::Classic);
        wopts.set_name("specdiff-engine");
        let worker = Worker::new_with_options(&url, &wopts)?;
        let weak = Rc::downgrade(&self.inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            let data = e.data();
            let bridge = Bridge { inner };
            let resp = match data.as_string() {
                Some(text) if text == "ready" => Response::Ready { mode: "worker".into() },
                Some(text) => {
                    bridge.fall_back(&text);
                    return;
                }
                None => match message_bytes(&data).as_deref().and_then(Response::from_bytes) {
                    Some(resp) => resp,
                    None => return,
                },
            };
            timeline(&resp);
            if matches!(resp, Response::Ready { .. }) {
                bridge.worker_ready();
            }
            bridge.inner.on_response.emit(resp);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let weak = Rc::downgrade(&self.inner);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_e: web_sys::Event| {
            if let Some(inner) = weak.upgrade() {
                Bridge { inner }.fall_back("the worker failed");
            }
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.inner.listeners.borrow_mut().extend([on_message.into_js_value(), on_error.into_js_value()]);
        let first = js_sys::Object::new();
        js_sys::Reflect::set(&first, &"module".into(), &wasm_bindgen::module())?;
        if let Ok(text) = js_sys::Reflect::get(&js_sys::global(), &"specdiffGlueText".into()) {
            js_sys::Reflect::set(&first, &"glueText".into(), &text)?;
        }
        worker.post_message(&first)?;
        *self.inner.backend.borrow_mut() = Backend::Starting(worker, Vec::new());
        Ok(())
    }

    fn worker_ready(&self) {
        let mut b = self.inner.backend.borrow_mut();
        if let Backend::Starting(w, pending) = &mut *b {
            let w = w.clone();
            let pending = std::mem::take(pending);
            *b = Backend::Worker(w.clone());
            drop(b);
            for (req, files) in pending {
                post_to_worker(&w, &req, &files);
            }
        }
    }

    /// Moves to the main thread if the worker never became ready; queued requests follow.
    fn fall_back(&self, why: &str) {
        let pending = {
            let mut b = self.inner.backend.borrow_mut();
            match &mut *b {
                Backend::Starting(w, pending) => {
                    w.terminate();
                    std::mem::take(pending)
                }
                _ => return,
            }
        };
        gloo::console::warn!(format!("specdiff: running on the main thread ({why})"));
        self.use_local();
        for (req, files) in pending {
            self.send(req, files);
        }
    }

    /// Sends a request with its files.
    pub fn send(&self, request: Request, files: Vec<File>) {
        let mut b = self.inner.backend.borrow_mut();
        match &mut *b {
            Backend::Starting(_, pending) => pending.push((request, files)),
            Backend::Worker(w) => post_to_worker(w, &request, &files),
            Backend::Local(r) => {
                let r = r.clone();
                drop(b);
                r.push(request, files);
            }
        }
    }

    /// Loads files (dropped, picked or fetched) onto `side` (None: automatic).
    pub fn load(&self, side: Option<Side>, files: Vec<File>) {
        self.send(Request::Load { side }, files);
    }

    /// `"worker"`, `"starting"` or `"main thread"`.
    pub fn mode(&self) -> &'static str {
        match &*self.inner.backend.borrow() {
            Backend::Starting(..) => "starting",
            Backend::Worker(_) => "worker",
            Backend::Local(_) => "main thread",
        }
    }
}

/// For benchmarks: when the page defines `globalThis.specdiffTimeline = []`, every response
/// is logged there as `[kind, label, performance.now()]`.
fn timeline(r: &Response) {
    let Ok(t) = js_sys::Reflect::get(&js_sys::global(), &"specdiffTimeline".into()) else {
        return;
    };
    let Some(arr) = t.dyn_ref::<js_sys::Array>() else {
        return;
    };
    let (kind, label) = match r {
        Response::Progress { label, .. } => ("progress", label.clone()),
        Response::Summary(s) => ("summary", format!("{} rows", s.rows.len())),
        Response::Loaded { side, .. } => ("loaded", side.name().to_string()),
        Response::Function(f) => ("function", f.key.clone()),
        _ => ("other", String::new()),
    };
    let now = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
    arr.push(&js_sys::Array::of3(&kind.into(), &label.into(), &now.into()));
}

fn post_to_worker(w: &Worker, request: &Request, files: &[File]) {
    let msg = js_sys::Object::new();
    let req = message(&request.to_bytes());
    let _ = js_sys::Reflect::set(&msg, &"req".into(), &req);
    let arr = js_sys::Array::new();
    for f in files {
        arr.push(f);
    }
    let _ = js_sys::Reflect::set(&msg, &"files".into(), &arr);
    let _ = w.post_message_with_transfer(&msg, &js_sys::Array::of1(&req.buffer()));
}
