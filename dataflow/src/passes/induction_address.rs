//! `induction-address`: an address that a loop computes from its induction variable (`A[s][t]`
//! in a loop over `s`: `(s << 5) + (t + (s << 3))`) becomes a loop parameter of its own that
//! starts at the first iteration's address and steps by a constant (`+ 40`).
//!
//! In hardware the address then comes from a register, not from a chain of adders in the
//! access's own cycle in front of the memory's address multiplexer and its route to every block
//! RAM of the memory: on the ECP5 that chain (two carry chains, the multiplexer, a 2.7 ns route)
//! was the critical path of ludcmp, lu and syr2k at 120 MHz. The adders move onto the
//! parameter's update, off the path to the memory.
//!
//! Exact: the address is an affine function `F(i) = D·i + Σ c·s + K` of the induction variable
//! `i` (every latch passes `i + c`, `c` constant) and of values `s` defined outside the loop,
//! built of additions, subtractions, shifts and multiplications by constants, zero extensions
//! and truncations. The value ranges where the loop's body runs (of `i`, and of each `s`) show
//! that each step computes its form over the integers, or that form moved by the same multiple
//! of `2^width` for every value (`i + 31` on 5 bits is `i - 1` when `i >= 1`), and that `i + c`
//! does not wrap, or wraps only to a value the body never runs with (`i >= 0` counting down:
//! the loop exits at -1). So from one iteration that reads the address to the next the
//! address moves by `D·c`, modulo the address's width as the parameter's update computes it.
//! Each edge into the loop passes `F` of the value it passes for `i`, computed in the edge's
//! block.
//!
//! In a loop that may be pipelined (one without inner loops), only loads of memories the loop
//! does not write: the memory dependence analysis of pipelined loops (`kiln-scheduler`'s
//! `deps`) compares the indices of a memory's accesses where one of them writes, as affine forms
//! of one induction variable, which a parameter per address would hide (a store qualifies
//! when it is the loop's only access to its memory). A loop around another runs as states of
//! the FSM, so there stores and every load qualify. Constant tables (ROMs) keep
//! their indices, which the range analysis reads for the entries a load can return. Only loops
//! entered from blocks that may compute the first address: not from a pipelined loop before this
//! one (an unrolled loop's remainder follows it), whose values reach the code after it only as
//! its parameters.

use super::Pass;
use crate::analysis::{NaturalLoop, natural_loops};
use crate::egraph::analysis::Facts;
use crate::ir::op::{mask, sext};
use crate::ir::*;
use crate::ranges::ValueRanges;
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub struct InductionAddress {
    /// Also keep the first addresses of inner loops in parameters of the loops around them
    /// (see [`InductionAddress::run`]).
    pub first_addresses_in_outer_loops: bool,
}

impl Pass for InductionAddress {
    fn name(&self) -> &'static str {
        "induction-address"
    }
    fn description(&self) -> &'static str {
        "keeps the addresses a loop steps by a constant in loop parameters (registers) of their own"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        // A second round keeps in the loops around them the first addresses that the first
        // computes for inner loops (a row's `30 * (i - 1)`: a multiply in front of the inner
        // loop's address register, fdtd-2d's critical path on the ECP5), when the target asks:
        // each such register has its own enable from the outer loop's states, whose routes
        // cost more on the iCE40 than the arithmetic they take off (trmm 60.8 -> 57.2 MHz,
        // fdtd-2d 53.6 -> 50.9, matmul 62.9 -> 60.8, medians of three placements).
        let rounds = if self.first_addresses_in_outer_loops { 3 } else { 1 };
        let mut changed = false;
        for _round in 0..rounds {
            if !self.round(k) {
                break;
            }
            changed = true;
        }
        changed
    }
}

impl InductionAddress {
    fn round(&self, k: &mut Kernel) -> bool {
        let loops = natural_loops(k);
        // Loops come outer before inner: the last one holding a block is its innermost.
        let mut innermost: HashMap<Block, usize> = HashMap::new();
        for (n, l) in loops.iter().enumerate() {
            for &b in &l.blocks {
                innermost.insert(b, n);
            }
        }
        let ranges = ValueRanges::compute(k);
        let rewrites: Vec<(usize, Rewrite)> = (0..loops.len())
            .flat_map(|n| plan_loop(k, &ranges, &loops, n, &innermost).into_iter().map(move |r| (n, r)))
            .collect();
        // Every parameter's first value is computed from the addresses as the loop had them,
        // before any address is replaced (one may be computed from another).
        let params: Vec<(Value, Value)> =
            rewrites.iter().map(|(n, r)| (r.address, add_parameter(k, &loops[*n], r))).collect();
        k.replace_all_uses(&params.iter().copied().collect());
        !params.is_empty()
    }
}

