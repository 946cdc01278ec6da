//! The C API of hlslc: compile HLSL to SPIR-V or DXIL from C, C++ or any language with a C FFI.
//!
//! The header is `include/hlslc.h` (written by hand; this file and the header must agree, and
//! the C test program in `testsuite/capi/test.c` checks them together). The library is built as
//! `libhlslc_capi.so` / `.dylib` / `hlslc_capi.dll` and as a static library.
//!
//! Rules every function keeps:
//! - no panic crosses the boundary: each call runs under `catch_unwind`, and a panic becomes
//!   [`HLSLC_INTERNAL_ERROR`] with the panic message in the diagnostics;
//! - null pointers are refused with [`HLSLC_INVALID_ARGUMENT`], never dereferenced;
//! - compilation runs on a thread with a large stack (deeply nested but legal input must not
//!   overflow the caller's stack); the calling thread waits, and the include callback is called
//!   from that compiler thread.
//!
//! Arguments are dxc's (`-T ps_6_0 -E main -spirv -D X=1 -I dir -O3 ...`), parsed by the same
//! code as the `hlslc` command; options that name output files (`-Fo`, `-Fc`, `-Fh`, `-Fe`,
//! `-Fre`, ...) are refused, because the outputs come back in the result. Code generation always
//! returns the binary (SPIR-V words or the DXIL container).

use hlslc::cli::{parse_args, Invocation, Tool};
use hlslc::{Action, CompileResult, Compiler, IncludeHandler, IncludedFile, Output, OutputKind};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Success: the result holds the output.
pub const HLSLC_OK: c_int = 0;
/// The shader did not compile: the result's diagnostics say why.
pub const HLSLC_COMPILE_ERROR: c_int = 1;
/// A bad argument: a null pointer, text that is not UTF-8, or a dxc argument hlslc refuses.
pub const HLSLC_INVALID_ARGUMENT: c_int = 2;
/// A bug in hlslc (a panic, caught): the diagnostics hold its message.
pub const HLSLC_INTERNAL_ERROR: c_int = 3;
/// The result has no such product (reflection JSON: see [`hlslc_result_reflection_json`]).
pub const HLSLC_UNAVAILABLE: c_int = 4;

/// Stack of the compiler thread, as the `hlslc` command uses.
const STACK_SIZE: usize = 256 << 20;

/// The include callback (`hlslc_include_fn` in the header): asked for `name` (as written in
/// `#include`), included from `includer` (a display name), `angled` nonzero for `<name>`. It
/// returns nonzero and sets `*text`/`*len` when it has the file, zero when it has not (the
/// compile then reports "file not found"). hlslc copies the text before it calls the callback
/// again or returns, so the text may live in a buffer the callback reuses.
pub type HlslcIncludeFn = Option<
    unsafe extern "C" fn(user: *mut c_void, name: *const c_char, includer: *const c_char, angled: c_int, text: *mut *const c_char, len: *mut usize) -> c_int,
>;

/// A finished compilation (`hlslc_result` in the header). Owned by the caller, freed with
/// [`hlslc_result_free`].
pub struct HlslcResult {
    status: c_int,
    output: Vec<u8>,
    diagnostics: CString,
    reflection: Option<CString>,
}

/// A compilation session (`hlslc_compiler`): caches include files and results across compiles
/// (see `hlslc::Compiler`). Safe to share between threads.
pub struct HlslcCompiler {
    inner: Compiler,
}

impl HlslcResult {
    fn failed(status: c_int, message: &str) -> HlslcResult {
        HlslcResult { status, output: Vec::new(), diagnostics: c_text(message), reflection: None }
    }
}

/// Text as a C string; interior NUL bytes (possible in diagnostics quoting bad input) become
/// U+FFFD so that nothing after them is lost.
fn c_text(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

/// The C include callback as an [`IncludeHandler`].
struct CInclude {
    callback: unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, c_int, *mut *const c_char, *mut usize) -> c_int,
    user: *mut c_void,
}

// SAFETY: the callback and `user` are used only by the one compiler thread while the caller's
// thread waits in `hlslc_compile`; the header documents that the callback runs on another thread.
unsafe impl Send for CInclude {}

