//! Clap matches to an [`Invocation`]: typed options, value checks, and everything else kept
//! verbatim in [`Options::other`].

use super::table::{Kind, OptSpec};
use super::{CliError, CliErrorKind, Invocation, Tool};
use crate::options::*;
use crate::profile::{HlslVersion, Profile};
use super::matches::Matches;
use hlslc_frontend::fxhash::FxSet as HashSet;
use std::path::PathBuf;

struct Reader<'a> {
    m: &'a Matches,
    used: HashSet<String>,
}

impl<'a> Reader<'a> {
    fn flag(&mut self, id: &str) -> bool {
        self.used.insert(id.to_string());
        self.m.present(id)
    }
    fn all(&mut self, id: &str) -> Vec<String> {
        self.used.insert(id.to_string());
        self.m.values(id)
    }
    fn last(&mut self, id: &str) -> Option<String> {
        self.all(id).pop()
    }
    fn groups(&mut self, id: &str, n: usize) -> Vec<Vec<String>> {
        self.all(id).chunks(n).map(|c| c.to_vec()).collect()
    }
    /// Position of the last occurrence, for "the last of these wins".
    fn pos(&self, id: &str) -> Option<usize> {
        self.m.last_position(id)
    }
    /// The id among `ids` given last, if any.
    fn last_of<'b>(&mut self, ids: &[&'b str]) -> Option<&'b str> {
        let mut best: Option<(usize, &'b str)> = None;
        for &id in ids {
            if self.flag(id) {
                let p = self.pos(id).unwrap_or(0);
                if best.is_none_or(|(bp, _)| p >= bp) {
                    best = Some((p, id));
                }
            }
        }
        best.map(|(_, id)| id)
    }
}

fn invalid(message: String) -> CliError {
    CliError::new(CliErrorKind::InvalidValue, message)
}

fn number(option: &str, v: &str) -> Result<u32, CliError> {
    let v = v.trim();
    let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    };
    parsed.ok_or_else(|| invalid(format!("invalid value '{v}' for '-{option}': expected a non-negative integer")))
}

fn binding(option: &str, v: &[String]) -> Result<Binding, CliError> {
    Ok(Binding { binding: number(option, &v[0])?, set: number(option, &v[1])? })
}

