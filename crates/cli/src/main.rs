//! The `specdiff` command line: `dump` runs a program and records its adaptive bytecode,
//! `diff` compares two dumps, `stats` imports raw pystats files, `view` serves the web viewer
//! with dumps loaded.
//!
//! Exit codes (documented in the README): 0 success; 1 `diff --fail-on-regression` found a hot
//! regression; 2 bad usage or bad input; for `dump`, the program's own status when it failed
//! (the dump is still written, unless the program left through `os._exit`); 128 + the signal
//! number when specdiff was stopped by SIGINT (130), SIGTERM (143) or SIGHUP (129).

mod calibrate_cmd;
mod command_line;
mod diff_cmd;
mod dump_cmd;
mod gate;
mod harness_output;
mod input;
mod link;
mod output;
mod platform;
mod python;
mod render;
mod serve;
mod signals;
mod stats_cmd;
mod view_cmd;
mod viewer;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

// Reading a whole-program dump makes a few hundred thousand small allocations (strings, cache
// words); with mimalloc `specdiff diff` reads two such dumps ~1.5x faster than with glibc's
// malloc (docs/benchmarks.md, "Diff engine"). mimalloc is C: the `mimalloc` feature (on by
// default) lets a build for a target without a C toolchain (macOS from Linux: no Apple SDK)
// use the system allocator instead.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Lets mimalloc ask for transparent huge pages for its arenas: reading two whole-program dumps
/// touches ~200 MB, and one fault per 2 MB instead of per 4 KB takes ~40% off `specdiff diff`'s
/// wall time on such a pair (docs/benchmarks.md, "Diff engine"). The same as running with
/// `MIMALLOC_ALLOW_LARGE_OS_PAGES=1`; where the kernel has no huge pages it falls back to
/// normal ones. Linux only: Windows grants large pages only to accounts with the "lock pages
/// in memory" privilege, and macOS has no transparent huge pages.
fn large_pages() {
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    // SAFETY: sets a global option of the allocator; mimalloc reads it when it next maps memory.
    unsafe {
        libmimalloc_sys::mi_option_set_enabled(libmimalloc_sys::mi_option_large_os_pages, true)
    };
}

#[derive(Debug, Parser)]
#[command(name = "specdiff", version, about = "See what a change did to CPython's bytecode specialization")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a program under CPython 3.11+ and dump its adaptive bytecode.
    ///
    /// Usage mirrors python: `specdiff dump [OPTIONS] SCRIPT [ARGS]…`,
    /// `specdiff dump [OPTIONS] -m MODULE [ARGS]…`, `specdiff dump [OPTIONS] -c CODE [ARGS]…`.
    Dump(dump_cmd::DumpArgs),
    /// Compare two dumps: every specialization site that was lost or gained, ranked by hotness.
    ///
    /// Exit status: 0 done, 1 `--fail-on-regression` found a hot regression, 2 bad usage or
    /// input.
    Diff(diff_cmd::DiffArgs),
    /// Import raw pystats files (/tmp/py_stats/*.txt) into specdiff's stats format.
    Stats(stats_cmd::StatsArgs),
    /// Measure what each specialized form saves per execution on an interpreter (cached per
    /// interpreter; `--refresh` measures again). Diffs estimate costs with it.
    Calibrate(calibrate_cmd::CalibrateArgs),
    /// Open one or two dumps in the web viewer, served on 127.0.0.1 until Ctrl-C.
    View(view_cmd::ViewArgs),
}

/// Puts a `--` after the program name of `dump`, so the program's own flags are not ours.
/// Words stay OS strings: a file name or a program argument need not be valid Unicode.
fn argv_for_clap(argv: Vec<OsString>) -> Vec<OsString> {
    let Some(pos) = argv.iter().position(|a| a == "dump") else {
        return argv;
    };
    let (head, rest) = argv.split_at(pos + 1);
    let (opts, program) = command_line::split_program_words(rest);
    head.iter().cloned().chain(opts).chain(program).collect()
}

fn main() {
    platform::run_as_reaper_if_asked();
    signals::install();
    large_pages();
    let cli = Cli::parse_from(argv_for_clap(std::env::args_os().collect()));
    let result = match &cli.command {
        Command::Dump(args) => dump_cmd::run(args).map(|o| o.exit_code),
        Command::Diff(args) => diff_cmd::run(args),
        Command::Stats(args) => stats_cmd::run(args).map(|()| 0),
        Command::View(args) => view_cmd::run(args).map(|()| 0),
        Command::Calibrate(args) => calibrate_cmd::run(args).map(|()| 0),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(message) => {
            // Errors quote file names and dump contents: shown inert, never interpreted.
            eprintln!("specdiff: error: {}", render::inert(&message));
            std::process::exit(2);
        }
    }
}
