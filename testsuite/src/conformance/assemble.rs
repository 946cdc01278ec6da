//! Assemble mode: does the DXIL text hlslc prints for the corpus parse with LLVM 14's `llvm-as`?
//!
//! Of a positive file (no RUN line starts with `not`, no `-verify`) every hlslc command that
//! compiles source to DXIL (no `-spirv`) runs with its output options dropped, so that the module
//! is printed on standard output; `llvm-as` (LLVM 14, the closest assembler to DXIL's LLVM 3.7
//! dialect) then assembles each printed module to `/dev/null`.
//!
//! A module with `-Zi` debug information is written in LLVM 3.7's debug-metadata syntax, which
//! LLVM 14's parser no longer reads; [`upgrade_debug_info`] rewrites those spellings to LLVM 14's
//! (what LLVM's own reader does when it upgrades 3.7 bitcode) before assembling, and nothing else.
//!
//! Outcomes: `Pass` = every module assembled; `Fail` = `llvm-as` rejected a module (the detail
//! starts with its first error); `NotCompiled` = hlslc refused a command; `Unsupported` = no
//! command compiles to DXIL, or `llvm-as` is not installed; `Crash`/`Timeout` as usual.

use super::run::{blank_names, command_line, compile, first_error};
use super::script::{Paths, Stage, Tool};
use super::syntax::{option_name, positive_compiles, syntax_args};
use super::{Config, Outcome};
use crate::process::{self, Spawn};
use std::path::Path;

/// The print-DXIL-to-stdout form of an hlslc command (`None`: not a compile of source to DXIL).
pub(super) fn assemble_args(args: &[String], paths: &Paths) -> Option<Vec<String>> {
    if args.iter().any(|x| option_name(x) == Some("spirv")) {
        return None;
    }
    let mut a = syntax_args(args, paths)?;
    a.retain(|x| option_name(x) != Some("fsyntax-only"));
    Some(a)
}

/// LLVM 3.7's debug-information syntax in LLVM 14's spelling: the compile unit loses
/// `subprograms:` (14 finds subprograms through their `unit:`), a defining `DISubprogram` becomes
/// `distinct` with `unit:` instead of `function:`, `DILocalVariable` loses `tag:` (14 tells
/// parameters by `arg:`), `DW_OP_bit_piece` becomes `DW_OP_LLVM_fragment`. `llvm.dbg.value`'s
/// 3.7 form (with the `i64` offset) is upgraded by `llvm-as` itself. A module without
/// `!llvm.dbg.cu` is returned unchanged.
pub fn upgrade_debug_info(text: &str) -> String {
    let Some(cu) = text.lines().find_map(|l| l.strip_prefix("!llvm.dbg.cu = !{").and_then(|r| r.strip_suffix('}'))) else {
        return text.to_string();
    };
    let cu = cu.split(',').next().unwrap_or("").trim().to_string();
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut l = line.to_string();
        if l.starts_with('!') {
            if l.contains("!DICompileUnit(") {
                if let Some(at) = l.find(", subprograms: !") {
                    let rest = &l[at + 2..];
                    let end = rest.find(", ").map_or(l.len() - 1, |e| at + 2 + e);
                    l.replace_range(at..end, "");
                }
            }
            if l.contains(" = !DISubprogram(") && l.contains("isDefinition: true") {
                l = l.replacen(" = !DISubprogram(", " = distinct !DISubprogram(", 1);
                match l.find(", function: ") {
                    Some(at) => l.replace_range(at.., &format!(", unit: {cu})")),
                    None => l.replace_range(l.len() - 1.., &format!(", unit: {cu})")),
                }
            }
            if let Some(at) = l.find("!DILocalVariable(tag: ") {
                let start = at + "!DILocalVariable(".len();
                if let Some(e) = l[start..].find(", ") {
                    l.replace_range(start..start + e + 2, "");
                }
            }
        }
        out.push_str(&l.replace("DW_OP_bit_piece", "DW_OP_LLVM_fragment"));
        out.push('\n');
    }
    out
}

/// The first line of `llvm-as`'s report that names an error, without the `llvm-as: ` prefix.
fn first_llvm_as_error(text: &str) -> &str {
    first_error(text).trim_start_matches("llvm-as: ").trim_start_matches("llvm-as-14: ")
}

