//! The JSON path of what a serde_json error is about (`code[3].instructions[0][1]`), found
//! after the fact from the error's position, so readers can parse with plain serde_json (fast,
//! one copy of the deserialization code) and still name the bad field when parsing fails.
//!
//! serde_json reports where its reader stood when the error happened: right after a value of
//! the wrong type or out of range (or right before a `[` or `{` where a scalar was expected),
//! and right after the closing bracket of an object missing a field or an array of the wrong
//! length. [`error_path`] scans the text up to that position, keeping the stack of open
//! containers, and names the value (or container) the error is about. The paths are written as
//! `serde_path_to_error` writes them: keys joined by `.`, indices as `[i]`, `.` for the top
//! level. The tests compare the two on thousands of corrupted documents.

/// The path of the value that serde_json error `e` (from parsing `json`) is about.
pub(crate) fn error_path(json: &[u8], e: &serde_json::Error) -> String {
    if e.line() == 0 {
        return ".".into();
    }
    let offset = byte_offset(json, e.line(), e.column());
    let message = e.to_string();
    // Errors of the container itself: raised by its visitor after its closing bracket.
    let container = ["missing field", "invalid length", "duplicate field", "unknown field"]
        .iter()
        .any(|p| message.starts_with(p));
    path_at(json, offset, container)
}

/// The byte offset of serde_json's `(line, column)`: 1-based line, and the number of bytes
/// before the position on that line.
fn byte_offset(json: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match json[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => return json.len(),
        }
    }
    (start + column).min(json.len())
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Key(String),
    Index(usize),
}

#[derive(Debug)]
struct Frame {
    object: bool,
    /// Object: the last key read. Array: unused.
    key: Option<String>,
    /// Array: values started so far.
    count: usize,
    /// Waiting for a value: after `:`, or after `[` or `,` in an array.
    awaiting_value: bool,
    /// Object: a key was read, its `:` not yet (an error here is about the object: the key's
    /// value has not started).
    after_key: bool,
}

impl Frame {
    /// The segment of the value this frame is at (the last one started).
    fn current(&self) -> Option<Segment> {
        if self.object {
            self.key.clone().map(Segment::Key)
        } else {
            self.count.checked_sub(1).map(Segment::Index)
        }
    }

    /// The segment of the next value (the one an `awaiting_value` frame waits for).
    fn next(&self) -> Option<Segment> {
        if self.object {
            self.key.clone().map(Segment::Key)
        } else {
            Some(Segment::Index(self.count))
        }
    }
}

/// What the scanner read last.
#[derive(Debug, PartialEq)]
enum Last {
    Nothing,
    /// A scalar value, or an opening bracket's container is still open.
    Token,
    /// A container closed; its segment within its parent (`None` for the root). Its path is
    /// the open containers' path plus this segment: keeping only the segment, not a copy of
    /// the whole path, keeps the scan linear however deep the text nests.
    Closed(Option<Segment>),
}

