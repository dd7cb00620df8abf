//! The schedule flattened once, before the first cycle, into what each cycle looks up: per
//! operation its class, times, operand widths and predicate; per FSM state the operations that
//! act in it; per pipelined loop its operations by relative cycle and a dense slot for every
//! value an iteration owns. A cycle then neither hashes nor searches the schedule.

use kiln_dataflow::ir::{Block, Kernel, Op, OpKind, Value, ValueDef};
use kiln_scheduler::pipeline::Pipeline;
use kiln_scheduler::schedule::OpTime;
use kiln_scheduler::{OpClass, Schedule};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Operand values of one operation: on the stack for all but the widest vector operations.
pub(crate) type Args = SmallVec<[u64; 8]>;

/// What the simulator needs of one operation.
pub(crate) struct OpInfo {
    pub class: OpClass,
    pub time: OpTime,
    pub arg_widths: SmallVec<[u32; 4]>,
    /// The result's width (1 without a result, as the evaluator expects).
    pub width: u32,
    pub predicate: Option<Value>,
    /// A memory access or pipe transfer: enabled by its predicate and its iteration's test.
    pub gated: bool,
}

/// An operation acting in a step of a state, or in a relative cycle of a pipeline.
#[derive(Clone, Copy)]
pub(crate) struct Active {
    pub op: Op,
    /// Its value can be computed before the step's responses arrive (combinational, not fed by
    /// a response consumed in the same step), so requests can present it.
    pub early: bool,
    /// Early, and fed by no pipe transfer of the same cycle either: the value computed before
    /// the responses is final, and need not be computed again when the cycle commits.
    pub settled: bool,
    /// It runs only when its iteration's test passes (the body of a test-first loop).
    pub guarded: bool,
    /// Its operands in [`Plan::refs`] (pipelines only): `refs[args.0..args.0 + args.1]`.
    pub args: (u32, u32),
}

/// Where a pipelined operation's operand lives: in its iteration's slots, or shared with the
/// code around the loop (by value number).
#[derive(Clone, Copy)]
pub(crate) enum Ref {
    Iter(u32),
    Shared(Value),
}

/// A pipelined loop's operations by relative cycle, and the slots of its iteration values.
pub(crate) struct Plan {
    /// `active[r]`: the ops that start in relative cycle `r` and the port loads whose response
    /// arrives in it, in the pipeline's order.
    active: Vec<Vec<Active>>,
    /// `requests[r]`: the port accesses and pipe transfers of `active[r]`.
    requests: Vec<Vec<Active>>,
    pub refs: Vec<Ref>,
    /// By relative cycle: the loop-carried registers each iteration reads then (into the
    /// parameter's slot) and writes then (the next iteration's value, from its argument).
    param_reads: Vec<Vec<(u32, Value)>>,
    param_writes: Vec<Vec<(Value, Ref)>>,
    /// By value number: the slot of each value an iteration owns (defined in the loop's
    /// blocks, not a constant); [`NO_SLOT`] for values the loop shares with the code around it.
    slots: Vec<u32>,
    pub slot_count: usize,
}

pub(crate) const NO_SLOT: u32 = u32::MAX;

