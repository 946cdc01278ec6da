//! The entry point: DXC's wrapper function that reads stage inputs into `param.var.*`
//! temporaries, calls `src.<entry>`, and writes the results to stage outputs.
//!
//! Stage variables come from semantics: `SV_*` system values map to Vulkan built-ins per stage
//! and direction (`SV_Position` is `Position` out of a vertex shader and `FragCoord` into a pixel
//! shader); every other semantic is a `Location`, assigned in declaration order separately for
//! inputs and outputs (`SV_Target<n>` takes location n; `[[vk::location(n)]]` wins). Struct
//! parameters and return values are flattened field by field.

use super::clip::clip_width;
use super::layout::Layout;
use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_frontend::Span;
use hlslc_sema::entry::{Semantic, SystemValue};
use hlslc_sema::tast::{EntryPoint, Interpolation, ParamDir, Stage, Storage};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId, TypeTable};
use spirv::{BuiltIn, Decoration as D, ExecutionMode, ExecutionModel, FunctionControl, StorageClass};

/// Location counters and the interface list of the entry point.
#[derive(Default)]
pub(crate) struct Io {
    next_in: u32,
    next_out: u32,
    pub(crate) interface: Vec<SpvId>,
    used_in: Vec<u32>,
    used_out: Vec<u32>,
    /// The semantic of an enclosing struct value (`S s : TEXCOORD4`), which replaces the
    /// semantics of its fields: the first leaf takes it as written, later ones the same name with
    /// the index advanced by the locations before them.
    inherit: Option<SemCursor>,
    /// The enclosing struct's semantic that `inherit` counts from.
    inherit_base: Option<Semantic>,
    /// Stage variables made now are per patch (`Patch`): a hull shader's patch constant outputs
    /// and a domain shader's inputs outside its control points.
    pub(crate) patch: bool,
    /// The packed `SV_ClipDistance`/`SV_CullDistance` arrays of the inputs and the outputs.
    clip_in: super::clip::ClipLayout,
    pub(crate) clip_out: super::clip::ClipLayout,
    /// `-fvk-stage-io-order=alpha`: the stage variables without an explicit location, as
    /// (input, variable, semantic, locations), given locations at the end in semantic order.
    alpha: Vec<(bool, SpvId, String, u32)>,
    /// The `Location` (and `Index`) decorations of stage variables with a known location, as
    /// (input, variable, location, index): DXC decorates them after every other decoration of
    /// the stage variables, inputs before outputs, each in creation order.
    fixed: Vec<(bool, SpvId, u32, Option<u32>)>,
    /// The per-vertex inputs (`pervertex.rs`), decorated `PerVertexKHR` after the inputs'
    /// locations, as DXC does.
    per_vertex: Vec<SpvId>,
    /// Every stage variable that takes locations, for dxc's checks of the assignment
    /// ([`Lowerer::check_locations`]).
    loc_vars: Vec<LocVar>,
    /// The semantic of the entry point's first stage variable, which dxc names in its errors
    /// about locations used twice.
    first_semantic: Option<String>,
}

/// A stage variable that takes locations, as dxc's checks see it.
struct LocVar {
    input: bool,
    /// Where `[[vk::location(n)]]` gives its location.
    explicit: Option<Span>,
    /// Its location, when known at creation (explicit, `SV_Target<n>` or in declaration order).
    location: Option<u32>,
    count: u32,
    /// `[[vk::index(n)]]`, else 0.
    index: u32,
    /// An `SV_Target<n>` output without `vk::location`: at location n.
    target: bool,
    span: Span,
}

struct SemCursor {
    first: Option<Semantic>,
    next: u32,
}

impl SemCursor {
    fn new(semantic: &Semantic) -> SemCursor {
        SemCursor { first: Some(semantic.clone()), next: semantic.index() }
    }
    /// The semantic of the next leaf, which takes `locations` locations.
    fn take(&mut self, base: &Semantic, locations: u32) -> Semantic {
        let sem = self.first.take().unwrap_or_else(|| base.with_index(self.next));
        self.next += locations;
        sem
    }
}

/// The stage output variables of one HLSL value: a leaf per scalar/vector, a node per struct
/// (with the SPIR-V type of each field).
#[derive(Clone, Debug)]
pub(crate) enum OutTree {
    /// `index`: the element of an arrayed variable this invocation writes (a hull shader's
    /// output control point); `builtin`: the built-in the variable is, if any.
    Leaf { var: SpvId, var_ty: SpvId, hlsl_spv: SpvId, ty: TypeId, position: bool, index: Option<SpvId>, builtin: Option<BuiltIn> },
    Struct(Vec<(SpvId, OutTree)>),
    /// A per-vertex member (`T[3]`, see `pervertex.rs`) of a returned struct: its vertex 0
    /// (of SPIR-V type `elem`) goes to `inner`.
    Vertex0 { elem: SpvId, inner: Box<OutTree> },
    /// A clip or cull distance value of type `ty`, at element `offset` of the array `var`.
    Clip { var: SpvId, offset: u32, ty: TypeId },
}

/// How many locations a stage variable of type `t` takes: a vector of 64-bit components wider than
/// two takes two, a matrix one per HLSL row, an array one set per element; `None` for types a
/// stage variable cannot have.
fn location_count(types: &TypeTable, t: TypeId) -> Option<u32> {
    let wide = |k: ScalarKind, n: u32| if matches!(k, ScalarKind::Double | ScalarKind::Int64 | ScalarKind::UInt64) && n > 2 { 2 } else { 1 };
    match *types.get(t) {
        Type::Scalar(_) => Some(1),
        Type::Vector(k, n) => Some(wide(k, n as u32)),
        Type::Matrix { elem, rows, cols, .. } => Some(rows as u32 * wide(elem, cols as u32)),
        Type::Array { elem, len: Some(n) } => Some(n * location_count(types, elem)?),
        _ => None,
    }
}

/// The Vulkan attributes of one stage value: `[[vk::location(n)]]` and `[[vk::index(n)]]`
/// (dual-source blending), each with where it is written.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct VkIo {
    pub location: Option<(u32, Span)>,
    pub index: Option<(u32, Span)>,
    /// `[[vk::builtin("Name")]]`: the built-in, or `Err` for a name SPIR-V.rst does not list.
    pub builtin: Option<(Result<BuiltIn, ()>, Span)>,
}

/// The built-ins `[[vk::builtin]]` accepts (SPIR-V.rst, "Builtin variables"), with the names DXC
/// gives their variables. `ViewportMaskNV` is listed there too; it is refused by name.
const VK_BUILTINS: &[(&str, BuiltIn, &str)] = &[
    ("PointSize", BuiltIn::PointSize, "gl_PointSize"),
    ("HelperInvocation", BuiltIn::HelperInvocation, "gl_HelperInvocation"),
    ("BaseVertex", BuiltIn::BaseVertex, ""),
    ("BaseInstance", BuiltIn::BaseInstance, ""),
    ("DrawIndex", BuiltIn::DrawIndex, ""),
    ("DeviceIndex", BuiltIn::DeviceIndex, ""),
];

fn vk_builtin(name: &str, at: Span) -> (Result<BuiltIn, ()>, Span) {
    (VK_BUILTINS.iter().find(|b| b.0 == name).map(|b| b.1).ok_or(()), at)
}

