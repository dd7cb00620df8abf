//! `simplify-params`: removes block parameters that always receive the same value.
//!
//! A parameter `p` of block `B` is redundant when every jump to `B` passes either `p` itself or
//! one other value `v` (the block-parameter form of a trivial phi); uses of `p` become `v`.
//! Requires: predecessors are terminated. Runs to a fixed point because removing one
//! parameter can make others trivial.

use super::Pass;
use crate::ir::{Block, Kernel, Value};

pub struct SimplifyParams;

fn trivial_value(k: &Kernel, b: Block, idx: usize, p: Value) -> Option<Value> {
    let mut seen: Option<Value> = None;
    for pred in k.rpo() {
        for t in k.blocks[pred].term.targets() {
            if t.block != b {
                continue;
            }
            let a = t.args[idx];
            if a == p || Some(a) == seen {
                continue;
            }
            if seen.is_some() {
                return None;
            }
            seen = Some(a);
        }
    }
    seen
}

impl Pass for SimplifyParams {
    fn name(&self) -> &'static str {
        "simplify-params"
    }
    fn description(&self) -> &'static str {
        "removes block parameters that always receive the same value"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        loop {
            let mut round = false;
            for b in k.rpo() {
                if b == k.entry {
                    continue;
                }
                let mut idx = 0;
                while idx < k.blocks[b].params.len() {
                    let p = k.blocks[b].params[idx];
                    match trivial_value(k, b, idx, p) {
                        Some(v) => {
                            k.replace_uses(p, v);
                            k.blocks[b].params.remove(idx);
                            let preds: Vec<Block> = k.blocks.keys().collect();
                            for pred in preds {
                                for t in k.blocks[pred].term.targets_mut() {
                                    if t.block == b {
                                        t.args.remove(idx);
                                    }
                                }
                            }
                            // Renumber the remaining parameters of `b`.
                            for (i, q) in k.blocks[b].params.clone().into_iter().enumerate() {
                                k.values[q].def = crate::ir::ValueDef::Param(b, i as u32);
                            }
                            round = true;
                        }
                        None => idx += 1,
                    }
                }
            }
            changed |= round;
            if !round {
                break;
            }
        }
        changed
    }
}
