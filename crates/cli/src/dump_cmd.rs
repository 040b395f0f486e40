//! `specdiff dump`: runs a program under a real CPython with the embedded harness and writes a
//! validated dump. The harness (`src/harness/`, run as one file) does the capture; this side
//! probes the interpreter, owns the process (exit status; stop requests passed on, with a grace
//! period) and the output file.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use clap::Args;
use specdiff_core::format::{read_dump, read_pystats, to_json, PystatsOptions};
use specdiff_core::model::Dump;
use specdiff_core::ReadLimits;

use crate::command_line;
use crate::harness_output::{finish_raw_code, HarnessExtra};
use crate::output::{
    display_os, display_path, human_size, own_prefix, refuse_inputs, refuse_non_dump, sweep_stale, PendingOutput,
};
use crate::platform::{self, Ended};
use crate::python::{check_supported, probe};
use crate::signals::{self, Litter};

/// The start of the temporary folder a dump runs in (see `output::sweep_stale`).
const RUN_PREFIX: &str = "specdiff-run-";

/// The harness, embedded so the binary is self-contained: the parts in `src/harness/` joined
/// into one file by build.rs.
pub const HARNESS: &str = include_str!(concat!(env!("OUT_DIR"), "/harness.py"));

/// Options of `specdiff dump` (everything before the program to run).
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// Python interpreter to run the program with. Default: the `python3` (Windows:
    /// `python.exe`) beside the specdiff executable, as in the virtual environment specdiff
    /// was installed into; else `python3` (Windows: `python`) from PATH. [env: SPECDIFF_PYTHON,
    /// when not empty]
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Where to write the dump (`.json` or `.json.gz`). Default: `<program>.specdiff.json`.
    /// An existing file there must be a specdiff dump (see --force); the script itself is
    /// never overwritten.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file even if it exists and is not a specdiff dump.
    #[arg(long)]
    pub force: bool,
    /// Only dump code whose module or file name matches this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Leave out code whose module or file name matches this glob (repeatable; wins over --include).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also dump code objects that never ran.
    #[arg(long)]
    pub include_unrun: bool,
    /// Hotness sampling interval in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1.0)]
    pub interval_ms: f64,
    /// Do not sample hotness (no sampler thread).
    #[arg(long)]
    pub no_sample: bool,
    /// When specdiff's own harness fails (a bug in specdiff), print its Python traceback.
    #[arg(long)]
    pub debug: bool,
    /// Run a library module as a script, like `python -m` (the rest are its arguments).
    #[arg(short = 'm', value_name = "MODULE", conflicts_with = "code")]
    pub module: Option<String>,
    /// Run a program passed as a string, like `python -c` (the rest are its arguments).
    #[arg(short = 'c', value_name = "CODE")]
    pub code: Option<String>,
    /// The script to run and its arguments (or the arguments of -m / -c).
    #[arg(value_name = "SCRIPT [ARGS]", trailing_var_arg = true)]
    pub program: Vec<OsString>,
}

/// What to run, resolved from [`DumpArgs`].
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Script(PathBuf),
    Module(String),
    Code(String),
}

impl Target {
    fn harness_words(&self) -> (&'static str, OsString) {
        match self {
            Target::Script(p) => ("script", p.clone().into_os_string()),
            Target::Module(m) => ("module", m.into()),
            Target::Code(c) => ("code", c.into()),
        }
    }

    fn default_output(&self) -> PathBuf {
        // The script's own name, bytes and all: `caf\xff.py` gives `caf\xff.specdiff.json`.
        let mut name = match self {
            Target::Script(p) => p.file_stem().map(OsString::from),
            Target::Module(m) => Some(m.replace('.', "_").into()),
            Target::Code(_) => Some("code".into()),
        }
        .unwrap_or_else(|| "program".into());
        name.push(".specdiff.json");
        PathBuf::from(name)
    }
}

/// The sampling intervals `--interval-ms` takes, in milliseconds: below 0.01 the sampler
/// thread would hold the GIL more than the program; above 1000 a run gets no sample.
const INTERVAL_MS: std::ops::RangeInclusive<f64> = 0.01..=1000.0;

