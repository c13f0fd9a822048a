//! A small, fast, non-cryptographic hasher (the Fx hash used by rustc) for the maps on
//! hot paths: ids, and the names of a show (resolving 100,000 flows looks names up
//! hundreds of thousands of times). SipHash's resistance to chosen collisions buys
//! nothing in a compiler run by the spec's own author. Iteration order is never relied
//! upon.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    /// The product's high bits are its well-mixed ones: a multiply carries each input
    /// bit only upwards, so keys that differ only in their high bytes (an `Ipv4Addr`,
    /// hashed as its octets in memory order, with the last octet on top) had the same low
    /// bits, which the map takes for the bucket. Rotated down, as rustc-hash 2 does, or
    /// the address claims of a large show all probe one run of buckets.
    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub(crate) type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Consecutive addresses (a pool handed out in order) spread over the buckets that
    /// the low bits choose.
    #[test]
    fn consecutive_addresses_differ_in_the_low_bits() {
        let b = BuildHasherDefault::<FxHasher>::default();
        for base in [0x0a00_0000_u32, 0x0a80_0000, 0xc0a8_0100] {
            let low: FxSet<u64> = (0..256)
                .map(|i| b.hash_one(std::net::Ipv4Addr::from(base + i)) & 0xfff)
                .collect();
            assert!(low.len() > 200, "{base:x}: {} of 256 distinct", low.len());
        }
        // Small integers (ids) too.
        let low: FxSet<u64> = (0..256_u32).map(|i| b.hash_one(i) & 0xfff).collect();
        assert!(low.len() > 200, "ids: {} of 256 distinct", low.len());
    }
}
