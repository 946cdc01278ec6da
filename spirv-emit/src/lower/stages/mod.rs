//! What is particular to one shader stage beyond reading inputs and writing outputs
//! ([`super::entry`]): execution modes from the entry point's attributes, and the stage-only
//! operations (a geometry shader's `Append`/`RestartStrip`).

mod geometry;
mod mesh;
mod tessellation;

pub(crate) use mesh::task_payloads;
pub(crate) use tessellation::HullParams;

use hlslc_sema::tast::{AttrArg, Function};

/// The integer arguments of the attribute `name` of `f` (`[maxvertexcount(3)]` gives `[3]`).
pub(crate) fn attr_ints(f: &Function, name: &str) -> Option<Vec<i64>> {
    let a = f.attrs.iter().find(|a| a.name.eq_ignore_ascii_case(name))?;
    Some(a.args.iter().filter_map(|x| if let AttrArg::Int(n) = x { Some(*n) } else { None }).collect())
}
