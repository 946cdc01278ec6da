//! The execution cases a second time through DXIL: hlslc writes the DXIL container (`-Fo`,
//! without `-spirv`), dxil-spirv (the converter vkd3d-proton uses, a test tool built into
//! `target/`) turns it into SPIR-V, and that runs with the same buffers and expectations.
//!
//! dxil-spirv binds a resource at (register space, register index) of its class. The cases bind
//! their buffers with `[[vk::binding]]`, which DXIL ignores; so the SPIR-V from dxil-spirv (with
//! `--use-reflection-names`, its variables carry the resource names) is re-bound by name to the
//! (set, binding) the resource has in hlslc's own SPIR-V of the same case.

use super::Outcome;
use crate::process::{self, Exit, Spawn};
use crate::{tools, Hlslc};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

const OP_NAME: u32 = 5;
const OP_DECORATE: u32 = 71;
const OP_VARIABLE: u32 = 59;
const DECORATION_BINDING: u32 = 33;
const DECORATION_SET: u32 = 34;

/// A literal string operand (NUL-terminated, packed in words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Instructions of a SPIR-V module: (opcode, operand words).
fn instructions(words: &[u32]) -> Vec<(u32, usize, usize)> {
    let mut v = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xFFFF);
        if count == 0 || at + count > words.len() {
            break;
        }
        v.push((op, at + 1, at + count));
        at += count;
    }
    v
}

/// Resource variables by name: for each variable of that name, its (set, binding) and the word
/// positions of the two decorations' literals. dxil-spirv declares one variable per element type
/// a buffer is accessed with (`Mat` as an array of `vec4` and of `vec2`), all with the buffer's
/// name.
fn bindings(words: &[u32]) -> HashMap<String, Vec<((u32, u32), (usize, usize))>> {
    let insts = instructions(words);
    let mut names = HashMap::new();
    let mut vars = Vec::new();
    let mut set = HashMap::new();
    let mut binding = HashMap::new();
    for &(op, a, b) in &insts {
        match op {
            OP_NAME if b > a + 1 => {
                names.insert(words[a], string(&words[a + 1..b]));
            }
            OP_VARIABLE if b > a + 1 => {
                vars.push(words[a + 1]);
            }
            OP_DECORATE if b == a + 3 && words[a + 1] == DECORATION_SET => {
                set.insert(words[a], (words[a + 2], a + 2));
            }
            OP_DECORATE if b == a + 3 && words[a + 1] == DECORATION_BINDING => {
                binding.insert(words[a], (words[a + 2], a + 2));
            }
            _ => {}
        }
    }
    let mut out: HashMap<String, Vec<_>> = HashMap::new();
    for id in vars {
        if let (Some(name), Some(&(s, sa)), Some(&(b, ba))) = (names.get(&id), set.get(&id), binding.get(&id)) {
            out.entry(name.clone()).or_default().push(((s, b), (sa, ba)));
        }
    }
    out
}

/// Re-binds the resource variables of `converted` to the (set, binding) the same names have in
/// `reference`.
pub fn rebind(converted: &mut [u32], reference: &[u32]) -> Result<(), String> {
    let want = bindings(reference);
    for (name, vars) in bindings(converted) {
        // dxil-spirv names the counter of UAV `X` `XCounter`; hlslc's SPIR-V (as dxc's) names it
        // `counter.var.X`.
        let counter = name.strip_suffix("Counter").map(|r| format!("counter.var.{r}"));
        let Some(&((s, b), _)) = want.get(&name).or_else(|| counter.and_then(|c| want.get(&c))).and_then(|v| v.first()) else {
            return Err(format!("resource '{name}' of the DXIL path has no binding in hlslc's SPIR-V"));
        };
        for (_, (sa, ba)) in vars {
            converted[sa] = s;
            converted[ba] = b;
        }
    }
    Ok(())
}

