//! Loops, and the loop transformations applied while lowering: full unrolling, partial
//! unrolling (with peeled iterations or a remainder loop), from `#pragma unroll [N]`,
//! `__attribute__((opencl_unroll_hint[(N)]))`, or automatically for small loops nested in a
//! loop. Each transformation is recorded for the loop report.
//!
//! Lowering builds SSA from the environment, so unrolling is lowering the body several times in
//! a row. The trip count is found by *probing*: the loop's test and step are lowered on a copy
//! of the environment until the test folds to false; this needs the test and step to be simple
//! (no memory, no calls, no short-circuit control flow) and to read no variable the body
//! writes. The probe's operations are dead and `dce` removes them.
//!
//! The emulator runs the kernel lowered *without* these transformations, so comparing it with
//! the simulator checks them.

use super::*;
use kiln_hir::walk::{for_each_expr, reads_in_expr, writes_in_block};
use kiln_hir::{BinaryOp, ExprKind as K, Loop, LoopKind, LoopPragmas, Stmt};

/// A loop nested in another loop with at most this many iterations is unrolled fully without a
/// pragma, so that the enclosing loop becomes innermost and can be pipelined.
pub const AUTO_UNROLL_MAX_TRIP: u64 = 16;
/// The most copies of a loop body full unrolling makes.
pub const MAX_UNROLL_COPIES: u64 = 1024;
/// The most iterations [`Lowerer::probe_trip_count`] simulates to count a loop's trips.
const MAX_PROBED_TRIP: u64 = 1 << 16;
/// The largest factor a loop is unrolled by without a pragma so that banks serve its accesses.
const AUTO_BANK_UNROLL_MAX: u32 = 4;
/// Why a loop unrolled by a pragma was.
const PRAGMA_UNROLL: &str = "`#pragma unroll` or `opencl_unroll_hint`";
/// The most expression nodes automatic unrolling may create (body size × copies).
pub(super) const AUTO_UNROLL_BUDGET: usize = 4096;

/// What to do with one loop.
enum Plan {
    Rolled {
        notes: Vec<String>,
    },
    Full {
        copies: u64,
        why: String,
    },
    /// Unrolled by `factor`; `why` says why for the report.
    Partial {
        factor: u32,
        trip: Option<u64>,
        why: String,
    },
}

/// A counted loop `for (...; iv CMP bound; iv += step)` whose bound the body does not change.
struct Counted {
    /// Which operand of the test is the induction variable.
    iv_on_left: bool,
    cmp: BinaryOp,
    step: i64,
}

impl<'p> Lowerer<'p> {
    pub(super) fn loop_stmt(&mut self, l: &Loop) {
        let span = l.span;
        self.scopes.push(Vec::new());
        for s in &l.init {
            self.stmt(s);
        }
        let exit = self.new_join(span);
        if let Some(c) = self.coalesce_plan(l) {
            self.coalesced_loop(l, c, exit);
            self.enter_join(exit);
            self.close_scope();
            return;
        }
        match self.plan(l) {
            Plan::Rolled { notes } => self.rolled_loop(l, l.cond.as_ref(), 1, exit, exit, l.pragmas.clone(), notes),
            Plan::Full { copies, why } => {
                let at = self.k.loops.len();
                self.full_unroll(l, copies, exit);
                self.note_unrolled(l, copies, why, at);
            }
            Plan::Partial { factor, trip, why } => self.partial_unroll(l, factor, trip, why, exit),
        }
        self.enter_join(exit);
        self.close_scope();
    }

    /// Records a fully unrolled loop for the report, and tells the enclosing loop.
    fn note_unrolled(&mut self, l: &Loop, copies: u64, why: String, _first_inner: usize) {
        self.k.unrolled.push(UnrolledLoop {
            span: l.span,
            copies,
            why: why.clone(),
            transformations: l.transformations.clone(),
        });
        if let Some(&outer) = self.loop_info_stack.last() {
            let note = format!("contains a loop fully unrolled into {copies} copies ({why})");
            if !self.k.loops[outer].transformations.contains(&note) {
                self.k.loops[outer].transformations.push(note);
            }
        }
    }

