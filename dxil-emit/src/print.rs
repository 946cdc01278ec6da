//! Textual output in dxc's disassembly style (LLVM 3.7 assembly).
//!
//! First dxc's comment tables ([`crate::comments`]: `; Resource Bindings:` ...), then the
//! layout of LLVM 3.7's `AssemblyWriter`: header, named struct types, globals, functions
//! (each preceded by a blank line and a `; Function Attrs:` comment), attribute groups, named
//! metadata, then numbered metadata. Unnamed values are numbered per function in LLVM's order
//! (arguments, then each block and its instructions); unnamed non-entry blocks print as
//! `; <label>:N`, and every non-entry block gets `; preds = ...` at column 50. Calls to `dx.op`
//! functions get dxc's trailing comment, e.g. `  ; Sin(value)`. Metadata nodes are numbered by a
//! pre-order walk from the named metadata, as LLVM's slot tracker does.

use crate::ir::constants::sign_extend;
use crate::ir::{AttrSetId, BlockId, Body, Const, ConstId, Field, Function, InstKind, Linkage, MdId, MdOperand, Module, Type, TypeId, Value};
use crate::ops::DxilOp;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Prints `module` as dxc does.
pub fn print_module(module: &Module) -> String {
    let (order, slot) = md_slots(module);
    let mut p = Printer { m: module, out: String::new(), order, slot };
    p.module();
    p.out
}

/// The text of a type, as it appears in the module (`%dx.types.Handle`, `<4 x float>`, ...).
pub fn type_text(module: &Module, ty: TypeId) -> String {
    Printer { m: module, out: String::new(), order: Vec::new(), slot: HashMap::new() }.ty(ty)
}

struct Printer<'a> {
    m: &'a Module,
    out: String,
    /// Metadata nodes in slot order, and each node's slot.
    order: Vec<MdId>,
    slot: HashMap<MdId, usize>,
}

/// Metadata slots as LLVM's slot tracker numbers them: a pre-order walk from the named
/// metadata, then the `!dbg` attachments of each function's instructions in order.
fn md_slots(m: &Module) -> (Vec<MdId>, HashMap<MdId, usize>) {
    let mut order: Vec<MdId> = Vec::new();
    let mut slot: HashMap<MdId, usize> = HashMap::new();
    let visit = |root: MdId, order: &mut Vec<MdId>, slot: &mut HashMap<MdId, usize>| {
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if slot.contains_key(&id) || id.0 as usize >= m.md_nodes.len() {
                continue;
            }
            slot.insert(id, order.len());
            order.push(id);
            let node = &m.md_nodes[id.0 as usize];
            for o in node.operands.iter().rev() {
                if let MdOperand::Node(c) = o {
                    stack.push(*c);
                }
            }
            if let Some(sp) = &node.special {
                for (_, f) in sp.fields.iter().rev() {
                    if let Field::Node(Some(c)) = f {
                        stack.push(*c);
                    }
                }
            }
        }
    };
    for nodes in m.named_md.values() {
        for &n in nodes {
            visit(n, &mut order, &mut slot);
        }
    }
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        if body.dbg.is_empty() {
            continue;
        }
        for b in &body.blocks {
            for i in &b.insts {
                if let Some(&l) = body.dbg.get(i) {
                    visit(l, &mut order, &mut slot);
                }
            }
        }
    }
    (order, slot)
}

