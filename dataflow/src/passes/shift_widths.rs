//! `shift-widths`: a shift by a variable count of a value whose width is not a power of two
//! becomes one the hardware can build. The IR takes a shift count modulo the width; at a power
//! of two that is the count's low bits, elsewhere it is a remainder. So:
//!
//! - where the range analysis proves the count below the width (the narrowed shifts of the
//!   e-graph phase, the normalizers of soft float), the value is extended to the next power of
//!   two, shifted there by the count itself, and truncated back — exactly the same bits;
//! - otherwise the count is first reduced modulo the width (`urem` by a constant, which
//!   `strength-reduce` makes a multiply), then shifted the same way.
//!
//! Exact by construction: `x << (c mod w)` at width w is the low w bits of the zero extension
//! shifted by `c mod w < w`; logical and arithmetic right shifts likewise of the zero and sign
//! extensions. Runs where every other pass has run, before scheduling (the schedule verifier
//! checks that no such shift reaches it).

use super::Pass;
use crate::ir::*;
use crate::ranges::ValueRanges;

pub struct ShiftWidths;

impl Pass for ShiftWidths {
    fn name(&self) -> &'static str {
        "shift-widths"
    }
    fn description(&self) -> &'static str {
        "builds variable shifts of non-power-of-two widths at the next power of two"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let needs = |k: &Kernel, op: Op| {
            let o = &k.ops[op];
            matches!(o.kind, OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr))
                && !k.width(o.args[0]).is_power_of_two()
                && k.as_const(o.args[1]).is_none()
        };
        if !k.blocks.values().flat_map(|b| b.ops.iter()).any(|op| needs(k, *op)) {
            return false;
        }
        let ranges = ValueRanges::compute(k);
        for b in k.rpo() {
            let mut ops = Vec::new();
            for op in k.blocks[b].ops.clone() {
                if !needs(k, op) {
                    ops.push(op);
                    continue;
                }
                let data = k.ops[op].clone();
                let Some(result) = data.result else {
                    ops.push(op);
                    continue;
                };
                let (x, count) = (data.args[0], data.args[1]);
                let w = k.width(x);
                let wide = w.next_power_of_two();
                let cw = k.width(count);
                let below = ranges.facts_in(k, b, count).hi < u64::from(w);
                let span = data.span;
                let mut emit = |k: &mut Kernel, kind: OpKind, args: Vec<Value>, width: u32| -> Value {
                    let o = k.ops.push(OpData { kind, args, result: None, block: b, span });
                    let v = k.values.push(ValueData { width, def: ValueDef::Op(o), name: None });
                    k.ops[o].result = Some(v);
                    ops.push(o);
                    v
                };
                let count = if below {
                    count
                } else {
                    let wc = emit(k, OpKind::Const(u64::from(w)), vec![], cw);
                    emit(k, OpKind::Binary(BinOp::URem), vec![count, wc], cw)
                };
                let extend = if data.kind == OpKind::Binary(BinOp::AShr) { CastOp::Sext } else { CastOp::Zext };
                let xw = emit(k, OpKind::Cast(extend), vec![x], wide);
                let shifted = emit(k, data.kind.clone(), vec![xw, count], wide);
                let back = emit(k, OpKind::Cast(CastOp::Trunc), vec![shifted], w);
                k.replace_uses(result, back);
            }
            k.blocks[b].ops = ops;
        }
        true
    }
}