impl VkIo {
    /// The attributes of a parameter.
    pub(crate) fn of(b: &hlslc_sema::tast::Binding, span: Span) -> VkIo {
        VkIo { location: b.vk_location.map(|l| (l, span)), index: b.vk_index.map(|i| (i, span)), builtin: b.vk_builtin.as_ref().map(|(n, at)| vk_builtin(n, *at)) }
    }
    /// The attributes of a function's return value (written on the function).
    pub(crate) fn of_return(f: &hlslc_sema::tast::Function) -> VkIo {
        let int = |name: &str| {
            f.attrs.iter().find(|a| a.namespace.as_deref() == Some("vk") && a.name == name).and_then(|a| match a.args.first() {
                Some(hlslc_sema::tast::AttrArg::Int(n)) => Some((*n as u32, f.span)),
                _ => None,
            })
        };
        let builtin = f.attrs.iter().find(|a| a.namespace.as_deref() == Some("vk") && a.name == "builtin").and_then(|a| match a.args.first() {
            Some(hlslc_sema::tast::AttrArg::Str(s)) => Some(vk_builtin(s, a.span)),
            _ => None,
        });
        VkIo { location: int("location"), index: int("index"), builtin }
    }
    fn loc(&self) -> Option<u32> {
        self.location.map(|l| l.0)
    }
}

/// The members of a struct as SPIR-V lays them out (base classes first, then the fields), with
/// their semantics, interpolation and Vulkan attributes.
pub(crate) fn struct_members(def: &hlslc_sema::types::StructDef) -> Vec<(TypeId, Option<Semantic>, Interpolation, VkIo)> {
    let bases = def.bases.iter().map(|&b| (b, None, Interpolation::default(), VkIo::default()));
    bases.chain(def.fields.iter().map(|f| (f.ty, f.semantic.clone(), f.interpolation, VkIo { location: f.vk.location, index: f.vk.index, builtin: f.vk.builtin.as_ref().map(|(n, at)| vk_builtin(n, *at)) }))).collect()
}

/// The per-vertex type of a geometry shader's output stream type.
fn stream_elem(types: &TypeTable, t: TypeId) -> Option<TypeId> {
    match types.get(t) {
        Type::Object { kind: ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream, elem, .. } => *elem,
        _ => None,
    }
}

/// What one semantic becomes.
enum Slot {
    BuiltIn(BuiltIn, &'static str),
    Location(Option<u32>),
}

impl<'m> Lowerer<'m> {
    pub(crate) fn lower_entry(&mut self, ep: &EntryPoint) -> R<()> {
        let m = self.m;
        let f = m.func(ep.func);
        if let Some(model) = super::raytracing::ray_model(ep.stage) {
            return self.lower_ray_entry(ep, model);
        }
        let model = match ep.stage {
            Stage::Vertex => ExecutionModel::Vertex,
            Stage::Pixel => ExecutionModel::Fragment,
            Stage::Compute => ExecutionModel::GLCompute,
            Stage::Geometry => {
                self.b.capability(spirv::Capability::Geometry);
                ExecutionModel::Geometry
            }
            Stage::Amplification if self.mesh_nv() => ExecutionModel::TaskNV,
            Stage::Amplification => ExecutionModel::TaskEXT,
            Stage::Mesh if self.mesh_nv() => ExecutionModel::MeshNV,
            Stage::Mesh => ExecutionModel::MeshEXT,
            Stage::Hull => ExecutionModel::TessellationControl,
            Stage::Domain => ExecutionModel::TessellationEvaluation,
            other => return unsupported(format!("{other:?} shaders"), Some(f.span)),
        };
        let src = self.func_id(ep.func);
        let wrapper = self.b.ctx.alloc_id();
        let void = self.b.ctx.type_void();
        let fty = self.b.ctx.type_function(void, &[]);
        self.b.begin_function(wrapper, void, fty, FunctionControl::NONE)?;
        // A library's entry points keep their function names; `-E` names a stage target's one.
        let name = if m.entry.is_none() || self.opts.entry_name.is_empty() { f.name.clone() } else { self.opts.entry_name.clone() };
        self.b.ctx.name(wrapper, &name);
        let bb = self.b.new_block()?;
        self.b.switch_to_block(bb)?;
        self.debug_wrapper_start(ep.func, wrapper)?;
        let mut io = Io::default();
        let (clip_in, clip_out) = self.clip_layouts(ep, &mut io.interface);
        (io.clip_in, io.clip_out) = (clip_in, clip_out);

        // Static globals get their initial values before anything runs.
        for &g in &m.globals {
            let var = m.var(g);
            if var.storage == Storage::Static && !matches!(self.vars.get(&g), Some(super::VarHome::Alias(_))) {
                if let Some(init) = var.init {
                    // Operators on specialization constants stay specialization constants here.
                    self.spec_mode = true;
                    let v = self.rvalue(init);
                    self.spec_mode = false;
                    let v = v?;
                    if let Some(super::VarHome::Ptr { ptr, .. }) = self.vars.get(&g).cloned() {
                        self.b.store(ptr, v, None)?;
                    }
                }
            }
        }

        let mut args = Vec::new();
        let mut outs = Vec::new();
        let mut hull = super::stages::HullParams::default();
        for &p in &f.params {
            let var = m.var(p);
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            let tmp = self.temp_var(var.ty, &format!("param.var.{}", var.name))?;
            if let Some(elem) = stream_elem(&self.m.types, var.ty) {
                // A geometry shader's output stream: its stage variables are written by `Append`.
                let tree = self.declare_output(ep.stage, elem, var.semantic.as_ref(), var.interpolation, VkIo::of(&var.binding, var.span), var.span, &mut io, None)?;
                self.stream_out.get_or_insert(tree);
                args.push(tmp);
                continue;
            }
            if ep.stage == Stage::Mesh && var.primitive.is_some() {
                // Mesh outputs are written in place; the payload is read from its own storage.
                self.mesh_param(ep, p, tmp, &mut io)?;
                args.push(tmp);
                continue;
            }
            if dir != ParamDir::Out {
                // Per-vertex inputs of a geometry shader are arrays over the primitive's vertices.
                // ... and so are the control points of a hull or domain shader's patch.
                let (ty, arrayed) = match (ep.stage, var.primitive, self.m.types.get(var.ty)) {
                    (Stage::Geometry, Some(_), Type::Array { elem, len: Some(n) }) => (*elem, Some(*n)),
                    (Stage::Hull | Stage::Domain, _, &Type::Object { kind: ObjectKind::InputPatch | ObjectKind::OutputPatch, elem: Some(e), count: Some(n) }) => (e, Some(n)),
                    _ => (var.ty, None),
                };
                io.patch = ep.stage == Stage::Domain && arrayed.is_none();
                let first = io.interface.len();
                let v = self.read_input(ep.stage, ty, var.semantic.as_ref(), var.interpolation, VkIo::of(&var.binding, var.span), arrayed, var.span, &mut io)?;
                self.entry_io_decorations(&var.attrs, &io.interface[first..], var.span)?;
                io.patch = false;
                self.b.store(tmp, v, None)?;
                if ep.stage == Stage::Hull {
                    hull.note(&self.m.types, var, tmp, v);
                }
            }
            if dir != ParamDir::In {
                outs.push((tmp, var.ty, var.semantic.clone(), var.interpolation, VkIo::of(&var.binding, var.span), var.span, &var.attrs));
            }
            args.push(tmp);
        }
        if matches!(ep.stage, Stage::Mesh | Stage::Amplification) && self.mesh_nv() {
            // After the parameters' variables, as DXC orders the interface.
            self.mesh_nv_entry_vars(ep, &mut io)?;
        }
        let ret = self.ty(f.ret, Layout::Logical)?;
        let r = self.b.function_call(ret, src, &args)?;
        let mut hull_out = None;
        if ep.stage == Stage::Hull {
            // The result is one output control point, written at the invocation's index.
            hull_out = self.hull_outputs(ep, &hull, r, &mut io)?;
        } else if f.ret != TypeTable::VOID {
            let first = io.interface.len();
            self.write_output(ep.stage, f.ret, f.ret_semantic.as_ref(), Interpolation::default(), VkIo::of_return(f), r, f.span, &mut io)?;
            self.entry_io_decorations(&f.attrs, &io.interface[first..], f.span)?;
        }
        for (tmp, ty, sem, interp, loc, span, attrs) in outs {
            let t = self.ty(ty, Layout::Logical)?;
            let v = self.b.load(t, tmp, None)?;
            let first = io.interface.len();
            self.write_output(ep.stage, ty, sem.as_ref(), interp, loc, v, span, &mut io)?;
            self.entry_io_decorations(attrs, &io.interface[first..], span)?;
        }
        if ep.stage == Stage::Hull {
            self.hull_patch_constants(ep, &hull, hull_out.as_ref(), &mut io)?;
        }
        self.b.ret()?;
        self.b.end_function()?;
        self.finish_locations(&mut io);

        let mut interface = io.interface;
        if matches!(ep.stage, Stage::Mesh | Stage::Amplification) && self.mesh_nv() {
            // DXC's NV interface lists the inputs first, then the outputs (each in order).
            let (inputs, outputs): (Vec<SpvId>, Vec<SpvId>) = interface.iter().partition(|&&v| self.b.global_storage(v) == Some(StorageClass::Input));
            interface = inputs.into_iter().chain(outputs).collect();
        }
        if self.opts.target.spirv_version() >= (1, 4) {
            interface.extend(self.global_ids.iter().copied());
        }
        self.b.entry_point(model, wrapper, &name, interface);
        self.spv_execution_modes(ep.func, wrapper)?;
        match ep.stage {
            Stage::Pixel => self.b.execution_mode(wrapper, ExecutionMode::OriginUpperLeft, &[]),
            Stage::Compute | Stage::Amplification => self.local_size(ep, wrapper)?,
            Stage::Geometry => self.geometry_modes(ep, wrapper)?,
            Stage::Hull | Stage::Domain => self.tessellation_modes(ep, wrapper)?,
            Stage::Mesh => self.mesh_modes(ep, wrapper)?,
            _ => {}
        }
        if self.depth_replacing {
            self.b.execution_mode(wrapper, ExecutionMode::DepthReplacing, &[]);
        }
        self.pixel_modes(ep, wrapper)?;
        if self.opts.maximal_reconvergence {
            self.b.execution_mode(wrapper, ExecutionMode::MaximallyReconvergesKHR, &[]);
        }
        Ok(())
    }

