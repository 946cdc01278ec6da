//! The intrinsic table: every HLSL intrinsic function and built-in object method, generated at
//! build time from `sema/intrinsics/intrinsics.def` (format described in that file), and the
//! overload resolution against it ([`resolve`]).
//!
//! Invariants of the generated [`GROUPS`]: every group name is unique; every [`Overload`]'s
//! `same_as`/`layout_from`/`comp_from` indices refer to the return value (0), a parameter
//! (1..=params.len()) or, for methods, the object (-1, -2) or the call's template argument (-3).

mod resolve;
pub use resolve::{resolve, CallArg, Mismatch, Resolved, ResolveError};

/// Component kinds and classes an intrinsic argument may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    Bool,
    Int,
    UInt,
    UInt64,
    Float,
    Double,
    Int16,
    UInt16,
    Float16,
    Void,
    /// Any numeric component (not bool).
    Numeric,
    /// `float`, `half`, `min16float`, `min10float` (ints convert to `float`).
    FloatLike,
    /// Any component, bool included.
    Any,
    /// Any float, `double` included.
    AnyFloat,
    AnyInt,
    AnyInt16or32,
    AnyInt32,
    AnyInt64,
    DoubleOnly,
    Float32Only,
    Int32Only,
    Int64Only,
    Numeric16Only,
    Numeric32Only,
    SInt16or32Only,
    UIntOnly,
    /// `int8_t4_packed` / `uint8_t4_packed` (uint-sized).
    P32I8,
    P32U8,
    Sampler,
    SamplerCmp,
    AnySampler,
    Sampler1D,
    Sampler2D,
    Sampler3D,
    SamplerCube,
    /// Any user-defined struct.
    Udt,
    RayDesc,
    AccelerationStruct,
    String,
    Resource,
    TrianglePositions,
    ByteAddressBuffer,
    RWByteAddressBuffer,
    Texture2D,
    Texture2DArray,
    RayQuery,
    DxHitObject,
    LinAlg,
    LinAlgMatrix,
    NodeRecordOrUav,
    VkBufferPointer,
    ThreadNodeOutputRecords,
    GroupNodeOutputRecords,
}

/// A dimension in a layout: fixed, or a variable (`c`=0, `r`=1, `c2`=2, `r2`=3) that must agree
/// wherever it appears in one overload.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Fixed(u8),
    Var(u8),
}

/// The shape an argument may have.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    Scalar,
    /// `<>`: scalar, vector or matrix.
    Any,
    Vector(Dim),
    Matrix(Dim, Dim),
}

/// Types taken from the context rather than written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    None,
    /// The object's template type (`Texture2D<float4>` → `float4`).
    ClassT,
    /// The call's template argument (`buf.Load<float2>(0)`), default `uint`.
    FuncT,
    FuncT2,
}

/// The type of a parameter or of the return value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArgSpec {
    pub base: Base,
    pub layout: Layout,
    pub layout_from: Option<i8>,
    pub comp_from: Option<i8>,
    /// `$N`: exactly the (deduced) type of parameter N.
    pub same_as: Option<u8>,
    pub special: Special,
    /// An unsized array (`groupshared LinAlg<>[]`).
    pub array: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    In,
    Out,
    InOut,
    /// An lvalue read and written in place (the destination of `Interlocked*`).
    Ref,
    GroupShared,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamSpec {
    pub name: &'static str,
    pub dir: Dir,
    pub ty: ArgSpec,
}

/// One overload of an intrinsic.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Overload {
    pub name: &'static str,
    pub op: IntrinsicOp,
    /// The op to use instead when the overload's component type is unsigned.
    pub unsigned_op: Option<IntrinsicOp>,
    pub ret: ArgSpec,
    pub params: &'static [ParamSpec],
    /// Accepts more arguments after `params` (`printf`).
    pub variadic: bool,
    pub readnone: bool,
    pub readonly: bool,
    pub wave: bool,
    /// Internal to DXC; not callable from source.
    pub hidden: bool,
    pub min_sm: Option<(u8, u8)>,
    pub lowering: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/intrinsics_table.rs"));

/// The overloads of `name` in `group` (`Intrinsics`, `VkIntrinsics`, `DxIntrinsics`,
/// `Texture2DMethods`, ...), in table order.
pub fn overloads(group: &str, name: &str) -> Vec<&'static Overload> {
    GROUPS
        .iter()
        .filter(|(g, _)| *g == group)
        .flat_map(|(_, list)| list.iter())
        .filter(|o| o.name == name && !o.hidden)
        .collect()
}

/// True if `name` is an intrinsic function (group `Intrinsics`) with at least one overload.
pub fn is_intrinsic_function(name: &str) -> bool {
    !overloads("Intrinsics", name).is_empty()
}

#[cfg(test)]
mod tests;
