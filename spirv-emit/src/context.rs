//! The context: owns and uniques types and constants, hands out ids, and keeps the module-level
//! lists whose order is chronological across the whole module (debug names, decorations, and the
//! type/constant section).
//!
//! Uniquing goes through hash maps keyed by the structural value ([`Type`], [`ConstKey`]), never a
//! linear search. Creation order is kept in `decls`, so the type/constant section of the module is
//! deterministic and every declaration comes after the declarations it uses (an id can only be
//! passed in after it was created).

use crate::error::{BuildError, Result};
use crate::id::SpvId;
use crate::types::{Decoration, ImageType, StructType, Type};
use rspirv::dr::{Instruction, Operand};
use spirv::{Op, StorageClass};
use hlslc_frontend::fxhash::{FxMap as HashMap, FxSet as HashSet};

/// The identity of a uniqued (non-specialization) constant. Scalar bits are normalized to the
/// type's width (sign-extended to 32 bits for narrow signed ints, as SPIR-V encodes them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConstKey {
    Bool(SpvId, bool),
    Scalar(SpvId, u64),
    Composite(SpvId, Vec<SpvId>),
    Null(SpvId),
    Undef(SpvId),
}

#[derive(Debug)]
pub struct Context {
    next_id: u32,
    type_ids: HashMap<Type, SpvId>,
    types: HashMap<SpvId, Type>,
    const_ids: HashMap<ConstKey, SpvId>,
    /// Ids of the uniqued constants other than `OpUndef`.
    plain_consts: HashSet<SpvId>,
    /// Types and constants (spec constants included) in creation order.
    decls: Vec<Instruction>,
    /// `OpName`/`OpMemberName` in the order given.
    names: Vec<Instruction>,
    /// Ids that already have an `OpName` through [`Context::name_once`].
    named: HashSet<SpvId>,
    /// Decorations in the order given.
    annotations: Vec<Instruction>,
}

impl Default for Context {
    fn default() -> Self {
        Context::new()
    }
}

impl Context {
    pub fn new() -> Context {
        Context {
            next_id: 1,
            type_ids: HashMap::default(),
            types: HashMap::default(),
            const_ids: HashMap::default(),
            plain_consts: HashSet::default(),
            decls: Vec::new(),
            names: Vec::new(),
            named: HashSet::default(),
            annotations: Vec::new(),
        }
    }

    /// A fresh id.
    pub fn alloc_id(&mut self) -> SpvId {
        let id = SpvId(self.next_id);
        self.next_id += 1;
        id
    }

    /// The id bound: one more than the largest id handed out.
    pub fn bound(&self) -> u32 {
        self.next_id
    }

    // ---- types -------------------------------------------------------------------------------

    /// The id of `ty`, declaring it (with its names and decorations) on first use.
    pub fn intern(&mut self, ty: Type) -> SpvId {
        if let Some(&id) = self.type_ids.get(&ty) {
            return id;
        }
        let id = self.alloc_id();
        let w = |x: u32| Operand::LiteralBit32(x);
        let r = |x: SpvId| Operand::IdRef(x.0);
        let (op, operands) = match &ty {
            Type::Void => (Op::TypeVoid, vec![]),
            Type::Bool => (Op::TypeBool, vec![]),
            Type::Int { width, signed } => (Op::TypeInt, vec![w(*width), w(*signed as u32)]),
            Type::Float { width } => (Op::TypeFloat, vec![w(*width)]),
            Type::Vector { elem, count } => (Op::TypeVector, vec![r(*elem), w(*count)]),
            Type::Matrix { column, columns } => (Op::TypeMatrix, vec![r(*column), w(*columns)]),
            Type::Array { elem, length, .. } => (Op::TypeArray, vec![r(*elem), r(*length)]),
            Type::RuntimeArray { elem, .. } => (Op::TypeRuntimeArray, vec![r(*elem)]),
            Type::Struct(s) => (Op::TypeStruct, s.members.iter().map(|m| r(m.ty)).collect()),
            Type::Pointer { storage, pointee } => (Op::TypePointer, vec![Operand::StorageClass(*storage), r(*pointee)]),
            Type::Function { ret, params } => {
                (Op::TypeFunction, std::iter::once(*ret).chain(params.iter().copied()).map(r).collect())
            }
            Type::Image(i) => (Op::TypeImage, image_operands(i)),
            Type::Sampler => (Op::TypeSampler, vec![]),
            Type::SampledImage { image } => (Op::TypeSampledImage, vec![r(*image)]),
            Type::AccelerationStructure => (Op::TypeAccelerationStructureKHR, vec![]),
            Type::RayQuery => (Op::TypeRayQueryKHR, vec![]),
            Type::Inline { opcode, operands } => (
                *opcode,
                operands
                    .iter()
                    .map(|o| match *o {
                        crate::types::InlineOperand::Id(id) => r(id),
                        crate::types::InlineOperand::Literal(x) => w(x),
                    })
                    .collect(),
            ),
        };
        self.decls.push(Instruction::new(op, None, Some(id.0), operands));
        match &ty {
            Type::Array { stride: Some(s), .. } | Type::RuntimeArray { stride: Some(s), .. } => {
                self.decorate(id, &Decoration::with_literals(spirv::Decoration::ArrayStride, &[*s]));
            }
            Type::Struct(s) => self.annotate_struct(id, s),
            _ => {}
        }
        self.type_ids.insert(ty.clone(), id);
        self.types.insert(id, ty);
        id
    }

