//! Type checking of the atomic built-in functions (OpenCL C 3.0 §6.15.11 and §6.15.12).
//!
//! Two families share one HIR form ([`ExprKind::Atomic`]):
//! - the OpenCL 1.x functions `atomic_add`, ..., `atomic_cmpxchg` on a `volatile __global` or
//!   `__local` pointer to `int`/`uint`, and their `atom_*` spellings, which also take
//!   `long`/`ulong` (`cl_khr_int64_base_atomics`, `cl_khr_int64_extended_atomics`);
//! - the C11-style functions of CL2.0+ (`atomic_fetch_add[_explicit]`, `atomic_load`,
//!   `atomic_compare_exchange_strong`, `atomic_flag_test_and_set`, ...) on pointers to atomic
//!   types, with optional memory-order and memory-scope arguments. kiln's hardware performs every
//!   atomic operation in program order, so each order and scope is honoured as `seq_cst`; the
//!   arguments are checked and evaluated, then dropped.

use super::Sema;
use super::expr::err_expr;
use crate::ast::{self, AddrSpace};
use crate::diag::{Diagnostic, codes};
use crate::hir::{AtomicArith, AtomicOp, Expr, ExprKind};
use crate::options::ClStd;
use crate::source::Span;
use crate::types::{BOOL, Scalar, Type};

/// The `memory_order_*` and `memory_scope_*` enumerators of CL2.0+, with clang's values.
pub(super) fn memory_enumerator(name: &str) -> Option<u64> {
    Some(match name {
        "memory_order_relaxed" => 0,
        "memory_order_acquire" => 2,
        "memory_order_release" => 3,
        "memory_order_acq_rel" => 4,
        "memory_order_seq_cst" => 5,
        "memory_scope_work_item" => 0,
        "memory_scope_work_group" => 1,
        "memory_scope_device" => 2,
        "memory_scope_all_svm_devices" | "memory_scope_all_devices" => 3,
        "memory_scope_sub_group" => 4,
        _ => return None,
    })
}

/// A legacy (OpenCL 1.x) atomic function: its operation and operand count after the pointer.
fn legacy_op(op: &str) -> Option<(AtomicOp, usize)> {
    Some(match op {
        "add" => (AtomicOp::Fetch(AtomicArith::Add), 1),
        "sub" => (AtomicOp::Fetch(AtomicArith::Sub), 1),
        "and" => (AtomicOp::Fetch(AtomicArith::And), 1),
        "or" => (AtomicOp::Fetch(AtomicArith::Or), 1),
        "xor" => (AtomicOp::Fetch(AtomicArith::Xor), 1),
        "min" => (AtomicOp::Fetch(AtomicArith::Min), 1),
        "max" => (AtomicOp::Fetch(AtomicArith::Max), 1),
        "xchg" => (AtomicOp::Exchange, 1),
        "inc" => (AtomicOp::Inc, 0),
        "dec" => (AtomicOp::Dec, 0),
        "cmpxchg" => (AtomicOp::CmpXchg, 2),
        _ => return None,
    })
}

/// A C11-style atomic function (without `_explicit`): its operation, operand count after the
/// pointer, and how many memory-order arguments its `_explicit` form takes.
fn c11_op(name: &str) -> Option<(AtomicOp, usize, usize)> {
    let fetch = |a| Some((AtomicOp::Fetch(a), 1, 1));
    match name {
        "atomic_init" => Some((AtomicOp::Store, 1, 0)),
        "atomic_store" => Some((AtomicOp::Store, 1, 1)),
        "atomic_load" => Some((AtomicOp::Load, 0, 1)),
        "atomic_exchange" => Some((AtomicOp::Exchange, 1, 1)),
        "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => Some((AtomicOp::CompareExchange, 2, 2)),
        "atomic_fetch_add" => fetch(AtomicArith::Add),
        "atomic_fetch_sub" => fetch(AtomicArith::Sub),
        "atomic_fetch_and" => fetch(AtomicArith::And),
        "atomic_fetch_or" => fetch(AtomicArith::Or),
        "atomic_fetch_xor" => fetch(AtomicArith::Xor),
        "atomic_fetch_min" => fetch(AtomicArith::Min),
        "atomic_fetch_max" => fetch(AtomicArith::Max),
        "atomic_flag_test_and_set" => Some((AtomicOp::TestAndSet, 0, 1)),
        // Clearing a flag is storing 0 (the operand is supplied here, not by the caller).
        "atomic_flag_clear" => Some((AtomicOp::Store, 0, 1)),
        _ => None,
    }
}

