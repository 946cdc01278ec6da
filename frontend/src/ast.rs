//! The syntax tree the parser produces and sema consumes.
//!
//! It records what the user wrote, resolved no further: type names are paths (`float4`,
//! `vk::SpirvType`, `ns::S`) with optional template arguments; sema decides what they mean. Every
//! node has the span of its source text. Invariants:
//! - A [`Decl::Var`] has at least one declarator.
//! - `Expr::Call::callee` is a [`ExprKind::Name`] or a [`ExprKind::Member`] (a method call).
//! - [`ExprKind::Construct`] is only produced when the parser knows the callee is a type
//!   (`float4(a, b)`, `S(x)`, `vector<float,2>(0, 1)`); a call through a name that is not a type is
//!   an [`ExprKind::Call`].
//! - Template arguments (`<...>`) only ever follow names the parser knows to be templates; how the
//!   parser tells `a < b > c` from `T<b> c` is written down in `parser/mod.rs`.
//! - The tree is at most about `parser::limits::MAX_TREE_DEPTH` (2048) levels deep: the parser
//!   refuses deeper input, so recursive walks over it are safe on an ordinary thread stack.

use crate::source::Span;

/// An identifier as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A possibly qualified name: `x`, `::x`, `ns::S`, `vk::SpirvType`, `S::method`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// Written with a leading `::`.
    pub global: bool,
    /// At least one part.
    pub parts: Vec<Ident>,
    /// Template arguments written on the qualifying parts (`S<int>::value`,
    /// `A<T>::B<U>::c`): empty when none are written, else one entry per part (the last is
    /// always `None`: arguments after the last part belong to the type or call).
    pub scope_args: Vec<Option<Vec<TemplateArg>>>,
    pub span: Span,
}

impl Path {
    pub fn last(&self) -> &Ident {
        self.parts.last().expect("a path has at least one part")
    }
    /// The parts joined with `::` (without a leading `::`).
    pub fn joined(&self) -> String {
        self.parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join("::")
    }
}

/// The whole file after preprocessing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub decls: Vec<Decl>,
}

// ---------------------------------------------------------------------------------------------
// Types, modifiers, attributes, annotations
// ---------------------------------------------------------------------------------------------

/// A type as written.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// A named type with optional template arguments: `float4`, `uint`, `vector<float, 4>`,
    /// `Texture2D<float4>`, `Texture2D` (defaulted arguments), `ns::S`, `vk::SpirvType<...>`,
    /// `unsigned int` (spelled as the single name `unsigned int`).
    Named { path: Path, args: Option<Vec<TemplateArg>> },
    /// A struct defined where it is used: `struct { float a; } x;`, `struct S { ... } s;`.
    Struct(Box<StructDecl>),
    /// An array type where a type is written without a declarator: `(float[4])x`,
    /// `buf.Load<S[2]>(0)`, `RWStructuredBuffer<int[2]>`, `sizeof(int[2])`. One entry per `[...]`.
    /// (Added by the parser work.)
    Array { elem: Box<TypeSpec>, dims: Vec<Option<Expr>> },
}

/// A template argument: a type or a constant expression (`vector<float, N + 1>`).
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg {
    Type(TypeSpec),
    Expr(Expr),
    /// A type with modifiers: `RWTexture2D<unorm float4>`. (Added by the parser work.)
    ModifiedType { modifiers: Vec<ModifierAt>, ty: TypeSpec },
}

/// Storage classes, type modifiers, interpolation modes, parameter directions and primitive
/// qualifiers, in one list because HLSL lets them come in any order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    Static,
    Const,
    Uniform,
    Extern,
    Groupshared,
    Shared,
    Volatile,
    Precise,
    Inline,
    Export,
    RowMajor,
    ColumnMajor,
    Snorm,
    Unorm,
    In,
    Out,
    InOut,
    Linear,
    Centroid,
    NoInterpolation,
    NoPerspective,
    Sample,
    Center,
    GloballyCoherent,
    /// Geometry shader input primitive types.
    Point,
    Line,
    Triangle,
    LineAdj,
    TriangleAdj,
    /// Mesh shader output and payload qualifiers.
    Vertices,
    Indices,
    Primitives,
    Payload,
}

