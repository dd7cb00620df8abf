//! Loop coalescing while lowering: a nest of two counted loops with constant trip counts becomes
//! one loop of `outer × inner` iterations, so that the whole nest is one pipeline and pays the
//! pipeline's fill and drain once instead of once per outer iteration.
//!
//! The coalesced loop keeps both induction variables: each iteration runs the inner body and the
//! inner step; when the inner test then fails, the outer step runs and the inner initializer is
//! assigned again (an `if` that if-conversion turns into selects). The loop test is the outer
//! test. The inner loop's trip count must not depend on the outer loop (its initializer, test and
//! step read only its own variables), and its body must not leave the loop (`break`, `return`).
//!
//! The nest may be imperfect: the outer body may declare variables before the inner loop (with
//! initializers that read no memory, so that the declarations can run again, unneeded, after
//! the last iteration) and run statements after it that do not leave the loop
//! (`int acc = 0; for (s...) acc += ...; sum[p] = acc;`). Statements after the inner loop run
//! in an iteration of their own, which tests the inner loop's condition first and runs them
//! instead of the body when it fails (`outer × (inner + 1)` iterations), then the outer step;
//! the declarations are assigned again after it, with the inner loop's initializer.
//!
//! `#pragma loop_coalesce` asks for it. It is automatic for a perfect nest whose inner loop is
//! too long to be unrolled and in which no memory is both read and written — the dependence
//! analysis cannot see through the coalesced induction variables, so a nest with a
//! read-modify-write of an array would pipeline worse than the inner loop alone. A nest whose
//! inner loop is short enough to be unrolled automatically, and that reads and writes no memory
//! both, is a candidate ([`Kernel::coalescible_nests`]): unrolled, the outer loop pipelines the
//! copies, which is faster unless one memory port serves them one a cycle anyway (doitgen's
//! `C4[s][p]`: the outer loop's II is the inner trip count, with twelve multiplies and their
//! operands held for them). The driver schedules the kernel with each candidate coalesced and
//! keeps it where the schedule estimates no more cycles for the kernel.

use super::loops::{AUTO_UNROLL_BUDGET, AUTO_UNROLL_MAX_TRIP, block_size, contains_loop};
use super::*;
use kiln_hir::walk::{for_each_expr, for_each_stmt, reads_in_expr};
use kiln_hir::{BinaryOp, ExprKind as K, Loop, LoopKind, Stmt};

/// The most iterations a coalesced loop may have (the trip counts are found by probing).
const MAX_COALESCED_TRIP: u64 = 1 << 20;

/// A nest that will be coalesced.
pub(super) struct Coalesce<'l> {
    pub inner: &'l Loop,
    /// The outer body's declarations before the inner loop, and its statements after it.
    pub before: &'l [Stmt],
    pub after: &'l [Stmt],
    pub outer_trip: u64,
    pub inner_trip: u64,
    pub why: String,
}

