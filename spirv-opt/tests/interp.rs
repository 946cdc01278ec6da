//! `interp`: an `InterpolateAt*` whose interpolant is a function-scope temporary holding a value
//! loaded from a stage input (the emitter's shape, after inlining and mem2reg) interpolates that
//! input instead: the input itself, or an access chain for a component of it.

mod common;
use hlslc_spirv_opt::interp;

const HEAD: &str = r#"
OpCapability Shader
OpCapability InterpolationFunction
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %color %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %color Location 0
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%pin = OpTypePointer Input %v4float
%pout = OpTypePointer Output %v4float
%pfn = OpTypePointer Function %v4float
%pfnf = OpTypePointer Function %float
%int = OpTypeInt 32 1
%i2 = OpConstant %int 2
%color = OpVariable %pin Input
%out = OpVariable %pout Output
"#;

#[test]
fn temporaries_holding_input_values_become_the_inputs() {
    // The whole input; then its component 2, through a new access chain.
    let body = |interp: &str, comp: &str, pre: &str| {
        format!(
            r#"{HEAD}{pre}%main = OpFunction %void None %fn
%entry = OpLabel
%tmp = OpVariable %pfn Function
%tmpf = OpVariable %pfnf Function
%v = OpLoad %v4float %color
OpStore %tmp %v
%r = OpExtInst %v4float %glsl InterpolateAtSample {interp} %i2
%x = OpCompositeExtract %float %v 2
OpStore %tmpf %x
{comp}%s = OpCompositeExtract %float %r 0
%t = OpCompositeInsert %v4float %s %r 1
%u = OpCompositeInsert %v4float %y %t 3
OpStore %out %u
OpReturn
OpFunctionEnd
"#
        )
    };
    let input = body("%tmp", "%y = OpExtInst %float %glsl InterpolateAtCentroid %tmpf\n", "");
    let expected = body(
        "%color",
        "%c = OpAccessChain %pinf %color %u2\n%y = OpExtInst %float %glsl InterpolateAtCentroid %c\n",
        "%pinf = OpTypePointer Input %float\n%uint = OpTypeInt 32 0\n%u2 = OpConstant %uint 2\n",
    );
    // The new types go after the existing globals.
    common::check_fixes("vulkan1.0", "Input", &input, &expected, |m| {
        assert!(!interp::off_input(m).is_empty());
        assert!(interp::run(m));
        assert!(interp::off_input(m).is_empty());
    });
}

#[test]
fn computed_values_stay_and_are_reported() {
    let input = format!(
        r#"{HEAD}%main = OpFunction %void None %fn
%entry = OpLabel
%tmp = OpVariable %pfn Function
%v = OpLoad %v4float %color
%w = OpFAdd %v4float %v %v
OpStore %tmp %w
%r = OpExtInst %v4float %glsl InterpolateAtCentroid %tmp
OpStore %out %r
OpReturn
OpFunctionEnd
"#
    );
    if !common::tools() {
        return;
    }
    let mut m = rspirv::dr::load_words(common::assemble(&input, "vulkan1.0")).unwrap();
    assert!(!interp::run(&mut m));
    assert_eq!(interp::off_input(&m).len(), 1);
}
