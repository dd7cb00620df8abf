//! Rebuilds a kernel with only its reachable blocks and live ops, numbered in reverse
//! post-order. Every later stage sees dense, canonically numbered entities, so names derived
//! from them (Verilog signals, report entries) depend only on the program, never on the history
//! of transformations.

use crate::ir::*;
use cranelift_entity::{EntityRef, PrimaryMap};
use std::collections::HashMap;

pub fn compact(k: &Kernel) -> Kernel {
    let rpo = k.rpo();
    let mut out = Kernel::new(k.name.clone(), k.span);
    out.params = k.params.clone();
    // Memories: keep those still used, plus every port (ports are the kernel's interface).
    let mut used_mems: Vec<Mem> = Vec::new();
    for &b in &rpo {
        for &op in &k.blocks[b].ops {
            if let Some(m) = k.ops[op].kind.mem()
                && !used_mems.contains(&m)
            {
                used_mems.push(m);
            }
        }
    }
    let mut mem_map: HashMap<Mem, Mem> = HashMap::new();
    let mut mems = PrimaryMap::new();
    for (m, d) in k.mems.iter() {
        if d.is_port() || used_mems.contains(&m) {
            mem_map.insert(m, mems.push(d.clone()));
        }
    }
    out.mems = mems;
    // Pipes are the kernel's interface: all of them stay, with their numbers.
    out.pipes = k.pipes.clone();
    let mut block_map: HashMap<Block, Block> = HashMap::new();
    out.blocks = PrimaryMap::new();
    for &b in &rpo {
        let nb = out.blocks.push(BlockData {
            params: vec![],
            ops: vec![],
            term: Terminator::Unterminated,
            span: k.blocks[b].span,
        });
        block_map.insert(b, nb);
    }
    out.entry = block_map[&k.entry];
    let mut val_map: HashMap<Value, Value> = HashMap::new();
    // Parameters first, so that every value is numbered before any use in a later block.
    for &b in &rpo {
        let nb = block_map[&b];
        for &p in &k.blocks[b].params {
            let np = out.add_param(nb, k.width(p), k.values[p].name.clone());
            val_map.insert(p, np);
        }
    }
    let map_v = |v: &Value, m: &HashMap<Value, Value>| -> Value { m.get(v).copied().unwrap_or(*v) };
    for &b in &rpo {
        let nb = block_map[&b];
        for &op in &k.blocks[b].ops {
            let o = &k.ops[op];
            let args: Vec<Value> = o.args.iter().map(|a| map_v(a, &val_map)).collect();
            // Every memory operation names its memory by its new number (word operations too:
            // a memory dropped before them shifts the numbers).
            let mut kind = o.kind.clone();
            if let Some(m) = kind.mem_mut() {
                *m = mem_map[m];
            }
            let width = o.result.map(|r| k.width(r));
            let nop = out.push_op(nb, kind, args, width, o.span);
            if let (Some(r), Some(nr)) = (o.result, out.ops[nop].result) {
                out.values[nr].name = k.values[r].name.clone();
                val_map.insert(r, nr);
            }
        }
    }
    for &b in &rpo {
        let nb = block_map[&b];
        let mut term = k.blocks[b].term.clone();
        match &mut term {
            Terminator::Branch { cond, .. } => *cond = map_v(cond, &val_map),
            Terminator::Switch { value, .. } => *value = map_v(value, &val_map),
            _ => {}
        }
        for t in term.targets_mut() {
            t.block = block_map[&t.block];
            for a in &mut t.args {
                *a = map_v(a, &val_map);
            }
        }
        out.blocks[nb].term = term;
    }
    for p in &mut out.params {
        match &mut p.kind {
            ParamKind::Scalar { value, .. } => *value = map_v(value, &val_map),
            ParamKind::Buffer { mem } | ParamKind::Local { mem } => {
                *mem = mem_map.get(mem).copied().unwrap_or(Mem::new(0))
            }
            ParamKind::Pipe { .. } => {}
        }
    }
    out.unrolled = k.unrolled.clone();
    out.coalescible_nests = k.coalescible_nests.clone();
    out.notes = k.notes.clone();
    out.ndrange = k.ndrange.clone();
    out.float_spans = k.float_spans.clone();
    out.relaxed_math = k.relaxed_math;
    out.loops =
        k.loops.iter().filter_map(|l| block_map.get(&l.header).map(|h| LoopInfo { header: *h, ..l.clone() })).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_diagnostics::Span;

    /// A memory dropped (unused) before a memory read by words: the word operations name the
    /// read memory by its new number (they kept the old one, a different memory, once).
    #[test]
    fn word_operations_follow_their_memory_when_memories_are_renumbered() {
        let s = Span::default();
        let mut k = Kernel::new("k".into(), s);
        let unused = k.mems.push(MemData::new("unused".into(), MemKind::Private, 32, Some(4), s));
        let mut wide = MemData::new("wide".into(), MemKind::Global { param: 0 }, 16, None, s);
        wide.lanes = 4;
        let wide = k.mems.push(wide);
        let b = k.entry;
        let zero = k.push_op(b, OpKind::Const(0), vec![], Some(32), s);
        let zero = k.ops[zero].result.unwrap_or_else(|| unreachable!());
        let load = k.push_op(b, OpKind::WordLoad(wide), vec![zero], Some(1), s);
        let done = k.ops[load].result.unwrap_or_else(|| unreachable!());
        let lane = k.push_op(b, OpKind::WordLane { mem: wide, lane: 2 }, vec![done], Some(16), s);
        let lane = k.ops[lane].result.unwrap_or_else(|| unreachable!());
        k.push_op(b, OpKind::WordStore { mem: wide, mask: 1 }, vec![zero, lane], None, s);
        k.blocks[b].term = Terminator::Return;
        let _ = unused;
        let c = compact(&k);
        assert_eq!(c.mems.len(), 1, "the unused memory is dropped");
        let new_wide = c.mems.keys().next().unwrap_or_else(|| unreachable!());
        assert_eq!(&*c.mems[new_wide].name, "wide");
        for op in c.blocks[c.entry].ops.iter() {
            if let Some(m) = c.ops[*op].kind.mem() {
                assert_eq!(m, new_wide, "{:?} names memory {m:?}", c.ops[*op].kind);
            }
        }
    }
}
