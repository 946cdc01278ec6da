//! A root signature written back in the root signature language (what `-dumpbin` shows for an
//! `RTS0` part). Parsing the text for the same version gives the same root signature.

use super::names::{self, name};
use super::*;
use std::fmt::Write;

fn flag_list(table: &[(&'static str, u32)], flags: u32) -> String {
    if flags == 0 {
        return "0".into();
    }
    let mut parts: Vec<String> = table.iter().filter(|(_, v)| flags & v == *v).map(|(n, _)| n.to_string()).collect();
    let known: u32 = table.iter().map(|(_, v)| v).fold(0, |a, b| a | b);
    if flags & !known != 0 {
        parts.push(format!("0x{:x}", flags & !known));
    }
    parts.join(" | ")
}

fn enum_name(table: &[(&'static str, u32)], v: u32) -> String {
    name(table, v).map_or_else(|| v.to_string(), str::to_string)
}

fn visibility(out: &mut String, v: u32) {
    if v != 0 {
        let _ = write!(out, ", visibility = {}", enum_name(names::VISIBILITY, v));
    }
}

fn float(v: f32) -> String {
    if v == f32::MAX {
        "3.402823466e+38".into()
    } else {
        format!("{v:?}")
    }
}

fn register(out: &mut String, letter: char, reg: u32, space: u32) {
    let _ = write!(out, "{letter}{reg}");
    if space != 0 {
        let _ = write!(out, ", space = {space}");
    }
}

/// `rs` in the root signature language, one item per line.
pub fn to_text(rs: &RootSignature) -> String {
    let mut items = Vec::new();
    if rs.flags != 0 {
        items.push(format!("RootFlags({})", flag_list(names::ROOT_FLAGS, rs.flags)));
    }
    for p in &rs.params {
        let mut s = String::new();
        match &p.kind {
            ParamKind::Constants { register: reg, space, num_values } => {
                let _ = write!(s, "RootConstants(num32BitConstants = {num_values}, ");
                register(&mut s, 'b', *reg, *space);
            }
            ParamKind::Descriptor { ty, register: reg, space, flags } => {
                let (kw, letter) = match *ty {
                    PARAM_CBV => ("CBV", 'b'),
                    PARAM_SRV => ("SRV", 't'),
                    _ => ("UAV", 'u'),
                };
                let _ = write!(s, "{kw}(");
                register(&mut s, letter, *reg, *space);
                if rs.version == Version::V1_1 {
                    let _ = write!(s, ", flags = {}", flag_list(names::DESCRIPTOR_FLAGS, *flags));
                }
            }
            ParamKind::Table(ranges) => {
                s.push_str("DescriptorTable(");
                for (i, r) in ranges.iter().enumerate() {
                    let (kw, letter) = match r.ty {
                        RANGE_SRV => ("SRV", 't'),
                        RANGE_UAV => ("UAV", 'u'),
                        RANGE_CBV => ("CBV", 'b'),
                        _ => ("Sampler", 's'),
                    };
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{kw}(");
                    register(&mut s, letter, r.base_register, r.space);
                    if r.num_descriptors == UNBOUNDED {
                        s.push_str(", numDescriptors = unbounded");
                    } else if r.num_descriptors != 1 {
                        let _ = write!(s, ", numDescriptors = {}", r.num_descriptors);
                    }
                    if rs.version == Version::V1_1 {
                        let _ = write!(s, ", flags = {}", flag_list(names::RANGE_FLAGS, r.flags));
                    }
                    if r.offset != OFFSET_APPEND {
                        let _ = write!(s, ", offset = {}", r.offset);
                    }
                    s.push(')');
                }
                if ranges.is_empty() {
                    // A table needs an argument to parse; an empty one only comes from a binary.
                    s.push_str("/* no ranges */");
                }
            }
        }
        visibility(&mut s, p.visibility);
        s.push(')');
        items.push(s);
    }
    for smp in &rs.samplers {
        let mut s = String::from("StaticSampler(");
        register(&mut s, 's', smp.register, smp.space);
        let _ = write!(
            s,
            ", filter = {}, addressU = {}, addressV = {}, addressW = {}, mipLODBias = {}, maxAnisotropy = {}, comparisonFunc = {}, borderColor = {}, minLOD = {}, maxLOD = {}",
            enum_name(names::FILTERS, smp.filter),
            enum_name(names::ADDRESS_MODES, smp.address_u),
            enum_name(names::ADDRESS_MODES, smp.address_v),
            enum_name(names::ADDRESS_MODES, smp.address_w),
            float(smp.mip_lod_bias),
            smp.max_anisotropy,
            enum_name(names::COMPARISONS, smp.comparison_func),
            enum_name(names::BORDER_COLORS, smp.border_color),
            float(smp.min_lod),
            float(smp.max_lod),
        );
        visibility(&mut s, smp.visibility);
        s.push(')');
        items.push(s);
    }
    items.join(",\n")
}
