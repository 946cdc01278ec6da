//! `-fspv-flatten-resource-arrays` at `-O1`..`-O3`: an array of descriptors becomes one variable
//! per element (spirv-opt's `--descriptor-array-scalar-replacement`, which dxc runs for the flag).
//!
//! A candidate is a `UniformConstant` variable with a `Binding` whose type is an array, of
//! constant length, of something that is neither an array nor a struct (images, samplers,
//! sampled images, acceleration structures), and whose every use in a function is an access
//! chain with one constant index. Element `i` becomes a variable named `name[i]`, with the
//! array's decorations, its `Binding` plus `i` (the emitter reserved one binding per element
//! under the flag); the access chains are replaced by the new variables, and the entry points
//! that list the array list its elements instead. The array goes, with its name and decorations.
//!
//! Runs after unrolling and folding, so that the indices `[unroll]` loops made constant count
//! (dxc's order). An array indexed by a value that stays dynamic keeps its form: spirv-opt's
//! switch over the elements (`--replace-desc-array-access-using-var-index`) is not implemented.

use crate::hash::{HashMap, HashSet};
use crate::ids::{rename_used, IdAlloc};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Decoration, Op, StorageClass, Word};

struct Candidate {
    var: Word,
    elem: Word,
    len: u32,
    /// The chains into it, with the element each takes.
    chains: Vec<(Word, u32)>,
}

