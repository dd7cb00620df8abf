//! Every expansion against `ir::float`'s `eval` (Rust's binary32 arithmetic and exact
//! conversions), bit for bit: on edge values (signed zeros, subnormals, the smallest and
//! largest normals, infinities, NaNs, rounding ties, values next to powers of two) in every
//! combination, and on random operands. `bench/float/operators` runs a million random operands
//! of each through Verilator.

use super::*;
use crate::ir::op::eval;

/// Evaluates an expansion of `arity` operands of widths `widths` by `op::eval`, op by op.
pub(crate) struct Expansion {
    k: Kernel,
    params: Vec<Value>,
    ops: Vec<Op>,
    result: Value,
}

impl Expansion {
    pub(crate) fn new(widths: &[u32], build: impl FnOnce(&mut Emitter, &[Value]) -> Value) -> Expansion {
        let span = Span::default();
        let mut k = Kernel::new("t".into(), span);
        let b = k.entry;
        let params: Vec<Value> = widths.iter().map(|w| k.add_param(b, *w, None)).collect();
        let mut e = Emitter::new(&mut k, b, span);
        let result = build(&mut e, &params);
        let ops = std::mem::take(&mut e.ops);
        Expansion { k, params, ops, result }
    }

    pub(crate) fn run(&self, args: &[u64]) -> u64 {
        let mut vals = std::collections::HashMap::new();
        for (p, a) in self.params.iter().zip(args) {
            vals.insert(*p, *a & op::mask(self.k.width(*p)));
        }
        for &o in &self.ops {
            let d = &self.k.ops[o];
            let xs: Vec<u64> = d.args.iter().map(|a| vals[a]).collect();
            let ws: Vec<u32> = d.args.iter().map(|a| self.k.width(*a)).collect();
            let r = d.result.unwrap_or_else(|| unreachable!("expansions are pure"));
            vals.insert(r, eval(&d.kind, &xs, &ws, self.k.width(r)));
        }
        vals[&self.result]
    }
}

/// Edge values of binary32.
fn edges() -> Vec<u32> {
    let mut v = vec![
        0x0000_0000,
        0x8000_0000, // zeros
        0x0000_0001,
        0x8000_0001,
        0x0000_0002,
        0x007f_ffff,
        0x807f_ffff,
        0x0040_0000, // subnormals
        0x0080_0000,
        0x8080_0000,
        0x0080_0001,
        0x00ff_ffff, // smallest normals
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f00_0000, // largest
        0x7f80_0000,
        0xff80_0000, // infinities
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x7fff_ffff, // NaNs
        0x3f80_0000,
        0xbf80_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0x4000_0000,
        0x3f00_0000, // around 1
        0x3fc0_0000,
        0x4040_0000,
        0x3eaa_aaab,
        0x4b00_0000,
        0x4b00_0001,
        0x4aff_ffff, // 1.5, 3, 2^23
        0x3f40_0000,
        0xbf40_0000,
        0x3f20_0000,
        0x4f00_0000,
        0xcf00_0000,
        0x5f00_0000, // 0.75, 2^31, 2^63
        0x4f80_0000,
        0x5f80_0000,
        0x4effffff,
        0x3400_0000,
        0x3380_0000, // 2^32, 2^64, 2^-23, 2^-24
    ];
    let more: Vec<u32> = v.iter().map(|x| x ^ 0x8000_0000).collect();
    v.extend(more);
    v.sort_unstable();
    v.dedup();
    v
}

/// A deterministic stream of test operands: random bit patterns, and random values in ranges
/// where results are normal, so that both the special and the ordinary paths are exercised.
struct Operands(u64);

impl Operands {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let z = z ^ (z >> 31);
        match z % 4 {
            // Exponents near 127 (ordinary values), then any pattern.
            0 | 1 => ((z >> 8) as u32 & 0x807f_ffff) | ((120 + (z >> 40) as u32 % 16) << 23),
            _ => (z >> 16) as u32,
        }
    }
}

fn check_unary(
    name: &str,
    build: impl FnOnce(&mut Emitter, Value) -> Value,
    reference: impl Fn(u32) -> u64,
    random: usize,
) {
    let x = Expansion::new(&[32], |e, p| build(e, p[0]));
    let mut ops = Operands(name.len() as u64);
    let inputs = edges().into_iter().chain((0..random).map(|_| ops.next()));
    for a in inputs {
        let (got, want) = (x.run(&[u64::from(a)]), reference(a));
        assert_eq!(got, want, "{name}({a:#010x}): got {got:#x}, want {want:#x}");
    }
}

