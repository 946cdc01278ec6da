//! What the container parts say, read back from the module's DXIL metadata (`dx.version`,
//! `dx.valver`, `dx.shaderModel`, `dx.resources`, `dx.entryPoints`), so that the parts and the
//! metadata in the bitcode cannot disagree: both come from the same nodes. Stage input/output
//! usage (which components are read or written, and which inputs each output depends on) is
//! read from the entry function's `dx.op` calls.

use crate::ir::{Const, FuncId, MdId, MdOperand, Module, Value};
use crate::ops::Stage;

/// One signature element as the metadata records it (see `metadata::SignatureElement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigElement {
    pub id: u32,
    pub semantic: String,
    /// `DXIL::ComponentType`.
    pub component_type: u8,
    /// `DXIL::SemanticKind`.
    pub kind: u8,
    pub indices: Vec<u32>,
    pub interpolation: u8,
    pub rows: u32,
    pub cols: u8,
    /// `None` when the element is not packed (start row -1).
    pub start_row: Option<u32>,
    pub start_col: u8,
    pub stream: u32,
}

/// One resource record with its class (`0` SRV, `1` UAV, `2` CBV, `3` sampler).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceInfo {
    pub class: u8,
    pub id: u32,
    pub name: String,
    pub space: u32,
    pub lower_bound: u32,
    /// `u32::MAX` for unbounded ranges.
    pub range_size: u32,
    /// `DXIL::ResourceKind` (`13` for cbuffers, `14` for samplers).
    pub kind: u32,
    pub has_counter: bool,
    /// An SRV's sample count (multisampled textures; 0 otherwise).
    pub sample_count: u32,
    /// The element's `DXIL::ComponentType` (tag 0 of an SRV's or UAV's tags), if recorded.
    pub component_type: Option<u32>,
}

impl ResourceInfo {
    pub fn upper_bound(&self) -> u32 {
        if self.range_size == u32::MAX {
            u32::MAX
        } else {
            self.lower_bound.wrapping_add(self.range_size).wrapping_sub(1)
        }
    }
}

/// Everything the container parts need to know about the module.
#[derive(Clone, Debug)]
pub struct ModuleInfo {
    pub kind: Stage,
    pub shader_model: (u32, u32),
    pub dxil_version: (u32, u32),
    pub validator: (u32, u32),
    pub entry_name: String,
    pub entry: Option<FuncId>,
    /// Input, output, patch-constant signatures.
    pub sigs: [Vec<SigElement>; 3],
    /// In `dx.resources` order: SRVs, UAVs, CBVs, samplers.
    pub resources: Vec<ResourceInfo>,
    pub shader_flags: u64,
    pub num_threads: [u32; 3],
    pub wave_size: Option<u32>,
    /// `!{input primitive, max vertex count, stream mask, output topology, instance count}`.
    pub gs_state: Option<[u32; 5]>,
    /// `!{domain, input control points}`.
    pub ds_state: Option<[u32; 2]>,
    /// `!{input control points, output control points, domain, partitioning, output primitive}`.
    pub hs_state: Option<[u32; 5]>,
    /// An amplification shader's payload size in bytes (its state, tag 10, also gives
    /// `num_threads`).
    pub as_payload_size: Option<u32>,
    /// A mesh shader's `!{max vertices, max primitives, output topology, payload size}` (its
    /// state, tag 9, also gives `num_threads`).
    pub ms_state: Option<[u32; 4]>,
    /// Bytes of groupshared (`addrspace(3)`) globals, as LLVM's data layout allocates them.
    pub groupshared_bytes: u32,
    /// `false` with `-enable-16bit-types` (native 16-bit types instead of minimum precision).
    pub use_min_precision: bool,
}

/// A module whose metadata does not say what the container needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoError(pub String);

type R<T> = Result<T, InfoError>;

fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(InfoError(msg.into()))
}

struct Md<'a> {
    m: &'a Module,
}

