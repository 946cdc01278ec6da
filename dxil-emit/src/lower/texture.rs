//! Texture methods that take a sampler or query the resource: `Sample*` (with offsets, clamp and
//! the tiled-resource status), `Gather*`, `CalculateLevelOfDetail*` and `GetDimensions`.
//!
//! As dxc: coordinates fill `coord0..3` with `undef` past the texture's dimension, offsets are
//! `i32 0` for each spatial dimension the texture has (cubes have none: all `undef`), and the
//! status out-argument receives the fifth field of the `ResRet`.

use super::expr::Place;
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::Value;
use crate::ops::{DxilOp, Overload, ScalarKind as OK};
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ExprId, ExprKind};
use hlslc_sema::types::{ObjectKind, ScalarKind, TypeId};

/// Spatial dimensions of a texture's offsets (`None`: no offsets, as cubes).
fn offset_dims(kind: ObjectKind) -> Option<usize> {
    use ObjectKind::*;
    match kind {
        Texture1D | Texture1DArray | RWTexture1D | RWTexture1DArray => Some(1),
        Texture2D | Texture2DArray | Texture2DMS | Texture2DMSArray | RWTexture2D | RWTexture2DArray => Some(2),
        Texture3D | RWTexture3D => Some(3),
        _ => None,
    }
}

/// The `Sample*` method's fixed arguments after the sampler and location, and whether it takes a
/// clamp.
fn sample_shape(op: I) -> Option<(DxilOp, usize, bool)> {
    Some(match op {
        I::MethodSample => (DxilOp::Sample, 0, true),
        I::MethodSampleBias => (DxilOp::SampleBias, 1, true),
        I::MethodSampleLevel => (DxilOp::SampleLevel, 1, false),
        I::MethodSampleGrad => (DxilOp::SampleGrad, 2, true),
        I::MethodSampleCmp => (DxilOp::SampleCmp, 1, true),
        I::MethodSampleCmpLevelZero => (DxilOp::SampleCmpLevelZero, 1, false),
        I::MethodSampleCmpLevel => (DxilOp::SampleCmpLevel, 2, false),
        I::MethodSampleCmpBias => (DxilOp::SampleCmpBias, 2, true),
        I::MethodSampleCmpGrad => (DxilOp::SampleCmpGrad, 3, true),
        _ => return None,
    })
}

