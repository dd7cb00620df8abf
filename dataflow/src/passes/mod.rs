//! Optimization passes over the dataflow IR, one per file, and the pipeline that runs them.
//!
//! Every pass keeps the IR valid (see [`crate::verify`]); the pipeline runs the verifier after
//! each pass when asked to, and reports which pass broke an invariant.

mod const_fold;
mod cse;
mod dce;
mod if_convert;
mod merge_blocks;
mod partition;
mod scalarize;
mod simplify_params;
mod strength;
mod unreachable;
mod widen;

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

/// Every pass, in pipeline order.
pub fn registry() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(unreachable::RemoveUnreachable),
        Box::new(simplify_params::SimplifyParams),
        Box::new(const_fold::ConstFold),
        Box::new(strength::StrengthReduce),
        Box::new(cse::Cse),
        Box::new(merge_blocks::MergeBlocks),
        Box::new(scalarize::Scalarize),
        Box::new(partition::Partition),
        Box::new(if_convert::IfConvert),
        Box::new(dce::Dce),
    ]
}

#[derive(Clone, Debug, Default)]
pub struct PipelineOptions {
    /// Run the verifier after every pass.
    pub verify_each: bool,
    /// Run no passes at all (only the final compaction).
    pub disabled: bool,
}

/// A pass that left the IR invalid.
#[derive(Debug)]
pub struct PassFailure {
    pub pass: &'static str,
    pub errors: Vec<VerifierError>,
}

/// Runs the passes to a fixed point (bounded), then compacts the kernel.
pub fn optimize(k: &mut Kernel, opts: &PipelineOptions) -> Result<(), PassFailure> {
    let passes = registry();
    if !opts.disabled {
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
    } else {
        unreachable::RemoveUnreachable.run(k);
    }
    // A legalization, not an optimization: hardware reaches vector buffers only by words.
    if widen::Widen.run(k) && !opts.disabled {
        dce::Dce.run(k);
    }
    if opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "widen", errors })?;
    }
    *k = crate::compact::compact(k);
    if opts.verify_each {
        verify(k).map_err(|errors| PassFailure { pass: "compact", errors })?;
    }
    Ok(())
}
