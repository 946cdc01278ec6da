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

use super::sigpoint::SigPoint;
use crate::entry::{Semantic, Stage};
use crate::tast::{EntryPoint, Interpolation, Module, ParamDir, Storage};
use hlslc_frontend::ast::Modifier;
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
    /// The semantic (`SV_Position`, `TEXCOORD3`), parsed.
    pub semantic: Semantic,
    /// The parameter's or field's name (the function's for the return value).
    pub name: String,
    pub ty: TypeId,
    pub dir: Dir,
    pub interpolation: Interpolation,
    /// The parameter (or the function, for the return value) it comes from.
    pub span: Span,
    /// For a geometry shader's stream outputs: the index of the stream parameter.
    pub stream: Option<usize>,
    /// The DXIL signature point it belongs to (`None` where the stage has none: compute
    /// outputs, library-only stages).
    pub point: Option<SigPoint>,
}

/// `PointStream`, `LineStream`, `TriangleStream`.
pub fn is_stream(kind: ObjectKind) -> bool {
    matches!(kind, ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream)
}

/// The stage variables of `ep`, parameters first (in order), then the return value.
pub fn stage_vars(m: &Module, ep: &EntryPoint) -> Vec<StageVar> {
    let f = m.func(ep.func);
    let mut out = Vec::new();
    let plain = |d: Dir| plain_point(ep.stage, d);
    for (i, &p) in f.params.iter().enumerate() {
        let v = m.var(p);
        let at = Origin { name: &v.name, span: v.span, stream: None, point: None };
        if let Type::Object { kind, elem: Some(elem), .. } = m.types.get(v.ty) {
            match kind {
                k if is_stream(*k) => {
                    let at = Origin { stream: Some(i), point: Some(SigPoint::GSOut), ..at };
                    flatten(m, *elem, None, Dir::Out, v.interpolation, &at, 0, &mut out)
                }
                ObjectKind::InputPatch | ObjectKind::OutputPatch => {
                    let point = match ep.stage {
                        Stage::Hull => Some(SigPoint::HSCPIn),
                        Stage::Domain => Some(SigPoint::DSCPIn),
                        _ => None,
                    };
                    flatten(m, *elem, None, Dir::In, v.interpolation, &Origin { point, ..at }, 0, &mut out)
                }
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
            let point = match (ep.stage, v.primitive) {
                (Stage::Geometry, Some(Modifier::Point | Modifier::Line | Modifier::Triangle | Modifier::LineAdj | Modifier::TriangleAdj)) => {
                    Some(SigPoint::GSVIn)
                }
                (Stage::Mesh, Some(Modifier::Vertices)) => Some(SigPoint::MSOut),
                (Stage::Mesh, Some(Modifier::Primitives)) => Some(SigPoint::MSPOut),
                (Stage::Mesh, Some(Modifier::Indices | Modifier::Payload)) => None,
                _ => plain(d),
            };
            flatten(m, v.ty, v.semantic.as_ref(), d, v.interpolation, &Origin { point, ..at }, 0, &mut out);
        }
    }
    if !m.types.is_void(f.ret) {
        let at = Origin { name: &f.name, span: f.span, stream: None, point: plain(Dir::Out) };
        flatten(m, f.ret, f.ret_semantic.as_ref(), Dir::Out, Interpolation::default(), &at, 0, &mut out);
    }
    out
}

/// The signature point of an ordinary input or output of a stage's entry function.
fn plain_point(stage: Stage, dir: Dir) -> Option<SigPoint> {
    use SigPoint::*;
    Some(match (stage, dir) {
        (Stage::Vertex, Dir::In) => VSIn,
        (Stage::Vertex, Dir::Out) => VSOut,
        (Stage::Hull, Dir::In) => HSIn,
        (Stage::Hull, Dir::Out) => HSCPOut,
        (Stage::Domain, Dir::In) => DSIn,
        (Stage::Domain, Dir::Out) => DSOut,
        (Stage::Geometry, Dir::In) => GSIn,
        (Stage::Geometry, Dir::Out) => GSOut,
        (Stage::Pixel, Dir::In) => PSIn,
        (Stage::Pixel, Dir::Out) => PSOut,
        (Stage::Compute, Dir::In) => CSIn,
        (Stage::Mesh, Dir::In) => MSIn,
        (Stage::Amplification, Dir::In) => ASIn,
        _ => return None,
    })
}

/// Where a stage variable comes from.
#[derive(Clone, Copy)]
struct Origin<'a> {
    name: &'a str,
    span: Span,
    stream: Option<usize>,
    point: Option<SigPoint>,
}

/// Structs nest only finitely, but a limit keeps a malformed type table from recursing forever.
const MAX_NESTING: u32 = 64;

#[allow(clippy::too_many_arguments)]
fn flatten(m: &Module, ty: TypeId, semantic: Option<&Semantic>, dir: Dir, interp: Interpolation, at: &Origin, depth: u32, out: &mut Vec<StageVar>) {
    if depth > MAX_NESTING {
        return;
    }
    if let Some(s) = semantic {
        out.push(StageVar { semantic: s.clone(), name: at.name.to_string(), ty, dir, interpolation: interp, span: at.span, stream: at.stream, point: at.point });
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
                flatten(m, field.ty, field.semantic.as_ref(), dir, union(interp, field.interpolation), &field_at, depth + 1, out);
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
        per_vertex: a.per_vertex || b.per_vertex,
    }
}
