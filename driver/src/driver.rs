//! One compilation: options check, preprocess, parse, (sema, code generation), diagnostics
//! policy.

use crate::input;
use crate::options::{Action, Options};
use crate::predefines::predefined_macros;
use crate::profile::{HlslVersion, ProfileKind};
use crate::timing::{Phase, PhaseTimes};
use crate::{CompileResult, Output};
use hlslc_frontend::diag::{Diagnostic, Diagnostics, Severity};
use crate::codegen::SemaInput;
use hlslc_frontend::parser::{parse_each_owned, parse_owned, ParseOptions};
use hlslc_sema::Analyzer;
use hlslc_frontend::pp::{preprocess_full, render_output, IncludeHandler, LineMap, PpOptions};
use hlslc_frontend::source::{FileId, SourceMap, Span};

/// Compiles `source` (named `file_name` in diagnostics and `__FILE__`). `includes` is asked for
/// `#include`d files the file system search (if [`Options::use_filesystem`]) does not find.
pub fn compile(source: &str, file_name: &str, options: &Options, includes: Option<&mut dyn IncludeHandler>) -> CompileResult {
    compile_text(source.to_owned(), file_name, options, includes)
}

/// Like [`compile`], for the raw bytes of a file: UTF-8 (a byte-order mark is skipped) or UTF-16
/// with a byte-order mark. Invalid bytes are reported with their line and column, and nothing is
/// compiled. Takes the bytes by value so that a large file is not copied.
pub fn compile_bytes(bytes: Vec<u8>, file_name: &str, options: &Options, includes: Option<&mut dyn IncludeHandler>) -> CompileResult {
    let decoded = input::decode(bytes);
    if decoded.error_count == 0 {
        return compile_text(decoded.text, file_name, options, includes);
    }
    let mut sm = SourceMap::new();
    let file = sm.add(file_name, decoded.text);
    let mut diagnostics = Vec::new();
    for &at in &decoded.errors {
        let span = Span::new(file, at as u32, (at + char::REPLACEMENT_CHARACTER.len_utf8()) as u32);
        diagnostics.push(
            Diagnostic::error(format!("source file is not valid {}", decoded.encoding)).with_code("E0001").at(span),
        );
    }
    if decoded.error_count > decoded.errors.len() {
        let more = decoded.error_count - decoded.errors.len();
        diagnostics.push(Diagnostic::new(Severity::Note, format!("{more} more invalid byte sequences not shown")));
    }
    CompileResult {
        output: None,
        listing: None,
        diagnostics,
        source_map: sm,
        line_map: LineMap::default(),
        times: PhaseTimes::default(),
        reflection: None,
        root_signature: None,
    }
}

fn compile_text(text: String, file_name: &str, options: &Options, includes: Option<&mut dyn IncludeHandler>) -> CompileResult {
    let mut sm = SourceMap::new();
    let main = sm.add(file_name, text);
    let mut diags = Diagnostics::new();
    let mut line_map = LineMap::default();
    let mut times = PhaseTimes::default();
    let mut reflection = None;
    let mut root_signature = None;
    let output = run(&mut sm, main, options, includes, &mut diags, &mut line_map, &mut times, &mut reflection, &mut root_signature);
    let mut diagnostics = apply_warning_policy(diags.list, options);
    if options.action == Action::Verify {
        diagnostics = crate::verify::verify(&sm, &diagnostics);
    }
    let failed = diagnostics.iter().any(|d| d.is_error());
    let (output, listing) = match output {
        Some((o, l)) if !failed => (Some(o), l),
        _ => (None, None),
    };
    let reflection = if output.is_some() { reflection } else { None };
    let root_signature = root_signature.filter(|_| !failed);
    CompileResult { output, listing, diagnostics, source_map: sm, line_map, times, reflection, root_signature }
}

