//! Lowering of sema's typed AST to SPIR-V, in the shape DXC's `-fcgl` output has.
//!
//! One [`Lowerer`] walks one [`Module`]: global resources first ([`resources`]), then the entry
//! point wrapper that loads stage inputs and stores outputs ([`entry`]), then every function the
//! entry reaches, each lowered on demand ([`stmt`], [`expr`], [`intrinsics`]). Types are
//! translated in [`types`] with the memory layout of the storage they live in ([`layout`]).
//!
//! The mapping follows `SPIR-V.rst` (DXC's HLSL→SPIR-V mapping) and DXC's names: `%src_main`,
//! `%bb_entry`, `%param_var_x`, `%in_var_TEXCOORD0`, `%out_var_SV_Target`, `%type_...`.
//! HLSL matrices become transposed SPIR-V matrices: an HLSL row is a SPIR-V column (see
//! [`types`]); that choice is made in `types.rs` and `expr.rs::mul` only.
//!
//! Unsupported constructs are reported as a [`LowerError`] with the span of the construct; the
//! lowering never panics on a module sema accepted.

mod bindings;
mod cast;
mod cf;
mod clip;
mod combined;
mod cond;
pub(crate) mod debuginfo;
mod entry;
mod expr;
mod fold;
mod heap;
mod inline_spirv;
mod inline_types;
mod intrinsics;
pub mod layout;
mod pervertex;
mod place;
mod pointers;
mod raytracing;
mod refusals;
mod resources;
mod resmixed;
mod resvalue;
mod stages;
mod stmt;
mod subpass;
mod types;
mod vulkan_vars;

use crate::builder::{BuiltModule, ModuleBuilder};
use crate::error::BuildError;
use crate::id::SpvId;
use crate::target::TargetEnv;
use hlslc_frontend::Span;
use hlslc_sema::tast::{CBufferId, FuncId, Module, VarId};
use hlslc_sema::types::TypeId;
use layout::{Layout, LayoutRules};
use spirv::StorageClass;
use hlslc_frontend::fxhash::FxMap as HashMap;

