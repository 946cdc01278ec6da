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

/// `!{ operands }`
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MdNode {
    pub operands: Vec<MdOperand>,
}
