//! `spin`: a loop that only retries a non-blocking pipe transfer until it succeeds is that
//! transfer, blocking.
//!
//! OpenCL 2.0 pipes have no blocking built-ins, so kernels written for them spell a blocking
//! transfer as a polling loop — `while (read_pipe(p, &v) != 0) {}` — and so does Intel code
//! that polls with the `_nb` calls: `do { v = read_channel_nb_intel(c, &ok); } while (!ok);`,
//! `while (!ok) { ok = write_channel_nb_intel(c, v); }`. Untimed, the loop and the blocking
//! transfer are the same program (a failed attempt changes nothing but the status). In
//! hardware the loop costs a state and an exit test per attempt and keeps the loop around it
//! from being pipelined, while a blocking transfer just stalls in place: the rewrite is what
//! lets a chain of OpenCL 2.0 kernels stream one packet per cycle.
//!
//! A loop is rewritten only when all of these hold, checked on the typed program:
//! - it has no `init` or `step`, and holds exactly one pipe transfer, a non-blocking one whose
//!   operands have no side effects;
//! - the transfer is in the condition and the body is empty; or the condition is free of side
//!   effects and the body is one expression statement whose only effects are the transfer and
//!   an assignment of its result to a local variable;
//! - the condition, evaluated after one attempt with the attempt's status (0 failed, 1
//!   succeeded) substituted for the transfer's result, for a local assigned from that result
//!   and for the `valid` flag of an Intel non-blocking read, is the constant "go on" for 0 and
//!   "stop" for 1 — so the condition reads nothing else.
//!
//! Then `while (C);`, `for (; C;);` and `do ; while (C);` with the transfer in `C` become the
//! statement `C;`; `do S while (C);` becomes `S;`; and `while (C) S` (or `for`) becomes
//! `if (C) S`; in each, the transfer blocks.

use crate::consteval::integer_value;
use crate::types::INT;
use crate::{Block, Expr, ExprKind as K, LocalId, Loop, LoopKind, Program, Stmt};
use std::collections::HashMap;

/// The `spin` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "spin",
    requires: &[crate::verify::Invariant::NoReservations],
    ensures: &[],
    run: |prog, _, _| Ok(blocking_spins(prog)),
};

/// The program with every spin loop of every function replaced by its blocking transfer.
fn blocking_spins(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.functions {
        f.body = f.body.take().map(rewrite_block);
    }
    out
}

fn rewrite_block(b: Block) -> Block {
    b.into_iter().map(rewrite_stmt).collect()
}

fn rewrite_stmt(s: Stmt) -> Stmt {
    match s {
        Stmt::If(c, t, e, span) => Stmt::If(c, rewrite_block(t), rewrite_block(e), span),
        Stmt::Block(b) => Stmt::Block(rewrite_block(b)),
        Stmt::Switch(v, arms, span) => Stmt::Switch(
            v,
            arms.into_iter()
                .map(|mut a| {
                    a.body = rewrite_block(a.body);
                    a
                })
                .collect(),
            span,
        ),
        Stmt::Loop(l) => match blocking_form(&l) {
            Some(s) => s,
            None => {
                let mut l = *l;
                l.init = rewrite_block(l.init);
                l.body = rewrite_block(l.body);
                Stmt::Loop(Box::new(l))
            }
        },
        other => other,
    }
}

fn is_transfer(e: &Expr) -> bool {
    matches!(e.kind, K::PipeRead { .. } | K::PipeWrite { .. })
}

fn is_blocking_transfer(e: &Expr) -> bool {
    matches!(e.kind, K::PipeRead { blocking: true, .. } | K::PipeWrite { blocking: true, .. })
}

/// Every node of `e` for which `pred` holds.
fn count(e: &Expr, pred: &dyn Fn(&Expr) -> bool) -> usize {
    usize::from(pred(e)) + e.children().into_iter().map(|c| count(c, pred)).sum::<usize>()
}

/// Whether `e` has a side effect of its own (not counting its operands').
fn is_effect(e: &Expr) -> bool {
    let mut shallow = e.clone();
    for c in shallow.children_mut() {
        *c = Expr::int(0, INT, c.span);
    }
    shallow.has_side_effects()
}

/// The one transfer of `e`, made blocking. Its caller has checked there is exactly one.
fn make_blocking(e: &mut Expr) {
    match &mut e.kind {
        K::PipeRead { blocking, .. } | K::PipeWrite { blocking, .. } => *blocking = true,
        _ => e.children_mut().into_iter().for_each(make_blocking),
    }
}

