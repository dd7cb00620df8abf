//! Constant expressions (C99 6.6): evaluated on the typed tree with OpenCL semantics (two's
//! complement wrap-around, shift counts masked to the operand width). Integer constant
//! expressions (array sizes, `case` labels, ...) are integers only; initializers of `__constant`
//! data may also compute `float` values, with the rounding the emulator uses (correctly rounded
//! `+ - * /`, int → float to nearest even, float → int toward zero and saturating, NaN → 0, and
//! one NaN encoding).

use crate::types::{Scalar, Type};
use crate::{BinaryOp, Expr, ExprKind, UnaryOp, normalize};
use kiln_diagnostics::Span;

/// Why an expression has no constant value.
pub enum Fail {
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

/// The value of `e` if it is an integer constant expression (normalized to its type), with no
/// diagnostics: for later stages that rewrite the typed program.
pub fn integer_value(e: &Expr) -> Option<u64> {
    eval(e).ok()
}

/// The value of integer constant expression `e`, normalized to its type.
pub fn eval(e: &Expr) -> Result<u64, Fail> {
    let int_ty = |t: &Type| t.scalar().filter(|s| s.is_integer()).ok_or(Fail::NotConstant);
    match &e.kind {
        ExprKind::Int(v) => {
            let s = int_ty(&e.ty)?;
            Ok(normalize(*v, s))
        }
        ExprKind::Convert(inner) if is_f32(&inner.ty) => {
            let to = int_ty(&e.ty)?;
            Ok(float_to_int(eval_float(inner)?, to))
        }
        ExprKind::Convert(inner) => {
            let to = int_ty(&e.ty)?;
            let v = eval(inner)?;
            int_ty(&inner.ty)?;
            Ok(normalize(v, to))
        }
        ExprKind::Binary(op, l, r) if is_f32(&l.ty) => {
            let (a, b) = (eval_float(l)?, eval_float(r)?);
            let holds = match op {
                BinaryOp::Lt => a < b,
                BinaryOp::Le => a <= b,
                BinaryOp::Gt => a > b,
                BinaryOp::Ge => a >= b,
                BinaryOp::Eq => a == b,
                BinaryOp::Ne => a != b,
                _ => return Err(Fail::NotConstant),
            };
            Ok(holds as u64)
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

pub fn is_f32(t: &Type) -> bool {
    t.scalar() == Some(Scalar::F32)
}

/// The canonical quiet NaN every kiln engine produces.
const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// The bits of `f` as every kiln engine stores them (one NaN).
pub fn float_bits(f: f32) -> u64 {
    u64::from(if f.is_nan() { CANONICAL_NAN } else { f.to_bits() })
}

/// `float` → integer type `to`: toward zero, saturating, NaN → 0 (Rust's `as` does exactly
/// this); `bool` is whether the value is non-zero.
pub fn float_to_int(f: f32, to: Scalar) -> u64 {
    if to == Scalar::Bool {
        return (f != 0.0) as u64;
    }
    let (lo, hi) = to.int_range();
    normalize((f as f64 as i128).clamp(lo, hi) as u64, to)
}

/// A literal node of scalar type `s` holding the constant `bits` (an integer normalized
/// to `s`, a `float` its IEEE bits).
pub fn constant_node(bits: u64, s: Scalar, span: Span) -> Expr {
    let ty = Type::Scalar(s);
    match s {
        Scalar::F32 => Expr { kind: ExprKind::Float(f64::from(f32::from_bits(bits as u32))), ty, span },
        _ => Expr::int(bits, ty, span),
    }
}

/// The value of `float` constant expression `e`.
pub fn eval_float(e: &Expr) -> Result<f32, Fail> {
    if !is_f32(&e.ty) {
        return Err(Fail::NotConstant);
    }
    match &e.kind {
        ExprKind::Float(x) => Ok(*x as f32),
        ExprKind::Convert(inner) => match inner.ty.scalar() {
            Some(Scalar::F32) => eval_float(inner),
            Some(s) if s.is_integer() => {
                let v = eval(inner)?;
                Ok(if s.is_signed() { v as i64 as f32 } else { v as f32 })
            }
            _ => Err(Fail::NotConstant),
        },
        ExprKind::Unary(UnaryOp::Neg, x) => Ok(-eval_float(x)?),
        ExprKind::Binary(op, l, r) => {
            let (a, b) = (eval_float(l)?, eval_float(r)?);
            match op {
                BinaryOp::Add => Ok(a + b),
                BinaryOp::Sub => Ok(a - b),
                BinaryOp::Mul => Ok(a * b),
                BinaryOp::Div => Ok(a / b),
                _ => Err(Fail::NotConstant),
            }
        }
        ExprKind::Cond(c, a, b) => {
            if eval(c)? != 0 {
                eval_float(a)
            } else {
                eval_float(b)
            }
        }
        _ => Err(Fail::NotConstant),
    }
}
