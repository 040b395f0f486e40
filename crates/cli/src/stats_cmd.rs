//! `specdiff stats`: read CPython's raw pystats files (one per process of a run), sum them, and
//! either write them as a `specdiff-stats` JSON file (`-o`) or print a short summary.
//!
//! The parsing and every number live in `specdiff_core::pystats` / `stats_diff`; this module
//! only finds the files, reads them and writes or prints the result.

use std::path::PathBuf;

use specdiff_core::format::{read_pystats, PystatsOptions, StatsFile};
use specdiff_core::cpython::numbered_versions;
use specdiff_core::model::{parse_minor_version, Stats};
use specdiff_core::report::wording::{count, grouped};
use specdiff_core::report::{percent, summarize, StatsSummary};

use crate::input::read_input_file;
use crate::output::{display_path, human_size, plain_io_error, refuse_inputs, PendingOutput};
use crate::render::name;

/// Arguments of `specdiff stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Raw pystats files (`/tmp/py_stats/*.txt`), or folders of them (every `*.txt` inside).
    /// All of them are summed as one run.
    #[arg(required = true, value_name = "FILES_OR_DIRS")]
    pub inputs: Vec<PathBuf>,

    /// Write the statistics to this JSON file (`.json.gz`: gzip-compressed) instead of
    /// printing a summary.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// The CPython version that wrote the files. 3.11 and 3.12 name opcodes by number, so
    /// the right table matters (default 3.11); 3.13+ files name opcodes and are recognized,
    /// and their version (e.g. 3.13) names their failure kinds.
    #[arg(long = "python-version", value_name = "3.X", value_parser = parse_python_version)]
    pub python_version: Option<(u32, u32)>,
}

fn parse_python_version(text: &str) -> Result<(u32, u32), String> {
    let version = parse_minor_version(text).ok_or_else(|| format!("{text:?} is not a version like 3.11"))?;
    if version < (3, 11) {
        return Err(format!("{text}: pystats files exist from CPython 3.11 on"));
    }
    Ok(version)
}

/// The files named by `inputs`: files as given, folders replaced by their `*.txt` files.
fn expand_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input)
                .map_err(|e| format!("{}: cannot read folder: {}", display_path(input), plain_io_error(&e)))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "txt"))
                .collect();
            if found.is_empty() {
                return Err(format!("{}: no *.txt pystats files in this folder", display_path(input)));
            }
            // Sorted, so error messages and summing order do not depend on the file system.
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

/// Every path `inputs` reads, for the check that an output is none of them: each input as
/// given and, for a folder, its `*.txt` files (an unreadable folder is reported on reading).
pub fn read_paths(inputs: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths = inputs.to_vec();
    paths.extend(inputs.iter().flat_map(|i| expand_inputs(std::slice::from_ref(i)).unwrap_or_default()));
    paths
}

/// Reads and sums every input.
pub fn load(args: &StatsArgs) -> Result<(Stats, usize), String> {
    let files = expand_inputs(&args.inputs)?;
    let mut contents = Vec::with_capacity(files.len());
    for path in &files {
        let bytes = read_input_file(path)?;
        contents.push((display_path(path), bytes));
    }
    let options = PystatsOptions { python: args.python_version, ..Default::default() };
    let stats = read_pystats(contents.iter().map(|(n, b)| (n.as_str(), b.as_slice())), &options)
        .map_err(|e| e.to_string())?;
    Ok((stats, files.len()))
}

/// Runs `specdiff stats`. The error is the one-line message to show.
pub fn run(args: &StatsArgs) -> Result<(), String> {
    if let Some(dest) = &args.output {
        let inputs = read_paths(&args.inputs);
        refuse_inputs(dest, &inputs.iter().map(|p| ("an input file", p.as_path())).collect::<Vec<_>>())?;
    }
    // Reserve the output first: an unwritable destination is reported before any reading.
    let pending = args.output.as_deref().map(PendingOutput::create).transpose()?;
    let (stats, nfiles) = load(args)?;
    match (pending, &args.output) {
        (Some(out), Some(dest)) => {
            let json = StatsFile::new(stats, format!("specdiff {}", env!("CARGO_PKG_VERSION"))).to_json();
            let written = out.finish(&json)?;
            eprintln!(
                "specdiff: wrote {} ({}, {})",
                display_path(dest),
                count(nfiles as u64, "raw file", "raw files"),
                human_size(written)
            );
        }
        _ => print!("{}", render_summary(&stats, &summarize(&stats), &args.inputs)),
    }
    Ok(())
}

