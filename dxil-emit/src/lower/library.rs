//! Library targets (`lib_6_x`): every `[shader("...")]` function becomes an entry of
//! `!dx.entryPoints`, after the library's own record (`!{null, !"", null, resources, flags}`),
//! the records sorted by function name as dxc writes them; each shader carries its stage (tag 8)
//! and its automatic binding space (tag 5). Resources are external globals named with their
//! Microsoft-mangled names (`@"\01?tex@@3V?$Texture2D@V?$vector@M$03@@@@A"`), read with
//! `createHandleForLib` (see [`super::resources`]).
//!
//! Each shader is lowered as a stage target lowers its entry (calls inlined, but those to
//! `[noinline]` functions, see [`super::calls`]); `export` functions (all of them with
//! `-default-linkage external`) are defined with their mangled names. The stages of mesh and
//! work graph libraries are refused.

use super::raytracing;
use super::resources::{ResInfo, ResState};
use super::{entry, lower_entry_point, scalar_type, unsupported, Lowerer, LowerOptions, ReturnCtx, R};
use hlslc_sema::tast::{ParamDir, Storage};
use crate::ir;
use crate::metadata::{self, EntryPoint, EntryProperties, Signatures};
use crate::ops::{DxilVersion, Stage, Target};
use hlslc_sema::tast::{self, FuncId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};

/// Lowers a library module: its shaders, its resources and its metadata.
pub(crate) fn lower_library(module: &tast::Module, options: &LowerOptions) -> R<ir::Module> {
    let entry_funcs: Vec<FuncId> = module.entries.iter().map(|e| e.func).collect();
    let external = options.default_linkage_external.unwrap_or(options.shader_model.1 == 15);
    let exports: Vec<FuncId> = (0..module.funcs.len() as u32)
        .map(FuncId)
        .filter(|&id| {
            let f = module.func(id);
            f.body.is_some() && f.this_type.is_none() && !entry_funcs.contains(&id) && (f.export || (external && !f.is_static))
        })
        .collect();
    for ep in &module.entries {
        if !matches!(ep.stage, Stage::Vertex | Stage::Pixel | Stage::Compute | Stage::Geometry | Stage::Hull | Stage::Domain) && !raytracing::is_ray_stage(ep.stage) {
            return unsupported(format!("a {} shader in a library", ep.stage.name()), Some(module.func(ep.func).span));
        }
    }
    let (major, minor) = options.shader_model;
    // `lib_6_x` (offline linking, minor 15) is DXIL's newest version this back end knows.
    let version = if minor == 15 { DxilVersion::new(1, 8) } else { DxilVersion::for_shader_model(major as u8, minor as u8) };
    let mut m = ir::Module::new_dxil();
    if options.enable_16bit {
        m.target_datalayout = ir::DXIL_DATALAYOUT_16BIT.to_string();
    }
    // The shaders are defined first, in source order, then the `dx.op` functions they call.
    let void = m.types.void();
    let fty = m.types.function(void, vec![]);
    // Exported functions and shaders are defined in source order, then the `dx.op` functions
    // they call.
    let mut defined: Vec<(FuncId, Option<&tast::EntryPoint>)> = exports.iter().map(|&f| (f, None)).collect();
    defined.extend(module.entries.iter().map(|ep| (ep.func, Some(ep))));
    defined.sort_by_key(|(f, _)| f.0);
    let mut export_ids = Vec::new();
    for (f, ep) in &defined {
        match ep {
            Some(ep) => {
                let (name, ty, names) = entry_decl(module, &mut m, ep, fty)?;
                let id = m.declare_function(&name, ty, None);
                if raytracing::is_ray_stage(ep.stage) {
                    // dxc's ray tracing shaders are `nounwind`.
                    let set = m.attr_set(vec![ir::Attr::NoUnwind]);
                    let f = m.function_mut(id);
                    f.arg_names = names;
                    f.attrs = Some(set);
                }
            }
            None => export_ids.push((*f, declare_export(module, &mut m, *f)?)),
        }
    }
    let mut res = ResState::default();
    let mut kept = Vec::new();
    let lib_target = Target { stage: Stage::Library, version };
    for (f, id) in export_ids {
        let more;
        (res, more) = lower_export(module, &mut m, f, id, options, lib_target, res, false)?;
        kept.extend(more);
    }
    let mut shaders = Vec::new();
    for ep in &module.entries {
        let target = Target { stage: ep.stage, version };
        let (name, _, _) = entry_decl(module, &mut m, ep, fty)?;
        let lowered = lower_entry_point(module, &mut m, ep, options, target, &name, res)?;
        res = lowered.res.clone();
        kept.extend(lowered.kept.iter().copied());
        shaders.push((ep, name, target, lowered));
    }
    let res = super::calls::lower_kept(module, &mut m, options, lib_target, kept, res)?;
    metadata::emit_version(&mut m, version);
    metadata::emit_valver(&mut m, options.validator_version.0, options.validator_version.1);
    metadata::emit_shader_model(&mut m, Stage::Library, major, minor);
    let records = res.metadata(&mut m, module);
    let resources = metadata::emit_resources(&mut m, &records);
    let mut flags = res.shader_flags(&m, Target { stage: Stage::Library, version }, options.enable_16bit);
    if options.validator_version >= (1, 8) {
        // UAVsAtEveryStage describes vertex to geometry stages; validator 1.8 no longer sets it
        // for libraries.
        flags &= !0x10000;
    }
    let library = EntryProperties { shader_flags: flags, ..EntryProperties::default() };
    metadata::emit_entry_point(&mut m, &EntryPoint { function: None, name: String::new(), signatures: None, resources, properties: library });
    shaders.sort_by(|a, b| a.1.cmp(&b.1));
    for (ep, name, target, lowered) in shaders {
        let sigs = &lowered.sigs;
        let signatures = metadata::emit_signatures(
            &mut m,
            &Signatures { inputs: sigs.inputs.clone(), outputs: sigs.outputs.clone(), patch_constant: sigs.patch_constant.clone() },
        );
        let mut properties = entry::entry_properties(module, target, ep, sigs, 0, lowered.patch_constant);
        properties.shader_kind = Some(ep.stage);
        properties.auto_binding_space = Some(options.auto_binding_space.unwrap_or(0));
        metadata::emit_entry_point(&mut m, &EntryPoint { function: Some(lowered.main), name, signatures, resources: None, properties });
    }
    Ok(m)
}

