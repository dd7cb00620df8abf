//! `+ - * /`, `sqrt` and `fma` of binary32, correctly rounded to nearest even.

use super::{Denormal, EXP_WIDTH, Emitter, NAN, Rounding, Unpacked, round_pack, round_pack_with, unpack};
use crate::ir::Value;

const RNE: Rounding = Rounding::NearestEven;

/// `a + b`: the operand of the smaller exponent aligned to the other (its bits shifted out
/// kept as a sticky bit), added or subtracted on 27 bits — the 24 of the significand and a
/// guard, a round and a sticky bit —, a negative difference (equal exponents) taken from a
/// second subtraction in the other order, the difference normalized no further than the
/// smallest normal's exponent (so a subnormal result is in place and rounding needs no
/// shifter of its own), rounded. Besides the datapath only three bits reach the end: whether
/// the result is the NaN, an infinity, and its sign.
pub fn fadd(e: &mut Emitter, a: Value, b: Value) -> Value {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    // The larger exponent first; on equal exponents `a`.
    let swap = e.slt(ua.e, ub.e);
    let ex = e.select(swap, ub.e, ua.e);
    let dab = e.sub(ua.e, ub.e);
    let dba = e.sub(ub.e, ua.e);
    let d = e.select(swap, dba, dab);
    let sig_x = e.select(swap, ub.sig, ua.sig);
    let sig_y = e.select(swap, ua.sig, ub.sig);
    let sign_x = e.select(swap, ub.sign, ua.sign);
    let sign_y = e.select(swap, ua.sign, ub.sign);
    let sx = e.zext(sig_x, 28);
    let sx = e.shl_c(sx, 3);
    let sy = e.zext(sig_y, 28);
    let sy = e.shl_c(sy, 3);
    let (fits_ab, fits_ba) = (e.ult_c(dab, 28), e.ult_c(dba, 28));
    let fits = e.select(swap, fits_ba, fits_ab);
    let sy = e.shift_right_jam_fitting(sy, d, fits);
    let same_sign = e.eq(sign_x, sign_y);
    // Same signs: the sum, a bit wider at most, brought back to bit 26.
    let sum = e.add(sx, sy);
    let carry = e.bit(sum, 27);
    let one = e.c(1, 28);
    let halved = e.shift_right_jam(sum, one);
    let sum_sig = e.select(carry, halved, sum);
    // What depends on the larger exponent alone is computed from both operands' and
    // selected, so it does not wait for the exponent compare.
    let (e1a, e1b) = (e.add_c(ua.e, 1), e.add_c(ub.e, 1));
    let e1 = e.select(swap, e1b, e1a);
    let sum_exp = e.select(carry, e1, ex);
    // Different signs: |x - y|, the borrow saying that y was the larger (equal exponents).
    let xy = e.sub(sx, sy);
    let yx = e.sub(sy, sx);
    let borrow = e.ult(sx, sy);
    let diff = e.select(borrow, yx, xy);
    // Normalized to bit 26, shifted by at most ex - 1: a guard bit at position 27 - (ex - 1)
    // of the doubled difference stops the normalizer there.
    let diff2 = e.shl_c(diff, 1);
    let guard_a = normalizer_guard(e, &ua);
    let guard_b = normalizer_guard(e, &ub);
    let guard = e.select(swap, guard_b, guard_a);
    let (norm, lz) = e.normalize_guarded(diff2, guard, 5);
    let diff_sig = e.lshr_c(norm, 1);
    let lz = e.zext(lz, EXP_WIDTH);
    let diff_exp = e.sub(ex, lz);
    let sig = e.select(same_sign, sum_sig, diff_sig);
    let exp = e.select(same_sign, sum_exp, diff_exp);
    let sig = e.zext(sig, 32);
    let sig = e.shl_c(sig, 4);
    // The sign: x's, or y's where it was the larger; an exact zero is +0 (rounding to
    // nearest), -0 only when both operands are -0.
    let differ = e.not1(same_sign);
    let y_wins = e.and1(differ, borrow);
    let sign = e.select(y_wins, sign_y, sign_x);
    let exact_zero = e.eq_c(sig, 0);
    let both_negative = e.and1(ua.sign, ub.sign);
    let sign = e.select(exact_zero, both_negative, sign);
    let rounded = round_pack(e, sign, exp, sig, RNE, 8, 23, false);
    // Infinities and NaNs.
    let inf_minus_inf = e.and1(ua.inf, ub.inf);
    let opposite = e.ne(ua.sign, ub.sign);
    let inf_minus_inf = e.and1(inf_minus_inf, opposite);
    let any_nan = e.or1(ua.nan, ub.nan);
    let nan = e.or1(any_nan, inf_minus_inf);
    let any_inf = e.or1(ua.inf, ub.inf);
    let inf_sign = e.select(ua.inf, ua.sign, ub.sign);
    let inf_bits = e.c(0x7f80_0000, 31);
    let signed_inf = e.concat(inf_sign, inf_bits);
    let r = e.select(any_inf, signed_inf, rounded);
    e.select_c(nan, NAN, r)
}

