//! Rules on what the functions an entry point reaches may do in its stage.

use crate::tast::{EntryPoint, ExprId, ExprKind, FuncId, Module, Stage, StmtId, StmtKind, Storage};
use crate::types::Type;
use crate::IntrinsicOp;
use hlslc_frontend::{Diagnostic, Diagnostics, Span};
use std::collections::{BTreeSet, HashSet};

/// Which rules [`check_reachable_bodies`] applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Rules {
    /// HLSL's, for every target: `discard` outside a pixel shader; an `Interlocked*` function
    /// whose destination is a static or local variable (it must be groupshared memory or a
    /// resource element).
    Language,
    /// SPIR-V's: `Sample`/`SampleBias`/`SampleCmp`/`SampleCmpBias` (implicit level of detail,
    /// that is derivatives) in a vertex, hull, domain or geometry shader or a ray-tracing stage
    /// (DXIL's validator has the same rule, and `-Vd` turns it off); a texture `Load` whose
    /// offset is not a constant (Vulkan allows a variable offset on gathers only); a
    /// `DispatchMesh` payload that is not groupshared (DXC's DXIL back end copies one).
    Vulkan,
}

/// Walks every function `ep` reaches (its own body and, transitively, the bodies of the user
/// functions and methods it calls), each once, and reports what `rules` forbids.
///
/// `reported` holds what earlier entry points reported: a function that two entry points of a
/// library reach is reported once.
pub(super) fn check_reachable_bodies(m: &Module, ep: &EntryPoint, rules: Rules, reported: &mut HashSet<(Span, &'static str)>, diags: &mut Diagnostics) {
    let mut report = |span: Span, msg: &'static str, diags: &mut Diagnostics| {
        if reported.insert((span, msg)) {
            diags.push(Diagnostic::error(msg).at(span));
        }
    };
    let mut done: BTreeSet<FuncId> = BTreeSet::new();
    let mut todo = vec![ep.func];
    while let Some(f) = todo.pop() {
        if !done.insert(f) {
            continue;
        }
        let Some(body) = m.func(f).body else { continue };
        for node in nodes(m, body) {
            match node {
                Node::Stmt(s) => {
                    if rules == Rules::Language && m.stmt(s).kind == StmtKind::Discard && ep.stage != Stage::Pixel {
                        report(m.stmt_span(s), "discard statement may only be used in pixel shaders", diags);
                    }
                }
                Node::Expr(e) => match &m.expr(e).kind {
                    ExprKind::Call { func, .. } => todo.push(*func),
                    ExprKind::Intrinsic { op, object: Some(_), .. } if rules == Rules::Vulkan && implicit_lod(*op) && !has_derivatives(ep.stage) => {
                        report(m.expr_span(e), "sampling with implicit lod is only allowed in fragment and compute shaders", diags);
                    }
                    ExprKind::Intrinsic { op: IntrinsicOp::MethodLoad, object: Some(obj), args } if rules == Rules::Vulkan => {
                        let offset = load_offset_index(m, *obj).and_then(|i| args.get(i));
                        if let Some(&offset) = offset {
                            if !is_constant(m, offset, 0) {
                                report(m.expr_span(offset), "Offsets to texture access operations must be immediate values.", diags);
                            }
                        }
                    }
                    ExprKind::Intrinsic { op: IntrinsicOp::DispatchMesh, object: None, args } if rules == Rules::Vulkan => {
                        if let Some(&payload) = args.get(3) {
                            if !is_groupshared(m, payload) {
                                report(m.expr_span(payload), "expected groupshared object as argument to DispatchMesh()", diags);
                            }
                        }
                    }
                    ExprKind::Intrinsic { op, object: None, args } if rules == Rules::Language && is_interlocked(*op) => {
                        if let Some(&dest) = args.first() {
                            if is_private(m, dest) {
                                report(m.expr_span(dest), "using static variable or function scope variable in interlocked operation is not allowed", diags);
                            }
                        }
                    }
                    _ => {}
                },
            }
        }
    }
}

