//! Recursive-descent parser for OpenCL C: preprocessed tokens to [`ast`].
//!
//! The parser tracks typedef names per scope (the C "lexer hack") and knows OpenCL's built-in
//! type names (`uint`, `int4`, `size_t`, ...). Loop pragmas and loop attributes are attached to
//! the loop that follows them. On a syntax error it reports once and skips to the next `;` or `}`
//! so that one mistake does not cascade.

use crate::ast::*;
use crate::diag::{Diagnostic, codes};
use crate::lex::{P, TokKind, Token};
use crate::options::ClStd;
use crate::source::Span;
use crate::types::{builtin_type_name, builtin_type_name_cl2};
use std::collections::HashMap;
use std::rc::Rc;

/// Keywords that can never be identifiers.
const KEYWORDS: &[&str] = &[
    "auto",
    "true",
    "false",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "bool",
    "half",
    "__kernel",
    "kernel",
    "__global",
    "global",
    "__local",
    "local",
    "__constant",
    "constant",
    "__private",
    "private",
    "__generic",
    "generic",
    "__read_only",
    "read_only",
    "__write_only",
    "write_only",
    "__read_write",
    "read_write",
    "__attribute__",
    "uniform",
    "complex",
    "imaginary",
    "vec_step",
    "__inline",
    "__inline__",
    "__restrict",
    "__restrict__",
    "__const",
    "__volatile",
    "_Alignof",
    "__alignof__",
    "_Atomic",
];

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    pub diags: Vec<Diagnostic>,
    /// name → is a typedef name, per scope (innermost last).
    scopes: Vec<HashMap<Rc<str>, bool>>,
    std: ClStd,
    /// Set after an error until the parser has resynchronized, to suppress cascades.
    recovering: bool,
    /// `channel` is a type keyword once `cl_intel_channels` (or `cl_altera_channels`) is enabled.
    channels: bool,
}

/// Parse errors are recorded in `Parser::diags` when they happen; `Err(())` only unwinds to the
/// nearest recovery point.
#[allow(clippy::result_unit_err)]
type PResult<T> = Result<T, ()>;

