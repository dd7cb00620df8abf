//! `exit-test`: the test of a counted loop, `i < n` with `i` stepping by one, becomes
//! `i != max(n, i0)` (`i0` the value `i` enters with, the maximum taken once before the loop),
//! and is computed one iteration ahead: the header receives the test as a parameter, `i0 !=
//! stop` from the entry and `i != stop - 1` (that is, `i + 1 != stop`) from every latch.
//!
//! In hardware a less-than is a carry chain across the whole width, and the loop test of a
//! pipelined loop predicates the iteration's side effects and the induction variable's update
//! in the cycle the iteration starts, so it sits in front of the enables of the loop's
//! registers; an equality is a shallow tree of LUTs, and a test carried in a register is no
//! logic at all on that path. On the iCE40 the equality alone raised the routed Fmax of
//! `examples/vadd.cl` from 30 to 40 MHz.
//!
//! Legal when the test is evaluated on the header's parameter `i` itself, `i` comes back from
//! every latch as `i + 1`, the bound `n` is defined before the loop, and the branch leaves the
//! loop when the test fails: then `i` takes the values `i0, i0 + 1, ...` and the first one that
//! fails `i < n` is exactly the first one equal to `max(n, i0)` (`i < n ≤ MAX` never wraps).
//! Signed and unsigned tests take the signed and unsigned maximum. Loops with a constant bound
//! (also `i <= c`, as `i < c + 1`), and `i <= n` with any loop-invariant `n` (carried as
//! `i != n | n == MAX`, [`rewrite_at_most`]), are rewritten only at the end of optimization
//! (`constant_bounds`, by [`super::finish_for_hardware`]): until then the range analysis of the
//! `-O2` phase reads the test to bound the counter, and the loop records its trip count for the
//! scheduler when it rewrites it. A comparison with a constant still costs a carry chain in front
//! of every stage's enable (routed on the iCE40: the loop control of gemm and covariance at
//! 42–47 MHz). Tested in `dataflow/tests/emu.rs` (`counted_loops_test_for_equality`).

use super::Pass;
use crate::analysis::{NaturalLoop, source_loops};
use crate::ir::op::{mask, sext};
use crate::ir::*;

/// `constant_bounds`: rewrite loops whose bound is a constant too (see the module
/// documentation); the `-O1` passes leave them for the end of optimization.
pub struct ExitTest {
    pub constant_bounds: bool,
}

impl Pass for ExitTest {
    fn name(&self) -> &'static str {
        "exit-test"
    }
    fn description(&self) -> &'static str {
        "tests a counted loop's induction variable for equality with its bound instead of less-than"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        // Rewriting a test adds ops but no blocks, so the loops stay as computed.
        let loops: Vec<NaturalLoop> = source_loops(k);
        let mut changed = false;
        for l in &loops {
            let rewritten =
                rewrite(k, l, self.constant_bounds).is_some() || self.constant_bounds && count_trips(k, l).is_some();
            changed |= rewritten;
        }
        changed
    }
}

