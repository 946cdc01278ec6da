//! Rules of mesh and amplification shader entry points, with DXC's messages.

use crate::tast::{AttrArg, EntryPoint, Module, ParamDir, Storage, Var};
use crate::types::{ScalarKind, Type};
use hlslc_frontend::ast::Modifier;
use hlslc_frontend::{Diagnostic, Diagnostics};

/// A mesh shader:
/// - has `[outputtopology("point" | "line" | "triangle")]`;
/// - declares exactly one `out vertices` and one `out indices` parameter, at most one
///   `out primitives` and one `in payload`; vertices, indices and primitives are 1D arrays;
///   the indices are `uint` (points), `uint2` (lines) or `uint3` (triangles); the primitives
///   array is as long as the indices array;
/// - (like an amplification shader) takes no other parameter with a user-defined semantic: its
///   other inputs are system values.
pub(super) fn check_mesh(m: &Module, ep: &EntryPoint, diags: &mut Diagnostics) {
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
    let mut index_len = None;
    let mut prims_len = None;
    for &p in &f.params {
        let v = m.var(p);
        let Some(kind @ (Modifier::Vertices | Modifier::Indices | Modifier::Primitives | Modifier::Payload)) = v.primitive else {
            check_system_value_only(v, "ms", diags);
            continue;
        };
        let word = kind.keyword();
        if seen.contains(&kind) {
            err(diags, v.span, format!("only one object with '{word}' modifier is allowed"));
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
        let Type::Array { elem, len } = m.types.get(v.ty) else {
            err(diags, v.span, "expected 1D array of indices/vertices/primitives object".into());
            continue;
        };
        if matches!(m.types.get(*elem), Type::Array { .. }) {
            err(diags, v.span, "expected 1D array of indices/vertices/primitives object".into());
            continue;
        }
        match kind {
            Modifier::Indices => {
                index_len = Some(*len);
                let want = match topology {
                    Some("point") => Some(1),
                    Some("line") => Some(2),
                    Some("triangle") => Some(3),
                    _ => None,
                };
                let got = match m.types.get(*elem) {
                    Type::Scalar(ScalarKind::UInt) => Some(1),
                    Type::Vector(ScalarKind::UInt, n) => Some(*n),
                    _ => None,
                };
                if let Some(want) = want {
                    if got != Some(want) {
                        let ty = if want == 1 { "uint".to_string() } else { format!("uint{want}") };
                        err(diags, v.span, format!("expected 1D array of {ty} type"));
                    }
                }
            }
            Modifier::Primitives => prims_len = Some((*len, v.span)),
            _ => {}
        }
    }
    if !seen.contains(&Modifier::Vertices) {
        err(diags, f.span, "expected vertices object declaration".into());
    }
    if !seen.contains(&Modifier::Indices) {
        err(diags, f.span, "expected indices object declaration".into());
    }
    if let (Some(indices), Some((prims, span))) = (index_len, prims_len) {
        if indices != prims {
            err(diags, span, "array size of primitives object should match 'indices' object".into());
        }
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
            diags.push(Diagnostic::error(format!("invalid usage of semantic '{s}' in shader profile {profile}")).at(v.span));
        }
    }
}
