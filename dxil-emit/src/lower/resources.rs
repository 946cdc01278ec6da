//! Resources: handles (`createHandle` up to SM 6.5, `createHandleFromBinding` + `annotateHandle`
//! from 6.6), constant buffers read by 16-byte rows (`cbufferLoadLegacy`), typed buffers
//! (`bufferLoad`/`bufferStore`), structured and byte-address buffers (`rawBufferLoad`/
//! `rawBufferStore` from SM 6.2, `bufferLoad`/`bufferStore` with an offset before), textures
//! (`textureLoad`/`textureStore`); the `!dx.resources` records of the resources used.

use super::expr::Place;
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::{self, BlockId, MdOperand, Value};
use crate::metadata::{ComponentType, Resource, ResourceDetail, ResourceKind, ResourceSymbol, Resources, SamplerKind};
use crate::ops::{sig::param_type, DxilOp, DxilVersion, Overload, ParamTy, ScalarKind as OK, Target};
use hlslc_frontend::Span;
use hlslc_sema::tast::{self, CBufferId, ExprId, ExprKind, Storage, VarId};
use hlslc_sema::types::{ObjectKind, ResourceClass, ScalarKind, Type, TypeId};
use std::collections::HashMap;

/// One resource the shader uses.
#[derive(Clone, Debug)]
pub struct ResInfo {
    pub class: ResourceClass,
    pub kind: ResourceKind,
    pub name: String,
    pub space: u32,
    pub lower: u32,
    pub id: u32,
    /// The resource's sema type (`None` for `$Globals` and `cbuffer` blocks).
    pub ty: Option<TypeId>,
    pub cbuffer: Option<Option<CBufferId>>,
    pub element: Option<ComponentType>,
    pub stride: Option<u32>,
    pub cb_size: u32,
    pub handle: Value,
    /// The function `handle` belongs to.
    pub func: crate::ir::FuncId,
    pub globally_coherent: bool,
    pub sampler_cmp: bool,
    /// The UAV's hidden counter is used (`IncrementCounter`, `Append`, ...).
    pub has_counter: bool,
    /// Registers the record's range spans: 1 for a single resource, the element count of an
    /// array of resources, `u32::MAX` for an unbounded one (`Texture2D t[]`).
    pub range: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ResState {
    pub list: Vec<ResInfo>,
    /// Records of global resources: (variable, field path inside it) -> index in `list`.
    by_root: HashMap<(VarId, Vec<u32>), usize>,
    by_cb: HashMap<Option<CBufferId>, usize>,
    rows: HashMap<(Value, u32, BlockId, Overload), Value>,
    /// Libraries: the external global of each record (by index in `list`).
    pub lib_globals: HashMap<usize, ir::GlobalId>,
    /// The global [`Lowerer::library_handle`] made for the record being added.
    pending_global: Option<ir::GlobalId>,
    /// The `%dx.types.ResRet` of the last buffer or texture read, whose fifth field is the
    /// status a `Load(..., out status)` returns.
    pub last_ret: Option<Value>,
    /// Handles of elements of resource arrays (and of descriptor-heap resources), created where
    /// they are used, with the record they belong to (`usize::MAX`: a heap resource, which has
    /// none).
    pub element_handles: HashMap<Value, usize>,
    /// `ResourceDescriptorHeap` / `SamplerDescriptorHeap` are indexed (shader flags 30, 31).
    pub heap_resources: bool,
    pub heap_samplers: bool,
}

impl ResState {
    /// Forgets values that belong to the function lowered before (cached constant-buffer rows).
    pub(crate) fn begin_function(&mut self) {
        self.rows.clear();
        self.element_handles.clear();
    }
}

fn class_code(c: ResourceClass) -> i8 {
    match c {
        ResourceClass::Srv => 0,
        ResourceClass::Uav => 1,
        ResourceClass::Cbv => 2,
        ResourceClass::Sampler => 3,
    }
}

fn resource_kind(k: ObjectKind) -> ResourceKind {
    dxil_resource_kind(k).unwrap_or(ResourceKind::Texture2D)
}

/// The DXIL resource shape of an object kind; `None` for kinds DXIL has no resource for
/// (`vk::SampledTexture*`, subpass inputs): [`Lowerer::res_info`] refuses those, so every resource
/// the other callers see has a shape.
fn dxil_resource_kind(k: ObjectKind) -> Option<ResourceKind> {
    use ObjectKind::*;
    Some(match k {
        Texture1D | RWTexture1D | RasterizerOrderedTexture1D => ResourceKind::Texture1D,
        Texture1DArray | RWTexture1DArray | RasterizerOrderedTexture1DArray => ResourceKind::Texture1DArray,
        Texture2D | RWTexture2D | RasterizerOrderedTexture2D => ResourceKind::Texture2D,
        Texture2DArray | RWTexture2DArray | RasterizerOrderedTexture2DArray => ResourceKind::Texture2DArray,
        Texture2DMS | RWTexture2DMS => ResourceKind::Texture2DMS,
        Texture2DMSArray | RWTexture2DMSArray => ResourceKind::Texture2DMSArray,
        Texture3D | RWTexture3D | RasterizerOrderedTexture3D => ResourceKind::Texture3D,
        TextureCube => ResourceKind::TextureCube,
        TextureCubeArray => ResourceKind::TextureCubeArray,
        Buffer | RWBuffer | RasterizerOrderedBuffer => ResourceKind::TypedBuffer,
        StructuredBuffer | RWStructuredBuffer | AppendStructuredBuffer | ConsumeStructuredBuffer | RasterizerOrderedStructuredBuffer => {
            ResourceKind::StructuredBuffer
        }
        ByteAddressBuffer | RWByteAddressBuffer | RasterizerOrderedByteAddressBuffer => ResourceKind::RawBuffer,
        SamplerState | SamplerComparisonState => ResourceKind::Sampler,
        ConstantBuffer => ResourceKind::CBuffer,
        TextureBuffer => ResourceKind::TBuffer,
        RaytracingAccelerationStructure => ResourceKind::RTAccelerationStructure,
        FeedbackTexture2D => ResourceKind::FeedbackTexture2D,
        FeedbackTexture2DArray => ResourceKind::FeedbackTexture2DArray,
        _ => return None,
    })
}

fn comp_type(k: ScalarKind) -> ComponentType {
    use ScalarKind::*;
    match k {
        Int | LitInt => ComponentType::I32,
        UInt | Bool => ComponentType::U32,
        Int64 => ComponentType::I64,
        UInt64 => ComponentType::U64,
        Int16 | Min16Int | Min12Int => ComponentType::I16,
        UInt16 | Min16UInt => ComponentType::U16,
        Half | Min16Float | Min10Float => ComponentType::F16,
        Float | LitFloat => ComponentType::F32,
        Double => ComponentType::F64,
    }
}

impl Lowerer<'_> {
    fn object_parts(&self, ty: TypeId) -> Option<(ObjectKind, Option<TypeId>)> {
        match self.t.types.get(ty) {
            Type::Object { kind, elem, .. } => Some((*kind, *elem)),
            Type::Array { elem, .. } => self.object_parts(*elem),
            _ => None,
        }
    }

