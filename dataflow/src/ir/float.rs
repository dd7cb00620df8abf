//! Floating-point operations and their exact semantics.
//!
//! Values are IEEE 754 bit patterns in ordinary bit-vector values: binary32 (`float`, 32 bits)
//! carries all arithmetic; binary16 (`half`, 16 bits) and binary64 (`double`, 64 bits) appear
//! only in conversions until kiln builds arithmetic on them.
//!
//! Conventions (the README's "Floating point" section says the same to users):
//! - round to nearest even, subnormals kept (no flush to zero);
//! - `+ - * /`, `sqrt`, `fma`, and every conversion are correctly rounded;
//! - every other math function is evaluated in binary64 with `libm` (a pure-Rust port of musl,
//!   so every machine produces the same bits) and rounded once to binary32, which keeps it far
//!   inside the OpenCL ULP limits;
//! - a NaN produced by arithmetic is the canonical quiet NaN `0x7fc00000`; `-x`, `fabs` and
//!   `copysign` only touch the sign bit, as IEEE 754 requires;
//! - float → integer conversions round as asked, then saturate to the integer's range, NaN
//!   giving 0 (OpenCL leaves the out-of-range case implementation-defined, so `convert_int` and
//!   `convert_int_sat` agree in kiln).

use std::cmp::Ordering;
use std::f64::consts::PI;

/// The canonical quiet NaN of binary32.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

pub use kiln_hir::builtins::{FloatOp, FloatShape as Shape};

/// The IR mnemonic of a float operation.
pub fn mnemonic(op: FloatOp) -> &'static str {
    use FloatOp::*;
    match op {
        Neg => "fneg",
        Abs => "fabs",
        Sqrt => "fsqrt",
        Rsqrt => "frsqrt",
        Floor => "ffloor",
        Ceil => "fceil",
        Trunc => "ftrunc",
        Round => "fround",
        Rint => "frint",
        Exp => "fexp",
        Exp2 => "fexp2",
        Exp10 => "fexp10",
        Expm1 => "fexpm1",
        Log => "flog",
        Log2 => "flog2",
        Log10 => "flog10",
        Log1p => "flog1p",
        Sin => "fsin",
        Cos => "fcos",
        Tan => "ftan",
        Asin => "fasin",
        Acos => "facos",
        Atan => "fatan",
        Sinpi => "fsinpi",
        Cospi => "fcospi",
        Tanpi => "ftanpi",
        Asinpi => "fasinpi",
        Acospi => "facospi",
        Atanpi => "fatanpi",
        Sinh => "fsinh",
        Cosh => "fcosh",
        Tanh => "ftanh",
        Asinh => "fasinh",
        Acosh => "facosh",
        Atanh => "fatanh",
        Cbrt => "fcbrt",
        Erf => "ferf",
        Erfc => "ferfc",
        Tgamma => "ftgamma",
        Lgamma => "flgamma",
        Logb => "flogb",
        Add => "fadd",
        Sub => "fsub",
        Mul => "fmul",
        Div => "fdiv",
        Min => "fmin",
        Max => "fmax",
        Fdim => "fdim",
        Fmod => "fmod",
        Remainder => "fremainder",
        Copysign => "fcopysign",
        Pow => "fpow",
        Powr => "fpowr",
        Atan2 => "fatan2",
        Atan2pi => "fatan2pi",
        Hypot => "fhypot",
        Nextafter => "fnextafter",
        Maxmag => "fmaxmag",
        Minmag => "fminmag",
        Fma => "ffma",
        Ldexp => "fldexp",
        Pown => "fpown",
        Rootn => "frootn",
        Ilogb => "filogb",
        RemquoQuotient => "fremquo_quo",
        LgammaSign => "flgamma_sign",
    }
}

/// A floating-point comparison; the result is 1 bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FCmpOp {
    /// `==`: false when either operand is NaN.
    Eq,
    /// `!=`: true when either operand is NaN.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `islessgreater`: ordered and not equal.
    LtGt,
    /// Neither operand is NaN.
    Ord,
    /// Either operand is NaN.
    Uno,
}

