//! Global variables: resources, constant buffers, `$Globals`, statics and groupshared memory,
//! with DXC's types, names and binding assignment.
//!
//! Bindings are assigned in [`super::bindings`].

use super::bindings::Bound;
use super::layout::Layout;
use super::{unsupported, Lowerer, VarHome, R};
use crate::id::SpvId;
use crate::types::{Decoration, ImageType, StructMember, StructType};
use hlslc_sema::tast::{Storage, VarId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use spirv::{Decoration as D, Dim, ImageFormat, StorageClass};
use std::collections::BTreeSet;

impl<'m> Lowerer<'m> {
    /// Declares every global variable of the module and assigns descriptor bindings.
    pub(crate) fn declare_resources(&mut self) -> R<()> {
        let m = self.m;
        let mut bound: Vec<Bound> = Vec::new();
        let mut globals_members: Vec<VarId> = Vec::new();
        let payloads = super::stages::task_payloads(m);
        for &g in &m.globals {
            let var = m.var(g);
            // Inline SPIR-V built-ins and storage classes (`inline_spirv`).
            if self.ext_builtin_global(g)? || self.ext_storage_variable(g, &var.attrs)?.is_some() {
                continue;
            }
            match var.storage {
                Storage::Static if (self.is_descriptor_object(var.ty) || self.holds_resources(var.ty)) && var.init.is_some() => {
                    if let Some(init) = var.init {
                        self.vars.insert(g, VarHome::Alias(init));
                    }
                }
                Storage::Static if self.mixes_resources(var.ty) => {
                    return unsupported(
                        format!("the static variable '{}' of a struct type with both resource and non-resource members", var.name),
                        Some(var.span),
                    );
                }
                Storage::Static if super::subpass::is_subpass(m, var.ty) => {
                    return Err(super::LowerError {
                        fatal: false,
                        message: "SubpassInput(MS) must be externally visible".into(),
                        span: Some(var.span),
                        notes: Vec::new(),
                    });
                }
                Storage::Static => {
                    let ptr_ty = self.ptr_ty(var.ty, Layout::Logical, StorageClass::Private)?;
                    let id = self.b.global_variable(ptr_ty, StorageClass::Private, None);
                    self.global_ids.push(id);
                    self.b.ctx.name(id, &var.name);
                    self.vars.insert(g, VarHome::Ptr { ptr: id, storage: StorageClass::Private, layout: Layout::Logical });
                }
                Storage::GroupShared => {
                    // An amplification shader's payload for DispatchMesh has its own storage
                    // (the NV flavour copies it to per-task outputs instead).
                    let sc = if payloads.contains(&g) && !self.mesh_nv() { StorageClass::TaskPayloadWorkgroupEXT } else { StorageClass::Workgroup };
                    let ptr_ty = self.ptr_ty(var.ty, Layout::Logical, sc)?;
                    let id = self.b.global_variable(ptr_ty, sc, None);
                    self.global_ids.push(id);
                    self.b.ctx.name(id, &var.name);
                    self.vars.insert(g, VarHome::Ptr { ptr: id, storage: sc, layout: Layout::Logical });
                }
                Storage::Uniform => {
                    if var.binding.vk_shader_record && !matches!(m.types.get(var.ty), Type::Object { kind: ObjectKind::ConstantBuffer, .. }) {
                        return Err(super::LowerError {
                            fatal: false,
                            message: format!("attribute 'vk::shader_record_ext' (or '_nv') on '{}' is not supported by the SPIR-V back end: only a ConstantBuffer or cbuffer can be a shader record", var.name),
                            span: Some(var.span),
                            notes: Vec::new(),
                        });
                    } else if var.binding.vk_shader_record && var.binding.vk_binding.is_some() {
                        // A record has no binding: [[vk::binding]] would be dropped.
                        return Err(super::LowerError {
                            fatal: false,
                            message: "vk::shader_record_ext (or vk::shader_record_nv) attribute cannot be used together with vk::binding attribute".into(),
                            span: Some(var.span),
                            notes: Vec::new(),
                        });
                    } else if var.binding.vk_shader_record {
                        // A shader record: laid out as a storage buffer, no binding.
                        let ty = self.object_ty_laid_out(var.ty, true)?;
                        let sc = StorageClass::ShaderRecordBufferKHR;
                        let ptr_ty = self.b.ctx.type_pointer(sc, ty);
                        let id = self.b.global_variable(ptr_ty, sc, None);
                        self.global_ids.push(id);
                        self.b.ctx.name(id, &var.name);
                        self.vars.insert(g, VarHome::Ptr { ptr: id, storage: sc, layout: Layout::Std430 });
                    } else if var.binding.vk_push_constant && matches!(m.types.get(var.ty), Type::Object { kind: ObjectKind::ConstantBuffer, .. }) {
                        self.declare_push_constant(g)?;
                    } else if let Type::Object { kind, .. } = m.types.get(var.ty) {
                        let (sc, layout) = self.object_storage(*kind);
                        self.check_subpass_decl(g)?;
                        // A counted buffer's counter is declared first, as in DXC.
                        let counter = has_counter(m, g, *kind).then(|| self.counter_variable(&var.name));
                        let ty = self.object_ty(var.ty)?;
                        let ptr_ty = self.b.ctx.type_pointer(sc, ty);
                        let id = self.b.global_variable(ptr_ty, sc, None);
                        self.global_ids.push(id);
                        self.b.ctx.name(id, &var.name);
                        self.decorate_coherent(g, id);
                        self.decorate_input_attachment(g, id);
                        self.vars.insert(g, VarHome::Ptr { ptr: id, storage: sc, layout });
                        self.user_type(id, var.ty);
                        self.note_rov(id, var.ty);
                        bound.push(self.bound(id, &var.binding, Some(*kind), 1, g.0 as u64, Some(var.span)));
                        if var.binding.vk_combined_image_sampler {
                            let last = bound.len() - 1;
                            bound[last].combined = Some(self.combined_kind(*kind, var)?);
                        }
                        if let Some(c) = counter {
                            self.counter_buffer(id, c);
                            self.counters.insert(g, c);
                            // A counter has no register class of its own: DXC does not auto-shift it.
                            let mut counter = self.bound(c, &var.binding, None, 1, g.0 as u64, Some(var.span));
                            counter.counter_of = Some(bound.len() - 1);
                            bound.push(counter);
                        }
                    } else if let Some(kind) = object_array_kind(m, var.ty) {
                        if var.binding.vk_combined_image_sampler {
                            return Err(super::LowerError {
                                fatal: false,
                                message: format!("attribute 'vk::combinedImageSampler' on the array '{}' is not supported: it combines one texture with one sampler", var.name),
                                span: Some(var.span),
                                notes: Vec::new(),
                            });
                        }
                        let (sc, layout) = self.object_storage(kind);
                        // An array of counted buffers has an array of counters of the same
                        // shape, declared first as in DXC.
                        let counter = if has_counter(m, g, kind) {
                            let c = self.counter_array_variable(&var.name, var.ty);
                            self.counters.insert(g, c);
                            Some(c)
                        } else {
                            None
                        };
                        let ty = self.object_array_ty(var.ty)?;
                        let ptr_ty = self.b.ctx.type_pointer(sc, ty);
                        let id = self.b.global_variable(ptr_ty, sc, None);
                        self.global_ids.push(id);
                        self.b.ctx.name(id, &var.name);
                        self.decorate_coherent(g, id);
                        self.vars.insert(g, VarHome::Ptr { ptr: id, storage: sc, layout });
                        self.user_type(id, var.ty);
                        self.note_rov(id, var.ty);
                        let count = array_elements(m, var.ty);
                        bound.push(self.bound(id, &var.binding, Some(kind), count, g.0 as u64, Some(var.span)));
                        if let Some(c) = counter {
                            self.counter_buffer(id, c);
                            // A counter has no register class of its own: DXC does not auto-shift it.
                            let mut counter = self.bound(c, &var.binding, None, count, g.0 as u64, Some(var.span));
                            counter.counter_of = Some(bound.len() - 1);
                            bound.push(counter);
                        }
                    } else if let Some(id) = var.binding.vk_constant_id {
                        self.has_spec_constants = true;
                        self.declare_spec_constant(g, id)?;
                    } else if var.binding.vk_push_constant && matches!(m.types.get(var.ty), Type::Struct(_)) {
                        self.declare_push_constant(g)?;
                    } else if matches!(m.types.get(var.ty), Type::String) {
                        // A string is a compile-time value (printf's format): no variable.
                    } else if self.is_res_struct(var.ty) && !self.mixes_resources(var.ty) {
                        self.declare_res_struct(g, &mut bound)?;
                    } else if self.mixes_resources(var.ty) {
                        // dxc's refusal of such a global (`refusals.rs`) was reported already:
                        // lowering stops with it, once.
                        if let Some(e) = self.deferred.pop() {
                            return Err(e);
                        }
                        return unsupported(
                            format!("the global variable '{}' of a struct type with both resource and non-resource members", var.name),
                            Some(var.span),
                        );
                    } else {
                        globals_members.push(g);
                    }
                }
                Storage::CBufferMember { .. } | Storage::Local | Storage::Param(_) => {}
            }
        }
        for (ci, cb) in m.cbuffers.iter().enumerate() {
            // Resources declared in a cbuffer are not in its block: each is a variable of its
            // own, declared (and bound) before the block, which then comes after its last
            // member, as in DXC; a cbuffer of resources only has no block at all.
            let (res_members, members): (Vec<VarId>, Vec<VarId>) =
                cb.members.iter().partition(|&&v| self.holds_resources(m.var(v).ty));
            let order = cb.members.first().map_or(u64::MAX, |v| v.0 as u64);
            let last_order = cb.members.last().map_or(u64::MAX, |v| v.0 as u64);
            for &v in &res_members {
                let var = m.var(v);
                let mut parts = Vec::new();
                let mut counters = Vec::new();
                let val = self.declare_res_parts(var.ty, var.name.clone(), &mut parts, &mut counters)?;
                self.set_res_state(v, val);
                let total: u32 = parts.iter().map(|p: &(SpvId, u32)| p.1).sum();
                let kind = match m.types.get(var.ty) {
                    Type::Object { kind, .. } => Some(*kind),
                    _ => object_array_kind(m, var.ty),
                };
                let mut b = self.bound(parts[0].0, &var.binding, kind, total, v.0 as u64, Some(var.span));
                if parts.len() > 1 {
                    let mut offset = 0;
                    b.parts = parts.iter().map(|&(id, n)| {
                        offset += n;
                        (id, offset - n)
                    }).collect();
                }
                bound.push(b);
                for c in counters {
                    bound.push(self.bound(c, &hlslc_sema::tast::Binding::default(), None, 1, v.0 as u64, Some(var.span)));
                }
            }
            if members.is_empty() && !res_members.is_empty() {
                continue;
            }
            let order = if res_members.is_empty() { order } else { last_order };
            let cb_members = members;
            let tys: Vec<TypeId> = cb_members.iter().map(|&v| m.var(v).ty).collect();
            let names: Vec<String> = cb_members.iter().map(|&v| m.var(v).name.clone()).collect();
            if cb.binding.vk_shader_record && cb.binding.vk_binding.is_some() {
                return Err(super::LowerError {
                    fatal: false,
                    message: "vk::shader_record_ext (or vk::shader_record_nv) attribute cannot be used together with vk::binding attribute".into(),
                    span: Some(cb.span),
                    notes: Vec::new(),
                });
            }
            if cb.binding.vk_shader_record && cb.is_tbuffer {
                return Err(super::LowerError {
                    fatal: false,
                    message: format!("attribute 'vk::shader_record_ext' (or '_nv') on tbuffer '{}' is not supported by the SPIR-V back end: only a ConstantBuffer or cbuffer can be a shader record", cb.name),
                    span: Some(cb.span),
                    notes: Vec::new(),
                });
            }
            let record = cb.binding.vk_shader_record;
            let layout = if cb.is_tbuffer || record { Layout::Std430 } else { Layout::Std140 };
            let prefix = "type.";
            // `packoffset(cN.c)` places a member at byte 16 N + 4 c, whatever the rule (DXC).
            let pinned: Vec<Option<u32>> =
                cb_members.iter().map(|&v| m.var(v).binding.packoffset.map(|(r, c)| r * 16 + u32::from(c) * 4)).collect();
            self.check_packoffset_order(&cb_members, &tys, &pinned, layout)?;
            let sty = self.block_struct_pinned(&format!("{prefix}{}", cb.name), &tys, &pinned, &names, layout, cb.is_tbuffer)?;
            let sc = if record {
                StorageClass::ShaderRecordBufferKHR
            } else if cb.is_tbuffer {
                self.storage_block().0
            } else {
                StorageClass::Uniform
            };
            let ptr_ty = self.b.ctx.type_pointer(sc, sty);
            let id = self.b.global_variable(ptr_ty, sc, None);
            self.global_ids.push(id);
            self.b.ctx.name(id, &cb.name);
            self.cbuffers.insert(hlslc_sema::tast::CBufferId(ci as u32), id);
            for (i, &v) in cb_members.iter().enumerate() {
                self.vars.insert(v, VarHome::CBufferMember { buffer: id, index: i as u32 });
            }
            if record {
                continue; // no descriptor binding
            }
            // A cbuffer comes where its first member was declared (an empty one after all).
            let kind = if cb.is_tbuffer { ObjectKind::TextureBuffer } else { ObjectKind::ConstantBuffer };
            if self.opts.reflect {
                self.user_types.push((id, if cb.is_tbuffer { "tbuffer" } else { "cbuffer" }.to_string()));
            }
            bound.push(self.bound(id, &cb.binding, Some(kind), 1, order, Some(cb.span)));
        }
        if !globals_members.is_empty() {
            let tys: Vec<TypeId> = globals_members.iter().map(|&v| m.var(v).ty).collect();
            let names: Vec<String> = globals_members.iter().map(|&v| m.var(v).name.clone()).collect();
            let pinned = self.globals_offsets(&globals_members, &tys);
            let sty = self.block_struct_pinned("type.$Globals", &tys, &pinned, &names, Layout::Std140, false)?;
            let ptr_ty = self.b.ctx.type_pointer(StorageClass::Uniform, sty);
            let id = self.b.global_variable(ptr_ty, StorageClass::Uniform, None);
            self.global_ids.push(id);
            self.b.ctx.name(id, "$Globals");
            for (i, &v) in globals_members.iter().enumerate() {
                self.vars.insert(v, VarHome::CBufferMember { buffer: id, index: i as u32 });
            }
            let mut globals = self.bound(id, &hlslc_sema::tast::Binding::default(), Some(ObjectKind::ConstantBuffer), 1, u64::MAX, None);
            globals.globals = true;
            bound.push(globals);
        }
        self.global_inline_attrs()?;
        self.assign_bindings(bound)
    }

    /// A global struct of resources (or an array of them): one variable per resource (or array
    /// of resources) it holds, named by its path (`s.tex`, `arr[1].smp`), as spirv-opt's
    /// descriptor scalar replacement gives DXC. The struct takes one binding number per
    /// resource, counting each element of a resource array, and its resources take them in
    /// order.
    fn declare_res_struct(&mut self, g: VarId, bound: &mut Vec<Bound>) -> R<()> {
        let m = self.m;
        let var = m.var(g);
        let mut parts = Vec::new();
        let mut counters = Vec::new();
        let val = self.declare_res_parts(var.ty, var.name.clone(), &mut parts, &mut counters)?;
        self.vars.insert(g, VarHome::Res(val));
        let total: u32 = parts.iter().map(|p: &(SpvId, u32)| p.1).sum();
        let mut offset = 0;
        let mut placed = Vec::new();
        for (id, n) in parts {
            placed.push((id, offset));
            offset += n;
        }
        let Some(&(first, _)) = placed.first() else { return Ok(()) };
        let mut b = self.bound(first, &var.binding, None, total, g.0 as u64, Some(var.span));
        b.parts = placed;
        bound.push(b);
        for c in counters {
            bound.push(self.bound(c, &hlslc_sema::tast::Binding::default(), None, 1, g.0 as u64, Some(var.span)));
        }
        Ok(())
    }

    fn declare_res_parts(&mut self, t: TypeId, name: String, parts: &mut Vec<(SpvId, u32)>, counters: &mut Vec<SpvId>) -> R<super::resvalue::ResValue> {
        let m = self.m;
        if self.is_res_struct(t) {
            let mut out = Vec::new();
            match m.types.get(t).clone() {
                Type::Array { elem, len: Some(n) } => {
                    for i in 0..n {
                        out.push(self.declare_res_parts(elem, format!("{name}[{i}]"), parts, counters)?);
                    }
                }
                Type::Struct(sid) => {
                    let def = m.types.structs[sid.0 as usize].clone();
                    for &b in &def.bases {
                        let bname = match m.types.get(b) {
                            Type::Struct(bs) => m.types.structs[bs.0 as usize].name.clone(),
                            _ => String::new(),
                        };
                        out.push(self.declare_res_parts(b, format!("{name}.{bname}"), parts, counters)?);
                    }
                    for f in &def.fields {
                        out.push(self.declare_res_parts(f.ty, format!("{name}.{}", f.name), parts, counters)?);
                    }
                }
                _ => {}
            }
            return Ok(super::resvalue::ResValue::Parts(out));
        }
        let Some(kind) = object_array_kind(m, t).or(match m.types.get(t) {
            Type::Object { kind, .. } => Some(*kind),
            _ => None,
        }) else {
            return unsupported(format!("the member '{name}' of a global struct of resources"), None);
        };
        let (sc, layout) = self.object_storage(kind);
        let counted = matches!(kind, ObjectKind::AppendStructuredBuffer | ObjectKind::ConsumeStructuredBuffer);
        let counter = match (counted, matches!(m.types.get(t), Type::Array { .. })) {
            (false, _) => None,
            (true, false) => Some(self.counter_variable(&name)),
            (true, true) => Some(self.counter_array_variable(&name, t)),
        };
        let ty = if matches!(m.types.get(t), Type::Array { .. }) { self.object_array_ty(t)? } else { self.object_ty(t)? };
        let ptr_ty = self.b.ctx.type_pointer(sc, ty);
        let id = self.b.global_variable(ptr_ty, sc, None);
        self.global_ids.push(id);
        self.b.ctx.name(id, &name);
        self.user_type(id, t);
        self.note_rov(id, t);
        parts.push((id, array_elements(m, t)));
        if let Some(c) = counter {
            self.counter_buffer(id, c);
            counters.push(c);
        }
        Ok(super::resvalue::ResValue::Leaf { ptr: id, sc, layout, counter })
    }

    /// Records resource variable `var` (of type `t`, or an array of it) for the interlock pass
    /// when it is a rasterizer-ordered view ([`crate::passes::interlock`]).
    fn note_rov(&mut self, var: SpvId, mut t: TypeId) {
        use crate::passes::interlock::{RovKind, RovVar};
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        let Type::Object { kind, .. } = self.m.types.get(t) else { return };
        use ObjectKind as K;
        let kind = match kind {
            K::RasterizerOrderedStructuredBuffer => RovKind::Structured,
            K::RasterizerOrderedByteAddressBuffer => RovKind::ByteAddress,
            K::RasterizerOrderedBuffer
            | K::RasterizerOrderedTexture1D
            | K::RasterizerOrderedTexture1DArray
            | K::RasterizerOrderedTexture2D
            | K::RasterizerOrderedTexture2DArray
            | K::RasterizerOrderedTexture3D => RovKind::Image,
            _ => return,
        };
        self.rov_vars.push(RovVar { var: var.0, kind });
    }

    /// `-fspv-reflect`: records the HLSL type of resource variable `var` (of type `t`, or an
    /// array of it) for its `UserTypeGOOGLE` decoration, spelled as DXC spells it: the type's
    /// name in lower case, then its template arguments as written after a colon
    /// (`texture2dmsarray:<float4,64>`, `texture2d` when none were written). Samplers, ray
    /// queries and the like get none, as in DXC.
    fn user_type(&mut self, var: SpvId, mut t: TypeId) {
        if !self.opts.reflect {
            return;
        }
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        let Type::Object { kind, .. } = self.m.types.get(t) else { return };
        use ObjectKind as K;
        let named = matches!(
            kind,
            K::StructuredBuffer | K::RWStructuredBuffer | K::RasterizerOrderedStructuredBuffer | K::ByteAddressBuffer
                | K::RWByteAddressBuffer | K::RasterizerOrderedByteAddressBuffer | K::AppendStructuredBuffer
                | K::ConsumeStructuredBuffer | K::Texture1D | K::Texture2D | K::Texture3D | K::TextureCube
                | K::Texture1DArray | K::Texture2DArray | K::Texture2DMS | K::Texture2DMSArray | K::TextureCubeArray
                | K::RWTexture1D | K::RWTexture2D | K::RWTexture3D | K::RWTexture1DArray | K::RWTexture2DArray
                | K::RasterizerOrderedTexture1D | K::RasterizerOrderedTexture1DArray | K::RasterizerOrderedTexture2D
                | K::RasterizerOrderedTexture2DArray | K::RasterizerOrderedTexture3D | K::Buffer | K::RWBuffer
                | K::RasterizerOrderedBuffer | K::VkSubpassInput | K::VkSubpassInputMS | K::ConstantBuffer
                | K::TextureBuffer | K::RaytracingAccelerationStructure
        );
        if !named {
            return;
        }
        let written = self.m.types.name(t);
        let written = written.strip_prefix("vk::").unwrap_or(&written).to_string();
        let spelled: String = match written.find('<') {
            Some(at) => format!("{}:{}", written[..at].to_lowercase(), written[at..].replace(' ', "")),
            None => written.to_lowercase(),
        };
        self.user_types.push((var, spelled));
    }

    /// `-fspv-reflect`: links a counted buffer with its counter (`CounterBuffer`, DXC's
    /// `HlslCounterBufferGOOGLE`).
    fn counter_buffer(&mut self, buffer: SpvId, counter: SpvId) {
        if self.opts.reflect {
            self.b.extension("SPV_GOOGLE_hlsl_functionality1");
            self.b.ctx.decorate(buffer, &Decoration::with_id(D::CounterBuffer, counter));
        }
    }

    /// `-fspv-reflect`: the `UserTypeGOOGLE` decorations of the resource variables that kept a
    /// descriptor binding, after every other decoration.
    pub(crate) fn finish_user_types(&mut self) {
        for (var, name) in std::mem::take(&mut self.user_types) {
            self.b.extension("SPV_GOOGLE_user_type");
            self.b.ctx.decorate(var, &Decoration::with_string(D::UserTypeGOOGLE, &name));
        }
    }

    /// `globallycoherent` on a resource: `Coherent` on its variable (the Vulkan memory model
    /// turns it into per-access flags). It was parsed and dropped before.
    fn decorate_coherent(&mut self, g: VarId, id: SpvId) {
        if self.m.var(g).globally_coherent {
            self.b.ctx.decorate(id, &Decoration::new(D::Coherent));
        }
    }

    fn bound(&self, var: SpvId, binding: &hlslc_sema::tast::Binding, kind: Option<ObjectKind>, count: u32, order: u64, span: Option<hlslc_frontend::Span>) -> Bound {
        use hlslc_sema::types::ResourceClass as C;
        let class = kind.and_then(|k| k.resource_class()).map(|c| match c {
            C::Srv => 't',
            C::Uav => 'u',
            C::Sampler => 's',
            C::Cbv => 'b',
        });
        Bound { var, binding: binding.clone(), counter_of: None, class, count, order, span, globals: false, parts: Vec::new(), combined: None }
    }

    /// The counter of an append/consume (or counted RW) structured buffer: a `Uniform` block of
    /// one `int`, named `counter.var.NAME` as in DXC.
    fn counter_variable(&mut self, name: &str) -> SpvId {
        let ty = self.counter_struct();
        self.counter_var_of(name, ty)
    }

    /// The counters of an array (of arrays) of counted buffers of type `t`: an array of counter
    /// blocks of the same shape.
    fn counter_array_variable(&mut self, name: &str, t: TypeId) -> SpvId {
        fn shape(l: &mut Lowerer<'_>, t: TypeId) -> SpvId {
            match l.m.types.get(t).clone() {
                Type::Array { elem, len } => {
                    let e = shape(l, elem);
                    match len {
                        Some(n) => l.b.ctx.type_array(e, n, None),
                        None => l.b.ctx.type_runtime_array(e, None),
                    }
                }
                _ => l.counter_struct(),
            }
        }
        let ty = shape(self, t);
        self.counter_var_of(name, ty)
    }

    pub(crate) fn counter_struct(&mut self) -> SpvId {
        let int = self.b.ctx.type_i32();
        self.b.ctx.type_struct(StructType {
            name: "type.ACSBuffer.counter".to_string(),
            members: vec![StructMember { ty: int, name: String::new(), decorations: vec![Decoration::with_literals(D::Offset, &[0])] }],
            decorations: vec![Decoration::new(self.storage_block().1)],
        })
    }

    fn counter_var_of(&mut self, name: &str, ty: SpvId) -> SpvId {
        let sc = self.storage_block().0;
        let ptr = self.b.ctx.type_pointer(sc, ty);
        let id = self.b.global_variable(ptr, sc, None);
        self.global_ids.push(id);
        self.b.ctx.name(id, &format!("counter.var.{name}"));
        id
    }

    /// How a storage buffer is declared: before SPIR-V 1.4 a `BufferBlock` struct in the
    /// `Uniform` class; from 1.4 on (where `BufferBlock` is gone) a `Block` struct in the
    /// `StorageBuffer` class, as DXC does.
    pub(crate) fn storage_block(&self) -> (StorageClass, D) {
        if self.opts.target.spirv_version() >= (1, 4) {
            (StorageClass::StorageBuffer, D::Block)
        } else {
            (StorageClass::Uniform, D::BufferBlock)
        }
    }

    /// Storage class and content layout of a resource variable.
    pub(crate) fn object_storage(&self, kind: ObjectKind) -> (StorageClass, Layout) {
        use ObjectKind::*;
        match kind {
            StructuredBuffer | RWStructuredBuffer | RasterizerOrderedStructuredBuffer | AppendStructuredBuffer
            | ConsumeStructuredBuffer | ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer
            | TextureBuffer => (self.storage_block().0, Layout::Std430),
            ConstantBuffer => (StorageClass::Uniform, Layout::Std140),
            _ => (StorageClass::UniformConstant, Layout::Logical),
        }
    }


    /// [`Self::block_struct`] with members pinned at offsets (`[[vk::offset(n)]]`, see
    /// `LayoutRules::offsets_pinned`).
    /// DXC's SPIR-V check of `packoffset`: a member may not start before the end of the member
    /// declared before it ("packoffset caused overlap with previous members", at the
    /// packoffset; each such member reported). Sema checks the language's rules (what fits
    /// where; DXIL's overlap rule).
    fn check_packoffset_order(&mut self, members: &[hlslc_sema::tast::VarId], tys: &[TypeId], pinned: &[Option<u32>], layout: Layout) -> R<()> {
        let offsets = self.opts.layout.offsets_pinned(&self.m.types, tys, pinned, layout);
        for i in 1..members.len() {
            let Some(at) = pinned[i] else { continue };
            let prev_end = offsets[i - 1].1 + self.opts.layout.align_size(&self.m.types, tys[i - 1], layout).1;
            if at < prev_end {
                self.defer_error("packoffset caused overlap with previous members", self.m.var(members[i]).binding.packoffset_span);
            }
        }
        Ok(())
    }

    /// Offsets of the `$Globals` members, as DXC places them: a global with `register(cN)` at
    /// byte 16 N, the others after the end of the last of those, in declaration order, by the
    /// cbuffer rule. Taken in register order, a `register(cN)` global that starts before the end
    /// of the one before it is an error ("found offset overlap when processing register(cN)
    /// assignment", at its `register`), each such global reported.
    fn globals_offsets(&mut self, members: &[hlslc_sema::tast::VarId], tys: &[TypeId]) -> Vec<Option<u32>> {
        let m = self.m;
        let reg_c = |v: hlslc_sema::tast::VarId| match m.var(v).binding.register {
            Some(('c', n)) => Some(n),
            _ => None,
        };
        // Members in placement order: the `register(c)` ones by register (stable), then the others.
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| reg_c(members[i]).map_or((1, 0), |n| (0, n)));
        let in_order: Vec<TypeId> = order.iter().map(|&i| tys[i]).collect();
        let pins: Vec<Option<u32>> = order.iter().map(|&i| reg_c(members[i]).map(|n| n * 16)).collect();
        let placed = self.opts.layout.offsets_pinned(&m.types, &in_order, &pins, Layout::Std140);
        let mut prev_end = None;
        for &i in &order {
            let Some(n) = reg_c(members[i]) else { break };
            let at = n * 16;
            if prev_end.is_some_and(|end| at < end) {
                let span = m.var(members[i]).binding.register_span;
                self.defer_error(format!("found offset overlap when processing register(c{n}) assignment"), span);
            }
            prev_end = Some(at + self.opts.layout.align_size(&m.types, tys[i], Layout::Std140).1);
        }
        let mut out = vec![None; members.len()];
        for (k, &i) in order.iter().enumerate() {
            out[i] = Some(placed[k].1);
        }
        out
    }

    pub(crate) fn block_struct_pinned(&mut self, name: &str, tys: &[TypeId], pinned: &[Option<u32>], names: &[String], layout: Layout, read_only: bool) -> R<SpvId> {
        let offsets = self.opts.layout.offsets_pinned(&self.m.types, tys, pinned, layout);
        let mut members = Vec::new();
        for (i, &t) in tys.iter().enumerate() {
            let ty = self.ty(t, layout)?;
            let mut decorations = vec![Decoration::with_literals(D::Offset, &[offsets[i].1])];
            decorations.extend(self.matrix_member_decorations(t, layout));
            if read_only {
                decorations.push(Decoration::new(D::NonWritable));
            }
            members.push(StructMember { ty, name: names[i].clone(), decorations });
        }
        let block = if read_only { self.storage_block().1 } else { D::Block };
        Ok(self.b.ctx.type_struct(StructType { name: name.to_string(), members, decorations: vec![Decoration::new(block)] }))
    }

    /// An array (of arrays) of resources: descriptor arrays carry no stride; an unsized one is
    /// a runtime array.
    pub(crate) fn object_array_ty(&mut self, t: TypeId) -> R<SpvId> {
        match self.m.types.get(t).clone() {
            Type::Array { elem, len } => {
                let e = self.object_array_ty(elem)?;
                Ok(match len {
                    Some(n) => self.b.ctx.type_array(e, n, None),
                    None => self.b.ctx.type_runtime_array(e, None),
                })
            }
            _ => self.object_ty(t),
        }
    }

    /// The SPIR-V type of a resource object (the pointee of its variable).
    pub(crate) fn object_ty(&mut self, t: TypeId) -> R<SpvId> {
        self.object_ty_laid_out(t, false)
    }

    /// [`Lowerer::object_ty`], with a `ConstantBuffer` laid out by the storage-buffer rules
    /// when `std430` (a push-constant block).
    pub(crate) fn object_ty_laid_out(&mut self, t: TypeId, std430: bool) -> R<SpvId> {
        let Type::Object { kind, elem, .. } = self.m.types.get(t).clone() else {
            return unsupported(format!("the type '{}'", self.type_name(t)), None);
        };
        use ObjectKind::*;
        if matches!(kind, VkSubpassInput | VkSubpassInputMS) {
            return Ok(self.subpass_image_ty(kind, elem));
        }
        let img = image_shape(kind).map(|i| (i.dim, i.arrayed, i.ms, i.storage));
        if let Some((dim, arrayed, ms, storage)) = img {
            let elem = elem.unwrap_or(hlslc_sema::types::TypeTable::ERROR);
            let comp = self.m.types.component(elem).unwrap_or(ScalarKind::Float);
            let n = match self.m.types.get(elem) {
                Type::Vector(_, n) => *n as u32,
                _ => 1,
            };
            let sampled_type = self.scalar_ty(comp, Layout::Logical);
            let format = match self.image_formats.get(&t) {
                Some(&f) => f,
                None if (storage || dim == Dim::DimBuffer) && !self.opts.unknown_image_format => storage_format(comp, n),
                None => ImageFormat::Unknown,
            };
            let name = image_type_name(dim, arrayed);
            let image = self.b.ctx.type_image(
                ImageType {
                    sampled_type,
                    dim,
                    // DXC leaves the depth unknown (2) except on vk::SampledTexture* (0).
                    depth: if image_shape(kind).is_some_and(|i| i.combined) { 0 } else { 2 },
                    arrayed,
                    multisampled: ms,
                    sampled: if storage { 2 } else { 1 },
                    format,
                    access: None,
                },
                Some(&name),
            );
            if image_shape(kind).is_some_and(|i| i.combined) {
                return Ok(self.b.ctx.type_sampled_image(image, Some("type.sampled.image")));
            }
            return Ok(image);
        }
        match kind {
            SamplerState | SamplerComparisonState => Ok(self.b.ctx.type_sampler(Some("type.sampler"))),
            StructuredBuffer | RWStructuredBuffer | RasterizerOrderedStructuredBuffer | AppendStructuredBuffer
            | ConsumeStructuredBuffer => {
                let elem = elem.unwrap_or(hlslc_sema::types::TypeTable::ERROR);
                let ety = self.ty(elem, Layout::Std430)?;
                let stride = self.opts.layout.array_stride(&self.m.types, elem, Layout::Std430);
                let arr = self.b.ctx.type_runtime_array(ety, Some(stride));
                let mut decorations = vec![Decoration::with_literals(D::Offset, &[0])];
                decorations.extend(self.matrix_member_decorations(elem, Layout::Std430));
                if kind == StructuredBuffer {
                    decorations.push(Decoration::new(D::NonWritable));
                }
                let name = format!("type.{}.{}", kind.name(), self.spirv_type_name(elem));
                Ok(self.b.ctx.type_struct(StructType {
                    name,
                    members: vec![StructMember { ty: arr, name: String::new(), decorations }],
                    decorations: vec![Decoration::new(self.storage_block().1)],
                }))
            }
            ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer => {
                let u = self.b.ctx.type_u32();
                let arr = self.b.ctx.type_runtime_array(u, Some(4));
                let mut decorations = vec![Decoration::with_literals(D::Offset, &[0])];
                if kind == ByteAddressBuffer {
                    decorations.push(Decoration::new(D::NonWritable));
                }
                // DXC names the rasterizer-ordered byte address buffer as the RW one (its
                // structured buffer keeps its own name).
                let name = match kind {
                    RasterizerOrderedByteAddressBuffer => "type.RWByteAddressBuffer".to_string(),
                    _ => format!("type.{}", kind.name()),
                };
                Ok(self.b.ctx.type_struct(StructType {
                    name,
                    members: vec![StructMember { ty: arr, name: String::new(), decorations }],
                    decorations: vec![Decoration::new(self.storage_block().1)],
                }))
            }
            ConstantBuffer | TextureBuffer => {
                let elem = elem.unwrap_or(hlslc_sema::types::TypeTable::ERROR);
                let Type::Struct(sid) = self.m.types.get(elem).clone() else {
                    return unsupported("a ConstantBuffer of a non-struct type", None);
                };
                let def = self.m.types.structs[sid.0 as usize].clone();
                let tys: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                let mut names: Vec<String> = def.bases.iter().map(|_| String::new()).collect();
                names.extend(def.fields.iter().map(|f| f.name.clone()));
                let tb = kind == TextureBuffer;
                let layout = if tb || std430 { Layout::Std430 } else { Layout::Std140 };
                let pins = super::types::struct_pins(&def);
                self.block_struct_pinned(&format!("type.{}.{}", kind.name(), def.name), &tys, &pins, &names, layout, tb)
            }
            RaytracingAccelerationStructure => {
                // Outside ray tracing stages, the type is ray query's (DXC's choice).
                let rt = self.m.entries.iter().any(|e| super::raytracing::ray_model(e.stage).is_some());
                if !rt && !self.opts.ray_tracing_nv {
                    self.require_ray_query();
                }
                Ok(self.b.ctx.type_acceleration_structure(Some("accelerationStructureNV")))
            }
            RayQuery => {
                self.require_ray_query();
                Ok(self.b.ctx.type_ray_query(Some("rayQueryKHR")))
            }
            _ => unsupported(format!("the object type '{}'", kind.name()), None),
        }
    }

    /// DXC's spelling of a type inside a type name (`type.StructuredBuffer.v4float`).
    pub(crate) fn spirv_type_name(&self, t: TypeId) -> String {
        fn scalar(k: ScalarKind) -> &'static str {
            use ScalarKind::*;
            match k {
                Bool => "bool",
                Int16 => "short",
                UInt16 => "ushort",
                Int | Min16Int | Min12Int | LitInt => "int",
                UInt | Min16UInt => "uint",
                Int64 => "long",
                UInt64 => "ulong",
                Half => "half",
                Float | Min16Float | Min10Float | LitFloat => "float",
                Double => "double",
            }
        }
        match self.m.types.get(t) {
            Type::Scalar(k) => scalar(*k).to_string(),
            Type::Vector(k, 1) => scalar(*k).to_string(),
            Type::Vector(k, n) => format!("v{n}{}", scalar(*k)),
            Type::Matrix { elem, rows, cols, .. } => format!("mat{rows}v{cols}{}", scalar(*elem)),
            Type::Struct(s) => self.m.types.structs[s.0 as usize].name.clone(),
            Type::Array { elem, len: Some(n) } => format!("_arr_{}_uint_{n}", self.spirv_type_name(*elem)),
            Type::Array { elem, len: None } => format!("_runtimearr_{}", self.spirv_type_name(*elem)),
            _ => "unknown".to_string(),
        }
    }
}

