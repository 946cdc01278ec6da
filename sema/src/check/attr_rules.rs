//! Attributes against the attribute table ([`crate::attrs`]): dxc's warnings for unknown
//! attributes and for `vk::` attributes outside SPIR-V, the placement rules of the Vulkan
//! attributes dxc checks in its front end, and the rules of push constants and specialization
//! constants. Every known attribute is recorded in [`crate::tast::Module::attr_uses`] for the
//! emitters.

use super::Checker;
use crate::attrs;
use crate::tast::{AttrSite, AttrUse, ConstValue, ExprId};
use crate::types::{ObjectKind, ScalarKind, Type, TypeId};
use hlslc_frontend::ast::{self, Attribute, Modifier};
use hlslc_frontend::diag::{Diagnostic, Severity};
use hlslc_frontend::Span;

impl Checker<'_> {
    /// Checks the attributes written at `site` and records the known ones.
    pub(crate) fn vet_attrs(&mut self, attrs: &[Attribute], site: AttrSite) {
        for a in attrs {
            // A template body is checked once per instance: judge each attribute once.
            if !self.vetted.insert(a.name.span) {
                continue;
            }
            let ns = a.namespace.as_ref().map(|n| n.name.as_str());
            let name = a.name.name.as_str();
            let Some(_) = attrs::lookup(ns, name) else {
                self.warning(a.name.span, format!("unknown attribute '{name}' ignored"));
                continue;
            };
            if ns.is_none() && name.eq_ignore_ascii_case("wavesize") && self.opts.spirv {
                self.warning(a.name.span, "Wave size is not supported by Vulkan SPIR-V. Consider using VK_EXT_subgroup_size_control.");
            }
            if ns == Some("vk") {
                if !self.opts.spirv {
                    self.warning(a.name.span, format!("'{name}' attribute ignored"));
                    continue;
                }
                self.vk_placement(a, site);
            }
            self.m.attr_uses.push(AttrUse { namespace: ns.map(str::to_string), name: name.to_string(), site, span: attr_start(a), owner: None });
        }
    }

    /// The attributes recorded since `first` (on a function and its parameters) belong to `f`.
    pub(crate) fn own_attr_uses(&mut self, first: usize, f: crate::tast::FuncId) {
        for u in &mut self.m.attr_uses[first..] {
            u.owner = Some(f);
        }
    }

    /// dxc's front-end checks of where a `vk::` attribute may be written.
    fn vk_placement(&mut self, a: &Attribute, site: AttrSite) {
        let name = a.name.name.as_str();
        let no_args = matches!(name, "push_constant" | "shader_record_nv" | "shader_record_ext" | "post_depth_coverage" | "early_and_late_tests");
        if no_args && !a.args.is_empty() {
            self.error(attr_start(a), format!("'{name}' attribute takes no arguments"));
        }
        let misplaced = match name {
            "binding" => !matches!(site, AttrSite::GlobalVar | AttrSite::CBuffer),
            "push_constant" => site != AttrSite::GlobalVar,
            "shader_record_nv" | "shader_record_ext" => !matches!(site, AttrSite::GlobalVar | AttrSite::CBuffer),
            _ => false,
        };
        if misplaced {
            let what = match name {
                "binding" => "global variables, cbuffers, and tbuffers",
                "push_constant" => "global variables of struct type",
                _ => "cbuffer or ConstantBuffer",
            };
            self.error(attr_start(a), format!("'{name}' attribute only applies to {what}"));
        }
    }

    /// The span of the `[[vk::name]]` attribute among `attrs`.
    fn vk_attr_span(attrs: &[Attribute], name: &str) -> Option<Span> {
        attrs.iter().find(|a| a.namespace.as_ref().is_some_and(|n| n.name == "vk") && a.name.name == name).map(attr_start)
    }

    /// `[[vk::push_constant]]` on a global: a struct or `ConstantBuffer<T>`, without
    /// `vk::binding`, at most one in the program (dxc's messages).
    pub(crate) fn check_push_constant(&mut self, v: &ast::VarDecl, ty: TypeId) {
        if !self.opts.spirv {
            return;
        }
        let Some(at) = Self::vk_attr_span(&v.attrs, "push_constant") else { return };
        if matches!(self.m.types.get(ty), Type::Object { kind: ObjectKind::VkBufferPointer, .. }) {
            // A push constant holds the pointer in a struct member instead.
            self.error(at, "vk::push_constant attribute cannot be used on declarations with vk::BufferPointer type");
            return;
        }
        let ok = match self.m.types.get(ty) {
            Type::Struct(_) => true,
            Type::Object { kind: ObjectKind::ConstantBuffer, .. } => true,
            Type::Error => true,
            _ => false,
        };
        if !ok || v.modifiers.iter().any(|m| m.modifier == Modifier::Static || m.modifier == Modifier::Groupshared) {
            self.error(at, "'push_constant' attribute only applies to global variables of struct type");
            return;
        }
        if Self::vk_attr_span(&v.attrs, "binding").is_some() {
            self.error(at, "vk::push_constant attribute cannot be used together with vk::binding attribute");
            return;
        }
        match self.push_constant_at {
            Some(first) => {
                self.error(at, "cannot have more than one push constant block");
                self.diags.push(Diagnostic::new(Severity::Note, "push constant block previously defined here").at(first));
            }
            None => self.push_constant_at = Some(at),
        }
    }

    /// A global that lands in `$Globals` (a plain uniform: not a resource, push constant or
    /// specialization constant), compiling to SPIR-V: its initializer is ignored (dxc's warning)
    /// and it has no binding of its own, so `[[vk::binding]]` on it is dxc's error.
    pub(crate) fn check_globals_member(&mut self, v: &ast::VarDecl, d: &ast::Declarator, ty: TypeId, init: Option<ExprId>, spec: bool) {
        if !self.opts.spirv || spec || self.in_cbuffer || Self::vk_attr_span(&v.attrs, "push_constant").is_some() {
            return;
        }
        if self.m.types.contains_object(ty) || matches!(self.m.types.get(ty), Type::String | Type::Error) {
            return;
        }
        let name = &d.name.name;
        if let (Some(_), Some(e)) = (init, d.init.as_ref()) {
            // dxc's `-Wvk-ignored-features` group (`-Wno-vk-ignored-features` silences it).
            self.diags.push(
                hlslc_frontend::Diagnostic::warning(format!("variable '{name}' will be placed in $Globals so initializer ignored"))
                    .with_code("-Wvk-ignored-features")
                    .at(e.span),
            );
        }
        if let Some(at) = Self::vk_attr_span(&v.attrs, "binding") {
            self.error(at, format!("variable '{name}' will be placed in $Globals so cannot have vk::binding attribute"));
        }
    }

    /// `[[vk::constant_id(N)]]`: a non-static global of scalar bool, integer or float type with a
    /// constant initializer (dxc's messages). Returns whether the variable is a specialization
    /// constant.
    pub(crate) fn check_spec_constant(&mut self, v: &ast::VarDecl, d: &ast::Declarator, ty: TypeId, init: Option<ExprId>) -> bool {
        if !self.opts.spirv || Self::vk_attr_span(&v.attrs, "constant_id").is_none() {
            return false;
        }
        if v.modifiers.iter().any(|m| m.modifier == Modifier::Static) {
            self.error(d.name.span, "specialization constant must be externally visible");
            return false;
        }
        let scalar_ok = matches!(
            self.m.types.get(ty),
            Type::Scalar(
                ScalarKind::Bool
                    | ScalarKind::Int
                    | ScalarKind::UInt
                    | ScalarKind::Float
                    | ScalarKind::Half
                    | ScalarKind::Int16
                    | ScalarKind::UInt16
                    | ScalarKind::Min16Float
                    | ScalarKind::Min16Int
                    | ScalarKind::Min16UInt
            )
        );
        if !scalar_ok {
            let start = v.modifiers.first().map_or(v.ty.span, |m| m.span);
            self.error(start, "unsupported specialization constant type");
            return false;
        }
        let Some(init) = init else {
            self.error(d.name.span, "missing default value for specialization constant");
            return false;
        };
        if !matches!(self.const_value(init), Some(ConstValue::Bool(_) | ConstValue::Int(_) | ConstValue::Float(_))) {
            let span = d.init.as_ref().map_or(d.name.span, |e| e.span);
            self.error(span, "unsupported specialization constant initializer");
            return false;
        }
        true
    }
}

/// Where dxc points at an attribute: its namespace (`vk` of `vk::binding`), else its name.
fn attr_start(a: &Attribute) -> Span {
    a.namespace.as_ref().map_or(a.name.span, |n| n.span)
}
