//! `rotate-loads`: a loop that reads neighbouring elements of an array it does not write —
//! `A[i - 1]`, `A[i]`, `A[i + 1]` with `i` its counter — reads each element once: the element
//! one iteration reads at `i + 1` is the one the next reads at `i`, so it is passed on in a
//! register (rotating registers):
//!
//! ```text
//! for (i = 1; i < N - 1; i++)              int A_m1, A_0, A_p1;  A_m1 = A[0]; A_0 = A[1];
//!     B[i] = A[i - 1] + A[i] + A[i + 1]; → for (i = 1; i < N - 1; i++) {
//!                                             A_p1 = A[i + 1];
//!                                             B[i] = A_m1 + A_0 + A_p1;
//!                                             A_m1 = A_0; A_0 = A_p1;
//!                                         }
//! ```
//!
//! In hardware a stencil's loop then needs one read port access per iteration for the row
//! instead of one per neighbour, which is what limited its II.
//!
//! A group of accesses qualifies when (with [`super::elements`]'s analysis): its base is an
//! array variable or pointer parameter that only element accesses reach, and that the loop
//! writes, if at all, only at elements provably apart from the group's (seidel-2d's rows
//! `i - 1` and `i + 1` while it writes row `i`); the loop is innermost, counts its counter `v` by one, has no `continue` (which
//! would skip the rotation) and, for memory shared by work-items, no barrier; the accesses
//! differ only in one index, `v + c` for constants `c` that form a run without gaps, the other
//! indices unchanged by the loop; and every one of them runs in every iteration (not under a
//! condition), so the loads made before and in each iteration are loads the loop made anyway.
//!
//! The emulator runs the kernel without this pass, like every loop transformation.

use super::elements::{
    Access, Affine, Entry, Ranges, access, counted, declared_in, element_name, eligible_bases, entry_flag, pure,
    register_name, same, substitute,
};
use crate::build::{assign_stmt, local, new_private_local, node};
use crate::types::{AddrSpace, INT};
use crate::walk::{for_each_expr, for_each_expr_mut, for_each_stmt, writes_in_block};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, LocalId, Loop, Program, Stmt};
use std::collections::{BTreeMap, HashSet};

/// The `rotate-loads` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "rotate-loads",
    requires: &[crate::verify::Invariant::NoRecords, crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, opts| Ok(if opts.scalar_replacement { rotate_in_program(prog) } else { prog.clone() }),
};

/// The widest window of neighbours passed on in registers.
const MAX_WINDOW: i64 = 8;

fn rotate_in_program(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.functions {
        if let Some(mut body) = f.body.take() {
            let bases = eligible_bases(f, &body);
            if !bases.is_empty() {
                rewrite_block(f, &mut body, &bases, &mut Ranges::default());
            }
            f.body = Some(body);
        }
    }
    out
}

fn rewrite_block(f: &mut Function, b: &mut Block, bases: &BTreeMap<LocalId, AddrSpace>, ranges: &mut Ranges) {
    for s in b.iter_mut() {
        match s {
            Stmt::Loop(l) => {
                let own = counted(l);
                if let Some((v, _, r)) = &own {
                    ranges.insert(*v, r.clone());
                }
                rewrite_block(f, &mut l.body, bases, ranges);
                if let Some(before) = rotate(f, l, bases, ranges) {
                    let lp = std::mem::replace(s, Stmt::Block(vec![]));
                    let mut out = before;
                    out.push(lp);
                    *s = Stmt::Block(out);
                }
                if let Some((v, ..)) = own {
                    ranges.remove(v);
                }
            }
            Stmt::If(_, t, e, _) => {
                rewrite_block(f, t, bases, ranges);
                rewrite_block(f, e, bases, ranges);
            }
            Stmt::Block(inner) => rewrite_block(f, inner, bases, ranges),
            Stmt::Switch(_, arms, _) => {
                for a in arms {
                    rewrite_block(f, &mut a.body, bases, ranges);
                }
            }
            _ => {}
        }
    }
}

/// A group of accesses that differ only in the rotating index: its dimension, an access as the
/// template, and the constant offsets from the counter seen.
struct Group {
    dim: usize,
    template: Access,
    /// The rotating index without its counter term and constant, to compare groups by.
    rest: Affine,
    offsets: Vec<i64>,
}

