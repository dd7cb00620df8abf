//! A whole kernel file for hardware (`kiln build`): every kernel through the build search, the
//! system top level where kernels use pipes, and the typed report. Nothing here touches files:
//! the caller writes [`ProgramBuild::verilog`] and the report.

use crate::build::{HwOptions, KernelBuild, build_kernel, emit_verilog};
use crate::report::{BuildReport, FifoReport, KernelBuildReport, SCHEMA_VERSION, SystemReport};
use crate::session::{Failure, Frontend};
use crate::system::{on_cycles, program_pipe_links, top_module_name};
use kiln_rtl_gen::VerilogFile;
use kiln_rtl_gen::system::{SystemInstance, fifo_in_block_ram, system_top};
use kiln_scheduler::Schedule;

/// The hardware of one file.
pub struct ProgramBuild {
    /// One module file per kernel, in the order of [`BuildReport::kernels`], then the system
    /// top level and its FIFOs.
    pub verilog: Vec<VerilogFile>,
    /// Each kernel's kept schedule, in the same order (for `--dump`).
    pub schedules: Vec<Schedule>,
    pub report: BuildReport,
}

/// Builds kernels `names` of `fe` (every kernel must build; the diagnostics of all that do not
/// are returned together). `source` is the file's name for the report.
pub fn build_program(fe: &Frontend, names: &[String], source: &str, hw: &HwOptions) -> Result<ProgramBuild, Failure> {
    let ids: Vec<kiln_hir::FuncId> =
        names.iter().filter_map(|n| crate::session::find_kernel(&fe.program, n, None).ok()).collect();
    if let Some(d) = crate::system::shared_program_globals(&fe.program, &ids) {
        return Err(vec![d].into());
    }
    let links = program_pipe_links(fe, names);
    let strict = on_cycles(&links.iter().map(|l| (l.writer.0, l.reader.0)).collect::<Vec<_>>(), names.len());
    let mut verilog = Vec::new();
    let mut schedules = Vec::new();
    let mut kernels = Vec::new();
    let mut instances = Vec::new();
    let mut failures = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let hw = HwOptions { strict_pipe_order: strict[i], ..hw.clone() };
        let KernelBuild { schedule, decisions, .. } = match build_kernel(fe, name, None, &hw) {
            Ok(b) => b,
            Err(f) => {
                failures.extend(f.diags);
                continue;
            }
        };
        let (v, interface) = emit_verilog(&schedule, &fe.sources);
        instances.push(SystemInstance { name: name.clone(), interface, params: schedule.kernel.params.len() });
        let report = kiln_scheduler::report::kernel_report(&schedule, &|sp| fe.sources.location(sp).to_string());
        kernels.push(KernelBuildReport { schedule: report, decisions });
        verilog.push(v);
        schedules.push(schedule);
    }
    if !failures.is_empty() {
        return Err(failures.into());
    }
    let mut system = None;
    if instances.iter().any(|i| !i.interface.pipes.is_empty()) {
        let name_refs: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
        let top = top_module_name(&name_refs);
        let (tops, iface) = system_top(&top, &instances, &links);
        verilog.extend(tops);
        let fifos = links
            .iter()
            .map(|l| FifoReport {
                pipe: l.name.clone(),
                width: l.width,
                depth: l.depth,
                storage: if fifo_in_block_ram(l.width, l.depth) { "block RAM" } else { "registers" },
                writer: names[l.writer.0].clone(),
                reader: names[l.reader.0].clone(),
            })
            .collect();
        let unconnected_pipe_ends = iface.pipes.iter().map(|p| p.prefix.clone()).collect();
        system = Some(SystemReport { top, fifos, unconnected_pipe_ends });
    }
    let report = BuildReport {
        schema_version: SCHEMA_VERSION,
        kiln_version: env!("CARGO_PKG_VERSION"),
        source: source.to_string(),
        target: hw.device.name.clone(),
        clock_mhz: hw.clock_mhz,
        kernels,
        system,
    };
    Ok(ProgramBuild { verilog, schedules, report })
}
