//! Methods of buffer objects: structured and byte-address buffers.

use super::super::layout::Layout;
use super::super::place::Place;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use spirv::Op;

impl<'m> Lowerer<'m> {
    /// Components of a scalar (1) or vector type: the words a templated byte-address access moves.
    fn component_count(&self, t: TypeId) -> u32 {
        match self.m.types.get(t) {
            Type::Vector(_, n) => *n as u32,
            _ => 1,
        }
    }

    /// A uint or uintN: moved word by word without conversions.
    fn is_uint_words(&self, t: TypeId) -> bool {
        matches!(self.m.types.get(t), Type::Scalar(ScalarKind::UInt) | Type::Vector(ScalarKind::UInt, _))
    }

    /// The byte-address buffer `obj` and the byte address `addr` for a templated access.
    fn raw_buf(&mut self, obj: ExprId, addr: ExprId) -> R<super::rawbuf::RawBuf> {
        let place = self.lvalue(obj)?;
        let Some((var, sc, _)) = Self::place_ptr(&place) else {
            return unsupported("a templated access to this byte-address buffer", self.expr_span(obj));
        };
        let addr = self.rvalue(addr)?;
        Ok(super::rawbuf::RawBuf { var, sc, addr })
    }

    /// A method of a buffer object, or `None` when this object has no such method here.
    pub(super) fn buffer_method(
        &mut self,
        op: I,
        obj: ExprId,
        args: &[ExprId],
        ty: TypeId,
        e: ExprId,
    ) -> R<Option<SpvId>> {
        let span = self.expr_span(e);
        let oty = self.m.expr(obj).ty;
        let Type::Object { kind, elem, .. } = self.m.types.get(oty).clone() else {
            return Ok(None);
        };
        use ObjectKind::*;
        let rty = self.ty(ty, Layout::Logical)?;
        let v = match (kind, op) {
            (StructuredBuffer | RWStructuredBuffer | RasterizerOrderedStructuredBuffer, I::MethodLoad) => {
                let place = self.lvalue(obj)?;
                let idx = self.rvalue(args[0])?;
                let zero = self.b.ctx.const_i32(0);
                let p = self.chain(&place, &[zero, idx], ty)?;
                self.load(&p)
            }
            (
                ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer,
                I::MethodLoad | I::MethodLoad2 | I::MethodLoad3 | I::MethodLoad4,
            ) => {
                let n = match op {
                    I::MethodLoad2 => 2,
                    I::MethodLoad3 => 3,
                    I::MethodLoad4 => 4,
                    // Templated `Load<uint2>`: as many words as the type has components.
                    _ => self.component_count(ty),
                };
                if !self.is_uint_words(ty) {
                    let buf = self.raw_buf(obj, args[0])?;
                    return self.raw_load(buf, 0, ty).map(Some);
                }
                let words = self.byte_address_words(obj, args[0], n)?;
                let mut vals = Vec::new();
                for p in words {
                    vals.push(self.load(&p)?);
                }
                if n == 1 {
                    return Ok(Some(vals[0]));
                }
                Ok(self.b.composite_construct(rty, &vals)?)
            }
            (
                RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer,
                I::MethodStore | I::MethodStore2 | I::MethodStore3 | I::MethodStore4,
            ) => {
                let n = match op {
                    I::MethodStore2 => 2,
                    I::MethodStore3 => 3,
                    I::MethodStore4 => 4,
                    _ => self.component_count(self.m.expr(args[1]).ty),
                };
                let vt = self.m.expr(args[1]).ty;
                if !self.is_uint_words(vt) {
                    let buf = self.raw_buf(obj, args[0])?;
                    let v = self.rvalue(args[1])?;
                    self.raw_store(buf, 0, vt, v)?;
                    return Ok(Some(self.no_value(rty)));
                }
                let words = self.byte_address_words(obj, args[0], n)?;
                let v = self.rvalue(args[1])?;
                let u = self.b.ctx.type_u32();
                for (i, p) in words.iter().enumerate() {
                    let c = if n == 1 {
                        v
                    } else {
                        self.b.composite_extract(u, v, &[i as u32])?
                    };
                    self.store(p, c)?;
                }
                Ok(self.no_value(rty))
            }
            (
                RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer,
                I::MethodInterlockedAdd
                | I::MethodInterlockedAnd
                | I::MethodInterlockedOr
                | I::MethodInterlockedXor
                | I::MethodInterlockedMin
                | I::MethodInterlockedMax
                | I::MethodInterlockedUMin
                | I::MethodInterlockedUMax
                | I::MethodInterlockedExchange
                | I::MethodInterlockedCompareExchange
                | I::MethodInterlockedCompareStore,
            ) => {
                let free = match op {
                    I::MethodInterlockedAdd => I::InterlockedAdd,
                    I::MethodInterlockedAnd => I::InterlockedAnd,
                    I::MethodInterlockedOr => I::InterlockedOr,
                    I::MethodInterlockedXor => I::InterlockedXor,
                    I::MethodInterlockedMin => I::InterlockedMin,
                    I::MethodInterlockedMax => I::InterlockedMax,
                    I::MethodInterlockedUMin => I::InterlockedUMin,
                    I::MethodInterlockedUMax => I::InterlockedUMax,
                    I::MethodInterlockedExchange => I::InterlockedExchange,
                    I::MethodInterlockedCompareExchange => I::InterlockedCompareExchange,
                    _ => I::InterlockedCompareStore,
                };
                let mut words = self.byte_address_words(obj, args[0], 1)?;
                let place = words.remove(0);
                self.atomic(free, place, &args[1..], e)?;
                Ok(self.no_value(rty))
            }
            (
                RWStructuredBuffer | RasterizerOrderedStructuredBuffer | AppendStructuredBuffer | ConsumeStructuredBuffer,
                I::MethodIncrementCounter | I::MethodDecrementCounter | I::MethodAppend | I::MethodConsume,
            ) => {
                let inc = matches!(op, I::MethodIncrementCounter | I::MethodAppend);
                let index = self.counter_step(obj, inc, e)?;
                match op {
                    I::MethodIncrementCounter | I::MethodDecrementCounter => {
                        let u = self.b.ctx.type_u32();
                        Ok(self.b.unary(Op::Bitcast, u, index)?)
                    }
                    _ => {
                        let place = self.lvalue(obj)?;
                        let zero = self.b.ctx.const_u32(0);
                        let ety = elem.unwrap_or(ty);
                        let p = self.chain(&place, &[zero, index], ety)?;
                        if op == I::MethodAppend {
                            let v = self.rvalue(args[0])?;
                            self.store(&p, v)?;
                            Ok(self.no_value(rty))
                        } else {
                            self.load(&p)
                        }
                    }
                }
            }
            (
                StructuredBuffer | RWStructuredBuffer | RasterizerOrderedStructuredBuffer | AppendStructuredBuffer
                | ConsumeStructuredBuffer | ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer,
                I::MethodGetDimensions,
            ) => {
                let place = self.lvalue(obj)?;
                let Some((ptr, _, _)) = Self::place_ptr(&place) else {
                    return unsupported("GetDimensions of this buffer", span);
                };
                let u = self.b.ctx.type_u32();
                let len = self.b.value(Op::ArrayLength, u, vec![rspirv::dr::Operand::IdRef(ptr.0), rspirv::dr::Operand::LiteralBit32(0)])?;
                let Some(uint) = self.m.types.lookup(&Type::Scalar(ScalarKind::UInt)) else {
                    return unsupported("GetDimensions in a module without a uint type", span);
                };
                let byte_address = matches!(kind, ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer);
                if byte_address {
                    let four = self.b.ctx.const_u32(4);
                    let bytes = self.b.binary(Op::IMul, u, len, four)?;
                    self.store_out(args[0], bytes, uint)?;
                } else {
                    self.store_out(args[0], len, uint)?;
                    if let Some(&s) = args.get(1) {
                        let e = elem.unwrap_or(ty);
                        let stride = self.opts.layout.array_stride(&self.m.types, e, Layout::Std430);
                        let c = self.b.ctx.const_u32(stride);
                        self.store_out(s, c, uint)?;
                    }
                }
                Ok(self.no_value(rty))
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// Adds one to (or takes one from) the counter of the buffer `obj`; the index the operation
    /// designates: the old value for an increment, the new one for a decrement.
    fn counter_step(&mut self, obj: ExprId, inc: bool, e: ExprId) -> R<SpvId> {
        // `bufs[i][j]`: the counter is the same element of the array of counters.
        let counter = self.counter_of_expr(obj)?;
        let int = self.b.ctx.type_i32();
        let ptr = match (counter, self.heap_index_of(obj)?) {
            (Some(counter), _) => {
                let sc = self.storage_block().0;
                let ptr_ty = self.b.ctx.type_pointer(sc, int);
                let zero = self.b.ctx.const_u32(0);
                self.b.access_chain(ptr_ty, counter, &[zero])?
            }
            (None, Some(index)) => self.heap_counter_ptr(index)?,
            (None, None) => return unsupported("the counter of this buffer expression", self.expr_span(e)),
        };
        let scope = self.b.ctx.const_u32(1);
        let sem = self.b.ctx.const_u32(0);
        let one = self.b.ctx.const_i32(1);
        let ids = |v: &[SpvId]| v.iter().map(|i| rspirv::dr::Operand::IdRef(i.0)).collect::<Vec<_>>();
        if inc {
            Ok(self.b.value(Op::AtomicIAdd, int, ids(&[ptr, scope, sem, one]))?)
        } else {
            let old = self.b.value(Op::AtomicISub, int, ids(&[ptr, scope, sem, one]))?;
            Ok(self.b.binary(Op::ISub, int, old, one)?)
        }
    }

    /// A pointer to the counter of the buffer-array element `elem` (`bufs[i][j]`) in the
    /// array of counters `counters`.
    pub(crate) fn counter_element(&mut self, counters: SpvId, elem: ExprId) -> R<SpvId> {
        let mut indices = Vec::new();
        let mut e = elem;
        while let hlslc_sema::tast::ExprKind::Index { base, index } = self.m.expr(e).kind {
            indices.push(index);
            e = base;
        }
        indices.reverse();
        let mut chain = Vec::new();
        for i in indices {
            chain.push(self.rvalue(i)?);
        }
        let st = self.counter_struct();
        let pty = self.b.ctx.type_pointer(self.storage_block().0, st);
        Ok(self.b.access_chain(pty, counters, &chain)?)
    }

    /// Places of `n` consecutive words of a byte-address buffer starting at byte `addr`.
    fn byte_address_words(&mut self, obj: ExprId, addr: ExprId, n: u32) -> R<Vec<Place>> {
        let place = self.lvalue(obj)?;
        let a = self.rvalue(addr)?;
        let u = self.b.ctx.type_u32();
        let two = self.b.ctx.const_u32(2);
        let base = self.b.binary(Op::ShiftRightLogical, u, a, two)?;
        let zero = self.b.ctx.const_i32(0);
        let Some(uint_ty) = self.m.types.lookup(&Type::Scalar(ScalarKind::UInt)) else {
            return unsupported("byte-address access in a module without a uint type", None);
        };
        let mut out = Vec::new();
        for i in 0..n {
            let idx = if i == 0 {
                base
            } else {
                let c = self.b.ctx.const_u32(i);
                self.b.binary(Op::IAdd, u, base, c)?
            };
            out.push(self.chain(&place, &[zero, idx], uint_ty)?);
        }
        Ok(out)
    }
}
