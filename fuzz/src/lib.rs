//! kiln's random differential tester: the programs, not the running of them.
//!
//! Owns: a generator of random OpenCL C kernels that are free of undefined behaviour by
//! construction ([`generate`]), each with its run ([`spec`]): kiln's run spec and the input of
//! an OpenCL host; the same program as plain C for gcc ([`print::c`]); and a reducer that
//! shrinks a failing program while it fails the same way ([`reduce`]).
//!
//! Must not: run kiln or any tool. Which engines run, how their results are compared and what
//! counts as a failure is the `kiln fuzz` command's (in `kiln-cli`); this crate only says what
//! a program is and how to make it smaller.

pub mod ast;
pub mod generate;
pub mod print;
pub mod reduce;
pub mod rng;
pub mod spec;
pub mod walk;

pub use generate::{Config, generate};
