//! One kernel from the HIR to a verified schedule, and the build search: which variants of the
//! kernel are built, which one is kept and why ([`Decision`], recorded in the report).
//!
//! The search, in order:
//! 1. the kernel as lowered with its loop transformations, optimized by the dataflow passes;
//! 2. with the e-graph phase on (`-O2`), its rewritten datapath, kept only when the scheduler
//!    finds no loop's II, pipeline depth or FSM length worse — or when the only cost is a
//!    pipeline one cycle deeper and the rewrites save a third of the datapath on a device with
//!    a part to fit, or lower some loop's II ([`keep_rewrites`]);
//! 3. each nest that lowering could coalesce instead of unrolling its inner loop
//!    ([`Kernel::coalescible_nests`], at most [`MAX_COALESCING_TRIALS`]), tried on top of those
//!    kept and kept where the schedule estimates no more cycles;
//! 4. under relaxed math, where a pipelined loop's II is its recurrence's (a float sum's adder
//!    latency), the kernel with its loops' float sums split into that many partial sums
//!    (`kiln_hir::legalize`'s `partial-sums`), kept where the schedule estimates fewer cycles.
//!    The emulator's form of the kernel is lowered with the same sums, so co-simulation compares
//!    like with like.

use crate::report::{Decision, EgraphRegion};
use crate::session::{Failure, Frontend, find_kernel, lower, lower_with};
use kiln_dataflow::Kernel;
use kiln_dataflow::egraph::{EgraphOptions, EgraphReport};
use kiln_dataflow::passes::{PassFailure, PipelineOptions, egraph_phase, finish_for_hardware, optimize as run_passes};
use kiln_device::Device;
use kiln_diagnostics::{Diagnostic, SourceMap, Span, codes};
use kiln_rtl_gen::{Interface, VerilogFile};
use kiln_scheduler::Schedule;
use std::rc::Rc;

/// Compilation settings shared by the commands that build hardware.
#[derive(Clone, Debug)]
pub struct HwOptions {
    pub device: &'static Device,
    pub clock_mhz: f64,
    /// Run the dataflow passes (`-O1` and up).
    pub optimize: bool,
    /// Run the e-graph datapath phase (`-O2`, the default).
    pub egraph: bool,
    /// Record the rules behind each e-graph rewrite (`--explain-opt`).
    pub explain_opt: bool,
    /// Pipeline loops (`--no-pipeline` turns it off).
    pub pipeline: bool,
    /// Keep array elements that a loop uses at an unchanging index in registers
    /// (`--no-scalar-replacement` turns it off; only with `optimize`).
    pub scalar_replacement: bool,
    /// The work-group size of NDRange kernels that do not fix it themselves.
    pub local_size: Option<[u32; 3]>,
    /// The `__local` memory behind `__local` pointer parameters, in elements by name (from a
    /// run spec; otherwise the parameter's `local_mem_size` or the default).
    pub local_args: Vec<(Rc<str>, u32)>,
    /// Schedule pipe transfers in strict program order (the kernel is on a cycle of its
    /// system's kernel graph).
    pub strict_pipe_order: bool,
}

/// A kernel built for hardware: the kernel as lowered (the emulator's reference), the kept
/// schedule, and what the search decided.
pub struct KernelBuild {
    pub lowered: Kernel,
    pub schedule: Schedule,
    pub decisions: Vec<Decision>,
}

/// The most candidate nests [`build_kernel`] tries to coalesce (each trial builds the kernel
/// again).
pub const MAX_COALESCING_TRIALS: usize = 8;