impl Plan {
    pub(crate) fn at(&self, r: u32) -> &[Active] {
        self.active.get(r as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The port accesses and pipe transfers acting in relative cycle `r`.
    pub(crate) fn requests_at(&self, r: u32) -> &[Active] {
        self.requests.get(r as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    pub(crate) fn param_reads_at(&self, r: u32) -> &[(u32, Value)] {
        self.param_reads.get(r as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    pub(crate) fn param_writes_at(&self, r: u32) -> &[(Value, Ref)] {
        self.param_writes.get(r as usize).map(Vec::as_slice).unwrap_or(&[])
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
                gated: o.kind.is_memory() || o.kind.is_pipe_transfer(),
            })
            .collect::<Vec<_>>();
        let mut steps = Vec::with_capacity(k.blocks.len());
        for (b, _) in k.blocks.iter() {
            let per_step = (0..s.steps[b])
                .map(|i| {
                    let mut memo = HashMap::new();
                    s.ops_at(b, i)
                        .map(|op| {
                            let early = is_early(s, op, i, &|d| k.ops[d].block == k.ops[op].block, &mut memo);
                            Active { op, early, settled: false, guarded: false, args: (0, 0) }
                        })
                        .collect()
                })
                .collect();
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
fn is_early(s: &Schedule, op: Op, r: u32, same_region: &dyn Fn(Op) -> bool, memo: &mut HashMap<Op, bool>) -> bool {
    let t = s.time[op];
    s.class(op) == OpClass::Comb
        && t.start == r
        && !matches!(s.kernel.ops[op].kind, OpKind::Print(_))
        && !waits_for_response(s, op, r, same_region, memo)
}

fn waits_for_response(
    s: &Schedule,
    op: Op,
    r: u32,
    same_region: &dyn Fn(Op) -> bool,
    memo: &mut HashMap<Op, bool>,
) -> bool {
    if let Some(v) = memo.get(&op) {
        return *v;
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
    memo.insert(op, res);
    res
}

/// Whether `op`'s value in cycle `r` comes, through combinational ops of that cycle, from a pipe
/// transfer of that cycle (whose result is known only once the transfer happens).
fn after_transfer(s: &Schedule, op: Op, r: u32, members: &HashSet<Op>, memo: &mut HashMap<Op, bool>) -> bool {
    if let Some(v) = memo.get(&op) {
        return *v;
    }
    let k = &s.kernel;
    let res = matches!(s.class(op), OpClass::PipeTransfer(_))
        || matches!(k.ops[op].kind, OpKind::PipeLane { .. })
        || k.ops[op].args.iter().any(|a| match k.values[*a].def {
            ValueDef::Op(d) if members.contains(&d) && s.time[d].end == r && s.time[d].start == r => {
                after_transfer(s, d, r, members, memo)
            }
            _ => false,
        });
    memo.insert(op, res);
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

    let members: HashSet<Op> = p.ops.iter().copied().collect();
    let mut active: Vec<Vec<Active>> = Vec::new();
    let mut refs = Vec::new();
    let mut memo = HashMap::new();
    let mut transfer_memo = HashMap::new();
    for &op in &p.ops {
        let t = s.time[op];
        let mut at = vec![t.start];
        if matches!(s.class(op), OpClass::PortLoad(_)) && t.end != t.start {
            at.push(t.end);
        }
        let args = (refs.len() as u32, k.ops[op].args.len() as u32);
        refs.extend(k.ops[op].args.iter().map(|a| match slot.get(a) {
            Some(n) => Ref::Iter(*n),
            None => Ref::Shared(*a),
        }));
        for r in at {
            // A Comb op's start is its only cycle, so one memo serves every `r` it is asked at.
            let early = is_early(s, op, r, &|d| members.contains(&d), &mut memo);
            let settled = early && !after_transfer(s, op, r, &members, &mut transfer_memo);
            let r = r as usize;
            if active.len() <= r {
                active.resize_with(r + 1, Vec::new);
            }
            active[r].push(Active { op, early, settled, guarded: p.guarded.contains(&op), args });
        }
    }
    let requests = active
        .iter()
        .map(|ops| {
            ops.iter()
                .filter(|a| {
                    matches!(s.class(a.op), OpClass::PortLoad(_) | OpClass::PortStore(_) | OpClass::PipeTransfer(_))
                })
                .copied()
                .collect()
        })
        .collect();
    let reference = |v: Value| match slot.get(&v) {
        Some(n) => Ref::Iter(*n),
        None => Ref::Shared(v),
    };
    let mut param_reads: Vec<Vec<(u32, Value)>> = Vec::new();
    let mut param_writes: Vec<Vec<(Value, Ref)>> = Vec::new();
    for pp in &p.params {
        let (read, write) = (pp.read as usize, pp.write as usize);
        if param_reads.len() <= read {
            param_reads.resize_with(read + 1, Vec::new);
        }
        if let Some(n) = slot.get(&pp.param) {
            param_reads[read].push((*n, pp.param));
        }
        if param_writes.len() <= write {
            param_writes.resize_with(write + 1, Vec::new);
        }
        param_writes[write].push((pp.param, reference(pp.arg)));
    }
    Plan { active, requests, refs, param_reads, param_writes, slots, slot_count }
}
