//! kiln's dataflow IR: kernels as control-flow graphs of dataflow blocks over SSA bit-vector
//! values, with explicit memories.
//!
//! Owns: the IR ([`ir`]) and its exact operation semantics ([`ir::op::eval`]), lowering from the
//! legalized HIR ([`lower`], after `kiln_hir::legalize`), the IR verifier ([`verify`]), CFG
//! analyses ([`analysis`]), value ranges ([`ranges`]), the optimization passes ([`passes`]), the
//! e-graph datapath phase ([`egraph`]), the IR's operators in the device model's terms
//! ([`delay`]) and the functional emulator ([`emu`]), the golden model every other engine is
//! checked against.
//!
//! Must not: rewrite the HIR (legalization is `kiln-hir`'s); know about clock cycles,
//! schedules, Verilog or files; hold device numbers (they are `kiln-device`'s); panic on any
//! kernel the front end accepts (problems become diagnostics).

pub mod analysis;
pub mod compact;
pub mod delay;
pub mod egraph;
pub mod emu;
pub mod ir;
pub mod lower;
pub mod passes;
pub mod ranges;
pub mod softfloat;
pub mod verify;

pub use ir::{Kernel, Module};
