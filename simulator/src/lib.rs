//! kiln's simulator: the cycle-accurate model of a scheduled kernel, the test-bench memory
//! model, VCD traces, and the Verilator co-simulation driver.
//!
//! Owns: the timing semantics of schedules as executable code ([`sim`]), the memory model that
//! the simulator and the generated C++ harness share ([`memory`]), and everything that runs
//! Verilator ([`cosim`]).
//!
//! Must not: change schedules or IR, or decide what is correct: it reports what the hardware
//! computed and when.

pub mod cosim;
pub mod memory;
pub mod sim;
pub mod trace;

pub use memory::MemConfig;
pub use sim::{SimConfig, SimResult, simulate};