/// The name and function type of library shader `ep`: a ray tracing shader has its mangled
/// name and its parameters (see [`raytracing`]), the others are `void @name()` (`fty`).
#[allow(clippy::type_complexity)]
fn entry_decl(module: &tast::Module, m: &mut ir::Module, ep: &tast::EntryPoint, fty: ir::TypeId) -> R<(String, ir::TypeId, Vec<Option<String>>)> {
    if raytracing::is_ray_stage(ep.stage) {
        return raytracing::entry_signature(module, m, ep);
    }
    Ok((module.func(ep.func).name.clone(), fty, Vec::new()))
}

/// The IR type of an exported function's parameter or result: a scalar or a vector (`None`
/// for the rest, which dxc passes by pointer).
pub(crate) fn value_type(module: &tast::Module, m: &mut ir::Module, ty: TypeId) -> Option<ir::TypeId> {
    match module.types.get(ty) {
        Type::Scalar(k) => Some(scalar_type(&mut m.types, *k)),
        Type::Vector(k, n) => {
            let e = scalar_type(&mut m.types, *k);
            Some(m.types.vector(e, u32::from(*n)))
        }
        _ => None,
    }
}

/// Declares exported function `func` with its mangled name and its parameters' names.
fn declare_export(module: &tast::Module, m: &mut ir::Module, func: FuncId) -> R<ir::FuncId> {
    let (name, fty, names) = export_signature(module, m, func, "library function")?;
    Ok(m.add_function(ir::Function { name, ty: fty, linkage: ir::Linkage::External, attrs: None, arg_names: names, body: None }))
}

