//! LLVM 3.7 bitcode, the encoding DXIL modules are stored in (`BitCodeFormat.rst`; the record
//! layouts are those of LLVM 3.7's `BitcodeWriter.cpp`, which dxc uses).
//!
//! - [`stream`]: the bitstream (fields, abbreviations, blocks, `BLOCKINFO`);
//! - [`enumerate`]: the numbering of types, values, metadata and attributes, done before any
//!   record is written;
//! - this module: the module block (attributes, type table, globals and functions, constants,
//!   metadata, metadata kinds, value symbol table); [`function`]: function blocks.
//!
//! Layout of the output (as dxc writes it, with no wrapper header and, as in LLVM 3.7, no
//! identification block): `BC 0xC0DE`, then one `MODULE_BLOCK` holding `VERSION 1` (relative
//! value ids), `BLOCKINFO`, `PARAMATTR_GROUP`, `PARAMATTR`, `TYPE_BLOCK_NEW`, `TRIPLE`,
//! `DATALAYOUT`, `GLOBALVAR`s, `FUNCTION`s, `CONSTANTS`, `METADATA`, the metadata kinds,
//! `VALUE_SYMTAB`, then a `FUNCTION_BLOCK` per definition.
//!
//! The output is deterministic: it depends only on the module (no hashing order shows).

pub mod enumerate;
mod function;
pub mod stream;

use crate::ir::metadata::Field;
use crate::ir::{Attr, Const, Linkage, MdOperand, Module, Type, Value};
use enumerate::{is_data, is_null, log2_ceil, Enumerator, MdEntry, ModuleValue};
use stream::{is_char6, Abbrev, AbbrevOp, BitWriter};

/// Block ids.
pub(crate) mod block {
    pub const MODULE: u32 = 8;
    pub const PARAMATTR: u32 = 9;
    pub const PARAMATTR_GROUP: u32 = 10;
    pub const CONSTANTS: u32 = 11;
    pub const FUNCTION: u32 = 12;
    pub const VALUE_SYMTAB: u32 = 14;
    pub const METADATA: u32 = 15;
    pub const TYPE_NEW: u32 = 17;
}

/// Abbreviation ids `BLOCKINFO` gives (see [`write_block_info`]).
pub(crate) mod abbrev {
    pub const VST_ENTRY_8: u32 = 4;
    pub const VST_ENTRY_7: u32 = 5;
    pub const VST_ENTRY_6: u32 = 6;
    pub const VST_BBENTRY_6: u32 = 7;
    pub const CONSTANTS_SETTYPE: u32 = 4;
    pub const CONSTANTS_INTEGER: u32 = 5;
    pub const FUNCTION_INST_LOAD: u32 = 4;
    pub const FUNCTION_INST_BINOP: u32 = 5;
    pub const FUNCTION_INST_BINOP_FLAGS: u32 = 6;
    pub const FUNCTION_INST_CAST: u32 = 7;
    pub const FUNCTION_INST_RET_VOID: u32 = 8;
    pub const FUNCTION_INST_RET_VAL: u32 = 9;
    pub const FUNCTION_INST_UNREACHABLE: u32 = 10;
    pub const FUNCTION_INST_GEP: u32 = 11;
}

/// The bitcode of `module`: LLVM 3.7's encoding, as dxc writes into a DXIL container part.
pub fn write_bitcode(module: &Module) -> Vec<u8> {
    let e = Enumerator::new(module);
    let mut w = BitWriter::new();
    for b in [b'B', b'C'] {
        w.emit(u64::from(b), 8);
    }
    for nibble in [0x0, 0xC, 0xE, 0xD] {
        w.emit(nibble, 4);
    }
    w.enter_block(block::MODULE, 3);
    w.record(1, &[1], 0); // MODULE_CODE_VERSION: relative value ids
    write_block_info(&e, &mut w);
    write_attributes(&e, &mut w);
    write_types(&e, &mut w);
    write_module_info(&e, &mut w);
    write_module_constants(&e, &mut w);
    write_metadata(&e, &mut w);
    write_metadata_kinds(&mut w);
    write_module_symbols(&e, &mut w);
    for f in &module.functions {
        if f.body.is_some() {
            function::write_function(&e, f, &mut w);
        }
    }
    w.exit_block();
    w.finish()
}

