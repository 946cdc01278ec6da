#![warn(missing_docs)]
//! hlslc: the library API behind the `hlslc` and `hlsl2spirv` commands.
//!
//! ```
//! use hlslc::{compile, Options, Output, OutputKind, Profile};
//! // dxc -T ps_6_0 -spirv -Fo shader.spv shader.hlsl
//! let mut options = Options::for_profile(Profile::parse("ps_6_0").unwrap());
//! options.spirv = true;
//! options.output_kind = OutputKind::Binary;
//! let result = compile("float4 main() : SV_Target { return 1; }", "shader.hlsl", &options, None);
//! eprint!("{}", result.render_diagnostics());
//! assert!(result.succeeded());
//! let Some(Output::Binary(spirv)) = &result.output else { panic!("no code") };
//! assert_eq!(spirv[..4], 0x0723_0203u32.to_le_bytes()); // the SPIR-V magic number
//!
//! // A bad shader: no output, located diagnostics.
//! let bad = compile("float4 main() : SV_Target { return x; }", "bad.hlsl", &options, None);
//! assert!(!bad.succeeded() && bad.output.is_none());
//! assert!(bad.render_diagnostics().starts_with("bad.hlsl:1:36: error:"));
//! ```
//!
//! Every call owns all of its state (source map, diagnostics, macro tables): there are no globals,
//! so `compile` may run on many threads at once, and every public type is `Send + Sync`. A
//! [`Compiler`] keeps a session's caches (include files, results) across compiles and threads.
//! Command lines with dxc's spelling become [`Options`] through [`cli::parse_args`].

pub mod cli;
mod codegen;
mod compiler;
mod driver;
pub mod infer;
pub mod input;
pub mod options;
pub mod predefines;
pub mod profile;
mod rootsig;
pub mod timing;
pub mod verify;

pub use compiler::{CacheStats, Compiler};
pub use driver::{compile, compile_bytes};
pub use hlslc_frontend::diag::{Diagnostic, Severity};
pub use hlslc_frontend::pp::{IncludeHandler, IncludedFile};
pub use hlslc_frontend::source::SourceMap;
pub use hlslc_frontend::pp::LineMap;
pub use options::{Action, CmdDefine, Options, OutputKind};
pub use profile::{HlslVersion, Profile, ProfileKind, Stage};
pub use hlslc_reflect as reflect;
pub use hlslc_reflect::Reflection;

/// The SPIR-V `Generator` word hlslc writes: tool 0xFFFF (a value outside the range Khronos
/// registers, chosen for hlslc), version 1. `-fspv-generator=dxc` writes dxc's
/// ([`hlslc_spirv::builder::GENERATOR_SPIREGG`]: Google spiregg, 14 << 16) instead.
pub const SPIRV_GENERATOR: u32 = (0xFFFF << 16) | 1;

/// A product of compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// UTF-8 text: preprocessed source, an AST dump, SPIR-V or DXIL assembly.
    Text(String),
    /// Binary code: SPIR-V words (little-endian) or a DXIL container.
    Binary(Vec<u8>),
}

impl Output {
    /// The bytes of the output (text as UTF-8).
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Output::Text(t) => t.as_bytes(),
            Output::Binary(b) => b,
        }
    }
}

/// The result of [`compile`]. Invariant: `output` and `listing` are `None` when `diagnostics`
/// holds an error.
#[derive(Debug)]
pub struct CompileResult {
    /// What the action produces: preprocessed text, an AST dump, the code (text or binary).
    /// `None` for `-fsyntax-only` and `-verify`, and whenever compilation failed.
    pub output: Option<Output>,
    /// The assembly listing, when asked for alongside a binary ([`Options::listing`]).
    pub listing: Option<String>,
    /// All diagnostics in the order reported, after `-WX` / `-no-warnings` / `-Wno-...` were
    /// applied.
    pub diagnostics: Vec<Diagnostic>,
    /// The files the diagnostics point into.
    pub source_map: SourceMap,
    /// The `#line` directives of the source (empty with `-ignore-line-directives`): diagnostics
    /// print the locations they make.
    pub line_map: LineMap,
    /// Time spent in each phase (`-ftime-report`, the benchmarks).
    pub times: timing::PhaseTimes,
    /// What the compiled shader binds and exchanges, read from the final output (SPIR-V after
    /// the optimizer, or the lowered DXIL module's metadata); `None` when no code was generated.
    /// [`Reflection::to_json`] gives the JSON of `docs/reflection.md`.
    pub reflection: Option<Reflection>,
    /// The root signature compiled with a DXIL shader (or alone, `-T rootsig_1_x`), as a
    /// DXContainer holding only its `RTS0` part: what `-Frs` writes. `None` without one.
    pub root_signature: Option<Vec<u8>>,
}