    fn annotate_struct(&mut self, id: SpvId, s: &StructType) {
        if !s.name.is_empty() {
            self.name_once(id, &s.name);
        }
        for (i, m) in s.members.iter().enumerate() {
            if !m.name.is_empty() {
                self.member_name(id, i as u32, &m.name);
            }
        }
        for d in &s.decorations {
            self.decorate(id, d);
        }
        for (i, m) in s.members.iter().enumerate() {
            for d in &m.decorations {
                self.member_decorate(id, i as u32, d);
            }
        }
    }

    /// The type an id was declared as, if it is a type of this context.
    pub fn type_of(&self, id: SpvId) -> Option<&Type> {
        self.types.get(&id)
    }

    pub fn type_void(&mut self) -> SpvId {
        self.intern(Type::Void)
    }
    pub fn type_bool(&mut self) -> SpvId {
        self.intern(Type::Bool)
    }
    pub fn type_int(&mut self, width: u32, signed: bool) -> SpvId {
        self.intern(Type::Int { width, signed })
    }
    pub fn type_i32(&mut self) -> SpvId {
        self.type_int(32, true)
    }
    pub fn type_u32(&mut self) -> SpvId {
        self.type_int(32, false)
    }
    pub fn type_float(&mut self, width: u32) -> SpvId {
        self.intern(Type::Float { width })
    }
    pub fn type_f32(&mut self) -> SpvId {
        self.type_float(32)
    }
    pub fn type_vector(&mut self, elem: SpvId, count: u32) -> SpvId {
        self.intern(Type::Vector { elem, count })
    }
    /// `columns` columns of the vector type `column`.
    pub fn type_matrix(&mut self, column: SpvId, columns: u32) -> SpvId {
        self.intern(Type::Matrix { column, columns })
    }
    /// An array of `len` elements (`len` is a 32-bit uint constant, as DXC uses), with an optional
    /// `ArrayStride`.
    pub fn type_array(&mut self, elem: SpvId, len: u32, stride: Option<u32>) -> SpvId {
        let length = self.const_u32(len);
        self.intern(Type::Array { elem, length, stride })
    }
    /// An array whose length is the given constant or spec constant.
    pub fn type_array_of_length(&mut self, elem: SpvId, length: SpvId, stride: Option<u32>) -> SpvId {
        self.intern(Type::Array { elem, length, stride })
    }
    pub fn type_runtime_array(&mut self, elem: SpvId, stride: Option<u32>) -> SpvId {
        self.intern(Type::RuntimeArray { elem, stride })
    }
    pub fn type_struct(&mut self, s: StructType) -> SpvId {
        self.intern(Type::Struct(s))
    }
    pub fn type_pointer(&mut self, storage: StorageClass, pointee: SpvId) -> SpvId {
        self.intern(Type::Pointer { storage, pointee })
    }
    /// `OpTypeForwardPointer`: the id of a pointer type whose pointee is declared after it (a
    /// struct that contains a pointer to itself); [`Context::complete_pointer`] declares it.
    pub fn forward_pointer(&mut self, storage: StorageClass) -> SpvId {
        let id = self.alloc_id();
        self.decls.push(Instruction::new(Op::TypeForwardPointer, None, None, vec![Operand::IdRef(id.0), Operand::StorageClass(storage)]));
        id
    }
    /// Declares the pointer type `id` that [`Context::forward_pointer`] announced.
    pub fn complete_pointer(&mut self, id: SpvId, storage: StorageClass, pointee: SpvId) -> SpvId {
        let ty = Type::Pointer { storage, pointee };
        if let Some(&existing) = self.type_ids.get(&ty) {
            return existing;
        }
        self.decls.push(Instruction::new(Op::TypePointer, None, Some(id.0), vec![Operand::StorageClass(storage), Operand::IdRef(pointee.0)]));
        self.type_ids.insert(ty.clone(), id);
        self.types.insert(id, ty);
        id
    }
    pub fn type_function(&mut self, ret: SpvId, params: &[SpvId]) -> SpvId {
        self.intern(Type::Function { ret, params: params.to_vec() })
    }
    /// An image type; `name` (DXC style: `type.2d.image`) is given to the first creation only.
    pub fn type_image(&mut self, image: ImageType, name: Option<&str>) -> SpvId {
        let id = self.intern(Type::Image(image));
        if let Some(n) = name {
            self.name_once(id, n);
        }
        id
    }
    /// The sampler type; DXC names it `type.sampler`.
    pub fn type_sampler(&mut self, name: Option<&str>) -> SpvId {
        let id = self.intern(Type::Sampler);
        if let Some(n) = name {
            self.name_once(id, n);
        }
        id
    }
    pub fn type_sampled_image(&mut self, image: SpvId, name: Option<&str>) -> SpvId {
        let id = self.intern(Type::SampledImage { image });
        if let Some(n) = name {
            self.name_once(id, n);
        }
        id
    }
    /// `OpTypeAccelerationStructureKHR`; DXC names it `accelerationStructureNV`.
    pub fn type_acceleration_structure(&mut self, name: Option<&str>) -> SpvId {
        let id = self.intern(Type::AccelerationStructure);
        if let Some(n) = name {
            self.name_once(id, n);
        }
        id
    }
    /// `OpTypeRayQueryKHR`; DXC names it `rayQueryKHR`.
    pub fn type_ray_query(&mut self, name: Option<&str>) -> SpvId {
        let id = self.intern(Type::RayQuery);
        if let Some(n) = name {
            self.name_once(id, n);
        }
        id
    }

