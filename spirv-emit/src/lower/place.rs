//! Places (lvalues) and moving values in and out of them.
//!
//! A value in registers always has the *logical* form of its type (no layout decorations, real
//! `bool`s). A place in a buffer holds the laid-out form; [`Lowerer::load`] and
//! [`Lowerer::store`] convert between the two, member by member where the SPIR-V types differ.

use super::layout::Layout;
use super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use spirv::{Op, StorageClass};

/// Where an lvalue lives.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// A pointer to a value of `ty` laid out by `layout`.
    Ptr { ptr: SpvId, sc: StorageClass, layout: Layout, ty: TypeId },
    /// Some components of a vector place (`v.zx`), `ty` being the swizzle's type.
    Swizzle { base: Box<Place>, comps: Vec<u8>, ty: TypeId },
    /// Some elements of a matrix place (`m._m00_m11`): `paths[i]` is where component `i` of the
    /// value (of type `ty`) lives in the base's logical value (`[row, col]` in a matrix,
    /// `[i]` in a 1xN/Nx1 matrix, which is a vector).
    Elements { base: Box<Place>, paths: Vec<Vec<u32>>, ty: TypeId },
    /// An element of a storage image or texel buffer: read with `OpImageRead`, written with
    /// `OpImageWrite`.
    Texel { image_ptr: SpvId, image_ty: SpvId, coord: SpvId, ty: TypeId },
    /// A mesh shader's output array (`index: None`) or one element of it, a struct whose members
    /// live in separate arrayed stage variables (see `stages/mesh.rs`).
    Mesh { node: std::rc::Rc<super::stages::MeshNode>, index: Option<SpvId>, ty: TypeId },
}

impl Place {
    pub fn ty(&self) -> TypeId {
        match self {
            Place::Ptr { ty, .. } | Place::Swizzle { ty, .. } | Place::Elements { ty, .. } | Place::Texel { ty, .. } | Place::Mesh { ty, .. } => *ty,
        }
    }
}

impl<'m> Lowerer<'m> {
    pub(crate) fn load(&mut self, place: &Place) -> R<SpvId> {
        match place {
            Place::Ptr { ptr, layout, ty, sc } => {
                if let Some(&v) = self.heaps.loaded.get(ptr) {
                    return Ok(v);
                }
                let sty = self.ty(*ty, *layout)?;
                let v = if *sc == StorageClass::PhysicalStorageBuffer {
                    let a = self.physical_alignment(*ptr, *ty);
                    self.load_aligned(sty, *ptr, a)?
                } else {
                    self.b.load(sty, *ptr, None)?
                };
                self.relax(v, *ty);
                self.convert_layout(v, *ty, *layout, Layout::Logical)
            }
            Place::Swizzle { base, comps, ty } => {
                let whole = self.load(base)?;
                self.swizzle_value(whole, base.ty(), comps, *ty)
            }
            Place::Elements { base, paths, ty } => {
                let whole = self.load(base)?;
                let kind = self.m.types.component(*ty).unwrap_or(ScalarKind::Float);
                let comp = self.scalar_ty(kind, Layout::Logical);
                let mut parts = Vec::new();
                for path in paths {
                    parts.push(if path.is_empty() { whole } else { self.b.composite_extract(comp, whole, path)? });
                }
                if parts.len() == 1 {
                    return Ok(parts[0]);
                }
                let rty = self.ty(*ty, Layout::Logical)?;
                Ok(self.b.composite_construct(rty, &parts)?)
            }
            Place::Texel { image_ptr, image_ty, coord, ty } => {
                let image = self.load_image_ptr(*image_ty, *image_ptr)?;
                self.image_read(image, *coord, *ty)
            }
            Place::Mesh { node, index, ty } => self.mesh_load(node, *index, *ty),
        }
    }