/// Refuses an interval the sampler cannot use, before the program runs (`inf` reached the
/// harness and made it write an invalid dump at the end of the run).
fn check_interval(ms: f64) -> Result<(), String> {
    command_line::within(ms, &ms.to_string(), INTERVAL_MS, "interval", " milliseconds")
        .map(drop)
        .map_err(|why| format!("--interval-ms: {why}"))
}

/// Outcome of a dump, for the exit status.
pub struct DumpOutcome {
    /// The exit status specdiff should end with.
    pub exit_code: i32,
}

/// Runs `specdiff dump`.
pub fn run(args: &DumpArgs) -> Result<DumpOutcome, String> {
    check_interval(args.interval_ms)?;
    let (target, program_args) = resolve_target(args)?;
    let dest = args.output.clone().unwrap_or_else(|| target.default_output());
    if let Target::Script(script) = &target {
        refuse_inputs(&dest, &[("the script", script), ("the script", &script.join("__main__.py"))])?;
    }
    refuse_non_dump(&dest, args.force)?;
    // An empty SPECDIFF_PYTHON (CI set-ups export empty variables) means "not set".
    let from_env = command_line::env_value("SPECDIFF_PYTHON").map(PathBuf::from);
    let python = args.python.clone().or(from_env).unwrap_or_else(|| PathBuf::from(platform::default_python()));
    let probed = probe(&python, match &target {
        Target::Module(m) => Some(m.as_str()),
        _ => None,
    })?;
    check_supported(&python, &probed)?;
    for file in &probed.module_files {
        refuse_inputs(&dest, &[("the module's file", Path::new(file))])?;
    }
    if let Target::Module(m) = &target {
        if probed.module_found == Some(false) {
            return Err(format!("module not found: '{m}' (not importable by {})", probed.describe()));
        }
    }
    // Reserve the output first: an unwritable destination fails before the program runs.
    let pending = PendingOutput::create(&dest)?;

    let temp = std::env::temp_dir();
    sweep_stale(&temp, RUN_PREFIX, "");
    let work = tempfile::Builder::new()
        .prefix(&own_prefix(RUN_PREFIX))
        .tempdir_in(&temp)
        .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let _litter = Litter::new(work.path());
    let harness_path = work.path().join("specdiff_harness.py");
    std::fs::write(&harness_path, HARNESS).map_err(|e| format!("cannot write the harness: {e}"))?;
    let raw_out = work.path().join("dump.json");
    // A pystats build writes its raw stats into /tmp/py_stats (Windows: c:\temp\py_stats): make
    // sure it exists and note what is there now, so the files this run adds can be told apart.
    let capture = if probed.pystats { PystatsCapture::start() } else { None };

    let mut cmd = Command::new(&python);
    if probed.pystats && probed.version >= (3, 13, 0) {
        cmd.args(["-X", "pystats"]);
    }
    cmd.arg(&harness_path).arg("--out").arg(&raw_out);
    for g in &args.include {
        cmd.arg("--include").arg(g);
    }
    for g in &args.exclude {
        cmd.arg("--exclude").arg(g);
    }
    if args.include_unrun {
        cmd.arg("--include-unrun");
    }
    if args.no_sample {
        cmd.arg("--no-sample");
    }
    cmd.arg("--interval-ms").arg(args.interval_ms.to_string());
    if probed.pystats {
        cmd.arg("--pystats-dir").arg(platform::pystats_dir());
    }
    let (kind, value) = target.harness_words();
    cmd.arg("--").arg(kind).arg(value).args(&program_args);

    let end = run_child(cmd)?;
    let interrupted = end.status.code() == Some(130);
    if let Some(failure) = HarnessFailure::read_beside(&raw_out) {
        return Ok(failure.report(&probed.describe(), args.debug));
    }
    if !raw_out.exists() {
        return no_dump(&end, &probed.describe());
    }
    let bytes = std::fs::read(&raw_out).map_err(|e| format!("cannot read the harness output: {e}"))?;
    let mut dump = read_dump("harness output", &bytes, ReadLimits::default())
        .map_err(|e| format!("internal error: the harness wrote an invalid dump ({e})"))?;
    let extra = HarnessExtra::read_beside(&raw_out)?;
    finish_raw_code(&mut dump, &extra.raw_code)?;
    let consumed = attach_pystats(&mut dump, extra.pystats_raw_files, capture.as_ref())?;
    let written = pending.finish(&to_json(&dump))?;
    if let Some(c) = capture {
        c.finish(&consumed);
    }

    let summary = format!(
        "{} ({} code objects, {}) from {}",
        display_path(&dest),
        dump.code.len(),
        human_size(written),
        probed.describe()
    );
    let exit_code = dump.run.exit_status;
    match end.stop {
        Some(sig) if sig != platform::INTERRUPT => {
            eprintln!(
                "specdiff: interrupted by {}; dump of the state at interruption written to {summary}",
                platform::stop_name(sig)
            );
            return Ok(DumpOutcome {
                exit_code: 128 + sig,
            });
        }
        _ => {}
    }
    if interrupted || end.stop.is_some() {
        eprintln!("specdiff: interrupted (Ctrl-C); dump of the state at interruption written to {summary}");
        return Ok(DumpOutcome { exit_code: 130 });
    }
    match (&dump.run.exception, exit_code) {
        (Some(exc), _) => eprintln!(
            "specdiff: the program raised {}; dump written anyway (the specialization state is real): {summary}",
            crate::render::inert(exc)
        ),
        (None, 0) => eprintln!("specdiff: wrote {summary}"),
        (None, code) => eprintln!(
            "specdiff: the program exited with status {code}; dump written anyway (the specialization state is real): {summary}"
        ),
    }
    Ok(DumpOutcome { exit_code })
}

