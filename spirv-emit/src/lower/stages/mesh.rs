//! Mesh and amplification shaders (SPV_EXT_mesh_shader, SPIR-V 1.4+).
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
//! Not done: the NV flavour (SPIR-V before 1.4), clip/cull distances in mesh outputs.

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
#[derive(Clone, Debug)]
pub(crate) enum MeshNode {
    Leaf { var: SpvId },
    Struct(Vec<MeshNode>),
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
        let [x, y, z] = ep.numthreads.unwrap_or([1, 1, 1]);
        self.b.execution_mode(wrapper, ExecutionMode::LocalSize, &[x, y, z]);
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
            return unsupported("SV_ClipDistance/SV_CullDistance in mesh shader outputs", Some(span));
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
            (MeshNode::Struct(_), _) => Ok(Place::Mesh { node: node.clone(), index, ty }),
        }
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
                MeshNode::Leaf { .. } => None,
            };
            let Some(next) = next else { return unsupported("this mesh output member", None) };
            cur = Rc::new(next);
        }
        self.mesh_place(&cur, Some(index), ty)
    }

    /// Element `index` of a whole mesh output array.
    pub(crate) fn mesh_element(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, i: SpvId, ty: TypeId) -> R<Place> {
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

    /// Reads a mesh output element (a struct spread over several variables).
    pub(crate) fn mesh_load(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId) -> R<SpvId> {
        let mut parts = Vec::new();
        for p in self.mesh_members(node, index, ty)? {
            parts.push(self.load(&p)?);
        }
        let t = self.ty(ty, Layout::Logical)?;
        Ok(self.b.composite_construct(t, &parts)?)
    }

    /// Writes a mesh output element member by member.
    pub(crate) fn mesh_store(&mut self, node: &Rc<MeshNode>, index: Option<SpvId>, ty: TypeId, value: SpvId) -> R<()> {
        for (k, p) in self.mesh_members(node, index, ty)?.into_iter().enumerate() {
            let mt = self.ty(p.ty(), Layout::Logical)?;
            let v = self.b.composite_extract(mt, value, &[k as u32])?;
            self.store(&p, v)?;
        }
        Ok(())
    }
}