fn write_block_info(e: &Enumerator, w: &mut BitWriter) {
    use AbbrevOp::*;
    let tb = e.type_bits();
    w.enter_block_info();
    let vst = block::VALUE_SYMTAB;
    w.define_block_info_abbrev(vst, Abbrev(vec![Fixed(3), Vbr(8), Array, Fixed(8)]));
    w.define_block_info_abbrev(vst, Abbrev(vec![Literal(1), Vbr(8), Array, Fixed(7)]));
    w.define_block_info_abbrev(vst, Abbrev(vec![Literal(1), Vbr(8), Array, Char6]));
    w.define_block_info_abbrev(vst, Abbrev(vec![Literal(2), Vbr(8), Array, Char6]));
    let cst = block::CONSTANTS;
    w.define_block_info_abbrev(cst, Abbrev(vec![Literal(1), Fixed(tb)]));
    w.define_block_info_abbrev(cst, Abbrev(vec![Literal(4), Vbr(8)]));
    w.define_block_info_abbrev(cst, Abbrev(vec![Literal(11), Fixed(4), Fixed(tb), Vbr(8)]));
    w.define_block_info_abbrev(cst, Abbrev(vec![Literal(2)]));
    let fb = block::FUNCTION;
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(20), Vbr(6), Fixed(tb), Vbr(4), Fixed(1)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(2), Vbr(6), Vbr(6), Fixed(4)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(2), Vbr(6), Vbr(6), Fixed(4), Fixed(7)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(3), Vbr(6), Fixed(tb), Fixed(4)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(10)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(10), Vbr(6)]));
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(15)]));
    let gep_bits = log2_ceil(e.type_order.len() as u64 + 1);
    w.define_block_info_abbrev(fb, Abbrev(vec![Literal(43), Fixed(1), Fixed(gep_bits.max(1)), Array, Vbr(6)]));
    w.exit_block();
}

/// LLVM 3.7's `ATTR_KIND_*` code of an enum attribute.
fn attr_kind(a: &Attr) -> Option<u64> {
    Some(match a {
        Attr::AlwaysInline => 2,
        Attr::NoDuplicate => 12,
        Attr::NoInline => 14,
        Attr::NoReturn => 17,
        Attr::NoUnwind => 18,
        Attr::ReadNone => 20,
        Attr::ReadOnly => 21,
        Attr::ArgMemOnly => 45,
        Attr::String(..) => return None,
    })
}

/// `PARAMATTR_GROUP_BLOCK` (one group per function attribute set, applying to the function:
/// index `0xFFFFFFFF`) and `PARAMATTR_BLOCK` (each attribute list is that one group).
fn write_attributes(e: &Enumerator, w: &mut BitWriter) {
    if e.attr_sets.is_empty() {
        return;
    }
    w.enter_block(block::PARAMATTR_GROUP, 3);
    for (i, set) in e.attr_sets.iter().enumerate() {
        let mut rec = vec![i as u64 + 1, 0xFFFF_FFFF];
        for a in &e.module.attr_sets[set.0 as usize] {
            match (attr_kind(a), a) {
                (Some(k), _) => rec.extend([0, k]),
                (None, Attr::String(k, v)) => {
                    rec.push(if v.is_empty() { 3 } else { 4 });
                    rec.extend(k.bytes().map(u64::from));
                    rec.push(0);
                    if !v.is_empty() {
                        rec.extend(v.bytes().map(u64::from));
                        rec.push(0);
                    }
                }
                (None, _) => {}
            }
        }
        w.record(3, &rec, 0); // PARAMATTR_GRP_CODE_ENTRY
    }
    w.exit_block();
    w.enter_block(block::PARAMATTR, 3);
    for i in 0..e.attr_sets.len() {
        w.record(2, &[i as u64 + 1], 0); // PARAMATTR_CODE_ENTRY
    }
    w.exit_block();
}