impl Modifier {
    /// The modifier's keyword.
    pub fn keyword(self) -> &'static str {
        use Modifier::*;
        match self {
            Static => "static",
            Const => "const",
            Uniform => "uniform",
            Extern => "extern",
            Groupshared => "groupshared",
            Shared => "shared",
            Volatile => "volatile",
            Precise => "precise",
            Inline => "inline",
            Export => "export",
            RowMajor => "row_major",
            ColumnMajor => "column_major",
            Snorm => "snorm",
            Unorm => "unorm",
            In => "in",
            Out => "out",
            InOut => "inout",
            Linear => "linear",
            Centroid => "centroid",
            NoInterpolation => "nointerpolation",
            NoPerspective => "noperspective",
            Sample => "sample",
            Center => "center",
            GloballyCoherent => "globallycoherent",
            Point => "point",
            Line => "line",
            Triangle => "triangle",
            LineAdj => "lineadj",
            TriangleAdj => "triangleadj",
            Vertices => "vertices",
            Indices => "indices",
            Primitives => "primitives",
            Payload => "payload",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ModifierAt {
    pub modifier: Modifier,
    pub span: Span,
}

/// `[name(args)]`, `[[ns::name(args)]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// `vk` in `[[vk::binding(0)]]`.
    pub namespace: Option<Ident>,
    pub name: Ident,
    /// Arguments as expressions; string arguments are [`ExprKind::StringLit`], bare words are
    /// [`ExprKind::Name`].
    pub args: Vec<Expr>,
    /// Written with `[[ ]]` (C++11 style) rather than `[ ]`.
    pub double_bracket: bool,
    pub span: Span,
}

/// What may follow `:` after a declarator, parameter or function.
#[derive(Clone, Debug, PartialEq)]
pub enum Annotation {
    /// `: TEXCOORD0`, `: SV_Target`.
    Semantic(Ident),
    /// `: register(t0)`, `: register(t0, space1)`, `: register(ps_5_0, s1)`, `: register(space2)`.
    Register { profile: Option<Ident>, slot: Option<Ident>, space: Option<Ident>, span: Span },
    /// `: packoffset(c0)`, `: packoffset(c1.y)` (the span starts at `packoffset`).
    PackOffset { register: Ident, component: Option<Ident>, span: Span },
    /// A bit-field width on a struct field: `uint a : 8;`. (Added by the parser work.)
    BitField { width: u64, span: Span },
    /// A payload access qualifier: `: read(caller, closesthit)`, `: write(miss)`. (Added by the
    /// parser work.)
    PayloadAccess { kind: Ident, stages: Vec<Ident>, span: Span },
}

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Var(VarDecl),
    Func(FuncDecl),
    /// `struct`, `class` or `interface` with a body, or a forward declaration.
    Struct(StructDecl),
    /// `cbuffer` / `tbuffer`.
    Buffer(BufferDecl),
    /// `typedef` and `using X = T;`.
    Typedef(TypedefDecl),
    Enum(EnumDecl),
    Namespace(NamespaceDecl),
    Template(TemplateDecl),
    /// `#pragma ...` passed through by the preprocessor (`pack_matrix`, `dxc`, ...), in source
    /// order among the declarations. `text` is everything after `pragma`.
    Pragma { text: String, span: Span },
    /// `using namespace ns;` (`namespace`: the names of `ns` are found by unqualified lookup in
    /// the scope that holds the directive) or `using ns::name;` (`name` is declared here as what
    /// the path names: a type, functions, a variable).
    Using { path: Path, namespace: bool, span: Span },
    /// A stray `;` at file or struct scope.
    Empty(Span),
}

