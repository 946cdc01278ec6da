//! Root signatures: the string language of `[RootSignature("...")]`, `-rootsig-define` and
//! `-T rootsig_1_x` ([`parse`], with dxc's grammar and messages), the description it denotes
//! ([`RootSignature`]), and its binary form, the `RTS0` part of a DXContainer ([`binary`]), laid
//! out as D3D12 serializes a versioned root signature (the layout dxc's
//! `DxilRootSignatureSerializer` writes and `D3D12CreateRootSignature` reads).
//!
//! The numbers are D3D12's: parameter types, visibilities, range types, flags, filters,
//! address modes, comparison functions and border colors are stored as the API's enum values.

pub mod binary;
pub mod check;
pub mod parse;
pub mod print;

/// The serialized version (`D3D_ROOT_SIGNATURE_VERSION`): 1.0 has no descriptor or range flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Version {
    V1_0,
    V1_1,
}

impl Version {
    /// The `Version` word of the `RTS0` header.
    pub fn code(self) -> u32 {
        match self {
            Version::V1_0 => 1,
            Version::V1_1 => 2,
        }
    }
    pub fn from_code(v: u32) -> Option<Version> {
        match v {
            1 => Some(Version::V1_0),
            2 => Some(Version::V1_1),
            _ => None,
        }
    }
    /// `rootsig_1_0` / `rootsig_1_1` (the profile spelling of `-T` and `-force-rootsig-ver`).
    pub fn from_profile(s: &str) -> Option<Version> {
        match s {
            "rootsig_1_0" => Some(Version::V1_0),
            "rootsig_1_1" => Some(Version::V1_1),
            _ => None,
        }
    }
}

/// A root signature. Invariant: with [`Version::V1_0`] every descriptor and range flag is 0.
#[derive(Clone, Debug, PartialEq)]
pub struct RootSignature {
    pub version: Version,
    /// `D3D12_ROOT_SIGNATURE_FLAGS`.
    pub flags: u32,
    pub params: Vec<Param>,
    pub samplers: Vec<StaticSampler>,
}

/// A root parameter with its `D3D12_SHADER_VISIBILITY`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub visibility: u32,
    pub kind: ParamKind,
}

/// `D3D12_ROOT_PARAMETER_TYPE` values.
pub const PARAM_TABLE: u32 = 0;
pub const PARAM_CONSTANTS: u32 = 1;
pub const PARAM_CBV: u32 = 2;
pub const PARAM_SRV: u32 = 3;
pub const PARAM_UAV: u32 = 4;

/// `D3D12_DESCRIPTOR_RANGE_TYPE` values.
pub const RANGE_SRV: u32 = 0;
pub const RANGE_UAV: u32 = 1;
pub const RANGE_CBV: u32 = 2;
pub const RANGE_SAMPLER: u32 = 3;

/// `numDescriptors = unbounded` and `offset = DESCRIPTOR_RANGE_OFFSET_APPEND`.
pub const UNBOUNDED: u32 = u32::MAX;
pub const OFFSET_APPEND: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// `DescriptorTable(...)`.
    Table(Vec<Range>),
    /// `RootConstants(num32BitConstants=N, bR, space=S)`.
    Constants { register: u32, space: u32, num_values: u32 },
    /// `CBV(...)`, `SRV(...)`, `UAV(...)`: `ty` is [`PARAM_CBV`], [`PARAM_SRV`] or [`PARAM_UAV`];
    /// `flags` are `D3D12_ROOT_DESCRIPTOR_FLAGS`.
    Descriptor { ty: u32, register: u32, space: u32, flags: u32 },
}

impl ParamKind {
    /// The `ParameterType` word.
    pub fn code(&self) -> u32 {
        match self {
            ParamKind::Table(_) => PARAM_TABLE,
            ParamKind::Constants { .. } => PARAM_CONSTANTS,
            ParamKind::Descriptor { ty, .. } => *ty,
        }
    }
}

/// A descriptor range of a table (`D3D12_DESCRIPTOR_RANGE1`).
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// [`RANGE_SRV`], [`RANGE_UAV`], [`RANGE_CBV`] or [`RANGE_SAMPLER`].
    pub ty: u32,
    /// [`UNBOUNDED`] for `unbounded`.
    pub num_descriptors: u32,
    pub base_register: u32,
    pub space: u32,
    /// `D3D12_DESCRIPTOR_RANGE_FLAGS`.
    pub flags: u32,
    /// [`OFFSET_APPEND`] by default.
    pub offset: u32,
}

