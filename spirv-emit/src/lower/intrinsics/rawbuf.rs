//! Templated loads and stores of byte-address buffers (`Load<T>`, `Store<T>`) for any `T`.
//!
//! A byte-address buffer is a runtime array of `uint` words. As DXC maps it (SPIR-V.rst,
//! "ByteAddressBuffer"; CodeGenSPIRV `method.byte-address-buffer.templated-*`), a value is moved
//! scalar by scalar, each at a byte offset from the address the shader gives:
//!
//! - vectors and arrays: their elements one after the other, without padding;
//! - matrices: their elements in column-major order (DX's default for raw buffers), packed;
//! - structs: each member at its offset under the structured-buffer layout rule (std430 relaxed
//!   by default, `-fvk-use-dx-layout`/`-fvk-use-scalar-layout` otherwise); an array element of
//!   struct type takes its size rounded up to its alignment;
//! - a 32-bit scalar is one word (bitcast; `bool` is the word `!= 0`), a 64-bit scalar two words
//!   (low word first, bitcast from a `uint2`), a 16-bit scalar the half of a word selected by
//!   `address % 4` (shifted and `OpUConvert`ed).
//!
//! A 16-bit store rewrites only its own half of the word (read, mask, or, write back), so that
//! two neighbouring 16-bit values both survive.

use super::super::layout::Layout;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use crate::layout::round_up;
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use spirv::{Op, StorageClass};

/// A byte-address buffer being read or written: the buffer's variable (a struct of one runtime
/// array of uints) and the byte address of the value.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RawBuf {
    pub var: SpvId,
    pub sc: StorageClass,
    pub addr: SpvId,
}

/// Width in bits of a scalar kind in SPIR-V (min-precision kinds are 32-bit there).
fn width(k: ScalarKind) -> u32 {
    match k {
        ScalarKind::Half | ScalarKind::Int16 | ScalarKind::UInt16 => 16,
        ScalarKind::Int64 | ScalarKind::UInt64 | ScalarKind::Double => 64,
        _ => 32,
    }
}

impl<'m> Lowerer<'m> {
    /// Bytes that a value of `ty` occupies in a raw buffer, as the next element of an array.
    fn raw_extent(&self, ty: TypeId) -> R<u32> {
        let types = &self.m.types;
        Ok(match types.get(ty).clone() {
            Type::Scalar(k) => width(k) / 8,
            Type::Enum(_) => 4,
            Type::Vector(k, n) => width(k) / 8 * n as u32,
            Type::Matrix { elem, rows, cols, .. } => width(elem) / 8 * rows as u32 * cols as u32,
            Type::Array { elem, len: Some(n) } => self.raw_extent(elem)? * n,
            Type::Struct(_) => {
                let (align, size) = self.opts.layout.align_size(types, ty, Layout::Std430);
                round_up(size, align.max(1))
            }
            _ => return unsupported(format!("a byte-address buffer access of '{}'", self.type_name(ty)), None),
        })
    }

    /// The scalar (component) kind of a scalar or enum type.
    fn raw_scalar_kind(&self, ty: TypeId) -> Option<ScalarKind> {
        match self.m.types.get(ty) {
            Type::Scalar(k) => Some(*k),
            Type::Enum(_) => self.m.types.component(ty),
            _ => None,
        }
    }

    /// Loads a value of `ty` from byte `addr + off`.
    pub(crate) fn raw_load(&mut self, buf: RawBuf, off: u32, ty: TypeId) -> R<SpvId> {
        if let Some(k) = self.raw_scalar_kind(ty) {
            return self.raw_load_scalar(buf, off, k);
        }
        let types = &self.m.types;
        let rty = self.ty(ty, Layout::Logical)?;
        let parts = match types.get(ty).clone() {
            Type::Vector(k, n) => {
                let sz = width(k) / 8;
                let mut parts = Vec::new();
                for i in 0..n as u32 {
                    parts.push(self.raw_load_scalar(buf, off + i * sz, k)?);
                }
                parts
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let (rows, cols, sz) = (rows as u32, cols as u32, width(elem) / 8);
                // Element (r, c) is number c * rows + r in column-major order.
                let mut elems = Vec::new();
                for r in 0..rows {
                    for c in 0..cols {
                        elems.push(self.raw_load_scalar(buf, off + (c * rows + r) * sz, elem)?);
                    }
                }
                if rows == 1 || cols == 1 {
                    elems
                } else {
                    let row = self.vector_ty(elem, cols, Layout::Logical);
                    let mut out = Vec::new();
                    for r in 0..rows as usize {
                        let c = cols as usize;
                        out.push(self.b.composite_construct(row, &elems[r * c..(r + 1) * c])?);
                    }
                    out
                }
            }
            Type::Array { elem, len: Some(n) } => {
                let step = self.raw_extent(elem)?;
                let mut parts = Vec::new();
                for i in 0..n {
                    parts.push(self.raw_load(buf, off + i * step, elem)?);
                }
                parts
            }
            Type::Struct(_) => {
                let mut parts = Vec::new();
                for (mty, moff) in self.raw_members(ty) {
                    parts.push(self.raw_load(buf, off + moff, mty)?);
                }
                parts
            }
            _ => return unsupported(format!("a byte-address buffer load of '{}'", self.type_name(ty)), None),
        };
        if parts.len() == 1 && !matches!(self.m.types.get(ty), Type::Array { .. } | Type::Struct(_)) {
            return Ok(parts[0]);
        }
        Ok(self.b.composite_construct(rty, &parts)?)
    }

