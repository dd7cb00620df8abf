//! The operations of binary32 that work on its fields: rounding to an integral value
//! (`floor`, `ceil`, `trunc`, `round`, `rint`), scaling by a power of two (`ldexp`), the
//! exponent (`ilogb`, `logb`) and the neighbouring value (`nextafter`).

use super::{EXP_WIDTH, Emitter, NAN, Rounding, round_pack, unpack};
use crate::ir::Value;

/// Which integral value [`integral`] rounds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integral {
    Floor,
    Ceil,
    Trunc,
    /// Halfway cases away from zero.
    Round,
    /// Halfway cases to even.
    Rint,
}

/// `x` rounded to an integral value: the fraction bits below the binary point cleared, the
/// integer part's magnitude incremented where the rounding asks (a carry into the exponent is
/// the next power of two, as the bit pattern's order wants).
pub fn integral(e: &mut Emitter, x: Value, how: Integral) -> Value {
    let u = unpack(e, x);
    let field = e.zext(u.exp, EXP_WIDTH);
    // |x| >= 2^23 (or inf, NaN): already integral.
    let whole = {
        let lim = e.c(149, EXP_WIDTH);
        e.slt(lim, field)
    };
    // |x| < 1: the result is 0 or 1 in magnitude.
    let below_one = e.slt_c(field, 127);
    let mag = e.and_c(x, 0x7fff_ffff);
    // Fraction bits: 150 - exp (1..=23) for 1 <= |x| < 2^23.
    let c150 = e.c(150, EXP_WIDTH);
    let nfrac = e.sub(c150, field);
    let nfrac = e.zext(nfrac, 32);
    let nfrac = e.and_c(nfrac, 31);
    let one = e.c(1, 32);
    let unit = e.shl(one, nfrac);
    let mask = e.add_c(unit, -1);
    let fraction = e.and(mag, mask);
    let not_mask = e.not(mask);
    let truncated = e.and(mag, not_mask);
    let has_fraction = e.any(fraction);
    let half = e.lshr_c(unit, 1);
    let up = match how {
        Integral::Trunc => e.c(0, 1),
        Integral::Floor => e.and1(has_fraction, u.sign),
        Integral::Ceil => {
            let positive = e.not1(u.sign);
            e.and1(has_fraction, positive)
        }
        Integral::Round => e.uge(fraction, half),
        Integral::Rint => {
            let more = e.ult(half, fraction);
            let tie = e.eq(fraction, half);
            let odd_bits = e.and(mag, unit);
            let odd = e.any(odd_bits);
            let tie_odd = e.and1(tie, odd);
            e.or1(more, tie_odd)
        }
    };
    let bumped = e.add(truncated, unit);
    let mid = e.select(up, bumped, truncated);
    // |x| < 1: 1 where the rounding goes up, else 0, in magnitude.
    let nonzero = e.not1(u.zero);
    let small_up = match how {
        Integral::Trunc => e.c(0, 1),
        Integral::Floor => e.and1(u.sign, nonzero),
        Integral::Ceil => {
            let positive = e.not1(u.sign);
            e.and1(positive, nonzero)
        }
        Integral::Round => {
            let half_bits = e.c(0x3f00_0000, 32);
            e.uge(mag, half_bits)
        }
        Integral::Rint => {
            let half_bits = e.c(0x3f00_0000, 32);
            e.ult(half_bits, mag)
        }
    };
    let one_bits = e.c(0x3f80_0000, 32);
    let zero_bits = e.c(0, 32);
    let small = e.select(small_up, one_bits, zero_bits);
    let mag = e.select(below_one, small, mid);
    let mag = e.zext(mag, 31);
    let r = e.concat(u.sign, mag);
    let r = e.select(whole, x, r);
    e.select_c(u.nan, NAN, r)
}

