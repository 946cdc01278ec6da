//! The attribute table: every attribute sema accepts, where it applies, and what each emitter
//! does with it.
//!
//! Nothing parsed is dropped: an attribute in this table is, for each target, either honored by
//! that emitter (and `Honored::test` names the test in `driver/tests/attribute_effects.rs` that
//! compiles a shader with and without it and checks the difference), irrelevant to that target
//! (with the reason), or refused by the emitter with `attribute 'X' is not supported ...`.
//! An attribute not in the table gets dxc's warning `unknown attribute 'X' ignored`. `vk::`
//! attributes apply to SPIR-V only: when compiling to DXIL, dxc ignores them with the warning
//! `'X' attribute ignored`, and so does sema.
//!
//! Sema records every use ([`crate::tast::AttrUse`]) so that each emitter checks the table once,
//! before lowering (`refused_attribute`).

use crate::tast::{AttrSite, AttrUse, Module};

/// What an emitter does with an attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The emitter implements it; `test` is the effect test.
    Honored { test: &'static str },
    /// Honored where it is written at one of `sites`, refused elsewhere.
    HonoredAt { sites: &'static [AttrSite], test: &'static str },
    /// Has no meaning for this target; the reason says why.
    Irrelevant(&'static str),
    /// The emitter refuses a shader that uses it.
    Refused,
}

/// The two emitters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Spirv,
    Dxil,
}

/// One attribute.
#[derive(Copy, Clone, Debug)]
pub struct AttrInfo {
    /// `Some("vk")` for `[[vk::X]]`, `None` for `[X]`.
    pub namespace: Option<&'static str>,
    pub name: &'static str,
    /// Where it may be written (documentation).
    pub applies_to: &'static str,
    pub spirv: Status,
    pub dxil: Status,
}

impl AttrInfo {
    pub fn status(&self, target: Target) -> Status {
        match target {
            Target::Spirv => self.spirv,
            Target::Dxil => self.dxil,
        }
    }
    /// `vk::binding` or `numthreads`.
    pub fn full_name(&self) -> String {
        match self.namespace {
            Some(ns) => format!("{ns}::{}", self.name),
            None => self.name.to_string(),
        }
    }
}

use AttrSite as S;
use Status::*;

const VK_ONLY: Status = Irrelevant("vk:: attributes describe Vulkan; dxc ignores them when compiling to DXIL, with the warning \"'X' attribute ignored\", and so does hlslc");
const HINT_SPIRV: Status = Irrelevant("an fxc-era optimization hint with no SPIR-V counterpart; dxc -spirv emits nothing for it");
const DXIL_HINT: Status = Irrelevant("a control-flow hint for the optimizer; hlslc's DXIL is not optimized, so the code is the same with or without it");
const NODE: Status = Refused;

/// Where `vk::ext_decorate*` is honored (inline SPIR-V): on a struct field it would be a member
/// decoration, which the SPIR-V back end does not write yet. A local declaration carries its
/// attributes as a statement; the back end refuses them on a statement that declares nothing.
const EXT_DECORATE_SITES: &[AttrSite] = &[S::GlobalVar, S::LocalVar, S::Param, S::Function, S::Stmt];
/// Where `vk::ext_capability`/`vk::ext_extension` are honored: on a typedef of an inline SPIR-V
/// type or on a struct field they apply when the type (the struct) is lowered; on another
/// typedef they would apply where the typedef's name is used, which sema does not track.
const EXT_REQUIREMENT_SITES: &[AttrSite] = &[S::GlobalVar, S::LocalVar, S::Param, S::Function, S::Stmt, S::InlineTypedef, S::Field];

