//! `specdiff view BASE [HEAD]`: the web viewer with one or two dumps loaded, served on
//! `127.0.0.1` (`serve`), its URL printed and opened in the browser.
//!
//! The dumps are read once first (a bad dump is the usual one-line error, before anything is
//! served), then served as they are on disk, gzip included (the page detects it by content).
//! Their paths say `base`/`head` so the page puts them on the right side whatever the files
//! are called.

use std::io::Write;
use std::path::{Path, PathBuf};

use specdiff_core::{read_dump, ReadLimits};

use crate::input::read_input_file;
use crate::output::{display_path, plain_io_error};
use crate::serve::{Server, Site};
use crate::viewer::{self, Runs};

/// Arguments of `specdiff view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// The dump before the change (or the one run to look at).
    #[arg(value_name = "BASE")]
    pub base: PathBuf,

    /// The dump after the change.
    #[arg(value_name = "HEAD")]
    pub head: Option<PathBuf>,

    /// The port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,

    /// Do not open the browser; only print the URL.
    #[arg(long)]
    pub no_open: bool,
}

/// Runs `specdiff view` until Ctrl-C. The error is one line (exit 2).
pub fn run(args: &ViewArgs) -> Result<(), String> {
    let page = viewer::page()?;
    let mut site = Site::new();
    let mut urls = Vec::new();
    let mut names = Vec::new();
    for (side, path) in [("base", Some(&args.base)), ("head", args.head.as_ref())] {
        let Some(path) = path else { continue };
        let (url, bytes) = dump_entry(side, path)?;
        let content_type = if bytes.starts_with(&[0x1f, 0x8b]) {
            "application/gzip"
        } else {
            "application/json"
        };
        site.add(&format!("/{url}"), content_type, bytes);
        urls.push(url);
        names.push(display_path(path));
    }
    site.add(
        "/",
        "text/html; charset=utf-8",
        viewer::with_runs(&page, Runs::Urls(&urls), true).into_bytes(),
    );
    drop(page);
    let server = Server::bind(args.port)?;
    crate::signals::say_on_stop("specdiff view: stopped");
    let url = format!("http://127.0.0.1:{}/", server.port());
    let mut stdout = std::io::stdout().lock();
    // Names come from the command line; shown inert like every name.
    let _ = writeln!(
        stdout,
        "specdiff view: {} at {url} (Ctrl-C stops)",
        crate::render::inert(&names.join(" → "))
    );
    let _ = stdout.flush();
    drop(stdout);
    if !args.no_open {
        if let Err(why) = open_browser(&url) {
            eprintln!("specdiff view: could not open a browser ({why}); open {url} yourself");
        }
    }
    server.run(&site)
}

/// Reads and checks one dump; its path on the server (`dumps/base-NAME`) and its bytes.
fn dump_entry(side: &str, path: &Path) -> Result<(String, Vec<u8>), String> {
    let shown = display_path(path);
    let bytes = read_input_file(path)?;
    read_dump(&shown, &bytes, ReadLimits::default()).map_err(|e| e.to_string())?;
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect();
    Ok((format!("dumps/{side}-{name}"), bytes))
}

/// Opens `url` with the platform's opener (not waited for: some stay until the browser closes).
fn open_browser(url: &str) -> Result<(), String> {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| plain_io_error(&e))
}
