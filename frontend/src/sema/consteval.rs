//! Sema's constant evaluation: the evaluator itself is the HIR's ([`kiln_hir::consteval`]);
//! this part reports what it finds (division by zero) as diagnostics.

use super::Sema;
use crate::diag::{Diagnostic, codes};
use kiln_hir::Expr;
use kiln_hir::consteval::{Fail, eval, eval_float, float_bits, float_to_int, is_f32};
use kiln_hir::normalize;
use kiln_hir::types::Scalar;

pub(super) use kiln_hir::consteval::constant_node;
pub use kiln_hir::consteval::integer_value;

impl Sema<'_> {
    /// The bits of a constant scalar of any arithmetic type, in that type: an integer
    /// normalized as [`Sema::const_value`] does, a `float` its IEEE bits. `None` if not constant.
    pub(super) fn const_bits(&mut self, e: &Expr) -> Option<u64> {
        if is_f32(&e.ty) {
            return eval_float(e).ok().map(float_bits);
        }
        self.const_value(e)
    }

    /// The constant `e` as an expression of its type: an `Int` or a `Float` literal node.
    pub(super) fn const_expr(&mut self, e: &Expr) -> Option<Expr> {
        let bits = self.const_bits(e)?;
        Some(constant_node(bits, e.ty.scalar()?, e.span))
    }

    /// Converts the constant bits `v` of scalar type `from` to scalar type `to`, as a
    /// conversion of the two would at run time.
    pub(super) fn convert_const_bits(v: u64, from: Scalar, to: Scalar) -> u64 {
        match (from.is_float(), to.is_float()) {
            (false, false) => normalize(v, to),
            (false, true) => float_bits(if from.is_signed() { v as i64 as f32 } else { v as f32 }),
            (true, false) => float_to_int(f32::from_bits(v as u32), to),
            (true, true) => v,
        }
    }

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
