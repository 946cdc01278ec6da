//! The checks dxc makes of a root signature: when it is serialized (`VerifyRootSignature`:
//! tables, flags, overlapping register ranges, static samplers) and, by its validator, against
//! the shader it is attached to (`VerifyShader`: every resource the shader binds is covered by
//! a parameter visible to its stage). Messages are dxc's; the first problem is reported.

use super::*;

const VIS: [&str; 8] = ["ALL", "VERTEX", "HULL", "DOMAIN", "GEOMETRY", "PIXEL", "AMPLIFICATION", "MESH"];
const RANGE_NAMES: [&str; 4] = ["SRV", "UAV", "CBV", "SAMPLER"];

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Node {
    TableEntry,
    RootDescriptor,
    RootConstant,
    StaticSampler,
}

#[derive(Clone, Debug)]
struct Interval {
    node: Node,
    space: u32,
    lb: u32,
    ub: u32,
    index: usize,
    slot: usize,
}

impl Interval {
    fn overlaps(&self, o: &Interval) -> bool {
        self.space == o.space && !(self.ub < o.lb || self.lb > o.ub)
    }
    fn contains(&self, o: &Interval) -> bool {
        self.space == o.space && self.lb <= o.lb && o.ub <= self.ub
    }
    fn describe(&self, vis: u32, in_list: bool) -> String {
        let v = VIS.get(vis as usize).copied().unwrap_or("unknown");
        match self.node {
            // dxc writes "root parameter[N]" (no space) for the interval already in the list.
            Node::TableEntry if in_list => format!("(root parameter[{}], visibility {v}, descriptor table slot [{}])", self.index, self.slot),
            Node::TableEntry => format!("(root parameter [{}], visibility {v}, descriptor table slot [{}])", self.index, self.slot),
            Node::RootDescriptor | Node::RootConstant => format!("(root parameter [{}], visibility {v})", self.index),
            Node::StaticSampler => format!("(static sampler [{}], visibility {v})", self.index),
        }
    }
}

/// The register ranges of a root signature, by visibility and range type.
struct Ranges {
    lists: Vec<Vec<Interval>>,
}

impl Ranges {
    fn list(&mut self, vis: u32, ty: u32) -> &mut Vec<Interval> {
        &mut self.lists[(vis as usize) * 4 + ty as usize]
    }
    fn find(&self, vis: u32, ty: u32, i: &Interval) -> Option<&Interval> {
        self.lists[(vis as usize) * 4 + ty as usize].iter().find(|x| x.overlaps(i))
    }
    #[allow(clippy::too_many_arguments)]
    fn add(&mut self, node: Node, index: usize, slot: usize, ty: u32, vis: u32, num: u32, base: u32, space: u32) -> Result<(), String> {
        let ub = if num == UNBOUNDED { u32::MAX } else { base.wrapping_add(num).wrapping_sub(1) };
        let i = Interval { node, space, lb: base, ub, index, slot };
        if space >= 0xFFFF_FFF0 {
            let what = match node {
                Node::TableEntry => format!("Root parameter [{index}] descriptor table entry [{slot}]"),
                _ => format!("Root parameter [{index}]"),
            };
            return Err(format!(
                "{what} specifies RegisterSpace={space:x}, which is invalid since RegisterSpace values in the range [fffffff0,ffffffff] are reserved for system use."
            ));
        }
        let found = if vis == 0 {
            (0..8).find_map(|v| self.find(v, ty, &i).map(|n| (n.clone(), v)))
        } else {
            self.find(vis, ty, &i).map(|n| (n.clone(), vis)).or_else(|| self.find(0, ty, &i).map(|n| (n.clone(), 0)))
        };
        if let Some((n, nvis)) = found {
            return Err(format!(
                "Shader register range of type {} {} overlaps with another shader register range {}.",
                RANGE_NAMES[ty as usize],
                i.describe(vis, false),
                n.describe(nvis, true)
            ));
        }
        self.list(vis, ty).push(i);
        Ok(())
    }
}