/// Rewrites the test of loop `l`, when it is a counted loop's.
fn rewrite(k: &mut Kernel, l: &NaturalLoop, constant_bounds: bool) -> Option<()> {
    let h = l.header;
    let Terminator::Branch { cond, then_to, else_to } = &k.blocks[h].term else { return None };
    let (cond, body, exit) = (*cond, then_to.block, else_to.block);
    let test = k.def_op(cond)?;
    let (&OpKind::Cmp(cmp), [iv, bound]) = (&k.ops[test].kind, k.ops[test].args.as_slice()) else {
        return None;
    };
    let (iv, bound) = (*iv, *bound);
    let ValueDef::Param(pb, idx) = k.values[iv].def else { return None };
    if pb != h || !l.blocks.contains(&body) || l.blocks.contains(&exit) {
        return None;
    }
    let w = k.width(iv);
    // `i <= c` is `i < c + 1` when `c + 1` does not wrap (a constant bound only).
    let (cmp, constant_bound) = match (cmp, k.as_const(bound)) {
        (CmpOp::Slt | CmpOp::Ult, c) => (cmp, c),
        (CmpOp::Ule, Some(c)) if c & mask(w) != mask(w) => (CmpOp::Ult, Some(c + 1)),
        (CmpOp::Sle, Some(c)) if c & mask(w) != mask(w) >> 1 => (CmpOp::Slt, Some((c + 1) & mask(w))),
        (CmpOp::Ule | CmpOp::Sle, None) if constant_bounds => return rewrite_at_most(k, l, test, iv, bound),
        _ => return None,
    };
    if constant_bound.is_some() && !constant_bounds {
        return None;
    }
    // A bound that is not a constant must be known before the loop (a constant is made anew).
    let bound_block = match k.values[bound].def {
        ValueDef::Param(b, _) => b,
        ValueDef::Op(op) => k.ops[op].block,
    };
    if constant_bound.is_none() && l.blocks.contains(&bound_block) {
        return None;
    }
    // One edge enters the loop (its block computes the maximum); every other edge is a latch
    // bringing back `i + 1`.
    let (pre, init) = entry_and_increments(k, l, idx, iv)?;
    let span = k.ops[test].span;
    let bound = match constant_bound {
        Some(c) => {
            // The scheduler reads the trip count of a counted loop off its test; once the test
            // is carried, the loop says it (a constant start and bound only).
            if let Some(c0) = k.as_const(init) {
                let trips = match cmp {
                    CmpOp::Slt => (sext(c, w) - sext(c0, w)).max(0) as u64,
                    _ => (c & mask(w)).saturating_sub(c0 & mask(w)),
                };
                if let Some(info) = k.loops.iter_mut().find(|x| x.header == h) {
                    info.known_trip_count.get_or_insert(trips);
                }
            }
            k.push_value(pre, OpKind::Const(c & mask(w)), vec![], w, span)
        }
        None => bound,
    };
    let below = k.push_value(pre, OpKind::Cmp(cmp), vec![bound, init], 1, span);
    let stop = k.push_value(pre, OpKind::Select, vec![below, init, bound], w, span);
    // The test, one iteration ahead: the next iteration's `i + 1 != stop` is `i != stop - 1`,
    // computed from this iteration's `i` and carried into the header as a parameter.
    let one = k.push_value(pre, OpKind::Const(1), vec![], w, span);
    let last = k.push_value(pre, OpKind::Binary(BinOp::Sub), vec![stop, one], w, span);
    let first_test = k.push_value(pre, OpKind::Cmp(CmpOp::Ne), vec![init, stop], 1, span);
    let next_test = k.push_value(h, OpKind::Cmp(CmpOp::Ne), vec![iv, last], 1, span);
    carry_test(k, l, first_test, next_test);
    Some(())
}

/// The test `i <= n` of loop `l` (`test`, on its header's parameter `i`, with a bound `n` that
/// is no constant), computed an iteration ahead: inside the loop `i <= n` holds, so the next
/// iteration's `i + 1 <= n` is `i != n`, except that when `n` is the largest value `i + 1`
/// wraps and the test never fails: the latches carry `i != n | n == MAX` (`n == MAX` computed
/// once before the loop), the entry `i0 <= n`. Left to the end of optimization, like constant
/// bounds, so that the range analysis reads the test (trisolv's and syrk's `j <= i`: the
/// carry chain of the comparison in front of every stage's enable on the iCE40).
fn rewrite_at_most(k: &mut Kernel, l: &NaturalLoop, test: Op, iv: Value, bound: Value) -> Option<()> {
    let h = l.header;
    let ValueDef::Param(_, idx) = k.values[iv].def else { return None };
    let cmp = match k.ops[test].kind {
        OpKind::Cmp(c @ (CmpOp::Ule | CmpOp::Sle)) => c,
        _ => return None,
    };
    let bound_block = match k.values[bound].def {
        ValueDef::Param(b, _) => b,
        ValueDef::Op(op) => k.ops[op].block,
    };
    if l.blocks.contains(&bound_block) {
        return None;
    }
    let (pre, init) = entry_and_increments(k, l, idx, iv)?;
    let w = k.width(iv);
    let span = k.ops[test].span;
    let largest = if cmp == CmpOp::Sle { mask(w) >> 1 } else { mask(w) };
    let largest = k.push_value(pre, OpKind::Const(largest), vec![], w, span);
    let endless = k.push_value(pre, OpKind::Cmp(CmpOp::Eq), vec![bound, largest], 1, span);
    let first_test = k.push_value(pre, OpKind::Cmp(cmp), vec![init, bound], 1, span);
    let below_bound = k.push_value(h, OpKind::Cmp(CmpOp::Ne), vec![iv, bound], 1, span);
    let next_test = k.push_value(h, OpKind::Binary(BinOp::Or), vec![below_bound, endless], 1, span);
    carry_test(k, l, first_test, next_test);
    Some(())
}

