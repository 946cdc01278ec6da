//! Expressions: rvalues (SSA values in logical form) and lvalues ([`Place`]s).

use super::layout::Layout;
use super::place::Place;
use super::types::Shape;
use super::{unsupported, Lowerer, VarHome, R};
use crate::id::SpvId;
use hlslc_frontend::ast::{BinaryOp, UnaryOp};
use hlslc_sema::tast::{ConstValue, ExprId, ExprKind, Storage};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use spirv::{Op, StorageClass};

impl<'m> Lowerer<'m> {
    pub(crate) fn rvalue(&mut self, e: ExprId) -> R<SpvId> {
        let m = self.m;
        let expr = m.expr(e);
        let ty = expr.ty;
        if let Some(c) = self.fold_constant(e)? {
            return Ok(c);
        }
        if let Some(c) = self.spec_expr(e)? {
            return Ok(c);
        }
        let v = match &expr.kind {
            ExprKind::Const(c) => self.constant(ty, *c)?,
            ExprKind::Var(v) if self.is_push_constant_struct(*v) => self.load_push_constant_struct(*v)?,
            // A parameter this copy of the function binds to a constant (`BoundParam::konst`).
            ExprKind::Var(v) if self.const_params.contains_key(v) => match self.vars.get(v) {
                Some(VarHome::Value(id)) => *id,
                _ => return unsupported("this parameter bound to a constant", self.expr_span(e)),
            },
            ExprKind::Var(_) | ExprKind::This => {
                let p = self.lvalue(e)?;
                self.load(&p)?
            }
            ExprKind::Binary { op: BinaryOp::Comma, rhs, lhs } | ExprKind::Comma { lhs, rhs } => {
                self.effect(*lhs)?;
                self.rvalue(*rhs)?
            }
            ExprKind::Binary { op: op @ (BinaryOp::LogAnd | BinaryOp::LogOr), lhs, rhs } if self.short_circuits(*lhs) => {
                self.short_circuit(*op == BinaryOp::LogAnd, *lhs, *rhs)?
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let a = self.rvalue(*lhs)?;
                let b = self.rvalue(*rhs)?;
                let oty = m.expr(*lhs).ty;
                self.binary(*op, oty, ty, a, b, Some(e))?
            }
            ExprKind::Assign { op: None, lhs, rhs }
                if (self.holds_resources(m.expr(*lhs).ty) || self.is_res_struct(m.expr(*lhs).ty)) && self.res_assign(*lhs, *rhs)? =>
            {
                return Ok(SpvId(0));
            }
            ExprKind::Assign { op: None, lhs, rhs } if self.resource_local_of(*lhs).is_some() => {
                let v = self.resource_local_of(*lhs).expect("checked");
                self.assign_resource_local(v, *rhs, e)?;
                return Ok(SpvId(0));
            }
            // A plain assignment gives the value stored; a compound one (like `++x`) gives its
            // place, which DXC reads again when the result is used as a value.
            ExprKind::Assign { op: None, .. } => self.modify(e)?.1,
            ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. }
            | ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec, .. } => {
                let (place, v) = self.modify(e)?;
                self.reread(&place, v)?
            }
            ExprKind::Unary { op, operand } => self.unary(*op, *operand, ty)?,
            ExprKind::Ternary { cond, then, otherwise } => self.ternary(*cond, *then, *otherwise, ty)?,
            ExprKind::Cast { kind, expr: inner, .. } => {
                let v = self.rvalue(*inner)?;
                let from = m.expr(*inner).ty;
                self.cast(*kind, v, from, ty, e)?
            }
            ExprKind::Construct { args } => {
                let mut queue = Vec::new();
                for &a in args {
                    queue.push(super::cast::Part::Value(self.rvalue(a)?, m.expr(a).ty));
                }
                // `float2(0.5, 0.25)`: a vector constructor of scalar constants is a constant, as
                // DXC folds it (initializer lists are not folded).
                if let Type::Vector(k, n) = *m.types.get(ty) {
                    let scalar_consts: Vec<SpvId> = queue
                        .iter()
                        .filter_map(|p| match p {
                            super::cast::Part::Value(v, t)
                                if *m.types.get(*t) == Type::Scalar(k) && self.b.ctx.is_constant(*v) =>
                            {
                                Some(*v)
                            }
                            _ => None,
                        })
                        .collect();
                    if n > 1 && scalar_consts.len() == n as usize && args.len() == n as usize {
                        let tyid = self.ty(ty, Layout::Logical)?;
                        return Ok(self.b.ctx.const_composite(tyid, &scalar_consts));
                    }
                }
                queue.reverse();
                self.build_from(ty, &mut queue, e)?
            }
            ExprKind::Call { func, args, .. } if self.is_inline_instruction(*func) => self.inline_instruction(*func, args, ty, e)?,
            ExprKind::Call { func, .. } if self.is_type_def(*func) => self.type_def_call(*func, e)?,
            // A call returning a resource (`getSampler(i)` as a sampler argument): the call, then a
            // load of the resource it returns (known at compile time, `resvalue.rs`); the call's
            // own result is void.
            ExprKind::Call { .. } if self.holds_resources(ty) && matches!(m.types.get(ty), Type::Object { .. }) => {
                let p = self.lvalue(e)?;
                self.load(&p)?
            }
            ExprKind::Call { func, this_arg, args } => self.call(*func, *this_arg, args, ty)?,
            ExprKind::Intrinsic { op: hlslc_sema::intrinsics::IntrinsicOp::MethodGetBufferContents, object: Some(obj), .. } => {
                let p = self.buffer_pointer_place(*obj, ty)?;
                self.load(&p)?
            }
            ExprKind::Intrinsic { op, object, args } => self.intrinsic(*op, *object, args, ty, e)?,
            ExprKind::Index { base, index } if self.is_resource_expr(*base) => match self.texture_subscript(*base, *index, ty, e)? {
                Some(v) => v,
                None => {
                    let p = self.lvalue(e)?;
                    self.load(&p)?
                }
            },
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. }
            | ExprKind::Index { base, .. } => {
                if m.expr(*base).lvalue || self.is_resource_expr(*base) || self.is_patch_element(*base) {
                    match self.lvalue(e) {
                        Ok(p) => self.load(&p)?,
                        Err(err) => return self.rvalue_of_value_access(e).or(Err(err)),
                    }
                } else {
                    self.rvalue_of_value_access(e)?
                }
            }
            ExprKind::OutArg { lvalue, .. } => self.rvalue(*lvalue)?,
            ExprKind::Str(_) => return unsupported("string literals", self.expr_span(e)),
            ExprKind::TexelAt { texture, sample, level, coord } => self.texel_at(*texture, *sample, *level, *coord, ty)?,
            ExprKind::HeapIndex { .. } => {
                let p = self.lvalue(e)?;
                self.load(&p)?
            }
        };
        self.relax(v, ty);
        Ok(v)
    }

    /// `patch[i]` of an `InputPatch` / `OutputPatch` in memory: a read-only element that DXC
    /// reaches through an access chain, like an lvalue.
    fn is_patch_element(&self, e: ExprId) -> bool {
        let m = self.m;
        match m.expr(e).kind {
            ExprKind::Index { base, .. } => {
                m.expr(base).lvalue
                    && matches!(m.types.get(m.expr(base).ty), Type::Object { kind: ObjectKind::InputPatch | ObjectKind::OutputPatch, .. })
            }
            _ => false,
        }
    }

    /// Field/swizzle/index on a value that is not in memory.
    fn rvalue_of_value_access(&mut self, e: ExprId) -> R<SpvId> {
        let m = self.m;
        let ty = m.expr(e).ty;
        match &m.expr(e).kind {
            ExprKind::Field { base, index, via_base } => {
                let mut v = self.rvalue(*base)?;
                let mut cur = m.expr(*base).ty;
                for &step in via_base {
                    let (bty, _) = self.struct_member(cur, step, true);
                    let sty = self.ty(bty, Layout::Logical)?;
                    v = self.b.composite_extract(sty, v, &[step])?;
                    cur = bty;
                }
                let (_, idx) = self.struct_member(cur, *index, false);
                let fty = self.ty(ty, Layout::Logical)?;
                Ok(self.b.composite_extract(fty, v, &[idx])?)
            }
            ExprKind::Swizzle { base, components } => {
                let v = self.rvalue(*base)?;
                self.swizzle_value(v, m.expr(*base).ty, components, ty)
            }
            ExprKind::MatrixSwizzle { base, elements } => {
                let v = self.rvalue(*base)?;
                let bty = m.expr(*base).ty;
                self.matrix_elements(v, bty, elements, ty)
            }
            ExprKind::Index { base, index } => {
                let v = self.rvalue(*base)?;
                let bty = m.expr(*base).ty;
                let rty = self.ty(ty, Layout::Logical)?;
                if matches!(self.m.types.get(bty), Type::Scalar(_) | Type::Vector(_, 1) | Type::Matrix { rows: 1, .. }) {
                    self.rvalue(*index)?;
                    return Ok(v);
                }
                if let Some(i) = self.const_index(*index) {
                    return Ok(self.b.composite_extract(rty, v, &[i])?);
                }
                let idx = self.rvalue(*index)?;
                if let Type::Vector(..) = m.types.get(bty) {
                    return Ok(self.b.value(Op::VectorExtractDynamic, rty, vec![
                        rspirv::dr::Operand::IdRef(v.0),
                        rspirv::dr::Operand::IdRef(idx.0),
                    ])?);
                }
                // Dynamic index into a composite value: spill it to a temporary.
                let tmp = self.temp_var(bty, "temp.var")?;
                self.b.store(tmp, v, None)?;
                let place = Place::Ptr { ptr: tmp, sc: StorageClass::Function, layout: Layout::Logical, ty: bty };
                let p = self.chain(&place, &[idx], ty)?;
                self.load(&p)
            }
            _ => unsupported("this expression", self.expr_span(e)),
        }
    }

    /// An expression evaluated for its side effects only (an expression statement, a `for`
    /// step, the left of a comma): a compound assignment or `++x` then writes its place
    /// without reading it back, as DXC does.
    pub(crate) fn effect(&mut self, e: ExprId) -> R<()> {
        match &self.m.expr(e).kind {
            ExprKind::Assign { op: Some(_), .. }
            | ExprKind::CompoundAssign { .. }
            | ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec, .. } => {
                self.modify(e)?;
            }
            ExprKind::Binary { op: BinaryOp::Comma, lhs, rhs } | ExprKind::Comma { lhs, rhs } => {
                let (lhs, rhs) = (*lhs, *rhs);
                self.effect(lhs)?;
                self.effect(rhs)?;
            }
            _ => {
                self.rvalue(e)?;
            }
        }
        Ok(())
    }

    /// An assignment (plain or compound) or a prefix `++`/`--`: writes the value and gives
    /// the place written with the value stored in it. In HLSL, as in C++, the result of all
    /// but a plain assignment is an lvalue (`++a = b;`, `f(--x)` for an `inout` parameter).
    fn modify(&mut self, e: ExprId) -> R<(Place, SpvId)> {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Assign { op, lhs, rhs } => {
                // DXC evaluates the right side first, plain or compound.
                let r = self.rvalue(*rhs)?;
                let place = self.lvalue(*lhs)?;
                let v = match op {
                    None => r,
                    Some(op) => {
                        let old = self.load(&place)?;
                        self.binary(*op, place.ty(), place.ty(), old, r, Some(e))?
                    }
                };
                self.store(&place, v)?;
                Ok((place, v))
            }
            ExprKind::CompoundAssign { op, lhs, rhs, to_op, from_op } => {
                let r = self.rvalue(*rhs)?;
                let place = self.lvalue(*lhs)?;
                let op_ty = m.expr(*rhs).ty;
                let old = self.load(&place)?;
                let old = self.cast(*to_op, old, place.ty(), op_ty, e)?;
                let v = self.binary(*op, op_ty, op_ty, old, r, Some(e))?;
                let v = self.cast(*from_op, v, op_ty, place.ty(), e)?;
                self.store(&place, v)?;
                Ok((place, v))
            }
            ExprKind::Unary { op, operand } => {
                let ty = m.expr(*operand).ty;
                let Some(shape) = self.shape(ty) else {
                    return unsupported("this unary operator's operand type", self.expr_span(*operand));
                };
                let place = self.lvalue(*operand)?;
                let old = self.load(&place)?;
                let one = if shape.kind.is_float() { ConstValue::Float(1.0) } else { ConstValue::Int(1) };
                let bop = if *op == UnaryOp::PreInc { BinaryOp::Add } else { BinaryOp::Sub };
                let new = if shape.is_matrix() {
                    // Row by row with a row of ones, as DXC does (no matrix constant).
                    let s = self.scalar_const(shape.kind, one)?;
                    let row = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
                    let ones = self.b.ctx.const_composite(row, &vec![s; shape.cols as usize]);
                    let spv = if shape.kind.is_float() { Op::FAdd } else { Op::IAdd };
                    let spv = match (bop, spv) {
                        (BinaryOp::Sub, Op::FAdd) => Op::FSub,
                        (BinaryOp::Sub, _) => Op::ISub,
                        (_, spv) => spv,
                    };
                    let mut rows = Vec::new();
                    for r in 0..shape.rows {
                        let x = self.b.composite_extract(row, old, &[r])?;
                        rows.push(self.b.binary(spv, row, x, ones)?);
                    }
                    let tyid = self.ty(ty, Layout::Logical)?;
                    self.b.composite_construct(tyid, &rows)?
                } else {
                    let one = self.constant(ty, one)?;
                    self.binary(bop, ty, ty, old, one, None)?
                };
                self.store(&place, new)?;
                Ok((place, new))
            }
            _ => unsupported("assigning to this expression", self.expr_span(e)),
        }
    }

    /// The value of a place just written with `v`, used as a value: read again from memory
    /// (DXC's load of the lvalue), or `v` itself where the place is not a plain pointer (a
    /// texel, a swizzle).
    fn reread(&mut self, place: &Place, v: SpvId) -> R<SpvId> {
        match place {
            Place::Ptr { .. } => self.load(place),
            _ => Ok(v),
        }
    }

    /// The place an lvalue expression designates.
    pub(crate) fn lvalue(&mut self, e: ExprId) -> R<Place> {
        let m = self.m;
        let expr = m.expr(e);
        let ty = expr.ty;
        match &expr.kind {
            ExprKind::Var(v) => {
                let var = m.var(*v);
                if let Some(node) = self.mesh_outs.get(v).cloned() {
                    return self.mesh_place(&node, None, var.ty);
                }
                match self.vars.get(v).cloned() {
                    Some(VarHome::Ptr { ptr, storage, layout }) => Ok(Place::Ptr { ptr, sc: storage, layout, ty: var.ty }),
                    Some(VarHome::Alias(init)) if !m.expr(init).lvalue && self.holds_resources(var.ty) => self.res_member_place(e),
                    Some(VarHome::Alias(init)) => self.alias_place(*v, init),
                    Some(VarHome::Res(val)) => self.res_place(val, var.ty, &var.name, e),
                    Some(VarHome::Value(_)) => unsupported(format!("the specialization constant '{}' as an lvalue", var.name), self.expr_span(e)),
                    Some(VarHome::CBufferMember { buffer, index }) => {
                        let (layout, sc) = match var.storage {
                            Storage::CBufferMember { cbuffer, .. } if m.cbuffers[cbuffer.0 as usize].is_tbuffer => {
                                (Layout::Std430, self.storage_block().0)
                            }
                            Storage::CBufferMember { cbuffer, .. } if m.cbuffers[cbuffer.0 as usize].binding.vk_shader_record => {
                                (Layout::Std430, StorageClass::ShaderRecordBufferKHR)
                            }
                            _ => (Layout::Std140, StorageClass::Uniform),
                        };
                        let pty = self.ptr_ty(var.ty, layout, sc)?;
                        let idx = self.b.ctx.const_i32(index as i32);
                        let p = self.b.access_chain(pty, buffer, &[idx])?;
                        Ok(Place::Ptr { ptr: p, sc, layout, ty: var.ty })
                    }
                    None => unsupported(format!("the variable '{}' here", var.name), self.expr_span(e)),
                }
            }
            ExprKind::This => match self.this_ptr {
                Some(ptr) => Ok(Place::Ptr { ptr, sc: StorageClass::Function, layout: Layout::Logical, ty }),
                None => unsupported("'this' outside a method", self.expr_span(e)),
            },
            // A member of a struct of resources: the resource it designates.
            ExprKind::Field { base, .. } if self.is_res_struct(m.expr(*base).ty) => self.res_member_place(e),
            ExprKind::Field { base, index, via_base } => self.field_place(*base, *index, via_base, ty, None),
            ExprKind::Swizzle { base, components } => {
                let bty = m.expr(*base).ty;
                if let (1, ExprKind::Index { base: array, index }) = (components.len(), &m.expr(*base).kind) {
                    if matches!(m.expr(*array).kind, ExprKind::Var(v) if m.var(v).interpolation.per_vertex) && matches!(m.types.get(bty), Type::Vector(..)) {
                        // A component of a per-vertex parameter (`c.y`, `pervertex.rs`): one
                        // access chain, vertex and component, as DXC writes it.
                        let place = self.lvalue(*array)?;
                        let vertex = self.rvalue(*index)?;
                        let comp = self.b.ctx.const_i32(components[0] as i32);
                        return self.chain(&place, &[vertex, comp], ty);
                    }
                }
                let place = self.lvalue(*base)?;
                let scalar = matches!(m.types.get(bty), Type::Scalar(_) | Type::Vector(_, 1));
                if scalar && components.len() == 1 {
                    return Ok(place);
                }
                if components.len() == 1 && matches!(place, Place::Ptr { .. }) {
                    let idx = self.b.ctx.const_i32(components[0] as i32);
                    return self.chain(&place, &[idx], ty);
                }
                Ok(Place::Swizzle { base: Box::new(place), comps: components.clone(), ty })
            }
            ExprKind::MatrixSwizzle { base, elements } => {
                let place = self.lvalue(*base)?;
                let bty = m.expr(*base).ty;
                let Some(shape) = self.shape(bty) else {
                    return unsupported("this matrix swizzle", self.expr_span(e));
                };
                let paths: Vec<Vec<u32>> = elements.iter().map(|&(r, c)| matrix_element_path(shape, r, c)).collect();
                if paths.len() == 1 && matches!(place, Place::Ptr { .. }) {
                    if paths[0].is_empty() {
                        return Ok(place);
                    }
                    let idx: Vec<SpvId> = paths[0].iter().map(|&i| self.b.ctx.const_u32(i)).collect();
                    return self.chain(&place, &idx, ty);
                }
                Ok(Place::Elements { base: Box::new(place), paths, ty })
            }
            ExprKind::Index { base, .. } if self.is_res_array(m.expr(*base).ty) && self.res_held(*base) => self.res_member_place(e),
            ExprKind::Call { .. } if self.holds_resources(ty) => self.res_member_place(e),
            ExprKind::Index { base, index } => self.index_place(*base, *index, ty, e),
            ExprKind::HeapIndex { sampler, index } => self.heap_place(*sampler, *index, ty, e),
            ExprKind::Intrinsic { op: hlslc_sema::intrinsics::IntrinsicOp::MethodGetBufferContents, object: Some(obj), .. } => {
                self.buffer_pointer_place(*obj, ty)
            }
            ExprKind::OutArg { lvalue, .. } => self.lvalue(*lvalue),
            ExprKind::Cast { expr, kind, .. } if expr_lvalue_cast(m, e) => self.cast_place(*expr, *kind, ty, e),
            ExprKind::Comma { lhs, rhs } => {
                self.effect(*lhs)?;
                self.lvalue(*rhs)
            }
            ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. }
            | ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec, .. } => Ok(self.modify(e)?.0),
            _ => unsupported("assigning to this expression", self.expr_span(e)),
        }
    }

    /// The place of an lvalue cast (sema's `narrows_in_place`): a base of a struct (member 0
    /// at each level, as DXC lays bases out first), the leading components of a vector, or the
    /// same storage. Other narrowings have no SPIR-V pointer.
    fn cast_place(&mut self, operand: ExprId, kind: hlslc_sema::tast::CastKind, ty: TypeId, e: ExprId) -> R<Place> {
        use hlslc_sema::tast::CastKind;
        let m = self.m;
        let from = m.expr(operand).ty;
        let place = self.lvalue(operand)?;
        let from_vec = matches!(m.types.get(from), Type::Vector(_, n) if *n > 1);
        match kind {
            CastKind::Flatten if m.types.is_base_of(ty, from) => {
                let Some(path) = base_path(&m.types, from, ty) else {
                    return unsupported("this cast to a base struct", self.expr_span(e));
                };
                let idx: Vec<SpvId> = path.iter().map(|&i| self.b.ctx.const_u32(i)).collect();
                self.chain(&place, &idx, ty)
            }
            CastKind::NoOp if m.types.same_value_type(from, ty) => Ok(place),
            CastKind::VectorTruncate if from_vec => {
                let n = match m.types.get(ty) {
                    Type::Vector(_, n) => *n,
                    _ => 1,
                };
                Ok(Place::Swizzle { base: Box::new(place), comps: (0..n).collect(), ty })
            }
            CastKind::ToScalar if from_vec && matches!(place, Place::Ptr { .. }) => {
                let zero = self.b.ctx.const_u32(0);
                self.chain(&place, &[zero], ty)
            }
            CastKind::ToScalar if !from_vec && matches!(m.types.get(from), Type::Scalar(_) | Type::Vector(_, 1)) => Ok(place),
            _ => unsupported("assigning through this cast", self.expr_span(e)),
        }
    }

    /// The place of `base.field` (`index`, through `via_base`) of type `ty`; with `vertex`
    /// (index expression, element type), of its element at that index, in one access chain
    /// as DXC writes a per-vertex input's (`pervertex.rs`).
    fn field_place(&mut self, base: ExprId, index: u32, via_base: &[u32], ty: TypeId, vertex: Option<(ExprId, TypeId)>) -> R<Place> {
        let m = self.m;
        let mut indices = Vec::new();
        let mut place = match &m.expr(base).kind {
            // A per-vertex leaf of a nested struct (`input.pi.c`): one access chain from the
            // outermost struct, as DXC writes it.
            ExprKind::Field { base: bb, index: bi, via_base: bv }
                if vertex.is_some() && matches!(m.types.get(m.expr(*bb).ty), Type::Struct(_)) && !self.is_res_struct(m.expr(*bb).ty) =>
            {
                let outer = self.lvalue(*bb)?;
                let mut cur = m.expr(*bb).ty;
                for &step in bv {
                    indices.push(self.b.ctx.const_i32(step as i32));
                    cur = self.struct_member(cur, step, true).0;
                }
                let (_, idx) = self.struct_member(cur, *bi, false);
                indices.push(self.b.ctx.const_i32(idx as i32));
                outer
            }
            _ => self.lvalue(base)?,
        };
        if !indices.is_empty() && !matches!(place, Place::Ptr { .. }) {
            place = self.chain(&place, &indices, m.expr(base).ty)?;
            indices.clear();
        }
        let mut cur = m.expr(base).ty;
        if let Type::Object { kind: ObjectKind::ConstantBuffer | ObjectKind::TextureBuffer, elem: Some(s), .. } = m.types.get(cur) {
            cur = *s;
        }
        let mut path = Vec::new();
        for &step in via_base {
            let (bty, _) = self.struct_member(cur, step, true);
            indices.push(self.b.ctx.const_i32(step as i32));
            path.push(step);
            cur = bty;
        }
        let (_, idx) = self.struct_member(cur, index, false);
        if let Place::Mesh { node, index: elem, .. } = &place {
            path.push(idx);
            let (node, elem) = (node.clone(), *elem);
            let p = self.mesh_member(&node, elem, &path, ty)?;
            return match vertex {
                Some(_) => unsupported("a per-vertex member of a mesh output", None),
                None => Ok(p),
            };
        }
        indices.push(self.b.ctx.const_i32(idx as i32));
        if let Place::Ptr { ty: t, .. } = &mut place {
            *t = cur;
        }
        match vertex {
            Some((v, elem)) => {
                let v = self.rvalue(v)?;
                indices.push(v);
                self.chain(&place, &indices, elem)
            }
            None => self.chain(&place, &indices, ty),
        }
    }

    /// Whether `e` is `base.field` of a per-vertex field (`pervertex.rs`).
    fn is_per_vertex_field(&self, e: ExprId) -> bool {
        let m = self.m;
        let ExprKind::Field { base, index, via_base } = &m.expr(e).kind else { return false };
        let mut cur = m.expr(*base).ty;
        for &step in via_base {
            cur = self.struct_member(cur, step, true).0;
        }
        match m.types.get(cur) {
            Type::Struct(sid) => m.types.structs[sid.0 as usize].fields.get(*index as usize).is_some_and(|f| f.interpolation.per_vertex),
            _ => false,
        }
    }

    fn index_place(&mut self, base: ExprId, index: ExprId, ty: TypeId, e: ExprId) -> R<Place> {
        let m = self.m;
        let bty = m.expr(base).ty;
        if let Type::Object { kind, .. } = m.types.get(bty).clone() {
            let place = self.lvalue(base)?;
            let idx = self.rvalue(index)?;
            use ObjectKind::*;
            return match kind {
                StructuredBuffer | RWStructuredBuffer | RasterizerOrderedStructuredBuffer => {
                    let zero = self.b.ctx.const_i32(0);
                    self.chain(&place, &[zero, idx], ty)
                }
                RWTexture1D | RWTexture1DArray | RWTexture2D | RWTexture2DArray | RWTexture3D | RWBuffer
                | RasterizerOrderedTexture1D | RasterizerOrderedTexture1DArray | RasterizerOrderedTexture2D
                | RasterizerOrderedTexture2DArray | RasterizerOrderedTexture3D | RasterizerOrderedBuffer => {
                    let Some((ptr, _, _)) = Self::place_ptr(&place) else {
                        return unsupported("this texture access", self.expr_span(e));
                    };
                    let image_ty = self.object_ty(bty)?;
                    Ok(Place::Texel { image_ptr: ptr, image_ty, coord: idx, ty })
                }
                // A patch is an array of control points.
                // ... whose operator[] takes a uint, as DXC's constant indices show.
                InputPatch | OutputPatch => {
                    let idx = match self.const_index(index) {
                        Some(i) => self.b.ctx.const_u32(i),
                        None => idx,
                    };
                    self.chain(&place, &[idx], ty)
                }
                _ => unsupported(format!("indexing a {}", kind.name()), self.expr_span(e)),
            };
        }
        if let ExprKind::Field { base: fb, index: fi, via_base } = &m.expr(base).kind {
            if self.is_per_vertex_field(base) {
                return self.field_place(*fb, *fi, via_base, bty, Some((index, ty)));
            }
        }
        let place = self.lvalue(base)?;
        let idx = self.rvalue(index)?;
        if let Place::Mesh { node, index: elem, .. } = &place {
            let (node, elem) = (node.clone(), *elem);
            return self.mesh_element(&node, elem, idx, ty);
        }
        // A scalar's only component, and the only row of a 1xN matrix (a vector in SPIR-V), are
        // the whole value.
        if matches!(m.types.get(bty), Type::Scalar(_) | Type::Vector(_, 1) | Type::Matrix { rows: 1, .. }) {
            return Ok(place);
        }
        self.chain(&place, &[idx], ty)
    }

    /// The local variable of resource type that `e` names, if it does.
    fn resource_local_of(&self, e: ExprId) -> Option<hlslc_sema::tast::VarId> {
        match self.m.expr(e).kind {
            ExprKind::Var(v) if self.resource_locals.contains_key(&v) => Some(v),
            _ => None,
        }
    }

    /// Whether `e` names a resource (its `[]` reads through the resource, not a value).
    fn is_resource_expr(&self, e: ExprId) -> bool {
        self.is_descriptor_object(self.m.expr(e).ty)
    }

    /// The member index in the SPIR-V struct of field `index` (or base `index` when `is_base`)
    /// of struct type `t`, and the member's type.
    pub(crate) fn struct_member(&self, t: TypeId, index: u32, is_base: bool) -> (TypeId, u32) {
        let Type::Struct(sid) = self.m.types.get(t) else { return (t, index) };
        let def = &self.m.types.structs[sid.0 as usize];
        if is_base {
            (def.bases.get(index as usize).copied().unwrap_or(t), index)
        } else {
            let fty = def.fields.get(index as usize).map_or(t, |f| f.ty);
            (fty, def.bases.len() as u32 + index)
        }
    }

    pub(crate) fn const_index(&self, e: ExprId) -> Option<u32> {
        match &self.m.expr(e).kind {
            ExprKind::Const(ConstValue::Int(i)) if *i >= 0 => Some(*i as u32),
            ExprKind::Cast { expr, .. } => self.const_index(*expr),
            _ => None,
        }
    }

    pub(crate) fn temp_var(&mut self, ty: TypeId, name: &str) -> R<SpvId> {
        let pty = self.ptr_ty(ty, Layout::Logical, StorageClass::Function)?;
        let v = self.b.local_variable(pty, None)?;
        self.b.ctx.name(v, name);
        Ok(v)
    }

    pub(crate) fn swizzle_value(&mut self, v: SpvId, bty: TypeId, comps: &[u8], ty: TypeId) -> R<SpvId> {
        let rty = self.ty(ty, Layout::Logical)?;
        let n = match self.m.types.get(bty) {
            Type::Vector(_, n) => *n as usize,
            _ => 1,
        };
        if n == 1 {
            // `s.xxx`: a splat of the scalar.
            if comps.len() == 1 {
                return Ok(v);
            }
            return Ok(self.b.composite_construct(rty, &vec![v; comps.len()])?);
        }
        if comps.len() == 1 {
            return Ok(self.b.composite_extract(rty, v, &[comps[0] as u32])?);
        }
        let sel: Vec<u32> = comps.iter().map(|&c| c as u32).collect();
        Ok(self.b.vector_shuffle(rty, v, v, &sel)?)
    }

    fn matrix_elements(&mut self, v: SpvId, bty: TypeId, elems: &[(u8, u8)], ty: TypeId) -> R<SpvId> {
        let Some(shape) = self.shape(bty) else { return unsupported("this matrix swizzle", None) };
        let comp = self.scalar_ty(shape.kind, Layout::Logical);
        let mut parts = Vec::new();
        for &(r, c) in elems {
            let path = matrix_element_path(shape, r, c);
            parts.push(if path.is_empty() { v } else { self.b.composite_extract(comp, v, &path)? });
        }
        if parts.len() == 1 {
            return Ok(parts[0]);
        }
        let rty = self.ty(ty, Layout::Logical)?;
        Ok(self.b.composite_construct(rty, &parts)?)
    }

    /// A constant of numeric type `ty` (a splat for vectors and matrices).
    pub(crate) fn constant(&mut self, ty: TypeId, c: ConstValue) -> R<SpvId> {
        let Some(shape) = self.shape(ty) else { return unsupported("this constant", None) };
        let s = self.scalar_const(shape.kind, c)?;
        self.splat_const(s, shape, ty)
    }

    fn splat_const(&mut self, s: SpvId, shape: Shape, ty: TypeId) -> R<SpvId> {
        if shape.count() == 1 {
            return Ok(s);
        }
        let tyid = self.ty(ty, Layout::Logical)?;
        if shape.is_matrix() {
            let row = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
            let r = self.b.ctx.const_composite(row, &vec![s; shape.cols as usize]);
            return Ok(self.b.ctx.const_composite(tyid, &vec![r; shape.rows as usize]));
        }
        Ok(self.b.ctx.const_composite(tyid, &vec![s; shape.count() as usize]))
    }

    pub(crate) fn scalar_const(&mut self, k: ScalarKind, c: ConstValue) -> R<SpvId> {
        let as_bool = match c {
            ConstValue::Bool(b) => b,
            ConstValue::Int(i) => i != 0,
            ConstValue::Float(f) => f != 0.0,
        };
        if k.is_bool() {
            return Ok(self.b.ctx.const_bool(as_bool));
        }
        let ty = self.scalar_ty(k, Layout::Logical);
        Ok(self.b.ctx.const_scalar(ty, scalar_bits(k, c))?)
    }
}

