//! Skewed accumulators: a loop-carried sum whose add is split into carry segments.
//!
//! `acc = acc + x` with an add too slow for one cycle runs as `n` register-separated segments
//! (`OpClass::Multi(n)`, rtl-gen's `segmented_add`), segment `j` adding bits
//! `[j·s, (j+1)·s)` in cycle `start + j`. Carried whole, `acc` would be ready for the next
//! iteration only after the last segment, `n` cycles: the loop's recurrence, its II at least
//! `n` (dot's 64-bit sum on the iCE40 at 60 MHz, four segments, II 4). Segment `j` needs only
//! bits `[j·s, (j+1)·s)` of `acc`, and the previous iteration's segment `j` wrote exactly those
//! bits at the end of its own cycle `start + j`, at least one cycle before the next
//! iteration's segment `j` (at `start + II + j`) reads them. So the register of `acc` is
//! written a segment at a time, each segment's bits in the cycle that segment adds them, and
//! the recurrence of every segment is one cycle: the loop runs at II 1 with a sum of any width
//! (docs/timing.md, "Skewed accumulators").
//!
//! Only the add reads `acc` in the loop: any other reader would see a register whose segments
//! belong to different iterations. The value the loop hands on is the register after the
//! pipeline has drained, whole again (a test-first loop; a test-last loop would capture it
//! from an iteration in flight, so it is not skewed when its sum is used after the loop).
//! For the scheduler, the parameter is written in the add's first cycle
//! ([`super::PipeParam::skewed`]); the cycle-accurate simulator, which evaluates the add whole
//! in that cycle, needs nothing else.

use super::shape::{LoopShape, Shape};
use crate::schedule::OpClass;
use kiln_dataflow::ir::{BinOp, Kernel, Op, OpKind, Value};
use std::collections::BTreeMap;

/// The header parameters of a loop that are skewed accumulators, with their adds.
pub fn skewed_accumulators(
    k: &Kernel,
    shape: &LoopShape,
    ops: &[Op],
    class: &dyn Fn(Op) -> OpClass,
) -> BTreeMap<Value, Op> {
    let params = &k.blocks[shape.header].params;
    let mut out = BTreeMap::new();
    for (param, arg) in params.iter().zip(&shape.back_args) {
        let Some(add) = k.def_op(*arg).filter(|op| ops.contains(op)) else { continue };
        if is_skewable(k, shape, ops, class, *param, add) {
            out.insert(*param, add);
        }
    }
    out
}

fn is_skewable(
    k: &Kernel,
    shape: &LoopShape,
    ops: &[Op],
    class: &dyn Fn(Op) -> OpClass,
    param: Value,
    add: Op,
) -> bool {
    let o = &k.ops[add];
    let Some(result) = o.result else { return false };
    let width = k.width(result);
    // The accumulator is an operand of its own chain, not the subtrahend (whose inverse would
    // travel between segments instead of the register's bits).
    let carries = match (&o.kind, o.args.as_slice()) {
        (OpKind::Binary(BinOp::Add), [a, b]) => (*a == param) != (*b == param),
        (OpKind::Binary(BinOp::Sub), [a, b]) => *a == param && *b != param,
        _ => false,
    };
    let split = matches!(class(add), OpClass::Multi(n) if n >= 2 && n <= width);
    if !carries || !split || k.width(param) != width || shape.cond == param || shape.back_args.contains(&param) {
        return false;
    }
    // (A memory operation's predicate is one of its arguments.)
    let read_elsewhere = ops.iter().filter(|op| **op != add).any(|op| k.ops[*op].args.contains(&param));
    let captured_after = shape.shape == Shape::TestLast && super::read_after_loop(k, shape).contains(&param);
    !read_elsewhere && !captured_after
}