/// The pipeline. Returns the output and listing; the caller drops them if an error was reported.
/// `line_map` receives the `#line` directives unless `-ignore-line-directives`; `root_signature`
/// the container of the compiled root signature, if any (`-Frs`).
#[allow(clippy::too_many_arguments)]
fn run(
    sm: &mut SourceMap,
    main: FileId,
    options: &Options,
    includes: Option<&mut dyn IncludeHandler>,
    diags: &mut Diagnostics,
    line_map: &mut LineMap,
    times: &mut PhaseTimes,
    reflection: &mut Option<crate::Reflection>,
    root_signature: &mut Option<Vec<u8>>,
) -> Option<(Output, Option<String>)> {
    check_options(options, diags);
    if diags.has_errors() {
        return None;
    }
    let pp_options = pp_options(options);
    let pp = times.time(Phase::Preprocess, || preprocess_full(sm, main, &pp_options, includes, diags));
    if options.action == Action::Preprocess {
        return Some((Output::Text(render_output(sm, &pp)), None));
    }
    if !options.ignore_line_directives {
        *line_map = pp.lines;
    }
    let tokens = pp.tokens;
    if options.action == Action::Compile && options.profile.is_some_and(|p| p.kind == ProfileKind::RootSignature) {
        return root_signature_profile(pp.expanded.as_deref(), options, diags, root_signature);
    }
    // `-rootsig-define NAME`: the macro's text replaces the entry's `[RootSignature]`.
    let rootsig_define = match (&options.dxil_options.rootsig_define, &pp.expanded) {
        (Some(_), Some(toks)) => Some(crate::rootsig::macro_text(toks)),
        (Some(name), None) if options.action == Action::Compile && !options.spirv => {
            diags.push(crate::rootsig::undefined(name));
            return None;
        }
        _ => None,
    };
    if options.action == Action::Dependencies {
        if diags.has_errors() {
            return None;
        }
        return Some((Output::Text(crate::dependency_rule(sm)), None));
    }
    let parse_options = ParseOptions { hlsl_version: options.hlsl_version.number(), enable_16bit: options.enable_16bit_types };
    if options.action == Action::Compile {
        if diags.has_errors() {
            // Parsed for its diagnostics only.
            times.time(Phase::Parse, || parse_owned(tokens, &parse_options, diags));
            return None;
        }
        let checked = if !options.spirv || crate::codegen::spirv_options_clean(options) {
            streamed(tokens, &parse_options, options, diags, times)?
        } else {
            SemaInput::Unit(times.time(Phase::Parse, || parse_owned(tokens, &parse_options, diags)))
        };
        if diags.has_errors() {
            return None;
        }
        if options.spirv {
            return crate::codegen::spirv(checked, options, diags, times, (sm, main), reflection);
        }
        return crate::codegen::dxil(checked, options, diags, times, (sm, main), reflection, rootsig_define, root_signature);
    }
    let unit = times.time(Phase::Parse, || parse_owned(tokens, &parse_options, diags));
    match options.action {
        // dxc's -verify with -spirv runs the SPIR-V back end too: its errors are checked against
        // the expectations like sema's (the module is dropped).
        Action::Verify if options.spirv && options.profile.is_some() => {
            if !diags.has_errors() {
                let _ = crate::codegen::spirv(SemaInput::Unit(unit), options, diags, times, (sm, main), reflection);
            }
            None
        }
        Action::SyntaxOnly | Action::Verify => {
            // Sema runs on a unit the parser recovered from too, but its errors would mostly
            // repeat the parse errors: it runs only on a clean parse.
            if !diags.has_errors() {
                times.time(Phase::Sema, || crate::codegen::check(&unit, options, diags));
            }
            None
        }
        // The typed AST after sema; with parse or sema errors nothing is printed but the errors
        // (`-ast-dump-parse` prints the parser's tree, which needs only a clean parse).
        Action::AstDump { .. } => {
            if diags.has_errors() {
                return None;
            }
            crate::codegen::typed_ast(&unit, options, diags).map(|text| (Output::Text(text), None))
        }
        Action::ParseDump => Some((Output::Text(hlslc_frontend::ast_dump::dump(&unit)), None)),
        Action::Preprocess | Action::Dependencies | Action::Compile => None,
    }
}

/// Parses and checks a compile's tokens one top-level declaration at a time: each is checked by
/// sema as soon as it is parsed and then dropped, so the syntax tree of the whole file never
/// exists at once (for a large source it was the largest thing in memory next to the typed AST).
/// Sema's diagnostics are kept apart and given back with its module: they are reported after
/// the parser's, as when sema ran on the whole unit, and not at all when the parser reported an
/// error (sema then stops at the first declaration not parsed cleanly, and its work is dropped).
/// The time spent in sema counts as sema's, the rest as the parser's. `None` when the parser
/// reported an error.
fn streamed(
    tokens: Vec<hlslc_frontend::Token>,
    parse_options: &ParseOptions,
    options: &Options,
    diags: &mut Diagnostics,
    times: &mut PhaseTimes,
) -> Option<SemaInput> {
    let sema_options = crate::codegen::sema_options(options);
    let mut sema_diags = Diagnostics::new();
    let mut analyzer = Analyzer::new(&sema_options, &mut sema_diags);
    let mut clean = true;
    let mut sema_time = std::time::Duration::ZERO;
    let start = std::time::Instant::now();
    parse_each_owned(tokens, parse_options, diags, &mut |decl, ok| {
        clean &= ok;
        if clean {
            let t = std::time::Instant::now();
            analyzer.check(&decl);
            drop(decl);
            sema_time += t.elapsed();
        }
    });
    let parse_time = start.elapsed().saturating_sub(sema_time);
    if !clean || diags.has_errors() {
        times.add(Phase::Parse, parse_time);
        return None;
    }
    let t = std::time::Instant::now();
    let module = analyzer.finish();
    times.add(Phase::Parse, parse_time);
    times.add(Phase::Sema, sema_time + t.elapsed());
    Some(SemaInput::Checked(module, sema_diags))
}

