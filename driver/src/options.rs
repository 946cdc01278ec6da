//! [`Options`]: everything that decides what one compilation does, as plain data.
//!
//! The command lines fill it in (`crate::cli`), library users build it directly. Options that the
//! emitters will read (`-fvk-*`, `-fspv-*`, DXIL container settings) are kept here as typed data
//! even where nothing reads them yet; options with no typed field are kept verbatim in
//! [`Options::other`] so that none is silently lost.

use crate::profile::{HlslVersion, Profile};
pub use hlslc_frontend::pp::CmdDefine;
use std::path::PathBuf;

/// What the compilation produces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Action {
    /// Generate code (SPIR-V with [`Options::spirv`], DXIL otherwise).
    #[default]
    Compile,
    /// `-P`: the preprocessed source as text.
    Preprocess,
    /// `-fsyntax-only`: diagnostics only.
    SyntaxOnly,
    /// `-ast-dump` / `-ast-dump-implicit`: the typed AST after sema as text (types, value
    /// categories, implicit conversions as casts, resolved intrinsics).
    AstDump { implicit: bool },
    /// `-ast-dump-parse` (hlslc only): the parser's syntax tree as text, before sema.
    ParseDump,
    /// `-verify`: check the diagnostics against `expected-*` comments in the source.
    Verify,
    /// `-M`: list the files the source depends on.
    Dependencies,
}

/// Form of the generated code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum OutputKind {
    /// Assembly text (SPIR-V disassembly / DXIL LLVM assembly), what dxc prints without `-Fo`.
    #[default]
    Text,
    /// The binary (SPIR-V words / DXIL container).
    Binary,
}

/// `-Zpr` / `-Zpc`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MatrixPacking {
    RowMajor,
    ColumnMajor,
}

/// `-denorm`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Denorm {
    #[default]
    Any,
    Preserve,
    Ftz,
}

/// `-fspv-target-env=`: the SPIR-V emitter's own target type, so the two never disagree.
pub use hlslc_spirv::TargetEnv;

/// Register class of a `-fvk-*-shift` option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RegisterClass {
    B,
    T,
    S,
    U,
}

/// `-fvk-<c>-shift <shift> <space>`; `space: None` is `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingShift {
    pub class: RegisterClass,
    pub shift: u32,
    pub space: Option<u32>,
}

/// `-fvk-bind-register <reg> <space> <binding> <set>`; `register` as written (`t3`, `b0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindRegister {
    pub register: String,
    pub space: u32,
    pub binding: u32,
    pub set: u32,
}

/// A (binding, set) pair from `-fvk-bind-globals` and the `-fvk-bind-*-heap` options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub binding: u32,
    pub set: u32,
}

/// Memory layout rules for Vulkan resources.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum LayoutRule {
    /// Vulkan's relaxed std140/std430 (dxc's default).
    #[default]
    Default,
    /// `-fvk-use-gl-layout`.
    Gl,
    /// `-fvk-use-dx-layout`.
    Dx,
    /// `-fvk-use-scalar-layout`.
    Scalar,
}

/// Settings of the SPIR-V back end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpirvOptions {
    pub target_env: TargetEnv,
    /// `-fspv-extension=` values in order (`KHR` allows all KHR extensions).
    pub extensions: Vec<String>,
    /// `-fspv-debug=` values in order.
    pub debug: Vec<String>,
    pub reflect: bool,
    pub flatten_resource_arrays: bool,
    pub entrypoint_name: Option<String>,
    pub use_vulkan_memory_model: bool,
    pub use_legacy_buffer_matrix_order: bool,
    pub use_unknown_image_format: bool,
    pub use_descriptor_heap: bool,
    pub preserve_bindings: bool,
    pub preserve_interface: bool,
    pub reduce_load_size: bool,
    pub fix_func_call_arguments: bool,
    pub enable_maximal_reconvergence: bool,
    pub print_all: bool,
    pub max_id: Option<u32>,
    /// `-fvk-stage-io-order=alpha` (locations by name) instead of declaration order.
    pub stage_io_order_alpha: bool,
    pub binding_shifts: Vec<BindingShift>,
    pub auto_shift_bindings: bool,
    pub bind_registers: Vec<BindRegister>,
    pub bind_globals: Option<Binding>,
    pub resource_heap: Option<Binding>,
    pub sampler_heap: Option<Binding>,
    pub counter_heap: Option<Binding>,
    pub invert_y: bool,
    pub use_dx_position_w: bool,
    pub layout: LayoutRule,
    pub support_nonzero_base_instance: bool,
    pub support_nonzero_base_vertex: bool,
    pub allow_rwstructuredbuffer_arrays: bool,
    /// `-Oconfig=` passes, in order.
    pub optimizer_config: Vec<String>,
}

