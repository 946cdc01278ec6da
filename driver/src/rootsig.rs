//! Root signatures in the driver: where the string comes from (`[RootSignature]` on the entry,
//! `-rootsig-define NAME`, or `-T rootsig_1_x -E NAME`), which version it is compiled for
//! (`-force-rootsig-ver`, default 1.1 as in dxc), the `root signature error - ...` diagnostics,
//! and dxc's validator check that the root signature binds every resource of the shader.
//! The language and the `RTS0` bytes are `hlslc_dxil::rootsig`'s.

use crate::options::Options;
use crate::profile::ProfileKind;
use hlslc_dxil::rootsig::{self, check, RootSignature, Version};
use hlslc_frontend::diag::{Diagnostic, Diagnostics};
use hlslc_frontend::lexer::{Tok, Token};
use hlslc_frontend::source::Span;

/// A root signature to compile: its text and where to report its errors.
pub(crate) struct Source {
    pub text: String,
    pub span: Option<Span>,
}

/// The text of a macro's expansion, as dxc reads a root signature macro: string literals
/// contribute their contents (adjacent ones concatenate), other tokens their spelling.
pub(crate) fn macro_text(tokens: &[Token]) -> String {
    let mut s = String::new();
    for t in tokens {
        if t.kind == Tok::Str {
            let inner = t.text.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(&t.text);
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            s.push(n);
                        }
                    }
                    c => s.push(c),
                }
            }
        } else {
            if t.leading_space && !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&t.text);
        }
    }
    s
}

/// The version root signatures are compiled for: the `rootsig_1_x` profile, else
/// `-force-rootsig-ver`, else 1.1.
pub(crate) fn version(options: &Options) -> Result<Version, Diagnostic> {
    if let Some(p) = options.profile.filter(|p| p.kind == ProfileKind::RootSignature) {
        return Version::from_profile(&p.to_string())
            .ok_or_else(|| Diagnostic::error(format!("root signature version {}.{} ({p}) is not supported (rootsig_1_0 and rootsig_1_1 are)", p.major, p.minor)));
    }
    match options.dxil_options.force_rootsig_ver.as_deref() {
        None => Ok(Version::V1_1),
        Some(v) => Version::from_profile(v)
            .ok_or_else(|| Diagnostic::error(format!("invalid value '{v}' for -force-rootsig-ver: expected rootsig_1_0 or rootsig_1_1"))),
    }
}

/// The error for a macro that is not defined (`-rootsig-define`, `-T rootsig_1_x -E NAME`).
pub(crate) fn undefined(name: &str) -> Diagnostic {
    Diagnostic::error(format!("root signature error - undeclared identifier {name}"))
}

/// Compiles `src`: the root signature and its `RTS0` bytes, or a `root signature error - ...`
/// diagnostic.
pub(crate) fn compile(src: &Source, options: &Options, diags: &mut Diagnostics) -> Option<(RootSignature, Vec<u8>)> {
    let version = match version(options) {
        Ok(v) => v,
        Err(d) => {
            diags.push(d);
            return None;
        }
    };
    match rootsig::compile(&src.text, version) {
        Ok(r) => Some(r),
        Err(message) => {
            let mut d = Diagnostic::error(format!("root signature error - {message}"));
            if let Some(span) = src.span {
                d = d.at(span);
            }
            diags.push(d);
            None
        }
    }
}

/// A DXContainer holding only the `RTS0` part: what `-T rootsig_1_x` and `-Frs` write (dxc's
/// root signature container).
pub(crate) fn container(rts0: &[u8]) -> Vec<u8> {
    hlslc_dxil::container::assemble(&[(*b"RTS0", rts0.to_vec())])
}

/// dxc's validator: a shader with a root signature must find each of its resources bound by
/// it, for its stage's visibility. Resources the code never creates a handle for do not count
/// (dxc removes them before validating).
pub(crate) fn check_shader(rs: &RootSignature, m: &hlslc_dxil::ir::Module, diags: &mut Diagnostics) {
    let Ok(info) = hlslc_dxil::container::info::module_info(m) else { return };
    let used = hlslc_dxil::container::usage::used_resources(m, &info);
    let bindings: Vec<check::Binding> = info
        .resources
        .iter()
        .zip(used)
        .filter(|(_, used)| *used)
        .map(|(r, _)| check::Binding {
            psv_type: hlslc_dxil::container::psv::resource_type(r.class, r.kind, r.has_counter),
            space: r.space,
            lb: r.lower_bound,
            ub: r.upper_bound(),
        })
        .collect();
    let vis = check::visibility_of_kind(info.kind as u32);
    if let Err(detail) = check::check_shader(rs, vis, &bindings) {
        diags.push(
            Diagnostic::error("validation errors")
                .with_note(format!("Root Signature in DXIL container is not compatible with shader: {detail}")),
        );
    }
}