    pub(crate) fn store(&mut self, place: &Place, value: SpvId) -> R<()> {
        match place {
            Place::Ptr { ptr, layout, ty, sc } => {
                let v = self.convert_layout(value, *ty, Layout::Logical, *layout)?;
                if *sc == StorageClass::PhysicalStorageBuffer {
                    let a = self.physical_alignment(*ptr, *ty);
                    self.store_aligned(*ptr, v, a)?;
                    return Ok(());
                }
                self.b.store(*ptr, v, None)?;
                Ok(())
            }
            Place::Swizzle { base, comps, .. } => {
                let base_ty = base.ty();
                let n = match self.m.types.get(base_ty) {
                    Type::Vector(_, n) => *n as u32,
                    _ => 1,
                };
                if n == 1 {
                    return self.store(base, value);
                }
                let comp = self.m.types.component(base_ty).and_then(|k| self.m.types.find(&Type::Scalar(k)));
                if let (Place::Ptr { sc: StorageClass::Output, .. }, Some(comp)) = (&**base, comp) {
                    // A stage output (a mesh shader's, shared by the workgroup) is written
                    // component by component, without reading it back, as DXC does.
                    let kind = self.m.types.component(base_ty).unwrap_or(ScalarKind::Float);
                    let comp_ty = self.scalar_ty(kind, Layout::Logical);
                    for (i, &c) in comps.iter().enumerate() {
                        let idx = self.b.ctx.const_u32(c as u32);
                        let p = self.chain(base, &[idx], comp)?;
                        let x = if comps.len() == 1 { value } else { self.b.composite_extract(comp_ty, value, &[i as u32])? };
                        self.store(&p, x)?;
                    }
                    return Ok(());
                }
                let old = self.load(base)?;
                let vty = self.ty(base_ty, Layout::Logical)?;
                // Shuffle: components of `old` (0..n) except the written ones, taken from `value`
                // (n..); a one-component swizzle writes with an insert instead.
                let new = if comps.len() == 1 {
                    self.b.composite_insert(vty, value, old, &[comps[0] as u32])?
                } else {
                    let mut sel: Vec<u32> = (0..n).collect();
                    for (i, &c) in comps.iter().enumerate() {
                        sel[c as usize] = n + i as u32;
                    }
                    self.b.vector_shuffle(vty, old, value, &sel)?
                };
                self.store(base, new)
            }
            Place::Elements { base, paths, ty } => {
                let kind = self.m.types.component(*ty).unwrap_or(ScalarKind::Float);
                let comp = self.scalar_ty(kind, Layout::Logical);
                let bty = self.ty(base.ty(), Layout::Logical)?;
                let mut whole = self.load(base)?;
                for (i, path) in paths.iter().enumerate() {
                    let c = if paths.len() == 1 { value } else { self.b.composite_extract(comp, value, &[i as u32])? };
                    whole = if path.is_empty() { c } else { self.b.composite_insert(bty, c, whole, path)? };
                }
                self.store(base, whole)
            }
            Place::Texel { image_ptr, image_ty, coord, ty } => {
                // The texel first: the image is loaded right before the write that uses it
                // (DXC's order, which keeps a rasterizer-ordered write's interlock region tight).
                let texel = self.widen_to_vec4(value, *ty)?;
                let image = self.load_image_ptr(*image_ty, *image_ptr)?;
                self.b.void(
                    Op::ImageWrite,
                    vec![
                        rspirv::dr::Operand::IdRef(image.0),
                        rspirv::dr::Operand::IdRef(coord.0),
                        rspirv::dr::Operand::IdRef(texel.0),
                    ],
                )?;
                Ok(())
            }
            Place::Mesh { node, index, ty } => self.mesh_store(node, *index, *ty, value),
        }
    }

    /// The image behind `ptr` (the value a local alias loaded at its declaration, if any).
    fn load_image_ptr(&mut self, image_ty: SpvId, ptr: SpvId) -> R<SpvId> {
        match self.heaps.loaded.get(&ptr) {
            Some(&v) => Ok(v),
            None => Ok(self.b.load(image_ty, ptr, None)?),
        }
    }

    /// A pointer to `place` for calls and access chains; a swizzle or texel has none.
    pub(crate) fn place_ptr(place: &Place) -> Option<(SpvId, StorageClass, Layout)> {
        match place {
            Place::Ptr { ptr, sc, layout, .. } => Some((*ptr, *sc, *layout)),
            _ => None,
        }
    }