/// The path of the value (or, with `container`, of the container) an error at `offset` is
/// about. The text before `offset` is valid JSON so far (serde_json read it).
fn path_at(json: &[u8], offset: usize, container: bool) -> String {
    let text = &json[..offset.min(json.len())];
    // Open containers, and the segment of each within its parent (the root has none).
    let mut stack: Vec<Frame> = vec![];
    let mut segments: Vec<Segment> = vec![];
    let mut last = Last::Nothing;
    let mut i = 0;
    // Marks the start of a value in the innermost container.
    fn start_value(stack: &mut [Frame]) {
        if let Some(f) = stack.last_mut() {
            if !f.object {
                f.count += 1;
            }
            f.awaiting_value = false;
        }
    }
    while i < text.len() {
        let c = text[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'{' | b'[' => {
                start_value(&mut stack);
                if let Some(seg) = stack.last().and_then(Frame::current) {
                    segments.push(seg);
                }
                let object = c == b'{';
                stack.push(Frame { object, key: None, count: 0, awaiting_value: !object, after_key: false });
                last = Last::Token;
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                let closed = if stack.is_empty() { None } else { segments.pop() };
                last = Last::Closed(closed);
                i += 1;
            }
            b':' => {
                if let Some(f) = stack.last_mut() {
                    f.awaiting_value = true;
                    f.after_key = false;
                }
                last = Last::Token;
                i += 1;
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    f.awaiting_value = !f.object;
                    if f.object {
                        f.key = None;
                    }
                }
                last = Last::Token;
                i += 1;
            }
            b'"' => {
                let (s, end) = string(text, i);
                i = end;
                match stack.last_mut() {
                    Some(f) if f.object && !f.awaiting_value => {
                        f.key = Some(s);
                        f.after_key = true;
                    }
                    _ => start_value(&mut stack),
                }
                last = Last::Token;
            }
            _ => {
                // A number, true, false or null.
                start_value(&mut stack);
                while i < text.len() && !matches!(text[i], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':') {
                    i += 1;
                }
                last = Last::Token;
            }
        }
    }
    let mut path = segments;
    if container {
        if let Last::Closed(closed) = last {
            path.extend(closed);
        }
    } else if let Some(f) = stack.last().filter(|f| !f.after_key) {
        let seg = if f.awaiting_value { f.next() } else { f.current() };
        path.extend(seg);
    }
    display(&path)
}

/// A JSON string starting at `text[start]` (the quote), unescaped, and the index after it.
fn string(text: &[u8], start: usize) -> (String, usize) {
    let mut out: Vec<u8> = vec![];
    let mut i = start + 1;
    while i < text.len() {
        match text[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), i + 1),
            b'\\' if i + 1 < text.len() => {
                let e = text[i + 1];
                i += 2;
                let ch = match e {
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let unit = |at: usize| {
                            text.get(at..at + 4)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                        };
                        let Some(hi) = unit(i) else { continue };
                        i += 4;
                        let code = if (0xD800..0xDC00).contains(&hi) && text.get(i..i + 2) == Some(b"\\u") {
                            match unit(i + 2) {
                                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                    i += 6;
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                }
                                _ => hi,
                            }
                        } else {
                            hi
                        };
                        char::from_u32(code).unwrap_or('\u{FFFD}')
                    }
                    other => other as char,
                };
                let mut buf = [0; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), text.len())
}

