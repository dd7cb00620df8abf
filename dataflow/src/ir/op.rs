//! Operations and their exact semantics.
//!
//! [`eval`] is the single definition of what every operation computes, bit for bit. The emulator
//! and the cycle-accurate simulator both call it; the Verilog emitter implements the same
//! semantics independently, which is what co-simulation checks.
//!
//! Deterministic conventions where C leaves values unspecified (documented in README):
//! - shifts use the count modulo the operand width (OpenCL C 6.5.10);
//! - `x / 0` is all ones (`-1` signed, `UINT_MAX` unsigned) and `x % 0` is `x`;
//! - signed `MIN / -1` is `MIN` and `MIN % -1` is `0`.

pub use super::float::{FCmpOp, FloatConv, FloatOp, Round};
use super::{Mem, Pipe};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    And,
    Or,
    Xor,
    /// `a << (b mod width(a))`.
    Shl,
    /// Logical right shift by `b mod width(a)`.
    LShr,
    /// Arithmetic right shift by `b mod width(a)`.
    AShr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Zext,
    Sext,
    Trunc,
}

/// What an operation does. Operand and result widths are in the kernel's value table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// A constant (the low `width` bits of the value).
    Const(u64),
    Unary(UnOp),
    Binary(BinOp),
    /// Compares two operands of equal width; the result is 1 bit.
    Cmp(CmpOp),
    /// `args[0] ? args[1] : args[2]` with a 1-bit condition.
    Select,
    Cast(CastOp),
    /// Floating-point arithmetic and math functions on binary32 bit patterns (see
    /// [`FloatOp::shape`] for the operands; `super::float` for the exact semantics).
    Float(FloatOp),
    /// Compares two binary32 operands; the result is 1 bit.
    FCmp(FCmpOp),
    /// A conversion between an integer or float format and a float format.
    FConv(FloatConv),
    /// Reads element `args[0]` of a memory; the result has the memory's element width. An
    /// optional 1-bit `args[1]` predicates the access: when it is 0 nothing is read (no request,
    /// no bounds check) and the result is 0.
    Load(Mem),
    /// Writes `args[1]` to element `args[0]` of a memory. No result. An optional 1-bit `args[2]`
    /// predicates the write.
    Store(Mem),
    /// Reads, with one request, the word of a memory port (`MemData::lanes` elements) holding
    /// element `args[0]`. The 1-bit result is 1; the lanes are read with [`OpKind::WordLane`]
    /// and [`OpKind::WordLaneAt`]. An optional 1-bit `args[1]` predicates the access.
    WordLoad(Mem),
    /// Lane `lane` of the word the `WordLoad` whose result is `args[0]` read (0 when it was
    /// predicated off); scheduled with that load's response.
    WordLane {
        mem: Mem,
        lane: u32,
    },
    /// The lane holding element `args[1]` of the word the `WordLoad` whose result is `args[0]`
    /// read (element `args[1]` itself, when the load read `args[1]`'s word).
    WordLaneAt(Mem),
    /// Writes, with one request, the lanes set in `mask` of the word holding element `args[0]`:
    /// `args[1..]` are their values in lane order. No result; an optional 1-bit predicate last.
    WordStore {
        mem: Mem,
        mask: u32,
    },
    /// Writes element `args[0]` (its lane of its word) with `args[1]`. No result; an optional
    /// 1-bit `args[2]` predicates it.
    WordStoreAt(Mem),
    /// Takes one packet from a pipe. Blocking: waits until a packet is there; the result is 1.
    /// Non-blocking: the result is 1 when a packet was taken and 0 when the pipe was empty.
    /// No operands. The packet's lanes are read with [`OpKind::PipeLane`].
    PipeRead {
        pipe: Pipe,
        blocking: bool,
    },
    /// Lane `lane` of the packet taken by the `PipeRead` whose 1-bit result is `args[0]` (0
    /// when it took none); always in the same block and step as that read.
    PipeLane {
        pipe: Pipe,
        lane: u32,
    },
    /// Puts one packet, whose lanes are `args`, into a pipe. Blocking: waits while the pipe is
    /// full; the result is 1. Non-blocking: 1 when the packet was written, 0 when the pipe was full.
    PipeWrite {
        pipe: Pipe,
        blocking: bool,
    },
    /// `printf`: prints `args` (the bits of each value the format reads) with the format. No
    /// result. Not predicated (a conditional `printf` keeps its branch); the emulator prints
    /// when it runs the op, the simulator with the cycle its state runs in; hardware has no
    /// output for it (`kiln build` says so).
    Print(std::rc::Rc<kiln_hir::printf::Format>),
    /// What a pipe's FIFO holds (`get_pipe_num_packets`) or can hold (`get_pipe_max_packets`),
    /// as a 32-bit number, seen in the cycle the query happens (docs/timing.md §9). No
    /// operands. Ordered with the kernel's transfers like one of them, and never waits.
    PipeQuery {
        pipe: Pipe,
        what: PipeQuery,
    },
}