/// Every attribute sema accepts. Plain attribute names compare case-insensitively (`[NumThreads]`),
/// `vk::` names exactly.
pub static ATTRIBUTES: &[AttrInfo] = &[
    // Entry-point attributes.
    AttrInfo { namespace: None, name: "numthreads", applies_to: "compute, mesh, amplification and node entry points", spirv: Honored { test: "numthreads_sets_the_group_size" }, dxil: Honored { test: "numthreads_sets_the_group_size" } },
    AttrInfo { namespace: None, name: "shader", applies_to: "entry points (the stage of a library entry)", spirv: Honored { test: "shader_makes_a_library_entry_point" }, dxil: Irrelevant("on a stage target it only has to agree with the profile, which sema checks; on a library target sema makes the function an entry of the library (driver tests/dxil_library.rs)") },
    AttrInfo { namespace: None, name: "domain", applies_to: "hull and domain entry points", spirv: Honored { test: "domain_sets_the_tessellation_domain" }, dxil: Honored { test: "domain_sets_the_tessellation_domain" } },
    AttrInfo { namespace: None, name: "partitioning", applies_to: "hull entry points", spirv: Honored { test: "partitioning_sets_the_spacing" }, dxil: Honored { test: "partitioning_sets_the_spacing" } },
    AttrInfo { namespace: None, name: "outputtopology", applies_to: "hull and mesh entry points", spirv: Honored { test: "outputtopology_sets_the_winding" }, dxil: Honored { test: "outputtopology_sets_the_winding" } },
    AttrInfo { namespace: None, name: "outputcontrolpoints", applies_to: "hull entry points", spirv: Honored { test: "outputcontrolpoints_sets_the_patch_size" }, dxil: Honored { test: "outputcontrolpoints_sets_the_patch_size" } },
    AttrInfo { namespace: None, name: "patchconstantfunc", applies_to: "hull entry points", spirv: Honored { test: "patchconstantfunc_names_the_patch_function" }, dxil: Honored { test: "patchconstantfunc_names_the_patch_function" } },
    AttrInfo { namespace: None, name: "maxtessfactor", applies_to: "hull entry points", spirv: Irrelevant("Vulkan has no maximum tessellation factor; dxc -spirv drops it"), dxil: Honored { test: "maxtessfactor_sets_the_hull_state" } },
    AttrInfo { namespace: None, name: "maxvertexcount", applies_to: "geometry entry points", spirv: Honored { test: "maxvertexcount_sets_the_output_size" }, dxil: Honored { test: "maxvertexcount_sets_the_output_size" } },
    AttrInfo { namespace: None, name: "instance", applies_to: "geometry entry points", spirv: Honored { test: "instance_sets_the_invocations" }, dxil: Honored { test: "instance_sets_the_invocations" } },
    AttrInfo { namespace: None, name: "earlydepthstencil", applies_to: "pixel entry points", spirv: Honored { test: "earlydepthstencil_forces_early_tests" }, dxil: Honored { test: "earlydepthstencil_forces_early_tests" } },
    AttrInfo { namespace: None, name: "clipplanes", applies_to: "vertex entry points (compatibility clip planes)", spirv: Refused, dxil: Refused },
    AttrInfo { namespace: None, name: "RootSignature", applies_to: "entry points", spirv: Irrelevant("root signatures are a Direct3D 12 concept; dxc -spirv ignores them (Vulkan has no root signature: bindings come from the descriptor set layouts)"), dxil: Honored { test: "rootsignature_adds_the_rts0_part" } },
    AttrInfo { namespace: None, name: "WaveSize", applies_to: "compute and node entry points", spirv: Irrelevant("Vulkan cannot require a subgroup size in SPIR-V (the API sets it, VK_EXT_subgroup_size_control); dxc warns 'Wave size is not supported by Vulkan SPIR-V' and so does hlslc"), dxil: Honored { test: "wavesize_sets_the_entry_property" } },
    AttrInfo { namespace: None, name: "raypayload", applies_to: "ray payload structs", spirv: Irrelevant("payload access qualifiers are DXIL metadata (lib_6_6+); SPIR-V has no counterpart and dxc -spirv ignores [raypayload]: the payload is a RayPayloadKHR variable either way"), dxil: Refused },
    AttrInfo { namespace: None, name: "noinline", applies_to: "functions", spirv: Honored { test: "noinline_keeps_the_function" }, dxil: Honored { test: "noinline_keeps_the_function" } },
    AttrInfo { namespace: None, name: "experimental", applies_to: "functions", spirv: Refused, dxil: Refused },
    // Work-graph (node) attributes: node shaders are not supported by either back end.
    AttrInfo { namespace: None, name: "NodeLaunch", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeIsProgramEntry", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeID", applies_to: "node entry points and node outputs", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeLocalRootArgumentsTableIndex", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeShareInputOf", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeDispatchGrid", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeMaxDispatchGrid", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeMaxRecursionDepth", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeMaxInputRecordsPerGraphEntryRecord", applies_to: "node entry points", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "MaxRecords", applies_to: "node outputs", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "MaxRecordsSharedWith", applies_to: "node outputs", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeArraySize", applies_to: "node outputs", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "AllowSparseNodes", applies_to: "node outputs", spirv: NODE, dxil: NODE },
    AttrInfo { namespace: None, name: "NodeTrackRWInputSharing", applies_to: "node record structs", spirv: NODE, dxil: NODE },
    // Statement attributes.
    AttrInfo { namespace: None, name: "unroll", applies_to: "loops", spirv: Honored { test: "unroll_and_loop_set_the_loop_control" }, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "loop", applies_to: "loops", spirv: Honored { test: "unroll_and_loop_set_the_loop_control" }, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "fastopt", applies_to: "loops", spirv: Honored { test: "unroll_and_loop_set_the_loop_control" }, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "allow_uav_condition", applies_to: "loops", spirv: HINT_SPIRV, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "branch", applies_to: "if and switch statements", spirv: Honored { test: "branch_and_flatten_set_the_selection_control" }, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "flatten", applies_to: "if and switch statements", spirv: Honored { test: "branch_and_flatten_set_the_selection_control" }, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "forcecase", applies_to: "switch statements", spirv: HINT_SPIRV, dxil: DXIL_HINT },
    AttrInfo { namespace: None, name: "call", applies_to: "switch statements", spirv: HINT_SPIRV, dxil: DXIL_HINT },
    // C++11 attributes clang knows.
    AttrInfo { namespace: None, name: "maybe_unused", applies_to: "parameters (clang warns elsewhere)", spirv: Irrelevant("a warning control, no code"), dxil: Irrelevant("a warning control, no code") },
    AttrInfo { namespace: None, name: "fallthrough", applies_to: "switch cases", spirv: Irrelevant("a warning control, no code"), dxil: Irrelevant("a warning control, no code") },
    AttrInfo { namespace: None, name: "deprecated", applies_to: "declarations", spirv: Irrelevant("a warning control, no code"), dxil: Irrelevant("a warning control, no code") },
    AttrInfo { namespace: None, name: "nodiscard", applies_to: "functions", spirv: Irrelevant("a warning control, no code"), dxil: Irrelevant("a warning control, no code") },
    // Vulkan attributes (SPIR-V.rst, "Vulkan specific attributes").
    AttrInfo { namespace: Some("vk"), name: "binding", applies_to: "global variables, cbuffers and tbuffers", spirv: Honored { test: "vk_binding_sets_binding_and_set" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "counter_binding", applies_to: "RW/Append/Consume structured buffers", spirv: Honored { test: "vk_counter_binding_binds_the_counter" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "location", applies_to: "entry parameters and returns, struct fields", spirv: HonoredAt { sites: &[S::Param, S::Field, S::Function], test: "vk_location_sets_the_location" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "push_constant", applies_to: "global variables of struct type or ConstantBuffer<T>", spirv: Honored { test: "vk_push_constant_makes_a_push_constant_block" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "constant_id", applies_to: "global constants of bool, integer or float type", spirv: Honored { test: "vk_constant_id_makes_a_specialization_constant" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "aliased_pointer", applies_to: "variables and parameters of vk::BufferPointer type", spirv: Honored { test: "aliased_pointer_decorates_the_variable" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "offset", applies_to: "struct fields", spirv: HonoredAt { sites: &[S::Field], test: "vk_offset_pins_the_member_offset" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "input_attachment_index", applies_to: "SubpassInput objects", spirv: Honored { test: "vk_input_attachment_index_decorates_the_subpass_input" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "builtin", applies_to: "entry parameters and returns, struct fields", spirv: HonoredAt { sites: &[S::Param, S::Field, S::Function], test: "vk_builtin_makes_a_builtin_stage_variable" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "index", applies_to: "pixel shader outputs (dual-source blending)", spirv: HonoredAt { sites: &[S::Param, S::Field, S::Function], test: "vk_index_sets_the_dual_source_index" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "post_depth_coverage", applies_to: "pixel entry points", spirv: Honored { test: "vk_post_depth_coverage_sets_the_mode" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "early_and_late_tests", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "depth_unchanged", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_unchanged_front", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_greater_equal_front", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_less_equal_front", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_unchanged_back", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_greater_equal_back", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "stencil_ref_less_equal_back", applies_to: "pixel entry points", spirv: Honored { test: "vk_early_and_late_tests_and_its_companions_set_the_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "image_format", applies_to: "storage images and texel buffers", spirv: Honored { test: "vk_image_format_sets_the_image_format" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "combinedImageSampler", applies_to: "a texture and a sampler sharing one binding", spirv: Honored { test: "vk_combined_image_sampler_makes_one_sampled_image" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "shader_record_nv", applies_to: "cbuffers and ConstantBuffers", spirv: Honored { test: "vk_shader_record_makes_a_shader_record_buffer" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "shader_record_ext", applies_to: "cbuffers and ConstantBuffers", spirv: Honored { test: "vk_shader_record_makes_a_shader_record_buffer" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_instruction", applies_to: "function declarations (inline SPIR-V)", spirv: HonoredAt { sites: &[S::Function], test: "vk_ext_instruction_emits_the_instruction" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_reference", applies_to: "parameters of inline SPIR-V functions", spirv: HonoredAt { sites: &[S::Param], test: "vk_ext_instruction_emits_the_instruction" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_literal", applies_to: "parameters of inline SPIR-V functions", spirv: HonoredAt { sites: &[S::Param], test: "vk_ext_instruction_emits_the_instruction" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_decorate", applies_to: "variables, parameters, fields, functions (inline SPIR-V)", spirv: HonoredAt { sites: EXT_DECORATE_SITES, test: "vk_ext_decorate_decorates_the_declaration" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_decorate_id", applies_to: "variables, parameters, fields (inline SPIR-V; on a function the SPIR-V back end gives dxc's error: no OpDecorateId/OpDecorateString of a function)", spirv: HonoredAt { sites: EXT_DECORATE_SITES, test: "vk_ext_decorate_decorates_the_declaration" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_decorate_string", applies_to: "variables, parameters, fields (inline SPIR-V; on a function the SPIR-V back end gives dxc's error: no OpDecorateId/OpDecorateString of a function)", spirv: HonoredAt { sites: EXT_DECORATE_SITES, test: "vk_ext_decorate_decorates_the_declaration" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_storage_class", applies_to: "variables and parameters (inline SPIR-V)", spirv: HonoredAt { sites: &[S::GlobalVar, S::LocalVar, S::Stmt], test: "vk_ext_storage_class_sets_the_storage_class" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_capability", applies_to: "functions, variables, typedefs (inline SPIR-V)", spirv: HonoredAt { sites: EXT_REQUIREMENT_SITES, test: "vk_ext_capability_and_extension_are_declared" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_extension", applies_to: "functions, variables, typedefs (inline SPIR-V)", spirv: HonoredAt { sites: EXT_REQUIREMENT_SITES, test: "vk_ext_capability_and_extension_are_declared" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "spvexecutionmode", applies_to: "entry points (inline SPIR-V execution modes)", spirv: HonoredAt { sites: &[S::Function], test: "vk_spvexecutionmode_adds_execution_modes" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_type_def", applies_to: "functions defining an inline SPIR-V type", spirv: Honored { test: "vk_ext_type_def_defines_an_inline_type" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_builtin_input", applies_to: "static globals (inline SPIR-V built-in inputs)", spirv: HonoredAt { sites: &[S::GlobalVar], test: "vk_ext_builtin_makes_a_builtin_variable" }, dxil: VK_ONLY },
    AttrInfo { namespace: Some("vk"), name: "ext_builtin_output", applies_to: "static globals (inline SPIR-V built-in outputs)", spirv: HonoredAt { sites: &[S::GlobalVar], test: "vk_ext_builtin_makes_a_builtin_variable" }, dxil: VK_ONLY },
];

/// The table entry of an attribute written `[ns::name]`.
pub fn lookup(namespace: Option<&str>, name: &str) -> Option<&'static AttrInfo> {
    ATTRIBUTES.iter().find(|a| match (a.namespace, namespace) {
        (None, None) => a.name.eq_ignore_ascii_case(name),
        (Some(x), Some(y)) => x == y && a.name == name,
        _ => false,
    })
}

/// The first attribute use that `target`'s emitter refuses, with the error to report:
/// `attribute 'vk::offset' is not supported by the SPIR-V back end`.
pub fn refused_attribute(m: &Module, target: Target) -> Option<(&AttrUse, String)> {
    let backend = match target {
        Target::Spirv => "SPIR-V",
        Target::Dxil => "DXIL",
    };
    // Attributes of functions that are neither entry points nor called change nothing.
    let mut live: Vec<crate::tast::FuncId> = m.entries.iter().map(|e| e.func).collect();
    live.extend(m.exprs.iter().filter_map(|e| match e.kind {
        crate::tast::ExprKind::Call { func, .. } => Some(func),
        _ => None,
    }));
    let dead = |u: &AttrUse| u.owner.is_some_and(|f| !live.contains(&f));
    m.attr_uses.iter().find_map(|u| {
        let info = lookup(u.namespace.as_deref(), &u.name)?;
        if dead(u) {
            return None;
        }
        let where_ = match info.status(target) {
            Refused => String::new(),
            HonoredAt { sites, .. } if !sites.contains(&u.site) => format!(" on {}", u.site.describe()),
            _ => return None,
        };
        Some((u, format!("attribute '{}' is not supported{where_} by the {backend} back end", info.full_name())))
    })
}
