//! Sequential dividers: one per width and signedness, shared by every division of the kernel
//! outside pipelines (`UnitKind::Divider`). The operands are loaded when a division starts; a
//! signed division takes the dividend's absolute value before the steps; each step computes one
//! quotient bit; the signs, and division by zero (`x/0` is all ones, `x%0` is `x`), are applied
//! into the result registers (`Timing::sequential_divider_latency`).
//!
//! The divisor is never negated: a step's `rs - |d|` is `rs + dn + cin`, with `dn = ~d` and
//! `cin = 1` for a divisor that is not negative and `dn = d`, `cin = 0` for a negative one, both
//! loaded with the operands; the divisor is zero when `cin` is set and `dn` is all ones, which a
//! flag register records in every cycle after the start.
//!
//! With one cycle per step (`Unit::step_cycles`), the dividend's negation, each step and the
//! result's correction are combinational in their cycle. With two, every carry chain ends in a
//! register: a step's sums are registered in its first cycle and the next remainder selected
//! from them in its second, and the negations of the quotient and remainder registers are
//! computed every cycle into registers of halves, from which the preparation and the result
//! select one cycle later.

use super::*;
use kiln_scheduler::schedule::{Unit, UnitId, UnitKind};

impl Gen<'_> {
    pub(super) fn dividers(&mut self) {
        let k = self.k;
        for (ui, unit) in self.s.units.iter().enumerate() {
            let u = UnitId(ui as u32);
            let UnitKind::Divider { signed } = unit.kind;
            let w = unit.width;
            let split = unit.step_cycles > 1;
            let p = format!("div{ui}");
            let starts = self.start_sites(&|c| c == OpClass::Unit(u));
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!(
                "Divider {ui}: {} {w}-bit, {} per quotient bit, then {}; x/0 = all ones, x%0 = x.",
                if signed { "signed" } else { "unsigned" },
                if split { "two cycles" } else { "one cycle" },
                if signed { "the sign correction" } else { "the result registers" }
            )));
            let operand = |g: &Self, n: usize| {
                g.operand_site_mux(starts.iter().map(|s| (s, g.src(k.ops[s.op].args[n], s.at))).collect(), w)
            };
            let a = operand(self, 0);
            let bb = operand(self, 1);
            let start = any(starts.iter().map(|s| s.commit.clone()).collect());
            let n = |s: &str| format!("{p}_{s}");
            self.m.add(Item::Wire { name: n("start"), width: 1, value: Some(start), comment: None });
            self.m.add(Item::Wire { name: n("a"), width: w, value: Some(a), comment: None });
            self.m.add(Item::Wire { name: n("b"), width: w, value: Some(bb), comment: None });
            for (r, width) in [("q", w), ("r", w), ("dn", w), ("a0", w), ("quot", w), ("rem", w)] {
                self.m.add(Item::Reg { name: n(r), width });
            }
            // The signs of the results and, for a divisor's carry in, whether it is not negative.
            let sign_flags: &[&str] = if signed { &["neg_q", "neg_r", "cin"] } else { &[] };
            for r in sign_flags.iter().chain(&["zero"]) {
                self.m.add(Item::Reg { name: n(r), width: 1 });
            }
            let cin = if signed { id(n("cin")) } else { lit(1, 1) };
            let control = DividerControl::declare(&mut self.m, &p, unit);
            let mut always = Vec::new();

            // The step: sums, registered first when the step takes two cycles.
            let rs = n("rs");
            self.m.add(Item::Wire {
                name: rs.clone(),
                width: w + 1,
                value: Some(Expr::Concat(vec![id(n("r")), bit_of(&n("q"), w, w - 1)])),
                comment: None,
            });
            let sums = step_sums(&p, w, &rs, &n("dn"), &cin);
            let sum_name = |s: &str| if split { format!("{s}_r") } else { s.to_string() };
            for (name, width, value) in sums {
                if split {
                    self.m.add(Item::Wire { name: name.clone(), width, value: Some(value), comment: None });
                    self.m.add(Item::Reg { name: sum_name(&name), width });
                    always.push(set(sum_name(&name), id(name)));
                } else {
                    self.m.add(Item::Wire { name, width, value: Some(value), comment: None });
                }
            }
            let (ge, next_r) = step_select(&mut self.m, &p, w, &rs, &sum_name);

            // The quotient and remainder with their signs applied (a signed division's `-q`
            // doubles as the dividend's absolute value in the preparation).
            let (quot, rem, abs_q) = if signed {
                let (nq, nr) = if split {
                    (
                        registered_negation(&mut self.m, &mut always, &n("q"), w),
                        registered_negation(&mut self.m, &mut always, &n("r"), w),
                    )
                } else {
                    (negation(&mut self.m, &n("q_neg"), &n("q"), w), negation(&mut self.m, &n("r_neg"), &n("r"), w))
                };
                let quot = cond(id(n("neg_q")), nq.clone(), id(n("q")));
                (quot, cond(id(n("neg_r")), nr, id(n("r"))), Some(nq))
            } else {
                (id(n("q")), id(n("r")), None)
            };
            let quot = cond(id(n("zero")), lit(w, u64::MAX), quot);
            let rem = cond(id(n("zero")), id(n("a0")), rem);

            let mut load = vec![set(n("q"), id(n("a"))), set(n("r"), lit(w, 0)), set(n("a0"), id(n("a")))];
            if signed {
                let (sa, sb) = (bit_of(&n("a"), w, w - 1), bit_of(&n("b"), w, w - 1));
                load.push(set(n("neg_q"), bin(BinOp::Xor, sa.clone(), sb.clone())));
                load.push(set(n("neg_r"), sa));
                // A negative divisor is added as it is; another one's complement plus one.
                let flip = Expr::Repeat(w, Box::new(un(UnOp::Not, sb.clone())));
                load.push(set(n("dn"), bin(BinOp::Xor, id(n("b")), flip)));
                load.push(set(n("cin"), un(UnOp::Not, sb)));
            } else {
                load.push(set(n("dn"), un(UnOp::Not, id(n("b")))));
            }
            let next_q = if w == 1 { ge } else { Expr::Concat(vec![Expr::Slice(n("q"), w - 2, 0), ge]) };
            // Division by zero, from the registered divisor in every cycle after the start (the
            // result is written two cycles after it at the earliest): the equality tree of the
            // divisor's bits behind the sites' multiplexer was durbin's critical path on the
            // iCE40. `dn` is `~b` for a divisor that is not negative, so all ones for zero.
            let dn_ones = bin(BinOp::Eq, id(n("dn")), lit(w, u64::MAX));
            let zero = if signed { and(id(n("cin")), dn_ones) } else { dn_ones };
            let mut busy = vec![set(n("zero"), zero)];
            if let Some(abs_q) = abs_q {
                busy.push(Stmt::If(
                    control.prepares(),
                    vec![set(n("q"), cond(id(n("neg_r")), abs_q, id(n("q"))))],
                    vec![],
                ));
            }
            busy.push(Stmt::If(control.steps(), vec![set(n("r"), next_r), set(n("q"), next_q)], vec![]));
            always.push(Stmt::If(id(n("start")), load, busy));
            always.push(Stmt::If(control.finishes(), vec![set(n("quot"), quot), set(n("rem"), rem)], vec![]));
            self.m.add(Item::Always(always));
            self.m.add(Item::Always(control.sequence(w)));
        }
    }
}

