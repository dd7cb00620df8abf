//! kiln's RTL generator: a scheduled kernel to synthesizable, deterministic Verilog-2005.
//!
//! Owns: the typed Verilog syntax tree and printer ([`verilog`]) and the translation of a
//! [`kiln_scheduler::Schedule`] into one module per kernel ([`kernel`]).
//!
//! Must not: know about OpenCL (it sees only the dataflow IR and the schedule), change timing
//! decisions (every cycle is decided by the scheduler), or write files.

pub mod kernel;
pub mod verilog;

use kiln_frontend::Span;
use kiln_scheduler::Schedule;

/// A generated Verilog source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerilogFile {
    /// File name; it matches the module it contains.
    pub name: String,
    pub text: String,
    pub module: String,
}

/// Generates the Verilog of one scheduled kernel. `locate` turns spans into `file:line:col`.
pub fn emit_kernel(s: &Schedule, locate: &dyn Fn(Span) -> String) -> VerilogFile {
    let m = kernel::kernel_module(s, locate);
    VerilogFile { name: format!("{}.v", m.name), module: m.name.clone(), text: m.print() }
}
