//! The type system: an interned type table.
//!
//! Every type sema produces lives in one [`TypeTable`] and is named by a [`TypeId`]. Interning
//! means two equal types always have the same id, so emitters may compare ids. Structs and enums
//! are nominal: each declaration gets its own [`StructId`]/[`EnumId`] and the type `Struct(id)`.
//!
//! Invariants:
//! - `TypeId(0)` is [`Type::Error`], `TypeId(1)` is [`Type::Void`] (see [`TypeTable::ERROR`]).
//! - Vector lengths are 1..=4; matrix rows and columns are 1..=4.
//! - `Scalar`/`Vector`/`Matrix` components are never `Void`; literal kinds ([`ScalarKind::LitInt`],
//!   [`ScalarKind::LitFloat`]) only appear on expression types (constants), never on declarations.
//! - A matrix type always carries a resolved [`MatrixLayout`]; the default (`#pragma pack_matrix`,
//!   `-Zpr`/`-Zpc`) is applied where the type is written.
//! - With `-enable-16bit-types`, `half` is [`ScalarKind::Half`] (16-bit float) and the `min*`
//!   types become their 16-bit counterparts; without it `half` is 32-bit [`ScalarKind::Float`] and
//!   the `min*` types keep their min-precision kind.

use hlslc_frontend::fxhash::FxMap as HashMap;
use std::fmt::Write;

mod objects;
mod spelling;
pub use objects::{ObjectKind, ResourceClass, TemplateShape};
pub use spelling::{parse_builtin_name, BuiltinName};

/// Index of a type in a [`TypeTable`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of a struct/class/interface declaration in [`TypeTable::structs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// Index of an enum declaration in [`TypeTable::enums`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

/// Scalar component kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    Bool,
    Int16,
    UInt16,
    Int,
    UInt,
    Int64,
    UInt64,
    /// 16-bit float (`half` / `float16_t` with `-enable-16bit-types`).
    Half,
    Float,
    Double,
    /// Min-precision types: at least this precision, stored as 32 bits unless the target chooses.
    Min16Float,
    Min10Float,
    Min16Int,
    Min12Int,
    Min16UInt,
    /// An untyped integer literal (`1`), HLSL's "literal int".
    LitInt,
    /// An untyped float literal (`1.0`), HLSL's "literal float".
    LitFloat,
}

impl ScalarKind {
    pub fn is_bool(self) -> bool {
        self == ScalarKind::Bool
    }
    pub fn is_float(self) -> bool {
        use ScalarKind::*;
        matches!(self, Half | Float | Double | Min16Float | Min10Float | LitFloat)
    }
    pub fn is_int(self) -> bool {
        use ScalarKind::*;
        matches!(self, Int16 | UInt16 | Int | UInt | Int64 | UInt64 | Min16Int | Min12Int | Min16UInt | LitInt)
    }
    pub fn is_signed_int(self) -> bool {
        use ScalarKind::*;
        matches!(self, Int16 | Int | Int64 | Min16Int | Min12Int | LitInt)
    }
    pub fn is_unsigned(self) -> bool {
        use ScalarKind::*;
        matches!(self, UInt16 | UInt | UInt64 | Min16UInt)
    }
    pub fn is_literal(self) -> bool {
        matches!(self, ScalarKind::LitInt | ScalarKind::LitFloat)
    }
    pub fn is_min_precision(self) -> bool {
        use ScalarKind::*;
        matches!(self, Min16Float | Min10Float | Min16Int | Min12Int | Min16UInt)
    }
    /// Storage width in bits (min-precision types and literals count as 32; literal ints are
    /// folded at 64 bits but default to 32-bit `int`).
    pub fn bits(self) -> u32 {
        use ScalarKind::*;
        match self {
            Bool => 32,
            Int16 | UInt16 | Half => 16,
            Int64 | UInt64 | Double => 64,
            _ => 32,
        }
    }
    /// Rank for the usual arithmetic conversions: the result of a binary operator is the operand
    /// kind with the higher rank. Floats outrank ints; wider outranks narrower; unsigned outranks
    /// signed of the same width; concrete types outrank literals of their class.
    pub fn rank(self) -> u32 {
        use ScalarKind::*;
        match self {
            Bool => 0,
            LitInt => 1,
            Min12Int => 2,
            Min16Int => 3,
            Min16UInt => 4,
            Int16 => 5,
            UInt16 => 6,
            Int => 7,
            UInt => 8,
            Int64 => 9,
            UInt64 => 10,
            LitFloat => 11,
            Min10Float => 12,
            Min16Float => 13,
            Half => 14,
            Float => 15,
            Double => 16,
        }
    }
    /// The spelling DXC prints.
    pub fn name(self) -> &'static str {
        use ScalarKind::*;
        match self {
            Bool => "bool",
            Int16 => "int16_t",
            UInt16 => "uint16_t",
            Int => "int",
            UInt => "uint",
            Int64 => "int64_t",
            UInt64 => "uint64_t",
            Half => "half",
            Float => "float",
            Double => "double",
            Min16Float => "min16float",
            Min10Float => "min10float",
            Min16Int => "min16int",
            Min12Int => "min12int",
            Min16UInt => "min16uint",
            LitInt => "literal int",
            LitFloat => "literal float",
        }
    }
    /// The concrete kind a literal becomes when nothing else decides (`int`, `float`).
    pub fn concrete(self) -> ScalarKind {
        match self {
            ScalarKind::LitInt => ScalarKind::Int,
            ScalarKind::LitFloat => ScalarKind::Float,
            k => k,
        }
    }
}

