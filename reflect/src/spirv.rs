//! Reflection of a SPIR-V module: read from the module itself (types, decorations, names,
//! execution modes), so it describes exactly what a Vulkan driver is given.

use crate::{BaseType, EntryPoint, Geometry, Member, Mesh, Reflection, Resource, ResourceKind, ResourceRef, SpecConstant, StageVariable, Target, Tessellation, Type};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{BuiltIn, Decoration, Dim, ExecutionMode, ExecutionModel, Op, StorageClass, Word};
use std::collections::{HashMap, HashSet};

/// SPIR-V that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectError(pub String);

impl std::fmt::Display for ReflectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reflects a SPIR-V binary (the words as written: header first).
pub fn from_spirv(words: &[u32]) -> Result<Reflection, ReflectError> {
    let words = without_module_ext_insts(words);
    let module = rspirv::dr::load_words(&words).map_err(|e| ReflectError(format!("cannot parse the SPIR-V module: {e}")))?;
    Ok(from_spirv_module(&module))
}

/// `words` without the `OpExtInst`s outside functions (debug information:
/// `NonSemantic.Shader.DebugInfo.100`, `OpenCL.DebugInfo.100`), which rspirv's loader refuses
/// and reflection does not read. The header and every other instruction stay as they are.
fn without_module_ext_insts(words: &[u32]) -> std::borrow::Cow<'_, [u32]> {
    const EXT_INST: u32 = Op::ExtInst as u32;
    const FUNCTION: u32 = Op::Function as u32;
    let mut out: Option<Vec<u32>> = None;
    let mut i = 5.min(words.len());
    while i < words.len() {
        let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if count == 0 || i + count > words.len() || op == FUNCTION {
            break;
        }
        if op == EXT_INST {
            out.get_or_insert_with(|| words[..i].to_vec());
        } else if let Some(o) = out.as_mut() {
            o.extend_from_slice(&words[i..i + count]);
        }
        i += count;
    }
    match out {
        Some(mut o) => {
            o.extend_from_slice(&words[i..]);
            std::borrow::Cow::Owned(o)
        }
        None => std::borrow::Cow::Borrowed(words),
    }
}

/// Reflects a loaded SPIR-V module (what [`from_spirv`] does after parsing).
pub fn from_spirv_module(module: &Module) -> Reflection {
    let f = Facts::new(module);
    let mut r = Reflection::empty(Target::Spirv);
    r.entry_points = module.entry_points.iter().map(|ep| f.entry_point(module, ep)).collect();
    for inst in &module.types_global_values {
        if inst.class.opcode != Op::Variable {
            continue;
        }
        let (Some(id), Some(ptr)) = (inst.result_id, inst.result_type) else { continue };
        let Some(Operand::StorageClass(sc)) = inst.operands.first() else { continue };
        if let Some(res) = f.resource(id, ptr, *sc) {
            if res.kind == ResourceKind::PushConstant {
                r.push_constants.push(res);
            } else {
                r.resources.push(res);
            }
        }
    }
    // Counter buffers: the CounterBuffer decoration when present, else DXC's naming
    // (`counter.var.<name>`).
    let counters: Vec<(String, Option<u32>, Option<u32>)> =
        r.resources.iter().filter(|x| x.kind == ResourceKind::Counter).map(|x| (x.name.clone(), x.set, x.binding)).collect();
    for res in &mut r.resources {
        if res.kind == ResourceKind::Counter {
            continue;
        }
        let by_name = format!("counter.var.{}", res.name);
        if let Some((name, set, binding)) = counters.iter().find(|c| c.0 == by_name) {
            res.counter_buffer = Some(ResourceRef { name: name.clone(), set: *set, binding: *binding });
        }
    }
    for (&id, value) in &f.spec_values {
        let Some(spec_id) = f.decoration(id, Decoration::SpecId).and_then(|ops| lit(ops.first())) else { continue };
        let ty = f.type_of_constant.get(&id).map(|t| f.ty(*t)).unwrap_or_else(|| Type::scalar(BaseType::Unknown));
        r.spec_constants.push(SpecConstant { name: f.name(id), id: spec_id, ty, default: value.clone() });
    }
    r.spec_constants.sort_by_key(|s| s.id);
    r
}

fn lit(op: Option<&Operand>) -> Option<u32> {
    match op {
        Some(Operand::LiteralBit32(v)) => Some(*v),
        _ => None,
    }
}

fn id_of(op: Option<&Operand>) -> Option<Word> {
    match op {
        Some(Operand::IdRef(v)) => Some(*v),
        _ => None,
    }
}

