//! `bounded-compare`: an unsigned less-than against a constant, made cheaper with what the range
//! analysis ([`crate::ranges`]) proves about its left operand:
//! - `x + k < c` is `x < c − k` when `x + k` cannot wrap (and `k ≤ c`): the test reads `x`, with
//!   no adder in front of it;
//! - `x < c` is `x != c` when `x` never exceeds `c`: an equality is a shallow tree of LUTs, an
//!   ordered comparison a carry chain;
//! - a comparison whose outcome the ranges decide is that constant: `exit-test` computes a
//!   loop's stop as `max(first, bound)` (`40 < i + 1 ? i + 1 : 40`), which is the bound when
//!   the ranges show that the first value never passes it (ludcmp's `j = i + 1` with `i <= 39`;
//!   the 32-bit compare was in front of a register's reset, its critical path on the ECP5).
//!
//! The case it is for is the inner test of a coalesced loop nest (`j + 1 < 25 ? j + 1 : 0`,
//! see `lower/coalesce.rs`), which `exit-test` does not rewrite because it is not a loop's exit
//! test: it decides the next value of both counters, in front of their registers' enables. On
//! the iCE40 that adder, carry chain and select were the routed critical path of gemm, syrk,
//! 2mm and covariance (19–21 ns at 60 MHz).
//!
//! It runs at the end of optimization ([`super::finish_for_hardware`]), after the `-O2` phase,
//! whose range analysis reads the original tests to bound the counters.

use super::Pass;
use crate::ir::op::mask;
use crate::ir::*;
use crate::ranges::ValueRanges;

pub struct BoundedCompare;

impl Pass for BoundedCompare {
    fn name(&self) -> &'static str {
        "bounded-compare"
    }
    fn description(&self) -> &'static str {
        "turns less-than tests of bounded values against constants into cheaper tests"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let ranges = ValueRanges::compute(k);
        let mut changed = false;
        for b in k.rpo() {
            for op in k.blocks[b].ops.clone() {
                if let Some(c) = decided_test(k, &ranges, b, op) {
                    k.ops[op].kind = OpKind::Const(c);
                    k.ops[op].args.clear();
                    changed = true;
                } else if let Some((kind, x, bound)) = cheaper_test(k, &ranges, b, op) {
                    let w = k.width(x);
                    let cv = k.insert_const_before(op, bound, w);
                    k.ops[op].kind = OpKind::Cmp(kind);
                    k.ops[op].args = vec![x, cv];
                    changed = true;
                }
            }
        }
        changed
    }
}

/// The outcome of comparison `op` when the ranges of its operands in block `b` decide it.
fn decided_test(k: &Kernel, ranges: &ValueRanges, b: Block, op: Op) -> Option<u64> {
    let o = &k.ops[op];
    if !matches!(o.kind, OpKind::Cmp(_)) || o.args.iter().all(|a| k.as_const(*a).is_some()) {
        return None;
    }
    let args: Vec<_> = o.args.iter().map(|a| ranges.facts_in(k, b, *a)).collect();
    crate::egraph::analysis::op_facts(&o.kind, &args, 1).constant
}

/// The cheaper form of `op` if it is an unsigned less-than against a constant that the ranges
/// allow to rewrite: (comparison, left operand, constant).
fn cheaper_test(k: &Kernel, ranges: &ValueRanges, b: Block, op: Op) -> Option<(CmpOp, Value, u64)> {
    let o = &k.ops[op];
    if o.kind != OpKind::Cmp(CmpOp::Ult) {
        return None;
    }
    let w = k.width(o.args[0]);
    let c = k.as_const(o.args[1])? & mask(w);
    if k.as_const(o.args[0]).is_some() {
        return None;
    }
    let (mut x, mut bound, mut moved) = (o.args[0], c, false);
    if let Some(p) = k.def_op(x)
        && k.ops[p].kind == OpKind::Binary(BinOp::Add)
    {
        let (a0, a1) = (k.ops[p].args[0], k.ops[p].args[1]);
        let operand_and_step = match (k.as_const(a0), k.as_const(a1)) {
            (None, Some(s)) => Some((a0, s)),
            (Some(s), None) => Some((a1, s)),
            _ => None,
        };
        if let Some((var, step)) = operand_and_step {
            let step = step & mask(w);
            let top = ranges.facts_in(k, b, var).hi;
            if k.width(var) == w && step <= bound && top.checked_add(step).is_some_and(|t| t <= mask(w)) {
                x = var;
                bound -= step;
                moved = true;
            }
        }
    }
    if ranges.facts_in(k, b, x).hi <= bound {
        return Some((CmpOp::Ne, x, bound));
    }
    moved.then_some((CmpOp::Ult, x, bound))
}
