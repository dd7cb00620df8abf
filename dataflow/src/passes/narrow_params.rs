//! `narrow-params`: a block parameter (a register in hardware: a loop counter, an index, a
//! partial result carried between blocks) whose every value fits in fewer bits than its width,
//! as the kernel-wide range analysis ([`crate::ranges`]) proves, gets those bits only.
//!
//! The parameter becomes `n` bits wide; its block zero-extends it back to the old width for its
//! users, and every edge into the block truncates what it passes. Both casts are wiring, and
//! exact: the range analysis bounds the parameter by the join of everything passed to it, so
//! every argument fits in `n` bits. The e-graph phase that runs next folds the casts into the
//! arithmetic around them (`trunc(zext(i) + 1)` is a 5-bit `i + 1`), so a counter of a
//! 20-iteration loop is a 5-bit register with a 5-bit incrementer.
//!
//! Part of the `-O2` e-graph phase ([`super::egraph_phase`]), not of the `-O1` passes: it is
//! the phase's bit-width narrowing applied to the values that cross blocks.

use crate::egraph::analysis::op_facts;
use crate::ir::*;
use crate::ranges::ValueRanges;

/// Narrows every block parameter the ranges allow; returns how many it narrowed.
/// The new values get their facts in `ranges`, so the analysis need not run again.
pub fn narrow_params(k: &mut Kernel, ranges: &mut ValueRanges) -> usize {
    let mut changed = 0;
    for b in k.rpo() {
        if b == k.entry {
            // The kernel's scalar arguments: their width is the hardware interface.
            continue;
        }
        for i in 0..k.blocks[b].params.len() {
            let p = k.blocks[b].params[i];
            let w = k.width(p);
            let f = ranges.facts(k, p);
            let n = bits_for(f.hi);
            if n < w {
                narrow(k, ranges, b, i, n);
                changed += 1;
            }
        }
    }
    changed
}

/// Bits that hold every value up to `v` (at least one).
fn bits_for(v: u64) -> u32 {
    (64 - v.leading_zeros()).max(1)
}

/// Makes parameter `i` of block `b` `n` bits wide.
fn narrow(k: &mut Kernel, ranges: &mut ValueRanges, b: Block, i: usize, n: u32) {
    let old = k.blocks[b].params[i];
    let (w, name) = (k.width(old), k.values[old].name.clone());
    let span = k.blocks[b].span;
    let narrow = k.values.push(ValueData { width: n, def: ValueDef::Param(b, i as u32), name: name.clone() });
    k.blocks[b].params[i] = narrow;
    let f = ranges.facts(k, old);
    ranges.set(narrow, op_facts(&OpKind::Cast(CastOp::Trunc), std::slice::from_ref(&f), n));
    // The users see the old width, zero-extended at the top of each block that reads it (a
    // block after a loop reads the loop's register, not an extension made inside the loop).
    for user in blocks_using(k, old) {
        let ext = k.ops.push(OpData {
            kind: OpKind::Cast(CastOp::Zext),
            args: vec![narrow],
            result: None,
            block: user,
            span,
        });
        let wide = k.values.push(ValueData { width: w, def: ValueDef::Op(ext), name: name.clone() });
        k.ops[ext].result = Some(wide);
        k.replace_uses_in_block(user, old, wide);
        k.blocks[user].ops.insert(0, ext);
        ranges.alias(&[(old, wide)]);
    }
    // Every edge into the block passes the argument's low `n` bits.
    for pred in k.predecessors()[b].clone() {
        let mut args: Vec<(usize, Value)> = Vec::new();
        for (t_index, t) in k.blocks[pred].term.targets().into_iter().enumerate() {
            if t.block == b {
                args.push((t_index, t.args[i]));
            }
        }
        for (t_index, arg) in args {
            let span = k.blocks[pred].span;
            let cut = k.push_value(pred, OpKind::Cast(CastOp::Trunc), vec![arg], n, span);
            let f = ranges.facts_in(k, pred, arg);
            ranges.set(cut, op_facts(&OpKind::Cast(CastOp::Trunc), std::slice::from_ref(&f), n));
            if let Some(t) = k.blocks[pred].term.targets_mut().into_iter().nth(t_index) {
                t.args[i] = cut;
            }
        }
    }
}

/// The blocks whose ops or terminator read `v`, in a fixed order.
fn blocks_using(k: &Kernel, v: Value) -> Vec<Block> {
    k.blocks
        .iter()
        .filter(|(_, data)| data.ops.iter().any(|op| k.ops[*op].args.contains(&v)) || data.term.uses().contains(&v))
        .map(|(b, _)| b)
        .collect()
}