/// Front end to schedule for one kernel, with the build search of the module documentation.
pub fn build_kernel(fe: &Frontend, kernel: &str, at: Option<Span>, hw: &HwOptions) -> Result<KernelBuild, Failure> {
    let id = find_kernel(&fe.program, kernel, at)?;
    let lowered = lower(&fe.program, id, hw.local_size, &hw.local_args)?;
    let mut opts = kiln_dataflow::lower::LowerOptions {
        loop_transforms: hw.optimize,
        scalar_replacement: hw.optimize && hw.scalar_replacement,
        local_size: hw.local_size,
        local_args: hw.local_args.clone(),
        ..Default::default()
    };
    let k = lower_with(&fe.program, id, &opts)?;
    let candidates = k.coalescible_nests.len().min(MAX_COALESCING_TRIALS);
    let (mut schedule, mut decisions) = optimize_and_schedule(k, hw)?;
    if candidates > 0
        && let Some(mut cycles) = kiln_scheduler::report::estimated_cycles(&schedule)
    {
        for nest in 0..candidates {
            opts.coalesce_nests.insert(nest);
            // A trial that fails to build is not kept.
            let trial = lower_with(&fe.program, id, &opts).and_then(|k| optimize_and_schedule(k, hw));
            let trial = trial.ok().and_then(|(t, d)| Some((kiln_scheduler::report::estimated_cycles(&t)?, t, d)));
            let with = trial.as_ref().map(|t| t.0);
            match trial {
                Some((c, t, d)) if c <= cycles => {
                    decisions.push(Decision::Coalesce { nest, kept: true, estimated_cycles: cycles, with: Some(c) });
                    cycles = c;
                    schedule = t;
                    decisions.retain(|x| !matches!(x, Decision::Egraph { .. }));
                    decisions.extend(d);
                }
                _ => {
                    decisions.push(Decision::Coalesce { nest, kept: false, estimated_cycles: cycles, with });
                    opts.coalesce_nests.remove(&nest);
                }
            }
        }
    }
    // Relaxed math: a float sum split into as many partial sums as its recurrence's latency,
    // kept where the schedule estimates fewer cycles (or, with trip counts unknown at compile
    // time, where it lowers a loop's II).
    let mut lowered = lowered;
    if fe.program.float_mode.reassociate {
        let k = schedule.loops.iter().filter(|l| l.pipelined && l.rec_mii > 1).map(|l| l.rec_mii).max().unwrap_or(1);
        if k > 1 {
            let cycles = kiln_scheduler::report::estimated_cycles(&schedule);
            let try_split = |k: u32| {
                let split = kiln_dataflow::lower::LowerOptions { float_partial_sums: k, ..opts.clone() };
                lower_with(&fe.program, id, &split).and_then(|kn| optimize_and_schedule(kn, hw)).ok()
            };
            let mut k = k;
            let mut trial = try_split(k);
            // The partial sums live in memory: an update's load and store add to the adder's
            // latency, so `k` sums may still leave a loop at II > 1; then ask for II times more.
            if let Some(again) = trial.as_ref().map(|(t, _)| {
                t.loops.iter().filter(|l| l.pipelined && l.rec_mii > 1).map(|l| l.rec_mii).max().unwrap_or(1)
            }) && again > 1
            {
                k *= again;
                trial = try_split(k);
            }
            let with = trial.as_ref().and_then(|(t, _)| kiln_scheduler::report::estimated_cycles(t));
            let better = match (&trial, cycles, with) {
                (Some(_), Some(c0), Some(c1)) => c1 < c0,
                (Some((t, _)), _, _) => t.lowers_a_source_loops_ii(&schedule),
                _ => false,
            };
            if let (true, Some((t, d))) = (better, trial) {
                let reference = kiln_dataflow::lower::LowerOptions {
                    local_size: hw.local_size,
                    local_args: hw.local_args.clone(),
                    float_partial_sums: k,
                    // Exact, but it makes accumulators of array elements, which the partial
                    // sums then split: the reference must split the same sums.
                    scalar_replacement: opts.scalar_replacement,
                    ..Default::default()
                };
                lowered = lower_with(&fe.program, id, &reference)?;
                schedule = t;
                decisions.retain(|x| !matches!(x, Decision::Egraph { .. }));
                decisions.extend(d);
            }
            decisions.push(Decision::PartialSums { sums: k, kept: better, estimated_cycles: cycles, with });
        }
    }
    Ok(KernelBuild { lowered, schedule, decisions })
}

