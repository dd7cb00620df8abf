//! The cycle-accurate simulator: runs a [`Schedule`] cycle by cycle against the test-bench
//! memory model, following the timing contract of `docs/timing.md`.
//!
//! It interprets the schedule, not the emitted Verilog: its agreement with Verilator (outputs and
//! cycle count) is what shows that the RTL generator implements the schedule.

mod pipe;

use crate::memory::{MemConfig, PortMemory, PortOutputs, Request};
use crate::trace::Trace;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::emu::{self, Arg, MemState, RunError};
use kiln_dataflow::ir::op::{eval, mask};
use kiln_dataflow::ir::{Block, Mem, Op, OpKind, Target, Terminator, Value, ValueDef};
use kiln_scheduler::schedule::Entry;
use kiln_scheduler::{OpClass, Schedule};
use std::collections::{HashMap, VecDeque};

#[derive(Clone, Debug)]
pub struct SimConfig {
    pub mem: MemConfig,
    pub max_cycles: u64,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig { mem: MemConfig::default(), max_cycles: 10_000_000 }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimResult {
    /// The cycle in which `done` is high (the test bench asserts `start` in cycle 0).
    pub cycles: u64,
    pub buffers: Vec<Option<Vec<u64>>>,
    /// Cycles in which the kernel waited on a memory port.
    pub stall_cycles: u64,
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
    vals: SecondaryMap<Value, u64>,
    mems: SecondaryMap<Mem, MemState>,
    /// Port index (0-based, in parameter order) of each port memory.
    port_index: HashMap<Mem, u32>,
    ports: Vec<PortMemory>,
    port_mems: Vec<Mem>,
    /// The kernel's response buffers.
    resp_buf: Vec<VecDeque<u64>>,
    accepted: HashMap<Op, bool>,
    /// The pipelined loop being run, if any.
    pipe: Option<pipe::PipeRun>,
}

impl<'s> Sim<'s> {
    fn width(&self, v: Value) -> u32 {
        self.s.kernel.width(v)
    }

    fn eval_comb(&mut self, op: Op) {
        let k = &self.s.kernel;
        let o = &k.ops[op];
        let args: Vec<u64> = o.args.iter().map(|a| self.vals[*a]).collect();
        let aw: Vec<u32> = o.args.iter().map(|a| k.width(*a)).collect();
        if let Some(r) = o.result {
            self.vals[r] = eval(&o.kind, &args, &aw, k.width(r));
        }
    }

    /// Does `op`'s value in step `i` of its block depend on a response consumed in step `i`?
    fn depends_on_response(&self, op: Op, i: u32, memo: &mut HashMap<Op, bool>) -> bool {
        if let Some(v) = memo.get(&op) {
            return *v;
        }
        let k = &self.s.kernel;
        let o = &k.ops[op];
        let t = self.s.time[op];
        let r = match self.s.class(op) {
            OpClass::PortLoad(_) => t.end == i,
            OpClass::Comb if t.start == i => o.args.iter().any(|a| match k.values[*a].def {
                ValueDef::Op(p) if k.ops[p].block == o.block && self.s.time[p].end == i => {
                    self.depends_on_response(p, i, memo)
                }
                _ => false,
            }),
            _ => false,
        };
        memo.insert(op, r);
        r
    }

