//! `specdiff view BASE [HEAD]`: the web viewer with one or two dumps loaded, served on
//! `127.0.0.1` (`serve`), its URL printed and opened in the browser.
//!
//! The dumps are read once first (a bad dump is the usual one-line error, before anything is
//! served), then served as they are on disk, gzip included (the page detects it by content).
//! Their paths say `base`/`head` so the page puts them on the right side whatever the files
//! are called. Everything is served under a secret made for this run (`serve::Token`): the
//! URL printed on stdout carries it, and the browser is handed it through a file only this
//! user can read (as Jupyter does), so it is never on a command line other users can list.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

use specdiff_core::{read_dump, ReadLimits};

use crate::input::read_input_file;
use crate::output::{display_path, plain_io_error};
use crate::serve::{Server, Site, Token};
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

    /// The hosted viewer (`https://OWNER.github.io/REPO/`) the page's "share link" makes links
    /// for, as `diff --link` does; without it the page says its links open only on this
    /// machine. Default: env SPECDIFF_LINK_BASE when it is set and not empty.
    #[arg(long, value_name = "BASE_URL")]
    pub link: Option<String>,
}

/// Runs `specdiff view` until Ctrl-C. The error is one line (exit 2).
pub fn run(args: &ViewArgs) -> Result<(), String> {
    let viewer_base = crate::link::base_url(args.link.as_deref())?;
    let page = viewer::page()?;
    let mut site = Site::new(Token::generate()?);
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
        site.add(&url, content_type, bytes);
        urls.push(url);
        names.push(display_path(path));
    }
    // The page's URLs are relative: under `/t/TOKEN/` they fetch `/t/TOKEN/dumps/…`.
    site.add(
        "",
        "text/html; charset=utf-8",
        viewer::with_runs(&page, Runs::Urls(&urls), true, viewer_base.as_deref()).into_bytes(),
    );
    drop(page);
    let server = Server::bind(args.port)?;
    crate::signals::say_on_stop("specdiff view: stopped");
    let url = format!("http://127.0.0.1:{}{}", server.port(), site.root());
    let mut stdout = std::io::stdout().lock();
    // Names come from the command line; shown inert like every name.
    let _ = writeln!(
        stdout,
        "specdiff view: {} at {url} (Ctrl-C stops)",
        crate::render::inert(&names.join(" → "))
    );
    let _ = stdout.flush();
    drop(stdout);
    // Kept until the process ends (a browser may read it late); a stop request removes it.
    let _opener = match args.no_open {
        true => None,
        false => {
            match opener_file(&url)
                .and_then(|file| open_browser(file.path().as_os_str()).map(|()| file))
            {
                Ok(file) => Some((crate::signals::Litter::new(file.path()), file)),
                Err(why) => {
                    eprintln!("specdiff view: could not open a browser ({why}); open the URL above yourself");
                    None
                }
            }
        }
    };
    server.run(site)
}

/// A page that sends the browser on to `url`, in a file only this user can read (`tempfile`
/// makes it mode 0600): what the browser is started with instead of the URL, whose token
/// would show in its command line (`/proc/PID/cmdline`) to every user of the machine.
fn opener_file(url: &str) -> Result<tempfile::NamedTempFile, String> {
    let mut file = tempfile::Builder::new()
        .prefix("specdiff-view-")
        .suffix(".html")
        .tempfile()
        .map_err(|e| plain_io_error(&e))?;
    // `url` is `http://127.0.0.1:PORT/t/HEX/`: nothing in it needs escaping in HTML.
    write!(
        file,
        "<!doctype html>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"refresh\" content=\"0;url={url}\">\n\
         <title>specdiff view</title>\n<p><a href=\"{url}\">Open specdiff view</a></p>\n"
    )
    .and_then(|()| file.flush())
    .map_err(|e| plain_io_error(&e))?;
    Ok(file)
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
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok((format!("dumps/{side}-{name}"), bytes))
}

/// Opens `target` (a file) with the platform's opener (not waited for: some stay until the
/// browser closes).
fn open_browser(target: &OsStr) -> Result<(), String> {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(target)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| plain_io_error(&e))
}
