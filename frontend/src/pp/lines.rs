//! Presumed locations (`#line`) and the file changes `-P` output marks.

use crate::source::{FileId, SourceMap, Span};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// One `#line` directive: from physical line `from_line` (zero-based) of `file` on, lines are
/// numbered from `line`, and the file is called `name` (`None`: its real name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineDirective {
    pub from_line: u32,
    pub line: u32,
    /// Shared between threads: the line map travels in a compile result, which is `Send + Sync`.
    pub name: Option<Arc<str>>,
}

/// The `#line` directives of a compilation, by file. Invariant: each file's list is sorted by
/// `from_line` with no duplicates.
#[derive(Clone, Debug, Default)]
pub struct LineMap {
    by_file: BTreeMap<FileId, Vec<LineDirective>>,
}

impl LineMap {
    pub fn is_empty(&self) -> bool {
        self.by_file.is_empty()
    }

    /// Records a directive (a file included twice reports its directives twice: kept once).
    pub(crate) fn add(&mut self, file: FileId, d: LineDirective) {
        let list = self.by_file.entry(file).or_default();
        match list.binary_search_by_key(&d.from_line, |x| x.from_line) {
            Ok(i) => list[i] = d,
            Err(i) => list.insert(i, d),
        }
    }

    fn entry(&self, file: FileId, phys_line: u32) -> Option<&LineDirective> {
        let list = self.by_file.get(&file)?;
        let i = list.partition_point(|d| d.from_line <= phys_line);
        if i == 0 {
            None
        } else {
            Some(&list[i - 1])
        }
    }

    /// The file name a `#line` directive gave for this physical line, if any.
    pub(crate) fn name_override(&self, file: FileId, phys_line: u32) -> Option<Arc<str>> {
        self.entry(file, phys_line).and_then(|d| d.name.clone())
    }

    /// The presumed (one-based) line of a zero-based physical line.
    pub fn line_of_phys(&self, file: FileId, phys_line: u32) -> u32 {
        match self.entry(file, phys_line) {
            Some(d) => d.line.wrapping_add(phys_line - d.from_line),
            None => phys_line + 1,
        }
    }

    /// The presumed file name at a zero-based physical line.
    pub fn name_at<'a>(&'a self, sm: &'a SourceMap, file: FileId, phys_line: u32) -> &'a str {
        match self.entry(file, phys_line).and_then(|d| d.name.as_deref()) {
            Some(n) => n,
            None => &sm.file(file).name,
        }
    }

    /// Presumed file name, line and (one-based, in characters) column of a span's start, as
    /// `#line` directives make them: what diagnostics that honour `#line` print.
    pub fn presumed<'a>(&'a self, sm: &'a SourceMap, span: Span) -> (&'a str, u32, u32) {
        let f = sm.file(span.file);
        let (line, col) = f.line_col(span.start);
        let phys = line as u32 - 1;
        (self.name_at(sm, span.file, phys), self.line_of_phys(span.file, phys), col as u32)
    }
}

/// Why the output moves to another file or line numbering (clang's `FileChanged` reasons).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChangeKind {
    /// Entering a file: the main file (no include line) or an `#include`d one; `include_line` is
    /// the presumed line of the `#include` in the including file.
    Enter { include_line: Option<u32> },
    /// Back in the including file after an `#include`.
    Exit,
    /// A `#line` directive.
    Rename,
}

/// A file change, placed before token `before_token` of the output (`tokens.len()`: at the end).
/// `line` and `name` are the presumed line and file name that follow the change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    pub before_token: usize,
    pub kind: FileChangeKind,
    pub line: u32,
    pub name: Rc<str>,
}