    /// Reads the stage inputs of a value of type `ty`. With `arrayed: Some(n)` (per-vertex
    /// inputs of geometry shaders) every stage variable is an array of `n` and the result is an
    /// array of `n` values of `ty`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_input(
        &mut self,
        stage: Stage,
        ty: TypeId,
        semantic: Option<&Semantic>,
        interp: Interpolation,
        vk: VkIo,
        arrayed: Option<u32>,
        span: Span,
        io: &mut Io,
    ) -> R<SpvId> {
        if let (true, None, &Type::Array { elem, len: Some(3) }) = (interp.per_vertex, arrayed, self.m.types.get(ty)) {
            // A per-vertex input (`pervertex.rs`): the three vertices' values.
            return self.read_input(stage, elem, semantic, interp, vk, Some(3), span, io);
        }
        if let Type::Struct(sid) = self.m.types.get(ty).clone() {
            let def = self.m.types.structs[sid.0 as usize].clone();
            let starts_inherit = semantic.is_some() && io.inherit.is_none();
            if starts_inherit {
                io.inherit = semantic.map(SemCursor::new);
                io.inherit_base = semantic.cloned();
            }
            // Base classes are the first members, each read like a field without a semantic.
            let members = struct_members(&def);
            let mut parts = Vec::new();
            for (mty, msem, minterp, mvk) in &members {
                parts.push(self.read_input(stage, *mty, msem.as_ref(), *minterp, *mvk, arrayed, span, io)?);
            }
            if starts_inherit {
                io.inherit = None;
            }
            let t = self.ty(ty, Layout::Logical)?;
            let Some(n) = arrayed else {
                return Ok(self.b.composite_construct(t, &parts)?);
            };
            // One array per field: transpose into an array of structs.
            let mut elems = Vec::new();
            for i in 0..n {
                let mut fields = Vec::new();
                for ((mty, ..), &arr) in members.iter().zip(&parts) {
                    let ft = self.ty(*mty, Layout::Logical)?;
                    fields.push(self.b.composite_extract(ft, arr, &[i])?);
                }
                elems.push(self.b.composite_construct(t, &fields)?);
            }
            let at = self.b.ctx.type_array(t, n, None);
            return Ok(self.b.composite_construct(at, &elems)?);
        }
        if let Some((Ok(BuiltIn::HelperInvocation), at)) = vk.builtin {
            self.check_vk_builtin(stage, ty, true, vk, BuiltIn::HelperInvocation, at)?;
            let value = self.helper_invocation(arrayed, at)?;
            // The built-in variable (SPIR-V 1.6) is part of this entry point's interface.
            if let Some(&var) = self.builtin_vars.get(&BuiltIn::HelperInvocation) {
                if !io.interface.contains(&var) {
                    io.interface.push(var);
                }
            }
            return Ok(value);
        }
        let inherited = self.inherited_semantic(ty, io);
        let Some(sem) = inherited.as_ref().or(semantic) else {
            return unsupported("an entry point parameter without a semantic", Some(span));
        };
        if arrayed.is_none() && clip_width(&self.m.types, ty).is_some() {
            if let Some((var, offset)) = io.clip_in.lookup(sem) {
                return self.read_clip(var, offset, ty);
            }
        }
        let (var, var_ty, hlsl_ty_spv, builtin) = self.stage_var(stage, ty, sem, true, interp, vk, arrayed, span, io)?;
        let Some(n) = arrayed else {
            let v = self.b.load(var_ty, var, None)?;
            if let Some(b @ (BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner)) = builtin {
                return self.tess_level_in(b, v, ty);
            }
            if let Some(b @ (BuiltIn::InstanceIndex | BuiltIn::VertexIndex)) = builtin {
                let v = self.subtract_draw_base(b, v, var_ty, io)?;
                return self.adapt(v, var_ty, hlsl_ty_spv, ty);
            }
            if let (Some(BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR), Type::Vector(_, 3)) = (builtin, self.m.types.get(ty)) {
                // As DXC does: the third coordinate is 1 - x - y.
                let float = self.b.ctx.type_f32();
                let one = self.b.ctx.const_f32(1.0);
                let x = self.b.composite_extract(float, v, &[0])?;
                let y = self.b.composite_extract(float, v, &[1])?;
                let xy = self.b.binary(spirv::Op::FAdd, float, x, y)?;
                let z = self.b.binary(spirv::Op::FSub, float, one, xy)?;
                let v = self.b.composite_construct(var_ty, &[x, y, z])?;
                return self.adapt(v, var_ty, hlsl_ty_spv, ty);
            }
            if builtin == Some(BuiltIn::FragCoord) && self.opts.dx_position_w {
                // -fvk-use-dx-position-w: DirectX's SV_Position.w is 1/w.
                let float = self.b.ctx.type_f32();
                let one = self.b.ctx.const_f32(1.0);
                let w = self.b.composite_extract(float, v, &[3])?;
                let inv = self.b.binary(spirv::Op::FDiv, float, one, w)?;
                let v = self.b.composite_insert(var_ty, inv, v, &[3])?;
                return self.adapt(v, var_ty, hlsl_ty_spv, ty);
            }
            return self.adapt(v, var_ty, hlsl_ty_spv, ty);
        };
        let arr_var_ty = self.b.ctx.type_array(var_ty, n, None);
        let v = self.b.load(arr_var_ty, var, None)?;
        if var_ty == hlsl_ty_spv {
            return Ok(v);
        }
        let mut elems = Vec::new();
        for i in 0..n {
            let x = self.b.composite_extract(var_ty, v, &[i])?;
            elems.push(self.adapt(x, var_ty, hlsl_ty_spv, ty)?);
        }
        let at = self.b.ctx.type_array(hlsl_ty_spv, n, None);
        Ok(self.b.composite_construct(at, &elems)?)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write_output(
        &mut self,
        stage: Stage,
        ty: TypeId,
        semantic: Option<&Semantic>,
        interp: Interpolation,
        vk: VkIo,
        value: SpvId,
        span: Span,
        io: &mut Io,
    ) -> R<()> {
        let tree = self.declare_output(stage, ty, semantic, interp, vk, span, io, None)?;
        self.store_output(stage, &tree, value)
    }

    /// Creates the stage output variables of a value of type `ty` (a struct is flattened field by
    /// field).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn declare_output(
        &mut self,
        stage: Stage,
        ty: TypeId,
        semantic: Option<&Semantic>,
        interp: Interpolation,
        vk: VkIo,
        span: Span,
        io: &mut Io,
        per_cp: Option<(u32, SpvId)>,
    ) -> R<OutTree> {
        if let (true, &Type::Array { elem, len: Some(3) }) = (interp.per_vertex, self.m.types.get(ty)) {
            // A per-vertex member of a returned struct (`pervertex.rs`): its vertex 0.
            let inner = self.declare_output(stage, elem, semantic, Interpolation { per_vertex: false, ..interp }, vk, span, io, per_cp)?;
            let elem = self.ty(elem, Layout::Logical)?;
            return Ok(OutTree::Vertex0 { elem, inner: Box::new(inner) });
        }
        if let Type::Struct(sid) = self.m.types.get(ty).clone() {
            let def = self.m.types.structs[sid.0 as usize].clone();
            let starts_inherit = semantic.is_some() && io.inherit.is_none();
            if starts_inherit {
                io.inherit = semantic.map(SemCursor::new);
                io.inherit_base = semantic.cloned();
            }
            let mut fields = Vec::new();
            for (mty, msem, minterp, mvk) in struct_members(&def) {
                let ft = self.ty(mty, Layout::Logical)?;
                fields.push((ft, self.declare_output(stage, mty, msem.as_ref(), minterp, mvk, span, io, per_cp)?));
            }
            if starts_inherit {
                io.inherit = None;
            }
            return Ok(OutTree::Struct(fields));
        }
        let inherited = self.inherited_semantic(ty, io);
        let Some(sem) = inherited.as_ref().or(semantic) else {
            return unsupported("an entry point output without a semantic", Some(span));
        };
        if per_cp.is_none() && clip_width(&self.m.types, ty).is_some() {
            if let Some((var, offset)) = io.clip_out.lookup(sem) {
                return Ok(OutTree::Clip { var, offset, ty });
            }
        }
        let (var, var_ty, hlsl_spv, builtin) = self.stage_var(stage, ty, sem, false, interp, vk, per_cp.map(|p| p.0), span, io)?;
        let position = sem.is(SystemValue::Position) && sem.len() == sem.name().len();
        Ok(OutTree::Leaf { var, var_ty, hlsl_spv, ty, position, index: per_cp.map(|p| p.1), builtin })
    }

