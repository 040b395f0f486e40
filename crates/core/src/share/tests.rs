//! Tests of the link codec, the picker and the trimmer on the demo pair and hand-made hostile links.

use super::*;
use crate::model::dump::{Churn, CodeInfo, CodeKind, FileInfo, Instruction, OpInfo};

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
        line_samples: vec![],
        instructions: ins,
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

#[test]
fn base64url_round_trips() {
    for n in 0..40 {
        let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
        let mut s = String::new();
        base64url_encode(&bytes, &mut s);
        assert!(!s.contains(['+', '/', '=']));
        assert_eq!(base64url_decode(&s).unwrap(), bytes);
    }
    assert_eq!(base64url_decode("ab*d"), Err(2));
}

#[test]
fn encode_decode_round_trip() {
    let d = sample();
    let p = SharePayload {
        base: Some(d.clone()),
        head: Some(d),
        note: ShareNote::default(),
    };
    let link = encode(&p);
    assert!(link.starts_with(PREFIX));
    assert_eq!(decode(&link, ReadLimits::default()).unwrap(), p);
}

#[test]
fn links_from_any_deflate_encoder_decode() {
    // The web viewer packs links compressed by the browser (zlib's DEFLATE, not flate2's):
    // other bytes, the same payload.
    use std::io::Write;
    let d = sample();
    let p = SharePayload {
        base: Some(d.clone()),
        head: Some(d),
        note: ShareNote::default(),
    };
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&body(&p)).unwrap();
    let other = pack(&enc.finish().unwrap());
    assert_ne!(other, encode(&p));
    assert_eq!(decode(&other, ReadLimits::default()).unwrap(), p);
    // A link made by Chromium's CompressionStream('deflate-raw') from the demo pair
    // (tests/fixtures/share/, see its README).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/share");
    let link = std::fs::read_to_string(format!("{dir}/demo-chromium.link")).unwrap();
    let p = decode(&link, ReadLimits::default()).unwrap();
    let demo = |f: &str| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/demo/").to_string() + f;
        crate::format::dump::read_dump(f, &std::fs::read(path).unwrap(), ReadLimits::default())
            .unwrap()
    };
    assert_eq!(p.base, Some(demo("base.json")));
    assert_eq!(p.head, Some(demo("head.json")));
    assert_ne!(
        link.trim(),
        encode(&p),
        "the browser's DEFLATE differs from flate2's"
    );
}

#[test]
fn version_1_and_2_links_still_open_and_keep_their_fields() {
    let d = sample();
    let note = ShareNote {
        left_out: 3,
        redacted: true,
        ..ShareNote::default()
    };
    let p = SharePayload {
        base: Some(d.clone()),
        head: None,
        note,
    };
    // A version-1 link: the old magic and prefix, a note without the new fields.
    let mut v1 = body(&p);
    let old_note = br#"{"base_code_total":0,"head_code_total":0,"reduced":false,"comment":null}"#;
    let note_end = v1
        .iter()
        .skip(MAGIC.len())
        .position(|&b| b == b'\n')
        .unwrap()
        + MAGIC.len();
    v1.splice(
        ..note_end,
        OLDER_MAGICS[0].bytes().chain(old_note.iter().copied()),
    );
    let mut link = OLDER_PREFIXES[0].to_string();
    base64url_encode(&deflate(&v1), &mut link);
    let back = decode(&link, ReadLimits::default()).unwrap();
    assert_eq!((back.base, back.note), (Some(d), ShareNote::default()));
    // A version-2 link (the magic and prefix before trimmed functions) opens with its fields.
    let mut v2 = body(&p);
    v2.splice(..MAGIC.len(), OLDER_MAGICS[1].bytes());
    let mut link = OLDER_PREFIXES[1].to_string();
    base64url_encode(&deflate(&v2), &mut link);
    assert_eq!(decode(&link, ReadLimits::default()).unwrap().note, p.note);
    // Version 3 keeps them.
    assert_eq!(
        decode(&encode(&p), ReadLimits::default()).unwrap().note,
        p.note
    );
    assert_eq!(left_out_sentence(&p.note).unwrap(), "leaves out 3 changed functions (the least important, to stay short); carries no source text and short paths (redacted)");
}