/// The guard bit that stops `fadd`'s normalizer at the subnormal exponent for a result of
/// `u`'s exponent: bit 27 - (max(exp, 1) - 1) of the doubled difference, none where that is
/// outside it. Computed from the 8-bit field (28 - exp, or 27 for a subnormal), so that it
/// takes one short subtraction beside the exponent compare.
fn normalizer_guard(e: &mut Emitter, u: &Unpacked) -> Value {
    let in_range = e.ult_c(u.exp, 29);
    let c28 = e.c(28, 8);
    let at = e.sub(c28, u.exp);
    let c27 = e.c(27, 8);
    let at = e.select(u.exp_zero, c27, at);
    let nowhere = e.c(0, 8);
    let at = e.select(in_range, at, nowhere);
    let at = e.zext(at, 28);
    let guard = e.c(1, 28);
    let guard = e.shl(guard, at);
    let none = e.c(0, 28);
    e.select(in_range, guard, none)
}

/// The special results shared by `*` and `/`: a NaN operand, or the pair of operands that make
/// a NaN, gives the NaN; otherwise `inf` and `zero` say which operand kinds give a signed
/// infinity or zero. Returns the result given the rounded finite one.
fn special(e: &mut Emitter, sign: Value, nan: Value, inf: Value, zero: Value, finite: Value) -> Value {
    let inf_bits = e.c(0x7f80_0000, 31);
    let zero_bits = e.c(0, 31);
    let signed_inf = e.concat(sign, inf_bits);
    let signed_zero = e.concat(sign, zero_bits);
    let r = e.select(zero, signed_zero, finite);
    let r = e.select(inf, signed_inf, r);
    e.select_c(nan, NAN, r)
}

/// `a * b`: the product of the normalized significands (a subnormal's leading zeros counted
/// and shifted out first), whose leading one is at bit 47 or 46, rounded. Both candidate
/// exponents, and whether each is below the normal range, are computed beside the multiply;
/// after it a select picks the product's alignment and its exponent.
pub fn fmul(e: &mut Emitter, a: Value, b: Value) -> Value {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    let sign = e.xor(ua.sign, ub.sign);
    let (ma, ea) = normalized(e, &ua);
    let (mb, eb) = normalized(e, &ub);
    let ma = e.zext(ma, 48);
    let mb = e.zext(mb, 48);
    let p = e.mul(ma, mb);
    // p/2^47 · 2^(ea + eb - 253): the biased exponent is ea + eb - 126 with the leading one at
    // bit 47, one less at bit 46.
    let sum = e.add(ea, eb);
    let exp_high = e.add_c(sum, -126);
    let exp_low = e.add_c(sum, -127);
    let tiny_high = Denormal::of(e, exp_high);
    let tiny_low = Denormal::of(e, exp_low);
    let top = e.bit(p, 47);
    // The top 30 bits from the leading one, above a sticky bit of the rest.
    let high = {
        let bits = e.bits(p, 18, 30);
        let rest = e.bits(p, 0, 18);
        let sticky = e.any(rest);
        e.concat(bits, sticky)
    };
    let low = {
        let bits = e.bits(p, 17, 30);
        let rest = e.bits(p, 0, 17);
        let sticky = e.any(rest);
        e.concat(bits, sticky)
    };
    let sig = e.select(top, high, low);
    let sig = e.zext(sig, 32);
    let exp = e.select(top, exp_high, exp_low);
    let tiny = Denormal::select(e, top, tiny_high, tiny_low);
    let finite = round_pack_with(e, sign, exp, Some(tiny), sig, RNE, 8, 23);
    let inf_times_zero = {
        let l = e.and1(ua.inf, ub.zero);
        let r = e.and1(ua.zero, ub.inf);
        e.or1(l, r)
    };
    let any_nan = e.or1(ua.nan, ub.nan);
    let nan = e.or1(any_nan, inf_times_zero);
    let inf = e.or1(ua.inf, ub.inf);
    let zero = e.or1(ua.zero, ub.zero);
    special(e, sign, nan, inf, zero, finite)
}

