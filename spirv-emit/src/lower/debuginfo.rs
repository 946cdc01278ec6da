//! Debug information: what `-Zi` and each `-fspv-debug=` category writes.
//!
//! - `file`: `OpString` with the main file's name and `OpSource HLSL <version> <file>`;
//!   `source` adds the file's text (`OpSourceContinued` for what does not fit one string);
//!   `line` adds an `OpLine` per statement; `tool` adds `OpModuleProcessed` with the command
//!   line (SPIR-V 1.3 / Vulkan 1.1 and later, as dxc). `-Zi` alone means all four.
//! - `vulkan` (`-fspv-debug=vulkan`, `vulkan-with-source`): the `NonSemantic.Shader.DebugInfo.100`
//!   instruction set instead of `OpSource`/`OpLine`, as dxc writes it (SPIR-V.rst, "Debugging"):
//!   `DebugSource` (with the text for `-with-source`, cut into `DebugSourceContinued` pieces),
//!   `DebugCompilationUnit`, types (`DebugTypeBasic`/`Vector`/`Matrix`/`Array`/`Composite` with
//!   `DebugTypeMember`, `DebugTypeFunction`), a `DebugFunction` per function with its
//!   `DebugFunctionDefinition`, a `DebugLexicalBlock` per compound statement, `DebugScope` at the
//!   start of each block that holds statements, `DebugLine` per statement, `DebugLocalVariable` +
//!   `DebugDeclare` for locals and parameters, `DebugGlobalVariable` for module-scope variables,
//!   and `DebugEntryPoint` for each entry point (its
//!   wrapper function is `__dxc_setup`, as dxc names it).
//!
//! - `rich` (`-fspv-debug=rich`, `rich-with-source`): the same description in `OpenCL.DebugInfo.100`,
//!   as dxc writes it: numbers are literals (sizes stay ids), `OpLine` instead of `DebugLine`, the
//!   function itself as `DebugFunction`'s last operand instead of `DebugFunctionDefinition`, no
//!   `DebugEntryPoint`, matrices as two-dimensional `DebugTypeArray`s, composites without members
//!   (a member names its composite, which names the member: not written here).
//!
//! In the non-semantic set, operands that are numbers (lines, sizes, flags) are ids of
//! `OpConstant %uint`, as the set requires. Every instruction is made after those it names (the set has no
//! forward references), so the order of creation is a valid order of the module.
//!
//! Differences from dxc, each a place where our output is valid but not byte-identical: the
//! module-scope instructions are in creation order, not in dxc's post-order of its debug info
//! graph; `DebugLine` columns cover the statement (dxc's cover each expression); members and
//! composites have no line (the typed AST keeps no span for fields); resource types and other
//! opaque objects are composites named `@<type>` without members or size; members of constant
//! buffers get no `DebugGlobalVariable`.

