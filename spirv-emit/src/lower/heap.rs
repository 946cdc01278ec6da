//! SM 6.6 descriptor heaps (`ResourceDescriptorHeap[i]`, `SamplerDescriptorHeap[i]`), as DXC
//! maps them (SPIR-V.rst, "ResourceDescriptorHeaps & SamplerDescriptorHeaps").
//!
//! Every resource type read from a heap gets its own runtime array variable of that type, made
//! when first used (`%ResourceDescriptorHeap`, `%ResourceDescriptorHeap_0`, ...); all the arrays
//! of one heap share one binding (aliasing, `VK_EXT_mutable_descriptor_type`). Structured
//! buffers whose counter is used get a runtime array of counters, indexed like the heap
//! (`%counter.var.ResourceDescriptorHeap`). Bindings are chosen after every other resource is
//! bound: `-fvk-bind-{resource,sampler,counter}-heap` when given, else the lowest unused
//! bindings of set 0, in the order resource heap, sampler heap, counters.
//!
//! A local resource variable initialized from a heap (or any other resource) is an alias of the
//! initializer's descriptor: its home is the pointer the initializer designates, so its uses
//! read the descriptor directly as DXC's legalized output does; an image or sampler is loaded
//! once, at the declaration.

use super::place::Place;
use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use crate::types::{Decoration, StructMember, StructType};
use hlslc_sema::tast::{ExprId, ExprKind, VarId};
use hlslc_sema::types::{ObjectKind, Type, TypeId};
use spirv::{Decoration as D, StorageClass};
use std::collections::{BTreeSet, HashMap};

/// The heap variables made so far and what binding assignment needs to place them.
#[derive(Default)]
pub(crate) struct Heaps {
    /// One runtime array per (heap, resource type): `(sampler, type) → variable`, in creation
    /// order.
    arrays: Vec<(bool, TypeId, SpvId)>,
    /// The runtime array of structured-buffer counters, when one is used.
    counters: Option<SpvId>,
    /// For a local resource variable bound to a heap element: the element's index, so that its
    /// counter is found.
    pub(crate) alias_index: HashMap<VarId, SpvId>,
    /// The index value and the array variable of the last heap element lowered to a place.
    last_index: Option<SpvId>,
    last_var: Option<SpvId>,
    /// Heap arrays decorated `Coherent`.
    coherent: BTreeSet<SpvId>,
    /// Images and samplers already loaded from a heap element's pointer, as the local alias's
    /// declaration loads them (only fresh access chains, which dominate their uses).
    pub(crate) loaded: HashMap<SpvId, SpvId>,
    /// `(set, binding)` pairs taken by the module's other resources.
    pub(crate) used: BTreeSet<(u32, u32)>,
}

impl<'m> Lowerer<'m> {
    /// The place of `ResourceDescriptorHeap[index]` / `SamplerDescriptorHeap[index]` as a `ty`.
    pub(crate) fn heap_place(&mut self, sampler: bool, index: ExprId, ty: TypeId, e: ExprId) -> R<Place> {
        let Type::Object { kind, .. } = self.m.types.get(ty).clone() else {
            return unsupported("a descriptor heap element not converted to a resource type", self.expr_span(e));
        };
        if matches!(kind, ObjectKind::ResourceHeapElement | ObjectKind::SamplerHeapElement) {
            return unsupported("a descriptor heap element not converted to a resource type", self.expr_span(e));
        }
        let (sc, layout) = self.object_storage(kind);
        let elem = self.object_ty(ty)?;
        let var = self.heap_array(sampler, ty, elem, sc);
        let idx = self.rvalue(index)?;
        let pty = self.b.ctx.type_pointer(sc, elem);
        let ptr = self.b.access_chain(pty, var, &[idx])?;
        self.heaps.last_index = Some(idx);
        self.heaps.last_var = Some(var);
        Ok(Place::Ptr { ptr, sc, layout, ty })
    }

    fn heap_array(&mut self, sampler: bool, ty: TypeId, elem: SpvId, sc: StorageClass) -> SpvId {
        if let Some(&(_, _, v)) = self.heaps.arrays.iter().find(|(s, t, _)| *s == sampler && *t == ty) {
            return v;
        }
        let ra = self.b.ctx.type_runtime_array(elem, None);
        let pty = self.b.ctx.type_pointer(sc, ra);
        let var = self.b.global_variable(pty, sc, None);
        self.global_ids.push(var);
        self.b.ctx.name(var, if sampler { "SamplerDescriptorHeap" } else { "ResourceDescriptorHeap" });
        self.heaps.arrays.push((sampler, ty, var));
        var
    }

    /// The index of the heap element that the buffer expression `obj` designates, if it is one
    /// (directly or through a local alias).
    pub(crate) fn heap_index_of(&mut self, obj: ExprId) -> R<Option<SpvId>> {
        match &self.m.expr(obj).kind {
            ExprKind::HeapIndex { sampler: false, index } => Ok(Some(self.rvalue(*index)?)),
            ExprKind::Var(v) => match self.vars.get(v) {
                Some(super::VarHome::Alias(init)) => {
                    let init = *init;
                    self.heap_index_of(init)
                }
                _ => Ok(self.heaps.alias_index.get(v).copied()),
            },
            _ => Ok(None),
        }
    }

