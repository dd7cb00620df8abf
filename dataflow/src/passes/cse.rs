//! `cse`: common-subexpression elimination inside each block. An operation identical to an
//! earlier one of the same block (same kind, same operands, same width) is replaced by it; a load
//! is identical to an earlier load of the same memory at the same index (and predicate) when no
//! store to that memory comes between them. Volatile memories are left alone.
//!
//! A predicated load of an element that an unpredicated load of the block has read already (no
//! store between) becomes `predicate ? that value : 0`, the predicated load's own meaning: so
//! `a[i] < b ? a[i] : b`, if-converted, reads `a[i]` once.
//!
//! This is what lets `x = a[i] + a[i]` or a `max(a, b)` macro that names `b` twice read the
//! memory once, which frees memory ports inside pipelined loops.

use super::Pass;
use crate::ir::*;
use std::collections::HashMap;

pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }
    fn description(&self) -> &'static str {
        "reuses identical operations and repeated loads within a block"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut replaced: Vec<(Value, Value)> = Vec::new();
        let mut changed = false;
        for b in k.rpo() {
            let mut seen: HashMap<(OpKind, Vec<Value>, u32), Value> = HashMap::new();
            let mut rename: HashMap<Value, Value> = HashMap::new();
            for op in k.blocks[b].ops.clone() {
                let o = &k.ops[op];
                let args: Vec<Value> = o.args.iter().map(|a| *rename.get(a).unwrap_or(a)).collect();
                match o.kind {
                    OpKind::Store(m) | OpKind::WordStore { mem: m, .. } | OpKind::WordStoreAt(m) => {
                        seen.retain(|(kind, _, _), _| *kind != OpKind::Load(m) && *kind != OpKind::WordLoad(m));
                        continue;
                    }
                    OpKind::Load(m) | OpKind::WordLoad(m) if k.mems[m].volatile => continue,
                    // Every transfer is its own packet.
                    // A query's answer changes from one cycle to the next.
                    OpKind::PipeRead { .. }
                    | OpKind::PipeWrite { .. }
                    | OpKind::PipeQuery { .. }
                    | OpKind::Print(_) => {
                        continue;
                    }
                    _ => {}
                }
                let Some(r) = o.result else { continue };
                if let OpKind::Load(_) = o.kind
                    && let [index, predicate] = args[..]
                    && let Some(&first) = seen.get(&(o.kind.clone(), vec![index], k.width(r)))
                {
                    let zero = k.insert_const_before(op, 0, k.width(r));
                    k.ops[op].kind = OpKind::Select;
                    k.ops[op].args = vec![predicate, first, zero];
                    changed = true;
                    continue;
                }
                let key = (o.kind.clone(), args, k.width(r));
                match seen.get(&key) {
                    Some(&first) => {
                        rename.insert(r, first);
                        replaced.push((r, first));
                    }
                    None => {
                        seen.insert(key, r);
                    }
                }
            }
        }
        let mut subst = Substitution::new();
        for (from, to) in &replaced {
            subst.replace(*from, *to);
        }
        k.apply_substitution(&subst);
        changed || !replaced.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_diagnostics::Span;

    #[test]
    fn repeated_loads_and_operations_are_shared_until_a_store() {
        let sp = Span::default();
        let mut k = Kernel::new("t".into(), sp);
        let m =
            k.mems.push(MemData { elem_signed: true, ..MemData::new("a".into(), MemKind::Private, 32, Some(8), sp) });
        let b = k.entry;
        let i = k.push_value(b, OpKind::Const(3), vec![], 32, sp);
        let l1 = k.push_value(b, OpKind::Load(m), vec![i], 32, sp);
        let l2 = k.push_value(b, OpKind::Load(m), vec![i], 32, sp);
        let s1 = k.push_value(b, OpKind::Binary(BinOp::Add), vec![l1, l2], 32, sp);
        let s2 = k.push_value(b, OpKind::Binary(BinOp::Add), vec![l1, l2], 32, sp);
        k.push_op(b, OpKind::Store(m), vec![i, s2], None, sp);
        let l3 = k.push_value(b, OpKind::Load(m), vec![i], 32, sp);
        k.push_op(b, OpKind::Store(m), vec![i, l3], None, sp);
        k.blocks[b].term = Terminator::Return;
        assert!(Cse.run(&mut k));
        let args: Vec<Vec<Value>> = k.blocks[b].ops.iter().map(|op| k.ops[*op].args.clone()).collect();
        // Both adds read the first load twice; the first store's value is the first add; the
        // load after that store is not shared with the loads before it.
        assert!(args.iter().filter(|a| **a == vec![l1, l1]).count() == 2, "{args:?}");
        assert!(args.contains(&vec![i, s1]), "{args:?}");
        assert!(args.contains(&vec![i, l3]), "{args:?}");
    }

    #[test]
    fn a_predicated_load_of_an_element_already_read_selects_that_value() {
        let sp = Span::default();
        let mut k = Kernel::new("t".into(), sp);
        let m = k.mems.push(MemData::new("a".into(), MemKind::Private, 32, Some(8), sp));
        let b = k.entry;
        let i = k.push_value(b, OpKind::Const(3), vec![], 32, sp);
        let p = k.push_value(b, OpKind::Const(1), vec![], 1, sp);
        let plain = k.push_value(b, OpKind::Load(m), vec![i], 32, sp);
        let guarded = k.push_value(b, OpKind::Load(m), vec![i, p], 32, sp);
        k.push_op(b, OpKind::Store(m), vec![i, guarded], None, sp);
        let after_store = k.push_value(b, OpKind::Load(m), vec![i, p], 32, sp);
        k.push_op(b, OpKind::Store(m), vec![i, after_store], None, sp);
        k.blocks[b].term = Terminator::Return;
        assert!(Cse.run(&mut k));
        let def = |v: Value| &k.ops[k.def_op(v).unwrap()];
        // `p ? a[3] : 0` from the first load; after the store, the predicated load stays a load.
        assert_eq!(def(guarded).kind, OpKind::Select);
        assert_eq!(def(guarded).args[..2], [p, plain]);
        assert_eq!(k.as_const(def(guarded).args[2]), Some(0));
        assert_eq!(def(after_store).kind, OpKind::Load(m));
    }
}