fn check_table(ranges: &[Range], rp: usize) -> Result<(), String> {
    let (mut samplers, mut resources) = (false, false);
    let mut append: u64 = 0;
    for (slot, r) in ranges.iter().enumerate() {
        if r.ty == RANGE_SAMPLER {
            samplers = true;
        } else {
            resources = true;
        }
        if samplers && resources {
            return Err(format!("Samplers cannot be mixed with other resource types in a descriptor table (root parameter [{rp}])."));
        }
        if r.num_descriptors == 0 {
            return Err(format!("NumDescriptors cannot be 0 (descriptor table slot [{slot}], root parameter [{rp}])."));
        }
        let start = if r.offset != OFFSET_APPEND { u64::from(r.offset) } else { append };
        if start > u64::from(u32::MAX) {
            return Err(format!(
                "Cannot append range with implicit lower bound after an unbounded range (descriptor table slot [{slot}], root parameter [{rp}])."
            ));
        }
        if r.num_descriptors != UNBOUNDED {
            if u64::from(r.base_register) + u64::from(r.num_descriptors) - 1 > u64::from(u32::MAX) {
                return Err(format!(
                    "Overflow for shader register range: BaseShaderRegister={}, NumDescriptor={}; (descriptor table slot [{slot}], root parameter [{rp}]).",
                    r.base_register, r.num_descriptors
                ));
            }
            if start + u64::from(r.num_descriptors) - 1 > u64::from(u32::MAX) {
                return Err(format!("Overflow for descriptor range (descriptor table slot [{slot}], root parameter [{rp}])"));
            }
            append = start + u64::from(r.num_descriptors);
        } else {
            append = 1 + u64::from(u32::MAX);
        }
    }
    Ok(())
}

fn data_flags(flags: u32) -> u32 {
    [0x2, 0x4, 0x8].iter().filter(|&&b| flags & b != 0).count() as u32
}

fn check_sampler(s: &StaticSampler) -> Result<(), String> {
    if !super::names::FILTERS.iter().any(|&(_, v)| v == s.filter) {
        return Err("Static sampler: Filter unrecognized.".into());
    }
    let comparison = (0x80..=0xd5).contains(&s.filter);
    for (v, name) in [(s.address_u, "AddressU"), (s.address_v, "AddressV"), (s.address_w, "AddressW")] {
        if !(1..=5).contains(&v) {
            return Err(format!("Static sampler: {name} unrecognized."));
        }
    }
    if s.mip_lod_bias.is_nan() || s.mip_lod_bias < -16.0 || s.mip_lod_bias > 15.99 {
        return Err(format!("Static sampler: MipLODBias must be in the range [-16 to 15.99].  {}specified.", s.mip_lod_bias));
    }
    if s.max_anisotropy > 16 {
        return Err(format!("Static sampler: MaxAnisotropy must be in the range [0 to 16].  {} specified.", s.max_anisotropy));
    }
    if comparison && !(1..=8).contains(&s.comparison_func) {
        return Err("Static sampler: ComparisonFunc unrecognized.".into());
    }
    if s.min_lod.is_nan() {
        return Err(format!("Static sampler: MinLOD be in the range [-INF to +INF].  {} specified.", s.min_lod));
    }
    if s.max_lod.is_nan() {
        return Err(format!("Static sampler: MaxLOD be in the range [-INF to +INF].  {} specified.", s.max_lod));
    }
    Ok(())
}

fn collect(rs: &RootSignature) -> Result<Ranges, String> {
    let mut ranges = Ranges { lists: vec![Vec::new(); 32] };
    for (rp, p) in rs.params.iter().enumerate() {
        if p.visibility > 7 {
            return Err(format!("Unsupported ShaderVisibility value {} (root parameter [{rp}]).", p.visibility));
        }
        match &p.kind {
            ParamKind::Table(list) => {
                check_table(list, rp)?;
                for (slot, r) in list.iter().enumerate() {
                    let f = r.flags;
                    if r.ty == RANGE_SAMPLER && f & 0xE != 0 {
                        return Err(format!(
                            "Sampler descriptor ranges can't specify DATA_* flags since there is no data pointed to by samplers (descriptor range flags {f})."
                        ));
                    }
                    if r.ty != RANGE_SAMPLER && data_flags(f) > 1 {
                        return Err(format!("Descriptor range flags cannot specify more than one DATA_* flag at a time (descriptor range flags {f})."));
                    }
                    if r.ty != RANGE_SAMPLER && f & 0x8 != 0 && f & 0x1 != 0 {
                        return Err(format!(
                            "Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with the DATA_STATIC flag at the same time (descriptor range flags {f}). DATA_STATIC_WHILE_SET_AT_EXECUTE is fine to combine with DESCRIPTORS_VOLATILE, since DESCRIPTORS_VOLATILE still requires descriptors don't change during execution. "
                        ));
                    }
                    ranges.add(Node::TableEntry, rp, slot, r.ty, p.visibility, r.num_descriptors, r.base_register, r.space)?;
                }
            }
            ParamKind::Constants { register, space, .. } => {
                ranges.add(Node::RootConstant, rp, 0, RANGE_CBV, p.visibility, 1, *register, *space)?;
            }
            ParamKind::Descriptor { ty, register, space, flags } => {
                let n = data_flags(*flags);
                if n > 1 {
                    return Err(format!("Root descriptor flags cannot specify more than one DATA_* flag at a time (root descriptor flags {n})."));
                }
                let range_ty = match *ty {
                    PARAM_CBV => RANGE_CBV,
                    PARAM_SRV => RANGE_SRV,
                    _ => RANGE_UAV,
                };
                ranges.add(Node::RootDescriptor, rp, 0, range_ty, p.visibility, 1, *register, *space)?;
            }
        }
    }
    for (i, s) in rs.samplers.iter().enumerate() {
        if s.visibility > 7 {
            return Err(format!("Unsupported ShaderVisibility value {} (static sampler [{i}]).", s.visibility));
        }
        check_sampler(s)?;
        ranges.add(Node::StaticSampler, i, 0, RANGE_SAMPLER, s.visibility, 1, s.register, s.space)?;
    }
    Ok(ranges)
}