    /// Stores `v`, a value of `ty`, at byte `addr + off`.
    pub(crate) fn raw_store(&mut self, buf: RawBuf, off: u32, ty: TypeId, v: SpvId) -> R<()> {
        if let Some(k) = self.raw_scalar_kind(ty) {
            return self.raw_store_scalar(buf, off, k, v);
        }
        match self.m.types.get(ty).clone() {
            Type::Vector(k, n) => {
                let (sz, comp) = (width(k) / 8, self.scalar_ty(k, Layout::Logical));
                for i in 0..n as u32 {
                    let c = if n == 1 { v } else { self.b.composite_extract(comp, v, &[i])? };
                    self.raw_store_scalar(buf, off + i * sz, k, c)?;
                }
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let (rows, cols, sz) = (rows as u32, cols as u32, width(elem) / 8);
                let comp = self.scalar_ty(elem, Layout::Logical);
                for c in 0..cols {
                    for r in 0..rows {
                        let path: Vec<u32> = match (rows, cols) {
                            (1, 1) => vec![],
                            (1, _) => vec![c],
                            (_, 1) => vec![r],
                            _ => vec![r, c],
                        };
                        let x = if path.is_empty() { v } else { self.b.composite_extract(comp, v, &path)? };
                        self.raw_store_scalar(buf, off + (c * rows + r) * sz, elem, x)?;
                    }
                }
            }
            Type::Array { elem, len: Some(n) } => {
                let step = self.raw_extent(elem)?;
                let ety = self.ty(elem, Layout::Logical)?;
                for i in 0..n {
                    let x = self.b.composite_extract(ety, v, &[i])?;
                    self.raw_store(buf, off + i * step, elem, x)?;
                }
            }
            Type::Struct(_) => {
                for (i, (mty, moff)) in self.raw_members(ty).into_iter().enumerate() {
                    let mt = self.ty(mty, Layout::Logical)?;
                    let x = self.b.composite_extract(mt, v, &[i as u32])?;
                    self.raw_store(buf, off + moff, mty, x)?;
                }
            }
            _ => return unsupported(format!("a byte-address buffer store of '{}'", self.type_name(ty)), None),
        }
        Ok(())
    }

