//! The entry-point interface: what sema resolves about an entry point once, for both emitters
//! and the driver.
//!
//! [`Stage`] is the one stage enum of the project: the driver's profiles, sema's entry points,
//! the SPIR-V emitter's execution models and the DXIL emitter's shader kinds all use it.

/// A shader stage, numbered as DXIL's `ShaderKind` (which dxc also uses for the
/// `__SHADER_STAGE_*` / `__SHADER_TARGET_STAGE` predefined macros): `stage as u32` is that
/// number. [`Stage::Library`] is a `lib_6_x` target (no single entry point); the other stages are
/// those of an entry point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Pixel = 0,
    Vertex = 1,
    Geometry = 2,
    Hull = 3,
    Domain = 4,
    Compute = 5,
    Library = 6,
    RayGeneration = 7,
    Intersection = 8,
    AnyHit = 9,
    ClosestHit = 10,
    Miss = 11,
    Callable = 12,
    Mesh = 13,
    Amplification = 14,
    Node = 15,
}

impl Stage {
    /// Every stage, in `ShaderKind` order (`Stage::ALL[k as usize] == k`).
    pub const ALL: [Stage; 16] = [
        Stage::Pixel,
        Stage::Vertex,
        Stage::Geometry,
        Stage::Hull,
        Stage::Domain,
        Stage::Compute,
        Stage::Library,
        Stage::RayGeneration,
        Stage::Intersection,
        Stage::AnyHit,
        Stage::ClosestHit,
        Stage::Miss,
        Stage::Callable,
        Stage::Mesh,
        Stage::Amplification,
        Stage::Node,
    ];

    /// The stage's name as `[shader("...")]` writes it (`library` for [`Stage::Library`]).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Pixel => "pixel",
            Stage::Vertex => "vertex",
            Stage::Geometry => "geometry",
            Stage::Hull => "hull",
            Stage::Domain => "domain",
            Stage::Compute => "compute",
            Stage::Library => "library",
            Stage::RayGeneration => "raygeneration",
            Stage::Intersection => "intersection",
            Stage::AnyHit => "anyhit",
            Stage::ClosestHit => "closesthit",
            Stage::Miss => "miss",
            Stage::Callable => "callable",
            Stage::Mesh => "mesh",
            Stage::Amplification => "amplification",
            Stage::Node => "node",
        }
    }

    /// The profile prefix (`ps`, `cs`, `lib`) of the stages that have a profile of their own;
    /// `None` for ray tracing and node stages, which only exist in libraries.
    pub fn prefix(self) -> Option<&'static str> {
        Some(match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
            Stage::Library => "lib",
            Stage::Mesh => "ms",
            Stage::Amplification => "as",
            _ => return None,
        })
    }

    /// The stage of a profile prefix (`ps` → pixel, `lib` → library).
    pub fn from_prefix(prefix: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.prefix() == Some(prefix))
    }

    /// The stage of a profile (`ps_6_0` → pixel, `lib_6_3` → library).
    pub fn from_profile(profile: &str) -> Option<Stage> {
        Stage::from_prefix(profile.split('_').next()?)
    }

    /// The stage named by a `[shader("...")]` attribute (exact spelling, as dxc compares it);
    /// `library` names no entry stage.
    pub fn from_attribute(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| *s != Stage::Library && s.name() == name)
    }
}

/// A system value (`SV_*` semantic), with DXIL's `SemanticKind` numbers
/// ([`SystemValue::dxil_kind`]) and dxc's canonical spelling ([`SystemValue::name`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SystemValue {
    VertexID,
    InstanceID,
    Position,
    RenderTargetArrayIndex,
    ViewportArrayIndex,
    ClipDistance,
    CullDistance,
    OutputControlPointID,
    DomainLocation,
    PrimitiveID,
    GSInstanceID,
    SampleIndex,
    IsFrontFace,
    Coverage,
    InnerCoverage,
    Target,
    Depth,
    DepthLessEqual,
    DepthGreaterEqual,
    StencilRef,
    DispatchThreadID,
    GroupID,
    GroupIndex,
    GroupThreadID,
    TessFactor,
    InsideTessFactor,
    ViewID,
    Barycentrics,
    ShadingRate,
    CullPrimitive,
    StartVertexLocation,
    StartInstanceLocation,
}