    /// Stores `value` into the stage output variables `tree` describes.
    pub(crate) fn store_output(&mut self, stage: Stage, tree: &OutTree, value: SpvId) -> R<()> {
        match tree {
            OutTree::Struct(fields) => {
                for (i, (ft, sub)) in fields.iter().enumerate() {
                    let v = self.b.composite_extract(*ft, value, &[i as u32])?;
                    self.store_output(stage, sub, v)?;
                }
                Ok(())
            }
            &OutTree::Clip { var, offset, ty } => self.write_clip(var, offset, ty, value),
            OutTree::Vertex0 { elem, inner } => {
                let v = self.b.composite_extract(*elem, value, &[0])?;
                self.store_output(stage, inner, v)
            }
            &OutTree::Leaf { var, var_ty, hlsl_spv, ty, position, index, builtin } => {
                if let Some(b @ (BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner)) = builtin {
                    return self.tess_level_out(b, var, value, ty);
                }
                let v = self.adapt(value, hlsl_spv, var_ty, ty)?;
                let v = if self.opts.invert_y && position && matches!(stage, Stage::Vertex | Stage::Domain | Stage::Geometry) {
                    let f = self.b.ctx.type_f32();
                    let y = self.b.composite_extract(f, v, &[1])?;
                    let ny = self.b.unary(spirv::Op::FNegate, f, y)?;
                    self.b.composite_insert(var_ty, ny, v, &[1])?
                } else {
                    v
                };
                let ptr = match index {
                    Some(i) => {
                        let pty = self.b.ctx.type_pointer(StorageClass::Output, var_ty);
                        self.b.access_chain(pty, var, &[i])?
                    }
                    None => var,
                };
                self.b.store(ptr, v, None)?;
                Ok(())
            }
        }
    }

    /// The semantic a leaf of type `ty` inherits from an enclosing struct's semantic, if any.
    fn inherited_semantic(&self, ty: TypeId, io: &mut Io) -> Option<Semantic> {
        let n = location_count(&self.m.types, ty).unwrap_or(1);
        let base = io.inherit_base.clone()?;
        io.inherit.as_mut().map(|c| c.take(&base, n))
    }