    // ---- constants ---------------------------------------------------------------------------

    fn intern_const(&mut self, key: ConstKey, op: Op, ty: SpvId, operands: Vec<Operand>) -> SpvId {
        if let Some(&id) = self.const_ids.get(&key) {
            return id;
        }
        let id = self.alloc_id();
        self.decls.push(Instruction::new(op, Some(ty.0), Some(id.0), operands));
        if !matches!(key, ConstKey::Undef(_)) {
            self.plain_consts.insert(id);
        }
        self.const_ids.insert(key, id);
        id
    }

    /// A constant the shader writes as an inline instruction (`[[vk::ext_instruction(/* OpConstant */
    /// 43)]]`): declared as written, never uniqued.
    pub fn inline_constant(&mut self, op: Op, ty: SpvId, operands: Vec<Operand>) -> SpvId {
        let id = self.alloc_id();
        self.decls.push(Instruction::new(op, Some(ty.0), Some(id.0), operands));
        id
    }

    /// Whether `id` is a (non-specialization, defined) constant.
    pub fn is_constant(&self, id: SpvId) -> bool {
        self.plain_consts.contains(&id)
    }

    /// The literal operand encoding `bits` for the int/float type `ty`, and the normalized bits.
    fn scalar_literal(&self, ty: SpvId, bits: u64) -> Result<(Operand, u64)> {
        let (width, signed) = match self.type_of(ty) {
            Some(Type::Int { width, signed }) => (*width, *signed),
            Some(Type::Float { width }) => (*width, false),
            _ => return Err(BuildError::BadScalarType(ty)),
        };
        match width {
            1..=32 => {
                let masked = if width == 32 { bits as u32 } else { (bits as u32) & ((1u32 << width) - 1) };
                let word = if signed && width < 32 && masked >> (width - 1) & 1 == 1 {
                    masked | !((1u32 << width) - 1)
                } else {
                    masked
                };
                Ok((Operand::LiteralBit32(word), word as u64))
            }
            33..=64 => Ok((Operand::LiteralBit64(bits), bits)),
            _ => Err(BuildError::BadScalarType(ty)),
        }
    }