fn implicit_lod(op: IntrinsicOp) -> bool {
    matches!(op, IntrinsicOp::MethodSample | IntrinsicOp::MethodSampleBias | IntrinsicOp::MethodSampleCmp | IntrinsicOp::MethodSampleCmpBias)
}

/// Stages where implicit-lod sampling has derivatives to use: pixel, and the compute-like
/// stages (compute, mesh, amplification, node; derivatives over quads in SM 6.6), and a library
/// (checked per entry point).
fn has_derivatives(stage: Stage) -> bool {
    matches!(stage, Stage::Pixel | Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node | Stage::Library)
}

fn is_interlocked(op: IntrinsicOp) -> bool {
    use IntrinsicOp::*;
    matches!(
        op,
        InterlockedAdd
            | InterlockedAnd
            | InterlockedCompareExchange
            | InterlockedCompareExchangeFloatBitwise
            | InterlockedCompareStore
            | InterlockedCompareStoreFloatBitwise
            | InterlockedExchange
            | InterlockedMax
            | InterlockedMin
            | InterlockedOr
            | InterlockedUMax
            | InterlockedUMin
            | InterlockedXor
    )
}

/// The argument of a texture's `Load` that is the offset: after the location (and the sample
/// index of a multisampled texture). `None` for other objects, whose `Load` takes no offset.
fn load_offset_index(m: &Module, object: ExprId) -> Option<usize> {
    use crate::types::ObjectKind::*;
    match m.types.get(m.expr(object).ty) {
        Type::Object { kind: Texture1D | Texture1DArray | Texture2D | Texture2DArray | Texture3D, .. } => Some(1),
        Type::Object { kind: Texture2DMS | Texture2DMSArray, .. } => Some(2),
        _ => None,
    }
}

/// Whether `e` may be a compile-time constant: literals, constructors and conversions of
/// constants, operators on constants, and variables initialized with constants (a local that
/// is never assigned again becomes a constant once DXC legalizes the code; assignments are not
/// tracked, so only what certainly depends on a parameter, a global or a call is refused).
fn is_constant(m: &Module, e: ExprId, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let c = |x: &ExprId| is_constant(m, *x, depth + 1);
    match &m.expr(e).kind {
        ExprKind::Const(_) => true,
        ExprKind::Cast { expr, .. } | ExprKind::Unary { operand: expr, .. } | ExprKind::Swizzle { base: expr, .. } => c(expr),
        ExprKind::Construct { args } => args.iter().all(c),
        ExprKind::Binary { lhs, rhs, .. } => c(lhs) && c(rhs),
        ExprKind::Ternary { cond, then, otherwise } => c(cond) && c(then) && c(otherwise),
        ExprKind::Var(v) => {
            let var = m.var(*v);
            var.const_value.is_some() || (matches!(var.storage, Storage::Static | Storage::Local) && var.init.as_ref().is_some_and(c))
        }
        _ => false,
    }
}

/// Whether the lvalue `e` is (part of) a `static` or function-local variable.
fn is_private(m: &Module, e: ExprId) -> bool {
    root_var(m, e).is_some_and(|v| {
        let var = m.var(v);
        // An object (a resource) indexed is resource memory, wherever the handle lives.
        matches!(var.storage, Storage::Static | Storage::Local) && !m.types.contains_object(var.ty)
    })
}

/// Whether `e` is (part of) a groupshared variable (what is not a variable is given the benefit
/// of the doubt).
fn is_groupshared(m: &Module, e: ExprId) -> bool {
    root_var(m, e).is_none_or(|v| m.var(v).storage == Storage::GroupShared)
}