    /// Converts between the stage variable's type and the HLSL value's type (built-ins with more
    /// components than declared, `bool` stage variables stored as `uint`).
    pub(crate) fn adapt(&mut self, v: SpvId, from: SpvId, to: SpvId, hlsl: TypeId) -> R<SpvId> {
        if from == to {
            return Ok(v);
        }
        let k = self.m.types.component(hlsl).unwrap_or(ScalarKind::UInt);
        let n = match self.m.types.get(hlsl) {
            Type::Vector(_, n) => *n as u32,
            _ => 1,
        };
        if let Some(crate::types::Type::Vector { elem, count }) = self.b.ctx.type_of(from).cloned() {
            if count > n {
                // A wider built-in (uint3 for SV_DispatchThreadID) read into a narrower value.
                let narrow = if n == 1 { elem } else { self.b.ctx.type_vector(elem, n) };
                let x = if n == 1 {
                    self.b.composite_extract(narrow, v, &[0])?
                } else {
                    self.b.vector_shuffle(narrow, v, v, &(0..n).collect::<Vec<_>>())?
                };
                return self.adapt(x, narrow, to, hlsl);
            }
        }
        if k.is_bool() {
            // bool values live in uint stage variables.
            let bool_ty = self.vector_ty(ScalarKind::Bool, n, Layout::Logical);
            return if from == bool_ty {
                self.convert_kind(v, ScalarKind::Bool, ScalarKind::UInt, n)
            } else {
                self.convert_kind(v, ScalarKind::UInt, ScalarKind::Bool, n)
            };
        }
        Ok(self.b.unary(spirv::Op::Bitcast, to, v)?)
    }

    /// Creates the stage variable for `semantic`: returns (variable, its value type, the value
    /// type of the HLSL side).
    #[allow(clippy::too_many_arguments)]
    /// The `Location` decorations, as DXC's `finalizeStageIOLocations` writes them: the inputs,
    /// then the outputs; in each, the variables whose location is known (explicit, `SV_Target`
    /// or assigned in declaration order) and then, with `-fvk-stage-io-order=alpha`, the others
    /// numbered in the order of their semantic strings (as dxc sorts them: `TEXCOORD10` before
    /// `TEXCOORD2`), after the explicit ones.
    fn finish_locations(&mut self, io: &mut Io) {
        self.check_locations(io);
        let fixed = std::mem::take(&mut io.fixed);
        let mut alpha = std::mem::take(&mut io.alpha);
        alpha.sort_by(|a, b| a.2.cmp(&b.2));
        for dir in [true, false] {
            for &(_, var, location, index) in fixed.iter().filter(|f| f.0 == dir) {
                self.b.ctx.decorate(var, &Decoration::with_literals(D::Location, &[location]));
                if let Some(index) = index {
                    self.b.ctx.decorate(var, &Decoration::with_literals(D::Index, &[index]));
                }
            }
            for &(input, var, _, count) in alpha.iter().filter(|a| a.0 == dir) {
                let (next, used) = if input { (&mut io.next_in, &mut io.used_in) } else { (&mut io.next_out, &mut io.used_out) };
                while (*next..*next + count).any(|l| used.contains(&l)) {
                    *next += 1;
                }
                let location = *next;
                used.extend(location..location + count);
                self.b.ctx.decorate(var, &Decoration::with_literals(D::Location, &[location]));
            }
            if dir {
                for var in std::mem::take(&mut io.per_vertex) {
                    self.b.ctx.decorate(var, &Decoration::new(D::PerVertexKHR));
                }
            }
        }
    }

    /// dxc's checks of the stage variables' locations, for the inputs and then the outputs of
    /// the entry point (each reported, lowering goes on): when every variable that takes a
    /// location has a `[[vk::location]]`, no location may be used twice (dxc names the entry
    /// point's first stage variable in the error, whichever variable used the location first);
    /// a `vk::location` on only some of them is refused; otherwise two `SV_Target<n>` outputs
    /// may not share n.
    fn check_locations(&mut self, io: &Io) {
        let first = io.first_semantic.clone().unwrap_or_default();
        for input in [true, false] {
            let dir = if input { "input" } else { "output" };
            let vars: Vec<&LocVar> = io.loc_vars.iter().filter(|v| v.input == input).collect();
            if vars.iter().all(|v| v.explicit.is_some()) {
                let mut used: Vec<(u32, u32)> = Vec::new();
                for v in &vars {
                    let loc = v.location.unwrap_or(0);
                    for l in loc..loc + v.count {
                        if used.contains(&(l, v.index)) {
                            self.defer_error(format!("stage {dir} location #{l} already consumed by semantic '{first}'"), v.explicit);
                        }
                        used.push((l, v.index));
                    }
                }
            } else if vars.iter().any(|v| v.explicit.is_some()) {
                self.defer_error(format!("partial explicit stage {dir} location assignment via vk::location(X) unsupported"), None);
            } else {
                let mut used: Vec<u32> = Vec::new();
                for v in vars.iter().filter(|v| v.target) {
                    let loc = v.location.unwrap_or(0);
                    if used.contains(&loc) {
                        self.defer_error(format!("Multiple stage variables have a duplicated pair of location and index at {loc} / 0"), Some(v.span));
                        break;
                    }
                    used.push(loc);
                }
            }
        }
    }

    /// `-fvk-support-nonzero-base-instance` / `-vertex`: `SV_InstanceID` and `SV_VertexID` count
    /// from the draw's first instance or vertex, as in Direct3D, so the built-in's base is
    /// subtracted (`gl_InstanceIndex - gl_BaseInstance`).
    fn subtract_draw_base(&mut self, b: BuiltIn, value: SpvId, ty: SpvId, io: &mut Io) -> R<SpvId> {
        let base = match b {
            BuiltIn::InstanceIndex if self.opts.nonzero_base_instance => BuiltIn::BaseInstance,
            BuiltIn::VertexIndex if self.opts.nonzero_base_vertex => BuiltIn::BaseVertex,
            _ => return Ok(value),
        };
        let pty = self.b.ctx.type_pointer(StorageClass::Input, ty);
        let var = self.b.global_variable(pty, StorageClass::Input, None);
        io.interface.push(var);
        if base == BuiltIn::BaseInstance {
            // dxc names the base instance only.
            self.b.ctx.name(var, "gl_BaseInstance");
        }
        self.b.ctx.decorate(var, &Decoration::with_literals(D::BuiltIn, &[base as u32]));
        self.b.capability(spirv::Capability::DrawParameters);
        self.b.extension("SPV_KHR_shader_draw_parameters");
        let base_value = self.b.load(ty, var, None)?;
        let id = self.b.binary(spirv::Op::ISub, ty, value, base_value)?;
        // Through a local named after the semantic, as dxc writes it.
        let pty = self.b.ctx.type_pointer(StorageClass::Function, ty);
        let local = self.b.local_variable(pty, None)?;
        self.b.ctx.name(local, if b == BuiltIn::InstanceIndex { "SV_InstanceID" } else { "SV_VertexID" });
        self.b.store(local, id, None)?;
        Ok(self.b.load(ty, local, None)?)
    }

