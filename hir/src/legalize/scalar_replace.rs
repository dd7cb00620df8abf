//! `scalar-replace`: an array element that a loop reads or writes at an index the loop does not
//! change lives in a register for the loop — loaded once before it, stored once after it:
//!
//! ```text
//! for (k = 0; k < N; k++)               int entered = 0 < N;   // omitted when provably true
//!     C[i][j] += A[i][k] * B[k][j];  →  int C_i_j; if (entered) C_i_j = C[i][j];
//!                                       for (k = 0; k < N; k++) C_i_j += A[i][k] * B[k][j];
//!                                       if (entered) C[i][j] = C_i_j;
//! ```
//!
//! In hardware this removes a memory recurrence (the load of one iteration waits for the store
//! of the one before) and the port accesses of every iteration. Elements only read in the loop
//! are loaded once and not stored.
//!
//! What makes it legal, per element `base[e]` of a loop:
//! - `base` is a private, `__local` or `__constant` array variable, or a pointer parameter that
//!   is never assigned, and every mention of it in the function is an element access — so no
//!   other pointer reaches its memory (kiln's memory model keeps pointer parameters apart);
//! - `e` is free of side effects and loads and reads no variable the loop changes;
//! - every other access of `base` in the loop is provably to another element: in some
//!   dimension the difference of the indices is never zero, by the ranges of the enclosing and
//!   inner counted loops ([`Affine`], [`Ranges`]);
//! - the loop has no `return` (which would skip the store after it), and for memory shared by
//!   work-items, no barrier.
//!
//! The emulator runs the kernel without this pass (it runs with the build's loop
//! transformations, [`super::Options::scalar_replacement`]), so emulator = simulator checks it.

use super::elements::{
    Access, FirstTest, Ranges, access, counted, declared_in, element_name, eligible_bases, first_test, inner_ranges,
    pure, same, same_element, visit_block, written_place,
};
use crate::build::{assign_stmt, local, new_private_local, node};
use crate::types::{AddrSpace, INT};
use crate::walk::{for_each_expr, for_each_expr_mut, for_each_stmt, writes_in_block};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, Init, LocalId, Loop, LoopKind, Program, Stmt};
use std::collections::{BTreeMap, HashSet};

/// The `scalar-replace` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "scalar-replace",
    requires: &[crate::verify::Invariant::NoRecords, crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, opts| Ok(if opts.scalar_replacement { replace_in_program(prog) } else { prog.clone() }),
};

fn replace_in_program(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.functions {
        if let Some(mut body) = f.body.take() {
            let bases = eligible_bases(f, &body);
            if !bases.is_empty() {
                let mut ranges = Ranges::default();
                rewrite_block(f, &mut body, &bases, &mut ranges);
            }
            f.body = Some(body);
        }
    }
    out
}

fn rewrite_block(f: &mut Function, b: &mut Block, bases: &BTreeMap<LocalId, AddrSpace>, ranges: &mut Ranges) {
    let stmts = std::mem::take(b);
    for s in stmts {
        match s {
            Stmt::Loop(mut l) => {
                let own = counted(&l);
                if let Some((v, _, r)) = &own {
                    ranges.insert(*v, r.clone());
                }
                rewrite_block(f, &mut l.body, bases, ranges);
                b.extend(replace_in_loop(f, *l, bases, ranges));
                if let Some((v, ..)) = own {
                    ranges.remove(v);
                }
            }
            Stmt::If(c, mut t, mut e, span) => {
                rewrite_block(f, &mut t, bases, ranges);
                rewrite_block(f, &mut e, bases, ranges);
                b.push(Stmt::If(c, t, e, span));
            }
            Stmt::Block(mut inner) => {
                rewrite_block(f, &mut inner, bases, ranges);
                b.push(Stmt::Block(inner));
            }
            Stmt::Switch(v, mut arms, span) => {
                for a in &mut arms {
                    rewrite_block(f, &mut a.body, bases, ranges);
                }
                b.push(Stmt::Switch(v, arms, span));
            }
            s => b.push(s),
        }
    }
}

