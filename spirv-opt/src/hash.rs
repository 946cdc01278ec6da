//! The hash maps of the passes: keyed by SPIR-V ids (small integers) and positions, so they use a
//! multiplicative hash instead of std's SipHash, which took about a quarter of the optimizer's
//! instructions (callgrind, `hlslc -spirv` on a 246-line pixel shader). Not DoS-resistant, which
//! does not matter for ids a compiler made itself.

use std::hash::{BuildHasherDefault, Hasher};

/// Firefox's / rustc's "Fx" hash: rotate, xor, multiply by a constant, one word at a time.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl IdHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(buf));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
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
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`IdHasher`]; make one with `HashMap::default()`.
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IdHasher>>;
/// A `HashSet` with [`IdHasher`]; make one with `HashSet::default()`.
pub type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<IdHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_and_sets_work_with_id_keys() {
        let mut m: HashMap<u32, u32> = HashMap::default();
        for i in 0..10_000u32 {
            m.insert(i * 7, i);
        }
        assert_eq!(m.len(), 10_000);
        assert!((0..10_000u32).all(|i| m[&(i * 7)] == i));
        let s: HashSet<(usize, usize)> = (0..100).flat_map(|a| (0..100).map(move |b| (a, b))).collect();
        assert_eq!(s.len(), 10_000);
    }
}
