//! Intrinsics on packed and split values: `D3DCOLORtoUBYTE4`, `AddUint64` (64-bit addition on
//! pairs of `uint` words), `dot2add` (half dot product accumulated in float), the 8-bit packed
//! dot products `dot4add_u8packed`/`dot4add_i8packed`, `modf`, and `NonUniformResourceIndex`
//! (a copy of the index decorated `NonUniform`; the pass [`crate::passes::nonuniform`] spreads
//! the decoration to the descriptors it selects).

use super::super::layout::Layout;
use super::super::{Lowerer, R};
use crate::id::SpvId;
use crate::types::{Decoration, StructMember, StructType};
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, TypeId};
use rspirv::dr::Operand;
use spirv::{GlslStd450Op as G, Op, PackedVectorFormat};

impl<'m> Lowerer<'m> {
    /// A packed-value intrinsic, or `None` when `op` is not one.
    pub(super) fn packed_intrinsic(&mut self, op: I, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        let v = match op {
            I::D3DCOLORtoUBYTE4 => {
                // (int4)(x.zyxw * 255.002), the constant DXC uses (255.001953 as a float).
                let x = self.rvalue(args[0])?;
                let f4 = self.vector_ty(ScalarKind::Float, 4, Layout::Logical);
                let swz = self.b.vector_shuffle(f4, x, x, &[2, 1, 0, 3])?;
                let scale = self.scalar_const(ScalarKind::Float, ConstValue::Float(255.002))?;
                let scaled = self.b.binary(Op::VectorTimesScalar, f4, swz, scale)?;
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.unary(Op::ConvertFToS, rty, scaled)?
            }
            I::AddUint64 => {
                // Each (low, high) word pair: the low words add with carry into the high words.
                let n = self.shape(ty).map_or(1, |s| s.count());
                if n != 2 && n != 4 {
                    return Err(super::super::LowerError {
                        fatal: false,
                        message: "AddUint64 can only be applied to uint2 and uint4 operands.".into(),
                        span: self.expr_span(e),
                        notes: Vec::new(),
                    });
                }
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let u = self.b.ctx.type_u32();
                let carry_ty = self.b.ctx.type_struct(StructType {
                    name: "AddCarryStruct".to_string(),
                    members: vec![
                        StructMember { ty: u, name: String::new(), decorations: Vec::new() },
                        StructMember { ty: u, name: String::new(), decorations: Vec::new() },
                    ],
                    decorations: Vec::new(),
                });
                let mut words = Vec::new();
                for pair in 0..n / 2 {
                    let (lo, hi) = (pair * 2, pair * 2 + 1);
                    let (al, bl) = (self.b.composite_extract(u, a, &[lo])?, self.b.composite_extract(u, b, &[lo])?);
                    let (ah, bh) = (self.b.composite_extract(u, a, &[hi])?, self.b.composite_extract(u, b, &[hi])?);
                    let sum = self.b.binary(Op::IAddCarry, carry_ty, al, bl)?;
                    let low = self.b.composite_extract(u, sum, &[0])?;
                    let carry = self.b.composite_extract(u, sum, &[1])?;
                    let high = self.b.binary(Op::IAdd, u, ah, bh)?;
                    let high = self.b.binary(Op::IAdd, u, high, carry)?;
                    words.extend([low, high]);
                }
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.composite_construct(rty, &words)?
            }
            I::Dot2add => {
                // The half products widen to float and add to the float accumulator.
                let (a, b, acc) = (self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?);
                let hk = self.m.types.component(self.m.expr(args[0]).ty).unwrap_or(ScalarKind::Half);
                let h2 = self.vector_ty(hk, 2, Layout::Logical);
                let prod = self.b.binary(Op::FMul, h2, a, b)?;
                let f2 = self.vector_ty(ScalarKind::Float, 2, Layout::Logical);
                let wide = if h2 == f2 { prod } else { self.b.unary(Op::FConvert, f2, prod)? };
                let f = self.b.ctx.type_f32();
                let x = self.b.composite_extract(f, wide, &[0])?;
                let y = self.b.composite_extract(f, wide, &[1])?;
                let s = self.b.binary(Op::FAdd, f, x, y)?;
                self.b.binary(Op::FAdd, f, s, acc)?
            }
            I::Dot4addU8packed | I::Dot4addI8packed => {
                let (a, b, acc) = (self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?);
                let rty = self.ty(ty, Layout::Logical)?;
                let dot = if op == I::Dot4addU8packed { Op::UDot } else { Op::SDot };
                let fmt = Operand::PackedVectorFormat(PackedVectorFormat::PackedVectorFormat4x8Bit);
                let d = self.b.value(dot, rty, vec![Operand::IdRef(a.0), Operand::IdRef(b.0), fmt])?;
                self.b.binary(Op::IAdd, rty, d, acc)?
            }
            I::Modf => {
                // ModfStruct gives (fraction, whole part); row by row on matrices.
                let xt = self.m.expr(args[0]).ty;
                let vals = self.operands(&args[..1])?;
                let mut whole = Vec::new();
                let frac = self.per_row(xt, &vals, |l, rt, p| {
                    let member = |name: &str| StructMember { ty: rt, name: name.to_string(), decorations: Vec::new() };
                    let sty = l.b.ctx.type_struct(StructType {
                        name: "ModfStructType".to_string(),
                        members: vec![member("frac"), member("ip")],
                        decorations: Vec::new(),
                    });
                    let r = l.b.glsl(sty, G::ModfStruct, p)?;
                    whole.push(l.b.composite_extract(rt, r, &[1])?);
                    Ok(l.b.composite_extract(rt, r, &[0])?)
                })?;
                let ip = if whole.len() == 1 {
                    whole[0]
                } else {
                    let mty = self.ty(xt, Layout::Logical)?;
                    self.b.composite_construct(mty, &whole)?
                };
                self.store_out(args[1], ip, xt)?;
                frac
            }
            I::Frexp => {
                // FrexpStruct gives (mantissa, int exponent); the exponent is stored as float.
                // Row by row on matrices, as DXC.
                let xt = self.m.expr(args[0]).ty;
                let x = self.rvalue(args[0])?;
                match self.m.types.get(xt).clone() {
                    hlslc_sema::types::Type::Matrix { rows, cols, .. } => {
                        let rt = self.vector_ty(ScalarKind::Float, u32::from(cols), Layout::Logical);
                        let (mut exps, mut mants) = (Vec::new(), Vec::new());
                        for r in 0..u32::from(rows) {
                            let row = self.b.composite_extract(rt, x, &[r])?;
                            let (s, exp) = self.frexp_struct(rt, u32::from(cols), row)?;
                            exps.push(exp);
                            mants.push(self.b.composite_extract(rt, s, &[0])?);
                        }
                        let mty = self.ty(xt, Layout::Logical)?;
                        let exp = self.b.composite_construct(mty, &exps)?;
                        self.store_out(args[1], exp, xt)?;
                        self.b.composite_construct(mty, &mants)?
                    }
                    t => {
                        let n = match t {
                            hlslc_sema::types::Type::Vector(_, n) => u32::from(n),
                            _ => 1,
                        };
                        let rt = self.ty(xt, Layout::Logical)?;
                        let (s, exp) = self.frexp_struct(rt, n, x)?;
                        self.store_out(args[1], exp, xt)?;
                        self.b.composite_extract(rt, s, &[0])?
                    }
                }
            }
            I::Msad4 => {
                let (reference, source, accum) = (self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?);
                self.msad4(reference, source, accum)?
            }
            I::PackS8 | I::PackU8 | I::PackClampS8 | I::PackClampU8 => {
                // (Clamped, then) truncated to four 8-bit integers of the input's signedness and
                // reinterpreted as one uint, as DXC.
                let xt = self.m.expr(args[0]).ty;
                let k = self.m.types.component(xt).unwrap_or(ScalarKind::Int);
                let vty = self.ty(xt, Layout::Logical)?;
                let mut x = self.rvalue(args[0])?;
                if matches!(op, I::PackClampS8 | I::PackClampU8) {
                    let (lo, hi) = if op == I::PackClampS8 { (-128, 127) } else { (0, 255) };
                    let s = self.scalar_ty(k, Layout::Logical);
                    // 16-bit constants hold their low 16 bits.
                    let bits = |v: i32| if k == ScalarKind::Int16 { u64::from(v as i16 as u16) } else { u64::from(v as u32) };
                    let (lo, hi) = (self.b.ctx.const_scalar(s, bits(lo))?, self.b.ctx.const_scalar(s, bits(hi))?);
                    let (lo, hi) = (self.b.ctx.const_composite(vty, &[lo; 4]), self.b.ctx.const_composite(vty, &[hi; 4]));
                    x = self.b.glsl(vty, G::SClamp, &[x, lo, hi])?;
                }
                let signed = k.is_signed_int();
                let byte = self.b.ctx.type_int(8, signed);
                let bytes = self.b.ctx.type_vector(byte, 4);
                let conv = if signed { Op::SConvert } else { Op::UConvert };
                let b4 = self.b.unary(conv, bytes, x)?;
                let u = self.b.ctx.type_u32();
                self.b.unary(Op::Bitcast, u, b4)?
            }
            I::UnpackS8s16 | I::UnpackS8s32 | I::UnpackU8u16 | I::UnpackU8u32 => {
                let signed = matches!(op, I::UnpackS8s16 | I::UnpackS8s32);
                let p = self.rvalue(args[0])?;
                let byte = self.b.ctx.type_int(8, signed);
                let bytes = self.b.ctx.type_vector(byte, 4);
                let b4 = self.b.unary(Op::Bitcast, bytes, p)?;
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.unary(if signed { Op::SConvert } else { Op::UConvert }, rty, b4)?
            }
            I::Printf => {
                // NonSemantic.DebugPrintf's DebugPrintf (1): the format as an OpString, then the
                // values.
                let Some(format) = self.string_value(args[0]) else {
                    return Err(super::super::LowerError {
                        fatal: false,
                        message: "printf's format must be a string literal or a string variable initialized with one".into(),
                        span: self.expr_span(args[0]),
                        notes: Vec::new(),
                    });
                };
                let fmt = self.b.debug_string(&format);
                let mut ops = Vec::new();
                for &a in &args[1..] {
                    ops.push(self.rvalue(a)?);
                }
                self.b.extension("SPV_KHR_non_semantic_info");
                let set = self.b.ext_inst_import("NonSemantic.DebugPrintf");
                let void = self.b.ctx.type_void();
                let mut operands = vec![Operand::IdRef(set.0), Operand::LiteralExtInstInteger(1), Operand::IdRef(fmt.0)];
                operands.extend(ops.iter().map(|v| Operand::IdRef(v.0)));
                self.b.value(Op::ExtInst, void, operands)?
            }
            I::CheckAccessFullyMapped => {
                // The residency code of a sparse (status-returning) texture access.
                let status = self.rvalue(args[0])?;
                let b = self.b.ctx.type_bool();
                self.b.value(Op::ImageSparseTexelsResident, b, vec![Operand::IdRef(status.0)])?
            }
            I::NonUniformResourceIndex => {
                let x = self.rvalue(args[0])?;
                let rty = self.ty(ty, Layout::Logical)?;
                let c = self.b.unary(Op::CopyObject, rty, x)?;
                self.b.ctx.decorate(c, &Decoration { kind: spirv::Decoration::NonUniform, args: Vec::new() });
                c
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// `msad4(reference, source, accum)`: the four 4-byte windows of the 8 bytes of `source`
    /// (window i starts at byte i: `source.x >> 8i` with the low bytes of `source.y` inserted
    /// above, as DXC's DXIL lowering builds them), and for each window the sum of the absolute
    /// byte differences to `reference`, skipping the bytes where `reference` is 0, added to its
    /// `accum` component. DXC's SPIR-V back end shifts `source.x` left instead (its
    /// intrinsics.msad4 CHECK lines), which puts a zero byte in every window but the first; hlslc
    /// computes what the HLSL function defines.
    fn msad4(&mut self, reference: SpvId, source: SpvId, accum: SpvId) -> R<SpvId> {
        let (u, i) = (self.b.ctx.type_u32(), self.b.ctx.type_i32());
        let bool_ty = self.b.ctx.type_bool();
        let c = |l: &mut Self, v: u32| l.b.ctx.const_u32(v);
        let src0 = self.b.composite_extract(u, source, &[0])?;
        let mut shifted = Vec::new();
        for s in [8, 16, 24] {
            let k = c(self, s);
            shifted.push(self.b.binary(Op::ShiftRightLogical, u, src0, k)?);
        }
        let src1 = self.b.composite_extract(u, source, &[1])?;
        let mut windows = vec![src0];
        for (n, &sh) in shifted.iter().enumerate() {
            let (offset, count) = (c(self, 24 - 8 * n as u32), c(self, 8 + 8 * n as u32));
            windows.push(self.b.value(Op::BitFieldInsert, u, vec![Operand::IdRef(sh.0), Operand::IdRef(src1.0), Operand::IdRef(offset.0), Operand::IdRef(count.0)])?);
        }
        let mut acc = Vec::new();
        for k in 0..4 {
            acc.push(self.b.composite_extract(u, accum, &[k])?);
        }
        let zero = c(self, 0);
        let eight = c(self, 8);
        let byte = |l: &mut Self, v: SpvId, j: u32| -> R<SpvId> {
            let at = l.b.ctx.const_u32(8 * j);
            Ok(l.b.value(Op::BitFieldUExtract, u, vec![Operand::IdRef(v.0), Operand::IdRef(at.0), Operand::IdRef(eight.0)])?)
        };
        let mut refs = Vec::new();
        for j in 0..4 {
            let rb = byte(self, reference, j)?;
            let ri = self.b.unary(Op::Bitcast, i, rb)?;
            let zero_ref = self.b.binary(Op::IEqual, bool_ty, rb, zero)?;
            refs.push((ri, zero_ref));
        }
        let mut sums = Vec::new();
        for (w, mut sum) in windows.into_iter().zip(acc) {
            for (j, &(ri, zero_ref)) in refs.iter().enumerate() {
                let sb = byte(self, w, j as u32)?;
                let si = self.b.unary(Op::Bitcast, i, sb)?;
                let sub = self.b.binary(Op::ISub, i, ri, si)?;
                let abs = self.b.glsl(i, G::SAbs, &[sub])?;
                let uabs = self.b.unary(Op::Bitcast, u, abs)?;
                let diff = self.b.select(u, zero_ref, zero, uabs)?;
                sum = self.b.binary(Op::IAdd, u, sum, diff)?;
            }
            sums.push(sum);
        }
        let v4 = self.b.ctx.type_vector(u, 4);
        Ok(self.b.composite_construct(v4, &sums)?)
    }

    /// The text of a string expression: a literal, or a (const) global string variable
    /// initialized with one.
    fn string_value(&self, e: ExprId) -> Option<String> {
        match &self.m.expr(e).kind {
            hlslc_sema::tast::ExprKind::Str(s) => Some(s.clone()),
            hlslc_sema::tast::ExprKind::Var(v) => self.m.var(*v).init.and_then(|i| self.string_value(i)),
            hlslc_sema::tast::ExprKind::Cast { expr, .. } => self.string_value(*expr),
            _ => None,
        }
    }

    /// `FrexpStruct` of float (vector) `x` of type `rt` with `n` components: the struct and its
    /// exponent converted to float.
    fn frexp_struct(&mut self, rt: SpvId, n: u32, x: SpvId) -> R<(SpvId, SpvId)> {
        let it = self.vector_ty(ScalarKind::Int, n, Layout::Logical);
        let sty = self.b.ctx.type_struct(StructType {
            name: "FrexpStructType".to_string(),
            members: vec![
                StructMember { ty: rt, name: "mantissa".to_string(), decorations: Vec::new() },
                StructMember { ty: it, name: "exponent".to_string(), decorations: Vec::new() },
            ],
            decorations: Vec::new(),
        });
        let s = self.b.glsl(sty, G::FrexpStruct, &[x])?;
        let e = self.b.composite_extract(it, s, &[1])?;
        Ok((s, self.b.unary(Op::ConvertSToF, rt, e)?))
    }
}
