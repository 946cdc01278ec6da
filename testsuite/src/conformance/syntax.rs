//! Syntax-only mode: does hlslc's front end accept the files dxc accepts?
//!
//! A file is *positive* when none of its RUN lines starts with `not` and none uses `-verify`. Of a
//! positive file only the hlslc commands run, with `-fsyntax-only` added and the output options
//! (`-Fo`, `-Fc`, `-Fi`, `-P`, `-ast-dump`...) dropped; commands that do not compile source
//! (`-link`, `-dumpbin`, `-recompile`, or an input made by an earlier command) are left out. The
//! file passes when every command left exits with 0.

use super::run::{judge, run_stage};
use super::script::{Paths, Stage, Tool};
use super::{Config, Outcome};
use std::path::Path;

/// Options followed by a value that only name an output.
const OUTPUT_WITH_VALUE: &[&str] = &["Fo", "Fc", "Fi", "Fh", "Fd", "Fe", "Fre", "Frs", "Fsh", "MF", "Vn"];
/// Options without a value that only choose what to output.
const OUTPUT_FLAGS: &[&str] = &["P", "ast-dump", "ast-dump-implicit", "M", "MD", "Odump", "fsyntax-only"];
/// Options that make dxc do something other than compile source.
const NOT_A_COMPILE: &[&str] = &[
    "link",
    "dumpbin",
    "recompile",
    "extractrootsignature",
    "verifyrootsignature",
    "setrootsignature",
    "setprivate",
    "getprivate",
    "Qstrip_rootsignature",
];

pub(super) fn option_name(arg: &str) -> Option<&str> {
    arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')).or_else(|| arg.strip_prefix('/'))
}

/// The syntax-only form of an hlslc command; `None` when it is not a compile of source.
pub(super) fn syntax_args(args: &[String], paths: &Paths) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with(&paths.tmp_dir) {
            return None; // reads what an earlier command wrote
        }
        // An existing source file path that starts with '/' is not an option.
        let opt = if a.starts_with('/') && Path::new(a).exists() { None } else { option_name(a) };
        if let Some(name) = opt {
            if NOT_A_COMPILE.contains(&name) {
                return None;
            }
            if OUTPUT_FLAGS.contains(&name) {
                continue;
            }
            if OUTPUT_WITH_VALUE.contains(&name) {
                it.next();
                continue;
            }
            if OUTPUT_WITH_VALUE.iter().any(|o| name.len() > o.len() && name.starts_with(o)) {
                continue; // joined value: -FoX
            }
        }
        out.push(a.clone());
    }
    out.push("-fsyntax-only".into());
    Some(out)
}

/// The hlslc commands of a positive file, or why the file is negative (a RUN line starts with
/// `not`, or a command uses `-verify`): shared by the modes that run only positive files.
pub(super) fn positive_compiles(pipelines: &[Vec<Stage>]) -> Result<Vec<&Stage>, (Outcome, String)> {
    if pipelines.iter().any(|p| p.first().is_some_and(|s| s.nots > 0)) {
        return Err((Outcome::Negative, "a RUN line starts with 'not'".into()));
    }
    let compiles: Vec<&Stage> = pipelines.iter().flatten().filter(|s| s.tool == Tool::Hlslc).collect();
    if compiles.iter().any(|s| s.args.iter().any(|a| option_name(a) == Some("verify"))) {
        return Err((Outcome::Negative, "-verify".into()));
    }
    Ok(compiles)
}

pub(super) fn run_syntax(pipelines: &[Vec<Stage>], paths: &Paths, cfg: &Config, tmp: &Path) -> (Outcome, String) {
    if let Err(negative) = positive_compiles(pipelines) {
        return negative;
    }
    let text = std::fs::read_to_string(&paths.file).unwrap_or_default();
    if checks_expect_error(pipelines, &text) {
        return (Outcome::Negative, "CHECK lines expect an error".into());
    }
    let mut ran = 0;
    for p in pipelines {
        for (i, s) in p.iter().enumerate().filter(|(_, s)| s.tool == Tool::Hlslc) {
            let Some(args) = syntax_args(&s.args, paths) else { continue };
            let stage = Stage { nots: 0, tool: Tool::Hlslc, args, merge_stderr: false, stdin_file: None, stdout_file: None };
            let out = run_stage(&stage, cfg, tmp, None);
            if let Err(bad) = judge(&stage, &out) {
                let check = p[i + 1..].iter().find(|s| s.tool == Tool::FileCheck);
                if bad.0 == Outcome::Fail && check.is_some_and(|c| checks_match_errors(c, &text, &out.stderr, cfg, tmp)) {
                    return (Outcome::Negative, "the CHECK lines match hlslc's error messages".into());
                }
                return bad;
            }
            ran += 1;
        }
    }
    if ran == 0 {
        return (Outcome::Unsupported, "no hlslc command that compiles source".into());
    }
    (Outcome::Pass, String::new())
}

/// Does the FileCheck stage `check` pass when it reads only the error lines of hlslc's report
/// (`file:line:col: error: message`, no source lines)? DXC's batch test runner hands a failed
/// compile's messages to FileCheck, so a file without `not` may expect an error without spelling
/// `error:` (`// CHECK: use of undeclared identifier`); when its positive directives (at least one)
/// all match hlslc's error messages, dxc's expected output is an error report and the file is
/// negative. Files with only `-NOT` directives match anything and stay positive.
fn checks_match_errors(check: &Stage, text: &str, stderr: &[u8], cfg: &Config, tmp: &Path) -> bool {
    if cfg.filecheck.is_none() || directives(text, &check_prefixes(check)).all(|(kind, _)| kind == "-NOT") {
        return false;
    }
    let report = String::from_utf8_lossy(stderr);
    let errors: String = report.lines().filter(|l| l.contains("error:")).map(|l| format!("{l}\n")).collect();
    let mut args = Vec::with_capacity(check.args.len());
    let mut it = check.args.iter();
    while let Some(a) = it.next() {
        let name = a.trim_start_matches('-');
        if name == "input-file" {
            it.next();
        } else if !name.starts_with("input-file=") {
            args.push(a.clone());
        }
    }
    let stage = Stage { nots: 0, tool: Tool::FileCheck, args, merge_stderr: false, stdin_file: None, stdout_file: None };
    run_stage(&stage, cfg, tmp, Some(errors.as_bytes())).exit.success()
}