/// The human summary printed without `-o`: one line per family, then the busiest opnames.
pub fn render_summary(stats: &Stats, summary: &StatsSummary, inputs: &[PathBuf]) -> String {
    let mut out = String::new();
    let numbering = match &stats.python {
        Some(v) if numbered_versions().iter().any(|&(a, b)| format!("{a}.{b}") == *v) => {
            format!("CPython {v} opcode numbers")
        }
        Some(v) => format!("CPython {}", name(v)),
        None => "opcode names (CPython 3.13+)".into(),
    };
    let shown: Vec<String> = inputs.iter().map(|p| display_path(p)).collect();
    out.push_str(&format!(
        "{}: {}, {}, {} instructions executed\n\n",
        shown.join(" "),
        count(stats.files, "raw file", "raw files"),
        numbering,
        grouped(summary.total_executions)
    ));
    // Only families CPython specializes (or counted specialization events for); heads of
    // superinstructions such as LOAD_FAST have nothing to show here.
    let families: Vec<_> = summary
        .families
        .iter()
        .filter(|f| f.specializable || f.total() > f.unquickened || f.attempts() > 0 || f.deopt > 0)
        .collect();
    if families.is_empty() {
        out.push_str("no specialization counters\n");
    } else {
        let families: Vec<_> = families.into_iter().map(|f| (name(&f.family), f)).collect();
        let width = families.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(6).clamp(6, crate::render::NAME_COLUMN_MAX);
        out.push_str(&format!(
            "{:<width$} {:>11} {:>9} {:>11} {:>9} {:>6} {:>8} {:>8}  top failure kinds\n",
            "family", "unquickened", "deferred", "hit", "miss", "deopt", "success", "failure"
        ));
        for (family, f) in families {
            let kinds: Vec<String> =
                f.failure_kinds.iter().take(3).map(|k| format!("{} {}", name(&k.name.label), grouped(k.count))).collect();
            out.push_str(&format!(
                "{:<width$} {:>11} {:>9} {:>11} {:>9} {:>6} {:>8} {:>8}  {}\n",
                family,
                grouped(f.unquickened),
                grouped(f.deferred),
                grouped(f.hit),
                grouped(f.miss),
                grouped(f.deopt),
                grouped(f.success),
                grouped(f.failure),
                kinds.join(", ")
            ));
        }
    }
    let top: Vec<_> = summary.executions.iter().take(15).collect();
    if !top.is_empty() {
        let top: Vec<_> = top.into_iter().map(|e| (name(&e.opname), e)).collect();
        let width = top.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(6).min(crate::render::NAME_COLUMN_MAX);
        out.push_str("\nmost executed instructions\n");
        for (name, e) in top {
            let miss = if e.miss > 0 { format!("  miss {}", percent(e.miss, e.count)) } else { String::new() };
            out.push_str(&format!(
                "  {:<width$} {:>12} {:>6}{}\n",
                name,
                grouped(e.count),
                percent(e.count, summary.total_executions),
                miss
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouping_and_versions() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(parse_python_version("3.12"), Ok((3, 12)));
        assert!(parse_python_version("3.10").is_err());
        assert!(parse_python_version("x").is_err());
    }

    #[test]
    fn long_opnames_are_shown_capped() {
        // Raw pystats files name opcodes (3.13+): one named with 70,000 characters used to be
        // printed whole in the summary's opname column; now capped with its length.
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        let long = "X".repeat(70_000);
        std::fs::write(&a, format!("opcode[{long}].execution_count : 5\nopcode[{long}].specializable : 1\n")).unwrap();
        let args = StatsArgs { inputs: vec![a], output: None, python_version: None };
        let (stats, _) = load(&args).unwrap();
        let text = render_summary(&stats, &summarize(&stats), &args.inputs);
        assert!(text.contains("…[70,000 chars #") && text.len() < 4_000, "{} bytes: {text:.300}", text.len());
    }

    #[test]
    fn folders_and_files_end_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "opcode[1].execution_count : 5\nCalls to PyEval_EvalDefault: 1\n").unwrap();
        std::fs::write(dir.path().join("b.txt"), "opcode[1].execution_count : 2\n").unwrap();
        std::fs::write(dir.path().join("notes.md"), "ignored").unwrap();
        let out = dir.path().join("out.json.gz");
        let args = StatsArgs { inputs: vec![dir.path().to_path_buf()], output: Some(out.clone()), python_version: None };
        run(&args).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        let stats = specdiff_core::format::read_stats_file("out.json.gz", &bytes, Default::default()).unwrap();
        assert_eq!(stats.files, 2);
        assert_eq!(stats.opcodes["POP_TOP"].execution_count, 7);

        let args = StatsArgs { inputs: vec![a.clone()], output: None, python_version: None };
        let (stats, n) = load(&args).unwrap();
        assert_eq!(n, 1);
        let text = render_summary(&stats, &summarize(&stats), &args.inputs);
        assert!(text.contains("1 raw file, CPython 3.11 opcode numbers, 5 instructions executed"), "{text}");
        assert!(text.contains("POP_TOP"), "{text}");

        std::fs::write(&a, "opcode[1].execution_count : many\n").unwrap();
        let e = run(&StatsArgs { inputs: vec![a.clone()], output: None, python_version: None }).unwrap_err();
        assert_eq!(e, format!("{}: not a pystats file: line 1: value \"many\" of \"opcode[1].execution_count\" is not a non-negative integer", a.display()));
        let empty = tempfile::tempdir().unwrap();
        let e = run(&StatsArgs { inputs: vec![empty.path().to_path_buf()], output: None, python_version: None }).unwrap_err();
        assert!(e.ends_with("no *.txt pystats files in this folder"), "{e}");
        let e = run(&StatsArgs { inputs: vec![dir.path().join("missing.txt")], output: None, python_version: None }).unwrap_err();
        assert!(e.contains("missing.txt: cannot read: no such file"), "{e}");
    }
}
