//! Type checking of calls to the integer built-ins ([`IntBuiltin`]) on scalar and vector arguments.
//!
//! OpenCL C declares each of them as a set of overloads, one per integer type (`gentype`). A
//! call whose `gentype` arguments have one type takes that overload. Scalar arguments of
//! different types choose as clang's overload resolution over `opencl-c.h` does: an overload
//! wins when it needs no worse a conversion for every argument (exact match, then promotion of
//! a type narrower than `int` to `int`, then any other conversion) and a better one for some,
//! so `mul24(uchar, int)` and `mul24(short, short)` call `mul24(int, int)` and
//! `upsample(int, int)` calls `upsample(int, uint)`, while `min(uint, int)` and
//! `min(int, short)` match two overloads equally well (each argument's own type is an exact
//! match for one of them) and are ambiguous. Vector arguments have no implicit conversions:
//! their types must agree.

use super::Sema;
use crate::ast;
use crate::builtins::IntBuiltin;
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, ExprKind};
use crate::source::Span;
use crate::types::{Scalar, Type};

impl Sema<'_> {
    /// `None` when `name` is not an integer built-in kiln builds.
    pub(super) fn integer_builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        name_span: Span,
        span: Span,
    ) -> Option<Expr> {
        let is_int = IntBuiltin::from_name(name).is_some();
        let is_float = crate::builtins::FloatBuiltin::from_name(name).is_some()
            || crate::builtins::Geometric::from_name(name).is_some();
        if !is_int && !is_float {
            return None;
        }
        let hargs: Vec<Expr> = args.iter().map(|a| self.rvalue(a)).collect();
        if hargs.iter().any(|a| a.ty.is_error()) {
            return Some(Expr { kind: ExprKind::Int(0), ty: Type::Error, span });
        }
        if Self::is_float_call(name, &hargs) {
            return Some(self.float_builtin_call(name, hargs, name_span, span));
        }
        let b = IntBuiltin::from_name(name)?;
        if hargs.len() != b.arity() {
            self.wrong_arg_count(name, b.arity(), hargs.len(), span);
            return Some(Expr { kind: ExprKind::Int(0), ty: Type::Error, span });
        }
        let hargs = self.resolve_scalar_overload(b, hargs);
        match self.integer_builtin_type(b, name, &hargs, name_span) {
            Some(ty) => Some(Expr { kind: ExprKind::IntBuiltin(b, hargs), ty, span }),
            None => Some(Expr { kind: ExprKind::Int(0), ty: Type::Error, span }),
        }
    }

    /// Converts the `gentype` arguments of a call on scalars of different types to the type of
    /// the one overload that matches them best, when there is one (see the module comment).
    fn resolve_scalar_overload(&mut self, b: IntBuiltin, mut args: Vec<Expr>) -> Vec<Expr> {
        let plain_integer = |e: &Expr| match e.ty {
            Type::Scalar(s) if s.is_integer() && s != Scalar::Bool => Some(s),
            _ => None,
        };
        // The arguments the overloads differ in, and each overload's types for them.
        let (involved, candidates): (&[usize], Vec<Vec<Scalar>>) = match b {
            IntBuiltin::Upsample => (&[0, 1], UPSAMPLE_OVERLOADS.iter().map(|&(hi, lo)| vec![hi, lo]).collect()),
            IntBuiltin::Mul24 | IntBuiltin::Mad24 => {
                let same = gentype_args(b, args.len());
                (same, [Scalar::I32, Scalar::U32].iter().map(|&t| vec![t; same.len()]).collect())
            }
            _ => {
                let same = gentype_args(b, args.len());
                (same, INTEGER_OVERLOADS.iter().map(|&t| vec![t; same.len()]).collect())
            }
        };
        if involved.len() < 2 || involved.iter().any(|&i| i >= args.len()) {
            return args;
        }
        let Some(tys) = involved.iter().map(|&i| plain_integer(&args[i])).collect::<Option<Vec<Scalar>>>() else {
            return args;
        };
        if candidates.contains(&tys) {
            return args;
        }
        let cost = |from: Scalar, to: Scalar| -> u8 {
            if from == to {
                0
            } else if to == Scalar::I32 && from.rank() < Scalar::I32.rank() {
                1
            } else {
                2
            }
        };
        let costs = |c: &[Scalar]| -> Vec<u8> { tys.iter().zip(c).map(|(&t, &p)| cost(t, p)).collect() };
        let better = |c: &[Scalar], d: &[Scalar]| {
            let (x, y) = (costs(c), costs(d));
            x.iter().zip(&y).all(|(a, b)| a <= b) && x.iter().zip(&y).any(|(a, b)| a < b)
        };
        let best: Vec<&Vec<Scalar>> =
            candidates.iter().filter(|c| candidates.iter().all(|d| d == *c || better(c, d))).collect();
        if let [params] = best[..] {
            for (&i, &t) in involved.iter().zip(params) {
                let span = args[i].span;
                let a = std::mem::replace(&mut args[i], Expr { kind: ExprKind::Int(0), ty: Type::Error, span });
                args[i] = self.convert(a, &Type::Scalar(t));
            }
        }
        args
    }

    fn integer_builtin_type(&mut self, b: IntBuiltin, name: &str, args: &[Expr], at: Span) -> Option<Type> {
        let lane_type = |e: &Expr| match e.ty {
            Type::Scalar(s) | Type::Vector(s, _) if s.is_integer() && s != Scalar::Bool => Some(s),
            _ => None,
        };
        let lanes = |e: &Expr| match e.ty {
            Type::Vector(_, n) => n,
            _ => 1,
        };
        for a in args {
            if a.ty.element().is_some_and(Scalar::is_float) {
                let hint = match name {
                    "abs" => "; `fabs` is the float form",
                    "abs_diff" => "; `fdim` or `fabs(x - y)` are float forms",
                    _ => "",
                };
                self.err(
                    Diagnostic::error(
                        codes::BUILTIN_ARGS,
                        format!("`{name}` takes integer arguments, not `{}`{hint}", self.show(&a.ty)),
                    )
                    .at(a.span)
                    .with_label(at, "in this call"),
                );
                return None;
            }
            if lane_type(a).is_none() {
                let shown = self.show(&a.ty);
                self.err(
                    Diagnostic::error(codes::BUILTIN_ARGS, format!("`{name}` takes integer arguments, not `{shown}`"))
                        .at(a.span)
                        .with_label(at, "in this call"),
                );
                return None;
            }
        }
        let tys: Vec<Scalar> = args.iter().filter_map(lane_type).collect();
        let t = tys[0];
        let n = lanes(&args[0]);
        let same = gentype_args(b, args.len());
        let sgentype_ok = matches!(b, IntBuiltin::Min | IntBuiltin::Max | IntBuiltin::Clamp) && n > 1;
        let scalar_later = sgentype_ok && args[1..].iter().all(|a| lanes(a) == 1);
        let mismatch = same.iter().any(|&i| tys[i] != t || (lanes(&args[i]) != n && !(scalar_later && i > 0)));
        let lanes_mismatch = match b {
            IntBuiltin::Select | IntBuiltin::Upsample => args.iter().any(|a| lanes(a) != n),
            _ => false,
        };
        if mismatch || lanes_mismatch {
            self.err(
                self.no_overload(name, args, at)
                    .with_note(format!(
                        "`{name}` has one overload per integer type and vector width; its arguments must have one type"
                    ))
                    .with_help(match b {
                        IntBuiltin::Mul24 | IntBuiltin::Mad24 => {
                            format!("convert the arguments to `int` or `uint`, e.g. `{name}((int) ...)`")
                        }
                        _ => format!("convert the arguments to one type, e.g. `{name}(({t}) ...)`", t = t.name()),
                    }),
            );
            return None;
        }
        let shaped = |s: Scalar| if n > 1 { Type::Vector(s, n) } else { Type::Scalar(s) };
        let bad = |me: &mut Self, msg: String| {
            me.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(at));
            None
        };
        match b {
            IntBuiltin::Abs | IntBuiltin::AbsDiff => Some(shaped(t.to_unsigned())),
            IntBuiltin::Mad24 | IntBuiltin::Mul24 if t.bits() != 32 => {
                bad(self, format!("`{name}` takes `int` or `uint` arguments, not `{}`", t.name()))
            }
            IntBuiltin::Upsample => {
                let lo = tys[1];
                if t.bits() == 64 || lo != t.to_unsigned() {
                    return bad(
                        self,
                        format!(
                            "`upsample` takes a `char`, `short` or `int` (or unsigned) high part and the unsigned type of the same width as the low part, not `{}` and `{}`",
                            t.name(),
                            lo.name()
                        ),
                    );
                }
                let wide = match t {
                    Scalar::I8 => Scalar::I16,
                    Scalar::U8 => Scalar::U16,
                    Scalar::I16 => Scalar::I32,
                    Scalar::U16 => Scalar::U32,
                    Scalar::I32 => Scalar::I64,
                    _ => Scalar::U64,
                };
                Some(shaped(wide))
            }
            IntBuiltin::Select if tys[2].bits() != t.bits() => bad(
                self,
                format!(
                    "the condition of `select` must have as many bits as the other arguments (`{}` has {}, `{}` has {})",
                    tys[2].name(),
                    tys[2].bits(),
                    t.name(),
                    t.bits()
                ),
            ),
            IntBuiltin::Any | IntBuiltin::All if !t.is_signed() => {
                bad(self, format!("`{name}` takes a signed integer argument, not `{}`", t.name()))
            }
            IntBuiltin::Any | IntBuiltin::All => Some(Type::Scalar(Scalar::I32)),
            _ => Some(shaped(t)),
        }
    }
}

/// The (high, low) argument types of the overloads of `upsample`.
const UPSAMPLE_OVERLOADS: [(Scalar, Scalar); 6] = [
    (Scalar::I8, Scalar::U8),
    (Scalar::U8, Scalar::U8),
    (Scalar::I16, Scalar::U16),
    (Scalar::U16, Scalar::U16),
    (Scalar::I32, Scalar::U32),
    (Scalar::U32, Scalar::U32),
];

/// The integer types with an overload of every `gentype` built-in.
const INTEGER_OVERLOADS: [Scalar; 8] =
    [Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16, Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64];

/// The arguments of a call of `b` that share the `gentype`; `min`, `max` and `clamp` also take
/// a scalar (`sgentype`) for their later arguments when the first is a vector.
fn gentype_args(b: IntBuiltin, arity: usize) -> &'static [usize] {
    match b {
        IntBuiltin::Select => &[0, 1],
        IntBuiltin::Upsample => &[],
        _ => &[0, 1, 2][..arity.min(3)],
    }
}
