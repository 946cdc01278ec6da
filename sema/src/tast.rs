//! The typed AST: what sema hands to the emitters.
//!
//! A [`Module`] owns arenas of variables, functions, statements and expressions, named by typed
//! ids. Spans live in side tables ([`Spans`]) so that the emitters' data stays compact.
//!
//! Invariants every emitter may rely on (sema guarantees them for a module it returns):
//! - Every [`Expr`] has a type ([`Expr::ty`]) that is never [`Type::Error`](crate::types::Type)
//!   (a module with errors is not returned) and says whether it is an lvalue.
//! - Operands have already been converted: the operands of a [`ExprKind::Binary`] arithmetic or
//!   comparison operator have the same type (comparisons produce `bool` of the operand shape);
//!   the right side of an assignment has the left side's type; call arguments have the parameter
//!   types (out/inout arguments are lvalues, wrapped in [`ExprKind::OutArg`] when a conversion is
//!   needed). Every such conversion is an explicit [`ExprKind::Cast`] with a [`CastKind`].
//! - No expression has a literal type (`literal int`/`literal float`): literals are given a
//!   concrete type by the context they are used in.
//! - Intrinsic calls are resolved to an [`IntrinsicOp`]; user calls name a [`FuncId`].
//! - Matrices keep their declared rows, columns and [`MatrixLayout`](crate::types::MatrixLayout).
//! - Registers, spaces, semantics and Vulkan bindings are resolved ([`Binding`]).
//! - The call graph has no cycles (recursion is rejected).

use crate::intrinsics::IntrinsicOp;
use crate::types::{TypeId, TypeTable};
use hlslc_frontend::ast::{BinaryOp, UnaryOp};
use hlslc_frontend::Span;

pub use crate::entry::Stage;

/// Index of an [`Expr`] in [`Module::exprs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);
/// Index of a [`Stmt`] in [`Module::stmts`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);
/// Index of a [`Var`] in [`Module::vars`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);
/// Index of a [`Function`] in [`Module::funcs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a [`CBuffer`] in [`Module::cbuffers`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CBufferId(pub u32);

/// A constant value (folded literal, enum value, `static const`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ConstValue {
    Bool(bool),
    /// Signed and unsigned integers, kept in 64 bits two's complement; the expression type says
    /// how wide and which signedness.
    Int(i64),
    Float(f64),
}

/// Interpolation modifiers of a stage input/output.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Interpolation {
    pub nointerpolation: bool,
    pub linear: bool,
    pub noperspective: bool,
    pub centroid: bool,
    pub sample: bool,
    /// Never set by sema: the SPIR-V emitter sets it on the `nointerpolation` parameters and
    /// fields it turns into arrays of the three vertices' values when a pixel shader uses
    /// `GetAttributeAtVertex` (their type is then `T[3]`, read at vertex 0 unless the
    /// intrinsic picks another).
    pub per_vertex: bool,
}

/// Direction of a parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamDir {
    In,
    Out,
    InOut,
}

/// Where a variable lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A function-local variable.
    Local,
    /// A `static` local or global (private to the invocation, initialized once).
    Static,
    /// A function parameter.
    Param(ParamDir),
    /// `groupshared`.
    GroupShared,
    /// A resource or other global that is bound from outside (textures, buffers, samplers, and
    /// non-static globals of numeric type, which live in the implicit `$Globals` constant buffer).
    Uniform,
    /// A member of a constant/texture buffer: `index` is its position in [`CBuffer::members`].
    CBufferMember { cbuffer: CBufferId, index: u32 },
}

