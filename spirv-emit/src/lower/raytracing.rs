//! Ray tracing stages, their intrinsics and ray queries, as `SPIR-V.rst` ("Raytracing in Vulkan
//! and SPIRV", "RayQuery") and DXC's output map them.
//!
//! - The six ray tracing stages are entry points of a `lib_6_3`+ library. Their parameters are
//!   not stage inputs: the payload of an any-hit, closest-hit or miss shader is an
//!   `IncomingRayPayloadKHR` variable, the hit attributes of an any-hit or closest-hit shader a
//!   `HitAttributeKHR` one, the data of a callable shader an `IncomingCallableDataKHR` one; the
//!   wrapper copies them into the `param.var.*` copies the source function takes, and copies the
//!   `inout` ones back after the call.
//! - `TraceRay` and `CallShader` copy their last argument into a `RayPayloadKHR` /
//!   `CallableDataKHR` variable, and back after the call: one variable per payload type (named
//!   after the first argument of that type), with the next `Location` of its class (counted
//!   from 0 per module, so locations are unique in every entry point). `ReportHit` stores its
//!   attributes in a `HitAttributeKHR` variable, one per attribute type.
//! - `SPV_KHR_ray_tracing` by default (SPIR-V 1.4 needed: DXC's error otherwise); with
//!   `-fspv-extension=SPV_NV_ray_tracing`, `SPV_NV_ray_tracing`: `OpTraceNV` and
//!   `OpExecuteCallableNV` name the payload by its location, `IgnoreHit` and
//!   `AcceptHitAndEndSearch` are not block terminators, `RayTCurrent` reads `HitTNV`.
//! - `IgnoreHit` and `AcceptHitAndEndSearch` end the shader: the entry's incoming payload is
//!   copied back to its variable first (when called from the entry function itself).
//! - System-value intrinsics load built-in `Input` variables; `ObjectToWorld3x4` and
//!   `WorldToObject3x4` transpose the 4x3 built-in.
//! - `RayQuery<flags>` locals are `OpTypeRayQueryKHR` Function variables; their methods are the
//!   `OpRayQuery*KHR` instructions, the template flags or-ed into `TraceRayInline`'s.

use super::layout::Layout;
use super::{unsupported, LowerError, Lowerer, VarHome, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, EntryPoint, ExprId, ExprKind, ParamDir, Stage, Storage, VarId};
use hlslc_sema::types::{ObjectKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Capability, ExecutionModel, FunctionControl, Op, StorageClass};
use std::collections::HashMap;

/// What the ray tracing lowering keeps across the module.
#[derive(Default, Debug)]
pub(crate) struct RayState {
    /// The `RayPayloadKHR` and `CallableDataKHR` variable of each type, with its `Location`.
    payloads: HashMap<TypeId, (SpvId, u32)>,
    callables: HashMap<TypeId, (SpvId, u32)>,
    /// The `HitAttributeKHR` variable of each attribute type `ReportHit` stores.
    hit_attributes: HashMap<TypeId, SpvId>,
    /// For the source function of an entry with an incoming payload: the payload parameter,
    /// its `IncomingRayPayloadKHR` variable and the SPIR-V type of the payload.
    incoming: HashMap<SpvId, (VarId, SpvId, SpvId)>,
    /// Variables made while lowering functions (payloads, callable data, hit attributes): each
    /// goes into the interface of the entry points that reach it (SPIR-V 1.4+).
    pub(crate) late_vars: Vec<SpvId>,
}

/// The execution model of a ray tracing stage.
pub(crate) fn ray_model(stage: Stage) -> Option<ExecutionModel> {
    Some(match stage {
        Stage::RayGeneration => ExecutionModel::RayGenerationKHR,
        Stage::Intersection => ExecutionModel::IntersectionKHR,
        Stage::AnyHit => ExecutionModel::AnyHitKHR,
        Stage::ClosestHit => ExecutionModel::ClosestHitKHR,
        Stage::Miss => ExecutionModel::MissKHR,
        Stage::Callable => ExecutionModel::CallableKHR,
        _ => return None,
    })
}

