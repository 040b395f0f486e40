//! The fast path of [`crate::format::dump::read_dump`]: a scanner for dumps in the canonical shape
//! `specdiff dump` writes.
//!
//! Almost all of a whole-program dump is its string table and its instruction arrays, and
//! serde's generic sequence and number machinery spends most of the parse time on the
//! latter's integers. The scanner reads those two, and the code objects around the
//! instructions, directly; the small, irregular parts (`python`, `run`, `ops`, `files`,
//! `pystats`, the header) are cut out and handed to serde as they are.
//!
//! It never guesses. It accepts only what the typed serde parse accepts, with the same result:
//! canonical integers (no sign, fraction, exponent or leading zero) in range, the known keys
//! each at most once, strings without control characters (a string with escapes is unescaped
//! by serde). On anything else it gives up with `None`, and `read_dump` parses the whole
//! document with serde, so unusual but valid JSON reads the same, and every error message is
//! serde's own. The tests check both halves of that on real and corrupted dumps.

use serde::de::DeserializeOwned;

use crate::format::nesting::MAX_DEPTH;
use crate::model::dump::{Churn, CodeInfo, CodeKind, Dump, Instruction};

/// The dump in `json`, when it is written in the canonical shape.
pub(crate) fn scan_dump(json: &[u8]) -> Option<Dump> {
    let mut s = Scanner { b: json, i: 0, scratch: Vec::new() };
    let dump = s.dump()?;
    s.ws();
    (s.i == json.len()).then_some(dump)
}

/// Stores the value of a key, which must not have been seen before (serde rejects duplicate
/// fields).
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    match slot {
        Some(_) => None,
        None => {
            *slot = Some(value);
            Some(())
        }
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    /// Reused for every code object's instructions.
    scratch: Vec<Instruction>,
}

impl<'a> Scanner<'a> {
    fn dump(&mut self) -> Option<Dump> {
        let (mut format, mut version, mut generator, mut python, mut run) = (None, None, None, None, None);
        let (mut strings, mut ops, mut files, mut code, mut pystats) = (None, None, None, None, None);
        let mut classes = None;
        self.object(|s, key| match key {
            b"format" => once(&mut format, s.delegated()?),
            b"version" => once(&mut version, s.delegated()?),
            b"generator" => once(&mut generator, s.delegated()?),
            b"python" => once(&mut python, s.delegated()?),
            b"run" => once(&mut run, s.delegated()?),
            b"strings" => once(&mut strings, s.array(Self::string)?),
            b"ops" => once(&mut ops, s.delegated()?),
            b"files" => once(&mut files, s.delegated()?),
            b"code" => once(&mut code, s.array(Self::code_info)?),
            b"classes" => once(&mut classes, s.delegated()?),
            b"pystats" => once(&mut pystats, s.delegated()?),
            _ => None,
        })?;
        Some(Dump {
            format: format?,
            version: version?,
            generator: generator?,
            python: python?,
            run: run?,
            strings: strings?,
            ops: ops?,
            files: files?,
            code: code?,
            classes: classes.flatten(),
            pystats: pystats.flatten(),
        })
    }