/// Storage order of a matrix.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MatrixLayout {
    RowMajor,
    ColumnMajor,
}

/// A type. See the module documentation for invariants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// The type of an expression that failed to check; converts to and from everything silently so
    /// one error does not cascade.
    Error,
    Void,
    Scalar(ScalarKind),
    Vector(ScalarKind, u8),
    Matrix { elem: ScalarKind, rows: u8, cols: u8, layout: MatrixLayout },
    /// `len: None` is an unsized array (`Texture2D t[]`, unsized parameter arrays).
    Array { elem: TypeId, len: Option<u32> },
    Struct(StructId),
    Enum(EnumId),
    /// A built-in object type with its template arguments: `elem` is the type argument
    /// (`Texture2D<float4>` has `float4`), `count` the integer one (sample count of
    /// `Texture2DMS<T, N>`, control points of `InputPatch<T, N>`, ray flags of `RayQuery<F>`).
    Object { kind: ObjectKind, elem: Option<TypeId>, count: Option<u32> },
    /// A string literal (only valid as an argument to `printf` and attributes).
    String,
    /// A SPIR-V type written inline: `vk::SpirvType<...>`, `vk::SpirvOpaqueType<...>` or
    /// `vk::ext_type<N>`.
    InlineSpirv(InlineSpirvType),
}

/// A SPIR-V type the shader spells itself (DXC's inline SPIR-V, see SPIR-V.rst).
///
/// Invariants: `operands` are in the order written; `size_align` is `Some` exactly for
/// `vk::SpirvType` (which has a size and alignment and may be stored in buffers) and `None` for
/// `vk::SpirvOpaqueType`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InlineSpirvType {
    /// `vk::SpirvType<Opcode, Size, Alignment, Operands...>` or
    /// `vk::SpirvOpaqueType<Opcode, Operands...>`.
    Inline { opcode: u32, size_align: Option<(u32, u32)>, operands: Vec<SpirvOperand> },
    /// `vk::ext_type<N>`: the type a `[[vk::ext_type_def(N, Opcode)]]` function declares when called.
    Def(u32),
}

/// An operand of an inline SPIR-V type instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpirvOperand {
    /// A type argument: the operand is that type's id.
    Type(TypeId),
    /// `vk::integral_constant<T, V>`: the id of a constant of scalar type `ty`.
    Constant { ty: TypeId, value: i64 },
    /// `vk::Literal<vk::integral_constant<T, V>>`: the value itself as a literal word.
    Literal(i64),
}

/// A field of a struct.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: TypeId,
    /// `: TEXCOORD0`, parsed once (dereferences to the semantic as written, letter case kept).
    pub semantic: Option<crate::entry::Semantic>,
    pub interpolation: crate::tast::Interpolation,
    /// `precise` on the field.
    pub precise: bool,
    /// Its Vulkan attributes.
    pub vk: FieldVk,
}