impl IncludeHandler for CInclude {
    fn include(&mut self, name: &str, includer: &str, angled: bool) -> Option<IncludedFile> {
        let c_name = CString::new(name).ok()?;
        let c_includer = CString::new(includer).ok()?;
        let mut text: *const c_char = std::ptr::null();
        let mut len: usize = 0;
        // SAFETY: the caller promised a valid callback; the pointers passed live for the call.
        let found = unsafe { (self.callback)(self.user, c_name.as_ptr(), c_includer.as_ptr(), c_int::from(angled), &mut text, &mut len) };
        if found == 0 || (text.is_null() && len > 0) {
            return None;
        }
        let bytes: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: the callback returned `len` readable bytes at `text`.
            unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) }
        };
        let text = hlslc::input::decode(bytes.to_vec()).text;
        Some(IncludedFile { name: name.to_owned(), text })
    }
}

/// Reads `nargs` C strings.
///
/// # Safety
/// `args` points to `nargs` valid NUL-terminated strings (or `nargs` is 0).
unsafe fn read_args(args: *const *const c_char, nargs: usize) -> Result<Vec<String>, String> {
    if nargs == 0 {
        return Ok(Vec::new());
    }
    if args.is_null() {
        return Err("args is NULL but nargs is not 0".into());
    }
    let mut out = Vec::with_capacity(nargs);
    for i in 0..nargs {
        let p = *args.add(i);
        if p.is_null() {
            return Err(format!("argument {i} is NULL"));
        }
        match CStr::from_ptr(p).to_str() {
            Ok(s) => out.push(s.to_owned()),
            Err(_) => return Err(format!("argument {i} is not valid UTF-8")),
        }
    }
    Ok(out)
}

/// The library options from dxc arguments; refuses what the C API cannot honour.
fn invocation(args: &[String]) -> Result<Invocation, String> {
    let mut inv = parse_args(Tool::Hlslc, args).map_err(|e| e.message)?;
    // The result carries the reflection JSON (`hlslc_result_reflection_json`); the command line
    // computes it only for -Fre/-reflect-json, which name files the C API does not write.
    inv.options.reflect = true;
    if let Some(e) = hlslc::cli::status::refusal(&inv) {
        return Err(e.message);
    }
    if let Some(input) = inv.inputs.first() {
        return Err(format!("input file '{input}' on the command line: hlslc_compile takes the source text itself"));
    }
    let o = &inv.outputs;
    let files = [
        ("-Fo", o.object.is_some()),
        ("-Fc", o.listing.is_some()),
        ("-Fi", o.preprocessed.is_some()),
        ("-Fh", o.header.is_some()),
        ("-Fe", o.errors.is_some()),
        ("-Fd", o.debug.is_some()),
        ("-Fre", o.reflection.is_some()),
        ("-reflect-json", o.reflection_json.is_some()),
        ("-Frs", o.root_signature.is_some()),
        ("-Fsh", o.hash.is_some()),
        ("-Vn", inv.header_variable.is_some()),
    ];
    if let Some((name, _)) = files.iter().find(|(_, given)| *given) {
        return Err(format!("option {name} is not supported by the C API: outputs are returned in the result, not written to files"));
    }
    if inv.time_report {
        return Err("option -ftime-report is not supported by the C API: it prints to standard error".into());
    }
    if inv.options.other.iter().any(|(n, _)| n == "dumpbin") {
        return Err("option -dumpbin is not supported by the C API: it reads a container file".into());
    }
    Ok(inv)
}

