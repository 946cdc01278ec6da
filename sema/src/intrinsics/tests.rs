use super::*;
use crate::types::{MatrixLayout, ObjectKind, ScalarKind, TypeTable};

#[test]
fn table_covers_the_reference_groups() {
    let names: Vec<&str> = GROUPS.iter().map(|g| g.0).collect();
    for g in ["Intrinsics", "VkIntrinsics", "Texture2DMethods", "RWByteAddressBufferMethods", "RayQueryMethods", "StreamMethods"] {
        assert!(names.contains(&g), "missing group {g}");
    }
    let total: usize = GROUPS.iter().map(|g| g.1.len()).sum();
    assert!(total > 1200, "only {total} overloads");
    assert_eq!(overloads("Intrinsics", "mul").len(), 9);
    assert!(is_intrinsic_function("lerp"));
    assert!(!is_intrinsic_function("Sample"));
}

fn arg(t: TypeId) -> CallArg {
    CallArg { ty: t, lvalue: true }
}
use crate::types::TypeId;

#[test]
fn float_like_converts_ints_to_float() {
    let mut t = TypeTable::new();
    let i3 = t.vector(ScalarKind::Int, 3);
    let r = resolve(&mut t, &overloads("Intrinsics", "sin"), &[arg(i3)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "float3");
    assert_eq!(r.op, IntrinsicOp::Sin);
}

#[test]
fn literal_args_take_the_concrete_type() {
    let mut t = TypeTable::new();
    let lit = t.scalar(ScalarKind::LitFloat);
    let h = t.vector(ScalarKind::Min16Float, 2);
    let r = resolve(&mut t, &overloads("Intrinsics", "lerp"), &[arg(h), arg(h), arg(lit)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "min16float2");
    assert_eq!(t.name(r.params[2]), "min16float2");
}

#[test]
fn strict_classes_reject() {
    let mut t = TypeTable::new();
    let f = t.float();
    let u = t.uint();
    // `fma`'s `double_only` refuses the float of its first parameter.
    match resolve(&mut t, &overloads("Intrinsics", "fma"), &[arg(f), arg(f), arg(f)], None, None).unwrap_err() {
        ResolveError::NoMatch(Some(why)) => {
            assert_eq!((why.arg, why.by_ref), (0, false));
            assert!(t.component(why.param).is_some_and(|k| k == ScalarKind::Double), "{}", t.name(why.param));
        }
        e => panic!("{e:?}"),
    }
    // `any_int<>` is lenient, as dxc: a float converts to `int` (its first kind).
    let r = resolve(&mut t, &overloads("Intrinsics", "countbits"), &[arg(f)], None, None).unwrap();
    assert_eq!(t.name(r.params[0]), "int");
    let r = resolve(&mut t, &overloads("Intrinsics", "countbits"), &[arg(u)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "uint");
    assert_eq!(resolve(&mut t, &overloads("Intrinsics", "countbits"), &[], None, None).unwrap_err(), ResolveError::ArgCount(vec![1]));
}

#[test]
fn mul_matrix_vector() {
    let mut t = TypeTable::new();
    let m = t.matrix(ScalarKind::Float, 3, 4, MatrixLayout::ColumnMajor);
    let v = t.vector(ScalarKind::Float, 4);
    let r = resolve(&mut t, &overloads("Intrinsics", "mul"), &[arg(m), arg(v)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "float3");
    assert_eq!(r.overload.lowering, "mul_mv");
    let r = resolve(&mut t, &overloads("Intrinsics", "mul"), &[arg(v), arg(v)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "float");
}

#[test]
fn methods_use_the_object_type() {
    let mut t = TypeTable::new();
    let f2 = t.vector(ScalarKind::Float, 2);
    let u4 = t.vector(ScalarKind::UInt, 4);
    let tex = t.object(ObjectKind::Texture2D, Some(u4), None);
    let s = t.object(ObjectKind::SamplerState, None, None);
    let r = resolve(&mut t, &overloads("Texture2DMethods", "Sample"), &[arg(s), arg(f2)], Some(tex), None).unwrap();
    assert_eq!(r.ret, u4);
    let r = resolve(&mut t, &overloads("Texture2DMethods", "Gather"), &[arg(s), arg(f2)], Some(tex), None).unwrap();
    assert_eq!(t.name(r.ret), "uint4");
    // A comparison sampler does not fit `Sample`.
    let sc = t.object(ObjectKind::SamplerComparisonState, None, None);
    assert!(resolve(&mut t, &overloads("Texture2DMethods", "Sample"), &[arg(sc), arg(f2)], Some(tex), None).is_err());
    let bab = t.object(ObjectKind::ByteAddressBuffer, None, None);
    let u = t.uint();
    let r = resolve(&mut t, &overloads("ByteAddressBufferMethods", "Load"), &[arg(u)], Some(bab), Some(f2)).unwrap();
    assert_eq!(r.ret, f2);
}

#[test]
fn type1_arguments_take_part_in_the_component_and_shape() {
    // max(in numeric<> a, in $type1 b): `max(0, f)` is a float max and `max(0.5, v)` a float3 one.
    let mut t = TypeTable::new();
    let lit = t.scalar(ScalarKind::LitInt);
    let f = t.float();
    let r = resolve(&mut t, &overloads("Intrinsics", "max"), &[arg(lit), arg(f)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "float");
    assert_eq!(t.name(r.params[0]), "float");
    let litf = t.scalar(ScalarKind::LitFloat);
    let v = t.vector(ScalarKind::Float, 3);
    let r = resolve(&mut t, &overloads("Intrinsics", "max"), &[arg(litf), arg(v)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "float3");
    let i = t.int();
    let r = resolve(&mut t, &overloads("Intrinsics", "max"), &[arg(i), arg(i)], None, None).unwrap();
    assert_eq!(t.name(r.ret), "int");
}