impl<'a> Md<'a> {
    fn node(&self, id: MdId) -> &'a [MdOperand] {
        &self.m.md_nodes[id.0 as usize].operands
    }
    fn named(&self, name: &str) -> Option<&'a [MdOperand]> {
        let ids = self.m.named_md.get(name)?;
        ids.first().map(|id| self.node(*id))
    }
    fn int(&self, op: Option<&MdOperand>, what: &str) -> R<u64> {
        match op {
            Some(MdOperand::Value(_, Value::Const(c))) => match self.m.consts.get(*c) {
                Const::Int { bits, .. } => Ok(*bits),
                Const::Float { bits, .. } => Ok(*bits),
                _ => err(format!("{what}: expected an integer constant")),
            },
            _ => err(format!("{what}: expected an integer constant")),
        }
    }
    fn u32(&self, op: Option<&MdOperand>, what: &str) -> R<u32> {
        self.int(op, what).map(|v| v as u32)
    }
    fn string(&self, op: Option<&MdOperand>, what: &str) -> R<String> {
        match op {
            Some(MdOperand::String(s)) => Ok(s.clone()),
            _ => err(format!("{what}: expected a string")),
        }
    }
    /// `Some(node operands)`, `None` for `null`.
    fn sub(&self, op: Option<&MdOperand>, what: &str) -> R<Option<&'a [MdOperand]>> {
        match op {
            Some(MdOperand::Node(id)) => Ok(Some(self.node(*id))),
            Some(MdOperand::Null) | None => Ok(None),
            _ => err(format!("{what}: expected a metadata node")),
        }
    }
}

fn shader_kind(prefix: &str) -> Option<Stage> {
    Stage::ALL.iter().copied().find(|k| crate::ops::profile_prefix(*k) == prefix)
}