    fn code_info(&mut self) -> Option<CodeInfo> {
        let (mut file, mut module, mut qualname, mut name, mut first_line) = (None, None, None, None, None);
        let (mut kind, mut parent, mut ran, mut samples) = (None, None, None, None);
        let (mut line_samples, mut instructions) = (None, None);
        let (mut owner, mut made_at, mut body, mut import_samples) = (None, None, None, None);
        let (mut executors, mut inlined) = (None, None);
        self.object(|s, key| match key {
            b"file" => once(&mut file, s.u32()?),
            b"module" => once(&mut module, s.u32()?),
            b"qualname" => once(&mut qualname, s.u32()?),
            b"name" => once(&mut name, s.u32()?),
            b"first_line" => once(&mut first_line, s.u32()?),
            b"kind" => once(&mut kind, s.kind()?),
            b"parent" => once(&mut parent, s.opt_u32()?),
            b"ran" => once(&mut ran, s.bool()?),
            b"owner" => once(&mut owner, s.opt_u32()?),
            b"made_at" => once(&mut made_at, s.nullable(|s| s.pair(Self::u32, Self::u32))?),
            b"body" => once(&mut body, s.opt_u32()?),
            b"samples" => once(&mut samples, s.pair(|s| s.uint(u64::MAX), |s| s.uint(u64::MAX))?),
            b"import_samples" => once(&mut import_samples, s.uint(u64::MAX)?),
            b"line_samples" => {
                let entry = |s: &mut Self| s.pair(Self::u32, |s| s.uint(u64::MAX));
                once(&mut line_samples, s.array(entry)?)
            }
            b"instructions" => once(&mut instructions, s.instructions()?),
            b"executors" => once(&mut executors, s.delegated()?),
            b"inlined" => once(&mut inlined, s.array(Self::u32)?),
            _ => None,
        })?;
        Some(CodeInfo {
            file: file?,
            module: module?,
            qualname: qualname?,
            name: name?,
            first_line: first_line?,
            kind: kind?,
            parent: parent.flatten(),
            ran: ran?,
            owner: owner.flatten(),
            made_at: made_at.flatten(),
            body: body.flatten(),
            samples: samples?,
            import_samples: import_samples.unwrap_or(0),
            line_samples: line_samples?,
            instructions: instructions?,
            executors: executors.flatten(),
            inlined,
        })
    }