/// A register binding `register(t3, space1)` with Vulkan attributes, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Binding {
    /// `(letter, number)` of `register(t3)`.
    pub register: Option<(char, u32)>,
    /// Where that `register(...)` is written (for the back ends' layout errors).
    pub register_span: Option<Span>,
    /// `spaceN` (0 when unspecified).
    pub space: u32,
    /// `spaceN` is written (`register(space2)`, `register(t0, space0)`): libraries leave a
    /// resource with neither register nor space unbound, in no space.
    pub space_explicit: bool,
    /// `[[vk::binding(b, set)]]`.
    pub vk_binding: Option<(u32, Option<u32>)>,
    /// `[[vk::counter_binding(n)]]`.
    pub vk_counter_binding: Option<u32>,
    /// `[[vk::location(n)]]`.
    pub vk_location: Option<u32>,
    /// `[[vk::index(n)]]` (dual-source blending).
    pub vk_index: Option<u32>,
    /// `[[vk::builtin("Name")]]`: the stage variable is this Vulkan built-in.
    pub vk_builtin: Option<(String, Span)>,
    /// `[[vk::push_constant]]`.
    pub vk_push_constant: bool,
    /// `[[vk::shader_record_nv]]` / `[[vk::shader_record_ext]]`: the buffer is the shader
    /// binding table record of a ray tracing shader (no descriptor binding).
    pub vk_shader_record: bool,
    /// `[[vk::constant_id(n)]]`: a specialization constant (SPIR-V only). Its default value is
    /// the initializer; [`Var::const_value`] stays `None` so that nothing folds it.
    pub vk_constant_id: Option<u32>,
    /// `[[vk::combinedImageSampler]]`: this texture or sampler and the one of the other kind
    /// with the same descriptor set and binding are one combined image sampler.
    pub vk_combined_image_sampler: bool,
    /// `packoffset(c1.y)` as (register index, component 0..4).
    pub packoffset: Option<(u32, u8)>,
    /// Where that `packoffset(...)` is written (for the back ends' layout errors).
    pub packoffset_span: Option<Span>,
}

/// A variable: global, local, parameter or cbuffer member. Invariant: `ty` is a complete type;
/// a `const` variable with `init: None` is a parameter or a uniform.
#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    pub name: String,
    pub ty: TypeId,
    pub storage: Storage,
    pub is_const: bool,
    pub precise: bool,
    /// `globallycoherent`.
    pub globally_coherent: bool,
    pub interpolation: Interpolation,
    /// `: SV_Position`, parsed once ([`Semantic`](crate::entry::Semantic) dereferences to the
    /// semantic as written).
    pub semantic: Option<crate::entry::Semantic>,
    pub binding: Binding,
    /// The initializer (already converted to `ty`).
    pub init: Option<ExprId>,
    /// The folded value of a `static const` with a constant initializer.
    pub const_value: Option<ConstValue>,
    /// Geometry-shader input primitive (`triangle`, ...) or mesh output qualifier, as written.
    pub primitive: Option<hlslc_frontend::ast::Modifier>,
    /// Attributes not interpreted by sema, kept for emitters: (namespace, name, constant args).
    pub attrs: Vec<RawAttr>,
    pub span: Span,
    /// Where its name is written (the whole declaration for an unnamed parameter): DXC reports
    /// most errors about a declaration at its name.
    pub name_span: Span,
}

/// An attribute sema does not interpret, with its arguments folded when constant.
#[derive(Clone, Debug, PartialEq)]
pub struct RawAttr {
    pub namespace: Option<String>,
    pub name: String,
    pub args: Vec<AttrArg>,
    /// Where it is written (its namespace, else its name).
    pub span: Span,
}

/// Where an attribute is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrSite {
    GlobalVar,
    LocalVar,
    Field,
    Param,
    Function,
    Stmt,
    /// A `cbuffer`/`tbuffer` block.
    CBuffer,
    Struct,
    Typedef,
    /// A typedef of an inline SPIR-V type (`vk::SpirvType`, `vk::SpirvOpaqueType`).
    InlineTypedef,
}