/// A significand with its leading one at bit 23 and the exponent that keeps its value: a
/// subnormal's normalized, a normal's unchanged.
fn normalized(e: &mut Emitter, u: &Unpacked) -> (Value, Value) {
    let (sig, lz) = e.normalize(u.sig, 5);
    let lz = e.zext(lz, EXP_WIDTH);
    (sig, e.sub(u.e, lz))
}

/// `a / b`: the quotient of the normalized significands, `(ma << 26) / mb`, has 26 or 27 bits
/// (24 and the guard and round bits), the remainder's being non-zero the sticky bit: a
/// restoring division, one quotient bit per step, each step one 26-bit subtraction whose
/// borrow is the bit (a pipeline builds one step per stage).
pub fn fdiv(e: &mut Emitter, a: Value, b: Value) -> Value {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    let sign = e.xor(ua.sign, ub.sign);
    let (ma, ea) = normalized(e, &ua);
    let (mb, eb) = normalized(e, &ub);
    let d = e.zext(mb, 26);
    let mut r = e.zext(ma, 26); // below 2 mb throughout
    let mut q = e.c(0, 27);
    for i in (0..27).rev() {
        let diff = e.sub(r, d);
        let borrow = e.bit(diff, 25);
        let bit = e.not1(borrow);
        r = e.select(borrow, r, diff);
        let bit = e.zext(bit, 27);
        let bit = e.shl_c(bit, i);
        q = e.or(q, bit);
        if i > 0 {
            r = e.shl_c(r, 1);
        }
    }
    let sticky = e.any(r);
    let q = e.zext(q, 32);
    let top = e.bit(q, 26);
    let q4 = e.shl_c(q, 4);
    let q5 = e.shl_c(q, 5);
    let sig = e.select(top, q4, q5);
    let sticky = e.zext(sticky, 32);
    let sig = e.or(sig, sticky);
    let exp = e.sub(ea, eb);
    let exp_top = e.add_c(exp, 127);
    let exp_low = e.add_c(exp, 126);
    let exp = e.select(top, exp_top, exp_low);
    let finite = round_pack(e, sign, exp, sig, RNE, 8, 23, true);
    let zero_by_zero = e.and1(ua.zero, ub.zero);
    let inf_by_inf = e.and1(ua.inf, ub.inf);
    let any_nan = e.or1(ua.nan, ub.nan);
    let nan = e.or1(any_nan, zero_by_zero);
    let nan = e.or1(nan, inf_by_inf);
    let inf = e.or1(ua.inf, ub.zero);
    let zero = e.or1(ua.zero, ub.inf);
    special(e, sign, nan, inf, zero, finite)
}

