//! The parser's tokens: what the token adapter (`adapter.rs`) makes of preprocessing tokens, and
//! the word lists it uses (keywords, modifiers, built-in type spellings).

use crate::ast::{FloatSuffix, IntSuffix, Modifier};
use crate::lexer::Tok;
use crate::fxhash::FxSet;
use crate::source::Span;
use std::sync::OnceLock;

/// A location as the generated parser sees it: the index of a token in the adapted stream and
/// that token's span. `@L`/`@R` in the grammar are `Pos`es; [`sp`] joins two into a node span.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub idx: u32,
    pub span: Span,
}

/// The span from the token at `l` to the token at `r`.
pub fn sp(l: Pos, r: Pos) -> Span {
    l.span.to(r.span)
}

/// The adapter never fails; the parser's user error type is uninhabited.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoError {}

/// An integer literal token's payload.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IntTok(pub u64, pub IntSuffix);

/// A float literal token's payload.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FloatTok(pub f64, pub FloatSuffix);

/// Reserved words (always keywords, except right after `.`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    Struct,
    Class,
    Interface,
    Enum,
    Typedef,
    Using,
    Namespace,
    Template,
    Typename,
    CBuffer,
    TBuffer,
    If,
    Else,
    For,
    While,
    Do,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Discard,
    True,
    False,
    Sizeof,
    Operator,
    /// Only right after `:` and before `(`.
    Register,
    /// Only right after `:` and before `(`.
    PackOffset,
}

/// A parser token.
#[derive(Clone, Debug, PartialEq)]
pub enum PTok {
    Ident(String),
    /// An identifier known to name a type (built-in spelling or declared in the file); see
    /// `parser/mod.rs`. `unsigned int` arrives as one `TypeName("unsigned int")`.
    TypeName(String),
    Int(IntTok),
    Float(FloatTok),
    /// One or more adjacent string literals, concatenated, escapes resolved.
    Str(String),
    Pragma(String),
    Kw(Kw),
    /// Every modifier but `const` (which is also the `const` of methods).
    Mod(Modifier),
    Const,
    /// `<` opening a template argument or parameter list.
    TLt,
    /// `>` closing one (also each half of a split `>>`).
    TGt,
    /// Any other punctuator, as lexed.
    P(Tok),
}

/// Keyword for a spelling, if it is a reserved word.
pub fn keyword(s: &str) -> Option<Kw> {
    Some(match s {
        "struct" => Kw::Struct,
        "class" => Kw::Class,
        "interface" => Kw::Interface,
        "enum" => Kw::Enum,
        "typedef" => Kw::Typedef,
        "using" => Kw::Using,
        "namespace" => Kw::Namespace,
        "template" => Kw::Template,
        "typename" => Kw::Typename,
        "cbuffer" => Kw::CBuffer,
        "tbuffer" => Kw::TBuffer,
        "if" => Kw::If,
        "else" => Kw::Else,
        "for" => Kw::For,
        "while" => Kw::While,
        "do" => Kw::Do,
        "switch" => Kw::Switch,
        "case" => Kw::Case,
        "default" => Kw::Default,
        "break" => Kw::Break,
        "continue" => Kw::Continue,
        "return" => Kw::Return,
        "discard" => Kw::Discard,
        "true" => Kw::True,
        "false" => Kw::False,
        "sizeof" => Kw::Sizeof,
        "operator" => Kw::Operator,
        _ => return None,
    })
}

/// Modifiers that are always keywords.
pub fn reserved_modifier(s: &str) -> Option<Modifier> {
    use Modifier::*;
    Some(match s {
        "static" => Static,
        "const" => Const,
        "uniform" => Uniform,
        "extern" => Extern,
        "groupshared" => Groupshared,
        "volatile" => Volatile,
        "inline" => Inline,
        "export" => Export,
        "in" => In,
        "out" => Out,
        "inout" => InOut,
        "row_major" => RowMajor,
        "column_major" => ColumnMajor,
        "nointerpolation" => NoInterpolation,
        "noperspective" => NoPerspective,
        "globallycoherent" => GloballyCoherent,
        _ => return None,
    })
}

/// Modifiers that are also ordinary names (`float sample;`, `uint indices[3];`): they are
/// modifiers only when a type or another modifier follows.
pub fn contextual_modifier(s: &str) -> Option<Modifier> {
    use Modifier::*;
    Some(match s {
        "shared" => Shared,
        "precise" => Precise,
        "snorm" => Snorm,
        "unorm" => Unorm,
        "linear" => Linear,
        "centroid" => Centroid,
        "sample" => Sample,
        "center" => Center,
        "point" => Point,
        "line" => Line,
        "triangle" => Triangle,
        "lineadj" => LineAdj,
        "triangleadj" => TriangleAdj,
        "vertices" => Vertices,
        "indices" => Indices,
        "primitives" => Primitives,
        "payload" => Payload,
        _ => return None,
    })
}

