//! Pipes and channels: the pipe types, program-scope pipes and channels with their depth, and the
//! transfer built-ins of the three dialects, all lowered to one form ([`ExprKind::PipeRead`] and
//! [`ExprKind::PipeWrite`]):
//!
//! | dialect | blocking | non-blocking |
//! |---|---|---|
//! | OpenCL 2.0 pipe parameters | — | `read_pipe(p, &v)`, `write_pipe(p, &v)` (0 on success, -1 otherwise) |
//! | Xilinx program-scope `pipe` | `read_pipe_block(p, &v)`, `write_pipe_block(p, &v)` | `read_pipe`, `write_pipe` |
//! | Intel `channel` | `read_channel_intel(c)`, `write_channel_intel(c, v)` | `read_channel_nb_intel(c, &valid)`, `write_channel_nb_intel(c, v)` |
//!
//! The `_altera` spellings are the Intel ones. On pipe parameters, the queries
//! `get_pipe_num_packets`/`get_pipe_max_packets` become [`ExprKind::PipeQuery`], and the
//! work-item reservations (`reserve_read_pipe`, the four-argument `read_pipe`/`write_pipe`,
//! `commit_*_pipe`, `is_valid_reserve_id`, `CLK_NULL_RESERVE_ID`) their own nodes, which the
//! lowering rewrites into transfers; the work-group and sub-group reservations are reported
//! as not yet supported.

use super::Sema;
use super::expr::err_expr;
use crate::ast::{self, Access};
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, ExprKind, PipeRef};
use crate::source::Span;
use crate::types::{INT, Opaque, PipeAccess, Scalar, Type, UINT};

/// The most packets one reservation may hold: they live in registers of the kernel.
pub const MAX_RESERVED_PACKETS: u32 = 256;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Transfer {
    /// `read_channel_intel(c)`: the packet is the value.
    ReadValue,
    /// `read_channel_nb_intel(c, &valid)`.
    ReadValueValid,
    /// `read_pipe(p, &v)` and `read_pipe_block(p, &v)`.
    ReadInto,
    /// `write_channel_intel(c, v)` and `write_channel_nb_intel(c, v)`.
    WriteValue,
    /// `write_pipe(p, &v)` and `write_pipe_block(p, &v)`.
    WriteFrom,
}

/// The transfer built-ins: what each does, whether it blocks, and its argument count.
fn transfer(name: &str) -> Option<(Transfer, bool, usize)> {
    Some(match name {
        "read_channel_intel" | "read_channel_altera" => (Transfer::ReadValue, true, 1),
        "read_channel_nb_intel" | "read_channel_nb_altera" => (Transfer::ReadValueValid, false, 2),
        "write_channel_intel" | "write_channel_altera" => (Transfer::WriteValue, true, 2),
        "write_channel_nb_intel" | "write_channel_nb_altera" => (Transfer::WriteValue, false, 2),
        "read_pipe" => (Transfer::ReadInto, false, 2),
        "read_pipe_block" => (Transfer::ReadInto, true, 2),
        "write_pipe" => (Transfer::WriteFrom, false, 2),
        "write_pipe_block" => (Transfer::WriteFrom, true, 2),
        _ => return None,
    })
}

fn is_channel_builtin(name: &str) -> bool {
    name.contains("_channel_")
}