impl<'p> Lowerer<'p> {
    /// Whether `l` (its initializer already lowered) and the loop it contains are coalesced.
    pub(super) fn coalesce_plan<'l>(&mut self, l: &'l Loop) -> Option<Coalesce<'l>> {
        let p = &l.pragmas;
        let requested = match p.loop_coalesce {
            Some(Some(n)) => n >= 2,
            Some(None) => true,
            None => false,
        };
        if !self.transform_loops
            || l.kind != LoopKind::For
            || p.unroll.is_some()
            || p.ii.is_some()
            || p.ivdep.is_some()
            || p.disable_pipelining
            || l.cond.is_none()
        {
            return None;
        }
        let (before, inner, after) = split_nest(&l.body)?;
        let perfect = before.is_empty() && after.is_empty();
        let ip = &inner.pragmas;
        if inner.kind != LoopKind::For
            || inner.cond.is_none()
            || ip.unroll.is_some()
            || ip.ii.is_some()
            || ip.ivdep.is_some()
            || ip.disable_pipelining
            || contains_loop(&inner.body)
            || leaves_loop(&inner.body)
            || !self.independent_header(inner)
            || !self.rerunnable_declarations(before)
            || contains_loop(after)
            || leaves_or_continues(after)
        {
            return None;
        }
        let outer_trip = self.probe_trip_count(l, MAX_COALESCED_TRIP).filter(|n| *n >= 1)?;
        let inner_trip = self.probe_inner_trip(inner).filter(|n| *n >= 1)?;
        if outer_trip.checked_mul(inner_trip)? > MAX_COALESCED_TRIP {
            return None;
        }
        let why = if requested {
            "`#pragma loop_coalesce`".to_string()
        } else if inner_trip <= AUTO_UNROLL_MAX_TRIP {
            // `loops.rs` unrolls such an inner loop; coalescing is an alternative the driver
            // weighs by the schedule.
            let unrolled = (inner_trip as usize).saturating_mul(block_size(&inner.body)) <= AUTO_UNROLL_BUDGET;
            if !unrolled || read_and_written(self, &l.body) {
                return None;
            }
            let index = self.k.coalescible_nests.len();
            self.k.coalescible_nests.push(l.span);
            if !self.coalesce_nests.contains(&index) {
                return None;
            }
            "automatic: the schedule estimates no more cycles for the kernel than with the inner loop unrolled, for a smaller datapath".to_string()
        } else {
            if !perfect || read_and_written(self, &inner.body) {
                return None;
            }
            "automatic: a perfect nest with constant trip counts".to_string()
        };
        Some(Coalesce { inner, before, after, outer_trip, inner_trip, why })
    }

    /// Whether statements before an inner loop only declare scalar variables with initializers
    /// that read no memory and cannot fail, so that they may run once more after the last
    /// iteration of a coalesced nest.
    fn rerunnable_declarations(&self, before: &[Stmt]) -> bool {
        before.iter().all(|s| match s {
            Stmt::Decl(id, Some(hir::Init::Expr(e)), _) => {
                self.func().local(*id).ty.scalar().is_some()
                    && !self.frame().address_taken.contains(id)
                    && pure_value(e)
            }
            _ => false,
        })
    }

    /// The inner loop's initializer, test and step read only the variables it declares.
    fn independent_header(&self, inner: &Loop) -> bool {
        let mut own = HashSet::new();
        for s in &inner.init {
            match s {
                Stmt::Decl(id, Some(hir::Init::Expr(_)), _)
                    if self.func().local(*id).ty.scalar().is_some() && !self.frame().address_taken.contains(id) =>
                {
                    own.insert(*id);
                }
                _ => return false,
            }
        }
        let mut reads = HashSet::new();
        for_each_expr(&inner.init, &mut |e| {
            if let K::Local(id) = e.kind {
                reads.insert(id);
            }
        });
        if let Some(c) = &inner.cond {
            reads_in_expr(c, &mut reads);
        }
        if let Some(s) = &inner.step {
            reads_in_expr(s, &mut reads);
        }
        reads.is_subset(&own)
    }

    /// The inner loop's trip count, probing with its initializer lowered on a scratch copy.
    fn probe_inner_trip(&mut self, inner: &Loop) -> Option<u64> {
        let saved = (self.env.clone(), self.cur, self.diags.len());
        self.scopes.push(Vec::new());
        for s in &inner.init {
            self.stmt(s);
        }
        let n = self.probe_trip_count(inner, MAX_COALESCED_TRIP);
        self.scopes.pop();
        self.env = saved.0;
        self.cur = saved.1;
        self.diags.truncate(saved.2);
        n
    }

    /// Lowers the coalesced nest; the outer initializer is already lowered.
    pub(super) fn coalesced_loop(&mut self, outer: &Loop, c: Coalesce<'_>, exit: usize) {
        let inner = c.inner;
        let span = outer.span;
        self.scopes.push(Vec::new());
        for s in c.before.iter().chain(&inner.init) {
            self.stmt(s);
        }
        let header = self.new_join(span);
        self.joins[header].loop_header = true;
        self.jump_to_join(header, span);
        self.enter_join(header);
        let header_block = self.joins[header].block;
        // Statements after the inner loop get an iteration of their own, in which the body
        // does not run: they read what the last pass left in the loop's registers, rather than
        // a value an add computes in the same cycle (on the iCE40 a sum that also goes
        // elsewhere cannot share its logic cell with its register, a hop and a cell more on the
        // recurrence).
        let own_iteration = !c.after.is_empty();
        let per_outer = c.inner_trip + u64::from(own_iteration);
        let (count, around) = match (own_iteration, c.before.is_empty()) {
            (true, _) => (
                format!("{} × ({} + 1)", c.outer_trip, c.inner_trip),
                "; the statements after the inner loop run in an iteration of their own, and the declarations before it start again there",
            ),
            (false, false) => (
                format!("{} × {}", c.outer_trip, c.inner_trip),
                "; the declarations before the inner loop start again when it ends",
            ),
            (false, true) => (format!("{} × {}", c.outer_trip, c.inner_trip), ""),
        };
        let note = format!(
            "coalesced with its inner loop into one loop of {count} = {} iterations ({}){around}",
            c.outer_trip * per_outer,
            c.why
        );
        self.k.loops.push(LoopInfo {
            header: header_block,
            span,
            pragmas: Default::default(),
            transformations: vec![note],
            known_trip_count: Some(c.outer_trip * per_outer),
        });
        self.loop_info_stack.push(self.k.loops.len() - 1);
        if let Some(cond) = &outer.cond {
            let test = self.cond(cond);
            self.enter_body_or_exit(test, exit, span);
        }
        // When the inner loop would end: the statements after it, the outer step, and the
        // declarations before it and the inner variables start again.
        let mut wrap: hir::Block = c.after.to_vec();
        if let Some(s) = &outer.step {
            wrap.push(Stmt::Expr(s.clone()));
        }
        for s in c.before.iter().chain(&inner.init) {
            if let Stmt::Decl(id, Some(hir::Init::Expr(e)), dspan) = s {
                let ty = self.func().local(*id).ty.clone();
                let var = hir::Expr { kind: K::Local(*id), ty: ty.clone(), span: *dspan };
                wrap.push(Stmt::Expr(hir::Expr {
                    kind: K::Assign(Box::new(var), Box::new(e.clone())),
                    ty,
                    span: *dspan,
                }));
            }
        }
        let wrap_join = own_iteration.then(|| self.new_join(span));
        if let (Some(j), Some(ic)) = (wrap_join, &inner.cond) {
            let test = self.cond(ic);
            self.enter_body_or_exit(test, j, span);
        }
        // The inner body; `continue` lands before the inner step.
        let cont = self.new_join(span);
        self.loops.push(LoopCtx { break_to: exit, continue_to: cont });
        self.block(&inner.body);
        self.loops.pop();
        self.jump_to_join(cont, span);
        self.enter_join(cont);
        if let Some(s) = &inner.step {
            self.rvalue(s);
        }
        if let Some(j) = wrap_join {
            // One back edge, from the join of the two kinds of iteration.
            let latch = self.new_join(span);
            self.jump_to_join(latch, span);
            self.enter_join(j);
            self.stmt(&Stmt::Block(wrap));
            self.jump_to_join(latch, span);
            self.enter_join(latch);
        } else if let Some(ic) = &inner.cond {
            self.stmt(&Stmt::If(ic.clone(), Vec::new(), wrap, span));
        }
        self.jump_to_join(header, span);
        self.loop_info_stack.pop();
        self.close_scope();
    }
}

