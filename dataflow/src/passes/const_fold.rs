//! `const-fold`: evaluates operations whose operands are constants, applies a few identities
//! that are always legal on bit vectors (`x + 0`, `x * 1`, `x & 0`, `select c, x, x`,
//! `trunc(zext(x))`, ...), and turns branches on constants into jumps.
//!
//! Folding uses [`crate::ir::op::eval`], the same definition the emulator uses, so a folded
//! kernel computes exactly what the unfolded one did.

use super::Pass;
use crate::ir::op::{eval, mask};
use crate::ir::*;

pub struct ConstFold;

enum Rewrite {
    Const(u64),
    Alias(Value),
    /// `x + c` (reassociated constants: `(x + c1) + c2`, `(x - c1) + c2`, ...).
    AddConst(Value, u64),
}

fn simplify(k: &Kernel, op: Op) -> Option<Rewrite> {
    let o = &k.ops[op];
    let r = o.result?;
    let w = k.width(r);
    // A read of a constant table at a constant index is that element.
    if let OpKind::Load(m) = o.kind
        && k.mems[m].kind == MemKind::Rom
        && o.predicate().is_none()
        && let (Some(i), Some(init)) = (k.as_const(o.args[0]), k.mems[m].init.as_ref())
        && let Some(v) = init.get(i as usize)
    {
        return Some(Rewrite::Const(*v));
    }
    // Memory and pipe operations (also the word operations of wide ports) are not values of
    // their operands.
    if matches!(o.kind, OpKind::Const(_)) || o.kind.mem().is_some() || o.kind.pipe().is_some() {
        return None;
    }
    let consts: Vec<Option<u64>> = o.args.iter().map(|a| k.as_const(*a)).collect();
    if consts.iter().all(Option::is_some) {
        let args: Vec<u64> = consts.iter().map(|c| c.unwrap_or(0)).collect();
        let aw: Vec<u32> = o.args.iter().map(|a| k.width(*a)).collect();
        return Some(Rewrite::Const(eval(&o.kind, &args, &aw, w)));
    }
    let c = |i: usize| consts.get(i).copied().flatten();
    let a = |i: usize| o.args[i];
    use BinOp::*;
    // `(x ± c1) ± c2 → x + (±c1 ± c2)`: wrapping arithmetic is associative.
    if let OpKind::Binary(outer @ (Add | Sub)) = &o.kind
        && let Some(c2) = c(1)
        && let Some(d) = k.def_op(a(0))
        && let OpKind::Binary(inner @ (Add | Sub)) = &k.ops[d].kind
        && let Some(c1) = k.as_const(k.ops[d].args[1])
        && k.width(k.ops[d].args[0]) == w
    {
        let c1 = if *inner == Sub { c1.wrapping_neg() } else { c1 };
        let c2 = if *outer == Sub { c2.wrapping_neg() } else { c2 };
        return Some(Rewrite::AddConst(k.ops[d].args[0], c1.wrapping_add(c2) & mask(w)));
    }
    match &o.kind {
        OpKind::Binary(b) => match b {
            Add | Or | Xor if c(1) == Some(0) => Some(Rewrite::Alias(a(0))),
            Add | Or | Xor if c(0) == Some(0) => Some(Rewrite::Alias(a(1))),
            Sub | Shl | LShr | AShr if c(1) == Some(0) => Some(Rewrite::Alias(a(0))),
            Mul if c(1) == Some(1) => Some(Rewrite::Alias(a(0))),
            Mul if c(0) == Some(1) => Some(Rewrite::Alias(a(1))),
            Mul | And if c(1) == Some(0) || c(0) == Some(0) => Some(Rewrite::Const(0)),
            And if c(1) == Some(mask(w)) => Some(Rewrite::Alias(a(0))),
            And if c(0) == Some(mask(w)) => Some(Rewrite::Alias(a(1))),
            Or if c(1) == Some(mask(w)) || c(0) == Some(mask(w)) => Some(Rewrite::Const(mask(w))),
            UDiv | SDiv if c(1) == Some(1) => Some(Rewrite::Alias(a(0))),
            Sub | Xor if a(0) == a(1) => Some(Rewrite::Const(0)),
            And | Or if a(0) == a(1) => Some(Rewrite::Alias(a(0))),
            _ => None,
        },
        OpKind::Select => {
            if let Some(cv) = c(0) {
                return Some(Rewrite::Alias(if cv & 1 == 1 { a(1) } else { a(2) }));
            }
            if a(1) == a(2) {
                return Some(Rewrite::Alias(a(1)));
            }
            None
        }
        OpKind::Cast(_) if k.width(a(0)) == w => Some(Rewrite::Alias(a(0))),
        // Truncating an extended value back to its width gives the value.
        OpKind::Cast(CastOp::Trunc)
            if let Some(d) = k.def_op(a(0))
                && matches!(k.ops[d].kind, OpKind::Cast(CastOp::Zext | CastOp::Sext))
                && k.width(k.ops[d].args[0]) == w =>
        {
            Some(Rewrite::Alias(k.ops[d].args[0]))
        }
        OpKind::Cmp(CmpOp::Eq | CmpOp::Ule | CmpOp::Uge | CmpOp::Sle | CmpOp::Sge) if a(0) == a(1) => {
            Some(Rewrite::Const(1))
        }
        OpKind::Cmp(CmpOp::Ne | CmpOp::Ult | CmpOp::Ugt | CmpOp::Slt | CmpOp::Sgt) if a(0) == a(1) => {
            Some(Rewrite::Const(0))
        }
        // A comparison with the end of the operands' range: `x <u 0` and `MAX <u x` never hold,
        // `x <=u MAX` and `0 <=u x` always do (and the signed forms with `MIN`/`MAX`).
        OpKind::Cmp(cmp) => {
            let aw = k.width(a(0));
            let (umax, smin, smax) = (mask(aw), 1u64 << (aw - 1), mask(aw) >> 1);
            let (lhs, rhs) = (c(0), c(1));
            let never = match cmp {
                CmpOp::Ult => rhs == Some(0) || lhs == Some(umax),
                CmpOp::Ugt => lhs == Some(0) || rhs == Some(umax),
                CmpOp::Slt => rhs == Some(smin) || lhs == Some(smax),
                CmpOp::Sgt => lhs == Some(smin) || rhs == Some(smax),
                _ => false,
            };
            let always = match cmp {
                CmpOp::Ule => rhs == Some(umax) || lhs == Some(0),
                CmpOp::Uge => lhs == Some(umax) || rhs == Some(0),
                CmpOp::Sle => rhs == Some(smax) || lhs == Some(smin),
                CmpOp::Sge => lhs == Some(smax) || rhs == Some(smin),
                _ => false,
            };
            if never {
                Some(Rewrite::Const(0))
            } else if always {
                Some(Rewrite::Const(1))
            } else {
                None
            }
        }
        _ => None,
    }
}