impl AttrSite {
    /// "a struct field", for messages.
    pub fn describe(self) -> &'static str {
        match self {
            AttrSite::GlobalVar => "a global variable",
            AttrSite::LocalVar => "a local variable",
            AttrSite::Field => "a struct field",
            AttrSite::Param => "a parameter",
            AttrSite::Function => "a function",
            AttrSite::Stmt => "a statement",
            AttrSite::CBuffer => "a cbuffer",
            AttrSite::Struct => "a struct",
            AttrSite::Typedef => "a typedef",
            AttrSite::InlineTypedef => "a typedef of an inline SPIR-V type",
        }
    }
}

/// One attribute as written in the program, for the emitters' check against the attribute table
/// ([`crate::attrs`]). Only attributes the table knows are recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrUse {
    pub namespace: Option<String>,
    pub name: String,
    pub site: AttrSite,
    /// Where the attribute is written (its namespace, else its name).
    pub span: Span,
    /// The function an attribute of a function or of its parameters belongs to.
    pub owner: Option<FuncId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Int(i64),
    Float(f64),
    Str(String),
    /// A bare word (`[domain("tri")]` uses strings, `[earlydepthstencil]` none).
    Word(String),
    /// An argument that names a value rather than a constant: each plane of
    /// `[clipplanes(c.plane0, planes[1])]`, checked to be a `float4` in a uniform.
    Expr(ExprId),
}

/// A `cbuffer`/`tbuffer`/`ConstantBuffer` block. Invariant: every member is a [`Var`] with
/// storage [`Storage::CBufferMember`] naming this buffer and its index.
#[derive(Clone, Debug, PartialEq)]
pub struct CBuffer {
    pub name: String,
    pub is_tbuffer: bool,
    pub members: Vec<VarId>,
    pub binding: Binding,
    pub span: Span,
}

/// A function or method. Invariant: `body` is `None` only for a declared-but-undefined function
/// that is never called.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    /// Qualified name for methods and namespace members (`S::f`, `ns::g`).
    pub qualified_name: String,
    pub ret: TypeId,
    /// Parameters, each a [`Var`] with [`Storage::Param`]; for a method, `this` is not listed.
    pub params: Vec<VarId>,
    /// For methods: the struct type of `this`.
    pub this_type: Option<TypeId>,
    /// The return value's semantic, parsed once.
    pub ret_semantic: Option<crate::entry::Semantic>,
    pub body: Option<StmtId>,
    /// Attributes such as `[numthreads]`, `[shader]`, `[domain]`, folded where sema knows them.
    pub attrs: Vec<RawAttr>,
    pub precise: bool,
    /// Declared with `export` (a library function kept with external linkage).
    pub export: bool,
    /// Declared `static` (internal linkage whatever `-default-linkage` says).
    pub is_static: bool,
    pub span: Span,
}

/// An entry point, resolved once by sema: its function, its stage and the typed state of that
/// stage, so that no emitter reads an attribute string. Invariants: `domain` is set only for hull
/// and domain shaders, `hull` only for hull shaders, `geometry` only for geometry shaders and
/// `mesh` only for mesh shaders, each when the attributes it comes from are valid (sema reports
/// the rest as errors, so a module it returns has them where they are required).
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    pub func: FuncId,
    pub stage: Stage,
    /// `[numthreads(x, y, z)]` for compute, mesh and amplification shaders (a size given by a
    /// specialization constant is its default value here).
    pub numthreads: Option<[u32; 3]>,
    /// The sizes of `numthreads` given by a specialization constant (`[[vk::constant_id]]`, SPIR-V
    /// only): the constant's variable, with where the attribute is written.
    pub numthreads_spec: [Option<VarId>; 3],
    /// `[domain]` of a hull or domain shader.
    pub domain: Option<crate::entry::TessDomain>,
    /// `[partitioning]`, `[outputtopology]`, `[outputcontrolpoints]`, `[maxtessfactor]` and the
    /// `[patchconstantfunc]` of a hull shader.
    pub hull: Option<crate::entry::HullState>,
    /// `[maxvertexcount]`, `[instance]`, input primitive and output stream of a geometry shader.
    pub geometry: Option<crate::entry::GeometryState>,
    /// `[outputtopology]` and output limits of a mesh shader.
    pub mesh: Option<crate::entry::MeshState>,
    /// `[RootSignature("...")]`: the string (adjacent literals joined) and where the attribute
    /// is written. Its language is the DXIL back end's to parse (dxc compiles it with the entry).
    pub root_signature: Option<(String, Span)>,
}

