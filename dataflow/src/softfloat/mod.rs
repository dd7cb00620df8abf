//! Floating point as integer hardware: each IEEE 754 binary32 operation of the IR written as a
//! dataflow of integer operations — shifts, adds, comparisons, selects, one multiply or divide
//! — that computes exactly what `ir::float`'s `eval` computes (round to nearest even, or the
//! conversion's rounding mode; subnormals kept; one NaN, `0x7fc00000`).
//!
//! The `soft-float` pass (`passes/soft_float.rs`) replaces every float operation of a kernel
//! built for hardware by its expansion, so the scheduler, the RTL generator and the simulator
//! see integers only: the scheduler picks each expansion's latency at the clock from the device
//! model, as for any datapath, pipelines it with its loop, and shares its multiplier and divider
//! as integer ones are. The emulator keeps evaluating the float operations themselves, so every
//! co-simulation checks the expansions against `eval`, and `tests.rs` checks them on edge cases
//! and random operands.
//!
//! The expansions share a few pieces, named after what they do in hardware: [`Emitter`] builds
//! the operations; [`unpack`] splits a float into sign, exponent and significand; a
//! leading-zero normalizer shifts a significand left until its top bit is set, counting the
//! shift a bit per stage ([`Emitter::normalize`]); [`round_pack`] rounds a normalized
//! significand into a float, shifting it right into a subnormal first where the exponent is
//! too small, with every bit shifted out kept as a sticky bit.

mod arith;
mod compare;
mod convert;
mod integral;
#[cfg(test)]
mod tests;

use crate::ir::*;
use kiln_diagnostics::Span;

pub use arith::{fadd, fdiv, fma, fmul, fsqrt, fsub};
pub use compare::{fcmp, fdim, fmax, fmin, magnitude_pick};
pub use convert::{float_to_int, int_to_float, resize};
pub use integral::{Integral, ilogb, integral, ldexp, logb, nextafter};

/// The canonical NaN every expansion produces.
pub const NAN: u64 = 0x7fc0_0000;

/// Emits integer operations in order, for one block.
pub struct Emitter<'k> {
    pub k: &'k mut Kernel,
    block: Block,
    span: Span,
    /// The emitted operations, in order.
    pub ops: Vec<Op>,
}