#[test]
fn deflate_bombs_stop_at_the_body_limit() {
    // 200 MB of zeros compress to ~200 KB; the decoder stops at 64 MB whatever the limits.
    let zeros = vec![0u8; 200 * 1024 * 1024];
    let link = pack(&deflate(&zeros));
    let e = decode(
        &link,
        ReadLimits {
            max_bytes: u64::MAX,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("64") && !e.contains('\n'), "{e}");
}

/// The demo pair recorded in `www/demo` (real CPython 3.12 runs of `examples/demo`).
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

#[test]
fn a_link_carries_the_senders_numbers_and_the_same_changed_functions() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let (link, note) = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: DEFAULT_CAP_CHARS,
            redact: false,
        },
    );
    assert!(
        link.starts_with(PREFIX) && link.len() <= DEFAULT_CAP_CHARS,
        "{}",
        link.len()
    );
    let p = decode(&link, ReadLimits::default()).unwrap();
    assert_eq!(p.note, note);
    assert_eq!(note.left_out, 0);
    assert_eq!(note.summary.as_ref().unwrap(), &shared_summary(&report));
    // The carried dumps diff to the same changed functions, sites and kinds.
    let again = demo_report(p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
    type Sites = Vec<(Option<u32>, Option<u32>, String)>;
    let rows = |r: &crate::report::DiffReport| -> Vec<(String, Sites)> {
        r.functions
            .iter()
            .map(|f| {
                (
                    f.qualname.clone(),
                    f.changes
                        .iter()
                        .map(|c| (c.base_offset, c.head_offset, format!("{:?}", c.kind)))
                        .collect(),
                )
            })
            .collect()
    };
    // (Functions changed by a code edit alone are not carried: their sites were added or
    // removed, not specialized differently.)
    let mut sent = report.clone();
    sent.functions
        .retain(|f| f.counts.changed_sites() > f.counts.added + f.counts.removed);
    assert_eq!(rows(&again), rows(&sent));
    assert!(rows(&sent).len() >= 3);
}

#[test]
fn past_the_cap_the_least_important_functions_are_left_out() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let all = wanted(&report);
    assert!(
        all.len() >= 3,
        "the demo changes several functions: {}",
        all.len()
    );
    // A cap between the link of one function and the link of all of them.
    let one = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: 1,
            redact: false,
        },
    );
    assert_eq!(
        one.1.left_out,
        all.len(),
        "below any link: nothing kept, all counted"
    );
    let full = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: usize::MAX,
            redact: false,
        },
    )
    .0;
    let cap = full.len() - 1;
    let (link, note) = link_payload(&base, &head, &report, LinkOptions { cap, redact: false });
    assert!(link.len() <= cap, "{} > {cap}", link.len());
    assert!(
        note.reduced && note.left_out >= 1 && note.left_out < all.len(),
        "{note:?}"
    );
    let p = decode(&link, ReadLimits::default()).unwrap();
    let kept = all.len() - note.left_out;
    // The functions kept are the first ones of the report's order (the most important).
    let names = |d: &Dump| {
        d.code
            .iter()
            .map(|c| d.str(c.qualname).to_string())
            .collect::<Vec<_>>()
    };
    let head_kept = names(p.head.as_ref().unwrap());
    for &(_, h) in &all[..kept] {
        assert!(
            head_kept.contains(&head.str(head.code[h as usize].qualname).to_string()),
            "{head_kept:?}"
        );
    }
    // The summary is the sender's whole-run one, not recomputed from what was kept.
    let s = p.note.summary.unwrap();
    assert_eq!(s.head.code_objects as usize, head.code.len());
    assert!(head.code.len() > p.head.unwrap().code.len());
    let sentence = left_out_sentence(&note).unwrap();
    assert!(
        sentence.contains(&format!("leaves out {} changed function", note.left_out)),
        "{sentence}"
    );
}

