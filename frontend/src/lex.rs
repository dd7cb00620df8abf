//! Lexing of OpenCL C source text into preprocessing tokens (C99 translation phases 1–3).
//!
//! Backslash-newline pairs are spliced wherever they occur, comments become whitespace, and each
//! token records whether whitespace precedes it and whether it starts a line (the preprocessor
//! needs both). Numbers are lexed as C "pp-numbers"; their value is decided by the parser.

use crate::diag::{Diagnostic, codes};
use crate::source::{FileId, Span};
use std::rc::Rc;

/// C punctuators (plus OpenCL's reserved `^^`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum P {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    CaretCaret,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    Comma,
    Hash,
    HashHash,
    /// `::`, a punctuator of C++ for OpenCL only.
    ColonColon,
}

/// Punctuator spellings, longest first so the lexer can match greedily.
const PUNCTS: &[(&str, P)] = &[
    ("...", P::Ellipsis),
    ("<<=", P::ShlAssign),
    (">>=", P::ShrAssign),
    ("->", P::Arrow),
    ("++", P::PlusPlus),
    ("--", P::MinusMinus),
    ("<<", P::Shl),
    (">>", P::Shr),
    ("<=", P::Le),
    (">=", P::Ge),
    ("==", P::EqEq),
    ("!=", P::Ne),
    ("&&", P::AmpAmp),
    ("||", P::PipePipe),
    ("^^", P::CaretCaret),
    ("*=", P::StarAssign),
    ("/=", P::SlashAssign),
    ("%=", P::PercentAssign),
    ("+=", P::PlusAssign),
    ("-=", P::MinusAssign),
    ("&=", P::AmpAssign),
    ("|=", P::PipeAssign),
    ("^=", P::CaretAssign),
    ("##", P::HashHash),
    ("::", P::ColonColon),
    ("[", P::LBracket),
    ("]", P::RBracket),
    ("(", P::LParen),
    (")", P::RParen),
    ("{", P::LBrace),
    ("}", P::RBrace),
    (".", P::Dot),
    ("&", P::Amp),
    ("*", P::Star),
    ("+", P::Plus),
    ("-", P::Minus),
    ("~", P::Tilde),
    ("!", P::Bang),
    ("/", P::Slash),
    ("%", P::Percent),
    ("<", P::Lt),
    (">", P::Gt),
    ("^", P::Caret),
    ("|", P::Pipe),
    ("?", P::Question),
    (":", P::Colon),
    (";", P::Semi),
    ("=", P::Assign),
    (",", P::Comma),
    ("#", P::Hash),
];

impl P {
    pub fn spelling(self) -> &'static str {
        PUNCTS.iter().find(|(_, p)| *p == self).map(|(s, _)| *s).unwrap_or("?")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokKind {
    Ident,
    Number,
    Char,
    Str,
    Punct(P),
    /// A `#pragma` line (or `_Pragma`) handed to the parser; `text` holds the pragma body and
    /// `pragma` its tokens.
    Pragma,
    Eof,
}

/// A preprocessing token.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokKind,
    /// The spelling, after line splicing.
    pub text: Rc<str>,
    /// Where diagnostics about this token point: its own position, or for tokens produced by a
    /// macro expansion, the position of the outermost macro invocation.
    pub span: Span,
    /// For tokens produced by a macro expansion: where the token was spelled in the definition.
    pub origin: Option<Span>,
    pub leading_space: bool,
    pub line_start: bool,
    /// Macros that must not be expanded again from this token (Prosser's hide set).
    pub hideset: Option<Rc<Vec<Rc<str>>>>,
    /// The tokens of a `Pragma` token.
    pub pragma: Option<Rc<Vec<Token>>>,
}

impl Token {
    pub fn new(kind: TokKind, text: impl Into<Rc<str>>, span: Span) -> Token {
        Token {
            kind,
            text: text.into(),
            span,
            origin: None,
            leading_space: false,
            line_start: false,
            hideset: None,
            pragma: None,
        }
    }

    pub fn is_punct(&self, p: P) -> bool {
        self.kind == TokKind::Punct(p)
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokKind::Ident && &*self.text == name
    }

