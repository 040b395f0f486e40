//! The dumps of a version-4 link body, laid out for DEFLATE: the same content as the dump
//! format, in two parts.
//!
//! ```text
//! packed = <the dump as JSON, with "ops" and "code" empty> "\n" <ops and code, binary>
//! ```
//!
//! The binary part is LEB128 varints (signed ones zigzag-encoded): the op table, each op's
//! name and family as a number into a fixed [`vocabulary`] (the opnames of CPython
//! 3.11–3.13) or as text; then the code objects as columns, each field of every code object
//! together and then each field of every instruction together, lines and offsets as deltas.
//! On the pyparsing 3.2.0 → 3.2.3 pair (20 changed functions, trimmed) this and zopfli take
//! the link from 10,397 characters to under 8,192 (`docs/web.md`, "Link sizes"). Reading
//! checks every length against the bytes left before allocating, every delta's range, and
//! then makes the dump reader's checks of the result. The JIT's executors, where a dump has
//! them, come last ([`pack_executors`]).

use crate::cpython::opcodes::table_for;
use crate::format::dump::{check_built, read_dump};
use crate::format::input::ReadLimits;
use crate::util::sort::sort_by;

mod jit;
use jit::{pack_executors, unpack_executors};
use crate::format::input::{InputError, InputErrorKind};
use crate::model::dump::{Churn, CodeInfo, CodeKind, CounterKind, Dump, Instruction, OpInfo};

/// The opnames a version-4 link names by number: those of specdiff's opcode tables of
/// CPython 3.11, 3.12 and 3.13, sorted and without repeats. Part of the link format: the
/// test `the_op_vocabulary_is_frozen` fails when it changes.
pub(crate) fn vocabulary() -> Vec<&'static str> {
    let mut names: Vec<&str> = [(3, 11), (3, 12), (3, 13)]
        .into_iter()
        .filter_map(table_for)
        .flat_map(|t| t.ops.iter().map(|op| op.0))
        .collect();
    sort_by(&mut names, |a, b| a.cmp(b));
    names.dedup();
    names
}

const COUNTERS: [Option<CounterKind>; 4] =
    [None, Some(CounterKind::Adaptive), Some(CounterKind::Branch), Some(CounterKind::Jit)];

