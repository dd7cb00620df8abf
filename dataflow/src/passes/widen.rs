//! `widen`: every access of a memory port of more than one lane (a buffer of `N`-vectors,
//! `MemData::lanes`) becomes a word operation, and the accesses of one block to the lanes of
//! one word share one request.
//!
//! An access's word is known when its element index is `x + c`: `x` a multiple of `N` (known
//! from its low zero bits: `x << k`, `x * c`, sums of such), `c` a constant — the word at
//! `x + (c & !(N - 1))`, lane `c & (N - 1)` (a member of a struct of 12 bytes in a byte buffer,
//! `12 * i + 5`, is lane 1 of the word at `12 * i + 4` of 4 bytes). In each block:
//! - loads of lanes of one word, with the same predicate and no write of the memory between
//!   them, become one `WordLoad` of that word and a `WordLane` per lane, where the first load
//!   was;
//! - stores to lanes of one word, with the same predicate and no other access of the memory
//!   between them, become one `WordStore` of those lanes, where the last store was;
//! - any other load is a `WordLoad` with a `WordLaneAt` of its element, any other store a
//!   `WordStoreAt` (one lane, chosen by the element's low bits).
//!
//! Accesses of `volatile` memories keep one request each. The pass is a legalization: the
//! scheduler and the RTL only know word operations on such ports, so it runs also when
//! optimization is off.

use super::Pass;
use crate::ir::*;
use std::collections::HashMap;

pub struct Widen;

/// Low bits of `v` known to be zero (at most 32).
fn zero_low_bits(k: &Kernel, v: Value, depth: u32) -> u32 {
    if let Some(c) = k.as_const(v) {
        return c.trailing_zeros().min(32);
    }
    if depth == 0 {
        return 0;
    }
    let Some(op) = k.def_op(v) else { return 0 };
    let o = &k.ops[op];
    let z = |i: usize| zero_low_bits(k, o.args[i], depth - 1);
    match &o.kind {
        OpKind::Binary(BinOp::Shl) => match k.as_const(o.args[1]) {
            Some(c) if c < 32 => (z(0) + c as u32).min(32),
            _ => 0,
        },
        OpKind::Binary(BinOp::Mul) => (z(0) + z(1)).min(32),
        OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor) => z(0).min(z(1)),
        OpKind::Binary(BinOp::And) => z(0).max(z(1)),
        OpKind::Cast(_) => z(0),
        OpKind::Select => z(1).min(z(2)),
        _ => 0,
    }
}

/// An element index as `x + c`: `x` (absent for a constant index) a multiple of `lanes`,
/// known from its low zero bits, and `c` a constant — the word `x + (c & !(lanes - 1))`, lane
/// `c & (lanes - 1)`. `None` when the index has no such form: its word is not known at
/// compile time.
fn aligned_parts(k: &Kernel, idx: Value, lanes: u32) -> Option<(Option<Value>, u64)> {
    aligned_parts_at(k, idx, lanes, 8)
}

fn aligned_parts_at(k: &Kernel, idx: Value, lanes: u32, depth: u32) -> Option<(Option<Value>, u64)> {
    let need = lanes.trailing_zeros();
    let mask = width_mask(k.width(idx));
    if let Some(c) = k.as_const(idx) {
        return Some((None, c & mask));
    }
    // The constant offset is split off first, so that every access of one word finds the same
    // aligned part (`12i + 4` and `12i + 5` both `12i`).
    let split = k.def_op(idx).filter(|_| depth > 0).and_then(|op| {
        let o = &k.ops[op];
        match o.kind {
            OpKind::Binary(BinOp::Add) => (0..2).find_map(|c| {
                let j = k.as_const(o.args[c])?;
                let (x, c0) = aligned_parts_at(k, o.args[1 - c], lanes, depth - 1)?;
                Some((x, c0.wrapping_add(j) & mask))
            }),
            // `x | j` is `x + j` when `j` lies in the low zero bits of `x`.
            OpKind::Binary(BinOp::Or) => (0..2).find_map(|c| {
                let j = k.as_const(o.args[c])?;
                let x = o.args[1 - c];
                (zero_low_bits(k, x, 8) >= need && j < u64::from(lanes)).then_some((Some(x), j))
            }),
            _ => None,
        }
    });
    split.or_else(|| (zero_low_bits(k, idx, 8) >= need).then_some((Some(idx), 0)))
}