impl EntryPoint {
    /// An entry point with no per-stage state yet.
    pub fn new(func: FuncId, stage: Stage) -> EntryPoint {
        EntryPoint { func, stage, numthreads: None, numthreads_spec: [None; 3], domain: None, hull: None, geometry: None, mesh: None, root_signature: None }
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// `[unroll(4)]`, `[branch]`, `[loop]`, ...
    pub attrs: Vec<RawAttr>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(ExprId),
    /// Local variable declarations, initializers in [`Var::init`].
    Decl(Vec<VarId>),
    Block(Vec<StmtId>),
    /// `cond` is a scalar `bool`.
    If { cond: ExprId, then: StmtId, otherwise: Option<StmtId> },
    For { init: Option<StmtId>, cond: Option<ExprId>, step: Option<ExprId>, body: StmtId },
    While { cond: ExprId, body: StmtId },
    DoWhile { body: StmtId, cond: ExprId },
    /// `cond` is a scalar integer; case values are folded and distinct.
    Switch { cond: ExprId, body: StmtId },
    Case(i64),
    Default,
    Break,
    Continue,
    /// The value is converted to the function's return type.
    Return(Option<ExprId>),
    Discard,
    Empty,
}

/// Named implicit and explicit conversions. Shape and component changes are separate casts:
/// `float` to `int3` is `FloatToInt(Splat(x))` (or the reverse order); each cast changes one
/// thing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// Same value, different type only in a way that needs no code (matrix layout, literal to
    /// concrete when the value is representable, typedef), or an explicit cast to `void`.
    NoOp,
    /// Scalar to vector or matrix of the same component kind (`float` → `float4`).
    Splat,
    /// Dropping trailing vector components (`float4` → `float3`), with DXC's warning when
    /// implicit.
    VectorTruncate,
    /// Taking the upper-left part of a matrix (`float4x4` → `float3x3`).
    MatrixTruncate,
    /// One-component vector or matrix to scalar, or first component of a vector (`float4` →
    /// `float`, with the truncation warning when implicit).
    ToScalar,
    /// A vector to a matrix with as many components (`float4` → `float2x2`) or back, row by row.
    VectorToMatrix,
    MatrixToVector,
    IntToFloat,
    FloatToInt,
    /// Integer width or signedness change.
    IntToInt,
    /// Float width change (`double` → `float`, `half` → `float`).
    FloatToFloat,
    IntToBool,
    FloatToBool,
    BoolToInt,
    BoolToFloat,
    /// Aggregate cast through the flattened components (`(S)float4(...)`, `(float4)s`, array
    /// to struct). Only explicit or in initializers.
    Flatten,
    /// Integer to enum / enum to integer.
    EnumConvert,
    /// The struct value held by a `ConstantBuffer<S>`/`TextureBuffer<S>` (a load of the whole
    /// buffer).
    FromBuffer,
    /// A `uint64_t` address (or a `uint2` of its low and high words) to a `vk::BufferPointer`.
    /// Only explicit.
    AddressToPointer,
    /// A `vk::BufferPointer` to its `uint64_t` address. Only explicit.
    PointerToAddress,
}

