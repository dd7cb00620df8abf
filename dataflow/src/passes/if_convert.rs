//! `if-convert`: turns `if`/`else` diamonds and `if` triangles inside innermost loops into
//! straight-line code, so that a loop body becomes one block that can be pipelined.
//!
//! A region qualifies when block `X` ends in a two-way branch on `c`, each arm is a single block
//! whose only predecessor is `X` (or is the join itself), both arms jump to one join block `J`
//! whose only predecessors are the arms (and `X` for a triangle), and none of them is a loop
//! header. The arms' operations move into `X`: loads and stores get the arm's condition as
//! predicate (ANDed with an existing one), pure operations run unconditionally (every pure IR
//! operation is total: division by zero has a defined result), and `J`'s parameters become
//! `select`s. `J`'s operations and terminator then follow in `X`.
//!
//! Only regions inside innermost loops are converted: elsewhere the FSM runs just the taken arm,
//! which is faster than running both.

use super::Pass;
use crate::analysis::natural_loops;
use crate::ir::*;
use std::collections::BTreeSet;

pub struct IfConvert;

struct Region {
    x: Block,
    cond: Value,
    /// `(block, true-arm?)` for each arm that has ops to move.
    arms: Vec<(Block, bool)>,
    join: Block,
    /// Arguments to `join` when reached through the true / false side.
    true_args: Vec<Value>,
    false_args: Vec<Value>,
}

fn find_region(k: &Kernel, body: &BTreeSet<Block>, headers: &BTreeSet<Block>) -> Option<Region> {
    let preds = k.predecessors();
    let single_pred_arm = |b: Block, x: Block| {
        preds[b].len() == 1
            && preds[b][0] == x
            && k.blocks[b].params.is_empty()
            && !headers.contains(&b)
            && body.contains(&b)
            // Pipe transfers and `printf`s are not predicated: a conditional one keeps its branch.
            && k.blocks[b].ops.iter().all(|op| k.ops[*op].kind.pipe().is_none() && !matches!(k.ops[*op].kind, OpKind::Print(_)))
    };
    for &x in body {
        let Terminator::Branch { cond, then_to, else_to } = &k.blocks[x].term else { continue };
        let (t, f) = (then_to.block, else_to.block);
        if t == f {
            continue;
        }
        // Where each side ends up: (join, args, arm block if any).
        let side = |to: &Target| -> Option<(Block, Vec<Value>, Option<Block>)> {
            if single_pred_arm(to.block, x) && to.args.is_empty() {
                match &k.blocks[to.block].term {
                    Terminator::Jump(j) => Some((j.block, j.args.clone(), Some(to.block))),
                    _ => None,
                }
            } else {
                Some((to.block, to.args.clone(), None))
            }
        };
        let (Some((jt, at, armt)), Some((jf, af, armf))) = (side(then_to), side(else_to)) else { continue };
        if jt != jf || headers.contains(&jt) || !body.contains(&jt) || jt == x {
            continue;
        }
        if armt.is_none() && armf.is_none() {
            continue;
        }
        // The join must be reached only through this region.
        let expected: BTreeSet<Block> = [armt.unwrap_or(x), armf.unwrap_or(x)].into_iter().collect();
        let actual: BTreeSet<Block> = preds[jt].iter().copied().collect();
        if expected != actual {
            continue;
        }
        let mut arms = Vec::new();
        if let Some(a) = armt {
            arms.push((a, true));
        }
        if let Some(a) = armf {
            arms.push((a, false));
        }
        return Some(Region { x, cond: *cond, arms, join: jt, true_args: at, false_args: af });
    }
    None
}

fn convert(k: &mut Kernel, r: Region) {
    let span = k.blocks[r.x].span;
    let one = k.push_value(r.x, OpKind::Const(1), vec![], 1, span);
    let not_c = k.push_value(r.x, OpKind::Binary(BinOp::Xor), vec![r.cond, one], 1, span);
    for (arm, is_true) in &r.arms {
        let guard = if *is_true { r.cond } else { not_c };
        let ops = std::mem::take(&mut k.blocks[*arm].ops);
        for op in ops {
            k.ops[op].block = r.x;
            if k.ops[op].kind.is_memory() {
                let pred = match k.ops[op].predicate() {
                    Some(p) => {
                        let and = k.push_value(r.x, OpKind::Binary(BinOp::And), vec![p, guard], 1, k.ops[op].span);
                        k.ops[op].args.pop();
                        and
                    }
                    None => guard,
                };
                k.ops[op].args.push(pred);
            }
            k.blocks[r.x].ops.push(op);
        }
        k.blocks[*arm].term = Terminator::Return;
    }
    // The join's parameters become selects.
    let params = k.blocks[r.join].params.clone();
    for (i, p) in params.iter().enumerate() {
        let (tv, fv) = (r.true_args[i], r.false_args[i]);
        let v = if tv == fv {
            tv
        } else {
            let w = k.width(*p);
            k.push_value(r.x, OpKind::Select, vec![r.cond, tv, fv], w, span)
        };
        if k.values[v].name.is_none() {
            k.values[v].name = k.values[*p].name.clone();
        }
        k.replace_uses(*p, v);
    }
    k.blocks[r.join].params.clear();
    let join_ops = std::mem::take(&mut k.blocks[r.join].ops);
    for op in &join_ops {
        k.ops[*op].block = r.x;
    }
    k.blocks[r.x].ops.extend(join_ops);
    k.blocks[r.x].term = std::mem::replace(&mut k.blocks[r.join].term, Terminator::Return);
}

impl Pass for IfConvert {
    fn name(&self) -> &'static str {
        "if-convert"
    }
    fn description(&self) -> &'static str {
        "turns if/else regions inside innermost loops into predicated straight-line code"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        // Each conversion changes the CFG; recompute the loops and look again.
        for _ in 0..1000 {
            let loops = natural_loops(k);
            let headers: BTreeSet<Block> = loops.iter().map(|l| l.header).collect();
            let mut found = None;
            for l in &loops {
                let innermost = !loops.iter().any(|m| m.header != l.header && l.blocks.contains(&m.header));
                if !innermost {
                    continue;
                }
                if k.loop_at(l.header).is_some_and(|li| li.pragmas.disable_pipelining) {
                    continue;
                }
                if let Some(r) = find_region(k, &l.blocks, &headers) {
                    found = Some(r);
                    break;
                }
            }
            match found {
                Some(r) => {
                    convert(k, r);
                    changed = true;
                }
                None => break,
            }
        }
        changed
    }
}
