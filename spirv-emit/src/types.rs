//! SPIR-V types as the [`crate::Context`] uniques them.
//!
//! A [`Type`] names its operands by id, so two types are the same SPIR-V type exactly when their
//! `Type` values are equal. Layout decorations that SPIR-V attaches to a type (`ArrayStride` on an
//! array, `Offset`/`MatrixStride`/`RowMajor` on struct members, `Block` on a struct) are part of the
//! value: DXC emits a decorated and an undecorated copy of an array or struct when both are used,
//! and so do we.

use crate::id::SpvId;
use rspirv::dr::Operand;
use spirv::{AccessQualifier, Decoration as SpvDecoration, Dim, ImageFormat, StorageClass};

/// A decoration with its extra operands (`Offset 16` is `Decoration::Offset` with
/// `[LiteralBit32(16)]`). Operands that are ids make it an `OpDecorateId`; a string operand makes it
/// an `OpDecorateString`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decoration {
    pub kind: SpvDecoration,
    pub args: Vec<Operand>,
}

impl Decoration {
    pub fn new(kind: SpvDecoration) -> Decoration {
        Decoration { kind, args: Vec::new() }
    }
    /// A decoration with literal integer operands (`Offset 4`, `DescriptorSet 0`).
    pub fn with_literals(kind: SpvDecoration, lits: &[u32]) -> Decoration {
        Decoration { kind, args: lits.iter().map(|&w| Operand::LiteralBit32(w)).collect() }
    }
    /// A decoration with one string operand (`UserSemantic "SV_Target"`).
    pub fn with_string(kind: SpvDecoration, s: &str) -> Decoration {
        Decoration { kind, args: vec![Operand::LiteralString(s.to_string())] }
    }
    /// A decoration with one id operand (`CounterBuffer %c`), emitted as `OpDecorateId`.
    pub fn with_id(kind: SpvDecoration, id: SpvId) -> Decoration {
        Decoration { kind, args: vec![Operand::IdRef(id.0)] }
    }
    /// `BuiltIn b`.
    pub fn builtin(b: spirv::BuiltIn) -> Decoration {
        Decoration { kind: SpvDecoration::BuiltIn, args: vec![Operand::BuiltIn(b)] }
    }
    pub fn location(n: u32) -> Decoration {
        Decoration::with_literals(SpvDecoration::Location, &[n])
    }
    pub fn descriptor_set(n: u32) -> Decoration {
        Decoration::with_literals(SpvDecoration::DescriptorSet, &[n])
    }
    pub fn binding(n: u32) -> Decoration {
        Decoration::with_literals(SpvDecoration::Binding, &[n])
    }
    pub fn offset(n: u32) -> Decoration {
        Decoration::with_literals(SpvDecoration::Offset, &[n])
    }
    pub(crate) fn has_id(&self) -> bool {
        self.args.iter().any(|a| matches!(a, Operand::IdRef(_)))
    }
    pub(crate) fn has_string(&self) -> bool {
        self.args.iter().any(|a| matches!(a, Operand::LiteralString(_)))
    }
}

/// One member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    pub ty: SpvId,
    /// The `OpMemberName`; empty means none is emitted.
    pub name: String,
    pub decorations: Vec<Decoration>,
}

/// A struct type. Invariant: uniqued by the whole value, names included, as DXC does: two HLSL
/// structs with the same members but different names are two SPIR-V types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The `OpName` (DXC style: `S`, `type.ConstantBuffer.S`, `type.RWStructuredBuffer.uint`); empty
    /// means none.
    pub name: String,
    pub members: Vec<StructMember>,
    /// Decorations of the struct itself (`Block`, `BufferBlock`).
    pub decorations: Vec<Decoration>,
}

/// The operands of `OpTypeImage`. `depth` and `sampled` are the raw SPIR-V values (depth: 0 no, 1
/// yes, 2 unknown; sampled: 1 with sampler, 2 storage).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    pub sampled_type: SpvId,
    pub dim: Dim,
    pub depth: u32,
    pub arrayed: bool,
    pub multisampled: bool,
    pub sampled: u32,
    pub format: ImageFormat,
    pub access: Option<AccessQualifier>,
}

/// A SPIR-V type. Every id operand refers to a type (or, for `Array::length`, a constant) of the
/// same [`crate::Context`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
    Vector { elem: SpvId, count: u32 },
    /// `OpTypeMatrix`: `columns` columns of type `column` (a float vector).
    Matrix { column: SpvId, columns: u32 },
    /// `length` is the id of an integer constant (or spec constant).
    Array { elem: SpvId, length: SpvId, stride: Option<u32> },
    RuntimeArray { elem: SpvId, stride: Option<u32> },
    Struct(StructType),
    Pointer { storage: StorageClass, pointee: SpvId },
    Function { ret: SpvId, params: Vec<SpvId> },
    Image(ImageType),
    Sampler,
    SampledImage { image: SpvId },
    AccelerationStructure,
    RayQuery,
    /// A type the shader spells as inline SPIR-V (`vk::SpirvType`, `vk::SpirvOpaqueType`,
    /// `vk::ext_type`): its opcode (a type-declaring one, checked by the lowering) and operands.
    Inline { opcode: spirv::Op, operands: Vec<InlineOperand> },
}

/// An operand of an inline SPIR-V type: the id of a type or constant, or a literal word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InlineOperand {
    Id(SpvId),
    Literal(u32),
}

impl Type {
    /// The scalar width in bits, for int and float types.
    pub fn scalar_width(&self) -> Option<u32> {
        match *self {
            Type::Int { width, .. } | Type::Float { width } => Some(width),
            _ => None,
        }
    }
}