/// An expression. See the module invariants.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
    /// True when the expression designates storage that can be assigned (not counting `const`).
    pub lvalue: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Const(ConstValue),
    Var(VarId),
    /// `this` inside a method (the object is an lvalue of [`Function::this_type`]).
    This,
    Unary { op: UnaryOp, operand: ExprId },
    /// Arithmetic/bitwise/comparison/logical; operands already converted (see invariants).
    Binary { op: BinaryOp, lhs: ExprId, rhs: ExprId },
    /// `lhs = rhs` or `lhs op= rhs`; for a compound assignment `rhs` has the type of the
    /// operation (the left side's type) and the emitter computes `lhs op rhs`.
    Assign { op: Option<BinaryOp>, lhs: ExprId, rhs: ExprId },
    /// `lhs op= rhs` whose operation type (the usual arithmetic conversions of both sides, in
    /// the left side's shape) differs from the left side's component type: `int v; v /= 65537u`
    /// divides unsigned, `int v; v *= 1.5` multiplies in `float`. `rhs` has the operation type;
    /// the emitter loads `lhs`, converts it with `to_op`, computes `lhs op rhs`, converts the
    /// result back with `from_op`, and stores it. The expression's value is the stored value.
    /// (Compound assignments computed in the left side's own type stay [`ExprKind::Assign`].)
    CompoundAssign { op: BinaryOp, lhs: ExprId, rhs: ExprId, to_op: CastKind, from_op: CastKind },
    /// `cond` is `bool` (scalar, or a vector of the result's width for a vector select).
    Ternary { cond: ExprId, then: ExprId, otherwise: ExprId },
    /// `explicit`: written by the user (`(int)x`, `int(x)` on a scalar).
    Cast { kind: CastKind, expr: ExprId, explicit: bool },
    /// Builds a vector, matrix, array or struct from component values in order: each argument is
    /// a scalar, vector or matrix of the result's component type (flattened like HLSL's
    /// constructors and initializer lists), or a whole member/element of the aggregate.
    Construct { args: Vec<ExprId> },
    /// A call to a user function (or method, with `this_arg`).
    Call { func: FuncId, this_arg: Option<ExprId>, args: Vec<ExprId> },
    /// A call to an intrinsic. `object` is the resource for a method (`tex.Sample(...)`).
    Intrinsic { op: IntrinsicOp, object: Option<ExprId>, args: Vec<ExprId> },
    /// `base.field`: `index` counts fields of the struct that declares it; `via_base` lists the
    /// base-class steps from `base`'s type to that struct. `base` may also be a
    /// `ConstantBuffer<S>`/`TextureBuffer<S>`, whose fields are those of `S`.
    Field { base: ExprId, index: u32, via_base: Vec<u32> },
    /// `v.xzy`: component indices 0..4 (also `.x` on a scalar: its base has a scalar type).
    Swizzle { base: ExprId, components: Vec<u8> },
    /// `m._m01_m10` / `m._12`: (row, col) zero-based.
    MatrixSwizzle { base: ExprId, elements: Vec<(u8, u8)> },
    /// `base[index]`: array element, vector component, matrix row, or resource element
    /// (`tex[uint2(...)]`, `buf[i]`); `index` is an integer scalar or vector.
    Index { base: ExprId, index: ExprId },
    /// An argument passed to an `out`/`inout` parameter whose type differs from the lvalue's: the
    /// emitter copies `lvalue` into a temporary of the parameter type (for `inout`, converting
    /// with `to_param`), and copies it back converting with `from_param`.
    OutArg { lvalue: ExprId, to_param: Option<CastKind>, from_param: CastKind },
    /// `a, b`.
    Comma { lhs: ExprId, rhs: ExprId },
    /// A string literal (`printf` format).
    Str(String),
    /// `ResourceDescriptorHeap[index]` (`sampler: false`) or `SamplerDescriptorHeap[index]`
    /// (SM 6.6 dynamic resources); `index` is a `uint`. The expression's type is the resource
    /// type its use converted it to (`Texture2D t = ResourceDescriptorHeap[i];` gives
    /// `Texture2D`); it keeps the placeholder type `.Resource`/`.Sampler`
    /// ([`ObjectKind::ResourceHeapElement`](crate::types::ObjectKind)) only where its value is
    /// discarded. Not an lvalue.
    HeapIndex { sampler: bool, index: ExprId },
    /// `texture.mips[level][coord]` (`sample: false`) or `texture.sample[level][coord]` (`sample:
    /// true`, `level` being the sample index of a multisampled texture): one texel, of the
    /// texture's element type. `level` is a `uint`; `coord` a `uint` (vector) with one component
    /// per index dimension of the texture. Not an lvalue.
    TexelAt { texture: ExprId, sample: bool, level: ExprId, coord: ExprId },
}

