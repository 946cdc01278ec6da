//! What Vulkan requires of stage variables (SPIR-V output only), with the messages of DXC's
//! SPIR-V back end.

use super::vars::{stage_vars, Dir, StageVar};
use crate::entry::SystemValue;
use crate::tast::{Module, Stage};
use crate::types::{ScalarKind, Type, TypeId};
use hlslc_frontend::{Diagnostic, Diagnostics};
use std::collections::HashSet;

/// Checks the stage variables of every entry point of `m` for SPIR-V:
/// - a vertex shader's `SV_Position` output is a 4-component 32-bit float vector, or a struct
///   that recursively contains only such vectors (Vulkan's `Position` is a `vec4`);
/// - `SV_ClipDistance`/`SV_CullDistance` are 32-bit float scalars, vectors or arrays of them;
/// - `SV_InnerCoverage` is a `uint`;
/// - an integer (or bool) pixel-shader input is not interpolated: `linear`, `centroid`,
///   `noperspective` and `sample` are refused (`nointerpolation` is the only mode; none written
///   means flat);
/// - no function an entry point reaches samples with an implicit level of detail unless its
///   stage has derivatives (pixel, compute, mesh, amplification, node), or loads from a texture
///   with an offset that is not a constant.
pub fn check_vulkan_interface(m: &Module, diags: &mut Diagnostics) {
    let mut reported = HashSet::new();
    for ep in &m.entries {
        for v in stage_vars(m, ep) {
            check_var(m, ep.stage, &v, diags);
        }
        super::body::check_reachable_bodies(m, ep, super::body::Rules::Vulkan, &mut reported, diags);
    }
}

fn check_var(m: &Module, stage: Stage, v: &StageVar, diags: &mut Diagnostics) {
    let err = |diags: &mut Diagnostics, msg: String| diags.push(Diagnostic::error(msg).at(v.span));
    match v.semantic.system() {
        Some(SystemValue::Position) if stage == Stage::Vertex && v.dir == Dir::Out && !is_position(m, v.ty, 0) => err(
            diags,
            "SV_Position must be a 4-component 32-bit float vector or a composite which recursively contains only such a vector".into(),
        ),
        Some(sv @ (SystemValue::ClipDistance | SystemValue::CullDistance)) if !is_distance(m, v.ty) => {
            err(diags, format!("elements for {} variable '{}' must be scalar, vector, or array with float type", sv.name(), v.name));
        }
        Some(SystemValue::InnerCoverage) if !matches!(m.types.get(v.ty), Type::Scalar(ScalarKind::UInt)) => {
            err(diags, "SV_InnerCoverage must be of uint type.".into())
        }
        _ => {}
    }
    let i = v.interpolation;
    if stage == Stage::Pixel && v.dir == Dir::In && !i.nointerpolation && (i.linear || i.centroid || i.noperspective || i.sample) && is_integer(m, v.ty) {
        err(diags, "only nointerpolation mode allowed for integer input parameters in pixel shader".into());
    }
}

/// A float kind stored in 32 bits (min-precision floats are, unless `-enable-16bit-types` made
/// them `half`).
fn is_float32(k: ScalarKind) -> bool {
    matches!(k, ScalarKind::Float | ScalarKind::Min16Float | ScalarKind::Min10Float)
}

fn is_position(m: &Module, ty: TypeId, depth: u32) -> bool {
    match m.types.get(ty) {
        Type::Vector(k, 4) => is_float32(*k),
        Type::Struct(id) if depth < 64 => {
            let def = &m.types.structs[id.0 as usize];
            let mut members = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).peekable();
            members.peek().is_some() && members.all(|t| is_position(m, t, depth + 1))
        }
        _ => false,
    }
}

fn is_distance(m: &Module, ty: TypeId) -> bool {
    match m.types.get(ty) {
        Type::Scalar(k) | Type::Vector(k, _) => is_float32(*k),
        Type::Array { elem, .. } => matches!(m.types.get(*elem), Type::Scalar(k) | Type::Vector(k, _) if is_float32(*k)),
        _ => false,
    }
}

/// An integer or bool scalar or vector (what cannot be interpolated).
fn is_integer(m: &Module, ty: TypeId) -> bool {
    match m.types.get(ty) {
        Type::Scalar(k) | Type::Vector(k, _) => k.is_int() || k.is_bool(),
        Type::Array { elem, .. } => is_integer(m, *elem),
        _ => false,
    }
}
