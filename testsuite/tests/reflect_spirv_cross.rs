//! Cross-check of hlslc's reflection against `spirv-cross --reflect` run on the same SPIR-V.
//!
//! Every CodeGenSPIRV file of DXC's corpus whose first `%dxc` RUN line compiles (with that line's
//! flags), and every HLSLFileCheck/samples shader compiled with its RUN line's profile and `-spirv`,
//! is compiled in-process; `spirv-cross --reflect` reads the SPIR-V bytes we produced, and its
//! JSON is compared field by field with `CompileResult::reflection`: entry point name, stage and
//! workgroup size; each resource's set, binding, array size, GLSL type, image format, block
//! size; every member of every uniform/storage/push-constant block (name, offset, type, array,
//! array stride, matrix stride, row-major); each stage input/output's location, type and array
//! size; each specialization constant's id, type and default. The test prints the figure and
//! fails on the first mismatches. It skips with a message when spirv-cross or the corpus is
//! missing (`HLSLC_CORPUS`).

use hlslc::cli::{parse_args, Tool};
use hlslc::options::{Action, OutputKind};
use hlslc::reflect::{BaseType, Reflection, Resource, ResourceKind, Type};
use hlslc_testsuite::conformance::script::run_lines;
use hlslc_testsuite::corpus_root;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Field counts and the mismatches.
#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
    files: usize,
}

impl Tally {
    fn check(&mut self, file: &str, what: &str, ours: impl Into<Value>, theirs: Option<&Value>) {
        let ours = ours.into();
        let null = Value::Null;
        let theirs = theirs.unwrap_or(&null);
        self.compared += 1;
        if !same(&ours, theirs) {
            self.mismatches.push(format!("{file}: {what}: hlslc {ours}, spirv-cross {theirs}"));
        }
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-6 * x.abs().max(y.abs()),
        _ => a == b,
    }
}

/// `%dxc` arguments of the first RUN line that runs the compiler (not negated), with `%s` the
/// file; `None` for files with none.
fn dxc_args(text: &str, file: &Path) -> Option<Vec<String>> {
    for line in run_lines(text) {
        let mut words = line.split_whitespace();
        let first = words.next()?;
        if first != "%dxc" && first != "dxc" {
            if first == "not" || first == "%dxilver" {
                return None;
            }
            continue;
        }
        let mut args = Vec::new();
        for w in words {
            if matches!(w, "|" | "2>&1" | ">" | "&&" | ";" | "2>" | "<") {
                break;
            }
            let w = w.trim_matches('"').trim_matches('\'');
            args.push(if w == "%s" { file.display().to_string() } else { w.to_string() });
        }
        return Some(args);
    }
    None
}

fn compile(args: &[String]) -> Option<(Vec<u8>, Reflection)> {
    let inv = parse_args(Tool::Hlslc, args).ok()?;
    let mut options = inv.options.clone();
    if options.action != Action::Compile || !options.spirv {
        return None;
    }
    options.output_kind = OutputKind::Binary;
    options.listing = false;
    options.reflect = true;
    let input = inv.inputs.last()?;
    let bytes = std::fs::read(input).ok()?;
    let r = std::panic::catch_unwind(|| hlslc::compile_bytes(bytes, input, &options, None)).ok()?;
    match (r.output, r.reflection) {
        (Some(hlslc::Output::Binary(b)), Some(refl)) => Some((b, refl)),
        _ => None,
    }
}

/// GLSL's name of a numeric type, as spirv-cross writes it (arrays aside).
fn glsl(t: &Type) -> String {
    let (scalar, vec, mat) = match t.base {
        BaseType::Float => ("float", "vec", "mat"),
        BaseType::Double => ("double", "dvec", "dmat"),
        BaseType::Half => ("float16_t", "f16vec", "f16mat"),
        BaseType::Int => ("int", "ivec", ""),
        BaseType::Uint => ("uint", "uvec", ""),
        BaseType::Bool => ("bool", "bvec", ""),
        BaseType::Int16 => ("int16_t", "i16vec", ""),
        BaseType::Uint16 => ("uint16_t", "u16vec", ""),
        BaseType::Int64 => ("int64_t", "i64vec", ""),
        BaseType::Uint64 => ("uint64_t", "u64vec", ""),
        BaseType::Int8 => ("int8_t", "i8vec", ""),
        BaseType::Uint8 => ("uint8_t", "u8vec", ""),
        BaseType::AccelerationStructure => return "accelerationStructureEXT".into(),
        _ => return t.name.clone(),
    };
    if t.columns > 1 {
        return if t.columns == t.vecsize { format!("{mat}{}", t.columns) } else { format!("{mat}{}x{}", t.columns, t.vecsize) };
    }
    if t.vecsize > 1 {
        format!("{vec}{}", t.vecsize)
    } else {
        scalar.to_string()
    }
}