/// The literal bits of constant `c` as a scalar of kind `k` (not `bool`).
pub(crate) fn scalar_bits(k: ScalarKind, c: ConstValue) -> u64 {
    let (as_int, as_float) = match c {
        ConstValue::Bool(b) => (b as i64, b as i64 as f64),
        ConstValue::Int(i) => (i, i as f64),
        ConstValue::Float(f) => (f as i64, f),
    };
    if k.is_float() {
        match k.bits() {
            64 => as_float.to_bits(),
            16 => hlslc_sema::numeric::f32_to_f16_bits(as_float as f32) as u64,
            _ => (as_float as f32).to_bits() as u64,
        }
    } else {
        let w = k.bits();
        if w == 64 {
            as_int as u64
        } else {
            (as_int as u64) & ((1u64 << w) - 1)
        }
    }
}

impl<'m> Lowerer<'m> {
    fn unary(&mut self, op: UnaryOp, operand: ExprId, ty: TypeId) -> R<SpvId> {
        let Some(shape) = self.shape(ty) else { return unsupported("this unary operator's operand type", self.expr_span(operand)) };
        let tyid = self.ty(ty, Layout::Logical)?;
        match op {
            UnaryOp::Plus => self.rvalue(operand),
            UnaryOp::Neg => {
                let v = self.rvalue(operand)?;
                let op = if shape.kind.is_float() { Op::FNegate } else { Op::SNegate };
                self.per_row_unary(op, ty, v)
            }
            UnaryOp::Not => {
                let v = self.rvalue(operand)?;
                Ok(self.b.unary(Op::LogicalNot, tyid, v)?)
            }
            UnaryOp::BitNot => {
                let v = self.rvalue(operand)?;
                Ok(self.b.unary(Op::Not, tyid, v)?)
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let place = self.lvalue(operand)?;
                let old = self.load(&place)?;
                let one = self.constant(ty, ConstValue::Int(1))?;
                let one = if shape.kind.is_float() { self.constant(ty, ConstValue::Float(1.0))? } else { one };
                let bop = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) { BinaryOp::Add } else { BinaryOp::Sub };
                let new = self.binary(bop, ty, ty, old, one, None)?;
                self.store(&place, new)?;
                Ok(if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) { new } else { old })
            }
        }
    }

    fn per_row_unary(&mut self, op: Op, ty: TypeId, v: SpvId) -> R<SpvId> {
        let tyid = self.ty(ty, Layout::Logical)?;
        let shape = self.shape(ty).expect("numeric");
        if !shape.is_matrix() {
            return Ok(self.b.unary(op, tyid, v)?);
        }
        let row = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
        let mut rows = Vec::new();
        for r in 0..shape.rows {
            let x = self.b.composite_extract(row, v, &[r])?;
            rows.push(self.b.unary(op, row, x)?);
        }
        Ok(self.b.composite_construct(tyid, &rows)?)
    }

    /// `a op b` for operands of type `oty` giving `rty` (comparisons give bools).
    pub(crate) fn binary(&mut self, op: BinaryOp, oty: TypeId, rty: TypeId, a: SpvId, b: SpvId, at: Option<ExprId>) -> R<SpvId> {
        let span = at.and_then(|e| self.expr_span(e));
        let Some(shape) = self.shape(oty) else { return unsupported(format!("operator '{}' on this type", op.symbol()), span) };
        let k = shape.kind;
        let (f, s) = (k.is_float(), k.is_signed_int());
        let b_ = k.is_bool();
        use BinaryOp::*;
        let spv = match op {
            Add => if f { Op::FAdd } else { Op::IAdd },
            Sub => if f { Op::FSub } else { Op::ISub },
            Mul => if f { Op::FMul } else { Op::IMul },
            Div => if f { Op::FDiv } else if s { Op::SDiv } else { Op::UDiv },
            Rem => if f { Op::FRem } else if s { Op::SRem } else { Op::UMod },
            BitAnd => Op::BitwiseAnd,
            BitOr => Op::BitwiseOr,
            BitXor => Op::BitwiseXor,
            Shl => Op::ShiftLeftLogical,
            Shr => if s { Op::ShiftRightArithmetic } else { Op::ShiftRightLogical },
            LogAnd => Op::LogicalAnd,
            LogOr => Op::LogicalOr,
            Lt => if f { Op::FOrdLessThan } else if s { Op::SLessThan } else { Op::ULessThan },
            Gt => if f { Op::FOrdGreaterThan } else if s { Op::SGreaterThan } else { Op::UGreaterThan },
            Le => if f { Op::FOrdLessThanEqual } else if s { Op::SLessThanEqual } else { Op::ULessThanEqual },
            Ge => if f { Op::FOrdGreaterThanEqual } else if s { Op::SGreaterThanEqual } else { Op::UGreaterThanEqual },
            Eq => if b_ { Op::LogicalEqual } else if f { Op::FOrdEqual } else { Op::IEqual },
            Ne => if b_ { Op::LogicalNotEqual } else if f { Op::FUnordNotEqual } else { Op::INotEqual },
            Comma => return Ok(b),
        };
        // Shift amounts are masked to the bit width, as in HLSL.
        let b = if matches!(op, Shl | Shr) {
            let mask = self.constant(oty, ConstValue::Int(k.bits() as i64 - 1))?;
            let t = self.ty(oty, Layout::Logical)?;
            self.b.binary(Op::BitwiseAnd, t, b, mask)?
        } else {
            b
        };
        let rtyid = self.ty(rty, Layout::Logical)?;
        if !shape.is_matrix() {
            return Ok(self.b.binary(spv, rtyid, a, b)?);
        }
        // Matrices: row by row (SPIR-V arithmetic is defined on vectors).
        let orow = self.vector_ty(k, shape.cols, Layout::Logical);
        let rk = self.m.types.component(rty).unwrap_or(k);
        let rrow = self.vector_ty(rk, shape.cols, Layout::Logical);
        let mut rows = Vec::new();
        for r in 0..shape.rows {
            let x = self.b.composite_extract(orow, a, &[r])?;
            let y = self.b.composite_extract(orow, b, &[r])?;
            rows.push(self.b.binary(spv, rrow, x, y)?);
        }
        Ok(self.b.composite_construct(rtyid, &rows)?)
    }


    /// The object of a method call as the method's `this` type: a method of a base struct called
    /// on a derived object (`value()` inside `foo : bar`) gets the base, member 0 at each level
    /// (DXC's `OpAccessChain %_ptr_Function_bar %param_this %uint_0`).
    fn this_as_base(&mut self, place: Place, this_ty: Option<TypeId>, t: ExprId) -> R<Place> {
        let m = self.m;
        let from = place.ty();
        let Some(to) = this_ty.filter(|&to| to != from && !m.types.same_value_type(from, to)) else {
            return Ok(place);
        };
        let Some(path) = base_path(&m.types, from, to) else {
            return unsupported("this method call on an object of another type", self.expr_span(t));
        };
        let idx: Vec<SpvId> = path.iter().map(|&i| self.b.ctx.const_u32(i)).collect();
        self.chain(&place, &idx, to)
    }

    /// A call to a user function: every argument goes through a `param.var.*` temporary, as in
    /// DXC, and `out`/`inout` temporaries are copied back after the call.
    pub(crate) fn call(&mut self, func: hlslc_sema::tast::FuncId, this_arg: Option<ExprId>, args: &[ExprId], ty: TypeId) -> R<SpvId> {
        let m = self.m;
        let f = m.func(func);
        if self.mixes_resources(ty) {
            return unsupported(format!("calling '{}', which returns a struct with both resource and non-resource members", f.name), None);
        }
        // Buffer arguments select (or make) the copy of the function bound to them.
        let mut bound = Vec::new();
        // The data of arguments that mix resources and data, by parameter index (`resmixed.rs`).
        let mut mixed_data: Vec<(usize, Vec<SpvId>)> = Vec::new();
        // `out`/`inout` resource parameters: (index, parameter, what an `inout` one passes).
        let mut res_outs = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let Some(&pv) = f.params.get(i) else { break };
            let by_value = matches!(m.var(pv).storage, Storage::Param(hlslc_sema::tast::ParamDir::In));
            let by_pointer = matches!(self.resource_param_storage(m.var(pv).ty), Some((sc, _)) if sc != StorageClass::Function);
            let pty = m.var(pv).ty;
            if (by_pointer || self.is_res_struct(pty)) && !by_value {
                // An `out`/`inout` parameter holding resources only: the copy of the callee
                // starts from what an `inout` argument designates; after the call the
                // argument designates what the callee assigns (`resmixed.rs`).
                if self.mixes_resources(pty) || !self.holds_resources(pty) {
                    return unsupported(format!("the out/inout parameter '{}' of a struct type with both resource and non-resource members", m.var(pv).name), self.expr_span(a));
                }
                let inout = matches!(m.var(pv).storage, Storage::Param(hlslc_sema::tast::ParamDir::InOut));
                let inner = match &m.expr(a).kind {
                    ExprKind::OutArg { lvalue, .. } => *lvalue,
                    _ => a,
                };
                let val = if inout { self.res_value(inner)? } else { self.res_unset(pty) };
                self.res_check_global(&val, &m.var(pv).name, a)?;
                res_outs.push((i, pv, inout.then(|| val.clone())));
                bound.push(super::BoundParam::resources(i, val));
                continue;
            }
            // A struct that mixes resources and data: its resources bind the copy, its data is
            // passed by pointers to copies.
            if self.mixes_resources(pty) {
                let (val, data) = self.res_mixed_argument(a, pty, &m.var(pv).name)?;
                self.res_check_global(&val, &m.var(pv).name, a)?;
                mixed_data.push((i, data));
                bound.push(super::BoundParam::resources(i, val));
                continue;
            }
            // A struct (or array) of resources, or resources held at compile time: the copy of
            // the function bound to the resources the argument designates.
            if self.is_res_struct(m.var(pv).ty) || (self.holds_resources(m.var(pv).ty) && self.res_held(a)) {
                let val = self.res_value(a)?;
                self.res_check_global(&val, &m.var(pv).name, a)?;
                bound.push(super::BoundParam::resources(i, val));
                continue;
            }
            if let Some(c) = self.resource_selector(func, pv, a) {
                let ptr = self.constant(m.var(pv).ty, c)?;
                bound.push(super::BoundParam {
                    index: i,
                    ptr,
                    storage: StorageClass::Function,
                    layout: Layout::Logical,
                    counter: None,
                    res: None,
                    konst: Some(c),
                });
                continue;
            }
            if let Some(b) = self.buffer_argument(a, i, pv)? {
                bound.push(b);
            }
        }
        // A method of a struct holding resources: the copy for the object's resources; its data
        // leaves are passed as they are (the method may change them).
        let mut this_data = None;
        if let (Some(t), Some(tt)) = (this_arg, f.this_type) {
            if self.is_res_struct(tt) {
                if !m.types.same_value_type(m.expr(t).ty, tt) {
                    return unsupported("a method of a base struct holding resources", self.expr_span(t));
                }
                let val = self.res_value(t)?;
                let mut data = Vec::new();
                let res = self.res_split_data(&val, tt, &mut data);
                self.res_check_global(&res, "this", t)?;
                let mut slots = Vec::new();
                self.data_slots(tt, &mut slots);
                let mut ptrs = Vec::new();
                for (d, st) in data.into_iter().zip(slots) {
                    ptrs.push(match d {
                        Some(p) => p,
                        None => self.temp_var(st, "temp.var.this")?,
                    });
                }
                this_data = Some(ptrs);
                bound.push(super::BoundParam::resources(super::BoundParam::THIS, res));
            }
        }
        let fid = if bound.is_empty() { self.func_id(func) } else { self.specialized_func_id(func, bound.clone()) };
        let mut ids = Vec::new();
        let mut this_copy = None;
        let this_arg = if let Some(ptrs) = this_data {
            ids.extend(ptrs);
            None
        } else {
            this_arg
        };
        let is_value = |t: ExprId| {
            !m.expr(t).lvalue && !matches!(m.expr(t).kind, ExprKind::Var(_) | ExprKind::This | ExprKind::Field { .. } | ExprKind::Index { .. })
        };
        if let Some(t) = this_arg.filter(|&t| is_value(t)) {
            // A method of a value (`foo().get_S().fn_ref()`, `cbuffer.Method()` read through a
            // conversion): the value goes to a temporary named after its type, as DXC does.
            let tty = m.expr(t).ty;
            let v = self.rvalue(t)?;
            let name = match m.types.get(tty) {
                Type::Struct(sid) => format!("temp.var.{}", m.types.structs[sid.0 as usize].name),
                _ => "temp.var.this".to_string(),
            };
            let tmp = self.temp_var(tty, &name)?;
            self.b.store(tmp, v, None)?;
            let place = Place::Ptr { ptr: tmp, sc: StorageClass::Function, layout: Layout::Logical, ty: tty };
            let Place::Ptr { ptr, .. } = self.this_as_base(place, f.this_type, t)? else {
                return unsupported("this method call on a temporary", self.expr_span(t));
            };
            ids.push(ptr);
        } else if let Some(t) = this_arg {
            let place = self.lvalue(t)?;
            let place = self.this_as_base(place, f.this_type, t)?;
            match place {
                Place::Ptr { ptr, sc: StorageClass::Function, layout: Layout::Logical, .. } => ids.push(ptr),
                _ => {
                    let tty = place.ty();
                    let tmp = self.temp_var(tty, "temp.var.this")?;
                    let v = self.load(&place)?;
                    self.b.store(tmp, v, None)?;
                    ids.push(tmp);
                    this_copy = Some((tmp, place, tty));
                }
            }
        }
        let mut copy_back = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let Some(&pv) = f.params.get(i) else { break };
            let param = m.var(pv);
            if bound.iter().any(|b| b.index == i) {
                if let Some((_, data)) = mixed_data.iter().find(|d| d.0 == i) {
                    ids.extend(data.iter().copied());
                }
                continue;
            }
            if self.resource_param_storage(param.ty).is_some() {
                ids.push(self.resource_argument(a, &param.name)?);
                continue;
            }
            let dir = match param.storage {
                Storage::Param(d) => d,
                _ => hlslc_sema::tast::ParamDir::In,
            };
            // -fspv-fix-func-call-arguments: an `out`/`inout` lvalue goes to the callee as the
            // pointer to it, as DXC passes it; spirv-opt's `fixcall` then copies what is not a
            // whole function variable through a temporary around the call.
            let direct = self.opts.fix_func_call_arguments
                && dir != hlslc_sema::tast::ParamDir::In
                && !matches!(m.expr(a).kind, ExprKind::OutArg { .. });
            let early = if direct { Some(self.lvalue(a)?) } else { None };
            if let Some(ptr) = match &early {
                Some(place) => self.direct_out_arg(place, param.ty)?,
                None => None,
            } {
                ids.push(ptr);
                continue;
            }
            let tmp = self.temp_var(param.ty, &format!("param.var.{}", param.name))?;
            match (&m.expr(a).kind, dir) {
                (_, hlslc_sema::tast::ParamDir::In) => {
                    let v = self.rvalue(a)?;
                    self.b.store(tmp, v, None)?;
                }
                (ExprKind::OutArg { lvalue, to_param, from_param }, d) => {
                    let place = self.lvalue(*lvalue)?;
                    if d == hlslc_sema::tast::ParamDir::InOut {
                        let v = self.load(&place)?;
                        let v = match to_param {
                            Some(k) => self.cast(*k, v, place.ty(), param.ty, a)?,
                            None => v,
                        };
                        self.b.store(tmp, v, None)?;
                    }
                    copy_back.push((tmp, place, param.ty, Some(*from_param)));
                }
                (_, d) => {
                    let place = match early {
                        Some(p) => p,
                        None => self.lvalue(a)?,
                    };
                    if d == hlslc_sema::tast::ParamDir::InOut {
                        let v = self.load(&place)?;
                        self.b.store(tmp, v, None)?;
                    }
                    copy_back.push((tmp, place, param.ty, None));
                }
            }
            ids.push(tmp);
        }
        // A function returning resources returns nothing in SPIR-V (see `resvalue.rs`).
        let rty = if self.holds_resources(ty) { self.b.ctx.type_void() } else { self.ty(ty, Layout::Logical)? };
        let r = self.b.function_call(rty, fid, &ids)?;
        for (i, pv, inval) in res_outs {
            let val = self.res_out_value(func, args, pv, inval, args[i])?;
            self.res_set_out_argument(args[i], val)?;
        }
        for (tmp, place, pty, cast) in copy_back {
            let t = self.ty(pty, Layout::Logical)?;
            let v = self.b.load(t, tmp, None)?;
            let v = match cast {
                Some(k) => self.cast(k, v, pty, place.ty(), args[0])?,
                None => v,
            };
            self.store(&place, v)?;
        }
        if let Some((tmp, place, tty)) = this_copy {
            let t = self.ty(tty, Layout::Logical)?;
            let v = self.b.load(t, tmp, None)?;
            self.store(&place, v)?;
        }
        Ok(r)
    }
}