    /// The register a resource is bound to: its `register(...)`, or the lowest one of its class
    /// where its `count` registers meet no range that a used resource claims (explicitly, or
    /// allocated before). As in dxc, an explicit range that no expression uses reserves nothing
    /// (HLSLFileCheck resource_binding/bindings2.hlsl). `None`: no such register (an unbounded
    /// range claims every register from its first on).
    fn allocate_register(&self, class: ResourceClass, binding: &tast::Binding, count: u32) -> Option<(u32, u32)> {
        let letter = match class {
            ResourceClass::Srv => 't',
            ResourceClass::Uav => 'u',
            ResourceClass::Cbv => 'b',
            ResourceClass::Sampler => 's',
        };
        if let Some((l, n)) = binding.register {
            if l.eq_ignore_ascii_case(&letter) {
                return Some((n, binding.space));
            }
        }
        // Without `register(...)`: `-auto-binding-space` (else space 0) is the space of a
        // resource that names none; a library without it leaves the resource unbound, with
        // register and space -1 unless a space is written.
        let named_space = binding.space_explicit || binding.register.is_some();
        if self.opts.library && self.opts.auto_binding_space.is_none() {
            return Some((u32::MAX, if named_space { binding.space } else { u32::MAX }));
        }
        let space = if named_space { binding.space } else { self.opts.auto_binding_space.unwrap_or(0) };
        // Ranges [first, last] that explicit registers and used resources claim.
        let mut taken: Vec<(u32, u32)> = Vec::new();
        let last = |n: u32, c: u32| if c == u32::MAX { u32::MAX } else { n.saturating_add(c.max(1) - 1) };
        let used: std::collections::HashSet<tast::VarId> =
            self.t.exprs.iter().filter_map(|e| if let ExprKind::Var(v) = e.kind { Some(v) } else { None }).collect();
        for (i, v) in self.t.vars.iter().enumerate() {
            if !used.contains(&tast::VarId(i as u32)) {
                continue;
            }
            if let Some((l, n)) = v.binding.register {
                if l.eq_ignore_ascii_case(&letter) && v.binding.space == space {
                    taken.push((n, last(n, self.range_count(v.ty))));
                }
            }
        }
        for c in &self.t.cbuffers {
            if let Some((l, n)) = c.binding.register {
                if l.eq_ignore_ascii_case(&letter) && c.binding.space == space {
                    taken.push((n, n));
                }
            }
        }
        taken.extend(self.res.list.iter().filter(|r| r.class == class && r.space == space).map(|r| (r.lower, last(r.lower, r.range))));
        // First fit: every register from `n` up to a range's end overlaps that range, so the
        // search jumps past it; past an unbounded range nothing is free.
        let mut n: u32 = 0;
        while let Some(&(_, hi)) = taken.iter().find(|&&(lo, hi)| lo <= last(n, count) && n <= hi) {
            n = hi.checked_add(1)?;
        }
        Some((n, space))
    }

    /// Creates the handle of a new resource record at the top of the entry block.
    fn new_handle(&mut self, mut info: ResInfo, binding: &tast::Binding, span: Option<Span>) -> R<usize> {
        let Some((lower, space)) = self.allocate_register(info.class, binding, info.range) else {
            // dxc's words (DxilCondenseResources): an unbounded range left no register free.
            return Err(super::LowerError { message: format!("resource {} could not be allocated", info.name), span });
        };
        info.lower = lower;
        info.space = space;
        info.id = self.res.list.iter().filter(|r| r.class == info.class).count() as u32;
        if info.range == 1 {
            info.handle = self.emit_handle(&info, span)?;
        }
        info.func = self.b.func;
        self.res.list.push(info);
        if let Some(g) = self.res.pending_global.take() {
            self.res.lib_globals.insert(self.res.list.len() - 1, g);
        }
        Ok(self.res.list.len() - 1)
    }

    /// The handle of record `i` in the function being lowered (a hull shader's patch constant
    /// function makes its own handles for the records the control point function made).
    pub(crate) fn record_handle(&mut self, i: usize, span: Option<Span>) -> R<Value> {
        if self.res.list[i].func != self.b.func {
            let info = self.res.list[i].clone();
            let h = self.emit_handle(&info, span)?;
            let r = &mut self.res.list[i];
            r.handle = h;
            r.func = self.b.func;
        }
        Ok(self.res.list[i].handle)
    }

    /// Emits `info`'s handle creation at the top of the entry block.
    fn emit_handle(&mut self, info: &ResInfo, span: Option<Span>) -> R<Value> {
        let lower = info.lower;
        let space = info.space;
        let entry = BlockId(0);
        let saved = self.current();
        self.b.position_at_end(entry);
        let handle = if self.opts.library {
            self.library_handle(info, span)?
        } else if self.target.version >= DxilVersion::new(1, 6) {
            let bind_ty = param_type(self.b.module, ParamTy::ResBind, Overload::None).expect("ResBind");
            let i8v = self.b.module.const_i8(class_code(info.class));
            let (lo, hi, sp) = (self.b.module.const_i32(lower as i32), self.b.module.const_i32(lower as i32), self.b.module.const_i32(space as i32));
            let bind = Value::Const(self.b.module.const_aggregate(bind_ty, vec![lo, hi, sp, i8v]));
            let zero = self.ci32(lower as i32);
            let f = self.cbool(false);
            let h = self.op(DxilOp::CreateHandleFromBinding, Overload::None, &[bind, zero, f], span)?;
            self.hoist(h);
            self.annotate_handle(h, info, span)?
        } else {
            let args = [self.ci8(class_code(info.class)), self.ci32(info.id as i32), self.ci32(lower as i32), self.cbool(false)];
            let h = self.op(DxilOp::CreateHandle, Overload::None, &args, span)?;
            self.hoist(h);
            h
        };
        self.b.position_at_end(saved);
        Ok(handle)
    }

    /// `annotateHandle(h, properties of info)` (SM 6.6+), hoisted.
    fn annotate_handle(&mut self, h: Value, info: &ResInfo, span: Option<Span>) -> R<Value> {
        let ah = self.annotate_here(h, info, span)?;
        self.hoist(ah);
        Ok(ah)
    }

    /// `annotateHandle(h, properties of info)` (SM 6.6+) where the builder is.
    fn annotate_here(&mut self, h: Value, info: &ResInfo, span: Option<Span>) -> R<Value> {
        let props_ty = param_type(self.b.module, ParamTy::ResourceProperties, Overload::None).expect("props");
        let (w0, w1) = self.resource_properties(info);
        let (a, b) = (self.b.module.const_i32(w0 as i32), self.b.module.const_i32(w1 as i32));
        let props = Value::Const(self.b.module.const_aggregate(props_ty, vec![a, b]));
        self.op(DxilOp::AnnotateHandle, Overload::None, &[h, props], span)
    }

    /// A library's handle: the resource's external global loaded and turned into a handle
    /// with `createHandleForLib` (annotated from SM 6.6, where the global holds a handle).
    fn library_handle(&mut self, info: &ResInfo, span: Option<Span>) -> R<Value> {
        let sm66 = self.target.version >= DxilVersion::new(1, 6);
        let global = match self.res.list.iter().position(|r| r.class == info.class && r.id == info.id).and_then(|i| self.res.lib_globals.get(&i)) {
            Some(g) => *g,
            None => {
                let ty = if sm66 {
                    param_type(self.b.module, ParamTy::Handle, Overload::None).expect("handle")
                } else {
                    symbol_type(self.b.module, self.t, info)
                };
                let name = super::library::global_name(self.t, info);
                self.b.module.add_global(ir::Global { name, ty, addrspace: 0, linkage: ir::Linkage::External, constant: true, init: None, align: 4 })
            }
        };
        self.res.pending_global = Some(global);
        let ptr = Value::Global(global);
        let loaded = self.b.load(ptr, 4);
        self.hoist(loaded);
        let gty = self.b.module.globals[global.0 as usize].ty;
        let h = self.op(DxilOp::CreateHandleForLib, Overload::Object(gty), &[loaded], span)?;
        self.hoist(h);
        if sm66 {
            return self.annotate_handle(h, info, span);
        }
        Ok(h)
    }

    /// `%dx.types.ResourceProperties` words for SM 6.6 annotations.
    fn resource_properties(&self, r: &ResInfo) -> (u32, u32) {
        let uav = r.class == ResourceClass::Uav;
        let mut w0 = r.kind as u32;
        if uav {
            w0 |= 1 << 12;
        }
        if r.globally_coherent {
            w0 |= 1 << 14;
        }
        if r.sampler_cmp || r.has_counter {
            w0 |= 1 << 15;
        }
        let w1 = match r.kind {
            ResourceKind::CBuffer => r.cb_size,
            ResourceKind::StructuredBuffer => r.stride.unwrap_or(0),
            ResourceKind::RawBuffer | ResourceKind::Sampler => 0,
            _ => {
                let count = r.ty.and_then(|t| self.object_parts(t)).and_then(|(_, e)| e).map_or(4, |e| self.flat_len(e) as u32);
                r.element.map_or(0, |c| c as u32 | (count << 8))
            }
        };
        (w0, w1)
    }