impl FCmpOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            FCmpOp::Eq => "feq",
            FCmpOp::Ne => "fne",
            FCmpOp::Lt => "flt",
            FCmpOp::Le => "fle",
            FCmpOp::Gt => "fgt",
            FCmpOp::Ge => "fge",
            FCmpOp::LtGt => "flg",
            FCmpOp::Ord => "ford",
            FCmpOp::Uno => "funo",
        }
    }
}

/// A rounding mode of a conversion (`_rte`, `_rtz`, `_rtp`, `_rtn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Round {
    #[default]
    NearestEven,
    TowardZero,
    Up,
    Down,
}

impl Round {
    pub fn suffix(self) -> &'static str {
        match self {
            Round::NearestEven => "rte",
            Round::TowardZero => "rtz",
            Round::Up => "rtp",
            Round::Down => "rtn",
        }
    }
}

/// A conversion involving a floating-point format; formats come from the operand and result
/// widths (16, 32 or 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatConv {
    /// An integer (of the operand's width) to a float.
    FromInt { signed: bool, round: Round },
    /// A float to an integer (of the result's width): rounded, then saturated; NaN gives 0.
    ToInt { signed: bool, round: Round },
    /// A float to a float of another format.
    Resize { round: Round },
}

impl FloatConv {
    pub fn mnemonic(self) -> &'static str {
        match self {
            FloatConv::FromInt { signed: true, .. } => "sitofp",
            FloatConv::FromInt { signed: false, .. } => "uitofp",
            FloatConv::ToInt { signed: true, .. } => "fptosi",
            FloatConv::ToInt { signed: false, .. } => "fptoui",
            FloatConv::Resize { .. } => "fpresize",
        }
    }

    pub fn round(self) -> Round {
        match self {
            FloatConv::FromInt { round, .. } | FloatConv::ToInt { round, .. } | FloatConv::Resize { round } => round,
        }
    }
}

fn f32_of(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

fn bits_of(x: f32) -> u64 {
    if x.is_nan() { CANONICAL_NAN as u64 } else { x.to_bits() as u64 }
}

/// Which neighbour of the round-to-nearest-even result a directed rounding takes: `Some(true)`
/// the next value up, `Some(false)` the next value down, `None` the nearest itself. `nearest`
/// is how the nearest result compares with the exact value; `negative` is the exact value's sign.
fn directed_step(round: Round, nearest: Ordering, negative: bool) -> Option<bool> {
    match (round, nearest) {
        (_, Ordering::Equal) | (Round::NearestEven, _) => None,
        (Round::TowardZero, Ordering::Greater) if !negative => Some(false),
        (Round::TowardZero, Ordering::Less) if negative => Some(true),
        (Round::Up, Ordering::Less) => Some(true),
        (Round::Down, Ordering::Greater) => Some(false),
        _ => None,
    }
}

/// The binary32 nearest to `x` in the direction `round` asks for.
fn round_f64_to_f32(x: f64, round: Round) -> f32 {
    let r = x as f32; // nearest, ties to even
    match (r as f64).partial_cmp(&x).and_then(|o| directed_step(round, o, x < 0.0)) {
        Some(true) => r.next_up(),
        Some(false) => r.next_down(),
        None => r,
    }
}

/// An integer (exact in i128) rounded to binary32 in the direction `round` asks for.
fn round_int_to_f32(x: i128, round: Round) -> f32 {
    let r = x as f32; // nearest, ties to even; integral with |r| <= 2^64, so `r as i128` is exact
    match directed_step(round, (r as i128).cmp(&x), x < 0) {
        Some(true) => r.next_up(),
        Some(false) => r.next_down(),
        None => r,
    }
}

/// An integer (exact in i128) rounded to binary64 in the direction `round` asks for.
fn round_int_to_f64(x: i128, round: Round) -> f64 {
    let r = x as f64;
    match directed_step(round, (r as i128).cmp(&x), x < 0) {
        Some(true) => r.next_up(),
        Some(false) => r.next_down(),
        None => r,
    }
}

/// A binary32 value rounded to binary16 in the direction `round` asks for (exact comparisons:
/// every binary16 value is a binary32 value).
fn round_f32_to_f16(x: f32, round: Round) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let r = half::f16::from_f32(x);
    let b = r.to_bits();
    let (negative, magnitude) = (b & 0x8000 != 0, b & 0x7fff);
    // The next binary16 up or down, through the sign-magnitude bit patterns.
    match r.to_f32().partial_cmp(&x).and_then(|o| directed_step(round, o, x < 0.0)) {
        Some(true) if negative && magnitude == 0 => 0x0001,
        Some(true) if negative => b - 1,
        Some(true) => b + 1,
        Some(false) if !negative && magnitude == 0 => 0x8001,
        Some(false) if negative => b + 1,
        Some(false) => b - 1,
        None => b,
    }
}

