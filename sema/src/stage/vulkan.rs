//! What Vulkan requires of stage variables (SPIR-V output only), with the messages of DXC's
//! SPIR-V back end.

use super::vars::{stage_vars, Dir, StageVar};
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
    let (name, _) = split_index(&v.semantic);
    let upper = name.to_ascii_uppercase();
    let err = |diags: &mut Diagnostics, msg: String| diags.push(Diagnostic::error(msg).at(v.span));
    match upper.as_str() {
        "SV_POSITION" if stage == Stage::Vertex && v.dir == Dir::Out && !is_position(m, v.ty, 0) => err(
            diags,
            "SV_Position must be a 4-component 32-bit float vector or a composite which recursively contains only such a vector".into(),
        ),
        "SV_CLIPDISTANCE" | "SV_CULLDISTANCE" if !is_distance(m, v.ty) => {
            let which = if upper == "SV_CLIPDISTANCE" { "SV_ClipDistance" } else { "SV_CullDistance" };
            err(diags, format!("elements for {which} variable '{}' must be scalar, vector, or array with float type", v.name));
        }
        "SV_INNERCOVERAGE" if !matches!(m.types.get(v.ty), Type::Scalar(ScalarKind::UInt)) => err(diags, "SV_InnerCoverage must be of uint type.".into()),
        _ => {}
    }
    let i = v.interpolation;
    if stage == Stage::Pixel && v.dir == Dir::In && !i.nointerpolation && (i.linear || i.centroid || i.noperspective || i.sample) && is_integer(m, v.ty) {
        err(diags, "only nointerpolation mode allowed for integer input parameters in pixel shader".into());
    }
}

/// `TEXCOORD3` → (`TEXCOORD`, 3); no trailing digits → index 0.
pub(crate) fn split_index(semantic: &str) -> (&str, u32) {
    let digits = semantic.len() - semantic.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (name, index) = semantic.split_at(semantic.len() - digits);
    (name, index.parse().unwrap_or(0))
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