    /// Marks the UAV whose handle is `h` as using its counter (`!dx.resources` and, from SM 6.6,
    /// the handle's annotation, already emitted, whose properties are rewritten).
    pub(crate) fn mark_counter(&mut self, h: Value) {
        let Some(i) = self.record_of(h) else { return };
        if self.res.list[i].has_counter {
            return;
        }
        self.res.list[i].has_counter = true;
        if self.target.version < DxilVersion::new(1, 6) {
            return;
        }
        let props_ty = param_type(self.b.module, ParamTy::ResourceProperties, Overload::None).expect("props");
        let (w0, w1) = self.resource_properties(&self.res.list[i]);
        let (a, b) = (self.b.module.const_i32(w0 as i32), self.b.module.const_i32(w1 as i32));
        let props = Value::Const(self.b.module.const_aggregate(props_ty, vec![a, b]));
        let func = self.b.func;
        // Every annotation of an array's element handles carries the counter flag.
        let hs: Vec<Value> = self.res.element_handles.iter().filter(|(_, r)| **r == i).map(|(h, _)| *h).collect();
        for h in hs.into_iter().chain(std::iter::once(h)) {
            let Value::Inst(id) = h else { continue };
            if let Some(body) = self.b.module.function_mut(func).body.as_mut() {
                if let Some(ir::InstKind::Call { args, .. }) = body.insts.get_mut(id.0 as usize).map(|x| &mut x.kind) {
                    if let Some(p) = args.get_mut(2) {
                        *p = props;
                    }
                }
            }
        }
    }

    /// The record whose handle (or one of whose element handles) `h` is, in this function.
    pub(crate) fn record_of(&self, h: Value) -> Option<usize> {
        if let Some(&r) = self.res.element_handles.get(&h) {
            return (r != usize::MAX).then_some(r);
        }
        self.res.list.iter().position(|r| r.range == 1 && r.handle == h && r.func == self.b.func)
    }

    /// Registers an array of resources spans: the product of its dimensions, `u32::MAX` when
    /// one is unbounded; 1 for a single resource.
    pub(crate) fn range_count(&self, ty: TypeId) -> u32 {
        match self.t.types.get(ty) {
            Type::Array { len: None | Some(0), .. } => u32::MAX,
            Type::Array { elem, len: Some(n) } => match self.range_count(*elem) {
                u32::MAX => u32::MAX,
                m => m.saturating_mul(*n),
            },
            _ => 1,
        }
    }

    /// A global resource variable's value: its handle, or an array's element handles in order.
    pub(crate) fn load_resource_var(&mut self, v: VarId, span: Option<Span>) -> R<Flat> {
        let i = self.var_record(v, span)?;
        self.record_value(i, span)
    }

    /// A record's value: its handle, or an array's element handles in order.
    fn record_value(&mut self, i: usize, span: Option<Span>) -> R<Flat> {
        let range = self.res.list[i].range;
        if range == 1 {
            return Ok(vec![self.record_handle(i, span)?]);
        }
        if range > 64 {
            return unsupported(if range == u32::MAX { "a whole unbounded array of resources" } else { "a whole array of more than 64 resources" }, span);
        }
        let mut out = Vec::new();
        for k in 0..range {
            let idx = self.ci32(k as i32);
            out.push(self.element_handle(i, idx, false, span)?);
        }
        Ok(out)
    }

    /// The handle of element `index` (counted over all dimensions) of the resource array of
    /// record `rec`, created here: `createHandle` with the register `lower + index` (up to SM
    /// 6.5), `createHandleFromBinding` with the range and `annotateHandle` from 6.6.
    pub(crate) fn element_handle(&mut self, rec: usize, index: Value, non_uniform: bool, span: Option<Span>) -> R<Value> {
        let info = self.res.list[rec].clone();
        if self.opts.library {
            return unsupported("arrays of resources in a library", span);
        }
        let it = self.b.type_of(index);
        let index = match self.b.module.types.int_width(it) {
            Some(32) => index,
            Some(64) => self.convert_scalar(index, ScalarKind::UInt64, ScalarKind::UInt),
            Some(1) => self.convert_scalar(index, ScalarKind::Bool, ScalarKind::UInt),
            _ => self.convert_scalar(index, ScalarKind::UInt16, ScalarKind::UInt),
        };
        let reg = if info.lower == 0 {
            index
        } else {
            let lo = self.ci32(info.lower as i32);
            self.raw_bin(ir::BinOp::Add, index, lo)
        };
        let nu = self.cbool(non_uniform);
        let h = if self.target.version >= DxilVersion::new(1, 6) {
            let bind_ty = param_type(self.b.module, ParamTy::ResBind, Overload::None).expect("ResBind");
            let upper = if info.range == u32::MAX { u32::MAX } else { info.lower.wrapping_add(info.range - 1) };
            let i8v = self.b.module.const_i8(class_code(info.class));
            let (lo, hi, sp) = (self.b.module.const_i32(info.lower as i32), self.b.module.const_i32(upper as i32), self.b.module.const_i32(info.space as i32));
            let bind = Value::Const(self.b.module.const_aggregate(bind_ty, vec![lo, hi, sp, i8v]));
            let h = self.op(DxilOp::CreateHandleFromBinding, Overload::None, &[bind, reg, nu], span)?;
            self.annotate_here(h, &info, span)?
        } else {
            let args = [self.ci8(class_code(info.class)), self.ci32(info.id as i32), reg, nu];
            self.op(DxilOp::CreateHandle, Overload::None, &args, span)?
        };
        self.res.element_handles.insert(h, rec);
        Ok(h)
    }

    /// `a[i]...[j]`, an element of a global array of resources: its handle, made with the
    /// flattened index (`None` when `e` is rooted elsewhere, a local array, or still an array).
    pub(crate) fn resource_array_element(&mut self, e: ExprId) -> R<Option<Value>> {
        let t = self.t;
        if self.range_count(t.expr(e).ty) != 1 {
            return Ok(None);
        }
        let mut indices = Vec::new();
        let mut cur = e;
        let root = loop {
            match &t.expr(cur).kind {
                ExprKind::Index { base, index } if matches!(t.types.get(t.expr(*base).ty), Type::Array { .. }) => {
                    indices.push((*index, t.expr(cur).ty));
                    cur = *base;
                }
                _ => break cur,
            }
        };
        let Some((root, path)) = self.resource_root(root) else { return Ok(None) };
        let span = self.span(e);
        let rec = self.root_record(root, &path, span)?;
        let mut flat: Option<Value> = None;
        let mut non_uniform = false;
        for &(ix, elem_ty) in indices.iter().rev() {
            non_uniform |= self.is_non_uniform(ix, 0);
            let k = self.kind_of(t.expr(ix).ty);
            let v = self.expr(ix)?[0];
            let v = self.convert_scalar(v, k, ScalarKind::UInt);
            let stride = self.range_count(elem_ty);
            let v = if stride == 1 {
                v
            } else {
                let s = self.ci32(stride as i32);
                self.raw_bin(ir::BinOp::Mul, v, s)
            };
            flat = Some(match flat {
                None => v,
                Some(f) => self.raw_bin(ir::BinOp::Add, f, v),
            });
        }
        let Some(flat) = flat else { return Ok(None) };
        Ok(Some(self.element_handle(rec, flat, non_uniform, span)?))
    }

    /// The global variable and field path of a resource (array) expression `v` or `v.a.b`
    /// (`v` a global, a `cbuffer` member or a global struct).
    pub(crate) fn resource_root(&self, e: ExprId) -> Option<(VarId, Vec<u32>)> {
        let t = self.t;
        if !self.is_object(t.expr(e).ty) {
            return None;
        }
        let mut path = Vec::new();
        let mut cur = e;
        let v = loop {
            match &t.expr(cur).kind {
                ExprKind::Field { base, index, via_base } if via_base.is_empty() => {
                    path.push(*index);
                    cur = *base;
                }
                ExprKind::Var(v) => break *v,
                _ => return None,
            }
        };
        path.reverse();
        let var = t.var(v);
        let global = matches!(var.storage, Storage::Uniform | Storage::CBufferMember { .. }) && var.const_value.is_none();
        (global && !self.vars.contains_key(&v)).then_some((v, path))
    }