/// What the module says about its ids.
struct Facts<'m> {
    names: HashMap<Word, String>,
    member_names: HashMap<(Word, u32), String>,
    decorations: HashMap<Word, Vec<(Decoration, &'m [Operand])>>,
    member_decorations: HashMap<(Word, u32), Vec<(Decoration, &'m [Operand])>>,
    defs: HashMap<Word, &'m Instruction>,
    /// Integer values of `OpConstant`/`OpSpecConstant` (for array lengths and workgroup sizes).
    int_values: HashMap<Word, u64>,
    /// Defaults of scalar specialization constants, as JSON values.
    spec_values: std::collections::BTreeMap<Word, serde_json::Value>,
    type_of_constant: HashMap<Word, Word>,
    used: HashSet<Word>,
}

impl<'m> Facts<'m> {
    fn new(m: &'m Module) -> Facts<'m> {
        let mut f = Facts {
            names: HashMap::new(),
            member_names: HashMap::new(),
            decorations: HashMap::new(),
            member_decorations: HashMap::new(),
            defs: HashMap::new(),
            int_values: HashMap::new(),
            spec_values: Default::default(),
            type_of_constant: HashMap::new(),
            used: HashSet::new(),
        };
        for inst in &m.debug_names {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (Op::Name, [Operand::IdRef(id), Operand::LiteralString(s)]) => {
                    f.names.insert(*id, s.clone());
                }
                (Op::MemberName, [Operand::IdRef(id), Operand::LiteralBit32(i), Operand::LiteralString(s)]) => {
                    f.member_names.insert((*id, *i), s.clone());
                }
                _ => {}
            }
        }
        for inst in &m.annotations {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (Op::Decorate | Op::DecorateString | Op::DecorateId, [Operand::IdRef(id), Operand::Decoration(d), rest @ ..]) => {
                    f.decorations.entry(*id).or_default().push((*d, rest));
                }
                (Op::MemberDecorate | Op::MemberDecorateString, [Operand::IdRef(id), Operand::LiteralBit32(i), Operand::Decoration(d), rest @ ..]) => {
                    f.member_decorations.entry((*id, *i)).or_default().push((*d, rest));
                }
                _ => {}
            }
        }
        for inst in &m.types_global_values {
            let Some(id) = inst.result_id else { continue };
            f.defs.insert(id, inst);
            let ty = inst.result_type;
            match inst.class.opcode {
                Op::Constant | Op::SpecConstant => {
                    let v = match inst.operands.first() {
                        Some(Operand::LiteralBit32(v)) => Some(u64::from(*v)),
                        Some(Operand::LiteralBit64(v)) => Some(*v),
                        _ => None,
                    };
                    if let Some(v) = v {
                        f.int_values.insert(id, v);
                    }
                    if inst.class.opcode == Op::SpecConstant {
                        if let (Some(v), Some(t)) = (v, ty) {
                            let value = f.scalar_value(t, v);
                            f.spec_values.insert(id, value);
                        }
                    }
                }
                Op::SpecConstantTrue | Op::SpecConstantFalse => {
                    f.spec_values.insert(id, serde_json::Value::Bool(inst.class.opcode == Op::SpecConstantTrue));
                }
                _ => {}
            }
            if let Some(t) = ty {
                f.type_of_constant.insert(id, t);
            }
        }
        for func in &m.functions {
            for inst in func.blocks.iter().flat_map(|b| b.instructions.iter()) {
                for op in &inst.operands {
                    if let Operand::IdRef(id) = op {
                        f.used.insert(*id);
                    }
                }
            }
        }
        f
    }

    /// A literal of scalar type `t` as JSON.
    fn scalar_value(&self, t: Word, v: u64) -> serde_json::Value {
        use serde_json::Value;
        let Some(def) = self.defs.get(&t) else { return Value::from(v) };
        match (def.class.opcode, def.operands.as_slice()) {
            (Op::TypeFloat, [Operand::LiteralBit32(16), ..]) => Value::from(f64::from(half_to_f32(v as u16))),
            (Op::TypeFloat, [Operand::LiteralBit32(32), ..]) => Value::from(f64::from(f32::from_bits(v as u32))),
            (Op::TypeFloat, [Operand::LiteralBit32(64), ..]) => Value::from(f64::from_bits(v)),
            (Op::TypeInt, [Operand::LiteralBit32(w), Operand::LiteralBit32(1)]) => {
                let shift = 64 - w.min(&64);
                Value::from(((v << shift) as i64) >> shift)
            }
            _ => Value::from(v),
        }
    }

    fn name(&self, id: Word) -> String {
        self.names.get(&id).cloned().unwrap_or_else(|| format!("_{id}"))
    }

    fn decoration(&self, id: Word, d: Decoration) -> Option<&'m [Operand]> {
        self.decorations.get(&id)?.iter().find(|(x, _)| *x == d).map(|(_, ops)| *ops)
    }
    fn has(&self, id: Word, d: Decoration) -> bool {
        self.decoration(id, d).is_some()
    }
    fn member_decoration(&self, id: Word, i: u32, d: Decoration) -> Option<&'m [Operand]> {
        self.member_decorations.get(&(id, i))?.iter().find(|(x, _)| *x == d).map(|(_, ops)| *ops)
    }

    fn op(&self, id: Word) -> Option<Op> {
        self.defs.get(&id).map(|d| d.class.opcode)
    }

    /// The type `id` with the layout of its own decorations (array strides, member offsets).
    fn ty(&self, id: Word) -> Type {
        self.ty_depth(id, 0)
    }

    fn ty_depth(&self, id: Word, depth: u32) -> Type {
        let unknown = || Type::scalar(BaseType::Unknown);
        let Some(def) = self.defs.get(&id) else { return unknown() };
        if depth > 64 {
            return unknown();
        }
        let ops = def.operands.as_slice();
        match def.class.opcode {
            Op::TypeBool => Type::scalar(BaseType::Bool),
            Op::TypeInt => {
                let (w, signed) = (lit(ops.first()).unwrap_or(32), lit(ops.get(1)).unwrap_or(0) == 1);
                Type::scalar(match (w, signed) {
                    (8, true) => BaseType::Int8,
                    (8, false) => BaseType::Uint8,
                    (16, true) => BaseType::Int16,
                    (16, false) => BaseType::Uint16,
                    (64, true) => BaseType::Int64,
                    (64, false) => BaseType::Uint64,
                    (_, true) => BaseType::Int,
                    (_, false) => BaseType::Uint,
                })
            }
            Op::TypeFloat => Type::scalar(match lit(ops.first()) {
                Some(16) => BaseType::Half,
                Some(64) => BaseType::Double,
                _ => BaseType::Float,
            }),
            Op::TypeVector => {
                let c = self.ty_depth(id_of(ops.first()).unwrap_or(0), depth + 1);
                Type::vector(c.base, lit(ops.get(1)).unwrap_or(1))
            }
            Op::TypeMatrix => {
                let col = self.ty_depth(id_of(ops.first()).unwrap_or(0), depth + 1);
                let n = lit(ops.get(1)).unwrap_or(1);
                let mut t = Type::vector(col.base, col.vecsize);
                // DXC maps HLSL floatRxC to R SPIR-V columns of C elements.
                t.name = format!("{}{}x{}", crate::scalar_name(col.base), n, col.vecsize);
                t.columns = n;
                t
            }
            Op::TypeArray | Op::TypeRuntimeArray => {
                let mut t = self.ty_depth(id_of(ops.first()).unwrap_or(0), depth + 1);
                let len = if def.class.opcode == Op::TypeArray {
                    id_of(ops.get(1)).and_then(|l| self.int_values.get(&l)).map_or(0, |v| *v as u32)
                } else {
                    0
                };
                t.array.insert(0, len);
                t.array_stride = self.decoration(id, Decoration::ArrayStride).and_then(|o| lit(o.first()));
                t
            }
            Op::TypeStruct => {
                let mut members = Vec::new();
                for (i, op) in ops.iter().enumerate() {
                    let i = i as u32;
                    let Operand::IdRef(mt) = op else { continue };
                    let mut ty = self.ty_depth(*mt, depth + 1);
                    if let Some(s) = self.member_decoration(id, i, Decoration::MatrixStride).and_then(|o| lit(o.first())) {
                        ty.matrix_stride = Some(s);
                    }
                    if self.member_decoration(id, i, Decoration::RowMajor).is_some() {
                        ty.matrix_layout = Some("row_major".into());
                    } else if self.member_decoration(id, i, Decoration::ColMajor).is_some() {
                        ty.matrix_layout = Some("column_major".into());
                    }
                    let offset = self.member_decoration(id, i, Decoration::Offset).and_then(|o| lit(o.first()));
                    let name = self.member_names.get(&(id, i)).cloned().unwrap_or_else(|| format!("_m{i}"));
                    members.push(Member { name, offset, size: size_of(&ty), ty });
                }
                let size = members.last().map_or(0, |m| m.offset.unwrap_or(0) + m.size);
                Type { name: self.name(id), base: BaseType::Struct, vecsize: 1, columns: 1, array: Vec::new(), array_stride: None, matrix_stride: None, matrix_layout: None, size: Some(size), members }
            }
            Op::TypeImage => named(self.name(id), BaseType::Image),
            Op::TypeSampler => named(self.name(id), BaseType::Sampler),
            Op::TypeSampledImage => named(self.name(id), BaseType::SampledImage),
            Op::TypeAccelerationStructureKHR => named(self.name(id), BaseType::AccelerationStructure),
            Op::TypePointer => {
                // A buffer device address (`vk::BufferPointer`): 8 bytes, named by what it
                // points to (as spirv-cross names it).
                let pointee = id_of(ops.get(1));
                let physical = matches!(ops.first(), Some(Operand::StorageClass(StorageClass::PhysicalStorageBuffer)));
                let mut t = named(self.name(if physical { pointee.unwrap_or(id) } else { id }), BaseType::Pointer);
                if let (true, Some(p)) = (physical, pointee) {
                    t.size = Some(8);
                    // The pointee, as the one member (bounded by the depth limit for a struct
                    // that points to itself).
                    let ty = self.ty_depth(p, depth + 1);
                    t.members = vec![Member { name: String::new(), offset: None, size: size_of(&ty), ty }];
                }
                t
            }
            _ => unknown(),
        }
    }

    /// The resource declared by variable `id` of pointer type `ptr`, `None` when it is not one.
    fn resource(&self, id: Word, ptr: Word, sc: StorageClass) -> Option<Resource> {
        if !matches!(sc, StorageClass::Uniform | StorageClass::UniformConstant | StorageClass::StorageBuffer | StorageClass::PushConstant) {
            return None;
        }
        let pointee = id_of(self.defs.get(&ptr)?.operands.get(1))?;
        // Strip the resource array.
        let mut base = pointee;
        let mut array = Vec::new();
        loop {
            let def = self.defs.get(&base)?;
            match def.class.opcode {
                Op::TypeArray => {
                    let len = id_of(def.operands.get(1)).and_then(|l| self.int_values.get(&l)).map_or(0, |v| *v as u32);
                    array.push(len);
                }
                Op::TypeRuntimeArray => array.push(0),
                _ => break,
            }
            base = id_of(def.operands.first())?;
        }
        let name = self.name(id);
        let mut res = Resource {
            name,
            kind: ResourceKind::StorageBuffer,
            set: self.decoration(id, Decoration::DescriptorSet).and_then(|o| lit(o.first())),
            binding: self.decoration(id, Decoration::Binding).and_then(|o| lit(o.first())),
            space: None,
            register: None,
            range: None,
            array,
            dimension: None,
            element_type: None,
            image_format: None,
            access: "read".into(),
            counter_buffer: None,
            block: None,
            size: None,
            used: self.used.contains(&id),
        };
        let def = self.defs.get(&base)?;
        match def.class.opcode {
            Op::TypeImage | Op::TypeSampledImage => {
                let image = if def.class.opcode == Op::TypeSampledImage { self.defs.get(&id_of(def.operands.first())?)? } else { def };
                let o = image.operands.as_slice();
                let dim = match o.get(1) {
                    Some(Operand::Dim(d)) => *d,
                    _ => Dim::Dim2D,
                };
                let (arrayed, ms, sampled) = (lit(o.get(3)) == Some(1), lit(o.get(4)) == Some(1), lit(o.get(5)).unwrap_or(1));
                let format = match o.get(6) {
                    Some(Operand::ImageFormat(f)) => Some(image_format(*f)),
                    _ => None,
                };
                let storage = sampled == 2;
                res.kind = match (def.class.opcode, dim, storage) {
                    (Op::TypeSampledImage, ..) => ResourceKind::CombinedImageSampler,
                    (_, Dim::DimSubpassData, _) => ResourceKind::SubpassInput,
                    (_, Dim::DimBuffer, true) => ResourceKind::RwTypedBuffer,
                    (_, Dim::DimBuffer, false) => ResourceKind::TypedBuffer,
                    (_, _, true) => ResourceKind::RwTexture,
                    (_, _, false) => ResourceKind::Texture,
                };
                let mut d = match dim {
                    Dim::Dim1D => "1d",
                    Dim::Dim2D => "2d",
                    Dim::Dim3D => "3d",
                    Dim::DimCube => "cube",
                    Dim::DimRect => "rect",
                    Dim::DimBuffer => "buffer",
                    Dim::DimSubpassData => "subpass",
                    _ => "other",
                }
                .to_string();
                if ms {
                    d.push_str("_ms");
                }
                if arrayed {
                    d.push_str("_array");
                }
                res.dimension = Some(d);
                res.element_type = id_of(o.first()).map(|t| self.ty(t));
                if storage || format.as_deref().is_some_and(|f| f != "unknown") {
                    res.image_format = format;
                }
                if storage {
                    res.access = access(!self.has(id, Decoration::NonWritable), !self.has(id, Decoration::NonReadable));
                }
            }
            Op::TypeSampler => res.kind = ResourceKind::Sampler,
            Op::TypeAccelerationStructureKHR => res.kind = ResourceKind::AccelerationStructure,
            Op::TypeStruct => {
                let tname = self.name(base);
                let block = self.has(base, Decoration::Block);
                res.kind = if sc == StorageClass::PushConstant {
                    ResourceKind::PushConstant
                } else {
                    buffer_kind(&tname).unwrap_or(if sc == StorageClass::Uniform && block {
                        ResourceKind::ConstantBuffer
                    } else {
                        ResourceKind::StorageBuffer
                    })
                };
                let ty = self.ty(base);
                let storage = sc == StorageClass::StorageBuffer || self.has(base, Decoration::BufferBlock);
                if storage {
                    let n = ty.members.len() as u32;
                    let nw = (0..n).all(|i| self.member_decoration(base, i, Decoration::NonWritable).is_some()) || self.has(id, Decoration::NonWritable);
                    res.access = access(!nw, true);
                }
                if matches!(
                    res.kind,
                    ResourceKind::StructuredBuffer
                        | ResourceKind::RwStructuredBuffer
                        | ResourceKind::AppendStructuredBuffer
                        | ResourceKind::ConsumeStructuredBuffer
                ) {
                    if let Some(m) = ty.members.first() {
                        let mut e = m.ty.clone();
                        if !e.array.is_empty() {
                            e.array.remove(0);
                        }
                        e.array_stride = None;
                        res.element_type = Some(e);
                    }
                }
                res.block = Some(ty);
            }
            _ => return None,
        }
        Some(res)
    }

    fn entry_point(&self, m: &Module, ep: &Instruction) -> EntryPoint {
        let ops = ep.operands.as_slice();
        let model = match ops.first() {
            Some(Operand::ExecutionModel(x)) => *x,
            _ => ExecutionModel::Vertex,
        };
        let func = id_of(ops.get(1)).unwrap_or(0);
        let name = match ops.get(2) {
            Some(Operand::LiteralString(s)) => s.clone(),
            _ => String::new(),
        };
        let mut e = EntryPoint { name, stage: stage_name(model).into(), ..EntryPoint::default() };
        let modes: Vec<&Instruction> = m.execution_modes.iter().filter(|i| id_of(i.operands.first()) == Some(func)).collect();
        let tess = matches!(model, ExecutionModel::TessellationControl | ExecutionModel::TessellationEvaluation);
        let mesh = matches!(model, ExecutionModel::MeshEXT | ExecutionModel::MeshNV);
        let mut t = Tessellation::default();
        let mut g = Geometry { instances: 1, ..Geometry::default() };
        let mut ms = Mesh::default();
        let mut point_mode = false;
        let mut winding = None;
        for inst in &modes {
            let Some(Operand::ExecutionMode(mode)) = inst.operands.get(1) else { continue };
            let args = &inst.operands[2..];
            let nums: Vec<u32> = args.iter().filter_map(|a| lit(Some(a))).collect();
            let text: Vec<String> = args
                .iter()
                .map(|a| match a {
                    Operand::LiteralBit32(v) => v.to_string(),
                    Operand::IdRef(v) => format!("%{v}"),
                    other => format!("{other}"),
                })
                .collect();
            e.execution_modes.push(std::iter::once(format!("{mode:?}")).chain(text).collect::<Vec<_>>().join(" "));
            let n0 = nums.first().copied().unwrap_or(0);
            match mode {
                ExecutionMode::LocalSize => {
                    e.workgroup_size = Some([n0, nums.get(1).copied().unwrap_or(1), nums.get(2).copied().unwrap_or(1)]);
                }
                ExecutionMode::LocalSizeId => {
                    let mut size = [1; 3];
                    let mut spec = [None; 3];
                    for (i, a) in args.iter().take(3).enumerate() {
                        if let Operand::IdRef(c) = a {
                            size[i] = self.int_values.get(c).map_or(1, |v| *v as u32);
                            if self.op(*c) == Some(Op::SpecConstant) {
                                spec[i] = self.decoration(*c, Decoration::SpecId).and_then(|o| lit(o.first()));
                            }
                        }
                    }
                    e.workgroup_size = Some(size);
                    if spec.iter().any(Option::is_some) {
                        e.workgroup_size_spec_ids = Some(spec);
                    }
                }
                ExecutionMode::Triangles if tess => t.domain = Some("tri".into()),
                ExecutionMode::Quads => t.domain = Some("quad".into()),
                ExecutionMode::Isolines => t.domain = Some("isoline".into()),
                ExecutionMode::SpacingEqual => t.partitioning = Some("integer".into()),
                ExecutionMode::SpacingFractionalEven => t.partitioning = Some("fractional_even".into()),
                ExecutionMode::SpacingFractionalOdd => t.partitioning = Some("fractional_odd".into()),
                ExecutionMode::VertexOrderCw => winding = Some("triangle_cw"),
                ExecutionMode::VertexOrderCcw => winding = Some("triangle_ccw"),
                ExecutionMode::PointMode => point_mode = true,
                ExecutionMode::OutputVertices if tess => t.output_control_points = Some(n0),
                ExecutionMode::OutputVertices if mesh => ms.max_vertices = n0,
                ExecutionMode::OutputVertices => g.max_vertex_count = n0,
                ExecutionMode::InputPoints => g.input_primitive = Some("point".into()),
                ExecutionMode::InputLines => g.input_primitive = Some("line".into()),
                ExecutionMode::Triangles => g.input_primitive = Some("triangle".into()),
                ExecutionMode::InputLinesAdjacency => g.input_primitive = Some("lineadj".into()),
                ExecutionMode::InputTrianglesAdjacency => g.input_primitive = Some("triangleadj".into()),
                ExecutionMode::OutputPoints if mesh => ms.output_topology = Some("point".into()),
                ExecutionMode::OutputPoints => g.output_topology = Some("point_list".into()),
                ExecutionMode::OutputLineStrip => g.output_topology = Some("line_strip".into()),
                ExecutionMode::OutputTriangleStrip => g.output_topology = Some("triangle_strip".into()),
                ExecutionMode::Invocations => g.instances = n0,
                ExecutionMode::OutputPrimitivesEXT => ms.max_primitives = n0,
                ExecutionMode::OutputLinesEXT => ms.output_topology = Some("line".into()),
                ExecutionMode::OutputTrianglesEXT => ms.output_topology = Some("triangle".into()),
                _ if model == ExecutionModel::Fragment => e.pixel_modes.push(snake(&format!("{mode:?}"))),
                _ => {}
            }
        }
        // A WorkgroupSize built-in overrides LocalSize (and names spec constants when it is one).
        if let Some((&c, _)) = self.decorations.iter().find(|(c, ds)| {
            ds.iter().any(|(d, o)| *d == Decoration::BuiltIn && matches!(o.first(), Some(Operand::BuiltIn(BuiltIn::WorkgroupSize)))) && self.defs.contains_key(c)
        }) {
            let def = self.defs[&c];
            let mut size = [1; 3];
            let mut spec = [None; 3];
            for (i, a) in def.operands.iter().take(3).enumerate() {
                if let Operand::IdRef(k) = a {
                    size[i] = self.int_values.get(k).map_or(1, |v| *v as u32);
                    if self.op(*k) == Some(Op::SpecConstant) {
                        spec[i] = self.decoration(*k, Decoration::SpecId).and_then(|o| lit(o.first()));
                    }
                }
            }
            e.workgroup_size = Some(size);
            e.workgroup_size_spec_ids = spec.iter().any(Option::is_some).then_some(spec);
        }
        if tess {
            if model == ExecutionModel::TessellationControl || t.domain.is_some() {
                t.output_primitive = if point_mode {
                    Some("point".into())
                } else if t.domain.as_deref() == Some("isoline") {
                    Some("line".into())
                } else {
                    winding.map(String::from)
                };
            }
            e.tessellation = Some(t);
        }
        if model == ExecutionModel::Geometry {
            e.geometry = Some(g);
        }
        if mesh {
            e.mesh = Some(ms);
        }
        for op in &ops[3.min(ops.len())..] {
            let Operand::IdRef(v) = op else { continue };
            let Some(def) = self.defs.get(v) else { continue };
            let Some(Operand::StorageClass(sc)) = def.operands.first() else { continue };
            let Some(var) = self.stage_variable(*v, def) else { continue };
            match sc {
                StorageClass::Input => e.inputs.push(var),
                StorageClass::Output => e.outputs.push(var),
                _ => {}
            }
        }
        e
    }

    fn stage_variable(&self, id: Word, def: &Instruction) -> Option<StageVariable> {
        let pointee = id_of(self.defs.get(&def.result_type?)?.operands.get(1))?;
        let name = self.name(id);
        let builtin = match self.decoration(id, Decoration::BuiltIn).and_then(|o| o.first()) {
            Some(Operand::BuiltIn(b)) => Some(*b),
            _ => None,
        };
        let user = match self.decoration(id, Decoration::UserSemantic).and_then(|o| o.first()) {
            Some(Operand::LiteralString(s)) => Some(s.clone()),
            _ => None,
        };
        let full = user
            .or_else(|| name.strip_prefix("in.var.").or_else(|| name.strip_prefix("out.var.")).map(String::from))
            .or_else(|| builtin.and_then(builtin_semantic).map(String::from))
            .unwrap_or_else(|| name.clone());
        let (semantic, semantic_index) = split_semantic(&full);
        let interpolation = [(Decoration::Flat, "flat"), (Decoration::NoPerspective, "noperspective"), (Decoration::Centroid, "centroid"), (Decoration::Sample, "sample")]
            .iter()
            .filter(|(d, _)| self.has(id, *d))
            .map(|(_, s)| s.to_string())
            .collect();
        Some(StageVariable {
            name,
            semantic,
            semantic_index,
            location: self.decoration(id, Decoration::Location).and_then(|o| lit(o.first())),
            component: self.decoration(id, Decoration::Component).and_then(|o| lit(o.first())),
            builtin: builtin.map(|b| format!("{b:?}")),
            ty: self.ty(pointee),
            interpolation,
            patch: self.has(id, Decoration::Patch),
            per_primitive: self.has(id, Decoration::PerPrimitiveEXT),
            ..StageVariable::default()
        })
    }
}

