//! The schedule flattened once, before the first cycle, into what each cycle looks up: per
//! operation its class, times, operand widths and predicate; per FSM state the operations that
//! act in it; per pipelined loop its operations by relative cycle and a dense slot for every
//! value an iteration owns. A cycle then neither hashes nor searches the schedule.

use kiln_dataflow::ir::op::{compare, mask, sext};
use kiln_dataflow::ir::{BinOp, Block, CastOp, CmpOp, Kernel, Op, OpKind, UnOp, Value, ValueDef};
use kiln_scheduler::pipeline::Pipeline;
use kiln_scheduler::schedule::OpTime;
use kiln_scheduler::{OpClass, Schedule};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::rc::Rc;

/// Operand values of one operation: on the stack for all but the widest vector operations.
pub(crate) enum Args {
    Inline([u64; 8], usize),
    Heap(Vec<u64>),
}

impl Args {
    /// The values of `n` operands, the `i`th from `value(i)`.
    #[inline]
    pub(crate) fn gather(n: usize, value: impl Fn(usize) -> u64) -> Args {
        if n <= 8 {
            let mut a = [0; 8];
            for (i, slot) in a.iter_mut().enumerate().take(n) {
                *slot = value(i);
            }
            Args::Inline(a, n)
        } else {
            Args::Heap((0..n).map(value).collect())
        }
    }
}

impl std::ops::Deref for Args {
    type Target = [u64];
    #[inline]
    fn deref(&self) -> &[u64] {
        match self {
            Args::Inline(a, n) => &a[..*n],
            Args::Heap(v) => v,
        }
    }
}

/// What the simulator needs of one operation.
pub(crate) struct OpInfo {
    pub class: OpClass,
    pub time: OpTime,
    pub arg_widths: SmallVec<[u32; 4]>,
    /// The result's width (1 without a result, as the evaluator expects).
    pub width: u32,
    pub predicate: Option<Value>,
}

/// An operation acting in a step of a state, or in a relative cycle of a pipeline.
#[derive(Clone, Copy)]
pub(crate) struct Active {
    pub op: Op,
    /// Its value can be computed before the step's responses arrive (combinational, not fed by
    /// a response consumed in the same step), so requests can present it.
    pub early: bool,
    /// It runs only when its iteration's test passes (the body of a test-first loop).
    pub guarded: bool,
    /// Its operands in [`Plan::refs`] (pipelines only): `refs[args.0..args.0 + args.1]`.
    pub args: (u32, u32),
    /// An operation the evaluator computes from its operands alone (not a pipe's or a word's
    /// lane, not a `printf`).
    pub plain: bool,
    /// How a pipeline computes it (pipelines only; [`Micro::Generic`] elsewhere).
    pub micro: Micro,
    /// Its result's slot in its iteration ([`NO_SLOT`] without one) and width mask.
    pub res: u32,
    pub mask: u64,
    pub class: OpClass,
    /// Whether the cycle it is listed in is its start (else the end of a port load).
    pub starts: bool,
    /// A memory access or pipe transfer, enabled by its predicate (`pred`, pipelines only)
    /// and, when guarded, its iteration's test.
    pub gated: bool,
    pub pred: Option<Ref>,
}

/// The common integer operations with their operands resolved, computed in place; everything
/// else goes through the shared evaluator ([`kiln_dataflow::ir::op::eval`]), whose results
/// these equal bit for bit (`tests::micro_ops_equal_the_evaluator`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Micro {
    Add(Ref, Ref),
    Sub(Ref, Ref),
    Mul(Ref, Ref),
    And(Ref, Ref),
    Or(Ref, Ref),
    Xor(Ref, Ref),
    /// Shifts of a `.2`-bit result by an operand of `.3` bits, the count taken modulo `.2`.
    Shl(Ref, Ref, u32, u64),
    LShr(Ref, Ref, u32, u64),
    AShr(Ref, Ref, u32, u64),
    Neg(Ref),
    Not(Ref),
    /// A comparison of operands of width `.3`.
    Cmp(CmpOp, Ref, Ref, u32),
    Select(Ref, Ref, Ref),
    /// Zero extension or truncation: the operand's low `.1` bits.
    Zext(Ref, u64),
    /// Sign extension from width `.1`.
    Sext(Ref, u32),
    Generic,
}

