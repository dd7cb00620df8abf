//! The C++ syntax tree the parser produces: declarations, statements and expressions as
//! written, every node with a span. Names are not resolved and types not checked; templates
//! stay syntax until the elaborator instantiates them.
#![allow(clippy::large_enum_variant)]

use kiln_diagnostics::Span;
pub use kiln_frontend::ast::{BinOp, Pragma, TypeWord, UnOp};
use kiln_hir::types::AddrSpace;
use std::rc::Rc;

pub type Name = Rc<str>;

/// `a::b<T>::c`: a possibly qualified name whose parts may carry template arguments.
#[derive(Clone, Debug)]
pub struct QualName {
    /// Starts with `::` (the global namespace).
    pub global: bool,
    pub parts: Vec<NamePart>,
    pub span: Span,
}

impl QualName {
    pub fn last(&self) -> &NamePart {
        // A `QualName` always has a part (the parser never builds an empty one).
        &self.parts[self.parts.len() - 1]
    }

    pub fn simple(name: Name, span: Span) -> QualName {
        QualName { global: false, parts: vec![NamePart { name, targs: None, span }], span }
    }

    pub fn is_simple(&self) -> bool {
        !self.global && self.parts.len() == 1 && self.parts[0].targs.is_none()
    }

    /// The name as written, for diagnostics.
    pub fn spelled(&self) -> String {
        let mut s = String::new();
        if self.global {
            s.push_str("::");
        }
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                s.push_str("::");
            }
            s.push_str(&p.name);
            if p.targs.is_some() {
                s.push_str("<...>");
            }
        }
        s
    }
}

