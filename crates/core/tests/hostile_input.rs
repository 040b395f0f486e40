//! Hostile input for every reader (dump, standalone stats file, share link, raw pystats text,
//! gzip): the cases of issue 15, generated here (no big files in git), each checked for its
//! one-line error, for time linear in its size (the time of a case against the time of one a
//! tenth its size, in the same run: no wall-clock thresholds) and for memory bounded by the
//! limit (the peak bytes allocated by the reading thread, counted by the allocator below).
//! The table of these cases, with times and peak RSS of the CLI, is in docs/hostile-input.md.
//! Issue 31 added many code objects sharing one `(module, qualname)`: `exec`'d functions all
//! named `f`, as dumps built in memory, named apart and paired across runs in linear time
//! (100k such objects took 117 s to name); and gzip files whose trailer lies.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::time::{Duration, Instant};

use specdiff_core::engine::CodeNames;
use specdiff_core::format::{parse_pystats, read_stats_file, DumpBuilder, PystatsOptions};
use specdiff_core::model::Dump;
use specdiff_core::share::{self, SharePayload};
use specdiff_core::{diff_dumps, read_dump, DiffOptions, InputError, InputErrorKind, ReadLimits};

/// Counts the bytes each thread holds, and its peak (tests run on threads of their own).
struct Counting;

