//! `ranges`: what every value of a kernel can be, over the whole control-flow graph — an
//! unsigned interval and known bits per value ([`Facts`], the same facts the e-graph keeps per
//! e-class), proven by abstract interpretation.
//!
//! Operations use the e-graph's transfer rules ([`crate::egraph::analysis::op_facts`]), so the
//! two analyses cannot disagree. What this one adds is control flow:
//! - a block parameter is the join of the arguments its predecessors pass;
//! - a branch tells each of its targets which way its condition went, so `i < 20` bounds `i` in
//!   the loop body, and a block learns every condition on the edges that dominate it
//!   ([`ValueRanges::facts_in`]); a `select` tells each of its arms the same way, which bounds
//!   the counters of coalesced loops (`j + 1 < 25 ? j + 1 : 0`);
//! - a counter tested for equality with a loop-invariant value (what `exit-test` makes of
//!   `j < k`, `k` an outer counter) stays at most that value ([`TestedIv`]), as a counter of a
//!   loop with a known trip count stays in its values ([`CountedIv`]);
//! - loops reach a fixed point by widening to the kernel's constants (and their neighbours),
//!   then one step of narrowing.
//!
//! Loads know nothing (memory contents are not tracked), except from a constant table, whose
//! contents are known. Everything else is conservative: a value the analysis is unsure of may
//! take any value of its width. The facts hold in every execution of the kernel, for every
//! input: the e-graph phase narrows and folds with them, and its property tests check them.

use crate::analysis::Dominators;
use crate::egraph::analysis::{Facts, op_facts};
use crate::ir::op::mask;
use crate::ir::*;
use cranelift_entity::SecondaryMap;
use std::collections::{BTreeSet, HashMap};

/// Rounds of the fixed-point iteration before widening stops at thresholds and goes to the
/// whole width (a bound on the analysis's time).
const MAX_ROUNDS: usize = 200;
/// Visits of a loop header before its parameters are widened.
const WIDEN_AFTER: u32 = 2;
/// Widenings of one parameter to a threshold; the next one goes to the whole width.
const MAX_WIDENINGS: u32 = 4;
/// How deep a condition is taken apart (`a && b`, `!a`, ...).
const CONDITION_DEPTH: u32 = 4;

/// The facts of every value of a kernel, and what each block learns from the conditions on the
/// edges that dominate it.
pub struct ValueRanges {
    facts: SecondaryMap<Value, Option<Facts>>,
    /// Per block, values whose range the conditions holding on entry to the block narrow.
    narrowed: SecondaryMap<Block, HashMap<Value, Facts>>,
}

impl ValueRanges {
    /// Analyses a kernel.
    pub fn compute(k: &Kernel) -> ValueRanges {
        Analysis::new(k).run()
    }

    /// What `v` can be anywhere in the kernel (any value of its width when unreachable).
    pub fn facts(&self, k: &Kernel, v: Value) -> Facts {
        self.facts[v].clone().unwrap_or_else(|| Facts::unknown(k.width(v)))
    }

    /// What `v` can be where block `b` runs: its facts, narrowed by the conditions that hold
    /// whenever `b` is entered.
    pub fn facts_in(&self, k: &Kernel, b: Block, v: Value) -> Facts {
        let f = self.facts(k, v);
        match self.narrowed[b].get(&v) {
            Some(n) => meet(&f, n),
            None => f,
        }
    }
}

impl ValueRanges {
    /// Gives each new value the facts of the old value it replaces (`(old, new)` pairs: a
    /// rewrite that computes the same value differently), also where blocks narrow them.
    pub fn alias(&mut self, replaced: &[(Value, Value)]) {
        for &(old, new) in replaced {
            self.facts[new] = self.facts[old].clone();
            for (_, narrowed) in self.narrowed.iter_mut() {
                if let Some(f) = narrowed.get(&old).cloned() {
                    narrowed.insert(new, f);
                }
            }
        }
    }

    /// Records the facts of a value made after the analysis ran.
    pub fn set(&mut self, v: Value, f: Facts) {
        self.facts[v] = Some(f);
    }
}

/// The facts true of both: the intersection of the intervals, the union of the known bits.
/// (Contradictory facts come only from code that never runs; the first side is kept then.)
pub fn meet(a: &Facts, b: &Facts) -> Facts {
    let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
    let (zeros, ones) = (a.zeros | b.zeros, a.ones | b.ones);
    if lo > hi || zeros & ones != 0 {
        return a.clone();
    }
    Facts { width: a.width, constant: None, lo, hi, zeros, ones, sign_bits: a.sign_bits.max(b.sign_bits) }.normalize()
}

