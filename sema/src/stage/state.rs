//! The typed per-stage state of an entry point ([`EntryPoint`]'s `domain`, `hull`, `geometry`
//! and `mesh`), resolved once from its attributes and parameters so that no emitter reads an
//! attribute string. Bad values get dxc's messages here.

use crate::entry::{GeometryState, GsInput, GsOutput, HullState, HullTopology, MeshState, MeshTopology, Partitioning, Stage, TessDomain};
use crate::tast::{AttrArg, EntryPoint, FuncId, Function, Module, ParamDir, Storage};
use crate::types::{ObjectKind, Type};
use hlslc_frontend::ast::Modifier;
use hlslc_frontend::{Diagnostic, Diagnostics};

/// The first argument of attribute `name` of `f` (no namespace, any letter case).
fn attr<'f>(f: &'f Function, name: &str) -> Option<&'f AttrArg> {
    f.attrs.iter().find(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case(name)).and_then(|a| a.args.first())
}

fn attr_str<'f>(f: &'f Function, name: &str) -> Option<&'f str> {
    match attr(f, name)? {
        AttrArg::Str(s) | AttrArg::Word(s) => Some(s.as_str()),
        _ => None,
    }
}

fn attr_int(f: &Function, name: &str) -> Option<i64> {
    match attr(f, name)? {
        AttrArg::Int(n) => Some(*n),
        _ => None,
    }
}

/// A string attribute argument from a fixed list: `None` when the attribute is absent, an error
/// naming the list (dxc's message) when its value is not in it.
fn choice<T: Copy>(f: &Function, name: &str, values: &[(&str, T)], diags: &mut Diagnostics) -> Option<T> {
    let s = attr_str(f, name)?;
    match values.iter().find(|(n, _)| *n == s) {
        Some((_, v)) => Some(*v),
        None => {
            let list: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
            diags.push(Diagnostic::error(format!("attribute '{name}' must have one of these values: {}", list.join(","))).at(f.span));
            None
        }
    }
}

/// Fills `ep`'s per-stage state from its function.
pub(crate) fn resolve_state(m: &Module, ep: &mut EntryPoint, diags: &mut Diagnostics) {
    let f = m.func(ep.func);
    match ep.stage {
        Stage::Hull | Stage::Domain => {
            use TessDomain::*;
            ep.domain = choice(f, "domain", &[("tri", Tri), ("quad", Quad), ("isoline", Isoline)], diags);
            if ep.stage == Stage::Hull {
                ep.hull = hull_state(m, f, diags);
            }
        }
        Stage::Geometry => ep.geometry = Some(geometry_state(m, f)),
        Stage::Mesh => ep.mesh = mesh_state(m, f),
        _ => {}
    }
}

fn hull_state(m: &Module, f: &Function, diags: &mut Diagnostics) -> Option<HullState> {
    use Partitioning::*;
    let partitioning =
        choice(f, "partitioning", &[("integer", Integer), ("fractional_even", FractionalEven), ("fractional_odd", FractionalOdd), ("pow2", Pow2)], diags);
    let output_topology = choice(
        f,
        "outputtopology",
        &[
            ("point", Some(HullTopology::Point)),
            ("line", Some(HullTopology::Line)),
            ("triangle", None),
            ("triangle_cw", Some(HullTopology::TriangleCw)),
            ("triangle_ccw", Some(HullTopology::TriangleCcw)),
        ],
        diags,
    );
    let output_topology = match output_topology {
        Some(None) => {
            diags.push(Diagnostic::error("hull shader output topology must be point, line, triangle_cw or triangle_ccw").at(f.span));
            None
        }
        Some(t) => t,
        None => None,
    };
    let max_tess_factor = match attr(f, "maxtessfactor") {
        Some(AttrArg::Float(x)) => Some(*x as f32),
        Some(AttrArg::Int(n)) => Some(*n as f32),
        _ => None,
    };
    // A missing attribute was reported with the entry's required attributes.
    let name = attr_str(f, "patchconstantfunc")?;
    let patch_constant_func = patch_constant_function(m, f, name, diags)?;
    Some(HullState { patch_constant_func, partitioning, output_topology, output_control_points: attr_int(f, "outputcontrolpoints"), max_tess_factor })
}

/// dxc's pick: the last defined free function named `name`, with a warning (and a note at the one
/// picked) when there are several.
fn patch_constant_function(m: &Module, entry: &Function, name: &str, diags: &mut Diagnostics) -> Option<FuncId> {
    let candidates: Vec<usize> =
        m.funcs.iter().enumerate().filter(|(_, g)| g.name == name && g.body.is_some() && g.this_type.is_none()).map(|(i, _)| i).collect();
    let Some(&last) = candidates.last() else {
        diags.push(Diagnostic::error(format!("Cannot find patchconstantfunc {name}.")).at(entry.span));
        return None;
    };
    if candidates.len() > 1 {
        let picked = m.funcs[last].span;
        diags.push(Diagnostic::warning(format!("Multiple overloads of patchconstantfunc {name}.")).at(entry.span).with_label(picked, "This overload was selected."));
    }
    Some(FuncId(last as u32))
}

fn geometry_state(m: &Module, f: &Function) -> GeometryState {
    let (mut input, mut output) = (None, None);
    for &p in &f.params {
        let v = m.var(p);
        let i = match v.primitive {
            Some(Modifier::Point) => Some(GsInput::Point),
            Some(Modifier::Line) => Some(GsInput::Line),
            Some(Modifier::Triangle) => Some(GsInput::Triangle),
            Some(Modifier::LineAdj) => Some(GsInput::LineAdj),
            Some(Modifier::TriangleAdj) => Some(GsInput::TriangleAdj),
            _ => None,
        };
        input = input.or(i);
        let o = match m.types.get(v.ty) {
            Type::Object { kind: ObjectKind::PointStream, .. } => Some(GsOutput::Point),
            Type::Object { kind: ObjectKind::LineStream, .. } => Some(GsOutput::Line),
            Type::Object { kind: ObjectKind::TriangleStream, .. } => Some(GsOutput::Triangle),
            _ => None,
        };
        output = output.or(o);
    }
    GeometryState { max_vertex_count: attr_int(f, "maxvertexcount").unwrap_or(0), instance_count: attr_int(f, "instance").unwrap_or(1), input, output }
}

fn mesh_state(m: &Module, f: &Function) -> Option<MeshState> {
    let topology = match attr_str(f, "outputtopology")? {
        "point" => MeshTopology::Point,
        "line" => MeshTopology::Line,
        "triangle" => MeshTopology::Triangle,
        _ => return None,
    };
    let (mut vertices, mut indices, mut primitives, mut payload) = (None, None, None, None);
    for &p in &f.params {
        let v = m.var(p);
        let len = match m.types.get(v.ty) {
            Type::Array { len: Some(n), .. } => Some(*n),
            _ => None,
        };
        match (v.primitive, v.storage) {
            (Some(Modifier::Vertices), Storage::Param(ParamDir::Out)) => vertices = vertices.or(len.map(|n| (p, n))),
            (Some(Modifier::Indices), Storage::Param(ParamDir::Out)) => indices = indices.or(len.map(|n| (p, n))),
            (Some(Modifier::Primitives), Storage::Param(ParamDir::Out)) => primitives = primitives.or(Some(p)),
            (Some(Modifier::Payload), _) => payload = payload.or(Some(p)),
            _ => {}
        }
    }
    let ((vertices, max_vertices), (indices, max_primitives)) = (vertices?, indices?);
    Some(MeshState { topology, max_vertices, max_primitives, vertices, indices, primitives, payload })
}