thread_local! {
    static HELD: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn note(grow: usize, shrink: usize) {
    // `try_with`: the thread-locals may be gone while a thread exits.
    let _ = HELD.try_with(|h| {
        let now = (h.get() + grow).saturating_sub(shrink);
        h.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), 0);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(0, layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A moving realloc holds both blocks for a moment: count it so.
        note(new_size, 0);
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        note(0, layout.size());
        out
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak bytes held by this thread while `f` ran, above what it held before.
fn peak_bytes<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = HELD.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

/// Held by each test while it measures time or does heavy work: the tests of this file run on
/// threads of one process, and a test timing its cases while another inflates 128 MB or diffs
/// 30,000 functions measured the other's work too (the stats depth ratio failed so once).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The fastest of three runs of `f` (the least disturbed by other work on the machine).
fn fastest<T>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..3 {
        let start = Instant::now();
        out = Some(f());
        best = best.min(start.elapsed());
    }
    (out.unwrap(), best)
}

/// Asserts that reading `make(n)` with `run` takes time linear in `n`: ten times the size may
/// take at most 30 times as long (a quadratic cost takes 100 times). Returns what the larger
/// run gave. Both sizes should be well past the CPU caches and the allocator's reuse of small
/// blocks (a few MB): a step from 300 KB to 3 MB of the same linear scan looks like 35–40×.
fn assert_linear<I, T>(
    what: &str,
    small: usize,
    make: impl Fn(usize) -> I,
    mut run: impl FnMut(&I) -> T,
) -> T {
    let (small_input, large_input) = (make(small), make(small * 10));
    let (_, t_small) = fastest(|| run(&small_input));
    let (out, t_large) = fastest(|| run(&large_input));
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-6);
    let timings = format!("{what}: {} takes {t_large:?}, {small} takes {t_small:?} ({ratio:.1}×)", small * 10);
    eprintln!("{timings}");
    assert!(ratio < 30.0, "{timings}");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// `{"format": …, "version": 1, "x": {"a": {"a": … 1 …}}}`, the key's value nested `levels`
/// deep: the shape of issue 15's CPU bomb.
fn nested(header: &str, levels: usize) -> Vec<u8> {
    let mut text = format!("{{{header}, \"x\": ").into_bytes();
    text.extend(b"{\"a\": ".repeat(levels));
    text.push(b'1');
    text.extend(b"}".repeat(levels + 1));
    text
}

const DUMP_HEADER: &str = r#""format": "specdiff-dump", "version": 1"#;
const STATS_HEADER: &str = r#""format": "specdiff-stats", "version": 1"#;

fn too_deep(e: &InputError, file: &str, levels: usize) {
    assert_eq!(
        e.kind,
        InputErrorKind::TooDeep {
            depth: levels as u64 + 1,
            limit: 64
        }
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{file}: nested too deeply ({} levels, limit 64)",
            levels + 1
        )
    );
}

#[test]
fn deep_dumps_are_refused_at_once() {
    let _serial = one_at_a_time();
    let limits = ReadLimits::default();
    let bomb = |n| gzip(&nested(DUMP_HEADER, n));
    let e = assert_linear("dump", 200_000, bomb, |b| {
        read_dump("deep.json.gz", b, limits).unwrap_err()
    });
    too_deep(&e, "deep.json.gz", 2_000_000);
    // Issue 15's file: 200,000 levels (1.7 KB gzipped) took 161 s to refuse.
    too_deep(
        &read_dump("deep.json.gz", &bomb(200_000), limits).unwrap_err(),
        "deep.json.gz",
        200_000,
    );
    // Right at the cap, the file reads as far as it is a dump: the error is the usual one.
    let e = read_dump("d.json", &nested(DUMP_HEADER, 63), limits).unwrap_err();
    assert_eq!(
        e.to_string(),
        "d.json: bad field (top level): missing field `generator`"
    );
    too_deep(
        &read_dump("d.json", &nested(DUMP_HEADER, 64), limits).unwrap_err(),
        "d.json",
        64,
    );
}

#[test]
fn deep_stats_files_are_refused_at_once() {
    let _serial = one_at_a_time();
    let bomb = |n| nested(STATS_HEADER, n);
    let e = assert_linear("stats file", 200_000, bomb, |b| {
        read_stats_file("deep.json", b, ReadLimits::default()).unwrap_err()
    });
    too_deep(&e, "deep.json", 2_000_000);
}

#[test]
fn deep_dumps_in_share_links_are_refused_at_once() {
    let _serial = one_at_a_time();
    let link = |n| {
        let dump = nested(DUMP_HEADER, n);
        let mut body =
            b"specdiff-share 1\n{\"base_code_total\":1,\"head_code_total\":0,\"reduced\":false}\n"
                .to_vec();
        body.extend(format!("{}\n", dump.len()).as_bytes());
        body.extend(&dump);
        body.extend(b"0\n");
        // A version-1 link, which carries dump JSON (a version-4 one carrying this would be
        // refused sooner, for inflating more than 64 times its size).
        format!("s1.{}", &share::pack(&share::deflate(&body))[3..])
    };
    let e = assert_linear("share link", 200_000, link, |l| {
        share::decode(l, ReadLimits::default()).unwrap_err()
    });
    too_deep(&e, "share link (base)", 2_000_000);
}

/// Raw pystats text has no nesting; its cost is one entry per key. Keys in reverse order used to
/// be one vector shift each in a sorted map.
#[test]
fn raw_pystats_with_many_keys_read_in_linear_time() {
    let _serial = one_at_a_time();
    let options = PystatsOptions::default();
    let keys = |n: usize| -> String {
        (0..n)
            .rev()
            .map(|i| format!("Optimization key {i:07} : {i}\n"))
            .collect()
    };
    let stats = assert_linear("raw pystats", 20_000, keys, |t| {
        parse_pystats("many.txt", t.as_bytes(), &options).unwrap()
    });
    assert_eq!(stats.other.len(), 200_000);
    let ops = |n: usize| -> String {
        (0..n)
            .rev()
            .map(|i| format!("opcode[OP_{i:06}].specialization.failure_kinds[{i}] : 1\n"))
            .collect()
    };
    let stats = assert_linear("raw pystats opcodes", 2_000, ops, |t| {
        parse_pystats("many.txt", t.as_bytes(), &options).unwrap()
    });
    assert_eq!(stats.opcodes.len(), 20_000);
}

/// A gzip bomb stops at the limit, holding about the limit (not the ~2× that growing a vector
/// by doubling past it would), and says it read more than the limit.
#[test]
fn gzip_bombs_stop_at_the_limit() {
    let _serial = one_at_a_time();
    let limit = 32 << 20;
    let bomb = gzip(&vec![b' '; 4 * limit]);
    let (e, peak) = peak_bytes(|| {
        read_dump(
            "bomb.json.gz",
            &bomb,
            ReadLimits {
                max_bytes: limit as u64,
            },
        )
        .unwrap_err()
    });
    assert_eq!(
        e.to_string(),
        "bomb.json.gz: too large (read more than 32 MB, limit 32 MB)"
    );
    assert!(
        peak < limit + limit / 8,
        "peak {peak} bytes for a limit of {limit}"
    );
    // Under the limit, an honest gzip file is inflated into one buffer of its size.
    let spaces = gzip(&[b"{".to_vec(), vec![b' '; limit - 3], b"}\n".to_vec()].concat());
    let (e, peak) = peak_bytes(|| {
        read_dump(
            "spaces.json.gz",
            &spaces,
            ReadLimits {
                max_bytes: limit as u64,
            },
        )
        .unwrap_err()
    });
    assert_eq!(
        e.to_string(),
        "spaces.json.gz: not a specdiff dump: no \"format\" key"
    );
    assert!(
        peak < limit + limit / 8,
        "peak {peak} bytes for {limit} bytes of content"
    );
}

/// The same for a share link: its DEFLATE body stops at the limit.
#[test]
fn share_link_bombs_stop_at_the_limit() {
    let _serial = one_at_a_time();
    let limit = 32 << 20;
    let v4 = share::pack(&share::deflate(&vec![b' '; 4 * limit]));
    // Version 1 (dump JSON): no bound on how far it inflates but the size limit.
    let link = format!("s1.{}", &v4[3..]);
    let (e, peak) = peak_bytes(|| {
        share::decode(
            &link,
            ReadLimits {
                max_bytes: limit as u64,
            },
        )
        .unwrap_err()
    });
    assert_eq!(
        e.to_string(),
        "share link: too large (read more than 32 MB, limit 32 MB)"
    );
    // The inflated size is unknown until the end: past the first buffer the rest is counted,
    // not kept (a doubling buffer held its old and new block while it moved: 1.5× the limit;
    // growing past the limit made it 3×).
    assert!(
        peak < limit + limit / 8,
        "peak {peak} bytes for a limit of {limit}"
    );
    // A real payload still decodes.
    let payload = SharePayload {
        base: None,
        head: None,
        note: Default::default(),
    };
    assert_eq!(
        share::decode(&share::encode(&payload), ReadLimits::default()).unwrap(),
        payload
    );
}

/// A version-4 link (packed dumps, which inflate 3–4 times) is refused once it inflates to 64
/// times its DEFLATE bytes (at least 4 MB), long before the size limit.
#[test]
fn version_4_link_bombs_stop_at_64_times_their_size() {
    let _serial = one_at_a_time();
    let limit = 32usize << 20;
    let link = share::pack(&share::deflate(&vec![b' '; 4 * limit]));
    let compressed = share::unpack(&link).unwrap().len();
    let stop = (64 * compressed).max(4 << 20);
    let (e, peak) = peak_bytes(|| share::decode(&link, ReadLimits { max_bytes: limit as u64 }).unwrap_err());
    assert_eq!(e.kind, specdiff_core::InputErrorKind::InflatesTooFar { compressed: compressed as u64, limit: stop as u64, ratio: 64 }, "{e}");
    assert!(e.to_string().starts_with("share link: its 130,370 bytes of compressed data inflate past 8.0 MB, more than 64 times"), "{e}");
    assert!(peak < stop + stop / 8, "peak {peak} bytes for a stop at {stop}");
    // Real links are far from it: every dump fixture, whole, inflates under 8 times.
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".json.gz") {
            continue;
        }
        let dump = read_dump("f", &std::fs::read(&path).unwrap(), ReadLimits::default()).unwrap();
        let payload = SharePayload { base: Some(share::reduce(&dump, |_, _| true)), head: None, note: Default::default() };
        let link = share::encode(&payload);
        let ratio = share::body(&payload).len() as f64 / share::unpack(&link).unwrap().len() as f64;
        assert!(ratio < 8.0, "{}: inflates {ratio:.1} times", path.display());
        assert!(share::decode(&link, ReadLimits::default()).is_ok(), "{}", path.display());
    }
}

