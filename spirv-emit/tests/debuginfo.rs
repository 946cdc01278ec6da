//! `-fspv-debug=vulkan`: NonSemantic.Shader.DebugInfo.100, and `-fspv-debug=rich`:
//! OpenCL.DebugInfo.100. The expectations are DXC's (the CHECK lines of its CodeGenSPIRV
//! `shader.debug.*` and `rich.debug.*` tests and the sets' specifications), read with LLVM
//! FileCheck over our disassembly; every module also goes through spirv-val.

mod common;

use hlslc_spirv::lower::{DebugSource, LowerOptions};
use hlslc_spirv::target::TargetEnv;
use std::io::Write;
use std::process::{Command, Stdio};

/// Compiles `src` (entry `main`) with `-fspv-debug=vulkan` (`with_source`: `vulkan-with-source`,
/// cutting the text every `source_len` bytes).
fn compile(src: &str, profile: &str, target: TargetEnv, with_source: bool, source_len: usize) -> Vec<u32> {
    compile_as(src, profile, target, with_source, source_len, true)
}

/// [`compile`], with `-fspv-debug=rich` when `vulkan` is false.
fn compile_as(src: &str, profile: &str, target: TargetEnv, with_source: bool, source_len: usize, vulkan: bool) -> Vec<u32> {
    common::lower_with_sources(src, profile, |sm, f| {
        let mut ds = DebugSource::zi(sm, f, 600);
        ds.vulkan = vulkan;
        ds.rich = !vulkan;
        ds.tool = false;
        ds.source = with_source;
        ds.source_len = source_len;
        ds.command_line = format!(" -E main -T {profile} -spirv -fcgl -fspv-debug=vulkan");
        LowerOptions { target, debug_source: Some(ds), ..LowerOptions::default() }
    })
    .unwrap_or_else(|e| panic!("lowering failed: {e:?}"))
}

fn filecheck() -> Option<String> {
    ["FileCheck-14", "/usr/lib/llvm-14/bin/FileCheck", "FileCheck"]
        .into_iter()
        .find(|f| Command::new(f).arg("--version").output().is_ok_and(|o| o.status.success()))
        .map(str::to_string)
}

/// Validates `words` and runs FileCheck with `checks` over the disassembly.
fn check(words: &[u32], env: &str, checks: &str) {
    common::validate(words, env);
    let text = hlslc_spirv::disasm::disassemble(words).expect("disassembles");
    let Some(fc) = filecheck() else {
        eprintln!("skipping FileCheck: not installed");
        return;
    };
    let path = common::scratch(&format!("debuginfo.{}.check", checks.len()));
    std::fs::write(&path, checks).unwrap();
    let mut child = Command::new(fc)
        .arg(&path)
        .arg("--dump-input=never")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run FileCheck");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "FileCheck:\n{}\n{text}", String::from_utf8_lossy(&o.stderr));
}

const FUNCTIONS: &str = "void foo(int x, float y)
{
  x = x + y;
}

float4 main(float4 color : COLOR) : SV_TARGET
{
  bool condition = false;
  foo(1, color.x);
  return color;
}
";

