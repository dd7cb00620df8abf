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
    Access, Entry, Ranges, access, counted, declared_in, element_name, eligible_bases, entry_flag, inner_ranges, pure,
    register_name, same, same_element, visit_block, written_place,
};
use crate::build::{assign_stmt, local, new_private_local, node};
use crate::types::{AddrSpace, INT};
use crate::walk::{for_each_expr, for_each_expr_mut, for_each_stmt, writes_in_block};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, LocalId, Loop, LoopKind, Program, Stmt};
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
                if let Some(notes) = replace_in_iteration(f, &mut l.body, bases, ranges) {
                    l.transformations.extend(notes);
                }
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
    let (mut cond_all, mut cond_always) = (vec![], vec![]);
    if let Some(cond) = &l.cond {
        let as_stmt = [Stmt::Expr(cond.clone())];
        visit_block(&as_stmt, &mut |a| cond_all.push(a.clone()), &mut |_| {});
        super::elements::unconditional_accesses(&as_stmt, &mut cond_always);
    }
    // Each chosen element, and whether writes to elements that may be it are forwarded to its
    // register (a run-time check of the indices).
    let mut chosen: Vec<(Access, bool)> = vec![];
    for a in &accesses {
        let Some(space) = bases.get(&a.base) else { continue };
        // Read by the condition only under `&&`, `||` or `?:`: the load before the loop might be
        // one the loop never makes.
        let cond_reads = |list: &[Access]| list.iter().any(|o| same_element(o, a));
        let risky_in_condition = cond_reads(&cond_all) && !cond_reads(&cond_always) && !in_bounds(f, a, &ranges);
        if barrier && *space != AddrSpace::Private
            || changed.contains(&a.base)
            || chosen.iter().any(|(c, _)| same_element(c, a))
            || !invariant(a)
            || risky_in_condition
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
        _ => match entry_flag(f, &l, outer) {
            Some(Entry::Always) => None,
            Some(Entry::Flag(flag, decl)) => {
                before.push(decl);
                Some(flag)
            }
            None => return keep(l),
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
        let reg_name = register_name(&name);
        let reg = new_private_local(f, reg_name.clone(), c.expr.ty.clone(), span, None);
        let reg_expr = local(reg, c.expr.ty.clone(), span);
        let mut stored = false;
        let mut read_by_condition = false;
        if let Some(cond) = &l.cond {
            visit_block(&[Stmt::Expr(cond.clone())], &mut |a| read_by_condition |= same_element(a, c), &mut |_| {});
        }
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
            // Declared in the body: a value of one iteration, not one carried to the next.
            l.body.insert(0, Stmt::Decl(value, None, span));
        }
        // The loop's condition reads the element even when the body never runs: then the load
        // before the loop is one the loop makes anyway, and must not wait for `entered`.
        let load = assign_stmt(reg_expr.clone(), c.expr.clone());
        before.push(if read_by_condition { load } else { guarded(load) });
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

/// Whether a loop body may end an iteration early: a `return`, or a `break` or `continue` of
/// this loop (not of a loop or `switch` inside it).
fn may_end_early(body: &[Stmt]) -> bool {
    fn walk(b: &[Stmt], in_switch: bool) -> bool {
        b.iter().any(|s| match s {
            Stmt::Return(..) | Stmt::Continue(_) => true,
            Stmt::Break(_) => !in_switch,
            Stmt::If(_, t, e, _) => walk(t, in_switch) || walk(e, in_switch),
            Stmt::Block(inner) => walk(inner, in_switch),
            Stmt::Switch(_, arms, _) => arms.iter().any(|a| walk(&a.body, true)),
            Stmt::Loop(l) => {
                let mut ret = false;
                for_each_stmt(&l.body, &mut |x| ret |= matches!(x, Stmt::Return(..)));
                ret
            }
            _ => false,
        })
    }
    walk(body, false)
}

/// Whether every index of `a` lies inside its array dimension at every point of the ranges.
fn in_bounds(f: &Function, a: &Access, ranges: &Ranges) -> bool {
    let mut ty = &f.local(a.base).ty;
    for i in &a.indices {
        let crate::types::Type::Array(elem, Some(n)) = ty else { return false };
        let Some(x) = super::elements::Affine::of(i) else { return false };
        if !(ranges.min(&x).is_some_and(|m| m >= 0) && ranges.max(&x).is_some_and(|m| m < i64::from(*n))) {
            return false;
        }
        ty = elem;
    }
    true
}

/// Scalar replacement within one iteration of a loop: an element that the body uses more than
/// once at indices the body does not change (the counter may move them from one iteration to
/// the next) lives in a register from the start of the body to its end. The load at the start
/// is one the body makes anyway (an access in every iteration) or provably inside the array.
fn replace_in_iteration(
    f: &mut Function,
    body: &mut Block,
    bases: &BTreeMap<LocalId, AddrSpace>,
    ranges: &Ranges,
) -> Option<Vec<String>> {
    if may_end_early(body) {
        return None;
    }
    let mut barrier = false;
    for_each_expr(body, &mut |e| barrier |= matches!(e.kind, K::Barrier));
    let mut changed = writes_in_block(body);
    declared_in(body, &mut changed);
    let mut accesses: Vec<Access> = vec![];
    visit_block(body, &mut |a| accesses.push(a.clone()), &mut |_| {});
    let mut ranges = ranges.clone();
    inner_ranges(body, &mut ranges);
    let mut every_iteration = vec![];
    super::elements::unconditional_accesses(body, &mut every_iteration);
    let mut writes: Vec<Access> = vec![];
    for_each_expr(body, &mut |e| {
        if let Some(place) = written_place(e) {
            writes.extend(place.iter().filter_map(|p| access(p)));
        }
    });
    let mut chosen: Vec<(Access, bool)> = vec![];
    for a in &accesses {
        let Some(space) = bases.get(&a.base) else { continue };
        if barrier && *space != AddrSpace::Private
            || changed.contains(&a.base)
            || chosen.iter().any(|(c, _)| same_element(c, a))
        {
            continue;
        }
        let invariant = a.indices.iter().all(|i| {
            let mut reads = HashSet::new();
            crate::walk::reads_in_expr(i, &mut reads);
            pure(i) && reads.iter().all(|r| !changed.contains(r))
        });
        // Worth a register when the element is used by two statements of the body, or by a loop
        // in it (a read and a write in one statement are one load and one store either way).
        let touching: Vec<&Stmt> = body
            .iter()
            .filter(|s| {
                let mut found = false;
                visit_block(std::slice::from_ref(*s), &mut |o| found |= same_element(o, a), &mut |_| {});
                found
            })
            .collect();
        let in_loop = touching.iter().any(|s| {
            let mut looped = false;
            for_each_stmt(std::slice::from_ref(*s), &mut |x| looped |= matches!(x, Stmt::Loop(_)));
            looped
        });
        // In an innermost loop (the one pipelined), a read-then-write in one statement as a
        // register too: the load moves to the start of the iteration, which took seidel-2d's
        // loop from II 11 to its MII of 9 (before rotating registers).
        let innermost = {
            let mut nested = false;
            for_each_stmt(body, &mut |x| nested |= matches!(x, Stmt::Loop(_)));
            !nested
        };
        let uses = if in_loop || innermost && accesses.iter().filter(|o| same_element(o, a)).count() >= 2 {
            2
        } else {
            touching.len()
        };
        let written = writes.iter().any(|w| same_element(w, a));
        let apart = accesses.iter().filter(|o| o.base == a.base && !same_element(o, a)).all(|o| {
            o.indices.len() == a.indices.len() && a.indices.iter().zip(&o.indices).any(|(x, y)| ranges.differ(x, y))
        });
        let safe_load = every_iteration.iter().any(|o| same_element(o, a)) || in_bounds(f, a, &ranges);
        // An element only read, by a loop in the body and by another statement (symm's
        // `B[i][j]`), is read once for both.
        let base_written = writes.iter().any(|w| w.base == a.base);
        let read_twice = !written && in_loop && touching.len() >= 2 && (apart || !base_written);
        if invariant && safe_load && (written && uses >= 2 && apart || read_twice) {
            chosen.push((a.clone(), written));
        }
    }
    if chosen.is_empty() {
        return None;
    }
    let span = body.first().map(stmt_span).unwrap_or_default();
    let mut head = vec![];
    let mut tail = vec![];
    let mut notes = vec![];
    for (c, written) in &chosen {
        let name = element_name(f, c);
        let reg_name = register_name(&name);
        let reg = new_private_local(f, reg_name, c.expr.ty.clone(), span, None);
        let reg_expr = local(reg, c.expr.ty.clone(), span);
        for_each_expr_mut(body, &mut |e| {
            if let Some(a) = access(e)
                && same_element(&a, c)
            {
                *e = reg_expr.clone();
            }
        });
        head.push(Stmt::Decl(reg, None, span));
        head.push(assign_stmt(reg_expr.clone(), c.expr.clone()));
        if *written {
            tail.push(assign_stmt(c.expr.clone(), reg_expr));
        }
        notes.push(if *written {
            format!(
                "scalar replacement: `{name}` kept in a register for each iteration (loaded at its start, stored at its end)"
            )
        } else {
            format!("scalar replacement: `{name}` read once per iteration, at its start")
        });
    }
    let inner = std::mem::take(body);
    *body = head.into_iter().chain(inner).chain(tail).collect();
    Some(notes)
}

fn stmt_span(s: &Stmt) -> kiln_diagnostics::Span {
    match s {
        Stmt::Expr(e) | Stmt::If(e, ..) | Stmt::Switch(e, ..) => e.span,
        Stmt::Decl(_, _, sp) | Stmt::Break(sp) | Stmt::Continue(sp) | Stmt::Return(_, sp) => *sp,
        Stmt::Loop(l) => l.span,
        Stmt::Block(b) => b.first().map(stmt_span).unwrap_or_default(),
    }
}