/// Runs over the module; returns whether an array was split.
pub fn run(m: &mut Module) -> bool {
    let defs: HashMap<Word, &Instruction> =
        m.types_global_values.iter().filter_map(|i| i.result_id.map(|r| (r, i))).collect();
    let int_value = |id: Word| -> Option<u32> {
        let c = defs.get(&id)?;
        if c.class.opcode != Op::Constant {
            return None;
        }
        let t = defs.get(&c.result_type?)?;
        (t.class.opcode == Op::TypeInt).then_some(())?;
        match c.operands.first()? {
            Operand::LiteralBit32(v) => Some(*v),
            _ => None,
        }
    };
    let bound: HashSet<Word> = m
        .annotations
        .iter()
        .filter(|d| d.class.opcode == Op::Decorate && d.operands.get(1) == Some(&Operand::Decoration(Decoration::Binding)))
        .filter_map(|d| d.operands.first().and_then(Operand::id_ref_any))
        .collect();
    let mut cands: Vec<Candidate> = Vec::new();
    for v in &m.types_global_values {
        if v.class.opcode != Op::Variable || v.operands.first() != Some(&Operand::StorageClass(StorageClass::UniformConstant)) {
            continue;
        }
        let (Some(var), Some(ptr)) = (v.result_id, v.result_type) else { continue };
        if !bound.contains(&var) {
            continue;
        }
        let Some(arr) = defs.get(&ptr).and_then(|p| p.operands.get(1)).and_then(Operand::id_ref_any).and_then(|a| defs.get(&a)) else {
            continue;
        };
        if arr.class.opcode != Op::TypeArray {
            continue;
        }
        let (Some(elem), Some(len)) = (
            arr.operands.first().and_then(Operand::id_ref_any),
            arr.operands.get(1).and_then(Operand::id_ref_any).and_then(int_value),
        ) else {
            continue;
        };
        if defs.get(&elem).is_none_or(|e| matches!(e.class.opcode, Op::TypeArray | Op::TypeRuntimeArray | Op::TypeStruct)) {
            continue;
        }
        cands.push(Candidate { var, elem, len, chains: Vec::new() });
    }
    if cands.is_empty() {
        return false;
    }
    // Every use: a constant-index chain in a function, or the array's names, decorations and
    // entry-point listings; anything else keeps the array whole.
    let index: HashMap<Word, usize> = cands.iter().enumerate().map(|(k, c)| (c.var, k)).collect();
    let mut blocked: HashSet<Word> = HashSet::default();
    let uses = |i: &Instruction, blocked: &mut HashSet<Word>, cands: &mut Vec<Candidate>| {
        let chain = matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain);
        for (k, o) in i.operands.iter().enumerate() {
            let Some(id) = o.id_ref_any() else { continue };
            let Some(&c) = index.get(&id) else { continue };
            let elem = (chain && k == 0 && i.operands.len() == 2)
                .then(|| i.operands[1].id_ref_any().and_then(int_value))
                .flatten()
                .filter(|&e| e < cands[c].len);
            match (elem, i.result_id) {
                (Some(e), Some(r)) => cands[c].chains.push((r, e)),
                _ => {
                    blocked.insert(id);
                }
            }
        }
    };
    for f in &m.functions {
        for i in f.def.iter().chain(f.parameters.iter()).chain(f.blocks.iter().flat_map(|b| b.label.iter().chain(b.instructions.iter()))) {
            uses(i, &mut blocked, &mut cands);
        }
    }
    for i in m.types_global_values.iter().chain(m.execution_modes.iter()) {
        uses(i, &mut blocked, &mut cands);
    }
    cands.retain(|c| !blocked.contains(&c.var));
    if cands.is_empty() {
        return false;
    }

    let mut ids = IdAlloc::new(m);
    let mut ptr_of: HashMap<Word, Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypePointer && i.operands.first() == Some(&Operand::StorageClass(StorageClass::UniformConstant)))
        .filter_map(|i| Some((i.operands.get(1)?.id_ref_any()?, i.result_id?)))
        .collect();
    let mut replace: HashMap<Word, Word> = HashMap::default();
    let mut dead_chains: HashSet<Word> = HashSet::default();
    for c in &cands {
        let elems: Vec<Word> = (0..c.len).map(|_| ids.fresh()).collect();
        for &(chain, e) in &c.chains {
            replace.insert(chain, elems[e as usize]);
            dead_chains.insert(chain);
        }
        // The element pointer type (if the module has none), then the variables, in the array's place.
        let at = m.types_global_values.iter().position(|i| i.result_id == Some(c.var)).unwrap_or(m.types_global_values.len());
        let mut new = Vec::new();
        let ptr = *ptr_of.entry(c.elem).or_insert_with(|| {
            let p = ids.fresh();
            new.push(Instruction::new(
                Op::TypePointer,
                None,
                Some(p),
                vec![Operand::StorageClass(StorageClass::UniformConstant), Operand::IdRef(c.elem)],
            ));
            p
        });
        for &e in &elems {
            new.push(Instruction::new(Op::Variable, Some(ptr), Some(e), vec![Operand::StorageClass(StorageClass::UniformConstant)]));
        }
        m.types_global_values.splice(at..at + 1, new);
        // Names: `name[i]` beside the array's.
        let names: Vec<Instruction> = m
            .debug_names
            .iter()
            .filter(|n| n.class.opcode == Op::Name && n.operands.first() == Some(&Operand::IdRef(c.var)))
            .flat_map(|n| {
                let base = match n.operands.get(1) {
                    Some(Operand::LiteralString(s)) => s.clone(),
                    _ => String::new(),
                };
                elems.iter().enumerate().map(move |(k, &e)| {
                    Instruction::new(Op::Name, None, None, vec![Operand::IdRef(e), Operand::LiteralString(format!("{base}[{k}]"))])
                })
            })
            .collect();
        m.debug_names.retain(|n| n.operands.first() != Some(&Operand::IdRef(c.var)));
        m.debug_names.extend(names);
        // Decorations: each element gets the array's, in order, at the end of the annotations.
        let decos: Vec<Instruction> =
            m.annotations.iter().filter(|d| d.operands.first() == Some(&Operand::IdRef(c.var))).cloned().collect();
        m.annotations.retain(|d| d.operands.first() != Some(&Operand::IdRef(c.var)));
        for (k, &e) in elems.iter().enumerate() {
            for d in &decos {
                let mut d = d.clone();
                d.operands[0] = Operand::IdRef(e);
                if d.class.opcode == Op::Decorate && d.operands.get(1) == Some(&Operand::Decoration(Decoration::Binding)) {
                    if let Some(Operand::LiteralBit32(b)) = d.operands.get_mut(2) {
                        *b += k as u32;
                    }
                }
                m.annotations.push(d);
            }
        }
        // Entry points list the elements instead of the array.
        for ep in &mut m.entry_points {
            if let Some(p) = ep.operands.iter().position(|o| *o == Operand::IdRef(c.var)) {
                ep.operands.splice(p..p + 1, elems.iter().map(|&e| Operand::IdRef(e)));
            }
        }
    }
    // A chain's own decorations (`NonUniform` on a constant index) go with it.
    m.annotations.retain(|d| !d.operands.first().and_then(Operand::id_ref_any).is_some_and(|t| dead_chains.contains(&t)));
    for f in &mut m.functions {
        for b in &mut f.blocks {
            b.instructions.retain(|i| !i.result_id.is_some_and(|r| dead_chains.contains(&r)));
            for i in &mut b.instructions {
                rename_used(i, &|id| replace.get(&id).copied());
            }
        }
    }
    ids.finish(m);
    true
}
