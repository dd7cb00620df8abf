//! The schedule verifier (run after scheduling in tests and debug builds).
//!
//! Checks, per block: every non-constant op has a class and `start <= end < steps`; operands end
//! no later than their user starts; port requests are at most one per port per step and in
//! program order, with responses consumed in order after their requests; on-chip memories have
//! at most one read and one write per step and respect read/write order; divider operations do
//! not overlap on a unit; multiplies that register their operands are split multiplies with a
//! cycle for it.

use crate::schedule::*;
use kiln_dataflow::ir::{BinOp, Mem, OpKind, ValueDef};
use std::collections::{HashMap, HashSet};

pub fn verify_schedule(s: &Schedule) -> Result<(), Vec<String>> {
    let k = &s.kernel;
    let mut errs = Vec::new();
    // A lane of a word is read from the response, in the cycle its load consumes it; and a
    // port of several lanes is only reached by word operations.
    for b in k.rpo() {
        for &op in &k.blocks[b].ops {
            let o = &k.ops[op];
            match o.kind {
                OpKind::WordLane { .. } | OpKind::WordLaneAt(_) => {
                    let load = o.args.first().and_then(|a| k.def_op(*a));
                    if load.is_none_or(|l| s.time[l].end != s.time[op].start) {
                        errs.push(format!("lane {op} is not read in the cycle its word's response is consumed"));
                    }
                }
                OpKind::Load(m) | OpKind::Store(m) if k.mems[m].lanes > 1 => {
                    errs.push(format!("{op} accesses the port of words {m} element by element"));
                }
                // The RTL takes a variable shift count modulo the width by its low bits.
                OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr)
                    if !k.width(o.args[0]).is_power_of_two() && k.as_const(o.args[1]).is_none() =>
                {
                    errs.push(format!("{op} shifts a {}-bit value by a variable count", k.width(o.args[0])));
                }
                _ => {}
            }
        }
    }
    // rtl-gen registers these operands in the first of the multiply's cycles, then builds
    // the split multiply of two cycles or more in the rest.
    for &op in &s.registered_operands {
        if !s.timing.splits_multiply(k, op) || !matches!(s.class(op), OpClass::Multi(n) if n >= 3) {
            errs.push(format!("{op} registers its operands but is no split multiply of three cycles or more"));
        }
    }
    for b in k.rpo() {
        if s.pipeline_of[b].is_some() {
            continue;
        }
        let steps = s.steps[b];
        let mut port_req: HashSet<(Mem, u32)> = HashSet::new();
        let mut mem_rd: HashSet<(Mem, u32)> = HashSet::new();
        let mut mem_wr: HashSet<(Mem, u32)> = HashSet::new();
        let mut last_req: HashMap<Mem, u32> = HashMap::new();
        let mut last_consume: HashMap<Mem, u32> = HashMap::new();
        let mut unit_busy: HashMap<UnitId, u32> = HashMap::new();
        for &op in &k.blocks[b].ops {
            let Some(class) = s.class[op] else {
                errs.push(format!("{op} has no class"));
                continue;
            };
            if class == OpClass::Constant {
                continue;
            }
            let t = s.time[op];
            if t.start > t.end || t.end >= steps {
                errs.push(format!("{op} in {b}: steps {}..{} outside 0..{steps}", t.start, t.end));
            }
            for a in &k.ops[op].args {
                if let ValueDef::Op(p) = k.values[*a].def
                    && k.ops[p].block == b
                    && s.class[p] != Some(OpClass::Constant)
                    && s.time[p].end > t.start
                {
                    errs.push(format!("{op} starts at {} before its operand {p} ends at {}", t.start, s.time[p].end));
                }
            }
            match class {
                OpClass::PortLoad(m) | OpClass::PortStore(m) => {
                    if !port_req.insert((m, t.start)) {
                        errs.push(format!("two requests on port {m} in step {} of {b}", t.start));
                    }
                    if last_req.get(&m).is_some_and(|r| *r >= t.start) {
                        errs.push(format!("request {op} on {m} out of program order"));
                    }
                    last_req.insert(m, t.start);
                    if let OpClass::PortLoad(_) = class {
                        if t.end <= t.start || last_consume.get(&m).is_some_and(|c| *c >= t.end) {
                            errs.push(format!("response of {op} on {m} consumed out of order"));
                        }
                        last_consume.insert(m, t.end);
                    }
                }
                OpClass::MemLoad(m)
                    if (!mem_rd.insert((m, t.start))
                        || t.end != t.start + s.timing.memory_read_timing(&k.mems[m], 1000.0 / s.clock_mhz).0) =>
                {
                    errs.push(format!("bad on-chip read {op} on {m}"));
                }
                OpClass::MemStore(m) if !mem_wr.insert((m, t.start)) => {
                    errs.push(format!("two writes to {m} in step {}", t.start));
                }
                // A registered write lands at the end of the step after the store.
                OpClass::MemStore(m) if t.end != t.start + u32::from(s.registers_writes(m)) => {
                    errs.push(format!("write {op} to {m} ends at {} for its start {}", t.end, t.start));
                }
                OpClass::Unit(u) => {
                    if unit_busy.get(&u).is_some_and(|f| *f > t.start) {
                        errs.push(format!("{op} starts on busy unit {}", u.0));
                    }
                    unit_busy.insert(u, t.end);
                }
                _ => {}
            }
        }
    }
    for b in k.rpo().into_iter().filter(|b| s.pipeline_of[*b].is_none()) {
        verify_landing_writes(s, b, &mut errs);
    }
    for (pi, p) in s.pipelines.iter().enumerate() {
        verify_pipeline(s, pi, p, &mut errs);
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// In FSM block `b`, no read of a memory whose writes pass registers (`Schedule::registers_writes`)
/// comes in the step after a store to it that precedes it in program order: the write lands
/// at the end of that step.
fn verify_landing_writes(s: &Schedule, b: kiln_dataflow::ir::Block, errs: &mut Vec<String>) {
    let k = &s.kernel;
    let mut stores: HashMap<Mem, Vec<u32>> = HashMap::new();
    for &op in &k.blocks[b].ops {
        match s.class[op] {
            Some(OpClass::MemStore(m)) if s.registers_writes(m) => stores.entry(m).or_default().push(s.time[op].start),
            Some(OpClass::MemLoad(m))
                if stores.get(&m).is_some_and(|st| st.iter().any(|t| s.time[op].start <= t + 1)) =>
            {
                errs.push(format!("read {op} of {m} in {b} before an earlier store's registered write lands"));
            }
            _ => {}
        }
    }
}

/// Modulo constraints of a pipeline: resources at most once per slot modulo II, operands before
/// users, parameter write windows, the exit test within the first II cycles.
fn verify_pipeline(s: &Schedule, pi: usize, p: &crate::pipeline::Pipeline, errs: &mut Vec<String>) {
    let k = &s.kernel;
    let ii = p.ii;
    let mut slots: HashSet<(String, u32)> = HashSet::new();
    let in_loop: HashSet<kiln_dataflow::ir::Op> = p.ops.iter().copied().collect();
    let multipliers = s.timing.multipliers_per_cycle(k);
    let mut multiplies: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for &op in &p.ops {
        let t = s.time[op];
        if t.start > t.end || t.end >= p.depth {
            errs.push(format!("pipeline {pi}: {op} at {}..{} outside depth {}", t.start, t.end, p.depth));
        }
        for a in &k.ops[op].args {
            if let ValueDef::Op(d) = k.values[*a].def
                && in_loop.contains(&d)
                && s.time[d].end > t.start
            {
                errs.push(format!("pipeline {pi}: {op} starts before its operand {d} ends"));
            }
        }
        if s.reads_address_early(op) {
            let address = k.ops[op].args[0];
            let late = match k.values[address].def {
                ValueDef::Op(d) => in_loop.contains(&d) && s.time[d].end >= t.start,
                ValueDef::Param(..) => p.params.iter().any(|q| q.param == address && q.read >= t.start),
            };
            if t.start == 0 || late {
                errs.push(format!(
                    "pipeline {pi}: {op} reads through an address register, but its address is not ready a cycle before"
                ));
            }
        }
        if let (OpClass::Multi(_), Some(per_cycle)) = (s.class(op), multipliers)
            && s.timing.splits_multiply(k, op)
        {
            let starting = multiplies.entry(t.start % ii).or_insert(0);
            *starting += 1;
            if *starting > per_cycle {
                errs.push(format!(
                    "pipeline {pi}: {starting} multiplies start in slot {} of II {ii}, above the {per_cycle} shared multipliers",
                    t.start % ii
                ));
            }
        }
        let (key, occ) = match s.class(op) {
            OpClass::PortLoad(m) | OpClass::PortStore(m) => (format!("port{m}"), 1),
            OpClass::MemLoad(m) => (format!("rd{m}"), 1),
            OpClass::MemStore(m) => (format!("wr{m}"), 1),
            OpClass::Unit(u) => (format!("unit{}", u.0), s.units[u.0 as usize].latency),
            _ => continue,
        };
        for j in 0..occ {
            if !slots.insert((key.clone(), (t.start + j) % ii)) {
                errs.push(format!("pipeline {pi}: {key} used twice in slot {} of II {ii}", (t.start + j) % ii));
            }
        }
    }
    for pp in &p.params {
        if pp.write < pp.read || pp.write - pp.read >= ii {
            errs.push(format!(
                "pipeline {pi}: parameter {} read at {} but written at {} (II {ii})",
                pp.param, pp.read, pp.write
            ));
        }
        if let Some(add) = pp.skewed {
            let whole = !matches!(s.class(add), OpClass::Multi(n) if n >= 2);
            if whole || s.time[add].start != pp.write || k.def_op(pp.arg) != Some(add) {
                errs.push(format!(
                    "pipeline {pi}: skewed accumulator {} is not written in the first cycle of its split add {add}",
                    pp.param
                ));
            }
        }
    }
    if let Some(c) = k.def_op(p.shape.cond)
        && in_loop.contains(&c)
        && s.time[c].end >= ii
    {
        errs.push(format!("pipeline {pi}: loop test ready at {} is not within II {ii}", s.time[c].end));
    }
}
