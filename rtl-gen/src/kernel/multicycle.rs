//! Multi-cycle operations (`OpClass::Multi`): logic slower than the clock period, split into
//! register-separated segments that advance with the schedule (docs/timing.md, "Multi-cycle
//! operations").
//!
//! Adders and subtractors split their carry chain: segment `j` adds bits `[j·s, (j+1)·s)` with
//! the carry registered by segment `j-1`, while the upper operand bits and the finished low
//! result bits travel alongside. Ordered comparisons split the same chain and keep only its
//! carry. Multiplies of 17 to 64 bits (32 on the iCE40) register their 16-bit partial
//! products (one DSP each) and add them in the next cycle; wider ones of 32-bit operands (a
//! division's magic-number multiply on the iCE40) add them a 16-bit digit per cycle. Every
//! other operator computes in front of `n-1` output
//! registers, the form synthesis retimes and DSP inference absorbs into the multiplier's own
//! pipeline registers.

use super::*;
use kiln_dataflow::ir::{BinOp as IrBin, CastOp, CmpOp, UnOp as IrUn};

impl Gen<'_> {
    /// Declares the segment registers of `op` (operands read at `at`) and returns its result,
    /// valid `n - 1` cycles later. `advance(j)` is the event that moves segment `j`'s output
    /// into the registers of segment `j + 1`.
    pub(super) fn multicycle(&mut self, op: Op, n: u32, at: At, advance: &dyn Fn(u32) -> Expr) -> Expr {
        let k = self.k;
        let Some(r) = k.ops[op].result else { return lit(1, 0) };
        let w = k.width(r);
        let base = format!("{}_m", self.wire_name(r));
        if let Some(product) = self.shared_product(op) {
            return product;
        }
        let args: Vec<Expr> = k.ops[op].args.iter().map(|a| self.src(*a, at)).collect();
        if matches!(k.ops[op].kind, OpKind::Binary(IrBin::Mul)) {
            // A multiplier's operand registers stay in the fabric: the scheduler times the
            // multiply from them (`Timing::delay_ns`), not the logic in front of them through
            // the route into a DSP block.
            for a in &args {
                if let Expr::Ident(name) = a {
                    self.m.keep_register(name);
                }
            }
        }
        match k.ops[op].kind {
            OpKind::Binary(b @ (IrBin::Add | IrBin::Sub)) if n <= w => {
                let sub = b == IrBin::Sub;
                let carried = self.skewed_accumulator_of(op).and_then(|acc| {
                    let i = k.ops[op].args.iter().position(|a| *a == acc)?;
                    Some((i, self.reg_name(acc)))
                });
                self.segmented_add(&base, w, n, args, sub, carried, advance)
            }
            // -x = 0 - x: the same chain as a subtraction's, split the same way.
            OpKind::Unary(IrUn::Neg) if n <= w => {
                let x = args.into_iter().next().unwrap_or(lit(w, 0));
                self.segmented_add(&base, w, n, vec![lit(w, 0), x], true, None, advance)
            }
            OpKind::Cmp(c) if !matches!(c, CmpOp::Eq | CmpOp::Ne) && n <= k.width(k.ops[op].args[0]) => {
                let aw = k.width(k.ops[op].args[0]);
                // x < y, or its negation, for every ordered comparison; a signed one compares
                // the operands with their sign bits flipped, as unsigned numbers.
                let (swap, negate) = match c {
                    CmpOp::Ult | CmpOp::Slt => (false, false),
                    CmpOp::Uge | CmpOp::Sge => (false, true),
                    CmpOp::Ugt | CmpOp::Sgt => (true, false),
                    _ => (true, true),
                };
                let signed = matches!(c, CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge);
                let flip = |e: Expr| if signed { bin(BinOp::Xor, e, lit(aw, 1u64 << (aw - 1))) } else { e };
                let (x, y) = if swap { (args[1].clone(), args[0].clone()) } else { (args[0].clone(), args[1].clone()) };
                self.segmented_less(&base, aw, n, flip(x), flip(y), negate, advance)
            }
            OpKind::Binary(IrBin::Mul) if self.s.timing.splits_multiply(k, op) => {
                let operands = SplitOperands {
                    significant: [0, 1].map(|n| significant_bits(k, k.ops[op].args[n])),
                    sign_extended_from: [0, 1].map(|n| sign_extension_source(k, k.ops[op].args[n])),
                    registered: self.s.registered_operands.contains(&op),
                    args,
                };
                self.split_multiply(&base, w, n, operands, advance)
            }
            OpKind::Binary(IrBin::Mul)
                if (33..=64).contains(&w)
                    && n >= DIGIT_SERIAL_STAGES
                    && k.ops[op].args.iter().all(|a| significant_bits(k, *a) <= 32) =>
            {
                self.digit_serial_multiply(&base, w, n, args, advance)
            }
            OpKind::Binary(b @ (IrBin::UDiv | IrBin::SDiv | IrBin::URem | IrBin::SRem))
                if n == self.s.timing.divider_latency(w, matches!(b, IrBin::SDiv | IrBin::SRem)) + 1 =>
            {
                let signed = matches!(b, IrBin::SDiv | IrBin::SRem);
                let rem = matches!(b, IrBin::URem | IrBin::SRem);
                match at {
                    At::Pipe(pi, start) if self.pp(pi).ii > 1 => {
                        self.folded_divider(&base, w, args, signed, rem, (pi, start))
                    }
                    _ => self.pipelined_divider(&base, w, args, signed, rem, advance),
                }
            }
            _ => {
                let value = self.comb_expr_of(op, args);
                let mut stmts = Vec::new();
                for j in 1..n {
                    let name = format!("{base}{j}");
                    self.m.add(Item::Reg { name: name.clone(), width: w });
                    let from = if j == 1 { value.clone() } else { id(format!("{base}{}", j - 1)) };
                    stmts.push(Stmt::If(advance(j - 1), vec![set(name, from)], vec![]));
                }
                self.m.add(Item::Always(stmts));
                id(format!("{base}{}", n - 1))
            }
        }
    }

    /// A multiply of 17 to `Timing::split_multiply_max_width` bits over `n >= 2` cycles as
    /// 16-bit partial products: those of
    /// chunks `i` and `j` with `16(i + j) < w` (the others only reach bits above the result),
    /// each one DSP multiply registered in the first cycle, summed at their offsets in the
    /// second, then `n - 2` output registers (a product wider than 32 bits over three cycles
    /// or more is summed in halves, the second cycle's two sums registered and joined in the
    /// third, then `n - 3` output registers). Yosys packs neither its own output registers nor
    /// the adder of the partial products into the DSP blocks, so the register between them is
    /// written here; where the device registers products in the DSP blocks
    /// (`Timing::registers_products_in_dsp`) it is each block's own output register, the block
    /// instantiated (`dsp`). With `registered_operands` (`Schedule::registered_operands`) the
    /// operands are first registered in the fabric (`keep`, so that the route into the DSP
    /// block starts at a register), and everything after is a cycle later.
    pub(super) fn split_multiply(
        &mut self,
        base: &str,
        w: u32,
        n: u32,
        operands: SplitOperands,
        advance: &dyn Fn(u32) -> Expr,
    ) -> Expr {
        let SplitOperands { args, mut significant, sign_extended_from, registered: registered_operands } = operands;
        // A constant operand (`Some((0, c))` for the first): synthesis folds the products of
        // its zero chunks away and makes shifts of its powers of two, so only its other chunks'
        // products are DSP multiplies (symm's `x * 30`).
        let constant = args.iter().enumerate().find_map(|(n, x)| match x {
            Expr::Lit(_, c) => Some((n, *c)),
            _ => None,
        });
        // Two sign extensions, of `x` and `y` bits with `x + y >= w` (`(long)a * b`): modulo
        // 2^w, `sext(a) * sext(b) = a * b - 2^x s_a b - 2^y s_b a` for the operands' unsigned
        // values and sign bits (the `2^(x + y)` term vanishes), so only the partial products of
        // the operands' own bits are multiplies, and one registered correction is subtracted
        // (ECP5 dot: four DSP products instead of three and seven in the fabric).
        let signed_from = match sign_extended_from {
            [Some(x), Some(y)] if x + y >= w && x < w && y < w && constant.is_none() => Some((x, y)),
            _ => None,
        };
        if let Some((x, y)) = signed_from {
            significant = [x, y];
        }
        let (mut a, mut b) = operand_wires(&mut self.m, base, w, &args);
        let mut stmts = Vec::new();
        // Cycles before the partial products.
        let mut first = 0;
        if registered_operands {
            let (ra, rb) = (format!("{base}_ra"), format!("{base}_rb"));
            for reg in [&ra, &rb] {
                self.m.add(Item::Reg { name: reg.clone(), width: w });
                self.m.keep_register(reg);
            }
            stmts.push(Stmt::If(advance(0), vec![set(ra.clone(), id(&a)), set(rb.clone(), id(&b))], vec![]));
            (a, b, first) = (ra, rb, 1);
        }
        // Wider products are summed in two cycles when there is a cycle to spare (below).
        let summed_in_halves = w > 32 && n > first + 2;
        // The partial products' sum must fit the cycle after the DSP blocks' routes out: one
        // of 32 bits does, and each half of a wider one; the 64-bit sum of a division's
        // magic-number multiply in one cycle did not (covariance, seidel-2d: 120 -> 88 MHz).
        let in_dsp = self.s.timing.registers_products_in_dsp() && (w <= 32 || summed_in_halves);
        // Bits [lo, lo + width) of `x`, widened to `to` bits.
        let part = |x: &str, lo: u32, width: u32, to: u32| {
            let bits = slice_w(&id(x), w, lo + width - 1, lo);
            if to > width { Expr::Concat(vec![lit(to - width, 0), bits]) } else { bits }
        };
        // Whether a partial product is a multiply at all: neither of its operand chunks is
        // known to be zero (above an operand's significant bits, or a zero digit of a
        // constant) or a constant power of two (a shift).
        let multiplies = |pp: &kiln_scheduler::timing::PartialProduct| {
            16 * pp.i < significant[0]
                && 16 * pp.j < significant[1]
                && constant.is_none_or(|(n, c)| {
                    let (chunk, bits) = if n == 0 { (pp.i, pp.a_bits) } else { (pp.j, pp.b_bits) };
                    let digit = (c >> (16 * chunk)) & ((1u64 << bits) - 1);
                    !digit.is_power_of_two() && digit != 0
                })
        };
        // The upper half's sum from more than three DSP blocks' outputs did not fit a cycle
        // (ECP5 dot's seven, 121.8 -> 109.6 MHz): its products then stay in the fabric.
        let upper = kiln_scheduler::timing::partial_products(w).filter(|pp| pp.shift >= 32 && multiplies(pp)).count();
        let mut load = Vec::new();
        // The partial products: register, bit offset in the product, width.
        let mut products = Vec::new();
        // Only the product's bits below the result's top matter.
        for pp in kiln_scheduler::timing::partial_products(w) {
            let (i, j, shift, pw, ai, bj) = (pp.i, pp.j, pp.shift, pp.width, pp.a_bits, pp.b_bits);
            // Above a sign extension's own bits the chunks are its sign, which the correction
            // accounts for.
            if signed_from.is_some() && (16 * i >= significant[0] || 16 * j >= significant[1]) {
                continue;
            }
            let name = format!("{base}_p{i}{j}");
            let block = in_dsp && multiplies(&pp) && (shift < 32 || upper <= 3);
            if block && ai.max(bj) <= dsp::OPERAND_BITS && pw <= dsp::PRODUCT_BITS {
                let (x, y) = (part(&a, 16 * i, ai, dsp::OPERAND_BITS), part(&b, 16 * j, bj, dsp::OPERAND_BITS));
                let product = self.registered_product(&name, x, y, advance(first));
                add_wire(&mut self.m, name.clone(), pw, slice_w(&id(product), dsp::PRODUCT_BITS, pw - 1, 0));
            } else {
                self.m.add(Item::Reg { name: name.clone(), width: pw });
                load.push(set(name.clone(), bin(BinOp::Mul, part(&a, 16 * i, ai, pw), part(&b, 16 * j, bj, pw))));
            }
            products.push((name, shift, pw));
        }
        // The correction above its `m = min(x, y)` zero low bits: `(s_a ? b << x : 0) +
        // (s_b ? a << y : 0)`, shifted down by `m`, of `w - m` bits.
        let correction = signed_from.map(|(x, y)| {
            let m = x.min(y);
            let term = |sign: &str, sign_bit: u32, other: &str, shift: u32| {
                // `other`'s low `w - shift` bits (below its sign, as `x + y >= w`), then zeros.
                let mut bits = vec![slice_w(&id(other), w, w - shift - 1, 0)];
                if shift > m {
                    bits.push(lit(shift - m, 0));
                }
                let shifted = if bits.len() == 1 { bits.remove(0) } else { Expr::Concat(bits) };
                cond(slice_w(&id(sign), w, sign_bit, sign_bit), shifted, lit(w - m, 0))
            };
            let name = format!("{base}_c");
            self.m.add(Item::Reg { name: name.clone(), width: w - m });
            load.push(set(name.clone(), bin(BinOp::Add, term(&a, x - 1, &b, x), term(&b, y - 1, &a, y))));
            (name, m)
        });
        if !load.is_empty() {
            stmts.push(Stmt::If(advance(first), load, vec![]));
        }
        // The partial products at bits `from` to `below`, placed in a field at bit `from`.
        let terms_in = |from: u32, below: u32| -> Vec<Placed> {
            products
                .iter()
                .filter(|(_, shift, _)| (from..below).contains(shift))
                .map(|(name, shift, pw)| Placed { name: name.clone(), at: shift - from, width: *pw })
                .collect()
        };
        // The correction sits at bit `m` of the product (`m - from` of a field at `from`); with
        // both operands of 32 bits or more it belongs to the upper half.
        let correction_from =
            |from: u32| correction.as_ref().map(|(c, m)| Placed { name: c.clone(), at: m - from, width: w - m });
        let (low_correction, high_correction) = match &correction {
            Some((_, m)) if *m >= 32 => (None, correction_from(32)),
            Some(_) => (correction_from(0), None),
            None => (None, None),
        };
        let (mut value, mut registered) = (field_sum(&terms_in(0, w), correction_from(0).as_ref(), w), first + 2);
        if summed_in_halves {
            // Up to ten partial products summed in one cycle were ECP5 dot's and gemver's
            // critical path (64-bit chains, four deep): with a cycle to spare, the products
            // below bit 32 and those above are summed apart and registered, and the halves
            // joined in the next cycle (one chain of `w - 32` bits).
            let (low, high) = (format!("{base}_lo"), format!("{base}_hi"));
            self.m.add(Item::Reg { name: low.clone(), width: w });
            self.m.add(Item::Reg { name: high.clone(), width: w - 32 });
            stmts.push(Stmt::If(
                advance(first + 1),
                vec![
                    set(low.clone(), field_sum(&terms_in(0, 32), low_correction.as_ref(), w)),
                    set(high.clone(), field_sum(&terms_in(32, w), high_correction.as_ref(), w - 32)),
                ],
                vec![],
            ));
            value = bin(BinOp::Add, id(low), Expr::Concat(vec![id(high), lit(32, 0)]));
            registered += 1;
        }
        for j in registered..n {
            let name = format!("{base}{j}");
            self.m.add(Item::Reg { name: name.clone(), width: w });
            stmts.push(Stmt::If(advance(j - 1), vec![set(name.clone(), value)], vec![]));
            value = id(name);
        }
        if !stmts.is_empty() {
            self.m.add(Item::Always(stmts));
        }
        value
    }

    /// A product of `w` (33 to 64) bits of operands that fit 32 bits (a division's magic-number
    /// multiply: a zero-extended dividend times a constant below 2^32) over `n >= 5` cycles,
    /// where `split_multiply` would sum its partial products in one cycle through 64-bit carry
    /// chains (the iCE40's critical path of covariance, seidel-2d and lookup). The four 16 x 16
    /// products are registered in the first cycle, then summed a 16-bit digit per cycle, each
    /// digit one chain of 16 bits with its carry in and out:
    /// `p00 + (p01 + p10) << 16 + p11 << 32`, the middle sum's digits computed a cycle ahead of
    /// the digits they join. Then `n - 5` output registers.
    fn digit_serial_multiply(
        &mut self,
        base: &str,
        w: u32,
        n: u32,
        args: Vec<Expr>,
        advance: &dyn Fn(u32) -> Expr,
    ) -> Expr {
        let (a, b) = operand_wires(&mut self.m, base, w, &args);
        let reg = |g: &mut Self, name: &str, width: u32| {
            let name = format!("{base}_{name}");
            g.m.add(Item::Reg { name: name.clone(), width });
            name
        };
        // Bits [hi:lo] of register or wire `x` of `width` bits.
        let bits = |x: &str, width: u32, hi: u32, lo: u32| slice_w(&id(x), width, hi, lo);
        let widen = |x: Expr, by: u32| Expr::Concat(vec![lit(by, 0), x]);
        // A 16-bit digit sum with a carry in: 17 bits, the carry out on top.
        let digit = |x: Expr, y: Expr, carry: Expr| {
            bin(BinOp::Add, bin(BinOp::Add, widen(x, 1), widen(y, 1)), widen(carry, 16))
        };
        let half = |x: &str, i: u32| bits(x, w, 16 * i + 15, 16 * i);
        let mut stmts = Vec::new();
        // Cycle 0: the partial products.
        let mut load = Vec::new();
        let mut p = [[String::new(), String::new()], [String::new(), String::new()]];
        for i in 0..2u32 {
            for j in 0..2u32 {
                let name = reg(self, &format!("p{i}{j}"), 32);
                load.push(set(name.clone(), bin(BinOp::Mul, widen(half(&a, i), 16), widen(half(&b, j), 16))));
                p[i as usize][j as usize] = name;
            }
        }
        stmts.push(Stmt::If(advance(0), load, vec![]));
        let [[p00, p01], [p10, p11]] = p;
        // Cycle 1: the middle sum's low digit.
        let (ml, q00, q01, q10, q11) = (
            reg(self, "ml", 17),
            reg(self, "q00", 32),
            reg(self, "q01", 16),
            reg(self, "q10", 16),
            reg(self, "q11", 32),
        );
        stmts.push(Stmt::If(
            advance(1),
            vec![
                set(&ml, digit(bits(&p01, 32, 15, 0), bits(&p10, 32, 15, 0), lit(1, 0))),
                set(&q00, id(&p00)),
                set(&q01, bits(&p01, 32, 31, 16)),
                set(&q10, bits(&p10, 32, 31, 16)),
                set(&q11, id(&p11)),
            ],
            vec![],
        ));
        // Cycle 2: result digit 1, and the middle sum's high digit.
        let (f1, mh, d0, r11) = (reg(self, "f1", 17), reg(self, "mh", 17), reg(self, "d0", 16), reg(self, "r11", 32));
        stmts.push(Stmt::If(
            advance(2),
            vec![
                set(&f1, digit(bits(&q00, 32, 31, 16), bits(&ml, 17, 15, 0), lit(1, 0))),
                set(&mh, digit(id(&q01), id(&q10), bits(&ml, 17, 16, 16))),
                set(&d0, bits(&q00, 32, 15, 0)),
                set(&r11, id(&q11)),
            ],
            vec![],
        ));
        // Cycle 3: result digit 2.
        let (f2, e0, e1, s11, mc) =
            (reg(self, "f2", 17), reg(self, "e0", 16), reg(self, "e1", 16), reg(self, "s11", 16), reg(self, "mc", 1));
        stmts.push(Stmt::If(
            advance(3),
            vec![
                set(&f2, digit(bits(&r11, 32, 15, 0), bits(&mh, 17, 15, 0), bits(&f1, 17, 16, 16))),
                set(&e0, id(&d0)),
                set(&e1, bits(&f1, 17, 15, 0)),
                set(&s11, bits(&r11, 32, 31, 16)),
                set(&mc, bits(&mh, 17, 16, 16)),
            ],
            vec![],
        ));
        // Cycle 4: result digit 3 (its carry out is above bit 63).
        let top = bin(BinOp::Add, bin(BinOp::Add, id(&s11), widen(id(&mc), 15)), widen(bits(&f2, 17, 16, 16), 15));
        let product = format!("{base}_f");
        add_wire(&mut self.m, product.clone(), 64, Expr::Concat(vec![top, bits(&f2, 17, 15, 0), id(&e1), id(&e0)]));
        let mut value = bits(&product, 64, w - 1, 0);
        for j in DIGIT_SERIAL_STAGES..n {
            let name = format!("{base}{j}");
            self.m.add(Item::Reg { name: name.clone(), width: w });
            stmts.push(Stmt::If(advance(j - 1), vec![set(name.clone(), value)], vec![]));
            value = id(name);
        }
        self.m.add(Item::Always(stmts));
        value
    }

    /// A restoring divider unrolled in time: the operands are prepared at `start` (a signed
    /// division's absolute values one cycle later), stage `j` computes quotient bit `w - j`, and
    /// the result is corrected for signs (and division by zero: `x/0` is all ones, `x%0` is `x`)
    /// into a register, as the shared sequential divider does: the same values, in the cycles of
    /// its one-cycle-per-bit step (`Timing::divider_latency`, on every device).
    fn pipelined_divider(
        &mut self,
        base: &str,
        w: u32,
        args: Vec<Expr>,
        signed: bool,
        rem: bool,
        advance: &dyn Fn(u32) -> Expr,
    ) -> Expr {
        let st = |j: u32, f: &str| format!("{base}{j}_{f}");
        let mut stmts = Vec::new();
        let o = u32::from(signed);
        let ops = self.divider_operands(base, w, &args, signed, &st(0, ""), advance(0), &mut stmts);
        for j in 1..=w + 1 {
            for (f, width) in [("q", w), ("r", w), ("d", w), ("x", w), ("nq", 1), ("nr", 1), ("z", 1)] {
                // Only what the result needs travels to the end.
                if (f == "x" && !rem) || (f == "nq" && (rem || !signed)) || (f == "nr" && (!rem || !signed)) {
                    continue;
                }
                if j == w + 1 && (f == "d" || f == if rem { "q" } else { "r" }) {
                    continue;
                }
                self.m.add(Item::Reg { name: st(j, f), width });
            }
        }
        let load = ops.first_stage(&mut self.m, w, signed, rem, &|f| st(1, f));
        stmts.push(Stmt::If(advance(o), load, vec![]));
        for j in 1..=w {
            let (next_q, next_r) = quotient_bit(&mut self.m, &format!("{base}{j}"), w, &|f| st(j, f));
            let last = j == w;
            let mut step = vec![set(st(j + 1, "z"), id(st(j, "z")))];
            if !(last && rem) {
                step.push(set(st(j + 1, "q"), next_q));
            }
            if !last || rem {
                step.push(set(st(j + 1, "r"), next_r));
            }
            if !last {
                step.push(set(st(j + 1, "d"), id(st(j, "d"))));
            }
            for f in ["x", "nq", "nr"] {
                let kept = (f == "x" && rem) || (f == "nq" && !rem && signed) || (f == "nr" && rem && signed);
                if kept {
                    step.push(set(st(j + 1, f), id(st(j, f))));
                }
            }
            stmts.push(Stmt::If(advance(j + o), step, vec![]));
        }
        let last = w + 1;
        let corrected = corrected_result(&mut self.m, &|f| st(last, f), &st(last, "neg"), w, signed, rem);
        let result = format!("{base}_result");
        self.m.add(Item::Reg { name: result.clone(), width: w });
        stmts.push(Stmt::If(advance(last + o), vec![set(result.clone(), corrected)], vec![]));
        self.m.add(Item::Always(stmts));
        id(result)
    }

    /// A division's operands on the way into its first quotient-bit stage. A signed division
    /// registers them as they are (`{raw}a`, `{raw}b`, `{raw}z`, loaded at `load`) and takes
    /// their absolute values on the way into the next stage: each negation gets a cycle of its
    /// own.
    #[allow(clippy::too_many_arguments)]
    fn divider_operands(
        &mut self,
        base: &str,
        w: u32,
        args: &[Expr],
        signed: bool,
        raw: &str,
        load: Expr,
        stmts: &mut Vec<Stmt>,
    ) -> DividerOperands {
        let (a, b) = operand_wires(&mut self.m, base, w, args);
        if !signed {
            return DividerOperands { a: a.clone(), b: b.clone(), zero: bin(BinOp::Eq, id(&b), lit(w, 0)), x: id(&a) };
        }
        let name = |f: &str| format!("{raw}{f}");
        for (f, width) in [("a", w), ("b", w), ("z", 1)] {
            self.m.add(Item::Reg { name: name(f), width });
        }
        let regs =
            vec![set(name("a"), id(&a)), set(name("b"), id(&b)), set(name("z"), bin(BinOp::Eq, id(&b), lit(w, 0)))];
        stmts.push(Stmt::If(load, regs, vec![]));
        DividerOperands { a: name("a"), b: name("b"), zero: id(name("z")), x: id(name("a")) }
    }

    /// [`Self::pipelined_divider`] folded for a pipeline whose initiation interval `P` is above
    /// one: a division starts every `P` cycles at most, so the `w` quotient-bit steps run in
    /// `ceil(w / P)` groups of registers, each doing `P` steps on one division before it hands
    /// the division to the next group, in the phase the division was loaded in. The cycles and
    /// values are those of the unrolled divider, with `P` times fewer stages.
    fn folded_divider(
        &mut self,
        base: &str,
        w: u32,
        args: Vec<Expr>,
        signed: bool,
        rem: bool,
        (pi, start): (u32, u32),
    ) -> Expr {
        let ii = self.pp(pi).ii;
        let go = self.go(pi);
        let in_phase = |g: &Self, cycle: u32| g.advances_at(pi, g.phase_is(pi, cycle % ii));
        let st = |j: u32, f: &str| format!("{base}{j}_{f}");
        let mut stmts = Vec::new();
        let o = u32::from(signed);
        let ops = self.divider_operands(base, w, &args, signed, &format!("{base}_in_"), go.clone(), &mut stmts);
        // Group g holds the division from step g·P + 1 to step (g + 1)·P; when `w` is a multiple
        // of P, one more group holds the last remainder and quotient for the result.
        let groups = w.div_ceil(ii);
        let holder = groups + u32::from(w.is_multiple_of(ii));
        let mut fields = vec![("q", w), ("r", w), ("d", w), ("z", 1)];
        if rem {
            fields.push(("x", w));
        }
        if signed {
            fields.push((if rem { "nr" } else { "nq" }, 1));
        }
        for g in 0..holder {
            for (f, width) in &fields {
                self.m.add(Item::Reg { name: st(g, f), width: *width });
            }
        }
        let mut next = Vec::new();
        for g in 0..groups {
            next.push(quotient_bit(&mut self.m, &format!("{base}{g}"), w, &|f| st(g, f)));
        }
        // Every transfer between groups, and the load of group 0, falls in the load's phase.
        let handover = in_phase(self, start + o);
        let load = ops.first_stage(&mut self.m, w, signed, rem, &|f| st(0, f));
        for g in 0..holder {
            let take = if g == 0 {
                load.clone()
            } else {
                let (q, r) = next[g as usize - 1].clone();
                let mut v = vec![set(st(g, "q"), q), set(st(g, "r"), r)];
                v.extend(fields.iter().skip(2).map(|(f, _)| set(st(g, f), id(st(g - 1, f)))));
                v
            };
            let own = match next.get(g as usize) {
                Some((q, r)) => {
                    vec![Stmt::If(go.clone(), vec![set(st(g, "q"), q.clone()), set(st(g, "r"), r.clone())], vec![])]
                }
                None => vec![],
            };
            stmts.push(Stmt::If(handover.clone(), take, own));
        }
        let last = holder - 1;
        let corrected = corrected_result(&mut self.m, &|f| st(last, f), &format!("{base}_neg"), w, signed, rem);
        let result = format!("{base}_result");
        self.m.add(Item::Reg { name: result.clone(), width: w });
        let capture = in_phase(self, start + o + w + 1);
        stmts.push(Stmt::If(capture, vec![set(result.clone(), corrected)], vec![]));
        self.m.add(Item::Always(stmts));
        id(result)
    }

    /// `x < y` (unsigned, `w` bits) as the carry out of `x + ~y + 1`, the chain split into `n`
    /// register-separated segments like an adder's; only the carry and the operand bits still
    /// to add travel between segments. `negate` gives `x >= y` instead.
    #[allow(clippy::too_many_arguments)]
    fn segmented_less(
        &mut self,
        base: &str,
        w: u32,
        n: u32,
        x: Expr,
        y: Expr,
        negate: bool,
        advance: &dyn Fn(u32) -> Expr,
    ) -> Expr {
        let segments = carry_segments(w, n);
        let n = segments.len() as u32;
        add_wire(&mut self.m, format!("{base}_a0"), w, x);
        add_wire(&mut self.m, format!("{base}_b0"), w, un(UnOp::Not, y));
        self.inverted_chain_operands.insert(format!("{base}_b0"));
        let mut stmts = Vec::new();
        for (j, (lo, sw)) in (0..).zip(segments) {
            let rest = w - lo;
            let (a, b) = (format!("{base}_a{j}"), format!("{base}_b{j}"));
            let carry_in = if j == 0 { lit(1, 1) } else { id(format!("{base}_c{j}")) };
            if j > 0 {
                for name in [&a, &b] {
                    self.m.add(Item::Reg { name: name.clone(), width: rest });
                }
                self.m.add(Item::Reg { name: format!("{base}_c{j}"), width: 1 });
            }
            let part = |v: &str| Expr::Concat(vec![lit(1, 0), slice_w(&id(v), rest, sw - 1, 0)]);
            let s = format!("{base}_s{j}");
            add_wire(
                &mut self.m,
                s.clone(),
                sw + 1,
                bin(BinOp::Add, bin(BinOp::Add, part(&a), part(&b)), Expr::Concat(vec![lit(sw, 0), carry_in])),
            );
            let carry_out = Expr::Bit(s, sw);
            if j + 1 == n {
                self.m.add(Item::Always(stmts));
                return if negate { carry_out } else { un(UnOp::Not, carry_out) };
            }
            let upper = |v: &str| slice_w(&id(v), rest, rest - 1, sw);
            stmts.push(Stmt::If(
                advance(j),
                vec![
                    set(format!("{base}_a{}", j + 1), upper(&a)),
                    set(format!("{base}_b{}", j + 1), upper(&b)),
                    set(format!("{base}_c{}", j + 1), carry_out),
                ],
                vec![],
            ));
        }
        lit(1, 0)
    }

    /// `args[0] + args[1]` (or `-`) over `n` carry segments. With `carried = (i, reg)`,
    /// operand `i` is a skewed accumulator's register `reg` (`kiln_scheduler::pipeline::skew`):
    /// segment `j` reads its bits from the register in its own cycle, where the previous
    /// iteration's segment `j` wrote them, instead of from operand registers loaded in the
    /// first cycle.
    #[allow(clippy::too_many_arguments)]
    fn segmented_add(
        &mut self,
        base: &str,
        w: u32,
        n: u32,
        args: Vec<Expr>,
        sub: bool,
        carried: Option<(usize, String)>,
        advance: &dyn Fn(u32) -> Expr,
    ) -> Expr {
        let segments = carry_segments(w, n);
        let n = segments.len() as u32;
        // Operands as named wires, the subtrahend inverted (a - b = a + ~b + 1); from a
        // constant, the difference is the inverted sum of the constant's inverse and the
        // subtrahend (a - b = ~(~a + b)): the inverse of a constant is a constant, so no LUT
        // stands between the subtrahend and the carry chain (the inverting LUT in front of a
        // negation's chain was on lookup's and durbin's critical paths on the iCE40), and the
        // sum's bits are inverted on their way into the registers and the result.
        let inverted_sum = match args[0] {
            Expr::Lit(_, c) if sub => Some(lit(w, !c & kiln_dataflow::ir::op::mask(w))),
            _ => None,
        };
        let (a, b) = match &inverted_sum {
            Some(not_a) => (not_a.clone(), args[1].clone()),
            None if sub => (args[0].clone(), un(UnOp::Not, args[1].clone())),
            None => (args[0].clone(), args[1].clone()),
        };
        add_wire(&mut self.m, format!("{base}_a0"), w, a);
        add_wire(&mut self.m, format!("{base}_b0"), w, b);
        let carry_into_chain = sub && inverted_sum.is_none();
        if carry_into_chain {
            self.inverted_chain_operands.insert(format!("{base}_b0"));
        }
        let out = |e: Expr| if inverted_sum.is_some() { un(UnOp::Not, e) } else { e };
        let mut stmts = Vec::new();
        for (j, (lo, sw)) in (0..).zip(segments) {
            let rest = w - lo; // width of the operand registers of segment j
            let (a, b) = (format!("{base}_a{j}"), format!("{base}_b{j}"));
            let carry_in = if j == 0 { lit(1, carry_into_chain as u64) } else { id(format!("{base}_c{j}")) };
            if j > 0 {
                for (i, name) in [&a, &b].into_iter().enumerate() {
                    match &carried {
                        Some((c, reg)) if *c == i => {
                            add_wire(&mut self.m, name.clone(), rest, slice_w(&id(reg), w, w - 1, lo))
                        }
                        _ => self.m.add(Item::Reg { name: name.clone(), width: rest }),
                    }
                }
                self.m.add(Item::Reg { name: format!("{base}_c{j}"), width: 1 });
                self.m.add(Item::Reg { name: format!("{base}_lo{j}"), width: lo });
            }
            let part = |x: &str| slice_w(&id(x), rest, sw - 1, 0);
            let last = j + 1 == n;
            // The last segment drops its carry out.
            let sum = if last {
                let c = if sw == 1 { carry_in } else { Expr::Concat(vec![lit(sw - 1, 0), carry_in]) };
                bin(BinOp::Add, bin(BinOp::Add, part(&a), part(&b)), c)
            } else {
                bin(
                    BinOp::Add,
                    bin(BinOp::Add, Expr::Concat(vec![lit(1, 0), part(&a)]), Expr::Concat(vec![lit(1, 0), part(&b)])),
                    Expr::Concat(vec![lit(sw, 0), carry_in]),
                )
            };
            let s = format!("{base}_s{j}");
            add_wire(&mut self.m, s.clone(), if last { sw } else { sw + 1 }, sum);
            let low = |s: &str| slice_w(&id(s), sw + 1, sw - 1, 0);
            if j + 1 < n {
                let next = j + 1;
                let upper = |x: &str| slice_w(&id(x), rest, rest - 1, sw);
                let lo_next =
                    if j == 0 { out(low(&s)) } else { Expr::Concat(vec![out(low(&s)), id(format!("{base}_lo{j}"))]) };
                let mut moves = Vec::new();
                for (i, x) in [&a, &b].into_iter().enumerate() {
                    if carried.as_ref().is_none_or(|(c, _)| *c != i) {
                        moves.push(set(format!("{base}_{}{next}", ["a", "b"][i]), upper(x)));
                    }
                }
                moves.push(set(format!("{base}_c{next}"), Expr::Bit(s.clone(), sw)));
                moves.push(set(format!("{base}_lo{next}"), lo_next));
                stmts.push(Stmt::If(advance(j), moves, vec![]));
            } else {
                let result = Expr::Concat(vec![out(id(&s)), id(format!("{base}_lo{j}"))]);
                self.m.add(Item::Always(stmts));
                return result;
            }
        }
        lit(w, 0)
    }
}