/// Everything `hlslc_compile` does once the pointers are read.
fn compile(compiler: Option<&Compiler>, source: Vec<u8>, file: &str, args: &[String], include: Option<CInclude>) -> HlslcResult {
    let inv = match invocation(args) {
        Ok(inv) => inv,
        Err(message) => return HlslcResult::failed(HLSLC_INVALID_ARGUMENT, &format!("hlslc: error: {message}\n")),
    };
    if inv.help {
        let text = hlslc::cli::help_text(Tool::Hlslc);
        return HlslcResult { status: HLSLC_OK, output: text.into_bytes(), diagnostics: CString::default(), reflection: None };
    }
    if inv.version {
        let text = format!("{}\n", hlslc::version());
        return HlslcResult { status: HLSLC_OK, output: text.into_bytes(), diagnostics: CString::default(), reflection: None };
    }
    let mut options = inv.options;
    if options.action == Action::Compile {
        options.output_kind = OutputKind::Binary;
    }
    let file = file.to_owned();
    let run = move || -> Arc<CompileResult> {
        let mut include = include;
        let handler = include.as_mut().map(|h| h as &mut dyn IncludeHandler);
        let decoded = hlslc::input::decode(source);
        match compiler {
            Some(c) if decoded.error_count == 0 => c.compile(&decoded.text, &file, &options, handler),
            _ if decoded.error_count == 0 => Arc::new(hlslc::compile(&decoded.text, &file, &options, handler)),
            // Invalid bytes: compile_bytes reports them with their place.
            _ => Arc::new(hlslc::compile_bytes(decoded.text.into_bytes(), &file, &options, handler)),
        }
    };
    let joined = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, run)
            .map(|h| h.join())
    });
    let result = match joined {
        Ok(Ok(r)) => r,
        Ok(Err(panic)) => return HlslcResult::failed(HLSLC_INTERNAL_ERROR, &panic_message(&*panic)),
        Err(e) => return HlslcResult::failed(HLSLC_INTERNAL_ERROR, &format!("hlslc: error: cannot start the compiler thread: {e}\n")),
    };
    let status = if result.succeeded() { HLSLC_OK } else { HLSLC_COMPILE_ERROR };
    let output = match &result.output {
        Some(Output::Binary(b)) => b.clone(),
        Some(Output::Text(t)) => t.clone().into_bytes(),
        None => Vec::new(),
    };
    let reflection = result.reflection.as_ref().map(|r| c_text(&r.to_json()));
    HlslcResult { status, output, diagnostics: c_text(&result.render_diagnostics()), reflection }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("hlslc: internal error (please report it): {what}\n")
}

/// Compiles `len` bytes of HLSL at `source` (UTF-8, or UTF-16 with a byte-order mark), named
/// `file` in diagnostics (NULL: `"<input>"`), with dxc arguments `args[0..nargs]`, asking
/// `include` (may be NULL) for `#include`d files the file system search does not find. Stores a
/// new result in `*out` (to be freed with [`hlslc_result_free`]) whenever `out` is not NULL, and
/// returns its status.
///
/// # Safety
/// Pointers must be valid as the header describes: `source` readable for `len` bytes, `file` and
/// every `args[i]` NUL-terminated, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn hlslc_compile(
    source: *const c_char,
    len: usize,
    file: *const c_char,
    args: *const *const c_char,
    nargs: usize,
    include: HlslcIncludeFn,
    user: *mut c_void,
    out: *mut *mut HlslcResult,
) -> c_int {
    hlslc_compiler_compile(std::ptr::null(), source, len, file, args, nargs, include, user, out)
}

/// [`hlslc_compile`] through a session (`compiler` may be NULL: no session).
///
/// # Safety
/// As [`hlslc_compile`]; `compiler` is NULL or from [`hlslc_compiler_new`] and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn hlslc_compiler_compile(
    compiler: *const HlslcCompiler,
    source: *const c_char,
    len: usize,
    file: *const c_char,
    args: *const *const c_char,
    nargs: usize,
    include: HlslcIncludeFn,
    user: *mut c_void,
    out: *mut *mut HlslcResult,
) -> c_int {
    if out.is_null() {
        return HLSLC_INVALID_ARGUMENT;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        if source.is_null() && len > 0 {
            return HlslcResult::failed(HLSLC_INVALID_ARGUMENT, "hlslc: error: source is NULL\n");
        }
        let bytes = if len == 0 { Vec::new() } else { std::slice::from_raw_parts(source.cast::<u8>(), len).to_vec() };
        let file = if file.is_null() {
            "<input>".to_owned()
        } else {
            match CStr::from_ptr(file).to_str() {
                Ok(s) => s.to_owned(),
                Err(_) => return HlslcResult::failed(HLSLC_INVALID_ARGUMENT, "hlslc: error: file name is not valid UTF-8\n"),
            }
        };
        let args = match read_args(args, nargs) {
            Ok(a) => a,
            Err(e) => return HlslcResult::failed(HLSLC_INVALID_ARGUMENT, &format!("hlslc: error: {e}\n")),
        };
        let include = include.map(|callback| CInclude { callback, user });
        let compiler = compiler.as_ref().map(|c| &c.inner);
        compile(compiler, bytes, &file, &args, include)
    }))
    .unwrap_or_else(|panic| HlslcResult::failed(HLSLC_INTERNAL_ERROR, &panic_message(&*panic)));
    let status = result.status;
    *out = Box::into_raw(Box::new(result));
    status
}

