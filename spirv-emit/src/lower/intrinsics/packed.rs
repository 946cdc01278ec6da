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
}
