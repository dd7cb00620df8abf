//! Sequential dividers: one per width and signedness, shared by every division of the kernel.
//! Operands are loaded when a division starts; a signed division takes their absolute values in
//! the next cycle; one quotient bit is computed per cycle, and the signs are applied to the
//! result in one more cycle (`Target::divider_latency`).

use super::*;
use kiln_scheduler::schedule::{UnitId, UnitKind};

impl Gen<'_> {
    pub(super) fn dividers(&mut self) {
        let k = self.k;
        for (ui, unit) in self.s.units.iter().enumerate() {
            let u = UnitId(ui as u32);
            let UnitKind::Divider { signed } = unit.kind;
            let w = unit.width;
            let p = format!("div{ui}");
            let starts = self.start_sites(&|c| c == OpClass::Unit(u));
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!(
                "Divider {ui}: {} {w}-bit, one quotient bit per cycle, then the sign correction; x/0 = all ones, x%0 = x.",
                if signed { "signed" } else { "unsigned" }
            )));
            let operand = |g: &Self, n: usize| {
                g.site_mux(starts.iter().map(|s| (s, g.src(k.ops[s.op].args[n], s.at))).collect(), w)
            };
            let a = operand(self, 0);
            let bb = operand(self, 1);
            let start = any(starts.iter().map(|s| s.commit.clone()).collect());
            let n = |s: &str| format!("{p}_{s}");
            self.m.add(Item::Wire { name: n("start"), width: 1, value: Some(start), comment: None });
            self.m.add(Item::Wire { name: n("a"), width: w, value: Some(a), comment: None });
            self.m.add(Item::Wire { name: n("b"), width: w, value: Some(bb), comment: None });
            let cw = clog2(w as u64 + 2);
            for (r, width) in [("q", w), ("r", w), ("d", w), ("a0", w)] {
                self.m.add(Item::Reg { name: n(r), width });
            }
            self.m.add(Item::Reg { name: n("count"), width: cw });
            self.m.add(Item::Reg { name: n("neg_q"), width: 1 });
            self.m.add(Item::Reg { name: n("neg_r"), width: 1 });
            self.m.add(Item::Reg { name: n("zero"), width: 1 });
            let (ge, next_r) = division_step(&mut self.m, &p, w, &n("r"), &n("q"), &n("d"));
            let neg_of = |g: &mut Self, x: &str| negation(&mut g.m, &n(&format!("{x}_neg")), &n(x), w);
            let (neg_q, neg_r) = (neg_of(self, "q"), neg_of(self, "r"));
            let quot = cond(id(n("zero")), lit(w, u64::MAX), cond(id(n("neg_q")), neg_q.clone(), id(n("q"))));
            let rem = cond(id(n("zero")), id(n("a0")), cond(id(n("neg_r")), neg_r, id(n("r"))));
            // The sign and zero corrections are registered one cycle after the last step, so a
            // division's result leaves a register and no negation chain adds to its users' paths.
            self.m.add(Item::Reg { name: n("quot"), width: w });
            self.m.add(Item::Reg { name: n("rem"), width: w });
            self.m.add(Item::Reg { name: n("fin"), width: 1 });
            let (sa, sb) =
                if signed { (bit_of(&n("a"), w, w - 1), bit_of(&n("b"), w, w - 1)) } else { (lit(1, 0), lit(1, 0)) };
            let next_q = Expr::Concat(vec![Expr::Slice(n("q"), w - 2, 0), ge]);
            let step = vec![
                set(n("r"), next_r),
                set(n("q"), next_q),
                set(n("count"), bin(BinOp::Sub, id(n("count")), lit(cw, 1))),
                set(n("fin"), bin(BinOp::Eq, id(n("count")), lit(cw, 1))),
            ];
            // A signed division loads its operands as they are and takes their absolute values
            // in the first cycle (count `w + 1`): a negation after the operand multiplexer was
            // the longest path of the start state.
            let (busy, first_count) = if signed {
                self.m.add(Item::Reg { name: n("neg_d"), width: 1 });
                let neg_d = negation(&mut self.m, &n("d_neg"), &n("d"), w);
                let prepare = vec![
                    set(n("q"), cond(id(n("neg_r")), neg_q, id(n("q")))),
                    set(n("d"), cond(id(n("neg_d")), neg_d, id(n("d")))),
                    set(n("count"), lit(cw, w as u64)),
                ];
                (vec![Stmt::If(bin(BinOp::Eq, id(n("count")), lit(cw, w as u64 + 1)), prepare, step)], w as u64 + 1)
            } else {
                (step, w as u64)
            };
            let mut load = vec![
                set(n("q"), id(n("a"))),
                set(n("r"), lit(w, 0)),
                set(n("d"), id(n("b"))),
                set(n("a0"), id(n("a"))),
                set(n("count"), lit(cw, first_count)),
                set(n("neg_q"), bin(BinOp::Xor, sa.clone(), sb.clone())),
                set(n("neg_r"), sa),
                set(n("zero"), bin(BinOp::Eq, id(n("b")), lit(w, 0))),
                set(n("fin"), lit(1, 0)),
            ];
            if signed {
                load.push(set(n("neg_d"), sb));
            }
            self.m.add(Item::Always(vec![Stmt::If(
                id("rst"),
                vec![set(n("count"), lit(cw, 0)), set(n("fin"), lit(1, 0))],
                vec![Stmt::If(
                    id(n("start")),
                    load,
                    vec![Stmt::If(
                        bin(BinOp::Ne, id(n("count")), lit(cw, 0)),
                        busy,
                        vec![Stmt::If(
                            id(n("fin")),
                            vec![set(n("quot"), quot), set(n("rem"), rem), set(n("fin"), lit(1, 0))],
                            vec![],
                        )],
                    )],
                )],
            )]));
        }
    }
}

