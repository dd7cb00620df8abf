//! The scheduling part of the build report (`report.json`): interface, states, estimated
//! resources, loops and timing. Source positions are turned into text by the caller's locator,
//! so this crate stays free of file handling.

use crate::schedule::*;
use kiln_dataflow::ir::{MemKind, OpKind};
use kiln_frontend::Span;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize, Debug)]
pub struct KernelReport {
    pub name: String,
    pub target: String,
    pub clock_mhz: f64,
    pub scalar_args: Vec<ScalarArgReport>,
    pub ports: Vec<PortReport>,
    pub states: u32,
    pub blocks: Vec<BlockReport>,
    pub loops: Vec<LoopReport>,
    pub on_chip_memories: Vec<MemReport>,
    pub resources: ResourceEstimate,
    pub timing: TimingReport,
}

#[derive(Serialize, Debug)]
pub struct ScalarArgReport {
    pub name: String,
    pub c_type: String,
    pub port: String,
    pub width: u32,
}

#[derive(Serialize, Debug)]
pub struct PortReport {
    pub name: String,
    pub c_type: String,
    pub kind: &'static str,
    /// Verilog signal prefix (`<prefix>_req_valid`, ...).
    pub prefix: String,
    pub data_width: u32,
    /// Width of the element-index address.
    pub addr_width: u32,
    pub response_buffer_depth: u32,
    pub loads: u32,
    pub stores: u32,
}

#[derive(Serialize, Debug)]
pub struct BlockReport {
    pub block: String,
    pub steps: u32,
    pub location: String,
}

#[derive(Serialize, Debug)]
pub struct LoopReport {
    pub location: String,
    pub header: String,
    pub pipelined: bool,
    pub reason: String,
}

#[derive(Serialize, Debug)]
pub struct MemReport {
    pub name: String,
    pub kind: &'static str,
    pub elements: u32,
    pub element_width: u32,
    pub implementation: &'static str,
}

#[derive(Serialize, Debug, Default)]
pub struct ResourceEstimate {
    pub register_bits: u32,
    pub operators: BTreeMap<String, u32>,
    pub multipliers: u32,
    pub dividers: u32,
    pub memory_bits: u32,
}

#[derive(Serialize, Debug)]
pub struct TimingReport {
    pub clock_period_ns: f64,
    pub estimated_critical_path_ns: f64,
    pub paths_over_period: u32,
}

/// Builds the report of one scheduled kernel.
pub fn kernel_report(s: &Schedule, locate: &dyn Fn(Span) -> String) -> KernelReport {
    let k = &s.kernel;
    let scalar_args = k
        .scalar_params()
        .map(|(_, p, v)| ScalarArgReport {
            name: p.name.to_string(),
            c_type: p.c_type.clone(),
            port: format!("arg_{}", p.name),
            width: k.width(v),
        })
        .collect();
    let ports = k
        .ports()
        .map(|(_, p, m)| {
            let d = &k.mems[m];
            let (loads, stores) = k.ops.values().fold((0, 0), |(l, st), o| match o.kind {
                OpKind::Load(x) if x == m => (l + 1, st),
                OpKind::Store(x) if x == m => (l, st + 1),
                _ => (l, st),
            });
            PortReport {
                name: p.name.to_string(),
                c_type: p.c_type.clone(),
                kind: if matches!(d.kind, MemKind::ConstantArg { .. }) { "constant (read-only)" } else { "global" },
                prefix: p.name.to_string(),
                data_width: d.elem_width,
                addr_width: 32,
                response_buffer_depth: s.ports[m].resp_depth,
                loads,
                stores,
            }
        })
        .collect();
    let blocks = k
        .rpo()
        .into_iter()
        .map(|b| BlockReport { block: b.to_string(), steps: s.steps[b], location: locate(k.blocks[b].span) })
        .collect();
    let loops = k
        .loops
        .iter()
        .map(|l| LoopReport {
            location: locate(l.span),
            header: l.header.to_string(),
            pipelined: false,
            reason: "sequential FSM schedule (loop pipelining is not implemented yet)".into(),
        })
        .collect();
    let on_chip_memories = k
        .mems
        .values()
        .filter(|d| d.is_on_chip())
        .map(|d| {
            let bits = d.len.unwrap_or(0) * d.elem_width;
            MemReport {
                name: d.name.to_string(),
                kind: if d.kind == MemKind::Rom { "rom" } else { "private" },
                elements: d.len.unwrap_or(0),
                element_width: d.elem_width,
                implementation: if bits > 1024 { "block RAM" } else { "registers (LUT RAM)" },
            }
        })
        .collect();
    let mut res = ResourceEstimate::default();
    for b in k.rpo() {
        for &op in &k.blocks[b].ops {
            let o = &k.ops[op];
            if s.class(op) == OpClass::Comb {
                *res.operators.entry(o.kind.mnemonic().to_string()).or_default() += 1;
                if matches!(o.kind, OpKind::Binary(kiln_dataflow::ir::BinOp::Mul)) {
                    res.multipliers += 1;
                }
            }
            if let Some(r) = o.result
                && s.registered[r]
            {
                res.register_bits += k.width(r);
            }
        }
        for &p in &k.blocks[b].params {
            res.register_bits += k.width(p);
        }
    }
    res.dividers = s.units.len() as u32;
    res.memory_bits = k.mems.values().filter(|d| d.is_on_chip()).map(|d| d.len.unwrap_or(0) * d.elem_width).sum();
    let states: u32 = k.rpo().iter().map(|b| s.steps[*b]).sum::<u32>() + 2;
    KernelReport {
        name: k.name.to_string(),
        target: s.target.name.to_string(),
        clock_mhz: s.clock_mhz,
        scalar_args,
        ports,
        states,
        blocks,
        loops,
        on_chip_memories,
        resources: res,
        timing: TimingReport {
            clock_period_ns: s.period_ns(),
            estimated_critical_path_ns: (s.critical_path_ns() * 100.0).round() / 100.0,
            paths_over_period: s.timing_violations.len() as u32,
        },
    }
}
