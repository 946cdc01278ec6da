//! The DXContainer (`DXBC` header, part offset table, parts) around a module's bitcode, in the
//! part order dxc writes: `SFI0`, `ISG1`, `OSG1`, `PSG1` (when the stage has patch constants),
//! `PSV0`, `RTS0` (with a root signature), `STAT` (unless reflection is stripped), `HASH`, `DXIL`;
//! a library gets `SFI0`, `RDAT` ([`rdat`]), `STAT`, `HASH`, `DXIL`.
//!
//! Everything the parts say is read back from the module's metadata ([`info`]) and its `dx.op`
//! calls ([`usage`]), so parts and bitcode agree. The bitcode comes from the caller (the
//! bitcode writer), which this module does not depend on. [`reader`] parses containers back
//! (ours or dxc's), checking every offset, size and count.

pub mod dump;
pub mod info;
pub mod md5;
pub mod psv;
pub mod rdat;
pub mod reader;
pub mod sig;
pub mod usage;

use crate::ir::Module;
use crate::ops::Stage;

/// Four-character codes of the parts.
pub const DXBC: [u8; 4] = *b"DXBC";

/// What to put in the container besides the program.
#[derive(Clone, Debug, Default)]
pub struct ContainerOptions {
    /// `-Qstrip_reflect`: no `STAT` part (the reflection copy of the module).
    pub strip_reflect: bool,
    /// The `RTS0` part (a serialized root signature, [`crate::rootsig::binary`]), written after
    /// `PSV0` as dxc does.
    pub root_signature: Option<Vec<u8>>,
}

/// Why a container could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerError(pub String);

impl std::fmt::Display for ContainerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A little-endian byte writer.
#[derive(Default)]
pub(crate) struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn align4(&mut self) {
        while self.bytes.len() % 4 != 0 {
            self.bytes.push(0);
        }
    }
}

/// The program version word: shader kind in bits 16..32, major in 4..8, minor in 0..4.
pub fn program_version(kind: Stage, major: u32, minor: u32) -> u32 {
    ((kind as u32) << 16) | ((major & 0xF) << 4) | (minor & 0xF)
}

/// A program part (`DXIL` or `STAT`): `DxilProgramHeader` then the bitcode, padded to 4 bytes.
pub fn program_part(kind: Stage, shader_model: (u32, u32), dxil_version: (u32, u32), bitcode: &[u8]) -> Vec<u8> {
    let mut w = Writer::default();
    let padded = bitcode.len().div_ceil(4) * 4;
    w.u32(program_version(kind, shader_model.0, shader_model.1));
    w.u32(((24 + padded) / 4) as u32);
    w.bytes.extend_from_slice(b"DXIL");
    w.u32((dxil_version.0 << 8) | dxil_version.1);
    w.u32(16);
    w.u32(bitcode.len() as u32);
    w.bytes.extend_from_slice(bitcode);
    w.align4();
    w.bytes
}

/// Lays out `parts` as a container and fills in its checksum.
pub fn assemble(parts: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * parts.len();
    let total = header + parts.iter().map(|(_, p)| 8 + p.len()).sum::<usize>();
    let mut w = Writer::default();
    w.bytes.extend_from_slice(&DXBC);
    w.bytes.extend_from_slice(&[0; 16]);
    w.u16(1);
    w.u16(0);
    w.u32(total as u32);
    w.u32(parts.len() as u32);
    let mut offset = header;
    for (_, p) in parts {
        w.u32(offset as u32);
        offset += 8 + p.len();
    }
    for (cc, p) in parts {
        w.bytes.extend_from_slice(cc);
        w.u32(p.len() as u32);
        w.bytes.extend_from_slice(p);
    }
    let sum = md5::container_checksum(&w.bytes);
    w.bytes[4..20].copy_from_slice(&sum);
    w.bytes
}

