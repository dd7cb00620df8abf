//! Typing of vector expressions (OpenCL C 3.0 §6.3 and §6.4): the vector form of the usual
//! arithmetic conversions, lane-wise operators, comparisons that give -1/0, swizzles, vector
//! literals, `convert_<T>[_sat][_rte|_rtz|_rtp|_rtn]`, `as_<T>` and `vloadN`/`vstoreN`.

use super::Sema;
use super::expr::{err_expr, usual_arithmetic};
use crate::ast::{self, BinOp};
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, ExprKind, UnaryOp};
use crate::options::ClStd;
use crate::source::Span;
use crate::types::{Scalar, Type, builtin_type_name};

/// The signed integer type of a given size: the lane type of a comparison's result.
pub(super) fn signed_of_size(s: Scalar) -> Scalar {
    match s.bits() {
        8 => Scalar::I8,
        16 => Scalar::I16,
        64 => Scalar::I64,
        _ => Scalar::I32,
    }
}

/// Parses a swizzle on an `n`-element vector into lane indices; the error says what is wrong.
pub(crate) fn parse_swizzle(name: &str, n: u8, std: ClStd) -> Result<Vec<u8>, String> {
    let alloc = if n == 3 { 4 } else { n };
    let half = alloc / 2;
    match name {
        "lo" => return Ok((0..half).collect()),
        "hi" => return Ok((half..alloc).collect()),
        "even" => return Ok((0..half).map(|i| 2 * i).collect()),
        "odd" => return Ok((0..half).map(|i| 2 * i + 1).collect()),
        _ => {}
    }
    let lanes: Vec<u8> = if let Some(digits) = name.strip_prefix('s').or_else(|| name.strip_prefix('S')) {
        if digits.is_empty() {
            return Err("`.s` must be followed by lane numbers `0`-`9`, `a`-`f`".into());
        }
        let mut out = Vec::new();
        for c in digits.chars() {
            let Some(d) = c.to_digit(16) else {
                return Err(format!("`{c}` is not a lane number (`0`-`9`, `a`-`f`)"));
            };
            out.push(d as u8);
        }
        out
    } else {
        let xyzw = name.chars().all(|c| "xyzw".contains(c));
        let rgba = name.chars().all(|c| "rgba".contains(c));
        if !xyzw && !rgba {
            return Err(if name.chars().any(|c| "xyzw".contains(c)) && name.chars().any(|c| "rgba".contains(c)) {
                "`xyzw` and `rgba` components cannot be mixed".into()
            } else {
                format!("`{name}` is not a vector component name")
            });
        }
        if rgba && std < ClStd::Cl3_0 {
            return Err("`rgba` component names need OpenCL C 3.0".into());
        }
        // Wider vectors name their first four lanes this way too (§6.3.7 of the unified
        // specification); `lanes` below rejects names past the vector's end.
        name.chars().map(|c| "xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0) as u8).collect()
    };
    if let Some(bad) = lanes.iter().find(|l| **l >= n) {
        return Err(format!("lane {bad} does not exist in a {n}-element vector"));
    }
    if !matches!(lanes.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(format!("a swizzle selects 1, 2, 3, 4, 8 or 16 lanes, not {}", lanes.len()));
    }
    Ok(lanes)
}

/// A scalar or vector type named in a conversion built-in (`int`, `uchar4`, ...).
fn value_type_name(name: &str) -> Option<Type> {
    let keyword = match name {
        "char" => Some(Scalar::I8),
        "short" => Some(Scalar::I16),
        "int" => Some(Scalar::I32),
        "long" => Some(Scalar::I64),
        "half" => Some(Scalar::F16),
        "float" => Some(Scalar::F32),
        "double" => Some(Scalar::F64),
        _ => None,
    };
    if let Some(s) = keyword {
        return Some(Type::Scalar(s));
    }
    if name.ends_with("_t") {
        return None;
    }
    builtin_type_name(name).filter(|t| matches!(t, Type::Scalar(_) | Type::Vector(..)))
}

fn lanes_type(s: Scalar, k: usize) -> Type {
    if k == 1 { Type::Scalar(s) } else { Type::Vector(s, k as u8) }
}

/// How a scalar operand of a vector operator converts to the element type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LaneFit {
    /// Its type does not outrank the element type.
    ByRank,
    /// An `int` constant whose value fits the element type (accepted with a warning).
    ByValue,
    No,
}