impl Decl {
    pub fn span(&self) -> Span {
        match self {
            Decl::Var(d) => d.span,
            Decl::Func(d) => d.span,
            Decl::Struct(d) => d.span,
            Decl::Buffer(d) => d.span,
            Decl::Typedef(d) => d.span,
            Decl::Enum(d) => d.span,
            Decl::Namespace(d) => d.span,
            Decl::Template(d) => d.span,
            Decl::Pragma { span, .. } | Decl::Using { span, .. } | Decl::Empty(span) => *span,
        }
    }
}

/// `[attrs] modifiers type a[2] : SEM = init, b;`
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub attrs: Vec<Attribute>,
    pub modifiers: Vec<ModifierAt>,
    pub ty: TypeSpec,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// `S` in an out-of-line static member definition `int S::count = 0;`; usually empty.
    /// (Added by the parser work.)
    pub qualifier: Vec<Ident>,
    /// One entry per `[...]`; `None` for `[]`.
    pub array_dims: Vec<Option<Expr>>,
    pub annotations: Vec<Annotation>,
    /// `= expr` or `= { ... }` (an [`ExprKind::InitList`]).
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FuncDecl {
    pub attrs: Vec<Attribute>,
    pub modifiers: Vec<ModifierAt>,
    pub ret: TypeSpec,
    /// The name; for an out-of-line method `S::f`, `qualifier` holds `S`. Operator overloads are
    /// named by their spelling: `operator+`, `operator[]`, `operator()`.
    pub name: Ident,
    pub qualifier: Vec<Ident>,
    pub params: Vec<Param>,
    /// Semantic of the return value (`float4 main() : SV_Target`).
    pub annotations: Vec<Annotation>,
    /// `None` for a prototype.
    pub body: Option<Block>,
    /// A method declared `const` (`float get() const`).
    pub is_const: bool,
    /// Explicit template arguments of a specialization: `<float>` in
    /// `template<> float twice<float>(float v)`. (Added by the parser work.)
    pub template_args: Option<Vec<TemplateArg>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub attrs: Vec<Attribute>,
    pub modifiers: Vec<ModifierAt>,
    pub ty: TypeSpec,
    /// Unnamed parameters are allowed in prototypes.
    pub name: Option<Ident>,
    pub array_dims: Vec<Option<Expr>>,
    pub annotations: Vec<Annotation>,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StructKind {
    Struct,
    Class,
    Interface,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub kind: StructKind,
    pub attrs: Vec<Attribute>,
    /// `None` for an anonymous struct.
    pub name: Option<Ident>,
    /// Template arguments of a specialization: `<half>` in `template<> struct Trait<half> {...}`.
    /// (Added by the parser work.)
    pub template_args: Option<Vec<TemplateArg>>,
    /// Base struct/class and interfaces: `struct D : B, I`.
    pub bases: Vec<TypeSpec>,
    /// Fields ([`Decl::Var`]), methods ([`Decl::Func`]), nested types, static members, templates.
    /// `None` for a forward declaration `struct S;`.
    pub members: Option<Vec<Decl>>,
    pub span: Span,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BufferKind {
    CBuffer,
    TBuffer,
}

/// `cbuffer Name : register(b0) { members }`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferDecl {
    pub kind: BufferKind,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub annotations: Vec<Annotation>,
    pub members: Vec<Decl>,
    pub span: Span,
}

/// `typedef const float4 F4, F4A[2];` or `using F4 = float4;`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedefDecl {
    /// `[[vk::ext_capability(39)]] typedef ...`, `using T [[...]] = ...`. (Added by the parser work.)
    pub attrs: Vec<Attribute>,
    pub modifiers: Vec<ModifierAt>,
    pub ty: TypeSpec,
    /// Names with their array dimensions; one for `using`.
    pub names: Vec<(Ident, Vec<Option<Expr>>)>,
    pub is_using: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    pub name: Option<Ident>,
    /// `enum class` / `enum struct`.
    pub scoped: bool,
    /// `enum E : uint`.
    pub underlying: Option<TypeSpec>,
    pub variants: Vec<(Ident, Option<Expr>)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceDecl {
    pub name: Ident,
    pub decls: Vec<Decl>,
    pub span: Span,
}

/// `template<typename T, int N = 2> decl`; `template<> decl` for an explicit specialization.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateDecl {
    pub params: Vec<TemplateParam>,
    pub decl: Box<Decl>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TemplateParam {
    /// `typename T` / `class T`, with a default type.
    Type { name: Ident, default: Option<TypeSpec> },
    /// `int N`, `uint M = 4`.
    Value { ty: TypeSpec, name: Ident, default: Option<Expr> },
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// Statement attributes: `[unroll(4)]`, `[branch]`, `[loop]`, `[flatten]`, `[call]`, `[fastopt]`.
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    /// A local declaration: variables, and also local structs, typedefs and enums.
    Decl(Box<Decl>),
    Block(Block),
    If { cond: Expr, then: Box<Stmt>, otherwise: Option<Box<Stmt>> },
    /// `init` is a [`StmtKind::Decl`] or [`StmtKind::Expr`].
    For { init: Option<Box<Stmt>>, cond: Option<Box<Expr>>, step: Option<Box<Expr>>, body: Box<Stmt> },
    While { cond: Expr, body: Box<Stmt> },
    DoWhile { body: Box<Stmt>, cond: Expr },
    /// `switch (cond) body`; the labels are [`StmtKind::Case`] / [`StmtKind::Default`] statements
    /// inside `body`, as in C, so fallthrough needs no special form.
    Switch { cond: Expr, body: Box<Stmt> },
    Case(Expr),
    Default,
    Break,
    Continue,
    Return(Option<Expr>),
    Discard,
    Empty,
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Integer literal suffixes: none, `u`/`U`, `l`/`L`, `ul`/`lu`, `ll`, `ull`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    None,
    U,
    L,
    UL,
    LL,
    ULL,
}

/// Float literal suffixes: none (a literal float), `f`/`F`, `h`/`H` (half), `l`/`L` (double).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    H,
    L,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Neg,
    Not,
    BitNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    /// `a, b`
    Comma,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            LogAnd => "&&",
            LogOr => "||",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            Comma => ",",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Value already range-checked by the parser (too large for 64 bits is an error).
    IntLit { value: u64, suffix: IntSuffix },
    FloatLit { value: f64, suffix: FloatSuffix },
    BoolLit(bool),
    /// The string's contents with escapes resolved (strings appear in attributes and `printf`).
    StringLit(String),
    /// A variable, function, enum value or static member: `x`, `ns::x`, `E::A`, `S::count`.
    Name(Path),
    Unary { op: UnaryOp, operand: Box<Expr> },
    Binary { op: BinaryOp, lhs: Box<Expr>, rhs: Box<Expr> },
    /// `lhs = rhs` (`op: None`) or a compound assignment `lhs op= rhs`.
    Assign { op: Option<BinaryOp>, lhs: Box<Expr>, rhs: Box<Expr> },
    Ternary { cond: Box<Expr>, then: Box<Expr>, otherwise: Box<Expr> },
    /// `(T)x`.
    Cast { ty: Box<TypeSpec>, expr: Box<Expr> },
    /// `T(args)` where `T` is a type: `float4(a, b)`, `S(x)`.
    Construct { ty: Box<TypeSpec>, args: Vec<Expr> },
    /// `f(args)`, `f<T>(args)`, `obj.Method(args)`, `buf.Load<float2>(0)`.
    Call { callee: Box<Expr>, template_args: Option<Vec<TemplateArg>>, args: Vec<Expr> },
    /// `base.name`: a field, a swizzle (`v.xyz`, `m._m00_m11`) or, as a callee, a method.
    Member { base: Box<Expr>, name: Ident },
    /// `base[index]`.
    Index { base: Box<Expr>, index: Box<Expr> },
    SizeOfType(Box<TypeSpec>),
    SizeOfExpr(Box<Expr>),
    /// `{a, b, {c, d}}` in an initializer.
    InitList(Vec<Expr>),
    /// Stands in for an expression that failed to parse, so that later errors do not cascade.
    Error,
}
