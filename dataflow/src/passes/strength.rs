//! `strength-reduce`: division and remainder by a constant become shifts, masks and a
//! multiplication by a "magic" reciprocal (Granlund and Montgomery, *Division by Invariant
//! Integers using Multiplication*, 1994), so that they need neither a multi-cycle divider nor
//! its 33-cycle latency.
//!
//! For an unsigned `w`-bit `n` (w ≤ 32) and a constant `d` that is not a power of two, with
//! `l = ⌈log2 d⌉` and `m = ⌊2^w·(2^l − d)/d⌋ + 1`: `t = (m·n) >> w` (the high half of a `2w`-bit
//! product) and `n / d = (t + ((n − t) >> 1)) >> (l − 1)`, exact for every `n`. Signed division
//! divides the magnitudes and restores the sign (it truncates towards zero, as C does);
//! `x % d = x − (x / d)·d`. Division by 0 keeps its divider (its result is defined, see
//! `docs/timing.md`); 64-bit divisions keep theirs too.

use super::Pass;
use crate::ir::*;

pub struct StrengthReduce {
    /// Leave division and remainder by constants that are not powers of two to the e-graph
    /// phase, which knows the dividend's range and needs a narrower multiplier
    /// (`udiv-const-as-mul-shift`); [`super::finish_for_hardware`] rewrites what it leaves.
    pub defer_odd_divisors: bool,
}

impl Pass for StrengthReduce {
    fn name(&self) -> &'static str {
        "strength-reduce"
    }
    fn description(&self) -> &'static str {
        "turns division and remainder by constants into shifts and multiplications"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let ranges = crate::ranges::ValueRanges::compute(k);
        let mut changed = false;
        for b in k.rpo() {
            let mut ops = Vec::new();
            for op in k.blocks[b].ops.clone() {
                let o = k.ops[op].clone();
                let (OpKind::Binary(kind @ (BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem)), Some(r)) =
                    (o.kind, o.result)
                else {
                    ops.push(op);
                    continue;
                };
                let w = k.width(r);
                let Some(d) = k.as_const(o.args[1]) else {
                    ops.push(op);
                    continue;
                };
                let odd = !(d & op::mask(w)).is_power_of_two();
                if w > 32 || d == 0 || k.as_const(o.args[0]).is_some() || (self.defer_odd_divisors && odd) {
                    ops.push(op);
                    continue;
                }
                // A signed division of a dividend that is never negative by a positive constant
                // is the unsigned one: a shift or a mask instead of the sign corrections (the
                // range analysis knows PolyBench's `(i * j + 1) % 16` is not negative).
                let x = o.args[0];
                let nonnegative = |v: Value| ranges.facts_in(k, b, v).hi <= op::mask(w) >> 1;
                let kind = match kind {
                    BinOp::SDiv if nonnegative(x) && nonnegative(o.args[1]) => BinOp::UDiv,
                    BinOp::SRem if nonnegative(x) && nonnegative(o.args[1]) => BinOp::URem,
                    other => other,
                };
                let mut e = Emitter { k, ops: &mut ops, block: b, span: o.span };
                let v = match kind {
                    BinOp::UDiv => e.udiv(x, d, w),
                    // The low bits: no carry chain, and the range analysis reads the mask.
                    BinOp::URem if (d & op::mask(w)).is_power_of_two() => {
                        let m = e.konst(d - 1, w);
                        e.bin(BinOp::And, x, m, w)
                    }
                    BinOp::URem => {
                        let q = e.udiv(x, d, w);
                        e.remainder(x, q, d, w)
                    }
                    BinOp::SDiv => e.sdiv(x, d, w),
                    _ => {
                        let q = e.sdiv(x, d, w);
                        e.remainder(x, q, d, w)
                    }
                };
                k.replace_uses(r, v);
                changed = true;
            }
            k.blocks[b].ops = ops;
        }
        changed
    }
}

struct Emitter<'a> {
    k: &'a mut Kernel,
    ops: &'a mut Vec<Op>,
    block: Block,
    span: kiln_diagnostics::Span,
}

