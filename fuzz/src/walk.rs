//! Visiting the statements and expressions of a program.

use crate::ast::{Expr, Program, Stmt};

/// Calls `f` on every statement of `block`, outer before inner.
pub fn each_stmt_mut(block: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
    for s in block.iter_mut() {
        f(s);
        for b in s.blocks_mut() {
            each_stmt_mut(b, f);
        }
    }
}

/// Calls `f` on every expression of `e`, outer before inner.
pub fn each_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    for c in e.children() {
        each_expr(c, f);
    }
}

/// Calls `f` on every expression of the program (kernels and helpers).
pub fn program_exprs(p: &Program, f: &mut dyn FnMut(&Expr)) {
    let mut copy = p.clone();
    {
        let mut visit = |s: &mut Stmt| {
            for e in s.exprs_mut() {
                each_expr(e, f);
            }
        };
        for k in &mut copy.kernels {
            each_stmt_mut(&mut k.body, &mut visit);
        }
        for h in &mut copy.helpers {
            each_stmt_mut(&mut h.body, &mut visit);
        }
    }
    for h in &copy.helpers {
        each_expr(&h.result, f);
    }
}