pub(super) fn run_assemble(pipelines: &[Vec<Stage>], paths: &Paths, cfg: &Config, tmp: &Path) -> (Outcome, String) {
    let compiles = match positive_compiles(pipelines) {
        Ok(c) => c,
        Err(negative) => return negative,
    };
    let Some(llvm_as) = crate::tools::llvm_as() else {
        return (Outcome::Unsupported, "llvm-as (LLVM 14) not found".into());
    };
    let mut ran = 0;
    for s in compiles {
        let Some(args) = assemble_args(&s.args, paths) else { continue };
        let stage = Stage { nots: 0, tool: Tool::Hlslc, args, merge_stderr: false, stdin_file: None, stdout_file: None };
        let r = match compile(&stage, cfg, tmp) {
            Ok(r) => r,
            Err(bad) => return bad,
        };
        if r.stdout.iter().all(|b| b.is_ascii_whitespace()) {
            continue; // nothing printed (e.g. -Fc wrote elsewhere): nothing to assemble
        }
        let text = upgrade_debug_info(&String::from_utf8_lossy(&r.stdout));
        let aargs = vec!["-o".to_string(), "/dev/null".to_string(), "-".to_string()];
        let v = process::run(&Spawn {
            program: &llvm_as,
            args: &aargs,
            cwd: Some(tmp),
            stdin: Some(text.as_bytes()),
            merge_stderr: true,
            timeout: Some(cfg.timeout),
            ..Default::default()
        });
        if !v.exit.success() {
            let text = String::from_utf8_lossy(&v.stdout);
            return (Outcome::Fail, format!("{}\n  {}", first_llvm_as_error(&text), command_line(&stage)));
        }
        ran += 1;
    }
    if ran == 0 {
        return (Outcome::Unsupported, "no hlslc command that compiles source to DXIL".into());
    }
    (Outcome::Pass, String::new())
}

/// `llvm-as`'s first error with the position and quoted names blanked, so that the same kind of
/// problem in different files reads the same (`<stdin>:12:5: error: expected type`).
pub fn error_kind(detail: &str) -> String {
    let first = detail.lines().next().unwrap_or("");
    let first = first.split_once("error: ").map_or(first, |(_, rest)| rest);
    blank_names(first, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn paths() -> Paths {
        Paths { file: "/c/x.hlsl".into(), dir: "/c".into(), tmp: "/tmp/q/t".into(), tmp_dir: "/tmp/q".into() }
    }

    #[test]
    fn prints_dxil_on_stdout() {
        let got = assemble_args(&v("-T ps_6_0 -E main -Fo /tmp/q/t.1 -Fc x.ll /c/x.hlsl"), &paths());
        assert_eq!(got, Some(v("-T ps_6_0 -E main /c/x.hlsl")));
        assert_eq!(assemble_args(&v("-T ps_6_0 -E main -spirv /c/x.hlsl"), &paths()), None, "SPIR-V is not DXIL");
        assert_eq!(assemble_args(&v("-T lib_6_x -link /tmp/q/a;/tmp/q/b"), &paths()), None);
    }

    #[test]
    fn error_kinds_blank_positions_and_names() {
        let a = "<stdin>:12:5: error: use of undefined value '%dx.types.Handle'";
        let b = "<stdin>:7:15: error: use of undefined value '%x'";
        assert_eq!(error_kind(a), error_kind(b));
        assert_eq!(error_kind("<stdin>:3:1: error: expected type"), "expected type");
        assert_eq!(error_kind("<stdin>:3:1: error: invalid use of %foo.bar 12"), "invalid use of %_ N");
    }
}

#[cfg(test)]
mod upgrade_tests {
    use super::upgrade_debug_info;

    #[test]
    fn debug_info_3_7_spellings_become_14s() {
        // The shapes of dxc's `-Zi` listings (delete_constant_dce.ll, line_num_disasm.hlsl).
        let text = "!llvm.dbg.cu = !{!0}\n\
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: \"p\", isOptimized: false, runtimeVersion: 0, emissionKind: 1, enums: !2, subprograms: !3)\n\
!4 = !DISubprogram(name: \"main\", scope: !1, file: !1, line: 18, type: !5, isLocal: false, isDefinition: true, scopeLine: 18, flags: DIFlagPrototyped, isOptimized: false, function: void (float*)* @main)\n\
!9 = !DILocalVariable(tag: DW_TAG_auto_variable, name: \"xy\", scope: !4, file: !1, line: 4, type: !7)\n\
!10 = !DIExpression(DW_OP_bit_piece, 0, 32)\n";
        let want = "!llvm.dbg.cu = !{!0}\n\
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: \"p\", isOptimized: false, runtimeVersion: 0, emissionKind: 1, enums: !2)\n\
!4 = distinct !DISubprogram(name: \"main\", scope: !1, file: !1, line: 18, type: !5, isLocal: false, isDefinition: true, scopeLine: 18, flags: DIFlagPrototyped, isOptimized: false, unit: !0)\n\
!9 = !DILocalVariable(name: \"xy\", scope: !4, file: !1, line: 4, type: !7)\n\
!10 = !DIExpression(DW_OP_LLVM_fragment, 0, 32)\n";
        assert_eq!(upgrade_debug_info(text), want);
        let plain = "define void @main() {\n  ret void\n}\n";
        assert_eq!(upgrade_debug_info(plain), plain);
    }
}
