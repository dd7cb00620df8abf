//! Simulation of pipelined loops (docs/timing.md, "Pipelined loops").
//!
//! The simulator keeps every iteration in flight as its own set of values, which is what the
//! RTL's shift-register chains implement. Each cycle in which nothing stalls, every iteration
//! runs the operations of its current relative cycle; the loop-test decision of the iteration in
//! stage 0 is taken in the last cycle of its first `II` cycles.

use super::tables::{Active, Args, NO_SLOT, Plan, Ref};
use super::{Sim, State};
use crate::memory::Word;
use crate::memory::{PortOutputs, Request};
use kiln_dataflow::emu::{self, RunError};
use kiln_dataflow::ir::op::eval;
use kiln_dataflow::ir::{Op, OpKind, Value};
use kiln_scheduler::OpClass;
use kiln_scheduler::pipeline::shape::Shape;
use kiln_scheduler::pipeline::{ExitSource, Pipeline};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::rc::Rc;

/// One iteration in flight.
struct Iter {
    /// Pipeline time of the iteration's cycle 0.
    start: u64,
    /// The values the iteration owns, by their slot in the loop's [`Plan`].
    vals: Vec<u64>,
    /// The words the iteration's `WordLoad`s read, for their lanes.
    words: HashMap<Op, Word>,
    /// Cycles the iteration occupies (shortened for an exiting test-first iteration).
    life: u64,
}

/// The state of the pipelined loop being run.
pub(crate) struct PipeRun {
    index: u32,
    /// Pipeline time: cycles in which the pipeline advanced.
    tau: u64,
    iters: Vec<Iter>,
    /// Value vectors of retired iterations, reused for new ones.
    spare: Vec<Vec<u64>>,
    launching: bool,
    captured: HashMap<Value, u64>,
    started: bool,
    /// The pipeline time whose early values are computed: a stalled cycle keeps its time, and
    /// without pipe transfers nothing its early values read changes while it stalls.
    early_done: Option<u64>,
    plan: Rc<Plan>,
}

impl PipeRun {
    pub(crate) fn new(index: u32, plan: Rc<Plan>) -> PipeRun {
        PipeRun {
            index,
            tau: 0,
            iters: Vec::new(),
            spare: Vec::new(),
            launching: true,
            captured: HashMap::new(),
            started: false,
            early_done: None,
            plan,
        }
    }

    fn launch(&mut self, start: u64, life: u64) {
        let mut vals = self.spare.pop().unwrap_or_default();
        vals.clear();
        vals.resize(self.plan.slot_count, 0);
        self.iters.push(Iter { start, vals, words: HashMap::new(), life });
    }

    fn retire(&mut self, now: u64) {
        let mut i = 0;
        while i < self.iters.len() {
            if now - self.iters[i].start < self.iters[i].life {
                i += 1;
            } else {
                let it = self.iters.remove(i);
                self.spare.push(it.vals);
            }
        }
    }
}

/// What one cycle of the pipeline did.
pub(crate) struct PipeCycle {
    pub stalled: bool,
    pub next: Option<State>,
}

/// A cycle's stores to on-chip memories (memory, element, value, span), done at the clock edge.
type MemWrites = SmallVec<[(kiln_dataflow::ir::Mem, u64, u64, kiln_diagnostics::Span); 4]>;
/// A cycle's writes of loop-carried registers.
type ParamWrites = SmallVec<[(Value, u64); 4]>;