impl Emitter<'_> {
    fn op(&mut self, kind: OpKind, args: Vec<Value>, width: u32) -> Value {
        let op = self.k.ops.push(OpData { kind, args, result: None, block: self.block, span: self.span });
        let v = self.k.values.push(ValueData { width, def: ValueDef::Op(op), name: None });
        self.k.ops[op].result = Some(v);
        self.ops.push(op);
        v
    }

    fn konst(&mut self, c: u64, w: u32) -> Value {
        self.op(OpKind::Const(c & op::mask(w)), vec![], w)
    }

    fn bin(&mut self, b: BinOp, x: Value, y: Value, w: u32) -> Value {
        self.op(OpKind::Binary(b), vec![x, y], w)
    }

    /// Unsigned `x / d` for a constant `d ≠ 0` that fits `w` bits.
    fn udiv(&mut self, x: Value, d: u64, w: u32) -> Value {
        let d = d & op::mask(w);
        if d == 1 {
            return x;
        }
        if d.is_power_of_two() {
            let s = self.konst(d.trailing_zeros() as u64, w);
            return self.bin(BinOp::LShr, x, s, w);
        }
        if d > op::mask(w) >> 1 {
            // Only 0 or 1 fits: the quotient is `x >= d`.
            let c = self.konst(d, w);
            let ge = self.op(OpKind::Cmp(CmpOp::Uge), vec![x, c], 1);
            return self.op(OpKind::Cast(CastOp::Zext), vec![ge], w);
        }
        let l = 64 - (d - 1).leading_zeros();
        let m = ((((1u128 << l) - d as u128) << w) / d as u128 + 1) as u64;
        let ww = 2 * w;
        let xw = self.op(OpKind::Cast(CastOp::Zext), vec![x], ww);
        let mv = self.konst(m, ww);
        let prod = self.bin(BinOp::Mul, xw, mv, ww);
        let sh = self.konst(w as u64, ww);
        let hi = self.bin(BinOp::LShr, prod, sh, ww);
        let t = self.op(OpKind::Cast(CastOp::Trunc), vec![hi], w);
        let diff = self.bin(BinOp::Sub, x, t, w);
        let one = self.konst(1, w);
        let half = self.bin(BinOp::LShr, diff, one, w);
        let sum = self.bin(BinOp::Add, t, half, w);
        let s = self.konst((l - 1) as u64, w);
        self.bin(BinOp::LShr, sum, s, w)
    }

    /// Signed `x / d`, truncating towards zero.
    fn sdiv(&mut self, x: Value, d: u64, w: u32) -> Value {
        let sd = op::sext(d & op::mask(w), w);
        if sd == 1 {
            return x;
        }
        if sd == -1 {
            return self.op(OpKind::Unary(UnOp::Neg), vec![x], w);
        }
        let zero = self.konst(0, w);
        let neg = self.op(OpKind::Cmp(CmpOp::Slt), vec![x, zero], 1);
        let minus_x = self.op(OpKind::Unary(UnOp::Neg), vec![x], w);
        let magnitude = self.op(OpKind::Select, vec![neg, minus_x, x], w);
        let q = self.udiv(magnitude, sd.unsigned_abs(), w);
        let minus_q = self.op(OpKind::Unary(UnOp::Neg), vec![q], w);
        // The quotient is negative when exactly one operand is.
        if sd < 0 {
            self.op(OpKind::Select, vec![neg, q, minus_q], w)
        } else {
            self.op(OpKind::Select, vec![neg, minus_q, q], w)
        }
    }

    /// `x - q·d`.
    fn remainder(&mut self, x: Value, q: Value, d: u64, w: u32) -> Value {
        let dv = self.konst(d, w);
        let p = self.bin(BinOp::Mul, q, dv, w);
        self.bin(BinOp::Sub, x, p, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op::eval;

    /// Evaluates `x OP d` through the rewritten ops, with the IR's own evaluator.
    fn reduced(kind: BinOp, x: u64, d: u64, w: u32) -> u64 {
        let mut k = Kernel::new("t".into(), kiln_diagnostics::Span::default());
        let b = k.entry;
        let xv = k.add_param(b, w, None);
        let dv = k.push_value(b, OpKind::Const(d), vec![], w, kiln_diagnostics::Span::default());
        let r = k.push_value(b, OpKind::Binary(kind), vec![xv, dv], w, kiln_diagnostics::Span::default());
        // A user of the quotient, to find what replaced it.
        let zero = k.push_value(b, OpKind::Const(0), vec![], w, kiln_diagnostics::Span::default());
        let user = k.push_op(b, OpKind::Binary(BinOp::Or), vec![r, zero], Some(w), kiln_diagnostics::Span::default());
        StrengthReduce { defer_odd_divisors: false }.run(&mut k);
        // Interpret the block.
        let mut vals = std::collections::HashMap::new();
        vals.insert(xv, x);
        for op in k.blocks[b].ops.clone() {
            let o = &k.ops[op];
            let args: Vec<u64> = o.args.iter().map(|a| vals[a]).collect();
            let aw: Vec<u32> = o.args.iter().map(|a| k.width(*a)).collect();
            let res = o.result.unwrap();
            let v = eval(&o.kind, &args, &aw, k.width(res));
            vals.insert(res, v);
        }
        vals[&k.ops[user].args[0]]
    }

    #[test]
    fn division_by_constants_is_exact() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let divisors: Vec<u64> =
            vec![3, 5, 6, 7, 10, 20, 25, 30, 40, 100, 641, 1000, 65535, 0x7fff_ffff, 0x8000_0001, 0xffff_fffe];
        for w in [8u32, 16, 32] {
            let m = op::mask(w);
            for &d0 in &divisors {
                for d in [d0 & m, (d0 as i64).wrapping_neg() as u64 & m] {
                    if d == 0 {
                        continue;
                    }
                    let mut xs: Vec<u64> = vec![0, 1, m, m >> 1, (m >> 1) + 1, d, d.wrapping_sub(1) & m, (d + 1) & m];
                    xs.extend((0..300).map(|_| next() & m));
                    for x in xs {
                        for kind in [BinOp::UDiv, BinOp::URem, BinOp::SDiv, BinOp::SRem] {
                            let want = eval(&OpKind::Binary(kind), &[x, d], &[w, w], w);
                            let got = reduced(kind, x, d, w);
                            assert_eq!(got, want, "{kind:?} {x:#x} / {d:#x} on {w} bits");
                        }
                    }
                }
            }
        }
    }
}
