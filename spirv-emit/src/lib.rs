//! hlslc-spirv: the SPIR-V backend.
//!
//! The pieces, after DXC's split (SpirvContext / SpirvBuilder / passes / EmitVisitor):
//!
//! - [`context::Context`] owns and uniques types and constants and hands out ids;
//! - [`builder::ModuleBuilder`] holds the module-level sections and, through [`function`] and
//!   [`inst`], functions with structured blocks; it lays the module out in SPIR-V's section order;
//! - [`passes`] are whole-module passes (capabilities/extensions, RelaxedPrecision), run in the
//!   order written once in `passes/mod.rs`;
//! - [`layout`] computes buffer layouts (DXC's relaxed std140/std430, GL, DX, scalar) over its own
//!   small type description;
//! - [`disasm`] turns words into text exactly as SPIRV-Tools' `spirv-dis` prints by default.

pub mod builder;
pub mod context;
mod debug_order;
pub mod disasm;
pub mod error;
pub mod function;
pub mod id;
pub mod inst;
pub mod layout;
pub mod lower;
pub mod passes;
pub mod target;
pub mod types;

pub use builder::{BuiltModule, EntryPoint, ModuleBuilder};
pub use context::Context;
pub use error::BuildError;
pub use id::SpvId;
pub use target::TargetEnv;
