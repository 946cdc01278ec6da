//! Rules of mesh and amplification shader entry points, with DXC's messages.

use crate::tast::{AttrArg, EntryPoint, Module, ParamDir, Storage, Var};
use crate::types::{ScalarKind, Type, TypeId};
use hlslc_frontend::ast::Modifier;
use hlslc_frontend::{Diagnostic, Diagnostics, Span};

/// A mesh shader:
/// - has `[outputtopology("point" | "line" | "triangle")]`;
/// - declares exactly one `out vertices` and one `out indices` parameter (for SPIR-V; DXIL
///   allows none), at most one
///   `out primitives` and one `in payload`; vertices, indices and primitives are 1D arrays;
///   the indices are `uint` (points), `uint2` (lines) or `uint3` (triangles); the primitives
///   array is as long as the indices array;
/// - (like an amplification shader) takes no other parameter with a user-defined semantic: its
///   other inputs are system values.
///
/// DXC's two back ends word these differently and check the output arrays differently:
/// SPIR-V ([`check_mesh_arrays_spirv`]) wants `uint` indices for points; DXIL
/// ([`check_mesh_arrays_dxil`], as DXC's CGMSHLSLRuntime) wants a `uint2`/`uint3` vector
/// (any for points), at most 256 vertices and 256 primitives.
pub(super) fn check_mesh(m: &Module, ep: &EntryPoint, spirv: bool, diags: &mut Diagnostics) {
    let f = m.func(ep.func);
    let err = |diags: &mut Diagnostics, span, msg: String| diags.push(Diagnostic::error(msg).at(span));
    let topology = f.attrs.iter().find(|a| a.name.eq_ignore_ascii_case("outputtopology")).and_then(|a| match a.args.first() {
        Some(AttrArg::Str(s)) if matches!(s.as_str(), "point" | "line" | "triangle") => Some(s.as_str()),
        _ => None,
    });
    if topology.is_none() {
        err(diags, f.span, "mesh entry point must have a valid outputtopology attribute".into());
    }
    let mut seen: Vec<Modifier> = Vec::new();
    let mut arrays: Vec<(Modifier, &Var)> = Vec::new();
    for &p in &f.params {
        let v = m.var(p);
        let Some(kind @ (Modifier::Vertices | Modifier::Indices | Modifier::Primitives | Modifier::Payload)) = v.primitive else {
            check_system_value_only(v, "ms", diags);
            continue;
        };
        let word = kind.keyword();
        if seen.contains(&kind) {
            let msg = if spirv {
                format!("only one object with '{word}' modifier is allowed")
            } else {
                format!("multiple {} {word} parameters not allowed", if kind == Modifier::Payload { "in" } else { "out" })
            };
            err(diags, v.name_span, msg);
            continue;
        }
        seen.push(kind);
        let dir = match v.storage {
            Storage::Param(d) => d,
            _ => ParamDir::In,
        };
        if kind == Modifier::Payload {
            if dir != ParamDir::In {
                err(diags, v.span, format!("'{word}' object must be an in parameter"));
            }
            continue;
        }
        if dir != ParamDir::Out {
            err(diags, v.span, format!("'{word}' object must be an out parameter"));
            continue;
        }
        arrays.push((kind, v));
    }
    // DXC's DXIL back end compiles a mesh shader without outputs (convergent_cs.hlsl).
    if spirv && !seen.contains(&Modifier::Vertices) {
        err(diags, f.span, "expected vertices object declaration".into());
    }
    if spirv && !seen.contains(&Modifier::Indices) {
        err(diags, f.span, "expected indices object declaration".into());
    }
    if spirv {
        check_mesh_arrays_spirv(m, topology, &arrays, f.span, diags);
    } else {
        check_mesh_arrays_dxil(m, topology, &arrays, diags);
    }
}

/// The element type and length (`None`: unsized) of a 1D array (`None` for anything else).
fn array_1d(m: &Module, v: &Var) -> Option<(TypeId, Option<u32>)> {
    match m.types.get(v.ty) {
        Type::Array { elem, len } if !matches!(m.types.get(*elem), Type::Array { .. }) => Some((*elem, *len)),
        _ => None,
    }
}

