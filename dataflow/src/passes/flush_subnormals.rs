//! `flush-subnormals`: `-cl-denorms-are-zero`. Every float operation's binary32 operands, and
//! its binary32 result, pass through a flush that makes a subnormal the zero of its sign
//! (`(x & 0x7f800000) == 0 ? x & 0x80000000 : x`). Run at lowering, so the emulator, the
//! simulator and the hardware all compute with the flushed values: the mode is exact in every
//! engine. The sign operations (`-x`, `fabs`, `copysign`) touch bits only and flush nothing;
//! a conversion from an integer never makes a subnormal.

use super::Pass;
use crate::ir::float::Shape;
use crate::ir::*;

pub struct FlushSubnormals;

impl Pass for FlushSubnormals {
    fn name(&self) -> &'static str {
        "flush-subnormals"
    }
    fn description(&self) -> &'static str {
        "flushes subnormal float operands and results to zero (-cl-denorms-are-zero)"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        for b in k.rpo() {
            let mut ops = Vec::new();
            for op in k.blocks[b].ops.clone() {
                let d = k.ops[op].clone();
                let (flush_args, flush_result) = match &d.kind {
                    OpKind::Float(FloatOp::Neg | FloatOp::Abs | FloatOp::Copysign) => (vec![], false),
                    OpKind::Float(f) => {
                        let float_args = match f.shape() {
                            Shape::Floats(n) | Shape::IntResult(n) => n,
                            Shape::FloatInt => 1,
                        };
                        ((0..float_args).collect(), matches!(f.shape(), Shape::Floats(_) | Shape::FloatInt))
                    }
                    OpKind::FCmp(_) => (vec![0, 1], false),
                    OpKind::FConv(FloatConv::FromInt { .. }) => (vec![], false),
                    OpKind::FConv(_) => {
                        let from32 = d.args.first().is_some_and(|a| k.width(*a) == 32);
                        let to32 = d.result.is_some_and(|r| k.width(r) == 32);
                        (if from32 { vec![0] } else { vec![] }, to32 && !from32)
                    }
                    _ => (vec![], false),
                };
                if flush_args.is_empty() && !flush_result {
                    ops.push(op);
                    continue;
                }
                changed = true;
                for i in flush_args {
                    let v = k.ops[op].args[i];
                    let f = flush(k, b, d.span, v, &mut ops);
                    k.ops[op].args[i] = f;
                }
                ops.push(op);
                if flush_result && let Some(r) = d.result {
                    let users_before = ops.len();
                    let f = flush(k, b, d.span, r, &mut ops);
                    // Every use of the result but the flush's own reads the flushed value.
                    let flush_ops: Vec<Op> = ops[users_before..].to_vec();
                    replace_uses_except(k, r, f, &flush_ops);
                }
            }
            k.blocks[b].ops = ops;
        }
        changed
    }
}

/// Appends the ops of `flush(v)` to `ops`; returns its value.
fn flush(k: &mut Kernel, b: Block, span: kiln_diagnostics::Span, v: Value, ops: &mut Vec<Op>) -> Value {
    let mut emit = |k: &mut Kernel, kind: OpKind, args: Vec<Value>, width: u32| -> Value {
        let o = k.ops.push(OpData { kind, args, result: None, block: b, span });
        let r = k.values.push(ValueData { width, def: ValueDef::Op(o), name: None });
        k.ops[o].result = Some(r);
        ops.push(o);
        r
    };
    let exp_mask = emit(k, OpKind::Const(0x7f80_0000), vec![], 32);
    let sign_mask = emit(k, OpKind::Const(0x8000_0000), vec![], 32);
    let zero = emit(k, OpKind::Const(0), vec![], 32);
    let exp = emit(k, OpKind::Binary(BinOp::And), vec![v, exp_mask], 32);
    let tiny = emit(k, OpKind::Cmp(CmpOp::Eq), vec![exp, zero], 1);
    let sign = emit(k, OpKind::Binary(BinOp::And), vec![v, sign_mask], 32);
    emit(k, OpKind::Select, vec![tiny, sign, v], 32)
}

/// Replaces the uses of `from` by `to`, except in the ops `keep` (which compute `to`).
fn replace_uses_except(k: &mut Kernel, from: Value, to: Value, keep: &[Op]) {
    k.replace_uses(from, to);
    for o in keep {
        for a in &mut k.ops[*o].args {
            if *a == to {
                *a = from;
            }
        }
    }
}
