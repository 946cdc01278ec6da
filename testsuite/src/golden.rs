//! Golden tests: `golden/<area>.<feature>.<variant>.hlsl`, whose first line is
//! `// RUN: <hlslc arguments>` (the file itself is appended), and the expected outputs beside it:
//!
//! | file      | holds                                                                   |
//! |-----------|-------------------------------------------------------------------------|
//! | `.i`      | standard output of `-P`                                                 |
//! | `.ast`    | standard output of `-ast-dump`                                          |
//! | `.spvasm` | `spirv-dis` of the SPIR-V binary (`-spirv`; written with `-Fo`)          |
//! | `.ll`     | standard output of a DXIL compile (parsed by `llvm-as-14` when present)  |
//! | `.diag`   | standard error (rendered diagnostics); the file is run from its folder by |
//! |           | its bare name, so paths in diagnostics are stable                       |
//!
//! A stream without an expectation file must be empty. hlslc must exit with 0 unless the
//! `.diag` holds an `error:`, and must never crash. Every SPIR-V binary goes through `spirv-val
//! --target-env <env>` (`-fspv-target-env`, default `vulkan1.0`). With `bless`, the expectation
//! files are rewritten from the current output (and removed for empty streams).

use crate::process::{self, Exit, Spawn};
use crate::{tools, Hlslc};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The result of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseResult {
    Pass,
    /// Expectations rewritten.
    Blessed,
    /// Did not match; the message is a readable report with diffs.
    Fail(String),
    /// Could not be checked here (a missing tool).
    Skipped(String),
}

/// The `.hlsl` cases under `dir`, sorted.
pub fn discover(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "hlsl")).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// The arguments of a case's first line, split like a shell would (quotes allowed).
pub fn case_args(text: &str) -> Result<Vec<String>, String> {
    let first = text.lines().next().unwrap_or("");
    let rest = first.trim_start().strip_prefix("//").map(str::trim_start).and_then(|l| l.strip_prefix("RUN:"));
    let Some(rest) = rest else { return Err("the first line must be '// RUN: <hlslc arguments>'".into()) };
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in rest.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, ' ' | '\t') => {
                if in_word {
                    args.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err("unterminated quote in the RUN line".into());
    }
    if in_word {
        args.push(cur);
    }
    Ok(args)
}

/// Which expectation file holds standard output, from the arguments.
fn stdout_kind(args: &[String]) -> &'static str {
    let has = |o: &str| args.iter().any(|a| a == &format!("-{o}") || a == &format!("/{o}"));
    if has("P") {
        "i"
    } else if args.iter().any(|a| a.starts_with("-ast-dump")) {
        "ast"
    } else if has("spirv") {
        "spvasm"
    } else {
        "ll"
    }
}

/// `-fspv-target-env=X` as spirv-val spells it.
pub fn target_env(args: &[String]) -> String {
    let env = args.iter().rev().find_map(|a| a.strip_prefix("-fspv-target-env=")).unwrap_or("vulkan1.0");
    env.replace("spirv", "spv")
}

/// Runs one case. `hlslc` is the compiler under test.
pub fn run_case(case: &Path, hlslc: &Hlslc, bless: bool) -> CaseResult {
    let text = match std::fs::read_to_string(case) {
        Ok(t) => t,
        Err(e) => return CaseResult::Fail(format!("cannot read: {e}")),
    };
    let mut args = match case_args(&text) {
        Ok(a) => a,
        Err(e) => return CaseResult::Fail(e),
    };
    let dir = case.parent().unwrap_or(Path::new("."));
    let Some(file_name) = case.file_name().map(|f| f.to_string_lossy().into_owned()) else {
        return CaseResult::Fail("no file name".into());
    };
    let kind = stdout_kind(&args);
    let tmp = crate::TempDir::new("golden");
    let spv = tmp.path().join("out.spv");
    if kind == "spvasm" {
        if tools::spirv_tool("spirv-dis").is_none() || tools::spirv_tool("spirv-val").is_none() {
            return CaseResult::Skipped("spirv-dis/spirv-val not found".into());
        }
        args.push("-Fo".into());
        args.push(spv.to_string_lossy().into_owned());
    }
    args.push(file_name);
    let out = process::run(&Spawn {
        program: &hlslc.program,
        args: &args,
        cwd: Some(dir),
        env: &hlslc.env,
        stdin: None,
        merge_stderr: false,
        timeout: Some(Duration::from_secs(60)),
    });
    if !matches!(out.exit, Exit::Code(0) | Exit::Code(1)) {
        return CaseResult::Fail(format!("hlslc {}\n{}", out.exit, String::from_utf8_lossy(&out.stderr)));
    }
    let dir_text = format!("{}/", dir.display());
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&dir_text, "");
    let mut stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut problems = Vec::new();
    if kind == "spvasm" && out.exit == Exit::Code(0) {
        match spirv_text(&spv, &target_env(&args)) {
            Ok(t) => stdout = t,
            Err(e) => problems.push(e),
        }
    }
    if kind == "ll" && out.exit == Exit::Code(0) {
        if let Err(e) = tools::llvm_as_check(&stdout) {
            problems.push(format!("llvm-as rejects the DXIL text:\n{e}"));
        }
    }
    let has_error = stderr.lines().any(|l| l.contains("error:"));
    if has_error != (out.exit != Exit::Code(0)) {
        problems.push(format!("hlslc exited with {} but its diagnostics {} an error", out.exit, if has_error { "hold" } else { "do not hold" }));
    }
    let expectations = [(kind, stdout), ("diag", stderr)];
    if bless {
        for (ext, actual) in &expectations {
            let path = case.with_extension(ext);
            let r = if actual.is_empty() { std::fs::remove_file(&path).or(Ok(())) } else { std::fs::write(&path, actual) };
            if let Err(e) = r {
                problems.push(format!("cannot write {}: {e}", path.display()));
            }
        }
        return if problems.is_empty() { CaseResult::Blessed } else { CaseResult::Fail(problems.join("\n")) };
    }
    for (ext, actual) in &expectations {
        let path = case.with_extension(ext);
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if &expected != actual {
            let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            problems.push(format!("{name} differs (- expected, + actual):\n{}", diff(&expected, actual)));
        }
    }
    if problems.is_empty() {
        CaseResult::Pass
    } else {
        CaseResult::Fail(problems.join("\n"))
    }
}

