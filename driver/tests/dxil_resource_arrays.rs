//! Arrays of resources in DXIL, checked against the CHECK lines of dxc's tests
//! (`hlsl/resource_binding/NonUniform.hlsl`, `bindings1.hlsl`,
//! `hlsl/intrinsics/NonUniformResourceIndex/nonUniformIndex_propagation.hlsl`,
//! `hlsl/objects/Scenarios/unbounded-resource-arrays.hlsl`) and DXIL.rst: one record per array in
//! `!dx.resources` with its range size (-1 unbounded), each element's handle made where it is
//! used from the range start plus the flattened index, `NonUniformResourceIndex` in the handle's
//! last operand; the container's PSV0 lists the ranges.

mod common;
use common::{assert_in_order, dxil_text as dxil, hlslc, TempDir};

#[test]
fn run_time_index_adds_the_range_start_and_keeps_non_uniform() {
    // NonUniform.hlsl: three createHandle with `i1 true`.
    let src = "Texture1D<float4> tex[5] : register(t3);\nSamplerState SS[3] : register(s2);\n\
               float4 main(int i : A, float j : B) : SV_TARGET {\n\
                 float4 r = tex[NonUniformResourceIndex(i)].Sample(SS[NonUniformResourceIndex(i)], i);\n\
                 r += tex[NonUniformResourceIndex(j)].Sample(SS[i], j+2);\n  return r;\n}\n";
    let text = dxil(src, "ps_6_0", false);
    assert_in_order(
        &text,
        &[
            "add i32 %1, 3",
            "@dx.op.createHandle(i32 57, i8 0, i32 0, i32 %3, i1 true)",
            "add i32 %1, 2",
            "@dx.op.createHandle(i32 57, i8 3, i32 0, i32 %5, i1 true)",
            "@dx.op.createHandle(i32 57, i8 0, i32 0, i32 %14, i1 true)",
            // SS[i]: the same index, not marked.
            "@dx.op.createHandle(i32 57, i8 3, i32 0, i32 %5, i1 false)",
        ],
    );
    // One record per array: range start 3 (2), size 5 (3), the array type as the symbol.
    assert!(text.contains(r#"!{i32 0, [5 x %"class.Texture1D<vector<float, 4> >"]* undef, !"tex", i32 0, i32 3, i32 5, i32 1,"#), "{text}");
    assert!(text.contains(r#"!{i32 0, [3 x %struct.SamplerState]* undef, !"SS", i32 0, i32 2, i32 3, i32 0,"#), "{text}");
}

#[test]
fn only_indices_from_non_uniform_resource_index_are_marked() {
    // nonUniformIndex_propagation.hlsl.
    let src = "Buffer<float> Tuniform[16];\nBuffer<float> Tnonuniform[16];\n\
               float main(int i : IN) : SV_Target {\n  if (i >= 8) { return Tuniform[i].Load(0); }\n\
                 else { return Tnonuniform[NonUniformResourceIndex(i)].Load(0); }\n}\n";
    let text = dxil(src, "ps_6_0", false);
    assert_in_order(&text, &["@dx.op.createHandle(i32 57, i8 0, i32 0, i32 %", ", i1 false)", "@dx.op.createHandle(i32 57, i8 0, i32 1, i32 %", ", i1 true)"]);
    // Unbound arrays take whole ranges: t0..t15, then t16..t31.
    assert!(text.contains(r#"!"Tuniform", i32 0, i32 0, i32 16,"#), "{text}");
    assert!(text.contains(r#"!"Tnonuniform", i32 0, i32 16, i32 16,"#), "{text}");
}

#[test]
fn sm66_binds_the_range_and_folds_constant_indices() {
    // bindings1.hlsl (CHK66): ResBind { lower, upper, space, class }, the register as index.
    let src = "TextureBuffer<float4> tb[4] : register(t2, space3);\nRWBuffer<float> rw[] : register(u5);\n\
               float4 main(uint i : I) : SV_Target {\n  rw[i + 1][0] = 1;\n  return tb[2];\n}\n";
    let text = dxil(src, "ps_6_6", false);
    assert_in_order(
        &text,
        &[
            "add i32 %1, 1",
            "add i32 %2, 5",
            "@dx.op.createHandleFromBinding(i32 217, %dx.types.ResBind { i32 5, i32 -1, i32 0, i8 1 }, i32 %3, i1 false)",
            "@dx.op.annotateHandle(i32 216, %dx.types.Handle %4, %dx.types.ResourceProperties { i32 4106, i32 265 })",
            "@dx.op.createHandleFromBinding(i32 217, %dx.types.ResBind { i32 2, i32 5, i32 3, i8 0 }, i32 4, i1 false)",
        ],
    );
    // Unbounded: a zero-length array type and range -1.
    assert!(text.contains(r#"!{i32 0, [0 x %"class.RWBuffer<float>"]* undef, !"rw", i32 0, i32 5, i32 -1,"#), "{text}");
}

#[test]
fn multi_dimensional_indices_flatten_row_major() {
    // unbounded-resource-arrays.hlsl: [1][1][1] of [][3+ix][3] is 1*(3+ix)*3 + 1*3 + 1.
    let src = "Texture2D<float4> T[][5][3] : register(t0, space2);\n\
               float4 main(int4 a : A) : SV_Target { return T[1][1][1].Load(a.xyz); }\n";
    let text = dxil(src, "ps_6_5", false);
    assert!(text.contains("@dx.op.createHandle(i32 57, i8 0, i32 0, i32 19, i1 false)"), "{text}");
    let src = "Texture2D<float4> T[4][3] : register(t10);\n\
               float4 main(uint i : I, uint j : J) : SV_Target { return T[i][j].Load(int3(0, 0, 0)); }\n";
    let text = dxil(src, "ps_6_0", false);
    assert_in_order(&text, &["mul i32 %1, 3", "add i32 %3, %2", "add i32 %4, 10", "@dx.op.createHandle(i32 57, i8 0, i32 0, i32 %5, i1 false)"]);
    assert!(text.contains(r#"[4 x [3 x %"class.Texture2D<vector<float, 4> >"]]* undef, !"T", i32 0, i32 10, i32 12,"#), "{text}");
}

#[test]
fn local_arrays_of_resources_hold_handles() {
    // local_res_array.hlsl: a local array assigned element by element, then used.
    let src = "RWByteAddressBuffer o1;\nRWByteAddressBuffer o2;\n[numthreads(8, 8, 1)]\n\
               void main(uint2 id : SV_DispatchThreadID) {\n  RWByteAddressBuffer b[2];\n  b[0] = o1;\n  b[1] = o2;\n\
                 b[0].Store(id.x, id.y);\n  b[1].Store(id.y, id.x);\n}\n";
    let text = dxil(src, "cs_6_0", false);
    assert_in_order(&text, &["@dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)", "@dx.op.createHandle(i32 57, i8 1, i32 1, i32 1, i1 false)"]);
    assert_in_order(&text, &["@dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1,", "@dx.op.bufferStore.i32(i32 69, %dx.types.Handle %2,"]);
}

#[test]
fn the_container_lists_the_ranges() {
    let dir = TempDir::new("resarrays");
    let f = dir.file("a.hlsl", "Texture2D<float4> T[6] : register(t4, space1);\nRWBuffer<uint> U[] : register(u2);\n\
                               float4 main(uint i : I) : SV_Target { U[i][0] = 1; return T[i].Load(int3(0, 0, 0)); }\n");
    let out = dir.path("a.dxil");
    let o = hlslc(&["-T", "ps_6_0", "-E", "main", f.to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = hlslc(&["-dumpbin", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("space 1 registers 4..9"), "{text}");
    assert!(text.contains("space 0 registers 2..unbounded"), "{text}");
}

#[test]
fn descriptor_heaps_make_annotated_handles_and_set_the_feature() {
    // createFromHeap3.hlsl: both heaps, constant indices; the feature note, the annotation comment.
    let src = "float4 main(float2 c:C) : SV_Target {\n  Texture2D t = ResourceDescriptorHeap[0];\n  SamplerState s = SamplerDescriptorHeap[0];\n  return t.Sample(s, c);\n}\n";
    let text = dxil(src, "ps_6_6", false);
    assert_in_order(
        &text,
        &[
            "; Note: shader requires additional functionality:",
            ";       Resource descriptor heap indexing",
            ";       Sampler descriptor heap indexing",
            "@dx.op.createHandleFromHeap(i32 218, i32 0, i1 false, i1 false)",
            "%dx.types.ResourceProperties { i32 2, i32 1033 })  ; AnnotateHandle(res,props)  resource: Texture2D<4xF32>",
            "@dx.op.createHandleFromHeap(i32 218, i32 0, i1 true, i1 false)",
            "%dx.types.ResourceProperties { i32 14, i32 0 })  ; AnnotateHandle(res,props)  resource: SamplerState",
        ],
    );
    // NonUniformDynamic.hlsl: a NonUniformResourceIndex index sets the last operand.
    let src = "RWBuffer<float> o;\n[numthreads(8, 8, 1)]\nvoid main(uint2 id : SV_DispatchThreadID) {\n\
               Buffer<float> b = ResourceDescriptorHeap[NonUniformResourceIndex(id.x)];\n  o[id.y] = b[0];\n}\n";
    let text = dxil(src, "cs_6_6", false);
    assert_in_order(&text, &["@dx.op.createHandleFromHeap(i32 218, i32 %", ", i1 false, i1 true)", "{ i32 10, i32 265 })  ; AnnotateHandle(res,props)  resource: TypedBuffer<F32>"]);
}

#[test]
fn resources_in_cbuffers_and_global_structs_are_resources_of_their_own() {
    // resource-in-cb2.hlsl: a resource in a struct in a cbuffer is named by its path; the
    // data members stay in the buffer.
    let src = "struct Resource { Texture2D Tex1; float4 foo; };\nstruct MyStruct { Resource res; int4 bar; };\n\
               SamplerState Samp;\ncbuffer CB { MyStruct var; };\n\
               float4 main(float4 coord : TEXCOORD) : SV_TARGET { return var.res.Tex1.Sample(Samp, coord.xy) * var.res.foo; }\n";
    let text = dxil(src, "ps_6_0", false);
    assert!(text.contains(r#"!"var.res.Tex1", i32 0, i32 0, i32 1, i32 2,"#), "{text}");
    assert!(text.contains("@dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle"), "{text}");
    // using3.hlsl: a texture declared in a cbuffer, beside an int read from it.
    let src = "cbuffer A { Texture2D<float> t0; int i; };\nint main(int a:A) : SV_Target { return t0.Load(i); }\n";
    let text = dxil(src, "ps_6_0", false);
    assert_in_order(&text, &["@dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle", "@dx.op.textureLoad.f32(i32 66, %dx.types.Handle"]);
    // resource-in-struct.hlsl: a global struct passed whole to a function.
    let src = "SamplerState Samp;\nstruct Resources { Texture2D Tex1; float4 foo; };\nResources g_res;\n\
               float4 foo(Resources res, float4 coord) { return res.Tex1.Sample(Samp, coord.xy) * res.foo; }\n\
               float4 main(float4 coord : TEXCOORD) : SV_TARGET { return foo(g_res, coord); }\n";
    let text = dxil(src, "ps_6_0", false);
    assert!(text.contains(r#"!"g_res.Tex1""#), "{text}");
    assert!(text.contains("@dx.op.sample.f32(i32 60,"), "{text}");
}

#[test]
fn implicit_registers_skip_used_ranges_only_and_never_overlap_an_unbounded_one() {
    // bindings2.hlsl's CHECK lines: an explicit range that nothing uses (`Tex2[3][7] : t11`,
    // `Tex3[] : t8`, `tbuf2[4] : t18`) reserves nothing; the unbounded `tbuf3[]` goes past the
    // used `tbuf1` (t32..t35) to t36, and `tbuf4[16]` still fits at t1 after `Tex1` (t0).
    let src = "Texture2D<float> Tex1;\nTexture2D Tex2[3][7] : register(t11);\nTexture2D<float> Tex3[] : register(t8);\n\
               SamplerComparisonState Samp1;\nstruct Foo { float4 f; int4 i; };\n\
               TextureBuffer<Foo> tbuf1[2][2] : register(t32);\nTextureBuffer<Foo> tbuf2[4] : register(t18);\n\
               TextureBuffer<Foo> tbuf3[];\nTextureBuffer<Foo> tbuf4[16];\n\
               float4 main(int4 a : A, float4 coord : TEXCOORD) : SV_TARGET {\n\
                 return Tex1.SampleCmp(Samp1, coord.xy, coord.z) * tbuf1[1][1].f * tbuf3[a.x].f * tbuf4[a.y].f;\n}\n";
    let text = dxil(src, "ps_6_0", false);
    for (name, reg) in [("Tex1", "t0     1"), ("tbuf1", "t32     4"), ("tbuf3", "t36unbounded"), ("tbuf4", "t1    16")] {
        assert!(text.lines().any(|l| l.starts_with(&format!("; {name} ")) && l.ends_with(reg)), "{name} at {reg}:\n{text}");
    }
    // An unbounded range claims every register from its first on: a resource that needs one
    // after it cannot be placed (it used to get the range's own first register).
    let dir = TempDir::new("unbounded");
    let file = dir.file("u.hlsl", "Texture2D<float4> Arr[] : register(t0);\nTexture2D<float4> T;\nSamplerState S : register(s0);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target { return Arr[3].Sample(S, uv) + T.Sample(S, uv); }\n");
    let out = hlslc(&["-T", "ps_6_0", "-E", "main", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: resource T could not be allocated"), "{}", String::from_utf8_lossy(&out.stderr));
    // Before the unbounded range there is room: Arr at t1 leaves t0.
    let ok = dir.file("v.hlsl", "Texture2D<float4> Arr[] : register(t1);\nTexture2D<float4> T;\nSamplerState S : register(s0);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target { return Arr[3].Sample(S, uv) + T.Sample(S, uv); }\n");
    let out = hlslc(&["-T", "ps_6_0", "-E", "main", ok.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("; T ") && l.ends_with("t0     1")), "{text}");
}