fn named(name: String, base: BaseType) -> Type {
    let mut t = Type::scalar(base);
    t.name = name;
    t
}

fn access(write: bool, read: bool) -> String {
    match (read, write) {
        (true, true) => "read_write",
        (false, true) => "write",
        _ => "read",
    }
    .into()
}

/// The bytes `t` takes in a block (0 for a runtime array), as spirv-cross counts them.
pub(crate) fn size_of(t: &Type) -> u32 {
    if let Some(&outer) = t.array.first() {
        let stride = t.array_stride.unwrap_or_else(|| {
            let mut e = t.clone();
            e.array.remove(0);
            e.array_stride = None;
            size_of(&e)
        });
        return outer * stride;
    }
    if let Some(size) = t.size {
        return size;
    }
    // An opaque member (inline SPIR-V can put one in $Globals, as dxc does) has no size in the
    // block, as spirv-cross counts it.
    if matches!(t.base, BaseType::Image | BaseType::Sampler | BaseType::SampledImage | BaseType::AccelerationStructure) {
        return 0;
    }
    let scalar = match t.base {
        BaseType::Int8 | BaseType::Uint8 => 1,
        BaseType::Int16 | BaseType::Uint16 | BaseType::Half => 2,
        BaseType::Int64 | BaseType::Uint64 | BaseType::Double => 8,
        _ => 4,
    };
    if t.columns > 1 {
        return match (t.matrix_stride, t.matrix_layout.as_deref()) {
            (Some(s), Some("row_major")) => s * t.vecsize,
            (Some(s), _) => s * t.columns,
            (None, _) => scalar * t.vecsize * t.columns,
        };
    }
    scalar * t.vecsize
}

