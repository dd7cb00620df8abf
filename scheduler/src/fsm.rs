//! Sequential (FSM) scheduling: each block is list-scheduled into steps, in program order, as
//! early as its dependences, the clock period and the resources allow.
//!
//! Constraints (one block at a time; every op starts and ends inside its block):
//! - data: an op starts no earlier than the end step of each operand; in the same step only if
//!   the chained combinational delay fits the clock period;
//! - ports: at most one request per port per step; requests and response consumptions of a port
//!   keep program order; a load's response is consumed at least one step after its request;
//! - on-chip memories: one read and one write per step; reads are registered (data one step
//!   later); a write is visible to reads in later steps (two steps later where the writes pass
//!   registers, `Timing::registers_writes`, and the block lasts until the write lands); reads
//!   see the old value in the step of a write;
//! - divider units: one operation in flight per unit; the result appears `latency` steps after
//!   the start;
//! - pipe transfers: in program order, each in a later step than the one before (whatever the
//!   pipes), so that a kernel never waits on two pipes at once where its source waits on one
//!   after the other (which could deadlock a system the source lets run); a packet's lanes are
//!   read in the step of its transfer.

use crate::binding::{multiplier_blocks_used, operand_registering_multiplies};
use crate::pipeline::{Context, pipeline_loops};
use crate::schedule::*;
use crate::timing::Timing;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::ir::{Block, Kernel, Mem, Op, OpKind, Terminator, Value, ValueDef};
use std::collections::{BTreeSet, HashMap};

#[derive(Default)]
struct MemOrder {
    last_load_start: Option<u32>,
    last_store_start: Option<u32>,
    last_request: Option<u32>,
    last_consume: Option<u32>,
}

/// The widest division that gets a dedicated pipelined divider inside a pipelined loop.
pub const PIPELINED_DIVIDER_MAX_WIDTH: u32 = 64;

/// Schedules every block of a kernel as an FSM, its innermost loops as pipelines where they
/// can be. A kernel whose first schedule binds four multiplies or more to one shared
/// multiplier is scheduled again with those multiplies' operands registered
/// (`binding::operand_registering_multiplies`), unless then its multiplies no longer fit the
/// part's multiplier blocks where the first schedule's did.
///
/// Where block RAM reads pass the blocks' output register (`Timing::registers_block_ram_output`)
/// and that raises the II of a loop (a recurrence through memory: floyd-warshall's 5 -> 6, 20%
/// more cycles), the kernel is scheduled without them: a cycle more per iteration costs more
/// than the clock gains.
///
/// The writes of block RAM memories written from many places (`memories_written_in_many_places`)
/// pass registers where the device allows it (`Timing::may_register_writes`), unless that
/// raises the II of a loop (a store's element read two cycles after it).
pub fn schedule_fsm(k: Kernel, timing: Timing, clock_mhz: f64, opts: crate::Options) -> Schedule {
    let without = schedule_reading_output_registers(k.clone(), timing.clone(), clock_mhz, opts);
    let chosen = memories_written_in_many_places(&without);
    if chosen.is_empty() {
        return without;
    }
    let with = schedule_reading_output_registers(k, timing.with_registered_writes(chosen), clock_mhz, opts);
    if raises_an_ii(&with, &without) { without } else { with }
}

/// Places (FSM states and pipelines) from which a memory's write port takes its writes before
/// the port is worth registers: each place is at least one input of the write enable and a
/// choice of the address and data multiplexers, so four make them two LUT levels or more
/// (doitgen's banks of `A`, written by an init pipeline and three states, were mapped into
/// four levels in front of `WCLKE`). Registering the writes of every block RAM memory instead
/// cost PolyBench 1.75% more cycles on the iCE40 at 60 MHz (a storing pipeline or state lasts
/// a cycle longer) for a 0.3% higher Fmax geomean (bench/boards/README.md).
pub const WRITE_PLACES_FOR_REGISTERS: usize = 4;

