//! The diff engine on two dumps made from real ones: the input (through `arbitrary`) picks a
//! base and a head among the test fixtures (any CPython version each) and a list of edits to
//! apply to either side: opcodes, arguments, lines, caches, counters, churn, names, parents,
//! kinds, whole code objects, new opnames, the interpreter version. Each edited dump is written
//! and read back with the real reader, so only dumps the reader accepts reach the engine (that
//! is its contract). Then the report (what `diff_dumps` returns) and `function_rows` for every
//! function (matched, added, removed, and a few arbitrary pairs) must not panic. An input
//! keeps a window of each side's code objects (`share::reduce`, as links do) for speed; one
//! input in 256 diffs the whole programs.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use specdiff_core::engine::AlignAlgorithm;
use specdiff_core::format::to_json;
use specdiff_core::share::reduce;
use specdiff_core::model::{Churn, CodeKind, CounterKind, Dump, OpInfo};
use specdiff_core::{read_dump, DiffError, DiffOptions, DiffSession, ReadLimits};

#[path = "../common/fixtures.rs"]
mod fixtures;
use fixtures::dumps;

const LIMITS: ReadLimits = ReadLimits { max_bytes: 1 << 24 };

#[derive(Debug, Arbitrary)]
enum Edit {
    Op { code: u16, ins: u16, op: u16 },
    Arg { code: u16, ins: u16, arg: Option<u32> },
    Argrepr { code: u16, ins: u16, string: u16 },
    Line { code: u16, ins: u16, line: Option<u32> },
    Offset { code: u16, ins: u16, offset: u32 },
    Cache { code: u16, ins: u16, cache: Vec<u16> },
    Counter { code: u16, ins: u16, counter: Option<(u16, u8)> },
    Churn { code: u16, ins: u16, churn: Option<(u32, Vec<u16>)> },
    RemoveIns { code: u16, ins: u16 },
    DuplicateIns { code: u16, ins: u16 },
    SwapIns { code: u16, a: u16, b: u16 },
    Qualname { code: u16, string: u16 },
    Module { code: u16, string: u16 },
    FirstLine { code: u16, line: u32 },
    Kind { code: u16, kind: u8 },
    Parent { code: u16, parent: Option<u16> },
    Ran { code: u16, ran: bool },
    Samples { code: u16, samples: (u64, u64), line_samples: Vec<(u32, u64)> },
    RemoveCode { code: u16 },
    CloneCode { code: u16 },
    NewString(String),
    /// An op from another fixture's table (another CPython version's opnames).
    ForeignOp { fixture: u8, op: u16 },
    NewOp { name: String, family: String, specialized: bool, counter: Option<u8> },
    Version { minor: u8 },
    Source { file: u16, run: u16, line: u16, string: u16 },
}

#[derive(Debug, Arbitrary)]
struct Input {
    base: u8,
    head: u8,
    edits: Vec<(bool, Edit)>,
    functions: Vec<String>,
    modules: Vec<String>,
    include_unchanged: bool,
    explain: bool,
    allow_unrelated: bool,
    min_misses: u16,
    min_flips: u32,
    algorithm: u8,
    rows: Vec<(u16, u16)>,
    /// Keep only code objects `start..=start + len % 8` of each side (before the edits); a
    /// `start` of 255 keeps them all.
    window: (u8, u8),
}

fn pick(n: usize, i: u16) -> Option<usize> {
    (n > 0).then(|| i as usize % n)
}