fn check_binary(
    name: &str,
    build: impl FnOnce(&mut Emitter, Value, Value) -> Value,
    reference: impl Fn(u32, u32) -> u64,
    random: usize,
) {
    let x = Expansion::new(&[32, 32], |e, p| build(e, p[0], p[1]));
    let edges = edges();
    for &a in &edges {
        for &b in &edges {
            let (got, want) = (x.run(&[u64::from(a), u64::from(b)]), reference(a, b));
            assert_eq!(got, want, "{name}({a:#010x}, {b:#010x}): got {got:#x}, want {want:#x}");
        }
    }
    let mut ops = Operands(name.len() as u64 * 7);
    for _ in 0..random {
        let (a, b) = (ops.next(), ops.next());
        let (got, want) = (x.run(&[u64::from(a), u64::from(b)]), reference(a, b));
        assert_eq!(got, want, "{name}({a:#010x}, {b:#010x}): got {got:#x}, want {want:#x}");
    }
}

fn float_op(op: FloatOp) -> impl Fn(u32, u32) -> u64 {
    move |a, b| crate::ir::float::eval_float(op, &[u64::from(a), u64::from(b)])
}

const RANDOM: usize = 20_000;

#[test]
fn add_and_subtract_are_ieee() {
    check_binary("fadd", fadd, float_op(FloatOp::Add), RANDOM);
    check_binary("fsub", fsub, float_op(FloatOp::Sub), RANDOM);
}

#[test]
fn multiply_is_ieee() {
    check_binary("fmul", fmul, float_op(FloatOp::Mul), RANDOM);
}

#[test]
fn divide_is_correctly_rounded() {
    check_binary("fdiv", fdiv, float_op(FloatOp::Div), RANDOM);
}

#[test]
fn square_root_is_correctly_rounded() {
    check_unary("fsqrt", fsqrt, |a| crate::ir::float::eval_float(FloatOp::Sqrt, &[u64::from(a)]), RANDOM);
}

#[test]
fn fused_multiply_add_rounds_once() {
    let x = Expansion::new(&[32, 32, 32], |e, p| fma(e, p[0], p[1], p[2]));
    let reference = |a: u32, b: u32, c: u32| crate::ir::float::eval_float(FloatOp::Fma, &[a, b, c].map(u64::from));
    let edges = edges();
    for &a in edges.iter().step_by(3) {
        for &b in edges.iter().step_by(2) {
            for &c in &edges {
                let (got, want) = (x.run(&[a, b, c].map(u64::from)), reference(a, b, c));
                assert_eq!(got, want, "fma({a:#010x}, {b:#010x}, {c:#010x}): got {got:#x}, want {want:#x}");
            }
        }
    }
    let mut ops = Operands(99);
    for _ in 0..RANDOM {
        let (a, b) = (ops.next(), ops.next());
        // c near the product, so that the sum cancels, and anything.
        let p = f32::from_bits(a) * f32::from_bits(b);
        let near = (p.to_bits() ^ (ops.next() & 0x8000_00ff)) as u32;
        for c in [near, ops.next()] {
            let (got, want) = (x.run(&[a, b, c].map(u64::from)), reference(a, b, c));
            assert_eq!(got, want, "fma({a:#010x}, {b:#010x}, {c:#010x}): got {got:#x}, want {want:#x}");
        }
    }
}

#[test]
fn comparisons_min_max_and_magnitudes() {
    for c in
        [FCmpOp::Eq, FCmpOp::Ne, FCmpOp::Lt, FCmpOp::Le, FCmpOp::Gt, FCmpOp::Ge, FCmpOp::LtGt, FCmpOp::Ord, FCmpOp::Uno]
    {
        check_binary(
            c.mnemonic(),
            |e, a, b| fcmp(e, c, a, b),
            |a, b| crate::ir::float::eval_cmp(c, u64::from(a), u64::from(b)),
            2_000,
        );
    }
    check_binary("fmin", fmin, float_op(FloatOp::Min), 2_000);
    check_binary("fmax", fmax, float_op(FloatOp::Max), 2_000);
    check_binary("fmaxmag", |e, a, b| magnitude_pick(e, a, b, true), float_op(FloatOp::Maxmag), 2_000);
    check_binary("fminmag", |e, a, b| magnitude_pick(e, a, b, false), float_op(FloatOp::Minmag), 2_000);
    check_binary("fdim", fdim, float_op(FloatOp::Fdim), 2_000);
    check_binary("nextafter", nextafter, float_op(FloatOp::Nextafter), 2_000);
}