/// One restoring-division step on `w`-bit registers `r` (partial remainder), `q` (dividend bits
/// still to shift in, then the quotient) and `d` (divisor): `rs = {r, q[w-1]}`, and `rs - d`
/// replaces it when it does not borrow. Returns the quotient bit and the next `r`.
///
/// From 8 bits on, the `w + 1`-bit subtraction is a carry-select adder: the low half's carry
/// chain runs beside both versions of the high half (borrow in and not), and the low half's
/// borrow picks one. The step is the divider's critical path and a 33-bit ripple chain was
/// 30 ns routed on the iCE40 (trisolv at 33 MHz); the halves cut the chain in two for one LUT
/// level more.
pub(super) fn division_step(m: &mut Module, p: &str, w: u32, r: &str, q: &str, d: &str) -> (Expr, Expr) {
    let n = |s: &str| format!("{p}_{s}");
    let mut wire = |name: String, width: u32, value: Expr| {
        m.add(Item::Wire { name, width, value: Some(value), comment: None });
    };
    let rs = n("rs");
    wire(rs.clone(), w + 1, Expr::Concat(vec![id(r), bit_of(q, w, w - 1)]));
    if w < 8 {
        let diff = n("diff");
        wire(diff.clone(), w + 1, bin(BinOp::Sub, id(&rs), Expr::Concat(vec![lit(1, 0), id(d)])));
        let ge = un(UnOp::LogNot, Expr::Bit(diff.clone(), w));
        wire(n("ge"), 1, ge);
        let next_r = cond(id(n("ge")), slice(&id(&diff), w - 1, 0), slice(&id(&rs), w - 1, 0));
        return (id(n("ge")), next_r);
    }
    // Low `l` bits and high `h` bits of the `w + 1`-bit subtraction.
    let l = w.div_ceil(2);
    let h = w + 1 - l;
    let (lo, hi0, hi1) = (n("lo"), n("hi0"), n("hi1"));
    wire(
        lo.clone(),
        l + 1,
        bin(
            BinOp::Sub,
            Expr::Concat(vec![lit(1, 0), Expr::Slice(rs.clone(), l - 1, 0)]),
            Expr::Concat(vec![lit(1, 0), Expr::Slice(d.to_string(), l - 1, 0)]),
        ),
    );
    let d_hi = Expr::Concat(vec![lit(1, 0), Expr::Slice(d.to_string(), w - 1, l)]);
    let rs_hi = Expr::Slice(rs.clone(), w, l);
    wire(hi0.clone(), h, bin(BinOp::Sub, rs_hi.clone(), d_hi.clone()));
    // rs - d - 1 = rs + ~d.
    wire(hi1.clone(), h, bin(BinOp::Add, rs_hi, un(UnOp::Not, d_hi)));
    let borrow = Expr::Bit(lo.clone(), l);
    // The high half of the next remainder for either borrow: the difference where it is not
    // negative, the shifted remainder where it is.
    for (name, hi) in [("rn0", &hi0), ("rn1", &hi1)] {
        wire(
            n(name),
            h - 1,
            cond(Expr::Bit(hi.clone(), h - 1), Expr::Slice(rs.clone(), w - 1, l), Expr::Slice(hi.clone(), h - 2, 0)),
        );
    }
    wire(
        n("ge"),
        1,
        un(UnOp::LogNot, cond(borrow.clone(), Expr::Bit(hi1.clone(), h - 1), Expr::Bit(hi0.clone(), h - 1))),
    );
    let next_r = Expr::Concat(vec![
        cond(borrow, id(n("rn1")), id(n("rn0"))),
        cond(id(n("ge")), Expr::Slice(lo, l - 1, 0), Expr::Slice(rs, l - 1, 0)),
    ]);
    (id(n("ge")), next_r)
}

/// `-x` for the `w`-bit signal `x`, as wires named after `p`. From 8 bits on, the halves negate
/// side by side (`-x = ~x + 1`: the high half receives the low half's carry exactly when the
/// low half is zero), so the carry chain is half as long as a plain `-x`'s.
pub(super) fn negation(m: &mut Module, p: &str, x: &str, w: u32) -> Expr {
    if w < 8 {
        return un(UnOp::Neg, id(x));
    }
    let l = w / 2;
    let (lo, hi) = (format!("{p}_lo"), format!("{p}_hi"));
    m.add(Item::Wire {
        name: lo.clone(),
        width: l,
        value: Some(un(UnOp::Neg, Expr::Slice(x.to_string(), l - 1, 0))),
        comment: None,
    });
    let x_hi = Expr::Slice(x.to_string(), w - 1, l);
    let low_zero = bin(BinOp::Eq, Expr::Slice(x.to_string(), l - 1, 0), lit(l, 0));
    m.add(Item::Wire {
        name: hi.clone(),
        width: w - l,
        value: Some(cond(low_zero, un(UnOp::Neg, x_hi.clone()), un(UnOp::Not, x_hi))),
        comment: None,
    });
    Expr::Concat(vec![id(hi), id(lo)])
}