/// The segments `(lowest bit, width)` of a `w`-bit carry chain split over `n` cycles: at most
/// `n`, every one but the last equally wide.
pub(super) fn carry_segments(w: u32, n: u32) -> Vec<(u32, u32)> {
    let seg = w.div_ceil(n);
    (0..w.div_ceil(seg)).map(|j| (j * seg, seg.min(w - j * seg))).collect()
}

/// Cycles of [`Gen::digit_serial_multiply`]: the partial products, four digit sums.
const DIGIT_SERIAL_STAGES: u32 = 5;

/// The operands of [`Gen::split_multiply`].
pub(super) struct SplitOperands {
    pub args: Vec<Expr>,
    /// Bits of each operand that may be non-zero (its width when nothing is known).
    pub significant: [u32; 2],
    /// For an operand that is a sign extension, the width it extends.
    pub sign_extended_from: [Option<u32>; 2],
    /// Whether the operands are registered before the partial products
    /// (`Schedule::registered_operands`).
    pub registered: bool,
}

/// How many low bits of `v` can be non-zero, as its definition shows: a constant's, a zero
/// extension's operand width, else its width.
fn significant_bits(k: &Kernel, v: Value) -> u32 {
    if let Some(c) = k.as_const(v) {
        return 64 - c.leading_zeros();
    }
    match k.def_op(v).map(|op| &k.ops[op]) {
        Some(o) if matches!(o.kind, OpKind::Cast(CastOp::Zext)) => k.width(o.args[0]),
        _ => k.width(v),
    }
}

