use super::*;

#[test]
fn interning_gives_equal_ids() {
    let mut t = TypeTable::new();
    let a = t.vector(ScalarKind::Float, 4);
    let b = t.intern(Type::Vector(ScalarKind::Float, 4));
    assert_eq!(a, b);
    assert_ne!(a, t.vector(ScalarKind::Float, 3));
    assert!(t.is_error(TypeTable::ERROR));
    assert!(t.is_void(TypeTable::VOID));
    // The scalar of an interned vector is interned too.
    assert!(t.find(&Type::Scalar(ScalarKind::Float)).is_some());
}

#[test]
fn names_as_dxc_prints_them() {
    let mut t = TypeTable::new();
    let f4 = t.vector(ScalarKind::Float, 4);
    assert_eq!(t.name(f4), "float4");
    let m = t.matrix(ScalarKind::Float, 3, 4, MatrixLayout::RowMajor);
    assert_eq!(t.name(m), "float3x4");
    let u2 = t.vector(ScalarKind::Min16UInt, 2);
    assert_eq!(t.name(u2), "min16uint2");
    let lit = t.scalar(ScalarKind::LitFloat);
    assert_eq!(t.name(lit), "literal float");
    let lv = t.vector(ScalarKind::LitInt, 2);
    assert_eq!(t.name(lv), "vector<literal int, 2>");
    let arr = t.array(f4, Some(4));
    let arr2 = t.array(arr, Some(2));
    assert_eq!(t.name(arr2), "float4 [2][4]");
    let tex = t.object(ObjectKind::Texture2D, Some(f4), None);
    assert_eq!(t.name(tex), "Texture2D<float4>");
    let ms = t.object(ObjectKind::Texture2DMS, Some(f4), Some(8));
    assert_eq!(t.name(ms), "Texture2DMS<float4, 8>");
    let sampler = t.object(ObjectKind::SamplerState, None, None);
    assert_eq!(t.name(sampler), "SamplerState");
}

#[test]
fn shapes_counts_and_layout_equality() {
    let mut t = TypeTable::new();
    let a = t.matrix(ScalarKind::Float, 2, 3, MatrixLayout::RowMajor);
    let b = t.matrix(ScalarKind::Float, 2, 3, MatrixLayout::ColumnMajor);
    assert_ne!(a, b);
    assert!(t.same_value_type(a, b));
    assert_eq!(t.shape(a), Some(Shape::Matrix(2, 3)));
    assert_eq!(t.flat_count(a), Some(6));
    let arr = t.array(a, Some(3));
    assert_eq!(t.flat_count(arr), Some(18));
    let un = t.array(a, None);
    assert_eq!(t.flat_count(un), None);
    let f = t.float();
    let (_, s) = t.add_struct(StructDef {
        name: "S".into(),
        kind: hlslc_frontend::ast::StructKind::Struct,
        bases: vec![],
        fields: vec![Field { name: "x".into(), ty: f, semantic: None, interpolation: Default::default(), precise: false, vk: Default::default() }, Field {
            name: "m".into(),
            ty: arr,
            semantic: None,
            interpolation: Default::default(),
            precise: false,
            vk: Default::default(),
        }],
        methods: vec![],
        complete: true,
    });
    assert_eq!(t.flat_count(s), Some(19));
    assert!(!t.contains_object(s));
    assert_eq!(t.name(s), "S");
}

#[test]
fn scalar_ranks_order_conversions() {
    use ScalarKind::*;
    assert!(Float.rank() > Int.rank());
    assert!(UInt.rank() > Int.rank());
    assert!(Double.rank() > Float.rank());
    assert!(Half.rank() > LitFloat.rank(), "a literal float adapts to half");
    assert!(Int.rank() > LitInt.rank());
    assert_eq!(LitInt.concrete(), Int);
    assert_eq!(LitFloat.concrete(), Float);
    assert!(Min16Float.is_min_precision() && Min16Float.is_float());
}
