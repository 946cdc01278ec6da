//! `memmodel`: GLSL450 to the Vulkan memory model (dxc's -fspv-use-vulkan-memory-model).

mod common;
use hlslc_spirv_opt::memmodel;

/// A coherent storage buffer (loads made visible, stores available, at QueueFamily scope), a
/// plain one (untouched), a coherent storage image (texel flags), a volatile input (Volatile),
/// a workgroup variable (coherent at Workgroup scope), a Device-scope atomic (QueueFamily); the
/// decorations go, the capability, extension and memory model change.
#[test]
fn upgrades_coherent_and_volatile_accesses() {
    let input = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %idx
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %coh DescriptorSet 0
OpDecorate %coh Binding 0
OpDecorate %coh Coherent
OpDecorate %plain DescriptorSet 0
OpDecorate %plain Binding 1
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 2
OpDecorate %img Coherent
OpDecorate %idx BuiltIn LocalInvocationIndex
OpDecorate %idx Volatile
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v4uint = OpTypeVector %uint 4
%int = OpTypeInt 32 1
%v2int = OpTypeVector %int 2
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%i0 = OpConstant %int 0
%c00 = OpConstantComposite %v2int %i0 %i0
%rt = OpTypeRuntimeArray %uint
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %uint
%coh = OpVariable %pS StorageBuffer
%plain = OpVariable %pS StorageBuffer
%im = OpTypeImage %uint 2D 0 0 0 2 R32ui
%pim = OpTypePointer UniformConstant %im
%img = OpVariable %pim UniformConstant
%pin = OpTypePointer Input %uint
%idx = OpVariable %pin Input
%pw = OpTypePointer Workgroup %uint
%shared = OpVariable %pw Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %idx
%a = OpAccessChain %pu %coh %u0 %i
%x = OpLoad %uint %a
%b = OpAccessChain %pu %plain %u0 %i
OpStore %b %x
%y = OpLoad %uint %b
OpStore %a %y
%image = OpLoad %im %img
%t = OpImageRead %v4uint %image %c00
OpImageWrite %image %c00 %t
%w = OpLoad %uint %shared
%z = OpAtomicIAdd %uint %a %u1 %u0 %w
OpReturn
OpFunctionEnd
"#;
    let expected = r#"
OpCapability Shader
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %idx
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %coh DescriptorSet 0
OpDecorate %coh Binding 0
OpDecorate %plain DescriptorSet 0
OpDecorate %plain Binding 1
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 2
OpDecorate %idx BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v4uint = OpTypeVector %uint 4
%int = OpTypeInt 32 1
%v2int = OpTypeVector %int 2
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%i0 = OpConstant %int 0
%c00 = OpConstantComposite %v2int %i0 %i0
%rt = OpTypeRuntimeArray %uint
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %uint
%coh = OpVariable %pS StorageBuffer
%plain = OpVariable %pS StorageBuffer
%im = OpTypeImage %uint 2D 0 0 0 2 R32ui
%pim = OpTypePointer UniformConstant %im
%img = OpVariable %pim UniformConstant
%pin = OpTypePointer Input %uint
%idx = OpVariable %pin Input
%pw = OpTypePointer Workgroup %uint
%shared = OpVariable %pw Workgroup
%u5 = OpConstant %uint 5
%u2 = OpConstant %uint 2
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %idx Volatile
%a = OpAccessChain %pu %coh %u0 %i
%x = OpLoad %uint %a MakePointerVisible|NonPrivatePointer %u5
%b = OpAccessChain %pu %plain %u0 %i
OpStore %b %x
%y = OpLoad %uint %b
OpStore %a %y MakePointerAvailable|NonPrivatePointer %u5
%image = OpLoad %im %img
%t = OpImageRead %v4uint %image %c00 MakeTexelVisible|NonPrivateTexel %u5
OpImageWrite %image %c00 %t MakeTexelAvailable|NonPrivateTexel %u5
%w = OpLoad %uint %shared MakePointerVisible|NonPrivatePointer %u2
%z = OpAtomicIAdd %uint %a %u5 %u0 %w
OpReturn
OpFunctionEnd
"#;
    common::check_env("vulkan1.1", input, expected, |m| {
        assert_eq!(memmodel::run(m), Ok(true));
        assert_eq!(memmodel::run(m), Ok(false), "a Vulkan-model module is left alone");
    });
}
