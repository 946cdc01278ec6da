//! Ray tracing shaders in libraries (`[shader("raygeneration")]` ... `[shader("callable")]`).
//!
//! A ray tracing shader is `void @"\01?name@@YA...Z"(%struct.Payload*, %struct.Attributes*)`:
//! its payload, hit attributes and callable data arrive as pointers to their struct types, as
//! dxc passes them. The body works on SSA values like every other entry: each field is read
//! through a `getelementptr` and a `load` at the start, and the fields of an `inout` or `out`
//! parameter that changed are stored back before the `ret` (unchanged ones are not, as dxc's
//! optimizer leaves them). `TraceRay`, `CallShader` and `ReportHit` pass their user struct
//! through an `alloca` (stored before the call, read back after it for `inout`), and the ray
//! system values are their `dx.op`s.
//!
//! The entry's properties carry its payload (or callable data) size (tag 6) and a hit
//! shader's attribute size (tag 7), in bytes as dxc lays the struct out: each component at a
//! multiple of its own size, the struct padded to its largest component.

use super::{scalar_type, unsupported, Flat, Lowerer, ReturnCtx, R};
use crate::ir::{self, Value};
use crate::ops::{DxilOp, Overload, ScalarKind as OK, Stage};
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{self, ExprId, ParamDir, Storage};
use hlslc_sema::types::{ScalarKind, Type, TypeId};

/// Whether `stage` is one of the six ray tracing stages.
pub(crate) fn is_ray_stage(stage: Stage) -> bool {
    matches!(stage, Stage::RayGeneration | Stage::Intersection | Stage::AnyHit | Stage::ClosestHit | Stage::Miss | Stage::Callable)
}

/// The IR type of an HLSL value in memory (a payload, attribute or callable-data struct and
/// its fields): `bool` is an `i32`, vectors stay vectors, structs are named `%struct.<name>`.
pub(crate) fn memory_type(t: &tast::Module, m: &mut ir::Module, ty: TypeId, span: Span) -> R<ir::TypeId> {
    Ok(match t.types.get(ty) {
        Type::Scalar(k) => mem_scalar(m, *k),
        Type::Enum(_) => m.types.i32(),
        Type::Vector(k, n) => {
            let e = mem_scalar(m, *k);
            m.types.vector(e, u32::from(*n))
        }
        Type::Array { elem, len: Some(n) } => {
            let e = memory_type(t, m, *elem, span)?;
            m.types.array(e, u64::from(*n))
        }
        Type::Struct(s) => {
            let def = t.types.structs[s.0 as usize].clone();
            let name = format!("struct.{}", def.name);
            if let Some(x) = m.types.lookup_named(&name) {
                return Ok(x);
            }
            let mut fields = Vec::new();
            for b in &def.bases {
                fields.push(memory_type(t, m, *b, span)?);
            }
            for f in &def.fields {
                fields.push(memory_type(t, m, f.ty, span)?);
            }
            m.types.named_struct(&name, Some(fields))
        }
        _ => return unsupported(format!("a value of type `{}` in a ray payload, attribute or callable-data struct", t.types.name(ty)), Some(span)),
    })
}

fn mem_scalar(m: &mut ir::Module, k: ScalarKind) -> ir::TypeId {
    if k == ScalarKind::Bool {
        m.types.i32()
    } else {
        scalar_type(&mut m.types, k)
    }
}

/// The mangled name, function type and parameter names of ray tracing shader `ep`: every
/// parameter is a pointer to its struct type.
pub(crate) fn entry_signature(t: &tast::Module, m: &mut ir::Module, ep: &tast::EntryPoint) -> R<(String, ir::TypeId, Vec<Option<String>>)> {
    let f = t.func(ep.func);
    let mut params = Vec::new();
    let mut names = Vec::new();
    for &p in &f.params {
        let v = t.var(p);
        if !matches!(t.types.get(v.ty), Type::Struct(_)) {
            return unsupported(format!("the {} shader parameter `{}` of type `{}` (a struct is expected)", ep.stage.name(), v.name, t.types.name(v.ty)), Some(v.span));
        }
        let st = memory_type(t, m, v.ty, v.span)?;
        params.push(m.types.pointer(st, 0));
        names.push(Some(v.name.clone()));
    }
    if !t.types.is_void(f.ret) {
        return unsupported(format!("a {} shader that returns a value", ep.stage.name()), Some(f.span));
    }
    let Some(name) = super::library::mangle_function(t, f) else {
        return unsupported(format!("the {} shader `{}` with a type hlslc does not mangle", ep.stage.name(), f.name), Some(f.span));
    };
    let void = m.types.void();
    Ok((name, m.types.function(void, params), names))
}

