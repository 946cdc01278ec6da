//! Module-level constants, uniqued.
//!
//! Invariants:
//! - Every [`ConstId`] indexes its module's [`ConstTable`]; ids are dense, in creation order, and
//!   every operand of an aggregate was created before the aggregate (so a writer can emit them in
//!   id order).
//! - `Int.bits` holds the value truncated to the type's width (zero-extended into the `u64`);
//!   printing sign-extends it, as LLVM does.
//! - `Float.bits` is the IEEE bit pattern of the value in the constant's own type (16, 32 or
//!   64 bits), so NaN payloads survive.
//! - Aggregates list exactly as many elements as their struct/array/vector type has members.

use super::types::TypeId;
use indexmap::IndexMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    Int { ty: TypeId, bits: u64 },
    Float { ty: TypeId, bits: u64 },
    Undef(TypeId),
    /// `null` for pointers, `zeroinitializer` for aggregates.
    Null(TypeId),
    Aggregate { ty: TypeId, elems: Vec<ConstId> },
}

impl Const {
    pub fn ty(&self) -> TypeId {
        match self {
            Const::Int { ty, .. } | Const::Float { ty, .. } | Const::Aggregate { ty, .. } => *ty,
            Const::Undef(ty) | Const::Null(ty) => *ty,
        }
    }
}

/// The module's constants. See the module documentation for the invariants.
#[derive(Clone, Debug, Default)]
pub struct ConstTable {
    consts: IndexMap<Const, ()>,
}

impl ConstTable {
    pub fn intern(&mut self, c: Const) -> ConstId {
        let (i, _) = self.consts.insert_full(c, ());
        ConstId(i as u32)
    }

    pub fn get(&self, id: ConstId) -> &Const {
        self.consts.get_index(id.0 as usize).map(|(c, _)| c).expect("ConstId from another module")
    }

    pub fn len(&self) -> usize {
        self.consts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.consts.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (ConstId, &Const)> {
        self.consts.keys().enumerate().map(|(i, c)| (ConstId(i as u32), c))
    }
}

/// Truncates `value` to `width` bits.
pub fn truncate(value: u64, width: u32) -> u64 {
    if width >= 64 {
        value
    } else {
        value & ((1u64 << width) - 1)
    }
}

/// Sign-extends the low `width` bits of `bits`.
pub fn sign_extend(bits: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        bits as i64
    } else {
        let shift = 64 - width;
        ((bits << shift) as i64) >> shift
    }
}

/// IEEE half bits of an `f32`, rounding to nearest even (used for `half` constants).
pub fn f32_to_f16_bits(v: f32) -> u16 {
    let x = v.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        // Inf or NaN; keep NaN quiet and non-zero.
        let m = if mant != 0 { 0x200 | ((mant >> 13) as u16) } else { 0 };
        return sign | 0x7c00 | m;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 == 1);
        return sign | (half as u16 + round as u16);
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    sign | (half + round as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion_rounds_and_saturates() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(1.0e6), 0x7c00);
        assert_eq!(f32_to_f16_bits(5.960_464_5e-8), 0x0001);
        assert_eq!(f32_to_f16_bits(f32::NAN) & 0x7c00, 0x7c00);
        assert_ne!(f32_to_f16_bits(f32::NAN) & 0x3ff, 0);
    }

    #[test]
    fn sign_extension() {
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(1, 1), -1);
        assert_eq!(truncate(u64::MAX, 32), 0xffff_ffff);
    }
}