/// The word of an access at element `idx` of a port of `lanes` elements (as the aligned part of
/// the index and the word's offset from it) and the access's lane, when known at compile time.
pub(super) fn word_and_lane(k: &Kernel, idx: Value, lanes: u32) -> Option<(WordKey, u32)> {
    let (x, c) = aligned_parts(k, idx, lanes)?;
    let low = u64::from(lanes - 1);
    Some(((x, c & !low), (c & low) as u32))
}

fn width_mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// A new op of block `b`, not yet placed in its op list; `width`: of its result, if any.
fn make(
    k: &mut Kernel,
    b: Block,
    kind: OpKind,
    args: Vec<Value>,
    width: Option<u32>,
    span: kiln_diagnostics::Span,
) -> Op {
    let op = k.ops.push(OpData { kind, args, result: None, block: b, span });
    if let Some(w) = width {
        let v = k.values.push(ValueData { width: w, def: ValueDef::Op(op), name: None });
        k.ops[op].result = Some(v);
    }
    op
}

/// A lane op that takes over the value `old` of the load it replaces.
fn lane_op_for(
    k: &mut Kernel,
    b: Block,
    kind: OpKind,
    args: Vec<Value>,
    old: Value,
    span: kiln_diagnostics::Span,
) -> Op {
    let op = make(k, b, kind, args, Some(k.width(old)), span);
    let new = k.ops[op].result.unwrap_or(old);
    k.values[new].name = k.values[old].name.clone();
    k.replace_uses(old, new);
    op
}

/// A word of a memory, as [`aligned_parts`] finds it: the aligned part of the index and the
/// word's offset from it in elements.
pub(super) type WordKey = (Option<Value>, u64);

/// The element index of a word's first lane, made once per block.
fn word_base(
    k: &mut Kernel,
    b: Block,
    key: WordKey,
    width: u32,
    span: kiln_diagnostics::Span,
    made: &mut HashMap<WordKey, Value>,
    out: &mut Vec<Option<Op>>,
) -> Value {
    if let Some(v) = made.get(&key) {
        return *v;
    }
    let base = match key {
        (Some(x), 0) => x,
        (x, offset) => {
            let c = make(k, b, OpKind::Const(offset), vec![], Some(width), span);
            out.push(Some(c));
            let cv = k.ops[c].result.expect("a constant has a result");
            match x {
                None => cv,
                Some(x) => {
                    let add = make(k, b, OpKind::Binary(BinOp::Add), vec![x, cv], Some(width), span);
                    out.push(Some(add));
                    k.ops[add].result.expect("an add has a result")
                }
            }
        }
    };
    made.insert(key, base);
    base
}

/// Stores to lanes of one word, waiting to become one `WordStore`.
struct PendingStores {
    key: WordKey,
    base: Value,
    pred: Option<Value>,
    /// (lane, value) in program order.
    lanes: Vec<(u32, Value)>,
    /// Where the last of them was in the new op list.
    slot: usize,
    span: kiln_diagnostics::Span,
}