/// Spans of every id, indexed like the arenas.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spans {
    pub exprs: Vec<Span>,
    pub stmts: Vec<Span>,
}

/// The checked program.
#[derive(Clone, Debug)]
pub struct Module {
    pub types: TypeTable,
    pub vars: Vec<Var>,
    pub funcs: Vec<Function>,
    pub exprs: Vec<Expr>,
    pub stmts: Vec<Stmt>,
    pub spans: Spans,
    /// Global variables (resources, statics, groupshared, `$Globals` members) in declaration
    /// order.
    pub globals: Vec<VarId>,
    pub cbuffers: Vec<CBuffer>,
    pub entry: Option<EntryPoint>,
    /// Every entry point: `entry` alone for a stage target, each `[shader("...")]` function (in
    /// declaration order) for a library target.
    pub entries: Vec<EntryPoint>,
    /// Every attribute the program writes that the attribute table knows, in source order.
    pub attr_uses: Vec<AttrUse>,
    /// The `[[vk::ext_capability]]`/`[[vk::ext_extension]]` attributes of typedefs of inline
    /// SPIR-V types (`vk::SpirvType`, `vk::SpirvOpaqueType`) and of struct fields, by the type
    /// (the inline type, the struct): the SPIR-V emitter declares them when it lowers the type,
    /// so an unused type adds nothing (as in DXC). Invariant: each type is `Type::InlineSpirv`
    /// or `Type::Struct`, each attribute one of those two.
    pub type_requirements: Vec<(TypeId, Vec<RawAttr>)>,
}

impl Module {
    pub fn new() -> Module {
        Module {
            types: TypeTable::new(),
            vars: Vec::new(),
            funcs: Vec::new(),
            exprs: Vec::new(),
            stmts: Vec::new(),
            spans: Spans::default(),
            globals: Vec::new(),
            cbuffers: Vec::new(),
            entry: None,
            entries: Vec::new(),
            attr_uses: Vec::new(),
            type_requirements: Vec::new(),
        }
    }
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }
    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id.0 as usize]
    }
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }
    pub fn func(&self, id: FuncId) -> &Function {
        &self.funcs[id.0 as usize]
    }
    pub fn expr_span(&self, id: ExprId) -> Span {
        self.spans.exprs[id.0 as usize]
    }
    pub fn stmt_span(&self, id: StmtId) -> Span {
        self.spans.stmts[id.0 as usize]
    }
    pub fn add_expr(&mut self, e: Expr, span: Span) -> ExprId {
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(e);
        self.spans.exprs.push(span);
        id
    }
    pub fn add_stmt(&mut self, s: Stmt, span: Span) -> StmtId {
        let id = StmtId(self.stmts.len() as u32);
        self.stmts.push(s);
        self.spans.stmts.push(span);
        id
    }
    pub fn add_var(&mut self, v: Var) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(v);
        id
    }
    pub fn add_func(&mut self, f: Function) -> FuncId {
        let id = FuncId(self.funcs.len() as u32);
        self.funcs.push(f);
        id
    }
    /// The function with this (unqualified) name, first declared.
    pub fn find_func(&self, name: &str) -> Option<FuncId> {
        self.funcs.iter().position(|f| f.qualified_name == name).map(|i| FuncId(i as u32))
    }
}

impl Default for Module {
    fn default() -> Self {
        Module::new()
    }
}
