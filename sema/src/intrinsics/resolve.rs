//! Overload resolution against the intrinsic table.
//!
//! How a signature is read (after DXC's reading of `gen_intrin_main.txt`):
//! - Each type slot (0 = return, 1.. = parameters) has a *layout group* and a *component group*:
//!   its own index, or those named by `match(L, C)`. Arguments in one layout group with layout
//!   `<>` share one shape: scalars splat, vectors of different lengths meet at the shortest.
//!   Arguments in one component group share one component kind: the highest-ranked of the
//!   arguments' kinds (concrete types beat literals), replaced by the class's default (`float`
//!   for `float_like` and `numeric`, `int` for `any_int`) when not allowed by a lenient class;
//!   strict classes (`*_only`, the sized `any_int16or32`/`any_int32`/`any_int64`) reject other
//!   kinds. dxc converts a `float` argument of `firstbithigh`/`countbits`/`reversebits`
//!   (`any_int<>`) to `int`: `firstbithigh(1.5)` is `FindSMsb` of `int(1.5)`.
//! - Fixed layouts (`float<2>`, `numeric<c>`, `<r, c>`) bind dimension variables; a variable
//!   must agree wherever it is used.
//! - `$N` is exactly slot N's type; `$classT` is the object's template type; `$funcT` the call's
//!   template argument (default `uint`).
//! - Each overload's cost is the sum of its arguments' implicit-conversion costs; the cheapest
//!   wins, earlier overloads winning ties.

use super::{ArgSpec, Base, Dim, Dir, IntrinsicOp, Layout, Overload, Special};
use crate::check::conversions::implicit_cost;
use crate::types::{MatrixLayout, ObjectKind, ScalarKind, Shape, Type, TypeId, TypeTable};

/// An argument as the resolver sees it.
#[derive(Copy, Clone, Debug)]
pub struct CallArg {
    pub ty: TypeId,
    pub lvalue: bool,
}

/// The chosen overload with its concrete types.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub overload: &'static Overload,
    /// `overload.op`, or its unsigned variant.
    pub op: IntrinsicOp,
    pub ret: TypeId,
    /// The type of each parameter (one per argument; variadic extras keep the argument type).
    pub params: Vec<TypeId>,
    /// Direction of each parameter.
    pub dirs: Vec<Dir>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No overload takes this many arguments; carries the counts that exist.
    ArgCount(Vec<usize>),
    /// No overload accepts the arguments; carries the first argument an overload taking this
    /// many arguments could not convert, when one could be named.
    NoMatch(Option<Mismatch>),
}

/// An argument an overload could not take: clang's "no known conversion from A to P for the
/// Nth argument" note of the call's candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Zero-based argument index.
    pub arg: usize,
    /// The parameter's type in the overload.
    pub param: TypeId,
    /// The parameter is `out`/`inout` (a reference in clang's spelling).
    pub by_ref: bool,
}

/// Resolves a call of `cands` (all overloads of one name) with `args`. `object` is the object's
/// type for a method call; `func_t` the explicit template argument.
pub fn resolve(
    types: &mut TypeTable,
    cands: &[&'static Overload],
    args: &[CallArg],
    object: Option<TypeId>,
    func_t: Option<TypeId>,
) -> Result<Resolved, ResolveError> {
    let mut best: Option<(u32, Resolved)> = None;
    let mut any_count = false;
    let mut mismatch = None;
    for o in cands {
        let count_ok = if o.variadic { args.len() >= o.params.len() } else { args.len() == o.params.len() };
        if !count_ok {
            continue;
        }
        any_count = true;
        let mut why = None;
        if let Some((cost, r)) = try_overload(types, o, args, object, func_t, &mut why) {
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, r));
            }
        }
        mismatch = mismatch.or(why);
    }
    match best {
        Some((_, r)) => Ok(r),
        None if !any_count => {
            let mut counts: Vec<usize> = cands.iter().map(|o| o.params.len()).collect();
            counts.sort_unstable();
            counts.dedup();
            Err(ResolveError::ArgCount(counts))
        }
        None => Err(ResolveError::NoMatch(mismatch)),
    }
}

