//! Inline SPIR-V types: `vk::SpirvType`, `vk::SpirvOpaqueType`, `vk::ext_type`, `vk::ext_result_id`.
mod common;
use common::{err, ok};
use hlslc_sema::tast::Module;
use hlslc_sema::types::{InlineSpirvType, SpirvOperand, Type};

fn var_type<'m>(m: &'m Module, name: &str) -> &'m Type {
    let v = m.vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"));
    m.types.get(v.ty)
}

#[test]
fn spirv_type_keeps_opcode_layout_and_operands_in_order() {
    let m = ok("typedef vk::SpirvType<21, 1, 1, vk::Literal<vk::integral_constant<uint, 8> >,
            vk::Literal<vk::integral_constant<bool, true> > > u8;
        typedef vk::SpirvOpaqueType<28, Texture2D, vk::integral_constant<uint, 4> > Arr;
        float4 main() : SV_Target { u8 a; Arr b; return 0; }");
    let Type::InlineSpirv(InlineSpirvType::Inline { opcode, size_align, operands }) = var_type(&m, "a") else { panic!() };
    assert_eq!((*opcode, *size_align), (21, Some((1, 1))));
    assert_eq!(operands, &[SpirvOperand::Literal(8), SpirvOperand::Literal(1)]);
    let Type::InlineSpirv(InlineSpirvType::Inline { opcode, size_align, operands }) = var_type(&m, "b") else { panic!() };
    assert_eq!((*opcode, *size_align), (28, None));
    let [SpirvOperand::Type(tex), SpirvOperand::Constant { ty, value: 4 }] = operands.as_slice() else { panic!("{operands:?}") };
    assert_eq!(m.types.name(*tex), "Texture2D<float4>");
    assert_eq!(m.types.name(*ty), "uint");
}

#[test]
fn the_same_spirv_type_written_twice_is_one_type() {
    let m = ok("using A = vk::SpirvOpaqueType<5341>;
        float4 main() : SV_Target { A a; vk::SpirvOpaqueType<5341> b; vk::SpirvOpaqueType<5342> c; return 0; }");
    let id = |n: &str| m.vars.iter().find(|v| v.name == n).unwrap().ty;
    assert_eq!(id("a"), id("b"));
    assert_ne!(id("a"), id("c"));
}

#[test]
fn ext_type_and_ext_result_id() {
    let m = ok("[[vk::ext_type_def(0, 21)]] void mkInt([[vk::ext_literal]] int bits, [[vk::ext_literal]] int sign);
        [[vk::ext_instruction(61)]] vk::ext_result_id<float> load([[vk::ext_reference]] float p, [[vk::ext_literal]] int m);
        vk::ext_type<0> t;
        float4 main() : SV_Target { mkInt(32, 0); float f = 1; vk::ext_result_id<float> r = load(f, 0); return r; }");
    assert_eq!(var_type(&m, "t"), &Type::InlineSpirv(InlineSpirvType::Def(0)));
    assert_eq!(m.types.name(m.vars.iter().find(|v| v.name == "r").unwrap().ty), "float");
}

#[test]
fn bad_inline_spirv_arguments_are_reported() {
    let r = err("typedef vk::SpirvOpaqueType<28, Texture2D, vk::Literal<bool> > Bad; float4 main() : SV_Target { Bad b; return 0; }");
    assert!(r.contains("The template argument to vk::Literal must be a vk::integral_constant"), "{r}");
    let r = err("typedef vk::SpirvType<21, 1> Bad; float4 main() : SV_Target { return 0; }");
    assert!(r.contains("requires an opcode, a size and an alignment"), "{r}");
    let r = err("typedef vk::SpirvType<21, 4, 3> Bad; float4 main() : SV_Target { return 0; }");
    assert!(r.contains("must be a power of two"), "{r}");
    let r = err("typedef vk::SpirvOpaqueType<21, vk::integral_constant<float, 1> > Bad; float4 main() : SV_Target { return 0; }");
    assert!(r.contains("must be an integer or bool type ('float' given)"), "{r}");
    let r = err("typedef vk::SpirvOpaqueType<-1> Bad; float4 main() : SV_Target { return 0; }");
    assert!(r.contains("does not fit in a 32-bit word"), "{r}");
}

fn casts(m: &Module) -> Vec<(hlslc_sema::tast::CastKind, String)> {
    m.exprs
        .iter()
        .filter_map(|e| match e.kind {
            hlslc_sema::tast::ExprKind::Cast { kind, .. } => Some((kind, m.types.name(e.ty))),
            _ => None,
        })
        .collect()
}

#[test]
fn buffer_pointers_convert_explicitly_to_and_from_addresses() {
    use hlslc_sema::tast::CastKind::{AddressToPointer, PointerToAddress};
    let m = ok("struct S { float a; };
        float4 main() : SV_Target {
            uint64_t addr = 16;
            vk::BufferPointer<S> p = vk::BufferPointer<S>(addr);
            vk::BufferPointer<S, 8> q = vk::BufferPointer<S, 8>(uint2(4, 0));
            uint64_t back = (uint64_t)p;
            uint low = (uint)q;
            return p.Get().a + sizeof(p);
        }");
    let c = casts(&m);
    assert!(c.contains(&(AddressToPointer, "vk::BufferPointer<S>".into())), "{c:?}");
    assert!(c.contains(&(AddressToPointer, "vk::BufferPointer<S, 8>".into())), "{c:?}");
    assert_eq!(c.iter().filter(|x| x.0 == PointerToAddress).count(), 2, "{c:?}");
    // No implicit conversion either way, and none from floats.
    let r = err("struct S { float a; }; float4 main() : SV_Target { uint64_t a = 0; vk::BufferPointer<S> p = a; return 0; }");
    assert!(r.contains("cannot convert from 'uint64_t' to 'vk::BufferPointer<S>'"), "{r}");
    let r = err("struct S { float a; }; float4 main() : SV_Target { vk::BufferPointer<S> p = vk::BufferPointer<S>(1.5); return 0; }");
    assert!(r.contains("cannot convert from"), "{r}");
}

#[test]
fn sizeof_a_buffer_pointer_is_eight_and_a_struct_wraps_one() {
    let m = ok("template <typename T> struct Accessor { vk::BufferPointer<T> ptr; };
        cbuffer C { vk::BufferPointer<float> buf; };
        static const uint n = sizeof(vk::BufferPointer<float>);
        float4 main() : SV_Target { Accessor<float> a = Accessor<float>(buf); return a.ptr.Get(); }");
    let n = m.vars.iter().find(|v| v.name == "n").unwrap();
    assert_eq!(m.types.name(n.ty), "uint");
    assert!(m.exprs.iter().any(|e| matches!(e.kind, hlslc_sema::tast::ExprKind::Const(hlslc_sema::tast::ConstValue::Int(8)))));
}

#[test]
fn typedef_of_a_forward_declared_struct_names_the_later_definition() {
    let m = ok("typedef struct node_s node_t;
        typedef vk::BufferPointer<node_t, 16> node_p;
        struct node_s { float4 x; node_p next; };
        typedef struct node_s same_t;
        float4 main() : SV_Target { node_t n; n.x = 1; same_t s = n; return s.x; }");
    let n = m.vars.iter().find(|v| v.name == "n").unwrap().ty;
    let s = m.vars.iter().find(|v| v.name == "s").unwrap().ty;
    assert_eq!(n, s);
    assert_eq!(m.types.name(n), "node_s");
}