fn apply(d: &mut Dump, edit: Edit) {
    let (ns, no, nc) = (d.strings.len(), d.ops.len(), d.code.len());
    fn code(d: &mut Dump, c: u16) -> Option<&mut specdiff_core::model::CodeInfo> {
        let n = d.code.len();
        pick(n, c).map(move |c| &mut d.code[c])
    }
    macro_rules! ins {
        ($c:expr, $i:expr) => {{
            let Some(c) = code(d, $c) else { return };
            let Some(i) = pick(c.instructions.len(), $i) else { return };
            &mut c.instructions[i]
        }};
    }
    match edit {
        Edit::Op { code, ins, op } => ins!(code, ins).op = pick(no, op).unwrap_or(0) as u32,
        Edit::Arg { code, ins, arg } => ins!(code, ins).arg = arg,
        Edit::Argrepr { code, ins, string } => ins!(code, ins).argrepr = pick(ns, string).unwrap_or(0) as u32,
        Edit::Line { code, ins, line } => ins!(code, ins).line = line,
        Edit::Offset { code, ins, offset } => ins!(code, ins).offset = offset,
        Edit::Cache { code, ins, cache } => ins!(code, ins).cache = cache,
        Edit::Counter { code, ins, counter } => ins!(code, ins).counter = counter,
        Edit::Churn { code, ins, churn } => {
            ins!(code, ins).churn = churn.map(|(flips, seen)| Churn {
                flips,
                seen: seen.into_iter().map(|s| pick(no, s).unwrap_or(0) as u32).collect(),
            })
        }
        Edit::RemoveIns { code: c, ins } => {
            let Some(c) = code(d, c) else { return };
            if let Some(i) = pick(c.instructions.len(), ins) {
                c.instructions.remove(i);
            }
        }
        Edit::DuplicateIns { code: c, ins } => {
            let Some(c) = code(d, c) else { return };
            if let Some(i) = pick(c.instructions.len(), ins) {
                let x = c.instructions[i].clone();
                c.instructions.insert(i, x);
            }
        }
        Edit::SwapIns { code: c, a, b } => {
            let Some(c) = code(d, c) else { return };
            let n = c.instructions.len();
            if let (Some(a), Some(b)) = (pick(n, a), pick(n, b)) {
                c.instructions.swap(a, b);
            }
        }
        Edit::Qualname { code: c, string } => {
            if let Some(c) = code(d, c) {
                c.qualname = pick(ns, string).unwrap_or(0) as u32;
            }
        }
        Edit::Module { code: c, string } => {
            if let Some(c) = code(d, c) {
                c.module = pick(ns, string).unwrap_or(0) as u32;
            }
        }
        Edit::FirstLine { code: c, line } => {
            if let Some(c) = code(d, c) {
                c.first_line = line;
            }
        }
        Edit::Kind { code: c, kind } => {
            use CodeKind::*;
            let kinds = [Module, Class, Function, Lambda, Generator, Coroutine, AsyncGenerator, Comprehension];
            if let Some(c) = code(d, c) {
                c.kind = kinds[kind as usize % kinds.len()];
            }
        }
        Edit::Parent { code: c, parent } => {
            if let Some(c) = code(d, c) {
                // The reader refuses a code object that is its own parent; cycles through
                // others it accepts, so they are fair game here.
                c.parent = parent.and_then(|p| pick(nc, p)).map(|p| p as u32);
            }
        }
        Edit::Ran { code: c, ran } => {
            if let Some(c) = code(d, c) {
                c.ran = ran;
            }
        }
        Edit::Samples { code: c, samples, line_samples } => {
            if let Some(c) = code(d, c) {
                c.samples = samples;
                c.line_samples = line_samples;
            }
        }
        Edit::RemoveCode { code } => {
            let Some(i) = pick(nc, code) else { return };
            d.code.remove(i);
            for c in &mut d.code {
                c.parent = match c.parent {
                    Some(p) if p as usize == i => None,
                    Some(p) if p as usize > i => Some(p - 1),
                    p => p,
                };
            }
        }
        Edit::CloneCode { code } => {
            if let Some(i) = pick(nc, code) {
                let c = d.code[i].clone();
                d.code.push(c);
            }
        }
        Edit::NewString(s) => d.strings.push(s),
        Edit::ForeignOp { fixture, op } => {
            let other = &dumps()[fixture as usize % dumps().len()];
            if let Some(o) = pick(other.ops.len(), op) {
                d.ops.push(other.ops[o].clone());
            }
        }
        Edit::NewOp { name, family, specialized, counter } => {
            let counter = counter.map(|k| [CounterKind::Adaptive, CounterKind::Branch, CounterKind::Jit][k as usize % 3]);
            d.ops.push(OpInfo { name, family, specialized, counter });
        }
        Edit::Version { minor } => {
            let minor = 8 + minor as u32 % 10;
            d.python.version_info.1 = minor;
            d.python.version = format!("3.{minor}.0");
        }
        Edit::Source { file, run, line, string } => {
            let Some(f) = pick(d.files.len(), file) else { return };
            let runs = &mut d.files[f].source;
            let Some(r) = pick(runs.len(), run) else { return };
            let lines = &mut runs[r].1;
            if let Some(l) = pick(lines.len(), line) {
                lines[l] = pick(ns, string).unwrap_or(0) as u32;
            }
        }
    }
}