pub(super) fn invocation(tool: Tool, m: &Matches) -> Result<Invocation, CliError> {
    let mut r = Reader { m, used: HashSet::default() };
    let mut inv = Invocation::default();
    let o = &mut inv.options;
    inv.help = r.flag("help");
    inv.version = r.flag("version");
    inv.inputs = r.all("inputs");

    if let Some(t) = r.last("T") {
        o.profile = Some(Profile::parse(&t).ok_or_else(|| invalid(format!("unknown or unsupported target profile '{t}'")))?);
    }
    if let Some(e) = r.last("E") {
        o.entry = e;
    }
    for d in r.all("D") {
        let (name, value) = match d.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (d.clone(), None),
        };
        if name.is_empty() {
            return Err(invalid(format!("macro name missing in '-D {d}'")));
        }
        o.defines.push(CmdDefine::Define { name, value });
    }
    o.include_dirs = r.all("I").into_iter().map(PathBuf::from).collect();
    if let Some(v) = r.last("HV") {
        o.hlsl_version = HlslVersion::parse(&v)
            .ok_or_else(|| invalid(format!("unknown HLSL version '{v}': expected 2016, 2017, 2018, 2021 or 202x")))?;
    }
    o.enable_16bit_types = r.flag("enable-16bit-types");
    o.spirv = r.flag("spirv") | (tool == Tool::Hlsl2spirv);

    // Action: the first of these that is present decides.
    let (p, deps, dump_implicit, dump) = (r.flag("P"), r.flag("M"), r.flag("ast-dump-implicit"), r.flag("ast-dump"));
    let (verify, syntax_only, dump_parse) = (r.flag("verify"), r.flag("fsyntax-only"), r.flag("ast-dump-parse"));
    o.action = if p {
        Action::Preprocess
    } else if deps {
        Action::Dependencies
    } else if dump_implicit {
        Action::AstDump { implicit: true }
    } else if dump {
        Action::AstDump { implicit: false }
    } else if dump_parse {
        Action::ParseDump
    } else if verify {
        Action::Verify
    } else if syntax_only {
        Action::SyntaxOnly
    } else {
        Action::Compile
    };

    // Output files.
    let f = &mut inv.outputs;
    f.object = r.last("Fo").map(PathBuf::from);
    if tool == Tool::Hlsl2spirv {
        if let Some(out) = r.last("o") {
            f.object = Some(PathBuf::from(out));
        }
    }
    f.listing = r.last("Fc").map(PathBuf::from);
    f.preprocessed = r.last("Fi").map(PathBuf::from);
    f.header = r.last("Fh").map(PathBuf::from);
    f.errors = r.last("Fe").map(PathBuf::from);
    f.debug = r.last("Fd").map(PathBuf::from);
    f.reflection = r.last("Fre").map(PathBuf::from);
    f.reflection_json = r.last("reflect-json").map(PathBuf::from);
    f.root_signature = r.last("Frs").map(PathBuf::from);
    f.hash = r.last("Fsh").map(PathBuf::from);
    f.dependencies = match (r.last("MF"), r.flag("MD")) {
        (Some(path), _) => Some(PathBuf::from(path)),
        // As dxc: beside the input, with its extension replaced by `.d`.
        (None, true) => inv.inputs.first().filter(|i| i.as_str() != "-").map(|i| PathBuf::from(i).with_extension("d")),
        _ => None,
    };
    // Reflection is read back from the output only when a file asks for it.
    o.reflect = f.reflection_json.is_some() || (f.reflection.is_some() && o.spirv);
    inv.header_variable = r.last("Vn");
    inv.time_report = r.flag("ftime-report");
    // The shader hash (-Fsh) and the reflection part (-Fre) come out of the container (with
    // -spirv, -Fre writes the reflection JSON, which needs no binary).
    if f.object.is_some() || f.header.is_some() || f.hash.is_some() || (f.reflection.is_some() && !o.spirv) {
        o.output_kind = OutputKind::Binary;
        o.listing = f.listing.is_some();
    }

    // Optimization and code shape.
    if let Some(level) = r.last_of(&["O0", "O1", "O2", "O3"]) {
        o.opt_level = level[1..].parse().unwrap_or(3);
    }
    o.disable_optimizations = r.flag("Od");
    o.high_level_only = r.flag("fcgl");
    o.debug_info = r.flag("Zi");
    o.matrix_packing = match r.last_of(&["Zpr", "Zpc"]) {
        Some("Zpr") => Some(MatrixPacking::RowMajor),
        Some(_) => Some(MatrixPacking::ColumnMajor),
        None => None,
    };
    o.warnings_as_errors = r.flag("WX");
    o.no_warnings = r.flag("no-warnings") | r.flag("w");
    o.warning_options = r.all("W");
    o.disable_validation = r.flag("Vd");
    o.backward_compat = r.flag("Gec");
    o.strict_mode = r.flag("Ges");
    o.ieee_strict = r.flag("Gis");
    o.finite_math_only = r.last_of(&["ffinite-math-only", "fno-finite-math-only"]) == Some("ffinite-math-only");
    o.flegacy_macro_expansion = r.flag("flegacy-macro-expansion");
    o.ignore_line_directives = r.flag("ignore-line-directives");

    read_spirv(&mut r, &mut o.spirv_options)?;
    read_dxil(&mut r, &mut o.dxil_options)?;

    for spec in tool.tables().iter().flat_map(|t| t.iter()).filter(|s| m.given(s)) {
        if m.present(&spec.id()) {
            inv.present.push(super::status::status_key(spec));
        }
    }

    // Everything else, verbatim and in command-line order.
    let mut other: Vec<(usize, String, Vec<String>)> = Vec::new();
    for spec in tool.tables().iter().flat_map(|t| t.iter()).filter(|s| m.given(s)) {
        let id = spec.id();
        if r.used.contains(&id) {
            continue;
        }
        collect_other(m, spec, &id, &mut other);
    }
    other.sort_by_key(|(i, _, _)| *i);
    inv.options.other = other.into_iter().map(|(_, n, v)| (n, v)).collect();
    // Refused before compiling, so that no output file is written: -Fsh names a DXIL container
    // part. (-Fre with -spirv writes the reflection JSON, where dxc refuses it.)
    if inv.options.spirv && inv.outputs.hash.is_some() {
        return Err(CliError::new(CliErrorKind::Usage, "'-Fsh' applies to DXIL containers; it cannot be used with -spirv"));
    }
    // dxc's refusals of DXIL-only switches with -spirv: -Gec (its HLSL 2016 rules are DXIL's)
    // and -Qstrip_reflect (SPIR-V has no container to strip).
    if inv.options.spirv && inv.options.backward_compat {
        return Err(CliError::new(CliErrorKind::Usage, "-Gec is not supported with -spirv"));
    }
    if inv.options.spirv && inv.options.dxil_options.strip_reflection {
        return Err(CliError::new(CliErrorKind::Usage, "-Qstrip_reflect is not supported with -spirv"));
    }
    Ok(inv)
}