/// spirv-cross's GLSL type of a descriptor that is not a block.
fn glsl_resource(r: &Resource) -> String {
    // spirv-cross names 64-bit integer images like float ones (`image2D`).
    let prefix = match r.element_type.as_ref().map(|t| t.base) {
        Some(BaseType::Int) => "i",
        Some(BaseType::Uint) => "u",
        _ => "",
    };
    let dim = r.dimension.as_deref().unwrap_or("");
    let (base, ms, arr) = (dim.split('_').next().unwrap_or(""), dim.contains("_ms"), dim.ends_with("_array"));
    let d = match base {
        "1d" => "1D",
        "2d" => "2D",
        "3d" => "3D",
        "cube" => "Cube",
        "buffer" => "Buffer",
        "rect" => "2DRect",
        _ => "",
    };
    let head = match r.kind {
        // A uniform texel buffer is GLSL's `samplerBuffer`.
        ResourceKind::TypedBuffer => "sampler",
        ResourceKind::Texture => "texture",
        ResourceKind::RwTexture | ResourceKind::RwTypedBuffer => "image",
        ResourceKind::CombinedImageSampler => "sampler",
        ResourceKind::Sampler => return "sampler".into(),
        ResourceKind::AccelerationStructure => return "accelerationStructureEXT".into(),
        ResourceKind::SubpassInput => return format!("{prefix}subpassInput{}", if ms { "MS" } else { "" }),
        _ => "?",
    };
    format!("{prefix}{head}{d}{}{}", if ms { "MS" } else { "" }, if arr { "Array" } else { "" })
}

/// spirv-cross's resource list a resource of ours appears in.
fn category(r: &Resource) -> &'static str {
    match r.kind {
        ResourceKind::ConstantBuffer => "ubos",
        ResourceKind::PushConstant => "push_constants",
        ResourceKind::Texture | ResourceKind::TypedBuffer => "separate_images",
        ResourceKind::RwTexture | ResourceKind::RwTypedBuffer => "images",
        ResourceKind::Sampler => "separate_samplers",
        ResourceKind::CombinedImageSampler => "textures",
        ResourceKind::AccelerationStructure => "acceleration_structures",
        ResourceKind::SubpassInput => "subpass_inputs",
        _ => "ssbos",
    }
}

const CATEGORIES: &[&str] = &[
    "ubos",
    "ssbos",
    "push_constants",
    "separate_images",
    "images",
    "separate_samplers",
    "textures",
    "acceleration_structures",
    "subpass_inputs",
];

fn array_json(t: &Type) -> Value {
    if t.array.is_empty() {
        Value::Null
    } else {
        // spirv-cross lists dimensions innermost first.
        Value::from(t.array.iter().rev().copied().collect::<Vec<u32>>())
    }
}