/// Allowed components of a class, default first; `strict` classes reject other kinds.
fn class_kinds(base: Base) -> Option<(&'static [ScalarKind], bool)> {
    use ScalarKind::*;
    const NUMERIC: &[ScalarKind] =
        &[Float, Int, UInt, Double, Half, Int16, UInt16, Int64, UInt64, Min16Float, Min10Float, Min16Int, Min12Int, Min16UInt];
    const ANY: &[ScalarKind] = &[
        Float, Int, UInt, Bool, Double, Half, Int16, UInt16, Int64, UInt64, Min16Float, Min10Float, Min16Int, Min12Int,
        Min16UInt,
    ];
    Some(match base {
        Base::Numeric => (NUMERIC, false),
        Base::Any => (ANY, false),
        Base::FloatLike => (&[Float, Half, Min16Float, Min10Float], false),
        Base::AnyFloat => (&[Float, Half, Double, Min16Float, Min10Float], false),
        Base::AnyInt => (&[Int, UInt, Int16, UInt16, Int64, UInt64, Min16Int, Min12Int, Min16UInt], false),
        Base::AnyInt16or32 => (&[Int, UInt, Int16, UInt16, Min16Int, Min12Int, Min16UInt], true),
        Base::AnyInt32 => (&[Int, UInt], true),
        Base::AnyInt64 => (&[Int64, UInt64], true),
        Base::DoubleOnly => (&[Double], true),
        Base::Float32Only => (&[Float], true),
        Base::Int32Only => (&[Int, UInt], true),
        Base::Int64Only => (&[Int64, UInt64], true),
        Base::Numeric16Only => (&[Half, Int16, UInt16], true),
        Base::Numeric32Only => (&[Float, Int, UInt, Min16Float, Min10Float, Min16Int, Min12Int, Min16UInt], true),
        Base::SInt16or32Only => (&[Int, Int16, Min16Int, Min12Int], true),
        Base::UIntOnly => (&[UInt, UInt64, UInt16, Min16UInt], true),
        Base::Bool => (&[Bool], false),
        Base::Int => (&[Int], false),
        Base::UInt | Base::P32I8 | Base::P32U8 => (&[UInt], false),
        Base::UInt64 => (&[UInt64], false),
        Base::Float => (&[Float], false),
        Base::Double => (&[Double], false),
        Base::Int16 => (&[Int16], false),
        Base::UInt16 => (&[UInt16], false),
        Base::Float16 => (&[Half], false),
        _ => return None,
    })
}

fn is_fixed_kind(base: Base) -> bool {
    matches!(
        base,
        Base::Bool
            | Base::Int
            | Base::UInt
            | Base::UInt64
            | Base::Float
            | Base::Double
            | Base::Int16
            | Base::UInt16
            | Base::Float16
            | Base::P32I8
            | Base::P32U8
    )
}

/// Combines argument component kinds as binary operators do.
fn combine(kinds: &[ScalarKind]) -> Option<ScalarKind> {
    let mut best: Option<ScalarKind> = None;
    for &k in kinds {
        best = Some(match best {
            None => k,
            Some(b) => {
                let w = if k.rank() > b.rank() { k } else { b };
                let other = if w == k { b } else { k };
                if w == ScalarKind::LitFloat && !other.is_literal() && !other.is_float() {
                    ScalarKind::Float
                } else if w.is_literal() && !other.is_literal() {
                    other
                } else {
                    w
                }
            }
        });
    }
    best.map(ScalarKind::concrete)
}