/// The facts true of either: the smallest interval holding both, the bits known in both alike.
pub fn join(a: &Facts, b: &Facts) -> Facts {
    let (zeros, ones) = (a.zeros & b.zeros, a.ones & b.ones);
    let sign_bits = a.sign_bits.min(b.sign_bits);
    Facts { width: a.width, constant: None, lo: a.lo.min(b.lo), hi: a.hi.max(b.hi), zeros, ones, sign_bits }.normalize()
}

/// The values `lo..=hi` of `width` bits, nothing else known.
fn interval(width: u32, lo: u64, hi: u64) -> Facts {
    Facts { width, constant: None, lo, hi, zeros: 0, ones: 0, sign_bits: 1 }.normalize()
}

struct Analysis<'a> {
    k: &'a Kernel,
    /// Induction variables of loops whose trip count is known (see [`CountedIv`]).
    counters: Vec<CountedIv>,
    /// Induction variables of loops that test them for equality with a bound (see
    /// [`TestedIv`]).
    tested: Vec<TestedIv>,
    /// Induction variables counting down to a signed bound (see [`DescendingIv`]).
    descending: Vec<DescendingIv>,
    rpo: Vec<Block>,
    doms: Dominators,
    preds: SecondaryMap<Block, Vec<Block>>,
    /// Blocks some of whose predecessors they dominate (loop headers): where widening happens.
    headers: BTreeSet<Block>,
    /// Sorted widening thresholds per width: the kernel's constants and their neighbours.
    thresholds: HashMap<u32, Vec<u64>>,
    facts: SecondaryMap<Value, Option<Facts>>,
    narrowed: SecondaryMap<Block, HashMap<Value, Facts>>,
    visits: SecondaryMap<Block, u32>,
    /// Times each parameter was widened.
    widenings: SecondaryMap<Value, u32>,
}

