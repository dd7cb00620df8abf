//! VCD waveforms of a simulation (`kiln sim --vcd`): the FSM state, `done`, each port's
//! handshake and every registered value, one sample per cycle.

use crate::memory::PortOutputs;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::ir::Value;
use kiln_scheduler::Schedule;
use std::collections::HashMap;
use std::io::Write;
use vcd::{IdCode, TimescaleUnit};

pub struct Trace {
    w: vcd::Writer<Box<dyn Write>>,
    state_names: HashMap<String, u32>,
    state: IdCode,
    done: IdCode,
    ports: Vec<(IdCode, IdCode, IdCode)>,
    values: Vec<(Value, IdCode, u32)>,
    last: HashMap<IdCode, u64>,
    failed: bool,
}

fn bits(v: u64, w: u32) -> Vec<vcd::Value> {
    (0..w).rev().map(|i| if (v >> i) & 1 == 1 { vcd::Value::V1 } else { vcd::Value::V0 }).collect()
}

impl Trace {
    pub fn new(out: Box<dyn Write>, s: &Schedule) -> std::io::Result<Trace> {
        let k = &s.kernel;
        let mut w = vcd::Writer::new(out);
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module(&k.name)?;
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
        w.enddefinitions()?;
        Ok(Trace { w, state_names, state, done, ports, values, last: HashMap::new(), failed: false })
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

    fn try_cycle(
        &mut self,
        cycle: u64,
        state: &str,
        vals: &SecondaryMap<Value, u64>,
        valid: &[bool],
        outs: &[PortOutputs],
    ) -> std::io::Result<()> {
        self.w.timestamp(cycle * 10)?;
        let si = self.state_names.get(state).copied().unwrap_or(0) as u64;
        self.change(self.state, si, 16)?;
        self.change(self.done, (state == "DONE") as u64, 1)?;
        for (i, (v, r, rv)) in self.ports.clone().into_iter().enumerate() {
            self.change(v, valid.get(i).copied().unwrap_or(false) as u64, 1)?;
            self.change(r, outs.get(i).is_some_and(|o| o.req_ready) as u64, 1)?;
            self.change(rv, outs.get(i).is_some_and(|o| o.resp_valid) as u64, 1)?;
        }
        for (v, id, w) in self.values.clone() {
            self.change(id, vals[v], w)?;
        }
        Ok(())
    }

    /// Records the signals of one cycle. Write errors are remembered, not raised mid-run.
    pub fn cycle(
        &mut self,
        cycle: u64,
        state: &str,
        vals: &SecondaryMap<Value, u64>,
        _s: &Schedule,
        valid: &[bool],
        outs: &[PortOutputs],
    ) {
        if !self.failed && self.try_cycle(cycle, state, vals, valid, outs).is_err() {
            self.failed = true;
        }
    }

    /// Whether writing the trace failed at some point.
    pub fn failed(&self) -> bool {
        self.failed
    }
}