/// The `SFI0` feature bits (`D3D_SHADER_FEATURE_*`) of the module's shader flags, as dxc maps
/// them (`ShaderFlags::GetFeatureInfo`).
pub fn feature_info(shader_flags: u64) -> u64 {
    let bit = |b: u32| shader_flags & (1u64 << b) != 0;
    let native_16 = bit(23);
    let mut f = 0u64;
    let map: &[(u32, u64)] = &[
        (2, 0x1),         // doubles
        (6, 0x20),        // 11.1 double extensions
        (7, 0x40),        // 11.1 shader extensions (msad)
        (9, 0x2000),      // viewport/RT array index from any stage
        (10, 0x400),      // inner coverage
        (11, 0x200),      // stencil ref
        (12, 0x100),      // tiled resources
        (13, 0x800),      // typed UAV load additional formats
        (14, 0x80),       // level 9 comparison filtering
        (15, 0x8),        // 64 UAVs
        (16, 0x4),        // UAVs at every stage
        (17, 0x2),        // CS raw and structured buffers via shader 4.x
        (18, 0x1000),     // ROVs
        (19, 0x4000),     // wave ops
        (20, 0x8000),     // int64 ops
        (21, 0x10000),    // view id
        (22, 0x20000),    // barycentrics
        (24, 0x80000),    // shading rate
        (25, 0x100000),   // raytracing tier 1.1
        (26, 0x200000),   // sampler feedback
        (27, 0x400000),   // int64 atomics on typed resources
        (28, 0x800000),   // int64 atomics on groupshared
        (29, 0x1000000),  // derivatives in mesh and amplification shaders
        (30, 0x2000000),  // resource descriptor heap indexing
        (31, 0x4000000),  // sampler descriptor heap indexing
        (33, 0x10000000), // int64 atomics on heap resources
        (35, 0x20000000), // advanced texture ops
        (36, 0x40000000), // writeable MSAA textures
    ];
    for &(b, v) in map {
        if bit(b) {
            f |= v;
        }
    }
    if bit(5) {
        f |= if native_16 { 0x40000 } else { 0x10 };
    }
    f
}

/// dxc's names of the `SFI0` feature bits, as its disassembly lists them.
const FEATURE_NAMES: &[(u64, &str)] = &[
    (0x1, "Double-precision floating point"),
    (0x2, "Raw and Structured buffers"),
    (0x4, "UAVs at every shader stage"),
    (0x8, "64 UAV slots"),
    (0x10, "Minimum-precision data types"),
    (0x20, "Double-precision extensions for 11.1"),
    (0x40, "Shader extensions for 11.1"),
    (0x80, "Comparison filtering for feature level 9"),
    (0x100, "Tiled resources"),
    (0x200, "PS Output Stencil Ref"),
    (0x400, "PS Inner Coverage"),
    (0x800, "Typed UAV Load Additional Formats"),
    (0x1000, "Raster Ordered UAVs"),
    (0x2000, "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer"),
    (0x4000, "Wave level operations"),
    (0x8000, "64-Bit integer"),
    (0x10000, "View Instancing"),
    (0x20000, "Barycentrics"),
    (0x40000, "Use native low precision"),
    (0x80000, "Shading Rate"),
    (0x100000, "Raytracing tier 1.1 features"),
    (0x200000, "Sampler feedback"),
    (0x400000, "64-bit Atomics on Typed Resources"),
    (0x800000, "64-bit Atomics on Group Shared"),
    (0x1000000, "Derivatives in mesh and amplification shaders"),
    (0x2000000, "Resource descriptor heap indexing"),
    (0x4000000, "Sampler descriptor heap indexing"),
    (0x10000000, "64-bit Atomics on Heap Resources"),
    (0x20000000, "Advanced Texture Ops"),
    (0x40000000, "Writeable MSAA Textures"),
];

/// The comment dxc's disassembly starts with when the module needs optional features (its
/// `SFI0` bits): `; Note: shader requires additional functionality:` and one line per feature.
/// Empty when none is needed or the metadata does not say (a library).
pub fn feature_note(m: &Module) -> String {
    let Ok(info) = info::module_info(m) else { return String::new() };
    let bits = feature_info(info.shader_flags);
    let names: Vec<&str> = FEATURE_NAMES.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect();
    if names.is_empty() {
        return String::new();
    }
    let mut s = String::from(";\n; Note: shader requires additional functionality:\n");
    for n in names {
        s.push_str(";       ");
        s.push_str(n);
        s.push('\n');
    }
    s.push_str(";\n");
    s
}

/// The module with every function body removed: what the `STAT` part holds (reflection without
/// code).
pub fn reflection_module(m: &Module) -> Module {
    let mut r = m.clone();
    for f in &mut r.functions {
        f.body = None;
    }
    r
}