#[test]
fn redacted_links_carry_no_source_text_or_long_paths() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let (link, note) = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: DEFAULT_CAP_CHARS,
            redact: true,
        },
    );
    assert!(note.redacted);
    let p = decode(&link, ReadLimits::default()).unwrap();
    for d in [p.base.unwrap(), p.head.unwrap()] {
        assert!(
            d.files
                .iter()
                .all(|f| f.source.is_empty() && !f.path.contains('/')),
            "{:?}",
            d.files
        );
        let text = String::from_utf8(to_json(&d)).unwrap();
        assert!(
            !text.contains(&base.run.cwd) || base.run.cwd.is_empty(),
            "the working directory leaks"
        );
    }
}

#[test]
fn hostile_links_give_one_line_errors() {
    let l = ReadLimits::default();
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let link = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: DEFAULT_CAP_CHARS,
            redact: false,
        },
    )
    .0;
    let one_line = |r: Result<SharePayload, InputError>| match r {
        Ok(_) => None,
        Err(e) => {
            let m = e.to_string();
            assert!(m.starts_with("share link") && !m.contains('\n'), "{m}");
            Some(m)
        }
    };
    // Cut anywhere: never a panic, never a payload.
    for cut in (PREFIX.len()..link.len()).step_by(97) {
        assert!(
            one_line(decode(&link[..cut], l)).is_some(),
            "cut at {cut} decoded"
        );
    }
    // Altered characters: an error, or (when the change lands where DEFLATE does not
    // notice) a payload the dump reader accepted; never a panic.
    let bytes = link.as_bytes();
    for at in (PREFIX.len()..link.len()).step_by(53) {
        let mut b = bytes.to_vec();
        b[at] = if b[at] == b'A' { b'B' } else { b'A' };
        let _ = one_line(decode(std::str::from_utf8(&b).unwrap(), l));
    }
    // Huge or impossible counts in the body.
    let forged = |dumps: &str| {
        let mut body = MAGIC.as_bytes().to_vec();
        body.extend(b"{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false}\n");
        body.extend(dumps.as_bytes());
        pack(&deflate(&body))
    };
    let m = one_line(decode(&forged("99999999999999999999999\n{}"), l)).unwrap();
    assert!(m.contains("not a specdiff share"), "{m}");
    let m = one_line(decode(&forged("4000000000\n{}"), l)).unwrap();
    assert!(m.contains("ends early"), "{m}");
    let m = one_line(decode(&forged("-1\n"), l)).unwrap();
    assert!(m.contains("not a specdiff share"), "{m}");
    // A run summary whose lists do not fit together, or with a count past u32.
    for summary in [r#"["a"]"#, r#"["a","b","c","d","e","f","1"]"#, r#"[1,2]"#] {
        let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{summary}}}\n0\n0\n");
        let m = one_line(decode(&pack(&deflate(body.as_bytes())), l)).unwrap();
        assert!(m.contains("not a specdiff share"), "{m}");
    }
    let (_, note) = link_payload(
        &base,
        &head,
        &report,
        LinkOptions {
            cap: DEFAULT_CAP_CHARS,
            redact: false,
        },
    );
    let mut fields = serde_json::to_value(&note.summary).unwrap();
    let ints = fields.as_array_mut().unwrap();
    let at = ints.len() - 1;
    ints[at] = serde_json::json!("99999999999999999999999");
    let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{fields}}}\n0\n0\n");
    assert!(one_line(decode(&pack(&deflate(body.as_bytes())), l))
        .unwrap()
        .contains("not a specdiff share"));
    // A similarity that is not a number (it would not equal itself when read back).
    let mut fields = serde_json::to_value(&note.summary).unwrap();
    let strings = 6 + note.summary.as_ref().unwrap().summary.families.len();
    // (The similarity is the 28th integer: 8 of the runs, 5 counts, 10 kinds, 4 share counts.)
    fields.as_array_mut().unwrap()[strings + 27] =
        serde_json::json!(f64::NAN.to_bits().to_string());
    let body = format!("{MAGIC}{{\"base_code_total\":0,\"head_code_total\":0,\"reduced\":false,\"summary\":{fields}}}\n0\n0\n");
    assert!(one_line(decode(&pack(&deflate(body.as_bytes())), l))
        .unwrap()
        .contains("not a specdiff share"));
    let huge_note = format!("{}{{\"base_code_total\":1e400}}\n0\n0\n", MAGIC);
    assert!(one_line(decode(&pack(&deflate(huge_note.as_bytes())), l)).is_some());
}