    pub fn is_eof(&self) -> bool {
        self.kind == TokKind::Eof
    }

    pub fn hidden(&self, name: &str) -> bool {
        self.hideset.as_ref().is_some_and(|h| h.iter().any(|n| &**n == name))
    }
}

struct Lexer<'a> {
    src: &'a [u8],
    /// C++ for OpenCL: `::` is one token.
    cxx: bool,
    pos: usize,
    file: FileId,
    diags: Vec<Diagnostic>,
}

impl<'a> Lexer<'a> {
    /// Skips any backslash-newline splices at `pos` and returns the position of the next real
    /// character.
    fn skip_splices(&self, mut pos: usize) -> usize {
        loop {
            if self.src.get(pos) == Some(&b'\\') {
                if self.src.get(pos + 1) == Some(&b'\n') {
                    pos += 2;
                    continue;
                }
                if self.src.get(pos + 1) == Some(&b'\r') && self.src.get(pos + 2) == Some(&b'\n') {
                    pos += 3;
                    continue;
                }
            }
            return pos;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.skip_splices(self.pos)).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        let mut p = self.skip_splices(self.pos);
        for _ in 0..n {
            p = self.skip_splices(p + 1);
        }
        self.src.get(p).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let p = self.skip_splices(self.pos);
        let c = self.src.get(p).copied();
        if c.is_some() {
            self.pos = p + 1;
        }
        c
    }

    fn span(&self, lo: usize) -> Span {
        Span::new(self.file, lo as u32, self.pos as u32)
    }