/// An `inout` or `out` parameter of a ray tracing shader, written back at the end and before
/// `AcceptHitAndEndSearch`/`IgnoreHit` (which do not return): its pointer, its variable, its
/// HLSL type and, for `inout`, the values read at the start.
#[derive(Clone, Debug)]
pub(crate) struct RayOut {
    ptr: Value,
    var: tast::VarId,
    ty: TypeId,
    old: Option<Flat>,
}

/// One scalar or vector member of a struct in memory: its `getelementptr` indices, its scalar
/// kind, its component count (0 for a scalar) and where its components start in the flat list.
struct MemLeaf {
    path: Vec<u32>,
    kind: ScalarKind,
    vector: u8,
    at: usize,
}

impl Lowerer<'_> {
    fn mem_leaves(&self, ty: TypeId, path: &mut Vec<u32>, at: &mut usize, out: &mut Vec<MemLeaf>) {
        let types = &self.t.types;
        match types.get(ty) {
            Type::Scalar(k) => {
                out.push(MemLeaf { path: path.clone(), kind: *k, vector: 0, at: *at });
                *at += 1;
            }
            Type::Enum(_) => {
                out.push(MemLeaf { path: path.clone(), kind: ScalarKind::Int, vector: 0, at: *at });
                *at += 1;
            }
            Type::Vector(k, n) => {
                out.push(MemLeaf { path: path.clone(), kind: *k, vector: *n, at: *at });
                *at += *n as usize;
            }
            Type::Array { elem, len } => {
                for i in 0..len.unwrap_or(0) {
                    path.push(i);
                    self.mem_leaves(*elem, path, at, out);
                    path.pop();
                }
            }
            Type::Struct(s) => {
                let def = &types.structs[s.0 as usize];
                let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                for (i, m) in members.into_iter().enumerate() {
                    path.push(i as u32);
                    self.mem_leaves(m, path, at, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// The size in bytes of a payload, attribute or callable-data struct, as dxc counts it.
    pub(crate) fn udt_size(&self, ty: TypeId) -> u32 {
        let mut off = 0;
        let mut v = Vec::new();
        self.struct_layout(ty, &mut off, &mut v);
        off
    }

    fn leaf_ptr(&mut self, ptr: Value, leaf: &MemLeaf) -> Value {
        let mut idx = vec![self.ci32(0)];
        for &i in &leaf.path {
            idx.push(self.ci32(i as i32));
        }
        self.b.gep(true, ptr, idx)
    }

    fn mem_align(k: ScalarKind) -> u32 {
        match k {
            ScalarKind::Double | ScalarKind::Int64 | ScalarKind::UInt64 => 8,
            ScalarKind::Half | ScalarKind::Int16 | ScalarKind::UInt16 => 2,
            _ => 4,
        }
    }

    /// Reads a value of HLSL type `ty` from memory at `ptr` (a pointer to its
    /// [`memory_type`]), member by member.
    pub(crate) fn load_memory(&mut self, ptr: Value, ty: TypeId) -> Flat {
        let mut leaves = Vec::new();
        self.mem_leaves(ty, &mut Vec::new(), &mut 0, &mut leaves);
        let mut out = Vec::new();
        for leaf in &leaves {
            let p = self.leaf_ptr(ptr, leaf);
            let v = self.b.load(p, Self::mem_align(leaf.kind));
            let mk = if leaf.kind == ScalarKind::Bool { ScalarKind::UInt } else { leaf.kind };
            let comps: Vec<Value> = if leaf.vector == 0 {
                vec![v]
            } else {
                (0..leaf.vector)
                    .map(|c| {
                        let i = self.ci32(i32::from(c));
                        self.b.extract_element(v, i)
                    })
                    .collect()
            };
            for c in comps {
                out.push(self.convert_scalar(c, mk, leaf.kind));
            }
        }
        out
    }

    /// Writes `values` (the flat components of HLSL type `ty`) to memory at `ptr`; with `old`
    /// (the values read at the start), members whose components are all unchanged are skipped.
    pub(crate) fn store_memory(&mut self, ptr: Value, ty: TypeId, values: &[Value], old: Option<&[Value]>) {
        let mut leaves = Vec::new();
        self.mem_leaves(ty, &mut Vec::new(), &mut 0, &mut leaves);
        for leaf in &leaves {
            let n = (leaf.vector as usize).max(1);
            let Some(comps) = values.get(leaf.at..leaf.at + n) else { continue };
            if old.and_then(|o| o.get(leaf.at..leaf.at + n)) == Some(comps) || comps.iter().all(|&c| self.is_undef(c)) {
                continue;
            }
            let mk = if leaf.kind == ScalarKind::Bool { ScalarKind::UInt } else { leaf.kind };
            let comps: Vec<Value> = comps.iter().map(|&c| self.convert_scalar(c, leaf.kind, mk)).collect();
            let v = if leaf.vector == 0 { comps[0] } else { self.mem_vector(mk, &comps) };
            let p = self.leaf_ptr(ptr, leaf);
            self.b.store(v, p, Self::mem_align(leaf.kind));
        }
    }

    /// A vector of `comps`: a constant when all are constants, the vector they were extracted
    /// from when they are its elements in order, else a chain of `insertelement`s.
    fn mem_vector(&mut self, k: ScalarKind, comps: &[Value]) -> Value {
        let e = self.scalar_ir(k);
        let vty = self.b.module.types.vector(e, comps.len() as u32);
        let consts: Option<Vec<ir::ConstId>> = comps.iter().map(|c| if let Value::Const(c) = c { Some(*c) } else { None }).collect();
        if let Some(elems) = consts {
            return Value::Const(self.b.module.const_aggregate(vty, elems));
        }
        if let Some(src) = self.extracted_from(comps, vty) {
            return src;
        }
        let mut v = Value::Const(self.b.module.undef(vty));
        for (c, x) in comps.iter().enumerate() {
            let i = self.ci32(c as i32);
            v = self.b.insert_element(v, *x, i);
        }
        v
    }

    /// The vector of type `vty` whose elements 0, 1, ... `comps` are (`extractelement`s).
    fn extracted_from(&mut self, comps: &[Value], vty: ir::TypeId) -> Option<Value> {
        let mut src = None;
        for (i, c) in comps.iter().enumerate() {
            let Value::Inst(id) = c else { return None };
            let body = self.b.module.function(self.b.func).body.as_ref()?;
            let ir::InstKind::ExtractElement { vector, index } = body.inst(*id).kind else { return None };
            if self.const_of(index) != Some(tast::ConstValue::Int(i as i64)) || src.is_some_and(|s| s != vector) {
                return None;
            }
            src = Some(vector);
        }
        let s = src?;
        (self.b.type_of(s) == vty).then_some(s)
    }

    /// Lowers a ray tracing shader's body: parameters read through their pointers, changed
    /// `inout`/`out` members written back at the end.
    pub(crate) fn lower_ray_entry(&mut self) -> R<()> {
        let t = self.t;
        self.init_statics()?;
        let f = t.func(self.entry_func);
        let stage = self.target.stage;
        for (i, &p) in f.params.iter().enumerate() {
            let var = t.var(p);
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            let arg = Value::Arg(i as u32);
            let vals = if dir == ParamDir::Out {
                self.leaf_kinds(var.ty).into_iter().map(|k| self.undef_of(k)).collect()
            } else {
                self.load_memory(arg, var.ty)
            };
            // The payload (or callable data) is the first parameter; a hit shader's attributes
            // the second.
            let size = self.udt_size(var.ty);
            match (stage, i) {
                (Stage::AnyHit | Stage::ClosestHit | Stage::Miss | Stage::Callable, 0) => self.sigs.ray_payload_size = Some(size),
                (Stage::AnyHit | Stage::ClosestHit, 1) => self.sigs.ray_attrib_size = Some(size),
                _ => {
                    return unsupported(format!("parameter {} (`{}`) of a {} shader", i + 1, var.name, stage.name()), Some(var.span));
                }
            }
            if dir != ParamDir::In {
                self.ray_outs.push(RayOut { ptr: arg, var: p, ty: var.ty, old: if dir == ParamDir::Out { None } else { Some(vals.clone()) } });
            }
            self.vars.insert(p, vals);
        }
        let Some(body) = f.body else { return unsupported("an entry point without a body", Some(f.span)) };
        let ret_block = self.new_block();
        self.returns.push(ReturnCtx { block: ret_block, edges: Vec::new() });
        self.stmt(body)?;
        self.finish_returns(f.ret, 0)?;
        self.write_back_ray_outs();
        self.b.ret(None);
        Ok(())
    }

    /// Stores the changed members of the shader's `inout`/`out` parameters.
    fn write_back_ray_outs(&mut self) {
        for o in self.ray_outs.clone() {
            let vals = self.vars.get(&o.var).cloned().unwrap_or_default();
            self.store_memory(o.ptr, o.ty, &vals, o.old.as_deref());
        }
    }

    /// A user struct passed to `TraceRay`, `CallShader` or `ReportHit`: an `alloca` of its
    /// memory type (at the top of the entry block) holding `values`.
    fn udt_temp(&mut self, ty: TypeId, values: &[Value], span: Span) -> R<Value> {
        let st = memory_type(self.t, self.b.module, ty, span)?;
        let a = self.b.alloca(st, 4);
        self.hoist(a);
        self.store_memory(a, ty, values, None);
        Ok(a)
    }

    /// The ray tracing intrinsics: system values, `TraceRay`, `CallShader`, `ReportHit`,
    /// `IgnoreHit` and `AcceptHitAndEndSearch`; `None` for other intrinsics.
    pub(crate) fn ray_intrinsic(&mut self, op: I, args: &[ExprId], e: ExprId) -> Option<R<Flat>> {
        let span = self.span(e);
        let i32o = Overload::Scalar(OK::I32);
        let f32o = Overload::Scalar(OK::Float);
        let scalar = |l: &mut Self, dop: DxilOp, o: Overload| -> R<Flat> { Ok(vec![l.op(dop, o, &[], span)?]) };
        let vector = |l: &mut Self, dop: DxilOp, o: Overload| -> R<Flat> {
            (0..3)
                .map(|c| {
                    let c = l.ci8(c);
                    l.op(dop, o, &[c], span)
                })
                .collect()
        };
        // Matrices are flattened row by row: a 3x4 one is row r, column c at r * 4 + c; the 4x3
        // forms are its transpose.
        let matrix = |l: &mut Self, dop: DxilOp, transposed: bool| -> R<Flat> {
            let mut out = Vec::new();
            let (rows, cols) = if transposed { (4, 3) } else { (3, 4) };
            for r in 0..rows {
                for c in 0..cols {
                    let (row, col) = if transposed { (c, r) } else { (r, c) };
                    let row = l.ci32(row);
                    let col = l.ci8(col as i8);
                    out.push(l.op(dop, f32o, &[row, col], span)?);
                }
            }
            Ok(out)
        };
        Some(match op {
            I::DispatchRaysIndex => vector(self, DxilOp::DispatchRaysIndex, i32o),
            I::DispatchRaysDimensions => vector(self, DxilOp::DispatchRaysDimensions, i32o),
            I::WorldRayOrigin => vector(self, DxilOp::WorldRayOrigin, f32o),
            I::WorldRayDirection => vector(self, DxilOp::WorldRayDirection, f32o),
            I::ObjectRayOrigin => vector(self, DxilOp::ObjectRayOrigin, f32o),
            I::ObjectRayDirection => vector(self, DxilOp::ObjectRayDirection, f32o),
            I::RayTMin => scalar(self, DxilOp::RayTMin, f32o),
            I::RayTCurrent => scalar(self, DxilOp::RayTCurrent, f32o),
            I::RayFlags => scalar(self, DxilOp::RayFlags, i32o),
            I::InstanceIndex => scalar(self, DxilOp::InstanceIndex, i32o),
            I::InstanceID => scalar(self, DxilOp::InstanceID, i32o),
            I::GeometryIndex => scalar(self, DxilOp::GeometryIndex, i32o),
            I::PrimitiveIndex => scalar(self, DxilOp::PrimitiveIndex, i32o),
            I::HitKind => scalar(self, DxilOp::HitKind, i32o),
            I::ObjectToWorld | I::ObjectToWorld3x4 => matrix(self, DxilOp::ObjectToWorld, false),
            I::ObjectToWorld4x3 => matrix(self, DxilOp::ObjectToWorld, true),
            I::WorldToObject | I::WorldToObject3x4 => matrix(self, DxilOp::WorldToObject, false),
            I::WorldToObject4x3 => matrix(self, DxilOp::WorldToObject, true),
            I::IgnoreHit | I::AcceptHitAndEndSearch => {
                // Neither returns: the payload is written first, `unreachable` follows.
                let dop = if op == I::IgnoreHit { DxilOp::IgnoreHit } else { DxilOp::AcceptHitAndEndSearch };
                self.write_back_ray_outs();
                match self.op(dop, Overload::None, &[], span) {
                    Ok(_) => {
                        self.b.unreachable();
                        self.terminated = true;
                        Ok(Vec::new())
                    }
                    Err(e) => Err(e),
                }
            }
            I::TraceRay => self.trace_ray(args, e),
            I::CallShader => self.call_shader(args, e),
            I::ReportHit => self.report_hit(args, e),
            _ => return None,
        })
    }

    /// The argument `arg` (a user struct) in an `alloca`; with the struct's HLSL type.
    pub(crate) fn udt_arg(&mut self, arg: ExprId) -> R<(Value, TypeId)> {
        let ty = match &self.t.expr(arg).kind {
            tast::ExprKind::OutArg { lvalue, .. } => self.t.expr(*lvalue).ty,
            _ => self.t.expr(arg).ty,
        };
        let span = self.t.expr_span(arg);
        if !matches!(self.t.types.get(ty), Type::Struct(_)) {
            return unsupported(format!("a `{}` argument where ray tracing expects a user struct", self.t.types.name(ty)), Some(span));
        }
        let vals = match &self.t.expr(arg).kind {
            tast::ExprKind::OutArg { lvalue, .. } => self.expr(*lvalue)?,
            _ => self.expr(arg)?,
        };
        Ok((self.udt_temp(ty, &vals, span)?, ty))
    }

    /// Reads the struct back from `temp` into the `inout` argument `arg`.
    fn udt_writeback(&mut self, arg: ExprId, temp: Value, ty: TypeId) -> R<()> {
        let vals = self.load_memory(temp, ty);
        let target = match &self.t.expr(arg).kind {
            tast::ExprKind::OutArg { lvalue, .. } => *lvalue,
            _ => arg,
        };
        let place = self.place(target)?;
        let span = self.span(arg);
        self.store_place(&place, &vals, span)
    }

    /// `TraceRay(accel, flags, mask, contribution, multiplier, miss, ray, payload)`.
    fn trace_ray(&mut self, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let [accel, rest @ ..] = args else { return unsupported("this TraceRay call", span) };
        let (h, _, _) = self.object_handle(*accel)?;
        let mut ops = vec![h];
        for &a in &rest[..5] {
            ops.push(self.expr(a)?[0]);
        }
        let ray = self.expr(rest[5])?;
        if ray.len() != 8 {
            return unsupported("a TraceRay ray that is not a RayDesc", span);
        }
        ops.extend(ray);
        let (temp, ty) = self.udt_arg(rest[6])?;
        ops.push(temp);
        let pty = self.b.type_of(temp);
        self.op(DxilOp::TraceRay, Overload::Udt(pty), &ops, span)?;
        self.udt_writeback(rest[6], temp, ty)?;
        Ok(Vec::new())
    }

    /// `CallShader(index, parameter)`.
    fn call_shader(&mut self, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let [index, param] = args else { return unsupported("this CallShader call", span) };
        let idx = self.expr(*index)?[0];
        let (temp, ty) = self.udt_arg(*param)?;
        let pty = self.b.type_of(temp);
        self.op(DxilOp::CallShader, Overload::Udt(pty), &[idx, temp], span)?;
        self.udt_writeback(*param, temp, ty)?;
        Ok(Vec::new())
    }

    /// `ReportHit(tHit, hitKind, attributes)`: the attributes are read, not written back.
    fn report_hit(&mut self, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let [thit, kind, attr] = args else { return unsupported("this ReportHit call", span) };
        let thit = self.expr(*thit)?[0];
        let kind = self.expr(*kind)?[0];
        let (temp, _) = self.udt_arg(*attr)?;
        let pty = self.b.type_of(temp);
        Ok(vec![self.op(DxilOp::ReportHit, Overload::Udt(pty), &[thit, kind, temp], span)?])
    }
}
