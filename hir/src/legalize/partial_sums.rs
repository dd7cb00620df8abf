//! `partial-sums`: under `-cl-fast-relaxed-math` or `-cl-unsafe-math-optimizations`, a float
//! sum accumulated by a loop (`acc += e;` or `acc = acc + e;`, `acc - e` too) is split into `k`
//! interleaved partial sums, one per slot of a small array that the iterations visit in turn,
//! added in a tree after the loop:
//!
//! ```text
//! float parts[k] = { acc, 0, ..., 0 }; int slot = 0;
//! for (...) { parts[slot] = parts[slot] + e; slot = slot == k - 1 ? 0 : slot + 1; }
//! acc = (parts[0] + parts[1]) + (parts[2] + parts[3]) ...;
//! ```
//!
//! The array's accesses in different iterations are `k` iterations apart
//! ([`crate::Local::dependence_distance`], which the scheduler's dependence analysis reads), so
//! a pipelined loop needs `k` cycles between an update and the next of the same slot instead
//! of one: at `k` no smaller than the adder's latency it starts an iteration every cycle. The build chooses `k` ([`super::Options::float_partial_sums`]);
//! without relaxed math the pass does nothing, and kiln never reassociates.
//!
//! A loop qualifies when its body is a list of statements with exactly one of them the
//! accumulation, at its top level (not under a condition), no other statement reading or
//! writing `acc` (nor the condition or the step), and no `break`, `continue` or `return`.

use crate::build::{assign_stmt, element, local, new_private_local, node};
use crate::types::{AddrSpace, INT, Scalar, Type};
use crate::walk::{for_each_expr, reads_in_expr};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, Init, LocalId, Loop, Program, Stmt};

/// The `partial-sums` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "partial-sums",
    requires: &[crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, opts| Ok(split_sums(prog, opts.float_partial_sums)),
};

fn split_sums(prog: &Program, k: u32) -> Program {
    let mut out = prog.clone();
    if !prog.float_mode.reassociate || k < 2 {
        return out;
    }
    for f in &mut out.functions {
        if let Some(mut body) = f.body.take() {
            rewrite_block(f, &mut body, k);
            f.body = Some(body);
        }
    }
    out
}

fn is_float(t: &Type) -> bool {
    t.scalar() == Some(Scalar::F32)
}

fn rewrite_block(f: &mut Function, b: &mut Block, k: u32) {
    let stmts = std::mem::take(b);
    for s in stmts {
        match s {
            Stmt::Loop(mut l) => {
                rewrite_block(f, &mut l.body, k);
                match accumulation(&l) {
                    Some((i, acc, term, sub)) => b.extend(split(f, *l, i, acc, term, sub, k)),
                    None => b.push(Stmt::Loop(l)),
                }
            }
            Stmt::If(c, mut t, mut e, span) => {
                rewrite_block(f, &mut t, k);
                rewrite_block(f, &mut e, k);
                b.push(Stmt::If(c, t, e, span));
            }
            Stmt::Block(mut inner) => {
                rewrite_block(f, &mut inner, k);
                b.push(Stmt::Block(inner));
            }
            s => b.push(s),
        }
    }
}

/// The accumulation of a qualifying loop: its statement's index, the accumulator, the term
/// added, and whether it is subtracted.
fn accumulation(l: &Loop) -> Option<(usize, LocalId, Expr, bool)> {
    let mut found = None;
    for (i, s) in l.body.iter().enumerate() {
        if let Stmt::Expr(e) = s
            && let Some((acc, term, sub)) = accumulates(e)
        {
            if found.is_some() {
                return None;
            }
            found = Some((i, acc, term, sub));
        }
    }
    let (index, acc, term, sub) = found?;
    let mut exits = false;
    crate::walk::for_each_stmt(&l.body, &mut |s| {
        exits |= matches!(s, Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(..));
    });
    if exits || uses(&term, acc) {
        return None;
    }
    // No other statement, nor the loop's own parts, touches the accumulator.
    let others = l.body.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, s)| s.clone());
    let rest: Vec<Stmt> = l.init.iter().cloned().chain(others).collect();
    let mut touched = false;
    for_each_expr(&rest, &mut |e| touched |= matches!(e.kind, K::Local(id) if id == acc));
    for e in l.cond.iter().chain(l.step.iter()) {
        touched |= uses(e, acc);
    }
    (!touched).then_some((index, acc, term, sub))
}

