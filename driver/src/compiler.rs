//! [`Compiler`]: a compilation session that engines keep for the life of the program.
//!
//! What it caches, and why that is safe:
//!
//! - **Include files from the include handler**, by request (`name`, folder of the including
//!   file, `<>` or `""`): the handler is asked once per request, later compiles reuse its answer until
//!   [`Compiler::invalidate`] names the file. The handler must therefore answer a request the same
//!   way until then, and alike for including files of one folder (the usual case: it reads files an editor changes, and the engine calls
//!   `invalidate` when its file watcher fires).
//! - **Whole results**, by main file name, source text and [`Options`], each kept with the text of
//!   every file it included. A compile that finds an entry checks those texts (a file-system
//!   include is read again, a handler include is looked up in the cache or asked again after
//!   `invalidate`) and reuses the result when all are byte-for-byte the same. So a hot reload
//!   recompiles only the shaders whose own source or included files changed; touching a file
//!   without changing it recompiles nothing. Entries are found by a hash of the content and then
//!   compared in full, so a hash collision cannot hand back a wrong result.
//!
//! Results with errors are not kept: a missing include may appear, and the compile must notice.
//! Not cached: the intrinsic table needs no cache (sema's table is a `static` generated at build
//! time: nothing is built per compile), and tokens of include files are not shared between
//! compiles (the lexer's tokens hold `Rc<str>`, which cannot cross threads): a shader whose
//! include changed is preprocessed and parsed whole again, and what the session saves is every
//! shader whose files did not change (`cargo bench -p hlslc --bench compile -- --reload`).
//!
//! One known limit: a file-system include is checked where it was found; a file created later in
//! a folder searched *before* that one is not noticed until [`Compiler::clear`].

use crate::{compile, CompileResult, IncludeHandler, IncludedFile, Options};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A reusable, thread-safe compilation session (see the [module documentation](self) for what
/// it caches).
///
/// ```
/// use hlslc::{Compiler, IncludeHandler, IncludedFile, Options, Profile};
///
/// struct Files;
/// impl IncludeHandler for Files {
///     fn include(&mut self, name: &str, _includer: &str, _angled: bool) -> Option<IncludedFile> {
///         (name == "common.hlsli").then(|| IncludedFile { name: name.into(), text: "#define RED float4(1, 0, 0, 1)\n".into() })
///     }
/// }
///
/// let compiler = Compiler::new();
/// let mut options = Options::for_profile(Profile::parse("ps_6_0").unwrap());
/// options.spirv = true;
/// options.output_kind = hlslc::OutputKind::Binary;
/// let source = "#include \"common.hlsli\"\nfloat4 main() : SV_Target { return RED; }";
/// let first = compiler.compile(source, "shader.hlsl", &options, Some(&mut Files));
/// assert!(first.succeeded(), "{}", first.render_diagnostics());
/// // The same shader again: the cached result, the handler is not asked.
/// let second = compiler.compile(source, "shader.hlsl", &options, Some(&mut Files));
/// assert_eq!(first.output, second.output);
/// assert_eq!(compiler.stats().results_reused, 1);
/// ```
#[derive(Default)]
pub struct Compiler {
    includes: Mutex<HashMap<IncludeKey, CachedFile>>,
    results: Mutex<HashMap<u64, Entry>>,
    results_reused: AtomicU64,
    compiles: AtomicU64,
    includes_reused: AtomicU64,
    includes_asked: AtomicU64,
}

/// What a [`Compiler`] did so far (counters since [`Compiler::new`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Compiles answered with a cached result.
    pub results_reused: u64,
    /// Compiles that ran the compiler.
    pub compiles: u64,
    /// `#include`s answered from the cache instead of the include handler.
    pub includes_reused: u64,
    /// `#include`s the include handler was asked for.
    pub includes_asked: u64,
}

/// An include request: file name as written, the folder of the including file, `<...>`. The
/// handler is assumed to answer alike for including files of one folder (it resolves relative
/// names against that folder), so requests from all of them share one cache entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct IncludeKey {
    name: String,
    /// The folder of the including file, as its display name spells it (`""`: none).
    folder: String,
    angled: bool,
}

/// A request as the preprocessor made it: the key, and the including file's display name to
/// pass to the handler.
#[derive(Clone, Debug)]
struct Request {
    key: IncludeKey,
    includer: String,
}

impl Request {
    fn new(name: &str, includer: &str, angled: bool) -> Request {
        let folder = std::path::Path::new(includer).parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        Request { key: IncludeKey { name: name.to_owned(), folder, angled }, includer: includer.to_owned() }
    }
}

#[derive(Clone)]
struct CachedFile {
    name: String,
    text: Arc<str>,
}

/// A file a cached result depends on, with the text it had.
enum Dep {
    /// Read from the file system by the preprocessor, by this path.
    Path { path: String, text: Arc<str> },
    /// Given by the include handler.
    Handler { request: Request, text: Arc<str> },
}

struct Entry {
    file_name: String,
    source: String,
    options: Options,
    deps: Vec<Dep>,
    result: Arc<CompileResult>,
}

fn hash_key(file_name: &str, source: &str, options: &Options) -> u64 {
    let mut h = DefaultHasher::new();
    file_name.hash(&mut h);
    source.hash(&mut h);
    // Options has no Hash (it holds paths and lists of every kind); its Debug form is complete.
    format!("{options:?}").hash(&mut h);
    h.finish()
}

