//! A small typed-pointer SSA IR in the shape of LLVM 3.7, the dialect DXIL is written in.
//!
//! The [`Module`] owns everything in arenas addressed by newtype ids, in creation order:
//! types ([`TypeId`]), constants ([`ConstId`]), globals ([`GlobalId`]), functions ([`FuncId`]),
//! attribute sets ([`AttrSetId`]) and metadata nodes ([`MdId`]); instructions and blocks are
//! local to their function ([`InstId`], [`BlockId`]). A bitcode writer can enumerate values
//! directly: module-level ids are dense and every operand is created before its user, except
//! instruction operands that refer forward to later instructions or blocks (phis, branches), as
//! in LLVM.
//!
//! Invariants upheld by the builder methods (code that edits the public fields must keep them):
//! - ids are only used with the module that produced them;
//! - global and function names are unique within the module (see [`Module::add_function`]);
//! - instruction result types are computed by [`FunctionBuilder`] from operand types, so a
//!   printed module is well typed when the builder's preconditions hold.

pub mod builder;
pub mod constants;
pub mod function;
pub mod metadata;
pub mod types;

pub use builder::FunctionBuilder;
pub use constants::{Const, ConstId, ConstTable};
pub use function::{BinOp, Block, BlockId, Body, CastOp, FloatPred, Function, Inst, InstId, InstKind, IntPred, Linkage, RmwOp, Value};
pub use metadata::{Field, MdId, MdNode, MdOperand, Special};
pub use types::{Type, TypeId, TypeTable};

use indexmap::IndexMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrSetId(pub u32);

/// A function attribute. Enum attributes are listed in LLVM 3.7's `Attribute::AttrKind` order,
/// which is the order the printer sorts them in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attr {
    AlwaysInline,
    NoDuplicate,
    NoInline,
    NoReturn,
    NoUnwind,
    ReadNone,
    ReadOnly,
    ArgMemOnly,
    /// `"key"="value"` string attribute (`value` may be empty: printed `"key"`).
    String(String, String),
}

impl Attr {
    pub fn keyword(&self) -> Option<&'static str> {
        Some(match self {
            Attr::AlwaysInline => "alwaysinline",
            Attr::NoDuplicate => "noduplicate",
            Attr::NoInline => "noinline",
            Attr::NoReturn => "noreturn",
            Attr::NoUnwind => "nounwind",
            Attr::ReadNone => "readnone",
            Attr::ReadOnly => "readonly",
            Attr::ArgMemOnly => "argmemonly",
            Attr::String(..) => return None,
        })
    }
}

/// A global variable. `ty` is the value type; the global itself is a pointer to it in
/// `addrspace`.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub ty: TypeId,
    pub addrspace: u32,
    pub linkage: Linkage,
    pub constant: bool,
    pub init: Option<ConstId>,
    pub align: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub target_datalayout: String,
    pub target_triple: String,
    pub types: TypeTable,
    pub consts: ConstTable,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// Distinct attribute sets; each is sorted and deduplicated.
    pub attr_sets: Vec<Vec<Attr>>,
    pub md_nodes: Vec<MdNode>,
    pub named_md: IndexMap<String, Vec<MdId>>,
    /// Set when an experimental (feature id 0x8000) DXIL op is declared: the shader must then be
    /// marked as a preview (see the experimental-ops design note).
    pub preview: bool,
    func_names: IndexMap<String, FuncId>,
    md_index: std::collections::HashMap<MdNode, MdId>,
}

/// The data layout string dxc writes into DXIL modules.
pub const DXIL_DATALAYOUT: &str = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64";
/// The data layout string used with native 16-bit types (`-enable-16bit-types`).
pub const DXIL_DATALAYOUT_16BIT: &str = "e-m:e-p:32:32-i1:32-i8:8-i16:16-i32:32-i64:64-f16:16-f32:32-f64:64-n8:16:32:64";

