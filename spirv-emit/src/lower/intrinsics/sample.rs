//! Sampling methods of textures: `Sample*`, `SampleCmp*`, `Gather*`, `GatherCmp*` and
//! `CalculateLevelOfDetail[Unclamped]`, on a texture with a sampler argument or on a
//! `vk::SampledTexture*` (which holds its sampler).
//!
//! Evaluation order is DXC's: the image, the sampler, then the other arguments, then
//! `OpSampledImage`. Optional trailing arguments are told apart by type: signed integer vectors
//! are offsets, a `float` is the `clamp` (`MinLod`), a `uint` is the `status` out-argument (which
//! turns the instruction into its `OpImageSparse*` form).

use super::super::layout::Layout;
use super::super::resources::{image_shape, ImageShape};
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ExprId, ExprKind};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{ImageOperands, Op};

/// The optional image operands of one instruction; emitted in SPIR-V's bit order.
#[derive(Default, Clone)]
pub(crate) struct ImageOps {
    pub bias: Option<SpvId>,
    pub lod: Option<SpvId>,
    pub grad: Option<(SpvId, SpvId)>,
    pub const_offset: Option<SpvId>,
    pub offset: Option<SpvId>,
    pub const_offsets: Option<SpvId>,
    pub sample: Option<SpvId>,
    pub min_lod: Option<SpvId>,
    /// A gather's four offsets when some is not a constant: DXC gathers four times, each with
    /// one `Offset`, and takes texel i of gather i. Not an operand itself.
    /// Each offset is evaluated right before its gather, as DXC does.
    pub offsets4: Option<[ExprId; 4]>,
}

impl ImageOps {
    /// The mask and its operands; with `always`, a `None` mask is written too (as DXC does for
    /// gathers and combined images).
    pub fn operands(&self, always: bool) -> Vec<Operand> {
        let mut mask = ImageOperands::NONE;
        let mut ids = Vec::new();
        if let Some(b) = self.bias {
            mask |= ImageOperands::BIAS;
            ids.push(b);
        }
        if let Some(l) = self.lod {
            mask |= ImageOperands::LOD;
            ids.push(l);
        }
        if let Some((x, y)) = self.grad {
            mask |= ImageOperands::GRAD;
            ids.push(x);
            ids.push(y);
        }
        if let Some(o) = self.const_offset {
            mask |= ImageOperands::CONST_OFFSET;
            ids.push(o);
        }
        if let Some(o) = self.offset {
            mask |= ImageOperands::OFFSET;
            ids.push(o);
        }
        if let Some(o) = self.const_offsets {
            mask |= ImageOperands::CONST_OFFSETS;
            ids.push(o);
        }
        if let Some(s) = self.sample {
            mask |= ImageOperands::SAMPLE;
            ids.push(s);
        }
        if let Some(m) = self.min_lod {
            mask |= ImageOperands::MIN_LOD;
            ids.push(m);
        }
        if mask.is_empty() && !always {
            return Vec::new();
        }
        let mut out = vec![Operand::ImageOperands(mask)];
        out.extend(ids.into_iter().map(|i| Operand::IdRef(i.0)));
        out
    }
}

/// Where the sampled image comes from.
pub(crate) enum Source {
    /// A separate image and sampler, combined with `OpSampledImage` once the arguments are in.
    Separate { image: SpvId, image_ty: SpvId, sampler: SpvId },
    /// A `vk::SampledTexture*` value.
    Combined(SpvId),
}

impl<'m> Lowerer<'m> {
    /// The shape of the texture `obj` and its element type.
    pub(super) fn texture_of(&self, obj: ExprId) -> Option<(ObjectKind, ImageShape, Option<TypeId>)> {
        match self.m.types.get(self.m.expr(obj).ty) {
            Type::Object { kind, elem, .. } => image_shape(*kind).map(|s| (*kind, s, *elem)),
            _ => None,
        }
    }

    /// The plain image type of a texture object type (the image inside a combined one).
    pub(super) fn plain_image_ty(&mut self, t: TypeId) -> R<SpvId> {
        let id = self.object_ty(t)?;
        Ok(match self.b.ctx.type_of(id) {
            Some(crate::types::Type::SampledImage { image }) => *image,
            _ => id,
        })
    }