fn to_f64(bits: u64, w: u32) -> f64 {
    match w {
        16 => half::f16::from_bits(bits as u16).to_f64(),
        32 => f32_of(bits) as f64,
        _ => f64::from_bits(bits),
    }
}

/// Evaluates a conversion. `aw` is the operand width, `w` the result width.
pub fn eval_conv(c: FloatConv, a: u64, aw: u32, w: u32) -> u64 {
    match c {
        FloatConv::FromInt { signed, round } => {
            let m = super::op::mask(aw);
            let x: i128 = if signed { super::op::sext(a & m, aw) as i128 } else { (a & m) as i128 };
            match w {
                16 => round_f32_to_f16(round_int_to_f32(x, round), round) as u64,
                32 => round_int_to_f32(x, round).to_bits() as u64,
                _ => round_int_to_f64(x, round).to_bits(),
            }
        }
        FloatConv::ToInt { signed, round } => {
            let x = to_f64(a, aw);
            if x.is_nan() {
                return 0;
            }
            let t = match round {
                Round::NearestEven => x.round_ties_even(),
                Round::TowardZero => x.trunc(),
                Round::Up => x.ceil(),
                Round::Down => x.floor(),
            };
            let (lo, hi): (i128, i128) =
                if signed { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) } else { (0, (1i128 << w) - 1) };
            let v = (t as i128).clamp(lo, hi); // `as` saturates infinities
            (v as u64) & super::op::mask(w)
        }
        FloatConv::Resize { round } => {
            if aw == w {
                return a;
            }
            match (aw, w) {
                // f64 → f16 rounds through f32 toward zero, then to the asked direction:
                // exact whenever the f32 step is exact, which kiln's uses (no `double`) guarantee.
                (64, 16) => round_f32_to_f16(round_f64_to_f32(to_f64(a, 64), Round::TowardZero), round) as u64,
                (_, 16) => round_f32_to_f16(to_f64(a, aw) as f32, round) as u64,
                (_, 32) => {
                    let x = to_f64(a, aw);
                    if x.is_nan() { CANONICAL_NAN as u64 } else { round_f64_to_f32(x, round).to_bits() as u64 }
                }
                _ => {
                    let x = to_f64(a, aw);
                    if x.is_nan() { 0x7ff8_0000_0000_0000 } else { x.to_bits() }
                }
            }
        }
    }
}

/// Evaluates a comparison of two binary32 operands.
pub fn eval_cmp(c: FCmpOp, a: u64, b: u64) -> u64 {
    let (x, y) = (f32_of(a), f32_of(b));
    let uno = x.is_nan() || y.is_nan();
    (match c {
        FCmpOp::Eq => x == y,
        FCmpOp::Ne => x != y,
        FCmpOp::Lt => x < y,
        FCmpOp::Le => x <= y,
        FCmpOp::Gt => x > y,
        FCmpOp::Ge => x >= y,
        FCmpOp::LtGt => !uno && x != y,
        FCmpOp::Ord => !uno,
        FCmpOp::Uno => uno,
    }) as u64
}

/// `sin(pi * x)`-style functions take their argument modulo 2 exactly first, so that large
/// integers give exact zeros.
fn reduce_pi(x: f64) -> f64 {
    x - 2.0 * (x / 2.0).round_ties_even()
}

