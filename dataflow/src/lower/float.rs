//! Lowering of `float`: conversions between scalar types, and the math, common and relational
//! built-ins expanded into float operations.
//!
//! Functions that are one IR operation (`sqrt`, `fmin`, `pow`, ...) become that operation; the
//! others are built from them exactly as OpenCL C 3.0 §6.15.2–§6.15.6 defines them: `mad` is a
//! multiply then an add, `clamp` is `fmin(fmax(x, lo), hi)`, `mix` is `x + (y - x) * a`,
//! `smoothstep` is `t * t * (3 - 2t)` with `t = clamp((x - e0) / (e1 - e0), 0, 1)`, and the
//! classification functions compare `fabs(x)` with the limits of `float`.

use super::*;
use kiln_hir::Rounding;
use kiln_hir::builtins::{FloatBuiltin, FloatClass, FloatRelation};

pub(super) fn ir_round(r: Rounding) -> Round {
    match r {
        Rounding::NearestEven => Round::NearestEven,
        Rounding::TowardZero => Round::TowardZero,
        Rounding::Up => Round::Up,
        Rounding::Down => Round::Down,
    }
}

fn f32_bits(x: f32) -> u64 {
    x.to_bits() as u64
}

impl<'p> Lowerer<'p> {
    pub(super) fn fconst(&mut self, x: f32, span: Span) -> Value {
        self.konst(f32_bits(x), 32, span)
    }

    fn fop(&mut self, op: FloatOp, args: Vec<Value>, span: Span) -> Value {
        self.emit(OpKind::Float(op), args, 32, span)
    }

    fn fcmp(&mut self, op: FCmpOp, a: Value, b: Value, span: Span) -> Value {
        self.emit(OpKind::FCmp(op), vec![a, b], 1, span)
    }

    /// A value of scalar type `from` converted to scalar type `to`. `round` overrides the C
    /// defaults (to nearest even into a float, toward zero into an integer).
    pub(super) fn convert_scalar(
        &mut self,
        v: Value,
        from: Scalar,
        to: Scalar,
        round: Option<Round>,
        span: Span,
    ) -> Value {
        if from == to {
            return v;
        }
        if to == Scalar::Bool {
            if from.is_float() {
                // `(bool)x` is `x != 0`, true for NaN.
                let z = self.fconst(0.0, span);
                return self.fcmp(FCmpOp::Ne, v, z, span);
            }
            if self.k.width(v) == 1 {
                return v;
            }
            let w = self.k.width(v);
            let z = self.konst(0, w, span);
            return self.emit(OpKind::Cmp(CmpOp::Ne), vec![v, z], 1, span);
        }
        let tw = scalar_width(to);
        match (from.is_float(), to.is_float()) {
            (true, true) => {
                let c = FloatConv::Resize { round: round.unwrap_or(Round::NearestEven) };
                self.emit(OpKind::FConv(c), vec![v], tw, span)
            }
            (true, false) => {
                let c = FloatConv::ToInt { signed: to.is_signed(), round: round.unwrap_or(Round::TowardZero) };
                self.emit(OpKind::FConv(c), vec![v], tw, span)
            }
            (false, true) => {
                let signed = from.is_signed() && from != Scalar::Bool;
                let c = FloatConv::FromInt { signed, round: round.unwrap_or(Round::NearestEven) };
                self.emit(OpKind::FConv(c), vec![v], tw, span)
            }
            (false, false) => {
                let signed = from.is_signed() && from != Scalar::Bool;
                self.resize(v, tw, signed, span)
            }
        }
    }

    /// `a op b` on two floats, for the operators `+ - * /`.
    pub(super) fn float_arith(&mut self, op: hir::BinaryOp, a: Value, b: Value, span: Span) -> Value {
        let f = match op {
            hir::BinaryOp::Add => FloatOp::Add,
            hir::BinaryOp::Sub => FloatOp::Sub,
            hir::BinaryOp::Mul => FloatOp::Mul,
            _ => FloatOp::Div,
        };
        self.fop(f, vec![a, b], span)
    }

