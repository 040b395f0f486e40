//! The one reader of specdiff's JSON documents (dumps, standalone stats files, and through the
//! dump reader the dumps a share link carries): decompression within the size limits, sniffing
//! (JSON, raw pystats text, or neither), the `format`/`version` header, and the one-line error
//! messages, in this order:
//!
//! 1. [`load`]: decompress (gzip) within [`ReadLimits`], refuse an empty file, sniff.
//! 2. [`Input::json`]: refuse anything but a JSON object, naming a raw pystats file when the
//!    kind has words for it. Before serde reads it, a text nested deeper than
//!    [`MAX_DEPTH`] is refused (`nesting.rs`).
//! 3. [`Document::check_header`] (optional): judge the header before the body, or
//!    [`Document::parse`] then [`Document::check_parsed`]: parse first and judge the header
//!    only when the parse fails or after it succeeds. Dumps take the second way: judging the
//!    header first costs a scan of the whole text, and dumps are megabytes.
//!
//! A [`DocumentKind`] holds what differs between kinds: the header they expect and what a
//! wrong file is told.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

use crate::format::header::{Header, HeaderField};
use crate::format::input::{decompressed, sniff, InputError, InputErrorKind, ReadLimits, Sniffed, TOP_LEVEL};
use crate::format::json_path::error_path;
use crate::format::nesting::{too_deep, MAX_DEPTH};

/// A kind of specdiff JSON document.
pub(crate) struct DocumentKind {
    /// The value of its `format` key.
    pub(crate) format: &'static str,
    /// The newest version this crate reads.
    pub(crate) version: u64,
    /// What a raw pystats text file given instead is told; `None`: "not JSON", like any text.
    pub(crate) raw_pystats: Option<&'static str>,
    /// Other specdiff formats a user may give instead, with what they are told.
    pub(crate) others: &'static [(&'static str, &'static str)],
}

impl DocumentKind {
    /// Judges a header whose `format` is `field` and whose `version` is `version` (when that is
    /// a whole, non-negative number).
    fn judge(&self, field: &HeaderField, version: Option<u64>) -> Result<(), InputErrorKind> {
        match field {
            HeaderField::Text(format) => self.judge_text(format, version),
            other => Err(self.wrong_format(other)),
        }
    }

    pub(crate) fn judge_text(&self, format: &str, version: Option<u64>) -> Result<(), InputErrorKind> {
        if format != self.format {
            return Err(match self.others.iter().find(|(name, _)| *name == format) {
                Some((_, told)) => InputErrorKind::NotADump((*told).into()),
                None => self.wrong_format(&format!("{format:?}")),
            });
        }
        match version {
            Some(found) if found > self.version => {
                Err(InputErrorKind::NewerVersion { found, supported: self.version })
            }
            // Versions start at 1: no specdiff wrote a 0 (it was read as if it were 1).
            Some(0) => Err(InputErrorKind::BadField {
                path: "version".into(),
                detail: "0 is not a format version (versions start at 1)".into(),
            }),
            _ => Ok(()),
        }
    }

    fn wrong_format(&self, shown: &dyn std::fmt::Display) -> InputErrorKind {
        InputErrorKind::NotADump(format!("\"format\" is {shown}, expected \"{}\"", self.format))
    }
}

/// An input, decompressed and sniffed.
pub(crate) struct Input<'a> {
    /// The name errors are reported under.
    pub(crate) file: &'a str,
    /// The decompressed bytes; never empty or only white space.
    pub(crate) content: Cow<'a, [u8]>,
    /// What the first bytes look like.
    pub(crate) sniffed: Sniffed,
}

/// Decompresses `bytes` within `limits`, refuses an empty file and sniffs the rest. `file`
/// names the input in error messages.
pub(crate) fn load<'a>(file: &'a str, bytes: &'a [u8], limits: ReadLimits) -> Result<Input<'a>, InputError> {
    let content = decompressed(file, bytes, limits)?;
    if content.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::new(file, InputErrorKind::Empty));
    }
    let sniffed = sniff(&content);
    Ok(Input { file, content, sniffed })
}

