//! Which signature components a shader reads and writes, and which inputs each output depends
//! on, read from the `dx.op` calls of the module's functions (the entry and, for a hull shader,
//! its patch constant function).
//!
//! Components are numbered as PSV0 numbers them: `row * 4 + column` in packed (register)
//! coordinates. Dependencies follow data flow through SSA values and phis (a fixpoint over each
//! function), not control flow.

use super::info::{ModuleInfo, SigElement};
use crate::ir::{Const, InstKind, Module, Value};
use crate::ops::Stage;

/// Per signature (input, output, patch constant): per element id, the components used (relative
/// to the element's first column) and those indexed dynamically.
#[derive(Clone, Debug, Default)]
pub struct Usage {
    pub used: [Vec<u8>; 3],
    pub dynamic: [Vec<u8>; 3],
    /// For each output component (`row * 4 + col`, per stream for geometry shaders), the input
    /// components it depends on.
    pub out_deps: Vec<(u32, u32, u128)>,
    /// For each patch constant output component of a hull shader, the input components it
    /// depends on.
    pub pc_out_deps: Vec<(u32, u128)>,
    /// For each output component of a domain shader, the patch constant inputs it depends on.
    pub pc_in_deps: Vec<(u32, u128)>,
}

#[derive(Copy, Clone)]
enum Access {
    Read(usize),
    Write(usize),
}

fn access(kind: Stage, name: &str) -> Option<Access> {
    let op = name.strip_prefix("dx.op.")?;
    let op = op.split('.').next()?;
    Some(match op {
        "loadInput" => Access::Read(0),
        "storeOutput" => Access::Write(1),
        "storePatchConstant" => Access::Write(2),
        // A mesh shader's vertex and primitive outputs: the same operands, then the index.
        "storeVertexOutput" => Access::Write(1),
        "storePrimitiveOutput" => Access::Write(2),
        "loadPatchConstant" if kind == Stage::Domain => Access::Read(2),
        _ => return None,
    })
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

fn element<'a>(info: &'a ModuleInfo, sig: usize, id: u32) -> Option<&'a SigElement> {
    info.sigs[sig].iter().find(|e| e.id == id)
}

/// Packed component number of (`element`, row index, column), when the element is packed.
fn component(e: &SigElement, row: u32, col: u32) -> Option<u32> {
    e.start_row.map(|r| (r + row) * 4 + u32::from(e.start_col) + col)
}