impl Sema<'_> {
    fn vector_error(&mut self, code: crate::diag::Code, msg: String, span: Span) -> Option<(Type, Expr, Expr)> {
        self.err(Diagnostic::error(code, msg).at(span));
        None
    }

    /// Whether a scalar operand may be implicitly splatted to a vector of `elem` (OpenCL C 3.0
    /// §6.4.2: it must not have a greater rank than the element; an integer constant that fits
    /// the element type is always accepted).
    fn scalar_fits_lane(&mut self, e: &Expr, s: Scalar, elem: Scalar) -> LaneFit {
        let by_rank = if s.is_float() || elem.is_float() {
            !s.is_float() || (elem.is_float() && s.rank() <= elem.rank())
        } else {
            // An unsigned type outranks the signed type of the same precision (§6.4.6).
            s.bits() < elem.bits()
                || (s.bits() == elem.bits() && (elem.is_signed() == s.is_signed() || !elem.is_signed()))
        };
        if by_rank {
            return LaneFit::ByRank;
        }
        // The OpenCL C++ rule, which common OpenCL C compilers follow: an `int` constant (the
        // type of a plain literal like `1`) converts when its value fits, so `uchar4 + 1` works.
        if s == Scalar::I32
            && elem.is_integer()
            && let Some(v) = self.const_value(e)
        {
            let (lo, hi) = elem.int_range();
            if (lo..=hi).contains(&(v as i64 as i128)) {
                return LaneFit::ByValue;
            }
        }
        LaneFit::No
    }

    /// Converts a scalar to the vector type `to` (converted to the element type, then splatted).
    pub(super) fn splat(&mut self, e: Expr, to: &Type) -> Expr {
        let span = e.span;
        Expr { kind: ExprKind::Convert(Box::new(e)), ty: to.clone(), span }
    }

    /// The vector form of the usual arithmetic conversions for a binary operator.
    pub(super) fn vector_operands(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Option<(Type, Expr, Expr)> {
        let int_only =
            matches!(op, BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
        let bad = |me: &mut Self, l: &Expr, r: &Expr| {
            let msg = format!(
                "invalid operands to binary `{}` (`{}` and `{}`)",
                op.spelling(),
                me.show(&l.ty),
                me.show(&r.ty)
            );
            me.vector_error(codes::BAD_OPERANDS, msg, span)
        };
        let (elem, n) = match (&l.ty, &r.ty) {
            (Type::Vector(a, n), Type::Vector(b, m)) => {
                if a != b || n != m {
                    let msg = format!(
                        "vector operands of binary `{}` must have the same type, found `{}` and `{}`",
                        op.spelling(),
                        self.show(&l.ty),
                        self.show(&r.ty)
                    );
                    self.err(
                        Diagnostic::error(codes::BAD_OPERANDS, msg)
                            .at(span)
                            .with_help("convert one of them explicitly with `convert_<type>()`"),
                    );
                    return None;
                }
                (*a, *n)
            }
            (Type::Vector(a, n), Type::Scalar(_)) | (Type::Scalar(_), Type::Vector(a, n)) => (*a, *n),
            _ => return bad(self, &l, &r),
        };
        if int_only
            && (elem.is_float()
                || l.ty.element().is_some_and(Scalar::is_float)
                || r.ty.element().is_some_and(Scalar::is_float))
        {
            let msg = format!("`{}` cannot be applied to floating-point operands", op.spelling());
            return self.vector_error(codes::OPERATOR_TYPE, msg, span);
        }
        let vty = Type::Vector(elem, n);
        let side = |me: &mut Self, e: Expr, left: bool| -> Option<Expr> {
            match e.ty {
                Type::Vector(..) => Some(e),
                Type::Scalar(s) => {
                    // A shift count may be any integer: it is taken modulo the lane width.
                    let shift_count = !left && matches!(op, BinOp::Shl | BinOp::Shr);
                    let fit = if shift_count { LaneFit::ByRank } else { me.scalar_fits_lane(&e, s, elem) };
                    if fit == LaneFit::ByValue {
                        me.err(
                            Diagnostic::warning(
                                codes::CONSTANT_RANK,
                                format!(
                                    "this `int` constant outranks the element type of `{}`; kiln converts it because its value fits",
                                    me.show(&vty)
                                ),
                            )
                            .at(e.span)
                            .with_note("OpenCL C (§6.4.6) makes this an error; OpenCL C++ accepts it")
                            .with_help(format!("cast it to be portable: `({})`", elem.name())),
                        );
                    }
                    if fit == LaneFit::No {
                        let msg = format!(
                            "`{}` cannot be implicitly converted to the element type of `{}`: its rank is greater",
                            s.name(),
                            me.show(&vty)
                        );
                        me.err(
                            Diagnostic::error(codes::BAD_OPERANDS, msg)
                                .at(e.span)
                                .with_help(format!("cast it: `({})`", elem.name())),
                        );
                        return None;
                    }
                    Some(me.splat(e, &vty))
                }
                _ => None,
            }
        };
        if matches!(op, BinOp::Shl | BinOp::Shr) && !l.ty.is_vector() {
            let msg = format!(
                "the count of `{}` is a vector (`{}`), but the shifted value is a scalar (`{}`)",
                op.spelling(),
                self.show(&r.ty),
                self.show(&l.ty)
            );
            self.err(
                Diagnostic::error(codes::BAD_OPERANDS, msg)
                    .at(span)
                    .with_note("a scalar shifted value needs a scalar count (§6.5.10)")
                    .with_help(format!(
                        "make the shifted value a vector: `({}{n})(x)`",
                        l.ty.scalar().map_or("int", Scalar::name)
                    )),
            );
            return None;
        }
        let l = side(self, l, true)?;
        let r = side(self, r, false)?;
        Some((vty, l, r))
    }

    /// Unary `-`, `+`, `~` and `!` on a vector.
    pub(super) fn vector_unary(&mut self, op: ast::UnOp, x: Expr, span: Span) -> Expr {
        let Type::Vector(s, n) = x.ty else { return err_expr(span) };
        match op {
            ast::UnOp::Plus => Expr { span, ..x },
            ast::UnOp::Neg => {
                Expr { kind: ExprKind::Unary(crate::hir::UnaryOp::Neg, Box::new(x)), ty: Type::Vector(s, n), span }
            }
            ast::UnOp::BitNot if s.is_float() => {
                self.err(
                    Diagnostic::error(codes::OPERATOR_TYPE, "`~` cannot be applied to a floating-point value").at(span),
                );
                err_expr(span)
            }
            ast::UnOp::BitNot => {
                Expr { kind: ExprKind::Unary(crate::hir::UnaryOp::BitNot, Box::new(x)), ty: Type::Vector(s, n), span }
            }
            _ => {
                let ty = Type::Vector(signed_of_size(s), n);
                Expr { kind: ExprKind::Unary(crate::hir::UnaryOp::LogNot, Box::new(x)), ty, span }
            }
        }
    }

    /// `&&` / `||` with a vector operand: lane-wise, both sides evaluated.
    pub(super) fn vector_logical(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
        let Some((t, l, r)) = self.vector_operands(op, l, r, span) else { return err_expr(span) };
        let Type::Vector(s, n) = t else { return err_expr(span) };
        let ty = Type::Vector(signed_of_size(s), n);
        let kind = if op == BinOp::LogAnd {
            ExprKind::LogAnd(Box::new(l), Box::new(r))
        } else {
            ExprKind::LogOr(Box::new(l), Box::new(r))
        };
        Expr { kind, ty, span }
    }

    /// `c ? a : b` where `c` is a vector: a lane-wise select by the sign bit of `c`.
    pub(super) fn vector_select(&mut self, c: Expr, a: Expr, b: Expr, span: Span) -> Expr {
        let Type::Vector(cs, n) = c.ty else { return err_expr(span) };
        if cs.is_float() {
            let msg = format!("the condition of a vector `?:` must be an integer vector, found `{}`", self.show(&c.ty));
            self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(c.span));
            return err_expr(span);
        }
        let elem = match (&a.ty, &b.ty) {
            (Type::Vector(x, _), Type::Vector(y, _)) if x == y => *x,
            (Type::Vector(x, _), Type::Scalar(_)) | (Type::Scalar(_), Type::Vector(x, _)) => *x,
            (Type::Scalar(x), Type::Scalar(y)) => usual_arithmetic(*x, *y),
            _ => {
                let msg =
                    format!("incompatible operand types `{}` and `{}` in `?:`", self.show(&a.ty), self.show(&b.ty));
                self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
                return err_expr(span);
            }
        };
        let ty = Type::Vector(elem, n);
        for side in [&a, &b] {
            if let Type::Vector(_, m) = side.ty
                && m != n
            {
                let msg = format!(
                    "the operands of a vector `?:` must have as many lanes as its condition (`{}` and `{}`)",
                    self.show(&c.ty),
                    self.show(&side.ty)
                );
                self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(side.span));
                return err_expr(span);
            }
        }
        if elem.bits() != cs.bits() {
            let msg = format!(
                "the condition `{}` of a vector `?:` must have lanes as wide as the result `{}`",
                self.show(&c.ty),
                self.show(&ty)
            );
            self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(c.span));
            return err_expr(span);
        }
        let a = if a.ty.is_vector() { a } else { self.splat(a, &ty) };
        let b = if b.ty.is_vector() { b } else { self.splat(b, &ty) };
        Expr { kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), ty, span }
    }

    /// `(T)x` where `T` is a vector type: a vector literal `(T)(a, b, ...)`, or a scalar splat.
    pub(super) fn vector_cast(&mut self, ty: &Type, operand: &ast::Expr, span: Span) -> Expr {
        let Type::Vector(elem, n) = *ty else { return err_expr(span) };
        let parts: Vec<&ast::Expr> = match &operand.kind {
            ast::ExprKind::Paren(inner) => match &inner.kind {
                ast::ExprKind::Comma(list) => list.iter().collect(),
                _ => vec![&**inner],
            },
            _ => vec![operand],
        };
        let is_literal = matches!(operand.kind, ast::ExprKind::Paren(_));
        let xs: Vec<Expr> = parts.iter().map(|p| self.rvalue(p)).collect();
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        if xs.len() == 1 {
            let x = xs.into_iter().next().unwrap_or_else(|| err_expr(span));
            return match &x.ty {
                Type::Scalar(s) => {
                    // A cast (not a one-element literal) of a `bool` to an integer vector sets
                    // every bit of a true lane, like the vector comparisons (§6.2.2).
                    let x = if *s == Scalar::Bool && !is_literal && elem.is_integer() {
                        let one = self.convert(x, &Type::Scalar(elem));
                        let at = one.span;
                        Expr { kind: ExprKind::Unary(UnaryOp::Neg, Box::new(one)), ty: Type::Scalar(elem), span: at }
                    } else {
                        x
                    };
                    let mut e = self.splat(x, ty);
                    e.span = span;
                    e
                }
                t if t == ty && is_literal => Expr { span, ..x },
                _ => {
                    let msg = format!("cannot cast `{}` to `{}`", self.show(&x.ty), self.show(ty));
                    self.err(
                        Diagnostic::error(codes::BAD_CAST, msg)
                            .at(span)
                            .with_note("vector types cannot be cast to each other in OpenCL C")
                            .with_help(format!(
                                "use `convert_{}{}()` to convert each lane, or `as_{}{}()` to reinterpret the bits",
                                elem.name(),
                                n,
                                elem.name(),
                                n
                            )),
                    );
                    err_expr(span)
                }
            };
        }
        let mut total = 0u32;
        let mut out = Vec::new();
        for x in xs {
            match &x.ty {
                Type::Scalar(_) => {
                    total += 1;
                    out.push(self.convert(x, &Type::Scalar(elem)));
                }
                Type::Vector(s, k) if *s == elem => {
                    total += u32::from(*k);
                    out.push(x);
                }
                _ => {
                    let msg = format!(
                        "a `{}` literal takes `{}` scalars and vectors, not `{}`",
                        self.show(ty),
                        elem.name(),
                        self.show(&x.ty)
                    );
                    self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(x.span));
                    return err_expr(span);
                }
            }
        }
        if total != u32::from(n) {
            let msg = format!("a `{}` literal needs {n} lanes, but its parts give {total}", self.show(ty));
            self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(span));
            return err_expr(span);
        }
        Expr { kind: ExprKind::VecLit(out), ty: ty.clone(), span }
    }

    /// `v.xyz`, `v.s01`, `v.lo`.
    pub(super) fn swizzle(&mut self, base: Expr, name: &str, name_span: Span, span: Span) -> Expr {
        let Type::Vector(s, n) = base.ty else { return err_expr(span) };
        match parse_swizzle(name, n, self.opts.std) {
            Ok(lanes) => {
                let ty = lanes_type(s, lanes.len());
                Expr { kind: ExprKind::Swizzle(Box::new(base), lanes), ty, span }
            }
            Err(why) => {
                let msg = format!("invalid swizzle `.{name}` on `{}`", self.show(&base.ty));
                self.err(Diagnostic::error(codes::BAD_SWIZZLE, msg).at(name_span).with_note(why));
                err_expr(span)
            }
        }
    }

    /// `convert_<T>`, `as_<T>`, `vloadN` and `vstoreN`; `None` when `name` is none of them.
    pub(super) fn vector_builtin(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if name == "shuffle" || name == "shuffle2" {
            return Some(self.shuffle(name, args, span));
        }
        if let Some(rest) = name.strip_prefix("convert_") {
            return self.convert_builtin(name, rest, args, span);
        }
        if let Some(rest) = name.strip_prefix("as_") {
            let to = value_type_name(rest)?;
            let x = self.one_arg(name, args, span)?;
            if x.ty.is_error() {
                return Some(err_expr(span));
            }
            let (Some(fs), Some(ts)) = (super::decl::size_align(self, &x.ty), super::decl::size_align(self, &to))
            else {
                let msg = format!("`{name}` reinterprets a scalar or vector, not `{}`", self.show(&x.ty));
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(span));
                return Some(err_expr(span));
            };
            if !matches!(x.ty, Type::Scalar(_) | Type::Vector(..)) || x.ty.element() == Some(Scalar::Bool) {
                let msg = format!("`{name}` reinterprets a scalar or vector, not `{}`", self.show(&x.ty));
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(span));
                return Some(err_expr(span));
            }
            if fs.0 != ts.0 {
                let msg =
                    format!("`{name}` needs an operand of {} bytes, but `{}` has {}", ts.0, self.show(&x.ty), fs.0);
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(span));
                return Some(err_expr(span));
            }
            return Some(Expr { kind: ExprKind::Bitcast(Box::new(x)), ty: to, span });
        }
        let (store, n) = if let Some(k) = name.strip_prefix("vload") {
            (false, k)
        } else if let Some(k) = name.strip_prefix("vstore") {
            (true, k)
        } else {
            return None;
        };
        let n = crate::types::vector_width(n)?;
        let want = if store { 3 } else { 2 };
        if args.len() != want {
            let msg = format!("`{name}` takes {want} arguments but {} were given", args.len());
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return Some(err_expr(span));
        }
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.iter().any(|x| x.ty.is_error()) {
            return Some(err_expr(span));
        }
        let (data, offset, ptr) = if store {
            let mut it = xs.into_iter();
            let (d, o, p) = (it.next()?, it.next()?, it.next()?);
            (Some(d), o, p)
        } else {
            let mut it = xs.into_iter();
            let (o, p) = (it.next()?, it.next()?);
            (None, o, p)
        };
        let Some(pt) = ptr.ty.pointee().cloned() else {
            let msg = format!("the last argument of `{name}` must be a pointer, found `{}`", self.show(&ptr.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(ptr.span));
            return Some(err_expr(span));
        };
        let Type::Scalar(elem) = pt.ty else {
            let msg = format!("`{name}` needs a pointer to a scalar type, found `{}`", self.show(&ptr.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(ptr.span));
            return Some(err_expr(span));
        };
        if elem == Scalar::Bool || elem == Scalar::F16 {
            let msg = format!("`{name}` does not take a pointer to `{}`", elem.name());
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(ptr.span));
            return Some(err_expr(span));
        }
        if !offset.ty.is_integer() {
            let msg = format!("the offset of `{name}` must be an integer, found `{}`", self.show(&offset.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(offset.span));
            return Some(err_expr(span));
        }
        let offset = self.convert(offset, &crate::types::SIZE_T);
        let vty = Type::Vector(elem, n);
        match data {
            None => Some(Expr { kind: ExprKind::VLoad(Box::new(offset), Box::new(ptr)), ty: vty, span }),
            Some(d) => {
                if d.ty != vty {
                    let msg = format!("`{name}` stores a `{}` here, not `{}`", self.show(&vty), self.show(&d.ty));
                    self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(d.span));
                    return Some(err_expr(span));
                }
                if pt.quals.is_const || pt.space == crate::ast::AddrSpace::Constant {
                    self.err(
                        Diagnostic::error(codes::CONSTANT_RULE, format!("`{name}` cannot write through this pointer"))
                            .at(ptr.span)
                            .with_note("it points to `const` or `__constant` memory"),
                    );
                    return Some(err_expr(span));
                }
                Some(Expr {
                    kind: ExprKind::VStore { data: Box::new(d), offset: Box::new(offset), ptr: Box::new(ptr) },
                    ty: Type::Void,
                    span,
                })
            }
        }
    }

    /// `shuffle(x, mask)` / `shuffle2(x, y, mask)` (§6.15.14): the result has the mask's lane
    /// count and `x`'s element type; `x` (and `y`, of the same type) has 2, 4, 8 or 16 lanes and
    /// the mask is an unsigned vector whose elements are as wide as `x`'s.
    fn shuffle(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        let want = if name == "shuffle" { 2 } else { 3 };
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.len() != want {
            let msg = format!("`{name}` takes {want} arguments but {} were given", xs.len());
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return err_expr(span);
        }
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        let mut xs = xs;
        let Some(mask) = xs.pop() else { return err_expr(span) };
        let Type::Vector(elem, _) = xs[0].ty else {
            let msg = format!("`{name}` shuffles a vector of 2, 4, 8 or 16 lanes, not `{}`", self.show(&xs[0].ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(xs[0].span));
            return err_expr(span);
        };
        for x in &xs {
            let ok = matches!(x.ty, Type::Vector(e, n) if e == elem && n != 3) && x.ty == xs[0].ty;
            if !ok {
                let msg = format!(
                    "`{name}` shuffles vectors of one type with 2, 4, 8 or 16 lanes, not `{}`",
                    self.show(&x.ty)
                );
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(x.span));
                return err_expr(span);
            }
        }
        let mask_ok = matches!(mask.ty, Type::Vector(m, n) if n != 3 && m.is_integer() && !m.is_signed() && m.size() == elem.size());
        let Type::Vector(_, out_lanes) = mask.ty else {
            return self.bad_mask(name, elem, &mask, span);
        };
        if !mask_ok {
            return self.bad_mask(name, elem, &mask, span);
        }
        Expr { kind: ExprKind::Shuffle(xs, Box::new(mask)), ty: Type::Vector(elem, out_lanes), span }
    }

    fn bad_mask(&mut self, name: &str, elem: Scalar, mask: &Expr, span: Span) -> Expr {
        let msg = format!(
            "the mask of `{name}` must be a vector of `{}` with 2, 4, 8 or 16 lanes, not `{}`",
            elem.to_unsigned().name(),
            self.show(&mask.ty)
        );
        self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(mask.span));
        err_expr(span)
    }

    fn one_arg(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if args.len() != 1 {
            for a in args {
                self.rvalue(a);
            }
            let msg = format!("`{name}` takes 1 argument but {} were given", args.len());
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return Some(err_expr(span));
        }
        let x = self.rvalue(&args[0]);
        if x.ty.is_error() { Some(err_expr(span)) } else { Some(x) }
    }

    fn convert_builtin(&mut self, name: &str, rest: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let mut rest = rest;
        let mut mode = None;
        for m in ["_rte", "_rtz", "_rtp", "_rtn"] {
            if let Some(r) = rest.strip_suffix(m) {
                rest = r;
                mode = Some(m);
                break;
            }
        }
        let (rest, sat) = match rest.strip_suffix("_sat") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let to = value_type_name(rest)?;
        let x = self.one_arg(name, args, span)?;
        if x.ty.is_error() {
            return Some(x);
        }
        let lanes = |t: &Type| match t {
            Type::Scalar(_) => Some(1u8),
            Type::Vector(_, n) => Some(*n),
            _ => None,
        };
        if lanes(&x.ty) != lanes(&to) || x.ty.element() == Some(Scalar::Bool) {
            let msg = format!(
                "`{name}` converts a value with as many lanes as `{}`, not `{}`",
                self.show(&to),
                self.show(&x.ty)
            );
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(span));
            return Some(err_expr(span));
        }
        let float = x.ty.element().is_some_and(Scalar::is_float) || to.element().is_some_and(Scalar::is_float);
        if sat && to.element().is_some_and(Scalar::is_float) {
            self.err(
                Diagnostic::error(
                    codes::BUILTIN_ARGS,
                    format!("`{name}` does not exist: `_sat` is only for integer destinations"),
                )
                .at(span)
                .with_note("OpenCL C saturates conversions to integer types only (§6.4.3.3)"),
            );
            return Some(err_expr(span));
        }
        if float {
            // kiln's float → integer conversions always saturate (NaN gives 0), so `_sat`
            // adds nothing; the rounding mode is what matters.
            let round = match mode {
                Some("_rte") => crate::hir::Rounding::NearestEven,
                Some("_rtp") => crate::hir::Rounding::Up,
                Some("_rtn") => crate::hir::Rounding::Down,
                Some(_) => crate::hir::Rounding::TowardZero,
                None if to.element().is_some_and(Scalar::is_float) => crate::hir::Rounding::NearestEven,
                None => crate::hir::Rounding::TowardZero,
            };
            return Some(Expr { kind: ExprKind::ConvertRound(Box::new(x), round), ty: to, span });
        }
        if sat {
            return Some(Expr { kind: ExprKind::ConvertSat(Box::new(x)), ty: to, span });
        }
        Some(Expr { kind: ExprKind::Convert(Box::new(x)), ty: to, span })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles_name_lanes() {
        assert_eq!(parse_swizzle("wzyx", 4, ClStd::Cl3_0), Ok(vec![3, 2, 1, 0]));
        assert_eq!(parse_swizzle("s0F", 16, ClStd::Cl3_0), Ok(vec![0, 15]));
        assert_eq!(parse_swizzle("hi", 3, ClStd::Cl3_0), Ok(vec![2, 3]), ".hi of a 3-vector reads the padding lane");
        assert_eq!(parse_swizzle("odd", 8, ClStd::Cl3_0), Ok(vec![1, 3, 5, 7]));
        assert_eq!(parse_swizzle("ba", 4, ClStd::Cl3_0), Ok(vec![2, 3]));
        assert_eq!(parse_swizzle("xw", 8, ClStd::Cl1_2), Ok(vec![0, 3]), "xyzw names the first lanes of wider vectors");
    }

    #[test]
    fn invalid_swizzles_say_why() {
        assert!(parse_swizzle("xr", 4, ClStd::Cl3_0).is_err(), "mixed sets");
        assert!(parse_swizzle("z", 2, ClStd::Cl3_0).is_err(), "lane out of range");
        assert!(parse_swizzle("rg", 4, ClStd::Cl1_2).is_err(), "rgba needs 3.0");
        assert!(parse_swizzle("xyzxy", 4, ClStd::Cl3_0).is_err(), "5 lanes is no vector width");
        assert!(parse_swizzle("s", 4, ClStd::Cl3_0).is_err());
        assert!(parse_swizzle("sg", 16, ClStd::Cl3_0).is_err());
    }
}