impl Sema<'_> {
    /// `None` when `name` is not an atomic function kiln builds.
    pub(super) fn atomic_builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        name_span: Span,
        span: Span,
    ) -> Option<Expr> {
        if let Some((legacy, op)) =
            name.strip_prefix("atomic_").map(|o| (true, o)).or_else(|| name.strip_prefix("atom_").map(|o| (false, o)))
            && let Some((op, operands)) = legacy_op(op)
        {
            return Some(self.legacy_atomic(name, legacy, op, operands, args, name_span, span));
        }
        let (base, explicit) = match name.strip_suffix("_explicit") {
            Some(b) => (b, true),
            None => (name, false),
        };
        let (op, operands, orders) = c11_op(base)?;
        if explicit && orders == 0 {
            return None;
        }
        if self.opts.std < ClStd::Cl2_0 {
            for a in args {
                self.rvalue(a);
            }
            self.err(
                Diagnostic::error(codes::IMPLICIT_DECL, format!("call to undeclared function `{name}`"))
                    .at(name_span)
                    .with_note("the C11-style atomic functions need `-cl-std=CL2.0` or later"),
            );
            return Some(err_expr(span));
        }
        Some(self.c11_atomic(name, base, op, operands, if explicit { orders } else { 0 }, args, name_span, span))
    }

    #[allow(clippy::too_many_arguments)]
    fn legacy_atomic(
        &mut self,
        name: &str,
        is_atomic_prefix: bool,
        op: AtomicOp,
        operands: usize,
        args: &[ast::Expr],
        name_span: Span,
        span: Span,
    ) -> Expr {
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        if xs.len() != operands + 1 {
            self.wrong_arg_count(name, operands + 1, xs.len(), span);
            return err_expr(span);
        }
        let mut xs = xs.into_iter();
        let Some(ptr) = xs.next() else { return err_expr(span) };
        let Some(pt) = ptr.ty.pointee().cloned() else {
            let msg = format!("the first argument of `{name}` must be a pointer, found `{}`", self.show(&ptr.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(ptr.span).with_label(name_span, "in this call"));
            return err_expr(span);
        };
        let elem = match pt.ty {
            // An exchange moves the bits: a `float` is as good as an `int`.
            Type::Scalar(Scalar::F32) if op == AtomicOp::Exchange => Scalar::F32,
            Type::Scalar(s @ (Scalar::I32 | Scalar::U32)) => s,
            Type::Scalar(s @ (Scalar::I64 | Scalar::U64)) if !is_atomic_prefix => s,
            _ => {
                let wanted = if is_atomic_prefix { "`int` or `uint`" } else { "`int`, `uint`, `long` or `ulong`" };
                let mut d = Diagnostic::error(
                    codes::BUILTIN_ARGS,
                    format!("`{name}` takes a pointer to {wanted}, not `{}`", self.show(&ptr.ty)),
                )
                .at(ptr.span)
                .with_label(name_span, "in this call");
                if is_atomic_prefix && matches!(pt.ty, Type::Scalar(Scalar::I64 | Scalar::U64)) {
                    d = d.with_help(format!("the 64-bit form is `atom_{}`", &name["atomic_".len()..]));
                }
                self.err(d);
                return err_expr(span);
            }
        };
        if !self.atomic_target_ok(name, &pt.space, pt.quals.is_const, &ptr, true) {
            return err_expr(span);
        }
        let mut operands_out = Vec::new();
        for x in xs {
            match self.atomic_operand(name, x, elem) {
                Some(x) => operands_out.push(x),
                None => return err_expr(span),
            }
        }
        Expr { kind: ExprKind::Atomic { op, ptr: Box::new(ptr), args: operands_out }, ty: Type::Scalar(elem), span }
    }

    #[allow(clippy::too_many_arguments)]
    fn c11_atomic(
        &mut self,
        name: &str,
        base: &str,
        op: AtomicOp,
        operands: usize,
        orders: usize,
        args: &[ast::Expr],
        name_span: Span,
        span: Span,
    ) -> Expr {
        let xs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if xs.iter().any(|x| x.ty.is_error()) {
            return err_expr(span);
        }
        let fixed = 1 + operands + orders;
        let counts_ok = if orders == 0 { xs.len() == fixed } else { xs.len() == fixed || xs.len() == fixed + 1 };
        if !counts_ok {
            let expected =
                if orders == 0 { format!("{fixed}") } else { format!("{fixed} or {} (with a scope)", fixed + 1) };
            let msg = format!("`{name}` takes {expected} arguments but {} were given", xs.len());
            self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
            return err_expr(span);
        }
        let mut xs = xs.into_iter();
        let Some(ptr) = xs.next() else { return err_expr(span) };
        let elem = match ptr.ty.pointee().map(|p| &p.ty) {
            Some(Type::Atomic(s))
                if s.is_float() && !matches!(op, AtomicOp::Load | AtomicOp::Store | AtomicOp::Exchange) =>
            {
                self.err(
                    Diagnostic::error(
                        codes::UNSUPPORTED_FLOAT,
                        format!("`{name}` on `{}` is not yet supported by kiln", self.show(&ptr.ty)),
                    )
                    .at(ptr.span),
                );
                return err_expr(span);
            }
            Some(Type::Atomic(s)) if !base.starts_with("atomic_flag") || *s == Scalar::I32 => *s,
            _ => {
                let wanted = if base.starts_with("atomic_flag") { "`atomic_flag`" } else { "an atomic type" };
                let msg = format!("`{name}` takes a pointer to {wanted}, not `{}`", self.show(&ptr.ty));
                self.err(
                    Diagnostic::error(codes::BUILTIN_ARGS, msg)
                        .at(ptr.span)
                        .with_label(name_span, "in this call")
                        .with_help(
                            "declare the object as `atomic_int`, `atomic_uint`, `atomic_long` or `atomic_ulong`",
                        ),
                );
                return err_expr(span);
            }
        };
        let Some(pt) = ptr.ty.pointee().cloned() else { return err_expr(span) };
        let writes = op != AtomicOp::Load;
        if !self.atomic_target_ok(name, &pt.space, pt.quals.is_const && writes, &ptr, false) {
            return err_expr(span);
        }
        let mut operands_out = Vec::new();
        if op == AtomicOp::CompareExchange {
            let Some(expected) = xs.next() else { return err_expr(span) };
            let ok = expected
                .ty
                .pointee()
                .is_some_and(|p| p.ty == Type::Scalar(elem) && !p.quals.is_const && p.space != AddrSpace::Constant);
            if !ok {
                let msg = format!(
                    "the `expected` argument of `{name}` must point to a modifiable `{}`, not be `{}`",
                    elem.name(),
                    self.show(&expected.ty)
                );
                self.err(
                    Diagnostic::error(codes::BUILTIN_ARGS, msg).at(expected.span).with_label(name_span, "in this call"),
                );
                return err_expr(span);
            }
            operands_out.push(expected);
        }
        for _ in operands_out.len()..operands {
            let Some(x) = xs.next() else { return err_expr(span) };
            match self.atomic_operand(name, x, elem) {
                Some(x) => operands_out.push(x),
                None => return err_expr(span),
            }
        }
        if base == "atomic_flag_clear" {
            operands_out.push(Expr::int(0, Type::Scalar(elem), span));
        }
        // Orders and scope: integers, evaluated for their effects only.
        let mut effects = Vec::new();
        for x in xs {
            if !x.ty.is_integer() {
                let msg =
                    format!("a memory order or scope of `{name}` must be an integer, found `{}`", self.show(&x.ty));
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(x.span));
                return err_expr(span);
            }
            if self.const_value(&x).is_none() {
                effects.push(x);
            }
        }
        let ty = match op {
            AtomicOp::Store => Type::Void,
            AtomicOp::CompareExchange | AtomicOp::TestAndSet => BOOL,
            _ => Type::Scalar(elem),
        };
        let e = Expr { kind: ExprKind::Atomic { op, ptr: Box::new(ptr), args: operands_out }, ty: ty.clone(), span };
        if effects.is_empty() {
            return e;
        }
        effects.push(e);
        Expr { kind: ExprKind::Comma(effects), ty, span }
    }

    /// The object an atomic function updates must be in memory it can write: `__global` or
    /// `__local` (or, for the C11 functions, any non-`__constant` space).
    fn atomic_target_ok(&mut self, name: &str, space: &AddrSpace, is_const: bool, ptr: &Expr, legacy: bool) -> bool {
        let bad_space = match space {
            AddrSpace::Constant => true,
            AddrSpace::Private => legacy,
            _ => false,
        };
        if bad_space || is_const {
            let what =
                if is_const { "a `const` object".to_string() } else { format!("`{}` memory", space_name(*space)) };
            let mut d = Diagnostic::error(codes::ATOMIC_RULE, format!("`{name}` cannot update {what}")).at(ptr.span);
            if legacy {
                d = d.with_note("the OpenCL 1.x atomic functions take a pointer to `__global` or `__local` memory");
            }
            self.err(d);
            return false;
        }
        true
    }

    /// An operand of an atomic function, converted to the object's scalar type.
    fn atomic_operand(&mut self, name: &str, x: Expr, elem: Scalar) -> Option<Expr> {
        let x = match x.ty {
            Type::Atomic(s) => Expr { ty: Type::Scalar(s), ..x },
            _ => x,
        };
        if !(x.ty.is_integer() || (elem.is_float() && x.ty.scalar().is_some_and(Scalar::is_float))) {
            let msg = format!("`{name}` takes `{}` operands, not `{}`", elem.name(), self.show(&x.ty));
            self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(x.span));
            return None;
        }
        Some(self.convert(x, &Type::Scalar(elem)))
    }
}

