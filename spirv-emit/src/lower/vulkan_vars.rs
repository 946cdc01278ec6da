//! Push constants and specialization constants (SPIR-V.rst, "Push constants" and
//! "Specialization constants").
//!
//! - `[[vk::push_constant]] S pcs;` is a `PushConstant` variable of a `Block` struct named
//!   `type.PushConstant.S`; `[[vk::push_constant]] ConstantBuffer<S> pcs;` one of the buffer's own
//!   `type.ConstantBuffer.S`. Both are laid out with the storage-buffer rules (DXC's
//!   `sBufferLayoutRule`: std430, or the `-fvk-use-*-layout` choice) and take no descriptor.
//! - `[[vk::image_format("rgba8")]]` on a storage image or texel buffer sets the format of its
//!   image type. The image type follows the HLSL type everywhere (parameters, locals), so every
//!   global variable of that type must name the same format; otherwise the shader is refused.
//! - `[[vk::constant_id(N)]] const T x = c;` is `OpSpecConstant{True,False,}` decorated `SpecId N`;
//!   its uses read the constant. A splat of one is an `OpSpecConstantComposite`; the initializer
//!   of a `static` global made of specialization constants is an `OpSpecConstantOp` (DXC's
//!   "spec constant mode"), so that it follows the values the pipeline sets.

