//! The LLVM bitstream container (`BitCodeFormat.rst`, "Bitstream Format"): fixed-width and VBR
//! fields packed little-endian into 32-bit words, abbreviations (`DEFINE_ABBREV`), nested blocks
//! with a backpatched length word, and the `BLOCKINFO` block that gives abbreviations to every
//! block of an id.
//!
//! Invariants:
//! - Bits are appended from the least significant bit of the current 32-bit word; the buffer is
//!   always a whole number of words once every block is closed.
//! - A record written with an abbreviation matches it: literal operands equal the record's
//!   values, fixed fields fit their width (checked with `debug_assert!`), and the abbreviation id
//!   was defined for the current block (locally or through `BLOCKINFO`).

/// Abbreviation ids every block has.
pub const END_BLOCK: u64 = 0;
pub const ENTER_SUBBLOCK: u64 = 1;
pub const DEFINE_ABBREV: u64 = 2;
pub const UNABBREV_RECORD: u64 = 3;
/// The first id an application abbreviation gets.
pub const FIRST_APPLICATION_ABBREV: u32 = 4;

/// The `BLOCKINFO` block's id and its `SETBID` record.
const BLOCKINFO_BLOCK_ID: u32 = 0;
const BLOCKINFO_CODE_SETBID: u64 = 1;

/// One operand of an abbreviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbbrevOp {
    /// A value that is not written: the record must hold exactly this value here.
    Literal(u64),
    Fixed(u32),
    Vbr(u32),
    /// A count (VBR6) followed by that many elements, each encoded as the next (last) operand.
    Array,
    /// A 6-bit character of `[a-zA-Z0-9._]`.
    Char6,
}

/// An abbreviation: the record code is its first operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abbrev(pub Vec<AbbrevOp>);

/// `true` if `c` can be written as a char6.
pub fn is_char6(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'.' || c == b'_'
}

fn char6(c: u8) -> u64 {
    u64::from(match c {
        b'a'..=b'z' => c - b'a',
        b'A'..=b'Z' => c - b'A' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'.' => 62,
        _ => 63,
    })
}

struct OpenBlock {
    /// Abbreviation width of the enclosing block.
    outer_width: u32,
    /// Index (in words) of the length placeholder.
    size_word: usize,
    outer_abbrevs: Vec<Abbrev>,
}

/// A bitstream being written.
pub struct BitWriter {
    out: Vec<u8>,
    cur: u64,
    cur_bits: u32,
    width: u32,
    /// Abbreviations of the current block: those `BLOCKINFO` gives its id, then local ones.
    abbrevs: Vec<Abbrev>,
    blocks: Vec<OpenBlock>,
    /// Abbreviations defined in `BLOCKINFO`, per block id.
    block_info: Vec<(u32, Vec<Abbrev>)>,
    /// The block id `BLOCKINFO` records currently apply to.
    info_target: Option<u32>,
}

