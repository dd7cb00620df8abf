//! kiln's RTL generator: a scheduled kernel to synthesizable, deterministic Verilog-2005.
//!
//! Owns: the typed Verilog syntax tree and printer ([`verilog`]) and the translation of a
//! [`kiln_scheduler::Schedule`] into one module per kernel ([`kernel`]), with the wrappers of
//! the vendor primitives it instantiates as companion modules in the same file.
//!
//! Must not: know about OpenCL (it sees only the dataflow IR and the schedule), change timing
//! decisions (every cycle is decided by the scheduler), or write files.

pub mod kernel;
pub mod system;
pub mod verilog;

use kiln_diagnostics::Span;
use kiln_scheduler::Schedule;

/// A generated Verilog source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerilogFile {
    /// File name; it matches the module it contains.
    pub name: String,
    pub text: String,
    pub module: String,
}

/// A scalar-argument input port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalarPort {
    pub name: String,
    pub width: u32,
    /// Position of the argument in the kernel's parameter list.
    pub param: usize,
}

/// A memory port (one pointer argument): signals `<prefix>_req_valid`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryPort {
    pub prefix: String,
    /// Bits of a word: `lanes` elements.
    pub data_width: u32,
    /// Elements per word (1 but for buffers of vectors); `req_addr` counts words.
    pub lanes: u32,
    /// `__constant` ports have no write channel.
    pub read_only: bool,
    pub param: usize,
}

/// The ports of a generated kernel module, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    pub module: String,
    /// The module's parameters (`kernel::PORTS_ANSWER_NEXT_CYCLE` when it makes port requests).
    pub parameters: Vec<String>,
    pub scalars: Vec<ScalarPort>,
    pub memories: Vec<MemoryPort>,
    pub pipes: Vec<PipePort>,
}

/// One end of a pipe: signals `<prefix>_valid`, `_ready`, `_data`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipePort {
    pub prefix: String,
    /// The source name (`c`, `c[2]`, or the pipe parameter's name).
    pub name: String,
    /// Bits of a packet.
    pub width: u32,
    /// The kernel reads from it (otherwise it writes).
    pub read: bool,
    pub source: kiln_dataflow::ir::PipeSource,
    /// The depth the source asks for.
    pub depth: Option<u32>,
    /// The kernel asks for the FIFO's fill level (`get_pipe_num_packets`): a 32-bit input
    /// `<prefix>_count`.
    pub reads_count: bool,
    /// The kernel asks for the FIFO's depth (`get_pipe_max_packets`): a 32-bit input
    /// `<prefix>_capacity`.
    pub reads_capacity: bool,
}

/// Generates the Verilog of one scheduled kernel. `locate` turns spans into `file:line:col`.
pub fn emit_kernel(s: &Schedule, locate: &dyn Fn(Span) -> String) -> (VerilogFile, Interface) {
    let m = kernel::kernel_module(s, locate);
    let mut iface = kernel::interface(s);
    iface.parameters = m.params.iter().map(|(name, ..)| name.clone()).collect();
    (VerilogFile { name: format!("{}.v", m.name), module: m.name.clone(), text: m.print() }, iface)
}
