//! `half` storage (OpenCL C without `cl_khr_fp16`): `vload_half[n]`, `vloada_half[n]`,
//! `vstore_half[n][_rte|_rtz|_rtp|_rtn]` and `vstorea_half[n][...]` on pointers to `half`,
//! written in terms of the typed program's existing forms: a load is `float` conversions of
//! `half` elements (`Convert` of a `Deref`, or of a `VLoad` for `n > 1`), a store an assignment
//! of `ConvertRound`s (or a `VStore`). These are the only places the typed program holds
//! `half` values; sema refuses them everywhere else (`Sema::refuse_half`).

use super::Sema;
use super::expr::err_expr;
use crate::ast::{self, AddrSpace};
use crate::diag::{Diagnostic, codes};
use crate::hir::{BinaryOp, Expr, ExprKind, Rounding};
use crate::source::Span;
use crate::types::{SIZE_T, Scalar, Type};

/// What a `half` storage built-in name denotes: (store, aligned, lanes, rounding).
fn half_builtin(name: &str) -> Option<(bool, bool, u8, Option<Rounding>)> {
    let (store, aligned, rest) = if let Some(r) = name.strip_prefix("vloada_half") {
        (false, true, r)
    } else if let Some(r) = name.strip_prefix("vload_half") {
        (false, false, r)
    } else if let Some(r) = name.strip_prefix("vstorea_half") {
        (true, true, r)
    } else if let Some(r) = name.strip_prefix("vstore_half") {
        (true, false, r)
    } else {
        return None;
    };
    let (digits, round) = match rest.find('_') {
        Some(at) if store => (&rest[..at], Some(&rest[at..])),
        Some(_) => return None,
        None => (rest, None),
    };
    let lanes = if digits.is_empty() { 1 } else { crate::types::vector_width(digits)? };
    let rounding = match round {
        None | Some("_rte") => Some(Rounding::NearestEven),
        Some("_rtz") => Some(Rounding::TowardZero),
        Some("_rtp") => Some(Rounding::Up),
        Some("_rtn") => Some(Rounding::Down),
        Some(_) => return None,
    };
    // `vloada_half` and `vstorea_half` come with a lane count.
    if aligned && digits.is_empty() {
        return None;
    }
    Some((store, aligned, lanes, if store { rounding } else { None }))
}

impl Sema<'_> {
    /// A call of a `half` storage built-in, or `None` if `name` is not one.
    pub(super) fn half_storage_builtin(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let (store, aligned, n, rounding) = half_builtin(name)?;
        let want = if store { 3 } else { 2 };
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.len() != want {
            self.wrong_arg_count(name, want, xs.len(), span);
            return Some(err_expr(span));
        }
        if xs.iter().any(|x| x.ty.is_error()) {
            return Some(err_expr(span));
        }
        let mut it = xs.into_iter();
        let data = if store { it.next() } else { None };
        let (Some(offset), Some(ptr)) = (it.next(), it.next()) else { return Some(err_expr(span)) };
        let pointee = match ptr.ty.pointee() {
            Some(p) if p.ty == Type::Scalar(Scalar::F16) => p.clone(),
            _ => {
                let msg = format!("`{name}` needs a pointer to `half`, found `{}`", self.show(&ptr.ty));
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(ptr.span));
                return Some(err_expr(span));
            }
        };
        if !offset.ty.is_integer() {
            let msg = format!("the offset of `{name}` must be an integer, found `{}`", self.show(&offset.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(offset.span));
            return Some(err_expr(span));
        }
        let float = if n == 1 { Type::Scalar(Scalar::F32) } else { Type::Vector(Scalar::F32, n) };
        let half = if n == 1 { Type::Scalar(Scalar::F16) } else { Type::Vector(Scalar::F16, n) };
        // The first element: `p + offset * stride` (a 3-vector's aligned stride is 4).
        let stride = if aligned && n == 3 { 4 } else { u64::from(n) };
        let offset = self.convert(offset, &SIZE_T);
        let scaled = if stride == 1 {
            offset
        } else {
            let s = offset.span;
            Expr {
                kind: ExprKind::Binary(BinaryOp::Mul, Box::new(offset), Box::new(Expr::int(stride, SIZE_T, s))),
                ty: SIZE_T,
                span: s,
            }
        };
        let ptr_ty = ptr.ty.clone();
        let first = Expr { kind: ExprKind::PtrAdd(Box::new(ptr), Box::new(scaled)), ty: ptr_ty, span };
        let element = Expr { kind: ExprKind::Deref(Box::new(first.clone())), ty: Type::Scalar(Scalar::F16), span };
        let whole = |at: Expr| -> ExprKind {
            // `VLoad`/`VStore` address `offset * n` lanes from the pointer: offset 0 here.
            ExprKind::VLoad(Box::new(Expr::int(0, SIZE_T, span)), Box::new(at))
        };
        let Some(data) = data else {
            let halves = if n == 1 { element } else { Expr { kind: whole(first), ty: half, span } };
            return Some(Expr { kind: ExprKind::Convert(Box::new(halves)), ty: float, span });
        };
        if pointee.quals.is_const || pointee.space == AddrSpace::Constant {
            self.err(
                Diagnostic::error(codes::CONSTANT_RULE, format!("`{name}` cannot write through this pointer"))
                    .at(first.span)
                    .with_note("it points to `const` or `__constant` memory"),
            );
            return Some(err_expr(span));
        }
        let data = if data.ty == float || (n == 1 && data.ty.scalar().is_some_and(|s| !s.is_float())) {
            self.assign_convert(data, &float, "the value")
        } else {
            let msg = format!("`{name}` stores a `{}`, not `{}`", self.show(&float), self.show(&data.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(data.span));
            return Some(err_expr(span));
        };
        let r = rounding.unwrap_or(Rounding::NearestEven);
        let halves = Expr { kind: ExprKind::ConvertRound(Box::new(data), r), ty: half, span };
        Some(if n == 1 {
            Expr { kind: ExprKind::Assign(Box::new(element), Box::new(halves)), ty: Type::Void, span }
        } else {
            Expr {
                kind: ExprKind::VStore {
                    data: Box::new(halves),
                    offset: Box::new(Expr::int(0, SIZE_T, span)),
                    ptr: Box::new(first),
                },
                ty: Type::Void,
                span,
            }
        })
    }
}
