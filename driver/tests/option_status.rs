//! Walks the option status table (`driver/src/cli/status.rs`):
//! - every option marked implemented has at least one case here that runs `hlslc` without and
//!   with it and finds, in the output with it, text that the output without it lacks (or, for an
//!   expectation written `!text`, the other way round): the case fails if the option were
//!   dropped;
//! - every refused option makes `hlslc` exit 1 with `option '-X' is not supported: ...`, and a
//!   SPIR-V-only option does so when generating DXIL;
//! - an option with no effect by design is accepted.
//!
//! Every SPIR-V module a case produces also goes through `spirv-val` (skipped with a message when
//! it is not installed).

mod common;
use common::*;
use hlslc::cli::status::{status, status_key, Status};
use hlslc::cli::table::{Kind, OptSpec, OPTIONS};
use hlslc::cli::HLSL2SPIRV_OPTIONS;
use std::process::Command;

/// A vertex shader reading its vertex and instance ids, with inputs declared out of
/// alphabetical order.
const IDS: &str = r#"
float4 main(float4 b : B, float4 a : A, uint v : SV_VertexID, uint i : SV_InstanceID) : SV_Position {
    return a + b + float(v) + float(i);
}
"#;
const VS_ARGS: &[&str] = &["-T", "vs_6_0", "-spirv", "{in}"];

/// A pixel shader with an unused texture and an unused input, which the optimizer removes.
const UNUSED: &str = r#"
Texture2D<float4> unused_tex : register(t3);
Texture2D<float4> used_tex : register(t4);
float4 main(float4 u : UNUSED, float2 uv : UV) : SV_Target { return used_tex.Load(int3(uv, 0)); }
"#;

/// A pixel shader with resources of every register class, a cbuffer matrix, `$Globals`, an
/// array of textures and a second entry point.
const PS: &str = r#"
Texture2D<float4> tex : register(t1);
SamplerState samp : register(s2);
cbuffer CB : register(b3) { float4 k; float4x4 M; };
RWBuffer<float4> rwb : register(u5);
Texture2D<float4> far : register(t0, space70);
RWTexture2D<float4> img;
Texture2D<float4> texs[4];
Texture2D<float4> after;
float4 g;
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 c = tex.Sample(samp, uv) * k + g + img[uint2(0, 0)] + rwb[0] + far.Sample(samp, uv);
    c += texs[1].Sample(samp, uv) + after.Sample(samp, uv);
    return mul(M, c) + min(c, pos);
}
float4 alt() : SV_Target { return 1; }
"#;

/// Every resource with a `register()` and no `$Globals`, for `-fvk-bind-register`.
const REG: &str = r#"
Texture2D<float4> tex : register(t1);
SamplerState samp : register(s2, space1);
float4 main(float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(samp, uv); }
"#;

const HEAP: &str = r#"
float4 main(uint i : IDX) : SV_Target {
    Texture2D<float4> t = ResourceDescriptorHeap[i];
    SamplerState s = SamplerDescriptorHeap[i];
    RWStructuredBuffer<uint> b = ResourceDescriptorHeap[i + 1];
    b.IncrementCounter();
    return t.Sample(s, float2(0, 0));
}
"#;

/// A library: a compute shader using an unbound buffer, and a function that is not a shader.
const LIB: &str = r#"
RWBuffer<float> buf;
float helper() { return 2; }
[shader("compute")] [numthreads(1, 1, 1)] void main() { buf[0] = helper(); }
"#;

/// A branch on a constant whose arms set two locals (dxc's spirv.opt.cl.oconfig.hlsl).
const IFS: &str = r#"
float4 main() : SV_Position {
    float j = 0;
    float i = 0;
    bool cond = true;
    if (cond) { i = 1; j = 2; } else { i = 10; j = 20; }
    return float4(i, j, i, j);
}
"#;

/// A globally coherent buffer read and another written (dxc's decoration.coherent.hlsl).
const COHERENT: &str = r#"
globallycoherent RWByteAddressBuffer buffer1;
globallycoherent RWStructuredBuffer<uint> buffer2;
RWStructuredBuffer<uint> buffer3;
float4 main() : SV_Target { buffer2[0] = buffer1.Load(0) + buffer3[1]; return buffer2[2]; }
"#;