/// A static sampler (`D3D12_STATIC_SAMPLER_DESC`).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticSampler {
    pub filter: u32,
    pub address_u: u32,
    pub address_v: u32,
    pub address_w: u32,
    pub mip_lod_bias: f32,
    pub max_anisotropy: u32,
    pub comparison_func: u32,
    pub border_color: u32,
    pub min_lod: f32,
    pub max_lod: f32,
    pub register: u32,
    pub space: u32,
    pub visibility: u32,
}

impl StaticSampler {
    /// dxc's defaults: anisotropic, wrap, 16, less-equal, opaque white, LOD 0..FLT_MAX.
    pub fn new() -> StaticSampler {
        StaticSampler {
            filter: 0x55,
            address_u: 1,
            address_v: 1,
            address_w: 1,
            mip_lod_bias: 0.0,
            max_anisotropy: 16,
            comparison_func: 4,
            border_color: 2,
            min_lod: 0.0,
            max_lod: f32::MAX,
            register: 0,
            space: 0,
            visibility: 0,
        }
    }
}

impl Default for StaticSampler {
    fn default() -> Self {
        StaticSampler::new()
    }
}

/// Keyword tables shared by the parser and the printer: (spelling, value).
pub(crate) mod names {
    pub const ROOT_FLAGS: &[(&str, u32)] = &[
        ("ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT", 0x1),
        ("DENY_VERTEX_SHADER_ROOT_ACCESS", 0x2),
        ("DENY_HULL_SHADER_ROOT_ACCESS", 0x4),
        ("DENY_DOMAIN_SHADER_ROOT_ACCESS", 0x8),
        ("DENY_GEOMETRY_SHADER_ROOT_ACCESS", 0x10),
        ("DENY_PIXEL_SHADER_ROOT_ACCESS", 0x20),
        ("ALLOW_STREAM_OUTPUT", 0x40),
        ("LOCAL_ROOT_SIGNATURE", 0x80),
        ("DENY_AMPLIFICATION_SHADER_ROOT_ACCESS", 0x100),
        ("DENY_MESH_SHADER_ROOT_ACCESS", 0x200),
        ("CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED", 0x400),
        ("SAMPLER_HEAP_DIRECTLY_INDEXED", 0x800),
    ];
    pub const DESCRIPTOR_FLAGS: &[(&str, u32)] =
        &[("DATA_VOLATILE", 0x2), ("DATA_STATIC_WHILE_SET_AT_EXECUTE", 0x4), ("DATA_STATIC", 0x8)];
    pub const RANGE_FLAGS: &[(&str, u32)] = &[
        ("DESCRIPTORS_VOLATILE", 0x1),
        ("DATA_VOLATILE", 0x2),
        ("DATA_STATIC_WHILE_SET_AT_EXECUTE", 0x4),
        ("DATA_STATIC", 0x8),
        ("DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS", 0x10000),
    ];
    pub const VISIBILITY: &[(&str, u32)] = &[
        ("SHADER_VISIBILITY_ALL", 0),
        ("SHADER_VISIBILITY_VERTEX", 1),
        ("SHADER_VISIBILITY_HULL", 2),
        ("SHADER_VISIBILITY_DOMAIN", 3),
        ("SHADER_VISIBILITY_GEOMETRY", 4),
        ("SHADER_VISIBILITY_PIXEL", 5),
        ("SHADER_VISIBILITY_AMPLIFICATION", 6),
        ("SHADER_VISIBILITY_MESH", 7),
    ];
    pub const FILTERS: &[(&str, u32)] = &[
        ("FILTER_MIN_MAG_MIP_POINT", 0x0),
        ("FILTER_MIN_MAG_POINT_MIP_LINEAR", 0x1),
        ("FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT", 0x4),
        ("FILTER_MIN_POINT_MAG_MIP_LINEAR", 0x5),
        ("FILTER_MIN_LINEAR_MAG_MIP_POINT", 0x10),
        ("FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x11),
        ("FILTER_MIN_MAG_LINEAR_MIP_POINT", 0x14),
        ("FILTER_MIN_MAG_MIP_LINEAR", 0x15),
        ("FILTER_ANISOTROPIC", 0x55),
        ("FILTER_COMPARISON_MIN_MAG_MIP_POINT", 0x80),
        ("FILTER_COMPARISON_MIN_MAG_POINT_MIP_LINEAR", 0x81),
        ("FILTER_COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT", 0x84),
        ("FILTER_COMPARISON_MIN_POINT_MAG_MIP_LINEAR", 0x85),
        ("FILTER_COMPARISON_MIN_LINEAR_MAG_MIP_POINT", 0x90),
        ("FILTER_COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x91),
        ("FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT", 0x94),
        ("FILTER_COMPARISON_MIN_MAG_MIP_LINEAR", 0x95),
        ("FILTER_COMPARISON_ANISOTROPIC", 0xd5),
        ("FILTER_MINIMUM_MIN_MAG_MIP_POINT", 0x100),
        ("FILTER_MINIMUM_MIN_MAG_POINT_MIP_LINEAR", 0x101),
        ("FILTER_MINIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT", 0x104),
        ("FILTER_MINIMUM_MIN_POINT_MAG_MIP_LINEAR", 0x105),
        ("FILTER_MINIMUM_MIN_LINEAR_MAG_MIP_POINT", 0x110),
        ("FILTER_MINIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x111),
        ("FILTER_MINIMUM_MIN_MAG_LINEAR_MIP_POINT", 0x114),
        ("FILTER_MINIMUM_MIN_MAG_MIP_LINEAR", 0x115),
        ("FILTER_MINIMUM_ANISOTROPIC", 0x155),
        ("FILTER_MAXIMUM_MIN_MAG_MIP_POINT", 0x180),
        ("FILTER_MAXIMUM_MIN_MAG_POINT_MIP_LINEAR", 0x181),
        ("FILTER_MAXIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT", 0x184),
        ("FILTER_MAXIMUM_MIN_POINT_MAG_MIP_LINEAR", 0x185),
        ("FILTER_MAXIMUM_MIN_LINEAR_MAG_MIP_POINT", 0x190),
        ("FILTER_MAXIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x191),
        ("FILTER_MAXIMUM_MIN_MAG_LINEAR_MIP_POINT", 0x194),
        ("FILTER_MAXIMUM_MIN_MAG_MIP_LINEAR", 0x195),
        ("FILTER_MAXIMUM_ANISOTROPIC", 0x1d5),
    ];
    pub const ADDRESS_MODES: &[(&str, u32)] = &[
        ("TEXTURE_ADDRESS_WRAP", 1),
        ("TEXTURE_ADDRESS_MIRROR", 2),
        ("TEXTURE_ADDRESS_CLAMP", 3),
        ("TEXTURE_ADDRESS_BORDER", 4),
        ("TEXTURE_ADDRESS_MIRROR_ONCE", 5),
    ];
    pub const COMPARISONS: &[(&str, u32)] = &[
        ("COMPARISON_NEVER", 1),
        ("COMPARISON_LESS", 2),
        ("COMPARISON_EQUAL", 3),
        ("COMPARISON_LESS_EQUAL", 4),
        ("COMPARISON_GREATER", 5),
        ("COMPARISON_NOT_EQUAL", 6),
        ("COMPARISON_GREATER_EQUAL", 7),
        ("COMPARISON_ALWAYS", 8),
    ];
    pub const BORDER_COLORS: &[(&str, u32)] = &[
        ("STATIC_BORDER_COLOR_TRANSPARENT_BLACK", 0),
        ("STATIC_BORDER_COLOR_OPAQUE_BLACK", 1),
        ("STATIC_BORDER_COLOR_OPAQUE_WHITE", 2),
    ];

    /// The value of `word` (case-insensitive) in `table`.
    pub fn lookup(table: &[(&str, u32)], word: &str) -> Option<u32> {
        table.iter().find(|(n, _)| n.eq_ignore_ascii_case(word)).map(|&(_, v)| v)
    }
    /// The spelling of `value` in `table`.
    pub fn name(table: &[(&'static str, u32)], value: u32) -> Option<&'static str> {
        table.iter().find(|&&(_, v)| v == value).map(|&(n, _)| n)
    }
}

/// Parses `text` for `version`, checks it as dxc does before serializing, and returns the
/// `RTS0` bytes. The error is dxc's message for the first problem.
pub fn compile(text: &str, version: Version) -> Result<(RootSignature, Vec<u8>), String> {
    let rs = parse::parse(text, version)?;
    check::verify(&rs)?;
    let bytes = binary::serialize(&rs);
    Ok((rs, bytes))
}