/// The value of an integer expression sema folded (a literal, a `static const`, under casts).
fn folded_u32(l: &Lowerer, e: ExprId) -> Option<u32> {
    match &l.m.expr(e).kind {
        ExprKind::Const(ConstValue::Int(v)) => Some(*v as u32),
        ExprKind::Cast { expr, .. } => folded_u32(l, *expr),
        ExprKind::Var(v) => match l.m.var(*v).const_value {
            Some(ConstValue::Int(i)) => Some(i as u32),
            _ => None,
        },
        _ => None,
    }
}

impl<'m> Lowerer<'m> {
    /// Declares what ray tracing needs: `SPV_NV_ray_tracing` when asked for, otherwise checks
    /// that the target has SPIR-V 1.4 (`SPV_KHR_ray_tracing` is added by the capability pass).
    fn require_ray_tracing(&mut self, span: Option<hlslc_frontend::Span>) -> R<()> {
        if self.opts.ray_tracing_nv {
            self.b.capability(Capability::RayTracingNV);
            self.b.extension("SPV_NV_ray_tracing");
            return Ok(());
        }
        if self.opts.target.spirv_version() < (1, 4) {
            return Err(LowerError {
                fatal: false,
                message: "Vulkan 1.1 with SPIR-V 1.4 is required for Raytracing but not permitted to use".into(),
                span,
                notes: vec!["use -fspv-target-env=vulkan1.1spirv1.4 or later, or -fspv-extension=SPV_NV_ray_tracing".into()],
            });
        }
        Ok(())
    }

    /// Lowers a ray tracing entry point: the wrapper function, its payload / attribute /
    /// callable-data variables, the entry point.
    pub(crate) fn lower_ray_entry(&mut self, ep: &EntryPoint, model: ExecutionModel) -> R<()> {
        let m = self.m;
        let f = m.func(ep.func);
        self.require_ray_tracing(Some(f.span))?;
        let src = self.func_id(ep.func);
        let wrapper = self.b.ctx.alloc_id();
        let void = self.b.ctx.type_void();
        let fty = self.b.ctx.type_function(void, &[]);
        self.b.begin_function(wrapper, void, fty, FunctionControl::NONE)?;
        self.b.ctx.name(wrapper, &f.name);
        let bb = self.b.new_block()?;
        self.b.switch_to_block(bb)?;
        self.init_static_globals()?;

        let mut interface = Vec::new();
        let mut args = Vec::new();
        let mut outs = Vec::new();
        for (k, &p) in f.params.iter().enumerate() {
            let var = m.var(p);
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            let sc = match (ep.stage, k) {
                (Stage::AnyHit | Stage::ClosestHit | Stage::Miss, 0) => StorageClass::IncomingRayPayloadKHR,
                (Stage::AnyHit | Stage::ClosestHit, 1) => StorageClass::HitAttributeKHR,
                (Stage::Callable, 0) => StorageClass::IncomingCallableDataKHR,
                _ => {
                    return Err(LowerError {
                        fatal: false,
                        message: format!("a {} shader takes no parameter '{}'", ep.stage.name(), var.name),
                        span: Some(var.span),
                        notes: vec!["any-hit and closest-hit shaders take (inout payload, in attributes), miss shaders (inout payload), callable shaders (inout data), ray generation and intersection shaders nothing".into()],
                    })
                }
            };
            if !matches!(m.types.get(var.ty), Type::Struct(_)) {
                return Err(LowerError {
                    fatal: false,
                    message: format!("parameter '{}' of a {} shader must be a user-defined struct", var.name, ep.stage.name()),
                    span: Some(var.span),
                    notes: Vec::new(),
                });
            }
            let t = self.ty(var.ty, Layout::Logical)?;
            let pty = self.b.ctx.type_pointer(sc, t);
            let stage_var = self.b.global_variable(pty, sc, None);
            self.b.ctx.name(stage_var, &var.name);
            interface.push(stage_var);
            let tmp = self.temp_var(var.ty, &format!("param.var.{}", var.name))?;
            let v = self.b.load(t, stage_var, None)?;
            self.b.store(tmp, v, None)?;
            args.push(tmp);
            if dir != ParamDir::In {
                outs.push((tmp, stage_var, t));
            }
            if sc == StorageClass::IncomingRayPayloadKHR {
                self.ray.incoming.insert(src, (p, stage_var, t));
            }
        }
        let ret = self.ty(f.ret, Layout::Logical)?;
        self.b.function_call(ret, src, &args)?;
        for (tmp, stage_var, t) in outs {
            let v = self.b.load(t, tmp, None)?;
            self.b.store(stage_var, v, None)?;
        }
        self.b.ret()?;
        self.b.end_function()?;

        // SPIR-V 1.4+ lists every global the entry uses; before, only Input/Output variables
        // (the built-ins, added as they are made).
        if self.opts.target.spirv_version() >= (1, 4) {
            interface.extend(self.global_ids.iter().copied());
        } else {
            interface.clear();
        }
        let mut builtins: Vec<SpvId> = self.builtin_vars.values().copied().collect();
        builtins.sort();
        for b in builtins {
            if !interface.contains(&b) {
                interface.push(b);
            }
        }
        self.b.entry_point(model, wrapper, &f.name, interface);
        if self.opts.maximal_reconvergence {
            self.b.execution_mode(wrapper, spirv::ExecutionMode::MaximallyReconvergesKHR, &[]);
        }
        // As DXC: the source function right after its wrapper, before the next entry point.
        if self.pending.last() == Some(&ep.func) {
            self.pending.pop();
            self.lower_function(ep.func, src, &[])?;
        }
        Ok(())
    }