impl<'a> Input<'a> {
    /// The input as a document of `kind`, when it is JSON.
    pub(crate) fn json(self, kind: &'static DocumentKind) -> Result<Document<'a>, InputError> {
        let why = match (self.sniffed, kind.raw_pystats) {
            (Sniffed::Json, _) => {
                return Ok(Document { file: self.file, content: self.content, kind, header_checked: false })
            }
            (Sniffed::RawPystats, Some(told)) => InputErrorKind::NotADump(told.into()),
            _ => InputErrorKind::NotJson("it does not start with '{'".into()),
        };
        Err(InputError::new(self.file, why))
    }
}

/// A JSON document of a known kind, not parsed yet.
pub(crate) struct Document<'a> {
    file: &'a str,
    content: Cow<'a, [u8]>,
    kind: &'static DocumentKind,
    /// [`Document::check_header`] passed: the text is complete JSON of the right kind.
    header_checked: bool,
}

impl Document<'_> {
    /// The JSON text.
    pub(crate) fn content(&self) -> &[u8] {
        &self.content
    }

    /// An error about this document.
    pub(crate) fn error(&self, kind: InputErrorKind) -> InputError {
        InputError::new(self.file, kind)
    }

    /// Judges the header before the body is parsed, so a file of another kind or a newer
    /// version gets a precise message rather than a type error deep inside. Reads the whole
    /// text (a syntax error anywhere is reported here).
    pub(crate) fn check_header(&mut self) -> Result<(), InputError> {
        self.check_depth()?;
        let header: Header = serde_json::from_slice(&self.content).map_err(|e| self.error(self.header_error(&e)))?;
        let Some(format) = header.format else {
            return Err(self.error(no_format_key()));
        };
        self.kind.judge(&format, header.version.as_ref().and_then(HeaderField::whole)).map_err(|k| self.error(k))?;
        self.header_checked = true;
        Ok(())
    }

    /// Parses the document as `T`. After [`Document::check_header`] every failure is a bad
    /// field; otherwise truncation and syntax errors are told apart from type errors, and a
    /// type error that the header explains (another kind of file, a newer version, which a
    /// newer format would also cause) gets the header's message.
    pub(crate) fn parse<T: DeserializeOwned>(&self) -> Result<T, InputError> {
        if !self.header_checked {
            self.check_depth()?;
        }
        serde_json::from_slice(&self.content).map_err(|e| {
            if self.header_checked {
                return self.error(self.bad_field(&e));
            }
            self.error(self.syntax_error(&e).unwrap_or_else(|| self.type_error(&e)))
        })
    }

    /// Why the header could not be read: a syntax error, a duplicate key, or not an object.
    fn header_error(&self, e: &serde_json::Error) -> InputErrorKind {
        match self.syntax_error(e).or_else(|| duplicate_key(e).map(|_| self.bad_field(e))) {
            Some(kind) => kind,
            None => not_an_object(),
        }
    }

    /// The error for a document that ends early or is not JSON (naming the first byte that is
    /// not UTF-8 when there is one: serde says only "syntax error" for it); `None` for a type
    /// error.
    fn syntax_error(&self, e: &serde_json::Error) -> Option<InputErrorKind> {
        let kind = syntax_error(e)?;
        if let (InputErrorKind::NotJson(_), Err(bad)) = (&kind, std::str::from_utf8(&self.content)) {
            let at = bad.valid_up_to();
            return Some(InputErrorKind::NotUtf8 { byte: at as u64 + 1, value: self.content[at] });
        }
        Some(kind)
    }

    /// Refuses a text nested deeper than [`MAX_DEPTH`], before serde (which skips unknown
    /// keys' values at any depth) and the error path lookup see it.
    fn check_depth(&self) -> Result<(), InputError> {
        match too_deep(&self.content) {
            Some(depth) => Err(self.error(InputErrorKind::TooDeep { depth: depth as u64, limit: MAX_DEPTH as u64 })),
            None => Ok(()),
        }
    }

    /// Judges the header of a parsed document.
    pub(crate) fn check_parsed(&self, format: &str, version: u64) -> Result<(), InputError> {
        self.kind.judge_text(format, Some(version)).map_err(|k| self.error(k))
    }

    fn type_error(&self, inner: &serde_json::Error) -> InputErrorKind {
        let header = match serde_json::from_slice::<Header>(&self.content) {
            Ok(header) => header,
            Err(e) => return self.header_error(&e),
        };
        // Only a complete header is judged: without a `format` string and a `version`, the
        // type error itself (`format: invalid type …`) is the more precise message.
        match (header.format, header.version) {
            (Some(HeaderField::Text(format)), Some(version)) => {
                if let Err(kind) = self.kind.judge_text(&format, version.whole()) {
                    return kind;
                }
            }
            (None, _) => return no_format_key(),
            _ => {}
        }
        self.bad_field(inner)
    }

    /// A type error, named by the JSON path of the bad value.
    fn bad_field(&self, inner: &serde_json::Error) -> InputErrorKind {
        let message = inner.to_string();
        let detail = match message.rfind(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        let path = error_path(&self.content, inner);
        let path = if path == "." { TOP_LEVEL.into() } else { path };
        match duplicate_key(inner) {
            Some(key) => InputErrorKind::DuplicateKey { path, key },
            None => InputErrorKind::BadField { path, detail },
        }
    }
}

