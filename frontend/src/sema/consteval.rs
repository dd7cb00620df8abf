//! Integer constant expressions (C99 6.6): evaluated on the typed tree with OpenCL semantics
//! (two's complement wrap-around, shift counts masked to the operand width).

use super::Sema;
use crate::diag::{Diagnostic, codes};
use crate::hir::{BinaryOp, Expr, ExprKind, UnaryOp, normalize};
use crate::source::Span;
use crate::types::{Scalar, Type};

enum Fail {
    NotConstant,
    DivZero(Span),
}

/// Evaluates `op` on two values of scalar integer type `s` (already normalized to `s`).
/// Division by zero yields `None`.
pub fn fold_binary(op: BinaryOp, a: u64, b: u64, s: Scalar) -> Option<u64> {
    let bits = s.bits();
    let signed = s.is_signed();
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let (ua, ub) = (a & mask, b & mask);
    let (sa, sb) = (a as i64, b as i64);
    let r = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div => {
            if ub == 0 {
                return None;
            }
            if signed { sa.wrapping_div(sb) as u64 } else { ua / ub }
        }
        BinaryOp::Rem => {
            if ub == 0 {
                return None;
            }
            if signed { sa.wrapping_rem(sb) as u64 } else { ua % ub }
        }
        BinaryOp::Shl => a.wrapping_shl((b % bits as u64) as u32),
        BinaryOp::Shr => {
            let c = (b % bits as u64) as u32;
            if signed { sa.wrapping_shr(c) as u64 } else { ua.wrapping_shr(c) }
        }
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Lt => return Some(if signed { sa < sb } else { ua < ub } as u64),
        BinaryOp::Le => return Some(if signed { sa <= sb } else { ua <= ub } as u64),
        BinaryOp::Gt => return Some(if signed { sa > sb } else { ua > ub } as u64),
        BinaryOp::Ge => return Some(if signed { sa >= sb } else { ua >= ub } as u64),
        BinaryOp::Eq => return Some((ua == ub) as u64),
        BinaryOp::Ne => return Some((ua != ub) as u64),
    };
    Some(normalize(r, s))
}

fn eval(e: &Expr) -> Result<u64, Fail> {
    let int_ty = |t: &Type| t.scalar().filter(|s| s.is_integer()).ok_or(Fail::NotConstant);
    match &e.kind {
        ExprKind::Int(v) => {
            let s = int_ty(&e.ty)?;
            Ok(normalize(*v, s))
        }
        ExprKind::Convert(inner) => {
            let to = int_ty(&e.ty)?;
            let v = eval(inner)?;
            int_ty(&inner.ty)?;
            Ok(normalize(v, to))
        }
        ExprKind::Unary(op, x) => {
            let v = eval(x)?;
            match op {
                UnaryOp::LogNot => Ok((v == 0) as u64),
                UnaryOp::Neg => Ok(normalize(v.wrapping_neg(), int_ty(&e.ty)?)),
                UnaryOp::BitNot => Ok(normalize(!v, int_ty(&e.ty)?)),
            }
        }
        ExprKind::Binary(op, l, r) => {
            let (a, b) = (eval(l)?, eval(r)?);
            let s = int_ty(&l.ty)?;
            fold_binary(*op, a, b, s).ok_or(Fail::DivZero(e.span))
        }
        ExprKind::LogAnd(l, r) => {
            if eval(l)? == 0 {
                return Ok(0);
            }
            Ok((eval(r)? != 0) as u64)
        }
        ExprKind::LogOr(l, r) => {
            if eval(l)? != 0 {
                return Ok(1);
            }
            Ok((eval(r)? != 0) as u64)
        }
        ExprKind::Cond(c, a, b) => {
            if eval(c)? != 0 {
                eval(a)
            } else {
                eval(b)
            }
        }
        _ => Err(Fail::NotConstant),
    }
}

impl Sema<'_> {
    /// The value of an integer constant expression, normalized to its type (sign-extended to
    /// 64 bits for signed types). Reports division by zero; returns `None` if not constant.
    pub(super) fn const_value(&mut self, e: &Expr) -> Option<u64> {
        match eval(e) {
            Ok(v) => Some(v),
            Err(Fail::NotConstant) => None,
            Err(Fail::DivZero(span)) => {
                self.err(
                    Diagnostic::error(codes::CONST_DIV_ZERO, "division by zero in a constant expression").at(span),
                );
                self.const_error_reported = true;
                None
            }
        }
    }
}
