//! hlslc-dxil: the DXIL back end.
//!
//! - [`ops`]: the DXIL operation table (generated at build time from `ops.txt`, the one
//!   declarative source of op facts), `dx.op` names/signatures, and the checked op builder.
//! - [`ir`]: a small typed-pointer SSA IR in LLVM 3.7's shape, which the lowering builds and the
//!   printer and the bitcode writer consume.
//! - [`print`]: textual output in dxc's disassembly style.
//! - [`metadata`]: builders for DXIL's named metadata (`dx.version`, `dx.entryPoints`, ...).
//! - [`bitcode`]: the module as LLVM 3.7 bitcode ([`write_bitcode`]), what a DXIL container holds.
//! - [`container`]: the DXContainer around the bitcode (`-Fo`), and a reader for `-dumpbin`.
//! - [`rootsig`]: root signatures: the string language, its checks, and the `RTS0` part.

pub mod bitcode;
pub mod comments;
pub mod container;
pub mod ir;
pub mod metadata;
pub mod ops;
pub mod lower;
pub mod rootsig;
pub mod print;

pub use ops::{DxilOp, DxilVersion, Overload, Stage, Target};
pub use bitcode::write_bitcode;
pub use print::print_module;
