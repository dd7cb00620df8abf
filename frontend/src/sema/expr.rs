//! Typing of expressions: C99 integer promotions and usual arithmetic conversions, pointer
//! arithmetic, assignment conversions, l-value rules, calls.

use super::{Sema, Sym};
use crate::ast::{self, AddrSpace, BinOp, UnOp};
use crate::builtins;
use crate::diag::{Diagnostic, codes};
use crate::hir::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::literal;
use crate::source::Span;
use crate::types::{INT, PTRDIFF_T, Pointee, SIZE_T, Scalar, Type};
use std::rc::Rc;

pub(super) fn err_expr(span: Span) -> Expr {
    Expr { kind: ExprKind::Int(0), ty: Type::Error, span }
}

/// Integer promotion of a scalar type (C99 6.3.1.1): everything below `int` becomes `int`.
pub(super) fn promoted(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::I32.rank() { Scalar::I32 } else { s }
}

/// The usual arithmetic conversions (C99 6.3.1.8) for two scalar types.
pub(super) fn usual_arithmetic(a: Scalar, b: Scalar) -> Scalar {
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (a, b) = (promoted(a), promoted(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.bits() > u.bits() {
        s
    } else {
        s.to_unsigned()
    }
}

fn hir_binop(op: BinOp) -> BinaryOp {
    match op {
        BinOp::Mul => BinaryOp::Mul,
        BinOp::Div => BinaryOp::Div,
        BinOp::Rem => BinaryOp::Rem,
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Sub,
        BinOp::Shl => BinaryOp::Shl,
        BinOp::Shr => BinaryOp::Shr,
        BinOp::Lt => BinaryOp::Lt,
        BinOp::Gt => BinaryOp::Gt,
        BinOp::Le => BinaryOp::Le,
        BinOp::Ge => BinaryOp::Ge,
        BinOp::Eq => BinaryOp::Eq,
        BinOp::Ne => BinaryOp::Ne,
        BinOp::BitAnd => BinaryOp::And,
        BinOp::BitXor => BinaryOp::Xor,
        BinOp::BitOr => BinaryOp::Or,
        BinOp::LogAnd | BinOp::LogOr => BinaryOp::And,
    }
}

impl Sema<'_> {
    /// An expression used as a value: arrays decay to pointers, functions are an error.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Expr {
        let x = self.expr(e);
        self.decay_value(x)
    }

    pub(super) fn decay_value(&mut self, x: Expr) -> Expr {
        if self.refuse_half(&x.ty, "a value", x.span) {
            return err_expr(x.span);
        }
        match &x.ty {
            Type::Array(elem, _) => {
                let space = self.lvalue_space(&x);
                let quals = self.lvalue_quals(&x);
                let ty = Type::Pointer(Rc::new(Pointee { ty: (**elem).clone(), space, quals }));
                let span = x.span;
                Expr { kind: ExprKind::Decay(Box::new(x)), ty, span }
            }
            Type::Function(_) => {
                self.err(
                    Diagnostic::error(
                        codes::FUNCTION_POINTER,
                        "a function name can only be called; function pointers are not allowed",
                    )
                    .at(x.span),
                );
                err_expr(x.span)
            }
            _ => x,
        }
    }

    /// The address space of the object an l-value designates.
    fn lvalue_space(&self, e: &Expr) -> AddrSpace {
        match &e.kind {
            ExprKind::Local(id) => self.local(*id).map(|l| l.space).unwrap_or(AddrSpace::Private),
            ExprKind::Global(g) => self.prog.global(*g).space,
            ExprKind::Deref(p) => p.ty.pointee().map(|p| p.space).unwrap_or(AddrSpace::Private),
            ExprKind::Member(b, _) => self.lvalue_space(b),
            _ => AddrSpace::Private,
        }
    }

    fn lvalue_quals(&self, e: &Expr) -> ast::Quals {
        match &e.kind {
            ExprKind::Local(id) => self.local(*id).map(|l| l.quals).unwrap_or_default(),
            ExprKind::Deref(p) => p.ty.pointee().map(|p| p.quals).unwrap_or_default(),
            ExprKind::Member(b, _) => self.lvalue_quals(b),
            _ => ast::Quals::default(),
        }
    }

    /// Checks that `e` designates a modifiable object.
    fn check_modifiable(&mut self, e: &Expr, what: &str) -> bool {
        if e.ty.is_error() {
            return false;
        }
        if !e.is_lvalue() {
            self.err(
                Diagnostic::error(codes::NOT_LVALUE, format!("the operand of {what} is not an l-value")).at(e.span),
            );
            return false;
        }
        if matches!(e.ty, Type::Array(..)) {
            self.err(
                Diagnostic::error(codes::NOT_LVALUE, format!("an array cannot be the operand of {what}")).at(e.span),
            );
            return false;
        }
        if self.lvalue_space(e) == AddrSpace::Constant {
            self.err(
                Diagnostic::error(codes::CONSTANT_RULE, "cannot write to `__constant` memory")
                    .at(e.span)
                    .with_note("objects in the `__constant` address space are read-only"),
            );
            return false;
        }
        if self.lvalue_quals(e).is_const {
            self.err(Diagnostic::error(codes::ASSIGN_CONST, "cannot assign to a `const`-qualified object").at(e.span));
            return false;
        }
        if let Type::Atomic(_) = e.ty {
            let shown = self.show(&e.ty);
            self.err(
                Diagnostic::error(codes::ATOMIC_RULE, format!("{what} cannot modify an atomic object (`{shown}`)"))
                    .at(e.span)
                    .with_help("use `atomic_store`, `atomic_init` or an `atomic_fetch_*` function"),
            );
            return false;
        }
        true
    }

    /// Converts an arithmetic value to another arithmetic type.
    pub(super) fn convert(&mut self, e: Expr, to: &Type) -> Expr {
        if e.ty == *to || e.ty.is_error() || to.is_error() {
            return e;
        }
        let span = e.span;
        if let (ExprKind::Int(v), Type::Scalar(s)) = (&e.kind, to)
            && s.is_integer()
        {
            return Expr::int(crate::hir::normalize(*v, *s), to.clone(), span);
        }
        // Constant conversions involving `float` fold here, so that initializers of `__constant`
        // data stay constants (same rounding as the emulator: int → float to nearest even,
        // float → int toward zero, saturating).
        if let Type::Scalar(s) = to {
            let from = e.ty.scalar();
            match (&e.kind, from) {
                (ExprKind::Int(v), Some(f)) if *s == Scalar::F32 && f.is_integer() => {
                    let x = if f.is_signed() { *v as i64 as f32 } else { *v as f32 };
                    return Expr { kind: ExprKind::Float(x as f64), ty: to.clone(), span };
                }
                (ExprKind::Float(x), Some(Scalar::F32)) if s.is_integer() && *s != Scalar::Bool => {
                    let (lo, hi) = s.int_range();
                    let v = ((*x as f32).trunc() as f64 as i128).clamp(lo, hi);
                    return Expr::int(crate::hir::normalize(v as u64, *s), to.clone(), span);
                }
                (ExprKind::Float(x), Some(Scalar::F32 | Scalar::F64)) if *s == Scalar::F32 => {
                    return Expr { kind: ExprKind::Float((*x as f32) as f64), ty: to.clone(), span };
                }
                _ => {}
            }
        }
        Expr { kind: ExprKind::Convert(Box::new(e)), ty: to.clone(), span }
    }

    /// A floating literal: a `float` (`1.5f`), or an unsuffixed one, which OpenCL C types as
    /// `double`: kiln's device has none, so it is used as a `float` with a warning, as the
    /// specification allows (§6.1.1.1).
    fn float_literal(&mut self, text: &str, span: Span) -> Expr {
        let ty = Type::Scalar(Scalar::F32);
        match literal::parse_float(text) {
            Ok((v, literal::FloatSuffix::F)) => Expr { kind: ExprKind::Float((v as f32) as f64), ty, span },
            Ok((v, literal::FloatSuffix::None)) => {
                self.err(
                    Diagnostic::warning(
                        codes::DOUBLE_LITERAL,
                        format!("`{text}` is a `double` literal; kiln uses it as the `float` `{text}f`"),
                    )
                    .at(span)
                    .with_note("kiln's device has no `double` (no `cl_khr_fp64`)")
                    .with_help(format!("write `{text}f`")),
                );
                Expr { kind: ExprKind::Float((v as f32) as f64), ty, span }
            }
            Ok((_, literal::FloatSuffix::H)) => {
                self.err(
                    Diagnostic::error(
                        codes::HALF_TYPE,
                        format!("`{text}` is a `half` constant, which needs `cl_khr_fp16`"),
                    )
                    .at(span)
                    .with_note("kiln's device has no `cl_khr_fp16`")
                    .with_help("drop the `h` suffix for a `float` constant (`f`)"),
                );
                err_expr(span)
            }
            Err(m) => {
                self.err(Diagnostic::error(codes::BAD_LITERAL, m).at(span));
                err_expr(span)
            }
        }
    }

    fn promote(&mut self, e: Expr) -> Expr {
        match e.ty.scalar() {
            Some(s) => {
                let p = promoted(s);
                self.convert(e, &Type::Scalar(p))
            }
            None => e,
        }
    }

    fn is_null_constant(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(0) => e.ty.is_integer(),
            ExprKind::PtrCast(inner) | ExprKind::Convert(inner) => {
                matches!(inner.kind, ExprKind::Int(0)) && e.ty.pointee().is_some_and(|p| p.ty.is_void())
            }
            _ => false,
        }
    }

    /// Can a pointer to `from` be implicitly converted to a pointer to `to`?
    fn pointer_assignable(&self, to: &Pointee, from: &Pointee) -> bool {
        let space_ok = to.space == from.space || (to.space == AddrSpace::Generic && from.space != AddrSpace::Constant);
        let type_ok =
            to.ty == from.ty || to.ty.is_void() || from.ty.is_void() || to.ty.is_error() || from.ty.is_error();
        space_ok && type_ok
    }

    /// Assignment conversion (C99 6.5.16.1): used for `=`, initializers, arguments and returns.
    pub(super) fn assign_convert(&mut self, e: Expr, to: &Type, what: &str) -> Expr {
        if e.ty.is_error() || to.is_error() || e.ty == *to {
            return e;
        }
        // Reading an atomic object as a value is an atomic load of its scalar.
        if let Type::Atomic(s) = e.ty {
            return self.assign_convert(Expr { ty: Type::Scalar(s), ..e }, to, what);
        }
        let span = e.span;
        match (to, &e.ty) {
            (Type::Scalar(_), Type::Scalar(_)) => self.convert(e, to),
            (Type::Vector(..), Type::Scalar(_)) => self.splat(e, to),
            (Type::Scalar(Scalar::Bool), Type::Pointer(_)) => self.convert(e, to),
            (Type::Pointer(tp), Type::Pointer(fp)) => {
                if self.pointer_assignable(tp, fp) {
                    if (fp.quals.is_const && !tp.quals.is_const) || (fp.quals.is_volatile && !tp.quals.is_volatile) {
                        self.err(
                            Diagnostic::warning(
                                codes::DISCARDS_QUALIFIERS,
                                format!("{what} discards qualifiers from the pointed-to type"),
                            )
                            .at(span),
                        );
                    }
                    Expr { kind: ExprKind::PtrCast(Box::new(e)), ty: to.clone(), span }
                } else if tp.space != fp.space {
                    let (ts, fs) = (tp.space.keyword(), fp.space.keyword());
                    self.err(
                        Diagnostic::error(
                            codes::POINTER_CONVERSION,
                            format!("{what} converts a pointer to `{fs}` memory into a pointer to `{ts}` memory"),
                        )
                        .at(span)
                        .with_note("pointers to different address spaces cannot be converted"),
                    );
                    err_expr(span)
                } else {
                    let msg = format!(
                        "{what} converts `{}` to incompatible pointer type `{}`",
                        self.show(&e.ty),
                        self.show(to)
                    );
                    self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
                    err_expr(span)
                }
            }
            (Type::Pointer(_), _) if self.is_null_constant(&e) => {
                Expr { kind: ExprKind::PtrCast(Box::new(e)), ty: to.clone(), span }
            }
            _ => {
                let msg = format!("{what}: expected `{}`, found `{}`", self.show(to), self.show(&e.ty));
                self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
                err_expr(span)
            }
        }
    }

    /// A controlling expression (`if`, loops, `!`, `&&`, `?:`): must have scalar type.
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Expr {
        let x = self.rvalue(e);
        self.check_condition(x)
    }

    fn check_condition(&mut self, x: Expr) -> Expr {
        if !x.ty.is_scalar_condition() {
            let msg = format!("a condition must have scalar type, found `{}`", self.show(&x.ty));
            self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(x.span));
            return err_expr(x.span);
        }
        x
    }

    fn int_literal(&mut self, text: &str, span: Span) -> Expr {
        let lit = match literal::parse_int(text) {
            Ok(l) => l,
            Err(m) => {
                let code = if m.contains("long long") { codes::RESERVED_TYPE } else { codes::BAD_LITERAL };
                self.err(Diagnostic::error(code, m).at(span));
                return err_expr(span);
            }
        };
        let v = lit.value;
        let fits = |s: Scalar| {
            let (_, max) = s.int_range();
            (v as i128) <= max
        };
        // C99 6.4.4.1 with OpenCL's 64-bit `long` (there is no `long long`).
        let candidates: &[Scalar] = match (lit.suffix.unsigned, lit.suffix.long, lit.non_decimal) {
            (false, false, false) => &[Scalar::I32, Scalar::I64],
            (false, false, true) => &[Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64],
            (true, false, _) => &[Scalar::U32, Scalar::U64],
            (false, true, false) => &[Scalar::I64],
            (false, true, true) => &[Scalar::I64, Scalar::U64],
            (true, true, _) => &[Scalar::U64],
        };
        match candidates.iter().find(|s| fits(**s)) {
            Some(s) => Expr::int(v, Type::Scalar(*s), span),
            None => {
                if !lit.suffix.unsigned && !lit.non_decimal {
                    // A decimal literal too large for `long`: clang gives it `unsigned long`.
                    self.err(
                        Diagnostic::warning(
                            codes::BAD_LITERAL,
                            format!("integer literal `{text}` is too large for `long`; treated as `ulong`"),
                        )
                        .at(span),
                    );
                    return Expr::int(v, Type::Scalar(Scalar::U64), span);
                }
                self.err(
                    Diagnostic::error(codes::BAD_LITERAL, format!("integer literal `{text}` is too large")).at(span),
                );
                err_expr(span)
            }
        }
    }

    /// Types an expression (l-values stay l-values, arrays do not decay).
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Ident(name) => self.ident(name, span),
            ast::ExprKind::Int(text) => self.int_literal(text, span),
            ast::ExprKind::Char(text) => match literal::parse_char(text) {
                Ok(v) => Expr::int(v as u64, INT, span),
                Err(m) => {
                    self.err(Diagnostic::error(codes::BAD_LITERAL, m).at(span));
                    err_expr(span)
                }
            },
            ast::ExprKind::Float(text) => self.float_literal(text, span),
            ast::ExprKind::Str(_) => {
                self.err(
                    Diagnostic::error(codes::UNSUPPORTED_STRING, "string literals are not yet supported by kiln")
                        .at(span),
                );
                err_expr(span)
            }
            ast::ExprKind::Paren(inner) => {
                let mut x = self.expr(inner);
                x.span = span;
                x
            }
            ast::ExprKind::Unary(op, operand) => self.unary(*op, operand, span),
            ast::ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span),
            ast::ExprKind::Assign(op, l, r) => self.assign(*op, l, r, span),
            ast::ExprKind::Cond(c, a, b) => self.conditional(c, a, b, span),
            ast::ExprKind::Cast(tn, operand) => self.cast(tn, operand, span),
            ast::ExprKind::Call(callee, args) => self.call(callee, args, span),
            ast::ExprKind::Index(a, i) => self.index(a, i, span),
            ast::ExprKind::Member(base, name, nspan) | ast::ExprKind::Arrow(base, name, nspan) => {
                let b = if matches!(e.kind, ast::ExprKind::Member(..)) { self.expr(base) } else { self.rvalue(base) };
                if b.ty.is_vector() && matches!(e.kind, ast::ExprKind::Member(..)) {
                    return self.swizzle(b, name, *nspan, span);
                }
                self.record_member(b, name, *nspan, span, matches!(e.kind, ast::ExprKind::Arrow(..)))
            }
            ast::ExprKind::SizeofExpr(inner) => {
                let x = self.expr(inner);
                self.sizeof_type(&x.ty, span)
            }
            ast::ExprKind::SizeofType(tn) => {
                let (ty, _, _) = self.type_name(tn);
                self.sizeof_type(&ty, span)
            }
            ast::ExprKind::AlignofType(tn) => {
                let (ty, _, _) = self.type_name(tn);
                match super::decl::size_align(self, &ty) {
                    Some((_, a)) => Expr::int(a as u64, SIZE_T, span),
                    None => {
                        self.err(Diagnostic::error(codes::INCOMPLETE_TYPE, "alignment of an incomplete type").at(span));
                        err_expr(span)
                    }
                }
            }
            ast::ExprKind::VecStepExpr(inner) => {
                let x = self.expr(inner);
                self.vec_step(&x.ty, span)
            }
            ast::ExprKind::VecStepType(tn) => {
                let (ty, _, _) = self.type_name(tn);
                self.vec_step(&ty, span)
            }
            ast::ExprKind::Comma(list) => {
                let items: Vec<Expr> = list.iter().map(|x| self.rvalue(x)).collect();
                let ty = items.last().map(|x| x.ty.clone()).unwrap_or(Type::Void);
                Expr { kind: ExprKind::Comma(items), ty, span }
            }
            ast::ExprKind::CompoundLiteral(tn, init) => self.compound_literal(tn, init, span),
            ast::ExprKind::BlockLiteral => {
                self.err(Diagnostic::error(codes::NOT_ON_FPGA, "blocks are not supported on FPGA targets").at(span));
                err_expr(span)
            }
            ast::ExprKind::ReservedXor(l, r) => {
                self.rvalue(l);
                self.rvalue(r);
                self.err(
                    Diagnostic::error(codes::RESERVED_OPERATOR, "`^^` is a reserved operator in OpenCL C").at(span),
                );
                err_expr(span)
            }
        }
    }

    fn ident(&mut self, name: &Rc<str>, span: Span) -> Expr {
        match &**name {
            "true" => return Expr::int(1, Type::Scalar(Scalar::Bool), span),
            "false" => return Expr::int(0, Type::Scalar(Scalar::Bool), span),
            _ => {}
        }
        let pipe_use = |s: &mut Self, ty: &Type| {
            if Self::is_pipe_declaration(ty) {
                s.err(
                    Diagnostic::error(
                        codes::PIPE_RULE,
                        format!("pipe `{name}` can only be passed to the pipe built-in functions"),
                    )
                    .at(span)
                    .with_note("pipes and channels have no value: no operators, assignments or copies"),
                );
                return true;
            }
            false
        };
        match self.lookup(name).cloned() {
            Some(Sym::Local(id)) => {
                let ty = self.local(id).map(|l| l.ty.clone()).unwrap_or(Type::Error);
                if pipe_use(self, &ty) {
                    return err_expr(span);
                }
                Expr { kind: ExprKind::Local(id), ty, span }
            }
            Some(Sym::Global(id)) => {
                let ty = self.prog.global(id).ty.clone();
                if pipe_use(self, &ty) {
                    return err_expr(span);
                }
                Expr { kind: ExprKind::Global(id), ty, span }
            }
            Some(Sym::EnumConst(v)) => Expr::int(v, INT, span),
            Some(Sym::Func(f)) => {
                let fun = self.prog.func(f);
                let sig = crate::types::FnSig {
                    ret: fun.ret.clone(),
                    params: fun.params.iter().map(|p| fun.locals[p.0 as usize].ty.clone()).collect(),
                };
                Expr { kind: ExprKind::Int(f.0 as u64), ty: Type::Function(Rc::new(sig)), span }
            }
            Some(Sym::Typedef { .. }) => {
                self.err(Diagnostic::error(codes::EXPECTED_EXPR, format!("`{name}` is a type, not a value")).at(span));
                err_expr(span)
            }
            // Tags are keyed `struct NAME`, which no identifier spells.
            None | Some(Sym::Tag(_)) => {
                if self.opts.std >= crate::options::ClStd::Cl2_0
                    && let Some(v) = super::atomic::memory_enumerator(name)
                {
                    return Expr::int(v, INT, span);
                }
                if let Some(f) = builtins::family(name) {
                    self.err(
                        Diagnostic::error(
                            f.unsupported_code(),
                            format!("built-in {} `{name}` can only be called", f.describe()),
                        )
                        .at(span),
                    );
                } else {
                    self.err(
                        Diagnostic::error(codes::UNDECLARED, format!("use of undeclared identifier `{name}`")).at(span),
                    );
                }
                err_expr(span)
            }
        }
    }

    fn sizeof_type(&mut self, ty: &Type, span: Span) -> Expr {
        if ty.is_error() {
            return err_expr(span);
        }
        match super::decl::size_align(self, ty) {
            Some((s, _)) => Expr::int(s as u64, SIZE_T, span),
            None => {
                let msg = format!("`sizeof` applied to `{}`, which has no size", self.show(ty));
                self.err(Diagnostic::error(codes::INCOMPLETE_TYPE, msg).at(span));
                err_expr(span)
            }
        }
    }

    fn vec_step(&mut self, ty: &Type, span: Span) -> Expr {
        match ty {
            Type::Scalar(_) => Expr::int(1, INT, span),
            Type::Vector(_, n) => Expr::int(if *n == 3 { 4 } else { *n as u64 }, INT, span),
            Type::Error => err_expr(span),
            _ => {
                let msg = format!("`vec_step` needs a scalar or vector type, found `{}`", self.show(ty));
                self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
                err_expr(span)
            }
        }
    }

    fn unary(&mut self, op: UnOp, operand: &ast::Expr, span: Span) -> Expr {
        match op {
            UnOp::Neg | UnOp::Plus | UnOp::BitNot => {
                let x = self.rvalue(operand);
                if x.ty.is_vector() {
                    return self.vector_unary(op, x, span);
                }
                let Some(s) = x.ty.scalar() else {
                    if !x.ty.is_error() {
                        let msg =
                            format!("invalid operand type `{}` to unary `{}`", self.show(&x.ty), unop_spelling(op));
                        self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
                    }
                    return err_expr(span);
                };
                if op == UnOp::BitNot && s.is_float() {
                    self.err(
                        Diagnostic::error(codes::OPERATOR_TYPE, "`~` cannot be applied to a floating-point value")
                            .at(span),
                    );
                    return err_expr(span);
                }
                let x = self.promote(x);
                if op == UnOp::Plus {
                    return Expr { span, ..x };
                }
                let ty = x.ty.clone();
                let hop = if op == UnOp::Neg { UnaryOp::Neg } else { UnaryOp::BitNot };
                Expr { kind: ExprKind::Unary(hop, Box::new(x)), ty, span }
            }
            UnOp::Not => {
                let x = self.rvalue(operand);
                if x.ty.is_vector() {
                    return self.vector_unary(op, x, span);
                }
                let x = self.check_condition(x);
                if x.ty.is_error() {
                    return err_expr(span);
                }
                Expr { kind: ExprKind::Unary(UnaryOp::LogNot, Box::new(x)), ty: INT, span }
            }
            UnOp::Deref => {
                let x = self.rvalue(operand);
                match &x.ty {
                    Type::Pointer(p) => {
                        if p.ty.is_void() {
                            self.err(
                                Diagnostic::error(codes::VOID_USE, "cannot dereference a `void *` pointer").at(span),
                            );
                            return err_expr(span);
                        }
                        let ty = p.ty.clone();
                        Expr { kind: ExprKind::Deref(Box::new(x)), ty, span }
                    }
                    Type::Error => err_expr(span),
                    _ => {
                        let msg = format!("cannot dereference a value of type `{}`", self.show(&x.ty));
                        self.err(Diagnostic::error(codes::BAD_DEREF, msg).at(span));
                        err_expr(span)
                    }
                }
            }
            UnOp::AddrOf => {
                let x = self.expr(operand);
                if x.ty.is_error() {
                    return err_expr(span);
                }
                if matches!(x.ty, Type::Function(_)) {
                    self.err(
                        Diagnostic::error(codes::FUNCTION_POINTER, "cannot take the address of a function in OpenCL C")
                            .at(span),
                    );
                    return err_expr(span);
                }
                if !x.is_lvalue() {
                    self.err(
                        Diagnostic::error(
                            codes::NOT_LVALUE,
                            "cannot take the address of a value that is not an l-value",
                        )
                        .at(span),
                    );
                    return err_expr(span);
                }
                if let ExprKind::Swizzle(..) = x.kind {
                    self.err(
                        Diagnostic::error(codes::OPERATOR_TYPE, "cannot take the address of a vector element")
                            .at(span)
                            .with_note("OpenCL C does not allow pointers to vector components")
                            .with_help("take the address of the whole vector, or copy the element into a variable"),
                    );
                    return err_expr(span);
                }
                let space = self.lvalue_space(&x);
                let quals = self.lvalue_quals(&x);
                let ty = Type::Pointer(Rc::new(Pointee { ty: x.ty.clone(), space, quals }));
                Expr { kind: ExprKind::AddrOf(Box::new(x)), ty, span }
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let x = self.expr(operand);
                let what = if matches!(op, UnOp::PreInc | UnOp::PostInc) { "`++`" } else { "`--`" };
                if !self.check_modifiable(&x, what) {
                    return err_expr(span);
                }
                match &x.ty {
                    Type::Scalar(s) | Type::Vector(s, _) if s.is_float() => {
                        self.err(
                            Diagnostic::error(
                                codes::OPERATOR_TYPE,
                                format!("{what} cannot be applied to a floating-point value"),
                            )
                            .at(span),
                        );
                        return err_expr(span);
                    }
                    Type::Scalar(_) | Type::Pointer(_) => {}
                    Type::Vector(s, _) if s.is_integer() => {}
                    _ => {
                        let msg = format!("{what} cannot be applied to a value of type `{}`", self.show(&x.ty));
                        self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
                        return err_expr(span);
                    }
                }
                let ty = x.ty.clone();
                Expr {
                    kind: ExprKind::IncDec {
                        target: Box::new(x),
                        increment: matches!(op, UnOp::PreInc | UnOp::PostInc),
                        prefix: matches!(op, UnOp::PreInc | UnOp::PreDec),
                    },
                    ty,
                    span,
                }
            }
        }
    }

    /// Arithmetic on two already-typed operands (shared by binary operators and `op=`).
    /// Returns the operation type and both operands converted to it.
    fn arith_operands(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Option<(Type, Expr, Expr)> {
        if (l.ty.is_vector() || r.ty.is_vector()) && !l.ty.is_error() && !r.ty.is_error() {
            return self.vector_operands(op, l, r, span);
        }
        let (Some(ls), Some(rs)) = (l.ty.scalar(), r.ty.scalar()) else {
            if !l.ty.is_error() && !r.ty.is_error() {
                let msg = format!(
                    "invalid operands to binary `{}` (`{}` and `{}`)",
                    op.spelling(),
                    self.show(&l.ty),
                    self.show(&r.ty)
                );
                self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
            }
            return None;
        };
        let int_only =
            matches!(op, BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
        if int_only && (ls.is_float() || rs.is_float()) {
            self.err(
                Diagnostic::error(
                    codes::OPERATOR_TYPE,
                    format!("`{}` cannot be applied to floating-point operands", op.spelling()),
                )
                .at(span),
            );
            return None;
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            // Each operand is promoted on its own; the result has the left operand's type.
            let l = self.promote(l);
            let r = self.promote(r);
            return Some((l.ty.clone(), l, r));
        }
        let t = Type::Scalar(usual_arithmetic(ls, rs));
        let l = self.convert(l, &t);
        let r = self.convert(r, &t);
        Some((t, l, r))
    }

    fn binary(&mut self, op: BinOp, le: &ast::Expr, re: &ast::Expr, span: Span) -> Expr {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let l = self.rvalue(le);
            let r = self.rvalue(re);
            if l.ty.is_vector() || r.ty.is_vector() {
                return self.vector_logical(op, l, r, span);
            }
            let l = self.check_condition(l);
            let r = self.check_condition(r);
            if l.ty.is_error() || r.ty.is_error() {
                return err_expr(span);
            }
            let kind = if op == BinOp::LogAnd {
                ExprKind::LogAnd(Box::new(l), Box::new(r))
            } else {
                ExprKind::LogOr(Box::new(l), Box::new(r))
            };
            return Expr { kind, ty: INT, span };
        }
        let l = self.rvalue(le);
        let r = self.rvalue(re);
        if l.ty.is_error() || r.ty.is_error() {
            return err_expr(span);
        }
        // Pointer arithmetic and comparisons.
        match (op, &l.ty, &r.ty) {
            (BinOp::Add, Type::Pointer(_), t) | (BinOp::Sub, Type::Pointer(_), t) if t.is_integer() => {
                return self.ptr_add(l, r, op == BinOp::Sub, span);
            }
            (BinOp::Add, t, Type::Pointer(_)) if t.is_integer() => return self.ptr_add(r, l, false, span),
            (BinOp::Sub, Type::Pointer(a), Type::Pointer(b)) => {
                let spaces_ok = a.space == b.space || a.space == AddrSpace::Generic || b.space == AddrSpace::Generic;
                if a.ty != b.ty || !spaces_ok {
                    let msg =
                        format!("cannot subtract pointers of types `{}` and `{}`", self.show(&l.ty), self.show(&r.ty));
                    self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
                    return err_expr(span);
                }
                return Expr { kind: ExprKind::PtrDiff(Box::new(l), Box::new(r)), ty: PTRDIFF_T, span };
            }
            (BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne, Type::Pointer(_), _)
            | (BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne, _, Type::Pointer(_)) => {
                return self.ptr_compare(op, l, r, span);
            }
            _ => {}
        }
        let Some((t, l, r)) = self.arith_operands(op, l, r, span) else { return err_expr(span) };
        let hop = hir_binop(op);
        let ty = match (&t, hop.is_comparison()) {
            (Type::Vector(s, n), true) => Type::Vector(super::vector::signed_of_size(*s), *n),
            (_, true) => INT,
            _ => t,
        };
        Expr { kind: ExprKind::Binary(hop, Box::new(l), Box::new(r)), ty, span }
    }

    fn ptr_add(&mut self, p: Expr, i: Expr, negate: bool, span: Span) -> Expr {
        if p.ty.pointee().is_some_and(|pt| pt.ty.is_void()) {
            self.err(Diagnostic::error(codes::BAD_OPERANDS, "arithmetic on a `void *` pointer").at(span));
            return err_expr(span);
        }
        let i = self.promote(i);
        let i = if negate {
            let ty = i.ty.clone();
            let s = i.span;
            Expr { kind: ExprKind::Unary(UnaryOp::Neg, Box::new(i)), ty, span: s }
        } else {
            i
        };
        let ty = p.ty.clone();
        Expr { kind: ExprKind::PtrAdd(Box::new(p), Box::new(i)), ty, span }
    }

    fn ptr_compare(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
        let hop = hir_binop(op);
        let (l, r) = match (&l.ty, &r.ty) {
            (Type::Pointer(a), Type::Pointer(b)) => {
                if a.space != b.space && a.space != AddrSpace::Generic && b.space != AddrSpace::Generic {
                    self.err(
                        Diagnostic::error(
                            codes::POINTER_CONVERSION,
                            "comparison of pointers to different address spaces",
                        )
                        .at(span),
                    );
                    return err_expr(span);
                }
                (l, r)
            }
            (Type::Pointer(_), _) if self.is_null_constant(&r) => {
                let t = l.ty.clone();
                let r = Expr { kind: ExprKind::PtrCast(Box::new(r)), ty: t, span };
                (l, r)
            }
            (_, Type::Pointer(_)) if self.is_null_constant(&l) => {
                let t = r.ty.clone();
                let l = Expr { kind: ExprKind::PtrCast(Box::new(l)), ty: t, span };
                (l, r)
            }
            _ => {
                let msg = format!("comparison between `{}` and `{}`", self.show(&l.ty), self.show(&r.ty));
                self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
                return err_expr(span);
            }
        };
        Expr { kind: ExprKind::PtrCmp(hop, Box::new(l), Box::new(r)), ty: INT, span }
    }

    fn assign(&mut self, op: Option<BinOp>, le: &ast::Expr, re: &ast::Expr, span: Span) -> Expr {
        let lhs = self.expr(le);
        let rhs = self.rvalue(re);
        let what = match op {
            None => "assignment".to_string(),
            Some(o) => format!("`{}=`", o.spelling()),
        };
        if !self.check_modifiable(&lhs, &what) || rhs.ty.is_error() {
            return err_expr(span);
        }
        if self.refuse_half(&lhs.ty, "an assignment to an object", lhs.span) {
            return err_expr(span);
        }
        let ty = lhs.ty.clone();
        let Some(op) = op else {
            let rhs = self.assign_convert(rhs, &ty, "assignment");
            return Expr { kind: ExprKind::Assign(Box::new(lhs), Box::new(rhs)), ty, span };
        };
        if let Type::Pointer(_) = ty {
            if matches!(op, BinOp::Add | BinOp::Sub) && rhs.ty.is_integer() {
                let rhs = self.promote(rhs);
                return Expr {
                    kind: ExprKind::PtrCompoundAssign { sub: op == BinOp::Sub, lhs: Box::new(lhs), rhs: Box::new(rhs) },
                    ty,
                    span,
                };
            }
            let msg = format!("invalid operands to `{}=` on a pointer", op.spelling());
            self.err(Diagnostic::error(codes::BAD_OPERANDS, msg).at(span));
            return err_expr(span);
        }
        // Type the operation on a copy of the target's value; keep the l-value separately.
        let lval_as_value = Expr { kind: ExprKind::Int(0), ty: ty.clone(), span: lhs.span };
        let Some((op_ty, _, rhs)) = self.arith_operands(op, lval_as_value, rhs, span) else { return err_expr(span) };
        if op_ty.is_vector() && !ty.is_vector() {
            let msg = format!("`{}=` cannot store a `{}` into `{}`", op.spelling(), self.show(&op_ty), self.show(&ty));
            self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
            return err_expr(span);
        }
        Expr {
            kind: ExprKind::CompoundAssign { op: hir_binop(op), lhs: Box::new(lhs), rhs: Box::new(rhs), op_ty },
            ty,
            span,
        }
    }

    fn conditional(&mut self, c: &ast::Expr, a: &ast::Expr, b: &ast::Expr, span: Span) -> Expr {
        let c = self.rvalue(c);
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        if c.ty.is_error() || a.ty.is_error() || b.ty.is_error() {
            return err_expr(span);
        }
        if c.ty.is_vector() {
            return self.vector_select(c, a, b, span);
        }
        let c = self.check_condition(c);
        if c.ty.is_error() {
            return err_expr(span);
        }
        let (ty, a, b) = match (&a.ty, &b.ty) {
            (Type::Scalar(x), Type::Scalar(y)) => {
                let t = Type::Scalar(usual_arithmetic(*x, *y));
                let a = self.convert(a, &t);
                let b = self.convert(b, &t);
                (t, a, b)
            }
            (Type::Vector(..), Type::Vector(..)) if a.ty == b.ty => (a.ty.clone(), a, b),
            (Type::Vector(..), Type::Scalar(_)) => {
                let t = a.ty.clone();
                let b = self.splat(b, &t);
                (t, a, b)
            }
            (Type::Scalar(_), Type::Vector(..)) => {
                let t = b.ty.clone();
                let a = self.splat(a, &t);
                (t, a, b)
            }
            (Type::Void, Type::Void) => (Type::Void, a, b),
            (Type::Record(x), Type::Record(y)) if x == y => (a.ty.clone(), a, b),
            (Type::Pointer(x), Type::Pointer(y)) if x.ty == y.ty && x.space == y.space => (a.ty.clone(), a, b),
            (Type::Pointer(_), _) if self.is_null_constant(&b) => {
                let t = a.ty.clone();
                let b = self.assign_convert(b, &t, "conditional");
                (t, a, b)
            }
            (_, Type::Pointer(_)) if self.is_null_constant(&a) => {
                let t = b.ty.clone();
                let a = self.assign_convert(a, &t, "conditional");
                (t, a, b)
            }
            _ => {
                let msg =
                    format!("incompatible operand types `{}` and `{}` in `?:`", self.show(&a.ty), self.show(&b.ty));
                self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
                return err_expr(span);
            }
        };
        Expr { kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), ty, span }
    }

    fn cast(&mut self, tn: &ast::TypeName, operand: &ast::Expr, span: Span) -> Expr {
        let (ty, _, _) = self.type_name(tn);
        if self.refuse_half(&ty, "a cast to a value", tn.span) {
            self.rvalue(operand);
            return err_expr(span);
        }
        if ty.is_vector() {
            return self.vector_cast(&ty, operand, span);
        }
        let x = self.rvalue(operand);
        if ty.is_error() || x.ty.is_error() {
            return err_expr(span);
        }
        match (&ty, &x.ty) {
            (Type::Void, _) => Expr { kind: ExprKind::Comma(vec![x]), ty: Type::Void, span },
            (Type::Scalar(_), Type::Scalar(_)) => {
                let mut e = self.convert(x, &ty);
                e.span = span;
                e
            }
            (Type::Pointer(tp), Type::Pointer(fp)) => {
                let space_ok = tp.space == fp.space || tp.space == AddrSpace::Generic || fp.space == AddrSpace::Generic;
                if !space_ok || (fp.space == AddrSpace::Constant && tp.space == AddrSpace::Generic) {
                    self.err(
                        Diagnostic::error(
                            codes::POINTER_CONVERSION,
                            format!(
                                "cannot cast a pointer to `{}` memory to a pointer to `{}` memory",
                                fp.space.keyword(),
                                tp.space.keyword()
                            ),
                        )
                        .at(span),
                    );
                    return err_expr(span);
                }
                Expr { kind: ExprKind::PtrCast(Box::new(x)), ty, span }
            }
            (Type::Pointer(_), _) if self.is_null_constant(&x) => {
                Expr { kind: ExprKind::PtrCast(Box::new(x)), ty, span }
            }
            (Type::Pointer(_), Type::Scalar(_)) | (Type::Scalar(_), Type::Pointer(_)) => {
                self.err(
                    Diagnostic::error(
                        codes::UNSUPPORTED_POINTER_CAST,
                        "casts between pointers and integers are not supported by kiln",
                    )
                    .at(span)
                    .with_note("in kiln's hardware, a pointer is a memory and an index, not a number"),
                );
                err_expr(span)
            }
            _ => {
                let msg = format!("cannot cast `{}` to `{}`", self.show(&x.ty), self.show(&ty));
                let mut d = Diagnostic::error(codes::BAD_CAST, msg).at(span);
                if x.ty.is_vector() {
                    d = d.with_note("a vector cannot be cast to a scalar; select a lane (`.x`, `.s0`)");
                }
                self.err(d);
                err_expr(span)
            }
        }
    }

    /// `(T){...}`: an unnamed private object of type `T`, initialized where the statement
    /// using it runs (its declaration goes just before that statement).
    fn compound_literal(&mut self, tn: &ast::TypeName, init: &ast::Initializer, span: Span) -> Expr {
        let (mut ty, quals, _) = self.type_name(tn);
        if ty.is_error() {
            return err_expr(span);
        }
        if self.fcx.is_none() {
            self.err(
                Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, "kiln builds compound literals inside functions only")
                    .at(span),
            );
            return err_expr(span);
        }
        let init = self.initializer(&mut ty, init, false);
        if ty.is_error() {
            return err_expr(span);
        }
        let id = self.new_local(crate::hir::Local {
            name: "(compound literal)".into(),
            ty: ty.clone(),
            space: AddrSpace::Private,
            quals,
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        });
        self.pending_decls.push(crate::hir::Stmt::Decl(id, Some(init), span));
        Expr { kind: ExprKind::Local(id), ty, span }
    }

    /// `to_global(p)` and its kin: `p` (a generic pointer) as a pointer into `space`, null when
    /// it points elsewhere.
    fn address_space_cast(&mut self, name: &str, space: AddrSpace, args: &[ast::Expr], span: Span) -> Expr {
        if args.len() != 1 {
            self.wrong_arg_count(name, 1, args.len(), span);
            return err_expr(span);
        }
        let p = self.rvalue(&args[0]);
        if p.ty.is_error() {
            return p;
        }
        let Type::Pointer(to) = &p.ty else {
            let msg = format!("`{name}` takes a pointer, not `{}`", self.show(&p.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(p.span));
            return err_expr(span);
        };
        if to.space == AddrSpace::Constant {
            let msg = format!("`{name}` takes a pointer to the generic address space; this one is `__constant`");
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(p.span));
            return err_expr(span);
        }
        let ty = Type::Pointer(Rc::new(crate::types::Pointee { ty: to.ty.clone(), space, quals: to.quals }));
        Expr { kind: ExprKind::ToAddressSpace(Box::new(p)), ty, span }
    }

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Expr {
        let ast::ExprKind::Ident(name) = &callee.kind else {
            let c = self.rvalue(callee);
            if !c.ty.is_error() {
                self.err(
                    Diagnostic::error(codes::NOT_CALLABLE, "only named functions can be called in OpenCL C")
                        .at(callee.span),
                );
            }
            return err_expr(span);
        };
        let fid = match self.lookup(name).cloned() {
            Some(Sym::Func(f)) => f,
            Some(_) => {
                let x = self.expr(callee);
                if !x.ty.is_error() {
                    let msg = format!("`{name}` is not a function");
                    self.err(Diagnostic::error(codes::NOT_CALLABLE, msg).at(callee.span));
                }
                return err_expr(span);
            }
            None => {
                if &**name == "printf" {
                    return self.printf(args, span);
                }
                if &**name == "get_compute_id" {
                    for a in args {
                        self.rvalue(a);
                    }
                    self.err(
                        Diagnostic::error(
                            codes::UNSUPPORTED_BUILTIN,
                            "`get_compute_id` (Intel's kernel replication, `num_compute_units`) is not yet supported by kiln",
                        )
                        .at(span)
                        .with_help("write one kernel per compute unit, each with its channels named"),
                    );
                    return err_expr(span);
                }
                // Intel's `__fpga_reg(x)`: a register on the path of `x`, a hint for placement;
                // its value is `x`.
                if &**name == "__fpga_reg" {
                    if args.len() != 1 {
                        self.wrong_arg_count(name, 1, args.len(), span);
                        return err_expr(span);
                    }
                    return self.rvalue(&args[0]);
                }
                // clang's `__builtin_expect(x, expected)`: a branch hint; its value is `x`.
                if &**name == "__builtin_expect" {
                    if args.len() != 2 {
                        self.wrong_arg_count(name, 2, args.len(), span);
                        return err_expr(span);
                    }
                    let x = self.rvalue(&args[0]);
                    self.rvalue(&args[1]);
                    return x;
                }
                if let Some(space) = match &**name {
                    "to_global" => Some(AddrSpace::Global),
                    "to_local" => Some(AddrSpace::Local),
                    "to_private" => Some(AddrSpace::Private),
                    _ => None,
                } {
                    return self.address_space_cast(name, space, args, span);
                }
                if let Some(e) = self.work_item_builtin(name, args, callee.span, span) {
                    return e;
                }
                if let Some(e) = self.integer_builtin(name, args, callee.span, span) {
                    return e;
                }
                if let Some(e) = self.half_storage_builtin(name, args, span) {
                    return e;
                }
                if let Some(e) = self.vector_builtin(name, args, span) {
                    return e;
                }
                if let Some(e) = self.atomic_builtin(name, args, callee.span, span) {
                    return e;
                }
                if let Some(e) = self.collective_builtin(name, args, callee.span, span) {
                    return e;
                }
                if let Some(e) = self.async_copy_builtin(name, args, callee.span, span) {
                    return e;
                }
                if &**name == "prefetch" {
                    return self.prefetch(args, span);
                }
                if let Some(e) = self.float_constant_builtin(name, args, span) {
                    return e;
                }
                if let Some(e) = self.pointer_result_call(name, args, span) {
                    return e;
                }
                if let Some(e) = self.pipe_builtin(name, args, callee.span, span) {
                    return e;
                }
                // A pipe has no value: the arguments of a pipe function kiln does not support
                // are not checked (the call is refused as a whole).
                if builtins::family(name) != Some(builtins::Family::Pipe) {
                    for a in args {
                        self.rvalue(a);
                    }
                }
                // Every atomic function kiln knows was handled above: another `atomic_*` name
                // is not an OpenCL C built-in.
                match builtins::family(name).filter(|f| *f != builtins::Family::Atomic) {
                    Some(f) => {
                        let mut d = Diagnostic::error(
                            f.unsupported_code(),
                            format!("built-in {} `{name}` is not yet supported by kiln", f.describe()),
                        )
                        .at(callee.span);
                        if f == builtins::Family::WorkItem {
                            d = d.with_note("kiln currently builds single work-item kernels");
                        } else if matches!(f, builtins::Family::Image | builtins::Family::Enqueue) {
                            d = Diagnostic::error(
                                f.unsupported_code(),
                                format!("`{name}` is not supported on FPGA targets"),
                            )
                            .at(callee.span);
                        }
                        self.err(d);
                    }
                    None => self.err(
                        Diagnostic::error(codes::IMPLICIT_DECL, format!("call to undeclared function `{name}`"))
                            .at(callee.span)
                            .with_note("OpenCL C does not allow implicit function declarations"),
                    ),
                }
                return err_expr(span);
            }
        };
        let (ret, param_tys) = {
            let f = self.prog.func(fid);
            (f.ret.clone(), f.params.iter().map(|p| f.locals[p.0 as usize].ty.clone()).collect::<Vec<_>>())
        };
        if self.prog.func(fid).is_kernel && self.in_helper() {
            // Allowed by OpenCL C; nothing to check.
        }
        if args.len() != param_tys.len() {
            let decl = self.prog.func(fid).span;
            self.err(
                Diagnostic::error(
                    codes::ARG_COUNT,
                    format!("`{name}` takes {} argument(s) but {} were given", param_tys.len(), args.len()),
                )
                .at(span)
                .with_label(decl, "declared here"),
            );
            for a in args {
                self.rvalue(a);
            }
            return err_expr(span);
        }
        let mut hargs = Vec::new();
        for (i, (a, pt)) in args.iter().zip(&param_tys).enumerate() {
            if let Type::Pipe(..) = pt {
                hargs.push(self.pipe_argument(a, pt, name, i));
                continue;
            }
            let x = self.rvalue(a);
            hargs.push(self.assign_convert(x, pt, &format!("argument {} of `{name}`", i + 1)));
        }
        self.record_call(fid, callee.span);
        Expr { kind: ExprKind::Call(fid, hargs), ty: ret, span }
    }

    /// Work-item functions, barriers and fences, which kiln builds in hardware. `None` when
    /// `name` is none of them.
    /// `prefetch(const __global gentype *p, size_t num)`: a hint with no effect on results; kiln's
    /// memory ports stream requests anyway, so only the arguments are evaluated.
    fn prefetch(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        if xs.len() != 2 {
            let msg = format!("`prefetch` takes 2 arguments but {} were given", xs.len());
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return err_expr(span);
        }
        if xs[0].ty.pointee().is_none_or(|p| p.space != AddrSpace::Global) || !xs[1].ty.is_integer() {
            let msg = format!(
                "`prefetch` takes a `__global` pointer and a `size_t` count, not `{}` and `{}`",
                self.show(&xs[0].ty),
                self.show(&xs[1].ty)
            );
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(span));
            return err_expr(span);
        }
        Expr { kind: ExprKind::Comma(xs), ty: Type::Void, span }
    }

    fn work_item_builtin(&mut self, name: &str, args: &[ast::Expr], name_span: Span, span: Span) -> Option<Expr> {
        let arity_error = |s: &mut Self, n: &str| {
            s.err(Diagnostic::error(codes::ARG_COUNT, format!("`{name}` takes {n}")).at(span));
            Some(err_expr(span))
        };
        if let Some(f) = crate::hir::WorkItemFn::from_name(name) {
            if f == crate::hir::WorkItemFn::EnqueuedLocalSize || f == crate::hir::WorkItemFn::GlobalOffset {
                // Supported like their plain counterparts (kiln launches uniform work-groups
                // without an offset).
            }
            let ty = if f == crate::hir::WorkItemFn::WorkDim { Type::Scalar(Scalar::U32) } else { SIZE_T };
            if !f.takes_dim() {
                if !args.is_empty() {
                    return arity_error(self, "no arguments");
                }
                return Some(Expr { kind: ExprKind::WorkItem(f, 0), ty, span });
            }
            if args.len() != 1 {
                return arity_error(self, "one argument (the dimension)");
            }
            let d = self.rvalue(&args[0]);
            if d.ty.is_error() {
                return Some(err_expr(span));
            }
            if d.ty.scalar().is_none_or(|s| !s.is_integer()) {
                self.err(
                    Diagnostic::error(codes::TYPE_MISMATCH, format!("the dimension of `{name}` must be an integer"))
                        .at(d.span),
                );
                return Some(err_expr(span));
            }
            let dim = match self.const_value(&d) {
                Some(v) => v,
                None => {
                    self.err(
                        Diagnostic::error(
                            codes::UNSUPPORTED_NDRANGE,
                            format!("the dimension of `{name}` must be a compile-time constant in kiln"),
                        )
                        .at(d.span)
                        .with_note("hardware wires each dimension's counter separately"),
                    );
                    return Some(err_expr(span));
                }
            };
            // Dimensions above 2 are valid and give the values of an unused dimension.
            let dim = u32::try_from(dim).unwrap_or(u32::MAX).min(3);
            let _ = name_span;
            return Some(Expr { kind: ExprKind::WorkItem(f, dim), ty, span });
        }
        match name {
            "barrier" | "work_group_barrier" => {
                if args.is_empty() || args.len() > 2 {
                    return arity_error(self, "the fence flags and an optional memory scope");
                }
                for a in args {
                    let x = self.rvalue(a);
                    if !x.ty.is_error() && x.ty.scalar().is_none_or(|s| !s.is_integer()) {
                        self.err(
                            Diagnostic::error(codes::TYPE_MISMATCH, format!("`{name}` takes integer flags")).at(x.span),
                        );
                    }
                }
                Some(Expr { kind: ExprKind::Barrier, ty: Type::Void, span })
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
                if args.len() != 1 {
                    return arity_error(self, "one argument (the fence flags)");
                }
                self.rvalue(&args[0]);
                // A work-item's own accesses are already ordered in kiln's hardware.
                Some(Expr { kind: ExprKind::Comma(vec![]), ty: Type::Void, span })
            }
            "atomic_work_item_fence" => {
                if args.len() != 3 {
                    return arity_error(self, "three arguments (the fence flags, a memory order and a memory scope)");
                }
                for a in args {
                    let x = self.rvalue(a);
                    if !x.ty.is_error() && x.ty.scalar().is_none_or(|s| !s.is_integer()) {
                        self.err(
                            Diagnostic::error(
                                codes::TYPE_MISMATCH,
                                format!("`{name}` takes integer flags, a memory order and a memory scope"),
                            )
                            .at(x.span),
                        );
                    }
                }
                // kiln's hardware performs a work-item's accesses, atomic or not, in program
                // order, so the fence orders nothing that is not already ordered.
                Some(Expr { kind: ExprKind::Comma(vec![]), ty: Type::Void, span })
            }
            _ => None,
        }
    }

    fn index(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> Expr {
        let base = self.rvalue(a);
        let idx = self.rvalue(i);
        if base.ty.is_error() || idx.ty.is_error() {
            return err_expr(span);
        }
        let (p, ix) = match (&base.ty, &idx.ty) {
            (Type::Pointer(_), t) if t.is_integer() => (base, idx),
            (t, Type::Pointer(_)) if t.is_integer() => (idx, base),
            _ => {
                let msg = if base.ty.is_pointer() || idx.ty.is_pointer() {
                    format!("an array subscript must be an integer, found `{}`", self.show(&idx.ty))
                } else {
                    format!("subscripted value of type `{}` is not an array or pointer", self.show(&base.ty))
                };
                self.err(Diagnostic::error(codes::BAD_SUBSCRIPT, msg).at(span));
                return err_expr(span);
            }
        };
        let ty = p.ty.pointee().map(|pt| pt.ty.clone()).unwrap_or(Type::Error);
        if ty.is_void() {
            self.err(Diagnostic::error(codes::VOID_USE, "subscript of a `void *` pointer").at(span));
            return err_expr(span);
        }
        let ptr = self.ptr_add(p, ix, false, span);
        Expr { kind: ExprKind::Deref(Box::new(ptr)), ty, span }
    }
}

fn unop_spelling(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Plus => "+",
        UnOp::BitNot => "~",
        UnOp::Not => "!",
        UnOp::Deref => "*",
        UnOp::AddrOf => "&",
        UnOp::PreInc | UnOp::PostInc => "++",
        UnOp::PreDec | UnOp::PostDec => "--",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_conversions() {
        use Scalar::*;
        assert_eq!(usual_arithmetic(U8, I8), I32);
        assert_eq!(usual_arithmetic(I32, U32), U32);
        assert_eq!(usual_arithmetic(I64, U32), I64);
        assert_eq!(usual_arithmetic(U64, I32), U64);
        assert_eq!(usual_arithmetic(I64, U64), U64);
        assert_eq!(usual_arithmetic(Bool, Bool), I32);
        assert_eq!(promoted(U16), I32);
    }
}
