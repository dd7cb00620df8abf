//! The cycle-accurate simulator: runs a [`Schedule`] cycle by cycle against the test-bench
//! memory model, following the timing contract of `docs/timing.md`.
//!
//! It interprets the schedule, not the emitted Verilog: its agreement with Verilator (outputs and
//! cycle count) is what shows that the RTL generator implements the schedule.

mod pipe;
pub mod system;
mod tables;

use crate::memory::{MemConfig, PortMemory, PortOutputs, Request, Word};
use crate::trace::Trace;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::emu::{self, Arg, MemState, RunError};
use kiln_dataflow::ir::op::{eval, mask};
use kiln_dataflow::ir::{Block, Mem, Op, OpKind, Pipe, PipeQuery, Target, Terminator, Value};
use kiln_scheduler::schedule::Entry;
use kiln_scheduler::{OpClass, Schedule};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use tables::{Args, Tables};

#[derive(Clone, Debug)]
pub struct SimConfig {
    pub mem: MemConfig,
    pub max_cycles: u64,
    /// Cycles without a pipe transfer, while every unfinished kernel waits on a pipe, after
    /// which a run stops as deadlocked.
    pub deadlock_cycles: u64,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            mem: MemConfig::default(),
            max_cycles: 10_000_000,
            deadlock_cycles: system::DEFAULT_DEADLOCK_CYCLES,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimResult {
    /// The cycle in which `done` is high (the test bench asserts `start` in cycle 0).
    pub cycles: u64,
    pub buffers: Vec<Option<Vec<u64>>>,
    /// Cycles in which the kernel waited on a memory port.
    pub stall_cycles: u64,
    /// What the kernel's `printf`s printed, each with the cycle it printed in.
    pub printed: Vec<(u64, String)>,
}

/// What a pipe's FIFO presents to the kernel in one cycle (docs/timing.md §9).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipeSignal {
    /// `valid` of a read end (a packet is there), `ready` of a write end (there is room).
    pub can: bool,
    /// The head packet's lanes (read ends only; meaningful when `can`).
    pub head: Vec<u64>,
    /// The packets in the FIFO and its depth (for `get_pipe_num_packets`/`_max_packets`);
    /// both 0 for an unconnected pipe.
    pub fill: u32,
    pub depth: u32,
}

/// What a kernel did with its pipes in one cycle.
#[derive(Clone, Debug, Default)]
pub struct PipeActivity {
    /// Read ends that took the head packet.
    pub taken: Vec<Pipe>,
    /// Write ends that put a packet (its lanes).
    pub put: Vec<(Pipe, Vec<u64>)>,
    /// The blocking transfer that held the kernel this cycle.
    pub held_by: Option<Op>,
    /// A non-blocking transfer that found its FIFO empty (read) or full (write).
    pub failed_poll: Option<Op>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Step(Block, u32),
    /// Running pipelined loop `n`.
    Pipe(u32),
    Done,
}

struct Sim<'s> {
    s: &'s Schedule,
    tables: Rc<Tables>,
    vals: SecondaryMap<Value, u64>,
    mems: SecondaryMap<Mem, MemState>,
    /// Port index (0-based, in parameter order) of each port memory.
    port_index: SecondaryMap<Mem, u32>,
    ports: Vec<PortMemory>,
    port_mems: Vec<Mem>,
    /// The kernel's response buffers (words).
    resp_buf: Vec<VecDeque<Word>>,
    /// The word each `WordLoad` of FSM code read last, for its lanes.
    words: HashMap<Op, Word>,
    /// Port requests accepted in an earlier cycle of a state (or pipeline cycle) that stalls.
    accepted: SecondaryMap<Op, bool>,
    /// The pipelined loop being run, if any.
    pipe: Option<Box<pipe::PipeRun>>,
    /// This cycle's FIFO signals, per pipe (unconnected pipes never move).
    pipe_in: SecondaryMap<Pipe, PipeSignal>,
    /// This cycle's pipe transfers.
    pipe_out: PipeActivity,
    /// Transfers of the running pipeline's current cycle that have happened while it stalled:
    /// their result and, for reads, the packet taken.
    transferred: HashMap<Op, (u64, Vec<u64>)>,
    /// Elements of memories whose writes pass registers (`Schedule::registers_writes`) stored
    /// in this cycle, and in the cycle before: those land at this cycle's edge, so a read of
    /// one of them now would meet its write.
    stored_now: Vec<(Mem, u64)>,
    landing: Vec<(Mem, u64)>,
    /// The cycle being run, and what `printf`s printed so far with their cycles.
    now: u64,
    printed: Vec<(u64, String)>,
}