    fn inside_loop(&self) -> bool {
        self.loops.iter().any(|c| c.continue_to != usize::MAX)
    }

    fn plan(&mut self, l: &Loop) -> Plan {
        if !self.transform_loops {
            return Plan::Rolled { notes: vec![] };
        }
        let p = &l.pragmas;
        match p.unroll {
            Some(1) => Plan::Rolled { notes: vec!["not unrolled (unroll factor 1)".into()] },
            Some(0) => match self.probe_trip_count(l, MAX_UNROLL_COPIES) {
                Some(n) => Plan::Full { copies: n, why: "`#pragma unroll`".into() },
                None => Plan::Rolled {
                    notes: vec![format!(
                        "`#pragma unroll` not applied: the trip count is not a compile-time constant of at most {MAX_UNROLL_COPIES}"
                    )],
                },
            },
            Some(u) => match self.probe_trip_count(l, MAX_UNROLL_COPIES) {
                Some(n) if n <= u as u64 => {
                    Plan::Full { copies: n, why: format!("`#pragma unroll {u}` covers all {n} iterations") }
                }
                Some(n) => Plan::Partial { factor: u, trip: Some(n), why: PRAGMA_UNROLL.into() },
                None if self.counted(l).is_some() => Plan::Partial { factor: u, trip: None, why: PRAGMA_UNROLL.into() },
                None => Plan::Rolled {
                    notes: vec![format!(
                        "`#pragma unroll {u}` not applied: the loop is not a counted loop `for (...; i < n; i += c)` with a bound the body leaves unchanged"
                    )],
                },
            },
            None => {
                let eligible = self.inside_loop()
                    && p.ivdep.is_none()
                    && p.ii.is_none()
                    && !p.disable_pipelining
                    && !contains_loop(&l.body);
                if eligible
                    && let Some(n) = self.probe_trip_count(l, AUTO_UNROLL_MAX_TRIP)
                    && (n as usize).saturating_mul(block_size(&l.body)) <= AUTO_UNROLL_BUDGET
                {
                    return Plan::Full { copies: n, why: format!("automatic: {n} iterations, nested in a loop") };
                }
                self.unroll_for_banks(l).unwrap_or(Plan::Rolled { notes: vec![] })
            }
        }
    }

    /// A loop that stays a loop, with `copies` copies of the body per iteration. `cond` is the
    /// test (`None`: always true); when it fails control goes to `normal_exit`; `break` goes to
    /// `break_to`.
    #[allow(clippy::too_many_arguments)]
    fn rolled_loop(
        &mut self,
        l: &Loop,
        cond: Option<&hir::Expr>,
        copies: u32,
        break_to: usize,
        normal_exit: usize,
        pragmas: LoopPragmas,
        notes: Vec<String>,
    ) {
        let span = l.span;
        let notes: Vec<String> = l.transformations.iter().cloned().chain(notes).collect();
        let header = self.new_join(span);
        self.joins[header].loop_header = true;
        self.jump_to_join(header, span);
        self.enter_join(header);
        let header_block = self.joins[header].block;
        self.k.loops.push(LoopInfo {
            header: header_block,
            span,
            pragmas,
            transformations: notes,
            known_trip_count: None,
        });
        self.loop_info_stack.push(self.k.loops.len() - 1);
        match l.kind {
            LoopKind::While | LoopKind::For => {
                if let Some(c) = cond {
                    let test = self.cond(c);
                    self.enter_body_or_exit(test, normal_exit, span);
                }
                for _ in 0..copies {
                    self.body_copy(l, break_to);
                }
                self.jump_to_join(header, span);
            }
            LoopKind::DoWhile => {
                self.body_copy(l, break_to);
                let test = match cond {
                    Some(c) => self.cond(c),
                    None => self.konst(1, 1, span),
                };
                let h_args = self.join_args(header, span);
                let e_args = self.join_args(normal_exit, span);
                let (hb, eb) = (self.joins[header].block, self.joins[normal_exit].block);
                self.terminate(
                    Terminator::Branch {
                        cond: test,
                        then_to: Target { block: hb, args: h_args },
                        else_to: Target { block: eb, args: e_args },
                    },
                    span,
                );
            }
        }
        self.loop_info_stack.pop();
        // A pointer variable that refers to different memories in different iterations.
        let conflicts: Vec<(VarKey, Vec<Rc<str>>)> =
            self.joins[header].conflicts.iter().map(|(k, v)| (*k, v.clone())).collect();
        for (var, mems) in conflicts {
            let name = self.var_names.get(&var).cloned().unwrap_or_else(|| "pointer".into());
            self.error(
                Diagnostic::error(
                    codes::AMBIGUOUS_POINTER,
                    format!(
                        "pointer `{name}` refers to different memories (`{}`) in different iterations of this loop",
                        mems.join("`, `")
                    ),
                )
                .at(span)
                .with_note("kiln must know at compile time which memory every pointer refers to")
                .with_help("index one memory instead of switching pointers (e.g. `buf[phase * N + i]`)"),
            );
        }
    }

