//! Recursive-descent parser for C++ for OpenCL: preprocessed tokens to [`ast`](crate::ast).
//!
//! C++ cannot be parsed without knowing which names are types and templates. The parser keeps
//! one flat set of each (every class, alias, enum and template name declared so far in any
//! scope, the template parameters in scope, and OpenCL's built-in type names), which decides
//! `T * x;` (a declaration), `(T)e` (a cast), `T(x)` (a functional cast) and `f<a>(x)` (a
//! template argument list). Names are resolved properly later, by the elaborator.
//!
//! On a syntax error the parser reports once and skips to the next `;` or `}`.

use crate::ast::*;
use kiln_diagnostics::{Diagnostic, Span, codes};
use kiln_frontend::lex::{P, TokKind, Token};
use kiln_hir::types::AddrSpace;
use std::collections::HashSet;
use std::rc::Rc;

type PResult<T> = Result<T, ()>;

/// Words that never name a variable or type in C++ for OpenCL.
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "constexpr",
    "const_cast",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "nullptr",
    "operator",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
    "half",
    "__kernel",
    "kernel",
    "__global",
    "__local",
    "__constant",
    "__private",
    "__generic",
    "__read_only",
    "__write_only",
    "__read_write",
    "read_only",
    "write_only",
    "read_write",
    "__attribute__",
    "vec_step",
];

fn basic_word(s: &str) -> Option<TypeWord> {
    Some(match s {
        "void" => TypeWord::Void,
        "bool" => TypeWord::Bool,
        "char" => TypeWord::Char,
        "short" => TypeWord::Short,
        "int" => TypeWord::Int,
        "long" => TypeWord::Long,
        "float" => TypeWord::Float,
        "double" => TypeWord::Double,
        "half" => TypeWord::Half,
        "signed" => TypeWord::Signed,
        "unsigned" => TypeWord::Unsigned,
        _ => return None,
    })
}

fn address_space(s: &str) -> Option<AddrSpace> {
    Some(match s {
        "__global" | "global" => AddrSpace::Global,
        "__local" | "local" => AddrSpace::Local,
        "__constant" | "constant" => AddrSpace::Constant,
        "__private" => AddrSpace::Private,
        "__generic" | "generic" => AddrSpace::Generic,
        _ => return None,
    })
}

/// Overloadable operator spellings after `operator`, longest first.
const OPERATOR_NAMES: &[(&[P], &str)] = &[
    (&[P::LParen, P::RParen], "()"),
    (&[P::LBracket, P::RBracket], "[]"),
    (&[P::PlusAssign], "+="),
    (&[P::MinusAssign], "-="),
    (&[P::StarAssign], "*="),
    (&[P::SlashAssign], "/="),
    (&[P::PercentAssign], "%="),
    (&[P::AmpAssign], "&="),
    (&[P::PipeAssign], "|="),
    (&[P::CaretAssign], "^="),
    (&[P::ShlAssign], "<<="),
    (&[P::ShrAssign], ">>="),
    (&[P::EqEq], "=="),
    (&[P::Ne], "!="),
    (&[P::Le], "<="),
    (&[P::Ge], ">="),
    (&[P::AmpAmp], "&&"),
    (&[P::PipePipe], "||"),
    (&[P::PlusPlus], "++"),
    (&[P::MinusMinus], "--"),
    (&[P::Shl], "<<"),
    (&[P::Shr], ">>"),
    (&[P::Arrow], "->"),
    (&[P::Plus], "+"),
    (&[P::Minus], "-"),
    (&[P::Star], "*"),
    (&[P::Slash], "/"),
    (&[P::Percent], "%"),
    (&[P::Amp], "&"),
    (&[P::Pipe], "|"),
    (&[P::Caret], "^"),
    (&[P::Tilde], "~"),
    (&[P::Bang], "!"),
    (&[P::Assign], "="),
    (&[P::Lt], "<"),
    (&[P::Gt], ">"),
    (&[P::Comma], ","),
];

