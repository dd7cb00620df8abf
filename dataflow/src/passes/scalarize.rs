//! `scalarize`: small private arrays become registers, one SSA value per element (complete
//! partitioning).
//!
//! An array qualifies when it is not `volatile`, nor partial sums whose accesses are iterations
//! apart (`Memory::carried_distance`: in registers the distance would be lost), and either every access uses a constant index
//! (after unrolling and constant folding: shift registers, tap arrays, unrolled accumulators) and
//! it has at most [`MAX_CONSTANT_INDEXED`] elements, or it is tiny ([`MAX_DYNAMIC`] elements), in
//! which case a variable index becomes a multiplexer (loads) or a per-element select (stores).
//! Elements start as 0, as uninitialized private memory reads in hardware.
//!
//! SSA is rebuilt the classic way: block parameters at the iterated dominance frontier of the
//! blocks that write an element, then a walk in reverse post-order where each block starts from
//! its parameters or from what its immediate dominator ends with. A load yields the current
//! value (0 when its predicate is off, as a predicated-off load does); a store replaces it.

use super::Pass;
use crate::analysis::Dominators;
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Most elements of a constant-indexed array kept in registers.
pub const MAX_CONSTANT_INDEXED: u32 = 64;
/// Most elements of an array with variable indices kept in registers.
pub const MAX_DYNAMIC: u32 = 8;
/// Most bits of an array kept in registers.
const MAX_BITS: u32 = 4096;

pub struct Scalarize;

impl Pass for Scalarize {
    fn name(&self) -> &'static str {
        "scalarize"
    }
    fn description(&self) -> &'static str {
        "keeps small private arrays with constant (or few) indices in registers"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let chosen = choose(k);
        if chosen.is_empty() {
            return false;
        }
        for (m, why) in &chosen {
            let d = &k.mems[*m];
            k.notes.push(format!(
                "private array `{}` ({} x {} bits) kept in registers: {why}",
                d.name,
                d.len.unwrap_or(0),
                d.elem_width
            ));
        }
        let mems: Vec<Mem> = chosen.iter().map(|(m, _)| *m).collect();
        rewrite(k, &mems);
        true
    }
}

/// The arrays to scalarize, with the reason for the report.
fn choose(k: &Kernel) -> Vec<(Mem, String)> {
    let mut const_only: HashMap<Mem, bool> = HashMap::new();
    for b in k.rpo() {
        for &op in &k.blocks[b].ops {
            if let OpKind::Load(m) | OpKind::Store(m) = k.ops[op].kind {
                let c = k.as_const(k.ops[op].args[0]).is_some();
                let e = const_only.entry(m).or_insert(true);
                *e &= c;
            }
        }
    }
    let mut out: Vec<(Mem, String)> = const_only
        .into_iter()
        .filter_map(|(m, all_const)| {
            let d = &k.mems[m];
            let len = d.len?;
            if d.kind != MemKind::Private
                || d.volatile
                || d.carried_distance.is_some()
                || len == 0
                || len * d.elem_width > MAX_BITS
            {
                return None;
            }
            if all_const && len <= MAX_CONSTANT_INDEXED {
                Some((m, "every access uses a constant index".to_string()))
            } else if len <= MAX_DYNAMIC {
                Some((m, format!("at most {MAX_DYNAMIC} elements (variable indices become multiplexers)")))
            } else {
                None
            }
        })
        .collect();
    out.sort_by_key(|(m, _)| *m);
    out
}

/// One element of a scalarized array.
type Var = (Mem, u32);