fn string_record(w: &mut BitWriter, code: u32, s: &str, abbrev: u32) {
    let abbrev = if abbrev != 0 && s.bytes().all(is_char6) { abbrev } else { 0 };
    let ops: Vec<u64> = s.bytes().map(u64::from).collect();
    w.record(code, &ops, abbrev);
}

fn write_types(e: &Enumerator, w: &mut BitWriter) {
    use AbbrevOp::*;
    let tb = e.type_bits();
    w.enter_block(block::TYPE_NEW, 4);
    let ptr_abbrev = w.define_abbrev(Abbrev(vec![Literal(8), Fixed(tb), Literal(0)]));
    let fn_abbrev = w.define_abbrev(Abbrev(vec![Literal(21), Fixed(1), Array, Fixed(tb)]));
    let anon_abbrev = w.define_abbrev(Abbrev(vec![Literal(18), Fixed(1), Array, Fixed(tb)]));
    let name_abbrev = w.define_abbrev(Abbrev(vec![Literal(19), Array, Char6]));
    let named_abbrev = w.define_abbrev(Abbrev(vec![Literal(20), Fixed(1), Array, Fixed(tb)]));
    let array_abbrev = w.define_abbrev(Abbrev(vec![Literal(11), Vbr(8), Fixed(tb)]));
    w.record(1, &[e.type_order.len() as u64], 0); // NUMENTRY
    for &ty in &e.type_order {
        let id = |t| e.type_id(t);
        let (code, ops, abbrev): (u32, Vec<u64>, u32) = match e.types.get(ty) {
            Type::Void => (2, vec![], 0),
            Type::Float => (3, vec![], 0),
            Type::Double => (4, vec![], 0),
            Type::Label => (5, vec![], 0),
            Type::Int(width) => (7, vec![u64::from(*width)], 0),
            Type::Pointer { pointee, addrspace } => (8, vec![id(*pointee), u64::from(*addrspace)], if *addrspace == 0 { ptr_abbrev } else { 0 }),
            Type::Half => (10, vec![], 0),
            Type::Array { elem, len } => (11, vec![*len, id(*elem)], array_abbrev),
            Type::Vector { elem, len } => (12, vec![u64::from(*len), id(*elem)], 0),
            Type::Metadata => (16, vec![], 0),
            Type::Struct { fields, packed } => {
                (18, std::iter::once(u64::from(*packed)).chain(fields.iter().map(|f| id(*f))).collect(), anon_abbrev)
            }
            Type::Named { name, body, packed } => {
                if !name.is_empty() {
                    string_record(w, 19, name, name_abbrev);
                }
                match body {
                    Some(fields) => (20, std::iter::once(u64::from(*packed)).chain(fields.iter().map(|f| id(*f))).collect(), named_abbrev),
                    None => (6, vec![0], 0), // OPAQUE
                }
            }
            Type::Function { ret, params, vararg } => {
                let ops = [u64::from(*vararg), id(*ret)].into_iter().chain(params.iter().map(|p| id(*p))).collect();
                (21, ops, fn_abbrev)
            }
        };
        w.record(code, &ops, abbrev);
    }
    w.exit_block();
}

fn linkage_code(l: Linkage) -> u64 {
    match l {
        Linkage::External => 0,
        Linkage::Internal => 3,
    }
}

/// `log2(align) + 1`, 0 for no alignment.
fn encode_align(align: u32) -> u64 {
    if align == 0 {
        0
    } else {
        u64::from(31 - align.leading_zeros()) + 1
    }
}

