//! What is particular to one shader stage beyond reading inputs and writing outputs
//! ([`super::entry`]): execution modes from the entry point's attributes, and the stage-only
//! operations (a geometry shader's `Append`/`RestartStrip`).

mod geometry;
mod mesh;
mod pixel;
mod tessellation;

pub(crate) use mesh::{task_payloads, MeshNode, MeshNvVars};
pub(crate) use tessellation::HullParams;