impl<'k> Emitter<'k> {
    pub fn new(k: &'k mut Kernel, block: Block, span: Span) -> Emitter<'k> {
        Emitter { k, block, span, ops: vec![] }
    }

    fn op(&mut self, kind: OpKind, args: Vec<Value>, width: u32) -> Value {
        let o = self.k.ops.push(OpData { kind, args, result: None, block: self.block, span: self.span });
        let v = self.k.values.push(ValueData { width, def: ValueDef::Op(o), name: None });
        self.k.ops[o].result = Some(v);
        self.ops.push(o);
        v
    }

    pub fn width(&self, v: Value) -> u32 {
        self.k.width(v)
    }

    /// The constant `v` of `w` bits.
    pub fn c(&mut self, v: u64, w: u32) -> Value {
        self.op(OpKind::Const(v & op::mask(w)), vec![], w)
    }

    fn bin(&mut self, b: BinOp, x: Value, y: Value) -> Value {
        let w = self.width(x);
        self.op(OpKind::Binary(b), vec![x, y], w)
    }

    pub fn add(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::Add, x, y)
    }
    pub fn sub(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::Sub, x, y)
    }
    pub fn mul(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::Mul, x, y)
    }
    pub fn udiv(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::UDiv, x, y)
    }
    pub fn urem(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::URem, x, y)
    }
    pub fn and(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::And, x, y)
    }
    pub fn or(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::Or, x, y)
    }
    pub fn xor(&mut self, x: Value, y: Value) -> Value {
        self.bin(BinOp::Xor, x, y)
    }
    pub fn not(&mut self, x: Value) -> Value {
        let w = self.width(x);
        self.op(OpKind::Unary(UnOp::Not), vec![x], w)
    }
    pub fn neg(&mut self, x: Value) -> Value {
        let w = self.width(x);
        self.op(OpKind::Unary(UnOp::Neg), vec![x], w)
    }

    /// `x + c` for a constant `c` (of `x`'s width, wrapping).
    pub fn add_c(&mut self, x: Value, c: i64) -> Value {
        let w = self.width(x);
        let c = self.c(c as u64, w);
        self.add(x, c)
    }
    pub fn and_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.and(x, c)
    }
    pub fn xor_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.xor(x, c)
    }
    pub fn or_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.or(x, c)
    }

    /// `x << n` for a constant `n` smaller than `x`'s width (wiring).
    pub fn shl_c(&mut self, x: Value, n: u32) -> Value {
        let w = self.width(x);
        let n = self.c(u64::from(n), w);
        self.bin(BinOp::Shl, x, n)
    }
    /// `x >> n` (logical) for a constant `n` smaller than `x`'s width.
    pub fn lshr_c(&mut self, x: Value, n: u32) -> Value {
        let w = self.width(x);
        let n = self.c(u64::from(n), w);
        self.bin(BinOp::LShr, x, n)
    }
    /// `x << n` for a variable `n`, which must be smaller than `x`'s width (or `x` zero): a
    /// stage per bit of the count, its top bit first (a select of `x` and `x` shifted by that
    /// bit's weight), so that the scheduler can put registers between the stages and a count
    /// whose top bits are known first starts shifting early.
    pub fn shl(&mut self, x: Value, n: Value) -> Value {
        self.staged_shift(BinOp::Shl, x, n)
    }
    /// `x >> n` (logical) for a variable `n`, which must be smaller than `x`'s width; staged
    /// as [`Emitter::shl`].
    pub fn lshr(&mut self, x: Value, n: Value) -> Value {
        self.staged_shift(BinOp::LShr, x, n)
    }

    fn staged_shift(&mut self, kind: BinOp, x: Value, n: Value) -> Value {
        let w = self.width(x);
        let nw = self.width(n);
        let mut v = x;
        for i in (0..nw.min(31)).rev() {
            if (1u64 << i) >= u64::from(w) {
                continue;
            }
            let by = self.c(1u64 << i, w);
            let shifted = self.bin(kind, v, by);
            let set = self.bit(n, i);
            v = self.select(set, shifted, v);
        }
        v
    }

    fn cmp(&mut self, c: CmpOp, x: Value, y: Value) -> Value {
        self.op(OpKind::Cmp(c), vec![x, y], 1)
    }
    pub fn eq(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Eq, x, y)
    }
    pub fn ne(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Ne, x, y)
    }
    pub fn ult(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Ult, x, y)
    }
    pub fn ule(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Ule, x, y)
    }
    pub fn uge(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Uge, x, y)
    }
    pub fn slt(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Slt, x, y)
    }
    pub fn sle(&mut self, x: Value, y: Value) -> Value {
        self.cmp(CmpOp::Sle, x, y)
    }
    /// `x == c` for a constant `c`.
    pub fn eq_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.eq(x, c)
    }
    pub fn ne_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.ne(x, c)
    }
    /// `x < c` (signed) for a constant `c`.
    pub fn slt_c(&mut self, x: Value, c: i64) -> Value {
        let w = self.width(x);
        let c = self.c(c as u64, w);
        self.slt(x, c)
    }
    /// `x <= c` (signed) for a constant `c`.
    pub fn sle_c(&mut self, x: Value, c: i64) -> Value {
        let w = self.width(x);
        let c = self.c(c as u64, w);
        self.sle(x, c)
    }
    /// `x < c` (unsigned) for a constant `c`.
    pub fn ult_c(&mut self, x: Value, c: u64) -> Value {
        let w = self.width(x);
        let c = self.c(c, w);
        self.ult(x, c)
    }

    /// `c ? x : y`.
    pub fn select(&mut self, c: Value, x: Value, y: Value) -> Value {
        let w = self.width(x);
        self.op(OpKind::Select, vec![c, x, y], w)
    }
    /// `c ? k : y` for a constant `k`.
    pub fn select_c(&mut self, c: Value, k: u64, y: Value) -> Value {
        let w = self.width(y);
        let k = self.c(k, w);
        self.select(c, k, y)
    }

    /// `x` zero-extended or truncated to `w` bits.
    pub fn zext(&mut self, x: Value, w: u32) -> Value {
        let xw = self.width(x);
        match xw.cmp(&w) {
            std::cmp::Ordering::Less => self.op(OpKind::Cast(CastOp::Zext), vec![x], w),
            std::cmp::Ordering::Greater => self.op(OpKind::Cast(CastOp::Trunc), vec![x], w),
            std::cmp::Ordering::Equal => x,
        }
    }
    /// `x` sign-extended or truncated to `w` bits.
    pub fn sext(&mut self, x: Value, w: u32) -> Value {
        let xw = self.width(x);
        match xw.cmp(&w) {
            std::cmp::Ordering::Less => self.op(OpKind::Cast(CastOp::Sext), vec![x], w),
            std::cmp::Ordering::Greater => self.op(OpKind::Cast(CastOp::Trunc), vec![x], w),
            std::cmp::Ordering::Equal => x,
        }
    }

    /// Bits `lo..lo + n` of `x`, as an `n`-bit value (wiring).
    pub fn bits(&mut self, x: Value, lo: u32, n: u32) -> Value {
        let shifted = if lo == 0 { x } else { self.lshr_c(x, lo) };
        self.zext(shifted, n)
    }
    /// Bit `i` of `x`.
    pub fn bit(&mut self, x: Value, i: u32) -> Value {
        self.bits(x, i, 1)
    }
    /// `{hi, lo}`: `hi` above the `lo`'s bits, `w` bits wide in all.
    pub fn concat(&mut self, hi: Value, lo: Value) -> Value {
        let (hw, lw) = (self.width(hi), self.width(lo));
        let w = hw + lw;
        let h = self.zext(hi, w);
        let h = self.shl_c(h, lw);
        let l = self.zext(lo, w);
        self.or(h, l)
    }

    /// Whether `x` is not zero (1 bit).
    pub fn any(&mut self, x: Value) -> Value {
        self.ne_c(x, 0)
    }

    /// The leading zeros of `x` (its width when `x` is 0) as a `count_width`-bit value: a tree
    /// over halves, each node's count its upper half's zero flag above the count of the half
    /// that holds the leading one. Every zero flag tests the original bits, so all the count's
    /// bits are known a few LUT levels after `x`, its top bit first.
    pub fn leading_zeros(&mut self, x: Value, count_width: u32) -> Value {
        let w = self.width(x);
        let n = w.next_power_of_two();
        // Padding ones below `x` stop the count at `w`.
        let padded = if n > w {
            let wide = self.zext(x, n);
            let up = self.shl_c(wide, n - w);
            self.or_c(up, (1u64 << (n - w)) - 1)
        } else {
            x
        };
        let count = match self.zeros_tree(padded, 0, n).1 {
            Some(c) => c,
            None => self.not1(padded),
        };
        let cw = self.width(count);
        if cw >= count_width { self.bits(count, 0, count_width) } else { self.zext(count, count_width) }
    }

    /// Whether bits `[lo, lo + n)` of `x` are all zero, and their leading zeros (`log2 n` bits,
    /// `None` for one bit) where they are not.
    fn zeros_tree(&mut self, x: Value, lo: u32, n: u32) -> (Value, Option<Value>) {
        let field = self.bits(x, lo, n);
        let zero = self.eq_c(field, 0);
        if n == 1 {
            return (zero, None);
        }
        let half = n / 2;
        let (upper_zero, upper) = self.zeros_tree(x, lo + half, half);
        let (_, lower) = self.zeros_tree(x, lo, half);
        let count = match (upper, lower) {
            (Some(u), Some(l)) => {
                let below = self.select(upper_zero, l, u);
                self.concat(upper_zero, below)
            }
            _ => upper_zero,
        };
        (zero, Some(count))
    }

    /// `x` shifted left until its top bit is set (0 stays 0), and the shift
    /// ([`Emitter::leading_zeros`] in `count_width` bits).
    pub fn normalize(&mut self, x: Value, count_width: u32) -> (Value, Value) {
        let lz = self.leading_zeros(x, count_width);
        (self.shl(x, lz), lz)
    }

    /// [`Emitter::normalize`] of `x`, stopping where `guard`'s one bit (or none) reaches the
    /// top: the shift is the leading zeros of `x | guard`, so it is never more than the
    /// guard's.
    pub fn normalize_guarded(&mut self, x: Value, guard: Value, count_width: u32) -> (Value, Value) {
        let g = self.or(x, guard);
        let lz = self.leading_zeros(g, count_width);
        (self.shl(x, lz), lz)
    }

    /// `x >> n` (logical) where every bit shifted out is ORed into bit 0 (a sticky bit); `n`
    /// may be any unsigned value, all of `x` shifted out being its sticky bit alone.
    pub fn shift_right_jam(&mut self, x: Value, n: Value) -> Value {
        let w = self.width(x);
        let fits = self.ult_c(n, u64::from(w));
        self.shift_right_jam_fitting(x, n, fits)
    }

    /// `shift_right_jam` given `fits`, whether `n` is below `x`'s width (computed by the
    /// caller where it knows it sooner).
    pub fn shift_right_jam_fitting(&mut self, x: Value, n: Value, fits: Value) -> Value {
        let w = self.width(x);
        let nw = self.width(n);
        let big = self.not1(fits);
        // The count clamped below the width (the range analysis then knows it is).
        let zero = self.c(0, nw);
        let n = self.select(fits, n, zero);
        let shift = self.zext(n, w.max(nw));
        let shift = self.zext(shift, w);
        let shifted = self.lshr(x, shift);
        // The bits shifted out: below `shift`, a thermometer code of the count (each bit one
        // comparison of the count, no carry chain).
        let ones = self.c(u64::MAX, w);
        let kept_mask = self.shl(ones, shift);
        let lost_mask = self.not(kept_mask);
        let lost = self.and(x, lost_mask);
        let sticky = self.any(lost);
        let sticky = self.zext(sticky, w);
        let jammed = self.or(shifted, sticky);
        let all = self.any(x);
        let all = self.zext(all, w);
        self.select(big, all, jammed)
    }

    /// The 1-bit negation of `x`.
    pub fn not1(&mut self, x: Value) -> Value {
        self.not(x)
    }
    /// `a & b` of 1-bit values.
    pub fn and1(&mut self, a: Value, b: Value) -> Value {
        self.and(a, b)
    }
    pub fn or1(&mut self, a: Value, b: Value) -> Value {
        self.or(a, b)
    }
}