fn is_keyword(s: &str, std: ClStd) -> bool {
    KEYWORDS.contains(&s) || (s == "pipe" && std >= ClStd::Cl2_0)
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token], std: ClStd) -> Self {
        Parser {
            toks,
            pos: 0,
            diags: Vec::new(),
            scopes: vec![HashMap::new()],
            std,
            recovering: false,
            channels: false,
        }
    }

    // ----- token helpers -----

    fn tok(&self) -> &Token {
        let i = self.pos.min(self.toks.len() - 1);
        &self.toks[i]
    }

    fn nth(&self, n: usize) -> &Token {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i]
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn at(&self, p: P) -> bool {
        self.tok().is_punct(p)
    }

    fn at_kw(&self, kw: &str) -> bool {
        self.tok().is_ident(kw)
    }

    fn eat(&mut self, p: P) -> bool {
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn prev_span(&self) -> Span {
        if self.pos == 0 { self.tok().span } else { self.toks[self.pos - 1].span }
    }

    fn error(&mut self, d: Diagnostic) {
        if !self.recovering {
            self.diags.push(d);
        }
        self.recovering = true;
    }

    fn expect(&mut self, p: P, what: &str) -> PResult<Span> {
        if self.at(p) {
            return Ok(self.bump().span);
        }
        let t = self.tok().clone();
        let found = if t.is_eof() { "end of file".to_string() } else { format!("`{}`", t.text) };
        let code = if t.is_eof() { codes::UNEXPECTED_EOF } else { codes::EXPECTED_TOKEN };
        let span = if t.is_eof() { self.prev_span() } else { t.span };
        self.error(Diagnostic::error(code, format!("expected `{}` {what}, found {found}", p.spelling())).at(span));
        Err(())
    }

    fn expect_ident(&mut self, what: &str) -> PResult<(Name, Span)> {
        let t = self.tok().clone();
        if t.kind == TokKind::Ident {
            if is_keyword(&t.text, self.std) {
                self.error(
                    Diagnostic::error(
                        codes::RESERVED_IDENT,
                        format!("`{}` is a keyword and cannot be used as {what}", t.text),
                    )
                    .at(t.span),
                );
                return Err(());
            }
            self.bump();
            return Ok((t.text.clone(), t.span));
        }
        let found = if t.is_eof() { "end of file".to_string() } else { format!("`{}`", t.text) };
        self.error(Diagnostic::error(codes::EXPECTED_TOKEN, format!("expected {what}, found {found}")).at(t.span));
        Err(())
    }

    /// Skips to just after the next `;` at nesting depth 0, or to a `}` closing the current
    /// block (not consumed).
    fn sync_stmt(&mut self) {
        let mut depth = 0i32;
        loop {
            let t = self.tok();
            if t.is_eof() {
                break;
            }
            match t.kind {
                TokKind::Punct(P::LBrace) | TokKind::Punct(P::LParen) | TokKind::Punct(P::LBracket) => depth += 1,
                // Recovery may start inside parentheses (a bad parameter list): closing them
                // must not hide the body braces that follow.
                TokKind::Punct(P::RParen) | TokKind::Punct(P::RBracket) => depth = (depth - 1).max(0),
                TokKind::Punct(P::RBrace) => {
                    if depth <= 0 {
                        break;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        break;
                    }
                }
                TokKind::Punct(P::Semi) if depth <= 0 => {
                    self.bump();
                    break;
                }
                _ => {}
            }
            self.bump();
        }
        self.recovering = false;
    }

    // ----- scopes -----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn declare(&mut self, name: &Name, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.clone(), is_typedef);
        }
    }

    fn is_typedef_name(&self, name: &str) -> bool {
        for s in self.scopes.iter().rev() {
            if let Some(&t) = s.get(name) {
                return t;
            }
        }
        builtin_type_name(name).is_some() || (self.std >= ClStd::Cl2_0 && builtin_type_name_cl2(name).is_some())
    }

    /// Can the current token start declaration specifiers?
    fn starts_decl(&self) -> bool {
        let t = self.tok();
        if t.kind != TokKind::Ident {
            return false;
        }
        match &*t.text {
            "void" | "char" | "short" | "int" | "long" | "float" | "double" | "signed" | "unsigned" | "_Bool"
            | "bool" | "half" | "_Complex" | "complex" | "_Imaginary" | "imaginary" | "struct" | "union" | "enum"
            | "const" | "__const" | "volatile" | "__volatile" | "restrict" | "__restrict" | "__restrict__"
            | "typedef" | "extern" | "static" | "auto" | "register" | "inline" | "__inline" | "__inline__"
            | "__kernel" | "kernel" | "__global" | "global" | "__local" | "local" | "__constant" | "constant"
            | "__private" | "private" | "__generic" | "generic" | "__read_only" | "read_only" | "__write_only"
            | "write_only" | "__read_write" | "read_write" | "__attribute__" | "_Atomic" => true,
            "pipe" => self.std >= ClStd::Cl2_0,
            "channel" if self.channels => true,
            s => self.is_typedef_name(s),
        }
    }

    // ----- translation unit -----

    pub fn parse_translation_unit(&mut self) -> TranslationUnit {
        let mut items = Vec::new();
        while !self.tok().is_eof() {
            if self.tok().kind == TokKind::Pragma {
                let p = self.pragma();
                let words: Vec<&str> = p.words.iter().map(|(w, _)| &**w).collect();
                if let ["OPENCL", "EXTENSION", "cl_intel_channels" | "cl_altera_channels", ":", action] = words[..] {
                    self.channels = action == "enable";
                }
                items.push(ExternalDecl::Pragma(p));
                continue;
            }
            if self.eat(P::Semi) {
                continue;
            }
            let start = self.pos;
            match self.external_decl() {
                Ok(d) => items.push(d),
                Err(()) => {
                    self.sync_stmt();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        TranslationUnit { items }
    }

    fn pragma(&mut self) -> Pragma {
        let t = self.bump();
        let words = t.pragma.as_ref().map(|v| v.iter().map(|w| (w.text.clone(), w.span)).collect()).unwrap_or_default();
        Pragma { words, span: t.span }
    }

    fn external_decl(&mut self) -> PResult<ExternalDecl> {
        let start = self.tok().span;
        if !self.starts_decl() {
            let t = self.tok().clone();
            if t.kind == TokKind::Ident && self.nth(1).is_punct(P::LParen) {
                // `foo(...) {` — a function without a return type (implicit int).
                self.error(
                    Diagnostic::error(
                        codes::EXPECTED_TYPE,
                        format!("`{}` needs a return type (implicit int is not allowed)", t.text),
                    )
                    .at(t.span),
                );
            } else if t.kind == TokKind::Ident && !is_keyword(&t.text, self.std) && self.nth(1).kind == TokKind::Ident {
                let d = self.unknown_type(&t);
                self.error(d);
            } else {
                self.error(
                    Diagnostic::error(codes::EXPECTED_TYPE, format!("expected a declaration, found `{}`", t.text))
                        .at(t.span),
                );
            }
            return Err(());
        }
        let specs = self.decl_specs()?;
        if self.at(P::Semi) {
            let s = self.bump().span;
            return Ok(ExternalDecl::Declaration(Declaration { specs, declarators: vec![], span: start.to(s) }));
        }
        let decl = self.declarator(false)?;
        if self.at(P::LBrace) && matches!(decl.derived.last(), Some(DerivedPart::Function { .. })) {
            self.register_declarator(&specs, &decl);
            self.push_scope();
            if let Some(DerivedPart::Function { params, .. }) = decl.derived.last() {
                for p in params {
                    if let Some((n, _)) = &p.declarator.name {
                        self.declare(n, false);
                    }
                }
            }
            let body = self.compound_stmt();
            self.pop_scope();
            let body = body?;
            let span = start.to(body.span);
            return Ok(ExternalDecl::Function(FunctionDef { specs, declarator: decl, body, span }));
        }
        let d = self.rest_of_declaration(specs, decl, start)?;
        Ok(ExternalDecl::Declaration(d))
    }

    fn register_declarator(&mut self, specs: &DeclSpecs, d: &Declarator) {
        if let Some((n, _)) = &d.name {
            let is_td = matches!(specs.storage, Some((StorageClass::Typedef, _)));
            self.declare(n, is_td);
        }
    }

    fn rest_of_declaration(&mut self, specs: DeclSpecs, first: Declarator, start: Span) -> PResult<Declaration> {
        let mut declarators = Vec::new();
        let mut d = first;
        loop {
            self.register_declarator(&specs, &d);
            let init = if self.eat(P::Assign) { Some(self.initializer()?) } else { None };
            declarators.push(InitDeclarator { declarator: d, init });
            if !self.eat(P::Comma) {
                break;
            }
            d = self.declarator(false)?;
        }
        let end = self.expect(P::Semi, "after declaration")?;
        Ok(Declaration { specs, declarators, span: start.to(end) })
    }

    fn declaration(&mut self) -> PResult<Declaration> {
        let start = self.tok().span;
        let specs = self.decl_specs()?;
        if self.at(P::Semi) {
            let s = self.bump().span;
            return Ok(Declaration { specs, declarators: vec![], span: start.to(s) });
        }
        let d = self.declarator(false)?;
        self.rest_of_declaration(specs, d, start)
    }

    // ----- declaration specifiers -----

    /// The diagnostic for an identifier used as a type name that names no type: a reserved
    /// name (`bool4`, `float5`, `quad`) says so, a type of a later OpenCL C version says which.
    fn unknown_type(&self, t: &Token) -> Diagnostic {
        if crate::types::is_reserved_type_name(&t.text) {
            return Diagnostic::error(
                codes::RESERVED_TYPE,
                format!("`{}` is a reserved type name in OpenCL C", t.text),
            )
            .at(t.span);
        }
        let mut d = Diagnostic::error(codes::EXPECTED_TYPE, format!("unknown type name `{}`", t.text)).at(t.span);
        if builtin_type_name_cl2(&t.text).is_some() {
            d = d.with_note(format!(
                "`{}` is a type of OpenCL C 2.0 and later; compile with -cl-std=CL2.0 or CL3.0",
                t.text
            ));
        }
        d
    }

    /// `foo x` or `foo *p` where `foo` names no type: say so (rather than failing on the next
    /// token), with a hint when `foo` is a type of a later OpenCL C version.
    fn unknown_type_name(&mut self) -> PResult<()> {
        let t = self.tok().clone();
        let next = self.nth(1);
        if t.kind != TokKind::Ident
            || is_keyword(&t.text, self.std)
            || !(next.kind == TokKind::Ident || next.is_punct(P::Star))
        {
            return Ok(());
        }
        let d = self.unknown_type(&t);
        self.error(d);
        Err(())
    }

    fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let start = self.tok().span;
        let mut s = DeclSpecs {
            storage: None,
            ty: TypeSpec::Words(Vec::new()),
            quals: Quals::default(),
            addr_space: None,
            access: None,
            kernel: None,
            inline: false,
            attrs: Vec::new(),
            span: start,
        };
        let mut have_type = false;
        loop {
            let t = self.tok().clone();
            if t.kind != TokKind::Ident {
                break;
            }
            let set_as = |s: &mut DeclSpecs, a: AddrSpace, p: &mut Self| {
                if let Some((prev, _)) = s.addr_space
                    && prev != a
                {
                    p.diags.push(
                        Diagnostic::error(codes::ADDRESS_SPACE, "multiple address spaces specified for one type")
                            .at(t.span),
                    );
                }
                s.addr_space = Some((a, t.span));
            };
            match &*t.text {
                "typedef" | "extern" | "static" | "auto" | "register" => {
                    let sc = match &*t.text {
                        "typedef" => StorageClass::Typedef,
                        "extern" => StorageClass::Extern,
                        "static" => StorageClass::Static,
                        "auto" => StorageClass::Auto,
                        _ => StorageClass::Register,
                    };
                    if s.storage.is_some() {
                        self.diags.push(
                            Diagnostic::error(codes::BAD_SPECIFIERS, "more than one storage class specified")
                                .at(t.span),
                        );
                    }
                    s.storage = Some((sc, t.span));
                }
                "const" | "__const" => s.quals.is_const = true,
                "volatile" | "__volatile" => s.quals.is_volatile = true,
                "restrict" | "__restrict" | "__restrict__" => s.quals.is_restrict = true,
                "inline" | "__inline" | "__inline__" => s.inline = true,
                "__kernel" | "kernel" => s.kernel = Some(t.span),
                "__global" | "global" => set_as(&mut s, AddrSpace::Global, self),
                "__local" | "local" => set_as(&mut s, AddrSpace::Local, self),
                "__constant" | "constant" => set_as(&mut s, AddrSpace::Constant, self),
                "__private" | "private" => set_as(&mut s, AddrSpace::Private, self),
                "__generic" | "generic" => set_as(&mut s, AddrSpace::Generic, self),
                "__read_only" | "read_only" => s.access = Some((Access::ReadOnly, t.span)),
                "__write_only" | "write_only" => s.access = Some((Access::WriteOnly, t.span)),
                "__read_write" | "read_write" => s.access = Some((Access::ReadWrite, t.span)),
                "__attribute__" => {
                    let a = self.attributes()?;
                    s.attrs.extend(a);
                    continue;
                }
                "void" | "char" | "short" | "int" | "long" | "float" | "double" | "signed" | "unsigned" | "_Bool"
                | "bool" | "half" | "_Complex" | "complex" | "_Imaginary" | "imaginary" => {
                    let w = match &*t.text {
                        "void" => TypeWord::Void,
                        "char" => TypeWord::Char,
                        "short" => TypeWord::Short,
                        "int" => TypeWord::Int,
                        "long" => TypeWord::Long,
                        "float" => TypeWord::Float,
                        "double" => TypeWord::Double,
                        "signed" => TypeWord::Signed,
                        "unsigned" => TypeWord::Unsigned,
                        "_Bool" | "bool" => TypeWord::Bool,
                        "half" => TypeWord::Half,
                        "_Complex" | "complex" => TypeWord::Complex,
                        _ => TypeWord::Imaginary,
                    };
                    match &mut s.ty {
                        TypeSpec::Words(ws) if !have_type || !ws.is_empty() => ws.push((w, t.span)),
                        _ => {
                            self.diags.push(
                                Diagnostic::error(
                                    codes::BAD_SPECIFIERS,
                                    format!("`{}` cannot be combined with the previous type", t.text),
                                )
                                .at(t.span),
                            );
                        }
                    }
                    have_type = true;
                }
                "struct" | "union" => {
                    if have_type {
                        self.diags
                            .push(Diagnostic::error(codes::BAD_SPECIFIERS, "two types in one declaration").at(t.span));
                    }
                    let r = self.record_spec()?;
                    s.ty = if &*t.text == "struct" { TypeSpec::Struct(r) } else { TypeSpec::Union(r) };
                    have_type = true;
                    continue;
                }
                "enum" => {
                    if have_type {
                        self.diags
                            .push(Diagnostic::error(codes::BAD_SPECIFIERS, "two types in one declaration").at(t.span));
                    }
                    let e = self.enum_spec()?;
                    s.ty = TypeSpec::Enum(e);
                    have_type = true;
                    continue;
                }
                "pipe" | "channel"
                    if (t.text.as_ref() == "pipe" && self.std >= ClStd::Cl2_0)
                        || (t.text.as_ref() == "channel" && self.channels) =>
                {
                    let channel = t.text.as_ref() == "channel";
                    self.bump();
                    // The packet type is specifiers only (`pipe int4 p`): the declarator that
                    // follows names the pipe.
                    let start = self.tok().span;
                    let specs = self.decl_specs()?;
                    let end = self.prev_span();
                    let declarator = Declarator { name: None, derived: vec![], attrs: vec![], span: end };
                    let inner = TypeName { specs, declarator, span: start.to(end) };
                    let span = t.span.to(inner.span);
                    s.ty = TypeSpec::Pipe(Box::new(inner), channel, span);
                    have_type = true;
                    continue;
                }
                "_Atomic" => {
                    self.bump();
                    self.expect(P::LParen, "after `_Atomic`")?;
                    let inner = self.type_name()?;
                    let end = self.expect(P::RParen, "after the atomic type")?;
                    s.ty = TypeSpec::Atomic(Box::new(inner), t.span.to(end));
                    have_type = true;
                    continue;
                }
                name => {
                    if !have_type && self.is_typedef_name(name) {
                        s.ty = TypeSpec::Named(t.text.clone(), t.span);
                        have_type = true;
                    } else {
                        break;
                    }
                }
            }
            self.bump();
        }
        let no_words = matches!(&s.ty, TypeSpec::Words(w) if w.is_empty());
        if !have_type && no_words {
            self.unknown_type_name()?;
        }
        s.span = start.to(self.prev_span());
        Ok(s)
    }

    fn record_spec(&mut self) -> PResult<RecordSpec> {
        let kw = self.bump();
        let mut attrs = Vec::new();
        while self.at_kw("__attribute__") {
            attrs.extend(self.attributes()?);
        }
        let name = if self.tok().kind == TokKind::Ident && !self.at(P::LBrace) {
            Some(self.expect_ident("a struct name")?)
        } else {
            None
        };
        let fields = if self.eat(P::LBrace) {
            let mut fields = Vec::new();
            while !self.at(P::RBrace) && !self.tok().is_eof() {
                if self.tok().kind == TokKind::Pragma {
                    self.bump();
                    continue;
                }
                let fstart = self.tok().span;
                if !self.starts_decl() {
                    let t = self.tok().clone();
                    self.error(
                        Diagnostic::error(
                            codes::EXPECTED_TYPE,
                            format!("expected a member declaration, found `{}`", t.text),
                        )
                        .at(t.span),
                    );
                    self.sync_stmt();
                    continue;
                }
                let specs = self.decl_specs()?;
                let mut decls = Vec::new();
                if !self.at(P::Semi) {
                    loop {
                        let d = if self.at(P::Colon) {
                            Declarator { name: None, derived: vec![], attrs: vec![], span: self.tok().span }
                        } else {
                            self.declarator(false)?
                        };
                        let width = if self.eat(P::Colon) { Some(self.cond_expr()?) } else { None };
                        let mut d = d;
                        while self.at_kw("__attribute__") {
                            d.attrs.extend(self.attributes()?);
                        }
                        decls.push((d, width));
                        if !self.eat(P::Comma) {
                            break;
                        }
                    }
                }
                let end = self.expect(P::Semi, "after struct member")?;
                fields.push(FieldDecl { specs, declarators: decls, span: fstart.to(end) });
            }
            self.expect(P::RBrace, "to close the struct")?;
            while self.at_kw("__attribute__") {
                attrs.extend(self.attributes()?);
            }
            Some(fields)
        } else {
            None
        };
        if name.is_none() && fields.is_none() {
            self.error(Diagnostic::error(codes::EXPECTED_TOKEN, "expected a struct name or `{`").at(self.tok().span));
            return Err(());
        }
        Ok(RecordSpec { name, fields, attrs, span: kw.span.to(self.prev_span()) })
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let kw = self.bump();
        let name = if self.tok().kind == TokKind::Ident { Some(self.expect_ident("an enum name")?) } else { None };
        let variants = if self.eat(P::LBrace) {
            let mut vs = Vec::new();
            while !self.at(P::RBrace) {
                let (n, s) = self.expect_ident("an enumerator")?;
                let v = if self.eat(P::Assign) { Some(self.cond_expr()?) } else { None };
                self.declare(&n, false);
                vs.push((n, s, v));
                if !self.eat(P::Comma) {
                    break;
                }
            }
            self.expect(P::RBrace, "to close the enum")?;
            Some(vs)
        } else {
            None
        };
        Ok(EnumSpec { name, variants, span: kw.span.to(self.prev_span()) })
    }

    fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        self.bump(); // __attribute__
        self.expect(P::LParen, "after `__attribute__`")?;
        self.expect(P::LParen, "after `__attribute__(`")?;
        let mut attrs = Vec::new();
        while !self.at(P::RParen) {
            let t = self.tok().clone();
            if t.kind != TokKind::Ident {
                self.error(Diagnostic::error(codes::BAD_ATTRIBUTE, "expected an attribute name").at(t.span));
                return Err(());
            }
            self.bump();
            let mut args = Vec::new();
            if self.eat(P::LParen) {
                while !self.at(P::RParen) {
                    if self.starts_decl() {
                        args.push(AttrArg::Type(self.type_name()?));
                    } else {
                        args.push(AttrArg::Expr(self.assign_expr()?));
                    }
                    if !self.eat(P::Comma) {
                        break;
                    }
                }
                self.expect(P::RParen, "to close the attribute arguments")?;
            }
            let name: Name = t.text.trim_start_matches("__").trim_end_matches("__").into();
            attrs.push(Attribute { name, args, span: t.span.to(self.prev_span()) });
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RParen, "to close `__attribute__((`")?;
        self.expect(P::RParen, "to close `__attribute__(`")?;
        Ok(attrs)
    }

    // ----- declarators -----

    /// Parses a declarator; with `abstract_ok` the name may be missing (type names, parameters).
    fn declarator(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        let start = self.tok().span;
        let mut pointers = Vec::new();
        loop {
            if self.at(P::Star) || self.at(P::Caret) {
                let t = self.bump();
                if t.is_punct(P::Caret) {
                    pointers.push(DerivedPart::Block { span: t.span });
                    continue;
                }
                let mut quals = Quals::default();
                let mut addr_space = None;
                loop {
                    let q = self.tok().clone();
                    match &*q.text {
                        "const" | "__const" => quals.is_const = true,
                        "volatile" | "__volatile" => quals.is_volatile = true,
                        "restrict" | "__restrict" | "__restrict__" => quals.is_restrict = true,
                        "__global" | "global" => addr_space = Some((AddrSpace::Global, q.span)),
                        "__local" | "local" => addr_space = Some((AddrSpace::Local, q.span)),
                        "__constant" | "constant" => addr_space = Some((AddrSpace::Constant, q.span)),
                        "__private" | "private" => addr_space = Some((AddrSpace::Private, q.span)),
                        "__generic" | "generic" => addr_space = Some((AddrSpace::Generic, q.span)),
                        "__attribute__" => {
                            self.attributes()?;
                            continue;
                        }
                        _ => break,
                    }
                    self.bump();
                }
                pointers.push(DerivedPart::Pointer { quals, addr_space, span: t.span });
            } else {
                break;
            }
        }
        let mut name = None;
        let mut inner: Vec<DerivedPart> = Vec::new();
        let mut attrs = Vec::new();
        if self.at(P::LParen) && self.paren_starts_declarator() {
            self.bump();
            let d = self.declarator(abstract_ok)?;
            self.expect(P::RParen, "to close the declarator")?;
            name = d.name;
            inner = d.derived;
            attrs = d.attrs;
        } else if self.tok().kind == TokKind::Ident && !self.is_typedef_name_strict() && !self.at_kw("__attribute__") {
            name = Some(self.expect_ident("a name")?);
        } else if !abstract_ok {
            let t = self.tok().clone();
            // `int global = 1;`: the would-be name was taken as a qualifier keyword.
            let prev = self.toks[self.pos.saturating_sub(1)].clone();
            if self.pos > 0
                && prev.kind == TokKind::Ident
                && is_keyword(&prev.text, self.std)
                && (t.is_punct(P::Assign) || t.is_punct(P::Semi) || t.is_punct(P::Comma) || t.is_punct(P::LBracket))
            {
                self.error(
                    Diagnostic::error(
                        codes::RESERVED_IDENT,
                        format!("`{}` is a keyword and cannot be used as a name", prev.text),
                    )
                    .at(prev.span),
                );
                return Err(());
            }
            let found = if t.is_eof() { "end of file".to_string() } else { format!("`{}`", t.text) };
            self.error(
                Diagnostic::error(codes::BAD_DECLARATOR, format!("expected a name in declaration, found {found}"))
                    .at(t.span),
            );
            return Err(());
        }
        let mut suffixes = Vec::new();
        loop {
            if self.at(P::LBracket) {
                let s = self.bump().span;
                let size = if self.at(P::RBracket) { None } else { Some(Box::new(self.assign_expr()?)) };
                let e = self.expect(P::RBracket, "to close the array size")?;
                suffixes.push(DerivedPart::Array { size, span: s.to(e) });
            } else if self.at(P::LParen) {
                let s = self.bump().span;
                self.push_scope();
                let r = self.param_list();
                self.pop_scope();
                let (params, variadic) = r?;
                let e = self.expect(P::RParen, "to close the parameter list")?;
                suffixes.push(DerivedPart::Function { params, variadic, span: s.to(e) });
            } else {
                break;
            }
        }
        while self.at_kw("__attribute__") {
            attrs.extend(self.attributes()?);
        }
        let mut derived = pointers;
        derived.extend(suffixes.into_iter().rev());
        derived.extend(inner);
        Ok(Declarator { name, derived, attrs, span: start.to(self.prev_span()) })
    }

    /// In a declarator, does `(` start a nested declarator (as in `(*p)[4]`) rather than a
    /// parameter list (as in an abstract function type)?
    fn paren_starts_declarator(&self) -> bool {
        let n = self.nth(1);
        n.is_punct(P::Star)
            || n.is_punct(P::Caret)
            || n.is_punct(P::LParen)
            || n.is_punct(P::LBracket)
            || (n.kind == TokKind::Ident && !self.is_typedef_name(&n.text) && !is_keyword(&n.text, self.std))
    }

    fn is_typedef_name_strict(&self) -> bool {
        let t = self.tok();
        // A name declared as a typedef in scope cannot be redeclared as a plain name here; a
        // built-in type name used as a declarator name is reported by sema as reserved.
        for s in self.scopes.iter().rev() {
            if let Some(&td) = s.get(&*t.text) {
                return td;
            }
        }
        false
    }

    fn param_list(&mut self) -> PResult<(Vec<ParamDecl>, bool)> {
        let mut params = Vec::new();
        let mut variadic = false;
        if self.at(P::RParen) {
            return Ok((params, false));
        }
        if self.at_kw("void") && self.nth(1).is_punct(P::RParen) {
            self.bump();
            return Ok((params, false));
        }
        loop {
            if self.at(P::Ellipsis) {
                self.bump();
                variadic = true;
                break;
            }
            let start = self.tok().span;
            if !self.starts_decl() {
                let t = self.tok().clone();
                let d = if t.kind == TokKind::Ident {
                    self.unknown_type(&t)
                } else {
                    Diagnostic::error(
                        codes::EXPECTED_TYPE,
                        format!("expected a parameter declaration, found `{}`", t.text),
                    )
                    .at(t.span)
                };
                self.error(d);
                return Err(());
            }
            let specs = self.decl_specs()?;
            let declarator = self.declarator(true)?;
            if let Some((n, _)) = &declarator.name {
                self.declare(n, false);
            }
            params.push(ParamDecl { specs, declarator, span: start.to(self.prev_span()) });
            if !self.eat(P::Comma) {
                break;
            }
        }
        Ok((params, variadic))
    }

    fn type_name(&mut self) -> PResult<TypeName> {
        let start = self.tok().span;
        let specs = self.decl_specs()?;
        let declarator = self.declarator(true)?;
        Ok(TypeName { specs, declarator, span: start.to(self.prev_span()) })
    }

    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at(P::LBrace) {
            return Ok(Initializer::Expr(self.assign_expr()?));
        }
        let start = self.bump().span;
        let mut items = Vec::new();
        while !self.at(P::RBrace) {
            let mut designators = Vec::new();
            loop {
                if self.at(P::LBracket) {
                    self.bump();
                    let e = self.cond_expr()?;
                    self.expect(P::RBracket, "after the array designator")?;
                    designators.push(Designator::Index(e));
                } else if self.at(P::Dot) {
                    self.bump();
                    let (n, s) = self.expect_ident("a member name")?;
                    designators.push(Designator::Field(n, s));
                } else {
                    break;
                }
            }
            if !designators.is_empty() {
                self.expect(P::Assign, "after the designator")?;
            }
            items.push((designators, self.initializer()?));
            if !self.eat(P::Comma) {
                break;
            }
        }
        let end = self.expect(P::RBrace, "to close the initializer list")?;
        Ok(Initializer::List(items, start.to(end)))
    }

    // ----- statements -----

    fn compound_stmt(&mut self) -> PResult<Stmt> {
        let start = self.expect(P::LBrace, "to open a block")?;
        self.push_scope();
        let mut items = Vec::new();
        while !self.at(P::RBrace) && !self.tok().is_eof() {
            let before = self.pos;
            match self.block_item() {
                Ok(Some(i)) => items.push(i),
                Ok(None) => {}
                Err(()) => {
                    self.sync_stmt();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        self.pop_scope();
        let end = self.expect(P::RBrace, "to close the block")?;
        Ok(Stmt { kind: StmtKind::Compound(items), span: start.to(end) })
    }

    fn block_item(&mut self) -> PResult<Option<BlockItem>> {
        if self.tok().kind == TokKind::Pragma && !is_loop_pragma(self.tok()) {
            return Ok(Some(BlockItem::Pragma(self.pragma())));
        }
        // `name:` is a label even when `name` is a typedef name.
        if self.tok().kind == TokKind::Ident
            && self.nth(1).is_punct(P::Colon)
            && !is_keyword(&self.tok().text, self.std)
        {
            return Ok(Some(BlockItem::Stmt(self.stmt()?)));
        }
        if self.starts_decl() && !self.attribute_starts_stmt() {
            return Ok(Some(BlockItem::Decl(self.declaration()?)));
        }
        Ok(Some(BlockItem::Stmt(self.stmt()?)))
    }

    /// `__attribute__((opencl_unroll_hint)) for (...)` starts a statement, not a declaration.
    fn attribute_starts_stmt(&self) -> bool {
        if !self.at_kw("__attribute__") {
            return false;
        }
        // Find the token after the balanced `__attribute__((...))` groups.
        let mut i = 0;
        loop {
            if !self.nth(i).is_ident("__attribute__") {
                break;
            }
            i += 1;
            let mut depth = 0;
            loop {
                let t = self.nth(i);
                if t.is_eof() {
                    return false;
                }
                if t.is_punct(P::LParen) {
                    depth += 1;
                } else if t.is_punct(P::RParen) {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                i += 1;
            }
        }
        let t = self.nth(i);
        ["for", "while", "do", "if", "switch", "return", "break", "continue", "goto"].iter().any(|k| t.is_ident(k))
            || t.is_punct(P::LBrace)
            || t.is_punct(P::Semi)
            || (t.kind == TokKind::Ident && self.nth(i + 1).is_punct(P::Colon))
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        if self.tok().kind == TokKind::Pragma || self.at_kw("__attribute__") {
            return self.annotated_stmt();
        }
        let t = self.tok().clone();
        let start = t.span;
        if t.kind == TokKind::Ident && self.nth(1).is_punct(P::Colon) && !is_keyword(&t.text, self.std) {
            self.bump();
            self.bump();
            let s = self.stmt()?;
            let span = start.to(s.span);
            return Ok(Stmt { kind: StmtKind::Labeled(t.text.clone(), Box::new(s)), span });
        }
        if t.kind == TokKind::Ident {
            match &*t.text {
                "if" => {
                    self.bump();
                    self.expect(P::LParen, "after `if`")?;
                    let c = self.expr()?;
                    self.expect(P::RParen, "after the `if` condition")?;
                    let then = self.stmt()?;
                    let els = if self.at_kw("else") {
                        self.bump();
                        Some(Box::new(self.stmt()?))
                    } else {
                        None
                    };
                    let end = els.as_ref().map(|e| e.span).unwrap_or(then.span);
                    return Ok(Stmt { kind: StmtKind::If(c, Box::new(then), els), span: start.to(end) });
                }
                "while" => {
                    self.bump();
                    self.expect(P::LParen, "after `while`")?;
                    let c = self.expr()?;
                    self.expect(P::RParen, "after the `while` condition")?;
                    let body = self.stmt()?;
                    let span = start.to(body.span);
                    return Ok(Stmt { kind: StmtKind::While(c, Box::new(body), LoopAttrs::default()), span });
                }
                "do" => {
                    self.bump();
                    let body = self.stmt()?;
                    if !self.at_kw("while") {
                        self.error(
                            Diagnostic::error(codes::EXPECTED_TOKEN, "expected `while` after the `do` body")
                                .at(self.tok().span),
                        );
                        return Err(());
                    }
                    self.bump();
                    self.expect(P::LParen, "after `while`")?;
                    let c = self.expr()?;
                    self.expect(P::RParen, "after the `do`-`while` condition")?;
                    let end = self.expect(P::Semi, "after `do`-`while`")?;
                    return Ok(Stmt {
                        kind: StmtKind::DoWhile(Box::new(body), c, LoopAttrs::default()),
                        span: start.to(end),
                    });
                }
                "for" => {
                    self.bump();
                    self.expect(P::LParen, "after `for`")?;
                    self.push_scope();
                    let r = self.for_rest(start);
                    self.pop_scope();
                    return r;
                }
                "switch" => {
                    self.bump();
                    self.expect(P::LParen, "after `switch`")?;
                    let c = self.expr()?;
                    self.expect(P::RParen, "after the `switch` value")?;
                    let body = self.stmt()?;
                    let span = start.to(body.span);
                    return Ok(Stmt { kind: StmtKind::Switch(c, Box::new(body)), span });
                }
                "case" => {
                    self.bump();
                    let v = self.cond_expr()?;
                    self.expect(P::Colon, "after the `case` value")?;
                    let s = self.stmt()?;
                    let span = start.to(s.span);
                    return Ok(Stmt { kind: StmtKind::Case(v, Box::new(s)), span });
                }
                "default" => {
                    self.bump();
                    self.expect(P::Colon, "after `default`")?;
                    let s = self.stmt()?;
                    let span = start.to(s.span);
                    return Ok(Stmt { kind: StmtKind::Default(Box::new(s)), span });
                }
                "break" | "continue" => {
                    self.bump();
                    let end = self.expect(P::Semi, &format!("after `{}`", t.text))?;
                    let kind = if &*t.text == "break" { StmtKind::Break } else { StmtKind::Continue };
                    return Ok(Stmt { kind, span: start.to(end) });
                }
                "return" => {
                    self.bump();
                    let v = if self.at(P::Semi) { None } else { Some(self.expr()?) };
                    let end = self.expect(P::Semi, "after `return`")?;
                    return Ok(Stmt { kind: StmtKind::Return(v), span: start.to(end) });
                }
                "goto" => {
                    self.bump();
                    let (n, _) = self.expect_ident("a label")?;
                    let end = self.expect(P::Semi, "after `goto`")?;
                    return Ok(Stmt { kind: StmtKind::Goto(n), span: start.to(end) });
                }
                _ => {}
            }
        }
        if self.at(P::LBrace) {
            return self.compound_stmt();
        }
        if self.at(P::Semi) {
            let s = self.bump().span;
            return Ok(Stmt { kind: StmtKind::Expr(None), span: s });
        }
        if t.kind == TokKind::Ident
            && !is_keyword(&t.text, self.std)
            && self.nth(1).kind == TokKind::Ident
            && !is_keyword(&self.nth(1).text, self.std)
            && !self.is_typedef_name(&t.text)
        {
            let d = self.unknown_type(&t);
            self.error(d);
            return Err(());
        }
        if self.starts_decl() {
            // A declaration where a statement is required (`if (x) int y;`).
            self.error(
                Diagnostic::error(codes::EXPECTED_EXPR, "a declaration is not allowed here; wrap it in `{ }`")
                    .at(t.span),
            );
            return Err(());
        }
        let e = self.expr()?;
        let end = self.expect(P::Semi, "after the expression")?;
        Ok(Stmt { kind: StmtKind::Expr(Some(e)), span: start.to(end) })
    }

    fn for_rest(&mut self, start: Span) -> PResult<Stmt> {
        let init = if self.eat(P::Semi) {
            ForInit::None
        } else if self.starts_decl() {
            ForInit::Decl(self.declaration()?)
        } else {
            let e = self.expr()?;
            self.expect(P::Semi, "after the `for` initializer")?;
            ForInit::Expr(e)
        };
        let cond = if self.at(P::Semi) { None } else { Some(self.expr()?) };
        self.expect(P::Semi, "after the `for` condition")?;
        let step = if self.at(P::RParen) { None } else { Some(self.expr()?) };
        self.expect(P::RParen, "to close the `for` header")?;
        let body = self.stmt()?;
        let span = start.to(body.span);
        Ok(Stmt { kind: StmtKind::For(init, cond, step, Box::new(body), LoopAttrs::default()), span })
    }

    /// A statement preceded by loop pragmas and/or attributes.
    fn annotated_stmt(&mut self) -> PResult<Stmt> {
        let mut attrs = LoopAttrs::default();
        let mut first_span = None;
        loop {
            if self.tok().kind == TokKind::Pragma {
                let p = self.pragma();
                first_span.get_or_insert(p.span);
                self.pragma_into_attrs(&p, &mut attrs)?;
            } else if self.at_kw("__attribute__") {
                let s = self.tok().span;
                first_span.get_or_insert(s);
                let list = self.attributes()?;
                for a in list {
                    self.attr_into_loop_attrs(a, &mut attrs)?;
                }
            } else {
                break;
            }
        }
        let at = first_span.unwrap_or(self.tok().span);
        let mut s = self.stmt()?;
        // Vendor examples put the label between the annotation and its loop
        // (`__attribute__((xcl_pipeline_loop)) compute: for (...)`).
        let only_workitems = attrs.xcl_pipeline_workitems.is_some()
            && attrs.unroll.is_none()
            && attrs.ivdep.is_none()
            && attrs.ii.is_none()
            && attrs.loop_coalesce.is_none()
            && attrs.disable_pipelining.is_none()
            && attrs.max_concurrency.is_none()
            && attrs.speculated_iterations.is_none()
            && attrs.xcl_pipeline.is_none()
            && attrs.xcl_dataflow.is_none()
            && matches!(s.kind, StmtKind::Compound(_));
        match labeled_loop_attrs(&mut s) {
            Some(la) => merge_loop_attrs(la, attrs),
            None if only_workitems => {}
            None => {
                self.diags.push(
                    Diagnostic::error(
                        codes::PRAGMA_NOT_BEFORE_LOOP,
                        "loop pragma or attribute is not followed by a loop",
                    )
                    .at(at)
                    .with_label(s.span, "this statement is not a `for`, `while` or `do` loop"),
                );
            }
        }
        Ok(s)
    }

    fn pragma_into_attrs(&mut self, p: &Pragma, attrs: &mut LoopAttrs) -> PResult<()> {
        let Some((head, hs)) = p.words.first().cloned() else { return Ok(()) };
        let args = &p.words[1..];
        // Arguments are re-parsed as expressions: `#pragma unroll 4`, `#pragma ivdep safelen(8)`.
        let arg_expr = |words: &[(Rc<str>, Span)]| -> Option<Box<Expr>> {
            let (text, span) = words.first()?;
            Some(Box::new(Expr { kind: ExprKind::Int(text.clone()), span: *span }))
        };
        let bad = |p: &mut Self, msg: &str| {
            p.diags.push(Diagnostic::error(codes::BAD_PRAGMA_ARG, msg.to_string()).at(p_span(args, hs)));
        };
        let numeric_ok = |w: &[(Rc<str>, Span)]| w.len() == 1 && w[0].0.chars().all(|c| c.is_ascii_digit() || c == '-');
        match &*head {
            "unroll" => {
                if !args.is_empty() && !numeric_ok(args) {
                    bad(self, "`#pragma unroll` takes an optional integer factor");
                }
                attrs.unroll = Some((arg_expr(args), p.span));
            }
            "nounroll" => {
                attrs.unroll = Some((Some(Box::new(Expr { kind: ExprKind::Int("1".into()), span: hs })), p.span));
            }
            "ivdep" => {
                // `#pragma ivdep`, `#pragma ivdep safelen(N)`, `#pragma ivdep array(name)`.
                let mut safelen = None;
                let mut i = 0;
                while i < args.len() {
                    match &*args[i].0 {
                        "safelen" if args.len() >= i + 4 => {
                            safelen = arg_expr(&args[i + 2..i + 3]);
                            i += 4;
                        }
                        "array" if args.len() >= i + 4 => i += 4,
                        _ => {
                            bad(self, "`#pragma ivdep` takes `safelen(N)` or `array(name)`");
                            break;
                        }
                    }
                }
                attrs.ivdep = Some((safelen, p.span));
            }
            "ii" => {
                if !numeric_ok(args) {
                    bad(self, "`#pragma ii` needs an integer initiation interval");
                    return Ok(());
                }
                if let Some(e) = arg_expr(args) {
                    attrs.ii = Some((e, p.span));
                }
            }
            "loop_coalesce" => {
                if !args.is_empty() && !numeric_ok(args) {
                    bad(self, "`#pragma loop_coalesce` takes an optional integer nesting depth");
                }
                attrs.loop_coalesce = Some((arg_expr(args), p.span));
            }
            "disable_loop_pipelining" => attrs.disable_pipelining = Some(p.span),
            "max_concurrency" | "speculated_iterations" | "max_interleaving" => {
                if !numeric_ok(args) {
                    bad(self, &format!("`#pragma {head}` needs an integer argument"));
                    return Ok(());
                }
                if let Some(e) = arg_expr(args) {
                    match &*head {
                        "max_concurrency" => attrs.max_concurrency = Some((e, p.span)),
                        "speculated_iterations" => attrs.speculated_iterations = Some((e, p.span)),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn attr_into_loop_attrs(&mut self, a: Attribute, attrs: &mut LoopAttrs) -> PResult<()> {
        let arg = |a: &Attribute| -> Option<Box<Expr>> {
            match a.args.first() {
                Some(AttrArg::Expr(e)) => Some(Box::new(e.clone())),
                _ => None,
            }
        };
        match &*a.name {
            "opencl_unroll_hint" => attrs.unroll = Some((arg(&a), a.span)),
            "xcl_pipeline_loop" => attrs.xcl_pipeline = Some((arg(&a), a.span)),
            "xcl_dataflow" => attrs.xcl_dataflow = Some(a.span),
            "xcl_pipeline_workitems" => attrs.xcl_pipeline_workitems = Some(a.span),
            "ivdep" => attrs.ivdep = Some((arg(&a), a.span)),
            // Xilinx's `xcl_dependence(type="inter", dependent=false[, variable=v, direction=RAW])`:
            // no dependence between iterations, an `ivdep` (for the whole loop, as kiln's
            // `ivdep array(v)` is); `dependent=true` or `type="intra"` asserts nothing kiln uses.
            "xcl_dependence" => {
                let setting = |key: &str| {
                    a.args.iter().find_map(|x| match x {
                        AttrArg::Expr(Expr { kind: ExprKind::Assign(None, l, r), .. }) => match (&l.kind, &r.kind) {
                            (ExprKind::Ident(k), ExprKind::Ident(v) | ExprKind::Int(v)) if &**k == key => {
                                Some(v.to_string())
                            }
                            (ExprKind::Ident(k), ExprKind::Str(parts)) if &**k == key => {
                                Some(parts.iter().map(|p| p.trim_matches('"')).collect::<String>())
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                };
                let independent = matches!(setting("dependent").as_deref(), Some("false" | "0"));
                let inter = setting("type").is_none_or(|t| t.eq_ignore_ascii_case("inter"));
                if independent && inter {
                    attrs.ivdep = Some((None, a.span));
                }
            }
            // A trip-count estimate for Xilinx's reports; kiln's report has its own.
            "xcl_loop_tripcount" => {}
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        codes::ATTRIBUTE_PLACEMENT,
                        format!("attribute `{}` cannot be applied to a statement", a.name),
                    )
                    .at(a.span),
                );
            }
        }
        Ok(())
    }

    // ----- expressions -----

    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        let first = self.assign_expr()?;
        if !self.at(P::Comma) {
            return Ok(first);
        }
        let mut list = vec![first];
        while self.eat(P::Comma) {
            list.push(self.assign_expr()?);
        }
        let span = list[0].span.to(list[list.len() - 1].span);
        Ok(Expr { kind: ExprKind::Comma(list), span })
    }

    fn assign_expr(&mut self) -> PResult<Expr> {
        let lhs = self.cond_expr()?;
        let op = match self.tok().kind {
            TokKind::Punct(P::Assign) => None,
            TokKind::Punct(P::StarAssign) => Some(BinOp::Mul),
            TokKind::Punct(P::SlashAssign) => Some(BinOp::Div),
            TokKind::Punct(P::PercentAssign) => Some(BinOp::Rem),
            TokKind::Punct(P::PlusAssign) => Some(BinOp::Add),
            TokKind::Punct(P::MinusAssign) => Some(BinOp::Sub),
            TokKind::Punct(P::ShlAssign) => Some(BinOp::Shl),
            TokKind::Punct(P::ShrAssign) => Some(BinOp::Shr),
            TokKind::Punct(P::AmpAssign) => Some(BinOp::BitAnd),
            TokKind::Punct(P::PipeAssign) => Some(BinOp::BitOr),
            TokKind::Punct(P::CaretAssign) => Some(BinOp::BitXor),
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.assign_expr()?;
        let span = lhs.span.to(rhs.span);
        Ok(Expr { kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span })
    }

    fn cond_expr(&mut self) -> PResult<Expr> {
        let c = self.binary_expr(1)?;
        if !self.eat(P::Question) {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect(P::Colon, "in the conditional expression")?;
        let b = self.cond_expr()?;
        let span = c.span.to(b.span);
        Ok(Expr { kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span })
    }

    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        loop {
            let (op, prec) = match self.tok().kind {
                TokKind::Punct(P::PipePipe) => (Some(BinOp::LogOr), 1),
                TokKind::Punct(P::CaretCaret) => (None, 1),
                TokKind::Punct(P::AmpAmp) => (Some(BinOp::LogAnd), 2),
                TokKind::Punct(P::Pipe) => (Some(BinOp::BitOr), 3),
                TokKind::Punct(P::Caret) => (Some(BinOp::BitXor), 4),
                TokKind::Punct(P::Amp) => (Some(BinOp::BitAnd), 5),
                TokKind::Punct(P::EqEq) => (Some(BinOp::Eq), 6),
                TokKind::Punct(P::Ne) => (Some(BinOp::Ne), 6),
                TokKind::Punct(P::Lt) => (Some(BinOp::Lt), 7),
                TokKind::Punct(P::Gt) => (Some(BinOp::Gt), 7),
                TokKind::Punct(P::Le) => (Some(BinOp::Le), 7),
                TokKind::Punct(P::Ge) => (Some(BinOp::Ge), 7),
                TokKind::Punct(P::Shl) => (Some(BinOp::Shl), 8),
                TokKind::Punct(P::Shr) => (Some(BinOp::Shr), 8),
                TokKind::Punct(P::Plus) => (Some(BinOp::Add), 9),
                TokKind::Punct(P::Minus) => (Some(BinOp::Sub), 9),
                TokKind::Punct(P::Star) => (Some(BinOp::Mul), 10),
                TokKind::Punct(P::Slash) => (Some(BinOp::Div), 10),
                TokKind::Punct(P::Percent) => (Some(BinOp::Rem), 10),
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.binary_expr(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            let kind = match op {
                Some(op) => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                None => ExprKind::ReservedXor(Box::new(lhs), Box::new(rhs)),
            };
            lhs = Expr { kind, span };
        }
        Ok(lhs)
    }

    /// Does the `(` at the current position start a type name (a cast or compound literal)?
    fn paren_starts_type(&self) -> bool {
        if !self.at(P::LParen) {
            return false;
        }
        let t = self.nth(1);
        if t.kind != TokKind::Ident {
            return false;
        }
        match &*t.text {
            "void" | "char" | "short" | "int" | "long" | "float" | "double" | "signed" | "unsigned" | "_Bool"
            | "bool" | "half" | "struct" | "union" | "enum" | "const" | "volatile" | "restrict" | "__global"
            | "global" | "__local" | "local" | "__constant" | "constant" | "__private" | "private" | "__generic"
            | "generic" | "_Complex" | "complex" => true,
            s => self.is_typedef_name(s),
        }
    }

    fn cast_expr(&mut self) -> PResult<Expr> {
        if self.paren_starts_type() {
            let start = self.bump().span;
            let ty = self.type_name()?;
            self.expect(P::RParen, "to close the cast")?;
            if self.at(P::LBrace) {
                let init = self.initializer()?;
                let span = start.to(init.span());
                let e = Expr { kind: ExprKind::CompoundLiteral(Box::new(ty), Box::new(init)), span };
                return self.postfix_rest(e);
            }
            let operand = self.cast_expr()?;
            let span = start.to(operand.span);
            return Ok(Expr { kind: ExprKind::Cast(Box::new(ty), Box::new(operand)), span });
        }
        self.unary_expr()
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        let op = match t.kind {
            TokKind::Punct(P::Minus) => Some(UnOp::Neg),
            TokKind::Punct(P::Plus) => Some(UnOp::Plus),
            TokKind::Punct(P::Bang) => Some(UnOp::Not),
            TokKind::Punct(P::Tilde) => Some(UnOp::BitNot),
            TokKind::Punct(P::Star) => Some(UnOp::Deref),
            TokKind::Punct(P::Amp) => Some(UnOp::AddrOf),
            TokKind::Punct(P::PlusPlus) => Some(UnOp::PreInc),
            TokKind::Punct(P::MinusMinus) => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = if matches!(op, UnOp::PreInc | UnOp::PreDec) { self.unary_expr()? } else { self.cast_expr()? };
            let span = t.span.to(e.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), span });
        }
        if t.is_ident("sizeof") || t.is_ident("vec_step") || t.is_ident("_Alignof") || t.is_ident("__alignof__") {
            self.bump();
            if self.paren_starts_type() {
                self.bump();
                let ty = self.type_name()?;
                let end = self.expect(P::RParen, "to close the type")?;
                let kind = match &*t.text {
                    "sizeof" => ExprKind::SizeofType(Box::new(ty)),
                    "vec_step" => ExprKind::VecStepType(Box::new(ty)),
                    _ => ExprKind::AlignofType(Box::new(ty)),
                };
                return Ok(Expr { kind, span: t.span.to(end) });
            }
            let e = self.unary_expr()?;
            let span = t.span.to(e.span);
            let kind = match &*t.text {
                "vec_step" => ExprKind::VecStepExpr(Box::new(e)),
                _ => ExprKind::SizeofExpr(Box::new(e)),
            };
            return Ok(Expr { kind, span });
        }
        if t.is_punct(P::Caret) {
            // A block literal `^{ ... }` or `^(args){ ... }`.
            self.bump();
            if self.at(P::LParen) {
                self.bump();
                let _ = self.param_list();
                self.expect(P::RParen, "after block parameters")?;
            }
            let body = self.compound_stmt()?;
            return Ok(Expr { kind: ExprKind::BlockLiteral, span: t.span.to(body.span) });
        }
        let e = self.primary_expr()?;
        self.postfix_rest(e)
    }

    fn postfix_rest(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            let t = self.tok().clone();
            match t.kind {
                TokKind::Punct(P::LBracket) => {
                    self.bump();
                    let idx = self.expr()?;
                    let end = self.expect(P::RBracket, "to close the subscript")?;
                    let span = e.span.to(end);
                    e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(idx)), span };
                }
                TokKind::Punct(P::LParen) => {
                    self.bump();
                    let mut args = Vec::new();
                    while !self.at(P::RParen) {
                        args.push(self.assign_expr()?);
                        if !self.eat(P::Comma) {
                            break;
                        }
                    }
                    let end = self.expect(P::RParen, "to close the argument list")?;
                    let span = e.span.to(end);
                    e = Expr { kind: ExprKind::Call(Box::new(e), args), span };
                }
                TokKind::Punct(P::Dot) | TokKind::Punct(P::Arrow) => {
                    self.bump();
                    let m = self.tok().clone();
                    // Swizzles like `.s01` and `.lo` are identifiers; `.0` is not valid.
                    if m.kind != TokKind::Ident {
                        self.error(Diagnostic::error(codes::EXPECTED_TOKEN, "expected a member name").at(m.span));
                        return Err(());
                    }
                    self.bump();
                    let span = e.span.to(m.span);
                    e = if t.is_punct(P::Dot) {
                        Expr { kind: ExprKind::Member(Box::new(e), m.text.clone(), m.span), span }
                    } else {
                        Expr { kind: ExprKind::Arrow(Box::new(e), m.text.clone(), m.span), span }
                    };
                }
                TokKind::Punct(P::PlusPlus) | TokKind::Punct(P::MinusMinus) => {
                    self.bump();
                    let op = if t.is_punct(P::PlusPlus) { UnOp::PostInc } else { UnOp::PostDec };
                    let span = e.span.to(t.span);
                    e = Expr { kind: ExprKind::Unary(op, Box::new(e)), span };
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        match &t.kind {
            TokKind::Ident => {
                // `true` and `false` are `bool` constants (keywords, as in clang's OpenCL C).
                if is_keyword(&t.text, self.std) && !matches!(&*t.text, "true" | "false") {
                    let msg = if t.text.is_empty() {
                        "expected an expression".to_string()
                    } else {
                        format!("expected an expression, found keyword `{}`", t.text)
                    };
                    self.error(Diagnostic::error(codes::EXPECTED_EXPR, msg).at(t.span));
                    return Err(());
                }
                self.bump();
                Ok(Expr { kind: ExprKind::Ident(t.text.clone()), span: t.span })
            }
            TokKind::Number => {
                self.bump();
                let kind = if crate::literal::is_float(&t.text) {
                    ExprKind::Float(t.text.clone())
                } else {
                    ExprKind::Int(t.text.clone())
                };
                Ok(Expr { kind, span: t.span })
            }
            TokKind::Char => {
                self.bump();
                Ok(Expr { kind: ExprKind::Char(t.text.clone()), span: t.span })
            }
            TokKind::Str => {
                let mut parts = Vec::new();
                let mut span = t.span;
                while self.tok().kind == TokKind::Str {
                    let s = self.bump();
                    span = span.to(s.span);
                    parts.push(s.text.clone());
                }
                Ok(Expr { kind: ExprKind::Str(parts), span })
            }
            TokKind::Punct(P::LParen) => {
                self.bump();
                let inner = self.expr()?;
                let end = self.expect(P::RParen, "to close the parenthesis")?;
                Ok(Expr { kind: ExprKind::Paren(Box::new(inner)), span: t.span.to(end) })
            }
            TokKind::Eof => {
                self.error(
                    Diagnostic::error(codes::UNEXPECTED_EOF, "expected an expression, found end of file")
                        .at(self.prev_span()),
                );
                Err(())
            }
            _ => {
                self.error(
                    Diagnostic::error(codes::EXPECTED_EXPR, format!("expected an expression, found `{}`", t.text))
                        .at(t.span),
                );
                Err(())
            }
        }
    }
}

fn p_span(args: &[(Rc<str>, Span)], head: Span) -> Span {
    args.last().map(|(_, s)| head.to(*s)).unwrap_or(head)
}

fn is_loop_pragma(t: &Token) -> bool {
    t.pragma.as_ref().and_then(|p| p.first()).is_some_and(|w| &*w.text != "OPENCL")
}

fn merge_loop_attrs(into: &mut LoopAttrs, from: LoopAttrs) {
    macro_rules! take {
        ($($f:ident),*) => { $( if from.$f.is_some() { into.$f = from.$f; } )* };
    }
    take!(
        unroll,
        ivdep,
        ii,
        loop_coalesce,
        disable_pipelining,
        max_concurrency,
        speculated_iterations,
        xcl_pipeline,
        xcl_dataflow
    );
}

/// Parses preprocessed tokens.
pub fn parse(toks: &[Token], std: ClStd) -> (TranslationUnit, Vec<Diagnostic>) {
    let mut p = Parser::new(toks, std);
    let tu = p.parse_translation_unit();
    (tu, p.diags)
}

/// The annotations of the loop `s` is, through any labels written on it.
fn labeled_loop_attrs(s: &mut Stmt) -> Option<&mut LoopAttrs> {
    match &mut s.kind {
        StmtKind::Labeled(_, inner) => labeled_loop_attrs(inner),
        StmtKind::For(_, _, _, _, la) | StmtKind::While(_, _, la) | StmtKind::DoWhile(_, _, la) => Some(la),
        _ => None,
    }
}

/// Loop annotations as OpenCL C reads them from pragmas and attributes written before a loop
/// (for front ends of other languages that attach the same annotations to their loops).
pub fn loop_attrs(pragmas: &[Pragma], attrs: Vec<Attribute>, std: ClStd) -> (LoopAttrs, Vec<Diagnostic>) {
    let eof = [Token::new(TokKind::Eof, "", Span::default())];
    let mut p = Parser::new(&eof, std);
    let mut la = LoopAttrs::default();
    for pr in pragmas {
        let _ = p.pragma_into_attrs(pr, &mut la);
    }
    for a in attrs {
        let _ = p.attr_into_loop_attrs(a, &mut la);
    }
    (la, p.diags)
}