/// An `inout` argument that is an element of a buffer, for a function kept apart (dxc's
/// fn.fixfuncall-compute.hlsl).
const FIXCALL: &str = r#"
RWStructuredBuffer<float4> output : register(u1);
[noinline] void bump(inout float f) { f += 1; }
[numthreads(1, 1, 1)] void main() { bump(output[0].x); }
"#;

const VS: &str = "float4 main(float4 p : POSITION) : SV_Position { return p; }\n";

const LAYOUT: &str = r#"
cbuffer C1 { float a1; float3 b1; };
cbuffer C2 { float a2; float2 b2; };
cbuffer C3 { float arr[2]; float after_arr; };
float4 main() : SV_Target { return float4(b1, a1) + float4(b2, a2, 0) + arr[1] + after_arr; }
"#;

const HALF: &str = "cbuffer C { half h; };\nfloat4 main() : SV_Target { return h; }\n";

/// Preprocessor input (with `-P`): a macro, the version macros, an include.
const PP: &str = "#define FOO expanded_foo\nFOO __HLSL_VERSION\n#ifdef WITH_INC\n#include \"inc.h\"\n#endif\n#ifdef VAL\nval_is VAL\n#endif\n";

/// A shader that includes `inc_decl.h` (from `sub/`).
const INC: &str = "#include \"inc_decl.h\"\nfloat4 main(float4 a : A) : SV_Target { return a * SCALE; }\n";

const DXIL: &str = "float4 main(float4 a : A) : SV_Target { float4 x = a * 2; float4 y = a * 2; return x + y; }\n";

/// A warning (implicit vector truncation).
const WARN: &str = "float4 main(float4 a : A) : SV_Target { float2 t = a; return t.xyxy; }\n";

const BAD: &str = "#line 100 \"elsewhere.hlsl\"\nfloat4 main() : SV_Target { return undefined_x; }\n";