    /// Computes the combinational values of step `(b, i)` that do not depend on responses
    /// consumed in this step, so that requests can present their address and data.
    fn pre_evaluate(&mut self, b: Block, i: u32) {
        let ops: Vec<Op> = self.s.ops_at(b, i).collect();
        let mut memo = HashMap::new();
        for op in ops {
            if self.s.class(op) == OpClass::Comb
                && self.s.time[op].start == i
                && !self.depends_on_response(op, i, &mut memo)
            {
                self.eval_comb(op);
            }
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

    /// Whether a (possibly predicated) memory op is enabled, from current values.
    fn enabled(&self, op: Op) -> bool {
        self.s.kernel.ops[op].predicate().is_none_or(|p| self.vals[p] & 1 == 1)
    }

    fn request_of(&self, op: Op) -> Request {
        let o = &self.s.kernel.ops[op];
        let addr = self.vals[o.args[0]];
        let write = match o.kind {
            OpKind::Store(_) => Some(self.vals[o.args[1]]),
            _ => None,
        };
        Request { addr, write }
    }

    /// Executes the firing of step `(b, i)`. `outs` are this cycle's port outputs; returns the
    /// ports whose presented response was taken by bypass.
    fn fire(&mut self, b: Block, i: u32, outs: &[PortOutputs]) -> Result<Vec<bool>, RunError> {
        let mut bypassed = vec![false; self.ports.len()];
        let ops: Vec<Op> = self.s.ops_at(b, i).collect();
        for op in ops {
            let t = self.s.time[op];
            let o = &self.s.kernel.ops[op];
            let span = o.span;
            match self.s.class(op) {
                OpClass::Comb if t.start == i => self.eval_comb(op),
                OpClass::Unit(_) | OpClass::Multi(_) if t.start == i => self.eval_comb(op),
                OpClass::MemLoad(_) | OpClass::MemStore(_) | OpClass::PortLoad(_) if !self.enabled(op) => {
                    if let Some(r) = o.result
                        && t.end == i
                    {
                        self.vals[r] = 0;
                    }
                }
                OpClass::MemLoad(m) if t.start == i => {
                    let idx = self.vals[o.args[0]];
                    let v = emu::load(&self.s.kernel, &self.mems, m, idx, span)?;
                    if let Some(r) = o.result {
                        self.vals[r] = v;
                    }
                }
                OpClass::MemStore(m) if t.start == i => {
                    let idx = self.vals[o.args[0]];
                    let v = self.vals[o.args[1]];
                    emu::store(&self.s.kernel, &mut self.mems, m, idx, v, span)?;
                }
                OpClass::PortLoad(m) if t.end == i => {
                    let p = self.port_index[&m] as usize;
                    let v = match self.resp_buf[p].pop_front() {
                        Some(v) => v,
                        None => {
                            bypassed[p] = true;
                            outs[p].resp_rdata
                        }
                    };
                    if let Some(r) = o.result {
                        self.vals[r] = v & mask(self.width(r));
                    }
                }
                _ => {}
            }
        }
        Ok(bypassed)
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
                self.pipe = Some(pipe::PipeRun::new(n));
                State::Pipe(n)
            }
        }
    }
}

/// Simulates a scheduled kernel. `args` are in kernel parameter order.
pub fn simulate(
    s: &Schedule,
    args: &[Arg],
    cfg: &SimConfig,
    mut trace: Option<&mut Trace>,
) -> Result<SimResult, RunError> {
    let k = &s.kernel;
    let mut sim = Sim {
        s,
        vals: SecondaryMap::new(),
        mems: emu::init_memories(k, args),
        port_index: HashMap::new(),
        ports: vec![],
        port_mems: vec![],
        resp_buf: vec![],
        accepted: HashMap::new(),
        pipe: None,
    };
    for (i, (_, _, m)) in k.ports().enumerate() {
        sim.port_index.insert(m, i as u32);
        sim.ports.push(PortMemory::new(sim.mems[m].data.clone()));
        sim.port_mems.push(m);
        sim.resp_buf.push(VecDeque::new());
    }
    sim.constants();
    let mut state = State::Idle;
    let mut entered = true;
    let mut stall_cycles = 0;
    let mut cycle: u64 = 0;
    loop {
        if cycle >= cfg.max_cycles {
            return Err(RunError::StepLimit { kernel: k.name.to_string(), limit: cfg.max_cycles, what: "cycles" });
        }
        let outs: Vec<PortOutputs> =
            sim.ports.iter().enumerate().map(|(p, m)| m.outputs(&cfg.mem, p as u32, cycle)).collect();
        let mut accepted_now: Vec<Option<(Op, Request)>> = vec![None; sim.ports.len()];
        let mut bypassed = vec![false; sim.ports.len()];
        let mut valid = vec![false; sim.ports.len()];
        let mut next = state;
        let mut fired = false;
        match state {
            State::Idle => {
                if cycle == 0 {
                    for (i, _, v) in k.scalar_params() {
                        if let Some(Arg::Scalar(x)) = args.get(i) {
                            sim.vals[v] = x & mask(k.width(v));
                        }
                    }
                    next = State::Step(k.entry, 0);
                    if s.pipeline_of[k.entry].is_some() {
                        let incoming: Vec<u64> = k.blocks[k.entry].params.iter().map(|p| sim.vals[*p]).collect();
                        next = sim.enter(k.entry, incoming);
                    }
                }
            }
            State::Done => {
                if let Some(t) = trace.as_deref_mut() {
                    t.cycle(cycle, "DONE", &sim.vals, s, &valid, &outs);
                }
                let mut buffers = vec![None; k.params.len()];
                for (i, (pi, _, _)) in k.ports().enumerate() {
                    buffers[pi] = Some(sim.ports[i].data.clone());
                }
                return Ok(SimResult { cycles: cycle, buffers, stall_cycles });
            }
            State::Pipe(_) => {
                let pc = sim.pipe_cycle(&outs, &mut accepted_now, &mut valid)?;
                bypassed = pc.bypassed;
                if pc.stalled {
                    stall_cycles += 1;
                } else {
                    fired = true;
                }
                if let Some(n) = pc.next {
                    next = n;
                }
            }
            State::Step(b, i) => {
                if entered {
                    sim.pre_evaluate(b, i);
                }
                let ops: Vec<Op> = s.ops_at(b, i).collect();
                let mut ok = true;
                for &op in &ops {
                    let t = s.time[op];
                    match s.class(op) {
                        OpClass::PortLoad(m) | OpClass::PortStore(m) if t.start == i && sim.enabled(op) => {
                            let p = sim.port_index[&m] as usize;
                            if !sim.accepted.get(&op).copied().unwrap_or(false) {
                                valid[p] = true;
                                if outs[p].req_ready {
                                    accepted_now[p] = Some((op, sim.request_of(op)));
                                } else {
                                    ok = false;
                                }
                            }
                        }
                        _ => {}
                    }
                    if let OpClass::PortLoad(m) = s.class(op)
                        && t.end == i
                        && sim.enabled(op)
                    {
                        let p = sim.port_index[&m] as usize;
                        if sim.resp_buf[p].is_empty() && !outs[p].resp_valid {
                            ok = false;
                        }
                    }
                }
                if ok {
                    fired = true;
                    bypassed = sim.fire(b, i, &outs)?;
                    for &op in &ops {
                        sim.accepted.remove(&op);
                    }
                    next = if i + 1 < s.steps[b] { State::Step(b, i + 1) } else { sim.transition(b) };
                } else {
                    stall_cycles += 1;
                    for (op, _) in accepted_now.iter().flatten() {
                        sim.accepted.insert(*op, true);
                    }
                }
            }
        }
        if let Some(t) = trace.as_deref_mut() {
            let name = match state {
                State::Idle => "IDLE".to_string(),
                State::Step(b, i) => format!("{b}_{i}"),
                State::Pipe(n) => format!("P{n}"),
                State::Done => "DONE".to_string(),
            };
            t.cycle(cycle, &name, &sim.vals, s, &valid, &outs);
        }
        // The clock edge: memories take presented responses and accepted requests.
        for p in 0..sim.ports.len() {
            if outs[p].resp_valid && !bypassed[p] {
                sim.resp_buf[p].push_back(outs[p].resp_rdata);
            }
            let req = accepted_now[p].map(|(_, r)| r);
            if let Err(e) = sim.ports[p].clock(&cfg.mem, &outs[p], req, cycle) {
                let span = accepted_now[p].map(|(op, _)| k.ops[op].span).unwrap_or(k.span);
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
        entered = fired || next != state;
        state = next;
        cycle += 1;
    }
}