/// DXC's shader.debug.function.hlsl: the strings, types, functions and entry point in dxc's
/// order, `DebugFunctionDefinition` in each function; lines and columns of this source. The
/// locals follow dxc's sort (the last made first, each after what it names), as its
/// rich.debug.function.param reads `y` before `x` and both before `float4`.
#[test]
fn functions_types_and_entry_point() {
    let words = compile(FUNCTIONS, "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: OpExtension "SPV_KHR_non_semantic_info"
CHECK: [[set:%[0-9]+]] = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
CHECK: [[fooName:%[0-9]+]] = OpString "foo"
CHECK: [[emptyStr:%[0-9]+]] = OpString ""
CHECK: [[srcMainName:%[0-9]+]] = OpString "main"
CHECK: [[mainName:%[0-9]+]] = OpString "__dxc_setup"
CHECK: [[clOpts:%[0-9]+]] = OpString " -E main -T ps_6_0 -spirv -fcgl -fspv-debug=vulkan"
CHECK: [[int:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeBasic {{%[0-9]+}} %uint_32 %uint_4 %uint_0
CHECK: [[float:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeBasic {{%[0-9]+}} %uint_32 %uint_3 %uint_0
CHECK: [[fooFnType:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeFunction %uint_3 %void [[int]] [[float]]
CHECK: [[source:%[0-9]+]] = OpExtInst %void [[set]] DebugSource
CHECK: [[unit:%[0-9]+]] = OpExtInst %void [[set]] DebugCompilationUnit %uint_1 %uint_4 [[source]] %uint_5
CHECK: [[fooDbgFn:%[0-9]+]] = OpExtInst %void [[set]] DebugFunction [[fooName]] [[fooFnType]] [[source]] %uint_1 %uint_1 [[unit]] [[emptyStr]] %uint_3 %uint_2
CHECK: [[y:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} [[float]] [[source]] %uint_1 %uint_23 [[fooDbgFn]] %uint_4 %uint_2
CHECK: [[x:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} [[int]] [[source]] %uint_1 %uint_14 [[fooDbgFn]] %uint_4 %uint_1
CHECK: [[float4:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeVector [[float]] %uint_4
CHECK: [[srcMainFnType:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeFunction %uint_3 [[float4]] [[float4]]
CHECK: [[srcMainDbgFn:%[0-9]+]] = OpExtInst %void [[set]] DebugFunction [[srcMainName]] [[srcMainFnType]] [[source]] %uint_6 %uint_1 [[unit]] [[emptyStr]] %uint_3 %uint_7
CHECK: [[body:%[0-9]+]] = OpExtInst %void [[set]] DebugLexicalBlock [[source]] %uint_7 %uint_1 [[srcMainDbgFn]]
CHECK: [[condition:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} {{%[0-9]+}} [[source]] %uint_8 %uint_8 [[body]] %uint_4{{$}}
CHECK: [[color:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} [[float4]] [[source]] %uint_6 %uint_20 [[srcMainDbgFn]] %uint_4 %uint_1
CHECK: [[mainFnType:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeFunction %uint_3 %void
CHECK: [[mainDbgFn:%[0-9]+]] = OpExtInst %void [[set]] DebugFunction [[mainName]] [[mainFnType]] [[source]] %uint_6 %uint_1 [[unit]] [[emptyStr]] %uint_3 %uint_7
CHECK: DebugEntryPoint [[mainDbgFn]] [[unit]] {{%[0-9]+}} [[clOpts]]
CHECK: %main = OpFunction %void None
CHECK: DebugFunctionDefinition [[mainDbgFn]] %main
CHECK: OpFunctionEnd
CHECK: %src_main = OpFunction %v4float None
CHECK: DebugScope [[srcMainDbgFn]]
CHECK-NEXT: DebugFunctionDefinition [[srcMainDbgFn]] %src_main
CHECK-NEXT: DebugDeclare [[color]] %color
CHECK-NEXT: DebugScope [[body]]
CHECK-NEXT: DebugLine [[source]] %uint_8 %uint_8 %uint_3
CHECK-NEXT: DebugDeclare [[condition]] %condition
CHECK: OpFunctionEnd
CHECK: %foo = OpFunction %void None
CHECK: DebugScope [[fooDbgFn]]
CHECK-NEXT: DebugFunctionDefinition [[fooDbgFn]] %foo
CHECK-NEXT: DebugDeclare [[x]] %x
CHECK-NEXT: DebugDeclare [[y]] %y
"#,
    );
}

/// DXC's shader.debug.type.matrix.hlsl and shader.debug.runtimearray.hlsl: a float3x4 is a
/// matrix of three vectors of four floats (column-major operand 1); an unsized array has
/// length 0.
#[test]
fn matrices_and_arrays() {
    let src = "struct S { float a; int2 b; };
void main() {
   float3x4 m;
   int arr[5];
   S s;
}
";
    let words = compile(src, "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: [[float:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeBasic {{%[0-9]+}} %uint_32 %uint_3 %uint_0
CHECK: [[a:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeMember {{%[0-9]+}} [[float]] {{%[0-9]+}} %uint_0 %uint_0 %uint_0 %uint_32 %uint_3
CHECK: [[int:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeBasic {{%[0-9]+}} %uint_32 %uint_4 %uint_0
CHECK: [[int2:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeVector [[int]] %uint_2
CHECK: [[b:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeMember {{%[0-9]+}} [[int2]] {{%[0-9]+}} %uint_0 %uint_0 %uint_32 %uint_64 %uint_3
CHECK: [[S:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeComposite {{%[0-9]+}} %uint_1 {{%[0-9]+}} %uint_0 %uint_0 {{%[0-9]+}} {{%[0-9]+}} %uint_96 %uint_3 [[a]] [[b]]
CHECK: DebugLocalVariable {{%[0-9]+}} [[S]]
CHECK: [[arr:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeArray [[int]] %uint_5
CHECK: DebugLocalVariable {{%[0-9]+}} [[arr]]
CHECK: [[v4:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeVector [[float]] %uint_4
CHECK: [[m:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeMatrix [[v4]] %uint_3 %uint_1
CHECK: DebugLocalVariable {{%[0-9]+}} [[m]]
"#,
    );
}

/// DXC's shader.debug.sourcecontinued.hlsl (`vulkan-with-source-test` cuts every 13 bytes) and
/// shader.debug.source.hlsl (a short text stays whole); shader.debug.extensions.hlsl: SPIR-V 1.6
/// has non-semantic instruction sets without the extension.
#[test]
fn source_text_and_continued() {
    let src = "float4 main(float4 color : COLOR) : SV_TARGET\n{\n  return color;\n}\n";
    let words = compile(src, "ps_6_0", TargetEnv::Vulkan1_0, true, 13);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: [[t0:%[0-9]+]] = OpString "float4 main(f"
CHECK: [[t1:%[0-9]+]] = OpString "loat4 color :"
CHECK: DebugSource {{%[0-9]+}} [[t0]]
CHECK-NEXT: DebugSourceContinued [[t1]]
CHECK-NEXT: DebugSourceContinued
"#,
    );
    let words = compile(src, "ps_6_0", TargetEnv::Vulkan1_3, true, 0xFFFD);
    check(
        &words,
        "vulkan1.3",
        r#"
CHECK-NOT: OpExtension "SPV_KHR_non_semantic_info"
CHECK: DebugSource {{%[0-9]+}} {{%[0-9]+}}
CHECK-NOT: DebugSourceContinued
"#,
    );
}

/// DXC's rich.debug.function.hlsl, rich.debug.type.function.hlsl and rich.debug.local-variable.hlsl:
/// the same description in OpenCL.DebugInfo.100, numbers as literals (sizes as ids), the function
/// as DebugFunction's last operand, OpLine for lines, no non-semantic extension.
#[test]
fn rich_opencl_debug_info() {
    let words = compile_as(FUNCTIONS, "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD, false);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK-NOT: OpExtension "SPV_KHR_non_semantic_info"
CHECK: [[set:%[0-9]+]] = OpExtInstImport "OpenCL.DebugInfo.100"
CHECK: [[file:%[0-9]+]] = OpString "test.hlsl"
CHECK: [[fooName:%[0-9]+]] = OpString "foo"
CHECK: [[emptyStr:%[0-9]+]] = OpString ""
CHECK: [[mainName:%[0-9]+]] = OpString "main"
CHECK: [[setupName:%[0-9]+]] = OpString "__dxc_setup"
CHECK: [[int:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeBasic {{%[0-9]+}} %uint_32 Signed{{$}}
CHECK: [[float:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeBasic {{%[0-9]+}} %uint_32 Float{{$}}
CHECK: [[fooFnType:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeFunction FlagIsProtected|FlagIsPrivate %void [[int]] [[float]]
CHECK: [[source:%[0-9]+]] = OpExtInst %void [[set]] DebugSource [[file]]{{$}}
CHECK: [[unit:%[0-9]+]] = OpExtInst %void [[set]] DebugCompilationUnit 1 4 [[source]] HLSL
CHECK: [[fooFn:%[0-9]+]] = OpExtInst %void [[set]] DebugFunction [[fooName]] [[fooFnType]] [[source]] 1 1 [[unit]] [[emptyStr]] FlagIsProtected|FlagIsPrivate 2 %foo
CHECK: [[x:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} [[int]] [[source]] 1 14 [[fooFn]] FlagIsLocal 1
CHECK: [[float4:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeVector [[float]] 4
CHECK: [[mainFnType:%[0-9]+]] = OpExtInst %void [[set]] DebugTypeFunction FlagIsProtected|FlagIsPrivate [[float4]] [[float4]]
CHECK: [[srcMain:%[0-9]+]] = OpExtInst %void [[set]] DebugFunction [[mainName]] [[mainFnType]] [[source]] 6 1 [[unit]] [[emptyStr]] FlagIsProtected|FlagIsPrivate 7 %src_main
CHECK: [[color:%[0-9]+]] = OpExtInst %void [[set]] DebugLocalVariable {{%[0-9]+}} [[float4]] [[source]] 6 20 [[srcMain]] FlagIsLocal 1
CHECK: DebugFunction [[setupName]] {{%[0-9]+}} [[source]] 6 1 [[unit]] [[emptyStr]] FlagIsProtected|FlagIsPrivate 7 %main
CHECK: %src_main = OpFunction %v4float None
CHECK: DebugScope [[srcMain]]
CHECK-NEXT: DebugDeclare [[color]] %color
CHECK: OpLine [[file]] 8 3
CHECK-NOT: DebugLine
CHECK-NOT: DebugFunctionDefinition
"#,
    );
    // rich.debug.type.matrix.hlsl: a float3x4 is an array of 3 x 4 floats.
    let words = compile_as("void main() { float3x4 m; }", "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD, false);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: [[float:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} DebugTypeBasic {{%[0-9]+}} %uint_32 Float
CHECK: {{%[0-9]+}} = OpExtInst %void {{%[0-9]+}} DebugTypeArray [[float]] %uint_3 %uint_4
"#,
    );
}

/// DXC's rich.debug.global-variable.hlsl and rich.debug.sampler.hlsl: a `DebugGlobalVariable`
/// for each module-scope variable, naming its `OpVariable`, flags FlagIsDefinition.
#[test]
fn global_variables() {
    // dxc's rich.debug.global-variable: the last-declared global first (`cond` before `c`).
    let src = "static float g = 2;
SamplerState s;
float4 main() : SV_Target { return g; }
";
    let words = compile(src, "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: [[s:%[0-9]+]] = OpString "s"
CHECK: [[g:%[0-9]+]] = OpString "g"
CHECK: DebugGlobalVariable [[s]] {{%[0-9]+}} {{%[0-9]+}} %uint_2 %uint_14 {{%[0-9]+}} [[s]] %s %uint_8
CHECK: DebugGlobalVariable [[g]] {{%[0-9]+}} {{%[0-9]+}} %uint_1 %uint_14 {{%[0-9]+}} [[g]] %g %uint_8
"#,
    );
    let words = compile_as(src, "ps_6_0", TargetEnv::Vulkan1_0, false, 0xFFFD, false);
    check(
        &words,
        "vulkan1.0",
        r#"
CHECK: DebugGlobalVariable {{%[0-9]+}} {{%[0-9]+}} {{%[0-9]+}} 1 14 {{%[0-9]+}} {{%[0-9]+}} %g FlagIsDefinition
"#,
    );
}