fn rewrite(k: &mut Kernel, mems: &[Mem]) {
    let rpo = k.rpo();
    let dom = Dominators::compute(k);
    let preds = k.predecessors();
    let chosen: BTreeSet<Mem> = mems.iter().copied().collect();
    let vars: Vec<Var> = mems.iter().flat_map(|m| (0..k.mems[*m].len.unwrap_or(0)).map(move |i| (*m, i))).collect();
    // Blocks that may write each element.
    let mut def_blocks: HashMap<Var, BTreeSet<Block>> = HashMap::new();
    for &b in &rpo {
        for &op in &k.blocks[b].ops {
            if let OpKind::Store(m) = k.ops[op].kind
                && chosen.contains(&m)
            {
                let len = k.mems[m].len.unwrap_or(0);
                match k.as_const(k.ops[op].args[0]) {
                    Some(c) if c < len as u64 => {
                        def_blocks.entry((m, c as u32)).or_default().insert(b);
                    }
                    Some(_) => {}
                    None => (0..len).for_each(|i| {
                        def_blocks.entry((m, i)).or_default().insert(b);
                    }),
                }
            }
        }
    }
    // Dominance frontiers.
    let mut frontier: HashMap<Block, BTreeSet<Block>> = HashMap::new();
    for &b in &rpo {
        let ps: Vec<Block> = preds[b].iter().copied().filter(|p| rpo.contains(p)).collect();
        if ps.len() < 2 {
            continue;
        }
        for p in ps {
            let mut runner = Some(p);
            while let Some(r) = runner {
                if Some(r) == dom.idom(b) {
                    break;
                }
                frontier.entry(r).or_default().insert(b);
                runner = dom.idom(r);
            }
        }
    }
    // Parameters at the iterated dominance frontier, in a fixed order per block.
    let mut params: HashMap<Block, Vec<(Var, Value)>> = HashMap::new();
    for &var in &vars {
        let mut work: Vec<Block> = def_blocks.get(&var).map(|s| s.iter().copied().collect()).unwrap_or_default();
        let mut placed: BTreeSet<Block> = BTreeSet::new();
        while let Some(b) = work.pop() {
            for &f in frontier.get(&b).into_iter().flatten() {
                if placed.insert(f) {
                    let d = &k.mems[var.0];
                    let name: Rc<str> = format!("{}[{}]", d.name, var.1).into();
                    let p = k.add_param(f, d.elem_width, Some(name));
                    params.entry(f).or_default().push((var, p));
                    work.push(f);
                }
            }
        }
    }
    // Renaming in reverse post-order.
    let mut end_defs: HashMap<Block, HashMap<Var, Value>> = HashMap::new();
    let mut subst: HashMap<Value, Value> = HashMap::new();
    for &b in &rpo {
        let mut cur: HashMap<Var, Value> = match dom.idom(b) {
            Some(d) => end_defs.get(&d).cloned().unwrap_or_default(),
            None => HashMap::new(),
        };
        let mut ops: Vec<Op> = Vec::new();
        let span = k.blocks[b].span;
        if b == k.entry {
            for &var in &vars {
                let w = k.mems[var.0].elem_width;
                let (op, v) = new_op(k, b, OpKind::Const(0), vec![], w, span);
                ops.push(op);
                cur.insert(var, v);
            }
        }
        for (var, p) in params.get(&b).cloned().unwrap_or_default() {
            cur.insert(var, p);
        }
        for op in k.blocks[b].ops.clone() {
            let o = k.ops[op].clone();
            let m = match o.kind {
                OpKind::Load(m) | OpKind::Store(m) if chosen.contains(&m) => m,
                _ => {
                    ops.push(op);
                    continue;
                }
            };
            let resolve = |v: Value, subst: &HashMap<Value, Value>| {
                let mut v = v;
                while let Some(n) = subst.get(&v) {
                    v = *n;
                }
                v
            };
            let len = k.mems[m].len.unwrap_or(0);
            let w = k.mems[m].elem_width;
            let idx = resolve(o.args[0], &subst);
            let pred = o.predicate().map(|p| resolve(p, &subst));
            let iw = k.width(idx);
            let mut emit = |k: &mut Kernel, kind: OpKind, args: Vec<Value>, width: u32| {
                let (op, v) = new_op(k, b, kind, args, width, o.span);
                ops.push(op);
                v
            };
            match o.kind {
                OpKind::Load(_) => {
                    let value = match k.as_const(idx) {
                        Some(c) if c < len as u64 => cur[&(m, c as u32)],
                        Some(_) => emit(k, OpKind::Const(0), vec![], w),
                        None => {
                            let mut acc = emit(k, OpKind::Const(0), vec![], w);
                            for i in (0..len).rev() {
                                let ci = emit(k, OpKind::Const(i as u64), vec![], iw);
                                let hit = emit(k, OpKind::Cmp(CmpOp::Eq), vec![idx, ci], 1);
                                acc = emit(k, OpKind::Select, vec![hit, cur[&(m, i)], acc], w);
                            }
                            acc
                        }
                    };
                    let value = match pred {
                        Some(p) => {
                            let zero = emit(k, OpKind::Const(0), vec![], w);
                            emit(k, OpKind::Select, vec![p, value, zero], w)
                        }
                        None => value,
                    };
                    if let Some(r) = o.result {
                        subst.insert(r, value);
                    }
                }
                OpKind::Store(_) => {
                    let val = resolve(o.args[1], &subst);
                    let targets: Vec<u32> = match k.as_const(idx) {
                        Some(c) if c < len as u64 => vec![c as u32],
                        Some(_) => vec![],
                        None => (0..len).collect(),
                    };
                    let dynamic = k.as_const(idx).is_none();
                    for i in targets {
                        let mut en = pred;
                        if dynamic {
                            let ci = emit(k, OpKind::Const(i as u64), vec![], iw);
                            let hit = emit(k, OpKind::Cmp(CmpOp::Eq), vec![idx, ci], 1);
                            en = Some(match en {
                                Some(p) => emit(k, OpKind::Binary(BinOp::And), vec![p, hit], 1),
                                None => hit,
                            });
                        }
                        let new = match en {
                            Some(e) => emit(k, OpKind::Select, vec![e, val, cur[&(m, i)]], w),
                            None => val,
                        };
                        cur.insert((m, i), new);
                    }
                }
                _ => {}
            }
        }
        k.blocks[b].ops = ops;
        end_defs.insert(b, cur);
    }
    // Jump arguments for the new parameters.
    for b in k.blocks.keys().collect::<Vec<_>>() {
        let reachable = end_defs.contains_key(&b);
        let mut term = std::mem::replace(&mut k.blocks[b].term, Terminator::Unterminated);
        for t in term.targets_mut() {
            for (var, _) in params.get(&t.block).cloned().unwrap_or_default() {
                let v = match end_defs.get(&b).and_then(|d| d.get(&var)) {
                    Some(v) if reachable => *v,
                    _ => {
                        let w = k.mems[var.0].elem_width;
                        let span = k.blocks[b].span;
                        k.push_value(b, OpKind::Const(0), vec![], w, span)
                    }
                };
                t.args.push(v);
            }
        }
        k.blocks[b].term = term;
    }
    // Replacement values were resolved when they were created, so they are never replaced
    // themselves and the order does not matter.
    let mut pairs: Vec<(Value, Value)> = subst.into_iter().collect();
    pairs.sort();
    for (from, to) in pairs {
        k.replace_uses(from, to);
    }
}

/// A new op in block `b` that is not yet in the block's op list.
fn new_op(
    k: &mut Kernel,
    b: Block,
    kind: OpKind,
    args: Vec<Value>,
    width: u32,
    span: kiln_diagnostics::Span,
) -> (Op, Value) {
    let op = k.ops.push(OpData { kind, args, result: None, block: b, span });
    let v = k.values.push(ValueData { width, def: ValueDef::Op(op), name: None });
    k.ops[op].result = Some(v);
    (op, v)
}