    /// `s.tex` (a resource field of a global struct): its handle (an array's handles).
    pub(crate) fn resource_field(&mut self, e: ExprId) -> R<Option<Flat>> {
        let Some((v, path)) = self.resource_root(e) else { return Ok(None) };
        let span = self.span(e);
        let rec = self.root_record(v, &path, span)?;
        Ok(Some(self.record_value(rec, span)?))
    }

    /// For each flattened component of `ty`: the field path of a resource, or `None` for data
    /// (`None` overall where resources sit in arrays or base structs).
    fn resource_slots(&self, ty: TypeId, path: &mut Vec<u32>, out: &mut Vec<Option<Vec<u32>>>) -> bool {
        let t = self.t;
        match t.types.get(ty) {
            Type::Object { .. } => out.push(Some(path.clone())),
            Type::Struct(sid) if t.types.contains_object(ty) => {
                let def = &t.types.structs[sid.0 as usize];
                if def.bases.iter().any(|b| t.types.contains_object(*b)) {
                    return false;
                }
                for b in &def.bases {
                    out.extend(std::iter::repeat_n(None, self.flat_len(*b)));
                }
                for (i, f) in def.fields.iter().enumerate() {
                    path.push(i as u32);
                    let ok = self.resource_slots(f.ty, path, out);
                    path.pop();
                    if !ok {
                        return false;
                    }
                }
            }
            _ if t.types.contains_object(ty) => return false,
            _ => out.extend(std::iter::repeat_n(None, self.flat_len(ty))),
        }
        true
    }

    /// `leaves` (the data components of `ty` in a constant buffer) spread over `ty`'s
    /// flattening, with a placeholder where a resource sits.
    fn spread_leaves(&self, ty: TypeId, leaves: Vec<(u32, ScalarKind)>, span: Option<Span>) -> R<Vec<(u32, ScalarKind)>> {
        let mut slots = Vec::new();
        if !self.resource_slots(ty, &mut Vec::new(), &mut slots) {
            return unsupported("resources inside arrays in constant-buffer structs", span);
        }
        let mut it = leaves.into_iter();
        Ok(slots.iter().map(|s| if s.is_some() { (u32::MAX, ScalarKind::UInt) } else { it.next().unwrap_or((u32::MAX, ScalarKind::UInt)) }).collect())
    }