/// The width `v` sign-extends, when its definition is a sign extension.
fn sign_extension_source(k: &Kernel, v: Value) -> Option<u32> {
    match k.def_op(v).map(|op| &k.ops[op]) {
        Some(o) if matches!(o.kind, OpKind::Cast(CastOp::Sext)) => Some(k.width(o.args[0])),
        _ => None,
    }
}

/// Declares wire `name` of `width` bits driven by `value`.
fn add_wire(m: &mut Module, name: String, width: u32, value: Expr) {
    m.add(Item::Wire { name, width, value: Some(value), comment: None });
}

/// A two-operand multi-cycle operation's operands as wires `{base}_a` and `{base}_b` of `w` bits.
fn operand_wires(m: &mut Module, base: &str, w: u32, args: &[Expr]) -> (String, String) {
    let (a, b) = (format!("{base}_a"), format!("{base}_b"));
    add_wire(m, a.clone(), w, args[0].clone());
    add_wire(m, b.clone(), w, args[1].clone());
    (a, b)
}

/// Where a pipelined division's operands are when its first stage loads them.
struct DividerOperands {
    a: String,
    b: String,
    /// Whether the divisor is zero.
    zero: Expr,
    /// The dividend as given (the remainder of a division by zero).
    x: Expr,
}

impl DividerOperands {
    /// The loads of the first quotient-bit registers (`field("q")`, ...): the dividend's and
    /// divisor's absolute values, a zero remainder, the zero flag, and what the result's
    /// correction needs (the dividend for `x % 0`, the result's sign).
    fn first_stage(
        &self,
        m: &mut Module,
        w: u32,
        signed: bool,
        rem: bool,
        field: &dyn Fn(&str) -> String,
    ) -> Vec<Stmt> {
        let mut load = vec![
            set(field("q"), absolute(m, &self.a, w, signed)),
            set(field("r"), lit(w, 0)),
            // `~|b|`: the step adds it with a carry in (`divider::division_step`).
            set(field("d"), un(UnOp::Not, absolute(m, &self.b, w, signed))),
            set(field("z"), self.zero.clone()),
        ];
        if rem {
            load.push(set(field("x"), self.x.clone()));
        }
        if signed {
            let (sa, sb) = (bit_of(&self.a, w, w - 1), bit_of(&self.b, w, w - 1));
            load.push(if rem { set(field("nr"), sa) } else { set(field("nq"), bin(BinOp::Xor, sa, sb)) });
        }
        load
    }
}