fn compare_struct(tally: &mut Tally, file: &str, what: &str, ours: &Type, theirs_id: &Value, types: &Value, depth: usize) {
    let Some(theirs) = theirs_id.as_str().and_then(|id| types.get(id)) else {
        tally.check(file, &format!("{what}: struct type"), ours.name.clone(), Some(theirs_id));
        return;
    };
    let members = theirs.get("members").and_then(Value::as_array).cloned().unwrap_or_default();
    tally.check(file, &format!("{what}: member count"), ours.members.len(), Some(&Value::from(members.len())));
    for (m, tm) in ours.members.iter().zip(&members) {
        let w = format!("{what}.{}", m.name);
        tally.check(file, &format!("{w}: name"), m.name.clone(), tm.get("name"));
        tally.check(file, &format!("{w}: offset"), m.offset.map_or(Value::Null, Value::from), tm.get("offset"));
        tally.check(file, &format!("{w}: array"), array_json(&m.ty), tm.get("array"));
        tally.check(file, &format!("{w}: array_stride"), m.ty.array_stride.map_or(Value::Null, Value::from), tm.get("array_stride"));
        if m.ty.columns > 1 {
            tally.check(file, &format!("{w}: matrix_stride"), m.ty.matrix_stride.map_or(Value::Null, Value::from), tm.get("matrix_stride"));
            let row = m.ty.matrix_layout.as_deref() == Some("row_major");
            tally.check(file, &format!("{w}: row_major"), row, Some(tm.get("row_major").unwrap_or(&Value::Bool(false))));
        }
        if m.ty.base == BaseType::Struct {
            if depth < 16 {
                compare_struct(tally, file, &w, &m.ty, tm.get("type").unwrap_or(&Value::Null), types, depth + 1);
            }
        } else if m.ty.base == BaseType::Pointer {
            // A buffer device address: spirv-cross marks it `physical_pointer` and names the type
            // it points to by its entry in `types`.
            let theirs = tm.get("type").and_then(Value::as_str).unwrap_or("");
            let name = types.get(theirs).and_then(|t| t.get("name")).and_then(Value::as_str).unwrap_or(theirs);
            tally.check(file, &format!("{w}: pointee"), ours_pointee(&m.ty), Some(&Value::from(name)));
            if m.ty.array.is_empty() {
                tally.check(file, &format!("{w}: physical_pointer"), true, Some(tm.get("physical_pointer").unwrap_or(&Value::Bool(false))));
            }
        } else if matches!(m.ty.base, BaseType::Image | BaseType::Sampler | BaseType::SampledImage) {
            // An opaque member (unlegalized `-fcgl` output): its kind, as GLSL spells it.
            let theirs = tm.get("type").and_then(Value::as_str).unwrap_or("");
            let kind = |s: &str| {
                if s.starts_with("sampler") && s.len() > "sampler".len() && !s.starts_with("samplerShadow") {
                    "sampled_image"
                } else if s.starts_with("sampler") {
                    "sampler"
                } else {
                    "image"
                }
            };
            let ours = match m.ty.base {
                BaseType::Image => "image",
                BaseType::Sampler => "sampler",
                _ => "sampled_image",
            };
            tally.check(file, &format!("{w}: opaque type"), ours, Some(&Value::from(kind(theirs))));
        } else {
            // spirv-cross before 2021 (Debian 12's) says `accelerationStructureNV`.
            let theirs = match tm.get("type").and_then(Value::as_str) {
                Some("accelerationStructureNV") => Some(Value::from("accelerationStructureEXT")),
                _ => tm.get("type").cloned(),
            };
            tally.check(file, &format!("{w}: type"), glsl(&m.ty), theirs.as_ref());
        }
    }
}

/// The name of the type a buffer pointer points to (its reflection name).
fn ours_pointee(t: &Type) -> String {
    t.members.first().map_or_else(|| t.name.clone(), |m| glsl(&m.ty))
}

fn stage_mode(stage: &str) -> &str {
    match stage {
        "vertex" => "vert",
        "pixel" => "frag",
        "geometry" => "geom",
        "hull" => "tesc",
        "domain" => "tese",
        "compute" => "comp",
        "mesh" => "mesh",
        "amplification" => "task",
        "raygeneration" => "rgen",
        "intersection" => "rint",
        "anyhit" => "rahit",
        "closesthit" => "rchit",
        "miss" => "rmiss",
        "callable" => "rcall",
        other => other,
    }
}

