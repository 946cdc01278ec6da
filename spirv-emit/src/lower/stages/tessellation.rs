//! Hull and domain shaders (SPIR-V's tessellation control and evaluation stages).
//!
//! A hull shader's entry function runs once per output control point (`InvocationId`, HLSL's
//! `SV_OutputControlPointID`): its result is written to element `InvocationId` of arrayed stage
//! outputs. Then, after an `OpControlBarrier`, only invocation 0 calls the patch constant function
//! (`[patchconstantfunc("name")]`), passing the entry's `InputPatch`, an `OutputPatch` copied back
//! from the control point outputs, and `SV_PrimitiveID` / `SV_ViewID`; its result goes to
//! per-patch (`Patch`) outputs. `SV_TessFactor` / `SV_InsideTessFactor` are the `TessLevelOuter`
//! (`float[4]`) and `TessLevelInner` (`float[2]`) built-ins whatever their HLSL size, as DXC does.
//! Execution modes come from `[domain]`, `[partitioning]`, `[outputtopology]` and
//! `[outputcontrolpoints]`.

use super::super::entry::{Io, OutTree, VkIo};
use super::super::layout::Layout;
use super::super::{unsupported, LowerError, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::entry::{HullTopology, Partitioning, SystemValue, TessDomain};
use hlslc_sema::tast::{EntryPoint, Function, Interpolation, ParamDir, Stage, Storage, Var};
use hlslc_sema::types::{ObjectKind, Type, TypeId, TypeTable};
use rspirv::dr::Operand;
use spirv::{BuiltIn, ExecutionMode, Op, StorageClass};

/// What the patch constant function may take from the hull shader's entry parameters.
#[derive(Default)]
pub(crate) struct HullParams {
    /// The loaded `SV_OutputControlPointID` and its HLSL type.
    cp_id: Option<(SpvId, TypeId)>,
    /// The `param.var.*` temporaries of the entry's `InputPatch`, `SV_PrimitiveID` and `SV_ViewID`.
    input_patch: Option<SpvId>,
    primitive_id: Option<SpvId>,
    view_id: Option<SpvId>,
}

impl HullParams {
    /// Remembers an entry parameter read into `tmp` (its loaded value `v`).
    pub(crate) fn note(&mut self, types: &TypeTable, var: &Var, tmp: SpvId, v: SpvId) {
        if let Type::Object { kind: ObjectKind::InputPatch, .. } = types.get(var.ty) {
            self.input_patch.get_or_insert(tmp);
            return;
        }
        match var.semantic.as_ref().and_then(|s| s.system()) {
            Some(SystemValue::OutputControlPointID) => self.cp_id = Some((v, var.ty)),
            Some(SystemValue::PrimitiveID) => self.primitive_id = Some(tmp),
            Some(SystemValue::ViewID) => self.view_id = Some(tmp),
            _ => {}
        }
    }
}

fn error<T>(message: &str, f: &Function) -> R<T> {
    Err(LowerError { fatal: false, message: message.into(), span: Some(f.span), notes: Vec::new() })
}

/// The control point type and count of an `InputPatch` / `OutputPatch` type.
fn patch_of(types: &TypeTable, t: TypeId) -> Option<(ObjectKind, TypeId, u32)> {
    match *types.get(t) {
        Type::Object { kind: k @ (ObjectKind::InputPatch | ObjectKind::OutputPatch), elem: Some(e), count: Some(n) } => {
            Some((k, e, n))
        }
        _ => None,
    }
}

impl<'m> Lowerer<'m> {
    pub(crate) fn tessellation_modes(&mut self, ep: &EntryPoint, wrapper: SpvId) -> R<()> {
        if let Some(d) = ep.domain {
            let mode = match d {
                TessDomain::Tri => ExecutionMode::Triangles,
                TessDomain::Quad => ExecutionMode::Quads,
                TessDomain::Isoline => ExecutionMode::Isolines,
            };
            self.b.execution_mode(wrapper, mode, &[]);
        }
        let Some(h) = ep.hull.clone() else { return Ok(()) };
        if let Some(p) = h.partitioning {
            let mode = match p {
                Partitioning::Integer => ExecutionMode::SpacingEqual,
                Partitioning::FractionalEven => ExecutionMode::SpacingFractionalEven,
                Partitioning::FractionalOdd => ExecutionMode::SpacingFractionalOdd,
                Partitioning::Pow2 => return unsupported("the partitioning 'pow2'", Some(self.m.func(ep.func).span)),
            };
            self.b.execution_mode(wrapper, mode, &[]);
        }
        let mode = match h.output_topology {
            Some(HullTopology::Point) => Some(ExecutionMode::PointMode),
            Some(HullTopology::TriangleCw) => Some(ExecutionMode::VertexOrderCw),
            Some(HullTopology::TriangleCcw) => Some(ExecutionMode::VertexOrderCcw),
            Some(HullTopology::Line) | None => None,
        };
        if let Some(mode) = mode {
            self.b.execution_mode(wrapper, mode, &[]);
        }
        if let Some(n) = h.output_control_points {
            self.b.execution_mode(wrapper, ExecutionMode::OutputVertices, &[n as u32]);
        }
        Ok(())
    }

    /// Writes the hull entry's result `r` to the arrayed control point outputs; returns their
    /// tree (read back for an `OutputPatch`).
    pub(crate) fn hull_outputs(&mut self, ep: &EntryPoint, hull: &HullParams, r: SpvId, io: &mut Io) -> R<Option<OutTree>> {
        let f = self.m.func(ep.func);
        let n = match ep.hull.as_ref().and_then(|h| h.output_control_points) {
            Some(n) if n > 0 => n as u32,
            _ => return error("number of output control points cannot be zero", f),
        };
        let Some((id, _)) = hull.cp_id else {
            return error("SV_OutputControlPointID semantic must be provided in hull shader", f);
        };
        if f.ret == TypeTable::VOID {
            return Ok(None);
        }
        let tree = self.declare_output(Stage::Hull, f.ret, f.ret_semantic.as_ref(), Interpolation::default(), VkIo::default(), f.span, io, Some((n, id)))?;
        self.store_output(Stage::Hull, &tree, r)?;
        Ok(Some(tree))
    }

    /// The barrier, then invocation 0 calls the patch constant function and writes its outputs.
    pub(crate) fn hull_patch_constants(&mut self, ep: &EntryPoint, hull: &HullParams, cp_out: Option<&OutTree>, io: &mut Io) -> R<()> {
        let m = self.m;
        let f = m.func(ep.func);
        let Some(pcf_id) = ep.hull.as_ref().map(|h| h.patch_constant_func) else {
            return error("patch constant function not defined in hull shader", f);
        };
        let pf = m.func(pcf_id);
        let Some((cp_id, cp_ty)) = hull.cp_id else {
            return error("SV_OutputControlPointID semantic must be provided in hull shader", f);
        };
        // Execution scope Workgroup, memory scope Invocation, no memory semantics.
        let (wg, inv, none) = (self.b.ctx.const_u32(2), self.b.ctx.const_u32(4), self.b.ctx.const_u32(0));
        self.b.void(Op::ControlBarrier, vec![Operand::IdRef(wg.0), Operand::IdRef(inv.0), Operand::IdRef(none.0)])?;
        let zero = if self.m.types.component(cp_ty).is_some_and(|k| k.is_signed_int()) {
            self.b.ctx.const_i32(0)
        } else {
            self.b.ctx.const_u32(0)
        };
        let bool_ty = self.b.ctx.type_bool();
        let cond = self.b.binary(Op::IEqual, bool_ty, cp_id, zero)?;
        let (then, merge) = (self.label("if.true"), self.label("if.merge"));
        self.b.selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(cond, then, merge)?;
        self.start_block(then)?;

        let mut args = Vec::new();
        let mut outs = Vec::new();
        // dxc: the function's patches have as many control points as the entry's input patch
        // and its output control points.
        let input_points = f.params.iter().find_map(|&p| patch_of(&m.types, m.var(p).ty).filter(|x| x.0 == ObjectKind::InputPatch).map(|x| x.2));
        let output_points = ep.hull.as_ref().and_then(|h| h.output_control_points);
        for &p in &pf.params {
            let var = m.var(p);
            let (which, expected) = match patch_of(&m.types, var.ty) {
                Some((ObjectKind::InputPatch, ..)) => ("input", input_points.map(i64::from)),
                Some(_) => ("output", output_points),
                None => ("", None),
            };
            if let (Some(expected), Some((_, _, n))) = (expected, patch_of(&m.types, var.ty)) {
                if expected != i64::from(n) {
                    self.defer_error(
                        format!("Patch constant function's {which} patch input should have {expected} elements, but has {n}."),
                        Some(var.span),
                    );
                }
            }
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            let sem = var.semantic.as_ref().and_then(|s| s.system());
            let arg = match (patch_of(&m.types, var.ty), sem) {
                (Some((ObjectKind::InputPatch, ..)), _) if hull.input_patch.is_some() => hull.input_patch.unwrap(),
                (Some((ObjectKind::InputPatch, e, n)), _) => {
                    let tmp = self.temp_var(var.ty, &format!("param.var.{}", var.name))?;
                    let v = self.read_input(Stage::Hull, e, None, var.interpolation, VkIo::default(), Some(n), var.span, io)?;
                    self.b.store(tmp, v, None)?;
                    tmp
                }
                (Some((_, e, n)), _) => {
                    let Some(tree) = cp_out else {
                        return error("an OutputPatch needs a hull shader entry with a result", pf);
                    };
                    let tmp = self.temp_var(var.ty, "temp.var.hullMainRetVal")?;
                    self.copy_control_points(tree, tmp, e, n)?;
                    tmp
                }
                (None, Some(SystemValue::PrimitiveID)) if hull.primitive_id.is_some() => hull.primitive_id.unwrap(),
                (None, Some(SystemValue::ViewID)) if hull.view_id.is_some() => hull.view_id.unwrap(),
                (None, Some(SystemValue::PrimitiveID | SystemValue::ViewID)) => {
                    let tmp = self.temp_var(var.ty, &format!("param.var.{}", var.name))?;
                    let v = self.read_input(Stage::Hull, var.ty, var.semantic.as_ref(), var.interpolation, VkIo::of(&var.binding, var.span), None, var.span, io)?;
                    self.b.store(tmp, v, None)?;
                    tmp
                }
                _ if dir == ParamDir::Out => {
                    let tmp = self.temp_var(var.ty, &format!("param.var.{}", var.name))?;
                    outs.push((tmp, var));
                    tmp
                }
                _ => return error(&format!("patch constant function parameter '{}' unknown", var.name), pf),
            };
            args.push(arg);
        }
        let ret = self.ty(pf.ret, Layout::Logical)?;
        let callee = self.func_id(pcf_id);
        let r = self.b.function_call(ret, callee, &args)?;
        io.patch = true;
        if pf.ret != TypeTable::VOID {
            self.write_output(Stage::Hull, pf.ret, pf.ret_semantic.as_ref(), Interpolation::default(), VkIo::of_return(pf), r, pf.span, io)?;
        }
        for (tmp, var) in outs {
            let t = self.ty(var.ty, Layout::Logical)?;
            let v = self.b.load(t, tmp, None)?;
            self.write_output(Stage::Hull, var.ty, var.semantic.as_ref(), var.interpolation, VkIo::of(&var.binding, var.span), v, var.span, io)?;
        }
        io.patch = false;
        self.b.branch(merge)?;
        self.start_block(merge)?;
        Ok(())
    }

    /// Copies the control point outputs (`tree`, arrays of `n`) into `dst`, an `OutputPatch`
    /// of `n` values of `elem`.
    fn copy_control_points(&mut self, tree: &OutTree, dst: SpvId, elem: TypeId, n: u32) -> R<()> {
        for i in 0..n {
            let pty = self.ptr_ty(elem, Layout::Logical, StorageClass::Function)?;
            let c = self.b.ctx.const_u32(i);
            let p = self.b.access_chain(pty, dst, &[c])?;
            self.copy_control_point(tree, p, elem, c)?;
        }
        Ok(())
    }

    fn copy_control_point(&mut self, tree: &OutTree, dst: SpvId, ty: TypeId, i: SpvId) -> R<()> {
        match tree {
            OutTree::Struct(fields) => {
                let Type::Struct(sid) = self.m.types.get(ty).clone() else {
                    return unsupported("this OutputPatch element type", None);
                };
                let def = self.m.types.structs[sid.0 as usize].clone();
                let tys: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                for (j, ((_, sub), fty)) in fields.iter().zip(tys).enumerate() {
                    let pty = self.ptr_ty(fty, Layout::Logical, StorageClass::Function)?;
                    let c = self.b.ctx.const_u32(j as u32);
                    let p = self.b.access_chain(pty, dst, &[c])?;
                    self.copy_control_point(sub, p, fty, i)?;
                }
                Ok(())
            }
            OutTree::Clip { .. } => unsupported("clip/cull distances in an output patch", None),
            // Only pixel shaders have per-vertex members (`pervertex.rs`).
            OutTree::Vertex0 { .. } => unsupported("per-vertex members in an output patch", None),
            &OutTree::Leaf { var, var_ty, hlsl_spv, ty, .. } => {
                let pty = self.b.ctx.type_pointer(StorageClass::Output, var_ty);
                let src = self.b.access_chain(pty, var, &[i])?;
                let v = self.b.load(var_ty, src, None)?;
                let v = self.adapt(v, var_ty, hlsl_spv, ty)?;
                self.b.store(dst, v, None)?;
                Ok(())
            }
        }
    }

    /// A `TessLevelOuter` / `TessLevelInner` input `v` as the HLSL value of type `ty`.
    pub(crate) fn tess_level_in(&mut self, b: BuiltIn, v: SpvId, ty: TypeId) -> R<SpvId> {
        let f = self.b.ctx.type_f32();
        match (b, self.m.types.get(ty).clone()) {
            (BuiltIn::TessLevelOuter, Type::Array { len: Some(n), .. }) if n != 4 => {
                let parts = (0..n).map(|i| self.b.composite_extract(f, v, &[i])).collect::<Result<Vec<_>, _>>()?;
                let at = self.b.ctx.type_array(f, n, None);
                Ok(self.b.composite_construct(at, &parts)?)
            }
            (BuiltIn::TessLevelInner, Type::Scalar(_)) => Ok(self.b.composite_extract(f, v, &[0])?),
            (BuiltIn::TessLevelInner, Type::Array { len: Some(1), .. }) => {
                let x = self.b.composite_extract(f, v, &[0])?;
                let at = self.b.ctx.type_array(f, 1, None);
                Ok(self.b.composite_construct(at, &[x])?)
            }
            _ => Ok(v),
        }
    }

    /// Writes the HLSL value `value` (of type `ty`) to a `TessLevelOuter` / `TessLevelInner`
    /// output: element by element when the HLSL array is shorter.
    pub(crate) fn tess_level_out(&mut self, b: BuiltIn, var: SpvId, value: SpvId, ty: TypeId) -> R<()> {
        let f = self.b.ctx.type_f32();
        let pf = self.b.ctx.type_pointer(StorageClass::Output, f);
        match (b, self.m.types.get(ty).clone()) {
            (BuiltIn::TessLevelOuter, Type::Array { len: Some(n), .. }) if n != 4 => {
                for i in 0..n {
                    let c = self.b.ctx.const_u32(i);
                    let p = self.b.access_chain(pf, var, &[c])?;
                    let x = self.b.composite_extract(f, value, &[i])?;
                    self.b.store(p, x, None)?;
                }
            }
            (BuiltIn::TessLevelInner, t @ (Type::Scalar(_) | Type::Array { len: Some(1), .. })) => {
                let c = self.b.ctx.const_u32(0);
                let p = self.b.access_chain(pf, var, &[c])?;
                let x = if matches!(t, Type::Array { .. }) { self.b.composite_extract(f, value, &[0])? } else { value };
                self.b.store(p, x, None)?;
            }
            _ => self.b.store(var, value, None)?,
        }
        Ok(())
    }
}

