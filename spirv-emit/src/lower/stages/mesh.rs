//! Mesh and amplification shaders (SPV_EXT_mesh_shader, SPIR-V 1.4+; SPV_NV_mesh_shader).
//!
//! Amplification shaders (`TaskEXT`): the `groupshared` payload that `DispatchMesh` passes on
//! lives in `TaskPayloadWorkgroupEXT` storage, and `DispatchMesh(x, y, z, payload)` is a
//! workgroup barrier followed by `OpEmitMeshTasksEXT`, which ends the block.
//!
//! Mesh shaders (`MeshEXT`): the `out vertices`, `out primitives` and `out indices` arrays are
//! shared by the whole workgroup, each thread writing some elements, so they are not copied out
//! at the end like other outputs: every field becomes an arrayed stage variable
//! (`gl_Position[64]`, `out.var.USER[64]`, per-primitive ones decorated `PerPrimitiveEXT`), the
//! indices the `Primitive{Point,Line,Triangle}IndicesEXT` built-in, and `verts[i].f` in the
//! entry function is an access chain into the field's variable ([`MeshNode`], `Place::Mesh`).
//! The `in payload` is the mesh shader's view of the amplification shader's payload: a
//! `TaskPayloadWorkgroupEXT` variable (`in.var.<name>`) copied into the parameter.
//! `SetMeshOutputCounts(v, p)` is `OpSetMeshOutputsEXT`.
//! The NV flavour (`SPV_NV_mesh_shader`: before SPIR-V 1.4, or on request with
//! `-fspv-extension=SPV_NV_mesh_shader`) shares all this, with DXC's differences: `MeshNV`/`TaskNV`,
//! the indices one flat `uint` array (`PrimitiveIndicesNV`, [`MeshNode::Flat`]),
//! `SetMeshOutputCounts` a store of the primitive count to `PrimitiveCountNV`, the payload per
//! member in `PerTaskNV` variables (outputs that `DispatchMesh` fills before writing
//! `TaskCountNV`, inputs of the mesh shader), see [`MeshNvVars`].
//! Not done: clip/cull distances in mesh outputs.

use super::super::entry::{struct_members, Io, VkIo};
use super::super::layout::Layout;
use super::super::place::Place;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_frontend::Span;
use hlslc_sema::entry::{MeshTopology, Semantic, SystemValue};
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{EntryPoint, ExprId, ExprKind, Interpolation, Module, Stage, VarId};
use hlslc_sema::types::{Type, TypeId};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration as D, ExecutionMode, Op, StorageClass};
use std::rc::Rc;

impl Lowerer<'_> {
    /// Whether mesh and amplification shaders take the NV flavour (`SPV_NV_mesh_shader`):
    /// before SPIR-V 1.4, which `SPV_EXT_mesh_shader` needs, or when `-fspv-extension=` asks
    /// for it (and not for the EXT one), as DXC chooses.
    pub(crate) fn mesh_nv(&self) -> bool {
        self.opts.mesh_nv || self.opts.target.spirv_version() < (1, 4)
    }
}

/// Where the fields of a mesh shader's output array live: a leaf is one arrayed `Output`
/// variable (element `i` belongs to vertex/primitive `i`) whose element type is the field's
/// logical SPIR-V type; a struct has one node per member (bases first, as SPIR-V lays it out).
/// The NV flavour's indices are one flat `uint` array (`PrimitiveIndicesNV`), `width` entries
/// (1, 2 or 3 by topology) per primitive: element `i` of the HLSL `uint3` array is entries
/// `i*3`, `i*3 + 1` and `i*3 + 2`.
#[derive(Clone, Debug)]
pub(crate) enum MeshNode {
    Leaf { var: SpvId },
    /// A vertex's clip or cull distances: elements `offset..offset + width` of its array in the
    /// `ClipDistance`/`CullDistance` built-in (an array of per-vertex arrays).
    Clip { var: SpvId, offset: u32, width: u32 },
    Struct(Vec<MeshNode>),
    Flat { var: SpvId, width: u32 },
}