/// Writes a path like serde_path_to_error: `a.b[2].c`, `.` when empty.
fn display(path: &[Segment]) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let mut out = String::new();
    for (n, s) in path.iter().enumerate() {
        match s {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) => {
                if n > 0 {
                    out.push('.');
                }
                out.push_str(k);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_values_and_containers() {
        let doc = br#"{"a": {"b": [10, [20, 21], "x"]}, "k\"ey": 1}"#;
        let at = |needle: &[u8], after: bool, container: bool| {
            let i = doc.windows(needle.len()).position(|w| w == needle).unwrap();
            path_at(doc, if after { i + needle.len() } else { i }, container)
        };
        assert_eq!(at(b"10", true, false), "a.b[0]");
        assert_eq!(at(b"21", true, false), "a.b[1][1]");
        assert_eq!(at(b"[20", false, false), "a.b[1]", "before a container: the value about to start");
        assert_eq!(at(b"21]", true, false), "a.b[1]", "after a closed container: that container");
        assert_eq!(at(b"21]", true, true), "a.b[1]");
        assert_eq!(at(b"\"x\"", true, true), "a.b", "container error inside an open array");
        assert_eq!(at(b": 1", true, false), "k\"ey");
        assert_eq!(at(b": 1", true, true), ".", "container error in the top level");
        assert_eq!(at(b"\"b\"", true, false), "a", "after a key: the object");
        assert_eq!(path_at(doc, 0, false), ".");
    }

    use serde::de::DeserializeOwned;
    use serde_json::{json, Value};

    use crate::format::builder::DumpBuilder;
    use crate::format::dump::to_json;
    use crate::model::dump::Dump;
    use crate::format::stats::StatsFile;
    use crate::model::stats::Stats;

    /// Parses `doc` as `T` plainly and with serde_path_to_error: both must succeed or fail
    /// with the same error, and for type errors the path found here must be the tracked one.
    fn check<T: DeserializeOwned>(doc: &[u8]) -> bool {
        let plain = serde_json::from_slice::<T>(doc);
        let mut de = serde_json::Deserializer::from_slice(doc);
        let tracked = match serde_path_to_error::deserialize::<_, T>(&mut de) {
            Ok(_) => de.end().map_err(|e| (".".to_string(), e)),
            Err(e) => Err((e.path().to_string(), e.into_inner())),
        };
        match (plain, tracked) {
            (Ok(_), Ok(())) => false,
            (Err(p), Err((path, inner))) => {
                assert_eq!(p.to_string(), inner.to_string(), "{}", String::from_utf8_lossy(doc));
                if p.classify() == serde_json::error::Category::Data {
                    assert_eq!(error_path(doc, &p), path, "{p}: {}", String::from_utf8_lossy(doc));
                }
                true
            }
            (p, t) => panic!("plain {:?} vs tracked {:?}: {}", p.err(), t.err(), String::from_utf8_lossy(doc)),
        }
    }

    /// Every node of `v` replaced by values of other types, objects missing each key in turn,
    /// arrays one element longer, shorter and empty.
    fn mutations(v: &Value) -> Vec<Value> {
        let replacements = [
            json!("x"),
            json!(-1),
            json!(1.5),
            json!(null),
            json!(true),
            json!([]),
            json!({}),
            json!([1]),
            json!({"a": 1}),
            json!(70000),
            json!(5000000000u64),
        ];
        let mut out = vec![];
        let mut paths = vec![vec![]];
        let mut k = 0;
        while k < paths.len() {
            let path: Vec<Value> = paths[k].clone();
            let node = path.iter().fold(v, |n, seg| match seg {
                Value::String(key) => &n[key.as_str()],
                s => &n[s.as_u64().unwrap() as usize],
            });
            match node {
                Value::Object(m) => paths.extend(m.keys().map(|key| [path.clone(), vec![json!(key)]].concat())),
                Value::Array(a) => paths.extend((0..a.len()).map(|i| [path.clone(), vec![json!(i)]].concat())),
                _ => {}
            }
            k += 1;
        }
        for path in paths {
            let edit = |f: &mut dyn FnMut(&mut Value)| {
                let mut copy = v.clone();
                let node = path.iter().fold(&mut copy, |n, seg| match seg {
                    Value::String(key) => &mut n[key.as_str()],
                    s => &mut n[s.as_u64().unwrap() as usize],
                });
                f(node);
                copy
            };
            for r in &replacements {
                out.push(edit(&mut |n| *n = r.clone()));
            }
            match path.iter().fold(v, |n, seg| match seg {
                Value::String(key) => &n[key.as_str()],
                s => &n[s.as_u64().unwrap() as usize],
            }) {
                Value::Object(m) => {
                    for key in m.keys() {
                        out.push(edit(&mut |n| {
                            n.as_object_mut().unwrap().remove(key);
                        }));
                    }
                }
                Value::Array(a) if !a.is_empty() => {
                    out.push(edit(&mut |n| {
                        let a = n.as_array_mut().unwrap();
                        a.push(a[0].clone());
                    }));
                    out.push(edit(&mut |n| {
                        n.as_array_mut().unwrap().pop();
                    }));
                    out.push(edit(&mut |n| n.as_array_mut().unwrap().clear()));
                }
                _ => {}
            }
        }
        out
    }

    /// Compact and pretty-printed (positions on other lines than the first).
    fn check_all<T: DeserializeOwned>(v: &Value) -> usize {
        let mut errors = 0;
        for m in mutations(v) {
            errors += check::<T>(&serde_json::to_vec(&m).unwrap()) as usize;
            errors += check::<T>(&serde_json::to_vec_pretty(&m).unwrap()) as usize;
        }
        errors
    }

    fn stats() -> Stats {
        let text = "opcode[LOAD_ATTR].specializable : 1\nopcode[LOAD_ATTR].execution_count : 7\n\
                    opcode[LOAD_ATTR].specialization.failure_kinds[4] : 40\n\
                    opcode[LOAD_ATTR].pair_count[LOAD_FAST] : 3\nCalls to PyEval_EvalDefault : 9\n\
                    GC[0] collections : 5\nObject allocations : 11\n";
        crate::format::pystats::read_pystats([("a.txt", text.as_bytes())], &Default::default()).unwrap()
    }

    #[test]
    fn paths_match_serde_path_to_error_on_corrupted_dumps() {
        let mut b = DumpBuilder::new("3.12.1");
        b.samples(10);
        let m = b
            .code("__main__", "<module>", 1)
            .ins("LOAD_CONST", "<code object f at 0x1, file \"m.py\", line 2>", 1)
            .ins("STORE_NAME", "f", 1)
            .finish();
        b.code("__main__", "f", 2)
            .ins("LOAD_ATTR_SLOT", "x", 3)
            .misses(2)
            .churn(2, &["LOAD_ATTR", "LOAD_ATTR_SLOT"])
            .ins("BINARY_OP", "+", 3)
            .backoff(3)
            .samples(4, &[(3, 2)])
            .parent(m)
            .finish();
        b.source("__main__", 2, "def f(p):").source("__main__", 3, "    return p.x + 1");
        let mut dump = b.build();
        dump.code[1].instructions[0].pos = Some((Some(3), Some(11), None));
        dump.run.exception = Some("ValueError: no".into());
        dump.pystats = Some(stats());
        let v: Value = serde_json::from_slice(&to_json(&dump)).unwrap();
        let errors = check_all::<Dump>(&v);
        assert!(errors > 3000, "{errors} corrupted documents failed to parse");
        // A real dump (3.11: PRECALL, quickened forms): its first code objects, files, strings.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dumps/rules-head-3.11.json.gz");
        let mut real = crate::format::dump::read_dump(path, &std::fs::read(path).unwrap(), Default::default()).unwrap();
        real.code.truncate(3);
        real.code.iter_mut().for_each(|c| c.instructions.truncate(5));
        real.files.truncate(2);
        real.files.iter_mut().for_each(|f| f.source.truncate(2));
        real.strings.truncate(40); // (only parsed here, not validated)
        real.ops.truncate(10);
        let v: Value = serde_json::from_slice(&to_json(&real)).unwrap();
        let errors = check_all::<Dump>(&v);
        assert!(errors > 3000, "{errors} corrupted documents failed to parse");
        // Keys that need escaping, and a duplicate key.
        for doc in [
            r#"{"format": "specdiff-dump", "a\"b\u00e9": 1, "version": "1"}"#,
            r#"{"format": "specdiff-dump", "format": "x"}"#,
            r#"{"pystats": {"gc": {"x": {}}}}"#,
            r#"{"pystats": {"gc": {"1": {"a": "b"}}}}"#,
        ] {
            assert!(check::<Dump>(doc.as_bytes()));
        }
    }

    #[test]
    fn paths_match_serde_path_to_error_on_corrupted_stats_files() {
        let file = StatsFile { format: "specdiff-stats".into(), version: 1, generator: "g".into(), stats: stats() };
        let v = serde_json::to_value(&file).unwrap();
        assert!(check_all::<StatsFile>(&v) > 100);
    }

    #[test]
    fn strings_are_unescaped() {
        assert_eq!(string(br#""a\u00e9\ud83d\ude00\n""#, 0), ("aé😀\n".to_string(), 23));
    }
}
