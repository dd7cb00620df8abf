//! The hardware cost model the e-graph extracts with: area (in logic cells, with DSP blocks
//! weighed as [`DSP_WEIGHT`] cells) and delay (in nanoseconds) of each operator as a function
//! of its width, on the device of [`super::EgraphOptions::device`].
//!
//! Area comes from the device model's measurements (`kiln_device::Device::area_rows`, which
//! `bench/egraph/measure-costs --rust` printed: each operator alone, synthesized by Yosys, at
//! the widths it lists); other widths interpolate linearly. Operators that are wiring in
//! hardware (casts, shifts by a constant, masks with a constant) cost nothing. Delay is the
//! scheduler's model ([`crate::delay`], the device's numbers fitted to nextpnr's routed paths).

use super::analysis::HwGraph;
use super::lang::Hw;
use egg::Language;
use kiln_device::Device;

/// How many logic cells one DSP block is worth: DSP blocks are scarce (8 on an UP5K next to
/// 5,280 cells), so a design that saves one at the price of a few dozen cells is better.
pub const DSP_WEIGHT: f64 = 64.0;

/// Delay of a loop-carried value entering a loop header, in nanoseconds: large, so that depth-
/// minimal extraction combines the recurrence last (tree-height reduction of recurrences).
pub const RECURRENCE_ARRIVAL: f64 = 1000.0;

/// Delay of a value an op of the block computes outside the region (a load's read data, a
/// float result) entering it, in nanoseconds: such a value comes out of a register a cycle or
/// more into the block, while values from other blocks are there from its first cycle, so
/// depth-minimal extraction combines the values from other blocks first (`(3 * b) * load`,
/// whose `3 * b` the schedule computes before the load returns, not `b * (3 * load)`).
pub const IN_BLOCK_ARRIVAL: f64 = 100.0;

/// What extraction weighs: the area of the device's operators and their delays (the
/// scheduler's model, [`crate::delay`], fitted to nextpnr's routed paths).
#[derive(Clone, Copy, Debug)]
pub struct CostModel {
    pub device: &'static Device,
}

impl CostModel {
    fn measured(self, op: &str, width: u32) -> Option<f64> {
        let cells = |r: &kiln_device::AreaRow| r.cells() as f64 + DSP_WEIGHT * r.dsps() as f64;
        // The rows of one operator are consecutive, by increasing width (no allocation: the
        // extraction asks this for every e-node).
        let mut previous: Option<(u32, f64)> = None;
        for r in self.device.area_rows().iter().filter(|r| r.operator() == op) {
            let (w1, c1) = (r.width(), cells(r));
            match previous {
                None if width <= w1 => return Some(c1 * width as f64 / w1 as f64),
                Some((w0, c0)) if width <= w1 => return Some(c0 + (c1 - c0) * (width - w0) as f64 / (w1 - w0) as f64),
                _ => previous = Some((w1, c1)),
            }
        }
        let (wl, cl) = previous?;
        // Beyond the widest measurement: grow with the square for multipliers and dividers,
        // linearly otherwise.
        let ratio = width as f64 / wl as f64;
        Some(if matches!(op, "mul" | "udiv") { cl * ratio * ratio } else { cl * ratio })
    }