/// The flags that sequence a sequential divider: its preparation, its steps (and, with two
/// cycles per step, which of the two), its result. Each is a register, so the datapath's
/// enables are a LUT level from registers and the divider's start.
struct DividerControl {
    p: String,
    signed: bool,
    split: bool,
}

impl DividerControl {
    fn declare(m: &mut Module, p: &str, unit: &Unit) -> DividerControl {
        let UnitKind::Divider { signed } = unit.kind;
        let c = DividerControl { p: p.to_string(), signed, split: unit.step_cycles > 1 };
        m.add(Item::Reg { name: c.name("count"), width: clog2(u64::from(unit.width) + 1) });
        for flag in c.flags() {
            m.add(Item::Reg { name: c.name(flag), width: 1 });
        }
        c
    }

    fn name(&self, s: &str) -> String {
        format!("{}_{s}", self.p)
    }

    /// `prep`: the preparation's (first) cycle; `prep2`: its second (two-cycle steps); `step`:
    /// a step's (first) cycle; `step2`: its second; `fin`: the result's (first) cycle; `fin2`:
    /// its second (signed, two-cycle steps).
    fn flags(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        if self.signed {
            f.push("prep");
            if self.split {
                f.push("prep2");
            }
        }
        f.push("step");
        if self.split {
            f.push("step2");
        }
        f.push("fin");
        if self.split && self.signed {
            f.push("fin2");
        }
        f
    }

    fn flag(&self, s: &str) -> Expr {
        id(self.name(s))
    }

