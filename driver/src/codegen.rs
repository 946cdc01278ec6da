//! Code generation after the front end: sema, then the SPIR-V emitter or the DXIL lowering
//! (textual DXIL; the bitcode container is not written yet).

use crate::options::{LayoutRule, MatrixPacking, Options, OutputKind, RegisterClass};
use crate::timing::{Phase, PhaseTimes};
use crate::Output;
use hlslc_frontend::ast::TranslationUnit;
use hlslc_frontend::diag::{Diagnostic, Diagnostics};
use hlslc_sema::{analyze, analyze_owned, SemaOptions};
use hlslc_frontend::source::{FileId, SourceMap};
use hlslc_spirv::lower::{emit_module_all, layout::LayoutRules, DebugSource, LowerOptions};
use rspirv::binary::Assemble;

/// What sema starts from: the parsed unit, or (for a compile streamed through sema one
/// declaration at a time, `driver::streamed`) the result of that check and the diagnostics it
/// reported, which take their place after the back end's option checks.
pub(crate) enum SemaInput {
    Unit(TranslationUnit),
    Checked(Option<hlslc_sema::tast::Module>, Diagnostics),
}

impl SemaInput {
    fn analyze(self, opts: &SemaOptions, diags: &mut Diagnostics) -> Option<hlslc_sema::tast::Module> {
        match self {
            SemaInput::Unit(unit) => analyze_owned(unit, opts, diags),
            SemaInput::Checked(module, sema_diags) => {
                diags.list.extend(sema_diags.list);
                module
            }
        }
    }
}

/// Whether the SPIR-V back end's option checks report nothing before sema (they need sema to
/// see their errors, so a compile with them is not streamed).
pub(crate) fn spirv_options_clean(options: &Options) -> bool {
    options.spirv_options.extensions.iter().all(|name| KNOWN_EXTENSIONS.contains(&name.as_str()))
}

/// Sema's options from the command line.
pub(crate) fn sema_options(options: &Options) -> SemaOptions {
    SemaOptions {
        profile: options.profile.map(|p| p.to_string()).unwrap_or_default(),
        entry: options.entry.clone(),
        hlsl_version: options.hlsl_version.number(),
        enable_16bit: options.enable_16bit_types,
        // The SPIR-V back end has no writable globals (DXC refuses -Gec with -spirv).
        backward_compat: options.backward_compat && !options.spirv,
        default_row_major: options.matrix_packing == Some(MatrixPacking::RowMajor),
        require_entry: options.action == crate::options::Action::Compile,
        spirv: options.spirv,
    }
}

/// Checks the unit (`-fsyntax-only`, `-verify`): sema's diagnostics, no output.
pub(crate) fn check(unit: &TranslationUnit, options: &Options, diags: &mut Diagnostics) {
    let mut opts = sema_options(options);
    if options.profile.is_none() {
        // dxc checks a file without -T as a library would be.
        opts.profile = "lib_6_3".into();
    }
    let _ = analyze(unit, &opts, diags);
}

/// Checks the unit (`-ast-dump`): the typed AST as text, when sema reported no error.
pub(crate) fn typed_ast(unit: &TranslationUnit, options: &Options, diags: &mut Diagnostics) -> Option<String> {
    let mut opts = sema_options(options);
    if options.profile.is_none() {
        opts.profile = "lib_6_3".into();
    }
    let module = analyze(unit, &opts, diags)?;
    (!diags.has_errors()).then(|| hlslc_sema::dump::dump(&module))
}

