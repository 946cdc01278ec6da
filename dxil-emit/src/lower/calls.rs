//! `[noinline]` functions: dxc keeps them as LLVM functions and calls them, in stage targets as
//! in libraries (DXIL.rst, "Functions": parameters by value or by reference).
//!
//! A `[noinline]` free function with a body is defined once, `internal`, with its mangled name
//! (`\01?twice@@YAXAIAH@Z`), on its first call, and lowered after the function that called it
//! ([`lower_kept`]). Scalars and vectors go by value; an `out`/`inout` scalar or vector is a
//! pointer to the value: the caller passes an `alloca` (at the top of its entry block), stores
//! an `inout` argument in it before the call and writes what it holds back to the argument
//! after. Its attributes are `noinline nounwind` and, from its body, `readnone`/`readonly`.
//!
//! Refused with a message: a `[noinline]` method, a parameter or result that dxc passes by
//! pointer (structs, arrays, matrices, objects: the signature of [`library`]), an `out`/`inout`
//! bool, and a `[noinline]` function that reads or writes a static global (the entry's statics
//! are SSA values, so the callee cannot see them).

use super::library::{self, lower_export, value_type};
use super::resources::ResState;
use super::{unsupported, Flat, Lowerer, LowerOptions, R};
use crate::ir;
use crate::ops::Target;
use hlslc_sema::tast::{self, ExprId, ExprKind, FuncId, ParamDir, Storage};
use hlslc_sema::types::Type;
use std::collections::VecDeque;

/// `true` for a function that has `[noinline]`.
pub(crate) fn is_noinline(f: &tast::Function) -> bool {
    f.attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("noinline"))
}

/// Lowers the `[noinline]` functions declared by calls (`pending`) and those their bodies call,
/// threading the resources through; returns the resources used in the end.
pub(crate) fn lower_kept(
    module: &tast::Module,
    m: &mut ir::Module,
    options: &LowerOptions,
    target: Target,
    pending: Vec<(FuncId, ir::FuncId)>,
    mut res: ResState,
) -> R<ResState> {
    let mut queue: VecDeque<(FuncId, ir::FuncId)> = pending.into();
    while let Some((f, id)) = queue.pop_front() {
        if m.function(id).body.is_some() {
            continue;
        }
        let more;
        (res, more) = lower_export(module, m, f, id, options, target, res, true)?;
        queue.extend(more);
    }
    Ok(res)
}

impl Lowerer<'_> {
    /// A static global read or written in a `[noinline]` function: refused (see the module
    /// comment).
    pub(crate) fn check_kept_static(&self, v: tast::VarId, e: ExprId) -> R<()> {
        let var = self.t.var(v);
        if self.in_kept && var.storage == Storage::Static && var.const_value.is_none() {
            let f = self.t.func(self.entry_func);
            return unsupported(format!("the [noinline] function `{}` using the static global `{}`", f.name, var.name), self.span(e));
        }
        Ok(())
    }

    /// A call to `[noinline]` function `func`: a `call` of its definition (see the module
    /// comment).
    pub(crate) fn kept_call(&mut self, func: FuncId, this_arg: Option<ExprId>, args: &[ExprId], e: ExprId) -> R<Flat> {
        let t = self.t;
        let f = t.func(func);
        let span = self.span(e);
        if this_arg.is_some() || f.this_type.is_some() {
            return unsupported(format!("the [noinline] method `{}`", f.name), span);
        }
        let (name, fty, names) = library::export_signature(t, self.b.module, func, "[noinline] function")?;
        let id = match self.b.module.lookup_function(&name) {
            Some(id) => id,
            None => {
                let linkage = ir::Linkage::Internal;
                let id = self.b.module.add_function(ir::Function { name, ty: fty, linkage, attrs: None, arg_names: names, body: None });
                self.kept_calls.push((func, id));
                id
            }
        };
        let mut values = Vec::new();
        let mut outs = Vec::new();
        for (&p, &a) in f.params.iter().zip(args) {
            let ty = t.var(p).ty;
            let dir = match t.var(p).storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            if dir == ParamDir::In {
                let flat = self.expr(a)?;
                values.push(self.packed(ty, &flat));
                continue;
            }
            let Some(vty) = value_type(t, self.b.module, ty) else {
                return unsupported(format!("the parameter `{}` of the [noinline] function `{}`", t.var(p).name, f.name), span);
            };
            let ptr = self.b.alloca(vty, 4);
            self.hoist(ptr);
            if dir == ParamDir::InOut {
                let flat = self.expr(a)?;
                let v = self.packed(ty, &flat);
                self.b.store(v, ptr, 4);
            }
            values.push(ptr);
            outs.push((p, ptr, a));
        }
        let r = self.b.call(id, values);
        for (p, ptr, a) in outs {
            let v = self.b.load(ptr, 4);
            let v = self.unpacked(t.var(p).ty, v);
            let (target, v) = match &t.expr(a).kind {
                ExprKind::OutArg { lvalue, from_param, .. } => {
                    let conv = self.cast_values(*from_param, v, t.var(p).ty, t.expr(*lvalue).ty, span)?;
                    (*lvalue, conv)
                }
                _ => (a, v),
            };
            let place = self.place(target)?;
            self.store_place(&place, &v, span)?;
        }
        Ok(match t.types.get(f.ret) {
            Type::Void => Vec::new(),
            _ => self.unpacked(f.ret, r),
        })
    }

    /// A scalar or vector value from its components.
    fn packed(&mut self, ty: hlslc_sema::types::TypeId, flat: &[ir::Value]) -> ir::Value {
        match self.t.types.get(ty) {
            Type::Vector(k, _) => self.build_vector(*k, flat),
            _ => flat.first().copied().unwrap_or_else(|| self.undef_i32()),
        }
    }

    /// The components of a scalar or vector value.
    fn unpacked(&mut self, ty: hlslc_sema::types::TypeId, v: ir::Value) -> Flat {
        match self.t.types.get(ty) {
            Type::Vector(_, n) => (0..*n)
                .map(|c| {
                    let idx = self.ci32(i32::from(c));
                    self.b.extract_element(v, idx)
                })
                .collect(),
            _ => vec![v],
        }
    }
}
