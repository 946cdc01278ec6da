//! The `RDAT` part (runtime data) of a library container: what a runtime reads about a DXIL
//! library without parsing its bitcode.
//!
//! Layout (dxc's `DxilRuntimeReflection.h`): a header `{version 0x10, part count}`, one offset per
//! part (relative to the header), then the parts, each `{type, size}` followed by its data padded
//! to 4 bytes. Parts are written in the order dxc's validator expects and left out when empty:
//! the string buffer (NUL-terminated strings, offset 0 is ""), the resource table, the function
//! table, the index arrays (`count, values...` rows, referenced by the index of their count),
//! the raw bytes and the subobject table. A table is `{record count, record stride}` then the
//! records.
//!
//! The records, as dxc fills them (`DxilRDATWriter`):
//! - resources in the order CBVs, samplers, SRVs, UAVs (not `dx.resources` order), each
//!   `{class, kind, id, space, lower, upper, name, flags}`;
//! - every defined function in module order: name, unmangled name, the resources its code
//!   references (index array of resource rows), the external functions it calls (index array of
//!   strings), shader kind (`6` for a library function), payload and attribute sizes, feature
//!   info (the `SFI0` bits of what the function uses), the stages it may run in and its minimum
//!   shader target; with validator 1.8 and later the record grows to `RuntimeDataFunctionInfo2`
//!   (expected wave lane counts, shader flags, a shader info reference, null without node
//!   shaders).
//!
//! Identical records (validator 1.7 and later) and identical index arrays are written once, as
//! dxc does.

use super::info::ModuleInfo;
use super::{feature_info, ContainerError, Writer};
use crate::ir::{Const, FuncId, InstKind, Linkage, MdOperand, Module, Type, Value};
use crate::ops::{DxilVersion, ScalarKind, Stage, StageSet, OP_TABLE};
use std::collections::HashMap;

/// `RDAT_Version_10`.
pub const VERSION: u32 = 0x10;
/// A reference to nothing (`RDAT_NULL_REF`).
pub const NULL_REF: u32 = u32::MAX;

/// `RuntimeDataPartType`.
pub mod part {
    pub const STRING_BUFFER: u32 = 1;
    pub const INDEX_ARRAYS: u32 = 2;
    pub const RESOURCE_TABLE: u32 = 3;
    pub const FUNCTION_TABLE: u32 = 4;
    pub const RAW_BYTES: u32 = 5;
    pub const SUBOBJECT_TABLE: u32 = 6;
}

/// Size of `RuntimeDataResourceInfo`.
pub const RESOURCE_STRIDE: u32 = 32;
/// Size of `RuntimeDataFunctionInfo` (validators before 1.8).
pub const FUNCTION_STRIDE: u32 = 44;
/// Size of `RuntimeDataFunctionInfo2` (validator 1.8 and later).
pub const FUNCTION2_STRIDE: u32 = 52;

/// One row of the resource table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRecord {
    /// `0` SRV, `1` UAV, `2` CBV, `3` sampler.
    pub class: u32,
    pub kind: u32,
    pub id: u32,
    pub space: u32,
    pub lower_bound: u32,
    pub upper_bound: u32,
    pub name: String,
    /// `DxilResourceFlag`: globally coherent 1, counter 2, rasterizer ordered 4.
    pub flags: u32,
}

/// One row of the function table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionRecord {
    pub name: String,
    pub unmangled_name: String,
    /// Rows of the resource table the function's code references.
    pub resources: Vec<u32>,
    /// External functions it calls.
    pub dependencies: Vec<String>,
    pub shader_kind: u32,
    pub payload_size: u32,
    pub attribute_size: u32,
    /// `FeatureInfo1 | FeatureInfo2 << 32`.
    pub feature_info: u64,
    /// `DxilShaderStageFlags`: bit `k` for shader kind `k`.
    pub stage_flags: u32,
    /// `kind << 16 | major << 4 | minor`.
    pub min_shader_target: u32,
    /// `RuntimeDataFunctionInfo2` fields (validator 1.8 and later).
    pub min_wave_lanes: u8,
    pub max_wave_lanes: u8,
    pub shader_flags: u16,
}

