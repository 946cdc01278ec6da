//! Lowering of sema's typed AST to the DXIL IR, in the shape dxc's optimized output has: one
//! `void @<entry>()` with every user function inlined but `[noinline]` ones (kept and called,
//! see [`calls`]), locals in SSA form (phis at merges, no
//! allocas), constants folded, vectors, matrices and aggregates scalarized, stage inputs and
//! outputs through `dx.op.loadInput`/`dx.op.storeOutput`, resources through handles.
//!
//! Every HLSL value is held as a flat list of scalar IR values ([`Flat`]): a `float4` is four
//! `float`s, a matrix its components row by row, a struct its fields' flattenings in order, an
//! array its elements'. A resource object is one `%dx.types.Handle`.
//!
//! Split by topic: [`entry`] (signatures, system values, metadata), [`expr`] (expressions,
//! operators, casts, constant folding), [`stmt`] (control flow and SSA merging), [`intrinsics`]
//! (math and synchronization intrinsics) and [`intrinsics_ext`] (wave, quad, conversions, matrices), [`methods`] and [`texture`] (methods of objects), [`resources`] (handles, cbuffers, buffer and texture
//! access), [`cleanup`] (dead code removal).

mod calls;
mod cleanup;
mod cond;
pub mod debug;
mod entry;
mod expr;
mod geometry;
mod groupshared;
mod intrinsics;
mod intrinsics_compound;
mod intrinsics_ext;
mod layout;
mod library;
mod mesh;
mod rawbuf;
mod raytracing;
mod rayquery;
mod methods;
mod resources;
mod stmt;
mod tessellation;
mod texture;

use crate::ir::{self, BlockId, FunctionBuilder, Value};
use crate::ops::{try_create, DxilOp, DxilVersion, Overload, ScalarKind as OK, Target};
use hlslc_frontend::Span;
use hlslc_sema::tast::{self, ExprId, Stage, VarId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use std::collections::HashMap;

/// What to lower for.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Shader model `(major, minor)` of the profile (`ps_6_0` → `(6, 0)`).
    pub shader_model: (u32, u32),
    /// The entry function's name in the output (`-E`).
    pub entry_name: String,
    /// `-HV`: the HLSL version (2021 and later short-circuit scalar `&&`, `||` and `?:`).
    pub hlsl_version: u32,
    /// `-enable-16bit-types`: native 16-bit types and dxc's 16-bit data layout.
    pub enable_16bit: bool,
    /// Remove recomputed values (dxc's GVN; off at `-O0` and with `-opt-disable gvn`).
    pub gvn: bool,
    /// `-validator-version major.minor`: the `dx.valver` the module declares (and so the PSV0
    /// version of its container); dxc's default is the current validator, 1.8.
    pub validator_version: (u32, u32),
    /// A library target (`lib_6_x`): every `[shader("...")]` function is an entry of
    /// `!dx.entryPoints`, resources are external globals read with `createHandleForLib`.
    pub library: bool,
    /// `-auto-binding-space N`: resources without `register(...)` get registers in space `N`
    /// (in libraries, without it they stay unbound).
    pub auto_binding_space: Option<u32>,
    /// `-default-linkage`: `Some(true)` external (a library's non-shader functions are
    /// exported), `Some(false)` internal; without it, internal up to `lib_6_8` and external for
    /// `lib_6_x`, as dxc has it.
    pub default_linkage_external: Option<bool>,
    /// `-Zi`: describe the code with debug information (see [`debug`]).
    pub debug: Option<debug::DebugOptions>,
}

/// Why lowering stopped: a construct the DXIL back end does not handle yet, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
    pub span: Option<Span>,
}

pub(crate) type R<T> = Result<T, LowerError>;

pub(crate) fn unsupported<T>(what: impl Into<String>, span: Option<Span>) -> R<T> {
    Err(LowerError { message: format!("{} is not supported by the DXIL back end yet", what.into()), span })
}