use super::{Lowerer, R};
use crate::id::SpvId;
use rspirv::dr::Operand;
use hlslc_frontend::source::{FileId, Span};
use hlslc_sema::tast::{FuncId, VarId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use std::collections::HashMap;

/// The import name of the set.
pub const SET_NAME: &str = "NonSemantic.Shader.DebugInfo.100";
/// The import name of `-fspv-debug=rich`'s set.
pub const OPENCL_SET_NAME: &str = "OpenCL.DebugInfo.100";

/// Instruction numbers of `NonSemantic.Shader.DebugInfo.100` (checked against the grammar in
/// the tests; `OpenCL.DebugInfo.100` numbers these the same, which `debug_order` relies on).
pub mod op {
    pub const INFO_NONE: u32 = 0;
    pub const COMPILATION_UNIT: u32 = 1;
    pub const TYPE_BASIC: u32 = 2;
    pub const TYPE_ARRAY: u32 = 5;
    pub const TYPE_VECTOR: u32 = 6;
    pub const TYPE_FUNCTION: u32 = 8;
    pub const TYPE_COMPOSITE: u32 = 10;
    pub const TYPE_MEMBER: u32 = 11;
    pub const TYPE_TEMPLATE_PARAMETER: u32 = 15;
    pub const GLOBAL_VARIABLE: u32 = 18;
    pub const FUNCTION_DECLARATION: u32 = 19;
    pub const FUNCTION: u32 = 20;
    pub const LEXICAL_BLOCK: u32 = 21;
    pub const SCOPE: u32 = 23;
    pub const LOCAL_VARIABLE: u32 = 26;
    pub const DECLARE: u32 = 28;
    pub const EXPRESSION: u32 = 31;
    pub const SOURCE: u32 = 35;
    pub const FUNCTION_DEFINITION: u32 = 101;
    pub const SOURCE_CONTINUED: u32 = 102;
    pub const LINE: u32 = 103;
    pub const ENTRY_POINT: u32 = 107;
    pub const TYPE_MATRIX: u32 = 108;
}

/// `DebugInfoFlags`: FlagIsProtected | FlagIsPrivate, which is FlagIsPublic (what dxc writes).
const FLAG_PUBLIC: u32 = 3;
/// `DebugInfoFlags`: FlagIsLocal.
const FLAG_LOCAL: u32 = 4;
/// `DebugInfoFlags`: FlagIsDefinition.
const FLAG_DEFINITION: u32 = 8;
/// `DebugCompositeType`: Structure.
const TAG_STRUCTURE: u32 = 1;
/// `DebugBaseTypeAttributeEncoding`.
const ENC_BOOLEAN: u32 = 2;
const ENC_FLOAT: u32 = 3;
const ENC_SIGNED: u32 = 4;
const ENC_UNSIGNED: u32 = 6;
/// `DebugCompilationUnit`'s version and DWARF version; `SourceLanguage::HLSL`.
const CU_VERSION: u32 = 1;
const DWARF_VERSION: u32 = 4;
const LANGUAGE_HLSL: u32 = 5;

/// The state of `NonSemantic.Shader.DebugInfo.100` generation for one module.
#[derive(Debug)]
pub(crate) struct DebugInfo {
    pub set: SpvId,
    /// `OpenCL.DebugInfo.100` (`-fspv-debug=rich`) rather than the non-semantic set.
    opencl: bool,
    /// `rich`: the ids given to functions before they are lowered, which their `DebugFunction`
    /// names (see `Lowerer::func_id`).
    pub fn_ids: HashMap<FuncId, SpvId>,
    /// Strings made here, made once each (dxc's strings are unique).
    strings: HashMap<String, SpvId>,
    /// The `OpString` of the main file's name (made first, as dxc does).
    main_name: SpvId,
    sources: HashMap<FileId, SpvId>,
    unit: Option<SpvId>,
    empty: Option<SpvId>,
    none: Option<SpvId>,
    expression: Option<SpvId>,
    types: HashMap<TypeId, SpvId>,
    /// `DebugFunction` of each user function.
    pub funcs: HashMap<FuncId, SpvId>,
    /// The lexical scopes enclosing the statement being lowered, innermost last.
    pub scopes: Vec<SpvId>,
    /// The block and scope of the last `DebugScope` written.
    scope_written: Option<(SpvId, SpvId)>,
}

impl<'m> Lowerer<'m> {
    /// Starts debug information for the module: the `OpString`s, `OpSource` or the
    /// non-semantic set, `OpModuleProcessed`.
    pub(crate) fn debug_begin(&mut self) {
        let Some(ds) = &self.opts.debug_source else { return };
        if ds.vulkan || ds.rich {
            // The set's import is the first id, as dxc's (`%1` in its tests).
            let opencl = !ds.vulkan;
            let set = self.b.ext_inst_import(if opencl { OPENCL_SET_NAME } else { SET_NAME });
            if !opencl && self.opts.target.spirv_version() < (1, 6) {
                self.b.extension("SPV_KHR_non_semantic_info");
            }
            let main = ds.files.file(ds.main);
            let main_name = self.b.debug_string(&main.name);
            if opencl && ds.line {
                self.debug_file = Some(main_name);
            }
            self.dbg = Some(DebugInfo {
                set,
                opencl,
                fn_ids: HashMap::new(),
                strings: HashMap::from([(main.name.clone(), main_name)]),
                main_name,
                sources: HashMap::new(),
                unit: None,
                empty: None,
                none: None,
                expression: None,
                types: HashMap::new(),
                funcs: HashMap::new(),
                scopes: Vec::new(),
                scope_written: None,
            });
            // A DebugFunction for each function with a body, in the order they are declared.
            for (i, f) in self.m.funcs.iter().enumerate() {
                if f.body.is_some() {
                    self.debug_function(FuncId(i as u32));
                }
            }
        } else if ds.file {
            let main = ds.files.file(ds.main);
            let file = self.b.debug_string(&main.name);
            let pieces = if ds.source { chop(&main.text, ds.source_len) } else { Vec::new() };
            self.b.source(spirv::SourceLanguage::HLSL, ds.version, Some(file), pieces.first().copied());
            for p in pieces.iter().skip(1) {
                self.b.source_continued(p);
            }
            if ds.line {
                self.debug_file = Some(file);
            }
        }
        if ds.tool && self.opts.target.spirv_version() >= (1, 3) {
            self.b.module_processed(&format!("hlslc-version: {}", env!("CARGO_PKG_VERSION")));
            if !ds.command_line.is_empty() {
                self.b.module_processed(&format!("dxc-cl-option:{}", ds.command_line));
            }
        }
    }

    fn dbg_u32(&mut self, v: u32) -> SpvId {
        self.b.ctx.const_u32(v)
    }

    fn dbg_opencl(&self) -> bool {
        self.dbg.as_ref().is_some_and(|d| d.opencl)
    }

    /// A number operand: a literal in `OpenCL.DebugInfo.100`, an `OpConstant %uint` otherwise.
    fn dn(&mut self, v: u32) -> Operand {
        if self.dbg_opencl() {
            Operand::LiteralBit32(v)
        } else {
            Operand::IdRef(self.dbg_u32(v).0)
        }
    }

    /// A number operand that is an id in both sets (sizes, array lengths).
    fn did(&mut self, v: u32) -> Operand {
        Operand::IdRef(self.dbg_u32(v).0)
    }

    /// An `OpString`, one per text.
    fn dbg_string(&mut self, text: &str) -> SpvId {
        if let Some(&s) = self.dbg.as_ref().and_then(|d| d.strings.get(text)) {
            return s;
        }
        let s = self.b.debug_string(text);
        if let Some(d) = self.dbg.as_mut() {
            d.strings.insert(text.to_string(), s);
        }
        s
    }

    fn dbg_inst(&mut self, instruction: u32, operands: Vec<Operand>) -> SpvId {
        let set = self.dbg.as_ref().map_or(SpvId(0), |d| d.set);
        self.b.debug_ext_inst(set, instruction, operands)
    }

    fn dbg_here(&mut self, instruction: u32, operands: Vec<Operand>) -> R<SpvId> {
        let set = self.dbg.as_ref().map_or(SpvId(0), |d| d.set);
        Ok(self.b.debug_ext_inst_here(set, instruction, operands)?)
    }

    /// Ends debug information: a `DebugGlobalVariable` for each module-scope variable; a `rich`
    /// `DebugFunction` of a function that was never lowered names `DebugInfoNone`.
    pub(crate) fn debug_end(&mut self) {
        if self.dbg.is_none() {
            return;
        }
        self.debug_globals();
        if !self.dbg_opencl() {
            return;
        }
        let ids: Vec<SpvId> = self.dbg.as_ref().map(|d| d.fn_ids.values().copied().collect()).unwrap_or_default();
        let none = self.debug_none();
        self.b.debug_unresolved_functions(&ids, none);
    }

    /// `DebugGlobalVariable` of each module-scope variable with its own `OpVariable` (members of
    /// constant buffers and variables with no debug type get none).
    fn debug_globals(&mut self) {
        let m = self.m;
        for &g in &m.globals {
            let Some(super::VarHome::Ptr { ptr, .. }) = self.vars.get(&g).cloned() else { continue };
            let var = m.var(g);
            let ty = self.debug_type(var.ty);
            if self.dbg.as_ref().is_some_and(|d| d.none == Some(ty)) {
                continue;
            }
            let name = self.dbg_string(&var.name);
            let at = self.debug_name_in(var.span, &var.name);
            let (src, line, col) = self.debug_location(at);
            let unit = self.debug_unit();
            let flags = self.dn(FLAG_DEFINITION);
            let id = |x: SpvId| Operand::IdRef(x.0);
            self.dbg_inst(op::GLOBAL_VARIABLE, vec![id(name), id(ty), src, line, col, id(unit), id(name), id(ptr), flags]);
        }
    }

    /// The `DebugSource` of `file`, made on first use (with the text for `-with-source`).
    fn debug_source_of(&mut self, file: FileId) -> SpvId {
        if let Some(&s) = self.dbg.as_ref().and_then(|d| d.sources.get(&file)) {
            return s;
        }
        let Some(ds) = &self.opts.debug_source else { return SpvId(0) };
        let f = ds.files.file(file);
        let opencl = self.dbg_opencl();
        let name = match &self.dbg {
            Some(d) if file == ds.main => d.main_name,
            _ => self.b.debug_string(&f.name),
        };
        // OpenCL.DebugInfo.100 has no DebugSourceContinued: the text stays whole.
        let len = if opencl { usize::MAX } else { ds.source_len };
        let pieces = if ds.source { chop(&f.text, len) } else { Vec::new() };
        let texts: Vec<SpvId> = pieces.iter().map(|p| self.b.debug_string(p)).collect();
        let mut ops = vec![Operand::IdRef(name.0)];
        ops.extend(texts.first().map(|t| Operand::IdRef(t.0)));
        let src = self.dbg_inst(op::SOURCE, ops);
        for &t in texts.iter().skip(1) {
            self.dbg_inst(op::SOURCE_CONTINUED, vec![Operand::IdRef(t.0)]);
        }
        if let Some(d) = self.dbg.as_mut() {
            d.sources.insert(file, src);
        }
        src
    }

    /// The `DebugCompilationUnit` (and the main file's `DebugSource`), made on first use.
    fn debug_unit(&mut self) -> SpvId {
        if let Some(u) = self.dbg.as_ref().and_then(|d| d.unit) {
            return u;
        }
        let Some(main) = self.opts.debug_source.as_ref().map(|d| d.main) else { return SpvId(0) };
        let src = self.debug_source_of(main);
        let (v, dwarf, lang) = (self.dn(CU_VERSION), self.dn(DWARF_VERSION), self.dn(LANGUAGE_HLSL));
        let unit = self.dbg_inst(op::COMPILATION_UNIT, vec![v, dwarf, Operand::IdRef(src.0), lang]);
        if let Some(d) = self.dbg.as_mut() {
            d.unit = Some(unit);
        }
        unit
    }

    fn debug_empty_string(&mut self) -> SpvId {
        if let Some(e) = self.dbg.as_ref().and_then(|d| d.empty) {
            return e;
        }
        let e = self.dbg_string("");
        if let Some(d) = self.dbg.as_mut() {
            d.empty = Some(e);
        }
        e
    }

    fn debug_none(&mut self) -> SpvId {
        if let Some(n) = self.dbg.as_ref().and_then(|d| d.none) {
            return n;
        }
        let n = self.dbg_inst(op::INFO_NONE, Vec::new());
        if let Some(d) = self.dbg.as_mut() {
            d.none = Some(n);
        }
        n
    }

    /// One-based (line, column) of `offset` in `file`.
    fn debug_line_col(&self, file: FileId, offset: u32) -> (u32, u32) {
        let Some(ds) = &self.opts.debug_source else { return (0, 0) };
        let (l, c) = ds.files.file(file).line_col(offset);
        (l as u32, c as u32)
    }

    /// The `DebugSource`, line and column where `span` starts.
    fn debug_location(&mut self, span: Span) -> (Operand, Operand, Operand) {
        let src = self.debug_source_of(span.file);
        let (l, c) = self.debug_line_col(span.file, span.start);
        (Operand::IdRef(src.0), self.dn(l), self.dn(c))
    }

    /// Where the declaration whose name starts `span` starts: back over the blank and the
    /// word before the name (`float4 main`: the return type, where dxc puts a function).
    fn debug_decl_start(&self, span: Span) -> Span {
        let Some(ds) = &self.opts.debug_source else { return span };
        let text = ds.files.file(span.file).text.as_bytes();
        let mut i = (span.start as usize).min(text.len());
        while i > 0 && matches!(text[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i == span.start as usize {
            return span;
        }
        while i > 0 && !text[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        Span { start: i as u32, ..span }
    }

    /// Where `name` is written in `span` (a parameter's span starts at its type; dxc's
    /// location is the name).
    fn debug_name_in(&self, span: Span, name: &str) -> Span {
        let Some(ds) = &self.opts.debug_source else { return span };
        let text = &ds.files.file(span.file).text;
        let (s, e) = (span.start as usize, (span.end as usize).min(text.len()));
        let Some(piece) = text.get(s..e) else { return span };
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut from = 0;
        while let Some(i) = piece[from..].find(name) {
            let at = from + i;
            let before_ok = !piece[..at].chars().next_back().is_some_and(word);
            let after_ok = !piece[at + name.len()..].chars().next().is_some_and(word);
            if before_ok && after_ok {
                return Span { start: (s + at) as u32, ..span };
            }
            from = at + name.len().max(1);
        }
        span
    }

    /// The size in bits of a value of `t` as the debug types describe it (no padding; `bool` is
    /// 32 bits).
    fn debug_bits(&self, t: TypeId) -> u32 {
        match self.m.types.get(t) {
            Type::Scalar(k) => scalar_info(*k).1,
            Type::Vector(k, n) => scalar_info(*k).1 * u32::from(*n),
            Type::Matrix { elem, rows, cols, .. } => scalar_info(*elem).1 * u32::from(*rows) * u32::from(*cols),
            Type::Array { elem, len } => self.debug_bits(*elem).saturating_mul(len.unwrap_or(0)),
            Type::Struct(s) => {
                self.m.types.structs[s.0 as usize].fields.iter().fold(0u32, |a, f| a.saturating_add(self.debug_bits(f.ty)))
            }
            Type::Enum(_) => 32,
            _ => 0,
        }
    }

    fn debug_basic(&mut self, k: ScalarKind) -> SpvId {
        let (name, bits, enc) = scalar_info(k);
        let name_id = self.dbg_string(name);
        let mut ops = vec![Operand::IdRef(name_id.0), self.did(bits), self.dn(enc)];
        if !self.dbg_opencl() {
            ops.push(self.dn(0));
        }
        self.dbg_inst(op::TYPE_BASIC, ops)
    }

    /// The debug type of `t`: `OpTypeVoid` for `void` (as `DebugTypeFunction` names it),
    /// `DebugInfoNone` for what has no debug type here.
    pub(crate) fn debug_type(&mut self, t: TypeId) -> SpvId {
        if let Some(&d) = self.dbg.as_ref().and_then(|d| d.types.get(&t)) {
            return d;
        }
        let m = self.m;
        let id = match m.types.get(t) {
            Type::Void => self.b.ctx.type_void(),
            Type::Scalar(k) => self.debug_basic(*k),
            Type::Enum(_) => self.debug_basic(ScalarKind::Int),
            Type::Vector(k, n) => {
                let base = self.debug_scalar(*k);
                let count = self.dn(u32::from(*n));
                self.dbg_inst(op::TYPE_VECTOR, vec![Operand::IdRef(base.0), count])
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let base = self.debug_scalar(*elem);
                if self.dbg_opencl() {
                    // rich: an array of rows x columns scalars, as dxc describes it.
                    let (r, c) = (self.did(u32::from(*rows)), self.did(u32::from(*cols)));
                    self.dbg_inst(op::TYPE_ARRAY, vec![Operand::IdRef(base.0), r, c])
                } else {
                    let cols_id = self.dn(u32::from(*cols));
                    let vector = self.dbg_inst(op::TYPE_VECTOR, vec![Operand::IdRef(base.0), cols_id]);
                    let (count, major) = (self.dn(u32::from(*rows)), self.dn(1));
                    self.dbg_inst(op::TYPE_MATRIX, vec![Operand::IdRef(vector.0), count, major])
                }
            }
            Type::Array { elem, len } => {
                let base = self.debug_type(*elem);
                let n = self.did(len.unwrap_or(0));
                self.dbg_inst(op::TYPE_ARRAY, vec![Operand::IdRef(base.0), n])
            }
            Type::Struct(s) => {
                let def = &m.types.structs[s.0 as usize];
                let opencl = self.dbg_opencl();
                let src = self.debug_source_of(self.opts.debug_source.as_ref().map_or(FileId(0), |d| d.main));
                let src = Operand::IdRef(src.0);
                let zero = self.dn(0);
                let flags = self.dn(FLAG_PUBLIC);
                let mut members = Vec::new();
                let mut offset = 0u32;
                for f in &def.fields {
                    let bits = self.debug_bits(f.ty);
                    // rich: a member names its composite; members are left out there.
                    if !opencl {
                        let name = self.dbg_string(&f.name);
                        let ty = self.debug_type(f.ty);
                        let (off, size) = (self.dn(offset), self.dn(bits));
                        let ops = vec![Operand::IdRef(name.0), Operand::IdRef(ty.0), src.clone(), zero.clone(), zero.clone(), off, size, flags.clone()];
                        members.push(Operand::IdRef(self.dbg_inst(op::TYPE_MEMBER, ops).0));
                    }
                    offset = offset.saturating_add(bits);
                }
                let name = self.dbg_string(&def.name);
                let unit = self.debug_unit();
                let tag = self.dn(TAG_STRUCTURE);
                let size = if opencl { self.did(offset) } else { self.dn(offset) };
                let name = Operand::IdRef(name.0);
                let mut ops = vec![name.clone(), tag, src, zero.clone(), zero, Operand::IdRef(unit.0), name, size, flags];
                ops.extend(members);
                self.dbg_inst(op::TYPE_COMPOSITE, ops)
            }
            // Resources, samplers, ray queries and other opaque objects: a composite named
            // `@<type>` with no members and no size (DebugInfoNone), as dxc names them.
            Type::Object { .. } => {
                let spelled = m.types.name(t);
                let name = self.dbg_string(&format!("@{spelled}"));
                let linkage = self.dbg_string(&spelled);
                let none = self.debug_none();
                let src = self.debug_source_of(self.opts.debug_source.as_ref().map_or(FileId(0), |d| d.main));
                let unit = self.debug_unit();
                let (class, zero, flags) = (self.dn(0), self.dn(0), self.dn(FLAG_PUBLIC));
                let id = |x: SpvId| Operand::IdRef(x.0);
                self.dbg_inst(op::TYPE_COMPOSITE, vec![id(name), class, id(src), zero.clone(), zero, id(unit), id(linkage), id(none), flags])
            }
            _ => self.debug_none(),
        };
        if let Some(d) = self.dbg.as_mut() {
            d.types.insert(t, id);
        }
        id
    }

    fn debug_scalar(&mut self, k: ScalarKind) -> SpvId {
        match self.m.types.find(&Type::Scalar(k)) {
            Some(t) => self.debug_type(t),
            None => self.debug_basic(k),
        }
    }

    /// The `DebugFunction` of user function `f` (with its `DebugTypeFunction`).
    fn debug_function(&mut self, fid: FuncId) -> SpvId {
        if let Some(&d) = self.dbg.as_ref().and_then(|d| d.funcs.get(&fid)) {
            return d;
        }
        let m = self.m;
        let f = m.func(fid);
        let flags = self.dn(FLAG_PUBLIC);
        let ret = self.debug_type(f.ret);
        let mut ops = vec![flags, Operand::IdRef(ret.0)];
        if let Some(this) = f.this_type {
            ops.push(Operand::IdRef(self.debug_type(this).0));
        }
        for &p in &f.params {
            ops.push(Operand::IdRef(self.debug_type(m.var(p).ty).0));
        }
        let fty = self.dbg_inst(op::TYPE_FUNCTION, ops);
        let name = self.dbg_string(&f.name);
        let at = self.debug_decl_start(f.span);
        // rich: the function itself is an operand; it gets its id now (see `func_id`).
        let function = if self.dbg_opencl() {
            let id = self.b.ctx.alloc_id();
            if let Some(d) = self.dbg.as_mut() {
                d.fn_ids.insert(fid, id);
            }
            Some(id)
        } else {
            None
        };
        let d = self.debug_function_at(name, fty, at, f.body.and_then(|b| m.spans.stmts.get(b.0 as usize).copied()), function);
        if let Some(dbg) = self.dbg.as_mut() {
            dbg.funcs.insert(fid, d);
        }
        d
    }

    fn debug_function_at(&mut self, name: SpvId, fty: SpvId, span: Span, body: Option<Span>, function: Option<SpvId>) -> SpvId {
        let (src, line, col) = self.debug_location(span);
        let unit = self.debug_unit();
        let linkage = self.debug_empty_string();
        let flags = self.dn(FLAG_PUBLIC);
        let scope_line = match body {
            Some(b) => {
                let l = self.debug_line_col(b.file, b.start).0;
                self.dn(l)
            }
            None => line.clone(),
        };
        let id = |x: SpvId| Operand::IdRef(x.0);
        let mut ops = vec![id(name), id(fty), src, line, col, id(unit), id(linkage), flags, scope_line];
        ops.extend(function.map(id));
        self.dbg_inst(op::FUNCTION, ops)
    }

    /// At the start of user function `f`'s entry block: `DebugScope` of its `DebugFunction` and
    /// `DebugFunctionDefinition`; then a `DebugLocalVariable` and `DebugDeclare` per parameter
    /// (`params`: each parameter with its `OpFunctionParameter`).
    /// A copy of a function specialized for the buffers its callers pass (`define` false) gets
    /// the scope but no second definition.
    pub(crate) fn debug_function_start(&mut self, fid: FuncId, function: SpvId, params: &[(VarId, SpvId)], define: bool) -> R<()> {
        if self.dbg.is_none() {
            return Ok(());
        }
        let d = self.debug_function(fid);
        if define {
            self.debug_definition(d, function)?;
        } else {
            let block = self.b.current_block();
            if let Some(x) = self.dbg.as_mut() {
                x.scopes = vec![d];
                x.scope_written = None;
                let _ = block;
            }
        }
        for (k, &(v, ptr)) in params.iter().enumerate() {
            self.debug_variable(v, ptr, Some(k as u32 + 1))?;
        }
        Ok(())
    }

    fn debug_definition(&mut self, d: SpvId, function: SpvId) -> R<()> {
        self.dbg_here(op::SCOPE, vec![Operand::IdRef(d.0)])?;
        if !self.dbg_opencl() {
            self.dbg_here(op::FUNCTION_DEFINITION, vec![Operand::IdRef(d.0), Operand::IdRef(function.0)])?;
        }
        let block = self.b.current_block();
        if let Some(x) = self.dbg.as_mut() {
            x.scopes = vec![d];
            x.scope_written = block.map(|b| (b, d));
        }
        Ok(())
    }

    /// At the start of an entry point's wrapper function: its `DebugFunction` (`__dxc_setup`,
    /// at the entry function's place), `DebugEntryPoint` with the command line, the definition.
    pub(crate) fn debug_wrapper_start(&mut self, entry: FuncId, wrapper: SpvId) -> R<()> {
        if self.dbg.is_none() {
            return Ok(());
        }
        let m = self.m;
        let f = m.func(entry);
        let flags = self.dn(FLAG_PUBLIC);
        let void = self.b.ctx.type_void();
        let fty = self.dbg_inst(op::TYPE_FUNCTION, vec![flags, Operand::IdRef(void.0)]);
        let at = self.debug_decl_start(f.span);
        let body = f.body.and_then(|b| m.spans.stmts.get(b.0 as usize).copied());
        if self.dbg_opencl() {
            // rich: the same `__dxc_setup` function (dxc's rich.debug.function.param), with no
            // DebugEntryPoint.
            let name = self.dbg_string("__dxc_setup");
            let d = self.debug_function_at(name, fty, at, body, Some(wrapper));
            return self.debug_definition(d, wrapper);
        }
        let name = self.dbg_string("__dxc_setup");
        let d = self.debug_function_at(name, fty, at, body, None);
        let unit = self.debug_unit();
        let signature = self.dbg_string(&format!("hlslc {}", env!("CARGO_PKG_VERSION")));
        let command_line = self.opts.debug_source.as_ref().map(|d| d.command_line.clone()).unwrap_or_default();
        let args = self.dbg_string(&command_line);
        let id = |x: SpvId| Operand::IdRef(x.0);
        self.dbg_inst(op::ENTRY_POINT, vec![id(d), id(unit), id(signature), id(args)]);
        self.debug_definition(d, wrapper)
    }

    /// A `DebugLocalVariable` for `v` (argument number `arg` for a parameter) in the current
    /// scope and its `DebugDeclare` of `ptr` here.
    pub(crate) fn debug_variable(&mut self, v: VarId, ptr: SpvId, arg: Option<u32>) -> R<()> {
        let Some(scope) = self.dbg.as_ref().and_then(|d| d.scopes.last().copied()) else { return Ok(()) };
        let var = self.m.var(v);
        let name = self.dbg_string(&var.name);
        let ty = self.debug_type(var.ty);
        let at = self.debug_name_in(var.span, &var.name);
        let (src, line, col) = self.debug_location(at);
        let flags = self.dn(FLAG_LOCAL);
        let id = |x: SpvId| Operand::IdRef(x.0);
        let mut ops = vec![id(name), id(ty), src, line, col, id(scope), flags];
        if let Some(a) = arg {
            ops.push(self.dn(a));
        }
        let local = self.dbg_inst(op::LOCAL_VARIABLE, ops);
        let expr = match self.dbg.as_ref().and_then(|d| d.expression) {
            Some(e) => e,
            None => {
                let e = self.dbg_inst(op::EXPRESSION, Vec::new());
                if let Some(d) = self.dbg.as_mut() {
                    d.expression = Some(e);
                }
                e
            }
        };
        self.debug_scope_here()?;
        self.dbg_here(op::DECLARE, vec![id(local), id(ptr), id(expr)])?;
        Ok(())
    }

    /// Enters a compound statement at `span`: a `DebugLexicalBlock` in the current scope.
    pub(crate) fn debug_enter_block(&mut self, span: Option<Span>) {
        let (Some(span), Some(parent)) = (span, self.dbg.as_ref().and_then(|d| d.scopes.last().copied())) else { return };
        let (src, line, col) = self.debug_location(span);
        let block = self.dbg_inst(op::LEXICAL_BLOCK, vec![src, line, col, Operand::IdRef(parent.0)]);
        if let Some(d) = self.dbg.as_mut() {
            d.scopes.push(block);
        }
    }

    /// Leaves the compound statement entered last.
    pub(crate) fn debug_leave_block(&mut self, span: Option<Span>) {
        if span.is_some() {
            if let Some(d) = self.dbg.as_mut() {
                if d.scopes.len() > 1 {
                    d.scopes.pop();
                }
            }
        }
    }

    /// `DebugScope` of the current scope unless the current block already has it.
    fn debug_scope_here(&mut self) -> R<()> {
        let (Some(block), Some(d)) = (self.b.current_block(), self.dbg.as_ref()) else { return Ok(()) };
        let Some(&scope) = d.scopes.last() else { return Ok(()) };
        if d.scope_written == Some((block, scope)) {
            return Ok(());
        }
        self.dbg_here(op::SCOPE, vec![Operand::IdRef(scope.0)])?;
        if let Some(d) = self.dbg.as_mut() {
            d.scope_written = Some((block, scope));
        }
        Ok(())
    }

    /// `DebugScope` (when the block needs one) and `DebugLine` for a statement at `span`: its
    /// first and last lines, the column where it starts and the column of its last character.
    /// Returns false for `rich`, whose lines are `OpLine`s (written by the caller).
    pub(crate) fn debug_statement(&mut self, span: Span) -> R<bool> {
        if self.dbg.as_ref().is_none_or(|d| d.scopes.is_empty()) {
            return Ok(true);
        }
        self.debug_scope_here()?;
        if self.dbg_opencl() {
            return Ok(false);
        }
        let src = self.debug_source_of(span.file);
        let (l0, c0) = self.debug_line_col(span.file, span.start);
        let (l1, c1) = self.debug_line_col(span.file, span.end.saturating_sub(1).max(span.start));
        let ops = vec![Operand::IdRef(src.0), self.dn(l0), self.dn(l1), self.dn(c0), self.dn(c1)];
        self.dbg_here(op::LINE, ops)?;
        Ok(true)
    }
}

/// (name, size in bits, `DebugBaseTypeAttributeEncoding`) of a scalar kind, with the widths
/// the SPIR-V types have (`half` is 16-bit: sema makes it `float` without `-enable-16bit-types`;
/// min-precision types are 32-bit).
fn scalar_info(k: ScalarKind) -> (&'static str, u32, u32) {
    use ScalarKind::*;
    match k {
        Bool => ("bool", 32, ENC_BOOLEAN),
        Int16 => ("int16_t", 16, ENC_SIGNED),
        UInt16 => ("uint16_t", 16, ENC_UNSIGNED),
        Int | LitInt => ("int", 32, ENC_SIGNED),
        UInt => ("uint", 32, ENC_UNSIGNED),
        Int64 => ("int64_t", 64, ENC_SIGNED),
        UInt64 => ("uint64_t", 64, ENC_UNSIGNED),
        Half => ("half", 16, ENC_FLOAT),
        Float | LitFloat => ("float", 32, ENC_FLOAT),
        Double => ("double", 64, ENC_FLOAT),
        Min16Float => ("min16float", 32, ENC_FLOAT),
        Min10Float => ("min10float", 32, ENC_FLOAT),
        Min16Int => ("min16int", 32, ENC_SIGNED),
        Min12Int => ("min12int", 32, ENC_SIGNED),
        Min16UInt => ("min16uint", 32, ENC_UNSIGNED),
    }
}

/// `text` cut into pieces of at most `max` bytes, each ending on a character boundary.
pub(crate) fn chop(text: &str, max: usize) -> Vec<&str> {
    let max = max.max(4);
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out.push(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_match_the_grammar() {
        let table = rspirv::grammar::ext_inst_table(SET_NAME).expect("grammar of the set");
        let name = |n: u32| table.lookup_opcode(n).map(|g| g.opname).unwrap_or("?");
        for (n, expected) in [
            (op::INFO_NONE, "DebugInfoNone"),
            (op::COMPILATION_UNIT, "DebugCompilationUnit"),
            (op::TYPE_BASIC, "DebugTypeBasic"),
            (op::TYPE_ARRAY, "DebugTypeArray"),
            (op::TYPE_VECTOR, "DebugTypeVector"),
            (op::TYPE_FUNCTION, "DebugTypeFunction"),
            (op::TYPE_COMPOSITE, "DebugTypeComposite"),
            (op::TYPE_MEMBER, "DebugTypeMember"),
            (op::TYPE_TEMPLATE_PARAMETER, "DebugTypeTemplateParameter"),
            (op::GLOBAL_VARIABLE, "DebugGlobalVariable"),
            (op::FUNCTION_DECLARATION, "DebugFunctionDeclaration"),
            (op::FUNCTION, "DebugFunction"),
            (op::LEXICAL_BLOCK, "DebugLexicalBlock"),
            (op::SCOPE, "DebugScope"),
            (op::LOCAL_VARIABLE, "DebugLocalVariable"),
            (op::DECLARE, "DebugDeclare"),
            (op::EXPRESSION, "DebugExpression"),
            (op::SOURCE, "DebugSource"),
            (op::FUNCTION_DEFINITION, "DebugFunctionDefinition"),
            (op::SOURCE_CONTINUED, "DebugSourceContinued"),
            (op::LINE, "DebugLine"),
            (op::ENTRY_POINT, "DebugEntryPoint"),
            (op::TYPE_MATRIX, "DebugTypeMatrix"),
        ] {
            assert_eq!(name(n), expected, "instruction {n}");
        }
    }

    #[test]
    fn chop_cuts_on_character_boundaries() {
        assert_eq!(chop("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(chop("", 13), [""]);
        // 'é' is two bytes: a cut never splits it.
        assert_eq!(chop("abcé", 4), ["abc", "é"]);
    }
}
