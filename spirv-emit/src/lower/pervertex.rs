//! `GetAttributeAtVertex` (SPV_KHR_fragment_shader_barycentric), as DXC does it: when a pixel
//! shader uses the intrinsic, every `nointerpolation` input becomes an array of the values of
//! the primitive's three vertices (a `PerVertexKHR` stage variable of type `T[3]`), and so does
//! every `nointerpolation` parameter and struct field in the whole function tree (a
//! `nointerpolation` struct makes all its leaves per-vertex). A plain read of such a value reads
//! vertex 0; `GetAttributeAtVertex(x, i)` reads vertex `i`; passing it to a `nointerpolation`
//! parameter passes all three.
//!
//! This is a rewrite of a copy of the typed AST before lowering, so that the emitter's one path
//! for arrays, fields and calls does the rest:
//! - each such parameter gets type `T[3]` and each such field type `T[3]`, both marked
//!   [`Interpolation::per_vertex`] (the entry point reads and writes those through arrayed
//!   stage variables, `entry.rs`);
//! - each use `x` of one becomes `x[0u]` (same expression id, same type `T`);
//! - `GetAttributeAtVertex(x..., i)` becomes `x[i]...` (through swizzles and component indices);
//! - an argument of a `nointerpolation` parameter becomes the whole array, and must be one of
//!   these values (DXC's "parameter N of F must have a 'nointerpolation' attribute").

use super::LowerError;
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp;
use hlslc_sema::tast::{CastKind, ConstValue, Expr, ExprId, ExprKind, Module, ParamDir, Stage, Storage, VarId};
use hlslc_sema::types::{ObjectKind, StructId, Type, TypeId};
use std::collections::{BTreeSet, HashMap};