impl<'a> Analysis<'a> {
    fn new(k: &'a Kernel) -> Analysis<'a> {
        let rpo = k.rpo();
        let doms = Dominators::compute(k);
        let preds = k.predecessors();
        let headers = rpo.iter().copied().filter(|&b| preds[b].iter().any(|&p| doms.dominates(b, p))).collect();
        // The constants values are compared with (loop bounds, most of all), and their
        // neighbours: where a counter's range settles.
        let mut thresholds: HashMap<u32, BTreeSet<u64>> = HashMap::new();
        let mut add_threshold = |c: u64, w: u32| {
            let m = mask(w);
            thresholds.entry(w).or_default().extend([c & m, c.wrapping_sub(1) & m, c.wrapping_add(1) & m]);
        };
        for (_, o) in k.ops.iter() {
            if let OpKind::Cmp(_) = o.kind {
                for a in &o.args {
                    if let Some(c) = k.as_const(*a) {
                        add_threshold(c, k.width(*a));
                    }
                }
            }
        }
        for (_, b) in k.blocks.iter() {
            if let Terminator::Switch { value, cases, .. } = &b.term {
                for (c, _) in cases {
                    add_threshold(*c, k.width(*value));
                }
            }
        }
        Analysis {
            k,
            counters: counted_induction_variables(k),
            tested: tested_induction_variables(k),
            descending: descending_induction_variables(k),
            rpo,
            doms,
            preds,
            headers,
            thresholds: thresholds.into_iter().map(|(w, s)| (w, s.into_iter().collect())).collect(),
            facts: SecondaryMap::new(),
            narrowed: SecondaryMap::new(),
            visits: SecondaryMap::new(),
            widenings: SecondaryMap::new(),
        }
    }

    fn run(mut self) -> ValueRanges {
        let mut round = 0;
        loop {
            round += 1;
            let changed = self.sweep(Widen::At(round >= MAX_ROUNDS));
            if !changed {
                break;
            }
        }
        // One step of narrowing: recompute every parameter from what its predecessors pass,
        // without the union with what it had (a sound step down from a fixed point).
        self.sweep(Widen::Narrow);
        ValueRanges { facts: self.facts, narrowed: self.narrowed }
    }

    /// One pass over the blocks in reverse post-order; returns whether any fact changed.
    fn sweep(&mut self, widen: Widen) -> bool {
        let mut changed = false;
        for i in 0..self.rpo.len() {
            let b = self.rpo[i];
            let Some(params) = self.incoming(b) else { continue };
            self.narrowed[b] = self.entry_conditions(b);
            self.visits[b] += 1;
            for (&p, new) in self.k.blocks[b].params.iter().zip(params) {
                let new = match (&self.facts[p], widen) {
                    (None, _) | (_, Widen::Narrow) => new,
                    (Some(old), Widen::At(to_full)) => {
                        let grown = join(old, &new);
                        if self.headers.contains(&b) && self.visits[b] > WIDEN_AFTER && grown != *old {
                            self.widenings[p] += 1;
                            self.widen(old, &grown, to_full || self.widenings[p] > MAX_WIDENINGS)
                        } else {
                            grown
                        }
                    }
                };
                // A counter of a loop with a known trip count stays in its values.
                let new = match self.counters.iter().find(|c| c.param == p) {
                    Some(c) => meet(&new, &interval(new.width, c.first, c.exit)),
                    None => new,
                };
                let new = match self.tested.iter().find(|c| c.param == p).and_then(|c| self.tested_bound(c)) {
                    Some(last) => meet(&new, &interval(new.width, 0, last + 1)),
                    None => new,
                };
                changed |= self.facts[p].as_ref() != Some(&new);
                self.facts[p] = Some(new);
            }
            for &op in &self.k.blocks[b].ops {
                let Some(r) = self.k.ops[op].result else { continue };
                let new = self.op_result(b, op);
                changed |= self.facts[r].as_ref() != Some(&new);
                self.facts[r] = Some(new);
            }
        }
        changed
    }

    /// The facts of a block's parameters from the edges that reach it so far (the entry's are
    /// the kernel's arguments: anything). `None` when no edge has been reached yet.
    fn incoming(&self, b: Block) -> Option<Vec<Facts>> {
        let params = &self.k.blocks[b].params;
        if b == self.k.entry {
            return Some(params.iter().map(|p| Facts::unknown(self.k.width(*p))).collect());
        }
        let mut joined: Option<Vec<Facts>> = None;
        let mut seen = BTreeSet::new();
        for &p in &self.preds[b] {
            if !seen.insert(p) {
                continue;
            }
            for (edge, t) in self.k.blocks[p].term.targets().into_iter().enumerate() {
                if t.block != b {
                    continue;
                }
                let Some(args) = t.args.iter().map(|a| self.facts[*a].as_ref().map(|_| *a)).collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                let on_edge = self.edge_conditions(p, edge);
                let facts: Vec<Facts> = args
                    .iter()
                    .map(|&a| {
                        let f = self.seen_in(p, a);
                        on_edge.get(&a).map_or(f.clone(), |n| meet(&f, n))
                    })
                    .collect();
                joined = Some(match joined {
                    None => facts,
                    Some(j) => j.iter().zip(&facts).map(|(x, y)| join(x, y)).collect(),
                });
            }
        }
        joined
    }

    /// Widens `old` towards `grown`: each bound that moved goes to the next threshold beyond
    /// it (the whole width once `to_full`).
    fn widen(&self, old: &Facts, grown: &Facts, to_full: bool) -> Facts {
        let m = mask(grown.width);
        let empty = Vec::new();
        let t = self.thresholds.get(&grown.width).unwrap_or(&empty);
        let hi = if grown.hi > old.hi {
            if to_full { m } else { t.iter().copied().find(|&c| c >= grown.hi).unwrap_or(m) }
        } else {
            grown.hi
        };
        let lo = if grown.lo < old.lo {
            if to_full { 0 } else { t.iter().rev().copied().find(|&c| c <= grown.lo).unwrap_or(0) }
        } else {
            grown.lo
        };
        let mut f = interval(grown.width, lo, hi);
        // Known bits survive widening only when both sides agree on them.
        f = meet(&f, &Facts { zeros: grown.zeros, ones: grown.ones, ..Facts::unknown(grown.width) });
        f
    }

    /// What `v` is in block `b` (its facts narrowed by `b`'s entry conditions).
    fn seen_in(&self, b: Block, v: Value) -> Facts {
        let f = self.facts[v].clone().unwrap_or_else(|| Facts::unknown(self.k.width(v)));
        match self.narrowed[b].get(&v) {
            Some(n) => meet(&f, n),
            None => f,
        }
    }

    fn op_result(&self, b: Block, op: Op) -> Facts {
        let o = &self.k.ops[op];
        let width = o.result.map_or(1, |r| self.k.width(r));
        match &o.kind {
            // A constant table's element is one of its entries (or 0 for an access predicated off).
            OpKind::Load(m) if self.k.mems[*m].kind == MemKind::Rom => {
                let init = self.k.mems[*m].init.as_deref().unwrap_or(&[]);
                let predicated = o.predicate().is_some();
                let mut f: Option<Facts> = predicated.then(|| Facts::constant(0, width));
                for &v in init {
                    let c = Facts::constant(v, width);
                    f = Some(f.map_or(c.clone(), |x| join(&x, &c)));
                }
                // An index past the table reads what the memory holds there: anything.
                let len = init.len() as u64;
                let index = self.seen_in(b, o.args[0]);
                if len == 0 || index.hi >= len {
                    Facts::unknown(width)
                } else {
                    f.unwrap_or_else(|| Facts::unknown(width))
                }
            }
            OpKind::Select => {
                let cond = o.args[0];
                let arm = |i: usize, truth: bool| {
                    let f = self.seen_in(b, o.args[i]);
                    let mut narrowed = HashMap::new();
                    self.condition(b, cond, truth, CONDITION_DEPTH, &mut narrowed);
                    if let Some(n) = narrowed.get(&o.args[i]) {
                        return meet(&f, n);
                    }
                    // An arm computed from values the condition bounds (`s < 12 ? s + 1 : 0`,
                    // the inner counter of a coalesced nest whose statements after the inner
                    // loop have an iteration of their own) is bounded with them.
                    match self.k.def_op(o.args[i]).map(|d| &self.k.ops[d]) {
                        Some(
                            d @ OpData { kind: kind @ (OpKind::Binary(_) | OpKind::Unary(_) | OpKind::Cast(_)), .. },
                        ) if d.args.iter().any(|a| narrowed.contains_key(a)) => {
                            let args: Vec<Facts> = d
                                .args
                                .iter()
                                .map(|a| {
                                    let seen = self.seen_in(b, *a);
                                    narrowed.get(a).map_or(seen.clone(), |n| meet(&seen, n))
                                })
                                .collect();
                            meet(&f, &op_facts(kind, &args, self.k.width(o.args[i])))
                        }
                        _ => f,
                    }
                };
                let c = self.seen_in(b, cond);
                match c.constant {
                    Some(1) => arm(1, true),
                    Some(_) => arm(2, false),
                    None => join(&arm(1, true), &arm(2, false)),
                }
            }
            kind => {
                let args: Vec<Facts> = o.args.iter().map(|a| self.seen_in(b, *a)).collect();
                op_facts(kind, &args, width)
            }
        }
    }

    /// The conditions that hold whenever `b` is entered: those of its immediate dominator,
    /// those of the edge into it when it is its only way in from blocks it does not dominate,
    /// and the body's values of the counters of the loops it is in (past the header).
    ///
    /// A loop header's back edges come from blocks it dominates, so what held on the one edge
    /// that enters the loop holds throughout it: the values that edge tests are defined before
    /// the loop and stay as they were until control leaves the blocks the header dominates,
    /// which it re-enters only through that edge. (The counter of a triangular nest's outer
    /// loop is bounded in its inner loop, and so is what the inner loop passes back.)
    fn entry_conditions(&self, b: Block) -> HashMap<Value, Facts> {
        let mut out = match self.doms.idom(b) {
            Some(d) => self.narrowed[d].clone(),
            None => HashMap::new(),
        };
        for c in &self.counters {
            if c.body.contains(&b) {
                add(&mut out, c.param, interval(self.k.width(c.param), c.first, c.last));
            }
        }
        for c in &self.tested {
            if c.body.contains(&b)
                && let Some(last) = self.tested_bound(c)
            {
                add(&mut out, c.param, interval(self.k.width(c.param), 0, last));
            }
        }
        for c in &self.descending {
            if c.body.contains(&b)
                && let Some(first) = self.descending_bound(c)
                && first >= c.lowest
            {
                add(&mut out, c.param, interval(self.k.width(c.param), c.lowest, first));
            }
        }
        let preds: BTreeSet<Block> = self.preds[b].iter().copied().filter(|&p| !self.doms.dominates(b, p)).collect();
        if let [p] = preds.iter().copied().collect::<Vec<_>>().as_slice() {
            let edges: Vec<usize> = self.k.blocks[*p]
                .term
                .targets()
                .iter()
                .enumerate()
                .filter(|(_, t)| t.block == b)
                .map(|(i, _)| i)
                .collect();
            if let [edge] = edges.as_slice() {
                // The predecessor's own entry conditions are the idom's or more.
                for (v, f) in self.narrowed[*p].iter() {
                    add(&mut out, *v, f.clone());
                }
                for (v, f) in self.edge_conditions(*p, *edge) {
                    add(&mut out, v, f);
                }
            }
        }
        out
    }

    /// The largest value counter `c` takes in its loop's body, `hi(stop)`, when every value it
    /// enters the loop with is at most every value of the stop (so that counting up by one
    /// meets the stop before passing it), and one more still fits its width.
    ///
    /// The body runs only after an entry whose test passed, so each entry's stop and first
    /// value are taken where its test holds: `k != 0` on entry makes `k - 1` no longer wrap.
    fn tested_bound(&self, c: &TestedIv) -> Option<u64> {
        self.facts[c.stop].as_ref()?;
        let mut last = 0;
        for &(pred, first, test) in &c.entries {
            self.facts[first].as_ref()?;
            let mut held = HashMap::new();
            if self.facts[test].is_some() {
                self.condition(pred, test, true, CONDITION_DEPTH, &mut held);
            }
            let stop = self.seen_under(pred, c.stop, &held, CONDITION_DEPTH);
            let first = self.seen_under(pred, first, &held, CONDITION_DEPTH);
            // A bound compared with the counter's extension must leave the counter room to
            // reach it and pass it by one.
            if first.hi > stop.lo || stop.hi >= mask(stop.width.min(self.k.width(c.param))) {
                return None;
            }
            last = last.max(stop.hi);
        }
        Some(last)
    }

    /// The largest value counter `c` enters its loop with, when every entry's is non-negative
    /// (so that counting down stays at or below it until the test stops it).
    fn descending_bound(&self, c: &DescendingIv) -> Option<u64> {
        let smax = mask(self.k.width(c.param)) >> 1;
        let mut first = 0;
        for &(pred, value) in &c.entries {
            self.facts[value].as_ref()?;
            let f = self.seen_in(pred, value);
            if f.hi > smax {
                return None;
            }
            first = first.max(f.hi);
        }
        Some(first)
    }

    /// What `v` is in block `b` where the facts `held` of other values hold too: `v`'s own
    /// facts, and its operation's on the operands' (to `depth` operations back).
    fn seen_under(&self, b: Block, v: Value, held: &HashMap<Value, Facts>, depth: u32) -> Facts {
        let seen = self.seen_in(b, v);
        if let Some(f) = held.get(&v) {
            return meet(&seen, f);
        }
        let Some(op) = self.k.def_op(v).filter(|_| depth > 0) else { return seen };
        let o = &self.k.ops[op];
        let args: Vec<Facts> = o.args.iter().map(|a| self.seen_under(b, *a, held, depth - 1)).collect();
        meet(&seen, &op_facts(&o.kind, &args, self.k.width(v)))
    }

    /// What the `edge`th target of `p`'s terminator learns about values.
    fn edge_conditions(&self, p: Block, edge: usize) -> HashMap<Value, Facts> {
        let mut out = HashMap::new();
        match &self.k.blocks[p].term {
            Terminator::Branch { cond, then_to, else_to } if then_to.block != else_to.block => {
                self.condition(p, *cond, edge == 0, CONDITION_DEPTH, &mut out);
            }
            Terminator::Switch { value, cases, .. } => {
                let w = self.k.width(*value);
                if let Some((c, _)) = cases.get(edge) {
                    // Another case may lead to the same block, but on this edge the value is c.
                    add(&mut out, *value, Facts::constant(*c, w));
                } else {
                    // The default: none of the cases; trim them off the ends of the range.
                    let mut f = self.seen_in(p, *value);
                    let values: BTreeSet<u64> = cases.iter().map(|(c, _)| *c & mask(w)).collect();
                    while f.lo < f.hi && values.contains(&f.lo) {
                        f = interval(w, f.lo + 1, f.hi);
                    }
                    while f.lo < f.hi && values.contains(&f.hi) {
                        f = interval(w, f.lo, f.hi - 1);
                    }
                    add(&mut out, *value, f);
                }
            }
            _ => {}
        }
        out
    }

    /// What `cond == truth` (a 1-bit value, seen in block `b`) says about the values it tests.
    fn condition(&self, b: Block, cond: Value, truth: bool, depth: u32, out: &mut HashMap<Value, Facts>) {
        if depth == 0 {
            return;
        }
        add(out, cond, Facts::constant(truth as u64, 1));
        let Some(op) = self.k.def_op(cond) else { return };
        let o = &self.k.ops[op];
        let arg = |i: usize| o.args[i];
        match (&o.kind, o.args.len()) {
            (OpKind::Binary(BinOp::And), 2) if truth => {
                self.condition(b, arg(0), true, depth - 1, out);
                self.condition(b, arg(1), true, depth - 1, out);
            }
            (OpKind::Binary(BinOp::Or), 2) if !truth => {
                self.condition(b, arg(0), false, depth - 1, out);
                self.condition(b, arg(1), false, depth - 1, out);
            }
            (OpKind::Unary(UnOp::Not), 1) => self.condition(b, arg(0), !truth, depth - 1, out),
            (OpKind::Binary(BinOp::Xor), 2) if self.k.as_const(arg(1)) == Some(1) => {
                self.condition(b, arg(0), !truth, depth - 1, out)
            }
            (OpKind::Cmp(c), 2) => {
                let cmp = if truth { *c } else { negate(*c) };
                let (x, y) = (arg(0), arg(1));
                let (fx, fy) = (self.seen_in(b, x), self.seen_in(b, y));
                if let Some((nx, ny)) = compare(cmp, &fx, &fy) {
                    add(out, x, nx);
                    add(out, y, ny);
                }
            }
            _ => {}
        }
    }
}

/// A loop counter whose values are known from the loop's trip count: the header parameter
/// enters with the constant `first` and comes back from every latch as itself plus the positive
/// constant step, and the loop's body runs `trips` times (`LoopInfo::known_trip_count`, which
/// lowering records for coalesced loops and `exit-test` for the loops whose test it carries, so
/// that the count outlives the test). The header sees `first ..= exit`, the blocks past it
/// `first ..= last`.
struct CountedIv {
    param: Value,
    first: u64,
    last: u64,
    exit: u64,
    /// The loop's blocks other than the header.
    body: BTreeSet<Block>,
}

fn counted_induction_variables(k: &Kernel) -> Vec<CountedIv> {
    let mut out = Vec::new();
    for l in crate::analysis::natural_loops(k) {
        let Some(trips) = k.loops.iter().find(|x| x.header == l.header).and_then(|x| x.known_trip_count) else {
            continue;
        };
        let preds = k.predecessors();
        for (i, &p) in k.blocks[l.header].params.iter().enumerate() {
            let w = k.width(p);
            let mut first = None;
            let mut step = None;
            let mut ok = true;
            for &pred in &preds[l.header] {
                for t in k.blocks[pred].term.targets() {
                    if t.block != l.header {
                        continue;
                    }
                    let arg = t.args[i];
                    if l.latches.contains(&pred) {
                        let s = increment_of(k, arg, p);
                        ok &= s.is_some() && (step.is_none() || step == s);
                        step = s;
                    } else {
                        let c = k.as_const(arg);
                        ok &= c.is_some() && (first.is_none() || first == c);
                        first = c;
                    }
                }
            }
            let (Some(first), Some(step), true) = (first, step, ok) else { continue };
            let first = first & mask(w);
            // The values must not wrap: the exit value fits the width.
            let exit = step.checked_mul(trips).and_then(|d| d.checked_add(first)).filter(|e| *e <= mask(w));
            let Some(exit) = exit else { continue };
            let last = if trips == 0 { first } else { exit - step };
            let body = l.blocks.iter().copied().filter(|b| *b != l.header).collect();
            out.push(CountedIv { param: p, first, last, exit, body });
        }
    }
    out
}

/// A loop counter tested for equality with a loop-invariant bound, as `exit-test` leaves a
/// counted loop whose bound is a value: the header branches on a parameter `t` into the loop
/// (when true) or out of it; every latch passes `param + 1` and `t = (param != stop)` (or the
/// counter's zero extension `!= stop`, the bound then below the counter's largest value), computed
/// in the iteration with the header's `param`, and `stop` is defined outside the loop. When
/// the counter enters at most at `stop` it counts up to `stop` and no further: the iteration
/// that runs with `stop` passes a false test. So the body sees `..= stop` and the header
/// `..= stop + 1` ([`Analysis::tested_bound`] checks the entry against the facts).
struct TestedIv {
    param: Value,
    stop: Value,
    /// The edges that enter the loop: the predecessor and the values it passes for `param`
    /// and for the test.
    entries: Vec<(Block, Value, Value)>,
    /// The loop's blocks other than the header.
    body: BTreeSet<Block>,
}

/// The loops whose header branches into the loop when a condition holds and out of it
/// otherwise, with that condition.
fn loops_tested_at_their_headers(k: &Kernel) -> Vec<(crate::analysis::NaturalLoop, Value)> {
    crate::analysis::natural_loops(k)
        .into_iter()
        .filter_map(|l| match &k.blocks[l.header].term {
            Terminator::Branch { cond, then_to, else_to }
                if l.blocks.contains(&then_to.block) && !l.blocks.contains(&else_to.block) =>
            {
                Some((l, *cond))
            }
            _ => None,
        })
        .collect()
}

fn tested_induction_variables(k: &Kernel) -> Vec<TestedIv> {
    let mut out = Vec::new();
    let preds = k.predecessors();
    for (l, cond) in loops_tested_at_their_headers(k) {
        let h = l.header;
        let params = &k.blocks[h].params;
        let Some(test) = params.iter().position(|p| *p == cond) else { continue };
        let outside = |v: Value| match k.values[v].def {
            ValueDef::Param(b, _) => !l.blocks.contains(&b),
            ValueDef::Op(op) => !l.blocks.contains(&k.ops[op].block),
        };
        for (i, &p) in params.iter().enumerate() {
            if i == test {
                continue;
            }
            let mut stop = None;
            let mut entries = Vec::new();
            let mut ok = true;
            for &pred in &preds[h] {
                for t in k.blocks[pred].term.targets() {
                    if t.block != h {
                        continue;
                    }
                    if !l.latches.contains(&pred) {
                        entries.push((pred, t.args[i], t.args[test]));
                        continue;
                    }
                    // The counter, or its zero extension (the same number), against the bound.
                    let counter = |v: Value| {
                        v == p
                            || k.def_op(v).is_some_and(|op| {
                                k.ops[op].kind == OpKind::Cast(CastOp::Zext) && k.ops[op].args[0] == p
                            })
                    };
                    let s = k.def_op(t.args[test]).and_then(|op| match (&k.ops[op].kind, k.ops[op].args.as_slice()) {
                        (OpKind::Cmp(CmpOp::Ne), [a, b]) if counter(*a) => Some(*b),
                        (OpKind::Cmp(CmpOp::Ne), [a, b]) if counter(*b) => Some(*a),
                        _ => None,
                    });
                    ok &= increment_of(k, t.args[i], p) == Some(1)
                        && s.is_some_and(outside)
                        && (stop.is_none() || stop == s);
                    stop = stop.or(s);
                }
            }
            let (Some(stop), true, false) = (stop, ok, entries.is_empty()) else { continue };
            let body = l.blocks.iter().copied().filter(|b| *b != h).collect();
            out.push(TestedIv { param: p, stop, entries, body });
        }
    }
    out
}

/// A loop counter counting down to a signed bound: the header branches into the loop when
/// `param >= lowest` (signed; `sge`, `sgt`, or their mirrors `sle`, `slt`, with a constant, and
/// `lowest` non-negative) and out of it otherwise, and every latch passes `param - c` for a
/// positive constant `c`. Every value the header sees is then at most the largest it entered
/// with (`param - c` of a body value at least `lowest >= 0` cannot wrap), so when the entries
/// are non-negative the body sees `lowest ..= first` ([`Analysis::descending_bound`]). The
/// unsigned intervals cannot say this at the header, where the counter may be negative.
struct DescendingIv {
    param: Value,
    lowest: u64,
    /// The edges that enter the loop: the predecessor and the value it passes for `param`.
    entries: Vec<(Block, Value)>,
    /// The loop's blocks other than the header.
    body: BTreeSet<Block>,
}

fn descending_induction_variables(k: &Kernel) -> Vec<DescendingIv> {
    let mut out = Vec::new();
    let preds = k.predecessors();
    for (l, cond) in loops_tested_at_their_headers(k) {
        let h = l.header;
        let Some(test) = k.def_op(cond) else { continue };
        let (kind, args) = (&k.ops[test].kind, k.ops[test].args.as_slice());
        let [x, y] = args else { continue };
        // (the counter, the bound, whether the bound itself passes)
        let (param, bound, inclusive) = match kind {
            OpKind::Cmp(CmpOp::Sge) => (*x, *y, true),
            OpKind::Cmp(CmpOp::Sgt) => (*x, *y, false),
            OpKind::Cmp(CmpOp::Sle) => (*y, *x, true),
            OpKind::Cmp(CmpOp::Slt) => (*y, *x, false),
            _ => continue,
        };
        let Some(i) = k.blocks[h].params.iter().position(|p| *p == param) else { continue };
        let Some(bound) = k.as_const(bound) else { continue };
        let w = k.width(param);
        let (bound, smax) = (bound & mask(w), mask(w) >> 1);
        let lowest = match (inclusive, bound) {
            (true, b) if b <= smax => b,
            (false, b) if b == mask(w) => 0,
            (false, b) if b < smax => b + 1,
            _ => continue,
        };
        let mut entries = Vec::new();
        let mut ok = true;
        for &pred in &preds[h] {
            for t in k.blocks[pred].term.targets() {
                if t.block != h {
                    continue;
                }
                if l.latches.contains(&pred) {
                    ok &= decrement_of(k, t.args[i], param).is_some();
                } else {
                    entries.push((pred, t.args[i]));
                }
            }
        }
        if ok && !entries.is_empty() {
            let body = l.blocks.iter().copied().filter(|b| *b != h).collect();
            out.push(DescendingIv { param, lowest, entries, body });
        }
    }
    out
}

/// The positive constant `c` when `v` is `p - c` (or `p + (-c)`), `c` below the sign bit.
fn decrement_of(k: &Kernel, v: Value, p: Value) -> Option<u64> {
    let op = k.def_op(v)?;
    let o = &k.ops[op];
    let w = k.width(p);
    let c = match (&o.kind, o.args.as_slice()) {
        (OpKind::Binary(BinOp::Sub), [a, b]) if *a == p => k.as_const(*b)? & mask(w),
        (OpKind::Binary(BinOp::Add), [a, b]) if *a == p => k.as_const(*b)?.wrapping_neg() & mask(w),
        (OpKind::Binary(BinOp::Add), [a, b]) if *b == p => k.as_const(*a)?.wrapping_neg() & mask(w),
        _ => return None,
    };
    (c != 0 && c <= mask(w) >> 1).then_some(c)
}

/// The positive constant `c` when `v` is `p + c`.
fn increment_of(k: &Kernel, v: Value, p: Value) -> Option<u64> {
    let op = k.def_op(v)?;
    let o = &k.ops[op];
    let c = match (&o.kind, o.args.as_slice()) {
        (OpKind::Binary(BinOp::Add), [a, b]) if *a == p => k.as_const(*b)?,
        (OpKind::Binary(BinOp::Add), [a, b]) if *b == p => k.as_const(*a)?,
        _ => return None,
    };
    let w = k.width(p);
    // A step with the sign bit set counts down (wrapping); only counting up is handled.
    (c & mask(w) != 0 && c & mask(w) <= mask(w) >> 1).then_some(c & mask(w))
}

#[derive(Clone, Copy)]
enum Widen {
    /// Join with what was there, widening loop headers (to the whole width when `true`).
    At(bool),
    /// Take what the predecessors pass.
    Narrow,
}

/// Records that `v` also satisfies `f`.
fn add(out: &mut HashMap<Value, Facts>, v: Value, f: Facts) {
    let merged = match out.get(&v) {
        Some(old) => meet(old, &f),
        None => f,
    };
    out.insert(v, merged);
}

/// The comparison that holds when `c` does not.
fn negate(c: CmpOp) -> CmpOp {
    match c {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Ult => CmpOp::Uge,
        CmpOp::Uge => CmpOp::Ult,
        CmpOp::Ule => CmpOp::Ugt,
        CmpOp::Ugt => CmpOp::Ule,
        CmpOp::Slt => CmpOp::Sge,
        CmpOp::Sge => CmpOp::Slt,
        CmpOp::Sle => CmpOp::Sgt,
        CmpOp::Sgt => CmpOp::Sle,
    }
}

/// What `x c y` holding says of `x` and `y`, as facts to meet with theirs. `None` when it says
/// nothing an interval can hold (or the comparison cannot hold: the code does not run).
fn compare(c: CmpOp, x: &Facts, y: &Facts) -> Option<(Facts, Facts)> {
    let w = x.width;
    let smax = mask(w) >> 1;
    let nonnegative = |f: &Facts| f.hi <= smax;
    let unsigned = match c {
        CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge => {
            if nonnegative(x) && nonnegative(y) {
                Some(match c {
                    CmpOp::Slt => CmpOp::Ult,
                    CmpOp::Sle => CmpOp::Ule,
                    CmpOp::Sgt => CmpOp::Ugt,
                    _ => CmpOp::Uge,
                })
            } else {
                None
            }
        }
        other => Some(other),
    };
    let Some(u) = unsigned else {
        // `x >= c` (signed) with `c` non-negative: `x` is non-negative and at least `c`.
        return match (c, y.constant, x.constant) {
            (CmpOp::Sge, Some(k), _) if k <= smax => Some((interval(w, k, smax), y.clone())),
            (CmpOp::Sgt, Some(k), _) if k < smax => Some((interval(w, k + 1, smax), y.clone())),
            (CmpOp::Sle, _, Some(k)) if k <= smax => Some((x.clone(), interval(w, k, smax))),
            (CmpOp::Slt, _, Some(k)) if k < smax => Some((x.clone(), interval(w, k + 1, smax))),
            _ => None,
        };
    };
    let full = |f: &Facts| interval(w, f.lo, f.hi);
    let (mut nx, mut ny) = (full(x), full(y));
    match u {
        CmpOp::Ult => {
            if y.hi == 0 {
                return None;
            }
            nx = interval(w, x.lo, x.hi.min(y.hi - 1));
            ny = interval(w, y.lo.max(x.lo.saturating_add(1).min(mask(w))), y.hi);
        }
        CmpOp::Ule => {
            nx = interval(w, x.lo, x.hi.min(y.hi));
            ny = interval(w, y.lo.max(x.lo), y.hi);
        }
        CmpOp::Ugt => return compare(CmpOp::Ult, y, x).map(|(a, b)| (b, a)),
        CmpOp::Uge => return compare(CmpOp::Ule, y, x).map(|(a, b)| (b, a)),
        CmpOp::Eq => {
            let both = meet(x, y);
            return Some((both.clone(), both));
        }
        CmpOp::Ne => {
            // Only an end of a range can be cut off.
            if let Some(k) = y.constant {
                if x.lo == k && x.lo < x.hi {
                    nx = interval(w, x.lo + 1, x.hi);
                } else if x.hi == k && x.lo < x.hi {
                    nx = interval(w, x.lo, x.hi - 1);
                }
            }
            if let Some(k) = x.constant {
                if y.lo == k && y.lo < y.hi {
                    ny = interval(w, y.lo + 1, y.hi);
                } else if y.hi == k && y.lo < y.hi {
                    ny = interval(w, y.lo, y.hi - 1);
                }
            }
        }
        _ => {}
    }
    if nx.lo > nx.hi || ny.lo > ny.hi {
        return None;
    }
    Some((nx, ny))
}
