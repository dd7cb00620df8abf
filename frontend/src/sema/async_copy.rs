//! Asynchronous work-group copies: `async_work_group_copy(dst, src, n, event)`,
//! `async_work_group_strided_copy(dst, src, n, stride, event)` between `__local` and `__global`
//! memory, and `wait_group_events(n, events)`. A copy is [`ExprKind::AsyncCopy`], which the
//! lowering builds as a loop run by the work-group's first work-item
//! (`dataflow/src/lower/collectives.rs`); waiting is a work-group barrier, after which the
//! copied data is visible to every work-item, as the specification requires. An `event_t` is
//! an `int` in the typed program.

use super::Sema;
use super::expr::err_expr;
use crate::ast::{self, AddrSpace};
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, ExprKind};
use crate::source::Span;
use crate::types::{Opaque, SIZE_T, Type};

impl Sema<'_> {
    /// A call of an async copy function or `wait_group_events`, or `None` if `name` is none.
    pub(super) fn async_copy_builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        callee: Span,
        span: Span,
    ) -> Option<Expr> {
        let strided = match name {
            "async_work_group_copy" => false,
            "async_work_group_strided_copy" => true,
            "wait_group_events" => return Some(self.wait_group_events(args, span)),
            _ => return None,
        };
        let arity = if strided { 5 } else { 4 };
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.len() != arity {
            self.wrong_arg_count(name, arity, xs.len(), span);
            return Some(err_expr(span));
        }
        if xs.iter().any(|x| x.ty.is_error()) {
            return Some(err_expr(span));
        }
        if self.in_helper() {
            self.kernel_only(codes::UNSUPPORTED_BUILTIN, name, callee, "start the copy in the kernel itself");
            return Some(err_expr(span));
        }
        let mut it = xs.into_iter();
        let (Some(dst), Some(src), Some(count)) = (it.next(), it.next(), it.next()) else {
            return Some(err_expr(span));
        };
        let stride = if strided { it.next() } else { None };
        let Some(event) = it.next() else { return Some(err_expr(span)) };
        let spaces = match (dst.ty.pointee(), src.ty.pointee()) {
            (Some(d), Some(s)) if d.ty == s.ty && !d.quals.is_const => Some((d.space, s.space)),
            _ => None,
        };
        let ok =
            matches!(spaces, Some((AddrSpace::Local, AddrSpace::Global)) | Some((AddrSpace::Global, AddrSpace::Local)));
        if !ok {
            self.err(
                Diagnostic::error(
                    codes::BUILTIN_ARGS,
                    format!(
                        "`{name}` copies between `__local` and `__global` memory of one element type, not from `{}` to `{}`",
                        self.show(&src.ty),
                        self.show(&dst.ty)
                    ),
                )
                .at(span),
            );
            return Some(err_expr(span));
        }
        for n in std::iter::once(&count).chain(stride.as_ref()) {
            if !n.ty.is_integer() {
                let msg = format!("the element count and stride of `{name}` are integers, not `{}`", self.show(&n.ty));
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(n.span));
                return Some(err_expr(span));
            }
        }
        let event_ok = event.ty == Type::Opaque(Opaque::Event) || event.as_int() == Some(0);
        if !event_ok {
            let msg = format!("the last argument of `{name}` is an `event_t`, not `{}`", self.show(&event.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(event.span));
            return Some(err_expr(span));
        }
        if [&dst, &src, &count].into_iter().chain(stride.as_ref()).any(|x| x.has_side_effects()) {
            self.err(
                Diagnostic::error(
                    codes::UNSUPPORTED_BUILTIN,
                    format!("`{name}` with arguments that have side effects is not yet supported by kiln"),
                )
                .at(span),
            );
            return Some(err_expr(span));
        }
        let count = Box::new(self.convert(count, &SIZE_T));
        let stride = stride.map(|s| Box::new(self.convert(s, &SIZE_T)));
        Some(Expr {
            kind: ExprKind::AsyncCopy { dst: Box::new(dst), src: Box::new(src), count, stride },
            ty: Type::Opaque(Opaque::Event),
            span,
        })
    }

    /// `wait_group_events(n, events)`: a barrier of the work-group.
    fn wait_group_events(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.len() != 2 {
            self.wrong_arg_count("wait_group_events", 2, xs.len(), span);
            return err_expr(span);
        }
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        let list_ok = matches!(xs[1].ty.pointee(), Some(p) if p.ty == Type::Opaque(Opaque::Event));
        if !xs[0].ty.is_integer() || !list_ok {
            self.err(
                Diagnostic::error(codes::BUILTIN_ARGS, "`wait_group_events` takes a count and a pointer to `event_t`s")
                    .at(span),
            );
            return err_expr(span);
        }
        Expr { kind: ExprKind::Barrier, ty: Type::Void, span }
    }
}
