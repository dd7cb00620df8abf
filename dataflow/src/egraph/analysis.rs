//! What the e-graph knows about each e-class: its width, its constant value, an unsigned
//! interval that holds every value it can take, its known bits, and how many of its top bits
//! copy its sign bit.
//!
//! Every fact is a property of the *value*, so it holds for every e-node of the class; merging
//! two classes intersects their intervals and unions their known bits. Constants are folded with
//! [`crate::ir::op::eval`], the one definition of what an operation computes, and a class with a
//! known constant gets the constant's node (so extraction can pick it). The range and known-bits
//! rules are conservative: when unsure they say "any value of the width"; the narrowing rewrites
//! of [`super::rules`] rely on them, and the e-graph's property test checks them on random
//! expressions.

use super::lang::Hw;
use crate::ir::op::{eval, mask};
use egg::{Analysis, DidMerge, EGraph, Id, Language};

/// The facts about one e-class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// Bits of the value; 0 for the class of a cast's width literal.
    pub width: u32,
    /// The value, when it is a constant (for a width literal: the width).
    pub constant: Option<u64>,
    /// Every value of the class lies in `lo..=hi` (unsigned).
    pub lo: u64,
    pub hi: u64,
    /// Bits known to be 0 and known to be 1.
    pub zeros: u64,
    pub ones: u64,
    /// How many top bits of every value equal its sign bit (at least 1; 0 for a width
    /// literal): a value with `s` of them keeps its signed value in its low `width - s + 1`
    /// bits.
    pub sign_bits: u32,
}

impl Facts {
    pub fn unknown(width: u32) -> Facts {
        Facts { width, constant: None, lo: 0, hi: mask(width), zeros: 0, ones: 0, sign_bits: 1 }
    }

    pub fn constant(value: u64, width: u32) -> Facts {
        let v = value & mask(width);
        Facts { width, constant: Some(v), lo: v, hi: v, zeros: !v & mask(width), ones: v, sign_bits: 1 }
            .normalize_sign()
    }

    fn width_literal(w: u32) -> Facts {
        Facts { width: 0, constant: Some(w as u64), lo: 0, hi: 0, zeros: 0, ones: 0, sign_bits: 0 }
    }

    /// The number of low bits that hold every value of the class.
    pub fn significant_bits(&self) -> u32 {
        64 - self.hi.leading_zeros()
    }

    /// Tightens the interval with the known bits and the known bits with the interval; a
    /// one-value interval is a constant.
    pub(crate) fn normalize(mut self) -> Facts {
        if self.width == 0 {
            return self;
        }
        let m = mask(self.width);
        self.hi = self.hi.min(m & !self.zeros);
        self.lo = self.lo.max(self.ones);
        if self.hi != m {
            // Bits above the highest bit `hi` can have are zero.
            let above = if self.hi == 0 { m } else { m & !mask(64 - self.hi.leading_zeros()) };
            self.zeros |= above;
        }
        if self.lo == self.hi {
            self.constant = Some(self.lo);
        }
        if let Some(c) = self.constant {
            return Facts::constant(c, self.width);
        }
        self.normalize_sign()
    }

    /// At least the top bits known alike (all zeros or all ones), at most the width.
    fn normalize_sign(mut self) -> Facts {
        if self.width > 0 {
            let top = |known: u64| (known << (64 - self.width)).leading_ones();
            self.sign_bits = self.sign_bits.max(top(self.zeros)).max(top(self.ones)).clamp(1, self.width);
        }
        self
    }
}

/// The e-graph analysis: per leaf of the region, what is known of it (its width, and the
/// range the kernel-wide analysis, [`crate::ranges`], proves for it in the region's block).
#[derive(Clone, Default)]
pub struct HwAnalysis {
    pub leaf_facts: Vec<Facts>,
}

impl HwAnalysis {
    /// Leaves of these widths about which nothing is known.
    pub fn unknown_leaves(widths: &[u32]) -> HwAnalysis {
        HwAnalysis { leaf_facts: widths.iter().map(|w| Facts::unknown(*w)).collect() }
    }
}

pub type HwGraph = EGraph<Hw, HwAnalysis>;