    /// Members (bases first, then fields) of struct `ty` with their byte offsets in a raw buffer.
    fn raw_members(&self, ty: TypeId) -> Vec<(TypeId, u32)> {
        let types = &self.m.types;
        let Type::Struct(sid) = types.get(ty) else { return Vec::new() };
        let def = &types.structs[sid.0 as usize];
        let mut out = Vec::new();
        let mut cursor = 0;
        for mty in def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)) {
            let (align, size) = self.opts.layout.align_size(types, mty, Layout::Std430);
            let at = round_up(cursor, align.max(1));
            out.push((mty, at));
            cursor = at + size;
        }
        out
    }

    /// The byte address `addr + off`, and a pointer to the word holding it.
    fn raw_word(&mut self, buf: RawBuf, off: u32) -> R<(SpvId, SpvId, SpvId)> {
        let u = self.b.ctx.type_u32();
        let a = if off == 0 {
            buf.addr
        } else {
            let c = self.b.ctx.const_u32(off);
            self.b.binary(Op::IAdd, u, buf.addr, c)?
        };
        let two = self.b.ctx.const_u32(2);
        let idx = self.b.binary(Op::ShiftRightLogical, u, a, two)?;
        let ptr = self.raw_word_ptr(buf, idx)?;
        Ok((a, idx, ptr))
    }

    fn raw_word_ptr(&mut self, buf: RawBuf, idx: SpvId) -> R<SpvId> {
        let u = self.b.ctx.type_u32();
        let pty = self.b.ctx.type_pointer(buf.sc, u);
        let zero = self.b.ctx.const_u32(0);
        Ok(self.b.access_chain(pty, buf.var, &[zero, idx])?)
    }

    /// The bit position of a 16-bit value at byte address `a` in its word: `(a % 4) * 8`.
    fn raw_half_shift(&mut self, a: SpvId) -> R<SpvId> {
        let u = self.b.ctx.type_u32();
        let four = self.b.ctx.const_u32(4);
        let three = self.b.ctx.const_u32(3);
        let byte = self.b.binary(Op::UMod, u, a, four)?;
        Ok(self.b.binary(Op::ShiftLeftLogical, u, byte, three)?)
    }

    fn raw_load_scalar(&mut self, buf: RawBuf, off: u32, k: ScalarKind) -> R<SpvId> {
        let u = self.b.ctx.type_u32();
        let (a, idx, ptr) = self.raw_word(buf, off)?;
        let w = self.b.load(u, ptr, None)?;
        let target = self.scalar_ty(k, Layout::Logical);
        match width(k) {
            _ if k.is_bool() => {
                let zero = self.b.ctx.const_u32(0);
                Ok(self.b.binary(Op::INotEqual, target, w, zero)?)
            }
            16 => {
                let bits = self.raw_half_shift(a)?;
                let shifted = self.b.binary(Op::ShiftRightLogical, u, w, bits)?;
                let ushort = self.b.ctx.type_int(16, false);
                let h = self.b.unary(Op::UConvert, ushort, shifted)?;
                Ok(if target == ushort { h } else { self.b.unary(Op::Bitcast, target, h)? })
            }
            64 => {
                let one = self.b.ctx.const_u32(1);
                let idx1 = self.b.binary(Op::IAdd, u, idx, one)?;
                let ptr1 = self.raw_word_ptr(buf, idx1)?;
                let w1 = self.b.load(u, ptr1, None)?;
                let v2 = self.b.ctx.type_vector(u, 2);
                let pair = self.b.composite_construct(v2, &[w, w1])?;
                Ok(self.b.unary(Op::Bitcast, target, pair)?)
            }
            _ => Ok(if target == u { w } else { self.b.unary(Op::Bitcast, target, w)? }),
        }
    }

    fn raw_store_scalar(&mut self, buf: RawBuf, off: u32, k: ScalarKind, v: SpvId) -> R<()> {
        let u = self.b.ctx.type_u32();
        let (a, idx, ptr) = self.raw_word(buf, off)?;
        let source = self.scalar_ty(k, Layout::Logical);
        match width(k) {
            _ if k.is_bool() => {
                let one = self.b.ctx.const_u32(1);
                let zero = self.b.ctx.const_u32(0);
                let w = self.b.select(u, v, one, zero)?;
                self.b.store(ptr, w, None)?;
            }
            16 => {
                let ushort = self.b.ctx.type_int(16, false);
                let h = if source == ushort { v } else { self.b.unary(Op::Bitcast, ushort, v)? };
                let wide = self.b.unary(Op::UConvert, u, h)?;
                let bits = self.raw_half_shift(a)?;
                let part = self.b.binary(Op::ShiftLeftLogical, u, wide, bits)?;
                let ffff = self.b.ctx.const_u32(0xFFFF);
                let hole = self.b.binary(Op::ShiftLeftLogical, u, ffff, bits)?;
                let keep = self.b.unary(Op::Not, u, hole)?;
                let old = self.b.load(u, ptr, None)?;
                let kept = self.b.binary(Op::BitwiseAnd, u, old, keep)?;
                let new = self.b.binary(Op::BitwiseOr, u, kept, part)?;
                self.b.store(ptr, new, None)?;
            }
            64 => {
                let v2 = self.b.ctx.type_vector(u, 2);
                let pair = self.b.unary(Op::Bitcast, v2, v)?;
                let lo = self.b.composite_extract(u, pair, &[0])?;
                let hi = self.b.composite_extract(u, pair, &[1])?;
                self.b.store(ptr, lo, None)?;
                let one = self.b.ctx.const_u32(1);
                let idx1 = self.b.binary(Op::IAdd, u, idx, one)?;
                let ptr1 = self.raw_word_ptr(buf, idx1)?;
                self.b.store(ptr1, hi, None)?;
            }
            _ => {
                let w = if source == u { v } else { self.b.unary(Op::Bitcast, u, v)? };
                self.b.store(ptr, w, None)?;
            }
        }
        Ok(())
    }
}
