//! Walkers over the HIR shared by the passes that read or rewrite it.

use crate as hir;
use crate::{ExprKind as K, LocalId, Stmt};
use std::collections::HashSet;

/// Every sub-expression of a block, in order.
pub fn for_each_expr(b: &[Stmt], f: &mut dyn FnMut(&hir::Expr)) {
    fn expr(e: &hir::Expr, f: &mut dyn FnMut(&hir::Expr)) {
        f(e);
        for c in e.children() {
            expr(c, f);
        }
    }
    fn init(i: &hir::Init, f: &mut dyn FnMut(&hir::Expr)) {
        match i {
            hir::Init::Expr(e) => expr(e, f),
            hir::Init::List(items) => items.iter().for_each(|i| init(i, f)),
            hir::Init::Union(_, i) => init(i, f),
        }
    }
    for s in b {
        match s {
            Stmt::Expr(e) => expr(e, f),
            Stmt::Decl(_, Some(i), _) => init(i, f),
            Stmt::If(c, t, e, _) => {
                expr(c, f);
                for_each_expr(t, f);
                for_each_expr(e, f);
            }
            Stmt::Loop(l) => {
                for_each_expr(&l.init, f);
                if let Some(c) = &l.cond {
                    expr(c, f);
                }
                if let Some(s) = &l.step {
                    expr(s, f);
                }
                for_each_expr(&l.body, f);
            }
            Stmt::Switch(v, arms, _) => {
                expr(v, f);
                arms.iter().for_each(|a| for_each_expr(&a.body, f));
            }
            Stmt::Return(Some(e), _) => expr(e, f),
            Stmt::Block(b) => for_each_expr(b, f),
            Stmt::Decl(..) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(None, _) => {}
        }
    }
}

/// Every sub-expression of a block, in order, to rewrite in place (the parent before its
/// children, which `f` may replace).
pub fn for_each_expr_mut(b: &mut [Stmt], f: &mut dyn FnMut(&mut hir::Expr)) {
    fn expr(e: &mut hir::Expr, f: &mut dyn FnMut(&mut hir::Expr)) {
        f(e);
        for c in e.children_mut() {
            expr(c, f);
        }
    }
    fn init(i: &mut hir::Init, f: &mut dyn FnMut(&mut hir::Expr)) {
        match i {
            hir::Init::Expr(e) => expr(e, f),
            hir::Init::List(items) => items.iter_mut().for_each(|i| init(i, f)),
            hir::Init::Union(_, i) => init(i, f),
        }
    }
    for s in b {
        match s {
            Stmt::Expr(e) => expr(e, f),
            Stmt::Decl(_, Some(i), _) => init(i, f),
            Stmt::If(c, t, e, _) => {
                expr(c, f);
                for_each_expr_mut(t, f);
                for_each_expr_mut(e, f);
            }
            Stmt::Loop(l) => {
                for_each_expr_mut(&mut l.init, f);
                if let Some(c) = &mut l.cond {
                    expr(c, f);
                }
                if let Some(s) = &mut l.step {
                    expr(s, f);
                }
                for_each_expr_mut(&mut l.body, f);
            }
            Stmt::Switch(v, arms, _) => {
                expr(v, f);
                arms.iter_mut().for_each(|a| for_each_expr_mut(&mut a.body, f));
            }
            Stmt::Return(Some(e), _) => expr(e, f),
            Stmt::Block(b) => for_each_expr_mut(b, f),
            Stmt::Decl(..) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(None, _) => {}
        }
    }
}

/// Variables a block may change: assigned, incremented, or with their address taken.
pub fn writes_in_block(b: &hir::Block) -> HashSet<LocalId> {
    let mut w = HashSet::new();
    for_each_expr(b, &mut |e| {
        let target = match &e.kind {
            K::Assign(l, _) | K::CompoundAssign { lhs: l, .. } | K::PtrCompoundAssign { lhs: l, .. } => Some(l),
            K::IncDec { target, .. } => Some(target),
            K::AddrOf(a) => Some(a),
            _ => None,
        };
        if let Some(t) = target
            && let K::Local(x) = t.kind
        {
            w.insert(x);
        }
    });
    w
}

pub fn reads_in_expr(e: &hir::Expr, out: &mut HashSet<LocalId>) {
    for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| {
        if let K::Local(id) = x.kind {
            out.insert(id);
        }
    });
}

/// Every statement of a block and of the blocks nested in it, in order.
pub fn for_each_stmt(b: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
    for s in b {
        f(s);
        match s {
            Stmt::If(_, t, e, _) => {
                for_each_stmt(t, f);
                for_each_stmt(e, f);
            }
            Stmt::Loop(l) => {
                for_each_stmt(&l.init, f);
                for_each_stmt(&l.body, f);
            }
            Stmt::Switch(_, arms, _) => arms.iter().for_each(|a| for_each_stmt(&a.body, f)),
            Stmt::Block(b) => for_each_stmt(b, f),
            _ => {}
        }
    }
}