/// The image behind a texture-like object.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ImageShape {
    pub dim: Dim,
    pub arrayed: bool,
    pub ms: bool,
    /// A storage image or texel buffer (`RW*`): read with `OpImageRead`.
    pub storage: bool,
    /// A `vk::SampledTexture*`: the variable holds an `OpTypeSampledImage`.
    pub combined: bool,
}

impl ImageShape {
    /// Components of the size `OpImageQuerySize[Lod]` returns (array layers included).
    pub fn size_components(&self) -> u32 {
        let base = match self.dim {
            Dim::Dim1D | Dim::DimBuffer => 1,
            Dim::Dim2D | Dim::DimCube | Dim::DimRect | Dim::DimSubpassData => 2,
            _ => 3,
        };
        base + self.arrayed as u32
    }
}

/// The image shape of a texture-like object kind, `None` for other objects.
pub(crate) fn image_shape(kind: ObjectKind) -> Option<ImageShape> {
    use ObjectKind::*;
    let (dim, arrayed, ms, storage, combined) = match kind {
        Texture1D => (Dim::Dim1D, false, false, false, false),
        Texture1DArray => (Dim::Dim1D, true, false, false, false),
        Texture2D => (Dim::Dim2D, false, false, false, false),
        Texture2DArray => (Dim::Dim2D, true, false, false, false),
        Texture2DMS => (Dim::Dim2D, false, true, false, false),
        Texture2DMSArray => (Dim::Dim2D, true, true, false, false),
        Texture3D => (Dim::Dim3D, false, false, false, false),
        TextureCube => (Dim::DimCube, false, false, false, false),
        TextureCubeArray => (Dim::DimCube, true, false, false, false),
        Buffer => (Dim::DimBuffer, false, false, false, false),
        RWTexture1D | RasterizerOrderedTexture1D => (Dim::Dim1D, false, false, true, false),
        RWTexture1DArray | RasterizerOrderedTexture1DArray => (Dim::Dim1D, true, false, true, false),
        RWTexture2D | RasterizerOrderedTexture2D => (Dim::Dim2D, false, false, true, false),
        RWTexture2DArray | RasterizerOrderedTexture2DArray => (Dim::Dim2D, true, false, true, false),
        RWTexture2DMS => (Dim::Dim2D, false, true, true, false),
        RWTexture2DMSArray => (Dim::Dim2D, true, true, true, false),
        RWTexture3D | RasterizerOrderedTexture3D => (Dim::Dim3D, false, false, true, false),
        RWBuffer | RasterizerOrderedBuffer => (Dim::DimBuffer, false, false, true, false),
        VkSampledTexture1D => (Dim::Dim1D, false, false, false, true),
        VkSampledTexture1DArray => (Dim::Dim1D, true, false, false, true),
        VkSampledTexture2D => (Dim::Dim2D, false, false, false, true),
        VkSampledTexture2DArray => (Dim::Dim2D, true, false, false, true),
        VkSampledTexture2DMS => (Dim::Dim2D, false, true, false, true),
        VkSampledTexture2DMSArray => (Dim::Dim2D, true, true, false, true),
        VkSampledTexture3D => (Dim::Dim3D, false, false, false, true),
        VkSampledTextureCube => (Dim::DimCube, false, false, false, true),
        VkSampledTextureCubeArray => (Dim::DimCube, true, false, false, true),
        _ => return None,
    };
    Some(ImageShape { dim, arrayed, ms, storage, combined })
}

