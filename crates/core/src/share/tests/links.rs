//! What a link of a real diff carries: the sender's numbers, the cap's choice, redaction,
//! reduction and trimmed functions.

use super::*;

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
    // The demo's link fits the typical size whole (version 4), so the receiver has every
    // changed function, those changed by a code edit alone too.
    assert!(!note.reduced && link.len() <= TYPICAL_CHARS, "{}", link.len());
    assert_eq!(rows(&again), rows(&report));
    assert!(rows(&report).len() >= 3);
    // Reduced, functions changed by a code edit alone are not carried: their sites were
    // added or removed, not specialized differently.
    let mut builder = LinkBuilder::new(&base, &head, &report, &crate::report::DiffOptions::default());
    let p = decode(&encode(&builder.trimmed(builder.wanted(), &[])), ReadLimits::default()).unwrap();
    let again = demo_report(p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
    let mut sent = report.clone();
    sent.functions
        .retain(|f| f.counts.changed_sites() > f.counts.added + f.counts.removed);
    assert_eq!(rows(&again), rows(&sent));
    assert!(rows(&sent).len() >= 3 && rows(&sent).len() < rows(&report).len());
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
    // The link of all of them, trimmed, is over this cap (the whole link is shorter than the
    // typical size, so the cap must be lower than that too).
    let mut builder = LinkBuilder::new(&base, &head, &report, &crate::report::DiffOptions::default());
    let cap = encode(&builder.trimmed(all.len(), &[])).len() - 1;
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
        sentence.contains(&format!("leaves out {} function", note.left_out)) && sentence.contains("whose specialization changed"),
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
fn reduced_links_trim_functions_to_their_changes_and_read_the_same() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let options = crate::report::DiffOptions::default();
    let mut builder = LinkBuilder::new(&base, &head, &report, &options);
    let p = builder.trimmed(builder.wanted(), &[]);
    let p = decode(&encode(&p), ReadLimits::default()).unwrap();
    let (pb, ph) = (p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
    let trimmed = trimmed_functions(&p.note.trimmed);
    assert!(
        !trimmed.is_empty(),
        "the demo's changed functions have unchanged code to leave out"
    );
    // Opened as the page opens it: with the explanations the sender sent.
    let again = crate::report::DiffSession::new(pb, ph, options.clone())
        .with_sent(p.note.explained.clone())
        .report()
        .unwrap();
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

/// The fixtures' diff pairs: the demo and the explanation rules' programs on each version.
fn fixture_pairs() -> Vec<(String, Dump, Dump)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps/");
    let read = |f: String| read_dump(&f, &std::fs::read(format!("{dir}{f}")).unwrap(), ReadLimits::default()).unwrap();
    let mut pairs = Vec::new();
    for version in ["3.11", "3.12", "3.13"] {
        for program in ["demo", "rules"] {
            let (b, h) = (read(format!("{program}-base-{version}.json.gz")), read(format!("{program}-head-{version}.json.gz")));
            pairs.push((format!("{program} {version}"), b, h));
        }
    }
    pairs
}

#[test]
fn a_trimmed_link_explains_its_changes_as_the_sender_did() {
    let mut sent_any = 0;
    for (name, base, head) in fixture_pairs() {
        let report = demo_report(&base, &head);
        let options = crate::report::DiffOptions::default();
        let mut builder = LinkBuilder::new(&base, &head, &report, &options);
        let p = decode(&encode(&builder.trimmed(builder.wanted(), &[])), ReadLimits::default()).unwrap();
        let (pb, ph) = (p.base.as_ref().unwrap(), p.head.as_ref().unwrap());
        sent_any += p.note.explained.len();
        let opened = |sent| crate::report::DiffSession::new(pb, ph, options.clone()).with_sent(sent).report().unwrap();
        let (with, without) = (opened(p.note.explained.clone()), opened(Vec::new()));
        let explanations = |r: &crate::report::DiffReport, code: u32| {
            let f = r.functions.iter().find(|f| f.head_code == code).unwrap();
            f.changes.iter().map(|c| (c.cause, c.explanation.clone())).collect::<Vec<_>>()
        };
        for f in &report.functions {
            let qualname = head.str(head.code[f.head_code as usize].qualname);
            let Some(code) = ph.code.iter().position(|c| ph.str(c.qualname) == qualname) else { continue };
            let sender: Vec<_> = f.changes.iter().map(|c| (c.cause, c.explanation.clone())).collect();
            assert_eq!(explanations(&with, code as u32), sender, "{name}: {qualname}");
        }
        // Every explanation the link carries is one the link's dumps alone word differently.
        for s in &p.note.explained {
            let alone = explanations(&without, s.head_code);
            assert_ne!(alone.get(s.change as usize), Some(&(s.cause, s.explanation.clone())), "{name}: {s:?}");
        }
    }
    assert!(sent_any > 0, "no fixture pair has an explanation resting on code its link leaves out");
}

#[test]
fn a_typical_pull_requests_link_fits_in_8_kb() {
    // Issue 13's budget: the diff of a typical pull request, 20 changed functions of a real
    // program, in at most 8,192 characters. The functions whose specialization changed
    // between pyparsing 3.2.0 and 3.2.3 under the same workload on CPython 3.12.1
    // (`tests/fixtures/dumps/README.md`).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps/");
    let read = |f: &str| read_dump(f, &std::fs::read(format!("{dir}{f}")).unwrap(), ReadLimits::default()).unwrap();
    let (base, head) = (read("pyparsing-3.2.0-3.12.json.gz"), read("pyparsing-3.2.3-3.12.json.gz"));
    let report = demo_report(&base, &head);
    let mut builder = LinkBuilder::new(&base, &head, &report, &crate::report::DiffOptions::default());
    assert!(builder.wanted() >= 30, "{} changed functions", builder.wanted());
    let twenty = builder.trimmed(20, &[]);
    assert_eq!(twenty.note.left_out, builder.wanted() - 20);
    assert_eq!(trimmed_functions(&twenty.note.trimmed).len(), 20, "all 20 travel trimmed");
    let link = encode(&twenty);
    assert!(link.len() <= TYPICAL_CHARS, "20 functions take {} characters", link.len());
    // Version 3's layout of the same payload did not fit.
    let old = dump_format_body("specdiff-share 3\n", &serde_json::to_vec(&twenty.note).unwrap(), &twenty);
    let mut v3 = OLDER_PREFIXES[2].to_string();
    base64url_encode(&deflate(&old), &mut v3);
    assert!(v3.len() > TYPICAL_CHARS, "version 3: {} characters", v3.len());
    // The CLI's link at that cap keeps at least those 20.
    let (link, note) = link_payload(&base, &head, &report, LinkOptions { cap: TYPICAL_CHARS, redact: false });
    assert!(link.len() <= TYPICAL_CHARS && builder.wanted() - note.left_out >= 20, "{} functions in {}", builder.wanted() - note.left_out, link.len());
}
