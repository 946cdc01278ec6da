//! Reads a DXContainer back (ours or dxc's): the header, the part table and the parts hlslc
//! writes, checking every offset, size and count against the bytes. A container that does not
//! parse gives an error naming the part and the byte offset, never a panic.

use super::md5;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The part (`"header"` for the container header and part table).
    pub part: String,
    /// Byte offset in the container.
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid DXIL container: {} at byte {} (part {})", self.message, self.offset, self.part)
    }
}

type R<T> = Result<T, ParseError>;

/// A bounds-checked view of part bytes; offsets in errors are container offsets.
#[derive(Clone, Copy)]
pub struct Bytes<'a> {
    pub data: &'a [u8],
    /// Container offset of `data[0]`.
    pub base: usize,
    pub part: &'a str,
}

impl<'a> Bytes<'a> {
    pub fn err<T>(&self, at: usize, message: impl Into<String>) -> R<T> {
        Err(ParseError { part: self.part.to_string(), offset: self.base + at, message: message.into() })
    }
    pub fn slice(&self, at: usize, len: usize, what: &str) -> R<&'a [u8]> {
        match at.checked_add(len) {
            Some(end) if end <= self.data.len() => Ok(&self.data[at..end]),
            _ => self.err(at, format!("{what} ({len} bytes) runs past the end of the part ({} bytes)", self.data.len())),
        }
    }
    pub fn u8(&self, at: usize, what: &str) -> R<u8> {
        Ok(self.slice(at, 1, what)?[0])
    }
    pub fn u16(&self, at: usize, what: &str) -> R<u16> {
        let b = self.slice(at, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn u32(&self, at: usize, what: &str) -> R<u32> {
        let b = self.slice(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&self, at: usize, what: &str) -> R<u64> {
        Ok(u64::from(self.u32(at, what)?) | (u64::from(self.u32(at + 4, what)?) << 32))
    }
    /// A NUL-terminated string starting at `at`.
    pub fn cstr(&self, at: usize, what: &str) -> R<String> {
        let Some(rest) = self.data.get(at..) else { return self.err(at, format!("{what} starts past the end of the part")) };
        match rest.iter().position(|&b| b == 0) {
            Some(n) => Ok(String::from_utf8_lossy(&rest[..n]).into_owned()),
            None => self.err(at, format!("{what} is not NUL-terminated")),
        }
    }
}

/// One part: its four-character code and its bytes.
#[derive(Clone, Debug)]
pub struct Part<'a> {
    pub fourcc: String,
    /// Container offset of the part data (after the 8-byte part header).
    pub offset: usize,
    pub data: &'a [u8],
}

impl<'a> Part<'a> {
    pub fn bytes(&'a self) -> Bytes<'a> {
        Bytes { data: self.data, base: self.offset, part: &self.fourcc }
    }
}

#[derive(Clone, Debug)]
pub struct Container<'a> {
    pub checksum: [u8; 16],
    pub version: (u16, u16),
    pub parts: Vec<Part<'a>>,
}

impl<'a> Container<'a> {
    pub fn part(&self, fourcc: &str) -> Option<&Part<'a>> {
        self.parts.iter().find(|p| p.fourcc == fourcc)
    }
    /// Whether the header checksum is the D3D checksum of the bytes (an all-zero checksum
    /// means unsigned and is not checked).
    pub fn checksum_matches(&self, bytes: &[u8]) -> bool {
        self.checksum == md5::container_checksum(bytes)
    }
}