    /// One copy of the body followed by the step; `continue` lands before the step.
    fn body_copy(&mut self, l: &Loop, break_to: usize) {
        let span = l.span;
        let cont = self.new_join(span);
        self.loops.push(LoopCtx { break_to, continue_to: cont });
        self.block(&l.body);
        self.loops.pop();
        self.jump_to_join(cont, span);
        self.enter_join(cont);
        if l.kind != LoopKind::DoWhile
            && let Some(s) = &l.step
        {
            self.rvalue(s);
        }
    }

    /// `copies` iterations in a row, no loop left. The tests are lowered for their side effects
    /// (their values are known).
    fn full_unroll(&mut self, l: &Loop, copies: u64, exit: usize) {
        for i in 0..copies {
            if !(l.kind == LoopKind::DoWhile && i == 0)
                && let Some(c) = &l.cond
            {
                self.cond(c);
            }
            self.body_copy(l, exit);
        }
        if let Some(c) = &l.cond
            && !(l.kind == LoopKind::DoWhile && copies == 0)
        {
            self.cond(c);
        }
        self.jump_to_join(exit, l.span);
    }

    /// An innermost counted loop whose iterations each access one on-chip array several times
    /// at `a[..][iv + c]`, unrolled by the next power of two of that count (at most
    /// [`AUTO_BANK_UNROLL_MAX`]), so that the `partition` pass can give each copy's accesses
    /// their own cyclic bank: the copies read `iv + c`, `iv + 1 + c`, ... — different banks when
    /// the rows' length is a multiple of the factor and the counter's start is known (the trip
    /// count is a compile-time constant). Without banks the loop's II is the count of accesses
    /// on one port per element; with them, per `factor` elements.
    fn unroll_for_banks(&mut self, l: &Loop) -> Option<Plan> {
        let p = &l.pragmas;
        if p.ivdep.is_some() || p.ii.is_some() || p.disable_pipelining || contains_loop(&l.body) {
            return None;
        }
        let (iv, step) = step_of(l.step.as_ref()?)?;
        if step.abs() != 1 || self.counted(l).is_none() {
            return None;
        }
        let (array, accesses, row) = self.busiest_array(&l.body, iv)?;
        let factor = accesses.next_power_of_two().min(AUTO_BANK_UNROLL_MAX);
        if accesses < 2 || row % factor != 0 || block_size(&l.body).saturating_mul(factor as usize) > AUTO_UNROLL_BUDGET
        {
            return None;
        }
        let n = self.probe_trip_count(l, MAX_PROBED_TRIP)?;
        if n < 2 * u64::from(factor) {
            return None;
        }
        let why = format!(
            "automatic: {accesses} accesses of `{array}` per iteration would share one memory port; the copies' accesses fall in different banks"
        );
        Some(Plan::Partial { factor, trip: Some(n), why })
    }

