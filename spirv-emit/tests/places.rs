//! Places that the execution tests cannot reach on lavapipe's buffers-only harness, checked end to
//! end: every module through `spirv-val` (skipped with a message when SPIRV-Tools is missing) and
//! the instructions its disassembly must contain, in order. Values of the other places (matrix
//! elements, byte-address buffers, resource locals and arrays, counters of buffer arrays) are
//! checked by `testsuite/exec`.

use hlslc_spirv::target::TargetEnv;

mod common;

fn check(src: &str, expect: &[&str]) -> String {
    common::check_in_order(src, "cs_6_0", TargetEnv::default(), "vulkan1.1", expect)
}

#[test]
fn interlocked_on_storage_image_and_texel_buffer_elements() {
    check(
        r#"
RWTexture2D<uint> T : register(u0);
RWBuffer<int> B : register(u1);
RWTexture1DArray<uint> TA : register(u2);
RWTexture2D<int> Ts[2] : register(u3);
RWStructuredBuffer<uint> Out : register(u5);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    uint o;
    InterlockedAdd(T[t.xy], 1, o);
    InterlockedMax(B[t.x], 5);
    int p;
    InterlockedCompareExchange(B[1], 2, 3, p);
    InterlockedOr(TA[t.xy], 8);
    InterlockedCompareStore(T[uint2(0, 1)], 0, 1);
    InterlockedMin(Ts[t.z][t.xy], -4);
    Out[0] = o + p;
}
"#,
        &[
            "%_ptr_Image_uint = OpTypePointer Image %uint",
            "OpImageTexelPointer %_ptr_Image_uint %T %",
            "OpAtomicIAdd %uint %",
            "OpImageTexelPointer %_ptr_Image_int %B %",
            "OpAtomicSMax %int %",
            "OpImageTexelPointer %_ptr_Image_int %B %uint_1 %uint_0",
            "OpAtomicCompareExchange %int %",
            "OpImageTexelPointer %_ptr_Image_uint %TA %",
            "OpAtomicOr %uint %",
            "OpImageTexelPointer %_ptr_Image_uint %T %",
            "OpAtomicCompareExchange %uint %",
            "OpAccessChain %_ptr_UniformConstant_type_2d_image_0 %Ts %",
            "OpImageTexelPointer %_ptr_Image_int %",
            "OpAtomicSMin %int %",
        ],
    );
}

#[test]
fn counters_of_buffer_array_elements() {
    check(
        r#"
RWStructuredBuffer<uint> Bufs[3] : register(u0);
AppendStructuredBuffer<uint> Ap[2] : register(u4);
ConsumeStructuredBuffer<uint> Co[2] : register(u8);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    uint c = Bufs[1].IncrementCounter();
    uint d = Bufs[t.x].DecrementCounter();
    Ap[1].Append(c + d);
    Bufs[2][0] = Co[t.x].Consume();
}
"#,
        &[
            "OpDecorate %counter_var_Bufs Binding",
            "%counter_var_Bufs = OpVariable %_ptr_Uniform__arr_type_ACSBuffer_counter_uint_3 Uniform",
            "%Bufs = OpVariable",
            "%counter_var_Ap = OpVariable %_ptr_Uniform__arr_type_ACSBuffer_counter_uint_2 Uniform",
            // As DXC: the element of the array of counters, then its int.
            "OpAccessChain %_ptr_Uniform_type_ACSBuffer_counter %counter_var_Bufs %uint_1",
            "OpAccessChain %_ptr_Uniform_int %",
            "OpAtomicIAdd %int",
            "OpAccessChain %_ptr_Uniform_type_ACSBuffer_counter %counter_var_Bufs %",
            "OpAccessChain %_ptr_Uniform_int %",
            "OpAtomicISub %int",
            "OpAccessChain %_ptr_Uniform_type_ACSBuffer_counter %counter_var_Ap %uint_1",
            "OpAtomicIAdd %int",
            "OpAccessChain %_ptr_Uniform_type_ACSBuffer_counter %counter_var_Co %",
            "OpAtomicISub %int",
        ],
    );
}

#[test]
fn storage_image_locals_reassigned_in_straight_line_code() {
    check(
        r#"
RWTexture2D<float4> A : register(u0);
RWTexture2D<float4> B : register(u1);
RWStructuredBuffer<float4> Out : register(u2);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    RWTexture2D<float4> x = A;
    float4 a = x[t.xy];
    x = B;
    x[t.xy] = a;
    Out[0] = x[t.yx];
}
"#,
        &["OpLoad %type_2d_image %A", "OpImageRead %v4float", "OpLoad %type_2d_image %B", "OpImageWrite", "OpLoad %type_2d_image %B", "OpImageRead"],
    );
}

#[test]
fn a_resource_local_assigned_under_a_branch_is_refused_by_name() {
    let err = common::lower(
        r#"
StructuredBuffer<float> A : register(t0);
StructuredBuffer<float> B : register(t1);
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    StructuredBuffer<float> x = A;
    if (t.x > 0)
        x = B;
    Out[0] = x[0];
}
"#,
        "cs_6_0",
        TargetEnv::default(),
    )
    .expect_err("a resource local rebound under a branch has no static meaning after it");
    assert!(err.message.contains("'x' designates different resources depending on the control flow"), "{}", err.message);
}

#[test]
fn rows_of_one_row_matrices_are_the_whole_vector() {
    // `m[i]` of a 1xN matrix (a vector in SPIR-V) is the vector itself: no access chain into it
    // with the row index, whose result type would be the component.
    check(
        r#"
cbuffer CB { float1x3 a; row_major float1x4 b; };
RWStructuredBuffer<float4> Out : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    float1x3 l = a;
    l[t.x][t.y] = 2;
    Out[0] = float4(a[t.x], l[0].z);
    Out[1] = b[t.x];
}
"#,
        &["OpAccessChain %_ptr_Uniform_v3float %CB %int_0", "OpLoad %v3float", "OpAccessChain %_ptr_Function_float %l %", "OpAccessChain %_ptr_Uniform_v4float %CB %int_1"],
    );
}