/// The Vulkan attributes of a struct field, with where each is written (for the emitter's
/// diagnostics). Sema checks only their arguments; what they mean depends on where the struct is
/// used (stage I/O, a buffer), which the SPIR-V emitter knows.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FieldVk {
    /// `[[vk::location(n)]]`: the location of the stage variable the field becomes.
    pub location: Option<(u32, hlslc_frontend::Span)>,
    /// `[[vk::index(n)]]`: the `Index` of a pixel output (dual-source blending).
    pub index: Option<(u32, hlslc_frontend::Span)>,
    /// `[[vk::offset(n)]]`: the byte offset of the field in every buffer layout of the struct.
    pub offset: Option<u32>,
    /// `[[vk::builtin("Name")]]`: the stage variable the field becomes is this built-in.
    pub builtin: Option<(String, hlslc_frontend::Span)>,
}

/// A struct, class or interface.
///
/// Invariants: `fields` are in declaration order and do not include the fields of `bases`
/// (the base object, if any, comes first in memory); `complete` is false only for a forward
/// declaration without a body.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub name: String,
    pub kind: hlslc_frontend::ast::StructKind,
    pub bases: Vec<TypeId>,
    pub fields: Vec<Field>,
    pub methods: Vec<crate::tast::FuncId>,
    pub complete: bool,
}

/// An enum. `underlying` is a scalar int type (default `int`); `values` are folded constants.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDef {
    pub name: String,
    pub scoped: bool,
    pub underlying: TypeId,
    pub values: Vec<(String, i64)>,
}

/// The interned type table. See the module documentation.
#[derive(Clone, Debug)]
pub struct TypeTable {
    types: Vec<Type>,
    map: HashMap<Type, TypeId>,
    pub structs: Vec<StructDef>,
    pub enums: Vec<EnumDef>,
    /// HLSL 2021's strict UDT casting: no implicit conversion between unrelated aggregates (see
    /// [`TypeTable::aggregate_conversion`]). Set by the checker from the language version.
    pub strict_udt_casting: bool,
}

impl Default for TypeTable {
    fn default() -> Self {
        TypeTable::new()
    }
}

impl TypeTable {
    pub const ERROR: TypeId = TypeId(0);
    pub const VOID: TypeId = TypeId(1);

    pub fn new() -> TypeTable {
        let mut t = TypeTable {
            types: Vec::new(),
            map: HashMap::default(),
            structs: Vec::new(),
            enums: Vec::new(),
            strict_udt_casting: true,
        };
        t.intern(Type::Error);
        t.intern(Type::Void);
        t
    }

    /// The id of `ty`, adding it if new.
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.map.get(&ty) {
            return id;
        }
        // Keep the invariant that a vector's or matrix's scalar is interned (see `find`).
        if let Type::Vector(k, _) | Type::Matrix { elem: k, .. } = ty {
            self.intern(Type::Scalar(k));
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.map.insert(ty, id);
        id
    }

    /// The id of `ty` if it is interned. The scalar of every interned vector or matrix is.
    pub fn find(&self, ty: &Type) -> Option<TypeId> {
        self.map.get(ty).copied()
    }