/// A loop body as the statements before its one inner loop, the inner loop, and the statements
/// after it (a body in braces is looked into when it is all there is).
fn split_nest(b: &hir::Block) -> Option<(&[Stmt], &Loop, &[Stmt])> {
    if let [Stmt::Block(inner)] = b.as_slice() {
        return split_nest(inner);
    }
    let mut loops = b.iter().enumerate().filter(|(_, s)| matches!(s, Stmt::Loop(_)));
    let (at, Stmt::Loop(l)) = loops.next()? else { return None };
    if loops.next().is_some() {
        return None;
    }
    Some((&b[..at], l, &b[at + 1..]))
}

/// Whether an expression computes a value without reading memory, changing a variable, calling
/// a function, or dividing (which could fault on the values after a nest's last iteration).
fn pure_value(e: &hir::Expr) -> bool {
    e.ty.scalar().is_some()
        && match &e.kind {
            K::Int(_) | K::Local(_) => true,
            K::Convert(a) | K::Unary(_, a) => pure_value(a),
            K::Binary(op, a, b) => !matches!(op, BinaryOp::Div | BinaryOp::Rem) && pure_value(a) && pure_value(b),
            _ => false,
        }
}

/// Whether statements leave or continue the loop around them.
fn leaves_or_continues(b: &[Stmt]) -> bool {
    let mut leaves = false;
    for_each_stmt(b, &mut |s| {
        if matches!(s, Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(..)) {
            leaves = true;
        }
    });
    leaves
}