/// The status of a result: one of the `HLSLC_*` codes ([`HLSLC_OK`] when it compiled).
///
/// # Safety
/// `result` is NULL or a live result.
#[no_mangle]
pub unsafe extern "C" fn hlslc_result_status(result: *const HlslcResult) -> c_int {
    result.as_ref().map_or(HLSLC_INVALID_ARGUMENT, |r| r.status)
}

/// The output: the SPIR-V words or DXIL container (little-endian bytes), or the text of `-P`,
/// `-ast-dump`, `-help`. Sets `*len` (when `len` is not NULL); the bytes live as long as the
/// result. Empty (length 0) when compilation failed.
///
/// # Safety
/// `result` is NULL or a live result; `len` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hlslc_result_output(result: *const HlslcResult, len: *mut usize) -> *const u8 {
    let (ptr, n) = result.as_ref().map_or((std::ptr::null(), 0), |r| (r.output.as_ptr(), r.output.len()));
    if let Some(len) = len.as_mut() {
        *len = n;
    }
    ptr
}

/// The diagnostics as dxc prints them (`file:line:col: error: ...`, the source line, a caret), a
/// NUL-terminated string that lives as long as the result (empty when there are none). Sets
/// `*len` (without the NUL) when `len` is not NULL.
///
/// # Safety
/// `result` is NULL or a live result; `len` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hlslc_result_diagnostics(result: *const HlslcResult, len: *mut usize) -> *const c_char {
    static EMPTY: &CStr = c"";
    let text = result.as_ref().map_or(EMPTY, |r| r.diagnostics.as_c_str());
    if let Some(len) = len.as_mut() {
        *len = text.to_bytes().len();
    }
    text.as_ptr()
}

/// The reflection of the compiled shader as JSON (the schema of `docs/reflection.md`):
/// [`HLSLC_OK`] with a NUL-terminated string that lives as long as the result, or
/// [`HLSLC_UNAVAILABLE`] with `*json` NULL and `*len` 0 when the compile produced no code.
///
/// # Safety
/// `result` is NULL or a live result; `json` and `len` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hlslc_result_reflection_json(result: *const HlslcResult, json: *mut *const c_char, len: *mut usize) -> c_int {
    let Some(r) = result.as_ref() else { return HLSLC_INVALID_ARGUMENT };
    let (ptr, n, status) = match &r.reflection {
        Some(text) => (text.as_ptr(), text.to_bytes().len(), HLSLC_OK),
        None => (std::ptr::null(), 0, HLSLC_UNAVAILABLE),
    };
    if let Some(json) = json.as_mut() {
        *json = ptr;
    }
    if let Some(len) = len.as_mut() {
        *len = n;
    }
    status
}

/// Frees a result (NULL is ignored).
///
/// # Safety
/// `result` is NULL or a live result, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn hlslc_result_free(result: *mut HlslcResult) {
    if !result.is_null() {
        drop(Box::from_raw(result));
    }
}

/// A new compilation session, freed with [`hlslc_compiler_free`]; NULL only if hlslc failed
/// internally.
#[no_mangle]
pub extern "C" fn hlslc_compiler_new() -> *mut HlslcCompiler {
    catch_unwind(|| Box::into_raw(Box::new(HlslcCompiler { inner: Compiler::new() }))).unwrap_or(std::ptr::null_mut())
}

/// Tells the session that the include file `name` changed (see `hlslc::Compiler::invalidate`).
///
/// # Safety
/// `compiler` is NULL or live; `name` is NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn hlslc_compiler_invalidate(compiler: *const HlslcCompiler, name: *const c_char) {
    let (Some(c), false) = (compiler.as_ref(), name.is_null()) else { return };
    let name = CStr::from_ptr(name).to_string_lossy();
    let _ = catch_unwind(AssertUnwindSafe(|| c.inner.invalidate(&name)));
}

/// Frees a session (NULL is ignored). No compile may be using it.
///
/// # Safety
/// `compiler` is NULL or live, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn hlslc_compiler_free(compiler: *mut HlslcCompiler) {
    if !compiler.is_null() {
        drop(Box::from_raw(compiler));
    }
}

/// The version, as `hlslc -version` prints it: a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn hlslc_version() -> *const c_char {
    static VERSION: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| c_text(&hlslc::version())).as_ptr()
}
