//! One reflection model for both outputs of hlslc: what a compiled shader binds and exchanges.
//!
//! [`Reflection`] is computed from the *final* output, never from the source: for SPIR-V from
//! the module's words after the optimizer ([`from_spirv`]), for DXIL from the lowered module's
//! `dx.resources` / `dx.entryPoints` metadata ([`from_dxil`]), the same nodes the container parts
//! are written from. So it lists what the shader really declares after optimization, with a `used`
//! flag for bindings that are declared but not referenced by any function.
//!
//! The JSON form ([`Reflection::to_json`]) is versioned: [`SCHEMA_VERSION`] changes whenever a
//! field changes meaning or disappears (adding a field does not change it). `docs/reflection.md`
//! documents every field.
//!
//! ```
//! let r = hlslc_reflect::Reflection::empty(hlslc_reflect::Target::Spirv);
//! assert!(r.to_json().contains("\"schema_version\": 1"));
//! ```

mod dxil;
mod spirv;

pub use dxil::from_dxil;
pub use spirv::{from_spirv, from_spirv_module, ReflectError};

use serde::Serialize;

/// The version of the JSON schema written by [`Reflection::to_json`].
pub const SCHEMA_VERSION: u32 = 1;

/// Which output the reflection describes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Spirv,
    Dxil,
}

/// Everything a host needs to bind a compiled shader. Invariant: the lists are in the order of
/// the output (SPIR-V: declaration order of the global variables; DXIL: `dx.resources` order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reflection {
    pub schema_version: u32,
    pub target: Target,
    pub entry_points: Vec<EntryPoint>,
    /// Descriptor-bound resources: constant and texture buffers, storage buffers, images,
    /// samplers, acceleration structures, UAV counters.
    pub resources: Vec<Resource>,
    /// `[[vk::push_constant]]` blocks (SPIR-V only; kind `push_constant`, no set/binding).
    pub push_constants: Vec<Resource>,
    pub spec_constants: Vec<SpecConstant>,
}

impl Reflection {
    /// A reflection with no entry point and no resource.
    pub fn empty(target: Target) -> Reflection {
        Reflection { schema_version: SCHEMA_VERSION, target, entry_points: Vec::new(), resources: Vec::new(), push_constants: Vec::new(), spec_constants: Vec::new() }
    }

    /// The JSON form (pretty-printed, fields in declaration order, absent optional fields left
    /// out), ending with a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("reflection serializes");
        s.push('\n');
        s
    }
}

/// One entry point and its stage state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EntryPoint {
    pub name: String,
    /// `vertex`, `pixel`, `geometry`, `hull`, `domain`, `compute`, `mesh`, `amplification`,
    /// `raygeneration`, `intersection`, `anyhit`, `closesthit`, `miss`, `callable`.
    pub stage: String,
    /// `[numthreads]` (compute, mesh, amplification); the default values when specialized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<[u32; 3]>,
    /// The specialization constant id of each workgroup dimension set by one (SPIR-V
    /// `LocalSizeId` or a `WorkgroupSize` built-in made of spec constants); `null` for a fixed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workgroup_size_spec_ids: Option<[Option<u32>; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wave_size: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tessellation: Option<Tessellation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geometry: Option<Geometry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<Mesh>,
    /// Pixel shaders: `early_depth_stencil`, `depth_greater`, `depth_less`, `depth_replacing`...
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pixel_modes: Vec<String>,
    /// SPIR-V: every `OpExecutionMode`/`OpExecutionModeId` of the entry point as written
    /// (`"LocalSize 8 8 1"`), so that none is lost in the summary fields above.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub execution_modes: Vec<String>,
    pub inputs: Vec<StageVariable>,
    pub outputs: Vec<StageVariable>,
    /// DXIL: the patch-constant signature (hull outputs, domain inputs). In SPIR-V those are
    /// ordinary inputs/outputs with `patch: true`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub patch_constants: Vec<StageVariable>,
}

/// Hull and domain shader state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tessellation {
    /// `tri`, `quad`, `isoline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// `integer`, `pow2`, `fractional_even`, `fractional_odd`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partitioning: Option<String>,
    /// `point`, `line`, `triangle_cw`, `triangle_ccw`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_primitive: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_control_points: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_control_points: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tess_factor: Option<f32>,
}

