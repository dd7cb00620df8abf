//! Optimization passes over the dataflow IR, one per file, and the pipeline that runs them.
//!
//! Every pass keeps the IR valid (see [`crate::verify`]); the pipeline runs the verifier after
//! each pass when asked to, and reports which pass broke an invariant.

mod bounded_compare;
mod carry_compare;
mod const_fold;
mod cse;
mod dce;
mod exit_test;
pub mod flush_subnormals;
mod if_convert;
mod induction_address;
mod lut_multiply;
mod merge_blocks;
mod narrow_params;
mod partition;
mod port_width;
mod scalarize;
mod shift_widths;
mod simplify_params;
mod soft_float;
pub use soft_float::{Footprint, footprints};
mod strength;
mod unreachable;
mod widen;
mod zero_accumulator;

use crate::egraph::{EgraphOptions, EgraphReport, optimize_kernel_with};
use crate::ir::Kernel;
use crate::verify::{VerifierError, verify};

/// An IR-to-IR transformation.
pub trait Pass {
    /// The pass's name on the command line and in reports.
    fn name(&self) -> &'static str;
    fn description(&self) -> &'static str;
    /// Runs the pass; returns whether it changed the kernel.
    fn run(&self, k: &mut Kernel) -> bool;
}

/// Every pass, in pipeline order (`defer_divisions`: see [`PipelineOptions::defer_divisions`]).
pub fn registry(defer_divisions: bool) -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(unreachable::RemoveUnreachable),
        Box::new(simplify_params::SimplifyParams),
        Box::new(const_fold::ConstFold),
        Box::new(strength::StrengthReduce { defer_odd_divisors: defer_divisions }),
        Box::new(cse::Cse),
        Box::new(merge_blocks::MergeBlocks),
        Box::new(scalarize::Scalarize),
        Box::new(partition::Partition),
        Box::new(if_convert::IfConvert),
        Box::new(exit_test::ExitTest { constant_bounds: false }),
        Box::new(dce::Dce),
    ]
}

#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// Run the verifier after every pass.
    pub verify_each: bool,
    /// Run no passes at all (only the final compaction).
    pub disabled: bool,
    /// The e-graph datapath phase and its budgets (`None`: `--no-egraph`, `-O1`).
    pub egraph: Option<EgraphOptions>,
    /// Leave division and remainder by constants other than powers of two for the e-graph
    /// phase, which divides by multiplying with a reciprocal as narrow as the dividend's range
    /// allows ([`finish_for_hardware`] rewrites the rest). Implied by `egraph`; a caller that
    /// sets it without `egraph` runs [`egraph_phase`] itself and then [`finish_for_hardware`],
    /// also on a kernel it keeps without the phase.
    pub defer_divisions: bool,
    /// Products narrower than this many bits become partial products added in a tree
    /// (`lut-multiply`; 0: none), for targets whose synthesis builds them from LUTs.
    pub lut_multiply_below: u32,
    /// `induction-address` also keeps inner loops' first addresses in the loops around them.
    pub first_addresses_in_outer_loops: bool,
}

impl Default for PipelineOptions {
    fn default() -> PipelineOptions {
        PipelineOptions {
            verify_each: false,
            disabled: false,
            egraph: Some(EgraphOptions::for_device(kiln_device::Device::generic())),
            defer_divisions: false,
            lut_multiply_below: 0,
            first_addresses_in_outer_loops: false,
        }
    }
}

/// What the pipeline did, for reports.
#[derive(Clone, Debug, Default)]
pub struct OptimizeReport {
    pub egraph: Option<EgraphReport>,
}

/// A pass that left the IR invalid.
#[derive(Debug)]
pub struct PassFailure {
    pub pass: &'static str,
    pub errors: Vec<VerifierError>,
}

/// Runs the passes to a fixed point (bounded), the wide-port legalization, then the e-graph
/// phase ([`egraph_phase`]), then compacts the kernel.
pub fn optimize(k: &mut Kernel, opts: &PipelineOptions) -> Result<OptimizeReport, PassFailure> {
    let passes = registry(opts.defer_divisions || opts.egraph.is_some());
    let mut report = OptimizeReport::default();
    let run_to_fixed_point = |k: &mut Kernel| -> Result<(), PassFailure> {
        for _round in 0..16 {
            let mut changed = false;
            for p in &passes {
                changed |= p.run(k);
                if opts.verify_each {
                    verify(k).map_err(|errors| PassFailure { pass: p.name(), errors })?;
                }
            }
            if !changed {
                break;
            }
        }
        Ok(())
    };
    if !opts.disabled {
        run_to_fixed_point(k)?;
    } else {
        unreachable::RemoveUnreachable.run(k);
    }
    if !opts.disabled {
        port_width::PortWidth.run(k);
        if opts.verify_each {
            verify(k).map_err(|errors| PassFailure { pass: "port-width", errors })?;
        }
    }
    // Legalizations, not optimizations: hardware computes floats with integer operations and
    // reaches wide ports only by words.
    if soft_float::SoftFloat.run(k) && !opts.disabled {
        let cleanup: [&dyn Pass; 3] = [&const_fold::ConstFold, &cse::Cse, &dce::Dce];
        for p in cleanup {
            p.run(k);
            if opts.verify_each {
                verify(k).map_err(|errors| PassFailure { pass: p.name(), errors })?;
            }
        }
    }
    if opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "soft-float", errors })?;
    }
    if widen::Widen.run(k) && !opts.disabled {
        dce::Dce.run(k);
    }
    if opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "widen", errors })?;
    }
    // The e-graph phase sees the datapath as the scheduler will (after the passes that shape
    // memory accesses, whose address patterns it must not disturb).
    if !opts.disabled
        && let Some(eg) = &opts.egraph
    {
        report.egraph = Some(egraph_phase(k, eg, opts.verify_each)?);
    }
    // A caller that defers divisions and runs no phase here runs it and finishes itself.
    if !opts.disabled && (opts.egraph.is_some() || !opts.defer_divisions) {
        finish_for_hardware(k, opts.verify_each, opts.lut_multiply_below, opts.first_addresses_in_outer_loops)?;
    }
    // Unoptimized, the shifts of soft float still need their hardware widths.
    if opts.disabled && shift_widths::ShiftWidths.run(k) && opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "shift-widths", errors })?;
    }
    *k = crate::compact::compact(k);
    if opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "compact", errors })?;
    }
    Ok(report)
}