/// An address to keep in a loop parameter.
struct Rewrite {
    /// The address (below the zero extensions to the memory's index width).
    address: Value,
    /// The induction variable, its index among the header's parameters, and its step.
    iv: Value,
    iv_index: usize,
    /// The parameter's step, modulo `2^width(address)`.
    step: u64,
}

/// `D·iv + Σ c·s + K` over the integers.
#[derive(Clone, Debug, Default)]
struct Form {
    iv: i128,
    syms: BTreeMap<Value, i128>,
    konst: i128,
    /// Whether an addition or multiplication computes it (otherwise it is the induction
    /// variable shifted and extended: wiring, nothing to gain).
    arithmetic: bool,
}

impl Form {
    fn combine(&self, other: &Form, sign: i128) -> Form {
        let mut syms = self.syms.clone();
        for (v, c) in &other.syms {
            *syms.entry(*v).or_insert(0) += sign * c;
        }
        syms.retain(|_, c| *c != 0);
        Form { iv: self.iv + sign * other.iv, syms, konst: self.konst + sign * other.konst, arithmetic: true }
    }

    fn scale(&self, f: i128, arithmetic: bool) -> Form {
        Form {
            iv: self.iv * f,
            syms: self.syms.iter().map(|(v, c)| (*v, c * f)).filter(|(_, c)| *c != 0).collect(),
            konst: self.konst * f,
            arithmetic: self.arithmetic || arithmetic,
        }
    }
}

