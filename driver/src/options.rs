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
    AstDump {
        /// `-ast-dump-implicit`: implicit declarations too.
        implicit: bool,
    },
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
    /// `-Zpr`: matrices are row-major unless declared otherwise.
    RowMajor,
    /// `-Zpc`: matrices are column-major unless declared otherwise (the default).
    ColumnMajor,
}

/// `-denorm`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Denorm {
    #[default]
    /// `-denorm any` (the default): denormals as the hardware does.
    Any,
    /// `-denorm preserve`.
    Preserve,
    /// `-denorm ftz`: flush to zero.
    Ftz,
}

/// `-fspv-target-env=`: the SPIR-V emitter's own target type, so the two never disagree.
pub use hlslc_spirv::TargetEnv;

/// Register class of a `-fvk-*-shift` option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RegisterClass {
    /// `b`: constant buffers.
    B,
    /// `t`: textures and read-only buffers.
    T,
    /// `s`: samplers.
    S,
    /// `u`: unordered access views.
    U,
}

/// `-fvk-<c>-shift <shift> <space>`; `space: None` is `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingShift {
    /// The register class shifted.
    pub class: RegisterClass,
    /// Added to the register number to give the binding.
    pub shift: u32,
    /// The register space, `None` for every space.
    pub space: Option<u32>,
}

/// `-fvk-bind-register <reg> <space> <binding> <set>`; `register` as written (`t3`, `b0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindRegister {
    /// The register as written: a class letter and a number (`t3`).
    pub register: String,
    /// Its register space.
    pub space: u32,
    /// The Vulkan binding it gets.
    pub binding: u32,
    /// The Vulkan descriptor set it gets.
    pub set: u32,
}