/// The transfer of `e`, if it has exactly one, non-blocking, whose operands are free of side
/// effects.
fn lone_transfer(e: &Expr) -> Option<&Expr> {
    if count(e, &is_transfer) != 1 || count(e, &is_blocking_transfer) != 0 {
        return None;
    }
    fn find(e: &Expr) -> Option<&Expr> {
        if is_transfer(e) {
            return Some(e);
        }
        e.children().into_iter().find_map(find)
    }
    let t = find(e)?;
    t.children().iter().all(|c| !c.has_side_effects()).then_some(t)
}

/// Whether the transfer's own value is its status (1 or 0) rather than a packet.
fn value_is_status(t: &Expr) -> bool {
    match &t.kind {
        K::PipeRead { dests, .. } => !dests.is_empty(),
        _ => true,
    }
}

/// The status flag a transfer writes to a local variable (`&valid` of an Intel read).
fn status_flag(t: &Expr) -> Option<LocalId> {
    match &t.kind {
        K::PipeRead { ok: Some(place), .. } => match place.kind {
            K::Local(id) => Some(id),
            _ => None,
        },
        _ => None,
    }
}

/// `e` with the transfer replaced by `status` (when its value is the status) and each local of
/// `vars` by its value.
fn substitute(e: &Expr, status: u64, vars: &HashMap<LocalId, u64>) -> Expr {
    let mut e = e.clone();
    fn go(e: &mut Expr, status: u64, vars: &HashMap<LocalId, u64>) {
        if is_transfer(e) && value_is_status(e) {
            *e = Expr::int(status, e.ty.clone(), e.span);
            return;
        }
        if let K::Local(id) = e.kind
            && let Some(v) = vars.get(&id)
        {
            *e = Expr::int(*v, e.ty.clone(), e.span);
            return;
        }
        for c in e.children_mut() {
            go(c, status, vars);
        }
    }
    go(&mut e, status, vars);
    e
}

/// Whether the loop goes on after an attempt with `status`, or `None` if that is not a
/// constant. `stmt` is the body's statement holding the transfer, when the condition does not.
fn goes_on(cond: &Expr, stmt: Option<&Expr>, t: &Expr, status: u64) -> Option<bool> {
    let mut vars = HashMap::new();
    if let Some(flag) = status_flag(t) {
        vars.insert(flag, status);
    }
    if let Some(s) = stmt
        && let K::Assign(lhs, rhs) = &s.kind
        && let K::Local(x) = lhs.kind
        && value_is_status(t)
    {
        let v = integer_value(&substitute(rhs, status, &HashMap::new()))?;
        vars.insert(x, v);
    }
    integer_value(&substitute(cond, status, &vars)).map(|v| v != 0)
}

/// The statement a spin loop is, or `None` if `l` is not one.
fn blocking_form(l: &Loop) -> Option<Stmt> {
    if !l.init.is_empty() || l.step.is_some() {
        return None;
    }
    let cond = l.cond.as_ref()?;
    let body: Vec<&Stmt> = l.body.iter().filter(|s| !matches!(s, Stmt::Block(b) if b.is_empty())).collect();
    let spins = |stmt: Option<&Expr>, t: &Expr| {
        goes_on(cond, stmt, t, 0) == Some(true) && goes_on(cond, stmt, t, 1) == Some(false)
    };
    match body.as_slice() {
        [] => {
            let t = lone_transfer(cond)?;
            if count(cond, &is_effect) != 1 || !spins(None, t) {
                return None;
            }
            let mut c = cond.clone();
            make_blocking(&mut c);
            Some(Stmt::Expr(c))
        }
        [Stmt::Expr(e)] => {
            if cond.has_side_effects() {
                return None;
            }
            let t = lone_transfer(e)?;
            let assigns_local = matches!(&e.kind, K::Assign(lhs, _) if matches!(lhs.kind, K::Local(_)));
            let effects = count(e, &is_effect);
            if effects != 1 + usize::from(assigns_local) || !spins(Some(e), t) {
                return None;
            }
            let mut s = e.clone();
            make_blocking(&mut s);
            Some(match l.kind {
                LoopKind::DoWhile => Stmt::Expr(s),
                LoopKind::While | LoopKind::For => Stmt::If(cond.clone(), vec![Stmt::Expr(s)], vec![], l.span),
            })
        }
        _ => None,
    }
}