    /// The private or `__local` array variable a loop body accesses most often, when every access
    /// of it indexes its last dimension with the counter `iv` plus a constant: its name, reads
    /// or writes (the larger), and its rows' length (its length if it has one dimension). `None`
    /// when the body accesses other memory or reads an array it writes.
    fn busiest_array(&self, body: &hir::Block, iv: LocalId) -> Option<(String, u32, u32)> {
        let f = self.func();
        let mut count: BTreeMap<LocalId, (i64, i64, bool)> = BTreeMap::new();
        let mut other_memory = false;
        for_each_expr(body, &mut |e| {
            // (place, a write that is not also a read)
            let (lhs, is_write) = match &e.kind {
                K::Assign(lhs, _) => (&**lhs, true),
                K::CompoundAssign { lhs, .. } | K::IncDec { target: lhs, .. } => {
                    // A read and a write: the place's `Deref` counts the read.
                    if let Some((base, _)) = element_of(lhs) {
                        count.entry(base).or_insert((0, 0, true)).1 += 1;
                    }
                    return;
                }
                K::Deref(_) if !matches!(e.ty, Type::Array(..)) => (e, false),
                K::Atomic { .. } | K::VLoad(..) | K::VStore { .. } | K::Call(..) => {
                    other_memory = true;
                    return;
                }
                _ => return,
            };
            let Some((base, last)) = element_of(lhs) else {
                other_memory |= matches!(lhs.kind, K::Deref(_));
                return;
            };
            let slot = count.entry(base).or_insert((0, 0, true));
            if is_write {
                // The assignment's place is visited next as a `Deref`: count it once, as a write.
                slot.1 += 1;
                slot.0 -= 1;
            } else {
                slot.0 += 1;
            }
            slot.2 &= offset_from(last, iv).is_some();
        });
        // Memory the copies would share a port of (a buffer), and an array both read and written
        // (whose banked accesses the scheduler may not tell apart across iterations), leave
        // nothing to gain.
        if other_memory || count.values().any(|(reads, writes, _)| *reads > 0 && *writes > 0) {
            return None;
        }
        count
            .into_iter()
            .filter(|(_, (_, _, by_counter))| *by_counter)
            .filter_map(|(id, (reads, writes, _))| {
                let local = f.local(id);
                let on_chip = matches!(local.space, AddrSpace::Private | AddrSpace::Local) && !local.quals.is_volatile;
                let row = local.ty.innermost_extent()?;
                on_chip.then(|| (local.name.to_string(), u32::try_from(reads.max(writes)).unwrap_or(0), row))
            })
            .max_by_key(|(_, n, _)| *n)
    }

    fn partial_unroll(&mut self, l: &Loop, factor: u32, trip: Option<u64>, why: String, exit: usize) {
        let mut pragmas = l.pragmas.clone();
        pragmas.unroll = None;
        match trip {
            Some(n) => {
                // Peel `n mod factor` iterations so that the loop runs a whole number of groups.
                let peel = n % factor as u64;
                for _ in 0..peel {
                    if let Some(c) = &l.cond {
                        self.cond(c);
                    }
                    self.body_copy(l, exit);
                }
                let note = format!(
                    "unrolled by {factor} ({why}): {} iteration(s) of {factor} copies{}",
                    n / factor as u64,
                    if peel > 0 { format!(", {peel} iteration(s) peeled before the loop") } else { String::new() }
                );
                self.rolled_loop(l, l.cond.as_ref(), factor, exit, exit, pragmas, vec![note]);
            }
            None => {
                let Some(guard) = self.unrolled_guard(l, factor) else {
                    self.rolled_loop(l, l.cond.as_ref(), 1, exit, exit, l.pragmas.clone(), vec![]);
                    return;
                };
                let rest = self.new_join(l.span);
                let note = format!("unrolled by {factor} ({why}); a remainder loop runs the last iterations");
                self.rolled_loop(l, Some(&guard), factor, exit, rest, pragmas.clone(), vec![note]);
                self.enter_join(rest);
                let note = format!("remainder of the loop unrolled by {factor}: at most {} iteration(s)", factor - 1);
                self.rolled_loop(l, l.cond.as_ref(), 1, exit, exit, pragmas, vec![note]);
            }
        }
    }