/// Parses the header and part table; every part must lie inside the container and parts must
/// not overlap the header or each other.
pub fn parse(bytes: &[u8]) -> R<Container<'_>> {
    let b = Bytes { data: bytes, base: 0, part: "header" };
    let magic = b.slice(0, 4, "container magic")?;
    if magic != b"DXBC" {
        return b.err(0, format!("expected the magic 'DXBC', found {:?}", String::from_utf8_lossy(magic)));
    }
    let mut checksum = [0u8; 16];
    checksum.copy_from_slice(b.slice(4, 16, "checksum")?);
    let version = (b.u16(20, "version")?, b.u16(22, "version")?);
    let size = b.u32(24, "container size")? as usize;
    if size != bytes.len() {
        return b.err(24, format!("the header says the container is {size} bytes, but it is {} bytes", bytes.len()));
    }
    let count = b.u32(28, "part count")? as usize;
    let table_end = 32 + 4 * count;
    if table_end > bytes.len() {
        return b.err(28, format!("{count} parts do not fit in a {}-byte container", bytes.len()));
    }
    let mut parts = Vec::new();
    let mut prev_end = table_end;
    for i in 0..count {
        let at = 32 + 4 * i;
        let off = b.u32(at, "part offset")? as usize;
        if off < prev_end {
            return b.err(at, format!("part {i} starts at byte {off}, inside the header or the previous part (which ends at {prev_end})"));
        }
        let fourcc = b.slice(off, 4, "part header")?;
        let name: String = fourcc.iter().map(|&c| if c.is_ascii_graphic() { c as char } else { '?' }).collect();
        let len = b.u32(off + 4, "part size")? as usize;
        let data_at = off + 8;
        if data_at.checked_add(len).is_none_or(|e| e > bytes.len()) {
            return Err(ParseError {
                part: name,
                offset: off + 4,
                message: format!("the part's size {len} runs past the end of the container ({} bytes)", bytes.len()),
            });
        }
        prev_end = data_at + len;
        parts.push(Part { fourcc: name, offset: data_at, data: &bytes[data_at..data_at + len] });
    }
    Ok(Container { checksum, version, parts })
}

/// A program part (`DXIL`, `STAT`, `ILDB`).
#[derive(Clone, Debug)]
pub struct Program<'a> {
    pub kind: u32,
    pub major: u32,
    pub minor: u32,
    pub dxil_version: (u32, u32),
    pub bitcode: &'a [u8],
}

pub fn program<'a>(p: &'a Part<'a>) -> R<Program<'a>> {
    let b = p.bytes();
    let version = b.u32(0, "program version")?;
    let dwords = b.u32(4, "program size")? as usize;
    if dwords * 4 != p.data.len() {
        return b.err(4, format!("the program header says {} bytes, the part has {}", dwords * 4, p.data.len()));
    }
    if b.slice(8, 4, "DXIL magic")? != b"DXIL" {
        return b.err(8, "expected the magic 'DXIL'");
    }
    let dv = b.u32(12, "DXIL version")?;
    let off = b.u32(16, "bitcode offset")? as usize;
    let size = b.u32(20, "bitcode size")? as usize;
    let bitcode = b.slice(8 + off, size, "bitcode")?;
    if p.data.len() - (8 + off + size) > 3 {
        return b.err(8 + off + size, "more than 3 bytes of padding after the bitcode");
    }
    if bitcode.len() < 4 || &bitcode[..4] != b"BC\xC0\xDE" {
        return b.err(8 + off, "the bitcode does not start with the LLVM magic 'BC' 0xC0DE");
    }
    Ok(Program { kind: version >> 16, major: (version >> 4) & 0xF, minor: version & 0xF, dxil_version: (dv >> 8, dv & 0xFF), bitcode })
}

/// One element of `ISG1`/`OSG1`/`PSG1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigRow {
    pub stream: u32,
    pub name: String,
    pub index: u32,
    pub system_value: u32,
    pub comp_type: u32,
    pub register: u32,
    pub mask: u8,
    pub rw_mask: u8,
    pub min_precision: u32,
}

pub fn signature(p: &Part) -> R<Vec<SigRow>> {
    let b = p.bytes();
    let count = b.u32(0, "element count")? as usize;
    let first = b.u32(4, "element offset")? as usize;
    let mut rows = Vec::new();
    for i in 0..count {
        let at = first + 32 * i;
        b.slice(at, 32, "signature element")?;
        let name_at = b.u32(at + 4, "semantic name offset")? as usize;
        rows.push(SigRow {
            stream: b.u32(at, "stream")?,
            name: b.cstr(name_at, "semantic name")?,
            index: b.u32(at + 8, "semantic index")?,
            system_value: b.u32(at + 12, "system value")?,
            comp_type: b.u32(at + 16, "component type")?,
            register: b.u32(at + 20, "register")?,
            mask: b.u8(at + 24, "mask")?,
            rw_mask: b.u8(at + 25, "read/write mask")?,
            min_precision: b.u32(at + 28, "min precision")?,
        });
    }
    Ok(rows)
}