    /// Static globals get their initial values before anything runs.
    fn init_static_globals(&mut self) -> R<()> {
        let m = self.m;
        for &g in &m.globals {
            let var = m.var(g);
            if var.storage == Storage::Static && !matches!(self.vars.get(&g), Some(VarHome::Alias(_))) {
                if let Some(init) = var.init {
                    self.spec_mode = true;
                    let v = self.rvalue(init);
                    self.spec_mode = false;
                    let v = v?;
                    if let Some(VarHome::Ptr { ptr, .. }) = self.vars.get(&g).cloned() {
                        self.b.store(ptr, v, None)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A module-scope variable made while lowering a function, for a ray tracing intrinsic.
    fn late_variable(&mut self, ty: TypeId, sc: StorageClass, name: &str) -> R<(SpvId, SpvId)> {
        let t = self.ty(ty, Layout::Logical)?;
        let pty = self.b.ctx.type_pointer(sc, t);
        let var = self.b.global_variable(pty, sc, None);
        self.b.ctx.name(var, name);
        self.ray.late_vars.push(var);
        Ok((var, t))
    }

    /// The `RayPayloadKHR` (or, `callable`, `CallableDataKHR`) variable for the type of `arg`,
    /// made on first use with the next location of its class: (variable, location, type).
    fn data_variable(&mut self, arg: ExprId, callable: bool) -> R<(SpvId, u32, SpvId)> {
        let ty = self.m.expr(arg).ty;
        let t = self.ty(ty, Layout::Logical)?;
        let map = if callable { &self.ray.callables } else { &self.ray.payloads };
        if let Some(&(v, loc)) = map.get(&ty) {
            return Ok((v, loc, t));
        }
        let (sc, default) = if callable { (StorageClass::CallableDataKHR, "callableData") } else { (StorageClass::RayPayloadKHR, "payload") };
        let name = self.arg_name(arg, default);
        let (var, _) = self.late_variable(ty, sc, &name)?;
        let map = if callable { &mut self.ray.callables } else { &mut self.ray.payloads };
        let loc = map.len() as u32;
        map.insert(ty, (var, loc));
        self.b.ctx.decorate(var, &Decoration::with_literals(spirv::Decoration::Location, &[loc]));
        Ok((var, loc, t))
    }

    /// The name DXC gives the variable made for an argument: the argument variable's name.
    fn arg_name(&self, e: ExprId, default: &str) -> String {
        let mut e = e;
        loop {
            match &self.m.expr(e).kind {
                ExprKind::Var(v) => return self.m.var(*v).name.clone(),
                ExprKind::Cast { expr, .. } => e = *expr,
                _ => return default.to_string(),
            }
        }
    }

    /// A built-in `Input` variable of SPIR-V type `ty`, made the first time it is read and added
    /// to the entry points' interfaces; its value loaded.
    fn ray_builtin(&mut self, b: BuiltIn, ty: SpvId, name: Option<&str>) -> R<SpvId> {
        let var = match self.builtin_vars.get(&b) {
            Some(&v) => v,
            None => {
                let pty = self.b.ctx.type_pointer(StorageClass::Input, ty);
                let var = self.b.global_variable(pty, StorageClass::Input, None);
                if let Some(n) = name {
                    self.b.ctx.name(var, n);
                }
                self.b.ctx.decorate(var, &Decoration::with_literals(spirv::Decoration::BuiltIn, &[b as u32]));
                for i in 0..self.b.entry_points().len() {
                    if let Some(ep) = self.b.entry_point_mut(i) {
                        ep.interface.push(var);
                    }
                }
                self.builtin_vars.insert(b, var);
                var
            }
        };
        Ok(self.b.load(ty, var, None)?)
    }

    /// SPIR-V's `mat4v3float`: HLSL's `float4x3`, the type of the transform built-ins.
    fn mat4x3_ty(&mut self) -> SpvId {
        let f = self.b.ctx.type_f32();
        let v3 = self.b.ctx.type_vector(f, 3);
        self.b.ctx.type_matrix(v3, 4)
    }

    /// Ray tracing intrinsics (free functions); `None` for the others.
    pub(crate) fn ray_intrinsic(&mut self, op: I, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        let span = self.expr_span(e);
        let nv = self.opts.ray_tracing_nv;
        let sysval = match op {
            I::DispatchRaysIndex => Some((BuiltIn::LaunchIdKHR, None, false)),
            I::DispatchRaysDimensions => Some((BuiltIn::LaunchSizeKHR, None, false)),
            I::WorldRayOrigin => Some((BuiltIn::WorldRayOriginKHR, None, false)),
            I::WorldRayDirection => Some((BuiltIn::WorldRayDirectionKHR, None, false)),
            I::ObjectRayOrigin => Some((BuiltIn::ObjectRayOriginKHR, None, false)),
            I::ObjectRayDirection => Some((BuiltIn::ObjectRayDirectionKHR, None, false)),
            I::RayTMin => Some((BuiltIn::RayTminKHR, None, false)),
            I::RayTCurrent => Some((if nv { BuiltIn::HitTNV } else { BuiltIn::RayTmaxKHR }, None, false)),
            I::RayFlags => Some((BuiltIn::IncomingRayFlagsKHR, None, false)),
            I::InstanceIndex => Some((BuiltIn::InstanceId, Some("gl_InstanceID"), false)),
            I::InstanceID => Some((BuiltIn::InstanceCustomIndexKHR, None, false)),
            I::PrimitiveIndex => Some((BuiltIn::PrimitiveId, Some("gl_PrimitiveID"), false)),
            I::HitKind => Some((BuiltIn::HitKindKHR, None, false)),
            I::GeometryIndex if nv => {
                return Err(LowerError {
                    fatal: false,
                    message: "GeometryIndex() is only supported under SPV_KHR_ray_tracing".into(),
                    span,
                    notes: Vec::new(),
                })
            }
            I::GeometryIndex => Some((BuiltIn::RayGeometryIndexKHR, None, false)),
            I::ObjectToWorld4x3 => Some((BuiltIn::ObjectToWorldKHR, None, false)),
            I::WorldToObject4x3 => Some((BuiltIn::WorldToObjectKHR, None, false)),
            I::ObjectToWorld3x4 | I::ObjectToWorld => Some((BuiltIn::ObjectToWorldKHR, None, true)),
            I::WorldToObject3x4 | I::WorldToObject => Some((BuiltIn::WorldToObjectKHR, None, true)),
            _ => None,
        };
        if let Some((b, name, transpose)) = sysval {
            self.require_ray_tracing(span)?;
            let rty = self.ty(ty, Layout::Logical)?;
            if transpose {
                let m43 = self.mat4x3_ty();
                let v = self.ray_builtin(b, m43, name)?;
                return Ok(Some(self.b.unary(Op::Transpose, rty, v)?));
            }
            return Ok(Some(self.ray_builtin(b, rty, name)?));
        }
        let v = match op {
            I::TraceRay => {
                self.require_ray_tracing(span)?;
                let [accel, flags, mask, offset, stride, miss, ray, payload] = args else {
                    return unsupported("TraceRay with this argument list", span);
                };
                let mut ops: Vec<SpvId> = Vec::new();
                for &a in [accel, flags, mask, offset, stride, miss] {
                    ops.push(self.rvalue(a)?);
                }
                ops.extend(self.ray_desc(*ray)?);
                let (var, loc, t) = self.data_variable(*payload, false)?;
                let place = self.lvalue(*payload)?;
                let v = self.load(&place)?;
                self.b.store(var, v, None)?;
                let mut operands: Vec<Operand> = ops.iter().map(|i| Operand::IdRef(i.0)).collect();
                if self.opts.ray_tracing_nv {
                    let l = self.b.ctx.const_u32(loc);
                    operands.push(Operand::IdRef(l.0));
                    self.b.void(Op::TraceNV, operands)?;
                } else {
                    operands.push(Operand::IdRef(var.0));
                    self.b.void(Op::TraceRayKHR, operands)?;
                }
                let back = self.b.load(t, var, None)?;
                self.store(&place, back)?;
                SpvId(0)
            }
            I::CallShader => {
                self.require_ray_tracing(span)?;
                let [index, data] = args else {
                    return unsupported("CallShader with this argument list", span);
                };
                let index = self.rvalue(*index)?;
                let (var, loc, t) = self.data_variable(*data, true)?;
                let place = self.lvalue(*data)?;
                let v = self.load(&place)?;
                self.b.store(var, v, None)?;
                if self.opts.ray_tracing_nv {
                    let l = self.b.ctx.const_u32(loc);
                    self.b.void(Op::ExecuteCallableNV, vec![Operand::IdRef(index.0), Operand::IdRef(l.0)])?;
                } else {
                    self.b.void(Op::ExecuteCallableKHR, vec![Operand::IdRef(index.0), Operand::IdRef(var.0)])?;
                }
                let back = self.b.load(t, var, None)?;
                self.store(&place, back)?;
                SpvId(0)
            }
            I::ReportHit => {
                self.require_ray_tracing(span)?;
                let [thit, kind, attr] = args else {
                    return unsupported("ReportHit with this argument list", span);
                };
                let thit = self.rvalue(*thit)?;
                let kind = self.rvalue(*kind)?;
                let aty = self.m.expr(*attr).ty;
                let var = match self.ray.hit_attributes.get(&aty) {
                    Some(&v) => v,
                    None => {
                        let name = self.arg_name(*attr, "attributes");
                        let (v, _) = self.late_variable(aty, StorageClass::HitAttributeKHR, &name)?;
                        self.ray.hit_attributes.insert(aty, v);
                        v
                    }
                };
                let a = self.rvalue(*attr)?;
                self.b.store(var, a, None)?;
                let bool_ty = self.b.ctx.type_bool();
                self.b.value(Op::ReportIntersectionKHR, bool_ty, vec![Operand::IdRef(thit.0), Operand::IdRef(kind.0)])?
            }
            I::IgnoreHit | I::AcceptHitAndEndSearch => {
                self.require_ray_tracing(span)?;
                self.copy_back_incoming_payload()?;
                let nv = self.opts.ray_tracing_nv;
                let op = match (op, nv) {
                    (I::IgnoreHit, false) => Op::IgnoreIntersectionKHR,
                    (I::IgnoreHit, true) => Op::IgnoreIntersectionNV,
                    (_, false) => Op::TerminateRayKHR,
                    (_, true) => Op::TerminateRayNV,
                };
                self.b.void(op, vec![])?;
                SpvId(0)
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// Before the shader ends in `IgnoreHit`/`AcceptHitAndEndSearch`: the payload as the entry
    /// function has it goes back to the incoming payload variable (the wrapper's copy-back does
    /// not run).
    fn copy_back_incoming_payload(&mut self) -> R<()> {
        let Some(cur) = self.b.current_function() else { return Ok(()) };
        let Some(&(param, stage_var, t)) = self.ray.incoming.get(&cur) else { return Ok(()) };
        if let Some(VarHome::Ptr { ptr, .. }) = self.vars.get(&param).cloned() {
            let v = self.b.load(t, ptr, None)?;
            self.b.store(stage_var, v, None)?;
        }
        Ok(())
    }

    /// The origin, tmin, direction and tmax of a `RayDesc` value.
    fn ray_desc(&mut self, ray: ExprId) -> R<[SpvId; 4]> {
        let v = self.rvalue(ray)?;
        let f = self.b.ctx.type_f32();
        let v3 = self.b.ctx.type_vector(f, 3);
        Ok([
            self.b.composite_extract(v3, v, &[0])?,
            self.b.composite_extract(f, v, &[1])?,
            self.b.composite_extract(v3, v, &[2])?,
            self.b.composite_extract(f, v, &[3])?,
        ])
    }

    /// Declares `SPV_KHR_ray_query` (before the capability pass adds the rest, as DXC orders
    /// them).
    pub(crate) fn require_ray_query(&mut self) {
        self.b.capability(Capability::RayQueryKHR);
        self.b.extension("SPV_KHR_ray_query");
    }

    /// Methods of `RayQuery<flags>`; `None` for another object.
    pub(crate) fn ray_query_method(&mut self, op: I, obj: ExprId, args: &[ExprId], ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        let span = self.expr_span(e);
        let flags = match self.m.types.get(self.m.expr(obj).ty) {
            Type::Object { kind: ObjectKind::RayQuery, count, .. } => count.unwrap_or(0),
            _ => return Ok(None),
        };
        self.require_ray_query();
        let place = self.lvalue(obj)?;
        let Some((rq, _, _)) = Self::place_ptr(&place) else {
            return unsupported("a RayQuery that is not a variable", span);
        };
        let rq_op = Operand::IdRef(rq.0);
        let rty = self.ty(ty, Layout::Logical)?;
        // Candidate (0) or committed (1) intersection.
        let which = |l: &mut Self, c: u32| Operand::IdRef(l.b.ctx.const_u32(c).0);
        let get = |l: &mut Self, op: Op, c: Option<u32>| -> R<SpvId> {
            let mut ops = vec![Operand::IdRef(rq.0)];
            if let Some(c) = c {
                ops.push(Operand::IdRef(l.b.ctx.const_u32(c).0));
            }
            Ok(l.b.value(op, rty, ops)?)
        };
        let v = match op {
            I::MethodTraceRayInline => {
                let [accel, ray_flags, mask, ray] = args else {
                    return unsupported("TraceRayInline with this argument list", span);
                };
                let accel = self.rvalue(*accel)?;
                // The template's flags are or-ed into the call's (folded when both are known).
                let f = match folded_u32(self, *ray_flags) {
                    Some(c) => self.b.ctx.const_u32(c | flags as u32),
                    None => {
                        let v = self.rvalue(*ray_flags)?;
                        if flags == 0 {
                            v
                        } else {
                            let u = self.b.ctx.type_u32();
                            let c = self.b.ctx.const_u32(flags as u32);
                            self.b.binary(Op::BitwiseOr, u, v, c)?
                        }
                    }
                };
                let mask = self.rvalue(*mask)?;
                let [o, tmin, d, tmax] = self.ray_desc(*ray)?;
                let ops = [accel, f, mask, o, tmin, d, tmax];
                let mut operands = vec![rq_op];
                operands.extend(ops.iter().map(|i| Operand::IdRef(i.0)));
                self.b.void(Op::RayQueryInitializeKHR, operands)?;
                SpvId(0)
            }
            I::MethodProceed => get(self, Op::RayQueryProceedKHR, None)?,
            I::MethodAbort => {
                self.b.void(Op::RayQueryTerminateKHR, vec![rq_op])?;
                SpvId(0)
            }
            I::MethodCommitNonOpaqueTriangleHit => {
                self.b.void(Op::RayQueryConfirmIntersectionKHR, vec![rq_op])?;
                SpvId(0)
            }
            I::MethodCommitProceduralPrimitiveHit => {
                let [t] = args else { return unsupported("CommitProceduralPrimitiveHit with this argument list", span) };
                let t = self.rvalue(*t)?;
                self.b.void(Op::RayQueryGenerateIntersectionKHR, vec![rq_op, Operand::IdRef(t.0)])?;
                SpvId(0)
            }
            I::MethodCandidateType => get(self, Op::RayQueryGetIntersectionTypeKHR, Some(0))?,
            I::MethodCommittedStatus => get(self, Op::RayQueryGetIntersectionTypeKHR, Some(1))?,
            I::MethodCandidateProceduralPrimitiveNonOpaque => {
                // SPIR-V asks whether the AABB is opaque: the negation.
                let opaque = get(self, Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR, None)?;
                self.b.unary(Op::LogicalNot, rty, opaque)?
            }
            I::MethodCandidateTriangleFrontFace => get(self, Op::RayQueryGetIntersectionFrontFaceKHR, Some(0))?,
            I::MethodCommittedTriangleFrontFace => get(self, Op::RayQueryGetIntersectionFrontFaceKHR, Some(1))?,
            I::MethodCandidateTriangleBarycentrics => get(self, Op::RayQueryGetIntersectionBarycentricsKHR, Some(0))?,
            I::MethodCommittedTriangleBarycentrics => get(self, Op::RayQueryGetIntersectionBarycentricsKHR, Some(1))?,
            I::MethodRayFlags => get(self, Op::RayQueryGetRayFlagsKHR, None)?,
            I::MethodWorldRayOrigin => get(self, Op::RayQueryGetWorldRayOriginKHR, None)?,
            I::MethodWorldRayDirection => get(self, Op::RayQueryGetWorldRayDirectionKHR, None)?,
            I::MethodRayTMin => get(self, Op::RayQueryGetRayTMinKHR, None)?,
            I::MethodCandidateTriangleRayT => get(self, Op::RayQueryGetIntersectionTKHR, Some(0))?,
            I::MethodCommittedRayT => get(self, Op::RayQueryGetIntersectionTKHR, Some(1))?,
            I::MethodCandidateInstanceIndex => get(self, Op::RayQueryGetIntersectionInstanceIdKHR, Some(0))?,
            I::MethodCommittedInstanceIndex => get(self, Op::RayQueryGetIntersectionInstanceIdKHR, Some(1))?,
            I::MethodCandidateInstanceID => get(self, Op::RayQueryGetIntersectionInstanceCustomIndexKHR, Some(0))?,
            I::MethodCommittedInstanceID => get(self, Op::RayQueryGetIntersectionInstanceCustomIndexKHR, Some(1))?,
            I::MethodCandidateGeometryIndex => get(self, Op::RayQueryGetIntersectionGeometryIndexKHR, Some(0))?,
            I::MethodCommittedGeometryIndex => get(self, Op::RayQueryGetIntersectionGeometryIndexKHR, Some(1))?,
            I::MethodCandidatePrimitiveIndex => get(self, Op::RayQueryGetIntersectionPrimitiveIndexKHR, Some(0))?,
            I::MethodCommittedPrimitiveIndex => get(self, Op::RayQueryGetIntersectionPrimitiveIndexKHR, Some(1))?,
            I::MethodCandidateObjectRayOrigin => get(self, Op::RayQueryGetIntersectionObjectRayOriginKHR, Some(0))?,
            I::MethodCommittedObjectRayOrigin => get(self, Op::RayQueryGetIntersectionObjectRayOriginKHR, Some(1))?,
            I::MethodCandidateObjectRayDirection => get(self, Op::RayQueryGetIntersectionObjectRayDirectionKHR, Some(0))?,
            I::MethodCommittedObjectRayDirection => get(self, Op::RayQueryGetIntersectionObjectRayDirectionKHR, Some(1))?,
            I::MethodCandidateInstanceContributionToHitGroupIndex => {
                get(self, Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, Some(0))?
            }
            I::MethodCommittedInstanceContributionToHitGroupIndex => {
                get(self, Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, Some(1))?
            }
            I::MethodCandidateObjectToWorld3x4
            | I::MethodCandidateObjectToWorld4x3
            | I::MethodCommittedObjectToWorld3x4
            | I::MethodCommittedObjectToWorld4x3
            | I::MethodCandidateWorldToObject3x4
            | I::MethodCandidateWorldToObject4x3
            | I::MethodCommittedWorldToObject3x4
            | I::MethodCommittedWorldToObject4x3 => {
                let name = format!("{op:?}");
                let spv_op = if name.contains("ObjectToWorld") {
                    Op::RayQueryGetIntersectionObjectToWorldKHR
                } else {
                    Op::RayQueryGetIntersectionWorldToObjectKHR
                };
                let c = if name.contains("Committed") { 1 } else { 0 };
                let m43 = self.mat4x3_ty();
                let w = which(self, c);
                let v = self.b.value(spv_op, m43, vec![rq_op, w])?;
                if name.ends_with("3x4") {
                    self.b.unary(Op::Transpose, rty, v)?
                } else {
                    v
                }
            }
            _ => return unsupported(format!("the RayQuery method {op:?}"), span),
        };
        Ok(Some(v))
    }
}

/// After lowering: the variables made for ray tracing intrinsics (payloads, callable data, hit
/// attributes) are named before the function-scope ids, as DXC's names are in module order (so
/// `%myPayload` is the variable and `%myPayload_0` the local it copies). With SPIR-V 1.4+, each
/// goes into the interface of exactly the entry points whose call tree uses it (an entry point
/// may have at most one `HitAttributeKHR` variable in its interface).
/// `globals` (module-scope variables made after some entry point, such as descriptor heaps a
/// library's source function reaches) are added the same way.
pub(crate) fn finish_late_vars(module: &mut rspirv::dr::Module, vars: &[SpvId], globals: &[SpvId], interface: bool) {
    use hlslc_frontend::fxhash::FxSet as HashSet;
    // Nothing to place (most shaders): no walk of the module.
    if vars.is_empty() && (!interface || globals.is_empty()) {
        return;
    }
    let late: HashSet<u32> = vars.iter().map(|v| v.0).collect();
    if !late.is_empty() {
        let mut local: HashSet<u32> = HashSet::default();
        for f in &module.functions {
            local.extend(f.def.as_ref().and_then(|d| d.result_id));
            local.extend(f.parameters.iter().filter_map(|p| p.result_id));
            for b in &f.blocks {
                local.extend(b.instructions.iter().filter_map(|i| i.result_id));
            }
        }
        let target = |i: &rspirv::dr::Instruction| match i.operands.first() {
            Some(Operand::IdRef(t)) if i.class.opcode == Op::Name => Some(*t),
            _ => None,
        };
        let names = std::mem::take(&mut module.debug_names);
        let (moved, rest): (Vec<_>, Vec<_>) = names.into_iter().partition(|i| target(i).is_some_and(|t| late.contains(&t)));
        let at = rest.iter().position(|i| target(i).is_some_and(|t| local.contains(&t))).unwrap_or(rest.len());
        let mut rest = rest;
        rest.splice(at..at, moved);
        module.debug_names = rest;
    }
    if !interface {
        return;
    }
    let late: HashSet<u32> = late.into_iter().chain(globals.iter().map(|v| v.0)).collect();
    // Per function: the late variables it names and the functions it calls.
    let mut uses: HashMap<u32, (HashSet<u32>, Vec<u32>)> = HashMap::new();
    for f in &module.functions {
        let Some(id) = f.def.as_ref().and_then(|d| d.result_id) else { continue };
        let entry = uses.entry(id).or_default();
        for b in &f.blocks {
            for inst in &b.instructions {
                if inst.class.opcode == Op::FunctionCall {
                    if let Some(Operand::IdRef(callee)) = inst.operands.first() {
                        entry.1.push(*callee);
                    }
                }
                for o in &inst.operands {
                    if let Operand::IdRef(r) = o {
                        if late.contains(r) {
                            entry.0.insert(*r);
                        }
                    }
                }
            }
        }
    }
    for ep in &mut module.entry_points {
        let Some(Operand::IdRef(f)) = ep.operands.get(1).cloned() else { continue };
        let (mut seen, mut stack, mut found) = (HashSet::default(), vec![f], Vec::new());
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some((vs, callees)) = uses.get(&f) {
                found.extend(vs.iter().copied());
                stack.extend(callees.iter().copied());
            }
        }
        found.sort();
        found.dedup();
        for v in found {
            if !ep.operands.contains(&Operand::IdRef(v)) {
                ep.operands.push(Operand::IdRef(v));
            }
        }
    }
}