/// Validates and disassembles a SPIR-V binary.
fn spirv_text(spv: &Path, env: &str) -> Result<String, String> {
    let val = tools::spirv_tool("spirv-val").ok_or("spirv-val not found")?;
    let dis = tools::spirv_tool("spirv-dis").ok_or("spirv-dis not found")?;
    let spv_s = spv.to_string_lossy().into_owned();
    let v = process::run(&Spawn {
        program: &val,
        args: &["--target-env".into(), env.into(), spv_s.clone()],
        timeout: Some(Duration::from_secs(60)),
        ..Default::default()
    });
    if !v.exit.success() {
        return Err(format!(
            "spirv-val --target-env {env} failed ({}):\n{}{}",
            v.exit,
            String::from_utf8_lossy(&v.stdout),
            String::from_utf8_lossy(&v.stderr)
        ));
    }
    let d = process::run(&Spawn {
        program: &dis,
        args: &["--no-color".into(), spv_s],
        timeout: Some(Duration::from_secs(60)),
        ..Default::default()
    });
    if !d.exit.success() {
        return Err(format!("spirv-dis failed: {}", String::from_utf8_lossy(&d.stderr)));
    }
    Ok(String::from_utf8_lossy(&d.stdout).into_owned())
}

/// A line diff (longest common subsequence), with `-`/`+` marks and two lines of context.
pub fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    if a.len() * b.len() > 4_000_000 {
        let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        return format!("first difference at line {}\n- {}\n+ {}\n", first + 1, a.get(first).unwrap_or(&""), b.get(first).unwrap_or(&""));
    }
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut lines: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            lines.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            lines.push(('-', a[i]));
            i += 1;
        } else {
            lines.push(('+', b[j]));
            j += 1;
        }
    }
    let near = |k: usize| lines[k.saturating_sub(2)..(k + 3).min(lines.len())].iter().any(|(m, _)| *m != ' ');
    let mut out = String::new();
    let mut skipped = false;
    for (k, (mark, text)) in lines.iter().enumerate() {
        if near(k) {
            if skipped {
                out.push_str("  ...\n");
                skipped = false;
            }
            out.push_str(&format!("{mark} {text}\n"));
        } else {
            skipped = true;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the files differ in their final newline)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_run_line() {
        assert_eq!(case_args("// RUN: -T ps_6_0 -D 'A=1 2' -P\nx").unwrap(), ["-T", "ps_6_0", "-D", "A=1 2", "-P"]);
        assert!(case_args("float x;\n").is_err());
        assert_eq!(stdout_kind(&["-spirv".into()]), "spvasm");
        assert_eq!(target_env(&["-fspv-target-env=vulkan1.1spirv1.4".into()]), "vulkan1.1spv1.4");
        assert_eq!(target_env(&[]), "vulkan1.0");
    }

    #[test]
    fn diff_marks_changes_with_context() {
        let d = diff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n");
        assert_eq!(d, "  ...\n  b\n  c\n- d\n+ D\n  e\n  f\n");
        assert!(diff("x", "x\n").contains("final newline"));
    }
}