/// `|x|` of a signed division's operand register `x`; `x` itself when unsigned.
fn absolute(m: &mut Module, x: &str, w: u32, signed: bool) -> Expr {
    if signed {
        let neg = super::divider::negation(m, &format!("{x}_neg"), x, w);
        cond(bit_of(x, w, w - 1), neg, id(x))
    } else {
        id(x)
    }
}

/// A division's result from its last quotient-bit registers (`field("q")`, ...): the sign
/// applied (`neg` names the negation's wires) and division by zero's value (`x/0` all ones,
/// `x%0 = x`), as the shared sequential divider gives them.
fn corrected_result(
    m: &mut Module,
    field: &dyn Fn(&str) -> String,
    neg: &str,
    w: u32,
    signed: bool,
    rem: bool,
) -> Expr {
    let (value, sign) = if rem { ("r", "nr") } else { ("q", "nq") };
    let v = if signed {
        let negated = super::divider::negation(m, neg, &field(value), w);
        cond(id(field(sign)), negated, id(field(value)))
    } else {
        id(field(value))
    };
    let zero = if rem { id(field("x")) } else { lit(w, u64::MAX) };
    cond(id(field("z")), zero, v)
}

/// One restoring step on registers `field("r")`, `field("q")`, `field("d")`: the next quotient
/// (one more bit shifted in) and the next partial remainder.
fn quotient_bit(m: &mut Module, p: &str, w: u32, field: &dyn Fn(&str) -> String) -> (Expr, Expr) {
    let (ge, next_r) = super::divider::division_step(m, p, w, &field("r"), &field("q"), &field("d"), &lit(1, 1));
    let next_q = if w == 1 { ge } else { Expr::Concat(vec![Expr::Slice(field("q"), w - 2, 0), ge]) };
    (next_q, next_r)
}