    /// The id of `ty` if it has been interned (for emitters, which see the table read-only).
    pub fn lookup(&self, ty: &Type) -> Option<TypeId> {
        self.map.get(ty).copied()
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn scalar(&mut self, k: ScalarKind) -> TypeId {
        self.intern(Type::Scalar(k))
    }
    /// A vector; `n` is clamped to 1..=4.
    pub fn vector(&mut self, k: ScalarKind, n: u8) -> TypeId {
        self.intern(Type::Vector(k, n.clamp(1, 4)))
    }
    pub fn matrix(&mut self, elem: ScalarKind, rows: u8, cols: u8, layout: MatrixLayout) -> TypeId {
        self.intern(Type::Matrix { elem, rows: rows.clamp(1, 4), cols: cols.clamp(1, 4), layout })
    }
    pub fn array(&mut self, elem: TypeId, len: Option<u32>) -> TypeId {
        self.intern(Type::Array { elem, len })
    }
    pub fn object(&mut self, kind: ObjectKind, elem: Option<TypeId>, count: Option<u32>) -> TypeId {
        self.intern(Type::Object { kind, elem, count })
    }
    pub fn bool(&mut self) -> TypeId {
        self.scalar(ScalarKind::Bool)
    }
    pub fn int(&mut self) -> TypeId {
        self.scalar(ScalarKind::Int)
    }
    pub fn uint(&mut self) -> TypeId {
        self.scalar(ScalarKind::UInt)
    }
    pub fn float(&mut self) -> TypeId {
        self.scalar(ScalarKind::Float)
    }

    /// Declares a new struct and returns its type.
    pub fn add_struct(&mut self, def: StructDef) -> (StructId, TypeId) {
        let id = StructId(self.structs.len() as u32);
        self.structs.push(def);
        (id, self.intern(Type::Struct(id)))
    }
    pub fn add_enum(&mut self, def: EnumDef) -> (EnumId, TypeId) {
        let id = EnumId(self.enums.len() as u32);
        self.enums.push(def);
        (id, self.intern(Type::Enum(id)))
    }

    pub fn is_error(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Error)
    }
    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Void)
    }

    /// The scalar component kind of a scalar, vector or matrix (enums count as their underlying
    /// int type).
    pub fn component(&self, id: TypeId) -> Option<ScalarKind> {
        match self.get(id) {
            Type::Scalar(k) | Type::Vector(k, _) | Type::Matrix { elem: k, .. } => Some(*k),
            Type::Enum(e) => self.component(self.enums[e.0 as usize].underlying),
            _ => None,
        }
    }

    /// The shape of a numeric type: scalars and enums are 1×1, vectors 1×N, matrices R×C.
    pub fn shape(&self, id: TypeId) -> Option<Shape> {
        match self.get(id) {
            Type::Scalar(_) | Type::Enum(_) => Some(Shape::Scalar),
            Type::Vector(_, n) => Some(Shape::Vector(*n)),
            Type::Matrix { rows, cols, .. } => Some(Shape::Matrix(*rows, *cols)),
            _ => None,
        }
    }

    /// True for scalars, vectors, matrices and enums (the types operators work on).
    pub fn is_numeric(&self, id: TypeId) -> bool {
        self.shape(id).is_some()
    }

    /// A type with the same shape as `id` and component `k` (matrix layout kept).
    pub fn with_component(&mut self, id: TypeId, k: ScalarKind) -> TypeId {
        match self.get(id).clone() {
            Type::Vector(_, n) => self.vector(k, n),
            Type::Matrix { rows, cols, layout, .. } => self.matrix(k, rows, cols, layout),
            _ => self.scalar(k),
        }
    }

    /// A numeric type of component `k` and shape `s`.
    pub fn of_shape(&mut self, k: ScalarKind, s: Shape, layout: MatrixLayout) -> TypeId {
        match s {
            Shape::Scalar => self.scalar(k),
            Shape::Vector(n) => self.vector(k, n),
            Shape::Matrix(r, c) => self.matrix(k, r, c, layout),
        }
    }

    /// Number of scalar components when flattened (structs, arrays and matrices recursively);
    /// `None` for objects and unsized arrays.
    pub fn flat_count(&self, id: TypeId) -> Option<u64> {
        self.flat_count_depth(id, 0)
    }
    fn flat_count_depth(&self, id: TypeId, depth: u32) -> Option<u64> {
        if depth > 64 {
            return None;
        }
        match self.get(id) {
            Type::Scalar(_) | Type::Enum(_) => Some(1),
            Type::Vector(_, n) => Some(*n as u64),
            Type::Matrix { rows, cols, .. } => Some(*rows as u64 * *cols as u64),
            Type::Array { elem, len: Some(n) } => {
                self.flat_count_depth(*elem, depth + 1).map(|c| c.saturating_mul(*n as u64))
            }
            Type::Struct(s) => {
                let def = &self.structs[s.0 as usize];
                let mut total = 0u64;
                for b in &def.bases {
                    total = total.saturating_add(self.flat_count_depth(*b, depth + 1)?);
                }
                for f in &def.fields {
                    total = total.saturating_add(self.flat_count_depth(f.ty, depth + 1)?);
                }
                Some(total)
            }
            _ => None,
        }
    }

    /// The scalar components of a value of this type in flattening order (bases, then fields;
    /// array elements; matrix rows), or `None` for objects, unsized arrays, or more than 2^16
    /// components.
    pub fn flat_components(&self, id: TypeId) -> Option<Vec<ScalarKind>> {
        let mut out = Vec::new();
        self.push_components(id, &mut out, 0)?;
        Some(out)
    }
    fn push_components(&self, id: TypeId, out: &mut Vec<ScalarKind>, depth: u32) -> Option<()> {
        if depth > 64 || out.len() > 1 << 16 {
            return None;
        }
        match self.get(id) {
            Type::Scalar(k) => out.push(*k),
            Type::Enum(_) => out.push(self.component(id)?),
            Type::Vector(k, n) => out.extend(std::iter::repeat(*k).take(*n as usize)),
            Type::Matrix { elem, rows, cols, .. } => out.extend(std::iter::repeat(*elem).take(*rows as usize * *cols as usize)),
            Type::Array { elem, len: Some(n) } => {
                for _ in 0..*n {
                    self.push_components(*elem, out, depth + 1)?;
                    if out.len() > 1 << 16 {
                        return None;
                    }
                }
            }
            Type::Struct(s) => {
                let def = &self.structs[s.0 as usize];
                for b in &def.bases {
                    self.push_components(*b, out, depth + 1)?;
                }
                for f in &def.fields {
                    self.push_components(f.ty, out, depth + 1)?;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// True if struct type `base` is `derived` or one of its (transitive) bases.
    pub fn is_base_of(&self, base: TypeId, derived: TypeId) -> bool {
        let mut level = vec![derived];
        for _ in 0..64 {
            if level.contains(&base) {
                return true;
            }
            let mut next = Vec::new();
            for t in level {
                if let Type::Struct(s) = self.get(t) {
                    next.extend(self.structs[s.0 as usize].bases.iter().copied());
                }
            }
            if next.is_empty() {
                return false;
            }
            level = next;
        }
        false
    }

    /// Whether a value of aggregate type `from` converts implicitly to aggregate type `to` (at
    /// least one of them a struct or an array): a derived struct to its base always; otherwise,
    /// unless [`TypeTable::strict_udt_casting`] (HLSL 2021), when both flatten to the same
    /// sequence of scalar kinds (`struct { int a, b; }` and `int[2]`). Objects never convert.
    pub fn aggregate_conversion(&self, from: TypeId, to: TypeId) -> bool {
        let aggregate = |t: TypeId| matches!(self.get(t), Type::Struct(_) | Type::Array { .. });
        if !aggregate(from) || !aggregate(to) || self.contains_object(from) || self.contains_object(to) {
            return false;
        }
        if matches!(self.get(to), Type::Struct(_)) && self.is_base_of(to, from) {
            return true;
        }
        !self.strict_udt_casting && self.flat_components(from).is_some_and(|f| Some(f) == self.flat_components(to))
    }

    /// True if a value of this type is (or contains) a built-in object.
    pub fn contains_object(&self, id: TypeId) -> bool {
        self.contains_object_depth(id, 0)
    }
    fn contains_object_depth(&self, id: TypeId, depth: u32) -> bool {
        if depth > 64 {
            return false;
        }
        match self.get(id) {
            Type::Object { .. } => true,
            Type::Array { elem, .. } => self.contains_object_depth(*elem, depth + 1),
            Type::Struct(s) => {
                let def = &self.structs[s.0 as usize];
                def.fields.iter().any(|f| self.contains_object_depth(f.ty, depth + 1))
                    || def.bases.iter().any(|b| self.contains_object_depth(*b, depth + 1))
            }
            _ => false,
        }
    }

    /// Strips array dimensions: `float4[2][3]` → `float4`.
    pub fn array_base(&self, mut id: TypeId) -> TypeId {
        for _ in 0..64 {
            match self.get(id) {
                Type::Array { elem, .. } => id = *elem,
                _ => break,
            }
        }
        id
    }

    /// Equal up to matrix layout (a layout difference needs no conversion of values).
    pub fn same_value_type(&self, a: TypeId, b: TypeId) -> bool {
        if a == b {
            return true;
        }
        match (self.get(a), self.get(b)) {
            (Type::Matrix { elem: e1, rows: r1, cols: c1, .. }, Type::Matrix { elem: e2, rows: r2, cols: c2, .. }) => {
                e1 == e2 && r1 == r2 && c1 == c2
            }
            (Type::Array { elem: e1, len: l1 }, Type::Array { elem: e2, len: l2 }) => {
                l1 == l2 && self.same_value_type(*e1, *e2)
            }
            _ => false,
        }
    }

    /// The type's name as DXC prints it in diagnostics: `float4`, `float3x4`, `min16uint2`,
    /// `Texture2D<float4>`, `float [4]`, `S`, `literal float`.
    pub fn name(&self, id: TypeId) -> String {
        let mut s = String::new();
        self.write_name(&mut s, id, 0);
        s
    }

    fn write_name(&self, out: &mut String, id: TypeId, depth: u32) {
        if depth > 32 {
            out.push_str("...");
            return;
        }
        match self.get(id) {
            Type::Error => out.push_str("<error type>"),
            Type::Void => out.push_str("void"),
            Type::String => out.push_str("string"),
            Type::Scalar(k) => out.push_str(k.name()),
            Type::Vector(k, n) if k.is_literal() => {
                let _ = write!(out, "vector<{}, {}>", k.name(), n);
            }
            Type::Vector(k, n) => {
                let _ = write!(out, "{}{}", k.name(), n);
            }
            Type::Matrix { elem, rows, cols, .. } if elem.is_literal() => {
                let _ = write!(out, "matrix<{}, {}, {}>", elem.name(), rows, cols);
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let _ = write!(out, "{}{}x{}", elem.name(), rows, cols);
            }
            Type::Array { .. } => {
                let base = self.array_base(id);
                self.write_name(out, base, depth + 1);
                out.push(' ');
                let mut cur = id;
                while let Type::Array { elem, len } = self.get(cur) {
                    match len {
                        Some(n) => {
                            let _ = write!(out, "[{n}]");
                        }
                        None => out.push_str("[]"),
                    }
                    cur = *elem;
                }
            }
            Type::Struct(s) => out.push_str(&self.structs[s.0 as usize].name),
            Type::Enum(e) => out.push_str(&self.enums[e.0 as usize].name),
            Type::Object { kind, elem, count } => {
                out.push_str(kind.name());
                if elem.is_some() || count.is_some() {
                    out.push('<');
                    if let Some(e) = elem {
                        self.write_name(out, *e, depth + 1);
                    }
                    if let Some(c) = count {
                        if elem.is_some() {
                            out.push_str(", ");
                        }
                        let _ = write!(out, "{c}");
                    }
                    out.push('>');
                }
            }
            Type::InlineSpirv(InlineSpirvType::Def(n)) => {
                let _ = write!(out, "vk::ext_type<{n}>");
            }
            Type::InlineSpirv(InlineSpirvType::Inline { opcode, size_align, operands }) => {
                let _ = match size_align {
                    Some((size, align)) => write!(out, "vk::SpirvType<{opcode}, {size}, {align}"),
                    None => write!(out, "vk::SpirvOpaqueType<{opcode}"),
                };
                for op in operands {
                    out.push_str(", ");
                    match op {
                        SpirvOperand::Type(t) => self.write_name(out, *t, depth + 1),
                        SpirvOperand::Constant { ty, value } => {
                            out.push_str("vk::integral_constant<");
                            self.write_name(out, *ty, depth + 1);
                            let _ = write!(out, ", {value}>");
                        }
                        SpirvOperand::Literal(v) => {
                            let _ = write!(out, "vk::Literal<{v}>");
                        }
                    }
                }
                out.push('>');
            }
        }
    }
}

/// The shape of a numeric type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Scalar,
    Vector(u8),
    Matrix(u8, u8),
}

impl Shape {
    pub fn count(self) -> u32 {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n as u32,
            Shape::Matrix(r, c) => r as u32 * c as u32,
        }
    }
}

#[cfg(test)]
mod tests;
