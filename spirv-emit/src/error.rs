//! Errors of the SPIR-V backend's infrastructure.
//!
//! A [`BuildError`] means the emitter asked the builder for something that cannot make a valid
//! module (an instruction after a terminator, a block never terminated...). It is an internal
//! error of the compiler, reported as a [`Diagnostic`] rather than a panic.

use crate::id::SpvId;
use hlslc_frontend::diag::Diagnostic;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The id is not a type of this context (or not the kind of type required).
    NotAType(SpvId),
    /// A scalar constant was asked for a type that is not an int or float of width 8..=64.
    BadScalarType(SpvId),
    /// A function-level instruction while no function is open.
    NoFunction,
    /// `begin_function` while another function is open.
    FunctionAlreadyOpen,
    /// An instruction while no block is current (after a terminator, or before the first block).
    NoCurrentBlock,
    /// A label that is not a block of the current function.
    UnknownBlock(SpvId),
    /// Switching to, or emitting into, a block that already has its terminator.
    BlockTerminated(SpvId),
    /// `OpSelectionMerge`/`OpLoopMerge` not followed by the branch it requires.
    MergeWithoutBranch(SpvId),
    /// A function ended with a block that has no terminator.
    UnterminatedBlock(SpvId),
    /// A function ended without any block.
    EmptyFunction(SpvId),
    /// An entry point or execution mode names a function that does not exist.
    UnknownFunction(SpvId),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NotAType(id) => write!(f, "{id} is not a type of the required kind"),
            BuildError::BadScalarType(id) => write!(f, "{id} is not a scalar numeric type"),
            BuildError::NoFunction => write!(f, "instruction outside of a function"),
            BuildError::FunctionAlreadyOpen => write!(f, "a function is already being built"),
            BuildError::NoCurrentBlock => write!(f, "instruction with no current block"),
            BuildError::UnknownBlock(id) => write!(f, "{id} is not a block of the current function"),
            BuildError::BlockTerminated(id) => write!(f, "block {id} already has a terminator"),
            BuildError::MergeWithoutBranch(id) => {
                write!(f, "merge instruction in block {id} is not followed by a branch")
            }
            BuildError::UnterminatedBlock(id) => write!(f, "block {id} has no terminator"),
            BuildError::EmptyFunction(id) => write!(f, "function {id} has no blocks"),
            BuildError::UnknownFunction(id) => write!(f, "{id} is not a function of this module"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<BuildError> for Diagnostic {
    fn from(e: BuildError) -> Diagnostic {
        Diagnostic::error(format!("internal error in SPIR-V generation: {e}")).with_code("E0900")
    }
}

pub type Result<T> = std::result::Result<T, BuildError>;
