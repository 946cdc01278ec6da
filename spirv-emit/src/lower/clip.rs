//! `SV_ClipDistance<n>` and `SV_CullDistance<n>`: every such value of one direction of a stage
//! shares one `float` array built-in (`ClipDistance` / `CullDistance`). The values are sorted by
//! semantic index and packed tightly (`float3 : SV_ClipDistance0` takes elements 0..3,
//! `float2 : SV_ClipDistance1` then 3..5), as SPIR-V.rst's "ClipDistance & CullDistance" says.
//! Each scalar is read or written through its own access chain into the array.

use super::{Lowerer, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_sema::entry::{Semantic, SystemValue};
use hlslc_sema::tast::{EntryPoint, ParamDir, Stage, Storage};
use hlslc_sema::types::{ScalarKind, Type, TypeId, TypeTable};
use spirv::{BuiltIn, Decoration as D, Op, StorageClass};

/// The packed clip and cull arrays of one direction (input or output) of an entry point.
#[derive(Default)]
pub(crate) struct ClipLayout {
    /// (cull?, semantic index, offset into the array).
    offsets: Vec<(bool, u32, u32)>,
    /// The array variables, `[clip, cull]`, made when the layout is not empty.
    vars: [Option<SpvId>; 2],
}

/// Whether `semantic` is a clip (`Some(false)`) or cull (`Some(true)`) distance, and its index.
pub(crate) fn clip_semantic(semantic: &Semantic) -> Option<(bool, u32)> {
    match semantic.system()? {
        SystemValue::ClipDistance => Some((false, semantic.index())),
        SystemValue::CullDistance => Some((true, semantic.index())),
        _ => None,
    }
}

/// How many floats a clip/cull value of type `t` takes: a float scalar or vector, or an array
/// of them; `None` for other types (which stay ordinary stage variables and are diagnosed there).
pub(crate) fn clip_width(types: &TypeTable, t: TypeId) -> Option<u32> {
    match *types.get(t) {
        Type::Scalar(ScalarKind::Float) => Some(1),
        Type::Vector(ScalarKind::Float, n) => Some(n as u32),
        Type::Array { elem, len: Some(n) } if matches!(types.get(elem), Type::Scalar(ScalarKind::Float) | Type::Vector(ScalarKind::Float, _)) => {
            Some(n * clip_width(types, elem)?)
        }
        _ => None,
    }
}

/// Collects the clip/cull leaves of a value of type `ty` with `semantic` (struct fields use their
/// own semantics).
fn collect(types: &TypeTable, ty: TypeId, semantic: Option<&Semantic>, out: &mut Vec<(bool, u32, u32, String)>) {
    if let Type::Struct(sid) = types.get(ty) {
        let def = &types.structs[sid.0 as usize];
        for &b in &def.bases {
            collect(types, b, None, out);
        }
        for f in &def.fields {
            collect(types, f.ty, f.semantic.as_ref(), out);
        }
        return;
    }
    let Some((cull, index)) = semantic.and_then(clip_semantic) else { return };
    if let Some(w) = clip_width(types, ty) {
        out.push((cull, index, w, semantic.map_or(String::new(), |s| s.as_str().to_string())));
    }
}

impl ClipLayout {
    /// The array element where the value with this semantic starts, and the array variable.
    pub(crate) fn lookup(&self, semantic: &Semantic) -> Option<(SpvId, u32)> {
        let (cull, index) = clip_semantic(semantic)?;
        let &(_, _, off) = self.offsets.iter().find(|(c, i, _)| *c == cull && *i == index)?;
        Some((self.vars[cull as usize]?, off))
    }
}

impl<'m> Lowerer<'m> {
    /// Lays out and declares the clip/cull arrays of `ep`'s inputs and outputs. Vertex shader
    /// inputs and the per-vertex inputs of geometry, hull and domain shaders keep ordinary stage
    /// variables; so do hull shader outputs.
    pub(crate) fn clip_layouts(&mut self, ep: &EntryPoint, interface: &mut Vec<SpvId>) -> (ClipLayout, ClipLayout) {
        let m = self.m;
        let f = m.func(ep.func);
        let (mut ins, mut outs) = (Vec::new(), Vec::new());
        let mut vertices = None;
        for &p in &f.params {
            let var = m.var(p);
            let dir = match var.storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            if let Type::Object { elem: Some(elem), .. } = m.types.get(var.ty) {
                // A geometry shader's output stream.
                if ep.stage == Stage::Geometry && var.primitive.is_none() {
                    collect(&m.types, *elem, var.semantic.as_ref(), &mut outs);
                }
                continue;
            }
            let arrayed = ep.stage == Stage::Geometry && var.primitive.is_some();
            if dir != ParamDir::Out && !arrayed && !matches!(ep.stage, Stage::Vertex | Stage::Hull) {
                collect(&m.types, var.ty, var.semantic.as_ref(), &mut ins);
            }
            // (A mesh shader's outputs are arrays written in place: see `stages/mesh.rs`. Its
            // vertices' clip and cull distances are arrays of the per-vertex arrays.)
            if dir != ParamDir::In && !matches!(ep.stage, Stage::Hull | Stage::Mesh) {
                collect(&m.types, var.ty, var.semantic.as_ref(), &mut outs);
            }
            if ep.stage == Stage::Mesh && var.primitive == Some(hlslc_frontend::ast::Modifier::Vertices) {
                if let Type::Array { elem, len: Some(n) } = *m.types.get(var.ty) {
                    collect(&m.types, elem, var.semantic.as_ref(), &mut outs);
                    vertices = Some(n);
                }
            }
        }
        if ep.stage != Stage::Hull {
            collect(&m.types, f.ret, f.ret_semantic.as_ref(), &mut outs);
        }
        let input = self.clip_layout(ins, StorageClass::Input, None, interface);
        let output = self.clip_layout(outs, StorageClass::Output, vertices, interface);
        (input, output)
    }

    /// `vertices`: a mesh shader's output vertex count, each vertex its own array.
    fn clip_layout(&mut self, mut leaves: Vec<(bool, u32, u32, String)>, sc: StorageClass, vertices: Option<u32>, interface: &mut Vec<SpvId>) -> ClipLayout {
        // `-fspv-reflect`'s semantic of each array: the one semantic written, or the name without
        // an index when several share the array (DXC's rule).
        let semantics: [String; 2] = [false, true].map(|cull| {
            let mut of_kind = leaves.iter().filter(|l| l.0 == cull);
            match (of_kind.next(), of_kind.next()) {
                (Some(only), None) => only.3.clone(),
                _ if cull => "SV_CullDistance".to_string(),
                _ => "SV_ClipDistance".to_string(),
            }
        });
        leaves.sort_by_key(|&(cull, index, ..)| (cull, index));
        leaves.dedup_by_key(|&mut (cull, index, ..)| (cull, index));
        let mut layout = ClipLayout::default();
        let mut size = [0u32; 2];
        for (cull, index, w, _) in leaves {
            layout.offsets.push((cull, index, size[cull as usize]));
            size[cull as usize] += w;
        }
        for (k, (b, name, cap)) in [
            (BuiltIn::ClipDistance, "gl_ClipDistance", spirv::Capability::ClipDistance),
            (BuiltIn::CullDistance, "gl_CullDistance", spirv::Capability::CullDistance),
        ]
        .into_iter()
        .enumerate()
        {
            if size[k] == 0 {
                continue;
            }
            let f = self.b.ctx.type_f32();
            let mut arr = self.b.ctx.type_array(f, size[k], None);
            if let Some(n) = vertices {
                arr = self.b.ctx.type_array(arr, n, None);
            }
            let pty = self.b.ctx.type_pointer(sc, arr);
            let var = self.b.global_variable(pty, sc, None);
            self.b.ctx.name(var, name);
            self.b.ctx.decorate(var, &Decoration::with_literals(D::BuiltIn, &[b as u32]));
            self.user_semantic(var, &semantics[k]);
            self.b.capability(cap);
            interface.push(var);
            layout.vars[k] = Some(var);
        }
        layout
    }

    /// The pointer to element `base + i` of a clip/cull array (DXC adds the two at run time
    /// when the value has several components).
    fn clip_elem(&mut self, var: SpvId, sc: StorageClass, base: SpvId, i: Option<u32>) -> R<SpvId> {
        let f = self.b.ctx.type_f32();
        let pty = self.b.ctx.type_pointer(sc, f);
        let idx = match i {
            Some(i) => {
                let u = self.b.ctx.type_u32();
                let c = self.b.ctx.const_u32(i);
                self.b.binary(Op::IAdd, u, base, c)?
            }
            None => base,
        };
        Ok(self.b.access_chain(pty, var, &[idx])?)
    }

    /// Reads a clip/cull input of type `ty` starting at element `offset` of `var`.
    pub(crate) fn read_clip(&mut self, var: SpvId, offset: u32, ty: TypeId) -> R<SpvId> {
        let f = self.b.ctx.type_f32();
        match *self.m.types.get(ty) {
            Type::Vector(_, n) => {
                let mut parts = Vec::new();
                for i in 0..n as u32 {
                    let c = self.b.ctx.const_u32(offset + i);
                    let p = self.clip_elem(var, StorageClass::Input, c, None)?;
                    parts.push(self.b.load(f, p, None)?);
                }
                let t = self.b.ctx.type_vector(f, n as u32);
                Ok(self.b.composite_construct(t, &parts)?)
            }
            Type::Array { elem, len: Some(n) } => {
                let w = clip_width(&self.m.types, elem).unwrap_or(1);
                let mut parts = Vec::new();
                for e in 0..n {
                    parts.push(self.read_clip(var, offset + e * w, elem)?);
                }
                let et = self.ty(elem, super::layout::Layout::Logical)?;
                let t = self.b.ctx.type_array(et, n, None);
                Ok(self.b.composite_construct(t, &parts)?)
            }
            _ => {
                let c = self.b.ctx.const_u32(offset);
                let p = self.clip_elem(var, StorageClass::Input, c, None)?;
                Ok(self.b.load(f, p, None)?)
            }
        }
    }

    /// Writes `value` (of type `ty`) to a clip/cull output starting at element `offset` of `var`.
    /// Like DXC, an array's element `e` starts at `offset + e * width` computed with an `OpIAdd`,
    /// and each scalar comes straight out of the whole value.
    pub(crate) fn write_clip(&mut self, var: SpvId, offset: u32, ty: TypeId, value: SpvId) -> R<()> {
        let f = self.b.ctx.type_f32();
        let start = self.b.ctx.const_u32(offset);
        match *self.m.types.get(ty) {
            Type::Vector(_, n) => self.write_clip_vector(var, start, n as u32, value, &[]),
            Type::Array { elem, len: Some(n) } => {
                let w = clip_width(&self.m.types, elem).unwrap_or(1);
                let u = self.b.ctx.type_u32();
                for e in 0..n {
                    let step = self.b.ctx.const_u32(e * w);
                    let base = self.b.binary(Op::IAdd, u, start, step)?;
                    match *self.m.types.get(elem) {
                        Type::Vector(_, m) => self.write_clip_vector(var, base, m as u32, value, &[e])?,
                        _ => {
                            let p = self.clip_elem(var, StorageClass::Output, base, None)?;
                            let x = self.b.composite_extract(f, value, &[e])?;
                            self.b.store(p, x, None)?;
                        }
                    }
                }
                Ok(())
            }
            _ => {
                let p = self.clip_elem(var, StorageClass::Output, start, None)?;
                self.b.store(p, value, None)?;
                Ok(())
            }
        }
    }

    /// Writes the `n` components of the vector at `path` inside `value` from element `base` on.
    fn write_clip_vector(&mut self, var: SpvId, base: SpvId, n: u32, value: SpvId, path: &[u32]) -> R<()> {
        let f = self.b.ctx.type_f32();
        for i in 0..n {
            let p = self.clip_elem(var, StorageClass::Output, base, Some(i))?;
            let idx: Vec<u32> = path.iter().copied().chain([i]).collect();
            let x = self.b.composite_extract(f, value, &idx)?;
            self.b.store(p, x, None)?;
        }
        Ok(())
    }
}