/// A value as its flattened scalar components.
pub(crate) type Flat = Vec<Value>;

/// Lowers `module`'s entry point to a DXIL module (function, declarations and metadata).
pub fn lower_module(module: &tast::Module, options: &LowerOptions) -> Result<ir::Module, LowerError> {
    // Attributes the attribute table says this back end refuses (hlslc_sema::attrs).
    if let Some((u, message)) = hlslc_sema::attrs::refused_attribute(module, hlslc_sema::attrs::Target::Dxil) {
        return Err(LowerError { message, span: Some(u.span) });
    }
    if let Some(u) = module.attr_uses.iter().find(|u| u.namespace.is_none() && u.name.eq_ignore_ascii_case("wavesize")) {
        let ranged = module.entries.iter().any(|ep| module.func(ep.func).attrs.iter().any(|a| a.name.eq_ignore_ascii_case("wavesize") && a.args.len() > 1));
        if ranged {
            return Err(LowerError { message: "attribute 'WaveSize' with a range of sizes is not supported by the DXIL back end".into(), span: Some(u.span) });
        }
    }
    if options.library {
        let mut m = library::lower_library(module, options)?;
        if let Some(d) = &options.debug {
            debug::finish(&mut m, d);
        }
        return Ok(m);
    }
    let Some(ep) = module.entry.clone() else {
        return unsupported("a module without an entry point", None);
    };
    let kind = match ep.stage {
        k @ (Stage::Vertex | Stage::Pixel | Stage::Compute | Stage::Geometry | Stage::Hull | Stage::Domain | Stage::Amplification | Stage::Mesh) => k,
        other => return unsupported(format!("the {other:?} stage"), Some(module.func(ep.func).span)),
    };
    let (major, minor) = options.shader_model;
    let version = DxilVersion::for_shader_model(major as u8, minor as u8);
    let mut m = ir::Module::new_dxil();
    if options.enable_16bit {
        m.target_datalayout = ir::DXIL_DATALAYOUT_16BIT.to_string();
    }
    let target = Target { stage: kind, version };
    let mut lowered = lower_entry_point(module, &mut m, &ep, options, target, &options.entry_name, resources::ResState::default())?;
    lowered.res = calls::lower_kept(module, &mut m, options, target, std::mem::take(&mut lowered.kept), lowered.res)?;
    if kind == Stage::Amplification && lowered.sigs.dispatch_mesh_calls != 1 {
        // DXC's validator: one call, which every path reaches once, is what a group may make.
        return Err(LowerError { message: "DispatchMesh must be called exactly once in an Amplification shader.".into(), span: Some(module.func(ep.func).span) });
    }
    entry::emit_metadata(&mut m, module, options, target, lowered.main, &ep, &lowered.sigs, &lowered.res, lowered.patch_constant);
    if let Some(d) = &options.debug {
        debug::finish(&mut m, d);
    }
    Ok(m)
}

/// One entry point lowered into the module: its function (and a hull shader's patch constant
/// function), its signatures and the resources used so far.
pub(crate) struct LoweredEntry {
    pub main: ir::FuncId,
    /// `[noinline]` functions its code calls, declared but not lowered yet.
    pub kept: Vec<(tast::FuncId, ir::FuncId)>,
    pub patch_constant: Option<ir::FuncId>,
    pub sigs: entry::SigState,
    pub res: resources::ResState,
}

