//! Declarations dxc refuses when targeting SPIR-V (its `SpirvEmitter::doVarDecl` and
//! `DeclResultIdMapper::createExternVar` checks), each reported at the variable's name; the
//! errors are deferred ([`Lowerer::defer_error`]) so that every declaration gets its own.
//!
//! - a global struct (or array of them) with both resources and other members, or with only
//!   resources among which a structured, byte-address or constant/texture buffer;
//! - an array of arrays of RW/append/consume structured buffers (their counters);
//! - a texture or typed buffer of 16-bit floats in a Vulkan environment;
//! - an integer or bool column-major matrix (at any depth) in an externally set variable: a
//!   `$Globals` or `cbuffer` member, or the element type of a buffer;
//! - a `string` variable without an initializer.

use super::Lowerer;
use hlslc_sema::tast::{Storage, VarId};
use hlslc_sema::types::{MatrixLayout, ObjectKind, ScalarKind, Type, TypeId};

impl<'m> Lowerer<'m> {
    /// Reports every declaration dxc refuses (see the module documentation).
    pub(crate) fn refuse_declarations(&mut self) {
        let m = self.m;
        let members = m.cbuffers.iter().flat_map(|c| c.members.iter().copied());
        let mut vars: Vec<VarId> = m.globals.iter().copied().chain(members).collect();
        vars.sort_by_key(|v| v.0); // in declaration order
        vars.dedup();
        for v in vars {
            let var = m.var(v);
            let external = matches!(var.storage, Storage::Uniform | Storage::CBufferMember { .. });
            let at = Some(var.span);
            if *m.types.get(var.ty) == Type::String {
                if var.init.is_none() {
                    self.defer_error("Found uninitialized string variable.", at);
                }
                continue;
            }
            if external && self.non_fp_col_major(var.ty) {
                self.defer_error("externally initialized non-floating-point column-major matrices not supported yet", at);
            }
            if let Type::Array { elem, .. } = m.types.get(var.ty) {
                let counted = matches!(
                    self.object_kind(var.ty),
                    Some(ObjectKind::RWStructuredBuffer | ObjectKind::AppendStructuredBuffer | ObjectKind::ConsumeStructuredBuffer)
                );
                if counted && matches!(m.types.get(*elem), Type::Array { .. }) {
                    self.defer_error("Multi-dimensional arrays of RW/append/consume structured buffers are unsupported in Vulkan", at);
                    continue;
                }
            }
            if self.opts.target != crate::target::TargetEnv::Universal1_5 {
                if let Type::Object { kind, elem: Some(e), .. } = m.types.get(var.ty) {
                    let image = super::resources::image_shape(*kind).is_some() && !matches!(kind, ObjectKind::VkSubpassInput | ObjectKind::VkSubpassInputMS);
                    if image && m.types.component(*e) == Some(ScalarKind::Half) {
                        self.defer_error(
                            "The sampled type for textures cannot be a floating point type smaller than 32-bits when targeting a Vulkan environment.",
                            at,
                        );
                        continue;
                    }
                }
            }
            if var.storage == Storage::Uniform && self.is_struct(var.ty) {
                let (resources, others) = self.struct_contents(var.ty);
                if resources && others {
                    self.defer_error("global structures containing both resources and non-resources are not supported", at);
                } else if resources && self.struct_has_buffer(var.ty) {
                    self.defer_error("global structures containing buffers are not supported", at);
                }
            }
        }
    }

    /// The object kind of `t`, arrays stripped.
    fn object_kind(&self, t: TypeId) -> Option<ObjectKind> {
        match self.m.types.get(self.strip_arrays(t)) {
            Type::Object { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    fn strip_arrays(&self, mut t: TypeId) -> TypeId {
        while let Type::Array { elem, .. } = self.m.types.get(t) {
            t = *elem;
        }
        t
    }

    fn is_struct(&self, t: TypeId) -> bool {
        matches!(self.m.types.get(self.strip_arrays(t)), Type::Struct(_))
    }

    /// The member types of struct `t` (arrays stripped): its bases, then its fields.
    fn member_types(&self, t: TypeId) -> Vec<TypeId> {
        match self.m.types.get(self.strip_arrays(t)) {
            Type::Struct(sid) => {
                let def = &self.m.types.structs[sid.0 as usize];
                def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether struct `t` has (at any depth) resource members, and members that are not.
    fn struct_contents(&self, t: TypeId) -> (bool, bool) {
        let (mut resources, mut others) = (false, false);
        for f in self.member_types(t) {
            let ft = self.strip_arrays(f);
            match self.m.types.get(ft) {
                Type::Object { kind, .. } if kind.resource_class().is_some() => resources = true,
                Type::Struct(_) => {
                    let (r, o) = self.struct_contents(ft);
                    resources |= r;
                    others |= o;
                }
                _ => others = true,
            }
        }
        (resources, others)
    }

    /// Whether struct `t` has (at any depth) a structured, byte-address, constant or texture
    /// buffer member.
    fn struct_has_buffer(&self, t: TypeId) -> bool {
        use ObjectKind::*;
        self.member_types(t).into_iter().any(|f| match self.m.types.get(self.strip_arrays(f)) {
            Type::Object { kind, .. } => matches!(
                kind,
                StructuredBuffer
                    | RWStructuredBuffer
                    | AppendStructuredBuffer
                    | ConsumeStructuredBuffer
                    | RasterizerOrderedStructuredBuffer
                    | ByteAddressBuffer
                    | RWByteAddressBuffer
                    | RasterizerOrderedByteAddressBuffer
                    | ConstantBuffer
                    | TextureBuffer
            ),
            Type::Struct(_) => self.struct_has_buffer(f),
            _ => false,
        })
    }

    /// Whether `t` is or holds (in arrays, struct members, or as a buffer's element type) an
    /// integer or bool matrix stored column-major.
    /// (A `vk::BufferPointer`'s pointee is not looked into: it is not set through the variable,
    /// and a linked list's node points to its own type.)
    fn non_fp_col_major(&self, t: TypeId) -> bool {
        match self.m.types.get(t) {
            Type::Matrix { elem, layout, .. } => !elem.is_float() && *layout == MatrixLayout::ColumnMajor,
            Type::Array { elem, .. } => self.non_fp_col_major(*elem),
            Type::Struct(_) => self.member_types(t).into_iter().any(|f| self.non_fp_col_major(f)),
            Type::Object { kind: ObjectKind::VkBufferPointer, .. } => false,
            Type::Object { elem: Some(e), .. } => self.non_fp_col_major(*e),
            _ => false,
        }
    }
}