/// The e-graph datapath phase on an optimized kernel, and a clean-up (folding and sharing what
/// it produced) when it changed something. Compacts the kernel.
pub fn egraph_phase(k: &mut Kernel, eg: &EgraphOptions, verify_each: bool) -> Result<EgraphReport, PassFailure> {
    let start = std::time::Instant::now();
    let mut ranges = crate::ranges::ValueRanges::compute(k);
    let narrowed = narrow_params::narrow_params(k, &mut ranges);
    if verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "narrow-params", errors })?;
    }
    if narrowed > 0 {
        // An edge that passes a narrowed parameter on unchanged truncates its extension.
        const_fold::ConstFold.run(k);
        if verify_each {
            verify(k).map_err(|errors| PassFailure { pass: "const-fold", errors })?;
        }
    }
    let mut r = optimize_kernel_with(k, eg, ranges);
    r.narrowed_params = narrowed;
    if verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "egraph", errors })?;
    }
    if r.changed() {
        let cleanup: [&dyn Pass; 3] = [&const_fold::ConstFold, &cse::Cse, &dce::Dce];
        for p in cleanup {
            p.run(k);
            if verify_each {
                verify(k).map_err(|errors| PassFailure { pass: p.name(), errors })?;
            }
        }
    }
    *k = crate::compact::compact(k);
    r.time = start.elapsed();
    Ok(r)
}

/// The last rewrites before scheduling, after the analyses that read the code as written are
/// done: variable shifts of widths that are not powers of two built at the next power of two
/// (`shift-widths`), the divisions and remainders by constants that the `-O1` passes left for the e-graph
/// phase ([`PipelineOptions::defer_divisions`]) and the phase did not rewrite itself, and the
/// tests of counted loops with constant bounds computed an iteration ahead (`exit-test`), and
/// less-than tests of bounded values made equalities (`bounded-compare`), and equality tests
/// of loop counters computed an iteration ahead (`carry-compare`), and accumulators
/// started from zero (`zero-accumulator`), and the addresses that loops step by constants
/// kept in loop parameters (`induction-address`; also inner loops' first addresses in the loops
/// around them with `first_addresses_in_outer_loops`), and multiplies with products narrower than
/// `lut_multiply_below` bits made partial products (`lut-multiply`); then folds and shares what
/// that produces, and compacts the kernel.
pub fn finish_for_hardware(
    k: &mut Kernel,
    verify_each: bool,
    lut_multiply_below: u32,
    first_addresses_in_outer_loops: bool,
) -> Result<(), PassFailure> {
    // `bounded-compare` after `exit-test`: a loop's own test must still be a less-than for
    // `exit-test` to carry it; `carry-compare` after `bounded-compare`, which makes the inner
    // test of a coalesced nest the equality it carries.
    let rewrites: [&dyn Pass; 8] = [
        &shift_widths::ShiftWidths,
        &strength::StrengthReduce { defer_odd_divisors: false },
        &exit_test::ExitTest { constant_bounds: true },
        &bounded_compare::BoundedCompare,
        &carry_compare::CarryCompare,
        &zero_accumulator::ZeroAccumulator,
        &induction_address::InductionAddress { first_addresses_in_outer_loops },
        &lut_multiply::LutMultiply { below: lut_multiply_below },
    ];
    let mut changed = false;
    for p in rewrites {
        changed |= p.run(k);
        if verify_each {
            verify(k).map_err(|errors| PassFailure { pass: p.name(), errors })?;
        }
    }
    if changed {
        let cleanup: [&dyn Pass; 3] = [&const_fold::ConstFold, &cse::Cse, &dce::Dce];
        for p in cleanup {
            p.run(k);
            if verify_each {
                verify(k).map_err(|errors| PassFailure { pass: p.name(), errors })?;
            }
        }
    }
    *k = crate::compact::compact(k);
    Ok(())
}
