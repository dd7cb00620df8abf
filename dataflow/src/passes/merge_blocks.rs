//! `merge-blocks`: merges a block into its predecessor when the predecessor jumps only to it and
//! it has no other predecessor, and forwards jumps through empty blocks.
//!
//! Loop headers named in the kernel's loop annotations are never merged away, so that the
//! scheduler can still match source loops to CFG loops.

use super::Pass;
use crate::ir::*;

pub struct MergeBlocks;

impl Pass for MergeBlocks {
    fn name(&self) -> &'static str {
        "merge-blocks"
    }
    fn description(&self) -> &'static str {
        "merges straight-line chains of blocks and skips empty forwarding blocks"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        // Forward jumps through empty, parameterless blocks that only jump on.
        for b in k.rpo() {
            let targets: Vec<(usize, Target)> = k.blocks[b].term.targets().into_iter().cloned().enumerate().collect();
            for (i, t) in targets {
                let tb = &k.blocks[t.block];
                if t.block != b
                    && tb.ops.is_empty()
                    && tb.params.is_empty()
                    && k.loop_at(t.block).is_none()
                    && let Terminator::Jump(next) = &tb.term
                    && next.block != t.block
                {
                    let next = next.clone();
                    if let Some(slot) = k.blocks[b].term.targets_mut().into_iter().nth(i) {
                        *slot = next;
                        changed = true;
                    }
                }
            }
        }
        let preds = k.predecessors();
        for b in k.rpo() {
            let Terminator::Jump(t) = k.blocks[b].term.clone() else { continue };
            let s = t.block;
            if s == b || s == k.entry || preds[s].len() != 1 || k.loop_at(s).is_some() {
                continue;
            }
            let params = k.blocks[s].params.clone();
            for (p, a) in params.iter().zip(&t.args) {
                k.replace_uses(*p, *a);
            }
            let ops = std::mem::take(&mut k.blocks[s].ops);
            for op in &ops {
                k.ops[*op].block = b;
            }
            k.blocks[b].ops.extend(ops);
            k.blocks[b].term = std::mem::replace(&mut k.blocks[s].term, Terminator::Return);
            k.blocks[s].params.clear();
            // `preds` is now stale for `s`'s successors; the next round recomputes it.
            changed = true;
        }
        changed
    }
}
