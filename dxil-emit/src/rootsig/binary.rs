//! The `RTS0` part: a root signature serialized as D3D12 serializes a versioned root signature
//! (dxc's `SerializeRootSignature`), and read back.
//!
//! Layout (little-endian `u32`s, every block 4-byte aligned, offsets from the start of the part):
//! the header `{Version, NumParameters, RootParametersOffset, NumStaticSamplers,
//! StaticSamplersOffset, Flags}` (24 bytes); the parameters `{ParameterType, ShaderVisibility,
//! PayloadOffset}` (12 bytes each); then each parameter's payload in order: a table
//! `{NumDescriptorRanges, DescriptorRangesOffset}` followed by its ranges `{RangeType,
//! NumDescriptors, BaseShaderRegister, RegisterSpace, [Flags (1.1),]
//! OffsetInDescriptorsFromTableStart}`, root constants `{ShaderRegister, RegisterSpace,
//! Num32BitValues}`, or a root descriptor `{ShaderRegister, RegisterSpace[, Flags (1.1)]}`; last
//! the static samplers (13 words each, `D3D12_STATIC_SAMPLER_DESC`).

use super::*;

fn put(out: &mut Vec<u8>, at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Reserves `len` zero bytes at the end and returns their offset.
fn reserve(out: &mut Vec<u8>, len: usize) -> usize {
    let at = out.len();
    out.resize(at + len, 0);
    at
}

/// The bytes of the `RTS0` part of `rs`.
pub fn serialize(rs: &RootSignature) -> Vec<u8> {
    let v11 = rs.version == Version::V1_1;
    let mut out = Vec::new();
    let header = reserve(&mut out, 24);
    put(&mut out, header, rs.version.code());
    put(&mut out, header + 4, rs.params.len() as u32);
    put(&mut out, header + 12, rs.samplers.len() as u32);
    put(&mut out, header + 20, rs.flags);
    let params = reserve(&mut out, 12 * rs.params.len());
    put(&mut out, header + 8, params as u32);
    for (i, p) in rs.params.iter().enumerate() {
        let at = params + 12 * i;
        put(&mut out, at, p.kind.code());
        put(&mut out, at + 4, p.visibility);
        match &p.kind {
            ParamKind::Table(ranges) => {
                let table = reserve(&mut out, 8);
                put(&mut out, at + 8, table as u32);
                put(&mut out, table, ranges.len() as u32);
                let size = if v11 { 24 } else { 20 };
                let first = reserve(&mut out, size * ranges.len());
                put(&mut out, table + 4, first as u32);
                for (j, r) in ranges.iter().enumerate() {
                    let mut words = vec![r.ty, r.num_descriptors, r.base_register, r.space];
                    if v11 {
                        words.push(r.flags);
                    }
                    words.push(r.offset);
                    for (k, w) in words.into_iter().enumerate() {
                        put(&mut out, first + size * j + 4 * k, w);
                    }
                }
            }
            ParamKind::Constants { register, space, num_values } => {
                let c = reserve(&mut out, 12);
                put(&mut out, at + 8, c as u32);
                put(&mut out, c, *register);
                put(&mut out, c + 4, *space);
                put(&mut out, c + 8, *num_values);
            }
            ParamKind::Descriptor { register, space, flags, .. } => {
                let d = reserve(&mut out, if v11 { 12 } else { 8 });
                put(&mut out, at + 8, d as u32);
                put(&mut out, d, *register);
                put(&mut out, d + 4, *space);
                if v11 {
                    put(&mut out, d + 8, *flags);
                }
            }
        }
    }
    let samplers = reserve(&mut out, 52 * rs.samplers.len());
    put(&mut out, header + 16, samplers as u32);
    for (i, s) in rs.samplers.iter().enumerate() {
        let words = [
            s.filter,
            s.address_u,
            s.address_v,
            s.address_w,
            s.mip_lod_bias.to_bits(),
            s.max_anisotropy,
            s.comparison_func,
            s.border_color,
            s.min_lod.to_bits(),
            s.max_lod.to_bits(),
            s.register,
            s.space,
            s.visibility,
        ];
        for (k, w) in words.into_iter().enumerate() {
            put(&mut out, samplers + 52 * i + 4 * k, w);
        }
    }
    out
}

/// Why `RTS0` bytes do not parse: the message and the offset in the part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub offset: usize,
    pub message: String,
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn u32(&self, at: usize, what: &str) -> Result<u32, ReadError> {
        match at.checked_add(4).and_then(|end| self.0.get(at..end)) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(ReadError { offset: at, message: format!("{what} runs past the end of the root signature ({} bytes)", self.0.len()) }),
        }
    }
    /// `count` records of `size` bytes at `at` fit in the part.
    fn check_array(&self, at: u32, count: u32, size: usize, what: &str) -> Result<usize, ReadError> {
        let end = (at as usize).checked_add((count as usize).saturating_mul(size));
        match end {
            Some(end) if end <= self.0.len() => Ok(at as usize),
            _ => Err(ReadError { offset: at as usize, message: format!("{count} {what} at offset {at} run past the end of the root signature ({} bytes)", self.0.len()) }),
        }
    }
}