/// A parsed `PSV0` part.
#[derive(Clone, Debug, Default)]
pub struct Psv {
    pub runtime_info_size: u32,
    pub runtime_info: Vec<u8>,
    /// (type, space, lower, upper, kind, flags) per binding.
    pub resources: Vec<[u32; 6]>,
    pub strings: Vec<u8>,
    pub semantic_indexes: Vec<u32>,
    pub stage: u8,
    pub elements: [Vec<[u8; 16]>; 3],
    pub input_vectors: u8,
    pub output_vectors: [u8; 4],
    pub pc_vectors: u8,
    pub num_threads: [u32; 3],
    pub entry_name: Option<String>,
    /// The input → output dependency tables, as dwords, in the order they appear.
    pub tables: Vec<Vec<u32>>,
}

fn mask_dwords(v: u32) -> u32 {
    (v + 7) >> 3
}

pub fn psv(p: &Part) -> R<Psv> {
    let b = p.bytes();
    let mut psv = Psv { runtime_info_size: b.u32(0, "runtime info size")?, ..Psv::default() };
    let size = psv.runtime_info_size as usize;
    psv.runtime_info = b.slice(4, size, "runtime info")?.to_vec();
    let mut at = 4 + size;
    let count = b.u32(at, "resource count")? as usize;
    at += 4;
    if count > 0 {
        let stride = b.u32(at, "resource binding size")? as usize;
        at += 4;
        if stride < 16 {
            return b.err(at - 4, format!("resource binding size {stride} is smaller than 16"));
        }
        for i in 0..count {
            let r = at + i * stride;
            b.slice(r, stride, "resource binding")?;
            let mut v = [0u32; 6];
            for (k, x) in v.iter_mut().enumerate().take((stride / 4).min(6)) {
                *x = b.u32(r + 4 * k, "resource binding")?;
            }
            psv.resources.push(v);
        }
        at += count * stride;
    }
    if size < 36 {
        if at != p.data.len() {
            return b.err(at, format!("{} bytes after the resource bindings", p.data.len() - at));
        }
        return Ok(psv);
    }
    let ri = Bytes { data: &psv.runtime_info, base: p.offset + 4, part: &p.fourcc };
    psv.stage = ri.u8(24, "shader stage")?;
    let uses_view_id = ri.u8(25, "uses view id")?;
    let counts = [ri.u8(28, "input element count")?, ri.u8(29, "output element count")?, ri.u8(30, "patch constant element count")?];
    psv.input_vectors = ri.u8(31, "input vectors")?;
    for s in 0..4 {
        psv.output_vectors[s] = ri.u8(32 + s, "output vectors")?;
    }
    if matches!(psv.stage, 3 | 4 | 13) {
        psv.pc_vectors = ri.u8(26, "patch constant vectors")?;
    }
    if size >= 48 {
        for k in 0..3 {
            psv.num_threads[k] = ri.u32(36 + 4 * k, "num threads")?;
        }
    }
    let strings_size = b.u32(at, "string table size")? as usize;
    if strings_size % 4 != 0 {
        return b.err(at, format!("string table size {strings_size} is not a multiple of 4"));
    }
    at += 4;
    psv.strings = b.slice(at, strings_size, "string table")?.to_vec();
    if strings_size > 0 && psv.strings.last() != Some(&0) {
        return b.err(at + strings_size - 1, "the string table does not end with NUL");
    }
    at += strings_size;
    let entries = b.u32(at, "semantic index count")? as usize;
    at += 4;
    for i in 0..entries {
        psv.semantic_indexes.push(b.u32(at + 4 * i, "semantic index")?);
    }
    at += 4 * entries;
    let strings = Bytes { data: &psv.strings, base: p.offset, part: &p.fourcc };
    if counts.iter().any(|&c| c > 0) {
        let stride = b.u32(at, "signature element size")? as usize;
        at += 4;
        if stride < 16 {
            return b.err(at - 4, format!("signature element size {stride} is smaller than 16"));
        }
        for (s, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                let e = b.slice(at, stride, "signature element")?;
                let mut x = [0u8; 16];
                x.copy_from_slice(&e[..16]);
                let name = u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as usize;
                strings.cstr(name, "element semantic name")?;
                let idx = u32::from_le_bytes([x[4], x[5], x[6], x[7]]) as usize;
                if x[8] > 0 && idx + x[8] as usize > psv.semantic_indexes.len() {
                    return b.err(at + 4, format!("semantic indexes {idx}..{} are outside the table of {}", idx + x[8] as usize, psv.semantic_indexes.len()));
                }
                psv.elements[s].push(x);
                at += stride;
            }
        }
    }
    if size >= 52 {
        let off = ri.u32(48, "entry function name")? as usize;
        psv.entry_name = Some(strings.cstr(off, "entry function name")?);
    }
    let take = |at: &mut usize, dwords: u32, what: &str| -> R<Vec<u32>> {
        let v = (0..dwords as usize).map(|i| b.u32(*at + 4 * i, what)).collect::<R<Vec<u32>>>()?;
        *at += 4 * dwords as usize;
        Ok(v)
    };
    if uses_view_id != 0 {
        for s in 0..4 {
            if psv.output_vectors[s] != 0 {
                take(&mut at, mask_dwords(u32::from(psv.output_vectors[s])), "view id mask")?;
            }
        }
        if matches!(psv.stage, 3 | 13) && psv.pc_vectors != 0 {
            take(&mut at, mask_dwords(u32::from(psv.pc_vectors)), "view id mask")?;
        }
    }
    let iv = u32::from(psv.input_vectors);
    for s in 0..4 {
        let ov = u32::from(psv.output_vectors[s]);
        if iv != 0 && ov != 0 {
            let t = take(&mut at, mask_dwords(ov) * iv * 4, "input to output table")?;
            psv.tables.push(t);
        }
    }
    let pv = u32::from(psv.pc_vectors);
    if psv.stage == 3 && pv != 0 && iv != 0 {
        let t = take(&mut at, mask_dwords(pv) * iv * 4, "input to patch constant table")?;
        psv.tables.push(t);
    }
    if psv.stage == 4 && psv.output_vectors[0] != 0 && pv != 0 {
        let t = take(&mut at, mask_dwords(u32::from(psv.output_vectors[0])) * pv * 4, "patch constant to output table")?;
        psv.tables.push(t);
    }
    if at != p.data.len() {
        return b.err(at, format!("{} unexpected bytes at the end of the part", p.data.len() - at));
    }
    Ok(psv)
}