const SCALARS: &[&str] = &[
    "bool", "int", "uint", "dword", "half", "float", "double", "min16float", "min10float", "min16int", "min12int",
    "min16uint", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float16_t", "float32_t",
    "float64_t", "int8_t4_packed", "uint8_t4_packed",
];

const OBJECTS: &[&str] = &[
    "void", "vector", "matrix", "string", "Buffer", "RWBuffer", "ByteAddressBuffer", "RWByteAddressBuffer",
    "StructuredBuffer", "RWStructuredBuffer", "AppendStructuredBuffer", "ConsumeStructuredBuffer", "ConstantBuffer",
    "TextureBuffer", "Texture1D", "Texture1DArray", "Texture2D", "Texture2DArray", "Texture2DMS", "Texture2DMSArray",
    "Texture3D", "TextureCube", "TextureCubeArray", "RWTexture1D", "RWTexture1DArray", "RWTexture2D",
    "RWTexture2DArray", "RWTexture3D", "RWTexture2DMS", "RWTexture2DMSArray", "RasterizerOrderedBuffer",
    "RasterizerOrderedByteAddressBuffer", "RasterizerOrderedStructuredBuffer", "RasterizerOrderedTexture1D",
    "RasterizerOrderedTexture1DArray", "RasterizerOrderedTexture2D", "RasterizerOrderedTexture2DArray",
    "RasterizerOrderedTexture3D", "FeedbackTexture2D", "FeedbackTexture2DArray", "SamplerState",
    "SamplerComparisonState", "sampler", "sampler1D", "sampler2D", "sampler3D", "samplerCUBE", "SamplerCube",
    "texture", "Texture", "texture1D", "texture2D", "texture3D", "textureCUBE", "InputPatch", "OutputPatch",
    "PointStream", "LineStream", "TriangleStream", "RaytracingAccelerationStructure", "RayDesc", "RayQuery",
    "BuiltInTriangleIntersectionAttributes", "BuiltInTrianglePositions", "HitObject", "SubpassInput", "SubpassInputMS", "SpirvType",
    "SpirvOpaqueType", "Literal", "integral_constant", "BufferPointer", "GlobalRootSignature", "LocalRootSignature",
    "StateObjectConfig", "SubobjectToExportsAssociation", "RaytracingShaderConfig", "RaytracingPipelineConfig",
    "RaytracingPipelineConfig1", "TriangleHitGroup", "ProceduralPrimitiveHitGroup", "DispatchNodeInputRecord",
    "RWDispatchNodeInputRecord", "GroupNodeInputRecords", "RWGroupNodeInputRecords", "ThreadNodeInputRecord",
    "RWThreadNodeInputRecord", "EmptyNodeInput", "NodeOutput", "NodeOutputArray", "EmptyNodeOutput",
    "EmptyNodeOutputArray", "GroupNodeOutputRecords", "ThreadNodeOutputRecords", "VkBufferPointer", "SampledTexture1D",
    "SampledTexture1DArray", "SampledTexture2D", "SampledTexture2DArray", "SampledTexture2DMS",
    "SampledTexture2DMSArray", "ext_type", "ext_result_id", "auto", "SampledTexture3D", "SampledTextureCUBE", "SampledTextureCUBEArray",
];

/// Whether `s` is a built-in type spelling: a scalar, `<scalar>N`, `<scalar>NxM` (N, M in 1..=4),
/// or a built-in object/template name.
pub fn is_builtin_type(s: &str) -> bool {
    let b = s.as_bytes();
    // Strip a vector/matrix suffix: "N" or "NxM".
    let mut base = s;
    let n = b.len();
    let dig = |c: u8| (b'1'..=b'4').contains(&c);
    if n >= 4 && b[n - 2] == b'x' && dig(b[n - 1]) && dig(b[n - 3]) {
        base = &s[..n - 3];
    } else if n >= 2 && dig(b[n - 1]) {
        base = &s[..n - 1];
    }
    let (scalars, all) = builtin_sets();
    if base.len() != s.len() && scalars.contains(base) && !base.ends_with("_packed") {
        return true;
    }
    all.contains(s)
}

/// [`SCALARS`], and [`SCALARS`] with [`OBJECTS`], as hash sets (this is asked for every identifier).
fn builtin_sets() -> &'static (FxSet<&'static str>, FxSet<&'static str>) {
    static SETS: OnceLock<(FxSet<&'static str>, FxSet<&'static str>)> = OnceLock::new();
    SETS.get_or_init(|| {
        let scalars: FxSet<&'static str> = SCALARS.iter().copied().collect();
        let all = SCALARS.iter().chain(OBJECTS).copied().collect();
        (scalars, all)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_type_spellings() {
        for t in ["float", "float4", "float4x4", "min16float3", "uint64_t2", "int1x1", "Texture2D", "vector", "bool2x3"] {
            assert!(is_builtin_type(t), "{t}");
        }
        for t in ["float5", "float4x5", "floats", "x", "vector4", "Foo", "int0"] {
            assert!(!is_builtin_type(t), "{t}");
        }
    }
}
