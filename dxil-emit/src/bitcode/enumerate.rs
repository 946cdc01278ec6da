//! Value enumeration: the numbering of types, values, metadata and attribute sets that the
//! bitcode records refer to, computed before any record is written (LLVM 3.7's
//! `ValueEnumerator`, reduced to what the IR holds).
//!
//! Numbering, as LLVM 3.7 writes it:
//! - types: a post-order walk of every type of the module (a type's contained types come first;
//!   a named struct may be referred to before its record, which breaks cycles);
//! - module values: globals, then functions, then the constants that global initializers and
//!   metadata use (an aggregate after its elements);
//! - in a function: after the module values, the arguments, then the constants its instructions
//!   use that are not module values, then the instructions that produce a value; blocks are
//!   numbered apart, in order;
//! - metadata: a post-order walk from the named metadata (strings and values when first met, a
//!   node after its operands);
//! - attribute sets: by first use, in function order; ids start at 1 (0 = none).
//!
//! Invariants: every id handed out refers to an entry of the corresponding list; the extra
//! types and constants the records need (the pointer types of globals and functions, the `i32 1`
//! size of an `alloca`) are interned into the enumerator's own copies of the module's tables,
//! so the module itself is never changed.

use crate::ir::{AttrSetId, Const, ConstId, ConstTable, FuncId, Function, InstKind, MdId, MdOperand, Module, Type, TypeId, TypeTable, Value};
use crate::ir::metadata::{Field, MdNode};
use std::collections::HashMap;

/// A metadata entry in numbering order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdEntry {
    String(String),
    /// A value as metadata: its type and module-level value id.
    Value(TypeId, u32),
    Node(MdId),
}

/// Module-level values in id order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleValue {
    Global(u32),
    Func(FuncId),
    Const(ConstId),
}

pub struct Enumerator<'m> {
    pub module: &'m Module,
    /// The module's types plus the ones the writer needs; indexed by [`TypeId`].
    pub types: TypeTable,
    /// The module's constants plus the ones the writer needs.
    pub consts: ConstTable,
    /// Types in bitcode order, and each [`TypeId`]'s bitcode index.
    pub type_order: Vec<TypeId>,
    type_index: Vec<u32>,
    pub values: Vec<ModuleValue>,
    const_ids: HashMap<ConstId, u32>,
    pub metadata: Vec<MdEntry>,
    md_ids: HashMap<MdId, u32>,
    md_strings: HashMap<String, u32>,
    md_values: HashMap<(TypeId, u32), u32>,
    /// Attribute sets in id order (id = index + 1).
    pub attr_sets: Vec<AttrSetId>,
}

/// The numbering inside one function body.
pub struct FunctionIds {
    pub first_arg: u32,
    /// Function-local constants, in id order from `first_const`.
    pub consts: Vec<ConstId>,
    pub first_const: u32,
    /// Id of each instruction that produces a value (indexed by `InstId`).
    pub inst_ids: Vec<Option<u32>>,
    local_consts: HashMap<ConstId, u32>,
    /// The id after the last instruction.
    pub end: u32,
}

