//! Calls: user functions and methods (overload ranking), intrinsic functions and object
//! methods (resolved against the intrinsic table), argument passing for `out`/`inout`.

use super::clang_names::{clang_type_spelling, ordinal};
use super::conversions::{component_cast, implicit_cost};
use super::{Checker, Symbol};
use crate::intrinsics::{self, CallArg, Dir, ResolveError};
use crate::tast::{CastKind, ExprId, ExprKind, FuncId, ParamDir, Storage};
use crate::types::{ObjectKind, Type, TypeId};
use hlslc_frontend::ast::{self, TemplateArg};
use hlslc_frontend::Span;

impl Checker<'_> {
    pub(crate) fn check_call(
        &mut self,
        callee: &ast::Expr,
        targs: Option<&[TemplateArg]>,
        args: &[ast::Expr],
        span: Span,
    ) -> ExprId {
        match &callee.kind {
            ast::ExprKind::Member { base, name } => {
                let b = self.check_expr(base);
                let ids: Vec<ExprId> = args.iter().map(|a| self.check_expr(a)).collect();
                self.method_call(b, name, targs, &ids, span)
            }
            ast::ExprKind::Name(path) => {
                let ids: Vec<ExprId> = args.iter().map(|a| self.check_expr(a)).collect();
                let parts: Vec<&str> = path.parts.iter().map(|p| p.name.as_str()).collect();
                // Methods of the enclosing struct called without `this.`.
                if parts.len() == 1 {
                    if let Some(this_ty) = self.func.as_ref().and_then(|f| f.this_ty) {
                        let methods = self.struct_methods(this_ty, parts[0]);
                        if !methods.is_empty() {
                            let this = self.add(ExprKind::This, this_ty, true, span);
                            return self.user_call(&methods, Some(this), &ids, parts[0], span);
                        }
                    }
                }
                let tmpls = self.lookup_func_templates(&parts, path.global);
                if !tmpls.is_empty() {
                    let mut cands = match self.lookup(&parts, path.global) {
                        Some(Symbol::Funcs(fs)) if targs.is_none() => fs,
                        _ => Vec::new(),
                    };
                    if ids.iter().any(|&i| self.m.types.is_error(self.ty_of(i))) {
                        return self.error_expr(span);
                    }
                    // A template parameter is never deduced as a string (only `printf` takes one).
                    if ids.iter().any(|&i| matches!(self.m.types.get(self.ty_of(i)), Type::String)) {
                        self.error(span, "string literals parameters are not supported in HLSL");
                        return self.error_expr(span);
                    }
                    let tys: Vec<_> = ids.iter().map(|&i| self.ty_of(i)).collect();
                    let (inst, failed) = self.template_candidates(&tmpls, targs, &tys, span);
                    cands.extend(inst);
                    if cands.is_empty() && failed {
                        return self.error_expr(span);
                    }
                    if cands.is_empty() {
                        let tys: Vec<String> = tys.iter().map(|&t| self.type_name(t)).collect();
                        self.error(span, format!("no matching function for call to '{}' with arguments ({})", path.joined(), tys.join(", ")));
                        return self.error_expr(span);
                    }
                    return self.user_call(&cands, None, &ids, &path.joined(), span);
                }
                match self.lookup_path(path) {
                    // A user function named like an intrinsic overloads it: when none of the
                    // user's declarations takes these arguments, the intrinsic is called
                    // (`int abs(S s)` beside `abs(-1)`).
                    Some(Symbol::Funcs(fs))
                        if parts.len() > 1
                            || intrinsics::overloads("Intrinsics", parts[0]).is_empty()
                            || ids.iter().any(|&i| self.m.types.is_error(self.ty_of(i)))
                            || fs.iter().any(|&f| self.candidate_cost(f, &ids).is_some()) =>
                    {
                        return self.user_call(&fs, None, &ids, &path.joined(), span)
                    }
                    Some(Symbol::Funcs(_)) => {}
                    Some(Symbol::Var(v)) => {
                        let t = self.m.var(v).ty;
                        let obj = self.check_name(path, path.span);
                        if let Some(call) = self.overloaded_call_operator(obj, "operator()", &ids, span) {
                            return call;
                        }
                        let n = self.type_name(t);
                        self.error(span, format!("called object type '{n}' is not a function or function pointer"));
                        return self.error_expr(span);
                    }
                    _ => {}
                }
                let (group, name) = match parts.as_slice() {
                    [n] => ("Intrinsics", *n),
                    ["vk", n] => ("VkIntrinsics", *n),
                    ["dx", n] => ("DxIntrinsics", *n),
                    _ => ("", ""),
                };
                let cands = intrinsics::overloads(group, name);
                if cands.is_empty() {
                    self.error(path.span, format!("use of undeclared identifier '{}'", path.joined()));
                    return self.error_expr(span);
                }
                let func_t = self.func_template_arg(targs);
                let call = self.intrinsic_call(&cands, None, func_t, &ids, name, span);
                if group == "VkIntrinsics" && matches!(name, "static_pointer_cast" | "reinterpret_pointer_cast") {
                    return self.buffer_pointer_cast_call(call, name, func_t, targs, &ids, span);
                }
                call
            }
            _ => {
                for a in args {
                    self.check_expr(a);
                }
                self.error(callee.span, "called expression is not a function");
                self.error_expr(span)
            }
        }
    }

    /// `vk::static_pointer_cast<T, A>(p)` / `vk::reinterpret_pointer_cast<T, A>(p)`: a
    /// `vk::BufferPointer<T, A>` to the same address. A static cast goes from a struct to one of
    /// its bases only, and neither cast may claim a greater alignment than `p`'s (dxc's rules).
    fn buffer_pointer_cast_call(
        &mut self,
        call: ExprId,
        name: &str,
        func_t: Option<TypeId>,
        targs: Option<&[TemplateArg]>,
        ids: &[ExprId],
        span: Span,
    ) -> ExprId {
        let (Some(t), [arg]) = (func_t, ids) else { return call };
        if self.m.types.is_error(self.ty_of(call)) {
            return call;
        }
        let Type::Object { kind: ObjectKind::VkBufferPointer, elem: Some(from), count: from_align } = self.m.types.get(self.ty_of(*arg)).clone() else {
            let n = self.type_name(self.ty_of(*arg));
            self.error(span, format!("vk::{name}() argument must be a vk::BufferPointer, not '{n}'"));
            return self.error_expr(span);
        };
        let align = match targs.and_then(|a| a.get(1)) {
            Some(TemplateArg::Expr(e)) => match self.const_int_expr(e) {
                Some(v) if v > 0 && (v as u64).is_power_of_two() && v <= u32::MAX as i64 => Some(v as u32),
                _ => {
                    self.error(e.span, "the alignment of a vk::BufferPointer must be a constant power of two");
                    return self.error_expr(span);
                }
            },
            _ => None,
        };
        if let (Some(to), Some(from)) = (align, from_align) {
            if to > from {
                self.error(span, "Vulkan buffer pointer cannot be cast to greater alignment");
            }
        }
        if name == "static_pointer_cast" && !self.m.types.same_value_type(t, from) && !self.m.types.is_base_of(t, from) {
            self.error(span, "vk::static_pointer_cast() content type must be base class of argument's content type");
        }
        let ty = self.m.types.object(ObjectKind::VkBufferPointer, Some(t), align);
        self.m.exprs[call.0 as usize].ty = ty;
        call
    }

    fn func_template_arg(&mut self, targs: Option<&[TemplateArg]>) -> Option<TypeId> {
        match targs?.first()? {
            TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => Some(self.resolve_type(t)),
            TemplateArg::Expr(e) => {
                if let ast::ExprKind::Name(p) = &e.kind {
                    let ts = ast::TypeSpec { kind: ast::TypeKind::Named { path: p.clone(), args: None }, span: e.span };
                    return Some(self.resolve_type(&ts));
                }
                self.error(e.span, "expected a type");
                None
            }
        }
    }

    /// Methods named `name` of struct type `t`, or of its nearest base that has some: as in C++,
    /// a method declared in a derived struct hides every base method of the same name.
    pub(crate) fn struct_methods(&self, t: TypeId, name: &str) -> Vec<FuncId> {
        let mut level = vec![t];
        for _ in 0..64 {
            let mut out = Vec::new();
            let mut next = Vec::new();
            for &t in &level {
                if let Type::Struct(s) = self.m.types.get(t) {
                    let def = &self.m.types.structs[s.0 as usize];
                    out.extend(def.methods.iter().copied().filter(|f| self.m.func(*f).name == name));
                    next.extend(def.bases.iter().copied());
                }
            }
            if !out.is_empty() || next.is_empty() {
                return out;
            }
            level = next;
        }
        Vec::new()
    }

    fn method_call(&mut self, b: ExprId, name: &ast::Ident, targs: Option<&[TemplateArg]>, ids: &[ExprId], span: Span) -> ExprId {
        let bt = self.ty_of(b);
        if self.m.types.is_error(bt) {
            return self.error_expr(span);
        }
        let recv_ty = match self.m.types.get(bt) {
            Type::Object { kind: crate::types::ObjectKind::ConstantBuffer | crate::types::ObjectKind::TextureBuffer, elem: Some(e), .. } => *e,
            _ => bt,
        };
        let b = if recv_ty != bt { self.coerce(b, recv_ty) } else { b };
        let bt = recv_ty;
        match self.m.types.get(bt).clone() {
            Type::Struct(_) => {
                let methods = self.struct_methods(bt, &name.name);
                if methods.is_empty() {
                    let n = self.type_name(bt);
                    self.error(name.span, format!("no member named '{}' in '{}'", name.name, n));
                    return self.error_expr(span);
                }
                self.user_call(&methods, Some(b), ids, &name.name, span)
            }
            Type::Object { kind, .. } => {
                // `vk::BufferPointer<T>::Get()` is `GetBufferContents()` as a reference to the
                // pointee (an lvalue).
                let buffer_get = kind == ObjectKind::VkBufferPointer && name.name == "Get";
                let method = if buffer_get { "GetBufferContents" } else { name.name.as_str() };
                let mut cands = kind.method_namespace().map(|g| intrinsics::overloads(g, method)).unwrap_or_default();
                if kind.is_node_record() {
                    cands.extend(intrinsics::overloads("NodeRecordMethods", &name.name));
                }
                if cands.is_empty() {
                    let n = self.type_name(bt);
                    self.error(name.span, format!("no member named '{}' in '{}'", name.name, n));
                    return self.error_expr(span);
                }
                let func_t = self.func_template_arg(targs);
                let call = self.intrinsic_call(&cands, Some(b), func_t, ids, &name.name, span);
                if buffer_get || kind.is_writable_record() && name.name == "Get" {
                    // `out.Get().field = v`: the record is written in place.
                    self.m.exprs[call.0 as usize].lvalue = true;
                }
                call
            }
            _ => {
                let n = self.type_name(bt);
                self.error(name.span, format!("member reference base type '{n}' is not a structure or union"));
                self.error_expr(span)
            }
        }
    }

    fn intrinsic_call(
        &mut self,
        cands: &[&'static intrinsics::Overload],
        object: Option<ExprId>,
        func_t: Option<TypeId>,
        ids: &[ExprId],
        name: &str,
        span: Span,
    ) -> ExprId {
        if ids.iter().any(|&i| self.m.types.is_error(self.ty_of(i))) {
            return self.error_expr(span);
        }
        let args: Vec<CallArg> = ids.iter().map(|&i| CallArg { ty: self.ty_of(i), lvalue: self.m.expr(i).lvalue }).collect();
        let obj_ty = object.map(|o| self.ty_of(o));
        match intrinsics::resolve(&mut self.m.types, cands, &args, obj_ty, func_t) {
            Ok(r) => {
                let mut conv = Vec::with_capacity(ids.len());
                for (i, &id) in ids.iter().enumerate() {
                    let dir = match r.dirs[i] {
                        Dir::In | Dir::GroupShared => ParamDir::In,
                        Dir::Out => ParamDir::Out,
                        Dir::InOut | Dir::Ref => ParamDir::InOut,
                    };
                    conv.push(self.pass_arg(id, r.params[i], dir, r.dirs[i] == Dir::Ref));
                }
                self.add(ExprKind::Intrinsic { op: r.op, object, args: conv }, r.ret, false, span)
            }
            Err(ResolveError::ArgCount(counts)) => {
                let want = counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" or ");
                self.diags.push(
                    hlslc_frontend::Diagnostic::error(format!("no matching function for call to '{name}'"))
                        .at(span)
                        .with_note(format!("candidate function not viable: requires {want} arguments, but {} were provided", ids.len())),
                );
                self.error_expr(span)
            }
            Err(ResolveError::NoMatch(why)) => {
                let tys: Vec<String> = ids.iter().map(|&i| self.type_name(self.ty_of(i))).collect();
                let mut d = hlslc_frontend::Diagnostic::error(format!(
                    "no matching function for call to '{name}' with arguments ({})",
                    tys.join(", ")
                ))
                .at(span);
                // Free intrinsics: clang's note on the candidate DXC builds from the signature.
                if let Some(m) = why.filter(|_| object.is_none()) {
                    let from = self.arg_type_spelling(ids[m.arg]);
                    let to = clang_type_spelling(&self.m.types, m.param) + if m.by_ref { " &" } else { "" };
                    let note = format!(
                        "candidate function not viable: no known conversion from '{from}' to '{to}' for {} argument",
                        ordinal(m.arg + 1)
                    );
                    d = d.with_label(span, note);
                }
                self.diags.push(d);
                self.error_expr(span)
            }
        }
    }

    /// Converts one argument for a parameter of type `pty`: `in` arguments are converted;
    /// `out`/`inout` ones must be assignable lvalues, wrapped in [`ExprKind::OutArg`] when the
    /// types differ. `in_place` (intrinsic `ref`) requires the exact type.
    fn pass_arg(&mut self, id: ExprId, pty: TypeId, dir: ParamDir, in_place: bool) -> ExprId {
        if dir == ParamDir::In {
            return self.coerce(id, pty);
        }
        let span = self.m.expr_span(id);
        if !self.m.expr(id).lvalue {
            self.error(span, "cannot bind non-lvalue argument to out/inout parameter");
            return self.error_expr(span);
        }
        self.require_assignable(id, span);
        let at = self.ty_of(id);
        if self.m.types.same_value_type(at, pty) || in_place {
            return id;
        }
        let kinds = |c: &Self, from: TypeId, to: TypeId| -> Option<CastKind> {
            let (fk, tk) = (c.m.types.component(from)?, c.m.types.component(to)?);
            Some(component_cast(fk, tk).unwrap_or(CastKind::NoOp))
        };
        let from_param = kinds(self, pty, at).unwrap_or(CastKind::Flatten);
        let to_param = if dir == ParamDir::InOut { Some(kinds(self, at, pty).unwrap_or(CastKind::Flatten)) } else { None };
        self.add(ExprKind::OutArg { lvalue: id, to_param, from_param }, pty, true, span)
    }

    fn user_call(&mut self, cands: &[FuncId], this: Option<ExprId>, ids: &[ExprId], name: &str, span: Span) -> ExprId {
        if ids.iter().any(|&i| self.m.types.is_error(self.ty_of(i))) {
            return self.error_expr(span);
        }
        let mut best: Option<(u32, FuncId)> = None;
        let mut ambiguous = false;
        for &f in cands {
            let Some(cost) = self.candidate_cost(f, ids) else { continue };
            match best {
                Some((c, _)) if c < cost => {}
                Some((c, _)) if c == cost => ambiguous = true,
                _ => {
                    best = Some((cost, f));
                    ambiguous = false;
                }
            }
        }
        let Some((_, f)) = best else {
            let tys: Vec<String> = ids.iter().map(|&i| self.type_name(self.ty_of(i))).collect();
            self.error(span, format!("no matching function for call to '{name}' with arguments ({})", tys.join(", ")));
            return self.error_expr(span);
        };
        if ambiguous {
            self.error(span, format!("call to '{name}' is ambiguous"));
            return self.error_expr(span);
        }
        if let Some(cur) = self.func.as_ref().map(|c| c.id) {
            self.calls.push((cur, f));
        }
        let params = self.m.func(f).params.clone();
        let mut conv = Vec::with_capacity(params.len());
        for (i, &p) in params.iter().enumerate() {
            let (pty, storage) = (self.m.var(p).ty, self.m.var(p).storage);
            let dir = match storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            match ids.get(i) {
                Some(&a) => conv.push(self.pass_arg(a, pty, dir, false)),
                None => match self.m.var(p).init {
                    Some(d) => conv.push(d),
                    None => break,
                },
            }
        }
        let ret = self.m.func(f).ret;
        self.add(ExprKind::Call { func: f, this_arg: this, args: conv }, ret, false, span)
    }

    /// `l op r` with a struct on the left that declares `operatorOP` taking `r` (HLSL 2021
    /// operator overloading): the method call. `None` when no such method is viable, so the
    /// caller reports the invalid operands.
    pub(crate) fn overloaded_operator(&mut self, op: ast::BinaryOp, l: ExprId, r: ExprId, span: Span) -> Option<ExprId> {
        let lt = self.ty_of(l);
        if !matches!(self.m.types.get(lt), Type::Struct(_)) {
            return None;
        }
        let name = format!("operator{}", op.symbol());
        let cands = self.struct_methods(lt, &name);
        let rt = self.ty_of(r);
        let viable = cands.iter().any(|&f| {
            let params = &self.m.func(f).params;
            params.len() == 1 && implicit_cost(&self.m.types, rt, self.m.var(params[0]).ty).is_some()
        });
        viable.then(|| self.user_call(&cands, Some(l), &[r], &name, span))
    }

    /// `s[i]` or `s(args)` on a struct value that declares `operator[]` / `operator()` (HLSL
    /// 2021): the method call on `obj`. `None` when the struct declares no such operator.
    pub(crate) fn overloaded_call_operator(&mut self, obj: ExprId, name: &str, args: &[ExprId], span: Span) -> Option<ExprId> {
        let t = self.ty_of(obj);
        if !matches!(self.m.types.get(t), Type::Struct(_)) {
            return None;
        }
        let cands = self.struct_methods(t, name);
        if cands.is_empty() {
            return None;
        }
        Some(self.user_call(&cands, Some(obj), args, name, span))
    }

    /// The summed conversion cost of calling user function `f` with `ids`, or `None` when it is
    /// not viable (argument count, or an argument that does not convert).
    fn candidate_cost(&self, f: FuncId, ids: &[ExprId]) -> Option<u32> {
        let params = &self.m.func(f).params;
        if ids.len() > params.len() || ids.len() < self.required_params(f) {
            return None;
        }
        let mut cost = 0u32;
        for (&a, &p) in ids.iter().zip(params) {
            let (at, pv) = (self.ty_of(a), self.m.var(p));
            cost += match pv.storage {
                Storage::Param(ParamDir::Out) => implicit_cost(&self.m.types, pv.ty, at)?,
                Storage::Param(ParamDir::InOut) => {
                    implicit_cost(&self.m.types, at, pv.ty)?.max(implicit_cost(&self.m.types, pv.ty, at)?)
                }
                _ => implicit_cost(&self.m.types, at, pv.ty)?,
            };
        }
        Some(cost)
    }

    /// Parameters without a default value.
    fn required_params(&self, f: FuncId) -> usize {
        self.m.func(f).params.iter().take_while(|p| self.m.var(**p).init.is_none()).count()
    }
}
