//! Type specifiers: from the AST's written types to interned [`TypeId`]s.

use super::{Checker, Symbol};
use crate::types::{parse_builtin_name, BuiltinName, MatrixLayout, ObjectKind, ScalarKind, TemplateShape, Type, TypeId, TypeTable};
use hlslc_frontend::ast::{Expr, Modifier, ModifierAt, TemplateArg, TypeKind, TypeSpec};

impl Checker<'_> {
    /// The type a specifier names, with `row_major`/`column_major` from `mods` applied to
    /// matrices. Reports unknown names and bad template arguments; returns the error type then.
    pub(crate) fn resolve_type_mods(&mut self, ts: &TypeSpec, mods: &[ModifierAt]) -> TypeId {
        let t = self.resolve_type(ts);
        let layout = mods.iter().rev().find_map(|m| match m.modifier {
            Modifier::RowMajor => Some(MatrixLayout::RowMajor),
            Modifier::ColumnMajor => Some(MatrixLayout::ColumnMajor),
            _ => None,
        });
        match layout {
            Some(l) => self.with_layout(t, l),
            None => t,
        }
    }

    /// `t` with every matrix in it (through arrays) given layout `l`.
    pub(crate) fn with_layout(&mut self, t: TypeId, l: MatrixLayout) -> TypeId {
        match self.m.types.get(t).clone() {
            Type::Matrix { elem, rows, cols, .. } => self.m.types.matrix(elem, rows, cols, l),
            Type::Array { elem, len } => {
                let e = self.with_layout(elem, l);
                self.m.types.array(e, len)
            }
            _ => t,
        }
    }

    /// Wraps `t` in array dimensions written after a declarator (`a[2][3]`: outermost first).
    pub(crate) fn apply_dims(&mut self, mut t: TypeId, dims: &[Option<Expr>]) -> TypeId {
        for d in dims.iter().rev() {
            let len = match d {
                None => None,
                Some(e) => match self.const_int_expr(e) {
                    Some(n) if n > 0 && n <= u32::MAX as i64 => Some(n as u32),
                    Some(_) => {
                        self.error(e.span, "array dimension must be greater than zero");
                        return TypeTable::ERROR;
                    }
                    None => return TypeTable::ERROR,
                },
            };
            t = self.m.types.array(t, len);
        }
        t
    }

    pub(crate) fn resolve_type(&mut self, ts: &TypeSpec) -> TypeId {
        match &ts.kind {
            TypeKind::Struct(sd) => self.declare_struct(sd),
            TypeKind::Array { elem, dims } => {
                let e = self.resolve_type(elem);
                self.apply_dims(e, dims)
            }
            TypeKind::Named { path, args } => {
                let joined = path.joined();
                if let Some(t) = self.inline_spirv_type(&joined, args.as_deref(), ts) {
                    return t;
                }
                if let Some(b) = parse_builtin_name(&joined, self.opts.enable_16bit) {
                    return self.builtin_type(b, args.as_deref(), ts);
                }
                let parts: Vec<&str> = path.parts.iter().map(|p| p.name.as_str()).collect();
                match self.lookup_path(path) {
                    Some(Symbol::Type(t)) => {
                        if let (Some(a), Some(idx)) = (args.as_deref(), self.lookup_struct_template(&parts, path.global)) {
                            // `R<N + 1>` inside template `R`: the template, not this instance.
                            return self.instantiate_type(idx, Some(a), ts.span);
                        }
                        if args.is_some() {
                            self.error(ts.span, format!("'{joined}' is not a template (user templates are not supported yet)"));
                            return TypeTable::ERROR;
                        }
                        t
                    }
                    Some(Symbol::Template(idx)) => self.instantiate_type(idx, args.as_deref(), ts.span),
                    _ => {
                        self.error(path.span, format!("unknown type name '{joined}'"));
                        TypeTable::ERROR
                    }
                }
            }
            #[allow(unreachable_patterns)]
            _ => {
                self.error(ts.span, "unsupported construct");
                TypeTable::ERROR
            }
        }
    }

    pub(crate) fn type_arg(&mut self, a: &TemplateArg) -> Option<TypeId> {
        match a {
            TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => Some(self.resolve_type(t)),
            TemplateArg::Expr(e) => {
                // `Texture2D<S>` where the parser could not tell `S` was a type.
                if let hlslc_frontend::ast::ExprKind::Name(p) = &e.kind {
                    let parts: Vec<&str> = p.parts.iter().map(|x| x.name.as_str()).collect();
                    if let Some(Symbol::Type(t)) = self.lookup(&parts, p.global) {
                        return Some(t);
                    }
                    if let Some(b) = parse_builtin_name(&p.joined(), self.opts.enable_16bit) {
                        let ts = TypeSpec { kind: TypeKind::Named { path: p.clone(), args: None }, span: e.span };
                        return Some(self.builtin_type(b, None, &ts));
                    }
                }
                self.error(e.span, "expected a type");
                None
            }
        }
    }

    pub(crate) fn count_arg(&mut self, a: &TemplateArg) -> Option<i64> {
        match a {
            TemplateArg::Expr(e) => self.const_int_expr(e),
            TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => {
                self.error(t.span, "expected a constant expression");
                None
            }
        }
    }

    fn builtin_type(&mut self, b: BuiltinName, args: Option<&[TemplateArg]>, ts: &TypeSpec) -> TypeId {
        let layout = self.default_layout;
        match b {
            BuiltinName::Void => TypeTable::VOID,
            BuiltinName::String => self.m.types.intern(Type::String),
            BuiltinName::Scalar(k) => self.m.types.scalar(k),
            BuiltinName::Vector(k, n) => self.m.types.vector(k, n),
            BuiltinName::Matrix(k, r, c) => self.m.types.matrix(k, r, c, layout),
            BuiltinName::VectorTemplate | BuiltinName::MatrixTemplate => {
                let is_vec = b == BuiltinName::VectorTemplate;
                let Some(args) = args else {
                    return if is_vec {
                        self.m.types.vector(ScalarKind::Float, 4)
                    } else {
                        self.m.types.matrix(ScalarKind::Float, 4, 4, layout)
                    };
                };
                let want = if is_vec { 2 } else { 3 };
                if args.len() != want {
                    self.error(ts.span, format!("'{}' takes {} template arguments", if is_vec { "vector" } else { "matrix" }, want));
                    return TypeTable::ERROR;
                }
                let Some(elem) = self.type_arg(&args[0]) else { return TypeTable::ERROR };
                let Some(k) = (match self.m.types.get(elem) {
                    Type::Scalar(k) => Some(*k),
                    Type::Error => return TypeTable::ERROR,
                    _ => None,
                }) else {
                    let n = self.type_name(elem);
                    self.error(ts.span, format!("'{n}' cannot be used as a type parameter where a scalar is required"));
                    return TypeTable::ERROR;
                };
                let mut dims = Vec::new();
                for a in &args[1..] {
                    match self.count_arg(a) {
                        Some(n) if (1..=4).contains(&n) => dims.push(n as u8),
                        Some(n) => {
                            let what = if is_vec { "vector" } else { "matrix" };
                            self.error(ts.span, format!("invalid value, valid range is between 1 and 4 inclusive ({what} size {n})"));
                            return TypeTable::ERROR;
                        }
                        None => return TypeTable::ERROR,
                    }
                }
                if is_vec {
                    self.m.types.vector(k, dims[0])
                } else {
                    self.m.types.matrix(k, dims[0], dims[1], layout)
                }
            }
            BuiltinName::Object(kind) => self.object_type(kind, args, ts),
        }
    }

    fn object_type(&mut self, kind: ObjectKind, args: Option<&[TemplateArg]>, ts: &TypeSpec) -> TypeId {
        let args = args.unwrap_or(&[]);
        let float4 = self.m.types.vector(ScalarKind::Float, 4);
        let (mut elem, mut count) = (None, None);
        let shape = kind.template_shape();
        let max = match shape {
            TemplateShape::None => 0,
            TemplateShape::TypeDefaultFloat4 | TemplateShape::Type | TemplateShape::Count => 1,
            TemplateShape::TypeAndOptionalCount | TemplateShape::TypeAndCount => 2,
        };
        if args.len() > max {
            self.error(ts.span, format!("too many template arguments for '{}'", kind.name()));
            return TypeTable::ERROR;
        }
        match shape {
            TemplateShape::None => {}
            TemplateShape::Count => {
                if let Some(a) = args.first() {
                    count = Some(self.count_arg(a).unwrap_or(0).max(0) as u32);
                }
            }
            _ => {
                elem = match args.first() {
                    Some(a) => Some(self.type_arg(a).unwrap_or(TypeTable::ERROR)),
                    None if matches!(shape, TemplateShape::Type | TemplateShape::TypeAndCount) => {
                        self.error(ts.span, format!("use of class template '{}' requires template arguments", kind.name()));
                        return TypeTable::ERROR;
                    }
                    None => Some(float4),
                };
                if let Some(a) = args.get(1) {
                    let n = self.count_arg(a);
                    if n == Some(0) && matches!(kind, ObjectKind::InputPatch | ObjectKind::OutputPatch) {
                        self.error(ts.span, format!("{} element count must be greater than 0", kind.name()));
                        return TypeTable::ERROR;
                    }
                    count = Some(n.unwrap_or(0).max(0) as u32);
                } else if shape == TemplateShape::TypeAndCount {
                    self.error(ts.span, format!("'{}' requires a count template argument", kind.name()));
                    return TypeTable::ERROR;
                }
            }
        }
        if let Some(e) = elem {
            if self.m.types.is_error(e) {
                return TypeTable::ERROR;
            }
            let is_tex = kind.is_texture() || kind.index_dims() == Some(1) && shape == TemplateShape::TypeDefaultFloat4;
            if is_tex && !self.m.types.is_numeric(e) {
                let n = self.type_name(e);
                self.error(ts.span, format!("elements of typed buffers and textures must be scalars or vectors ('{n}' given)"));
                return TypeTable::ERROR;
            }
        }
        self.m.types.object(kind, elem, count)
    }

    /// Folds an AST expression that must be an integer constant (array sizes, template counts),
    /// reporting when it is not.
    pub(crate) fn const_int_expr(&mut self, e: &Expr) -> Option<i64> {
        let saved = self.diags.list.len();
        let id = self.check_expr(e);
        if self.diags.list.len() > saved && self.diags.list[saved..].iter().any(|d| d.is_error()) {
            return None;
        }
        match self.const_tree_value(id, 0) {
            Some(v) => match v {
                crate::tast::ConstValue::Int(i) => Some(i),
                crate::tast::ConstValue::Bool(b) => Some(b as i64),
                crate::tast::ConstValue::Float(f) => Some(f as i64),
            },
            None => {
                self.error(e.span, "expression is not an integer constant expression");
                None
            }
        }
    }
}
