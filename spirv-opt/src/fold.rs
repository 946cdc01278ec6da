//! Constant folding and propagation, local copy propagation and composite insert/extract
//! elimination (SPIRV-Tools' fold-spec-const-op-composite/ccp, copy-propagate-arrays' local part
//! and simplify-instructions), run over every function until nothing changes:
//!
//! - arithmetic, bitwise, comparison, logical and conversion instructions on constant scalars or
//!   vectors (32- and 64-bit integers and floats, booleans) become constants; an integer
//!   division by zero, an out-of-range float-to-integer conversion and 16-bit floats are left;
//! - `OpSelect` with a constant scalar condition becomes the chosen operand; `x < 0u` is false and
//!   `x >= 0u` true, whatever `x` is;
//! - `OpCopyObject` becomes its operand, an `OpPhi` with one incoming value that value;
//! - `OpCompositeExtract` of a constant, of an `OpCompositeConstruct` with one constituent per
//!   element, of an `OpCompositeInsert` (same index: the inserted object; another index: the
//!   composite it inserted into) or of an `OpVectorShuffle` reads the source directly;
//! - `OpCompositeConstruct` of constants becomes a constant, one of the extracts of every element
//!   of a composite of its type, in order, that composite.
//!
//! Specialization constants are not constants here.

use crate::consts::{Consts, Ty, Value};
use crate::ids::{id_at, rename_used, IdMap};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// What an instruction simplifies to.
enum Simple {
    /// Its result is this id.
    Id(Word),
    /// It becomes this instruction (same result).
    Inst(Instruction),
}

/// Folds every function; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let mut cs = Consts::new(m);
    let bound = crate::ids::bound(m);
    let mut changed = false;
    // Results replaced by other ids, chased, and the result types of the instructions seen:
    // tables by id, shared by the functions (whose result ids are their own).
    let mut map = IdMap::with_bound(bound);
    let mut result_types = IdMap::with_bound(bound);
    for f in &mut m.functions {
        // Definitions seen so far in this function (for extract-of-insert and the like).
        let mut defs: HashMap<Word, Instruction> = HashMap::default();
        loop {
            let mut progress = false;
            for b in &mut f.blocks {
                // Rebuilt rather than edited in place: removing from the middle of a block one
                // instruction at a time was quadratic in the block's length.
                let old = std::mem::take(&mut b.instructions);
                let mut kept = Vec::with_capacity(old.len());
                'insts: for mut inst in old {
                    loop {
                        if !map.is_empty() {
                            rename_used(&mut inst, &|id| map.chase(id));
                        }
                        match simplify(&inst, &defs, &result_types, &mut cs) {
                            Some(Simple::Id(to)) => {
                                map.insert(inst.result_id.unwrap(), to);
                                progress = true;
                                continue 'insts;
                            }
                            Some(Simple::Inst(i)) if i != inst => {
                                inst = i;
                                progress = true;
                            }
                            _ => break,
                        }
                    }
                    if let (Some(r), Some(t)) = (inst.result_id, inst.result_type) {
                        result_types.insert(r, t);
                        if matches!(inst.class.opcode, Op::CompositeConstruct | Op::CompositeInsert | Op::VectorShuffle | Op::CompositeExtract) {
                            defs.insert(r, inst.clone());
                        }
                    }
                    kept.push(inst);
                }
                b.instructions = kept;
            }
            // Phis read ids defined later in the function: one more sweep renames them.
            if !map.is_empty() {
                for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
                    rename_used(i, &|id| map.chase(id));
                }
            }
            changed |= progress;
            if !progress {
                break;
            }
        }
    }
    cs.finish(m);
    changed
}

