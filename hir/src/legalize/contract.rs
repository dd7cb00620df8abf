//! `contract`: under `-cl-mad-enable`, `-cl-fast-relaxed-math` or `#pragma OPENCL FP_CONTRACT
//! ON`, a float product added to or subtracted from another value becomes one fused
//! multiply-add (rounded once), as does `mad`:
//!
//! ```text
//! a * b + c  ->  fma(a, b, c)        c + a * b  ->  fma(a, b, c)
//! a * b - c  ->  fma(a, b, -c)       c - a * b  ->  fma(-a, b, c)
//! acc += a * b  ->  acc = fma(a, b, acc)          (acc a variable)
//! mad(a, b, c)  ->  fma(a, b, c)
//! ```
//!
//! The pass runs after `partial-sums`, so a contracted reduction is still split. It leaves kiln's
//! math library alone ([`crate::Program::library_start`]): its functions rely on every
//! operation rounding as written. Without the options it does nothing.

use crate::builtins::{FloatBuiltin, FloatOp};
use crate::types::{Scalar, Type};
use crate::{BinaryOp, Expr, ExprKind as K, Program, UnaryOp};

/// The `contract` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "contract",
    requires: &[crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, _| Ok(contract(prog)),
};

fn contract(prog: &Program) -> Program {
    let mut out = prog.clone();
    if !prog.float_mode.contract {
        return out;
    }
    let user = prog.library_start.unwrap_or(prog.functions.len());
    for f in out.functions.iter_mut().take(user) {
        if let Some(body) = &mut f.body {
            crate::walk::for_each_expr_mut(body, &mut fuse);
        }
    }
    out
}

fn is_float(t: &Type) -> bool {
    matches!(t, Type::Scalar(Scalar::F32))
}

/// The operands of `e` when it is a float product.
fn product(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        K::Binary(BinaryOp::Mul, a, b) if is_float(&e.ty) => Some((a, b)),
        _ => None,
    }
}

fn negated(e: Expr) -> Expr {
    let (ty, span) = (e.ty.clone(), e.span);
    Expr { kind: K::Unary(UnaryOp::Neg, Box::new(e)), ty, span }
}

fn fma(a: Expr, b: Expr, c: Expr, like: &Expr) -> Expr {
    Expr { kind: K::FloatBuiltin(FloatBuiltin::Op(FloatOp::Fma), vec![a, b, c]), ty: like.ty.clone(), span: like.span }
}

fn fuse(e: &mut Expr) {
    let fused = match &e.kind {
        K::FloatBuiltin(FloatBuiltin::Mad, args) if is_float(&e.ty) && args.len() == 3 => {
            Some(fma(args[0].clone(), args[1].clone(), args[2].clone(), e))
        }
        K::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), x, y) if is_float(&e.ty) => match (product(x), product(y)) {
            (Some((a, b)), _) => {
                let c = if *op == BinaryOp::Sub { negated((**y).clone()) } else { (**y).clone() };
                Some(fma(a.clone(), b.clone(), c, e))
            }
            (None, Some((a, b))) => {
                let a = if *op == BinaryOp::Sub { negated(a.clone()) } else { a.clone() };
                Some(fma(a, b.clone(), (**x).clone(), e))
            }
            (None, None) => None,
        },
        K::CompoundAssign { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs, op_ty }
            if is_float(op_ty) && is_float(&lhs.ty) && matches!(lhs.kind, K::Local(_)) =>
        {
            product(rhs).map(|(a, b)| {
                let a = if *op == BinaryOp::Sub { negated(a.clone()) } else { a.clone() };
                let sum = fma(a, b.clone(), (**lhs).clone(), rhs);
                Expr { kind: K::Assign(lhs.clone(), Box::new(sum)), ty: e.ty.clone(), span: e.span }
            })
        }
        _ => None,
    };
    if let Some(f) = fused {
        *e = f;
    }
}
