//! Every intrinsic the SPIR-V back end compiles also compiles to DXIL, or the DXIL back end says
//! clearly that it does not support it yet; it never panics. With LLVM 14's `llvm-as` installed,
//! every DXIL module produced is also assembled.
//!
//! The shaders are generated from sema's intrinsic table: for every overload of the free
//! functions (`[Intrinsics]`, `[DxIntrinsics]`) and of the methods of the buffer and texture
//! objects, one small shader per choice of component type and shape for the overload's generic
//! parameters. Inputs come from a cbuffer, `out` arguments are locals written to buffers
//! afterwards, `ref` arguments (the `Interlocked*` destinations) are elements of a
//! `RWStructuredBuffer`, and the result is stored to a `RWStructuredBuffer`. A shader is first
//! tried as a pixel shader, then as a compute shader; the first stage SPIR-V accepts is the one
//! whose DXIL is checked.

use hlslc::{compile, Options, Output, Profile};
use hlslc_sema::intrinsics::{ArgSpec, Base, Dim, Dir, Layout, Overload, Special, GROUPS};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A concrete shape.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Shape {
    Scalar,
    Vector(u8),
    Matrix(u8, u8),
}

/// The choices made for the generic parts of an overload.
#[derive(Copy, Clone, Debug)]
struct Choice {
    /// Index into each generic base's candidate component types.
    comp: usize,
    /// Shape of `<>` layouts.
    any: Shape,
}

/// The object a method group belongs to, as declared in the shader, and its element type.
fn object_decl(group: &str) -> Option<&'static str> {
    Some(match group {
        "Texture1DMethods" => "Texture1D<float4>",
        "Texture1DArrayMethods" => "Texture1DArray<float4>",
        "Texture2DMethods" => "Texture2D<float4>",
        "Texture2DMSMethods" => "Texture2DMS<float4>",
        "Texture2DArrayMethods" => "Texture2DArray<float4>",
        "Texture2DArrayMSMethods" => "Texture2DMSArray<float4>",
        "Texture3DMethods" => "Texture3D<float4>",
        "TextureCUBEMethods" => "TextureCube<float4>",
        "TextureCUBEArrayMethods" => "TextureCubeArray<float4>",
        "BufferMethods" => "Buffer<float4>",
        "RWTexture1DMethods" => "RWTexture1D<float4>",
        "RWTexture1DArrayMethods" => "RWTexture1DArray<float4>",
        "RWTexture2DMethods" => "RWTexture2D<float4>",
        "RWTexture2DArrayMethods" => "RWTexture2DArray<float4>",
        "RWTexture3DMethods" => "RWTexture3D<float4>",
        "RWBufferMethods" => "RWBuffer<float4>",
        "ByteAddressBufferMethods" => "ByteAddressBuffer",
        "RWByteAddressBufferMethods" => "RWByteAddressBuffer",
        "StructuredBufferMethods" => "StructuredBuffer<float4>",
        "RWStructuredBufferMethods" => "RWStructuredBuffer<float4>",
        "AppendStructuredBufferMethods" => "AppendStructuredBuffer<float4>",
        "ConsumeStructuredBufferMethods" => "ConsumeStructuredBuffer<float4>",
        _ => return None,
    })
}

/// Candidate component types of a base (`None`: not expressible in a generated shader).
fn candidates(base: Base) -> Option<&'static [&'static str]> {
    use Base::*;
    Some(match base {
        Bool => &["bool"],
        Int => &["int"],
        UInt => &["uint"],
        UInt64 => &["uint64_t"],
        Float => &["float"],
        Double | DoubleOnly => &["double"],
        Int16 => &["int16_t"],
        UInt16 => &["uint16_t"],
        Float16 => &["float16_t"],
        Numeric => &["float", "int", "uint"],
        FloatLike => &["float", "half"],
        Any => &["float", "int", "bool"],
        AnyFloat => &["float", "double"],
        AnyInt => &["int", "uint", "uint64_t"],
        AnyInt16or32 => &["int", "uint16_t"],
        AnyInt32 | Int32Only | SInt16or32Only => &["int"],
        AnyInt64 | Int64Only => &["int64_t"],
        Float32Only => &["float"],
        Numeric16Only => &["float16_t", "uint16_t"],
        Numeric32Only => &["float", "int", "uint"],
        UIntOnly => &["uint"],
        P32I8 => &["int8_t4_packed"],
        P32U8 => &["uint8_t4_packed"],
        Sampler | AnySampler | Sampler1D | Sampler2D | Sampler3D | SamplerCube => &["SamplerState"],
        SamplerCmp => &["SamplerComparisonState"],
        _ => return None,
    })
}