/// The composite that `parts` take apart in order, when they are `OpCompositeExtract`s of one
/// composite of type `ty` at indices 0, 1, 2, … covering every element of it.
fn reconstructed(parts: &[Word], ty: Word, defs: &HashMap<Word, Instruction>, types: &IdMap) -> Option<Word> {
    let mut src = None;
    for (k, p) in parts.iter().enumerate() {
        let e = defs.get(p).filter(|e| e.class.opcode == Op::CompositeExtract && e.operands.len() == 2)?;
        let from = id_at(e, 0)?;
        if *src.get_or_insert(from) != from || e.operands[1] != Operand::LiteralBit32(k as u32) {
            return None;
        }
    }
    let src = src?;
    // Same type, so the parts are all of its elements.
    (types.get(src) == Some(ty)).then_some(src)
}

fn simplify(i: &Instruction, defs: &HashMap<Word, Instruction>, types: &IdMap, cs: &mut Consts) -> Option<Simple> {
    let ty = i.result_type?;
    let op = |k: usize| id_at(i, k);
    match i.class.opcode {
        Op::CopyObject => op(0).map(Simple::Id),
        Op::Phi => {
            // One incoming value (the phi itself aside) is that value.
            let me = i.result_id?;
            let mut vals = i.operands.iter().step_by(2).filter_map(Operand::id_ref_any).filter(|&v| v != me);
            let first = vals.next()?;
            vals.all(|v| v == first).then_some(Simple::Id(first))
        }
        Op::Select => {
            let c = cs.scalar(op(0)?)?;
            if !matches!(cs.ty(cs.values.get(&op(0)?)?.0), Ty::Bool) {
                return None;
            }
            Some(Simple::Id(if c != 0 { op(1)? } else { op(2)? }))
        }
        // Unsigned comparisons with zero that do not depend on the other operand.
        Op::ULessThan | Op::UGreaterThanEqual | Op::UGreaterThan | Op::ULessThanEqual
            if matches!(cs.ty(ty), Ty::Bool) =>
        {
            let zero = |k: usize| op(k).and_then(|v| cs.scalar(v)) == Some(0);
            let known = match i.class.opcode {
                Op::ULessThan if zero(1) => false,
                Op::UGreaterThanEqual if zero(1) => true,
                Op::UGreaterThan if zero(0) => false,
                Op::ULessThanEqual if zero(0) => true,
                _ => return fold_arith(i, ty, cs).map(Simple::Id),
            };
            Some(Simple::Id(cs.get(ty, Value::Scalar(known as u64))))
        }
        Op::CompositeExtract => extract(i, defs, types, cs),
        Op::CompositeConstruct => {
            let parts: Vec<Word> = i.operands.iter().filter_map(Operand::id_ref_any).collect();
            let all_const = parts.iter().all(|p| cs.values.contains_key(p));
            let per_element = match cs.ty(ty) {
                Ty::Vector { count, .. } => parts.len() == count as usize,
                _ => true,
            };
            if all_const && per_element && !parts.is_empty() {
                return Some(Simple::Id(cs.get(ty, Value::Composite(parts))));
            }
            reconstructed(&parts, ty, defs, types).map(Simple::Id)
        }
        _ => fold_arith(i, ty, cs).map(Simple::Id),
    }
}

/// The element type and count of a vector type, or the scalar type and 1.
fn lanes(cs: &Consts, ty: Word) -> (Word, usize, bool) {
    match cs.ty(ty) {
        Ty::Vector { component, count } => (component, count as usize, true),
        _ => (ty, 1, false),
    }
}