/// With `-fvk-bind-register` every binding is explicit, so a descriptor heap the shader indexes
/// needs its binding option too (DXC's rule and message).
fn check_heap_bindings(module: &hlslc_sema::tast::Module, so: &crate::options::SpirvOptions, diags: &mut Diagnostics) {
    if so.bind_registers.is_empty() {
        return;
    }
    for sampler in [false, true] {
        let used = module.exprs.iter().any(|e| matches!(e.kind, hlslc_sema::tast::ExprKind::HeapIndex { sampler: s, .. } if s == sampler));
        let given = if sampler { so.sampler_heap.is_some() } else { so.resource_heap.is_some() };
        if used && !given {
            let flag = if sampler { "-fvk-bind-sampler-heap" } else { "-fvk-bind-resource-heap" };
            diags.push(Diagnostic::error(format!("{flag} is required when using -fvk-bind-register")));
        }
    }
}

/// The shader model of the target profile (6.0 when there is none).
fn shader_model(options: &Options) -> (u32, u32) {
    options.profile.map_or((6, 0), |p| (u32::from(p.major), u32::from(p.minor)))
}

/// The SPIR-V optimizer's options, `None` when it does not run: `-O0`, `-Od` and `-fcgl` (the
/// unoptimized, dxc-shaped output) keep the emitter's module; `-O1`..`-O3` (default `-O3`) run
/// the one recipe, as dxc does.
fn spirv_optimizer(options: &Options) -> Option<hlslc_spirv_opt::Options> {
    if options.opt_level == 0 || options.disable_optimizations || options.high_level_only {
        return None;
    }
    Some(optimizer_options(options))
}

fn optimizer_options(options: &Options) -> hlslc_spirv_opt::Options {
    let so = &options.spirv_options;
    let keep = hlslc_spirv_opt::Keep { bindings: so.preserve_bindings, interface: so.preserve_interface };
    hlslc_spirv_opt::Options { keep }
}

/// At `-O0`/`-Od` (not `-fcgl`) dxc still legalizes a module that needs it. Here that is a
/// module with a run-time texel offset outside a gather (a `Sample(s, uv, offset)` whose offset
/// is a parameter), invalid for Vulkan until inlining and folding make it a constant, or with a
/// call whose pointer argument is not a variable or parameter (a base struct's method called on
/// a derived object gets `OpAccessChain` of member 0, as in dxc), invalid in logical addressing
/// until inlining, or that uses `[[vk::combinedImageSampler]]` (dxc legalizes every module with
/// a combined image sampler binding: its calls are inlined and its loads folded even at -O0), or
/// with an `InterpolateAt*` whose interpolant is the emitter's temporary rather than the stage
/// input itself (see `hlslc_spirv_opt::interp`). Such a module goes through the optimizer's
/// legalizing passes (`hlslc_spirv_opt::LEGALIZATION`); every other one keeps the emitter's form.
fn legalizer(options: &Options, module: &rspirv::dr::Module) -> Option<hlslc_spirv_opt::Options> {
    let needed = has_runtime_texel_offset(module)
        || has_call_through_access_chain(module)
        || has_combined_image_sampler(module)
        || !hlslc_spirv_opt::interp::off_input(module).is_empty();
    (!options.high_level_only && needed).then(|| optimizer_options(options))
}

/// Whether a module-scope variable is a sampled image (only `[[vk::combinedImageSampler]]` pairs
/// make one).
fn has_combined_image_sampler(module: &rspirv::dr::Module) -> bool {
    use rspirv::dr::Operand;
    use rspirv::spirv::Op;
    let id_of = |o: Option<&Operand>| match o {
        Some(Operand::IdRef(id)) => Some(*id),
        _ => None,
    };
    let sampled: std::collections::HashSet<u32> =
        module.types_global_values.iter().filter(|i| i.class.opcode == Op::TypeSampledImage).filter_map(|i| i.result_id).collect();
    let pointers: std::collections::HashSet<u32> = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypePointer && id_of(i.operands.get(1)).is_some_and(|t| sampled.contains(&t)))
        .filter_map(|i| i.result_id)
        .collect();
    module.types_global_values.iter().any(|i| i.class.opcode == Op::Variable && i.result_type.is_some_and(|t| pointers.contains(&t)))
}