    /// `OpConstantTrue`/`OpConstantFalse`.
    pub fn const_bool(&mut self, value: bool) -> SpvId {
        let ty = self.type_bool();
        let op = if value { Op::ConstantTrue } else { Op::ConstantFalse };
        self.intern_const(ConstKey::Bool(ty, value), op, ty, vec![])
    }

    /// `OpConstant` of the int or float type `ty` with the given bit pattern (low bits used).
    pub fn const_scalar(&mut self, ty: SpvId, bits: u64) -> Result<SpvId> {
        let (lit, norm) = self.scalar_literal(ty, bits)?;
        Ok(self.intern_const(ConstKey::Scalar(ty, norm), Op::Constant, ty, vec![lit]))
    }

    pub fn const_u32(&mut self, v: u32) -> SpvId {
        let ty = self.type_u32();
        self.intern_const(ConstKey::Scalar(ty, v as u64), Op::Constant, ty, vec![Operand::LiteralBit32(v)])
    }
    pub fn const_i32(&mut self, v: i32) -> SpvId {
        let ty = self.type_i32();
        let w = v as u32;
        self.intern_const(ConstKey::Scalar(ty, w as u64), Op::Constant, ty, vec![Operand::LiteralBit32(w)])
    }
    pub fn const_f32(&mut self, v: f32) -> SpvId {
        let ty = self.type_f32();
        let w = v.to_bits();
        self.intern_const(ConstKey::Scalar(ty, w as u64), Op::Constant, ty, vec![Operand::LiteralBit32(w)])
    }
    pub fn const_f64(&mut self, v: f64) -> SpvId {
        let ty = self.type_float(64);
        let b = v.to_bits();
        self.intern_const(ConstKey::Scalar(ty, b), Op::Constant, ty, vec![Operand::LiteralBit64(b)])
    }
    pub fn const_i64(&mut self, v: i64) -> SpvId {
        let ty = self.type_int(64, true);
        let b = v as u64;
        self.intern_const(ConstKey::Scalar(ty, b), Op::Constant, ty, vec![Operand::LiteralBit64(b)])
    }
    pub fn const_u64(&mut self, v: u64) -> SpvId {
        let ty = self.type_int(64, false);
        self.intern_const(ConstKey::Scalar(ty, v), Op::Constant, ty, vec![Operand::LiteralBit64(v)])
    }

    pub fn const_composite(&mut self, ty: SpvId, parts: &[SpvId]) -> SpvId {
        let operands = parts.iter().map(|p| Operand::IdRef(p.0)).collect();
        self.intern_const(ConstKey::Composite(ty, parts.to_vec()), Op::ConstantComposite, ty, operands)
    }
    pub fn const_null(&mut self, ty: SpvId) -> SpvId {
        self.intern_const(ConstKey::Null(ty), Op::ConstantNull, ty, vec![])
    }
    /// A module-level `OpUndef` of `ty` (uniqued).
    pub fn undef(&mut self, ty: SpvId) -> SpvId {
        self.intern_const(ConstKey::Undef(ty), Op::Undef, ty, vec![])
    }

    /// Specialization constants are never uniqued: each one gets its own id (and its own
    /// `SpecId`, decorated by the caller).
    pub fn spec_const_bool(&mut self, default: bool) -> SpvId {
        let ty = self.type_bool();
        let id = self.alloc_id();
        let op = if default { Op::SpecConstantTrue } else { Op::SpecConstantFalse };
        self.decls.push(Instruction::new(op, Some(ty.0), Some(id.0), vec![]));
        id
    }
    pub fn spec_const_scalar(&mut self, ty: SpvId, bits: u64) -> Result<SpvId> {
        let (lit, _) = self.scalar_literal(ty, bits)?;
        let id = self.alloc_id();
        self.decls.push(Instruction::new(Op::SpecConstant, Some(ty.0), Some(id.0), vec![lit]));
        Ok(id)
    }
    pub fn spec_const_composite(&mut self, ty: SpvId, parts: &[SpvId]) -> SpvId {
        let id = self.alloc_id();
        let operands = parts.iter().map(|p| Operand::IdRef(p.0)).collect();
        self.decls.push(Instruction::new(Op::SpecConstantComposite, Some(ty.0), Some(id.0), operands));
        id
    }
    /// `OpSpecConstantOp ty op operands...`.
    pub fn spec_const_op(&mut self, ty: SpvId, op: Op, operands: &[SpvId]) -> SpvId {
        let id = self.alloc_id();
        let mut ops = vec![Operand::LiteralSpecConstantOpInteger(op)];
        ops.extend(operands.iter().map(|p| Operand::IdRef(p.0)));
        self.decls.push(Instruction::new(Op::SpecConstantOp, Some(ty.0), Some(id.0), ops));
        id
    }

