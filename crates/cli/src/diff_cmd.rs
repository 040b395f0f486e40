//! `specdiff diff BASE HEAD`: read two dumps (and optionally two runs' raw pystats), run the
//! engine (`specdiff_core::diff`), apply the regression gate, and print the result as text,
//! Markdown or JSON.
//!
//! Exit codes: 0 done (also with regressions, unless `--fail-on-regression`); 1 the regression
//! gate tripped; 2 bad usage or input (unreadable or invalid dump, dumps of different programs,
//! unwritable output) — the message is returned to `main` as one line.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use specdiff_core::format::read_dump;
use specdiff_core::model::{parse_minor_version, Stats};
use specdiff_core::report::diff_stats;
use specdiff_core::report::wording::count;
use specdiff_core::view::cost::{diff_cost, rank_by_cost};
use specdiff_core::view::{GateOptions, View, DEFAULT_MIN_HOTNESS};
use specdiff_core::{diff_dumps, DiffOptions, Dump, ReadLimits};

use crate::input::read_input_file;
use crate::link;
use crate::output::{display_path, plain_io_error, refuse_inputs, PendingOutput};
use crate::render::{self, RenderInput};
use crate::stats_cmd::{self, StatsArgs};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For a terminal: summary, then changed functions with source lines and explanations.
    Text,
    /// A pull-request comment: collapsible sections, always under 65,536 characters.
    Markdown,
    /// The engine's report (docs/diff-format.md) plus `stats_diff` and `gate`.
    Json,
    /// One self-contained HTML file: the web viewer with this diff inside (opens from
    /// `file://`, makes no requests). The changed functions only, unless --full.
    Html,
}

/// When to colour text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Arguments of `specdiff diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The dump before the change (`.json` or `.json.gz`, from `specdiff dump`).
    #[arg(value_name = "BASE")]
    pub base: PathBuf,

    /// The dump after the change.
    #[arg(value_name = "HEAD")]
    pub head: PathBuf,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Shorthand for `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Write to this file instead of stdout (written atomically; `.gz`: gzip-compressed).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Colour the text format.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Exit with status 1 when a hot function regressed (lost, missing or backed-off sites;
    /// import-time code only with --gate-import-time).
    #[arg(long)]
    pub fail_on_regression: bool,

    /// Estimate what the regressions cost as a share of the head run's time
    /// (docs/cost-model.md), with the cost model of --cost-model, else the one
    /// `specdiff calibrate` cached for the head run's interpreter, else the one measured here
    /// for its version. The functions with regressions are then ranked by it, most costly
    /// first, in every format.
    #[arg(long)]
    pub cost: bool,

    /// The cost model for --cost (`specdiff calibrate -o FILE`).
    #[arg(long, value_name = "FILE", requires = "cost")]
    pub cost_model: Option<PathBuf>,

    /// With --fail-on-regression and --cost: a hot regressed function fails the gate only when
    /// its estimated cost reaches PERCENT of the head run's time at the low end of the
    /// estimate's interval (`1%` or `1`). A function whose cost cannot be estimated (run not
    /// sampled, a form the cost model has no figure for) does not fail the gate then; the
    /// gate lists it as not estimated, with why.
    #[arg(long, value_name = "PERCENT", value_parser = crate::gate::parse_min_cost, requires = "cost")]
    pub min_cost: Option<f64>,

    /// With --fail-on-regression: a function is hot when its samples show, with 95%
    /// confidence, that at least PERCENT of a run's samples have it on the stack, in the base or
    /// the head run (samples taken inside imports do not count). When neither run was sampled
    /// (`dump --no-sample`, or no threads), every regressed function counts as hot. [default: 1]
    #[arg(long, value_name = "PERCENT", value_parser = crate::gate::parse_min_hotness)]
    pub min_hotness: Option<f64>,

    /// With --fail-on-regression: also fail on import-time code (module and class bodies,
    /// `importlib._bootstrap*`, functions sampled only inside imports), which by default is
    /// reported but not counted.
    #[arg(long)]
    pub gate_import_time: bool,

    /// With --fail-on-regression: also fail on a hot loop that lost its JIT trace, had it
    /// invalidated, or whose trace now ends early (dumps taken with PYTHON_JIT=1). Reported
    /// either way; not counted by default, because whether an executor is attached when a run
    /// ends varies between runs of the same program.
    #[arg(long)]
    pub gate_traces: bool,

    /// Only functions whose qualname, `module.qualname` or `module:qualname` matches GLOB
    /// (`*`, `?`; repeatable). The qualname as shown (`Point.__init__`,
    /// `<lambda>@12:8`) and `co_qualname` both count.
    #[arg(long = "function", value_name = "GLOB")]
    pub functions: Vec<String>,

    /// Only code of modules matching GLOB (repeatable).
    #[arg(long = "module", value_name = "GLOB")]
    pub modules: Vec<String>,

    /// Also list unchanged functions and sites, and every function present on one side only.
    #[arg(long)]
    pub all: bool,

    /// Raw pystats of each run (a file, or a folder of `*.txt`; a `specdiff stats` JSON file
    /// also works). Overrides the dumps' own `pystats`.
    #[arg(long, num_args = 2, value_names = ["BASE_STATS", "HEAD_STATS"])]
    pub stats: Option<Vec<PathBuf>>,

    /// The CPython that wrote numbered --stats files (3.11 or 3.12). Default: the version of
    /// the dump of the same run.
    #[arg(long = "stats-python-version", value_name = "3.11|3.12", value_parser = parse_version)]
    pub stats_python_version: Option<(u32, u32)>,

    /// Diff even dumps that look like different programs (a warning is shown instead).
    #[arg(long)]
    pub allow_unrelated: bool,

    /// Also print the diff's share link for the viewer served at BASE_URL
    /// (`https://OWNER.github.io/REPO/`): text ends with `open in the viewer: URL`, Markdown
    /// starts with the link, JSON gets a `link` field; with --format html, the report's
    /// "share link" makes its links there. Default: env SPECDIFF_LINK_BASE when it is set and
    /// not empty.
    #[arg(long, value_name = "BASE_URL")]
    pub link: Option<String>,

    /// With --format html: both dumps whole in the file, not only the changed functions.
    #[arg(long)]
    pub full: bool,

    /// Longest share link wanted, in characters: past it the least important changed
    /// functions are left out of the link (and the output says how many). With --link.
    /// [default: 32768]
    #[arg(long = "link-cap", value_name = "CHARS")]
    pub link_cap: Option<usize>,

    /// Leave source text out of the share link and shorten its file paths to the
    /// package-relative part (code, sites and numbers stay). With --link.
    #[arg(long)]
    pub redact: bool,
}

