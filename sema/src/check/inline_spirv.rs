//! Inline SPIR-V types (SPIR-V.rst, "Inline SPIR-V"): `vk::SpirvType<Opcode, Size, Alignment,
//! Operands...>`, `vk::SpirvOpaqueType<Opcode, Operands...>`, `vk::ext_type<N>` and
//! `vk::ext_result_id<T>`.
//!
//! An operand is a type (its id), `vk::integral_constant<T, V>` (the id of a constant) or
//! `vk::Literal<vk::integral_constant<T, V>>` (the value as a literal word).

use super::Checker;
use crate::tast::AttrSite;
use crate::types::{InlineSpirvType, SpirvOperand, Type, TypeId, TypeTable};
use hlslc_frontend::ast::{TemplateArg, TypeKind, TypeSpec};
use hlslc_frontend::Span;

fn is_requirement(ns: Option<&str>, name: &str) -> bool {
    ns == Some("vk") && matches!(name, "ext_capability" | "ext_extension")
}

impl Checker<'_> {
    /// A typedef of an inline SPIR-V type with `[[vk::ext_capability]]`/`[[vk::ext_extension]]`:
    /// recorded on the type for the SPIR-V emitter, which declares them when the type is used;
    /// their uses (recorded from `first_use`) move to [`AttrSite::InlineTypedef`], where the
    /// attribute table honors them. On a typedef of any other type they stay refused.
    pub(crate) fn inline_type_requirements(&mut self, t: &hlslc_frontend::ast::TypedefDecl, ty: TypeId, first_use: usize) {
        if !matches!(self.m.types.get(ty), Type::InlineSpirv(_)) {
            return;
        }
        if self.record_type_requirements(ty, &t.attrs) {
            for u in &mut self.m.attr_uses[first_use..] {
                if u.site == AttrSite::Typedef && is_requirement(u.namespace.as_deref(), &u.name) {
                    u.site = AttrSite::InlineTypedef;
                }
            }
        }
    }

    /// The `[[vk::ext_capability]]`/`[[vk::ext_extension]]` attributes among `attrs` (of a
    /// typedef of `ty`, or of a field of struct `ty`), recorded in the module's
    /// `type_requirements`; whether there were any.
    pub(crate) fn record_type_requirements(&mut self, ty: TypeId, attrs: &[hlslc_frontend::ast::Attribute]) -> bool {
        let reqs: Vec<_> =
            attrs.iter().filter(|a| is_requirement(a.namespace.as_ref().map(|n| n.name.as_str()), &a.name.name)).cloned().collect();
        if reqs.is_empty() {
            return false;
        }
        let raw = self.raw_attrs(&reqs);
        match self.m.type_requirements.iter_mut().find(|(t, _)| *t == ty) {
            Some((_, list)) => list.extend(raw),
            None => self.m.type_requirements.push((ty, raw)),
        }
        true
    }

    /// The type `name<args>` names when `name` is one of the inline SPIR-V templates, `None`
    /// when it is not one of them.
    pub(crate) fn inline_spirv_type(&mut self, name: &str, args: Option<&[TemplateArg]>, ts: &TypeSpec) -> Option<TypeId> {
        let opaque = match name {
            "vk::SpirvType" => false,
            "vk::SpirvOpaqueType" => true,
            "vk::ext_type" => return Some(self.ext_type(args, ts)),
            "vk::ext_result_id" => return Some(self.ext_result_id(args, ts)),
            _ => return None,
        };
        let args = args.unwrap_or(&[]);
        let fixed = if opaque { 1 } else { 3 };
        if args.len() < fixed {
            let what = if opaque { "an opcode" } else { "an opcode, a size and an alignment" };
            self.error(ts.span, format!("'{name}' requires {what} as its first template arguments"));
            return Some(TypeTable::ERROR);
        }
        let mut words = Vec::new();
        for a in &args[..fixed] {
            match self.word_arg(a) {
                Some(w) => words.push(w),
                None => return Some(TypeTable::ERROR),
            }
        }
        let mut operands = Vec::new();
        for a in &args[fixed..] {
            match self.spirv_operand(a) {
                Some(op) => operands.push(op),
                None => return Some(TypeTable::ERROR),
            }
        }
        let size_align = (!opaque).then(|| (words[1], words[2]));
        if let Some((_, align)) = size_align {
            if align == 0 || !align.is_power_of_two() {
                self.error(ts.span, format!("alignment of '{name}' must be a power of two ({align} given)"));
                return Some(TypeTable::ERROR);
            }
        }
        let t = InlineSpirvType::Inline { opcode: words[0], size_align, operands };
        Some(self.m.types.intern(Type::InlineSpirv(t)))
    }

    /// `vk::ext_type<N>`: the type defined by a call of the `[[vk::ext_type_def(N, ...)]]` function.
    fn ext_type(&mut self, args: Option<&[TemplateArg]>, ts: &TypeSpec) -> TypeId {
        match args {
            Some([a]) => match self.word_arg(a) {
                Some(n) => self.m.types.intern(Type::InlineSpirv(InlineSpirvType::Def(n))),
                None => TypeTable::ERROR,
            },
            _ => {
                self.error(ts.span, "'vk::ext_type' takes one template argument, the id of its type definition");
                TypeTable::ERROR
            }
        }
    }

    /// `vk::ext_result_id<T>`: a value of type `T` that an inline instruction produced or takes
    /// as an id. It holds the value itself, so it is `T`.
    fn ext_result_id(&mut self, args: Option<&[TemplateArg]>, ts: &TypeSpec) -> TypeId {
        match args {
            Some([a]) => self.type_arg(a).unwrap_or(TypeTable::ERROR),
            _ => {
                self.error(ts.span, "'vk::ext_result_id' takes one template argument, a type");
                TypeTable::ERROR
            }
        }
    }

    /// A template argument that must be a non-negative integer constant fitting one word.
    fn word_arg(&mut self, a: &TemplateArg) -> Option<u32> {
        let span = arg_span(a);
        let n = self.count_arg(a)?;
        match u32::try_from(n) {
            Ok(w) => Some(w),
            Err(_) => {
                self.error(span, format!("inline SPIR-V argument {n} does not fit in a 32-bit word"));
                None
            }
        }
    }

    fn spirv_operand(&mut self, a: &TemplateArg) -> Option<SpirvOperand> {
        if let TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } = a {
            if let TypeKind::Named { path, args } = &t.kind {
                match path.joined().as_str() {
                    "vk::integral_constant" => {
                        let (ty, value) = self.integral_constant(args.as_deref(), t.span)?;
                        return Some(SpirvOperand::Constant { ty, value });
                    }
                    "vk::Literal" => {
                        let inner = match args.as_deref() {
                            Some([TemplateArg::Type(i)]) => match &i.kind {
                                TypeKind::Named { path, args } if path.joined() == "vk::integral_constant" => Some((args, i.span)),
                                _ => None,
                            },
                            _ => None,
                        };
                        let Some((args, span)) = inner else {
                            self.error(t.span, "The template argument to vk::Literal must be a vk::integral_constant");
                            return None;
                        };
                        let (_, value) = self.integral_constant(args.as_deref(), span)?;
                        return Some(SpirvOperand::Literal(value));
                    }
                    _ => {}
                }
            }
        }
        if let TemplateArg::Expr(e) = a {
            if !matches!(e.kind, hlslc_frontend::ast::ExprKind::Name(_)) {
                self.error(e.span, "an inline SPIR-V operand must be a type, a vk::integral_constant or a vk::Literal");
                return None;
            }
        }
        let t = self.type_arg(a)?;
        (!self.m.types.is_error(t)).then_some(SpirvOperand::Type(t))
    }

    /// `vk::integral_constant<T, V>`: `T` a scalar type, `V` a constant of it.
    fn integral_constant(&mut self, args: Option<&[TemplateArg]>, span: Span) -> Option<(TypeId, i64)> {
        let Some([ty, value]) = args else {
            self.error(span, "'vk::integral_constant' takes two template arguments, a type and a value");
            return None;
        };
        let ty = self.type_arg(ty)?;
        match self.m.types.get(ty) {
            Type::Scalar(k) if !k.is_float() => {}
            Type::Error => return None,
            _ => {
                let n = self.type_name(ty);
                self.error(span, format!("the type of a vk::integral_constant must be an integer or bool type ('{n}' given)"));
                return None;
            }
        }
        let value = self.count_arg(value)?;
        Some((ty, value))
    }
}

fn arg_span(a: &TemplateArg) -> Span {
    match a {
        TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => t.span,
        TemplateArg::Expr(e) => e.span,
    }
}