/// The parts of a binary32 value.
#[derive(Clone, Copy, Debug)]
pub struct Unpacked {
    pub sign: Value,
    /// The biased exponent field (8 bits).
    pub exp: Value,
    /// The fraction field (23 bits).
    pub frac: Value,
    /// Exponent all ones / zero.
    pub exp_max: Value,
    pub exp_zero: Value,
    pub frac_zero: Value,
    pub nan: Value,
    pub inf: Value,
    pub zero: Value,
    /// The significand with its hidden bit (24 bits; no hidden bit for a subnormal).
    pub sig: Value,
    /// The exponent a subnormal shares with the smallest normal (1), else the field; as a
    /// signed `EXP_WIDTH`-bit value.
    pub e: Value,
}

/// The width of signed exponent arithmetic: binary32's exponents and every intermediate
/// exponent of the expansions (a product's, a quotient's, a normalized subnormal's) fit.
pub const EXP_WIDTH: u32 = 12;

/// Splits binary32 value `x` into its parts.
pub fn unpack(e: &mut Emitter, x: Value) -> Unpacked {
    unpack_format(e, x, 8, 23)
}

/// Splits a float of `exp_bits` exponent and `frac_bits` fraction bits into its parts.
pub fn unpack_format(e: &mut Emitter, x: Value, exp_bits: u32, frac_bits: u32) -> Unpacked {
    let sign = e.bit(x, exp_bits + frac_bits);
    let exp = e.bits(x, frac_bits, exp_bits);
    let frac = e.bits(x, 0, frac_bits);
    let exp_max = e.eq_c(exp, (1 << exp_bits) - 1);
    let exp_zero = e.eq_c(exp, 0);
    let frac_zero = e.eq_c(frac, 0);
    let frac_set = e.not1(frac_zero);
    let nan = e.and1(exp_max, frac_set);
    let inf = e.and1(exp_max, frac_zero);
    let zero = e.and1(exp_zero, frac_zero);
    let hidden = e.not1(exp_zero);
    let sig = e.concat(hidden, frac);
    let field = e.zext(exp, EXP_WIDTH);
    let one = e.c(1, EXP_WIDTH);
    let biased = e.select(exp_zero, one, field);
    Unpacked { sign, exp, frac, exp_max, exp_zero, frac_zero, nan, inf, zero, sig, e: biased }
}