    /// A pointer to the counter (an `int` in a storage buffer) of heap element `index`.
    pub(crate) fn heap_counter_ptr(&mut self, index: SpvId) -> R<SpvId> {
        let int = self.b.ctx.type_i32();
        let (sc, block) = self.storage_block();
        let counter_ty = self.b.ctx.type_struct(StructType {
            name: "type.ACSBuffer.counter".to_string(),
            members: vec![StructMember { ty: int, name: String::new(), decorations: vec![Decoration::with_literals(D::Offset, &[0])] }],
            decorations: vec![Decoration::new(block)],
        });
        let var = match self.heaps.counters {
            Some(v) => v,
            None => {
                let ra = self.b.ctx.type_runtime_array(counter_ty, None);
                let pty = self.b.ctx.type_pointer(sc, ra);
                let v = self.b.global_variable(pty, sc, None);
                self.global_ids.push(v);
                self.b.ctx.name(v, "counter.var.ResourceDescriptorHeap");
                self.heaps.counters = Some(v);
                v
            }
        };
        let ptr_ty = self.b.ctx.type_pointer(sc, int);
        let zero = self.b.ctx.const_u32(0);
        Ok(self.b.access_chain(ptr_ty, var, &[index, zero])?)
    }

    /// Decorates the heap variables with their set and binding (after all functions are
    /// lowered, so that only the heaps in use take bindings).
    pub(crate) fn bind_heaps(&mut self) {
        let mut used = std::mem::take(&mut self.heaps.used);
        let next = |explicit: Option<(u32, u32)>, used: &mut BTreeSet<(u32, u32)>| {
            if let Some((binding, set)) = explicit {
                used.insert((set, binding));
                return (binding, set);
            }
            let mut b = 0;
            while used.contains(&(0, b)) {
                b += 1;
            }
            used.insert((0, b));
            (b, 0)
        };
        let arrays = self.heaps.arrays.clone();
        for sampler in [false, true] {
            let vars: Vec<SpvId> = arrays.iter().filter(|(s, _, _)| *s == sampler).map(|(_, _, v)| *v).collect();
            if vars.is_empty() {
                continue;
            }
            let explicit = if sampler { self.opts.sampler_heap_binding } else { self.opts.resource_heap_binding };
            let (binding, set) = next(explicit, &mut used);
            for v in vars {
                self.heap_decorate(v, set, binding);
            }
        }
        if let Some(c) = self.heaps.counters {
            let (binding, set) = next(self.opts.counter_heap_binding, &mut used);
            self.heap_decorate(c, set, binding);
        }
    }

    fn heap_decorate(&mut self, var: SpvId, set: u32, binding: u32) {
        self.b.ctx.decorate(var, &Decoration::with_literals(D::DescriptorSet, &[set]));
        self.b.ctx.decorate(var, &Decoration::with_literals(D::Binding, &[binding]));
    }

    /// The place a use of the static resource variable `v` designates: its initializer's.
    pub(crate) fn alias_place(&mut self, v: VarId, init: ExprId) -> R<Place> {
        let place = self.lvalue(init)?;
        self.mark_coherent(v, init);
        Ok(place)
    }

    /// `globallycoherent` on a variable initialized from a heap element makes the heap's array
    /// `Coherent` (right after the element was lowered).
    fn mark_coherent(&mut self, v: VarId, init: ExprId) {
        if !self.m.var(v).globally_coherent || !matches!(self.m.expr(init).kind, ExprKind::HeapIndex { .. }) {
            return;
        }
        if let Some(var) = self.heaps.last_var {
            if self.heaps.coherent.insert(var) {
                self.b.ctx.decorate(var, &Decoration::new(D::Coherent));
            }
        }
    }

    /// A local resource variable `v` now aliases the descriptor at `ptr` that its initializer
    /// `init` designates: an image or sampler from a heap is loaded here, once; a heap
    /// element's index is kept for its counter; `globallycoherent` marks the heap `Coherent`.
    pub(crate) fn note_heap_alias(&mut self, v: VarId, init: ExprId, ptr: SpvId, storage: StorageClass) -> R<()> {
        let var = self.m.var(v);
        let from_heap = matches!(self.m.expr(init).kind, ExprKind::HeapIndex { .. });
        if storage == StorageClass::UniformConstant && from_heap {
            let ty = self.object_ty(var.ty)?;
            let value = self.b.load(ty, ptr, None)?;
            self.heaps.loaded.insert(ptr, value);
        }
        let index = match &self.m.expr(init).kind {
            ExprKind::HeapIndex { sampler: false, .. } => self.heaps.last_index,
            ExprKind::Var(src) => self.heaps.alias_index.get(src).copied(),
            _ => None,
        };
        if let Some(i) = index {
            self.heaps.alias_index.insert(v, i);
        }
        self.mark_coherent(v, init);
        Ok(())
    }
}
