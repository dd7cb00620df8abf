//! VCD waveforms of a simulation (`kiln sim --vcd`): per kernel the FSM state, `done`, each
//! port's handshake and every registered value, and for a system each FIFO's fill level, one
//! sample per cycle.

use crate::memory::PortOutputs;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::ir::Value;
use kiln_scheduler::Schedule;
use std::collections::HashMap;
use std::io::Write;
use vcd::{IdCode, TimescaleUnit};

/// The signals of one kernel in a trace.
struct KernelSignals {
    state_names: HashMap<String, u32>,
    state: IdCode,
    done: IdCode,
    ports: Vec<(IdCode, IdCode, IdCode)>,
    values: Vec<(Value, IdCode, u32)>,
}

/// A waveform being written: one scope per kernel (a single kernel, or each kernel of a
/// system) and, for a system, a `fifos` scope with each FIFO's fill level.
pub struct Trace {
    w: vcd::Writer<Box<dyn Write>>,
    kernels: Vec<KernelSignals>,
    fifos: Vec<(IdCode, u32)>,
    last: HashMap<IdCode, u64>,
    time: Option<u64>,
    failed: bool,
}

fn bits(v: u64, w: u32) -> Vec<vcd::Value> {
    (0..w).rev().map(|i| if (v >> i) & 1 == 1 { vcd::Value::V1 } else { vcd::Value::V0 }).collect()
}

/// Declares the signals of kernel `s` in a scope named `scope`.
fn kernel_signals(w: &mut vcd::Writer<Box<dyn Write>>, scope: &str, s: &Schedule) -> std::io::Result<KernelSignals> {
    let k = &s.kernel;
    w.add_module(scope)?;
    let state = w.add_wire(16, "state")?;
    let done = w.add_wire(1, "done")?;
    let mut state_names = HashMap::new();
    state_names.insert("IDLE".to_string(), 0);
    state_names.insert("DONE".to_string(), 1);
    let n = s.states().len() as u32;
    for (i, (b, st)) in s.states().into_iter().enumerate() {
        state_names.insert(format!("{b}_{st}"), i as u32 + 2);
    }
    for p in 0..s.pipelines.len() as u32 {
        state_names.insert(format!("P{p}"), n + 2 + p);
    }
    let mut ports = Vec::new();
    for (_, p, _) in k.ports() {
        ports.push((
            w.add_wire(1, &format!("{}_req_valid", p.name))?,
            w.add_wire(1, &format!("{}_req_ready", p.name))?,
            w.add_wire(1, &format!("{}_resp_valid", p.name))?,
        ));
    }
    let mut values = Vec::new();
    let mut regs: Vec<Value> = k.values.keys().filter(|v| s.registered[*v]).collect();
    regs.sort();
    for v in regs {
        let name = match &k.values[v].name {
            Some(n) => format!("{n}_{v}"),
            None => format!("{v}"),
        };
        let wd = k.width(v);
        values.push((v, w.add_wire(wd, &name)?, wd));
    }
    w.upscope()?;
    Ok(KernelSignals { state_names, state, done, ports, values })
}

/// Bits needed for numbers up to `n`.
fn width_for(n: u32) -> u32 {
    (32 - n.leading_zeros()).max(1)
}

impl Trace {
    /// A trace of one kernel.
    pub fn new(out: Box<dyn Write>, s: &Schedule) -> std::io::Result<Trace> {
        let name = s.kernel.name.to_string();
        Trace::for_system(out, &[(name.as_str(), s)], &[])
    }

    /// A trace of a system: `kernels` are (scope name, schedule) in launch order, `fifos`
    /// (name, depth) in FIFO order.
    pub fn for_system(
        out: Box<dyn Write>,
        kernels: &[(&str, &Schedule)],
        fifos: &[(String, u32)],
    ) -> std::io::Result<Trace> {
        let mut w = vcd::Writer::new(out);
        w.timescale(1, TimescaleUnit::NS)?;
        let mut scopes = Vec::new();
        for (scope, s) in kernels {
            scopes.push(kernel_signals(&mut w, scope, s)?);
        }
        let mut fifo_ids = Vec::new();
        if !fifos.is_empty() {
            w.add_module("fifos")?;
            for (name, depth) in fifos {
                let wd = width_for(*depth);
                let id = w.add_wire(wd, &format!("{}_fill", name.replace(['[', ']'], "_")))?;
                fifo_ids.push((id, wd));
            }
            w.upscope()?;
        }
        w.enddefinitions()?;
        Ok(Trace { w, kernels: scopes, fifos: fifo_ids, last: HashMap::new(), time: None, failed: false })
    }

    fn at(&mut self, cycle: u64) -> std::io::Result<()> {
        if self.time != Some(cycle) {
            self.time = Some(cycle);
            self.w.timestamp(cycle * 10)?;
        }
        Ok(())
    }

    fn change(&mut self, id: IdCode, v: u64, width: u32) -> std::io::Result<()> {
        if self.last.get(&id) == Some(&v) {
            return Ok(());
        }
        self.last.insert(id, v);
        if width == 1 {
            self.w.change_scalar(id, if v & 1 == 1 { vcd::Value::V1 } else { vcd::Value::V0 })
        } else {
            self.w.change_vector(id, bits(v, width))
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn try_cycle(
        &mut self,
        kernel: usize,
        cycle: u64,
        state: &str,
        vals: &SecondaryMap<Value, u64>,
        valid: &[bool],
        outs: &[PortOutputs],
    ) -> std::io::Result<()> {
        self.at(cycle)?;
        let Some(k) = self.kernels.get(kernel) else { return Ok(()) };
        let si = k.state_names.get(state).copied().unwrap_or(0) as u64;
        let (state_id, done_id, ports, values) = (k.state, k.done, k.ports.clone(), k.values.clone());
        self.change(state_id, si, 16)?;
        self.change(done_id, (state == "DONE") as u64, 1)?;
        for (i, (v, r, rv)) in ports.into_iter().enumerate() {
            self.change(v, valid.get(i).copied().unwrap_or(false) as u64, 1)?;
            self.change(r, outs.get(i).is_some_and(|o| o.req_ready) as u64, 1)?;
            self.change(rv, outs.get(i).is_some_and(|o| o.resp_valid) as u64, 1)?;
        }
        for (v, id, w) in values {
            self.change(id, vals[v], w)?;
        }
        Ok(())
    }

    /// Records the signals of kernel `kernel` (its launch index; 0 for a single kernel) in
    /// one cycle. Write errors are remembered, not raised mid-run.
    #[allow(clippy::too_many_arguments)]
    pub fn cycle(
        &mut self,
        kernel: usize,
        cycle: u64,
        state: &str,
        vals: &SecondaryMap<Value, u64>,
        valid: &[bool],
        outs: &[PortOutputs],
    ) {
        if !self.failed && self.try_cycle(kernel, cycle, state, vals, valid, outs).is_err() {
            self.failed = true;
        }
    }

    /// Records each FIFO's fill level at the start of a cycle.
    pub fn fifo_levels(&mut self, cycle: u64, levels: &[usize]) {
        let ids = self.fifos.clone();
        let r = self
            .at(cycle)
            .and_then(|()| ids.iter().zip(levels).try_for_each(|((id, w), n)| self.change(*id, *n as u64, *w)));
        self.failed |= r.is_err();
    }

    /// Whether writing the trace failed at some point.
    pub fn failed(&self) -> bool {
        self.failed
    }
}