    pub(crate) fn stage_var(
        &mut self,
        stage: Stage,
        ty: TypeId,
        semantic: &Semantic,
        input: bool,
        interp: Interpolation,
        vk: VkIo,
        arrayed: Option<u32>,
        span: Span,
        io: &mut Io,
    ) -> R<(SpvId, SpvId, SpvId, Option<BuiltIn>)> {
        let hlsl_spv = self.ty(ty, Layout::Logical)?;
        if io.first_semantic.is_none() {
            io.first_semantic = Some(semantic.as_str().to_string());
        }
        let slot = match vk.builtin {
            Some((b, at)) => {
                let Ok(b) = b else {
                    return Err(super::LowerError {
                        fatal: false,
                        message: "unknown vk::builtin name (SPIR-V.rst lists PointSize, HelperInvocation, BaseVertex, BaseInstance, DrawIndex, DeviceIndex)".into(),
                        span: Some(at),
                        notes: Vec::new(),
                    });
                };
                self.check_vk_builtin(stage, ty, input, vk, b, at)?;
                Slot::BuiltIn(b, VK_BUILTINS.iter().find(|x| x.1 == b).map_or("", |x| x.2))
            }
            None => slot_of(stage, semantic, input, interp, vk.loc()),
        };
        let tess_level = matches!(slot, Slot::BuiltIn(BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner, _));
        // Built-ins are scalars or vectors; a location may also hold a matrix or an array of
        // numeric values (but not of bool, whose uint stage type would need a conversion per
        // element).
        let locations = match (&slot, location_count(&self.m.types, ty)) {
            // Tessellation levels are float arrays (or a scalar inside factor).
            (Slot::BuiltIn(..), _) if tess_level => match self.m.types.get(ty) {
                Type::Scalar(ScalarKind::Float) => Some(1),
                Type::Array { elem, len: Some(n @ 1..=4) } if *self.m.types.get(*elem) == Type::Scalar(ScalarKind::Float) => Some(*n),
                _ => None,
            },
            (Slot::BuiltIn(..), _) if !matches!(self.m.types.get(ty), Type::Scalar(_) | Type::Vector(..)) => None,
            (_, Some(n)) if n == 1 || !self.m.types.component(ty).is_some_and(|k| k.is_bool()) => Some(n),
            _ => None,
        };
        let Some(locations) = locations else {
            return unsupported(format!("stage variables of type '{}'", self.type_name(ty)), Some(span));
        };
        let sc = if input { StorageClass::Input } else { StorageClass::Output };
        let k = self.m.types.component(ty).unwrap_or(ScalarKind::Float);
        let var_ty = match &slot {
            Slot::BuiltIn(b, _) => match b {
                BuiltIn::GlobalInvocationId | BuiltIn::LocalInvocationId | BuiltIn::WorkgroupId => {
                    let u = self.b.ctx.type_u32();
                    self.b.ctx.type_vector(u, 3)
                }
                BuiltIn::LocalInvocationIndex | BuiltIn::VertexIndex | BuiltIn::InstanceIndex | BuiltIn::PrimitiveId
                | BuiltIn::SampleId | BuiltIn::InvocationId | BuiltIn::Layer | BuiltIn::ViewportIndex
                | BuiltIn::ViewIndex => {
                    if k.is_signed_int() {
                        self.b.ctx.type_i32()
                    } else {
                        self.b.ctx.type_u32()
                    }
                }
                BuiltIn::FrontFacing => self.b.ctx.type_bool(),
                BuiltIn::TessCoord => {
                    let f = self.b.ctx.type_f32();
                    self.b.ctx.type_vector(f, 3)
                }
                BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner => {
                    let f = self.b.ctx.type_f32();
                    let n = if *b == BuiltIn::TessLevelOuter { 4 } else { 2 };
                    self.b.ctx.type_array(f, n, None)
                }
                _ => hlsl_spv,
            },
            Slot::Location(_) if k.is_bool() => {
                let n = match self.m.types.get(ty) {
                    Type::Vector(_, n) => *n as u32,
                    _ => 1,
                };
                self.vector_ty(ScalarKind::UInt, n, Layout::Logical)
            }
            Slot::Location(_) => hlsl_spv,
        };
        let stored_ty = match arrayed {
            Some(n) => self.b.ctx.type_array(var_ty, n, None),
            None => var_ty,
        };
        let pty = self.b.ctx.type_pointer(sc, stored_ty);
        let var = self.b.global_variable(pty, sc, None);
        io.interface.push(var);
        let builtin = match slot {
            Slot::BuiltIn(b, _) => Some(b),
            Slot::Location(_) => None,
        };
        match slot {
            Slot::BuiltIn(b, name) => {
                if !name.is_empty() {
                    self.b.ctx.name(var, name);
                }
                self.b.ctx.decorate(var, &Decoration::with_literals(D::BuiltIn, &[b as u32]));
                self.user_semantic(var, semantic.as_str());
                if b == BuiltIn::FragDepth {
                    self.depth_replacing = true;
                }
                match b {
                    BuiltIn::SampleId => self.b.capability(spirv::Capability::SampleRateShading),
                    BuiltIn::ViewportIndex if matches!(stage, Stage::Geometry | Stage::Pixel) => self.b.capability(spirv::Capability::MultiViewport),
                    // Its extension comes from the capability pass, in the order of the
                    // built-ins' decorations as DXC lists them.
                    BuiltIn::ViewIndex => self.b.capability(spirv::Capability::MultiView),
                    BuiltIn::Layer | BuiltIn::PrimitiveId if stage == Stage::Pixel => {
                        self.b.capability(spirv::Capability::Geometry)
                    }
                    _ => {}
                }
                if matches!(b, BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR) {
                    // The interpolation of the barycentrics is the built-in's (its kind,
                    // perspective or not, is in the built-in itself).
                    if interp.centroid {
                        self.b.ctx.decorate(var, &Decoration::new(D::Centroid));
                    }
                    if interp.sample {
                        self.b.ctx.decorate(var, &Decoration::new(D::Sample));
                        self.b.capability(spirv::Capability::SampleRateShading);
                    }
                }
                if stage == Stage::Pixel && input && matches!(b, BuiltIn::SampleId | BuiltIn::PrimitiveId | BuiltIn::Layer | BuiltIn::ViewportIndex | BuiltIn::ViewIndex | BuiltIn::ShadingRateKHR) {
                    self.b.ctx.decorate(var, &Decoration::new(D::Flat));
                }
            }
            Slot::Location(fixed) => {
                let prefix = if input { "in.var." } else { "out.var." };
                self.b.ctx.name(var, &format!("{prefix}{semantic}"));
                self.user_semantic(var, semantic.as_str());
                let (next, used) = if input { (&mut io.next_in, &mut io.used_in) } else { (&mut io.next_out, &mut io.used_out) };
                let location = match fixed {
                    Some(l) => Some(l),
                    None if self.opts.stage_io_order_alpha => None,
                    None => {
                        while used.contains(next) {
                            *next += 1;
                        }
                        Some(*next)
                    }
                };
                let index = match vk.index {
                    Some((index, at)) => Some(self.dual_source_index(stage, vk, index, at)?),
                    None => None,
                };
                io.loc_vars.push(LocVar {
                    input,
                    explicit: vk.location.map(|l| l.1),
                    location,
                    count: locations,
                    index: index.unwrap_or(0),
                    target: fixed.is_some() && vk.location.is_none(),
                    span,
                });
                match location {
                    Some(location) => {
                        used.extend(location..location + locations);
                        io.fixed.push((input, var, location, index));
                    }
                    None => io.alpha.push((input, var, semantic.to_string(), locations)),
                }
                let flat = interp.nointerpolation || !k.is_float();
                if input && stage == Stage::Pixel && interp.per_vertex {
                    // `GetAttributeAtVertex` reads it (`pervertex.rs`): the values of the
                    // primitive's three vertices, not interpolated.
                    self.b.capability(spirv::Capability::FragmentBarycentricKHR);
                    self.b.extension("SPV_KHR_fragment_shader_barycentric");
                    io.per_vertex.push(var);
                } else if input && stage == Stage::Pixel || !input && matches!(stage, Stage::Vertex | Stage::Mesh) {
                    if flat {
                        self.b.ctx.decorate(var, &Decoration::new(D::Flat));
                    }
                    if interp.noperspective {
                        self.b.ctx.decorate(var, &Decoration::new(D::NoPerspective));
                    }
                    if interp.centroid {
                        self.b.ctx.decorate(var, &Decoration::new(D::Centroid));
                    }
                    if interp.sample {
                        self.b.ctx.decorate(var, &Decoration::new(D::Sample));
                        self.b.capability(spirv::Capability::SampleRateShading);
                    }
                }
            }
        }
        if let (Some((_, at)), Slot::BuiltIn(..)) = (vk.index, &slot) {
            return Err(super::LowerError { fatal: false, message: "vk::index should be used together with vk::location for dual-source blending".into(), span: Some(at), notes: Vec::new() });
        }
        if io.patch || tess_level {
            self.b.ctx.decorate(var, &Decoration::new(D::Patch));
        }
        Ok((var, var_ty, hlsl_spv, builtin))
    }
}