    /// Area of one e-node in logic cells.
    pub fn area(self, node: &Hw, g: &HwGraph) -> f64 {
        let c = node.children();
        let w = |i: usize| g[c[i]].data.width;
        let is_const = |i: usize| g[c[i]].data.constant.is_some();
        let by = |op: &str, width: u32| self.measured(op, width).unwrap_or(width as f64);
        match node {
            Hw::Const(_) | Hw::Width(_) | Hw::Leaf(_) | Hw::Zext(_) | Hw::Sext(_) | Hw::Trunc(_) => 0.0,
            Hw::Shl(_) | Hw::LShr(_) | Hw::AShr(_) if is_const(1) => 0.0,
            Hw::And(_) | Hw::Or(_) if is_const(0) || is_const(1) => 0.0,
            Hw::Add(_) => by("add", w(0)),
            // Less a constant is plus its negation: the same adder (the measured subtractor
            // inverts a variable operand). Its delay stays the scheduler's subtractor, so that
            // the phase and the scheduler agree on it (`crate::delay`).
            Hw::Sub(_) if is_const(1) => by("add", w(0)),
            Hw::Sub(_) => by("sub", w(0)),
            // Synthesis turns a multiplication by a constant into shifts and adds itself (the
            // measurements are of two variable operands), so it costs its digits' adders: the
            // signed digits' (a subtractor for each negative one) or the binary ones, the cheaper.
            Hw::Mul(_) if is_const(0) || is_const(1) => {
                let c = g[c[if is_const(1) { 1 } else { 0 }]].data.constant.unwrap_or(0);
                let signed = super::rules::canonical_signed_digits(c, w(0));
                let negative = signed.iter().filter(|(_, n)| *n).count() as f64;
                let positive = signed.len() as f64 - negative;
                let csd = by("add", w(0)) * (positive - 1.0).max(0.0) + by("sub", w(0)) * negative;
                let binary = by("add", w(0)) * ((c & crate::ir::op::mask(w(0))).count_ones() as f64 - 1.0).max(0.0);
                csd.min(binary)
            }
            Hw::Mul(_) => by("mul", w(0)),
            // A division by a constant that the phase leaves is rewritten after it into a
            // multiplication by the reciprocal (`passes::strength`): it costs that.
            Hw::UDiv(_) | Hw::SDiv(_) | Hw::URem(_) | Hw::SRem(_) if is_const(1) => {
                let d = g[c[1]].data.constant.unwrap_or(0);
                let signed = matches!(node, Hw::SDiv(_) | Hw::SRem(_));
                let remainder = matches!(node, Hw::URem(_) | Hw::SRem(_));
                match division_by_constant_multiplier(d, w(0)) {
                    // By 0 the divider stays (its result is defined); by 1, by powers of two and
                    // by more than half the range it is wiring, a shift or a comparison.
                    None if d & crate::ir::op::mask(w(0)) == 0 => by("udiv", w(0)),
                    None => by("ult", w(0)),
                    Some(m) => {
                        let digits = super::rules::canonical_signed_digits(m, 2 * w(0)).len();
                        let product = by("add", 2 * w(0)) * digits.saturating_sub(1) as f64;
                        let fixup = 3.0 * by("add", w(0));
                        let sign = if signed { 2.0 * (by("neg", w(0)) + by("select", w(0))) } else { 0.0 };
                        let back = if remainder { 2.0 * by("add", w(0)) } else { 0.0 };
                        product + fixup + sign + back
                    }
                }
            }
            Hw::UDiv(_) | Hw::SDiv(_) | Hw::URem(_) | Hw::SRem(_) => by("udiv", w(0)),
            Hw::And(_) => by("and", w(0)),
            Hw::Or(_) => by("and", w(0)),
            Hw::Xor(_) => by("xor", w(0)),
            Hw::Not(_) => by("not", w(0)),
            Hw::Neg(_) => by("neg", w(0)),
            Hw::Shl(_) => by("shl", w(0)),
            Hw::LShr(_) => by("lshr", w(0)),
            Hw::AShr(_) => by("ashr", w(0)),
            Hw::Eq(_) | Hw::Ne(_) => by("eq", w(0)),
            Hw::Ult(_) | Hw::Ule(_) | Hw::Ugt(_) | Hw::Uge(_) => by("ult", w(0)),
            Hw::Slt(_) | Hw::Sle(_) | Hw::Sgt(_) | Hw::Sge(_) => by("slt", w(0)),
            Hw::Select(_) => by("select", w(1)),
        }
    }

    /// Delay of one e-node in nanoseconds.
    pub fn delay(self, node: &Hw, g: &HwGraph) -> f64 {
        let c = node.children();
        let w = |i: usize| g[c[i]].data.width;
        let is_const = |i: usize| g[c[i]].data.constant.is_some();
        let d = &self.device.operators;
        match node {
            Hw::Const(_) | Hw::Width(_) | Hw::Leaf(_) | Hw::Zext(_) | Hw::Sext(_) | Hw::Trunc(_) => 0.0,
            // Wiring: shifts by a constant, masks with a constant.
            Hw::Shl(_) | Hw::LShr(_) | Hw::AShr(_) if is_const(1) => 0.0,
            Hw::And(_) | Hw::Or(_) if is_const(0) || is_const(1) => 0.0,
            // Shifts and adds of its signed digits (see `area`).
            Hw::Mul(_) if is_const(0) || is_const(1) => 2.0 * d.carry_chain_ns(w(0)),
            // The reciprocal multiply a division by a constant becomes after the phase.
            Hw::UDiv(_) | Hw::SDiv(_) | Hw::URem(_) | Hw::SRem(_) if is_const(1) => {
                2.0 * d.carry_chain_ns(2 * w(0)) + 3.0 * d.carry_chain_ns(w(0))
            }
            // A divider computes one quotient bit per cycle.
            Hw::UDiv(_) | Hw::SDiv(_) | Hw::URem(_) | Hw::SRem(_) => w(0) as f64 * d.carry_chain_ns(w(0)),
            _ => match node.op_kind() {
                Some((kind, _)) => {
                    // Operands and result have one width, but for a select's condition.
                    let width = if matches!(node, Hw::Select(_)) { w(1) } else { w(0) };
                    crate::delay::delay_ns(d, &kind, width, w(0)).unwrap_or(0.0)
                }
                None => 0.0,
            },
        }
    }
}

/// The multiplier `passes::strength` divides a `w`-bit number by the constant `d` with (the
/// magnitude of `d` for signed division); `None` when no multiplier is needed (0, 1, powers of
/// two, divisors above half the range).
fn division_by_constant_multiplier(d: u64, w: u32) -> Option<u64> {
    let m = crate::ir::op::mask(w);
    let d = d & m;
    let d = if crate::ir::op::sext(d, w) < 0 { d.wrapping_neg() & m } else { d };
    if d <= 1 || d.is_power_of_two() || d > m >> 1 || w > 32 {
        return None;
    }
    let l = 64 - (d - 1).leading_zeros();
    Some(((((1u128 << l) - d as u128) << w) / d as u128 + 1) as u64)
}