impl SystemValue {
    /// Every system value, in `SemanticKind` order (`ALL[k - 1].dxil_kind() == k`).
    pub const ALL: [SystemValue; 32] = {
        use SystemValue::*;
        [
            VertexID, InstanceID, Position, RenderTargetArrayIndex, ViewportArrayIndex, ClipDistance, CullDistance,
            OutputControlPointID, DomainLocation, PrimitiveID, GSInstanceID, SampleIndex, IsFrontFace, Coverage,
            InnerCoverage, Target, Depth, DepthLessEqual, DepthGreaterEqual, StencilRef, DispatchThreadID, GroupID,
            GroupIndex, GroupThreadID, TessFactor, InsideTessFactor, ViewID, Barycentrics, ShadingRate, CullPrimitive,
            StartVertexLocation, StartInstanceLocation,
        ]
    };

    /// dxc's spelling (`SV_DispatchThreadID`), which DXIL signatures use whatever the source wrote.
    pub fn name(self) -> &'static str {
        use SystemValue::*;
        match self {
            VertexID => "SV_VertexID",
            InstanceID => "SV_InstanceID",
            Position => "SV_Position",
            RenderTargetArrayIndex => "SV_RenderTargetArrayIndex",
            ViewportArrayIndex => "SV_ViewportArrayIndex",
            ClipDistance => "SV_ClipDistance",
            CullDistance => "SV_CullDistance",
            OutputControlPointID => "SV_OutputControlPointID",
            DomainLocation => "SV_DomainLocation",
            PrimitiveID => "SV_PrimitiveID",
            GSInstanceID => "SV_GSInstanceID",
            SampleIndex => "SV_SampleIndex",
            IsFrontFace => "SV_IsFrontFace",
            Coverage => "SV_Coverage",
            InnerCoverage => "SV_InnerCoverage",
            Target => "SV_Target",
            Depth => "SV_Depth",
            DepthLessEqual => "SV_DepthLessEqual",
            DepthGreaterEqual => "SV_DepthGreaterEqual",
            StencilRef => "SV_StencilRef",
            DispatchThreadID => "SV_DispatchThreadID",
            GroupID => "SV_GroupID",
            GroupIndex => "SV_GroupIndex",
            GroupThreadID => "SV_GroupThreadID",
            TessFactor => "SV_TessFactor",
            InsideTessFactor => "SV_InsideTessFactor",
            ViewID => "SV_ViewID",
            Barycentrics => "SV_Barycentrics",
            ShadingRate => "SV_ShadingRate",
            CullPrimitive => "SV_CullPrimitive",
            StartVertexLocation => "SV_StartVertexLocation",
            StartInstanceLocation => "SV_StartInstanceLocation",
        }
    }

    /// DXIL's `SemanticKind` number (0, `Arbitrary`, is a user semantic).
    pub fn dxil_kind(self) -> u8 {
        self as u8 + 1
    }

    /// The system value a semantic name (without its index) spells, in any letter case.
    pub fn from_name(name: &str) -> Option<SystemValue> {
        SystemValue::ALL.into_iter().find(|sv| sv.name().eq_ignore_ascii_case(name))
    }
}

/// A semantic (`: TEXCOORD3`, `: SV_Target1`), parsed once by sema: the name as written without
/// its trailing decimal index, the index (0 when none is written), and the system value it names.
/// Invariants: `name() + index digits == as_str()` when an index was written; `system()` is
/// `Some` exactly when `name()` is a known `SV_*` name (any letter case). Dereferences to the
/// semantic as written, for messages and names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Semantic {
    written: String,
    name_len: usize,
    index: u32,
    system: Option<SystemValue>,
}

impl Semantic {
    /// Parses a semantic as written. An index too large for `u32` counts as 0.
    pub fn parse(written: &str) -> Semantic {
        let name = written.trim_end_matches(|c: char| c.is_ascii_digit());
        let index = written[name.len()..].parse().unwrap_or(0);
        Semantic { written: written.to_string(), name_len: name.len(), index, system: SystemValue::from_name(name) }
    }
    /// The semantic as written (`TEXCOORD3`).
    pub fn as_str(&self) -> &str {
        &self.written
    }
    /// The name without its index, as written (`TEXCOORD`, `sv_target`).
    pub fn name(&self) -> &str {
        &self.written[..self.name_len]
    }
    /// The index (`3` of `TEXCOORD3`; 0 when none is written).
    pub fn index(&self) -> u32 {
        self.index
    }
    pub fn system(&self) -> Option<SystemValue> {
        self.system
    }
    /// True for the system value `sv`.
    pub fn is(&self, sv: SystemValue) -> bool {
        self.system == Some(sv)
    }
    /// The name a DXIL signature gives it: dxc's spelling of a system value, a user semantic's
    /// name as written.
    pub fn canonical_name(&self) -> &str {
        match self.system {
            Some(sv) => sv.name(),
            None => self.name(),
        }
    }
    /// The same name with another index (`TEXCOORD5` from `TEXCOORD3`): the semantics the
    /// leaves of a struct value with one semantic take.
    pub fn with_index(&self, index: u32) -> Semantic {
        Semantic { written: format!("{}{index}", self.name()), name_len: self.name_len, index, system: self.system }
    }
}

