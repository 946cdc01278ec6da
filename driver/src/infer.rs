//! Inferring the target profile from the entry function, for `hlsl2spirv` without `-T`.

use crate::options::{Action, Options};
use crate::profile::{Profile, Stage};
use crate::{compile, CompileResult, Diagnostic};
use hlslc_frontend::ast::{Annotation, Decl, ExprKind, FuncDecl, TranslationUnit};
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::preprocess;
use hlslc_frontend::source::SourceMap;

/// The profile of `options.entry` in `source`, from its attributes and return semantic (see
/// `hlsl2spirv --help`). On failure, a result whose diagnostics say why (parse errors, or that the
/// stage cannot be told).
pub fn infer_profile(source: &str, file_name: &str, options: &Options) -> Result<Profile, CompileResult> {
    let probe = Options { profile: None, action: Action::SyntaxOnly, ..options.clone() };
    let mut sm = SourceMap::new();
    let main = sm.add(file_name, source.to_owned());
    let mut diags = Diagnostics::new();
    let tokens = preprocess(&mut sm, main, &crate::driver::pp_options(&probe), None, &mut diags);
    let unit = parse(&tokens, &ParseOptions { hlsl_version: probe.hlsl_version.number(), enable_16bit: probe.enable_16bit_types }, &mut diags);
    if diags.has_errors() {
        return Err(compile(source, file_name, &probe, None));
    }
    match stage_of(&unit, &options.entry) {
        Some(stage) => Ok(default_profile(stage)),
        None => {
            let mut result = compile(source, file_name, &probe, None);
            result.diagnostics.push(Diagnostic::error(format!(
                "cannot infer the shader stage of entry point '{}': use -T <profile> (for example -T ps_6_0)",
                options.entry
            )));
            Err(result)
        }
    }
}

/// The lowest profile of a stage: 6.0, 6.5 for mesh and amplification, `lib_6_3` for ray tracing
/// and node stages.
pub fn default_profile(stage: Stage) -> Profile {
    let (stage, minor) = match stage {
        Stage::Mesh | Stage::Amplification => (stage, 5),
        s if s.prefix().is_none() || s == Stage::Library => (Stage::Library, 3),
        s => (s, 0),
    };
    Profile::shader(stage, 6, minor)
}

fn find_entry<'a>(unit: &'a TranslationUnit, entry: &str) -> Option<&'a FuncDecl> {
    let funcs = unit.decls.iter().filter_map(|d| match d {
        Decl::Func(f) if f.name.name == entry && f.qualifier.is_empty() => Some(f),
        _ => None,
    });
    // Prefer the definition over prototypes.
    let all: Vec<&FuncDecl> = funcs.collect();
    all.iter().find(|f| f.body.is_some()).or(all.first()).copied()
}

fn stage_of(unit: &TranslationUnit, entry: &str) -> Option<Stage> {
    let f = find_entry(unit, entry)?;
    let has = |name: &str| f.attrs.iter().any(|a| a.namespace.is_none() && a.name.name.eq_ignore_ascii_case(name));
    for a in &f.attrs {
        if a.name.name.eq_ignore_ascii_case("shader") {
            if let Some(ExprKind::StringLit(s)) = a.args.first().map(|e| &e.kind) {
                return Stage::from_attribute(&s.to_ascii_lowercase());
            }
        }
    }
    if has("numthreads") {
        return Some(if has("outputtopology") { Stage::Mesh } else { Stage::Compute });
    }
    if has("maxvertexcount") {
        return Some(Stage::Geometry);
    }
    if has("domain") {
        return Some(if has("patchconstantfunc") || has("outputcontrolpoints") { Stage::Hull } else { Stage::Domain });
    }
    for ann in &f.annotations {
        if let Annotation::Semantic(s) = ann {
            let s = s.name.to_ascii_uppercase();
            if s.starts_with("SV_TARGET") || s.starts_with("SV_DEPTH") || s == "SV_COVERAGE" {
                return Some(Stage::Pixel);
            }
            if s == "SV_POSITION" {
                return Some(Stage::Vertex);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer(src: &str, entry: &str) -> Result<String, String> {
        let o = Options { entry: entry.into(), ..Options::default() };
        infer_profile(src, "t.hlsl", &o).map(|p| p.to_string()).map_err(|r| r.render_diagnostics())
    }

    #[test]
    fn stages_from_attributes_and_semantics() {
        assert_eq!(infer("[numthreads(8,1,1)] void main() {}", "main").unwrap(), "cs_6_0");
        assert_eq!(infer("[numthreads(8,1,1)] [outputtopology(\"triangle\")] void ms() {}", "ms").unwrap(), "ms_6_5");
        assert_eq!(infer("[shader(\"vertex\")] float4 v() : SV_Position { return 0; }", "v").unwrap(), "vs_6_0");
        assert_eq!(infer("[shader(\"raygeneration\")] void rg() {}", "rg").unwrap(), "lib_6_3");
        assert_eq!(infer("float4 main() : SV_Target0 { return 0; }", "main").unwrap(), "ps_6_0");
        assert_eq!(infer("float4 f() : SV_Position { return 0; }", "f").unwrap(), "vs_6_0");
        assert_eq!(infer("[maxvertexcount(3)] void g() {}", "g").unwrap(), "gs_6_0");
        assert_eq!(infer("[domain(\"tri\")] float4 d() : SV_Position { return 0; }", "d").unwrap(), "ds_6_0");
    }

    #[test]
    fn failures_explain_themselves() {
        let e = infer("void helper() {}", "main").unwrap_err();
        assert!(e.contains("cannot infer the shader stage of entry point 'main'"), "{e}");
        let e = infer("void main( {}", "main").unwrap_err();
        assert!(e.contains("t.hlsl:1:"), "{e}");
    }
}
