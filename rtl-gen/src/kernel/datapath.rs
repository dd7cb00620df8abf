//! The datapath: one wire per operation result, and the FSM's registers.

use super::*;
use kiln_dataflow::ir::{BinOp as IrBin, CastOp, CmpOp, UnOp as IrUn};

impl Gen<'_> {
    /// The datapath expression of a combinational op.
    pub(super) fn comb_expr(&self, op: Op, at: At) -> Expr {
        let args: Vec<Expr> = self.k.ops[op].args.iter().map(|a| self.src(*a, at)).collect();
        if let (OpKind::PipeLane { lane, .. }, At::Pipe(pi, r)) = (&self.k.ops[op].kind, at) {
            let w = self.result_width(op);
            return cond(args[0].clone(), self.pipe_lane_in_pipeline(op, *lane, pi, r), lit(w, 0));
        }
        self.comb_expr_of(op, args)
    }

    /// The expression of a combinational op applied to `args`.
    pub(super) fn comb_expr_of(&self, op: Op, args: Vec<Expr>) -> Expr {
        let o = &self.k.ops[op];
        let w = self.result_width(op);
        let aw: Vec<u32> = o.args.iter().map(|a| self.k.width(*a)).collect();
        let sign_extended_multiply = kiln_scheduler::timing::sign_extended_operands(self.k, op).is_some();
        // Fully constant operands: compute the value.
        if args.iter().all(|a| matches!(a, Expr::Lit(..))) {
            let vals: Vec<u64> = args.iter().map(|a| if let Expr::Lit(_, v) = a { *v } else { 0 }).collect();
            return lit(w, kiln_dataflow::ir::op::eval(&o.kind, &vals, &aw, w));
        }
        let a = |i: usize| args[i].clone();
        match &o.kind {
            OpKind::Unary(IrUn::Neg) => un(UnOp::Neg, a(0)),
            OpKind::Unary(IrUn::Not) => un(UnOp::Not, a(0)),
            OpKind::Binary(op) => {
                let simple = |x| bin(x, a(0), a(1));
                match op {
                    IrBin::Add => simple(BinOp::Add),
                    IrBin::Sub => simple(BinOp::Sub),
                    IrBin::Mul if sign_extended_multiply => {
                        bin(BinOp::Mul, Expr::Signed(Box::new(a(0))), Expr::Signed(Box::new(a(1))))
                    }
                    IrBin::Mul => simple(BinOp::Mul),
                    IrBin::And => simple(BinOp::And),
                    IrBin::Or => simple(BinOp::Or),
                    IrBin::Xor => simple(BinOp::Xor),
                    IrBin::Shl | IrBin::LShr | IrBin::AShr => {
                        if w == 1 {
                            return a(0);
                        }
                        // The count is taken modulo the width: a constant's is computed; a
                        // variable count (only at power-of-two widths, which the IR verifier
                        // checks) keeps its low bits.
                        let count = match a(1) {
                            Expr::Lit(_, v) => {
                                let c = (v & kiln_dataflow::ir::op::mask(aw[1])) % w as u64;
                                lit(32 - (w - 1).leading_zeros(), c)
                            }
                            _ => {
                                let k = w.trailing_zeros();
                                if aw[1] <= k { a(1) } else { slice(&a(1), k - 1, 0) }
                            }
                        };
                        match op {
                            IrBin::Shl => bin(BinOp::Shl, a(0), count),
                            IrBin::LShr => bin(BinOp::Shr, a(0), count),
                            _ => bin(BinOp::AShr, Expr::Signed(Box::new(a(0))), count),
                        }
                    }
                    _ => lit(w, 0), // divisions run on divider units
                }
            }
            OpKind::Cmp(c) => {
                // A signed comparison is the unsigned comparison of the operands with their sign
                // bits flipped. Written that way it maps to one carry chain; iCE40 synthesis
                // builds `$signed(a) < $signed(b)` with two more LUT levels after the chain
                // (5.6 ns routed on the UP5K, bench/boards/measure-delays).
                let s = |e: Expr| bin(BinOp::Xor, e, lit(aw[0], 1u64 << (aw[0] - 1)));
                match c {
                    CmpOp::Eq => bin(BinOp::Eq, a(0), a(1)),
                    CmpOp::Ne => bin(BinOp::Ne, a(0), a(1)),
                    CmpOp::Ult => bin(BinOp::Lt, a(0), a(1)),
                    CmpOp::Ule => bin(BinOp::Le, a(0), a(1)),
                    CmpOp::Ugt => bin(BinOp::Gt, a(0), a(1)),
                    CmpOp::Uge => bin(BinOp::Ge, a(0), a(1)),
                    CmpOp::Slt => bin(BinOp::Lt, s(a(0)), s(a(1))),
                    CmpOp::Sle => bin(BinOp::Le, s(a(0)), s(a(1))),
                    CmpOp::Sgt => bin(BinOp::Gt, s(a(0)), s(a(1))),
                    CmpOp::Sge => bin(BinOp::Ge, s(a(0)), s(a(1))),
                }
            }
            OpKind::Select => cond(a(0), a(1), a(2)),
            OpKind::Cast(CastOp::Zext) => Expr::Concat(vec![lit(w - aw[0], 0), a(0)]),
            // A negation's sign extended as `sign ? 1...1 : 0...0` rather than `{K{sign}}`:
            // Verilator 5.006 (Debian 12's) miscomputes the replication of the sign bit of a
            // negated zero extension (`{32{m[31]}}` with `m = -{31'd0, e}` gives `ffffff01` for
            // `e = 1`), the lane pattern of a vector comparison widened by a cast. Any other
            // value keeps the replication, which Yosys reads as a sign extension (a signed
            // multiply of sign-extended words takes fewer DSP blocks).
            OpKind::Cast(CastOp::Sext) => {
                let sign = slice_w(&a(0), aw[0], aw[0] - 1, aw[0] - 1);
                let negated =
                    self.k.def_op(o.args[0]).is_some_and(|d| matches!(self.k.ops[d].kind, OpKind::Unary(IrUn::Neg)));
                let upper = if negated {
                    cond(sign, lit(w - aw[0], u64::MAX), lit(w - aw[0], 0))
                } else {
                    Expr::Repeat(w - aw[0], Box::new(sign))
                };
                Expr::Concat(vec![upper, a(0)])
            }
            OpKind::Cast(CastOp::Trunc) => slice(&a(0), w - 1, 0),
            OpKind::Const(c) => lit(w, *c),
            OpKind::WordLane { .. } | OpKind::WordLaneAt(_) => self.word_lane(op, &args),
            OpKind::Load(_)
            | OpKind::Store(_)
            | OpKind::WordLoad(_)
            | OpKind::WordStore { .. }
            | OpKind::WordStoreAt(_)
            | OpKind::PipeRead { .. }
            | OpKind::PipeWrite { .. }
            | OpKind::PipeQuery { .. }
            // Hardware has no output for `printf` (`kiln build` warns).
            | OpKind::Print(_) => lit(w, 0),
            // A lane of the packet the read took (all zeros when it took none).
            OpKind::PipeLane { pipe, lane } => cond(a(0), self.pipe_lane(*pipe, *lane), lit(w, 0)),
            // Float operators with non-constant operands never get here: the scheduler refuses
            // them (`kiln_scheduler::float_ops`) until kiln has floating-point units.
            OpKind::Float(_) | OpKind::FCmp(_) | OpKind::FConv(_) => lit(w, 0),
        }
    }

    pub(super) fn datapath(&mut self) {
        let k = self.k;
        for b in k.rpo() {
            if self.s.pipeline_of[b].is_some() {
                continue;
            }
            let ops: Vec<Op> = k.blocks[b].ops.clone();
            if ops.iter().all(|op| self.s.class(*op) == OpClass::Constant || k.ops[*op].result.is_none()) {
                continue;
            }
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!("{b}: {} step(s), {}", self.s.steps[b], (self.locate)(k.blocks[b].span))));
            for op in ops {
                let Some(r) = k.ops[op].result else { continue };
                let class = self.s.class(op);
                if class == OpClass::Constant {
                    continue;
                }
                let w = k.width(r);
                let value = match class {
                    OpClass::Comb => self.comb_expr(op, At::Fsm(b, self.s.time[op].start)),
                    OpClass::Multi(n) => {
                        let start = self.s.time[op].start;
                        self.multicycle(op, n, At::Fsm(b, start), &|j| id(format!("fire_{b}_{}", start + j)))
                    }
                    // A word's token: whether it was read (its lanes take the response).
                    OpClass::PortLoad(_) if matches!(k.ops[op].kind, OpKind::WordLoad(_)) => {
                        self.pred_at(op, At::Fsm(b, self.s.time[op].end))
                    }
                    OpClass::PortLoad(m) | OpClass::MemLoad(m) => {
                        let data = if matches!(class, OpClass::PortLoad(_)) {
                            id(format!("{}_rb_data", self.port_prefix(m)))
                        } else {
                            id(format!("{}_rdata", self.mem_name(m)))
                        };
                        match k.ops[op].predicate() {
                            // A predicated-off read yields 0, as in the emulator (an on-chip
                            // memory may clear its read data itself).
                            Some(_) if !self.clears_read_data(class) => {
                                cond(self.pred_at(op, At::Fsm(b, self.s.time[op].end)), data, lit(w, 0))
                            }
                            _ => data,
                        }
                    }
                    OpClass::Unit(u) => {
                        let rem = matches!(k.ops[op].kind, OpKind::Binary(IrBin::URem | IrBin::SRem));
                        id(format!("div{}_{}", u.0, if rem { "rem" } else { "quot" }))
                    }
                    OpClass::PipeTransfer(_) => self.transfer_value(op),
                    _ => continue,
                };
                let comment = self.op_comment(op);
                self.m.add(Item::Wire {
                    name: self.wire_name(r),
                    width: w,
                    value: Some(value),
                    comment: Some(comment),
                });
            }
        }
        // Registers: block parameters and values used after their end step.
        self.m.add(Item::Blank);
        self.m.add(Item::Comment(
            "Registers: block parameters (incl. scalar arguments) and values kept across steps.".into(),
        ));
        let mut regs: Vec<Value> = k.values.keys().filter(|v| self.s.registered[*v]).collect();
        regs.sort();
        for v in regs {
            self.m.add(Item::Reg { name: self.reg_name(v), width: k.width(v) });
        }
    }
}