/// The FileCheck prefixes of a FileCheck stage (`CHECK` when none is given).
fn check_prefixes(stage: &Stage) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = stage.args.iter();
    while let Some(a) = it.next() {
        let a = a.trim_start_matches('-');
        let list = if let Some(v) = a.strip_prefix("check-prefix=").or_else(|| a.strip_prefix("check-prefixes=")) {
            v.to_string()
        } else if a == "check-prefix" || a == "check-prefixes" {
            it.next().cloned().unwrap_or_default()
        } else {
            continue;
        };
        out.extend(list.split(',').filter(|p| !p.is_empty()).map(String::from));
    }
    if out.is_empty() {
        out.push("CHECK".into());
    }
    out
}

/// The FileCheck directives of `text` for `prefixes`: (kind, pattern), the kind being `""`,
/// `-NEXT`, `-SAME`, `-DAG`, `-LABEL` or `-NOT`; the first directive of a line counts.
fn directives<'a>(text: &'a str, prefixes: &'a [String]) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
    text.lines().filter_map(move |line| {
        prefixes.iter().find_map(|p| {
            let mut rest = line;
            while let Some(i) = rest.find(p.as_str()) {
                let after = &rest[i + p.len()..];
                let before_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
                let kind_end = after.find(':').unwrap_or(0);
                let kind = &after[..kind_end];
                if before_ok && after.contains(':') && ["", "-NEXT", "-SAME", "-DAG", "-LABEL", "-NOT"].contains(&kind) {
                    return Some((kind, &after[kind_end + 1..]));
                }
                rest = &rest[i + p.len()..];
            }
            None
        })
    })
}

/// Does a pipeline that compiles and then runs FileCheck expect an `error:` message? Directives
/// `PREFIX:`, `PREFIX-NEXT:`, `-SAME`, `-DAG`, `-LABEL` count; `PREFIX-NOT:` does not.
pub(super) fn checks_expect_error(pipelines: &[Vec<Stage>], text: &str) -> bool {
    let prefixes: Vec<String> = pipelines
        .iter()
        .filter(|p| p.iter().any(|s| s.tool == Tool::Hlslc))
        .flat_map(|p| p.iter().filter(|s| s.tool == Tool::FileCheck).flat_map(check_prefixes))
        .collect();
    let expects = directives(text, &prefixes).any(|(kind, pattern)| kind != "-NOT" && pattern.contains("error:"));
    expects
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(tool: Tool, args: &str) -> Stage {
        Stage { nots: 0, tool, args: v(args), merge_stderr: false, stdin_file: None, stdout_file: None }
    }

    #[test]
    fn error_checks_make_a_file_negative() {
        let p = vec![vec![stage(Tool::Hlslc, "-T ps_6_0 /c/x.hlsl"), stage(Tool::FileCheck, "/c/x.hlsl")]];
        assert!(checks_expect_error(&p, "// CHECK: 3:5: error: bad thing\n"));
        assert!(checks_expect_error(&p, "// CHECK-NEXT: error: bad thing"));
        assert!(!checks_expect_error(&p, "// CHECK-NOT: error:"), "-NOT expects the absence");
        assert!(!checks_expect_error(&p, "// CHECK: @main\n// CHECK: ret void"));
        assert!(!checks_expect_error(&p, "// OTHER: error: not this prefix"));
        let q = vec![vec![stage(Tool::Hlslc, "-T ps_6_0 /c/x.hlsl"), stage(Tool::FileCheck, "/c/x.hlsl --check-prefixes=A,B")]];
        assert!(checks_expect_error(&q, "// B: error: expected"));
        assert!(!checks_expect_error(&q, "// CHECK: error: default prefix not in use"));
        let no_compile = vec![vec![stage(Tool::FileCheck, "/c/x.hlsl")]];
        assert!(!checks_expect_error(&no_compile, "// CHECK: error: x"));
    }

    fn paths() -> Paths {
        Paths { file: "/c/x.hlsl".into(), dir: "/c".into(), tmp: "/tmp/q/t".into(), tmp_dir: "/tmp/q".into() }
    }

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn drops_outputs_and_adds_syntax_only() {
        let got = syntax_args(&v("-T ps_6_0 -E main -Fo /tmp/q/t.1 /Fc x.ll -FoJoined -P -Zi /c/x.hlsl -spirv"), &paths());
        assert_eq!(got, Some(v("-T ps_6_0 -E main -Zi /c/x.hlsl -spirv -fsyntax-only")));
    }

    #[test]
    fn leaves_out_commands_that_are_not_compiles() {
        assert_eq!(syntax_args(&v("-T lib_6_x -link /tmp/q/t.1;/tmp/q/t.2"), &paths()), None);
        assert_eq!(syntax_args(&v("-dumpbin /tmp/q/t.o"), &paths()), None);
        assert_eq!(syntax_args(&v("-T ps_6_0 /tmp/q/t.hlsl"), &paths()), None);
    }
}
