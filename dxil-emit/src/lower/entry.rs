//! The entry point: stage inputs read with `loadInput` (or system-value ops in compute shaders),
//! the body inlined, outputs written with `storeOutput` at the single return; signature elements
//! packed into rows, and the module's named metadata.

use super::resources::ResState;
use super::{unsupported, Flat, Lowerer, ReturnCtx, R};
use crate::ir::{self, Value};
use crate::metadata::{self, ComponentType, EntryProperties, InterpolationMode, SignatureElement, Signatures};
use crate::ops::{DxilOp, Overload, ScalarKind as OK, Stage, Target};
use hlslc_frontend::Span;
use hlslc_sema::entry::{Semantic, SystemValue};
use hlslc_sema::tast::{self, Interpolation, ParamDir, Storage};
use hlslc_sema::types::{MatrixLayout, ScalarKind, Type, TypeId};

/// Signature elements collected while lowering, with the packing state.
#[derive(Clone, Debug, Default)]
pub struct SigState {
    pub inputs: Vec<SignatureElement>,
    pub outputs: Vec<SignatureElement>,
    /// Last packed row per direction: (row, next free column, interpolation, is arbitrary).
    in_pack: Option<(u32, u8, InterpolationMode, bool)>,
    out_pack: Option<(u32, u8, InterpolationMode, bool)>,
    /// The same for a mesh shader's primitive signature.
    prim_pack: Option<(u32, u8, InterpolationMode, bool)>,
    /// A geometry shader's state, filled while its parameters are lowered.
    pub gs_state: Option<metadata::GsState>,
    /// Patch-constant signature of hull and domain shaders, packed by [`super::tessellation`].
    pub patch_constant: Vec<SignatureElement>,
    /// Hull and domain state, filled while the entry (and patch constant function) is lowered.
    pub tess: super::tessellation::TessState,
    /// A ray tracing shader's payload (or callable data) size and attribute size in bytes.
    pub ray_payload_size: Option<u32>,
    pub ray_attrib_size: Option<u32>,
    /// An amplification shader's payload size in bytes, and its `DispatchMesh` calls.
    pub mesh_payload_size: Option<u32>,
    pub dispatch_mesh_calls: u32,
}

/// Which signature an element goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum SigKind {
    Input,
    Output,
    PatchConstant,
}

impl SigState {
    /// The next output element starts a new packing from row 0 (each GS stream has its own).
    pub(crate) fn restart_output_packing(&mut self) {
        self.out_pack = None;
    }
}

fn component_type(k: ScalarKind, enable_16bit: bool) -> ComponentType {
    use ScalarKind::*;
    match k {
        Bool | UInt | LitInt => if k == LitInt { ComponentType::I32 } else { ComponentType::U32 },
        Int => ComponentType::I32,
        Int64 => ComponentType::I64,
        UInt64 => ComponentType::U64,
        Int16 | Min16Int | Min12Int => ComponentType::I16,
        UInt16 | Min16UInt => ComponentType::U16,
        Half | Min16Float | Min10Float => ComponentType::F16,
        Float | LitFloat => ComponentType::F32,
        Double => ComponentType::F64,
    }
    .min_precision(enable_16bit)
}

trait MinPrecision {
    fn min_precision(self, enable_16bit: bool) -> Self;
}
impl MinPrecision for ComponentType {
    fn min_precision(self, _enable_16bit: bool) -> Self {
        self
    }
}

/// One piece of the entry's interface: a semantic and the type under it.
#[derive(Clone, Debug)]
pub(crate) struct IoPiece {
    pub semantic: Semantic,
    pub ty: TypeId,
    pub interp: Interpolation,
    pub span: Span,
}