/// Runs the optimization passes (without the e-graph phase), verifying the IR after each.
pub fn optimize(k: &mut Kernel, hw: &HwOptions) -> Result<(), Failure> {
    run_passes(
        k,
        &PipelineOptions {
            verify_each: true,
            disabled: !hw.optimize,
            egraph: None,
            defer_divisions: hw.optimize && hw.egraph,
            lut_multiply_below: hw.device.lut_multiply_below(),
            first_addresses_in_outer_loops: hw.device.keeps_first_addresses_in_outer_loops(),
        },
    )
    .map(|_| ())
    .map_err(pass_failure)
}

fn pass_failure(f: PassFailure) -> Failure {
    Diagnostic::internal_error(&format!("pass `{}`", f.pass), &f.errors).into()
}

/// Schedules an optimized kernel; with the e-graph phase on, schedules its rewritten datapath
/// too and keeps the one [`keep_rewrites`] chooses (the phase's cost model cannot see memory
/// recurrences; the scheduler can).
pub fn optimize_and_schedule(mut k: Kernel, hw: &HwOptions) -> Result<(Schedule, Vec<Decision>), Failure> {
    optimize(&mut k, hw)?;
    if !(hw.optimize && hw.egraph) {
        return Ok((schedule(k, hw)?, vec![]));
    }
    let options = EgraphOptions { explain: hw.explain_opt, ..EgraphOptions::for_device(hw.device) };
    let (lut_multiply_below, first_addresses) =
        (hw.device.lut_multiply_below(), hw.device.keeps_first_addresses_in_outer_loops());
    let mut rewritten = k.clone();
    let report = egraph_phase(&mut rewritten, &options, true).map_err(pass_failure)?;
    finish_for_hardware(&mut rewritten, true, lut_multiply_below, first_addresses).map_err(pass_failure)?;
    if !report.changed() {
        return Ok((schedule(rewritten, hw)?, vec![]));
    }
    // Without the phase's rewrites, the divisions it was left are rewritten the `-O1` way.
    finish_for_hardware(&mut k, true, lut_multiply_below, first_addresses).map_err(pass_failure)?;
    let base = schedule(k, hw)?;
    let with = schedule(rewritten, hw)?;
    let (kept, reason) = keep_rewrites(&base, &with, &report, hw.device);
    let decision = egraph_decision(&report, kept, reason, hw.explain_opt);
    Ok((if kept { with } else { base }, vec![decision]))
}

/// Whether the e-graph phase's rewritten datapath (`with`) is kept over the kernel without it
/// (`base`), and why.
///
/// A pipeline one cycle deeper costs a cycle per entry of its loop; a datapath a third smaller
/// or more can decide whether the kernel fits its part at all (doitgen on the ECP5-85F: 36
/// multipliers with the phase's narrowing, 290 of 156 without), and a lower II saves a cycle
/// per iteration (ludcmp on the iCE40: two loops at II 1 instead of 4, two others a cycle
/// deeper). A device with no part to fit never trades a cycle for area (nussinov on the generic
/// device: 108,053 cycles without the rewrites, 111,294 with a pipeline a cycle deeper).
pub fn keep_rewrites(base: &Schedule, with: &Schedule, report: &EgraphReport, device: &Device) -> (bool, String) {
    match with.worse_than(base) {
        None => (true, "no loop's II, pipeline depth or FSM length is worse".into()),
        Some(why)
            if device.has_a_part_to_fit() && with.deeper_by_at_most_one(base) && area_saved(report) >= 1.0 / 3.0 =>
        {
            (true, format!("{why}, but they save a third of the datapath or more"))
        }
        Some(why) if with.deeper_by_at_most_one(base) && with.lowers_an_ii(base) => {
            (true, format!("{why}, but they lower a loop's II"))
        }
        Some(why) => (false, why),
    }
}

