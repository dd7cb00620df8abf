//! The reducer: shrinks a failing program to a small one that fails the same way.
//!
//! First delta debugging over statements (each prints as a line or a block of lines): chunks of
//! statements are removed, halving the chunk size until single statements; compound statements
//! are also replaced by one of their blocks. Then over the syntax tree: each expression is
//! replaced by a zero of its type or by one of its operands. Both keep the program defined,
//! because every node is defined on its own (see `ast`); a change that breaks the program in
//! another way (a variable no longer declared) fails differently and is not kept.
//! Channel reads and writes stay, since they pair across kernels.

use crate::ast::{Bound, Expr, Program, Stmt, Ty};

fn count(block: &[Stmt]) -> usize {
    block.iter().map(|s| 1 + s.blocks().iter().map(|b| count(b)).sum::<usize>()).sum()
}

fn stmt_count(p: &Program) -> usize {
    p.kernels.iter().map(|k| count(&k.body)).sum::<usize>() + p.helpers.iter().map(|h| count(&h.body)).sum::<usize>()
}

/// Removes the statements whose preorder numbers `drop` selects (a removed statement takes
/// its nested ones with it).
fn remove(block: &mut Vec<Stmt>, next: &mut usize, drop: &dyn Fn(usize) -> bool) {
    let mut kept = Vec::new();
    for mut s in block.drain(..) {
        let id = *next;
        *next += 1;
        if drop(id) && !s.is_paired() {
            *next += count(&[s]) - 1;
            continue;
        }
        for b in s.blocks_mut() {
            remove(b, next, drop);
        }
        kept.push(s);
    }
    *block = kept;
}

fn without(p: &Program, drop: &dyn Fn(usize) -> bool) -> Program {
    let mut q = p.clone();
    let mut next = 0;
    for k in &mut q.kernels {
        remove(&mut k.body, &mut next, drop);
    }
    for h in &mut q.helpers {
        remove(&mut h.body, &mut next, drop);
    }
    q
}

/// Replaces statement `target` by the statements of its block `which`.
fn inline(block: &mut Vec<Stmt>, next: &mut usize, target: usize, which: usize) -> bool {
    let mut i = 0;
    while i < block.len() {
        let id = *next;
        *next += 1;
        if id == target {
            let s = &block[i];
            if s.is_paired() || matches!(s, Stmt::For { .. }) {
                return false;
            }
            let Some(inner) = s.blocks().get(which).map(|b| (*b).clone()) else { return false };
            block.splice(i..=i, inner);
            return true;
        }
        for b in block[i].blocks_mut() {
            if inline(b, next, target, which) {
                return true;
            }
        }
        i += 1;
    }
    false
}

fn inlined(p: &Program, target: usize, which: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut next = 0;
    for k in &mut q.kernels {
        if inline(&mut k.body, &mut next, target, which) {
            return Some(q);
        }
    }
    None
}

/// Calls `f` on expression number `target` in preorder; returns whether it was found.
fn visit_expr(e: &mut Expr, next: &mut usize, target: usize, f: &mut dyn FnMut(&mut Expr)) -> bool {
    if *next == target {
        f(e);
        return true;
    }
    *next += 1;
    e.children_mut().into_iter().any(|c| visit_expr(c, next, target, f))
}

fn visit_block(b: &mut [Stmt], next: &mut usize, target: usize, f: &mut dyn FnMut(&mut Expr)) -> bool {
    for s in b.iter_mut() {
        for e in s.exprs_mut() {
            if visit_expr(e, next, target, f) {
                return true;
            }
        }
        for inner in s.blocks_mut() {
            if visit_block(inner, next, target, f) {
                return true;
            }
        }
    }
    false
}

fn with_expr(p: &Program, target: usize, f: &mut dyn FnMut(&mut Expr)) -> Option<Program> {
    let mut q = p.clone();
    let mut next = 0;
    for k in &mut q.kernels {
        if visit_block(&mut k.body, &mut next, target, f) {
            return Some(q);
        }
    }
    for h in &mut q.helpers {
        if visit_block(&mut h.body, &mut next, target, f) || visit_expr(&mut h.result, &mut next, target, f) {
            return Some(q);
        }
    }
    None
}