/// The memories of schedule `s` that may take their writes from registers
/// (`Timing::may_register_writes`) and are written from [`WRITE_PLACES_FOR_REGISTERS`] places
/// or more.
fn memories_written_in_many_places(s: &Schedule) -> BTreeSet<Mem> {
    /// A pipeline, or an FSM state (block and step).
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Place {
        Pipeline(u32),
        State(Block, u32),
    }
    let period = 1000.0 / s.clock_mhz;
    let mut places: HashMap<Mem, BTreeSet<Place>> = HashMap::new();
    for op in s.scheduled_ops() {
        if let OpClass::MemStore(m) = s.class(op) {
            let b = s.kernel.ops[op].block;
            let place = match s.pipeline_of[b] {
                Some(pi) => Place::Pipeline(pi),
                None => Place::State(b, s.time[op].start),
            };
            places.entry(m).or_default().insert(place);
        }
    }
    places
        .into_iter()
        .filter(|(m, p)| {
            p.len() >= WRITE_PLACES_FOR_REGISTERS && s.timing.may_register_writes(&s.kernel.mems[*m], period)
        })
        .map(|(m, _)| m)
        .collect()
}

/// [`schedule_fsm`] for one choice of registered writes: block RAM reads through the blocks'
/// output registers unless that raises an II.
fn schedule_reading_output_registers(k: Kernel, timing: Timing, clock_mhz: f64, opts: crate::Options) -> Schedule {
    let with = schedule_with_registered_operands(k.clone(), timing.clone(), clock_mhz, opts);
    let reads_output_registers = with.kernel.mems.keys().any(|m| with.output_register_blocks(m).is_some());
    if !reads_output_registers {
        return with;
    }
    let without = schedule_with_registered_operands(k, timing.without_block_ram_output_registers(), clock_mhz, opts);
    if raises_an_ii(&with, &without) { without } else { with }
}

/// Whether schedule `with` pipelines some loop at a higher II than `without` does, or not at all.
fn raises_an_ii(with: &Schedule, without: &Schedule) -> bool {
    with.loops.len() != without.loops.len()
        || with.loops.iter().zip(&without.loops).any(|(w, b)| match (w.achieved_ii, b.achieved_ii) {
            (Some(x), Some(y)) => x > y,
            (None, Some(_)) => true,
            _ => false,
        })
}

/// [`schedule_fsm`] for one choice of block RAM reads: the multiplies' operands registered where that helps.
fn schedule_with_registered_operands(k: Kernel, timing: Timing, clock_mhz: f64, opts: crate::Options) -> Schedule {
    let first = schedule_pass(k, timing, clock_mhz, opts, BTreeSet::new());
    let registered: BTreeSet<Op> = operand_registering_multiplies(&first).into_iter().collect();
    if registered.is_empty() {
        return first;
    }
    let second = schedule_pass(first.kernel.clone(), first.timing.clone(), clock_mhz, opts, registered);
    // Multiplies with registered operands share a multiplier only with each other, and the
    // second schedule moves them: where two of them now start in one phase, or overlap in a
    // state, they take a multiplier more (shared_multipliers at 12 MHz: nine DSP blocks).
    match first.timing.multiplier_blocks() {
        Some(blocks) if multiplier_blocks_used(&second) > blocks && multiplier_blocks_used(&first) <= blocks => first,
        _ => second,
    }
}