#[test]
fn redact_leaves_out_source_and_shortens_paths() {
    let mut d = sample();
    d.files[0].path = "/home/me/venv/lib/python3.12/site-packages/pkg/mod.py".into();
    d.files[0].module = Some("pkg.mod".into());
    d.strings[4] = "<code object f at 0x1, file \"/home/me/venv/lib/python3.12/site-packages/pkg/mod.py\", line 1>".into();
    d.run.cwd = "/home/me".into();
    let r = redact(&d);
    assert_eq!(r.files[0].path, "pkg/mod.py");
    assert!(r.files[0].source.is_empty());
    assert_eq!(
        r.str(4),
        "<code object f at 0x1, file \"pkg/mod.py\", line 1>"
    );
    let text = String::from_utf8(crate::format::dump::to_json(&reduce(&r, |_, _| true))).unwrap();
    assert!(
        !text.contains("/home/me") && !text.contains("return p.x"),
        "{text}"
    );
    assert_eq!(
        short_path("/a/b/pkg/__init__.py", Some("pkg")),
        "pkg/__init__.py"
    );
    assert_eq!(short_path("C:\\x\\prog.py", Some("__main__")), "prog.py");
}

#[test]
fn reduce_keeps_only_what_is_used() {
    let d = sample();
    let r = reduce(&d, |_, c| d.str(c.qualname) == "g");
    assert_eq!(r.code.len(), 1);
    assert_eq!(r.code[0].parent, None, "dropped parent becomes None");
    assert_eq!(r.str(r.code[0].qualname), "g");
    assert!(!r.strings.iter().any(|s| s == "unused" || s == "def f(p):"));
    assert_eq!(
        r.files[0].source,
        vec![(
            3,
            vec![
                r.strings.iter().position(|s| s == "def g():").unwrap() as u32,
                r.strings.iter().position(|s| s == "    pass").unwrap() as u32
            ]
        )]
    );
    assert_eq!(r.source_line(0, 4), Some("    pass"));
    let ch = r.code[0].instructions[0].churn.as_ref().unwrap();
    assert_eq!(
        ch.seen
            .iter()
            .map(|&o| r.ops[o as usize].name.as_str())
            .collect::<Vec<_>>(),
        ["LOAD_ATTR", "LOAD_ATTR_SLOT"]
    );
    // The reduced dump is itself a valid dump.
    crate::format::dump::read_dump(
        "r.json",
        &crate::format::dump::to_json(&r),
        ReadLimits::default(),
    )
    .unwrap();
    // Keeping a child and its parent keeps the link.
    let r = reduce(&d, |_, c| d.str(c.qualname) != "h");
    assert_eq!(r.code[1].parent, Some(0));
}