impl Lowerer<'_> {
    /// Splits a parameter or return value into semantic-carrying pieces (struct fields
    /// recursively).
    pub(crate) fn io_pieces(&self, ty: TypeId, semantic: Option<&Semantic>, interp: Interpolation, span: Span, out: &mut Vec<IoPiece>) -> R<()> {
        if let Some(s) = semantic {
            out.push(IoPiece { semantic: s.clone(), ty, interp, span });
            return Ok(());
        }
        match self.t.types.get(ty) {
            Type::Struct(s) => {
                let def = &self.t.types.structs[s.0 as usize];
                for b in def.bases.clone() {
                    self.io_pieces(b, None, interp, span, out)?;
                }
                for f in def.fields.clone() {
                    self.io_pieces(f.ty, f.semantic.as_ref(), f.interpolation, span, out)?;
                }
                Ok(())
            }
            _ => unsupported("an entry-point parameter or result without a semantic", Some(span)),
        }
    }

    fn interp_mode(&self, piece: &IoPiece, sv: u8, kind: ScalarKind, is_input: bool) -> InterpolationMode {
        let stage = self.target.stage;
        let interpolated = (stage == Stage::Pixel && is_input) || (matches!(stage, Stage::Vertex | Stage::Geometry | Stage::Domain | Stage::Mesh) && !is_input);
        if !interpolated {
            return InterpolationMode::Undefined;
        }
        let i = piece.interp;
        if i.nointerpolation || !kind.is_float() || matches!(sv, 1 | 2 | 4 | 5 | 10 | 12 | 13) {
            return InterpolationMode::Constant;
        }
        let noperspective = i.noperspective || sv == 3;
        match (noperspective, i.centroid, i.sample) {
            (false, false, false) => InterpolationMode::Linear,
            (false, true, _) => InterpolationMode::LinearCentroid,
            (false, false, true) => InterpolationMode::LinearSample,
            (true, false, false) => InterpolationMode::LinearNoperspective,
            (true, true, _) => InterpolationMode::LinearNoperspectiveCentroid,
            (true, false, true) => InterpolationMode::LinearNoperspectiveSample,
        }
    }

    /// Adds a signature element for `piece`; returns its id.
    pub(crate) fn add_element(&mut self, piece: &IoPiece, is_input: bool) -> R<u32> {
        self.add_element_to(piece, if is_input { SigKind::Input } else { SigKind::Output })
    }

    /// Adds a signature element for `piece` to the signature `kind`; returns its id.
    pub(crate) fn add_element_to(&mut self, piece: &IoPiece, kind_of_sig: SigKind) -> R<u32> {
        let is_input = kind_of_sig == SigKind::Input;
        let (name, index) = (piece.semantic.canonical_name().to_string(), piece.semantic.index());
        let sv = piece.semantic.system().map_or(0, SystemValue::dxil_kind);
        let (kind, rows, cols) = match self.t.types.get(piece.ty).clone() {
            Type::Scalar(k) => (k, 1, 1),
            Type::Enum(_) => (self.t.types.component(piece.ty).unwrap_or(ScalarKind::Int), 1, 1),
            Type::Vector(k, n) => (k, 1, n),
            Type::Matrix { elem, rows, cols, layout: MatrixLayout::ColumnMajor } => (elem, u32::from(cols), rows),
            Type::Matrix { elem, rows, cols, .. } => (elem, u32::from(rows), cols),
            Type::Array { elem, len: Some(n) } => match self.t.types.get(elem) {
                Type::Scalar(k) => (*k, n, 1),
                Type::Vector(k, c) => (*k, n, *c),
                _ => return unsupported("an array of aggregates in a stage signature", Some(piece.span)),
            },
            _ => return unsupported(format!("the type of `{}` in a stage signature", piece.semantic), Some(piece.span)),
        };
        // A mesh shader's primitive outputs are packed like outputs, each constant over its
        // primitive (dxc's default; any other interpolation is refused by sema).
        let mesh_primitive = kind_of_sig == SigKind::PatchConstant && self.target.stage == Stage::Mesh;
        let interp = if mesh_primitive {
            InterpolationMode::Constant
        } else if kind_of_sig == SigKind::PatchConstant {
            InterpolationMode::Undefined
        } else {
            self.interp_mode(piece, sv, kind, is_input)
        };
        if kind_of_sig == SigKind::PatchConstant && !mesh_primitive {
            let comp = component_type(kind, self.opts.enable_16bit);
            return Ok(self.add_patch_constant(name, index, sv, comp, rows, cols));
        }
        let gs_primitive_id = sv == 10 && is_input && self.target.stage == Stage::Geometry;
        // SV_CullPrimitive (30) is not packed, as SV_Depth* and SV_Coverage are not.
        let not_packed = matches!(sv, 17..=20 | 30) || (sv == 14 && !is_input) || sv == 15 || (sv == 12 && is_input) || gs_primitive_id;
        let (list, pack) = match kind_of_sig {
            SigKind::Input => (&mut self.sigs.inputs, &mut self.sigs.in_pack),
            SigKind::Output => (&mut self.sigs.outputs, &mut self.sigs.out_pack),
            SigKind::PatchConstant => (&mut self.sigs.patch_constant, &mut self.sigs.prim_pack),
        };
        let id = list.len() as u32;
        let (start_row, start_col) = if not_packed {
            (None, 0)
        } else if sv == 16 {
            (Some(index), 0)
        } else {
            let arbitrary = sv == 0;
            let place = match *pack {
                Some((row, col, mode, arb)) if rows == 1 && arb && arbitrary && mode == interp && col + cols <= 4 => (row, col),
                Some((row, _, _, _)) => (row + 1, 0),
                None => (0, 0),
            };
            let last_row = place.0 + rows - 1;
            *pack = Some((last_row, if rows == 1 { place.1 + cols } else { 4 }, interp, arbitrary));
            (Some(place.0), place.1)
        };
        list.push(SignatureElement {
            id,
            semantic: name,
            component_type: component_type(kind, self.opts.enable_16bit),
            system_value: sv,
            semantic_indices: (0..rows).map(|r| index + r).collect(),
            interpolation: interp,
            rows,
            cols,
            start_row,
            start_col,
            output_stream: None,
        });
        Ok(id)
    }

    /// Reads one input piece.
    fn load_piece(&mut self, piece: &IoPiece) -> R<Flat> {
        let sv = piece.semantic.system();
        let kinds = self.leaf_kinds(piece.ty);
        let span = Some(piece.span);
        let compute_op = match sv {
            Some(SystemValue::DispatchThreadID) => Some(DxilOp::ThreadId),
            Some(SystemValue::GroupID) => Some(DxilOp::GroupId),
            Some(SystemValue::GroupThreadID) => Some(DxilOp::ThreadIdInGroup),
            Some(SystemValue::GroupIndex) => Some(DxilOp::FlattenedThreadIdInGroup),
            _ => None,
        };
        if let Some(op) = compute_op {
            let mut out = Vec::new();
            let i32o = Overload::Scalar(OK::I32);
            for (i, k) in kinds.iter().enumerate() {
                let v = if op == DxilOp::FlattenedThreadIdInGroup {
                    self.op(op, i32o, &[], span)?
                } else {
                    let c = self.ci32(i as i32);
                    self.op(op, i32o, &[c], span)?
                };
                out.push(self.convert_scalar(v, ScalarKind::UInt, *k));
            }
            return Ok(out);
        }
        if self.target.stage == Stage::Mesh && sv == Some(SystemValue::ViewID) {
            let v = self.op(DxilOp::ViewID, Overload::Scalar(OK::I32), &[], span)?;
            return Ok(kinds.iter().map(|k| self.convert_scalar(v, ScalarKind::UInt, *k)).collect());
        }
        if matches!(self.target.stage, Stage::Compute | Stage::Amplification | Stage::Mesh) {
            return unsupported(format!("the {}-shader input `{}`", self.target.stage.name(), piece.semantic), span);
        }
        if matches!(self.target.stage, Stage::Hull | Stage::Domain) {
            if let Some(v) = self.load_tess_system_value(piece, sv)? {
                return Ok(v);
            }
            if self.target.stage == Stage::Domain {
                return self.load_patch_constant(piece);
            }
            return unsupported(format!("the hull-shader input `{}` outside an InputPatch", piece.semantic), span);
        }
        if self.target.stage == Stage::Geometry && matches!(sv, Some(SystemValue::GSInstanceID | SystemValue::PrimitiveID)) {
            // Read with their own operations; SV_PrimitiveID still has an (unpacked) element.
            let op = if sv == Some(SystemValue::GSInstanceID) {
                DxilOp::GSInstanceID
            } else {
                self.add_element(piece, true)?;
                DxilOp::PrimitiveID
            };
            let v = self.op(op, Overload::Scalar(OK::I32), &[], span)?;
            return Ok(kinds.iter().map(|k| self.convert_scalar(v, ScalarKind::UInt, *k)).collect());
        }
        let id = self.add_element(piece, true)?;
        let vertex = self.undef_i32();
        self.load_element(piece, id, vertex)
    }

    /// Reads input element `id` (made from `piece`) of vertex `vertex` (`undef` outside
    /// geometry shaders).
    pub(crate) fn load_element(&mut self, piece: &IoPiece, id: u32, vertex: Value) -> R<Flat> {
        self.load_element_with(DxilOp::LoadInput, piece, id, Some(vertex))
    }

    /// Reads element `id` (made from `piece`) with `op` (`loadInput`, `loadOutputControlPoint`
    /// or, without a vertex, `loadPatchConstant`).
    pub(crate) fn load_element_with(&mut self, op: DxilOp, piece: &IoPiece, id: u32, vertex: Option<Value>) -> R<Flat> {
        let span = Some(piece.span);
        let kinds = self.leaf_kinds(piece.ty);
        let mut out = Vec::new();
        for (i, k) in kinds.iter().enumerate() {
            let (row, col) = self.sig_position(piece.ty, i);
            let load_kind = if *k == ScalarKind::Bool { ScalarKind::UInt } else { *k };
            let mut args = vec![self.ci32(id as i32), self.ci32(row), self.ci8(col)];
            args.extend(vertex);
            let v = self.op(op, Self::overload(load_kind), &args, span)?;
            out.push(self.convert_scalar(v, load_kind, *k));
        }
        Ok(out)
    }

    /// The signature row and column of flattened component `i` of a piece of type `ty`: a
    /// column-major matrix takes one row per matrix column, as DXC lays it out.
    pub(crate) fn sig_position(&self, ty: TypeId, i: usize) -> (i32, i8) {
        if let Type::Matrix { cols, layout: MatrixLayout::ColumnMajor, .. } = self.t.types.get(ty) {
            let c = *cols as usize;
            return ((i % c) as i32, (i / c) as i8);
        }
        let cols = self.piece_cols(ty);
        ((i / cols) as i32, (i % cols) as i8)
    }

    fn piece_cols(&self, ty: TypeId) -> usize {
        match self.t.types.get(ty) {
            Type::Vector(_, n) => *n as usize,
            Type::Matrix { cols, .. } => *cols as usize,
            Type::Array { elem, .. } => self.piece_cols(*elem),
            _ => 1,
        }
    }

    fn store_piece(&mut self, piece: &IoPiece, values: &[Value]) -> R<()> {
        if self.sigs.tess.patch_constant_phase {
            return self.store_patch_constant(piece, values);
        }
        let id = self.add_element(piece, false)?;
        self.store_element(id, piece, values)
    }

    /// Writes `values` to output element `id` (made from `piece`), skipping `undef` components.
    pub(crate) fn store_element(&mut self, id: u32, piece: &IoPiece, values: &[Value]) -> R<()> {
        self.store_element_with(DxilOp::StoreOutput, id, piece, values)
    }

    /// Writes `values` to element `id` with `op` (`storeOutput` or `storePatchConstant`).
    pub(crate) fn store_element_with(&mut self, op: DxilOp, id: u32, piece: &IoPiece, values: &[Value]) -> R<()> {
        let kinds = self.leaf_kinds(piece.ty);
        for (i, (k, v)) in kinds.iter().zip(values).enumerate() {
            if self.is_undef(*v) {
                continue;
            }
            let store_kind = if *k == ScalarKind::Bool { ScalarKind::UInt } else { *k };
            let v = self.convert_scalar(*v, *k, store_kind);
            let (row, col) = self.sig_position(piece.ty, i);
            let args = [self.ci32(id as i32), self.ci32(row), self.ci8(col), v];
            self.op(op, Self::overload(store_kind), &args, Some(piece.span))?;
        }
        Ok(())
    }

    pub(crate) fn is_undef(&self, v: Value) -> bool {
        matches!(v, Value::Const(c) if matches!(self.b.module.consts.get(c), ir::Const::Undef(_)))
    }

    /// Statics start with their initial values.
    pub(crate) fn init_statics(&mut self) -> R<()> {
        let t = self.t;
        for &g in &t.globals {
            let var = t.var(g);
            if var.storage == Storage::Static || (var.storage == Storage::Uniform && var.const_value.is_some()) {
                let init = match var.init {
                    Some(e) => self.expr(e)?,
                    None => self.zero_of(var.ty),
                };
                self.vars.insert(g, init);
            }
        }
        Ok(())
    }

    /// Lowers the whole entry function.
    pub(crate) fn lower_entry(&mut self) -> R<()> {
        if super::raytracing::is_ray_stage(self.target.stage) {
            return self.lower_ray_entry();
        }
        let t = self.t;
        self.init_statics()?;
        let f = t.func(self.entry_func);
        if self.target.stage == Stage::Geometry {
            self.begin_geometry(f)?;
        }
        if matches!(self.target.stage, Stage::Hull | Stage::Domain) && !self.sigs.tess.patch_constant_phase {
            self.begin_tessellation();
        }
        let mesh_params = if self.target.stage == Stage::Mesh { self.begin_mesh(f)? } else { Vec::new() };
        let mut outs = Vec::new();
        for &p in &f.params {
            if mesh_params.contains(&p) {
                continue;
            }
            let var = t.var(p);
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            if let Some((kind, elem, count)) = self.patch_parts(var.ty) {
                let marker = self.declare_patch(var, kind, elem, count)?;
                self.vars.insert(p, marker);
                continue;
            }
            if let Type::Object { kind, elem, .. } = t.types.get(var.ty).clone() {
                if super::geometry::is_stream(kind) && self.target.stage == Stage::Geometry {
                    let marker = self.declare_stream(kind, elem, var.span)?;
                    self.vars.insert(p, marker);
                    continue;
                }
            }
            if var.primitive.is_some() && self.target.stage == Stage::Geometry {
                let vals = self.load_vertex_array(var)?;
                self.vars.insert(p, vals);
                continue;
            }
            let mut pieces = Vec::new();
            self.io_pieces(var.ty, var.semantic.as_ref(), var.interpolation, var.span, &mut pieces)?;
            if dir == ParamDir::Out {
                let kinds = self.leaf_kinds(var.ty);
                let vals = kinds.iter().map(|k| self.undef_of(*k)).collect();
                self.vars.insert(p, vals);
            } else {
                let mut vals = Vec::new();
                for piece in &pieces {
                    vals.extend(self.load_piece(piece)?);
                }
                self.vars.insert(p, vals);
            }
            if dir != ParamDir::In {
                outs.push((p, pieces));
            }
        }
        let ret_pieces = if t.types.is_void(f.ret) {
            Vec::new()
        } else {
            let mut pieces = Vec::new();
            self.io_pieces(f.ret, f.ret_semantic.as_ref(), Interpolation::default(), f.span, &mut pieces)?;
            pieces
        };
        let Some(body) = f.body else { return unsupported("an entry point without a body", Some(f.span)) };
        let ret_block = self.new_block();
        self.returns.push(ReturnCtx { block: ret_block, edges: Vec::new() });
        self.stmt(body)?;
        let ret_len = self.flat_len(f.ret);
        let ret_vals = self.finish_returns(f.ret, ret_len)?;
        let mut at = 0;
        for piece in &ret_pieces {
            let n = self.flat_len(piece.ty);
            let slice = ret_vals[at..at + n].to_vec();
            self.store_piece(piece, &slice)?;
            at += n;
        }
        for (p, pieces) in outs {
            let vals = self.vars.get(&p).cloned().unwrap_or_default();
            let mut at = 0;
            for piece in &pieces {
                let n = self.flat_len(piece.ty);
                if vals.len() >= at + n {
                    self.store_piece(piece, &vals[at..at + n])?;
                }
                at += n;
            }
        }
        self.b.ret(None);
        Ok(())
    }
}

