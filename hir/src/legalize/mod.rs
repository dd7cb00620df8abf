//! Legalization: HIR-to-HIR passes that rewrite a kernel into the subset of the HIR that
//! lowering to the dataflow IR accepts, each in its own file behind [`Pass`], run by
//! [`legalize`], which verifies the program after every pass ([`crate::verify`]).
//!
//! The passes, in order:
//!
//! | pass | rewrites | ensures |
//! |---|---|---|
//! | `reserve` | work-item pipe reservations into queries, blocking transfers and a register buffer | no reservations |
//! | `collectives` | work-group functions and async copies into `__local` memory, barriers and loops | no collectives |
//! | `spin` | loops that only retry a non-blocking transfer into the blocking transfer | — |
//! | `records` | structs and unions into their members (and bytes, in buffers) | no records |
//! | `lanes` | vectors into their scalar lanes | no vectors |
//! | `mathlib` | math built-ins into calls of kiln's math library | math linked |
//! | `pad-rows` | the rows of arrays a loop reads at neighbouring elements to a power-of-two length | — |
//! | `scalar-replace` | array elements a loop uses at an unchanging index into registers for the loop | — |
//! | `rotate-loads` | neighbouring elements a loop reads at its counter plus constants into rotating registers | — |
//! | `partial-sums` | under relaxed math, float sums of loops into interleaved partial sums | — |
//! | `contract` | under `-cl-mad-enable` or `FP_CONTRACT ON`, `a * b + c` and `mad` into `fma` | — |

mod collectives;
mod contract;
mod elements;
mod lanes;
mod mathlib;
mod pad_rows;
mod partial_sums;
pub mod record_bytes;
mod records;
mod reserve;
mod rotate_loads;
mod scalar_replace;
mod spin;

use crate::verify::{Invariant, Violation, verify};
use crate::{FuncId, Program};
use kiln_diagnostics::Diagnostic;

/// What a build tells the passes about the kernel.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The work-group size of an NDRange kernel without `reqd_work_group_size`.
    pub local_size: Option<[u32; 3]>,
    /// Under relaxed math, how many interleaved partial sums a loop's float sum is split into
    /// (`partial-sums`; 0 or 1: none).
    pub float_partial_sums: u32,
    /// Keep array elements that a loop uses at an unchanging index in registers
    /// (`scalar-replace`): a loop transformation, so hardware builds do and the emulator does not.
    pub scalar_replacement: bool,
}

/// One HIR-to-HIR rewrite of a kernel and the helpers it calls.
pub trait Pass {
    /// The pass's name, as internal errors give it.
    fn name(&self) -> &'static str;
    /// The invariants the pass needs of its input.
    fn requires(&self) -> &'static [Invariant];
    /// The invariants its output has, besides those of its input.
    fn ensures(&self) -> &'static [Invariant];
    /// The rewritten program, or the diagnostics of what the kernel uses that the pass cannot
    /// express.
    fn run(&self, prog: &Program, kernel: FuncId, opts: &Options) -> Result<Program, Vec<Diagnostic>>;
}

/// A pass given as data: its name, contract and function (each pass file defines one `PASS`).
pub(crate) struct FnPass {
    name: &'static str,
    requires: &'static [Invariant],
    ensures: &'static [Invariant],
    run: fn(&Program, FuncId, &Options) -> Result<Program, Vec<Diagnostic>>,
}

impl Pass for FnPass {
    fn name(&self) -> &'static str {
        self.name
    }
    fn requires(&self) -> &'static [Invariant] {
        self.requires
    }
    fn ensures(&self) -> &'static [Invariant] {
        self.ensures
    }
    fn run(&self, prog: &Program, kernel: FuncId, opts: &Options) -> Result<Program, Vec<Diagnostic>> {
        (self.run)(prog, kernel, opts)
    }
}

/// The legalization passes in the order they run.
pub fn passes() -> [&'static dyn Pass; 11] {
    [
        &reserve::PASS,
        &collectives::PASS,
        &spin::PASS,
        &records::PASS,
        &lanes::PASS,
        &mathlib::PASS,
        &pad_rows::PASS,
        &scalar_replace::PASS,
        &rotate_loads::PASS,
        &partial_sums::PASS,
        &contract::PASS,
    ]
}

/// Why legalization stopped.
#[derive(Debug)]
pub enum Failure {
    /// The kernel uses what a pass cannot express: the user's diagnostics.
    Diagnostics(Vec<Diagnostic>),
    /// A pass produced a program that breaks an invariant: a bug in that pass.
    Invalid { pass: &'static str, violations: Vec<Violation> },
}

/// Runs every pass on kernel `kernel`, verifying the program after each; the result has every
/// invariant of [`Invariant`]. The input must have those of [`Invariant::FRONT_END`], which are
/// verified first (`pass` is then `"front end"`).
pub fn legalize(prog: &Program, kernel: FuncId, opts: &Options) -> Result<Program, Failure> {
    let mut holds: Vec<Invariant> = Invariant::FRONT_END.to_vec();
    verify(prog, kernel, &holds).map_err(|violations| Failure::Invalid { pass: "front end", violations })?;
    let mut current = std::borrow::Cow::Borrowed(prog);
    for pass in passes() {
        debug_assert!(pass.requires().iter().all(|i| holds.contains(i)), "pass `{}` runs too early", pass.name());
        let next = pass.run(&current, kernel, opts).map_err(Failure::Diagnostics)?;
        holds.extend(pass.ensures());
        verify(&next, kernel, &holds).map_err(|violations| Failure::Invalid { pass: pass.name(), violations })?;
        current = std::borrow::Cow::Owned(next);
    }
    Ok(current.into_owned())
}
