//! Generates the DXIL op enum, info table and intrinsic hooks from `ops.txt` (the one declarative
//! source of DXIL op facts; its header documents the format). The output goes to
//! `$OUT_DIR/dxil_ops.rs` and is included by `src/ops/mod.rs`. Any malformed record stops the
//! build with `ops.txt:<line>: <problem>`.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Ver(u8, u8);

/// `(type, name, immediate)` of one argument.
type Arg = (String, String, bool);

#[derive(Default, Debug)]
struct Op {
    line: usize,
    partition: u32,
    index: u32,
    name: String,
    class: String,
    doc: String,
    sig: Option<(String, Vec<Arg>)>,
    opaque: bool,
    oload: Vec<(Ver, u16, u16)>,
    stages: Vec<(Ver, u32)>,
    attrs: Vec<(Ver, u8)>,
    flags: Vec<String>,
    sm: Option<(u8, u8)>,
    intrinsics: Vec<String>,
    intro: Option<Ver>,
}

const OLOAD_LETTERS: &str = "hfd18wiluo";
const STAGES: [&str; 16] = [
    "pixel", "vertex", "geometry", "hull", "domain", "compute", "library", "raygeneration", "intersection", "anyhit",
    "closesthit", "miss", "callable", "mesh", "amplification", "node",
];
const ATTRS: [&str; 5] = ["rn", "ro", "nd", "nr", "amo"];
const FLAGS: [&str; 6] = ["deriv", "gradient", "feedback", "wave", "uniform", "barrier"];

fn param_ty(t: &str) -> Option<&'static str> {
    Some(match t {
        "void" => "Void",
        "i1" => "I1",
        "i8" => "I8",
        "i16" => "I16",
        "i32" => "I32",
        "i64" => "I64",
        "half" => "Half",
        "float" => "Float",
        "double" => "Double",
        "$o" => "Overload",
        "$o.i1" => "OverloadShapeI1",
        "$o.i32" => "OverloadShapeI32",
        "$elt" => "Element",
        "$r" => "ResRet",
        "$cb" => "CBufRet",
        "$four" => "Four",
        "$vec9" => "Vec9",
        "handle" => "Handle",
        "dims" => "Dimensions",
        "samplepos" => "SamplePos",
        "twoi32" => "TwoI32",
        "i32c" => "I32c",
        "fouri32" => "FourI32",
        "splitdouble" => "SplitDouble",
        "resprops" => "ResourceProperties",
        "resbind" => "ResBind",
        "nodehandle" => "NodeHandle",
        "noderecordhandle" => "NodeRecordHandle",
        "nodeprops" => "NodeInfo",
        "noderecordprops" => "NodeRecordInfo",
        "hitobject" => "HitObject",
        "pf32" => "FloatPtr",
        _ => return None,
    })
}

fn parse_ver(s: &str) -> Option<Ver> {
    let (a, b) = s.split_once('.')?;
    Some(Ver(a.parse().ok()?, b.parse().ok()?))
}

/// Splits `[<ver>] items | <ver> items` into versioned item lists; a missing leading version
/// means the op's own version.
fn versioned(value: &str, intro: Ver) -> Result<Vec<(Ver, Vec<String>)>, String> {
    let mut out: Vec<(Ver, Vec<String>)> = Vec::new();
    for part in value.split('|') {
        let mut words: Vec<&str> = part.split_whitespace().collect();
        let ver = match words.first().and_then(|w| parse_ver(w)) {
            Some(v) => {
                words.remove(0);
                v
            }
            None if out.is_empty() => intro,
            None => return Err("every `|` alternative after the first needs a DXIL version".into()),
        };
        if let Some(last) = out.last() {
            if last.0 >= ver {
                return Err("versions must increase".into());
            }
        }
        if ver < intro {
            return Err(format!("version {}.{} is older than the op's DXIL version", ver.0, ver.1));
        }
        out.push((ver, words.iter().map(|w| w.to_string()).collect()));
    }
    Ok(out)
}

fn oload_bits(groups: &[String]) -> Result<(u16, u16), String> {
    let (mut scalars, mut vectors) = (0u16, 0u16);
    for g in groups {
        let (letters, target) = match g.strip_prefix('<') {
            Some(rest) => (rest, &mut vectors),
            None => (g.as_str(), &mut scalars),
        };
        for c in letters.chars() {
            let bit = OLOAD_LETTERS.find(c).ok_or_else(|| format!("unknown overload letter `{c}`"))?;
            *target |= 1 << bit;
        }
    }
    Ok((scalars, vectors))
}

