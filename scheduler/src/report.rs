//! The scheduling part of the build report (`report.json`): interface, states, estimated
//! resources, loops and timing. Source positions are turned into text by the caller's locator,
//! so this crate stays free of file handling.

use crate::schedule::*;
use kiln_dataflow::ir::{MemKind, OpKind};
use kiln_diagnostics::Span;
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
    /// What the optimizer did to arrays (registers, banks).
    pub transformations: Vec<String>,
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
    /// Width of one port word: `lanes` elements.
    pub data_width: u32,
    /// Elements per port word (1 unless the buffer holds vectors, whose accesses move a
    /// whole word per request).
    pub lanes: u32,
    /// Width of the word-index address.
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
    /// The loop's statement label, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub header: String,
    /// A number, or "variable".
    pub trip_count: serde_json::Value,
    pub pipelined: bool,
    /// Why the loop is (or is not) pipelined.
    pub reason: String,
    pub target_ii: Option<u32>,
    pub achieved_ii: Option<u32>,
    pub res_mii: u32,
    pub rec_mii: u32,
    pub mii: u32,
    /// What limits the II: a resource, or a recurrence as a chain of operations.
    pub limited_by: Option<LimitReport>,
    /// Why the achieved II is above the minimum, if it is.
    pub ii_note: Option<String>,
    /// Cycles from the start of an iteration to its last operation.
    pub pipeline_depth: Option<u32>,
    /// Estimated cycles of the whole loop (with the trip count), or "variable".
    pub latency_estimate: serde_json::Value,
    pub suggestion: Option<String>,
    /// Loop transformations applied before scheduling (unrolling, coalescing, partitioning).
    pub transformations: Vec<String>,
}

#[derive(Serialize, Debug)]
pub struct LimitReport {
    pub kind: &'static str,
    pub description: String,
    pub distance: Option<u32>,
    pub latency: Option<u32>,
    pub chain: Vec<ChainReport>,
}

#[derive(Serialize, Debug)]
pub struct ChainReport {
    pub op: String,
    pub location: String,
    pub cycles: String,
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
    /// The shared sequential dividers: width, signedness, cycles per quotient bit, latency.
    pub sequential_dividers: Vec<DividerReport>,
    pub memory_bits: u32,
}

#[derive(Serialize, Debug)]
pub struct DividerReport {
    pub width: u32,
    pub signed: bool,
    pub cycles_per_bit: u32,
    pub latency: u32,
}

#[derive(Serialize, Debug)]
pub struct TimingReport {
    pub clock_period_ns: f64,
    pub estimated_critical_path_ns: f64,
    pub paths_over_period: u32,
}

impl KernelReport {
    /// The loop report as text, as `kiln build` prints it.
    pub fn loops_text(&self) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        for l in &self.loops {
            let trip = match &l.trip_count {
                serde_json::Value::Number(n) => format!("{n} iterations"),
                _ => "variable trip count".to_string(),
            };
            match &l.label {
                Some(name) => {
                    let _ = writeln!(t, "  loop `{name}` at {} ({trip}):", l.location);
                }
                None => {
                    let _ = writeln!(t, "  loop at {} ({trip}):", l.location);
                }
            }
            match (l.pipelined, l.achieved_ii) {
                (true, Some(ii)) => {
                    let target = l.target_ii.map(|x| format!(", target II {x}")).unwrap_or_default();
                    let _ = writeln!(
                        t,
                        "    pipelined: II {ii} (MII {} = max(ResMII {}, RecMII {}){target}), depth {} cycles",
                        l.mii,
                        l.res_mii,
                        l.rec_mii,
                        l.pipeline_depth.unwrap_or(0)
                    );
                }
                _ => {
                    let _ = writeln!(t, "    not pipelined: {}", l.reason);
                }
            }
            for tr in &l.transformations {
                let _ = writeln!(t, "    {tr}");
            }
            if let Some(lim) = &l.limited_by {
                let extra = match (lim.distance, lim.latency) {
                    (Some(d), Some(lat)) => format!(" (latency {lat}, distance {d})"),
                    _ => String::new(),
                };
                let _ = writeln!(t, "    limited by {}: {}{extra}", lim.kind, lim.description);
                for c in &lim.chain {
                    let _ = writeln!(t, "      {} at {} (cycle {})", c.op, c.location, c.cycles);
                }
            }
            if let Some(n) = &l.ii_note {
                let _ = writeln!(t, "    note: {n}");
            }
            if let serde_json::Value::Number(n) = &l.latency_estimate {
                let _ = writeln!(t, "    estimated latency: {n} cycles");
            }
            if let Some(s) = &l.suggestion {
                let _ = writeln!(t, "    suggestion: {s}");
            }
        }
        // Memory transformations (banking, registers) belong to arrays, not to one loop.
        for tr in &self.transformations {
            let _ = writeln!(t, "  {tr}");
        }
        t
    }
}

