//! Validate mode: is the SPIR-V hlslc writes for the corpus valid?
//!
//! Of a positive file (no RUN line starts with `not`, no `-verify`) every hlslc command that
//! compiles source runs with its output options dropped, `-fcgl` dropped (DXC validates legalized
//! code), `-spirv` added when missing (HLSLFileCheck's commands target DXIL) and `-Fo` to a
//! temporary file; `spirv-val` then checks each binary with the command's target environment
//! (`-fspv-target-env=`; `universal1.5` is `spv1.5`) and block-layout rule (DXC validates its
//! default "vector-relaxed" layouts with `--relax-block-layout`, `-fvk-use-scalar-layout` with
//! `--scalar-block-layout`, `-fvk-use-dx-layout` with `--skip-block-layout`).
//!
//! Outcomes: `Pass` = every binary valid; `Fail` = a binary is invalid (the detail starts with
//! spirv-val's first error); `NotCompiled` = hlslc rejected a command; `Crash`/`Timeout` as usual.

use super::run::{blank_names, command_line, compile, first_error};
use super::script::{Paths, Stage, Tool};
use super::syntax::{option_name, positive_compiles, syntax_args};
use super::{Config, Outcome};
use crate::process::{self, Spawn};
use std::path::Path;

/// `spirv-val` options for an hlslc command line.
pub fn spirv_val_options(args: &[String]) -> Vec<String> {
    let env = args.iter().rev().find_map(|a| a.strip_prefix("-fspv-target-env=")).unwrap_or("vulkan1.0");
    let env = match env {
        "universal1.5" => "spv1.5".to_string(),
        e => e.replace("spirv", "spv"),
    };
    let has = |o: &str| args.iter().any(|a| a == o);
    let layout = if has("-fvk-use-scalar-layout") {
        Some("--scalar-block-layout")
    } else if has("-fvk-use-dx-layout") {
        Some("--skip-block-layout")
    } else if has("-fvk-use-gl-layout") {
        None
    } else {
        Some("--relax-block-layout")
    };
    let mut v = vec!["--target-env".to_string(), env];
    v.extend(layout.map(String::from));
    v
}

/// The compile-to-binary form of an hlslc command (`None`: not a compile of source).
pub(super) fn validate_args(args: &[String], paths: &Paths, out: &Path) -> Option<Vec<String>> {
    let mut a = syntax_args(args, paths)?;
    a.retain(|x| !matches!(option_name(x), Some("fsyntax-only" | "fcgl")));
    if !a.iter().any(|x| option_name(x) == Some("spirv")) {
        a.push("-spirv".into());
    }
    a.push("-Fo".into());
    a.push(out.to_string_lossy().into_owned());
    Some(a)
}

pub(super) fn run_validate(pipelines: &[Vec<Stage>], paths: &Paths, cfg: &Config, tmp: &Path) -> (Outcome, String) {
    let compiles = match positive_compiles(pipelines) {
        Ok(c) => c,
        Err(negative) => return negative,
    };
    let Some(val) = crate::tools::spirv_tool("spirv-val") else {
        return (Outcome::Unsupported, "spirv-val not found".into());
    };
    let mut ran = 0;
    for (k, s) in compiles.iter().enumerate() {
        let out = tmp.join(format!("validate.{k}.spv"));
        let Some(args) = validate_args(&s.args, paths, &out) else { continue };
        let stage = Stage { nots: 0, tool: Tool::Hlslc, args, merge_stderr: false, stdin_file: None, stdout_file: None };
        if let Err(bad) = compile(&stage, cfg, tmp) {
            return bad;
        }
        let mut vargs = spirv_val_options(&stage.args);
        vargs.push(out.to_string_lossy().into_owned());
        let v = process::run(&Spawn { program: &val, args: &vargs, timeout: Some(cfg.timeout), ..Default::default() });
        if !v.exit.success() {
            let text = format!("{}{}", String::from_utf8_lossy(&v.stderr), String::from_utf8_lossy(&v.stdout));
            return (Outcome::Fail, format!("{}\n  spirv-val {}\n  {}", first_error(&text), vargs.join(" "), command_line(&stage)));
        }
        ran += 1;
    }
    if ran == 0 {
        return (Outcome::Unsupported, "no hlslc command that compiles source".into());
    }
    (Outcome::Pass, String::new())
}

/// spirv-val's first error with ids, numbers and quoted names blanked, so that the same kind of
/// problem in different files reads the same (`error: line N: ... <id> '%id' ...`).
pub fn error_kind(detail: &str) -> String {
    let first = detail.lines().next().unwrap_or("");
    let first = first.split_once(": ").map_or(first, |(_, rest)| rest);
    let first = first.strip_prefix("line ").and_then(|r| r.split_once(": ")).map_or(first, |(_, rest)| rest);
    blank_names(first, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn target_env_and_layout_options() {
        assert_eq!(spirv_val_options(&v("-T ps_6_0")), v("--target-env vulkan1.0 --relax-block-layout"));
        assert_eq!(spirv_val_options(&v("-fspv-target-env=vulkan1.1spirv1.4 -fvk-use-scalar-layout")), v("--target-env vulkan1.1spv1.4 --scalar-block-layout"));
        assert_eq!(spirv_val_options(&v("-fspv-target-env=universal1.5 -fvk-use-gl-layout")), v("--target-env spv1.5"));
        assert_eq!(spirv_val_options(&v("-fspv-target-env=vulkan1.3 -fvk-use-dx-layout")), v("--target-env vulkan1.3 --skip-block-layout"));
    }

    #[test]
    fn compiles_to_a_binary_without_fcgl() {
        let p = Paths { file: "/c/x.hlsl".into(), dir: "/c".into(), tmp: "/tmp/q/t".into(), tmp_dir: "/tmp/q".into() };
        let got = validate_args(&v("-T ps_6_0 -E main -fcgl -spirv /c/x.hlsl"), &p, Path::new("/tmp/q/o.spv"));
        assert_eq!(got, Some(v("-T ps_6_0 -E main -spirv /c/x.hlsl -Fo /tmp/q/o.spv")));
        let dxil = validate_args(&v("-T cs_6_0 -E main /c/x.hlsl"), &p, Path::new("/o"));
        assert_eq!(dxil, Some(v("-T cs_6_0 -E main /c/x.hlsl -spirv -Fo /o")));
    }

    #[test]
    fn error_kinds_blank_ids() {
        let a = "error: line 42: OpStore Pointer <id> '50[%sss]'s type does not match Object <id> '51[%51]'s type.";
        let b = "error: line 7: OpStore Pointer <id> '9[%x]'s type does not match Object <id> '10[%10]'s type.";
        assert_eq!(error_kind(a), error_kind(b));
        assert!(error_kind(a).starts_with("OpStore Pointer <id> '_'s type"), "{}", error_kind(a));
    }
}