/// Whether a loop body can leave the loop other than by finishing an iteration.
fn leaves_loop(b: &hir::Block) -> bool {
    let mut leaves = false;
    for_each_stmt(b, &mut |s| {
        if matches!(s, Stmt::Break(_) | Stmt::Return(..)) {
            leaves = true;
        }
    });
    leaves
}

/// Whether some memory is both read and written in the block (or a pointer the lowering cannot
/// name is written).
fn read_and_written(lw: &Lowerer<'_>, b: &hir::Block) -> bool {
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum Base {
        Local(hir::LocalId),
        Global(hir::GlobalId),
    }
    fn base(lw: &Lowerer<'_>, e: &hir::Expr) -> Option<Base> {
        match &e.kind {
            K::Local(id) => {
                let l = lw.func().local(*id);
                // A pointer variable may point anywhere; a pointer parameter is its own memory.
                (l.is_param || !matches!(l.ty, Type::Pointer(_))).then_some(Base::Local(*id))
            }
            K::Global(g) => Some(Base::Global(*g)),
            K::PtrAdd(p, _) | K::Decay(p) | K::Convert(p) | K::PtrCast(p) => base(lw, p),
            // A row of a multi-dimensional array lives in the array.
            K::Deref(p) if matches!(e.ty, Type::Array(..)) => base(lw, p),
            _ => None,
        }
    }
    let mut written: HashSet<Option<Base>> = HashSet::new();
    let mut read: HashSet<Option<Base>> = HashSet::new();
    let mut assigned: Vec<*const hir::Expr> = Vec::new();
    for_each_expr(b, &mut |e| match &e.kind {
        K::Assign(l, _) => {
            if let K::Deref(p) = &l.kind {
                written.insert(base(lw, p));
                assigned.push(&**l as *const hir::Expr);
            }
        }
        K::CompoundAssign { lhs: l, .. } | K::PtrCompoundAssign { lhs: l, .. } | K::IncDec { target: l, .. } => {
            if let K::Deref(p) = &l.kind {
                written.insert(base(lw, p));
            }
        }
        _ => {}
    });
    for_each_expr(b, &mut |e| {
        // A dereference of array type names a row of a multi-dimensional array: no load.
        if let K::Deref(p) = &e.kind
            && !matches!(e.ty, Type::Array(..))
            && !assigned.contains(&(e as *const hir::Expr))
        {
            read.insert(base(lw, p));
        }
    });
    if written.contains(&None) && !read.is_empty() || read.contains(&None) && !written.is_empty() {
        return true;
    }
    written.iter().any(|w| read.contains(w))
}
