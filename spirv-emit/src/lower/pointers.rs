//! Buffer device addresses: `vk::BufferPointer<T, A>`, `vk::RawBufferLoad`/`RawBufferStore` and
//! the pointer casts, lowered to the `PhysicalStorageBuffer` storage class
//! (`SPV_KHR_physical_storage_buffer`), as SPIR-V.rst ("Buffer pointers", "Raw buffer load and
//! store") describes DXC's output:
//!
//! - `vk::BufferPointer<T, A>` is `OpTypePointer PhysicalStorageBuffer T`, `T` laid out as a
//!   storage buffer's contents; a buffer pointer is 8 bytes (aligned to 8) inside other types;
//! - `p.Get()` is the memory the pointer points to: accesses go through access chains on the
//!   loaded pointer, and every load and store there carries the `Aligned` memory operand that the
//!   physical storage class requires: `A` for the whole pointee (by default the alignment of `T`
//!   in the layout), and the layout alignment of the accessed type for a member or element;
//! - `vk::BufferPointer<T, A>(address)` is `OpConvertUToPtr`, `(uint64_t)p` `OpConvertPtrToU`,
//!   `vk::static_pointer_cast`/`reinterpret_pointer_cast` an `OpBitcast` between pointer types;
//! - `vk::RawBufferLoad<T>(address, alignment = 4)` bitcasts the address to a pointer to `T` and
//!   loads through it (a `bool` is stored as a `uint`), `vk::RawBufferStore` stores;
//! - a module that uses any of them has the `PhysicalStorageBuffer64` addressing model, and every
//!   `Function` variable that holds a buffer pointer is `RestrictPointer`, or `AliasedPointer`
//!   when declared `[[vk::aliased_pointer]]` (the storage class requires one of the two).
//!
//! A pointer to a struct that contains a pointer to itself (a linked list) is declared ahead with
//! `OpTypeForwardPointer`.

use super::layout::Layout;
use super::place::Place;
use super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};
use rspirv::dr::Operand;
use spirv::{Decoration as D, MemoryAccess, Op, StorageClass};

/// Buffer-pointer state of a module.
#[derive(Default)]
pub(crate) struct Pointers {
    /// Pointee types being lowered (a pointer met again inside its own pointee is recursive).
    pending: Vec<TypeId>,
    /// Forward-declared pointers to the pending pointees that contain them.
    forward: hlslc_frontend::fxhash::FxMap<TypeId, SpvId>,
    /// The module uses the physical storage class.
    pub used: bool,
    /// The alignment of loads and stores through each pointer that `Get()` or a raw buffer
    /// access made (their whole pointee).
    pub align: hlslc_frontend::fxhash::FxMap<SpvId, u32>,
    /// `Function` variables declared `[[vk::aliased_pointer]]`.
    pub aliased: Vec<SpvId>,
}

impl<'m> Lowerer<'m> {
    /// `OpTypePointer PhysicalStorageBuffer` to the pointee `elem` of buffer pointer type `t`.
    pub(crate) fn buffer_pointer_ty(&mut self, elem: TypeId) -> R<SpvId> {
        const PSB: StorageClass = StorageClass::PhysicalStorageBuffer;
        if self.pointers.pending.contains(&elem) {
            // A pointer inside its own pointee (a linked list): declared ahead with
            // `OpTypeForwardPointer`, completed once the pointee is.
            if let Some(&id) = self.pointers.forward.get(&elem) {
                return Ok(id);
            }
            let id = self.b.ctx.forward_pointer(PSB);
            self.pointers.forward.insert(elem, id);
            return Ok(id);
        }
        self.pointers.pending.push(elem);
        let pointee = self.ty(elem, Layout::Std430);
        self.pointers.pending.pop();
        self.pointers.used = true;
        let pointee = pointee?;
        Ok(match self.pointers.forward.remove(&elem) {
            Some(id) => self.b.ctx.complete_pointer(id, PSB, pointee),
            None => self.b.ctx.type_pointer(PSB, pointee),
        })
    }