/// The external declaration of `func` (called, never defined here), made on first use.
fn declare_external(module: &tast::Module, m: &mut ir::Module, func: FuncId) -> R<ir::FuncId> {
    let (name, fty, _) = export_signature(module, m, func, "library function")?;
    Ok(m.declare_function(&name, fty, None))
}

/// The mangled name, IR function type and parameter names of a library or `[noinline]`
/// function (`kind` names which in a refusal).
#[allow(clippy::type_complexity)]
pub(crate) fn export_signature(module: &tast::Module, m: &mut ir::Module, func: FuncId, kind: &str) -> R<(String, ir::TypeId, Vec<Option<String>>)> {
    let f = module.func(func);
    let refuse = |what: String| unsupported(format!("the {kind} `{}` with {what}", f.name), Some(f.span));
    let ret = if module.types.is_void(f.ret) {
        m.types.void()
    } else {
        match value_type(module, m, f.ret) {
            Some(t) => t,
            None => return refuse(format!("a result of type `{}` (passed by pointer)", module.types.name(f.ret))),
        }
    };
    let mut params = Vec::new();
    let mut names = Vec::new();
    for &p in &f.params {
        let v = module.var(p);
        let by_pointer = !matches!(v.storage, Storage::Param(ParamDir::In));
        if by_pointer && module.types.component(v.ty) == Some(ScalarKind::Bool) {
            return refuse(format!("the `out`/`inout` bool parameter `{}` (an i32 in memory)", v.name));
        }
        match value_type(module, m, v.ty) {
            // `out` and `inout` scalars and vectors are pointers to the value.
            Some(t) if by_pointer => params.push(m.types.pointer(t, 0)),
            Some(t) => params.push(t),
            None => return refuse(format!("the parameter `{}` of type `{}` (passed by pointer)", v.name, module.types.name(v.ty))),
        }
        names.push(Some(v.name.clone()));
    }
    let Some(name) = mangle_function(module, f) else { return refuse("a type hlslc does not mangle".into()) };
    let fty = m.types.function(ret, params);
    Ok((name, fty, names))
}

/// Lowers exported (or, `kept`, `[noinline]`) function `func` into `id`: parameters from the
/// arguments (vectors split with `extractelement`), the body with calls inlined but those to
/// `[noinline]` functions, the result rebuilt as a vector. Returns the resources used so far
/// and the `[noinline]` functions declared on the way, still to be lowered.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn lower_export(
    module: &tast::Module,
    m: &mut ir::Module,
    func: FuncId,
    id: ir::FuncId,
    options: &LowerOptions,
    target: Target,
    res: ResState,
    kept: bool,
) -> R<(ResState, Vec<(FuncId, ir::FuncId)>)> {
    let (res, order, calls) = {
        let mut l = Lowerer::new(module, m, id, target, options, func);
        l.res = res;
        l.in_kept = kept;
        l.res.begin_function();
        l.lower_exported()?;
        (l.res.clone(), l.order.clone(), std::mem::take(&mut l.kept_calls))
    };
    super::cleanup::reorder_blocks(m, id, &order);
    super::cleanup::remove_dead_code(m, id, options.gvn);
    // dxc's function attributes: `nounwind`, with the memory the body touches (`readnone`
    // when it reads nothing, `readonly` when it writes nothing) and `[noinline]`.
    let mut attrs = vec![ir::Attr::NoUnwind];
    match memory_effect(m, id) {
        Memory::None => attrs.push(ir::Attr::ReadNone),
        Memory::Read => attrs.push(ir::Attr::ReadOnly),
        Memory::Write => {}
    }
    if module.func(func).attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("noinline")) {
        attrs.push(ir::Attr::NoInline);
    }
    let set = m.attr_set(attrs);
    m.function_mut(id).attrs = Some(set);
    Ok((res, calls))
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Memory {
    None,
    Read,
    Write,
}