impl<'s> Sim<'s> {
    fn width(&self, v: Value) -> u32 {
        self.s.kernel.width(v)
    }

    fn eval_comb(&mut self, op: Op) {
        let k = &self.s.kernel;
        let o = &k.ops[op];
        let args = Args::gather(o.args.len(), |i| self.vals[o.args[i]]);
        if let OpKind::Print(format) = &o.kind {
            self.printed.push((self.now, format.render(&args)));
            return;
        }
        if let OpKind::PipeLane { pipe, lane } = o.kind {
            if let Some(r) = o.result {
                self.vals[r] = self.lane_of(pipe, lane, args[0]) & mask(k.width(r));
            }
            return;
        }
        if let Some(v) = word_lane(k, op, &args, |load| self.words.get(&load)) {
            if let Some(r) = o.result {
                self.vals[r] = v;
            }
            return;
        }
        if let Some(r) = o.result {
            let info = self.tables.info(op);
            self.vals[r] = eval(&o.kind, &args, &info.arg_widths, info.width);
        }
    }

    /// Lane `lane` of the packet a read took: the FIFO's head when the read's result `ok` is 1,
    /// else 0.
    fn lane_of(&self, pipe: Pipe, lane: u32, ok: u64) -> u64 {
        if ok & 1 == 1 { self.pipe_in[pipe].head.get(lane as usize).copied().unwrap_or(0) } else { 0 }
    }

    /// Whether the enabled blocking transfer `op` must wait this cycle.
    fn transfer_waits(&self, op: Op) -> bool {
        match self.s.kernel.ops[op].kind {
            OpKind::PipeRead { pipe, blocking: true } | OpKind::PipeWrite { pipe, blocking: true } => {
                !self.pipe_in[pipe].can
            }
            _ => false,
        }
    }

    /// The result of transfer `op` if it happened now: 1 when blocking, else whether the FIFO
    /// can take part; the answer of a query.
    fn transfer_value(&self, op: Op) -> u64 {
        match self.s.kernel.ops[op].kind {
            OpKind::PipeRead { blocking: true, .. } | OpKind::PipeWrite { blocking: true, .. } => 1,
            OpKind::PipeRead { pipe, .. } | OpKind::PipeWrite { pipe, .. } => self.pipe_in[pipe].can as u64,
            OpKind::PipeQuery { pipe, what: PipeQuery::Packets } => u64::from(self.pipe_in[pipe].fill),
            OpKind::PipeQuery { pipe, what: PipeQuery::MaxPackets } => u64::from(self.pipe_in[pipe].depth),
            _ => 0,
        }
    }

    /// Performs transfer `op` in a cycle where its state fires or its slot advances, and
    /// returns its 1-bit result: 1 for a blocking transfer (it has happened), the FIFO's
    /// `valid`/`ready` for a non-blocking one. `lanes` are the packet of a write.
    fn transfer(&mut self, op: Op, enabled: bool, lanes: Vec<u64>) -> u64 {
        let kind = &self.s.kernel.ops[op].kind;
        let (pipe, blocking, read) = match *kind {
            OpKind::PipeRead { pipe, blocking } => (pipe, blocking, true),
            OpKind::PipeWrite { pipe, blocking } => (pipe, blocking, false),
            _ => return self.transfer_value(op),
        };
        let can = self.pipe_in[pipe].can;
        if enabled && can {
            if read {
                self.pipe_out.taken.push(pipe);
            } else {
                self.pipe_out.put.push((pipe, lanes));
            }
        } else if enabled && !blocking {
            self.pipe_out.failed_poll = Some(op);
        }
        if blocking { 1 } else { can as u64 }
    }