/// Options of the SPIR-V lowering (the `-fvk-*` / `-fspv-*` flags that affect it).
#[derive(Clone, Debug)]
pub struct LowerOptions {
    pub target: TargetEnv,
    /// `-HV`: from 2021 on, `&&`, `||` and `?:` with a scalar condition evaluate only the operand
    /// they need (branches through a temporary); before, both operands and `OpSelect`.
    pub hlsl_version: u32,
    pub layout: LayoutRules,
    /// `-fvk-invert-y`: negate `SV_Position.y` in vertex-like stages.
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`: use `1/w` of `SV_Position` in pixel shaders.
    pub dx_position_w: bool,
    /// `-fvk-{b,t,s,u}-shift N M` as (register letter, shift, space).
    pub binding_shifts: Vec<(char, u32, u32)>,
    /// `-auto-binding-space N`: the descriptor set of resources without `register(..., spaceM)`.
    pub auto_binding_space: Option<u32>,
    /// The entry point's name in `OpEntryPoint` (`-E`).
    pub entry_name: String,
    /// `-ffinite-math-only`: `min`/`max` may use FMin/FMax instead of NaN-aware NMin/NMax.
    pub finite_math_only: bool,
    /// `-fvk-bind-resource-heap`, `-fvk-bind-sampler-heap`, `-fvk-bind-counter-heap` as
    /// (binding, set).
    pub resource_heap_binding: Option<(u32, u32)>,
    pub sampler_heap_binding: Option<(u32, u32)>,
    pub counter_heap_binding: Option<(u32, u32)>,
    /// `-fvk-{b,t,s,u}-shift N all` as (register letter, shift); a shift for the set wins.
    pub binding_shifts_all: Vec<(char, u32)>,
    /// `-fvk-auto-shift-bindings`: resources without `register()` are shifted by their class.
    pub auto_shift_bindings: bool,
    /// `-fvk-bind-register` as (letter, number, space, binding, set).
    pub bind_registers: Vec<(char, u32, u32, u32, u32)>,
    /// `-fvk-bind-globals` as (binding, set).
    pub bind_globals: Option<(u32, u32)>,
    /// `-fspv-flatten-resource-arrays`: an array of N resources takes N binding numbers.
    pub flatten_resource_arrays: bool,
    /// `-fspv-use-unknown-image-format`: storage images without `[[vk::image_format]]` get the
    /// `Unknown` format instead of one deduced from the element type.
    pub unknown_image_format: bool,
    /// `-fspv-enable-maximal-reconvergence`.
    pub maximal_reconvergence: bool,
    /// `-Zi`: the source files, for `OpSource` with the main file's text and `OpLine`s.
    pub debug_source: Option<DebugSource>,
    /// `-fspv-extension=SPV_NV_ray_tracing`: ray tracing through `SPV_NV_ray_tracing`
    /// (`OpTraceNV`, payload locations as operands) instead of `SPV_KHR_ray_tracing`.
    pub ray_tracing_nv: bool,
    /// `-fspv-extension=` allows `SPV_KHR_compute_shader_derivatives` (by name or as `KHR`) and
    /// not the NV one: compute derivatives are declared with the KHR extension, as DXC does
    /// under such a list (by default the NV spelling, which the SPIRV-Tools we validate with know).
    pub compute_derivatives_khr: bool,
    /// `-fspv-extension=` allows `SPV_NV_mesh_shader` and not `SPV_EXT_mesh_shader`: mesh and
    /// amplification shaders take the NV flavour (`MeshNV`/`TaskNV`) even on SPIR-V 1.4+, as
    /// DXC does. Before SPIR-V 1.4 they always do.
    pub mesh_nv: bool,
    /// `-fvk-support-nonzero-base-instance`: `SV_InstanceID` is `InstanceIndex - BaseInstance`.
    pub nonzero_base_instance: bool,
    /// `-fvk-support-nonzero-base-vertex`: `SV_VertexID` is `VertexIndex - BaseVertex`.
    pub nonzero_base_vertex: bool,
    /// `-fvk-stage-io-order=alpha`: stage variable locations in the order of their semantics.
    pub stage_io_order_alpha: bool,
    /// `-fcgl`: the module before legalization; a texture and a sampler with
    /// `[[vk::combinedImageSampler]]` stay two variables sharing a binding ([`crate::passes::combined`]).
    pub high_level_only: bool,
    /// `-fspv-reflect`: the HLSL semantic of each stage variable (`UserSemantic`), the HLSL type
    /// of each resource (`UserTypeGOOGLE`) and the counter of each counted buffer
    /// (`CounterBuffer`), from `SPV_GOOGLE_hlsl_functionality1` and `SPV_GOOGLE_user_type`.
    pub reflect: bool,
    /// `-fspv-fix-func-call-arguments`: `out`/`inout` lvalue arguments are passed as pointers
    /// (DXC's shape), to be copied through temporaries by spirv-opt's `fixcall` pass.
    pub fix_func_call_arguments: bool,
}

/// The sources of a compilation and what debug information to write about them (`-Zi`,
/// `-fspv-debug=`; see [`debuginfo`]).
#[derive(Clone, Debug)]
pub struct DebugSource {
    pub files: hlslc_frontend::source::SourceMap,
    pub main: hlslc_frontend::source::FileId,
    /// `OpSource`'s version: the shader model as major * 100 + minor * 10 (`600` for 6.0).
    pub version: u32,
    /// dxc's categories: the file name, its text, line information, the tool
    /// (`OpModuleProcessed`).
    pub file: bool,
    pub source: bool,
    pub line: bool,
    pub tool: bool,
    /// `NonSemantic.Shader.DebugInfo.100` instead of `OpSource`/`OpLine`.
    pub vulkan: bool,
    /// `OpenCL.DebugInfo.100` (`-fspv-debug=rich`) with `OpLine`s, when `vulkan` is not set.
    pub rich: bool,
    /// The longest piece of source text in one string, in bytes.
    pub source_len: usize,
    /// The command line without the input file, each argument after a space (dxc's
    /// `clOptions`), for `OpModuleProcessed` and `DebugEntryPoint`.
    pub command_line: String,
}

impl DebugSource {
    /// What `-Zi` alone writes: every category of `OpSource`/`OpLine` debug information.
    pub fn zi(files: hlslc_frontend::source::SourceMap, main: hlslc_frontend::source::FileId, version: u32) -> DebugSource {
        DebugSource {
            files,
            main,
            version,
            file: true,
            source: true,
            line: true,
            tool: true,
            vulkan: false,
            rich: false,
            source_len: DEFAULT_SOURCE_LEN,
            command_line: String::new(),
        }
    }
}

/// dxc's longest piece of source text in one `OpSource`/`DebugSource` string (0xFFFD).
pub const DEFAULT_SOURCE_LEN: usize = 0xFFFD;

impl Default for LowerOptions {
    fn default() -> LowerOptions {
        LowerOptions {
            target: TargetEnv::default(),
            hlsl_version: 2021,
            layout: LayoutRules::default(),
            invert_y: false,
            dx_position_w: false,
            binding_shifts: Vec::new(),
            auto_binding_space: None,
            entry_name: String::new(),
            finite_math_only: false,
            resource_heap_binding: None,
            sampler_heap_binding: None,
            counter_heap_binding: None,
            binding_shifts_all: Vec::new(),
            auto_shift_bindings: false,
            bind_registers: Vec::new(),
            bind_globals: None,
            flatten_resource_arrays: false,
            unknown_image_format: false,
            maximal_reconvergence: false,
            debug_source: None,
            ray_tracing_nv: false,
            compute_derivatives_khr: false,
            mesh_nv: false,
            nonzero_base_instance: false,
            nonzero_base_vertex: false,
            stage_io_order_alpha: false,
            high_level_only: false,
            reflect: false,
            fix_func_call_arguments: false,
        }
    }
}

/// Why lowering failed: an unsupported construct, or a builder invariant broken by a bug.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
    pub span: Option<Span>,
    /// Extra lines printed as `note: ...` after the error.
    pub notes: Vec<String>,
    /// Reported as dxc reports it: `fatal error:` rather than `error:`.
    pub fatal: bool,
}

impl From<BuildError> for LowerError {
    fn from(e: BuildError) -> LowerError {
        LowerError { fatal: false, message: format!("internal error in SPIR-V generation: {e}"), span: None, notes: Vec::new() }
    }
}

pub(crate) type R<T> = Result<T, LowerError>;

pub(crate) fn unsupported<T>(what: impl Into<String>, span: Option<Span>) -> R<T> {
    Err(LowerError {
        fatal: false,
        message: format!("{} is not supported by the SPIR-V backend yet", what.into()),
        span,
        notes: Vec::new(),
    })
}

/// How a variable is reached.
#[derive(Clone, Debug)]
pub(crate) enum VarHome {
    /// A pointer to the variable's value, laid out by `layout`.
    Ptr { ptr: SpvId, storage: StorageClass, layout: Layout },
    /// Member `index` of a constant buffer variable.
    CBufferMember { buffer: SpvId, index: u32 },
    /// A `static` resource variable: each use designates the descriptor its initializer does
    /// (re-lowered where used, see [`heap`]).
    Alias(hlslc_sema::tast::ExprId),
    /// A specialization constant: the id is its value, in logical form (see [`vulkan_vars`]).
    Value(SpvId),
    /// A variable whose type holds only resources (a struct or array of them, a resource
    /// local built from an initializer list), or one whose resource depends on the control
    /// flow: the resources it designates, known at compile time (see [`resvalue`]).
    Res(resvalue::ResValue),
}

/// A buffer parameter of a user function bound, in one copy of the function, to the buffer
/// variable the callers pass (SPIR-V's logical addressing has no pointer parameters into
/// `Uniform`/`StorageBuffer` storage).
#[derive(Clone, Debug)]
pub(crate) struct BoundParam {
    /// Index of the parameter.
    pub index: usize,
    /// The module-scope variable passed.
    pub ptr: SpvId,
    pub storage: StorageClass,
    pub layout: Layout,
    /// Its counter variable, if it has one.
    pub counter: Option<SpvId>,
    /// For a parameter holding resources at compile time (a struct or array of resources):
    /// what the argument designates (`ptr` is then unused).
    pub res: Option<resvalue::ResValue>,
    /// For a scalar parameter that selects the resources a call in the body returns
    /// (`getTexture(i)`): the constant the caller passes (`ptr` is its id). The copy reads the
    /// parameter as that constant, as DXC's legalization does after inlining.
    pub konst: Option<hlslc_sema::tast::ConstValue>,
}

impl BoundParam {
    /// The index of `this` when a method's object holds resources.
    pub(crate) const THIS: usize = usize::MAX;

    /// Parameter `index` bound to the resources `res` designates (no variable is passed).
    pub(crate) fn resources(index: usize, res: resvalue::ResValue) -> BoundParam {
        BoundParam {
            index,
            ptr: SpvId(0),
            storage: StorageClass::UniformConstant,
            layout: Layout::Logical,
            counter: None,
            res: Some(res),
            konst: None,
        }
    }

    /// What tells copies of a function apart.
    fn key(&self, out: &mut Vec<SpvId>) {
        out.push(SpvId(0x8000_0000 | self.index as u32));
        match &self.res {
            Some(r) => r.key(out),
            None => out.push(self.ptr),
        }
    }
}

/// Loop or switch targets for `break` / `continue`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Breakable {
    pub break_to: SpvId,
    /// `None` for a switch.
    pub continue_to: Option<SpvId>,
}

pub(crate) struct Lowerer<'m> {
    pub m: &'m Module,
    pub b: ModuleBuilder,
    pub opts: &'m LowerOptions,
    types: HashMap<(TypeId, Layout), SpvId>,
    pub vars: HashMap<VarId, VarHome>,
    pub cbuffers: HashMap<CBufferId, SpvId>,
    funcs: HashMap<FuncId, SpvId>,
    pending: Vec<FuncId>,
    /// Copies of user functions with buffer parameters, one per list of buffers passed (see
    /// `expr.rs::call`): (function, buffers) → id, and those not lowered yet.
    specialized: HashMap<(FuncId, Vec<SpvId>), SpvId>,
    pending_specialized: Vec<(FuncId, SpvId, Vec<BoundParam>)>,
    pub breakables: Vec<Breakable>,
    /// `this` of the method being lowered.
    pub this_ptr: Option<SpvId>,
    /// `this` of a method of a struct holding resources (the copy made for the object's
    /// resources, see `resmixed.rs`).
    pub this_res: Option<resvalue::ResValue>,
    pub ret_ty: TypeId,
    /// Every module-scope variable, for the entry point interface of SPIR-V 1.4+.
    pub global_ids: Vec<SpvId>,
    /// An output writes `SV_Depth`.
    pub depth_replacing: bool,
    /// The stage output variables of a geometry shader's output stream, written by `Append`.
    pub(crate) stream_out: Option<entry::OutTree>,
    /// The stage being lowered.
    pub(crate) stage: Option<hlslc_sema::tast::Stage>,
    /// Built-in input variables made on demand by intrinsics (`WaveGetLaneCount` reads
    /// `SubgroupSize`), one per built-in.
    pub builtin_vars: HashMap<spirv::BuiltIn, SpvId>,
    /// The counter variable (`counter.var.NAME`) of each structured buffer that has one.
    pub counters: HashMap<VarId, SpvId>,
    /// `-fspv-reflect`: the resource variables with a descriptor binding and their HLSL type
    /// names, decorated `UserTypeGOOGLE` after every other decoration (as DXC's emitter does
    /// when it writes the variables).
    user_types: Vec<(SpvId, String)>,
    /// The variables of rasterizer-ordered views, for [`crate::passes::interlock`].
    pub(crate) rov_vars: Vec<crate::passes::interlock::RovVar>,
    /// Descriptor heap variables ([`heap`]).
    pub(crate) heaps: heap::Heaps,
    /// How many branching statements (if, loops, switch) enclose the statement being lowered.
    pub(crate) cf_depth: u32,
    /// Local variables of resource type, with the `cf_depth` of their declaration.
    pub(crate) resource_locals: HashMap<VarId, u32>,
    /// Function parameters that point to a caller's resource.
    pub(crate) pointer_params: hlslc_frontend::fxhash::FxSet<SpvId>,
    /// The block type of each push-constant variable ([`vulkan_vars`]).
    pub(crate) push_blocks: HashMap<VarId, SpvId>,
    /// `[[vk::image_format]]` of image types ([`vulkan_vars`]).
    pub(crate) image_formats: HashMap<TypeId, spirv::ImageFormat>,
    /// The module declares specialization constants.
    pub(crate) has_spec_constants: bool,
    /// Lowering a static global's initializer: operators on specialization constants become
    /// `OpSpecConstantOp`.
    pub(crate) spec_mode: bool,
    /// `-Zi`: the `OpString` of the main file, which `OpLine`s name.
    pub(crate) debug_file: Option<SpvId>,
    /// `-fspv-debug=vulkan`: the state of `NonSemantic.Shader.DebugInfo.100` ([`debuginfo`]).
    pub(crate) dbg: Option<debuginfo::DebugInfo>,
    /// Ray tracing state: payload and callable-data locations, hit attributes ([`raytracing`]).
    pub(crate) ray: raytracing::RayState,
    /// A mesh shader's `out vertices/indices/primitives` parameters: where their elements live
    /// (`stages/mesh.rs`).
    pub(crate) mesh_outs: HashMap<VarId, std::rc::Rc<stages::MeshNode>>,
    /// The NV mesh flavour's count built-in and an amplification shader's per-task outputs
    /// (`stages/mesh.rs`).
    pub(crate) mesh_nv_vars: stages::MeshNvVars,
    /// `[[vk::ext_builtin_input/output(N)]]` variables by (built-in, storage class)
    /// ([`inline_spirv`]).
    pub(crate) ext_builtins: HashMap<(u32, StorageClass), SpvId>,
    /// Module-scope variables made by inline SPIR-V attributes, added to the entry points'
    /// interfaces at the end.
    pub(crate) inline_interface: Vec<SpvId>,
    /// Errors reported while lowering goes on (as dxc's `emitError` without returning), so that
    /// one run reports each of them; lowering fails at the end when there is any ([`Lowerer::defer_error`]).
    pub(crate) deferred: Vec<LowerError>,
    /// Buffer device addresses ([`pointers`]).
    pub(crate) pointers: pointers::Pointers,
    /// Resources with `[[vk::combinedImageSampler]]` and their bindings ([`combined`]).
    pub(crate) combined: Vec<combined::Member>,
    /// The texture and sampler variables to make one combined image sampler each.
    pub(crate) combined_pairs: Vec<combined::Pair>,
    /// While finding what a call returns at compile time (`resvalue.rs`): the callee's
    /// parameters that the call passes a constant and that its body never writes, with the
    /// constant; [`fold`] reads them as constants.
    pub(crate) const_params: HashMap<VarId, hlslc_sema::tast::ConstValue>,
}

/// Lowers a checked module with an entry point to a SPIR-V module (before the whole-module
/// passes).
pub fn lower_module(m: &Module, opts: &LowerOptions) -> Result<BuiltModule, LowerError> {
    lower_module_all(m, opts).map_err(|mut errors| errors.remove(0))
}

/// [`lower_module`] with every error it reports (at least one when it fails), in order.
pub fn lower_module_all(m: &Module, opts: &LowerOptions) -> Result<BuiltModule, Vec<LowerError>> {
    // `GetAttributeAtVertex` in a pixel shader: per-vertex inputs, on a copy (`pervertex.rs`).
    let per_vertex = pervertex::rewrite(m)?;
    let m = per_vertex.as_ref().unwrap_or(m);
    let mut l = Lowerer {
        m,
        b: ModuleBuilder::new(opts.target),
        opts,
        types: HashMap::default(),
        vars: HashMap::default(),
        cbuffers: HashMap::default(),
        funcs: HashMap::default(),
        pending: Vec::new(),
        specialized: HashMap::default(),
        pending_specialized: Vec::new(),
        breakables: Vec::new(),
        this_ptr: None,
        this_res: None,
        ret_ty: hlslc_sema::types::TypeTable::VOID,
        global_ids: Vec::new(),
        depth_replacing: false,
        counters: HashMap::default(),
        user_types: Vec::new(),
        rov_vars: Vec::new(),
        stream_out: None,
        stage: None,
        builtin_vars: HashMap::default(),
        heaps: heap::Heaps::default(),
        cf_depth: 0,
        resource_locals: HashMap::default(),
        pointer_params: Default::default(),
        push_blocks: HashMap::default(),
        image_formats: HashMap::default(),
        has_spec_constants: false,
        pointers: pointers::Pointers::default(),
        spec_mode: false,
        debug_file: None,
        dbg: None,
        ray: raytracing::RayState::default(),
        mesh_outs: HashMap::default(),
        mesh_nv_vars: stages::MeshNvVars::default(),
        ext_builtins: HashMap::default(),
        inline_interface: Vec::new(),
        deferred: Vec::new(),
        combined: Vec::new(),
        combined_pairs: Vec::new(),
        const_params: HashMap::default(),
    };
    let run = l.lower_all();
    let mut errors = std::mem::take(&mut l.deferred);
    // In source order, as dxc reports them (functions are lowered in call order, not the order
    // they are written in); errors of other files or without a place keep their order after.
    errors.sort_by_key(|e| e.span.map_or((u32::MAX, u32::MAX), |s| (s.file.0, s.start)));
    if let Err(e) = run {
        errors.push(e);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let late = std::mem::take(&mut l.ray.late_vars);
    let globals = std::mem::take(&mut l.global_ids);
    let pairs = std::mem::take(&mut l.combined_pairs);
    let rovs = std::mem::take(&mut l.rov_vars);
    let mut built = l.b.finish().map_err(|e| vec![LowerError::from(e)])?;
    raytracing::finish_late_vars(&mut built.module, &late, &globals, opts.target.spirv_version() >= (1, 4));
    if !opts.high_level_only {
        crate::passes::combined::run(&mut built.module, &pairs)
            .map_err(|message| vec![LowerError { fatal: false, message, span: None, notes: Vec::new() }])?;
    }
    crate::passes::interlock::run(&mut built.module, &rovs, opts.high_level_only)
        .map_err(|message| vec![LowerError { fatal: false, message, span: None, notes: Vec::new() }])?;
    Ok(built)
}

impl<'m> Lowerer<'m> {
    /// Reports an error and lets lowering go on (the caller continues with a placeholder value):
    /// the module is not produced, and every such error is reported.
    pub(crate) fn defer_error(&mut self, message: impl Into<String>, span: Option<Span>) {
        self.deferred.push(LowerError { fatal: false, message: message.into(), span, notes: Vec::new() });
    }

    /// The whole module: entry points, the functions they call, the module-scope state.
    fn lower_all(&mut self) -> R<()> {
        let (m, opts) = (self.m, self.opts);
        let l = self;
        if m.entries.is_empty() {
            return unsupported("a module without an entry point (a library without [shader(\"...\")] functions)", None);
        }
        // Attributes the attribute table says this back end refuses (hlslc_sema::attrs).
        if let Some((u, message)) = hlslc_sema::attrs::refused_attribute(m, hlslc_sema::attrs::Target::Spirv) {
            return Err(LowerError { fatal: false, message, span: Some(u.span), notes: Vec::new() });
        }
        l.b.capability(spirv::Capability::Shader);
        l.b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        l.debug_begin();
        l.refuse_declarations();
        l.collect_image_formats()?;
        if opts.reflect {
            // As DXC: both extensions with -fspv-reflect, whether or not a decoration needs them.
            l.b.extension("SPV_GOOGLE_hlsl_functionality1");
            l.b.extension("SPV_GOOGLE_user_type");
        }
        l.declare_resources()?;
        for entry in &m.entries {
            l.stage = Some(entry.stage);
            l.stream_out = None;
            l.depth_replacing = false;
            l.lower_entry(entry)?;
        }
        loop {
            if let Some(f) = l.pending.pop() {
                let id = l.func_id(f);
                l.lower_function(f, id, &[])?;
            } else if let Some((f, id, bound)) = l.pending_specialized.pop() {
                l.lower_function(f, id, &bound)?;
            } else {
                break;
            }
        }
        l.finish_inline_interfaces();
        l.finish_pointers();
        l.debug_end();
        l.bind_heaps();
        l.finish_user_types();
        l.combined_pairs = l.combined_pairs()?;
        Ok(())
    }
}

impl<'m> Lowerer<'m> {
    /// The id of a user function, queueing it for lowering the first time it is referenced.
    pub(crate) fn func_id(&mut self, f: FuncId) -> SpvId {
        if let Some(&id) = self.funcs.get(&f) {
            return id;
        }
        // `-fspv-debug=rich` gave the function its id for its DebugFunction.
        let id = match self.dbg.as_ref().and_then(|d| d.fn_ids.get(&f).copied()) {
            Some(id) => id,
            None => self.b.ctx.alloc_id(),
        };
        self.funcs.insert(f, id);
        self.pending.push(f);
        id
    }

    /// The id of the copy of user function `f` whose buffer parameters are bound to `bound`,
    /// queued for lowering the first time.
    pub(crate) fn specialized_func_id(&mut self, f: FuncId, bound: Vec<BoundParam>) -> SpvId {
        let mut ids = Vec::new();
        for b in &bound {
            b.key(&mut ids);
        }
        let key = (f, ids);
        if let Some(&id) = self.specialized.get(&key) {
            return id;
        }
        let id = self.b.ctx.alloc_id();
        self.specialized.insert(key, id);
        self.pending_specialized.push((f, id, bound));
        id
    }

    /// `-Zi`: `OpLine` for a statement of the main file at `span` (statements of included
    /// files get none).
    pub(crate) fn debug_line(&mut self, span: Option<Span>) -> R<()> {
        if self.dbg.is_some() {
            match span {
                Some(s) if !self.debug_statement(s)? => {}
                _ => return Ok(()),
            }
        }
        let (Some(file), Some(ds), Some(span)) = (self.debug_file, &self.opts.debug_source, span) else { return Ok(()) };
        if span.file != ds.main {
            return Ok(());
        }
        let (line, col) = ds.files.file(ds.main).line_col(span.start);
        use rspirv::dr::Operand;
        let ops = vec![Operand::IdRef(file.0), Operand::LiteralBit32(line as u32), Operand::LiteralBit32(col as u32)];
        self.b.void(spirv::Op::Line, ops)?;
        Ok(())
    }

    pub(crate) fn expr_span(&self, e: hlslc_sema::tast::ExprId) -> Option<Span> {
        self.m.spans.exprs.get(e.0 as usize).copied()
    }
}

/// Lowers a checked module and runs the whole-module passes: the finished rspirv module (what the
/// optimizer, `hlslc-spirv-opt`, works on).
pub fn emit_module(m: &Module, opts: &LowerOptions) -> Result<rspirv::dr::Module, LowerError> {
    emit_module_all(m, opts).map_err(|mut errors| errors.remove(0))
}

/// [`emit_module`] with every error lowering reports (at least one when it fails), in order.
pub fn emit_module_all(m: &Module, opts: &LowerOptions) -> Result<rspirv::dr::Module, Vec<LowerError>> {
    let mut built = lower_module_all(m, opts)?;
    crate::passes::run_all(&mut built);
    check_strings(&built.module)?;
    Ok(built.module)
}

/// SPIR-V ends a literal string at its first NUL: a string holding one (an extension name or
/// embedded source text with a `\0`) would be written as a shorter string followed by stray
/// words that no consumer can decode (found by fuzzing). Refused, naming the instruction.
fn check_strings(module: &rspirv::dr::Module) -> Result<(), Vec<LowerError>> {
    for inst in module.all_inst_iter() {
        for op in &inst.operands {
            if let rspirv::dr::Operand::LiteralString(s) = op {
                if s.contains('\0') {
                    let shown: String = s.chars().take(40).map(|c| if c == '\0' { '\u{2400}' } else { c }).collect();
                    return Err(vec![LowerError {
                        fatal: false,
                        message: format!(
                            "a string with a NUL character cannot be written to SPIR-V (Op{:?} \"{shown}\")",
                            inst.class.opcode
                        ),
                        span: None,
                        notes: Vec::new(),
                    }]);
                }
            }
        }
    }
    Ok(())
}

/// Lowers a checked module and runs the whole-module passes: the SPIR-V binary.
pub fn emit_spirv(m: &Module, opts: &LowerOptions) -> Result<Vec<u32>, LowerError> {
    use rspirv::binary::Assemble;
    Ok(emit_module(m, opts)?.assemble())
}
