//! kiln's compile driver: the stages in order, from a checked program to verified schedules and
//! Verilog, and the build search over variants of a kernel.
//!
//! Owns: running the front end, lowering, the dataflow passes, the e-graph phase, scheduling and
//! Verilog emission in order, with every stage's internal error reported as a diagnostic that
//! names the stage ([`session`], [`build`]); the build search — which variants of a kernel are
//! built, which is kept and why ([`build`], [`report::Decision`]); a whole file's build with its
//! system top level ([`program`], [`system`]); the typed, versioned build report ([`report`]).
//!
//! Must not: parse command lines, read or write files (the front end reads `#include`s through
//! the loader it is given), or print; those are `kiln-cli`'s. It decides nothing about one
//! stage's own business: each stage's crate does.

pub mod build;
pub mod program;
pub mod report;
pub mod session;
pub mod system;

pub use build::{HwOptions, KernelBuild, build_kernel};
pub use session::{Failure, Frontend};