/// One schedule of the kernel, with the multiplies of `registered_operands` a cycle longer.
fn schedule_pass(
    k: Kernel,
    timing: Timing,
    clock_mhz: f64,
    opts: crate::Options,
    registered_operands: BTreeSet<Op>,
) -> Schedule {
    let period = 1000.0 / clock_mhz;
    let carry_out_sums = timing.carry_out_sums(&k);
    let mut s = Schedule {
        timing,
        clock_mhz,
        steps: SecondaryMap::new(),
        class: SecondaryMap::new(),
        time: SecondaryMap::new(),
        registered: SecondaryMap::new(),
        ports: SecondaryMap::new(),
        units: Vec::new(),
        timing_violations: Vec::new(),
        pipelines: Vec::new(),
        pipeline_of: SecondaryMap::new(),
        loops: Vec::new(),
        registered_operands,
        carry_out_sums,
        kernel: k,
    };
    assign_units(&mut s, period);
    // Every block as FSM states first: the pipeliner compares against this.
    for b in s.kernel.rpo() {
        schedule_block(&mut s, b, period);
    }
    let result = {
        let class_map = s.class.clone();
        let units = s.units.clone();
        let steps = s.steps.clone();
        // Inside a pipeline every division gets its own fully pipelined divider, so that a
        // loop that divides starts an iteration every cycle (a 64-bit one costs thousands of
        // registers; sharing the sequential unit would hold the loop at II `W + 4`).
        let pipelined_lat: Vec<Option<u32>> = units
            .iter()
            .map(|u| (u.width <= PIPELINED_DIVIDER_MAX_WIDTH).then(|| pipelined_divider_latency(&s.timing, u)))
            .collect();
        let lat = move |u: UnitId| units[u.0 as usize].latency;
        let class = move |op: Op| match class_map[op] {
            Some(OpClass::Unit(u)) if pipelined_lat[u.0 as usize].is_some() => {
                OpClass::Multi(pipelined_lat[u.0 as usize].unwrap_or(0) + 1)
            }
            c => c.unwrap_or(OpClass::Constant),
        };
        let fsm_cycles = move |blocks: &[Block]| blocks.iter().map(|b| steps[*b].max(1)).sum::<u32>();
        let cx = Context {
            k: &s.kernel,
            class: &class,
            unit_latency: &lat,
            fsm_cycles: &fsm_cycles,
            timing: &s.timing,
            carry_out_sums: &s.carry_out_sums,
            period,
            disabled: !opts.pipeline,
            strict_pipe_order: opts.strict_pipe_order,
        };
        pipeline_loops(&cx)
    };
    s.loops = result.analyses;
    for (p, times) in result.pipelines {
        let idx = s.pipelines.len() as u32;
        for b in p.blocks() {
            s.pipeline_of[b] = Some(idx);
        }
        for (op, t) in times {
            s.time[op] = t;
            if let Some(OpClass::Unit(u)) = s.class[op]
                && s.units[u.0 as usize].width <= PIPELINED_DIVIDER_MAX_WIDTH
            {
                s.class[op] = Some(OpClass::Multi(pipelined_divider_latency(&s.timing, &s.units[u.0 as usize]) + 1));
            }
        }
        s.pipelines.push(p);
    }
    for b in s.kernel.rpo() {
        if s.pipeline_of[b].is_some() {
            s.steps[b] = 0;
        }
    }
    mark_registers(&mut s);
    size_response_buffers(&mut s);
    s
}

/// The latency of a pipelined divider doing the divisions of unit `u`'s kind (one quotient bit
/// per stage, whatever the shared unit's step).
fn pipelined_divider_latency(timing: &Timing, u: &Unit) -> u32 {
    let UnitKind::Divider { signed } = u.kind;
    timing.divider_latency(u.width, signed)
}

/// One divider per (width, signedness), shared by all blocks (only one block runs at a time);
/// logic slower than the clock period becomes multi-cycle, and so does every split multiply when
/// the kernel shares multipliers.
fn assign_units(s: &mut Schedule, period: f64) {
    let mut by_key: HashMap<(u32, bool), UnitId> = HashMap::new();
    let ops: Vec<Op> = s.kernel.rpo().iter().flat_map(|b| s.kernel.blocks[*b].ops.clone()).collect();
    let shares_multipliers = s.timing.multipliers_per_cycle(&s.kernel).is_some();
    for op in ops {
        let mut class = classify(&s.kernel, op);
        if let OpClass::Unit(_) = class {
            let o = &s.kernel.ops[op];
            let w = o.result.map(|r| s.kernel.width(r)).unwrap_or(32);
            let signed =
                matches!(o.kind, OpKind::Binary(kiln_dataflow::ir::BinOp::SDiv | kiln_dataflow::ir::BinOp::SRem));
            let id = *by_key.entry((w, signed)).or_insert_with(|| {
                let step_cycles = s.timing.divider_step_cycles(w, period);
                s.units.push(Unit {
                    kind: UnitKind::Divider { signed },
                    width: w,
                    latency: s.timing.sequential_divider_latency(w, signed, step_cycles),
                    step_cycles,
                });
                UnitId(s.units.len() as u32 - 1)
            });
            class = OpClass::Unit(id);
        }
        if class == OpClass::Comb {
            let (mut n, _) = s.timing.op_segments_with(&s.kernel, op, period, s.carry_out_sums.contains(&op));
            // Only a split multiply (partial products registered, summed a cycle later) is
            // bound to a shared multiplier, so when the part's multiplier blocks are too few
            // one that would chain at a slow clock takes two cycles: doitgen at the
            // iCEBreaker's 12 MHz needed 36 DSP blocks of 8 with its twelve chained multiplies.
            if n == 1 && shares_multipliers && s.timing.splits_multiply(&s.kernel, op) {
                n = 2;
            }
            if n > 1 {
                class = OpClass::Multi(if s.registered_operands.contains(&op) { n + 1 } else { n });
            }
        }
        s.class[op] = Some(class);
    }
}