/// Settings of the DXIL back end and container.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DxilOptions {
    /// `-validator-version major.minor`.
    pub validator_version: Option<(u32, u32)>,
    /// `-default-linkage`: `Some(true)` external, `Some(false)` internal.
    pub default_linkage_external: Option<bool>,
    pub exports: Vec<String>,
    pub export_shaders_only: bool,
    pub auto_binding_space: Option<u32>,
    pub rootsig_define: Option<String>,
    pub binding_table_define: Option<String>,
    pub force_rootsig_ver: Option<String>,
    pub denorm: Denorm,
    pub enable_payload_qualifiers: Option<bool>,
    pub enable_lifetime_markers: Option<bool>,
    pub all_resources_bound: bool,
    pub res_may_alias: bool,
    pub pack_optimized: bool,
    pub legacy_resource_reservation: bool,
    pub no_legacy_cbuf_layout: bool,
    pub strip_reflection: bool,
    pub strip_debug: bool,
    pub embed_debug: bool,
    pub strip_private: bool,
    pub strip_root_signature: bool,
    pub opt_enable: Vec<String>,
    pub opt_disable: Vec<String>,
    pub precise_outputs: Vec<String>,
}

/// Everything that decides what one call of [`crate::compile`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `-T`. Required to generate code; optional for `-P`, `-fsyntax-only` and `-ast-dump`
    /// (then the `__SHADER_TARGET_*` macros are not defined).
    pub profile: Option<Profile>,
    /// `-E`, default `main`.
    pub entry: String,
    /// `-D`, in command-line order.
    pub defines: Vec<CmdDefine>,
    /// `-I`, in command-line order.
    pub include_dirs: Vec<PathBuf>,
    /// Look for `#include`d files on the file system (the command lines set this; library users
    /// may turn it off and supply files through the include handler only).
    pub use_filesystem: bool,
    pub hlsl_version: HlslVersion,
    pub enable_16bit_types: bool,
    /// `-spirv`: generate SPIR-V (otherwise DXIL).
    pub spirv: bool,
    pub action: Action,
    pub output_kind: OutputKind,
    /// Also produce the assembly listing when `output_kind` is `Binary` (`-Fo` with `-Fc`).
    pub listing: bool,
    /// `-O0` .. `-O3`; default 3.
    pub opt_level: u8,
    /// `-Od`.
    pub disable_optimizations: bool,
    /// `-fcgl`: high-level code, no optimization or legalization.
    pub high_level_only: bool,
    /// `-Zi`.
    pub debug_info: bool,
    pub matrix_packing: Option<MatrixPacking>,
    /// `-WX`.
    pub warnings_as_errors: bool,
    /// `-no-warnings` (and `-w`).
    pub no_warnings: bool,
    /// `-W...` values in order (`no-conversion`, `double-promotion`).
    pub warning_options: Vec<String>,
    /// `-Vd`.
    pub disable_validation: bool,
    /// `-Gec`, `-Ges`, `-Gis`, `-Gfa`, `-Gfp` as set.
    pub backward_compat: bool,
    pub strict_mode: bool,
    pub ieee_strict: bool,
    /// `-ffinite-math-only` (the last of it and `-fno-finite-math-only` wins).
    pub finite_math_only: bool,
    pub flegacy_macro_expansion: bool,
    pub ignore_line_directives: bool,
    pub spirv_options: SpirvOptions,
    pub dxil_options: DxilOptions,
    /// Accepted options with no typed field above, verbatim (name without prefix, values), in
    /// command-line order.
    pub other: Vec<(String, Vec<String>)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: None,
            entry: "main".to_string(),
            defines: Vec::new(),
            include_dirs: Vec::new(),
            use_filesystem: true,
            hlsl_version: HlslVersion::V2021,
            enable_16bit_types: false,
            spirv: false,
            action: Action::Compile,
            output_kind: OutputKind::Text,
            listing: false,
            opt_level: 3,
            disable_optimizations: false,
            high_level_only: false,
            debug_info: false,
            matrix_packing: None,
            warnings_as_errors: false,
            no_warnings: false,
            warning_options: Vec::new(),
            disable_validation: false,
            backward_compat: false,
            strict_mode: false,
            ieee_strict: false,
            finite_math_only: false,
            flegacy_macro_expansion: false,
            ignore_line_directives: false,
            spirv_options: SpirvOptions::default(),
            dxil_options: DxilOptions::default(),
            other: Vec::new(),
        }
    }
}

impl Options {
    /// Options for `profile` with everything else at its default.
    pub fn for_profile(profile: Profile) -> Options {
        Options { profile: Some(profile), ..Options::default() }
    }
}