/// The dump as the reader sees it after writing, or `None` when the reader refuses it.
fn reread(d: &Dump) -> Option<Dump> {
    read_dump("edited.json", &to_json(d), LIMITS).ok()
}

fuzz_target!(|input: Input| {
    let all = dumps();
    // A window of a few code objects makes an execution ~10× cheaper than two whole dumps
    // (each is written, read back, aligned and classified). With whole dumps behind an even
    // chance, they took half of all the time (measured: 893 executions/s, 1,793 with windows
    // only), so they are behind one value of a byte now: the fuzzer can still find them.
    let window = |d: &Dump| match input.window {
        (255, _) => d.clone(),
        (start, len) => reduce(d, |i, _| i >= start as usize && i <= start as usize + len as usize % 8),
    };
    let mut sides = [window(&all[input.base as usize % all.len()]), window(&all[input.head as usize % all.len()])];
    for (head, edit) in input.edits {
        apply(&mut sides[head as usize], edit);
    }
    let [base, head] = sides;
    let (Some(base), Some(head)) = (reread(&base), reread(&head)) else { return };
    let algorithm = [AlignAlgorithm::Myers, AlignAlgorithm::Patience, AlignAlgorithm::Histogram, AlignAlgorithm::Lcs]
        [input.algorithm as usize % 4];
    let mut options = DiffOptions {
        functions: input.functions,
        modules: input.modules,
        include_unchanged: input.include_unchanged,
        explain: input.explain,
        allow_unrelated: input.allow_unrelated,
        ..Default::default()
    };
    options.classify.min_misses = input.min_misses;
    options.classify.min_flips = input.min_flips;
    options.align.algorithm = algorithm;

    let mut session = DiffSession::new(&base, &head, options);
    match session.report() {
        Ok(report) => {
            let _ = serde_json::to_vec(&report).expect("a report serializes");
        }
        // Refusing to compare unrelated programs is a fine answer, unless it was told not to.
        Err(DiffError::DifferentPrograms { .. }) => assert!(!input.allow_unrelated, "allow_unrelated yet an error"),
    }
    // The rows of every matched pair and every added and removed function (what the report
    // and the web viewer ask for), whatever the filters, and of a few arbitrary pairs.
    let m = session.matching().clone();
    for p in &m.pairs {
        let _ = session.function_rows(Some(p.base), Some(p.head));
    }
    for &b in &m.removed {
        let _ = session.function_rows(Some(b), None);
    }
    for &h in &m.added {
        let _ = session.function_rows(None, Some(h));
    }
    let _ = session.function_rows(None, None);
    for (b, h) in input.rows.into_iter().take(4) {
        if let (Some(b), Some(h)) = (pick(base.code.len(), b), pick(head.code.len(), h)) {
            let rows = session.function_rows(Some(b as u32), Some(h as u32));
            let _ = serde_json::to_vec(&rows).expect("rows serialize");
        }
    }
});
