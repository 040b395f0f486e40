//! Loading files: where dropped files go ([`plan_load`]), reading dumps and raw pystats into
//! [`Run`]s, and placing them on their sides. Parsing is `specdiff_core`'s.

use specdiff_core::model::Dump;
use specdiff_core::format::{is_gzip, sniff, Sniffed};
use specdiff_core::model::Stats;

use super::{Run, Session, BROWSER_LIMITS};
use crate::format::date;
use crate::view_model::*;
use crate::protocol::Response;

/// A file handed to the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct InputFile {
    /// File name as the user gave it.
    pub name: String,
    /// Its bytes. The core reads them uncompressed only (its `gzip` feature is off here): the
    /// bridge inflates `.gz` files with the browser's `DecompressionStream` first.
    pub bytes: Vec<u8>,
    /// Why the file could not be read before it reached the engine (a corrupt or truncated
    /// gzip file): one line naming the file, reported on the file's side like a parse error.
    pub error: Option<String>,
}

impl InputFile {
    /// A file from a name and bytes.
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        InputFile { name: name.into(), bytes: bytes.into(), error: None }
    }

    /// A file that could not be read: `error` is its one-line message.
    pub fn unreadable(name: impl Into<String>, error: String) -> Self {
        InputFile { name: name.into(), bytes: Vec::new(), error: Some(error) }
    }

    /// Raw pystats (`.txt`, or text that looks like `key : value` lines), else a dump.
    pub fn is_stats(&self) -> bool {
        let lower = self.name.to_ascii_lowercase();
        if lower.ends_with(".txt") {
            return true;
        }
        !is_gzip(&self.bytes) && sniff(&self.bytes) == Sniffed::RawPystats
    }
}

/// Where dropped files go.
#[derive(Debug, PartialEq)]
pub enum Plan {
    /// Files per side (a side gets at most one dump and any number of stats files).
    Sides(Vec<(Side, Vec<InputFile>)>),
    /// Two dumps dropped together: which is base is decided after reading them.
    Pair(InputFile, InputFile),
    /// Nothing can be loaded: one line for the user.
    Refused(Option<Side>, String),
}

/// Decides where `files` go. `side`: the pane they were dropped on (None: anywhere on the page);
/// `loaded`: which sides hold a run now; `with_stats`: which hold statistics.
///
/// Pystats files dropped without a dump go to the first side without statistics (and are
/// attached to that side's dump, see [`Session`]).
pub fn plan_load(side: Option<Side>, files: Vec<InputFile>, loaded: [bool; 2], with_stats: [bool; 2]) -> Plan {
    if files.is_empty() {
        return Plan::Refused(side, "no files".into());
    }
    let (stats, dumps): (Vec<_>, Vec<_>) = files.into_iter().partition(InputFile::is_stats);
    let names = |v: &[InputFile]| v.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(s) = side {
        if dumps.len() > 1 {
            return Plan::Refused(Some(s), format!("one dump per side, got {} ({})", dumps.len(), names(&dumps)));
        }
        let mut all = dumps;
        all.extend(stats);
        return Plan::Sides(vec![(s, all)]);
    }
    match dumps.len() {
        0 => {
            let target = if !with_stats[0] { Side::Base } else { Side::Head };
            Plan::Sides(vec![(target, stats)])
        }
        1 => {
            let target = if !loaded[0] { Side::Base } else { Side::Head };
            let mut all = dumps;
            all.extend(stats);
            Plan::Sides(vec![(target, all)])
        }
        2 if stats.is_empty() => {
            let mut it = dumps.into_iter();
            Plan::Pair(it.next().unwrap(), it.next().unwrap())
        }
        2 => Plan::Refused(None, "two dumps and pystats files at once: drop the pystats files on the base or head pane".into()),
        n => Plan::Refused(None, format!("at most two dumps at a time, got {n} ({})", names(&dumps))),
    }
}