    /// The texture's image value: loaded, and taken out of a combined image with `OpImage`.
    pub(super) fn load_image(&mut self, obj: ExprId) -> R<SpvId> {
        let place = self.lvalue(obj)?;
        let v = self.load(&place)?;
        let oty = self.m.expr(obj).ty;
        if self.texture_of(obj).is_some_and(|(_, s, _)| s.combined) {
            let ity = self.plain_image_ty(oty)?;
            return Ok(self.b.value(Op::Image, ity, vec![Operand::IdRef(v.0)])?);
        }
        Ok(v)
    }

    fn sample_source(&mut self, obj: ExprId, combined: bool, sampler: Option<ExprId>) -> R<Source> {
        let place = self.lvalue(obj)?;
        let v = self.load(&place)?;
        if combined {
            return Ok(Source::Combined(v));
        }
        let Some(s) = sampler else {
            return unsupported("sampling without a sampler", self.expr_span(obj));
        };
        let image_ty = self.object_ty(self.m.expr(obj).ty)?;
        let sampler = self.rvalue(s)?;
        Ok(Source::Separate { image: v, image_ty, sampler })
    }

    fn sampled_image(&mut self, src: Source) -> R<SpvId> {
        match src {
            Source::Combined(v) => Ok(v),
            Source::Separate { image, image_ty, sampler } => {
                let si_ty = self.b.ctx.type_sampled_image(image_ty, Some("type.sampled.image"));
                Ok(self.b.value(Op::SampledImage, si_ty, vec![Operand::IdRef(image.0), Operand::IdRef(sampler.0)])?)
            }
        }
    }

    /// Trailing optional arguments: offsets, clamp and status.
    pub(super) fn trailing_ops(&mut self, args: &[ExprId], ops: &mut ImageOps, e: ExprId) -> R<Option<ExprId>> {
        let mut offsets = Vec::new();
        let mut status = None;
        for &a in args {
            let t = self.m.expr(a).ty;
            match self.m.types.component(t) {
                Some(k) if k.is_float() => ops.min_lod = Some(self.rvalue(a)?),
                Some(k) if k.is_unsigned() && matches!(self.m.types.get(t), Type::Scalar(_)) => status = Some(a),
                _ => offsets.push(a),
            }
        }
        match offsets.len() {
            0 => {}
            1 => {
                if let Some(c) = self.constant_value(offsets[0])? {
                    ops.const_offset = Some(c);
                } else {
                    ops.offset = Some(self.rvalue(offsets[0])?);
                }
            }
            4 => {
                let mut vals = Vec::new();
                for &o in &offsets {
                    match self.constant_value(o)? {
                        Some(c) => vals.push(c),
                        None => break,
                    }
                }
                if vals.len() < 4 {
                    if status.is_some() {
                        return unsupported("Gather with four non-constant offsets and a status", self.expr_span(e));
                    }
                    ops.offsets4 = Some([offsets[0], offsets[1], offsets[2], offsets[3]]);
                    return Ok(None);
                }
                let oty = self.ty(self.m.expr(offsets[0]).ty, Layout::Logical)?;
                let arr = self.b.ctx.type_array(oty, 4, None);
                ops.const_offsets = Some(self.b.ctx.const_composite(arr, &vals));
            }
            _ => return unsupported("this combination of texture method arguments", self.expr_span(e)),
        }
        Ok(status)
    }