/// What function `id` does to memory, from its loads, stores and the attributes of its callees.
fn memory_effect(m: &ir::Module, id: ir::FuncId) -> Memory {
    let Some(body) = &m.function(id).body else { return Memory::Write };
    let mut effect = Memory::None;
    for b in &body.blocks {
        for &i in &b.insts {
            let e = match &body.inst(i).kind {
                ir::InstKind::Load { .. } => Memory::Read,
                ir::InstKind::Store { .. } | ir::InstKind::AtomicRmw { .. } | ir::InstKind::CmpXchg { .. } => Memory::Write,
                ir::InstKind::Call { callee, .. } => {
                    let attrs = m.function(*callee).attrs.map(|a| m.attr_sets[a.0 as usize].clone()).unwrap_or_default();
                    if attrs.contains(&ir::Attr::ReadNone) {
                        Memory::None
                    } else if attrs.contains(&ir::Attr::ReadOnly) {
                        Memory::Read
                    } else {
                        Memory::Write
                    }
                }
                _ => Memory::None,
            };
            effect = effect.max(e);
        }
    }
    effect
}

impl Lowerer<'_> {
    /// A call to `func`, declared without a body in a library: a `call` of its external
    /// declaration (scalars and vectors by value).
    pub(crate) fn external_call(&mut self, func: FuncId, args: &[tast::ExprId], e: tast::ExprId) -> R<super::Flat> {
        let t = self.t;
        if let Some(&p) = t.func(func).params.iter().find(|&&p| !matches!(t.var(p).storage, Storage::Param(ParamDir::In))) {
            let what = format!("a call to `{}`, declared without a body, with the `out`/`inout` parameter `{}`", t.func(func).name, t.var(p).name);
            return unsupported(what, self.span(e));
        }
        let id = declare_external(t, self.b.module, func)?;
        let mut values = Vec::new();
        for (&p, &a) in t.func(func).params.iter().zip(args) {
            let flat = self.expr(a)?;
            let v = match t.types.get(t.var(p).ty) {
                Type::Vector(k, _) => self.build_vector(*k, &flat),
                _ => flat.first().copied().unwrap_or_else(|| self.undef_i32()),
            };
            values.push(v);
        }
        let r = self.b.call(id, values);
        Ok(match t.types.get(t.func(func).ret) {
            Type::Vector(_, n) => (0..*n)
                .map(|c| {
                    let idx = self.ci32(i32::from(c));
                    self.b.extract_element(r, idx)
                })
                .collect(),
            Type::Void => Vec::new(),
            _ => vec![r],
        })
    }

    /// `<n x k>` from its components, with an `insertelement` each.
    pub(crate) fn build_vector(&mut self, k: ScalarKind, comps: &[ir::Value]) -> ir::Value {
        let e = self.scalar_ir(k);
        let vty = self.b.module.types.vector(e, comps.len() as u32);
        let mut v = ir::Value::Const(self.b.module.undef(vty));
        for (c, x) in comps.iter().enumerate() {
            let idx = self.ci32(c as i32);
            v = self.b.insert_element(v, *x, idx);
        }
        v
    }

    /// The body of an exported function (see [`lower_export`]).
    fn lower_exported(&mut self) -> R<()> {
        let t = self.t;
        if !self.in_kept {
            self.init_statics()?;
        }
        let f = t.func(self.entry_func);
        for (i, &p) in f.params.iter().enumerate() {
            let mut arg = ir::Value::Arg(i as u32);
            match t.var(p).storage {
                Storage::Param(ParamDir::Out) => {
                    let vals = self.leaf_kinds(t.var(p).ty).into_iter().map(|k| self.undef_of(k)).collect();
                    self.vars.insert(p, vals);
                    continue;
                }
                Storage::Param(ParamDir::InOut) => arg = self.b.load(arg, 4),
                _ => {}
            }
            let vals = match t.types.get(t.var(p).ty) {
                Type::Vector(_, n) => (0..*n)
                    .map(|c| {
                        let idx = self.ci32(i32::from(c));
                        self.b.extract_element(arg, idx)
                    })
                    .collect(),
                _ => vec![arg],
            };
            self.vars.insert(p, vals);
        }
        let Some(body) = f.body else { return unsupported("a function without a body", Some(f.span)) };
        let ret_block = self.new_block();
        self.returns.push(ReturnCtx { block: ret_block, edges: Vec::new() });
        self.stmt(body)?;
        let n = self.flat_len(f.ret);
        let vals = self.finish_returns(f.ret, n)?;
        // `out` and `inout` parameters are written back through their pointers.
        for (i, &p) in f.params.iter().enumerate() {
            if matches!(t.var(p).storage, Storage::Param(ParamDir::In)) {
                continue;
            }
            let flat = self.vars.get(&p).cloned().unwrap_or_default();
            let v = match t.types.get(t.var(p).ty) {
                Type::Vector(k, _) => self.build_vector(*k, &flat),
                _ => match flat.first() {
                    Some(v) => *v,
                    None => continue,
                },
            };
            self.b.store(v, ir::Value::Arg(i as u32), 4);
        }
        let ret = match t.types.get(f.ret) {
            Type::Vector(k, _) => Some(self.build_vector(*k, &vals)),
            _ => vals.first().copied(),
        };
        self.b.ret(ret);
        Ok(())
    }
}

