//! Conversions: integers of every width and signedness to binary32 and back (every rounding
//! mode, saturating, NaN giving 0), and binary32 ↔ binary16.

use super::{EXP_WIDTH, Emitter, NAN, Rounding, round_pack, unpack, unpack_format};
use crate::ir::Value;

/// The `w`-bit integer `x` (signed or not) as binary32, rounded in direction `mode`.
pub fn int_to_float(e: &mut Emitter, x: Value, signed: bool, mode: Rounding) -> Value {
    let w = e.width(x);
    let sign = if signed { e.bit(x, w - 1) } else { e.c(0, 1) };
    let negated = e.neg(x);
    let mag = e.select(sign, negated, x);
    // A normalizer as wide as the integer (32 or 64 bits): the leading one at the top.
    let nw = if w <= 32 { 32 } else { 64 };
    let mag = e.zext(mag, nw);
    let (norm, lz) = e.normalize(mag, 7);
    let high = e.bits(norm, nw - 30, 30);
    let low = e.bits(norm, 0, nw - 30);
    let sticky = e.any(low);
    let sig = e.concat(high, sticky);
    let sig = e.zext(sig, 32);
    // The leading one at bit nw - 1 - lz is 2^(nw - 1 - lz): biased 127 + nw - 1 - lz.
    let lz = e.zext(lz, EXP_WIDTH);
    let top = e.c(127 + u64::from(nw) - 1, EXP_WIDTH);
    let exp = e.sub(top, lz);
    let r = round_pack(e, sign, exp, sig, mode, 8, 23, false);
    let zero = e.eq_c(x, 0);
    e.select_c(zero, 0, r)
}

/// The `w`-bit integer (signed or not) nearest to binary32 `x` in direction `mode`, saturated
/// to the integer's range; NaN gives 0.
pub fn float_to_int(e: &mut Emitter, x: Value, signed: bool, w: u32, mode: Rounding) -> Value {
    let u = unpack(e, x);
    // |x| = sig · 2^(e - 150). At e > 190 it is 2^64 or more: saturated whatever the width.
    let huge = {
        let lim = e.c(190, EXP_WIDTH);
        e.slt(lim, u.e)
    };
    let sig = e.zext(u.sig, 64);
    // Left of the point: sig << (e - 150) for e >= 150, exact.
    let up = e.add_c(u.e, -150);
    let left = e.sle_c(up, -1);
    let left = e.not1(left);
    let up64 = e.zext(up, 64);
    let safe = e.and_c(up64, 63);
    let shifted_up = e.shl(sig, safe);
    // Right of the point: (sig << 2) >> (150 - e) with the guard and sticky bits below.
    let c150 = e.c(150, EXP_WIDTH);
    let down = e.sub(c150, u.e);
    let down = e.zext(down, EXP_WIDTH);
    let s2 = e.shl_c(sig, 2);
    let t = e.shift_right_jam(s2, down);
    let int = e.lshr_c(t, 2);
    let guard = e.bit(t, 1);
    let sticky = e.bit(t, 0);
    let inexact = e.or1(guard, sticky);
    let inc = match mode {
        Rounding::NearestEven => {
            let odd = e.bit(int, 0);
            let tie_or_more = e.or1(sticky, odd);
            e.and1(guard, tie_or_more)
        }
        Rounding::TowardZero => e.c(0, 1),
        Rounding::Up => {
            let positive = e.not1(u.sign);
            e.and1(inexact, positive)
        }
        Rounding::Down => e.and1(inexact, u.sign),
    };
    let inc = e.zext(inc, 64);
    let rounded = e.add(int, inc);
    let mag = e.select(left, shifted_up, rounded);
    // Saturate: the largest magnitude each sign may have.
    let (pos_max, neg_max) = if signed {
        let top = 1u64 << (w - 1);
        (top - 1, top)
    } else {
        (crate::ir::op::mask(w), 0)
    };
    let pos_limit = e.c(pos_max, 64);
    let neg_limit = e.c(neg_max, 64);
    let limit = e.select(u.sign, neg_limit, pos_limit);
    let over = e.ult(limit, mag);
    let over = e.or1(over, huge);
    let mag = e.select(over, limit, mag);
    let negated = e.neg(mag);
    let value = e.select(u.sign, negated, mag);
    let value = e.select_c(u.nan, 0, value);
    e.zext(value, w)
}

/// A float of `from` bits (16 or 32) as one of `to` bits, rounded in direction `mode`; a NaN
/// is the target's canonical NaN.
pub fn resize(e: &mut Emitter, x: Value, from: u32, to: u32, mode: Rounding) -> Option<Value> {
    Some(match (from, to) {
        (a, b) if a == b => x,
        (16, 32) => half_to_float(e, x),
        (32, 16) => float_to_half(e, x, mode),
        _ => return None,
    })
}

fn half_to_float(e: &mut Emitter, x: Value) -> Value {
    let u = unpack_format(e, x, 5, 10);
    let (norm, lz) = e.normalize(u.sig, 4);
    let sig = e.zext(norm, 32);
    let sig = e.shl_c(sig, 20);
    let lz = e.zext(lz, EXP_WIDTH);
    let exp = e.add_c(u.e, 112);
    let exp = e.sub(exp, lz);
    let finite = round_pack(e, u.sign, exp, sig, Rounding::NearestEven, 8, 23, false);
    let inf = e.c(0x7f80_0000, 31);
    let zero = e.c(0, 31);
    let signed_inf = e.concat(u.sign, inf);
    let signed_zero = e.concat(u.sign, zero);
    let r = e.select(u.zero, signed_zero, finite);
    let r = e.select(u.inf, signed_inf, r);
    e.select_c(u.nan, NAN, r)
}

fn float_to_half(e: &mut Emitter, x: Value, mode: Rounding) -> Value {
    let u = unpack(e, x);
    let (norm, lz) = e.normalize(u.sig, 5);
    let sig = e.zext(norm, 32);
    let sig = e.shl_c(sig, 7);
    let lz = e.zext(lz, EXP_WIDTH);
    let exp = e.add_c(u.e, -112);
    let exp = e.sub(exp, lz);
    let finite = round_pack(e, u.sign, exp, sig, mode, 5, 10, true);
    let inf = e.c(0x7c00, 15);
    let zero = e.c(0, 15);
    let signed_inf = e.concat(u.sign, inf);
    let signed_zero = e.concat(u.sign, zero);
    let r = e.select(u.zero, signed_zero, finite);
    let r = e.select(u.inf, signed_inf, r);
    e.select_c(u.nan, 0x7e00, r)
}