fn write_module_info(e: &Enumerator, w: &mut BitWriter) {
    use AbbrevOp::*;
    let m = e.module;
    if !m.target_triple.is_empty() {
        string_record(w, 2, &m.target_triple, 0);
    }
    if !m.target_datalayout.is_empty() {
        string_record(w, 3, &m.target_datalayout, 0);
    }
    let mut gvar_abbrev = 0;
    if !m.globals.is_empty() {
        let max_align = m.globals.iter().map(|g| g.align).max().unwrap_or(0);
        let max_type = m.globals.iter().map(|g| e.type_id(g.ty)).max().unwrap_or(0);
        let align_op = if max_align == 0 { Literal(0) } else { Fixed(log2_ceil(encode_align(max_align) + 1)) };
        gvar_abbrev = w.define_abbrev(Abbrev(vec![Literal(7), Fixed(log2_ceil(max_type + 1).max(1)), Vbr(6), Vbr(6), Fixed(5), align_op, Literal(0)]));
    }
    for g in &m.globals {
        let init = match g.init {
            Some(c) => u64::from(e.module_value_id(Value::Const(c)).unwrap_or(0)) + 1,
            None => 0,
        };
        let flags = u64::from(g.addrspace) << 2 | 2 | u64::from(g.constant);
        let rec = [e.type_id(g.ty), flags, init, linkage_code(g.linkage), encode_align(g.align), 0];
        w.record(7, &rec, gvar_abbrev); // MODULE_CODE_GLOBALVAR
    }
    for f in &m.functions {
        let rec = [e.type_id(f.ty), 0, u64::from(f.body.is_none()), linkage_code(f.linkage), e.attr_id(f.attrs), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        w.record(8, &rec, 0); // MODULE_CODE_FUNCTION
    }
}

/// The signed-VBR form LLVM uses for integers: the magnitude shifted left, the sign in bit 0.
pub(crate) fn signed(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else {
        (v.unsigned_abs() << 1) | 1
    }
}

/// Writes a `CONSTANTS_BLOCK` for `consts` (module or function constants), whose first id is
/// `first_id`; `id_of` gives any value's id (for aggregate elements).
pub(crate) fn write_constants(e: &Enumerator, w: &mut BitWriter, consts: &[crate::ir::ConstId], global: bool, id_of: &dyn Fn(crate::ir::ConstId) -> u64) {
    use AbbrevOp::*;
    if consts.is_empty() {
        return;
    }
    w.enter_block(block::CONSTANTS, 4);
    let mut aggregate_abbrev = 0;
    if global {
        let last = e.module_value_count() as u64;
        aggregate_abbrev = w.define_abbrev(Abbrev(vec![Literal(7), Array, Fixed(log2_ceil(last + 1).max(1))]));
        w.define_abbrev(Abbrev(vec![Literal(8), Array, Fixed(8)]));
        w.define_abbrev(Abbrev(vec![Literal(9), Array, Fixed(7)]));
        w.define_abbrev(Abbrev(vec![Literal(9), Array, Char6]));
    }
    let mut last_ty = None;
    for &c in consts {
        let k = e.consts.get(c);
        if last_ty != Some(k.ty()) {
            last_ty = Some(k.ty());
            w.record(1, &[e.type_id(k.ty())], abbrev::CONSTANTS_SETTYPE);
        }
        if is_null(&e.consts, c) {
            w.record(2, &[], 0);
            continue;
        }
        match k {
            Const::Undef(_) => w.record(3, &[], 0),
            Const::Int { ty, bits } => {
                let width = e.types.int_width(*ty).unwrap_or(64);
                let v = crate::ir::constants::sign_extend(*bits, width);
                w.record(4, &[signed(v)], abbrev::CONSTANTS_INTEGER);
            }
            Const::Float { bits, .. } => w.record(6, &[*bits], 0),
            Const::Null(_) => w.record(2, &[], 0),
            Const::Aggregate { elems, .. } => {
                if is_data(&e.types, &e.consts, c) {
                    let ops: Vec<u64> = elems
                        .iter()
                        .map(|x| match e.consts.get(*x) {
                            Const::Int { bits, .. } | Const::Float { bits, .. } => *bits,
                            _ => 0,
                        })
                        .collect();
                    w.record(22, &ops, 0); // CST_CODE_DATA
                } else {
                    let ops: Vec<u64> = elems.iter().map(|x| id_of(*x)).collect();
                    w.record(7, &ops, aggregate_abbrev);
                }
            }
        }
    }
    w.exit_block();
}

fn write_module_constants(e: &Enumerator, w: &mut BitWriter) {
    let consts: Vec<crate::ir::ConstId> = e.values[e.first_module_const()..]
        .iter()
        .filter_map(|v| match v {
            ModuleValue::Const(c) => Some(*c),
            _ => None,
        })
        .collect();
    let id_of = |c| u64::from(e.module_value_id(Value::Const(c)).unwrap_or(0));
    write_constants(e, w, &consts, true, &id_of);
}

fn write_metadata(e: &Enumerator, w: &mut BitWriter) {
    use AbbrevOp::*;
    let m = e.module;
    if e.metadata.is_empty() && m.named_md.is_empty() {
        return;
    }
    w.enter_block(block::METADATA, 3);
    let mut string_abbrev = 0;
    if e.metadata.iter().any(|x| matches!(x, MdEntry::String(_))) {
        string_abbrev = w.define_abbrev(Abbrev(vec![Literal(1), Array, Fixed(8)]));
    }
    let mut name_abbrev = 0;
    if !m.named_md.is_empty() {
        name_abbrev = w.define_abbrev(Abbrev(vec![Literal(4), Array, Fixed(8)]));
    }
    for entry in &e.metadata {
        match entry {
            MdEntry::String(s) => {
                let ops: Vec<u64> = s.bytes().map(u64::from).collect();
                w.record(1, &ops, string_abbrev); // METADATA_STRING (3.7)
            }
            MdEntry::Value(ty, id) => w.record(2, &[e.type_id(*ty), u64::from(*id)], 0), // METADATA_VALUE
            MdEntry::Node(n) if m.md_nodes[n.0 as usize].special.is_some() => {
                let sp = m.md_nodes[n.0 as usize].special.as_ref().expect("checked");
                let (code, rec) = debug_record(e, sp).unwrap_or((3, Vec::new()));
                w.record(code, &rec, 0);
            }
            MdEntry::Node(n) => {
                let ops: Vec<u64> = m.md_nodes[n.0 as usize]
                    .operands
                    .iter()
                    .map(|o| match o {
                        MdOperand::Null => 0,
                        o => e.md_operand_id(o).map_or(0, |id| u64::from(id) + 1),
                    })
                    .collect();
                w.record(3, &ops, 0); // METADATA_NODE
            }
        }
    }
    for (name, nodes) in &m.named_md {
        let ops: Vec<u64> = name.bytes().map(u64::from).collect();
        w.record(4, &ops, name_abbrev); // METADATA_NAME
        let ids: Vec<u64> = nodes.iter().filter_map(|n| e.md_node_id(*n)).map(u64::from).collect();
        w.record(10, &ids, 0); // METADATA_NAMED_NODE
    }
    w.exit_block();
}

/// A number or keyword field of a specialized debug node, as LLVM 3.7's writer stores it.
fn debug_number(f: Option<&Field>) -> Option<u64> {
    let Some(Field::Raw(s)) = f else { return Some(0) };
    let mut v = 0u64;
    for part in s.split('|').map(str::trim) {
        v |= match part {
            "true" => 1,
            "false" | "" => 0,
            "DW_LANG_C_plus_plus" => 4,
            "DIFlagPrototyped" => 1 << 8,
            n => n.parse::<u64>().ok()?,
        };
    }
    Some(v)
}

/// The debug node classes the bitcode writer knows (LLVM 3.7 record code, fields in record
/// order; `*` marks a number field, the others are references).
const DEBUG_CLASSES: &[(&str, u32, &[&str])] = &[
    ("DILocation", 7, &["*line", "*column", "scope", "inlinedAt"]),
    ("DIFile", 16, &["filename", "directory"]),
    ("DISubroutineType", 19, &["*flags", "types"]),
    (
        "DICompileUnit",
        20,
        &["*language", "file", "producer", "*isOptimized", "flags", "*runtimeVersion", "splitDebugFilename", "*emissionKind", "enums", "retainedTypes", "subprograms", "globals", "imports", "*dwoId"],
    ),
    (
        "DISubprogram",
        21,
        &[
            "scope", "name", "linkageName", "file", "*line", "type", "*isLocal", "*isDefinition", "*scopeLine", "containingType", "*virtuality", "*virtualIndex", "*flags", "*isOptimized", "function",
            "templateParams", "declaration", "variables",
        ],
    ),
];

/// The record of a specialized debug node, or `None` for a class (or a field value) the writer
/// does not know; see [`unsupported_debug_info`].
fn debug_record(e: &Enumerator, sp: &crate::ir::metadata::Special) -> Option<(u32, Vec<u64>)> {
    let (_, code, fields) = DEBUG_CLASSES.iter().find(|(c, _, _)| *c == sp.class)?;
    let get = |name: &str| sp.fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f);
    let mut rec = vec![u64::from(sp.distinct)];
    for f in fields.iter() {
        match f.strip_prefix('*') {
            Some(num) => rec.push(debug_number(get(num))?),
            None => rec.push(get(f).map_or(0, |x| e.md_field_id(x))),
        }
    }
    Some((*code, rec))
}