#[derive(Clone, Debug)]
pub struct NamePart {
    /// An identifier, `operator+` (an operator function), `operator int` is `operator` with
    /// [`NamePart::conversion`], or `~X` (a destructor).
    pub name: Name,
    pub targs: Option<Vec<TemplateArg>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TemplateArg {
    Type(Type),
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    /// Basic type keywords (`unsigned int`).
    Words(Vec<TypeWord>),
    /// A class, alias, enum, template-id or OpenCL built-in type name (`uint`, `float4`).
    Named(QualName),
    Auto,
    Decltype(Box<Expr>),
    Pointer(Box<Type>),
    /// `T&` (`rvalue`: `T&&`).
    Ref(Box<Type>, bool),
    Array(Box<Type>, Option<Box<Expr>>),
    /// Qualifiers and an address space applied to the inner type.
    Qualified {
        inner: Box<Type>,
        is_const: bool,
        is_volatile: bool,
        space: Option<AddrSpace>,
    },
    /// `pipe T` (a kernel parameter), read or write end.
    Pipe(Box<Type>, bool),
    /// A class or enum defined where it is named (`struct S { ... } s;`).
    Class(Rc<ClassDef>),
    Enum(Rc<EnumDef>),
}

#[derive(Clone, Debug)]
pub struct Attribute {
    /// `unroll_hint` for `[[cl::unroll_hint]]` and `__attribute__((opencl_unroll_hint))` alike
    /// keep their spelled names; `scope` is `cl` for `[[cl::...]]`.
    pub scope: Option<Name>,
    pub name: Name,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TemplateParamKind {
    Type { default: Option<Type> },
    Value { ty: Type, default: Option<Expr> },
}

#[derive(Clone, Debug)]
pub struct TemplateParam {
    pub name: Name,
    pub kind: TemplateParamKind,
    /// `typename... Ts` (refused).
    pub pack: bool,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassKey {
    Struct,
    Class,
    Union,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Public,
    Protected,
    Private,
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub key: ClassKey,
    pub name: Option<QualName>,
    pub tparams: Option<Vec<TemplateParam>>,
    pub bases: Vec<(Type, Access)>,
    /// `None` for a declaration without a body (`struct S;`).
    pub members: Option<Vec<Member>>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Member {
    Field { decl: VarDecl, access: Access },
    Method { def: Rc<FuncDef>, access: Access, friend: bool },
    Class(Rc<ClassDef>),
    Enum(Rc<EnumDef>),
    Alias { name: Name, tparams: Option<Vec<TemplateParam>>, ty: Type, span: Span },
    StaticAssert(StaticAssert),
    Using(QualName, Span),
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: Option<(Name, Span)>,
    pub scoped: bool,
    pub base: Option<Type>,
    pub variants: Option<Vec<(Name, Span, Option<Expr>)>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub ty: Type,
    pub name: Option<(Name, Span)>,
    pub default: Option<Expr>,
    /// A function parameter pack (`Ts... xs`).
    pub pack: bool,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct FuncFlags {
    pub is_static: bool,
    pub is_constexpr: bool,
    pub is_inline: bool,
    pub is_kernel: bool,
    pub is_virtual: bool,
    pub is_explicit: bool,
    pub is_const: bool,
    pub is_friend: bool,
    pub deleted: bool,
    pub defaulted: bool,
    pub is_extern: bool,
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub name: QualName,
    pub tparams: Option<Vec<TemplateParam>>,
    /// `None` for constructors, destructors and conversion functions.
    pub ret: Option<Type>,
    pub params: Vec<Param>,
    pub variadic: bool,
    pub flags: FuncFlags,
    /// A conversion function's target type (`operator int()`).
    pub conversion: Option<Type>,
    /// A constructor's member initializers.
    pub inits: Vec<MemInit>,
    pub body: Option<Stmt>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct MemInit {
    pub name: QualName,
    pub init: Init,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct DeclFlags {
    pub is_static: bool,
    pub is_constexpr: bool,
    pub is_extern: bool,
    pub is_typedef: bool,
    pub is_inline: bool,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub ty: Type,
    pub name: Name,
    pub name_span: Span,
    pub init: Option<Init>,
    pub flags: DeclFlags,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Init {
    /// `= e`
    Assign(Expr),
    /// `(a, b)`
    Paren(Vec<Expr>, Span),
    /// `{a, b}` or `= {a, b}`
    Brace(Vec<InitElem>, Span),
}

impl Init {
    pub fn span(&self) -> Span {
        match self {
            Init::Assign(e) => e.span,
            Init::Paren(_, s) | Init::Brace(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub struct InitElem {
    /// `.name = ` (a designated initializer).
    pub designator: Option<(Name, Span)>,
    pub value: InitValue,
}

#[derive(Clone, Debug)]
pub enum InitValue {
    Expr(Expr),
    Brace(Vec<InitElem>, Span),
}

impl InitValue {
    pub fn span(&self) -> Span {
        match self {
            InitValue::Expr(e) => e.span,
            InitValue::Brace(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Item {
    Namespace {
        name: Option<(Name, Span)>,
        items: Vec<Item>,
        span: Span,
    },
    UsingNamespace(QualName, Span),
    Using(QualName, Span),
    Alias {
        name: Name,
        tparams: Option<Vec<TemplateParam>>,
        ty: Type,
        span: Span,
    },
    Class(Rc<ClassDef>),
    Enum(Rc<EnumDef>),
    Func(Rc<FuncDef>),
    Var(VarDecl),
    StaticAssert(StaticAssert),
    Pragma(Pragma),
    /// `template<> ...` or `template<...>` with nothing kiln understands after it.
    Empty,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// Loop pragmas and attributes written before a loop, in order.
#[derive(Clone, Debug, Default)]
pub struct LoopAnnots {
    pub pragmas: Vec<Pragma>,
    pub attrs: Vec<Attribute>,
}

impl LoopAnnots {
    pub fn is_empty(&self) -> bool {
        self.pragmas.is_empty() && self.attrs.is_empty()
    }
}

#[derive(Clone, Debug)]
pub enum ForInit {
    None,
    Expr(Expr),
    Decl(Vec<VarDecl>),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Block(Vec<Stmt>),
    Expr(Expr),
    Empty,
    Decl(Vec<VarDecl>),
    LocalClass(Rc<ClassDef>),
    LocalEnum(Rc<EnumDef>),
    LocalAlias {
        name: Name,
        ty: Type,
    },
    UsingNamespace(QualName),
    /// `using ns::name;` inside a body.
    UsingDecl(QualName),
    /// `auto [a, b] = e;` (`by_ref`: `auto &[a, b] = e;`).
    StructuredBinding {
        names: Vec<(Name, Span)>,
        by_ref: bool,
        init: Init,
    },
    StaticAssert(StaticAssert),
    If {
        init: Option<Box<Stmt>>,
        cond: Cond,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
        constexpr: bool,
    },
    While {
        cond: Cond,
        body: Box<Stmt>,
        annots: LoopAnnots,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
        annots: LoopAnnots,
    },
    For {
        init: ForInit,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
        annots: LoopAnnots,
    },
    RangeFor {
        var: VarDecl,
        range: Expr,
        body: Box<Stmt>,
        annots: LoopAnnots,
    },
    Switch {
        init: Option<Box<Stmt>>,
        cond: Expr,
        body: Box<Stmt>,
    },
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<ReturnValue>),
    Goto(Name),
    Label(Name, Box<Stmt>),
    Pragma(Pragma),
}

#[derive(Clone, Debug)]
pub enum ReturnValue {
    Expr(Expr),
    Brace(Vec<InitElem>, Span),
}

#[derive(Clone, Debug)]
pub enum Cond {
    Expr(Expr),
    /// `if (T x = e)`
    Decl(Box<VarDecl>),
}

impl Cond {
    pub fn span(&self) -> Span {
        match self {
            Cond::Expr(e) => e.span,
            Cond::Decl(d) => d.span,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    Static,
    Reinterpret,
    Const,
    Dynamic,
}

#[derive(Clone, Debug)]
pub enum Capture {
    /// `=` or `&` alone.
    Default {
        by_ref: bool,
    },
    Name {
        name: Name,
        by_ref: bool,
        span: Span,
    },
    /// `x = e` (an init-capture).
    Init {
        name: Name,
        by_ref: bool,
        init: Box<Expr>,
        span: Span,
    },
    This(Span),
}

#[derive(Clone, Debug)]
pub struct Lambda {
    pub captures: Vec<Capture>,
    pub params: Vec<Param>,
    pub ret: Option<Type>,
    pub body: Stmt,
    pub is_mutable: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Name(QualName),
    Int(Rc<str>),
    Float(Rc<str>),
    Char(Rc<str>),
    Str(Vec<Rc<str>>),
    Bool(bool),
    Nullptr,
    This,
    Paren(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Vec<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `e.name` / `e->name` (`arrow`), possibly `e.f<T>`.
    Member(Box<Expr>, NamePart, bool),
    /// `(T)e`, also OpenCL's vector literals `(float4)(a, b, c, d)`.
    CCast(Box<Type>, Box<Expr>),
    /// `T(args)`.
    Functional(Box<Type>, Vec<Expr>),
    /// `T{args}`, or `{args}` where a type is known from context (`None`).
    Braced(Option<Box<Type>>, Vec<InitElem>),
    NamedCast(CastKind, Box<Type>, Box<Expr>),
    SizeofType(Box<Type>),
    SizeofExpr(Box<Expr>),
    AlignofType(Box<Type>),
    VecStepType(Box<Type>),
    VecStepExpr(Box<Expr>),
    Lambda(Rc<Lambda>),
    /// `pattern...`: a pack expansion (in call arguments and braced lists).
    PackExpansion(Box<Expr>),
    /// `(pack op ...)` (right fold), `(... op pack)` (left fold), with an optional initial value
    /// (`(init op ... op pack)`, `(pack op ... op init)`).
    Fold {
        op: BinOp,
        pack: Box<Expr>,
        init: Option<Box<Expr>>,
        left: bool,
    },
    /// `sizeof...(pack)`.
    SizeofPack(Name),
    /// `new`, `delete`, `throw`, `typeid`: parsed only to be refused with the rule they break.
    Forbidden(&'static str),
}