/// Writes `dx.version`, `dx.valver`, `dx.shaderModel`, `dx.resources` and `dx.entryPoints`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn emit_metadata(
    m: &mut ir::Module,
    t: &tast::Module,
    options: &super::LowerOptions,
    target: Target,
    main: ir::FuncId,
    ep: &tast::EntryPoint,
    sigs: &SigState,
    res: &ResState,
    patch_constant_function: Option<ir::FuncId>,
) {
    let (major, minor) = options.shader_model;
    metadata::emit_version(m, target.version);
    metadata::emit_valver(m, options.validator_version.0, options.validator_version.1);
    metadata::emit_shader_model(m, target.stage, major, minor);
    let resources = res.metadata(m, t);
    let resources = metadata::emit_resources(m, &resources);
    let signatures = metadata::emit_signatures(
        m,
        &Signatures { inputs: sigs.inputs.clone(), outputs: sigs.outputs.clone(), patch_constant: sigs.patch_constant.clone() },
    );
    let properties = entry_properties(t, target, ep, sigs, res.shader_flags(m, target, options.enable_16bit), patch_constant_function);
    let name = options.entry_name.clone();
    metadata::emit_entry_point(
        m,
        &metadata::EntryPoint { function: Some(main), name, signatures, resources, properties },
    );
}

