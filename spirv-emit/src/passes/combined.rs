//! Combined image samplers: each texture variable paired with a sampler by
//! `[[vk::combinedImageSampler]]` (`lower/combined.rs`) becomes one `OpTypeSampledImage` variable,
//! and the sampler variable goes away, as spirv-opt's `ConvertToSampledImagePass` does for DXC
//! (at every level but `-fcgl`):
//!
//! - the texture variable points to `OpTypeSampledImage` of its image type;
//! - each load of it loads the sampled image, and `OpImage` gives the image the rest of the code
//!   used (`Load`, `GetDimensions`, sampling with another sampler);
//! - `OpSampledImage` of that image with a load of its own sampler is the loaded sampled image;
//! - the loads of the sampler, the `OpImage`s nothing uses and the sampler variable (with its
//!   names, decorations and place in the entry points' interfaces) are removed.
//!
//! A use this cannot rewrite (the sampler with another texture, either variable used other than
//! by a load) is refused, naming the variable.

use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, StorageClass};
use hlslc_frontend::fxhash::{FxMap as HashMap, FxSet as HashSet};

/// A texture variable and the sampler variable combined with it (ids), with their names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub texture: u32,
    pub sampler: u32,
    pub texture_name: String,
    pub sampler_name: String,
}

fn id_ops(i: &Instruction) -> impl Iterator<Item = u32> + '_ {
    i.operands.iter().filter_map(|o| if let Operand::IdRef(x) = o { Some(*x) } else { None })
}

/// The position of the type or variable with result `id` among the module's declarations.
fn decl_pos(m: &Module, id: u32) -> Option<usize> {
    m.types_global_values.iter().position(|i| i.result_id == Some(id))
}

/// The id of the declaration `op operands` (a type), moved before position `before` if it comes
/// after, or made there with a fresh id.
fn type_before(m: &mut Module, bound: &mut u32, before: usize, op: Op, operands: Vec<Operand>) -> (u32, bool) {
    if let Some(pos) = m.types_global_values.iter().position(|i| i.class.opcode == op && i.operands == operands) {
        let id = m.types_global_values[pos].result_id.unwrap_or(0);
        if pos > before {
            let inst = m.types_global_values.remove(pos);
            m.types_global_values.insert(before, inst);
        }
        return (id, false);
    }
    let id = *bound;
    *bound += 1;
    m.types_global_values.insert(before, Instruction::new(op, None, Some(id), operands));
    (id, true)
}

