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

    /// `true` if `c` is LLVM's null value of its type (`isNullValue`): integer 0, +0.0, null,
    /// `zeroinitializer`, or an aggregate of those.
    pub fn is_null(&self, c: ConstId) -> bool {
        match self.get(c) {
            Const::Int { bits, .. } | Const::Float { bits, .. } => *bits == 0,
            Const::Null(_) => true,
            Const::Undef(_) => false,
            Const::Aggregate { elems, .. } => elems.iter().all(|e| self.is_null(*e)),
        }
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

/// Shared with the SPIR-V emitter; lives with sema's constant values.
pub use hlslc_sema::numeric::f32_to_f16_bits;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension() {
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(1, 1), -1);
        assert_eq!(truncate(u64::MAX, 32), 0xffff_ffff);
    }
}
