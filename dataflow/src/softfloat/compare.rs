//! Comparisons, `fmin`/`fmax` and the magnitude selections of binary32: sign-magnitude
//! comparisons of the bit patterns, no arithmetic.

use super::{Emitter, NAN, unpack};
use crate::ir::{FCmpOp, Value};

/// The comparisons on which everything here is built: (unordered, equal, less), each 1 bit;
/// `equal` and `less` are false when unordered. `-0 == +0`.
fn order(e: &mut Emitter, a: Value, b: Value) -> (Value, Value, Value) {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    let uno = e.or1(ua.nan, ub.nan);
    let ord = e.not1(uno);
    let mag_a = e.and_c(a, 0x7fff_ffff);
    let mag_b = e.and_c(b, 0x7fff_ffff);
    let both_zero = e.and1(ua.zero, ub.zero);
    let same_bits = e.eq(a, b);
    let equal = e.or1(same_bits, both_zero);
    let equal = e.and1(equal, ord);
    // a < b: a negative and b not (unless both zero); both positive and |a| < |b|; both
    // negative and |a| > |b|.
    let mag_less = e.ult(mag_a, mag_b);
    let mag_more = e.ult(mag_b, mag_a);
    let pos_b = e.not1(ub.sign);
    let neg_pos = e.and1(ua.sign, pos_b);
    let not_both_zero = e.not1(both_zero);
    let neg_pos = e.and1(neg_pos, not_both_zero);
    let pos_a = e.not1(ua.sign);
    let both_pos = e.and1(pos_a, pos_b);
    let both_pos = e.and1(both_pos, mag_less);
    let both_neg = e.and1(ua.sign, ub.sign);
    let both_neg = e.and1(both_neg, mag_more);
    let less = e.or1(neg_pos, both_pos);
    let less = e.or1(less, both_neg);
    let less = e.and1(less, ord);
    (uno, equal, less)
}

/// A comparison of two binary32 values (1 bit), NaN operands making every ordered comparison
/// false.
pub fn fcmp(e: &mut Emitter, c: FCmpOp, a: Value, b: Value) -> Value {
    match c {
        FCmpOp::Gt => return fcmp(e, FCmpOp::Lt, b, a),
        FCmpOp::Ge => return fcmp(e, FCmpOp::Le, b, a),
        _ => {}
    }
    let (uno, equal, less) = order(e, a, b);
    match c {
        FCmpOp::Eq => equal,
        FCmpOp::Ne => e.not1(equal),
        FCmpOp::Lt => less,
        FCmpOp::Le => e.or1(less, equal),
        FCmpOp::LtGt => {
            let ord = e.not1(uno);
            let ne = e.not1(equal);
            e.and1(ord, ne)
        }
        FCmpOp::Ord => e.not1(uno),
        FCmpOp::Uno => uno,
        FCmpOp::Gt | FCmpOp::Ge => unreachable!("swapped above"),
    }
}

/// `fmin`: a NaN operand is ignored (two give the NaN), -0 below +0.
pub fn fmin(e: &mut Emitter, a: Value, b: Value) -> Value {
    pick(e, a, b, false)
}

/// `fmax`: a NaN operand is ignored (two give the NaN), +0 above -0.
pub fn fmax(e: &mut Emitter, a: Value, b: Value) -> Value {
    pick(e, a, b, true)
}

fn pick(e: &mut Emitter, a: Value, b: Value, max: bool) -> Value {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    let (_, equal, less) = order(e, a, b);
    // On equal values (±0 with ±0 included), the one whose sign decides: min takes a negative
    // `a`, max a negative `b` (so `a`).
    let tie = if max { ub.sign } else { ua.sign };
    let keep_tie = e.and1(equal, tie);
    let a_wins = if max {
        let (_, _, b_less) = order(e, b, a);
        e.or1(b_less, keep_tie)
    } else {
        e.or1(less, keep_tie)
    };
    let r = e.select(a_wins, a, b);
    let r = e.select(ub.nan, a, r);
    let r = e.select(ua.nan, b, r);
    let both = e.and1(ua.nan, ub.nan);
    e.select_c(both, NAN, r)
}

/// `maxmag` (`max` false: `minmag`): the operand of larger (smaller) magnitude, `fmax`
/// (`fmin`) of the two on equal magnitudes or a NaN.
pub fn magnitude_pick(e: &mut Emitter, a: Value, b: Value, max: bool) -> Value {
    let ma = e.and_c(a, 0x7fff_ffff);
    let mb = e.and_c(b, 0x7fff_ffff);
    let ma_f = ma;
    let mb_f = mb;
    let (_, _, a_smaller) = order(e, ma_f, mb_f);
    let (_, _, b_smaller) = order(e, mb_f, ma_f);
    let tie = pick(e, a, b, max);
    let (first, second) = if max { (b_smaller, a_smaller) } else { (a_smaller, b_smaller) };
    let r = e.select(second, b, tie);
    e.select(first, a, r)
}

/// `fdim`: `a - b` when `a > b`, +0 otherwise; a NaN operand gives the NaN.
pub fn fdim(e: &mut Emitter, a: Value, b: Value) -> Value {
    let (ua, ub) = (unpack(e, a), unpack(e, b));
    let (_, _, b_less) = order(e, b, a);
    let diff = super::fsub(e, a, b);
    let zero = e.c(0, 32);
    let r = e.select(b_less, diff, zero);
    let nan = e.or1(ua.nan, ub.nan);
    e.select_c(nan, NAN, r)
}
