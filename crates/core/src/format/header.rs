//! The `format` and `version` fields a specdiff JSON file (dump, stats file) starts with,
//! read on their own so a file of another kind or a newer version gets a precise message.
//!
//! A small visitor rather than `serde_json::Value`: the web viewer would carry Value's reader,
//! its `Display` and serde_json's `BTreeMap`-based object map only for these two fields
//! (4.8 KB of gzipped wasm in all, docs/web.md).

use serde::Deserialize;

/// The header of a specdiff JSON file; other keys are skipped.
#[derive(Deserialize)]
pub(crate) struct Header {
    /// `"specdiff-dump"`, `"specdiff-stats"` …
    pub format: Option<HeaderField>,
    /// The format version.
    pub version: Option<HeaderField>,
}

/// A header field, as far as the checks need it.
pub(crate) enum HeaderField {
    /// A string.
    Text(String),
    /// A whole, non-negative number.
    Number(u64),
    /// Anything else, described for a message ("a list", "a negative number" …).
    Other(&'static str),
}

impl HeaderField {
    /// The number, when it is a whole, non-negative one.
    pub(crate) fn whole(&self) -> Option<u64> {
        match self {
            HeaderField::Number(n) => Some(*n),
            _ => None,
        }
    }
}

impl std::fmt::Display for HeaderField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderField::Text(t) => write!(f, "{t:?}"),
            HeaderField::Number(n) => write!(f, "{n}"),
            HeaderField::Other(what) => f.write_str(what),
        }
    }
}

impl<'de> Deserialize<'de> for HeaderField {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess};
        struct FieldVisitor;
        impl<'de> serde::de::Visitor<'de> for FieldVisitor {
            type Value = HeaderField;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<HeaderField, E> {
                Ok(HeaderField::Text(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<HeaderField, E> {
                Ok(HeaderField::Number(v))
            }
            fn visit_i64<E>(self, _: i64) -> Result<HeaderField, E> {
                Ok(HeaderField::Other("a negative number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<HeaderField, E> {
                Ok(HeaderField::Other("a fractional number"))
            }
            fn visit_bool<E>(self, v: bool) -> Result<HeaderField, E> {
                Ok(HeaderField::Other(if v { "true" } else { "false" }))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<HeaderField, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(HeaderField::Other("a list"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HeaderField, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(HeaderField::Other("an object"))
            }
        }
        deserializer.deserialize_any(FieldVisitor)
    }
}
