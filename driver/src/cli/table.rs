//! The table of every command-line option `hlslc` accepts, spelled as dxc spells it.
//!
//! This table is the one source of truth for the command line: the normalizer
//! ([`super::normalize`]) matches raw arguments against it, and `--help` is rendered from it
//! ([`super::command`]). Adding an option means adding one row here and, if it changes what the compiler does,
//! reading it in [`super::to_options`].
//!
//! Matching follows LLVM's `OptTable`, which dxc uses: options are case-sensitive, written with one
//! of the prefixes `-` or (for options with `slash: true`) `/`, and the longest option name that
//! accepts the argument wins.

/// How an option takes its value(s).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value: `-spirv`.
    Flag,
    /// Value written right after the name, which usually ends in `=`: `-fspv-target-env=vulkan1.1`,
    /// `-Wno-conversion`. The value may be empty.
    Joined,
    /// Like [`Kind::Joined`], and the value is a comma-separated list: `-Oconfig=-O,--loop-unroll`.
    CommaJoined,
    /// Value in the next argument: `-HV 2021`, `-exports a;b`.
    Separate,
    /// Either: `-T ps_6_0` or `-Tps_6_0`.
    JoinedOrSeparate,
    /// A fixed number of values in the following arguments: `-fvk-b-shift 10 0`. Values may start
    /// with `-` (`-fvk-bind-resource-heap 1 -1`).
    Multi(u8),
}

/// Where an option is listed in `--help`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Options common to both back ends.
    Common,
    /// Compilation options.
    Compilation,
    /// Optimization options.
    Optimization,
    /// Utility options (dumping, containers).
    Utility,
    /// SPIR-V code generation options.
    Spirv,
    /// Warning options.
    Warnings,
}

impl Group {
    /// The heading of the group in `-help`.
    pub fn heading(self) -> &'static str {
        match self {
            Group::Common => "Common options",
            Group::Compilation => "Compilation options",
            Group::Optimization => "Optimization options",
            Group::Utility => "Utility options",
            Group::Spirv => "SPIR-V code generation options",
            Group::Warnings => "Warning options",
        }
    }
}

/// One option. Invariant: `name` is unique in [`OPTIONS`]; names of [`Kind::Joined`] options that
/// take `key=value` include the `=`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptSpec {
    /// The name without its prefix: `T`, `fspv-target-env=`, `fvk-b-shift`.
    pub name: &'static str,
    /// How values follow the name.
    pub kind: Kind,
    /// Also accepted with the `/` prefix (fxc-style), as dxc does.
    pub slash: bool,
    /// The `-help` section the option is listed in.
    pub group: Group,
    /// Value name(s) shown in `--help`.
    pub meta: &'static str,
    /// The `-help` description.
    pub help: &'static str,
    /// Accepted but not listed in `--help` (dxc's hidden and compatibility spellings).
    pub hidden: bool,
}

impl OptSpec {
    /// The id options are looked up by after recognition: the name without a
    /// trailing `=`.
    ///
    /// A `name=` option whose base name is also an option (`-ftime-trace` and `-ftime-trace=`)
    /// gets the id `name-EQ` instead.
    pub fn id(&self) -> String {
        match self.name.strip_suffix('=') {
            Some(base) if OPTIONS.iter().any(|o| o.name == base) => format!("{base}-EQ"),
            Some(base) => base.to_string(),
            None => self.name.to_string(),
        }
    }
    /// Whether the option takes a value.
    pub fn takes_value(&self) -> bool {
        self.kind != Kind::Flag
    }
    /// How many values the option takes.
    pub fn value_count(&self) -> usize {
        match self.kind {
            Kind::Flag => 0,
            Kind::Multi(n) => n as usize,
            _ => 1,
        }
    }
}

use Group::*;
use Kind::*;

