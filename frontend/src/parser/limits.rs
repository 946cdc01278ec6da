//! Limits checked on the token stream before parsing, so that no input can build a syntax tree
//! deep enough to overflow the stack of a recursive walk (or of the recursive `Drop` of its
//! boxes): bracket nesting, and an upper bound on how deep any tree node can sit.

use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token};

/// Most `(`/`[`/`{` open at once (clang's default bracket depth).
pub const MAX_BRACKET_DEPTH: usize = 256;

/// Upper bound on syntax tree depth. Every tree level is owed to a token that can nest (an
/// operator, a bracket, `.`, `?`, or a statement keyword); the check counts those tokens in
/// everything still "open" at each point (the current statement and the statement heads of the
/// enclosing blocks) and refuses the file when the count passes this.
pub const MAX_TREE_DEPTH: usize = 2048;

fn nests(t: &Token, in_braces: bool) -> bool {
    match t.kind {
        Tok::Ident => matches!(&*t.text, "if" | "else" | "for" | "while" | "do" | "switch" | "sizeof"),
        // Commas directly inside `{}` separate list elements (flat); elsewhere they may build a
        // comma expression.
        Tok::Comma => !in_braces,
        Tok::Number | Tok::Str | Tok::Char | Tok::Pragma | Tok::Error(_) | Tok::Semi | Tok::RParen | Tok::RBracket => false,
        Tok::RBrace | Tok::Colon | Tok::ColonColon | Tok::Hash | Tok::HashHash => false,
        _ => true,
    }
}

/// Checks both limits; returns the diagnostic for the first violation.
pub fn check(toks: &super::toks::Toks) -> Option<Diagnostic> {
    // For each open bracket: its kind, and the nesting count saved when it opened.
    let mut open: Vec<(Tok, usize)> = Vec::new();
    let mut count = 0usize;
    let mut saved_total = 0usize;
    for (i, t) in toks.iter().enumerate() {
        let next_is_else = toks.get(i + 1).is_some_and(|n| n.is_ident("else"));
        let in_braces = open.last().is_some_and(|o| o.0 == Tok::LBrace);
        if nests(t, in_braces) {
            count += 1;
        }
        match t.kind {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                if open.len() >= MAX_BRACKET_DEPTH {
                    return Some(
                        Diagnostic::error(format!("nesting too deep: more than {MAX_BRACKET_DEPTH} levels of brackets"))
                            .at(t.span),
                    );
                }
                if t.kind == Tok::LBrace {
                    saved_total += count;
                    open.push((t.kind, count));
                    count = 0;
                } else {
                    open.push((t.kind, 0));
                }
            }
            Tok::RParen | Tok::RBracket => {
                if open.last().is_some_and(|o| o.0 != Tok::LBrace) {
                    open.pop();
                }
            }
            Tok::RBrace => {
                // Close any unbalanced `(`/`[` too, then the brace.
                while open.last().is_some_and(|o| o.0 != Tok::LBrace) {
                    open.pop();
                }
                if let Some((_, saved)) = open.pop() {
                    saved_total -= saved;
                    count = saved;
                }
                if !next_is_else {
                    count = 0;
                }
            }
            // A comma directly inside `{}` ends an init-list element (or enumerator): each
            // element is its own tree.
            Tok::Comma if in_braces => count = 0,
            Tok::Semi if !next_is_else && !open.last().is_some_and(|o| o.0 != Tok::LBrace) => count = 0,
            _ => {}
        }
        if saved_total + count > MAX_TREE_DEPTH {
            return Some(
                Diagnostic::error(format!(
                    "nesting too deep: expression or statement nested more than {MAX_TREE_DEPTH} levels"
                ))
                .at(t.span),
            );
        }
    }
    None
}