impl Micro {
    fn of(k: &Kernel, op: Op, arg: &dyn Fn(usize) -> Ref) -> Micro {
        let o = &k.ops[op];
        let n = o.args.len();
        let width = |i: usize| k.width(o.args[i]);
        let result_width = o.result.map(|r| k.width(r)).unwrap_or(1);
        match o.kind {
            OpKind::Binary(b) if n == 2 => match b {
                BinOp::Add => Micro::Add(arg(0), arg(1)),
                BinOp::Sub => Micro::Sub(arg(0), arg(1)),
                BinOp::Mul => Micro::Mul(arg(0), arg(1)),
                BinOp::And => Micro::And(arg(0), arg(1)),
                BinOp::Or => Micro::Or(arg(0), arg(1)),
                BinOp::Xor => Micro::Xor(arg(0), arg(1)),
                BinOp::Shl => Micro::Shl(arg(0), arg(1), result_width, mask(width(1))),
                BinOp::LShr => Micro::LShr(arg(0), arg(1), result_width, mask(width(1))),
                BinOp::AShr => Micro::AShr(arg(0), arg(1), result_width, mask(width(1))),
                _ => Micro::Generic,
            },
            OpKind::Unary(UnOp::Neg) if n == 1 => Micro::Neg(arg(0)),
            OpKind::Unary(UnOp::Not) if n == 1 => Micro::Not(arg(0)),
            OpKind::Cmp(c) if n == 2 => Micro::Cmp(c, arg(0), arg(1), width(0)),
            OpKind::Select if n == 3 => Micro::Select(arg(0), arg(1), arg(2)),
            OpKind::Cast(CastOp::Zext | CastOp::Trunc) if n == 1 => Micro::Zext(arg(0), mask(width(0))),
            OpKind::Cast(CastOp::Sext) if n == 1 => Micro::Sext(arg(0), width(0)),
            _ => Micro::Generic,
        }
    }

    /// The result (masked by `m`), with `get` reading an operand.
    #[inline]
    pub(crate) fn eval(self, m: u64, get: impl Fn(Ref) -> u64) -> Option<u64> {
        Some(
            m & match self {
                Micro::Add(x, y) => get(x).wrapping_add(get(y)),
                Micro::Sub(x, y) => get(x).wrapping_sub(get(y)),
                Micro::Mul(x, y) => get(x).wrapping_mul(get(y)),
                Micro::And(x, y) => get(x) & get(y),
                Micro::Or(x, y) => get(x) | get(y),
                Micro::Xor(x, y) => get(x) ^ get(y),
                // The value shifted is the operand's low `w` bits, as the evaluator takes it.
                Micro::Shl(x, y, w, ym) => (get(x) & mask(w)).wrapping_shl(((get(y) & ym) % u64::from(w)) as u32),
                Micro::LShr(x, y, w, ym) => (get(x) & mask(w)).wrapping_shr(((get(y) & ym) % u64::from(w)) as u32),
                Micro::AShr(x, y, w, ym) => {
                    sext(get(x) & mask(w), w).wrapping_shr(((get(y) & ym) % u64::from(w)) as u32) as u64
                }
                Micro::Neg(x) => get(x).wrapping_neg(),
                Micro::Not(x) => !get(x),
                Micro::Cmp(c, x, y, w) => compare(c, get(x), get(y), w) as u64,
                Micro::Select(c, x, y) => {
                    if get(c) & 1 == 1 {
                        get(x)
                    } else {
                        get(y)
                    }
                }
                Micro::Zext(x, om) => get(x) & om,
                Micro::Sext(x, w) => sext(get(x), w) as u64,
                Micro::Generic => return None,
            },
        )
    }
}

/// Where a pipelined operation's operand lives: in its iteration's slots, or shared with the
/// code around the loop (by value number).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ref {
    Iter(u32),
    Shared(Value),
}

/// What an iteration does in one relative cycle of a pipelined loop.
#[derive(Default)]
pub(crate) struct Cycle {
    /// The early ops that start in the cycle (computed before its requests are presented).
    pub early: Vec<Active>,
    /// In the pipeline's order, the ops that start in the cycle and the port loads whose
    /// response arrives in it, but for the settled ones: early, and fed by no pipe transfer
    /// of the cycle, their value from before the responses is final.
    pub commit: Vec<Active>,
    /// Its port accesses and pipe transfers.
    pub requests: Vec<Active>,
    /// The loop-carried registers the iteration reads (into the parameter's slot) and writes
    /// (the next iteration's value, from its argument).
    pub param_reads: Vec<(u32, Value)>,
    pub param_writes: Vec<(Value, Ref)>,
}