/// Lowers entry point `ep` to `void @name()` in `m` (with every call inlined); `res` carries the
/// resource records of the entries lowered before (a library's entries share them).
pub(crate) fn lower_entry_point(
    module: &tast::Module,
    m: &mut ir::Module,
    ep: &tast::EntryPoint,
    options: &LowerOptions,
    target: Target,
    name: &str,
    res: resources::ResState,
) -> R<LoweredEntry> {
    let kind = target.stage;
    let void = m.types.void();
    let fty = if raytracing::is_ray_stage(kind) { raytracing::entry_signature(module, m, ep)?.1 } else { m.types.function(void, vec![]) };
    // A hull shader's patch constant function is a second function; both are laid out in
    // source order, as DXC does.
    let entry_fn = module.func(ep.func);
    let pcf = if kind == Stage::Hull { Some(tessellation::patch_constant_function(ep, entry_fn)?) } else { None };
    let (main, pcf_ir) = match pcf {
        Some(p) if tessellation::source_order(module.func(p)) < tessellation::source_order(entry_fn) => {
            let pf = m.declare_function(&tessellation::mangled_name(module, module.func(p)), fty, None);
            (m.declare_function(name, fty, None), Some(pf))
        }
        Some(p) => {
            let main = m.declare_function(name, fty, None);
            (main, Some(m.declare_function(&tessellation::mangled_name(module, module.func(p)), fty, None)))
        }
        None => (m.declare_function(name, fty, None), None),
    };
    let mut kept = Vec::new();
    let (mut sigs, mut used, order) = {
        let mut l = Lowerer::new(module, m, main, target, options, ep.func);
        l.res = res;
        l.res.begin_function();
        l.lower_entry()?;
        kept.append(&mut l.kept_calls);
        (l.sigs.clone(), l.res.clone(), l.order.clone())
    };
    cleanup::reorder_blocks(m, main, &order);
    cleanup::remove_dead_code(m, main, options.gvn);
    if let (Some(p), Some(pf)) = (pcf, pcf_ir) {
        sigs.tess.patch_constant_phase = true;
        if sigs.tess.input_cp.is_none() {
            // DXC's count for a hull shader without an InputPatch.
            sigs.tess.input_control_points = 1;
        }
        let order = {
            let mut l = Lowerer::new(module, m, pf, target, options, p);
            l.sigs = sigs;
            l.res = used;
            l.res.begin_function();
            l.lower_entry()?;
            kept.append(&mut l.kept_calls);
            sigs = l.sigs.clone();
            used = l.res.clone();
            l.order.clone()
        };
        cleanup::reorder_blocks(m, pf, &order);
        cleanup::remove_dead_code(m, pf, options.gvn);
    }
    Ok(LoweredEntry { main, kept, patch_constant: pcf_ir, sigs, res: used })
}

/// An inlined call's return: the edges that reach the return block, with the value.
pub(crate) struct ReturnCtx {
    pub block: BlockId,
    pub edges: Vec<(BlockId, Vars, Flat)>,
}

/// A loop's `break`/`continue` targets and the edges collected for them.
pub(crate) struct LoopCtx {
    pub break_block: BlockId,
    pub continue_block: BlockId,
    pub breaks: Vec<(BlockId, Vars)>,
    pub continues: Vec<(BlockId, Vars)>,
}

/// Local variables' current SSA values.
pub(crate) type Vars = HashMap<VarId, Flat>;

pub(crate) struct Lowerer<'a> {
    pub t: &'a tast::Module,
    pub b: FunctionBuilder<'a>,
    pub target: Target,
    pub opts: &'a LowerOptions,
    pub entry_func: tast::FuncId,
    pub vars: Vars,
    /// Set once the current block has its terminator; statements after it are dead.
    pub terminated: bool,
    pub returns: Vec<ReturnCtx>,
    pub loops: Vec<LoopCtx>,
    /// `this` objects of the methods being inlined, innermost last: each is a pseudo-variable
    /// (see [`this_var`]) whose value lives in `vars`, so loops and branches merge it like any
    /// local.
    pub this_stack: Vec<VarId>,
    pub sigs: entry::SigState,
    pub res: resources::ResState,
    /// Number of instructions placed at the top of the entry block (handles).
    pub hoisted: usize,
    /// Inlining depth (bounded; the call graph has no cycles but may be deep).
    pub depth: u32,
    /// Blocks in the order code was first placed in them (source order), for the final layout.
    pub order: Vec<BlockId>,
    /// Globals of the groupshared variables used.
    pub shared: HashMap<VarId, groupshared::Shared>,
    /// A geometry shader's output streams, in parameter order.
    pub streams: Vec<geometry::StreamOut>,
    /// Hull and domain patch parameters.
    pub patches: Vec<tessellation::Patch>,
    /// Set while the initializer of a `precise` variable is lowered: dxc leaves its operations
    /// unsimplified (a `mad` with a constant multiplicand stays a `mad`).
    pub precise: bool,
    /// A ray tracing shader's `inout`/`out` parameters (see [`raytracing`]).
    pub ray_outs: Vec<raytracing::RayOut>,
    /// A mesh shader's output arrays (see [`mesh`]).
    pub mesh: mesh::MeshIo,
    /// `-Zi`: the function's `DISubprogram` and the file it is in (see [`debug`]).
    pub debug_scope: Option<(ir::MdId, hlslc_frontend::source::FileId)>,
    /// `[noinline]` functions this function calls that were declared here, still to be
    /// lowered (see [`calls`]).
    pub kept_calls: Vec<(tast::FuncId, ir::FuncId)>,
    /// This function is a `[noinline]` function: it has no copy of the static globals.
    pub in_kept: bool,
}