    /// The cycle the dividend's absolute value is written in.
    fn prepares(&self) -> Expr {
        self.flag(if self.split { "prep2" } else { "prep" })
    }

    /// The cycle a step writes the next remainder and quotient bit in.
    fn steps(&self) -> Expr {
        self.flag(if self.split { "step2" } else { "step" })
    }

    /// The cycle the result registers are written in.
    fn finishes(&self) -> Expr {
        self.flag(if self.split && self.signed { "fin2" } else { "fin" })
    }

    /// The sequence from a start to the result: the preparation (signed), `w` steps counted
    /// down in `count`, the result; each flag follows the one before it.
    fn sequence(&self, w: u32) -> Vec<Stmt> {
        let cw = clog2(u64::from(w) + 1);
        let count = self.name("count");
        let clear = self.flags().iter().map(|f| set(self.name(f), lit(1, 0))).collect();
        let first = if self.signed { "prep" } else { "step" };
        let mut start: Vec<Stmt> =
            self.flags().iter().map(|f| set(self.name(f), lit(1, u64::from(*f == first)))).collect();
        start.push(set(count.clone(), lit(cw, u64::from(w))));
        let last = bin(BinOp::Eq, id(&count), lit(cw, 1));
        let written = self.steps();
        let another = and(written.clone(), un(UnOp::LogNot, last.clone()));
        let mut run = Vec::new();
        if self.signed {
            run.push(set(self.name("prep"), lit(1, 0)));
            if self.split {
                run.push(set(self.name("prep2"), self.flag("prep")));
            }
            run.push(set(self.name("step"), any(vec![self.prepares(), another])));
        } else {
            run.push(set(self.name("step"), another));
        }
        if self.split {
            run.push(set(self.name("step2"), self.flag("step")));
        }
        run.push(set(self.name("fin"), and(written.clone(), last)));
        if self.split && self.signed {
            run.push(set(self.name("fin2"), self.flag("fin")));
        }
        run.push(Stmt::If(written, vec![set(count.clone(), bin(BinOp::Sub, id(&count), lit(cw, 1)))], vec![]));
        vec![Stmt::If(id("rst"), clear, vec![Stmt::If(id(self.name("start")), start, run)])]
    }
}

/// The sums of one restoring step, as wires `(name, width, value)`: `rs + {1, dn} + cin` over
/// `w + 1` bits, whose sign says whether `rs < |d|`. From 8 bits on it is a carry-select adder:
/// the low half's chain (`lo`) runs beside both versions of the high half (`hi0` without its
/// carry, `hi1` with it), each a chain of about half the width.
fn step_sums(p: &str, w: u32, rs: &str, dn: &str, cin: &Expr) -> Vec<(String, u32, Expr)> {
    let n = |s: &str| format!("{p}_{s}");
    let plus_cin = |width: u32| Expr::Concat(vec![lit(width, 0), cin.clone()]);
    if w < 8 {
        let sum = bin(BinOp::Add, bin(BinOp::Add, id(rs), Expr::Concat(vec![lit(1, 1), id(dn)])), plus_cin(w));
        return vec![(n("diff"), w + 1, sum)];
    }
    let (l, h) = halves(w);
    let lo = bin(
        BinOp::Add,
        bin(
            BinOp::Add,
            Expr::Concat(vec![lit(1, 0), Expr::Slice(rs.to_string(), l - 1, 0)]),
            Expr::Concat(vec![lit(1, 0), Expr::Slice(dn.to_string(), l - 1, 0)]),
        ),
        plus_cin(l),
    );
    let dn_hi = Expr::Concat(vec![lit(1, 1), Expr::Slice(dn.to_string(), w - 1, l)]);
    let rs_hi = Expr::Slice(rs.to_string(), w, l);
    let hi0 = bin(BinOp::Add, rs_hi.clone(), dn_hi.clone());
    let hi1 = bin(BinOp::Add, bin(BinOp::Add, rs_hi, dn_hi), lit(h, 1));
    vec![(n("lo"), l + 1, lo), (n("hi0"), h, hi0), (n("hi1"), h, hi1)]
}

/// The low and high halves' widths of a step's `w + 1`-bit sum.
fn halves(w: u32) -> (u32, u32) {
    let l = w.div_ceil(2);
    (l, w + 1 - l)
}

