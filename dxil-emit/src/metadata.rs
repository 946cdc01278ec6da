//! Builders for DXIL's named metadata, over a small description that does not depend on sema:
//! `!dx.version`, `!dx.valver`, `!dx.shaderModel`, `!dx.resources` (SRV/UAV/CBV/sampler
//! records) and `!dx.entryPoints` (signatures, resources, shader flags, numthreads, wave size).
//! Record layouts follow DXIL.rst ("Shader Resources", "Entry points", signature elements).

use crate::ir::{FuncId, GlobalId, MdId, MdOperand, Module, TypeId, Value};
use crate::ops::{DxilVersion, Stage};

/// `!dx.version = !{!{i32 major, i32 minor}}`
pub fn emit_version(m: &mut Module, v: DxilVersion) -> MdId {
    let node = pair(m, u32::from(v.major), u32::from(v.minor));
    m.add_named_md("dx.version", node);
    node
}

/// `!dx.valver = !{!{i32 major, i32 minor}}` (validator version the module targets).
pub fn emit_valver(m: &mut Module, major: u32, minor: u32) -> MdId {
    let node = pair(m, major, minor);
    m.add_named_md("dx.valver", node);
    node
}

/// `!dx.shaderModel = !{!{!"cs", i32 6, i32 0}}`
pub fn emit_shader_model(m: &mut Module, kind: Stage, major: u32, minor: u32) -> MdId {
    let ops = vec![MdOperand::String(crate::ops::profile_prefix(kind).to_string()), i32_op(m, major), i32_op(m, minor)];
    let node = m.md_node(ops);
    m.add_named_md("dx.shaderModel", node);
    node
}

fn pair(m: &mut Module, a: u32, b: u32) -> MdId {
    let ops = vec![i32_op(m, a), i32_op(m, b)];
    m.md_node(ops)
}

fn i32_op(m: &mut Module, v: u32) -> MdOperand {
    m.md_i32(v as i32)
}

fn bool_op(m: &mut Module, v: bool) -> MdOperand {
    let c = m.const_bool(v);
    let ty = m.types.i1();
    MdOperand::Value(ty, Value::Const(c))
}

fn i8_op(m: &mut Module, v: u8) -> MdOperand {
    let c = m.const_i8(v as i8);
    let ty = m.types.i8();
    MdOperand::Value(ty, Value::Const(c))
}

/// DXIL's resource shapes (`DXIL::ResourceKind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    Texture1D = 1,
    Texture2D,
    Texture2DMS,
    Texture3D,
    TextureCube,
    Texture1DArray,
    Texture2DArray,
    Texture2DMSArray,
    TextureCubeArray,
    TypedBuffer,
    RawBuffer,
    StructuredBuffer,
    CBuffer,
    Sampler,
    TBuffer,
    RTAccelerationStructure,
    FeedbackTexture2D,
    FeedbackTexture2DArray,
}

/// Element component types (`DXIL::ComponentType`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ComponentType {
    I1 = 1,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
    SNormF16,
    UNormF16,
    SNormF32,
    UNormF32,
    SNormF64,
    UNormF64,
    PackedS8x32,
    PackedU8x32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SamplerKind {
    Default = 0,
    Comparison = 1,
    Mono = 2,
}

/// The variable a resource record points at: a global, or `undef` of a pointer type (what dxc
/// writes once the globals are gone).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResourceSymbol {
    Global(GlobalId),
    Undef(TypeId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceDetail {
    Srv { kind: ResourceKind, sample_count: u32, element: Option<ComponentType>, stride: Option<u32> },
    Uav { kind: ResourceKind, globally_coherent: bool, has_counter: bool, rasterizer_ordered: bool, element: Option<ComponentType>, stride: Option<u32> },
    CBuffer { size_in_bytes: u32 },
    Sampler { kind: SamplerKind },
}

/// One resource record. `range_size` of `u32::MAX` means unbounded (written as -1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub id: u32,
    pub symbol: ResourceSymbol,
    pub name: String,
    pub space: u32,
    pub lower_bound: u32,
    pub range_size: u32,
    pub detail: ResourceDetail,
}

