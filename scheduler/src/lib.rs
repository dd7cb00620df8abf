//! kiln's scheduler: places the operations of a dataflow kernel into clock cycles.
//!
//! Owns: target models (operator delays and latencies, default clocks), the [`Schedule`] data
//! structure that the simulator and the RTL generator both consume, FSM scheduling of blocks,
//! the schedule verifier, and the scheduling part of the build report.
//!
//! Must not: emit Verilog, simulate, or do IO. It reads the dataflow IR and never changes its
//! meaning.

pub mod fsm;
pub mod report;
pub mod schedule;
pub mod target;
pub mod verify;

pub use schedule::{OpClass, Schedule};
pub use target::Target;

/// Schedules a kernel for a target and clock (in MHz).
pub fn schedule(kernel: kiln_dataflow::Kernel, target: Target, clock_mhz: f64) -> Schedule {
    fsm::schedule_fsm(kernel, target, clock_mhz)
}
