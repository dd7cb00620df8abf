//! kiln's scheduler: places the operations of a dataflow kernel into clock cycles.
//!
//! Owns: the device timing of one kernel (`timing`: the device model read in terms of the IR,
//! and the choices made for the kernel on top of it), the [`Schedule`] data
//! structure that the simulator and the RTL generator both consume, FSM scheduling of blocks,
//! the binding of multiplies to shared multipliers,
//! the schedule verifier, and the scheduling part of the build report.
//!
//! Must not: emit Verilog, simulate, or do IO; hold device data (the device model is
//! `kiln-device`'s; what the scheduler decides for one kernel it returns in the [`Schedule`]).
//! It reads the dataflow IR and never changes its meaning.

pub mod binding;
pub mod fsm;
pub mod pipeline;
pub mod report;
pub mod schedule;
pub mod timing;
pub mod verify;

pub use schedule::{OpClass, Schedule};
pub use timing::Timing;

/// Scheduling choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Pipeline the loops that can be pipelined.
    pub pipeline: bool,
    /// Keep all pipe transfers of a pipelined loop in program order across iterations (all of
    /// an iteration's transfers within II + 1 cycles), not just each pipe's. Needed when the
    /// kernel's pipes take part in a cycle of the system's kernel graph (docs/timing.md §9).
    pub strict_pipe_order: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { pipeline: true, strict_pipe_order: false }
    }
}

/// Schedules a kernel for a device and clock (in MHz).
pub fn schedule(kernel: kiln_dataflow::Kernel, device: &'static kiln_device::Device, clock_mhz: f64) -> Schedule {
    schedule_with(kernel, device, clock_mhz, Options::default())
}

/// Schedules a kernel with explicit options.
pub fn schedule_with(
    kernel: kiln_dataflow::Kernel,
    device: &'static kiln_device::Device,
    clock_mhz: f64,
    opts: Options,
) -> Schedule {
    fsm::schedule_fsm(kernel, Timing::new(device), clock_mhz, opts)
}

/// The first operation kiln cannot build yet: floating-point arithmetic, comparisons and
/// conversions (after optimization, so that constant float expressions have been folded).
/// Moving float bits — loads, stores, selects — needs no float hardware and is built.
pub fn float_ops(kernel: &kiln_dataflow::Kernel) -> Option<kiln_dataflow::ir::Op> {
    kernel
        .rpo()
        .into_iter()
        .flat_map(|b| kernel.blocks[b].ops.iter().copied())
        .find(|op| kernel.ops[*op].kind.is_float())
}
