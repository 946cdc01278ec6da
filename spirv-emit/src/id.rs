//! Result ids.

use std::fmt;

/// A SPIR-V result id. Invariant: never 0 (0 is not a valid SPIR-V id); every `SpvId` is handed out
/// by one [`crate::Context`] and is below its bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpvId(pub u32);

impl SpvId {
    /// The raw word, as rspirv's `Word`.
    pub fn word(self) -> u32 {
        self.0
    }
}

impl fmt::Display for SpvId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl From<SpvId> for rspirv::dr::Operand {
    fn from(id: SpvId) -> Self {
        rspirv::dr::Operand::IdRef(id.0)
    }
}
