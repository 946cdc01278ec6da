//! Interpolants back on their stage inputs (spirv-opt's `interpolate-fixup`): GLSL.std.450's
//! `InterpolateAtCentroid`/`Sample`/`Offset` take a pointer into the `Input` storage class, but
//! the emitter, as dxc, passes a function-scope temporary holding the value
//! (`EvaluateAttributeAtSample(color, 0)` in a function that got `color` as a parameter). Once
//! inlining and mem2reg have run, the temporary's single store holds a value loaded from a stage
//! input (or a component or member of one); the interpolant becomes that input's pointer, an
//! access chain for a component or member (`OpCompositeExtract` indices become constant
//! indices). The temporary is then write-only, and dead-code elimination removes it.
//!
//! An interpolant whose value cannot be traced to an input stays as it is; [`off_input`] finds
//! such instructions, for the driver to refuse the module (dxc's legalization fails the same way).

use crate::hash::HashMap;
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};

/// GLSL.std.450's `InterpolateAtCentroid`, `InterpolateAtSample` and `InterpolateAtOffset`.
const INTERPOLATE: std::ops::RangeInclusive<u32> = 76..=78;

/// The id of the `GLSL.std.450` import.
fn glsl_set(m: &Module) -> Option<Word> {
    m.ext_inst_imports
        .iter()
        .find(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "GLSL.std.450"))
        .and_then(|i| i.result_id)
}

/// Whether `i` is an `InterpolateAt*` of the set `set`; its interpolant is operand 2.
fn is_interpolate(i: &Instruction, set: Word) -> bool {
    i.class.opcode == Op::ExtInst
        && id_at(i, 0) == Some(set)
        && matches!(i.operands.get(1), Some(Operand::LiteralExtInstInteger(n)) if INTERPOLATE.contains(n))
}

/// Pointer types: id -> (storage class, pointee).
fn pointer_types(m: &Module) -> HashMap<Word, (StorageClass, Word)> {
    m.types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypePointer)
        .filter_map(|i| match (i.result_id, i.operands.first(), id_at(i, 1)) {
            (Some(id), Some(Operand::StorageClass(sc)), Some(to)) => Some((id, (*sc, to))),
            _ => None,
        })
        .collect()
}

/// The types of every result id.
fn value_types(m: &Module) -> HashMap<Word, Word> {
    m.all_inst_iter().filter_map(|i| Some((i.result_id?, i.result_type?))).collect()
}

/// Whether `ptr` points into the `Input` storage class.
fn is_input(ptr: Word, types: &HashMap<Word, Word>, pointers: &HashMap<Word, (StorageClass, Word)>) -> bool {
    types.get(&ptr).and_then(|t| pointers.get(t)).is_some_and(|(sc, _)| *sc == StorageClass::Input)
}

/// The `InterpolateAt*` instructions whose interpolant is not an `Input` pointer, as their
/// result ids: a module with any needs [`run`], and one that still has some after it is invalid.
pub fn off_input(m: &Module) -> Vec<Word> {
    let Some(set) = glsl_set(m) else { return Vec::new() };
    let calls: Vec<&Instruction> = m
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.instructions)
        .filter(|i| is_interpolate(i, set))
        .collect();
    if calls.is_empty() {
        return Vec::new();
    }
    let (types, pointers) = (value_types(m), pointer_types(m));
    calls
        .into_iter()
        .filter(|i| !id_at(i, 2).is_some_and(|p| is_input(p, &types, &pointers)))
        .filter_map(|i| i.result_id)
        .collect()
}

/// What one function defines, for tracing a value back to the pointer it was loaded from.
struct Defs<'a> {
    insts: HashMap<Word, &'a Instruction>,
    /// The values stored to each pointer (all stores).
    stores: HashMap<Word, Vec<Word>>,
    /// Integer constants (the module's), by id.
    consts: &'a HashMap<Word, u32>,
    /// Struct and array types (the module's).
    aggregates: &'a crate::hash::HashSet<Word>,
}