/// Where the scalars of a [`MeshNode::Flat`] or [`MeshNode::Clip`] element are.
enum ScalarRun {
    /// Entries `base + c` of an NV indices array.
    Flat { var: SpvId, base: SpvId },
    /// Elements `offset + c` of the vertex's array in a clip/cull built-in.
    Clip { var: SpvId, offset: u32, vertex: SpvId },
}

/// Variables of the NV flavour (`SPV_NV_mesh_shader`) made with the entry point: the count
/// built-in (`PrimitiveCountNV` that `SetMeshOutputCounts` writes, `TaskCountNV` that
/// `DispatchMesh` writes) and an amplification shader's per-task outputs, one `Output` variable
/// per payload member (`out.var.<member>`, `PerTaskNV`, `Offset`), which `DispatchMesh` fills.
#[derive(Clone, Debug, Default)]
pub(crate) struct MeshNvVars {
    count: Option<SpvId>,
    task_outs: Vec<(SpvId, TypeId)>,
}

/// The `groupshared` variables an amplification shader passes to `DispatchMesh`.
pub(crate) fn task_payloads(m: &Module) -> Vec<VarId> {
    if !m.entries.iter().any(|e| e.stage == Stage::Amplification) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in &m.exprs {
        if let ExprKind::Intrinsic { op: I::DispatchMesh, args, .. } = &e.kind {
            if let Some(&a) = args.get(3) {
                if let Some(v) = var_of(m, a) {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// The variable an argument names, through implicit casts.
fn var_of(m: &Module, e: ExprId) -> Option<VarId> {
    match &m.expr(e).kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast { expr, .. } | ExprKind::OutArg { lvalue: expr, .. } => var_of(m, *expr),
        _ => None,
    }
}

impl<'m> Lowerer<'m> {
    /// `DispatchMesh` and `SetMeshOutputCounts`.
    pub(crate) fn mesh_intrinsic(&mut self, op: I, args: &[ExprId], _ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        match op {
            I::DispatchMesh => {
                if self.stage != Some(Stage::Amplification) {
                    return unsupported("DispatchMesh outside an amplification shader", self.expr_span(e));
                }
                // Execution and memory scope Workgroup; AcquireRelease | WorkgroupMemory.
                let (wg, sem) = (self.b.ctx.const_u32(2), self.b.ctx.const_u32(0x108));
                self.b.void(Op::ControlBarrier, vec![Operand::IdRef(wg.0), Operand::IdRef(wg.0), Operand::IdRef(sem.0)])?;
                if self.mesh_nv() {
                    return self.dispatch_mesh_nv(args, e);
                }
                self.rvalue(args[3])?;
                let counts = [self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?];
                let place = self.lvalue(args[3])?;
                let Some((payload, _, _)) = Self::place_ptr(&place) else {
                    return unsupported("this DispatchMesh payload", self.expr_span(e));
                };
                let mut ops: Vec<Operand> = counts.iter().map(|c| Operand::IdRef(c.0)).collect();
                ops.push(Operand::IdRef(payload.0));
                self.b.void(Op::EmitMeshTasksEXT, ops)?;
                // What follows is unreachable, in a block of its own.
                let bb = self.b.new_block()?;
                self.b.switch_to_block(bb)?;
                Ok(Some(SpvId(0)))
            }
            I::SetMeshOutputCounts => {
                if self.stage != Some(Stage::Mesh) {
                    return unsupported("SetMeshOutputCounts outside a mesh shader", self.expr_span(e));
                }
                let (v, p) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                if self.mesh_nv() {
                    // NV: only the primitive count is written (to `PrimitiveCountNV`).
                    let Some(count) = self.mesh_nv_vars.count else {
                        return unsupported("SetMeshOutputCounts outside the mesh entry point's call tree", self.expr_span(e));
                    };
                    self.b.store(count, p, None)?;
                    return Ok(Some(SpvId(0)));
                }
                self.b.void(Op::SetMeshOutputsEXT, vec![Operand::IdRef(v.0), Operand::IdRef(p.0)])?;
                Ok(Some(SpvId(0)))
            }
            _ => Ok(None),
        }
    }
}

impl<'m> Lowerer<'m> {
    /// `LocalSize`, the output topology and the output limits of a mesh shader.
    pub(crate) fn mesh_modes(&mut self, ep: &EntryPoint, wrapper: SpvId) -> R<()> {
        self.local_size(ep, wrapper)?;
        let Some(ms) = &ep.mesh else {
            return unsupported("a mesh shader without a valid outputtopology and vertices/indices", Some(self.m.func(ep.func).span));
        };
        let topology = match ms.topology {
            MeshTopology::Point => ExecutionMode::OutputPoints,
            MeshTopology::Line => ExecutionMode::OutputLinesEXT,
            MeshTopology::Triangle => ExecutionMode::OutputTrianglesEXT,
        };
        self.b.execution_mode(wrapper, topology, &[]);
        self.b.execution_mode(wrapper, ExecutionMode::OutputVertices, &[ms.max_vertices]);
        self.b.execution_mode(wrapper, ExecutionMode::OutputPrimitivesEXT, &[ms.max_primitives]);
        Ok(())
    }

    /// A mesh shader parameter with `vertices`, `indices`, `primitives` or `payload`: declares
    /// its stage variables; the outputs are bound to the parameter for the entry function
    /// ([`Lowerer::mesh_outs`]), the payload is copied into `tmp`.
    pub(crate) fn mesh_param(&mut self, ep: &EntryPoint, p: VarId, tmp: SpvId, io: &mut Io) -> R<()> {
        use hlslc_frontend::ast::Modifier;
        let var = self.m.var(p);
        let span = var.span;
        let Some(ms) = &ep.mesh else {
            return unsupported("a mesh shader without a valid outputtopology and vertices/indices", Some(span));
        };
        match var.primitive {
            Some(Modifier::Payload) if self.mesh_nv() => {
                // NV: one `Input` variable per member, decorated `PerTaskNV` and `Offset`.
                let t = self.ty(var.ty, Layout::Logical)?;
                let mut parts = Vec::new();
                for (v, mty) in self.per_task_vars(var.ty, StorageClass::Input, "in.var", span, io)? {
                    let mt = self.ty(mty, Layout::Logical)?;
                    parts.push(self.b.load(mt, v, None)?);
                }
                let v = self.b.composite_construct(t, &parts)?;
                self.b.store(tmp, v, None)?;
            }
            Some(Modifier::Indices) if self.mesh_nv() => {
                let Type::Array { elem, len: Some(n) } = *self.m.types.get(var.ty) else {
                    return unsupported("this mesh indices parameter type", Some(span));
                };
                let width = match self.m.types.get(elem) {
                    Type::Vector(_, k) => *k as u32,
                    _ => 1,
                };
                let uint = self.b.ctx.type_u32();
                let arr = self.b.ctx.type_array(uint, n * width, None);
                let pty = self.b.ctx.type_pointer(StorageClass::Output, arr);
                let iv = self.b.global_variable(pty, StorageClass::Output, None);
                self.b.ctx.decorate(iv, &Decoration::with_literals(D::BuiltIn, &[BuiltIn::PrimitiveIndicesNV as u32]));
                io.interface.push(iv);
                self.mesh_outs.insert(p, Rc::new(MeshNode::Flat { var: iv, width }));
            }
            Some(Modifier::Payload) => {
                let t = self.ty(var.ty, Layout::Logical)?;
                let pty = self.b.ctx.type_pointer(StorageClass::TaskPayloadWorkgroupEXT, t);
                let pv = self.b.global_variable(pty, StorageClass::TaskPayloadWorkgroupEXT, None);
                self.b.ctx.name(pv, &format!("in.var.{}", var.name));
                io.interface.push(pv);
                let v = self.b.load(t, pv, None)?;
                self.b.store(tmp, v, None)?;
            }
            Some(Modifier::Indices) => {
                let t = self.ty(var.ty, Layout::Logical)?;
                let pty = self.b.ctx.type_pointer(StorageClass::Output, t);
                let iv = self.b.global_variable(pty, StorageClass::Output, None);
                let b = match ms.topology {
                    MeshTopology::Point => BuiltIn::PrimitivePointIndicesEXT,
                    MeshTopology::Line => BuiltIn::PrimitiveLineIndicesEXT,
                    MeshTopology::Triangle => BuiltIn::PrimitiveTriangleIndicesEXT,
                };
                self.b.ctx.decorate(iv, &Decoration::with_literals(D::BuiltIn, &[b as u32]));
                io.interface.push(iv);
                self.mesh_outs.insert(p, Rc::new(MeshNode::Leaf { var: iv }));
            }
            Some(kind @ (Modifier::Vertices | Modifier::Primitives)) => {
                let Type::Array { elem, len: Some(n) } = *self.m.types.get(var.ty) else {
                    return unsupported("this mesh output parameter type", Some(span));
                };
                let per_primitive = kind == Modifier::Primitives;
                let sem = var.semantic.clone();
                let node = self.mesh_output(elem, sem.as_ref(), var.interpolation, VkIo::of(&var.binding, var.span), n, per_primitive, span, io)?;
                self.mesh_outs.insert(p, Rc::new(node));
            }
            _ => return unsupported("this mesh shader parameter", Some(span)),
        }
        Ok(())
    }

    /// The arrayed output variables of a value of type `ty` (a struct field by field), `n`
    /// elements each.
    #[allow(clippy::too_many_arguments)]
    fn mesh_output(
        &mut self,
        ty: TypeId,
        semantic: Option<&Semantic>,
        interp: Interpolation,
        vk: VkIo,
        n: u32,
        per_primitive: bool,
        span: Span,
        io: &mut Io,
    ) -> R<MeshNode> {
        if let Type::Struct(sid) = self.m.types.get(ty).clone() {
            if semantic.is_some() {
                return unsupported("a semantic on a struct mesh output", Some(span));
            }
            let def = self.m.types.structs[sid.0 as usize].clone();
            let mut fields = Vec::new();
            for (mty, msem, minterp, mvk) in struct_members(&def) {
                fields.push(self.mesh_output(mty, msem.as_ref(), minterp, mvk, n, per_primitive, span, io)?);
            }
            return Ok(MeshNode::Struct(fields));
        }
        let Some(sem) = semantic else {
            return unsupported("a mesh shader output without a semantic", Some(span));
        };
        if sem.is(SystemValue::ClipDistance) || sem.is(SystemValue::CullDistance) {
            let width = super::super::clip::clip_width(&self.m.types, ty).filter(|_| !per_primitive);
            let (Some(width), Some((var, offset))) = (width, io.clip_out.lookup(sem)) else {
                return unsupported("this SV_ClipDistance/SV_CullDistance mesh shader output", Some(span));
            };
            if !matches!(self.m.types.get(ty), Type::Scalar(_) | Type::Vector(..)) {
                return unsupported("an array of SV_ClipDistance/SV_CullDistance values in a mesh shader output", Some(span));
            }
            return Ok(MeshNode::Clip { var, offset, width });
        }
        let (var, var_ty, hlsl_spv, _) = self.stage_var(Stage::Mesh, ty, sem, false, interp, vk, Some(n), span, io)?;
        if var_ty != hlsl_spv {
            // Places into the variable must have the field's own type.
            return unsupported(format!("mesh shader outputs of type '{}'", self.type_name(ty)), Some(span));
        }
        if per_primitive {
            self.b.ctx.decorate(var, &Decoration::new(D::PerPrimitiveEXT));
        }
        Ok(MeshNode::Leaf { var })
    }

    /// The place of `node` (element `index` of its arrays when given) holding a value of `ty`:
    /// a pointer when it is one variable, `Place::Mesh` for a struct spread over several.
    pub(crate) fn mesh_place(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId) -> R<Place> {
        match (&**node, index) {
            (&MeshNode::Leaf { var }, None) => Ok(Place::Ptr { ptr: var, sc: StorageClass::Output, layout: Layout::Logical, ty }),
            (&MeshNode::Leaf { var }, Some(i)) => {
                let pty = self.ptr_ty(ty, Layout::Logical, StorageClass::Output)?;
                let p = self.b.access_chain(pty, var, &[i])?;
                Ok(Place::Ptr { ptr: p, sc: StorageClass::Output, layout: Layout::Logical, ty })
            }
            (MeshNode::Struct(_) | MeshNode::Flat { .. } | MeshNode::Clip { .. }, _) => Ok(Place::Mesh { node: node.clone(), index, ty }),
        }
    }

    /// `i*width`, the first flat entry of element `i` of an NV indices array.
    fn flat_base(&mut self, width: u32, i: SpvId) -> R<SpvId> {
        let uint = self.b.ctx.type_u32();
        let w = self.b.ctx.const_u32(width);
        Ok(self.b.binary(Op::IMul, uint, i, w)?)
    }

    /// A pointer to flat entry `base + c` (the first is `base` itself, as DXC writes it).
    fn flat_entry(&mut self, var: SpvId, base: SpvId, c: u32) -> R<SpvId> {
        let uint = self.b.ctx.type_u32();
        let at = if c == 0 {
            base
        } else {
            let k = self.b.ctx.const_u32(c);
            self.b.binary(Op::IAdd, uint, base, k)?
        };
        let pty = self.b.ctx.type_pointer(StorageClass::Output, uint);
        Ok(self.b.access_chain(pty, var, &[at])?)
    }

    /// Member `path` (struct member indices, bases first) of a mesh place.
    pub(crate) fn mesh_member(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, path: &[u32], ty: TypeId) -> R<Place> {
        let Some(index) = index else {
            return unsupported("a member of a whole mesh output array", None);
        };
        let mut cur = node.clone();
        for &k in path {
            let next = match &*cur {
                MeshNode::Struct(fields) => fields.get(k as usize).cloned(),
                MeshNode::Leaf { .. } | MeshNode::Flat { .. } | MeshNode::Clip { .. } => None,
            };
            let Some(next) = next else { return unsupported("this mesh output member", None) };
            cur = Rc::new(next);
        }
        self.mesh_place(&cur, Some(index), ty)
    }

    /// Element `index` of a whole mesh output array.
    pub(crate) fn mesh_element(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, i: SpvId, ty: TypeId) -> R<Place> {
        if let (&MeshNode::Clip { var, offset, .. }, Some(v)) = (&**node, index) {
            // Component `i` of a vertex's clip/cull value: element `offset + i` of its array.
            let uint = self.b.ctx.type_u32();
            let base = self.b.ctx.const_u32(offset);
            let at = self.b.binary(Op::IAdd, uint, base, i)?;
            let f = self.b.ctx.type_f32();
            let pty = self.b.ctx.type_pointer(StorageClass::Output, f);
            let p = self.b.access_chain(pty, var, &[v, at])?;
            return Ok(Place::Ptr { ptr: p, sc: StorageClass::Output, layout: Layout::Logical, ty });
        }
        if index.is_some() {
            return unsupported("indexing a mesh output element", None);
        }
        self.mesh_place(node, Some(i), ty)
    }

    /// The members of the struct type `ty` of a mesh place, as places.
    fn mesh_members(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId) -> R<Vec<Place>> {
        let Type::Struct(sid) = self.m.types.get(ty).clone() else {
            return unsupported("a whole mesh output array as a value", None);
        };
        let def = self.m.types.structs[sid.0 as usize].clone();
        let mut out = Vec::new();
        for (k, (mty, ..)) in struct_members(&def).into_iter().enumerate() {
            out.push(self.mesh_member(node, index, &[k as u32], mty)?);
        }
        Ok(out)
    }

    /// Element `index` of a node stored as scalars (an NV indices array's flat entries, a vertex's
    /// clip/cull distances): the scalars' type, their count and where they are; `None` for
    /// other nodes and for the whole array.
    fn scalar_run(&mut self, node: &MeshNode, index: Option<SpvId>) -> R<Option<(SpvId, u32, ScalarRun)>> {
        let Some(i) = index else { return Ok(None) };
        Ok(match *node {
            MeshNode::Flat { var, width } => Some((self.b.ctx.type_u32(), width, ScalarRun::Flat { var, base: self.flat_base(width, i)? })),
            MeshNode::Clip { var, offset, width } => Some((self.b.ctx.type_f32(), width, ScalarRun::Clip { var, offset, vertex: i })),
            MeshNode::Leaf { .. } | MeshNode::Struct(_) => None,
        })
    }

    /// A pointer to scalar `c` of a run (made where it is used, as DXC interleaves them).
    fn scalar_ptr(&mut self, run: &ScalarRun, c: u32) -> R<SpvId> {
        match *run {
            ScalarRun::Flat { var, base } => self.flat_entry(var, base, c),
            ScalarRun::Clip { var, offset, vertex } => {
                let f = self.b.ctx.type_f32();
                let pty = self.b.ctx.type_pointer(StorageClass::Output, f);
                let k = self.b.ctx.const_u32(offset + c);
                Ok(self.b.access_chain(pty, var, &[vertex, k])?)
            }
        }
    }

    /// Reads a mesh output element (a struct spread over several variables, or scalars).
    pub(crate) fn mesh_load(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId) -> R<SpvId> {
        if let Some((st, width, run)) = self.scalar_run(node, index)? {
            let mut parts = Vec::new();
            for c in 0..width {
                let p = self.scalar_ptr(&run, c)?;
                parts.push(self.b.load(st, p, None)?);
            }
            if width == 1 {
                return Ok(parts[0]);
            }
            let t = self.ty(ty, Layout::Logical)?;
            return Ok(self.b.composite_construct(t, &parts)?);
        }
        let mut parts = Vec::new();
        for p in self.mesh_members(node, index, ty)? {
            parts.push(self.load(&p)?);
        }
        let t = self.ty(ty, Layout::Logical)?;
        Ok(self.b.composite_construct(t, &parts)?)
    }

    /// Writes a mesh output element member by member (or scalar by scalar).
    pub(crate) fn mesh_store(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId, value: SpvId) -> R<()> {
        if let Some((st, width, run)) = self.scalar_run(node, index)? {
            for c in 0..width {
                let p = self.scalar_ptr(&run, c)?;
                let x = if width == 1 { value } else { self.b.composite_extract(st, value, &[c])? };
                self.b.store(p, x, None)?;
            }
            return Ok(());
        }
        for (k, p) in self.mesh_members(node, index, ty)?.into_iter().enumerate() {
            let mt = self.ty(p.ty(), Layout::Logical)?;
            let v = self.b.composite_extract(mt, value, &[k as u32])?;
            self.store(&p, v)?;
        }
        Ok(())
    }
}

impl<'m> Lowerer<'m> {
    /// The NV flavour's variables made with the entry point, after its parameters' (DXC's
    /// interface order): an amplification shader's per-task outputs and `TaskCountNV`, a mesh
    /// shader's `PrimitiveCountNV`.
    pub(crate) fn mesh_nv_entry_vars(&mut self, ep: &EntryPoint, io: &mut Io) -> R<()> {
        let span = self.m.func(ep.func).span;
        let mut task_outs = Vec::new();
        let builtin = if ep.stage == Stage::Amplification {
            let payloads = task_payloads(self.m);
            if payloads.len() > 1 {
                return unsupported("DispatchMesh with more than one payload variable (SPV_NV_mesh_shader)", Some(span));
            }
            if let Some(&pv) = payloads.first() {
                task_outs = self.per_task_vars(self.m.var(pv).ty, StorageClass::Output, "out.var", span, io)?;
            }
            BuiltIn::TaskCountNV
        } else {
            BuiltIn::PrimitiveCountNV
        };
        let uint = self.b.ctx.type_u32();
        let pty = self.b.ctx.type_pointer(StorageClass::Output, uint);
        let count = self.b.global_variable(pty, StorageClass::Output, None);
        self.b.ctx.decorate(count, &Decoration::with_literals(D::BuiltIn, &[builtin as u32]));
        io.interface.push(count);
        self.mesh_nv_vars = MeshNvVars { count: Some(count), task_outs };
        Ok(())
    }

    /// One `storage` variable per member of the payload struct `ty` (`<prefix>.<member>`),
    /// decorated `PerTaskNV` and with the member's `Offset` in the payload's std430 layout.
    fn per_task_vars(&mut self, ty: TypeId, storage: StorageClass, prefix: &str, span: Span, io: &mut Io) -> R<Vec<(SpvId, TypeId)>> {
        let Type::Struct(sid) = self.m.types.get(ty).clone() else {
            return unsupported("a mesh payload that is not a struct (SPV_NV_mesh_shader)", Some(span));
        };
        let def = self.m.types.structs[sid.0 as usize].clone();
        if !def.bases.is_empty() {
            return unsupported("a mesh payload struct with a base (SPV_NV_mesh_shader)", Some(span));
        }
        let tys: Vec<TypeId> = def.fields.iter().map(|f| f.ty).collect();
        let offsets = self.opts.layout.offsets_of(&self.m.types, &tys, Layout::Std430);
        let mut out = Vec::new();
        for (f, (mty, offset)) in def.fields.iter().zip(offsets) {
            let t = self.ty(mty, Layout::Logical)?;
            let pty = self.b.ctx.type_pointer(storage, t);
            let v = self.b.global_variable(pty, storage, None);
            self.b.ctx.name(v, &format!("{prefix}.{}", f.name));
            self.b.ctx.decorate(v, &Decoration::new(D::PerTaskNV));
            self.b.ctx.decorate(v, &Decoration::with_literals(D::Offset, &[offset]));
            io.interface.push(v);
            out.push((v, mty));
        }
        Ok(out)
    }

    /// NV `DispatchMesh(x, y, z, payload)` (after the barrier): the payload's members go to the
    /// per-task outputs and `x * (y * z)` to `TaskCountNV`; the shader goes on.
    fn dispatch_mesh_nv(&mut self, args: &[ExprId], e: ExprId) -> R<Option<SpvId>> {
        let Some(count) = self.mesh_nv_vars.count else {
            return unsupported("DispatchMesh outside the amplification entry point's call tree", self.expr_span(e));
        };
        let payload = self.rvalue(args[3])?;
        for (k, (v, mty)) in self.mesh_nv_vars.task_outs.clone().into_iter().enumerate() {
            let mt = self.ty(mty, Layout::Logical)?;
            let part = self.b.composite_extract(mt, payload, &[k as u32])?;
            self.b.store(v, part, None)?;
        }
        let [x, y, z] = [self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?];
        let uint = self.b.ctx.type_u32();
        let yz = self.b.binary(Op::IMul, uint, y, z)?;
        let n = self.b.binary(Op::IMul, uint, x, yz)?;
        self.b.store(count, n, None)?;
        Ok(Some(SpvId(0)))
    }
}