/// Plain input is never copied: white space up to the limit costs nothing beyond the caller's
/// bytes.
#[test]
fn white_space_is_not_copied() {
    let _serial = one_at_a_time();
    let limit = 32 << 20;
    let spaces = vec![b' '; limit];
    let (e, peak) = peak_bytes(|| {
        read_dump(
            "ws.json",
            &spaces,
            ReadLimits {
                max_bytes: limit as u64,
            },
        )
        .unwrap_err()
    });
    assert_eq!(e.to_string(), "ws.json: empty file");
    assert!(peak < 1 << 20, "peak {peak} bytes");
    let mut spaced = spaces.clone();
    spaced[0] = b'{';
    spaced.extend(b"}");
    let (e, peak) = peak_bytes(|| {
        read_dump(
            "ws.json",
            &spaced,
            ReadLimits {
                max_bytes: limit as u64 + 1,
            },
        )
        .unwrap_err()
    });
    assert_eq!(
        e.to_string(),
        "ws.json: not a specdiff dump: no \"format\" key"
    );
    assert!(peak < 1 << 20, "peak {peak} bytes");
    let e = read_dump(
        "ws.json",
        &spaced,
        ReadLimits {
            max_bytes: limit as u64 - (1 << 20),
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "ws.json: too large (32 MB, limit 31 MB)");
}

/// Members of a multi-member gzip, each of `sizes[i]` spaces (the first opening `{`, the last
/// closing `}`): only the last member's trailer states a size, and it says nothing of the rest.
fn gzip_members(sizes: &[usize]) -> Vec<u8> {
    let mut out = vec![];
    for (k, &n) in sizes.iter().enumerate() {
        let mut member = vec![b' '; n];
        if k == 0 {
            member[0] = b'{';
        }
        if k == sizes.len() - 1 {
            member[n - 1] = b'}';
        }
        out.extend(gzip(&member));
    }
    out
}

/// A multi-member gzip whose last trailer states nearly the limit (issue 31: 511 MB) held the
/// buffer the trailer asked for and the one it grew into: 1 GB for the 512 MB limit. The
/// limit now counts the real inflated bytes and the trailer only sizes the first buffer:
/// under 1.125× the limit, past it and under it.
#[test]
fn a_false_gzip_trailer_costs_no_more_than_the_limit() {
    let _serial = one_at_a_time();
    let limit = 32 << 20;
    let limits = ReadLimits { max_bytes: limit as u64 };
    let near = limit - limit / 32;
    let (e, peak) = peak_bytes(|| read_dump("members.json.gz", &gzip_members(&[near, near]), limits).unwrap_err());
    assert_eq!(e.to_string(), "members.json.gz: too large (read more than 32 MB, limit 32 MB)");
    assert!(peak < limit + limit / 8, "peak {peak} bytes for a limit of {limit}");
    // Under the limit, the trailer stating half of it: read again into a buffer of its size.
    let half = limit * 15 / 32;
    let (e, peak) = peak_bytes(|| read_dump("members.json.gz", &gzip_members(&[half, half]), limits).unwrap_err());
    assert_eq!(e.to_string(), "members.json.gz: not a specdiff dump: no \"format\" key");
    assert!(peak < limit + limit / 8, "peak {peak} bytes for {} bytes of content", 2 * half);
    // Given as both inputs, the CLI reads them at once on two threads: twice that, each
    // thread under the bound.
    let file = gzip_members(&[near, near]);
    let peaks: Vec<usize> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..2).map(|_| s.spawn(|| peak_bytes(|| read_dump("m.json.gz", &file, limits)).1)).collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert!(peaks.iter().all(|&p| p < limit + limit / 8), "peaks {peaks:?} for a limit of {limit}");
}