use super::layout::Layout;
use super::{Lowerer, VarHome, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_frontend::ast::BinaryOp;
use hlslc_sema::tast::{AttrArg, CastKind, ConstValue, ExprId, ExprKind, VarId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use spirv::{Decoration as D, ImageFormat, Op, StorageClass};

impl<'m> Lowerer<'m> {
    /// Reads `[[vk::image_format]]` of every global into [`Lowerer::image_formats`] (by the
    /// image's HLSL type), refusing a type whose variables disagree.
    pub(crate) fn collect_image_formats(&mut self) -> R<()> {
        let m = self.m;
        let mut seen: Vec<(TypeId, Option<ImageFormat>, hlslc_frontend::Span)> = Vec::new();
        for &g in &m.globals {
            let var = m.var(g);
            let mut t = var.ty;
            while let Type::Array { elem, .. } = m.types.get(t) {
                t = *elem;
            }
            if !matches!(m.types.get(t), Type::Object { .. }) {
                continue;
            }
            let attr = var.attrs.iter().find(|a| a.namespace.as_deref() == Some("vk") && a.name == "image_format");
            let format = match attr.map(|a| a.args.first()) {
                None => None,
                Some(Some(AttrArg::Str(s))) => match image_format(s) {
                    Some(f) => Some(f),
                    None => return Err(self.spec_error(&format!("unknown image format '{s}' in vk::image_format"), var.span)),
                },
                Some(_) => return Err(self.spec_error("vk::image_format takes a format name string", var.span)),
            };
            // dxc checks a resource variable (not an array of them) against the format table of
            // the Vulkan spec: float formats take float, `i` formats int, `ui` formats uint, the
            // 64-bit ones int64_t/uint64_t (vector lengths aside).
            if let (Some(f), Type::Object { kind, elem: Some(el), .. }) = (format, m.types.get(var.ty)) {
                if super::resources::image_shape(*kind).is_some() && !format_takes(f, m.types.component(*el)) {
                    return Err(self.spec_error(
                        "The image format and the sampled type are not compatible.\nFor the table of compatible types, see https://docs.vulkan.org/spec/latest/appendices/spirvenv.html#spirvenv-format-type-matching.",
                        var.span,
                    ));
                }
            }
            if let Some(&(_, other, _)) = seen.iter().find(|(st, ..)| *st == t) {
                if other != format && (other.is_some() || format.is_some()) {
                    let msg = format!(
                        "attribute 'vk::image_format' is not supported by the SPIR-V back end when variables of the same type ('{}') have different formats",
                        self.type_name(t)
                    );
                    return Err(self.spec_error(&msg, var.span));
                }
            } else {
                seen.push((t, format, var.span));
            }
            if let Some(f) = format {
                self.image_formats.insert(t, f);
            }
        }
        Ok(())
    }

    /// The push-constant variable of global `g` (a struct or a `ConstantBuffer<S>`).
    pub(crate) fn declare_push_constant(&mut self, g: VarId) -> R<()> {
        let var = self.m.var(g);
        let block = match self.m.types.get(var.ty).clone() {
            Type::Object { kind: ObjectKind::ConstantBuffer, .. } => self.ty(var.ty, Layout::Std430)?,
            Type::Struct(sid) => {
                let def = self.m.types.structs[sid.0 as usize].clone();
                let tys: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                let mut names: Vec<String> = def.bases.iter().map(|_| String::new()).collect();
                names.extend(def.fields.iter().map(|f| f.name.clone()));
                let short = def.name.rsplit("::").next().unwrap_or(&def.name).to_string();
                let short = if short.starts_with('(') { String::new() } else { short };
                let pins = super::types::struct_pins(&def);
                self.block_struct_pinned(&format!("type.PushConstant.{short}"), &tys, &pins, &names, Layout::Std430, false)?
            }
            _ => return super::unsupported("[[vk::push_constant]] on this type", Some(var.span)),
        };
        let ptr_ty = self.b.ctx.type_pointer(StorageClass::PushConstant, block);
        let id = self.b.global_variable(ptr_ty, StorageClass::PushConstant, None);
        self.global_ids.push(id);
        self.b.ctx.name(id, &var.name);
        self.push_blocks.insert(g, block);
        self.vars.insert(g, VarHome::Ptr { ptr: id, storage: StorageClass::PushConstant, layout: Layout::Std430 });
        Ok(())
    }

    /// The whole value of a push-constant struct `g` (its block type differs from the struct's
    /// laid-out type): loaded and rebuilt member by member in logical form.
    pub(crate) fn load_push_constant_struct(&mut self, g: VarId) -> R<SpvId> {
        let block = self.push_blocks[&g];
        let Some(VarHome::Ptr { ptr, .. }) = self.vars.get(&g).cloned() else {
            return super::unsupported("this push constant", None);
        };
        let whole = self.b.load(block, ptr, None)?;
        let ty = self.m.var(g).ty;
        self.block_to_logical(whole, ty, Layout::Std430)
    }

    /// Whether `g` is a push-constant struct (not a `ConstantBuffer`).
    pub(crate) fn is_push_constant_struct(&self, g: VarId) -> bool {
        self.push_blocks.contains_key(&g) && matches!(self.m.types.get(self.m.var(g).ty), Type::Struct(_))
    }

    /// A laid-out struct value (a buffer block) rebuilt as the logical value of struct `ty`.
    pub(crate) fn block_to_logical(&mut self, v: SpvId, ty: TypeId, layout: Layout) -> R<SpvId> {
        let Type::Struct(sid) = self.m.types.get(ty).clone() else {
            return super::unsupported("a buffer of a non-struct type", None);
        };
        let def = self.m.types.structs[sid.0 as usize].clone();
        let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
        let mut parts = Vec::new();
        for (i, mt) in members.into_iter().enumerate() {
            let lt = self.ty(mt, layout)?;
            let x = self.b.composite_extract(lt, v, &[i as u32])?;
            parts.push(self.convert_layout(x, mt, layout, Layout::Logical)?);
        }
        let tyid = self.ty(ty, Layout::Logical)?;
        Ok(self.b.composite_construct(tyid, &parts)?)
    }

    /// The layout of the buffer expression `e` (a `ConstantBuffer` is std140 unless it is the
    /// push-constant block).
    pub(crate) fn buffer_layout(&self, e: ExprId, kind: ObjectKind) -> Layout {
        if kind == ObjectKind::TextureBuffer {
            return Layout::Std430;
        }
        match self.m.expr(e).kind {
            ExprKind::Var(v) if self.push_blocks.contains_key(&v) => Layout::Std430,
            _ => Layout::Std140,
        }
    }

    /// The specialization constant of global `g`: its default is the folded initializer.
    pub(crate) fn declare_spec_constant(&mut self, g: VarId, spec_id: u32) -> R<()> {
        let var = self.m.var(g);
        let Type::Scalar(k) = self.m.types.get(var.ty).clone() else {
            return Err(self.spec_error("unsupported specialization constant type", var.span));
        };
        let Some(value) = var.init.and_then(|i| self.flat_constant(i)).and_then(|v| v.first().copied()) else {
            let span = var.init.and_then(|i| self.expr_span(i)).unwrap_or(var.span);
            return Err(self.spec_error("unsupported specialization constant initializer", span));
        };
        let id = if k.is_bool() {
            let b = match value {
                ConstValue::Bool(b) => b,
                ConstValue::Int(i) => i != 0,
                ConstValue::Float(f) => f != 0.0,
            };
            self.b.ctx.spec_const_bool(b)
        } else {
            let ty = self.scalar_ty(k, Layout::Logical);
            self.b.ctx.spec_const_scalar(ty, super::expr::scalar_bits(k, value))?
        };
        self.b.ctx.name(id, &var.name);
        self.b.ctx.decorate(id, &Decoration::with_literals(D::SpecId, &[spec_id]));
        self.vars.insert(g, VarHome::Value(id));
        Ok(())
    }

    fn spec_error(&self, msg: &str, span: hlslc_frontend::Span) -> super::LowerError {
        super::LowerError { fatal: false, message: msg.to_string(), span: Some(span), notes: Vec::new() }
    }

    /// Whether `e` reads a specialization constant (and nothing that is not constant).
    fn is_spec_expr(&self, e: ExprId) -> bool {
        match &self.m.expr(e).kind {
            ExprKind::Var(v) => matches!(self.vars.get(v), Some(VarHome::Value(_))),
            ExprKind::Cast { expr, .. } => self.is_spec_expr(*expr),
            ExprKind::Binary { lhs, rhs, .. } => {
                (self.is_spec_expr(*lhs) || self.flat_constant(*lhs).is_some())
                    && (self.is_spec_expr(*rhs) || self.flat_constant(*rhs).is_some())
                    && (self.is_spec_expr(*lhs) || self.is_spec_expr(*rhs))
            }
            _ => false,
        }
    }

    /// `e` as a specialization-constant instruction, where DXC makes one: a splat of a
    /// specialization constant anywhere, and integer/boolean operators on them in the
    /// initializer of a static global (`spec_mode`). `None` when `e` is not such an expression.
    pub(crate) fn spec_expr(&mut self, e: ExprId) -> R<Option<SpvId>> {
        if !self.has_spec_constants || !self.is_spec_expr(e) {
            return Ok(None);
        }
        let expr = self.m.expr(e);
        let ty = expr.ty;
        match &expr.kind {
            ExprKind::Var(v) => match self.vars.get(v) {
                Some(VarHome::Value(id)) => Ok(Some(*id)),
                _ => Ok(None),
            },
            ExprKind::Cast { kind: CastKind::Splat, expr: inner, .. } => {
                let Some(s) = self.spec_expr(*inner)? else { return Ok(None) };
                let Some(shape) = self.shape(ty) else { return Ok(None) };
                if shape.is_matrix() {
                    return Ok(None);
                }
                let tyid = self.ty(ty, Layout::Logical)?;
                Ok(Some(self.b.ctx.spec_const_composite(tyid, &vec![s; shape.count() as usize])))
            }
            ExprKind::Cast { kind: CastKind::NoOp, expr: inner, .. } => self.spec_expr(*inner),
            ExprKind::Binary { op, lhs, rhs } if self.spec_mode => {
                let (lhs, rhs, op) = (*lhs, *rhs, *op);
                let Some(k) = self.scalar_kind(self.m.expr(lhs).ty) else { return Ok(None) };
                let Some(sop) = spec_op(op, k) else { return Ok(None) };
                let a = self.spec_operand(lhs)?;
                let b = self.spec_operand(rhs)?;
                let tyid = self.ty(ty, Layout::Logical)?;
                Ok(Some(self.b.ctx.spec_const_op(tyid, sop, &[a, b])))
            }
            _ => Ok(None),
        }
    }

    fn spec_operand(&mut self, e: ExprId) -> R<SpvId> {
        match self.spec_expr(e)? {
            Some(v) => Ok(v),
            None => self.rvalue(e),
        }
    }

    fn scalar_kind(&self, t: TypeId) -> Option<ScalarKind> {
        match self.m.types.get(t) {
            Type::Scalar(k) => Some(*k),
            _ => None,
        }
    }
}

/// The opcode `OpSpecConstantOp` takes for a scalar binary operator on `k` operands in a shader
/// (integer and boolean operations only: float ones need the `Kernel` capability).
fn spec_op(op: BinaryOp, k: ScalarKind) -> Option<Op> {
    use BinaryOp as B;
    if k.is_float() {
        return None;
    }
    let signed = k.is_signed_int();
    Some(match (op, k.is_bool()) {
        (B::LogAnd, true) => Op::LogicalAnd,
        (B::LogOr, true) => Op::LogicalOr,
        (B::Eq, true) => Op::LogicalEqual,
        (B::Ne, true) => Op::LogicalNotEqual,
        (_, true) => return None,
        (B::Add, _) => Op::IAdd,
        (B::Sub, _) => Op::ISub,
        (B::Mul, _) => Op::IMul,
        (B::Div, _) => if signed { Op::SDiv } else { Op::UDiv },
        (B::Rem, _) => if signed { Op::SRem } else { Op::UMod },
        (B::BitAnd, _) => Op::BitwiseAnd,
        (B::BitOr, _) => Op::BitwiseOr,
        (B::BitXor, _) => Op::BitwiseXor,
        (B::Eq, _) => Op::IEqual,
        (B::Ne, _) => Op::INotEqual,
        (B::Lt, _) => if signed { Op::SLessThan } else { Op::ULessThan },
        (B::Le, _) => if signed { Op::SLessThanEqual } else { Op::ULessThanEqual },
        (B::Gt, _) => if signed { Op::SGreaterThan } else { Op::UGreaterThan },
        (B::Ge, _) => if signed { Op::SGreaterThanEqual } else { Op::UGreaterThanEqual },
        _ => return None,
    })
}

/// DXC's `vk::image_format` names.
/// Whether an image of format `f` may have components of kind `k` (the Vulkan spec's "Format
/// and Type Matching", as dxc's `areFormatAndTypeCompatible` applies it).
fn format_takes(f: ImageFormat, k: Option<ScalarKind>) -> bool {
    use ImageFormat as F;
    let Some(k) = k else { return false };
    match f {
        F::Unknown => true,
        F::Rgba32f | F::Rg32f | F::R32f | F::Rgba16f | F::Rg16f | F::R16f | F::Rgba16 | F::Rg16 | F::R16 | F::Rgba16Snorm
        | F::Rg16Snorm | F::R16Snorm | F::Rgb10A2 | F::R11fG11fB10f | F::Rgba8 | F::Rg8 | F::R8 | F::Rgba8Snorm | F::Rg8Snorm
        | F::R8Snorm => k == ScalarKind::Float,
        F::Rgba32i | F::Rg32i | F::R32i | F::Rgba16i | F::Rg16i | F::R16i | F::Rgba8i | F::Rg8i | F::R8i => k == ScalarKind::Int,
        F::Rgba32ui | F::Rg32ui | F::R32ui | F::Rgba16ui | F::Rg16ui | F::R16ui | F::Rgb10a2ui | F::Rgba8ui | F::Rg8ui
        | F::R8ui => k == ScalarKind::UInt,
        F::R64i => k == ScalarKind::Int64,
        F::R64ui => k == ScalarKind::UInt64,
    }
}

fn image_format(s: &str) -> Option<ImageFormat> {
    use ImageFormat as F;
    Some(match s {
        "unknown" => F::Unknown,
        "rgba32f" => F::Rgba32f,
        "rgba16f" => F::Rgba16f,
        "r32f" => F::R32f,
        "rgba8" => F::Rgba8,
        "rgba8snorm" => F::Rgba8Snorm,
        "rg32f" => F::Rg32f,
        "rg16f" => F::Rg16f,
        "r11g11b10f" => F::R11fG11fB10f,
        "r16f" => F::R16f,
        "rgba16" => F::Rgba16,
        "rgb10a2" => F::Rgb10A2,
        "rg16" => F::Rg16,
        "rg8" => F::Rg8,
        "r16" => F::R16,
        "r8" => F::R8,
        "rgba16snorm" => F::Rgba16Snorm,
        "rg16snorm" => F::Rg16Snorm,
        "rg8snorm" => F::Rg8Snorm,
        "r16snorm" => F::R16Snorm,
        "r8snorm" => F::R8Snorm,
        "rgba32i" => F::Rgba32i,
        "rgba16i" => F::Rgba16i,
        "rgba8i" => F::Rgba8i,
        "r32i" => F::R32i,
        "rg32i" => F::Rg32i,
        "rg16i" => F::Rg16i,
        "rg8i" => F::Rg8i,
        "r16i" => F::R16i,
        "r8i" => F::R8i,
        "rgba32ui" => F::Rgba32ui,
        "rgba16ui" => F::Rgba16ui,
        "rgba8ui" => F::Rgba8ui,
        "r32ui" => F::R32ui,
        "rgb10a2ui" => F::Rgb10a2ui,
        "rg32ui" => F::Rg32ui,
        "rg16ui" => F::Rg16ui,
        "rg8ui" => F::Rg8ui,
        "r16ui" => F::R16ui,
        "r8ui" => F::R8ui,
        "r64ui" => F::R64ui,
        "r64i" => F::R64i,
        _ => return None,
    })
}
