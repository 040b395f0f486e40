//! The CLI's renderers (text, Markdown, JSON) on diffs of dumps with arbitrary strings: the
//! input picks a base and a head among the dump fixtures, keeps a window of their code objects
//! (as diff_engine does), and rewrites any of their strings (qualnames, modules, argreprs,
//! source lines: a dump interns them all), file paths, opnames and families, the Python
//! version, argv and the exception, now and then to a string of up to 262,140 characters.
//! Each edited dump is written and read back with the real reader; then the diff, its `View`
//! (with and without the gate) and every output format must not panic, text and Markdown
//! must be inert (no control or bidi character but their own line breaks) and Markdown under
//! GitHub's comment limit, JSON valid.
//!
//! The renderers live in the `specdiff` binary crate, which has no library target; they use
//! nothing but `specdiff_core`, `serde` and `serde_json`, so they are compiled into this
//! target from their own files.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use specdiff_core::format::to_json;
use specdiff_core::model::Dump;
use specdiff_core::share::reduce;
use specdiff_core::view::{GateOptions, View};
use specdiff_core::{read_dump, DiffOptions, DiffSession, ReadLimits};

#[allow(dead_code)]
#[path = "../../crates/cli/src/render/mod.rs"]
mod render;

use render::{json, markdown, text, RenderInput};

#[path = "../common/fixtures.rs"]
mod fixtures;
use fixtures::dumps;

const LIMITS: ReadLimits = ReadLimits { max_bytes: 1 << 24 };

#[derive(Debug, Arbitrary)]
enum Edit {
    String { index: u16, text: String },
    /// `fill` repeated `len × 4` times around `text`: past what Rust's formatter pads.
    Long { index: u16, text: String, fill: char, len: u16 },
    File { index: u16, path: String },
    OpName { index: u16, name: String },
    Family { index: u16, family: String },
    Python(String),
    Argv(Vec<String>),
    Exception(Option<String>),
}

#[derive(Debug, Arbitrary)]
struct Input {
    base: u8,
    head: u8,
    window: (u8, u8),
    edits: Vec<(bool, Edit)>,
    include_unchanged: bool,
    explain: bool,
    gate: Option<(u8, bool)>,
    all: bool,
    limit: u16,
}

fn apply(d: &mut Dump, edit: Edit) {
    let pick = |n: usize, i: u16| (n > 0).then(|| i as usize % n);
    match edit {
        Edit::String { index, text } => {
            if let Some(i) = pick(d.strings.len(), index) {
                d.strings[i] = text;
            }
        }
        Edit::Long { index, text, fill, len } => {
            if let Some(i) = pick(d.strings.len(), index) {
                let fill = fill.to_string().repeat(len as usize * 4);
                d.strings[i] = format!("{text}{fill}{text}");
            }
        }
        Edit::File { index, path } => {
            if let Some(i) = pick(d.files.len(), index) {
                d.files[i].path = path;
            }
        }
        Edit::OpName { index, name } => {
            if let Some(i) = pick(d.ops.len(), index) {
                d.ops[i].name = name;
            }
        }
        Edit::Family { index, family } => {
            if let Some(i) = pick(d.ops.len(), index) {
                d.ops[i].family = family;
            }
        }
        Edit::Python(v) => d.python.version = v,
        Edit::Argv(a) => d.run.argv = a,
        Edit::Exception(e) => d.run.exception = e,
    }
}

/// Characters a terminal or a bidi-aware viewer acts on.
fn acted_on(c: char) -> bool {
    c != '\n'
        && (c.is_control()
            || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
}

fuzz_target!(|input: Input| {
    let all = dumps();
    let window = |d: &Dump| {
        let (start, len) = input.window;
        reduce(d, |i, _| i >= start as usize && i <= start as usize + len as usize % 8)
    };
    let mut sides = [window(&all[input.base as usize % all.len()]), window(&all[input.head as usize % all.len()])];
    for (head, edit) in input.edits.into_iter().take(16) {
        apply(&mut sides[head as usize], edit);
    }
    let reread = |d: &Dump| read_dump("edited.json", &to_json(d), LIMITS).ok();
    let (Some(base), Some(head)) = (reread(&sides[0]), reread(&sides[1])) else { return };
    let options = DiffOptions {
        include_unchanged: input.include_unchanged,
        explain: input.explain,
        allow_unrelated: true,
        ..Default::default()
    };
    let report = DiffSession::new(&base, &head, options).report().expect("unrelated programs are allowed");
    let gate = input.gate.map(|(h, import_time)| GateOptions { min_hotness: (h % 101) as f64, import_time, traces: false, min_cost: None });
    let view = View::of(&report, gate);
    let input_ = RenderInput { report: &report, base: &base, head: &head, stats: None, stats_note: None, view: &view, link: None };

    let plain = text::render(&input_, false, input.all);
    if let Some(c) = plain.chars().find(|&c| acted_on(c)) {
        panic!("text output holds {c:?}");
    }
    let _ = text::render(&input_, true, input.all);
    // Any limit the renderer is given holds, down to a small one.
    let limit = 2_000 + input.limit as usize % (markdown::GITHUB_COMMENT_LIMIT - 2_000 + 1);
    let md = markdown::render(&input_, limit);
    assert!(md.chars().count() < limit, "markdown over its limit");
    if let Some(c) = md.chars().find(|&c| acted_on(c)) {
        panic!("markdown output holds {c:?}");
    }
    let json = json::render(&input_);
    let _: serde_json::Value = serde_json::from_slice(&json).expect("JSON output is valid");
});
