//! Version 4's packed dumps: lossless on real dumps, strict on altered ones, and a fixed op
//! vocabulary; version 3 links still open.

use super::*;
use crate::share::packed::{pack, unpack, vocabulary};

/// Every dump fixture, whole (cache words, positions, churn and pystats as dumped).
fn fixture_dumps() -> Vec<(String, Dump)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps");
    let mut out: Vec<(String, Dump)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let dump = read_dump(&name, &std::fs::read(&p).unwrap(), ReadLimits::default()).unwrap();
            (name, dump)
        })
        .collect();
    out.push(("sample".into(), sample()));
    out
}

#[test]
fn packing_is_lossless_on_real_dumps() {
    let dumps = fixture_dumps();
    assert!(dumps.len() > 10, "{} fixtures", dumps.len());
    for (name, dump) in dumps {
        let back = unpack("l", &pack(&dump), ReadLimits::default()).unwrap().unwrap();
        assert!(back == dump, "{name}: the unpacked dump differs");
        // Reduced as a link reduces it, too.
        let reduced = reduce(&dump, |_, _| true);
        assert!(unpack("l", &pack(&reduced), ReadLimits::default()).unwrap().unwrap() == reduced, "{name} (reduced)");
    }
}

/// An error's one line, or "read" / "not a dump".
fn outcome(bytes: &[u8]) -> String {
    match unpack("l", bytes, ReadLimits::default()) {
        Ok(Some(_)) => "read".into(),
        Ok(None) => "no header".into(),
        Err(e) => {
            let e = e.to_string();
            assert!(!e.contains('\n'), "{e}");
            e
        }
    }
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[test]
fn cut_and_altered_packed_dumps_give_one_line_errors() {
    let (_, head) = demo_pair();
    let packed = pack(&head);
    let binary = packed.iter().position(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(outcome(&packed), "read");
    // Cut anywhere in the binary part: the field that ran out is named.
    for cut in (binary..packed.len()).step_by(7) {
        let e = outcome(&packed[..cut]);
        assert!(e.starts_with("l: bad field packed ") && (e.contains("ends early") || e.contains(" bytes")), "cut at {cut}: {e}");
    }
    // Any byte altered: an error or a dump the reader's checks accept, never a panic.
    for at in (binary..packed.len()).step_by(3) {
        let mut altered = packed.clone();
        altered[at] ^= 0x5a;
        let _ = outcome(&altered);
    }
    assert_eq!(outcome(b"{\"a\": 1}"), "no header");
    assert!(outcome(b"{\"a\": 1}\n").starts_with("l: not a specdiff dump"), "{}", outcome(b"{\"a\": 1}\n"));
    let mut extra = packed.clone();
    extra.push(0);
    assert_eq!(outcome(&extra), "l: bad field packed executors: an empty section");
    // No executors, then one code object with `inlined` offsets and too few bytes for it.
    extra.extend([1, 0, 0]);
    assert_eq!(outcome(&extra), "l: bad field packed inlined: a count of 1 with 2 bytes left");
}

#[test]
fn counts_the_bytes_cannot_hold_are_refused_before_allocating() {
    let header = |ops: u64, code: u64| {
        let d = Dump { ops: Vec::new(), code: Vec::new(), ..sample() };
        let mut out = to_json(&d);
        out.push(b'\n');
        varint(ops, &mut out);
        varint(code, &mut out);
        out
    };
    assert_eq!(outcome(&header(u64::MAX, 0)), format!("l: bad field packed ops: a count of {} with 1 bytes left", u64::MAX));
    let mut b = header(0, 1_000_000_000);
    b.extend([0; 64]);
    assert_eq!(outcome(&b), "l: bad field packed code: a count of 1000000000 with 64 bytes left");
    // Each code object takes 16 bytes at least.
    let mut b = header(0, 5);
    b.extend([0; 64]);
    assert_eq!(outcome(&b), "l: bad field packed code: a count of 5 with 64 bytes left");
    // One code object whose instruction count is more than the bytes left can hold.
    let mut b = header(0, 1);
    b.extend([0, 1, 2, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    varint(50, &mut b);
    b.extend([0; 100]);
    assert_eq!(outcome(&b), "l: bad field packed instructions: more than the 100 bytes left can hold");
    // An op numbered past the vocabulary, and flags out of range.
    let mut b = header(1, 0);
    b.truncate(b.len() - 1);
    varint(100_000, &mut b);
    assert_eq!(outcome(&b), "l: bad field packed ops: 100000 is out of range (at most 289)");
}

#[test]
fn the_op_vocabulary_is_frozen() {
    // Version-4 links name ops by their number in this list: changing it breaks every link
    // made before. Add a new version's opnames with a new link version.
    let words = vocabulary();
    let hash = words.iter().fold(0xcbf29ce484222325u64, |h, w| {
        w.bytes().chain([0]).fold(h, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
    });
    assert_eq!((words.len(), words[0], *words.last().unwrap()), (289, "ASYNC_GEN_WRAP", "YIELD_VALUE"));
    assert_eq!(hash, 13155230914134041052, "vocabulary hash");
    assert!(words.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn version_3_links_still_open_and_read_as_version_4_carries_them() {
    // The demo pair's trimmed link made by version 3 (tests/fixtures/share/README.md).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/share");
    let link = std::fs::read_to_string(format!("{dir}/demo-trimmed-v3.link")).unwrap();
    assert!(link.starts_with("s3."));
    let mut old = decode(&link, ReadLimits::default()).unwrap();
    // The link carries the sentences of its day. The int/float clause is now generated from
    // the version's measured facts (cpython/facts.rs), not written once for every version.
    for e in &mut old.note.explained {
        if let Some(text) = &mut e.explanation {
            *text = text.replace(
                "BINARY_OP specializes only when both operands are int or both float",
                "CPython 3.11 has no specialized form for arithmetic on an int and a float",
            );
        }
    }
    let (base, head) = demo_pair();
    let report = demo_report(&base, &head);
    let mut builder = LinkBuilder::new(&base, &head, &report, &crate::report::DiffOptions::default());
    let now = builder.trimmed(builder.wanted(), &[]);
    assert!(!trimmed_functions(&old.note.trimmed).is_empty());
    assert_eq!(old, now);
    let new = encode(&now);
    assert!(new.starts_with("s4.") && new.len() < link.trim().len(), "{} vs {}", new.len(), link.trim().len());
    assert_eq!(decode(&new, ReadLimits::default()).unwrap(), now);
}

/// [`sample`] with a JIT executor on `f`'s loop: uops from its instructions and from none, an
/// exit stub of each known kind and one of a kind a later CPython might add.
fn with_executor() -> Dump {
    use crate::model::{Executor, Exit, Uop};
    let mut d = sample();
    let mut name = |s: &str| {
        d.strings.push(s.into());
        (d.strings.len() - 1) as u32
    };
    let (start, guard, exit) = (name("_START_EXECUTOR"), name("_GUARD_TYPE_VERSION"), name("_EXIT_TRACE"));
    let uop = |name, offset, exit| Uop { name, oparg: 7, offset, exit, error: None };
    let exits = ["side", "deopt", "error", "other", "future kind"].iter().map(|k| Exit(k.to_string(), exit, Some(2))).collect();
    d.code[0].executors = Some(vec![Executor {
        offset: 2,
        valid: false,
        length: 8,
        uops: vec![uop(start, None, None), uop(guard, Some(2), Some(4))],
        exits: Some(exits),
    }]);
    d.code[1].executors = Some(vec![Executor { offset: 0, valid: true, length: 1, uops: vec![uop(start, Some(0), None)], exits: None }]);
    d
}

#[test]
fn executors_travel_with_their_uop_names_and_a_cut_section_is_refused() {
    let d = with_executor();
    let packed = pack(&d);
    assert!(unpack("l", &packed, ReadLimits::default()).unwrap().unwrap() == d, "lossless");
    // A link reduces the strings: the uops and exits keep their names.
    let reduced = reduce(&d, |i, _| i == 0);
    let names = |d: &Dump| {
        let e = &d.code[0].executors.as_ref().unwrap()[0];
        (e.uops.iter().map(|u| d.str(u.name).to_string()).collect::<Vec<_>>(), e.exits.as_ref().unwrap().iter().map(|x| d.str(x.1).to_string()).collect::<Vec<_>>())
    };
    assert_eq!(names(&reduced), names(&d));
    assert!(reduced.strings.len() < d.strings.len(), "unused strings are still left out");
    assert!(unpack("l", &pack(&reduced), ReadLimits::default()).unwrap().unwrap() == reduced, "reduced, lossless");
    // Without executors a dump packs as before them: the section is absent, not empty, and
    // with them it is appended, so a link made before executors were carried still reads.
    let plain = pack(&{
        let mut s = d.clone();
        s.code.iter_mut().for_each(|c| c.executors = None);
        s
    });
    assert!(packed.len() > plain.len() && packed.starts_with(&plain));
    // Every cut inside the section is refused with one line naming it.
    for n in plain.len() + 1..packed.len() {
        let e = outcome(&packed[..n]);
        assert!(e.contains("packed ") && e != "read", "cut at {n}: {e}");
    }
}

#[test]
fn inlined_offsets_travel_with_or_without_executors_and_are_read_strictly() {
    // With executors, after them; without any, after an executor count of 0.
    for mut d in [with_executor(), sample()] {
        let plain = pack(&d);
        d.code[0].inlined = Some(vec![0, 2]);
        d.code[1].inlined = Some(vec![2]);
        let packed = pack(&d);
        assert!(unpack("l", &packed, ReadLimits::default()).unwrap().unwrap() == d, "lossless");
        assert!(packed.len() > plain.len());
        // A trimmed code object keeps its offsets: they are byte offsets, which trimming keeps.
        let reduced = reduce(&d, |i, _| i == 0);
        assert_eq!(reduced.code[0].inlined, Some(vec![0, 2]));
        assert!(unpack("l", &pack(&reduced), ReadLimits::default()).unwrap().unwrap() == reduced, "reduced, lossless");
        for n in plain.len() + 1..packed.len() {
            let e = outcome(&packed[..n]);
            assert!(e.contains("packed ") && e != "read", "cut at {n}: {e}");
        }
    }
    // An offset listed twice (a delta of 0 after the first) is refused, by the dump reader's
    // check of the unpacked body: one way to write each dump.
    let mut d = sample();
    d.code[0].inlined = Some(vec![0, 2]);
    let packed = pack(&d);
    let mut twice = packed.clone();
    *twice.last_mut().unwrap() = 0;
    assert!(outcome(&twice).contains("code[0].inlined: offsets not ascending"), "{}", outcome(&twice));
}
