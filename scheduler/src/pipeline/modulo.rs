//! Modulo scheduling of one loop at a given initiation interval.
//!
//! The schedule is a system of difference constraints between operation start times (the SDC
//! formulation of LegUp and XLS): data dependences with chaining under the clock period, memory
//! order within an iteration, and the loop-carried constraints
//!
//! * parameter recurrences: the value of parameter `p` for iteration `k+1` is written by
//!   iteration `k` at `w_p` and read at `u_p`: `u_p ≤ w_p ≤ u_p + II - 1`;
//! * memory recurrences of distance `d`: `t(to) + d·II ≥ t(from) + δ`;
//! * the exit test: the continue decision of an iteration must be known before the next one is
//!   launched, `end(cond) ≤ II - 1` (no speculation, so no squashing).
//!
//! Because every constraint is a difference constraint, the earliest solution is a longest path,
//! which placement in dependence order computes exactly; resource limits (one request per port
//! per cycle, one read and one write per on-chip memory per cycle, occupancy of non-pipelined
//! units) are enforced modulo `II` with a reservation table. A placement that violates a
//! loop-carried constraint means `II` is too small; the caller then tries the next `II`.

use super::deps::MemDep;
use super::shape::{LoopShape, Shape};
use crate::schedule::{OpClass, OpTime, UnitId};
use crate::timing::Timing;
use kiln_dataflow::ir::{Kernel, Mem, Op, OpKind, Value, ValueDef};
use std::collections::{BTreeSet, HashMap, HashSet};

/// How a resource limit on the shared multipliers starts (`res_mii`); the rest describes it.
pub const MULTIPLIERS: &str = "multipliers: ";

/// Cycles from a port request to the consumption of its response inside a pipeline.
pub const PORT_RESPONSE_LATENCY: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Resource {
    Port(Mem),
    MemRead(Mem),
    MemWrite(Mem),
    Unit(UnitId),
    /// One of the shared multipliers (`Timing::multipliers_per_cycle`).
    Multiplier(u32),
}

/// The input of placement.
pub struct Problem<'a> {
    pub k: &'a Kernel,
    pub shape: &'a LoopShape,
    pub ops: &'a [Op],
    pub class: &'a dyn Fn(Op) -> OpClass,
    pub unit_latency: &'a dyn Fn(UnitId) -> u32,
    pub guarded: &'a BTreeSet<Op>,
    pub deps: &'a [MemDep],
    pub timing: &'a Timing,
    /// Adds whose sum's top bit is their chain's carry out ([`Timing::carry_out_sums`]).
    pub carry_out_sums: &'a BTreeSet<Op>,
    pub period: f64,
    pub strict_pipe_order: bool,
    /// Split multiplies that may start in one cycle (modulo II), when the device's multiplier
    /// blocks are shared (`Timing::multipliers_per_cycle`).
    pub multipliers: Option<u32>,
    /// Skewed accumulators and their adds ([`super::skew`]): written in the add's first cycle.
    pub skewed: &'a std::collections::BTreeMap<Value, Op>,
}

/// A placed iteration.
#[derive(Clone, Debug, Default)]
pub struct Placement {
    pub times: HashMap<Op, OpTime>,
    /// Read time `u_p` and write time `w_p` of each header parameter.
    pub reads: HashMap<Value, u32>,
    pub writes: HashMap<Value, u32>,
    pub depth: u32,
}

/// Why an initiation interval does not work.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    /// No free slot for `op` on a resource within II cycles.
    Resource { op: Op, what: String },
    /// Parameter `param` is produced at `write` but read at `read` of the next iteration.
    Recurrence { param: Value, read: u32, write: u32 },
    /// A loop-carried memory dependence.
    Memory { dep: MemDep },
    /// The exit test is known too late.
    ExitTest { ready: u32 },
    /// A header load whose response would arrive after its iteration was cancelled.
    HeaderLoad { op: Op },
}

impl Violation {
    /// The smallest II this constraint allows (with this placement).
    pub fn bound(&self, p: &Placement) -> u32 {
        match self {
            Violation::Resource { .. } => 0,
            Violation::Recurrence { read, write, .. } => write - read + 1,
            Violation::Memory { dep } => {
                let (a, b) = (p.times[&dep.from].start as i64, p.times[&dep.to].start as i64);
                let need = a + delta(dep) - b;
                (need.max(1) as u32).div_ceil(dep.distance.max(1))
            }
            Violation::ExitTest { ready } => ready + 1,
            Violation::HeaderLoad { op } => p.times[op].end + 1,
        }
    }
}