impl std::ops::Deref for Semantic {
    type Target = str;
    fn deref(&self) -> &str {
        &self.written
    }
}

impl std::fmt::Display for Semantic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.written)
    }
}

/// `[domain("...")]` of a hull or domain shader; `as u32` is DXIL's `TessellatorDomain`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TessDomain {
    Isoline = 1,
    Tri = 2,
    Quad = 3,
}

/// `[partitioning("...")]` of a hull shader; `as u32` is DXIL's `TessellatorPartitioning`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    Integer = 1,
    Pow2 = 2,
    FractionalOdd = 3,
    FractionalEven = 4,
}

/// `[outputtopology("...")]` of a hull shader; `as u32` is DXIL's
/// `TessellatorOutputPrimitive`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HullTopology {
    Point = 1,
    Line = 2,
    TriangleCw = 3,
    TriangleCcw = 4,
}

/// What a hull shader's attributes say, resolved. Invariant: `patch_constant_func` names a
/// defined free function (the last one of that name, as dxc picks it, with its warning when
/// there are several) that the entry does not reach.
#[derive(Clone, Debug, PartialEq)]
pub struct HullState {
    pub patch_constant_func: crate::tast::FuncId,
    pub partitioning: Option<Partitioning>,
    pub output_topology: Option<HullTopology>,
    /// `[outputcontrolpoints(n)]` as written (0..=32 is checked by the emitters' targets).
    pub output_control_points: Option<i64>,
    /// `[maxtessfactor(x)]`.
    pub max_tess_factor: Option<f32>,
}

/// A geometry shader's input primitive (the qualifier of its per-vertex input array).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GsInput {
    Point,
    Line,
    Triangle,
    LineAdj,
    TriangleAdj,
}

/// A geometry shader's output stream type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GsOutput {
    Point,
    Line,
    Triangle,
}

/// What a geometry shader's attributes and parameters say, resolved. `input` and `output` are
/// those of the first parameter that has one (sema reports a second kind as an error).
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryState {
    /// `[maxvertexcount(n)]` (required: sema reports its absence).
    pub max_vertex_count: i64,
    /// `[instance(n)]`, 1 when absent.
    pub instance_count: i64,
    pub input: Option<GsInput>,
    pub output: Option<GsOutput>,
}

/// `[outputtopology("...")]` of a mesh shader.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeshTopology {
    Point,
    Line,
    Triangle,
}

/// What a mesh shader's attributes and parameters say, resolved: the output topology and the
/// lengths of its `out vertices` and `out indices` arrays (the output limits). Present only when
/// the attribute and both arrays are valid (sema reports the rest).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshState {
    pub topology: MeshTopology,
    pub max_vertices: u32,
    pub max_primitives: u32,
    /// The `out vertices`, `out indices`, `out primitives` and `in payload` parameters.
    pub vertices: crate::tast::VarId,
    pub indices: crate::tast::VarId,
    pub primitives: Option<crate::tast::VarId>,
    pub payload: Option<crate::tast::VarId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_numbers_names_and_prefixes() {
        for (i, s) in Stage::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        assert_eq!(Stage::Mesh as u32, 13);
        assert_eq!(Stage::from_profile("ps_6_0"), Some(Stage::Pixel));
        assert_eq!(Stage::from_profile("lib_6_x"), Some(Stage::Library));
        assert_eq!(Stage::from_profile("rootsig_1_1"), None);
        assert_eq!(Stage::from_attribute("closesthit"), Some(Stage::ClosestHit));
        assert_eq!(Stage::from_attribute("library"), None);
        assert_eq!(Stage::from_attribute("Pixel"), None);
        assert_eq!(Stage::RayGeneration.prefix(), None);
    }

    #[test]
    fn semantics_parse_once() {
        for (k, sv) in SystemValue::ALL.iter().enumerate() {
            assert_eq!(sv.dxil_kind() as usize, k + 1);
        }
        let s = Semantic::parse("sv_target2");
        assert_eq!((s.name(), s.index(), s.system(), s.canonical_name()), ("sv_target", 2, Some(SystemValue::Target), "SV_Target"));
        let t = Semantic::parse("TEXCOORD");
        assert_eq!((t.name(), t.index(), t.system()), ("TEXCOORD", 0, None));
        assert_eq!(t.with_index(4).as_str(), "TEXCOORD4");
        assert_eq!(Semantic::parse("COLOR99999999999").index(), 0);
        assert_eq!(Semantic::parse("SV_Unknown").system(), None);
        assert_eq!(&*Semantic::parse("N1"), "N1");
    }
}
