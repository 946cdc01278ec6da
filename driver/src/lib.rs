//! hlslc: the library API behind the `hlslc` and `hlsl2spirv` commands.
//!
//! ```no_run
//! use hlslc::{compile, Options, Profile};
//! let options = Options { action: hlslc::Action::SyntaxOnly, ..Options::for_profile(Profile::parse("ps_6_0").unwrap()) };
//! let result = compile("float4 main() : SV_Target { return 1; }", "shader.hlsl", &options, None);
//! eprint!("{}", result.render_diagnostics());
//! assert!(result.succeeded());
//! ```
//!
//! Every call owns all of its state (source map, diagnostics, macro tables): there are no globals,
//! so `compile` may run on many threads at once.

pub mod cli;
mod codegen;
mod driver;
pub mod infer;
pub mod input;
pub mod options;
pub mod predefines;
pub mod profile;
pub mod timing;
pub mod verify;

pub use driver::{compile, compile_bytes};
pub use hlslc_frontend::diag::{Diagnostic, Severity};
pub use hlslc_frontend::pp::{IncludeHandler, IncludedFile};
pub use hlslc_frontend::source::SourceMap;
pub use hlslc_frontend::pp::LineMap;
pub use options::{Action, CmdDefine, Options, OutputKind};
pub use profile::{HlslVersion, Profile, ProfileKind, Stage};

/// A product of compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Text(String),
    Binary(Vec<u8>),
}

impl Output {
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
}

impl CompileResult {
    pub fn succeeded(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.is_error())
    }
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
