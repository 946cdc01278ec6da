//! HLSL types to SPIR-V types.
//!
//! The matrix mapping lives here: an HLSL `floatRxC` is an `OpTypeMatrix` of R columns of
//! `vC`, i.e. the transpose, so that an HLSL row is a SPIR-V column and `m[i]` is one access-chain
//! step. In buffers the orientation decoration is therefore inverted: HLSL `column_major` is
//! SPIR-V `RowMajor`. `1xN`/`Nx1` matrices are vectors and `1x1` a scalar. Matrices of non-float
//! components (not allowed by SPIR-V) are arrays of vectors, as DXC does.
//!
//! `bool` has no size in SPIR-V, so in buffer layouts it is a 32-bit `uint`; the value
//! conversion on load/store is in `place.rs`.

use super::layout::Layout;
use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use crate::types::{Decoration, StructMember, StructType};
use hlslc_sema::types::{MatrixLayout, ObjectKind, ScalarKind, Type, TypeId};
use spirv::{Decoration as D, StorageClass};

impl<'m> Lowerer<'m> {
    pub(crate) fn scalar_ty(&mut self, k: ScalarKind, layout: Layout) -> SpvId {
        use ScalarKind::*;
        let c = &mut self.b.ctx;
        match k {
            Bool if layout == Layout::Logical => c.type_bool(),
            Bool => c.type_int(32, false),
            Int16 => c.type_int(16, true),
            UInt16 => c.type_int(16, false),
            Int | Min16Int | Min12Int | LitInt => c.type_int(32, true),
            UInt | Min16UInt => c.type_int(32, false),
            Int64 => c.type_int(64, true),
            UInt64 => c.type_int(64, false),
            Half => c.type_float(16),
            Float | Min16Float | Min10Float | LitFloat => c.type_float(32),
            Double => c.type_float(64),
        }
    }

    pub(crate) fn vector_ty(&mut self, k: ScalarKind, n: u32, layout: Layout) -> SpvId {
        let s = self.scalar_ty(k, layout);
        if n <= 1 {
            s
        } else {
            self.b.ctx.type_vector(s, n)
        }
    }

    /// The SPIR-V type of an HLSL type stored with `layout`.
    pub(crate) fn ty(&mut self, t: TypeId, layout: Layout) -> R<SpvId> {
        if let Some(&id) = self.types.get(&(t, layout)) {
            return Ok(id);
        }
        let id = self.ty_uncached(t, layout)?;
        // `[[vk::ext_capability]]`/`[[vk::ext_extension]]` of a typedef of an inline SPIR-V
        // type or of a struct's field: declared when the type is used.
        let m = self.m;
        for (_, attrs) in m.type_requirements.iter().filter(|(r, _)| *r == t) {
            self.ext_requirements(attrs, None)?;
        }
        self.types.insert((t, layout), id);
        Ok(id)
    }

    fn ty_uncached(&mut self, t: TypeId, layout: Layout) -> R<SpvId> {
        let types = &self.m.types;
        Ok(match types.get(t).clone() {
            Type::Void => self.b.ctx.type_void(),
            Type::Scalar(k) => self.scalar_ty(k, layout),
            Type::Vector(k, n) => self.vector_ty(k, n as u32, layout),
            Type::Enum(e) => {
                let u = types.enums[e.0 as usize].underlying;
                self.ty(u, layout)?
            }
            Type::Matrix { elem, rows, cols, .. } => self.matrix_ty(t, elem, rows as u32, cols as u32, layout),
            Type::Array { .. } if self.is_resource_array(t) => return self.object_array_ty(t),
            Type::Array { elem, len } => {
                let e = self.ty(elem, layout)?;
                let stride = if layout == Layout::Logical {
                    None
                } else {
                    Some(self.opts.layout.array_stride(&self.m.types, elem, layout))
                };
                match len {
                    Some(n) => self.b.ctx.type_array(e, n, stride),
                    None => self.b.ctx.type_runtime_array(e, stride),
                }
            }
            Type::Struct(sid) => {
                let def = self.m.types.structs[sid.0 as usize].clone();
                let mut member_types: Vec<(TypeId, String)> = def.bases.iter().map(|&b| (b, String::new())).collect();
                member_types.extend(def.fields.iter().map(|f| (f.ty, f.name.clone())));
                let offsets = if layout == Layout::Logical {
                    Vec::new()
                } else {
                    let tys: Vec<TypeId> = member_types.iter().map(|m| m.0).collect();
                    self.opts.layout.offsets_pinned(&self.m.types, &tys, &struct_pins(&def), layout)
                };
                let mut members = Vec::new();
                for (i, (mty, name)) in member_types.into_iter().enumerate() {
                    let ty = self.ty(mty, layout)?;
                    let mut decorations = Vec::new();
                    if let Some(&(_, off)) = offsets.get(i) {
                        decorations.push(Decoration::with_literals(D::Offset, &[off]));
                        decorations.extend(self.matrix_member_decorations(mty, layout));
                    }
                    members.push(StructMember { ty, name, decorations });
                }
                self.b.ctx.type_struct(StructType { name: def.name.clone(), members, decorations: Vec::new() })
            }
            // A stream is the per-vertex value `Append` writes; a patch is an array of control points.
            Type::Object { kind: ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream, elem: Some(e), .. } => {
                self.ty(e, layout)?
            }
            Type::Object { kind: ObjectKind::InputPatch | ObjectKind::OutputPatch, elem: Some(e), count: Some(n) } => {
                let e = self.ty(e, layout)?;
                self.b.ctx.type_array(e, n, None)
            }
            Type::Object { kind: ObjectKind::ConstantBuffer, .. } if layout == Layout::Std430 => return self.object_ty_laid_out(t, true),
            Type::Object { kind: ObjectKind::VkBufferPointer, elem: Some(e), .. } => return self.buffer_pointer_ty(e),
            Type::Object { .. } => return self.object_ty(t),
            Type::InlineSpirv(it) => return self.inline_spirv_ty(&it.clone()),
            Type::Error | Type::String => return unsupported(format!("the type '{}'", self.type_name(t)), None),
        })
    }

