//! Initializer lists (`= {a, b, {c, d}}`) and aggregate flattening.
//!
//! HLSL initializer lists ignore braces: the list's leaves, each flattened to scalars (and
//! objects), fill the target's flattened components in order. For a vector/matrix target the
//! result is a [`ExprKind::Construct`] of the leaves converted to the component type (keeping
//! their shapes); for a struct/array target it is a `Construct` with one scalar or object per
//! flattened component of the target, each converted to that component's type.

use super::Checker;
use crate::tast::{ConstValue, ExprId, ExprKind};
use crate::types::{Shape, Type, TypeId};
use hlslc_frontend::ast;
use hlslc_frontend::Span;

/// Most leaves an initializer may produce before sema gives up (guards huge arrays).
const MAX_LEAVES: usize = 1 << 16;

impl Checker<'_> {
    fn collect_items(&mut self, items: &[ast::Expr], out: &mut Vec<ExprId>, depth: u32) {
        for it in items {
            match &it.kind {
                ast::ExprKind::InitList(inner) if depth < 64 => self.collect_items(inner, out, depth + 1),
                _ => {
                    let id = self.check_expr(it);
                    out.push(id);
                }
            }
        }
    }

    /// The leaf types (scalars and objects) of `t`, in order.
    pub(crate) fn leaf_types(&self, t: TypeId, out: &mut Vec<TypeId>, depth: u32) -> bool {
        if depth > 64 || out.len() > MAX_LEAVES {
            return false;
        }
        match self.m.types.get(t) {
            Type::Scalar(_) | Type::Enum(_) | Type::Object { .. } | Type::String | Type::InlineSpirv(_) => out.push(t),
            Type::Vector(k, n) => {
                for _ in 0..*n {
                    out.push(self.scalar_id(*k));
                }
            }
            Type::Matrix { elem, rows, cols, .. } => {
                for _ in 0..(*rows as u32 * *cols as u32) {
                    out.push(self.scalar_id(*elem));
                }
            }
            Type::Array { elem, len: Some(n) } => {
                for _ in 0..*n {
                    if !self.leaf_types(*elem, out, depth + 1) {
                        return false;
                    }
                }
            }
            Type::Struct(s) => {
                let def = &self.m.types.structs[s.0 as usize];
                for &b in &def.bases {
                    if !self.leaf_types(b, out, depth + 1) {
                        return false;
                    }
                }
                for f in &def.fields {
                    if !self.leaf_types(f.ty, out, depth + 1) {
                        return false;
                    }
                }
            }
            _ => return false,
        }
        true
    }

    fn scalar_id(&self, k: crate::types::ScalarKind) -> TypeId {
        // Scalars used as leaves are interned when their vectors are; look up without mutating.
        self.m.types.find(&Type::Scalar(k)).unwrap_or(crate::types::TypeTable::ERROR)
    }

    /// Splits a value into its scalar/object leaves with member, index and swizzle nodes.
    pub(crate) fn expand(&mut self, e: ExprId, out: &mut Vec<ExprId>, depth: u32) {
        if depth > 64 || out.len() > MAX_LEAVES {
            return;
        }
        let t = self.ty_of(e);
        let span = self.m.expr_span(e);
        let lv = self.m.expr(e).lvalue;
        match self.m.types.get(t).clone() {
            Type::Vector(k, n) => {
                let st = self.m.types.scalar(k);
                for c in 0..n {
                    out.push(self.add(ExprKind::Swizzle { base: e, components: vec![c] }, st, lv, span));
                }
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let st = self.m.types.scalar(elem);
                for r in 0..rows {
                    for c in 0..cols {
                        out.push(self.add(ExprKind::MatrixSwizzle { base: e, elements: vec![(r, c)] }, st, lv, span));
                    }
                }
            }
            Type::Array { elem, len: Some(n) } => {
                let u = self.m.types.uint();
                for i in 0..n {
                    let idx = self.konst(ConstValue::Int(i as i64), u, span);
                    let el = self.add(ExprKind::Index { base: e, index: idx }, elem, lv, span);
                    self.expand(el, out, depth + 1);
                }
            }
            Type::Struct(s) => {
                let def = self.m.types.structs[s.0 as usize].clone();
                for (i, f) in def.fields.iter().enumerate() {
                    let fe = self.add(ExprKind::Field { base: e, index: i as u32, via_base: Vec::new() }, f.ty, lv, span);
                    self.expand(fe, out, depth + 1);
                }
            }
            _ => out.push(e),
        }
    }

    /// Checks `{items}` as an initializer of type `target`.
    pub(crate) fn check_init_list(&mut self, items: &[ast::Expr], target: TypeId, span: Span) -> ExprId {
        let mut srcs = Vec::new();
        self.collect_items(items, &mut srcs, 0);
        if self.m.types.is_error(target) || srcs.iter().any(|&s| self.m.types.is_error(self.ty_of(s))) {
            return self.error_expr(span);
        }
        let tname = self.type_name(target);
        if let Some(shape) = self.m.types.shape(target) {
            let k = self.m.types.component(target).unwrap_or(crate::types::ScalarKind::Float);
            let mut have = 0u32;
            let mut args = Vec::new();
            for s in srcs {
                let st = self.ty_of(s);
                if let Some(ss) = self.m.types.shape(st) {
                    have += ss.count();
                    let to = self.m.types.of_shape(k, ss, self.default_layout);
                    args.push(self.coerce(s, to));
                } else {
                    let mut leaves = Vec::new();
                    self.expand(s, &mut leaves, 0);
                    for l in leaves {
                        have += 1;
                        let to = self.m.types.scalar(k);
                        args.push(self.coerce(l, to));
                    }
                }
            }
            let want = shape.count();
            if have != want {
                let few = if have < want { "few" } else { "many" };
                let what = match shape {
                    Shape::Matrix(..) => "matrix",
                    Shape::Vector(_) => "vector",
                    Shape::Scalar => "scalar",
                };
                self.error(span, format!("too {few} elements in {what} initialization (expected {want} elements, have {have})"));
                return self.error_expr(span);
            }
            if shape == Shape::Scalar {
                return args[0];
            }
            return self.add(ExprKind::Construct { args }, target, false, span);
        }
        let mut want = Vec::new();
        if !self.leaf_types(target, &mut want, 0) {
            self.error(span, format!("cannot initialize a variable of type '{tname}' with an initializer list"));
            return self.error_expr(span);
        }
        let mut leaves = Vec::new();
        for s in srcs {
            self.expand(s, &mut leaves, 0);
        }
        if leaves.len() != want.len() {
            let few = if leaves.len() < want.len() { "few" } else { "many" };
            self.error(
                span,
                format!("too {few} initializers in list for type '{tname}' (expected {} but have {})", want.len(), leaves.len()),
            );
            return self.error_expr(span);
        }
        let args: Vec<ExprId> = leaves.into_iter().zip(want).map(|(l, w)| self.coerce(l, w)).collect();
        self.add(ExprKind::Construct { args }, target, false, span)
    }

    /// For `T a[] = {...}`: the array length implied by the initializer's leaf count.
    pub(crate) fn infer_unsized_len(&mut self, elem: TypeId, init: &ast::Expr) -> Option<u32> {
        let ast::ExprKind::InitList(items) = &init.kind else { return None };
        let mut per = Vec::new();
        if !self.leaf_types(elem, &mut per, 0) || per.is_empty() {
            return None;
        }
        // Count leaves without keeping the checked nodes (they are re-checked with the type).
        let saved = self.diags.list.len();
        let mut srcs = Vec::new();
        self.collect_items(items, &mut srcs, 0);
        self.diags.list.truncate(saved);
        let mut total = 0usize;
        for s in srcs {
            let mut l = Vec::new();
            let t = self.ty_of(s);
            if !self.leaf_types(t, &mut l, 0) {
                return None;
            }
            total += l.len();
        }
        Some(total.div_ceil(per.len()) as u32)
    }
}