    /// Emits an image instruction, in its sparse form when there is a status argument: then the
    /// residency code goes to `status` and the texel is returned.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn image_op(
        &mut self,
        op: Op,
        sparse: Op,
        result_ty: SpvId,
        mut fixed: Vec<Operand>,
        ops: &ImageOps,
        always_mask: bool,
        status: Option<ExprId>,
    ) -> R<SpvId> {
        fixed.extend(ops.operands(always_mask));
        let Some(st) = status else {
            return Ok(self.b.value(op, result_ty, fixed)?);
        };
        let u = self.b.ctx.type_u32();
        let sty = self.b.ctx.type_struct(crate::types::StructType {
            name: "SparseResidencyStruct".to_string(),
            members: vec![
                crate::types::StructMember { ty: u, name: String::new(), decorations: Vec::new() },
                crate::types::StructMember { ty: result_ty, name: String::new(), decorations: Vec::new() },
            ],
            decorations: Vec::new(),
        });
        let r = self.b.value(sparse, sty, fixed)?;
        let code = self.b.composite_extract(u, r, &[0])?;
        let uint = self.m.types.lookup(&Type::Scalar(ScalarKind::UInt)).unwrap_or(hlslc_sema::types::TypeTable::ERROR);
        self.store_out(st, code, uint)?;
        Ok(self.b.composite_extract(result_ty, r, &[1])?)
    }

    /// Stores `v` (of HLSL type `vty`) into the `out` argument `arg`, converting as needed.
    pub(super) fn store_out(&mut self, arg: ExprId, v: SpvId, vty: TypeId) -> R<()> {
        let (target, from_param) = match &self.m.expr(arg).kind {
            ExprKind::OutArg { lvalue, from_param, .. } => (*lvalue, Some(*from_param)),
            _ => (arg, None),
        };
        let pty = self.m.expr(arg).ty;
        let fk = self.m.types.component(vty).unwrap_or(ScalarKind::UInt);
        let pk = self.m.types.component(pty).unwrap_or(fk);
        // (Equal kinds need no conversion, and a matrix value has no `n`-vector type.)
        let mut v = if fk == pk { v } else { self.convert_kind(v, fk, pk, self.shape(vty).map_or(1, |s| s.count()))? };
        let place = self.lvalue(target)?;
        if let Some(k) = from_param {
            v = self.cast(k, v, pty, place.ty(), arg)?;
        }
        self.store(&place, v)
    }

    /// `Sample*`, `SampleCmp*`, `Gather*`, `GatherCmp*`, `CalculateLevelOfDetail*`, or `None`
    /// for another method.
    pub(super) fn sample_method(&mut self, op: I, obj: ExprId, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        let Some((_, shape, elem)) = self.texture_of(obj) else { return Ok(None) };
        // How many arguments after the coordinate are fixed, and whether a depth reference leads.
        let (fixed, dref) = match op {
            I::MethodSample => (0, false),
            I::MethodSampleBias | I::MethodSampleLevel => (1, false),
            I::MethodSampleGrad => (2, false),
            I::MethodSampleCmp | I::MethodSampleCmpLevelZero => (1, true),
            I::MethodSampleCmpBias | I::MethodSampleCmpLevel => (2, true),
            I::MethodSampleCmpGrad => (3, true),
            I::MethodGather | I::MethodGatherRed | I::MethodGatherGreen | I::MethodGatherBlue | I::MethodGatherAlpha => {
                (0, false)
            }
            I::MethodGatherCmp
            | I::MethodGatherCmpRed
            | I::MethodGatherCmpGreen
            | I::MethodGatherCmpBlue
            | I::MethodGatherCmpAlpha => (1, true),
            I::MethodCalculateLevelOfDetail | I::MethodCalculateLevelOfDetailUnclamped => (0, false),
            _ => return Ok(None),
        };
        let (sampler, rest) = if shape.combined { (None, args) } else { (args.first().copied(), args.get(1..).unwrap_or(&[])) };
        if rest.len() < 1 + fixed {
            return unsupported(format!("{op:?} with these arguments"), self.expr_span(e));
        }
        let src = self.sample_source(obj, shape.combined, sampler)?;
        let coord = self.rvalue(rest[0])?;
        let mut fixed_vals = Vec::new();
        for &a in &rest[1..1 + fixed] {
            fixed_vals.push(self.rvalue(a)?);
        }
        if matches!(
            op,
            I::MethodSample
                | I::MethodSampleCmp
                | I::MethodSampleBias
                | I::MethodSampleCmpBias
                | I::MethodCalculateLevelOfDetail
                | I::MethodCalculateLevelOfDetailUnclamped
        ) {
            // Implicit level of detail: derivatives, which a compute shader takes in quads.
            self.compute_derivative_group();
        }
        if matches!(op, I::MethodCalculateLevelOfDetail | I::MethodCalculateLevelOfDetailUnclamped) {
            let si = self.sampled_image(src)?;
            let f = self.b.ctx.type_f32();
            let v2 = self.b.ctx.type_vector(f, 2);
            let q = self.b.value(Op::ImageQueryLod, v2, vec![Operand::IdRef(si.0), Operand::IdRef(coord.0)])?;
            let i = (op == I::MethodCalculateLevelOfDetailUnclamped) as u32;
            return Ok(Some(self.b.composite_extract(f, q, &[i])?));
        }
        let mut ops = ImageOps::default();
        let status = self.trailing_ops(&rest[1 + fixed..], &mut ops, e)?;
        let si = self.sampled_image(src)?;
        let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let f32t = self.b.ctx.type_f32();
        let mut base = vec![Operand::IdRef(si.0), Operand::IdRef(coord.0)];
        if dref {
            base.push(Operand::IdRef(fixed_vals[0].0));
        }
        let extra = &fixed_vals[dref as usize..];
        let always = shape.combined;
        let (o, so, rty, always) = match op {
            I::MethodSample | I::MethodSampleCmp => {
                let (o, so) = if dref {
                    (Op::ImageSampleDrefImplicitLod, Op::ImageSparseSampleDrefImplicitLod)
                } else {
                    (Op::ImageSampleImplicitLod, Op::ImageSparseSampleImplicitLod)
                };
                (o, so, if dref { f32t } else { v4 }, always)
            }
            I::MethodSampleBias | I::MethodSampleCmpBias => {
                ops.bias = Some(extra[0]);
                let (o, so) = if dref {
                    (Op::ImageSampleDrefImplicitLod, Op::ImageSparseSampleDrefImplicitLod)
                } else {
                    (Op::ImageSampleImplicitLod, Op::ImageSparseSampleImplicitLod)
                };
                (o, so, if dref { f32t } else { v4 }, always)
            }
            I::MethodSampleLevel | I::MethodSampleCmpLevel | I::MethodSampleCmpLevelZero | I::MethodSampleGrad
            | I::MethodSampleCmpGrad => {
                match op {
                    I::MethodSampleCmpLevelZero => ops.lod = Some(self.b.ctx.const_f32(0.0)),
                    I::MethodSampleGrad | I::MethodSampleCmpGrad => ops.grad = Some((extra[0], extra[1])),
                    _ => ops.lod = Some(extra[0]),
                }
                let (o, so) = if dref {
                    (Op::ImageSampleDrefExplicitLod, Op::ImageSparseSampleDrefExplicitLod)
                } else {
                    (Op::ImageSampleExplicitLod, Op::ImageSparseSampleExplicitLod)
                };
                (o, so, if dref { f32t } else { v4 }, always)
            }
            _ if dref => (Op::ImageDrefGather, Op::ImageSparseDrefGather, v4, true),
            _ => {
                let c = match op {
                    I::MethodGatherGreen => 1,
                    I::MethodGatherBlue => 2,
                    I::MethodGatherAlpha => 3,
                    _ => 0,
                };
                base.push(Operand::IdRef(self.b.ctx.const_i32(c).0));
                (Op::ImageGather, Op::ImageSparseGather, v4, true)
            }
        };
        let v = match ops.offsets4 {
            // Four gathers, one per offset; texel i comes from gather i.
            Some(each) => {
                let elem = self.scalar_ty(comp, Layout::Logical);
                let mut texels = Vec::new();
                for (i, off) in each.into_iter().enumerate() {
                    let off = self.rvalue(off)?;
                    let one = ImageOps { offset: Some(off), offsets4: None, ..ops.clone() };
                    let g = self.image_op(o, so, rty, base.clone(), &one, always, None)?;
                    texels.push(self.b.composite_extract(elem, g, &[i as u32])?);
                }
                self.b.composite_construct(rty, &texels)?
            }
            None => self.image_op(o, so, rty, base, &ops, always, status)?,
        };
        if rty == v4 {
            return Ok(Some(self.narrow_vec4(v, comp, ty)?));
        }
        Ok(Some(v))
    }
}