/// The offset from the counter `v` at which `a` reads the group's row, if it is one of the
/// group's accesses.
fn offset_in(g: &Group, a: &Access, v: LocalId) -> Option<i64> {
    if a.base != g.template.base || a.indices.len() != g.template.indices.len() {
        return None;
    }
    if !(0..a.indices.len()).all(|d| d == g.dim || same(&g.template.indices[d], &a.indices[d])) {
        return None;
    }
    let mut r = Affine::of(&a.indices[g.dim])?;
    if r.terms.remove(&v) != Some(1) {
        return None;
    }
    let c = r.constant;
    r.constant = 0;
    (r == g.rest).then_some(c)
}

/// Rotates the loop's neighbour loads; returns the statements to put before it.
fn rotate(f: &mut Function, l: &mut Loop, bases: &BTreeMap<LocalId, AddrSpace>, outer: &Ranges) -> Option<Vec<Stmt>> {
    let (v, start, _) = counted(l)?;
    let step = match &l.step.as_ref()?.kind {
        K::IncDec { increment, .. } => {
            if *increment {
                1
            } else {
                -1
            }
        }
        _ => return None,
    };
    let mut nested = false;
    let mut exits = false;
    for_each_stmt(&l.body, &mut |s| {
        nested |= matches!(s, Stmt::Loop(_));
        exits |= matches!(s, Stmt::Continue(_) | Stmt::Return(..));
    });
    let mut barrier = false;
    for_each_expr(&l.body, &mut |e| barrier |= matches!(e.kind, K::Barrier));
    if nested || exits {
        return None;
    }
    let mut changed = writes_in_block(&l.body);
    declared_in(&l.body, &mut changed);
    changed.insert(v);
    let mut writes: Vec<Access> = vec![];
    let mut unfollowed_writes = HashSet::new();
    for_each_expr(&l.body, &mut |e| {
        if let Some(places) = super::elements::written_place(e) {
            for p in places {
                match access(p) {
                    Some(a) => writes.push(a),
                    None => {
                        if let K::Local(x) = p.kind {
                            unfollowed_writes.insert(x);
                        }
                    }
                }
            }
        }
    });
    let mut all = vec![];
    super::elements::visit_block(&l.body, &mut |a| all.push(a.clone()), &mut |_| {});
    let mut every_iteration = vec![];
    super::elements::unconditional_accesses(&l.body, &mut every_iteration);
    let invariant = |e: &Expr| {
        let mut reads = HashSet::new();
        crate::walk::reads_in_expr(e, &mut reads);
        pure(e) && !reads.iter().any(|r| changed.contains(r))
    };
    let mut groups: Vec<Group> = vec![];
    for a in &all {
        let Some(space) = bases.get(&a.base) else { continue };
        if unfollowed_writes.contains(&a.base) || barrier && *space != AddrSpace::Private {
            continue;
        }
        // Exactly one index moves with the counter, by `v + c`.
        let moving: Vec<usize> = (0..a.indices.len()).filter(|d| !invariant(&a.indices[*d])).collect();
        let [dim] = moving[..] else { continue };
        let Some(mut rest) = Affine::of(&a.indices[dim]) else { continue };
        if rest.terms.remove(&v) != Some(1) || rest.terms.keys().any(|x| changed.contains(x)) {
            continue;
        }
        let offset = rest.constant;
        rest.constant = 0;
        let joins = |g: &Group| {
            g.template.base == a.base
                && g.dim == dim
                && g.rest == rest
                && (0..a.indices.len()).all(|d| d == dim || same(&g.template.indices[d], &a.indices[d]))
        };
        match groups.iter_mut().find(|g| joins(g)) {
            Some(g) => {
                if !g.offsets.contains(&offset) {
                    g.offsets.push(offset);
                }
            }
            None => groups.push(Group { dim, template: a.clone(), rest, offsets: vec![offset] }),
        }
    }
    // The group must run in every iteration at each of its offsets (other accesses of its
    // base read memory the loop does not write, so they may stay as they are).
    groups.retain(|g| {
        let lo = *g.offsets.iter().min().unwrap_or(&0);
        let hi = *g.offsets.iter().max().unwrap_or(&0);
        let contiguous = (hi - lo + 1) as usize == g.offsets.len();
        let runs_always = g.offsets.iter().all(|c| every_iteration.iter().any(|a| offset_in(g, a, v) == Some(*c)));
        // The loop may write the base only where no access of the group reads, so the values
        // passed on stay those in memory.
        let untouched = writes.iter().filter(|w| w.base == g.template.base).all(|w| {
            all.iter().filter(|a| offset_in(g, a, v).is_some()).all(|a| {
                w.indices.len() == a.indices.len() && a.indices.iter().zip(&w.indices).any(|(x, y)| outer.differ(x, y))
            })
        });
        g.offsets.len() >= 2 && contiguous && hi - lo < MAX_WINDOW && runs_always && untouched
    });
    if groups.is_empty() {
        return None;
    }
    let span = l.span;
    let mut before = vec![];
    let entered = match entry_flag(f, l, outer)? {
        Entry::Always => None,
        Entry::Flag(flag, decl) => {
            before.push(decl);
            Some(flag)
        }
    };
    let mut head = vec![];
    let mut tail = vec![];
    for g in &groups {
        let mut offsets = g.offsets.clone();
        offsets.sort_unstable();
        // Counting up, the highest offset is new in each iteration; counting down, the lowest.
        if step < 0 {
            offsets.reverse();
        }
        let elem_ty = g.template.expr.ty.clone();
        let name = element_name(f, &g.template);
        let regs: Vec<(i64, LocalId)> = offsets
            .iter()
            .map(|c| {
                let reg_name: String = register_name(&format!("{name}_{c}"));
                (*c, new_private_local(f, reg_name, elem_ty.clone(), span, None))
            })
            .collect();
        let element_at = |counter: &Expr, c: i64| -> Expr {
            let mut e = g.template.expr.clone();
            let K::Deref(addr) = &mut e.kind else { return e };
            let mut index_slot = &mut **addr;
            // Walk down to the rotating dimension's index.
            for _ in (g.dim + 1)..g.template.indices.len() {
                let K::PtrAdd(root, _) = &mut index_slot.kind else { return g.template.expr.clone() };
                let K::Decay(array) = &mut root.kind else { return g.template.expr.clone() };
                let K::Deref(inner) = &mut array.kind else { return g.template.expr.clone() };
                index_slot = &mut **inner;
            }
            let K::PtrAdd(_, index) = &mut index_slot.kind else { return g.template.expr.clone() };
            let mut moved = (**index).clone();
            // The template's index at offset `c`: its counter replaced by `counter + (c - c0)`.
            let c0 = Affine::of(index).map(|a| a.constant).unwrap_or(0);
            let shift = c - c0;
            substitute(&mut moved, v, &|vt| {
                let base = crate::build::convert(counter.clone(), vt);
                if shift == 0 {
                    base
                } else {
                    let k = Expr::int(shift.unsigned_abs(), vt.clone(), span);
                    let op = if shift > 0 { BinaryOp::Add } else { BinaryOp::Sub };
                    node(K::Binary(op, Box::new(base), Box::new(k)), vt.clone(), span)
                }
            });
            **index = moved;
            e
        };
        // Before the loop: the registers of every offset but the new one, at the start.
        for (c, reg) in &regs[..regs.len() - 1] {
            let load = assign_stmt(local(*reg, elem_ty.clone(), span), element_at(&start, *c));
            before.push(Stmt::Decl(*reg, None, span));
            before.push(match entered {
                Some(flag) => Stmt::If(local(flag, INT, span), vec![load], vec![], span),
                None => load,
            });
        }
        let (newest_c, newest) = regs[regs.len() - 1];
        before.push(Stmt::Decl(newest, None, span));
        let counter = local(v, f.local(v).ty.clone(), span);
        head.push(assign_stmt(local(newest, elem_ty.clone(), span), element_at(&counter, newest_c)));
        // After the body: each register takes its neighbour's value for the next iteration.
        for w in regs.windows(2) {
            tail.push(assign_stmt(local(w[0].1, elem_ty.clone(), span), local(w[1].1, elem_ty.clone(), span)));
        }
        // In the body, each access reads its register.
        let by_offset: BTreeMap<i64, LocalId> = regs.iter().copied().collect();
        for_each_expr_mut(&mut l.body, &mut |e| {
            if let Some(a) = access(e)
                && let Some(c) = offset_in(g, &a, v)
                && let Some(reg) = by_offset.get(&c)
            {
                *e = local(*reg, elem_ty.clone(), span);
            }
        });
        l.transformations.push(format!(
            "rotating registers: `{}` read once per iteration for {} neighbouring elements",
            f.local(g.template.base).name,
            regs.len()
        ));
    }
    let body = std::mem::take(&mut l.body);
    l.body = head.into_iter().chain(body).chain(tail).collect();
    Some(before)
}
