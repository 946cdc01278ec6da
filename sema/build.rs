//! Generates the intrinsic table and the `IntrinsicOp` enum from `intrinsics/intrinsics.def`.
//! The format is described at the top of that file.

use std::collections::BTreeSet;
use std::fmt::Write;

const BASES: &[(&str, &str)] = &[
    ("bool", "Bool"), ("int", "Int"), ("uint", "UInt"), ("u64", "UInt64"), ("float", "Float"),
    ("double", "Double"), ("int16_t", "Int16"), ("uint16_t", "UInt16"), ("float16_t", "Float16"),
    ("void", "Void"), ("numeric", "Numeric"), ("float_like", "FloatLike"), ("any", "Any"),
    ("any_float", "AnyFloat"), ("any_int", "AnyInt"), ("any_int16or32", "AnyInt16or32"),
    ("any_int32", "AnyInt32"), ("any_int64", "AnyInt64"), ("double_only", "DoubleOnly"),
    ("float32_only", "Float32Only"), ("int32_only", "Int32Only"), ("int64_only", "Int64Only"),
    ("numeric16_only", "Numeric16Only"), ("numeric32_only", "Numeric32Only"),
    ("sint16or32_only", "SInt16or32Only"), ("uint_only", "UIntOnly"), ("p32i8", "P32I8"),
    ("p32u8", "P32U8"), ("sampler", "Sampler"), ("sampler_cmp", "SamplerCmp"),
    ("any_sampler", "AnySampler"), ("sampler1d", "Sampler1D"), ("sampler2d", "Sampler2D"),
    ("sampler3d", "Sampler3D"), ("sampler_cube", "SamplerCube"), ("udt", "Udt"),
    ("ray_desc", "RayDesc"), ("acceleration_struct", "AccelerationStruct"), ("string", "String"),
    ("resource", "Resource"), ("triangle_positions", "TrianglePositions"),
    ("ByteAddressBuffer", "ByteAddressBuffer"), ("RWByteAddressBuffer", "RWByteAddressBuffer"),
    ("Texture2D", "Texture2D"), ("Texture2DArray", "Texture2DArray"), ("RayQuery", "RayQuery"),
    ("DxHitObject", "DxHitObject"), ("LinAlg", "LinAlg"), ("LinAlgMatrix", "LinAlgMatrix"),
    ("NodeRecordOrUAV", "NodeRecordOrUav"), ("VkBufferPointer", "VkBufferPointer"),
    ("ThreadNodeOutputRecords", "ThreadNodeOutputRecords"),
    ("GroupNodeOutputRecords", "GroupNodeOutputRecords"),
];

