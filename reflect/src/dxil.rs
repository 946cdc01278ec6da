//! Reflection of a DXIL module: read from the lowered module's metadata (`dx.resources`,
//! `dx.entryPoints` signatures and properties) through the same reader the container parts use,
//! so that the reflection, the `PSV0`/`ISG1`/`OSG1` parts and the bitcode agree.

use crate::{BaseType, EntryPoint, Geometry, Reflection, Resource, ResourceKind, StageVariable, Target, Tessellation, Type};
use hlslc_dxil::container::info::{module_info, ResourceInfo, SigElement};
use hlslc_dxil::ir::Module;

/// Reflects a lowered DXIL module. Fails when its metadata does not say what reflection needs.
pub fn from_dxil(m: &Module) -> Result<Reflection, crate::ReflectError> {
    let info = module_info(m).map_err(|e| crate::ReflectError(e.0))?;
    let mut r = Reflection::empty(Target::Dxil);
    let prefix = hlslc_dxil::ops::profile_prefix(info.kind);
    let stage = match prefix {
        "vs" => "vertex",
        "ps" => "pixel",
        "gs" => "geometry",
        "hs" => "hull",
        "ds" => "domain",
        "cs" => "compute",
        "ms" => "mesh",
        "as" => "amplification",
        other => other,
    };
    let mut e = EntryPoint { name: info.entry_name.clone(), stage: stage.into(), wave_size: info.wave_size, ..EntryPoint::default() };
    if matches!(stage, "compute" | "mesh" | "amplification") {
        e.workgroup_size = Some(info.num_threads);
    }
    if let Some([input, max_vertex_count, stream_mask, topology, instances]) = info.gs_state {
        e.geometry = Some(Geometry {
            input_primitive: pick(input, &[(1, "point"), (2, "line"), (3, "triangle"), (6, "lineadj"), (7, "triangleadj")]),
            output_topology: pick(topology, &[(1, "point_list"), (3, "line_strip"), (5, "triangle_strip")]),
            max_vertex_count,
            instances,
            stream_mask: Some(stream_mask),
        });
    }
    let domains: &[(u32, &str)] = &[(1, "isoline"), (2, "tri"), (3, "quad")];
    if let Some([inputs, outputs, domain, partitioning, primitive]) = info.hs_state {
        e.tessellation = Some(Tessellation {
            domain: pick(domain, domains),
            partitioning: pick(partitioning, &[(1, "integer"), (2, "pow2"), (3, "fractional_odd"), (4, "fractional_even")]),
            output_primitive: pick(primitive, &[(1, "point"), (2, "line"), (3, "triangle_cw"), (4, "triangle_ccw")]),
            input_control_points: Some(inputs),
            output_control_points: Some(outputs),
            max_tess_factor: None,
        });
    }
    if let Some([domain, inputs]) = info.ds_state {
        e.tessellation = Some(Tessellation { domain: pick(domain, domains), input_control_points: Some(inputs), ..Tessellation::default() });
    }
    e.inputs = info.sigs[0].iter().map(element).collect();
    e.outputs = info.sigs[1].iter().map(element).collect();
    e.patch_constants = info.sigs[2].iter().map(element).collect();
    r.entry_points.push(e);
    r.resources = info.resources.iter().map(resource).collect();
    Ok(r)
}

fn pick(v: u32, table: &[(u32, &str)]) -> Option<String> {
    table.iter().find(|(k, _)| *k == v).map(|(_, s)| s.to_string())
}

/// `DXIL::ComponentType` as a scalar kind.
fn component(t: u8) -> BaseType {
    match t {
        1 => BaseType::Bool,
        2 => BaseType::Int16,
        3 => BaseType::Uint16,
        4 => BaseType::Int,
        5 => BaseType::Uint,
        6 => BaseType::Int64,
        7 => BaseType::Uint64,
        8 | 11 | 12 => BaseType::Half,
        9 | 13 | 14 => BaseType::Float,
        10 | 15 | 16 => BaseType::Double,
        _ => BaseType::Unknown,
    }
}

