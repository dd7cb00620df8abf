//! Walks over the typed program used by the loop and NDRange transformations.

use kiln_frontend::hir::{self, ExprKind as K, LocalId, Stmt};
use std::collections::HashSet;

/// Every sub-expression of a block, in order.
pub(super) fn for_each_expr(b: &[Stmt], f: &mut dyn FnMut(&hir::Expr)) {
    fn expr(e: &hir::Expr, f: &mut dyn FnMut(&hir::Expr)) {
        f(e);
        match &e.kind {
            K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) => {}
            K::Deref(a)
            | K::Member(a, _)
            | K::Unary(_, a)
            | K::Convert(a)
            | K::PtrCast(a)
            | K::Decay(a)
            | K::AddrOf(a)
            | K::IncDec { target: a, .. } => expr(a, f),
            K::Binary(_, a, b)
            | K::LogAnd(a, b)
            | K::LogOr(a, b)
            | K::PtrAdd(a, b)
            | K::PtrDiff(a, b)
            | K::PtrCmp(_, a, b)
            | K::Assign(a, b)
            | K::CompoundAssign { lhs: a, rhs: b, .. }
            | K::PtrCompoundAssign { lhs: a, rhs: b, .. } => {
                expr(a, f);
                expr(b, f);
            }
            K::Cond(a, b, c) => {
                expr(a, f);
                expr(b, f);
                expr(c, f);
            }
            K::Call(_, args)
            | K::Comma(args)
            | K::IntBuiltin(_, args)
            | K::FloatBuiltin(_, args)
            | K::Geometric(_, args) => args.iter().for_each(|a| expr(a, f)),
            K::ConvertRound(a, _) => expr(a, f),
            K::WorkItem(..) | K::Barrier => {}
            K::Swizzle(a, _) | K::ConvertSat(a) | K::Bitcast(a) => expr(a, f),
            K::VecLit(args) => args.iter().for_each(|a| expr(a, f)),
            K::Shuffle(sources, mask) => {
                sources.iter().for_each(|a| expr(a, f));
                expr(mask, f);
            }
            K::VLoad(a, b) => {
                expr(a, f);
                expr(b, f);
            }
            K::VStore { data, offset, ptr } => {
                expr(data, f);
                expr(offset, f);
                expr(ptr, f);
            }
            K::Atomic { ptr, args, .. } => {
                expr(ptr, f);
                args.iter().for_each(|a| expr(a, f));
            }
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

/// Variables a block may change: assigned, incremented, or with their address taken.
pub(super) fn writes_in_block(b: &hir::Block) -> HashSet<LocalId> {
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

pub(super) fn reads_in_expr(e: &hir::Expr, out: &mut HashSet<LocalId>) {
    for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| {
        if let K::Local(id) = x.kind {
            out.insert(id);
        }
    });
}

/// Every statement of a block and of the blocks nested in it, in order.
pub(super) fn for_each_stmt(b: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
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

/// The direct sub-expressions of `e`, to rewrite in place.
pub(super) fn children_mut(e: &mut hir::Expr) -> Vec<&mut hir::Expr> {
    match &mut e.kind {
        K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) | K::WorkItem(..) | K::Barrier => vec![],
        K::Deref(a)
        | K::Member(a, _)
        | K::Unary(_, a)
        | K::Convert(a)
        | K::PtrCast(a)
        | K::Decay(a)
        | K::AddrOf(a)
        | K::IncDec { target: a, .. }
        | K::ConvertRound(a, _)
        | K::Swizzle(a, _)
        | K::ConvertSat(a)
        | K::Bitcast(a) => vec![&mut **a],
        K::Binary(_, a, b)
        | K::LogAnd(a, b)
        | K::LogOr(a, b)
        | K::PtrAdd(a, b)
        | K::PtrDiff(a, b)
        | K::PtrCmp(_, a, b)
        | K::Assign(a, b)
        | K::CompoundAssign { lhs: a, rhs: b, .. }
        | K::PtrCompoundAssign { lhs: a, rhs: b, .. }
        | K::VLoad(a, b) => vec![&mut **a, &mut **b],
        K::Cond(a, b, c) => vec![&mut **a, &mut **b, &mut **c],
        K::Call(_, args)
        | K::Comma(args)
        | K::IntBuiltin(_, args)
        | K::FloatBuiltin(_, args)
        | K::Geometric(_, args)
        | K::VecLit(args) => args.iter_mut().collect(),
        K::Shuffle(sources, mask) => {
            let mut v: Vec<&mut hir::Expr> = sources.iter_mut().collect();
            v.push(&mut **mask);
            v
        }
        K::VStore { data, offset, ptr } => vec![&mut **data, &mut **offset, &mut **ptr],
        K::Atomic { ptr, args, .. } => {
            let mut v = vec![&mut **ptr];
            v.extend(args.iter_mut());
            v
        }
    }
}