/// The block that enters loop `l` and the value its header's parameter `idx` (`iv`) enters
/// with, when exactly one edge enters and every latch brings back `iv + 1`.
fn entry_and_increments(k: &Kernel, l: &NaturalLoop, idx: u32, iv: Value) -> Option<(Block, Value)> {
    let mut entry = None;
    for &p in &k.predecessors()[l.header] {
        for t in k.blocks[p].term.targets() {
            if t.block != l.header {
                continue;
            }
            let arg = t.args[idx as usize];
            if l.latches.contains(&p) {
                if !is_increment(k, arg, iv) {
                    return None;
                }
            } else if entry.replace((p, arg)).is_some() {
                return None;
            }
        }
    }
    entry
}

/// Makes the test of loop `l` a header parameter: `first_test` from the entry, `next_test`
/// from every latch.
fn carry_test(k: &mut Kernel, l: &NaturalLoop, first_test: Value, next_test: Value) {
    let h = l.header;
    let test = k.add_param(h, 1, None);
    for p in k.predecessors()[h].clone() {
        let arg = if l.latches.contains(&p) { next_test } else { first_test };
        for t in k.blocks[p].term.targets_mut() {
            if t.block == h {
                t.args.push(arg);
            }
        }
    }
    if let Terminator::Branch { cond, .. } = &mut k.blocks[h].term {
        *cond = test;
    }
}

/// A loop whose trip count `T` is known but whose test is on no counter of its own (a
/// coalesced nest tests its outer counter, which steps only when the inner one wraps) gets a
/// counter of its iterations, `c` from 0, and the test `c != T - 1` computed an iteration
/// ahead: exact, since the header's test held exactly `T` times.
fn count_trips(k: &mut Kernel, l: &NaturalLoop) -> Option<()> {
    let h = l.header;
    let trips = k.loops.iter().find(|x| x.header == h)?.known_trip_count.filter(|t| *t >= 1)?;
    let Terminator::Branch { cond, then_to, else_to } = &k.blocks[h].term else { return None };
    let (span, body, exit) = (k.values[*cond].def, then_to.block, else_to.block);
    if !l.blocks.contains(&body) || l.blocks.contains(&exit) {
        return None;
    }
    let span = match span {
        ValueDef::Op(op) => k.ops[op].span,
        ValueDef::Param(..) => k.blocks[h].span,
    };
    // One edge enters the loop; the others are latches.
    let preds = k.predecessors()[h].clone();
    let entering: Vec<Block> = preds.iter().copied().filter(|p| !l.latches.contains(p)).collect();
    let [pre] = entering.as_slice() else { return None };
    if k.blocks[*pre].term.targets().iter().filter(|t| t.block == h).count() != 1 {
        return None;
    }
    let w = (64 - (trips - 1).leading_zeros()).max(1);
    let zero = k.push_value(*pre, OpKind::Const(0), vec![], w, span);
    let first_test = k.push_value(*pre, OpKind::Const(1), vec![], 1, span);
    let count = k.add_param(h, w, Some("iterations".into()));
    let test = k.add_param(h, 1, None);
    let last = k.push_value(h, OpKind::Const(trips - 1), vec![], w, span);
    let next_test = k.push_value(h, OpKind::Cmp(CmpOp::Ne), vec![count, last], 1, span);
    let one = k.push_value(h, OpKind::Const(1), vec![], w, span);
    let next = k.push_value(h, OpKind::Binary(BinOp::Add), vec![count, one], w, span);
    for p in preds {
        let args = if p == *pre { [zero, first_test] } else { [next, next_test] };
        for t in k.blocks[p].term.targets_mut() {
            if t.block == h {
                t.args.extend(args);
            }
        }
    }
    if let Terminator::Branch { cond, .. } = &mut k.blocks[h].term {
        *cond = test;
    }
    Some(())
}

/// Whether `v` is `iv + 1`.
fn is_increment(k: &Kernel, v: Value, iv: Value) -> bool {
    let Some(op) = k.def_op(v) else { return false };
    match (&k.ops[op].kind, k.ops[op].args.as_slice()) {
        (OpKind::Binary(BinOp::Add), [a, b]) => {
            (*a == iv && k.as_const(*b) == Some(1)) || (*b == iv && k.as_const(*a) == Some(1))
        }
        _ => false,
    }
}
