//! Systems: kernels started together in cycle 0 and connected by FIFOs, following the FIFO
//! contract of docs/timing.md §9 (a packet written in cycle `t` can be read from cycle `t + 1`;
//! `valid` and `ready` come from the fill level at the start of the cycle).
//!
//! When nothing moves for a number of cycles while every unfinished kernel waits on a pipe, the
//! run stops with [`RunError::Deadlock`], naming who waits where and how full each FIFO is.

use super::{KernelRun, PipeSignal, SimConfig, SimResult};
use crate::trace::Trace;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::emu::{Arg, Blocked, FifoSpec, RunError};
use kiln_dataflow::ir::{Op, OpKind, Pipe, PipeEnd};
use kiln_scheduler::Schedule;
use std::collections::VecDeque;

/// Cycles without a pipe transfer or a finishing kernel, while every unfinished kernel waits
/// on a pipe, after which a run is reported as a deadlock (`--deadlock-cycles`).
pub const DEFAULT_DEADLOCK_CYCLES: u64 = kiln_dataflow::emu::DEFAULT_DEADLOCK_WINDOW;

/// One kernel of a system: its arguments and the FIFO of each of its pipes (`None`:
/// unconnected, its FIFO is never valid nor ready).
pub struct SystemKernel<'s> {
    pub schedule: &'s Schedule,
    pub args: Vec<Arg>,
    pub fifo_of: SecondaryMap<Pipe, Option<u32>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemResult {
    /// The cycle in which the last kernel's `done` is high (the system's `done`).
    pub cycles: u64,
    /// Per kernel, in launch order; `cycles` is the kernel's own `done` cycle.
    pub kernels: Vec<SimResult>,
}

/// Simulates the kernels of a system side by side; memory ports are numbered across kernels in
/// launch order (for the stall pattern).
/// With `trace`, every kernel's signals (in the scope of its launch index) and every FIFO's
/// fill level are recorded each cycle, up to the cycle the run stops in.
pub fn simulate_system(
    kernels: &[SystemKernel],
    fifos: &[FifoSpec],
    cfg: &SimConfig,
    mut trace: Option<&mut Trace>,
) -> Result<SystemResult, RunError> {
    let mut runs = Vec::with_capacity(kernels.len());
    let mut port_base = 0;
    for (i, k) in kernels.iter().enumerate() {
        let mut run = KernelRun::new(k.schedule, &k.args, port_base);
        run.trace_scope = i;
        port_base += run.port_count();
        runs.push(run);
    }
    let mut queues: Vec<VecDeque<Vec<u64>>> = vec![VecDeque::new(); fifos.len()];
    let mut results: Vec<Option<SimResult>> = vec![None; kernels.len()];
    // Per kernel: the blocking transfer holding it now, and the last failed poll of the
    // current quiet stretch.
    let mut held: Vec<Option<Op>> = vec![None; kernels.len()];
    let mut polled: Vec<Option<Op>> = vec![None; kernels.len()];
    let mut quiet: u64 = 0;
    let mut cycle: u64 = 0;
    loop {
        if cycle >= cfg.max_cycles {
            let names: Vec<&str> = kernels
                .iter()
                .zip(&results)
                .filter(|(_, r)| r.is_none())
                .map(|(k, _)| &*k.schedule.kernel.name)
                .collect();
            return Err(RunError::StepLimit { kernel: names.join("`, `"), limit: cfg.max_cycles, what: "cycles" });
        }
        for (i, run) in runs.iter_mut().enumerate() {
            if results[i].is_some() {
                continue;
            }
            let k = &kernels[i];
            for (pipe, d) in k.schedule.kernel.pipes.iter() {
                let signal = match k.fifo_of[pipe] {
                    Some(f) => {
                        let q = &queues[f as usize];
                        let depth = fifos[f as usize].depth;
                        let fill = q.len() as u32;
                        match d.end {
                            PipeEnd::Read => {
                                PipeSignal { can: fill > 0, head: q.front().cloned().unwrap_or_default(), fill, depth }
                            }
                            PipeEnd::Write => PipeSignal { can: fill < depth, head: vec![], fill, depth },
                        }
                    }
                    None => PipeSignal::default(),
                };
                run.set_pipe(pipe, signal);
            }
        }
        if let Some(t) = trace.as_deref_mut() {
            let levels: Vec<usize> = queues.iter().map(VecDeque::len).collect();
            t.fifo_levels(cycle, &levels);
        }
        let mut moved = false;
        let mut pops = vec![0usize; fifos.len()];
        let mut pushes: Vec<(usize, Vec<u64>)> = Vec::new();
        for (i, run) in runs.iter_mut().enumerate() {
            if results[i].is_some() {
                continue;
            }
            if let Some(r) = run.tick(&cfg.mem, cycle, trace.as_deref_mut())? {
                results[i] = Some(r);
                held[i] = None;
                moved = true;
                continue;
            }
            let act = run.pipe_activity();
            let fifo_of = &kernels[i].fifo_of;
            for p in &act.taken {
                if let Some(f) = fifo_of[*p] {
                    pops[f as usize] += 1;
                }
            }
            for (p, lanes) in &act.put {
                if let Some(f) = fifo_of[*p] {
                    pushes.push((f as usize, lanes.clone()));
                }
            }
            held[i] = act.held_by;
            if act.failed_poll.is_some() {
                polled[i] = act.failed_poll;
            }
        }
        // The clock edge: reads free their slots and writes fill new ones at the same edge.
        for (f, n) in pops.iter().enumerate() {
            for _ in 0..*n {
                queues[f].pop_front();
                moved = true;
            }
        }
        for (f, lanes) in pushes {
            queues[f].push_back(lanes);
            moved = true;
        }
        if results.iter().all(|r| r.is_some()) {
            let kernels: Vec<SimResult> = results.into_iter().flatten().collect();
            return Ok(SystemResult { cycles: cycle, kernels });
        }
        if moved {
            quiet = 0;
            polled.iter_mut().for_each(|p| *p = None);
        } else {
            quiet += 1;
        }
        let all_wait = (0..kernels.len()).all(|i| results[i].is_some() || held[i].is_some() || polled[i].is_some());
        if quiet >= cfg.deadlock_cycles && all_wait {
            let blocked = (0..kernels.len())
                .filter(|i| results[*i].is_none())
                .filter_map(|i| {
                    let (op, polling) = match (held[i], polled[i]) {
                        (Some(op), _) => (op, false),
                        (None, Some(op)) => (op, true),
                        (None, None) => return None,
                    };
                    let k = &kernels[i].schedule.kernel;
                    let o = &k.ops[op];
                    Some(Blocked {
                        kernel: k.name.to_string(),
                        pipe: o.kind.pipe().map(|p| k.pipes[p].name.to_string()).unwrap_or_default(),
                        reading: matches!(o.kind, OpKind::PipeRead { .. }),
                        polling,
                        span: o.span,
                    })
                })
                .collect();
            let fills = fifos.iter().zip(&queues).map(|(f, q)| (f.name.clone(), q.len(), f.depth)).collect();
            return Err(RunError::Deadlock {
                blocked,
                fifos: fills,
                after: format!("{} cycles ({quiet} without a transfer)", cycle + 1),
            });
        }
        cycle += 1;
    }
}
