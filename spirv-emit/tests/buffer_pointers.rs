//! Buffer device addresses end to end: `vk::BufferPointer`, `vk::RawBufferLoad`/`Store` and the
//! pointer casts, HLSL → SPIR-V checked by `spirv-val` (Vulkan 1.2, where the physical storage
//! class is core) and by the instructions the disassembly must contain (DXC's mapping: the
//! CodeGenSPIRV `vk.buffer-pointer.*` and `intrinsics.vkrawbuffer*` tests).

use hlslc_spirv::target::TargetEnv;

mod common;

fn compile(src: &str, profile: &str) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.2");
    hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
}

fn has(text: &str, want: &[&str]) {
    for w in want {
        assert!(text.contains(w), "missing `{w}` in:\n{text}");
    }
}

const GLOBALS: &str = r#"
struct Globals_s { float4 a; float4 b; float c; };
typedef vk::BufferPointer<Globals_s> Globals_p;
struct PC { Globals_p g; uint64_t raw; };
[[vk::push_constant]] PC pc;
RWStructuredBuffer<float4> o;
"#;

/// `p.Get().member` reads and writes through an access chain on the loaded pointer, with the
/// `Aligned` operand the storage class requires (the member's alignment in the layout), and
/// the module gets the `PhysicalStorageBuffer64` addressing model.
#[test]
fn get_reads_and_writes_members_through_the_pointer() {
    let text = compile(
        &format!("{GLOBALS}[numthreads(1,1,1)] void main() {{ o[0] = pc.g.Get().b; pc.g.Get().c = 2.0; pc.g.Get().a = o[1]; }}"),
        "cs_6_0",
    );
    has(
        &text,
        &[
            "OpCapability PhysicalStorageBufferAddresses",
            "OpExtension \"SPV_KHR_physical_storage_buffer\"",
            "OpMemoryModel PhysicalStorageBuffer64 GLSL450",
            "OpMemberDecorate %Globals_s 1 Offset 16",
            "OpMemberDecorate %Globals_s 2 Offset 32",
            "%_ptr_PhysicalStorageBuffer_Globals_s = OpTypePointer PhysicalStorageBuffer %Globals_s",
            // The pointer is 8 bytes in the push-constant block, the 64-bit integer after it.
            "OpMemberDecorate %type_PushConstant_PC 1 Offset 8",
            "= OpLoad %v4float %",
            "Aligned 16",
            "OpStore %",
        ],
    );
    assert!(text.lines().any(|l| l.contains("OpStore") && l.trim_end().ends_with("Aligned 4")), "{text}");
}

/// The whole pointee is accessed with the pointer's declared alignment.
#[test]
fn whole_pointee_uses_the_declared_alignment() {
    let text = compile(
        "RWStructuredBuffer<uint> o;\n[numthreads(1,1,1)] void main() { uint64_t a = 64; vk::BufferPointer<uint, 32> p = vk::BufferPointer<uint, 32>(a); o[0] = p.Get(); p.Get() = 5; }",
        "cs_6_0",
    );
    has(&text, &["OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint", "Aligned 32", "OpDecorate %p RestrictPointer"]);
    assert!(text.lines().any(|l| l.contains("OpStore") && l.trim_end().ends_with("Aligned 32")), "{text}");
}

/// Local pointers are values: they are copied and reassigned (a resource local would be an
/// alias), and a `[[vk::aliased_pointer]]` local or parameter is `AliasedPointer`.
#[test]
fn pointer_locals_and_parameters_are_values() {
    let text = compile(
        &format!(
            "{GLOBALS}float4 read([[vk::aliased_pointer]] Globals_p q) {{ return q.Get().a; }}\n\
             float4 plain(Globals_p s) {{ return s.Get().b; }}\n\
             [numthreads(1,1,1)] void main() {{ [[vk::aliased_pointer]] Globals_p p = pc.g; Globals_p r = p; if (o[0].x > 0) r = pc.g; o[1] = read(r) + p.Get().b + plain(p); }}"
        ),
        "cs_6_0",
    );
    has(&text, &["OpDecorate %p AliasedPointer", "OpDecorate %r RestrictPointer", "OpDecorate %q AliasedPointer", "OpDecorate %s RestrictPointer"]);
}