/// What an [`OpKind::PipeQuery`] asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipeQuery {
    /// The packets in the FIFO.
    Packets,
    /// The FIFO's depth.
    MaxPackets,
}

impl OpKind {
    pub fn has_side_effect(&self) -> bool {
        matches!(
            self,
            OpKind::Store(_)
                | OpKind::WordStore { .. }
                | OpKind::WordStoreAt(_)
                | OpKind::PipeRead { .. }
                | OpKind::PipeWrite { .. }
                | OpKind::Print(_)
        )
    }

    /// A transfer through a pipe, or a query of its FIFO, which is scheduled like one (not the
    /// lane reads that follow a `PipeRead`).
    pub fn is_pipe_transfer(&self) -> bool {
        matches!(self, OpKind::PipeRead { .. } | OpKind::PipeWrite { .. } | OpKind::PipeQuery { .. })
    }

    pub fn pipe(&self) -> Option<Pipe> {
        match self {
            OpKind::PipeRead { pipe, .. }
            | OpKind::PipeLane { pipe, .. }
            | OpKind::PipeWrite { pipe, .. }
            | OpKind::PipeQuery { pipe, .. } => Some(*pipe),
            _ => None,
        }
    }

    /// A read or write of a memory (a word operation of a port counts, its lanes do not).
    pub fn is_memory(&self) -> bool {
        matches!(
            self,
            OpKind::Load(_)
                | OpKind::Store(_)
                | OpKind::WordLoad(_)
                | OpKind::WordStore { .. }
                | OpKind::WordStoreAt(_)
        )
    }

    /// A read of a memory (element or word).
    pub fn is_read(&self) -> bool {
        matches!(self, OpKind::Load(_) | OpKind::WordLoad(_))
    }

    /// Whether the op computes on floating-point values (kiln does not build these in hardware
    /// yet; loads, stores and moves of float bits need no float hardware).
    pub fn is_float(&self) -> bool {
        matches!(self, OpKind::Float(_) | OpKind::FCmp(_) | OpKind::FConv(_))
    }

    pub fn mem(&self) -> Option<Mem> {
        match self {
            OpKind::Load(m)
            | OpKind::Store(m)
            | OpKind::WordLoad(m)
            | OpKind::WordLaneAt(m)
            | OpKind::WordStoreAt(m)
            | OpKind::WordLane { mem: m, .. }
            | OpKind::WordStore { mem: m, .. } => Some(*m),
            _ => None,
        }
    }

    /// The memory a memory operation names, to renumber it.
    pub fn mem_mut(&mut self) -> Option<&mut Mem> {
        match self {
            OpKind::Load(m)
            | OpKind::Store(m)
            | OpKind::WordLoad(m)
            | OpKind::WordLaneAt(m)
            | OpKind::WordStoreAt(m)
            | OpKind::WordLane { mem: m, .. }
            | OpKind::WordStore { mem: m, .. } => Some(m),
            _ => None,
        }
    }