/// Minimum cycles from `from` to `to` of a memory dependence (in start times). A store is never
/// in the cycle of a load it may overwrite either (`War`): a block RAM read in the cycle of a
/// write to its address gives the old word only with emulation logic on the iCE40 (a delayed
/// write and a multiplexer on the read data), which rtl-gen's `no_rw_check` leaves out. A read
/// after a registered write (`Timing::registers_writes`) comes two cycles after its store.
fn delta(dep: &MemDep) -> i64 {
    i64::from(dep.cycles)
}

/// Places the ops of one iteration at `ii`, moving the reads of loop-carried values as late as
/// their previous iteration's write requires. A value's register holds iteration `k`'s value in
/// cycles `w - II + 1 ..= w` of iteration `k` (it is written at `w` of iteration `k - 1`), so
/// every read must come at or after `w - II + 1`. Reads start as early as possible and are
/// pushed later until the placement settles; when a recurrence makes them chase their own
/// write, the placement keeps failing [`check`] and the caller tries a larger II. With
/// `resources = false` the ports and units are unlimited (for the recurrence bound).
///
/// When settling does not help, the placement with the earliest reads is returned, so that the
/// violation [`check`] reports (and its bound on II) is that of the recurrence itself.
pub fn place_settled(p: &Problem, ii: u32, resources: bool) -> Result<Placement, Violation> {
    let mut floors: HashMap<Value, u32> = HashMap::new();
    let first = place(p, resources.then_some(ii), &floors)?;
    if check(p, &first, ii).is_ok() {
        return Ok(first);
    }
    let mut pl = first.clone();
    for _ in 0..16 {
        let mut changed = false;
        for param in &p.k.blocks[p.shape.header].params {
            let need = pl.writes[param].saturating_sub(ii - 1);
            if need > pl.reads[param] && need > floors.get(param).copied().unwrap_or(0) {
                floors.insert(*param, need);
                changed = true;
            }
        }
        if !changed {
            break;
        }
        pl = place(p, resources.then_some(ii), &floors)?;
    }
    Ok(if check(p, &pl, ii).is_ok() { pl } else { first })
}