impl Module {
    /// An empty DXIL module (dxc's datalayout for 32-bit min-precision and triple `dxil-ms-dx`).
    pub fn new_dxil() -> Module {
        Module {
            target_datalayout: DXIL_DATALAYOUT.to_string(),
            target_triple: "dxil-ms-dx".to_string(),
            ..Module::default()
        }
    }

    // ---- constants ----

    pub fn const_int(&mut self, ty: TypeId, value: i64) -> ConstId {
        let width = self.types.int_width(ty).unwrap_or(64);
        self.consts.intern(Const::Int { ty, bits: constants::truncate(value as u64, width) })
    }
    pub fn const_i32(&mut self, value: i32) -> ConstId {
        let ty = self.types.i32();
        self.const_int(ty, i64::from(value))
    }
    pub fn const_i8(&mut self, value: i8) -> ConstId {
        let ty = self.types.i8();
        self.const_int(ty, i64::from(value))
    }
    pub fn const_bool(&mut self, value: bool) -> ConstId {
        let ty = self.types.i1();
        self.const_int(ty, i64::from(value))
    }
    /// A float constant of type `ty` (`half`, `float` or `double`) with the value `value` rounded
    /// to that type.
    pub fn const_float(&mut self, ty: TypeId, value: f64) -> ConstId {
        let bits = match self.types.get(ty) {
            Type::Half => u64::from(constants::f32_to_f16_bits(value as f32)),
            Type::Float => u64::from((value as f32).to_bits()),
            _ => value.to_bits(),
        };
        self.consts.intern(Const::Float { ty, bits })
    }
    pub fn const_f32(&mut self, value: f32) -> ConstId {
        let ty = self.types.float();
        self.consts.intern(Const::Float { ty, bits: u64::from(value.to_bits()) })
    }
    pub fn undef(&mut self, ty: TypeId) -> ConstId {
        self.consts.intern(Const::Undef(ty))
    }
    pub fn null(&mut self, ty: TypeId) -> ConstId {
        self.consts.intern(Const::Null(ty))
    }
    /// The aggregate `ty` of `elems`, folded as LLVM's `ConstantStruct/Array/Vector::get` fold
    /// it (and as dxc prints it): all elements null (or none) gives `zeroinitializer`, all undef
    /// gives `undef`.
    pub fn const_aggregate(&mut self, ty: TypeId, elems: Vec<ConstId>) -> ConstId {
        if elems.iter().all(|e| self.consts.is_null(*e)) {
            return self.null(ty);
        }
        if elems.iter().all(|e| matches!(self.consts.get(*e), Const::Undef(_))) {
            return self.undef(ty);
        }
        self.consts.intern(Const::Aggregate { ty, elems })
    }

    // ---- attributes ----

    /// The id of the attribute set `attrs` (sorted and deduplicated first).
    pub fn attr_set(&mut self, mut attrs: Vec<Attr>) -> AttrSetId {
        attrs.sort();
        attrs.dedup();
        if let Some(i) = self.attr_sets.iter().position(|a| *a == attrs) {
            return AttrSetId(i as u32);
        }
        self.attr_sets.push(attrs);
        AttrSetId(self.attr_sets.len() as u32 - 1)
    }

    // ---- globals and functions ----

    pub fn add_global(&mut self, global: Global) -> GlobalId {
        self.globals.push(global);
        GlobalId(self.globals.len() as u32 - 1)
    }

    /// The pointer type of a global's value.
    pub fn global_ptr_type(&mut self, id: GlobalId) -> TypeId {
        let g = &self.globals[id.0 as usize];
        let (ty, space) = (g.ty, g.addrspace);
        self.types.pointer(ty, space)
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }

    pub fn function_mut(&mut self, id: FuncId) -> &mut Function {
        &mut self.functions[id.0 as usize]
    }

    pub fn lookup_function(&self, name: &str) -> Option<FuncId> {
        self.func_names.get(name).copied()
    }

