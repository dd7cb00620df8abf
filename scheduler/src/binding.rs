//! Binding of split multiplies to shared multipliers, for targets with few hardware multipliers
//! (`Timing::multiplier_blocks`): the UP5K's eight DSP blocks hold only two 32-bit multiplies
//! split into partial products, and a PolyBench kernel with a multiply in each of three loop
//! nests did not fit. rtl-gen builds one multiplier per [`SharedMultiplier`]; the scheduler
//! binds a first schedule to decide which multiplies register their operands (below).
//!
//! Two multiplies may share when they never occupy the same segment in the same cycle:
//! multiplies of different pipelines, or of a pipeline and the state machine (a pipeline runs in
//! one state of its own); multiplies of one pipeline that start in different phases of its
//! initiation interval (every segment advances with the pipeline, so each holds one operation
//! per cycle); and multiplies of the state machine in different blocks, or in one block over
//! cycles that do not overlap (a multi-cycle operation ends in the block it starts in). Only
//! multiplies of the same cycles and operand registering share (their segments advance
//! alike). The scheduler starts at most `Timing::multipliers_per_cycle` split multiplies per
//! cycle of a pipeline, so a pipeline's multiplies fit on that many multipliers; the state
//! machine's may need more when they overlap in one block.
//!
//! A multiplier shared by [`OPERAND_REGISTER_SITES`] multiplies or more selects its operands
//! through a multiplexer that, with the route into the `SB_MAC16`, did not fit a cycle on the
//! iCE40 (doitgen's ten sites 45.6 MHz, matmul's four 53.1); such multiplies register the
//! multiplexer's output in the fabric, a cycle more each (`Schedule::registered_operands`).
//! Registering every shared multiply's operands cost symm 8% more cycles for a lower Fmax.

use crate::schedule::{OpClass, Schedule};
use kiln_dataflow::ir::Op;
use std::collections::HashSet;

/// The fewest multiplies on one multiplier for which a first schedule's multiplies register
/// their operands.
pub const OPERAND_REGISTER_SITES: usize = 4;

/// Multiplies bound to one multiplier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedMultiplier {
    /// The widest multiply's width; a narrower one takes the low bits of the product of its
    /// zero-extended operands (the low `w` bits of a product depend only on the operands' low
    /// `w` bits).
    pub width: u32,
    pub cycles: u32,
    /// Whether the operands are registered before the multiplier blocks (a cycle of `cycles`).
    pub registered_operands: bool,
    pub ops: Vec<Op>,
}

/// The multipliers shared by two multiplies or more, when the device's blocks are fewer than
/// the kernel's multiplies would take (`Timing::multipliers_per_cycle`, which the scheduler
/// also honours in every pipeline); empty otherwise. Multiplies are bound first-fit, in the
/// order of the state machine's blocks, then the pipelines'.
pub fn shared_multipliers(s: &Schedule) -> Vec<SharedMultiplier> {
    let k = &s.kernel;
    if s.timing.multipliers_per_cycle(k).is_none() {
        return Vec::new();
    }
    let mut bound: Vec<SharedMultiplier> = Vec::new();
    for op in s.scheduled_ops() {
        let OpClass::Multi(cycles) = s.class(op) else { continue };
        if !s.timing.splits_multiply(k, op) {
            continue;
        }
        let width = k.ops[op].result.map(|r| k.width(r)).unwrap_or(1);
        let registered_operands = s.registered_operands.contains(&op);
        let free = bound.iter_mut().find(|m| {
            m.cycles == cycles
                && m.registered_operands == registered_operands
                && m.ops.iter().all(|other| !overlap(s, op, *other, cycles))
        });
        match free {
            Some(m) => {
                m.width = m.width.max(width);
                m.ops.push(op);
            }
            None => bound.push(SharedMultiplier { width, cycles, registered_operands, ops: vec![op] }),
        }
    }
    bound.retain(|m| m.ops.len() > 1);
    bound
}

/// Whether multiplies `a` and `b`, both `cycles` long, may hold a segment of one multiplier in
/// the same cycle.
fn overlap(s: &Schedule, a: Op, b: Op, cycles: u32) -> bool {
    let k = &s.kernel;
    let (ba, bb) = (k.ops[a].block, k.ops[b].block);
    let (sa, sb) = (s.time[a].start, s.time[b].start);
    match (s.pipeline_of[ba], s.pipeline_of[bb]) {
        (Some(pa), Some(pb)) => pa == pb && sa % s.pipeline(pa).ii == sb % s.pipeline(pa).ii,
        (None, None) => ba == bb && sa < sb + cycles && sb < sa + cycles,
        _ => false,
    }
}

/// The multiplier blocks a schedule's multiplies take once bound: each shared multiplier as many
/// as its widest multiply, every other multiply its own (`Timing::multiplier_blocks_of`).
pub fn multiplier_blocks_used(s: &Schedule) -> u32 {
    let k = &s.kernel;
    let shared = shared_multipliers(s);
    let on_shared: HashSet<Op> = shared.iter().flat_map(|m| m.ops.iter().copied()).collect();
    let by_multiplier: u32 =
        shared.iter().map(|m| m.ops.iter().map(|op| s.timing.multiplier_blocks_of(k, *op)).max().unwrap_or(0)).sum();
    let alone: u32 = s
        .scheduled_ops()
        .into_iter()
        .filter(|op| !on_shared.contains(op))
        .map(|op| s.timing.multiplier_blocks_of(k, op))
        .sum();
    by_multiplier + alone
}

/// The multiplies that register their operands: those a schedule binds to a multiplier with
/// [`OPERAND_REGISTER_SITES`] multiplies or more.
pub fn operand_registering_multiplies(s: &Schedule) -> Vec<Op> {
    shared_multipliers(s).into_iter().filter(|m| m.ops.len() >= OPERAND_REGISTER_SITES).flat_map(|m| m.ops).collect()
}
