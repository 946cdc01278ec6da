//! Methods of texture objects (sampling, fetches) and the texel helpers that image reads and
//! writes share.

use super::super::layout::Layout;
use super::super::resources::ImageShape;
use super::super::{unsupported, Lowerer, R};
use super::sample::ImageOps;
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{Dim, ImageOperands, Op};

impl<'m> Lowerer<'m> {
    /// A method of a texture object, or `None` when this object has no such method here.
    pub(super) fn texture_method(&mut self, op: I, obj: ExprId, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        if let Some(v) = self.sample_method(op, obj, args, ty, e)? {
            return Ok(Some(v));
        }
        let Some((_, shape, elem)) = self.texture_of(obj) else { return Ok(None) };
        match op {
            I::MethodLoad => self.texture_load(obj, shape, elem, args, ty, e).map(Some),
            I::MethodGetDimensions => self.texture_dimensions(obj, shape, args, e).map(|()| Some(SpvId(0))),
            I::MethodGetSamplePosition if shape.ms => self.sample_position(obj, args[0]).map(Some),
            _ => Ok(None),
        }
    }

    /// `t[coord]` on a read-only texture or typed buffer: `OpImageFetch` (level 0 where the image
    /// has levels), narrowed to the element type. `None` when `obj` is not such an object
    /// (storage images and texel buffers are places, read with `OpImageRead`).
    pub(crate) fn texture_subscript(&mut self, obj: ExprId, index: ExprId, ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        let Some((_, shape, elem)) = self.texture_of(obj) else { return Ok(None) };
        if shape.storage {
            return Ok(None);
        }
        if shape.ms {
            return unsupported("indexing a multisampled texture without .sample[]", self.expr_span(e));
        }
        let coord = self.rvalue(index)?;
        let mut ops = ImageOps::default();
        if shape.dim != Dim::DimBuffer {
            ops.lod = Some(self.b.ctx.const_u32(0));
        }
        let image = self.load_image(obj)?;
        let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let base = vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)];
        // DXC writes the `None` mask of a texel-buffer fetch too.
        let always = shape.combined || shape.dim == Dim::DimBuffer;
        let v = self.image_op(Op::ImageFetch, Op::ImageSparseFetch, v4, base, &ops, always, None)?;
        self.narrow_vec4(v, comp, ty).map(Some)
    }

    /// `tex.mips[level][coord]` / `tex.sample[index][coord]`: `OpImageFetch` with the `Lod` or
    /// `Sample` operand, narrowed to the element type.
    pub(crate) fn texel_at(&mut self, obj: ExprId, sample: bool, level: ExprId, coord: ExprId, ty: TypeId) -> R<SpvId> {
        let Some((_, shape, elem)) = self.texture_of(obj) else {
            return unsupported("this texel access", self.expr_span(obj));
        };
        let l = self.rvalue(level)?;
        let c = self.rvalue(coord)?;
        let mut ops = ImageOps::default();
        if sample {
            ops.sample = Some(l);
        } else {
            ops.lod = Some(l);
        }
        let image = self.load_image(obj)?;
        let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let base = vec![Operand::IdRef(image.0), Operand::IdRef(c.0)];
        let op = if shape.storage { Op::ImageRead } else { Op::ImageFetch };
        let sparse = if shape.storage { Op::ImageSparseRead } else { Op::ImageSparseFetch };
        let v = self.image_op(op, sparse, v4, base, &ops, shape.combined, None)?;
        self.narrow_vec4(v, comp, ty)
    }

    /// `Load(location[, sampleIndex][, offset][, status])`: `OpImageFetch` (with the mip level
    /// taken from the last component of the location) or, on storage images, `OpImageRead`.
    fn texture_load(
        &mut self,
        obj: ExprId,
        shape: ImageShape,
        elem: Option<TypeId>,
        args: &[ExprId],
        ty: TypeId,
        e: ExprId,
    ) -> R<SpvId> {
        let Some(&loc_e) = args.first() else {
            return unsupported("Load without a location", self.expr_span(e));
        };
        let loc = self.rvalue(loc_e)?;
        let mut ops = ImageOps::default();
        let has_lod = !shape.ms && !shape.storage && shape.dim != Dim::DimBuffer;
        let coord = if has_lod {
            let lt = self.m.expr(loc_e).ty;
            let n = self.shape(lt).map_or(1, |s| s.count());
            let lk = self.m.types.component(lt).unwrap_or(ScalarKind::Int);
            let ity = self.scalar_ty(lk, Layout::Logical);
            let cty = self.vector_ty(lk, n - 1, Layout::Logical);
            let coord = if n - 1 == 1 {
                self.b.composite_extract(cty, loc, &[0])?
            } else {
                self.b.vector_shuffle(cty, loc, loc, &(0..n - 1).collect::<Vec<_>>())?
            };
            ops.lod = Some(self.b.composite_extract(ity, loc, &[n - 1])?);
            coord
        } else {
            loc
        };
        let mut rest = &args[1..];
        if shape.ms {
            let Some(&si) = rest.first() else {
                return unsupported("Load of a multisampled texture without a sample index", self.expr_span(e));
            };
            ops.sample = Some(self.rvalue(si)?);
            rest = &rest[1..];
        }
        let image = self.load_image(obj)?;
        let status = self.trailing_ops(rest, &mut ops, e)?;
        let comp = self.m.types.component(elem.unwrap_or(ty)).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let (o, so) = if shape.storage { (Op::ImageRead, Op::ImageSparseRead) } else { (Op::ImageFetch, Op::ImageSparseFetch) };
        let base = vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)];
        let v = self.image_op(o, so, v4, base, &ops, shape.storage || shape.combined, status)?;
        self.narrow_vec4(v, comp, ty)
    }

    /// `GetSamplePosition(index)` of a multisampled texture, as DXC writes it: Vulkan has no
    /// query, so the position comes from the standard sample patterns of Direct3D (and Vulkan's
    /// `standardSampleLocations`) for 2, 4, 8 and 16 samples, chosen by the texture's sample
    /// count; (0, 0) for any other count.
    fn sample_position(&mut self, obj: ExprId, index: ExprId) -> R<SpvId> {
        const PATTERNS: [&[(f32, f32)]; 4] = [
            &[(0.25, 0.25), (-0.25, -0.25)],
            &[(-0.125, -0.375), (0.375, -0.125), (-0.375, 0.125), (0.125, 0.375)],
            &[
                (0.0625, -0.1875), (-0.0625, 0.1875), (0.3125, 0.0625), (-0.1875, -0.3125),
                (-0.3125, 0.3125), (-0.4375, -0.0625), (0.1875, 0.4375), (0.4375, -0.4375),
            ],
            &[
                (0.0625, 0.0625), (-0.0625, -0.1875), (-0.1875, 0.125), (0.25, -0.0625),
                (-0.3125, -0.125), (0.125, 0.3125), (0.3125, 0.1875), (0.1875, -0.3125),
                (-0.125, 0.375), (0.0, -0.4375), (-0.25, -0.375), (-0.375, 0.25),
                (-0.5, 0.0), (0.4375, -0.25), (0.375, 0.4375), (-0.4375, -0.5),
            ],
        ];
        let f = self.b.ctx.type_f32();
        let v2 = self.b.ctx.type_vector(f, 2);
        let mut tables = Vec::new();
        for pattern in PATTERNS {
            let n = pattern.len() as u32;
            let elems: Vec<SpvId> = pattern
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = (self.b.ctx.const_f32(x), self.b.ctx.const_f32(y));
                    self.b.ctx.const_composite(v2, &[x, y])
                })
                .collect();
            let arr = self.b.ctx.type_array(v2, n, None);
            let value = self.b.ctx.const_composite(arr, &elems);
            let pty = self.b.ctx.type_pointer(spirv::StorageClass::Function, arr);
            let var = self.b.local_variable(pty, None)?;
            self.b.ctx.name(var, &format!("var.GetSamplePosition.data.{n}"));
            tables.push((n, var, value));
        }
        let zero = self.b.ctx.const_f32(0.0);
        let origin = self.b.ctx.const_composite(v2, &[zero, zero]);
        let rptr = self.b.ctx.type_pointer(spirv::StorageClass::Function, v2);
        let result = self.b.local_variable(rptr, None)?;
        self.b.ctx.name(result, "var.GetSamplePosition.result");
        let image = self.load_image(obj)?;
        let u = self.b.ctx.type_u32();
        let count = self.b.value(Op::ImageQuerySamples, u, vec![Operand::IdRef(image.0)])?;
        let idx = self.rvalue(index)?;
        for &(_, var, value) in &tables {
            self.b.store(var, value, None)?;
        }
        let bool_ty = self.b.ctx.type_bool();
        let mut merges = Vec::new();
        for &(n, var, _) in &tables {
            let k = self.b.ctx.const_u32(n);
            let eq = self.b.binary(Op::IEqual, bool_ty, count, k)?;
            let (then, other, merge) = (
                self.label(&format!("if.GetSamplePosition.then{n}")),
                self.label(&format!("if.GetSamplePosition.else{n}")),
                self.label(&format!("if.GetSamplePosition.merge{n}")),
            );
            self.b.selection_merge(merge, spirv::SelectionControl::NONE)?;
            self.b.branch_conditional(eq, then, other)?;
            self.start_block(then)?;
            let at = self.b.access_chain(rptr, var, &[idx])?;
            let v = self.b.load(v2, at, None)?;
            self.b.store(result, v, None)?;
            self.b.branch(merge)?;
            self.start_block(other)?;
            merges.push(merge);
        }
        self.b.store(result, origin, None)?;
        for merge in merges.into_iter().rev() {
            self.b.branch(merge)?;
            self.start_block(merge)?;
        }
        Ok(self.b.load(v2, result, None)?)
    }

    /// `GetDimensions([mip,] width[, height][, depth|elements][, levels|samples])`.
    fn texture_dimensions(&mut self, obj: ExprId, shape: ImageShape, args: &[ExprId], e: ExprId) -> R<()> {
        let image = self.load_image(obj)?;
        let n = shape.size_components();
        let with_lod = !shape.ms && !shape.storage && shape.dim != Dim::DimBuffer;
        // Outputs: the size components, then levels (or samples for multisampled images).
        let extra = (with_lod || shape.ms) as usize;
        let (mip, outs) = if with_lod && args.len() == n as usize + 2 {
            (Some(self.rvalue(args[0])?), &args[1..])
        } else if args.len() == n as usize + extra || args.len() == n as usize {
            (None, args)
        } else {
            return unsupported("GetDimensions with these arguments", self.expr_span(e));
        };
        let u = self.b.ctx.type_u32();
        let size_ty = if n == 1 { u } else { self.b.ctx.type_vector(u, n) };
        let size = if with_lod {
            let lod = match mip {
                Some(m) => m,
                None => self.b.ctx.const_i32(0),
            };
            self.b.value(Op::ImageQuerySizeLod, size_ty, vec![Operand::IdRef(image.0), Operand::IdRef(lod.0)])?
        } else {
            self.b.value(Op::ImageQuerySize, size_ty, vec![Operand::IdRef(image.0)])?
        };
        let Some(uint) = self.m.types.lookup(&Type::Scalar(ScalarKind::UInt)) else {
            return unsupported("GetDimensions in a module without a uint type", self.expr_span(e));
        };
        for (i, &out) in outs.iter().take(n as usize).enumerate() {
            let c = if n == 1 { size } else { self.b.composite_extract(u, size, &[i as u32])? };
            self.store_out(out, c, uint)?;
        }
        if let Some(&out) = outs.get(n as usize) {
            let q = if shape.ms { Op::ImageQuerySamples } else { Op::ImageQueryLevels };
            let c = self.b.value(q, u, vec![Operand::IdRef(image.0)])?;
            self.store_out(out, c, uint)?;
        }
        Ok(())
    }

    /// A 4-component texel narrowed to the declared element type.
    pub(crate) fn narrow_vec4(&mut self, v: SpvId, comp: ScalarKind, ty: TypeId) -> R<SpvId> {
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
            vec![Operand::IdRef(image.0), Operand::IdRef(coord.0), Operand::ImageOperands(ImageOperands::NONE)],
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
