//! Expressions: literals, names, operators, casts, constructors, indexing.

use super::consteval::{fold_binary, fold_unary};
use super::{Checker, Symbol, MAX_DEPTH};
use crate::tast::{ConstValue, Expr, ExprId, ExprKind};
use crate::types::{ObjectKind, ScalarKind, Shape, Type, TypeId};
use hlslc_frontend::ast::{self, BinaryOp, FloatSuffix, IntSuffix, UnaryOp};
use hlslc_frontend::{Diagnostic, Span};

impl Checker<'_> {
    pub(crate) fn add(&mut self, kind: ExprKind, ty: TypeId, lvalue: bool, span: Span) -> ExprId {
        self.m.add_expr(Expr { kind, ty, lvalue }, span)
    }

    pub(crate) fn konst(&mut self, v: ConstValue, ty: TypeId, span: Span) -> ExprId {
        self.add(ExprKind::Const(v), ty, false, span)
    }

    pub(crate) fn ty_of(&self, e: ExprId) -> TypeId {
        self.m.expr(e).ty
    }

    /// Checks an expression and gives literal types their default (`int`, `float`).
    pub(crate) fn check_rvalue(&mut self, e: &ast::Expr) -> ExprId {
        let id = self.check_expr(e);
        self.concretize(id)
    }

    /// Checks an expression and converts it to `ty`.
    pub(crate) fn check_expr_to(&mut self, e: &ast::Expr, ty: TypeId) -> ExprId {
        if let ast::ExprKind::InitList(items) = &e.kind {
            return self.check_init_list(items, ty, e.span);
        }
        let id = self.check_expr(e);
        self.coerce(id, ty)
    }

    /// Checks an expression used as a condition (converted to scalar `bool`).
    pub(crate) fn check_cond(&mut self, e: &ast::Expr) -> ExprId {
        let id = self.check_expr(e);
        let t = self.ty_of(id);
        let b = match self.m.types.shape(t) {
            Some(_) => self.m.types.bool(),
            None if self.m.types.is_error(t) => return id,
            None => {
                let n = self.type_name(t);
                self.error(e.span, format!("value of type '{n}' is not contextually convertible to 'bool'"));
                return self.error_expr(e.span);
            }
        };
        self.coerce(id, b)
    }

    pub(crate) fn check_expr(&mut self, e: &ast::Expr) -> ExprId {
        if self.depth >= MAX_DEPTH {
            self.error(e.span, "expression nested too deeply");
            return self.error_expr(e.span);
        }
        self.depth += 1;
        let r = self.check_expr_inner(e);
        self.depth -= 1;
        r
    }

    fn check_expr_inner(&mut self, e: &ast::Expr) -> ExprId {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::IntLit { value, suffix } => {
                let k = match suffix {
                    IntSuffix::None => ScalarKind::LitInt,
                    IntSuffix::U => ScalarKind::UInt,
                    IntSuffix::L | IntSuffix::LL => ScalarKind::Int64,
                    IntSuffix::UL | IntSuffix::ULL => ScalarKind::UInt64,
                };
                let t = self.m.types.scalar(k);
                let v = super::conversions::wrap_int(*value as i64, k);
                self.konst(ConstValue::Int(v), t, span)
            }
            ast::ExprKind::FloatLit { value, suffix } => {
                let k = match suffix {
                    FloatSuffix::None => ScalarKind::LitFloat,
                    FloatSuffix::F => ScalarKind::Float,
                    FloatSuffix::H if self.opts.enable_16bit => ScalarKind::Half,
                    FloatSuffix::H => ScalarKind::Float,
                    FloatSuffix::L => ScalarKind::Double,
                };
                let t = self.m.types.scalar(k);
                self.konst(ConstValue::Float(*value), t, span)
            }
            ast::ExprKind::BoolLit(b) => {
                let t = self.m.types.bool();
                self.konst(ConstValue::Bool(*b), t, span)
            }
            ast::ExprKind::StringLit(s) => {
                let t = self.m.types.intern(Type::String);
                self.add(ExprKind::Str(s.clone()), t, false, span)
            }
            ast::ExprKind::Name(path) => self.check_name(path, span),
            ast::ExprKind::Unary { op, operand } => self.check_unary(*op, operand, span),
            ast::ExprKind::Binary { op, lhs, rhs } => {
                let l = self.check_expr(lhs);
                let r = self.check_expr(rhs);
                self.binary(*op, l, r, span)
            }
            ast::ExprKind::Assign { op, lhs, rhs } => self.check_assign(*op, lhs, rhs, span),
            ast::ExprKind::Ternary { cond, then, otherwise } => self.check_ternary(cond, then, otherwise, span),
            ast::ExprKind::Cast { ty, expr } => {
                let t = self.resolve_type(ty);
                let inner = match &expr.kind {
                    ast::ExprKind::InitList(items) => return self.check_init_list(items, t, span),
                    _ => self.check_expr(expr),
                };
                let from = self.ty_of(inner);
                let r = self.convert(inner, t, true);
                // `(float3)v4 = x`, `(Base)derived = b`: a cast that only narrows an lvalue to
                // a leading part of it designates that part (DXC's lvalue C-style casts).
                if r != inner && self.m.expr(inner).lvalue && super::conversions::narrows_in_place(&self.m.types, from, t) {
                    self.m.exprs[r.0 as usize].lvalue = true;
                }
                self.m.spans.exprs[r.0 as usize] = span;
                r
            }
            ast::ExprKind::Construct { ty, args } => {
                let t = self.resolve_type(ty);
                self.check_construct(t, args, span)
            }
            ast::ExprKind::Call { callee, template_args, args } => {
                self.check_call(callee, template_args.as_deref(), args, span)
            }
            ast::ExprKind::Member { base, name } => {
                let b = self.check_expr(base);
                self.member(b, name)
            }
            ast::ExprKind::Index { base, index } => {
                if let Some(h) = self.heap_index(base, index, span) {
                    return h;
                }
                if let Some(t) = self.texel_at(base, index, span) {
                    return t;
                }
                let b = self.check_expr(base);
                let i = self.check_expr(index);
                if let Some(call) = self.overloaded_call_operator(b, "operator[]", &[i], span) {
                    return call;
                }
                self.index(b, i, span)
            }
            ast::ExprKind::SizeOfType(ts) => {
                let t = self.resolve_type(ts);
                self.size_of(t, span)
            }
            ast::ExprKind::SizeOfExpr(inner) => {
                let i = self.check_rvalue(inner);
                let t = self.ty_of(i);
                self.size_of(t, span)
            }
            ast::ExprKind::InitList(items) => {
                // Outside an initializer the target type is unknown.
                let _ = items;
                self.error(span, "initializer list cannot be used here");
                self.error_expr(span)
            }
            ast::ExprKind::Error => self.error_expr(span),
            #[allow(unreachable_patterns)]
            _ => {
                self.error(span, "unsupported construct");
                self.error_expr(span)
            }
        }
    }

    fn size_of(&mut self, t: TypeId, span: Span) -> ExprId {
        let u = self.m.types.uint();
        if self.m.types.is_error(t) {
            return self.error_expr(span);
        }
        let size = crate::layout::byte_size(&self.m.types, t);
        match size {
            Some(n) => self.konst(ConstValue::Int(n as i64), u, span),
            None => {
                let n = self.type_name(t);
                self.error(span, format!("invalid application of 'sizeof' to type '{n}'"));
                self.error_expr(span)
            }
        }
    }

    pub(crate) fn check_name(&mut self, path: &ast::Path, span: Span) -> ExprId {
        let parts: Vec<&str> = path.parts.iter().map(|p| p.name.as_str()).collect();
        // Locals first, then fields of `this`, then globals.
        let local = if parts.len() == 1 && !path.global {
            self.locals.iter().rev().find_map(|s| s.get(parts[0]).cloned())
        } else {
            None
        };
        if local.is_none() && parts.len() == 1 && !path.global {
            if let Some(this_ty) = self.func.as_ref().and_then(|f| f.this_ty) {
                if parts[0] == "this" {
                    return self.add(ExprKind::This, this_ty, true, span);
                }
                if let Some(r) = self.this_member(this_ty, &path.parts[0], span) {
                    return r;
                }
            }
        }
        if local.is_none() && parts == ["this"] && !path.global {
            self.error(span, "invalid use of 'this' outside of a non-static member function");
            return self.error_expr(span);
        }
        let found = match local {
            Some(s) => Some(s),
            None => self.lookup_path(path),
        };
        match found {
            Some(Symbol::Var(v)) => {
                let ty = self.m.var(v).ty;
                self.add(ExprKind::Var(v), ty, true, span)
            }
            Some(Symbol::Const(ty, v)) => self.konst(v, ty, span),
            Some(Symbol::Funcs(_)) => {
                self.error(span, format!("reference to overloaded function could not be resolved; did you mean to call it? ('{}')", path.joined()));
                self.error_expr(span)
            }
            Some(Symbol::Type(_)) | Some(Symbol::Namespace) | Some(Symbol::Template(_)) => {
                self.error(span, format!("'{}' does not refer to a value", path.joined()));
                self.error_expr(span)
            }
            None => {
                if let Some(r) = self.qualified_this_member(path, span) {
                    return r;
                }
                self.error(span, format!("use of undeclared identifier '{}'", path.joined()));
                self.error_expr(span)
            }
        }
    }

    /// True if `e` may be assigned: an lvalue not declared `const`. Reports otherwise.
    pub(crate) fn require_assignable(&mut self, e: ExprId, span: Span) -> bool {
        let ex = self.m.expr(e);
        if self.m.types.is_error(ex.ty) {
            return true;
        }
        if !ex.lvalue {
            let msg = if self.read_only_element(e) { "read-only variable is not assignable" } else { "expression is not assignable" };
            self.error(span, msg);
            return false;
        }
        if let Some(v) = self.root_var(e) {
            let var = self.m.var(v);
            // `-Gec -HV 2016`: the implicit `$Globals` are writable, as in fxc.
            let gec_global = self.gec_globals() && var.storage == crate::tast::Storage::Uniform && !var.is_const;
            if !gec_global && (var.is_const || matches!(var.storage, crate::tast::Storage::CBufferMember { .. } | crate::tast::Storage::Uniform)) {
                // As clang: the variable itself is named (with a note at its declaration); a
                // part of it (member, element, swizzle) is only "read-only".
                if !matches!(ex.kind, ExprKind::Var(_)) {
                    self.error(span, "read-only variable is not assignable");
                    return false;
                }
                let ty = self.type_name(var.ty);
                let d = Diagnostic::error(format!("cannot assign to variable '{}' with const-qualified type 'const {ty}'", var.name))
                    .at(span)
                    .with_label(var.span, format!("variable '{}' declared const here", var.name));
                self.diags.push(d);
                return false;
            }
        }
        true
    }

    /// True for a part of a read-only resource element that DXC calls a read-only variable: an
    /// `InputPatch`/`OutputPatch` element or any part of it, or a swizzle of a member of a
    /// read-only buffer element (`sb[0].f4.x`).
    fn read_only_element(&self, mut e: ExprId) -> bool {
        let mut swizzled = false;
        for _ in 0..256 {
            match &self.m.expr(e).kind {
                ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => {
                    swizzled = true;
                    e = *base;
                }
                ExprKind::Field { base, .. } => e = *base,
                ExprKind::Cast { expr, .. } if self.m.expr(e).lvalue => e = *expr,
                ExprKind::Index { base, .. } => match self.m.types.get(self.ty_of(*base)) {
                    Type::Object { kind: ObjectKind::InputPatch | ObjectKind::OutputPatch, .. } => return true,
                    Type::Object { .. } => return swizzled,
                    _ => e = *base,
                },
                _ => return false,
            }
        }
        false
    }

    /// The variable an lvalue path starts from.
    pub(crate) fn root_var(&self, mut e: ExprId) -> Option<crate::tast::VarId> {
        for _ in 0..256 {
            match &self.m.expr(e).kind {
                ExprKind::Var(v) => return Some(*v),
                ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => e = *base,
                ExprKind::Index { base, .. } => {
                    // Writing through a resource element does not write the resource variable.
                    if matches!(self.m.types.get(self.ty_of(*base)), Type::Object { .. }) {
                        return None;
                    }
                    e = *base
                }
                ExprKind::Cast { expr, .. } if self.m.expr(e).lvalue => e = *expr,
                ExprKind::Cast { expr, kind: crate::tast::CastKind::NoOp, .. } => e = *expr,
                _ => return None,
            }
        }
        None
    }

    fn check_unary(&mut self, op: UnaryOp, operand: &ast::Expr, span: Span) -> ExprId {
        let x = self.check_expr(operand);
        let t = self.ty_of(x);
        if self.m.types.is_error(t) {
            return x;
        }
        let Some(k) = self.m.types.component(t) else {
            let n = self.type_name(t);
            self.error(span, format!("invalid argument type '{n}' to unary expression"));
            return self.error_expr(span);
        };
        match op {
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                self.require_assignable(x, operand.span);
                if k.is_bool() {
                    self.error(span, "operator cannot be applied to 'bool'");
                }
                let lvalue = matches!(op, UnaryOp::PreInc | UnaryOp::PreDec);
                self.add(ExprKind::Unary { op, operand: x }, t, lvalue, span)
            }
            UnaryOp::Not => {
                let bt = self.m.types.with_component(t, ScalarKind::Bool);
                let x = self.coerce(x, bt);
                if let Some(v) = self.const_value(x) {
                    if let Some(r) = fold_unary(op, v, ScalarKind::Bool) {
                        return self.konst(r, bt, span);
                    }
                }
                self.add(ExprKind::Unary { op, operand: x }, bt, false, span)
            }
            UnaryOp::Plus | UnaryOp::Neg | UnaryOp::BitNot => {
                if op == UnaryOp::BitNot && k.is_float() {
                    self.error(span, "int or unsigned int type required");
                    return self.error_expr(span);
                }
                let (x, t, k) = if k.is_bool() {
                    let it = self.m.types.with_component(t, ScalarKind::Int);
                    (self.coerce(x, it), it, ScalarKind::Int)
                } else {
                    (x, t, k)
                };
                if let Some(v) = self.const_value(x) {
                    if matches!(self.m.types.get(t), Type::Scalar(_)) {
                        if let Some(r) = fold_unary(op, v, k) {
                            return self.konst(r, t, span);
                        }
                    }
                }
                self.add(ExprKind::Unary { op, operand: x }, t, false, span)
            }
        }
    }

    /// The common type of two numeric operands, as HLSL's usual arithmetic conversions choose it.
    pub(crate) fn common_type(&mut self, a: TypeId, b: TypeId, span: Span) -> Option<TypeId> {
        let types = &self.m.types;
        let (ka, kb) = (types.component(a)?, types.component(b)?);
        let (sa, sb) = (types.shape(a)?, types.shape(b)?);
        let k = {
            let (hi, lo) = if ka.rank() >= kb.rank() { (ka, kb) } else { (kb, ka) };
            if hi == ScalarKind::LitFloat && !lo.is_literal() && !lo.is_float() {
                ScalarKind::Float
            } else if hi.is_literal() && !lo.is_literal() {
                lo
            } else {
                hi
            }
        };
        let shape = match (sa, sb) {
            (x, y) if x == y => x,
            (Shape::Scalar, y) => y,
            (x, Shape::Scalar) => x,
            (Shape::Vector(1), y) => y,
            (x, Shape::Vector(1)) => x,
            (Shape::Vector(x), Shape::Vector(y)) => Shape::Vector(x.min(y)),
            (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => Shape::Matrix(r1.min(r2), c1.min(c2)),
            (Shape::Matrix(1, c), Shape::Vector(n)) | (Shape::Vector(n), Shape::Matrix(1, c)) => Shape::Vector(c.min(n)),
            (Shape::Matrix(r, 1), Shape::Vector(n)) | (Shape::Vector(n), Shape::Matrix(r, 1)) => Shape::Vector(r.min(n)),
            (Shape::Matrix(r, c), Shape::Vector(n)) | (Shape::Vector(n), Shape::Matrix(r, c)) if r as u32 * c as u32 == n as u32 => {
                Shape::Matrix(r, c)
            }
            _ => {
                let (na, nb) = (self.type_name(a), self.type_name(b));
                self.error(span, format!("cannot convert from '{na}' to '{nb}'"));
                return None;
            }
        };
        let layout = match (types.get(a), types.get(b)) {
            (Type::Matrix { layout, .. }, _) | (_, Type::Matrix { layout, .. }) => *layout,
            _ => self.default_layout,
        };
        Some(self.m.types.of_shape(k, shape, layout))
    }

    /// Builds a binary operator on checked operands, converting them and folding constants.
    pub(crate) fn binary(&mut self, op: BinaryOp, l: ExprId, r: ExprId, span: Span) -> ExprId {
        let (lt, rt) = (self.ty_of(l), self.ty_of(r));
        if op == BinaryOp::Comma {
            let r = self.concretize(r);
            let rt = self.ty_of(r);
            return self.add(ExprKind::Comma { lhs: l, rhs: r }, rt, false, span);
        }
        if self.m.types.is_error(lt) || self.m.types.is_error(rt) {
            return self.error_expr(span);
        }
        if !self.m.types.is_numeric(lt) || !self.m.types.is_numeric(rt) {
            if let Some(call) = self.overloaded_operator(op, l, r, span) {
                return call;
            }
            let (a, b) = (self.type_name(lt), self.type_name(rt));
            self.error(span, format!("invalid operands to binary expression ('{a}' and '{b}')"));
            return self.error_expr(span);
        }
        let Some(mut ct) = self.common_type(lt, rt, span) else { return self.error_expr(span) };
        let mut k = self.m.types.component(ct).unwrap_or(ScalarKind::Float);
        use BinaryOp::*;
        let is_bitwise = matches!(op, Shl | Shr | BitAnd | BitOr | BitXor);
        let is_logic = matches!(op, LogAnd | LogOr);
        let is_cmp = matches!(op, Lt | Gt | Le | Ge | Eq | Ne);
        if is_bitwise {
            if k.is_float() {
                self.error(span, "int or unsigned int type required");
                return self.error_expr(span);
            }
            if k.is_bool() {
                k = ScalarKind::Int;
                ct = self.m.types.with_component(ct, k);
            }
            // A shift has the left operand's component type (`(int)x >> s` stays arithmetic
            // with a uint `s`); only the shape is shared.
            if matches!(op, Shl | Shr) {
                if let Some(lk) = self.m.types.component(lt) {
                    if !lk.is_literal() && !lk.is_bool() && !lk.is_float() {
                        k = lk;
                        ct = self.m.types.with_component(ct, k);
                    }
                }
            }
        } else if is_logic {
            let scalar = |t| matches!(self.m.types.shape(t), Some(crate::types::Shape::Scalar));
            if self.opts.hlsl_version >= 2021 && !(scalar(lt) && scalar(rt)) {
                let word = if op == LogAnd { "and" } else { "or" };
                self.error(
                    span,
                    format!("operands for short-circuiting logical binary operator must be scalar, for non-scalar types use '{word}'"),
                );
                return self.error_expr(span);
            }
            k = ScalarKind::Bool;
            ct = self.m.types.with_component(ct, k);
        } else if !is_cmp && k.is_bool() {
            k = ScalarKind::Int;
            ct = self.m.types.with_component(ct, k);
        }
        // Shifts keep the left operand's type; the right converts to it.
        let l = self.coerce(l, ct);
        let r = self.coerce(r, ct);
        let result = if is_cmp { self.m.types.with_component(ct, ScalarKind::Bool) } else { ct };
        if let (Some(a), Some(b)) = (self.const_value(l), self.const_value(r)) {
            if matches!(self.m.types.get(ct), Type::Scalar(_)) {
                match fold_binary(op, a, b, k) {
                    Ok(Some(v)) => return self.konst(v, result, span),
                    Ok(None) => {}
                    Err(msg) => {
                        if k.is_literal() || !k.is_float() {
                            self.warning(span, msg);
                        }
                    }
                }
            }
        }
        self.add(ExprKind::Binary { op, lhs: l, rhs: r }, result, false, span)
    }

    fn check_assign(&mut self, op: Option<BinaryOp>, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> ExprId {
        let l = self.check_expr(lhs);
        let lt = self.ty_of(l);
        self.require_assignable(l, lhs.span);
        let r = match (&rhs.kind, op) {
            (ast::ExprKind::InitList(items), None) => self.check_init_list(items, lt, rhs.span),
            _ => {
                let r = self.check_expr(rhs);
                if let Some(op) = op {
                    let rt = self.ty_of(r);
                    if !self.m.types.is_numeric(lt) && !self.m.types.is_error(lt) || !self.m.types.is_numeric(rt) && !self.m.types.is_error(rt) {
                        let (a, b) = (self.type_name(lt), self.type_name(rt));
                        self.error(span, format!("invalid operands to binary expression ('{a}' and '{b}')"));
                        return self.error_expr(span);
                    }
                    if matches!(op, BinaryOp::Shl | BinaryOp::Shr | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor)
                        && self.m.types.component(lt).is_some_and(|k| k.is_float())
                    {
                        self.error(span, "int or unsigned int type required");
                    }
                    if let Some(e) = self.compound_in_other_type(op, l, r, span) {
                        return e;
                    }
                }
                self.coerce(r, lt)
            }
        };
        // As in C++, an assignment designates its left operand: `(a += b) = c`.
        let lvalue = self.m.expr(l).lvalue;
        self.add(ExprKind::Assign { op, lhs: l, rhs: r }, lt, lvalue, span)
    }

    /// `lhs op= rhs` computed in another type than the left side's: the operation type follows
    /// the usual arithmetic conversions of both sides, as for `lhs op rhs` (`int v; v /= 65537u`
    /// divides unsigned, `int v; v *= 1.5` multiplies in `float`, a shift keeps the left side's
    /// type), in the left side's shape. `None` when that is the left side's own type.
    fn compound_in_other_type(&mut self, op: BinaryOp, l: ExprId, r: ExprId, span: Span) -> Option<ExprId> {
        use super::conversions::component_cast;
        let (lt, rt) = (self.ty_of(l), self.ty_of(r));
        if self.m.types.is_error(lt) || self.m.types.is_error(rt) || matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            return None;
        }
        let lk = self.m.types.component(lt)?;
        let rk = self.m.types.component(rt)?;
        let (hi, lo) = if lk.rank() >= rk.rank() { (lk, rk) } else { (rk, lk) };
        let mut k = if hi == ScalarKind::LitFloat && !lo.is_float() {
            ScalarKind::Float
        } else if hi.is_literal() {
            lo
        } else {
            hi
        };
        if k.is_bool() {
            k = ScalarKind::Int;
        }
        if matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor) && k.is_float() {
            if !lk.is_float() {
                self.error(span, "int or unsigned int type required");
            }
            return None;
        }
        let to_op = component_cast(lk, k)?;
        let from_op = component_cast(k, lk)?;
        let op_ty = self.m.types.with_component(lt, k);
        let r = self.coerce(r, op_ty);
        let lvalue = self.m.expr(l).lvalue;
        Some(self.add(ExprKind::CompoundAssign { op, lhs: l, rhs: r, to_op, from_op }, lt, lvalue, span))
    }

    fn check_ternary(&mut self, cond: &ast::Expr, then: &ast::Expr, otherwise: &ast::Expr, span: Span) -> ExprId {
        let c = self.check_expr(cond);
        let a = self.check_expr(then);
        let b = self.check_expr(otherwise);
        let (at, bt) = (self.ty_of(a), self.ty_of(b));
        // Operands of one enum type keep it (C++: operands of the same type give that type).
        let result = if at == bt && matches!(self.m.types.get(at), Type::Enum(_)) {
            at
        } else if self.m.types.is_numeric(at) && self.m.types.is_numeric(bt) {
            match self.common_type(at, bt, span) {
                Some(t) => t,
                None => return self.error_expr(span),
            }
        } else if self.m.types.same_value_type(at, bt) || self.m.types.is_error(bt) {
            at
        } else if self.m.types.is_error(at) {
            bt
        } else {
            let (x, y) = (self.type_name(at), self.type_name(bt));
            self.error(span, format!("incompatible operand types ('{x}' and '{y}')"));
            return self.error_expr(span);
        };
        // A vector condition selects per component (before HLSL 2021, which short-circuits).
        let ct = self.ty_of(c);
        if self.opts.hlsl_version >= 2021 && matches!(self.m.types.shape(ct), Some(Shape::Vector(_) | Shape::Matrix(..))) {
            self.error(span, "condition for short-circuiting ternary operator must be scalar, for non-scalar types use 'select'");
            return self.error_expr(span);
        }
        let cond_ty = match self.m.types.shape(ct) {
            Some(Shape::Vector(n)) if n > 1 => self.m.types.vector(ScalarKind::Bool, n),
            _ => self.m.types.bool(),
        };
        let c = self.coerce(c, cond_ty);
        // A vector condition with scalar operands selects between splats: `v3 ? 1 : 0` is an int3.
        let result = match (self.m.types.shape(cond_ty), self.m.types.shape(result)) {
            (Some(Shape::Vector(n)), Some(Shape::Scalar)) if n > 1 => match self.m.types.component(result) {
                Some(k) => self.m.types.vector(k, n),
                None => result,
            },
            _ => result,
        };
        let a = self.coerce(a, result);
        let b = self.coerce(b, result);
        if let (Some(ConstValue::Bool(cv)), Some(_), Some(_)) = (self.const_value(c), self.const_value(a), self.const_value(b)) {
            return if cv { a } else { b };
        }
        self.add(ExprKind::Ternary { cond: c, then: a, otherwise: b }, result, false, span)
    }

    /// `T(args)`: vector/matrix constructors from components; scalars and aggregates as casts.
    fn check_construct(&mut self, t: TypeId, args: &[ast::Expr], span: Span) -> ExprId {
        if self.m.types.is_error(t) {
            for a in args {
                self.check_expr(a);
            }
            return self.error_expr(span);
        }
        let ids: Vec<ExprId> = args.iter().map(|a| self.check_expr(a)).collect();
        match self.m.types.get(t).clone() {
            Type::Scalar(_) | Type::Enum(_) if ids.len() == 1 => self.convert(ids[0], t, true),
            Type::Vector(k, _) | Type::Matrix { elem: k, .. } => {
                let want = self.m.types.shape(t).map_or(1, |s| s.count());
                let mut have = 0u32;
                let mut conv = Vec::with_capacity(ids.len());
                for (&id, a) in ids.iter().zip(args) {
                    let at = self.ty_of(id);
                    if self.m.types.is_error(at) {
                        return self.error_expr(span);
                    }
                    let Some(s) = self.m.types.shape(at) else {
                        // A struct or array of numbers gives its scalars in order, as in an
                        // initializer list (dxc: `float2x2(1, 2, s)` with `struct { int a; float b; } s`).
                        let mut leaf_tys = Vec::new();
                        let numeric = matches!(self.m.types.get(at), Type::Struct(_) | Type::Array { len: Some(_), .. })
                            && self.leaf_types(at, &mut leaf_tys, 0)
                            && leaf_tys.iter().all(|&l| matches!(self.m.types.get(l), Type::Scalar(_) | Type::Enum(_)));
                        if !numeric {
                            let n = self.type_name(at);
                            self.error(a.span, format!("cannot convert from '{n}' to '{}'", self.type_name(t)));
                            return self.error_expr(span);
                        }
                        let mut leaves = Vec::new();
                        self.expand(id, &mut leaves, 0);
                        let to = self.m.types.scalar(k);
                        for l in leaves {
                            have += 1;
                            conv.push(self.coerce(l, to));
                        }
                        continue;
                    };
                    have += s.count();
                    let target = self.m.types.of_shape(k, s, self.default_layout);
                    conv.push(self.coerce(id, target));
                }
                if ids.len() == 1 && have == 1 && want > 1 {
                    return self.coerce(conv[0], t);
                }
                if have != want {
                    let what = if matches!(self.m.types.get(t), Type::Vector(..)) { "vector" } else { "matrix" };
                    let few = if have < want { "few" } else { "many" };
                    self.error(span, format!("too {few} elements in {what} initialization (expected {want} elements, have {have})"));
                    return self.error_expr(span);
                }
                self.add(ExprKind::Construct { args: conv }, t, false, span)
            }
            _ => {
                // `S(x)` where `S` holds just one object of `x`'s type (`Accessor<T>(pointer)`):
                // no flattening cast carries objects, so build the struct from it.
                if let ([id], Type::Struct(_)) = (ids.as_slice(), self.m.types.get(t)) {
                    let mut leaves = Vec::new();
                    if self.m.types.contains_object(self.ty_of(*id)) && self.leaf_types(t, &mut leaves, 0) && leaves == [self.ty_of(*id)] {
                        return self.add(ExprKind::Construct { args: vec![*id] }, t, false, span);
                    }
                }
                if ids.len() == 1 {
                    return self.convert(ids[0], t, true);
                }
                let n = self.type_name(t);
                self.error(span, format!("cannot construct '{n}' from {} arguments", ids.len()));
                self.error_expr(span)
            }
        }
    }

    /// A constant index outside a sized array: an error (a warning worded as clang's before HLSL
    /// 2018), with a note at the array variable's declaration.
    fn array_index_out_of_bounds(&mut self, base: ExprId, index: i64, len: u32, span: Span) {
        let mut d = if self.opts.hlsl_version <= 2016 {
            Diagnostic::warning(if index < 0 {
                format!("array index {index} is before the beginning of the array")
            } else {
                format!("array index {index} is past the end of the array (which contains {len} elements)")
            })
            .with_code("-Warray-bounds")
        } else {
            Diagnostic::error(format!("array index {index} is out of bounds"))
        }
        .at(span);
        if let ExprKind::Var(v) = self.m.expr(base).kind {
            let var = self.m.var(v);
            d = d.with_label(var.span, format!("array '{}' declared here", var.name));
        }
        self.diags.push(d);
    }

    /// `base[index]`.
    pub(crate) fn index(&mut self, b: ExprId, i: ExprId, span: Span) -> ExprId {
        let bt = self.ty_of(b);
        let it = self.ty_of(i);
        if self.m.types.is_error(bt) || self.m.types.is_error(it) {
            return self.error_expr(span);
        }
        let base_lv = self.m.expr(b).lvalue;
        let (elem, lvalue, dims) = match self.m.types.get(bt).clone() {
            Type::Array { elem, len } => {
                if let (Some(n), Some(ConstValue::Int(c))) = (len, self.const_value(i)) {
                    if c < 0 || c >= n as i64 {
                        self.array_index_out_of_bounds(b, c, n, span);
                    }
                }
                (elem, base_lv, 1)
            }
            Type::Vector(k, n) => {
                if let Some(ConstValue::Int(c)) = self.const_value(i) {
                    if c < 0 || c >= n as i64 {
                        self.error(span, "vector element index out of bounds");
                    }
                }
                (self.m.types.scalar(k), base_lv, 1)
            }
            Type::Matrix { elem, rows, cols, .. } => {
                if let Some(ConstValue::Int(c)) = self.const_value(i) {
                    if c < 0 || c >= rows as i64 {
                        self.error(span, "matrix row index out of bounds");
                    }
                }
                (self.m.types.vector(elem, cols), base_lv, 1)
            }
            Type::Object { kind: ObjectKind::NodeOutputArray, elem: Some(elem), .. } => {
                (self.m.types.object(ObjectKind::NodeOutput, Some(elem), None), false, 1)
            }
            Type::Object { kind: ObjectKind::EmptyNodeOutputArray, .. } => {
                (self.m.types.object(ObjectKind::EmptyNodeOutput, None, None), false, 1)
            }
            Type::Object { kind, elem: Some(elem), .. } if kind.is_node_record() => (elem, kind.is_writable_record(), 1),
            Type::Object { kind, elem: Some(elem), .. } if kind.index_dims().is_some() => {
                (elem, kind.is_writable(), kind.index_dims().unwrap_or(1))
            }
            _ => {
                let n = self.type_name(bt);
                self.error(span, format!("subscripted value is not an array, matrix, or vector ('{n}')"));
                return self.error_expr(span);
            }
        };
        let Some(ik) = self.m.types.component(it) else {
            self.error(span, "array subscript is not an integer");
            return self.error_expr(span);
        };
        if ik.is_float() || ik.is_bool() {
            // HLSL converts float indices with a warning in DXC; keep it an error-free conversion.
        }
        let idx_ty = if dims == 1 { self.m.types.uint() } else { self.m.types.vector(ScalarKind::UInt, dims) };
        let i = self.coerce(i, idx_ty);
        self.add(ExprKind::Index { base: b, index: i }, elem, lvalue, span)
    }

    /// A `this` member referenced by a bare name inside a method.
    pub(crate) fn this_member(&mut self, this_ty: TypeId, name: &ast::Ident, span: Span) -> Option<ExprId> {
        let (index, path, fty) = self.find_field(this_ty, &name.name)?;
        let this = self.add(ExprKind::This, this_ty, true, span);
        Some(self.add(ExprKind::Field { base: this, index, via_base: path }, fty, true, span))
    }
}
