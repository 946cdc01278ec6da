//! `-dumpbin`: a listing of a container's parts, with the signatures as dxc prints them in its
//! disassembly comments and the pipeline state, hash and program headers.

use super::reader::{self, Container, ParseError};
use std::fmt::Write;

const STAGES: [&str; 16] = ["ps", "vs", "gs", "hs", "ds", "cs", "lib", "raygeneration", "intersection", "anyhit", "closesthit", "miss", "callable", "ms", "as", "node"];

fn mask_text(mask: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' }).collect()
}

fn sys_value_name(sv: u32) -> &'static str {
    match sv {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 => "QUADEDGE",
        12 => "QUADINT",
        13 => "TRIEDGE",
        14 => "TRIINT",
        15 => "LINEDET",
        16 => "LINEDEN",
        23 => "BARYCEN",
        24 => "SHDINGRT",
        25 => "CULLPRIM",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        _ => "?",
    }
}

fn format_name(comp: u32, min_precision: u32) -> &'static str {
    match (comp, min_precision) {
        (3, 1) => "min16f",
        (5, 4) | (2, 4) => "min16i",
        (4, 5) | (1, 5) => "min16u",
        (1, _) => "uint",
        (2, _) => "int",
        (3, _) => "float",
        (4, _) => "uint16",
        (5, _) => "int16",
        (6, _) => "half",
        (7, _) => "uint64",
        (8, _) => "int64",
        (9, _) => "double",
        _ => "unknown",
    }
}

fn signature(out: &mut String, title: &str, rows: &[reader::SigRow], is_input: bool) {
    let _ = writeln!(out, ";\n; {title}:\n;");
    let _ = writeln!(out, "; Name                 Index   Mask Register SysValue  Format   Used");
    let _ = writeln!(out, "; -------------------- ----- ------ -------- -------- ------- ------");
    if rows.is_empty() {
        let _ = writeln!(out, "; no parameters");
    }
    for r in rows {
        let reg = if r.register == u32::MAX { "N/A".to_string() } else { r.register.to_string() };
        let used = if is_input { r.rw_mask } else { !r.rw_mask & r.mask };
        let _ = writeln!(
            out,
            "; {:<20} {:>5} {:>6} {:>8} {:>8} {:>7} {:>6}",
            r.name,
            r.index,
            mask_text(r.mask),
            reg,
            sys_value_name(r.system_value),
            format_name(r.comp_type, r.min_precision),
            mask_text(used)
        );
    }
}

