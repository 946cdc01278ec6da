//! Intrinsic functions and object methods. Math goes to GLSL.std.450 where DXC uses it; the
//! rest to core instructions. Each family is one arm group; an intrinsic not listed is reported
//! as unsupported.

use super::layout::Layout;
use super::place::Place;
use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{GlslStd450Op as G, ImageOperands, Op};

impl<'m> Lowerer<'m> {
    pub(crate) fn intrinsic(&mut self, op: I, object: Option<ExprId>, args: &[ExprId], ty: TypeId, e: ExprId) -> R<SpvId> {
        if let Some(obj) = object {
            return self.method(op, obj, args, ty, e);
        }
        let span = self.expr_span(e);
        let rty = self.ty(ty, Layout::Logical)?;
        let arg_ty = |l: &Self, i: usize| args.get(i).map(|&a| l.m.expr(a).ty).unwrap_or(ty);
        let kind = self.m.types.component(arg_ty(self, 0)).unwrap_or(ScalarKind::Float);
        let (f, s) = (kind.is_float(), kind.is_signed_int());
        // GLSL.std.450 instructions taking the arguments as they are.
        let glsl = match op {
            I::Sin => Some(G::Sin),
            I::Cos => Some(G::Cos),
            I::Tan => Some(G::Tan),
            I::Asin => Some(G::Asin),
            I::Acos => Some(G::Acos),
            I::Atan => Some(G::Atan),
            I::Atan2 => Some(G::Atan2),
            I::Sinh => Some(G::Sinh),
            I::Cosh => Some(G::Cosh),
            I::Tanh => Some(G::Tanh),
            I::Exp => Some(G::Exp),
            I::Exp2 => Some(G::Exp2),
            I::Log => Some(G::Log),
            I::Log2 => Some(G::Log2),
            I::Sqrt => Some(G::Sqrt),
            I::Rsqrt => Some(G::InverseSqrt),
            I::Floor => Some(G::Floor),
            I::Ceil => Some(G::Ceil),
            I::Trunc => Some(G::Trunc),
            I::Round => Some(G::RoundEven),
            I::Frac => Some(G::Fract),
            I::Pow => Some(G::Pow),
            I::Lerp => Some(G::FMix),
            I::Step => Some(G::Step),
            I::Smoothstep => Some(G::SmoothStep),
            I::Normalize => Some(G::Normalize),
            I::Length => Some(G::Length),
            I::Distance => Some(G::Distance),
            I::Cross => Some(G::Cross),
            I::Reflect => Some(G::Reflect),
            I::Refract => Some(G::Refract),
            I::Fma => Some(G::Fma),
            I::Degrees => Some(G::Degrees),
            I::Radians => Some(G::Radians),
            I::Ldexp => Some(G::Ldexp),
            I::Determinant => Some(G::Determinant),
            I::Abs if f => Some(G::FAbs),
            I::Abs if s => Some(G::SAbs),
            I::Min if f => Some(G::FMin),
            I::Min if s => Some(G::SMin),
            I::Min | I::Umin => Some(G::UMin),
            I::Max if f => Some(G::FMax),
            I::Max if s => Some(G::SMax),
            I::Max | I::Umax => Some(G::UMax),
            I::Clamp if f => Some(G::FClamp),
            I::Clamp if s => Some(G::SClamp),
            I::Clamp | I::Uclamp => Some(G::UClamp),
            I::Firstbitlow => Some(G::FindILsb),
            I::Firstbithigh if s => Some(G::FindSMsb),
            I::Firstbithigh | I::Ufirstbithigh => Some(G::FindUMsb),
            _ => None,
        };
        if let Some(g) = glsl {
            let mut vals = Vec::new();
            for &a in args {
                vals.push(self.rvalue(a)?);
            }
            return Ok(self.b.glsl(rty, g, &vals)?);
        }
        match op {
            I::Abs | I::Uabs => self.rvalue(args[0]),
            I::Saturate => {
                let x = self.rvalue(args[0])?;
                let zero = self.constant(ty, ConstValue::Float(0.0))?;
                let one = self.constant(ty, ConstValue::Float(1.0))?;
                Ok(self.b.glsl(rty, G::FClamp, &[x, zero, one])?)
            }
            I::Sign => {
                let x = self.rvalue(args[0])?;
                let aty = self.ty(arg_ty(self, 0), Layout::Logical)?;
                let g = if f { G::FSign } else { G::SSign };
                let v = self.b.glsl(aty, g, &[x])?;
                let n = self.shape(ty).map_or(1, |s| s.count());
                if f {
                    self.convert_kind(v, kind, ScalarKind::Int, n)
                } else {
                    Ok(v)
                }
            }
            I::Rcp => {
                let x = self.rvalue(args[0])?;
                let one = self.constant(ty, ConstValue::Float(1.0))?;
                Ok(self.b.binary(Op::FDiv, rty, one, x)?)
            }
            I::Mad | I::Umad => {
                let (a, b, c) = (self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?);
                let (mul, add) = if f { (Op::FMul, Op::FAdd) } else { (Op::IMul, Op::IAdd) };
                let m = self.b.binary(mul, rty, a, b)?;
                Ok(self.b.binary(add, rty, m, c)?)
            }
            I::Fmod => {
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                Ok(self.b.binary(Op::FRem, rty, a, b)?)
            }
            I::Dot | I::Udot => {
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                if n == 1 {
                    let op = if f { Op::FMul } else { Op::IMul };
                    return Ok(self.b.binary(op, rty, a, b)?);
                }
                if f {
                    return Ok(self.b.binary(Op::Dot, rty, a, b)?);
                }
                // Integer dot product: multiply, then add the components.
                let vty = self.ty(arg_ty(self, 0), Layout::Logical)?;
                let prod = self.b.binary(Op::IMul, vty, a, b)?;
                let mut sum = self.b.composite_extract(rty, prod, &[0])?;
                for i in 1..n {
                    let c = self.b.composite_extract(rty, prod, &[i])?;
                    sum = self.b.binary(Op::IAdd, rty, sum, c)?;
                }
                Ok(sum)
            }
            I::Countbits => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::BitCount, rty, x)?)
            }
            I::Reversebits => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::BitReverse, rty, x)?)
            }
            I::Isnan | I::Isinf => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(if op == I::Isnan { Op::IsNan } else { Op::IsInf }, rty, x)?)
            }
            I::Asfloat | I::Asint | I::Asuint if args.len() == 1 => {
                let x = self.rvalue(args[0])?;
                if self.ty(arg_ty(self, 0), Layout::Logical)? == rty {
                    return Ok(x);
                }
                Ok(self.b.unary(Op::Bitcast, rty, x)?)
            }
            I::All | I::Any => {
                let x = self.rvalue(args[0])?;
                let at = arg_ty(self, 0);
                let n = self.shape(at).map_or(1, |s| s.count());
                let b = self.convert_kind(x, kind, ScalarKind::Bool, n)?;
                if n == 1 {
                    return Ok(b);
                }
                Ok(self.b.unary(if op == I::All { Op::All } else { Op::Any }, rty, b)?)
            }
            I::Transpose => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::Transpose, rty, x)?)
            }
            I::Mul => self.mul(args[0], args[1], ty),
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
            I::Clip => {
                let x = self.rvalue(args[0])?;
                let at = arg_ty(self, 0);
                let n = self.shape(at).map_or(1, |s| s.count());
                let zero = self.constant(at, ConstValue::Float(0.0))?;
                let bt = self.vector_ty(ScalarKind::Bool, n, Layout::Logical);
                let lt = self.b.binary(Op::FOrdLessThan, bt, x, zero)?;
                let bool_ty = self.scalar_ty(ScalarKind::Bool, Layout::Logical);
                let c = if n > 1 { self.b.unary(Op::Any, bool_ty, lt)? } else { lt };
                let (kill, merge) = (self.label("if.true"), self.label("if.merge"));
                self.b.selection_merge(merge, spirv::SelectionControl::NONE)?;
                self.b.branch_conditional(c, kill, merge)?;
                self.start_block(kill)?;
                self.b.kill()?;
                self.start_block(merge)?;
                Ok(self.no_value(rty))
            }
            I::Ddx | I::Ddy | I::DdxFine | I::DdyFine | I::DdxCoarse | I::DdyCoarse | I::Fwidth => {
                let x = self.rvalue(args[0])?;
                let o = match op {
                    I::Ddx => Op::DPdx,
                    I::Ddy => Op::DPdy,
                    I::DdxFine => Op::DPdxFine,
                    I::DdyFine => Op::DPdyFine,
                    I::DdxCoarse => Op::DPdxCoarse,
                    I::DdyCoarse => Op::DPdyCoarse,
                    _ => Op::Fwidth,
                };
                if matches!(o, Op::DPdxFine | Op::DPdyFine | Op::DPdxCoarse | Op::DPdyCoarse) {
                    self.b.capability(spirv::Capability::DerivativeControl);
                }
                Ok(self.b.unary(o, rty, x)?)
            }
            _ => unsupported(format!("the intrinsic {op:?}"), span),
        }
    }

    /// `mul(a, b)` with HLSL's matrices transposed in SPIR-V: the operands swap.
    fn mul(&mut self, a: ExprId, b: ExprId, ty: TypeId) -> R<SpvId> {
        let (at, bt) = (self.m.expr(a).ty, self.m.expr(b).ty);
        let (Some(sa), Some(sb)) = (self.shape(at), self.shape(bt)) else {
            return unsupported("mul() on these types", self.expr_span(a));
        };
        let rty = self.ty(ty, Layout::Logical)?;
        let (x, y) = (self.rvalue(a)?, self.rvalue(b)?);
        if !sa.kind.is_float() {
            return unsupported("mul() on integer matrices", self.expr_span(a));
        }
        let scalar_a = sa.count() == 1;
        let scalar_b = sb.count() == 1;
        let r = match (scalar_a, scalar_b, sa.is_matrix(), sb.is_matrix()) {
            (true, true, _, _) => self.b.binary(Op::FMul, rty, x, y)?,
            (true, false, _, false) => self.b.binary(Op::VectorTimesScalar, rty, y, x)?,
            (false, true, false, _) => self.b.binary(Op::VectorTimesScalar, rty, x, y)?,
            (true, false, _, true) => self.b.binary(Op::MatrixTimesScalar, rty, y, x)?,
            (false, true, true, _) => self.b.binary(Op::MatrixTimesScalar, rty, x, y)?,
            (false, false, false, false) => self.b.binary(Op::Dot, rty, x, y)?,
            // mul(v, M) = M^T v in SPIR-V terms: OpMatrixTimesVector M v.
            (false, false, false, true) => self.b.binary(Op::MatrixTimesVector, rty, y, x)?,
            // mul(M, v): OpVectorTimesMatrix v M.
            (false, false, true, false) => self.b.binary(Op::VectorTimesMatrix, rty, y, x)?,
            // mul(A, B) = (B^T A^T)^T: OpMatrixTimesMatrix B A.
            (false, false, true, true) => self.b.binary(Op::MatrixTimesMatrix, rty, y, x)?,
        };
        Ok(r)
    }

    fn barrier(&mut self, control: bool, mem_scope: u32, semantics: u32) -> R<SpvId> {
        let wg = self.b.ctx.const_u32(2);
        let scope = self.b.ctx.const_u32(mem_scope);
        let sem = self.b.ctx.const_u32(semantics);
        if control {
            self.b.void(Op::ControlBarrier, vec![Operand::IdRef(wg.0), Operand::IdRef(scope.0), Operand::IdRef(sem.0)])?;
        } else {
            self.b.void(Op::MemoryBarrier, vec![Operand::IdRef(scope.0), Operand::IdRef(sem.0)])?;
        }
        Ok(SpvId(0))
    }

    /// `Interlocked*(dest, value[, original])` on a place in memory.
    fn atomic(&mut self, op: I, place: Place, args: &[ExprId], e: ExprId) -> R<()> {
        let Some((ptr, sc, _)) = Self::place_ptr(&place) else {
            return unsupported("atomics on texels", self.expr_span(e));
        };
        let ty = place.ty();
        let tyid = self.ty(ty, Layout::Logical)?;
        let signed = self.m.types.component(ty).is_some_and(|k| k.is_signed_int());
        let scope = self.b.ctx.const_u32(if sc == spirv::StorageClass::Workgroup { 2 } else { 1 });
        let none = self.b.ctx.const_u32(0);
        let mut vals = Vec::new();
        for &a in args {
            vals.push(a);
        }
        let (result, original) = match op {
            I::InterlockedCompareExchange | I::InterlockedCompareStore => {
                let cmp = self.rvalue(vals[0])?;
                let val = self.rvalue(vals[1])?;
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
                (r, if op == I::InterlockedCompareExchange { vals.get(2).copied() } else { None })
            }
            _ => {
                let val = self.rvalue(vals[0])?;
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
                    vec![Operand::IdRef(ptr.0), Operand::IdRef(scope.0), Operand::IdRef(none.0), Operand::IdRef(val.0)],
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

    /// Methods of resource objects.
    fn method(&mut self, op: I, obj: ExprId, args: &[ExprId], ty: TypeId, e: ExprId) -> R<SpvId> {
        let span = self.expr_span(e);
        let oty = self.m.expr(obj).ty;
        let Type::Object { kind, elem, .. } = self.m.types.get(oty).clone() else {
            return unsupported(format!("the method {op:?}"), span);
        };
        use ObjectKind::*;
        let rty = self.ty(ty, Layout::Logical)?;
        match (kind, op) {
            (StructuredBuffer | RWStructuredBuffer, I::MethodLoad) => {
                let place = self.lvalue(obj)?;
                let idx = self.rvalue(args[0])?;
                let zero = self.b.ctx.const_i32(0);
                let p = self.chain(&place, &[zero, idx], ty)?;
                self.load(&p)
            }
            (ByteAddressBuffer | RWByteAddressBuffer, I::MethodLoad | I::MethodLoad2 | I::MethodLoad3 | I::MethodLoad4) => {
                let n = match op {
                    I::MethodLoad2 => 2,
                    I::MethodLoad3 => 3,
                    I::MethodLoad4 => 4,
                    _ => 1,
                };
                if self.m.types.component(ty) != Some(ScalarKind::UInt) {
                    return unsupported("templated ByteAddressBuffer loads of non-uint types", span);
                }
                let words = self.byte_address_words(obj, args[0], n)?;
                let mut vals = Vec::new();
                for p in words {
                    vals.push(self.load(&p)?);
                }
                if n == 1 {
                    return Ok(vals[0]);
                }
                Ok(self.b.composite_construct(rty, &vals)?)
            }
            (RWByteAddressBuffer, I::MethodStore | I::MethodStore2 | I::MethodStore3 | I::MethodStore4) => {
                let n = match op {
                    I::MethodStore2 => 2,
                    I::MethodStore3 => 3,
                    I::MethodStore4 => 4,
                    _ => 1,
                };
                let vt = self.m.expr(args[1]).ty;
                if self.m.types.component(vt) != Some(ScalarKind::UInt) {
                    return unsupported("templated ByteAddressBuffer stores of non-uint types", span);
                }
                let words = self.byte_address_words(obj, args[0], n)?;
                let v = self.rvalue(args[1])?;
                let u = self.b.ctx.type_u32();
                for (i, p) in words.iter().enumerate() {
                    let c = if n == 1 { v } else { self.b.composite_extract(u, v, &[i as u32])? };
                    self.store(p, c)?;
                }
                Ok(self.no_value(rty))
            }
            (
                RWByteAddressBuffer,
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
            (_, I::MethodSample | I::MethodSampleLevel | I::MethodSampleBias | I::MethodSampleGrad) if kind.is_texture() => {
                let image_ty = self.object_ty(oty)?;
                let place = self.lvalue(obj)?;
                let image = self.load(&place)?;
                let sampler = self.rvalue(args[0])?;
                let coord = self.rvalue(args[1])?;
                let si_ty = self.b.ctx.type_sampled_image(image_ty, Some("type.sampled.image"));
                let si = self.b.value(Op::SampledImage, si_ty, vec![Operand::IdRef(image.0), Operand::IdRef(sampler.0)])?;
                let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
                let v4 = self.vector_ty(comp, 4, Layout::Logical);
                let mut ops = vec![Operand::IdRef(si.0), Operand::IdRef(coord.0)];
                let o = match op {
                    I::MethodSample => {
                        if args.len() > 2 {
                            return unsupported("Sample with an offset or clamp", span);
                        }
                        Op::ImageSampleImplicitLod
                    }
                    I::MethodSampleBias => {
                        let b = self.rvalue(args[2])?;
                        ops.push(Operand::ImageOperands(ImageOperands::BIAS));
                        ops.push(Operand::IdRef(b.0));
                        Op::ImageSampleImplicitLod
                    }
                    I::MethodSampleLevel => {
                        let l = self.rvalue(args[2])?;
                        ops.push(Operand::ImageOperands(ImageOperands::LOD));
                        ops.push(Operand::IdRef(l.0));
                        Op::ImageSampleExplicitLod
                    }
                    _ => {
                        let (dx, dy) = (self.rvalue(args[2])?, self.rvalue(args[3])?);
                        ops.push(Operand::ImageOperands(ImageOperands::GRAD));
                        ops.push(Operand::IdRef(dx.0));
                        ops.push(Operand::IdRef(dy.0));
                        Op::ImageSampleExplicitLod
                    }
                };
                let v = self.b.value(o, v4, ops)?;
                self.narrow_vec4(v, comp, ty)
            }
            (Texture1D | Texture2D | Texture3D | Texture1DArray | Texture2DArray, I::MethodLoad) => {
                let place = self.lvalue(obj)?;
                let image = self.load(&place)?;
                let loc = self.rvalue(args[0])?;
                let lt = self.m.expr(args[0]).ty;
                let n = self.shape(lt).map_or(1, |s| s.count());
                let lk = self.m.types.component(lt).unwrap_or(ScalarKind::Int);
                let ity = self.scalar_ty(lk, Layout::Logical);
                let cty = self.vector_ty(lk, n - 1, Layout::Logical);
                let coord = if n - 1 == 1 {
                    self.b.composite_extract(cty, loc, &[0])?
                } else {
                    self.b.vector_shuffle(cty, loc, loc, &(0..n - 1).collect::<Vec<_>>())?
                };
                let lod = self.b.composite_extract(ity, loc, &[n - 1])?;
                let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
                let v4 = self.vector_ty(comp, 4, Layout::Logical);
                let v = self.b.value(
                    Op::ImageFetch,
                    v4,
                    vec![Operand::IdRef(image.0), Operand::IdRef(coord.0), Operand::ImageOperands(ImageOperands::LOD), Operand::IdRef(lod.0)],
                )?;
                self.narrow_vec4(v, comp, ty)
            }
            _ => unsupported(format!("the method {op:?} of {}", kind.name()), span),
        }
    }

    /// The "value" of a call that returns nothing: never used as an operand (sema types such a
    /// call `void`), so no instruction is emitted; otherwise an `OpUndef` of the type.
    pub(crate) fn no_value(&mut self, rty: SpvId) -> SpvId {
        if matches!(self.b.ctx.type_of(rty), Some(crate::types::Type::Void)) {
            SpvId(0)
        } else {
            self.b.ctx.undef(rty)
        }
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

    /// A 4-component texel narrowed to the declared element type.
    fn narrow_vec4(&mut self, v: SpvId, comp: ScalarKind, ty: TypeId) -> R<SpvId> {
        let n = self.shape(ty).map_or(4, |s| s.count());
        if n == 4 {
            return Ok(v);
        }
        let t = self.vector_ty(comp, n, Layout::Logical);
        if n == 1 {
            return Ok(self.b.composite_extract(t, v, &[0])?);
        }
        Ok(self.b.vector_shuffle(t, v, v, &(0..n).collect::<Vec<_>>())?)
    }

    /// `OpImageRead` of a storage image or texel buffer, narrowed to the element type.
    pub(crate) fn image_read(&mut self, image: SpvId, coord: SpvId, ty: TypeId) -> R<SpvId> {
        let comp = self.m.types.component(ty).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let v = self.b.value(Op::ImageRead, v4, vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)])?;
        self.narrow_vec4(v, comp, ty)
    }

    /// A value widened to the 4 components `OpImageWrite` takes.
    pub(crate) fn widen_to_vec4(&mut self, v: SpvId, ty: TypeId) -> R<SpvId> {
        let comp = self.m.types.component(ty).unwrap_or(ScalarKind::Float);
        let n = self.shape(ty).map_or(4, |s| s.count());
        if n == 4 {
            return Ok(v);
        }
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let zero = self.scalar_const(comp, ConstValue::Int(0))?;
        let mut parts = Vec::new();
        if n == 1 {
            parts.push(v);
        } else {
            let c = self.scalar_ty(comp, Layout::Logical);
            for i in 0..n {
                parts.push(self.b.composite_extract(c, v, &[i])?);
            }
        }
        while parts.len() < 4 {
            parts.push(zero);
        }
        Ok(self.b.composite_construct(v4, &parts)?)
    }
}