    /// Whether an index expression is, or is computed from, `NonUniformResourceIndex(...)`
    /// (through local variables' initializers).
    fn is_non_uniform(&self, e: ExprId, depth: u32) -> bool {
        if depth > 16 {
            return false;
        }
        let t = self.t;
        let d = depth + 1;
        match &t.expr(e).kind {
            ExprKind::Intrinsic { op, args, .. } => {
                *op == hlslc_sema::intrinsics::IntrinsicOp::NonUniformResourceIndex || args.iter().any(|a| self.is_non_uniform(*a, d))
            }
            ExprKind::Var(v) => t.var(*v).init.is_some_and(|i| !matches!(t.var(*v).storage, Storage::Uniform) && self.is_non_uniform(i, d)),
            ExprKind::Unary { operand, .. } => self.is_non_uniform(*operand, d),
            ExprKind::Binary { lhs, rhs, .. } => self.is_non_uniform(*lhs, d) || self.is_non_uniform(*rhs, d),
            ExprKind::Ternary { cond, then, otherwise } => self.is_non_uniform(*cond, d) || self.is_non_uniform(*then, d) || self.is_non_uniform(*otherwise, d),
            ExprKind::Cast { expr, .. } => self.is_non_uniform(*expr, d),
            ExprKind::Index { base, index } => self.is_non_uniform(*base, d) || self.is_non_uniform(*index, d),
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } => self.is_non_uniform(*base, d),
            ExprKind::Construct { args } => args.iter().any(|a| self.is_non_uniform(*a, d)),
            _ => false,
        }
    }

    /// The record of a resource of object type `kind<elem>` (`ty`, an array of them for `range`
    /// > 1), not yet bound.
    #[allow(clippy::too_many_arguments)]
    fn res_info(&self, kind: ObjectKind, elem: Option<TypeId>, name: String, ty: TypeId, globally_coherent: bool, range: u32, span: Option<Span>) -> R<ResInfo> {
        let Some(class) = kind.resource_class() else { return unsupported(format!("`{}` objects", kind.name()), span) };
        let Some(rk) = dxil_resource_kind(kind) else { return unsupported(format!("`{}` objects", kind.name()), span) };
        let (element, stride, cb_size) = match rk {
            ResourceKind::StructuredBuffer => {
                let mut off = 0;
                let mut v = Vec::new();
                if let Some(e) = elem {
                    self.struct_layout(e, &mut off, &mut v);
                }
                (None, Some(off), 0)
            }
            ResourceKind::CBuffer | ResourceKind::TBuffer => (None, None, elem.map_or(0, |e| self.cb_size(e))),
            ResourceKind::RawBuffer | ResourceKind::Sampler | ResourceKind::RTAccelerationStructure => (None, None, 0),
            _ => (elem.and_then(|e| self.t.types.component(e)).map(comp_type), None, 0),
        };
        let info = ResInfo {
            class,
            kind: rk,
            name,
            space: 0,
            lower: 0,
            id: 0,
            ty: Some(ty),
            cbuffer: None,
            element,
            stride,
            cb_size,
            handle: Value::Arg(0),
            func: crate::ir::FuncId(0),
            globally_coherent,
            sampler_cmp: kind == ObjectKind::SamplerComparisonState,
            has_counter: false,
            range,
        };
        Ok(info)
    }

    /// `ResourceDescriptorHeap[i]` / `SamplerDescriptorHeap[i]` as the resource type its use
    /// gives it: `createHandleFromHeap(index, sampler heap, non-uniform)` and `annotateHandle`
    /// with that type's properties, where it is used.
    pub(crate) fn heap_handle(&mut self, e: ExprId, sampler: bool, index: ExprId) -> R<Flat> {
        let t = self.t;
        let span = self.span(e);
        let ty = t.expr(e).ty;
        let Some((kind, elem)) = self.object_parts(ty) else { return unsupported("this descriptor heap access", span) };
        let k = self.kind_of(t.expr(index).ty);
        let idx = self.expr(index)?;
        if matches!(kind, ObjectKind::ResourceHeapElement | ObjectKind::SamplerHeapElement) {
            // The value is discarded: no handle.
            return Ok(Vec::new());
        }
        if self.target.version < DxilVersion::new(1, 6) {
            return unsupported("descriptor heap indexing below shader model 6.6", span);
        }
        let Some(&idx) = idx.first() else { return unsupported("this descriptor heap index", span) };
        let idx = self.convert_scalar(idx, k, ScalarKind::UInt);
        // `globallycoherent T v = ResourceDescriptorHeap[i];` marks the annotation.
        let glc = t.vars.iter().any(|v| v.globally_coherent && v.init == Some(e));
        let name = if sampler { "SamplerDescriptorHeap" } else { "ResourceDescriptorHeap" };
        let info = self.res_info(kind, elem, name.into(), ty, glc, 1, span)?;
        let (s, nu) = (self.cbool(sampler), self.cbool(self.is_non_uniform(index, 0)));
        let h = self.op(DxilOp::CreateHandleFromHeap, Overload::None, &[idx, s, nu], span)?;
        let ah = self.annotate_here(h, &info, span)?;
        self.res.element_handles.insert(ah, usize::MAX);
        if sampler {
            self.res.heap_samplers = true;
        } else {
            self.res.heap_resources = true;
        }
        Ok(vec![ah])
    }

    /// The record of a global resource variable (or array of them), made on first use; a
    /// single resource's handle is created at the top of the entry block.
    fn var_record(&mut self, v: VarId, span: Option<Span>) -> R<usize> {
        self.root_record(v, &[], span)
    }

    /// The record of the resource at field `path` of the global `v` (`v` itself for an empty
    /// path), named as dxc names the resources it takes out of structs (`var.res.Tex1`); one
    /// in a struct or a `cbuffer` gets a register of its own.
    fn root_record(&mut self, v: VarId, path: &[u32], span: Option<Span>) -> R<usize> {
        let key = (v, path.to_vec());
        if let Some(&i) = self.res.by_root.get(&key) {
            return Ok(i);
        }
        let t = self.t;
        let var = t.var(v);
        let mut ty = var.ty;
        let mut name = var.name.clone();
        for &f in path {
            let Type::Struct(sid) = t.types.get(ty) else { return unsupported("this resource field", span) };
            let Some(field) = t.types.structs[sid.0 as usize].fields.get(f as usize) else { return unsupported("this resource field", span) };
            name = format!("{name}.{}", field.name);
            ty = field.ty;
        }
        let Some((kind, elem)) = self.object_parts(ty) else { return unsupported("this resource", span) };
        let range = self.range_count(ty);
        let info = self.res_info(kind, elem, name, ty, var.globally_coherent, range, span)?;
        let binding = if path.is_empty() { var.binding.clone() } else { tast::Binding::default() };
        let i = self.new_handle(info, &binding, span)?;
        self.res.by_root.insert(key, i);
        Ok(i)
    }

    /// The handle and record of a `cbuffer` block (`None`: `$Globals`).
    fn cbuffer_handle(&mut self, cb: Option<CBufferId>, span: Option<Span>) -> R<usize> {
        if let Some(&i) = self.res.by_cb.get(&cb) {
            return Ok(i);
        }
        let t = self.t;
        let (name, binding, members, tbuffer): (String, tast::Binding, Vec<VarId>, bool) = match cb {
            Some(c) => {
                let b = &t.cbuffers[c.0 as usize];
                (b.name.clone(), b.binding.clone(), b.members.clone(), b.is_tbuffer)
            }
            None => {
                let members = t.globals.iter().copied().filter(|g| self.is_globals_member(*g)).collect();
                ("$Globals".to_string(), tast::Binding::default(), members, false)
            }
        };
        let mut size = 0;
        for m in &members {
            let (off, _) = self.member_offset(*m);
            size = size.max(off + self.cb_size(t.var(*m).ty));
        }
        // A `tbuffer` block is a shader resource view (a `t` register), as `TextureBuffer<T>`
        // is; its members read the same way.
        let (class, kind) = if tbuffer { (ResourceClass::Srv, ResourceKind::TBuffer) } else { (ResourceClass::Cbv, ResourceKind::CBuffer) };
        let info = ResInfo {
            class,
            kind,
            name,
            space: 0,
            lower: 0,
            id: 0,
            ty: None,
            cbuffer: Some(cb),
            element: None,
            stride: None,
            cb_size: size,
            handle: Value::Arg(0),
            func: crate::ir::FuncId(0),
            globally_coherent: false,
            sampler_cmp: false,
            has_counter: false,
            range: 1,
        };
        let i = self.new_handle(info, &binding, span)?;
        self.res.by_cb.insert(cb, i);
        Ok(i)
    }

    fn is_globals_member(&self, g: VarId) -> bool {
        let v = self.t.var(g);
        v.storage == Storage::Uniform && !self.is_object(v.ty) && v.const_value.is_none() && !self.t.types.is_void(v.ty)
    }

    /// Where a cbuffer member (or `$Globals` variable) is placed by hand: `packoffset(cN.c)`
    /// at byte 16 N + 4 c, a global's `register(cN)` at byte 16 N.
    fn pinned_offset(&self, v: VarId) -> Option<u32> {
        let var = self.t.var(v);
        match (var.binding.packoffset, var.binding.register, &var.storage) {
            (Some((reg, comp)), ..) => Some(reg * 16 + u32::from(comp) * 4),
            (None, Some(('c', n)), Storage::Uniform) => Some(n * 16),
            _ => None,
        }
    }

    /// Byte offset of a cbuffer member (or `$Globals` variable) and whether it was placed by
    /// hand (`packoffset`, `register(c)`). As dxc allocates a constant buffer, the members
    /// placed by hand come first; the others follow the end of the last of them, in
    /// declaration order.
    fn member_offset(&self, v: VarId) -> (u32, bool) {
        let t = self.t;
        let var = t.var(v);
        if let Some(off) = self.pinned_offset(v) {
            return (off, true);
        }
        let members: Vec<VarId> = match var.storage {
            Storage::CBufferMember { cbuffer, .. } => t.cbuffers[cbuffer.0 as usize].members.clone(),
            _ => t.globals.iter().copied().filter(|g| self.is_globals_member(*g)).collect(),
        };
        let pinned_end = |m: VarId| self.pinned_offset(m).map(|off| off + self.cb_size(t.var(m).ty));
        let mut off = members.iter().filter_map(|&m| pinned_end(m)).max().unwrap_or(0);
        for m in members.into_iter().filter(|&m| self.pinned_offset(m).is_none()) {
            let mut o = off;
            let mut tmp = Vec::new();
            self.cb_layout(t.var(m).ty, &mut o, &mut tmp);
            let start = tmp.first().map_or(off, |x| x.0);
            if m == v {
                return (start, false);
            }
            off = o;
        }
        (0, false)
    }

    /// Reads components at byte offsets from a constant buffer, one `cbufferLoadLegacy` per row.
    fn cb_read(&mut self, rec: usize, leaves: &[(u32, ScalarKind)], span: Option<Span>) -> R<Flat> {
        let handle = self.record_handle(rec, span)?;
        self.cb_read_handle(handle, leaves, span)
    }

    /// Reads components at byte offsets from the constant buffer `handle`.
    fn cb_read_handle(&mut self, handle: Value, leaves: &[(u32, ScalarKind)], span: Option<Span>) -> R<Flat> {
        let mut out = Vec::new();
        for &(off, k) in leaves {
            let load_kind = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let size = self.cb_scalar_size(load_kind);
            let row = off / 16;
            let comp = (off % 16) / size;
            let o = Self::overload(load_kind);
            let key = (handle, row, self.current(), o);
            let ret = match self.res.rows.get(&key).copied() {
                Some(v) => v,
                None => {
                    let r = self.ci32(row as i32);
                    let v = self.op(DxilOp::CBufferLoadLegacy, o, &[handle, r], span)?;
                    self.res.rows.insert(key, v);
                    v
                }
            };
            let x = self.b.extract_value(ret, vec![comp]);
            out.push(self.convert_scalar(x, load_kind, k));
        }
        Ok(out)
    }

    /// Reads a `cbuffer` member or `$Globals` variable.
    pub(crate) fn load_cbuffer_member(&mut self, cb: Option<CBufferId>, v: VarId, _index: u32, e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let ty = self.t.var(v).ty;
        if self.is_object(ty) {
            // A resource declared in a `cbuffer` is a resource of its own.
            return self.load_resource_var(v, span);
        }
        let rec = self.cbuffer_handle(cb, span)?;
        let (start, _) = self.member_offset(v);
        let mut off = start;
        let mut leaves = Vec::new();
        self.cb_layout(ty, &mut off, &mut leaves);
        if !self.t.types.contains_object(ty) {
            return self.cb_read(rec, &leaves, span);
        }
        // A struct holding resources: the data from the buffer, each resource its handle.
        let mut slots = Vec::new();
        if !self.resource_slots(ty, &mut Vec::new(), &mut slots) {
            return unsupported("resources inside arrays in constant-buffer structs", span);
        }
        let data = self.cb_read(rec, &leaves, span)?;
        let mut data = data.into_iter();
        let mut out = Vec::new();
        for slot in slots {
            match slot {
                Some(path) => {
                    let r = self.root_record(v, &path, span)?;
                    out.extend(self.record_value(r, span)?);
                }
                None => out.push(data.next().ok_or_else(|| super::LowerError { message: "constant-buffer layout mismatch".into(), span })?),
            }
        }
        Ok(out)
    }

    /// True when `e` designates part of a `cbuffer` member or `$Globals` variable.
    pub(crate) fn cbuffer_rooted(&self, mut e: ExprId) -> bool {
        if self.is_object(self.t.expr(e).ty) {
            return false;
        }
        loop {
            match &self.t.expr(e).kind {
                ExprKind::Var(v) => {
                    let var = self.t.var(*v);
                    return !self.vars.contains_key(v)
                        && var.const_value.is_none()
                        && (matches!(var.storage, Storage::CBufferMember { .. }) || (var.storage == Storage::Uniform && !self.is_object(var.ty)));
                }
                ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } | ExprKind::Index { base, .. } => {
                    if self.is_object(self.t.expr(*base).ty) {
                        return false;
                    }
                    e = *base
                }
                _ => return false,
            }
        }
    }

    /// Reads part of a constant-buffer value, with dynamic array indices turned into row
    /// arithmetic.
    pub(crate) fn load_cb_place(&mut self, e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let p = self.place(e)?;
        let super::expr::Root::Var(v) = p.root else { return unsupported("this constant-buffer access", span) };
        let var = self.t.var(v);
        if self.t.types.contains_object(self.t.expr(e).ty) {
            return unsupported("this resource access in a constant buffer", span);
        }
        let cb = match var.storage {
            Storage::CBufferMember { cbuffer, .. } => Some(cbuffer),
            _ => None,
        };
        let rec = self.cbuffer_handle(cb, span)?;
        let (start, _) = self.member_offset(v);
        let mut off = start;
        let mut leaves = Vec::new();
        self.cb_layout(var.ty, &mut off, &mut leaves);
        if self.t.types.contains_object(var.ty) {
            leaves = self.spread_leaves(var.ty, leaves, span)?;
        }
        let kinds = self.leaf_kinds(self.t.expr(e).ty);
        if p.dynamic.len() > 1 {
            return self.load_cb_nested(rec, &leaves, &p, &kinds, span);
        }
        let Some(&(idx, stride, count)) = p.dynamic.first() else {
            let picked: Option<Vec<_>> = p.comps.iter().map(|&c| leaves.get(c).copied()).collect();
            let Some(picked) = picked else { return unsupported("this constant-buffer access", span) };
            return self.cb_read(rec, &picked, span);
        };
        let within_row = p.comps.iter().any(|&c| count > 1 && leaves.get(c + stride).zip(leaves.get(c)).is_some_and(|(b, a)| b.0 - a.0 < 16));
        if within_row {
            // Indexing a vector (or packed elements): read every candidate and select.
            let all: Option<Vec<_>> = (0..count).flat_map(|k| p.comps.iter().map(move |&c| c + k * stride)).map(|c| leaves.get(c).copied()).collect();
            let Some(all) = all else { return unsupported("this constant-buffer access", span) };
            let vals = self.cb_read(rec, &all, span)?;
            let n = p.comps.len();
            let mut out = vals[..n].to_vec();
            let it = self.b.type_of(idx);
            for k in 1..count {
                let kc = Value::Const(self.b.module.const_int(it, k as i64));
                let is_k = self.b.icmp(ir::IntPred::Eq, idx, kc);
                for j in 0..n {
                    out[j] = self.select(is_k, vals[k * n + j], out[j]);
                }
            }
            return Ok(out);
        }
        let handle = self.record_handle(rec, span)?;
        let mut rows: HashMap<u32, Value> = HashMap::new();
        let mut out = Vec::new();
        for (i, &c) in p.comps.iter().enumerate() {
            let Some(&(o0, k)) = leaves.get(c) else { return unsupported("this constant-buffer access", span) };
            let stride_bytes = if count > 1 { leaves.get(c + stride).map_or(16, |l| l.0 - o0) } else { 16 };
            let lk = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let size = self.cb_scalar_size(lk);
            let base_row = o0 / 16;
            let ret = match rows.get(&base_row) {
                Some(v) => *v,
                None => {
                    let it = self.b.type_of(idx);
                    let idx32 = match self.b.module.types.int_width(it) {
                        Some(32) => idx,
                        Some(64) => self.convert_scalar(idx, ScalarKind::UInt64, ScalarKind::UInt),
                        _ => self.convert_scalar(idx, ScalarKind::UInt16, ScalarKind::UInt),
                    };
                    let st = self.ci32((stride_bytes / 16).max(1) as i32);
                    let scaled = self.binop(hlslc_frontend::ast::BinaryOp::Mul, ScalarKind::UInt, idx32, st, span)?;
                    let br = self.ci32(base_row as i32);
                    let row = self.binop(hlslc_frontend::ast::BinaryOp::Add, ScalarKind::UInt, scaled, br, span)?;
                    let v = self.op(DxilOp::CBufferLoadLegacy, Self::overload(lk), &[handle, row], span)?;
                    rows.insert(base_row, v);
                    v
                }
            };
            let x = self.b.extract_value(ret, vec![(o0 % 16) / size]);
            let want = kinds.get(i).copied().unwrap_or(k);
            out.push(self.convert_scalar(x, lk, want));
        }
        Ok(out)
    }

    /// Several dynamic indices into a constant-buffer array of arrays: row arithmetic per index
    /// (each must step over whole rows).
    fn load_cb_nested(&mut self, rec: usize, leaves: &[(u32, ScalarKind)], p: &super::expr::Place, kinds: &[ScalarKind], span: Option<Span>) -> R<Flat> {
        use hlslc_frontend::ast::BinaryOp as B;
        let handle = self.record_handle(rec, span)?;
        let mut out = Vec::new();
        for (i, &c) in p.comps.iter().enumerate() {
            let Some(&(o0, k)) = leaves.get(c) else { return unsupported("this constant-buffer access", span) };
            let lk = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let size = self.cb_scalar_size(lk);
            // Byte offset of the element: o0 + Σ index × step; steps of whole rows keep the
            // component fixed, a step inside a row (a vector, or a matrix's packed elements)
            // makes the component a run-time value too.
            let mut row = self.ci32((o0 / 16) as i32);
            let mut byte = self.ci32(o0 as i32);
            let mut in_row = false;
            for &(idx, stride, count) in &p.dynamic {
                let step = if count > 1 { leaves.get(c + stride).map_or(16, |l| l.0 - o0) } else { 16 };
                in_row |= step % 16 != 0;
                let it = self.b.type_of(idx);
                let idx32 = match self.b.module.types.int_width(it) {
                    Some(32) => idx,
                    Some(64) => self.convert_scalar(idx, ScalarKind::UInt64, ScalarKind::UInt),
                    _ => self.convert_scalar(idx, ScalarKind::UInt16, ScalarKind::UInt),
                };
                let st = self.ci32((step / 16) as i32);
                let scaled = self.binop(B::Mul, ScalarKind::UInt, idx32, st, span)?;
                row = self.binop(B::Add, ScalarKind::UInt, scaled, row, span)?;
                let sb = self.ci32(step as i32);
                let scaled = self.binop(B::Mul, ScalarKind::UInt, idx32, sb, span)?;
                byte = self.binop(B::Add, ScalarKind::UInt, scaled, byte, span)?;
            }
            let x = if in_row {
                // The row is byte / 16 and the component (byte % 16) / size: load the row and
                // select its component.
                let four = self.ci32(4);
                let row = self.binop(B::Shr, ScalarKind::UInt, byte, four, span)?;
                let ret = self.op(DxilOp::CBufferLoadLegacy, Self::overload(lk), &[handle, row], span)?;
                let fifteen = self.ci32(15);
                let within = self.binop(B::BitAnd, ScalarKind::UInt, byte, fifteen, span)?;
                let sh = self.ci32(size.trailing_zeros() as i32);
                let comp = self.binop(B::Shr, ScalarKind::UInt, within, sh, span)?;
                let mut x = self.b.extract_value(ret, vec![0]);
                for j in 1..16 / size {
                    let xj = self.b.extract_value(ret, vec![j]);
                    let jc = self.ci32(j as i32);
                    let is_j = self.b.icmp(ir::IntPred::Eq, comp, jc);
                    x = self.select(is_j, xj, x);
                }
                x
            } else {
                let ret = self.op(DxilOp::CBufferLoadLegacy, Self::overload(lk), &[handle, row], span)?;
                self.b.extract_value(ret, vec![(o0 % 16) / size])
            };
            let want = kinds.get(i).copied().unwrap_or(k);
            out.push(self.convert_scalar(x, lk, want));
        }
        Ok(out)
    }

    /// `cb.field` on a `ConstantBuffer<S>`; other member accesses on objects are unsupported.
    pub(crate) fn resource_member(&mut self, e: ExprId) -> R<Flat> {
        let t = self.t;
        let span = self.span(e);
        let ExprKind::Field { base, .. } = &t.expr(e).kind else { return unsupported("a member of a resource", span) };
        let Some((ObjectKind::ConstantBuffer | ObjectKind::TextureBuffer, Some(s))) = self.object_parts(t.expr(*base).ty) else {
            return unsupported("a member of this resource", span);
        };
        if t.types.contains_object(s) {
            if matches!(t.types.get(t.expr(*base).ty), Type::Array { .. }) || matches!(t.expr(*base).kind, ExprKind::Index { .. }) {
                // dxc's error (sema, there) for a view array whose struct holds resources.
                return Err(super::LowerError { message: "object types not supported in cbuffer/tbuffer view arrays.".into(), span });
            }
            return unsupported("resources inside constant-buffer structs", span);
        }
        let (h, _, _) = self.object_handle(*base)?;
        let mut off = 0;
        let mut leaves = Vec::new();
        self.cb_layout(s, &mut off, &mut leaves);
        let comps = self.field_comps(e)?;
        let picked: Vec<_> = comps.into_iter().map(|i| leaves[i]).collect();
        self.cb_read_handle(h, &picked, span)
    }

    fn field_comps(&mut self, e: ExprId) -> R<Vec<usize>> {
        let t = self.t;
        let ExprKind::Field { base, index, .. } = &t.expr(e).kind else { return Ok(Vec::new()) };
        let Some((_, Some(s))) = self.object_parts(t.expr(*base).ty) else { return Ok(Vec::new()) };
        let Type::Struct(sid) = t.types.get(s) else { return Ok(Vec::new()) };
        let def = &t.types.structs[sid.0 as usize];
        let mut start = def.bases.iter().map(|b| self.flat_len(*b)).sum::<usize>();
        for f in &def.fields[..*index as usize] {
            start += self.flat_len(f.ty);
        }
        let n = self.flat_len(def.fields[*index as usize].ty);
        Ok((start..start + n).collect())
    }

    /// `(S)cb` for a `ConstantBuffer<S>`: every member.
    pub(crate) fn load_whole_buffer(&mut self, inner: ExprId, to: TypeId, span: Option<Span>) -> R<Flat> {
        let (h, _, _) = self.object_handle(inner)?;
        let mut off = 0;
        let mut leaves = Vec::new();
        self.cb_layout(to, &mut off, &mut leaves);
        self.cb_read_handle(h, &leaves, span)
    }

    /// The handle of a resource expression (a variable).
    pub(crate) fn object_handle(&mut self, obj: ExprId) -> R<(Value, ObjectKind, Option<TypeId>)> {
        let span = self.span(obj);
        let ty = self.t.expr(obj).ty;
        let Some((kind, elem)) = self.object_parts(ty) else { return unsupported("this resource expression", span) };
        let h = self.expr(obj)?;
        let handle_ty = param_type(self.b.module, ParamTy::Handle, Overload::None).expect("Handle");
        match h.first() {
            Some(&h) if self.b.type_of(h) == handle_ty => Ok((h, kind, elem)),
            Some(_) => unsupported("a resource picked from a local array by a run-time index", span),
            None => unsupported("this resource expression", span),
        }
    }

    /// Coordinates padded to three with `undef`.
    fn coords3(&mut self, c: &[Value]) -> [Value; 3] {
        let u = self.undef_i32();
        [c.first().copied().unwrap_or(u), c.get(1).copied().unwrap_or(u), c.get(2).copied().unwrap_or(u)]
    }

    /// `res[index]` read.
    pub(crate) fn resource_index(&mut self, base: ExprId, index: ExprId, e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let (h, kind, elem) = self.object_handle(base)?;
        let coord = self.expr(index)?;
        self.resource_read(h, kind, elem, coord, None, span)
    }

    /// Reads element `coord` of a buffer or texture (`mip` for `Load` on textures).
    pub(crate) fn resource_read(&mut self, h: Value, kind: ObjectKind, elem: Option<TypeId>, coord: Flat, mip: Option<Value>, span: Option<Span>) -> R<Flat> {
        let Some(elem) = elem else { return unsupported("reading this resource", span) };
        let rk = resource_kind(kind);
        match rk {
            ResourceKind::StructuredBuffer => {
                let leaves = self.element_layout(elem);
                self.raw_load(h, coord[0], &leaves, true, span)
            }
            ResourceKind::TypedBuffer => {
                let kinds = self.leaf_kinds(elem);
                let k = kinds[0];
                let lk = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
                let u = self.undef_i32();
                let ret = self.op(DxilOp::BufferLoad, Self::overload(lk), &[h, coord[0], u], span)?;
                self.res.last_ret = Some(ret);
                Ok(self.unpack(ret, &kinds, lk))
            }
            ResourceKind::CBuffer | ResourceKind::TBuffer | ResourceKind::RawBuffer | ResourceKind::Sampler => unsupported("indexing this resource", span),
            _ => {
                let kinds = self.leaf_kinds(elem);
                let lk = if kinds[0] == ScalarKind::Bool { ScalarKind::UInt } else { kinds[0] };
                let [c0, c1, c2] = self.coords3(&coord);
                let u = self.undef_i32();
                let is_uav = kind.resource_class() == Some(ResourceClass::Uav);
                let mip = match mip {
                    Some(m) => m,
                    None if is_uav => u,
                    None => self.ci32(0),
                };
                let ret = self.op(DxilOp::TextureLoad, Self::overload(lk), &[h, mip, c0, c1, c2, u, u, u], span)?;
                self.res.last_ret = Some(ret);
                Ok(self.unpack(ret, &kinds, lk))
            }
        }
    }

    pub(crate) fn unpack(&mut self, ret: Value, kinds: &[ScalarKind], lk: ScalarKind) -> Flat {
        let mut out = Vec::new();
        for (i, k) in kinds.iter().enumerate() {
            let x = self.b.extract_value(ret, vec![i as u32]);
            out.push(self.convert_scalar(x, lk, *k));
        }
        out
    }

    /// Writes the components of place `p` (rooted at `object[coord]`).
    pub(crate) fn store_resource(&mut self, object: ExprId, coord: Flat, p: &Place, values: &[Value], span: Option<Span>) -> R<()> {
        let (h, kind, elem) = self.object_handle(object)?;
        let Some(elem) = elem else { return unsupported("writing this resource", span) };
        if kind.resource_class() != Some(ResourceClass::Uav) {
            return unsupported("writing a read-only resource", span);
        }
        match resource_kind(kind) {
            ResourceKind::StructuredBuffer => {
                let leaves = self.element_layout(elem);
                let picked: Vec<_> = p.comps.iter().map(|&c| leaves[c]).collect();
                self.raw_store(h, coord[0], &picked, values, true, span)
            }
            rk => {
                let kinds = self.leaf_kinds(elem);
                let lk = if kinds[0] == ScalarKind::Bool { ScalarKind::UInt } else { kinds[0] };
                if p.comps.len() != kinds.len() {
                    // Partial write: read the element, merge, write it whole.
                    let mut cur = self.resource_read(h, kind, Some(elem), coord.clone(), None, span)?;
                    for (i, &c) in p.comps.iter().enumerate() {
                        cur[c] = values[i];
                    }
                    let full = Place { comps: (0..kinds.len()).collect(), ..p.clone() };
                    return self.store_resource(object, coord, &full, &cur, span);
                }
                let mut vals: Vec<Value> = values.iter().zip(&kinds).map(|(v, k)| self.convert_scalar(*v, *k, lk)).collect();
                while vals.len() < 4 {
                    vals.push(vals[0]);
                }
                let mask = self.ci8(((1u32 << kinds.len()) - 1) as i8);
                let mask = if rk == ResourceKind::TypedBuffer { self.ci8(15) } else { mask };
                if rk == ResourceKind::TypedBuffer {
                    let u = self.undef_i32();
                    let mut args = vec![h, coord[0], u];
                    args.extend(vals);
                    args.push(mask);
                    self.op(DxilOp::BufferStore, Self::overload(lk), &args, span)?;
                } else {
                    let [c0, c1, c2] = self.coords3(&coord);
                    let mut args = vec![h, c0, c1, c2];
                    args.extend(vals);
                    args.push(mask);
                    self.op(DxilOp::TextureStore, Self::overload(lk), &args, span)?;
                }
                Ok(())
            }
        }
    }

    /// Writes a whole element `index` of the structured buffer `h` (element type `elem`).
    pub(crate) fn structured_store(&mut self, h: Value, index: Value, elem: TypeId, values: &[Value], span: Option<Span>) -> R<()> {
        let leaves = self.element_layout(elem);
        self.raw_store(h, index, &leaves, values, true, span)
    }

    /// `ByteAddressBuffer.Load{,2,3,4}` / `Load<T>`.
    pub(crate) fn byte_address_load(&mut self, h: Value, addr: Value, ty: TypeId, span: Option<Span>) -> R<Flat> {
        let leaves = self.element_layout(ty);
        self.raw_load(h, addr, &leaves, false, span)
    }

    pub(crate) fn byte_address_store(&mut self, h: Value, addr: Value, ty: TypeId, values: &[Value], span: Option<Span>) -> R<()> {
        let leaves = self.element_layout(ty);
        self.raw_store(h, addr, &leaves, values, false, span)
    }
}