/// DXC's type names for buffers (`type.RWStructuredBuffer.S`...).
fn buffer_kind(type_name: &str) -> Option<ResourceKind> {
    const KINDS: &[(&str, ResourceKind)] = &[
        ("type.ConstantBuffer.", ResourceKind::ConstantBuffer),
        ("type.TextureBuffer.", ResourceKind::TextureBuffer),
        ("type.tbuffer.", ResourceKind::TextureBuffer),
        ("type.StructuredBuffer.", ResourceKind::StructuredBuffer),
        ("type.RWStructuredBuffer.", ResourceKind::RwStructuredBuffer),
        ("type.RasterizerOrderedStructuredBuffer.", ResourceKind::RwStructuredBuffer),
        ("type.AppendStructuredBuffer.", ResourceKind::AppendStructuredBuffer),
        ("type.ConsumeStructuredBuffer.", ResourceKind::ConsumeStructuredBuffer),
        ("type.ByteAddressBuffer", ResourceKind::ByteAddressBuffer),
        ("type.RWByteAddressBuffer", ResourceKind::RwByteAddressBuffer),
        ("type.RasterizerOrderedByteAddressBuffer", ResourceKind::RwByteAddressBuffer),
        ("type.ACSBuffer.counter", ResourceKind::Counter),
    ];
    KINDS.iter().find(|(p, _)| type_name.starts_with(p)).map(|(_, k)| *k)
}