/// Places the ops of one iteration. With `ii = None`, resources are unlimited (used to compute
/// the recurrence bound). `floors` are the earliest cycles at which header parameters may be
/// read.
pub fn place(p: &Problem, ii: Option<u32>, floors: &HashMap<Value, u32>) -> Result<Placement, Violation> {
    let k = p.k;
    let in_loop: HashSet<Op> = p.ops.iter().copied().collect();
    let mut times: HashMap<Op, OpTime> = HashMap::new();
    let mut unstable: HashSet<Op> = HashSet::new();
    let mut mrt: HashMap<(Resource, u32), Op> = HashMap::new();
    let out = p.timing.clock_to_out_ns();
    let cond_op = k.def_op(p.shape.cond).filter(|o| in_loop.contains(o));
    // Pipe transfers keep program order within an iteration, one per cycle. One iteration's
    // transfers on a pipe fit in II cycles, so iterations (II apart) never put two transfers on
    // a pipe in one cycle. With strict order, all of an iteration's transfers span at most II
    // cycles, so that the transfers of a cycle, taken oldest iteration first (docs/timing.md
    // §9), are in program order across pipes too.
    let mut last_transfer: Option<u32> = None;
    let mut first_transfer: Option<u32> = None;
    let mut first_on_pipe: HashMap<kiln_dataflow::ir::Pipe, u32> = HashMap::new();
    // An iteration's `printf`s print in program order.
    let mut last_print = 0u32;
    for &op in p.ops {
        let o = &k.ops[op];
        let class = (p.class)(op);
        if class == OpClass::Constant {
            continue;
        }
        let rw = o.result.map(|r| k.width(r)).unwrap_or(1);
        let iw = o.args.first().map(|a| k.width(*a)).unwrap_or(rw);
        let delay = match class {
            OpClass::Unit(_) => p.timing.divider_start_ns(iw),
            OpClass::Multi(_) => p.timing.op_segments_with(k, op, p.period, p.carry_out_sums.contains(&op)).1,
            _ => p.timing.op_delay_with(k, op, p.carry_out_sums.contains(&op)),
        };
        // Operands: values of this iteration (intra-iteration data dependences).
        let mut preds: Vec<(Op, OpTime)> = o
            .args
            .iter()
            .filter_map(|a| match k.values[*a].def {
                ValueDef::Op(d) if in_loop.contains(&d) => times.get(&d).map(|t| (d, *t)),
                _ => None,
            })
            .collect();
        // Guarded memory ops need the exit test of their iteration.
        if p.guarded.contains(&op)
            && (o.kind.is_memory() || o.kind.is_pipe_transfer() || matches!(o.kind, OpKind::Print(_)))
            && let Some(c) = cond_op.and_then(|c| times.get(&c).map(|t| (c, *t)))
        {
            preds.push(c);
        }
        let mut earliest = preds.iter().map(|(_, t)| t.end).max().unwrap_or(0);
        for a in &o.args {
            if let Some(f) = floors.get(a) {
                earliest = earliest.max(*f);
            }
        }
        for dep in p.deps.iter().filter(|d| d.to == op && d.distance == 0) {
            if let Some(t) = times.get(&dep.from) {
                earliest = earliest.max((t.start as i64 + delta(dep)).max(0) as u32);
            }
        }
        if let (OpClass::PipeTransfer(_), Some(l)) = (class, last_transfer) {
            earliest = earliest.max(l + 1);
        }
        let is_print = matches!(o.kind, OpKind::Print(_));
        if is_print {
            earliest = earliest.max(last_print);
        }
        // A read through an address register needs its address a cycle before it starts.
        let early_address = reads_address_early(p, op).then(|| {
            let address = o.args[0];
            let def = match k.values[address].def {
                ValueDef::Op(d) if in_loop.contains(&d) => times.get(&d).copied(),
                _ => None,
            };
            let floor = floors.get(&address).copied().unwrap_or(0);
            earliest = earliest.max(floor + 1).max(def.map_or(1, |t| t.end + 1));
            def
        });
        let is_request = matches!(class, OpClass::PortLoad(_) | OpClass::PortStore(_));
        let occupancy = match class {
            OpClass::Unit(u) => (p.unit_latency)(u).max(1),
            _ => 1,
        };
        // The resources the op may use, one of them per cycle it occupies.
        let candidates: Vec<Resource> = match class {
            OpClass::PortLoad(m) | OpClass::PortStore(m) => vec![Resource::Port(m)],
            OpClass::MemLoad(m) => vec![Resource::MemRead(m)],
            OpClass::MemStore(m) => vec![Resource::MemWrite(m)],
            OpClass::Unit(u) => vec![Resource::Unit(u)],
            OpClass::Multi(_) if p.timing.splits_multiply(k, op) => {
                (0..p.multipliers.unwrap_or(0)).map(Resource::Multiplier).collect()
            }
            _ => vec![],
        };
        let mut step = earliest;
        let limit = earliest + ii.unwrap_or(1).max(occupancy) + 64;
        let (start, arrival, resource) = loop {
            if step > limit {
                let what = match candidates.first().copied() {
                    Some(Resource::Port(m)) => format!("memory port `{}`", k.mems[m].name),
                    Some(Resource::MemRead(m)) => format!("read port of `{}`", k.mems[m].name),
                    Some(Resource::MemWrite(m)) => format!("write port of `{}`", k.mems[m].name),
                    Some(Resource::Unit(_)) => "divider".to_string(),
                    Some(Resource::Multiplier(_)) => "multipliers".to_string(),
                    None => "logic".to_string(),
                };
                return Err(Violation::Resource { op, what });
            }
            if let Some(Some(a)) = early_address
                && a.end + 1 == step
                && a.ready_ns + p.timing.memory_request_ns() > p.period
            {
                step += 1;
                continue;
            }
            if is_request && preds.iter().any(|(d, t)| t.end == step && unstable.contains(d)) {
                step += 1;
                continue;
            }
            let arrival = preds.iter().filter(|(_, t)| t.end == step).map(|(_, t)| t.ready_ns).fold(0.0, f64::max);
            // A lane is read in the cycle its word's response is consumed (see `fsm`).
            let lane = matches!(o.kind, OpKind::WordLane { .. } | OpKind::WordLaneAt(_));
            if arrival > 0.0 && !lane && arrival + delay > p.period {
                step += 1;
                continue;
            }
            let free = match ii {
                Some(ii) if !candidates.is_empty() => candidates
                    .iter()
                    .copied()
                    .find(|r| (0..occupancy).all(|j| !mrt.contains_key(&(*r, (step + j) % ii)))),
                _ => None,
            };
            if free.is_some() || ii.is_none() || candidates.is_empty() {
                break (step, arrival, free);
            }
            step += 1;
        };
        if let (Some(r), Some(ii)) = (resource, ii) {
            for j in 0..occupancy {
                mrt.insert((r, (start + j) % ii), op);
            }
        }
        let t = match class {
            OpClass::Comb => OpTime { start, end: start, ready_ns: arrival.max(out) + delay },
            OpClass::Multi(n) => OpTime { start, end: start + n - 1, ready_ns: out + delay },
            OpClass::PortLoad(_) => {
                OpTime { start, end: start + PORT_RESPONSE_LATENCY, ready_ns: p.timing.port_response_ns() }
            }
            OpClass::MemLoad(m) => {
                let (cycles, ready_ns) = p.timing.memory_read_timing(&p.k.mems[m], p.period);
                OpTime { start, end: start + cycles, ready_ns }
            }
            OpClass::PortStore(_) => OpTime { start, end: start, ready_ns: 0.0 },
            // A registered write lands a cycle after the store: the pipeline drains until then.
            OpClass::MemStore(m) => {
                OpTime { start, end: start + u32::from(p.timing.registers_writes(m)), ready_ns: 0.0 }
            }
            OpClass::Unit(u) => OpTime { start, end: start + (p.unit_latency)(u), ready_ns: out },
            OpClass::PipeTransfer(pipe) => {
                last_transfer = Some(start);
                let first = *first_on_pipe.entry(pipe).or_insert(start);
                let first_any = *first_transfer.get_or_insert(start);
                if let Some(ii) = ii
                    && (start - first >= ii || (p.strict_pipe_order && start - first_any > ii))
                {
                    let what = format!(
                        "pipe `{}` (one iteration's transfers on a pipe must fit in II cycles, and all its pipe transfers in II + 1)",
                        k.pipes[pipe].name
                    );
                    return Err(Violation::Resource { op, what });
                }
                OpTime { start, end: start, ready_ns: arrival.max(out) + delay }
            }
            OpClass::Constant => OpTime::default(),
        };
        let depends_on_unstable = preds.iter().any(|(d, pt)| pt.end == t.start && unstable.contains(d));
        let pipe_read =
            matches!(o.kind, kiln_dataflow::ir::OpKind::PipeRead { .. } | kiln_dataflow::ir::OpKind::PipeQuery { .. });
        if matches!(class, OpClass::PortLoad(_)) || pipe_read || (class == OpClass::Comb && depends_on_unstable) {
            unstable.insert(op);
        }
        if is_print {
            last_print = t.start;
        }
        times.insert(op, t);
    }
    let mut placement = Placement { times, ..Default::default() };
    param_times(p, &mut placement, floors);
    placement.depth =
        placement.times.values().map(|t| t.end + 1).chain(placement.writes.values().map(|w| w + 1)).max().unwrap_or(1);
    Ok(placement)
}