/// The four lists of `!dx.resources`, each in record-id order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    pub srvs: Vec<Resource>,
    pub uavs: Vec<Resource>,
    pub cbuffers: Vec<Resource>,
    pub samplers: Vec<Resource>,
}

impl Resources {
    pub fn is_empty(&self) -> bool {
        self.srvs.is_empty() && self.uavs.is_empty() && self.cbuffers.is_empty() && self.samplers.is_empty()
    }
}

fn resource_record(m: &mut Module, r: &Resource) -> MdId {
    let symbol = match r.symbol {
        ResourceSymbol::Global(g) => {
            let ty = m.global_ptr_type(g);
            MdOperand::Value(ty, Value::Global(g))
        }
        ResourceSymbol::Undef(ptr) => {
            let c = m.undef(ptr);
            MdOperand::Value(ptr, Value::Const(c))
        }
    };
    let mut ops = vec![i32_op(m, r.id), symbol, MdOperand::String(r.name.clone()), i32_op(m, r.space), i32_op(m, r.lower_bound), i32_op(m, r.range_size)];
    let tags = |m: &mut Module, element: Option<ComponentType>, stride: Option<u32>| {
        let mut t = Vec::new();
        if let Some(e) = element {
            t.push(i32_op(m, 0));
            t.push(i32_op(m, e as u32));
        }
        if let Some(s) = stride {
            t.push(i32_op(m, 1));
            t.push(i32_op(m, s));
        }
        if t.is_empty() {
            MdOperand::Null
        } else {
            MdOperand::Node(m.md_node(t))
        }
    };
    match &r.detail {
        ResourceDetail::Srv { kind, sample_count, element, stride } => {
            ops.push(i32_op(m, *kind as u32));
            ops.push(i32_op(m, *sample_count));
            ops.push(tags(m, *element, *stride));
        }
        ResourceDetail::Uav { kind, globally_coherent, has_counter, rasterizer_ordered, element, stride } => {
            ops.push(i32_op(m, *kind as u32));
            ops.push(bool_op(m, *globally_coherent));
            ops.push(bool_op(m, *has_counter));
            ops.push(bool_op(m, *rasterizer_ordered));
            ops.push(tags(m, *element, *stride));
        }
        ResourceDetail::CBuffer { size_in_bytes } => {
            ops.push(i32_op(m, *size_in_bytes));
            ops.push(MdOperand::Null);
        }
        ResourceDetail::Sampler { kind } => {
            ops.push(i32_op(m, *kind as u32));
            ops.push(MdOperand::Null);
        }
    }
    m.md_node(ops)
}

/// Adds `!dx.resources = !{!{srvs, uavs, cbvs, samplers}}` (empty lists are `null`) and returns
/// the node, which entry points reference. `None` (and nothing emitted) when there are no
/// resources.
pub fn emit_resources(m: &mut Module, res: &Resources) -> Option<MdId> {
    if res.is_empty() {
        return None;
    }
    let mut lists = Vec::new();
    for list in [&res.srvs, &res.uavs, &res.cbuffers, &res.samplers] {
        if list.is_empty() {
            lists.push(MdOperand::Null);
        } else {
            let records: Vec<MdOperand> = list.iter().map(|r| MdOperand::Node(resource_record(m, r))).collect();
            lists.push(MdOperand::Node(m.md_node(records)));
        }
    }
    let node = m.md_node(lists);
    m.add_named_md("dx.resources", node);
    Some(node)
}

/// Interpolation modes of signature elements (`DXIL::InterpolationMode`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InterpolationMode {
    Undefined = 0,
    Constant,
    Linear,
    LinearCentroid,
    LinearNoperspective,
    LinearNoperspectiveCentroid,
    LinearSample,
    LinearNoperspectiveSample,
}

