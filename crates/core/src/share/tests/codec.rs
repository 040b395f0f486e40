//! The wire: base64url, DEFLATE from any encoder, versions, limits, and links cut, altered or
//! forged.

use super::*;

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
    assert_eq!(base64url_decode("abcde"), Err(5), "one dangling character: the text ends early");
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
fn links_of_versions_1_to_3_still_open_and_keep_their_fields() {
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
    let old_note = br#"{"base_code_total":0,"head_code_total":0,"reduced":false,"comment":null}"#;
    let v1 = dump_format_body(OLDER_MAGICS[0], old_note, &p);
    let mut link = OLDER_PREFIXES[0].to_string();
    base64url_encode(&deflate(&v1), &mut link);
    let back = decode(&link, ReadLimits::default()).unwrap();
    assert_eq!((back.base, back.note), (Some(d), ShareNote::default()));
    // Links of versions 2 and 3 (the magic and prefix before trimmed functions, and before
    // packed dumps) open with their fields.
    for v in [1, 2] {
        let old = dump_format_body(OLDER_MAGICS[v], &serde_json::to_vec(&p.note).unwrap(), &p);
        let mut link = OLDER_PREFIXES[v].to_string();
        base64url_encode(&deflate(&old), &mut link);
        assert_eq!(decode(&link, ReadLimits::default()).unwrap(), p, "version {}", v + 1);
    }
    // Version 4 keeps them.
    assert_eq!(
        decode(&encode(&p), ReadLimits::default()).unwrap().note,
        p.note
    );
    assert_eq!(left_out_sentence(&p.note).unwrap(), "leaves out 3 functions whose specialization changed (the least important, to stay short); carries no source text and short paths (redacted)");
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

#[test]
fn packed_bodies_stop_at_their_own_limit() {
    // 17 MB after a version-4 magic: refused by size before any of it is unpacked.
    let mut body = MAGIC.as_bytes().to_vec();
    body.resize(17 * 1024 * 1024, b' ');
    let e = read_body(&body, ReadLimits::default()).unwrap_err().to_string();
    assert!(e.starts_with("share link: ") && e.contains("16 MB"), "{e}");
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
fn bad_links_get_clear_messages() {
    let l = ReadLimits::default();
    let msg = |s: &str| decode(s, l).unwrap_err().to_string();
    // An empty `#share=` (issue 31: the page said nothing; "empty file" named no file).
    assert_eq!(msg(""), "share link: truncated: nothing follows \"#share=\" (was the link cut when copied?)");
    assert!(
        msg("hello").contains("does not start with \"s4.\" (or \"s3.\", \"s2.\", \"s1.\")"),
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
    // Cut one character after a whole base64url group (the text ends inside a byte): said to
    // end early, as any other cut, not "not base64url".
    let dangling = (PREFIX.len()..link.len()).find(|n| (n - PREFIX.len()) % 4 == 1).unwrap();
    assert_eq!(
        msg(&link[..dangling]),
        "share link: truncated: the link ends early (was it cut when copied?)"
    );
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

/// The sender's import-time regressions travel in the note (the CLI's JSON and the page then
/// agree on them); a note written before the count reads as 0.
#[test]
fn the_import_time_count_travels_and_older_notes_read_zero() {
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let (_, note) = link_payload(&base, &head, &report, LinkOptions { cap: DEFAULT_CAP_CHARS, redact: false });
    let mut sent = note.summary.unwrap();
    sent.summary.import_time_regressions = 3;
    let wire = serde_json::to_value(&sent).unwrap();
    let back: SharedSummary = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(back.summary.import_time_regressions, 3);
    let mut older = wire;
    older.as_array_mut().unwrap().pop();
    let back: SharedSummary = serde_json::from_value(older).unwrap();
    assert_eq!(back.summary.import_time_regressions, 0);
    assert_eq!(back.summary.regressions, sent.summary.regressions);
}