/// Combinations of options that dxc refuses.
fn check_options(options: &Options, diags: &mut Diagnostics) {
    let needs_profile = matches!(options.action, Action::Compile);
    let profile = match options.profile {
        Some(p) => p,
        None => {
            if needs_profile {
                diags.push(Diagnostic::error("no target profile: use -T <profile> (for example -T ps_6_0)"));
            }
            return;
        }
    };
    if options.enable_16bit_types {
        if profile.kind != ProfileKind::RootSignature && !profile.at_least(6, 2) {
            diags.push(Diagnostic::error(format!(
                "enable-16bit-types is only allowed for shader model >= 6.2 (target profile is {profile})"
            )));
        }
        if options.hlsl_version < HlslVersion::V2018 {
            diags.push(Diagnostic::error("enable-16bit-types is only allowed with -HV 2018 and later"));
        }
    }
}

pub(crate) fn pp_options(options: &Options) -> PpOptions {
    let rootsig_profile = options.profile.is_some_and(|p| p.kind == ProfileKind::RootSignature);
    PpOptions {
        predefined: predefined_macros(options),
        defines: options.defines.clone(),
        include_dirs: options.include_dirs.clone(),
        use_filesystem: options.use_filesystem,
        // The root signature macro: `-E` of a `rootsig_1_x` target, else `-rootsig-define`.
        expand_after: if rootsig_profile { Some(options.entry.clone()) } else { options.dxil_options.rootsig_define.clone() },
    }
}

/// `-T rootsig_1_x -E NAME`: the macro `NAME` compiled alone, into a container holding only the
/// `RTS0` part (the text output is its `-dumpbin` listing). The HLSL is only preprocessed.
fn root_signature_profile(
    expanded: Option<&[hlslc_frontend::lexer::Token]>,
    options: &Options,
    diags: &mut Diagnostics,
    out: &mut Option<Vec<u8>>,
) -> Option<(Output, Option<String>)> {
    let Some(toks) = expanded else {
        diags.push(crate::rootsig::undefined(&options.entry));
        return None;
    };
    let src = crate::rootsig::Source { text: crate::rootsig::macro_text(toks), span: None };
    let (_, rts0) = crate::rootsig::compile(&src, options, diags)?;
    let bytes = crate::rootsig::container(&rts0);
    *out = Some(bytes.clone());
    let listing = hlslc_dxil::container::dump::dump(&bytes).ok();
    if options.output_kind == crate::options::OutputKind::Binary {
        return Some((Output::Binary(bytes), listing));
    }
    Some((Output::Text(listing.unwrap_or_default()), None))
}

/// `-Wno-<name>` drops warnings whose code is `-W<name>`; `-no-warnings` / `-w` drop all
/// warnings; `-WX` / `-Werror` turn the remaining ones into errors.
fn apply_warning_policy(list: Vec<Diagnostic>, options: &Options) -> Vec<Diagnostic> {
    let werror = options.warnings_as_errors || options.warning_options.iter().any(|w| w == "error");
    let disabled: Vec<String> =
        options.warning_options.iter().filter_map(|w| w.strip_prefix("no-")).map(|w| format!("-W{w}")).collect();
    list.into_iter()
        .filter(|d| {
            d.severity != Severity::Warning
                || (!options.no_warnings && !d.code.as_ref().is_some_and(|c| disabled.iter().any(|x| x == c)))
        })
        .map(|mut d| {
            if werror && d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warn(code: &str) -> Diagnostic {
        Diagnostic::warning("w").with_code(code)
    }

    #[test]
    fn warning_policy() {
        let list = vec![warn("-Wconversion"), warn("-Wunused-value"), Diagnostic::error("e")];
        let mut o = Options { warning_options: vec!["no-conversion".into()], ..Options::default() };
        let out = apply_warning_policy(list.clone(), &o);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].code.as_deref(), Some("-Wunused-value"));
        o.warnings_as_errors = true;
        let out = apply_warning_policy(list.clone(), &o);
        assert!(out.iter().all(|d| d.is_error()));
        o.no_warnings = true;
        assert_eq!(apply_warning_policy(list, &o).len(), 1);
    }
}