impl ResState {
    /// The `!dx.resources` lists, in record-id order per class.
    pub fn metadata(&self, m: &mut ir::Module, t: &tast::Module) -> Resources {
        let mut out = Resources::default();
        for (i, r) in self.list.iter().enumerate() {
            let sym = symbol_type(m, t, r);
            let ptr = m.types.pointer(sym, 0);
            let detail = match r.class {
                ResourceClass::Srv => ResourceDetail::Srv {
                    kind: r.kind,
                    sample_count: 0,
                    element: r.element,
                    stride: r.stride,
                },
                ResourceClass::Uav => ResourceDetail::Uav {
                    kind: r.kind,
                    globally_coherent: r.globally_coherent,
                    has_counter: r.has_counter,
                    rasterizer_ordered: false,
                    element: r.element,
                    stride: r.stride,
                },
                ResourceClass::Cbv => ResourceDetail::CBuffer { size_in_bytes: r.cb_size },
                ResourceClass::Sampler => ResourceDetail::Sampler { kind: if r.sampler_cmp { SamplerKind::Comparison } else { SamplerKind::Default } },
            };
            let symbol = match self.lib_globals.get(&i) {
                Some(g) => ResourceSymbol::Global(*g),
                None => ResourceSymbol::Undef(ptr),
            };
            let rec = Resource {
                id: r.id,
                symbol,
                name: r.name.clone(),
                space: r.space,
                lower_bound: r.lower,
                range_size: r.range,
                detail,
            };
            match r.class {
                ResourceClass::Srv => out.srvs.push(rec),
                ResourceClass::Uav => out.uavs.push(rec),
                ResourceClass::Cbv => out.cbuffers.push(rec),
                ResourceClass::Sampler => out.samplers.push(rec),
            }
        }
        let _ = MdOperand::Null;
        out
    }