    fn matrix_ty(&mut self, t: TypeId, elem: ScalarKind, rows: u32, cols: u32, layout: Layout) -> SpvId {
        if (rows == 1 || cols == 1) && self.opts.layout.scalar_rows(&self.m.types, t, layout) {
            // fxc's cbuffer packing: one 16-byte row per element.
            let e = self.scalar_ty(elem, layout);
            let stride = self.opts.layout.matrix_stride(&self.m.types, t, layout);
            return self.b.ctx.type_array(e, rows * cols, Some(stride));
        }
        if rows == 1 || cols == 1 {
            return self.vector_ty(elem, rows * cols, layout);
        }
        let row = self.vector_ty(elem, cols, layout);
        if elem.is_float() {
            self.b.ctx.type_matrix(row, rows)
        } else {
            let stride = (layout != Layout::Logical).then(|| self.opts.layout.matrix_stride(&self.m.types, t, layout));
            self.b.ctx.type_array(row, rows, stride)
        }
    }

    /// `MatrixStride` and the (inverted) orientation of a struct member holding a float matrix,
    /// or an array of them.
    pub(crate) fn matrix_member_decorations(&self, mut t: TypeId, layout: Layout) -> Vec<Decoration> {
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        if let Type::Matrix { elem, rows, cols, layout: ml } = *self.m.types.get(t) {
            if rows > 1 && cols > 1 && elem.is_float() {
                let stride = self.opts.layout.matrix_stride(&self.m.types, t, layout);
                let orient = match ml {
                    MatrixLayout::ColumnMajor => D::RowMajor,
                    MatrixLayout::RowMajor => D::ColMajor,
                };
                return vec![Decoration::with_literals(D::MatrixStride, &[stride]), Decoration::new(orient)];
            }
        }
        Vec::new()
    }

    pub(crate) fn ptr_ty(&mut self, t: TypeId, layout: Layout, sc: StorageClass) -> R<SpvId> {
        let pointee = self.ty(t, layout)?;
        Ok(self.b.ctx.type_pointer(sc, pointee))
    }

    /// An array (of arrays) of resource objects: a descriptor array, never laid out.
    pub(crate) fn is_resource_array(&self, mut t: TypeId) -> bool {
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        self.is_descriptor_object(t)
    }

    /// An object type other than `vk::BufferPointer` (which is a plain value: an address).
    pub(crate) fn is_descriptor_object(&self, t: TypeId) -> bool {
        matches!(self.m.types.get(t), Type::Object { kind, .. } if *kind != ObjectKind::VkBufferPointer)
    }

    /// HLSL spelling of a type, for messages.
    pub(crate) fn type_name(&self, t: TypeId) -> String {
        self.m.types.name(t)
    }

    /// The shape of a numeric type: (component, vector length, HLSL rows) where a matrix has
    /// `rows > 0`; `None` for aggregates and objects.
    pub(crate) fn shape(&self, t: TypeId) -> Option<Shape> {
        match *self.m.types.get(t) {
            Type::Scalar(k) => Some(Shape { kind: k, rows: 0, cols: 1 }),
            Type::Enum(_) => Some(Shape { kind: self.m.types.component(t)?, rows: 0, cols: 1 }),
            Type::Vector(k, n) => Some(Shape { kind: k, rows: 0, cols: n as u32 }),
            Type::Matrix { elem, rows, cols, .. } => Some(Shape { kind: elem, rows: rows as u32, cols: cols as u32 }),
            _ => None,
        }
    }
}

/// A numeric type's shape. `rows == 0` is a scalar (cols 1) or vector; otherwise a matrix of
/// `rows` HLSL rows of `cols` components.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub kind: ScalarKind,
    pub rows: u32,
    pub cols: u32,
}

impl Shape {
    pub fn is_matrix(&self) -> bool {
        self.rows > 1 && self.cols > 1
    }
    /// Number of components in all.
    pub fn count(&self) -> u32 {
        self.rows.max(1) * self.cols
    }
}

/// The `[[vk::offset(n)]]` of each member of a struct as SPIR-V lays it out (base classes first).
pub(crate) fn struct_pins(def: &hlslc_sema::types::StructDef) -> Vec<Option<u32>> {
    def.bases.iter().map(|_| None).chain(def.fields.iter().map(|f| f.vk.offset)).collect()
}