/// `(uint64_t)p` is `OpConvertPtrToU`; a `uint2` address is bitcast to 64 bits first.
#[test]
fn addresses_convert_both_ways() {
    let text = compile(
        &format!(
            "{GLOBALS}RWStructuredBuffer<uint64_t> a;\n[numthreads(1,1,1)] void main() {{ a[0] = (uint64_t)pc.g; Globals_p q = Globals_p(uint2(16, 0)); o[0] = q.Get().a; }}"
        ),
        "cs_6_0",
    );
    has(&text, &["OpConvertPtrToU %ulong", "OpBitcast %ulong", "OpConvertUToPtr %_ptr_PhysicalStorageBuffer_Globals_s"]);
}

/// `vk::RawBufferLoad<T>(address, alignment = 4)` and `RawBufferStore`: a bitcast of the address
/// and an aligned access; a `bool` is stored as a `uint`.
#[test]
fn raw_buffer_load_and_store() {
    let text = compile(
        "uint64_t Address;\nRWStructuredBuffer<float> o;\n[numthreads(1,1,1)] void main() {\n\
         float x = vk::RawBufferLoad<float>(Address);\n double y = vk::RawBufferLoad<double>(Address, 8);\n\
         bool z = vk::RawBufferLoad<bool>(Address, 4);\n float2 w = vk::RawBufferLoad<float2>(Address, 8);\n\
         vk::RawBufferStore<float>(Address + 16, x + w.x, 16);\n vk::RawBufferStore(Address + 32, z);\n o[0] = (float)y; }",
        "cs_6_0",
    );
    has(
        &text,
        &[
            "OpBitcast %_ptr_PhysicalStorageBuffer_float",
            "OpLoad %float %",
            "OpLoad %double %",
            "Aligned 8",
            "OpBitcast %_ptr_PhysicalStorageBuffer_uint",
            "OpINotEqual %bool",
            "OpLoad %v2float %",
        ],
    );
    assert!(text.lines().any(|l| l.contains("OpStore") && l.trim_end().ends_with("Aligned 16")), "{text}");
}

/// `vk::static_pointer_cast` / `reinterpret_pointer_cast` are bitcasts between pointer types.
#[test]
fn pointer_casts_are_bitcasts() {
    let text = compile(
        "struct Base { int b; }; struct Derived : Base { int val; };\n\
         cbuffer Test { vk::BufferPointer<Derived, 32> d; vk::BufferPointer<int> i; };\n\
         [numthreads(1,1,1)] void main() { vk::BufferPointer<Base, 16> b = vk::static_pointer_cast<Base, 16>(d);\n\
         vk::BufferPointer<float> f = vk::reinterpret_pointer_cast<float>(i); i.Get() = (int)f.Get() + b.Get().b; }",
        "cs_6_0",
    );
    has(&text, &["OpBitcast %_ptr_PhysicalStorageBuffer_Base", "OpBitcast %_ptr_PhysicalStorageBuffer_float"]);
}

/// Atomics work on memory behind a pointer.
#[test]
fn atomics_through_a_pointer() {
    let text = compile(
        "struct S { uint u; }; struct PC { vk::BufferPointer<S> bp; }; [[vk::push_constant]] PC pc;\n\
         RWStructuredBuffer<uint> o;\n[numthreads(1,1,1)] void main() { uint old; InterlockedAdd(pc.bp.Get().u, 3, old); o[0] = old; }",
        "cs_6_0",
    );
    has(&text, &["OpAtomicIAdd %uint"]);
}

/// A pointer to a struct that contains a pointer to itself (a linked list) is declared ahead
/// with `OpTypeForwardPointer`.
#[test]
fn recursive_pointee_uses_a_forward_pointer() {
    let text = compile(
        "struct Node; typedef vk::BufferPointer<Node> NodeP; struct Node { float4 x; NodeP next; };\n\
         struct PC { NodeP root; }; [[vk::push_constant]] PC pc; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = pc.root.Get().next.Get().x; }",
        "cs_6_0",
    );
    let fwd = text.find("OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node PhysicalStorageBuffer").expect("forward pointer");
    let node = text.find("%Node = OpTypeStruct %v4float %_ptr_PhysicalStorageBuffer_Node").expect("struct");
    let ptr = text.find("%_ptr_PhysicalStorageBuffer_Node = OpTypePointer PhysicalStorageBuffer %Node").expect("pointer");
    assert!(fwd < node && node < ptr, "{text}");
    has(&text, &["OpMemberDecorate %Node 1 Offset 16"]);
}