fn schedule_block(s: &mut Schedule, b: Block, period: f64) {
    let ops = s.kernel.blocks[b].ops.clone();
    let k = &s.kernel;
    let mut order: HashMap<Mem, MemOrder> = HashMap::new();
    let mut unit_free: HashMap<UnitId, u32> = HashMap::new();
    let mut last_step = 0u32;
    let mut any = false;
    let mut last_transfer: Option<u32> = None;
    // `printf`s print in program order: none starts before the one before it.
    let mut last_print = 0u32;
    // Port requests and memory accesses already placed per step (resource tables).
    let mut port_req: HashMap<(Mem, u32), ()> = HashMap::new();
    let mut mem_read: HashMap<(Mem, u32), ()> = HashMap::new();
    let mut mem_write: HashMap<(Mem, u32), ()> = HashMap::new();
    let mut times: Vec<(Op, OpTime)> = Vec::new();
    // Ops whose result, in its end step, depends on a port response consumed in that step. A
    // port request must not use such a value in the same step: while the state waits for the
    // response, the request's address and data would not be stable.
    let mut unstable: std::collections::HashSet<Op> = std::collections::HashSet::new();
    let mut violations = Vec::new();
    let write_delay = |m: Mem| u32::from(s.timing.registers_writes(m));
    let time_of = |times: &Vec<(Op, OpTime)>, op: Op| times.iter().rev().find(|(o, _)| *o == op).map(|(_, t)| *t);
    for &op in &ops {
        let class = s.class[op].unwrap_or(OpClass::Constant);
        if class == OpClass::Constant {
            times.push((op, OpTime::default()));
            continue;
        }
        let o = &k.ops[op];
        let rw = o.result.map(|r| k.width(r)).unwrap_or(1);
        let iw = o.args.first().map(|a| k.width(*a)).unwrap_or(rw);
        let delay = match class {
            OpClass::Comb
            | OpClass::PortLoad(_)
            | OpClass::PortStore(_)
            | OpClass::MemLoad(_)
            | OpClass::MemStore(_)
            | OpClass::PipeTransfer(_) => s.timing.op_delay_with(k, op, s.carry_out_sums.contains(&op)),
            OpClass::Multi(_) => s.timing.op_segments_with(k, op, period, s.carry_out_sums.contains(&op)).1,
            OpClass::Unit(_) => s.timing.divider_start_ns(iw),
            OpClass::Constant => 0.0,
        };
        // Earliest step from operands.
        let mut earliest = 0u32;
        let mut preds: Vec<OpTime> = Vec::new();
        for a in &o.args {
            if let ValueDef::Op(p) = k.values[*a].def
                && k.ops[p].block == b
                && let Some(t) = time_of(&times, p)
                && s.class[p] != Some(OpClass::Constant)
            {
                earliest = earliest.max(t.end);
                preds.push(t);
            }
        }
        // Memory order and unit availability.
        match class {
            OpClass::PortLoad(m) | OpClass::PortStore(m) => {
                let mo = order.entry(m).or_default();
                if let Some(r) = mo.last_request {
                    earliest = earliest.max(r + 1);
                }
            }
            OpClass::MemLoad(m) => {
                let mo = order.entry(m).or_default();
                if let Some(st) = mo.last_store_start {
                    earliest = earliest.max(st + 1 + write_delay(m));
                }
                if let Some(l) = mo.last_load_start {
                    earliest = earliest.max(l + 1);
                }
            }
            OpClass::MemStore(m) => {
                let mo = order.entry(m).or_default();
                // Not in the cycle of an earlier load: see `pipeline::modulo::delta`.
                if let Some(l) = mo.last_load_start {
                    earliest = earliest.max(l + 1);
                }
                if let Some(st) = mo.last_store_start {
                    earliest = earliest.max(st + 1);
                }
            }
            OpClass::Unit(u) => {
                if let Some(f) = unit_free.get(&u) {
                    earliest = earliest.max(*f);
                }
            }
            OpClass::PipeTransfer(_) => {
                if let Some(l) = last_transfer {
                    earliest = earliest.max(l + 1);
                }
            }
            OpClass::Comb if matches!(o.kind, OpKind::Print(_)) => earliest = earliest.max(last_print),
            _ => {}
        }
        let same_block_preds: Vec<(Op, OpTime)> = o
            .args
            .iter()
            .filter_map(|a| match k.values[*a].def {
                ValueDef::Op(p) if k.ops[p].block == b && s.class[p] != Some(OpClass::Constant) => {
                    time_of(&times, p).map(|t| (p, t))
                }
                _ => None,
            })
            .collect();
        let is_request = matches!(class, OpClass::PortLoad(_) | OpClass::PortStore(_));
        let mut step = earliest;
        let (start, arrival) = loop {
            if is_request && same_block_preds.iter().any(|(p, t)| t.end == step && unstable.contains(p)) {
                step += 1;
                continue;
            }
            let arrival = preds.iter().filter(|t| t.end == step).map(|t| t.ready_ns).fold(0.0, f64::max);
            let chained = arrival > 0.0;
            // A lane is read in the cycle its word's response is consumed, however late the
            // response arrives in it (a path over the period is reported, not moved).
            let lane = matches!(o.kind, OpKind::WordLane { .. } | OpKind::WordLaneAt(_));
            if chained && !lane && arrival + delay > period {
                step += 1;
                continue;
            }
            let free = match class {
                OpClass::PortLoad(m) | OpClass::PortStore(m) => !port_req.contains_key(&(m, step)),
                OpClass::MemLoad(m) => !mem_read.contains_key(&(m, step)),
                OpClass::MemStore(m) => !mem_write.contains_key(&(m, step)),
                _ => true,
            };
            if free {
                break (step, arrival);
            }
            step += 1;
        };
        let out = s.timing.clock_to_out_ns();
        let time = match class {
            OpClass::Comb => {
                let ready = arrival.max(out) + delay;
                if ready > period {
                    violations.push((op, ready));
                }
                OpTime { start, end: start, ready_ns: ready }
            }
            OpClass::Multi(n) => OpTime { start, end: start + n - 1, ready_ns: out + delay },
            OpClass::PortLoad(m) => {
                port_req.insert((m, start), ());
                let mo = order.entry(m).or_default();
                mo.last_request = Some(start);
                let end = (start + 1).max(mo.last_consume.map(|c| c + 1).unwrap_or(0));
                mo.last_consume = Some(end);
                mo.last_load_start = Some(start);
                OpTime { start, end, ready_ns: s.timing.port_response_ns() }
            }
            OpClass::PortStore(m) => {
                port_req.insert((m, start), ());
                let mo = order.entry(m).or_default();
                mo.last_request = Some(start);
                mo.last_store_start = Some(start);
                OpTime { start, end: start, ready_ns: 0.0 }
            }
            OpClass::MemLoad(m) => {
                mem_read.insert((m, start), ());
                order.entry(m).or_default().last_load_start = Some(start);
                let (cycles, ready_ns) = s.timing.memory_read_timing(&k.mems[m], period);
                OpTime { start, end: start + cycles, ready_ns }
            }
            OpClass::MemStore(m) => {
                mem_write.insert((m, start), ());
                order.entry(m).or_default().last_store_start = Some(start);
                // A registered write lands at the end of the next cycle: the block lasts
                // until then, so that no later state reads the element before it lands.
                OpTime { start, end: start + write_delay(m), ready_ns: 0.0 }
            }
            OpClass::Unit(u) => {
                let lat = s.units[u.0 as usize].latency;
                unit_free.insert(u, start + lat);
                OpTime { start, end: start + lat, ready_ns: out }
            }
            OpClass::PipeTransfer(_) => {
                last_transfer = Some(start);
                let ready = arrival.max(out) + delay;
                OpTime { start, end: start, ready_ns: ready }
            }
            OpClass::Constant => OpTime::default(),
        };
        let depends_on_unstable = same_block_preds.iter().any(|(p, t)| t.end == time.start && unstable.contains(p));
        // A packet read in a step is there only while the state can fire: like a response.
        let pipe_read = matches!(o.kind, OpKind::PipeRead { .. } | OpKind::PipeQuery { .. });
        if matches!(class, OpClass::PortLoad(_)) || pipe_read || (class == OpClass::Comb && depends_on_unstable) {
            unstable.insert(op);
        }
        if matches!(o.kind, OpKind::Print(_)) {
            last_print = time.start;
        }
        any = true;
        last_step = last_step.max(time.end);
        times.push((op, time));
    }
    let empty_return = !any && matches!(s.kernel.blocks[b].term, Terminator::Return) && b != s.kernel.entry;
    s.steps[b] = if empty_return { 0 } else { last_step + 1 };
    for (op, t) in times {
        s.time[op] = t;
    }
    s.timing_violations.retain(|(op, _)| s.kernel.ops[*op].block != b);
    s.timing_violations.extend(violations);
}