/// The name of a resource's external global: a `cbuffer` (or `$Globals`) keeps its name, a
/// resource variable has its Microsoft-mangled name (`\x01?name@@3<type>A`).
pub(crate) fn global_name(t: &tast::Module, r: &ResInfo) -> String {
    match (r.cbuffer, r.ty) {
        (None, Some(ty)) => match mangle_type(t, ty) {
            Some(m) => format!("\u{1}?{}@@3{m}A", r.name),
            None => r.name.clone(),
        },
        _ => r.name.clone(),
    }
}

/// A template's integer argument: `$0` and the number (`1`..`10` as one digit `n - 1`, others in
/// hex with the digits `A`..`P`, ended by `@`).
fn mangle_number(n: u64) -> String {
    if (1..=10).contains(&n) {
        return format!("$0{}", n - 1);
    }
    let mut digits = String::new();
    let mut v = n;
    while v > 0 {
        digits.insert(0, (b'A' + (v % 16) as u8) as char);
        v /= 16;
    }
    if digits.is_empty() {
        digits.push('A');
    }
    format!("$0{digits}@")
}

fn mangle_scalar(k: ScalarKind) -> &'static str {
    use ScalarKind::*;
    match k {
        Bool => "_N",
        Int | LitInt => "H",
        UInt => "I",
        Int64 => "_J",
        UInt64 => "_K",
        Int16 => "F",
        UInt16 => "G",
        Half => "$f16@",
        Float | LitFloat => "M",
        Double => "N",
        Min16Float => "$min16f@",
        Min10Float => "$min10f@",
        Min16Int => "$min16i@",
        Min12Int => "$min12i@",
        Min16UInt => "$min16ui@",
    }
}

/// Names already written in a mangled name (MSVC back-references: the tenth and later are
/// written in full).
type Names = Vec<String>;

/// A qualified class name `fragment` (`Foo@`, `?$vector@M$03@`) as a back-reference digit when it
/// was written before, else in full (and remembered).
fn name_ref(names: &mut Names, fragment: String) -> String {
    if let Some(i) = names.iter().position(|n| *n == fragment) {
        return i.to_string();
    }
    if names.len() < 10 {
        names.push(fragment.clone());
    }
    fragment
}

/// A class template instance `tag?$name@args@@`; the arguments have their own name table.
fn template(names: &mut Names, tag: char, name: &str, args: &str) -> String {
    format!("{tag}{}@", name_ref(names, format!("?${name}@{args}@")))
}

