//! `lut-multiply`: a multiply whose product is too narrow for the target's DSP blocks (Yosys
//! builds products under 11 bits from LUTs on the iCE40: `synth_ice40`'s `DSP_Y_MINWIDTH`)
//! becomes its partial products — the multiplicand shifted by each bit of the narrower
//! operand, or zero; by a constant, shifted by each set bit — added in a balanced tree.
//!
//! The scheduler prices a multiply as a DSP block, which such a multiply never is: Yosys's own
//! LUT multiplier is one block of logic of four or five LUT levels and a carry chain (jacobi-2d's
//! `i * (j + 2)`, 10 bits, 17 ns routed on the iCE40, in front of one register). As shifts
//! (wiring), selects (a LUT) and adds, every piece has the delay the scheduler knows, and it
//! places register boundaries between the adds of the tree where the clock needs them.
//!
//! Exact: the narrower operand `m` has at most `n` significant bits in every run (the range
//! analysis, [`crate::ranges`]), so `x · m = Σ_{i<n} m_i · (x << i)` modulo 2^w; a constant's
//! bits are known. Only operands of up to [`MAX_PARTIAL_PRODUCTS`] bits (constants with as
//! many set bits) are rewritten (the tree's size grows with them).
//! Tested in `dataflow/tests/emu.rs` (`narrow_multiplies_are_partial_products`).

use super::Pass;
use crate::ir::*;
use crate::ranges::ValueRanges;

/// The most partial products a multiply is split into.
pub const MAX_PARTIAL_PRODUCTS: u32 = 8;

/// `below`: products narrower than this many bits are rewritten (0: none, the target's DSP
/// blocks take every multiply).
pub struct LutMultiply {
    pub below: u32,
}

impl Pass for LutMultiply {
    fn name(&self) -> &'static str {
        "lut-multiply"
    }
    fn description(&self) -> &'static str {
        "turns multiplies too narrow for DSP blocks into partial products added in a tree"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        if self.below == 0 {
            return false;
        }
        let ranges = ValueRanges::compute(k);
        let mut changed = false;
        for b in k.rpo() {
            let mut ops = Vec::new();
            for op in k.blocks[b].ops.clone() {
                let Some(narrow) = self.narrow_multiply(k, &ranges, b, op) else {
                    ops.push(op);
                    continue;
                };
                let r = k.ops[op].result.unwrap_or_else(|| unreachable!("narrow_multiply checks the result"));
                let w = k.width(r);
                let span = k.ops[op].span;
                let mut new_op = |k: &mut Kernel, kind: OpKind, args: Vec<Value>, width: u32| -> Value {
                    let o = k.ops.push(OpData { kind, args, result: None, block: b, span });
                    let v = k.values.push(ValueData { width, def: ValueDef::Op(o), name: None });
                    k.ops[o].result = Some(v);
                    ops.push(o);
                    v
                };
                let zero = new_op(k, OpKind::Const(0), vec![], w);
                let mut terms = Vec::new();
                match narrow {
                    NarrowMultiply::ByVariable { x, m, n } => {
                        for i in 0..n {
                            let (bit, shifted) = if i == 0 {
                                (m, x)
                            } else {
                                let count = new_op(k, OpKind::Const(i as u64), vec![], w);
                                (
                                    new_op(k, OpKind::Binary(BinOp::LShr), vec![m, count], w),
                                    new_op(k, OpKind::Binary(BinOp::Shl), vec![x, count], w),
                                )
                            };
                            let bit = new_op(k, OpKind::Cast(CastOp::Trunc), vec![bit], 1);
                            terms.push(new_op(k, OpKind::Select, vec![bit, shifted, zero], w));
                        }
                    }
                    NarrowMultiply::ByConstant { x, c } => {
                        for i in (0..w).filter(|i| c >> i & 1 == 1) {
                            terms.push(if i == 0 {
                                x
                            } else {
                                let count = new_op(k, OpKind::Const(i as u64), vec![], w);
                                new_op(k, OpKind::Binary(BinOp::Shl), vec![x, count], w)
                            });
                        }
                    }
                }
                // A balanced tree: each level adds neighbours.
                while terms.len() > 1 {
                    let mut next = Vec::new();
                    for pair in terms.chunks(2) {
                        next.push(match pair {
                            [a, b] => new_op(k, OpKind::Binary(BinOp::Add), vec![*a, *b], w),
                            [a] => *a,
                            _ => unreachable!("chunks of two"),
                        });
                    }
                    terms = next;
                }
                let product = terms.first().copied().unwrap_or(zero);
                k.replace_uses(r, product);
                changed = true;
            }
            k.blocks[b].ops = ops;
        }
        changed
    }
}

/// A multiply the pass rewrites.
enum NarrowMultiply {
    /// `x · m`, `m` of `n` significant bits: a select of `x << i` or zero by each bit of `m`.
    ByVariable { x: Value, m: Value, n: u32 },
    /// `x · c`: `x << i` for each set bit of the constant (modulo the width). Besides its
    /// delay, Debian's Yosys 0.23 failed on such a product: its `share` pass merged fdtd-2d's
    /// `30 * (i + 1)` at 12 MHz with a division's magic-number multiply whose low bits go
    /// unused, and `ice40_dsp` stopped on an assertion over the merged product's bits (Yosys
    /// issue 4865, fixed upstream by pull request 4942).
    ByConstant { x: Value, c: u64 },
}

impl LutMultiply {
    /// `op` when it is a multiply with a product narrower than `below` bits, of a variable by
    /// a variable or by a constant with at most [`MAX_PARTIAL_PRODUCTS`] partial products.
    fn narrow_multiply(&self, k: &Kernel, ranges: &ValueRanges, b: Block, op: Op) -> Option<NarrowMultiply> {
        let o = &k.ops[op];
        if o.kind != OpKind::Binary(BinOp::Mul) {
            return None;
        }
        let w = k.width(o.result?);
        let [x, y] = o.args.as_slice() else { return None };
        if w >= self.below || k.width(*x) != w || k.width(*y) != w {
            return None;
        }
        match (k.as_const(*x), k.as_const(*y)) {
            (Some(_), Some(_)) => None,
            (Some(c), None) => Self::by_constant(*y, c, w),
            (None, Some(c)) => Self::by_constant(*x, c, w),
            (None, None) => {
                let bits = |v: Value| (64 - ranges.facts_in(k, b, v).hi.leading_zeros()).min(w);
                let (x, m) = if bits(*y) <= bits(*x) { (*x, *y) } else { (*y, *x) };
                let n = bits(m);
                (1..=MAX_PARTIAL_PRODUCTS).contains(&n).then_some(NarrowMultiply::ByVariable { x, m, n })
            }
        }
    }

    /// `x · c` at width `w`, when the constant has at most [`MAX_PARTIAL_PRODUCTS`] set bits.
    fn by_constant(x: Value, c: u64, w: u32) -> Option<NarrowMultiply> {
        let c = c & u64::MAX.checked_shr(64 - w).unwrap_or(0);
        (c.count_ones() <= MAX_PARTIAL_PRODUCTS).then_some(NarrowMultiply::ByConstant { x, c })
    }
}