/// One packed signature element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureElement {
    pub id: u32,
    pub semantic: String,
    pub component_type: ComponentType,
    /// `DXIL::SemanticKind` (0 = arbitrary, 1 = SV_VertexID, ..., 16 = SV_Target, ...).
    pub system_value: u8,
    pub semantic_indices: Vec<u32>,
    pub interpolation: InterpolationMode,
    pub rows: u32,
    pub cols: u8,
    /// Packed location; `None` for elements that are not packed (start row -1).
    pub start_row: Option<u32>,
    pub start_col: u8,
    /// Output stream for geometry shaders (tag 0), when not 0.
    pub output_stream: Option<u32>,
}

/// Input, output and patch-constant/primitive signatures of an entry point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signatures {
    pub inputs: Vec<SignatureElement>,
    pub outputs: Vec<SignatureElement>,
    pub patch_constant: Vec<SignatureElement>,
}

fn signature_element(m: &mut Module, e: &SignatureElement) -> MdId {
    let indices: Vec<MdOperand> = e.semantic_indices.iter().map(|i| i32_op(m, *i)).collect();
    let indices = m.md_node(indices);
    let tags = match e.output_stream {
        Some(s) if s != 0 => {
            let t = vec![i32_op(m, 0), i32_op(m, s)];
            MdOperand::Node(m.md_node(t))
        }
        _ => MdOperand::Null,
    };
    let ops = vec![
        i32_op(m, e.id),
        MdOperand::String(e.semantic.clone()),
        i8_op(m, e.component_type as u8),
        i8_op(m, e.system_value),
        MdOperand::Node(indices),
        i8_op(m, e.interpolation as u8),
        i32_op(m, e.rows),
        i8_op(m, e.cols),
        i32_op(m, e.start_row.unwrap_or(u32::MAX)),
        i8_op(m, e.start_col),
        tags,
    ];
    m.md_node(ops)
}

/// `!{inputs, outputs, patch constants}` with `null` for empty lists; `None` when all are empty.
pub fn emit_signatures(m: &mut Module, sigs: &Signatures) -> Option<MdId> {
    if sigs.inputs.is_empty() && sigs.outputs.is_empty() && sigs.patch_constant.is_empty() {
        return None;
    }
    let mut lists = Vec::new();
    for list in [&sigs.inputs, &sigs.outputs, &sigs.patch_constant] {
        if list.is_empty() {
            lists.push(MdOperand::Null);
        } else {
            let elems: Vec<MdOperand> = list.iter().map(|e| MdOperand::Node(signature_element(m, e))).collect();
            lists.push(MdOperand::Node(m.md_node(elems)));
        }
    }
    Some(m.md_node(lists))
}

/// Entry-point properties written as tag/value pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryProperties {
    /// Shader flags (tag 0, an `i64` bit mask); omitted when 0.
    pub shader_flags: u64,
    /// `[numthreads(x, y, z)]` (tag 4).
    pub num_threads: Option<[u32; 3]>,
    /// `[WaveSize(n)]` (tag 11).
    pub wave_size: Option<u32>,
    /// A geometry shader's state (tag 1).
    pub gs_state: Option<GsState>,
    /// A domain shader's state (tag 2).
    pub ds_state: Option<DsState>,
    /// A hull shader's state (tag 3).
    pub hs_state: Option<HsState>,
    /// The stage of a library entry (tag 8, written right after the shader flags).
    pub shader_kind: Option<Stage>,
    /// A library entry's automatic binding space (tag 5, written last).
    pub auto_binding_space: Option<u32>,
    /// A ray tracing shader's payload (or callable data) size in bytes (tag 6, after the kind).
    pub ray_payload_size: Option<u32>,
    /// A hit shader's attribute size in bytes (tag 7, after the payload size).
    pub ray_attrib_size: Option<u32>,
    /// An amplification shader's state (tag 10).
    pub as_state: Option<AsState>,
    /// A mesh shader's state (tag 9).
    pub ms_state: Option<MsState>,
}

