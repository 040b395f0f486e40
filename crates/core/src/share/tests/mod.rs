//! Tests of share links: the wire format and hostile input (`codec.rs`), what a link of a
//! real diff carries (`links.rs`), the packed dumps of version 4 (`packing.rs`). The shared fixtures are here.

use super::*;
use crate::format::dump::to_json;
use crate::model::dump::{Churn, CodeInfo, CodeKind, FileInfo, Instruction, OpInfo};

mod codec;
mod links;
mod packing;

fn sample() -> Dump {
    let strings: Vec<String> = [
        "",
        "__main__",
        "f",
        "g",
        "x",
        "def f(p):",
        "    return p.x",
        "def g():",
        "    pass",
        "h",
        "unused",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let ins = |offset, op, line| Instruction {
        offset,
        op,
        arg: Some(0),
        argrepr: 4,
        line: Some(line),
        pos: None,
        cache: vec![],
        counter: None,
        churn: None,
    };
    let code = |name, first_line, ins: Vec<Instruction>, parent| CodeInfo {
        file: 0,
        module: 1,
        qualname: name,
        name,
        first_line,
        kind: CodeKind::Function,
        parent,
        ran: true,
        owner: None,
        made_at: None,
        body: None,
        samples: (1, 2),
        import_samples: 0,
        line_samples: vec![],
        instructions: ins,
        executors: None,
        inlined: None,
    };
    let mut g_ins = ins(0, 1, 4);
    g_ins.churn = Some(Churn {
        flips: 2,
        seen: vec![0, 2],
    });
    let mut dump = crate::format::builder::DumpBuilder::new("3.12.1").build();
    dump.python.executable = "/usr/bin/python3".into();
    dump.run.sampler.mode = "off".into();
    Dump {
        strings,
        ops: vec![
            OpInfo {
                name: "LOAD_ATTR".into(),
                family: "LOAD_ATTR".into(),
                specialized: false,
                counter: None,
            },
            OpInfo {
                name: "RESUME".into(),
                family: "RESUME".into(),
                specialized: false,
                counter: None,
            },
            OpInfo {
                name: "LOAD_ATTR_SLOT".into(),
                family: "LOAD_ATTR".into(),
                specialized: true,
                counter: None,
            },
        ],
        files: vec![FileInfo {
            path: "prog.py".into(),
            module: Some("__main__".into()),
            source: vec![(1, vec![5, 6]), (3, vec![7, 8])],
        }],
        code: vec![
            code(2, 1, vec![ins(0, 0, 1), ins(2, 2, 2)], None),
            code(3, 3, vec![g_ins], Some(0)),
            code(9, 10, vec![], None),
        ],
        ..dump
    }
}


/// The demo pair recorded in `www/demo` (real CPython 3.11.7 runs of `examples/demo`).
/// A link body as versions 1–3 wrote it: `magic`, `note`, then the dumps in the dump format.
fn dump_format_body(magic: &str, note: &[u8], p: &SharePayload) -> Vec<u8> {
    let mut out = magic.as_bytes().to_vec();
    out.extend(note);
    out.push(b'\n');
    for dump in [&p.base, &p.head] {
        let json = dump.as_ref().map(to_json).unwrap_or_default();
        out.extend(format!("{}\n", json.len()).as_bytes());
        out.extend(json);
    }
    out
}

fn demo_pair() -> (Dump, Dump) {
    let read = |f: &str| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f;
        read_dump(f, &std::fs::read(path).unwrap(), ReadLimits::default()).unwrap()
    };
    (read("base.json"), read("head.json"))
}

fn demo_report(base: &Dump, head: &Dump) -> crate::report::DiffReport {
    crate::report::diff_dumps(base, head, &crate::report::DiffOptions::default()).unwrap()
}