/// When each header parameter is read (its first use) and written (when its next value is
/// ready, not before it is read).
fn param_times(p: &Problem, pl: &mut Placement, floors: &HashMap<Value, u32>) {
    let k = p.k;
    let params = &k.blocks[p.shape.header].params;
    let used_as_arg: HashSet<Value> = p.shape.back_args.iter().copied().collect();
    for &param in params {
        let first_use = p
            .ops
            .iter()
            .filter(|op| k.ops[**op].args.contains(&param))
            .filter_map(|op| {
                let t = pl.times.get(op)?;
                let early = reads_address_early(p, *op) && k.ops[*op].args[0] == param;
                Some(if early { t.start - 1 } else { t.start })
            })
            .min();
        // A parameter copied into another's next value is read at the start, so that the copy
        // always sees this iteration's value.
        let floor = floors.get(&param).copied().unwrap_or(0);
        let read =
            if used_as_arg.contains(&param) || p.shape.cond == param { floor } else { first_use.unwrap_or(floor) };
        pl.reads.insert(param, read);
    }
    // In a test-first loop the next values are written only if the iteration's test passes, so
    // not before the test is known.
    let test_ready = match p.shape.shape {
        super::shape::Shape::TestFirst => {
            k.def_op(p.shape.cond).and_then(|c| pl.times.get(&c)).map(|t| t.end).unwrap_or(0)
        }
        super::shape::Shape::TestLast => 0,
    };
    for (param, arg) in params.iter().zip(&p.shape.back_args) {
        let ready = match k.values[*arg].def {
            ValueDef::Op(d) if p.skewed.get(param) == Some(&d) => pl.times.get(&d).map(|t| t.start).unwrap_or(0),
            ValueDef::Op(d) => pl.times.get(&d).map(|t| t.end).unwrap_or(0),
            ValueDef::Param(..) => pl.reads.get(arg).copied().unwrap_or(0),
        };
        let w = ready.max(pl.reads[param]).max(test_ready);
        pl.writes.insert(*param, w);
    }
}