/// The loop with its replaceable elements in registers, and the statements around it.
fn replace_in_loop(f: &mut Function, mut l: Loop, bases: &BTreeMap<LocalId, AddrSpace>, outer: &Ranges) -> Vec<Stmt> {
    let keep = |l: Loop| vec![Stmt::Loop(Box::new(l))];
    let mut parts: Vec<Stmt> = vec![];
    if let Some(c) = &l.cond {
        parts.push(Stmt::Expr(c.clone()));
    }
    if let Some(s) = &l.step {
        parts.push(Stmt::Expr(s.clone()));
    }
    parts.extend(l.body.iter().cloned());
    let mut exits = false;
    let mut barrier = false;
    for_each_stmt(&parts, &mut |s| exits |= matches!(s, Stmt::Return(..)));
    for_each_expr(&parts, &mut |e| barrier |= matches!(e.kind, K::Barrier));
    if exits || l.kind == LoopKind::While && l.cond.is_none() {
        return keep(l);
    }
    let mut changed = writes_in_block(&parts);
    declared_in(&parts, &mut changed);
    declared_in(&l.init, &mut changed);
    let mut accesses: Vec<Access> = vec![];
    visit_block(&parts, &mut |a| accesses.push(a.clone()), &mut |_| {});
    let mut ranges = outer.clone();
    inner_ranges(&l.body, &mut ranges);
    let invariant = |a: &Access| {
        a.indices.iter().all(|i| {
            let mut reads = HashSet::new();
            crate::walk::reads_in_expr(i, &mut reads);
            pure(i) && reads.iter().all(|r| !changed.contains(r))
        })
    };
    let mut innermost = true;
    for_each_stmt(&l.body, &mut |s| innermost &= !matches!(s, Stmt::Loop(_)));
    let mut writes: Vec<Access> = vec![];
    for_each_expr(&parts, &mut |e| {
        if let Some(place) = written_place(e) {
            writes.extend(place.iter().filter_map(|p| access(p)));
        }
    });
    let written_bases: HashSet<LocalId> = writes.iter().map(|w| w.base).collect();
    // Writes that are plain assignments (`A[o] = v`), which forwarding can follow.
    let mut assigned: Vec<Access> = vec![];
    for_each_expr(&parts, &mut |e| {
        if let K::Assign(place, _) = &e.kind
            && let Some(a) = access(place)
        {
            assigned.push(a);
        }
    });
    // Each chosen element, and whether writes to elements that may be it are forwarded to its
    // register (a run-time check of the indices).
    let mut chosen: Vec<(Access, bool)> = vec![];
    for a in &accesses {
        let Some(space) = bases.get(&a.base) else { continue };
        if barrier && *space != AddrSpace::Private
            || changed.contains(&a.base)
            || chosen.iter().any(|(c, _)| same_element(c, a))
            || !invariant(a)
        {
            continue;
        }
        let may_meet = |o: &Access| {
            o.base == a.base
                && !same_element(o, a)
                && !(o.indices.len() == a.indices.len()
                    && a.indices.iter().zip(&o.indices).any(|(x, y)| ranges.differ(x, y)))
        };
        let apart = !written_bases.contains(&a.base) || !accesses.iter().any(may_meet);
        // An element only read is worth a register when it frees a port of its memory for the
        // other accesses of an innermost loop (the one pipelined); otherwise the load before
        // the loop only adds its latency.
        let read_only = !writes.iter().any(|w| same_element(w, a));
        let shares_port = innermost && accesses.iter().any(|o| o.base == a.base && !same_element(o, a));
        if apart && (!read_only || shares_port) {
            chosen.push((a.clone(), false));
        } else if !apart && read_only && shares_port {
            // Writes that may reach the element are kept and also update its register when
            // their indices equal its own: every such write a plain assignment at indices free
            // of side effects, the element itself never written.
            let followable = writes.iter().filter(|w| may_meet(w)).all(|w| {
                w.indices.iter().all(pure)
                    && w.indices.len() == a.indices.len()
                    && assigned.iter().filter(|x| same_element(x, w)).count()
                        == writes.iter().filter(|x| same_element(x, w)).count()
            });
            if followable {
                chosen.push((a.clone(), true));
            }
        }
    }
    if chosen.is_empty() {
        return keep(l);
    }
    // Whether the loop runs its body at least once: statically, or a flag computed before it.
    let span = l.span;
    let mut before = vec![];
    let entered: Option<LocalId> = match l.kind {
        LoopKind::DoWhile => None,
        _ => match first_test(&l, outer) {
            FirstTest::Always => None,
            FirstTest::Never => return keep(l),
            FirstTest::Unknown => return keep(l),
            FirstTest::Test(test) => {
                let flag = new_private_local(f, "entered".to_string(), INT, span, None);
                let test = if test.ty == INT {
                    test
                } else {
                    let zero = Expr::int(0, test.ty.clone(), span);
                    node(K::Binary(BinaryOp::Ne, Box::new(test), Box::new(zero)), INT, span)
                };
                before.push(Stmt::Decl(flag, Some(Init::Expr(test)), span));
                Some(flag)
            }
        },
    };
    let outer_ranges = &ranges;
    let guarded = |s: Stmt| match entered {
        Some(flag) => Stmt::If(local(flag, INT, span), vec![s], vec![], span),
        None => s,
    };
    let mut after = vec![];
    for (c, forward) in &chosen {
        let name = element_name(f, c);
        let reg_name: String = name.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
        let reg = new_private_local(f, reg_name.clone(), c.expr.ty.clone(), span, None);
        let reg_expr = local(reg, c.expr.ty.clone(), span);
        let mut stored = false;
        let forward_to = if *forward {
            Some(new_private_local(f, format!("{reg_name}_new"), c.expr.ty.clone(), span, None))
        } else {
            None
        };
        let mut replace = |e: &mut Expr| {
            if let Some(value) = forward_to
                && let K::Assign(place, v) = &mut e.kind
                && let Some(o) = access(place)
                && o.base == c.base
                && !same_element(&o, c)
                && !c.indices.iter().zip(&o.indices).any(|(x, y)| outer_ranges.differ(x, y))
            {
                // `A[o] = v` → `A[o] = (new = v, reg = o == c ? new : reg, new)`
                let ty = c.expr.ty.clone();
                let new = || local(value, ty.clone(), span);
                let meets = c
                    .indices
                    .iter()
                    .zip(&o.indices)
                    .filter(|(x, y)| !same(x, y))
                    .map(|(x, y)| {
                        let wide = crate::types::Type::Scalar(crate::types::Scalar::I64);
                        let (x, y) = (crate::build::convert(x.clone(), &wide), crate::build::convert(y.clone(), &wide));
                        node(K::Binary(BinaryOp::Eq, Box::new(y), Box::new(x)), INT, span)
                    })
                    .reduce(crate::build::log_and)
                    .unwrap_or_else(|| Expr::int(1, INT, span));
                let value_expr = std::mem::replace(&mut **v, Expr::int(0, ty.clone(), span));
                let pick =
                    node(K::Cond(Box::new(meets), Box::new(new()), Box::new(reg_expr.clone())), ty.clone(), span);
                **v = node(
                    K::Comma(vec![
                        crate::build::assign(new(), value_expr),
                        crate::build::assign(reg_expr.clone(), pick),
                        new(),
                    ]),
                    ty,
                    span,
                );
            }
            if let Some(a) = access(e)
                && same_element(&a, c)
            {
                *e = reg_expr.clone();
            }
            stored |= written_place(e)
                .is_some_and(|places| places.iter().any(|x| access(x).is_some_and(|a| same_element(&a, c))));
        };
        if let Some(cond) = &mut l.cond {
            let mut s = [Stmt::Expr(cond.clone())];
            for_each_expr_mut(&mut s, &mut replace);
            if let [Stmt::Expr(e)] = s {
                *cond = e;
            }
        }
        if let Some(step) = &mut l.step {
            let mut s = [Stmt::Expr(step.clone())];
            for_each_expr_mut(&mut s, &mut replace);
            if let [Stmt::Expr(e)] = s {
                *step = e;
            }
        }
        for_each_expr_mut(&mut l.body, &mut replace);
        before.push(Stmt::Decl(reg, None, span));
        if let Some(value) = forward_to {
            before.push(Stmt::Decl(value, None, span));
        }
        before.push(guarded(assign_stmt(reg_expr.clone(), c.expr.clone())));
        if stored {
            after.push(guarded(assign_stmt(c.expr.clone(), reg_expr)));
            l.transformations.push(format!(
                "scalar replacement: `{name}` kept in a register (loaded before the loop, stored after it)"
            ));
        } else if *forward {
            l.transformations.push(format!(
                "scalar replacement: `{name}` loaded once before the loop, and updated by the writes whose indices equal its own (checked at run time)"
            ));
        } else {
            l.transformations.push(format!("scalar replacement: `{name}` loaded once before the loop"));
        }
    }
    let mut out = before;
    out.push(Stmt::Loop(Box::new(l)));
    out.extend(after);
    vec![Stmt::Block(out)]
}
