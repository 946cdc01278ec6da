//! Declarations: global and local variables, functions and methods, structs, cbuffers,
//! typedefs, enums, namespaces, `#pragma pack_matrix`, and the entry point.

use super::{Checker, FnCtx, Symbol};
use crate::tast::{
    AttrArg, AttrSite, Binding, CBuffer, CBufferId, ConstValue, EntryPoint, Function, Interpolation, ParamDir, RawAttr, Stage,
    Storage, Var, VarId,
};
use crate::types::{Field, MatrixLayout, ObjectKind, ResourceClass, ScalarKind, StructDef, Type, TypeId, TypeTable};
use hlslc_frontend::ast::{self, Annotation, Attribute, Decl, Modifier, ModifierAt};
use hlslc_frontend::Span;

fn has(mods: &[ModifierAt], m: Modifier) -> bool {
    mods.iter().any(|x| x.modifier == m)
}

fn interpolation(mods: &[ModifierAt]) -> Interpolation {
    Interpolation {
        nointerpolation: has(mods, Modifier::NoInterpolation),
        linear: has(mods, Modifier::Linear),
        noperspective: has(mods, Modifier::NoPerspective),
        centroid: has(mods, Modifier::Centroid),
        sample: has(mods, Modifier::Sample),
        per_vertex: false,
    }
}

fn semantic(anns: &[Annotation]) -> Option<crate::entry::Semantic> {
    anns.iter().find_map(|a| match a {
        Annotation::Semantic(id) => Some(crate::entry::Semantic::parse(&id.name)),
        _ => None,
    })
}

/// Splits `t3` into ('t', 3).
fn parse_register(s: &str) -> Option<(char, u32)> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    // A register type alone (`register(ps, s)`) is register 0 of that type.
    let num: u32 = if chars.as_str().is_empty() && "bcistu".contains(letter) { 0 } else { chars.as_str().parse().ok()? };
    Some((letter, num))
}