fn chain(c: &[crate::pipeline::ChainOp], locate: &dyn Fn(Span) -> String) -> Vec<ChainReport> {
    c.iter()
        .map(|o| ChainReport {
            op: o.op.clone(),
            location: locate(o.span),
            cycles: if o.start == o.end { format!("{}", o.start) } else { format!("{}..{}", o.start, o.end) },
        })
        .collect()
}

fn loop_report(s: &Schedule, a: &crate::pipeline::LoopAnalysis, locate: &dyn Fn(Span) -> String) -> LoopReport {
    use crate::pipeline::Limit;
    let limited_by = a.limit.as_ref().map(|l| match l {
        Limit::Resource { resource, uses } => LimitReport {
            kind: "resource",
            description: match resource.strip_prefix(crate::pipeline::modulo::MULTIPLIERS) {
                Some(multiplies) => multiplies.to_string(),
                None => format!("{uses} accesses per iteration on the {resource}"),
            },
            distance: None,
            latency: None,
            chain: vec![],
        },
        Limit::Recurrence { what, chain: c, distance, latency } => LimitReport {
            kind: "recurrence",
            description: format!("loop-carried {what}"),
            distance: Some(*distance),
            latency: Some(*latency),
            chain: chain(c, locate),
        },
        Limit::ExitTest { chain: c, latency } => LimitReport {
            kind: "exit test",
            description: "the next iteration starts only after this one's loop test".into(),
            distance: Some(1),
            latency: Some(*latency),
            chain: chain(c, locate),
        },
        Limit::Pragma(ii) => LimitReport {
            kind: "pragma",
            description: format!("`#pragma ii {ii}` (or `xcl_pipeline_loop`) requests this II"),
            distance: None,
            latency: None,
            chain: vec![],
        },
    });
    let latency = match loop_latency(s, a.header) {
        Some(n) => serde_json::json!(n),
        None => serde_json::json!("variable"),
    };
    let label = s.kernel.loops.iter().find(|l| l.header == a.header).and_then(|l| l.pragmas.label.as_deref());
    LoopReport {
        location: locate(a.span),
        label: label.map(str::to_string),
        header: a.header.to_string(),
        trip_count: a.trip_count.map(|n| serde_json::json!(n)).unwrap_or(serde_json::json!("variable")),
        pipelined: a.pipelined,
        reason: a.reason.clone(),
        target_ii: a.target_ii,
        achieved_ii: a.achieved_ii,
        res_mii: a.res_mii,
        rec_mii: a.rec_mii,
        mii: a.mii(),
        limited_by,
        ii_note: a.ii_note.clone(),
        pipeline_depth: a.depth,
        latency_estimate: latency,
        suggestion: a.suggestion.clone(),
        transformations: a.transformations.clone(),
    }
}

/// Estimated cycles of a whole run of the kernel: the FSM states outside loops and each
/// outermost loop's [`loop_latency`] (plus the cycle that enters it); `None` when a loop's trip
/// count is not known. Branches count every state of both sides.
pub fn estimated_cycles(s: &Schedule) -> Option<u64> {
    let loops = kiln_dataflow::analysis::natural_loops(&s.kernel);
    let outside: u64 = s
        .kernel
        .rpo()
        .iter()
        .filter(|b| s.pipeline_of[**b].is_none() && !loops.iter().any(|l| l.blocks.contains(b)))
        .map(|b| s.steps[*b] as u64)
        .sum();
    let outermost =
        loops.iter().filter(|l| !loops.iter().any(|o| o.header != l.header && o.blocks.contains(&l.header)));
    let mut total = outside;
    for l in outermost {
        total += loop_latency(s, l.header)? + 1;
    }
    Some(total)
}

/// Estimated cycles of a whole loop: trip count × (FSM states of its own blocks + the latency of
/// each directly nested loop), or `trip × II + depth` for a pipeline; `None` when a trip count
/// is not known.
fn loop_latency(s: &Schedule, header: kiln_dataflow::ir::Block) -> Option<u64> {
    let loops = kiln_dataflow::analysis::natural_loops(&s.kernel);
    let this = loops.iter().find(|l| l.header == header)?;
    let a = s.loops.iter().find(|a| a.header == header)?;
    let trip = a.trip_count?;
    if let (Some(ii), Some(d)) = (a.achieved_ii, a.depth) {
        return Some(trip * ii as u64 + d as u64);
    }
    let inner: Vec<&kiln_dataflow::analysis::NaturalLoop> =
        loops.iter().filter(|l| l.header != header && this.blocks.contains(&l.header)).collect();
    // Directly nested: not inside another inner loop.
    let direct: Vec<&&kiln_dataflow::analysis::NaturalLoop> =
        inner.iter().filter(|l| !inner.iter().any(|o| o.header != l.header && o.blocks.contains(&l.header))).collect();
    let mut per_iteration: u64 = this
        .blocks
        .iter()
        .filter(|b| s.pipeline_of[**b].is_none() && !inner.iter().any(|l| l.blocks.contains(b)))
        .map(|b| s.steps[*b] as u64)
        .sum();
    for l in direct {
        per_iteration += loop_latency(s, l.header)? + 1;
    }
    Some(trip * per_iteration)
}