fn collect_other(m: &Matches, spec: &OptSpec, id: &str, other: &mut Vec<(usize, String, Vec<String>)>) {
    let name = spec.name.to_string();
    if spec.kind == Kind::Flag {
        if let Some((pos, _)) = m.occurrences(id).first() {
            other.push((*pos, name, Vec::new()));
        }
        return;
    }
    for (pos, values) in m.occurrences(id) {
        other.push((*pos, name.clone(), values.clone()));
    }
}

fn read_spirv(r: &mut Reader, s: &mut SpirvOptions) -> Result<(), CliError> {
    if let Some(env) = r.last("fspv-target-env") {
        s.target_env =
            TargetEnv::parse(&env).ok_or_else(|| invalid(format!("unknown SPIR-V target environment '{env}'")))?;
    }
    s.extensions = r.all("fspv-extension");
    s.debug = r.all("fspv-debug");
    for v in &s.debug {
        match v.as_str() {
            "file" | "source" | "line" | "tool" | "rich" | "rich-with-source" | "vulkan" | "vulkan-with-source"
            | "vulkan-with-source-test" => {}
            _ => return Err(invalid(format!("unknown SPIR-V debug info control parameter: {v}"))),
        }
    }
    s.reflect = r.flag("fspv-reflect");
    if let Some(g) = r.last("fspv-generator") {
        s.dxc_generator = match g.as_str() {
            "dxc" => true,
            "hlslc" => false,
            _ => return Err(invalid(format!("unknown SPIR-V generator '{g}' (expected hlslc or dxc)"))),
        };
    }
    s.flatten_resource_arrays = r.flag("fspv-flatten-resource-arrays");
    s.entrypoint_name = r.last("fspv-entrypoint-name");
    s.use_vulkan_memory_model = r.flag("fspv-use-vulkan-memory-model");
    s.use_legacy_buffer_matrix_order = r.flag("fspv-use-legacy-buffer-matrix-order");
    s.use_unknown_image_format = r.flag("fspv-use-unknown-image-format");
    s.use_descriptor_heap = r.flag("fspv-use-descriptor-heap");
    s.preserve_bindings = r.flag("fspv-preserve-bindings");
    s.preserve_interface = r.flag("fspv-preserve-interface");
    s.reduce_load_size = r.flag("fspv-reduce-load-size");
    s.fix_func_call_arguments = r.flag("fspv-fix-func-call-arguments");
    s.enable_maximal_reconvergence = r.flag("fspv-enable-maximal-reconvergence");
    s.print_all = r.flag("fspv-print-all");
    s.max_id = r.last("fspv-max-id").map(|v| number("fspv-max-id", &v)).transpose()?;
    if let Some(order) = r.last("fvk-stage-io-order") {
        s.stage_io_order_alpha = match order.as_str() {
            "alpha" => true,
            "decl" => false,
            _ => return Err(invalid(format!("unknown Vulkan stage I/O location assignment order '{order}'"))),
        };
    }
    for (id, class) in
        [("fvk-b-shift", RegisterClass::B), ("fvk-t-shift", RegisterClass::T), ("fvk-s-shift", RegisterClass::S), ("fvk-u-shift", RegisterClass::U)]
    {
        for g in r.groups(id, 2) {
            let shift = number(id, &g[0])?;
            let space = if g[1] == "all" { None } else { Some(number(id, &g[1])?) };
            s.binding_shifts.push(BindingShift { class, shift, space });
        }
    }
    s.auto_shift_bindings = r.flag("fvk-auto-shift-bindings");
    for id in ["fvk-bind-register", "vkbr"] {
        for g in r.groups(id, 4) {
            let reg = &g[0];
            let ok = reg.len() > 1 && matches!(reg.as_bytes()[0], b'b' | b't' | b's' | b'u') && reg[1..].parse::<u32>().is_ok();
            if !ok {
                return Err(invalid(format!("invalid register '{reg}' for '-{id}': expected b<n>, t<n>, s<n> or u<n>")));
            }
            s.bind_registers.push(BindRegister {
                register: reg.clone(),
                space: number(id, &g[1])?,
                binding: number(id, &g[2])?,
                set: number(id, &g[3])?,
            });
        }
    }
    s.bind_globals = r.groups("fvk-bind-globals", 2).last().map(|g| binding("fvk-bind-globals", g)).transpose()?;
    s.resource_heap = r.groups("fvk-bind-resource-heap", 2).last().map(|g| binding("fvk-bind-resource-heap", g)).transpose()?;
    s.sampler_heap = r.groups("fvk-bind-sampler-heap", 2).last().map(|g| binding("fvk-bind-sampler-heap", g)).transpose()?;
    s.counter_heap = r.groups("fvk-bind-counter-heap", 2).last().map(|g| binding("fvk-bind-counter-heap", g)).transpose()?;
    s.invert_y = r.flag("fvk-invert-y");
    s.use_dx_position_w = r.flag("fvk-use-dx-position-w");
    s.layout = match r.last_of(&["fvk-use-gl-layout", "fvk-use-dx-layout", "fvk-use-scalar-layout"]) {
        Some("fvk-use-gl-layout") => LayoutRule::Gl,
        Some("fvk-use-dx-layout") => LayoutRule::Dx,
        Some(_) => LayoutRule::Scalar,
        None => LayoutRule::Default,
    };
    s.support_nonzero_base_instance = r.flag("fvk-support-nonzero-base-instance");
    s.support_nonzero_base_vertex = r.flag("fvk-support-nonzero-base-vertex");
    s.allow_rwstructuredbuffer_arrays = r.flag("fvk-allow-rwstructuredbuffer-arrays");
    // dxc's rules: one -Oconfig, and no optimization level beside it (the passes it lists
    // replace the level's recipe; -Od and -fcgl, which run none, conflict with it as well).
    let configs = r.all("Oconfig");
    if configs.len() > 1 {
        return Err(CliError::new(CliErrorKind::Usage, "-Oconfig should not be specified more than once"));
    }
    if !configs.is_empty() {
        if ["O0", "O1", "O2", "O3"].into_iter().any(|o| r.m.present(o)) {
            return Err(CliError::new(CliErrorKind::Usage, "-Oconfig should not be used together with -O"));
        }
        if let Some(other) = ["Od", "fcgl"].into_iter().find(|o| r.m.present(o)) {
            return Err(CliError::new(CliErrorKind::Usage, format!("-Oconfig should not be used together with -{other}")));
        }
    }
    s.optimizer_config = configs.iter().flat_map(|v| v.split(',')).filter(|p| !p.is_empty()).map(str::to_string).collect();
    Ok(())
}

