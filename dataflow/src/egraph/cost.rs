//! The hardware cost model the e-graph extracts with: area (in logic cells, with DSP blocks
//! weighed as [`DSP_WEIGHT`] cells) and delay (in nanoseconds) of each operator as a function
//! of its width, per target.
//!
//! Area comes from [`MEASURED`], which `bench/egraph/measure-costs --rust` printed: each operator
//! alone, synthesized by Yosys (`synth_ice40 -dsp`, `synth_ecp5`), at the widths it lists; other
//! widths interpolate linearly. Operators that are wiring in hardware (casts, shifts by a
//! constant, masks with a constant) cost nothing. Delay is the scheduler's model
//! ([`crate::delay`], the target's numbers fitted to nextpnr's routed paths), which the driver
//! passes in [`super::EgraphOptions::delays`].

use super::analysis::HwGraph;
use super::lang::Hw;
use crate::delay::OperatorDelays;
use egg::Language;

/// The device a kernel is built for, as far as the cost of operators goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CostTarget {
    /// A LUT4 FPGA with DSP blocks; uses the ECP5 measurements.
    #[default]
    Generic,
    Ice40Up5k,
    Ecp5,
}

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

/// (operator, width, iCE40 logic cells, iCE40 DSPs, ECP5 LUT4s (a CCU2C counts 2), ECP5 DSPs),
/// as printed by `bench/egraph/measure-costs --rust`.
const MEASURED: &[(&str, u32, u32, u32, u32, u32)] = &[
    ("add", 1, 1, 0, 1, 0),
    ("add", 8, 8, 0, 8, 0),
    ("add", 16, 16, 0, 16, 0),
    ("add", 32, 32, 0, 32, 0),
    ("add", 64, 64, 0, 64, 0),
    ("sub", 1, 1, 0, 1, 0),
    ("sub", 8, 15, 0, 8, 0),
    ("sub", 16, 31, 0, 16, 0),
    ("sub", 32, 63, 0, 32, 0),
    ("sub", 64, 127, 0, 64, 0),
    ("mul", 8, 67, 0, 0, 1),
    ("mul", 16, 0, 1, 0, 1),
    ("mul", 32, 0, 3, 28, 3),
    ("and", 1, 1, 0, 1, 0),
    ("and", 8, 8, 0, 8, 0),
    ("and", 16, 16, 0, 16, 0),
    ("and", 32, 32, 0, 32, 0),
    ("and", 64, 64, 0, 64, 0),
    ("xor", 1, 1, 0, 1, 0),
    ("xor", 8, 8, 0, 8, 0),
    ("xor", 16, 16, 0, 16, 0),
    ("xor", 32, 32, 0, 32, 0),
    ("xor", 64, 64, 0, 64, 0),
    ("not", 1, 1, 0, 1, 0),
    ("not", 8, 8, 0, 8, 0),
    ("not", 16, 16, 0, 16, 0),
    ("not", 32, 32, 0, 32, 0),
    ("not", 64, 64, 0, 64, 0),
    ("neg", 8, 14, 0, 8, 0),
    ("neg", 16, 30, 0, 16, 0),
    ("neg", 32, 62, 0, 32, 0),
    ("neg", 64, 126, 0, 64, 0),
    ("shl", 8, 19, 0, 22, 0),
    ("shl", 16, 55, 0, 98, 0),
    ("shl", 32, 141, 0, 207, 0),
    ("shl", 64, 348, 0, 641, 0),
    ("lshr", 8, 19, 0, 22, 0),
    ("lshr", 16, 55, 0, 94, 0),
    ("lshr", 32, 141, 0, 210, 0),
    ("lshr", 64, 348, 0, 632, 0),
    ("ashr", 8, 21, 0, 24, 0),
    ("ashr", 16, 60, 0, 101, 0),
    ("ashr", 32, 155, 0, 234, 0),
    ("ashr", 64, 378, 0, 678, 0),
    ("eq", 1, 1, 0, 1, 0),
    ("eq", 8, 5, 0, 5, 0),
    ("eq", 16, 11, 0, 12, 0),
    ("eq", 32, 23, 0, 25, 0),
    ("eq", 64, 49, 0, 77, 0),
    ("ult", 1, 1, 0, 1, 0),
    ("ult", 8, 9, 0, 9, 0),
    ("ult", 16, 17, 0, 17, 0),
    ("ult", 32, 33, 0, 33, 0),
    ("ult", 64, 65, 0, 65, 0),
    ("slt", 1, 1, 0, 1, 0),
    ("slt", 8, 9, 0, 10, 0),
    ("slt", 16, 17, 0, 18, 0),
    ("slt", 32, 33, 0, 34, 0),
    ("slt", 64, 65, 0, 66, 0),
    ("select", 1, 1, 0, 1, 0),
    ("select", 8, 8, 0, 8, 0),
    ("select", 16, 16, 0, 16, 0),
    ("select", 32, 32, 0, 32, 0),
    ("select", 64, 64, 0, 64, 0),
    ("udiv", 8, 107, 0, 459, 0),
    ("udiv", 16, 408, 0, 2261, 0),
    ("udiv", 32, 1489, 0, 8942, 0),
];

impl CostTarget {
    fn measured(self, op: &str, width: u32) -> Option<f64> {
        let cells = |r: &(&str, u32, u32, u32, u32, u32)| match self {
            CostTarget::Ice40Up5k => r.2 as f64 + DSP_WEIGHT * r.3 as f64,
            CostTarget::Ecp5 | CostTarget::Generic => r.4 as f64 + DSP_WEIGHT * r.5 as f64,
        };
        // The rows of one operator are consecutive, by increasing width (no allocation: the
        // extraction asks this for every e-node).
        let mut previous: Option<(u32, f64)> = None;
        for r in MEASURED.iter().filter(|r| r.0 == op) {
            let (w1, c1) = (r.1, cells(r));
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
}

/// What extraction weighs: the area of the target's operators and their delays (the
/// scheduler's model, [`crate::delay`], fitted to nextpnr's routed paths).
#[derive(Clone, Copy, Debug)]
pub struct CostModel {
    pub target: CostTarget,
    pub delays: OperatorDelays,
}

impl CostModel {
    /// Area of one e-node in logic cells.
    pub fn area(self, node: &Hw, g: &HwGraph) -> f64 {
        self.target.area(node, g)
    }

    /// Delay of one e-node in nanoseconds.
    pub fn delay(self, node: &Hw, g: &HwGraph) -> f64 {
        let c = node.children();
        let w = |i: usize| g[c[i]].data.width;
        let is_const = |i: usize| g[c[i]].data.constant.is_some();
        let d = &self.delays;
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
                    d.delay_ns(&kind, width, w(0)).unwrap_or(0.0)
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