/// `n` code objects named `f` in module `m`, made at one place (an `exec` in a loop), with the
/// given `body` per index (`None`: a dump without bodies) and `specialized` sites per index.
fn exec_twins(n: usize, body: impl Fn(usize) -> Option<u32>, specialized: impl Fn(usize) -> bool) -> Dump {
    let mut b = DumpBuilder::new("3.12.1");
    for k in 0..n {
        let op = if specialized(k) { "BINARY_OP_ADD_INT" } else { "BINARY_OP" };
        b.code("m", "f", 1).ins(op, "+", 1).finish();
    }
    let mut d = b.build();
    for (k, c) in d.code.iter_mut().enumerate() {
        c.made_at = Some((3, 4));
        c.body = body(k);
    }
    d
}

fn names(d: &Dump) -> Vec<String> {
    let names = CodeNames::of(d);
    (0..d.code.len() as u32).map(|i| names.name(d, i).to_string()).collect()
}

#[test]
fn code_objects_sharing_a_name_are_named_in_linear_time() {
    let _serial = one_at_a_time();
    // Without bodies: numbered in dump order.
    let large = assert_linear("numbered", 3_000, |n| exec_twins(n, |_| None, |_| false), names);
    assert_eq!((large[0].as_str(), large[29_999].as_str()), ("f#1", "f#30000"));
    // Distinct bodies: each its own hex (8 digits where two share their first 4).
    let distinct = |k: usize| Some((k as u32).wrapping_mul(0x9e37_79b9));
    let large = assert_linear("distinct bodies", 3_000, |n| exec_twins(n, distinct, |_| false), names);
    assert!(large[1] == "f#9e37" || large[1] == "f#9e3779b9", "{}", large[1]);
    let unique: std::collections::HashSet<&String> = large.iter().collect();
    assert_eq!(unique.len(), 30_000);
    // One body for all: ranked by what each did, the busiest first.
    let large = assert_linear("one body", 3_000, |n| exec_twins(n, |_| Some(0xabcd_0001), |k| k % 2 == 1), names);
    assert_eq!(&large[..4], ["f#abcd~15001", "f#abcd", "f#abcd~15002", "f#abcd~2"]);
}