/// The listing of `bytes`, or the first problem found in them.
pub fn dump(bytes: &[u8]) -> Result<String, ParseError> {
    let c: Container = reader::check_all(bytes)?;
    let mut out = String::new();
    let sum: String = c.checksum.iter().map(|b| format!("{b:02x}")).collect();
    let signed = if c.checksum == [0; 16] {
        "not signed"
    } else if c.checksum_matches(bytes) {
        "matches"
    } else {
        "does not match"
    };
    let _ = writeln!(out, "; DXContainer {}.{}, {} bytes, {} parts, checksum {sum} ({signed})", c.version.0, c.version.1, bytes.len(), c.parts.len());
    for p in &c.parts {
        let _ = writeln!(out, "; part {} at byte {}, {} bytes", p.fourcc, p.offset - 8, p.data.len());
    }
    // A domain shader reads its patch constants: PSG1 is an input signature there.
    let domain = c.part("DXIL").and_then(|p| reader::program(p).ok()).is_some_and(|p| p.kind == 4);
    // A mesh shader's PSG1 holds its primitive outputs.
    let mesh = c.part("DXIL").and_then(|p| reader::program(p).ok()).is_some_and(|p| p.kind == 13);
    for p in &c.parts {
        match p.fourcc.as_str() {
            "SFI0" => {
                let flags = p.bytes().u64(0, "feature flags")?;
                let _ = writeln!(out, ";\n; Shader feature flags (SFI0): 0x{flags:016x}");
            }
            "ISG1" => signature(&mut out, "Input signature", &reader::signature(p)?, true),
            "OSG1" => signature(&mut out, "Output signature", &reader::signature(p)?, false),
            "PSG1" if mesh => signature(&mut out, "Primitive output signature", &reader::signature(p)?, false),
            "PSG1" => signature(&mut out, "Patch constant signature", &reader::signature(p)?, domain),
            "HASH" => {
                let b = p.bytes();
                let flags = b.u32(0, "hash flags")?;
                let digest: String = b.slice(4, 16, "hash")?.iter().map(|x| format!("{x:02x}")).collect();
                let _ = writeln!(out, ";\n; shader hash: {digest}{}", if flags & 1 != 0 { " (includes source)" } else { "" });
            }
            "PSV0" => {
                let psv = reader::psv(p)?;
                let _ = writeln!(out, ";\n; Pipeline Runtime Information (PSV0, {} bytes of runtime info):", psv.runtime_info_size);
                if psv.runtime_info_size >= 36 {
                    let stage = STAGES.get(psv.stage as usize).copied().unwrap_or("?");
                    let _ = writeln!(out, "; stage {stage}, input vectors {}, output vectors {:?}, patch constant vectors {}", psv.input_vectors, psv.output_vectors, psv.pc_vectors);
                    let n: [usize; 3] = [psv.elements[0].len(), psv.elements[1].len(), psv.elements[2].len()];
                    let _ = writeln!(out, "; signature elements: {} input, {} output, {} patch constant", n[0], n[1], n[2]);
                }
                if psv.stage == 5 {
                    let [x, y, z] = psv.num_threads;
                    let _ = writeln!(out, "; numthreads({x}, {y}, {z})");
                }
                if let Some(e) = &psv.entry_name {
                    let _ = writeln!(out, "; entry function: {e}");
                }
                let _ = writeln!(out, "; resource bindings: {}", psv.resources.len());
                for r in &psv.resources {
                    let upper = if r[3] == u32::MAX { "unbounded".to_string() } else { r[3].to_string() };
                    let _ = writeln!(out, ";   type {} kind {} space {} registers {}..{upper}", r[0], r[4], r[1], r[2]);
                }
                for (i, t) in psv.tables.iter().enumerate() {
                    let _ = writeln!(out, "; dependency table {i}: {:?}", t);
                }
            }
            "RTS0" => {
                let rs = reader::root_signature(p)?;
                let v = if rs.version == crate::rootsig::Version::V1_0 { "1.0" } else { "1.1" };
                let _ = writeln!(out, ";\n; Root signature (RTS0), version {v}:");
                for line in crate::rootsig::print::to_text(&rs).lines() {
                    let _ = writeln!(out, ";   {line}");
                }
            }
            "RDAT" => rdat(&mut out, &reader::rdat(p)?),
            "DXIL" | "STAT" | "ILDB" => {
                let prog = reader::program(p)?;
                let stage = STAGES.get(prog.kind as usize).copied().unwrap_or("?");
                let _ = writeln!(
                    out,
                    ";\n; {}: {stage}_{}_{}, DXIL {}.{}, {} bytes of bitcode",
                    p.fourcc,
                    prog.major,
                    prog.minor,
                    prog.dxil_version.0,
                    prog.dxil_version.1,
                    prog.bitcode.len()
                );
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Names of the RDAT feature bits (`DxilFeatureInfo1`, bits 0..32, then `DxilFeatureInfo2`).
const FEATURE1: [&str; 32] = [
    "Doubles",
    "ComputeShadersPlusRawAndStructuredBuffersViaShader4X",
    "UAVsAtEveryStage",
    "_64UAVs",
    "MinimumPrecision",
    "_11_1_DoubleExtensions",
    "_11_1_ShaderExtensions",
    "LEVEL9ComparisonFiltering",
    "TiledResources",
    "StencilRef",
    "InnerCoverage",
    "TypedUAVLoadAdditionalFormats",
    "ROVs",
    "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer",
    "WaveOps",
    "Int64Ops",
    "ViewID",
    "Barycentrics",
    "NativeLowPrecision",
    "ShadingRate",
    "Raytracing_Tier_1_1",
    "SamplerFeedback",
    "AtomicInt64OnTypedResource",
    "AtomicInt64OnGroupShared",
    "DerivativesInMeshAndAmpShaders",
    "ResourceDescriptorHeapIndexing",
    "SamplerDescriptorHeapIndexing",
    "Reserved",
    "AtomicInt64OnHeapResource",
    "AdvancedTextureOps",
    "WriteableMSAATextures",
    "SampleCmpGradientOrBias",
];
const FEATURE2: [(u32, &str); 3] = [(0x1, "ExtendedCommandInfo"), (0x100, "Opt_UsesDerivatives"), (0x200, "Opt_RequiresGroup")];
const KINDS: [&str; 17] = [
    "Pixel",
    "Vertex",
    "Geometry",
    "Hull",
    "Domain",
    "Compute",
    "Library",
    "RayGeneration",
    "Intersection",
    "AnyHit",
    "ClosestHit",
    "Miss",
    "Callable",
    "Mesh",
    "Amplification",
    "Node",
    "Invalid",
];
const CLASSES: [&str; 4] = ["SRV", "UAV", "CBuffer", "Sampler"];
const RESOURCE_KINDS: [&str; 19] = [
    "Invalid",
    "Texture1D",
    "Texture2D",
    "Texture2DMS",
    "Texture3D",
    "TextureCube",
    "Texture1DArray",
    "Texture2DArray",
    "Texture2DMSArray",
    "TextureCubeArray",
    "TypedBuffer",
    "RawBuffer",
    "StructuredBuffer",
    "CBuffer",
    "Sampler",
    "TBuffer",
    "RTAccelerationStructure",
    "FeedbackTexture2D",
    "FeedbackTexture2DArray",
];
const RESOURCE_FLAGS: [&str; 5] = ["UAVGloballyCoherent", "UAVCounter", "UAVRasterizerOrderedView", "DynamicIndexing", "Atomics64Use"];

/// `(A | B)` for the set bits of `v` named by `names` (bit `i` = `names[i]`), `0` when none,
/// or `0 (None)` when the enumeration has a `None` value; unnamed bits are printed in hex.
fn flags_text(v: u32, names: &[(u32, &str)], has_none: bool) -> String {
    if v == 0 {
        return if has_none { "0 (None)".into() } else { "0".into() };
    }
    let mut parts: Vec<String> = names.iter().filter(|(b, _)| v & b != 0).map(|(_, n)| n.to_string()).collect();
    let rest = names.iter().fold(v, |r, (b, _)| r & !b);
    if rest != 0 {
        parts.push(format!("0x{rest:x}"));
    }
    format!("({})", parts.join(" | "))
}

fn bits(names: &[&'static str]) -> Vec<(u32, &'static str)> {
    names.iter().enumerate().map(|(i, n)| (1u32 << i, *n)).collect()
}

fn rdat(out: &mut String, r: &reader::Rdat) {
    let names = |t: &u32| match *t {
        1 => "StringBuffer".to_string(),
        2 => "IndexArrays".to_string(),
        3 => "ResourceTable".to_string(),
        4 => "FunctionTable".to_string(),
        5 => "RawBytes".to_string(),
        6 => "SubobjectTable".to_string(),
        other => format!("part type {other}"),
    };
    let parts: Vec<String> = r.part_types.iter().map(names).collect();
    let _ = writeln!(out, ";\n; Runtime data (RDAT), version 0x{:x}, parts: {}", r.version, parts.join(", "));
    let _ = writeln!(out, "; ResourceTable[{}] = {{", r.data.resources.len());
    for (i, res) in r.data.resources.iter().enumerate() {
        let _ = writeln!(out, ";   <{i}:RuntimeDataResourceInfo> = {{");
        let _ = writeln!(out, ";     Class: {}", CLASSES.get(res.class as usize).copied().unwrap_or("Invalid"));
        let _ = writeln!(out, ";     Kind: {}", RESOURCE_KINDS.get(res.kind as usize).copied().unwrap_or("Invalid"));
        let _ = writeln!(out, ";     ID: {}", res.id);
        let _ = writeln!(out, ";     Space: {}", res.space);
        let _ = writeln!(out, ";     LowerBound: {}", res.lower_bound);
        let _ = writeln!(out, ";     UpperBound: {}", res.upper_bound);
        let _ = writeln!(out, ";     Name: {:?}", res.name);
        let _ = writeln!(out, ";     Flags: {}", flags_text(res.flags, &bits(&RESOURCE_FLAGS), true));
        let _ = writeln!(out, ";   }}");
    }
    let _ = writeln!(out, "; }}");
    let record = if r.data.function_stride >= super::rdat::FUNCTION2_STRIDE { "RuntimeDataFunctionInfo2" } else { "RuntimeDataFunctionInfo" };
    let _ = writeln!(out, "; FunctionTable[{}] = {{", r.data.functions.len());
    for (i, f) in r.data.functions.iter().enumerate() {
        let _ = writeln!(out, ";   <{i}:{record}> = {{");
        let _ = writeln!(out, ";     Name: {:?}", f.name);
        let _ = writeln!(out, ";     UnmangledName: {:?}", f.unmangled_name);
        let rows: Vec<String> = f.resources.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(out, ";     Resources: [{}]", rows.join(", "));
        let _ = writeln!(out, ";     FunctionDependencies: {:?}", f.dependencies);
        let _ = writeln!(out, ";     ShaderKind: {}", KINDS.get(f.shader_kind as usize).copied().unwrap_or("Invalid"));
        let _ = writeln!(out, ";     PayloadSizeInBytes: {}", f.payload_size);
        let _ = writeln!(out, ";     AttributeSizeInBytes: {}", f.attribute_size);
        let _ = writeln!(out, ";     FeatureInfo1: {}", flags_text(f.feature_info as u32, &bits(&FEATURE1), false));
        let _ = writeln!(out, ";     FeatureInfo2: {}", flags_text((f.feature_info >> 32) as u32, &FEATURE2, false));
        let _ = writeln!(out, ";     ShaderStageFlag: {}", flags_text(f.stage_flags, &bits(&KINDS[..16]), false));
        let _ = writeln!(out, ";     MinShaderTarget: 0x{:x}", f.min_shader_target);
        if r.data.function_stride >= super::rdat::FUNCTION2_STRIDE {
            let _ = writeln!(out, ";     MinimumExpectedWaveLaneCount: {}", f.min_wave_lanes);
            let _ = writeln!(out, ";     MaximumExpectedWaveLaneCount: {}", f.max_wave_lanes);
            let _ = writeln!(out, ";     ShaderFlags: {}", flags_text(u32::from(f.shader_flags), &[(1, "NodeProgramEntry"), (2, "OutputPositionPresent"), (4, "DepthOutput"), (8, "SampleFrequency"), (16, "UsesViewID")], true));
        }
        let _ = writeln!(out, ";   }}");
    }
    let _ = writeln!(out, "; }}");
    if !r.subobjects.is_empty() {
        let _ = writeln!(out, "; SubobjectTable[{}]", r.subobjects.len());
        for (i, (kind, name)) in r.subobjects.iter().enumerate() {
            let _ = writeln!(out, ";   <{i}> kind {kind} name {name:?}");
        }
    }
}