/// Reads an `RTS0` part back, checking every offset and count.
pub fn deserialize(bytes: &[u8]) -> Result<RootSignature, ReadError> {
    let r = Reader(bytes);
    let code = r.u32(0, "the version")?;
    let version = Version::from_code(code).ok_or(ReadError { offset: 0, message: format!("unknown root signature version {code}") })?;
    let v11 = version == Version::V1_1;
    let num_params = r.u32(4, "the parameter count")?;
    let params_at = r.check_array(r.u32(8, "the parameter offset")?, num_params, 12, "root parameters")?;
    let num_samplers = r.u32(12, "the static sampler count")?;
    let samplers_at = r.check_array(r.u32(16, "the static sampler offset")?, num_samplers, 52, "static samplers")?;
    let flags = r.u32(20, "the flags")?;
    let mut rs = RootSignature { version, flags, params: Vec::new(), samplers: Vec::new() };
    for i in 0..num_params as usize {
        let at = params_at + 12 * i;
        let ty = r.u32(at, "a parameter type")?;
        let visibility = r.u32(at + 4, "a parameter visibility")?;
        let payload = r.u32(at + 8, "a parameter payload offset")? as usize;
        let kind = match ty {
            PARAM_TABLE => {
                let n = r.u32(payload, "a descriptor table")?;
                let size = if v11 { 24 } else { 20 };
                let first = r.check_array(r.u32(payload + 4, "a descriptor table")?, n, size, "descriptor ranges")?;
                let mut ranges = Vec::new();
                for j in 0..n as usize {
                    let w = |k: usize| r.u32(first + size * j + 4 * k, "a descriptor range");
                    let (flags, offset) = if v11 { (w(4)?, w(5)?) } else { (0, w(4)?) };
                    ranges.push(Range { ty: w(0)?, num_descriptors: w(1)?, base_register: w(2)?, space: w(3)?, flags, offset });
                }
                ParamKind::Table(ranges)
            }
            PARAM_CONSTANTS => ParamKind::Constants {
                register: r.u32(payload, "root constants")?,
                space: r.u32(payload + 4, "root constants")?,
                num_values: r.u32(payload + 8, "root constants")?,
            },
            PARAM_CBV | PARAM_SRV | PARAM_UAV => ParamKind::Descriptor {
                ty,
                register: r.u32(payload, "a root descriptor")?,
                space: r.u32(payload + 4, "a root descriptor")?,
                flags: if v11 { r.u32(payload + 8, "a root descriptor")? } else { 0 },
            },
            _ => return Err(ReadError { offset: at, message: format!("unknown root parameter type {ty}") }),
        };
        rs.params.push(Param { visibility, kind });
    }
    for i in 0..num_samplers as usize {
        let w = |k: usize| r.u32(samplers_at + 52 * i + 4 * k, "a static sampler");
        rs.samplers.push(StaticSampler {
            filter: w(0)?,
            address_u: w(1)?,
            address_v: w(2)?,
            address_w: w(3)?,
            mip_lod_bias: f32::from_bits(w(4)?),
            max_anisotropy: w(5)?,
            comparison_func: w(6)?,
            border_color: w(7)?,
            min_lod: f32::from_bits(w(8)?),
            max_lod: f32::from_bits(w(9)?),
            register: w(10)?,
            space: w(11)?,
            visibility: w(12)?,
        });
    }
    Ok(rs)
}