    /// Shader flags (`!dx.entryPoints` tag 0) implied by what the shader uses.
    /// `native16` (`-enable-16bit-types`): 16-bit types are native, which the flags say (bit 23,
    /// "Use native low precision", beside bit 5 "low precision present"; dxil-spirv reads it to
    /// access raw buffers in 16-bit units).
    pub fn shader_flags(&self, m: &ir::Module, target: Target, native16: bool) -> u64 {
        let mut flags = 0u64;
        let uses = |name: &str| m.functions.iter().any(|f| f.name.starts_with(name));
        if uses("dx.op.rawBufferLoad") || uses("dx.op.rawBufferStore") || self.list.iter().any(|r| matches!(r.kind, ResourceKind::RawBuffer | ResourceKind::StructuredBuffer)) {
            flags |= 0x10;
        }
        if self.heap_resources {
            flags |= 1 << 30;
        }
        if self.heap_samplers {
            flags |= 1 << 31;
        }
        let has_uav = self.list.iter().any(|r| r.class == ResourceClass::Uav);
        if has_uav && !matches!(target.stage, crate::ops::Stage::Compute | crate::ops::Stage::Pixel) {
            flags |= 0x10000;
        }
        // SV_ViewID (bit 21) and inline ray tracing, raytracing tier 1.1 (bit 25).
        if uses("dx.op.viewID") {
            flags |= 1 << 21;
        }
        if uses("dx.op.allocateRayQuery") {
            flags |= 1 << 25;
        }
        let dbl = m.types.iter().any(|(_, t)| matches!(t, ir::Type::Double)) && m.functions.iter().any(|f| f.body.is_some());
        if dbl {
            flags |= 0x4;
        }
        if m.types.iter().any(|(_, t)| matches!(t, ir::Type::Half)) || m.types.iter().any(|(_, t)| matches!(t, ir::Type::Int(16))) {
            flags |= 0x20;
            if native16 {
                flags |= 1 << 23;
            }
        }
        flags
    }
}

