//! Debug information for `-Zi`, in the shapes dxc prints (LLVM 3.7's debug-info metadata):
//!
//! - a `DIFile` per source file a described function is in (`filename:` as given, `directory: ""`);
//! - a `DISubprogram` per lowered function (its HLSL name, file and line, `function:` the IR
//!   function), listed by the `DICompileUnit`'s `subprograms:`;
//! - a `!dbg` `DILocation` (line, column, the function's subprogram as scope) on the
//!   instructions each statement and expression produces;
//! - the named metadata `llvm.dbg.cu`, `llvm.module.flags` (`Dwarf Version` 4, `Debug Info
//!   Version` 3), `dx.source.contents` (each file's name and text), `dx.source.defines`,
//!   `dx.source.mainFileName` and `dx.source.args`, placed before DXIL's own named metadata as
//!   dxc places them.
//!
//! Not described yet (so absent, never wrong): local variables and parameters
//! (`DILocalVariable` with `llvm.dbg.value`/`llvm.dbg.declare`), HLSL types (the subprogram's
//! type is the IR function's, `void ()`), globals, and inlined calls as `inlinedAt` (an inlined
//! callee's code gets the caller's subprogram as scope, with the callee's lines).

use super::Lowerer;
use crate::ir::{self, Field, MdId, MdOperand, Value};
use hlslc_frontend::source::{FileId, SourceMap};
use hlslc_frontend::Span;
use hlslc_sema::tast;

/// What `-Zi` describes: the sources and the command line.
#[derive(Clone, Debug)]
pub struct DebugOptions {
    pub files: SourceMap,
    pub main: FileId,
    /// The command line without the input file (`dx.source.args`).
    pub args: Vec<String>,
    /// `-D` definitions as written (`NAME` or `NAME=VALUE`), in order (`dx.source.defines`).
    pub defines: Vec<String>,
    /// Whether the code is optimized (the compile unit's `isOptimized`).
    pub optimized: bool,
}

/// The producer string of the compile unit.
pub const PRODUCER: &str = concat!("hlslc ", env!("CARGO_PKG_VERSION"));

fn raw(v: impl ToString) -> Field {
    Field::Raw(v.to_string())
}

/// The `DIFile` of source file `file`.
fn di_file(m: &mut ir::Module, d: &DebugOptions, file: FileId) -> MdId {
    let name = d.files.file(file).name.clone();
    m.md_special("DIFile", false, vec![("filename", Field::Str(name)), ("directory", Field::Str(String::new()))])
}

/// The `DISubprogram` of function `name` (HLSL name) declared at `span`, describing IR
/// function `func`; `local` for internal linkage.
pub(crate) fn subprogram(m: &mut ir::Module, d: &DebugOptions, name: &str, span: Span, func: ir::FuncId, local: bool) -> MdId {
    let file = di_file(m, d, span.file);
    let (line, _) = d.files.file(span.file).line_col(span.start);
    let null_type = m.md_node(vec![MdOperand::Null]);
    let ty = m.md_special("DISubroutineType", false, vec![("types", Field::Node(Some(null_type)))]);
    let fty = m.function(func).ty;
    let fptr = m.types.pointer(fty, 0);
    m.md_special(
        "DISubprogram",
        false,
        vec![
            ("name", Field::Str(name.to_string())),
            ("scope", Field::Node(Some(file))),
            ("file", Field::Node(Some(file))),
            ("line", raw(line)),
            ("type", Field::Node(Some(ty))),
            ("isLocal", raw(local)),
            ("isDefinition", raw(true)),
            ("scopeLine", raw(line)),
            ("flags", raw("DIFlagPrototyped")),
            ("isOptimized", raw(d.optimized)),
            ("function", Field::Value(fptr, Value::Func(func))),
        ],
    )
}