fn stage_name(m: ExecutionModel) -> &'static str {
    match m {
        ExecutionModel::Vertex => "vertex",
        ExecutionModel::TessellationControl => "hull",
        ExecutionModel::TessellationEvaluation => "domain",
        ExecutionModel::Geometry => "geometry",
        ExecutionModel::Fragment => "pixel",
        ExecutionModel::GLCompute => "compute",
        ExecutionModel::MeshEXT | ExecutionModel::MeshNV => "mesh",
        ExecutionModel::TaskEXT | ExecutionModel::TaskNV => "amplification",
        ExecutionModel::RayGenerationKHR => "raygeneration",
        ExecutionModel::IntersectionKHR => "intersection",
        ExecutionModel::AnyHitKHR => "anyhit",
        ExecutionModel::ClosestHitKHR => "closesthit",
        ExecutionModel::MissKHR => "miss",
        ExecutionModel::CallableKHR => "callable",
        _ => "unknown",
    }
}

/// The HLSL system value a built-in comes from (DXC's mapping, SPIR-V.rst).
fn builtin_semantic(b: BuiltIn) -> Option<&'static str> {
    Some(match b {
        BuiltIn::Position | BuiltIn::FragCoord => "SV_Position",
        BuiltIn::VertexIndex => "SV_VertexID",
        BuiltIn::InstanceIndex => "SV_InstanceID",
        BuiltIn::FragDepth => "SV_Depth",
        BuiltIn::FrontFacing => "SV_IsFrontFace",
        BuiltIn::SampleId => "SV_SampleIndex",
        BuiltIn::SampleMask => "SV_Coverage",
        BuiltIn::ClipDistance => "SV_ClipDistance",
        BuiltIn::CullDistance => "SV_CullDistance",
        BuiltIn::PrimitiveId => "SV_PrimitiveID",
        BuiltIn::Layer => "SV_RenderTargetArrayIndex",
        BuiltIn::ViewportIndex => "SV_ViewportArrayIndex",
        BuiltIn::GlobalInvocationId => "SV_DispatchThreadID",
        BuiltIn::LocalInvocationId => "SV_GroupThreadID",
        BuiltIn::WorkgroupId => "SV_GroupID",
        BuiltIn::LocalInvocationIndex => "SV_GroupIndex",
        BuiltIn::TessLevelOuter => "SV_TessFactor",
        BuiltIn::TessLevelInner => "SV_InsideTessFactor",
        BuiltIn::TessCoord => "SV_DomainLocation",
        BuiltIn::InvocationId => "SV_OutputControlPointID",
        BuiltIn::ViewIndex => "SV_ViewID",
        BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR => "SV_Barycentrics",
        BuiltIn::FragStencilRefEXT => "SV_StencilRef",
        BuiltIn::PrimitiveShadingRateKHR | BuiltIn::ShadingRateKHR => "SV_ShadingRate",
        BuiltIn::CullPrimitiveEXT => "SV_CullPrimitive",
        BuiltIn::FullyCoveredEXT => "SV_InnerCoverage",
        BuiltIn::PrimitiveTriangleIndicesEXT | BuiltIn::PrimitiveLineIndicesEXT | BuiltIn::PrimitivePointIndicesEXT => "SV_PrimitiveIndices",
        _ => return None,
    })
}