/// Marks the values that must be held in registers.
fn mark_registers(s: &mut Schedule) {
    let k = &s.kernel;
    let mut reg: SecondaryMap<Value, bool> = SecondaryMap::new();
    // Block parameters (including scalar arguments) are registers.
    for b in k.rpo() {
        for &p in &k.blocks[b].params {
            reg[p] = true;
        }
    }
    let def_site = |v: Value| -> Option<(Block, u32)> {
        match k.values[v].def {
            ValueDef::Op(op) => {
                if s.class[op] == Some(OpClass::Constant) {
                    None
                } else {
                    Some((k.ops[op].block, s.time[op].end))
                }
            }
            ValueDef::Param(..) => None,
        }
    };
    for b in k.rpo() {
        if let Some(pi) = s.pipeline_of[b] {
            // Inside a pipeline, values of the loop travel in the pipeline's own registers;
            // only values from before the loop need registers.
            let from_outside = |a: Value| def_site(a).is_some_and(|(db, _)| s.pipeline_of[db] != Some(pi));
            for &op in &k.blocks[b].ops {
                for &a in &k.ops[op].args {
                    if from_outside(a) {
                        reg[a] = true;
                    }
                }
            }
            for a in k.blocks[b].term.uses() {
                if from_outside(a) {
                    reg[a] = true;
                }
            }
            continue;
        }
        let last = s.steps[b].saturating_sub(1);
        for &op in &k.blocks[b].ops {
            let use_step = s.time[op].start;
            for &a in &k.ops[op].args {
                if let Some((db, de)) = def_site(a)
                    && (db != b || de < use_step)
                {
                    reg[a] = true;
                }
            }
            // A predicated read also uses its predicate when the data arrives.
            if let (Some(p), Some(OpClass::PortLoad(_) | OpClass::MemLoad(_))) = (k.ops[op].predicate(), s.class[op])
                && let Some((db, de)) = def_site(p)
                && (db != b || de < s.time[op].end)
            {
                reg[p] = true;
            }
        }
        for a in k.blocks[b].term.uses() {
            if let Some((db, de)) = def_site(a)
                && (db != b || de < last)
            {
                reg[a] = true;
            }
        }
    }
    s.registered = reg;
}