impl Pass for ConstFold {
    fn name(&self) -> &'static str {
        "const-fold"
    }
    fn description(&self) -> &'static str {
        "folds constant operations and always-legal identities; branches on constants become jumps"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        let mut subst = Substitution::new();
        for b in k.rpo() {
            // Predicates that are constants: always-true ones disappear, always-false accesses
            // do nothing (a predicated-off load yields 0).
            let ops = k.blocks[b].ops.clone();
            // Word loads that are predicated off: their lanes read 0.
            let mut words_off: Vec<Value> = Vec::new();
            for op in &ops {
                k.substitute_in_op(*op, &subst);
                if matches!(k.ops[*op].kind, OpKind::WordLane { .. } | OpKind::WordLaneAt(_))
                    && k.ops[*op].args.first().is_some_and(|w| words_off.contains(w))
                {
                    k.ops[*op].kind = OpKind::Const(0);
                    k.ops[*op].args.clear();
                    changed = true;
                    continue;
                }
                let Some(p) = k.ops[*op].predicate() else { continue };
                match k.as_const(p) {
                    Some(1) => {
                        k.ops[*op].args.pop();
                        changed = true;
                    }
                    Some(_) => {
                        if k.ops[*op].kind.has_side_effect() {
                            k.blocks[b].ops.retain(|o| o != op);
                        } else {
                            if matches!(k.ops[*op].kind, OpKind::WordLoad(_)) {
                                words_off.extend(k.ops[*op].result);
                            }
                            k.ops[*op].kind = OpKind::Const(0);
                            k.ops[*op].args.clear();
                        }
                        changed = true;
                    }
                    None => {}
                }
            }
            let ops = k.blocks[b].ops.clone();
            for op in ops {
                k.substitute_in_op(op, &subst);
                match simplify(k, op) {
                    Some(Rewrite::Const(v)) => {
                        let w = k.ops[op].result.map(|r| k.width(r)).unwrap_or(1);
                        k.ops[op].kind = OpKind::Const(v & mask(w));
                        k.ops[op].args.clear();
                        changed = true;
                    }
                    Some(Rewrite::Alias(v)) => {
                        if let Some(r) = k.ops[op].result {
                            if k.values[v].name.is_none() {
                                k.values[v].name = k.values[r].name.clone();
                            }
                            subst.replace(r, v);
                            changed = true;
                        }
                    }
                    Some(Rewrite::AddConst(x, c)) => {
                        let w = k.width(x);
                        let cv = k.insert_const_before(op, c, w);
                        k.ops[op].kind = OpKind::Binary(BinOp::Add);
                        k.ops[op].args = vec![x, cv];
                        changed = true;
                    }
                    None => {}
                }
            }
            k.substitute_in_terminator(b, &subst);
            let new_term = match &k.blocks[b].term {
                Terminator::Branch { cond, then_to, else_to } => match k.as_const(*cond) {
                    Some(c) => Some(Terminator::Jump(if c & 1 == 1 { then_to.clone() } else { else_to.clone() })),
                    None if then_to == else_to => Some(Terminator::Jump(then_to.clone())),
                    None => None,
                },
                Terminator::Switch { value, cases, default } => match k.as_const(*value) {
                    Some(c) => {
                        let t = cases
                            .iter()
                            .find(|(v, _)| *v == c)
                            .map(|(_, t)| t.clone())
                            .unwrap_or_else(|| default.clone());
                        Some(Terminator::Jump(t))
                    }
                    None if cases.is_empty() => Some(Terminator::Jump(default.clone())),
                    None => None,
                },
                _ => None,
            };
            if let Some(t) = new_term {
                k.blocks[b].term = t;
                changed = true;
            }
        }
        k.apply_substitution(&subst);
        changed
    }
}