/// Whether `op` reads an on-chip memory through an address register loaded the cycle before
/// (`Timing::registers_read_address`, `Schedule::reads_address_early`): its address is used at
/// `start - 1`, so `start >= 1`.
fn reads_address_early(p: &Problem, op: Op) -> bool {
    let OpClass::MemLoad(m) = (p.class)(op) else { return false };
    let sites = p.ops.iter().filter(|o| (p.class)(**o) == OpClass::MemLoad(m)).count();
    p.timing.registers_read_address(&p.k.mems[m], sites)
}

/// Checks the loop-carried constraints of a placement at `ii`.
pub fn check(p: &Problem, pl: &Placement, ii: u32) -> Result<(), Violation> {
    let k = p.k;
    let mut worst: Option<(u32, Violation)> = None;
    let mut note = |v: Violation| {
        let b = v.bound(pl);
        if b > ii && worst.as_ref().is_none_or(|(wb, _)| b > *wb) {
            worst = Some((b, v));
        }
    };
    for param in &k.blocks[p.shape.header].params {
        let (read, write) = (pl.reads[param], pl.writes[param]);
        note(Violation::Recurrence { param: *param, read, write });
    }
    for dep in p.deps.iter().filter(|d| d.distance > 0) {
        note(Violation::Memory { dep: *dep });
    }
    if let Some(c) = k.def_op(p.shape.cond).and_then(|c| pl.times.get(&c)) {
        note(Violation::ExitTest { ready: c.end });
    }
    if p.shape.shape == Shape::TestFirst {
        for op in p.ops.iter().filter(|op| k.ops[**op].block == p.shape.header) {
            if matches!((p.class)(*op), OpClass::PortLoad(_)) {
                note(Violation::HeaderLoad { op: *op });
            }
        }
    }
    match worst {
        Some((_, v)) => Err(v),
        None => Ok(()),
    }
}

/// The resource-constrained minimum II: requests per port, reads and writes per on-chip memory,
/// and the occupancy of non-pipelined units. Returns the bound and the busiest resource.
pub fn res_mii(p: &Problem) -> (u32, Option<String>) {
    let mut use_count: HashMap<String, u32> = HashMap::new();
    for &op in p.ops {
        let class = (p.class)(op);
        let key = match class {
            OpClass::PortLoad(m) | OpClass::PortStore(m) => Some(format!("memory port `{}`", p.k.mems[m].name)),
            OpClass::MemLoad(m) => Some(format!("read port of `{}`", p.k.mems[m].name)),
            OpClass::MemStore(m) => Some(format!("write port of `{}`", p.k.mems[m].name)),
            OpClass::Unit(_) => Some("divider".to_string()),
            _ => None,
        };
        if let Some(key) = key {
            let occ = match class {
                OpClass::Unit(u) => (p.unit_latency)(u),
                _ => 1,
            };
            *use_count.entry(key).or_default() += occ;
        }
    }
    if let Some(per_cycle) = p.multipliers {
        let multiplies = p
            .ops
            .iter()
            .filter(|op| matches!((p.class)(**op), OpClass::Multi(_)) && p.timing.splits_multiply(p.k, **op))
            .count() as u32;
        if multiplies > 0 {
            let blocks = p.timing.multiplier_blocks().unwrap_or(0);
            let key = format!(
                "{MULTIPLIERS}{multiplies} multiplies per iteration on the {per_cycle} multipliers that {}'s {blocks} DSP blocks hold",
                p.timing.name
            );
            use_count.insert(key, multiplies.div_ceil(per_cycle));
        }
    }
    let mut best = (1, None);
    let mut keys: Vec<_> = use_count.into_iter().collect();
    keys.sort();
    for (key, n) in keys {
        if n > best.0 {
            best = (n, Some(key));
        }
    }
    best
}