/// The error for a document that ends early or is not JSON; `None` for a type error.
fn syntax_error(e: &serde_json::Error) -> Option<InputErrorKind> {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => Some(InputErrorKind::Truncated(format!("the JSON ends early (line {})", e.line()))),
        Category::Syntax | Category::Io => {
            Some(InputErrorKind::NotJson(format!("syntax error at line {} column {}", e.line(), e.column())))
        }
        Category::Data => None,
    }
}

/// The key of serde's "duplicate field `format`" error.
fn duplicate_key(e: &serde_json::Error) -> Option<String> {
    let message = e.to_string();
    let key = message.strip_prefix("duplicate field `")?;
    Some(key[..key.find('`')?].to_string())
}

fn not_an_object() -> InputErrorKind {
    InputErrorKind::NotADump("the top level is not a JSON object".into())
}

fn no_format_key() -> InputErrorKind {
    InputErrorKind::NotADump("no \"format\" key".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    static KIND: DocumentKind = DocumentKind {
        format: "specdiff-x",
        version: 2,
        raw_pystats: Some("this is raw pystats"),
        others: &[("specdiff-y", "this is a y file")],
    };

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct X {
        format: String,
        version: u64,
        body: Vec<u32>,
    }

    fn open(text: &str) -> Result<Document<'_>, InputError> {
        load("x.json", text.as_bytes(), ReadLimits::default())?.json(&KIND)
    }

    /// Judged before the body: every header is judged, whatever `format` holds.
    fn header_first(text: &str) -> String {
        let mut d = open(text).unwrap();
        match d.check_header() {
            Ok(()) => d.parse::<X>().unwrap_err().to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Judged after a failed parse: only a complete header, else the type error stands.
    fn parse_first(text: &str) -> String {
        open(text).and_then(|d| d.parse::<X>().map(|_| ())).unwrap_err().to_string()
    }

    #[test]
    fn one_line_errors_at_each_step() {
        let err = |text: &str| open(text).err().unwrap().to_string();
        assert_eq!(err(" \n"), "x.json: empty file");
        assert_eq!(err("opcode[1].execution_count : 3\n"), "x.json: not a specdiff dump: this is raw pystats");
        assert_eq!(err("hello"), "x.json: not JSON: it does not start with '{'");

        let other = r#"{"format": "specdiff-y", "version": 1}"#;
        assert_eq!(header_first(other), "x.json: not a specdiff dump: this is a y file");
        assert_eq!(parse_first(other), "x.json: not a specdiff dump: this is a y file");
        let newer = r#"{"format": "specdiff-x", "version": 3, "body": "?"}"#;
        let told = "x.json: newer format version 3 (this specdiff reads up to 2; upgrade specdiff)";
        assert_eq!(header_first(newer), told);
        assert_eq!(parse_first(newer), told);

        // The two policies differ only on an incomplete or non-string header.
        let number = r#"{"format": 7, "version": 1, "body": []}"#;
        assert_eq!(header_first(number), "x.json: not a specdiff dump: \"format\" is 7, expected \"specdiff-x\"");
        assert_eq!(parse_first(number), "x.json: bad field format: invalid type: integer `7`, expected a string");
        let no_version = r#"{"format": "specdiff-z"}"#;
        assert_eq!(
            header_first(no_version),
            "x.json: not a specdiff dump: \"format\" is \"specdiff-z\", expected \"specdiff-x\""
        );
        assert_eq!(parse_first(no_version), "x.json: bad field (top level): missing field `version`");

        let bad_body = r#"{"format": "specdiff-x", "version": 1, "body": [1, "2"]}"#;
        assert_eq!(header_first(bad_body), "x.json: bad field body[1]: invalid type: string \"2\", expected u32");
        assert_eq!(parse_first(bad_body), "x.json: bad field body[1]: invalid type: string \"2\", expected u32");
        assert_eq!(parse_first(r#"{"format": "specdiff-x", "#), "x.json: truncated: the JSON ends early (line 1)");
        assert_eq!(err("[1]"), "x.json: not JSON: it does not start with '{'");
    }
}
