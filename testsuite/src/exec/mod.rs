//! Execution tests: a compute shader runs on a Vulkan device and its buffers are compared with
//! values computed independently of hlslc (by hand, or by `exec/expected.py`).
//!
//! A case is `exec/<name>.spec` ([`spec`] describes the format) plus its shader, `<name>.hlsl`
//! (compiled by the hlslc under test) or `<name>.spvasm` (assembled by `spirv-as`: such cases
//! test the harness itself). While hlslc answers an `.hlsl` case with its "not implemented yet"
//! error, the case is [`Outcome::Pending`]; any other failure to compile is a failure.

pub mod device;
pub mod dxil;
pub mod mutate;
pub mod spec;
pub mod vulkan;

use crate::process::{self, Exit, Spawn};
use crate::{tools, Hlslc};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What hlslc prints while a feature is missing.
pub const NOT_IMPLEMENTED: &str = "not implemented yet";

/// How a case went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
    /// hlslc cannot compile this yet (it said "not implemented yet").
    Pending(String),
    /// A tool is missing (`spirv-as`).
    Skipped(String),
    /// The case has no meaning on this path (its spec's `dxil not-applicable` line says why).
    NotApplicable(String),
}

/// The `.spec` files under `dir`, sorted.
pub fn discover(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "spec")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Little-endian bytes as SPIR-V words.
pub fn words(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if !bytes.len().is_multiple_of(4) || bytes.len() < 20 {
        return Err(format!("not a SPIR-V binary ({} bytes)", bytes.len()));
    }
    let w: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    if w[0] != 0x0723_0203 {
        return Err(format!("bad SPIR-V magic {:#010x}", w[0]));
    }
    Ok(w)
}

/// The case's SPIR-V: from its `.spvasm` or its `.hlsl`.
pub fn shader(spec_path: &Path, args: &[String], hlslc: &Hlslc, tmp: &Path) -> Result<Vec<u32>, Outcome> {
    let out = tmp.join("shader.spv");
    let out_s = out.to_string_lossy().into_owned();
    let asm = spec_path.with_extension("spvasm");
    let hlsl = spec_path.with_extension("hlsl");
    let fail = |m: String| Outcome::Fail(m);
    let limit = Some(Duration::from_secs(60));
    if asm.is_file() {
        let Some(spirv_as) = tools::spirv_tool("spirv-as") else { return Err(Outcome::Skipped("spirv-as not found".into())) };
        let a = vec!["--target-env".into(), "vulkan1.0".into(), asm.to_string_lossy().into_owned(), "-o".into(), out_s];
        let r = process::run(&Spawn { program: &spirv_as, args: &a, timeout: limit, ..Default::default() });
        if !r.exit.success() {
            return Err(fail(format!("spirv-as {}: {}", r.exit, String::from_utf8_lossy(&r.stderr))));
        }
    } else if hlsl.is_file() {
        let mut a: Vec<String> = ["-spirv", "-T", "cs_6_0", "-E", "main"].iter().map(|s| s.to_string()).collect();
        a.extend(args.iter().cloned());
        a.extend([hlsl.to_string_lossy().into_owned(), "-Fo".into(), out_s]);
        let r = process::run(&Spawn { program: &hlslc.program, args: &a, env: &hlslc.env, timeout: limit, ..Default::default() });
        let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
        if r.exit == Exit::Code(1) && stderr.contains(NOT_IMPLEMENTED) {
            let line = stderr.lines().find(|l| l.contains(NOT_IMPLEMENTED)).unwrap_or("").trim().to_string();
            return Err(Outcome::Pending(format!("hlslc cannot compile this yet: {line}")));
        }
        if !r.exit.success() {
            return Err(fail(format!("hlslc {}:\n{stderr}", r.exit)));
        }
        // What hlslc emits must also be valid SPIR-V (with DXC's validator options: its default
        // buffer layouts are "vector-relaxed").
        if let Some(val) = tools::spirv_tool("spirv-val") {
            let v = process::run(&Spawn {
                program: &val,
                args: &[crate::conformance::validate::spirv_val_options(args), vec![out.to_string_lossy().into_owned()]].concat(),
                timeout: limit,
                ..Default::default()
            });
            if !v.exit.success() {
                return Err(fail(format!("spirv-val: {}{}", String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&v.stderr))));
            }
        }
    } else {
        return Err(fail("no .hlsl or .spvasm beside the spec".into()));
    }
    let bytes = std::fs::read(&out).map_err(|e| fail(format!("cannot read {}: {e}", out.display())))?;
    words(&bytes).map_err(fail)
}

