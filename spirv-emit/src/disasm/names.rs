//! Friendly names for ids, by the rules of SPIRV-Tools' `FriendlyNameMapper`: `OpName` first,
//! then built-in decorations (`gl_Position`), then names derived from types (`v4float`,
//! `_ptr_Function_int`, `_arr_float_uint_4`, `_struct_5`) and constants (`int_n1`, `float_0_5`,
//! `true`), and the id number for everything else. Names are sanitized to `[A-Za-z0-9_]` (one `_`
//! per offending byte) and made unique with `_0`, `_1`... suffixes, first come first served.

use super::number::{format_f16, format_f32, format_f64};
use rspirv::binary::Disassemble;
use rspirv::dr::{Instruction, Operand};
use spirv::{BuiltIn, Decoration, Op};
use std::collections::{HashMap, HashSet};

/// The numeric class of a type, for formatting typed literals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumKind {
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

/// Formats a typed literal operand of an `OpConstant`/`OpSpecConstant`/`OpSwitch`.
pub fn format_typed(op: &Operand, kind: Option<NumKind>) -> String {
    match (op, kind) {
        (Operand::LiteralBit32(w), Some(NumKind::Int { signed: true, .. })) => (*w as i32).to_string(),
        (Operand::LiteralBit32(w), Some(NumKind::Float { width: 16 })) => format_f16(*w as u16),
        (Operand::LiteralBit32(w), Some(NumKind::Float { .. })) => format_f32(*w),
        (Operand::LiteralBit32(w), _) => w.to_string(),
        (Operand::LiteralBit64(w), Some(NumKind::Int { signed: true, .. })) => (*w as i64).to_string(),
        (Operand::LiteralBit64(w), Some(NumKind::Float { .. })) => format_f64(*w),
        (Operand::LiteralBit64(w), _) => w.to_string(),
        (other, _) => other.disassemble(),
    }
}

pub fn sanitize(s: &str) -> String {
    if s.is_empty() {
        return "_".into();
    }
    s.bytes().map(|b| if b.is_ascii_alphanumeric() || b == b'_' { b as char } else { '_' }).collect()
}

#[derive(Default)]
pub struct NameMap {
    names: HashMap<u32, String>,
    used: HashSet<String>,
    /// Numeric kind of every int/float type id.
    pub num_types: HashMap<u32, NumKind>,
    /// Result type of every id that has one.
    pub value_types: HashMap<u32, u32>,
}

impl NameMap {
    pub fn name(&self, id: u32) -> String {
        self.names.get(&id).cloned().unwrap_or_else(|| id.to_string())
    }

    fn save(&mut self, id: u32, suggested: &str) {
        if self.names.contains_key(&id) {
            return;
        }
        let base = sanitize(suggested);
        let mut name = base.clone();
        let mut i = 0u32;
        while !self.used.insert(name.clone()) {
            name = format!("{base}_{i}");
            i += 1;
        }
        self.names.insert(id, name);
    }

    /// Builds the map over the whole module, in instruction order.
    pub fn build(insts: &[Instruction]) -> NameMap {
        let mut m = NameMap::default();
        for inst in insts {
            if let (Some(r), Some(t)) = (inst.result_id, inst.result_type) {
                m.value_types.insert(r, t);
            }
            m.visit(inst);
        }
        m
    }

    fn id_at(inst: &Instruction, i: usize) -> Option<u32> {
        match inst.operands.get(i) {
            Some(Operand::IdRef(id)) => Some(*id),
            _ => None,
        }
    }
    fn lit_at(inst: &Instruction, i: usize) -> Option<u32> {
        match inst.operands.get(i) {
            Some(Operand::LiteralBit32(w)) => Some(*w),
            _ => None,
        }
    }