/// Whether an `OpFunctionCall` passes the result of an access chain (a pointer that is not a
/// memory object declaration).
fn has_call_through_access_chain(module: &rspirv::dr::Module) -> bool {
    use rspirv::spirv::Op;
    let insts = || module.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.instructions);
    let chains: std::collections::HashSet<u32> = insts()
        .filter(|i| matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain))
        .filter_map(|i| i.result_id)
        .collect();
    !chains.is_empty()
        && insts().filter(|i| i.class.opcode == Op::FunctionCall).any(|i| {
            i.operands.iter().skip(1).any(|o| matches!(o, rspirv::dr::Operand::IdRef(id) if chains.contains(id)))
        })
}

fn letter(class: RegisterClass) -> char {
    match class {
        RegisterClass::B => 'b',
        RegisterClass::T => 't',
        RegisterClass::S => 's',
        RegisterClass::U => 'u',
    }
}

/// After optimization every texel offset outside a gather must have become a constant
/// (`ConstOffset`): Vulkan allows `Offset` with a run-time value only on gathers, so a module that
/// still has one would be invalid. dxc's legalization fails the same way.
fn check_texel_offsets(module: &rspirv::dr::Module, diags: &mut Diagnostics) {
    if has_runtime_texel_offset(module) {
        diags.push(Diagnostic::error(
            "a texture offset is not a compile-time constant: Vulkan allows a run-time offset only in Gather \
             (pass a literal or a constant, or a value the optimizer can fold into one)",
        ));
    }
}

/// After optimization every `InterpolateAt*` (`EvaluateAttribute*`) must interpolate a stage
/// input: the emitter passes a temporary holding the value, which the optimizer traces back to
/// the input it was loaded from. A value computed otherwise has nothing to interpolate; dxc's
/// legalization leaves such a module invalid, hlslc refuses it.
fn check_interpolants(module: &rspirv::dr::Module, diags: &mut Diagnostics) {
    if !hlslc_spirv_opt::interp::off_input(module).is_empty() {
        diags.push(Diagnostic::error(
            "EvaluateAttributeAtSample/EvaluateAttributeCentroid/EvaluateAttributeSnapped need a pixel shader \
             input (or a component or member of one) as their first argument, not a computed value",
        ));
    }
}

/// Whether an image instruction other than a gather has an `Offset` (a run-time offset).
fn has_runtime_texel_offset(module: &rspirv::dr::Module) -> bool {
    module.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.instructions).any(|i| {
        !hlslc_spirv_opt::offsets::is_gather(i.class.opcode)
            && i.operands.iter().any(|o| matches!(o, rspirv::dr::Operand::ImageOperands(m) if m.contains(rspirv::spirv::ImageOperands::OFFSET)))
    })
}

/// `-fspv-extension=`: when given, only the listed extensions (`KHR`: every `SPV_KHR_*` one) may
/// be used; an extension the module needs beyond them is an error, as in DXC.
fn check_extensions(module: &rspirv::dr::Module, allowed: &[String], diags: &mut Diagnostics) {
    if allowed.is_empty() {
        return;
    }
    for inst in &module.extensions {
        if let Some(rspirv::dr::Operand::LiteralString(name)) = inst.operands.first() {
            let ok = allowed.iter().any(|a| a == name || (a == "KHR" && name.starts_with("SPV_KHR_")));
            if !ok {
                diags.push(Diagnostic::error(format!(
                    "SPIR-V extension '{name}' required but not permitted to use (allow it with -fspv-extension={name})"
                )));
            }
        }
    }
}