    // ---- names and decorations ---------------------------------------------------------------

    /// `OpName id "name"`.
    pub fn name(&mut self, id: SpvId, name: &str) {
        self.named.insert(id);
        self.names.push(Instruction::new(Op::Name, None, None, vec![Operand::IdRef(id.0), Operand::from(name)]));
    }
    /// The name `OpName` gave `id`, if any.
    pub fn name_of(&self, id: SpvId) -> Option<String> {
        self.names.iter().find_map(|i| match (i.class.opcode, i.operands.first(), i.operands.get(1)) {
            (Op::Name, Some(Operand::IdRef(t)), Some(Operand::LiteralString(s))) if *t == id.0 => Some(s.clone()),
            _ => None,
        })
    }
    /// `OpName`, unless `id` already has one.
    pub fn name_once(&mut self, id: SpvId, name: &str) {
        if !self.named.contains(&id) {
            self.name(id, name);
        }
    }
    pub fn member_name(&mut self, id: SpvId, member: u32, name: &str) {
        self.names.push(Instruction::new(
            Op::MemberName,
            None,
            None,
            vec![Operand::IdRef(id.0), Operand::LiteralBit32(member), Operand::from(name)],
        ));
    }
    /// `OpDecorate`, `OpDecorateId` or `OpDecorateString`, after the decoration's operands.
    pub fn decorate(&mut self, target: SpvId, d: &Decoration) {
        let op = if d.has_id() {
            Op::DecorateId
        } else if d.has_string() {
            Op::DecorateString
        } else {
            Op::Decorate
        };
        let mut operands = vec![Operand::IdRef(target.0), Operand::Decoration(d.kind)];
        operands.extend(d.args.iter().cloned());
        self.annotations.push(Instruction::new(op, None, None, operands));
    }
    /// `OpMemberDecorate` or `OpMemberDecorateString`.
    pub fn member_decorate(&mut self, target: SpvId, member: u32, d: &Decoration) {
        let op = if d.has_string() { Op::MemberDecorateString } else { Op::MemberDecorate };
        let mut operands = vec![Operand::IdRef(target.0), Operand::LiteralBit32(member), Operand::Decoration(d.kind)];
        operands.extend(d.args.iter().cloned());
        self.annotations.push(Instruction::new(op, None, None, operands));
    }

    /// Takes the three chronological lists: (names, annotations, types-and-constants), the last
    /// one with the constants first (see [`constants_first`]).
    pub(crate) fn take_sections(&mut self) -> (Vec<Instruction>, Vec<Instruction>, Vec<Instruction>) {
        let decls = constants_first(std::mem::take(&mut self.decls));
        (std::mem::take(&mut self.names), std::mem::take(&mut self.annotations), decls)
    }
}

/// DXC's order of the type/constant section: every constant (in creation order, each preceded by
/// the types it needs), then the remaining types in creation order. So a constant used only in
/// a function body still precedes the types of the resource variables, as in DXC's output.
/// Dependencies stay before their users: a constant's operands are older than it, and the
/// remaining types keep their relative order.
fn constants_first(decls: Vec<Instruction>) -> Vec<Instruction> {
    let is_const = |i: &Instruction| {
        matches!(
            i.class.opcode,
            Op::Constant
                | Op::ConstantComposite
                | Op::ConstantTrue
                | Op::ConstantFalse
                | Op::ConstantNull
                | Op::SpecConstant
                | Op::SpecConstantComposite
                | Op::SpecConstantTrue
                | Op::SpecConstantFalse
                | Op::SpecConstantOp
        )
    };
    let index: HashMap<u32, usize> = decls.iter().enumerate().filter_map(|(n, i)| i.result_id.map(|r| (r, n))).collect();
    let mut placed = vec![false; decls.len()];
    let mut order = Vec::with_capacity(decls.len());
    fn place(n: usize, decls: &[Instruction], index: &HashMap<u32, usize>, placed: &mut [bool], order: &mut Vec<usize>) {
        if placed[n] {
            return;
        }
        placed[n] = true;
        let i = &decls[n];
        let deps = i.result_type.into_iter().chain(i.operands.iter().filter_map(|o| match o {
            Operand::IdRef(r) => Some(*r),
            _ => None,
        }));
        for d in deps {
            if let Some(&k) = index.get(&d) {
                if k < n {
                    place(k, decls, index, placed, order);
                }
            }
        }
        order.push(n);
    }
    for n in 0..decls.len() {
        if is_const(&decls[n]) {
            place(n, &decls, &index, &mut placed, &mut order);
        }
    }
    for n in 0..decls.len() {
        place(n, &decls, &index, &mut placed, &mut order);
    }
    let mut slots: Vec<Option<Instruction>> = decls.into_iter().map(Some).collect();
    order.into_iter().filter_map(|n| slots[n].take()).collect()
}

