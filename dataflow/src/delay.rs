//! `delay`: the dataflow IR's operations in the device model's terms ([`kiln_device::Operator`]),
//! so that the two users of the delay model agree on it: the scheduler, which chains
//! operators into clock cycles with it, and the e-graph phase, which extracts the shallowest of
//! equally small datapaths with it. The numbers are the device's (`kiln_device`).

use crate::ir::{BinOp, CmpOp, OpKind, UnOp};
use kiln_device::{Operator, OperatorDelays};

/// The operator of an operation in the device model's terms; `None` for what is not datapath
/// (memory, pipes, floats), whose delay depends on the memory system.
pub fn operator_of(kind: &OpKind) -> Option<Operator> {
    Some(match kind {
        OpKind::Const(_) | OpKind::Cast(_) => Operator::Wire,
        OpKind::Unary(UnOp::Not) => Operator::Logic,
        OpKind::Unary(UnOp::Neg) => Operator::Neg,
        OpKind::Binary(b) => match b {
            BinOp::Add => Operator::Add,
            BinOp::Sub => Operator::Sub,
            BinOp::And | BinOp::Or | BinOp::Xor => Operator::Logic,
            BinOp::Shl | BinOp::LShr | BinOp::AShr => Operator::Shift,
            BinOp::Mul => Operator::Mul,
            // Division runs in a multi-cycle unit; this is its per-cycle delay.
            BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => Operator::DivStep,
        },
        OpKind::Cmp(CmpOp::Eq | CmpOp::Ne) => Operator::Equal,
        OpKind::Cmp(_) => Operator::Compare,
        OpKind::Select => Operator::Select,
        _ => return None,
    })
}

/// Combinational delay of a datapath operation producing `width` bits from operands of
/// `in_width` bits; `None` for operations that are not datapath.
pub fn delay_ns(delays: &OperatorDelays, kind: &OpKind, width: u32, in_width: u32) -> Option<f64> {
    Some(delays.delay_ns(operator_of(kind)?, width, in_width))
}