    /// Adds a declaration `name` of function type `ty`, or returns the existing function of that
    /// name. Callers that need the existing function to have type `ty` check it (see
    /// `ops::declare_op`).
    pub fn declare_function(&mut self, name: &str, ty: TypeId, attrs: Option<AttrSetId>) -> FuncId {
        if let Some(id) = self.lookup_function(name) {
            return id;
        }
        let params = self.types.fn_parts(ty).map_or(0, |(_, p)| p.len());
        self.add_function(Function {
            name: name.to_string(),
            ty,
            linkage: Linkage::External,
            attrs,
            arg_names: vec![None; params],
            body: None,
        })
    }

    /// Adds a function. If the name is taken, a numeric suffix is appended (`name.1`), as LLVM
    /// does, so names stay unique.
    pub fn add_function(&mut self, mut f: Function) -> FuncId {
        if self.func_names.contains_key(&f.name) {
            let mut n = 1;
            while self.func_names.contains_key(&format!("{}.{}", f.name, n)) {
                n += 1;
            }
            f.name = format!("{}.{}", f.name, n);
        }
        let id = FuncId(self.functions.len() as u32);
        self.func_names.insert(f.name.clone(), id);
        self.functions.push(f);
        id
    }

    /// Type of an operand inside function `func` (needed for `Arg` and `Inst`).
    pub fn value_type(&mut self, func: FuncId, v: Value) -> TypeId {
        match v {
            Value::Const(c) => self.consts.get(c).ty(),
            Value::Global(g) => self.global_ptr_type(g),
            Value::Func(f) => {
                let ty = self.functions[f.0 as usize].ty;
                self.types.pointer(ty, 0)
            }
            Value::Arg(n) => {
                let fty = self.functions[func.0 as usize].ty;
                let p = self.types.fn_parts(fty).and_then(|(_, p)| p.get(n as usize).copied());
                p.unwrap_or_else(|| self.types.void())
            }
            Value::Inst(i) => {
                let body = self.functions[func.0 as usize].body.as_ref();
                match body.and_then(|b| b.insts.get(i.0 as usize)) {
                    Some(inst) => inst.ty,
                    None => self.types.void(),
                }
            }
        }
    }

    // ---- metadata ----

    /// The tuple `!{operands}`, uniqued: equal operand lists give the same node.
    pub fn md_node(&mut self, operands: Vec<MdOperand>) -> MdId {
        let node = MdNode { operands, special: None };
        if let Some(&id) = self.md_index.get(&node) {
            return id;
        }
        let id = MdId(self.md_nodes.len() as u32);
        self.md_nodes.push(node.clone());
        self.md_index.insert(node, id);
        id
    }

    /// The specialized node `!class(fields)`: uniqued like a tuple unless `distinct`.
    pub fn md_special(&mut self, class: &'static str, distinct: bool, fields: Vec<(&'static str, Field)>) -> MdId {
        let unique = if distinct { self.md_nodes.len() as u32 } else { 0 };
        let node = MdNode { operands: Vec::new(), special: Some(Special { class, distinct, unique, fields }) };
        if let Some(&id) = self.md_index.get(&node) {
            return id;
        }
        let id = MdId(self.md_nodes.len() as u32);
        self.md_nodes.push(node.clone());
        self.md_index.insert(node, id);
        id
    }

    /// Whether the module carries debug information (`-Zi`): specialized nodes the bitcode
    /// writer does not encode.
    pub fn has_debug_info(&self) -> bool {
        self.named_md.contains_key("llvm.dbg.cu")
    }

    pub fn md_string(s: &str) -> MdOperand {
        MdOperand::String(s.to_string())
    }

    /// `i32 <value>` as a metadata operand.
    pub fn md_i32(&mut self, value: i32) -> MdOperand {
        let c = self.const_i32(value);
        let ty = self.types.i32();
        MdOperand::Value(ty, Value::Const(c))
    }

    /// Appends `node` to the named metadata `name` (created if missing).
    pub fn add_named_md(&mut self, name: &str, node: MdId) {
        self.named_md.entry(name.to_string()).or_default().push(node);
    }
}