/// `@name`/`%name` with LLVM's quoting: names outside `[A-Za-z0-9._-]` (or starting with a
/// digit) are quoted, and bytes that are not printable (or are `"` `\`) are written `\XX`.
pub fn llvm_name(prefix: char, name: &str) -> String {
    let needs_quotes = name.is_empty()
        || name.as_bytes()[0].is_ascii_digit()
        || name.bytes().any(|c| !(c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_'));
    if !needs_quotes {
        return format!("{prefix}{name}");
    }
    format!("{prefix}\"{}\"", escape(name))
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"' {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
    out
}

/// LLVM 3.7's float constant text: `%.6e` when that reads back exactly, else the IEEE double
/// bits in hex (`0x3FB99999A0000000`); `half` is always `0xH` + 4 hex digits.
pub fn format_float(ty: &Type, bits: u64) -> String {
    let value = match ty {
        Type::Half => return format!("0xH{:04X}", bits & 0xffff),
        Type::Float => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    };
    if value.is_finite() {
        let s = c_exp_format(value);
        if s.parse::<f64>().map(|r| r.to_bits() == value.to_bits()).unwrap_or(false) || (value == 0.0 && s.parse::<f64>() == Ok(0.0)) {
            return s;
        }
    }
    format!("0x{:016X}", value.to_bits())
}

/// C's `%.6e`: `1.250000e-01`.
fn c_exp_format(v: f64) -> String {
    let s = format!("{v:.6e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

impl<'a> Printer<'a> {
    fn ty(&self, id: TypeId) -> String {
        let t = &self.m.types;
        match t.get(id) {
            Type::Void => "void".into(),
            Type::Label => "label".into(),
            Type::Metadata => "metadata".into(),
            Type::Half => "half".into(),
            Type::Float => "float".into(),
            Type::Double => "double".into(),
            Type::Int(w) => format!("i{w}"),
            Type::Pointer { pointee, addrspace: 0 } => format!("{}*", self.ty(*pointee)),
            Type::Pointer { pointee, addrspace } => format!("{} addrspace({addrspace})*", self.ty(*pointee)),
            Type::Vector { elem, len } => format!("<{len} x {}>", self.ty(*elem)),
            Type::Array { elem, len } => format!("[{len} x {}]", self.ty(*elem)),
            Type::Struct { fields, packed } => self.struct_body(fields, *packed),
            Type::Named { name, .. } => llvm_name('%', name),
            Type::Function { ret, params, vararg } => {
                let mut ps: Vec<String> = params.iter().map(|p| self.ty(*p)).collect();
                if *vararg {
                    ps.push("...".into());
                }
                format!("{} ({})", self.ty(*ret), ps.join(", "))
            }
        }
    }

    fn struct_body(&self, fields: &[TypeId], packed: bool) -> String {
        let inner = if fields.is_empty() {
            "{}".to_string()
        } else {
            format!("{{ {} }}", fields.iter().map(|f| self.ty(*f)).collect::<Vec<_>>().join(", "))
        };
        if packed {
            format!("<{inner}>")
        } else {
            inner
        }
    }

    fn constant(&self, id: ConstId) -> String {
        let c = self.m.consts.get(id);
        let types = &self.m.types;
        match c {
            Const::Int { ty, bits } => match types.int_width(*ty) {
                Some(1) => if *bits & 1 == 1 { "true" } else { "false" }.into(),
                Some(w) => sign_extend(*bits, w).to_string(),
                None => bits.to_string(),
            },
            Const::Float { ty, bits } => format_float(types.get(*ty), *bits),
            Const::Undef(_) => "undef".into(),
            Const::Null(ty) => match types.get(*ty) {
                Type::Pointer { .. } => "null".into(),
                Type::Int(_) => "0".into(),
                t @ (Type::Half | Type::Float | Type::Double) => format_float(t, 0),
                _ => "zeroinitializer".into(),
            },
            Const::Aggregate { ty, elems } => {
                let items: Vec<String> = elems.iter().map(|e| format!("{} {}", self.ty(self.m.consts.get(*e).ty()), self.constant(*e))).collect();
                match types.get(*ty) {
                    Type::Array { .. } => format!("[{}]", items.join(", ")),
                    Type::Vector { .. } => format!("<{}>", items.join(", ")),
                    _ => format!("{{ {} }}", items.join(", ")),
                }
            }
        }
    }

    fn module(&mut self) {
        let m = self.m;
        // dxc's comment tables (resource bindings, ...): `;` lines before the module proper.
        self.out.push_str(&crate::comments::header(m));
        if !m.target_datalayout.is_empty() {
            let _ = writeln!(self.out, "target datalayout = \"{}\"", escape(&m.target_datalayout));
        }
        if !m.target_triple.is_empty() {
            let _ = writeln!(self.out, "target triple = \"{}\"", escape(&m.target_triple));
        }
        let named: Vec<String> = m
            .types
            .iter()
            .filter_map(|(_, t)| match t {
                Type::Named { name, body: Some(fields), packed } => {
                    Some(format!("{} = type {}", llvm_name('%', name), self.struct_body(fields, *packed)))
                }
                Type::Named { name, body: None, .. } => Some(format!("{} = type opaque", llvm_name('%', name))),
                _ => None,
            })
            .collect();
        if !named.is_empty() {
            self.out.push('\n');
            for n in named {
                let _ = writeln!(self.out, "{n}");
            }
        }
        if !m.globals.is_empty() {
            self.out.push('\n');
            for g in &m.globals {
                let mut s = llvm_name('@', &g.name);
                s.push_str(" = ");
                match (g.linkage, g.init) {
                    (Linkage::Internal, _) => s.push_str("internal "),
                    (Linkage::External, None) => s.push_str("external "),
                    _ => {}
                }
                if g.addrspace != 0 {
                    let _ = write!(s, "addrspace({}) ", g.addrspace);
                }
                s.push_str(if g.constant { "constant " } else { "global " });
                s.push_str(&self.ty(g.ty));
                if let Some(init) = g.init {
                    let _ = write!(s, " {}", self.constant(init));
                }
                if g.align != 0 {
                    let _ = write!(s, ", align {}", g.align);
                }
                let _ = writeln!(self.out, "{s}");
            }
        }
        // Attribute groups are numbered by first use, in function order.
        let mut groups: Vec<AttrSetId> = Vec::new();
        for f in &m.functions {
            if let Some(a) = f.attrs {
                if !groups.contains(&a) {
                    groups.push(a);
                }
            }
        }
        for f in &m.functions {
            self.function(f, &groups);
        }
        if !groups.is_empty() {
            self.out.push('\n');
            for (i, g) in groups.iter().enumerate() {
                let _ = writeln!(self.out, "attributes #{i} = {{ {} }}", self.attrs_text(*g));
            }
        }
        self.metadata();
    }

    fn attrs_text(&self, id: AttrSetId) -> String {
        let set = self.m.attr_sets.get(id.0 as usize).map(Vec::as_slice).unwrap_or(&[]);
        set.iter()
            .map(|a| match a.keyword() {
                Some(k) => k.to_string(),
                None => match a {
                    crate::ir::Attr::String(k, v) if v.is_empty() => format!("\"{}\"", escape(k)),
                    crate::ir::Attr::String(k, v) => format!("\"{}\"=\"{}\"", escape(k), escape(v)),
                    _ => String::new(),
                },
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn function(&mut self, f: &Function, groups: &[AttrSetId]) {
        let (ret, params) = match self.m.types.fn_parts(f.ty) {
            Some((r, p)) => (r, p.to_vec()),
            None => return,
        };
        self.out.push('\n');
        if let Some(a) = f.attrs {
            let _ = writeln!(self.out, "; Function Attrs: {}", self.attrs_text(a));
        }
        let numbering = f.body.as_ref().map(|b| Numbering::new(self.m, f, b)).unwrap_or_default();
        let kw = if f.body.is_some() { "define" } else { "declare" };
        let link = if f.linkage == Linkage::Internal { "internal " } else { "" };
        let args: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, p)| match (f.body.is_some(), f.arg_names.get(i).cloned().flatten()) {
                (true, Some(n)) => format!("{} {}", self.ty(*p), llvm_name('%', &n)),
                _ => self.ty(*p),
            })
            .collect();
        let _ = write!(self.out, "{kw} {link}{} {}({})", self.ty(ret), llvm_name('@', &f.name), args.join(", "));
        if let Some(a) = f.attrs {
            let n = groups.iter().position(|g| *g == a).unwrap_or(0);
            let _ = write!(self.out, " #{n}");
        }
        let Some(body) = &f.body else {
            self.out.push('\n');
            return;
        };
        self.out.push_str(" {\n");
        let preds = body.predecessors();
        for (bi, block) in body.blocks.iter().enumerate() {
            let mut line = String::new();
            if let Some(name) = &block.name {
                if bi > 0 {
                    self.out.push('\n');
                }
                line = format!("{}:", &llvm_name('%', name)[1..]);
            } else if bi > 0 {
                self.out.push('\n');
                // LLVM omits the label of an unnamed block nothing refers to.
                if !preds[bi].is_empty() {
                    let _ = write!(line, "; <label>:{}", numbering.block(BlockId(bi as u32)));
                }
            }
            if bi > 0 {
                let pad = 50usize.saturating_sub(line.len()).max(1);
                line.push_str(&" ".repeat(pad));
                let list = &preds[bi];
                if list.is_empty() {
                    line.push_str("; No predecessors!");
                } else {
                    let names: Vec<String> = list.iter().rev().map(|p| numbering.block_ref(body, *p)).collect();
                    let _ = write!(line, "; preds = {}", names.join(", "));
                }
            }
            if !line.is_empty() {
                let _ = writeln!(self.out, "{line}");
            }
            for &iid in &block.insts {
                let text = self.inst(f, body, &numbering, iid);
                let text = match body.dbg.get(&iid) {
                    Some(l) => self.with_location(text, *l),
                    None => text,
                };
                let _ = writeln!(self.out, "  {text}");
            }
        }
        self.out.push_str("}\n");
    }

    fn operand(&self, f: &Function, n: &Numbering, v: Value) -> String {
        match v {
            Value::Const(c) => self.constant(c),
            Value::Global(g) => self.m.globals.get(g.0 as usize).map_or("undef".into(), |g| llvm_name('@', &g.name)),
            Value::Func(id) => self.m.functions.get(id.0 as usize).map_or("undef".into(), |f| llvm_name('@', &f.name)),
            Value::Arg(i) => match f.arg_names.get(i as usize).cloned().flatten() {
                Some(name) => llvm_name('%', &name),
                None => format!("%{}", n.args.get(i as usize).copied().unwrap_or(0)),
            },
            Value::Inst(i) => match f.body.as_ref().and_then(|b| b.insts.get(i.0 as usize)).and_then(|x| x.name.clone()) {
                Some(name) => llvm_name('%', &name),
                None => format!("%{}", n.insts.get(&i.0).copied().unwrap_or(0)),
            },
        }
    }

    fn value_type(&self, f: &Function, v: Value) -> String {
        let m = self.m;
        match v {
            Value::Const(c) => self.ty(m.consts.get(c).ty()),
            Value::Global(g) => m.globals.get(g.0 as usize).map_or("void".into(), |g| {
                if g.addrspace == 0 {
                    format!("{}*", self.ty(g.ty))
                } else {
                    format!("{} addrspace({})*", self.ty(g.ty), g.addrspace)
                }
            }),
            Value::Func(id) => m.functions.get(id.0 as usize).map_or("void".into(), |f| format!("{}*", self.ty(f.ty))),
            Value::Arg(i) => m.types.fn_parts(f.ty).and_then(|(_, p)| p.get(i as usize).copied()).map_or("void".into(), |t| self.ty(t)),
            Value::Inst(i) => f.body.as_ref().and_then(|b| b.insts.get(i.0 as usize)).map_or("void".into(), |x| self.ty(x.ty)),
        }
    }

    fn typed(&self, f: &Function, n: &Numbering, v: Value) -> String {
        format!("{} {}", self.value_type(f, v), self.operand(f, n, v))
    }

    fn inst(&self, f: &Function, body: &Body, n: &Numbering, id: crate::ir::InstId) -> String {
        let inst = body.inst(id);
        let lhs = if self.m.types.is_void(inst.ty) {
            String::new()
        } else {
            format!("{} = ", self.operand(f, n, Value::Inst(id)))
        };
        let op = |v| self.operand(f, n, v);
        let typed = |v| self.typed(f, n, v);
        let text = match &inst.kind {
            InstKind::Binary { op: bop, lhs: a, rhs: b, fast } => {
                let flag = if *fast { " fast" } else { "" };
                format!("{}{flag} {}, {}", bop.mnemonic(), typed(*a), op(*b))
            }
            InstKind::ICmp { pred, lhs: a, rhs: b } => format!("icmp {} {}, {}", pred.mnemonic(), typed(*a), op(*b)),
            InstKind::FCmp { pred, lhs: a, rhs: b, fast } => {
                format!("fcmp{} {} {}, {}", if *fast { " fast" } else { "" }, pred.mnemonic(), typed(*a), op(*b))
            }
            InstKind::Cast { op: cop, value } => format!("{} {} to {}", cop.mnemonic(), typed(*value), self.ty(inst.ty)),
            InstKind::Select { cond, then_value, else_value } => {
                format!("select {}, {}, {}", typed(*cond), typed(*then_value), typed(*else_value))
            }
            InstKind::Phi { incoming } => {
                let items: Vec<String> = incoming.iter().map(|(v, b)| format!("[ {}, {} ]", op(*v), n.block_ref(body, *b))).collect();
                format!("phi {} {}", self.ty(inst.ty), items.join(", "))
            }
            InstKind::Br { target } => format!("br label {}", n.block_ref(body, *target)),
            InstKind::CondBr { cond, then_block, else_block } => {
                format!("br {}, label {}, label {}", typed(*cond), n.block_ref(body, *then_block), n.block_ref(body, *else_block))
            }
            InstKind::Switch { value, default, cases } => {
                let mut s = format!("switch {}, label {} [\n", typed(*value), n.block_ref(body, *default));
                for (c, b) in cases {
                    let _ = writeln!(s, "    {}, label {}", typed(Value::Const(*c)), n.block_ref(body, *b));
                }
                s.push_str("  ]");
                s
            }
            InstKind::Ret { value: None } => "ret void".into(),
            InstKind::Ret { value: Some(v) } => format!("ret {}", typed(*v)),
            InstKind::Unreachable => "unreachable".into(),
            InstKind::Call { callee, args } => {
                let callee_f = self.m.functions.get(callee.0 as usize);
                let name = callee_f.map_or("undef".into(), |c| llvm_name('@', &c.name));
                let list: Vec<String> = args.iter().map(|a| typed(*a)).collect();
                let mut s = format!("call {} {}({})", self.ty(inst.ty), name, list.join(", "));
                if let Some(comment) = self.dx_op_comment(callee_f, args) {
                    let _ = write!(s, "  ; {comment}");
                }
                s
            }
            InstKind::Load { ptr, align } => {
                let mut s = format!("load {}, {}", self.ty(inst.ty), typed(*ptr));
                if *align != 0 {
                    let _ = write!(s, ", align {align}");
                }
                s
            }
            InstKind::Store { value, ptr, align } => {
                let mut s = format!("store {}, {}", typed(*value), typed(*ptr));
                if *align != 0 {
                    let _ = write!(s, ", align {align}");
                }
                s
            }
            InstKind::Alloca { allocated, align } => {
                let mut s = format!("alloca {}", self.ty(*allocated));
                if *align != 0 {
                    let _ = write!(s, ", align {align}");
                }
                s
            }
            InstKind::Gep { inbounds, source, base, indices } => {
                let mut s = format!("getelementptr {}{}, {}", if *inbounds { "inbounds " } else { "" }, self.ty(*source), typed(*base));
                for i in indices {
                    let _ = write!(s, ", {}", typed(*i));
                }
                s
            }
            InstKind::ExtractValue { agg, indices } => {
                let idx: Vec<String> = indices.iter().map(u32::to_string).collect();
                format!("extractvalue {}, {}", typed(*agg), idx.join(", "))
            }
            InstKind::InsertValue { agg, value, indices } => {
                let idx: Vec<String> = indices.iter().map(u32::to_string).collect();
                format!("insertvalue {}, {}, {}", typed(*agg), typed(*value), idx.join(", "))
            }
            InstKind::ExtractElement { vector, index } => format!("extractelement {}, {}", typed(*vector), typed(*index)),
            InstKind::AtomicRmw { op, ptr, value } => format!("atomicrmw {} {}, {} seq_cst", op.mnemonic(), typed(*ptr), typed(*value)),
            InstKind::CmpXchg { ptr, cmp, new } => format!("cmpxchg {}, {}, {} seq_cst seq_cst", typed(*ptr), typed(*cmp), typed(*new)),
            InstKind::InsertElement { vector, value, index } => {
                format!("insertelement {}, {}, {}", typed(*vector), typed(*value), typed(*index))
            }
        };
        format!("{lhs}{text}")
    }

    /// dxc's `Name(param,...)` comment for a call to a `dx.op` function with a constant opcode.
    fn dx_op_comment(&self, callee: Option<&Function>, args: &[Value]) -> Option<String> {
        let callee = callee?;
        if !callee.name.starts_with("dx.op.") {
            return None;
        }
        let Some(Value::Const(c)) = args.first() else { return None };
        let Const::Int { bits, .. } = self.m.consts.get(*c) else { return None };
        let op = DxilOp::from_opcode(*bits as u32)?;
        let mut text = op.info().call_comment();
        if op == DxilOp::AnnotateHandle {
            if let Some(desc) = self.annotated_resource(args.get(2)) {
                text.push_str("  resource: ");
                text.push_str(&desc);
            }
        }
        Some(text)
    }

    /// dxc's description of the resource an `annotateHandle` properties constant describes
    /// (`Texture2D<4xF32>`, `globallycoherent RWByteAddressBuffer`, `StructuredBuffer<stride=16>`).
    fn annotated_resource(&self, props: Option<&Value>) -> Option<String> {
        let Some(Value::Const(c)) = props else { return None };
        let words: Vec<u64> = match self.m.consts.get(*c) {
            Const::Aggregate { elems, .. } => elems
                .iter()
                .map(|e| match self.m.consts.get(*e) {
                    Const::Int { bits, .. } => Some(*bits),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            _ if self.m.consts.is_null(*c) => vec![0, 0],
            _ => return None,
        };
        let (w0, w1) = (*words.first()? as u32, *words.get(1)? as u32);
        let uav = w0 & (1 << 12) != 0;
        let flag15 = w0 & (1 << 15) != 0;
        let rw = if uav { "RW" } else { "" };
        let element = || {
            const NAMES: [&str; 19] = [
                "Invalid", "I1", "I16", "U16", "I32", "U32", "I64", "U64", "F16", "F32", "F64", "SNormF16", "UNormF16", "SNormF32", "UNormF32", "SNormF64", "UNormF64",
                "PackedS8x32", "PackedU8x32",
            ];
            let name = NAMES.get((w1 & 0xff) as usize).copied().unwrap_or("Invalid");
            match (w1 >> 8) & 0xff {
                0 | 1 => name.to_string(),
                n => format!("{n}x{name}"),
            }
        };
        let textures = ["Texture1D", "Texture2D", "Texture2DMS", "Texture3D", "TextureCube", "Texture1DArray", "Texture2DArray", "Texture2DMSArray", "TextureCubeArray"];
        let body = match w0 & 0xff {
            k @ 1..=9 => format!("{rw}{}<{}>", textures[k as usize - 1], element()),
            10 => format!("{rw}TypedBuffer<{}>", element()),
            11 => format!("{rw}ByteAddressBuffer"),
            12 => format!("{rw}StructuredBuffer<stride={w1}>"),
            13 => "CBuffer".to_string(),
            14 => (if flag15 { "SamplerComparisonState" } else { "SamplerState" }).to_string(),
            15 => "TBuffer".to_string(),
            16 => "RTAccelerationStructure".to_string(),
            17 => "FeedbackTexture2D".to_string(),
            18 => "FeedbackTexture2DArray".to_string(),
            _ => return None,
        };
        let glc = if w0 & (1 << 14) != 0 { "globallycoherent " } else { "" };
        Some(format!("{glc}{body}"))
    }

    /// An instruction's text with its `!dbg` attachment, and dxc's ` ; line:L col:C` comment
    /// before any `dx.op` comment, as dxc's disassembler prints them.
    fn with_location(&self, text: String, loc: MdId) -> String {
        let Some(s) = self.slot.get(&loc) else { return text };
        let (code, comment) = match text.find("  ; ") {
            Some(at) if !text.contains('\n') => (text[..at].to_string(), Some(text[at..].to_string())),
            _ => (text, None),
        };
        let mut out = format!("{code}, !dbg !{s}");
        let fields = self.m.md_nodes.get(loc.0 as usize).and_then(|n| n.special.as_ref()).map(|sp| &sp.fields);
        let get = |name: &str| fields.and_then(|f| f.iter().find(|(k, _)| *k == name)).and_then(|(_, v)| match v {
            Field::Raw(r) => Some(r.clone()),
            _ => None,
        });
        if let (Some(line), Some(col)) = (get("line"), get("column")) {
            let _ = write!(out, " ; line:{line} col:{col}");
        }
        if let Some(c) = comment {
            out.push_str(&c);
        }
        out
    }

    fn special_text(&self, sp: &crate::ir::Special) -> String {
        let empty = Function { name: String::new(), ty: TypeId(0), linkage: Linkage::External, attrs: None, arg_names: vec![], body: None };
        let fields: Vec<String> = sp
            .fields
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Field::Node(Some(c)) => self.slot.get(c).map_or("null".into(), |s| format!("!{s}")),
                    Field::Node(None) => "null".into(),
                    Field::Str(t) => format!("\"{}\"", escape(t)),
                    Field::Raw(r) => r.clone(),
                    Field::Value(ty, v) => format!("{} {}", self.ty(*ty), self.operand(&empty, &Numbering::default(), *v)),
                };
                format!("{k}: {v}")
            })
            .collect();
        format!("{}!{}({})", if sp.distinct { "distinct " } else { "" }, sp.class, fields.join(", "))
    }

    fn metadata(&mut self) {
        let m = self.m;
        if m.named_md.is_empty() {
            return;
        }
        let (order, slot) = (&self.order, &self.slot);
        self.out.push('\n');
        for (name, nodes) in &m.named_md {
            let refs: Vec<String> = nodes.iter().filter_map(|n| slot.get(n)).map(|s| format!("!{s}")).collect();
            let _ = writeln!(self.out, "!{} = !{{{}}}", md_name(name), refs.join(", "));
        }
        self.out.push('\n');
        let empty = Function { name: String::new(), ty: TypeId(0), linkage: Linkage::External, attrs: None, arg_names: vec![], body: None };
        let mut lines = Vec::new();
        for (i, id) in order.iter().enumerate() {
            if let Some(sp) = &m.md_nodes[id.0 as usize].special {
                lines.push(format!("!{i} = {}", self.special_text(sp)));
                continue;
            }
            let ops: Vec<String> = m.md_nodes[id.0 as usize]
                .operands
                .iter()
                .map(|o| match o {
                    MdOperand::Null => "null".to_string(),
                    MdOperand::String(s) => format!("!\"{}\"", escape(s)),
                    MdOperand::Node(c) => slot.get(c).map_or("null".into(), |s| format!("!{s}")),
                    MdOperand::Value(ty, v) => format!("{} {}", self.ty(*ty), self.operand(&empty, &Numbering::default(), *v)),
                })
                .collect();
            lines.push(format!("!{i} = !{{{}}}", ops.join(", ")));
        }
        for l in lines {
            let _ = writeln!(self.out, "{l}");
        }
    }
}

/// Named metadata names are printed unquoted when they are identifiers, else escaped.
fn md_name(name: &str) -> String {
    let ok = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_' || c == b'$');
    if ok {
        name.to_string()
    } else {
        escape(name)
    }
}

/// Slot numbers of one function's unnamed arguments, blocks and instructions.
#[derive(Default)]
struct Numbering {
    args: Vec<u32>,
    blocks: Vec<u32>,
    insts: HashMap<u32, u32>,
}

impl Numbering {
    fn new(m: &Module, f: &Function, body: &Body) -> Numbering {
        let mut next = 0u32;
        let mut n = Numbering::default();
        for i in 0..f.arg_names.len() {
            n.args.push(next);
            if f.arg_names[i].is_none() {
                next += 1;
            }
        }
        for block in &body.blocks {
            n.blocks.push(next);
            if block.name.is_none() {
                next += 1;
            }
            for &i in &block.insts {
                let inst = body.inst(i);
                if inst.name.is_none() && !m.types.is_void(inst.ty) {
                    n.insts.insert(i.0, next);
                    next += 1;
                }
            }
        }
        n
    }

    fn block(&self, b: BlockId) -> u32 {
        self.blocks.get(b.0 as usize).copied().unwrap_or(0)
    }

    fn block_ref(&self, body: &Body, b: BlockId) -> String {
        match body.blocks.get(b.0 as usize).and_then(|x| x.name.clone()) {
            Some(name) => llvm_name('%', &name),
            None => format!("%{}", self.block(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::FunctionBuilder;

    #[test]
    fn floats_print_like_llvm_3_7() {
        assert_eq!(format_float(&Type::Float, u64::from(0.125f32.to_bits())), "1.250000e-01");
        assert_eq!(format_float(&Type::Float, u64::from(0.1f32.to_bits())), "0x3FB99999A0000000");
        assert_eq!(format_float(&Type::Double, 1.0e10f64.to_bits()), "1.000000e+10");
        assert_eq!(format_float(&Type::Double, (-0.0f64).to_bits()), "-0.000000e+00");
        assert_eq!(format_float(&Type::Float, u64::from(f32::INFINITY.to_bits())), "0x7FF0000000000000");
        assert_eq!(format_float(&Type::Half, 0x3c00), "0xH3C00");
    }

    #[test]
    fn names_are_quoted_and_escaped() {
        assert_eq!(llvm_name('@', "main"), "@main");
        assert_eq!(llvm_name('%', "dx.types.Handle"), "%dx.types.Handle");
        assert_eq!(llvm_name('%', "class.RWBuffer<float>"), "%\"class.RWBuffer<float>\"");
        assert_eq!(llvm_name('@', "\u{1}?f@@YAXXZ"), "@\"\\01?f@@YAXXZ\"");
        assert_eq!(llvm_name('%', "1x"), "%\"1x\"");
    }

    #[test]
    fn unreferenced_unnamed_block_has_no_label_but_keeps_its_number() {
        let mut m = Module::new_dxil();
        let void = m.types.void();
        let fty = m.types.function(void, vec![]);
        let f = m.declare_function("f", fty, None);
        let mut b = FunctionBuilder::new(&mut m, f);
        let entry = b.append_block(None);
        let dead = b.append_block(None);
        b.position_at_end(entry);
        b.ret(None);
        b.position_at_end(dead);
        let one = Value::Const(b.module.const_i32(1));
        let x = b.binary(crate::ir::BinOp::Add, one, one);
        let _ = x;
        b.ret(None);
        let text = print_module(&m);
        let expected = format!("define void @f() {{\n  ret void\n\n{}; No predecessors!\n  %2 = add i32 1, 1\n  ret void\n}}\n", " ".repeat(50));
        assert!(text.contains(&expected), "{text}");
    }
}