/// `dump`, packed.
pub(crate) fn pack(dump: &Dump) -> Vec<u8> {
    let header = Dump {
        format: dump.format.clone(),
        version: dump.version,
        generator: dump.generator.clone(),
        python: dump.python.clone(),
        run: dump.run.clone(),
        strings: dump.strings.clone(),
        ops: Vec::new(),
        files: dump.files.clone(),
        code: Vec::new(),
        classes: dump.classes.clone(),
        pystats: dump.pystats.clone(),
    };
    let mut out = serde_json::to_vec(&header).expect("a Dump always serializes");
    out.push(b'\n');
    let w = &mut Writer(out);
    let words = vocabulary();
    w.u(dump.ops.len() as u64);
    for op in &dump.ops {
        for name in [&op.name, &op.family] {
            match words.binary_search(&name.as_str()) {
                Ok(i) => w.u(i as u64),
                Err(_) => {
                    w.u(words.len() as u64);
                    w.u(name.len() as u64);
                    w.0.extend(name.as_bytes());
                }
            }
        }
        let counter = COUNTERS.iter().position(|&c| c == op.counter).unwrap_or(0) as u64;
        w.u(op.specialized as u64 | counter << 1);
    }
    let code = &dump.code;
    w.u(code.len() as u64);
    let fields: [fn(&CodeInfo) -> u32; 4] = [|c| c.file, |c| c.module, |c| c.qualname, |c| c.name];
    for field in fields {
        code.iter().for_each(|c| w.u(field(c) as u64));
    }
    let mut previous = 0i64;
    for c in code {
        w.i(c.first_line as i64 - std::mem::replace(&mut previous, c.first_line as i64));
    }
    code.iter().for_each(|c| w.u(CodeKind::ALL.iter().position(|&k| k == c.kind).unwrap_or(0) as u64));
    code.iter().for_each(|c| w.opt(c.parent.map(u64::from)));
    code.iter().for_each(|c| w.u(c.ran as u64));
    code.iter().for_each(|c| w.opt(c.owner.map(u64::from)));
    for c in code {
        w.opt(c.made_at.map(|(line, _)| zigzag(line as i64 - c.first_line as i64)));
        if let Some((_, col)) = c.made_at {
            w.u(col as u64);
        }
    }
    code.iter().for_each(|c| w.opt(c.body.map(u64::from)));
    for c in code {
        w.u(c.samples.0);
        w.u(c.samples.1);
        w.u(c.import_samples);
        w.u(c.line_samples.len() as u64);
        let mut line = c.first_line as i64;
        for &(l, n) in &c.line_samples {
            w.i(l as i64 - std::mem::replace(&mut line, l as i64));
            w.u(n);
        }
    }
    code.iter().for_each(|c| w.u(c.instructions.len() as u64));
    let all = || code.iter().flat_map(|c| &c.instructions);
    for c in code {
        let mut offset = 0i64;
        for i in &c.instructions {
            w.i(i.offset as i64 - std::mem::replace(&mut offset, i.offset as i64));
        }
    }
    all().for_each(|i| w.u(i.op as u64));
    all().for_each(|i| w.opt(i.arg.map(u64::from)));
    all().for_each(|i| w.u(i.argrepr as u64));
    for c in code {
        let mut line = c.first_line as i64;
        for i in &c.instructions {
            w.opt(i.line.map(|l| zigzag(l as i64 - std::mem::replace(&mut line, l as i64))));
        }
    }
    for i in all() {
        w.opt(i.pos.map(|_| 0));
        if let Some((a, b, c)) = i.pos {
            [a, b, c].into_iter().for_each(|v| w.opt(v.map(u64::from)));
        }
    }
    all().for_each(|i| w.opt(i.counter.map(|(v, _)| v as u64)));
    all().for_each(|i| {
        if let Some((_, backoff)) = i.counter {
            w.u(backoff as u64);
        }
    });
    for i in all() {
        // The first cache word is left out when the counter gives it; trailing zeros too.
        let from_counter = i.counter.map(Instruction::counter_word).is_some_and(|w| i.cache.first() == Some(&w));
        let kept = i.cache.iter().rposition(|&w| w != 0).map_or(0, |k| k + 1);
        let words = &i.cache[usize::from(from_counter).min(kept)..kept];
        w.u(i.cache.len() as u64 * 2 + from_counter as u64);
        w.u(words.len() as u64);
        words.iter().for_each(|&x| w.u(x as u64));
    }
    for i in all() {
        w.opt(i.churn.as_ref().map(|ch| ch.flips as u64));
        if let Some(ch) = &i.churn {
            w.u(ch.seen.len() as u64);
            ch.seen.iter().for_each(|&s| w.u(s as u64));
        }
    }
    pack_executors(w, code);
    std::mem::take(&mut w.0)
}

fn zigzag(v: i64) -> u64 {
    (v << 1 ^ v >> 63) as u64
}

struct Writer(Vec<u8>);

impl Writer {
    fn u(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn i(&mut self, v: i64) {
        self.u(zigzag(v));
    }

    /// `None` as 0, a value as itself plus one.
    fn opt(&mut self, v: Option<u64>) {
        self.u(v.map_or(0, |v| v.saturating_add(1)));
    }
}

/// The binary part being read: every read names its field when the bytes run out or a
/// value is out of range.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

#[inline(never)]
fn bad(field: &str, detail: impl Into<String>) -> InputErrorKind {
    InputErrorKind::BadField { path: format!("packed {field}"), detail: detail.into() }
}

impl Reader<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// A varint of at most `max`.
    #[inline(never)]
    fn up_to(&mut self, field: &str, max: u64) -> Result<u64, InputErrorKind> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(bad(field, "the data ends early"));
            };
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return if v <= max { Ok(v) } else { Err(bad(field, format!("{v} is out of range (at most {max})"))) };
            }
        }
        Err(bad(field, "a number longer than 64 bits"))
    }

    fn u(&mut self, field: &str) -> Result<u64, InputErrorKind> {
        self.up_to(field, u64::MAX)
    }

    fn u32(&mut self, field: &str) -> Result<u32, InputErrorKind> {
        Ok(self.up_to(field, u32::MAX as u64)? as u32)
    }

    fn i(&mut self, field: &str) -> Result<i64, InputErrorKind> {
        Ok(unzigzag(self.u(field)?))
    }

    fn opt(&mut self, field: &str) -> Result<Option<u64>, InputErrorKind> {
        Ok(self.u(field)?.checked_sub(1))
    }

    fn opt32(&mut self, field: &str) -> Result<Option<u32>, InputErrorKind> {
        Ok(self.up_to(field, u32::MAX as u64 + 1)?.checked_sub(1).map(|v| v as u32))
    }

    /// The next `len` bytes (at most those left) as UTF-8 text.
    #[inline(never)]
    fn text(&mut self, field: &str, len: usize) -> Result<String, InputErrorKind> {
        self.at += len;
        String::from_utf8(self.bytes[self.at - len..self.at].to_vec()).map_err(|_| bad(field, "text that is not UTF-8"))
    }

    /// A count of things each taking at least `bytes` bytes: never more than the bytes left
    /// can hold, so nothing is allocated for a count that is not there.
    #[inline(never)]
    fn count(&mut self, field: &str, bytes: usize) -> Result<usize, InputErrorKind> {
        let n = self.u(field)?;
        let left = self.left();
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(bytes) <= left => Ok(n),
            _ => Err(bad(field, format!("a count of {n} with {left} bytes left"))),
        }
    }
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// `base + delta` as a `u32`, or an error naming the field.
#[inline(never)]
fn add(base: i64, delta: i64, field: &str) -> Result<u32, InputErrorKind> {
    base.checked_add(delta)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad(field, format!("a delta of {delta} from {base} leaves the range of u32")))
}

