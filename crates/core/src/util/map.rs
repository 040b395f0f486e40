//! [`Map`]: the sorted map of the core's public types (pystats counters, per-family shares,
//! source lines by line number).
//!
//! It is a [`LiteMap`] (ICU4X's map: a sorted `Vec` of pairs, made for small code) where these
//! types used to hold a `BTreeMap`: in the web viewer, every key/value type of a `BTreeMap`
//! brought its own node-handling code, ~7 KB of gzipped wasm in all (docs/web.md, "Size
//! steps"). The maps are small (a few hundred opcodes at most) and mostly built in key order.
//!
//! Towards users nothing changes: a `Map` iterates in key order, reads and writes as a JSON
//! object (an empty one too, where `LiteMap`'s own serializer would write `[]`), a repeated
//! key keeps its last value, and `Debug` prints it like a `BTreeMap`.

use std::fmt;
use std::marker::PhantomData;
use std::borrow::Borrow;
use std::ops::{Deref, DerefMut, Index};

use litemap::LiteMap;

use crate::util::sort::sort_by;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A map sorted by key; derefs to [`LiteMap`] for lookups, `entry`, `insert` and iteration.
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K, V>(LiteMap<K, V>);

impl<K, V> Map<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        Map(LiteMap::new())
    }

    /// True when the map holds nothing (also for `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map::new()
    }
}

impl<K, V> Deref for Map<K, V> {
    type Target = LiteMap<K, V>;
    fn deref(&self) -> &LiteMap<K, V> {
        &self.0
    }
}

impl<K, V> DerefMut for Map<K, V> {
    fn deref_mut(&mut self) -> &mut LiteMap<K, V> {
        &mut self.0
    }
}

/// `map["key"]` with a `&str` for a `String` key, like `BTreeMap`; panics when it is missing.
impl<K: Borrow<Q> + Ord, Q: Ord + ?Sized, V> Index<&Q> for Map<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.0.get(key).expect("no entry found for key")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Map(iter.into_iter().collect())
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for Map<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_tuple_vec().into_iter()
    }
}

impl<'a, K: 'a, V: 'a> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = <&'a LiteMap<K, V> as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for Map<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter())
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for Map<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

struct MapVisitor<K, V>(PhantomData<fn() -> (K, V)>);

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
    type Value = Map<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Map<K, V>, A::Error> {
        // Collected, then sorted once: inserting one by one costs a shift of the vector per key
        // out of order, quadratic on a hostile file with its keys in reverse. As with
        // `insert`, the last of equal keys wins.
        let mut pairs = Vec::new();
        while let Some(pair) = access.next_entry()? {
            pairs.push(pair);
        }
        Ok(collect_sorted(pairs, |kept, later| *kept = later))
    }
}

/// The map of `pairs` given in any order: sorted with the crate's one sort (so the wasm build
/// carries no sort per key type), equal keys folded into the first by `merge` in input order.
/// Linear when the keys come sorted, as specdiff writes them.
pub(crate) fn collect_sorted<K: Ord, V>(mut pairs: Vec<(K, V)>, mut merge: impl FnMut(&mut V, V)) -> Map<K, V> {
    if !pairs.windows(2).all(|w| w[0].0 < w[1].0) {
        sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
    }
    let mut out: Vec<(K, V)> = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        match out.last_mut() {
            Some((last, kept)) if *last == key => merge(kept, value),
            _ => out.push((key, value)),
        }
    }
    Map(LiteMap::from_sorted_store_unchecked(out))
}

/// Adds the counts of `from` into `into`, key by key (saturating: sums of real counters never
/// get near `u64::MAX`, and hostile input must not panic).
pub(crate) fn add_counts<K: Ord + Clone>(into: &mut Map<K, u64>, from: &Map<K, u64>) {
    for (k, v) in from {
        let slot = into.entry(k.clone()).or_insert(0);
        *slot = slot.saturating_add(*v);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn reads_and_writes_json_like_a_btreemap() {
        for text in ["{}", r#"{"b":2,"a":1,"c":3,"a":4}"#, r#"{"x":1}"#] {
            let map: Map<String, u64> = serde_json::from_str(text).unwrap();
            let btree: BTreeMap<String, u64> = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&map).unwrap(), serde_json::to_string(&btree).unwrap());
            assert_eq!(format!("{map:?}"), format!("{btree:?}"));
            assert_eq!(map.iter().collect::<Vec<_>>(), btree.iter().collect::<Vec<_>>());
        }
        let by_number: Map<u32, Map<String, u64>> = serde_json::from_str(r#"{"2":{},"0":{"n":1}}"#).unwrap();
        assert_eq!(serde_json::to_string(&by_number).unwrap(), r#"{"0":{"n":1},"2":{}}"#);
    }

    #[test]
    fn refuses_what_is_not_a_map() {
        let err = serde_json::from_str::<Map<String, u64>>("[]").unwrap_err().to_string();
        assert!(err.contains("expected a map"), "{err}");
    }
}