/// Adds the compile unit and the `dx.source.*` metadata, ahead of the module's other named
/// metadata. Call once, after every function is lowered.
pub(crate) fn finish(m: &mut ir::Module, d: &DebugOptions) {
    let main_file = di_file(m, d, d.main);
    let empty = m.md_node(vec![]);
    let subprograms: Vec<MdOperand> = m
        .md_nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.special.as_ref().is_some_and(|s| s.class == "DISubprogram"))
        .map(|(i, _)| MdOperand::Node(MdId(i as u32)))
        .collect();
    let subprograms = m.md_node(subprograms);
    let cu = m.md_special(
        "DICompileUnit",
        true,
        vec![
            ("language", raw("DW_LANG_C_plus_plus")),
            ("file", Field::Node(Some(main_file))),
            ("producer", Field::Str(PRODUCER.to_string())),
            ("isOptimized", raw(d.optimized)),
            ("runtimeVersion", raw(0)),
            ("emissionKind", raw(1)),
            ("enums", Field::Node(Some(empty))),
            ("subprograms", Field::Node(Some(subprograms))),
        ],
    );
    let mut named: Vec<(String, Vec<MdId>)> = vec![("llvm.dbg.cu".into(), vec![cu])];
    let two = m.md_i32(2);
    let dwarf = m.md_i32(4);
    let div = m.md_i32(3);
    let f1 = m.md_node(vec![two.clone(), MdOperand::String("Dwarf Version".into()), dwarf]);
    let f2 = m.md_node(vec![two, MdOperand::String("Debug Info Version".into()), div]);
    named.push(("llvm.module.flags".into(), vec![f1, f2]));
    // The main file first, then the files it includes, in the order they were read (not the
    // preprocessor's `<built-in>` and `<command line>` buffers).
    let mut files = vec![d.main];
    files.extend((0..d.files.len() as u32).map(FileId).filter(|f| {
        let name = &d.files.file(*f).name;
        *f != d.main && !(name.starts_with('<') && name.ends_with('>'))
    }));
    let contents: Vec<MdId> = files
        .iter()
        .map(|f| {
            let file = d.files.file(*f);
            m.md_node(vec![MdOperand::String(file.name.clone()), MdOperand::String(file.text.clone())])
        })
        .collect();
    named.push(("dx.source.contents".into(), contents));
    let defines = m.md_node(d.defines.iter().map(|s| MdOperand::String(s.clone())).collect());
    named.push(("dx.source.defines".into(), vec![defines]));
    let main_name = m.md_node(vec![MdOperand::String(d.files.file(d.main).name.clone())]);
    named.push(("dx.source.mainFileName".into(), vec![main_name]));
    let args = m.md_node(d.args.iter().map(|s| MdOperand::String(s.clone())).collect());
    named.push(("dx.source.args".into(), vec![args]));
    let rest = std::mem::take(&mut m.named_md);
    m.named_md.extend(named);
    m.named_md.extend(rest);
}

impl Lowerer<'_> {
    /// Where clang puts an expression's location (`Expr::getExprLoc`), which dxc's `!dbg` uses:
    /// the operator of a binary, assignment or conditional expression, the member name of a
    /// field access or swizzle, the operand of an implicit conversion, else the start.
    pub(crate) fn expr_location(&self, e: tast::ExprId) -> Span {
        let t = self.t;
        let span = t.expr_span(e);
        let after = |sub: tast::ExprId, skip_dot: bool| -> Option<Span> {
            let d = self.opts.debug.as_ref()?;
            let s = t.expr_span(sub);
            if s.file != span.file {
                return None;
            }
            let text = d.files.file(s.file).text.as_bytes();
            let mut i = s.end as usize;
            while i < text.len() && (text[i].is_ascii_whitespace() || (skip_dot && text[i] == b'.')) {
                i += 1;
            }
            (i < text.len() && i < span.end as usize).then(|| Span::new(s.file, i as u32, i as u32 + 1))
        };
        let found = match &t.expr(e).kind {
            tast::ExprKind::Binary { lhs, .. }
            | tast::ExprKind::Assign { lhs, .. }
            | tast::ExprKind::CompoundAssign { lhs, .. }
            | tast::ExprKind::Comma { lhs, .. } => after(*lhs, false),
            tast::ExprKind::Ternary { cond, .. } => after(*cond, false),
            tast::ExprKind::Field { base, .. } | tast::ExprKind::Swizzle { base, .. } | tast::ExprKind::MatrixSwizzle { base, .. } => {
                after(*base, true)
            }
            tast::ExprKind::Cast { expr, explicit: false, .. } => Some(self.expr_location(*expr)),
            _ => None,
        };
        found.unwrap_or(span)
    }

    /// Attaches the location of `span` to the instructions appended from now on (in the current
    /// function's subprogram; none for code from another file); returns the previous one for
    /// [`Lowerer::restore_location`].
    pub(crate) fn set_location(&mut self, span: Option<Span>) -> Option<MdId> {
        let saved = self.b.loc;
        let (Some((scope, file)), Some(d), Some(span)) = (self.debug_scope, self.opts.debug.as_ref(), span) else {
            return saved;
        };
        if span.file != file {
            self.b.loc = None;
            return saved;
        }
        let (line, col) = d.files.file(span.file).line_col(span.start);
        let loc = self.b.module.md_special("DILocation", false, vec![("line", raw(line)), ("column", raw(col)), ("scope", Field::Node(Some(scope)))]);
        self.b.loc = Some(loc);
        saved
    }

    pub(crate) fn restore_location(&mut self, saved: Option<MdId>) {
        self.b.loc = saved;
    }
}