fn combine_shapes(shapes: &[Shape]) -> Shape {
    let mut out = Shape::Scalar;
    for &s in shapes {
        out = match (out, s) {
            (Shape::Scalar, s) => s,
            (o, Shape::Scalar) => o,
            (Shape::Vector(a), Shape::Vector(b)) => Shape::Vector(a.min(b)),
            (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => Shape::Matrix(r1.min(r2), c1.min(c2)),
            (o, _) => o,
        };
    }
    out
}

/// Follows `match` indices to the representative slot of a group (-1/-2/-3 are kept).
fn group_of(specs: &[ArgSpec], slot: i8, layout: bool) -> i8 {
    let mut cur = slot;
    for _ in 0..8 {
        if cur < 0 {
            return cur;
        }
        let Some(spec) = specs.get(cur as usize) else { return cur };
        let next = if layout { spec.layout_from } else { spec.comp_from };
        match next {
            Some(n) if n != cur => cur = n,
            _ => return cur,
        }
    }
    cur
}

/// Whether argument slot `s` belongs to group `g`: directly, or as a `$typeN` slot whose source
/// is in it (`max(in numeric<> a, in $type1 b)` takes its type from both arguments, so
/// `max(0, f)` is a float max, as in DXC).
fn in_group(specs: &[ArgSpec], s: usize, g: i8, layout: bool) -> bool {
    match specs[s].same_as {
        None => group_of(specs, s as i8, layout) == g,
        Some(src) => specs.get(src as usize).is_some_and(|sp| sp.same_as.is_none()) && group_of(specs, src as i8, layout) == g,
    }
}

fn object_elem(types: &TypeTable, object: Option<TypeId>) -> Option<TypeId> {
    match object.map(|o| types.get(o)) {
        Some(Type::Object { elem, .. }) => *elem,
        _ => None,
    }
}

fn try_overload(
    types: &mut TypeTable,
    o: &'static Overload,
    args: &[CallArg],
    object: Option<TypeId>,
    func_t: Option<TypeId>,
    mismatch: &mut Option<Mismatch>,
) -> Option<(u32, Resolved)> {
    let n = o.params.len();
    let mut specs: Vec<ArgSpec> = Vec::with_capacity(n + 1);
    specs.push(o.ret);
    specs.extend(o.params.iter().map(|p| p.ty));
    // `$typeN` on a numeric parameter N is `$match<N, N>` with N's class and layout: a member of
    // N's shape and component groups, so `max(float, float4)` splats to `float4` and
    // `pow(float4, float2)` meets at `float2`, rather than a copy of N's type.
    for slot in 0..specs.len() {
        let Some(src) = specs[slot].same_as else { continue };
        let s = src as usize;
        if s == 0 || s >= specs.len() || specs[s].same_as.is_some() || specs[s].special != Special::None || class_kinds(specs[s].base).is_none() {
            continue;
        }
        specs[slot] = ArgSpec { layout_from: Some(src as i8), comp_from: Some(src as i8), same_as: None, ..specs[s] };
    }
    // Argument type per slot (None for the return value).
    let arg_ty = |slot: usize| if slot == 0 { None } else { Some(args[slot - 1].ty) };
    let mut vars: [Option<u8>; 4] = [None; 4];
    let mut cost = 0u32;
    let mut final_ty: Vec<Option<TypeId>> = vec![None; n + 1];

    // Non-numeric bases and specials first.
    for slot in 0..=n {
        let spec = specs[slot];
        if spec.same_as.is_some() {
            continue;
        }
        let resolved = match spec.special {
            Special::ClassT => Some(object_elem(types, object)?),
            // Without `<T>`, a template parameter deduces T from its argument (`Store(0, s)`
            // stores an `S`); only a result (`Load`) defaults to `uint`.
            Special::FuncT | Special::FuncT2 => Some(match (func_t, arg_ty(slot)) {
                (Some(t), _) => t,
                (None, Some(a)) => match types.component(a) {
                    Some(k) if k.is_literal() => types.with_component(a, k.concrete()),
                    _ => a,
                },
                (None, None) => types.uint(),
            }),
            Special::None => None,
        };
        if let Some(t) = resolved {
            final_ty[slot] = Some(t);
            continue;
        }
        if spec.base == Base::Void && spec.layout_from == Some(-1) {
            // `match(-1, _) void`: the object's template type.
            final_ty[slot] = Some(object_elem(types, object)?);
            continue;
        }
        if spec.base == Base::Void && spec.comp_from != Some(-1) {
            final_ty[slot] = Some(TypeTable::VOID);
            continue;
        }
        if slot == 0 && class_kinds(spec.base).is_none() && spec.base != Base::Void {
            // An object returned: `dx::HitObject`, or output records of the node's record type.
            final_ty[0] = Some(match spec.base {
                Base::DxHitObject => types.object(ObjectKind::DxHitObject, None, None),
                Base::ThreadNodeOutputRecords => {
                    let e = object_elem(types, object)?;
                    types.object(ObjectKind::ThreadNodeOutputRecords, Some(e), None)
                }
                Base::GroupNodeOutputRecords => {
                    let e = object_elem(types, object)?;
                    types.object(ObjectKind::GroupNodeOutputRecords, Some(e), None)
                }
                _ => return None,
            });
            continue;
        }
        if class_kinds(spec.base).is_none() && spec.base != Base::Void {
            // An object or structure parameter: the argument must be one.
            let a = arg_ty(slot)?;
            if !matches_special_base(types, spec.base, a) {
                return None;
            }
            final_ty[slot] = Some(a);
        }
    }

    // Shapes.
    let mut shapes: Vec<Option<Shape>> = vec![None; n + 1];
    for slot in 1..=n {
        let spec = specs[slot];
        if final_ty[slot].is_some() || spec.same_as.is_some() {
            continue;
        }
        let a = args[slot - 1].ty;
        let ashape = types.shape(a).or(if types.is_error(a) { Some(Shape::Scalar) } else { None })?;
        match spec.layout {
            Layout::Any => {}
            Layout::Scalar => {
                // A scalar parameter takes a scalar (or one-component) argument; DXC does not
                // truncate a vector to match it (`mul(float3, float4x4)` is the vector-matrix
                // overload with the matrix truncated, not the scalar one).
                shapes[slot] = Some(Shape::Scalar);
                if !matches!(ashape, Shape::Scalar | Shape::Vector(1) | Shape::Matrix(1, 1)) {
                    return None;
                }
            }
            Layout::Vector(d) => {
                let len = match ashape {
                    Shape::Scalar => 1,
                    Shape::Vector(k) => k,
                    Shape::Matrix(..) => return None,
                };
                let want = match d {
                    Dim::Fixed(k) => k,
                    Dim::Var(v) => *vars[v as usize].get_or_insert(len),
                };
                if len < want && ashape != Shape::Scalar {
                    return None;
                }
                if len != want {
                    cost += if ashape == Shape::Scalar { 2 } else { 8 };
                }
                shapes[slot] = Some(if want == 1 && ashape == Shape::Scalar { Shape::Scalar } else { Shape::Vector(want) });
            }
            Layout::Matrix(dr, dc) => {
                let (r, c) = match ashape {
                    Shape::Matrix(r, c) => (r, c),
                    _ => return None,
                };
                let mut bind = |d: Dim, have: u8| match d {
                    Dim::Fixed(k) => k,
                    Dim::Var(v) => *vars[v as usize].get_or_insert(have),
                };
                let (wr, wc) = (bind(dr, r), bind(dc, c));
                if wr > r || wc > c {
                    return None;
                }
                if (wr, wc) != (r, c) {
                    cost += 8;
                }
                shapes[slot] = Some(Shape::Matrix(wr, wc));
            }
        }
    }
    // `<>` slots take the combined shape of their layout group.
    for slot in 0..=n {
        let spec = specs[slot];
        if final_ty[slot].is_some() || spec.same_as.is_some() || shapes[slot].is_some() {
            continue;
        }
        let g = group_of(&specs, slot as i8, true);
        let shape = if g == -1 {
            let e = object_elem(types, object)?;
            types.shape(e)?
        } else if spec.layout != Layout::Any {
            // The return value with a fixed layout.
            match spec.layout {
                Layout::Scalar => Shape::Scalar,
                Layout::Vector(Dim::Fixed(k)) => Shape::Vector(k),
                Layout::Vector(Dim::Var(v)) => {
                    let k = vars[v as usize].unwrap_or(1);
                    if k == 1 && slot == 0 { Shape::Scalar } else { Shape::Vector(k) }
                }
                Layout::Matrix(r, c) => {
                    let d = |d: Dim| match d {
                        Dim::Fixed(k) => k,
                        Dim::Var(v) => vars[v as usize].unwrap_or(1),
                    };
                    Shape::Matrix(d(r), d(c))
                }
                Layout::Any => unreachable!(),
            }
        } else {
            let mut member_shapes = Vec::new();
            for s in 1..=n {
                if final_ty[s].is_none() && specs[s].layout == Layout::Any && in_group(&specs, s, g, true) {
                    member_shapes.push(types.shape(args[s - 1].ty).unwrap_or(Shape::Scalar));
                }
            }
            if g > 0 && (g as usize) != slot && shapes[g as usize].is_some() {
                shapes[g as usize].unwrap()
            } else {
                combine_shapes(&member_shapes)
            }
        };
        shapes[slot] = Some(shape);
    }

    // Components.
    let mut comps: Vec<Option<ScalarKind>> = vec![None; n + 1];
    for slot in 0..=n {
        let spec = specs[slot];
        if final_ty[slot].is_some() || spec.same_as.is_some() {
            continue;
        }
        let g = group_of(&specs, slot as i8, false);
        let kind = if g == -1 || spec.comp_from == Some(-1) {
            let e = object_elem(types, object)?;
            types.component(e)?
        } else if is_fixed_kind(spec.base) {
            class_kinds(spec.base)?.0[0]
        } else {
            let mut kinds = Vec::new();
            for s in 1..=n {
                if final_ty[s].is_none() && in_group(&specs, s, g, false) {
                    if let Some(k) = types.component(args[s - 1].ty) {
                        kinds.push(k);
                    }
                }
            }
            let (legal, strict) = class_kinds(spec.base).unwrap_or((&[ScalarKind::Float], false));
            // An atomic's destination (its `ref` argument, or the buffer of a method) chooses
            // the overload; its other values convert to the class's default, as DXC accepts
            // `InterlockedExchange(intDest, floatValue, floatOriginal)` and literal values.
            let atomic_value = o.name.starts_with("Interlocked")
                && !(1..=n).any(|s| group_of(&specs, s as i8, false) == g && o.params[s - 1].dir == Dir::Ref);
            match combine(&kinds) {
                Some(k) if legal.contains(&k) => k,
                Some(_) if strict && !atomic_value => {
                    // The first argument of the group whose kind the class refuses.
                    let bad = (1..=n).find(|&s| {
                        specs[s].same_as.is_none()
                            && final_ty[s].is_none()
                            && group_of(&specs, s as i8, false) == g
                            && types.component(args[s - 1].ty).is_some_and(|k| !legal.contains(&k))
                    });
                    if let Some(s) = bad {
                        let shape = shapes[s].unwrap_or(Shape::Scalar);
                        let param = types.of_shape(legal[0], shape, MatrixLayout::RowMajor);
                        *mismatch = Some(Mismatch { arg: s - 1, param, by_ref: o.params[s - 1].dir != Dir::In });
                    }
                    return None;
                }
                _ => legal[0],
            }
        };
        comps[slot] = Some(kind);
    }
    for slot in 0..=n {
        if final_ty[slot].is_none() && specs[slot].same_as.is_none() {
            let (k, s) = (comps[slot]?, shapes[slot]?);
            final_ty[slot] = Some(types.of_shape(k, s, MatrixLayout::RowMajor));
        }
    }
    for slot in 0..=n {
        if let Some(src) = specs[slot].same_as {
            final_ty[slot] = Some(final_ty.get(src as usize).copied().flatten()?);
        }
    }

    // Argument conversion costs.
    let mut params = Vec::with_capacity(args.len());
    let mut dirs = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let (pty, dir) = if i < n { (final_ty[i + 1]?, o.params[i].dir) } else { (a.ty, Dir::In) };
        let c = match dir {
            Dir::In | Dir::GroupShared => implicit_cost(types, a.ty, pty),
            Dir::Out => implicit_cost(types, pty, a.ty),
            Dir::InOut | Dir::Ref => implicit_cost(types, a.ty, pty).zip(implicit_cost(types, pty, a.ty)).map(|(x, y)| x.max(y)),
        };
        let Some(c) = c else {
            *mismatch = Some(Mismatch { arg: i, param: pty, by_ref: !matches!(dir, Dir::In | Dir::GroupShared) });
            return None;
        };
        cost += c;
        params.push(pty);
        dirs.push(dir);
    }
    let ret = final_ty[0]?;
    let unsigned = (1..=n).any(|s| {
        !is_fixed_kind(specs[s].base)
            && class_kinds(specs[s].base).is_some()
            && comps[s].is_some_and(|k| k.is_unsigned())
    });
    let op = match (unsigned, o.unsigned_op) {
        (true, Some(u)) => u,
        _ => o.op,
    };
    Some((cost, Resolved { overload: o, op, ret, params, dirs }))
}