    /// The declared alignment of buffer pointer type `t`: its second template argument, or the
    /// layout alignment of its pointee.
    fn pointer_alignment(&self, t: TypeId) -> u32 {
        match self.m.types.get(t) {
            Type::Object { kind: ObjectKind::VkBufferPointer, elem: Some(e), count } => {
                count.unwrap_or_else(|| self.opts.layout.align_size(&self.m.types, *e, Layout::Std430).0)
            }
            _ => 4,
        }
    }

    /// `p.Get()`: the pointee of the buffer pointer `object` evaluates to.
    pub(crate) fn buffer_pointer_place(&mut self, object: ExprId, ty: TypeId) -> R<Place> {
        let ptr = self.rvalue(object)?;
        let align = self.pointer_alignment(self.m.expr(object).ty);
        self.pointers.align.insert(ptr, align);
        Ok(Place::Ptr { ptr, sc: StorageClass::PhysicalStorageBuffer, layout: Layout::Std430, ty })
    }

    /// The `Aligned` operand of a load or store through `ptr`, a pointer to a value of `ty`.
    pub(crate) fn physical_alignment(&self, ptr: SpvId, ty: TypeId) -> u32 {
        match self.pointers.align.get(&ptr) {
            Some(&a) => a,
            None => self.opts.layout.align_size(&self.m.types, ty, Layout::Std430).0,
        }
    }

    /// `OpLoad` with `Aligned a`.
    pub(crate) fn load_aligned(&mut self, sty: SpvId, ptr: SpvId, a: u32) -> R<SpvId> {
        Ok(self.b.value(Op::Load, sty, vec![Operand::IdRef(ptr.0), Operand::MemoryAccess(MemoryAccess::ALIGNED), Operand::LiteralBit32(a)])?)
    }

    /// `OpStore` with `Aligned a`.
    pub(crate) fn store_aligned(&mut self, ptr: SpvId, v: SpvId, a: u32) -> R<()> {
        self.b.void(
            Op::Store,
            vec![Operand::IdRef(ptr.0), Operand::IdRef(v.0), Operand::MemoryAccess(MemoryAccess::ALIGNED), Operand::LiteralBit32(a)],
        )?;
        Ok(())
    }

    /// An address (`uint64_t`, or a `uint2` of its low and high words) to a pointer of type `to`.
    pub(crate) fn address_to_pointer(&mut self, addr: SpvId, from: TypeId, to: SpvId) -> R<SpvId> {
        let addr = self.address_u64(addr, from)?;
        Ok(self.b.value(Op::ConvertUToPtr, to, vec![Operand::IdRef(addr.0)])?)
    }

    /// A pointer to its `uint64_t` address.
    pub(crate) fn pointer_to_address(&mut self, p: SpvId) -> R<SpvId> {
        let ulong = self.scalar_ty(ScalarKind::UInt64, Layout::Logical);
        Ok(self.b.value(Op::ConvertPtrToU, ulong, vec![Operand::IdRef(p.0)])?)
    }

    /// An address as a `uint64_t`: a `uint2` is bitcast, other integers converted.
    fn address_u64(&mut self, addr: SpvId, from: TypeId) -> R<SpvId> {
        let ulong = self.scalar_ty(ScalarKind::UInt64, Layout::Logical);
        match self.m.types.get(from) {
            Type::Vector(_, 2) => Ok(self.b.value(Op::Bitcast, ulong, vec![Operand::IdRef(addr.0)])?),
            Type::Scalar(ScalarKind::UInt64) => Ok(addr),
            Type::Scalar(ScalarKind::Int64) => Ok(self.b.value(Op::Bitcast, ulong, vec![Operand::IdRef(addr.0)])?),
            Type::Scalar(ScalarKind::Int | ScalarKind::Int16 | ScalarKind::Min16Int | ScalarKind::Min12Int | ScalarKind::LitInt) => {
                Ok(self.b.value(Op::SConvert, ulong, vec![Operand::IdRef(addr.0)])?)
            }
            _ => Ok(self.b.value(Op::UConvert, ulong, vec![Operand::IdRef(addr.0)])?),
        }
    }