impl<'m> Enumerator<'m> {
    pub fn new(module: &'m Module) -> Enumerator<'m> {
        let mut e = Enumerator {
            module,
            types: module.types.clone(),
            consts: module.consts.clone(),
            type_order: Vec::new(),
            type_index: Vec::new(),
            values: Vec::new(),
            const_ids: HashMap::new(),
            metadata: Vec::new(),
            md_ids: HashMap::new(),
            md_strings: HashMap::new(),
            md_values: HashMap::new(),
            attr_sets: Vec::new(),
        };
        e.intern_extras();
        e.enumerate_types();
        e.enumerate_module_values();
        e.enumerate_metadata();
        for f in &module.functions {
            if let Some(a) = f.attrs {
                if module.attr_sets.get(a.0 as usize).is_some_and(|s| !s.is_empty()) && !e.attr_sets.contains(&a) {
                    e.attr_sets.push(a);
                }
            }
        }
        e
    }

    /// Types and constants that records refer to but the module may not have created.
    fn intern_extras(&mut self) {
        for g in &self.module.globals {
            self.types.pointer(g.ty, g.addrspace);
        }
        for f in &self.module.functions {
            self.types.pointer(f.ty, 0);
            let has_alloca = f.body.as_ref().is_some_and(|b| b.insts.iter().any(|i| matches!(i.kind, InstKind::Alloca { .. })));
            if has_alloca {
                let i32 = self.types.i32();
                self.consts.intern(Const::Int { ty: i32, bits: 1 });
            }
        }
    }

    fn enumerate_types(&mut self) {
        const VISITING: u32 = u32::MAX - 1;
        const NONE: u32 = u32::MAX;
        let n = self.types.len();
        self.type_index = vec![NONE; n];
        // Iterative post-order walk; named structs are marked while their contents are walked.
        for root in 0..n {
            if self.type_index[root] != NONE {
                continue;
            }
            let mut stack: Vec<(TypeId, usize)> = vec![(TypeId(root as u32), 0)];
            if matches!(self.types.get(TypeId(root as u32)), Type::Named { .. }) {
                self.type_index[root] = VISITING;
            }
            while let Some(&mut (ty, ref mut next)) = stack.last_mut() {
                let subs = subtypes(self.types.get(ty));
                if let Some(&sub) = subs.get(*next) {
                    *next += 1;
                    if self.type_index[sub.0 as usize] == NONE {
                        if matches!(self.types.get(sub), Type::Named { .. }) {
                            self.type_index[sub.0 as usize] = VISITING;
                        }
                        stack.push((sub, 0));
                    }
                    continue;
                }
                stack.pop();
                let slot = &mut self.type_index[ty.0 as usize];
                if *slot == NONE || *slot == VISITING {
                    *slot = self.type_order.len() as u32;
                    self.type_order.push(ty);
                }
            }
        }
    }

    /// The bitcode index of a type.
    pub fn type_id(&self, ty: TypeId) -> u64 {
        u64::from(self.type_index.get(ty.0 as usize).copied().unwrap_or(0))
    }

    /// Bits needed for a type index (`Log2_32_Ceil(types + 1)`).
    pub fn type_bits(&self) -> u32 {
        log2_ceil(self.type_order.len() as u64 + 1).max(1)
    }

    fn enumerate_module_values(&mut self) {
        let m = self.module;
        for g in 0..m.globals.len() {
            self.values.push(ModuleValue::Global(g as u32));
        }
        for f in 0..m.functions.len() {
            self.values.push(ModuleValue::Func(FuncId(f as u32)));
        }
        for g in &m.globals {
            if let Some(init) = g.init {
                self.enumerate_module_const(init);
            }
        }
    }

    fn enumerate_module_const(&mut self, c: ConstId) {
        if self.const_ids.contains_key(&c) {
            return;
        }
        for e in const_operands(&self.types, &self.consts, c) {
            self.enumerate_module_const(e);
        }
        self.const_ids.insert(c, self.values.len() as u32);
        self.values.push(ModuleValue::Const(c));
    }

    /// Module-level id of a global, function or module constant.
    pub fn module_value_id(&self, v: Value) -> Option<u32> {
        let globals = self.module.globals.len() as u32;
        match v {
            Value::Global(g) => Some(g.0),
            Value::Func(f) => Some(globals + f.0),
            Value::Const(c) => self.const_ids.get(&c).copied(),
            Value::Arg(_) | Value::Inst(_) => None,
        }
    }

    pub fn module_value_count(&self) -> u32 {
        self.values.len() as u32
    }

    /// Index of the first module constant (after globals and functions).
    pub fn first_module_const(&self) -> usize {
        self.module.globals.len() + self.module.functions.len()
    }

    fn enumerate_metadata(&mut self) {
        let m = self.module;
        for nodes in m.named_md.values() {
            for &n in nodes {
                self.enumerate_md_node(n);
            }
        }
    }

    fn enumerate_md_node(&mut self, root: MdId) {
        let m = self.module;
        if self.md_ids.contains_key(&root) || root.0 as usize >= m.md_nodes.len() {
            return;
        }
        // Post-order: operands (strings and values as met), then the node.
        let mut stack: Vec<(MdId, usize)> = vec![(root, 0)];
        let mut on_stack = std::collections::HashSet::new();
        on_stack.insert(root);
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let ops = md_operands(&m.md_nodes[node.0 as usize]);
            if let Some(op) = ops.get(*next) {
                *next += 1;
                match op {
                    MdOperand::Null => {}
                    MdOperand::String(s) => {
                        if !self.md_strings.contains_key(s) {
                            self.md_strings.insert(s.clone(), self.metadata.len() as u32);
                            self.metadata.push(MdEntry::String(s.clone()));
                        }
                    }
                    MdOperand::Value(ty, v) => {
                        if let Value::Const(c) = v {
                            self.enumerate_module_const(*c);
                        }
                        if let Some(id) = self.module_value_id(*v) {
                            if !self.md_values.contains_key(&(*ty, id)) {
                                self.md_values.insert((*ty, id), self.metadata.len() as u32);
                                self.metadata.push(MdEntry::Value(*ty, id));
                            }
                        }
                    }
                    MdOperand::Node(c) => {
                        if !self.md_ids.contains_key(c) && (c.0 as usize) < m.md_nodes.len() && on_stack.insert(*c) {
                            stack.push((*c, 0));
                        }
                    }
                }
                continue;
            }
            stack.pop();
            self.md_ids.insert(node, self.metadata.len() as u32);
            self.metadata.push(MdEntry::Node(node));
        }
    }