impl Defs<'_> {
    /// The only value ever stored through `var`, a function-scope variable without initializer.
    fn single_store(&self, var: Word) -> Option<Word> {
        let def = self.insts.get(&var)?;
        if def.class.opcode != Op::Variable || def.operands.len() > 1 {
            return None;
        }
        match self.stores.get(&var).map(Vec::as_slice) {
            Some([v]) => Some(*v),
            _ => None,
        }
    }

    /// The `Input` pointer that `value` (with `path` of composite indices still to apply) was
    /// loaded from, and the indices left to apply to it.
    fn trace(&self, value: Word, path: Vec<u32>, input: &dyn Fn(Word) -> bool, depth: u32) -> Option<(Word, Vec<u32>)> {
        if depth > 64 {
            return None;
        }
        let def = self.insts.get(&value)?;
        match def.class.opcode {
            Op::Load => self.pointer(id_at(def, 0)?, path, input, depth + 1),
            Op::CompositeExtract => {
                let mut inner: Vec<u32> = def.operands[1..]
                    .iter()
                    .map(|o| match o {
                        Operand::LiteralBit32(n) => Some(*n),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                inner.extend(path);
                self.trace(id_at(def, 0)?, inner, input, depth + 1)
            }
            // A struct or array built member by member (the entry point's parameter): the
            // member the path selects.
            Op::CompositeConstruct if !path.is_empty() && self.aggregates.contains(&def.result_type?) => {
                let part = id_at(def, *path.first()? as usize)?;
                self.trace(part, path[1..].to_vec(), input, depth + 1)
            }
            Op::CopyObject => self.trace(id_at(def, 0)?, path, input, depth + 1),
            _ => None,
        }
    }

    /// [`Defs::trace`] for a value loaded through `ptr`: an `Input` pointer itself, a constant
    /// access chain, or a function-scope variable stored once.
    fn pointer(&self, ptr: Word, path: Vec<u32>, input: &dyn Fn(Word) -> bool, depth: u32) -> Option<(Word, Vec<u32>)> {
        if input(ptr) {
            return Some((ptr, path));
        }
        if depth > 64 {
            return None;
        }
        let def = self.insts.get(&ptr)?;
        match def.class.opcode {
            Op::AccessChain | Op::InBoundsAccessChain => {
                let mut inner: Vec<u32> =
                    def.operands[1..].iter().map(|o| o.id_ref_any().and_then(|c| self.consts.get(&c).copied())).collect::<Option<_>>()?;
                inner.extend(path);
                self.pointer(id_at(def, 0)?, inner, input, depth + 1)
            }
            Op::Variable => self.trace(self.single_store(ptr)?, path, input, depth + 1),
            _ => None,
        }
    }
}

/// Runs over the module; returns whether an interpolant changed.
pub fn run(m: &mut Module) -> bool {
    if off_input(m).is_empty() {
        return false;
    }
    let set = glsl_set(m).expect("off_input found a GLSL.std.450 instruction");
    let types = value_types(m);
    let pointers = pointer_types(m);
    let input = |p: Word| is_input(p, &types, &pointers);
    let mut ids = IdAlloc::new(m);
    let mut new_globals: Vec<Instruction> = Vec::new();
    // Existing Input pointer types by pointee, and 32-bit integer constants by value.
    let mut input_ptr: HashMap<Word, Word> =
        pointers.iter().filter(|(_, (sc, _))| *sc == StorageClass::Input).map(|(id, (_, to))| (*to, *id)).collect();
    let uint = m
        .types_global_values
        .iter()
        .find(|i| i.class.opcode == Op::TypeInt && i.operands == [Operand::LiteralBit32(32), Operand::LiteralBit32(0)])
        .and_then(|i| i.result_id);
    let mut uint_consts: HashMap<u32, Word> = HashMap::default();
    if let Some(u) = uint {
        for i in &m.types_global_values {
            if let (Op::Constant, Some(t), Some(r), Some(Operand::LiteralBit32(v))) =
                (i.class.opcode, i.result_type, i.result_id, i.operands.first())
            {
                if t == u {
                    uint_consts.entry(*v).or_insert(r);
                }
            }
        }
    }
    let mut uint = uint;
    // Every 32-bit integer constant (access chain indices, signed or not) and the aggregates.
    let consts: HashMap<Word, u32> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Constant)
        .filter_map(|i| match (i.result_id, i.operands.as_slice()) {
            (Some(r), [Operand::LiteralBit32(v)]) => Some((r, *v)),
            _ => None,
        })
        .collect();
    let aggregates: crate::hash::HashSet<Word> = m
        .types_global_values
        .iter()
        .filter(|i| matches!(i.class.opcode, Op::TypeStruct | Op::TypeArray))
        .filter_map(|i| i.result_id)
        .collect();
    let mut changed = false;
    for fi in 0..m.functions.len() {
        // Plan the replacements with the function borrowed, then apply them.
        let mut plans: Vec<(Word, Word, Vec<u32>)> = Vec::new();
        {
            let f = &m.functions[fi];
            let mut defs = Defs { insts: HashMap::default(), stores: HashMap::default(), consts: &consts, aggregates: &aggregates };
            for i in f.blocks.iter().flat_map(|b| &b.instructions) {
                if let Some(r) = i.result_id {
                    defs.insts.insert(r, i);
                }
                if i.class.opcode == Op::Store {
                    if let (Some(p), Some(v)) = (id_at(i, 0), id_at(i, 1)) {
                        defs.stores.entry(p).or_default().push(v);
                    }
                }
            }
            for i in f.blocks.iter().flat_map(|b| &b.instructions).filter(|i| is_interpolate(i, set)) {
                let Some(p) = id_at(i, 2) else { continue };
                if input(p) {
                    continue;
                }
                let traced = defs.single_store(p).and_then(|v| defs.trace(v, Vec::new(), &input, 0));
                if let (Some((ptr, path)), Some(r)) = (traced, i.result_id) {
                    plans.push((r, ptr, path));
                }
            }
        }
        for (call, ptr, path) in plans {
            let mut operand = ptr;
            let mut chain = None;
            if !path.is_empty() {
                // The component's type: the interpolant's (the call's result type for a
                // scalar or vector interpolant, which is what the emitter passes).
                let f = &m.functions[fi];
                let Some(rty) = f.blocks.iter().flat_map(|b| &b.instructions).find(|i| i.result_id == Some(call)).and_then(|i| i.result_type)
                else {
                    continue;
                };
                let pty = *input_ptr.entry(rty).or_insert_with(|| {
                    let id = ids.fresh();
                    new_globals.push(Instruction::new(
                        Op::TypePointer,
                        None,
                        Some(id),
                        vec![Operand::StorageClass(StorageClass::Input), Operand::IdRef(rty)],
                    ));
                    id
                });
                let u = *uint.get_or_insert_with(|| {
                    let id = ids.fresh();
                    new_globals.push(Instruction::new(
                        Op::TypeInt,
                        None,
                        Some(id),
                        vec![Operand::LiteralBit32(32), Operand::LiteralBit32(0)],
                    ));
                    id
                });
                let mut operands = vec![Operand::IdRef(ptr)];
                for k in path {
                    let c = *uint_consts.entry(k).or_insert_with(|| {
                        let id = ids.fresh();
                        new_globals.push(Instruction::new(Op::Constant, Some(u), Some(id), vec![Operand::LiteralBit32(k)]));
                        id
                    });
                    operands.push(Operand::IdRef(c));
                }
                let id = ids.fresh();
                chain = Some(Instruction::new(Op::AccessChain, Some(pty), Some(id), operands));
                operand = id;
            }
            for b in &mut m.functions[fi].blocks {
                if let Some(at) = b.instructions.iter().position(|i| i.result_id == Some(call)) {
                    b.instructions[at].operands[2] = Operand::IdRef(operand);
                    if let Some(c) = chain.take() {
                        b.instructions.insert(at, c);
                    }
                    changed = true;
                    break;
                }
            }
        }
    }
    m.types_global_values.extend(new_globals);
    ids.finish(m);
    changed
}