/// Reads the module's metadata. Fails with a message naming what is missing or malformed.
pub fn module_info(m: &Module) -> Result<ModuleInfo, InfoError> {
    let md = Md { m };
    let pair = |name: &str| -> R<(u32, u32)> {
        let Some(ops) = md.named(name) else { return err(format!("the module has no !{name}")) };
        let node = match ops.first() {
            _ if ops.len() == 2 => ops,
            _ => return err(format!("!{name} is malformed")),
        };
        Ok((md.u32(node.first(), name)?, md.u32(node.get(1), name)?))
    };
    let dxil_version = pair("dx.version")?;
    let validator = pair("dx.valver")?;
    let Some(sm) = md.named("dx.shaderModel") else { return err("the module has no !dx.shaderModel") };
    let prefix = md.string(sm.first(), "dx.shaderModel")?;
    let Some(kind) = shader_kind(&prefix) else { return err(format!("unknown shader kind '{prefix}' in !dx.shaderModel")) };
    let shader_model = (md.u32(sm.get(1), "dx.shaderModel")?, md.u32(sm.get(2), "dx.shaderModel")?);

    let mut info = ModuleInfo {
        kind,
        shader_model,
        dxil_version,
        validator,
        entry_name: String::new(),
        entry: None,
        sigs: [Vec::new(), Vec::new(), Vec::new()],
        resources: Vec::new(),
        shader_flags: 0,
        num_threads: [0; 3],
        wave_size: None,
        gs_state: None,
        ds_state: None,
        hs_state: None,
        as_payload_size: None,
        ms_state: None,
        groupshared_bytes: m.globals.iter().filter(|g| g.addrspace == 3).map(|g| alloc_size(m, g.ty) as u32).sum(),
        use_min_precision: m.target_datalayout != crate::ir::DXIL_DATALAYOUT_16BIT,
    };
    if let Some(res) = md.named("dx.resources") {
        for (class, list) in res.iter().enumerate() {
            let Some(records) = md.sub(Some(list), "dx.resources")? else { continue };
            for r in records {
                let Some(rec) = md.sub(Some(r), "dx.resources record")? else { continue };
                info.resources.push(resource(&md, class as u8, rec)?);
            }
        }
    }
    let Some(entries) = m.named_md.get("dx.entryPoints") else {
        return err("the module has no !dx.entryPoints");
    };
    let Some(&first) = entries.first() else { return err("!dx.entryPoints is empty") };
    let e = md.node(first);
    info.entry = match e.first() {
        Some(MdOperand::Value(_, Value::Func(f))) => Some(*f),
        _ => None,
    };
    info.entry_name = md.string(e.get(1), "dx.entryPoints name")?;
    if let Some(sigs) = md.sub(e.get(2), "dx.entryPoints signatures")? {
        for (i, list) in sigs.iter().take(3).enumerate() {
            if let Some(elems) = md.sub(Some(list), "signature list")? {
                for el in elems {
                    let Some(el) = md.sub(Some(el), "signature element")? else { continue };
                    info.sigs[i].push(sig_element(&md, el)?);
                }
            }
        }
    }
    if let Some(props) = md.sub(e.get(4), "dx.entryPoints properties")? {
        for pair in props.chunks(2) {
            let tag = md.u32(pair.first(), "entry property tag")?;
            let value = pair.get(1);
            let ints = |n: usize| -> R<Vec<u32>> {
                let Some(node) = md.sub(value, "entry property")? else { return err("entry property is null") };
                // The hull state starts with the patch constant function.
                let skip = usize::from(tag == 3);
                (0..n).map(|i| md.u32(node.get(i + skip), "entry property")).collect()
            };
            match tag {
                0 => info.shader_flags = md.int(value, "shader flags")?,
                1 => info.gs_state = Some(ints(5)?.try_into().unwrap_or([0; 5])),
                2 => info.ds_state = Some(ints(2)?.try_into().unwrap_or([0; 2])),
                3 => info.hs_state = Some(ints(5)?.try_into().unwrap_or([0; 5])),
                4 => info.num_threads = ints(3)?.try_into().unwrap_or([0; 3]),
                10 => {
                    let Some(node) = md.sub(value, "amplification state")? else { return err("the amplification state is null") };
                    let Some(threads) = md.sub(node.first(), "amplification state numthreads")? else { return err("the amplification state has no numthreads") };
                    for (i, n) in info.num_threads.iter_mut().enumerate() {
                        *n = md.u32(threads.get(i), "amplification state numthreads")?;
                    }
                    info.as_payload_size = Some(md.u32(node.get(1), "amplification state payload size")?);
                }
                9 => {
                    let Some(node) = md.sub(value, "mesh state")? else { return err("the mesh state is null") };
                    let Some(threads) = md.sub(node.first(), "mesh state numthreads")? else { return err("the mesh state has no numthreads") };
                    for (i, n) in info.num_threads.iter_mut().enumerate() {
                        *n = md.u32(threads.get(i), "mesh state numthreads")?;
                    }
                    let mut s = [0; 4];
                    for (i, x) in s.iter_mut().enumerate() {
                        *x = md.u32(node.get(i + 1), "mesh state")?;
                    }
                    info.ms_state = Some(s);
                }
                11 => info.wave_size = Some(ints(1)?[0]),
                _ => {}
            }
        }
    }
    Ok(info)
}

fn resource(md: &Md, class: u8, rec: &[MdOperand]) -> R<ResourceInfo> {
    let w = "dx.resources record";
    let mut r = ResourceInfo {
        class,
        id: md.u32(rec.first(), w)?,
        name: md.string(rec.get(2), w)?,
        space: md.u32(rec.get(3), w)?,
        lower_bound: md.u32(rec.get(4), w)?,
        range_size: md.u32(rec.get(5), w)?,
        kind: 0,
        has_counter: false,
        sample_count: 0,
        component_type: None,
    };
    // The extra tags: (tag, value) pairs; tag 0 is the element's component type.
    let tags = |at: usize| -> R<Option<u32>> {
        let Some(tags) = md.sub(rec.get(at), w)? else { return Ok(None) };
        for pair in tags.chunks(2) {
            if md.u32(pair.first(), w)? == 0 {
                return md.u32(pair.get(1), w).map(Some);
            }
        }
        Ok(None)
    };
    match class {
        0 => {
            r.kind = md.u32(rec.get(6), w)?;
            r.sample_count = md.u32(rec.get(7), w)?;
            r.component_type = tags(8)?;
        }
        1 => {
            r.kind = md.u32(rec.get(6), w)?;
            r.has_counter = md.int(rec.get(8), w)? != 0;
            r.component_type = tags(10)?;
        }
        2 => r.kind = 13,
        _ => r.kind = 14,
    }
    Ok(r)
}

