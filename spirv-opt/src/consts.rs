//! The module's types and constants as values, and new constants made unique: what constant
//! folding reads and writes.

use crate::ids::IdAlloc;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// A type as folding sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
    Vector { component: Word, count: u32 },
    Other,
}

/// A constant's value: scalars as bits (booleans 0/1), composites by constituent ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Scalar(u64),
    Composite(Vec<Word>),
}

/// Types and constants of a module, and the constants folding adds (appended to the module by
/// [`Consts::finish`]).
pub struct Consts {
    pub types: HashMap<Word, Ty>,
    pub values: HashMap<Word, (Word, Value)>,
    /// Each value's constant, made from `values` at the first [`Consts::get`] (most runs of a
    /// pass that reads constants make none).
    unique: Option<HashMap<(Word, Value), Word>>,
    new: Vec<Instruction>,
    pub ids: IdAlloc,
}

impl Consts {
    pub fn new(m: &Module) -> Consts {
        // Sized once: growing them was most of their cost (this runs four times a compile).
        let n = m.types_global_values.len();
        let mut types: HashMap<Word, Ty> = HashMap::with_capacity_and_hasher(n / 4, Default::default());
        let mut values: HashMap<Word, (Word, Value)> = HashMap::with_capacity_and_hasher(n / 2, Default::default());
        for i in &m.types_global_values {
            let Some(id) = i.result_id else { continue };
            let lit = |k: usize| match i.operands.get(k) {
                Some(Operand::LiteralBit32(v)) => Some(u64::from(*v)),
                Some(Operand::LiteralBit64(v)) => Some(*v),
                _ => None,
            };
            match i.class.opcode {
                Op::TypeBool => {
                    types.insert(id, Ty::Bool);
                }
                Op::TypeInt => {
                    let width = lit(0).unwrap_or(0) as u32;
                    types.insert(id, Ty::Int { width, signed: lit(1) == Some(1) });
                }
                Op::TypeFloat => {
                    types.insert(id, Ty::Float { width: lit(0).unwrap_or(0) as u32 });
                }
                Op::TypeVector => {
                    let component = crate::ids::id_at(i, 0).unwrap_or(0);
                    types.insert(id, Ty::Vector { component, count: lit(1).unwrap_or(0) as u32 });
                }
                Op::ConstantTrue => {
                    values.insert(id, (i.result_type.unwrap(), Value::Scalar(1)));
                }
                Op::ConstantFalse => {
                    values.insert(id, (i.result_type.unwrap(), Value::Scalar(0)));
                }
                Op::Constant => {
                    if let Some(v) = lit(0) {
                        values.insert(id, (i.result_type.unwrap(), Value::Scalar(v)));
                    }
                }
                Op::ConstantComposite => {
                    let parts = i.operands.iter().filter_map(Operand::id_ref_any).collect();
                    values.insert(id, (i.result_type.unwrap(), Value::Composite(parts)));
                }
                _ => {}
            }
        }
        Consts { types, values, unique: None, new: Vec::new(), ids: IdAlloc::new(m) }
    }

    pub fn ty(&self, id: Word) -> Ty {
        self.types.get(&id).copied().unwrap_or(Ty::Other)
    }

    /// The scalar value of constant `id`.
    pub fn scalar(&self, id: Word) -> Option<u64> {
        match self.values.get(&id) {
            Some((_, Value::Scalar(v))) => Some(*v),
            _ => None,
        }
    }

    /// The constant of `ty` with `value`, made if the module has none.
    pub fn get(&mut self, ty: Word, value: Value) -> Word {
        let values = &self.values;
        let unique = self.unique.get_or_insert_with(|| {
            // Of two equal constants (the emitter makes none), the first one, whatever the
            // maps' order.
            let mut unique: HashMap<(Word, Value), Word> = HashMap::with_capacity_and_hasher(values.len(), Default::default());
            for (&id, (t, v)) in values {
                let e = unique.entry((*t, v.clone())).or_insert(id);
                *e = (*e).min(id);
            }
            unique
        });
        if let Some(&id) = unique.get(&(ty, value.clone())) {
            return id;
        }
        let id = self.ids.fresh();
        let inst = match (&value, self.ty(ty)) {
            (Value::Scalar(v), Ty::Bool) => {
                Instruction::new(if *v != 0 { Op::ConstantTrue } else { Op::ConstantFalse }, Some(ty), Some(id), vec![])
            }
            (Value::Scalar(v), Ty::Int { width: 64, .. } | Ty::Float { width: 64 }) => {
                Instruction::new(Op::Constant, Some(ty), Some(id), vec![Operand::LiteralBit64(*v)])
            }
            (Value::Scalar(v), _) => Instruction::new(Op::Constant, Some(ty), Some(id), vec![Operand::LiteralBit32(*v as u32)]),
            (Value::Composite(parts), _) => {
                Instruction::new(Op::ConstantComposite, Some(ty), Some(id), parts.iter().map(|&p| Operand::IdRef(p)).collect())
            }
        };
        self.new.push(inst);
        self.values.insert(id, (ty, value.clone()));
        if let Some(unique) = self.unique.as_mut() {
            unique.insert((ty, value), id);
        }
        id
    }

    /// Appends the new constants to the module and records the id bound.
    pub fn finish(self, m: &mut Module) {
        m.types_global_values.extend(self.new);
        self.ids.finish(m);
    }
}
