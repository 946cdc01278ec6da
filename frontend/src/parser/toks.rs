//! The parser's input tokens: borrowed, or owned in chunks that are freed once parsed.
//!
//! A large source's preprocessed tokens (32 bytes each) were the largest thing in memory at the
//! end of its parse, next to the typed AST that sema builds as the declarations come: the
//! streaming parse ([`super::parse_each_owned`]) moves them into chunks of [`CHUNK`] tokens and
//! frees each chunk once the parser is past it and no error message can still need a spelling
//! from it ([`Toks::free_below`]).

use crate::lexer::Token;
use std::ops::Index;

const CHUNK_BITS: usize = 15;
/// Tokens per chunk (1 MiB of them).
pub const CHUNK: usize = 1 << CHUNK_BITS;

pub enum Toks<'a> {
    Slice(&'a [Token]),
    Chunks(Chunks),
}

/// Owned tokens in chunks of [`CHUNK`]; a freed chunk is empty.
pub struct Chunks {
    chunks: Vec<Box<[Token]>>,
    len: usize,
    /// Chunks below this one are freed.
    freed: usize,
}

impl Chunks {
    /// Moves the tokens into chunks, peeling them off the end of `v` and shrinking it as it
    /// goes, so the two together hold little more than the tokens once.
    pub fn from_vec(mut v: Vec<Token>) -> Chunks {
        let len = v.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        while !v.is_empty() {
            let start = (v.len() - 1) >> CHUNK_BITS << CHUNK_BITS;
            chunks.push(v.drain(start..).collect::<Box<[Token]>>());
            v.shrink_to_fit();
        }
        chunks.reverse();
        Chunks { chunks, len, freed: 0 }
    }
}

impl Toks<'_> {
    pub fn len(&self) -> usize {
        match self {
            Toks::Slice(s) => s.len(),
            Toks::Chunks(c) => c.len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Token `i`; `None` past the end or in a freed chunk.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Token> {
        match self {
            Toks::Slice(s) => s.get(i),
            Toks::Chunks(c) => c.chunks.get(i >> CHUNK_BITS)?.get(i & (CHUNK - 1)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Token> + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// Frees the chunks wholly below token `i` (owned tokens only).
    pub fn free_below(&mut self, i: usize) {
        if let Toks::Chunks(c) = self {
            let end = (i >> CHUNK_BITS).min(c.chunks.len());
            while c.freed < end {
                c.chunks[c.freed] = Box::new([]);
                c.freed += 1;
            }
        }
    }
}

impl Index<usize> for Toks<'_> {
    type Output = Token;
    #[inline]
    fn index(&self, i: usize) -> &Token {
        match self.get(i) {
            Some(t) => t,
            None => panic!("token {i} of {} is past the end or freed", self.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::source::FileId;

    #[test]
    fn chunks_keep_every_token_in_order_and_free_whole_chunks() {
        let text = "a + b ; ".repeat(CHUNK / 2 + 7);
        let v = lex(FileId(0), &text);
        let n = v.len();
        assert!(n > 2 * CHUNK);
        let expect: Vec<(u32, String)> = v.iter().map(|t| (t.span.start, t.text.to_string())).collect();
        let mut toks = Toks::Chunks(Chunks::from_vec(v));
        assert_eq!(toks.len(), n);
        let got: Vec<(u32, String)> = toks.iter().map(|t| (t.span.start, t.text.to_string())).collect();
        assert_eq!(got, expect);
        assert!(toks.get(n).is_none());
        toks.free_below(CHUNK + 5);
        assert!(toks.get(CHUNK - 1).is_none(), "the first chunk is freed");
        assert_eq!(toks[CHUNK].span.start, expect[CHUNK].0, "the chunk holding token CHUNK + 5 is kept");
        assert_eq!(toks[n - 1].text.to_string(), expect[n - 1].1);
    }
}