fn parse(text: &str) -> Result<Vec<Op>, String> {
    let mut ops: Vec<Op> = Vec::new();
    let mut partition = None;
    let mut ver = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let err = |m: String| format!("ops.txt:{line_no}: {m}");
        let line = raw.split_once('#').map_or(raw, |(a, _)| a).trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("partition ") {
            let id = rest.split_whitespace().next().unwrap_or("");
            let id = u32::from_str_radix(id.trim_start_matches("0x"), 16).map_err(|_| err("bad partition id".into()))?;
            if id != 0 && id != 0x8000 {
                return Err(err("only feature ids 0x0000 and 0x8000 are valid".into()));
            }
            partition = Some(id);
            continue;
        }
        if let Some(rest) = line.strip_prefix("dxil ") {
            ver = Some(parse_ver(rest.trim()).ok_or_else(|| err("bad DXIL version".into()))?);
            continue;
        }
        if let Some(rest) = line.strip_prefix("op ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.len() != 3 {
                return Err(err("expected `op <index> <Name> <class>`".into()));
            }
            let part = partition.ok_or_else(|| err("op before any `partition`".into()))?;
            let intro = ver.ok_or_else(|| err("op before any `dxil` version".into()))?;
            ops.push(Op {
                line: line_no,
                partition: part,
                index: words[0].parse().map_err(|_| err("bad op index".into()))?,
                name: words[1].to_string(),
                class: words[2].to_string(),
                intro: Some(intro),
                ..Op::default()
            });
            continue;
        }
        let op = ops.last_mut().ok_or_else(|| err("field outside a record".into()))?;
        let (key, value) = line.trim().split_once(':').ok_or_else(|| err("expected `key: value`".into()))?;
        let value = value.trim();
        let intro = op.intro.unwrap_or(Ver(1, 0));
        match key {
            "doc" => op.doc = value.to_string(),
            "sig" if value == "opaque" => op.opaque = true,
            "sig" => {
                let (ret, args) = value.split_once('=').ok_or_else(|| err("sig needs `ret = args`".into()))?;
                let ret = ret.trim().to_string();
                param_ty(&ret).ok_or_else(|| err(format!("unknown type `{ret}`")))?;
                let mut params = Vec::new();
                for a in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                    let (ty, name) = a.split_once(' ').ok_or_else(|| err(format!("argument `{a}` needs a type and a name")))?;
                    param_ty(ty).ok_or_else(|| err(format!("unknown type `{ty}`")))?;
                    let imm = name.ends_with('!');
                    params.push((ty.to_string(), name.trim_end_matches('!').to_string(), imm));
                }
                op.sig = Some((ret, params));
            }
            "oload" => {
                for (v, groups) in versioned(value, intro).map_err(err)? {
                    let (s, vec) = oload_bits(&groups).map_err(err)?;
                    op.oload.push((v, s, vec));
                }
            }
            "stages" => {
                for (v, names) in versioned(value, intro).map_err(err)? {
                    let mut mask = 0u32;
                    for s in &names {
                        match s.as_str() {
                            "all" => mask |= (1 << STAGES.len()) - 1,
                            "removed" => {}
                            _ => mask |= 1 << STAGES.iter().position(|x| x == s).ok_or_else(|| err(format!("unknown stage `{s}`")))?,
                        }
                    }
                    if names.is_empty() {
                        return Err(err("empty stage list (use `removed`)".into()));
                    }
                    op.stages.push((v, mask));
                }
            }
            "attr" => {
                for (v, names) in versioned(value, intro).map_err(err)? {
                    let mut mask = 0u8;
                    for a in &names {
                        mask |= 1 << ATTRS.iter().position(|x| x == a).ok_or_else(|| err(format!("unknown attribute `{a}`")))?;
                    }
                    op.attrs.push((v, mask));
                }
            }
            "flags" => {
                for f in value.split_whitespace() {
                    if !FLAGS.contains(&f) {
                        return Err(err(format!("unknown flag `{f}`")));
                    }
                    op.flags.push(f.to_string());
                }
            }
            "sm" => {
                let v = parse_ver(value).ok_or_else(|| err("bad shader model".into()))?;
                op.sm = Some((v.0, v.1));
            }
            "intrinsics" => op.intrinsics = value.split_whitespace().map(str::to_string).collect(),
            _ => return Err(err(format!("unknown field `{key}`"))),
        }
    }
    validate(&ops)?;
    Ok(ops)
}