/// The variable an lvalue designates (part of), through member, element and swizzle accesses.
fn root_var(m: &Module, mut e: ExprId) -> Option<crate::tast::VarId> {
    loop {
        match &m.expr(e).kind {
            ExprKind::Index { base, .. } | ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => e = *base,
            ExprKind::OutArg { lvalue, .. } => e = *lvalue,
            ExprKind::Cast { expr, .. } => e = *expr,
            ExprKind::Var(v) => return Some(*v),
            _ => return None,
        }
    }
}

/// A statement or expression of a body.
#[derive(Copy, Clone, Debug)]
enum Node {
    Stmt(StmtId),
    Expr(ExprId),
}

/// Every statement and expression under `root`, parents before children (an explicit stack:
/// deep nesting does not recurse).
fn nodes(m: &Module, root: StmtId) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![Node::Stmt(root)];
    while let Some(n) = stack.pop() {
        out.push(n);
        let before = stack.len();
        match n {
            Node::Stmt(s) => match &m.stmt(s).kind {
                StmtKind::Expr(e) => stack.push(Node::Expr(*e)),
                StmtKind::Decl(vars) => stack.extend(vars.iter().filter_map(|v| m.var(*v).init).map(Node::Expr)),
                StmtKind::Block(items) => stack.extend(items.iter().map(|s| Node::Stmt(*s))),
                StmtKind::If { cond, then, otherwise } => {
                    stack.push(Node::Expr(*cond));
                    stack.push(Node::Stmt(*then));
                    stack.extend(otherwise.map(Node::Stmt));
                }
                StmtKind::For { init, cond, step, body } => {
                    stack.extend(init.map(Node::Stmt));
                    stack.extend(cond.map(Node::Expr));
                    stack.extend(step.map(Node::Expr));
                    stack.push(Node::Stmt(*body));
                }
                StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } | StmtKind::Switch { cond, body } => {
                    stack.push(Node::Expr(*cond));
                    stack.push(Node::Stmt(*body));
                }
                StmtKind::Return(e) => stack.extend(e.map(Node::Expr)),
                StmtKind::Case(_) | StmtKind::Default | StmtKind::Break | StmtKind::Continue | StmtKind::Discard | StmtKind::Empty => {}
            },
            Node::Expr(e) => match &m.expr(e).kind {
                ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::This | ExprKind::Str(_) => {}
                ExprKind::Unary { operand, .. } => stack.push(Node::Expr(*operand)),
                ExprKind::Binary { lhs, rhs, .. }
                | ExprKind::Assign { lhs, rhs, .. }
                | ExprKind::CompoundAssign { lhs, rhs, .. }
                | ExprKind::Comma { lhs, rhs } => {
                    stack.push(Node::Expr(*lhs));
                    stack.push(Node::Expr(*rhs));
                }
                ExprKind::Ternary { cond, then, otherwise } => stack.extend([*cond, *then, *otherwise].map(Node::Expr)),
                ExprKind::Cast { expr, .. } => stack.push(Node::Expr(*expr)),
                ExprKind::Construct { args } => stack.extend(args.iter().map(|a| Node::Expr(*a))),
                ExprKind::Call { this_arg, args, .. } => {
                    stack.extend(this_arg.map(Node::Expr));
                    stack.extend(args.iter().map(|a| Node::Expr(*a)));
                }
                ExprKind::Intrinsic { object, args, .. } => {
                    stack.extend(object.map(Node::Expr));
                    stack.extend(args.iter().map(|a| Node::Expr(*a)));
                }
                ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => stack.push(Node::Expr(*base)),
                ExprKind::Index { base, index } => {
                    stack.push(Node::Expr(*base));
                    stack.push(Node::Expr(*index));
                }
                ExprKind::OutArg { lvalue, .. } => stack.push(Node::Expr(*lvalue)),
                ExprKind::HeapIndex { index, .. } => stack.push(Node::Expr(*index)),
                ExprKind::TexelAt { texture, level, coord, .. } => stack.extend([*texture, *level, *coord].map(Node::Expr)),
            },
        }
        // Children in source order when popped.
        stack[before..].reverse();
    }
    out
}
