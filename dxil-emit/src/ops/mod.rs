//! The DXIL operation table and what is built from it.
//!
//! `ops.txt` (crate root) is the single declarative source; `build.rs` turns it into [`DxilOp`],
//! [`OP_TABLE`] and [`ops_for_intrinsic`] (see `$OUT_DIR/dxil_ops.rs`). This module defines the
//! types the generated table is made of and the queries over them; [`sig`] builds
//! `dx.op.<class>.<overload>` names and function types, [`create`] is the checked builder.

pub mod create;
pub mod sig;

pub use create::{try_create, OpError, OpErrorKind, Target};
pub use sig::{declare_op, func_name, op_function_type};

include!(concat!(env!("OUT_DIR"), "/dxil_ops.rs"));

/// A DXIL version (`dx.version`): DXIL 1.x goes with shader model 6.x.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DxilVersion {
    pub major: u8,
    pub minor: u8,
}

impl DxilVersion {
    pub const fn new(major: u8, minor: u8) -> DxilVersion {
        DxilVersion { major, minor }
    }
    /// The DXIL version of shader model `6.minor`.
    pub const fn for_shader_model(major: u8, minor: u8) -> DxilVersion {
        DxilVersion { major: major.saturating_sub(5), minor }
    }
}

impl std::fmt::Display for DxilVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

pub use hlslc_sema::entry::Stage;

/// The first DXIL version in which `stage` exists.
pub fn stage_introduced(stage: Stage) -> DxilVersion {
    use Stage::*;
    match stage {
        Pixel | Vertex | Geometry | Hull | Domain | Compute => DxilVersion::new(1, 0),
        Library | RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable => DxilVersion::new(1, 3),
        Mesh | Amplification => DxilVersion::new(1, 5),
        Node => DxilVersion::new(1, 8),
    }
}

/// The profile prefix `!dx.shaderModel` names for a stage: ray tracing and node stages are in
/// `lib` modules.
pub fn profile_prefix(stage: Stage) -> &'static str {
    stage.prefix().unwrap_or("lib")
}

/// A set of stages (bit `k` = `Stage` number `k`); empty means removed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StageSet(pub u32);

impl StageSet {
    pub const ALL: StageSet = StageSet((1 << 16) - 1);
    pub fn contains(self, k: Stage) -> bool {
        self.0 & (1 << k as u32) != 0
    }
    pub fn is_removed(self) -> bool {
        self.0 == 0
    }
    pub fn names(self) -> Vec<&'static str> {
        Stage::ALL.iter().filter(|k| self.contains(**k)).map(|k| k.name()).collect()
    }
}

/// Scalar element kinds an op can be overloaded on, in `ops.txt` letter order (`hfd18wil`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    Half = 0,
    Float,
    Double,
    I1,
    I8,
    I16,
    I32,
    I64,
}

impl ScalarKind {
    pub const ALL: [ScalarKind; 8] =
        [ScalarKind::Half, ScalarKind::Float, ScalarKind::Double, ScalarKind::I1, ScalarKind::I8, ScalarKind::I16, ScalarKind::I32, ScalarKind::I64];

    /// Suffix used in `dx.op` names and `dx.types` names (`f32`, `i16`, ...).
    pub fn suffix(self) -> &'static str {
        use ScalarKind::*;
        match self {
            Half => "f16",
            Float => "f32",
            Double => "f64",
            I1 => "i1",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
        }
    }
}

/// A concrete overload chosen for a call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Overload {
    /// The op is not overloaded (`dx.op.<class>` with no suffix).
    None,
    Scalar(ScalarKind),
    /// `<len x kind>` (DXIL 1.9 native vectors).
    Vector(ScalarKind, u32),
    /// A pointer to a user-defined struct (payloads, attributes, node records).
    Udt(crate::ir::TypeId),
    /// An object (resource) type, for `CreateHandleForLib`.
    Object(crate::ir::TypeId),
}

/// Bit index of the `u` and `o` overload letters in an [`OverloadSet`].
const UDT_BIT: u16 = 1 << 8;
const OBJ_BIT: u16 = 1 << 9;

/// The overloads valid at one DXIL version: scalar kinds, vector element kinds, `u`, `o`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OverloadSet {
    pub scalars: u16,
    pub vectors: u16,
}

impl OverloadSet {
    pub const fn from_bits(scalars: u16, vectors: u16) -> OverloadSet {
        OverloadSet { scalars, vectors }
    }
    pub fn allows(self, o: Overload) -> bool {
        match o {
            Overload::None => false,
            Overload::Scalar(k) => self.scalars & (1 << k as u16) != 0,
            Overload::Vector(k, n) => n >= 1 && self.vectors & (1 << k as u16) != 0,
            Overload::Udt(_) => self.scalars & UDT_BIT != 0,
            Overload::Object(_) => self.scalars & OBJ_BIT != 0,
        }
    }
    /// Human-readable list, e.g. `f16, f32, <N x f32>`.
    pub fn describe(self) -> String {
        let mut v: Vec<String> = Vec::new();
        for k in ScalarKind::ALL {
            if self.scalars & (1 << k as u16) != 0 {
                v.push(k.suffix().to_string());
            }
        }
        if self.scalars & UDT_BIT != 0 {
            v.push("user struct pointer".into());
        }
        if self.scalars & OBJ_BIT != 0 {
            v.push("resource object".into());
        }
        for k in ScalarKind::ALL {
            if self.vectors & (1 << k as u16) != 0 {
                v.push(format!("<N x {}>", k.suffix()));
            }
        }
        v.join(", ")
    }
}