impl Pass for Widen {
    fn name(&self) -> &'static str {
        "widen"
    }
    fn description(&self) -> &'static str {
        "turns accesses of vector buffers into word requests, one per word a block touches"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let wide: Vec<Mem> = k.mems.iter().filter(|(_, d)| d.is_port() && d.lanes > 1).map(|(m, _)| m).collect();
        if wide.is_empty() {
            return false;
        }
        let mut changed = false;
        for b in k.rpo() {
            let ops = k.blocks[b].ops.clone();
            if !ops.iter().any(|op| k.ops[*op].kind.mem().is_some_and(|m| wide.contains(&m))) {
                continue;
            }
            changed = true;
            let mut out: Vec<Option<Op>> = Vec::new();
            // Per memory: the open word loads, (base, predicate) → load token.
            let mut open: HashMap<Mem, HashMap<(WordKey, Option<Value>), Value>> = HashMap::new();
            let mut made: HashMap<WordKey, Value> = HashMap::new();
            let mut pending: HashMap<Mem, PendingStores> = HashMap::new();
            let flush = |k: &mut Kernel, m: Mem, p: PendingStores, out: &mut Vec<Option<Op>>| {
                let mut lanes = p.lanes;
                lanes.sort_by_key(|(j, _)| *j);
                let mask = lanes.iter().fold(0u32, |acc, (j, _)| acc | 1 << j);
                let mut args = vec![p.base];
                args.extend(lanes.iter().map(|(_, v)| *v));
                args.extend(p.pred);
                let st = make(k, b, OpKind::WordStore { mem: m, mask }, args, None, p.span);
                out[p.slot] = Some(st);
            };
            for op in ops {
                let o = k.ops[op].clone();
                let Some(m) = o.kind.mem().filter(|m| wide.contains(m)) else {
                    out.push(Some(op));
                    continue;
                };
                let lanes = k.mems[m].lanes;
                let volatile = k.mems[m].volatile;
                let pred = o.predicate();
                let aligned = if volatile { None } else { word_and_lane(k, o.args[0], lanes) };
                let index_width = k.width(o.args[0]);
                let mut base_of = |k: &mut Kernel, key: WordKey, out: &mut Vec<Option<Op>>| {
                    word_base(k, b, key, index_width, o.span, &mut made, out)
                };
                match o.kind {
                    OpKind::Load(_) => {
                        if let Some(p) = pending.remove(&m) {
                            flush(k, m, p, &mut out);
                        }
                        let Some(r) = o.result else { continue };
                        match aligned {
                            Some((key, lane)) => {
                                let token = match open.entry(m).or_default().get(&(key, pred)) {
                                    Some(t) => *t,
                                    None => {
                                        let base = base_of(k, key, &mut out);
                                        let mut args = vec![base];
                                        args.extend(pred);
                                        let l = make(k, b, OpKind::WordLoad(m), args, Some(1), o.span);
                                        let t = k.ops[l].result.unwrap_or(base);
                                        out.push(Some(l));
                                        open.entry(m).or_default().insert((key, pred), t);
                                        t
                                    }
                                };
                                let lane_op =
                                    lane_op_for(k, b, OpKind::WordLane { mem: m, lane }, vec![token], r, o.span);
                                out.push(Some(lane_op));
                            }
                            None => {
                                let mut args = vec![o.args[0]];
                                args.extend(pred);
                                let l = make(k, b, OpKind::WordLoad(m), args, Some(1), o.span);
                                let t = k.ops[l].result.unwrap_or(r);
                                let lane_op = lane_op_for(k, b, OpKind::WordLaneAt(m), vec![t, o.args[0]], r, o.span);
                                out.push(Some(l));
                                out.push(Some(lane_op));
                            }
                        }
                    }
                    OpKind::Store(_) => {
                        open.remove(&m);
                        let value = o.args[1];
                        let joins = |p: &PendingStores, key: WordKey, lane: u32| {
                            p.key == key && p.pred == pred && p.lanes.iter().all(|(j, _)| *j != lane)
                        };
                        match aligned {
                            Some((key, lane)) => {
                                if let Some(p) = pending.get_mut(&m)
                                    && joins(p, key, lane)
                                {
                                    p.lanes.push((lane, value));
                                    out[p.slot] = None;
                                    p.slot = out.len();
                                    out.push(None);
                                    continue;
                                }
                                if let Some(p) = pending.remove(&m) {
                                    flush(k, m, p, &mut out);
                                }
                                let base = base_of(k, key, &mut out);
                                pending.insert(
                                    m,
                                    PendingStores {
                                        key,
                                        base,
                                        pred,
                                        lanes: vec![(lane, value)],
                                        slot: out.len(),
                                        span: o.span,
                                    },
                                );
                                out.push(None);
                            }
                            None => {
                                if let Some(p) = pending.remove(&m) {
                                    flush(k, m, p, &mut out);
                                }
                                let mut args = vec![o.args[0], value];
                                args.extend(pred);
                                out.push(Some(make(k, b, OpKind::WordStoreAt(m), args, None, o.span)));
                            }
                        }
                    }
                    _ => out.push(Some(op)),
                }
            }
            let mut rest: Vec<(Mem, PendingStores)> = pending.drain().collect();
            rest.sort_by_key(|(_, p)| p.slot);
            for (m, p) in rest {
                flush(k, m, p, &mut out);
            }
            k.blocks[b].ops = out.into_iter().flatten().collect();
        }
        changed
    }
}