/// The fraction of the datapath's estimated area the phase's rewrites save.
fn area_saved(r: &EgraphReport) -> f64 {
    let before: f64 = r.regions.iter().map(|x| x.area_before).sum();
    let after: f64 = r.regions.iter().map(|x| if x.kept { x.area_after } else { x.area_before }).sum();
    if before > 0.0 { (before - after) / before } else { 0.0 }
}

fn egraph_decision(r: &EgraphReport, kept: bool, reason: String, explain: bool) -> Decision {
    let rewritten: Vec<_> = r.regions.iter().filter(|x| x.kept).collect();
    let total = |f: &dyn Fn(&kiln_dataflow::egraph::RegionReport) -> f64| r.regions.iter().map(f).sum::<f64>();
    let regions = if explain {
        rewritten
            .iter()
            .map(|x| EgraphRegion {
                block: x.block.to_string(),
                ops_before: x.ops_before,
                ops_after: x.ops_after,
                area_before: x.area_before,
                area_after: x.area_after,
                depth_before_ns: x.depth_before,
                depth_after_ns: x.depth_after,
                stop: x.stop.to_string(),
                rules: x.rules.iter().map(|(name, n)| (name.to_string(), *n)).collect(),
            })
            .collect()
    } else {
        vec![]
    };
    Decision::Egraph {
        kept,
        reason,
        regions_rewritten: rewritten.len(),
        regions: r.regions.len(),
        estimated_area_before: total(&|x| x.area_before),
        estimated_area_after: total(&|x| x.area_after),
        explained: regions,
    }
}

/// Schedules a kernel and verifies the schedule.
pub fn schedule(k: Kernel, hw: &HwOptions) -> Result<Schedule, Failure> {
    if let Some(op) = kiln_scheduler::float_ops(&k) {
        let what = k.ops[op].kind.mnemonic();
        return Err(Diagnostic::error(
            codes::UNSUPPORTED_FLOAT,
            format!("kernel `{}` uses a floating-point operation that kiln does not build in hardware yet", k.name),
        )
        .at_labeled(k.ops[op].span, format!("`{what}` has no hardware implementation"))
        .with_note("`kiln emu` runs this kernel with IEEE single precision")
        .with_help("`docs/language.md` lists the float operations and math functions kiln builds")
        .into());
    }
    let opts = kiln_scheduler::Options { pipeline: hw.pipeline, strict_pipe_order: hw.strict_pipe_order };
    let s = kiln_scheduler::schedule_with(k, hw.device, hw.clock_mhz, opts);
    kiln_scheduler::verify::verify_schedule(&s).map_err(|e| Diagnostic::internal_error("scheduling", &e))?;
    Ok(s)
}

/// Emits the Verilog of a scheduled kernel.
/// The warning that a kernel's `printf`s have no output in hardware, at the first of them.
pub fn printf_warning(k: &Kernel) -> Option<Diagnostic> {
    let first =
        k.ops.values().filter(|o| matches!(o.kind, kiln_dataflow::ir::OpKind::Print(_))).map(|o| o.span).min()?;
    Some(
        Diagnostic::warning(
            codes::PRINTF_IN_HARDWARE,
            format!("kernel `{}`: `printf` has no output in hardware and is dropped from it", k.name),
        )
        .at(first)
        .with_note("`kiln emu` prints it, and `kiln sim` and `kiln cosim` print it with the cycle it runs in"),
    )
}

pub fn emit_verilog(s: &Schedule, sources: &SourceMap) -> (VerilogFile, Interface) {
    kiln_rtl_gen::emit_kernel(s, &|span| sources.location(span).to_string())
}