/// The root signature of an `RTS0` part, every offset and count checked.
pub fn root_signature(p: &Part) -> R<crate::rootsig::RootSignature> {
    crate::rootsig::binary::deserialize(p.data).or_else(|e| p.bytes().err(e.offset, e.message))
}

/// A parsed `RDAT` part: every part, table, string and index reference checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rdat {
    pub version: u32,
    /// Part types in the order they appear.
    pub part_types: Vec<u32>,
    pub data: super::rdat::RuntimeData,
    /// Subobject table rows (kind, name), when the part has one.
    pub subobjects: Vec<(u32, String)>,
}

/// Reads an `RDAT` part back. Offsets in errors are container offsets.
pub fn rdat(p: &Part) -> R<Rdat> {
    use super::rdat::{part, FunctionRecord, ResourceRecord, FUNCTION2_STRIDE, FUNCTION_STRIDE, NULL_REF, RESOURCE_STRIDE};
    let b = p.bytes();
    let version = b.u32(0, "RDAT version")?;
    if version != super::rdat::VERSION {
        return b.err(0, format!("RDAT version 0x{version:x}, expected 0x10"));
    }
    let count = b.u32(4, "RDAT part count")? as usize;
    b.slice(8, 4 * count, "RDAT part offsets")?;
    let mut parts: Vec<(u32, usize, usize)> = Vec::new();
    let mut prev_end = 8 + 4 * count;
    for i in 0..count {
        let at = b.u32(8 + 4 * i, "RDAT part offset")? as usize;
        if at % 4 != 0 || at < prev_end {
            return b.err(8 + 4 * i, format!("RDAT part {i} at offset {at} is misaligned or overlaps the previous part (ending at {prev_end})"));
        }
        let ty = b.u32(at, "RDAT part type")?;
        let size = b.u32(at + 4, "RDAT part size")? as usize;
        if size % 4 != 0 {
            return b.err(at + 4, format!("RDAT part size {size} is not a multiple of 4"));
        }
        b.slice(at + 8, size, "RDAT part data")?;
        if parts.iter().any(|(t, _, _)| *t == ty) {
            return b.err(at, format!("RDAT part type {ty} appears twice"));
        }
        parts.push((ty, at + 8, size));
        prev_end = at + 8 + size;
    }
    if prev_end != p.data.len() {
        return b.err(prev_end, format!("{} bytes after the last RDAT part", p.data.len() - prev_end));
    }
    let find = |ty: u32| parts.iter().find(|(t, _, _)| *t == ty).map(|&(_, at, size)| (at, size));
    let (s_at, s_size) = find(part::STRING_BUFFER).unwrap_or((0, 0));
    let strings = Bytes { data: &p.data[s_at..s_at + s_size], base: p.offset + s_at, part: &p.fourcc };
    if s_size > 0 && !strings.data.contains(&0) {
        return strings.err(0, "the RDAT string buffer has no NUL");
    }
    let string = |off: u32, what: &str, at: usize| -> R<String> {
        if off as usize >= s_size {
            return b.err(at, format!("{what}: string offset {off} is outside the string buffer ({s_size} bytes)"));
        }
        strings.cstr(off as usize, what)
    };
    let (i_at, i_size) = find(part::INDEX_ARRAYS).unwrap_or((0, 0));
    let index_words = i_size / 4;
    let array = |r: u32, what: &str, at: usize| -> R<Vec<u32>> {
        if r == NULL_REF {
            return Ok(Vec::new());
        }
        let r = r as usize;
        if r >= index_words {
            return b.err(at, format!("{what}: index array {r} is outside the index arrays ({index_words} entries)"));
        }
        let n = b.u32(i_at + 4 * r, what)? as usize;
        if r + 1 + n > index_words {
            return b.err(i_at + 4 * r, format!("{what}: an index array of {n} entries at {r} runs past the index arrays ({index_words} entries)"));
        }
        (0..n).map(|k| b.u32(i_at + 4 * (r + 1 + k), what)).collect()
    };
    let table = |ty: u32, min_stride: u32, what: &str| -> R<Option<(usize, u32, usize)>> {
        let Some((at, size)) = find(ty) else { return Ok(None) };
        let rows = b.u32(at, what)?;
        let stride = b.u32(at + 4, what)?;
        if stride % 4 != 0 || stride < min_stride {
            return b.err(at + 4, format!("{what}: record stride {stride} (at least {min_stride}, a multiple of 4 expected)"));
        }
        if 8 + rows as usize * stride as usize > size {
            return b.err(at, format!("{what}: {rows} records of {stride} bytes do not fit in {size} bytes"));
        }
        Ok(Some((at + 8, stride, rows as usize)))
    };
    let mut out = Rdat { version, part_types: parts.iter().map(|(t, _, _)| *t).collect(), ..Rdat::default() };
    if let Some((at, stride, rows)) = table(part::RESOURCE_TABLE, RESOURCE_STRIDE, "resource table")? {
        for i in 0..rows {
            let r = at + i * stride as usize;
            let u = |k: usize| b.u32(r + 4 * k, "resource record");
            out.data.resources.push(ResourceRecord {
                class: u(0)?,
                kind: u(1)?,
                id: u(2)?,
                space: u(3)?,
                lower_bound: u(4)?,
                upper_bound: u(5)?,
                name: string(u(6)?, "resource name", r + 24)?,
                flags: u(7)?,
            });
        }
    }
    let resource_count = out.data.resources.len() as u32;
    if let Some((at, stride, rows)) = table(part::FUNCTION_TABLE, FUNCTION_STRIDE, "function table")? {
        out.data.function_stride = stride;
        for i in 0..rows {
            let r = at + i * stride as usize;
            let u = |k: usize| b.u32(r + 4 * k, "function record");
            let resources = array(u(2)?, "function resources", r + 8)?;
            if let Some(bad) = resources.iter().find(|&&x| x >= resource_count) {
                return b.err(r + 8, format!("function resources: row {bad} is outside the resource table ({resource_count} rows)"));
            }
            let deps = array(u(3)?, "function dependencies", r + 12)?.into_iter().map(|s| string(s, "function dependency", r + 12)).collect::<R<Vec<String>>>()?;
            let mut f = FunctionRecord {
                name: string(u(0)?, "function name", r)?,
                unmangled_name: string(u(1)?, "unmangled function name", r + 4)?,
                resources,
                dependencies: deps,
                shader_kind: u(4)?,
                payload_size: u(5)?,
                attribute_size: u(6)?,
                feature_info: u64::from(u(7)?) | (u64::from(u(8)?) << 32),
                stage_flags: u(9)?,
                min_shader_target: u(10)?,
                min_wave_lanes: 0,
                max_wave_lanes: 0,
                shader_flags: 0,
            };
            if stride >= FUNCTION2_STRIDE {
                f.min_wave_lanes = b.u8(r + 44, "function record")?;
                f.max_wave_lanes = b.u8(r + 45, "function record")?;
                f.shader_flags = b.u16(r + 46, "function record")?;
                let shader_ref = b.u32(r + 48, "function record")?;
                if shader_ref != NULL_REF && f.shader_kind != 15 {
                    return b.err(r + 48, format!("function '{}': a shader information reference ({shader_ref}) that this reader does not know", f.name));
                }
            }
            out.data.functions.push(f);
        }
    }
    if let Some((at, stride, rows)) = table(part::SUBOBJECT_TABLE, 8, "subobject table")? {
        for i in 0..rows {
            let r = at + i * stride as usize;
            let kind = b.u32(r, "subobject record")?;
            let name = string(b.u32(r + 4, "subobject record")?, "subobject name", r + 4)?;
            out.subobjects.push((kind, name));
        }
    }
    Ok(out)
}

