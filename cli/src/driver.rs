//! The compilation pipeline, stage by stage:
//!
//! `read_source` → `frontend` (preprocess, parse, check) → `lower` (dataflow IR, verified) →
//! `optimize` (passes, verified after each) → `schedule` (verified) → `emit_verilog`.
//!
//! Each stage returns diagnostics instead of failing; a verifier failure is an internal error
//! reported as a diagnostic, never a panic.

use kiln_dataflow::Kernel;
use kiln_dataflow::egraph::{EgraphOptions, EgraphReport};
use kiln_dataflow::passes::{PipelineOptions, egraph_phase, finish_for_hardware, optimize as run_passes};
use kiln_device::Device;
use kiln_diagnostics::{Diagnostic, codes};
use kiln_diagnostics::{FileId, SourceMap};
use kiln_frontend::Options;
use kiln_hir::Program;
use kiln_rtl_gen::{Interface, VerilogFile};
use kiln_scheduler::Schedule;
use std::path::Path;

/// Diagnostics that ended a command.
pub struct Failure {
    pub diags: Vec<Diagnostic>,
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure { diags: vec![d] }
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diags: Vec<Diagnostic>) -> Failure {
        Failure { diags }
    }
}

/// The source files of a session and the checked program.
pub struct Frontend {
    pub sources: SourceMap,
    pub program: Program,
    /// Warnings and notes (errors end the session).
    pub diags: Vec<Diagnostic>,
}

/// Reads a kernel file into a source map.
pub fn read_source(path: &Path, sources: &mut SourceMap) -> Result<FileId, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::error(codes::IO_READ, format!("cannot read `{}`: {e}", path.display())))?;
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(sources.add(path.display().to_string(), Some(abs), text))
}

/// Runs the front end on `file` of `sources`. On errors, returns every diagnostic with the
/// source map so that the caller can render them.
pub fn frontend(sources: SourceMap, file: FileId, opts: &Options) -> Result<Frontend, (SourceMap, Failure)> {
    let out = kiln_frontend::check(sources, file, &kiln_frontend::pp::FsLoader, opts);
    match out.program {
        Some(program) => Ok(Frontend { sources: out.sources, program, diags: out.diags }),
        None => Err((out.sources, Failure { diags: out.diags })),
    }
}

/// Names of the kernels in a program, in source order.
pub fn kernel_names(prog: &Program) -> Vec<String> {
    prog.kernels().map(|(_, f)| f.name.to_string()).collect()
}

/// Finds a kernel by name, with a helpful error listing the available ones.
pub fn find_kernel(
    prog: &Program,
    name: &str,
    at: Option<kiln_diagnostics::Span>,
) -> Result<kiln_hir::FuncId, Failure> {
    if let Some(id) = prog.kernel_by_name(name) {
        return Ok(id);
    }
    let names = kernel_names(prog);
    let mut d = Diagnostic::error(codes::UNKNOWN_KERNEL, format!("no kernel named `{name}`"));
    if let Some(s) = at {
        d = d.at(s);
    }
    d = if names.is_empty() {
        d.with_note("the file defines no kernel")
    } else {
        d.with_note(format!("kernels in the file: {}", names.join(", ")))
    };
    Err(d.into())
}

fn internal_error(stage: &str, details: String) -> Failure {
    Diagnostic::error(codes::SCHEDULE_FAILED, format!("internal error: {stage} produced invalid output"))
        .with_note(details)
        .with_help("please report this as a kiln bug with the kernel that triggered it")
        .into()
}

/// Lowers one kernel to the dataflow IR as written (the emulator's form) and verifies it.
pub fn lower(
    prog: &Program,
    kernel: kiln_hir::FuncId,
    local_size: Option<[u32; 3]>,
    local_args: &[(std::rc::Rc<str>, u32)],
) -> Result<(Kernel, Vec<Diagnostic>), Failure> {
    let opts = kiln_dataflow::lower::LowerOptions { local_size, local_args: local_args.to_vec(), ..Default::default() };
    lower_with(prog, kernel, &opts)
}