fn is_object(ty: &str) -> bool {
    ty.starts_with("Sampler")
}

/// Resolves the types of an overload's return value (index 0) and parameters (1..).
struct Resolver<'a> {
    ov: &'a Overload,
    choice: Choice,
}

impl Resolver<'_> {
    fn spec(&self, i: i8) -> Option<&ArgSpec> {
        match i {
            0 => Some(&self.ov.ret),
            i if i > 0 => self.ov.params.get(i as usize - 1).map(|p| &p.ty),
            _ => None,
        }
    }

    fn comp(&self, i: i8, depth: u8) -> Option<String> {
        if depth > 6 {
            return None;
        }
        match i {
            -1 | -2 => return Some("float".into()),
            -3 => return Some("uint".into()),
            _ => {}
        }
        let s = self.spec(i)?;
        if let Some(n) = s.same_as {
            return self.comp(n as i8, depth + 1);
        }
        match s.special {
            Special::ClassT => return Some("float".into()),
            Special::FuncT | Special::FuncT2 => return Some("uint".into()),
            Special::None => {}
        }
        match s.comp_from {
            Some(c) if c != i => self.comp(c, depth + 1),
            _ => {
                let c = candidates(s.base)?;
                Some(c[self.choice.comp % c.len()].to_string())
            }
        }
    }

    fn shape(&self, i: i8, depth: u8) -> Option<Shape> {
        if depth > 6 {
            return None;
        }
        match i {
            -1 => return Some(Shape::Vector(4)),
            -2 | -3 => return Some(Shape::Scalar),
            _ => {}
        }
        let s = self.spec(i)?;
        if let Some(n) = s.same_as {
            return self.shape(n as i8, depth + 1);
        }
        match s.special {
            Special::ClassT => return Some(Shape::Vector(4)),
            Special::FuncT | Special::FuncT2 => return Some(Shape::Scalar),
            Special::None => {}
        }
        if let Some(l) = s.layout_from.filter(|&l| l != i) {
            return self.shape(l, depth + 1);
        }
        let dim = |d: Dim| match d {
            Dim::Fixed(n) => n,
            Dim::Var(_) => 3,
        };
        Some(match s.layout {
            Layout::Scalar => Shape::Scalar,
            Layout::Any => self.choice.any,
            Layout::Vector(d) => Shape::Vector(dim(d)),
            Layout::Matrix(r, c) => Shape::Matrix(dim(r), dim(c)),
        })
    }

    /// The HLSL spelling of the type of value `i`.
    fn ty(&self, i: i8) -> Option<String> {
        if self.spec(i)?.base == Base::Void && self.spec(i)?.special == Special::None {
            return Some("void".into());
        }
        let comp = self.comp(i, 0)?;
        if is_object(&comp) || comp.ends_with("_packed") {
            return Some(comp);
        }
        Some(match self.shape(i, 0)? {
            Shape::Scalar => comp,
            Shape::Vector(n) => format!("{comp}{n}"),
            Shape::Matrix(r, c) => format!("{comp}{r}x{c}"),
        })
    }
}