impl Sema<'_> {
    /// The type `pipe T` / `channel T` with the access its declaration gives. A pipe written
    /// without an access qualifier is `read_only` as a parameter and program-scope at file scope
    /// (the caller decides).
    pub(super) fn pipe_type(
        &mut self,
        inner: &ast::TypeName,
        channel: bool,
        access: Option<(Access, Span)>,
        span: Span,
    ) -> Type {
        let (packet, _, _) = self.type_name(inner);
        match &packet {
            Type::Error => return Type::Error,
            Type::Scalar(s) if *s != Scalar::F16 => {}
            Type::Vector(s, _) if *s != Scalar::F16 => {}
            Type::Record(_) => {}
            other => {
                let shown = self.show(other);
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, format!("a pipe cannot carry packets of type `{shown}`"))
                        .at(span)
                        .with_note("packets are scalars, vectors or structs of integers or floats (not `bool`, `half`, pointers or arrays)"),
                );
                return Type::Error;
            }
        }
        let access = match (channel, access) {
            (true, Some((_, at))) => {
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, "a channel has no access qualifier")
                        .at(at)
                        .with_note("each kernel that uses a channel reads it or writes it; the calls say which"),
                );
                return Type::Error;
            }
            (true, None) => PipeAccess::Program,
            (false, Some((Access::ReadWrite, at))) => {
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, "a pipe cannot be `read_write`")
                        .at(at)
                        .with_help("a kernel holds one end of a pipe: write `read_only` or `write_only`"),
                );
                return Type::Error;
            }
            (false, Some((Access::WriteOnly, _))) => PipeAccess::Write,
            (false, Some((Access::ReadOnly, _)) | None) => PipeAccess::Read,
        };
        Type::Pipe(Rc::new(packet), access)
    }

    /// Whether a program-scope declaration is a pipe or channel (or an array of them).
    pub(super) fn is_pipe_declaration(ty: &Type) -> bool {
        match ty {
            Type::Pipe(..) => true,
            Type::Array(inner, _) => Self::is_pipe_declaration(inner),
            _ => false,
        }
    }

    /// A program-scope pipe (Xilinx) or channel (Intel): a FIFO shared by the kernels that use
    /// its name, with the depth its attribute asks for.
    pub(super) fn program_scope_pipe(
        &mut self,
        name: &Rc<str>,
        span: Span,
        ty: Type,
        access_written: bool,
        attrs: &[&ast::Attribute],
        has_init: bool,
    ) {
        if access_written {
            self.err(
                Diagnostic::error(codes::PIPE_RULE, format!("program-scope pipe `{name}` has an access qualifier"))
                    .at(span)
                    .with_note("each kernel that uses it reads it or writes it; the calls say which"),
            );
        }
        if has_init {
            self.err(Diagnostic::error(codes::PIPE_RULE, format!("pipe `{name}` cannot have an initializer")).at(span));
        }
        let ty = program_access(&ty);
        if matches!(&ty, Type::Array(inner, _) if matches!(**inner, Type::Array(..))) {
            self.err(
                Diagnostic::error(
                    codes::UNSUPPORTED_PIPE,
                    format!("multi-dimensional array of channels `{name}` is not yet supported by kiln"),
                )
                .at(span),
            );
        }
        let mut depth = None;
        for a in attrs {
            if !matches!(&*a.name, "depth" | "xcl_reqd_pipe_depth") {
                continue;
            }
            let value = match a.args.as_slice() {
                [ast::AttrArg::Expr(e)] => self.const_u32(e).filter(|d| *d > 0),
                _ => None,
            };
            match value {
                Some(d) => depth = Some(d),
                None => self.err(
                    Diagnostic::error(codes::PIPE_RULE, format!("`{}` needs a positive integer constant", a.name))
                        .at(a.span),
                ),
            }
        }
        let id = crate::hir::GlobalId(self.prog.globals.len() as u32);
        self.prog.globals.push(crate::hir::Global {
            name: name.clone(),
            ty,
            space: ast::AddrSpace::Global,
            init: None,
            pipe_depth: depth,
            span,
        });
        self.bind(name, span, super::Sym::Global(id));
    }

    /// A call of a pipe or channel transfer built-in, or `None` if `name` is not one.
    pub(super) fn pipe_builtin(&mut self, name: &str, args: &[ast::Expr], callee: Span, span: Span) -> Option<Expr> {
        if let Some(e) = self.pipe_reservation_builtin(name, args, callee, span) {
            return Some(e);
        }
        let (what, blocking, arity) = transfer(name)?;
        if args.len() != arity {
            for a in args {
                self.rvalue(a);
            }
            self.wrong_arg_count(name, arity, args.len(), span);
            return Some(err_expr(span));
        }
        let Some((pipe, packet, access)) = self.pipe_operand(&args[0], name) else {
            for a in &args[1..] {
                self.rvalue(a);
            }
            return Some(err_expr(span));
        };
        if is_channel_builtin(name) && access != PipeAccess::Program {
            let msg = format!("`{name}` takes a channel, not a pipe parameter");
            self.err(Diagnostic::error(codes::PIPE_RULE, msg).at(args[0].span));
            return Some(err_expr(span));
        }
        let reading = matches!(what, Transfer::ReadValue | Transfer::ReadValueValid | Transfer::ReadInto);
        if (reading && access == PipeAccess::Write) || (!reading && access == PipeAccess::Read) {
            self.err(
                Diagnostic::error(
                    codes::PIPE_RULE,
                    format!(
                        "`{name}` {} a `{}` pipe",
                        if reading { "reads" } else { "writes" },
                        if reading { "write_only" } else { "read_only" }
                    ),
                )
                .at(args[0].span),
            );
            return Some(err_expr(span));
        }
        let packet_ty = (*packet).clone();
        let expr = match what {
            Transfer::ReadValue => {
                Expr { kind: ExprKind::PipeRead { pipe, blocking, dests: vec![], ok: None }, ty: packet_ty, span }
            }
            Transfer::ReadValueValid => {
                let valid = self.pointed_object(&args[1], &Type::Scalar(Scalar::Bool), name, true)?;
                let ok = Some(Box::new(valid));
                Expr { kind: ExprKind::PipeRead { pipe, blocking, dests: vec![], ok }, ty: packet_ty, span }
            }
            Transfer::ReadInto => {
                let dest = self.pointed_object(&args[1], &packet_ty, name, true)?;
                let read = ExprKind::PipeRead { pipe, blocking, dests: vec![dest], ok: None };
                status(read, blocking, span)
            }
            Transfer::WriteValue => {
                let v = self.rvalue(&args[1]);
                if v.ty.is_error() {
                    return Some(err_expr(span));
                }
                let v = self.assign_convert(v, &packet_ty, "packet");
                let write = ExprKind::PipeWrite { pipe, blocking, values: vec![v] };
                let ty = if blocking { Type::Void } else { Type::Scalar(Scalar::Bool) };
                Expr { kind: write, ty, span }
            }
            Transfer::WriteFrom => {
                let v = self.pointed_object(&args[1], &packet_ty, name, false)?;
                status(ExprKind::PipeWrite { pipe, blocking, values: vec![v] }, blocking, span)
            }
        };
        Some(expr)
    }

    /// The queries, the reservations and their reads, writes and commits, or `None` if `name`
    /// is none of them.
    fn pipe_reservation_builtin(&mut self, name: &str, args: &[ast::Expr], callee: Span, span: Span) -> Option<Expr> {
        let reserve_id = Type::Opaque(Opaque::ReserveId);
        if name.starts_with("work_group_") || name.starts_with("sub_group_") {
            if !(name.ends_with("_read_pipe") || name.ends_with("_write_pipe")) {
                return None;
            }
            self.err(
                Diagnostic::error(
                    codes::UNSUPPORTED_PIPE,
                    format!("work-group and sub-group pipe reservations (`{name}`) are not yet supported by kiln"),
                )
                .at(callee)
                .with_help("reserve per work-item with `reserve_read_pipe`/`reserve_write_pipe`"),
            );
            return Some(err_expr(span));
        }
        let arity = match name {
            "__builtin_null_reserve_id" => 0,
            "get_pipe_num_packets" | "get_pipe_max_packets" | "is_valid_reserve_id" => 1,
            "reserve_read_pipe" | "reserve_write_pipe" | "commit_read_pipe" | "commit_write_pipe" => 2,
            "read_pipe" | "write_pipe" if args.len() == 4 => 4,
            _ => return None,
        };
        if args.len() != arity {
            for a in args {
                self.rvalue(a);
            }
            self.wrong_arg_count(name, arity, args.len(), span);
            return Some(err_expr(span));
        }
        if name == "__builtin_null_reserve_id" {
            return Some(Expr::int(0, reserve_id, span));
        }
        if name == "is_valid_reserve_id" {
            let Some(rid) = self.reserve_id_operand(&args[0], name) else { return Some(err_expr(span)) };
            return Some(Expr { kind: ExprKind::Convert(Box::new(rid)), ty: Type::Scalar(Scalar::Bool), span });
        }
        let Some((pipe, packet, access)) = self.pipe_operand(&args[0], name) else {
            for a in &args[1..] {
                self.rvalue(a);
            }
            return Some(err_expr(span));
        };
        if !matches!(pipe, PipeRef::Param(_)) {
            for a in &args[1..] {
                self.rvalue(a);
            }
            self.err(
                Diagnostic::error(
                    codes::PIPE_RULE,
                    format!("`{name}` takes a pipe parameter, not a program-scope pipe or channel"),
                )
                .at(args[0].span),
            );
            return Some(err_expr(span));
        }
        let write = name.contains("write");
        if !name.starts_with("get_pipe_") && self.in_helper() {
            for a in &args[1..] {
                self.rvalue(a);
            }
            self.kernel_only(
                codes::UNSUPPORTED_PIPE,
                name,
                callee,
                "reserve, use and commit the reservation in the kernel",
            );
            return Some(err_expr(span));
        }
        if name.starts_with("get_pipe_") {
            let max = name == "get_pipe_max_packets";
            return Some(Expr { kind: ExprKind::PipeQuery { pipe, max }, ty: UINT, span });
        }
        if write != (access == PipeAccess::Write) {
            for a in &args[1..] {
                self.rvalue(a);
            }
            let (verb, wrong) = if write { ("writes", "read_only") } else { ("reads", "write_only") };
            self.err(Diagnostic::error(codes::PIPE_RULE, format!("`{name}` {verb} a `{wrong}` pipe")).at(args[0].span));
            return Some(err_expr(span));
        }
        match name {
            "reserve_read_pipe" | "reserve_write_pipe" => {
                let count = self.const_u32(&args[1]).filter(|n| (1..=MAX_RESERVED_PACKETS).contains(n));
                let Some(count) = count else {
                    self.err(
                        Diagnostic::error(
                            codes::UNSUPPORTED_PIPE,
                            format!("kiln reserves a constant number of packets, from 1 to {MAX_RESERVED_PACKETS}"),
                        )
                        .at(args[1].span)
                        .with_note("the reserved packets are held in registers of the kernel, sized at compile time"),
                    );
                    return Some(err_expr(span));
                };
                Some(Expr { kind: ExprKind::PipeReserve { pipe, write, count }, ty: reserve_id, span })
            }
            "commit_read_pipe" | "commit_write_pipe" => {
                let Some(rid) = self.reserve_id_operand(&args[1], name) else { return Some(err_expr(span)) };
                let rid = Box::new(rid);
                Some(Expr { kind: ExprKind::PipeCommit { pipe, write, rid }, ty: Type::Void, span })
            }
            _ => {
                let rid = self.reserve_id_operand(&args[1], name);
                let i = self.rvalue(&args[2]);
                let Some(rid) = rid.map(Box::new) else {
                    self.rvalue(&args[3]);
                    return Some(err_expr(span));
                };
                if i.ty.is_error() {
                    return Some(err_expr(span));
                }
                if !i.ty.is_integer() {
                    self.err(
                        Diagnostic::error(
                            codes::BUILTIN_ARGS,
                            format!("the packet index of `{name}` must be an integer"),
                        )
                        .at(i.span),
                    );
                    return Some(err_expr(span));
                }
                let index = Box::new(self.convert(i, &UINT));
                let Some(place) = self.pointed_object(&args[3], &packet, name, !write) else {
                    return Some(err_expr(span));
                };
                let place = Box::new(place);
                let kind = ExprKind::PipeReserved { pipe, write, rid, index, place };
                Some(Expr { kind, ty: INT, span })
            }
        }
    }

    /// The argument for a pipe parameter `want` of helper `callee`: a pipe parameter of the
    /// caller with the same packet type and access (helpers are inlined, so the helper's pipe
    /// is the caller's).
    pub(super) fn pipe_argument(&mut self, a: &ast::Expr, want: &Type, callee: &str, index: usize) -> Expr {
        let inner = match &a.kind {
            ast::ExprKind::Paren(x) => &**x,
            _ => a,
        };
        let found = match &inner.kind {
            ast::ExprKind::Ident(n) => match self.lookup(n).cloned() {
                Some(super::Sym::Local(id)) => self.local(id).map(|l| (id, l.ty.clone())),
                _ => None,
            },
            _ => None,
        };
        match found {
            Some((id, ty)) if ty == *want => Expr { kind: ExprKind::Local(id), ty, span: a.span },
            Some((_, Type::Error)) => err_expr(a.span),
            other => {
                let shown = match &other {
                    Some((_, ty)) => self.show(ty),
                    None => "not a pipe parameter".to_string(),
                };
                self.err(
                    Diagnostic::error(
                        codes::PIPE_RULE,
                        format!(
                            "argument {} of `{callee}` must be a pipe parameter of type `{}`",
                            index + 1,
                            self.show(want)
                        ),
                    )
                    .at(a.span)
                    .with_note(format!("this is `{shown}`")),
                );
                err_expr(a.span)
            }
        }
    }

    /// An argument that must be a `reserve_id_t`.
    fn reserve_id_operand(&mut self, e: &ast::Expr, call: &str) -> Option<Expr> {
        let x = self.rvalue(e);
        if x.ty.is_error() {
            return None;
        }
        if x.ty != Type::Opaque(Opaque::ReserveId) {
            self.err(
                Diagnostic::error(codes::BUILTIN_ARGS, format!("`{call}` needs a `reserve_id_t` here"))
                    .at(e.span)
                    .with_note(format!("this has type `{}`", self.show(&x.ty))),
            );
            return None;
        }
        Some(x)
    }

    /// The pipe a transfer names: a pipe parameter, a program-scope pipe or channel, or an
    /// element of an array of channels.
    fn pipe_operand(&mut self, e: &ast::Expr, call: &str) -> Option<(PipeRef, Rc<Type>, PipeAccess)> {
        let (base, index) = match &e.kind {
            ast::ExprKind::Index(b, i) => (&**b, Some(&**i)),
            ast::ExprKind::Paren(inner) => return self.pipe_operand(inner, call),
            _ => (e, None),
        };
        let found = match &base.kind {
            ast::ExprKind::Ident(n) => match self.lookup(n).cloned() {
                Some(super::Sym::Local(id)) => self.local(id).map(|l| (PipeRef::Param(id), l.ty.clone())),
                Some(super::Sym::Global(id)) => Some((PipeRef::Global(id, None), self.prog.global(id).ty.clone())),
                _ => None,
            },
            _ => None,
        };
        let Some((mut pipe, ty)) = found else {
            let x = self.expr(e);
            if !x.ty.is_error() {
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, format!("`{call}` needs a pipe or channel"))
                        .at(e.span)
                        .with_note(format!("this has type `{}`", self.show(&x.ty))),
                );
            }
            return None;
        };
        let (ty, index) = match (ty, index) {
            (Type::Error, _) => return None,
            (Type::Pipe(p, a), None) => (Type::Pipe(p, a), None),
            (Type::Array(inner, _), Some(i)) if matches!(*inner, Type::Pipe(..)) => {
                let i = self.rvalue(i);
                if i.ty.is_error() {
                    return None;
                }
                if !i.ty.is_integer() {
                    self.err(
                        Diagnostic::error(codes::PIPE_RULE, "a channel array index must be an integer").at(i.span),
                    );
                    return None;
                }
                ((*inner).clone(), Some(Box::new(self.convert(i, &INT))))
            }
            (other, _) => {
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, format!("`{call}` needs a pipe or channel"))
                        .at(e.span)
                        .with_note(format!("this has type `{}`", self.show(&other))),
                );
                return None;
            }
        };
        if let PipeRef::Global(_, slot) = &mut pipe {
            *slot = index;
        }
        match ty {
            Type::Pipe(p, a) => Some((pipe, p, a)),
            _ => None,
        }
    }

    /// The object a pointer argument of a transfer points to, as an l-value (`&v` gives `v`
    /// itself, so a variable passed by address stays a register).
    fn pointed_object(&mut self, arg: &ast::Expr, want: &Type, call: &str, written: bool) -> Option<Expr> {
        let p = self.rvalue(arg);
        if p.ty.is_error() {
            return None;
        }
        let pointee_ok = match &p.ty {
            Type::Pointer(to) => {
                &to.ty == want && (!written || (!to.quals.is_const && to.space != ast::AddrSpace::Constant))
            }
            _ => false,
        };
        if !pointee_ok {
            self.err(
                Diagnostic::error(
                    codes::BUILTIN_ARGS,
                    format!(
                        "`{call}` needs a {}pointer to `{}` here",
                        if written { "writable " } else { "" },
                        self.show(want)
                    ),
                )
                .at(arg.span)
                .with_note(format!("this has type `{}`", self.show(&p.ty))),
            );
            return None;
        }
        let span = p.span;
        Some(match p.kind {
            ExprKind::AddrOf(inner) => *inner,
            _ => Expr { kind: ExprKind::Deref(Box::new(p)), ty: want.clone(), span },
        })
    }
}

/// `read_pipe`/`write_pipe` give 0 on success and -1 otherwise; the `_block` forms nothing.
fn status(transfer: ExprKind, blocking: bool, span: Span) -> Expr {
    let t = Expr { kind: transfer, ty: if blocking { Type::Void } else { INT }, span };
    if blocking {
        return t;
    }
    let one = Expr::int(1, INT, span);
    Expr { kind: ExprKind::Binary(crate::hir::BinaryOp::Sub, Box::new(t), Box::new(one)), ty: INT, span }
}

/// A program-scope pipe type: its access is decided by each kernel's calls.
fn program_access(ty: &Type) -> Type {
    match ty {
        Type::Pipe(p, _) => Type::Pipe(p.clone(), PipeAccess::Program),
        Type::Array(inner, n) => Type::Array(Rc::new(program_access(inner)), *n),
        other => other.clone(),
    }
}