impl Lowerer<'_> {
    pub(crate) fn is_sample_method(op: I) -> bool {
        sample_shape(op).is_some()
    }

    fn fundef(&mut self) -> Value {
        self.undef_of(ScalarKind::Float)
    }

    /// `n` float operands from `vals`, `undef` past its end.
    fn floats(&mut self, vals: &[Value], n: usize) -> Vec<Value> {
        let u = self.fundef();
        (0..n).map(|i| vals.get(i).copied().unwrap_or(u)).collect()
    }

    /// `slots` offset operands: the optional offset argument at `vals[*rest]` (consumed when the
    /// texture takes offsets and it is there), else `i32 0`, for each of the texture's
    /// dimensions; `undef` for the rest.
    fn offsets(&mut self, kind: ObjectKind, vals: &[Flat], rest: &mut usize, slots: usize) -> Vec<Value> {
        let given = if offset_dims(kind).is_some() && vals.len() > *rest {
            *rest += 1;
            Some(&vals[*rest - 1][..])
        } else {
            None
        };
        let dims = offset_dims(kind).unwrap_or(0);
        let u = self.undef_i32();
        let z = self.ci32(0);
        (0..slots)
            .map(|i| match given.and_then(|g| g.get(i)) {
                Some(v) if i < dims => *v,
                _ if i < dims => z,
                _ => u,
            })
            .collect()
    }

    /// A sample or gather's result: its status (element 4) stored to the optional `status`
    /// out-argument, and the texel values unpacked to the method's return type.
    fn status_and_result(&mut self, ret: Value, status: Option<ExprId>, rty: TypeId, lk: ScalarKind, span: Option<Span>) -> R<Flat> {
        if let Some(status) = status {
            let s = self.b.extract_value(ret, vec![4]);
            self.store_out(status, s, ScalarKind::UInt, span)?;
        }
        let kinds = self.leaf_kinds(rty);
        Ok(self.unpack(ret, &kinds, lk))
    }

    /// Stores `v` (of kind `from`) to the out-argument `arg`, converted to the argument's kind.
    pub(crate) fn store_out(&mut self, arg: ExprId, v: Value, from: ScalarKind, span: Option<Span>) -> R<()> {
        let lv = match &self.t.expr(arg).kind {
            ExprKind::OutArg { lvalue, .. } => *lvalue,
            _ => arg,
        };
        let to = self.kind_of(self.t.expr(lv).ty);
        let v = self.convert_scalar(v, from, to);
        let p: Place = self.place(lv)?;
        self.store_place(&p, &[v], span)
    }

    /// `obj.Sample*(sampler, location, ...)`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn sample(&mut self, op: I, h: Value, kind: ObjectKind, lk: ScalarKind, args: &[ExprId], vals: &[Flat], rty: TypeId, span: Option<Span>) -> R<Flat> {
        let Some((dop, fixed, has_clamp)) = sample_shape(op) else { return unsupported(format!("the method `{}`", op.name()), span) };
        let cmp = matches!(op, I::MethodSampleCmp | I::MethodSampleCmpLevelZero | I::MethodSampleCmpLevel | I::MethodSampleCmpBias | I::MethodSampleCmpGrad);
        let mut a = vec![h, vals[0][0]];
        a.extend(self.floats(&vals[1], 4));
        let mut rest = 2 + fixed;
        let offs = self.offsets(kind, vals, &mut rest, 3);
        a.extend(offs);
        let extra: Vec<Flat> = vals[2..2 + fixed].to_vec();
        let mut k = 0;
        if cmp {
            a.push(extra[0][0]);
            k = 1;
        }
        if matches!(op, I::MethodSampleGrad | I::MethodSampleCmpGrad) {
            let dx = self.floats(&extra[k], 3);
            let dy = self.floats(&extra[k + 1], 3);
            a.extend(dx);
            a.extend(dy);
        } else if k < extra.len() {
            a.push(extra[k][0]);
        }
        if has_clamp {
            let c = match vals.get(rest) {
                Some(v) => {
                    rest += 1;
                    v[0]
                }
                None => self.fundef(),
            };
            a.push(c);
        }
        let (o, lk) = if cmp { (Overload::Scalar(OK::Float), ScalarKind::Float) } else { (Self::overload(lk), lk) };
        let ret = self.op(dop, o, &a, span)?;
        self.status_and_result(ret, args.get(rest).copied(), rty, lk, span)
    }

    /// `obj.Gather*(sampler, location[, compare][, offset][, status])`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn gather(&mut self, op: I, h: Value, kind: ObjectKind, lk: ScalarKind, args: &[ExprId], vals: &[Flat], rty: TypeId, span: Option<Span>) -> R<Flat> {
        let (cmp, channel) = match op {
            I::MethodGather | I::MethodGatherRed => (false, 0),
            I::MethodGatherGreen => (false, 1),
            I::MethodGatherBlue => (false, 2),
            I::MethodGatherAlpha => (false, 3),
            I::MethodGatherCmp | I::MethodGatherCmpRed => (true, 0),
            I::MethodGatherCmpGreen => (true, 1),
            I::MethodGatherCmpBlue => (true, 2),
            I::MethodGatherCmpAlpha => (true, 3),
            _ => return unsupported(format!("the method `{}`", op.name()), span),
        };
        let mut rest = if cmp { 3 } else { 2 };
        // Four separate offsets (one per texel) are a different operation in dxc.
        if vals.len() >= rest + 4 {
            return unsupported(format!("`{}` with four offsets", op.name()), span);
        }
        let mut a = vec![h, vals[0][0]];
        a.extend(self.floats(&vals[1], 4));
        let offs = self.offsets(kind, vals, &mut rest, 2);
        a.extend(offs);
        let c = self.ci32(channel);
        a.push(c);
        let (dop, o, lk) = if cmp {
            a.push(vals[2][0]);
            (DxilOp::TextureGatherCmp, Overload::Scalar(OK::Float), ScalarKind::Float)
        } else {
            (DxilOp::TextureGather, Self::overload(lk), lk)
        };
        let ret = self.op(dop, o, &a, span)?;
        self.status_and_result(ret, args.get(rest).copied(), rty, lk, span)
    }

    /// `obj.CalculateLevelOfDetail[Unclamped](sampler, location)`.
    pub(crate) fn calculate_lod(&mut self, op: I, h: Value, vals: &[Flat], span: Option<Span>) -> R<Flat> {
        let clamped = op == I::MethodCalculateLevelOfDetail;
        let mut a = vec![h, vals[0][0]];
        a.extend(self.floats(&vals[1], 3));
        let c = self.cbool(clamped);
        a.push(c);
        Ok(vec![self.op(DxilOp::CalculateLOD, Overload::Scalar(OK::Float), &a, span)?])
    }

    /// `obj.GetDimensions([mip,] out ...)`: one `getDimensions` whose fields go to the out
    /// arguments in the order HLSL lists them (width, height or elements, depth or elements,
    /// levels or samples); structured buffers' stride is a constant.
    pub(crate) fn get_dimensions(&mut self, h: Value, kind: ObjectKind, stride: Option<u32>, args: &[ExprId], vals: &[Flat], span: Option<Span>) -> R<Flat> {
        use ObjectKind::*;
        // Fields of `%dx.types.Dimensions` written, in argument order, without a mip argument.
        let fields: &[u32] = match kind {
            Buffer | RWBuffer | ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedBuffer | RasterizerOrderedByteAddressBuffer => &[0],
            StructuredBuffer | RWStructuredBuffer | AppendStructuredBuffer | ConsumeStructuredBuffer | RasterizerOrderedStructuredBuffer => &[0],
            RWTexture1D | RasterizerOrderedTexture1D => &[0],
            RWTexture1DArray | RWTexture2D | RasterizerOrderedTexture1DArray | RasterizerOrderedTexture2D => &[0, 1],
            RWTexture2DArray | RWTexture3D | RasterizerOrderedTexture2DArray | RasterizerOrderedTexture3D => &[0, 1, 2],
            Texture2DMS => &[0, 1, 3],
            Texture2DMSArray => &[0, 1, 2, 3],
            Texture1D => &[0],
            Texture1DArray | Texture2D | TextureCube => &[0, 1],
            Texture2DArray | Texture3D | TextureCubeArray => &[0, 1, 2],
            _ => return unsupported(format!("`GetDimensions` on `{}`", kind.name()), span),
        };
        let structured = matches!(kind, StructuredBuffer | RWStructuredBuffer | AppendStructuredBuffer | ConsumeStructuredBuffer | RasterizerOrderedStructuredBuffer);
        let n_out = fields.len() + usize::from(structured);
        let has_levels = kind.resource_class() == Some(hlslc_sema::types::ResourceClass::Srv) && kind.is_texture() && !matches!(kind, Texture2DMS | Texture2DMSArray);
        let (mip, outs) = if has_levels && args.len() == n_out + 2 {
            (Some(vals[0][0]), &args[1..])
        } else if has_levels && args.len() == n_out + 1 {
            (None, args)
        } else if args.len() == n_out {
            (None, args)
        } else {
            return unsupported("this form of `GetDimensions`", span);
        };
        let mip_arg = match mip {
            Some(m) => self.convert_scalar(m, self.kind_of(self.t.expr(args[0]).ty), ScalarKind::UInt),
            None if kind.is_texture() && kind.resource_class() == Some(hlslc_sema::types::ResourceClass::Srv) => self.ci32(0),
            None => self.undef_i32(),
        };
        let dims = self.op(DxilOp::GetDimensions, Overload::None, &[h, mip_arg], span)?;
        let mut fields = fields.to_vec();
        if outs.len() > fields.len() + usize::from(structured) {
            fields.push(3); // mip levels
        }
        for (i, &f) in fields.iter().enumerate() {
            let v = self.b.extract_value(dims, vec![f]);
            self.store_out(outs[i], v, ScalarKind::UInt, span)?;
        }
        if structured {
            let s = self.ci32(stride.unwrap_or(0) as i32);
            self.store_out(outs[fields.len()], s, ScalarKind::UInt, span)?;
        }
        Ok(Vec::new())
    }
}
