//! Statements and blocks.

use super::{Checker, Symbol, MAX_DEPTH};
use crate::tast::{StmtId, Stmt, StmtKind};
use crate::types::{Shape, TypeTable};
use hlslc_frontend::ast::{self, Decl};

impl Checker<'_> {
    fn push_stmt(&mut self, kind: StmtKind, s: &ast::Stmt) -> StmtId {
        // Attributes written before a local declaration belong to the declaration (see
        // `Decl::Var` below).
        if matches!(&s.kind, ast::StmtKind::Decl(d) if matches!(&**d, Decl::Var(_))) {
            return self.m.add_stmt(Stmt { kind, attrs: Vec::new() }, s.span);
        }
        let attrs = self.raw_attrs(&s.attrs);
        self.vet_attrs(&s.attrs, crate::tast::AttrSite::Stmt);
        self.m.add_stmt(Stmt { kind, attrs }, s.span)
    }

    pub(crate) fn check_block(&mut self, b: &ast::Block) -> StmtId {
        self.locals.push(Default::default());
        let ids: Vec<StmtId> = b.stmts.iter().map(|s| self.check_stmt(s)).collect();
        self.locals.pop();
        self.m.add_stmt(Stmt { kind: StmtKind::Block(ids), attrs: Vec::new() }, b.span)
    }

    /// A statement in its own scope (loop and branch bodies).
    fn scoped(&mut self, s: &ast::Stmt) -> StmtId {
        self.locals.push(Default::default());
        let id = self.check_stmt(s);
        self.locals.pop();
        id
    }

    pub(crate) fn check_stmt(&mut self, s: &ast::Stmt) -> StmtId {
        if self.depth >= MAX_DEPTH {
            self.error(s.span, "statement nested too deeply");
            return self.push_stmt(StmtKind::Empty, s);
        }
        self.depth += 1;
        let r = self.check_stmt_inner(s);
        self.depth -= 1;
        r
    }

    fn check_stmt_inner(&mut self, s: &ast::Stmt) -> StmtId {
        let kind = match &s.kind {
            ast::StmtKind::Expr(e) => {
                let id = self.check_expr(e);
                let id = self.concretize(id);
                StmtKind::Expr(id)
            }
            ast::StmtKind::Decl(d) => match &**d {
                // `[[vk::aliased_pointer]] T p = ...;`: the attributes before the statement are
                // the declaration's.
                Decl::Var(v) if !s.attrs.is_empty() => {
                    let mut v = v.clone();
                    v.attrs.extend(s.attrs.iter().cloned());
                    StmtKind::Decl(self.check_var_decl(&v, false))
                }
                Decl::Var(v) => StmtKind::Decl(self.check_var_decl(v, false)),
                other => {
                    // Local structs, typedefs and enums: declared in the block scope.
                    self.check_local_type_decl(other);
                    StmtKind::Empty
                }
            },
            ast::StmtKind::Block(b) => return self.check_block(b),
            ast::StmtKind::If { cond, then, otherwise } => {
                let c = self.check_cond(cond);
                let t = self.scoped(then);
                let o = otherwise.as_ref().map(|o| self.scoped(o));
                StmtKind::If { cond: c, then: t, otherwise: o }
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.locals.push(Default::default());
                let i = init.as_ref().map(|i| self.check_stmt(i));
                let c = cond.as_ref().map(|c| self.check_cond(c));
                let st = step.as_ref().map(|e| {
                    let id = self.check_expr(e);
                    self.concretize(id)
                });
                let b = self.loop_body(body);
                self.locals.pop();
                StmtKind::For { init: i, cond: c, step: st, body: b }
            }
            ast::StmtKind::While { cond, body } => {
                self.locals.push(Default::default());
                let c = self.check_cond(cond);
                let b = self.loop_body(body);
                self.locals.pop();
                StmtKind::While { cond: c, body: b }
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let b = self.loop_body(body);
                let c = self.check_cond(cond);
                StmtKind::DoWhile { body: b, cond: c }
            }
            ast::StmtKind::Switch { cond, body } => {
                let c = self.check_expr(cond);
                let ct = self.ty_of(c);
                let c = match (self.m.types.component(ct), self.m.types.shape(ct)) {
                    (Some(k), Some(Shape::Scalar)) if k.is_int() || k.is_bool() => {
                        let t = if k.is_literal() || k.is_bool() { self.m.types.int() } else { self.m.types.scalar(k) };
                        self.coerce(c, t)
                    }
                    // DXC converts a floating-point condition to `int` (an fptosi).
                    (Some(k), Some(Shape::Scalar)) if k.is_float() => {
                        let t = self.m.types.int();
                        self.coerce(c, t)
                    }
                    _ if self.m.types.is_error(ct) => c,
                    _ => {
                        let n = self.type_name(ct);
                        self.error(cond.span, format!("statement requires expression of integer type ('{n}' invalid)"));
                        c
                    }
                };
                if let Some(f) = self.func.as_mut() {
                    f.switches += 1;
                }
                let b = self.scoped(body);
                if let Some(f) = self.func.as_mut() {
                    f.switches -= 1;
                }
                StmtKind::Switch { cond: c, body: b }
            }
            ast::StmtKind::Case(e) => {
                if self.func.as_ref().is_none_or(|f| f.switches == 0) {
                    self.error(s.span, "'case' statement not in switch statement");
                }
                let v = self.const_int_expr(e).unwrap_or(0);
                StmtKind::Case(v)
            }
            ast::StmtKind::Default => {
                if self.func.as_ref().is_none_or(|f| f.switches == 0) {
                    self.error(s.span, "'default' statement not in switch statement");
                }
                StmtKind::Default
            }
            ast::StmtKind::Break => {
                if self.func.as_ref().is_none_or(|f| f.loops == 0 && f.switches == 0) {
                    self.error(s.span, "'break' statement not in loop or switch statement");
                }
                StmtKind::Break
            }
            ast::StmtKind::Continue => {
                if self.func.as_ref().is_none_or(|f| f.loops == 0) {
                    self.error(s.span, "'continue' statement not in loop statement");
                }
                StmtKind::Continue
            }
            ast::StmtKind::Return(e) => {
                let ret = self.func.as_ref().map_or(TypeTable::VOID, |f| f.ret);
                let void = self.m.types.is_void(ret);
                match e {
                    Some(e) if void => {
                        let id = self.check_expr(e);
                        let t = self.ty_of(id);
                        if !self.m.types.is_void(t) && !self.m.types.is_error(t) {
                            self.error(e.span, "void function should not return a value");
                        }
                        StmtKind::Return(Some(id))
                    }
                    Some(e) => StmtKind::Return(Some(self.check_expr_to(e, ret))),
                    None if !void && !self.m.types.is_error(ret) => {
                        self.error(s.span, "non-void function should return a value");
                        StmtKind::Return(None)
                    }
                    None => StmtKind::Return(None),
                }
            }
            ast::StmtKind::Discard => StmtKind::Discard,
            ast::StmtKind::Empty => StmtKind::Empty,
            #[allow(unreachable_patterns)]
            _ => {
                self.error(s.span, "unsupported construct");
                StmtKind::Empty
            }
        };
        self.push_stmt(kind, s)
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> StmtId {
        if let Some(f) = self.func.as_mut() {
            f.loops += 1;
        }
        let b = self.scoped(body);
        if let Some(f) = self.func.as_mut() {
            f.loops -= 1;
        }
        b
    }

    fn check_local_type_decl(&mut self, d: &Decl) {
        match d {
            Decl::Struct(_) | Decl::Typedef(_) | Decl::Enum(_) | Decl::Using { .. } => self.check_top_decl(d),
            Decl::Empty(_) => {}
            Decl::Func(f) if f.body.is_none() && f.qualifier.is_empty() => {
                // A prototype in a block declares a function of the enclosing namespace (not of
                // an enclosing struct).
                let saved = self.ns.clone();
                while !self.ns.is_empty() && !matches!(self.globals.get(&self.ns.join("::")), Some(Symbol::Namespace)) {
                    self.ns.pop();
                }
                self.check_top_decl(d);
                self.ns = saved;
            }
            other => self.error(other.span(), "unsupported construct in a function body"),
        }
    }
}