fn sig_element(md: &Md, el: &[MdOperand]) -> R<SigElement> {
    let w = "signature element";
    let indices = match md.sub(el.get(4), w)? {
        Some(ops) => ops.iter().map(|o| md.u32(Some(o), w)).collect::<R<Vec<u32>>>()?,
        None => Vec::new(),
    };
    let start_row = md.u32(el.get(8), w)?;
    let mut stream = 0;
    if let Some(tags) = md.sub(el.get(10), w)? {
        for pair in tags.chunks(2) {
            if md.u32(pair.first(), w)? == 0 {
                stream = md.u32(pair.get(1), w)?;
            }
        }
    }
    Ok(SigElement {
        id: md.u32(el.first(), w)?,
        semantic: md.string(el.get(1), w)?,
        component_type: md.u32(el.get(2), w)? as u8,
        kind: md.u32(el.get(3), w)? as u8,
        indices,
        interpolation: md.u32(el.get(5), w)? as u8,
        rows: md.u32(el.get(6), w)?,
        cols: md.u32(el.get(7), w)? as u8,
        start_row: if start_row == u32::MAX { None } else { Some(start_row) },
        start_col: md.u32(el.get(9), w)? as u8,
        stream,
    })
}

/// The bytes LLVM's DXIL data layout allocates for a value of type `ty` (scalars aligned to
/// their size, vectors and arrays as their elements, structs with their fields aligned).
fn alloc_size(m: &Module, ty: crate::ir::TypeId) -> u64 {
    use crate::ir::Type;
    let align = |t: crate::ir::TypeId| -> u64 { scalar_align(m, t) };
    match m.types.get(ty) {
        Type::Half => 2,
        Type::Float => 4,
        Type::Double => 8,
        Type::Int(b) => u64::from(*b).div_ceil(8).max(1),
        Type::Pointer { .. } => 4,
        Type::Vector { elem, len } => alloc_size(m, *elem) * u64::from(*len),
        Type::Array { elem, len } => alloc_size(m, *elem) * *len,
        Type::Struct { fields, .. } | Type::Named { body: Some(fields), .. } => {
            let mut off = 0u64;
            let mut max_align = 1;
            for &f in fields {
                let a = align(f);
                max_align = max_align.max(a);
                off = off.div_ceil(a) * a + alloc_size(m, f);
            }
            off.div_ceil(max_align) * max_align
        }
        _ => 0,
    }
}

/// The alignment of a type: its widest scalar's size.
fn scalar_align(m: &Module, ty: crate::ir::TypeId) -> u64 {
    use crate::ir::Type;
    match m.types.get(ty) {
        Type::Vector { elem, .. } | Type::Array { elem, .. } => scalar_align(m, *elem),
        Type::Struct { fields, .. } | Type::Named { body: Some(fields), .. } => fields.iter().map(|&f| scalar_align(m, f)).max().unwrap_or(1),
        _ => alloc_size(m, ty).max(1),
    }
}

/// How an element appears in the signature part (`DXIL::SemanticInterpretationKind`, reduced to
/// what the container needs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Interpretation {
    /// Written to the signature part.
    InSig,
    /// Only in the metadata (and PSV0), never in `ISG1`/`OSG1`/`PSG1`.
    NotInSig,
}

/// Whether element `e` of signature `sig` (0 input, 1 output, 2 patch constant) of a `kind`
/// shader appears in the signature part.
pub fn interpretation(kind: Stage, sig: usize, e: &SigElement) -> Interpretation {
    let input = sig == 0 || (sig == 2 && kind == Stage::Domain);
    let not_in_sig = match e.kind {
        8 | 9 | 11 | 27 => true,
        21..=24 => true,
        10 => input && matches!(kind, Stage::Hull | Stage::Domain | Stage::Geometry),
        _ => false,
    };
    if not_in_sig {
        Interpretation::NotInSig
    } else {
        Interpretation::InSig
    }
}
