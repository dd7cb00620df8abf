//! The untyped syntax tree produced by the parser.
//!
//! It mirrors the source closely (declaration specifiers and declarators stay separate, casts are
//! not yet resolved into vector literals) and keeps a span on every node. Meaning is assigned by
//! `sema`, which turns it into the typed [`crate::hir`].
// AST nodes are built once per compilation and walked a few times; boxing large variants would
// only add indirection.
#![allow(clippy::large_enum_variant)]

use crate::source::Span;
pub use kiln_hir::types::{AddrSpace, Quals};
use std::rc::Rc;

pub type Name = Rc<str>;

#[derive(Clone, Debug)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
}

#[derive(Clone, Debug)]
pub enum ExternalDecl {
    Function(FunctionDef),
    Declaration(Declaration),
    Pragma(Pragma),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// A basic type keyword (`unsigned`, `int`, ...), kept as written so sema can validate the
/// combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeWord {
    Void,
    Bool,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Half,
    Signed,
    Unsigned,
    Complex,
    Imaginary,
}

#[derive(Clone, Debug)]
pub enum TypeSpec {
    /// Basic type keywords. Empty means "no type specifier" (implicit int is an error).
    Words(Vec<(TypeWord, Span)>),
    /// A typedef name or a built-in type name (`uint`, `int4`, `size_t`, `image2d_t`, ...).
    Named(Name, Span),
    Struct(RecordSpec),
    Union(RecordSpec),
    Enum(EnumSpec),
    /// `pipe T`, or Intel's `channel T` (`channel` is true).
    Pipe(Box<TypeName>, bool, Span),
    /// A clang block-pointer base written `^`; always rejected.
    Atomic(Box<TypeName>, Span),
}

#[derive(Clone, Debug)]
pub struct RecordSpec {
    pub name: Option<(Name, Span)>,
    /// `None` for a reference to a struct declared elsewhere (`struct S x;`).
    pub fields: Option<Vec<FieldDecl>>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub specs: DeclSpecs,
    pub declarators: Vec<(Declarator, Option<Expr>)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub name: Option<(Name, Span)>,
    pub variants: Option<Vec<(Name, Span, Option<Expr>)>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DeclSpecs {
    pub storage: Option<(StorageClass, Span)>,
    pub ty: TypeSpec,
    pub quals: Quals,
    pub addr_space: Option<(AddrSpace, Span)>,
    pub access: Option<(Access, Span)>,
    pub kernel: Option<Span>,
    pub inline: bool,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum DerivedPart {
    Pointer {
        quals: Quals,
        addr_space: Option<(AddrSpace, Span)>,
        span: Span,
    },
    /// `^` — a clang block pointer.
    Block {
        span: Span,
    },
    Array {
        size: Option<Box<Expr>>,
        span: Span,
    },
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct Declarator {
    pub name: Option<(Name, Span)>,
    /// Applied to the base type in order (the first entry binds tightest).
    pub derived: Vec<DerivedPart>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<(Vec<Designator>, Initializer)>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Designator {
    Index(Expr),
    Field(Name, Span),
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub body: Stmt,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: Name,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum AttrArg {
    Expr(Expr),
    Type(TypeName),
}

/// A `#pragma` as the parser saw it.
#[derive(Clone, Debug)]
pub struct Pragma {
    /// The words of the pragma (`unroll`, `4`), spelled.
    pub words: Vec<(Rc<str>, Span)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn spelling(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(Name),
    Int(Rc<str>),
    Float(Rc<str>),
    Char(Rc<str>),
    Str(Vec<Rc<str>>),
    Paren(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op `None`) or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `e.name` (also vector swizzles).
    Member(Box<Expr>, Name, Span),
    /// `e->name`.
    Arrow(Box<Expr>, Name, Span),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    VecStepExpr(Box<Expr>),
    VecStepType(Box<TypeName>),
    Comma(Vec<Expr>),
    CompoundLiteral(Box<TypeName>, Box<Initializer>),
    /// A `^{ ... }` block literal (parsed only to be rejected).
    BlockLiteral,
    /// The reserved `a ^^ b` (parsed only to be rejected).
    ReservedXor(Box<Expr>, Box<Expr>),
}

/// Loop annotations from pragmas and attributes, recorded for the scheduler.
#[derive(Clone, Debug, Default)]
pub struct LoopAttrs {
    /// `Some(None)`: unroll fully / let the compiler choose; `Some(Some(n))`: by `n`.
    pub unroll: Option<(Option<Box<Expr>>, Span)>,
    pub ivdep: Option<(Option<Box<Expr>>, Span)>,
    pub ii: Option<(Box<Expr>, Span)>,
    pub loop_coalesce: Option<(Option<Box<Expr>>, Span)>,
    pub disable_pipelining: Option<Span>,
    pub max_concurrency: Option<(Box<Expr>, Span)>,
    pub speculated_iterations: Option<(Box<Expr>, Span)>,
    pub xcl_pipeline: Option<(Option<Box<Expr>>, Span)>,
    pub xcl_dataflow: Option<Span>,
    /// Xilinx's `xcl_pipeline_workitems` on a block of an NDRange kernel: kiln pipelines the
    /// work-items of every NDRange kernel, so it asks for nothing more.
    pub xcl_pipeline_workitems: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ForInit {
    None,
    Expr(Expr),
    Decl(Declaration),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Compound(Vec<BlockItem>),
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>, LoopAttrs),
    DoWhile(Box<Stmt>, Expr, LoopAttrs),
    For(ForInit, Option<Expr>, Option<Expr>, Box<Stmt>, LoopAttrs),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Name),
    Labeled(Name, Box<Stmt>),
}

#[derive(Clone, Debug)]
pub enum BlockItem {
    Decl(Declaration),
    Stmt(Stmt),
    Pragma(Pragma),
}