    /// An access chain from a pointer place.
    pub(crate) fn chain(&mut self, base: &Place, indices: &[SpvId], ty: TypeId) -> R<Place> {
        let Some((ptr, sc, layout)) = Self::place_ptr(base) else {
            return super::unsupported("indexing into a swizzle or texel", None);
        };
        let pty = self.ptr_ty(ty, layout, sc)?;
        let p = self.b.access_chain(pty, ptr, indices)?;
        Ok(Place::Ptr { ptr: p, sc, layout, ty })
    }

    /// Converts a value of HLSL type `ty` between two layouts' SPIR-V types.
    pub(crate) fn convert_layout(&mut self, v: SpvId, ty: TypeId, from: Layout, to: Layout) -> R<SpvId> {
        if from == to {
            return Ok(v);
        }
        let fty = self.ty(ty, from)?;
        let tty = self.ty(ty, to)?;
        if fty == tty {
            return Ok(v);
        }
        match self.m.types.get(ty).clone() {
            Type::Scalar(ScalarKind::Bool) | Type::Vector(ScalarKind::Bool, _) => {
                let n = match self.m.types.get(ty) {
                    Type::Vector(_, n) => *n as u32,
                    _ => 1,
                };
                if to == Layout::Logical {
                    let zero = self.uint_splat(0, n);
                    self.b.binary(Op::INotEqual, tty, v, zero).map_err(Into::into)
                } else {
                    let one = self.uint_splat(1, n);
                    let zero = self.uint_splat(0, n);
                    self.b.select(tty, v, one, zero).map_err(Into::into)
                }
            }
            Type::Array { elem, len: Some(n) } => {
                let efty = self.ty(elem, from)?;
                let mut parts = Vec::new();
                for i in 0..n {
                    let e = self.b.composite_extract(efty, v, &[i])?;
                    parts.push(self.convert_layout(e, elem, from, to)?);
                }
                Ok(self.b.composite_construct(tty, &parts)?)
            }
            Type::Struct(sid) => {
                let def = self.m.types.structs[sid.0 as usize].clone();
                let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                let mut parts = Vec::new();
                for (i, mt) in members.into_iter().enumerate() {
                    let mfty = self.ty(mt, from)?;
                    let e = self.b.composite_extract(mfty, v, &[i as u32])?;
                    parts.push(self.convert_layout(e, mt, from, to)?);
                }
                Ok(self.b.composite_construct(tty, &parts)?)
            }
            Type::Matrix { elem, rows, cols, .. } if rows == 1 || cols == 1 => {
                // A vector on one side, an array of scalars (fxc's cbuffer rows) on the other.
                let comp = self.scalar_ty(elem, from);
                let to_comp = self.scalar_ty(elem, to);
                if comp != to_comp {
                    return super::unsupported("bool matrices in buffers", None);
                }
                let mut parts = Vec::new();
                for i in 0..rows as u32 * cols as u32 {
                    parts.push(self.b.composite_extract(comp, v, &[i])?);
                }
                Ok(self.b.composite_construct(tty, &parts)?)
            }
            Type::Matrix { elem, rows, cols, .. } => {
                // Non-float matrices are arrays of row vectors: same vectors, other stride.
                let row = self.vector_ty(elem, cols as u32, from);
                if row != self.vector_ty(elem, cols as u32, to) {
                    return super::unsupported("bool matrices in buffers", None);
                }
                let mut parts = Vec::new();
                for r in 0..rows as u32 {
                    parts.push(self.b.composite_extract(row, v, &[r])?);
                }
                Ok(self.b.composite_construct(tty, &parts)?)
            }
            _ => super::unsupported(format!("copying '{}' between memory layouts", self.type_name(ty)), None),
        }
    }

    pub(crate) fn uint_splat(&mut self, v: u32, n: u32) -> SpvId {
        let c = self.b.ctx.const_u32(v);
        if n <= 1 {
            return c;
        }
        let u = self.b.ctx.type_u32();
        let vt = self.b.ctx.type_vector(u, n);
        self.b.ctx.const_composite(vt, &vec![c; n as usize])
    }

    /// Marks a value of a min-precision type for `RelaxedPrecision`.
    pub(crate) fn relax(&mut self, id: SpvId, ty: TypeId) {
        if self.m.types.component(ty).is_some_and(|k| k.is_min_precision()) {
            self.b.mark_relaxed_precision(id);
        }
    }
}