/// A rounding direction, as the expansions take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    NearestEven,
    TowardZero,
    Up,
    Down,
}

impl From<Round> for Rounding {
    fn from(r: Round) -> Rounding {
        match r {
            Round::NearestEven => Rounding::NearestEven,
            Round::TowardZero => Rounding::TowardZero,
            Round::Up => Rounding::Up,
            Round::Down => Rounding::Down,
        }
    }
}

/// The float nearest (in direction `mode`) to `(-1)^sign · sig/2^30 · 2^(exp - bias)` in a
/// format of `exp_bits` exponent and `frac_bits` fraction bits (`bias` = 2^(exp_bits-1) - 1):
/// `sig` is 32 bits with its leading one at bit 30 (or 0, the value then zero; or smaller,
/// for a value already subnormal: `exp` then 1), its bits below the significand's `frac_bits +
/// 1` rounding bits; `exp` is a signed `EXP_WIDTH`-bit biased exponent. Where `may_be_tiny`, a
/// result below the smallest normal is shifted right into a subnormal first, with sticky bits
/// (a caller that never makes `exp` < 1 passes false and saves that shifter); one above the
/// largest finite is infinity (or the largest finite, as the rounding direction says); a zero
/// `sig` is a signed zero whatever `exp`. Returns the packed bits.
///
/// The packing is one increment: the exponent field beside the fraction (0 where the hidden
/// bit is clear, a subnormal), plus the rounding's 0 or 1, whose carry out of the fraction
/// is the next exponent (and out of the largest, infinity).
#[allow(clippy::too_many_arguments)]
pub fn round_pack(
    e: &mut Emitter,
    sign: Value,
    exp: Value,
    sig: Value,
    mode: Rounding,
    exp_bits: u32,
    frac_bits: u32,
    may_be_tiny: bool,
) -> Value {
    let tiny = may_be_tiny.then(|| Denormal::of(e, exp));
    round_pack_with(e, sign, exp, tiny, sig, mode, exp_bits, frac_bits)
}

