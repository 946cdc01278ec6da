//! Whole-module passes, run after the emitter over the finished module, in the one order written
//! in [`run_all`]. Before them, at every level but `-fcgl`, [`combined`] makes each texture and
//! sampler paired by `[[vk::combinedImageSampler]]` one sampled image variable (it needs the pairs
//! lowering found; `lower_module_all` runs it), and at every level [`interlock`] orders the
//! accesses of rasterizer-ordered views (it needs their variables; `lower_module_all` runs it):
//!
//! 1. [`relaxed_precision`]: decorate min-precision values;
//! 2. [`nonuniform`]: spread `NonUniform` from `NonUniformResourceIndex` to the descriptors it
//!    selects;
//! 3. [`capabilities`]: infer `OpCapability`/`OpExtension` from everything else, last, so that it
//!    sees every decoration the passes before it added.

pub mod capabilities;
pub mod combined;
pub mod interlock;
pub mod nonuniform;
pub mod relaxed_precision;
pub mod tables;

use crate::builder::BuiltModule;

/// Runs every pass, in order.
pub fn run_all(m: &mut BuiltModule) {
    relaxed_precision::run(&mut m.module, &m.relaxed_precision);
    nonuniform::run(&mut m.module);
    capabilities::run(&mut m.module, m.target);
}