    pub fn mnemonic(&self) -> &'static str {
        match self {
            OpKind::Const(_) => "const",
            OpKind::Unary(UnOp::Neg) => "neg",
            OpKind::Unary(UnOp::Not) => "not",
            OpKind::Binary(b) => match b {
                BinOp::Add => "add",
                BinOp::Sub => "sub",
                BinOp::Mul => "mul",
                BinOp::UDiv => "udiv",
                BinOp::SDiv => "sdiv",
                BinOp::URem => "urem",
                BinOp::SRem => "srem",
                BinOp::And => "and",
                BinOp::Or => "or",
                BinOp::Xor => "xor",
                BinOp::Shl => "shl",
                BinOp::LShr => "lshr",
                BinOp::AShr => "ashr",
            },
            OpKind::Cmp(c) => match c {
                CmpOp::Eq => "eq",
                CmpOp::Ne => "ne",
                CmpOp::Ult => "ult",
                CmpOp::Ule => "ule",
                CmpOp::Ugt => "ugt",
                CmpOp::Uge => "uge",
                CmpOp::Slt => "slt",
                CmpOp::Sle => "sle",
                CmpOp::Sgt => "sgt",
                CmpOp::Sge => "sge",
            },
            OpKind::Select => "select",
            OpKind::Cast(CastOp::Zext) => "zext",
            OpKind::Cast(CastOp::Sext) => "sext",
            OpKind::Cast(CastOp::Trunc) => "trunc",
            OpKind::Float(f) => super::float::mnemonic(*f),
            OpKind::FCmp(c) => c.mnemonic(),
            OpKind::FConv(c) => c.mnemonic(),
            OpKind::Load(_) => "load",
            OpKind::Store(_) => "store",
            OpKind::WordLoad(_) => "load_word",
            OpKind::WordLane { .. } => "word_lane",
            OpKind::WordLaneAt(_) => "word_lane_at",
            OpKind::WordStore { .. } => "store_word",
            OpKind::WordStoreAt(_) => "store_lane",
            OpKind::PipeRead { blocking: true, .. } => "pipe_read",
            OpKind::PipeRead { blocking: false, .. } => "pipe_try_read",
            OpKind::PipeLane { .. } => "pipe_lane",
            OpKind::PipeWrite { blocking: true, .. } => "pipe_write",
            OpKind::PipeWrite { blocking: false, .. } => "pipe_try_write",
            OpKind::PipeQuery { what: PipeQuery::Packets, .. } => "pipe_packets",
            OpKind::PipeQuery { what: PipeQuery::MaxPackets, .. } => "pipe_max_packets",
            OpKind::Print(_) => "printf",
        }
    }
}

/// A mask of the low `w` bits.
pub fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// Interprets the low `w` bits of `v` as a signed number.
pub fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        return v as i64;
    }
    let shift = 64 - w;
    ((v << shift) as i64) >> shift
}

/// Compares the low `w` bits of `x` and `y` (as signed `w`-bit values for the signed orders).
pub fn compare(c: CmpOp, x: u64, y: u64, w: u32) -> bool {
    let om = mask(w);
    let (x, y) = (x & om, y & om);
    match c {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Ult => x < y,
        CmpOp::Ule => x <= y,
        CmpOp::Ugt => x > y,
        CmpOp::Uge => x >= y,
        CmpOp::Slt => sext(x, w) < sext(y, w),
        CmpOp::Sle => sext(x, w) <= sext(y, w),
        CmpOp::Sgt => sext(x, w) > sext(y, w),
        CmpOp::Sge => sext(x, w) >= sext(y, w),
    }
}

