//! kiln's typed program, the HIR: what every front end produces and lowering consumes.
//!
//! Owns: the HIR ([`Program`] and its expressions and statements), its types ([`types`]), the
//! built-in functions it names ([`builtins`]), `printf` formats and their rendering ([`printf`]), constant evaluation ([`consteval`]), the
//! verifier of each stage's invariants ([`verify`]), one builder of HIR nodes ([`build`]), the
//! walkers ([`walk`]) and the legalization passes that rewrite a program into the subset that
//! lowering accepts ([`legalize`]: reservations, collectives, spin loops, records, vectors).
//!
//! Must not: know any source language's syntax (the OpenCL C and C++ front ends both produce
//! this), anything about the dataflow IR, schedules or hardware; panic on any program a front
//! end accepted.

pub mod build;
pub mod builtins;
pub mod consteval;
pub mod legalize;
pub mod printf;
mod program;
pub mod types;
pub mod verify;
pub mod walk;

pub use program::*;