/// Simpler expressions that could stand for `e`.
fn replacements(e: &Expr) -> Vec<Expr> {
    if !e.is_pure() {
        return vec![];
    }
    let ty = e.ty();
    let mut out = Vec::new();
    let zero = Expr::Lit(ty, 0);
    if *e != zero && !matches!(e, Expr::Lit(..)) {
        out.push(zero);
    }
    for c in e.children() {
        if c.ty() == ty {
            out.push(c.clone());
        } else if matches!((ty, c.ty()), (Ty::Int(_), Ty::Int(_))) {
            out.push(Expr::Cast(ty, Box::new(c.clone())));
        }
    }
    out
}

fn shorten_loops(block: &mut [Stmt], changed: &mut bool) {
    for s in block.iter_mut() {
        if let Stmt::For { bound: bound @ Bound::Const(_), body, .. } = s
            && !body.iter().any(Stmt::is_paired)
            && *bound != Bound::Const(1)
        {
            *bound = Bound::Const(1);
            *changed = true;
            return;
        }
        for b in s.blocks_mut() {
            shorten_loops(b, changed);
            if *changed {
                return;
            }
        }
    }
}

/// Shrinks `p` while `fails` holds, trying at most `budget` candidates.
pub fn reduce(p: &Program, fails: &mut dyn FnMut(&Program) -> bool, budget: usize) -> Program {
    let mut best = p.clone();
    let mut tries = 0;
    let mut attempt = |q: Program, best: &mut Program, tries: &mut usize| -> bool {
        *tries += 1;
        if fails(&q) {
            *best = q;
            true
        } else {
            false
        }
    };
    // Statements: chunks of halving size.
    let mut chunk = stmt_count(&best).div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while start < stmt_count(&best) && tries < budget {
            let q = without(&best, &|id| id >= start && id < start + chunk);
            if stmt_count(&q) < stmt_count(&best) && attempt(q, &mut best, &mut tries) {
                continue;
            }
            start += chunk;
        }
        if chunk == 1 || tries >= budget {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    // Compound statements replaced by one of their blocks.
    let mut target = 0;
    while target < stmt_count(&best) && tries < budget {
        let mut progressed = false;
        for which in 0..4 {
            if let Some(q) = inlined(&best, target, which)
                && attempt(q, &mut best, &mut tries)
            {
                progressed = true;
                break;
            }
        }
        if !progressed {
            target += 1;
        }
    }
    // Unused helpers and records.
    for i in (0..best.helpers.len()).rev() {
        let mut q = best.clone();
        q.helpers.remove(i);
        attempt(q, &mut best, &mut tries);
    }
    for i in (0..best.records.len()).rev() {
        let mut q = best.clone();
        q.records.remove(i);
        attempt(q, &mut best, &mut tries);
    }
    // Loops made to run once.
    loop {
        let mut q = best.clone();
        let mut changed = false;
        for k in &mut q.kernels {
            shorten_loops(&mut k.body, &mut changed);
            if changed {
                break;
            }
        }
        if !changed || tries >= budget || !attempt(q, &mut best, &mut tries) {
            break;
        }
    }
    // Expressions: each replaced by something simpler, restarting the numbering after a change.
    let mut target = 0;
    while tries < budget {
        let mut current = None;
        if with_expr(&best, target, &mut |e| current = Some(e.clone())).is_none() {
            break;
        }
        let mut progressed = false;
        for r in current.map(|e| replacements(&e)).unwrap_or_default() {
            let Some(q) = with_expr(&best, target, &mut |e| *e = r.clone()) else { continue };
            if attempt(q, &mut best, &mut tries) {
                progressed = true;
                break;
            }
        }
        if !progressed {
            target += 1;
        }
    }
    best
}