/// The optimization levels every HLSL case runs at: the emitter's output as it is, and after the
/// optimizer (hlslc's default).
pub const OPT_LEVELS: [&str; 2] = ["-O0", "-O3"];

/// Reads a case and compiles (or assembles) its shader; `opt` (such as `-O3`) follows the
/// spec's own arguments.
pub fn prepare(spec_path: &Path, hlslc: &Hlslc, tmp: &Path, opt: &str) -> Result<(spec::Spec, Vec<u32>), Outcome> {
    let text = std::fs::read_to_string(spec_path).map_err(|e| Outcome::Fail(format!("cannot read: {e}")))?;
    let spec = spec::parse(&text).map_err(|e| Outcome::Fail(format!("bad spec: {e}")))?;
    let mut args = spec.args.clone();
    args.push(opt.to_string());
    let code = shader(spec_path, &args, hlslc, tmp)?;
    Ok((spec, code))
}

/// Runs a prepared case and compares the buffers.
pub fn execute(spec: &spec::Spec, code: &[u32], gpu: &vulkan::Gpu) -> Outcome {
    let addresses = spec
        .addresses
        .iter()
        .filter_map(|&(word, set, binding)| Some((word, spec.buffers.iter().position(|b| (b.set, b.binding) == (set, binding))?)))
        .collect();
    let extras = vulkan::Extras { push: spec.push.clone(), specialize: spec.specialize.clone(), addresses };
    let contents = match gpu.dispatch_ext(code, &spec.buffers, spec.dispatch, &extras) {
        Ok(c) => c,
        Err(e) => return Outcome::Fail(e),
    };
    let mut problems = Vec::new();
    for e in &spec.expects {
        let Some(i) = spec.buffers.iter().position(|b| (b.set, b.binding) == (e.set, e.binding)) else { continue };
        if let Err(m) = spec::check(e, &contents[i]) {
            problems.push(m);
        }
    }
    if problems.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(problems.join("\n"))
    }
}

/// Whether a case's shader is compiled by hlslc (not hand-written SPIR-V).
pub fn is_hlsl(spec_path: &Path) -> bool {
    spec_path.with_extension("hlsl").is_file() && !spec_path.with_extension("spvasm").is_file()
}

/// Runs one case on `gpu` (`None`: compile only; the result is then `Skipped` unless compiling
/// failed or is pending), compiled at `opt` (one of [`OPT_LEVELS`]). With `HLSLC_EXEC_MUTATE`
/// set ([`mutate`]), HLSL cases run a mutant.
pub fn run_case(spec_path: &Path, hlslc: &Hlslc, gpu: Option<&vulkan::Gpu>, opt: &str) -> Outcome {
    let tmp = crate::TempDir::new("exec");
    let (spec, mut code) = match prepare(spec_path, hlslc, tmp.path(), opt) {
        Ok(p) => p,
        Err(o) => return o,
    };
    if let Some(req) = std::env::var_os("HLSLC_EXEC_MUTATE").filter(|_| is_hlsl(spec_path)) {
        let (opcode, n) = match mutate::parse_request(&req.to_string_lossy()) {
            Ok(r) => r,
            Err(e) => return Outcome::Fail(e),
        };
        if let Some(m) = mutate::pick(&code, opcode, n).and_then(|site| mutate::apply(&code, site)) {
            code = m;
        }
    }
    let Some(gpu) = gpu else { return Outcome::Skipped("no Vulkan device".into()) };
    execute(&spec, &code, gpu)
}