/// The properties of entry `ep` (stage state, numthreads, wave size) with `shader_flags`.
pub(crate) fn entry_properties(
    t: &tast::Module,
    target: Target,
    ep: &tast::EntryPoint,
    sigs: &SigState,
    shader_flags: u64,
    patch_constant_function: Option<ir::FuncId>,
) -> EntryProperties {
    let mut properties = EntryProperties { shader_flags, ..EntryProperties::default() };
    // `[earlydepthstencil]`: the ForceEarlyDepthStencil shader flag.
    if target.stage == Stage::Pixel && t.func(ep.func).attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("earlydepthstencil")) {
        properties.shader_flags |= 0x8;
    }
    properties.gs_state = sigs.gs_state;
    properties.ray_payload_size = sigs.ray_payload_size;
    properties.ray_attrib_size = sigs.ray_attrib_size;
    let tess = &sigs.tess;
    if target.stage == Stage::Domain {
        properties.ds_state = Some(metadata::DsState { domain: tess.domain, input_control_points: tess.input_control_points });
    }
    if let Some(pcf) = patch_constant_function {
        properties.hs_state = Some(metadata::HsState {
            patch_constant_function: pcf,
            input_control_points: tess.input_control_points,
            output_control_points: tess.output_control_points,
            domain: tess.domain,
            partitioning: tess.partitioning,
            output_primitive: tess.output_primitive,
            max_tess_factor: tess.max_tess_factor,
        });
    }
    if target.stage == Stage::Amplification {
        properties.as_state = Some(metadata::AsState { num_threads: ep.numthreads.unwrap_or([1, 1, 1]), payload_size: sigs.mesh_payload_size.unwrap_or(0) });
    }
    if let (Stage::Mesh, Some(ms)) = (target.stage, &ep.mesh) {
        use hlslc_sema::entry::MeshTopology;
        properties.ms_state = Some(metadata::MsState {
            num_threads: ep.numthreads.unwrap_or([1, 1, 1]),
            max_vertices: ms.max_vertices,
            max_primitives: ms.max_primitives,
            // DXIL::MeshOutputTopology: 1 line, 2 triangle; DXIL has no point topology and dxc
            // writes "point" as 0 (undefined), as its StringToMeshOutputTopology does.
            topology: match ms.topology {
                MeshTopology::Line => 1,
                MeshTopology::Triangle => 2,
                MeshTopology::Point => 0,
            },
            payload_size: sigs.mesh_payload_size.unwrap_or(0),
        });
    }
    if target.stage == Stage::Compute {
        properties.num_threads = Some(ep.numthreads.unwrap_or([1, 1, 1]));
        // `[WaveSize(n)]` (a range of sizes is refused in `lower_module`).
        let wave = t.func(ep.func).attrs.iter().find(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("wavesize"));
        if let Some(tast::AttrArg::Int(n)) = wave.and_then(|a| a.args.first()) {
            properties.wave_size = Some(*n as u32);
        }
    }
    properties
}