/// The exponent `x` has after normalizing (a subnormal's too), unbiased, as a signed
/// `EXP_WIDTH`-bit value, and the normalized significand (leading one at bit 23).
fn exponent(e: &mut Emitter, u: &super::Unpacked) -> (Value, Value) {
    let (sig, lz) = e.normalize(u.sig, 5);
    let lz = e.zext(lz, EXP_WIDTH);
    let exp = e.sub(u.e, lz);
    (e.add_c(exp, -127), sig)
}

/// `ldexp(x, n)`: `x · 2^n` rounded to nearest even (only subnormal results round); NaN gives
/// the NaN, infinities and zeros themselves.
pub fn ldexp(e: &mut Emitter, x: Value, n: Value) -> Value {
    let u = unpack(e, x);
    let (unbiased, sig) = exponent(e, &u);
    // |n| beyond 600 saturates both ways; clamped so the exponent arithmetic does not wrap.
    let nw = e.width(n);
    let hi = e.c(600, nw);
    let lo = e.c((-600i64) as u64, nw);
    let above = e.slt(hi, n);
    let below = e.slt(n, lo);
    let n = e.select(above, hi, n);
    let n = e.select(below, lo, n);
    let n = e.sext(n, EXP_WIDTH);
    let exp = e.add(unbiased, n);
    let exp = e.add_c(exp, 127);
    let sig = e.zext(sig, 32);
    let sig = e.shl_c(sig, 7);
    let r = round_pack(e, u.sign, exp, sig, Rounding::NearestEven, 8, 23, true);
    let special = e.or1(u.zero, u.exp_max);
    let r = e.select(special, x, r);
    e.select_c(u.nan, NAN, r)
}

/// `ilogb(x)` as a 32-bit `int`: `INT_MIN` for 0, `INT_MAX` for infinities and NaN.
pub fn ilogb(e: &mut Emitter, x: Value) -> Value {
    let u = unpack(e, x);
    let (unbiased, _) = exponent(e, &u);
    let r = e.sext(unbiased, 32);
    let r = e.select_c(u.zero, 0x8000_0000, r);
    e.select_c(u.exp_max, 0x7fff_ffff, r)
}

/// `logb(x)`: the exponent as a float; -inf for 0, +inf for infinities, NaN for NaN.
pub fn logb(e: &mut Emitter, x: Value) -> Value {
    let u = unpack(e, x);
    let (unbiased, _) = exponent(e, &u);
    let int = e.sext(unbiased, 32);
    let r = super::int_to_float(e, int, true, Rounding::NearestEven);
    let r = e.select_c(u.zero, 0xff80_0000, r);
    let r = e.select_c(u.inf, 0x7f80_0000, r);
    e.select_c(u.nan, NAN, r)
}

/// `nextafter(x, y)`: the next float after `x` toward `y` (`y` when they are equal, NaN
/// when either is).
pub fn nextafter(e: &mut Emitter, x: Value, y: Value) -> Value {
    let (ux, uy) = (unpack(e, x), unpack(e, y));
    let equal = super::fcmp(e, crate::ir::FCmpOp::Eq, x, y);
    let toward_larger = super::fcmp(e, crate::ir::FCmpOp::Lt, x, y);
    // In sign-magnitude bits: away from zero is +1, toward zero -1; from ±0 the smallest
    // subnormal of y's sign.
    let mag = e.and_c(x, 0x7fff_ffff);
    let positive = e.not1(ux.sign);
    let away = e.eq(toward_larger, positive);
    let inc = e.add_c(x, 1);
    let dec = e.add_c(x, -1);
    let stepped = e.select(away, inc, dec);
    let tiny = e.c(1, 31);
    let from_zero = e.concat(uy.sign, tiny);
    let zero = e.eq_c(mag, 0);
    let r = e.select(zero, from_zero, stepped);
    let r = e.select(equal, y, r);
    let nan = e.or1(ux.nan, uy.nan);
    e.select_c(nan, NAN, r)
}
