//! SM 6.6 descriptor heaps: `ResourceDescriptorHeap[i]` / `SamplerDescriptorHeap[i]` take the
//! resource type of their use.

mod common;
use common::{err, ok};
use hlslc_sema::tast::{ExprKind, Module};

/// Every heap element as (sampler heap?, the type it was given).
fn heap_elements(m: &Module) -> Vec<(bool, String)> {
    m.exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::HeapIndex { sampler, .. } => Some((sampler, m.types.name(e.ty))),
            _ => None,
        })
        .collect()
}

#[test]
fn heap_element_takes_the_type_of_its_use() {
    let m = ok(r#"
struct S { uint a; };
static ByteAddressBuffer g = ResourceDescriptorHeap[7];
Texture2D<float> pick(uint i) { return ResourceDescriptorHeap[i]; }
float use(Buffer<float> b) { return b[0]; }
float4 main(uint i : I) : SV_Target {
    Texture2D t = ResourceDescriptorHeap[i + 1];
    SamplerState s = SamplerDescriptorHeap[NonUniformResourceIndex(i)];
    RWStructuredBuffer<S> rw = i > 2 ? ResourceDescriptorHeap[0] : ResourceDescriptorHeap[1];
    uint n = ((StructuredBuffer<uint>)ResourceDescriptorHeap[2])[i];
    return t.Sample(s, float2(0, 0)) + pick(3).Load(int3(0, 0, 0)) + use(ResourceDescriptorHeap[4]) + rw[0].a + n + g.Load(0);
}
"#);
    let mut got = heap_elements(&m);
    got.sort();
    let mut want: Vec<(bool, String)> = [
        (false, "ByteAddressBuffer"),
        (false, "Texture2D<float>"),
        (false, "Texture2D<float4>"),
        (false, "RWStructuredBuffer<S>"),
        (false, "RWStructuredBuffer<S>"),
        (false, "StructuredBuffer<uint>"),
        (false, "Buffer<float>"),
        (true, "SamplerState"),
    ]
    .iter()
    .map(|(s, n)| (*s, n.to_string()))
    .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn declared_names_shadow_the_heaps() {
    let m = ok(r#"
Texture2D<float> ResourceDescriptorHeap[] : register(t0);
float4 main(uint i : I) : SV_Target { return ResourceDescriptorHeap[i].Load(int3(0, 0, 0)); }
"#);
    assert!(heap_elements(&m).is_empty());
}

#[test]
fn heap_kinds_do_not_mix() {
    let r = err("float4 main() : SV_Target { Texture2D t = SamplerDescriptorHeap[0]; return 0; }");
    assert!(r.contains("cannot convert from '.Sampler' to 'Texture2D<float4>'"), "{r}");
    let r = err("float4 main() : SV_Target { SamplerState s = ResourceDescriptorHeap[0]; return 0; }");
    assert!(r.contains("cannot convert from '.Resource' to 'SamplerState'"), "{r}");
    let r = err("float4 main() : SV_Target { float4 v = ResourceDescriptorHeap[0]; return v; }");
    assert!(r.contains("cannot convert from '.Resource' to 'float4'"), "{r}");
    let r = err("float4 main() : SV_Target { Texture2D t = ResourceDescriptorHeap[float2(0, 1)]; return 0; }");
    assert!(r.contains("descriptor heap index must be a scalar integer"), "{r}");
}

#[test]
fn mips_and_sample_accessors() {
    let m = ok(r#"
Texture2DArray<int3> t;
Texture2DMS<float2, 4> ms;
float4 main(uint l : L, int3 p : P) : SV_Target {
    int3 a = t.mips[l][p];
    float2 b = ms.sample[l][p.xy];
    return a.x + b.y;
}
"#);
    let got: Vec<(bool, String, String)> = m
        .exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::TexelAt { sample, coord, .. } => Some((sample, m.types.name(e.ty), m.types.name(m.expr(coord).ty))),
            _ => None,
        })
        .collect();
    assert_eq!(
        got,
        vec![(false, "int3".to_string(), "uint3".to_string()), (true, "float2".to_string(), "uint2".to_string())]
    );
    let r = err("TextureCube t; float4 main() : SV_Target { return t.mips[0][uint3(0, 0, 0)]; }");
    assert!(r.contains("no member named 'mips' in 'TextureCUBE<float4>'"), "{r}");
    let r = err("Texture2D t; float4 main() : SV_Target { return t.sample[0][uint2(0, 0)]; }");
    assert!(r.contains("no member named 'sample' in 'Texture2D<float4>'"), "{r}");
}