fn read_dxil(r: &mut Reader, d: &mut DxilOptions) -> Result<(), CliError> {
    if let Some(v) = r.last("validator-version") {
        let parsed = v.split_once('.').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
        d.validator_version =
            Some(parsed.ok_or_else(|| invalid(format!("invalid validator version '{v}': expected <major.minor>")))?);
    }
    if let Some(v) = r.last("default-linkage") {
        d.default_linkage_external = Some(match v.as_str() {
            "external" => true,
            "internal" => false,
            _ => return Err(invalid(format!("invalid value '{v}' for -default-linkage: expected internal or external"))),
        });
    }
    d.exports = r.all("exports");
    d.export_shaders_only = r.flag("export-shaders-only");
    d.auto_binding_space = r.last("auto-binding-space").map(|v| number("auto-binding-space", &v)).transpose()?;
    d.rootsig_define = r.last("rootsig-define");
    d.binding_table_define = r.last("binding-table-define");
    let (a, b) = (r.last("force-rootsig-ver"), r.last("force_rootsig_ver"));
    d.force_rootsig_ver = a.or(b);
    if let Some(v) = r.last("denorm") {
        d.denorm = match v.as_str() {
            "any" => Denorm::Any,
            "preserve" => Denorm::Preserve,
            "ftz" => Denorm::Ftz,
            _ => return Err(invalid(format!("Unsupported value '{v}' for denorm option."))),
        };
    }
    d.enable_payload_qualifiers = r.last_of(&["enable-payload-qualifiers", "disable-payload-qualifiers"]).map(|id| id.starts_with("enable"));
    d.enable_lifetime_markers = r.last_of(&["enable-lifetime-markers", "disable-lifetime-markers"]).map(|id| id.starts_with("enable"));
    d.all_resources_bound = r.flag("all-resources-bound") | r.flag("all_resources_bound");
    d.res_may_alias = r.flag("res-may-alias") | r.flag("res_may_alias");
    d.pack_optimized = r.flag("pack-optimized") | r.flag("pack_optimized");
    d.legacy_resource_reservation = r.flag("flegacy-resource-reservation");
    d.no_legacy_cbuf_layout = r.flag("no-legacy-cbuf-layout") | r.flag("not_use_legacy_cbuf_load");
    d.strip_reflection = r.flag("Qstrip_reflect");
    d.strip_debug = r.flag("Qstrip_debug");
    d.embed_debug = r.flag("Qembed_debug");
    d.strip_private = r.flag("Qstrip_priv");
    d.strip_root_signature = r.flag("Qstrip_rootsignature");
    d.opt_enable = r.all("opt-enable");
    d.opt_disable = r.all("opt-disable");
    d.precise_outputs = r.all("precise-output");
    Ok(())
}