/// The quotient bit and the next remainder from a step's sums (`sum(wire)` names where each
/// is read: the wire, or its register): the sum where it is not negative, the shifted
/// remainder `rs` where it is. The high half is chosen per carry of the low half before the
/// carry is known (`rn0`, `rn1`), so the carry picks between two values.
fn step_select(m: &mut Module, p: &str, w: u32, rs: &str, sum: &dyn Fn(&str) -> String) -> (Expr, Expr) {
    let n = |s: &str| format!("{p}_{s}");
    let mut wire = |name: String, width: u32, value: Expr| {
        m.add(Item::Wire { name, width, value: Some(value), comment: None });
    };
    if w < 8 {
        let diff = sum(&n("diff"));
        wire(n("ge"), 1, un(UnOp::LogNot, Expr::Bit(diff.clone(), w)));
        let next_r = cond(id(n("ge")), Expr::Slice(diff, w - 1, 0), Expr::Slice(rs.to_string(), w - 1, 0));
        return (id(n("ge")), next_r);
    }
    let (l, h) = halves(w);
    let (lo, hi0, hi1) = (sum(&n("lo")), sum(&n("hi0")), sum(&n("hi1")));
    let carry = Expr::Bit(lo.clone(), l);
    for (name, hi) in [("rn0", &hi0), ("rn1", &hi1)] {
        wire(
            n(name),
            h - 1,
            cond(
                Expr::Bit(hi.clone(), h - 1),
                Expr::Slice(rs.to_string(), w - 1, l),
                Expr::Slice(hi.clone(), h - 2, 0),
            ),
        );
    }
    wire(
        n("ge"),
        1,
        un(UnOp::LogNot, cond(carry.clone(), Expr::Bit(hi1.clone(), h - 1), Expr::Bit(hi0.clone(), h - 1))),
    );
    let next_r = Expr::Concat(vec![
        cond(carry, id(n("rn1")), id(n("rn0"))),
        cond(id(n("ge")), Expr::Slice(lo, l - 1, 0), Expr::Slice(rs.to_string(), l - 1, 0)),
    ]);
    (id(n("ge")), next_r)
}

/// One restoring-division step on `w`-bit registers `r` (partial remainder), `q` (dividend bits
/// still to shift in, then the quotient) and `dn` (with carry in `cin`, the divisor to add:
/// `dn + cin = 2^w - |d|`), all combinational: `rs = {r, q[w-1]}`, and `rs - |d|` replaces it
/// when it is not negative. Returns the quotient bit and the next `r`.
pub(super) fn division_step(m: &mut Module, p: &str, w: u32, r: &str, q: &str, dn: &str, cin: &Expr) -> (Expr, Expr) {
    let rs = format!("{p}_rs");
    m.add(Item::Wire {
        name: rs.clone(),
        width: w + 1,
        value: Some(Expr::Concat(vec![id(r), bit_of(q, w, w - 1)])),
        comment: None,
    });
    for (name, width, value) in step_sums(p, w, &rs, dn, cin) {
        m.add(Item::Wire { name, width, value: Some(value), comment: None });
    }
    step_select(m, p, w, &rs, &|s| s.to_string())
}

/// `-x` of the `w`-bit register `x` as it was a cycle before, from registers the datapath
/// writes every cycle (`stmts`): from 8 bits on, the negated halves and whether the low half
/// is zero (the high half of `-x` is `-x_hi` then, `~x_hi` otherwise). Valid where `x` has not
/// changed for a cycle.
fn registered_negation(m: &mut Module, stmts: &mut Vec<Stmt>, x: &str, w: u32) -> Expr {
    let reg = |m: &mut Module, stmts: &mut Vec<Stmt>, name: String, width: u32, value: Expr| {
        m.add(Item::Reg { name: name.clone(), width });
        stmts.push(set(name.clone(), value));
        id(name)
    };
    if w < 8 {
        return reg(m, stmts, format!("{x}_neg"), w, un(UnOp::Neg, id(x)));
    }
    let l = w / 2;
    let lo = reg(m, stmts, format!("{x}_neg_lo"), l, un(UnOp::Neg, Expr::Slice(x.to_string(), l - 1, 0)));
    let hi = reg(m, stmts, format!("{x}_neg_hi"), w - l, un(UnOp::Neg, Expr::Slice(x.to_string(), w - 1, l)));
    let zero =
        reg(m, stmts, format!("{x}_lo_zero"), 1, bin(BinOp::Eq, Expr::Slice(x.to_string(), l - 1, 0), lit(l, 0)));
    Expr::Concat(vec![cond(zero, hi, un(UnOp::Not, Expr::Slice(x.to_string(), w - 1, l))), lo])
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