/// The struct type a resource record points at (`%"class.Buffer<float>"* undef`).
pub(crate) fn symbol_type(m: &mut ir::Module, t: &tast::Module, r: &ResInfo) -> ir::TypeId {
    let i32t = m.types.i32();
    match (r.ty, r.cbuffer) {
        (_, Some(_)) => {
            let name = r.name.clone();
            if let Some(x) = m.types.lookup_named(&name) {
                return x;
            }
            m.types.named_struct(&name, Some(vec![i32t]))
        }
        (Some(ty), None) if matches!(t.types.get(ty), Type::Array { .. }) => {
            let Type::Array { elem, len } = t.types.get(ty) else { unreachable!() };
            let inner = symbol_type(m, t, &ResInfo { ty: Some(*elem), ..r.clone() });
            m.types.array(inner, u64::from(len.unwrap_or(0)))
        }
        (Some(ty), None) => {
            let name = match t.types.get(ty) {
                Type::Object { kind, elem, .. } => {
                    let prefix = match kind {
                        ObjectKind::ByteAddressBuffer | ObjectKind::RWByteAddressBuffer | ObjectKind::SamplerState | ObjectKind::SamplerComparisonState => "struct",
                        _ => "class",
                    };
                    match elem {
                        Some(e) => format!("{prefix}.{}<{}>", kind.name(), hlsl_type_name(t, *e)),
                        None => format!("{prefix}.{}", kind.name()),
                    }
                }
                _ => "struct.Resource".to_string(),
            };
            if let Some(x) = m.types.lookup_named(&name) {
                return x;
            }
            m.types.named_struct(&name, Some(vec![i32t]))
        }
        _ => m.types.named_struct("struct.Resource", Some(vec![i32t])),
    }
}

/// Clang's spelling of a template argument (`vector<float, 4>`, `unsigned int`).
fn hlsl_type_name(t: &tast::Module, ty: TypeId) -> String {
    let scalar = |k: ScalarKind| match k {
        ScalarKind::UInt => "unsigned int".to_string(),
        ScalarKind::UInt64 => "unsigned long long".to_string(),
        ScalarKind::Int64 => "long long".to_string(),
        other => other.name().to_string(),
    };
    match t.types.get(ty) {
        Type::Scalar(k) => scalar(*k),
        Type::Vector(k, n) => format!("vector<{}, {n}> ", scalar(*k)).trim_end().to_string() + " ",
        Type::Matrix { elem, rows, cols, .. } => format!("matrix<{}, {rows}, {cols}> ", scalar(*elem)),
        Type::Struct(s) => t.types.structs[s.0 as usize].name.clone(),
        _ => t.types.name(ty),
    }
    .trim_end_matches(' ')
    .to_string()
        + if matches!(t.types.get(ty), Type::Vector(..) | Type::Matrix { .. }) { " " } else { "" }
}

#[allow(dead_code)]
fn unused(_: OK) {}