/// Builds the container of `m`. `write_bitcode` turns a module into LLVM 3.7 bitcode; it is
/// called for the program and, unless reflection is stripped, for the reflection copy.
///
/// A module with debug information (`-Zi`) gets it as dxc writes it: the whole module in
/// `ILDB` (a program part), a debug name in `ILDN` (`<hash>.pdb`), and the `DXIL` and `STAT`
/// parts from the module with its debug information stripped ([`strip_debug`]); the hash is
/// that of the stripped program.
pub fn build_container(m: &Module, write_bitcode: &dyn Fn(&Module) -> Vec<u8>, opts: &ContainerOptions) -> Result<Vec<u8>, ContainerError> {
    if m.has_debug_info() {
        if let Some(why) = crate::bitcode::unsupported_debug_info(m) {
            return Err(ContainerError(format!("option '-Zi' with -Fo: {why}")));
        }
    }
    let info = info::module_info(m).map_err(|e| ContainerError(format!("cannot write the DXIL container: {}", e.0)))?;
    let mut parts: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    let mut sfi0 = Writer::default();
    sfi0.u64(feature_info(info.shader_flags));
    parts.push((*b"SFI0", sfi0.bytes));
    if info.kind == Stage::Library {
        // A library's root signatures are subobjects, never RTS0.
        if opts.root_signature.is_some() {
            return Err(ContainerError("a library (lib_6_x) has no root signature part (RTS0): its root signatures are subobjects".into()));
        }
        parts.push((*b"RDAT", rdat::write(&rdat::runtime_data(m, &info)?)));
    } else {
        let usage = usage::collect(m, &info);
        parts.push((*b"ISG1", sig::write_signature(&info, &usage, 0)));
        parts.push((*b"OSG1", sig::write_signature(&info, &usage, 1)));
        if !info.sigs[2].is_empty() {
            parts.push((*b"PSG1", sig::write_signature(&info, &usage, 2)));
        }
        parts.push((*b"PSV0", psv::write_psv(&info, &usage)));
        if let Some(rts0) = &opts.root_signature {
            parts.push((*b"RTS0", rts0.clone()));
        }
    }
    let (kind, sm, dv) = (info.kind, info.shader_model, info.dxil_version);
    let stripped;
    let program = if m.has_debug_info() {
        parts.push((*b"ILDB", program_part(kind, sm, dv, &write_bitcode(m))));
        stripped = strip_debug(m);
        &stripped
    } else {
        m
    };
    if !opts.strip_reflect {
        let stat = write_bitcode(&reflection_module(program));
        parts.push((*b"STAT", program_part(kind, sm, dv, &stat)));
    }
    let bitcode = write_bitcode(program);
    let digest = md5::md5(&bitcode);
    if m.has_debug_info() {
        let name: String = digest.iter().map(|b| format!("{b:02x}")).collect::<String>() + ".pdb";
        parts.push((*b"ILDN", debug_name_part(&name)));
    }
    let mut hash = vec![0u8; 4];
    hash.extend_from_slice(&digest);
    parts.push((*b"HASH", hash));
    parts.push((*b"DXIL", program_part(kind, sm, dv, &bitcode)));
    Ok(assemble(&parts))
}

/// The `ILDN` part: flags (0), the name's length, the name, then at least one NUL up to a
/// multiple of 4 bytes.
pub fn debug_name_part(name: &str) -> Vec<u8> {
    let mut w = Writer::default();
    w.u16(0);
    w.u16(name.len() as u16);
    w.bytes.extend_from_slice(name.as_bytes());
    w.u8(0);
    w.align4();
    w.bytes
}

/// `m` without its debug information, as dxc writes the `DXIL` part of a `-Zi` compile
/// (LLVM's `StripDebugInfo` and `DxilModule::StripDebugRelatedCode`): no `llvm.dbg.*` or
/// `dx.source.*` named metadata and no `!dbg` attachments.
pub fn strip_debug(m: &Module) -> Module {
    let mut r = m.clone();
    r.named_md.retain(|name, _| !name.starts_with("llvm.dbg.") && !name.starts_with("dx.source."));
    for f in &mut r.functions {
        if let Some(body) = &mut f.body {
            body.dbg.clear();
        }
    }
    r
}