/// The Microsoft mangling of a type as clang writes it for dxc (`V?$vector@M$03@@` for
/// `float4`); `None` for types this back end does not name (arrays, enums, ...).
fn mangle_type_in(t: &tast::Module, ty: TypeId, names: &mut Names) -> Option<String> {
    Some(match t.types.get(ty) {
        Type::Scalar(k) => mangle_scalar(*k).to_string(),
        Type::Vector(k, n) => {
            let args = format!("{}{}", mangle_scalar(*k), mangle_number(u64::from(*n)));
            template(names, 'V', "vector", &args)
        }
        Type::Matrix { elem, rows, cols, .. } => {
            let args = format!("{}{}{}", mangle_scalar(*elem), mangle_number(u64::from(*rows)), mangle_number(u64::from(*cols)));
            template(names, 'V', "matrix", &args)
        }
        Type::Struct(s) => format!("U{}@", name_ref(names, format!("{}@", t.types.structs[s.0 as usize].name))),
        Type::Object { kind, elem, count } => {
            let tag = if matches!(
                kind,
                ObjectKind::ByteAddressBuffer
                    | ObjectKind::RWByteAddressBuffer
                    | ObjectKind::SamplerState
                    | ObjectKind::SamplerComparisonState
            ) {
                'U'
            } else {
                'V'
            };
            let mut args = String::new();
            let mut inner = Names::new();
            if let Some(e) = elem {
                args.push_str(&mangle_type_in(t, *e, &mut inner)?);
            }
            let multisampled = matches!(kind, ObjectKind::Texture2DMS | ObjectKind::Texture2DMSArray | ObjectKind::RWTexture2DMS | ObjectKind::RWTexture2DMSArray);
            if multisampled {
                args.push_str(&mangle_number(u64::from(count.unwrap_or(0))));
            }
            if args.is_empty() {
                format!("{tag}{}@", name_ref(names, format!("{}@", kind.name())))
            } else {
                template(names, tag, kind.name(), &args)
            }
        }
        _ => return None,
    })
}

fn mangle_type(t: &tast::Module, ty: TypeId) -> Option<String> {
    mangle_type_in(t, ty, &mut Names::new())
}

/// The mangled name of a free function, `\x01?name@@YA<return><parameters>Z` (cdecl): a
/// class returned by value is prefixed `?A`, no parameters is `X`, a parameter type written
/// before (longer than one letter) is its back-reference digit.
pub(crate) fn mangle_function(t: &tast::Module, f: &tast::Function) -> Option<String> {
    let mut names: Names = vec![format!("{}@", f.name)];
    let ret = if t.types.is_void(f.ret) {
        "X".to_string()
    } else {
        let r = mangle_type_in(t, f.ret, &mut names)?;
        if r.starts_with('V') || r.starts_with('U') {
            format!("?A{r}")
        } else {
            r
        }
    };
    let mut params = String::new();
    let mut seen: Vec<String> = Vec::new();
    for &p in &f.params {
        let mut enc = mangle_type_in(t, t.var(p).ty, &mut names)?;
        // An `out`/`inout` scalar or vector is a `__restrict` reference (`AIA`, as in dxc's
        // `?GlobalSet@@YAXAIAMM@Z` for `(inout float, float)`); structs are written as values.
        if !matches!(t.var(p).storage, Storage::Param(ParamDir::In)) && !enc.starts_with('U') {
            enc = format!("AIA{enc}");
        }
        if enc.len() > 1 {
            if let Some(i) = seen.iter().position(|s| *s == enc) {
                params.push_str(&i.to_string());
                continue;
            }
            if seen.len() < 10 {
                seen.push(enc.clone());
            }
        }
        params.push_str(&enc);
    }
    let params = if f.params.is_empty() { "X".to_string() } else { format!("{params}@") };
    Some(format!("\u{1}?{}@@YA{ret}{params}Z", f.name))
}

#[cfg(test)]
mod tests {
    use super::mangle_number;

    #[test]
    fn template_numbers_are_mangled_as_msvc_does() {
        // `vector<float, 4>` is `V?$vector@M$03@@`; 0 is `A@`, 16 is `BA@`.
        assert_eq!(mangle_number(4), "$03");
        assert_eq!(mangle_number(1), "$00");
        assert_eq!(mangle_number(10), "$09");
        assert_eq!(mangle_number(0), "$0A@");
        assert_eq!(mangle_number(16), "$0BA@");
    }
}