const fn o(name: &'static str, kind: Kind, slash: bool, group: Group, meta: &'static str, help: &'static str) -> OptSpec {
    OptSpec { name, kind, slash, group, meta, help, hidden: false }
}
const fn h(name: &'static str, kind: Kind, slash: bool, group: Group, meta: &'static str, help: &'static str) -> OptSpec {
    OptSpec { name, kind, slash, group, meta, help, hidden: true }
}

/// Every option. Order is the order of `--help` within a group.
pub static OPTIONS: &[OptSpec] = &[
    // ---- common ----
    o("help", Flag, true, Common, "", "Display available options (also -?, /?, --help)"),
    o("version", Flag, false, Common, "", "Print the compiler version"),
    o("nologo", Flag, true, Common, "", "Suppress the copyright message (accepted; hlslc prints none)"),
    h("Qunused-arguments", Flag, false, Common, "", "Do not warn about unused driver arguments"),
    h("external", Separate, true, Common, "<dll>", "External DLL for compiler support (not supported)"),
    h("external-fn", Separate, true, Common, "<name>", "External function for compiler support (not supported)"),
    h("skip-serialization", Flag, true, Common, "", "Return a module interface instead of serialized output"),
    // ---- compilation ----
    o("T", JoinedOrSeparate, true, Compilation, "<profile>", "Target profile: ps_6_0, vs_6_0, gs_6_0, hs_6_0, ds_6_0, cs_6_0, lib_6_3, ms_6_5, as_6_5, ... (6_0 to 6_10, lib_6_x)"),
    o("E", JoinedOrSeparate, true, Compilation, "<name>", "Entry point name (default: main)"),
    o("D", JoinedOrSeparate, true, Compilation, "<name[=value]>", "Define macro"),
    o("I", JoinedOrSeparate, true, Compilation, "<dir>", "Add directory to include search path"),
    o("HV", JoinedOrSeparate, true, Compilation, "<version>", "HLSL version: 2016, 2017, 2018, 2021 (default) or 202x"),
    o("enable-16bit-types", Flag, true, Compilation, "", "Enable 16-bit types and disable min precision types (HLSL 2018+, SM 6.2+)"),
    o("spirv", Flag, false, Compilation, "", "Generate SPIR-V code"),
    o("P", Flag, true, Utility, "", "Preprocess only; output to the -Fi file or stdout"),
    o("Fi", JoinedOrSeparate, true, Utility, "<file>", "Output file for the preprocessed source (with -P)"),
    o("fsyntax-only", Flag, true, Compilation, "", "Check syntax (preprocess, parse, check) and produce no output"),
    o("ast-dump", Flag, true, Compilation, "", "Print the typed abstract syntax tree (after semantic analysis)"),
    o("ast-dump-parse", Flag, false, Compilation, "", "Print the parsed abstract syntax tree, before semantic analysis (hlslc only)"),
    o("ast-dump-implicit", Flag, true, Compilation, "", "Print the abstract syntax tree including implicit declarations"),
    o("verify", Flag, true, Compilation, "", "Check diagnostics against expected-error/warning/note comments"),
    o("Fo", JoinedOrSeparate, true, Compilation, "<file>", "Output object file"),
    o("Fc", JoinedOrSeparate, true, Compilation, "<file>", "Output assembly code listing file"),
    o("Fh", JoinedOrSeparate, true, Compilation, "<file>", "Output header file containing object code"),
    o("Vn", JoinedOrSeparate, true, Compilation, "<name>", "Variable name in the -Fh header file"),
    o("Fe", JoinedOrSeparate, true, Compilation, "<file>", "Write warnings and errors to the given file"),
    o("Fd", JoinedOrSeparate, true, Compilation, "<file>", "Write debug information to the given file"),
    o("Fre", Separate, true, Compilation, "<file>", "Write reflection to the given file (DXIL: the STAT part, as dxc; with -spirv: hlslc's reflection JSON)"),
    o("reflect-json", Separate, false, Compilation, "<file>", "Write hlslc's reflection JSON (docs/reflection.md) for SPIR-V or DXIL output (hlslc only)"),
    o("Frs", Separate, true, Compilation, "<file>", "Write the root signature to the given file"),
    o("Fsh", Separate, true, Compilation, "<file>", "Write the shader hash to the given file"),
    o("Zi", Flag, true, Compilation, "", "Enable debug information"),
    o("Zs", Flag, true, Compilation, "", "Generate small PDB with just sources and compile options"),
    o("Zss", Flag, true, Compilation, "", "Compute shader hash considering source information"),
    o("Zsb", Flag, true, Compilation, "", "Compute shader hash considering only the output binary"),
    o("Zpr", Flag, true, Compilation, "", "Pack matrices in row-major order"),
    o("Zpc", Flag, true, Compilation, "", "Pack matrices in column-major order"),
    o("WX", Flag, true, Compilation, "", "Treat warnings as errors"),
    o("no-warnings", Flag, true, Compilation, "", "Suppress warnings"),
    o("Vd", Flag, true, Compilation, "", "Disable validation"),
    o("Vi", Flag, true, Compilation, "", "Display details about the include process"),
    h("H", Flag, false, Compilation, "", "Show header includes and nesting depth"),
    o("fcgl", Flag, true, Compilation, "", "Generate high-level code only (no optimization or legalization)"),
    o("Gec", Flag, true, Compilation, "", "Enable backward compatibility mode (HLSL 2016)"),
    o("Ges", Flag, true, Compilation, "", "Enable strict mode"),
    o("Gfa", Flag, true, Compilation, "", "Avoid flow control constructs"),
    o("Gfp", Flag, true, Compilation, "", "Prefer flow control constructs"),
    o("Gis", Flag, true, Compilation, "", "Force IEEE strictness"),
    o("denorm", JoinedOrSeparate, true, Compilation, "<mode>", "Denormal handling: any (default), preserve or ftz"),
    o("auto-binding-space", Separate, true, Compilation, "<space>", "Enable automatic resource binding in libraries, in this space"),
    o("exports", Separate, true, Compilation, "<list>", "Exports of a library: export1[[,export1_clone,...]=internal_name][;...]"),
    o("export-shaders-only", Flag, true, Compilation, "", "Export only shaders when compiling a library"),
    o("default-linkage", Separate, true, Compilation, "<linkage>", "Default linkage of non-shader functions in libraries: internal or external"),
    o("rootsig-define", Separate, true, Compilation, "<macro>", "Read the root signature from this #define"),
    o("force-rootsig-ver", JoinedOrSeparate, true, Compilation, "<profile>", "Force the root signature version (rootsig_1_0, rootsig_1_1)"),
    h("force_rootsig_ver", JoinedOrSeparate, true, Compilation, "<profile>", "Force the root signature version"),
    o("binding-table-define", Separate, true, Compilation, "<macro>", "Read the binding table from this #define"),
    o("validator-version", Separate, true, Compilation, "<major.minor>", "Override the validator version recorded in the module"),
    h("select-validator", Separate, true, Compilation, "<internal|external>", "Select the validator"),
    o("enable-payload-qualifiers", Flag, true, Compilation, "", "Enable payload access qualifiers (lib_6_6 and earlier)"),
    o("disable-payload-qualifiers", Flag, true, Compilation, "", "Disable payload access qualifiers"),
    o("enable-lifetime-markers", Flag, true, Compilation, "", "Enable generation of lifetime markers"),
    o("disable-lifetime-markers", Flag, true, Compilation, "", "Disable generation of lifetime markers"),
    h("force-zero-store-lifetimes", Flag, true, Compilation, "", "Store zero instead of undef at the end of lifetimes"),
    o("ignore-line-directives", Flag, true, Compilation, "", "Ignore #line directives"),
    o("flegacy-macro-expansion", Flag, true, Compilation, "", "Expand the operands before token pasting (fxc behavior)"),
    o("flegacy-resource-reservation", Flag, true, Compilation, "", "Reserve unused explicit register assignments (SM 5.0 compatibility)"),
    o("fnew-inlining-behavior", Flag, true, Compilation, "", "Experimental: inline only where necessary"),
    o("fdisable-loc-tracking", Flag, true, Compilation, "", "Disable source location tracking in IR"),
    o("no-legacy-cbuf-layout", Flag, true, Compilation, "", "Do not use the legacy cbuffer layout"),
    h("not_use_legacy_cbuf_load", Flag, true, Compilation, "", "Do not use legacy cbuffer load"),
    o("pack-prefix-stable", Flag, true, Compilation, "", "Pack signatures preserving the prefix-stable property (default)"),
    h("pack_prefix_stable", Flag, true, Compilation, "", "Same as -pack-prefix-stable"),
    o("pack-optimized", Flag, true, Compilation, "", "Optimize signature packing assuming identical signatures in connected stages"),
    h("pack_optimized", Flag, true, Compilation, "", "Same as -pack-optimized"),
    o("res-may-alias", Flag, true, Compilation, "", "Assume that UAVs/SRVs may alias"),
    h("res_may_alias", Flag, true, Compilation, "", "Same as -res-may-alias"),
    o("all-resources-bound", Flag, true, Compilation, "", "Enable aggressive flattening"),
    h("all_resources_bound", Flag, true, Compilation, "", "Same as -all-resources-bound"),
    h("structurize-returns", Flag, true, Compilation, "", "Structurize return control flow"),
    h("preserve-intermediate-values", Flag, true, Compilation, "", "Preserve intermediate values to help shader debugging"),
    h("precise-output", Separate, true, Compilation, "<semantic>", "Mark the output with this semantic as precise"),
    h("encoding", Separate, true, Compilation, "<utf8|utf16>", "Encoding of text outputs"),
    h("enable-templates", Flag, true, Compilation, "", "Enable templates (implied by -HV 2021)"),
    h("enable-operator-overloading", Flag, true, Compilation, "", "Enable operator overloading (implied by -HV 2021)"),
    h("strict-udt-casting", Flag, true, Compilation, "", "Require explicit casts between user-defined types"),
    h("recompile", Flag, true, Compilation, "", "Recompile from a DXIL container with debug information"),
    h("link", Flag, true, Compilation, "", "Link libraries (inputs separated by ';')"),
    h("print-after-all", Flag, true, Compilation, "", "Print IR after each pass"),
    h("print-before-all", Flag, true, Compilation, "", "Print IR before each pass"),
    h("print-before", Separate, true, Compilation, "<pass>", "Print IR before this pass"),
    h("print-after", Separate, true, Compilation, "<pass>", "Print IR after this pass"),
    h("M", Flag, true, Compilation, "", "Print the files the source depends on"),
    h("MD", Flag, true, Compilation, "", "Write the files the source depends on to a .d file"),
    h("MF", JoinedOrSeparate, true, Compilation, "<file>", "File for -MD output"),
    h("ftime-report", Flag, false, Compilation, "", "Print time spent in each phase"),
    h("ftime-trace", Flag, false, Compilation, "", "Write a Chrome trace of the compilation"),
    h("ftime-trace=", Joined, false, Compilation, "<file>", "Write a Chrome trace to this file"),
    h("ftime-trace-granularity=", Joined, false, Compilation, "<us>", "Trace granularity in microseconds"),
    o("fdiagnostics-show-option", Flag, false, Compilation, "", "Print option names with mappable diagnostics"),
    o("fno-diagnostics-show-option", Flag, false, Compilation, "", "Do not print option names with mappable diagnostics"),
    h("fdiagnostics-color", Flag, false, Compilation, "", "Use colors in diagnostics (ignored)"),
    h("fdiagnostics-color=", Joined, false, Compilation, "<when>", "Use colors in diagnostics (ignored)"),
    h("fcolor-diagnostics", Flag, false, Compilation, "", "Use colors in diagnostics (ignored)"),
    h("fno-color-diagnostics", Flag, false, Compilation, "", "Do not use colors in diagnostics"),
    h("fdiagnostics-format=", Joined, false, Compilation, "<clang|msvc>", "Diagnostic format"),
    h("fdiagnostics-show-category=", Joined, false, Compilation, "<none|id|name>", "Show diagnostic categories"),
    h("ferror-limit=", Joined, false, Compilation, "<n>", "Stop after this many errors"),
    h("fconstexpr-depth=", Joined, false, Compilation, "<n>", "Constant evaluation depth limit"),
    h("fconstexpr-steps=", Joined, false, Compilation, "<n>", "Constant evaluation step limit"),
    h("fconstexpr-backtrace-limit=", Joined, false, Compilation, "<n>", "Constant evaluation backtrace limit"),
    // ---- optimization ----
    o("O0", Flag, true, Optimization, "", "Optimization level 0"),
    o("O1", Flag, true, Optimization, "", "Optimization level 1"),
    o("O2", Flag, true, Optimization, "", "Optimization level 2"),
    o("O3", Flag, true, Optimization, "", "Optimization level 3 (default)"),
    o("Od", Flag, true, Optimization, "", "Disable optimizations"),
    h("Odump", Flag, true, Optimization, "", "Print the optimizer commands"),
    o("opt-enable", Separate, true, Optimization, "<opt>", "Enable this optimization"),
    o("opt-disable", Separate, true, Optimization, "<opt>", "Disable this optimization"),
    h("opt-select", Multi(2), true, Optimization, "<opt> <variant>", "Select this optimization variant"),
    h("memdep-block-scan-limit", Separate, true, Optimization, "<n>", "Instructions to scan per block in memory dependency analysis"),
    h("ffinite-math-only", Flag, false, Optimization, "", "Assume no NaNs or infinities"),
    h("fno-finite-math-only", Flag, false, Optimization, "", "Do not assume no NaNs or infinities"),
    h("funsafe-math-optimizations", Flag, false, Optimization, "", "Allow unsafe floating-point optimizations"),
    h("fno-unsafe-math-optimizations", Flag, false, Optimization, "", "Disallow unsafe floating-point optimizations"),
    h("fassociative-math", Flag, false, Optimization, "", "Allow reassociation"),
    h("fno-associative-math", Flag, false, Optimization, "", "Disallow reassociation"),
    h("fno-reciprocal-math", Flag, false, Optimization, "", "Disallow reciprocal approximations"),
    h("fsigned-zeros", Flag, false, Optimization, "", "Honor signed zeros"),
    h("fhonor-nans", Flag, false, Optimization, "", "Honor NaNs"),
    h("fno-honor-nans", Flag, false, Optimization, "", "Do not honor NaNs"),
    h("fhonor-infinities", Flag, false, Optimization, "", "Honor infinities"),
    h("fno-honor-infinities", Flag, false, Optimization, "", "Do not honor infinities"),
    h("flimited-precision=", Joined, false, Optimization, "<n>", "Limited precision"),
    // ---- utility ----
    o("Qstrip_reflect", Flag, true, Utility, "", "Strip reflection data from the shader container"),
    o("Qstrip_debug", Flag, true, Utility, "", "Strip debug information from the shader container"),
    o("Qembed_debug", Flag, true, Utility, "", "Embed the PDB in the shader container (with -Zi)"),
    o("Qstrip_priv", Flag, true, Utility, "", "Strip private data from the shader container"),
    o("Qstrip_rootsignature", Flag, true, Utility, "", "Strip root signature data from the shader container"),
    o("Qsource_in_debug_module", Flag, true, Utility, "", "Embed the source in the debug module"),
    o("Qpdb_in_private", Flag, true, Utility, "", "Store the PDB in the private user data"),
    h("Qkeep_reflect_in_dxil", Flag, true, Utility, "", "Keep reflection data in the DXIL part"),
    h("Qstrip_reflect_from_dxil", Flag, true, Utility, "", "Strip reflection data from the DXIL part"),
    o("setrootsignature", JoinedOrSeparate, true, Utility, "<file>", "Attach a root signature to the shader container"),
    o("extractrootsignature", Flag, true, Utility, "", "Extract the root signature from the shader container"),
    o("verifyrootsignature", JoinedOrSeparate, true, Utility, "<file>", "Verify the shader container against a root signature"),
    o("setprivate", JoinedOrSeparate, true, Utility, "<file>", "Private data to add to the shader container"),
    o("getprivate", JoinedOrSeparate, true, Utility, "<file>", "Save private data from the shader container"),
    o("dumpbin", Flag, true, Utility, "", "Load a binary file rather than compiling"),
    o("Cc", Flag, true, Utility, "", "Output color coded assembly listings"),
    o("Ni", Flag, true, Utility, "", "Output instruction numbers in assembly listings"),
    o("No", Flag, true, Utility, "", "Output instruction byte offsets in assembly listings"),
    o("Lx", Flag, true, Utility, "", "Output hexadecimal literals"),
    // ---- SPIR-V ----
    o("fspv-target-env=", Joined, false, Spirv, "<env>", "Target environment: vulkan1.0 (default), vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3, universal1.5"),
    o("fspv-extension=", Joined, false, Spirv, "<ext>", "Allow this SPIR-V extension (repeatable; KHR allows all KHR extensions)"),
    o("fspv-debug=", Joined, false, Spirv, "<category>", "Debug information to emit: file, source, line, tool, vulkan, vulkan-with-source"),
    o("fspv-generator=", Joined, false, Spirv, "<tool>", "SPIR-V Generator word: hlslc (default, tool 0xFFFF) or dxc (Google spiregg, as dxc writes it) (hlslc only)"),
    o("fspv-reflect", Flag, false, Spirv, "", "Emit additional SPIR-V instructions to aid reflection"),
    o("fspv-flatten-resource-arrays", Flag, false, Spirv, "", "Flatten arrays of resources so each element takes one binding"),
    o("fspv-entrypoint-name=", Joined, false, Spirv, "<name>", "Name of the entry point in the SPIR-V module"),
    o("fspv-use-vulkan-memory-model", Flag, false, Spirv, "", "Use the Vulkan memory model"),
    o("fspv-use-legacy-buffer-matrix-order", Flag, false, Spirv, "", "Legacy matrix order for buffer loads and stores"),
    o("fspv-use-unknown-image-format", Flag, false, Spirv, "", "Use Unknown image format for storage images by default"),
    o("fspv-use-descriptor-heap", Flag, false, Spirv, "", "Use descriptor heaps for ResourceDescriptorHeap/SamplerDescriptorHeap"),
    o("fspv-preserve-bindings", Flag, false, Spirv, "", "Keep all bindings, even unused ones"),
    o("fspv-preserve-interface", Flag, false, Spirv, "", "Keep all interface variables, even unused ones"),
    o("fspv-reduce-load-size", Flag, false, Spirv, "", "Replace loads of composites by loads of their used parts"),
    o("fspv-fix-func-call-arguments", Flag, false, Spirv, "", "Pass function arguments through temporaries where SPIR-V requires it"),
    o("fspv-enable-maximal-reconvergence", Flag, false, Spirv, "", "Enable maximal reconvergence (SPV_KHR_maximal_reconvergence)"),
    o("fspv-print-all", Flag, false, Spirv, "", "Print the SPIR-V module before each optimizer pass"),
    o("fspv-max-id", Separate, false, Spirv, "<n>", "Maximum id bound of the module"),
    o("fvk-stage-io-order=", Joined, false, Spirv, "<order>", "Location assignment order of stage I/O: decl (default) or alpha"),
    o("fvk-b-shift", Multi(2), false, Spirv, "<shift> <space>", "Binding number shift for b registers in <space> (or all)"),
    o("fvk-t-shift", Multi(2), false, Spirv, "<shift> <space>", "Binding number shift for t registers in <space> (or all)"),
    o("fvk-s-shift", Multi(2), false, Spirv, "<shift> <space>", "Binding number shift for s registers in <space> (or all)"),
    o("fvk-u-shift", Multi(2), false, Spirv, "<shift> <space>", "Binding number shift for u registers in <space> (or all)"),
    o("fvk-auto-shift-bindings", Flag, false, Spirv, "", "Apply -fvk-*-shift to resources without an explicit register"),
    o("fvk-bind-register", Multi(4), false, Spirv, "<reg> <space> <binding> <set>", "Descriptor set and binding for a register"),
    h("vkbr", Multi(4), false, Spirv, "<reg> <space> <binding> <set>", "Same as -fvk-bind-register"),
    o("fvk-bind-globals", Multi(2), false, Spirv, "<binding> <set>", "Binding and set of the $Globals cbuffer"),
    o("fvk-bind-resource-heap", Multi(2), false, Spirv, "<binding> <set>", "Binding and set of ResourceDescriptorHeap"),
    o("fvk-bind-sampler-heap", Multi(2), false, Spirv, "<binding> <set>", "Binding and set of SamplerDescriptorHeap"),
    o("fvk-bind-counter-heap", Multi(2), false, Spirv, "<binding> <set>", "Binding and set of the counters of ResourceDescriptorHeap"),
    o("fvk-invert-y", Flag, false, Spirv, "", "Negate SV_Position.y in VS/DS/GS outputs"),
    o("fvk-use-dx-position-w", Flag, false, Spirv, "", "Reciprocate SV_Position.w in PS inputs"),
    o("fvk-use-gl-layout", Flag, false, Spirv, "", "Use strict OpenGL std140/std430 layout for resources"),
    o("fvk-use-dx-layout", Flag, false, Spirv, "", "Use DirectX memory layout for resources"),
    o("fvk-use-scalar-layout", Flag, false, Spirv, "", "Use scalar memory layout for resources"),
    o("fvk-support-nonzero-base-instance", Flag, false, Spirv, "", "Follow Vulkan's semantics for SV_InstanceID with a nonzero base instance"),
    o("fvk-support-nonzero-base-vertex", Flag, false, Spirv, "", "Follow Vulkan's semantics for SV_VertexID with a nonzero base vertex"),
    o("fvk-allow-rwstructuredbuffer-arrays", Flag, false, Spirv, "", "Allow arrays of RW/Append/Consume structured buffers"),
    o("Oconfig=", CommaJoined, false, Spirv, "<passes>", "Comma-separated list of SPIRV-Tools passes to run instead of the defaults"),
    // ---- warnings ----
    o("W", Joined, false, Warnings, "[no-]<warning>", "Enable or disable a warning (-Wno-conversion, -Wdouble-promotion)"),
    h("w", Flag, false, Warnings, "", "Suppress all warnings"),
];

/// Looks an option up by its exact name (`"T"`, `"fspv-target-env="`).
pub fn find(name: &str) -> Option<&'static OptSpec> {
    OPTIONS.iter().find(|o| o.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_and_ids_are_unique() {
        let mut names = HashSet::new();
        let mut ids = HashSet::new();
        for o in OPTIONS {
            assert!(names.insert(o.name), "duplicate option name {}", o.name);
            assert!(ids.insert(o.id()), "duplicate option id {}", o.id());
            assert!(!o.id().contains('='), "{}", o.name);
            assert!(!o.name.is_empty());
        }
    }

    #[test]
    fn joined_names_with_equals_are_joined() {
        for o in OPTIONS.iter().filter(|o| o.name.ends_with('=')) {
            assert!(matches!(o.kind, Kind::Joined | Kind::CommaJoined), "{}", o.name);
        }
    }
}