/// `TEXCOORD12` -> (`TEXCOORD`, 12); `SV_Target` -> (`SV_Target`, 0).
pub(crate) fn split_semantic(s: &str) -> (String, u32) {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits == s.len() {
        return (s.to_string(), 0);
    }
    let (name, index) = s.split_at(s.len() - digits);
    (name.to_string(), index.parse().unwrap_or(0))
}

/// `R11fG11fB10f` -> `r11f_g11f_b10f`: GLSL's spelling of an image format.
fn image_format(f: spirv::ImageFormat) -> String {
    let s = format!("{f:?}").to_lowercase();
    match s.as_str() {
        "r11fg11fb10f" => "r11f_g11f_b10f".into(),
        "rgb10a2" => "rgb10_a2".into(),
        "rgb10a2ui" => "rgb10_a2ui".into(),
        _ => s.replace("snorm", "_snorm"),
    }
}

/// `EarlyFragmentTests` -> `early_fragment_tests`.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f32::from(h & 0x3ff);
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        31 => {
            if frac == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + frac / 1024.0) * 2f32.powi(exp - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_split_their_index() {
        assert_eq!(split_semantic("TEXCOORD12"), ("TEXCOORD".into(), 12));
        assert_eq!(split_semantic("SV_Target"), ("SV_Target".into(), 0));
        assert_eq!(split_semantic("123"), ("123".into(), 0));
    }

    #[test]
    fn formats_use_glsl_spelling() {
        assert_eq!(image_format(spirv::ImageFormat::R11fG11fB10f), "r11f_g11f_b10f");
        assert_eq!(image_format(spirv::ImageFormat::Rgba8Snorm), "rgba8_snorm");
        assert_eq!(image_format(spirv::ImageFormat::Rgba32f), "rgba32f");
    }

    #[test]
    fn halves_decode() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x3800), 0.5);
    }
}

#[cfg(test)]
mod debug_info_tests {
    use super::without_module_ext_insts;

    #[test]
    fn module_scope_ext_insts_are_left_out_before_loading() {
        let header = [spirv::MAGIC_NUMBER, 0x0001_0000, 0, 10, 0];
        let capability = [2 << 16 | 17, 1];
        let ext_inst = [5 << 16 | 12, 1, 2, 3, 35];
        let function = [5 << 16 | 54, 1, 4, 0, 5];
        let in_function = [5 << 16 | 12, 1, 6, 3, 23];
        let words: Vec<u32> = [&header[..], &capability, &ext_inst, &function, &in_function].concat();
        let expected: Vec<u32> = [&header[..], &capability, &function, &in_function].concat();
        assert_eq!(without_module_ext_insts(&words).as_ref(), &expected[..]);
        let plain: Vec<u32> = [&header[..], &capability, &function].concat();
        assert!(matches!(without_module_ext_insts(&plain), std::borrow::Cow::Borrowed(_)));
    }
}
