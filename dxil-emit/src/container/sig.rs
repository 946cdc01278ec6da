//! `ISG1`, `OSG1`, `PSG1`: the program signatures as D3D reads them (`DxilProgramSignature`
//! followed by 32-byte elements sorted by stream, register and name offset, then the
//! deduplicated semantic names; the part is padded to 4 bytes).

use super::info::{interpretation, Interpretation, ModuleInfo, SigElement};
use super::usage::Usage;
use super::Writer;
use crate::ops::Stage;

/// `D3D_NAME` of a DXIL semantic kind; `None` for kinds that are not system values there.
pub fn system_value(kind: u8, domain: u32) -> u32 {
    match kind {
        1 => 6,   // VertexID
        2 => 8,   // InstanceID
        3 => 1,   // Position
        4 => 4,   // RenderTargetArrayIndex
        5 => 5,   // ViewportArrayIndex
        6 => 2,   // ClipDistance
        7 => 3,   // CullDistance
        10 => 7,  // PrimitiveID
        12 => 10, // SampleIndex
        13 => 9,  // IsFrontFace
        14 => 66, // Coverage
        15 => 70, // InnerCoverage
        16 => 64, // Target
        17 => 65, // Depth
        18 => 68, // DepthLessEqual
        19 => 67, // DepthGreaterEqual
        20 => 69, // StencilRef
        25 => match domain {
            1 => 16, // isoline: density, then detail for the second row
            2 => 13,
            3 => 11,
            _ => 0,
        },
        26 => match domain {
            2 => 14,
            3 => 12,
            _ => 0,
        },
        28 => 23, // Barycentrics
        29 => 24, // ShadingRate
        30 => 25, // CullPrimitive
        _ => 0,
    }
}

/// `DxilProgramSigCompType` of a DXIL component type.
pub fn sig_comp_type(component_type: u8) -> u32 {
    match component_type {
        1 => 1, // i1 is written as uint32 from validator 1.5 on
        2 => 5,
        3 => 4,
        4 => 2,
        5 => 1,
        6 => 8,
        7 => 7,
        8 => 6,
        9 => 3,
        10 => 9,
        _ => 0,
    }
}

/// `DxilProgramSigMinPrecision` of a DXIL component type (only with minimum precision).
fn min_precision(component_type: u8) -> u32 {
    match component_type {
        2 => 4, // i16
        3 => 5, // u16
        8 => 1, // f16
        _ => 0,
    }
}

pub fn domain(info: &ModuleInfo) -> u32 {
    match info.kind {
        Stage::Hull => info.hs_state.map_or(0, |h| h[2]),
        Stage::Domain => info.ds_state.map_or(0, |d| d[0]),
        _ => 0,
    }
}

struct Row {
    stream: u32,
    name: u32,
    index: u32,
    sv: u32,
    comp: u32,
    register: u32,
    mask: u8,
    rw_mask: u8,
    min_precision: u32,
}

/// Writes signature `sig` (0 input, 1 output, 2 patch constant).
pub fn write_signature(info: &ModuleInfo, usage: &Usage, sig: usize) -> Vec<u8> {
    let is_input = sig == 0 || (sig == 2 && info.kind == Stage::Domain);
    let domain = domain(info);
    let elements: Vec<&SigElement> = info.sigs[sig].iter().filter(|e| interpretation(info.kind, sig, e) == Interpretation::InSig).collect();
    let count: usize = elements.iter().map(|e| e.indices.len()).sum();
    let fixed = 8 + 32 * count as u32;
    let mut names: Vec<(String, u32)> = Vec::new();
    let mut next = fixed;
    let mut name_offset = |s: &str| -> u32 {
        if let Some((_, o)) = names.iter().find(|(n, _)| n == s) {
            return *o;
        }
        let o = next;
        names.push((s.to_string(), o));
        next += s.len() as u32 + 1;
        o
    };
    let mut rows = Vec::new();
    for e in &elements {
        let name = name_offset(&e.semantic);
        let cols_mask = ((1u32 << e.cols) - 1) as u8;
        let mask = if e.start_row.is_some() { cols_mask << e.start_col } else { cols_mask };
        let mut used = usage.used[sig].get(e.id as usize).copied().unwrap_or(0) & cols_mask;
        if e.start_row.is_some() {
            used <<= e.start_col;
        }
        let rw_mask = if is_input { used } else { !used & 0xF };
        let mut sv = system_value(e.kind, domain);
        let mut register = e.start_row.unwrap_or(u32::MAX);
        for &index in &e.indices {
            rows.push(Row {
                stream: e.stream,
                name,
                index,
                sv,
                comp: sig_comp_type(e.component_type),
                register,
                mask,
                rw_mask,
                min_precision: if info.use_min_precision { min_precision(e.component_type) } else { 0 },
            });
            if e.start_row.is_some() {
                register += 1;
            }
            if sv == 16 {
                sv = 15; // the second isoline tess factor row is the detail factor
            }
        }
    }
    rows.sort_by(|a, b| (a.stream, a.register, a.name).cmp(&(b.stream, b.register, b.name)));
    let mut w = Writer::default();
    w.u32(rows.len() as u32);
    w.u32(8);
    for r in &rows {
        w.u32(r.stream);
        w.u32(r.name);
        w.u32(r.index);
        w.u32(r.sv);
        w.u32(r.comp);
        w.u32(r.register);
        w.u8(r.mask);
        w.u8(r.rw_mask);
        w.u16(0);
        w.u32(r.min_precision);
    }
    for (n, o) in &names {
        debug_assert_eq!(w.bytes.len() as u32, *o);
        w.bytes.extend_from_slice(n.as_bytes());
        w.u8(0);
    }
    w.align4();
    w.bytes
}
