//! Sequential dividers: one per width and signedness, shared by every division of the kernel.
//! Operands are loaded when a division starts; one quotient bit is computed per cycle.

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
                "Divider {ui}: {} {w}-bit, one quotient bit per cycle; x/0 = all ones, x%0 = x.",
                if signed { "signed" } else { "unsigned" }
            )));
            let operand = |g: &Self, n: usize| {
                one_hot_mux(
                    starts.iter().map(|s| (s.sel.clone(), g.src(k.ops[s.op].args[n], s.at))).collect(),
                    lit(w, 0),
                )
            };
            let a = operand(self, 0);
            let bb = operand(self, 1);
            let start = any(starts.iter().map(|s| s.commit.clone()).collect());
            let n = |s: &str| format!("{p}_{s}");
            self.m.add(Item::Wire { name: n("start"), width: 1, value: Some(start), comment: None });
            self.m.add(Item::Wire { name: n("a"), width: w, value: Some(a), comment: None });
            self.m.add(Item::Wire { name: n("b"), width: w, value: Some(bb), comment: None });
            let abs = |g: &mut Self, x: &str| -> Expr {
                if signed {
                    let neg = bit_of(&n(x), w, w - 1);
                    let _ = g;
                    cond(neg, un(UnOp::Neg, id(n(x))), id(n(x)))
                } else {
                    id(n(x))
                }
            };
            let abs_a = abs(self, "a");
            let abs_b = abs(self, "b");
            let cw = clog2(w as u64 + 1);
            for (r, width) in [("q", w), ("r", w), ("d", w), ("a0", w)] {
                self.m.add(Item::Reg { name: n(r), width });
            }
            self.m.add(Item::Reg { name: n("count"), width: cw });
            self.m.add(Item::Reg { name: n("neg_q"), width: 1 });
            self.m.add(Item::Reg { name: n("neg_r"), width: 1 });
            self.m.add(Item::Reg { name: n("zero"), width: 1 });
            // One restoring-division step: shift in the next dividend bit, subtract if possible.
            self.m.add(Item::Wire {
                name: n("rs"),
                width: w + 1,
                value: Some(Expr::Concat(vec![id(n("r")), Expr::Bit(n("q"), w - 1)])),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: n("diff"),
                width: w + 1,
                value: Some(bin(BinOp::Sub, id(n("rs")), Expr::Concat(vec![lit(1, 0), id(n("d"))]))),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: n("ge"),
                width: 1,
                value: Some(un(UnOp::LogNot, Expr::Bit(n("diff"), w))),
                comment: None,
            });
            let quot =
                cond(id(n("zero")), lit(w, u64::MAX), cond(id(n("neg_q")), un(UnOp::Neg, id(n("q"))), id(n("q"))));
            let rem = cond(id(n("zero")), id(n("a0")), cond(id(n("neg_r")), un(UnOp::Neg, id(n("r"))), id(n("r"))));
            self.m.add(Item::Wire { name: n("quot"), width: w, value: Some(quot), comment: None });
            self.m.add(Item::Wire { name: n("rem"), width: w, value: Some(rem), comment: None });
            let (sa, sb) =
                if signed { (bit_of(&n("a"), w, w - 1), bit_of(&n("b"), w, w - 1)) } else { (lit(1, 0), lit(1, 0)) };
            let next_q = Expr::Concat(vec![Expr::Slice(n("q"), w - 2, 0), id(n("ge"))]);
            self.m.add(Item::Always(vec![Stmt::If(
                id("rst"),
                vec![set(n("count"), lit(cw, 0))],
                vec![Stmt::If(
                    id(n("start")),
                    vec![
                        set(n("q"), abs_a),
                        set(n("r"), lit(w, 0)),
                        set(n("d"), abs_b),
                        set(n("a0"), id(n("a"))),
                        set(n("count"), lit(cw, w as u64)),
                        set(n("neg_q"), bin(BinOp::Xor, sa.clone(), sb)),
                        set(n("neg_r"), sa),
                        set(n("zero"), bin(BinOp::Eq, id(n("b")), lit(w, 0))),
                    ],
                    vec![Stmt::If(
                        bin(BinOp::Ne, id(n("count")), lit(cw, 0)),
                        vec![
                            set(
                                n("r"),
                                cond(id(n("ge")), Expr::Slice(n("diff"), w - 1, 0), Expr::Slice(n("rs"), w - 1, 0)),
                            ),
                            set(n("q"), next_q),
                            set(n("count"), bin(BinOp::Sub, id(n("count")), lit(cw, 1))),
                        ],
                        vec![],
                    )],
                )],
            )]));
        }
    }
}
