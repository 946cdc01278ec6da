//! MD5 (RFC 1321) for the `HASH` part, and the DXBC container checksum: MD5's compression
//! function over the container after its 20-byte header prefix, with the message length written
//! as D3D writes it (bit count first, `(bits >> 2) | 1` last) instead of RFC padding.

const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23,
    4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

fn k(i: usize) -> u32 {
    // floor(abs(sin(i + 1)) * 2^32), computed once per call; exact in f64 for these inputs.
    ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32
}

struct Md5 {
    state: [u32; 4],
    table: [u32; 64],
}

impl Md5 {
    fn new() -> Md5 {
        let mut table = [0u32; 64];
        for (i, t) in table.iter_mut().enumerate() {
            *t = k(i);
        }
        Md5 { state: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476], table }
    }

    fn block(&mut self, block: &[u8]) {
        let mut m = [0u32; 16];
        for (i, w) in m.iter_mut().enumerate() {
            *w = u32::from_le_bytes([block[i * 4], block[i * 4 + 1], block[i * 4 + 2], block[i * 4 + 3]]);
        }
        let [mut a, mut b, mut c, mut d] = self.state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(self.table[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        for (s, v) in self.state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }

    fn digest(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        for (i, s) in self.state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&s.to_le_bytes());
        }
        out
    }
}

/// The MD5 digest of `data`.
pub fn md5(data: &[u8]) -> [u8; 16] {
    let mut h = Md5::new();
    let full = data.len() / 64 * 64;
    for chunk in data[..full].chunks(64) {
        h.block(chunk);
    }
    let mut tail = data[full..].to_vec();
    tail.push(0x80);
    while tail.len() % 64 != 56 {
        tail.push(0);
    }
    tail.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_le_bytes());
    for chunk in tail.chunks(64) {
        h.block(chunk);
    }
    h.digest()
}

/// The checksum D3D expects in a container header: computed over everything after the magic
/// and the checksum field (`container[20..]`).
pub fn container_checksum(container: &[u8]) -> [u8; 16] {
    let data = container.get(20..).unwrap_or(&[]);
    let bits = (data.len() as u32).wrapping_mul(8);
    let mut h = Md5::new();
    let full = data.len() / 64 * 64;
    for chunk in data[..full].chunks(64) {
        h.block(chunk);
    }
    let rest = &data[full..];
    let mut block = [0u8; 64];
    if rest.len() >= 56 {
        block[..rest.len()].copy_from_slice(rest);
        block[rest.len()] = 0x80;
        h.block(&block);
        block = [0u8; 64];
        block[..4].copy_from_slice(&bits.to_le_bytes());
    } else {
        block[..4].copy_from_slice(&bits.to_le_bytes());
        block[4..4 + rest.len()].copy_from_slice(rest);
        block[4 + rest.len()] = 0x80;
    }
    block[60..].copy_from_slice(&((bits >> 2) | 1).to_le_bytes());
    h.block(&block);
    h.digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(d: [u8; 16]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn rfc1321_test_suite() {
        // The test vectors of RFC 1321, appendix A.5.
        assert_eq!(hex(md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(md5(b"a")), "0cc175b9c0f1b6a831c399e269772661");
        assert_eq!(hex(md5(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(hex(md5(b"message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
        assert_eq!(
            hex(md5(b"12345678901234567890123456789012345678901234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }
}