fn one(op: FloatOp, x: f32) -> f32 {
    use FloatOp::*;
    let d = x as f64;
    let via = |f: fn(f64) -> f64| f(d) as f32;
    match op {
        Neg => -x,
        Abs => x.abs(),
        Sqrt => x.sqrt(),
        Rsqrt => (1.0 / d.sqrt()) as f32,
        Floor => x.floor(),
        Ceil => x.ceil(),
        Trunc => x.trunc(),
        Round => x.round(),
        Rint => x.round_ties_even(),
        Exp => via(libm::exp),
        Exp2 => via(libm::exp2),
        Exp10 => via(libm::exp10),
        Expm1 => via(libm::expm1),
        Log => via(libm::log),
        Log2 => via(libm::log2),
        Log10 => via(libm::log10),
        Log1p => via(libm::log1p),
        Sin => via(libm::sin),
        Cos => via(libm::cos),
        Tan => via(libm::tan),
        Asin => via(libm::asin),
        Acos => via(libm::acos),
        Atan => via(libm::atan),
        Sinpi => {
            if x.is_infinite() {
                return f32::NAN;
            }
            let r = reduce_pi(d);
            // sin(pi * n) is +0 or -0 with the sign of x (OpenCL's sinpi(±0) = ±0).
            if r == r.trunc() { 0.0f32.copysign(x) } else { libm::sin(PI * r) as f32 }
        }
        Cospi => {
            if x.is_infinite() {
                return f32::NAN;
            }
            let r = reduce_pi(d).abs();
            if r == 0.5 || r == 1.5 { 0.0 } else { libm::cos(PI * r) as f32 }
        }
        Tanpi => {
            if x.is_infinite() {
                return f32::NAN;
            }
            let r = reduce_pi(d);
            if r == r.trunc() { 0.0f32.copysign(x) } else { libm::tan(PI * r) as f32 }
        }
        Asinpi => (libm::asin(d) / PI) as f32,
        Acospi => (libm::acos(d) / PI) as f32,
        Atanpi => (libm::atan(d) / PI) as f32,
        Sinh => via(libm::sinh),
        Cosh => via(libm::cosh),
        Tanh => via(libm::tanh),
        Asinh => via(libm::asinh),
        Acosh => via(libm::acosh),
        Atanh => via(libm::atanh),
        Cbrt => via(libm::cbrt),
        Erf => via(libm::erf),
        Erfc => via(libm::erfc),
        Tgamma => via(libm::tgamma),
        Lgamma => via(libm::lgamma),
        Logb => {
            if x.is_nan() {
                x
            } else if x.is_infinite() {
                f32::INFINITY
            } else if x == 0.0 {
                f32::NEG_INFINITY
            } else {
                libm::ilogbf(x) as f32
            }
        }
        _ => f32::NAN,
    }
}

fn two(op: FloatOp, x: f32, y: f32) -> f32 {
    use FloatOp::*;
    let (dx, dy) = (x as f64, y as f64);
    match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / y,
        Min => min_num(x, y),
        Max => max_num(x, y),
        Fdim => {
            if x.is_nan() || y.is_nan() {
                f32::NAN
            } else if x > y {
                x - y
            } else {
                0.0
            }
        }
        Fmod => libm::fmodf(x, y),
        Remainder => libm::remainderf(x, y),
        Copysign => x.copysign(y),
        Pow => libm::pow(dx, dy) as f32,
        Powr => {
            // powr(x, y) = exp2(y * log2(x)) for x >= 0 (OpenCL §6.15.2 special cases).
            let undefined = (x == 0.0 || x.is_infinite()) && y == 0.0 || x == 1.0 && y.is_infinite();
            if x < 0.0 || x.is_nan() || y.is_nan() || undefined { f32::NAN } else { libm::pow(dx, dy) as f32 }
        }
        Atan2 => libm::atan2(dx, dy) as f32,
        Atan2pi => (libm::atan2(dx, dy) / PI) as f32,
        Hypot => libm::hypot(dx, dy) as f32,
        Nextafter => libm::nextafterf(x, y),
        Maxmag => {
            if x.abs() > y.abs() {
                x
            } else if y.abs() > x.abs() {
                y
            } else {
                max_num(x, y)
            }
        }
        Minmag => {
            if x.abs() < y.abs() {
                x
            } else if y.abs() < x.abs() {
                y
            } else {
                min_num(x, y)
            }
        }
        _ => f32::NAN,
    }
}

/// `fmin`: a NaN operand is ignored (two give a NaN), and -0 is below +0, so the result never
/// depends on the operands' order.
fn min_num(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || x == y && x.is_sign_negative() {
        x
    } else {
        y
    }
}

/// `fmax`: a NaN operand is ignored (two give a NaN), and +0 is above -0.
fn max_num(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || x == y && y.is_sign_negative() {
        x
    } else {
        y
    }
}