    /// The instruction array, allocated at its exact size: growing a vector of 400,000
    /// instructions by doubling would copy them and touch twice the memory.
    fn instructions(&mut self) -> Option<Vec<Instruction>> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        self.byte(b'[')?;
        if !self.byte_if(b']') {
            loop {
                scratch.push(self.instruction()?);
                if self.byte_if(b']') {
                    break;
                }
                self.byte(b',')?;
            }
        }
        let mut exact = Vec::with_capacity(scratch.len());
        exact.append(&mut scratch);
        self.scratch = scratch;
        Some(exact)
    }

    /// `[offset, op, arg, argrepr, line, pos, cache (, counter (, churn))]`.
    fn instruction(&mut self) -> Option<Instruction> {
        self.byte(b'[')?;
        let offset = self.u32()?;
        self.byte(b',')?;
        let op = self.u32()?;
        self.byte(b',')?;
        let arg = self.opt_u32()?;
        self.byte(b',')?;
        let argrepr = self.u32()?;
        self.byte(b',')?;
        let line = self.opt_u32()?;
        self.byte(b',')?;
        let pos = self.nullable(|s| {
            s.byte(b'[')?;
            let end_line = s.opt_u32()?;
            s.byte(b',')?;
            let col = s.opt_u32()?;
            s.byte(b',')?;
            let end_col = s.opt_u32()?;
            s.byte(b']')?;
            Some((end_line, col, end_col))
        })?;
        self.byte(b',')?;
        let cache = self.array(|s| s.uint(u16::MAX.into()).map(|v| v as u16))?;
        let mut instruction = Instruction { offset, op, arg, argrepr, line, pos, cache, counter: None, churn: None };
        if self.byte_if(b']') {
            return Some(instruction);
        }
        self.byte(b',')?;
        let counter = |s: &mut Self| s.pair(|s| s.uint(u16::MAX.into()), |s| s.uint(u8::MAX.into()));
        instruction.counter = self.nullable(counter)?.map(|(value, backoff)| (value as u16, backoff as u8));
        if self.byte_if(b']') {
            return Some(instruction);
        }
        self.byte(b',')?;
        let churn = |s: &mut Self| s.pair(Self::u32, |s| s.array(Self::u32));
        instruction.churn = self.nullable(churn)?.map(|(flips, seen)| Churn { flips, seen });
        self.byte(b']')?;
        Some(instruction)
    }

    // ---- JSON pieces ----

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn byte(&mut self, want: u8) -> Option<()> {
        self.byte_if(want).then_some(())
    }

    /// Consumes `want` if it is the next byte after whitespace.
    fn byte_if(&mut self, want: u8) -> bool {
        self.ws();
        let found = self.b.get(self.i) == Some(&want);
        self.i += found as usize;
        found
    }

    fn word_if(&mut self, word: &[u8]) -> bool {
        self.ws();
        let found = self.b[self.i..].starts_with(word);
        if found {
            self.i += word.len();
        }
        found
    }

    fn nullable<T>(&mut self, value: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.word_if(b"null") {
            Some(None)
        } else {
            value(self).map(Some)
        }
    }

    fn bool(&mut self) -> Option<bool> {
        if self.word_if(b"true") {
            Some(true)
        } else if self.word_if(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// A non-negative integer without sign, fraction, exponent or leading zero, at most `max`.
    /// (Twenty digits and more, which may not fit a `u64`, are left to serde.)
    fn uint(&mut self, max: u64) -> Option<u64> {
        self.ws();
        let (b, start) = (self.b, self.i);
        let mut i = start;
        let mut value: u64 = 0;
        while let Some(&c @ b'0'..=b'9') = b.get(i) {
            value = value.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            i += 1;
        }
        let digits = i - start;
        let canonical = digits == 1 || (2..20).contains(&digits) && b[start] != b'0';
        if !canonical || matches!(b.get(i), Some(b'.' | b'e' | b'E')) || value > max {
            return None;
        }
        self.i = i;
        Some(value)
    }

    fn u32(&mut self) -> Option<u32> {
        self.uint(u32::MAX.into()).map(|v| v as u32)
    }

    fn opt_u32(&mut self) -> Option<Option<u32>> {
        self.nullable(Self::u32)
    }

    /// `[a, b]`.
    fn pair<A, B>(
        &mut self,
        a: impl FnOnce(&mut Self) -> Option<A>,
        b: impl FnOnce(&mut Self) -> Option<B>,
    ) -> Option<(A, B)> {
        self.byte(b'[')?;
        let a = a(self)?;
        self.byte(b',')?;
        let b = b(self)?;
        self.byte(b']')?;
        Some((a, b))
    }

    /// `[item, …]`.
    fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.byte(b'[')?;
        let mut out = Vec::new();
        if self.byte_if(b']') {
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if self.byte_if(b']') {
                return Some(out);
            }
            self.byte(b',')?;
        }
    }

    /// `{"key": value, …}`, each value read by `field`, which gives up on unknown keys.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.byte(b'{')?;
        if self.byte_if(b'}') {
            return Some(());
        }
        loop {
            let key = self.plain_string()?;
            self.byte(b':')?;
            field(self, key)?;
            if self.byte_if(b'}') {
                return Some(());
            }
            self.byte(b',')?;
        }
    }

    /// The bytes of a string with no escapes and no control characters, or `None`.
    fn plain_string(&mut self) -> Option<&'a [u8]> {
        self.byte(b'"')?;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => self.i += 1,
            }
        }
        self.i += 1;
        Some(&self.b[start..self.i - 1])
    }

    fn string(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        match self.plain_string() {
            Some(bytes) => std::str::from_utf8(bytes).ok().map(str::to_owned),
            None => {
                // Escapes (or worse): serde unescapes or rejects it.
                self.i = start;
                self.delegated()
            }
        }
    }

    fn kind(&mut self) -> Option<CodeKind> {
        let name = self.plain_string()?;
        CodeKind::ALL.into_iter().find(|k| k.as_str().as_bytes() == name)
    }

    /// The next value, cut out and parsed by serde.
    fn delegated<T: DeserializeOwned>(&mut self) -> Option<T> {
        self.ws();
        let start = self.i;
        self.skip_value()?;
        serde_json::from_slice(&self.b[start..self.i]).ok()
    }

    /// Moves past one JSON value. Only the extent matters: serde validates what is cut out.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.ws();
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    loop {
                        match *self.b.get(self.i)? {
                            b'"' => break,
                            b'\\' => self.i += 2,
                            _ => self.i += 1,
                        }
                    }
                    self.i += 1;
                }
                // The reader's nesting cap counts from the top of the document, where this
                // value is a key's (one level down): deeper is the slow path's to refuse.
                b'[' | b'{' if depth + 1 >= MAX_DEPTH => return None,
                b'[' | b'{' => {
                    depth += 1;
                    self.i += 1;
                    continue;
                }
                b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    self.i += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.i += 1;
                    continue;
                }
                _ => {
                    let start = self.i;
                    while let Some(b'a'..=b'z' | b'0'..=b'9' | b'-' | b'+' | b'.' | b'E') = self.b.get(self.i) {
                        self.i += 1;
                    }
                    if self.i == start {
                        return None;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dump::to_json;

    fn fixture_dumps() -> Vec<(String, Vec<u8>)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps");
        let mut out = vec![];
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with(".json.gz") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let content = crate::format::input::decompressed("f", &bytes, Default::default()).unwrap();
            out.push((path.display().to_string(), content.into_owned()));
        }
        assert!(out.len() >= 8, "expected the dump fixtures, found {}", out.len());
        out
    }

    #[test]
    fn real_dumps_scan_to_what_serde_reads() {
        for (name, json) in fixture_dumps() {
            let serde: Dump = serde_json::from_slice(&json).unwrap();
            assert!(scan_dump(&json).as_ref() == Some(&serde), "{name}");
            let pretty = serde_json::to_vec_pretty(&serde).unwrap();
            assert!(scan_dump(&pretty).as_ref() == Some(&serde), "{name}, pretty-printed");
            let written = to_json(&serde);
            assert!(scan_dump(&written).as_ref() == Some(&serde), "{name}, as specdiff-core writes it");
            // Fields the fixtures predate: read by the scanner, not left to the slow path.
            let mut newer = serde.clone();
            for (i, c) in newer.code.iter_mut().enumerate() {
                c.import_samples = i as u64 % 3;
            }
            assert!(scan_dump(&to_json(&newer)).as_ref() == Some(&newer), "{name}, with import_samples");
        }
    }

    /// Every single-byte corruption of a real dump: the scanner either gives up or gives what
    /// serde gives; it never accepts what serde rejects.
    #[test]
    fn corrupted_dumps_scan_to_serde_or_give_up() {
        let (name, json) = fixture_dumps().into_iter().min_by_key(|(_, j)| j.len()).unwrap();
        let replacements = [b'0', b'9', b'-', b'.', b'e', b'"', b'\\', b',', b'[', b']', b'{', b'}', b'n', b' ', 0x01, 0xff];
        let (mut scanned, mut tried) = (0, 0);
        for at in (0..json.len()).step_by(13) {
            for &r in &replacements {
                let mut bad = json.clone();
                bad[at] = r;
                tried += 1;
                let serde = serde_json::from_slice::<Dump>(&bad).ok();
                if let Some(d) = scan_dump(&bad) {
                    scanned += 1;
                    assert!(Some(&d) == serde.as_ref(), "{name}: byte {at} set to {r:#x}");
                }
            }
            let mut cut = json.clone();
            cut.truncate(at);
            assert!(scan_dump(&cut).is_none(), "{name}: truncated at {at}");
        }
        assert!(scanned > tried / 10, "the scanner should read many harmless corruptions ({scanned} of {tried})");
    }

    #[test]
    fn unusual_but_valid_json_is_left_to_serde() {
        let (_, json) = fixture_dumps().into_iter().min_by_key(|(_, j)| j.len()).unwrap();
        let text = String::from_utf8(json).unwrap();
        let serde: Dump = serde_json::from_str(&text).unwrap();
        for (from, to) in [
            ("{\"format\"", "{\"extra\":1,\"format\""),
            ("\"kind\":\"module\"", "\"ki\\u006ed\":\"module\""),
            ("\"kind\":\"function\"", "\"kind\":\"function\",\"extra\":[1]"),
        ] {
            let changed = text.replacen(from, to, 1);
            assert_ne!(changed, text, "{from}");
            assert!(scan_dump(changed.as_bytes()).is_none(), "{to}");
            // serde reads it, to the same dump.
            assert!(serde_json::from_str::<Dump>(&changed).unwrap() == serde, "{to}");
        }
        // An escaped string in the table is unescaped by serde.
        let escaped = text.replacen("\"strings\":[\"\",\"", "\"strings\":[\"\",\"\\u0041\\n", 1);
        let mut expected = serde.clone();
        expected.strings[1] = format!("A\n{}", expected.strings[1]);
        assert!(scan_dump(escaped.as_bytes()) == Some(expected));
    }
}
