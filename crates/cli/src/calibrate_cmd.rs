//! `specdiff calibrate`: measure what each specialized form saves per execution on one
//! interpreter (the embedded `calibrate/calibrate.py`, `docs/cost-model.md`), keep the result in
//! the user's cache dir so each interpreter is measured once, and find the model `diff --cost`
//! uses.

use std::path::{Path, PathBuf};
use std::process::Command;

use specdiff_core::format::{committed_cost_model, read_cost_model, ReadLimits};
use specdiff_core::model::{CostModel, Dump};
// run-stable, unlike std's hasher: the cache key must not change between builds
use specdiff_core::util::fnv::{fnv, FNV_OFFSET};

use crate::output::{display_path, PendingOutput};
use crate::platform;
use crate::python::{check_supported, probe};

/// The calibration program: stdlib-only, prints one cost model document.
const CALIBRATE_PY: &str = include_str!("calibrate/calibrate.py");

/// Arguments of `specdiff calibrate`.
#[derive(Debug, clap::Args)]
pub struct CalibrateArgs {
    /// The interpreter to measure (default: as `specdiff dump` chooses). [env: SPECDIFF_PYTHON]
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,

    /// Measure again even when the cache has this interpreter's model.
    #[arg(long)]
    pub refresh: bool,

    /// Five short rounds instead of 21 (seconds instead of half a minute; for tests, too noisy
    /// for estimates). Never cached.
    #[arg(long)]
    pub quick: bool,

    /// Print the model as JSON instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Also write the model to this file.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Runs `specdiff calibrate`.
pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    let from_env = std::env::var_os("SPECDIFF_PYTHON").filter(|v| !v.is_empty()).map(PathBuf::from);
    let python = args.python.clone().or(from_env).unwrap_or_else(|| PathBuf::from(platform::default_python()));
    let pending = args.output.as_deref().map(PendingOutput::create).transpose()?;
    let (model, from_cache) = calibrated(&python, args.refresh, args.quick)?;
    let text = serde_json::to_string_pretty(&model).map_err(|e| format!("cannot write the model: {e}"))? + "\n";
    if let Some(out) = pending {
        out.finish(text.as_bytes())?;
    }
    if args.json {
        print!("{text}");
    } else {
        print!("{}", table(&model, from_cache));
    }
    Ok(())
}

/// The model of `python`: from the cache unless `refresh` or `quick`, else measured (and, when
/// full, cached). The flag says whether it came from the cache.
fn calibrated(python: &Path, refresh: bool, quick: bool) -> Result<(CostModel, bool), String> {
    let probed = probe(python, None)?;
    check_supported(python, &probed)?;
    let cached = cache_file(python);
    if let (false, false, Some(file)) = (refresh, quick, &cached) {
        if let Ok(bytes) = std::fs::read(file) {
            if let Ok(model) = read_cost_model(&display_path(file), &bytes, ReadLimits::default()) {
                return Ok((model, true));
            }
        }
    }
    let model = measure(python, quick)?;
    if let (false, Some(file)) = (quick, cached) {
        // The cache is a convenience: a read-only home still gets its table printed.
        let text = serde_json::to_string_pretty(&model).unwrap_or_default();
        let _ = file.parent().map(std::fs::create_dir_all);
        if let Ok(out) = PendingOutput::create(&file) {
            let _ = out.finish(text.as_bytes());
        }
    }
    Ok((model, false))
}

/// Runs the calibration program under `python` and reads what it prints.
fn measure(python: &Path, quick: bool) -> Result<CostModel, String> {
    let shown = display_path(python);
    eprintln!("specdiff: measuring specialized forms on {shown} ({})…", if quick { "quick: a few seconds" } else { "about half a minute" });
    let mut cmd = Command::new(python);
    // -I: no user site-packages, no PYTHON* variables, no script directory on the path.
    cmd.arg("-I").arg("-c").arg(CALIBRATE_PY);
    if quick {
        cmd.arg("--quick");
    }
    let output = cmd.output().map_err(|e| format!("cannot run python '{shown}': {e}"))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return Err(format!("calibration failed under '{shown}': {}", last.trim()));
    }
    read_cost_model(&format!("calibration output of '{shown}'"), &output.stdout, ReadLimits::default()).map_err(|e| e.to_string())
}

/// Where the model of `python` is cached: one file per interpreter, named by its resolved path,
/// its size and modification time and the calibration program, so that an upgraded
/// interpreter or a changed program is measured again.
fn cache_file(python: &Path) -> Option<PathBuf> {
    let resolved = which(python)?.canonicalize().ok()?;
    let meta = std::fs::metadata(&resolved).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
    let key = format!("{}\n{}\n{modified}\n{CALIBRATE_PY}", resolved.display(), meta.len());
    let stem: String = resolved.file_name()?.to_string_lossy().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
    Some(platform::cache_dir()?.join("cost-models").join(format!("{stem}-{:016x}.json", fnv(FNV_OFFSET, key.as_bytes()))))
}

/// `python` as a path: itself when it names a file, else looked up on `PATH`.
fn which(python: &Path) -> Option<PathBuf> {
    if python.components().count() > 1 || python.is_file() {
        return Some(python.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(python)).find(|p| p.is_file())
}

/// The model `diff --cost` estimates with: the file given, else the cached calibration of the
/// head run's interpreter (the same x.y.z), else the model committed for its version.
pub fn model_for(given: Option<&Path>, head: &Dump) -> Result<Option<CostModel>, String> {
    if let Some(file) = given {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", display_path(file)))?;
        return read_cost_model(&display_path(file), &bytes, ReadLimits::default()).map(Some).map_err(|e| e.to_string());
    }
    let (major, minor, micro, ..) = head.python.version_info;
    let interpreter = Path::new(&head.python.executable);
    let cached = interpreter.is_file().then(|| cache_file(interpreter)).flatten().and_then(|f| {
        let bytes = std::fs::read(&f).ok()?;
        read_cost_model(&display_path(&f), &bytes, ReadLimits::default()).ok()
    });
    Ok(cached.filter(|m| m.python == format!("{major}.{minor}.{micro}")).or_else(|| committed_cost_model((major, minor))))
}

/// The model as a table: one line per form, then what was not measured.
fn table(model: &CostModel, from_cache: bool) -> String {
    let mut out = format!(
        "CPython {} ({} calibration, {} rounds of {} executions{}): what one execution of each specialized form saves\n",
        model.python,
        model.mode,
        model.rounds,
        model.executions,
        if from_cache { ", cached; --refresh measures again" } else { "" }
    );
    out += &format!("{:<16} {:<26} {:<28} {:>9} {:>9} {:>17}  generic by\n", "family", "operation", "specialized", "spec ns", "gen ns", "saved ns (p10–90)");
    for f in &model.forms {
        let saved = format!("{:.1} ({:.1}–{:.1})", f.saved_ns, f.saved_low_ns, f.saved_high_ns);
        out += &format!(
            "{:<16} {:<26} {:<28} {:>9.1} {:>9.1} {:>17}  {}\n",
            f.family, f.operation, f.specialized, f.specialized_ns, f.generic_ns, saved, f.generic_by
        );
    }
    if let Some(s) = &model.simple {
        out += &format!("simple instructions (local loads and stores, pops, jumps): {:.2} ns each ({:.2}–{:.2})\n", s.ns, s.low_ns, s.high_ns);
    }
    for u in &model.unmeasured {
        out += &format!("not measured: {}: {}\n", u.family, u.why);
    }
    out
}
