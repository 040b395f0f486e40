//! The crate's stable sort. Natively it is `slice::sort_by`; in wasm every element type would
//! get its own copy of the standard sort (~4 KB each, a dozen types), so there the order is
//! found by sorting indices through one `dyn` comparator, the only sort copy, and then applied.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`: the same order as `v.sort_by(cmp)` on every target. Public so
/// the web viewer sorts its view models through the same code.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_by(cmp);
    #[cfg(target_arch = "wasm32")]
    sort_through_indices(v, &cmp);
}

/// [`sort_by`] with the key compared by `Ord`.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably by `cmp` with one shared, non-generic sort of indices.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn sort_through_indices<T>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut order, &|a, b| cmp(&v[a], &v[b]));
    // Position i receives the element first at order[i]. Positions before i are final; an
    // element that was swapped away from one of them sits where that position's own lookup
    // found it, so the chain through `order` leads to its current place.
    for i in 0..order.len() {
        let mut j = order[i];
        while j < i {
            j = order[j];
        }
        v.swap(i, j);
    }
}

/// Sorts indices stably by `cmp`. Public so the web viewer sorts through this same copy too.
#[inline(never)]
pub fn sort_indices(v: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    v.sort_by(|&a, &b| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_sort_is_the_stable_sort() {
        // A small xorshift: many lengths and duplicate keys, so stability is exercised.
        let mut x = 0x2545_f491_u64;
        for len in 0..200 {
            let v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((x % 7) as u8, i)
                })
                .collect();
            let mut expected = v.clone();
            expected.sort_by_key(|a| a.0);
            let mut got = v.clone();
            sort_through_indices(&mut got, &|a: &(u8, usize), b: &(u8, usize)| a.0.cmp(&b.0));
            assert_eq!(got, expected, "len {len}");
        }
    }
}