    /// A comparison operator on two floats, as a 1-bit value.
    pub(super) fn float_compare(&mut self, op: hir::BinaryOp, a: Value, b: Value, span: Span) -> Value {
        let c = match op {
            hir::BinaryOp::Lt => FCmpOp::Lt,
            hir::BinaryOp::Le => FCmpOp::Le,
            hir::BinaryOp::Gt => FCmpOp::Gt,
            hir::BinaryOp::Ge => FCmpOp::Ge,
            hir::BinaryOp::Eq => FCmpOp::Eq,
            _ => FCmpOp::Ne,
        };
        self.fcmp(c, a, b, span)
    }

    /// A float built-in on scalar arguments (vectors were split into lanes before lowering).
    pub(super) fn float_builtin(&mut self, b: FloatBuiltin, args: &[hir::Expr], ty: &Type, span: Span) -> RV {
        let mut vals = Vec::new();
        for a in args {
            let Some(v) = self.value(a) else { return RV::Void };
            vals.push(v);
        }
        let x = |i: usize| vals[i];
        let result_width = ty.scalar().map(scalar_width).unwrap_or(32);
        let v = match b {
            FloatBuiltin::Op(op) => {
                let mut operands = vals.clone();
                if matches!(op.shape(), kiln_hir::builtins::FloatShape::FloatInt) {
                    operands[1] = self.resize(operands[1], 32, true, span);
                }
                self.fop(op, operands, span)
            }
            FloatBuiltin::Mad => {
                let p = self.fop(FloatOp::Mul, vec![x(0), x(1)], span);
                self.fop(FloatOp::Add, vec![p, x(2)], span)
            }
            FloatBuiltin::Recip => {
                let one = self.fconst(1.0, span);
                self.fop(FloatOp::Div, vec![one, x(0)], span)
            }
            FloatBuiltin::Divide => self.fop(FloatOp::Div, vec![x(0), x(1)], span),
            FloatBuiltin::Min => self.fop(FloatOp::Min, vec![x(0), x(1)], span),
            FloatBuiltin::Max => self.fop(FloatOp::Max, vec![x(0), x(1)], span),
            FloatBuiltin::Clamp => {
                let lo = self.fop(FloatOp::Max, vec![x(0), x(1)], span);
                self.fop(FloatOp::Min, vec![lo, x(2)], span)
            }
            FloatBuiltin::Mix => {
                let d = self.fop(FloatOp::Sub, vec![x(1), x(0)], span);
                let p = self.fop(FloatOp::Mul, vec![d, x(2)], span);
                self.fop(FloatOp::Add, vec![x(0), p], span)
            }
            FloatBuiltin::Step => {
                // `x < edge ? 0.0 : 1.0`
                let lt = self.fcmp(FCmpOp::Lt, x(1), x(0), span);
                let (z, one) = (self.fconst(0.0, span), self.fconst(1.0, span));
                self.emit(OpKind::Select, vec![lt, z, one], 32, span)
            }
            FloatBuiltin::Smoothstep => {
                let num = self.fop(FloatOp::Sub, vec![x(2), x(0)], span);
                let den = self.fop(FloatOp::Sub, vec![x(1), x(0)], span);
                let q = self.fop(FloatOp::Div, vec![num, den], span);
                let (z, one) = (self.fconst(0.0, span), self.fconst(1.0, span));
                let t = self.fop(FloatOp::Max, vec![q, z], span);
                let t = self.fop(FloatOp::Min, vec![t, one], span);
                let (two, three) = (self.fconst(2.0, span), self.fconst(3.0, span));
                let two_t = self.fop(FloatOp::Mul, vec![two, t], span);
                let poly = self.fop(FloatOp::Sub, vec![three, two_t], span);
                let tt = self.fop(FloatOp::Mul, vec![t, t], span);
                self.fop(FloatOp::Mul, vec![tt, poly], span)
            }
            FloatBuiltin::Degrees => {
                let k = self.fconst((180.0 / std::f64::consts::PI) as f32, span);
                self.fop(FloatOp::Mul, vec![k, x(0)], span)
            }
            FloatBuiltin::Radians => {
                let k = self.fconst((std::f64::consts::PI / 180.0) as f32, span);
                self.fop(FloatOp::Mul, vec![k, x(0)], span)
            }
            FloatBuiltin::Sign => {
                // NaN → 0.0; x > 0 → 1.0; x < 0 → -1.0; ±0 → ±0.
                let z = self.fconst(0.0, span);
                let one = self.fconst(1.0, span);
                let minus_one = self.fconst(-1.0, span);
                let gt = self.fcmp(FCmpOp::Gt, x(0), z, span);
                let lt = self.fcmp(FCmpOp::Lt, x(0), z, span);
                let nan = self.fcmp(FCmpOp::Uno, x(0), x(0), span);
                let s = self.emit(OpKind::Select, vec![lt, minus_one, x(0)], 32, span);
                let s = self.emit(OpKind::Select, vec![gt, one, s], 32, span);
                self.emit(OpKind::Select, vec![nan, z, s], 32, span)
            }
            FloatBuiltin::Relation(r) => {
                let c = match r {
                    FloatRelation::Equal => FCmpOp::Eq,
                    FloatRelation::NotEqual => FCmpOp::Ne,
                    FloatRelation::Greater => FCmpOp::Gt,
                    FloatRelation::GreaterEqual => FCmpOp::Ge,
                    FloatRelation::Less => FCmpOp::Lt,
                    FloatRelation::LessEqual => FCmpOp::Le,
                    FloatRelation::LessGreater => FCmpOp::LtGt,
                    FloatRelation::Ordered => FCmpOp::Ord,
                    FloatRelation::Unordered => FCmpOp::Uno,
                };
                let bit = self.fcmp(c, x(0), x(1), span);
                self.resize(bit, result_width, false, span)
            }
            FloatBuiltin::Class(c) => {
                let bit = self.float_class(c, x(0), span);
                self.resize(bit, result_width, false, span)
            }
            FloatBuiltin::Select => {
                // Scalar `select(a, b, c)` is `c ? b : a`.
                let w = self.k.width(x(2));
                let z = self.konst(0, w, span);
                let c = self.emit(OpKind::Cmp(CmpOp::Ne), vec![x(2), z], 1, span);
                self.emit(OpKind::Select, vec![c, x(1), x(0)], 32, span)
            }
            FloatBuiltin::Bitselect => {
                let nc = self.emit(OpKind::Unary(UnOp::Not), vec![x(2)], 32, span);
                let from_a = self.emit(OpKind::Binary(BinOp::And), vec![x(0), nc], 32, span);
                let from_b = self.emit(OpKind::Binary(BinOp::And), vec![x(1), x(2)], 32, span);
                self.emit(OpKind::Binary(BinOp::Or), vec![from_a, from_b], 32, span)
            }
            FloatBuiltin::Nan => {
                // A quiet NaN with the code in the low mantissa bits.
                let code = self.resize(x(0), 32, false, span);
                let low = self.konst(0x003f_ffff, 32, span);
                let code = self.emit(OpKind::Binary(BinOp::And), vec![code, low], 32, span);
                let q = self.konst(0x7fc0_0000, 32, span);
                self.emit(OpKind::Binary(BinOp::Or), vec![code, q], 32, span)
            }
        };
        RV::Val(v)
    }