/// The response buffer of each port holds every load that can be outstanding at once.
fn size_response_buffers(s: &mut Schedule) {
    let k = &s.kernel;
    let mut depth: HashMap<Mem, u32> = HashMap::new();
    for b in k.rpo() {
        let mut intervals: HashMap<Mem, Vec<(u32, u32)>> = HashMap::new();
        for &op in &k.blocks[b].ops {
            if let Some(OpClass::PortLoad(m)) = s.class[op] {
                let t = s.time[op];
                intervals.entry(m).or_default().push((t.start, t.end));
            }
        }
        for (m, iv) in intervals {
            let max_t = iv.iter().map(|(_, e)| *e).max().unwrap_or(0);
            for t in 0..=max_t {
                let live = iv.iter().filter(|(st, en)| *st <= t && t <= *en).count() as u32;
                let d = depth.entry(m).or_insert(1);
                *d = (*d).max(live);
            }
        }
    }
    // A pipeline has at most `PORT_RESPONSE_LATENCY + 1` reads in flight per port.
    for p in &s.pipelines {
        for op in &p.ops {
            if let Some(OpClass::PortLoad(m)) = s.class[*op] {
                let d = depth.entry(m).or_insert(1);
                *d = (*d).max(crate::pipeline::modulo::PORT_RESPONSE_LATENCY + 1);
            }
        }
    }
    let ports: Vec<Mem> = k.ports().map(|(_, _, m)| m).collect();
    for m in ports {
        s.ports[m] = PortSched { resp_depth: depth.get(&m).copied().unwrap_or(1) };
    }
}