/// Function memory attributes (bit set): readnone, readonly, noduplicate, noreturn, argmemonly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MemAttrs(pub u8);

impl MemAttrs {
    pub const READ_NONE: u8 = 1;
    pub const READ_ONLY: u8 = 2;
    pub const NO_DUPLICATE: u8 = 4;
    pub const NO_RETURN: u8 = 8;
    pub const ARG_MEM_ONLY: u8 = 16;
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct OpFlags {
    pub is_derivative: bool,
    pub is_gradient: bool,
    pub is_feedback: bool,
    pub is_wave: bool,
    pub requires_uniform_inputs: bool,
    pub is_barrier: bool,
}

/// Parameter and result types of op signatures (see the type list in `ops.txt`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamTy {
    Void,
    I1,
    I8,
    I16,
    I32,
    I64,
    Half,
    Float,
    Double,
    Overload,
    OverloadShapeI1,
    OverloadShapeI32,
    Element,
    ResRet,
    CBufRet,
    Four,
    Vec9,
    Handle,
    Dimensions,
    SamplePos,
    TwoI32,
    I32c,
    FourI32,
    SplitDouble,
    ResourceProperties,
    ResBind,
    NodeHandle,
    NodeRecordHandle,
    NodeInfo,
    NodeRecordInfo,
    HitObject,
    FloatPtr,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub ty: ParamTy,
    pub name: &'static str,
    /// The argument must be a constant.
    pub immediate: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Signature {
    /// A reserved opcode: no op lives here.
    Reserved,
    /// An op whose signature the table does not model yet (multi-overload linear algebra ops).
    Opaque,
    Known { ret: ParamTy, params: &'static [Param] },
}

/// Everything the table knows about one op.
#[derive(Debug)]
pub struct OpInfo {
    pub op: DxilOp,
    pub name: &'static str,
    pub opcode: u32,
    /// The `<class>` in `dx.op.<class>.<overload>`.
    pub class: &'static str,
    pub doc: &'static str,
    pub signature: Signature,
    /// Valid overloads per DXIL version; the entry with the greatest version not above the target
    /// applies. Empty = not overloaded.
    pub overloads: &'static [(DxilVersion, OverloadSet)],
    /// Valid stages per DXIL version, same rule; an empty set means removed.
    pub stages: &'static [(DxilVersion, StageSet)],
    /// Memory attributes per DXIL version, same rule.
    pub attrs: &'static [(DxilVersion, MemAttrs)],
    pub flags: OpFlags,
    /// DXIL version that introduced the op.
    pub introduced: DxilVersion,
    pub min_shader_model: (u8, u8),
    /// HLSL intrinsics that lower directly to this op.
    pub intrinsics: &'static [&'static str],
}

fn at_version<T: Copy>(list: &[(DxilVersion, T)], v: DxilVersion) -> Option<T> {
    list.iter().rev().find(|(ver, _)| *ver <= v).map(|(_, t)| *t)
}

impl OpInfo {
    pub fn is_overloaded(&self) -> bool {
        !self.overloads.is_empty()
    }
    pub fn is_reserved(&self) -> bool {
        self.signature == Signature::Reserved
    }
    /// Experimental ops live in feature partition 0x8000; using one makes the module a preview.
    pub fn is_experimental(&self) -> bool {
        self.opcode & 0x8000_0000 != 0
    }
    /// Overloads valid at `v` (`None` before the op existed or for non-overloaded ops).
    pub fn overloads_at(&self, v: DxilVersion) -> Option<OverloadSet> {
        at_version(self.overloads, v)
    }
    /// Stages valid at `v` (`None` before the op existed).
    pub fn stages_at(&self, v: DxilVersion) -> Option<StageSet> {
        at_version(self.stages, v)
    }
    pub fn attrs_at(&self, v: DxilVersion) -> MemAttrs {
        at_version(self.attrs, v).unwrap_or_default()
    }
    /// Parameter names joined as dxc prints them after a call: `Sin(value)`.
    pub fn call_comment(&self) -> String {
        let names: Vec<&str> = match self.signature {
            Signature::Known { params, .. } => params.iter().map(|p| p.name).collect(),
            _ => Vec::new(),
        };
        format!("{}({})", self.name, names.join(","))
    }
}

impl DxilOp {
    pub fn info(self) -> &'static OpInfo {
        &OP_TABLE[self.table_index()]
    }
    pub fn opcode(self) -> u32 {
        self as u32
    }
}

#[cfg(test)]
mod tests;