/// `DXIL::SemanticKind` spelled as its semantic.
const SYSTEM_VALUES: &[&str] = &[
    "arbitrary",
    "SV_VertexID",
    "SV_InstanceID",
    "SV_Position",
    "SV_RenderTargetArrayIndex",
    "SV_ViewportArrayIndex",
    "SV_ClipDistance",
    "SV_CullDistance",
    "SV_OutputControlPointID",
    "SV_DomainLocation",
    "SV_PrimitiveID",
    "SV_GSInstanceID",
    "SV_SampleIndex",
    "SV_IsFrontFace",
    "SV_Coverage",
    "SV_InnerCoverage",
    "SV_Target",
    "SV_Depth",
    "SV_DepthLessEqual",
    "SV_DepthGreaterEqual",
    "SV_StencilRef",
    "SV_DispatchThreadID",
    "SV_GroupID",
    "SV_GroupIndex",
    "SV_GroupThreadID",
    "SV_TessFactor",
    "SV_InsideTessFactor",
    "SV_ViewID",
    "SV_Barycentrics",
    "SV_ShadingRate",
    "SV_CullPrimitive",
];

fn element(e: &SigElement) -> StageVariable {
    let mut ty = Type::vector(component(e.component_type), u32::from(e.cols));
    if e.rows > 1 {
        ty.array = vec![e.rows];
    }
    let interpolation: &[&str] = match e.interpolation {
        1 => &["flat"],
        3 => &["centroid"],
        4 => &["noperspective"],
        5 => &["noperspective", "centroid"],
        6 => &["sample"],
        7 => &["noperspective", "sample"],
        _ => &[],
    };
    StageVariable {
        name: e.semantic.clone(),
        semantic: e.semantic.clone(),
        semantic_index: e.indices.first().copied().unwrap_or(0),
        system_value: Some(SYSTEM_VALUES.get(usize::from(e.kind)).map_or_else(|| format!("kind {}", e.kind), |s| s.to_string())),
        register: e.start_row,
        mask: e.start_row.map(|_| (((1u16 << e.cols) - 1) << e.start_col) as u8),
        rows: Some(e.rows),
        ty,
        interpolation: interpolation.iter().map(|s| s.to_string()).collect(),
        stream: (e.stream != 0).then_some(e.stream),
        ..StageVariable::default()
    }
}

fn resource(x: &ResourceInfo) -> Resource {
    let dims: &[(u32, &str)] = &[
        (1, "1d"),
        (2, "2d"),
        (3, "2d_ms"),
        (4, "3d"),
        (5, "cube"),
        (6, "1d_array"),
        (7, "2d_array"),
        (8, "2d_ms_array"),
        (9, "cube_array"),
        (10, "buffer"),
        (17, "2d"),
        (18, "2d_array"),
    ];
    let uav = x.class == 1;
    let kind = match (x.class, x.kind) {
        (2, _) => ResourceKind::ConstantBuffer,
        (3, _) => ResourceKind::Sampler,
        (_, 1..=9) if uav => ResourceKind::RwTexture,
        (_, 1..=9) => ResourceKind::Texture,
        (_, 10) if uav => ResourceKind::RwTypedBuffer,
        (_, 10) => ResourceKind::TypedBuffer,
        (_, 11) if uav => ResourceKind::RwByteAddressBuffer,
        (_, 11) => ResourceKind::ByteAddressBuffer,
        (_, 12) if uav => ResourceKind::RwStructuredBuffer,
        (_, 12) => ResourceKind::StructuredBuffer,
        (_, 15) => ResourceKind::TextureBuffer,
        (_, 16) => ResourceKind::AccelerationStructure,
        (_, 17 | 18) => ResourceKind::FeedbackTexture,
        _ => ResourceKind::StorageBuffer,
    };
    let unbounded = x.range_size == u32::MAX;
    Resource {
        name: x.name.clone(),
        kind,
        set: None,
        binding: None,
        space: Some(x.space),
        register: Some(x.lower_bound),
        range: Some((!unbounded).then_some(x.range_size)),
        array: if unbounded {
            vec![0]
        } else if x.range_size > 1 {
            vec![x.range_size]
        } else {
            Vec::new()
        },
        dimension: if matches!(kind, ResourceKind::Texture | ResourceKind::RwTexture | ResourceKind::FeedbackTexture | ResourceKind::TypedBuffer | ResourceKind::RwTypedBuffer) {
            pick(x.kind, dims)
        } else {
            None
        },
        element_type: None,
        image_format: None,
        access: if uav { "read_write" } else { "read" }.into(),
        counter_buffer: None,
        block: None,
        size: None,
        used: true,
    }
}
