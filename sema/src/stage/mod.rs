//! Rules of entry points and their stages, checked on the typed AST once the entry points are
//! known ([`crate::tast::Module::entries`]).
//!
//! - [`check_entry_points`]: rules of HLSL itself, for every target, run when code is generated
//!   (as DXC, whose back ends report them; `-fsyntax-only` does not): a semantic used twice among
//!   the inputs or among the outputs, a geometry shader with two input primitive types or two
//!   output stream types, the parameters and attributes of mesh and amplification shaders, and
//!   what the functions an entry point reaches may do in its stage
//!   (`discard` outside pixel shaders, an `Interlocked*` destination that is a static or local
//!   variable).
//!   (DXC's DXIL back end accepts a `DispatchMesh` payload that is not `groupshared`: it copies
//!   it; its SPIR-V back end refuses it, a rule of [`check_vulkan_interface`].)
//! - [`check_vulkan_interface`]: what Vulkan requires of stage variables, for SPIR-V output
//!   (`SV_Position` of a vertex shader, `SV_ClipDistance`/`SV_CullDistance`, `SV_InnerCoverage`,
//!   interpolation of integer pixel-shader inputs), implicit-lod sampling outside the stages
//!   with derivatives, texture loads with a variable offset, and a `DispatchMesh` payload that
//!   is not `groupshared`. DXC's SPIR-V back end reports these with the
//!   messages used here; its DXIL back end has rules of its own.
//!
//! Stage variables are the entry point's parameters and return value, flattened through structs
//! and arrays as [`vars::stage_vars`] describes.

mod body;
mod mesh;
pub mod sigpoint;
pub(crate) mod state;
pub mod vars;
mod vulkan;

pub use vulkan::check_vulkan_interface;

use crate::tast::{EntryPoint, Module, Stage};
use crate::types::Type;
use hlslc_frontend::ast::Modifier;
use hlslc_frontend::{Diagnostic, Diagnostics};
use std::collections::HashSet;
use vars::{stage_vars, Dir};

/// The HLSL rules of every entry point of `m` (see the module documentation); `spirv` picks
/// the wording (and, for mesh shaders' output arrays, the rules) of DXC's SPIR-V back end over
/// its DXIL one.
pub fn check_entry_points(m: &Module, spirv: bool, diags: &mut Diagnostics) {
    let mut reported = HashSet::new();
    for ep in &m.entries {
        check_duplicate_semantics(m, ep, diags);
        match ep.stage {
            Stage::Geometry => check_geometry_primitives(m, ep, diags),
            Stage::Mesh => mesh::check_mesh(m, ep, spirv, diags),
            Stage::Amplification => mesh::check_amplification(m, ep, diags),
            _ => {}
        }
        body::check_reachable_bodies(m, ep, body::Rules::Language, &mut reported, diags);
    }
}

/// Which back end's wording [`check_signature_points`] reports with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Dxil,
    Spirv,
}

/// A semantic its signature point does not allow ([`sigpoint::interpretation`] is `NA`): an
/// entry point compiled for the wrong stage (`-E VSMain -T ps_6_0`, whose `SV_Position` result
/// is no pixel shader output), `SV_Target` out of a vertex shader, `SV_ShadingRate` before shader
/// model 6.4. dxc's DXIL back end reports system values ("invalid semantic 'SV_Position' for ps
/// 6.0"); its SPIR-V back end every semantic ("invalid usage of semantic 'SV_Position' in shader
/// profile ps"), user semantics of mesh and amplification inputs being reported by
/// [`check_entry_points`] already.
pub fn check_signature_points(m: &Module, shader_model: (u32, u32), backend: Backend, diags: &mut Diagnostics) {
    for ep in &m.entries {
        let Some(prefix) = ep.stage.prefix() else { continue };
        for v in stage_vars(m, ep) {
            let Some(point) = v.point else { continue };
            let sv = v.semantic.system();
            if sv.is_none() && (backend == Backend::Dxil || matches!(point, sigpoint::SigPoint::MSIn | sigpoint::SigPoint::ASIn)) {
                continue;
            }
            if sigpoint::interpretation(sv, point, shader_model) != sigpoint::Interpretation::NA {
                continue;
            }
            let (major, minor) = shader_model;
            let msg = match backend {
                Backend::Dxil => format!("invalid semantic '{}' for {prefix} {major}.{minor}", v.semantic),
                Backend::Spirv => format!("invalid usage of semantic '{}' in shader profile {prefix}", v.semantic),
            };
            diags.push(Diagnostic::error(msg).at(v.span));
        }
    }
}

/// DXC: "input semantic 'X' used more than once" for the second and later stage inputs (and
/// the same for outputs) written with the same semantic. Semantics compare as written, as DXC
/// compares them. Outputs of a geometry shader with several streams are not compared (each
/// stream has its own outputs).
fn check_duplicate_semantics(m: &Module, ep: &EntryPoint, diags: &mut Diagnostics) {
    let vars = stage_vars(m, ep);
    let streams = vars.iter().filter_map(|v| v.stream).collect::<HashSet<_>>().len();
    for (dir, word) in [(Dir::In, "input"), (Dir::Out, "output")] {
        if dir == Dir::Out && streams > 1 {
            continue;
        }
        let mut seen = HashSet::new();
        for v in vars.iter().filter(|v| v.dir == dir) {
            if !seen.insert(v.semantic.as_str()) {
                diags.push(Diagnostic::error(format!("{word} semantic '{}' used more than once", v.semantic)).at(v.span));
            }
        }
    }
}

/// A geometry shader takes one input primitive type and writes one kind of stream.
fn check_geometry_primitives(m: &Module, ep: &EntryPoint, diags: &mut Diagnostics) {
    let f = m.func(ep.func);
    let mut inputs: Vec<Modifier> = Vec::new();
    let mut streams = Vec::new();
    for &p in &f.params {
        let v = m.var(p);
        if let Some(prim @ (Modifier::Point | Modifier::Line | Modifier::Triangle | Modifier::LineAdj | Modifier::TriangleAdj)) = v.primitive {
            if !inputs.contains(&prim) {
                inputs.push(prim);
            }
        }
        if let Type::Object { kind, .. } = m.types.get(v.ty) {
            if vars::is_stream(*kind) && !streams.contains(kind) {
                streams.push(*kind);
            }
        }
    }
    if inputs.len() > 1 {
        diags.push(Diagnostic::error("only one input primitive type can be specified in the geometry shader").at(f.span));
    }
    if streams.len() > 1 {
        diags.push(Diagnostic::error("only one output primitive type can be specified in the geometry shader").at(f.span));
    }
}