/// The module with per-vertex inputs, or `None` when it needs none (not a pixel shader, or no
/// `GetAttributeAtVertex`).
pub(crate) fn rewrite(m: &Module) -> Result<Option<Module>, Vec<LowerError>> {
    let pixel = m.entry.as_ref().is_some_and(|e| e.stage == Stage::Pixel)
        || (m.entry.is_none() && m.entries.iter().any(|e| e.stage == Stage::Pixel));
    let used = m.exprs.iter().any(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::GetAttributeAtVertex, .. }));
    if !pixel || !used {
        return Ok(None);
    }
    let mut m = m.clone();
    let mut errors = Vec::new();
    let err = |errors: &mut Vec<LowerError>, message: String, span: Span| {
        errors.push(LowerError { fatal: false, message, span: Some(span), notes: Vec::new() });
    };

    // The structs all of whose leaves are per-vertex: those of `nointerpolation` parameters and
    // fields, and the struct fields of those.
    let mut whole: BTreeSet<StructId> = BTreeSet::new();
    let mut work: Vec<TypeId> = Vec::new();
    for v in &m.vars {
        if v.interpolation.nointerpolation && matches!(v.storage, Storage::Param(ParamDir::In)) {
            work.push(v.ty);
        }
    }
    for def in &m.types.structs {
        work.extend(def.fields.iter().filter(|f| f.interpolation.nointerpolation).map(|f| f.ty));
    }
    while let Some(t) = work.pop() {
        if let Type::Struct(sid) = m.types.get(t) {
            if whole.insert(*sid) {
                let def = &m.types.structs[sid.0 as usize];
                work.extend(def.bases.iter().copied());
                work.extend(def.fields.iter().map(|f| f.ty));
            }
        }
    }

    // Fields and parameters that become `T[3]`.
    let mut fields: HashMap<(StructId, u32), TypeId> = HashMap::new();
    for s in 0..m.types.structs.len() {
        let sid = StructId(s as u32);
        for i in 0..m.types.structs[s].fields.len() {
            let f = m.types.structs[s].fields[i].clone();
            if !(f.interpolation.nointerpolation || whole.contains(&sid)) || matches!(m.types.get(f.ty), Type::Struct(_)) {
                continue;
            }
            if !matches!(m.types.get(f.ty), Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } | Type::Enum(_)) {
                // Only numeric leaves are stage inputs; other members keep their type.
                continue;
            }
            let t3 = m.types.array(f.ty, Some(3));
            let field = &mut m.types.structs[s].fields[i];
            field.ty = t3;
            field.interpolation.nointerpolation = true;
            field.interpolation.per_vertex = true;
            fields.insert((sid, i as u32), f.ty);
        }
    }
    let mut vars: HashMap<VarId, TypeId> = HashMap::new();
    for i in 0..m.vars.len() {
        let v = &m.vars[i];
        if !(v.interpolation.nointerpolation && matches!(v.storage, Storage::Param(ParamDir::In))) {
            continue;
        }
        if !matches!(m.types.get(v.ty), Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } | Type::Enum(_)) {
            continue;
        }
        let t = v.ty;
        let t3 = m.types.array(t, Some(3));
        let v = &mut m.vars[i];
        v.ty = t3;
        v.interpolation.per_vertex = true;
        vars.insert(VarId(i as u32), t);
    }

    // Uses read vertex 0: `x` becomes `x[0u]`, `whole[x]` being the array itself.
    let uint = m.types.uint();
    let n = m.exprs.len();
    let mut arrays: HashMap<ExprId, ExprId> = HashMap::new();
    for e in 0..n {
        let id = ExprId(e as u32);
        let expr = m.exprs[e].clone();
        let per_vertex = match &expr.kind {
            ExprKind::Var(v) => vars.contains_key(v),
            ExprKind::Field { base, index, via_base } => declaring_struct(&m, m.expr(*base).ty, via_base).is_some_and(|s| fields.contains_key(&(s, *index))),
            _ => false,
        };
        if !per_vertex {
            continue;
        }
        let span = m.expr_span(id);
        let t3 = m.types.array(expr.ty, Some(3));
        let array = m.add_expr(Expr { kind: expr.kind.clone(), ty: t3, lvalue: expr.lvalue }, span);
        let zero = m.add_expr(Expr { kind: ExprKind::Const(ConstValue::Int(0)), ty: uint, lvalue: false }, span);
        m.exprs[e].kind = ExprKind::Index { base: array, index: zero };
        arrays.insert(id, array);
    }

    for e in 0..n {
        let id = ExprId(e as u32);
        match m.exprs[e].kind.clone() {
            ExprKind::Intrinsic { op: IntrinsicOp::GetAttributeAtVertex, args, .. } if args.len() == 2 => {
                let (a, i) = (args[0], args[1]);
                let idx = vertex_index(&mut m, i, uint);
                match retarget(&mut m, &arrays, a, idx) {
                    Ok(r) => m.exprs[e].kind = m.exprs[r.0 as usize].kind.clone(),
                    // A converted value (a `bool` input read as `float`): not the input itself.
                    Err(Converted) => err(&mut errors, "attribute evaluation can only be done on values taken directly from inputs.".into(), m.expr_span(id)),
                    Err(NotPerVertex) => err(
                        &mut errors,
                        "parameter 0 of GetAttributeAtVertex must have a 'nointerpolation' attribute".into(),
                        m.expr_span(a),
                    ),
                }
            }
            ExprKind::Call { func, args, .. } => {
                let f = m.func(func).clone();
                for (i, (&a, &p)) in args.iter().zip(&f.params).enumerate() {
                    if !vars.contains_key(&p) {
                        continue;
                    }
                    match arrays.get(&a) {
                        Some(&array) => m.exprs[a.0 as usize] = m.exprs[array.0 as usize].clone(),
                        None => err(&mut errors, format!("parameter {i} of {} must have a 'nointerpolation' attribute", f.name), m.expr_span(a)),
                    }
                }
            }
            // Building or flattening a struct whose members are per-vertex would need the three
            // values of each: refused rather than built wrong.
            ExprKind::Construct { .. } | ExprKind::Cast { kind: CastKind::Flatten, .. } if has_per_vertex(&m, m.exprs[e].ty, &fields) => err(
                &mut errors,
                format!(
                    "constructing a '{}' whose nointerpolation members are per-vertex (GetAttributeAtVertex is used) is not supported by the SPIR-V backend yet",
                    type_label(&m, m.exprs[e].ty)
                ),
                m.expr_span(id),
            ),
            _ => {}
        }
    }
    if errors.is_empty() {
        Ok(Some(m))
    } else {
        Err(errors)
    }
}

