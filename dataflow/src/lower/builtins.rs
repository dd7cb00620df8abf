//! Integer built-ins expanded into dataflow operations while lowering.
//!
//! Each built-in becomes the circuit it names out of adds, shifts, compares and selects, so the
//! emulator, the simulator and the Verilog run exactly the same operations and no later stage
//! needs to know about built-ins. The semantics are OpenCL C 3.0 §6.15.3–§6.15.6: saturating
//! operations clamp the exact result, `clz(0)` and `ctz(0)` are the bit width, rotate counts are
//! taken modulo the width, `hadd`/`rhadd`/`mul_hi`/`mad_sat` compute with the full-width
//! intermediate. Where OpenCL leaves a result undefined (`clamp` with `lo > hi`, `mul24` outside
//! 24 bits) kiln's value is what these expansions give: `min(max(x, lo), hi)` and the full
//! 32-bit product.

use super::*;
use kiln_hir::builtins::IntBuiltin;

/// Emits operations of one width-polymorphic expansion.
struct Expand<'a, 'p> {
    lw: &'a mut Lowerer<'p>,
    span: Span,
}

impl Expand<'_, '_> {
    fn width(&self, v: Value) -> u32 {
        self.lw.k.width(v)
    }
    fn konst(&mut self, v: u64, w: u32) -> Value {
        self.lw.konst(v, w, self.span)
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let w = self.width(a);
        self.lw.emit(OpKind::Binary(op), vec![a, b], w, self.span)
    }
    fn bin_c(&mut self, op: BinOp, a: Value, c: u64) -> Value {
        let c = self.konst(c, self.width(a));
        self.bin(op, a, c)
    }
    fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        self.lw.emit(OpKind::Cmp(op), vec![a, b], 1, self.span)
    }
    fn cmp_c(&mut self, op: CmpOp, a: Value, c: u64) -> Value {
        let c = self.konst(c, self.width(a));
        self.cmp(op, a, c)
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let w = self.width(a);
        self.lw.emit(OpKind::Select, vec![c, a, b], w, self.span)
    }
    fn not(&mut self, a: Value) -> Value {
        let w = self.width(a);
        self.lw.emit(OpKind::Unary(UnOp::Not), vec![a], w, self.span)
    }
    fn neg(&mut self, a: Value) -> Value {
        let w = self.width(a);
        self.lw.emit(OpKind::Unary(UnOp::Neg), vec![a], w, self.span)
    }
    fn resize(&mut self, v: Value, to: u32, signed: bool) -> Value {
        self.lw.resize(v, to, signed, self.span)
    }

    fn is_negative(&mut self, x: Value) -> Value {
        self.cmp_c(CmpOp::Slt, x, 0)
    }

    fn min_max(&mut self, max: bool, x: Value, y: Value, signed: bool) -> Value {
        let lt = self.cmp(if signed { CmpOp::Slt } else { CmpOp::Ult }, x, y);
        if max { self.select(lt, y, x) } else { self.select(lt, x, y) }
    }

    /// The largest and smallest values of a `w`-bit type.
    fn extremes(w: u32, signed: bool) -> (u64, u64) {
        let all = op::mask(w);
        if signed { (all >> 1, 1u64 << (w - 1)) } else { (all, 0) }
    }

    fn popcount(&mut self, x: Value) -> Value {
        let w = self.width(x);
        const M1: u64 = 0x5555_5555_5555_5555;
        const M2: u64 = 0x3333_3333_3333_3333;
        const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
        // Pairs, nibbles, bytes: a tree of adders on ever fewer, wider fields.
        let a = self.bin_c(BinOp::And, x, M1);
        let s = self.bin_c(BinOp::LShr, x, 1);
        let b = self.bin_c(BinOp::And, s, M1);
        let x = self.bin(BinOp::Add, a, b);
        let a = self.bin_c(BinOp::And, x, M2);
        let s = self.bin_c(BinOp::LShr, x, 2);
        let b = self.bin_c(BinOp::And, s, M2);
        let mut x = self.bin(BinOp::Add, a, b);
        if w > 4 {
            let s = self.bin_c(BinOp::LShr, x, 4);
            let sum = self.bin(BinOp::Add, x, s);
            x = self.bin_c(BinOp::And, sum, M4);
        }
        let mut shift = 8;
        while shift < w {
            let s = self.bin_c(BinOp::LShr, x, shift as u64);
            x = self.bin(BinOp::Add, x, s);
            shift *= 2;
        }
        if w > 8 { self.bin_c(BinOp::And, x, 0xff) } else { x }
    }

    /// Leading zeros by halving: test the top half, shift it away when zero, and so on.
    fn clz(&mut self, x: Value) -> Value {
        let w = self.width(x);
        let mut count = self.konst(0, w);
        let mut x = x;
        let mut size = w / 2;
        while size >= 1 {
            let top_mask = op::mask(size) << (w - size);
            let top = self.bin_c(BinOp::And, x, top_mask);
            let zero = self.cmp_c(CmpOp::Eq, top, 0);
            let shifted = self.bin_c(BinOp::Shl, x, size as u64);
            x = self.select(zero, shifted, x);
            let add = self.bin_c(BinOp::Add, count, size as u64);
            count = self.select(zero, add, count);
            size /= 2;
        }
        // The last bit standing: 0 only when the input was 0 (count is then w - 1).
        let top = self.bin_c(BinOp::LShr, x, (w - 1) as u64);
        let zero = self.cmp_c(CmpOp::Eq, top, 0);
        let add = self.bin_c(BinOp::Add, count, 1);
        self.select(zero, add, count)
    }

    /// The full `2w`-bit product as `(high, low)` halves.
    fn wide_mul(&mut self, x: Value, y: Value, signed: bool) -> (Value, Value) {
        let w = self.width(x);
        if w <= 32 {
            let xx = self.resize(x, 2 * w, signed);
            let yy = self.resize(y, 2 * w, signed);
            let p = self.bin(BinOp::Mul, xx, yy);
            let lo = self.resize(p, w, false);
            let hs = self.bin_c(BinOp::LShr, p, w as u64);
            let hi = self.resize(hs, w, false);
            return (hi, lo);
        }
        // 64 × 64: four 32 × 32 partial products.
        const LOW: u64 = 0xffff_ffff;
        let a0 = self.bin_c(BinOp::And, x, LOW);
        let a1 = self.bin_c(BinOp::LShr, x, 32);
        let b0 = self.bin_c(BinOp::And, y, LOW);
        let b1 = self.bin_c(BinOp::LShr, y, 32);
        let p00 = self.bin(BinOp::Mul, a0, b0);
        let p01 = self.bin(BinOp::Mul, a0, b1);
        let p10 = self.bin(BinOp::Mul, a1, b0);
        let p11 = self.bin(BinOp::Mul, a1, b1);
        let p00h = self.bin_c(BinOp::LShr, p00, 32);
        let p01l = self.bin_c(BinOp::And, p01, LOW);
        let p10l = self.bin_c(BinOp::And, p10, LOW);
        let mid = self.bin(BinOp::Add, p00h, p01l);
        let mid = self.bin(BinOp::Add, mid, p10l);
        let p01h = self.bin_c(BinOp::LShr, p01, 32);
        let p10h = self.bin_c(BinOp::LShr, p10, 32);
        let midh = self.bin_c(BinOp::LShr, mid, 32);
        let hi = self.bin(BinOp::Add, p11, p01h);
        let hi = self.bin(BinOp::Add, hi, p10h);
        let mut hi = self.bin(BinOp::Add, hi, midh);
        if signed {
            // A negative operand counts 2^64 too much of the other in the unsigned product.
            let zero = self.konst(0, w);
            let xn = self.is_negative(x);
            let fix_y = self.select(xn, y, zero);
            let yn = self.is_negative(y);
            let fix_x = self.select(yn, x, zero);
            hi = self.bin(BinOp::Sub, hi, fix_y);
            hi = self.bin(BinOp::Sub, hi, fix_x);
        }
        let lo = self.bin(BinOp::Mul, x, y);
        (hi, lo)
    }

    fn expand(&mut self, b: IntBuiltin, a: &[Value], signed: bool, result_width: u32) -> Value {
        use IntBuiltin::*;
        let x = a[0];
        let w = self.width(x);
        let (max, min) = Self::extremes(w, signed);
        match b {
            Abs if signed => {
                let n = self.is_negative(x);
                let m = self.neg(x);
                self.select(n, m, x)
            }
            Abs => x,
            AbsDiff => {
                let gt = self.cmp(if signed { CmpOp::Sgt } else { CmpOp::Ugt }, x, a[1]);
                let d1 = self.bin(BinOp::Sub, x, a[1]);
                let d2 = self.bin(BinOp::Sub, a[1], x);
                self.select(gt, d1, d2)
            }
            AddSat | SubSat => {
                let y = a[1];
                let add = b == AddSat;
                let r = self.bin(if add { BinOp::Add } else { BinOp::Sub }, x, y);
                if signed {
                    // Overflow: the result's sign differs from x's, and y pushed that way.
                    let rx = self.bin(BinOp::Xor, r, x);
                    let other = if add { self.bin(BinOp::Xor, r, y) } else { self.bin(BinOp::Xor, x, y) };
                    let both = self.bin(BinOp::And, rx, other);
                    let ovf = self.is_negative(both);
                    let xn = self.is_negative(x);
                    let (hi, lo) = (self.konst(max, w), self.konst(min, w));
                    let sat = self.select(xn, lo, hi);
                    self.select(ovf, sat, r)
                } else if add {
                    let wrapped = self.cmp(CmpOp::Ult, r, x);
                    let hi = self.konst(max, w);
                    self.select(wrapped, hi, r)
                } else {
                    let under = self.cmp(CmpOp::Ult, x, y);
                    let zero = self.konst(0, w);
                    self.select(under, zero, r)
                }
            }
            Hadd | Rhadd => {
                let sh = if signed { BinOp::AShr } else { BinOp::LShr };
                let hx = self.bin_c(sh, x, 1);
                let hy = self.bin_c(sh, a[1], 1);
                let low = self.bin(if b == Hadd { BinOp::And } else { BinOp::Or }, x, a[1]);
                let carry = self.bin_c(BinOp::And, low, 1);
                let s = self.bin(BinOp::Add, hx, hy);
                self.bin(BinOp::Add, s, carry)
            }
            Min => self.min_max(false, x, a[1], signed),
            Max => self.min_max(true, x, a[1], signed),
            Clamp => {
                let m = self.min_max(true, x, a[1], signed);
                self.min_max(false, m, a[2], signed)
            }
            Clz => self.clz(x),
            Ctz => {
                // The zeros below the lowest set bit become the only ones: ~x & (x - 1).
                let nx = self.not(x);
                let dec = self.bin_c(BinOp::Sub, x, 1);
                let below = self.bin(BinOp::And, nx, dec);
                self.popcount(below)
            }
            Popcount => self.popcount(x),
            Rotate => {
                let s = self.bin_c(BinOp::And, a[1], (w - 1) as u64);
                let left = self.bin(BinOp::Shl, x, s);
                let back = self.konst(w as u64, w);
                // A shift by `w - 0` is a shift by 0 (counts are modulo the width): x | x.
                let rs = self.bin(BinOp::Sub, back, s);
                let right = self.bin(BinOp::LShr, x, rs);
                self.bin(BinOp::Or, left, right)
            }
            Mul24 => self.bin(BinOp::Mul, x, a[1]),
            Mad24 => {
                let p = self.bin(BinOp::Mul, x, a[1]);
                self.bin(BinOp::Add, p, a[2])
            }
            MulHi => self.wide_mul(x, a[1], signed).0,
            MadHi => {
                let hi = self.wide_mul(x, a[1], signed).0;
                self.bin(BinOp::Add, hi, a[2])
            }
            MadSat => {
                let (hi, lo) = self.wide_mul(x, a[1], signed);
                let c = a[2];
                // (hi:lo) + c over 2w bits.
                let lo2 = self.bin(BinOp::Add, lo, c);
                let carry1 = self.cmp(CmpOp::Ult, lo2, lo);
                let carry = self.resize(carry1, w, false);
                let mut hi2 = self.bin(BinOp::Add, hi, carry);
                if signed {
                    let cn = self.is_negative(c);
                    let ones = self.konst(op::mask(w), w);
                    let zero = self.konst(0, w);
                    let ext = self.select(cn, ones, zero);
                    hi2 = self.bin(BinOp::Add, hi2, ext);
                    let sign = self.bin_c(BinOp::AShr, lo2, (w - 1) as u64);
                    let fits = self.cmp(CmpOp::Eq, hi2, sign);
                    let neg = self.is_negative(hi2);
                    let (hi_v, lo_v) = (self.konst(max, w), self.konst(min, w));
                    let sat = self.select(neg, lo_v, hi_v);
                    self.select(fits, lo2, sat)
                } else {
                    let fits = self.cmp_c(CmpOp::Eq, hi2, 0);
                    let hi_v = self.konst(max, w);
                    self.select(fits, lo2, hi_v)
                }
            }
            Upsample => {
                let hi = self.resize(x, 2 * w, signed);
                let hs = self.bin_c(BinOp::Shl, hi, w as u64);
                let lo = self.resize(a[1], 2 * w, false);
                self.bin(BinOp::Or, hs, lo)
            }
            Select => {
                let c = a[2];
                let set = self.cmp_c(CmpOp::Ne, c, 0);
                self.select(set, a[1], x)
            }
            Bitselect => {
                let nc = self.not(a[2]);
                let keep = self.bin(BinOp::And, x, nc);
                let take = self.bin(BinOp::And, a[1], a[2]);
                self.bin(BinOp::Or, keep, take)
            }
            Any | All => {
                let msb = self.bin_c(BinOp::LShr, x, (w - 1) as u64);
                self.resize(msb, result_width, false)
            }
        }
    }
}

impl Lowerer<'_> {
    pub(super) fn int_builtin(&mut self, b: IntBuiltin, args: &[hir::Expr], ty: &Type, span: Span) -> RV {
        let mut vals = Vec::new();
        for a in args {
            match self.rvalue(a) {
                RV::Val(v) => vals.push(v),
                _ => return RV::Void,
            }
        }
        let signed = args[0].ty.scalar().is_some_and(|s| s.is_signed());
        let result_width = ty.scalar().map(scalar_width).unwrap_or(32);
        RV::Val(Expand { lw: self, span }.expand(b, &vals, signed, result_width))
    }
}