fn with_int(op: FloatOp, x: f32, n: i32) -> f32 {
    match op {
        FloatOp::Ldexp => libm::scalbnf(x, n),
        FloatOp::Pown => libm::pow(x as f64, n as f64) as f32,
        FloatOp::Rootn => {
            let d = x as f64;
            if n == 0 || (d < 0.0 && n % 2 == 0) {
                f32::NAN
            } else if d < 0.0 {
                -(libm::pow(-d, 1.0 / n as f64) as f32)
            } else if d == 0.0 && n < 0 {
                // rootn(±0, n) for odd negative n is ±inf, for even negative n +inf.
                if n % 2 != 0 { f32::INFINITY.copysign(x) } else { f32::INFINITY }
            } else if d == 0.0 && n % 2 != 0 {
                x
            } else {
                libm::pow(d, 1.0 / n as f64) as f32
            }
        }
        _ => f32::NAN,
    }
}

/// `ilogb` with OpenCL's `FP_ILOGB0` (`INT_MIN`) and `FP_ILOGBNAN` (`INT_MAX`).
fn ilogb(x: f32) -> i32 {
    if x.is_nan() || x.is_infinite() {
        i32::MAX
    } else if x == 0.0 {
        i32::MIN
    } else {
        libm::ilogbf(x)
    }
}