    fn visit(&mut self, inst: &Instruction) {
        let rid = inst.result_id;
        match inst.class.opcode {
            Op::Name => {
                if let (Some(target), Some(Operand::LiteralString(s))) = (Self::id_at(inst, 0), inst.operands.get(1)) {
                    let s = s.split('\0').next().unwrap_or("");
                    self.save(target, s);
                }
            }
            Op::Decorate => {
                if let (Some(target), Some(Operand::Decoration(Decoration::BuiltIn)), Some(Operand::BuiltIn(b))) =
                    (Self::id_at(inst, 0), inst.operands.get(1), inst.operands.get(2))
                {
                    if let Some(n) = builtin_name(*b) {
                        self.save(target, &n);
                    }
                }
            }
            Op::TypeVoid => self.save_r(rid, "void"),
            Op::TypeBool => self.save_r(rid, "bool"),
            Op::TypeInt => {
                let width = Self::lit_at(inst, 0).unwrap_or(0);
                let signed = Self::lit_at(inst, 1).unwrap_or(0) != 0;
                let (mut sign, root) = match width {
                    8 => ("", "char".to_string()),
                    16 => ("", "short".to_string()),
                    32 => ("", "int".to_string()),
                    64 => ("", "long".to_string()),
                    w => ("i", w.to_string()),
                };
                if !signed {
                    sign = "u";
                }
                self.save_r(rid, &format!("{sign}{root}"));
                if let Some(r) = rid {
                    self.num_types.insert(r, NumKind::Int { width, signed });
                }
            }
            Op::TypeFloat => {
                let width = Self::lit_at(inst, 0).unwrap_or(0);
                let n = match width {
                    16 => "half".to_string(),
                    32 => "float".to_string(),
                    64 => "double".to_string(),
                    w => format!("fp{w}"),
                };
                self.save_r(rid, &n);
                if let Some(r) = rid {
                    self.num_types.insert(r, NumKind::Float { width });
                }
            }
            Op::TypeVector | Op::TypeMatrix => {
                let prefix = if inst.class.opcode == Op::TypeVector { "v" } else { "mat" };
                let comp = Self::id_at(inst, 0).map(|c| self.name(c)).unwrap_or_default();
                let count = Self::lit_at(inst, 1).unwrap_or(0);
                self.save_r(rid, &format!("{prefix}{count}{comp}"));
            }
            Op::TypeArray => {
                let e = Self::id_at(inst, 0).map(|c| self.name(c)).unwrap_or_default();
                let l = Self::id_at(inst, 1).map(|c| self.name(c)).unwrap_or_default();
                self.save_r(rid, &format!("_arr_{e}_{l}"));
            }
            Op::TypeRuntimeArray => {
                let e = Self::id_at(inst, 0).map(|c| self.name(c)).unwrap_or_default();
                self.save_r(rid, &format!("_runtimearr_{e}"));
            }
            Op::TypePointer => {
                let sc = inst.operands.first().map(|o| o.disassemble()).unwrap_or_default();
                let p = Self::id_at(inst, 1).map(|c| self.name(c)).unwrap_or_default();
                self.save_r(rid, &format!("_ptr_{sc}_{p}"));
            }
            Op::TypeEvent => self.save_r(rid, "Event"),
            Op::TypeDeviceEvent => self.save_r(rid, "DeviceEvent"),
            Op::TypeReserveId => self.save_r(rid, "ReserveId"),
            Op::TypeQueue => self.save_r(rid, "Queue"),
            Op::TypePipeStorage => self.save_r(rid, "PipeStorage"),
            Op::TypeNamedBarrier => self.save_r(rid, "NamedBarrier"),
            Op::TypeStruct => {
                if let Some(r) = rid {
                    self.save(r, &format!("_struct_{r}"));
                }
            }
            Op::ConstantTrue => self.save_r(rid, "true"),
            Op::ConstantFalse => self.save_r(rid, "false"),
            Op::Constant => {
                if let (Some(t), Some(v)) = (inst.result_type, inst.operands.first()) {
                    let kind = self.num_types.get(&t).copied();
                    let value = format_typed(v, kind).replace('-', "n");
                    let n = format!("{}_{}", self.name(t), value);
                    self.save_r(rid, &n);
                }
            }
            _ => {
                if let Some(r) = rid {
                    if !self.names.contains_key(&r) {
                        self.save(r, &r.to_string());
                    }
                }
            }
        }
    }

    fn save_r(&mut self, rid: Option<u32>, s: &str) {
        if let Some(r) = rid {
            self.save(r, s);
        }
    }
}

/// The name SPIRV-Tools gives a variable decorated with a built-in.
fn builtin_name(b: BuiltIn) -> Option<String> {
    use BuiltIn::*;
    let gl = |s: &str| Some(format!("gl_{s}"));
    match b {
        Position => gl("Position"),
        PointSize => gl("PointSize"),
        ClipDistance => gl("ClipDistance"),
        CullDistance => gl("CullDistance"),
        VertexId => gl("VertexID"),
        InstanceId => gl("InstanceID"),
        PrimitiveId => gl("PrimitiveID"),
        InvocationId => gl("InvocationID"),
        Layer => gl("Layer"),
        ViewportIndex => gl("ViewportIndex"),
        TessLevelOuter => gl("TessLevelOuter"),
        TessLevelInner => gl("TessLevelInner"),
        TessCoord => gl("TessCoord"),
        PatchVertices => gl("PatchVertices"),
        FragCoord => gl("FragCoord"),
        PointCoord => gl("PointCoord"),
        FrontFacing => gl("FrontFacing"),
        SampleId => gl("SampleID"),
        SamplePosition => gl("SamplePosition"),
        SampleMask => gl("SampleMask"),
        FragDepth => gl("FragDepth"),
        HelperInvocation => gl("HelperInvocation"),
        NumWorkgroups => gl("NumWorkGroups"),
        WorkgroupSize => gl("WorkGroupSize"),
        WorkgroupId => gl("WorkGroupID"),
        LocalInvocationId => gl("LocalInvocationID"),
        GlobalInvocationId => gl("GlobalInvocationID"),
        LocalInvocationIndex => gl("LocalInvocationIndex"),
        VertexIndex => gl("VertexIndex"),
        InstanceIndex => gl("InstanceIndex"),
        WorkDim | GlobalSize | EnqueuedWorkgroupSize | GlobalOffset | GlobalLinearId | SubgroupSize
        | SubgroupMaxSize | NumSubgroups | NumEnqueuedSubgroups | SubgroupId | SubgroupLocalInvocationId
        | SubgroupEqMask | SubgroupGeMask | SubgroupGtMask | SubgroupLeMask | SubgroupLtMask => {
            let n = format!("{b:?}");
            // The subgroup masks are named with their KHR suffix.
            Some(if n.ends_with("Mask") { format!("{n}KHR") } else { n })
        }
        _ => None,
    }
}