/// Two runs of the program: the same `n` exec'd functions, each specialized differently in the
/// head run. Pairing them and diffing every pair must stay linear too (30k took 16 s).
#[test]
fn code_objects_sharing_a_name_are_paired_in_linear_time() {
    let _serial = one_at_a_time();
    let distinct = |k: usize| Some((k as u32).wrapping_mul(0x9e37_79b9));
    let pair = |n: usize| (exec_twins(n, distinct, |k| k % 3 == 0), exec_twins(n, distinct, |k| k % 3 == 1));
    let report = assert_linear("diff", 3_000, pair, |(base, head)| {
        diff_dumps(base, head, &DiffOptions::default()).expect("related dumps")
    });
    let s = &report.summary;
    assert_eq!((s.matched, s.changed), (30_000, 20_000));
}

/// The same functions, every body changed in head (a new version of the template): nothing
/// pairs by body, and the leftovers of one owner were aligned by a table quadratic in their
/// number (30,000 a side: 7.2 GB). Past 2,048 a side they pair in stable order.
#[test]
fn changed_bodies_of_many_same_named_functions_pair_in_linear_time() {
    let _serial = one_at_a_time();
    let pair = |n: usize| {
        let base = exec_twins(n, |k| Some(k as u32), |k| k % 2 == 0);
        let mut head = exec_twins(n, |k| Some(k as u32 | 1 << 31), |k| k % 2 == 0);
        for c in &mut head.code {
            c.first_line = 2;
        }
        (base, head)
    };
    let report = assert_linear("changed bodies", 3_000, pair, |(base, head)| {
        diff_dumps(base, head, &DiffOptions::default()).expect("related dumps")
    });
    assert_eq!((report.summary.matched, report.summary.added, report.summary.removed), (30_000, 0, 0));
}