impl Analysis<Hw> for HwAnalysis {
    type Data = Facts;

    fn make(egraph: &mut HwGraph, enode: &Hw) -> Facts {
        let facts = |id: Id| egraph[id].data.clone();
        match enode {
            Hw::Const(b) => Facts::constant(b.value, b.width),
            Hw::Width(w) => Facts::width_literal(w.0),
            Hw::Leaf(l) => egraph.analysis.leaf_facts.get(l.0 as usize).cloned().unwrap_or_else(|| Facts::unknown(64)),
            _ => {
                let Some((kind, n)) = enode.op_kind() else { return Facts::unknown(64) };
                let children = enode.children();
                let args: Vec<Facts> = children[..n].iter().map(|c| facts(*c)).collect();
                let width = match enode {
                    Hw::Zext(c) | Hw::Sext(c) | Hw::Trunc(c) => facts(c[1]).constant.unwrap_or(64) as u32,
                    _ => result_width(enode, &args),
                };
                node_facts(enode, &kind, &args, width)
            }
        }
    }

    fn merge(&mut self, a: &mut Facts, b: Facts) -> DidMerge {
        let before = a.clone();
        let lo = a.lo.max(b.lo);
        let hi = a.hi.min(b.hi);
        // Disjoint facts can only come from code that is never executed with these values
        // (e.g. both arms of a select were merged by a constant condition); keep one side.
        if lo <= hi {
            a.lo = lo;
            a.hi = hi;
        }
        a.zeros |= b.zeros;
        a.ones |= b.ones;
        a.sign_bits = a.sign_bits.max(b.sign_bits);
        if a.zeros & a.ones != 0 {
            a.zeros = before.zeros;
            a.ones = before.ones;
        }
        if a.constant.is_none() {
            a.constant = b.constant;
        }
        *a = a.clone().normalize();
        DidMerge(*a != before, *a != b)
    }

    fn modify(egraph: &mut HwGraph, id: Id) {
        let f = &egraph[id].data;
        if let (Some(value), width) = (f.constant, f.width)
            && width > 0
        {
            let c = egraph.add(Hw::Const(super::lang::Bits { value, width }));
            egraph.union_trusted(id, c, "constant-fold");
        }
    }
}

/// The width of a node's result, from its operands' facts (casts carry theirs in a child).
fn result_width(node: &Hw, args: &[Facts]) -> u32 {
    match node {
        Hw::Eq(_)
        | Hw::Ne(_)
        | Hw::Ult(_)
        | Hw::Ule(_)
        | Hw::Ugt(_)
        | Hw::Uge(_)
        | Hw::Slt(_)
        | Hw::Sle(_)
        | Hw::Sgt(_)
        | Hw::Sge(_) => 1,
        Hw::Select(_) => args.get(1).map_or(64, |a| a.width),
        _ => args.first().map_or(64, |a| a.width),
    }
}

/// The facts of a node's result from its operands' facts: the constant when every operand is
/// one, otherwise the interval and known-bit rules.
fn node_facts(node: &Hw, kind: &crate::ir::OpKind, args: &[Facts], width: u32) -> Facts {
    if let Some(values) = args.iter().map(|a| a.constant).collect::<Option<Vec<u64>>>() {
        let widths: Vec<u32> = args.iter().map(|a| a.width).collect();
        return Facts::constant(eval(kind, &values, &widths, width), width);
    }
    transfer(node, args, width).normalize()
}

/// The facts of an IR operation's `width`-bit result from its operands' facts, by the same
/// rules as the e-graph's classes (the kernel-wide range analysis, [`crate::ranges`], uses this).
/// Operations the e-graph does not model (memory, pipes, floats) know nothing.
pub fn op_facts(kind: &crate::ir::OpKind, args: &[Facts], width: u32) -> Facts {
    // The node's children are placeholders: the rules read only its variant.
    let ids = [Id::from(0usize); 3];
    let Some(node) = Hw::from_op(kind, &ids[..args.len().min(3)], width, Some(ids[0])) else {
        return Facts::unknown(width);
    };
    node_facts(&node, kind, args, width)
}

