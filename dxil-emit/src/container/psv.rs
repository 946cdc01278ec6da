//! `PSV0`: pipeline state validation data, in the version the validator version asks for
//! (`dx.valver` 1.1 → 1, 1.6 → 2, 1.8 → 3): the runtime info of the stage, resource bindings,
//! a string table and a semantic index table, signature elements, and the input → output
//! dependency tables.

use super::info::{ModuleInfo, SigElement};
use super::sig::sig_comp_type;
use super::usage::Usage;
use super::Writer;
use crate::ops::Stage;

/// The PSV version a validator version reads.
pub fn psv_version(validator: (u32, u32)) -> u32 {
    match validator {
        (0, 0) => 3,
        (1, 0) => 0,
        (1, m) if m < 6 => 1,
        (1, m) if m < 8 => 2,
        _ => 3,
    }
}

/// `PSVResourceType` of a resource.
pub fn resource_type(class: u8, kind: u32, has_counter: bool) -> u32 {
    match (class, kind) {
        (3, _) => 1,
        (2, _) => 2,
        (1, 12) if has_counter => 9,
        (1, 12) => 8,
        (0, 12) => 5,
        (_, 16) => 4,
        (1, 11) => 7,
        (0, 11) => 4,
        (1, _) => 6,
        _ => 3,
    }
}

/// Packed vectors used by the elements of `list` in `stream`.
fn vectors(list: &[SigElement], stream: u32) -> u32 {
    list.iter().filter(|e| e.stream == stream).filter_map(|e| e.start_row.map(|r| r + e.rows)).max().unwrap_or(0)
}

fn mask_dwords(vectors: u32) -> u32 {
    (vectors + 7) >> 3
}

