//! SM 6.6 descriptor heaps: `ResourceDescriptorHeap[i]` and `SamplerDescriptorHeap[i]`.
//!
//! Neither heap is declared anywhere: the name, when no declaration shadows it and it is
//! indexed, gives an [`ExprKind::HeapIndex`] of the placeholder type `.Resource` / `.Sampler`
//! ([`ObjectKind::ResourceHeapElement`] / [`ObjectKind::SamplerHeapElement`]). As in DXC, the
//! placeholder converts implicitly (and by cast) to any resource type of its heap where it is
//! used: an initializer, an assignment, an argument, a `return`, a cast. The conversion
//! retypes the node in place (through `?:` and `,`), so emitters see a `HeapIndex` of the
//! resource type the program uses and never a conversion node.

use super::Checker;
use crate::tast::{ExprId, ExprKind};
use crate::types::{ObjectKind, ResourceClass, Type, TypeId, TypeTable};
use hlslc_frontend::ast;
use hlslc_frontend::Span;

const RESOURCE_HEAP: &str = "ResourceDescriptorHeap";
const SAMPLER_HEAP: &str = "SamplerDescriptorHeap";

/// `Some(true)` for the sampler heap's placeholder type, `Some(false)` for the resource heap's.
pub(crate) fn heap_element(types: &TypeTable, t: TypeId) -> Option<bool> {
    match types.get(t) {
        Type::Object { kind: ObjectKind::ResourceHeapElement, .. } => Some(false),
        Type::Object { kind: ObjectKind::SamplerHeapElement, .. } => Some(true),
        _ => None,
    }
}

/// Whether an element of the heap (`sampler` or resource) may become a `to`: samplers come from
/// the sampler heap, every other bound resource (SRV, UAV, CBV) from the resource heap.
pub(crate) fn heap_converts_to(types: &TypeTable, sampler: bool, to: TypeId) -> bool {
    let Type::Object { kind, .. } = types.get(to) else { return false };
    match kind.resource_class() {
        Some(ResourceClass::Sampler) => sampler,
        Some(_) => !sampler,
        None => false,
    }
}

impl Checker<'_> {
    /// `ResourceDescriptorHeap[index]` / `SamplerDescriptorHeap[index]`, when `base` names a heap
    /// that no declaration shadows; `None` otherwise.
    pub(crate) fn heap_index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> Option<ExprId> {
        let ast::ExprKind::Name(path) = &base.kind else { return None };
        let [part] = path.parts.as_slice() else { return None };
        let sampler = match part.name.as_str() {
            RESOURCE_HEAP => false,
            SAMPLER_HEAP => true,
            _ => return None,
        };
        if self.lookup(&[part.name.as_str()], path.global).is_some() {
            return None;
        }
        let i = self.check_expr(index);
        let it = self.ty_of(i);
        if self.m.types.is_error(it) {
            return Some(self.error_expr(span));
        }
        if !self.m.types.component(it).is_some_and(|k| k.is_int() || k.is_bool()) || self.m.types.shape(it) != Some(crate::types::Shape::Scalar) {
            let n = self.type_name(it);
            self.error(index.span, format!("descriptor heap index must be a scalar integer, not '{n}'"));
            return Some(self.error_expr(span));
        }
        let u = self.m.types.uint();
        let i = self.coerce(i, u);
        let kind = if sampler { ObjectKind::SamplerHeapElement } else { ObjectKind::ResourceHeapElement };
        let ty = self.m.types.object(kind, None, None);
        Some(self.add(ExprKind::HeapIndex { sampler, index: i }, ty, false, span))
    }

    /// Converts a heap element (possibly under `?:` or `,`) to the resource type `to` by
    /// retyping it in place; false (nothing changed) when some element cannot become a `to`.
    pub(crate) fn retype_heap(&mut self, e: ExprId, to: TypeId) -> bool {
        if !self.heap_retypable(e, to, 0) {
            return false;
        }
        self.set_heap_type(e, to, 0);
        true
    }

    fn heap_retypable(&self, e: ExprId, to: TypeId, depth: u32) -> bool {
        if depth > 256 {
            return false;
        }
        match &self.m.expr(e).kind {
            ExprKind::HeapIndex { sampler, .. } => heap_converts_to(&self.m.types, *sampler, to),
            ExprKind::Ternary { then, otherwise, .. } => {
                self.heap_retypable(*then, to, depth + 1) && self.heap_retypable(*otherwise, to, depth + 1)
            }
            ExprKind::Comma { rhs, .. } => self.heap_retypable(*rhs, to, depth + 1),
            _ => false,
        }
    }

    fn set_heap_type(&mut self, e: ExprId, to: TypeId, depth: u32) {
        if depth > 256 {
            return;
        }
        self.m.exprs[e.0 as usize].ty = to;
        match self.m.expr(e).kind.clone() {
            ExprKind::Ternary { then, otherwise, .. } => {
                self.set_heap_type(then, to, depth + 1);
                self.set_heap_type(otherwise, to, depth + 1);
            }
            ExprKind::Comma { rhs, .. } => self.set_heap_type(rhs, to, depth + 1),
            _ => {}
        }
    }
}
