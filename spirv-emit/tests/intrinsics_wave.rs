//! Wave and quad intrinsics: the `OpGroupNonUniform*` instructions, their capabilities, the
//! subgroup built-ins, and the Vulkan 1.1 requirement.

mod common;

use common::intrinsics::check;
use common::lower;
use hlslc_spirv::TargetEnv;

#[test]
fn reductions_pick_the_instruction_by_component_kind() {
    check(
        r#"
RWStructuredBuffer<float4> f : register(u0);
RWStructuredBuffer<int2> i : register(u1);
RWStructuredBuffer<uint> u : register(u2);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    f[id.x] = WaveActiveSum(f[id.x]) + WavePrefixProduct(f[id.x]) + WaveActiveMax(f[id.x]);
    i[id.x] = WaveActiveMin(i[id.x]) + WavePrefixSum(i[id.x]);
    u[id.x] = WaveActiveMax(u[id.x]) ^ WaveActiveBitXor(u[id.x]) ^ WaveActiveProduct(u[id.x]);
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_1,
        &[
            "OpCapability GroupNonUniformArithmetic",
            "OpGroupNonUniformFAdd %v4float %uint_3 Reduce",
            "OpGroupNonUniformFMul %v4float %uint_3 ExclusiveScan",
            "OpGroupNonUniformFMax %v4float %uint_3 Reduce",
            "OpGroupNonUniformSMin %v2int %uint_3 Reduce",
            "OpGroupNonUniformIAdd %v2int %uint_3 ExclusiveScan",
            "OpGroupNonUniformUMax %uint %uint_3 Reduce",
            "OpGroupNonUniformBitwiseXor %uint %uint_3 Reduce",
            "OpGroupNonUniformIMul %uint %uint_3 Reduce",
        ],
    );
}

#[test]
fn votes_ballots_and_broadcasts() {
    check(
        r#"
RWStructuredBuffer<uint4> o : register(u0);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    bool c = id.x > 2;
    uint4 r = WaveActiveBallot(c);
    r.x += WaveActiveCountBits(c) + WavePrefixCountBits(c);
    r.y += WaveActiveAnyTrue(c) ? 1 : 0;
    r.z += WaveActiveAllTrue(c) ? 1 : 0;
    r.w += WaveReadLaneFirst(id.y) + WaveReadLaneAt(id.z, 3) + (WaveIsFirstLane() ? 1 : 0);
    r.x += all(WaveActiveAllEqual(id)) ? 1 : 0;
    o[id.x] = r;
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_1,
        &[
            "OpCapability GroupNonUniform",
            "OpGroupNonUniformBallot %v4uint %uint_3",
            "OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce",
            "OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan",
            "OpGroupNonUniformAny %bool %uint_3",
            "OpGroupNonUniformAll %bool %uint_3",
            "OpGroupNonUniformBroadcastFirst %uint %uint_3",
            "OpGroupNonUniformShuffle %uint %uint_3",
            "OpGroupNonUniformElect %bool %uint_3",
            "OpGroupNonUniformAllEqual %bool %uint_3",
            "OpCompositeConstruct %v3bool",
        ],
    );
}

#[test]
fn lane_count_and_index_share_one_builtin_each() {
    let text = check(
        r#"
RWStructuredBuffer<uint> o : register(u0);
float4 main() : SV_Target {
    o[WaveGetLaneIndex()] = WaveGetLaneCount() + WaveGetLaneCount() + WaveGetLaneIndex();
    return 1;
}
"#,
        "ps_6_0",
        TargetEnv::Vulkan1_1,
        &[
            // DXC evaluates an assignment's right side before its left: the lane count is read first.
            "OpEntryPoint Fragment %main \"main\" %out_var_SV_Target %SubgroupSize %SubgroupLocalInvocationId",
            "OpDecorate %SubgroupSize BuiltIn SubgroupSize",
            "OpDecorate %SubgroupSize Flat",
            "OpDecorate %SubgroupLocalInvocationId BuiltIn SubgroupLocalInvocationId",
            "OpDecorate %SubgroupLocalInvocationId Flat",
        ],
    );
    assert_eq!(text.matches("BuiltIn SubgroupSize").count(), 1);
    assert_eq!(text.matches("OpLoad %uint %SubgroupSize").count(), 2);
}