    /// The 1-based metadata id of a specialized node's field (`0` for null, an empty string or
    /// a field that is not a reference), as LLVM 3.7's `getMetadataOrNullID` gives it.
    pub fn md_field_id(&self, f: &Field) -> u64 {
        field_operand(f).and_then(|o| self.md_operand_id(&o)).map_or(0, |id| u64::from(id) + 1)
    }

    /// The 0-based metadata id of an operand (`None` for `null` or an operand that was not
    /// enumerated).
    pub fn md_operand_id(&self, op: &MdOperand) -> Option<u32> {
        match op {
            MdOperand::Null => None,
            MdOperand::String(s) => self.md_strings.get(s).copied(),
            MdOperand::Value(ty, v) => self.module_value_id(*v).and_then(|id| self.md_values.get(&(*ty, id)).copied()),
            MdOperand::Node(n) => self.md_ids.get(n).copied(),
        }
    }

    pub fn md_node_id(&self, n: MdId) -> Option<u32> {
        self.md_ids.get(&n).copied()
    }

    /// The attribute list id of a function's attributes (0: none).
    pub fn attr_id(&self, a: Option<AttrSetId>) -> u64 {
        a.and_then(|a| self.attr_sets.iter().position(|x| *x == a)).map_or(0, |i| i as u64 + 1)
    }

    /// Numbers the values of a function body.
    pub fn incorporate(&self, f: &Function) -> FunctionIds {
        let params = self.types.fn_parts(f.ty).map_or(0, |(_, p)| p.len()) as u32;
        let first_arg = self.module_value_count();
        let first_const = first_arg + params;
        let mut ids = FunctionIds { first_arg, consts: Vec::new(), first_const, inst_ids: Vec::new(), local_consts: HashMap::new(), end: first_const };
        let Some(body) = &f.body else { return ids };
        let add = |ids: &mut FunctionIds, c: ConstId| self.enumerate_local_const(ids, c);
        for block in &body.blocks {
            for &i in &block.insts {
                let inst = body.inst(i);
                for v in operands(&inst.kind) {
                    if let Value::Const(c) = v {
                        add(&mut ids, c);
                    }
                }
                if let InstKind::Switch { cases, .. } = &inst.kind {
                    for (c, _) in cases {
                        add(&mut ids, *c);
                    }
                }
                if let InstKind::Alloca { .. } = inst.kind {
                    if let Some(one) = self.alloca_size() {
                        add(&mut ids, one);
                    }
                }
            }
        }
        let mut next = ids.first_const + ids.consts.len() as u32;
        ids.inst_ids = vec![None; body.insts.len()];
        for block in &body.blocks {
            for &i in &block.insts {
                if !self.types.is_void(body.inst(i).ty) {
                    ids.inst_ids[i.0 as usize] = Some(next);
                    next += 1;
                }
            }
        }
        ids.end = next;
        ids
    }

    fn enumerate_local_const(&self, ids: &mut FunctionIds, c: ConstId) {
        if self.const_ids.contains_key(&c) || ids.local_consts.contains_key(&c) {
            return;
        }
        for e in const_operands(&self.types, &self.consts, c) {
            self.enumerate_local_const(ids, e);
        }
        ids.local_consts.insert(c, ids.first_const + ids.consts.len() as u32);
        ids.consts.push(c);
    }

    /// The `i32 1` an `alloca` record names as its size.
    pub fn alloca_size(&self) -> Option<ConstId> {
        let i32 = self.types.iter().find(|(_, t)| **t == Type::Int(32)).map(|(id, _)| id)?;
        self.consts.iter().find(|(_, c)| **c == Const::Int { ty: i32, bits: 1 }).map(|(id, _)| id)
    }

    /// The id of an operand inside a function.
    pub fn value_id(&self, ids: &FunctionIds, v: Value) -> u32 {
        match v {
            Value::Arg(n) => ids.first_arg + n,
            Value::Inst(i) => ids.inst_ids.get(i.0 as usize).copied().flatten().unwrap_or(0),
            Value::Const(c) => match self.const_ids.get(&c) {
                Some(&id) => id,
                None => ids.local_consts.get(&c).copied().unwrap_or(0),
            },
            _ => self.module_value_id(v).unwrap_or(0),
        }
    }
}