#[test]
fn integral_rounding_scaling_and_exponents() {
    for (how, op) in [
        (Integral::Floor, FloatOp::Floor),
        (Integral::Ceil, FloatOp::Ceil),
        (Integral::Trunc, FloatOp::Trunc),
        (Integral::Round, FloatOp::Round),
        (Integral::Rint, FloatOp::Rint),
    ] {
        check_unary(
            crate::ir::float::mnemonic(op),
            |e, x| integral(e, x, how),
            |a| crate::ir::float::eval_float(op, &[u64::from(a)]),
            RANDOM,
        );
    }
    check_unary("ilogb", ilogb, |a| crate::ir::float::eval_float(FloatOp::Ilogb, &[u64::from(a)]), 2_000);
    check_unary("logb", logb, |a| crate::ir::float::eval_float(FloatOp::Logb, &[u64::from(a)]), 2_000);
    let x = Expansion::new(&[32, 32], |e, p| ldexp(e, p[0], p[1]));
    let mut ops = Operands(5);
    let ns =
        [0i32, 1, -1, 10, -10, 126, -126, 127, -127, 149, -149, 150, -150, 253, -253, 300, -300, i32::MAX, i32::MIN];
    let values: Vec<u32> = edges().into_iter().chain((0..2_000).map(|_| ops.next())).collect();
    for a in values {
        for n in ns {
            let args = [u64::from(a), n as u32 as u64];
            let want = crate::ir::float::eval_float(FloatOp::Ldexp, &args);
            assert_eq!(x.run(&args), want, "ldexp({a:#010x}, {n})");
        }
    }
}

#[test]
fn conversions_round_and_saturate_as_eval_does() {
    use crate::ir::float::eval_conv;
    let rounds = [Round::NearestEven, Round::TowardZero, Round::Up, Round::Down];
    let mut ops = Operands(11);
    for w in [1u32, 8, 16, 32, 64] {
        for signed in [false, true] {
            for round in rounds {
                let conv = FloatConv::ToInt { signed, round };
                let x = Expansion::new(&[32], |e, p| float_to_int(e, p[0], signed, w, Rounding::from(round)));
                for a in edges().into_iter().chain((0..2_000).map(|_| ops.next())) {
                    let want = eval_conv(conv, u64::from(a), 32, w);
                    assert_eq!(x.run(&[u64::from(a)]), want, "{conv:?} to {w} bits of {a:#010x}");
                }
                let conv = FloatConv::FromInt { signed, round };
                if w == 1 {
                    continue;
                }
                let x = Expansion::new(&[w], |e, p| int_to_float(e, p[0], signed, Rounding::from(round)));
                let ints = [
                    0u64,
                    1,
                    2,
                    3,
                    u64::MAX,
                    1 << (w - 1),
                    (1 << (w - 1)) - 1,
                    16_777_217,
                    16_777_215,
                    0x8000_0001,
                    0xffff_fffe,
                ];
                for i in ints.into_iter().chain((0..2_000).map(|_| u64::from(ops.next()) << 32 | u64::from(ops.next())))
                {
                    let i = i & op::mask(w);
                    let want = eval_conv(conv, i, w, 32);
                    assert_eq!(x.run(&[i]), want, "{conv:?} of the {w}-bit {i:#x}");
                }
            }
        }
    }
    for round in rounds {
        let conv = FloatConv::Resize { round };
        let x = Expansion::new(&[32], |e, p| resize(e, p[0], 32, 16, Rounding::from(round)).unwrap_or(p[0]));
        for a in edges().into_iter().chain((0..RANDOM).map(|_| ops.next())) {
            assert_eq!(x.run(&[u64::from(a)]), eval_conv(conv, u64::from(a), 32, 16), "{conv:?} of {a:#010x} to half");
        }
    }
    let x = Expansion::new(&[16], |e, p| resize(e, p[0], 16, 32, Rounding::NearestEven).unwrap_or(p[0]));
    for h in 0..=0xffffu64 {
        let want = eval_conv(FloatConv::Resize { round: Round::NearestEven }, h, 16, 32);
        assert_eq!(x.run(&[h]), want, "half {h:#06x} to float");
    }
}
