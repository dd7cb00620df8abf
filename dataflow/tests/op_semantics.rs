#![allow(clippy::unwrap_used)]
//! Property tests: `ir::op::eval` against an independent reference written with `i128`
//! arithmetic, on random values of every width C produces, including edge values.

use kiln_dataflow::ir::op::{eval, mask};
use kiln_dataflow::ir::{BinOp, CastOp, CmpOp, OpKind};
use quickcheck::{Arbitrary, Gen, QuickCheck};

#[derive(Clone, Debug)]
struct Case {
    width: u32,
    a: u64,
    b: u64,
}

const WIDTHS: [u32; 5] = [1, 8, 16, 32, 64];

fn edge(g: &mut Gen, w: u32) -> u64 {
    let m = mask(w);
    let half = if w == 64 { 1u64 << 63 } else { 1u64 << (w - 1) };
    let choices = [0, 1, m, half, half.wrapping_sub(1) & m, 2 & m, (w as u64) & m, (w as u64 + 1) & m];
    if bool::arbitrary(g) { *g.choose(&choices).unwrap_or(&0) } else { u64::arbitrary(g) & m }
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let width = *g.choose(&WIDTHS).unwrap_or(&32);
        Case { width, a: edge(g, width), b: edge(g, width) }
    }
}

fn signed(v: u64, w: u32) -> i128 {
    let v = (v & mask(w)) as i128;
    if w < 128 && v >= (1i128 << (w - 1)) { v - (1i128 << w) } else { v }
}

fn wrap(v: i128, w: u32) -> u64 {
    (v as u64) & mask(w)
}

fn reference(op: BinOp, c: &Case) -> u64 {
    let w = c.width;
    let (ua, ub) = ((c.a & mask(w)) as i128, (c.b & mask(w)) as i128);
    let (sa, sb) = (signed(c.a, w), signed(c.b, w));
    let count = (ub % w as i128) as u32;
    match op {
        BinOp::Add => wrap(ua + ub, w),
        BinOp::Sub => wrap(ua - ub, w),
        BinOp::Mul => wrap(ua.wrapping_mul(ub), w),
        BinOp::And => wrap(ua & ub, w),
        BinOp::Or => wrap(ua | ub, w),
        BinOp::Xor => wrap(ua ^ ub, w),
        BinOp::UDiv => {
            if ub == 0 {
                mask(w)
            } else {
                wrap(ua / ub, w)
            }
        }
        BinOp::URem => {
            if ub == 0 {
                wrap(ua, w)
            } else {
                wrap(ua % ub, w)
            }
        }
        BinOp::SDiv => {
            if sb == 0 {
                mask(w)
            } else {
                wrap(sa / sb, w)
            }
        }
        BinOp::SRem => {
            if sb == 0 {
                wrap(sa, w)
            } else {
                wrap(sa % sb, w)
            }
        }
        BinOp::Shl => wrap(ua.wrapping_shl(count), w),
        BinOp::LShr => wrap(ua >> count, w),
        BinOp::AShr => wrap(sa >> count, w),
    }
}

#[test]
fn binary_ops_match_reference() {
    fn prop(c: Case) -> bool {
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::UDiv,
            BinOp::URem,
            BinOp::SDiv,
            BinOp::SRem,
            BinOp::Shl,
            BinOp::LShr,
            BinOp::AShr,
        ];
        ops.iter().all(|op| {
            let got = eval(&OpKind::Binary(*op), &[c.a, c.b], &[c.width, c.width], c.width);
            let want = reference(*op, &c);
            if got != want {
                eprintln!("{op:?} {c:?}: got {got:#x}, want {want:#x}");
            }
            got == want
        })
    }
    QuickCheck::new().tests(3000).quickcheck(prop as fn(Case) -> bool);
}

#[test]
fn comparisons_and_casts_match_reference() {
    fn prop(c: Case) -> bool {
        let w = c.width;
        let (ua, ub) = (c.a & mask(w), c.b & mask(w));
        let (sa, sb) = (signed(c.a, w), signed(c.b, w));
        let cmp = |op| eval(&OpKind::Cmp(op), &[c.a, c.b], &[w, w], 1) == 1;
        let cmps_ok = cmp(CmpOp::Eq) == (ua == ub)
            && cmp(CmpOp::Ne) == (ua != ub)
            && cmp(CmpOp::Ult) == (ua < ub)
            && cmp(CmpOp::Ule) == (ua <= ub)
            && cmp(CmpOp::Ugt) == (ua > ub)
            && cmp(CmpOp::Uge) == (ua >= ub)
            && cmp(CmpOp::Slt) == (sa < sb)
            && cmp(CmpOp::Sle) == (sa <= sb)
            && cmp(CmpOp::Sgt) == (sa > sb)
            && cmp(CmpOp::Sge) == (sa >= sb);
        let casts_ok = WIDTHS.iter().all(|&to| {
            if to > w {
                eval(&OpKind::Cast(CastOp::Zext), &[c.a], &[w], to) == ua
                    && eval(&OpKind::Cast(CastOp::Sext), &[c.a], &[w], to) == wrap(sa, to)
            } else if to < w {
                eval(&OpKind::Cast(CastOp::Trunc), &[c.a], &[w], to) == ua & mask(to)
            } else {
                true
            }
        });
        cmps_ok && casts_ok
    }
    QuickCheck::new().tests(3000).quickcheck(prop as fn(Case) -> bool);
}
