//! hlslc semantic analysis: from the front end's AST to the typed AST ([`tast`]) that both
//! emitters consume. See `../shared/STYLE.md` ("The typed AST is the contract").
//!
//! - [`types`]: the interned type table.
//! - [`tast`]: the typed AST and its invariants.
//! - [`entry`]: the entry-point interface ([`entry::Stage`], shared with the driver and both
//!   emitters).
//! - [`intrinsics`]: the intrinsic table (generated from `intrinsics/intrinsics.def`) and its
//!   overload resolution.
//! - [`attrs`]: the attribute table (where each attribute applies, what each emitter does).
//! - [`dump`]: the typed AST as text (`-ast-dump`).
//! - `check`: the checker (declarations, statements, expressions, conversions, calls, folding).
//! - [`stage`]: rules of entry points and their stage variables, on the typed AST.
//!
//! Sema never depends on SPIR-V or DXIL code.

pub mod attrs;
pub mod dump;
pub mod entry;
pub mod intrinsics;
pub mod layout;
pub mod numeric;
pub mod stage;
pub mod tast;
pub mod types;

mod check;

pub use check::consteval::fold_binary;
pub use check::{analyze, analyze_owned, Analyzer, SemaOptions};
pub use intrinsics::IntrinsicOp;