/// The dump `packed` holds, after the dump reader's checks (its header is read by the dump
/// reader itself, named `name`). `None` when there is no header line.
pub(crate) fn unpack(name: &str, packed: &[u8], limits: ReadLimits) -> Result<Option<Dump>, InputError> {
    let Some(nl) = packed.iter().position(|&b| b == b'\n') else {
        return Ok(None);
    };
    let dump = read_dump(name, &packed[..nl], limits)?;
    unpack_code(dump, &packed[nl + 1..]).map(Some).map_err(|kind| InputError::new(name, kind))
}

/// `dump` (a header) with the ops and code of the binary part `binary`.
fn unpack_code(mut dump: Dump, binary: &[u8]) -> Result<Dump, InputErrorKind> {
    let r = &mut Reader { bytes: binary, at: 0 };
    let words = vocabulary();
    for _ in 0..r.count("ops", 3)? {
        let mut names = [String::new(), String::new()];
        for name in &mut names {
            let k = r.up_to("ops", words.len() as u64)? as usize;
            *name = match words.get(k) {
                Some(w) => w.to_string(),
                None => {
                    let len = r.count("ops", 1)?;
                    r.text("ops", len)?
                }
            };
        }
        let flags = r.up_to("ops", 7)?;
        let [name, family] = names;
        dump.ops.push(OpInfo { name, family, specialized: flags & 1 == 1, counter: COUNTERS[(flags >> 1) as usize] });
    }
    // Each code object takes at least a byte in each of its 16 columns.
    let n = r.count("code", 16)?;
    let mut code: Vec<CodeInfo> = (0..n)
        .map(|_| CodeInfo {
            file: 0,
            module: 0,
            qualname: 0,
            name: 0,
            first_line: 0,
            kind: CodeKind::Function,
            parent: None,
            ran: false,
            owner: None,
            made_at: None,
            body: None,
            samples: (0, 0),
            import_samples: 0,
            line_samples: Vec::new(),
            instructions: Vec::new(),
            executors: None,
            inlined: None,
        })
        .collect();
    let fields: [fn(&mut CodeInfo) -> &mut u32; 4] = [|c| &mut c.file, |c| &mut c.module, |c| &mut c.qualname, |c| &mut c.name];
    for field in fields {
        for c in code.iter_mut() {
            *field(c) = r.u32("code")?;
        }
    }
    let mut first = 0i64;
    for c in code.iter_mut() {
        c.first_line = add(first, r.i("first_line")?, "first_line")?;
        first = c.first_line as i64;
    }
    for c in code.iter_mut() {
        c.kind = CodeKind::ALL[r.up_to("kind", CodeKind::ALL.len() as u64 - 1)? as usize];
    }
    for c in code.iter_mut() {
        c.parent = r.opt32("parent")?;
    }
    for c in code.iter_mut() {
        c.ran = r.up_to("ran", 1)? == 1;
    }
    for c in code.iter_mut() {
        c.owner = r.opt32("owner")?;
    }
    for c in code.iter_mut() {
        if let Some(z) = r.opt("made_at")? {
            c.made_at = Some((add(c.first_line as i64, unzigzag(z), "made_at")?, r.u32("made_at")?));
        }
    }
    for c in code.iter_mut() {
        c.body = r.opt32("body")?;
    }
    for c in code.iter_mut() {
        c.samples = (r.u("samples")?, r.u("samples")?);
        c.import_samples = r.u("samples")?;
        let mut line = c.first_line as i64;
        for _ in 0..r.count("line_samples", 2)? {
            let l = add(line, r.i("line_samples")?, "line_samples")?;
            line = l as i64;
            c.line_samples.push((l, r.u("line_samples")?));
        }
    }
    // Each instruction takes at least a byte in each of its 10 columns.
    let mut left = r.left() / 10;
    for c in code.iter_mut() {
        let k = r.count("instructions", 1)?;
        if k > left {
            return Err(bad("instructions", format!("more than the {} bytes left can hold", r.left())));
        }
        left -= k;
        c.instructions = vec![Instruction::default(); k];
    }
    // Offsets and lines restart at each code object: `(first line, starts a code object)`.
    let mut all: Vec<(u32, bool, &mut Instruction)> = code
        .iter_mut()
        .flat_map(|c| {
            let first_line = c.first_line;
            c.instructions.iter_mut().enumerate().map(move |(j, i)| (first_line, j == 0, i))
        })
        .collect();
    let (mut offset, mut line) = (0i64, 0i64);
    for (_, start, i) in all.iter_mut() {
        if *start {
            offset = 0;
        }
        i.offset = add(offset, r.i("offset")?, "offset")?;
        offset = i.offset as i64;
    }
    for (_, _, i) in all.iter_mut() {
        i.op = r.u32("op")?;
    }
    for (_, _, i) in all.iter_mut() {
        i.arg = r.opt32("arg")?;
    }
    for (_, _, i) in all.iter_mut() {
        i.argrepr = r.u32("argrepr")?;
    }
    for (first_line, start, i) in all.iter_mut() {
        if *start {
            line = *first_line as i64;
        }
        if let Some(z) = r.opt("line")? {
            let l = add(line, unzigzag(z), "line")?;
            line = l as i64;
            i.line = Some(l);
        }
    }
    for (_, _, i) in all.iter_mut() {
        if r.opt("pos")?.is_some() {
            i.pos = Some((r.opt32("pos")?, r.opt32("pos")?, r.opt32("pos")?));
        }
    }
    for (_, _, i) in all.iter_mut() {
        if let Some(v) = r.up_to("counter", u16::MAX as u64 + 1)?.checked_sub(1) {
            i.counter = Some((v as u16, 0));
        }
    }
    for (_, _, i) in all.iter_mut() {
        if let Some((v, _)) = i.counter {
            i.counter = Some((v, r.up_to("counter", u8::MAX as u64)? as u8));
        }
    }
    for (_, _, i) in all.iter_mut() {
        let len = r.up_to("cache", u16::MAX as u64 * 2 + 1)?;
        let (len, from_counter) = ((len / 2) as usize, len & 1 == 1);
        let words = r.count("cache", 1)?;
        if words + from_counter as usize > len {
            return Err(bad("cache", "more words than the cache has"));
        }
        if from_counter {
            let c = i.counter.ok_or_else(|| bad("cache", "a first word from a missing counter"))?;
            i.cache.push(Instruction::counter_word(c));
        }
        for _ in 0..words {
            i.cache.push(r.up_to("cache", u16::MAX as u64)? as u16);
        }
        i.cache.resize(len, 0);
    }
    for (_, _, i) in all.iter_mut() {
        if let Some(flips) = r.opt32("churn")? {
            let seen = (0..r.count("churn", 1)?).map(|_| r.u32("churn")).collect::<Result<_, _>>()?;
            i.churn = Some(Churn { flips, seen });
        }
    }
    drop(all);
    if r.left() != 0 {
        unpack_executors(r, &mut code)?;
    }
    if r.left() != 0 {
        return Err(bad("code", format!("{} bytes left over", r.left())));
    }
    dump.code = code;
    check_built(&dump)?;
    Ok(dump)
}