    /// `vk::static_pointer_cast<T, A>(p)` / `vk::reinterpret_pointer_cast<T, A>(p)`: the same
    /// address as a pointer of the result type.
    pub(crate) fn pointer_cast(&mut self, arg: ExprId, ty: TypeId) -> R<SpvId> {
        let p = self.rvalue(arg)?;
        let to = self.ty(ty, Layout::Logical)?;
        if self.ty(self.m.expr(arg).ty, Layout::Logical)? == to {
            return Ok(p);
        }
        Ok(self.b.value(Op::Bitcast, to, vec![Operand::IdRef(p.0)])?)
    }

    /// `vk::RawBufferLoad<T>(address[, alignment])`.
    pub(crate) fn raw_buffer_load(&mut self, args: &[ExprId], ty: TypeId) -> R<SpvId> {
        let (ptr, a) = self.raw_pointer(args[0], args.get(1).copied(), ty)?;
        let place = Place::Ptr { ptr, sc: StorageClass::PhysicalStorageBuffer, layout: Layout::Std430, ty };
        self.pointers.align.insert(ptr, a);
        self.load(&place)
    }

    /// `vk::RawBufferStore<T>(address, value[, alignment])`.
    pub(crate) fn raw_buffer_store(&mut self, args: &[ExprId]) -> R<()> {
        let ty = self.m.expr(args[1]).ty;
        let (ptr, a) = self.raw_pointer(args[0], args.get(2).copied(), ty)?;
        let v = self.rvalue(args[1])?;
        let place = Place::Ptr { ptr, sc: StorageClass::PhysicalStorageBuffer, layout: Layout::Std430, ty };
        self.pointers.align.insert(ptr, a);
        self.store(&place, v)
    }

    /// The address argument as a pointer to `ty`, and the alignment (4 unless given; it must be
    /// a constant power of two).
    fn raw_pointer(&mut self, addr: ExprId, align: Option<ExprId>, ty: TypeId) -> R<(SpvId, u32)> {
        let a = match align {
            None => 4,
            Some(x) => match self.const_index(x) {
                Some(a) if a.is_power_of_two() => a,
                _ => {
                    return Err(super::LowerError {
                        fatal: false,
                        message: "alignment argument must be a constant unsigned integer".into(),
                        span: self.expr_span(x),
                        notes: Vec::new(),
                    })
                }
            },
        };
        let v = self.rvalue(addr)?;
        let v = self.address_u64(v, self.m.expr(addr).ty)?;
        let pointee = self.ty(ty, Layout::Std430)?;
        self.pointers.used = true;
        let pty = self.b.ctx.type_pointer(StorageClass::PhysicalStorageBuffer, pointee);
        Ok((self.b.value(Op::Bitcast, pty, vec![Operand::IdRef(v.0)])?, a))
    }

    /// After lowering: the addressing model, and `RestrictPointer`/`AliasedPointer` on every
    /// `Function` variable that holds a buffer pointer.
    pub(crate) fn finish_pointers(&mut self) {
        if !self.pointers.used {
            return;
        }
        self.b.memory_model(spirv::AddressingModel::PhysicalStorageBuffer64, spirv::MemoryModel::GLSL450);
        let m = self.m;
        for (&v, home) in &self.vars {
            let aliased = m.var(v).attrs.iter().any(|a| a.namespace.as_deref() == Some("vk") && a.name == "aliased_pointer");
            if let (true, super::VarHome::Ptr { ptr, .. }) = (aliased, home) {
                self.pointers.aliased.push(*ptr);
            }
        }
        let mut holders = self.b.pointer_holding_locals();
        // Parameters declared `[[vk::aliased_pointer]]` too.
        holders.extend(self.pointers.aliased.iter().copied().filter(|p| !holders.contains(p)).collect::<Vec<_>>());
        for v in holders {
            let d = if self.pointers.aliased.contains(&v) { D::AliasedPointer } else { D::RestrictPointer };
            self.b.ctx.decorate(v, &crate::types::Decoration::new(d));
        }
    }
}