/// Geometry shader state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Geometry {
    /// `point`, `line`, `triangle`, `lineadj`, `triangleadj`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_primitive: Option<String>,
    /// `point_list`, `line_strip`, `triangle_strip`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_topology: Option<String>,
    pub max_vertex_count: u32,
    /// `[instance(n)]`, 1 without it.
    pub instances: u32,
    /// DXIL: bit `i` set when stream `i` is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_mask: Option<u32>,
}

/// Mesh shader state.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Mesh {
    /// `point`, `line`, `triangle`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_topology: Option<String>,
    pub max_vertices: u32,
    pub max_primitives: u32,
}

/// A stage input or output.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StageVariable {
    /// SPIR-V: the variable's name (`in.var.TEXCOORD0`); DXIL: the semantic name.
    pub name: String,
    /// Semantic name without its index (`TEXCOORD`, `SV_Position`).
    pub semantic: String,
    pub semantic_index: u32,
    /// SPIR-V `Location` (absent for built-ins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component: Option<u32>,
    /// SPIR-V `BuiltIn` name (`Position`, `FragCoord`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// DXIL: the system value kind (`DXIL::SemanticKind` spelled as its semantic, `arbitrary` for
    /// none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_value: Option<String>,
    /// DXIL: the packed signature register (start row); absent when not packed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register: Option<u32>,
    /// DXIL: the component mask of the first row (bit 0 = x).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask: Option<u8>,
    /// DXIL: rows taken (an array or matrix takes several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    #[serde(rename = "type")]
    pub ty: Type,
    /// `flat`, `noperspective`, `centroid`, `sample`; empty for the default (perspective).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interpolation: Vec<String>,
    /// SPIR-V `Patch` (a per-patch variable of a hull or domain shader).
    #[serde(skip_serializing_if = "is_false")]
    pub patch: bool,
    /// SPIR-V `PerPrimitiveEXT`/`PerPrimitiveNV` (mesh shader primitive outputs).
    #[serde(skip_serializing_if = "is_false")]
    pub per_primitive: bool,
    /// Geometry shader output stream (DXIL), when not 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<u32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a resource is, in HLSL's terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    /// `cbuffer`, `ConstantBuffer<T>`, `$Globals`.
    ConstantBuffer,
    /// `tbuffer`, `TextureBuffer<T>`.
    TextureBuffer,
    StructuredBuffer,
    RwStructuredBuffer,
    AppendStructuredBuffer,
    ConsumeStructuredBuffer,
    ByteAddressBuffer,
    RwByteAddressBuffer,
    /// The counter of an append/consume/RW structured buffer (SPIR-V: its own binding).
    Counter,
    /// `Buffer<T>`: a uniform texel buffer.
    TypedBuffer,
    /// `RWBuffer<T>`: a storage texel buffer.
    RwTypedBuffer,
    /// `Texture*` (a sampled image).
    Texture,
    /// `RWTexture*`, `RasterizerOrdered*` (a storage image).
    RwTexture,
    /// `FeedbackTexture2D[Array]` (DXIL).
    FeedbackTexture,
    Sampler,
    /// `[[vk::combinedImageSampler]]` or a sampled image.
    CombinedImageSampler,
    AccelerationStructure,
    /// `SubpassInput[MS]`.
    SubpassInput,
    /// A storage buffer of no HLSL kind we recognize (named by its type).
    StorageBuffer,
    PushConstant,
}

/// A reference to another resource (a structured buffer's counter).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResourceRef {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
}

