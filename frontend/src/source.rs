//! Source files and spans.
//!
//! Every file the compiler reads (the main file, each `#include`d file, the command-line `-D`
//! definitions) is added to one [`SourceMap`] and named by a [`FileId`]. A [`Span`] is a byte range
//! in one file. Tokens produced by macro expansion carry the span of the macro invocation, so every
//! span points at text the user wrote.

use std::ops::Range;

/// Index of a file in a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `[start, end)` in one source file. Invariant: `start <= end <= file length`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }
    /// The smallest span covering both (when they are in one file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One source file: its display name, its text and the byte offsets where its lines start.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        SourceFile { line_starts: line_starts(text.as_bytes()), name, text }
    }

    /// Zero-based line index of a byte offset.
    pub fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte range of a zero-based line, without its line terminator.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let start = self.line_starts[line] as usize;
        let mut end = self.line_starts.get(line + 1).map_or(self.text.len(), |&e| e as usize);
        let bytes = self.text.as_bytes();
        while end > start && (bytes[end - 1] == b'\n' || bytes[end - 1] == b'\r') {
            end -= 1;
        }
        start..end
    }

    /// One-based line and column (column counted in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let off = (offset as usize).min(self.text.len());
        let col = self.text.get(start..off).map_or(off - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// Offsets just past each `\n`, after a leading 0. Scans eight bytes at a time and looks at
/// single bytes only in words that hold a newline (lines average some 40 bytes).
fn line_starts(bytes: &[u8]) -> Vec<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
    out.push(0u32);
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0usize;
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) ^ (ONES * b'\n' as u64);
        // Some byte of `w` is zero (was a newline); may flag a false positive, never a miss.
        if w.wrapping_sub(ONES) & !w & HIGHS != 0 {
            for (i, &b) in c.iter().enumerate() {
                if b == b'\n' {
                    out.push((base + i) as u32 + 1);
                }
            }
        }
        base += 8;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == b'\n' {
            out.push((base + i) as u32 + 1);
        }
    }
    out
}

/// All files of one compilation. Files are never removed, so a [`FileId`] stays valid.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file. Text that is not valid UTF-8 must be converted (lossily) by the caller, which
    /// should also report it.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        self.file(span.file).text.get(span.range()).unwrap_or("")
    }
}

impl<'a> codespan_reporting::files::Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files.get(id.0 as usize).map(|f| f.name.as_str()).ok_or(codespan_reporting::files::Error::FileMissing)
    }
    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files.get(id.0 as usize).map(|f| f.text.as_str()).ok_or(codespan_reporting::files::Error::FileMissing)
    }
    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        let f = self.files.get(id.0 as usize).ok_or(codespan_reporting::files::Error::FileMissing)?;
        Ok(f.line_index(byte_index as u32))
    }
    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let f = self.files.get(id.0 as usize).ok_or(codespan_reporting::files::Error::FileMissing)?;
        if line_index >= f.line_starts.len() {
            return Err(codespan_reporting::files::Error::LineTooLarge { given: line_index, max: f.line_starts.len() - 1 });
        }
        let start = f.line_starts[line_index] as usize;
        let end = f.line_starts.get(line_index + 1).map_or(f.text.len(), |&e| e as usize);
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_starts_match_a_plain_scan() {
        let texts = ["", "\n", "a\nb", "0123456\n89abcdef\n\n\n", "no newline at all here, long enough for words", "\r\n\r\nx\u{2028}\n"];
        for t in texts {
            let mut want = vec![0u32];
            want.extend(t.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
            assert_eq!(line_starts(t.as_bytes()), want, "{t:?}");
        }
    }

    #[test]
    fn line_col_counts_from_one() {
        let mut sm = SourceMap::new();
        let id = sm.add("a.hlsl", "ab\ncd\r\nef");
        let f = sm.file(id);
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(4), (2, 2));
        assert_eq!(f.line_col(7), (3, 1));
        assert_eq!(&f.text[f.line_range(1)], "cd");
    }
}