fn validate(ops: &[Op]) -> Result<(), String> {
    let mut names = HashSet::new();
    let mut next: BTreeMap<u32, u32> = BTreeMap::new();
    for op in ops {
        let err = |m: String| format!("ops.txt:{}: {}: {m}", op.line, op.name);
        if !names.insert(op.name.clone()) {
            return Err(err("duplicate name".into()));
        }
        let expected = next.entry(op.partition).or_insert(0);
        if op.index != *expected {
            return Err(err(format!("index {} breaks the partition's contiguity (expected {expected})", op.index)));
        }
        *expected += 1;
        if op.class == "reserved" {
            continue;
        }
        if op.doc.is_empty() {
            return Err(err("missing doc".into()));
        }
        if op.sig.is_none() && !op.opaque {
            return Err(err("missing sig".into()));
        }
        if let Some((ret, params)) = &op.sig {
            let uses_overload = std::iter::once(ret).chain(params.iter().map(|p| &p.0)).any(|t| t.starts_with('$'));
            if uses_overload && op.oload.is_empty() {
                return Err(err("signature uses an overload type but the op has no `oload`".into()));
            }
            if !uses_overload && !op.oload.is_empty() {
                return Err(err("op has overloads but its signature never uses one".into()));
            }
        }
    }
    Ok(())
}

fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