/// Declaration specifiers: flags, attributes and the base type.
struct Specs {
    ty: Option<Type>,
    flags: FuncFlags,
    decl: DeclFlags,
    attrs: Vec<Attribute>,
    is_const: bool,
    is_volatile: bool,
    space: Option<AddrSpace>,
    /// `read_only` / `write_only` (pipe parameters): `true` for write.
    access_write: Option<bool>,
    span: Span,
}

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    pub diags: Vec<Diagnostic>,
    types: HashSet<Rc<str>>,
    templates: HashSet<Rc<str>>,
    /// Names of the classes being defined, innermost last (constructors are named after them).
    classes: Vec<Rc<str>>,
    /// Template parameter lists in scope, innermost last.
    tparam_scopes: Vec<Vec<Rc<str>>>,
    /// Inside a template argument list: `>` ends it rather than comparing.
    in_targs: u32,
    /// Half of a `>>` was taken as the `>` closing a template argument list.
    split_shr: bool,
    /// A `template <...>` header was just read: the class that follows is a template (its
    /// name takes arguments inside its own body).
    template_pending: bool,
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token]) -> Self {
        let mut types: HashSet<Rc<str>> = HashSet::new();
        for t in ["size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t", "atomic_int", "atomic_uint", "atomic_flag"]
        {
            types.insert(t.into());
        }
        let mut templates: HashSet<Rc<str>> = HashSet::new();
        for t in [
            "__kiln_vector",
            "__kiln_local",
            "__kiln_global",
            "__kiln_priv",
            "__kiln_constant",
            "__kiln_pipe",
            "__kiln_pipe_storage",
            "__kiln_atomic",
            "__kiln_ptr_global",
            "__kiln_ptr_local",
            "__kiln_ptr_private",
            "__kiln_ptr_constant",
        ] {
            templates.insert(t.into());
            types.insert(t.into());
        }
        // The library's function templates kiln implements itself (`cl::convert_cast<T>`).
        for t in crate::elab::lookup::LIBRARY_INTRINSICS {
            templates.insert((*t).into());
        }
        Parser {
            toks,
            pos: 0,
            diags: Vec::new(),
            types,
            templates,
            classes: Vec::new(),
            tparam_scopes: Vec::new(),
            in_targs: 0,
            split_shr: false,
            template_pending: false,
        }
    }

    // ----- tokens -----

    fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn nth(&self, n: usize) -> &Token {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if !t.is_eof() {
            self.pos += 1;
        }
        t
    }

    fn at(&self, p: P) -> bool {
        if self.split_shr {
            return p == P::Gt;
        }
        self.tok().is_punct(p)
    }

    fn at_kw(&self, kw: &str) -> bool {
        self.tok().is_ident(kw)
    }

    fn eat(&mut self, p: P) -> bool {
        if self.split_shr {
            if p == P::Gt {
                self.split_shr = false;
                self.pos += 1;
                return true;
            }
            return false;
        }
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].span
    }

    fn error(&mut self, code: kiln_diagnostics::Code, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::error(code, msg.into()).at(span));
    }

    fn expect(&mut self, p: P, what: &str) -> PResult<Span> {
        if self.eat(p) {
            return Ok(self.prev_span());
        }
        let t = self.tok().clone();
        let code = if t.is_eof() { codes::UNEXPECTED_EOF } else { codes::EXPECTED_TOKEN };
        let found = if t.is_eof() { "the end of the file".to_string() } else { format!("`{}`", t.text) };
        self.error(code, format!("expected `{}` {what}, found {found}", p.spelling()), t.span);
        Err(())
    }

    /// `>` closing a template argument list, splitting a `>>`.
    fn expect_close_angle(&mut self) -> PResult<()> {
        if self.split_shr {
            self.split_shr = false;
            self.pos += 1;
            return Ok(());
        }
        if self.tok().is_punct(P::Shr) {
            self.split_shr = true;
            return Ok(());
        }
        self.expect(P::Gt, "to close the template argument list").map(|_| ())
    }

    fn ident(&mut self, what: &str) -> PResult<(Name, Span)> {
        let t = self.tok().clone();
        if t.kind == TokKind::Ident && !KEYWORDS.contains(&&*t.text) && !self.split_shr {
            self.bump();
            return Ok((t.text.clone(), t.span));
        }
        let found = if t.is_eof() { "the end of the file".to_string() } else { format!("`{}`", t.text) };
        self.error(codes::EXPECTED_TOKEN, format!("expected {what}, found {found}"), t.span);
        Err(())
    }

    fn is_plain_ident(t: &Token) -> bool {
        t.kind == TokKind::Ident && !KEYWORDS.contains(&&*t.text)
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}` that closes it.
    fn recover(&mut self) {
        self.split_shr = false;
        let mut depth = 0i32;
        loop {
            let t = self.tok().clone();
            if t.is_eof() {
                return;
            }
            match t.kind {
                TokKind::Punct(P::LBrace) | TokKind::Punct(P::LParen) | TokKind::Punct(P::LBracket) => depth += 1,
                TokKind::Punct(P::RBrace) | TokKind::Punct(P::RParen) | TokKind::Punct(P::RBracket) => {
                    if depth == 0 {
                        if t.is_punct(P::RBrace) {
                            return;
                        }
                    } else {
                        depth -= 1;
                        if depth == 0 && t.is_punct(P::RBrace) {
                            self.bump();
                            if self.at(P::Semi) {
                                self.bump();
                            }
                            return;
                        }
                    }
                }
                TokKind::Punct(P::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ----- names -----

    fn is_type_name(&self, name: &str) -> bool {
        self.types.contains(name)
            || self.tparam_scopes.iter().any(|s| s.iter().any(|n| &**n == name))
            || kiln_hir::types::builtin_type_name(name).is_some()
            || kiln_hir::types::builtin_type_name_cl2(name).is_some()
    }

    fn is_template_name(&self, name: &str) -> bool {
        self.templates.contains(name)
    }

    /// Whether the tokens at the cursor start a type.
    fn starts_type(&self) -> bool {
        self.starts_type_at(0)
    }

    fn starts_type_at(&self, n: usize) -> bool {
        let t = self.nth(n);
        if t.kind != TokKind::Ident {
            return t.is_punct(P::ColonColon) && self.qualified_type_at(n);
        }
        let s = &*t.text;
        if basic_word(s).is_some()
            || matches!(
                s,
                "const"
                    | "volatile"
                    | "struct"
                    | "class"
                    | "union"
                    | "enum"
                    | "typename"
                    | "auto"
                    | "decltype"
                    | "pipe"
            )
            || (address_space(s).is_some()
                && !self.nth(n + 1).is_punct(P::Lt)
                && !self.nth(n + 1).is_punct(P::ColonColon))
        {
            return true;
        }
        if KEYWORDS.contains(&s) {
            return false;
        }
        self.qualified_type_at(n)
    }

    /// Whether a (possibly qualified, possibly templated) name at `n` names a type.
    fn qualified_type_at(&self, mut n: usize) -> bool {
        if self.nth(n).is_punct(P::ColonColon) {
            n += 1;
        }
        loop {
            let t = self.nth(n);
            if t.kind != TokKind::Ident {
                return false;
            }
            let name = t.text.clone();
            n += 1;
            if self.nth(n).is_punct(P::Lt) && self.is_template_name(&name) {
                let Some(after) = self.skip_template_args_at(n) else { return false };
                n = after;
                if self.nth(n).is_punct(P::ColonColon) {
                    n += 1;
                    continue;
                }
                return self.is_type_name(&name);
            }
            if self.nth(n).is_punct(P::ColonColon) {
                n += 1;
                continue;
            }
            return self.is_type_name(&name);
        }
    }

    /// At a `<` `n` tokens ahead: the position just after its matching `>` (a `>>` closes two
    /// lists), or `None` at the end of a statement.
    fn skip_template_args_at(&self, mut n: usize) -> Option<usize> {
        let mut depth = 0i32;
        loop {
            let t = self.nth(n);
            if t.is_eof() || t.is_punct(P::Semi) || t.is_punct(P::LBrace) {
                return None;
            }
            if t.is_punct(P::Lt) {
                depth += 1;
            } else if t.is_punct(P::Gt) {
                depth -= 1;
            } else if t.is_punct(P::Shr) {
                depth -= 2;
            }
            n += 1;
            if depth <= 0 {
                return Some(n);
            }
        }
    }

    /// A possibly qualified name, with template arguments where a part names a template.
    /// `operator` names and `~X` are accepted as the last part.
    fn qual_name(&mut self) -> PResult<QualName> {
        let start = self.tok().span;
        let global = self.eat(P::ColonColon);
        let mut parts = Vec::new();
        loop {
            if self.eat_kw("template") {
                // `a::template b<...>`
            }
            let t = self.tok().clone();
            if t.is_ident("operator") {
                parts.push(self.operator_name()?);
                break;
            }
            if t.is_punct(P::Tilde) && Self::is_plain_ident(self.nth(1)) {
                self.bump();
                let (n, s) = self.ident("a destructor name")?;
                parts.push(NamePart { name: format!("~{n}").into(), targs: None, span: t.span.to(s) });
                break;
            }
            let (name, span) = if t.kind == TokKind::Ident
                && (!KEYWORDS.contains(&&*t.text) || address_space(&t.text).is_some() || &*t.text == "pipe")
            {
                self.bump();
                (t.text.clone(), t.span)
            } else {
                self.ident("a name")?
            };
            let targs = if self.at(P::Lt) && self.is_template_name(&name) { Some(self.template_args()?) } else { None };
            parts.push(NamePart { name, targs, span: span.to(self.prev_span()) });
            if self.at(P::ColonColon)
                && (Self::is_plain_ident(self.nth(1))
                    || self.nth(1).is_ident("operator")
                    || self.nth(1).is_punct(P::Tilde)
                    || self.nth(1).is_ident("template")
                    || self.nth(1).kind == TokKind::Ident)
            {
                self.bump();
                continue;
            }
            break;
        }
        Ok(QualName { global, parts, span: start.to(self.prev_span()) })
    }

    fn operator_name(&mut self) -> PResult<NamePart> {
        let start = self.bump().span; // `operator`
        for (ps, spelled) in OPERATOR_NAMES {
            if ps.iter().enumerate().all(|(i, p)| self.nth(i).is_punct(*p)) {
                for _ in 0..ps.len() {
                    self.bump();
                }
                return Ok(NamePart {
                    name: format!("operator{spelled}").into(),
                    targs: None,
                    span: start.to(self.prev_span()),
                });
            }
        }
        if self.at_kw("new") || self.at_kw("delete") {
            let t = self.bump();
            self.error(codes::CXX_FORBIDDEN, format!("`operator {}` is not allowed: OpenCL C++ does not support `new` and `delete` (OpenCL C++ 1.0 §2.9)", t.text), start.to(t.span));
            return Err(());
        }
        // A conversion function: `operator T`; its type is parsed by the caller.
        Ok(NamePart { name: "operator".into(), targs: None, span: start })
    }

    fn template_args(&mut self) -> PResult<Vec<TemplateArg>> {
        self.expect(P::Lt, "to start template arguments")?;
        let mut args = Vec::new();
        self.in_targs += 1;
        let r = (|| -> PResult<()> {
            if self.at(P::Gt) || self.tok().is_punct(P::Shr) {
                return Ok(());
            }
            loop {
                if self.starts_type() && !self.looks_like_value_after_type() {
                    args.push(TemplateArg::Type(self.type_name()?));
                } else {
                    args.push(TemplateArg::Expr(self.cond_expr()?));
                }
                if !self.eat(P::Comma) {
                    break;
                }
            }
            Ok(())
        })();
        self.in_targs -= 1;
        r?;
        self.expect_close_angle()?;
        Ok(args)
    }

    /// In a template argument, `T::value` or `sizeof(T)`-like things start with a type name but
    /// are values: a qualified name whose last part is not a type.
    fn looks_like_value_after_type(&self) -> bool {
        // `N` where N is a type parameter is a type; `T::size` is a value when `size` is not a type.
        self.looks_like_value_after_type_at(0)
    }

    // ----- attributes -----

    /// `__attribute__((...))` and `[[...]]`, any number.
    fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut out = Vec::new();
        loop {
            if self.at_kw("__attribute__") {
                let start = self.bump().span;
                self.expect(P::LParen, "after `__attribute__`")?;
                self.expect(P::LParen, "after `__attribute__(`")?;
                while !self.at(P::RParen) {
                    let t = self.bump();
                    if t.kind != TokKind::Ident {
                        self.error(codes::BAD_ATTRIBUTE, "expected an attribute name", t.span);
                        return Err(());
                    }
                    let args = self.attribute_args()?;
                    out.push(Attribute { scope: None, name: t.text.clone(), args, span: t.span.to(self.prev_span()) });
                    if !self.eat(P::Comma) {
                        break;
                    }
                }
                self.expect(P::RParen, "to close the attribute")?;
                self.expect(P::RParen, "to close `__attribute__`")?;
                let _ = start;
            } else if self.at(P::LBracket) && self.nth(1).is_punct(P::LBracket) {
                self.bump();
                self.bump();
                while !self.at(P::RBracket) {
                    let t = self.bump();
                    if t.kind != TokKind::Ident {
                        self.error(codes::BAD_ATTRIBUTE, "expected an attribute name", t.span);
                        return Err(());
                    }
                    let (scope, name, span) = if self.eat(P::ColonColon) {
                        let n = self.bump();
                        (Some(t.text.clone()), n.text.clone(), t.span.to(n.span))
                    } else {
                        (None, t.text.clone(), t.span)
                    };
                    let args = self.attribute_args()?;
                    out.push(Attribute { scope, name, args, span: span.to(self.prev_span()) });
                    if !self.eat(P::Comma) {
                        break;
                    }
                }
                self.expect(P::RBracket, "to close the attribute")?;
                self.expect(P::RBracket, "to close `[[`")?;
            } else if self.at_kw("alignas") {
                self.bump();
                self.expect(P::LParen, "after `alignas`")?;
                self.skip_balanced_parens()?;
            } else {
                return Ok(out);
            }
        }
    }

    fn attribute_args(&mut self) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if !self.eat(P::LParen) {
            return Ok(args);
        }
        while !self.at(P::RParen) {
            if self.starts_type() && !self.looks_like_value_after_type() {
                // `vec_type_hint(float4)`: kept as a name.
                let ty = self.type_name()?;
                args.push(Expr { kind: ExprKind::SizeofType(Box::new(ty.clone())), span: ty.span });
            } else {
                args.push(self.assign_expr()?);
            }
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RParen, "to close the attribute arguments")?;
        Ok(args)
    }

    /// After a `(`: skips to its matching `)`.
    fn skip_balanced_parens(&mut self) -> PResult<()> {
        let mut depth = 1;
        while depth > 0 {
            let t = self.bump();
            if t.is_eof() {
                self.error(codes::UNEXPECTED_EOF, "the file ends inside parentheses", t.span);
                return Err(());
            }
            if t.is_punct(P::LParen) {
                depth += 1;
            } else if t.is_punct(P::RParen) {
                depth -= 1;
            }
        }
        Ok(())
    }

    // ----- types -----

    /// Declaration specifiers. `ctor_of`: inside a class body, a name equal to the class's is a
    /// constructor, not a type.
    fn specs(&mut self, in_class: bool) -> PResult<Specs> {
        let start = self.tok().span;
        let mut s = Specs {
            ty: None,
            flags: FuncFlags::default(),
            decl: DeclFlags::default(),
            attrs: Vec::new(),
            is_const: false,
            is_volatile: false,
            space: None,
            access_write: None,
            span: start,
        };
        let mut words: Vec<TypeWord> = Vec::new();
        let mut words_span = None;
        loop {
            s.attrs.extend(self.attributes()?);
            let t = self.tok().clone();
            if t.kind != TokKind::Ident {
                if t.is_punct(P::ColonColon) && s.ty.is_none() && words.is_empty() {
                    if self.is_ctor_name_ahead(in_class) {
                        break;
                    }
                    s.ty = Some(self.named_type()?);
                    continue;
                }
                break;
            }
            let w = &*t.text;
            match w {
                "static" => s.decl.is_static = true,
                "constexpr" => s.decl.is_constexpr = true,
                "inline" | "__inline" | "__inline__" => s.decl.is_inline = true,
                "extern" => {
                    s.decl.is_extern = true;
                    if self.nth(1).kind == TokKind::Str {
                        self.bump();
                    }
                }
                "typedef" => s.decl.is_typedef = true,
                "virtual" => s.flags.is_virtual = true,
                "explicit" => s.flags.is_explicit = true,
                "friend" => s.flags.is_friend = true,
                "mutable" | "register" | "thread_local" if w != "mutable" => {
                    self.error(
                        codes::CXX_FORBIDDEN,
                        format!("`{w}` is not allowed: OpenCL C++ does not support the `register` and `thread_local` storage qualifiers (OpenCL C++ 1.0 §2.9)"),
                        t.span,
                    );
                }
                "mutable" => {}
                "__kernel" | "kernel" => s.flags.is_kernel = true,
                "const" | "__const" => s.is_const = true,
                "volatile" | "__volatile" => s.is_volatile = true,
                "read_only" | "__read_only" => s.access_write = Some(false),
                "write_only" | "__write_only" => s.access_write = Some(true),
                "read_write" | "__read_write" => {}
                "restrict" | "__restrict" | "__restrict__" => {}
                _ if address_space(w).is_some()
                    && !self.nth(1).is_punct(P::Lt)
                    && !self.nth(1).is_punct(P::ColonColon) =>
                {
                    s.space = address_space(w);
                }
                _ if basic_word(w).is_some() && s.ty.is_none() => {
                    words.push(basic_word(w).unwrap_or(TypeWord::Int));
                    words_span = Some(words_span.map_or(t.span, |x: Span| x.to(t.span)));
                }
                "struct" | "class" | "union" if s.ty.is_none() && words.is_empty() => {
                    let c = self.class_spec()?;
                    let span = c.span;
                    s.ty = Some(Type { kind: TypeKind::Class(Rc::new(c)), span });
                    continue;
                }
                "enum" if s.ty.is_none() && words.is_empty() => {
                    let e = self.enum_spec()?;
                    let span = e.span;
                    s.ty = Some(Type { kind: TypeKind::Enum(Rc::new(e)), span });
                    continue;
                }
                "auto" if s.ty.is_none() && words.is_empty() => {
                    s.ty = Some(Type { kind: TypeKind::Auto, span: t.span })
                }
                "decltype" if s.ty.is_none() && words.is_empty() => {
                    self.bump();
                    self.expect(P::LParen, "after `decltype`")?;
                    let e = if self.at_kw("auto") {
                        self.bump();
                        Expr { kind: ExprKind::Forbidden("decltype(auto)"), span: t.span }
                    } else {
                        self.expr()?
                    };
                    self.expect(P::RParen, "to close `decltype`")?;
                    s.ty = Some(Type { kind: TypeKind::Decltype(Box::new(e)), span: t.span.to(self.prev_span()) });
                    continue;
                }
                "typename" if s.ty.is_none() && words.is_empty() => {
                    self.bump();
                    s.ty = Some(self.named_type()?);
                    continue;
                }
                "pipe" if s.ty.is_none() && words.is_empty() && !self.nth(1).is_punct(P::Lt) => {
                    self.bump();
                    let inner = self.type_name()?;
                    let span = t.span.to(inner.span);
                    s.ty = Some(Type { kind: TypeKind::Pipe(Box::new(inner), false), span });
                    continue;
                }
                _ if s.ty.is_none() && words.is_empty() && !KEYWORDS.contains(&w) => {
                    if self.is_ctor_name_ahead(in_class) {
                        break;
                    }
                    if !self.qualified_type_at(0)
                        && !(address_space(w).is_some())
                        && !(w == "pipe")
                        && !self.unknown_type_declaration_ahead()
                    {
                        break;
                    }
                    s.ty = Some(self.named_type()?);
                    continue;
                }
                _ if s.ty.is_none() && words.is_empty() && address_space(w).is_some() => {
                    // `local<T>` / `global<T>` (the OpenCL C++ library's storage classes).
                    s.ty = Some(self.named_type()?);
                    continue;
                }
                _ => break,
            }
            self.bump();
        }
        if !words.is_empty() {
            s.ty = Some(Type { kind: TypeKind::Words(words), span: words_span.unwrap_or(start) });
        }
        if let Some(ty) = s.ty.take() {
            let span = ty.span;
            s.ty = Some(if s.is_const || s.is_volatile || s.space.is_some() {
                Type {
                    kind: TypeKind::Qualified {
                        inner: Box::new(ty),
                        is_const: s.is_const,
                        is_volatile: s.is_volatile,
                        space: s.space,
                    },
                    span,
                }
            } else {
                ty
            });
        }
        if let (Some(w), Some(ty)) = (s.access_write, s.ty.as_mut())
            && let TypeKind::Pipe(_, write) = &mut ty.kind
        {
            *write = w;
        }
        s.flags.is_static = s.decl.is_static;
        s.flags.is_constexpr = s.decl.is_constexpr;
        s.flags.is_inline = s.decl.is_inline;
        s.flags.is_extern = s.decl.is_extern;
        s.span = start.to(self.prev_span());
        Ok(s)
    }

    /// Inside class `X`: `X(` or `X<...>(` (a constructor) follows; at namespace scope, `A::A(`
    /// or `A<T>::A(` (an out-of-line constructor) or `A::~A(`.
    fn is_ctor_name_ahead(&self, in_class: bool) -> bool {
        let t = self.tok();
        if in_class && let Some(c) = self.classes.last() {
            if t.text == *c && self.nth(1).is_punct(P::LParen) {
                return true;
            }
        }
        // Qualified: scan `a::b::c(`, and check the last two parts are equal or the last is `~b`.
        let mut n = if t.is_punct(P::ColonColon) { 1 } else { 0 };
        let mut prev: Option<Rc<str>> = None;
        loop {
            let t = self.nth(n);
            if t.is_punct(P::Tilde) {
                return prev.is_some() && self.nth(n + 1).kind == TokKind::Ident;
            }
            if t.kind != TokKind::Ident {
                return false;
            }
            let name = t.text.clone();
            n += 1;
            if self.nth(n).is_punct(P::Lt) && self.is_template_name(&name) {
                let Some(after) = self.skip_template_args_at(n) else { return false };
                n = after;
            }
            if self.nth(n).is_punct(P::ColonColon) {
                prev = Some(name);
                n += 1;
                continue;
            }
            return prev.as_deref() == Some(&*name) && self.nth(n).is_punct(P::LParen);
        }
    }

    fn named_type(&mut self) -> PResult<Type> {
        let q = self.qual_name()?;
        let span = q.span;
        // `pipe<T>` without `cl::` is the library's class template too.
        Ok(Type { kind: TypeKind::Named(q), span })
    }

    /// A type-id: specifiers and an abstract declarator (`const int *`, `Vec<T>&`).
    pub fn type_name(&mut self) -> PResult<Type> {
        let s = self.specs(false)?;
        let Some(base) = s.ty else {
            let t = self.tok().clone();
            self.error(codes::EXPECTED_TYPE, format!("expected a type, found `{}`", t.text), t.span);
            return Err(());
        };
        let d = self.declarator(base, true)?;
        Ok(d.ty)
    }

    // ----- declarators -----

    /// Pointer, reference and array parts around an (optional) name; a function's parameter
    /// list.
    fn declarator(&mut self, base: Type, abstract_ok: bool) -> PResult<Declarator> {
        let mut ty = base;
        loop {
            let t = self.tok().clone();
            if t.is_punct(P::Star) {
                self.bump();
                let span = ty.span.to(t.span);
                ty = Type { kind: TypeKind::Pointer(Box::new(ty)), span };
                let (mut c, mut v, mut sp) = (false, false, None);
                loop {
                    if self.eat_kw("const") {
                        c = true;
                    } else if self.eat_kw("volatile") {
                        v = true;
                    } else if self.eat_kw("restrict") || self.eat_kw("__restrict") || self.eat_kw("__restrict__") {
                    } else if let Some(a) =
                        address_space(&self.tok().text.clone()).filter(|_| self.tok().kind == TokKind::Ident)
                    {
                        self.bump();
                        sp = Some(a);
                    } else {
                        break;
                    }
                }
                if c || v || sp.is_some() {
                    let span = ty.span;
                    ty = Type {
                        kind: TypeKind::Qualified { inner: Box::new(ty), is_const: c, is_volatile: v, space: sp },
                        span,
                    };
                }
            } else if t.is_punct(P::Amp) || t.is_punct(P::AmpAmp) {
                self.bump();
                let span = ty.span.to(t.span);
                ty = Type { kind: TypeKind::Ref(Box::new(ty), t.is_punct(P::AmpAmp)), span };
            } else if t.kind == TokKind::Ident && address_space(&t.text).is_some() && !self.nth(1).is_punct(P::Lt) {
                // `int * __global p` style placement is handled above; `T __local &` rare.
                break;
            } else {
                break;
            }
        }
        let attrs_before = self.attributes()?;
        let mut name = None;
        // `T (&a)[N]` and `T (*p)[N]`: a reference or pointer to an array.
        if self.at(P::LParen)
            && (self.nth(1).is_punct(P::Amp) || self.nth(1).is_punct(P::Star))
            && Self::is_plain_ident(self.nth(2))
            && self.nth(3).is_punct(P::RParen)
            && self.nth(4).is_punct(P::LBracket)
        {
            self.bump();
            let is_ref = self.bump().is_punct(P::Amp);
            let (n, nspan) = self.ident("a name")?;
            self.bump();
            let mut dims: Vec<(Option<Box<Expr>>, Span)> = Vec::new();
            while self.at(P::LBracket) {
                let open = self.bump().span;
                let size = if self.at(P::RBracket) { None } else { Some(Box::new(self.expr()?)) };
                let close = self.expect(P::RBracket, "to close the array size")?;
                dims.push((size, open.to(close)));
            }
            for (size, span) in dims.into_iter().rev() {
                let s = ty.span.to(span);
                ty = Type { kind: TypeKind::Array(Box::new(ty), size), span: s };
            }
            let span = ty.span;
            ty = if is_ref {
                Type { kind: TypeKind::Ref(Box::new(ty), false), span }
            } else {
                Type { kind: TypeKind::Pointer(Box::new(ty)), span }
            };
            let attrs = self.attributes()?;
            return Ok(Declarator { name: Some(QualName::simple(n, nspan)), ty, func: None, conversion: None, attrs });
        }
        if self.at(P::LParen) && self.nth(1).is_punct(P::Star) {
            let t = self.tok().clone();
            self.error(
                codes::CXX_FORBIDDEN,
                "function pointers are not allowed: OpenCL C++ does not support function pointers (OpenCL C++ 1.0 §2.9)",
                t.span,
            );
            return Err(());
        }
        if self.tok().kind == TokKind::Ident && (!KEYWORDS.contains(&&*self.tok().text) || self.at_kw("operator"))
            || self.at(P::ColonColon)
            || (self.at(P::Tilde) && Self::is_plain_ident(self.nth(1)))
        {
            if !(abstract_ok && self.starts_type()) {
                name = Some(self.qual_name()?);
            }
        }
        if name.is_none() && !abstract_ok {
            let t = self.tok().clone();
            let found = if t.is_eof() { "the end of the file".to_string() } else { format!("`{}`", t.text) };
            self.error(codes::BAD_DECLARATOR, format!("expected a name in the declaration, found {found}"), t.span);
            return Err(());
        }
        let mut conversion = None;
        if let Some(q) = &name
            && &*q.last().name == "operator"
        {
            // `operator T()`: the conversion's type, without a declarator name.
            let s = self.specs(false)?;
            let Some(base) = s.ty else {
                let t = self.tok().clone();
                self.error(codes::EXPECTED_TYPE, "expected the type of the conversion function", t.span);
                return Err(());
            };
            let mut cty = base;
            while self.at(P::Star) || self.at(P::Amp) {
                let t = self.bump();
                let span = cty.span.to(t.span);
                cty = if t.is_punct(P::Star) {
                    Type { kind: TypeKind::Pointer(Box::new(cty)), span }
                } else {
                    Type { kind: TypeKind::Ref(Box::new(cty), false), span }
                };
            }
            conversion = Some(cty);
        }
        let mut func = None;
        let mut dims: Vec<(Option<Box<Expr>>, Span)> = Vec::new();
        if self.at(P::LParen) && (name.is_some() || abstract_ok) && self.is_param_list_ahead(name.is_some()) {
            func = Some(self.param_list()?);
        } else {
            while self.at(P::LBracket) && !self.nth(1).is_punct(P::LBracket) {
                let open = self.bump().span;
                let size = if self.at(P::RBracket) { None } else { Some(Box::new(self.expr()?)) };
                let close = self.expect(P::RBracket, "to close the array size")?;
                dims.push((size, open.to(close)));
            }
        }
        for (size, span) in dims.into_iter().rev() {
            let s = ty.span.to(span);
            ty = Type { kind: TypeKind::Array(Box::new(ty), size), span: s };
        }
        let mut attrs = attrs_before;
        attrs.extend(self.attributes()?);
        Ok(Declarator { name, ty, func, conversion, attrs })
    }

    /// At `(` after a declarator name: a parameter list (a function) rather than a
    /// constructor call's arguments (`S s(1, 2);`).
    fn is_param_list_ahead(&self, named: bool) -> bool {
        let t = self.nth(1);
        if t.is_punct(P::RParen) {
            return true;
        }
        if t.is_punct(P::Ellipsis) {
            return true;
        }
        let _ = named;
        // A type starts a parameter; `void` too.
        let mut n = 1;
        while self.nth(n).is_ident("const") || self.nth(n).is_ident("volatile") {
            n += 1;
        }
        self.starts_type_at(n) || self.starts_type_at(1)
    }

    fn param_list(&mut self) -> PResult<FuncDecl> {
        self.expect(P::LParen, "to start the parameter list")?;
        let mut params = Vec::new();
        let mut variadic = false;
        if !(self.at_kw("void") && self.nth(1).is_punct(P::RParen)) {
            while !self.at(P::RParen) {
                if self.eat(P::Ellipsis) {
                    variadic = true;
                    break;
                }
                let start = self.tok().span;
                let s = self.specs(false)?;
                let Some(base) = s.ty else {
                    let t = self.tok().clone();
                    self.error(codes::EXPECTED_TYPE, format!("expected a parameter type, found `{}`", t.text), t.span);
                    return Err(());
                };
                let pack_before = self.eat(P::Ellipsis);
                let d = self.declarator(base, true)?;
                let pack = pack_before || self.eat(P::Ellipsis);
                let name = d.name.as_ref().map(|q| (q.last().name.clone(), q.span));
                let default = if self.eat(P::Assign) { Some(self.assign_expr()?) } else { None };
                params.push(Param { ty: d.ty, name, default, pack, span: start.to(self.prev_span()) });
                if !self.eat(P::Comma) {
                    break;
                }
            }
        } else {
            self.bump();
        }
        self.expect(P::RParen, "to close the parameter list")?;
        let mut is_const = false;
        let mut trailing = None;
        loop {
            if self.eat_kw("const") {
                is_const = true;
            } else if self.eat_kw("volatile") || self.eat(P::Amp) || self.eat(P::AmpAmp) {
            } else if self.eat_kw("noexcept") {
                if self.eat(P::LParen) {
                    self.skip_balanced_parens()?;
                }
            } else if self.at_kw("override") || self.at_kw("final") {
                let t = self.bump();
                self.error(
                    codes::CXX_FORBIDDEN,
                    format!(
                        "`{}` is not allowed: OpenCL C++ does not support virtual functions (OpenCL C++ 1.0 §2.9)",
                        t.text
                    ),
                    t.span,
                );
            } else if self.at(P::Arrow) {
                self.bump();
                trailing = Some(self.type_name()?);
            } else {
                break;
            }
        }
        Ok(FuncDecl { params, variadic, is_const, trailing })
    }

    // ----- templates -----

    fn template_params(&mut self) -> PResult<Vec<TemplateParam>> {
        self.expect(P::Lt, "after `template`")?;
        let mut out = Vec::new();
        self.in_targs += 1;
        let r = (|| -> PResult<()> {
            while !self.at(P::Gt) {
                let start = self.tok().span;
                if self.at_kw("typename") || self.at_kw("class") {
                    self.bump();
                    let pack = self.eat(P::Ellipsis);
                    let (name, span) = if Self::is_plain_ident(self.tok()) {
                        self.ident("a template parameter name")?
                    } else {
                        (format!("<unnamed {}>", out.len()).into(), start)
                    };
                    let default = if self.eat(P::Assign) { Some(self.type_name()?) } else { None };
                    out.push(TemplateParam {
                        name,
                        kind: TemplateParamKind::Type { default },
                        pack,
                        span: start.to(span),
                    });
                } else if self.at_kw("template") {
                    let t = self.tok().clone();
                    self.error(
                        codes::CXX_UNSUPPORTED,
                        "template template parameters are not yet supported by kiln",
                        t.span,
                    );
                    return Err(());
                } else {
                    let s = self.specs(false)?;
                    let Some(base) = s.ty else {
                        let t = self.tok().clone();
                        self.error(
                            codes::EXPECTED_TYPE,
                            format!("expected a template parameter, found `{}`", t.text),
                            t.span,
                        );
                        return Err(());
                    };
                    let pack = self.eat(P::Ellipsis);
                    let d = self.declarator(base, true)?;
                    let (name, span) = match d.name {
                        Some(q) => (q.last().name.clone(), q.span),
                        None => (format!("<unnamed {}>", out.len()).into(), start),
                    };
                    let default = if self.eat(P::Assign) { Some(self.cond_expr()?) } else { None };
                    out.push(TemplateParam {
                        name,
                        kind: TemplateParamKind::Value { ty: d.ty, default },
                        pack,
                        span: start.to(span),
                    });
                }
                if !self.eat(P::Comma) {
                    break;
                }
            }
            Ok(())
        })();
        self.in_targs -= 1;
        r?;
        self.expect_close_angle()?;
        if self.split_shr {
            self.split_shr = false;
            self.pos += 1;
        }
        Ok(out)
    }

    fn with_tparams<T>(
        &mut self,
        tps: &Option<Vec<TemplateParam>>,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        let names: Vec<Rc<str>> = tps
            .iter()
            .flatten()
            .filter(|p| matches!(p.kind, TemplateParamKind::Type { .. }))
            .map(|p| p.name.clone())
            .collect();
        self.tparam_scopes.push(names);
        let r = f(self);
        self.tparam_scopes.pop();
        r
    }

    // ----- classes and enums -----

    fn class_spec(&mut self) -> PResult<ClassDef> {
        let kw = self.bump();
        let key = match &*kw.text {
            "class" => ClassKey::Class,
            "union" => ClassKey::Union,
            _ => ClassKey::Struct,
        };
        let is_template = std::mem::take(&mut self.template_pending);
        let mut attrs = self.attributes()?;
        let name =
            if self.tok().kind == TokKind::Ident && !KEYWORDS.contains(&&*self.tok().text) || self.at(P::ColonColon) {
                let q = self.qual_name()?;
                self.types.insert(q.last().name.clone());
                if is_template {
                    self.templates.insert(q.last().name.clone());
                }
                Some(q)
            } else {
                None
            };
        attrs.extend(self.attributes()?);
        if self.at_kw("final") {
            self.bump();
        }
        let mut bases = Vec::new();
        if self.at(P::Colon) {
            self.bump();
            loop {
                let mut access = if key == ClassKey::Class { Access::Private } else { Access::Public };
                loop {
                    if self.eat_kw("public") {
                        access = Access::Public;
                    } else if self.eat_kw("protected") {
                        access = Access::Protected;
                    } else if self.eat_kw("private") {
                        access = Access::Private;
                    } else if self.at_kw("virtual") {
                        self.bump();
                    } else {
                        break;
                    }
                }
                let ty = self.named_type()?;
                bases.push((ty, access));
                if !self.eat(P::Comma) {
                    break;
                }
            }
        }
        let members = if self.at(P::LBrace) {
            let cname = name.as_ref().map(|q| q.last().name.clone()).unwrap_or_else(|| "<anonymous>".into());
            self.classes.push(cname);
            let r = self.class_body(key);
            self.classes.pop();
            Some(r?)
        } else {
            None
        };
        Ok(ClassDef { key, name, tparams: None, bases, members, attrs, span: kw.span.to(self.prev_span()) })
    }

    fn class_body(&mut self, key: ClassKey) -> PResult<Vec<Member>> {
        self.expect(P::LBrace, "to start the class body")?;
        let mut access = if key == ClassKey::Class { Access::Private } else { Access::Public };
        let mut members = Vec::new();
        while !self.at(P::RBrace) {
            if self.tok().is_eof() {
                let t = self.tok().clone();
                self.error(codes::UNEXPECTED_EOF, "the file ends inside a class body", t.span);
                return Err(());
            }
            if (self.at_kw("public") || self.at_kw("protected") || self.at_kw("private"))
                && self.nth(1).is_punct(P::Colon)
            {
                access = match &*self.bump().text {
                    "public" => Access::Public,
                    "protected" => Access::Protected,
                    _ => Access::Private,
                };
                self.bump();
                continue;
            }
            if self.tok().kind == TokKind::Pragma {
                self.bump();
                continue;
            }
            match self.member(access) {
                Ok(ms) => members.extend(ms),
                Err(()) => self.recover(),
            }
        }
        self.expect(P::RBrace, "to close the class body")?;
        Ok(members)
    }

    fn member(&mut self, access: Access) -> PResult<Vec<Member>> {
        if self.eat(P::Semi) {
            return Ok(vec![]);
        }
        if self.at_kw("static_assert") {
            return Ok(vec![Member::StaticAssert(self.static_assert()?)]);
        }
        if self.at_kw("using") {
            let start = self.bump().span;
            if Self::is_plain_ident(self.tok()) && self.nth(1).is_punct(P::Assign) {
                let (name, _) = self.ident("an alias name")?;
                self.bump();
                let ty = self.type_name()?;
                self.expect(P::Semi, "after the alias")?;
                self.types.insert(name.clone());
                return Ok(vec![Member::Alias { name, tparams: None, ty, span: start.to(self.prev_span()) }]);
            }
            let q = self.qual_name()?;
            self.expect(P::Semi, "after the using-declaration")?;
            return Ok(vec![Member::Using(q, start.to(self.prev_span()))]);
        }
        if self.at_kw("template") {
            let start = self.bump().span;
            let tps = self.template_params()?;
            self.template_pending = !tps.is_empty();
            let tps = Some(tps);
            return self.with_tparams(&tps.clone(), |p| {
                if p.at_kw("using") {
                    p.bump();
                    let (name, _) = p.ident("an alias name")?;
                    p.expect(P::Assign, "in the alias template")?;
                    let ty = p.type_name()?;
                    p.expect(P::Semi, "after the alias template")?;
                    p.templates.insert(name.clone());
                    p.types.insert(name.clone());
                    return Ok(vec![Member::Alias { name, tparams: tps.clone(), ty, span: start.to(p.prev_span()) }]);
                }
                let mut ms = p.member(access)?;
                for m in &mut ms {
                    match m {
                        Member::Method { def, .. } => {
                            let mut d = (**def).clone();
                            p.templates.insert(d.name.last().name.clone());
                            // (a member function template names no type)
                            d.tparams = tps.clone();
                            *def = Rc::new(d);
                        }
                        Member::Class(c) => {
                            let mut d = (**c).clone();
                            if let Some(n) = &d.name {
                                p.templates.insert(n.last().name.clone());
                                p.types.insert(n.last().name.clone());
                            }
                            d.tparams = tps.clone();
                            *c = Rc::new(d);
                        }
                        _ => {}
                    }
                }
                Ok(ms)
            });
        }
        let start = self.tok().span;
        let s = self.specs(true)?;
        let Some(base) = s.ty.clone() else {
            // A constructor, destructor or conversion function.
            let d = self.declarator(Type { kind: TypeKind::Words(vec![TypeWord::Void]), span: start }, false)?;
            let def = self.function_rest(None, &s, d, start)?;
            return Ok(vec![Member::Method { def: Rc::new(def), access, friend: s.flags.is_friend }]);
        };
        if self.at(P::Semi) {
            self.bump();
            return Ok(match base.kind {
                TypeKind::Class(c) => vec![Member::Class(c)],
                TypeKind::Enum(e) => vec![Member::Enum(e)],
                _ => vec![],
            });
        }
        if s.decl.is_typedef {
            let d = self.declarator(base, false)?;
            self.expect(P::Semi, "after the typedef")?;
            let name = d.name.map(|q| q.last().name.clone()).unwrap_or_else(|| "<typedef>".into());
            self.types.insert(name.clone());
            return Ok(vec![Member::Alias { name, tparams: None, ty: d.ty, span: start.to(self.prev_span()) }]);
        }
        let mut out = Vec::new();
        if let TypeKind::Class(c) = &base.kind
            && c.members.is_some()
        {
            out.push(Member::Class(c.clone()));
        }
        if let TypeKind::Enum(e) = &base.kind
            && e.variants.is_some()
        {
            out.push(Member::Enum(e.clone()));
        }
        loop {
            let d = self.declarator(base.clone(), false)?;
            if d.func.is_some() {
                let def = self.function_rest(Some(base.clone()), &s, d, start)?;
                out.push(Member::Method { def: Rc::new(def), access, friend: s.flags.is_friend });
                return Ok(out);
            }
            let name = match &d.name {
                Some(q) => q.last().clone(),
                None => return Err(()),
            };
            if self.at(P::Colon) {
                let t = self.tok().clone();
                self.error(codes::BIT_FIELD, "bit-fields are not allowed in OpenCL", t.span);
                return Err(());
            }
            let init = self.initializer()?;
            out.push(Member::Field {
                decl: VarDecl {
                    ty: d.ty,
                    name: name.name,
                    name_span: name.span,
                    init,
                    flags: s.decl.clone(),
                    attrs: d.attrs,
                    span: start.to(self.prev_span()),
                },
                access,
            });
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::Semi, "after the member declaration")?;
        Ok(out)
    }

    fn enum_spec(&mut self) -> PResult<EnumDef> {
        let start = self.bump().span; // enum
        let scoped = self.eat_kw("class") || self.eat_kw("struct");
        let name = if Self::is_plain_ident(self.tok()) { Some(self.ident("an enum name")?) } else { None };
        if let Some((n, _)) = &name {
            self.types.insert(n.clone());
        }
        let base = if self.eat(P::Colon) { Some(self.type_name()?) } else { None };
        let variants = if self.eat(P::LBrace) {
            let mut vs = Vec::new();
            while !self.at(P::RBrace) {
                let (n, s) = self.ident("an enumerator")?;
                let _ = self.attributes()?;
                let v = if self.eat(P::Assign) { Some(self.cond_expr()?) } else { None };
                vs.push((n, s, v));
                if !self.eat(P::Comma) {
                    break;
                }
            }
            self.expect(P::RBrace, "to close the enumeration")?;
            Some(vs)
        } else {
            None
        };
        Ok(EnumDef { name, scoped, base, variants, span: start.to(self.prev_span()) })
    }

    // ----- declarations -----

    fn static_assert(&mut self) -> PResult<StaticAssert> {
        let start = self.bump().span;
        self.expect(P::LParen, "after `static_assert`")?;
        let cond = self.assign_expr()?;
        let message = if self.eat(P::Comma) {
            let t = self.bump();
            if t.kind != TokKind::Str {
                self.error(codes::EXPECTED_TOKEN, "expected the message string of `static_assert`", t.span);
                return Err(());
            }
            let mut m = string_body(&t.text);
            while self.tok().kind == TokKind::Str {
                m.push_str(&string_body(&self.bump().text));
            }
            Some(m)
        } else {
            None
        };
        self.expect(P::RParen, "to close `static_assert`")?;
        self.expect(P::Semi, "after `static_assert`")?;
        Ok(StaticAssert { cond, message, span: start.to(self.prev_span()) })
    }

    /// The rest of a function after its declarator: a body, `= default`, `= delete` or `;`.
    fn function_rest(&mut self, ret: Option<Type>, s: &Specs, d: Declarator, start: Span) -> PResult<FuncDef> {
        // A function template's name takes template arguments in its own body (`f<N - 1>()`).
        if std::mem::take(&mut self.template_pending)
            && let Some(q) = &d.name
        {
            self.templates.insert(q.last().name.clone());
        }
        let fd = d.func.unwrap_or(FuncDecl { params: vec![], variadic: false, is_const: false, trailing: None });
        let name = d.name.unwrap_or_else(|| QualName::simple("<unnamed>".into(), start));
        let mut flags = s.flags.clone();
        flags.is_const = fd.is_const;
        let ret = match (ret, fd.trailing) {
            (_, Some(t)) => Some(t),
            (r, None) => {
                if d.conversion.is_some() || name.last().name.starts_with('~') {
                    None
                } else {
                    r.map(|_| d.ty.clone())
                }
            }
        };
        let mut attrs = s.attrs.clone();
        attrs.extend(d.attrs);
        let mut inits = Vec::new();
        let mut body = None;
        if self.eat(P::Assign) {
            if self.eat_kw("default") {
                flags.defaulted = true;
            } else if self.eat_kw("delete") {
                flags.deleted = true;
            } else if self.tok().text.as_ref() == "0" {
                let t = self.bump();
                self.error(codes::CXX_FORBIDDEN, "pure virtual functions are not allowed: OpenCL C++ does not support virtual functions and abstract classes (OpenCL C++ 1.0 §2.9)", t.span);
            }
            self.expect(P::Semi, "after the function declaration")?;
        } else if self.at(P::Semi) {
            self.bump();
        } else {
            if self.eat(P::Colon) {
                loop {
                    let istart = self.tok().span;
                    let q = self.qual_name()?;
                    let init = if self.at(P::LBrace) {
                        let (elems, span) = self.brace_list()?;
                        Init::Brace(elems, span)
                    } else {
                        let open = self.expect(P::LParen, "after the member initializer's name")?;
                        let args = self.call_args()?;
                        Init::Paren(args, open.to(self.prev_span()))
                    };
                    inits.push(MemInit { name: q, init, span: istart.to(self.prev_span()) });
                    if !self.eat(P::Comma) {
                        break;
                    }
                }
            }
            if !self.at(P::LBrace) {
                let t = self.tok().clone();
                self.error(
                    codes::EXPECTED_TOKEN,
                    format!("expected `{{` or `;` after the function declarator, found `{}`", t.text),
                    t.span,
                );
                return Err(());
            }
            body = Some(self.compound()?);
        }
        Ok(FuncDef {
            name,
            tparams: None,
            ret,
            params: fd.params,
            variadic: fd.variadic,
            flags,
            conversion: d.conversion,
            inits,
            body,
            attrs,
            span: start.to(self.prev_span()),
        })
    }

    fn initializer(&mut self) -> PResult<Option<Init>> {
        if self.eat(P::Assign) {
            if self.at(P::LBrace) {
                let (elems, span) = self.brace_list()?;
                return Ok(Some(Init::Brace(elems, span)));
            }
            return Ok(Some(Init::Assign(self.assign_expr()?)));
        }
        if self.at(P::LBrace) {
            let (elems, span) = self.brace_list()?;
            return Ok(Some(Init::Brace(elems, span)));
        }
        if self.at(P::LParen) {
            let open = self.bump().span;
            let args = self.call_args()?;
            return Ok(Some(Init::Paren(args, open.to(self.prev_span()))));
        }
        Ok(None)
    }

    /// `{ a, .x = b, {c, d} }`
    fn brace_list(&mut self) -> PResult<(Vec<InitElem>, Span)> {
        let open = self.expect(P::LBrace, "to start the initializer list")?;
        let mut elems = Vec::new();
        while !self.at(P::RBrace) {
            let designator = if self.at(P::Dot) && Self::is_plain_ident(self.nth(1)) && self.nth(2).is_punct(P::Assign)
            {
                self.bump();
                let d = self.ident("a member name")?;
                self.bump();
                Some(d)
            } else {
                None
            };
            let value = if self.at(P::LBrace) {
                let (e, s) = self.brace_list()?;
                InitValue::Brace(e, s)
            } else {
                let e = self.assign_expr()?;
                InitValue::Expr(self.pack_expansion(e))
            };
            elems.push(InitElem { designator, value });
            if !self.eat(P::Comma) {
                break;
            }
        }
        let close = self.expect(P::RBrace, "to close the initializer list")?;
        Ok((elems, open.to(close)))
    }

    /// Variables (and functions) after their specifiers: `a = 1, *b, c[4]`.
    fn declaration_rest(&mut self, s: &Specs, start: Span, items: &mut Vec<Item>) -> PResult<()> {
        let Some(base) = s.ty.clone() else {
            let d = self.declarator(Type { kind: TypeKind::Words(vec![TypeWord::Void]), span: start }, false)?;
            let def = self.function_rest(None, s, d, start)?;
            items.push(Item::Func(Rc::new(def)));
            return Ok(());
        };
        if let TypeKind::Class(c) = &base.kind
            && (c.members.is_some() || self.at(P::Semi))
        {
            items.push(Item::Class(c.clone()));
        }
        if let TypeKind::Enum(e) = &base.kind {
            items.push(Item::Enum(e.clone()));
        }
        if self.eat(P::Semi) {
            return Ok(());
        }
        loop {
            let d = self.declarator(base.clone(), false)?;
            if s.decl.is_typedef {
                let name = d.name.map(|q| q.last().name.clone()).unwrap_or_else(|| "<typedef>".into());
                self.types.insert(name.clone());
                items.push(Item::Alias { name, tparams: None, ty: d.ty, span: start.to(self.prev_span()) });
            } else if d.func.is_some() {
                let def = self.function_rest(Some(base.clone()), s, d, start)?;
                items.push(Item::Func(Rc::new(def)));
                return Ok(());
            } else {
                let Some(q) = d.name else { return Err(()) };
                let init = self.initializer()?;
                let mut attrs = s.attrs.clone();
                attrs.extend(d.attrs);
                items.push(Item::Var(VarDecl {
                    ty: d.ty,
                    name: q.last().name.clone(),
                    name_span: q.span,
                    init,
                    flags: s.decl.clone(),
                    attrs,
                    span: start.to(self.prev_span()),
                }));
            }
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::Semi, "after the declaration")?;
        Ok(())
    }

    pub fn translation_unit(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        while !self.tok().is_eof() {
            if self.at(P::RBrace) {
                let t = self.bump();
                self.error(codes::EXPECTED_TYPE, "unexpected `}`", t.span);
                continue;
            }
            let before = self.pos;
            if self.item(&mut items).is_err() {
                self.recover();
                if self.pos == before {
                    self.bump();
                }
            }
        }
        items
    }

    fn item(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        let t = self.tok().clone();
        if t.kind == TokKind::Pragma {
            self.bump();
            items.push(Item::Pragma(pragma_of(&t)));
            return Ok(());
        }
        if self.eat(P::Semi) {
            return Ok(());
        }
        if t.is_ident("namespace") {
            self.bump();
            let name = if Self::is_plain_ident(self.tok()) { Some(self.ident("a namespace name")?) } else { None };
            if let Some((n, _)) = &name
                && self.at(P::ColonColon)
            {
                // `namespace a::b { }`
                let mut names = vec![name.clone().unwrap_or((n.clone(), t.span))];
                while self.eat(P::ColonColon) {
                    names.push(self.ident("a namespace name")?);
                }
                let inner = self.namespace_body()?;
                let span = t.span.to(self.prev_span());
                let mut nested = inner;
                for n in names.into_iter().rev() {
                    nested = vec![Item::Namespace { name: Some(n), items: nested, span }];
                }
                items.extend(nested);
                return Ok(());
            }
            if self.eat(P::Assign) {
                let q = self.qual_name()?;
                self.expect(P::Semi, "after the namespace alias")?;
                let span = t.span.to(self.prev_span());
                // A namespace alias: kept as a using-directive inside a namespace of that name.
                items.push(Item::Namespace { name, items: vec![Item::UsingNamespace(q, span)], span });
                return Ok(());
            }
            let inner = self.namespace_body()?;
            items.push(Item::Namespace { name, items: inner, span: t.span.to(self.prev_span()) });
            return Ok(());
        }
        if t.is_ident("using") {
            self.bump();
            if self.eat_kw("namespace") {
                let q = self.qual_name()?;
                self.expect(P::Semi, "after the using-directive")?;
                items.push(Item::UsingNamespace(q, t.span.to(self.prev_span())));
                return Ok(());
            }
            if Self::is_plain_ident(self.tok()) && self.nth(1).is_punct(P::Assign) {
                let (name, _) = self.ident("an alias name")?;
                self.bump();
                let ty = self.type_name()?;
                self.expect(P::Semi, "after the alias")?;
                self.types.insert(name.clone());
                items.push(Item::Alias { name, tparams: None, ty, span: t.span.to(self.prev_span()) });
                return Ok(());
            }
            let q = self.qual_name()?;
            self.expect(P::Semi, "after the using-declaration")?;
            // `using ns::f;` brings a name; a type name stays a type for parsing.
            items.push(Item::Using(q, t.span.to(self.prev_span())));
            return Ok(());
        }
        if t.is_ident("static_assert") {
            items.push(Item::StaticAssert(self.static_assert()?));
            return Ok(());
        }
        if t.is_ident("template") {
            self.bump();
            if !self.at(P::Lt) {
                // An explicit instantiation `template struct S<int>;`: nothing to do.
                self.recover();
                return Ok(());
            }
            let tps = self.template_params()?;
            self.template_pending = !tps.is_empty();
            let tps = if tps.is_empty() { Some(vec![]) } else { Some(tps) };
            return self.with_tparams(&tps.clone(), |p| {
                if p.at_kw("using") {
                    let start = p.bump().span;
                    let (name, _) = p.ident("an alias name")?;
                    p.expect(P::Assign, "in the alias template")?;
                    let ty = p.type_name()?;
                    p.expect(P::Semi, "after the alias template")?;
                    p.templates.insert(name.clone());
                    p.types.insert(name.clone());
                    items.push(Item::Alias { name, tparams: tps.clone(), ty, span: start.to(p.prev_span()) });
                    return Ok(());
                }
                let mut inner = Vec::new();
                p.item(&mut inner)?;
                for it in inner {
                    items.push(match it {
                        Item::Func(f) => {
                            let mut d = (*f).clone();
                            if tps.as_ref().is_some_and(|v| !v.is_empty()) {
                                p.templates.insert(d.name.last().name.clone());
                            }
                            d.tparams = tps.clone();
                            Item::Func(Rc::new(d))
                        }
                        Item::Class(c) => {
                            let mut d = (*c).clone();
                            if let Some(n) = &d.name
                                && tps.as_ref().is_some_and(|v| !v.is_empty())
                            {
                                p.templates.insert(n.last().name.clone());
                                p.types.insert(n.last().name.clone());
                            }
                            d.tparams = tps.clone();
                            Item::Class(Rc::new(d))
                        }
                        Item::Var(v) => {
                            let span = v.span;
                            p.diags.push(
                                Diagnostic::error(
                                    codes::CXX_UNSUPPORTED,
                                    "variable templates are not yet supported by kiln",
                                )
                                .at(span),
                            );
                            Item::Empty
                        }
                        other => other,
                    });
                }
                Ok(())
            });
        }
        let start = t.span;
        // `template struct`-style forward declarations of templates are caught above; a class
        // name followed by `<` marks an explicit specialization's name as a template.
        let s = self.specs(false)?;
        self.declaration_rest(&s, start, items)
    }

    fn namespace_body(&mut self) -> PResult<Vec<Item>> {
        self.expect(P::LBrace, "to start the namespace")?;
        let mut items = Vec::new();
        while !self.at(P::RBrace) {
            if self.tok().is_eof() {
                let t = self.tok().clone();
                self.error(codes::UNEXPECTED_EOF, "the file ends inside a namespace", t.span);
                return Err(());
            }
            let before = self.pos;
            if self.item(&mut items).is_err() {
                self.recover();
                if self.pos == before {
                    self.bump();
                }
            }
        }
        self.expect(P::RBrace, "to close the namespace")?;
        Ok(items)
    }

    // ----- statements -----

    fn compound(&mut self) -> PResult<Stmt> {
        let open = self.expect(P::LBrace, "to start a block")?;
        let mut stmts = Vec::new();
        while !self.at(P::RBrace) {
            if self.tok().is_eof() {
                let t = self.tok().clone();
                self.error(codes::UNEXPECTED_EOF, "the file ends inside a block", t.span);
                return Err(());
            }
            let before = self.pos;
            match self.stmt() {
                Ok(s) => stmts.push(s),
                Err(()) => {
                    self.recover();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        let close = self.expect(P::RBrace, "to close the block")?;
        Ok(Stmt { kind: StmtKind::Block(stmts), span: open.to(close) })
    }

    /// Whether a statement starting here is a declaration.
    fn is_declaration_ahead(&self) -> bool {
        let t = self.tok();
        if t.kind != TokKind::Ident && !t.is_punct(P::ColonColon) {
            return false;
        }
        let s = &*t.text;
        if matches!(
            s,
            "static"
                | "constexpr"
                | "const"
                | "volatile"
                | "typedef"
                | "struct"
                | "class"
                | "union"
                | "enum"
                | "auto"
                | "typename"
                | "extern"
                | "register"
                | "thread_local"
                | "decltype"
                | "__attribute__"
        ) || basic_word(s).is_some()
        {
            // `int(x)` is a functional cast; `int (*f)(int)` and `int (&a)[4]` declare.
            return !self.nth(1).is_punct(P::LParen)
                || basic_word(s).is_none()
                || self.nth(2).is_punct(P::Star)
                || self.nth(2).is_punct(P::Amp);
        }
        if address_space(s).is_some() && !self.nth(1).is_punct(P::ColonColon) {
            return true;
        }
        if !self.qualified_type_at(0) {
            // `a::b c;`: two names in a row declare a variable of a type the parser does not
            // know (the elaborator says what `a::b` is).
            return self.unknown_type_declaration_ahead();
        }
        // After the type name: a declarator follows (a name, `*`, `&`), not `(` or `::`/`.`.
        let mut n = 0;
        if self.nth(n).is_punct(P::ColonColon) {
            n += 1;
        }
        loop {
            let name = self.nth(n).text.clone();
            n += 1;
            if self.nth(n).is_punct(P::Lt) && self.is_template_name(&name) {
                let Some(after) = self.skip_template_args_at(n) else { return false };
                n = after;
            }
            if self.nth(n).is_punct(P::ColonColon) {
                n += 1;
                continue;
            }
            break;
        }
        let next = self.nth(n);
        (next.kind == TokKind::Ident && !next.is_ident("operator"))
            || next.is_punct(P::Star) && Self::is_plain_ident(self.nth(n + 1))
            || next.is_punct(P::Amp)
            || next.is_punct(P::AmpAmp)
            || (next.is_punct(P::LBracket) && self.nth(n + 1).is_punct(P::LBracket))
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let t = self.tok().clone();
        // Loop annotations: pragmas and attributes before a loop.
        if t.kind == TokKind::Pragma
            || self.at_kw("__attribute__") && !self.is_declaration_after_attributes()
            || (self.at(P::LBracket) && self.nth(1).is_punct(P::LBracket))
        {
            let mut annots = LoopAnnots::default();
            let mut other = Vec::new();
            loop {
                if self.tok().kind == TokKind::Pragma {
                    let p = pragma_of(&self.bump());
                    if is_loop_pragma(&p) {
                        annots.pragmas.push(p);
                    } else {
                        other.push(p);
                    }
                } else if self.at_kw("__attribute__") || (self.at(P::LBracket) && self.nth(1).is_punct(P::LBracket)) {
                    annots.attrs.extend(self.attributes()?);
                } else {
                    break;
                }
            }
            if annots.is_empty() {
                let p = other.into_iter().next();
                return Ok(match p {
                    Some(p) => Stmt { span: p.span, kind: StmtKind::Pragma(p) },
                    None => Stmt { kind: StmtKind::Empty, span: t.span },
                });
            }
            if self.is_declaration_ahead() {
                // Attributes on a declaration (`__attribute__((xcl_array_partition)) int a[4];`).
                let mut st = self.stmt()?;
                if let StmtKind::Decl(ds) = &mut st.kind {
                    for d in ds {
                        d.attrs.extend(annots.attrs.clone());
                    }
                }
                return Ok(st);
            }
            let mut s = self.stmt()?;
            attach_annots(&mut s, annots, &mut self.diags, t.span);
            return Ok(s);
        }
        if t.kind == TokKind::Ident {
            match &*t.text {
                "if" => return self.if_stmt(),
                "while" => {
                    self.bump();
                    self.expect(P::LParen, "after `while`")?;
                    let cond = self.condition()?;
                    self.expect(P::RParen, "to close the `while` condition")?;
                    let body = self.stmt()?;
                    let span = t.span.to(body.span);
                    return Ok(Stmt {
                        kind: StmtKind::While { cond, body: Box::new(body), annots: LoopAnnots::default() },
                        span,
                    });
                }
                "do" => {
                    self.bump();
                    let body = self.stmt()?;
                    if !self.eat_kw("while") {
                        let t2 = self.tok().clone();
                        self.error(codes::EXPECTED_TOKEN, "expected `while` after the `do` body", t2.span);
                        return Err(());
                    }
                    self.expect(P::LParen, "after `while`")?;
                    let cond = self.expr()?;
                    self.expect(P::RParen, "to close the `do` condition")?;
                    self.expect(P::Semi, "after `do ... while (...)`")?;
                    return Ok(Stmt {
                        kind: StmtKind::DoWhile { body: Box::new(body), cond, annots: LoopAnnots::default() },
                        span: t.span.to(self.prev_span()),
                    });
                }
                "for" => return self.for_stmt(),
                "switch" => {
                    self.bump();
                    self.expect(P::LParen, "after `switch`")?;
                    let mut init = None;
                    if self.is_declaration_ahead() {
                        let d = self.stmt()?;
                        init = Some(Box::new(d));
                    }
                    let cond = self.expr()?;
                    self.expect(P::RParen, "to close the `switch` value")?;
                    let body = self.stmt()?;
                    let span = t.span.to(body.span);
                    return Ok(Stmt { kind: StmtKind::Switch { init, cond, body: Box::new(body) }, span });
                }
                "case" => {
                    self.bump();
                    let v = self.cond_expr()?;
                    self.expect(P::Colon, "after the `case` value")?;
                    let body = if self.at(P::RBrace) {
                        Stmt { kind: StmtKind::Empty, span: self.prev_span() }
                    } else {
                        self.stmt()?
                    };
                    let span = t.span.to(body.span);
                    return Ok(Stmt { kind: StmtKind::Case(v, Box::new(body)), span });
                }
                "default" if self.nth(1).is_punct(P::Colon) => {
                    self.bump();
                    self.bump();
                    let body = if self.at(P::RBrace) {
                        Stmt { kind: StmtKind::Empty, span: self.prev_span() }
                    } else {
                        self.stmt()?
                    };
                    let span = t.span.to(body.span);
                    return Ok(Stmt { kind: StmtKind::Default(Box::new(body)), span });
                }
                "break" => {
                    self.bump();
                    self.expect(P::Semi, "after `break`")?;
                    return Ok(Stmt { kind: StmtKind::Break, span: t.span });
                }
                "continue" => {
                    self.bump();
                    self.expect(P::Semi, "after `continue`")?;
                    return Ok(Stmt { kind: StmtKind::Continue, span: t.span });
                }
                "return" => {
                    self.bump();
                    let v = if self.at(P::Semi) {
                        None
                    } else if self.at(P::LBrace) {
                        let (e, s) = self.brace_list()?;
                        Some(ReturnValue::Brace(e, s))
                    } else {
                        Some(ReturnValue::Expr(self.expr()?))
                    };
                    self.expect(P::Semi, "after the `return` statement")?;
                    return Ok(Stmt { kind: StmtKind::Return(v), span: t.span.to(self.prev_span()) });
                }
                "goto" => {
                    self.bump();
                    let (n, _) = self.ident("a label")?;
                    self.expect(P::Semi, "after `goto`")?;
                    return Ok(Stmt { kind: StmtKind::Goto(n), span: t.span.to(self.prev_span()) });
                }
                "static_assert" => {
                    let sa = self.static_assert()?;
                    let span = sa.span;
                    return Ok(Stmt { kind: StmtKind::StaticAssert(sa), span });
                }
                "using" => {
                    self.bump();
                    if self.eat_kw("namespace") {
                        let q = self.qual_name()?;
                        self.expect(P::Semi, "after the using-directive")?;
                        return Ok(Stmt { kind: StmtKind::UsingNamespace(q), span: t.span.to(self.prev_span()) });
                    }
                    if !(Self::is_plain_ident(self.tok()) && self.nth(1).is_punct(P::Assign)) {
                        let q = self.qual_name()?;
                        self.expect(P::Semi, "after the using-declaration")?;
                        return Ok(Stmt { kind: StmtKind::UsingDecl(q), span: t.span.to(self.prev_span()) });
                    }
                    let (name, _) = self.ident("an alias name")?;
                    self.expect(P::Assign, "in the alias declaration")?;
                    let ty = self.type_name()?;
                    self.expect(P::Semi, "after the alias")?;
                    self.types.insert(name.clone());
                    return Ok(Stmt { kind: StmtKind::LocalAlias { name, ty }, span: t.span.to(self.prev_span()) });
                }
                "try" | "throw" | "catch" if &*t.text != "throw" => {
                    self.error(
                        codes::CXX_FORBIDDEN,
                        format!(
                            "`{}` is not allowed: OpenCL C++ does not support exception handling (OpenCL C++ 1.0 §2.9)",
                            t.text
                        ),
                        t.span,
                    );
                    return Err(());
                }
                _ => {}
            }
            if Self::is_plain_ident(&t) && self.nth(1).is_punct(P::Colon) {
                self.bump();
                self.bump();
                let body = if self.at(P::RBrace) {
                    Stmt { kind: StmtKind::Empty, span: self.prev_span() }
                } else {
                    self.stmt()?
                };
                let span = t.span.to(body.span);
                return Ok(Stmt { kind: StmtKind::Label(t.text.clone(), Box::new(body)), span });
            }
        }
        if t.is_punct(P::LBrace) {
            return self.compound();
        }
        if self.eat(P::Semi) {
            return Ok(Stmt { kind: StmtKind::Empty, span: t.span });
        }
        if self.is_declaration_ahead() {
            return self.decl_stmt();
        }
        let e = self.expr()?;
        self.expect(P::Semi, "after the expression")?;
        Ok(Stmt { span: t.span.to(self.prev_span()), kind: StmtKind::Expr(e) })
    }

    fn unknown_type_declaration_ahead(&self) -> bool {
        let mut n = 0;
        if self.nth(n).is_punct(P::ColonColon) {
            n += 1;
        }
        loop {
            if !Self::is_plain_ident(self.nth(n)) {
                return false;
            }
            n += 1;
            if self.nth(n).is_punct(P::ColonColon) {
                n += 1;
                continue;
            }
            break;
        }
        Self::is_plain_ident(self.nth(n))
            && matches!(self.nth(n + 1).kind, TokKind::Punct(P::Semi | P::Assign | P::LBrace | P::Comma | P::LBracket))
    }

    fn is_declaration_after_attributes(&self) -> bool {
        false
    }

    fn decl_stmt(&mut self) -> PResult<Stmt> {
        let start = self.tok().span;
        let s = self.specs(false)?;
        // A structured binding: `auto [a, b] = e;`, `auto &[a, b] = e;`.
        let by_ref = (self.at(P::Amp) || self.at(P::AmpAmp)) && self.nth(1).is_punct(P::LBracket);
        if by_ref || self.at(P::LBracket) && !self.nth(1).is_punct(P::LBracket) {
            if by_ref {
                self.bump();
            }
            self.bump();
            let mut names = Vec::new();
            while !self.at(P::RBracket) {
                names.push(self.ident("a binding name")?);
                if !self.eat(P::Comma) {
                    break;
                }
            }
            self.expect(P::RBracket, "to close the structured binding")?;
            let Some(init) = self.initializer()? else {
                let t = self.tok().clone();
                self.error(codes::BAD_INITIALIZER, "a structured binding needs an initializer", t.span);
                return Err(());
            };
            self.expect(P::Semi, "after the structured binding")?;
            return Ok(Stmt {
                kind: StmtKind::StructuredBinding { names, by_ref, init },
                span: start.to(self.prev_span()),
            });
        }
        let mut items = Vec::new();
        self.declaration_rest(&s, start, &mut items)?;
        let span = start.to(self.prev_span());
        let mut vars = Vec::new();
        let mut extra = Vec::new();
        for it in items {
            match it {
                Item::Var(v) => vars.push(v),
                Item::Class(c) => extra.push(Stmt { kind: StmtKind::LocalClass(c), span }),
                Item::Enum(e) => extra.push(Stmt { kind: StmtKind::LocalEnum(e), span }),
                Item::Alias { name, ty, .. } => extra.push(Stmt { kind: StmtKind::LocalAlias { name, ty }, span }),
                Item::Func(f) => {
                    self.error(
                        codes::CXX_UNSUPPORTED,
                        "a function declared inside a function is not supported by kiln",
                        f.span,
                    );
                }
                _ => {}
            }
        }
        if !vars.is_empty() {
            extra.push(Stmt { kind: StmtKind::Decl(vars), span });
        }
        Ok(match extra.len() {
            0 => Stmt { kind: StmtKind::Empty, span },
            1 => extra.pop().unwrap_or(Stmt { kind: StmtKind::Empty, span }),
            _ => Stmt { kind: StmtKind::Block(extra), span },
        })
        .map(|s| flatten_decl_block(s))
    }

    fn condition(&mut self) -> PResult<Cond> {
        if self.is_declaration_ahead() {
            let start = self.tok().span;
            let s = self.specs(false)?;
            let Some(base) = s.ty.clone() else { return Err(()) };
            let d = self.declarator(base, false)?;
            let Some(q) = d.name else { return Err(()) };
            let init = self.initializer()?;
            return Ok(Cond::Decl(Box::new(VarDecl {
                ty: d.ty,
                name: q.last().name.clone(),
                name_span: q.span,
                init,
                flags: s.decl.clone(),
                attrs: vec![],
                span: start.to(self.prev_span()),
            })));
        }
        Ok(Cond::Expr(self.expr()?))
    }

    fn if_stmt(&mut self) -> PResult<Stmt> {
        let start = self.bump().span;
        let constexpr = self.eat_kw("constexpr");
        self.expect(P::LParen, "after `if`")?;
        let mut init = None;
        let mut cond = self.condition_or_init()?;
        if self.eat(P::Semi) {
            init = Some(Box::new(cond_to_stmt(cond)));
            cond = self.condition()?;
        }
        self.expect(P::RParen, "to close the `if` condition")?;
        let then = self.stmt()?;
        let els = if self.eat_kw("else") { Some(Box::new(self.stmt()?)) } else { None };
        Ok(Stmt {
            kind: StmtKind::If { init, cond, then: Box::new(then), els, constexpr },
            span: start.to(self.prev_span()),
        })
    }

    fn condition_or_init(&mut self) -> PResult<Cond> {
        self.condition()
    }

    fn for_stmt(&mut self) -> PResult<Stmt> {
        let start = self.bump().span;
        self.expect(P::LParen, "after `for`")?;
        let init = if self.eat(P::Semi) {
            ForInit::None
        } else if self.is_declaration_ahead() {
            let dstart = self.tok().span;
            let s = self.specs(false)?;
            let Some(base) = s.ty.clone() else {
                let t = self.tok().clone();
                self.error(codes::EXPECTED_TYPE, "expected a declaration in the `for` header", t.span);
                return Err(());
            };
            let d = self.declarator(base.clone(), false)?;
            let Some(q) = d.name.clone() else { return Err(()) };
            if self.eat(P::Colon) {
                // A range-based `for`.
                let range = self.expr()?;
                self.expect(P::RParen, "to close the `for` header")?;
                let body = self.stmt()?;
                let var = VarDecl {
                    ty: d.ty,
                    name: q.last().name.clone(),
                    name_span: q.span,
                    init: None,
                    flags: s.decl.clone(),
                    attrs: vec![],
                    span: dstart.to(q.span),
                };
                let span = start.to(body.span);
                return Ok(Stmt {
                    kind: StmtKind::RangeFor { var, range, body: Box::new(body), annots: LoopAnnots::default() },
                    span,
                });
            }
            let mut vars = Vec::new();
            let init = self.initializer()?;
            vars.push(VarDecl {
                ty: d.ty,
                name: q.last().name.clone(),
                name_span: q.span,
                init,
                flags: s.decl.clone(),
                attrs: vec![],
                span: dstart.to(self.prev_span()),
            });
            while self.eat(P::Comma) {
                let d = self.declarator(base.clone(), false)?;
                let Some(q) = d.name else { return Err(()) };
                let init = self.initializer()?;
                vars.push(VarDecl {
                    ty: d.ty,
                    name: q.last().name.clone(),
                    name_span: q.span,
                    init,
                    flags: s.decl.clone(),
                    attrs: vec![],
                    span: dstart.to(self.prev_span()),
                });
            }
            self.expect(P::Semi, "after the `for` initialization")?;
            ForInit::Decl(vars)
        } else {
            let e = self.expr()?;
            self.expect(P::Semi, "after the `for` initialization")?;
            ForInit::Expr(e)
        };
        let cond = if self.at(P::Semi) { None } else { Some(self.expr()?) };
        self.expect(P::Semi, "after the `for` condition")?;
        let step = if self.at(P::RParen) { None } else { Some(self.expr()?) };
        self.expect(P::RParen, "to close the `for` header")?;
        let body = self.stmt()?;
        let span = start.to(body.span);
        Ok(Stmt { kind: StmtKind::For { init, cond, step, body: Box::new(body), annots: LoopAnnots::default() }, span })
    }

    // ----- expressions -----

    pub fn expr(&mut self) -> PResult<Expr> {
        let first = self.assign_expr()?;
        if !self.at(P::Comma) || self.in_targs > 0 {
            return Ok(first);
        }
        let mut es = vec![first];
        while self.eat(P::Comma) {
            es.push(self.assign_expr()?);
        }
        let span = es[0].span.to(es[es.len() - 1].span);
        Ok(Expr { kind: ExprKind::Comma(es), span })
    }

    fn assign_expr(&mut self) -> PResult<Expr> {
        if self.at_kw("throw") {
            let t = self.bump();
            self.error(
                codes::CXX_FORBIDDEN,
                "`throw` is not allowed: OpenCL C++ does not support exception handling (OpenCL C++ 1.0 §2.9)",
                t.span,
            );
            return Err(());
        }
        let lhs = self.cond_expr()?;
        let op = match self.tok().kind {
            TokKind::Punct(P::Assign) => Some(None),
            TokKind::Punct(P::StarAssign) => Some(Some(BinOp::Mul)),
            TokKind::Punct(P::SlashAssign) => Some(Some(BinOp::Div)),
            TokKind::Punct(P::PercentAssign) => Some(Some(BinOp::Rem)),
            TokKind::Punct(P::PlusAssign) => Some(Some(BinOp::Add)),
            TokKind::Punct(P::MinusAssign) => Some(Some(BinOp::Sub)),
            TokKind::Punct(P::ShlAssign) => Some(Some(BinOp::Shl)),
            TokKind::Punct(P::ShrAssign) if self.in_targs == 0 => Some(Some(BinOp::Shr)),
            TokKind::Punct(P::AmpAssign) => Some(Some(BinOp::BitAnd)),
            TokKind::Punct(P::PipeAssign) => Some(Some(BinOp::BitOr)),
            TokKind::Punct(P::CaretAssign) => Some(Some(BinOp::BitXor)),
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        if self.split_shr {
            return Ok(lhs);
        }
        self.bump();
        let rhs = if self.at(P::LBrace) {
            let (elems, span) = self.brace_list()?;
            Expr { kind: ExprKind::Braced(None, elems), span }
        } else {
            self.assign_expr()?
        };
        let span = lhs.span.to(rhs.span);
        Ok(Expr { kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span })
    }

    fn cond_expr(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.at(P::Question) {
            return Ok(c);
        }
        self.bump();
        let saved = self.in_targs;
        self.in_targs = 0;
        let a = self.expr();
        self.in_targs = saved;
        let a = a?;
        self.expect(P::Colon, "in the conditional expression")?;
        let b = self.assign_expr()?;
        let span = c.span.to(b.span);
        Ok(Expr { kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span })
    }

    fn binop_at(&self) -> Option<(BinOp, u8)> {
        if self.split_shr {
            return None;
        }
        let p = match self.tok().kind {
            TokKind::Punct(p) => p,
            _ => return None,
        };
        Some(match p {
            P::PipePipe => (BinOp::LogOr, 1),
            P::AmpAmp => (BinOp::LogAnd, 2),
            P::Pipe => (BinOp::BitOr, 3),
            P::Caret => (BinOp::BitXor, 4),
            P::Amp => (BinOp::BitAnd, 5),
            P::EqEq => (BinOp::Eq, 6),
            P::Ne => (BinOp::Ne, 6),
            P::Lt => (BinOp::Lt, 7),
            P::Gt if self.in_targs == 0 => (BinOp::Gt, 7),
            P::Le => (BinOp::Le, 7),
            P::Ge => (BinOp::Ge, 7),
            P::Shl => (BinOp::Shl, 8),
            P::Shr if self.in_targs == 0 => (BinOp::Shr, 8),
            P::Plus => (BinOp::Add, 9),
            P::Minus => (BinOp::Sub, 9),
            P::Star => (BinOp::Mul, 10),
            P::Slash => (BinOp::Div, 10),
            P::Percent => (BinOp::Rem, 10),
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binop_at() {
            if prec <= min {
                break;
            }
            self.bump();
            let rhs = self.binary(prec)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
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
        if let Some(op) = op
            && !self.split_shr
        {
            self.bump();
            let e = self.unary()?;
            let span = t.span.to(e.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), span });
        }
        if t.is_ident("sizeof") || t.is_ident("alignof") || t.is_ident("__alignof__") || t.is_ident("vec_step") {
            self.bump();
            if self.eat(P::Ellipsis) {
                self.expect(P::LParen, "after `sizeof...`")?;
                let (n, _) = self.ident("a parameter pack")?;
                self.expect(P::RParen, "to close `sizeof...`")?;
                return Ok(Expr { kind: ExprKind::SizeofPack(n), span: t.span.to(self.prev_span()) });
            }
            if self.at(P::LParen) && self.starts_type_at(1) && !self.looks_like_value_after_type_at(1) {
                self.bump();
                let ty = self.type_name()?;
                self.expect(P::RParen, "to close the type")?;
                let span = t.span.to(self.prev_span());
                let kind = match &*t.text {
                    "sizeof" => ExprKind::SizeofType(Box::new(ty)),
                    "vec_step" => ExprKind::VecStepType(Box::new(ty)),
                    _ => ExprKind::AlignofType(Box::new(ty)),
                };
                return Ok(Expr { kind, span });
            }
            let e = self.unary()?;
            let span = t.span.to(e.span);
            let kind = match &*t.text {
                "vec_step" => ExprKind::VecStepExpr(Box::new(e)),
                _ => ExprKind::SizeofExpr(Box::new(e)),
            };
            return Ok(Expr { kind, span });
        }
        if t.is_ident("new") || t.is_ident("delete") {
            self.bump();
            self.error(
                codes::CXX_FORBIDDEN,
                format!("`{}` is not allowed: OpenCL C++ does not support the non-placement `new` and `delete` operators (OpenCL C++ 1.0 §2.9)", t.text),
                t.span,
            );
            return Err(());
        }
        // `(T)e`: a cast (also a vector literal `(float4)(1, 2, 3, 4)`).
        if t.is_punct(P::LParen) && self.starts_type_at(1) && !self.looks_like_value_after_type_at(1) && !self.split_shr
        {
            let save = self.pos;
            let ndiags = self.diags.len();
            self.bump();
            if let Ok(ty) = self.type_name()
                && self.eat(P::RParen)
            {
                if self.at(P::LBrace) {
                    // A compound literal `(T){...}`.
                    let (elems, span) = self.brace_list()?;
                    let span = t.span.to(span);
                    return self.postfix(Expr { kind: ExprKind::Braced(Some(Box::new(ty)), elems), span });
                }
                let e = self.unary()?;
                let span = t.span.to(e.span);
                return Ok(Expr { kind: ExprKind::CCast(Box::new(ty), Box::new(e)), span });
            }
            // Not a cast after all.
            self.diags.truncate(ndiags);
            self.pos = save;
        }
        let p = self.primary()?;
        self.postfix(p)
    }

    fn looks_like_value_after_type_at(&self, n: usize) -> bool {
        let t = self.nth(n);
        if t.kind != TokKind::Ident || basic_word(&t.text).is_some() || KEYWORDS.contains(&&*t.text) {
            return false;
        }
        let mut k = n;
        let mut last;
        loop {
            let t = self.nth(k);
            if t.kind != TokKind::Ident {
                return false;
            }
            last = t.text.clone();
            k += 1;
            if self.nth(k).is_punct(P::Lt) && self.is_template_name(&last) {
                return false;
            }
            if self.nth(k).is_punct(P::ColonColon) {
                k += 1;
                continue;
            }
            break;
        }
        k > n + 1 && !self.is_type_name(&last)
    }

    fn postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.split_shr {
                return Ok(e);
            }
            let t = self.tok().clone();
            match t.kind {
                TokKind::Punct(P::LBracket) if !self.nth(1).is_punct(P::LBracket) => {
                    self.bump();
                    let saved = self.in_targs;
                    self.in_targs = 0;
                    let i = self.expr();
                    self.in_targs = saved;
                    let i = i?;
                    let close = self.expect(P::RBracket, "to close the subscript")?;
                    let span = e.span.to(close);
                    e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(i)), span };
                }
                TokKind::Punct(P::LParen) => {
                    self.bump();
                    let args = self.call_args()?;
                    let span = e.span.to(self.prev_span());
                    e = Expr { kind: ExprKind::Call(Box::new(e), args), span };
                }
                TokKind::Punct(P::Dot) | TokKind::Punct(P::Arrow) => {
                    self.bump();
                    self.eat_kw("template");
                    let nt = self.tok().clone();
                    let part = if nt.is_punct(P::Tilde) {
                        self.bump();
                        let (n, s) = self.ident("a destructor name")?;
                        NamePart { name: format!("~{n}").into(), targs: None, span: nt.span.to(s) }
                    } else if nt.is_ident("operator") {
                        self.operator_name()?
                    } else if nt.kind == TokKind::Ident {
                        self.bump();
                        let targs = if self.at(P::Lt) && self.is_template_name(&nt.text) {
                            Some(self.template_args()?)
                        } else {
                            None
                        };
                        NamePart { name: nt.text.clone(), targs, span: nt.span.to(self.prev_span()) }
                    } else {
                        self.ident("a member name")?;
                        return Err(());
                    };
                    let span = e.span.to(part.span);
                    e = Expr { kind: ExprKind::Member(Box::new(e), part, t.is_punct(P::Arrow)), span };
                }
                TokKind::Punct(P::PlusPlus) => {
                    self.bump();
                    let span = e.span.to(t.span);
                    e = Expr { kind: ExprKind::Unary(UnOp::PostInc, Box::new(e)), span };
                }
                TokKind::Punct(P::MinusMinus) => {
                    self.bump();
                    let span = e.span.to(t.span);
                    e = Expr { kind: ExprKind::Unary(UnOp::PostDec, Box::new(e)), span };
                }
                _ => return Ok(e),
            }
        }
    }

    /// After `(`: arguments to the matching `)`.
    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        let saved = self.in_targs;
        self.in_targs = 0;
        let r = (|| -> PResult<()> {
            while !self.at(P::RParen) {
                if self.at(P::LBrace) {
                    let (elems, span) = self.brace_list()?;
                    args.push(Expr { kind: ExprKind::Braced(None, elems), span });
                } else {
                    let e = self.assign_expr()?;
                    args.push(self.pack_expansion(e));
                }
                if !self.eat(P::Comma) {
                    break;
                }
            }
            Ok(())
        })();
        self.in_targs = saved;
        r?;
        self.expect(P::RParen, "to close the argument list")?;
        Ok(args)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        match t.kind {
            TokKind::Number => {
                self.bump();
                let is_float = is_float_literal(&t.text);
                let kind = if is_float { ExprKind::Float(t.text.clone()) } else { ExprKind::Int(t.text.clone()) };
                return Ok(Expr { kind, span: t.span });
            }
            TokKind::Char => {
                self.bump();
                return Ok(Expr { kind: ExprKind::Char(t.text.clone()), span: t.span });
            }
            TokKind::Str => {
                let mut parts = vec![t.text.clone()];
                self.bump();
                while self.tok().kind == TokKind::Str {
                    parts.push(self.bump().text.clone());
                }
                return Ok(Expr { kind: ExprKind::Str(parts), span: t.span.to(self.prev_span()) });
            }
            TokKind::Punct(P::LParen) => {
                if let Some(f) = self.fold_expr()? {
                    return Ok(f);
                }
                self.bump();
                let saved = self.in_targs;
                self.in_targs = 0;
                let e = self.expr();
                self.in_targs = saved;
                let e = e?;
                let close = self.expect(P::RParen, "to close the parenthesis")?;
                return Ok(Expr { kind: ExprKind::Paren(Box::new(e)), span: t.span.to(close) });
            }
            TokKind::Punct(P::LBracket) => return self.lambda(),
            TokKind::Punct(P::LBrace) => {
                let (elems, span) = self.brace_list()?;
                return Ok(Expr { kind: ExprKind::Braced(None, elems), span });
            }
            _ => {}
        }
        if t.kind == TokKind::Ident {
            match &*t.text {
                "true" | "false" => {
                    self.bump();
                    return Ok(Expr { kind: ExprKind::Bool(&*t.text == "true"), span: t.span });
                }
                "nullptr" => {
                    self.bump();
                    return Ok(Expr { kind: ExprKind::Nullptr, span: t.span });
                }
                "this" => {
                    self.bump();
                    return Ok(Expr { kind: ExprKind::This, span: t.span });
                }
                "static_cast" | "reinterpret_cast" | "const_cast" | "dynamic_cast" => {
                    self.bump();
                    if &*t.text == "dynamic_cast" {
                        self.error(codes::CXX_FORBIDDEN, "`dynamic_cast` is not allowed: OpenCL C++ does not support the dynamic_cast operator (OpenCL C++ 1.0 §2.9)", t.span);
                        return Err(());
                    }
                    self.in_targs += 1;
                    let r = (|| {
                        self.expect(P::Lt, "after the cast keyword")?;
                        self.type_name()
                    })();
                    self.in_targs -= 1;
                    let ty = r?;
                    self.expect_close_angle()?;
                    self.expect(P::LParen, "after the cast's type")?;
                    let e = self.expr()?;
                    let close = self.expect(P::RParen, "to close the cast")?;
                    let kind = match &*t.text {
                        "static_cast" => CastKind::Static,
                        "reinterpret_cast" => CastKind::Reinterpret,
                        _ => CastKind::Const,
                    };
                    return Ok(Expr {
                        kind: ExprKind::NamedCast(kind, Box::new(ty), Box::new(e)),
                        span: t.span.to(close),
                    });
                }
                "typeid" => {
                    self.bump();
                    self.error(codes::CXX_FORBIDDEN, "`typeid` is not allowed: OpenCL C++ does not support type identification (OpenCL C++ 1.0 §2.9)", t.span);
                    return Err(());
                }
                _ => {}
            }
            // A type in an expression: `T(args)`, `T{args}`, `int(x)`, `float4(a, b)`.
            if self.starts_type()
                && !self.looks_like_value_after_type()
                && (basic_word(&t.text).is_some() || !matches!(&*t.text, "const" | "volatile"))
            {
                let save = self.pos;
                let ndiags = self.diags.len();
                let ty = self.simple_type_for_expr();
                if let Ok(ty) = ty {
                    if self.at(P::LParen) {
                        self.bump();
                        let args = self.call_args()?;
                        let span = t.span.to(self.prev_span());
                        return Ok(Expr { kind: ExprKind::Functional(Box::new(ty), args), span });
                    }
                    if self.at(P::LBrace) {
                        let (elems, span) = self.brace_list()?;
                        return Ok(Expr { kind: ExprKind::Braced(Some(Box::new(ty)), elems), span: t.span.to(span) });
                    }
                }
                self.diags.truncate(ndiags);
                self.pos = save;
            }
            if Self::is_plain_ident(&t)
                || t.is_ident("operator")
                || address_space(&t.text).is_some()
                || t.is_ident("pipe")
            {
                let q = self.qual_name()?;
                let span = q.span;
                return Ok(Expr { kind: ExprKind::Name(q), span });
            }
        }
        if t.is_punct(P::ColonColon) {
            let q = self.qual_name()?;
            let span = q.span;
            return Ok(Expr { kind: ExprKind::Name(q), span });
        }
        let code = if t.is_eof() { codes::UNEXPECTED_EOF } else { codes::EXPECTED_EXPR };
        let found = if t.is_eof() { "the end of the file".to_string() } else { format!("`{}`", t.text) };
        self.error(code, format!("expected an expression, found {found}"), t.span);
        Err(())
    }

    /// `e...` after an argument: a pack expansion.
    fn pack_expansion(&mut self, e: Expr) -> Expr {
        if self.at(P::Ellipsis) {
            let end = self.bump().span;
            let span = e.span.to(end);
            return Expr { kind: ExprKind::PackExpansion(Box::new(e)), span };
        }
        e
    }

    /// At `(`: a fold expression `(p op ...)`, `(... op p)`, `(i op ... op p)`, or `None` (and
    /// nothing consumed) when it is not one.
    fn fold_expr(&mut self) -> PResult<Option<Expr>> {
        let start = self.tok().span;
        let save = self.pos;
        let ndiags = self.diags.len();
        self.bump();
        let saved = self.in_targs;
        self.in_targs = 0;
        let r = (|| -> PResult<Option<Expr>> {
            if self.eat(P::Ellipsis) {
                let Some((op, _)) = self.binop_at() else { return Ok(None) };
                self.bump();
                let pack = self.unary()?;
                self.expect(P::RParen, "to close the fold expression")?;
                return Ok(Some(Expr {
                    kind: ExprKind::Fold { op, pack: Box::new(pack), init: None, left: true },
                    span: start.to(self.prev_span()),
                }));
            }
            let first = self.unary()?;
            let Some((op, _)) = self.binop_at() else { return Ok(None) };
            if !self.nth(1).is_punct(P::Ellipsis) {
                return Ok(None);
            }
            self.bump();
            self.bump();
            if self.eat(P::RParen) {
                return Ok(Some(Expr {
                    kind: ExprKind::Fold { op, pack: Box::new(first), init: None, left: false },
                    span: start.to(self.prev_span()),
                }));
            }
            // `(init op ... op pack)` or `(pack op ... op init)`: the pack is the name that is one.
            let Some((op2, _)) = self.binop_at() else { return Ok(None) };
            if op2 != op {
                return Ok(None);
            }
            self.bump();
            let second = self.unary()?;
            self.expect(P::RParen, "to close the fold expression")?;
            // Which side is the pack is decided by the elaborator; written left to right.
            Ok(Some(Expr {
                kind: ExprKind::Fold { op, pack: Box::new(second), init: Some(Box::new(first)), left: true },
                span: start.to(self.prev_span()),
            }))
        })();
        self.in_targs = saved;
        match r {
            Ok(Some(e)) => Ok(Some(e)),
            _ => {
                self.diags.truncate(ndiags);
                self.pos = save;
                self.split_shr = false;
                Ok(None)
            }
        }
    }

    /// The type of a functional cast: basic words or one (qualified) name.
    fn simple_type_for_expr(&mut self) -> PResult<Type> {
        let start = self.tok().span;
        let mut words = Vec::new();
        while let Some(w) = basic_word(&self.tok().text).filter(|_| self.tok().kind == TokKind::Ident) {
            words.push(w);
            self.bump();
        }
        if !words.is_empty() {
            return Ok(Type { kind: TypeKind::Words(words), span: start.to(self.prev_span()) });
        }
        if self.at_kw("typename") {
            self.bump();
        }
        let q = self.qual_name()?;
        let span = q.span;
        Ok(Type { kind: TypeKind::Named(q), span })
    }

    fn lambda(&mut self) -> PResult<Expr> {
        let start = self.expect(P::LBracket, "to start a lambda")?;
        let mut captures = Vec::new();
        while !self.at(P::RBracket) {
            let t = self.tok().clone();
            if t.is_punct(P::Assign) && (self.nth(1).is_punct(P::Comma) || self.nth(1).is_punct(P::RBracket)) {
                self.bump();
                captures.push(Capture::Default { by_ref: false });
            } else if t.is_punct(P::Amp) && (self.nth(1).is_punct(P::Comma) || self.nth(1).is_punct(P::RBracket)) {
                self.bump();
                captures.push(Capture::Default { by_ref: true });
            } else if t.is_ident("this") {
                self.bump();
                captures.push(Capture::This(t.span));
            } else if t.is_punct(P::Star) && self.nth(1).is_ident("this") {
                self.bump();
                self.bump();
                captures.push(Capture::This(t.span));
            } else {
                let by_ref = self.eat(P::Amp);
                let (name, span) = self.ident("a captured name")?;
                if self.eat(P::Assign) {
                    let init = self.assign_expr()?;
                    captures.push(Capture::Init { name, by_ref, init: Box::new(init), span });
                } else {
                    captures.push(Capture::Name { name, by_ref, span });
                }
            }
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RBracket, "to close the lambda's captures")?;
        let mut params = Vec::new();
        let mut is_mutable = false;
        let mut ret = None;
        if self.at(P::LParen) {
            let fd = self.param_list()?;
            params = fd.params;
            ret = fd.trailing;
            if self.eat_kw("mutable") {
                is_mutable = true;
                if self.eat(P::Arrow) {
                    ret = Some(self.type_name()?);
                }
            }
        }
        let _ = self.attributes()?;
        let saved = self.in_targs;
        self.in_targs = 0;
        let body = self.compound();
        self.in_targs = saved;
        let body = body?;
        let span = start.to(body.span);
        Ok(Expr { kind: ExprKind::Lambda(Rc::new(Lambda { captures, params, ret, body, is_mutable, span })), span })
    }
}

/// A declarator's result.
struct Declarator {
    name: Option<QualName>,
    ty: Type,
    func: Option<FuncDecl>,
    conversion: Option<Type>,
    attrs: Vec<Attribute>,
}

struct FuncDecl {
    params: Vec<Param>,
    variadic: bool,
    is_const: bool,
    trailing: Option<Type>,
}

fn pragma_of(t: &Token) -> Pragma {
    let words = t
        .pragma
        .as_ref()
        .map(|ts| ts.iter().filter(|x| !x.is_eof()).map(|x| (x.text.clone(), x.span)).collect())
        .unwrap_or_default();
    Pragma { words, span: t.span }
}

/// The loop pragmas the OpenCL C front end attaches to loops.
fn is_loop_pragma(p: &Pragma) -> bool {
    p.words.first().is_some_and(|(w, _)| {
        matches!(
            &**w,
            "unroll"
                | "nounroll"
                | "ivdep"
                | "ii"
                | "loop_coalesce"
                | "disable_loop_pipelining"
                | "max_concurrency"
                | "speculated_iterations"
                | "max_interleaving"
        )
    })
}

fn attach_annots(s: &mut Stmt, annots: LoopAnnots, diags: &mut Vec<Diagnostic>, at: Span) {
    match &mut s.kind {
        StmtKind::While { annots: a, .. }
        | StmtKind::DoWhile { annots: a, .. }
        | StmtKind::For { annots: a, .. }
        | StmtKind::RangeFor { annots: a, .. } => {
            a.pragmas.extend(annots.pragmas);
            a.attrs.extend(annots.attrs);
        }
        StmtKind::Label(_, inner) => attach_annots(inner, annots, diags, at),
        StmtKind::Block(_)
            if annots.pragmas.is_empty()
                && annots.attrs.iter().all(|a| a.name.starts_with("xcl_pipeline_workitems")) => {}
        _ => {
            if !annots.pragmas.is_empty() || annots.attrs.iter().any(|a| is_loop_attribute(&a.name)) {
                diags.push(
                    Diagnostic::error(
                        codes::PRAGMA_NOT_BEFORE_LOOP,
                        "loop pragma or attribute is not followed by a loop",
                    )
                    .at(at)
                    .with_label(s.span, "this statement is not a `for`, `while` or `do` loop"),
                );
            }
        }
    }
}

pub fn is_loop_attribute(name: &str) -> bool {
    matches!(
        name,
        "unroll_hint"
            | "opencl_unroll_hint"
            | "ivdep"
            | "xcl_pipeline_loop"
            | "xcl_dataflow"
            | "xcl_dependence"
            | "xcl_loop_tripcount"
    )
}

fn cond_to_stmt(c: Cond) -> Stmt {
    match c {
        Cond::Expr(e) => Stmt { span: e.span, kind: StmtKind::Expr(e) },
        Cond::Decl(d) => Stmt { span: d.span, kind: StmtKind::Decl(vec![*d]) },
    }
}

fn flatten_decl_block(s: Stmt) -> Stmt {
    s
}

/// Whether a pp-number is a floating literal.
fn is_float_literal(s: &str) -> bool {
    let hex = s.starts_with("0x") || s.starts_with("0X");
    if hex {
        return s.contains(['p', 'P']);
    }
    s.contains(['.', 'e', 'E'])
        || (s.ends_with(['f', 'F']) && !s.starts_with('0')
            || s.ends_with(['f', 'F']) && s.len() > 1 && s.starts_with("0") && s.contains('.'))
}

/// The characters of a string literal token (without quotes; escapes kept).
fn string_body(s: &str) -> String {
    s.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(s).to_string()
}

/// Parses preprocessed C++ tokens.
pub fn parse(toks: &[Token]) -> (Vec<Item>, Vec<Diagnostic>) {
    let mut p = Parser::new(toks);
    let items = p.translation_unit();
    (items, p.diags)
}
