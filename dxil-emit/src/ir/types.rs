//! IR types: LLVM 3.7's type system with typed pointers, uniqued per module.
//!
//! Invariants:
//! - Every [`TypeId`] indexes the [`TypeTable`] of the module that created it; ids are dense and in
//!   creation order, so a bitcode writer can emit the type table by walking `0..len`.
//! - Literal types are uniqued structurally: asking twice for `<4 x float>` gives the same id.
//! - Identified (named) structs are uniqued by name; a name is defined at most once. An opaque named
//!   struct has `body: None` until [`TypeTable::set_struct_body`] fills it.
//! - Every type an id refers to was created before it (a named struct may refer to itself
//!   through a pointer only after its body is set, as in LLVM).

use indexmap::IndexMap;

/// Index of a type in its module's [`TypeTable`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// A type. Integer widths are 1..=64 in practice (DXIL allows 1, 8, 16, 32, 64).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Label,
    Metadata,
    Half,
    Float,
    Double,
    Int(u32),
    Pointer { pointee: TypeId, addrspace: u32 },
    Vector { elem: TypeId, len: u32 },
    Array { elem: TypeId, len: u64 },
    /// A literal (unnamed) struct, printed `{ i32, float }`.
    Struct { fields: Vec<TypeId>, packed: bool },
    /// An identified struct, printed `%name`; `body` is `None` while opaque.
    Named { name: String, body: Option<Vec<TypeId>>, packed: bool },
    Function { ret: TypeId, params: Vec<TypeId>, vararg: bool },
}

/// The module's types. See the module documentation for the invariants.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: Vec<Type>,
    literal: IndexMap<Type, TypeId>,
    named: IndexMap<String, TypeId>,
}

impl TypeTable {
    pub fn new() -> TypeTable {
        TypeTable::default()
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }

    /// All types in id order.
    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &Type)> {
        self.types.iter().enumerate().map(|(i, t)| (TypeId(i as u32), t))
    }

    /// Uniques a literal type. A `Type::Named` is forwarded to [`TypeTable::named_struct`].
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Type::Named { name, body, .. } = ty {
            return self.named_struct(&name, body);
        }
        if let Some(&id) = self.literal.get(&ty) {
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.literal.insert(ty, id);
        id
    }

    /// The identified struct `name`, created with `body` if it does not exist yet. If it exists,
    /// its id is returned and `body` is ignored unless the existing struct is still opaque.
    pub fn named_struct(&mut self, name: &str, body: Option<Vec<TypeId>>) -> TypeId {
        if let Some(&id) = self.named.get(name) {
            if let Some(fields) = body {
                self.set_struct_body(id, fields);
            }
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(Type::Named { name: name.to_string(), body, packed: false });
        self.named.insert(name.to_string(), id);
        id
    }

    /// Fills an opaque named struct. A struct whose body is already set keeps it.
    pub fn set_struct_body(&mut self, id: TypeId, fields: Vec<TypeId>) {
        if let Type::Named { body, .. } = &mut self.types[id.0 as usize] {
            if body.is_none() {
                *body = Some(fields);
            }
        }
    }

    pub fn lookup_named(&self, name: &str) -> Option<TypeId> {
        self.named.get(name).copied()
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }
    pub fn label(&mut self) -> TypeId {
        self.intern(Type::Label)
    }
    pub fn metadata(&mut self) -> TypeId {
        self.intern(Type::Metadata)
    }
    pub fn int(&mut self, bits: u32) -> TypeId {
        self.intern(Type::Int(bits))
    }
    pub fn i1(&mut self) -> TypeId {
        self.int(1)
    }
    pub fn i8(&mut self) -> TypeId {
        self.int(8)
    }
    pub fn i32(&mut self) -> TypeId {
        self.int(32)
    }
    pub fn half(&mut self) -> TypeId {
        self.intern(Type::Half)
    }
    pub fn float(&mut self) -> TypeId {
        self.intern(Type::Float)
    }
    pub fn double(&mut self) -> TypeId {
        self.intern(Type::Double)
    }
    pub fn pointer(&mut self, pointee: TypeId, addrspace: u32) -> TypeId {
        self.intern(Type::Pointer { pointee, addrspace })
    }
    pub fn vector(&mut self, elem: TypeId, len: u32) -> TypeId {
        self.intern(Type::Vector { elem, len })
    }
    pub fn array(&mut self, elem: TypeId, len: u64) -> TypeId {
        self.intern(Type::Array { elem, len })
    }
    pub fn literal_struct(&mut self, fields: Vec<TypeId>) -> TypeId {
        self.intern(Type::Struct { fields, packed: false })
    }
    pub fn function(&mut self, ret: TypeId, params: Vec<TypeId>) -> TypeId {
        self.intern(Type::Function { ret, params, vararg: false })
    }

    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Void)
    }

    /// Integer width, if `id` is an integer type.
    pub fn int_width(&self, id: TypeId) -> Option<u32> {
        match self.get(id) {
            Type::Int(w) => Some(*w),
            _ => None,
        }
    }

    pub fn is_float_like(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Half | Type::Float | Type::Double)
    }

    /// The element type of a vector, or the type itself.
    pub fn scalar_of(&self, id: TypeId) -> TypeId {
        match self.get(id) {
            Type::Vector { elem, .. } => *elem,
            _ => id,
        }
    }

    /// Pointee of a pointer type.
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id) {
            Type::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        }
    }

    /// Return and parameter types of a function type.
    pub fn fn_parts(&self, id: TypeId) -> Option<(TypeId, &[TypeId])> {
        match self.get(id) {
            Type::Function { ret, params, .. } => Some((*ret, params)),
            _ => None,
        }
    }

    /// Field `index` of a struct or element type of an array/vector.
    pub fn member(&self, id: TypeId, index: u64) -> Option<TypeId> {
        match self.get(id) {
            Type::Struct { fields, .. } | Type::Named { body: Some(fields), .. } => {
                usize::try_from(index).ok().and_then(|i| fields.get(i)).copied()
            }
            Type::Array { elem, len } if index < *len => Some(*elem),
            Type::Vector { elem, len } if index < u64::from(*len) => Some(*elem),
            _ => None,
        }
    }
}