fn compare(tally: &mut Tally, file: &str, ours: &Reflection, sc: &Value) {
    let types = sc.get("types").cloned().unwrap_or(Value::Null);
    // Entry points: spirv-cross lists them all (sorted its own way) and reflects the interface
    // of the module's first, which is ours first too.
    let listed = sc.get("entryPoints").and_then(Value::as_array).cloned().unwrap_or_default();
    tally.check(file, "entry point count", ours.entry_points.len(), Some(&Value::from(listed.len())));
    let e = ours.entry_points.first();
    let te = e.and_then(|e| listed.iter().find(|t| t.get("name").and_then(Value::as_str) == Some(e.name.as_str())));
    if let (Some(e), Some(te)) = (e, te) {
        tally.check(file, "entry name", e.name.clone(), te.get("name"));
        // spirv-cross 2021 (Debian) prints `???` for the EXT task/mesh models: not comparable.
        if te.get("mode").and_then(Value::as_str) != Some("???") {
            tally.check(file, "entry mode", stage_mode(&e.stage).to_string(), te.get("mode"));
        }
        if let Some(ws) = te.get("workgroup_size") {
            tally.check(file, "workgroup_size", e.workgroup_size.map_or(Value::Null, |w| Value::from(w.to_vec())), Some(ws));
        }
        // Stage variables: spirv-cross lists the ones that are not built-ins.
        for (list, key) in [(&e.inputs, "inputs"), (&e.outputs, "outputs")] {
            let theirs = sc.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
            let mine: Vec<_> = list.iter().filter(|v| v.builtin.is_none()).collect();
            tally.check(file, &format!("{key}: count"), mine.len(), Some(&Value::from(theirs.len())));
            for v in mine {
                // Names may repeat (a hull shader's per-vertex and per-patch outputs of one
                // semantic): the location tells them apart.
                let named = |t: &&Value| t.get("name").and_then(Value::as_str) == Some(v.name.as_str());
                let located = |t: &&Value| t.get("location").and_then(Value::as_u64) == v.location.map(u64::from);
                let Some(t) = theirs.iter().find(|t| named(t) && located(t)).or_else(|| theirs.iter().find(named)) else {
                    tally.check(file, &format!("{key} {}: present", v.name), true, Some(&Value::Bool(false)));
                    continue;
                };
                let w = format!("{key} {}", v.name);
                tally.check(file, &format!("{w}: location"), v.location.map_or(Value::Null, Value::from), t.get("location"));
                if v.ty.base != BaseType::Struct {
                    tally.check(file, &format!("{w}: type"), glsl(&v.ty), t.get("type"));
                }
                tally.check(file, &format!("{w}: array"), array_json(&v.ty), t.get("array"));
                if t.get("component").is_some() || v.component.is_some() {
                    tally.check(file, &format!("{w}: component"), v.component.map_or(Value::Null, Value::from), t.get("component"));
                }
            }
        }
    }
    // Resources, list by list.
    let all: Vec<&Resource> = ours.resources.iter().chain(&ours.push_constants).collect();
    for cat in CATEGORIES {
        let theirs = sc.get(*cat).and_then(Value::as_array).cloned().unwrap_or_default();
        let mine: Vec<&&Resource> = all.iter().filter(|r| category(r) == *cat).collect();
        tally.check(file, &format!("{cat}: count"), mine.len(), Some(&Value::from(theirs.len())));
        let mut taken = vec![false; mine.len()];
        for t in &theirs {
            let (set, binding) = (t.get("set").and_then(Value::as_u64), t.get("binding").and_then(Value::as_u64));
            let tname = t.get("name").and_then(Value::as_str).unwrap_or("");
            let candidates: Vec<usize> = (0..mine.len())
                .filter(|&i| !taken[i] && mine[i].set.map(u64::from) == set && mine[i].binding.map(u64::from) == binding)
                .collect();
            let pick = candidates
                .iter()
                .copied()
                .find(|&i| mine[i].name == tname || mine[i].block.as_ref().is_some_and(|b| b.name == tname))
                .or_else(|| candidates.first().copied());
            let Some(i) = pick else {
                tally.check(file, &format!("{cat} {tname} (set {set:?}, binding {binding:?}): present"), false, Some(&Value::Bool(true)));
                continue;
            };
            taken[i] = true;
            let r = mine[i];
            let w = format!("{cat} {}", r.name);
            tally.check(file, &format!("{w}: set"), r.set.map_or(Value::Null, Value::from), t.get("set"));
            tally.check(file, &format!("{w}: binding"), r.binding.map_or(Value::Null, Value::from), t.get("binding"));
            let arr: Vec<u32> = r.array.iter().rev().copied().collect();
            tally.check(file, &format!("{w}: array"), if arr.is_empty() { Value::Null } else { Value::from(arr) }, t.get("array"));
            match &r.block {
                Some(b) => {
                    if let Some(size) = t.get("block_size") {
                        tally.check(file, &format!("{w}: block_size"), b.size.unwrap_or(0), Some(size));
                    }
                    compare_struct(tally, file, &w, b, t.get("type").unwrap_or(&Value::Null), &types, 0);
                }
                None => {
                    // OpTypeAccelerationStructureKHR and NV are one opcode (5341); spirv-cross
                    // releases before 2021 (Debian 12's) call it `accelerationStructureNV`.
                    let theirs = match t.get("type").and_then(Value::as_str) {
                        Some("accelerationStructureNV") => Some(Value::from("accelerationStructureEXT")),
                        _ => t.get("type").cloned(),
                    };
                    tally.check(file, &format!("{w}: type"), glsl_resource(r), theirs.as_ref());
                    if *cat == "images" {
                        // spirv-cross leaves an unknown format out, and Debian 12's release
                        // predates the 64-bit formats of SPV_EXT_shader_image_int64 (R64i, R64ui),
                        // which it leaves out the same way.
                        let known = |f: &String| f != "unknown" && !(f.starts_with("r64") && t.get("format").is_none());
                        let format = r.image_format.clone().filter(known).map_or(Value::Null, Value::from);
                        tally.check(file, &format!("{w}: format"), format, t.get("format"));
                    }
                }
            }
        }
    }
    let theirs = sc.get("specialization_constants").and_then(Value::as_array).cloned().unwrap_or_default();
    tally.check(file, "spec constants: count", ours.spec_constants.len(), Some(&Value::from(theirs.len())));
    for s in &ours.spec_constants {
        // Ids may repeat (DXC's tests declare some twice): the name tells them apart.
        let by_id = |t: &&Value| t.get("id").and_then(Value::as_u64) == Some(u64::from(s.id));
        let by_name = |t: &&Value| t.get("name").and_then(Value::as_str) == Some(s.name.as_str());
        let Some(t) = theirs.iter().find(|t| by_id(t) && by_name(t)).or_else(|| theirs.iter().find(by_id)) else {
            tally.check(file, &format!("spec constant {}: present", s.id), true, Some(&Value::Bool(false)));
            continue;
        };
        tally.check(file, &format!("spec constant {}: type", s.id), glsl(&s.ty), t.get("type"));
        let default = match &s.default {
            Value::Bool(b) => Value::from(u32::from(*b)),
            v => v.clone(),
        };
        let theirs_default = match t.get("default_value") {
            Some(Value::Bool(b)) => Value::from(u32::from(*b)),
            v => v.cloned().unwrap_or(Value::Null),
        };
        tally.check(file, &format!("spec constant {}: default", s.id), default, Some(&theirs_default));
    }
}