/// A generated shader: its source (with `STAGE_ATTR` to replace) and a short description.
fn shader(object: Option<&str>, ov: &Overload, choice: Choice) -> Option<String> {
    if ov.hidden || ov.variadic || ov.name.starts_with("__builtin") {
        return None;
    }
    let r = Resolver { ov, choice };
    let mut globals = String::new();
    let mut cbuf = String::new();
    let mut pre = String::new();
    let mut post = String::new();
    let mut args = Vec::new();
    for (k, p) in ov.params.iter().enumerate() {
        let i = k as i8 + 1;
        let ty = r.ty(i)?;
        if ty == "void" {
            return None;
        }
        match p.dir {
            Dir::In if is_object(&ty) => {
                globals.push_str(&format!("{ty} a{i};\n"));
                args.push(format!("a{i}"));
            }
            Dir::In => {
                cbuf.push_str(&format!("  {ty} a{i};\n"));
                args.push(format!("a{i}"));
            }
            Dir::Out | Dir::InOut => {
                pre.push_str(&format!("  {ty} l{i} = ({ty})0;\n"));
                globals.push_str(&format!("RWStructuredBuffer<{ty}> o{i};\n"));
                post.push_str(&format!("  o{i}[0] = l{i};\n"));
                args.push(format!("l{i}"));
            }
            Dir::Ref => {
                globals.push_str(&format!("RWStructuredBuffer<{ty}> r{i};\n"));
                args.push(format!("r{i}[0]"));
            }
            Dir::GroupShared => return None,
        }
    }
    let ret = r.ty(0)?;
    let callee = match object {
        Some(decl) => {
            globals.push_str(&format!("{decl} obj;\n"));
            format!("obj.{}", ov.name)
        }
        None => ov.name.to_string(),
    };
    let call = format!("{callee}({})", args.join(", "));
    let body = if ret == "void" {
        format!("  {call};\n")
    } else {
        globals.push_str(&format!("RWStructuredBuffer<{ret}> result;\n"));
        format!("  result[0] = {call};\n")
    };
    if !cbuf.is_empty() {
        globals.push_str(&format!("cbuffer Inputs {{\n{cbuf}}};\n"));
    }
    Some(format!("{globals}STAGE_ATTR\nvoid main() {{\n{pre}{body}{post}}}\n"))
}

fn options(profile: &str, spirv: bool) -> Options {
    let mut o = Options::for_profile(Profile::parse(profile).expect("profile"));
    o.enable_16bit_types = true;
    o.spirv = spirv;
    // Wave and quad operations need Vulkan 1.1's subgroup operations.
    o.spirv_options.target_env = hlslc::options::TargetEnv::Vulkan1_3;
    o
}

/// The profile for `stage` (`ps`/`cs`) at the overload's minimum shader model, at least 6.6.
fn profile(stage: &str, ov: &Overload) -> String {
    let (a, b) = ov.min_sm.map_or((6, 6), |(a, b)| if (a, b) > (6, 6) { (a, b) } else { (6, 6) });
    format!("{stage}_{a}_{b}")
}

fn choices(ov: &Overload) -> Vec<Choice> {
    let generic = |s: &ArgSpec| {
        s.layout == Layout::Any || candidates(s.base).is_some_and(|c| c.len() > 1) && s.comp_from.is_none() && s.same_as.is_none()
    };
    let any_generic = generic(&ov.ret) || ov.params.iter().any(|p| generic(&p.ty));
    if !any_generic {
        return vec![Choice { comp: 0, any: Shape::Scalar }];
    }
    let mut v = Vec::new();
    for comp in 0..3 {
        for any in [Shape::Scalar, Shape::Vector(3)] {
            v.push(Choice { comp, any });
        }
    }
    v.push(Choice { comp: 0, any: Shape::Matrix(3, 3) });
    v
}

#[derive(Default)]
struct Tally {
    lowered: BTreeMap<String, usize>,
    not_supported: BTreeMap<String, String>,
    spirv_only: usize,
    /// Keys with at least one shader SPIR-V compiles.
    spirv: std::collections::BTreeSet<String>,
    neither: BTreeMap<String, usize>,
}

fn llvm_as() -> Option<&'static str> {
    ["/usr/lib/llvm-14/bin/llvm-as", "llvm-as-14"]
        .into_iter()
        .find(|t| std::process::Command::new(t).arg("--version").output().is_ok_and(|o| o.status.success()))
}