/// Evaluates a floating-point operation on binary32 operands (and an `int` operand where the
/// shape says so). Returns the result bits (binary32, or an `int` for [`FloatOp::Ilogb`]).
pub fn eval_float(op: FloatOp, args: &[u64]) -> u64 {
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    match op {
        // Sign-bit operations keep NaN payloads.
        FloatOp::Neg => return (a(0) ^ 0x8000_0000) & 0xffff_ffff,
        FloatOp::Abs => return a(0) & 0x7fff_ffff,
        FloatOp::Copysign => return (a(0) & 0x7fff_ffff) | (a(1) & 0x8000_0000),
        _ => {}
    }
    let r = match op.shape() {
        Shape::Floats(1) => one(op, f32_of(a(0))),
        Shape::Floats(2) => two(op, f32_of(a(0)), f32_of(a(1))),
        Shape::Floats(_) => libm::fmaf(f32_of(a(0)), f32_of(a(1)), f32_of(a(2))),
        Shape::FloatInt => with_int(op, f32_of(a(0)), a(1) as u32 as i32),
        Shape::IntResult(_) => {
            let (x, y) = (f32_of(a(0)), f32_of(a(1)));
            let n = match op {
                FloatOp::RemquoQuotient => {
                    let (_, q) = libm::remquof(x, y);
                    let low = q.unsigned_abs() & 0x7f;
                    if q < 0 { -(low as i32) } else { low as i32 }
                }
                FloatOp::LgammaSign => {
                    let (_, sign) = libm::lgammaf_r(x);
                    if sign < 0 { -1 } else { 1 }
                }
                _ => ilogb(x),
            };
            return n as u32 as u64;
        }
    };
    bits_of(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u64 {
        x.to_bits() as u64
    }

    fn ev(op: FloatOp, xs: &[f32]) -> f32 {
        f32::from_bits(eval_float(op, &xs.iter().map(|x| f(*x)).collect::<Vec<_>>()) as u32)
    }

    #[test]
    fn arithmetic_is_ieee_single() {
        assert_eq!(ev(FloatOp::Add, &[0.1, 0.2]), 0.1f32 + 0.2f32);
        assert_eq!(ev(FloatOp::Div, &[1.0, 3.0]), 1.0f32 / 3.0);
        assert_eq!(ev(FloatOp::Mul, &[1e-30, 1e-20]), 1e-50f32, "subnormal results are kept");
        assert_eq!(eval_float(FloatOp::Div, &[f(0.0), f(0.0)]), CANONICAL_NAN as u64);
        assert_eq!(ev(FloatOp::Neg, &[0.0]).to_bits(), 0x8000_0000);
        assert_eq!(ev(FloatOp::Fma, &[0.1, 10.0, -1.0]), 0.1f32.mul_add(10.0, -1.0));
    }

    #[test]
    fn min_max_ignore_nan_and_magnitudes_pick_larger() {
        assert_eq!(ev(FloatOp::Min, &[f32::NAN, 2.0]), 2.0);
        assert_eq!(ev(FloatOp::Max, &[1.0, f32::NAN]), 1.0);
        assert_eq!(ev(FloatOp::Maxmag, &[-3.0, 2.0]), -3.0);
        assert_eq!(ev(FloatOp::Minmag, &[-3.0, 2.0]), 2.0);
    }

    #[test]
    fn pi_functions_are_exact_at_integers() {
        assert_eq!(ev(FloatOp::Sinpi, &[1048576.0]), 0.0);
        assert_eq!(ev(FloatOp::Sinpi, &[0.5]), 1.0);
        assert_eq!(ev(FloatOp::Cospi, &[0.5]), 0.0);
        assert_eq!(ev(FloatOp::Cospi, &[1.0]), -1.0);
    }

    #[test]
    fn conversions_round_as_asked() {
        let from = |x: i64, r: Round| {
            f32::from_bits(eval_conv(FloatConv::FromInt { signed: true, round: r }, x as u64, 64, 32) as u32)
        };
        // 2^24 + 1 lies between two floats.
        assert_eq!(from(16_777_217, Round::NearestEven), 16_777_216.0);
        assert_eq!(from(16_777_217, Round::Up), 16_777_218.0);
        assert_eq!(from(-16_777_217, Round::TowardZero), -16_777_216.0);
        assert_eq!(from(-16_777_217, Round::Down), -16_777_218.0);
        let to = |x: f32, r: Round, signed: bool, w: u32| eval_conv(FloatConv::ToInt { signed, round: r }, f(x), 32, w);
        assert_eq!(to(2.5, Round::NearestEven, true, 32), 2);
        assert_eq!(to(-2.5, Round::TowardZero, true, 32), (-2i32) as u32 as u64);
        assert_eq!(to(2.1, Round::Up, true, 32), 3);
        assert_eq!(to(1e10, Round::TowardZero, true, 32), i32::MAX as u64, "saturates");
        assert_eq!(to(-1.0, Round::TowardZero, false, 8), 0);
        assert_eq!(to(300.0, Round::TowardZero, false, 8), 255);
        assert_eq!(to(f32::NAN, Round::TowardZero, true, 32), 0);
        let h = |x: f32, r: Round| eval_conv(FloatConv::Resize { round: r }, f(x), 32, 16);
        assert_eq!(h(1.0, Round::NearestEven), 0x3c00);
        // 1 + 2^-11 is halfway between 1 and the next half: even is 1, up is the next.
        assert_eq!(h(1.0 + 1.0 / 2048.0, Round::NearestEven), 0x3c00);
        assert_eq!(h(1.0 + 1.0 / 2048.0, Round::Up), 0x3c01);
        assert_eq!(h(-(1.0 + 1.0 / 2048.0), Round::Down), 0xbc01);
        assert_eq!(h(1e6, Round::TowardZero), 0x7bff, "largest finite half");
        assert_eq!(h(1e-10, Round::Up), 0x0001, "up from +0 is the smallest subnormal");
        assert_eq!(h(-1e-10, Round::Up), 0x8000, "up from a tiny negative is -0");
        assert_eq!(h(-1e-10, Round::Down), 0x8001);
        assert_eq!(eval_conv(FloatConv::Resize { round: Round::NearestEven }, 0x3c00, 16, 32), f(1.0));
    }

    #[test]
    fn comparisons_follow_ieee_nan_rules() {
        let n = f(f32::NAN);
        assert_eq!(eval_cmp(FCmpOp::Eq, n, n), 0);
        assert_eq!(eval_cmp(FCmpOp::Ne, n, f(1.0)), 1);
        assert_eq!(eval_cmp(FCmpOp::Lt, n, f(1.0)), 0);
        assert_eq!(eval_cmp(FCmpOp::Eq, f(0.0), f(-0.0)), 1);
        assert_eq!(eval_cmp(FCmpOp::Uno, n, f(1.0)), 1);
    }

    #[test]
    fn ilogb_special_values() {
        assert_eq!(eval_float(FloatOp::Ilogb, &[f(0.0)]), i32::MIN as u32 as u64);
        assert_eq!(eval_float(FloatOp::Ilogb, &[f(8.0)]), 3);
        assert_eq!(eval_float(FloatOp::Ilogb, &[f(f32::NAN)]), i32::MAX as u64);
    }
}