    /// Skips whitespace and comments. Returns (saw_whitespace, saw_newline).
    fn skip_space(&mut self) -> (bool, bool) {
        let mut space = false;
        let mut newline = false;
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r') => {
                    self.bump();
                    space = true;
                }
                Some(b'\n') => {
                    self.bump();
                    space = true;
                    newline = true;
                }
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                    space = true;
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let lo = self.skip_splices(self.pos);
                    self.bump();
                    self.bump();
                    let mut closed = false;
                    while let Some(c) = self.bump() {
                        if c == b'\n' {
                            newline = true;
                        }
                        if c == b'*' && self.peek() == Some(b'/') {
                            self.bump();
                            closed = true;
                            break;
                        }
                    }
                    if !closed {
                        self.diags.push(
                            Diagnostic::error(codes::UNTERMINATED_COMMENT, "unterminated block comment")
                                .at_labeled(Span::new(self.file, lo as u32, lo as u32 + 2), "comment starts here"),
                        );
                    }
                    space = true;
                }
                _ => return (space, newline),
            }
        }
    }

    fn lex_quoted(&mut self, quote: u8, lo: usize, text: &mut Vec<u8>) -> TokKind {
        text.push(quote);
        self.bump();
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    let what = if quote == b'"' { "string" } else { "character" };
                    self.diags.push(
                        Diagnostic::error(codes::UNTERMINATED_LITERAL, format!("unterminated {what} literal"))
                            .at(self.span(lo)),
                    );
                    break;
                }
                Some(c) => {
                    self.bump();
                    text.push(c);
                    if c == b'\\' {
                        if let Some(n) = self.peek()
                            && n != b'\n'
                        {
                            self.bump();
                            text.push(n);
                        }
                    } else if c == quote {
                        break;
                    }
                }
            }
        }
        if quote == b'"' { TokKind::Str } else { TokKind::Char }
    }

    fn next_token(&mut self) -> Option<Token> {
        let (space, newline) = self.skip_space();
        let lo = self.skip_splices(self.pos);
        self.pos = lo;
        let c = self.peek()?;
        let mut text = Vec::new();
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while let Some(c) = self.peek() {
                if c.is_ascii_alphanumeric() || c == b'_' {
                    text.push(c);
                    self.bump();
                } else {
                    break;
                }
            }
            TokKind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit())) {
            while let Some(c) = self.peek() {
                if matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(self.peek_at(1), Some(b'+' | b'-')) {
                    text.push(c);
                    self.bump();
                    text.push(self.bump().unwrap_or(b'+'));
                } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                    text.push(c);
                    self.bump();
                } else {
                    break;
                }
            }
            TokKind::Number
        } else if c == b'"' || c == b'\'' {
            self.lex_quoted(c, lo, &mut text)
        } else {
            let rest = &self.src[lo..];
            // Punctuators never contain splices in practice; match on the raw bytes.
            let found = PUNCTS
                .iter()
                .filter(|(_, p)| self.cxx || *p != P::ColonColon)
                .find(|(s, _)| rest.starts_with(s.as_bytes()));
            match found {
                Some((s, p)) => {
                    for _ in 0..s.len() {
                        self.bump();
                    }
                    text.extend_from_slice(s.as_bytes());
                    TokKind::Punct(*p)
                }
                None => {
                    // Consume one whole UTF-8 character for the diagnostic span.
                    let len = std::str::from_utf8(&self.src[lo..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .map(char::len_utf8)
                        .unwrap_or_else(|| utf8_len(c));
                    self.pos = (lo + len).min(self.src.len());
                    let shown = String::from_utf8_lossy(&self.src[lo..self.pos]).into_owned();
                    self.diags.push(
                        Diagnostic::error(
                            codes::INVALID_CHAR,
                            format!("invalid character `{}` in source", shown.escape_default()),
                        )
                        .at(self.span(lo)),
                    );
                    return self.next_token();
                }
            }
        };
        let text = String::from_utf8_lossy(&text).into_owned();
        let mut tok = Token::new(kind, text, self.span(lo));
        tok.leading_space = space;
        tok.line_start = newline;
        Some(tok)
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Lexes a whole file of OpenCL C. The result always ends with an `Eof` token.
pub fn lex(file: FileId, text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    lex_language(file, text, false)
}

/// Lexes a whole file of OpenCL C, or of C++ for OpenCL when `cxx` is set (`::` is one token).
pub fn lex_language(file: FileId, text: &str, cxx: bool) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lx = Lexer { src: text.as_bytes(), cxx, pos: 0, file, diags: Vec::new() };
    let mut toks = Vec::new();
    let mut first = true;
    while let Some(mut t) = lx.next_token() {
        if first {
            t.line_start = true;
            first = false;
        }
        toks.push(t);
    }
    let end = text.len() as u32;
    let mut eof = Token::new(TokKind::Eof, "", Span::new(file, end, end));
    eof.line_start = true;
    toks.push(eof);
    (toks, lx.diags)
}

/// Lexes a string that must form exactly one token (used by `##`). Returns `None` otherwise.
pub fn lex_single(text: &str, span: Span, cxx: bool) -> Option<Token> {
    let (toks, diags) = lex_language(span.file, text, cxx);
    if !diags.is_empty() || toks.len() != 2 {
        return None;
    }
    let mut t = toks.into_iter().next()?;
    t.span = span;
    t.line_start = false;
    t.leading_space = false;
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<String> {
        lex(FileId(0), src).0.iter().map(|t| t.text.to_string()).collect()
    }

    #[test]
    fn punctuators_are_greedy() {
        assert_eq!(kinds("a<<=b>>c...d->e"), ["a", "<<=", "b", ">>", "c", "...", "d", "->", "e", ""]);
    }

    #[test]
    fn splices_and_comments() {
        assert_eq!(kinds("in\\\nt x; // c\n/* d */ y"), ["int", "x", ";", "y", ""]);
        let (toks, _) = lex(FileId(0), "a\n  b /*\n*/ c");
        assert!(toks[1].line_start && toks[1].leading_space);
        assert!(toks[2].line_start, "a newline inside a block comment starts a line");
    }

    #[test]
    fn pp_numbers() {
        assert_eq!(kinds("1e+5 0x1fU .5f 1.0e-3f 12ul"), ["1e+5", "0x1fU", ".5f", "1.0e-3f", "12ul", ""]);
    }

    #[test]
    fn unterminated_and_invalid() {
        let (_, d) = lex(FileId(0), "\"abc\nint @ x; /* open");
        let codes: Vec<_> = d.iter().map(|d| d.code.0).collect();
        assert_eq!(codes, ["E0103", "E0101", "E0102"]);
    }
}