/// A mesh shader's properties: `!{!{x, y, z}, max vertices, max primitives, output topology
/// (1 line, 2 triangle), payload size in bytes}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsState {
    pub num_threads: [u32; 3],
    pub max_vertices: u32,
    pub max_primitives: u32,
    pub topology: u32,
    pub payload_size: u32,
}

/// An amplification shader's properties: `!{!{x, y, z}, payload size in bytes}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsState {
    pub num_threads: [u32; 3],
    pub payload_size: u32,
}

/// A domain shader's properties: `!{domain, input control point count}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsState {
    /// `DXIL::TessellatorDomain`: 1 isoline, 2 tri, 3 quad.
    pub domain: u32,
    pub input_control_points: u32,
}

/// A hull shader's properties: `!{patch constant function, input control point count, output
/// control point count, domain, partitioning, output primitive, max tess factor}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HsState {
    pub patch_constant_function: FuncId,
    pub input_control_points: u32,
    pub output_control_points: u32,
    /// `DXIL::TessellatorDomain`: 1 isoline, 2 tri, 3 quad.
    pub domain: u32,
    /// `DXIL::TessellatorPartitioning`: 1 integer, 2 pow2, 3 fractional_odd, 4 fractional_even.
    pub partitioning: u32,
    /// `DXIL::TessellatorOutputPrimitive`: 1 point, 2 line, 3 triangle_cw, 4 triangle_ccw.
    pub output_primitive: u32,
    pub max_tess_factor: f32,
}

impl Eq for HsState {}

/// A geometry shader's properties, written as DXC does: `!{input primitive, max vertex count,
/// active stream mask, output topology, instance count}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GsState {
    /// `DXIL::InputPrimitive`: 1 point, 2 line, 3 triangle, 6 lineadj, 7 triangleadj.
    pub input_primitive: u32,
    pub max_vertex_count: u32,
    /// Bit `i` set when stream `i` is declared.
    pub stream_mask: u32,
    /// `DXIL::PrimitiveTopology`: 1 point list, 3 line strip, 5 triangle strip.
    pub output_topology: u32,
    /// `[instance(n)]`, 1 without it.
    pub instance_count: u32,
}

/// One `!dx.entryPoints` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    /// The entry function; `None` writes `null` (library records).
    pub function: Option<FuncId>,
    pub name: String,
    pub signatures: Option<MdId>,
    pub resources: Option<MdId>,
    pub properties: EntryProperties,
}

const SHADER_FLAGS_TAG: u32 = 0;
const GS_STATE_TAG: u32 = 1;
const DS_STATE_TAG: u32 = 2;
const HS_STATE_TAG: u32 = 3;
const NUM_THREADS_TAG: u32 = 4;
const AUTO_BINDING_SPACE_TAG: u32 = 5;
const RAY_PAYLOAD_SIZE_TAG: u32 = 6;
const RAY_ATTRIB_SIZE_TAG: u32 = 7;
const SHADER_KIND_TAG: u32 = 8;
const MS_STATE_TAG: u32 = 9;
const AS_STATE_TAG: u32 = 10;
const WAVE_SIZE_TAG: u32 = 11;

