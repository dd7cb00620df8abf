//! `delay`: how long a datapath operator takes, in nanoseconds, as a function of its width —
//! one model, with per-target numbers fitted to nextpnr's routed paths
//! (`bench/boards/measure-delays`), for the two users that must agree on it: the scheduler,
//! which chains operators into clock cycles with it, and the e-graph phase, which extracts the
//! shallowest of equally small datapaths with it.
//!
//! The model is structural: a LUT level, a carry chain that grows with the width and is
//! entered through a LUT (with a surcharge past 32 bits, where it crosses more tiles), an
//! inverted carry operand (subtract, ordered compare) where the carry cell cannot invert one,
//! equality as a carry chain or as a tree of 4-input LUTs, multipliers
//! in DSP blocks of 16 × 16 bits. Memory, pipe and float operators are the scheduler's own
//! business (they depend on the memory system), so [`OperatorDelays::delay_ns`] knows only
//! the datapath.

use crate::ir::{BinOp, CmpOp, OpKind, UnOp};

/// The delay parameters of a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OperatorDelays {
    /// One LUT level with its local routing.
    pub lut_ns: f64,
    /// Carry-chain delay per bit.
    pub carry_ns_per_bit: f64,
    /// A 16 × 16 multiply in a DSP block.
    pub dsp_ns: f64,
    /// What an inverted carry operand adds (subtract, ordered compare, negate): a LUT level on
    /// the iCE40, whose carry cell cannot invert an input; nothing where it can.
    pub carry_invert_ns: f64,
    /// Whether equality is a tree of LUTs (measured on the iCE40) rather than a carry chain.
    pub equality_lut_tree: bool,
    /// What a carry chain of more than 32 bits takes beyond its per-bit delay: the hops between
    /// the logic tiles a long chain crosses, which the per-bit fit of shorter chains misses.
    pub wide_chain_ns: f64,
}

impl OperatorDelays {
    /// A LUT4 FPGA with fast carry chains and DSP blocks, not fitted to a part.
    pub const GENERIC: OperatorDelays = OperatorDelays {
        lut_ns: 0.6,
        carry_ns_per_bit: 0.05,
        dsp_ns: 3.0,
        carry_invert_ns: 0.0,
        equality_lut_tree: false,
        wide_chain_ns: 0.0,
    };

    /// Combinational delay of a datapath operator producing `width` bits from operands of
    /// `in_width` bits; `None` for operators that are not datapath (memory, pipes, floats).
    pub fn delay_ns(&self, kind: &OpKind, width: u32, in_width: u32) -> Option<f64> {
        let lut = self.lut_ns;
        let carry = |w: u32| self.carry_chain_ns(w);
        let levels = |n: u32| (n.max(2) as f64).log2().ceil();
        Some(match kind {
            OpKind::Const(_) | OpKind::Cast(_) => 0.0,
            OpKind::Unary(UnOp::Not) => lut,
            OpKind::Unary(UnOp::Neg) => carry(width) + self.carry_invert_ns,
            OpKind::Binary(b) => match b {
                BinOp::Add => carry(width),
                BinOp::Sub => carry(width) + self.carry_invert_ns,
                BinOp::And | BinOp::Or | BinOp::Xor => lut,
                BinOp::Shl | BinOp::LShr | BinOp::AShr => lut * levels(width),
                BinOp::Mul => self.dsp_ns * width.div_ceil(16) as f64 + carry(width),
                // Division runs in a multi-cycle unit; this is its per-cycle delay.
                BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => carry(width) + lut,
            },
            OpKind::Cmp(CmpOp::Eq | CmpOp::Ne) if self.equality_lut_tree => {
                // Pairs of bits compared in the first level, then an AND tree of 4-input LUTs.
                lut * (1.0 + (in_width.max(2) as f64).log(4.0).ceil())
            }
            OpKind::Cmp(_) => carry(in_width) + self.carry_invert_ns,
            OpKind::Select => lut,
            _ => return None,
        })
    }

    /// A carry chain of `width` bits entered through a LUT (an adder).
    pub fn carry_chain_ns(&self, width: u32) -> f64 {
        let wide = if width > 32 { self.wide_chain_ns } else { 0.0 };
        self.lut_ns + self.carry_ns_per_bit * width as f64 + wide
    }
}
