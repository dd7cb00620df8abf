//! Work-group collective functions (OpenCL C 2.0, and 3.0 with
//! `__opencl_c_work_group_collective_functions`): `work_group_all`, `work_group_any`,
//! `work_group_broadcast`, `work_group_reduce_<op>` and `work_group_scan_{inclusive,exclusive}_<op>`
//! for `op` in `add`, `min`, `max`, on `int`, `uint`, `long`, `ulong` and `float` — one form,
//! [`ExprKind::WorkGroup`], which the lowering builds out of `__local` memory and barriers
//! (`dataflow/src/lower/collectives.rs`).

use super::Sema;
use super::expr::err_expr;
use crate::ast;
use crate::diag::{Diagnostic, codes};
use crate::hir::{Collective, CollectiveOp, Expr, ExprKind};
use crate::options::ClStd;
use crate::source::Span;
use crate::types::{INT, SIZE_T, Scalar};

/// The collective a built-in name denotes.
fn collective(name: &str) -> Option<Collective> {
    let op = |s: &str| match s {
        "add" => Some(CollectiveOp::Add),
        "min" => Some(CollectiveOp::Min),
        "max" => Some(CollectiveOp::Max),
        _ => None,
    };
    let rest = name.strip_prefix("work_group_")?;
    Some(match rest {
        "all" => Collective::All,
        "any" => Collective::Any,
        "broadcast" => Collective::Broadcast,
        _ => {
            if let Some(o) = rest.strip_prefix("reduce_") {
                Collective::Reduce(op(o)?)
            } else if let Some(o) = rest.strip_prefix("scan_inclusive_") {
                Collective::ScanInclusive(op(o)?)
            } else if let Some(o) = rest.strip_prefix("scan_exclusive_") {
                Collective::ScanExclusive(op(o)?)
            } else {
                return None;
            }
        }
    })
}

impl Sema<'_> {
    /// A call of a work-group collective function, or `None` if `name` is not one.
    pub(super) fn collective_builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        callee: Span,
        span: Span,
    ) -> Option<Expr> {
        let which = collective(name)?;
        let hargs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if self.opts.std < ClStd::Cl2_0 {
            self.err(
                Diagnostic::error(codes::IMPLICIT_DECL, format!("call to undeclared function `{name}`"))
                    .at(callee)
                    .with_note("the work-group functions came with OpenCL C 2.0 (`-cl-std=CL2.0` or `CL3.0`)"),
            );
            return Some(err_expr(span));
        }
        if hargs.iter().any(|a| a.ty.is_error()) {
            return Some(err_expr(span));
        }
        let (min, max) = match which {
            Collective::Broadcast => (2, 4),
            _ => (1, 1),
        };
        if hargs.len() < min || hargs.len() > max {
            let msg = if min == max {
                format!("`{name}` takes {min} argument(s) but {} were given", hargs.len())
            } else {
                format!("`{name}` takes a value and 1 to 3 local ids, but {} argument(s) were given", hargs.len())
            };
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return Some(err_expr(span));
        }
        if self.in_helper() {
            self.kernel_only(
                codes::UNSUPPORTED_BUILTIN,
                name,
                callee,
                "call the work-group function in the kernel itself",
            );
            return Some(err_expr(span));
        }
        let mut it = hargs.into_iter();
        let Some(value) = it.next() else { return Some(err_expr(span)) };
        let value = match which {
            // The predicate is an `int`.
            Collective::All | Collective::Any => match value.ty.scalar() {
                Some(s) if !s.is_float() => self.convert(value, &INT),
                _ => return Some(self.collective_type_error(name, &value)),
            },
            _ => match value.ty.scalar() {
                // The overloads take int, uint, long, ulong and float: narrower integers
                // promote to `int`.
                Some(Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::F32) => value,
                Some(s) if s.is_integer() && s.rank() < Scalar::I32.rank() => self.convert(value, &INT),
                _ => return Some(self.collective_type_error(name, &value)),
            },
        };
        let mut all = vec![value];
        for id in it {
            if id.ty.scalar().is_none_or(|s| !s.is_integer()) {
                self.err(
                    Diagnostic::error(codes::BUILTIN_ARGS, format!("the local ids of `{name}` are integers"))
                        .at(id.span)
                        .with_note(format!("this has type `{}`", self.show(&id.ty))),
                );
                return Some(err_expr(span));
            }
            if id.has_side_effects() {
                self.err(
                    Diagnostic::error(
                        codes::UNSUPPORTED_BUILTIN,
                        format!("a local id of `{name}` with side effects is not yet supported by kiln"),
                    )
                    .at(id.span),
                );
                return Some(err_expr(span));
            }
            all.push(self.convert(id, &SIZE_T));
        }
        let ty = all[0].ty.clone();
        Some(Expr { kind: ExprKind::WorkGroup(which, all), ty, span })
    }

    fn collective_type_error(&mut self, name: &str, value: &Expr) -> Expr {
        self.err(
            Diagnostic::error(
                codes::BUILTIN_ARGS,
                format!("no overload of `{name}` takes an argument of type `{}`", self.show(&value.ty)),
            )
            .at(value.span)
            .with_note("the work-group functions take `int`, `uint`, `long`, `ulong` or `float` scalars"),
        );
        err_expr(value.span)
    }
}
