//! Small builders of OpenCL C syntax for the elaborator's output.

use crate::ty::{Konst, Ty};
use kiln_diagnostics::Span;
use kiln_frontend::ast as c;
use kiln_hir::types::Scalar;

pub fn cx(kind: c::ExprKind, span: Span) -> c::Expr {
    c::Expr { kind, span }
}

pub fn ident(name: &str, span: Span) -> c::Expr {
    cx(c::ExprKind::Ident(name.into()), span)
}

pub fn paren(e: c::Expr) -> c::Expr {
    let span = e.span;
    match e.kind {
        c::ExprKind::Ident(_) | c::ExprKind::Int(_) | c::ExprKind::Float(_) | c::ExprKind::Paren(_) => e,
        _ => cx(c::ExprKind::Paren(Box::new(e)), span),
    }
}

pub fn member(base: c::Expr, field: &str, span: Span) -> c::Expr {
    cx(c::ExprKind::Member(Box::new(paren(base)), field.into(), span), span)
}

pub fn index(base: c::Expr, i: c::Expr, span: Span) -> c::Expr {
    cx(c::ExprKind::Index(Box::new(paren(base)), Box::new(i)), span)
}

pub fn assign(l: c::Expr, r: c::Expr, span: Span) -> c::Expr {
    cx(c::ExprKind::Assign(None, Box::new(l), Box::new(r)), span)
}

pub fn stmt_expr(e: c::Expr) -> c::BlockItem {
    let span = e.span;
    c::BlockItem::Stmt(c::Stmt { kind: c::StmtKind::Expr(Some(e)), span })
}

pub fn stmt(kind: c::StmtKind, span: Span) -> c::Stmt {
    c::Stmt { kind, span }
}

/// An integer literal of type `ty` (negative values as a negation).
pub fn int_lit(v: i128, ty: &Ty, span: Span) -> c::Expr {
    let s = match ty {
        Ty::Scalar(s) => *s,
        _ => Scalar::I32,
    };
    let (unsigned, long) = match s {
        Scalar::U32 | Scalar::U8 | Scalar::U16 => (true, false),
        Scalar::U64 => (true, true),
        Scalar::I64 => (false, true),
        _ => (false, false),
    };
    let mag = v.unsigned_abs();
    // `INT_MIN` and `LONG_MIN` are written as a subtraction (their magnitude does not fit).
    if v < 0 && ((!long && mag > i32::MAX as u128) || (long && mag > i64::MAX as u128)) {
        let one_less = int_lit(v + 1, ty, span);
        return paren(cx(
            c::ExprKind::Binary(c::BinOp::Sub, Box::new(one_less), Box::new(cx(c::ExprKind::Int("1".into()), span))),
            span,
        ));
    }
    let suffix = match (unsigned, long) {
        (true, true) => "UL",
        (true, false) => "U",
        (false, true) => "L",
        (false, false) => "",
    };
    let lit = cx(c::ExprKind::Int(format!("{mag}{suffix}").into()), span);
    let lit = if s == Scalar::Bool { ident(if v != 0 { "true" } else { "false" }, span) } else { lit };
    if v < 0 {
        paren(cx(c::ExprKind::Unary(c::UnOp::Neg, Box::new(lit)), span))
    } else if matches!(s, Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16) {
        lit
    } else {
        lit
    }
}

/// A float literal that reads back as exactly `f` in `s`.
pub fn float_lit(f: f64, s: Scalar, span: Span) -> c::Expr {
    if f.is_nan() {
        return cx(
            c::ExprKind::Call(
                Box::new(ident("__builtin_nanf", span)),
                vec![cx(c::ExprKind::Str(vec!["\"\"".into()]), span)],
            ),
            span,
        );
    }
    if f.is_infinite() {
        let inf = cx(c::ExprKind::Call(Box::new(ident("__builtin_inff", span)), vec![]), span);
        return if f < 0.0 { paren(cx(c::ExprKind::Unary(c::UnOp::Neg, Box::new(inf)), span)) } else { inf };
    }
    let text = if s == Scalar::F32 {
        let x = f as f32;
        let mut t = format!("{:?}", x.abs());
        if !t.contains(['.', 'e']) {
            t.push_str(".0");
        }
        format!("{t}f")
    } else {
        let mut t = format!("{:?}", f.abs());
        if !t.contains(['.', 'e']) {
            t.push_str(".0");
        }
        t
    };
    let lit = cx(c::ExprKind::Float(text.into()), span);
    if f.is_sign_negative() { paren(cx(c::ExprKind::Unary(c::UnOp::Neg, Box::new(lit)), span)) } else { lit }
}

/// A compile-time value written as a literal of `ty`.
pub fn konst_expr(k: &Konst, ty: &Ty, span: Span) -> Option<c::Expr> {
    match (k, ty) {
        (Konst::Int(v), Ty::Scalar(s)) if s.is_float() => Some(float_lit(*v as f64, *s, span)),
        (Konst::Int(v), t) => Some(int_lit(*v, t, span)),
        (Konst::Float(f), Ty::Scalar(s)) if s.is_float() => Some(float_lit(*f, *s, span)),
        (Konst::Float(f), t) => Some(int_lit(f.trunc() as i128, t, span)),
        (Konst::Aggregate(_), _) => None,
    }
}

/// Whether evaluating a C expression can change anything (assignments, increments and calls
/// of built-ins with effects).
pub fn has_effects(e: &c::Expr) -> bool {
    use c::ExprKind as K;
    match &e.kind {
        K::Ident(_) | K::Int(_) | K::Float(_) | K::Char(_) | K::Str(_) => false,
        K::Paren(x) | K::Cast(_, x) | K::Member(x, _, _) | K::Arrow(x, _, _) | K::SizeofExpr(x) | K::VecStepExpr(x) => {
            has_effects(x)
        }
        K::Unary(op, x) => {
            matches!(op, c::UnOp::PreInc | c::UnOp::PreDec | c::UnOp::PostInc | c::UnOp::PostDec) || has_effects(x)
        }
        K::Binary(_, a, b) | K::Index(a, b) | K::ReservedXor(a, b) => has_effects(a) || has_effects(b),
        K::Assign(..) => true,
        K::Cond(a, b, d) => has_effects(a) || has_effects(b) || has_effects(d),
        K::Comma(xs) => xs.iter().any(has_effects),
        K::Call(f, args) => {
            let pure = match &f.kind {
                K::Ident(n) => is_pure_builtin(n),
                _ => false,
            };
            !pure || args.iter().any(has_effects)
        }
        K::CompoundLiteral(..) => true,
        _ => false,
    }
}

fn is_pure_builtin(n: &str) -> bool {
    use kiln_hir::builtins::Family as F;
    matches!(
        kiln_hir::builtins::family(n),
        Some(
            F::Math
                | F::Integer
                | F::Common
                | F::Geometric
                | F::Relational
                | F::Conversion
                | F::WorkItem
                | F::MiscVector
        )
    ) || n.starts_with("__builtin_")
}