    /// The test of a loop unrolled by `factor` with an unknown trip count: the original test
    /// holds for all `factor` next iterations, i.e. for the induction variable advanced by
    /// `(factor-1)·step`, computed in 64 bits so that it cannot wrap.
    fn unrolled_guard(&self, l: &Loop, factor: u32) -> Option<hir::Expr> {
        let counted = self.counted(l)?;
        let K::Binary(cmp, a, b) = &l.cond.as_ref()?.kind else { return None };
        let long = Type::Scalar(Scalar::I64);
        let widen = |e: &hir::Expr| hir::Expr { kind: K::Convert(Box::new(e.clone())), ty: long.clone(), span: e.span };
        let (iv, bound) = if counted.iv_on_left { (a, b) } else { (b, a) };
        let offset = hir::Expr::int(((factor as i64 - 1) * counted.step) as u64, long.clone(), iv.span);
        let advanced = hir::Expr {
            kind: K::Binary(BinaryOp::Add, Box::new(widen(iv)), Box::new(offset)),
            ty: long.clone(),
            span: iv.span,
        };
        let (x, y) = if counted.iv_on_left { (advanced, widen(bound)) } else { (widen(bound), advanced) };
        let _ = counted.cmp;
        Some(hir::Expr {
            kind: K::Binary(*cmp, Box::new(x), Box::new(y)),
            ty: l.cond.as_ref()?.ty.clone(),
            span: l.span,
        })
    }

    /// Recognizes `for (...; iv CMP bound; iv += c)` with an integer induction variable of at
    /// most 32 bits, a test that moves towards failing as `iv` advances, and a bound and step
    /// the body does not change.
    fn counted(&self, l: &Loop) -> Option<Counted> {
        if l.kind == LoopKind::DoWhile {
            return None;
        }
        let (iv, step) = step_of(l.step.as_ref()?)?;
        let K::Binary(cmp, a, b) = &l.cond.as_ref()?.kind else { return None };
        let is_iv = |e: &hir::Expr| matches!(e.kind, K::Local(x) if x == iv);
        let iv_on_left = if is_iv(a) {
            true
        } else if is_iv(b) {
            false
        } else {
            return None;
        };
        let ty = a.ty.scalar()?;
        if ty.bits() > 32 || self.func().local(iv).ty.scalar() != Some(ty) || self.frame().address_taken.contains(&iv) {
            return None;
        }
        // The test must fail eventually as the induction variable moves by `step`.
        let rising = step > 0;
        let ok = match (cmp, iv_on_left) {
            (BinaryOp::Lt | BinaryOp::Le, true) | (BinaryOp::Gt | BinaryOp::Ge, false) => rising,
            (BinaryOp::Gt | BinaryOp::Ge, true) | (BinaryOp::Lt | BinaryOp::Le, false) => !rising,
            _ => false,
        };
        let bound = if iv_on_left { b } else { a };
        let written = writes_in_block(&l.body);
        let mut reads = HashSet::new();
        reads_in_expr(bound, &mut reads);
        if !ok || !simple_expr(bound) || written.contains(&iv) || reads.iter().any(|r| written.contains(r)) {
            return None;
        }
        Some(Counted { iv_on_left, cmp: *cmp, step })
    }