/// What the `RDAT` part says, before it is laid out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeData {
    pub resources: Vec<ResourceRecord>,
    pub functions: Vec<FunctionRecord>,
    /// The function record stride: [`FUNCTION_STRIDE`] or [`FUNCTION2_STRIDE`].
    pub function_stride: u32,
    /// Whether identical records share a row (validator 1.7 and later).
    pub dedup_records: bool,
}

/// The `SFI0`-style feature bits and stage/shader model requirements of a function's code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Compat {
    /// DXIL shader flags (the `dx.entryPoints` tag 0 numbering).
    flags: u64,
    /// Stages the code may run in.
    mask: u32,
    /// Minimum shader model minor version (6.x).
    min_minor: u32,
}

/// The shader model each optional feature (`SFI0` bit) needs; validator 1.8 raises a
/// function's minimum target to it (earlier validators only for barycentrics and view id
/// inputs of an entry's signature, as dxc's `d3dreflect/rdat_mintarget` tests show).
const FEATURE_MIN_MINOR: &[(u64, u32)] = &[
    (0x10000, 1),      // view id
    (0x20000, 1),      // barycentrics
    (0x40000, 2),      // native low precision
    (0x80000, 4),      // shading rate
    (0x100000, 5),     // raytracing tier 1.1
    (0x200000, 5),     // sampler feedback
    (0x400000, 6),     // 64-bit atomics on typed resources
    (0x800000, 6),     // 64-bit atomics on groupshared
    (0x1000000, 6),    // derivatives in mesh and amplification shaders
    (0x2000000, 6),    // resource descriptor heap indexing
    (0x4000000, 6),    // sampler descriptor heap indexing
    (0x10000000, 6),   // 64-bit atomics on heap resources
    (0x20000000, 7),   // advanced texture ops
    (0x40000000, 7),   // writeable MSAA textures
    (0x80000000, 8),   // SampleCmp with gradient or bias
    (0x100000000, 8),  // extended command info
];

/// The features an entry's signature elements imply (`DXIL::SemanticKind` of each element of
/// the input (0), output (1) and patch constant (2) signatures), as dxc's shader flags collect
/// them.
fn signature_features(kind: Stage, elements: &[(usize, u32)]) -> u64 {
    let mut f = 0u64;
    for &(sig, k) in elements {
        f |= match (sig, k) {
            (1, 4 | 5) if !matches!(kind, Stage::Geometry | Stage::Pixel) => 0x2000, // RT array/viewport index
            (1, 15) | (0, 15) => 0x400,                                                // inner coverage
            (1, 20) => 0x200,                                                           // stencil ref
            (0, 28) => 0x20000,                                                         // barycentrics
            (0, 27) => 0x10000,                                                         // view id read as an input
            (_, 29) => 0x80000,                                                         // shading rate
            (0, 31 | 32) => 0x100000000,                                                // start vertex/instance location
            _ => 0,
        };
    }
    f
}

/// dxc's `DemangleFunctionName`: `\01?name@@...` gives `name`; other names are kept.
pub fn demangle(name: &str) -> &str {
    match name.strip_prefix("\u{1}?") {
        Some(rest) => rest.split('@').next().unwrap_or(rest),
        None => name,
    }
}

fn scalar_overload(callee: &str) -> Option<ScalarKind> {
    let suffix = callee.rsplit('.').next()?;
    ScalarKind::ALL.iter().copied().find(|k| k.suffix() == suffix)
}

fn const_u32(m: &Module, v: &Value) -> Option<u32> {
    match v {
        Value::Const(c) => match m.consts.get(*c) {
            Const::Int { bits, .. } => Some(*bits as u32),
            _ => None,
        },
        _ => None,
    }
}

fn scalar_of(m: &Module, mut ty: crate::ir::TypeId) -> &Type {
    loop {
        match m.types.get(ty) {
            Type::Vector { elem, .. } | Type::Array { elem, .. } => ty = *elem,
            other => return other,
        }
    }
}

/// The stages that exist at DXIL `version`, library included.
fn stages_at(version: DxilVersion) -> u32 {
    Stage::ALL.iter().filter(|s| crate::ops::stage_introduced(**s) <= version).fold(0, |m, s| m | (1 << *s as u32))
}

/// Ops dxc's compatibility check counts at shader model 6.0 because they translate to older
/// ops when linked to an older target (`bWithTranslation`): raw buffer access, library handles,
/// annotated and bound handles, `QuadVote`, `BarrierByMemoryType`.
const TRANSLATABLE: &[&str] = &["RawBufferLoad", "RawBufferStore", "CreateHandleForLib", "AnnotateHandle", "CreateHandleFromBinding", "QuadVote", "BarrierByMemoryType"];