    /// Computes the combinational values of step `(b, i)` that do not depend on responses
    /// consumed in this step, so that requests can present their address and data.
    fn pre_evaluate(&mut self, b: Block, i: u32) {
        let tables = self.tables.clone();
        for a in tables.step(b, i).iter().filter(|a| a.early) {
            self.eval_comb(a.op);
        }
    }

    fn constants(&mut self) {
        let k = &self.s.kernel;
        for (op, o) in k.ops.iter() {
            if let (OpKind::Const(c), Some(r)) = (&o.kind, o.result) {
                self.vals[r] = *c & mask(k.width(r));
            }
            let _ = op;
        }
    }

    /// Keeps a store's element for the next cycle's reads where it lands then.
    fn note_store(&mut self, m: Mem, index: u64) {
        if self.s.registers_writes(m) {
            self.stored_now.push((m, index));
        }
    }

    /// Whether a (possibly predicated) memory op is enabled, from current values.
    fn enabled(&self, op: Op) -> bool {
        self.tables.info(op).predicate.is_none_or(|p| self.vals[p] & 1 == 1)
    }

    fn request_of(&self, op: Op) -> Request {
        let o = &self.s.kernel.ops[op];
        let args = Args::gather(o.args.len(), |i| self.vals[o.args[i]]);
        request(&self.s.kernel, op, &args)
    }