impl Default for BitWriter {
    fn default() -> Self {
        BitWriter::new()
    }
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter { out: Vec::new(), cur: 0, cur_bits: 0, width: 2, abbrevs: Vec::new(), blocks: Vec::new(), block_info: Vec::new(), info_target: None }
    }

    /// Appends the low `bits` bits of `value`.
    pub fn emit(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 64);
        debug_assert!(bits == 64 || value >> bits == 0, "{value} does not fit in {bits} bits");
        if bits == 0 {
            return;
        }
        let mut value = value;
        let mut bits = bits;
        while bits > 0 {
            let take = bits.min(32 - self.cur_bits);
            let part = if take == 64 { value } else { value & ((1u64 << take) - 1) };
            self.cur |= part << self.cur_bits;
            self.cur_bits += take;
            bits -= take;
            value = if take >= 64 { 0 } else { value >> take };
            if self.cur_bits == 32 {
                self.out.extend_from_slice(&(self.cur as u32).to_le_bytes());
                self.cur = 0;
                self.cur_bits = 0;
            }
        }
    }

    /// Appends `value` as a variable-width integer in chunks of `bits` bits.
    pub fn emit_vbr(&mut self, mut value: u64, bits: u32) {
        let hi = 1u64 << (bits - 1);
        while value >= hi {
            self.emit((value & (hi - 1)) | hi, bits);
            value >>= bits - 1;
        }
        self.emit(value, bits);
    }

    /// Pads with zero bits to the next 32-bit boundary.
    pub fn align32(&mut self) {
        if self.cur_bits > 0 {
            let pad = 32 - self.cur_bits;
            self.emit(0, pad);
        }
    }

    fn word_count(&self) -> usize {
        self.out.len() / 4
    }

    /// Enters block `id`, whose abbreviation ids are `width` bits wide.
    pub fn enter_block(&mut self, id: u32, width: u32) {
        self.emit(ENTER_SUBBLOCK, self.width);
        self.emit_vbr(u64::from(id), 8);
        self.emit_vbr(u64::from(width), 4);
        self.align32();
        let size_word = self.word_count();
        self.emit(0, 32);
        let inherited = self.block_info.iter().find(|(b, _)| *b == id).map(|(_, a)| a.clone()).unwrap_or_default();
        let outer_abbrevs = std::mem::replace(&mut self.abbrevs, inherited);
        self.blocks.push(OpenBlock { outer_width: self.width, size_word, outer_abbrevs });
        self.width = width;
    }

    /// Closes the innermost block and writes its length.
    pub fn exit_block(&mut self) {
        self.emit(END_BLOCK, self.width);
        self.align32();
        let Some(b) = self.blocks.pop() else { return };
        let words = (self.word_count() - b.size_word - 1) as u32;
        let at = b.size_word * 4;
        self.out[at..at + 4].copy_from_slice(&words.to_le_bytes());
        self.width = b.outer_width;
        self.abbrevs = b.outer_abbrevs;
        self.info_target = None;
    }

    fn write_abbrev_definition(&mut self, abbrev: &Abbrev) {
        self.emit(DEFINE_ABBREV, self.width);
        self.emit_vbr(abbrev.0.len() as u64, 5);
        for op in &abbrev.0 {
            match *op {
                AbbrevOp::Literal(v) => {
                    self.emit(1, 1);
                    self.emit_vbr(v, 8);
                }
                AbbrevOp::Fixed(w) => {
                    self.emit(0, 1);
                    self.emit(1, 3);
                    self.emit_vbr(u64::from(w), 5);
                }
                AbbrevOp::Vbr(w) => {
                    self.emit(0, 1);
                    self.emit(2, 3);
                    self.emit_vbr(u64::from(w), 5);
                }
                AbbrevOp::Array => {
                    self.emit(0, 1);
                    self.emit(3, 3);
                }
                AbbrevOp::Char6 => {
                    self.emit(0, 1);
                    self.emit(4, 3);
                }
            }
        }
    }

    /// Defines an abbreviation in the current block and returns its id.
    pub fn define_abbrev(&mut self, abbrev: Abbrev) -> u32 {
        self.write_abbrev_definition(&abbrev);
        self.abbrevs.push(abbrev);
        FIRST_APPLICATION_ABBREV + self.abbrevs.len() as u32 - 1
    }

    /// Enters the `BLOCKINFO` block (abbreviation width 2).
    pub fn enter_block_info(&mut self) {
        self.enter_block(BLOCKINFO_BLOCK_ID, 2);
        self.info_target = None;
    }

    /// Inside `BLOCKINFO`: defines an abbreviation for every block of id `block`, returning the
    /// id it will have there.
    pub fn define_block_info_abbrev(&mut self, block: u32, abbrev: Abbrev) -> u32 {
        if self.info_target != Some(block) {
            self.emit(UNABBREV_RECORD, self.width);
            self.emit_vbr(BLOCKINFO_CODE_SETBID, 6);
            self.emit_vbr(1, 6);
            self.emit_vbr(u64::from(block), 6);
            self.info_target = Some(block);
        }
        self.write_abbrev_definition(&abbrev);
        let list = match self.block_info.iter().position(|(b, _)| *b == block) {
            Some(i) => &mut self.block_info[i].1,
            None => {
                self.block_info.push((block, Vec::new()));
                &mut self.block_info.last_mut().expect("just pushed").1
            }
        };
        list.push(abbrev);
        FIRST_APPLICATION_ABBREV + list.len() as u32 - 1
    }

    /// Writes record `code` with operands `ops`, unabbreviated when `abbrev` is 0.
    pub fn record(&mut self, code: u32, ops: &[u64], abbrev: u32) {
        if abbrev == 0 {
            self.emit(UNABBREV_RECORD, self.width);
            self.emit_vbr(u64::from(code), 6);
            self.emit_vbr(ops.len() as u64, 6);
            for &v in ops {
                self.emit_vbr(v, 6);
            }
            return;
        }
        let index = (abbrev - FIRST_APPLICATION_ABBREV) as usize;
        let Some(def) = self.abbrevs.get(index).cloned() else {
            debug_assert!(false, "abbreviation {abbrev} is not defined in this block");
            return self.record(code, ops, 0);
        };
        self.emit(u64::from(abbrev), self.width);
        // The record's code is the abbreviation's first operand.
        let mut values = std::iter::once(u64::from(code)).chain(ops.iter().copied());
        let mut i = 0;
        while i < def.0.len() {
            match def.0[i] {
                AbbrevOp::Array => {
                    let elem = def.0.get(i + 1).copied().unwrap_or(AbbrevOp::Vbr(6));
                    let rest: Vec<u64> = values.by_ref().collect();
                    self.emit_vbr(rest.len() as u64, 6);
                    for v in rest {
                        self.scalar(elem, v);
                    }
                    i += 2;
                }
                op => {
                    let v = values.next().unwrap_or(0);
                    self.scalar(op, v);
                    i += 1;
                }
            }
        }
    }

    fn scalar(&mut self, op: AbbrevOp, v: u64) {
        match op {
            AbbrevOp::Literal(l) => debug_assert_eq!(l, v, "literal operand mismatch"),
            AbbrevOp::Fixed(w) => self.emit(v, w),
            AbbrevOp::Vbr(w) => self.emit_vbr(v, w),
            AbbrevOp::Char6 => self.emit(char6(v as u8), 6),
            AbbrevOp::Array => debug_assert!(false, "nested array"),
        }
    }

    /// The finished stream (every block must be closed).
    pub fn finish(mut self) -> Vec<u8> {
        debug_assert!(self.blocks.is_empty(), "unclosed block");
        self.align32();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fields_pack_from_the_low_bit() {
        let mut w = BitWriter::new();
        for (v, n) in [(b'B' as u64, 8), (b'C' as u64, 8), (0x0, 4), (0xC, 4), (0xE, 4), (0xD, 4)] {
            w.emit(v, n);
        }
        assert_eq!(w.finish(), vec![0x42, 0x43, 0xC0, 0xDE]);
    }

    #[test]
    fn vbr_chunks_carry_a_continuation_bit() {
        // 27 in VBR4 is 011 (continue) then 011: chunks 0b1011, 0b0011.
        let mut w = BitWriter::new();
        w.emit_vbr(27, 4);
        w.align32();
        assert_eq!(w.finish(), vec![0b0011_1011, 0, 0, 0]);
        let mut w = BitWriter::new();
        w.emit_vbr(u64::MAX, 6);
        let bytes = w.finish();
        // 64 bits in 5-bit chunks: 13 chunks of 6 bits = 78 bits.
        assert_eq!(bytes.len(), 12);
    }

    #[test]
    fn blocks_backpatch_their_length_in_words() {
        let mut w = BitWriter::new();
        w.enter_block(8, 3);
        w.record(1, &[1], 0);
        w.exit_block();
        let bytes = w.finish();
        // header word, length word, body (record + END_BLOCK, padded) = 1 word.
        assert_eq!(bytes.len(), 12);
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 1);
    }

    #[test]
    fn abbreviated_records_use_their_encoding() {
        let mut w = BitWriter::new();
        w.enter_block(17, 4);
        let id = w.define_abbrev(Abbrev(vec![AbbrevOp::Literal(19), AbbrevOp::Array, AbbrevOp::Char6]));
        assert_eq!(id, 4);
        w.record(19, &[u64::from(b'a'), u64::from(b'Z'), u64::from(b'_')], id);
        w.exit_block();
        let bytes = w.finish();
        assert_eq!(bytes.len() % 4, 0);
        assert!(is_char6(b'_') && !is_char6(b'$'));
        assert_eq!((char6(b'a'), char6(b'Z'), char6(b'9'), char6(b'.'), char6(b'_')), (0, 51, 61, 62, 63));
    }
}