/// Lowers one kernel with options (hardware builds apply the loop transformations).
pub fn lower_with(
    prog: &Program,
    kernel: kiln_hir::FuncId,
    opts: &kiln_dataflow::lower::LowerOptions,
) -> Result<(Kernel, Vec<Diagnostic>), Failure> {
    let k = kiln_dataflow::lower::lower_kernel_with(prog, kernel, opts)?;
    kiln_dataflow::verify::verify(&k)
        .map_err(|e| internal_error("lowering", e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")))?;
    Ok((k, vec![]))
}

/// Runs the optimization passes (without the e-graph phase), verifying the IR after each.
pub fn optimize(k: &mut Kernel, hw: &HwOptions) -> Result<(), Failure> {
    let defer_divisions = hw.optimize && hw.egraph;
    let lut_multiply_below = hw.device.lut_multiply_below();
    run_passes(
        k,
        &PipelineOptions {
            verify_each: true,
            disabled: !hw.optimize,
            egraph: None,
            defer_divisions,
            lut_multiply_below,
            first_addresses_in_outer_loops: hw.device.keeps_first_addresses_in_outer_loops(),
        },
    )
    .map(|_| ())
    .map_err(pass_failure)
}

fn pass_failure(f: kiln_dataflow::passes::PassFailure) -> Failure {
    internal_error(&format!("pass `{}`", f.pass), f.errors.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n"))
}

/// Schedules an optimized kernel; with the e-graph phase on, schedules its rewritten datapath
/// too and keeps it only when no loop's II, pipeline depth or FSM step count gets worse (the
/// phase's cost model cannot see memory recurrences; the scheduler can). What the phase did goes
/// into the kernel's notes, and so into the report.
pub fn optimize_and_schedule(mut k: Kernel, hw: &HwOptions) -> Result<Schedule, Failure> {
    optimize(&mut k, hw)?;
    if !(hw.optimize && hw.egraph) {
        return schedule(k, hw);
    }
    let options = EgraphOptions { explain: hw.explain_opt, ..EgraphOptions::for_device(hw.device) };
    let (lut_multiply_below, first_addresses) =
        (hw.device.lut_multiply_below(), hw.device.keeps_first_addresses_in_outer_loops());
    let mut rewritten = k.clone();
    let report = egraph_phase(&mut rewritten, &options, true).map_err(pass_failure)?;
    finish_for_hardware(&mut rewritten, true, lut_multiply_below, first_addresses).map_err(pass_failure)?;
    if !report.changed() {
        return schedule(rewritten, hw);
    }
    // Without the phase's rewrites, the divisions it was left are rewritten the `-O1` way.
    finish_for_hardware(&mut k, true, lut_multiply_below, first_addresses).map_err(pass_failure)?;
    let base = schedule(k, hw)?;
    let with = schedule(rewritten, hw)?;
    let (mut chosen, notes) = match with.worse_than(&base) {
        None => (with, egraph_notes(&report, hw.explain_opt)),
        // A pipeline one cycle deeper costs a cycle per entry of its loop; a datapath a third
        // smaller or more can decide whether the kernel fits its part at all (doitgen on the
        // ECP5-85F: 36 multipliers with the phase's narrowing, 290 of 156 without), and a lower
        // II saves a cycle per iteration (ludcmp on the iCE40: two loops at II 1 instead of 4,
        // two others a cycle deeper). The generic target has no part to fit (nussinov there:
        // 108,053 cycles without the rewrites, 111,294 with a pipeline a cycle deeper).
        Some(why)
            if hw.device.has_a_part_to_fit()
                && with.deeper_by_at_most_one(&base)
                && area_saved(&report) >= 1.0 / 3.0 =>
        {
            let mut notes = egraph_notes(&report, hw.explain_opt);
            notes.push(format!("e-graph: rewrites kept although {why}: they save a third of the datapath or more"));
            (with, notes)
        }
        Some(why) if with.deeper_by_at_most_one(&base) && with.lowers_an_ii(&base) => {
            let mut notes = egraph_notes(&report, hw.explain_opt);
            notes.push(format!("e-graph: rewrites kept although {why}: they lower a loop's II"));
            (with, notes)
        }
        Some(why) => (base, vec![format!("e-graph: rewrites discarded: {why}")]),
    };
    chosen.kernel.notes.extend(notes);
    Ok(chosen)
}

/// The fraction of the datapath's estimated area the phase's rewrites save.
fn area_saved(r: &EgraphReport) -> f64 {
    let before: f64 = r.regions.iter().map(|x| x.area_before).sum();
    let after: f64 = r.regions.iter().map(|x| if x.kept { x.area_after } else { x.area_before }).sum();
    if before > 0.0 { (before - after) / before } else { 0.0 }
}

/// One line on what the e-graph phase gained, and with `explain` one per rewritten region.
fn egraph_notes(r: &EgraphReport, explain: bool) -> Vec<String> {
    let kept: Vec<_> = r.regions.iter().filter(|x| x.kept).collect();
    if kept.is_empty() {
        return vec![];
    }
    let total = |f: &dyn Fn(&kiln_dataflow::egraph::RegionReport) -> f64| r.regions.iter().map(f).sum::<f64>();
    let (before, after) = (total(&|x| x.area_before), total(&|x| x.area_after));
    let mut notes = vec![format!(
        "e-graph: rewrote {} of {} datapath regions: estimated area {:.0} -> {:.0} logic cells ({:+.1}%)",
        kept.len(),
        r.regions.len(),
        before,
        after,
        if before > 0.0 { 100.0 * (after - before) / before } else { 0.0 }
    )];
    if explain {
        for x in kept {
            let rules: Vec<String> = x.rules.iter().map(|(name, n)| format!("{name} x{n}")).collect();
            notes.push(format!(
                "e-graph: block {}: {} -> {} ops, area {:.0} -> {:.0}, depth {:.1} -> {:.1} ns ({}); rules: {}",
                x.block,
                x.ops_before,
                x.ops_after,
                x.area_before,
                x.area_after,
                x.depth_before,
                x.depth_after,
                x.stop,
                if rules.is_empty() { "constant folding".to_string() } else { rules.join(", ") }
            ));
        }
    }
    notes
}

/// Schedules a kernel and verifies the schedule.
pub fn schedule(k: Kernel, hw: &HwOptions) -> Result<Schedule, Failure> {
    if let Some(op) = kiln_scheduler::float_ops(&k) {
        let what = k.ops[op].kind.mnemonic();
        return Err(Diagnostic::error(
            codes::UNSUPPORTED_FLOAT,
            format!("kernel `{}` computes with floating point, which kiln does not build in hardware yet", k.name),
        )
        .at_labeled(k.ops[op].span, format!("this needs a floating-point unit (`{what}`)"))
        .with_note("`kiln emu` runs this kernel with IEEE single precision")
        .with_help("kernels that only load, store or select float values build today")
        .into());
    }
    let opts = kiln_scheduler::Options { pipeline: hw.pipeline, strict_pipe_order: hw.strict_pipe_order };
    let s = kiln_scheduler::schedule_with(k, hw.device, hw.clock_mhz, opts);
    kiln_scheduler::verify::verify_schedule(&s).map_err(|e| internal_error("scheduling", e.join("\n")))?;
    Ok(s)
}

/// Emits the Verilog of a scheduled kernel.
pub fn emit_verilog(s: &Schedule, sources: &SourceMap) -> (VerilogFile, Interface) {
    kiln_rtl_gen::emit_kernel(s, &|span| sources.location(span).to_string())
}

/// Compilation settings shared by the commands that build hardware.
#[derive(Clone, Debug)]
pub struct HwOptions {
    pub device: &'static Device,
    pub clock_mhz: f64,
    pub optimize: bool,
    /// Run the e-graph datapath phase (`-O2`, the default).
    pub egraph: bool,
    /// Record the rules behind each e-graph rewrite (`--explain-opt`).
    pub explain_opt: bool,
    /// Pipeline loops (`--no-pipeline` turns it off).
    pub pipeline: bool,
    /// The work-group size of NDRange kernels that do not fix it themselves.
    pub local_size: Option<[u32; 3]>,
    /// The `__local` memory behind `__local` pointer parameters, in elements by name (from a
    /// run spec; otherwise the parameter's `local_mem_size` or the default).
    pub local_args: Vec<(std::rc::Rc<str>, u32)>,
    /// Schedule pipe transfers in strict program order (the kernel is on a cycle of its
    /// system's kernel graph).
    pub strict_pipe_order: bool,
}

/// Front end to schedule for one kernel. Also returns the kernel as lowered, before any
/// optimization: the emulator runs that form, so that comparing it with the simulator checks the
/// optimizer as well as the scheduler. A kernel with nests that lowering could coalesce instead
/// of unrolling their inner loops ([`Kernel::coalescible_nests`]) is built once more per nest,
/// and each coalescing kept where the schedule estimates no more cycles.
pub fn build_schedule(
    fe: &Frontend,
    kernel: &str,
    at: Option<kiln_diagnostics::Span>,
    hw: &HwOptions,
) -> Result<(Kernel, Schedule), Failure> {
    let id = find_kernel(&fe.program, kernel, at)?;
    let (lowered, _) = lower(&fe.program, id, hw.local_size, &hw.local_args)?;
    let mut opts = kiln_dataflow::lower::LowerOptions {
        loop_transforms: hw.optimize,
        local_size: hw.local_size,
        local_args: hw.local_args.clone(),
        ..Default::default()
    };
    let (k, _) = lower_with(&fe.program, id, &opts)?;
    let candidates = k.coalescible_nests.len().min(MAX_COALESCING_TRIALS);
    let mut s = optimize_and_schedule(k, hw)?;
    // Each nest that could be coalesced instead of having its inner loop unrolled is tried on
    // top of those kept; it is kept where the schedule then estimates no more cycles (a coalesced
    // nest is the smaller design). A trial that fails to build is not kept.
    if candidates > 0
        && let Some(mut cycles) = kiln_scheduler::report::estimated_cycles(&s)
    {
        for nest in 0..candidates {
            opts.coalesce_nests.insert(nest);
            let trial = lower_with(&fe.program, id, &opts).and_then(|(k, _)| optimize_and_schedule(k, hw));
            match trial.ok().and_then(|t| Some((kiln_scheduler::report::estimated_cycles(&t)?, t))) {
                Some((c, t)) if c <= cycles => {
                    cycles = c;
                    s = t;
                }
                _ => {
                    opts.coalesce_nests.remove(&nest);
                }
            }
        }
    }
    Ok((lowered, s))
}

/// The most candidate nests [`build_schedule`] tries to coalesce (each trial builds the kernel
/// again).
const MAX_COALESCING_TRIALS: usize = 8;