#[derive(Copy, Clone, PartialEq)]
enum Chan {
    /// stdout, stderr and the exit code together.
    All,
    /// The file `{out}`.
    File,
    /// This file of the test's folder.
    Named(&'static str),
}

struct Case {
    opt: &'static str,
    src: &'static str,
    base: Vec<&'static str>,
    with: Vec<&'static str>,
    chan: Chan,
    /// Text found with the option and not without it; `!text` the other way round.
    expect: &'static str,
    hlsl2spirv: bool,
}

const SPV: &[&str] = &["-T", "ps_6_0", "-spirv", "{in}"];

fn case(opt: &'static str, src: &'static str, base: &[&'static str], with: &[&'static str], expect: &'static str) -> Case {
    Case { opt, src, base: base.to_vec(), with: with.to_vec(), chan: Chan::All, expect, hlsl2spirv: false }
}
fn spv(opt: &'static str, src: &'static str, with: &[&'static str], expect: &'static str) -> Case {
    case(opt, src, SPV, with, expect)
}
fn file(mut c: Case) -> Case {
    c.chan = Chan::File;
    c
}

fn cases() -> Vec<Case> {
    let dxil: &[&str] = &["-T", "ps_6_0", "{in}"];
    let pp: &[&str] = &["-P", "{in}"];
    vec![
        case("help", PS, &[], &["-help"], "SPIR-V code generation options"),
        case("version", PS, &[], &["-version"], "compatible with dxc"),
        case("T", PS, &["-spirv", "{in}"], &["-T", "ps_6_0"], "OpEntryPoint Fragment"),
        spv("E", PS, &["-E", "alt"], "OpEntryPoint Fragment %alt"),
        case("D", PP, pp, &["-D", "VAL=42"], "val_is 42"),
        case("I", PP, &["-P", "{in}", "-D", "WITH_INC"], &["-I", "{dir}/sub"], "from_the_include"),
        case("HV", PP, pp, &["-HV", "2018"], "expanded_foo 2018"),
        case("Gec", PP, pp, &["-Gec"], "expanded_foo 2016"),
        spv("enable-16bit-types", HALF, &["-enable-16bit-types", "-T", "ps_6_2"], "OpTypeFloat 16"),
        case("spirv", PS, &["-T", "ps_6_0", "{in}"], &["-spirv"], "OpCapability Shader"),
        case("P", PP, &["-T", "ps_6_0", "{in}"], &["-P"], "expanded_foo"),
        // The included file is a dependency; -MF and -MD write the rule after compiling.
        case("M", INC, &["-T", "ps_6_0", "-I", "{dir}/sub", "{in}"], &["-M"], "in.hlsl: "),
        file(case("MF", INC, &["-T", "ps_6_0", "-I", "{dir}/sub", "{in}"], &["-MF", "{out}"], "sub/inc_decl.h")),
        Case { chan: Chan::Named("in.d"), ..case("MD", INC, &["-T", "ps_6_0", "-I", "{dir}/sub", "{in}"], &["-MD"], "sub/inc_decl.h") },
        file(case("Fi", PP, pp, &["-Fi", "{out}"], "expanded_foo")),
        spv("fsyntax-only", PS, &["-fsyntax-only"], "!OpCapability"),
        spv("ast-dump", PS, &["-ast-dump"], "Function main"),
        spv("ast-dump-implicit", PS, &["-ast-dump-implicit"], "Struct RayDesc"),
        spv("ast-dump-parse", PS, &["-ast-dump-parse"], "FuncDecl float4 main : SV_Target"),
        spv("verify", WARN, &["-verify"], "expected"),
        file(spv("Fo", PS, &["-Fo", "{out}"], "binary:03022307")),
        file(spv("Fc", PS, &["-Fc", "{out}"], "OpCapability Shader")),
        file(spv("Fh", PS, &["-Fh", "{out}"], "const unsigned char g_main[]")),
        file(case("Vn", PS, &["-T", "ps_6_0", "-spirv", "{in}", "-Fh", "{out}"], &["-Vn", "my_var"], "my_var[]")),
        file(spv("Fe", BAD, &["-Fe", "{out}"], "undefined_x")),
        spv("Zi", PS, &["-Zi"], "OpSource HLSL 600"),
        spv("Zi", PS, &["-Zi"], "OpLine"),
        case("Zi", PS, dxil, &["-Zi"], "llvm.dbg.cu = !{!0}"),
        case("Zi", PS, dxil, &["-Zi"], "= !DILocation(line: "),
        spv("fspv-debug=", PS, &["-fspv-debug=vulkan", "-O0"], "OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\""),
        spv("fspv-debug=", PS, &["-fspv-debug=vulkan-with-source", "-fcgl"], "DebugSource"),
        // The optimizer keeps it: the promoted locals are described by DebugValues.
        spv("fspv-debug=", PS, &["-fspv-debug=vulkan"], "DebugValue"),
        spv("fspv-debug=", PS, &["-fspv-debug=file"], "OpSource HLSL 600"),
        spv("fspv-debug=", PS, &["-fspv-debug=rich", "-O0"], "OpExtInstImport \"OpenCL.DebugInfo.100\""),
        spv("fspv-debug=", PS, &["-fspv-debug=line"], "OpLine"),
        spv("fspv-debug=", PS, &["-fspv-debug=tool", "-fspv-target-env=vulkan1.1"], "OpModuleProcessed"),
        spv("Zpr", PS, &["-Zpr"], "ColMajor"),
        case("Zpc", PS, &["-T", "ps_6_0", "-spirv", "{in}", "-Zpr"], &["-Zpc"], "RowMajor"),
        spv("WX", WARN, &["-WX"], "error"),
        spv("no-warnings", WARN, &["-no-warnings"], "!warning"),
        spv("w", WARN, &["-w"], "!warning"),
        spv("W", WARN, &["-Wno-conversion"], "!warning"),
        spv("auto-binding-space", PS, &["-auto-binding-space", "5"], "OpDecorate %img DescriptorSet 5"),
        // The record `!{id, symbol, name, space, lower bound, range}`: unbound (-1, -1) without it.
        case("auto-binding-space", LIB, &["-T", "lib_6_3", "{in}"], &["-auto-binding-space", "7"], "\"buf\", i32 7, i32 0, i32 1"),
        // `float helper()` kept as a definition, named as MSVC mangles it (`?foo@@YAMXZ` in dxc's tests).
        case("default-linkage", LIB, &["-T", "lib_6_3", "{in}"], &["-default-linkage", "external"], "define float @\"\\01?helper@@YAMXZ\"()"),
        spv("ignore-line-directives", BAD, &["-ignore-line-directives"], "!elsewhere.hlsl"),
        case("O0", DXIL, dxil, &["-O0"], ""),
        case("O1", DXIL, &["-T", "ps_6_0", "{in}", "-O0"], &["-O1"], ""),
        case("O2", DXIL, &["-T", "ps_6_0", "{in}", "-O0"], &["-O2"], ""),
        case("O3", DXIL, &["-T", "ps_6_0", "{in}", "-O0"], &["-O3"], ""),
        case("Od", DXIL, dxil, &["-Od"], ""),
        case("opt-disable", DXIL, dxil, &["-opt-disable", "gvn"], ""),
        spv("ffinite-math-only", PS, &["-ffinite-math-only"], "FMin"),
        case("fno-finite-math-only", PS, &["-T", "ps_6_0", "-spirv", "{in}", "-ffinite-math-only"], &["-fno-finite-math-only"], "NMin"),
        spv("fspv-target-env=", PS, &["-fspv-target-env=vulkan1.3"], "Version: 1.6"),
        spv(
            "fspv-extension=",
            HALF,
            &["-enable-16bit-types", "-T", "ps_6_2", "-fspv-extension=SPV_KHR_multiview"],
            "'SPV_KHR_16bit_storage' required but not permitted",
        ),
        // texs[4] takes bindings 6..9 (4 is free but 5 is taken); at -O3 it is split into one
        // variable per element, and only texs[1] is used.
        spv("fspv-flatten-resource-arrays", PS, &["-fspv-flatten-resource-arrays"], "OpDecorate %texs_1_ Binding 7"),
        spv("fspv-flatten-resource-arrays", PS, &["-fspv-flatten-resource-arrays"], "OpDecorate %after Binding 4"),
        spv("fspv-entrypoint-name=", PS, &["-fspv-entrypoint-name=renamed"], "\"renamed\""),
        spv("fspv-use-unknown-image-format", PS, &["-fspv-use-unknown-image-format"], " 2 Unknown"),
        spv("fspv-generator=", PS, &["-fspv-generator=dxc"], "Generator: Google spiregg; 0"),
        spv("fspv-enable-maximal-reconvergence", PS, &["-fspv-enable-maximal-reconvergence"], "MaximallyReconvergesKHR"),
        spv("fvk-b-shift", PS, &["-fvk-b-shift", "10", "0"], "OpDecorate %CB Binding 13"),
        spv("fvk-t-shift", PS, &["-fvk-t-shift", "10", "0"], "OpDecorate %tex Binding 11"),
        spv("fvk-t-shift", PS, &["-fvk-t-shift", "10", "all"], "OpDecorate %far Binding 10"),
        spv("fvk-t-shift", PS, &["-fvk-t-shift", "10", "all", "-fvk-t-shift", "20", "70"], "OpDecorate %far Binding 20"),
        spv("fvk-s-shift", PS, &["-fvk-s-shift", "10", "0"], "OpDecorate %samp Binding 12"),
        spv("fvk-u-shift", PS, &["-fvk-u-shift", "10", "0"], "OpDecorate %rwb Binding 15"),
        case("fvk-auto-shift-bindings", PS, &["-T", "ps_6_0", "-spirv", "{in}", "-fvk-u-shift", "100", "0"], &["-fvk-auto-shift-bindings"], "OpDecorate %img Binding 100"),
        spv("fvk-bind-register", REG, &["-fvk-bind-register", "t1", "0", "7", "2", "-fvk-bind-register", "s2", "1", "3", "4"], "OpDecorate %samp DescriptorSet 4"),
        spv("vkbr", REG, &["-vkbr", "t1", "0", "7", "2", "-vkbr", "s2", "1", "3", "4"], "OpDecorate %tex Binding 7"),
        spv("fvk-bind-globals", PS, &["-fvk-bind-globals", "20", "3"], "OpDecorate %_Globals Binding 20"),
        case("fvk-bind-resource-heap", HEAP, &["-T", "ps_6_6", "-spirv", "{in}"], &["-fvk-bind-resource-heap", "5", "6"], "DescriptorSet 6"),
        case("fvk-bind-sampler-heap", HEAP, &["-T", "ps_6_6", "-spirv", "{in}"], &["-fvk-bind-sampler-heap", "7", "8"], "DescriptorSet 8"),
        case("fvk-bind-counter-heap", HEAP, &["-T", "ps_6_6", "-spirv", "{in}"], &["-fvk-bind-counter-heap", "9", "10"], "DescriptorSet 10"),
        case("fvk-invert-y", VS, &["-T", "vs_6_0", "-spirv", "{in}"], &["-fvk-invert-y"], "OpFNegate"),
        case("fvk-support-nonzero-base-instance", IDS, VS_ARGS, &["-fvk-support-nonzero-base-instance"], "BuiltIn BaseInstance"),
        case("fvk-support-nonzero-base-instance", IDS, VS_ARGS, &["-fvk-support-nonzero-base-instance"], "OpISub"),
        case("fvk-support-nonzero-base-vertex", IDS, VS_ARGS, &["-fvk-support-nonzero-base-vertex"], "BuiltIn BaseVertex"),
        case("fvk-stage-io-order=", IDS, VS_ARGS, &["-fvk-stage-io-order=alpha"], "OpDecorate %in_var_A Location 0"),
        case("fvk-stage-io-order=", IDS, VS_ARGS, &["-fvk-stage-io-order=alpha"], "OpDecorate %in_var_B Location 1"),
        spv("fvk-use-dx-position-w", PS, &["-fvk-use-dx-position-w"], "OpFDiv"),
        spv("fvk-use-gl-layout", LAYOUT, &["-fvk-use-gl-layout"], "OpMemberDecorate %type_C1 1 Offset 16"),
        spv("fvk-use-dx-layout", LAYOUT, &["-fvk-use-dx-layout"], "OpMemberDecorate %type_C3 1 Offset 20"),
        spv("fvk-use-scalar-layout", LAYOUT, &["-fvk-use-scalar-layout"], "OpMemberDecorate %type_C3 1 Offset 8"),
        Case { hlsl2spirv: true, ..file(case("o", PS, &["-T", "ps_6_0", "{in}"], &["-o", "{out}"], "binary:03022307")) },
        spv("ftime-report", PS, &["-ftime-report"], "hlslc time report"),
        // -fcgl keeps DXIL at the high level (no GVN) and SPIR-V unoptimized.
        case("fcgl", DXIL, dxil, &["-fcgl"], ""),
        spv("fcgl", UNUSED, &["-fcgl"], "%unused_tex"),
        spv("O0", UNUSED, &["-O0"], "%unused_tex"),
        spv("fspv-preserve-bindings", UNUSED, &["-fspv-preserve-bindings"], "OpDecorate %unused_tex Binding 3"),
        spv("fspv-reflect", PS, &["-fspv-reflect"], "UserSemantic \"SV_Target\""),
        spv("fspv-preserve-interface", UNUSED, &["-fspv-preserve-interface"], "%in_var_UNUSED"),
        // The passes named replace -O3's recipe: the phis of the `if` become selects, and
        // nothing folds the constant condition away (dxc's spirv.opt.cl.oconfig.hlsl).
        case("Oconfig=", IFS, VS_ARGS, &["-Oconfig=--ssa-rewrite,--if-conversion,--eliminate-dead-code-aggressive"], "OpSelect %float %true %float_2 %float_20"),
        case("Oconfig=", IFS, VS_ARGS, &["-Oconfig=--test-unknown-flag"], "failed to optimize SPIR-V: Unknown flag '--test-unknown-flag'"),
        case("Oconfig=", IFS, VS_ARGS, &["-Oconfig=--loop-peeling"], "the spirv-opt pass '--loop-peeling' is not implemented"),
        case("Oconfig=", IFS, VS_ARGS, &["-O1", "-Oconfig=-O"], "-Oconfig should not be used together with -O"),
        case("Oconfig=", IFS, VS_ARGS, &["-Oconfig=-O", "-Oconfig=-Os"], "-Oconfig should not be specified more than once"),
        // globallycoherent: the decoration becomes per-access flags (dxc's decoration.coherent.hlsl).
        spv("fspv-use-vulkan-memory-model", COHERENT, &["-fspv-use-vulkan-memory-model"], "OpMemoryModel Logical Vulkan"),
        spv("fspv-use-vulkan-memory-model", COHERENT, &["-fspv-use-vulkan-memory-model"], "MakePointerVisible|NonPrivatePointer %uint_5"),
        spv("fspv-use-vulkan-memory-model", COHERENT, &["-fspv-use-vulkan-memory-model"], "MakePointerAvailable|NonPrivatePointer %uint_5"),
        spv("fspv-use-vulkan-memory-model", COHERENT, &["-fspv-use-vulkan-memory-model"], "!OpDecorate %buffer1 Coherent"),
        // The buffer element goes to the call as an access chain and is copied through an unnamed
        // function variable around it, instead of through `param.var.f`.
        case("fspv-fix-func-call-arguments", FIXCALL, &["-T", "cs_6_0", "-O0", "-spirv", "{in}"], &["-fspv-fix-func-call-arguments"], "!%param_var_f"),
        spv("fspv-print-all", UNUSED, &["-fspv-print-all"], "; IR before pass ssa-rewrite"),
        spv("fspv-print-all", UNUSED, &["-fspv-print-all"], "; IR after last pass"),
        spv("fspv-max-id", UNUSED, &["-fspv-max-id", "8"], "ID overflow: the module's id bound is"),
        case("validator-version", DXIL, dxil, &["-validator-version", "1.5"], "= !{i32 1, i32 5}"),
    ]
}

struct Run {
    all: String,
    file: String,
    /// spirv-val's complaint about the SPIR-V produced, if any.
    invalid: Option<String>,
}

fn run(c: &Case, extra: &[&str], dir: &TempDir) -> Run {
    let input = dir.path("in.hlsl");
    let out = dir.path("out.bin");
    let _ = std::fs::remove_file(&out);
    let subst = |a: &str| {
        a.replace("{in}", input.to_str().unwrap()).replace("{out}", out.to_str().unwrap()).replace("{dir}", dir.0.to_str().unwrap())
    };
    let args: Vec<String> = c.base.iter().chain(extra).map(|a| subst(a)).collect();
    let bin = if c.hlsl2spirv { env!("CARGO_BIN_EXE_hlsl2spirv") } else { env!("CARGO_BIN_EXE_hlslc") };
    let read = match c.chan {
        Chan::Named(name) => {
            let path = dir.path(name);
            let _ = std::fs::remove_file(&path);
            path
        }
        _ => out.clone(),
    };
    let o = Command::new(bin).args(&args).current_dir(&dir.0).output().expect("run hlslc");
    let file = match std::fs::read(&read) {
        Err(_) => "<no file>".to_string(),
        Ok(bytes) => match String::from_utf8(bytes.clone()) {
            Ok(s) if !s.contains('\0') => s,
            _ => format!("binary:{}", bytes.iter().take(4).map(|b| format!("{b:02x}")).collect::<String>()),
        },
    };
    let all = format!("exit {}\n{}\n{}", code(&o), stdout(&o), stderr(&o));
    let invalid = if stdout(&o).contains("OpCapability") { validate(&args, dir).err() } else { None };
    Run { all, file, invalid }
}

/// Compiles `args` again to a binary and runs `spirv-val` on it.
fn validate(args: &[String], dir: &TempDir) -> Result<(), String> {
    let spv = dir.path("val.spv");
    let mut a = args.to_vec();
    a.extend(["-Fo".to_string(), spv.to_str().unwrap().to_string()]);
    let o = Command::new(env!("CARGO_BIN_EXE_hlslc")).args(&a).output().expect("run hlslc");
    if code(&o) != 0 {
        return Err(format!("{a:?}: {}", stderr(&o)));
    }
    let env = a.iter().rev().find_map(|x| x.strip_prefix("-fspv-target-env=")).unwrap_or("vulkan1.0").to_string();
    let has = |x: &str| a.iter().any(|y| y == x);
    let mut v = vec!["--target-env".to_string(), env];
    if has("-fvk-use-scalar-layout") {
        v.push("--scalar-block-layout".into());
    } else if has("-fvk-use-dx-layout") {
        v.push("--skip-block-layout".into());
    } else if !has("-fvk-use-gl-layout") {
        v.push("--relax-block-layout".into());
    }
    v.push(spv.to_str().unwrap().to_string());
    match Command::new("spirv-val").args(&v).output() {
        // SPIRV-Tools before 2023.2 does not know MaximallyReconvergesKHR (6023).
        Ok(o) if stderr(&o).contains("Invalid execution mode operand: 6023") || stdout(&o).contains("operand: 6023") => {
            eprintln!("this spirv-val does not know MaximallyReconvergesKHR: {a:?} not validated");
            Ok(())
        }
        Ok(o) if !o.status.success() => Err(format!("spirv-val {v:?} for {a:?}: {}{}", stdout(&o), stderr(&o))),
        Ok(_) => Ok(()),
        Err(_) => {
            eprintln!("spirv-val not found: SPIR-V of {a:?} not validated");
            Ok(())
        }
    }
}

fn setup(src: &str) -> TempDir {
    let dir = TempDir::new("optstatus");
    dir.file("in.hlsl", src);
    std::fs::create_dir_all(dir.path("sub")).unwrap();
    dir.file("sub/inc.h", "from_the_include\n");
    dir.file("sub/inc_decl.h", "#define SCALE 2\n");
    dir
}

fn all_specs() -> impl Iterator<Item = &'static OptSpec> {
    OPTIONS.iter().chain(HLSL2SPIRV_OPTIONS)
}

/// Implemented options whose effect another test file shows: (option, file under `tests/`, test
/// function). The walker checks that the function exists and names the option.
const ELSEWHERE: &[(&str, &str, &str)] = &[
    ("dumpbin", "container.rs", "dumpbin_lists_the_parts_of_a_dxc_container"),
    ("Fsh", "container.rs", "fo_options_fsh_fre_strip_reflect_and_listing"),
    ("Fre", "container.rs", "fo_options_fsh_fre_strip_reflect_and_listing"),
    ("Qstrip_reflect", "container.rs", "fo_options_fsh_fre_strip_reflect_and_listing"),
    ("reflect-json", "reflection.rs", "reflect_json_for_spirv_and_dxil"),
    ("Frs", "root_signature.rs", "attribute_and_define_fill_the_rts0_part"),
    ("rootsig-define", "root_signature.rs", "attribute_and_define_fill_the_rts0_part"),
    ("force-rootsig-ver", "root_signature.rs", "force_rootsig_ver_and_strip"),
    ("force_rootsig_ver", "root_signature.rs", "force_rootsig_ver_and_strip"),
    ("Qstrip_rootsignature", "root_signature.rs", "force_rootsig_ver_and_strip"),
    ("extractrootsignature", "root_signature.rs", "extractrootsignature_writes_the_part"),
];

fn shown_elsewhere(key: &str) -> bool {
    ELSEWHERE.iter().any(|&(opt, file, func)| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(at) = text.find(&format!("fn {func}(")) else { return false };
        let body = &text[at..];
        let end = body[1..].find("\nfn ").map_or(body.len(), |e| e + 1);
        opt == key && body[..end].contains(&format!("\"-{opt}\""))
    })
}