/// A term of a sum: register (or wire) `name` of `width` bits at bit `at` of the sum's field.
struct Placed {
    name: String,
    at: u32,
    width: u32,
}

impl Placed {
    /// The term in a field of `field` bits starting at bit `from` of this one's (`at >= from`,
    /// `at + width <= from + field`).
    fn in_field(&self, from: u32, field: u32) -> Expr {
        let at = self.at - from;
        let mut bits = Vec::new();
        if at + self.width < field {
            bits.push(lit(field - at - self.width, 0));
        }
        bits.push(id(&self.name));
        if at > 0 {
            bits.push(lit(at, 0));
        }
        if bits.len() == 1 { bits.remove(0) } else { Expr::Concat(bits) }
    }
}

/// `Σ terms - minus` in a field of `width` bits (every term within it). The bits below the
/// second lowest term come from the lowest alone and are wired through; only the bits above
/// are added. So no carry chain starts with constant-zero carries, which Yosys's `ice40_opt`
/// removes one cell per iteration over the whole design: a split 32-bit product's
/// `p00 + {p01, 16'd0} + {p10, 16'd0}` took sixteen iterations, 5 s of doitgen's 15 s of
/// synthesis.
fn field_sum(terms: &[Placed], minus: Option<&Placed>, width: u32) -> Expr {
    let mut sorted: Vec<&Placed> = terms.iter().collect();
    sorted.sort_by_key(|t| t.at);
    let Some((lowest, others)) = sorted.split_first() else {
        return match minus {
            Some(c) => bin(BinOp::Sub, lit(width, 0), c.in_field(0, width)),
            None => lit(width, 0),
        };
    };
    let through = others
        .iter()
        .copied()
        .chain(minus)
        .map(|t| t.at)
        .min()
        .unwrap_or(width)
        .min(lowest.at + lowest.width)
        .min(width);
    if through <= lowest.at {
        let sum = terms.iter().map(|t| t.in_field(0, width)).reduce(|x, y| bin(BinOp::Add, x, y));
        let sum = sum.unwrap_or_else(|| lit(width, 0));
        return match minus {
            Some(c) => bin(BinOp::Sub, sum, c.in_field(0, width)),
            None => sum,
        };
    }
    // Bits `through` and up: the lowest term's bits above them, the others, the subtrahend.
    let upper_width = width - through;
    let wired = through - lowest.at;
    let mut upper: Vec<Expr> = Vec::new();
    if lowest.width > wired {
        let above = slice_w(&id(&lowest.name), lowest.width, lowest.width - 1, wired);
        let bits = lowest.width - wired;
        upper.push(if bits < upper_width { Expr::Concat(vec![lit(upper_width - bits, 0), above]) } else { above });
    }
    upper.extend(others.iter().map(|t| t.in_field(through, upper_width)));
    let mut low = vec![slice_w(&id(&lowest.name), lowest.width, wired - 1, 0)];
    if lowest.at > 0 {
        low.push(lit(lowest.at, 0));
    }
    if upper_width == 0 {
        return if low.len() == 1 { low.remove(0) } else { Expr::Concat(low) };
    }
    let mut sum = upper.into_iter().reduce(|x, y| bin(BinOp::Add, x, y)).unwrap_or_else(|| lit(upper_width, 0));
    if let Some(c) = minus {
        sum = bin(BinOp::Sub, sum, c.in_field(through, upper_width));
    }
    Expr::Concat([vec![sum], low].concat())
}