/// The types a type is built from, in LLVM's `subtypes()` order.
fn subtypes(t: &Type) -> Vec<TypeId> {
    match t {
        Type::Pointer { pointee, .. } => vec![*pointee],
        Type::Vector { elem, .. } | Type::Array { elem, .. } => vec![*elem],
        Type::Struct { fields, .. } => fields.clone(),
        Type::Named { body: Some(fields), .. } => fields.clone(),
        Type::Function { ret, params, .. } => std::iter::once(*ret).chain(params.iter().copied()).collect(),
        _ => Vec::new(),
    }
}

/// `true` if `c` is LLVM's null value of its type (see [`ConstTable::is_null`]).
pub fn is_null(consts: &ConstTable, c: ConstId) -> bool {
    consts.is_null(c)
}

/// `true` if an aggregate is written as a `DATA` record (LLVM's `ConstantDataSequential`): an
/// array or vector of 8/16/32/64-bit integers, floats or doubles, each a plain number.
pub fn is_data(types: &TypeTable, consts: &ConstTable, c: ConstId) -> bool {
    let Const::Aggregate { ty, elems } = consts.get(c) else { return false };
    let elem = match types.get(*ty) {
        Type::Array { elem, .. } => *elem,
        Type::Vector { elem, .. } => *elem,
        _ => return false,
    };
    let simple = matches!(types.get(elem), Type::Int(8 | 16 | 32 | 64) | Type::Float | Type::Double);
    simple && elems.iter().all(|e| matches!(consts.get(*e), Const::Int { .. } | Const::Float { .. }) || matches!(consts.get(*e), Const::Null(t) if matches!(types.get(*t), Type::Int(_) | Type::Float | Type::Double)))
}

/// The constants an aggregate record refers to (none for null, undef or `DATA` aggregates).
fn const_operands(types: &TypeTable, consts: &ConstTable, c: ConstId) -> Vec<ConstId> {
    match consts.get(c) {
        Const::Aggregate { elems, .. } if !is_null(consts, c) && !is_data(types, consts, c) => elems.clone(),
        _ => Vec::new(),
    }
}

/// The value operands of an instruction, in operand order (blocks and constant case values of a
/// switch are not values here).
pub fn operands(k: &InstKind) -> Vec<Value> {
    match k {
        InstKind::Binary { lhs, rhs, .. } | InstKind::ICmp { lhs, rhs, .. } | InstKind::FCmp { lhs, rhs, .. } => vec![*lhs, *rhs],
        InstKind::Cast { value, .. } => vec![*value],
        InstKind::Select { cond, then_value, else_value } => vec![*cond, *then_value, *else_value],
        InstKind::Phi { incoming } => incoming.iter().map(|(v, _)| *v).collect(),
        InstKind::Br { .. } | InstKind::Unreachable | InstKind::Alloca { .. } => Vec::new(),
        InstKind::CondBr { cond, .. } => vec![*cond],
        InstKind::Switch { value, .. } => vec![*value],
        InstKind::Ret { value } => value.iter().copied().collect(),
        InstKind::Call { callee, args } => args.iter().copied().chain(std::iter::once(Value::Func(*callee))).collect(),
        InstKind::Load { ptr, .. } => vec![*ptr],
        InstKind::Store { value, ptr, .. } => vec![*value, *ptr],
        InstKind::Gep { base, indices, .. } => std::iter::once(*base).chain(indices.iter().copied()).collect(),
        InstKind::ExtractValue { agg, .. } => vec![*agg],
        InstKind::InsertValue { agg, value, .. } => vec![*agg, *value],
        InstKind::ExtractElement { vector, index } => vec![*vector, *index],
        InstKind::InsertElement { vector, value, index } => vec![*vector, *value, *index],
        InstKind::AtomicRmw { ptr, value, .. } => vec![*ptr, *value],
        InstKind::CmpXchg { ptr, cmp, new } => vec![*ptr, *cmp, *new],
    }
}

/// `ceil(log2(n))` (0 for n <= 1).
pub fn log2_ceil(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// The operand a specialized node's field refers to: a node, a string (an empty string is
/// null, as LLVM 3.7 stores it) or a value; `None` for plain numbers and keywords.
pub(crate) fn field_operand(f: &Field) -> Option<MdOperand> {
    match f {
        Field::Node(Some(n)) => Some(MdOperand::Node(*n)),
        Field::Str(s) if !s.is_empty() => Some(MdOperand::String(s.clone())),
        Field::Value(ty, v) => Some(MdOperand::Value(*ty, *v)),
        _ => None,
    }
}

/// The operands a node refers to: a tuple's operands, or the reference fields of a
/// specialized debug node (in field order).
pub(crate) fn md_operands(n: &MdNode) -> std::borrow::Cow<'_, [MdOperand]> {
    match &n.special {
        None => std::borrow::Cow::Borrowed(&n.operands),
        Some(sp) => std::borrow::Cow::Owned(sp.fields.iter().filter_map(|(_, f)| field_operand(f)).collect()),
    }
}