/// Why `module`'s debug information cannot be written as LLVM 3.7 bitcode (a debug node class
/// or field value the writer does not know), or `None` when it can.
pub fn unsupported_debug_info(module: &Module) -> Option<String> {
    for n in &module.md_nodes {
        let Some(sp) = &n.special else { continue };
        let Some((_, _, fields)) = DEBUG_CLASSES.iter().find(|(c, _, _)| *c == sp.class) else {
            return Some(format!("the debug information node !{} has no LLVM 3.7 bitcode record in this writer", sp.class));
        };
        for (name, _) in &sp.fields {
            if !fields.iter().any(|f| f.trim_start_matches('*') == *name) {
                return Some(format!("the field '{name}' of !{} has no place in its LLVM 3.7 bitcode record", sp.class));
            }
        }
        for f in fields.iter().filter_map(|f| f.strip_prefix('*')) {
            let v = sp.fields.iter().find(|(n, _)| *n == f).map(|(_, v)| v);
            if debug_number(v).is_none() {
                return Some(format!("the value {v:?} of the field '{f}' of !{} is not a number this writer knows", sp.class));
            }
        }
    }
    None
}

/// The metadata kinds LLVM 3.7 registers in every context, in id order.
const MD_KINDS: [&str; 14] = [
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
];