fn camel(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn op_name(group: &str, name: &str) -> String {
    match group {
        "Intrinsics" => camel(name),
        "VkIntrinsics" => format!("Vk{}", camel(name)),
        "DxIntrinsics" => format!("Dx{}", camel(name)),
        _ => format!("Method{}", camel(name)),
    }
}

fn split_top(s: &str) -> Vec<String> {
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for ch in s.chars() {
        match ch {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

fn dim(s: &str, line: usize) -> String {
    let s = s.trim();
    if let Ok(n) = s.parse::<u8>() {
        return format!("Dim::Fixed({n})");
    }
    let v = match s {
        "c" => 0,
        "r" => 1,
        "c2" => 2,
        "r2" => 3,
        _ => panic!("intrinsics.def:{line}: unknown dimension '{s}'"),
    };
    format!("Dim::Var({v})")
}

/// Renders an `ArgSpec` literal for a type string.
fn arg_spec(t: &str, line: usize) -> String {
    let mut t = t.trim().to_string();
    let (mut layout_from, mut comp_from) = ("None".to_string(), "None".to_string());
    if let Some(rest) = t.strip_prefix("match(") {
        let close = rest.find(')').unwrap_or_else(|| panic!("intrinsics.def:{line}: bad match"));
        let nums: Vec<i8> = rest[..close].split(',').map(|n| n.trim().parse().expect("match index")).collect();
        layout_from = format!("Some({})", nums[0]);
        comp_from = format!("Some({})", nums[1]);
        t = rest[close + 1..].trim().to_string();
    }
    let mut special = "Special::None";
    let mut same_as = "None".to_string();
    if let Some(n) = t.strip_prefix('$') {
        match n {
            "classT" => special = "Special::ClassT",
            "funcT" => special = "Special::FuncT",
            "funcT2" => special = "Special::FuncT2",
            _ => same_as = format!("Some({})", n.parse::<u8>().unwrap_or_else(|_| panic!("intrinsics.def:{line}: bad ${n}"))),
        }
        return format!(
            "ArgSpec {{ base: Base::Void, layout: Layout::Any, layout_from: {layout_from}, comp_from: {comp_from}, same_as: {same_as}, special: {special}, array: false }}"
        );
    }
    let array = t.ends_with("[]");
    if array {
        t.truncate(t.len() - 2);
    }
    let (base, layout) = match t.find('<') {
        Some(i) => {
            let inner = t[i + 1..t.len() - 1].to_string();
            let dims: Vec<&str> = inner.split(',').map(|d| d.trim()).filter(|d| !d.is_empty()).collect();
            let layout = match dims.len() {
                0 => "Layout::Any".to_string(),
                1 => format!("Layout::Vector({})", dim(dims[0], line)),
                2 => format!("Layout::Matrix({}, {})", dim(dims[0], line), dim(dims[1], line)),
                _ => panic!("intrinsics.def:{line}: bad layout"),
            };
            (t[..i].trim().to_string(), layout)
        }
        None => (t.clone(), "Layout::Scalar".to_string()),
    };
    let b = BASES
        .iter()
        .find(|(n, _)| *n == base)
        .unwrap_or_else(|| panic!("intrinsics.def:{line}: unknown base type '{base}'"))
        .1;
    format!(
        "ArgSpec {{ base: Base::{b}, layout: {layout}, layout_from: {layout_from}, comp_from: {comp_from}, same_as: {same_as}, special: {special}, array: {array} }}"
    )
}

fn main() {
    println!("cargo:rerun-if-changed=intrinsics/intrinsics.def");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string("intrinsics/intrinsics.def").expect("read intrinsics.def");
    let mut ops = BTreeSet::new();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if let Some(g) = l.strip_prefix('[').and_then(|g| g.strip_suffix(']')) {
            groups.push((g.to_string(), Vec::new()));
            continue;
        }
        let group = groups.last().map(|g| g.0.clone()).unwrap_or_else(|| panic!("intrinsics.def:{line}: no group"));
        let open = l.find('(').unwrap_or_else(|| panic!("intrinsics.def:{line}: no '('"));
        let name = &l[..open];
        let arrow = l.find(") -> ").unwrap_or_else(|| panic!("intrinsics.def:{line}: no ') ->'"));
        let params = &l[open + 1..arrow];
        let mut rest = l[arrow + 5..].to_string();
        let mut lowering = String::new();
        if let Some(p) = rest.find(" => ") {
            lowering = rest[p + 4..].trim().to_string();
            rest.truncate(p);
        }
        let mut attrs = Vec::new();
        if let Some(p) = rest.find(" {") {
            attrs = rest[p + 2..rest.len() - 1].split(',').map(|a| a.trim().to_string()).collect();
            rest.truncate(p);
        }
        let ret = arg_spec(&rest, line);
        let mut variadic = false;
        let mut ps = Vec::new();
        for p in split_top(params) {
            if p == "..." {
                variadic = true;
                continue;
            }
            let mut words: Vec<&str> = p.split_whitespace().collect();
            let pname = words.pop().expect("param name");
            let dir = match words.first().copied() {
                Some("in") => "Dir::In",
                Some("out") => "Dir::Out",
                Some("inout") => "Dir::InOut",
                Some("ref") => "Dir::Ref",
                Some("groupshared") => "Dir::GroupShared",
                _ => panic!("intrinsics.def:{line}: parameter without direction"),
            };
            words.remove(0);
            let words: Vec<&str> = words.into_iter().filter(|w| *w != "row_major" && *w != "col_major").collect();
            ps.push(format!("ParamSpec {{ name: {:?}, dir: {dir}, ty: {} }}", pname, arg_spec(&words.join(" "), line)));
        }
        let op = op_name(&group, name);
        ops.insert(op.clone());
        let mut unsigned = "None".to_string();
        let (mut rn, mut ro, mut wv, mut hidden) = (false, false, false, false);
        let mut min_sm = "None".to_string();
        for a in &attrs {
            match a.split_once('=') {
                Some(("unsigned_op", u)) => {
                    let uop = op_name(&group, u);
                    ops.insert(uop.clone());
                    unsigned = format!("Some(IntrinsicOp::{uop})");
                }
                Some(("min_sm", v)) => {
                    let (a, b) = v.split_once('.').expect("min_sm X.Y");
                    min_sm = format!("Some(({a}, {b}))");
                }
                Some(_) => {}
                None => match a.as_str() {
                    "rn" => rn = true,
                    "ro" => ro = true,
                    "wv" => wv = true,
                    "hidden" => hidden = true,
                    _ => {}
                },
            }
        }
        let entry = format!(
            "    Overload {{ name: {name:?}, op: IntrinsicOp::{op}, unsigned_op: {unsigned}, ret: {ret}, params: &[{}], variadic: {variadic}, readnone: {rn}, readonly: {ro}, wave: {wv}, hidden: {hidden}, min_sm: {min_sm}, lowering: {lowering:?} }},\n",
            ps.join(", ")
        );
        groups.last_mut().unwrap().1.push(entry);
    }
    let mut out = String::from("// @generated by sema/build.rs from sema/intrinsics/intrinsics.def. Do not edit.\n\n");
    out.push_str("/// Every intrinsic function and object method, one variant per name (free functions plain,\n/// `vk::` ones prefixed `Vk`, `dx::` ones `Dx`, object methods `Method`), plus the unsigned\n/// variants selected by `unsigned_op`.\n");
    out.push_str("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\npub enum IntrinsicOp {\n");
    for op in &ops {
        let _ = writeln!(out, "    {op},");
    }
    out.push_str("}\n\nimpl IntrinsicOp {\n    pub const ALL: &'static [IntrinsicOp] = &[\n");
    for op in &ops {
        let _ = writeln!(out, "        IntrinsicOp::{op},");
    }
    out.push_str("    ];\n    pub fn name(self) -> &'static str {\n        match self {\n");
    for op in &ops {
        let _ = writeln!(out, "            IntrinsicOp::{op} => {op:?},");
    }
    out.push_str("        }\n    }\n}\n\n");
    // Groups may repeat (a namespace reopened); merge by name.
    let mut merged: Vec<(String, Vec<String>)> = Vec::new();
    for (g, entries) in groups {
        match merged.iter_mut().find(|m| m.0 == g) {
            Some(m) => m.1.extend(entries),
            None => merged.push((g, entries)),
        }
    }
    out.push_str("/// The overloads of each group, in file order.\npub static GROUPS: &[(&str, &[Overload])] = &[\n");
    for (g, entries) in &merged {
        let _ = writeln!(out, "  ({g:?}, &[");
        for e in entries {
            out.push_str(e);
        }
        out.push_str("  ]),\n");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("intrinsics_table.rs");
    std::fs::write(dest, out).expect("write table");
}