/// Whether an exponent is below the normal range, and the right shift that takes its
/// significand to the subnormal exponent (1): computed from the exponent alone, so an
/// expansion that knows its candidate exponents early computes them beside the significand's
/// datapath and selects ([`Denormal::select`]).
#[derive(Clone, Copy, Debug)]
pub struct Denormal {
    pub tiny: Value,
    pub by: Value,
}

impl Denormal {
    pub fn of(e: &mut Emitter, exp: Value) -> Denormal {
        let tiny = e.sle_c(exp, 0);
        let one = e.c(1, EXP_WIDTH);
        let by = e.sub(one, exp);
        Denormal { tiny, by }
    }

    pub fn select(e: &mut Emitter, c: Value, x: Denormal, y: Denormal) -> Denormal {
        Denormal { tiny: e.select(c, x.tiny, y.tiny), by: e.select(c, x.by, y.by) }
    }
}

/// [`round_pack`] with the subnormal shift decided by `tiny` (`None`: the exponent is never
/// below 1).
#[allow(clippy::too_many_arguments)]
pub fn round_pack_with(
    e: &mut Emitter,
    sign: Value,
    exp: Value,
    tiny: Option<Denormal>,
    sig: Value,
    mode: Rounding,
    exp_bits: u32,
    frac_bits: u32,
) -> Value {
    let total = 1 + exp_bits + frac_bits;
    let extra = 30 - frac_bits; // rounding bits below the significand
    let exp_all = (1u64 << exp_bits) - 1;
    let (sig, exp) = match tiny {
        // Subnormal: shift right by 1 - exp (at least), the exponent then 1.
        Some(Denormal { tiny, by }) => {
            let one = e.c(1, EXP_WIDTH);
            let denormal = e.shift_right_jam(sig, by);
            (e.select(tiny, denormal, sig), e.select(tiny, one, exp))
        }
        None => (sig, exp),
    };
    let hidden = e.bit(sig, 30);
    let frac = e.bits(sig, extra, frac_bits);
    let guard = e.bit(sig, extra - 1);
    let rest = e.bits(sig, 0, extra - 1);
    let sticky = e.any(rest);
    let lsb = e.bit(sig, extra);
    let inexact = e.or1(guard, sticky);
    let round_up = match mode {
        Rounding::NearestEven => {
            let tie_or_above = e.or1(sticky, lsb);
            e.and1(guard, tie_or_above)
        }
        Rounding::TowardZero => e.c(0, 1),
        Rounding::Up => {
            let positive = e.not1(sign);
            e.and1(inexact, positive)
        }
        Rounding::Down => e.and1(inexact, sign),
    };
    let field = e.zext(exp, exp_bits);
    let zero_field = e.c(0, exp_bits);
    let field = e.select(hidden, field, zero_field);
    let base = e.concat(field, frac);
    let inc = e.zext(round_up, total - 1);
    let rounded = e.add(base, inc);
    // Overflow: an exponent past the largest, or a rounding carry into the all-ones field.
    let exp_ok = e.slt_c(exp, exp_all as i64);
    let exp_over = e.not1(exp_ok);
    let top = e.bits(rounded, frac_bits, exp_bits);
    let carried_over = e.eq_c(top, exp_all);
    let over = e.or1(exp_over, carried_over);
    let nonzero = e.any(sig);
    let over = e.and1(over, nonzero);
    let saturate = match mode {
        Rounding::NearestEven => e.c(0, 1),
        Rounding::TowardZero => e.c(1, 1),
        Rounding::Up => sign,
        Rounding::Down => e.not1(sign),
    };
    let inf_bits = exp_all << frac_bits;
    let huge = e.c(inf_bits, total - 1);
    let max_finite = e.c(inf_bits - 1, total - 1);
    let limit = e.select(saturate, max_finite, huge);
    let magnitude = e.select(over, limit, rounded);
    e.concat(sign, magnitude)
}