pub fn collect(m: &Module, info: &ModuleInfo) -> Usage {
    let mut u = Usage::default();
    for (i, list) in info.sigs.iter().enumerate() {
        let n = list.iter().map(|e| e.id as usize + 1).max().unwrap_or(0);
        u.used[i] = vec![0; n];
        u.dynamic[i] = vec![0; n];
    }
    let mut out_deps: std::collections::BTreeMap<(u32, u32), u128> = Default::default();
    let mut pc_out: std::collections::BTreeMap<u32, u128> = Default::default();
    let mut pc_in: std::collections::BTreeMap<u32, u128> = Default::default();
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        // deps[i] = (input components, patch constant input components) the value depends on.
        let mut deps: Vec<(u128, u128)> = vec![(0, 0); body.insts.len()];
        let of = |deps: &Vec<(u128, u128)>, v: &Value| match v {
            Value::Inst(i) => deps.get(i.0 as usize).copied().unwrap_or((0, 0)),
            _ => (0, 0),
        };
        // Only instructions placed in blocks are live: removed ones stay in the arena.
        let live: Vec<usize> = body.blocks.iter().flat_map(|b| b.insts.iter().map(|i| i.0 as usize)).collect();
        loop {
            let mut changed = false;
            for &idx in &live {
                let inst = &body.insts[idx];
                let mut d = (0u128, 0u128);
                let mut add = |x: (u128, u128)| {
                    d.0 |= x.0;
                    d.1 |= x.1;
                };
                match &inst.kind {
                    InstKind::Call { callee, args } => {
                        let name = &m.functions[callee.0 as usize].name;
                        let acc = access(info.kind, name);
                        match acc {
                            Some(Access::Read(sig)) => {
                                let e = args.get(1).and_then(|v| const_u32(m, v)).and_then(|id| element(info, sig, id));
                                let row = args.get(2).and_then(|v| const_u32(m, v));
                                let col = args.get(3).and_then(|v| const_u32(m, v));
                                if let (Some(e), Some(col)) = (e, col) {
                                    let rows: Vec<u32> = match row {
                                        Some(r) => vec![r],
                                        None => (0..e.rows).collect(),
                                    };
                                    for r in rows {
                                        if let Some(c) = component(e, r, col) {
                                            if c < 128 {
                                                if sig == 0 {
                                                    add((1u128 << c, 0));
                                                } else {
                                                    add((0, 1u128 << c));
                                                }
                                            }
                                        }
                                    }
                                }
                                for a in args.iter().skip(2) {
                                    add(of(&deps, a));
                                }
                            }
                            _ => {
                                for a in args {
                                    add(of(&deps, a));
                                }
                            }
                        }
                    }
                    InstKind::Phi { incoming } => incoming.iter().for_each(|(v, _)| add(of(&deps, v))),
                    other => operands(other).iter().for_each(|v| add(of(&deps, v))),
                }
                if deps[idx] != d {
                    deps[idx] = d;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for &idx in &live {
            let InstKind::Call { callee, args } = &body.insts[idx].kind else { continue };
            let Some(acc) = access(info.kind, &m.functions[callee.0 as usize].name) else { continue };
            let (sig, write) = match acc {
                Access::Read(s) => (s, false),
                Access::Write(s) => (s, true),
            };
            let Some(id) = args.get(1).and_then(|v| const_u32(m, v)) else { continue };
            let Some(e) = element(info, sig, id) else { continue };
            let row = args.get(2).and_then(|v| const_u32(m, v));
            let Some(col) = args.get(3).and_then(|v| const_u32(m, v)) else { continue };
            if col < 4 {
                if let Some(x) = u.used[sig].get_mut(id as usize) {
                    *x |= 1 << col;
                }
                if row.is_none() {
                    if let Some(x) = u.dynamic[sig].get_mut(id as usize) {
                        *x |= 1 << col;
                    }
                }
            }
            if !write {
                continue;
            }
            let value = args.get(4).map(|v| of(&deps, v)).unwrap_or((0, 0));
            let rows: Vec<u32> = match row {
                Some(r) => vec![r],
                None => (0..e.rows).collect(),
            };
            for r in rows {
                let Some(c) = component(e, r, col) else { continue };
                if sig == 1 {
                    *out_deps.entry((e.stream, c)).or_default() |= value.0;
                    if info.kind == Stage::Domain {
                        *pc_in.entry(c).or_default() |= value.1;
                    }
                } else {
                    *pc_out.entry(c).or_default() |= value.0;
                }
            }
        }
    }
    u.out_deps = out_deps.into_iter().map(|((s, c), d)| (s, c, d)).collect();
    u.pc_out_deps = pc_out.into_iter().collect();
    u.pc_in_deps = pc_in.into_iter().collect();
    u
}

/// The value operands of an instruction other than calls and phis.
fn operands(k: &InstKind) -> Vec<Value> {
    match k {
        InstKind::Binary { lhs, rhs, .. } | InstKind::ICmp { lhs, rhs, .. } | InstKind::FCmp { lhs, rhs, .. } => vec![*lhs, *rhs],
        InstKind::Cast { value, .. } => vec![*value],
        InstKind::Select { cond, then_value, else_value } => vec![*cond, *then_value, *else_value],
        InstKind::Load { ptr, .. } => vec![*ptr],
        InstKind::Gep { base, indices, .. } => {
            let mut v = vec![*base];
            v.extend(indices.iter().copied());
            v
        }
        InstKind::ExtractValue { agg, .. } => vec![*agg],
        InstKind::InsertValue { agg, value, .. } => vec![*agg, *value],
        InstKind::ExtractElement { vector, index } => vec![*vector, *index],
        InstKind::InsertElement { vector, value, index } => vec![*vector, *value, *index],
        InstKind::AtomicRmw { ptr, value, .. } => vec![*ptr, *value],
        InstKind::CmpXchg { ptr, cmp, new } => vec![*ptr, *cmp, *new],
        _ => Vec::new(),
    }
}

/// Which resources of `info.resources` the code creates a handle for (`createHandle` by class
/// and range id, `createHandleFromBinding` by class, space and register). dxc removes the
/// others before it writes `PSV0`, so they are not checked against a root signature.
pub fn used_resources(m: &Module, info: &ModuleInfo) -> Vec<bool> {
    let mut used = vec![false; info.resources.len()];
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        for b in &body.blocks {
            for i in &b.insts {
                let InstKind::Call { callee, args } = &body.insts[i.0 as usize].kind else { continue };
                let name = &m.functions[callee.0 as usize].name;
                if name == "dx.op.createHandle" {
                    let class = args.get(1).and_then(|v| const_u32(m, v));
                    let id = args.get(2).and_then(|v| const_u32(m, v));
                    for (k, r) in info.resources.iter().enumerate() {
                        used[k] |= Some(u32::from(r.class)) == class && Some(r.id) == id;
                    }
                } else if name == "dx.op.createHandleFromBinding" {
                    let fields: Option<Vec<u32>> = match args.get(1) {
                        Some(Value::Const(c)) => match m.consts.get(*c) {
                            Const::Aggregate { elems, .. } => elems
                                .iter()
                                .map(|e| match m.consts.get(*e) {
                                    Const::Int { bits, .. } => Some(*bits as u32),
                                    _ => None,
                                })
                                .collect(),
                            _ => None,
                        },
                        _ => None,
                    };
                    for (k, r) in info.resources.iter().enumerate() {
                        used[k] |= match fields.as_deref() {
                            Some([lb, _, space, class]) => {
                                u32::from(r.class) == *class && r.space == *space && r.lower_bound <= *lb && *lb <= r.upper_bound()
                            }
                            // A binding that is not a constant: count every resource as used.
                            _ => true,
                        };
                    }
                }
            }
        }
    }
    used
}
