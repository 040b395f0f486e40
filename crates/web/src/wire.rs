//! The binary form of the messages between the page and the engine ([`crate::protocol`]).
//!
//! Both ends are this same program, so the format only has to agree with itself: every value is
//! written field by field in declaration order, with no names and no version. Integers are
//! LEB128 varints, `f64` is 8 little-endian bytes, strings and lists are a varint length and
//! their items, `Option` is a `0`/`1` byte and the value, enums a varint variant index and the
//! variant's fields. Reading checks every length and index and gives `None` on anything
//! malformed (it never panics).
//!
//! Why not serde: the derived `Deserialize` of ~20 view-model types through `serde_json` was
//! ~30 KB of the gzipped wasm; this is a few KB, and faster on the 8k-row summaries.

/// Appends `self` to a message / reads one back.
pub trait Wire: Sized {
    /// Writes `self`.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a value written by [`Wire::put`]; `None` if the bytes are not one.
    fn take(r: &mut Reader<'_>) -> Option<Self>;
}

/// A cursor over a message.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads from the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// True when everything was read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    /// A LEB128 varint.
    pub fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.bytes.split_first()?;
            self.bytes = rest;
            value |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(value);
            }
        }
        None
    }

    /// A varint that fits `usize` and is at most the bytes left (a length: every item takes at
    /// least one byte, so a larger count cannot be right and must not be allocated).
    pub fn len(&mut self) -> Option<usize> {
        let n = usize::try_from(self.varint()?).ok()?;
        (n <= self.bytes.len()).then_some(n)
    }
}

/// Writes a LEB128 varint.
pub fn put_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Encodes one value.
pub fn encode<T: Wire>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.put(&mut out);
    out
}

/// Decodes one value that must fill `bytes` exactly.
pub fn decode<T: Wire>(bytes: &[u8]) -> Option<T> {
    let mut r = Reader::new(bytes);
    let v = T::take(&mut r)?;
    r.is_empty().then_some(v)
}

impl Wire for u64 {
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(*self, out);
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        r.varint()
    }
}

macro_rules! wire_uint {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                put_varint(*self as u64, out);
            }
            fn take(r: &mut Reader<'_>) -> Option<Self> {
                <$t>::try_from(r.varint()?).ok()
            }
        }
    )*};
}
wire_uint!(u32, usize);

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        match r.bytes(1)? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
}

impl Wire for f64 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some(f64::from_le_bytes(r.bytes(8)?.try_into().ok()?))
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(self.len() as u64, out);
        out.extend_from_slice(self.as_bytes());
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.len()?;
        std::str::from_utf8(r.bytes(n)?).ok().map(str::to_owned)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(v) => {
                out.push(1);
                v.put(out);
            }
        }
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        match bool::take(r)? {
            false => Some(None),
            true => T::take(r).map(Some),
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(self.len() as u64, out);
        for v in self {
            v.put(out);
        }
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.len()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::take(r)?);
        }
        Some(v)
    }
}

impl<T: Wire> Wire for Box<T> {
    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        T::take(r).map(Box::new)
    }
}

impl<T: Wire> Wire for [T; 2] {
    fn put(&self, out: &mut Vec<u8>) {
        self[0].put(out);
        self[1].put(out);
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some([T::take(r)?, T::take(r)?])
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn take(r: &mut Reader<'_>) -> Option<Self> {
        Some((A::take(r)?, B::take(r)?))
    }
}

/// `Wire` for a struct: its fields in the order listed (every field must be listed: the
/// struct literal in `take` does not compile otherwise).
#[macro_export]
macro_rules! wire_struct {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl $crate::wire::Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                $($crate::wire::Wire::put(&self.$f, out);)*
            }
            fn take(r: &mut $crate::wire::Reader<'_>) -> Option<Self> {
                Some($t { $($f: $crate::wire::Wire::take(r)?,)* })
            }
        }
    };
}

/// `Wire` for an enum of unit variants: the index in `ALL` (which must list every variant).
#[macro_export]
macro_rules! wire_unit_enum {
    ($t:ty, $all:expr) => {
        impl $crate::wire::Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                let i = $all.iter().position(|x| x == self).unwrap_or(0);
                $crate::wire::put_varint(i as u64, out);
            }
            fn take(r: &mut $crate::wire::Reader<'_>) -> Option<Self> {
                $all.get(usize::try_from(r.varint()?).ok()?).copied()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_garbage() {
        let v: Vec<(Option<String>, [u64; 2])> = vec![(Some("é\u{1F600}".into()), [0, u64::MAX]), (None, [127, 128])];
        let bytes = encode(&v);
        assert_eq!(decode::<Vec<(Option<String>, [u64; 2])>>(&bytes), Some(v));
        for x in [0.0, -1.5, f64::INFINITY, 1e-300] {
            assert_eq!(decode::<f64>(&encode(&x)), Some(x));
        }
        assert!(decode::<f64>(&encode(&f64::NAN)).unwrap().is_nan());
        assert_eq!(decode::<u32>(&encode(&(u64::from(u32::MAX) + 1))), None);
        // Every strict prefix is refused, and so is a trailing byte.
        for n in 0..bytes.len() {
            assert_eq!(decode::<Vec<(Option<String>, [u64; 2])>>(&bytes[..n]), None, "prefix {n}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(decode::<Vec<(Option<String>, [u64; 2])>>(&long), None);
        // A huge length is refused before anything is allocated; so are bad UTF-8 and bools.
        assert_eq!(decode::<Vec<u64>>(&[0xff, 0xff, 0xff, 0xff, 0x0f]), None);
        assert_eq!(decode::<String>(&[2, 0xc3, 0x28]), None);
        assert_eq!(decode::<bool>(&[2]), None);
        assert_eq!(decode::<u64>(&[0x80; 11]), None);
    }
}