impl Checker<'_> {
    /// Built-in named constants: ray flags, hit kinds, ray query statuses, Vulkan scopes.
    fn declare_builtin_constants(&mut self) {
        let u = self.m.types.uint();
        const CONSTS: &[(&str, i64)] = &[
            ("RAY_FLAG_NONE", 0),
            ("RAY_FLAG_FORCE_OPAQUE", 0x1),
            ("RAY_FLAG_FORCE_NON_OPAQUE", 0x2),
            ("RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH", 0x4),
            ("RAY_FLAG_SKIP_CLOSEST_HIT_SHADER", 0x8),
            ("RAY_FLAG_CULL_BACK_FACING_TRIANGLES", 0x10),
            ("RAY_FLAG_CULL_FRONT_FACING_TRIANGLES", 0x20),
            ("RAY_FLAG_CULL_OPAQUE", 0x40),
            ("RAY_FLAG_CULL_NON_OPAQUE", 0x80),
            ("RAY_FLAG_SKIP_TRIANGLES", 0x100),
            ("RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES", 0x200),
            ("RAY_FLAG_FORCE_OPACITY_MICROMAP_2_STATE", 0x400),
            ("HIT_KIND_TRIANGLE_FRONT_FACE", 0xFE),
            ("HIT_KIND_TRIANGLE_BACK_FACE", 0xFF),
            ("COMMITTED_NOTHING", 0),
            ("COMMITTED_TRIANGLE_HIT", 1),
            ("COMMITTED_PROCEDURAL_PRIMITIVE_HIT", 2),
            ("CANDIDATE_NON_OPAQUE_TRIANGLE", 0),
            ("CANDIDATE_PROCEDURAL_PRIMITIVE", 1),
            ("vk::CrossDeviceScope", 0),
            ("vk::DeviceScope", 1),
            ("vk::WorkgroupScope", 2),
            ("vk::SubgroupScope", 3),
            ("vk::InvocationScope", 4),
            ("vk::QueueFamilyScope", 5),
            // Barrier(): MEMORY_TYPE_FLAG and BARRIER_SEMANTIC_FLAG.
            ("UAV_MEMORY", 0x1),
            ("GROUP_SHARED_MEMORY", 0x2),
            ("NODE_INPUT_MEMORY", 0x4),
            ("NODE_OUTPUT_MEMORY", 0x8),
            ("ALL_MEMORY", 0xF),
            ("GROUP_SYNC", 0x1),
            ("GROUP_SCOPE", 0x2),
            ("DEVICE_SCOPE", 0x4),
            ("REORDER_SCOPE", 0x8),
            // FeedbackTexture2D<...> kinds.
            ("SAMPLER_FEEDBACK_MIN_MIP", 0),
            ("SAMPLER_FEEDBACK_MIP_REGION_USED", 1),
            // Subobject flags.
            ("STATE_OBJECT_FLAGS_ALLOW_LOCAL_DEPENDENCIES_ON_EXTERNAL_DEFINITONS", 0x1),
            ("STATE_OBJECT_FLAGS_ALLOW_EXTERNAL_DEPENDENCIES_ON_LOCAL_DEFINITIONS", 0x2),
            ("STATE_OBJECT_FLAGS_ALLOW_STATE_OBJECT_ADDITIONS", 0x4),
            ("RAYTRACING_PIPELINE_FLAG_NONE", 0),
            ("RAYTRACING_PIPELINE_FLAG_SKIP_TRIANGLES", 0x100),
            ("RAYTRACING_PIPELINE_FLAG_SKIP_PROCEDURAL_PRIMITIVES", 0x200),
            ("RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS", 0x400),
        ];
        for (name, v) in CONSTS {
            self.globals.insert((*name).into(), Symbol::Const(u, ConstValue::Int(*v)));
        }
    }

    pub(crate) fn declare_builtin_structs(&mut self) {
        self.declare_builtin_constants();
        let f3 = self.m.types.vector(ScalarKind::Float, 3);
        let f2 = self.m.types.vector(ScalarKind::Float, 2);
        let f = self.m.types.float();
        let field = |name: &str, ty| Field {
            name: name.into(),
            ty,
            semantic: None,
            interpolation: Interpolation::default(),
            precise: false,
            vk: Default::default(),
        };
        let ray = StructDef {
            name: "RayDesc".into(),
            kind: ast::StructKind::Struct,
            bases: vec![],
            fields: vec![field("Origin", f3), field("TMin", f), field("Direction", f3), field("TMax", f)],
            methods: vec![],
            complete: true,
        };
        let (_, t) = self.m.types.add_struct(ray);
        self.globals.insert("RayDesc".into(), Symbol::Type(t));
        let attrs = StructDef {
            name: "BuiltInTriangleIntersectionAttributes".into(),
            kind: ast::StructKind::Struct,
            bases: vec![],
            fields: vec![field("barycentrics", f2)],
            methods: vec![],
            complete: true,
        };
        let (_, t) = self.m.types.add_struct(attrs);
        self.globals.insert("BuiltInTriangleIntersectionAttributes".into(), Symbol::Type(t));
        // What `TriangleObjectPositions()` returns (SM 6.10): the three object-space vertices.
        let positions = StructDef {
            name: "BuiltInTrianglePositions".into(),
            kind: ast::StructKind::Struct,
            bases: vec![],
            fields: vec![field("p0", f3), field("p1", f3), field("p2", f3)],
            methods: vec![],
            complete: true,
        };
        let (_, t) = self.m.types.add_struct(positions);
        self.globals.insert("BuiltInTrianglePositions".into(), Symbol::Type(t));
    }

    pub(crate) fn check_top_decl(&mut self, d: &Decl) {
        match d {
            Decl::Var(v) => {
                self.check_var_decl(v, true);
            }
            Decl::Func(f) => self.check_func(f, None),
            Decl::Struct(s) => {
                self.declare_struct(s);
            }
            Decl::Buffer(b) => self.check_cbuffer(b),
            Decl::Typedef(t) => self.check_typedef(t),
            Decl::Enum(e) => self.check_enum(e),
            Decl::Namespace(n) => {
                self.declare(&n.name.name, Symbol::Namespace, n.name.span);
                self.ns.push(n.name.name.clone());
                for d in &n.decls {
                    self.check_top_decl(d);
                }
                self.ns.pop();
            }
            Decl::Template(t) => self.declare_template(t),
            Decl::Pragma { text, .. } => self.pragma(text),
            Decl::Using { path, namespace, span } => self.check_using(path, *namespace, *span),
            Decl::Empty(_) => {}
            #[allow(unreachable_patterns)]
            other => self.error(other.span(), "unsupported construct"),
        }
    }

    fn pragma(&mut self, text: &str) {
        let t: String = text.split_whitespace().collect::<Vec<_>>().join("");
        if let Some(rest) = t.strip_prefix("pack_matrix(") {
            if rest.starts_with("row_major") {
                self.default_layout = MatrixLayout::RowMajor;
            } else if rest.starts_with("column_major") {
                self.default_layout = MatrixLayout::ColumnMajor;
            }
        }
    }

    /// The Vulkan attributes of a struct field (`vk::location`, `vk::index`, `vk::offset`).
    fn field_vk(&mut self, attrs: &[Attribute]) -> crate::types::FieldVk {
        let mut vk = crate::types::FieldVk::default();
        for a in attrs.iter().filter(|a| a.namespace.as_ref().is_some_and(|n| n.name == "vk")) {
            let raw = self.raw_attrs(std::slice::from_ref(a));
            let at = a.namespace.as_ref().map_or(a.name.span, |ns| ns.span);
            if let (Some(AttrArg::Str(s)), "builtin") = (raw.first().and_then(|r| r.args.first()), a.name.name.as_str()) {
                vk.builtin = Some((s.clone(), at));
                continue;
            }
            let n = match raw.first().and_then(|r| r.args.first()) {
                Some(AttrArg::Int(n)) if *n >= 0 && *n <= u32::MAX as i64 => *n as u32,
                _ => continue,
            };
            match a.name.name.as_str() {
                "location" => vk.location = Some((n, at)),
                "index" => vk.index = Some((n, at)),
                "offset" => vk.offset = Some(n),
                _ => {}
            }
        }
        vk
    }

    /// The specialization constant (`[[vk::constant_id]]` integer global, SPIR-V) that `e` reads,
    /// with its default value.
    pub(crate) fn spec_constant_of(&self, mut e: crate::tast::ExprId) -> Option<(crate::tast::VarId, i64)> {
        while let crate::tast::ExprKind::Cast { expr, .. } = &self.m.expr(e).kind {
            e = *expr;
        }
        let crate::tast::ExprKind::Var(v) = self.m.expr(e).kind else { return None };
        let var = self.m.var(v);
        var.binding.vk_constant_id?;
        if !matches!(self.m.types.get(var.ty), Type::Scalar(k) if k.is_int()) {
            return None;
        }
        match self.const_value(var.init?)? {
            ConstValue::Int(n) => Some((v, n)),
            _ => None,
        }
    }

    /// Folds attribute arguments: strings, bare words, constants.
    pub(crate) fn raw_attrs(&mut self, attrs: &[Attribute]) -> Vec<RawAttr> {
        let mut out = Vec::with_capacity(attrs.len());
        for a in attrs {
            let mut args = Vec::new();
            if a.namespace.is_none() && a.name.name.eq_ignore_ascii_case("clipplanes") {
                args = a.args.iter().map(|e| self.clip_plane_arg(e)).collect();
                out.push(RawAttr { namespace: None, name: a.name.name.clone(), args, span: a.name.span });
                continue;
            }
            for e in &a.args {
                let arg = match &e.kind {
                    ast::ExprKind::StringLit(s) => AttrArg::Str(s.clone()),
                    ast::ExprKind::Name(p)
                        if !matches!(
                            self.lookup(&p.parts.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(), p.global),
                            Some(Symbol::Var(_)) | Some(Symbol::Const(..))
                        ) =>
                    {
                        AttrArg::Word(p.joined())
                    }
                    _ => {
                        let id = self.check_expr(e);
                        match self.const_value(id) {
                            Some(ConstValue::Int(i)) => AttrArg::Int(i),
                            Some(ConstValue::Bool(b)) => AttrArg::Int(b as i64),
                            Some(ConstValue::Float(f)) => AttrArg::Float(f),
                            // Inline SPIR-V attributes take ids too (`vk::ext_decorate_id(46, f())`).
                            None if a.namespace.as_ref().is_some_and(|n| n.name == "vk") && a.name.name.starts_with("ext_") => AttrArg::Expr(id),
                            // A specialization constant as a group size (SPIR-V): the emitter
                            // makes the size `LocalSizeId` of the constant.
                            None if a.namespace.is_none() && a.name.name.eq_ignore_ascii_case("numthreads") && self.spec_constant_of(id).is_some() => {
                                AttrArg::Expr(id)
                            }
                            None => {
                                self.error(e.span, "attribute argument must be a constant");
                                AttrArg::Int(0)
                            }
                        }
                    }
                };
                args.push(arg);
            }
            let span = a.namespace.as_ref().map_or(a.name.span, |ns| ns.span);
            out.push(RawAttr { namespace: a.namespace.as_ref().map(|n| n.name.clone()), name: a.name.name.clone(), args, span });
        }
        out
    }

    fn binding(&mut self, anns: &[Annotation], attrs: &[RawAttr]) -> Binding {
        let mut b = Binding::default();
        let stage_of = |p: &str| p.split('_').next().unwrap_or("").to_ascii_lowercase();
        // (stage, register type) of each `register(...)` seen: a second one for the same stage
        // and type conflicts (dxc), whichever numbers they give.
        let mut seen: Vec<(Option<String>, char)> = Vec::new();
        for a in anns {
            match a {
                Annotation::Register { profile, slot, space, span } => {
                    // Checked whatever the stage (dxc), in dxc's wording.
                    let reg = slot.as_ref().and_then(|s| self.register_slot(&s.name, *span));
                    let sp = space.as_ref().and_then(|sp| self.register_space(&sp.name, *span));
                    if let Some((letter, _)) = reg {
                        let key = (profile.as_ref().map(|p| stage_of(&p.name)), letter);
                        if seen.contains(&key) {
                            self.error(*span, "conflicting register semantics");
                        }
                        seen.push(key);
                    }
                    // `register(vs, t0)` binds only when compiling for that stage.
                    if profile.as_ref().is_some_and(|p| stage_of(&p.name) != stage_of(&self.opts.profile)) {
                        continue;
                    }
                    if let Some(r) = reg {
                        b.register = Some(r);
                        b.register_span = Some(*span);
                    }
                    if let Some(n) = sp {
                        b.space = n;
                        b.space_explicit = true;
                    }
                }
                Annotation::PackOffset { register, component, span } => {
                    // dxc's wording for each way a packoffset can be wrong (SemaHLSL tests).
                    if !self.in_cbuffer {
                        self.error(*span, "packoffset is only allowed in a constant buffer");
                        continue;
                    }
                    let reg = register.name.strip_prefix(['c', 'C']).and_then(|n| n.parse::<u32>().ok());
                    let comp = match component.as_ref().map(|c| c.name.as_str()) {
                        None | Some("x") | Some("r") => Some(0),
                        Some("y") | Some("g") => Some(1),
                        Some("z") | Some("b") => Some(2),
                        Some("w") | Some("a") => Some(3),
                        _ => None,
                    };
                    match (reg, comp) {
                        (Some(r), Some(c)) => {
                            // A later packoffset overrides an earlier different one (dxc warns).
                            if b.packoffset.is_some_and(|p| p != (r, c)) {
                                self.warning(*span, "packoffset is overridden by another packoffset annotation");
                            }
                            b.packoffset = Some((r, c));
                            b.packoffset_span = Some(*span);
                        }
                        (None, _) => self.error(*span, "register type is unsupported - available types are 'b', 'c', 'i', 's', 't', 'u'"),
                        (_, None) => {
                            self.error(*span, "packoffset component should indicate offset with one of x, y, z, w, r, g, b, or a")
                        }
                    }
                }
                _ => {}
            }
        }
        for a in attrs.iter().filter(|a| a.namespace.as_deref() == Some("vk")) {
            let int = |i: usize| match a.args.get(i) {
                Some(AttrArg::Int(n)) => Some(*n as u32),
                _ => None,
            };
            match a.name.as_str() {
                "binding" => b.vk_binding = int(0).map(|n| (n, int(1))),
                "counter_binding" => b.vk_counter_binding = int(0),
                "location" => b.vk_location = int(0),
                "index" => b.vk_index = int(0),
                "builtin" => {
                    if let Some(AttrArg::Str(s)) = a.args.first() {
                        b.vk_builtin = Some((s.clone(), a.span));
                    }
                }
                "push_constant" => b.vk_push_constant = true,
                "shader_record_nv" | "shader_record_ext" => b.vk_shader_record = true,
                "constant_id" => b.vk_constant_id = int(0),
                "combinedImageSampler" => b.vk_combined_image_sampler = true,
                _ => {}
            }
        }
        b
    }

    /// The register of `register(t3)`: ('t', 3). A type other than b, c, i, s, t, u, or a
    /// number that is not a 32-bit one, is an error (dxc's wording).
    fn register_slot(&mut self, name: &str, span: Span) -> Option<(char, u32)> {
        let letter = name.chars().next()?.to_ascii_lowercase();
        if !"bcistu".contains(letter) {
            self.error(span, "register type is unsupported - available types are 'b', 'c', 'i', 's', 't', 'u'");
            return None;
        }
        let r = parse_register(name);
        if r.is_none() {
            self.error(span, "register number should be an integral numeric string");
        }
        r
    }

    /// The number of `spaceN`, or dxc's error.
    fn register_space(&mut self, name: &str, span: Span) -> Option<u32> {
        let Some(digits) = name.strip_prefix("space") else {
            self.error(span, "expected space definition with syntax 'spaceX', where X is an integral value");
            return None;
        };
        let n = digits.parse().ok();
        if n.is_none() {
            self.error(span, "space number should be an integral numeric string");
        }
        n
    }

    /// dxc's register types for a declaration of type `ty` (arrays of it too): a constant
    /// buffer takes `b`, a texture buffer and the other buffer SRVs `t`, a texture `t` (or
    /// `s`), a sampler `s` (or `t`), a UAV `u`; other types are not checked here. Each
    /// `register(...)` of another type is an error ("invalid register specification, expected
    /// 'b' binding").
    pub(crate) fn check_register_types(&mut self, anns: &[Annotation], ty: TypeId) {
        let mut t = ty;
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        let Type::Object { kind, .. } = self.m.types.get(t) else { return };
        let kind = *kind;
        let name = kind.name();
        let texture = name.starts_with("Texture") && kind != ObjectKind::TextureBuffer;
        let allowed = match kind.resource_class() {
            Some(ResourceClass::Cbv) => "b",
            Some(ResourceClass::Sampler) => "st",
            Some(ResourceClass::Uav) => "u",
            Some(ResourceClass::Srv) if texture => "ts",
            Some(ResourceClass::Srv) => "t",
            None => return,
        };
        self.check_register_letters(anns, allowed);
    }

    /// Each `register(...)` of `anns` whose type is not one of `allowed` is an error.
    pub(crate) fn check_register_letters(&mut self, anns: &[Annotation], allowed: &str) {
        let expected = match allowed {
            "st" => "'s' or 't'".to_string(),
            "ts" => "'t' or 's'".to_string(),
            one => format!("'{one}'"),
        };
        for a in anns {
            let Annotation::Register { slot: Some(s), span, .. } = a else { continue };
            let Some(letter) = s.name.chars().next().map(|c| c.to_ascii_lowercase()) else { continue };
            if "bcistu".contains(letter) && !allowed.contains(letter) {
                self.error(*span, format!("invalid register specification, expected {expected} binding"));
            }
        }
    }

    /// A variable declaration at global scope (`global`) or in a function.
    pub(crate) fn check_var_decl(&mut self, v: &ast::VarDecl, global: bool) -> Vec<VarId> {
        // `auto x = e;`: each declarator's type is its initializer's (HLSL 2021).
        let is_auto = matches!(&v.ty.kind, ast::TypeKind::Named { path, args: None } if !path.global && path.parts.len() == 1 && path.parts[0].name == "auto");
        let base = if is_auto { TypeTable::ERROR } else { self.resolve_type_mods(&v.ty, &v.modifiers) };
        let attrs = self.raw_attrs(&v.attrs);
        self.vet_attrs(&v.attrs, if global { AttrSite::GlobalVar } else { AttrSite::LocalVar });
        let is_static = has(&v.modifiers, Modifier::Static);
        let is_const = has(&v.modifiers, Modifier::Const);
        let storage = if has(&v.modifiers, Modifier::Groupshared) {
            Storage::GroupShared
        } else if is_static {
            Storage::Static
        } else if global {
            Storage::Uniform
        } else {
            Storage::Local
        };
        let mut ids = Vec::new();
        for d in &v.declarators {
            let mut ty = self.apply_dims(base, &d.array_dims);
            if let (Type::Array { elem, len: None }, Some(init)) = (self.m.types.get(ty).clone(), &d.init) {
                if let Some(n) = self.infer_unsized_len(elem, init) {
                    ty = self.m.types.array(elem, Some(n));
                }
            }
            if self.m.types.is_void(ty) {
                self.error(d.name.span, format!("variable has incomplete type 'void'"));
                ty = TypeTable::ERROR;
            }
            // As in C++, the variable is in scope in its own initializer (`float2x2 b =
            // float2x2(1, 2, 3, b._m00);` reads b's undefined value), as dxc accepts it: it is
            // declared before its initializer is checked and completed after. Not for `auto`
            // (whose type is the initializer's) nor `S::name` (a static member's definition).
            let early = (!is_auto && d.qualifier.is_empty()).then(|| {
                let placeholder = Var {
                    name: d.name.name.clone(),
                    ty,
                    storage,
                    is_const,
                    precise: false,
                    globally_coherent: false,
                    interpolation: Interpolation::default(),
                    semantic: None,
                    binding: Binding::default(),
                    init: None,
                    const_value: None,
                    primitive: None,
                    attrs: Vec::new(),
                    span: d.span,
                    name_span: d.name.span,
                };
                let id = self.m.add_var(placeholder);
                self.declare(&d.name.name, Symbol::Var(id), d.name.span);
                id
            });
            let init = match (&d.init, is_auto) {
                (Some(e), true) if !matches!(e.kind, ast::ExprKind::InitList(_)) && d.array_dims.is_empty() => {
                    let id = self.check_expr(e);
                    ty = match self.m.types.get(self.ty_of(id)).clone() {
                        Type::Scalar(k) => self.m.types.scalar(k.concrete()),
                        Type::Vector(k, n) => self.m.types.vector(k.concrete(), n),
                        _ => self.ty_of(id),
                    };
                    Some(self.coerce(id, ty))
                }
                (_, true) => {
                    self.error(d.name.span, format!("declaration of variable '{}' with deduced type 'auto' requires an initializer", d.name.name));
                    d.init.as_ref().map(|e| self.check_expr_to(e, ty))
                }
                _ => d.init.as_ref().map(|e| self.check_expr_to(e, ty)),
            };
            if storage == Storage::Uniform && init.is_some() && !self.m.types.contains_object(ty) {
                // DXC accepts and ignores initializers of uniforms (with a warning in some versions).
            }
            let spec = global && self.check_spec_constant(v, d, ty, init);
            if global && storage == Storage::Uniform {
                self.check_push_constant(v, ty);
                self.check_globals_member(v, d, ty, init, spec);
            }
            // A specialization constant is not folded: its value is set when the pipeline is made.
            let const_value = if is_const && !spec { init.and_then(|i| self.const_value(i)) } else { None };
            // A `const` local without an initializer is accepted, as dxc does (its value is undefined).
            let mut binding = self.binding(&d.annotations, &attrs);
            if !spec {
                binding.vk_constant_id = None;
            }
            self.check_packoffset_fits(&mut binding, ty);
            self.check_semantics(&d.annotations);
            self.check_register_types(&d.annotations, ty);
            if !global {
                // dxc: a local variable takes no semantic (each one is reported).
                for a in &d.annotations {
                    if let Annotation::Semantic(id) = a {
                        self.error(id.span, "semantic is not a valid modifier for a local variable");
                    }
                }
            }
            let var = Var {
                name: d.name.name.clone(),
                ty,
                storage,
                // `-Gec -HV 2016`: a global outside a `cbuffer` is writable unless declared `const`.
                is_const: is_const || storage == Storage::Uniform && !self.m.types.contains_object(ty) && !self.gec_globals(),
                precise: has(&v.modifiers, Modifier::Precise),
                globally_coherent: has(&v.modifiers, Modifier::GloballyCoherent),
                interpolation: interpolation(&v.modifiers),
                semantic: semantic(&d.annotations),
                binding,
                init,
                const_value,
                primitive: None,
                attrs: attrs.clone(),
                span: d.span,
                name_span: d.name.span,
            };
            if global && !d.qualifier.is_empty() {
                // `static const uint S::count = 3;`: the definition of a static member declared
                // in `S`; its initializer is the member's.
                if let Some(id) = self.define_static_member(d, var) {
                    ids.push(id);
                }
                continue;
            }
            let id = match early {
                Some(id) => {
                    self.m.vars[id.0 as usize] = var;
                    id
                }
                None => {
                    let id = self.m.add_var(var);
                    self.declare(&d.name.name, Symbol::Var(id), d.name.span);
                    id
                }
            };
            if global {
                self.m.globals.push(id);
            }
            ids.push(id);
        }
        ids
    }

    /// An out-of-line definition `T S::name = init;` of the static member `name` declared in
    /// `S`: the member takes the definition's initializer (and constant value). The member must
    /// exist, have the same type and not be defined already.
    fn define_static_member(&mut self, d: &ast::Declarator, def: Var) -> Option<VarId> {
        let mut parts = d.qualifier.clone();
        parts.push(d.name.clone());
        let path = ast::Path { global: false, parts, scope_args: Vec::new(), span: d.span };
        let owner: Vec<&str> = d.qualifier.iter().map(|q| q.name.as_str()).collect();
        let owner = owner.join("::");
        let id = match self.lookup_path(&path) {
            Some(Symbol::Var(id)) if self.m.var(id).storage == Storage::Static => id,
            _ => {
                self.error(d.name.span, format!("no member named '{}' in '{owner}'", d.name.name));
                return None;
            }
        };
        let member = self.m.var(id);
        if member.init.is_some() {
            self.error(d.name.span, format!("redefinition of '{}'", d.name.name));
            return None;
        }
        if member.ty != def.ty && def.ty != TypeTable::ERROR && member.ty != TypeTable::ERROR {
            let (was, now) = (self.type_name(member.ty), self.type_name(def.ty));
            self.error(d.name.span, format!("redefinition of '{}' with a different type: '{now}' vs '{was}'", d.name.name));
            return None;
        }
        let member = &mut self.m.vars[id.0 as usize];
        member.init = def.init;
        member.const_value = if member.is_const { def.const_value } else { None };
        Some(id)
    }

    fn check_cbuffer(&mut self, b: &ast::BufferDecl) {
        let attrs = self.raw_attrs(&b.attrs);
        self.vet_attrs(&b.attrs, AttrSite::CBuffer);
        let binding = self.binding(&b.annotations, &attrs);
        let is_tbuffer = b.kind == ast::BufferKind::TBuffer;
        self.check_register_letters(&b.annotations, if is_tbuffer { "t" } else { "b" });
        for a in &b.annotations {
            if let Annotation::Register { profile: Some(_), span, .. } = a {
                self.error(*span, "user defined constant buffer slots cannot be target specific");
            }
        }
        let cb = CBufferId(self.m.cbuffers.len() as u32);
        self.m.cbuffers.push(CBuffer {
            name: b.name.name.clone(),
            is_tbuffer: b.kind == ast::BufferKind::TBuffer,
            members: Vec::new(),
            binding,
            span: b.span,
        });
        for d in &b.members {
            match d {
                Decl::Var(v) => {
                    self.in_cbuffer = true;
                    let ids = self.check_var_decl(v, true);
                    self.in_cbuffer = false;
                    for id in ids {
                        let index = self.m.cbuffers[cb.0 as usize].members.len() as u32;
                        let var = &mut self.m.vars[id.0 as usize];
                        var.storage = Storage::CBufferMember { cbuffer: cb, index };
                        var.is_const = true;
                        self.m.globals.retain(|g| *g != id);
                        self.m.cbuffers[cb.0 as usize].members.push(id);
                    }
                }
                other => self.check_top_decl(other),
            }
        }
        self.check_packoffsets(cb, b.name.span);
    }

    fn check_typedef(&mut self, t: &ast::TypedefDecl) {
        let first_use = self.m.attr_uses.len();
        self.vet_attrs(&t.attrs, AttrSite::Typedef);
        let base = self.resolve_type_mods(&t.ty, &t.modifiers);
        self.inline_type_requirements(t, base, first_use);
        for (name, dims) in &t.names {
            let ty = self.apply_dims(base, dims);
            self.declare(&name.name, Symbol::Type(ty), name.span);
        }
    }

    fn check_enum(&mut self, e: &ast::EnumDecl) {
        let underlying = match &e.underlying {
            Some(t) => self.resolve_type(t),
            None => self.m.types.int(),
        };
        let name = e.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "(anonymous enum)".into());
        let (eid, ty) = self.m.types.add_enum(crate::types::EnumDef {
            name: self.qualify(&name),
            scoped: e.scoped,
            underlying,
            values: Vec::new(),
        });
        if let Some(n) = &e.name {
            self.declare(&n.name, Symbol::Type(ty), n.span);
            self.type_scopes.insert(ty, self.qualify(&n.name));
        }
        let mut next = 0i64;
        for (id, value) in &e.variants {
            if let Some(v) = value {
                if let Some(n) = self.const_int_expr(v) {
                    next = n;
                }
            }
            self.m.types.enums[eid.0 as usize].values.push((id.name.clone(), next));
            let sym = Symbol::Const(ty, ConstValue::Int(next));
            if let Some(n) = &e.name {
                let key = self.qualify(&format!("{}::{}", n.name, id.name));
                self.globals.insert(key, sym.clone());
            }
            if !e.scoped {
                self.declare(&id.name, sym, id.span);
            }
            next = next.wrapping_add(1);
        }
    }

    /// Declares a struct and checks its members; returns its type.
    pub(crate) fn declare_struct(&mut self, s: &ast::StructDecl) -> TypeId {
        self.vet_attrs(&s.attrs, AttrSite::Struct);
        let name = s.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "(anonymous struct)".into());
        // `struct S` naming a struct already declared (`typedef struct S T;` after `S`'s body).
        if let (None, Some(n)) = (&s.members, &s.name) {
            if let Some(Symbol::Type(t)) = self.lookup(&[n.name.as_str()], false) {
                if matches!(self.m.types.get(t), Type::Struct(_)) {
                    return t;
                }
            }
        }
        // A body for an earlier forward declaration fills that struct.
        let existing = s.name.as_ref().and_then(|n| match self.lookup(&[n.name.as_str()], false) {
            Some(Symbol::Type(t)) => match self.m.types.get(t) {
                Type::Struct(id) if !self.m.types.structs[id.0 as usize].complete => Some((*id, t)),
                _ => None,
            },
            _ => None,
        });
        let (sid, ty) = match existing {
            Some(x) => x,
            None => {
                let x = self.m.types.add_struct(StructDef {
                    name: self.qualify(&name),
                    kind: s.kind,
                    bases: Vec::new(),
                    fields: Vec::new(),
                    methods: Vec::new(),
                    complete: false,
                });
                if let Some(n) = &s.name {
                    self.declare(&n.name, Symbol::Type(x.1), n.span);
                }
                x
            }
        };
        let Some(members) = &s.members else { return ty };
        let mut bases = Vec::new();
        for b in &s.bases {
            let bt = self.resolve_type(b);
            match self.m.types.get(bt) {
                Type::Struct(_) => bases.push(bt),
                Type::Error => {}
                _ => self.error(b.span, format!("base type '{}' is not a struct or class", self.type_name(bt))),
            }
        }
        self.m.types.structs[sid.0 as usize].bases = bases;
        self.type_scopes.insert(ty, self.qualify(&name));
        self.ns.push(name.clone());
        let saved_locals = std::mem::take(&mut self.locals);
        let mut methods = Vec::new();
        for d in members {
            match d {
                Decl::Var(v) if has(&v.modifiers, Modifier::Static) => {
                    self.check_var_decl(v, true);
                }
                Decl::Var(v) => {
                    self.vet_attrs(&v.attrs, AttrSite::Field);
                    self.record_type_requirements(ty, &v.attrs);
                    let vk = self.field_vk(&v.attrs);
                    let fty = self.resolve_type_mods(&v.ty, &v.modifiers);
                    for decl in &v.declarators {
                        let t = self.apply_dims(fty, &decl.array_dims);
                        if matches!(self.m.types.get(t), Type::Array { len: None, .. }) {
                            self.error(decl.name.span, "array dimensions of struct/class members must be explicit");
                        }
                        let fields = &self.m.types.structs[sid.0 as usize].fields;
                        if fields.iter().any(|f| f.name == decl.name.name) {
                            self.error(decl.name.span, format!("duplicate member '{}'", decl.name.name));
                        }
                        self.check_semantics(&decl.annotations);
                        self.m.types.structs[sid.0 as usize].fields.push(Field {
                            name: decl.name.name.clone(),
                            ty: t,
                            semantic: semantic(&decl.annotations),
                            interpolation: interpolation(&v.modifiers),
                            precise: has(&v.modifiers, Modifier::Precise),
                            vk: vk.clone(),
                        });
                    }
                }
                Decl::Func(f) => methods.push(f),
                other => self.check_top_decl(other),
            }
        }
        self.m.types.structs[sid.0 as usize].complete = true;
        // Methods: declare all signatures first so bodies may call later ones.
        let mut ids = Vec::new();
        for f in &methods {
            let is_static = has(&f.modifiers, Modifier::Static);
            let id = self.declare_func(f, if is_static { None } else { Some(ty) });
            self.m.types.structs[sid.0 as usize].methods.push(id);
            ids.push(id);
        }
        for (f, id) in methods.iter().zip(ids) {
            if let Some(body) = &f.body {
                self.check_body(id, f, body);
            }
        }
        self.locals = saved_locals;
        self.ns.pop();
        ty
    }

    /// Declares a function (or method, with `this_ty`) without its body; a prototype followed by
    /// a definition share one id.
    fn declare_func(&mut self, f: &ast::FuncDecl, this_ty: Option<TypeId>) -> crate::tast::FuncId {
        let ret = self.resolve_type_mods(&f.ret, &f.modifiers);
        let attrs = self.raw_attrs(&f.attrs);
        let first_use = self.m.attr_uses.len();
        self.vet_attrs(&f.attrs, AttrSite::Function);
        self.check_numthreads(f, &attrs);
        if this_ty.is_none() {
            self.check_entry_attrs(f, &attrs);
        }
        self.check_operator_name(&f.name, this_ty.is_some());
        let mut params = Vec::new();
        if self.instantiation_depth == 0 {
            self.warn_groupshared_params(f);
        }
        for p in &f.params {
            let pt = self.resolve_type_mods(&p.ty, &p.modifiers);
            let pt = self.apply_dims(pt, &p.array_dims);
            let dir = if has(&p.modifiers, Modifier::InOut) || has(&p.modifiers, Modifier::In) && has(&p.modifiers, Modifier::Out) {
                ParamDir::InOut
            } else if has(&p.modifiers, Modifier::Out) {
                ParamDir::Out
            } else {
                ParamDir::In
            };
            let default = p.default.as_ref().map(|d| self.check_expr_to(d, pt));
            let pattrs = self.raw_attrs(&p.attrs);
            self.vet_attrs(&p.attrs, AttrSite::Param);
            let primitive = p.modifiers.iter().map(|m| m.modifier).find(|m| {
                matches!(
                    m,
                    Modifier::Point | Modifier::Line | Modifier::Triangle | Modifier::LineAdj | Modifier::TriangleAdj
                        | Modifier::Vertices | Modifier::Indices | Modifier::Primitives | Modifier::Payload
                )
            });
            let binding = self.binding(&p.annotations, &pattrs);
            self.check_semantics(&p.annotations);
            params.push(self.m.add_var(Var {
                name: p.name.as_ref().map(|n| n.name.clone()).unwrap_or_default(),
                ty: pt,
                storage: Storage::Param(dir),
                is_const: has(&p.modifiers, Modifier::Const),
                precise: has(&p.modifiers, Modifier::Precise),
                globally_coherent: false,
                interpolation: interpolation(&p.modifiers),
                semantic: semantic(&p.annotations),
                binding,
                init: default,
                const_value: None,
                primitive,
                attrs: pattrs,
                span: p.span,
                name_span: p.name.as_ref().map_or(p.span, |n| n.span),
            }));
        }
        if this_ty.is_none() {
            self.check_node_entry(f, &attrs, &params);
        }
        let qualified = self.qualify(&f.name.name);
        // An earlier prototype with the same parameter types?
        if let Some(Symbol::Funcs(fs)) = self.globals.get(&qualified).cloned() {
            for old in fs {
                let of = self.m.func(old);
                let same = of.params.len() == params.len()
                    && of.params.iter().zip(&params).all(|(a, b)| self.m.var(*a).ty == self.m.var(*b).ty);
                if same && of.body.is_none() {
                    // Keep the definition's parameter names, and its attributes
                    // (`[numthreads]` written on the definition, not the prototype).
                    self.m.funcs[old.0 as usize].params = params;
                    if !attrs.is_empty() {
                        self.m.funcs[old.0 as usize].attrs = attrs;
                    }
                    self.own_attr_uses(first_use, old);
                    return old;
                }
            }
        }
        self.check_semantics(&f.annotations);
        let id = self.m.add_func(Function {
            name: f.name.name.clone(),
            qualified_name: qualified,
            ret,
            params,
            this_type: this_ty,
            ret_semantic: semantic(&f.annotations),
            body: None,
            attrs,
            precise: has(&f.modifiers, Modifier::Precise),
            export: has(&f.modifiers, Modifier::Export),
            is_static: has(&f.modifiers, Modifier::Static),
            span: f.name.span,
        });
        self.own_attr_uses(first_use, id);
        let key = self.qualify(&f.name.name);
        match self.globals.get_mut(&key) {
            Some(Symbol::Funcs(list)) => list.push(id),
            Some(_) => self.error(f.name.span, format!("redefinition of '{}' as different kind of symbol", f.name.name)),
            None => {
                self.globals.insert(key, Symbol::Funcs(vec![id]));
            }
        }
        id
    }

    pub(crate) fn check_func(&mut self, f: &ast::FuncDecl, this_ty: Option<TypeId>) {
        if !f.qualifier.is_empty() {
            // `T S::f() { ... }`: an out-of-line method body.
            let parts: Vec<&str> = f.qualifier.iter().map(|q| q.name.as_str()).collect();
            if let Some(Symbol::Namespace) = self.lookup(&parts, false) {
                // `T ns::f() { ... }`: a function of namespace `ns` defined outside it.
                let depth = self.ns.len();
                self.ns.extend(parts.iter().map(|p| p.to_string()));
                let inner = ast::FuncDecl { qualifier: Vec::new(), ..f.clone() };
                self.check_func(&inner, this_ty);
                self.ns.truncate(depth);
                return;
            }
            let Some(Symbol::Type(st)) = self.lookup(&parts, false) else {
                self.error(f.name.span, format!("use of undeclared identifier '{}'", parts.join("::")));
                return;
            };
            let Type::Struct(sid) = self.m.types.get(st).clone() else { return };
            let ns_name = self.m.types.structs[sid.0 as usize].name.clone();
            self.ns.push(ns_name);
            let existing = self.struct_methods(st, &f.name.name);
            let id = existing.into_iter().find(|m| self.m.func(*m).params.len() == f.params.len() && self.m.func(*m).body.is_none());
            match (id, &f.body) {
                (Some(id), Some(body)) => {
                    let pd = self.declare_func(f, self.m.func(id).this_type);
                    let params = self.m.func(pd).params.clone();
                    self.m.funcs[id.0 as usize].params = params;
                    self.check_body(id, f, body);
                }
                _ => self.error(f.name.span, format!("out-of-line definition of '{}' does not match any declaration", f.name.name)),
            }
            self.ns.pop();
            return;
        }
        let id = self.declare_func(f, this_ty);
        if let Some(body) = &f.body {
            if self.m.func(id).body.is_some() {
                self.error(f.name.span, format!("redefinition of '{}'", f.name.name));
                return;
            }
            self.check_body(id, f, body);
        }
    }

    fn check_body(&mut self, id: crate::tast::FuncId, _f: &ast::FuncDecl, body: &ast::Block) {
        let saved_func = self.func.take();
        let saved_locals = std::mem::take(&mut self.locals);
        let func = self.m.func(id).clone();
        self.func = Some(FnCtx { id, ret: func.ret, this_ty: func.this_type, loops: 0, switches: 0 });
        self.locals.push(Default::default());
        for &p in &func.params {
            let name = self.m.var(p).name.clone();
            if !name.is_empty() {
                let span = self.m.var(p).span;
                self.declare(&name, Symbol::Var(p), span);
            }
        }
        let b = self.check_block(body);
        self.m.funcs[id.0 as usize].body = Some(b);
        self.locals = saved_locals;
        self.func = saved_func;
    }

    /// Finds the entry point (non-library targets) and its `[numthreads]`.
    pub(crate) fn pick_entry(&mut self) {
        let Some(stage) = self.opts.stage() else { return };
        if stage == Stage::Library {
            self.pick_library_entries();
            return;
        }
        let entry = self.opts.entry.clone();
        let found = self.m.funcs.iter().position(|f| f.qualified_name == entry && f.body.is_some() && f.this_type.is_none());
        let Some(idx) = found else {
            if !self.opts.require_entry {
                return;
            }
            self.diags.push(hlslc_frontend::Diagnostic::error("missing entry point definition"));
            return;
        };
        let func = crate::tast::FuncId(idx as u32);
        // A `[shader]` attribute of another stage was reported where it is written.
        let f = &self.m.funcs[idx];
        if super::rules::shader_attr_conflict(&f.attrs, &f.name, stage, &self.opts.profile).is_some() {
            return;
        }
        let ep = self.entry_point(func, stage);
        self.m.entry = Some(ep.clone());
        self.m.entries = vec![ep];
    }

    /// The entry point of `func` for `stage`, with its `[numthreads]` (required for compute-like
    /// stages).
    fn entry_point(&mut self, func: crate::tast::FuncId, stage: Stage) -> EntryPoint {
        let f = self.m.func(func);
        // A size given by a specialization constant counts with its default value.
        let nt_attr = f.attrs.iter().find(|a| a.name.eq_ignore_ascii_case("numthreads")).cloned();
        let mut numthreads_spec = [None; 3];
        let nt_attr = nt_attr.map(|mut a| {
            for (i, arg) in a.args.iter_mut().enumerate() {
                if let AttrArg::Expr(e) = *arg {
                    if let Some((v, default)) = self.spec_constant_of(e) {
                        if i < 3 {
                            numthreads_spec[i] = Some(v);
                        }
                        *arg = AttrArg::Int(default);
                    }
                }
            }
            a
        });
        let f = self.m.func(func);
        // A group size outside 1..1024 was warned about and is ignored, as DXC does.
        let numthreads = nt_attr
            .as_ref()
            .and_then(super::rules::numthreads_args)
            .filter(|&(x, y, z)| x >= 1 && y >= 1 && z >= 1 && x.saturating_mul(y).saturating_mul(z) <= 1024)
            .map(|(x, y, z)| [x as u32, y as u32, z as u32]);
        let span: Span = f.span;
        if matches!(stage, Stage::Compute | Stage::Mesh | Stage::Amplification) && numthreads.is_none() {
            let word = match stage {
                Stage::Mesh => "mesh",
                Stage::Amplification => "amplification",
                _ => "compute",
            };
            self.error(span, format!("{word} entry point must have a valid numthreads attribute"));
        }
        // The attributes DXC requires of geometry and hull entry points.
        let required: &[&str] = match stage {
            Stage::Geometry => &["maxvertexcount"],
            Stage::Hull => &["patchconstantfunc", "outputtopology"],
            _ => &[],
        };
        let f = self.m.func(func);
        let missing: Vec<&str> =
            required.iter().copied().filter(|r| !f.attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case(r))).collect();
        let what = if stage == Stage::Geometry { "geometry" } else { "hull" };
        for attr in missing {
            self.error(span, format!("{what} entry point must have a valid {attr} attribute"));
        }
        let root_signature = self.root_signature_attr(func, stage);
        let mut ep = EntryPoint { numthreads, numthreads_spec, root_signature, ..EntryPoint::new(func, stage) };
        crate::stage::state::resolve_state(&self.m, &mut ep, self.diags);
        ep
    }

    /// `[RootSignature("...")]` of an entry function: its string and span. dxc refuses it on
    /// ray tracing entries (their root signatures are subobjects) and wants a string.
    fn root_signature_attr(&mut self, func: crate::tast::FuncId, stage: Stage) -> Option<(String, Span)> {
        let f = self.m.func(func);
        let attr = f.attrs.iter().find(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("RootSignature"))?;
        let arg = attr.args.first().cloned();
        let span = self
            .m
            .attr_uses
            .iter()
            .find(|u| u.owner == Some(func) && u.namespace.is_none() && u.name.eq_ignore_ascii_case("RootSignature"))
            .map_or(f.span, |u| u.span);
        let ray_tracing = matches!(
            stage,
            Stage::RayGeneration | Stage::Intersection | Stage::AnyHit | Stage::ClosestHit | Stage::Miss | Stage::Callable
        );
        if ray_tracing {
            self.error(span, "root signature attribute not supported for raytracing entry functions");
            return None;
        }
        match arg {
            Some(AttrArg::Str(s)) => Some((s, span)),
            _ => {
                self.error(span, "'RootSignature' attribute requires a string literal argument");
                None
            }
        }
    }

    /// The entry points of a library target: every defined free function with a
    /// `[shader("stage")]` attribute.
    fn pick_library_entries(&mut self) {
        for idx in 0..self.m.funcs.len() {
            let f = &self.m.funcs[idx];
            if f.body.is_none() || f.this_type.is_some() {
                continue;
            }
            let stage = f.attrs.iter().find(|a| a.name.eq_ignore_ascii_case("shader")).and_then(|a| match a.args.first() {
                Some(AttrArg::Str(s)) => Stage::from_attribute(s),
                _ => None,
            });
            if let Some(stage) = stage {
                let ray_tracing = matches!(
                    stage,
                    Stage::RayGeneration | Stage::Intersection | Stage::AnyHit | Stage::ClosestHit | Stage::Miss | Stage::Callable
                );
                if ray_tracing && f.ret != crate::types::TypeTable::VOID {
                    // dxc's rule for every ray tracing stage: results go through the payload.
                    let span = f.span;
                    self.error(span, format!("return type for '{}' shaders must be void", stage.name()));
                    continue;
                }
                let ep = self.entry_point(crate::tast::FuncId(idx as u32), stage);
                self.m.entries.push(ep);
            }
        }
    }
}
