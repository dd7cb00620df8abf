//! `dce`: removes operations whose results are never used and that have no side effect.
//!
//! Stores are side effects, except to an on-chip memory that nothing reads (its contents are
//! seen by no one outside the kernel). Loads are removed when unused, except from `volatile`
//! memories, whose every access is kept.

use super::Pass;
use crate::ir::*;
use std::collections::HashSet;

pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }
    fn description(&self) -> &'static str {
        "removes unused operations without side effects"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let rpo = k.rpo();
        let mut used: HashSet<Value> = HashSet::new();
        let mut live_ops: HashSet<Op> = HashSet::new();
        let mut work: Vec<Op> = Vec::new();
        let read: HashSet<Mem> = rpo
            .iter()
            .flat_map(|b| k.blocks[*b].ops.iter())
            .filter_map(|op| match k.ops[*op].kind {
                OpKind::Load(m) => Some(m),
                _ => None,
            })
            .collect();
        let keep = |k: &Kernel, op: Op| match &k.ops[op].kind {
            OpKind::Store(m) => {
                let d = &k.mems[*m];
                !d.is_on_chip() || d.volatile || read.contains(m)
            }
            OpKind::WordStore { .. }
            | OpKind::WordStoreAt(_)
            | OpKind::PipeRead { .. }
            | OpKind::PipeWrite { .. }
            | OpKind::Print(_) => true,
            OpKind::Load(m) | OpKind::WordLoad(m) => k.mems[*m].volatile,
            _ => false,
        };
        for &b in &rpo {
            for v in k.blocks[b].term.uses() {
                used.insert(v);
            }
            for &op in &k.blocks[b].ops {
                if keep(k, op) {
                    work.push(op);
                }
            }
        }
        for v in used.clone() {
            if let Some(op) = k.def_op(v) {
                work.push(op);
            }
        }
        while let Some(op) = work.pop() {
            if !live_ops.insert(op) {
                continue;
            }
            for &a in &k.ops[op].args {
                if let Some(d) = k.def_op(a) {
                    work.push(d);
                }
            }
        }
        let mut changed = false;
        for &b in &rpo {
            let before = k.blocks[b].ops.len();
            k.blocks[b].ops.retain(|op| live_ops.contains(op));
            changed |= k.blocks[b].ops.len() != before;
        }
        changed
    }
}
