//! Barriers and atomics (`Interlocked*` on any place in memory).

use super::super::layout::Layout;
use super::super::place::Place;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{ScalarKind, TypeId};
use rspirv::dr::Operand;
use spirv::Op;

impl<'m> Lowerer<'m> {
    /// A barrier or free-function atomic, or `None` when `op` is not one.
    pub(super) fn sync_intrinsic(
        &mut self,
        op: I,
        args: &[ExprId],
        ty: TypeId,
        e: ExprId,
    ) -> R<Option<SpvId>> {
        let rty = self.ty(ty, Layout::Logical)?;
        let v = match op {
            I::GroupMemoryBarrierWithGroupSync => self.barrier(true, 2, 0x8 | 0x100),
            I::GroupMemoryBarrier => self.barrier(false, 2, 0x8 | 0x100),
            I::DeviceMemoryBarrierWithGroupSync => self.barrier(true, 1, 0x8 | 0x40 | 0x800),
            I::DeviceMemoryBarrier => self.barrier(false, 1, 0x8 | 0x40 | 0x800),
            I::AllMemoryBarrierWithGroupSync => self.barrier(true, 1, 0x8 | 0x40 | 0x100 | 0x800),
            I::AllMemoryBarrier => self.barrier(false, 1, 0x8 | 0x40 | 0x100 | 0x800),
            I::InterlockedAdd
            | I::InterlockedAnd
            | I::InterlockedOr
            | I::InterlockedXor
            | I::InterlockedMin
            | I::InterlockedMax
            | I::InterlockedUMin
            | I::InterlockedUMax
            | I::InterlockedExchange
            | I::InterlockedCompareExchange
            | I::InterlockedCompareStore => {
                let place = self.lvalue(args[0])?;
                self.atomic(op, place, &args[1..], e)?;
                Ok(self.no_value(rty))
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    fn barrier(&mut self, control: bool, mem_scope: u32, semantics: u32) -> R<SpvId> {
        let wg = self.b.ctx.const_u32(2);
        let scope = self.b.ctx.const_u32(mem_scope);
        let sem = self.b.ctx.const_u32(semantics);
        if control {
            self.b.void(
                Op::ControlBarrier,
                vec![
                    Operand::IdRef(wg.0),
                    Operand::IdRef(scope.0),
                    Operand::IdRef(sem.0),
                ],
            )?;
        } else {
            self.b.void(
                Op::MemoryBarrier,
                vec![Operand::IdRef(scope.0), Operand::IdRef(sem.0)],
            )?;
        }
        Ok(SpvId(0))
    }

    /// `Interlocked*(dest, value[, original])` on a place in memory.
    pub(super) fn atomic(&mut self, op: I, place: Place, args: &[ExprId], e: ExprId) -> R<()> {
        let ty = place.ty();
        let tyid = self.ty(ty, Layout::Logical)?;
        let (ptr, sc) = match &place {
            Place::Ptr { ptr, sc, .. } => (*ptr, *sc),
            // An element of a storage image or texel buffer: a pointer into the image, as
            // SPIR-V.rst maps `Interlocked*` on `RWTexture*`/`RWBuffer` elements.
            Place::Texel { image_ptr, coord, .. } => {
                let pty = self.b.ctx.type_pointer(spirv::StorageClass::Image, tyid);
                let sample = self.b.ctx.const_u32(0);
                let p = self.b.value(
                    Op::ImageTexelPointer,
                    pty,
                    vec![Operand::IdRef(image_ptr.0), Operand::IdRef(coord.0), Operand::IdRef(sample.0)],
                )?;
                (p, spirv::StorageClass::Image)
            }
            _ => return unsupported("atomics on a swizzle", self.expr_span(e)),
        };
        let signed = self
            .m
            .types
            .component(ty)
            .is_some_and(|k| k.is_signed_int());
        let scope = self
            .b
            .ctx
            .const_u32(if sc == spirv::StorageClass::Workgroup {
                2
            } else {
                1
            });
        let none = self.b.ctx.const_u32(0);
        let vals: Vec<ExprId> = args.to_vec();
        let (result, original) = match op {
            I::InterlockedCompareExchange | I::InterlockedCompareStore => {
                let cmp = self.atomic_operand(vals[0], ty)?;
                let val = self.atomic_operand(vals[1], ty)?;
                let r = self.b.value(
                    Op::AtomicCompareExchange,
                    tyid,
                    vec![
                        Operand::IdRef(ptr.0),
                        Operand::IdRef(scope.0),
                        Operand::IdRef(none.0),
                        Operand::IdRef(none.0),
                        Operand::IdRef(val.0),
                        Operand::IdRef(cmp.0),
                    ],
                )?;
                (
                    r,
                    if op == I::InterlockedCompareExchange {
                        vals.get(2).copied()
                    } else {
                        None
                    },
                )
            }
            _ => {
                let val = self.atomic_operand(vals[0], ty)?;
                let o = match op {
                    I::InterlockedAdd => Op::AtomicIAdd,
                    I::InterlockedAnd => Op::AtomicAnd,
                    I::InterlockedOr => Op::AtomicOr,
                    I::InterlockedXor => Op::AtomicXor,
                    I::InterlockedMin if signed => Op::AtomicSMin,
                    I::InterlockedMax if signed => Op::AtomicSMax,
                    I::InterlockedMin | I::InterlockedUMin => Op::AtomicUMin,
                    I::InterlockedMax | I::InterlockedUMax => Op::AtomicUMax,
                    _ => Op::AtomicExchange,
                };
                let r = self.b.value(
                    o,
                    tyid,
                    vec![
                        Operand::IdRef(ptr.0),
                        Operand::IdRef(scope.0),
                        Operand::IdRef(none.0),
                        Operand::IdRef(val.0),
                    ],
                )?;
                (r, vals.get(1).copied())
            }
        };
        if let Some(out) = original {
            let p = self.lvalue(out)?;
            let v = if p.ty() != ty {
                let fk = self.m.types.component(ty).unwrap_or(ScalarKind::UInt);
                let tk = self.m.types.component(p.ty()).unwrap_or(ScalarKind::UInt);
                self.convert_kind(result, fk, tk, 1)?
            } else {
                result
            };
            self.store(&p, v)?;
        }
        Ok(())
    }

    /// An atomic's value operand in the destination's type: sema may resolve `InterlockedAdd(int,
    /// -10)` to the `uint` overload, and SPIR-V requires the value to have the result's type.
    fn atomic_operand(&mut self, e: ExprId, ty: TypeId) -> R<SpvId> {
        let v = self.rvalue(e)?;
        let from = self.m.expr(e).ty;
        if from == ty {
            return Ok(v);
        }
        let fk = self.m.types.component(from).unwrap_or(ScalarKind::UInt);
        let tk = self.m.types.component(ty).unwrap_or(ScalarKind::UInt);
        self.convert_kind(v, fk, tk, 1)
    }
}