/// The struct declaring field `.index` of a value of type `t` reached through `via_base`.
fn declaring_struct(m: &Module, mut t: TypeId, via_base: &[u32]) -> Option<StructId> {
    if let Type::Object { kind: ObjectKind::ConstantBuffer | ObjectKind::TextureBuffer, elem: Some(s), .. } = m.types.get(t) {
        t = *s;
    }
    for &step in via_base {
        let Type::Struct(sid) = m.types.get(t) else { return None };
        t = *m.types.structs[sid.0 as usize].bases.get(step as usize)?;
    }
    match m.types.get(t) {
        Type::Struct(sid) => Some(*sid),
        _ => None,
    }
}

/// The vertex index as a `uint` (an `int` is reinterpreted, as DXC's bitcast does).
fn vertex_index(m: &mut Module, i: ExprId, uint: TypeId) -> ExprId {
    let t = m.expr(i).ty;
    if t == uint {
        return i;
    }
    let kind = match m.types.get(t) {
        Type::Enum(_) => CastKind::EnumConvert,
        _ => CastKind::IntToInt,
    };
    let span = m.expr_span(i);
    m.add_expr(Expr { kind: ExprKind::Cast { kind, expr: i, explicit: false }, ty: uint, lvalue: false }, span)
}

/// Why an argument of `GetAttributeAtVertex` has no per-vertex values.
enum NoVertices {
    /// It converts one (a `bool` input passed as the intrinsic's `float`).
    Converted,
    /// It is not one.
    NotPerVertex,
}
use NoVertices::*;

/// `x` read at vertex `idx` instead of 0: `x` is a per-vertex value (`a[0u]`), or a component or
/// swizzle of one.
fn retarget(m: &mut Module, arrays: &HashMap<ExprId, ExprId>, x: ExprId, idx: ExprId) -> Result<ExprId, NoVertices> {
    let expr = m.expr(x).clone();
    let span = m.expr_span(x);
    if let Some(&array) = arrays.get(&x) {
        return Ok(m.add_expr(Expr { kind: ExprKind::Index { base: array, index: idx }, ty: expr.ty, lvalue: false }, span));
    }
    let kind = match expr.kind {
        ExprKind::Swizzle { base, components } => ExprKind::Swizzle { base: retarget(m, arrays, base, idx)?, components },
        ExprKind::MatrixSwizzle { base, elements } => ExprKind::MatrixSwizzle { base: retarget(m, arrays, base, idx)?, elements },
        ExprKind::Index { base, index } => ExprKind::Index { base: retarget(m, arrays, base, idx)?, index },
        ExprKind::Cast { kind: CastKind::NoOp, expr: inner, explicit } => {
            ExprKind::Cast { kind: CastKind::NoOp, expr: retarget(m, arrays, inner, idx)?, explicit }
        }
        ExprKind::Cast { expr: inner, .. } => {
            return Err(match retarget(m, arrays, inner, idx) {
                Ok(_) | Err(Converted) => Converted,
                Err(NotPerVertex) => NotPerVertex,
            })
        }
        _ => return Err(NotPerVertex),
    };
    Ok(m.add_expr(Expr { kind, ty: expr.ty, lvalue: false }, span))
}

/// Whether a value of type `t` holds a per-vertex field.
fn has_per_vertex(m: &Module, t: TypeId, fields: &HashMap<(StructId, u32), TypeId>) -> bool {
    match m.types.get(t) {
        Type::Struct(sid) => {
            let def = &m.types.structs[sid.0 as usize];
            (0..def.fields.len()).any(|i| fields.contains_key(&(*sid, i as u32)))
                || def.bases.iter().chain(def.fields.iter().map(|f| &f.ty)).any(|&b| has_per_vertex(m, b, fields))
        }
        Type::Array { elem, .. } => has_per_vertex(m, *elem, fields),
        _ => false,
    }
}

fn type_label(m: &Module, t: TypeId) -> String {
    match m.types.get(t) {
        Type::Struct(sid) => m.types.structs[sid.0 as usize].name.clone(),
        _ => "value".into(),
    }
}
