//! `remove-unreachable`: empties blocks that cannot be reached from the entry.
//!
//! Ensures: every block with ops or successors is reachable. Unreachable blocks are left
//! empty (ops cleared, terminator `Return`) until `compact` drops them.

use super::Pass;
use crate::ir::{Kernel, Terminator};

pub struct RemoveUnreachable;

impl Pass for RemoveUnreachable {
    fn name(&self) -> &'static str {
        "remove-unreachable"
    }
    fn description(&self) -> &'static str {
        "empties blocks that cannot be reached from the entry"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let reachable: std::collections::HashSet<_> = k.rpo().into_iter().collect();
        let mut changed = false;
        let blocks: Vec<_> = k.blocks.keys().collect();
        for b in blocks {
            if reachable.contains(&b) {
                continue;
            }
            let data = &mut k.blocks[b];
            if !data.ops.is_empty() || !matches!(data.term, Terminator::Return) {
                data.ops.clear();
                data.term = Terminator::Return;
                changed = true;
            }
        }
        changed
    }
}