fn assemble(tool: &str, text: &str) -> Result<(), String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(tool)
        .args(["-o", "/dev/null", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().expect("stdin");
    let text = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn every_spirv_intrinsic_lowers_to_dxil_or_is_reported_unsupported() {
    let groups: Vec<(&str, Option<&str>, &[Overload])> = GROUPS
        .iter()
        .filter_map(|(g, ovs)| match *g {
            "Intrinsics" | "DxIntrinsics" => Some((*g, None, *ovs)),
            _ => object_decl(g).map(|d| (*g, Some(d), *ovs)),
        })
        .collect();
    assert!(groups.len() > 20, "the intrinsic table has the groups this test expects");
    let tool = llvm_as();
    if tool.is_none() {
        println!("llvm-as (LLVM 14) not found; DXIL output not assembled");
    }
    let mut tally = Tally::default();
    // Key -> (number of shaders, the first problem with its shader).
    let mut problems: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut report = |key: &str, what: String| {
        problems.entry(key.to_string()).or_insert((0, what)).0 += 1;
    };
    let mut seen = std::collections::HashSet::new();
    for (group, object, ovs) in groups {
        for ov in ovs {
            let key = format!("{group}::{}", ov.name);
            for choice in choices(ov) {
                let Some(src) = shader(object, ov, choice) else { continue };
                if !seen.insert(src.clone()) {
                    continue;
                }
                let mut spirv_stage = None;
                for (stage, attr) in [("ps", ""), ("cs", "[numthreads(8, 8, 1)]")] {
                    let src = src.replace("STAGE_ATTR", attr);
                    let prof = profile(stage, ov);
                    let r = catch_unwind(AssertUnwindSafe(|| compile(&src, "intrinsic.hlsl", &options(&prof, true), None)));
                    if r.is_ok_and(|r| r.succeeded()) {
                        spirv_stage = Some((src, prof));
                        break;
                    }
                }
                let Some((src, prof)) = spirv_stage else {
                    *tally.neither.entry(key.clone()).or_default() += 1;
                    continue;
                };
                tally.spirv.insert(key.clone());
                let r = match catch_unwind(AssertUnwindSafe(|| compile(&src, "intrinsic.hlsl", &options(&prof, false), None))) {
                    Ok(r) => r,
                    Err(_) => {
                        report(&key, format!("{key} ({choice:?}, {prof}): the DXIL back end panicked on\n{src}"));
                        continue;
                    }
                };
                if r.succeeded() {
                    match (&r.output, tool) {
                        (Some(Output::Text(text)), Some(tool)) => {
                            if let Err(e) = assemble(tool, text) {
                                report(&key, format!("{key} ({choice:?}, {prof}): llvm-as rejects the DXIL: {}\n{src}", e.lines().next().unwrap_or("")));
                            }
                        }
                        (Some(Output::Text(_)), None) => {}
                        _ => report(&key, format!("{key} ({choice:?}, {prof}): compiled without DXIL text")),
                    }
                    *tally.lowered.entry(key.clone()).or_default() += 1;
                    continue;
                }
                let errors: Vec<&str> = r.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
                // The generated shaders pass a constant-buffer value to EvaluateAttribute*: DXIL
                // refuses it with dxc's own diagnostic (only stage inputs can be evaluated), while
                // the SPIR-V path accepts it when the call's result is unused.
                let refused = |m: &str| {
                    m.contains("not supported") || m.contains("not yet supported") || m.contains("can only be done on values taken directly from inputs")
                };
                if errors.iter().any(|m| refused(m)) {
                    tally.spirv_only += 1;
                    tally.not_supported.entry(key.clone()).or_insert_with(|| errors[0].to_string());
                } else {
                    report(&key, format!("{key} ({choice:?}, {prof}): SPIR-V compiles it but DXIL fails without saying it is unsupported: {errors:?}\n{src}"));
                }
            }
        }
    }
    tally.neither.retain(|k, _| !tally.spirv.contains(k));
    println!(
        "intrinsics: {} overload groups lowered to DXIL, {} reported not supported ({} shaders), {} never compiled to SPIR-V",
        tally.lowered.len(),
        tally.not_supported.len(),
        tally.spirv_only,
        tally.neither.len()
    );
    for (k, m) in &tally.not_supported {
        println!("  not supported: {k}: {m}");
    }
    println!("  not compiled to SPIR-V: {}", tally.neither.keys().cloned().collect::<Vec<_>>().join(" "));
    assert!(tally.lowered.len() > 100, "only {} intrinsics lowered to DXIL; is the generator broken?", tally.lowered.len());
    let text: Vec<String> = problems.iter().map(|(k, (n, first))| format!("{k}: {n} shader(s); the first: {first}")).collect();
    assert!(problems.is_empty(), "{} intrinsics with problems:\n{}", problems.len(), text.join("\n"));
}