/// dxc's `VerifyRootSignature`: the first problem of `rs`, if any.
pub fn verify(rs: &RootSignature) -> Result<(), String> {
    collect(rs).map(|_| ())
}

/// One resource the shader binds: its `PSVResourceType` (1 sampler, 2 CBV, 3..5 SRV typed /
/// raw / structured, 6..9 UAV typed / raw / structured / structured with counter), space and
/// inclusive register bounds (`ub == u32::MAX` for unbounded).
#[derive(Copy, Clone, Debug)]
pub struct Binding {
    pub psv_type: u32,
    pub space: u32,
    pub lb: u32,
    pub ub: u32,
}

/// The root signature visibility of a shader kind (`DXIL::ShaderKind`): compute and the rest
/// see only `SHADER_VISIBILITY_ALL` parameters.
pub fn visibility_of_kind(kind: u32) -> u32 {
    match kind {
        0 => 5,
        1 => 1,
        2 => 4,
        3 => 2,
        4 => 3,
        13 => 7,
        14 => 6,
        _ => 0,
    }
}

/// dxc's validator check `VerifyShader`: every binding of the shader is covered by `rs` for the
/// stage's visibility, and a denied stage has no bindings. The error is the first mismatch.
pub fn check_shader(rs: &RootSignature, vis: u32, bindings: &[Binding]) -> Result<(), String> {
    let ranges = collect(rs)?;
    let deny = match vis {
        1 => 0x2,
        2 => 0x4,
        3 => 0x8,
        4 => 0x10,
        5 => 0x20,
        6 => 0x100,
        7 => 0x200,
        _ => 0,
    };
    let mut has_bindings = false;
    for b in bindings {
        let num = if b.ub != u32::MAX { b.ub - b.lb + 1 } else { 1 };
        let want = Interval { node: Node::TableEntry, space: b.space, lb: b.lb, ub: b.lb.wrapping_add(num).wrapping_sub(1), index: 0, slot: 0 };
        let (ty, what) = match b.psv_type {
            1 => (RANGE_SAMPLER, "sampler"),
            2 => (RANGE_CBV, "CBV"),
            3..=5 => (RANGE_SRV, "SRV"),
            6..=9 => (RANGE_UAV, "UAV"),
            _ => continue,
        };
        has_bindings = true;
        let mut cover = ranges.find(0, ty, &want);
        if cover.is_none() && vis != 0 {
            cover = ranges.find(vis, ty, &want);
        }
        let cover = cover.filter(|c| c.contains(&want));
        match cover {
            None => {
                return Err(format!(
                    "Shader {what} descriptor range (RegisterSpace={}, NumDescriptors={num}, BaseShaderRegister={}) is not fully bound in root signature.",
                    b.space, b.lb
                ))
            }
            Some(c) if c.node == Node::RootDescriptor => {
                if b.psv_type == 3 {
                    return Err(format!("A Shader is declaring a resource object as a texture using a register mapped to a root descriptor SRV (RegisterSpace={}, ShaderRegister={}).  SRV or UAV root descriptors can only be Raw or Structured buffers.", b.space, b.lb));
                }
                if b.psv_type == 6 {
                    return Err(format!("A shader is declaring a typed UAV using a register mapped to a root descriptor UAV (RegisterSpace={}, ShaderRegister={}).  SRV or UAV root descriptors can only be Raw or Structured buffers.", b.space, b.lb));
                }
                if b.psv_type == 9 {
                    return Err(format!("A Shader is declaring a structured UAV with counter using a register mapped to a root descriptor UAV (RegisterSpace={}, ShaderRegister={}).  SRV or UAV root descriptors can only be Raw or Structured buffers.", b.space, b.lb));
                }
            }
            Some(_) => {}
        }
    }
    if has_bindings && rs.flags & deny != 0 {
        return Err("Shader has root bindings but root signature uses a DENY flag to disallow root binding access to the shader stage.".into());
    }
    Ok(())
}