/// A pipelined loop's operations by relative cycle, and the slots of its iteration values.
pub(crate) struct Plan {
    cycles: Vec<Cycle>,
    none: Cycle,
    pub refs: Vec<Ref>,
    /// By value number: the slot of each value an iteration owns (defined in the loop's
    /// blocks, not a constant); [`NO_SLOT`] for values the loop shares with the code around it.
    slots: Vec<u32>,
    pub slot_count: usize,
    /// Whether the loop has pipe transfers (whose results early values may read).
    pub has_transfers: bool,
}

pub(crate) const NO_SLOT: u32 = u32::MAX;

impl Plan {
    /// What an iteration does in its relative cycle `r`.
    #[inline]
    pub(crate) fn at(&self, r: u32) -> &Cycle {
        self.cycles.get(r as usize).unwrap_or(&self.none)
    }

    pub(crate) fn args(&self, a: &Active) -> &[Ref] {
        &self.refs[a.args.0 as usize..(a.args.0 + a.args.1) as usize]
    }

    /// The iteration slot of `v`, or [`NO_SLOT`].
    #[inline]
    pub(crate) fn slot(&self, v: Value) -> u32 {
        self.slots.get(v.as_u32() as usize).copied().unwrap_or(NO_SLOT)
    }
}

/// Everything precomputed for one schedule.
pub(crate) struct Tables {
    info: Vec<OpInfo>,
    /// Per block, per step: the ops that start or end in it.
    steps: Vec<Vec<Vec<Active>>>,
    pub plans: Vec<Rc<Plan>>,
}

impl Tables {
    pub(crate) fn of(s: &Schedule) -> Tables {
        let k = &s.kernel;
        let info = k
            .ops
            .iter()
            .map(|(op, o)| OpInfo {
                class: s.class(op),
                time: s.time[op],
                arg_widths: o.args.iter().map(|a| k.width(*a)).collect(),
                width: o.result.map(|r| k.width(r)).unwrap_or(1),
                predicate: o.predicate(),
            })
            .collect::<Vec<_>>();
        let mut steps = Vec::with_capacity(k.blocks.len());
        for (b, block) in k.blocks.iter() {
            // Each op once, into the steps it starts and ends in, in block order (what
            // `Schedule::ops_at` lists). A Comb op acts in its start step only, so one memo
            // serves the whole block.
            let mut per_step: Vec<Vec<Active>> = (0..s.steps[b]).map(|_| Vec::new()).collect();
            let mut memo = memo_for(k);
            for &op in &block.ops {
                if s.class(op) == OpClass::Constant {
                    continue;
                }
                let t = s.time[op];
                let at = if t.end == t.start { vec![t.start] } else { vec![t.start, t.end] };
                for i in at {
                    let Some(list) = per_step.get_mut(i as usize) else { continue };
                    let early = is_early(s, op, i, &|d| k.ops[d].block == b, &mut memo);
                    list.push(Active {
                        op,
                        early,
                        guarded: false,
                        args: (0, 0),
                        plain: plain(k, op),
                        micro: Micro::Generic,
                        res: NO_SLOT,
                        mask: result_mask(k, op),
                        class: s.class(op),
                        starts: t.start == i,
                        gated: k.ops[op].kind.is_memory() || k.ops[op].kind.is_pipe_transfer(),
                        pred: None,
                    });
                }
            }
            steps.push(per_step);
        }
        let plans = s.pipelines.iter().map(|p| Rc::new(plan_of(s, p))).collect();
        Tables { info, steps, plans }
    }

    #[inline]
    pub(crate) fn info(&self, op: Op) -> &OpInfo {
        &self.info[op.as_u32() as usize]
    }