/// Builds the report of one scheduled kernel.
pub fn kernel_report(s: &Schedule, locate: &dyn Fn(Span) -> String) -> KernelReport {
    let k = &s.kernel;
    let scalar_args = k
        .scalar_params()
        .map(|(_, p, v)| ScalarArgReport {
            name: p.name.to_string(),
            c_type: p.c_type.clone(),
            port: match p.implicit {
                Some(kiln_dataflow::ir::Implicit::GlobalSize(d)) => format!("launch_global_size{d}"),
                Some(kiln_dataflow::ir::Implicit::LocalSize(d)) => format!("launch_local_size{d}"),
                Some(kiln_dataflow::ir::Implicit::WorkDim) => "launch_work_dim".to_string(),
                None => format!("arg_{}", p.name),
            },
            width: k.width(v),
        })
        .collect();
    let ports = k
        .ports()
        .map(|(_, p, m)| {
            let d = &k.mems[m];
            let (loads, stores) = k.ops.values().fold((0, 0), |(l, st), o| match o.kind {
                OpKind::Load(x) | OpKind::WordLoad(x) if x == m => (l + 1, st),
                OpKind::Store(x) | OpKind::WordStoreAt(x) | OpKind::WordStore { mem: x, .. } if x == m => (l, st + 1),
                _ => (l, st),
            });
            PortReport {
                name: p.name.to_string(),
                c_type: p.c_type.clone(),
                kind: if matches!(d.kind, MemKind::ConstantArg { .. }) { "constant (read-only)" } else { "global" },
                prefix: p.name.to_string(),
                data_width: d.elem_width * d.lanes,
                lanes: d.lanes,
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
    let mut loops: Vec<(kiln_diagnostics::Span, LoopReport)> =
        s.loops.iter().map(|a| (a.span, loop_report(s, a, locate))).collect();
    for u in &k.unrolled {
        loops.push((
            u.span,
            LoopReport {
                location: locate(u.span),
                label: None,
                header: String::new(),
                trip_count: serde_json::json!(u.copies),
                pipelined: false,
                reason: format!("fully unrolled into {} copies ({})", u.copies, u.why),
                target_ii: None,
                achieved_ii: None,
                res_mii: 0,
                rec_mii: 0,
                mii: 0,
                limited_by: None,
                ii_note: None,
                pipeline_depth: None,
                latency_estimate: serde_json::Value::Null,
                suggestion: None,
                transformations: u.transformations.clone(),
            },
        ));
    }
    // Source order; copies of one loop (from unrolling an enclosing loop) stay together.
    loops.sort_by_key(|(sp, _)| (sp.file, sp.lo));
    let loops = loops.into_iter().map(|(_, l)| l).collect();
    let on_chip_memories = k
        .mems
        .values()
        .filter(|d| d.is_on_chip())
        .map(|d| MemReport {
            name: d.name.to_string(),
            kind: match d.kind {
                MemKind::Rom => "rom",
                MemKind::Local => "local",
                _ => "private",
            },
            elements: d.len.unwrap_or(0),
            element_width: d.elem_width,
            implementation: match (d.in_block_ram(s.timing.memory.block_ram_min_bits), s.timing.memory.lut_ram) {
                (true, _) => "block RAM",
                (false, false) => "registers",
                (false, true) => "registers (LUT RAM)",
            },
        })
        .collect();
    let mut res = ResourceEstimate::default();
    for b in k.rpo() {
        for &op in &k.blocks[b].ops {
            let o = &k.ops[op];
            if matches!(s.class(op), OpClass::Comb | OpClass::Multi(_)) {
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
    res.sequential_dividers = s
        .units
        .iter()
        .map(|u| {
            let crate::schedule::UnitKind::Divider { signed } = u.kind;
            DividerReport { width: u.width, signed, cycles_per_bit: u.step_cycles, latency: u.latency }
        })
        .collect();
    res.memory_bits = k.mems.values().filter(|d| d.is_on_chip()).map(|d| d.len.unwrap_or(0) * d.elem_width).sum();
    let states: u32 = k.rpo().iter().map(|b| s.steps[*b]).sum::<u32>() + 2;
    KernelReport {
        name: k.name.to_string(),
        target: s.timing.name.to_string(),
        clock_mhz: s.clock_mhz,
        scalar_args,
        ports,
        states,
        blocks,
        loops,
        transformations: k.notes.clone(),
        on_chip_memories,
        resources: res,
        timing: TimingReport {
            clock_period_ns: s.period_ns(),
            estimated_critical_path_ns: (s.critical_path_ns() * 100.0).round() / 100.0,
            paths_over_period: s.timing_violations.len() as u32,
        },
    }
}