fn spirv_cross_reflect(spirv_cross: &Path, bytes: &[u8], tmp: &Path) -> Option<Value> {
    std::fs::write(tmp, bytes).ok()?;
    let out = Command::new(spirv_cross).arg(tmp).arg("--reflect").output().ok()?;
    if !out.status.success() {
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    hlslc_testsuite::conformance::discover(dir).unwrap_or_default()
}

#[test]
fn reflection_agrees_with_spirv_cross() {
    let Some(spirv_cross) = hlslc_testsuite::tools::find_program("spirv-cross") else {
        eprintln!("reflect_spirv_cross: skipped: spirv-cross is not installed");
        return;
    };
    let root = corpus_root();
    if !root.join("CodeGenSPIRV").is_dir() {
        eprintln!("reflect_spirv_cross: skipped: no corpus at {} (set HLSLC_CORPUS)", root.display());
        return;
    }
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
        let tmp = std::env::temp_dir().join(format!("hlslc-reflect-{}.spv", std::process::id()));
        let mut tally = Tally::default();
        let mut not_read = Vec::new();
        let mut jobs: Vec<(PathBuf, Vec<String>)> = Vec::new();
        for f in files(&root.join("CodeGenSPIRV")) {
            let Ok(text) = std::fs::read_to_string(&f) else { continue };
            if let Some(args) = dxc_args(&text, &f) {
                jobs.push((f, args));
            }
        }
        for f in files(&root.join("HLSLFileCheck/samples")) {
            let Ok(text) = std::fs::read_to_string(&f) else { continue };
            if let Some(mut args) = dxc_args(&text, &f) {
                args.push("-spirv".into());
                jobs.push((f, args));
            }
        }
        for (f, args) in jobs {
            let Some((bytes, refl)) = compile(&args) else { continue };
            let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
            let Some(sc) = spirv_cross_reflect(&spirv_cross, &bytes, &tmp) else {
                not_read.push(name);
                continue;
            };
            tally.files += 1;
            compare(&mut tally, &name, &refl, &sc);
        }
        let _ = std::fs::remove_file(&tmp);
        (tally, not_read)
    });
    let (tally, not_read) = worker.expect("spawn").join().expect("the cross-check thread panicked");
    let agreed = tally.compared - tally.mismatches.len();
    eprintln!(
        "reflect_spirv_cross: {} files, {agreed} of {} compared fields agree ({:.2}%); spirv-cross could not read {} outputs",
        tally.files,
        tally.compared,
        100.0 * agreed as f64 / tally.compared.max(1) as f64,
        not_read.len()
    );
    for n in not_read.iter().take(10) {
        eprintln!("  spirv-cross failed on: {n}");
    }
    assert!(tally.files > 0, "no file compiled");
    assert!(tally.mismatches.is_empty(), "{} mismatches:\n{}", tally.mismatches.len(), tally.mismatches.iter().take(60).cloned().collect::<Vec<_>>().join("\n"));
}