    pub(crate) fn step(&self, b: Block, i: u32) -> &[Active] {
        self.steps.get(b.as_u32() as usize).and_then(|s| s.get(i as usize)).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Whether combinational `op`, starting in cycle `r`, has its value before the cycle's
/// responses arrive: it is not fed (through ops of the same region, `same_region`) by a port
/// load whose response is consumed in `r`.
fn is_early(s: &Schedule, op: Op, r: u32, same_region: &dyn Fn(Op) -> bool, memo: &mut Memo) -> bool {
    let t = s.time[op];
    s.class(op) == OpClass::Comb
        && t.start == r
        && !matches!(s.kernel.ops[op].kind, OpKind::Print(_))
        && !waits_for_response(s, op, r, same_region, memo)
}

/// Answers per op of a recursive question, by op number.
type Memo = Vec<Option<bool>>;

fn memo_for(k: &Kernel) -> Memo {
    vec![None; k.ops.len()]
}

fn waits_for_response(s: &Schedule, op: Op, r: u32, same_region: &dyn Fn(Op) -> bool, memo: &mut Memo) -> bool {
    if let Some(v) = memo[op.as_u32() as usize] {
        return v;
    }
    let k = &s.kernel;
    let t = s.time[op];
    let res = match s.class(op) {
        OpClass::PortLoad(_) => t.end == r,
        OpClass::Comb if t.start == r => k.ops[op].args.iter().any(|a| match k.values[*a].def {
            ValueDef::Op(d) if same_region(d) && s.time[d].end == r => waits_for_response(s, d, r, same_region, memo),
            _ => false,
        }),
        _ => false,
    };
    memo[op.as_u32() as usize] = Some(res);
    res
}

/// Whether `op`'s value in cycle `r` comes, through combinational ops of that cycle, from a pipe
/// transfer of that cycle (whose result is known only once the transfer happens).
fn after_transfer(s: &Schedule, op: Op, r: u32, members: &[bool], memo: &mut Memo) -> bool {
    if let Some(v) = memo[op.as_u32() as usize] {
        return v;
    }
    let k = &s.kernel;
    let res = matches!(s.class(op), OpClass::PipeTransfer(_))
        || matches!(k.ops[op].kind, OpKind::PipeLane { .. })
        || k.ops[op].args.iter().any(|a| match k.values[*a].def {
            ValueDef::Op(d) if members[d.as_u32() as usize] && s.time[d].end == r && s.time[d].start == r => {
                after_transfer(s, d, r, members, memo)
            }
            _ => false,
        });
    memo[op.as_u32() as usize] = Some(res);
    res
}

fn plan_of(s: &Schedule, p: &Pipeline) -> Plan {
    let k: &Kernel = &s.kernel;
    let blocks = p.blocks();
    let mut slot = HashMap::new();
    let owned = |v: Value, slot: &mut HashMap<Value, u32>| {
        if k.as_const(v).is_none() {
            let n = slot.len() as u32;
            slot.entry(v).or_insert(n);
        }
    };
    for &b in &blocks {
        for &v in &k.blocks[b].params {
            owned(v, &mut slot);
        }
        for &op in &k.blocks[b].ops {
            if let Some(r) = k.ops[op].result {
                owned(r, &mut slot);
            }
        }
    }
    let mut slots = vec![NO_SLOT; k.values.len()];
    for (v, n) in &slot {
        slots[v.as_u32() as usize] = *n;
    }
    let slot_count = slot.len();

    let mut members = vec![false; k.ops.len()];
    for op in &p.ops {
        members[op.as_u32() as usize] = true;
    }
    let mut cycles: Vec<Cycle> = Vec::new();
    let mut refs = Vec::new();
    let mut memo = memo_for(k);
    let mut transfer_memo = memo_for(k);
    let reference = |v: Value| match slot.get(&v) {
        Some(n) => Ref::Iter(*n),
        None => Ref::Shared(v),
    };
    let grow = |cycles: &mut Vec<Cycle>, r: usize| {
        if cycles.len() <= r {
            cycles.resize_with(r + 1, Cycle::default);
        }
    };
    for &op in &p.ops {
        let t = s.time[op];
        let mut at = vec![t.start];
        if matches!(s.class(op), OpClass::PortLoad(_)) && t.end != t.start {
            at.push(t.end);
        }
        let args = (refs.len() as u32, k.ops[op].args.len() as u32);
        refs.extend(k.ops[op].args.iter().map(|a| reference(*a)));
        let request = matches!(s.class(op), OpClass::PortLoad(_) | OpClass::PortStore(_) | OpClass::PipeTransfer(_));
        for r in at {
            // A Comb op's start is its only cycle, so one memo serves every `r` it is asked at.
            let early = is_early(s, op, r, &|d| members[d.as_u32() as usize], &mut memo);
            let settled = early && !after_transfer(s, op, r, &members, &mut transfer_memo);
            let micro = Micro::of(k, op, &|i| reference(k.ops[op].args[i]));
            let res = k.ops[op].result.and_then(|v| slot.get(&v).copied()).unwrap_or(NO_SLOT);
            let a = Active {
                op,
                early,
                guarded: p.guarded.contains(&op),
                args,
                plain: plain(k, op),
                micro,
                res,
                mask: result_mask(k, op),
                class: s.class(op),
                starts: t.start == r,
                gated: k.ops[op].kind.is_memory() || k.ops[op].kind.is_pipe_transfer(),
                pred: k.ops[op].predicate().map(reference),
            };
            grow(&mut cycles, r as usize);
            let c = &mut cycles[r as usize];
            if early {
                c.early.push(a);
            }
            if !settled {
                c.commit.push(a);
            }
            if request {
                c.requests.push(a);
            }
        }
    }
    for pp in &p.params {
        grow(&mut cycles, pp.read.max(pp.write) as usize);
        if let Some(n) = slot.get(&pp.param) {
            cycles[pp.read as usize].param_reads.push((*n, pp.param));
        }
        cycles[pp.write as usize].param_writes.push((pp.param, reference(pp.arg)));
    }
    let has_transfers = p.ops.iter().any(|op| matches!(s.class(*op), OpClass::PipeTransfer(_)));
    Plan { cycles, none: Cycle::default(), refs, slots, slot_count, has_transfers }
}

fn result_mask(k: &Kernel, op: Op) -> u64 {
    mask(k.ops[op].result.map(|r| k.width(r)).unwrap_or(1))
}

/// Whether the evaluator computes `op` from its operands alone.
fn plain(k: &Kernel, op: Op) -> bool {
    !matches!(
        k.ops[op].kind,
        OpKind::PipeLane { .. } | OpKind::WordLane { .. } | OpKind::WordLaneAt(_) | OpKind::Print(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_dataflow::ir::op::eval;

    /// A splitmix64 stream, and operands biased towards the edges where widths matter.
    fn operand(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E3779B97F4A7C15);
        let x = crate::memory::mix64(*state);
        match x % 5 {
            0 => 0,
            1 => u64::MAX,
            2 => x >> (x % 64),
            3 => 1 << (x % 64),
            _ => x,
        }
    }

    #[test]
    fn micro_ops_equal_the_evaluator() {
        let r = |i: u32| Ref::Iter(i);
        let bins = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Shl,
            BinOp::LShr,
            BinOp::AShr,
        ];
        let cmps = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Ult,
            CmpOp::Ule,
            CmpOp::Ugt,
            CmpOp::Uge,
            CmpOp::Slt,
            CmpOp::Sle,
            CmpOp::Sgt,
            CmpOp::Sge,
        ];
        let mut state = 7;
        for _ in 0..20_000 {
            let args = [operand(&mut state), operand(&mut state), operand(&mut state)];
            let pick = operand(&mut state);
            let (w, aw) = (1 + (pick % 64) as u32, 1 + ((pick >> 8) % 64) as u32);
            let mut cases: Vec<(Micro, OpKind, [u32; 3], u32)> = Vec::new();
            for b in bins {
                let micro = match b {
                    BinOp::Add => Micro::Add(r(0), r(1)),
                    BinOp::Sub => Micro::Sub(r(0), r(1)),
                    BinOp::Mul => Micro::Mul(r(0), r(1)),
                    BinOp::And => Micro::And(r(0), r(1)),
                    BinOp::Or => Micro::Or(r(0), r(1)),
                    BinOp::Xor => Micro::Xor(r(0), r(1)),
                    BinOp::Shl => Micro::Shl(r(0), r(1), w, mask(aw)),
                    BinOp::LShr => Micro::LShr(r(0), r(1), w, mask(aw)),
                    _ => Micro::AShr(r(0), r(1), w, mask(aw)),
                };
                cases.push((micro, OpKind::Binary(b), [w, aw, w], w));
            }
            for c in cmps {
                cases.push((Micro::Cmp(c, r(0), r(1), aw), OpKind::Cmp(c), [aw, aw, 1], 1));
            }
            cases.push((Micro::Select(r(0), r(1), r(2)), OpKind::Select, [1, w, w], w));
            cases.push((Micro::Neg(r(0)), OpKind::Unary(UnOp::Neg), [w, 0, 0], w));
            cases.push((Micro::Not(r(0)), OpKind::Unary(UnOp::Not), [w, 0, 0], w));
            cases.push((Micro::Zext(r(0), mask(aw)), OpKind::Cast(CastOp::Zext), [aw, 0, 0], w));
            cases.push((Micro::Zext(r(0), mask(aw)), OpKind::Cast(CastOp::Trunc), [aw, 0, 0], w));
            cases.push((Micro::Sext(r(0), aw), OpKind::Cast(CastOp::Sext), [aw, 0, 0], w));
            for (micro, kind, widths, rw) in cases {
                let n = match kind {
                    OpKind::Select => 3,
                    OpKind::Cast(_) => 1,
                    _ => 2,
                };
                let want = eval(&kind, &args[..n], &widths[..n], rw);
                let got = micro.eval(mask(rw), |x| match x {
                    Ref::Iter(i) => args[i as usize],
                    Ref::Shared(_) => 0,
                });
                assert_eq!(got, Some(want), "{kind:?} of {args:x?} at widths {widths:?} -> {rw}");
            }
        }
    }
}