impl Session {
    pub(super) fn load(&mut self, side: Option<Side>, files: Vec<InputFile>, out: &mut dyn FnMut(Response)) {
        let loaded = [self.sides[0].is_some(), self.sides[1].is_some()];
        let with_stats = [0, 1].map(|i| self.sides[i].as_ref().is_some_and(|r| r.stats().is_some()));
        fn place(me: &mut Session, side: Side, r: Result<Run, String>, out: &mut dyn FnMut(Response)) {
            match r {
                // Statistics alone, dropped on a side with a dump: attached to it.
                Ok(run) if run.dump.is_none() && me.sides[side.index()].as_ref().is_some_and(|r| r.dump.is_some()) => {
                    let existing = me.sides[side.index()].as_mut().unwrap();
                    existing.stats = run.stats;
                    existing.info.stats_files = run.info.stats_files;
                    out(Response::Loaded { side, info: existing.info.clone() });
                }
                Ok(run) => {
                    out(Response::Loaded { side, info: run.info.clone() });
                    me.sides[side.index()] = Some(run);
                }
                Err(message) => {
                    // The side is emptied so no stale run hides the error.
                    me.sides[side.index()] = None;
                    out(Response::Failed { side: Some(side), message });
                }
            }
        }
        match plan_load(side, files, loaded, with_stats) {
            Plan::Refused(side, message) => out(Response::Failed { side, message }),
            Plan::Sides(parts) => {
                let total = parts.iter().map(|(_, f)| f.len()).sum::<usize>().max(1);
                let mut done = 0;
                for (side, files) in parts {
                    let r = read_run(side, files, &mut done, total, out);
                    place(self, side, r, out);
                }
            }
            Plan::Pair(a, b) => {
                let mut done = 0;
                let ra = read_run(Side::Base, vec![a], &mut done, 2, out);
                let rb = read_run(Side::Head, vec![b], &mut done, 2, out);
                let (ra, rb) = match (ra, rb) {
                    (Ok(a), Ok(b)) if pair_is_reversed(&a, &b) => (Ok(b), Ok(a)),
                    other => other,
                };
                place(self, Side::Base, ra, out);
                place(self, Side::Head, rb, out);
            }
        }
    }
}

/// Two dumps dropped together: true when `a` should be head. Names saying "base"/"head" win,
/// then the start time (the earlier run is base).
fn pair_is_reversed(a: &Run, b: &Run) -> bool {
    let (na, nb) = (a.info.file.to_ascii_lowercase(), b.info.file.to_ascii_lowercase());
    let says = |n: &str, w: &str| n.contains(w);
    if says(&na, "head") && !says(&nb, "head") || says(&nb, "base") && !says(&na, "base") {
        return true;
    }
    if says(&na, "base") || says(&nb, "head") {
        return false;
    }
    match (&a.dump, &b.dump) {
        (Some(x), Some(y)) => x.run.started > y.run.started,
        _ => false,
    }
}

fn read_run(side: Side, files: Vec<InputFile>, done: &mut usize, total: usize, out: &mut dyn FnMut(Response)) -> Result<Run, String> {
    let mut dump = None;
    let mut stats_files = Vec::new();
    let mut stats_inputs = Vec::new();
    let mut first_name = None;
    for f in files {
        first_name.get_or_insert_with(|| f.name.clone());
        out(Response::Progress {
            side: Some(side),
            label: format!("parsing {}", f.name),
            fraction: 0.3 + 0.5 * (*done as f64) / total as f64,
        });
        *done += 1;
        if let Some(e) = f.error {
            return Err(e);
        }
        if f.is_stats() {
            stats_files.push(f.name.clone());
            stats_inputs.push(f);
        } else {
            let d = specdiff_core::read_dump(&f.name, &f.bytes, BROWSER_LIMITS).map_err(|e| e.to_string())?;
            dump = Some((f.name, d));
        }
    }
    let python = dump.as_ref().map(|(_, d)| d.python.minor_version());
    let stats = if stats_inputs.is_empty() { None } else { Some(read_stats(&stats_inputs, python)?) };
    let file = match &dump {
        Some((n, _)) => n.clone(),
        None => first_name.unwrap_or_default(),
    };
    let info = side_info(&file, dump.as_ref().map(|(_, d)| d), &stats_files);
    Ok(Run::new(info, dump.map(|(_, d)| d), stats))
}

/// Raw pystats files of one run, summed by `specdiff_core::format::read_pystats`. Numbered (3.11/3.12)
/// files are read with the version of the dump loaded with them, when there is one.
fn read_stats(files: &[InputFile], python: Option<(u32, u32)>) -> Result<Stats, String> {
    let options = specdiff_core::format::PystatsOptions { python, limits: BROWSER_LIMITS };
    specdiff_core::format::read_pystats(files.iter().map(|f| (f.name.as_str(), f.bytes.as_slice())), &options).map_err(|e| e.to_string())
}

pub(super) fn side_info(file: &str, dump: Option<&Dump>, stats_files: &[String]) -> SideInfo {
    let mut info = SideInfo { file: file.to_string(), stats_files: stats_files.to_vec(), ..Default::default() };
    if let Some(d) = dump {
        info.python = format!("CPython {}", d.python.version);
        let command = d.run.argv.join(" ");
        let command = if command.is_empty() { &d.run.target.value } else { &command };
        // The program wrote its argv: bidi controls in it would reorder the page around it.
        info.command = specdiff_core::report::wording::inert(command).into_owned();
        info.date = date(&d.run.started);
        info.code_objects = d.code.len();
        info.has_dump = true;
        if d.run.exit_status != 0 {
            info.note = Some(match &d.run.exception {
                Some(e) => format!("exit status {} ({e})", d.run.exit_status),
                None => format!("exit status {}", d.run.exit_status),
            });
        }
    } else {
        info.python = "pystats only".into();
    }
    info
}