/// DXC's SPIR-V back end: 1D arrays, indices of `uint`/`uint2`/`uint3` by topology, as many
/// primitives as indices (reported at the function).
fn check_mesh_arrays_spirv(m: &Module, topology: Option<&str>, arrays: &[(Modifier, &Var)], func_span: Span, diags: &mut Diagnostics) {
    let mut index_len = None;
    let mut prims_len = None;
    for &(kind, v) in arrays {
        let Some((elem, len)) = array_1d(m, v) else {
            diags.push(Diagnostic::error("expected 1D array of indices/vertices/primitives object").at(v.name_span));
            continue;
        };
        match kind {
            Modifier::Indices => {
                index_len = Some(len);
                let want = match topology {
                    Some("point") => Some(1),
                    Some("line") => Some(2),
                    Some("triangle") => Some(3),
                    _ => None,
                };
                let got = match m.types.get(elem) {
                    Type::Scalar(ScalarKind::UInt) => Some(1),
                    Type::Vector(ScalarKind::UInt, n) => Some(*n),
                    _ => None,
                };
                if let Some(want) = want {
                    if got != Some(want) {
                        let ty = if want == 1 { "uint".to_string() } else { format!("uint{want}") };
                        diags.push(Diagnostic::error(format!("expected 1D array of {ty} type")).at(v.name_span));
                    }
                }
            }
            Modifier::Primitives => prims_len = Some(len),
            _ => {}
        }
    }
    if let (Some(indices), Some(prims)) = (index_len, prims_len) {
        if indices != prims {
            diags.push(Diagnostic::error("array size of primitives object should match 'indices' object").at(func_span));
        }
    }
}

/// At most this many vertices and primitives (DXC's kMaxMSOutputVertexCount and
/// kMaxMSOutputPrimitiveCount).
const MAX_MESH_OUTPUTS: u32 = 256;

/// DXC's DXIL back end, in parameter order, one error per parameter: a constant-length array,
/// at most 256 elements, the primitives as many as the indices ("max primitive count
/// mismatch"), indices of `uint2` (line) or `uint3` (triangle) vectors.
fn check_mesh_arrays_dxil(m: &Module, topology: Option<&str>, arrays: &[(Modifier, &Var)], diags: &mut Diagnostics) {
    let mut primitive_count = None;
    for &(kind, v) in arrays {
        let mut err = |msg: String| diags.push(Diagnostic::error(msg).at(v.name_span));
        let word = kind.keyword();
        let Some((elem, Some(len))) = array_1d(m, v) else {
            err(format!("{word} output is not an constant-length array"));
            continue;
        };
        if len > MAX_MESH_OUTPUTS {
            let what = if kind == Modifier::Vertices { "vertex" } else { "primitive" };
            err(format!("max {what} count should not exceed {MAX_MESH_OUTPUTS}"));
            continue;
        }
        if kind == Modifier::Vertices {
            continue;
        }
        if primitive_count.is_some_and(|n| n != len) {
            err("max primitive count mismatch".into());
            continue;
        }
        if kind == Modifier::Indices {
            let any = "the element of out_indices array must be uint2 for line output or uint3 for triangle output";
            let Type::Vector(ScalarKind::UInt, n) = m.types.get(elem) else {
                err(any.into());
                continue;
            };
            match topology {
                Some("line") if *n != 2 => {
                    err("the element of out_indices array in a mesh shader whose output topology is line must be uint2".into());
                    continue;
                }
                Some("triangle") if *n != 3 => {
                    err("the element of out_indices array in a mesh shader whose output topology is triangle must be uint3".into());
                    continue;
                }
                _ => {}
            }
        }
        primitive_count = Some(len);
    }
}

/// An amplification shader's parameters are system values.
pub(super) fn check_amplification(m: &Module, ep: &EntryPoint, diags: &mut Diagnostics) {
    for &p in &m.func(ep.func).params {
        check_system_value_only(m.var(p), "as", diags);
    }
}

/// DXC: "invalid usage of semantic 'X' in shader profile ms" for a parameter whose semantic is
/// not a system value (`SV_...`); a `[[vk::builtin]]` parameter names its built-in instead.
fn check_system_value_only(v: &Var, profile: &str, diags: &mut Diagnostics) {
    if v.binding.vk_builtin.is_some() {
        return;
    }
    if let Some(s) = &v.semantic {
        if !s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("SV_")) {
            diags.push(Diagnostic::error(format!("invalid usage of semantic '{s}' in shader profile {profile}")).at(v.name_span));
        }
    }
}