/// Parses every part hlslc knows, so that any inconsistency is reported.
pub fn check_all(bytes: &[u8]) -> R<Container<'_>> {
    let c = parse(bytes)?;
    for p in &c.parts {
        match p.fourcc.as_str() {
            "DXIL" | "STAT" | "ILDB" => {
                program(p)?;
            }
            "ISG1" | "OSG1" | "PSG1" => {
                signature(p)?;
            }
            "PSV0" => {
                psv(p)?;
            }
            "SFI0" => {
                if p.data.len() != 8 {
                    return p.bytes().err(0, format!("SFI0 is {} bytes, expected 8", p.data.len()));
                }
            }
            "RTS0" => {
                root_signature(p)?;
            }
            "RDAT" => {
                rdat(p)?;
            }
            "ILDN" => {
                let b = p.bytes();
                let len = b.u16(2, "debug name length")? as usize;
                b.slice(4, len + 1, "debug name")?;
                if b.u8(4 + len, "debug name terminator")? != 0 || p.data.len() % 4 != 0 {
                    return b.err(4 + len, "the debug name is not NUL-terminated and padded to 4 bytes");
                }
            }
            "HASH" => {
                if p.data.len() != 20 {
                    return p.bytes().err(0, format!("HASH is {} bytes, expected 20", p.data.len()));
                }
            }
            _ => {}
        }
    }
    Ok(c)
}