    /// The number of iterations of `l` (at most `cap`) if its test and step are decided at
    /// compile time from the current environment.
    pub(super) fn probe_trip_count(&mut self, l: &Loop, cap: u64) -> Option<u64> {
        let cond = l.cond.as_ref()?;
        if !simple_expr(cond) || l.step.as_ref().is_some_and(|s| !simple_expr(s)) {
            return None;
        }
        let mut reads = HashSet::new();
        reads_in_expr(cond, &mut reads);
        if let Some(s) = &l.step {
            reads_in_expr(s, &mut reads);
        }
        let written = writes_in_block(&l.body);
        let f = self.func();
        let ssa = |id: &LocalId| f.local(*id).ty.scalar().is_some() && !self.frame().address_taken.contains(id);
        if reads.iter().any(|r| written.contains(r) || !ssa(r)) {
            return None;
        }
        let saved = (self.env.clone(), self.cur, self.diags.len());
        let (blocks, ops) = (self.k.blocks.len(), self.k.blocks[self.cur].ops.len());
        // Each simulated iteration emits the test's and the step's operations; past this many
        // the loop is not worth simulating (a mutated `for (j = 1; 40; j++)` inside a nest made
        // the coalescing probe emit five million operations).
        let cap = cap.min(MAX_PROBED_TRIP);
        let mut n = 0u64;
        let result = loop {
            if !(l.kind == LoopKind::DoWhile && n == 0) {
                let test = self.cond(cond);
                match self.const_value(test) {
                    Some(0) => break Some(n),
                    Some(_) => {}
                    None => break None,
                }
            }
            if n == cap {
                break None;
            }
            n += 1;
            if let Some(s) = &l.step {
                self.rvalue(s);
            }
        };
        self.env = saved.0;
        self.cur = saved.1;
        self.diags.truncate(saved.2);
        // The simulation's operations are dead; without them in the block no pass meets them.
        if self.k.blocks.len() == blocks {
            self.k.blocks[self.cur].ops.truncate(ops);
        }
        result
    }

    /// The value of `v` if it is computed from constants only.
    pub(super) fn const_value(&mut self, v: Value) -> Option<u64> {
        if let Some(r) = self.const_memo.get(&v) {
            return *r;
        }
        let r = match self.k.values[v].def {
            ValueDef::Param(..) => None,
            ValueDef::Op(op) => {
                let o = self.k.ops[op].clone();
                match o.kind {
                    OpKind::Const(c) => Some(c),
                    OpKind::Load(_) | OpKind::Store(_) => None,
                    _ if o.kind.pipe().is_some() => None,
                    _ => {
                        let mut vals = Vec::with_capacity(o.args.len());
                        for a in &o.args {
                            match self.const_value(*a) {
                                Some(x) => vals.push(x),
                                None => break,
                            }
                        }
                        (vals.len() == o.args.len()).then(|| {
                            let widths: Vec<u32> = o.args.iter().map(|a| self.k.width(*a)).collect();
                            op::eval(&o.kind, &vals, &widths, self.k.width(v))
                        })
                    }
                }
            }
        };
        self.const_memo.insert(v, r);
        r
    }
}

/// The induction variable and constant step of `i++`, `i--`, `i += c`, `i -= c`, `i = i + c`.
fn step_of(step: &hir::Expr) -> Option<(LocalId, i64)> {
    let local = |e: &hir::Expr| match strip_convert(e).kind {
        K::Local(x) => Some(x),
        _ => None,
    };
    let konst = |e: &hir::Expr| strip_convert(e).as_int().map(|v| v as i64);
    match &step.kind {
        K::IncDec { target, increment, .. } => Some((local(target)?, if *increment { 1 } else { -1 })),
        K::CompoundAssign { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs, .. } => {
            let c = konst(rhs)?;
            Some((local(lhs)?, if *op == BinaryOp::Add { c } else { -c }))
        }
        K::Assign(lhs, rhs) => {
            let x = local(lhs)?;
            match &strip_convert(rhs).kind {
                K::Binary(BinaryOp::Add, a, b) if local(a) == Some(x) => Some((x, konst(b)?)),
                K::Binary(BinaryOp::Add, a, b) if local(b) == Some(x) => Some((x, konst(a)?)),
                K::Binary(BinaryOp::Sub, a, b) if local(a) == Some(x) => Some((x, -konst(b)?)),
                _ => None,
            }
        }
        _ => None,
    }
    .filter(|(_, s)| *s != 0)
}

