//! `[clipplanes(p0, ...)]` on a vertex-stage entry: each argument names a `float4` plane held in
//! a uniform (a global, a constant-buffer member, a field of one, or an element at a literal
//! index), as dxc requires. The arguments stay as typed expressions ([`AttrArg::Expr`]) for the
//! emitters.

use super::Checker;
use crate::tast::{AttrArg, ExprKind, Storage};
use crate::types::{ScalarKind, Type};
use hlslc_frontend::ast;

impl Checker<'_> {
    /// Checks one `clipplanes` argument.
    pub(crate) fn clip_plane_arg(&mut self, e: &ast::Expr) -> AttrArg {
        let id = self.check_expr(e);
        match self.clip_plane_shape(e, id) {
            Err(msg) => self.error(e.span, msg),
            Ok(()) => {
                let ty = self.ty_of(id);
                if !matches!(self.m.types.get(ty), Type::Vector(ScalarKind::Float, 4)) && ty != crate::types::TypeTable::ERROR {
                    let name = self.m.types.name(ty);
                    self.error(e.span, format!("clipplanes argument must be a float4 type but is '{name}'"));
                }
            }
        }
        AttrArg::Expr(id)
    }

    /// `Ok` when `e` (checked as `id`) is a global reference, a field access or a literal-index
    /// array element of one; otherwise dxc's message.
    fn clip_plane_shape(&self, e: &ast::Expr, id: crate::tast::ExprId) -> Result<(), &'static str> {
        const INVALID: &str = "invalid expression for clipplanes argument: must be global reference, member access or array subscript";
        match (&e.kind, &self.m.expr(id).kind) {
            (ast::ExprKind::Name(_), ExprKind::Var(v)) => {
                match self.m.vars[v.0 as usize].storage {
                    Storage::Uniform | Storage::CBufferMember { .. } => Ok(()),
                    _ => Err(INVALID),
                }
            }
            (ast::ExprKind::Member { base, .. }, ExprKind::Field { base: b, .. }) => self.clip_plane_shape(base, *b),
            (ast::ExprKind::Index { base, index }, ExprKind::Index { base: b, .. }) => {
                if !matches!(self.m.types.get(self.ty_of(*b)), Type::Array { .. }) {
                    return Err(INVALID);
                }
                if !matches!(index.kind, ast::ExprKind::IntLit { .. }) {
                    return Err("invalid expression for clipplanes argument array subscript: must be numeric literal");
                }
                self.clip_plane_shape(base, *b)
            }
            _ => Err(INVALID),
        }
    }
}