fn matches_special_base(types: &TypeTable, base: Base, ty: TypeId) -> bool {
    let t = types.get(ty);
    if matches!(t, Type::Error) {
        return true;
    }
    let obj = |k: ObjectKind| matches!(t, Type::Object { kind, .. } if *kind == k);
    match base {
        Base::Sampler | Base::Sampler1D | Base::Sampler2D | Base::Sampler3D | Base::SamplerCube => {
            obj(ObjectKind::SamplerState)
        }
        Base::SamplerCmp => obj(ObjectKind::SamplerComparisonState),
        Base::AnySampler => obj(ObjectKind::SamplerState) || obj(ObjectKind::SamplerComparisonState),
        Base::Udt => matches!(t, Type::Struct(_)),
        Base::RayDesc => matches!(t, Type::Struct(s) if types.structs[s.0 as usize].name == "RayDesc"),
        Base::AccelerationStruct => obj(ObjectKind::RaytracingAccelerationStructure),
        Base::String => matches!(t, Type::String),
        Base::Resource => matches!(t, Type::Object { .. }),
        Base::ByteAddressBuffer => obj(ObjectKind::ByteAddressBuffer),
        Base::RWByteAddressBuffer => obj(ObjectKind::RWByteAddressBuffer),
        Base::Texture2D => obj(ObjectKind::Texture2D),
        Base::Texture2DArray => obj(ObjectKind::Texture2DArray),
        Base::RayQuery => obj(ObjectKind::RayQuery),
        Base::VkBufferPointer => obj(ObjectKind::VkBufferPointer),
        Base::DxHitObject => obj(ObjectKind::DxHitObject),
        Base::NodeRecordOrUav => {
            matches!(t, Type::Object { kind, .. } if kind.is_node_record() || kind.is_writable())
        }
        _ => false,
    }
}
