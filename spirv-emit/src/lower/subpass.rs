//! Vulkan subpass inputs (`[[vk::input_attachment_index(N)]] SubpassInput<T>` and
//! `SubpassInputMS<T>`, SPIR-V.rst "Subpass inputs"): an `OpTypeImage` of dimension
//! `SubpassData` (`type.subpass.image`, sampled 2, format Unknown, multisampled for the MS
//! form) in `UniformConstant` storage, decorated `InputAttachmentIndex N`; `SubpassLoad()` is
//! `OpImageRead` at the constant coordinate `int2(0, 0)` (with `Sample s` for the MS form),
//! whose four components are truncated to `T`. DXC's errors: only in pixel shaders, never
//! `static`, `T` a scalar or vector.

use super::layout::Layout;
use super::{Lowerer, LowerError, R};
use crate::id::SpvId;
use crate::types::{Decoration, ImageType};
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{AttrArg, ExprId, Module, Stage, VarId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{Decoration as D, Dim, ImageFormat, ImageOperands, Op};

/// Whether `t` is a subpass input type.
pub(crate) fn is_subpass(m: &Module, t: TypeId) -> bool {
    matches!(m.types.get(t), Type::Object { kind: ObjectKind::VkSubpassInput | ObjectKind::VkSubpassInputMS, .. })
}

fn error<T>(message: &str, span: Option<hlslc_frontend::Span>) -> R<T> {
    Err(LowerError { fatal: false, message: message.into(), span, notes: Vec::new() })
}

impl<'m> Lowerer<'m> {
    /// `type.subpass.image` for a subpass input of element type `elem`.
    pub(crate) fn subpass_image_ty(&mut self, kind: ObjectKind, elem: Option<TypeId>) -> SpvId {
        let comp = elem.and_then(|e| self.m.types.component(e)).unwrap_or(ScalarKind::Float);
        let sampled_type = self.scalar_ty(comp, Layout::Logical);
        self.b.ctx.type_image(
            ImageType {
                sampled_type,
                dim: Dim::DimSubpassData,
                depth: 2,
                arrayed: false,
                multisampled: kind == ObjectKind::VkSubpassInputMS,
                sampled: 2,
                format: ImageFormat::Unknown,
                access: None,
            },
            Some("type.subpass.image"),
        )
    }

    /// DXC's checks on a subpass input declaration.
    pub(crate) fn check_subpass_decl(&mut self, g: VarId) -> R<()> {
        let var = self.m.var(g);
        let Type::Object { kind: ObjectKind::VkSubpassInput | ObjectKind::VkSubpassInputMS, elem, .. } = self.m.types.get(var.ty) else {
            return Ok(());
        };
        let ok = elem.is_none_or(|e| matches!(self.m.types.get(e), Type::Scalar(_) | Type::Vector(..)));
        if !ok {
            return error("only scalar/vector types allowed as SubpassInput(MS) parameter type", Some(var.span));
        }
        Ok(())
    }

    /// `InputAttachmentIndex N` from `[[vk::input_attachment_index(N)]]`.
    pub(crate) fn decorate_input_attachment(&mut self, g: VarId, id: SpvId) {
        let var = self.m.var(g);
        let index = var.attrs.iter().find(|a| a.namespace.as_deref() == Some("vk") && a.name == "input_attachment_index").and_then(|a| match a.args.first() {
            Some(AttrArg::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        });
        if let Some(n) = index {
            self.b.ctx.decorate(id, &Decoration::with_literals(D::InputAttachmentIndex, &[n]));
        }
    }

    /// `SubpassLoad()` / `SubpassLoad(sample)`.
    pub(crate) fn subpass_intrinsic(&mut self, op: I, object: Option<ExprId>, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        if !matches!(op, I::MethodSubpassLoad) {
            return Ok(None);
        }
        let Some(obj) = object else { return Ok(None) };
        if self.stage != Some(Stage::Pixel) {
            return error("SubpassInput(MS) only allowed in pixel shader", self.expr_span(e));
        }
        let image = self.rvalue(obj)?;
        let int = self.b.ctx.type_i32();
        let v2int = self.b.ctx.type_vector(int, 2);
        let zero = self.b.ctx.const_i32(0);
        let coord = self.b.ctx.const_composite(v2int, &[zero, zero]);
        let comp = self.m.types.component(ty).unwrap_or(ScalarKind::Float);
        let v4 = self.vector_ty(comp, 4, Layout::Logical);
        let mut ops = vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)];
        if let Some(&s) = args.first() {
            let s = self.rvalue(s)?;
            ops.push(Operand::ImageOperands(ImageOperands::SAMPLE));
            ops.push(Operand::IdRef(s.0));
        } else {
            ops.push(Operand::ImageOperands(ImageOperands::NONE));
        }
        let texel = self.b.value(Op::ImageRead, v4, ops)?;
        Ok(Some(self.narrow_vec4(texel, comp, ty)?))
    }
}