impl<'m> Lowerer<'m> {
    /// For `-fspv-fix-func-call-arguments`: the pointer an `out`/`inout` argument passes as it is,
    /// when its place holds a value of exactly the parameter's SPIR-V type, in a storage class a
    /// function-scope copy can read and write with plain loads and stores; `None` when the
    /// argument goes through a `param.var.*` temporary as usual.
    fn direct_out_arg(&mut self, place: &Place, param_ty: TypeId) -> R<Option<SpvId>> {
        let Place::Ptr { ptr, sc, layout, ty } = *place else { return Ok(None) };
        if sc == StorageClass::PhysicalStorageBuffer {
            return Ok(None);
        }
        // A whole module-scope variable is no access chain the copy pass rewrites, and not a
        // function variable a call may take.
        if sc != StorageClass::Function && self.global_ids.contains(&ptr) {
            return Ok(None);
        }
        // In a buffer layout only scalars and vectors keep the logical type.
        let plain = matches!(self.m.types.get(ty), Type::Scalar(_) | Type::Vector(..));
        if layout != Layout::Logical && !plain {
            return Ok(None);
        }
        let want = self.ty(param_ty, Layout::Logical)?;
        Ok((self.ty(ty, layout)? == want).then_some(ptr))
    }
}

/// Where element (`r`, `c`) of a matrix of `shape` lives in its SPIR-V value: `[r, c]` in a
/// matrix (row `r` is SPIR-V column `r`), `[i]` in a 1xN/Nx1 matrix (a vector), nothing in a
/// 1x1 matrix (a scalar).
fn matrix_element_path(shape: Shape, r: u8, c: u8) -> Vec<u32> {
    if shape.is_matrix() {
        vec![r as u32, c as u32]
    } else if shape.count() == 1 {
        vec![]
    } else {
        vec![(r as u32).max(c as u32)]
    }
}