fn generate(ops: &[Op]) -> String {
    let mut o = String::new();
    let n = ops.len();
    o.push_str("// @generated — do not edit. Generated by dxil-emit/build.rs from dxil-emit/ops.txt.\n\n");
    o.push_str("/// Every DXIL operation, by name; the discriminant is the opcode (experimental ops carry\n");
    o.push_str("/// their feature id in the top 16 bits).\n");
    o.push_str("#[allow(non_camel_case_types)]\n#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(u32)]\npub enum DxilOp {\n");
    for op in ops {
        let _ = writeln!(o, "    /// {}", if op.doc.is_empty() { "reserved" } else { &op.doc });
        let _ = writeln!(o, "    {} = {:#x},", op.name, (op.partition << 16) | op.index);
    }
    o.push_str("}\n\n");
    let _ = writeln!(o, "/// Number of ops in the table.\npub const OP_COUNT: usize = {n};\n");
    o.push_str("impl DxilOp {\n    /// All ops in table order (partition, then opcode).\n");
    let _ = writeln!(o, "    pub const ALL: [DxilOp; {n}] = [");
    for op in ops {
        let _ = writeln!(o, "        DxilOp::{},", op.name);
    }
    o.push_str("    ];\n\n    /// Position in [`OP_TABLE`].\n    pub const fn table_index(self) -> usize {\n        match self {\n");
    for (i, op) in ops.iter().enumerate() {
        let _ = writeln!(o, "            DxilOp::{} => {i},", op.name);
    }
    o.push_str("        }\n    }\n\n    /// The op with this opcode, if any.\n    pub fn from_opcode(opcode: u32) -> Option<DxilOp> {\n        Some(match opcode {\n");
    for op in ops {
        let _ = writeln!(o, "            {:#x} => DxilOp::{},", (op.partition << 16) | op.index, op.name);
    }
    o.push_str("            _ => return None,\n        })\n    }\n\n    /// The op with this name (as in DXIL.rst), if any.\n    pub fn from_name(name: &str) -> Option<DxilOp> {\n        Some(match name {\n");
    for op in ops {
        let _ = writeln!(o, "            {} => DxilOp::{},", rust_str(&op.name), op.name);
    }
    o.push_str("            _ => return None,\n        })\n    }\n}\n\n");

    let _ = writeln!(o, "/// Facts about every op, indexed by [`DxilOp::table_index`].\npub static OP_TABLE: [OpInfo; {n}] = [");
    for op in ops {
        let intro = op.intro.unwrap_or(Ver(1, 0));
        let sm = op.sm.unwrap_or((6, intro.1));
        let signature = if op.class == "reserved" {
            "Signature::Reserved".to_string()
        } else if op.opaque {
            "Signature::Opaque".to_string()
        } else {
            let (ret, params) = op.sig.as_ref().map(|(r, p)| (r.as_str(), p.as_slice())).unwrap_or(("void", &[]));
            let mut s = format!("Signature::Known {{ ret: ParamTy::{}, params: &[", param_ty(ret).unwrap_or("Void"));
            for (ty, name, imm) in params {
                let _ = write!(s, "Param {{ ty: ParamTy::{}, name: {}, immediate: {imm} }}, ", param_ty(ty).unwrap_or("Void"), rust_str(name));
            }
            s.push_str("] }");
            s
        };
        let overloads: String = op.oload.iter().map(|(v, s, vec)| format!("(DxilVersion::new({}, {}), OverloadSet::from_bits({s:#x}, {vec:#x})), ", v.0, v.1)).collect();
        let stages_list = if op.class == "reserved" { vec![(intro, 0)] } else if op.stages.is_empty() { vec![(intro, (1u32 << STAGES.len()) - 1)] } else { op.stages.clone() };
        let stages: String = stages_list.iter().map(|(v, m)| format!("(DxilVersion::new({}, {}), StageSet({m:#x})), ", v.0, v.1)).collect();
        let attrs: String = op.attrs.iter().map(|(v, m)| format!("(DxilVersion::new({}, {}), MemAttrs({m:#x})), ", v.0, v.1)).collect();
        let flag = |f: &str| op.flags.iter().any(|x| x == f);
        let intrinsics: String = op.intrinsics.iter().map(|i| format!("{}, ", rust_str(i))).collect();
        let _ = writeln!(
            o,
            "    OpInfo {{ op: DxilOp::{name}, name: {qname}, opcode: {opcode:#x}, class: {class}, doc: {doc}, signature: {signature}, overloads: &[{overloads}], stages: &[{stages}], attrs: &[{attrs}], flags: OpFlags {{ is_derivative: {d}, is_gradient: {g}, is_feedback: {f}, is_wave: {w}, requires_uniform_inputs: {u}, is_barrier: {b} }}, introduced: DxilVersion::new({iv0}, {iv1}), min_shader_model: ({sm0}, {sm1}), intrinsics: &[{intrinsics}] }},",
            name = op.name,
            qname = rust_str(&op.name),
            opcode = (op.partition << 16) | op.index,
            class = rust_str(&op.class),
            doc = rust_str(&op.doc),
            d = flag("deriv"),
            g = flag("gradient"),
            f = flag("feedback"),
            w = flag("wave"),
            u = flag("uniform"),
            b = flag("barrier"),
            iv0 = intro.0,
            iv1 = intro.1,
            sm0 = sm.0,
            sm1 = sm.1,
        );
    }
    o.push_str("];\n\n");

    let mut by_intrinsic: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for op in ops {
        for i in &op.intrinsics {
            by_intrinsic.entry(i.as_str()).or_default().push(&op.name);
        }
    }
    o.push_str("/// Hook for lowering: the ops an HLSL intrinsic (by its `gen_intrin_main.txt` name) may lower\n");
    o.push_str("/// to directly. Several ops mean the choice depends on operand types (`max` on float, int or\n/// uint). Empty when the intrinsic has no direct op.\n");
    o.push_str("pub fn ops_for_intrinsic(name: &str) -> &'static [DxilOp] {\n    match name {\n");
    for (name, list) in &by_intrinsic {
        let items: Vec<String> = list.iter().map(|n| format!("DxilOp::{n}")).collect();
        let _ = writeln!(o, "        {} => &[{}],", rust_str(name), items.join(", "));
    }
    o.push_str("        _ => &[],\n    }\n}\n\n");
    let _ = writeln!(o, "/// Every intrinsic name that [`ops_for_intrinsic`] knows, sorted.\npub const MAPPED_INTRINSICS: [&str; {}] = [", by_intrinsic.len());
    for name in by_intrinsic.keys() {
        let _ = writeln!(o, "    {},", rust_str(name));
    }
    o.push_str("];\n");
    o
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let src = Path::new(&manifest).join("ops.txt");
    println!("cargo:rerun-if-changed=ops.txt");
    println!("cargo:rerun-if-changed=build.rs");
    let text = match std::fs::read_to_string(&src) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", src.display());
            std::process::exit(1);
        }
    };
    let ops = match parse(&text) {
        Ok(ops) => ops,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    if let Err(e) = std::fs::write(Path::new(&out).join("dxil_ops.rs"), generate(&ops)) {
        eprintln!("error: cannot write generated code: {e}");
        std::process::exit(1);
    }
}