/// Evaluates a pure operation. `args` are the operand values (low bits significant) with their
/// widths in `arg_w`; `w` is the result width. Returns the result masked to `w` bits.
///
/// Memory operations are not pure and must not be passed here.
pub fn eval(kind: &OpKind, args: &[u64], arg_w: &[u32], w: u32) -> u64 {
    let m = mask(w);
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    let aw = |i: usize| arg_w.get(i).copied().unwrap_or(w);
    let r = match kind {
        OpKind::Const(v) => *v,
        OpKind::Unary(UnOp::Neg) => a(0).wrapping_neg(),
        OpKind::Unary(UnOp::Not) => !a(0),
        OpKind::Binary(op) => {
            let (x, y) = (a(0) & m, a(1));
            let yw = aw(1);
            let y_m = y & mask(yw);
            match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::And => x & y,
                BinOp::Or => x | y,
                BinOp::Xor => x ^ y,
                BinOp::UDiv => x.checked_div(y & m).unwrap_or(u64::MAX),
                BinOp::URem => {
                    let y = y & m;
                    if y == 0 { x } else { x % y }
                }
                BinOp::SDiv => {
                    let (sx, sy) = (sext(x, w), sext(y & m, w));
                    if sy == 0 {
                        u64::MAX
                    } else if sy == -1 {
                        // MIN / -1 wraps to MIN at any width.
                        sx.wrapping_neg() as u64
                    } else {
                        (sx / sy) as u64
                    }
                }
                BinOp::SRem => {
                    let (sx, sy) = (sext(x, w), sext(y & m, w));
                    if sy == 0 {
                        x
                    } else if sy == -1 {
                        0
                    } else {
                        (sx % sy) as u64
                    }
                }
                BinOp::Shl => {
                    let c = (y_m % w as u64) as u32;
                    x.wrapping_shl(c)
                }
                BinOp::LShr => {
                    let c = (y_m % w as u64) as u32;
                    x.wrapping_shr(c)
                }
                BinOp::AShr => {
                    let c = (y_m % w as u64) as u32;
                    sext(x, w).wrapping_shr(c) as u64
                }
            }
        }
        OpKind::Cmp(c) => compare(*c, a(0), a(1), aw(0)) as u64,
        OpKind::Select => {
            if a(0) & 1 == 1 {
                a(1)
            } else {
                a(2)
            }
        }
        OpKind::Cast(CastOp::Zext) | OpKind::Cast(CastOp::Trunc) => a(0) & mask(aw(0)),
        OpKind::Cast(CastOp::Sext) => sext(a(0), aw(0)) as u64,
        OpKind::Float(f) => super::float::eval_float(*f, args),
        OpKind::FCmp(c) => super::float::eval_cmp(*c, a(0), a(1)),
        OpKind::FConv(c) => super::float::eval_conv(*c, a(0), aw(0), w),
        // Engines perform memory and pipe operations themselves.
        OpKind::Load(_)
        | OpKind::Store(_)
        | OpKind::WordLoad(_)
        | OpKind::WordLane { .. }
        | OpKind::WordLaneAt(_)
        | OpKind::WordStore { .. }
        | OpKind::WordStoreAt(_)
        | OpKind::PipeRead { .. }
        | OpKind::PipeLane { .. }
        | OpKind::PipeWrite { .. }
        | OpKind::PipeQuery { .. }
        | OpKind::Print(_) => 0,
    };
    r & m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinOp, x: u64, y: u64, w: u32) -> u64 {
        eval(&OpKind::Binary(op), &[x, y], &[w, w], w)
    }

    #[test]
    fn division_conventions() {
        assert_eq!(bin(BinOp::UDiv, 7, 0, 32), 0xffff_ffff);
        assert_eq!(bin(BinOp::URem, 7, 0, 32), 7);
        assert_eq!(bin(BinOp::SDiv, 7, 0, 8), 0xff);
        assert_eq!(bin(BinOp::SDiv, 0x80, 0xff, 8), 0x80, "MIN / -1 == MIN");
        assert_eq!(bin(BinOp::SRem, 0x80, 0xff, 8), 0);
        assert_eq!(bin(BinOp::SDiv, (-7i64) as u64, 2, 32), (-3i32) as u32 as u64);
        assert_eq!(bin(BinOp::SRem, (-7i64) as u64, 2, 32), (-1i32) as u32 as u64);
        assert_eq!(bin(BinOp::SDiv, i64::MIN as u64, u64::MAX, 64), i64::MIN as u64);
    }

    #[test]
    fn shifts_mask_their_count() {
        assert_eq!(bin(BinOp::Shl, 1, 33, 32), 2);
        assert_eq!(bin(BinOp::AShr, (-16i32) as u32 as u64, 34, 32), (-4i32) as u32 as u64);
        assert_eq!(bin(BinOp::LShr, 0x8000, 17, 16), 0x4000);
        assert_eq!(eval(&OpKind::Binary(BinOp::Shl), &[1, 0xffff_ffff], &[32, 32], 32), 0x8000_0000);
        assert_eq!(eval(&OpKind::Binary(BinOp::Shl), &[1, 9], &[8, 32], 8), 2);
    }

    #[test]
    fn casts_and_compares() {
        assert_eq!(eval(&OpKind::Cast(CastOp::Sext), &[0x80], &[8], 32), 0xffff_ff80);
        assert_eq!(eval(&OpKind::Cast(CastOp::Zext), &[0x80], &[8], 32), 0x80);
        assert_eq!(eval(&OpKind::Cast(CastOp::Trunc), &[0x1234], &[32], 8), 0x34);
        assert_eq!(eval(&OpKind::Cmp(CmpOp::Slt), &[0xff, 1], &[8, 8], 1), 1);
        assert_eq!(eval(&OpKind::Cmp(CmpOp::Ult), &[0xff, 1], &[8, 8], 1), 0);
    }
}
