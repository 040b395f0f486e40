//! FNV-1a, the crate's one hash that is the same on every platform and every run (std's is
//! seeded): code objects' content identities (`engine::matching`) and the marker that keeps
//! capped names apart (`report::display`) both need output that is byte-identical run to run.

/// FNV-1a's starting value.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// `h` with `bytes` folded in.
pub fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}