/// Interval and known-bit rules of one operation whose operands are not all constant.
fn transfer(node: &Hw, a: &[Facts], width: u32) -> Facts {
    let m = mask(width);
    let mut f = Facts::unknown(width);
    let x = &a[0];
    let y = a.get(1);
    let shift_count = |y: &Facts| y.constant.map(|c| (c & mask(y.width)) % width as u64);
    let ones_up_to = |v: u64| if v == 0 { 0 } else { mask(64 - v.leading_zeros()) };
    let nonnegative = |v: &Facts| v.width > 0 && (v.zeros >> (v.width - 1)) & 1 == 1;
    let both_nonnegative = nonnegative(x) && y.is_some_and(nonnegative);
    let unsigned = matches!(node, Hw::UDiv(_) | Hw::URem(_) | Hw::Ult(_) | Hw::Ule(_) | Hw::Ugt(_) | Hw::Uge(_));
    f.sign_bits = sign_bits(node, a, width);
    match node {
        Hw::Add(_) => {
            let y = &a[1];
            let (lo, hi) = (u128::from(x.lo) + u128::from(y.lo), u128::from(x.hi) + u128::from(y.hi));
            let size = u128::from(m) + 1;
            if hi < size {
                f.lo = lo as u64;
                f.hi = hi as u64;
            } else if lo >= size {
                // Every sum wraps once: `i + 0xffffffff` with `i >= 1` is `i - 1`.
                f.lo = (lo - size) as u64;
                f.hi = (hi - size) as u64;
            }
            let tz = x.zeros.trailing_ones().min(y.zeros.trailing_ones());
            f.zeros |= mask(tz.min(width));
        }
        Hw::Sub(_) => {
            let y = &a[1];
            // Both bounds of the difference, only from operands whose ranges are not empty
            // (`lo > hi` happens: kiln fuzz seed 241405, `tests/kernels/fuzz_sub_range.cl`).
            if x.lo >= y.hi && x.hi >= y.lo && x.lo <= x.hi && y.lo <= y.hi {
                f.lo = x.lo - y.hi;
                f.hi = x.hi - y.lo;
            }
            let tz = x.zeros.trailing_ones().min(y.zeros.trailing_ones());
            f.zeros |= mask(tz.min(width));
        }
        Hw::Mul(_) => {
            let y = &a[1];
            if let Some(hi) = x.hi.checked_mul(y.hi).filter(|h| *h <= m) {
                f.lo = x.lo * y.lo;
                f.hi = hi;
            }
            let tz = x.zeros.trailing_ones().min(64) + y.zeros.trailing_ones().min(64);
            f.zeros |= mask(tz.min(width));
        }
        // Signed division of values whose sign bits are known 0 is unsigned division (also by
        // 0: all ones, and `x % 0` is `x`, either way).
        Hw::UDiv(_) | Hw::SDiv(_) if unsigned || both_nonnegative => {
            let y = &a[1];
            if y.lo >= 1 {
                f.lo = x.lo / y.hi;
                f.hi = x.hi / y.lo;
            }
        }
        Hw::URem(_) | Hw::SRem(_) if unsigned || both_nonnegative => {
            // `x % 0` is `x`, and `x % y <= x` otherwise.
            let y = &a[1];
            f.hi = if y.lo >= 1 { x.hi.min(y.hi - 1) } else { x.hi };
        }
        // A comparison the operands' ranges decide (signed ones when both signs are known 0).
        Hw::Ult(_) | Hw::Slt(_) if unsigned || both_nonnegative => decide(&mut f, x.hi < a[1].lo, x.lo >= a[1].hi),
        Hw::Ule(_) | Hw::Sle(_) if unsigned || both_nonnegative => decide(&mut f, x.hi <= a[1].lo, x.lo > a[1].hi),
        Hw::Ugt(_) | Hw::Sgt(_) if unsigned || both_nonnegative => decide(&mut f, x.lo > a[1].hi, x.hi <= a[1].lo),
        Hw::Uge(_) | Hw::Sge(_) if unsigned || both_nonnegative => decide(&mut f, x.lo >= a[1].hi, x.hi < a[1].lo),
        Hw::Eq(_) | Hw::Ne(_) => {
            let y = &a[1];
            let differ = x.hi < y.lo || y.hi < x.lo || (x.ones & y.zeros) | (x.zeros & y.ones) != 0;
            if differ {
                let is_ne = matches!(node, Hw::Ne(_));
                decide(&mut f, is_ne, !is_ne);
            }
        }
        Hw::And(_) => {
            let y = &a[1];
            f.hi = x.hi.min(y.hi);
            f.zeros = x.zeros | y.zeros;
            f.ones = x.ones & y.ones;
        }
        Hw::Or(_) => {
            let y = &a[1];
            f.lo = x.lo.max(y.lo);
            f.hi = ones_up_to(x.hi | y.hi);
            f.zeros = x.zeros & y.zeros;
            f.ones = x.ones | y.ones;
        }
        Hw::Xor(_) => {
            let y = &a[1];
            f.hi = ones_up_to(x.hi | y.hi);
            f.zeros = (x.zeros & y.zeros) | (x.ones & y.ones);
            f.ones = (x.ones & y.zeros) | (x.zeros & y.ones);
        }
        Hw::Not(_) => {
            f.lo = m - x.hi;
            f.hi = m - x.lo;
            f.zeros = x.ones;
            f.ones = x.zeros & m;
        }
        Hw::Shl(_) => {
            if let Some(c) = y.and_then(shift_count) {
                if let Some(hi) = x.hi.checked_shl(c as u32).filter(|h| *h <= m && (*h >> c) == x.hi) {
                    f.lo = x.lo << c;
                    f.hi = hi;
                }
                f.zeros = ((x.zeros << c) | mask(c as u32)) & m;
                f.ones = (x.ones << c) & m;
            }
        }
        Hw::LShr(_) => {
            if let Some(c) = y.and_then(shift_count) {
                f.lo = x.lo >> c;
                f.hi = x.hi >> c;
                f.zeros = ((x.zeros | !m) >> c) & m;
                f.ones = x.ones >> c;
            } else {
                f.hi = x.hi;
            }
        }
        // A value whose sign bit is known 0 shifts like a logical shift.
        Hw::AShr(_) if x.zeros >> (width - 1) & 1 == 1 => {
            f.hi = x.hi;
            if let Some(c) = y.and_then(shift_count) {
                f.lo = x.lo >> c;
                f.hi = x.hi >> c;
            }
        }
        // A condition known where the select is seen (`Analysis::seen_under` holds a branch's
        // condition) picks its arm.
        Hw::Select(_) if x.constant.is_some() => {
            return if x.constant.is_some_and(|c| c & 1 == 1) { a[1].clone() } else { a[2].clone() };
        }
        Hw::Select(_) => {
            let (t, e) = (&a[1], &a[2]);
            f.lo = t.lo.min(e.lo);
            f.hi = t.hi.max(e.hi);
            f.zeros = t.zeros & e.zeros;
            f.ones = t.ones & e.ones;
        }
        Hw::Zext(_) => {
            f.lo = x.lo;
            f.hi = x.hi;
            f.zeros = x.zeros | (m & !mask(x.width));
            f.ones = x.ones;
        }
        Hw::Trunc(_) => {
            if x.hi <= m {
                f.lo = x.lo;
                f.hi = x.hi;
            }
            f.zeros = x.zeros & m;
            f.ones = x.ones & m;
        }
        Hw::Sext(_) if x.width > 0 && (x.zeros >> (x.width - 1)) & 1 == 1 => {
            f.lo = x.lo;
            f.hi = x.hi;
            f.zeros = x.zeros | (m & !mask(x.width));
            f.ones = x.ones;
        }
        _ => {}
    }
    f.zeros &= m;
    f.ones &= m;
    f
}