/// SPIR-V gives an instruction's word count 16 bits: one of more than 65,535 words (a constructor
/// or copy of an array of 200,000 elements, a huge string) cannot be written, and rspirv would
/// wrap the count into a module no consumer decodes. Such a module is refused naming the
/// instruction, never written.
fn check_instruction_sizes(module: &rspirv::dr::Module, diags: &mut Diagnostics) {
    use rspirv::dr::Operand;
    let words = |i: &rspirv::dr::Instruction| {
        1 + usize::from(i.result_type.is_some())
            + usize::from(i.result_id.is_some())
            + i.operands
                .iter()
                .map(|o| match o {
                    Operand::LiteralString(s) => s.len() / 4 + 1,
                    Operand::LiteralBit64(_) => 2,
                    _ => 1,
                })
                .sum::<usize>()
    };
    let functions = module.functions.iter().flat_map(|f| {
        f.def.iter().chain(&f.parameters).chain(f.blocks.iter().flat_map(|b| b.label.iter().chain(&b.instructions))).chain(&f.end)
    });
    // Only an instruction with many operands, or a string, can be that long.
    let suspect = |i: &&rspirv::dr::Instruction| i.operands.len() > 16_000 || i.operands.iter().any(|o| matches!(o, Operand::LiteralString(s) if s.len() > 60_000));
    if let Some((inst, n)) = module.global_inst_iter().chain(functions).filter(suspect).map(|i| (i, words(i))).find(|&(_, n)| n > 0xffff) {
        diags.push(Diagnostic::error(format!(
            "the SPIR-V would need an Op{:?} of {n} words, above the 65,535 words one instruction may have; \
             an array this large cannot be constructed or copied as one value",
            inst.class.opcode
        )));
    }
}

/// The extensions `-fspv-extension=` accepts: those the SPIR-V back end can emit, and `KHR` (every
/// `SPV_KHR_*` one). DXC refuses a name outside its list in the same way.
const KNOWN_EXTENSIONS: &[&str] = &[
    "KHR",
    "SPV_AMD_shader_early_and_late_fragment_tests",
    "SPV_AMD_shader_explicit_vertex_parameter",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_EXT_descriptor_indexing",
    "SPV_EXT_fragment_fully_covered",
    "SPV_EXT_fragment_invocation_density",
    "SPV_EXT_fragment_shader_interlock",
    "SPV_EXT_mesh_shader",
    "SPV_EXT_shader_stencil_export",
    "SPV_EXT_shader_viewport_index_layer",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_GOOGLE_user_type",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_compute_shader_derivatives",
    "SPV_KHR_device_group",
    "SPV_KHR_float_controls",
    "SPV_KHR_fragment_shader_barycentric",
    "SPV_KHR_fragment_shading_rate",
    "SPV_KHR_maximal_reconvergence",
    "SPV_KHR_multiview",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_physical_storage_buffer",
    "SPV_KHR_post_depth_coverage",
    "SPV_KHR_quad_control",
    "SPV_KHR_ray_query",
    "SPV_KHR_ray_tracing",
    "SPV_KHR_shader_clock",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_vulkan_memory_model",
    "SPV_NV_compute_shader_derivatives",
    "SPV_NV_mesh_shader",
    "SPV_NV_ray_tracing",
    "SPV_NV_shader_subgroup_partitioned",
];

/// `-fspv-extension=NAME` with a NAME no list knows: dxc's error, with the known ones in a note.
fn check_known_extensions(allowed: &[String], diags: &mut Diagnostics) {
    for name in allowed {
        if !KNOWN_EXTENSIONS.contains(&name.as_str()) {
            diags.push(
                Diagnostic::error(format!("unknown SPIR-V extension '{name}'"))
                    .with_note(format!("known extensions are\n{}", KNOWN_EXTENSIONS.join("\n"))),
            );
        }
    }
}