/// Adds an entry record `!{fn, !"name", signatures, resources, properties}` to
/// `!dx.entryPoints` and returns it.
pub fn emit_entry_point(m: &mut Module, e: &EntryPoint) -> MdId {
    let function = match e.function {
        Some(f) => {
            let fty = m.function(f).ty;
            let ptr = m.types.pointer(fty, 0);
            MdOperand::Value(ptr, Value::Func(f))
        }
        None => MdOperand::Null,
    };
    let mut props = Vec::new();
    if e.properties.shader_flags != 0 {
        props.push(i32_op(m, SHADER_FLAGS_TAG));
        let i64t = m.types.int(64);
        let c = m.const_int(i64t, e.properties.shader_flags as i64);
        props.push(MdOperand::Value(i64t, Value::Const(c)));
    }
    if let Some(kind) = e.properties.shader_kind {
        props.push(i32_op(m, SHADER_KIND_TAG));
        props.push(i32_op(m, kind as u32));
    }
    if let Some(size) = e.properties.ray_payload_size {
        props.push(i32_op(m, RAY_PAYLOAD_SIZE_TAG));
        props.push(i32_op(m, size));
    }
    if let Some(size) = e.properties.ray_attrib_size {
        props.push(i32_op(m, RAY_ATTRIB_SIZE_TAG));
        props.push(i32_op(m, size));
    }
    if let Some(gs) = e.properties.gs_state {
        props.push(i32_op(m, GS_STATE_TAG));
        let fields = [gs.input_primitive, gs.max_vertex_count, gs.stream_mask, gs.output_topology, gs.instance_count];
        let t = fields.iter().map(|v| i32_op(m, *v)).collect();
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(ds) = e.properties.ds_state {
        props.push(i32_op(m, DS_STATE_TAG));
        let t = vec![i32_op(m, ds.domain), i32_op(m, ds.input_control_points)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(hs) = e.properties.hs_state {
        props.push(i32_op(m, HS_STATE_TAG));
        let fty = m.function(hs.patch_constant_function).ty;
        let ptr = m.types.pointer(fty, 0);
        let mut t = vec![MdOperand::Value(ptr, Value::Func(hs.patch_constant_function))];
        for v in [hs.input_control_points, hs.output_control_points, hs.domain, hs.partitioning, hs.output_primitive] {
            t.push(i32_op(m, v));
        }
        let c = m.const_f32(hs.max_tess_factor);
        let f = m.types.float();
        t.push(MdOperand::Value(f, Value::Const(c)));
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(a) = e.properties.as_state {
        props.push(i32_op(m, AS_STATE_TAG));
        let [x, y, z] = a.num_threads;
        let t = vec![i32_op(m, x), i32_op(m, y), i32_op(m, z)];
        let threads = MdOperand::Node(m.md_node(t));
        let t = vec![threads, i32_op(m, a.payload_size)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(s) = e.properties.ms_state {
        props.push(i32_op(m, MS_STATE_TAG));
        let [x, y, z] = s.num_threads;
        let t = vec![i32_op(m, x), i32_op(m, y), i32_op(m, z)];
        let threads = MdOperand::Node(m.md_node(t));
        let t = vec![threads, i32_op(m, s.max_vertices), i32_op(m, s.max_primitives), i32_op(m, s.topology), i32_op(m, s.payload_size)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some([x, y, z]) = e.properties.num_threads {
        props.push(i32_op(m, NUM_THREADS_TAG));
        let t = vec![i32_op(m, x), i32_op(m, y), i32_op(m, z)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(w) = e.properties.wave_size {
        props.push(i32_op(m, WAVE_SIZE_TAG));
        let t = vec![i32_op(m, w)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    if let Some(space) = e.properties.auto_binding_space {
        props.push(i32_op(m, AUTO_BINDING_SPACE_TAG));
        let t = vec![i32_op(m, space)];
        props.push(MdOperand::Node(m.md_node(t)));
    }
    let props = if props.is_empty() { MdOperand::Null } else { MdOperand::Node(m.md_node(props)) };
    let node_or_null = |n: Option<MdId>| n.map_or(MdOperand::Null, MdOperand::Node);
    let ops = vec![function, MdOperand::String(e.name.clone()), node_or_null(e.signatures), node_or_null(e.resources), props];
    let node = m.md_node(ops);
    m.add_named_md("dx.entryPoints", node);
    node
}