fn fold_arith(i: &Instruction, ty: Word, cs: &mut Consts) -> Option<Word> {
    // One or two operands, all constants: checked before anything is allocated (most
    // instructions this sees read a non-constant).
    if i.operands.is_empty() || i.operands.len() > 2 {
        return None;
    }
    let mut args = [0; 2];
    for (k, o) in i.operands.iter().enumerate() {
        let id = o.id_ref_any()?;
        if !cs.values.contains_key(&id) {
            return None;
        }
        args[k] = id;
    }
    let args = &args[..i.operands.len()];
    // Per-lane scalar values of each argument, and the argument's scalar type.
    let mut lanes_of = Vec::new();
    for &a in args {
        let (aty, v) = cs.values.get(&a)?.clone();
        let (elem, n, _) = lanes(cs, aty);
        let vals = match v {
            Value::Scalar(s) => vec![s],
            Value::Composite(parts) => parts.iter().map(|p| cs.scalar(*p)).collect::<Option<Vec<_>>>()?,
        };
        if vals.len() != n {
            return None;
        }
        lanes_of.push((cs.ty(elem), vals));
    }
    let (relem, rn, rvec) = lanes(cs, ty);
    let rty = cs.ty(relem);
    if lanes_of.iter().any(|(_, v)| v.len() != rn) {
        return None;
    }
    let mut out = Vec::with_capacity(rn);
    for lane in 0..rn {
        let a = (lanes_of[0].0, lanes_of[0].1[lane]);
        let b = lanes_of.get(1).map(|(t, v)| (*t, v[lane]));
        out.push(crate::scalar::fold(i.class.opcode, rty, a, b)?);
    }
    if rvec {
        let parts = out.into_iter().map(|v| cs.get(relem, Value::Scalar(v))).collect();
        Some(cs.get(ty, Value::Composite(parts)))
    } else {
        Some(cs.get(ty, Value::Scalar(out[0])))
    }
}

fn literal(o: &Operand) -> Option<u32> {
    match o {
        Operand::LiteralBit32(v) => Some(*v),
        _ => None,
    }
}

fn extract(i: &Instruction, defs: &HashMap<Word, Instruction>, types: &IdMap, cs: &mut Consts) -> Option<Simple> {
    let src = id_at(i, 0)?;
    let path: Vec<u32> = i.operands[1..].iter().map(literal).collect::<Option<Vec<_>>>()?;
    let (&first, rest) = path.split_first()?;
    let with = |from: Word, path: &[u32]| -> Simple {
        if path.is_empty() {
            return Simple::Id(from);
        }
        let mut ops = vec![Operand::IdRef(from)];
        ops.extend(path.iter().map(|&k| Operand::LiteralBit32(k)));
        Simple::Inst(Instruction::new(Op::CompositeExtract, i.result_type, i.result_id, ops))
    };
    if let Some((_, Value::Composite(parts))) = cs.values.get(&src) {
        return parts.get(first as usize).map(|&p| with(p, rest));
    }
    let def = defs.get(&src)?;
    match def.class.opcode {
        Op::CompositeConstruct => {
            let parts: Vec<Word> = def.operands.iter().filter_map(Operand::id_ref_any).collect();
            if let Ty::Vector { count, .. } = cs.ty(def.result_type?) {
                if parts.len() != count as usize {
                    return None;
                }
            }
            parts.get(first as usize).map(|&p| with(p, rest))
        }
        Op::CompositeInsert => {
            let object = id_at(def, 0)?;
            let into = id_at(def, 1)?;
            let ipath: Vec<u32> = def.operands[2..].iter().map(literal).collect::<Option<Vec<_>>>()?;
            if ipath == path {
                Some(Simple::Id(object))
            } else if ipath.first() != Some(&first) {
                Some(with(into, &path))
            } else {
                None
            }
        }
        Op::VectorShuffle => {
            let a = id_at(def, 0)?;
            let b = id_at(def, 1)?;
            let comps: Vec<u32> = def.operands[2..].iter().map(literal).collect::<Option<Vec<_>>>()?;
            let c = *comps.get(first as usize)?;
            if c == 0xFFFF_FFFF {
                return None;
            }
            let Ty::Vector { count: na, .. } = cs.ty(types.get(a).or_else(|| cs.values.get(&a).map(|v| v.0))?)
            else {
                return None;
            };
            let (from, k) = if c < na { (a, c) } else { (b, c - na) };
            let mut p = vec![k];
            p.extend_from_slice(rest);
            Some(with(from, &p))
        }
        _ => None,
    }
}