fn resolve_target(args: &DumpArgs) -> Result<(Target, Vec<OsString>), String> {
    if let Some(m) = &args.module {
        return Ok((Target::Module(m.clone()), args.program.clone()));
    }
    if let Some(c) = &args.code {
        return Ok((Target::Code(c.clone()), args.program.clone()));
    }
    let Some((script, rest)) = args.program.split_first() else {
        return Err("nothing to run: give a SCRIPT, -m MODULE or -c CODE".into());
    };
    let path = Path::new(script);
    if !path.exists() {
        return Err(format!("script not found: {}", display_os(script)));
    }
    if path.is_dir() && !path.join("__main__.py").exists() {
        return Err(format!("script not found: {} is a directory without __main__.py", display_os(script)));
    }
    Ok((Target::Script(path.to_path_buf()), rest.to_vec()))
}

/// How long a program gets to stop after a SIGTERM or SIGHUP was passed on to it (and what
/// it started gets after it ended) before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// How the program's process ended, and what specdiff was told meanwhile.
struct ChildEnd {
    status: ExitStatus,
    /// The first stop request specdiff received while the program ran.
    stop: Option<i32>,
    /// The program did not stop within [`GRACE`] and was killed.
    killed: bool,
}

/// Runs the interpreter with inherited stdio, and passes on what specdiff is told: a stop
/// request (SIGTERM, SIGHUP, SIGINT) goes to the program's process group at once. A Ctrl-C
/// from a terminal reaches the program directly when it shares specdiff's group (see
/// [`platform::Grouping`]); then a SIGINT is passed on only if the program has not ended 2 s
/// later (it was sent to specdiff alone). After a SIGTERM or SIGHUP, or a second request,
/// the program is killed if it has not stopped within [`GRACE`]; after it ended, what it
/// started in its group gets the same time, then is killed.
fn run_child(cmd: Command) -> Result<ChildEnd, String> {
    let python = cmd.get_program().to_string_lossy().into_owned();
    let (mut cmd, grouping) = platform::prepare_child(cmd);
    let supervision = signals::supervise();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run python '{python}': {e}"))?;
    platform::adopt(&child);
    let mut stop: Option<i32> = None;
    let mut pending_interrupt: Option<Instant> = None;
    let mut deadline: Option<Instant> = None;
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(format!("lost the python process: {e}")),
        }
        if let Some(sig) = signals::take() {
            let again = stop.is_some();
            stop.get_or_insert(sig);
            if sig == platform::INTERRUPT && grouping.shares_ctrl_c() && !again {
                pending_interrupt = Some(Instant::now());
            } else {
                platform::send_stop(&child, grouping, sig);
            }
            if sig != platform::INTERRUPT || again {
                deadline.get_or_insert(Instant::now() + GRACE);
            }
        }
        if pending_interrupt.is_some_and(|t| t.elapsed() > Duration::from_secs(2)) {
            platform::send_stop(&child, grouping, platform::INTERRUPT);
            pending_interrupt = None;
        }
        if !killed && deadline.is_some_and(|d| Instant::now() >= d) {
            platform::kill_program(&mut child, grouping);
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if stop.is_some() {
        // Stopped: nothing the program started outlives it (each got the request already).
        let until = deadline.unwrap_or_else(|| Instant::now() + GRACE);
        while platform::group_alive(child.id(), grouping) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        platform::kill_group(child.id(), grouping);
    }
    drop(supervision);
    Ok(ChildEnd {
        status,
        stop,
        killed,
    })
}

