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
use crate::builtins::{FloatBuiltin, FloatClass, FloatOp, FloatRelation, FloatShape, Geometric, IntBuiltin};
use crate::diag::{Diagnostic, codes};
use crate::hir::{BinaryOp, Expr, ExprKind, UnaryOp};
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

    /// `sincos`, `modf`, `fract` and `frexp`, whose second result goes through a pointer: expanded into
    /// the store of that result and the returned one, from one-result operations:
    /// - `sincos(x, c)`: `*c = cos(x)`, returns `sin(x)`;
    /// - `modf(x, i)`: `*i = trunc(x)`, returns `copysign(x - trunc(x), x)` (`copysign(0, x)`
    ///   for an infinity);
    /// - `fract(x, i)`: `*i = floor(x)`, returns `fmin(x - floor(x), 0x1.fffffep-1f)` (`x` for a
    ///   NaN or a zero, `copysign(0, x)` for an infinity);
    /// - `frexp(x, e)`: `*e = ilogb(x) + 1`, returns `ldexp(x, -*e)` (`x` with `*e = 0` for a
    ///   zero, an infinity or a NaN).
    ///
    /// `x` is used more than once, so it must be free of side effects.
    pub(super) fn pointer_result_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if !matches!(name, "sincos" | "modf" | "fract" | "frexp" | "remquo" | "lgamma_r") {
            return None;
        }
        // `remquo(x, y, &quo)` has a second value operand.
        let arity = if name == "remquo" { 3 } else { 2 };
        if args.len() != arity {
            self.wrong_arg_count(name, arity, args.len(), span);
            return Some(err_expr(span));
        }
        let x = self.rvalue(&args[0]);
        let y = (arity == 3).then(|| self.rvalue(&args[1]));
        let p = self.rvalue(&args[arity - 1]);
        if x.ty.is_error() || p.ty.is_error() || y.as_ref().is_some_and(|y| y.ty.is_error()) {
            return Some(err_expr(span));
        }
        let x = match x.ty {
            Type::Scalar(s) if !s.is_float() => self.convert(x, &Type::Scalar(Scalar::F32)),
            _ => x,
        };
        let ty = x.ty.clone();
        let int_ty = match ty {
            Type::Vector(_, n) => Type::Vector(Scalar::I32, n),
            _ => Type::Scalar(Scalar::I32),
        };
        // `frexp`, `remquo` and `lgamma_r` store an `int` or `intN`; the others a value of `x`'s
        // type.
        let stores_int = matches!(name, "frexp" | "remquo" | "lgamma_r");
        let stored_ty = if stores_int { int_ty.clone() } else { ty.clone() };
        let pointee_ok = matches!(&p.ty, Type::Pointer(to) if to.ty == stored_ty && to.space != crate::ast::AddrSpace::Constant && !to.quals.is_const);
        let y = match y {
            Some(y) if y.ty == ty => Some(y),
            Some(y) if y.ty.scalar().is_some_and(|s| !s.is_float()) && !ty.is_vector() => Some(self.convert(y, &ty)),
            Some(y) => {
                let msg = format!(
                    "`{name}` takes two operands of one type, not `{}` and `{}`",
                    self.show(&ty),
                    self.show(&y.ty)
                );
                self.err(Diagnostic::error(codes::BUILTIN_ARGS, msg).at(y.span));
                return Some(err_expr(span));
            }
            None => None,
        };
        if ty.element() != Some(Scalar::F32) || !pointee_ok {
            let list = [&x, &p].map(|a| format!("`{}`", self.show(&a.ty))).join(", ");
            self.err(
                Diagnostic::error(
                    codes::BUILTIN_ARGS,
                    format!("no overload of `{name}` takes arguments of types {list}"),
                )
                .at(span)
                .with_note(format!(
                    "`{name}` takes a `float` or `floatN` and a writable pointer to {}",
                    if stores_int { "an `int` or `intN` of as many lanes" } else { "the same type" }
                )),
            );
            return Some(err_expr(span));
        }
        if x.has_side_effects() || y.as_ref().is_some_and(Expr::has_side_effects) {
            self.err(
                Diagnostic::error(
                    codes::UNSUPPORTED_BUILTIN,
                    format!("`{name}` of an argument with side effects is not yet supported by kiln"),
                )
                .at(args[0].span)
                .with_help("compute the argument into a variable first"),
            );
            return Some(err_expr(span));
        }
        let at = span;
        let op = |o: FloatOp, a: Vec<Expr>| Expr {
            kind: ExprKind::FloatBuiltin(FloatBuiltin::Op(o), a),
            ty: ty.clone(),
            span: at,
        };
        let fb = |b: FloatBuiltin, a: Vec<Expr>, t: Type| Expr { kind: ExprKind::FloatBuiltin(b, a), ty: t, span: at };
        let zero = self.convert(Expr { kind: ExprKind::Float(0.0), ty: Type::Scalar(Scalar::F32), span: at }, &ty);
        let class_ty = int_ty.clone();
        let (stored, result) = match name {
            "sincos" => (op(FloatOp::Cos, vec![x.clone()]), op(FloatOp::Sin, vec![x.clone()])),
            "remquo" => {
                let y = y.unwrap_or_else(|| x.clone());
                let quo = fb(FloatBuiltin::Op(FloatOp::RemquoQuotient), vec![x.clone(), y.clone()], int_ty.clone());
                (quo, op(FloatOp::Remainder, vec![x.clone(), y]))
            }
            "lgamma_r" => {
                let sign = fb(FloatBuiltin::Op(FloatOp::LgammaSign), vec![x.clone()], int_ty.clone());
                (sign, op(FloatOp::Lgamma, vec![x.clone()]))
            }
            "frexp" => {
                // x = m * 2^e with 0.5 <= |m| < 1: e = ilogb(x) + 1, m = ldexp(x, -e); a zero,
                // an infinity or a NaN is returned as it is, with e = 0.
                let int = |k: i64| {
                    let one = Expr::int(k as u64, Type::Scalar(Scalar::I32), at);
                    Expr { kind: ExprKind::Convert(Box::new(one)), ty: int_ty.clone(), span: at }
                };
                let ilogb = fb(FloatBuiltin::Op(FloatOp::Ilogb), vec![x.clone()], int_ty.clone());
                let raw = Expr {
                    kind: ExprKind::Binary(BinaryOp::Add, Box::new(ilogb), Box::new(int(1))),
                    ty: int_ty.clone(),
                    span: at,
                };
                let finite = fb(FloatBuiltin::Class(FloatClass::Finite), vec![x.clone()], int_ty.clone());
                let nonzero =
                    fb(FloatBuiltin::Relation(FloatRelation::NotEqual), vec![x.clone(), zero.clone()], int_ty.clone());
                let regular = Expr {
                    kind: ExprKind::Binary(BinaryOp::And, Box::new(finite), Box::new(nonzero)),
                    ty: int_ty.clone(),
                    span: at,
                };
                let e = Expr {
                    kind: ExprKind::IntBuiltin(IntBuiltin::Select, vec![int(0), raw, regular]),
                    ty: int_ty.clone(),
                    span: at,
                };
                let neg =
                    Expr { kind: ExprKind::Unary(UnaryOp::Neg, Box::new(e.clone())), ty: int_ty.clone(), span: at };
                (e, op(FloatOp::Ldexp, vec![x.clone(), neg]))
            }
            "modf" => {
                let whole = op(FloatOp::Trunc, vec![x.clone()]);
                let frac = op(FloatOp::Sub, vec![x.clone(), whole.clone()]);
                let signed = op(FloatOp::Copysign, vec![frac, x.clone()]);
                let inf = fb(FloatBuiltin::Class(FloatClass::Infinite), vec![x.clone()], class_ty.clone());
                let zero_x = op(FloatOp::Copysign, vec![zero, x.clone()]);
                (whole, fb(FloatBuiltin::Select, vec![signed, zero_x, inf], ty.clone()))
            }
            _ => {
                let whole = op(FloatOp::Floor, vec![x.clone()]);
                let frac = op(FloatOp::Sub, vec![x.clone(), whole.clone()]);
                let below_one = f64::from(f32::from_bits(0x3f7f_ffff));
                let limit = self
                    .convert(Expr { kind: ExprKind::Float(below_one), ty: Type::Scalar(Scalar::F32), span: at }, &ty);
                let clamped = op(FloatOp::Min, vec![frac, limit]);
                let inf = fb(FloatBuiltin::Class(FloatClass::Infinite), vec![x.clone()], class_ty.clone());
                let nan = fb(FloatBuiltin::Class(FloatClass::Nan), vec![x.clone()], class_ty.clone());
                let zero_x = op(FloatOp::Copysign, vec![zero.clone(), x.clone()]);
                let finite = fb(FloatBuiltin::Select, vec![clamped, zero_x, inf], ty.clone());
                // A zero keeps its sign; a NaN is returned as it is.
                let is_zero =
                    fb(FloatBuiltin::Relation(FloatRelation::Equal), vec![x.clone(), zero.clone()], class_ty.clone());
                let signed = fb(FloatBuiltin::Select, vec![finite, x.clone(), is_zero], ty.clone());
                (whole, fb(FloatBuiltin::Select, vec![signed, x.clone(), nan], ty.clone()))
            }
        };
        let target = Expr { kind: ExprKind::Deref(Box::new(p)), ty: stored_ty.clone(), span: at };
        let store = Expr { kind: ExprKind::Assign(Box::new(target), Box::new(stored)), ty: stored_ty, span: at };
        Some(Expr { kind: ExprKind::Comma(vec![store, result]), ty, span })
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
                FloatShape::Floats(1) | FloatShape::IntResult(1) | FloatShape::FloatInt => (&[0], &[]),
                FloatShape::IntResult(_) => (&[0, 1], &[]),
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
                FloatShape::IntResult(_) => Some(int_lanes(n)),
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
