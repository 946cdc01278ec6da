//! Metadata: tuples of operands (LLVM 3.7 `!{...}` nodes) and named metadata.
//!
//! Invariants:
//! - [`MdId`] indexes the module's node list; nodes are immutable once created (DXIL metadata is
//!   built bottom-up), so operands always refer to earlier nodes and there are no cycles.
//! - Nodes are uniqued like LLVM's (non-distinct) tuples: equal operand lists give one node.
//! - Named metadata keeps insertion order ([`indexmap::IndexMap`]); the printer numbers nodes by
//!   a pre-order walk from the named metadata, as LLVM's slot tracker does, so numbering does not
//!   depend on creation order.

use super::function::Value;
use super::types::TypeId;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MdId(pub u32);

/// One operand of a metadata tuple.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MdOperand {
    /// `null`
    Null,
    /// `!"text"`
    String(String),
    /// `<ty> <value>`: a constant, global or function.
    Value(TypeId, Value),
    /// `!N`
    Node(MdId),
}

/// `!{ operands }`, or with `special` set a specialized debug-information node
/// (`!DIFile(...)`, `!DILocation(...)`), whose `operands` are then empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MdNode {
    pub operands: Vec<MdOperand>,
    pub special: Option<Special>,
}

/// A specialized node in LLVM 3.7's syntax: `[distinct ]!<class>(field: value, ...)`, fields in
/// the order LLVM 3.7's writer prints them. A distinct node is never uniqued (its `unique` tells
/// equal-looking ones apart).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Special {
    pub class: &'static str,
    pub distinct: bool,
    pub unique: u32,
    pub fields: Vec<(&'static str, Field)>,
}

/// The value of a specialized node's field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `!N` (or `null`)
    Node(Option<MdId>),
    /// A quoted, escaped string: `"main"`.
    Str(String),
    /// Printed as is: a number, `true`, a DWARF or flag keyword (`DW_LANG_C_plus_plus`).
    Raw(String),
    /// `<ty> <value>`: the function a 3.7 `DISubprogram` describes.
    Value(TypeId, Value),
}