/// The exit status of a failure of specdiff's own harness: sysexits' EX_SOFTWARE.
pub const INTERNAL_ERROR: i32 = 70;

/// A failure of the harness's own code, as it recorded it in `OUT.failed`: the phase, then
/// the Python traceback.
struct HarnessFailure {
    phase: String,
    traceback: String,
}

impl HarnessFailure {
    fn read_beside(raw_out: &Path) -> Option<HarnessFailure> {
        let mut path = raw_out.as_os_str().to_owned();
        path.push(".failed");
        // The harness writes a phase and a traceback; 1 MB is far more than either.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(std::fs::File::open(&path).ok()?, 1 << 20), &mut bytes).ok()?;
        let text = String::from_utf8_lossy(&bytes);
        let (phase, traceback) = text.split_once('\n').unwrap_or((&text, ""));
        Some(HarnessFailure { phase: phase.trim().to_string(), traceback: traceback.trim_end().to_string() })
    }

    /// Says it in one line (and the traceback with `--debug`) and ends with [`INTERNAL_ERROR`].
    fn report(&self, python: &str, debug: bool) -> DumpOutcome {
        let last = self.traceback.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no traceback");
        eprintln!(
            "specdiff: internal error while {} under {python}: {}; nothing written (a bug in specdiff{})",
            crate::render::inert(&self.phase),
            crate::render::inert(last.trim()),
            if debug { "" } else { "; --debug prints the traceback" }
        );
        if debug {
            for line in self.traceback.lines() {
                eprintln!("{}", crate::render::inert(line));
            }
        }
        DumpOutcome { exit_code: INTERNAL_ERROR }
    }
}

/// What to say and which status to end with when the interpreter wrote no dump. The
/// program's own status is passed on (`os._exit(5)` leaves no dump and exits 5).
fn no_dump(end: &ChildEnd, python: &str) -> Result<DumpOutcome, String> {
    if let Some(sig) = end.stop {
        let how = if end.killed {
            format!(
                "the program did not stop within {} s and was killed",
                GRACE.as_secs()
            )
        } else {
            "the program was stopped".to_string()
        };
        eprintln!(
            "specdiff: interrupted by {}; {how}; no dump written",
            platform::stop_name(sig)
        );
        return Ok(DumpOutcome {
            exit_code: 128 + sig,
        });
    }
    let (message, exit_code) = match platform::ended(&end.status) {
        Ended::Interrupted => ("interrupted (Ctrl-C) before the dump was written; nothing written".to_string(), 130),
        Ended::Signal(sig) => (format!("{python} was killed by signal {sig}; no dump written"), 128 + sig),
        Ended::Code(0) => {
            return Err(format!(
                "{python} exited with status 0 without writing the dump (the program called os._exit(0)?); nothing written"
            ))
        }
        Ended::Code(3) => (
            format!("{python} exited with status 3 without writing the dump (see the message above, or the program called os._exit(3)); nothing written"),
            3,
        ),
        Ended::Code(code) => (
            format!("{python} exited with status {code} without writing the dump (the program called os._exit({code}), or the interpreter failed); nothing written"),
            code,
        ),
    };
    eprintln!("specdiff: {message}");
    Ok(DumpOutcome { exit_code })
}

/// One run's claim on `/tmp/py_stats`.
///
/// CPython 3.11 has no API to switch stats on or off, or to write them: the interpreter
/// always counts, and writes `/tmp/py_stats/<random>.txt` in `Py_FinalizeEx`, after the
/// harness is gone, and only if the folder exists (otherwise it prints the whole table to
/// stderr). So before the run the folder is created and its `.txt` files listed; after the
/// run the new ones are this run's (one per process it started). Other specdiff dumps wait
/// for the lock meanwhile; other pystats-build processes started by hand are not excluded.
struct PystatsCapture {
    /// Held (an exclusive file lock) until the run's files are consumed; `None` if the lock could not be had.
    _lock: Option<std::fs::File>,
    /// We created the folder, so we remove it again if nothing else is left in it.
    created_dir: bool,
    before: Vec<PathBuf>,
}

