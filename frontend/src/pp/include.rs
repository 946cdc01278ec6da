//! `#include`: the file name (written or macro-expanded), the search (the including file's
//! folder for `"..."`, then the `-I` folders, then the [`super::IncludeHandler`]), `#pragma once`
//! identity and the depth limit.

use super::expand::{FileKind, Source, XTok};
use super::lines::{FileChange, FileChangeKind};
use super::{Pp, MAX_INCLUDE_DEPTH};
use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token};
use crate::source::{FileId, Span};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What makes two includes the same file for `#pragma once`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FileKey {
    /// A file on disk, by canonical path.
    Path(PathBuf),
    /// A file from the include handler (or a main file not on disk), by name.
    Virtual(String),
}

/// The folder of a file name (`""` for a bare name: the current folder).
pub(crate) fn parent_dir(name: &str) -> Option<PathBuf> {
    Some(Path::new(name).parent().map(Path::to_path_buf).unwrap_or_default())
}

pub(crate) fn key_for_path(p: &Path) -> FileKey {
    FileKey::Path(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()))
}

fn bad_name(span: Span) -> Diagnostic {
    Diagnostic::error("expected \"FILENAME\" or <FILENAME>").with_code("E0067").at(span)
}

/// A found include: its file, identity and folder.
struct Found {
    id: FileId,
    key: FileKey,
    dir: Option<PathBuf>,
}

impl Pp<'_> {
    /// `#include` with the tokens after `include`; `span` is `#include`.
    pub fn include(&mut self, rest: &[Token], span: Span) {
        let Some((name, angled, name_span)) = self.include_name(rest, span) else { return };
        if self.collecting > 0 {
            self.report(
                Diagnostic::error("#include inside macro arguments is not supported").with_code("E0067").at(span),
            );
            return;
        }
        if name.is_empty() {
            self.report(Diagnostic::error("empty filename").with_code("E0067").at(name_span));
            return;
        }
        if self.file_depth > MAX_INCLUDE_DEPTH {
            self.report(
                Diagnostic::fatal(format!("#include nested too deeply (more than {MAX_INCLUDE_DEPTH} levels)"))
                    .with_code("E0068")
                    .at(span),
            );
            return;
        }
        let (includer, dir) = match self.stack.last() {
            Some(Source::File(f)) => (f.file, f.dir.clone()),
            _ => (self.main, None),
        };
        let Some(found) = self.find_include(&name, angled, dir, includer) else {
            self.report(Diagnostic::fatal(format!("'{name}' file not found")).with_code("E0069").at(name_span));
            return;
        };
        if self.once.contains(&found.key) {
            return;
        }
        let sf = self.sm.file(includer);
        let include_line = self.lines.line_of_phys(includer, sf.line_index(span.start) as u32);
        let directive_end = rest.last().map_or(span, |t| t.span);
        self.changes.push(FileChange {
            before_token: self.out.len(),
            kind: FileChangeKind::Enter { include_line: Some(include_line) },
            line: 1,
            name: Rc::from(self.sm.file(found.id).name.as_str()),
        });
        self.push_file(found.id, FileKind::Included { directive_end }, found.dir, Some(found.key));
    }

    /// The file name: `"name"`, `<name>` (spelled as written), or macros expanding to either.
    fn include_name(&mut self, rest: &[Token], span: Span) -> Option<(String, bool, Span)> {
        let direct = match rest.first() {
            Some(t) if t.kind == Tok::Str => Some((0usize, rest)),
            Some(t) if t.kind == Tok::Lt => Some((0, rest)),
            Some(_) => None,
            None => {
                self.report(bad_name(span));
                return None;
            }
        };
        let expanded: Vec<Token>;
        let toks: &[Token] = match direct {
            Some((_, r)) => r,
            None => {
                let x: Vec<XTok> = rest.iter().map(|t| XTok { tok: t.clone(), no_expand: false }).collect();
                expanded = self.expand_list(x, false).into_iter().map(|t| t.tok).collect();
                &expanded
            }
        };
        let first = toks.first()?;
        let (name, angled, name_span, used) = if first.kind == Tok::Str {
            let inner = first.text.get(1..first.text.len().saturating_sub(1)).unwrap_or("");
            (inner.to_string(), false, first.span, 1)
        } else if first.kind == Tok::Lt {
            let Some(close) = toks.iter().position(|t| t.kind == Tok::Gt) else {
                self.report(Diagnostic::error("expected '>'").with_code("E0067").at(first.span));
                return None;
            };
            let last = &toks[close];
            let same_text = direct.is_some() && first.span.file == last.span.file;
            let name = if same_text {
                self.sm.snippet(Span::new(first.span.file, first.span.end, last.span.start)).to_string()
            } else {
                let mut s = String::new();
                for (i, t) in toks[1..close].iter().enumerate() {
                    if i > 0 && t.leading_space {
                        s.push(' ');
                    }
                    s.push_str(&t.text);
                }
                s
            };
            (name, true, first.span.to(last.span), close + 1)
        } else {
            self.report(bad_name(first.span));
            return None;
        };
        if let Some(extra) = toks.get(used) {
            self.report(
                Diagnostic::warning("extra tokens at end of #include directive")
                    .with_code("-Wextra-tokens")
                    .at(extra.span),
            );
        }
        Some((name, angled, name_span))
    }

    fn find_include(&mut self, name: &str, angled: bool, dir: Option<PathBuf>, includer: FileId) -> Option<Found> {
        if self.opts.use_filesystem {
            // `#include "dir\file.h"`: a backslash separates path components, as on Windows.
            let fs_name = if cfg!(windows) { name.to_string() } else { name.replace('\\', "/") };
            let mut candidates: Vec<PathBuf> = Vec::new();
            if !angled {
                if let Some(d) = dir {
                    candidates.push(d.join(&fs_name));
                }
            }
            candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(&fs_name)));
            for c in candidates {
                if !c.is_file() {
                    continue;
                }
                let key = key_for_path(&c);
                if let Some(&id) = self.file_ids.get(&key) {
                    return Some(Found { id, key, dir: c.parent().map(Path::to_path_buf) });
                }
                let Ok(bytes) = std::fs::read(&c) else { continue };
                let display = c.display().to_string();
                let text = self.decode(bytes, &display);
                let id = self.sm.add(display, text);
                self.file_ids.insert(key.clone(), id);
                return Some(Found { id, key, dir: c.parent().map(Path::to_path_buf) });
            }
        }
        let includer_name = self.sm.file(includer).name.clone();
        let handler = self.handler.as_mut()?;
        let f = handler.include(name, &includer_name, angled)?;
        let key = FileKey::Virtual(f.name.clone());
        let dir = parent_dir(&f.name);
        if let Some(&id) = self.file_ids.get(&key) {
            return Some(Found { id, key, dir });
        }
        let text = f.text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(f.text);
        let id = self.sm.add(f.name, text);
        self.file_ids.insert(key.clone(), id);
        Some(Found { id, key, dir })
    }

    /// File bytes as text: a UTF-8 byte-order mark dropped, invalid UTF-8 replaced (with a
    /// warning).
    fn decode(&mut self, bytes: Vec<u8>, name: &str) -> String {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").map(<[u8]>::to_vec).unwrap_or(bytes);
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                self.report(
                    Diagnostic::warning(format!("'{name}' is not valid UTF-8; invalid bytes were replaced"))
                        .with_code("-Winvalid-source-encoding"),
                );
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        }
    }
}