/// The addresses of loop `n`'s own loads (not those of loops inside it) to rewrite.
fn plan_loop(
    k: &Kernel,
    ranges: &ValueRanges,
    loops: &[NaturalLoop],
    n: usize,
    innermost: &HashMap<Block, usize>,
) -> Vec<Rewrite> {
    let l = &loops[n];
    if !entered_from_enclosing_loops(k, loops, l) {
        return Vec::new();
    }
    let ivs = induction_variables(k, ranges, l);
    // A loop around another runs as states of the FSM, never as a pipeline, so no dependence
    // analysis reads its indices: its stores and the loads of what it writes qualify too.
    let sequential = l.blocks.iter().any(|b| innermost.get(b) != Some(&n));
    let ops_in_loop = || l.blocks.iter().flat_map(|b| &k.blocks[*b].ops).map(|op| &k.ops[*op]);
    let written: BTreeSet<Mem> =
        ops_in_loop().filter(|o| o.kind.has_side_effect()).filter_map(|o| o.kind.mem()).collect();
    // A memory's only access in a loop has no other access to be compared with (and with
    // itself its index compares the same as a parameter).
    let mut accesses: HashMap<Mem, usize> = HashMap::new();
    for m in ops_in_loop().filter_map(|o| o.kind.mem()) {
        *accesses.entry(m).or_default() += 1;
    }
    let alone = |m: Mem| accesses.get(&m) == Some(&1);
    // The addresses of the loop's own memory operations, and the first addresses it passes to
    // the address parameters of the loops inside it.
    let mut candidates = Vec::new();
    for &b in &l.blocks {
        if innermost.get(&b) != Some(&n) {
            continue;
        }
        for &op in &k.blocks[b].ops {
            let o = &k.ops[op];
            let m = match o.kind {
                OpKind::Load(m) if sequential || !written.contains(&m) => m,
                OpKind::Store(m) if sequential || alone(m) => m,
                _ => continue,
            };
            if k.mems[m].kind != MemKind::Rom {
                candidates.push(o.args[0]);
            }
        }
        for t in k.blocks[b].term.targets() {
            if t.block == l.header || !loops.iter().any(|x| x.header == t.block) {
                continue;
            }
            for (param, arg) in k.blocks[t.block].params.iter().zip(&t.args) {
                if is_address_parameter(k, t.block, *param) {
                    candidates.push(*arg);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    {
        for candidate in candidates {
            let address = below_extensions(k, l, candidate);
            if !seen.insert(address) || k.width(address) > 32 {
                continue;
            }
            let mut walk = FormWalk { k, ranges, l, ivs: &ivs, iv: None, memo: HashMap::new() };
            let Some(form) = walk.form(address) else { continue };
            let Some(iv) = walk.iv else { continue };
            if !form.arithmetic || form.iv == 0 {
                continue;
            }
            let Counter { index: iv_index, step, .. } = ivs[&iv];
            let w = k.width(address);
            let step = (form.iv * step).rem_euclid(1i128 << w) as u64;
            out.push(Rewrite { address, iv, iv_index, step });
        }
    }
    out
}

/// Whether parameter `param` of loop header `header` is an address this pass made: read only
/// as memory operations' addresses (through zero extensions) and by its step, an addition read
/// only as what the loop's latches pass back for it.
fn is_address_parameter(k: &Kernel, header: Block, param: Value) -> bool {
    let index = k.blocks[header].params.iter().position(|p| *p == param);
    let in_terminators = |v: Value| k.blocks.values().filter(|b| b.term.uses().contains(&v)).count() > 0;
    // Only as the argument `index` of edges to the header.
    let passed_back_only = |v: Value| {
        k.ops.values().all(|o| !o.args.contains(&v))
            && k.blocks.values().all(|b| match &b.term {
                Terminator::Branch { cond, .. } if *cond == v => false,
                Terminator::Switch { value, .. } if *value == v => false,
                term => term.targets().iter().all(|t| {
                    t.args.iter().enumerate().all(|(j, a)| *a != v || (t.block == header && Some(j) == index))
                }),
            })
    };
    let mut pending = vec![param];
    let mut read = false;
    while let Some(v) = pending.pop() {
        if in_terminators(v) {
            return false;
        }
        for o in k.ops.values() {
            for (i, _) in o.args.iter().enumerate().filter(|(_, a)| **a == v) {
                read = true;
                match o.kind {
                    OpKind::Load(_) | OpKind::Store(_) if i == 0 => {}
                    OpKind::Cast(CastOp::Zext) => pending.extend(o.result),
                    OpKind::Binary(BinOp::Add) if v == param && o.result.is_some_and(passed_back_only) => {}
                    _ => return false,
                }
            }
        }
    }
    read
}

/// Whether every edge into loop `l` comes from a block that may compute the first address: one
/// of the loops around it, or of a loop before it that runs as FSM states (it has an inner
/// loop). A pipelined loop's values reach the code after it only as its parameters.
fn entered_from_enclosing_loops(k: &Kernel, loops: &[NaturalLoop], l: &NaturalLoop) -> bool {
    let preds = k.predecessors();
    let has_inner_loop = |o: &NaturalLoop| loops.iter().any(|x| x.header != o.header && o.blocks.contains(&x.header));
    preds[l.header]
        .iter()
        .filter(|p| !l.latches.contains(p))
        .all(|p| loops.iter().all(|o| !o.blocks.contains(p) || o.blocks.contains(&l.header) || has_inner_loop(o)))
}

/// An induction variable of a loop: its index among the header's parameters, its step, and
/// the values it takes where the loop's body runs.
struct Counter {
    index: usize,
    step: i128,
    in_body: Facts,
}

/// The loop's induction variables that count without wrapping where it matters: header
/// parameter → [`Counter`]. Every latch passes the parameter plus (or minus) one constant,
/// and each value the body runs with, moved by the step, stays in the parameter's width or
/// wraps to a value the body never runs with (so that the loop exits there: `i >= 0` counting
/// down to -1).
///
/// The ranges that count are the body's (the blocks other than the header): an address
/// parameter is read there only, and every iteration that continues runs a latch, so between
/// two iterations that read it the counter moved by exactly the step.
fn induction_variables(k: &Kernel, ranges: &ValueRanges, l: &NaturalLoop) -> HashMap<Value, Counter> {
    let mut out = HashMap::new();
    for (index, &p) in k.blocks[l.header].params.iter().enumerate() {
        let mut step = None;
        let mut ok = true;
        for &latch in &l.latches {
            for t in k.blocks[latch].term.targets() {
                if t.block != l.header {
                    continue;
                }
                let s = step_of(k, t.args[index], p);
                ok &= s.is_some() && (step.is_none() || step == s);
                step = step.or(s);
            }
        }
        let (Some(step), true) = (step, ok) else { continue };
        let in_body = in_body(k, ranges, l, p);
        let (lo, hi, size) = (i128::from(in_body.lo), i128::from(in_body.hi), 1i128 << k.width(p));
        let moved = if step > 0 { hi + step } else { lo + step };
        let stays = (0..size).contains(&moved);
        let leaves = if step > 0 { moved - size < lo } else { moved + size > hi };
        if step != 0 && step.abs() < size && (stays || leaves) {
            out.insert(p, Counter { index, step, in_body });
        }
    }
    out
}

/// What `v` can be where loop `l`'s body (its blocks other than the header) runs.
fn in_body(k: &Kernel, ranges: &ValueRanges, l: &NaturalLoop, v: Value) -> Facts {
    l.blocks
        .iter()
        .filter(|b| **b != l.header)
        .map(|b| ranges.facts_in(k, *b, v))
        .reduce(|a, b| crate::ranges::join(&a, &b))
        .unwrap_or_else(|| ranges.facts(k, v))
}

/// The constant `c` when `v` is `p + c` or `p - c` (a constant with its sign bit set counts
/// down).
fn step_of(k: &Kernel, v: Value, p: Value) -> Option<i128> {
    let op = k.def_op(v)?;
    let o = &k.ops[op];
    let w = k.width(p);
    let signed = |c: Value| k.as_const(c).map(|c| i128::from(sext(c & mask(w), w)));
    match (&o.kind, o.args.as_slice()) {
        (OpKind::Binary(BinOp::Add), [a, b]) if *a == p => signed(*b),
        (OpKind::Binary(BinOp::Add), [a, b]) if *b == p => signed(*a),
        (OpKind::Binary(BinOp::Sub), [a, b]) if *a == p => signed(*b).map(|c| -c),
        _ => None,
    }
}

/// `v` without the zero extensions the loop applies to it.
fn below_extensions(k: &Kernel, l: &NaturalLoop, mut v: Value) -> Value {
    while let Some(op) = k.def_op(v)
        && l.blocks.contains(&k.ops[op].block)
        && k.ops[op].kind == OpKind::Cast(CastOp::Zext)
    {
        v = k.ops[op].args[0];
    }
    v
}

/// Reads a value as a [`Form`] of one induction variable, checking that no step wraps.
struct FormWalk<'a> {
    k: &'a Kernel,
    ranges: &'a ValueRanges,
    l: &'a NaturalLoop,
    ivs: &'a HashMap<Value, Counter>,
    /// The induction variable the form is of (one per address).
    iv: Option<Value>,
    memo: HashMap<Value, Option<Form>>,
}

impl FormWalk<'_> {
    fn form(&mut self, v: Value) -> Option<Form> {
        if let Some(f) = self.memo.get(&v) {
            return f.clone();
        }
        let f = self.compute(v).and_then(|f| self.in_width(f, self.k.width(v)));
        self.memo.insert(v, f.clone());
        f
    }

    fn compute(&mut self, v: Value) -> Option<Form> {
        let k = self.k;
        if let Some(c) = k.as_const(v) {
            return Some(Form { konst: i128::from(c & mask(k.width(v))), ..Form::default() });
        }
        let inside = match k.values[v].def {
            ValueDef::Param(b, _) => self.l.blocks.contains(&b),
            ValueDef::Op(op) => self.l.blocks.contains(&k.ops[op].block),
        };
        if !inside {
            return Some(Form { syms: BTreeMap::from([(v, 1)]), ..Form::default() });
        }
        let op = match k.values[v].def {
            ValueDef::Param(..) => {
                if !self.ivs.contains_key(&v) || self.iv.is_some_and(|iv| iv != v) {
                    return None;
                }
                self.iv = Some(v);
                return Some(Form { iv: 1, ..Form::default() });
            }
            ValueDef::Op(op) => op,
        };
        let o = &k.ops[op];
        let constant = |i: usize| k.as_const(o.args[i]).map(|c| i128::from(c & mask(k.width(o.args[i]))));
        match &o.kind {
            OpKind::Binary(BinOp::Add) => Some(self.form(o.args[0])?.combine(&self.form(o.args[1])?, 1)),
            OpKind::Binary(BinOp::Sub) => Some(self.form(o.args[0])?.combine(&self.form(o.args[1])?, -1)),
            OpKind::Binary(BinOp::Mul) => match (constant(0), constant(1)) {
                (_, Some(c)) => Some(self.form(o.args[0])?.scale(c, true)),
                (Some(c), _) => Some(self.form(o.args[1])?.scale(c, true)),
                _ => None,
            },
            OpKind::Binary(BinOp::Shl) => {
                let count = constant(1).filter(|c| *c < i128::from(k.width(v)))?;
                Some(self.form(o.args[0])?.scale(1 << count, false))
            }
            // Exact when the value fits the narrower width, which `form` checks of every value.
            OpKind::Cast(CastOp::Zext | CastOp::Trunc) => self.form(o.args[0]),
            _ => None,
        }
    }

    /// The value `f` computed in `width` bits: `f` itself when every value it takes is in
    /// `0 ..= 2^width - 1`, `f` moved by a multiple of `2^width` when all its values are in
    /// one such window (`i + 31` on 5 bits, `i` at least 1, is `i - 1`: how the e-graph phase
    /// writes a subtraction), by the ranges of the induction variable and of the symbols.
    /// `None` when its values wrap differently.
    fn in_width(&self, mut f: Form, width: u32) -> Option<Form> {
        let (mut lo, mut hi) = (f.konst, f.konst);
        let terms =
            self.iv.filter(|_| f.iv != 0).map(|iv| (iv, f.iv)).into_iter().chain(f.syms.iter().map(|(v, c)| (*v, *c)));
        for (v, c) in terms {
            let r = match self.ivs.get(&v) {
                Some(counter) => counter.in_body.clone(),
                None => in_body(self.k, self.ranges, self.l, v),
            };
            let (a, b) = (c * i128::from(r.lo), c * i128::from(r.hi));
            lo += a.min(b);
            hi += a.max(b);
        }
        let size = 1i128 << width;
        let window = lo.div_euclid(size);
        if hi.div_euclid(size) != window {
            return None;
        }
        f.konst -= window * size;
        Some(f)
    }
}

/// Gives `r.address` a parameter of loop `l`'s header: the first address on each edge into the
/// loop, the parameter plus the step on each latch. Returns the parameter.
fn add_parameter(k: &mut Kernel, l: &NaturalLoop, r: &Rewrite) -> Value {
    let header = l.header;
    let w = k.width(r.address);
    let span = k.def_op(r.address).map_or(k.blocks[header].span, |op| k.ops[op].span);
    let param = k.add_param(header, w, None);
    for pred in k.predecessors()[header].clone() {
        let latch = l.latches.contains(&pred);
        let iv_values: Vec<Value> = k.blocks[pred]
            .term
            .targets()
            .into_iter()
            .filter(|t| t.block == header)
            .map(|t| t.args[r.iv_index])
            .collect();
        let mut args = Vec::with_capacity(iv_values.len());
        for iv_value in iv_values {
            args.push(if latch {
                let step = k.push_value(pred, OpKind::Const(r.step), vec![], w, span);
                k.push_value(pred, OpKind::Binary(BinOp::Add), vec![param, step], w, span)
            } else {
                clone_at(k, l, pred, r.address, r.iv, iv_value, &mut HashMap::new())
            });
        }
        let mut args = args.into_iter();
        for t in k.blocks[pred].term.targets_mut() {
            if t.block == header
                && let Some(a) = args.next()
            {
                t.args.push(a);
            }
        }
    }
    param
}

/// `v` computed in block `into` with `iv_value` for the induction variable `iv` (the loop's
/// ops that compute it, copied; values from outside the loop as they are).
fn clone_at(
    k: &mut Kernel,
    l: &NaturalLoop,
    into: Block,
    v: Value,
    iv: Value,
    iv_value: Value,
    memo: &mut HashMap<Value, Value>,
) -> Value {
    if v == iv {
        return iv_value;
    }
    if let Some(c) = memo.get(&v) {
        return *c;
    }
    let Some(op) = k.def_op(v).filter(|op| l.blocks.contains(&k.ops[*op].block)) else { return v };
    let o = k.ops[op].clone();
    let args = o.args.iter().map(|a| clone_at(k, l, into, *a, iv, iv_value, memo)).collect();
    let c = k.push_value(into, o.kind, args, k.width(v), o.span);
    memo.insert(v, c);
    c
}