fn write_metadata_kinds(w: &mut BitWriter) {
    w.enter_block(block::METADATA, 3);
    for (i, name) in MD_KINDS.iter().enumerate() {
        let ops: Vec<u64> = std::iter::once(i as u64).chain(name.bytes().map(u64::from)).collect();
        w.record(6, &ops, 0); // METADATA_KIND
    }
    w.exit_block();
}

/// A `VST_ENTRY`/`VST_BBENTRY` record with the smallest of the `BLOCKINFO` abbreviations.
pub(crate) fn symbol(w: &mut BitWriter, bb: bool, id: u32, name: &str) {
    let char6 = name.bytes().all(is_char6);
    let seven = name.bytes().all(|b| b < 128);
    let (code, abbrev) = match (bb, char6, seven) {
        (true, true, _) => (2, abbrev::VST_BBENTRY_6),
        (true, false, _) => (2, abbrev::VST_ENTRY_8),
        (false, true, _) => (1, abbrev::VST_ENTRY_6),
        (false, false, true) => (1, abbrev::VST_ENTRY_7),
        (false, false, false) => (1, abbrev::VST_ENTRY_8),
    };
    let ops: Vec<u64> = std::iter::once(u64::from(id)).chain(name.bytes().map(u64::from)).collect();
    w.record(code, &ops, abbrev);
}

fn write_module_symbols(e: &Enumerator, w: &mut BitWriter) {
    let m = e.module;
    let names: Vec<(u32, &str)> = m
        .globals
        .iter()
        .enumerate()
        .map(|(i, g)| (i as u32, g.name.as_str()))
        .chain(m.functions.iter().enumerate().map(|(i, f)| ((m.globals.len() + i) as u32, f.name.as_str())))
        .filter(|(_, n)| !n.is_empty())
        .collect();
    if names.is_empty() {
        return;
    }
    w.enter_block(block::VALUE_SYMTAB, 4);
    for (id, name) in names {
        symbol(w, false, id, name);
    }
    w.exit_block();
}

#[cfg(test)]
mod tests;