/// The files a compilation read (the main file first, then each included file once, in the
/// order they were first included) as a make rule whose target is the main file, as dxc's `-M`
/// prints it: `main.hlsl: main.hlsl \` and one dependency per line.
pub fn dependency_rule(sm: &SourceMap) -> String {
    let mut files: Vec<&str> = Vec::new();
    for i in 0..sm.len() {
        let name = sm.file(hlslc_frontend::source::FileId(i as u32)).name.as_str();
        if !name.starts_with('<') && !files.contains(&name) {
            files.push(name);
        }
    }
    let Some(main) = files.first() else { return String::new() };
    let escape = |f: &str| f.replace(' ', "\\ ");
    let mut out = format!("{}: {0}", escape(main));
    for f in &files[1..] {
        out.push_str(&format!(" \\\n  {}", escape(f)));
    }
    out.push('\n');
    out
}

impl CompileResult {
    /// Whether no error was reported (warnings allowed).
    pub fn succeeded(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.is_error())
    }
    /// How many errors were reported.
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
    /// All diagnostics rendered as clang/dxc do.
    pub fn render_diagnostics(&self) -> String {
        self.diagnostics.iter().map(|d| d.render_with(&self.source_map, Some(&self.line_map))).collect()
    }
}

/// This compiler's version string.
pub fn version() -> String {
    let (a, b, c, d) = predefines::DXC_VERSION;
    format!("hlslc {} (compatible with dxc {a}.{b}.{c}.{d})", env!("CARGO_PKG_VERSION"))
}

/// Every public type is `Send + Sync`: results travel between the threads of a pool, a
/// [`Compiler`] is shared by them. Checked when the crate compiles (a type that loses either
/// trait fails the build here, naming it).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<CompileResult>();
    send_sync::<Compiler>();
    send_sync::<CacheStats>();
    send_sync::<Output>();
    send_sync::<Diagnostic>();
    send_sync::<Severity>();
    send_sync::<IncludedFile>();
    send_sync::<SourceMap>();
    send_sync::<LineMap>();
    send_sync::<Options>();
    send_sync::<Action>();
    send_sync::<OutputKind>();
    send_sync::<CmdDefine>();
    send_sync::<options::MatrixPacking>();
    send_sync::<options::Denorm>();
    send_sync::<options::TargetEnv>();
    send_sync::<options::RegisterClass>();
    send_sync::<options::BindingShift>();
    send_sync::<options::BindRegister>();
    send_sync::<options::Binding>();
    send_sync::<options::LayoutRule>();
    send_sync::<options::SpirvOptions>();
    send_sync::<options::DxilOptions>();
    send_sync::<Profile>();
    send_sync::<ProfileKind>();
    send_sync::<HlslVersion>();
    send_sync::<Stage>();
    send_sync::<timing::Phase>();
    send_sync::<timing::PhaseTimes>();
    send_sync::<input::Decoded>();
    send_sync::<cli::Tool>();
    send_sync::<cli::CliError>();
    send_sync::<cli::CliErrorKind>();
    send_sync::<cli::OutputFiles>();
    send_sync::<cli::Invocation>();
    send_sync::<cli::normalize::Arg>();
    send_sync::<cli::table::Kind>();
    send_sync::<cli::table::Group>();
    send_sync::<cli::table::OptSpec>();
    send_sync::<cli::status::Status>();
};