fn parse_version(text: &str) -> Result<(u32, u32), String> {
    parse_minor_version(text).ok_or_else(|| format!("{text:?} is not a version like 3.11"))
}

/// Reads and parses one dump; the error names the file.
pub fn load_dump(path: &Path) -> Result<Dump, String> {
    let name = display_path(path);
    let bytes = read_input_file(path)?;
    read_dump(&name, &bytes, ReadLimits::default()).map_err(|e| e.to_string())
}

/// Both dumps, read in parallel.
fn load_both(base: &Path, head: &Path) -> Result<(Dump, Dump), String> {
    let (b, h) = std::thread::scope(|s| {
        let h = s.spawn(|| load_dump(head));
        let b = load_dump(base);
        (b, h.join().expect("reading a dump does not panic"))
    });
    Ok((b?, h?))
}

/// The pystats of each run: from --stats when given, else from the dumps.
fn load_stats(args: &DiffArgs, base: &Dump, head: &Dump) -> Result<(Option<Stats>, Option<Stats>), String> {
    let Some(paths) = &args.stats else {
        return Ok((base.pystats.clone(), head.pystats.clone()));
    };
    let side = |path: &Path, dump: &Dump| -> Result<Option<Stats>, String> {
        let python = args.stats_python_version.or(Some(dump.python.minor_version()));
        let sargs = StatsArgs { inputs: vec![path.to_path_buf()], output: None, python_version: python };
        stats_cmd::load(&sargs).map(|(stats, _)| Some(stats))
    };
    Ok((side(&paths[0], base)?, side(&paths[1], head)?))
}

/// `-o` must not name an input: the report would replace the dump (or stats) it was made
/// from. The files inside a `--stats` folder count too.
fn refuse_own_inputs(args: &DiffArgs, dest: &Path) -> Result<(), String> {
    let mut inputs = vec![("the base dump (BASE)", args.base.clone()), ("the head dump (HEAD)", args.head.clone())];
    for (role, path) in
        ["the base run's --stats input", "the head run's --stats input"].into_iter().zip(args.stats.iter().flatten())
    {
        inputs.extend(stats_cmd::read_paths(std::slice::from_ref(path)).into_iter().map(|p| (role, p)));
    }
    let inputs: Vec<(&str, &Path)> = inputs.iter().map(|(r, p)| (*r, p.as_path())).collect();
    refuse_inputs(dest, &inputs)
}

fn use_color(args: &DiffArgs) -> bool {
    match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && crate::command_line::env_value("NO_COLOR").is_none()
        }
    }
}

