//! Code generation after the front end: sema, then the SPIR-V emitter or the DXIL lowering
//! (textual DXIL; the bitcode container is not written yet).

use crate::options::{LayoutRule, MatrixPacking, Options, OutputKind, RegisterClass};
use crate::timing::{Phase, PhaseTimes};
use crate::Output;
use hlslc_frontend::ast::TranslationUnit;
use hlslc_frontend::diag::{Diagnostic, Diagnostics};
use hlslc_sema::{analyze, SemaOptions};
use rspirv::binary::Assemble;
use hlslc_spirv::lower::{emit_module, layout::LayoutRules, LowerOptions};

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
    let so = &options.spirv_options;
    let keep = hlslc_spirv_opt::Keep { bindings: so.preserve_bindings, interface: so.preserve_interface };
    Some(hlslc_spirv_opt::Options { keep })
}

/// Checks the unit and generates SPIR-V: the binary, and its disassembly as the listing.
pub(crate) fn spirv(unit: &TranslationUnit, options: &Options, diags: &mut Diagnostics, times: &mut PhaseTimes) -> Option<(Output, Option<String>)> {
    let so = &options.spirv_options;
    let module = times.time(Phase::Sema, || {
        let module = analyze(unit, &sema_options(options), diags)?;
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
            .flat_map(|s| {
                let letter = match s.class {
                    RegisterClass::B => 'b',
                    RegisterClass::T => 't',
                    RegisterClass::S => 's',
                    RegisterClass::U => 'u',
                };
                // `all` spaces: spell out the spaces a shader can name in practice.
                let spaces: Vec<u32> = match s.space {
                    Some(sp) => vec![sp],
                    None => (0..64).collect(),
                };
                spaces.into_iter().map(move |sp| (letter, s.shift, sp))
            })
            .collect(),
        auto_binding_space: options.dxil_options.auto_binding_space,
        entry_name: so.entrypoint_name.clone().unwrap_or_else(|| options.entry.clone()),
        finite_math_only: options.finite_math_only,
        resource_heap_binding: so.resource_heap.as_ref().map(|b| (b.binding, b.set)),
        sampler_heap_binding: so.sampler_heap.as_ref().map(|b| (b.binding, b.set)),
        counter_heap_binding: so.counter_heap.as_ref().map(|b| (b.binding, b.set)),
    };
    match times.time(Phase::Codegen, || emit_module(&module, &lower)) {
        Ok(mut m) => {
            if let Some(opt) = spirv_optimizer(options) {
                times.time(Phase::Optimize, || hlslc_spirv_opt::optimize(&mut m, &opt));
            }
            // The disassembly only when someone reads it: stdout (no -Fo) or -Fc.
            let want_listing = options.output_kind == OutputKind::Text || options.listing;
            let (listing, bytes) = times.time(Phase::Serialize, || {
                let words = m.assemble();
                let listing = if want_listing { hlslc_spirv::disasm::disassemble(&words).ok() } else { None };
                (listing, words.iter().flat_map(|w| w.to_le_bytes()).collect())
            });
            Some((Output::Binary(bytes), listing))
        }
        Err(e) => {
            let mut d = Diagnostic::error(e.message).with_code("E0400");
            if let Some(span) = e.span {
                d = d.at(span);
            }
            for n in e.notes {
                d = d.with_note(n);
            }
            diags.push(d);
            None
        }
    }
}

/// Checks the unit and lowers it to DXIL: printed as dxc's disassembly, or with `-Fo` (binary
/// output) written as a DXIL container around the module's bitcode, the text kept as the listing.
pub(crate) fn dxil(unit: &TranslationUnit, options: &Options, diags: &mut Diagnostics, times: &mut PhaseTimes) -> Option<(Output, Option<String>)> {
    let module = times.time(Phase::Sema, || {
        let module = analyze(unit, &sema_options(options), diags)?;
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
        enable_16bit: options.enable_16bit_types,
        gvn: options.opt_level > 0 && !options.disable_optimizations && !options.dxil_options.opt_disable.iter().any(|o| o == "gvn"),
    };
    match times.time(Phase::Codegen, || hlslc_dxil::lower::lower_module(&module, &lower)) {
        Ok(m) => {
            let text = times.time(Phase::Serialize, || hlslc_dxil::print_module(&m));
            if options.output_kind == OutputKind::Binary {
                let opts = hlslc_dxil::container::ContainerOptions { strip_reflect: options.dxil_options.strip_reflection };
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