    /// A classification of `x` as a 1-bit value.
    fn float_class(&mut self, c: FloatClass, x: Value, span: Span) -> Value {
        let abs = |l: &mut Self| l.fop(FloatOp::Abs, vec![x], span);
        match c {
            FloatClass::Nan => self.fcmp(FCmpOp::Uno, x, x, span),
            FloatClass::Infinite => {
                let a = abs(self);
                let inf = self.fconst(f32::INFINITY, span);
                self.fcmp(FCmpOp::Eq, a, inf, span)
            }
            FloatClass::Finite => {
                let a = abs(self);
                let inf = self.fconst(f32::INFINITY, span);
                self.fcmp(FCmpOp::Lt, a, inf, span)
            }
            FloatClass::Normal => {
                let a = abs(self);
                let inf = self.fconst(f32::INFINITY, span);
                let min = self.fconst(f32::MIN_POSITIVE, span);
                let below_inf = self.fcmp(FCmpOp::Lt, a, inf, span);
                let normal = self.fcmp(FCmpOp::Ge, a, min, span);
                self.emit(OpKind::Binary(BinOp::And), vec![below_inf, normal], 1, span)
            }
            FloatClass::SignBit => {
                let sh = self.konst(31, 32, span);
                let s = self.emit(OpKind::Binary(BinOp::LShr), vec![x, sh], 32, span);
                self.resize(s, 1, false, span)
            }
        }
    }
}