/// Shader flag bits beyond the `SFI0` ones: `Opt_UsesDerivatives` and `Opt_RequiresGroup`
/// (`FeatureInfo2` 0x100 and 0x200).
const USES_DERIVATIVES: u64 = 1 << 40;
const REQUIRES_GROUP: u64 = 1 << 41;

const fn sflag(s: Stage) -> u32 {
    1 << s as u32
}

/// Per defined function (indexed by `FuncId`), what its code needs, callees included: the
/// shader flags it sets, the stages its ops allow and the shader model they need, as dxc's
/// `OP::GetMinShaderModelAndMask` gives them for validator `valver`.
fn compat(m: &Module, info: &ModuleInfo) -> Vec<Compat> {
    let version = DxilVersion::new(info.dxil_version.0 as u8, info.dxil_version.1 as u8);
    let valver = info.validator;
    let by_opcode: HashMap<u32, usize> = OP_TABLE.iter().enumerate().map(|(i, o)| (o.opcode, i)).collect();
    let all = stages_at(version);
    let native16 = !info.use_min_precision;
    let mut out = vec![Compat { flags: 0, mask: all, min_minor: 0 }; m.functions.len()];
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); m.functions.len()];
    for (fi, f) in m.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let c = &mut out[fi];
        for b in &body.blocks {
            for id in &b.insts {
                let inst = &body.insts[id.0 as usize];
                match scalar_of(m, inst.ty) {
                    Type::Double => c.flags |= 1 << 2,
                    Type::Half | Type::Int(16) => c.flags |= 1 << 5,
                    Type::Int(64) if matches!(inst.kind, InstKind::Binary { .. } | InstKind::Cast { .. } | InstKind::AtomicRmw { .. }) => c.flags |= 1 << 20,
                    _ => {}
                }
                let is_i64 = |m: &Module, v: &Value| match v {
                    Value::Inst(i) => matches!(scalar_of(m, body.insts[i.0 as usize].ty), Type::Int(64)),
                    Value::Const(k) => matches!(scalar_of(m, m.consts.get(*k).ty()), Type::Int(64)),
                    _ => false,
                };
                let groupshared = |v: &Value| matches!(v, Value::Global(g) if m.globals[g.0 as usize].addrspace == 3);
                match &inst.kind {
                    InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } | InstKind::Gep { base: ptr, .. } | InstKind::AtomicRmw { ptr, .. } | InstKind::CmpXchg { ptr, .. }
                        if groupshared(ptr) =>
                    {
                        c.flags |= REQUIRES_GROUP;
                    }
                    _ => {}
                }
                match &inst.kind {
                    InstKind::AtomicRmw { value, .. } | InstKind::CmpXchg { new: value, .. } if is_i64(m, value) => {
                        c.flags |= (1 << 20) | (1 << 28);
                    }
                    InstKind::Call { callee, args } => {
                        let callee_fn = &m.functions[callee.0 as usize];
                        if callee_fn.body.is_some() {
                            calls[fi].push(callee.0 as usize);
                            continue;
                        }
                        if !callee_fn.name.starts_with("dx.op.") {
                            continue;
                        }
                        let Some(op) = args.first().and_then(|v| const_u32(m, v)).and_then(|o| by_opcode.get(&o)).map(|&i| &OP_TABLE[i]) else { continue };
                        let overload = scalar_overload(&callee_fn.name);
                        let mut minor = u32::from(op.min_shader_model.1);
                        if TRANSLATABLE.contains(&op.name) {
                            minor = 0;
                            if valver == (1, 6) && matches!(op.name, "AnnotateHandle" | "CreateHandleFromBinding") {
                                minor = 6;
                            }
                        }
                        let mut mask = op.stages.last().map_or(StageSet::ALL.0, |(_, s)| s.0);
                        let derivative = op.flags.is_derivative || op.flags.is_gradient;
                        if valver < (1, 8) && derivative {
                            mask &= !(sflag(Stage::Compute) | sflag(Stage::Amplification) | sflag(Stage::Mesh));
                        }
                        if valver < (1, 5) && op.flags.is_wave {
                            mask = sflag(Stage::Mesh) - 1;
                        }
                        if matches!(op.name, "AtomicBinOp" | "AtomicCompareExchange") && overload == Some(ScalarKind::I64) {
                            minor = 6;
                        }
                        if op.flags.is_barrier && op.name == "Barrier" {
                            // Group sync, thread group UAV fence or groupshared fence.
                            if args.get(1).and_then(|v| const_u32(m, v)).is_some_and(|mode| mode & (1 | 4 | 8) != 0) {
                                c.flags |= REQUIRES_GROUP;
                            }
                        }
                        c.mask &= mask;
                        c.min_minor = c.min_minor.max(minor);
                        if derivative {
                            c.flags |= USES_DERIVATIVES;
                        }
                        match overload {
                            Some(ScalarKind::Double) => c.flags |= 1 << 2,
                            Some(ScalarKind::Half | ScalarKind::I16) => c.flags |= 1 << 5,
                            Some(ScalarKind::I64) => c.flags |= 1 << 20,
                            _ => {}
                        }
                        if op.flags.is_wave {
                            c.flags |= 1 << 19;
                        }
                        match op.name {
                            "ViewID" => c.flags |= 1 << 21,
                            "AttributeAtVertex" => c.flags |= 1 << 22,
                            "CreateHandleFromHeap" => {
                                let sampler = args.get(2).and_then(|v| const_u32(m, v)) == Some(1);
                                c.flags |= if sampler { 1 << 31 } else { 1 << 30 };
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
        }
        if native16 && c.flags & (1 << 5) != 0 {
            c.flags |= 1 << 23;
        }
    }
    // Callers inherit what their callees need.
    loop {
        let mut changed = false;
        for fi in 0..out.len() {
            for &callee in &calls[fi] {
                let (a, b) = (out[fi], out[callee]);
                let merged = Compat { flags: a.flags | b.flags, mask: a.mask & b.mask, min_minor: a.min_minor.max(b.min_minor) };
                if merged != a {
                    out[fi] = merged;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// Entry properties of a library shader that the function table records.
#[derive(Default)]
struct EntryProps {
    /// (signature, `DXIL::SemanticKind`) of each signature element.
    elements: Vec<(usize, u32)>,
    kind: Option<u32>,
    payload: u32,
    attributes: u32,
    wave: Option<(u32, u32)>,
}

fn md_u32(m: &Module, op: Option<&MdOperand>) -> Option<u32> {
    match op {
        Some(MdOperand::Value(_, v)) => const_u32(m, v),
        _ => None,
    }
}

fn md_node<'a>(m: &'a Module, op: Option<&MdOperand>) -> Option<&'a [MdOperand]> {
    match op {
        Some(MdOperand::Node(id)) => Some(&m.md_nodes[id.0 as usize].operands),
        _ => None,
    }
}

fn entry_props(m: &Module) -> Result<HashMap<FuncId, EntryProps>, ContainerError> {
    let mut out = HashMap::new();
    for id in m.named_md.get("dx.entryPoints").map(|v| v.as_slice()).unwrap_or(&[]) {
        let e = &m.md_nodes[id.0 as usize].operands;
        let Some(MdOperand::Value(_, Value::Func(f))) = e.first() else { continue };
        let mut p = EntryProps::default();
        if let Some(sigs) = md_node(m, e.get(2)) {
            for (i, list) in sigs.iter().enumerate() {
                for el in md_node(m, Some(list)).unwrap_or(&[]) {
                    if let Some(k) = md_node(m, Some(el)).and_then(|el| md_u32(m, el.get(3))) {
                        p.elements.push((i, k));
                    }
                }
            }
        }
        if let Some(props) = md_node(m, e.get(4)) {
            for pair in props.chunks(2) {
                let bad = || ContainerError(format!("cannot write the RDAT part: the properties of entry '{}' are malformed", m.functions[f.0 as usize].name));
                let tag = md_u32(m, pair.first()).ok_or_else(bad)?;
                match tag {
                    8 => p.kind = Some(md_u32(m, pair.get(1)).ok_or_else(bad)?),
                    6 => p.payload = md_u32(m, pair.get(1)).ok_or_else(bad)?,
                    7 => p.attributes = md_u32(m, pair.get(1)).ok_or_else(bad)?,
                    11 => {
                        let n = md_node(m, pair.get(1)).ok_or_else(bad)?;
                        let v = md_u32(m, n.first()).ok_or_else(bad)?;
                        p.wave = Some((v, v));
                    }
                    23 => {
                        let n = md_node(m, pair.get(1)).ok_or_else(bad)?;
                        let lo = md_u32(m, n.first()).ok_or_else(bad)?;
                        let hi = md_u32(m, n.get(1)).ok_or_else(bad)?;
                        p.wave = Some((lo, if hi == 0 { lo } else { hi }));
                    }
                    _ => {}
                }
            }
        }
        out.insert(*f, p);
    }
    Ok(out)
}

/// The UAV flags of `dx.resources` (globally coherent, counter, rasterizer ordered), by
/// (class, id).
fn uav_flags(m: &Module) -> HashMap<u32, u32> {
    let mut out = HashMap::new();
    let Some(ids) = m.named_md.get("dx.resources") else { return out };
    let Some(first) = ids.first() else { return out };
    let lists = &m.md_nodes[first.0 as usize].operands;
    let Some(uavs) = md_node(m, lists.get(1)) else { return out };
    for r in uavs {
        let Some(rec) = md_node(m, Some(r)) else { continue };
        let Some(id) = md_u32(m, rec.first()) else { continue };
        let bit = |i: usize| md_u32(m, rec.get(i)).unwrap_or(0) != 0;
        let flags = u32::from(bit(7)) | (u32::from(bit(8)) << 1) | (u32::from(bit(9)) << 2);
        out.insert(id, flags);
    }
    out
}

/// The global symbol of each `dx.resources` record, by (class, id).
fn resource_symbols(m: &Module) -> HashMap<(u32, u32), crate::ir::GlobalId> {
    let mut out = HashMap::new();
    let Some(ids) = m.named_md.get("dx.resources") else { return out };
    let Some(first) = ids.first() else { return out };
    let lists = &m.md_nodes[first.0 as usize].operands;
    for (class, list) in lists.iter().enumerate() {
        let Some(records) = md_node(m, Some(list)) else { continue };
        for r in records {
            let Some(rec) = md_node(m, Some(r)) else { continue };
            if let (Some(id), Some(MdOperand::Value(_, Value::Global(g)))) = (md_u32(m, rec.first()), rec.get(1)) {
                out.insert((class as u32, id), *g);
            }
        }
    }
    out
}

/// What the `RDAT` part of library `m` says. Fails for what it cannot describe (a validator
/// version whose RDAT layout this writer does not know).
pub fn runtime_data(m: &Module, info: &ModuleInfo) -> Result<RuntimeData, ContainerError> {
    let valver = info.validator;
    if valver > (1, 8) {
        return Err(ContainerError(format!(
            "writing the RDAT part for validator version {}.{} is not supported: validators after 1.8 add per-stage shader information tables this writer does not produce (use -validator-version 1.8 or lower)",
            valver.0, valver.1
        )));
    }
    let v18 = valver >= (1, 8);
    let mut rd = RuntimeData {
        function_stride: if valver >= (1, 8) { FUNCTION2_STRIDE } else { FUNCTION_STRIDE },
        dedup_records: valver >= (1, 7),
        ..RuntimeData::default()
    };
    let uav = uav_flags(m);
    let symbols = resource_symbols(m);
    let mut symbol_row: HashMap<crate::ir::GlobalId, Vec<u32>> = HashMap::new();
    for class in [2u8, 3, 0, 1] {
        for r in info.resources.iter().filter(|r| r.class == class) {
            let row = rd.resources.len() as u32;
            if let Some(g) = symbols.get(&(u32::from(class), r.id)) {
                symbol_row.entry(*g).or_default().push(row);
            }
            rd.resources.push(ResourceRecord {
                class: u32::from(class),
                kind: r.kind,
                id: r.id,
                space: r.space,
                lower_bound: r.lower_bound,
                upper_bound: r.upper_bound(),
                name: r.name.clone(),
                flags: if class == 1 { uav.get(&r.id).copied().unwrap_or(0) } else { 0 },
            });
        }
    }
    let compat = compat(m, info);
    let props = entry_props(m)?;
    for (fi, f) in m.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let mut resources: Vec<u32> = Vec::new();
        let mut dependencies: Vec<String> = Vec::new();
        for b in &body.blocks {
            for id in &b.insts {
                let inst = &body.insts[id.0 as usize];
                let mut note = |v: &Value| {
                    if let Value::Global(g) = v {
                        for &row in symbol_row.get(g).map(|v| v.as_slice()).unwrap_or(&[]) {
                            if !resources.contains(&row) {
                                resources.push(row);
                            }
                        }
                    }
                };
                match &inst.kind {
                    InstKind::Load { ptr, .. } => note(ptr),
                    InstKind::Store { value, ptr, .. } => {
                        note(value);
                        note(ptr);
                    }
                    InstKind::Gep { base, .. } => note(base),
                    InstKind::Call { callee, args } => {
                        args.iter().for_each(&mut note);
                        let c = &m.functions[callee.0 as usize];
                        if c.body.is_none() && c.linkage == Linkage::External && !c.name.starts_with("dx.op.") && !c.name.starts_with("llvm.") && !dependencies.contains(&c.name) {
                            dependencies.push(c.name.clone());
                        }
                    }
                    InstKind::Cast { value, .. } => note(value),
                    _ => {}
                }
            }
        }
        resources.sort_unstable();
        let p = props.get(&FuncId(fi as u32));
        let kind = p.and_then(|p| p.kind).unwrap_or(Stage::Library as u32);
        let c = compat[fi];
        let stage = Stage::ALL.iter().copied().find(|s| *s as u32 == kind);
        let sig_features = match (p, stage) {
            (Some(p), Some(stage)) => signature_features(stage, &p.elements),
            _ => 0,
        };
        let mut flags = c.flags;
        let mut mask = c.mask;
        let mut minor = c.min_minor;
        if let Some(stage) = stage.filter(|s| *s != Stage::Library) {
            mask &= 1 << kind;
            if v18 {
                minor = minor.max(u32::from(crate::ops::stage_introduced(stage).minor));
                let group_stage = matches!(stage, Stage::Compute | Stage::Mesh | Stage::Amplification);
                if flags & USES_DERIVATIVES != 0 && group_stage {
                    minor = minor.max(6);
                    if stage != Stage::Compute {
                        flags |= 1 << 29;
                    }
                }
            } else if matches!(stage, Stage::RayGeneration | Stage::Intersection | Stage::AnyHit | Stage::ClosestHit | Stage::Miss | Stage::Callable) {
                // Before validator 1.8 the features of ray tracing shaders were not recorded.
                flags = 0;
            }
        } else if flags & REQUIRES_GROUP != 0 {
            mask &= sflag(Stage::Library) | sflag(Stage::Compute) | sflag(Stage::Amplification) | sflag(Stage::Mesh) | sflag(Stage::Node);
        }
        if !v18 {
            flags &= !(USES_DERIVATIVES | REQUIRES_GROUP);
        }
        let features = feature_info(flags) | sig_features;
        for &(bit, need) in FEATURE_MIN_MINOR {
            // Before 1.8 only the 6.1 inputs (barycentrics, view id) raised it.
            if (v18 && features & bit != 0) || (sig_features & bit & 0x30000) != 0 {
                minor = minor.max(need);
            }
        }
        let (payload, attributes) = match p {
            Some(p) => match kind {
                9 | 10 => (p.payload, p.attributes),
                11 | 12 => (p.payload, 0),
                _ => (0, 0),
            },
            None => (0, 0),
        };
        let wave = p.and_then(|p| p.wave).unwrap_or((0, 0));
        rd.functions.push(FunctionRecord {
            name: f.name.clone(),
            unmangled_name: demangle(&f.name).to_string(),
            resources,
            dependencies,
            shader_kind: kind,
            payload_size: payload,
            attribute_size: attributes,
            feature_info: features | (flags & (USES_DERIVATIVES | REQUIRES_GROUP)),
            stage_flags: mask,
            min_shader_target: (kind << 16) | (6 << 4) | (minor & 0xF),
            min_wave_lanes: wave.0 as u8,
            max_wave_lanes: wave.1 as u8,
            shader_flags: 0,
        });
    }
    Ok(rd)
}

#[derive(Default)]
struct Builder {
    strings: Vec<u8>,
    string_at: HashMap<String, u32>,
    index: Vec<u32>,
    index_at: HashMap<Vec<u32>, u32>,
}

impl Builder {
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.string_at.get(s) {
            return at;
        }
        let at = self.strings.len() as u32;
        self.strings.extend_from_slice(s.as_bytes());
        self.strings.push(0);
        self.string_at.insert(s.to_string(), at);
        at
    }
    fn array(&mut self, values: &[u32]) -> u32 {
        if let Some(&at) = self.index_at.get(values) {
            return at;
        }
        let at = self.index.len() as u32;
        self.index.push(values.len() as u32);
        self.index.extend_from_slice(values);
        self.index_at.insert(values.to_vec(), at);
        at
    }
}

struct Table {
    stride: u32,
    dedup: bool,
    rows: Vec<Vec<u8>>,
    row_at: HashMap<Vec<u8>, u32>,
}

impl Table {
    fn new(stride: u32, dedup: bool) -> Table {
        Table { stride, dedup, rows: Vec::new(), row_at: HashMap::new() }
    }
    fn insert(&mut self, mut record: Vec<u8>) -> u32 {
        record.resize(self.stride as usize, 0);
        if self.dedup {
            if let Some(&at) = self.row_at.get(&record) {
                return at;
            }
        }
        let at = self.rows.len() as u32;
        self.row_at.entry(record.clone()).or_insert(at);
        self.rows.push(record);
        at
    }
    fn bytes(&self) -> Vec<u8> {
        if self.rows.is_empty() {
            return Vec::new();
        }
        let mut w = Writer::default();
        w.u32(self.rows.len() as u32);
        w.u32(self.stride);
        for r in &self.rows {
            w.bytes.extend_from_slice(r);
        }
        w.bytes
    }
}

/// Lays out `rd` as the bytes of the `RDAT` part. Strings are inserted in dxc's order
/// (resource names, the external functions called, then each function's names), so offsets
/// match dxc's.
pub fn write(rd: &RuntimeData) -> Vec<u8> {
    let mut b = Builder::default();
    b.string("");
    let mut resources = Table::new(RESOURCE_STRIDE, rd.dedup_records);
    for r in &rd.resources {
        let mut w = Writer::default();
        for v in [r.class, r.kind, r.id, r.space, r.lower_bound, r.upper_bound] {
            w.u32(v);
        }
        w.u32(b.string(&r.name));
        w.u32(r.flags);
        resources.insert(w.bytes);
    }
    for f in &rd.functions {
        for d in &f.dependencies {
            b.string(d);
        }
    }
    let mut functions = Table::new(rd.function_stride, rd.dedup_records);
    for f in &rd.functions {
        let name = b.string(&f.name);
        let unmangled = b.string(&f.unmangled_name);
        let res = if f.resources.is_empty() { NULL_REF } else { b.array(&f.resources) };
        let deps: Vec<u32> = f.dependencies.iter().map(|d| b.string(d)).collect();
        let deps = if deps.is_empty() { NULL_REF } else { b.array(&deps) };
        let mut w = Writer::default();
        for v in [name, unmangled, res, deps, f.shader_kind, f.payload_size, f.attribute_size, f.feature_info as u32, (f.feature_info >> 32) as u32, f.stage_flags, f.min_shader_target] {
            w.u32(v);
        }
        if rd.function_stride >= FUNCTION2_STRIDE {
            w.u8(f.min_wave_lanes);
            w.u8(f.max_wave_lanes);
            w.u16(f.shader_flags);
            w.u32(NULL_REF);
        }
        functions.insert(w.bytes);
    }
    let mut index = Writer::default();
    for v in &b.index {
        index.u32(*v);
    }
    let parts: [(u32, Vec<u8>); 4] = [
        (part::STRING_BUFFER, b.strings),
        (part::RESOURCE_TABLE, resources.bytes()),
        (part::FUNCTION_TABLE, functions.bytes()),
        (part::INDEX_ARRAYS, index.bytes),
    ];
    let parts: Vec<&(u32, Vec<u8>)> = parts.iter().filter(|(_, p)| !p.is_empty()).collect();
    let mut w = Writer::default();
    w.u32(VERSION);
    w.u32(parts.len() as u32);
    let mut at = 8 + 4 * parts.len();
    for (_, p) in &parts {
        w.u32(at as u32);
        at += 8 + p.len().div_ceil(4) * 4;
    }
    for (ty, p) in &parts {
        w.u32(*ty);
        w.u32((p.len().div_ceil(4) * 4) as u32);
        w.bytes.extend_from_slice(p);
        w.align4();
    }
    w.bytes
}