fn strip_convert(e: &hir::Expr) -> &hir::Expr {
    match &e.kind {
        K::Convert(a) => strip_convert(a),
        _ => e,
    }
}

/// Arithmetic on scalar variables and constants, and assignments to scalar variables: lowered
/// without control flow, memory or calls.
fn simple_expr(e: &hir::Expr) -> bool {
    let scalar_local = |x: &hir::Expr| matches!(x.kind, K::Local(_)) && x.ty.scalar().is_some();
    e.ty.scalar().is_some()
        && match &e.kind {
            K::Int(_) => true,
            K::Local(_) => true,
            K::Convert(a) | K::Unary(_, a) => simple_expr(a),
            K::Binary(_, a, b) => simple_expr(a) && simple_expr(b),
            K::Assign(l, r) => scalar_local(l) && simple_expr(r),
            K::CompoundAssign { lhs, rhs, .. } => scalar_local(lhs) && simple_expr(rhs),
            K::IncDec { target, .. } => scalar_local(target),
            K::Comma(items) => items.iter().all(simple_expr),
            _ => false,
        }
}

/// The array variable an element access `*(... + i)` reads or writes, and its last index.
fn element_of(e: &hir::Expr) -> Option<(LocalId, &hir::Expr)> {
    let K::Deref(addr) = &e.kind else { return None };
    if matches!(e.ty, Type::Array(..)) {
        return None;
    }
    let K::PtrAdd(root, last) = &addr.kind else { return None };
    let mut root = root;
    loop {
        let K::Decay(array) = &root.kind else { return None };
        match &array.kind {
            K::Local(b) => return Some((*b, last)),
            K::Deref(inner) => {
                let K::PtrAdd(r, _) = &inner.kind else { return None };
                root = r;
            }
            _ => return None,
        }
    }
}

/// `c` when `e` is `iv + c` or `iv - c` (conversions aside).
fn offset_from(e: &hir::Expr, iv: LocalId) -> Option<i64> {
    let e = strip_convert(e);
    match &e.kind {
        K::Local(x) if *x == iv => Some(0),
        K::Binary(BinaryOp::Add, a, b) => match (&strip_convert(a).kind, strip_convert(b).as_int()) {
            (K::Local(x), Some(c)) if *x == iv => Some(c as i64),
            _ => match (strip_convert(a).as_int(), &strip_convert(b).kind) {
                (Some(c), K::Local(x)) if *x == iv => Some(c as i64),
                _ => None,
            },
        },
        K::Binary(BinaryOp::Sub, a, b) => match (&strip_convert(a).kind, strip_convert(b).as_int()) {
            (K::Local(x), Some(c)) if *x == iv => Some((c as i64).wrapping_neg()),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn contains_loop(b: &[Stmt]) -> bool {
    b.iter().any(|s| match s {
        Stmt::Loop(_) => true,
        Stmt::If(_, t, e, _) => contains_loop(t) || contains_loop(e),
        Stmt::Switch(_, arms, _) => arms.iter().any(|a| contains_loop(&a.body)),
        Stmt::Block(b) => contains_loop(b),
        _ => false,
    })
}

/// Expression nodes in a block: the cost of one copy.
pub(super) fn block_size(b: &hir::Block) -> usize {
    let mut n = 0;
    for_each_expr(b, &mut |_| n += 1);
    n + b.len()
}