/// Checks the unit and generates SPIR-V: the binary, and its disassembly as the listing.
pub(crate) fn spirv(
    unit: SemaInput,
    options: &Options,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
    sources: (&SourceMap, FileId),
    reflection: &mut Option<crate::Reflection>,
) -> Option<(Output, Option<String>)> {
    let so = &options.spirv_options;
    check_known_extensions(&so.extensions, diags);
    let module = times.time(Phase::Sema, || {
        let module = unit.analyze(&sema_options(options), diags)?;
        hlslc_sema::stage::check_signature_points(&module, shader_model(options), hlslc_sema::stage::Backend::Spirv, diags);
        hlslc_sema::stage::check_vulkan_interface(&module, diags);
        check_heap_bindings(&module, so, diags);
        Some(module)
    })?;
    if diags.has_errors() {
        return None;
    }
    let lower = LowerOptions {
        target: so.target_env,
        hlsl_version: options.hlsl_version.number(),
        layout: LayoutRules {
            strict_gl: so.layout == LayoutRule::Gl,
            dx: so.layout == LayoutRule::Dx,
            scalar: so.layout == LayoutRule::Scalar,
        },
        invert_y: so.invert_y,
        dx_position_w: so.use_dx_position_w,
        binding_shifts: so
            .binding_shifts
            .iter()
            .filter_map(|s| s.space.map(|space| (letter(s.class), s.shift, space)))
            .collect(),
        binding_shifts_all: so.binding_shifts.iter().filter(|s| s.space.is_none()).map(|s| (letter(s.class), s.shift)).collect(),
        auto_shift_bindings: so.auto_shift_bindings,
        bind_registers: so
            .bind_registers
            .iter()
            .map(|r| {
                // The CLI checked the spelling: a letter b/t/s/u and a number.
                let letter = r.register.chars().next().unwrap_or('t');
                let number = r.register[1..].parse().unwrap_or(0);
                (letter, number, r.space, r.binding, r.set)
            })
            .collect(),
        bind_globals: so.bind_globals.map(|b| (b.binding, b.set)),
        flatten_resource_arrays: so.flatten_resource_arrays,
        unknown_image_format: so.use_unknown_image_format,
        maximal_reconvergence: so.enable_maximal_reconvergence,
        debug_source: debug_source(options, sources.0, sources.1),
        auto_binding_space: options.dxil_options.auto_binding_space,
        nonzero_base_instance: so.support_nonzero_base_instance,
        nonzero_base_vertex: so.support_nonzero_base_vertex,
        stage_io_order_alpha: so.stage_io_order_alpha,
        reflect: so.reflect,
        fix_func_call_arguments: so.fix_func_call_arguments,
        high_level_only: options.high_level_only,
        entry_name: so.entrypoint_name.clone().unwrap_or_else(|| options.entry.clone()),
        finite_math_only: options.finite_math_only,
        resource_heap_binding: so.resource_heap.as_ref().map(|b| (b.binding, b.set)),
        sampler_heap_binding: so.sampler_heap.as_ref().map(|b| (b.binding, b.set)),
        counter_heap_binding: so.counter_heap.as_ref().map(|b| (b.binding, b.set)),
        ray_tracing_nv: so.extensions.iter().any(|e| e == "SPV_NV_ray_tracing"),
        compute_derivatives_khr: !so.extensions.iter().any(|e| e == "SPV_NV_compute_shader_derivatives")
            && so.extensions.iter().any(|e| e == "SPV_KHR_compute_shader_derivatives" || e == "KHR"),
        mesh_nv: so.extensions.iter().any(|e| e == "SPV_NV_mesh_shader") && !so.extensions.iter().any(|e| e == "SPV_EXT_mesh_shader"),
    };
    match times.time(Phase::Codegen, || emit_module_all(&module, &lower)) {
        Ok(mut m) => {
            // -fspv-fix-func-call-arguments: the emitter passed `out`/`inout` lvalues as
            // pointers; those that are access chains get their function-scope copies here, at
            // every level (dxc runs the pass in its legalization, which -O0 runs too).
            if so.fix_func_call_arguments {
                times.time(Phase::Optimize, || hlslc_spirv_opt::fixcall::run(&mut m));
            }
            // Vulkan leaves OpSRem undefined for negative operands (NVIDIA computes an unsigned
            // remainder): HLSL's `%` becomes a - (a / b) * b in every output but -fcgl's, which
            // keeps dxc's high-level form (see hlslc_spirv_opt::srem).
            if !options.high_level_only {
                times.time(Phase::Optimize, || hlslc_spirv_opt::srem::run(&mut m));
            }
            if !so.optimizer_config.is_empty() && spirv_optimizer(options).is_none() {
                diags.push(Diagnostic::error("-Oconfig should not be used together with -O0, -Od or -fcgl: they run no optimizer"));
                return None;
            }
            let optimizing = spirv_optimizer(options);
            if let Some(opt) = optimizing.or_else(|| legalizer(options, &m)) {
                // -Oconfig= replaces the recipe with the passes it names (the CLI refuses it
                // beside -O0..-O3, -Od and -fcgl); -O0's legalization runs the recipe's
                // legalizing part only.
                let passes = if !so.optimizer_config.is_empty() {
                    hlslc_spirv_opt::passes_from_flags(&so.optimizer_config)
                } else if optimizing.is_none() {
                    Ok(hlslc_spirv_opt::LEGALIZATION.to_vec())
                } else {
                    Ok(hlslc_spirv_opt::pipeline(so.flatten_resource_arrays))
                };
                let passes = match passes {
                    Ok(p) => p,
                    Err(e) => {
                        diags.push(Diagnostic::error(format!("failed to optimize SPIR-V: {e}")));
                        return None;
                    }
                };
                // -fspv-print-all: the module before each pass, and after the last, on stderr
                // (as spirv-opt prints it for dxc).
                let print = |m: &rspirv::dr::Module, what: String| {
                    let text = hlslc_spirv::disasm::disassemble(&m.assemble()).unwrap_or_default();
                    eprint!("; IR {what}\n{text}");
                };
                times.time(Phase::Optimize, || {
                    if so.print_all {
                        hlslc_spirv_opt::optimize_with(&mut m, &passes, &opt, &mut |m, p| print(m, format!("before pass {}", p.name())));
                        print(&m, "after last pass".to_string());
                    } else {
                        hlslc_spirv_opt::optimize_with(&mut m, &passes, &opt, &mut |_, _| {});
                    }
                });
                // dxc's -O recipe ends with trim-capabilities: a capability only what the
                // optimizer removed needed goes too.
                if optimizing.is_some() {
                    hlslc_spirv::passes::capabilities::trim(&mut m, so.target_env);
                }
                check_texel_offsets(&m, diags);
                check_interpolants(&m, diags);
            }
            // -fspv-use-vulkan-memory-model: after the optimizer (whose passes read the
            // GLSL450 model's decorations), at every level, -fcgl included, as dxc does.
            if so.use_vulkan_memory_model {
                if let Err(e) = hlslc_spirv_opt::memmodel::run(&mut m) {
                    diags.push(Diagnostic::error(format!("-fspv-use-vulkan-memory-model: {e}")));
                    return None;
                }
            }
            // -fspv-max-id: the id bound the module may reach (dxc's optimizer fails when it
            // would need more; hlslc checks the finished module at every level).
            if let Some(max) = so.max_id {
                let bound = m.header.as_ref().map_or(0, |h| h.bound);
                if bound > max {
                    diags.push(Diagnostic::error(format!(
                        "ID overflow: the module's id bound is {bound}, above the {max} that -fspv-max-id allows"
                    )));
                }
            }
            check_extensions(&m, &so.extensions, diags);
            check_instruction_sizes(&m, diags);
            if diags.has_errors() {
                return None;
            }
            let generator = if so.dxc_generator { hlslc_spirv::builder::GENERATOR_SPIREGG } else { crate::SPIRV_GENERATOR };
            if let Some(header) = m.header.as_mut() {
                header.generator = generator;
            }

            // The disassembly only when someone reads it: stdout (no -Fo) or -Fc.
            let want_listing = options.output_kind == OutputKind::Text || options.listing;
            let (listing, bytes) = times.time(Phase::Serialize, || {
                let words = m.assemble();
                let listing = if want_listing { hlslc_spirv::disasm::disassemble(&words).ok() } else { None };
                // From the words written, read back: the in-memory module may hold operands in
                // forms the binary does not distinguish (a literal where a BuiltIn is meant).
                if options.reflect {
                    *reflection = hlslc_reflect::from_spirv(&words).ok();
                }
                (listing, words.iter().flat_map(|w| w.to_le_bytes()).collect())
            });
            Some((Output::Binary(bytes), listing))
        }
        Err(errors) => {
            for e in errors {
                let mut d = if e.fatal { Diagnostic::fatal(e.message) } else { Diagnostic::error(e.message).with_code("E0400") };
                if let Some(span) = e.span {
                    d = d.at(span);
                }
                for n in e.notes {
                    d = d.with_note(n);
                }
                diags.push(d);
            }
            None
        }
    }
}