/// Whether the buffer variable `g` has a counter: append/consume buffers always, RW structured
/// buffers when a counter method is called on them, directly, through a local alias, or
/// through a buffer parameter of a function they are passed to.
fn has_counter(m: &hlslc_sema::tast::Module, g: VarId, kind: ObjectKind) -> bool {
    match kind {
        ObjectKind::AppendStructuredBuffer | ObjectKind::ConsumeStructuredBuffer => true,
        ObjectKind::RWStructuredBuffer | ObjectKind::RasterizerOrderedStructuredBuffer => {
            counted_variables(m).iter().any(|&v| denotes(m, v, g, 8))
        }
        _ => false,
    }
}

/// The variables whose counter is used: those a counter method is called on, and (to a fixed
/// point) those passed for a buffer parameter whose counter is used.
fn counted_variables(m: &hlslc_sema::tast::Module) -> Vec<VarId> {
    use hlslc_sema::intrinsics::IntrinsicOp as I;
    use hlslc_sema::tast::ExprKind;
    // The variables an expression designates: its root variable, or what the function it
    // calls returns (a resource returned is the caller's, see `resvalue.rs`).
    let root_var = |e| {
        let mut out = Vec::new();
        returned_roots(m, e, 8, &mut out);
        out
    };
    let mut counted: BTreeSet<VarId> = m
        .exprs
        .iter()
        .flat_map(|e| match &e.kind {
            ExprKind::Intrinsic { op: I::MethodIncrementCounter | I::MethodDecrementCounter, object: Some(o), .. } => root_var(*o),
            _ => Vec::new(),
        })
        .collect();
    // Each round adds the arguments of counted parameters one call level up.
    for _ in 0..16 {
        let before = counted.len();
        for e in &m.exprs {
            let ExprKind::Call { func, args, .. } = &e.kind else { continue };
            for (i, &a) in args.iter().enumerate() {
                let Some(&p) = m.func(*func).params.get(i) else { break };
                if counted.contains(&p) {
                    counted.extend(root_var(a));
                }
            }
        }
        // Aliases count for what they were initialized from.
        let aliases: Vec<VarId> = counted.iter().filter_map(|&v| m.var(v).init).flat_map(root_var).collect();
        counted.extend(aliases);
        if counted.len() == before {
            break;
        }
    }
    counted.into_iter().collect()
}

