//! Type checking of calls to the math, common, relational ([`FloatBuiltin`]) and geometric
//! ([`Geometric`]) built-ins on `float` arguments.
//!
//! OpenCL C declares them per `gentype` (`float`, `float2` ... `float16`); a call is accepted
//! when its `gentype` arguments share one type. Where the specification also declares a form
//! with a scalar `float` (`fmin(float4, float)`, `clamp(float4, float, float)`, `mix`, `step`,
//! `smoothstep`, `ldexp(float4, int)`), that scalar applies to every lane.

use super::Sema;
use super::expr::err_expr;
use crate::ast;
use crate::builtins::{FloatBuiltin, FloatShape, Geometric};
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, ExprKind};
use crate::source::Span;
use crate::types::{Scalar, Type};

fn lanes(t: &Type) -> u8 {
    match t {
        Type::Vector(_, n) => *n,
        _ => 1,
    }
}

fn shaped(s: Scalar, n: u8) -> Type {
    if n > 1 { Type::Vector(s, n) } else { Type::Scalar(s) }
}

/// The signed integer of `float`'s size, for relational results and `ilogb`.
fn int_lanes(n: u8) -> Type {
    shaped(Scalar::I32, n)
}

impl Sema<'_> {
    /// Whether a call of `name` with these (checked) arguments is a float built-in call: the
    /// name is one, and for names integers share (`min`, `clamp`, `select`, ...) an argument
    /// is a float.
    pub(super) fn is_float_call(name: &str, args: &[Expr]) -> bool {
        let any_float = args.iter().any(|a| a.ty.element().is_some_and(Scalar::is_float));
        let shared = crate::builtins::IntBuiltin::from_name(name).is_some();
        (FloatBuiltin::from_name(name).is_some() && (!shared || any_float)) || Geometric::from_name(name).is_some()
    }

    pub(super) fn float_builtin_call(&mut self, name: &str, args: Vec<Expr>, at: Span, span: Span) -> Expr {
        if let Some(g) = Geometric::from_name(name) {
            return self.geometric_call(g, name, args, at, span);
        }
        let Some(b) = FloatBuiltin::from_name(name) else { return err_expr(span) };
        if args.len() != b.arity() {
            self.wrong_arg_count(name, b.arity(), args.len(), span);
            return err_expr(span);
        }
        let mut args = args;
        if let FloatBuiltin::Op(op) = b
            && op.shape() == FloatShape::FloatInt
            && matches!(args[1].ty, Type::Scalar(s) if s != Scalar::I32 && s != Scalar::Bool)
        {
            // The `int` parameter of the scalar overload converts its argument as any call does.
            let n = args.remove(1);
            let n = self.convert(n, &Type::Scalar(Scalar::I32));
            args.insert(1, n);
        }
        match self.float_builtin_type(b, name, &args, at) {
            Some(ty) => Expr { kind: ExprKind::FloatBuiltin(b, args), ty, span },
            None => err_expr(span),
        }
    }

    /// The compiler built-ins behind `INFINITY`, `HUGE_VALF` and `NAN`: float constants. The
    /// NaN is the canonical quiet NaN; a payload string other than `""` is refused, since kiln
    /// keeps one NaN encoding everywhere.
    pub(super) fn float_constant_builtin(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let value = match name {
            "__builtin_inff" | "__builtin_huge_valf" => f64::INFINITY,
            "__builtin_nanf" => f64::NAN,
            _ => return None,
        };
        let arity = usize::from(value.is_nan());
        if args.len() != arity {
            self.wrong_arg_count(name, arity, args.len(), span);
            return Some(err_expr(span));
        }
        if let Some(a) = args.first()
            && !matches!(&a.kind, ast::ExprKind::Str(parts) if parts.iter().all(|p| &**p == "\"\""))
        {
            self.err(
                Diagnostic::error(codes::BUILTIN_ARGS, "`__builtin_nanf` takes the empty string `\"\"`")
                    .at(a.span)
                    .with_note("kiln produces one quiet NaN encoding, 0x7fc00000"),
            );
            return Some(err_expr(span));
        }
        Some(Expr { kind: ExprKind::Float(value), ty: Type::Scalar(Scalar::F32), span })
    }

    fn no_float_overload(&mut self, name: &str, args: &[Expr], at: Span) -> Option<Type> {
        self.err(
            self.no_overload(name, args, at)
                .with_note(format!("`{name}` takes `float` or `floatN` arguments of one type"))
                .with_help("convert the arguments, e.g. with `(float)x` or `convert_float4(v)`"),
        );
        None
    }

    fn float_builtin_type(&mut self, b: FloatBuiltin, name: &str, args: &[Expr], at: Span) -> Option<Type> {
        let is_gentype = |t: &Type| matches!(t, Type::Scalar(Scalar::F32) | Type::Vector(Scalar::F32, _));
        let is_int_lanes = |t: &Type, n: u8| {
            t.element().is_some_and(|s| s.is_integer() && s != Scalar::Bool && s.bits() == 32) && lanes(t) == n
        };
        let g = args[0].ty.clone();
        let n = lanes(&g);
        // Which arguments are the `gentype`, and which may also be a scalar `float`.
        let (same, scalar_ok): (&[usize], &[usize]) = match b {
            FloatBuiltin::Op(op) => match op.shape() {
                FloatShape::Floats(1) | FloatShape::IntResult | FloatShape::FloatInt => (&[0], &[]),
                FloatShape::Floats(2) => match op {
                    crate::builtins::FloatOp::Min | crate::builtins::FloatOp::Max => (&[0, 1], &[1]),
                    _ => (&[0, 1], &[]),
                },
                FloatShape::Floats(_) => (&[0, 1, 2], &[]),
            },
            FloatBuiltin::Recip
            | FloatBuiltin::Degrees
            | FloatBuiltin::Radians
            | FloatBuiltin::Sign
            | FloatBuiltin::Class(_) => (&[0], &[]),
            FloatBuiltin::Divide | FloatBuiltin::Relation(_) => (&[0, 1], &[]),
            FloatBuiltin::Min | FloatBuiltin::Max => (&[0, 1], &[1]),
            FloatBuiltin::Mad | FloatBuiltin::Bitselect => (&[0, 1, 2], &[]),
            FloatBuiltin::Clamp => (&[0, 1, 2], &[1, 2]),
            FloatBuiltin::Mix => (&[0, 1, 2], &[2]),
            FloatBuiltin::Select => (&[0, 1], &[]),
            // `step(edge, x)` and `smoothstep(e0, e1, x)`: the last argument is the gentype.
            FloatBuiltin::Step => (&[1, 0], &[0]),
            FloatBuiltin::Smoothstep => (&[2, 0, 1], &[0, 1]),
            FloatBuiltin::Nan => (&[], &[]),
        };
        if let Some(&first) = same.first() {
            let g = args[first].ty.clone();
            if !is_gentype(&g) {
                return self.no_float_overload(name, args, at);
            }
            let all_scalar = scalar_ok.iter().all(|&i| args[i].ty == Type::Scalar(Scalar::F32));
            for &i in same {
                let ok = args[i].ty == g || (scalar_ok.contains(&i) && all_scalar && lanes(&g) > 1);
                if !ok {
                    return self.no_float_overload(name, args, at);
                }
            }
        }
        let g = same.first().map(|&i| args[i].ty.clone()).unwrap_or(g);
        let n = if same.is_empty() { n } else { lanes(&g) };
        match b {
            FloatBuiltin::Op(op) => match op.shape() {
                FloatShape::FloatInt => {
                    // `ldexp` also takes one `int` for every lane.
                    let scalar_int = op == crate::builtins::FloatOp::Ldexp && is_int_lanes(&args[1].ty, 1);
                    if !is_int_lanes(&args[1].ty, n) && !scalar_int {
                        return self.no_float_overload(name, args, at);
                    }
                    Some(g)
                }
                FloatShape::IntResult => Some(int_lanes(n)),
                _ => Some(g),
            },
            FloatBuiltin::Relation(_) | FloatBuiltin::Class(_) => Some(int_lanes(n)),
            FloatBuiltin::Select => {
                if !is_int_lanes(&args[2].ty, n) {
                    let shown = self.show(&args[2].ty);
                    self.err(
                        Diagnostic::error(
                            codes::BUILTIN_ARGS,
                            format!("the condition of `select` on `{}` must be an `int` or `uint` type with as many lanes, not `{shown}`", self.show(&g)),
                        )
                        .at(args[2].span),
                    );
                    return None;
                }
                Some(g)
            }
            FloatBuiltin::Nan => {
                let t = &args[0].ty;
                let ok = t.element().is_some_and(|s| s == Scalar::U32);
                if !ok {
                    return self.no_float_overload(name, args, at);
                }
                Some(shaped(Scalar::F32, lanes(t)))
            }
            _ => Some(g),
        }
    }

    fn geometric_call(&mut self, g: Geometric, name: &str, args: Vec<Expr>, at: Span, span: Span) -> Expr {
        if args.len() != g.arity() {
            self.wrong_arg_count(name, g.arity(), args.len(), span);
            return err_expr(span);
        }
        let t = args[0].ty.clone();
        let ok_type = match g {
            Geometric::Cross => matches!(t, Type::Vector(Scalar::F32, 3 | 4)),
            _ => matches!(t, Type::Scalar(Scalar::F32) | Type::Vector(Scalar::F32, 2..=4)),
        };
        if !ok_type || args.iter().any(|a| a.ty != t) {
            let takes =
                if g == Geometric::Cross { "`float3` or `float4`" } else { "`float`, `float2`, `float3` or `float4`" };
            self.err(
                self.no_overload(name, &args, at).with_note(format!("`{name}` takes {takes} arguments of one type")),
            );
            return err_expr(span);
        }
        let ty = match g {
            Geometric::Dot | Geometric::Length | Geometric::Distance => Type::Scalar(Scalar::F32),
            Geometric::Cross | Geometric::Normalize => t,
        };
        Expr { kind: ExprKind::Geometric(g, args), ty, span }
    }
}