#[test]
fn implemented_options_change_the_output() {
    let cases = cases();
    let mut failures = Vec::new();
    for spec in all_specs() {
        let key = status_key(spec);
        if status(&key).is_none() {
            failures.push(format!("-{key}: no status"));
        }
        if matches!(status(&key), Some(Status::Implemented | Status::SpirvOnly(_)))
            && !cases.iter().any(|c| c.opt == key)
            && !shown_elsewhere(&key)
        {
            failures.push(format!("-{key}: implemented, but no case here shows its effect"));
        }
    }
    for c in &cases {
        assert!(matches!(status(c.opt), Some(Status::Implemented | Status::SpirvOnly(_))), "case for '{}', not implemented", c.opt);
        let dir = setup(c.src);
        let without = run(c, &[], &dir);
        let with = run(c, &c.with, &dir);
        failures.extend(with.invalid.clone().into_iter().chain(without.invalid.clone()));
        let pick = |r: &Run| if c.chan == Chan::All { r.all.clone() } else { r.file.clone() };
        let (w, wo) = (pick(&with), pick(&without));
        let ok = match c.expect.strip_prefix('!') {
            _ if c.expect.is_empty() => w != wo,
            Some(text) => wo.contains(text) && !w.contains(text),
            None => w.contains(c.expect) && !wo.contains(c.expect),
        };
        if !ok {
            failures.push(format!(
                "-{} {:?}: expected {:?}\n--- without:\n{}\n--- with:\n{}",
                c.opt,
                c.with,
                c.expect,
                wo.chars().take(3000).collect::<String>(),
                w.chars().take(3000).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The arguments that spell `spec` with plausible values.
fn spelled(spec: &OptSpec) -> Vec<String> {
    let value = match spec.name {
        "denorm" => "ftz",
        "default-linkage" => "internal",
        "validator-version" => "1.8",
        "fspv-debug=" => "vulkan",
        "fvk-stage-io-order=" => "alpha",
        "fspv-target-env=" => "vulkan1.1",
        _ => "1",
    };
    let name = format!("-{}", spec.name);
    match spec.kind {
        Kind::Flag => vec![name],
        Kind::Joined | Kind::CommaJoined => vec![format!("{name}{value}")],
        Kind::Separate | Kind::JoinedOrSeparate => vec![name, value.to_string()],
        Kind::Multi(n) => std::iter::once(name).chain((0..n).map(|_| value.to_string())).collect(),
    }
}

#[test]
fn refused_options_exit_with_their_reason() {
    let dir = setup(GOOD);
    let input = dir.path("in.hlsl");
    let input = input.to_str().unwrap();
    let mut failures = Vec::new();
    for spec in all_specs() {
        let key = status_key(spec);
        let shown = key.strip_suffix("-EQ").or_else(|| key.strip_suffix('=')).unwrap_or(&key).to_string();
        let (dxil, why) = match status(&key) {
            Some(Status::Refused(why)) => (false, why),
            Some(Status::SpirvOnly(why)) => (true, why),
            Some(Status::NoEffect(_)) => {
                let mut a = vec!["-T".to_string(), "ps_6_0".into(), "-spirv".into(), input.to_string()];
                a.extend(spelled(spec));
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                let o = hlslc(&a);
                if code(&o) != 0 {
                    failures.push(format!("-{key} has no effect by design but {a:?} fails: {}", stderr(&o)));
                }
                continue;
            }
            _ => continue,
        };
        let mut a = vec!["-T".to_string(), "ps_6_0".into(), input.to_string()];
        if !dxil {
            a.push("-spirv".into());
        }
        a.extend(spelled(spec));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = hlslc(&a);
        let expected = format!("hlslc: error: option '-{shown}' is not supported: {why}");
        if code(&o) != 1 || !stderr(&o).contains(&expected) {
            failures.push(format!("{a:?}: exit {}, stderr {:?}, expected {expected:?}", code(&o), stderr(&o)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Code-generation options are refused only when code is generated; options that replace
/// compilation or change the front end are refused for every action.
#[test]
fn refusals_depend_on_the_action() {
    let dir = setup(GOOD);
    let input = dir.path("in.hlsl");
    let input = input.to_str().unwrap();
    let o = hlslc(&["-T", "ps_6_0", "-spirv", "-fsyntax-only", "-fspv-reduce-load-size", input]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = hlslc(&["-T", "ps_6_0", "-spirv", "-fspv-reduce-load-size", input]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", "-Ges", input]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("option '-Ges' is not supported"), "{}", stderr(&o));
}

#[test]
fn help_marks_refused_options() {
    let o = hlslc(&["-help"]);
    let help = stdout(&o);
    assert!(!help.contains("not implemented yet"), "{help}");
    assert!(help.contains("Strip debug information from the shader container [not supported]"), "{help}");
    assert!(!help.contains("Target profile: ps_6_0, vs_6_0, gs_6_0, hs_6_0, ds_6_0, cs_6_0, lib_6_3, ms_6_5, as_6_5, ... (6_0 to 6_10, lib_6_x) [not supported]"));
}