/// Checks the unit and lowers it to DXIL: printed as dxc's disassembly, or with `-Fo` (binary
/// output) written as a DXIL container around the module's bitcode, the text kept as the listing.
///
/// The root signature (`rootsig_define`, the text of `-rootsig-define`'s macro, else the entry's
/// `[RootSignature]`) is compiled, checked against the shader's resources, embedded as `RTS0`
/// (unless `-Qstrip_rootsignature`) and returned in `root_signature` for `-Frs`.
pub(crate) fn dxil(
    unit: SemaInput,
    options: &Options,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
    sources: (&SourceMap, FileId),
    reflection: &mut Option<crate::Reflection>,
    rootsig_define: Option<String>,
    root_signature: &mut Option<Vec<u8>>,
) -> Option<(Output, Option<String>)> {
    let module = times.time(Phase::Sema, || {
        let module = unit.analyze(&sema_options(options), diags)?;
        hlslc_sema::stage::check_signature_points(&module, shader_model(options), hlslc_sema::stage::Backend::Dxil, diags);
        Some(module)
    })?;
    if diags.has_errors() {
        return None;
    }
    let profile = options.profile?;
    let lower = hlslc_dxil::lower::LowerOptions {
        shader_model: (u32::from(profile.major), u32::from(profile.minor)),
        entry_name: options.entry.clone(),
        hlsl_version: options.hlsl_version.number(),
        enable_16bit: options.enable_16bit_types,
        gvn: options.opt_level > 0
            && !options.disable_optimizations
            && !options.high_level_only
            && !options.dxil_options.opt_disable.iter().any(|o| o == "gvn"),
        validator_version: options.dxil_options.validator_version.unwrap_or((1, 8)),
        library: profile.kind == crate::profile::ProfileKind::Shader(hlslc_sema::entry::Stage::Library),
        auto_binding_space: options.dxil_options.auto_binding_space,
        default_linkage_external: options.dxil_options.default_linkage_external,
        debug: options.debug_info.then(|| dxil_debug(options, sources.0, sources.1)),
    };
    let rs_source = match rootsig_define {
        Some(text) => Some(crate::rootsig::Source { text, span: None }),
        None => module.entry.as_ref().and_then(|e| e.root_signature.clone()).map(|(text, span)| crate::rootsig::Source { text, span: Some(span) }),
    };
    let rs = match &rs_source {
        Some(src) => Some(crate::rootsig::compile(src, options, diags)?),
        None => None,
    };
    match times.time(Phase::Codegen, || hlslc_dxil::lower::lower_module(&module, &lower)) {
        Ok(m) => {
            if let Some((rs, rts0)) = &rs {
                crate::rootsig::check_shader(rs, &m, diags);
                if diags.has_errors() {
                    return None;
                }
                *root_signature = Some(crate::rootsig::container(rts0));
            }
            // From the metadata the container parts are written from; a module whose metadata
            // does not say enough (which the container would refuse too) has none.
            if options.reflect {
                *reflection = hlslc_reflect::from_dxil(&m).ok();
            }
            let text = times.time(Phase::Serialize, || hlslc_dxil::container::feature_note(&m) + &hlslc_dxil::print_module(&m));
            if options.output_kind == OutputKind::Binary {
                let embedded = rs.filter(|_| !options.dxil_options.strip_root_signature).map(|(_, b)| b);
                let opts = hlslc_dxil::container::ContainerOptions { strip_reflect: options.dxil_options.strip_reflection, root_signature: embedded };
                return match times.time(Phase::Serialize, || hlslc_dxil::container::build_container(&m, &hlslc_dxil::write_bitcode, &opts)) {
                    Ok(bytes) => Some((Output::Binary(bytes), Some(text))),
                    Err(e) => {
                        diags.push(Diagnostic::error(e.0).with_code("E0401"));
                        None
                    }
                };
            }
            Some((Output::Text(text), None))
        }
        Err(e) => {
            let mut d = Diagnostic::error(e.message).with_code("E0400");
            if let Some(span) = e.span {
                d = d.at(span);
            }
            diags.push(d);
            None
        }
    }
}