/// `sqrt(a)`: the integer square root of the normalized significand (shifted left by one more
/// for an odd exponent) with 25 bits, digit by digit, the remainder's being non-zero the sticky
/// bit; `sqrt(-0)` is -0, the root of a negative number a NaN.
pub fn fsqrt(e: &mut Emitter, a: Value) -> Value {
    let ua = unpack(e, a);
    let (m, ea) = normalized(e, &ua);
    // a = m/2^23 · 2^(ea - 127). With ea - 127 = 2k (+1), sqrt(a) = sqrt(m · 2^(1)?) ...: take
    // x = m << 25 (ea odd-unbiased: m << 26), whose root has 25 bits.
    let unbiased = e.add_c(ea, -127);
    let odd = e.bit(unbiased, 0);
    let x = e.zext(m, 52);
    let x25 = e.shl_c(x, 25);
    let x26 = e.shl_c(x, 26);
    let x = e.select(odd, x26, x25);
    // Restoring digit recurrence: two bits of x per root bit, 26 root bits from the top.
    let mut root = e.c(0, 28);
    let mut rem = e.c(0, 30);
    for i in (0..26).rev() {
        let pair = e.bits(x, 2 * i, 2);
        let shifted = e.shl_c(rem, 2);
        let pair = e.zext(pair, 30);
        let cur = e.or(shifted, pair);
        let r4 = e.zext(root, 30);
        let r4 = e.shl_c(r4, 2);
        let trial = e.or_c(r4, 1);
        // One subtraction a bit wider: its borrow says whether the trial fits.
        let wide_cur = e.zext(cur, 31);
        let wide_trial = e.zext(trial, 31);
        let diff = e.sub(wide_cur, wide_trial);
        let borrow = e.bit(diff, 30);
        let fits = e.not1(borrow);
        let less = e.zext(diff, 30);
        rem = e.select(fits, less, cur);
        let r2 = e.shl_c(root, 1);
        let r2 = e.zext(r2, 28);
        let bit = e.zext(fits, 28);
        root = e.or(r2, bit);
    }
    let sticky = e.any(rem);
    // The root has its leading one at bit 25: 24 bits, the guard bit and one more.
    let root = e.zext(root, 32);
    let sig = e.shl_c(root, 6);
    let sticky = e.zext(sticky, 32);
    let sig = e.or(sig, sticky);
    // The exponent: floor((ea - 127) / 2) + 127.
    let odd_e = e.zext(odd, EXP_WIDTH);
    let even = e.sub(unbiased, odd_e);
    let half = arithmetic_half(e, even);
    let exp = e.add_c(half, 127);
    let positive = e.c(0, 1);
    let finite = round_pack(e, positive, exp, sig, RNE, 8, 23, false);
    let nonzero = e.not1(ua.zero);
    let negative = e.and1(ua.sign, nonzero);
    let nan = e.or1(ua.nan, negative);
    let r = e.select(ua.zero, a, finite);
    let plus = e.not1(ua.sign);
    let inf = e.and1(ua.inf, plus);
    let r = e.select(inf, a, r);
    e.select_c(nan, NAN, r)
}

/// `x / 2` of an even signed exponent.
fn arithmetic_half(e: &mut Emitter, x: Value) -> Value {
    let shifted = e.lshr_c(x, 1);
    let top = e.bit(x, EXP_WIDTH - 1);
    let top = e.zext(top, EXP_WIDTH);
    let top = e.shl_c(top, EXP_WIDTH - 1);
    e.or(shifted, top)
}

/// `a - b`: `a + (-b)`.
pub fn fsub(e: &mut Emitter, a: Value, b: Value) -> Value {
    let flipped = e.xor_c(b, 0x8000_0000);
    fadd(e, a, flipped)
}