impl Sim<'_> {
    /// The value of `v` as iteration `it` sees it.
    #[inline]
    fn value_in(&self, plan: &Plan, it: &Iter, v: Value) -> u64 {
        match plan.slot(v) {
            NO_SLOT => self.vals[v],
            slot => it.vals[slot as usize],
        }
    }

    /// Whether a memory op or transfer of iteration `it` is enabled: its predicate and, for
    /// the body of a test-first loop, the iteration's loop test.
    fn enabled_in(&self, p: &Pipeline, plan: &Plan, it: &Iter, a: &Active) -> bool {
        let pred = a.pred.is_none_or(|pv| self.read(it, pv) & 1 == 1);
        pred && (!a.guarded || p.continues(self.value_in(plan, it, p.shape.cond)))
    }

    /// Operand `r` as iteration `it` sees it.
    #[inline]
    fn read(&self, it: &Iter, r: Ref) -> u64 {
        match r {
            Ref::Iter(slot) => it.vals[slot as usize],
            Ref::Shared(v) => self.vals[v],
        }
    }

    /// The operand values of `a` in iteration `it`.
    #[inline]
    fn args_in(&self, plan: &Plan, it: &Iter, a: &Active) -> Args {
        let refs = plan.args(a);
        Args::gather(refs.len(), |i| match refs[i] {
            Ref::Iter(slot) => it.vals[slot as usize],
            Ref::Shared(v) => self.vals[v],
        })
    }

    #[inline]
    fn eval_in(&self, plan: &Plan, it: &Iter, a: &Active) -> u64 {
        let get = |r: Ref| match r {
            Ref::Iter(slot) => it.vals[slot as usize],
            Ref::Shared(v) => self.vals[v],
        };
        if let Some(v) = a.micro.eval(a.mask, get) {
            return v;
        }
        let k = &self.s.kernel;
        let op = a.op;
        let o = &k.ops[op];
        let args = self.args_in(plan, it, a);
        if a.plain {
            let info = self.tables.info(op);
            return eval(&o.kind, &args, &info.arg_widths, info.width);
        }
        if let OpKind::PipeLane { pipe, lane } = o.kind {
            let read = k.def_op(o.args[0]);
            return match read.and_then(|r| self.transferred.get(&r)) {
                Some((_, lanes)) if args[0] & 1 == 1 => lanes.get(lane as usize).copied().unwrap_or(0),
                Some(_) => 0,
                None => self.lane_of(pipe, lane, args[0]),
            };
        }
        if let Some(v) = super::word_lane(k, op, &args, |load| it.words.get(&load)) {
            return v;
        }
        let info = self.tables.info(op);
        eval(&o.kind, &args, &info.arg_widths, info.width)
    }

    /// Runs the operations of every iteration in flight for the current cycle. With `commit`,
    /// responses are taken and the writes to memories and loop registers are returned for the
    /// clock edge; without, the cycle's values are only computed (for the data of transfers that
    /// happen while the pipeline stalls).
    #[allow(clippy::too_many_arguments)]
    fn run_ops(
        &mut self,
        run: &mut PipeRun,
        p: &Pipeline,
        tau: u64,
        outs: &[PortOutputs],
        commit: bool,
        bypassed: &mut [bool],
        mem_writes: &mut MemWrites,
        param_writes: &mut ParamWrites,
    ) -> Result<(), RunError> {
        let s = self.s;
        let k = &s.kernel;
        // Responses taken per port (when only evaluating, they stay in the buffer).
        let mut peeked: SmallVec<[usize; 8]> = SmallVec::from_elem(0, self.ports.len());
        mem_writes.clear();
        param_writes.clear();
        let mut loaded: SmallVec<[(kiln_dataflow::ir::Mem, u64); 4]> = SmallVec::new();
        let plan = run.plan.clone();
        for idx in 0..run.iters.len() {
            let r = (tau - run.iters[idx].start) as u32;
            for a in &plan.at(r).commit {
                let op = a.op;
                let it = &run.iters[idx];
                let enabled = !a.gated || self.enabled_in(p, &plan, it, a);
                let result = match a.class {
                    OpClass::Comb | OpClass::Unit(_) | OpClass::Multi(_) if a.plain => Some(self.eval_in(&plan, it, a)),
                    OpClass::PipeTransfer(_) => Some(match self.transferred.get(&op) {
                        Some((v, _)) => *v,
                        None => self.transfer_value(op),
                    }),
                    OpClass::Comb if matches!(k.ops[op].kind, OpKind::Print(_)) => {
                        if commit && self.enabled_in(p, &plan, it, a) {
                            let args = self.args_in(&plan, it, a);
                            if let OpKind::Print(format) = &k.ops[op].kind {
                                self.printed.push((self.now, format.render(&args)));
                            }
                        }
                        None
                    }
                    OpClass::Comb | OpClass::Unit(_) | OpClass::Multi(_) => Some(self.eval_in(&plan, it, a)),
                    OpClass::PortLoad(m) if !a.starts => {
                        if enabled {
                            let pi = self.port_index[m] as usize;
                            let buffered = if commit {
                                self.resp_buf[pi].pop_front()
                            } else {
                                peeked[pi] += 1;
                                self.resp_buf[pi].get(peeked[pi] - 1).cloned()
                            };
                            let word = match buffered {
                                Some(w) => w,
                                None => {
                                    bypassed[pi] |= commit;
                                    outs[pi].resp_rdata.clone()
                                }
                            };
                            Some(super::response_value(k, op, word, &mut run.iters[idx].words))
                        } else {
                            Some(0)
                        }
                    }
                    OpClass::MemLoad(m) => {
                        if enabled {
                            let idxv = self.read(it, plan.args(a)[0]);
                            let span = k.ops[op].span;
                            if commit {
                                loaded.push((m, idxv));
                                super::check_no_collision(k, &self.landing, m, idxv, span)?;
                            }
                            Some(emu::load(k, &self.mems, m, idxv, span)?)
                        } else {
                            Some(0)
                        }
                    }
                    OpClass::MemStore(m) => {
                        if enabled && commit {
                            let refs = plan.args(a);
                            let (i, v) = (self.read(it, refs[0]), self.read(it, refs[1]));
                            mem_writes.push((m, i, v, k.ops[op].span));
                        }
                        None
                    }
                    _ => None,
                };
                if let Some(v) = result
                    && a.res != NO_SLOT
                {
                    run.iters[idx].vals[a.res as usize] = v & a.mask;
                }
            }
            let it = &run.iters[idx];
            let writes = &plan.at(r).param_writes;
            if commit && !writes.is_empty() {
                let body_runs = p.shape.shape == Shape::TestLast || p.continues(self.value_in(&plan, it, p.shape.cond));
                if body_runs {
                    for &(param, arg) in writes {
                        let v = match arg {
                            Ref::Iter(slot) => it.vals[slot as usize],
                            Ref::Shared(v) => self.vals[v],
                        };
                        param_writes.push((param, v));
                    }
                }
            }
        }
        for (m, i, _, span) in mem_writes.iter() {
            super::check_no_collision(k, &loaded, *m, *i, *span)?;
        }
        Ok(())
    }

    /// One clock cycle of the running pipeline.
    pub(crate) fn pipe_cycle(
        &mut self,
        outs: &[PortOutputs],
        accepted_now: &mut [Option<(Op, Request)>],
        valid: &mut [bool],
        bypassed: &mut [bool],
    ) -> Result<PipeCycle, RunError> {
        let Some(mut run) = self.pipe.take() else {
            return Ok(PipeCycle { stalled: false, next: Some(State::Done) });
        };
        let s = self.s;
        let p = s.pipeline(run.index);
        let plan = run.plan.clone();
        let tables = self.tables.clone();
        let ii = p.ii as u64;
        let k = &s.kernel;
        if !run.started {
            run.started = true;
            run.launch(0, p.stages as u64 * ii);
        }
        let tau = run.tau;
        // 1. Combinational values that do not wait for this cycle's responses, and parameter
        //    reads, so that requests present stable addresses and data (once per pipeline
        //    time, unless a transfer of the cycle may have changed what they read).
        let recompute = plan.has_transfers || run.early_done != Some(tau);
        run.early_done = Some(tau);
        for idx in (0..run.iters.len()).filter(|_| recompute) {
            let r = (tau - run.iters[idx].start) as u32;
            let cycle = plan.at(r);
            for &(slot, param) in &cycle.param_reads {
                run.iters[idx].vals[slot as usize] = self.vals[param];
            }
            for a in &cycle.early {
                let v = self.eval_in(&plan, &run.iters[idx], a);
                if a.res != NO_SLOT {
                    run.iters[idx].vals[a.res as usize] = v & a.mask;
                }
            }
        }
        // 2. Requests and responses: does the pipeline advance this cycle?
        let mut stalled = false;
        let mut transfers: Vec<(u32, usize, Op)> = Vec::new();
        for (idx, it) in run.iters.iter().enumerate() {
            let r = (tau - it.start) as u32;
            for a in &plan.at(r).requests {
                let op = a.op;
                let info = tables.info(op);
                let t = info.time;
                match info.class {
                    OpClass::PortLoad(m) | OpClass::PortStore(m)
                        if t.start == r && self.enabled_in(p, &plan, it, a) =>
                    {
                        let pi = self.port_index[m] as usize;
                        if !self.accepted[op] {
                            valid[pi] = true;
                            if outs[pi].req_ready {
                                let args = self.args_in(&plan, it, a);
                                accepted_now[pi] = Some((op, super::request(k, op, &args)));
                            } else {
                                stalled = true;
                            }
                        }
                    }
                    OpClass::PipeTransfer(_) if t.start == r && self.enabled_in(p, &plan, it, a) => {
                        transfers.push((r, idx, op));
                    }
                    _ => {}
                }
                if let OpClass::PortLoad(m) = info.class
                    && t.end == r
                    && self.enabled_in(p, &plan, it, a)
                {
                    let pi = self.port_index[m] as usize;
                    if self.resp_buf[pi].is_empty() && !outs[pi].resp_valid {
                        stalled = true;
                    }
                }
            }
        }
        // Pipe transfers happen in program order: oldest iteration (latest relative cycle) first.
        // Each happens as soon as the memory side of the cycle is satisfied and every earlier
        // one has happened, even if the pipeline then stalls (docs/timing.md §9).
        transfers.sort_by_key(|t| std::cmp::Reverse(t.0));
        let mut in_order = !stalled;
        if in_order && !transfers.is_empty() {
            let mut unused = vec![false; self.ports.len()];
            let (mut m, mut w) = (MemWrites::new(), ParamWrites::new());
            self.run_ops(&mut run, p, tau, outs, false, &mut unused, &mut m, &mut w)?;
        }
        for (_, idx, op) in transfers {
            if self.transferred.contains_key(&op) {
                continue;
            }
            if in_order && !self.transfer_waits(op) {
                let o = &k.ops[op];
                let it = &run.iters[idx];
                let lanes: Vec<u64> = match o.kind {
                    OpKind::PipeWrite { .. } => o.args.iter().map(|a| self.value_in(&plan, it, *a)).collect(),
                    _ => vec![],
                };
                let head = o.kind.pipe().map(|x| self.pipe_in[x].head.clone()).unwrap_or_default();
                let v = self.transfer(op, true, lanes);
                self.transferred.insert(op, (v, head));
            } else {
                if in_order {
                    self.pipe_out.held_by = Some(op);
                }
                in_order = false;
                stalled = true;
            }
        }
        if stalled {
            for (op, _) in accepted_now.iter().flatten() {
                self.accepted[*op] = true;
            }
            self.pipe = Some(run);
            return Ok(PipeCycle { stalled: true, next: None });
        }
        // 3. The pipeline advances: every iteration runs its operations of this cycle.
        for it in &run.iters {
            for a in &plan.at((tau - it.start) as u32).requests {
                self.accepted[a.op] = false;
            }
        }
        let (mut mem_writes, mut param_writes) = (MemWrites::new(), ParamWrites::new());
        self.run_ops(&mut run, p, tau, outs, true, bypassed, &mut mem_writes, &mut param_writes)?;
        for &(m, i, v, span) in &mem_writes {
            emu::store(k, &mut self.mems, m, i, v, span)?;
            self.note_store(m, i);
        }
        for &(param, v) in &param_writes {
            self.vals[param] = v;
        }
        self.transferred.clear();
        // 4. The loop-test decision of the iteration in stage 0.
        let mut launch = None;
        if tau % ii == ii - 1
            && let Some(idx) = run.iters.iter().position(|it| tau - it.start == ii - 1)
        {
            let it = &run.iters[idx];
            let cont = run.launching && p.continues(self.value_in(&plan, it, p.shape.cond));
            if cont {
                launch = Some(tau + 1);
            } else {
                run.launching = false;
                for (v, src) in &p.exits {
                    if let ExitSource::Capture(x) = src {
                        let val = self.value_in(&plan, it, *x);
                        run.captured.insert(*v, val);
                    }
                }
                if p.shape.shape == Shape::TestFirst {
                    run.iters[idx].life = ii;
                }
            }
        }
        run.tau += 1;
        let now = run.tau;
        run.retire(now);
        if let Some(start) = launch {
            run.launch(start, p.stages as u64 * ii);
        }
        if !run.iters.is_empty() {
            self.pipe = Some(run);
            return Ok(PipeCycle { stalled: false, next: None });
        }
        // 5. Drained: hand the loop's results to the code after it.
        let source = |sim: &Sim, v: Value| -> u64 {
            match p.source_of(v) {
                ExitSource::Invariant(x) => sim.vals[x],
                ExitSource::ParamReg(q) => sim.vals[q],
                ExitSource::Capture(_) => run.captured.get(&v).copied().unwrap_or(0),
            }
        };
        let live: Vec<(Value, u64)> = p.exits.iter().map(|(v, _)| (*v, source(self, *v))).collect();
        let incoming: Vec<u64> = p.shape.exit.args.iter().map(|a| source(self, *a)).collect();
        for (v, x) in live {
            self.vals[v] = x;
        }
        let next = self.enter(p.shape.exit.block, incoming);
        Ok(PipeCycle { stalled: false, next: Some(next) })
    }
}