/// What `-Zi` describes in DXIL: the sources, the `-D` definitions and the command line.
fn dxil_debug(options: &Options, files: &SourceMap, main: FileId) -> hlslc_dxil::lower::debug::DebugOptions {
    use hlslc_frontend::pp::CmdDefine;
    let defines = options
        .defines
        .iter()
        .filter_map(|d| match d {
            CmdDefine::Define { name, value: Some(v) } => Some(format!("{name}={v}")),
            CmdDefine::Define { name, value: None } => Some(name.clone()),
            CmdDefine::Undef(_) => None,
        })
        .collect();
    hlslc_dxil::lower::debug::DebugOptions {
        files: files.clone(),
        main,
        args: options.command_args.clone(),
        defines,
        optimized: options.opt_level > 0 && !options.disable_optimizations,
    }
}

/// What `-Zi` and `-fspv-debug=` ask for, as dxc reads them: `-Zi` alone is every category of
/// `OpSource`/`OpLine` information; each `-fspv-debug=` value adds its categories (`line` implies
/// `source`, which implies `file`; `rich` is file and line in OpenCL.DebugInfo.100 (with the text
/// for `rich-with-source`); `vulkan` is file and line in NonSemantic.Shader.DebugInfo.100,
/// `vulkan-with-source` with the text, `vulkan-with-source-test` cutting the text every 13 bytes).
fn debug_source(
    options: &Options,
    files: &hlslc_frontend::source::SourceMap,
    main: hlslc_frontend::source::FileId,
) -> Option<DebugSource> {
    let so = &options.spirv_options;
    if !options.debug_info && so.debug.is_empty() {
        return None;
    }
    let version = options.profile.map_or(600, |p| u32::from(p.major) * 100 + u32::from(p.minor) * 10);
    let mut d = DebugSource::zi(files.clone(), main, version);
    d.command_line = so.command_line.clone();
    if so.debug.is_empty() {
        return Some(d);
    }
    (d.file, d.source, d.line, d.tool) = (false, false, false, false);
    for v in &so.debug {
        match v.as_str() {
            "file" => d.file = true,
            "source" => (d.file, d.source) = (true, true),
            "line" => (d.file, d.source, d.line) = (true, true, true),
            "tool" => d.tool = true,
            "rich" => (d.file, d.source, d.line, d.rich) = (true, false, true, true),
            "rich-with-source" => (d.file, d.source, d.line, d.rich) = (true, true, true, true),
            "vulkan" => (d.file, d.source, d.line, d.vulkan) = (true, false, true, true),
            "vulkan-with-source" => (d.file, d.source, d.line, d.vulkan) = (true, true, true, true),
            "vulkan-with-source-test" => {
                (d.file, d.source, d.line, d.vulkan) = (true, true, true, true);
                d.source_len = 13;
            }
            // The CLI refuses every other value.
            _ => {}
        }
    }
    Some(d)
}