/// `fma(a, b, c)`: `a * b + c` rounded once. The exact 48-bit product and `c`'s significand
/// are aligned in a window wide enough that the sum is exact before its sticky bit: the
/// product with 24 bits of headroom above it and 2 below, `c` shifted into place or kept
/// as sticky bits when far below. Written over two 64-bit halves where a sum is wider.
pub fn fma(e: &mut Emitter, a: Value, b: Value, c: Value) -> Value {
    let (ua, ub, uc) = (unpack(e, a), unpack(e, b), unpack(e, c));
    let psign = e.xor(ua.sign, ub.sign);
    // The product: p/2^46 · 2^(ea + eb - 254), p < 2^48.
    let ma = e.zext(ua.sig, 48);
    let mb = e.zext(ub.sig, 48);
    let p = e.mul(ma, mb);
    // Both as fixed point numbers with a common exponent: the larger exponent's value at bit
    // 60 of a 64-bit window (so a 48-bit product and a carry fit), the other shifted right
    // with its bits below the window kept as a sticky bit. `pe` is the exponent of bit 46 of
    // `p` (the product's leading place when both operands are normal), `ce` that of bit 23
    // of `c`'s significand.
    let pe = e.add(ua.e, ub.e);
    let pe = e.add_c(pe, -127);
    let ce = uc.e;
    // Place the product with bit 46 at bit 60 (shift 14) and c with bit 23 at bit 60 (shift
    // 37), then shift the one with the smaller exponent right by the difference.
    let p64 = e.zext(p, 64);
    let p64 = e.shl_c(p64, 14);
    let c64 = e.zext(uc.sig, 64);
    let c64 = e.shl_c(c64, 37);
    let p_larger = e.sle(ce, pe);
    let diff_pc = e.sub(pe, ce);
    let diff_cp = e.sub(ce, pe);
    let p_shifted = e.shift_right_jam(p64, diff_cp);
    let c_shifted = e.shift_right_jam(c64, diff_pc);
    let pw = e.select(p_larger, p64, p_shifted);
    let cw = e.select(p_larger, c_shifted, c64);
    let exp = e.select(p_larger, pe, ce);
    // Add or subtract the magnitudes; a negative difference flips the sign.
    let same = e.eq(psign, uc.sign);
    let sum = e.add(pw, cw);
    let diff = e.sub(pw, cw);
    let borrow = e.ult(pw, cw);
    let ndiff = e.neg(diff);
    let diff = e.select(borrow, ndiff, diff);
    let mag = e.select(same, sum, diff);
    let differ = e.not1(same);
    let csign_wins = e.and1(differ, borrow);
    let sign = e.select(csign_wins, uc.sign, psign);
    // Normalize to bit 63, then take 31 bits below it with a sticky bit: the value is
    // mag/2^60 · 2^(exp - 127), so after a shift by lz the leading one at 63 is
    // 2^(exp + 3 - lz - 127).
    let (norm, lz) = e.normalize(mag, 7);
    let high = e.bits(norm, 34, 30);
    let low = e.bits(norm, 0, 34);
    let sticky = e.any(low);
    let sig = e.concat(high, sticky);
    let sig = e.zext(sig, 32);
    let lz = e.zext(lz, EXP_WIDTH);
    let exp = e.add_c(exp, 3);
    let exp = e.sub(exp, lz);
    let exact_zero = e.eq_c(mag, 0);
    // An exact zero: -0 only when both the product and c are negative zeros or the exact
    // sum of same-signed zeros; rounding to nearest gives +0 for x - x.
    let zero_sign = e.and1(psign, uc.sign);
    let sign = e.select(exact_zero, zero_sign, sign);
    let finite = round_pack(e, sign, exp, sig, RNE, 8, 23, true);
    // Specials: NaN operands, inf · 0, inf - inf; then infinities; a zero product leaves c
    // (with the sum of signed zeros' sign) and is exact through the finite path otherwise.
    let inf_times_zero = {
        let l = e.and1(ua.inf, ub.zero);
        let r = e.and1(ua.zero, ub.inf);
        e.or1(l, r)
    };
    let pinf = e.or1(ua.inf, ub.inf);
    let opposite = e.not1(same);
    let inf_minus_inf = e.and1(pinf, uc.inf);
    let inf_minus_inf = e.and1(inf_minus_inf, opposite);
    let any_nan = e.or1(ua.nan, ub.nan);
    let any_nan = e.or1(any_nan, uc.nan);
    let nan = e.or1(any_nan, inf_times_zero);
    let nan = e.or1(nan, inf_minus_inf);
    let inf_bits = e.c(0x7f80_0000, 31);
    let product_inf = e.concat(psign, inf_bits);
    // A zero product: the sum is `c` exactly (c's significand may have been shifted out of the
    // window against a product exponent that means nothing), or a signed zero.
    let pzero = e.or1(ua.zero, ub.zero);
    let zero_bits = e.c(0, 31);
    let zero_sum = e.concat(zero_sign, zero_bits);
    let c_or_zero = e.select(uc.zero, zero_sum, c);
    let r = e.select(pzero, c_or_zero, finite);
    let r = e.select(uc.inf, c, r);
    let r = e.select(pinf, product_inf, r);
    e.select_c(nan, NAN, r)
}
