//! The e-graph language: kiln's pure integer operations, one e-node per [`OpKind`].
//!
//! Widths are not spelled on the operators: an e-class's width is part of its analysis data
//! ([`super::analysis::Facts`]), derived from the operands like the IR derives it. Only the
//! nodes that create a width carry one: constants (`#value:width`), leaves (`v12`, the width is
//! in the analysis' leaf table) and the target width of a cast (`(zext ?x w16)`).

use crate::ir::{BinOp, CastOp, CmpOp, OpKind, UnOp};
use egg::{Id, define_language};
use std::fmt;
use std::str::FromStr;

/// A constant: the low `width` bits of `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bits {
    pub value: u64,
    pub width: u32,
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}:{}", self.value, self.width)
    }
}

impl FromStr for Bits {
    type Err = ();
    fn from_str(s: &str) -> Result<Bits, ()> {
        let (v, w) = s.strip_prefix('#').ok_or(())?.split_once(':').ok_or(())?;
        Ok(Bits { value: v.parse().map_err(|_| ())?, width: w.parse().map_err(|_| ())? })
    }
}

/// The target width of a cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Width(pub u32);

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "w{}", self.0)
    }
}

impl FromStr for Width {
    type Err = ();
    fn from_str(s: &str) -> Result<Width, ()> {
        Ok(Width(s.strip_prefix('w').ok_or(())?.parse().map_err(|_| ())?))
    }
}

/// A value the region does not compute (a block parameter, a load, a value of another block):
/// an opaque input, by its index in the region's leaf table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Leaf(pub u32);

impl fmt::Display for Leaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl FromStr for Leaf {
    type Err = ();
    fn from_str(s: &str) -> Result<Leaf, ()> {
        Ok(Leaf(s.strip_prefix('v').ok_or(())?.parse().map_err(|_| ())?))
    }
}

define_language! {
    /// Pure integer operations on bit vectors, with the semantics of [`crate::ir::op::eval`].
    pub enum Hw {
        "add" = Add([Id; 2]),
        "sub" = Sub([Id; 2]),
        "mul" = Mul([Id; 2]),
        "udiv" = UDiv([Id; 2]),
        "sdiv" = SDiv([Id; 2]),
        "urem" = URem([Id; 2]),
        "srem" = SRem([Id; 2]),
        "and" = And([Id; 2]),
        "or" = Or([Id; 2]),
        "xor" = Xor([Id; 2]),
        "shl" = Shl([Id; 2]),
        "lshr" = LShr([Id; 2]),
        "ashr" = AShr([Id; 2]),
        "neg" = Neg(Id),
        "not" = Not(Id),
        "eq" = Eq([Id; 2]),
        "ne" = Ne([Id; 2]),
        "ult" = Ult([Id; 2]),
        "ule" = Ule([Id; 2]),
        "ugt" = Ugt([Id; 2]),
        "uge" = Uge([Id; 2]),
        "slt" = Slt([Id; 2]),
        "sle" = Sle([Id; 2]),
        "sgt" = Sgt([Id; 2]),
        "sge" = Sge([Id; 2]),
        "select" = Select([Id; 3]),
        "zext" = Zext([Id; 2]),
        "sext" = Sext([Id; 2]),
        "trunc" = Trunc([Id; 2]),
        Const(Bits),
        Width(Width),
        Leaf(Leaf),
    }
}

