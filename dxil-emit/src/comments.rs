//! The comment tables dxc's disassembly starts with, read from the module's metadata (the same
//! nodes the container parts are written from, see [`crate::container::info`]). They are `;`
//! comments: LLVM's assembler ignores them, so the text still assembles to the same module.
//!
//! Printed today: `; Resource Bindings:`, one row per resource in dxc's order (constant
//! buffers, samplers, SRVs, UAVs; each class by ID), with dxc's columns:
//!
//! ```text
//! ; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
//! ; ------------------------------ ---------- ------- ----------- ------- -------------- ------
//! ; Tex1                              texture     f32          2d      T0             t0     1
//! ```
//!
//! (name left-aligned in 31 columns, then right-aligned in 10, 8, 12, 8, 15 and 6; a count wider
//! than its column, `unbounded`, runs into the binding as in dxc's output.) Not printed yet:
//! the signature tables and `; Buffer Definitions:` (the cbuffer layouts).

use crate::container::info::{module_info, ResourceInfo};
use crate::ir::Module;
use std::fmt::Write as _;

/// The comment block printed before `target datalayout`; empty for a module whose metadata does
/// not describe a shader (no `dx.entryPoints`, as in hand-built test modules).
pub fn header(m: &Module) -> String {
    let Ok(info) = module_info(m) else { return String::new() };
    resource_bindings(&info.resources)
}

/// `DXIL::ResourceKind` names (dxc's `GetResDimName`), by kind number.
const DIM_NAMES: [&str; 19] = [
    "invalid", "1d", "2d", "2dMS", "3d", "cube", "1darray", "2darray", "2darrayMS", "cubearray", "buf", "rawbuf", "structbuf",
    "cbuffer", "sampler", "tbuffer", "ras", "fbtex2d", "fbtex2darray",
];

/// `DXIL::ComponentType` names (dxc's `CompType::GetName`), by type number.
const COMPONENT_NAMES: [&str; 19] = [
    "invalid", "i1", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "snorm_f16", "unorm_f16", "snorm_f32",
    "unorm_f32", "snorm_f64", "unorm_f64", "p32i8", "p32u8",
];

const RAW_BUFFER: u32 = 11;
const STRUCTURED_BUFFER: u32 = 12;
const TBUFFER: u32 = 15;

/// `; Resource Bindings:` with its header and one row per resource.
fn resource_bindings(resources: &[ResourceInfo]) -> String {
    let mut s = String::from(";\n; Resource Bindings:\n;\n");
    s.push_str("; Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n");
    s.push_str("; ------------------------------ ---------- ------- ----------- ------- -------------- ------\n");
    // `dx.resources` lists SRVs (0), UAVs (1), CBVs (2), samplers (3); dxc prints CBVs,
    // samplers, SRVs, UAVs.
    for class in [2u8, 3, 0, 1] {
        let mut of_class: Vec<&ResourceInfo> = resources.iter().filter(|r| r.class == class).collect();
        of_class.sort_by_key(|r| r.id);
        for r in of_class {
            s.push_str(&binding_row(r));
        }
    }
    s.push_str(";\n");
    s
}

/// One row of the bindings table.
fn binding_row(r: &ResourceInfo) -> String {
    let (ty, id_prefix, reg) = match r.class {
        0 => ("texture", "T", "t"),
        1 => ("UAV", "U", "u"),
        2 => ("cbuffer", "CB", "cb"),
        _ => ("sampler", "S", "s"),
    };
    let srv_or_uav = r.class < 2;
    let format = match r.kind {
        _ if !srv_or_uav => "NA".to_string(),
        RAW_BUFFER => "byte".to_string(),
        STRUCTURED_BUFFER => "struct".to_string(),
        // A tbuffer is read as 32-bit words.
        TBUFFER => r.component_type.map_or("u32", component_name).to_string(),
        _ => r.component_type.map_or("invalid", component_name).to_string(),
    };
    let dim = match r.kind {
        _ if !srv_or_uav => "NA".to_string(),
        RAW_BUFFER | STRUCTURED_BUFFER => if r.class == 0 { "r/o" } else { "r/w" }.to_string(),
        k => {
            let mut d = DIM_NAMES.get(k as usize).copied().unwrap_or("invalid").to_string();
            if d.ends_with("MS") && r.sample_count != 0 {
                let _ = write!(d, "{}", r.sample_count);
            }
            d
        }
    };
    let mut bind = format!("{reg}{}", r.lower_bound);
    if r.space != 0 {
        let _ = write!(bind, ",space{}", r.space);
    }
    let count = if r.range_size == u32::MAX { "unbounded".to_string() } else { r.range_size.to_string() };
    format!("; {:<31}{ty:>10}{format:>8}{dim:>12}{:>8}{bind:>15}{count:>6}\n", r.name, format!("{id_prefix}{}", r.id))
}

fn component_name(t: u32) -> &'static str {
    COMPONENT_NAMES.get(t as usize).copied().unwrap_or("invalid")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(class: u8, id: u32, name: &str, space: u32, lower_bound: u32, range_size: u32, kind: u32) -> ResourceInfo {
        ResourceInfo {
            class,
            id,
            name: name.to_string(),
            space,
            lower_bound,
            range_size,
            kind,
            has_counter: false,
            sample_count: 0,
            component_type: None,
        }
    }

    #[test]
    fn rows_have_dxcs_columns_and_order() {
        // Rows written as dxc prints them (HLSLFileCheck resource_binding/bindings2.hlsl,
        // bindings_ms.hlsl and barrier/share_mem2.hlsl CHECK lines).
        let mut tex = res(0, 0, "Tex1", 0, 0, 1, 2);
        tex.component_type = Some(9);
        let mut ms = res(0, 3, "Tex4", 1, 0, 1, 3);
        ms.component_type = Some(9);
        ms.sample_count = 8;
        let mut tb = res(0, 1, "MyTB", 3, 11, 1, TBUFFER);
        tb.component_type = Some(5);
        let mut rw = res(1, 1, "RWTex3", 0, 5, u32::MAX, 2);
        rw.component_type = Some(9);
        let table = resource_bindings(&[
            res(0, 2, "mats", 0, 0, 1, STRUCTURED_BUFFER),
            tex,
            ms,
            tb,
            rw,
            res(1, 0, "fA", 0, 0, 1, STRUCTURED_BUFFER),
            res(2, 1, "buf3", 3, 8, u32::MAX, 13),
            res(2, 0, "buf1", 0, 0, u32::MAX, 13),
            res(3, 0, "Samp1", 0, 0, 1, 14),
        ]);
        let expected = ";\n; Resource Bindings:\n;\n\
            ; Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n\
            ; ------------------------------ ---------- ------- ----------- ------- -------------- ------\n\
            ; buf1                              cbuffer      NA          NA     CB0            cb0unbounded\n\
            ; buf3                              cbuffer      NA          NA     CB1     cb8,space3unbounded\n\
            ; Samp1                             sampler      NA          NA      S0             s0     1\n\
            ; Tex1                              texture     f32          2d      T0             t0     1\n\
            ; MyTB                              texture     u32     tbuffer      T1     t11,space3     1\n\
            ; mats                              texture  struct         r/o      T2             t0     1\n\
            ; Tex4                              texture     f32       2dMS8      T3      t0,space1     1\n\
            ; fA                                    UAV  struct         r/w      U0             u0     1\n\
            ; RWTex3                                UAV     f32          2d      U1             u5unbounded\n\
            ;\n";
        assert_eq!(table, expected);
    }
}