/// A bound resource.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Resource {
    /// The variable's name (SPIR-V: `OpName` of the variable; DXIL: the resource record's name).
    pub name: String,
    pub kind: ResourceKind,
    /// SPIR-V descriptor set and binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
    /// DXIL register space, first register (`b`/`t`/`u`/`s` by kind) and the number of
    /// registers (`null` for an unbounded range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Option<u32>>,
    /// Array dimensions of the resource variable, outermost first; 0 = unbounded (runtime
    /// array).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub array: Vec<u32>,
    /// Images: `1d`, `2d`, `3d`, `cube`, `buffer`, `subpass`, with `_array` and `_ms` suffixes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimension: Option<String>,
    /// Images and typed buffers: the sampled/returned scalar type; structured buffers: the
    /// element type (DXIL: the component type of the record).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element_type: Option<Type>,
    /// Storage images: the SPIR-V image format (`rgba32f`, `unknown`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_format: Option<String>,
    /// `read`, `write` or `read_write`.
    pub access: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_buffer: Option<ResourceRef>,
    /// Buffers: the block as laid out (a struct type with every member's offset and size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<Type>,
    /// DXIL structured buffers: the element stride; cbuffers: the size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Referenced by some function of the module.
    pub used: bool,
}

/// Scalar kinds and the other kinds of types.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseType {
    Bool,
    Int8,
    Uint8,
    Int16,
    Uint16,
    Int,
    Uint,
    Int64,
    Uint64,
    Half,
    Float,
    Double,
    Struct,
    Image,
    Sampler,
    SampledImage,
    AccelerationStructure,
    Pointer,
    Unknown,
}

/// A type with the layout the output gives it. For a matrix, `columns` vectors of `vecsize`
/// elements each, `matrix_stride` bytes apart, in the SPIR-V sense: DXC's mapping turns an HLSL
/// `floatRxC` into `R` SPIR-V columns of `C` elements (see docs/reflection.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type {
    /// HLSL spelling (`float4`, `uint`, `float3x4`) or the struct's name.
    pub name: String,
    pub base: BaseType,
    #[serde(skip_serializing_if = "is_one")]
    pub vecsize: u32,
    #[serde(skip_serializing_if = "is_one")]
    pub columns: u32,
    /// Array dimensions, outermost first; 0 = runtime (unbounded) array.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub array: Vec<u32>,
    /// The stride of the outermost array dimension.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub array_stride: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix_stride: Option<u32>,
    /// `row_major` or `column_major` as emitted (SPIR-V `RowMajor`/`ColMajor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix_layout: Option<String>,
    /// Structs: the declared size in bytes (last member's offset plus its size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

impl Default for Type {
    fn default() -> Type {
        Type::scalar(BaseType::Unknown)
    }
}

impl Type {
    pub fn scalar(base: BaseType) -> Type {
        Type::vector(base, 1)
    }
    pub fn vector(base: BaseType, n: u32) -> Type {
        let name = if n == 1 { scalar_name(base).to_string() } else { format!("{}{n}", scalar_name(base)) };
        Type { name, base, vecsize: n, columns: 1, array: Vec::new(), array_stride: None, matrix_stride: None, matrix_layout: None, size: None, members: Vec::new() }
    }
}

/// The HLSL spelling of a scalar kind.
pub fn scalar_name(base: BaseType) -> &'static str {
    match base {
        BaseType::Bool => "bool",
        BaseType::Int8 => "int8_t",
        BaseType::Uint8 => "uint8_t",
        BaseType::Int16 => "int16_t",
        BaseType::Uint16 => "uint16_t",
        BaseType::Int => "int",
        BaseType::Uint => "uint",
        BaseType::Int64 => "int64_t",
        BaseType::Uint64 => "uint64_t",
        BaseType::Half => "half",
        BaseType::Float => "float",
        BaseType::Double => "double",
        BaseType::Struct => "struct",
        BaseType::Image => "image",
        BaseType::Sampler => "sampler",
        BaseType::SampledImage => "sampled_image",
        BaseType::AccelerationStructure => "acceleration_structure",
        BaseType::Pointer => "pointer",
        BaseType::Unknown => "unknown",
    }
}

/// A struct member with its layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Member {
    pub name: String,
    /// Byte offset in the enclosing struct (absent in structs with no explicit layout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    /// Bytes taken: array stride times length, matrix stride times vectors, components times
    /// their size, a struct's declared size; 0 for a runtime array.
    pub size: u32,
    #[serde(rename = "type")]
    pub ty: Type,
}

/// A specialization constant (`[[vk::constant_id(N)]]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpecConstant {
    pub name: String,
    pub id: u32,
    #[serde(rename = "type")]
    pub ty: Type,
    /// The default value: a number or `true`/`false`.
    pub default: serde_json::Value,
}
