//! `zero-accumulator`: an accumulator that enters its loop with a computed value `a` and adds
//! to itself on every iteration (`acc = acc + x`, or `- x`) starts from zero instead, and the
//! code after the loop reads `a + acc`.
//!
//! In hardware the accumulator is one register written from two places: the state before the
//! loop (the initial value) and the loop's add. The multiplexer between them is a LUT level
//! right after the add's carry chain, on the loop's recurrence, which no schedule can move:
//! on the iCE40 that path (a 32-bit chain, the LUT, its route) was the critical path of 2mm and
//! mvt at 52 MHz. A constant initial value is the flip-flops' synchronous reset (iCE40
//! `SB_DFFESR`, ECP5's LSR), no logic at all in front of the register; the add of `a` after
//! the loop is off the recurrence and gets its own schedule.
//!
//! Exact for integers: addition modulo 2^w is associative, so `a + x1 + ... + xn` equals
//! `a + (0 + x1 + ... + xn)`, also when the loop runs no iteration. Legal when one edge enters
//! the loop, every latch brings back `acc + x` (or `acc - x`) computed for that latch alone, and
//! nothing inside the loop reads `acc` except those adds: uses after the loop are dominated by
//! the entering edge, so `a` is available there. Tested in `dataflow/tests/emu.rs`
//! (`accumulators_start_from_zero`).

use super::Pass;
use crate::analysis::{NaturalLoop, natural_loops};
use crate::ir::*;

pub struct ZeroAccumulator;

impl Pass for ZeroAccumulator {
    fn name(&self) -> &'static str {
        "zero-accumulator"
    }
    fn description(&self) -> &'static str {
        "starts a loop's accumulator from zero and adds its initial value after the loop"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        // The rewrite adds ops but no blocks or edges, so the loops stay as computed.
        let loops = natural_loops(k);
        let mut changed = false;
        for l in &loops {
            for idx in 0..k.blocks[l.header].params.len() {
                changed |= rebase(k, l, idx).is_some();
            }
        }
        changed
    }
}

/// Rebases parameter `idx` of loop `l`'s header, when it is an accumulator.
fn rebase(k: &mut Kernel, l: &NaturalLoop, idx: usize) -> Option<()> {
    let h = l.header;
    let acc = k.blocks[h].params[idx];
    let preds = k.predecessors()[h].clone();
    // The one entering edge and its initial value.
    let mut entry = None;
    let mut updates = Vec::new();
    for &p in &preds {
        for t in k.blocks[p].term.targets() {
            if t.block != h {
                continue;
            }
            let arg = t.args[idx];
            if l.latches.contains(&p) {
                updates.push(arg);
            } else if entry.replace((p, arg)).is_some() {
                return None;
            }
        }
    }
    let (pre, init) = entry?;
    // A constant start is already the registers' reset value.
    if k.as_const(init).is_some() || updates.is_empty() {
        return None;
    }
    let mut recurrence_ops = Vec::new();
    for &u in &updates {
        let op = k.def_op(u)?;
        let steps = match (&k.ops[op].kind, k.ops[op].args.as_slice()) {
            (OpKind::Binary(BinOp::Add), [a, b]) => (*a == acc) != (*b == acc),
            (OpKind::Binary(BinOp::Sub), [a, b]) => *a == acc && *b != acc,
            _ => false,
        };
        if !steps || recurrence_ops.contains(&op) || count_uses(k, u) != 1 {
            return None;
        }
        recurrence_ops.push(op);
    }
    // Every other reader of `acc` is outside the loop.
    let mut outside = Vec::new();
    for (b, data) in k.blocks.iter() {
        let reads = data.ops.iter().any(|op| k.ops[*op].args.contains(&acc) && !recurrence_ops.contains(op))
            || data.term.uses().contains(&acc);
        if reads {
            if l.blocks.contains(&b) {
                return None;
            }
            outside.push(b);
        }
    }

    let width = k.width(acc);
    // In the entry block: `pre` may be the header of a pipelined loop before this one (an
    // unrolled loop's remainder loop follows it), where a value used after that loop must be
    // a parameter.
    let zero = k.push_value(k.entry, OpKind::Const(0), vec![], width, k.blocks[pre].span);
    for t in k.blocks[pre].term.targets_mut() {
        if t.block == h {
            t.args[idx] = zero;
        }
    }
    for b in outside {
        let span = k.blocks[b].span;
        let add = k.push_op(b, OpKind::Binary(BinOp::Add), vec![init, acc], Some(width), span);
        let sum = k.result(add).unwrap_or_else(|| unreachable!("an add with a width has a result"));
        k.replace_uses_in_block(b, acc, sum);
        // The sum itself reads the accumulator, and comes before the block's other readers.
        k.ops[add].args = vec![init, acc];
        let ops = &mut k.blocks[b].ops;
        ops.retain(|o| *o != add);
        ops.insert(0, add);
    }
    Some(())
}

fn count_uses(k: &Kernel, v: Value) -> usize {
    k.blocks
        .values()
        .map(|b| {
            let in_ops: usize = b.ops.iter().map(|op| k.ops[*op].args.iter().filter(|a| **a == v).count()).sum();
            in_ops + b.term.uses().iter().filter(|a| **a == v).count()
        })
        .sum()
}