/// The sign bits of a node's result (before the known bits add theirs): a sign extension adds
/// its new bits, a sum or difference has one fewer than its operands' fewest (its value needs a
/// bit more), bitwise operations and selects their operands' fewest, a truncation loses the bits
/// it cuts off.
fn sign_bits(node: &Hw, a: &[Facts], width: u32) -> u32 {
    let fewest = || a.iter().skip(matches!(node, Hw::Select(_)) as usize).map(|x| x.sign_bits).min().unwrap_or(1);
    let x = &a[0];
    let s = match node {
        Hw::Sext(_) => x.sign_bits + width.saturating_sub(x.width),
        Hw::Add(_) | Hw::Sub(_) => fewest().saturating_sub(1),
        Hw::And(_) | Hw::Or(_) | Hw::Xor(_) | Hw::Not(_) | Hw::Select(_) => fewest(),
        Hw::Trunc(_) => x.sign_bits.saturating_sub(x.width.saturating_sub(width)),
        _ => 1,
    };
    s.clamp(1, width.max(1))
}

/// A 1-bit result that is 1 when `always`, 0 when `never`, and unknown otherwise.
fn decide(f: &mut Facts, always: bool, never: bool) {
    if always {
        f.lo = 1;
    } else if never {
        f.hi = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::RecExpr;

    fn facts(expr: &str, leaf_widths: &[u32]) -> Facts {
        let mut g = HwGraph::new(HwAnalysis::unknown_leaves(leaf_widths));
        let e: RecExpr<Hw> = expr.parse().expect("parses");
        let id = g.add_expr(&e);
        g.rebuild();
        g[id].data.clone()
    }

    #[test]
    fn folds_constants_with_the_ir_semantics() {
        assert_eq!(facts("(add #250:8 #10:8)", &[]).constant, Some(4));
        assert_eq!(facts("(udiv #7:32 #0:32)", &[]).constant, Some(0xffff_ffff), "x / 0 is all ones");
        assert_eq!(facts("(shl #1:32 #33:32)", &[]).constant, Some(2), "shift counts wrap");
    }

    #[test]
    fn intervals_follow_zero_extension_masks_and_remainders() {
        let f = facts("(add (zext v0 w32) (zext v1 w32))", &[8, 8]);
        assert_eq!((f.lo, f.hi), (0, 510));
        assert_eq!(facts("(and v0 #15:32)", &[32]).hi, 15);
        assert_eq!(facts("(urem v0 #10:32)", &[32]).hi, 9);
        assert_eq!(facts("(urem v0 v1)", &[32, 32]).hi, 0xffff_ffff, "x % 0 is x");
        assert_eq!(facts("(lshr v0 #28:32)", &[32]).hi, 15);
        assert_eq!(facts("(sub v0 #1:32)", &[32]).hi, 0xffff_ffff, "may wrap");
    }

    #[test]
    fn known_bits_decide_constants() {
        assert_eq!(facts("(and (shl v0 #4:32) #15:32)", &[32]).constant, Some(0));
        assert_eq!(facts("(or v0 #255:8)", &[8]).constant, Some(255));
        assert_eq!(facts("(trunc (zext v0 w32) w8)", &[4]).hi, 15);
    }

    #[test]
    fn sign_bits_follow_extensions_sums_and_truncations() {
        assert_eq!(facts("(sext v0 w64)", &[8]).sign_bits, 57);
        assert_eq!(facts("(zext v0 w64)", &[33]).sign_bits, 31, "zero-extended: its top zeros");
        assert_eq!(facts("(add (sext v0 w64) (sext v1 w64))", &[8, 16]).sign_bits, 48);
        assert_eq!(facts("(sub (zext v0 w64) (sext v1 w64))", &[33, 16]).sign_bits, 30);
        assert_eq!(facts("(trunc (sext v0 w64) w16)", &[8]).sign_bits, 9);
        assert_eq!(facts("(add v0 v1)", &[64, 64]).sign_bits, 1);
        assert_eq!(facts("#4294967295:64", &[]).sign_bits, 32);
    }

    #[test]
    fn a_select_whose_condition_is_known_has_its_arms_facts() {
        let (arm, other) = (Facts::constant(9, 32), Facts::unknown(32));
        let select = crate::ir::OpKind::Select;
        let picked = |c: u64| op_facts(&select, &[Facts::constant(c, 1), arm.clone(), other.clone()], 32);
        assert_eq!(picked(1).constant, Some(9));
        assert_eq!(picked(0).hi, 0xffff_ffff);
        let either = op_facts(&select, &[Facts::unknown(1), arm.clone(), Facts::constant(3, 32)], 32);
        assert_eq!((either.lo, either.hi), (3, 9));
    }
}