/// A poisoned lock only means another thread panicked while holding it; the maps stay
/// consistent (every update is a single insert or remove), so the data is still usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Compiler {
    /// An empty session.
    pub fn new() -> Compiler {
        Compiler::default()
    }

    /// Compiles as [`crate::compile`] does, with the same result, reusing what this session
    /// cached. `includes` is asked only for include files the session does not hold.
    pub fn compile(&self, source: &str, file_name: &str, options: &Options, mut includes: Option<&mut dyn IncludeHandler>) -> Arc<CompileResult> {
        let key = hash_key(file_name, source, options);
        let cached = {
            let results = lock(&self.results);
            results
                .get(&key)
                .filter(|e| e.file_name == file_name && e.source == source && e.options == *options)
                .map(|e| (e.deps.iter().map(Dep::clone_shallow).collect::<Vec<_>>(), e.result.clone()))
        };
        if let Some((deps, result)) = cached {
            if deps.iter().all(|d| self.unchanged(d, &mut includes)) {
                self.results_reused.fetch_add(1, Ordering::Relaxed);
                return result;
            }
        }
        self.compiles.fetch_add(1, Ordering::Relaxed);
        let mut handler = CachingHandler { compiler: self, user: includes, given: Vec::new() };
        let result = Arc::new(compile(source, file_name, options, Some(&mut handler)));
        if result.succeeded() {
            let deps = dependencies(&result, handler.given);
            let entry = Entry { file_name: file_name.to_owned(), source: source.to_owned(), options: options.clone(), deps, result: result.clone() };
            lock(&self.results).insert(key, entry);
        }
        result
    }

    /// Forgets the include file called `name` (as the include handler named it, or as it was
    /// written in `#include`): the handler is asked for it again, and results that included it are
    /// checked against its new text. Call it when a file changes.
    pub fn invalidate(&self, name: &str) {
        lock(&self.includes).retain(|k, f| k.name != name && f.name != name);
    }

    /// Forgets everything cached (the statistics stay).
    pub fn clear(&self) {
        lock(&self.includes).clear();
        lock(&self.results).clear();
    }

    /// The counters so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            results_reused: self.results_reused.load(Ordering::Relaxed),
            compiles: self.compiles.load(Ordering::Relaxed),
            includes_reused: self.includes_reused.load(Ordering::Relaxed),
            includes_asked: self.includes_asked.load(Ordering::Relaxed),
        }
    }

    /// The include file for a request: from the cache, else from the handler (then cached).
    fn lookup(&self, request: &Request, user: &mut Option<&mut dyn IncludeHandler>) -> Option<CachedFile> {
        let key = &request.key;
        if let Some(f) = lock(&self.includes).get(key) {
            self.includes_reused.fetch_add(1, Ordering::Relaxed);
            return Some(f.clone());
        }
        let handler = user.as_mut()?;
        self.includes_asked.fetch_add(1, Ordering::Relaxed);
        let f = handler.include(&key.name, &request.includer, key.angled)?;
        let file = CachedFile { name: f.name, text: Arc::from(f.text) };
        lock(&self.includes).insert(key.clone(), file.clone());
        Some(file)
    }

    /// Whether a file a cached result included still has the same text.
    fn unchanged(&self, dep: &Dep, user: &mut Option<&mut dyn IncludeHandler>) -> bool {
        match dep {
            Dep::Path { path, text } => std::fs::read(path).is_ok_and(|bytes| {
                let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
                bytes == text.as_bytes()
            }),
            Dep::Handler { request, text } => self.lookup(request, user).is_some_and(|f| {
                // The preprocessor drops a byte-order mark from handler text too.
                f.text.strip_prefix('\u{feff}').unwrap_or(&f.text) == text.strip_prefix('\u{feff}').unwrap_or(text)
            }),
        }
    }
}

impl Dep {
    fn clone_shallow(&self) -> Dep {
        match self {
            Dep::Path { path, text } => Dep::Path { path: path.clone(), text: text.clone() },
            Dep::Handler { request, text } => Dep::Handler { request: request.clone(), text: text.clone() },
        }
    }
}

/// The files `result` included: those the handler gave (by request), the others read from disk
/// (by the path the preprocessor displays, which is the path it opened). The main file is file
/// 0; the predefined macros and `-D` options are files `<built-in>` and `<command line>`.
fn dependencies(result: &CompileResult, given: Vec<(Request, CachedFile)>) -> Vec<Dep> {
    let sm = &result.source_map;
    let mut deps: Vec<Dep> = Vec::new();
    for i in 1..sm.len() {
        let f = sm.file(hlslc_frontend::source::FileId(i as u32));
        // The preprocessor's own files, made from the options (which are part of the key).
        if f.name == "<built-in>" || f.name == "<command line>" || given.iter().any(|(_, g)| g.name == f.name) {
            continue;
        }
        deps.push(Dep::Path { path: f.name.clone(), text: Arc::from(f.text.as_str()) });
    }
    deps.extend(given.into_iter().map(|(request, f)| Dep::Handler { request, text: f.text }));
    deps
}

/// The include handler a compile of the session sees: the cache in front of the user's handler;
/// records every file it gives.
struct CachingHandler<'a, 'h> {
    compiler: &'a Compiler,
    user: Option<&'h mut dyn IncludeHandler>,
    given: Vec<(Request, CachedFile)>,
}

impl IncludeHandler for CachingHandler<'_, '_> {
    fn include(&mut self, name: &str, includer: &str, angled: bool) -> Option<IncludedFile> {
        let request = Request::new(name, includer, angled);
        let f = self.compiler.lookup(&request, &mut self.user)?;
        let out = IncludedFile { name: f.name.clone(), text: f.text.to_string() };
        self.given.push((request, f));
        Some(out)
    }
}