#[test]
fn quad_ops_in_compute_group_threads_in_quads() {
    check(
        r#"
RWStructuredBuffer<float> o : register(u0);
[numthreads(4, 2, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = o[id.x];
    o[id.x] = QuadReadAcrossX(v) + QuadReadAcrossY(v) + QuadReadAcrossDiagonal(v) + QuadReadLaneAt(v, 1);
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_1,
        &[
            "OpCapability GroupNonUniformQuad",
            "OpCapability ComputeDerivativeGroupQuadsKHR",
            "OpExtension \"SPV_NV_compute_shader_derivatives\"",
            "OpExecutionMode %main DerivativeGroupQuadsKHR",
            "OpGroupNonUniformQuadSwap %float %uint_3 %",
            " %uint_0",
            "OpGroupNonUniformQuadSwap %float %uint_3 %",
            " %uint_1",
            "OpGroupNonUniformQuadSwap %float %uint_3 %",
            " %uint_2",
            "OpGroupNonUniformQuadBroadcast %float %uint_3 %",
        ],
    );
}

#[test]
fn quad_any_and_all_combine_the_quad() {
    check(
        r#"
RWStructuredBuffer<uint> o : register(u0);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    o[id.x] = (QuadAny(id.x == 1) ? 1 : 0) + (QuadAll(id.x != 2) ? 2 : 0);
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_1,
        &[
            "OpExecutionMode %main DerivativeGroupLinearKHR",
            "OpGroupNonUniformQuadSwap %bool %uint_3",
            "OpLogicalOr %bool",
            "OpGroupNonUniformQuadSwap %bool %uint_3",
            "OpLogicalOr %bool",
            "OpGroupNonUniformQuadSwap %bool %uint_3",
            "OpLogicalOr %bool",
            "OpLogicalAnd %bool",
        ],
    );
}

#[test]
fn partitioned_ops_need_the_nv_extension() {
    check(
        r#"
uint4 main(uint4 v : A, nointerpolation uint4 m : B) : SV_Target {
    return WaveMatch(v) + WaveMultiPrefixSum(v, m) + WaveMultiPrefixBitOr(v, m);
}
"#,
        "ps_6_5",
        TargetEnv::Vulkan1_1,
        &[
            "OpCapability GroupNonUniformPartitionedEXT",
            "OpExtension \"SPV_NV_shader_subgroup_partitioned\"",
            "OpGroupNonUniformPartitionEXT %v4uint",
            "OpGroupNonUniformIAdd %v4uint %uint_3 PartitionedExclusiveScanEXT",
            "OpGroupNonUniformBitwiseOr %v4uint %uint_3 PartitionedExclusiveScanEXT",
        ],
    );
}

#[test]
fn wave_ops_need_vulkan_1_1() {
    let src = r#"
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)]
void main() { o[0] = WaveGetLaneCount(); }
"#;
    let e = lower(src, "cs_6_0", TargetEnv::Vulkan1_0).expect_err("Vulkan 1.0 has no subgroup ops");
    assert!(e.message.contains("Vulkan 1.1 is required for Wave Operation"), "{e:?}");
    assert!(e.notes[0].contains("-fspv-target-env="), "{e:?}");
    assert!(e.span.is_some());
    lower(src, "cs_6_0", TargetEnv::Vulkan1_1).expect("Vulkan 1.1 has them");
}

#[test]
fn helper_lane_query_depends_on_the_target() {
    let src = r#"
float4 main() : SV_Target { return IsHelperLane() ? 1 : 0; }
"#;
    check(
        src,
        "ps_6_6",
        TargetEnv::Vulkan1_1,
        &[
            "OpCapability DemoteToHelperInvocation",
            "OpExtension \"SPV_EXT_demote_to_helper_invocation\"",
            "OpIsHelperInvocationEXT %bool",
        ],
    );
    check(
        src,
        "ps_6_6",
        TargetEnv::Vulkan1_3,
        &[
            "OpDecorate %gl_HelperInvocation BuiltIn HelperInvocation",
            "OpLoad %bool %gl_HelperInvocation",
        ],
    );
}