pub fn write_psv(info: &ModuleInfo, usage: &Usage) -> Vec<u8> {
    let version = psv_version(info.validator);
    let mut w = Writer::default();
    let info_size = match version {
        0 => 24,
        1 => 36,
        2 => 48,
        _ => 52,
    };
    w.u32(info_size);
    let kind = info.kind;
    let outputs = &info.sigs[1];
    let has_position = outputs.iter().any(|e| e.kind == 3);
    // PSVRuntimeInfo0: a 16-byte stage union, then the wave lane counts.
    let mut stage = Writer::default();
    match kind {
        Stage::Vertex => stage.u8(u8::from(has_position)),
        Stage::Hull => {
            let h = info.hs_state.unwrap_or([0; 5]);
            stage.u32(h[0]);
            stage.u32(h[1]);
            stage.u32(h[2]);
            stage.u32(h[4]);
        }
        Stage::Domain => {
            let d = info.ds_state.unwrap_or([0; 2]);
            stage.u32(d[1]);
            stage.u8(u8::from(has_position));
            stage.bytes.extend_from_slice(&[0; 3]);
            stage.u32(d[0]);
        }
        Stage::Geometry => {
            let g = info.gs_state.unwrap_or([0; 5]);
            stage.u32(g[0]);
            stage.u32(g[3]);
            stage.u32(if g[2] == 0 { 1 } else { g[2] });
            stage.u8(u8::from(has_position));
        }
        Stage::Pixel => {
            let depth = outputs.iter().any(|e| matches!(e.kind, 17..=19));
            let sample = info.sigs[0].iter().any(|e| matches!(e.interpolation, 6 | 7) || e.kind == 12);
            stage.u8(u8::from(depth));
            stage.u8(u8::from(sample));
        }
        Stage::Amplification => stage.u32(info.as_payload_size.unwrap_or(0)),
        Stage::Mesh => {
            // MSInfo: groupshared bytes, those of them that depend on the view id (hlslc
            // reports no view id use), payload size, max output vertices and primitives.
            let [verts, prims, _, payload] = info.ms_state.unwrap_or([0; 4]);
            stage.u32(info.groupshared_bytes);
            stage.u32(0);
            stage.u32(payload);
            stage.u16(verts as u16);
            stage.u16(prims as u16);
        }
        _ => {}
    }
    stage.bytes.resize(16, 0);
    w.bytes.extend_from_slice(&stage.bytes);
    let (min_wave, max_wave) = match (kind, info.wave_size) {
        (Stage::Compute, Some(n)) => (n, n),
        _ => (0, u32::MAX),
    };
    w.u32(min_wave);
    w.u32(max_wave);
    let in_vectors = vectors(&info.sigs[0], 0);
    let out_vectors: Vec<u32> = (0..4).map(|s| vectors(outputs, s)).collect();
    let pc_vectors = if matches!(kind, Stage::Hull | Stage::Domain | Stage::Mesh) { vectors(&info.sigs[2], 0) } else { 0 };
    if version >= 1 {
        w.u8(kind as u8);
        w.u8(0); // UsesViewID
        if kind == Stage::Geometry {
            w.u16(info.gs_state.map_or(0, |g| g[1]) as u16);
        } else {
            // Mesh shaders: primitive signature vectors, then the output topology (MSInfo1).
            w.u8(pc_vectors as u8);
            w.u8(if kind == Stage::Mesh { info.ms_state.map_or(0, |s| s[2]) as u8 } else { 0 });
        }
        for list in &info.sigs {
            w.u8(list.len() as u8);
        }
        w.u8(in_vectors as u8);
        for v in &out_vectors {
            w.u8(*v as u8);
        }
    }
    if version >= 2 {
        let n = if matches!(kind, Stage::Compute | Stage::Mesh | Stage::Amplification) { info.num_threads } else { [0; 3] };
        for v in n {
            w.u32(v);
        }
    }
    // The string table starts with an empty string (system values have no name here).
    let mut strings = vec![0u8];
    let mut index_table: Vec<u32> = Vec::new();
    let mut elements = Writer::default();
    if version >= 1 {
        for list in &info.sigs {
            for e in list {
                let name = if e.kind == 0 && !e.semantic.is_empty() {
                    let o = strings.len() as u32;
                    strings.extend_from_slice(e.semantic.as_bytes());
                    strings.push(0);
                    o
                } else {
                    0
                };
                let indexes = index_table
                    .windows(e.indices.len().max(1))
                    .position(|w| w == e.indices.as_slice())
                    .filter(|_| !e.indices.is_empty())
                    .unwrap_or_else(|| {
                        let o = index_table.len();
                        index_table.extend_from_slice(&e.indices);
                        o
                    });
                elements.u32(name);
                elements.u32(indexes as u32);
                elements.u8(e.rows as u8);
                elements.u8(e.start_row.unwrap_or(0) as u8);
                let mut cols = e.cols & 0xF;
                if e.start_row.is_some() {
                    cols |= 0x40 | ((e.start_col & 3) << 4);
                }
                elements.u8(cols);
                elements.u8(e.kind);
                elements.u8(sig_comp_type(e.component_type) as u8);
                elements.u8(e.interpolation);
                let sig = info.sigs.iter().position(|l| std::ptr::eq(l, list)).unwrap_or(0);
                let dynamic = usage.dynamic[sig].get(e.id as usize).copied().unwrap_or(0);
                elements.u8(((e.stream as u8 & 3) << 4) | (dynamic & 0xF));
                elements.u8(0);
            }
        }
        if version >= 3 {
            strings.extend_from_slice(info.entry_name.as_bytes());
            strings.push(0);
        }
    }
    if version >= 3 {
        // The entry name was the last string added.
        let entry_name_offset = (strings.len() - info.entry_name.len() - 1) as u32;
        w.u32(entry_name_offset);
    }
    debug_assert_eq!(w.bytes.len() as u32, 4 + info_size);
    w.u32(info.resources.len() as u32);
    if !info.resources.is_empty() {
        w.u32(if version >= 2 { 24 } else { 16 });
        // Bindings in CBV, sampler, SRV, UAV order.
        for class in [2u8, 3, 0, 1] {
            for r in info.resources.iter().filter(|r| r.class == class) {
                w.u32(resource_type(r.class, r.kind, r.has_counter));
                w.u32(r.space);
                w.u32(r.lower_bound);
                w.u32(r.upper_bound());
                if version >= 2 {
                    w.u32(r.kind);
                    w.u32(0);
                }
            }
        }
    }
    if version == 0 {
        return w.bytes;
    }
    while strings.len() % 4 != 0 {
        strings.push(0);
    }
    w.u32(strings.len() as u32);
    w.bytes.extend_from_slice(&strings);
    w.u32(index_table.len() as u32);
    for i in &index_table {
        w.u32(*i);
    }
    if info.sigs.iter().any(|l| !l.is_empty()) {
        w.u32(16);
        w.bytes.extend_from_slice(&elements.bytes);
    }
    // Dependency tables: for each input component, a bit mask of the outputs it reaches.
    let table = |w: &mut Writer, inputs: u32, outputs: u32, deps: &dyn Fn(u32) -> u128| {
        let dwords = mask_dwords(outputs);
        for input in 0..inputs * 4 {
            let mut mask = vec![0u32; dwords as usize];
            for out in 0..outputs * 4 {
                if input < 128 && deps(out) & (1u128 << input) != 0 {
                    mask[(out / 32) as usize] |= 1 << (out % 32);
                }
            }
            for m in mask {
                w.u32(m);
            }
        }
    };
    for (stream, &outs) in out_vectors.iter().enumerate() {
        if in_vectors != 0 && outs != 0 {
            let lookup = |o: u32| usage.out_deps.iter().filter(|(s, c, _)| *s == stream as u32 && *c == o).fold(0, |a, (_, _, d)| a | d);
            table(&mut w, in_vectors, outs, &lookup);
        }
    }
    if kind == Stage::Hull && pc_vectors != 0 && in_vectors != 0 {
        let lookup = |o: u32| usage.pc_out_deps.iter().filter(|(c, _)| *c == o).fold(0, |a, (_, d)| a | d);
        table(&mut w, in_vectors, pc_vectors, &lookup);
    }
    if kind == Stage::Domain && out_vectors[0] != 0 && pc_vectors != 0 {
        let lookup = |o: u32| usage.pc_in_deps.iter().filter(|(c, _)| *c == o).fold(0, |a, (_, d)| a | d);
        table(&mut w, pc_vectors, out_vectors[0], &lookup);
    }
    w.bytes
}