fn image_operands(i: &ImageType) -> Vec<Operand> {
    let mut v = vec![
        Operand::IdRef(i.sampled_type.0),
        Operand::Dim(i.dim),
        Operand::LiteralBit32(i.depth),
        Operand::LiteralBit32(i.arrayed as u32),
        Operand::LiteralBit32(i.multisampled as u32),
        Operand::LiteralBit32(i.sampled),
        Operand::ImageFormat(i.format),
    ];
    if let Some(a) = i.access {
        v.push(Operand::AccessQualifier(a));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::StructMember;

    #[test]
    fn types_are_uniqued_structurally() {
        let mut c = Context::new();
        let f = c.type_f32();
        let v4 = c.type_vector(f, 4);
        assert_eq!(c.type_vector(f, 4), v4);
        assert_ne!(c.type_vector(f, 3), v4);
        assert_eq!(c.type_f32(), f);
        let p1 = c.type_pointer(StorageClass::Function, v4);
        let p2 = c.type_pointer(StorageClass::Private, v4);
        assert_ne!(p1, p2);
        // Arrays with and without a stride are different types; the length is a uint constant.
        let a = c.type_array(f, 4, None);
        let b = c.type_array(f, 4, Some(16));
        assert_ne!(a, b);
        assert_eq!(c.type_array(f, 4, Some(16)), b);
        assert_eq!(c.const_u32(4), match c.type_of(a) { Some(Type::Array { length, .. }) => *length, _ => SpvId(0) });
    }

    #[test]
    fn structs_differ_by_name() {
        let mut c = Context::new();
        let f = c.type_f32();
        let mk = |name: &str| StructType {
            name: name.into(),
            members: vec![StructMember { ty: f, name: "x".into(), decorations: vec![] }],
            decorations: vec![],
        };
        let s = c.type_struct(mk("S"));
        let t = c.type_struct(mk("T"));
        assert_ne!(s, t);
        assert_eq!(c.type_struct(mk("S")), s);
        let (names, _, _) = c.take_sections();
        // One OpName and one OpMemberName per distinct struct.
        assert_eq!(names.len(), 4);
    }

    #[test]
    fn constants_are_uniqued_and_normalized() {
        let mut c = Context::new();
        let i16t = c.type_int(16, true);
        let a = c.const_scalar(i16t, 0xffff).unwrap();
        let b = c.const_scalar(i16t, (-1i64) as u64).unwrap();
        assert_eq!(a, b);
        let (_, _, decls) = c.take_sections();
        let inst = decls.iter().find(|i| i.result_id == Some(a.0)).unwrap();
        // Narrow signed ints are sign-extended to a full word.
        assert_eq!(inst.operands, vec![Operand::LiteralBit32(0xffff_ffff)]);
        let mut c = Context::new();
        assert_eq!(c.const_f32(0.5), c.const_f32(0.5));
        assert_ne!(c.const_f32(0.0), c.const_f32(-0.0));
        assert_ne!(c.const_i32(1), c.const_u32(1));
        let v = c.type_void();
        assert_eq!(c.const_scalar(v, 1), Err(BuildError::BadScalarType(v)));
        // Spec constants are never uniqued.
        let u = c.type_u32();
        assert_ne!(c.spec_const_scalar(u, 3).unwrap(), c.spec_const_scalar(u, 3).unwrap());
    }
}