/// The variable under the indices of `e` (`bufs` in `bufs[i]`), or those the `return`s of the
/// function `e` calls designate (to `depth` calls).
fn returned_roots(m: &hlslc_sema::tast::Module, e: hlslc_sema::tast::ExprId, depth: u32, out: &mut Vec<VarId>) {
    use hlslc_sema::tast::{ExprKind, StmtId, StmtKind};
    fn returns(m: &hlslc_sema::tast::Module, s: StmtId, out: &mut Vec<hlslc_sema::tast::ExprId>) {
        match &m.stmt(s).kind {
            StmtKind::Return(Some(e)) => out.push(*e),
            StmtKind::Block(b) => b.iter().for_each(|&x| returns(m, x, out)),
            StmtKind::If { then, otherwise, .. } => {
                returns(m, *then, out);
                if let Some(o) = otherwise {
                    returns(m, *o, out);
                }
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => {
                returns(m, *body, out)
            }
            _ => {}
        }
    }
    match m.expr(indexed_root(m, e)).kind {
        ExprKind::Var(v) => out.push(v),
        ExprKind::Call { func, .. } if depth > 0 => {
            let mut rets = Vec::new();
            if let Some(body) = m.func(func).body {
                returns(m, body, &mut rets);
            }
            for r in rets {
                returned_roots(m, r, depth - 1, out);
            }
        }
        _ => {}
    }
}

/// The array expression under the indices of `e` (`bufs` in `bufs[i][j]`), or `e` itself.
pub(crate) fn indexed_root(m: &hlslc_sema::tast::Module, mut e: hlslc_sema::tast::ExprId) -> hlslc_sema::tast::ExprId {
    while let hlslc_sema::tast::ExprKind::Index { base, .. } = m.expr(e).kind {
        e = base;
    }
    e
}

/// Whether the variable `v` is `g` or a local resource alias initialized (through at most
/// `depth` aliases) from `g` or an element of it (see `stmt.rs::resource_local`).
fn denotes(m: &hlslc_sema::tast::Module, v: VarId, g: VarId, depth: u32) -> bool {
    if v == g {
        return true;
    }
    match m.var(v).init.map(|i| &m.expr(indexed_root(m, i)).kind) {
        Some(hlslc_sema::tast::ExprKind::Var(x)) if depth > 0 && *x != v => denotes(m, *x, g, depth - 1),
        _ => false,
    }
}

/// The object kind of an array (of arrays) of resources, `None` for other types.
/// Elements of a (fixed-size) array of resources: the binding numbers it takes with
/// `-fspv-flatten-resource-arrays`.
fn array_elements(m: &hlslc_sema::tast::Module, t: TypeId) -> u32 {
    match m.types.get(t) {
        Type::Array { elem, len: Some(n) } => n.saturating_mul(array_elements(m, *elem)),
        _ => 1,
    }
}

fn object_array_kind(m: &hlslc_sema::tast::Module, t: TypeId) -> Option<ObjectKind> {
    let mut e = t;
    while let Type::Array { elem, .. } = m.types.get(e) {
        e = *elem;
    }
    match m.types.get(e) {
        Type::Object { kind, .. } if e != t => Some(*kind),
        _ => None,
    }
}

/// DXC's image type names: `type.2d.image`, `type.2d.image.array`, `type.buffer.image`...: the
/// dimension and arrayness only (a multisampled `Texture2DMS` is `type.2d.image` too, told
/// apart by the disassembler's `_0` suffix).
fn image_type_name(dim: Dim, arrayed: bool) -> String {
    let d = match dim {
        Dim::Dim1D => "1d",
        Dim::Dim2D => "2d",
        Dim::Dim3D => "3d",
        Dim::DimCube => "cube",
        Dim::DimBuffer => "buffer",
        _ => "image",
    };
    let mut s = format!("type.{d}.image");
    if arrayed {
        s.push_str(".array");
    }
    s
}

/// The storage image format DXC infers from the element type: 16-bit formats for the
/// min-precision kinds, `R64i`/`R64ui` for a 64-bit integer scalar, none for real 16-bit floats
/// and other 64-bit types, and none for three components (no three-channel storage format
/// exists; DXC leaves those `Unknown`).
fn storage_format(k: ScalarKind, n: u32) -> ImageFormat {
    use ImageFormat as F;
    use ScalarKind as K;
    if n == 3 {
        return F::Unknown;
    }
    match (k, n) {
        (K::Min16Float | K::Min10Float, 1) => return F::R16f,
        (K::Min16Float | K::Min10Float, 2) => return F::Rg16f,
        (K::Min16Float | K::Min10Float, _) => return F::Rgba16f,
        (K::Min16Int | K::Min12Int, 1) => return F::R16i,
        (K::Min16Int | K::Min12Int, 2) => return F::Rg16i,
        (K::Min16Int | K::Min12Int, _) => return F::Rgba16i,
        (K::Min16UInt, 1) => return F::R16ui,
        (K::Min16UInt, 2) => return F::Rg16ui,
        (K::Min16UInt, _) => return F::Rgba16ui,
        (K::Int64, 1) => return F::R64i,
        (K::UInt64, 1) => return F::R64ui,
        _ => {}
    }
    if k.bits() != 32 {
        return F::Unknown;
    }
    match (k.is_float(), k.is_unsigned(), n) {
        (true, _, 1) => F::R32f,
        (true, _, 2) => F::Rg32f,
        (true, _, _) => F::Rgba32f,
        (false, true, 1) => F::R32ui,
        (false, true, 2) => F::Rg32ui,
        (false, true, _) => F::Rgba32ui,
        (false, false, 1) => F::R32i,
        (false, false, 2) => F::Rg32i,
        (false, false, _) => F::Rgba32i,
    }
}
