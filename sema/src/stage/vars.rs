//! The stage variables of an entry point: its parameters and return value with their semantics,
//! flattened.
//!
//! A parameter or return value with a semantic is one stage variable, whatever its type (a struct
//! or array with a semantic counts as one, as in DXC). Without one, a struct contributes its base
//! structs' and its fields' stage variables (a field's interpolation modifiers add to the
//! parameter's), an array its element's, and a value of another type none. Object parameters
//! contribute their element type's: a geometry shader's output streams as outputs (each stream
//! remembered, [`StageVar::stream`]), `InputPatch`/`OutputPatch` as inputs; other objects none.
//! An `inout` parameter is both an input and an output.

use crate::tast::{EntryPoint, Interpolation, Module, ParamDir, Storage};
use crate::types::{ObjectKind, Type, TypeId};
use hlslc_frontend::Span;

/// Whether a stage variable is read or written by the entry point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

/// One stage variable.
#[derive(Clone, Debug, PartialEq)]
pub struct StageVar {
    /// The semantic as written (`SV_Position`, `TEXCOORD3`).
    pub semantic: String,
    /// The parameter's or field's name (the function's for the return value).
    pub name: String,
    pub ty: TypeId,
    pub dir: Dir,
    pub interpolation: Interpolation,
    /// The parameter (or the function, for the return value) it comes from.
    pub span: Span,
    /// For a geometry shader's stream outputs: the index of the stream parameter.
    pub stream: Option<usize>,
}

/// `PointStream`, `LineStream`, `TriangleStream`.
pub fn is_stream(kind: ObjectKind) -> bool {
    matches!(kind, ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream)
}

/// The stage variables of `ep`, parameters first (in order), then the return value.
pub fn stage_vars(m: &Module, ep: &EntryPoint) -> Vec<StageVar> {
    let f = m.func(ep.func);
    let mut out = Vec::new();
    for (i, &p) in f.params.iter().enumerate() {
        let v = m.var(p);
        let at = Origin { name: &v.name, span: v.span, stream: None };
        if let Type::Object { kind, elem: Some(elem), .. } = m.types.get(v.ty) {
            match kind {
                k if is_stream(*k) => flatten(m, *elem, None, Dir::Out, v.interpolation, &Origin { stream: Some(i), ..at }, 0, &mut out),
                ObjectKind::InputPatch | ObjectKind::OutputPatch => flatten(m, *elem, None, Dir::In, v.interpolation, &at, 0, &mut out),
                _ => {}
            }
            continue;
        }
        let dirs: &[Dir] = match v.storage {
            Storage::Param(ParamDir::Out) => &[Dir::Out],
            Storage::Param(ParamDir::InOut) => &[Dir::In, Dir::Out],
            _ => &[Dir::In],
        };
        for &d in dirs {
            flatten(m, v.ty, v.semantic.as_deref(), d, v.interpolation, &at, 0, &mut out);
        }
    }
    if !m.types.is_void(f.ret) {
        let at = Origin { name: &f.name, span: f.span, stream: None };
        flatten(m, f.ret, f.ret_semantic.as_deref(), Dir::Out, Interpolation::default(), &at, 0, &mut out);
    }
    out
}

/// Where a stage variable comes from.
#[derive(Clone, Copy)]
struct Origin<'a> {
    name: &'a str,
    span: Span,
    stream: Option<usize>,
}

/// Structs nest only finitely, but a limit keeps a malformed type table from recursing forever.
const MAX_NESTING: u32 = 64;

#[allow(clippy::too_many_arguments)]
fn flatten(m: &Module, ty: TypeId, semantic: Option<&str>, dir: Dir, interp: Interpolation, at: &Origin, depth: u32, out: &mut Vec<StageVar>) {
    if depth > MAX_NESTING {
        return;
    }
    if let Some(s) = semantic {
        out.push(StageVar { semantic: s.to_string(), name: at.name.to_string(), ty, dir, interpolation: interp, span: at.span, stream: at.stream });
        return;
    }
    match m.types.get(ty) {
        Type::Struct(id) => {
            let def = &m.types.structs[id.0 as usize];
            for &base in &def.bases {
                flatten(m, base, None, dir, interp, at, depth + 1, out);
            }
            for field in &def.fields {
                let field_at = Origin { name: &field.name, ..*at };
                flatten(m, field.ty, field.semantic.as_deref(), dir, union(interp, field.interpolation), &field_at, depth + 1, out);
            }
        }
        Type::Array { elem, .. } => flatten(m, *elem, None, dir, interp, at, depth + 1, out),
        _ => {}
    }
}

fn union(a: Interpolation, b: Interpolation) -> Interpolation {
    Interpolation {
        nointerpolation: a.nointerpolation || b.nointerpolation,
        linear: a.linear || b.linear,
        noperspective: a.noperspective || b.noperspective,
        centroid: a.centroid || b.centroid,
        sample: a.sample || b.sample,
    }
}