fn space_name(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Private => "__private",
        AddrSpace::Global => "__global",
        AddrSpace::Constant => "__constant",
        AddrSpace::Local => "__local",
        AddrSpace::Generic => "__generic",
    }
}

#[cfg(test)]
mod tests {
    use crate::options::{ClStd, Options};

    fn codes(src: &str, std: ClStd) -> Vec<String> {
        let opts = Options { std, ..Options::default() };
        crate::check_source("t.cl", src, &opts)
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.to_string())
            .collect()
    }

    #[test]
    fn c11_atomics_need_opencl_c_2_0() {
        let src = "kernel void k(global int *o) { o[0] = atomic_fetch_add((global int *)o, 1); }";
        assert_eq!(codes(src, ClStd::Cl1_2), vec!["E0308"], "undeclared in 1.2");
        let src = "kernel void k(global atomic_int *a, global int *o) { o[0] = atomic_fetch_add(a, 1); }";
        assert!(codes(src, ClStd::Cl2_0).is_empty());
        assert!(codes(src, ClStd::Cl3_0).is_empty());
    }

    #[test]
    fn legacy_atomics_take_32_bit_objects_and_atom_also_64_bit() {
        let ok = "kernel void k(global uint *u, global long *l) { atomic_max(u, 3u); atom_add(l, 1L); }";
        assert!(codes(ok, ClStd::Cl1_2).is_empty());
        let wide = "kernel void k(global long *l) { atomic_add(l, 1L); }";
        assert_eq!(codes(wide, ClStd::Cl1_2), vec!["E0330"]);
    }

    #[test]
    fn orders_and_scopes_are_the_enumerators_of_clang() {
        assert_eq!(super::memory_enumerator("memory_order_seq_cst"), Some(5));
        assert_eq!(super::memory_enumerator("memory_scope_device"), Some(2));
        let src = "kernel void k(global atomic_int *a, global int *o) {
            memory_order m = memory_order_acquire;
            o[0] = atomic_load_explicit(a, m, memory_scope_work_group); }";
        assert!(codes(src, ClStd::Cl3_0).is_empty());
    }

    #[test]
    fn reading_an_atomic_object_is_a_load_but_operators_are_errors() {
        let load = "kernel void k(global atomic_int *a, global int *o) { int x = *a; o[0] = x; }";
        assert!(codes(load, ClStd::Cl3_0).is_empty());
        let add = "kernel void k(global atomic_int *a, global int *o) { o[0] = *a + 1; }";
        assert!(!codes(add, ClStd::Cl3_0).is_empty());
    }
}