fn uses(e: &Expr, acc: LocalId) -> bool {
    let mut reads = std::collections::HashSet::new();
    reads_in_expr(e, &mut reads);
    let mut any = reads.contains(&acc);
    for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| any |= matches!(x.kind, K::Local(id) if id == acc));
    any
}

/// `acc += e`, `acc -= e`, `acc = acc + e`, `acc = e + acc`, `acc = acc - e` on a float local.
fn accumulates(e: &Expr) -> Option<(LocalId, Expr, bool)> {
    let local_of = |x: &Expr| match x.kind {
        K::Local(id) if is_float(&x.ty) => Some(id),
        _ => None,
    };
    match &e.kind {
        K::CompoundAssign { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs, op_ty } if is_float(op_ty) => {
            Some((local_of(lhs)?, (**rhs).clone(), *op == BinaryOp::Sub))
        }
        K::Assign(lhs, rhs) => {
            let acc = local_of(lhs)?;
            match &rhs.kind {
                K::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) if is_float(&rhs.ty) => {
                    if local_of(a) == Some(acc) {
                        Some((acc, (**b).clone(), *op == BinaryOp::Sub))
                    } else if *op == BinaryOp::Add && local_of(b) == Some(acc) {
                        Some((acc, (**a).clone(), false))
                    } else {
                        None
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The loop with its accumulation split into `k` partial sums, and the statements around it.
fn split(f: &mut Function, mut l: Loop, index: usize, acc: LocalId, term: Expr, sub: bool, k: u32) -> Vec<Stmt> {
    let span = l.span;
    let template = f.local(acc).clone();
    let float = Type::Scalar(Scalar::F32);
    let array_ty = Type::Array(std::rc::Rc::new(float.clone()), Some(k));
    let parts = new_private_local(f, format!("{}.parts", template.name), array_ty.clone(), template.span, Some(k));
    let slot = new_private_local(f, format!("{}.slot", template.name), INT, template.span, None);
    let int = |v: u64| Expr::int(v, INT, span);
    let part = |i: Expr| element(local(parts, array_ty.clone(), span), i, AddrSpace::Private);
    let slot_var = || local(slot, INT, span);
    let zero = || Init::Expr(node(K::Float(0.0), float.clone(), span));
    let mut init = vec![Init::Expr(local(acc, float.clone(), span))];
    init.extend((1..k).map(|_| zero()));
    let mut out =
        vec![Stmt::Decl(parts, Some(Init::List(init)), span), Stmt::Decl(slot, Some(Init::Expr(int(0))), span)];
    // parts[slot] = parts[slot] ± e; slot = slot == k - 1 ? 0 : slot + 1;
    let op = if sub { BinaryOp::Sub } else { BinaryOp::Add };
    let sum = node(K::Binary(op, Box::new(part(slot_var())), Box::new(term)), float.clone(), span);
    let at_end = node(K::Binary(BinaryOp::Eq, Box::new(slot_var()), Box::new(int(u64::from(k - 1)))), INT, span);
    let next = node(K::Binary(BinaryOp::Add, Box::new(slot_var()), Box::new(int(1))), INT, span);
    let wrapped = node(K::Cond(Box::new(at_end), Box::new(int(0)), Box::new(next)), INT, span);
    let body = vec![assign_stmt(part(slot_var()), sum), assign_stmt(slot_var(), wrapped)];
    l.body.splice(index..=index, body);
    l.transformations.push(format!(
        "float sum `{}` split into {k} interleaved partial sums (relaxed math), added after the loop",
        template.name
    ));
    out.push(Stmt::Loop(Box::new(l)));
    // acc = the tree of the partial sums.
    let mut level: Vec<Expr> = (0..k).map(|i| part(int(u64::from(i)))).collect();
    while level.len() > 1 {
        let mut next = Vec::new();
        let mut it = level.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => node(K::Binary(BinaryOp::Add, Box::new(a), Box::new(b)), float.clone(), span),
                None => a,
            });
        }
        level = next;
    }
    if let Some(total) = level.pop() {
        out.push(assign_stmt(local(acc, float, span), total));
    }
    out
}