#[test]
fn bad_links_get_clear_messages() {
    let l = ReadLimits::default();
    let msg = |s: &str| decode(s, l).unwrap_err().to_string();
    assert_eq!(msg(""), "share link: empty file");
    assert!(
        msg("hello").contains("does not start with \"s3.\" (or \"s2.\", \"s1.\")"),
        "{}",
        msg("hello")
    );
    assert_eq!(
        msg("s9.AAAA"),
        "share link: made by a newer specdiff: upgrade specdiff to open it"
    );
    assert_eq!(msg("s10.AAAA"), msg("s9.AAAA"));
    assert!(
        msg("s2x.AAAA").contains("does not start with"),
        "{}",
        msg("s2x.AAAA")
    );
    assert!(
        msg("s1.ab$d").contains("character 6 is not base64url"),
        "{}",
        msg("s1.ab$d")
    );
    assert!(
        msg("s2.ab$d").contains("character 6 is not base64url"),
        "{}",
        msg("s2.ab$d")
    );
    let p = SharePayload {
        base: Some(sample()),
        head: None,
        note: ShareNote::default(),
    };
    let link = encode(&p);
    let cut = &link[..link.len() / 2];
    assert!(
        msg(cut).contains("ends early") || msg(cut).contains("corrupt"),
        "{}",
        msg(cut)
    );
    let tiny = ReadLimits { max_bytes: 100 };
    assert!(decode(&link, tiny)
        .unwrap_err()
        .to_string()
        .contains("too large"));
    // Valid compression of something that is not a share.
    use std::io::Write;
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(b"{\"x\":1}").unwrap();
    let mut s = PREFIX.to_string();
    base64url_encode(&enc.finish().unwrap(), &mut s);
    assert!(msg(&s).contains("not a specdiff share"), "{}", msg(&s));
}

#[test]
fn reduced_links_trim_functions_to_their_changes_and_read_the_same() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let options = crate::report::DiffOptions::default();
    let mut builder = LinkBuilder::new(&base, &head, &report, &options, false);
    let p = builder.trimmed(builder.wanted(), &[]);
    let p = decode(&encode(&p), ReadLimits::default()).unwrap();
    let (pb, ph) = (p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
    let trimmed = trimmed_functions(&p.note.trimmed);
    assert!(
        !trimmed.is_empty(),
        "the demo's changed functions have unchanged code to leave out"
    );
    let again = demo_report(pb, ph);
    let named = |d: &Dump, c: u32| d.str(d.code[c as usize].qualname).to_string();
    for t in &trimmed {
        let name = named(ph, t.head_code);
        let sent = report
            .functions
            .iter()
            .find(|f| named(&head, f.head_code) == name)
            .unwrap();
        // Fewer instructions travel, the shares are the whole function's ...
        let (whole_b, cut_b) = (
            base.code[sent.base_code as usize].instructions.len(),
            pb.code[t.base_code as usize].instructions.len(),
        );
        assert!(
            cut_b < whole_b,
            "{name}: {cut_b} of {whole_b} base instructions"
        );
        assert_eq!(
            (t.before, t.after),
            (sent.specialized_before, sent.specialized_after),
            "{name}"
        );
        // ... and the carried code reads the same: every change, word for word.
        let got = again
            .functions
            .iter()
            .find(|f| f.head_code == t.head_code)
            .unwrap();
        let unrowed = |f: &crate::report::FunctionDiff| {
            f.changes
                .iter()
                .map(|c| crate::engine::classify::Change {
                    row: 0,
                    ..c.clone()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(unrowed(got), unrowed(sent), "{name}");
    }
    // A view opened from it shows the sender's shares, not the trimmed code's.
    let t = trimmed[0];
    let cut = again
        .functions
        .iter()
        .find(|f| f.head_code == t.head_code)
        .unwrap();
    assert_ne!(
        (cut.specialized_before, cut.specialized_after),
        (t.before, t.after),
        "the trimmed code alone counts fewer sites"
    );
}

#[test]
fn fitting_finds_the_most_functions_under_the_cap() {
    // Link length 1,000 + 100 per function; cap 1,750 → 7 functions.
    let mut f = Fitting::new(20, 1_750);
    let mut tried = Vec::new();
    while let Some(n) = f.next() {
        tried.push(n);
        f.tried(n, 1_000 + 100 * n);
    }
    assert_eq!(f.best(), 7, "tried {tried:?}");
    assert_eq!(tried[0], 20, "all of them first");
    // All fit: one try.
    let mut f = Fitting::new(5, 10_000);
    assert_eq!(f.next(), Some(5));
    f.tried(5, 1_500);
    assert_eq!((f.next(), f.best()), (None, 5));
    // None fits: zero.
    let mut f = Fitting::new(3, 10);
    while let Some(n) = f.next() {
        f.tried(n, 1_000);
    }
    assert_eq!(f.best(), 0);
}