#[test]
fn image_and_sampler_parameters_point_to_the_callers_resource() {
    check(
        r#"
Texture2D<float4> Tex[] : register(t1);
Texture2D<float4> One : register(t0);
SamplerState S : register(s0);
RWTexture2D<float> Img : register(u1);
RWStructuredBuffer<float> Out : register(u0);
float4 samp(Texture2D<float4> t, SamplerState s) { return t.SampleLevel(s, float2(0, 0), 0); }
float4 twice(Texture2D<float4> t) { return samp(t, S) * 2; }
void put(RWTexture2D<float> i, uint2 at, float v) { i[at] = v; }
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    Out[0] = samp(Tex[t.y], S).x + twice(One).y;
    put(Img, t.xy, 1.5);
}
"#,
        &[
            "OpAccessChain %_ptr_UniformConstant_type_2d_image %Tex %",
            "OpFunctionCall %v4float %samp %",
            "OpFunctionCall %v4float %twice %One",
            "OpFunctionCall %void %put %Img %",
            "%i = OpFunctionParameter %_ptr_UniformConstant_type_2d_image_0",
            "%t_0 = OpFunctionParameter %_ptr_UniformConstant_type_2d_image",
            "OpFunctionCall %v4float %samp %t_0 %S",
            "%s = OpFunctionParameter %_ptr_UniformConstant_type_sampler",
        ],
    );
}

#[test]
fn an_element_of_a_buffer_array_for_a_resource_parameter_is_refused() {
    // Logical addressing has no pointer parameters into Uniform/StorageBuffer storage, and a
    // copy of the function is bound to a buffer variable, not to a run-time element: refused
    // by name rather than given as a Function variable holding a buffer (invalid SPIR-V).
    let err = common::lower(
        r#"
StructuredBuffer<float> Bufs[2] : register(t0);
RWStructuredBuffer<float> Out : register(u0);
float get(StructuredBuffer<float> b) { return b[0]; }
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) { Out[0] = get(Bufs[t.x]); }
"#,
        "cs_6_0",
        TargetEnv::default(),
    )
    .expect_err("an element of an array of buffers cannot be bound to a copy of the function");
    assert!(err.message.contains("buffer parameter 'b'"), "{}", err.message);
}

#[test]
fn buffer_parameters_bind_one_copy_of_the_function_per_buffer() {
    let text = check(
        r#"
StructuredBuffer<float> A : register(t0);
StructuredBuffer<float> B : register(t1);
RWStructuredBuffer<float> Out : register(u0);
AppendStructuredBuffer<uint> Ap : register(u1);
float get(StructuredBuffer<float> b, uint i) { return b[i]; }
float twice(StructuredBuffer<float> b) { return get(b, 0) * 2; }
void put(RWStructuredBuffer<float> o, AppendStructuredBuffer<uint> ap, float v) { o[0] = v; ap.Append(1); }
[numthreads(1, 1, 1)]
void main() {
    put(Out, Ap, get(A, 1) + get(B, 1) + twice(A) + get(A, 2));
}
"#,
        &[
            // A's copy of `get` is used twice, B's once.
            "OpFunctionCall %float %get_0 %param_var_i",
            "OpFunctionCall %float %get %param_var_i_0",
            "OpFunctionCall %float %twice",
            "OpFunctionCall %float %get_0 %param_var_i_1",
            "OpFunctionCall %void %put %param_var_v",
        ],
    );
    // Two copies of `get` (for A and B), one of `twice` and `put`; no buffer in a Function variable.
    assert_eq!(text.matches("OpFunctionParameter %_ptr_Function_uint").count(), 2, "{text}");
    assert!(!text.contains("_ptr_Function_type_StructuredBuffer"), "{text}");
    assert!(text.contains("OpAccessChain %_ptr_Uniform_int %counter_var_Ap %uint_0"), "{text}");
}

#[test]
fn an_out_resource_parameter_rebinds_the_callers_variable() {
    // The callee assigns B to its out parameter: after the call the caller's `t`, which held A,
    // designates B, so the fetch reads B (resolved at compile time; refused before).
    let text = check(
        r#"
Texture2D<float4> A : register(t0);
Texture2D<float4> B : register(t1);
RWStructuredBuffer<float4> Out : register(u0);
void pick(out Texture2D<float4> t) { t = B; }
[numthreads(1, 1, 1)]
void main() { Texture2D<float4> t = A; pick(t); Out[0] = t.Load(int3(0, 0, 0)); }
"#,
        &["OpLoad %type_2d_image %B", "OpImageFetch %v4float"],
    );
    assert!(!text.contains("OpLoad %type_2d_image %A"), "{text}");
}

#[test]
fn local_arrays_of_resources_alias_the_array_assigned() {
    check(
        r#"
ByteAddressBuffer BufferArray[2] : register(t0);
RWByteAddressBuffer BufferOut : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) {
    ByteAddressBuffer LocalArray[2];
    LocalArray = BufferArray;
    ByteAddressBuffer Local = LocalArray[t.x];
    BufferOut.Store(0, Local.Load(4) + LocalArray[1].Load(0));
}
"#,
        &["OpAccessChain %_ptr_Uniform_type_ByteAddressBuffer %BufferArray %", "OpAccessChain %_ptr_Uniform_uint %", "OpAccessChain %_ptr_Uniform_type_ByteAddressBuffer %BufferArray %uint_1"],
    );
}
