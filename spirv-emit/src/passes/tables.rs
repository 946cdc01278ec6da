//! Data for capability and extension inference: which enumerants (built-ins, decorations,
//! execution models and modes, storage classes, image formats) need which capability and
//! extension, and in which target environments an extension is core.

use crate::target::TargetEnv;
use spirv::{BuiltIn, Capability as C, Decoration, ExecutionMode, ExecutionModel, ImageFormat};

/// A requirement: a capability (or none) and an extension (or none).
pub type Need = (Option<C>, Option<&'static str>);

const DRAW: Need = (Some(C::DrawParameters), Some("SPV_KHR_shader_draw_parameters"));

/// Built-ins whose use needs a capability or extension whatever the stage.
pub fn builtin_need(b: BuiltIn) -> Option<Need> {
    use BuiltIn::*;
    Some(match b {
        SampleId | SamplePosition => (Some(C::SampleRateShading), None),
        SubgroupSize | NumSubgroups | SubgroupId | SubgroupLocalInvocationId => (Some(C::GroupNonUniform), None),
        SubgroupEqMask | SubgroupGeMask | SubgroupGtMask | SubgroupLeMask | SubgroupLtMask => {
            (Some(C::GroupNonUniformBallot), None)
        }
        BaseVertex | BaseInstance | DrawIndex => DRAW,
        DeviceIndex => (Some(C::DeviceGroup), Some("SPV_KHR_device_group")),
        FragStencilRefEXT => (Some(C::StencilExportEXT), Some("SPV_EXT_shader_stencil_export")),
        ViewIndex => (Some(C::MultiView), Some("SPV_KHR_multiview")),
        FullyCoveredEXT => (Some(C::FragmentFullyCoveredEXT), Some("SPV_EXT_fragment_fully_covered")),
        ClipDistance => (Some(C::ClipDistance), None),
        CullDistance => (Some(C::CullDistance), None),
        BaryCoordNoPerspAMD
        | BaryCoordNoPerspCentroidAMD
        | BaryCoordNoPerspSampleAMD
        | BaryCoordSmoothAMD
        | BaryCoordSmoothCentroidAMD
        | BaryCoordSmoothSampleAMD
        | BaryCoordPullModelAMD => (None, Some("SPV_AMD_shader_explicit_vertex_parameter")),
        BaryCoordKHR | BaryCoordNoPerspKHR => {
            (Some(C::FragmentBarycentricKHR), Some("SPV_KHR_fragment_shader_barycentric"))
        }
        FragSizeEXT | FragInvocationCountEXT => {
            (Some(C::FragmentDensityEXT), Some("SPV_EXT_fragment_invocation_density"))
        }
        PrimitiveShadingRateKHR | ShadingRateKHR => {
            (Some(C::FragmentShadingRateKHR), Some("SPV_KHR_fragment_shading_rate"))
        }
        _ => return None,
    })
}

/// Built-ins whose capability depends on the stage (`Layer`, `ViewportIndex`, `PrimitiveId`).
pub fn builtin_stage_need(b: BuiltIn, model: ExecutionModel, target: TargetEnv) -> Option<Need> {
    use ExecutionModel as M;
    let pre_raster = matches!(model, M::Vertex | M::TessellationControl | M::TessellationEvaluation);
    let frag_or_mesh = matches!(model, M::Fragment | M::MeshNV | M::MeshEXT);
    match b {
        BuiltIn::PrimitiveId if frag_or_mesh => Some((Some(C::Geometry), None)),
        // SPIR-V 1.5 (Vulkan 1.2) has these in core under their own capabilities.
        BuiltIn::Layer if pre_raster && target >= TargetEnv::Vulkan1_2 => Some((Some(C::ShaderLayer), None)),
        BuiltIn::ViewportIndex if pre_raster && target >= TargetEnv::Vulkan1_2 => {
            Some((Some(C::ShaderViewportIndex), None))
        }
        BuiltIn::Layer | BuiltIn::ViewportIndex if pre_raster => {
            Some((Some(C::ShaderViewportIndexLayerEXT), Some("SPV_EXT_shader_viewport_index_layer")))
        }
        BuiltIn::Layer if frag_or_mesh => Some((Some(C::Geometry), None)),
        BuiltIn::ViewportIndex if frag_or_mesh || model == M::Geometry => Some((Some(C::MultiViewport), None)),
        _ => None,
    }
}

pub fn decoration_need(d: Decoration) -> Option<Need> {
    Some(match d {
        Decoration::Sample => (Some(C::SampleRateShading), None),
        Decoration::NonUniform => (Some(C::ShaderNonUniform), Some("SPV_EXT_descriptor_indexing")),
        Decoration::UserSemantic | Decoration::CounterBuffer => (None, Some("SPV_GOOGLE_hlsl_functionality1")),
        Decoration::UserTypeGOOGLE => (None, Some("SPV_GOOGLE_user_type")),
        Decoration::PerVertexKHR => (Some(C::FragmentBarycentricKHR), Some("SPV_KHR_fragment_shader_barycentric")),
        _ => return None,
    })
}

pub fn execution_model_need(m: ExecutionModel) -> Option<Need> {
    use ExecutionModel as M;
    Some(match m {
        M::Geometry => (Some(C::Geometry), None),
        M::TessellationControl | M::TessellationEvaluation => (Some(C::Tessellation), None),
        M::RayGenerationKHR | M::IntersectionKHR | M::AnyHitKHR | M::ClosestHitKHR | M::MissKHR | M::CallableKHR => {
            (Some(C::RayTracingKHR), Some("SPV_KHR_ray_tracing"))
        }
        M::MeshNV | M::TaskNV => (Some(C::MeshShadingNV), Some("SPV_NV_mesh_shader")),
        M::MeshEXT | M::TaskEXT => (Some(C::MeshShadingEXT), Some("SPV_EXT_mesh_shader")),
        _ => return None,
    })
}

const EARLY_AND_LATE: &str = "SPV_AMD_shader_early_and_late_fragment_tests";

/// Everything an execution mode needs: [`execution_mode_need`], and for the AMD stencil
/// reference modes also their own extension (they need two).
pub fn execution_mode_needs(m: ExecutionMode) -> Vec<Need> {
    use ExecutionMode as E;
    let mut v: Vec<Need> = execution_mode_need(m).into_iter().collect();
    if matches!(
        m,
        E::StencilRefUnchangedFrontAMD
            | E::StencilRefGreaterFrontAMD
            | E::StencilRefLessFrontAMD
            | E::StencilRefUnchangedBackAMD
            | E::StencilRefGreaterBackAMD
            | E::StencilRefLessBackAMD
    ) {
        v.push((None, Some(EARLY_AND_LATE)));
    }
    v
}

pub fn execution_mode_need(m: ExecutionMode) -> Option<Need> {
    use ExecutionMode as E;
    Some(match m {
        E::PostDepthCoverage => (Some(C::SampleMaskPostDepthCoverage), Some("SPV_KHR_post_depth_coverage")),
        E::StencilRefReplacingEXT => (Some(C::StencilExportEXT), Some("SPV_EXT_shader_stencil_export")),
        E::EarlyAndLateFragmentTestsAMD => (None, Some(EARLY_AND_LATE)),
        E::StencilRefUnchangedFrontAMD
        | E::StencilRefGreaterFrontAMD
        | E::StencilRefLessFrontAMD
        | E::StencilRefUnchangedBackAMD
        | E::StencilRefGreaterBackAMD
        | E::StencilRefLessBackAMD => (Some(C::StencilExportEXT), Some("SPV_EXT_shader_stencil_export")),
        E::DenormPreserve => (Some(C::DenormPreserve), Some("SPV_KHR_float_controls")),
        E::DenormFlushToZero => (Some(C::DenormFlushToZero), Some("SPV_KHR_float_controls")),
        E::SignedZeroInfNanPreserve => (Some(C::SignedZeroInfNanPreserve), Some("SPV_KHR_float_controls")),
        E::RoundingModeRTE => (Some(C::RoundingModeRTE), Some("SPV_KHR_float_controls")),
        E::RoundingModeRTZ => (Some(C::RoundingModeRTZ), Some("SPV_KHR_float_controls")),
        E::MaximallyReconvergesKHR => (None, Some("SPV_KHR_maximal_reconvergence")),
        E::QuadDerivativesKHR | E::RequireFullQuadsKHR => (Some(C::QuadControlKHR), Some("SPV_KHR_quad_control")),
        E::PixelInterlockOrderedEXT | E::PixelInterlockUnorderedEXT => {
            (Some(C::FragmentShaderPixelInterlockEXT), Some("SPV_EXT_fragment_shader_interlock"))
        }
        E::SampleInterlockOrderedEXT | E::SampleInterlockUnorderedEXT => {
            (Some(C::FragmentShaderSampleInterlockEXT), Some("SPV_EXT_fragment_shader_interlock"))
        }
        E::ShadingRateInterlockOrderedEXT | E::ShadingRateInterlockUnorderedEXT => {
            (Some(C::FragmentShaderShadingRateInterlockEXT), Some("SPV_EXT_fragment_shader_interlock"))
        }
        _ => return None,
    })
}

/// Storage image formats beyond the base set.
pub fn is_extended_format(f: ImageFormat) -> bool {
    use ImageFormat::*;
    matches!(
        f,
        Rg32f | Rg16f | R11fG11fB10f | R16f | Rgba16 | Rgb10A2 | Rg16 | Rg8 | R16 | R8 | Rgba16Snorm | Rg16Snorm
            | Rg8Snorm | R16Snorm | R8Snorm | Rg32i | Rg16i | Rg8i | R16i | R8i | Rgb10a2ui | Rg32ui | Rg16ui
            | Rg8ui | R16ui | R8ui
    )
}

/// Extensions that a target environment has in its core, so no `OpExtension` is emitted there (the
/// list DXC uses). Each entry: the extension and the first target where it is core.
const CORE_IN: &[(&str, TargetEnv)] = &[
    ("SPV_KHR_16bit_storage", TargetEnv::Vulkan1_1),
    ("SPV_KHR_device_group", TargetEnv::Vulkan1_1),
    ("SPV_KHR_multiview", TargetEnv::Vulkan1_1),
    ("SPV_KHR_shader_draw_parameters", TargetEnv::Vulkan1_1),
    ("SPV_KHR_8bit_storage", TargetEnv::Vulkan1_2),
    ("SPV_KHR_non_semantic_info", TargetEnv::Vulkan1_3),
];

pub fn extension_required(ext: &str, target: TargetEnv) -> bool {
    !CORE_IN.iter().any(|&(e, t)| e == ext && target >= t && target != TargetEnv::Universal1_5)
}

/// Capabilities that `Shader` declares implicitly; never emitted on their own.
pub fn implied_by_shader(c: C) -> bool {
    matches!(c, C::Shader | C::Matrix)
}

/// Among the grammar's alternative capabilities for an instruction, those a Vulkan shader never
/// picks (kernel-only, vendor variants of a KHR/core capability).
pub fn never_preferred(c: C) -> bool {
    matches!(c, C::Kernel | C::Addresses | C::Linkage | C::RayTracingNV | C::GroupNonUniformPartitionedNV)
}