/// Runs `specdiff diff`; returns the exit code (0, or 1 when the gate tripped). The error is
/// the one-line message to show (exit 2).
pub fn run(args: &DiffArgs) -> Result<i32, String> {
    if let Some(dest) = &args.output {
        refuse_own_inputs(args, dest)?;
    }
    let format = if args.json { Format::Json } else { args.format };
    if args.full && format != Format::Html {
        return Err("--full is for --format html (the whole dumps inside the report)".into());
    }
    // Options of the gate or of the link without either would change nothing, silently.
    if !args.fail_on_regression {
        if args.min_hotness.is_some() {
            return Err("--min-hotness is for --fail-on-regression (the gate's cut between hot and cold code)".into());
        }
        if args.gate_import_time {
            return Err("--gate-import-time is for --fail-on-regression (what the gate counts)".into());
        }
        if args.min_cost.is_some() {
            return Err("--min-cost is for --fail-on-regression (the estimated cost a regressed function must reach to count)".into());
        }
    }
    let link_base = link::base_url(args.link.as_deref())?;
    if link_base.is_none() && (args.link_cap.is_some() || args.redact) {
        let flag = if args.redact { "--redact" } else { "--link-cap" };
        return Err(format!("{flag} is for --link (or {}): no share link is made", link::ENV));
    }
    // The viewer is in this binary only when it was built first: say so before any work.
    if format == Format::Html {
        crate::viewer::page()?;
    }
    // Reserve the output first: an unwritable destination is reported before any work.
    let pending = args.output.as_deref().map(PendingOutput::create).transpose()?;
    let (base, head) = load_both(&args.base, &args.head)?;
    let options = DiffOptions {
        functions: args.functions.clone(),
        modules: args.modules.clone(),
        include_unchanged: args.all,
        allow_unrelated: args.allow_unrelated,
        ..Default::default()
    };
    let mut report = diff_dumps(&base, &head, &options)
        .map_err(|e| format!("{} and {}: {e}", display_path(&args.base), display_path(&args.head)))?;
    let (base_stats, head_stats) = load_stats(args, &base, &head)?;
    let stats = match (&base_stats, &head_stats) {
        (Some(b), Some(h)) => Some(diff_stats(b, h)),
        _ => None,
    };
    let stats_note = match (&base_stats, &head_stats) {
        (Some(_), None) => Some("only the base run has statistics; a stats diff needs both (see --stats)"),
        (None, Some(_)) => Some("only the head run has statistics; a stats diff needs both (see --stats)"),
        _ => None,
    };
    let min_hotness = args.min_hotness.unwrap_or(DEFAULT_MIN_HOTNESS);
    let gate = args.fail_on_regression.then_some(GateOptions {
        min_hotness,
        import_time: args.gate_import_time,
        traces: args.gate_traces,
        min_cost: args.min_cost,
    });
    let cost = if args.cost {
        let Some(model) = crate::calibrate_cmd::model_for(args.cost_model.as_deref(), &head)? else {
            let (major, minor, ..) = head.python.version_info;
            return Err(format!("--cost: no cost model for CPython {major}.{minor}; make one with `specdiff calibrate --python PATH -o FILE` and pass --cost-model FILE"));
        };
        let mut cost = diff_cost(&report, &head, &model);
        // Every output, the gate's list and the share link follow the ranked report.
        rank_by_cost(&mut report, &mut cost);
        Some(cost)
    } else {
        None
    };
    let mut view = View::costed(&report, gate, cost);
    let cap = args.link_cap.unwrap_or(specdiff_core::share::DEFAULT_CAP_CHARS);
    let options = specdiff_core::share::LinkOptions { cap, redact: args.redact };
    let viewer = link_base.clone();
    let link = match link_base {
        Some(url) => {
            let (url, note) = link::share_link(&url, &base, &head, &report, options);
            view = view.with_link(&note);
            Some(url)
        }
        None => None,
    };
    let input = RenderInput {
        report: &report,
        base: &base,
        head: &head,
        stats: stats.as_ref(),
        stats_note,
        view: &view,
        link: link.as_deref(),
    };
    let bytes = match format {
        Format::Text => render::text::render(&input, use_color(args), args.all).into_bytes(),
        Format::Markdown => render::markdown::render(&input, render::markdown::GITHUB_COMMENT_LIMIT).into_bytes(),
        Format::Json => render::json::render(&input),
        Format::Html => crate::viewer::report(&base, &head, &report, args.full, viewer.as_deref())?.into_bytes(),
    };
    match pending {
        Some(out) => {
            out.finish(&bytes)?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&bytes).and_then(|()| stdout.flush()) {
                Ok(()) => {}
                // `specdiff diff … | head`: the reader left; not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => return Err(format!("cannot write to stdout: {}", plain_io_error(&e))),
            }
        }
    }
    // The process ends right after this; freeing ~a million small allocations of two
    // whole-program dumps would take longer than the rest of the output.
    std::mem::forget((base, head, report));
    Ok(match view.gate {
        Some(g) if g.tripped => {
            // Names come from the dumps: shown inert, so a name cannot forge or hide stderr lines.
            // Three names, or all four: "and 1 more" would take the place of the name it hides.
            let shown = if g.hot.len() <= 4 { g.hot.len() } else { 3 };
            let names: Vec<_> = g.hot.iter().take(shown).map(|f| render::inert(&f.function)).collect();
            let more = if g.hot.len() > shown { format!(" and {} more", g.hot.len() - shown) } else { String::new() };
            // With --min-cost the count is of functions shown to cost that much: say so.
            let costing = g.min_cost.map(|c| format!(" costing ≥ {c}% of run time (estimate's low end)")).unwrap_or_default();
            eprintln!(
                "specdiff: regression gate tripped: {}{costing} regressed: {}{more}",
                count(g.hot.len() as u64, "hot function", "hot functions"),
                names.join(", ")
            );
            1
        }
        _ => 0,
    })
}