impl<'m> Lowerer<'m> {
    /// For an argument of a buffer parameter (not an image or sampler): the buffer variable it
    /// binds in the callee's copy. It must be a module-scope buffer variable, or a parameter or
    /// local that designates one.
    fn buffer_argument(&mut self, a: ExprId, index: usize, param: hlslc_sema::tast::VarId) -> R<Option<super::BoundParam>> {
        let name = &self.m.var(param).name;
        match self.resource_param_storage(self.m.var(param).ty) {
            Some((StorageClass::UniformConstant | StorageClass::Function, _)) | None => return Ok(None),
            Some(_) => {}
        }
        let place = self.lvalue(a)?;
        let Some((ptr, storage, layout)) = Self::place_ptr(&place) else {
            return unsupported(format!("this argument for the buffer parameter '{name}'"), self.expr_span(a));
        };
        if !self.global_ids.contains(&ptr) {
            return unsupported(
                format!("passing an element of an array of buffers to the buffer parameter '{name}' of a function"),
                self.expr_span(a),
            );
        }
        let counter = self.counter_of_expr(a)?;
        Ok(Some(super::BoundParam { index, ptr, storage, layout, counter, res: None, konst: None }))
    }

    /// The pointer passed for an image or sampler argument (`UniformConstant`: a variable, a
    /// pointer parameter, or an element of an array variable), as logical addressing allows.
    fn resource_argument(&mut self, a: ExprId, param: &str) -> R<SpvId> {
        let place = self.lvalue(a)?;
        match Self::place_ptr(&place) {
            // (A ray query's Function variable is passed by pointer too.)
            Some((ptr, StorageClass::UniformConstant | StorageClass::Function, _)) => Ok(ptr),
            _ => unsupported(format!("this argument for the resource parameter '{param}'"), self.expr_span(a)),
        }
    }
}

/// True for a cast sema marked as an lvalue (it narrows its operand in place).
fn expr_lvalue_cast(m: &hlslc_sema::tast::Module, e: ExprId) -> bool {
    m.expr(e).lvalue
}

/// The base-member indices from struct `from` down to its base `to` (breadth first).
fn base_path(types: &hlslc_sema::types::TypeTable, from: TypeId, to: TypeId) -> Option<Vec<u32>> {
    let mut level = vec![(from, Vec::new())];
    for _ in 0..64 {
        let mut next = Vec::new();
        for (t, path) in level {
            if t == to {
                return Some(path);
            }
            if let Type::Struct(s) = types.get(t) {
                for (i, &b) in types.structs[s.0 as usize].bases.iter().enumerate() {
                    let mut p: Vec<u32> = path.clone();
                    p.push(i as u32);
                    next.push((b, p));
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        level = next;
    }
    None
}