impl<'m> Lowerer<'m> {
    /// `-fspv-reflect`: the HLSL semantic a stage variable was made for (`UserSemantic`, DXC's
    /// `HlslSemanticGOOGLE`), as written.
    pub(crate) fn user_semantic(&mut self, var: SpvId, semantic: &str) {
        if self.opts.reflect && !semantic.is_empty() {
            self.b.extension("SPV_GOOGLE_hlsl_functionality1");
            self.b.ctx.decorate(var, &Decoration::with_string(D::UserSemantic, semantic));
        }
    }

    /// DXC's checks of a `[[vk::builtin]]` stage value: not with `vk::location`, of the
    /// built-in's type, in a stage and direction where Vulkan has it.
    fn check_vk_builtin(&mut self, stage: Stage, ty: TypeId, input: bool, vk: VkIo, b: BuiltIn, at: Span) -> R<()> {
        let err = |message: String| Err(super::LowerError { fatal: false, message, span: Some(at), notes: Vec::new() });
        let name = VK_BUILTINS.iter().find(|x| x.1 == b).map_or("", |x| x.0);
        if vk.location.is_some() {
            return err("cannot use vk::builtin and vk::location together".into());
        }
        let scalar = match self.m.types.get(ty) {
            Type::Scalar(k) => Some(*k),
            _ => None,
        };
        let int32 = matches!(scalar, Some(ScalarKind::Int | ScalarKind::UInt));
        let abbrev = match stage {
            Stage::Vertex => "VS",
            Stage::Pixel => "PS",
            Stage::Hull => "HS",
            Stage::Domain => "DS",
            Stage::Geometry => "GS",
            Stage::Compute => "CS",
            Stage::Mesh => "MS",
            Stage::Amplification => "AS",
            _ => "",
        };
        let usage = format!("{abbrev}{}", if input { "In" } else { "Out" });
        match b {
            BuiltIn::PointSize => {
                if scalar != Some(ScalarKind::Float) {
                    return err("PointSize builtin must be of float type".into());
                }
                let ok = match stage {
                    Stage::Vertex | Stage::Mesh => !input,
                    Stage::Hull | Stage::Domain | Stage::Geometry => true,
                    _ => false,
                };
                if !ok {
                    return err(format!("PointSize builtin cannot be used as {usage}"));
                }
            }
            BuiltIn::HelperInvocation => {
                if scalar != Some(ScalarKind::Bool) {
                    return err("HelperInvocation builtin must be of boolean type".into());
                }
                if !(stage == Stage::Pixel && input) {
                    return err("HelperInvocation builtin can only be used as pixel shader input".into());
                }
            }
            BuiltIn::BaseVertex | BuiltIn::BaseInstance | BuiltIn::DrawIndex => {
                if !int32 {
                    return err(format!("{name} builtin must be of 32-bit scalar integer type"));
                }
                // NV mesh and task shaders read DrawIndex too (SPV_NV_mesh_shader).
                let mesh = b == BuiltIn::DrawIndex && matches!(stage, Stage::Mesh | Stage::Amplification);
                if !((stage == Stage::Vertex || mesh) && input) {
                    return err(format!("{name} builtin cannot be used as {usage}"));
                }
            }
            BuiltIn::DeviceIndex => {
                if !input {
                    return err("DeviceIndex builtin can only be used as shader input".into());
                }
                if !int32 {
                    return err("DeviceIndex builtin must be of 32-bit scalar integer type".into());
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `[[vk::builtin("HelperInvocation")]] bool` read at the start of the entry point: the
    /// built-in (`Volatile`) from SPIR-V 1.6 (Vulkan 1.3), `OpIsHelperInvocationEXT` before, as
    /// SPIR-V.rst describes DXC's choice.
    fn helper_invocation(&mut self, arrayed: Option<u32>, at: Span) -> R<SpvId> {
        if arrayed.is_some() {
            return err_at("HelperInvocation builtin can only be used as pixel shader input", at);
        }
        if self.opts.target.spirv_version() >= (1, 6) {
            return self.builtin_input(BuiltIn::HelperInvocation, "gl_HelperInvocation");
        }
        self.b.capability(spirv::Capability::DemoteToHelperInvocation);
        self.b.extension("SPV_EXT_demote_to_helper_invocation");
        let bool_ty = self.b.ctx.type_bool();
        Ok(self.b.value(spirv::Op::IsHelperInvocationEXT, bool_ty, vec![])?)
    }

    /// `[[vk::index(n)]]` on a stage variable at a location: the `Index` decoration of
    /// dual-source blending, with DXC's checks (pixel shaders only, with `vk::location(0)`,
    /// index 0 or 1); returns the index.
    fn dual_source_index(&mut self, stage: Stage, vk: VkIo, index: u32, at: Span) -> R<u32> {
        let err = |message: &str, span: Span| Err(super::LowerError { fatal: false, message: message.into(), span: Some(span), notes: Vec::new() });
        if stage != Stage::Pixel {
            return err("vk::index only allowed in pixel shader", at);
        }
        let Some((location, lspan)) = vk.location else {
            return err("vk::index should be used together with vk::location for dual-source blending", at);
        };
        if location != 0 {
            return err("dual-source blending should use vk::location 0", lspan);
        }
        if index > 1 {
            return err("dual-source blending only accepts 0 or 1 as vk::index", at);
        }
        Ok(index)
    }
}

fn err_at<T>(message: &str, at: Span) -> R<T> {
    Err(super::LowerError { fatal: false, message: message.into(), span: Some(at), notes: Vec::new() })
}

/// The built-in or location of a semantic in a stage and direction.
fn slot_of(stage: Stage, semantic: &Semantic, input: bool, interp: Interpolation, loc: Option<u32>) -> Slot {
    use BuiltIn as B;
    use SystemValue as S;
    let Some(sv) = semantic.system() else { return Slot::Location(loc) };
    let b = match (sv, stage, input) {
        (S::Position, Stage::Pixel, true) => Some((B::FragCoord, "gl_FragCoord")),
        // A vertex shader's SV_Position input is an ordinary vertex attribute.
        (S::Position, Stage::Vertex, true) => None,
        (S::Position, _, _) => Some((B::Position, "gl_Position")),
        (S::DispatchThreadID, _, true) => Some((B::GlobalInvocationId, "gl_GlobalInvocationID")),
        (S::GroupID, _, true) => Some((B::WorkgroupId, "gl_WorkGroupID")),
        (S::GroupThreadID, _, true) => Some((B::LocalInvocationId, "gl_LocalInvocationID")),
        (S::GroupIndex, _, true) => Some((B::LocalInvocationIndex, "gl_LocalInvocationIndex")),
        (S::VertexID, Stage::Vertex, true) => Some((B::VertexIndex, "gl_VertexIndex")),
        (S::InstanceID, Stage::Vertex, true) => Some((B::InstanceIndex, "gl_InstanceIndex")),
        (S::IsFrontFace, Stage::Pixel, true) => Some((B::FrontFacing, "gl_FrontFacing")),
        // SPV_KHR_fragment_shader_barycentric; DXC leaves the variable unnamed.
        (S::Barycentrics, Stage::Pixel, true) if interp.noperspective => Some((B::BaryCoordNoPerspKHR, "")),
        (S::Barycentrics, Stage::Pixel, true) => Some((B::BaryCoordKHR, "")),
        (S::Depth, Stage::Pixel, false) => Some((B::FragDepth, "gl_FragDepth")),
        (S::SampleIndex, Stage::Pixel, true) => Some((B::SampleId, "gl_SampleID")),
        (S::PrimitiveID, Stage::Pixel | Stage::Geometry | Stage::Hull | Stage::Domain, true) => Some((B::PrimitiveId, "gl_PrimitiveID")),
        (S::PrimitiveID, Stage::Geometry, false) => Some((B::PrimitiveId, "gl_PrimitiveID")),
        (S::GSInstanceID, Stage::Geometry, true) => Some((B::InvocationId, "gl_InvocationID")),
        (S::RenderTargetArrayIndex, Stage::Vertex | Stage::Domain | Stage::Geometry, false)
        | (S::RenderTargetArrayIndex, Stage::Pixel, true) => Some((B::Layer, "gl_Layer")),
        (S::ViewportArrayIndex, Stage::Vertex | Stage::Domain | Stage::Geometry, false)
        | (S::ViewportArrayIndex, Stage::Pixel, true) => Some((B::ViewportIndex, "gl_ViewportIndex")),
        // DXC leaves this one unnamed.
        (S::ViewID, _, true) => Some((B::ViewIndex, "")),
        // Per-primitive outputs of a mesh shader.
        (S::PrimitiveID, Stage::Mesh, false) => Some((B::PrimitiveId, "gl_PrimitiveID")),
        (S::RenderTargetArrayIndex, Stage::Mesh, false) => Some((B::Layer, "gl_Layer")),
        (S::ViewportArrayIndex, Stage::Mesh, false) => Some((B::ViewportIndex, "gl_ViewportIndex")),
        (S::CullPrimitive, Stage::Mesh, false) => Some((B::CullPrimitiveEXT, "")),
        (S::ShadingRate, Stage::Mesh, false) => Some((B::PrimitiveShadingRateKHR, "")),
        // SPV_KHR_fragment_shading_rate (SPIR-V.rst: VSOut, GSOut, PSIn); DXC leaves them unnamed.
        (S::ShadingRate, Stage::Vertex | Stage::Geometry, false) => Some((B::PrimitiveShadingRateKHR, "")),
        (S::ShadingRate, Stage::Pixel, true) => Some((B::ShadingRateKHR, "")),
        (S::OutputControlPointID, Stage::Hull, true) => Some((B::InvocationId, "gl_InvocationID")),
        (S::DomainLocation, Stage::Domain, true) => Some((B::TessCoord, "gl_TessCoord")),
        (S::TessFactor, Stage::Hull, false) | (S::TessFactor, Stage::Domain, true) => Some((B::TessLevelOuter, "gl_TessLevelOuter")),
        (S::InsideTessFactor, Stage::Hull, false) | (S::InsideTessFactor, Stage::Domain, true) => {
            Some((B::TessLevelInner, "gl_TessLevelInner"))
        }
        _ => None,
    };
    match b {
        Some((b, n)) => Slot::BuiltIn(b, n),
        None if sv == S::Target && !input => Slot::Location(Some(loc.unwrap_or(semantic.index()))),
        None => Slot::Location(loc),
    }
}

impl<'m> Lowerer<'m> {
    /// The group size of a compute, amplification or mesh entry: `LocalSize` of `[numthreads]`,
    /// or, when a size is a specialization constant (`[numthreads(X, 1, 1)]` with
    /// `[[vk::constant_id(N)]] const uint X`), `OpExecutionModeId LocalSizeId` with the constant's
    /// id, so that the pipeline's value is the size. `LocalSizeId` needs SPIR-V 1.2 and, in
    /// Vulkan, 1.3 (maintenance4); for an older Vulkan target the size is refused, naming the
    /// constant, rather than fixed at the default.
    pub(crate) fn local_size(&mut self, ep: &hlslc_sema::tast::EntryPoint, wrapper: SpvId) -> R<()> {
        let [x, y, z] = ep.numthreads.unwrap_or([1, 1, 1]);
        let Some(&first) = ep.numthreads_spec.iter().flatten().next() else {
            self.b.execution_mode(wrapper, ExecutionMode::LocalSize, &[x, y, z]);
            return Ok(());
        };
        use crate::target::TargetEnv as T;
        if !matches!(self.opts.target, T::Vulkan1_3 | T::Vulkan1_4 | T::Universal1_5) {
            let var = self.m.var(first);
            return Err(super::LowerError {
                fatal: false,
                message: format!(
                    "the [numthreads] size '{}' is a specialization constant ([[vk::constant_id({})]]): a group size set by the pipeline needs OpExecutionModeId LocalSizeId, which Vulkan allows from 1.3 (-fspv-target-env=vulkan1.3); the target is {}",
                    var.name,
                    var.binding.vk_constant_id.unwrap_or(0),
                    self.opts.target.as_str()
                ),
                span: Some(self.m.func(ep.func).span),
                notes: Vec::new(),
            });
        }
        let mut ids = Vec::new();
        for (i, n) in [x, y, z].into_iter().enumerate() {
            let id = match ep.numthreads_spec[i] {
                Some(v) => match self.vars.get(&v) {
                    Some(super::VarHome::Value(id)) => *id,
                    _ => return super::unsupported(format!("the [numthreads] size '{}'", self.m.var(v).name), Some(self.m.func(ep.func).span)),
                },
                None => self.b.ctx.const_u32(n),
            };
            ids.push(id);
        }
        self.b.execution_mode_id(wrapper, ExecutionMode::LocalSizeId, &ids);
        Ok(())
    }
}