/// A (binding, set) pair from `-fvk-bind-globals` and the `-fvk-bind-*-heap` options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The Vulkan binding.
    pub binding: u32,
    /// The Vulkan descriptor set.
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
    /// `-fspv-target-env=`: the Vulkan / universal SPIR-V version.
    pub target_env: TargetEnv,
    /// `-fspv-extension=` values in order (`KHR` allows all KHR extensions).
    pub extensions: Vec<String>,
    /// `-fspv-debug=` values in order, each one of dxc's categories (checked by the CLI): `file`,
    /// `source`, `line`, `tool`, `rich`, `rich-with-source`, `vulkan`, `vulkan-with-source`,
    /// `vulkan-with-source-test`.
    pub debug: Vec<String>,
    /// The command line without the input file, each argument after a space (dxc's
    /// `clOptions`): written by `-fspv-debug=tool` and `DebugEntryPoint`.
    pub command_line: String,
    /// `-fspv-reflect`.
    pub reflect: bool,
    /// `-fspv-generator=dxc`: write dxc's Generator word (Google spiregg) instead of hlslc's.
    pub dxc_generator: bool,
    /// `-fspv-flatten-resource-arrays`: one binding per element of a resource array.
    pub flatten_resource_arrays: bool,
    /// `-fspv-entrypoint-name=`: the name of the entry point in the module.
    pub entrypoint_name: Option<String>,
    /// `-fspv-use-vulkan-memory-model`.
    pub use_vulkan_memory_model: bool,
    /// `-fspv-use-legacy-buffer-matrix-order`.
    pub use_legacy_buffer_matrix_order: bool,
    /// `-fspv-use-unknown-image-format`: storage images without a declared format are `Unknown`.
    pub use_unknown_image_format: bool,
    /// `-fspv-use-descriptor-heap`.
    pub use_descriptor_heap: bool,
    /// `-fspv-preserve-bindings`: the optimizer keeps unused resources.
    pub preserve_bindings: bool,
    /// `-fspv-preserve-interface`: the optimizer keeps unused stage variables.
    pub preserve_interface: bool,
    /// `-fspv-reduce-load-size`.
    pub reduce_load_size: bool,
    /// `-fspv-fix-func-call-arguments`.
    pub fix_func_call_arguments: bool,
    /// `-fspv-enable-maximal-reconvergence`.
    pub enable_maximal_reconvergence: bool,
    /// `-fspv-print-all`.
    pub print_all: bool,
    /// `-fspv-max-id`.
    pub max_id: Option<u32>,
    /// `-fvk-stage-io-order=alpha` (locations by name) instead of declaration order.
    pub stage_io_order_alpha: bool,
    /// `-fvk-{b,t,s,u}-shift`, in command-line order.
    pub binding_shifts: Vec<BindingShift>,
    /// `-fvk-auto-shift-bindings`.
    pub auto_shift_bindings: bool,
    /// `-fvk-bind-register` / `-vkbr`, in command-line order.
    pub bind_registers: Vec<BindRegister>,
    /// `-fvk-bind-globals`: the binding of `$Globals`.
    pub bind_globals: Option<Binding>,
    /// `-fvk-bind-resource-heap`.
    pub resource_heap: Option<Binding>,
    /// `-fvk-bind-sampler-heap`.
    pub sampler_heap: Option<Binding>,
    /// `-fvk-bind-counter-heap`.
    pub counter_heap: Option<Binding>,
    /// `-fvk-invert-y`: negate `SV_Position.y` in the last pre-rasterization stage.
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`: `SV_Position.w` as 1/w in pixel shaders.
    pub use_dx_position_w: bool,
    /// `-fvk-use-{gl,dx,scalar}-layout` (the last one given).
    pub layout: LayoutRule,
    /// `-fvk-support-nonzero-base-instance`.
    pub support_nonzero_base_instance: bool,
    /// `-fvk-support-nonzero-base-vertex`.
    pub support_nonzero_base_vertex: bool,
    /// `-fvk-allow-rwstructuredbuffer-arrays`.
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
    /// `-exports`, in command-line order.
    pub exports: Vec<String>,
    /// `-export-shaders-only`.
    pub export_shaders_only: bool,
    /// `-auto-binding-space`.
    pub auto_binding_space: Option<u32>,
    /// `-rootsig-define`.
    pub rootsig_define: Option<String>,
    /// `-binding-table-define`.
    pub binding_table_define: Option<String>,
    /// `-force-rootsig-ver`.
    pub force_rootsig_ver: Option<String>,
    /// `-denorm`.
    pub denorm: Denorm,
    /// `-enable-payload-qualifiers` (`Some(true)`) / `-disable-payload-qualifiers` (`Some(false)`).
    pub enable_payload_qualifiers: Option<bool>,
    /// `-enable-lifetime-markers` (`Some(true)`) / `-disable-lifetime-markers` (`Some(false)`).
    pub enable_lifetime_markers: Option<bool>,
    /// `-all-resources-bound`.
    pub all_resources_bound: bool,
    /// `-res-may-alias`.
    pub res_may_alias: bool,
    /// `-pack-optimized`.
    pub pack_optimized: bool,
    /// `-flegacy-resource-reservation`.
    pub legacy_resource_reservation: bool,
    /// `-no-legacy-cbuf-layout`.
    pub no_legacy_cbuf_layout: bool,
    /// `-Qstrip_reflect`: no reflection part in the container.
    pub strip_reflection: bool,
    /// `-Qstrip_debug`.
    pub strip_debug: bool,
    /// `-Qembed_debug`.
    pub embed_debug: bool,
    /// `-Qstrip_priv`.
    pub strip_private: bool,
    /// `-Qstrip_rootsignature`.
    pub strip_root_signature: bool,
    /// `-opt-enable`, in command-line order.
    pub opt_enable: Vec<String>,
    /// `-opt-disable`, in command-line order.
    pub opt_disable: Vec<String>,
    /// `-precise-output`, in command-line order.
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
    /// `-HV`, default 2021.
    pub hlsl_version: HlslVersion,
    /// `-enable-16bit-types`.
    pub enable_16bit_types: bool,
    /// `-spirv`: generate SPIR-V (otherwise DXIL).
    pub spirv: bool,
    /// What to produce.
    pub action: Action,
    /// Text (assembly) or binary code.
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
    /// The command line as given, without the input file (DXIL's `dx.source.args` with `-Zi`).
    pub command_args: Vec<String>,
    /// `-Zpr` / `-Zpc`.
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
    /// `-Ges`.
    pub strict_mode: bool,
    /// `-Gis`.
    pub ieee_strict: bool,
    /// `-ffinite-math-only` (the last of it and `-fno-finite-math-only` wins).
    pub finite_math_only: bool,
    /// `-flegacy-macro-expansion`.
    pub flegacy_macro_expansion: bool,
    /// `-ignore-line-directives`: diagnostics show physical lines.
    pub ignore_line_directives: bool,
    /// The SPIR-V back end's settings (`-fspv-*`, `-fvk-*`).
    pub spirv_options: SpirvOptions,
    /// The DXIL back end's settings.
    pub dxil_options: DxilOptions,
    /// Compute [`crate::CompileResult::reflection`] (default on). The command line turns it on
    /// only for `-Fre`/`-reflect-json`: reading the module back costs about 8% of a compile.
    pub reflect: bool,
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
            command_args: Vec::new(),
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
            reflect: true,
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