pub fn run(m: &mut Module, pairs: &[Pair]) -> Result<(), String> {
    if pairs.is_empty() {
        return Ok(());
    }
    let mut bound = m.header.as_ref().map_or(0, |h| h.bound);
    // texture variable -> (sampler variable, image type, sampled image type)
    let mut textures: HashMap<u32, (u32, u32, u32)> = HashMap::default();
    let mut samplers: HashSet<u32> = HashSet::default();
    for p in pairs {
        let var_pos = decl_pos(m, p.texture).ok_or_else(|| format!("the variable of texture '{}' is missing", p.texture_name))?;
        let ptr = m.types_global_values[var_pos].result_type.unwrap_or(0);
        let image = decl_pos(m, ptr)
            .and_then(|i| match m.types_global_values[i].operands.get(1) {
                Some(Operand::IdRef(t)) => Some(*t),
                _ => None,
            })
            .ok_or_else(|| format!("the type of texture '{}' is not a pointer", p.texture_name))?;
        let (sampled, made) = type_before(m, &mut bound, var_pos, Op::TypeSampledImage, vec![Operand::IdRef(image)]);
        if made {
            m.debug_names.push(Instruction::new(Op::Name, None, None, vec![Operand::IdRef(sampled), Operand::from("type.sampled.image")]));
        }
        let var_pos = decl_pos(m, p.texture).unwrap_or(0);
        let (new_ptr, _) = type_before(
            m,
            &mut bound,
            var_pos,
            Op::TypePointer,
            vec![Operand::StorageClass(StorageClass::UniformConstant), Operand::IdRef(sampled)],
        );
        let var_pos = decl_pos(m, p.texture).unwrap_or(0);
        m.types_global_values[var_pos].result_type = Some(new_ptr);
        textures.insert(p.texture, (p.sampler, image, sampled));
        samplers.insert(p.sampler);
    }
    let name_of = |var: u32| pairs.iter().find_map(|p| if p.texture == var { Some(&p.texture_name) } else if p.sampler == var { Some(&p.sampler_name) } else { None }).cloned().unwrap_or_default();

    for f in &mut m.functions {
        // Loads of the texture give the sampled image, then its image; loads of the sampler
        // are noted.
        let mut loaded: HashMap<u32, (u32, u32)> = HashMap::default(); // image value -> (sampled image value, texture)
        let mut sampler_loads: HashMap<u32, u32> = HashMap::default(); // sampler value -> sampler variable
        for b in &mut f.blocks {
            let mut out = Vec::with_capacity(b.instructions.len() + 4);
            for inst in b.instructions.drain(..) {
                let first = match inst.operands.first() {
                    Some(Operand::IdRef(x)) => Some(*x),
                    _ => None,
                };
                let refs_var = id_ops(&inst).find(|x| textures.contains_key(x) || samplers.contains(x));
                if let Some(var) = refs_var {
                    if inst.class.opcode != Op::Load || first != Some(var) {
                        return Err(format!(
                            "'{}' has [[vk::combinedImageSampler]] and is used by Op{:?}: only loads of it can become a combined image sampler",
                            name_of(var),
                            inst.class.opcode
                        ));
                    }
                    let value = inst.result_id.unwrap_or(0);
                    if let Some(&(_, image, sampled)) = textures.get(&var) {
                        let si_value = bound;
                        bound += 1;
                        let mut load = inst;
                        load.result_type = Some(sampled);
                        load.result_id = Some(si_value);
                        out.push(load);
                        out.push(Instruction::new(Op::Image, Some(image), Some(value), vec![Operand::IdRef(si_value)]));
                        loaded.insert(value, (si_value, var));
                        continue;
                    }
                    sampler_loads.insert(value, var);
                }
                out.push(inst);
            }
            b.instructions = out;
        }
        // OpSampledImage of a combined texture's image with its own sampler: the sampled image.
        let mut replace: HashMap<u32, u32> = HashMap::default();
        for b in &mut f.blocks {
            b.instructions.retain(|i| {
                if i.class.opcode != Op::SampledImage {
                    return true;
                }
                let (Some(Operand::IdRef(img)), Some(Operand::IdRef(smp))) = (i.operands.first(), i.operands.get(1)) else {
                    return true;
                };
                match (loaded.get(img), sampler_loads.get(smp)) {
                    (Some(&(si, tex)), Some(&sam)) if textures[&tex].0 == sam => {
                        replace.insert(i.result_id.unwrap_or(0), si);
                        false
                    }
                    _ => true,
                }
            });
        }
        for b in &mut f.blocks {
            for i in &mut b.instructions {
                for o in &mut i.operands {
                    if let Operand::IdRef(x) = o {
                        if let Some(&n) = replace.get(x) {
                            *x = n;
                        }
                    }
                }
            }
        }
        // What nothing uses any more goes; a sampler still used is refused.
        let mut uses: HashMap<u32, usize> = HashMap::default();
        for b in &f.blocks {
            for i in &b.instructions {
                for x in id_ops(i) {
                    *uses.entry(x).or_default() += 1;
                }
            }
        }
        for (value, var) in &sampler_loads {
            if uses.get(value).copied().unwrap_or(0) > 0 {
                let texture = pairs.iter().find(|p| p.sampler == *var).map(|p| p.texture_name.clone()).unwrap_or_default();
                return Err(format!(
                    "sampler '{}' has [[vk::combinedImageSampler]] and is used with a texture other than '{texture}', the texture it is combined with; a combined image sampler holds only that pair",
                    name_of(*var)
                ));
            }
        }
        for b in &mut f.blocks {
            b.instructions.retain(|i| {
                let r = i.result_id.unwrap_or(0);
                let dead = uses.get(&r).copied().unwrap_or(0) == 0;
                !(dead && (sampler_loads.contains_key(&r) || (i.class.opcode == Op::Image && loaded.contains_key(&r))))
            });
        }
    }

    // The sampler variables, their names, decorations and interface entries.
    m.types_global_values.retain(|i| !i.result_id.is_some_and(|r| samplers.contains(&r)));
    let targets_sampler = |i: &Instruction| matches!(i.operands.first(), Some(Operand::IdRef(t)) if samplers.contains(t));
    m.debug_names.retain(|i| !targets_sampler(i));
    m.annotations.retain(|i| !targets_sampler(i));
    for ep in &mut m.entry_points {
        ep.operands.retain(|o| !matches!(o, Operand::IdRef(x) if samplers.contains(x)));
    }
    if let Some(i) = m.all_inst_iter().find(|i| id_ops(i).any(|x| samplers.contains(&x))) {
        let var = id_ops(i).find(|x| samplers.contains(x)).unwrap_or(0);
        return Err(format!(
            "sampler '{}' has [[vk::combinedImageSampler]] and is named by Op{:?}, which cannot refer to a combined image sampler",
            name_of(var),
            i.class.opcode
        ));
    }
    if let Some(h) = m.header.as_mut() {
        h.bound = bound;
    }
    Ok(())
}
