//! Methods of texture objects (sampling, fetches) and the texel helpers that image reads and
//! writes share.

use super::super::layout::Layout;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{ImageOperands, Op};

impl<'m> Lowerer<'m> {
    /// A method of a texture object, or `None` when this object has no such method here.
    pub(super) fn texture_method(
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
        let _ = rty;
        let v = match (kind, op) {
            (
                _,
                I::MethodSample | I::MethodSampleLevel | I::MethodSampleBias | I::MethodSampleGrad,
            ) if kind.is_texture() => {
                let image_ty = self.object_ty(oty)?;
                let place = self.lvalue(obj)?;
                let image = self.load(&place)?;
                let sampler = self.rvalue(args[0])?;
                let coord = self.rvalue(args[1])?;
                let si_ty = self
                    .b
                    .ctx
                    .type_sampled_image(image_ty, Some("type.sampled.image"));
                let si = self.b.value(
                    Op::SampledImage,
                    si_ty,
                    vec![Operand::IdRef(image.0), Operand::IdRef(sampler.0)],
                )?;
                let comp = self
                    .m
                    .types
                    .component(elem.unwrap_or(ty))
                    .unwrap_or(ScalarKind::Float);
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
            (
                Texture1D | Texture2D | Texture3D | Texture1DArray | Texture2DArray,
                I::MethodLoad,
            ) => {
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
                    self.b
                        .vector_shuffle(cty, loc, loc, &(0..n - 1).collect::<Vec<_>>())?
                };
                let lod = self.b.composite_extract(ity, loc, &[n - 1])?;
                let comp = self
                    .m
                    .types
                    .component(elem.unwrap_or(ty))
                    .unwrap_or(ScalarKind::Float);
                let v4 = self.vector_ty(comp, 4, Layout::Logical);
                let v = self.b.value(
                    Op::ImageFetch,
                    v4,
                    vec![
                        Operand::IdRef(image.0),
                        Operand::IdRef(coord.0),
                        Operand::ImageOperands(ImageOperands::LOD),
                        Operand::IdRef(lod.0),
                    ],
                )?;
                self.narrow_vec4(v, comp, ty)
            }
            _ => return Ok(None),
        };
        v.map(Some)
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
        Ok(self
            .b
            .vector_shuffle(t, v, v, &(0..n).collect::<Vec<_>>())?)
    }

    /// `OpImageRead` of a storage image or texel buffer, narrowed to the element type.
    pub(crate) fn image_read(&mut self, image: SpvId, coord: SpvId, ty: TypeId) -> R<SpvId> {
        let comp = self.m.types.component(ty).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let v = self.b.value(
            Op::ImageRead,
            v4,
            vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)],
        )?;
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