impl PystatsCapture {
    /// `None` (after a warning) when the folder cannot be created: the run still happens,
    /// without stats.
    fn start() -> Option<Self> {
        let lock = lock_pystats();
        let dir = platform::pystats_dir();
        let created_dir = match std::fs::create_dir(dir) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => false,
            Err(e) => {
                eprintln!(
                    "specdiff: warning: cannot create {} ({e}); the interpreter will print its stats to stderr and the dump will have none",
                    dir.display()
                );
                return None;
            }
        };
        Some(PystatsCapture { _lock: lock, created_dir, before: list_pystats_files() })
    }

    /// The raw files that appeared since [`PystatsCapture::start`].
    fn new_files(&self) -> Vec<PathBuf> {
        list_pystats_files().into_iter().filter(|p| !self.before.contains(p)).collect()
    }

    /// Deletes the raw files whose contents are now in the dump (they would otherwise pile up
    /// and be summed into the next `specdiff stats /tmp/py_stats` or `summarize_stats.py`),
    /// removes the folder if we created it and it is empty, and releases the lock.
    fn finish(self, consumed: &[PathBuf]) {
        for f in consumed {
            let _ = std::fs::remove_file(f);
        }
        if self.created_dir {
            let _ = std::fs::remove_dir(platform::pystats_dir()); // fails, harmlessly, if not empty
        }
    }
}

/// Takes the lock that serializes specdiff dumps running a pystats build (they all share the
/// pystats folder, and a run's files are told apart only by appearing while it ran), waiting
/// (with a note) if another dump holds it. Best effort: `None` if it cannot be had.
fn lock_pystats() -> Option<std::fs::File> {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(platform::pystats_lock_path()).ok()?;
    let waiting = || {
        eprintln!("specdiff: waiting for another specdiff dump that is using {}", platform::pystats_dir().display())
    };
    platform::lock_exclusive(&file, waiting).then_some(file)
}

/// The raw stats files (`*.txt`) in the pystats folder, sorted.
fn list_pystats_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(platform::pystats_dir())
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "txt") && p.is_file());
    v.sort();
    v
}

/// Fills `dump.pystats` from this run's raw files and returns the files it read. The files are
/// those the harness reports writing (3.12+: `sys._stats_dump()`), else (3.11) those that
/// appeared in `/tmp/py_stats` during the run. A file that cannot be read leaves `pystats`
/// `null` with a warning, and the files in place: the dump itself is still good.
fn attach_pystats(dump: &mut Dump, mut files: Vec<PathBuf>, capture: Option<&PystatsCapture>) -> Result<Vec<PathBuf>, String> {
    if !dump.python.pystats_build {
        return Ok(Vec::new());
    }
    let Some(capture) = capture else {
        return Ok(Vec::new());
    };
    if files.is_empty() {
        files = capture.new_files();
    }
    if files.is_empty() {
        eprintln!(
            "specdiff: note: pystats build, but no stats file appeared in {}; the dump has no pystats",
            platform::pystats_dir().display()
        );
        return Ok(Vec::new());
    }
    let stats = files
        .iter()
        .map(|f| std::fs::read(f).map(|b| (f.display().to_string(), b)).map_err(|e| format!("{}: {e}", f.display())))
        .collect::<Result<Vec<_>, _>>()
        .and_then(|contents| {
            let options = PystatsOptions { python: Some(dump.python.minor_version()), ..Default::default() };
            read_pystats(contents.iter().map(|(n, b)| (n.as_str(), b.as_slice())), &options).map_err(|e| e.to_string())
        });
    match stats {
        Ok(stats) => {
            dump.pystats = Some(stats);
            Ok(files)
        }
        Err(e) => {
            eprintln!(
                "specdiff: warning: cannot read this run's pystats ({e}); the dump has no pystats, the raw files are left in {}",
                platform::pystats_dir().display()
            );
            Ok(Vec::new())
        }
    }
}