    /// Executes the firing of step `(b, i)`. `outs` are this cycle's port outputs; marks in
    /// `bypassed` the ports whose presented response was taken by bypass.
    fn fire(&mut self, b: Block, i: u32, outs: &[PortOutputs], bypassed: &mut [bool]) -> Result<(), RunError> {
        let tables = self.tables.clone();
        let mut loaded: smallvec::SmallVec<[(kiln_dataflow::ir::Mem, u64); 4]> = smallvec::SmallVec::new();
        for a in tables.step(b, i) {
            let op = a.op;
            let info = tables.info(op);
            let t = info.time;
            let o = &self.s.kernel.ops[op];
            let span = o.span;
            match info.class {
                OpClass::Comb if t.start == i => self.eval_comb(op),
                OpClass::Unit(_) | OpClass::Multi(_) if t.start == i => self.eval_comb(op),
                OpClass::PipeTransfer(_) if t.start == i => {
                    let lanes: Vec<u64> = match o.kind {
                        OpKind::PipeWrite { .. } => o.args.iter().map(|a| self.vals[*a]).collect(),
                        _ => vec![],
                    };
                    let result = o.result;
                    let v = self.transfer(op, true, lanes);
                    if let Some(r) = result {
                        self.vals[r] = v;
                    }
                }
                OpClass::MemLoad(_) | OpClass::MemStore(_) | OpClass::PortLoad(_) if !self.enabled(op) => {
                    if let Some(r) = o.result
                        && t.end == i
                    {
                        self.vals[r] = 0;
                    }
                }
                OpClass::MemLoad(m) if t.start == i => {
                    let idx = self.vals[o.args[0]];
                    loaded.push((m, idx));
                    check_no_collision(&self.s.kernel, &self.landing, m, idx, span)?;
                    let v = emu::load(&self.s.kernel, &self.mems, m, idx, span)?;
                    if let Some(r) = o.result {
                        self.vals[r] = v;
                    }
                }
                OpClass::MemStore(m) if t.start == i => {
                    let idx = self.vals[o.args[0]];
                    let v = self.vals[o.args[1]];
                    check_no_collision(&self.s.kernel, &loaded, m, idx, span)?;
                    emu::store(&self.s.kernel, &mut self.mems, m, idx, v, span)?;
                    self.note_store(m, idx);
                }
                OpClass::PortLoad(m) if t.end == i => {
                    let p = self.port_index[m] as usize;
                    let word = match self.resp_buf[p].pop_front() {
                        Some(w) => w,
                        None => {
                            bypassed[p] = true;
                            outs[p].resp_rdata.clone()
                        }
                    };
                    let v = response_value(&self.s.kernel, op, word, &mut self.words);
                    if let Some(r) = o.result {
                        self.vals[r] = v & mask(self.width(r));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes the edge out of block `b`: returns the next state and assigns block parameters.
    fn transition(&mut self, b: Block) -> State {
        let k = &self.s.kernel;
        let term = &k.blocks[b].term;
        let target: &Target = match term {
            Terminator::Return | Terminator::Unterminated => return State::Done,
            Terminator::Jump(t) => t,
            Terminator::Branch { cond, then_to, else_to } => {
                if self.vals[*cond] & 1 == 1 {
                    then_to
                } else {
                    else_to
                }
            }
            Terminator::Switch { value, cases, default } => {
                let v = self.vals[*value];
                cases.iter().find(|(c, _)| *c == v).map(|(_, t)| t).unwrap_or(default)
            }
        };
        let incoming: Vec<u64> = target.args.iter().map(|a| self.vals[*a]).collect();
        let target_block = target.block;
        self.enter(target_block, incoming)
    }

    /// Enters block `b` with its parameter values.
    fn enter(&mut self, b: Block, incoming: Vec<u64>) -> State {
        let params = self.s.kernel.blocks[b].params.clone();
        for (p, v) in params.iter().zip(incoming) {
            self.vals[*p] = v;
        }
        match self.s.entry_of(b) {
            Entry::Done => State::Done,
            Entry::Step(b) => State::Step(b, 0),
            Entry::Pipeline(n) => {
                self.pipe = Some(Box::new(pipe::PipeRun::new(n, self.tables.plans[n as usize].clone())));
                State::Pipe(n)
            }
        }
    }
}

/// One kernel being simulated, a cycle at a time, so that several kernels can run side by side
/// with FIFOs between them ([`system`]).
pub struct KernelRun<'s> {
    sim: Sim<'s>,
    state: State,
    /// Whether the current state was just entered (its request values must be computed).
    entered: bool,
    stall_cycles: u64,
    scalars: Vec<(Value, u64)>,
    /// Number of the kernel's first memory port in the test bench (for the stall pattern).
    port_base: u32,
    /// The kernel's scope in a trace (its launch index in a system).
    pub trace_scope: usize,
    /// Per-port buffers of a cycle, kept so that a cycle does not allocate.
    outs: Vec<PortOutputs>,
    accepted_now: Vec<Option<(Op, Request)>>,
    bypassed: Vec<bool>,
    valid: Vec<bool>,
}

impl<'s> KernelRun<'s> {
    /// A kernel in `IDLE`, about to see `start` in cycle 0. `args` are in parameter order;
    /// `port_base` numbers its memory ports in the test bench.
    pub fn new(s: &'s Schedule, args: &[Arg], port_base: u32) -> KernelRun<'s> {
        let k = &s.kernel;
        let mut sim = Sim {
            s,
            tables: Rc::new(Tables::of(s)),
            vals: SecondaryMap::new(),
            mems: emu::init_memories(k, args),
            port_index: SecondaryMap::new(),
            ports: vec![],
            port_mems: vec![],
            resp_buf: vec![],
            words: HashMap::new(),
            accepted: SecondaryMap::new(),
            pipe: None,
            pipe_in: SecondaryMap::new(),
            pipe_out: PipeActivity::default(),
            transferred: HashMap::new(),
            stored_now: Vec::new(),
            now: 0,
            printed: Vec::new(),
            landing: Vec::new(),
        };
        for (i, (_, _, m)) in k.ports().enumerate() {
            sim.port_index[m] = i as u32;
            sim.ports.push(PortMemory::new(sim.mems[m].data.clone(), k.mems[m].lanes as usize));
            sim.port_mems.push(m);
            sim.resp_buf.push(VecDeque::new());
        }
        sim.constants();
        let scalars = k
            .scalar_params()
            .filter_map(|(i, _, v)| match args.get(i) {
                Some(Arg::Scalar(x)) => Some((v, x & mask(k.width(v)))),
                _ => None,
            })
            .collect();
        KernelRun {
            sim,
            state: State::Idle,
            entered: true,
            stall_cycles: 0,
            scalars,
            port_base,
            trace_scope: 0,
            outs: Vec::new(),
            accepted_now: Vec::new(),
            bypassed: Vec::new(),
            valid: Vec::new(),
        }
    }

    /// The FIFO signals of `pipe` for the coming cycle.
    pub fn set_pipe(&mut self, pipe: Pipe, signal: PipeSignal) {
        self.sim.pipe_in[pipe] = signal;
    }

    /// The pipe transfers of the last cycle.
    pub fn pipe_activity(&self) -> &PipeActivity {
        &self.sim.pipe_out
    }

    /// Memory ports of the kernel.
    pub fn port_count(&self) -> u32 {
        self.sim.ports.len() as u32
    }

    /// Runs cycle `cycle`: returns the result in the cycle where `done` is high.
    pub fn tick(
        &mut self,
        cfg: &MemConfig,
        cycle: u64,
        trace: Option<&mut Trace>,
    ) -> Result<Option<SimResult>, RunError> {
        let sim = &mut self.sim;
        let s = sim.s;
        let k = &s.kernel;
        sim.now = cycle;
        sim.pipe_out = PipeActivity::default();
        let state = self.state;
        // This cycle's port signals, in buffers kept from cycle to cycle.
        let n_ports = sim.ports.len();
        let mut outs = std::mem::take(&mut self.outs);
        outs.clear();
        outs.extend(sim.ports.iter().enumerate().map(|(p, m)| m.outputs(cfg, self.port_base + p as u32, cycle)));
        let mut accepted_now = std::mem::take(&mut self.accepted_now);
        accepted_now.resize(n_ports, None);
        accepted_now.fill(None);
        let mut bypassed = std::mem::take(&mut self.bypassed);
        bypassed.resize(n_ports, false);
        bypassed.fill(false);
        let mut valid = std::mem::take(&mut self.valid);
        valid.resize(n_ports, false);
        valid.fill(false);
        let mut next = state;
        let mut fired = false;
        match state {
            State::Idle => {
                if cycle == 0 {
                    for &(v, x) in &self.scalars {
                        sim.vals[v] = x;
                    }
                    next = State::Step(k.entry, 0);
                    if s.pipeline_of[k.entry].is_some() {
                        let incoming: Vec<u64> = k.blocks[k.entry].params.iter().map(|p| sim.vals[*p]).collect();
                        next = sim.enter(k.entry, incoming);
                    }
                }
            }
            State::Done => {
                if let Some(t) = trace {
                    t.cycle(self.trace_scope, cycle, "DONE", &sim.vals, &valid, &outs);
                }
                let mut buffers = vec![None; k.params.len()];
                for (i, (pi, _, _)) in k.ports().enumerate() {
                    buffers[pi] = Some(sim.ports[i].data.clone());
                }
                self.state = State::Idle;
                let printed = std::mem::take(&mut sim.printed);
                return Ok(Some(SimResult { cycles: cycle, buffers, stall_cycles: self.stall_cycles, printed }));
            }
            State::Pipe(_) => {
                let pc = sim.pipe_cycle(&outs, &mut accepted_now, &mut valid, &mut bypassed)?;
                if pc.stalled {
                    self.stall_cycles += 1;
                } else {
                    fired = true;
                }
                if let Some(n) = pc.next {
                    next = n;
                }
            }
            State::Step(b, i) => {
                if self.entered {
                    sim.pre_evaluate(b, i);
                }
                let tables = sim.tables.clone();
                let ops = tables.step(b, i);
                let mut ok = true;
                for a in ops {
                    let op = a.op;
                    let info = tables.info(op);
                    let t = info.time;
                    match info.class {
                        OpClass::PortLoad(m) | OpClass::PortStore(m) if t.start == i && sim.enabled(op) => {
                            let p = sim.port_index[m] as usize;
                            if !sim.accepted[op] {
                                valid[p] = true;
                                if outs[p].req_ready {
                                    accepted_now[p] = Some((op, sim.request_of(op)));
                                } else {
                                    ok = false;
                                }
                            }
                        }
                        OpClass::PipeTransfer(_) if t.start == i && sim.transfer_waits(op) => {
                            sim.pipe_out.held_by = Some(op);
                            ok = false;
                        }
                        _ => {}
                    }
                    if let OpClass::PortLoad(m) = info.class
                        && t.end == i
                        && sim.enabled(op)
                    {
                        let p = sim.port_index[m] as usize;
                        if sim.resp_buf[p].is_empty() && !outs[p].resp_valid {
                            ok = false;
                        }
                    }
                }
                if ok {
                    fired = true;
                    sim.fire(b, i, &outs, &mut bypassed)?;
                    for a in ops {
                        sim.accepted[a.op] = false;
                    }
                    next = if i + 1 < s.steps[b] { State::Step(b, i + 1) } else { sim.transition(b) };
                } else {
                    self.stall_cycles += 1;
                    for (op, _) in accepted_now.iter().flatten() {
                        sim.accepted[*op] = true;
                    }
                }
            }
        }
        if let Some(t) = trace {
            let name = match state {
                State::Idle => "IDLE".to_string(),
                State::Step(b, i) => format!("{b}_{i}"),
                State::Pipe(n) => format!("P{n}"),
                State::Done => "DONE".to_string(),
            };
            t.cycle(self.trace_scope, cycle, &name, &sim.vals, &valid, &outs);
        }
        // The clock edge: memories take presented responses and accepted requests.
        for p in 0..sim.ports.len() {
            if outs[p].resp_valid && !bypassed[p] {
                sim.resp_buf[p].push_back(outs[p].resp_rdata.clone());
            }
            let req = accepted_now[p].as_ref().map(|(_, r)| r.clone());
            if let Err(e) = sim.ports[p].clock(cfg, &outs[p], req, cycle) {
                let span = accepted_now[p].as_ref().map(|(op, _)| k.ops[*op].span).unwrap_or(k.span);
                let m = sim.port_mems[p];
                return Err(RunError::OutOfBounds {
                    kernel: k.name.to_string(),
                    buffer: k.mems[m].name.to_string(),
                    index: e.addr,
                    len: e.len,
                    write: e.write,
                    span,
                });
            }
        }
        std::mem::swap(&mut sim.landing, &mut sim.stored_now);
        sim.stored_now.clear();
        self.entered = fired || next != state;
        self.state = next;
        (self.outs, self.accepted_now, self.bypassed, self.valid) = (outs, accepted_now, bypassed, valid);
        Ok(None)
    }
}

/// The request a port access makes with operand values `args`: the word of its element (the
/// element itself on a port of one lane), with the lanes a write changes.
fn request(k: &kiln_dataflow::Kernel, op: Op, args: &[u64]) -> Request {
    let o = &k.ops[op];
    let n = u64::from(o.kind.mem().map(|m| k.mems[m].lanes).unwrap_or(1).max(1));
    let addr = args[0] / n;
    let write = match o.kind {
        OpKind::Store(_) => Some((Word::from_slice(&[args[1]]), 1)),
        OpKind::WordStore { mask, .. } => {
            let mut values = args[1..].iter();
            let lanes =
                (0..n).map(|j| if mask >> j & 1 == 1 { values.next().copied().unwrap_or(0) } else { 0 }).collect();
            Some((lanes, mask))
        }
        OpKind::WordStoreAt(_) => {
            let lane = args[0] % n;
            let mut lanes = Word::from_elem(0, n as usize);
            lanes[lane as usize] = args[1];
            Some((lanes, 1 << lane))
        }
        _ => None,
    };
    Request { addr, write }
}

/// The result of a port read from its response `word`: the element of a `Load`, the token of a
/// `WordLoad` (whose word is kept in `words` for its lanes).
fn response_value(k: &kiln_dataflow::Kernel, op: Op, word: Word, words: &mut HashMap<Op, Word>) -> u64 {
    if matches!(k.ops[op].kind, OpKind::WordLoad(_)) {
        words.insert(op, word);
        1
    } else {
        word.first().copied().unwrap_or(0)
    }
}

/// The value of a `WordLane`/`WordLaneAt` op from its operand values and the words its load
/// read (`None` for any other op). A load that read nothing (predicated off) gives 0.
fn word_lane<'a>(
    k: &kiln_dataflow::Kernel,
    op: Op,
    args: &[u64],
    word_of: impl Fn(Op) -> Option<&'a Word>,
) -> Option<u64> {
    let o = &k.ops[op];
    let lane = match o.kind {
        OpKind::WordLane { lane, .. } => u64::from(lane),
        OpKind::WordLaneAt(m) => args[1] % u64::from(k.mems[m].lanes.max(1)),
        _ => return None,
    };
    if args[0] & 1 == 0 {
        return Some(0);
    }
    let load = k.def_op(o.args[0])?;
    Some(word_of(load).and_then(|w| w.get(lane as usize)).copied().unwrap_or(0))
}

/// Simulates a scheduled kernel on its own (its pipes, if any, are unconnected). `args` are in
/// kernel parameter order.
pub fn simulate(
    s: &Schedule,
    args: &[Arg],
    cfg: &SimConfig,
    mut trace: Option<&mut Trace>,
) -> Result<SimResult, RunError> {
    if !s.kernel.pipes.is_empty() {
        let launch = system::SystemKernel { schedule: s, args: args.to_vec(), fifo_of: SecondaryMap::new() };
        let mut r = system::simulate_system(&[launch], &[], cfg, trace)?;
        return Ok(r.kernels.remove(0));
    }
    let mut run = KernelRun::new(s, args, 0);
    let mut cycle: u64 = 0;
    loop {
        if cycle >= cfg.max_cycles {
            return Err(RunError::StepLimit {
                kernel: s.kernel.name.to_string(),
                limit: cfg.max_cycles,
                what: "cycles",
            });
        }
        if let Some(r) = run.tick(&cfg.mem, cycle, trace.as_deref_mut())? {
            return Ok(r);
        }
        cycle += 1;
    }
}

/// A store to an element of on-chip memory `m` that a load of this cycle reads is an error (see
/// [`RunError::ReadWriteCollision`]).
pub(super) fn check_no_collision(
    k: &kiln_dataflow::ir::Kernel,
    loaded: &[(kiln_dataflow::ir::Mem, u64)],
    m: kiln_dataflow::ir::Mem,
    index: u64,
    span: kiln_diagnostics::Span,
) -> Result<(), RunError> {
    if loaded.contains(&(m, index)) {
        return Err(RunError::ReadWriteCollision {
            kernel: k.name.to_string(),
            memory: k.mems[m].name.to_string(),
            index,
            span,
        });
    }
    Ok(())
}