impl<'a> Lowerer<'a> {
    fn new(
        t: &'a tast::Module,
        m: &'a mut ir::Module,
        main: ir::FuncId,
        target: Target,
        opts: &'a LowerOptions,
        entry_func: tast::FuncId,
    ) -> Lowerer<'a> {
        let debug_scope = opts.debug.as_ref().map(|d| {
            let f = t.func(entry_func);
            let local = m.function(main).linkage == ir::Linkage::Internal;
            (debug::subprogram(m, d, &f.name, f.span, main, local), f.span.file)
        });
        let mut b = FunctionBuilder::new(m, main);
        let entry = b.append_block(None);
        b.position_at_end(entry);
        Lowerer {
            t,
            b,
            target,
            opts,
            entry_func,
            vars: HashMap::new(),
            terminated: false,
            returns: Vec::new(),
            loops: Vec::new(),
            this_stack: Vec::new(),
            sigs: entry::SigState::default(),
            res: resources::ResState::default(),
            hoisted: 0,
            depth: 0,
            order: vec![BlockId(0)],
            shared: HashMap::new(),
            streams: Vec::new(),
            patches: Vec::new(),
            precise: false,
            ray_outs: Vec::new(),
            mesh: mesh::MeshIo::default(),
            debug_scope,
            kept_calls: Vec::new(),
            in_kept: false,
        }
    }

    pub fn span(&self, e: ExprId) -> Option<Span> {
        Some(self.t.expr_span(e))
    }

    /// The scalar kinds of a type's flattened components.
    pub fn leaf_kinds(&self, ty: TypeId) -> Vec<ScalarKind> {
        let mut out = Vec::new();
        self.collect_leaves(ty, &mut out);
        out
    }

    fn collect_leaves(&self, ty: TypeId, out: &mut Vec<ScalarKind>) {
        let types = &self.t.types;
        match types.get(ty) {
            Type::Scalar(k) => out.push(*k),
            Type::Vector(k, n) => out.extend(std::iter::repeat_n(*k, *n as usize)),
            Type::Matrix { elem, rows, cols, .. } => out.extend(std::iter::repeat_n(*elem, (*rows * *cols) as usize)),
            Type::Enum(_) => out.push(types.component(ty).unwrap_or(ScalarKind::Int)),
            Type::Array { elem, len } => {
                for _ in 0..len.unwrap_or(0) {
                    self.collect_leaves(*elem, out);
                }
            }
            Type::Struct(s) => {
                let def = &types.structs[s.0 as usize];
                for b in &def.bases {
                    self.collect_leaves(*b, out);
                }
                for f in &def.fields {
                    self.collect_leaves(f.ty, out);
                }
            }
            // Objects are one handle; give them a placeholder kind.
            Type::Object { .. } => out.push(ScalarKind::UInt),
            _ => {}
        }
    }

    /// Number of flattened components.
    pub fn flat_len(&self, ty: TypeId) -> usize {
        self.leaf_kinds(ty).len()
    }

    /// The IR register type of a scalar kind.
    pub fn scalar_ir(&mut self, k: ScalarKind) -> ir::TypeId {
        scalar_type(&mut self.b.module.types, k)
    }

    /// The `dx.op` overload of a scalar kind.
    pub fn overload(k: ScalarKind) -> Overload {
        use ScalarKind::*;
        Overload::Scalar(match k {
            Bool => OK::I1,
            Int | UInt | LitInt => OK::I32,
            Int64 | UInt64 => OK::I64,
            Int16 | UInt16 | Min16Int | Min12Int | Min16UInt => OK::I16,
            Half | Min16Float | Min10Float => OK::Half,
            Float | LitFloat => OK::Float,
            Double => OK::Double,
        })
    }

    pub fn ci32(&mut self, v: i32) -> Value {
        Value::Const(self.b.module.const_i32(v))
    }
    pub fn ci8(&mut self, v: i8) -> Value {
        Value::Const(self.b.module.const_i8(v))
    }
    pub fn cbool(&mut self, v: bool) -> Value {
        Value::Const(self.b.module.const_bool(v))
    }
    pub fn undef_of(&mut self, k: ScalarKind) -> Value {
        let t = self.scalar_ir(k);
        Value::Const(self.b.module.undef(t))
    }
    pub fn undef_i32(&mut self) -> Value {
        let t = self.b.module.types.i32();
        Value::Const(self.b.module.undef(t))
    }

    /// A `dx.op` call through the checked builder; a refusal becomes a diagnostic at `span`.
    pub fn op(&mut self, op: DxilOp, o: Overload, args: &[Value], span: Option<Span>) -> R<Value> {
        try_create(&mut self.b, op, o, args, self.target).map_err(|e| LowerError { message: e.to_string(), span })
    }

    /// Moves the instruction `v`, just appended to the current block, to the top of the entry
    /// block (after earlier hoisted ones), so it dominates every use.
    pub fn hoist(&mut self, v: Value) {
        let Value::Inst(id) = v else { return };
        let cur = self.b.current_block().unwrap_or(BlockId(0));
        let body = self.b.module.function_mut(self.b.func).body.as_mut().expect("body");
        let blk = &mut body.blocks[cur.0 as usize];
        if blk.insts.last() == Some(&id) {
            blk.insts.pop();
        }
        let entry = &mut body.blocks[0];
        let at = self.hoisted.min(entry.insts.len());
        entry.insts.insert(at, id);
        self.hoisted += 1;
    }

    /// Makes a new block (not yet current).
    pub fn new_block(&mut self) -> BlockId {
        self.b.append_block(None)
    }

    /// Makes `block` current; code after a terminator continues there.
    pub fn switch_to(&mut self, block: BlockId) {
        self.b.position_at_end(block);
        self.terminated = false;
        if !self.order.contains(&block) {
            self.order.push(block);
        }
    }

    pub fn current(&self) -> BlockId {
        self.b.current_block().unwrap_or(BlockId(0))
    }
}

/// The IR register type of a scalar kind.
pub(crate) fn scalar_type(t: &mut ir::TypeTable, k: ScalarKind) -> ir::TypeId {
    use ScalarKind::*;
    match k {
        Bool => t.i1(),
        Int | UInt | LitInt => t.i32(),
        Int64 | UInt64 => t.int(64),
        Int16 | UInt16 | Min16Int | Min12Int | Min16UInt => t.int(16),
        Half | Min16Float | Min10Float => t.half(),
        Float | LitFloat => t.float(),
        Double => t.double(),
    }
}

/// The pseudo-variable holding the `this` object of the method inlined at nesting `level`
/// (counted from the top of sema's variable ids down, never a real variable).
pub(crate) fn this_var(level: usize) -> VarId {
    VarId(u32::MAX - level as u32)
}