impl Hw {
    /// The IR operation this node computes, and how many of its children are operands (a
    /// cast's width child is not one). `None` for leaves and width literals.
    pub fn op_kind(&self) -> Option<(OpKind, usize)> {
        use Hw::*;
        let bin = |b| Some((OpKind::Binary(b), 2));
        let cmp = |c| Some((OpKind::Cmp(c), 2));
        match self {
            Add(_) => bin(BinOp::Add),
            Sub(_) => bin(BinOp::Sub),
            Mul(_) => bin(BinOp::Mul),
            UDiv(_) => bin(BinOp::UDiv),
            SDiv(_) => bin(BinOp::SDiv),
            URem(_) => bin(BinOp::URem),
            SRem(_) => bin(BinOp::SRem),
            And(_) => bin(BinOp::And),
            Or(_) => bin(BinOp::Or),
            Xor(_) => bin(BinOp::Xor),
            Shl(_) => bin(BinOp::Shl),
            LShr(_) => bin(BinOp::LShr),
            AShr(_) => bin(BinOp::AShr),
            Neg(_) => Some((OpKind::Unary(UnOp::Neg), 1)),
            Not(_) => Some((OpKind::Unary(UnOp::Not), 1)),
            Eq(_) => cmp(CmpOp::Eq),
            Ne(_) => cmp(CmpOp::Ne),
            Ult(_) => cmp(CmpOp::Ult),
            Ule(_) => cmp(CmpOp::Ule),
            Ugt(_) => cmp(CmpOp::Ugt),
            Uge(_) => cmp(CmpOp::Uge),
            Slt(_) => cmp(CmpOp::Slt),
            Sle(_) => cmp(CmpOp::Sle),
            Sgt(_) => cmp(CmpOp::Sgt),
            Sge(_) => cmp(CmpOp::Sge),
            Select(_) => Some((OpKind::Select, 3)),
            Zext(_) => Some((OpKind::Cast(CastOp::Zext), 1)),
            Sext(_) => Some((OpKind::Cast(CastOp::Sext), 1)),
            Trunc(_) => Some((OpKind::Cast(CastOp::Trunc), 1)),
            Const(b) => Some((OpKind::Const(b.value), 0)),
            Width(_) | Leaf(_) => None,
        }
    }

    /// The node for an IR operation with operand classes `args` (and, for casts, the class of
    /// the target width). `None` for operations the e-graph does not model.
    pub fn from_op(kind: &OpKind, args: &[Id], width: u32, width_class: Option<Id>) -> Option<Hw> {
        use Hw::*;
        let two = || -> Option<[Id; 2]> { Some([*args.first()?, *args.get(1)?]) };
        Some(match kind {
            OpKind::Const(v) => Const(Bits { value: *v, width }),
            OpKind::Unary(UnOp::Neg) => Neg(*args.first()?),
            OpKind::Unary(UnOp::Not) => Not(*args.first()?),
            OpKind::Binary(b) => {
                let a = two()?;
                match b {
                    BinOp::Add => Add(a),
                    BinOp::Sub => Sub(a),
                    BinOp::Mul => Mul(a),
                    BinOp::UDiv => UDiv(a),
                    BinOp::SDiv => SDiv(a),
                    BinOp::URem => URem(a),
                    BinOp::SRem => SRem(a),
                    BinOp::And => And(a),
                    BinOp::Or => Or(a),
                    BinOp::Xor => Xor(a),
                    BinOp::Shl => Shl(a),
                    BinOp::LShr => LShr(a),
                    BinOp::AShr => AShr(a),
                }
            }
            OpKind::Cmp(c) => {
                let a = two()?;
                match c {
                    CmpOp::Eq => Eq(a),
                    CmpOp::Ne => Ne(a),
                    CmpOp::Ult => Ult(a),
                    CmpOp::Ule => Ule(a),
                    CmpOp::Ugt => Ugt(a),
                    CmpOp::Uge => Uge(a),
                    CmpOp::Slt => Slt(a),
                    CmpOp::Sle => Sle(a),
                    CmpOp::Sgt => Sgt(a),
                    CmpOp::Sge => Sge(a),
                }
            }
            OpKind::Select => Select([*args.first()?, *args.get(1)?, *args.get(2)?]),
            OpKind::Cast(c) => {
                let a = [*args.first()?, width_class?];
                match c {
                    CastOp::Zext => Zext(a),
                    CastOp::Sext => Sext(a),
                    CastOp::Trunc => Trunc(a),
                }
            }
            _ => return None,
        })
    }

    /// Whether the e-graph models this IR operation.
    pub fn models(kind: &OpKind) -> bool {
        matches!(
            kind,
            OpKind::Const(_) | OpKind::Unary(_) | OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Cast(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_print_and_parse_back() {
        let e: egg::RecExpr<Hw> = "(zext (add v0 #3:8) w32)".parse().expect("parses");
        assert_eq!(e.to_string(), "(zext (add v0 #3:8) w32)");
    }
}