/// The case's shader through DXIL and dxil-spirv, bound like `reference` (hlslc's SPIR-V).
pub fn shader(spec_path: &Path, spec: &super::spec::Spec, hlslc: &Hlslc, tmp: &Path, reference: &[u32]) -> Result<Vec<u32>, Outcome> {
    let args = &spec.args;
    let Some(converter) = tools::dxil_spirv() else {
        return Err(Outcome::Skipped("dxil-spirv not found (build it with .ci/run)".into()));
    };
    let hlsl = spec_path.with_extension("hlsl");
    let container = tmp.join("shader.dxil");
    let out = tmp.join("shader.dxil.spv");
    let limit = Some(Duration::from_secs(60));
    let mut a: Vec<String> = ["-T", "cs_6_0", "-E", "main"].iter().map(|s| s.to_string()).collect();
    a.extend(args.iter().cloned());
    a.extend([hlsl.to_string_lossy().into_owned(), "-Fo".into(), container.to_string_lossy().into_owned()]);
    let r = process::run(&Spawn { program: &hlslc.program, args: &a, env: &hlslc.env, timeout: limit, ..Default::default() });
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    // The DXIL back end refuses what it lacks with [E0400] ("... not supported by the DXIL back end
    // yet", or an op overload the DXIL version lacks).
    let missing = |l: &str| l.contains(super::NOT_IMPLEMENTED) || l.contains("[E0400]");
    if r.exit == Exit::Code(1) && stderr.lines().any(missing) {
        let line = stderr.lines().find(|l| missing(l)).unwrap_or("").trim().to_string();
        return Err(Outcome::Pending(format!("hlslc cannot compile this to DXIL yet: {line}")));
    }
    if !r.exit.success() {
        return Err(Outcome::Fail(format!("hlslc (DXIL) {}:\n{stderr}", r.exit)));
    }
    let mut c = vec![
        container.to_string_lossy().into_owned(),
        "--ssbo-uav".into(),
        "--ssbo-srv".into(),
        // UAV counters as storage buffers (as in hlslc's SPIR-V), not texel buffers.
        "--uav-counter-force-ssbo".into(),
        "--use-reflection-names".into(),
        "--output".into(),
        out.to_string_lossy().into_owned(),
    ];
    // The push constants of the SPIR-V path are root constants in Direct3D 12: the CBV the spec
    // names reads them (from word 0, all the words the DXIL path pushes).
    if let Some((space, register)) = spec.dxil_root_constants {
        let words = spec.for_dxil().push.len();
        c.extend(["--root-constant".into(), space.to_string(), register.to_string(), "0".into(), words.to_string()]);
    }
    let r = process::run(&Spawn { program: &converter, args: &c, timeout: limit, merge_stderr: true, ..Default::default() });
    if !r.exit.success() || !out.is_file() {
        return Err(Outcome::Fail(format!("dxil-spirv {}:\n{}", r.exit, String::from_utf8_lossy(&r.stdout))));
    }
    if let Some(val) = tools::spirv_tool("spirv-val") {
        let v = process::run(&Spawn {
            program: &val,
            // dxil-spirv relies on scalar block layout (as vkd3d-proton, which requires it): a
            // structured buffer of stride 12 becomes an array of 3-vectors.
            args: &["--target-env".into(), "vulkan1.1".into(), "--scalar-block-layout".into(), out.to_string_lossy().into_owned()],
            timeout: limit,
            ..Default::default()
        });
        if !v.exit.success() {
            return Err(Outcome::Fail(format!("spirv-val on dxil-spirv's output: {}{}", String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&v.stderr))));
        }
    }
    let bytes = std::fs::read(&out).map_err(|e| Outcome::Fail(format!("cannot read {}: {e}", out.display())))?;
    let mut words = super::words(&bytes).map_err(Outcome::Fail)?;
    rebind(&mut words, reference).map_err(Outcome::Fail)?;
    Ok(words)
}

/// Runs one `.hlsl` case through DXIL on `gpu` (`None`: convert only).
pub fn run_case(spec_path: &Path, hlslc: &Hlslc, gpu: Option<&super::vulkan::Gpu>) -> Outcome {
    if !super::is_hlsl(spec_path) {
        return Outcome::Skipped("hand-written SPIR-V".into());
    }
    let tmp = crate::TempDir::new("exec-dxil");
    // The reference bindings come from the unoptimized SPIR-V, which declares every resource.
    let (spec, reference) = match super::prepare(spec_path, hlslc, tmp.path(), "-O0") {
        Ok(p) => p,
        Err(o) => return o,
    };
    if let Some(why) = &spec.dxil_not_applicable {
        return Outcome::NotApplicable(why.clone());
    }
    let code = match shader(spec_path, &spec, hlslc, tmp.path(), &reference) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let Some(gpu) = gpu else { return Outcome::Skipped("no Vulkan device".into()) };
    super::execute(&spec.for_dxil(), &code, gpu)
}
