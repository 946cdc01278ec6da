//! Intrinsic functions and object methods, lowered by family. Each family answers `None` for an
//! intrinsic it does not own; one that no family owns is reported as unsupported.
//!
//! - `math`: GLSL.std.450 where DXC uses it, core arithmetic otherwise, row by row on matrices;
//! - `mul`: `mul` in every shape;
//! - `packed`: `D3DCOLORtoUBYTE4`, `AddUint64`, `dot2add`, `dot4add_*8packed`, `modf`;
//! - `bits`: classification, reinterpretation, half packing and bit counts (`wide`: their
//!   16- and 64-bit forms);
//! - `sync`: barriers and atomics;
//! - `pixel`: `clip` and derivatives;
//! - `wave`: wave and quad operations (`OpGroupNonUniform*`) and the subgroup built-ins;
//! - `buffer`, `texture`: methods of buffer and texture objects.

mod bits;
mod buffer;
mod math;
mod mul;
mod packed;
mod pixel;
mod rawbuf;
mod sample;
mod sync;
mod texture;
mod wave;
mod wide;

use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{ObjectKind, Type, TypeId};

/// One family of free-function intrinsics.
type Family<'m> = fn(&mut Lowerer<'m>, I, &[ExprId], TypeId, ExprId) -> R<Option<SpvId>>;

impl<'m> Lowerer<'m> {
    pub(crate) fn intrinsic(
        &mut self,
        op: I,
        object: Option<ExprId>,
        args: &[ExprId],
        ty: TypeId,
        e: ExprId,
    ) -> R<SpvId> {
        if let Some(obj) = object {
            return self.method(op, obj, args, ty, e);
        }
        match op {
            I::VkRawBufferLoad => return self.raw_buffer_load(args, ty),
            I::VkRawBufferStore => {
                self.raw_buffer_store(args)?;
                let void = self.ty(ty, super::layout::Layout::Logical)?;
                return Ok(self.no_value(void));
            }
            I::VkStaticPointerCast | I::VkReinterpretPointerCast => return self.pointer_cast(args[0], ty),
            _ => {}
        }
        if matches!(op, I::VkExtExecutionMode | I::VkExtExecutionModeId) {
            return self.ext_execution_mode(op == I::VkExtExecutionModeId, args, e);
        }
        if let Some(name) = no_vulkan_equivalent(op) {
            return Err(super::LowerError {
                fatal: false,
                message: format!("no equivalent for {name} intrinsic function in Vulkan"),
                span: self.expr_span(e),
                notes: Vec::new(),
            });
        }
        if op == I::GetAttributeAtVertex && self.stage != Some(hlslc_sema::tast::Stage::Pixel) {
            // DXC's error; in a pixel shader the intrinsic is not lowered yet (below).
            return Err(super::LowerError {
                fatal: false,
                message: "GetAttributeAtVertex only allowed in pixel shader".into(),
                span: self.expr_span(e),
                notes: Vec::new(),
            });
        }
        let families: [Family<'m>; 8] = [
            Self::math_intrinsic,
            Self::packed_intrinsic,
            Self::bits_intrinsic,
            Self::sync_intrinsic,
            Self::pixel_intrinsic,
            Self::wave_intrinsic,
            Self::mesh_intrinsic,
            Self::ray_intrinsic,
        ];
        for family in families {
            if let Some(v) = family(self, op, args, ty, e)? {
                return Ok(v);
            }
        }
        unsupported(format!("the intrinsic {op:?}"), self.expr_span(e))
    }

    /// Methods of resource objects.
    fn method(&mut self, op: I, obj: ExprId, args: &[ExprId], ty: TypeId, e: ExprId) -> R<SpvId> {
        let span = self.expr_span(e);
        let Type::Object { kind, .. } = self.m.types.get(self.m.expr(obj).ty).clone() else {
            return unsupported(format!("the method {op:?}"), span);
        };
        if super::resources::image_shape(kind).is_some() {
            // Methods dxc refuses for every texture when targeting SPIR-V: reported, and lowering
            // goes on (with an undefined value) so that each call gets its error.
            let refused = match op {
                I::MethodGatherCmpGreen => Some("no equivalent for GatherCmpGreen intrinsic method in Vulkan"),
                I::MethodGatherCmpBlue => Some("no equivalent for GatherCmpBlue intrinsic method in Vulkan"),
                I::MethodGatherCmpAlpha => Some("no equivalent for GatherCmpAlpha intrinsic method in Vulkan"),
                I::MethodGatherRaw => Some("intrinsic 'GatherRaw' method unimplemented"),
                _ => None,
            };
            if let Some(message) = refused {
                let at = self.method_name_span(obj, e);
                self.defer_error(message, at);
                let rty = self.ty(ty, super::layout::Layout::Logical)?;
                return Ok(self.no_value(rty));
            }
        }
        let v = if kind == ObjectKind::RayQuery {
            self.ray_query_method(op, obj, args, ty, e)?
        } else if matches!(kind, ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream) {
            self.stream_method(op, args, e)?
        } else if matches!(kind, ObjectKind::VkSubpassInput | ObjectKind::VkSubpassInputMS) {
            self.subpass_intrinsic(op, Some(obj), args, ty, e)?
        } else if super::resources::image_shape(kind).is_some() {
            self.texture_method(op, obj, args, ty, e)?
        } else {
            self.buffer_method(op, obj, args, ty, e)?
        };
        match v {
            Some(v) => Ok(v),
            None => unsupported(format!("the method {op:?} of {}", kind.name()), span),
        }
    }

    /// Where dxc points for a method call `obj.Name(...)`: the method's name, after the `.`
    /// that follows the object.
    pub(crate) fn method_name_span(&self, obj: ExprId, e: ExprId) -> Option<hlslc_frontend::Span> {
        let call = self.expr_span(e)?;
        match self.expr_span(obj) {
            Some(o) if o.file == call.file && o.end < call.end => Some(hlslc_frontend::Span::new(call.file, o.end + 1, call.end)),
            _ => Some(call),
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
}

/// Intrinsics DXC reports as having no Vulkan equivalent, by their HLSL name.
fn no_vulkan_equivalent(op: I) -> Option<&'static str> {
    Some(match op {
        I::Abort => "abort",
        I::GetRenderTargetSampleCount => "GetRenderTargetSampleCount",
        I::GetRenderTargetSamplePosition => "GetRenderTargetSamplePosition",
        I::DxIsDebuggingEnabled => "IsDebuggingEnabled",
        _ => return None,
    })
}
