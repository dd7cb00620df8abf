//! `collectives`: the work-group collective functions become `__local` memory, barriers and a
//! loop run by one work-item, before the NDRange lowering splits the kernel at its barriers;
//! an async work-group copy becomes a loop of the first work-item (the barrier of
//! `wait_group_events` makes its data visible to the others).
//!
//! For each call site, in the statement that holds it (an expression statement, a declaration,
//! the condition of an `if` or the value of a `switch`):
//!
//! ```text
//! in[lin] = value;                       // every work-item, lin = its local linear id
//! barrier(CLK_LOCAL_MEM_FENCE);
//! if (lin == 0) {                        // one work-item combines the group's values
//!     acc = identity;
//!     for (k = 0; k < WG; k++) { out[k] = exclusive ? acc : op(acc, in[k]); acc = op(acc, in[k]); }
//!     total = acc;                       // or, for a broadcast, total = in[the id's linear id]
//! }
//! barrier(CLK_LOCAL_MEM_FENCE);
//! ... the statement, the call replaced by `total` (reduce, all, any, broadcast) or `out[lin]`
//! ```
//!
//! `in`, `out` and `total` are `__local` to the call site, so the statement's reads of the
//! result (after the second barrier) and the next round's writes of `in` (before the next
//! first barrier) never meet. The work is `WG` steps of one work-item per call, in scan order
//! (the local linear id), as the specification defines it; `all` is a `min` and `any` a `max`
//! of `value != 0`. The work-group size must be static (`E0601`-style `NEEDS_GROUP_SIZE` as
//! for barriers). The call must not sit in a loop's condition or step.

use crate::build::{assign_stmt as assign, binary, local, size_t};
use crate::builtins::{FloatBuiltin, IntBuiltin};
use crate::types::AddrSpace;
use crate::types::{INT, SIZE_T, Scalar, Type};
use crate::{
    BinaryOp, Block, Collective, CollectiveOp, Expr, ExprKind as K, FuncId, Function, Init, Local, LocalId, Loop,
    LoopKind, LoopPragmas, Program, Stmt, WorkItemFn,
};
use kiln_diagnostics::Span;
use kiln_diagnostics::{Diagnostic, codes};
use std::rc::Rc;

/// The `collectives` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "collectives",
    requires: &[crate::verify::Invariant::NoReservations],
    ensures: &[crate::verify::Invariant::NoCollectives],
    run: |prog, kernel, opts| lower_collectives(prog, kernel, opts.local_size),
};

/// `a[i]` of the `__local` array `a`.
fn element(array: Expr, i: Expr) -> Expr {
    crate::build::element(array, i, AddrSpace::Local)
}

/// The program with the collectives of kernel `kernel` rewritten; `local_size` is the
/// work-group size of the build when the kernel has no `reqd_work_group_size`.
fn lower_collectives(prog: &Program, kernel: FuncId, local_size: Option<[u32; 3]>) -> Result<Program, Vec<Diagnostic>> {
    let f = prog.func(kernel);
    let Some(body) = &f.body else { return Ok(prog.clone()) };
    let mut uses = Vec::new();
    crate::walk::for_each_expr(body, &mut |e| {
        if matches!(e.kind, K::WorkGroup(..) | K::AsyncCopy { .. }) {
            uses.push(e.span);
        }
    });
    let Some(first) = uses.first() else { return Ok(prog.clone()) };
    let Some(size) = f.attrs.reqd_work_group_size.or(local_size) else {
        return Err(vec![
            Diagnostic::error(
                codes::NEEDS_GROUP_SIZE,
                format!("kernel `{}` needs a static work-group size: it calls a work-group function or copy", f.name),
            )
            .at(*first)
            .with_note("kiln builds the work-group loops and memories for one work-group size")
            .with_help("add `__attribute__((reqd_work_group_size(X, Y, Z)))`, or pass `--local-size X[,Y,Z]` (or `local_size` in the run spec)"),
        ]);
    };
    let mut out = prog.clone();
    let k = &mut out.functions[kernel.0 as usize];
    let body = k.body.take().unwrap_or_default();
    let mut rw = Rewriter { f: k, size, memories: Vec::new(), diags: Vec::new() };
    let body = rw.block(body);
    let mut full = std::mem::take(&mut rw.memories);
    full.extend(body);
    let diags = rw.diags;
    k.body = Some(full);
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

struct Rewriter<'f> {
    f: &'f mut Function,
    size: [u32; 3],
    /// Declarations of the `__local` memories, for the top of the kernel.
    memories: Vec<Stmt>,
    diags: Vec<Diagnostic>,
}

/// The value that leaves `op` unchanged, in scalar type `s`.
fn identity(op: CollectiveOp, s: Scalar, span: Span) -> Expr {
    let ty = Type::Scalar(s);
    match (op, s) {
        (CollectiveOp::Add, Scalar::F32) => Expr { kind: K::Float(0.0), ty, span },
        (CollectiveOp::Min, Scalar::F32) => Expr { kind: K::Float(f64::INFINITY), ty, span },
        (CollectiveOp::Max, Scalar::F32) => Expr { kind: K::Float(f64::NEG_INFINITY), ty, span },
        (CollectiveOp::Add, _) => Expr::int(0, ty, span),
        (CollectiveOp::Min, _) => {
            let (_, hi) = s.int_range();
            Expr::int(hi as u64, ty, span)
        }
        (CollectiveOp::Max, _) => {
            let (lo, _) = s.int_range();
            Expr::int(lo as u64, ty, span)
        }
    }
}

/// `op(a, b)` in scalar type `s`.
fn combine(op: CollectiveOp, a: Expr, b: Expr, s: Scalar) -> Expr {
    let (ty, span) = (Type::Scalar(s), a.span);
    let kind = match (op, s.is_float()) {
        (CollectiveOp::Add, _) => K::Binary(BinaryOp::Add, Box::new(a), Box::new(b)),
        (CollectiveOp::Min, false) => K::IntBuiltin(IntBuiltin::Min, vec![a, b]),
        (CollectiveOp::Max, false) => K::IntBuiltin(IntBuiltin::Max, vec![a, b]),
        (CollectiveOp::Min, true) => K::FloatBuiltin(FloatBuiltin::Min, vec![a, b]),
        (CollectiveOp::Max, true) => K::FloatBuiltin(FloatBuiltin::Max, vec![a, b]),
    };
    Expr { kind, ty, span }
}

impl Rewriter<'_> {
    fn group_size(&self) -> u32 {
        self.size.iter().product()
    }

    fn new_local(&mut self, name: String, ty: Type, space: AddrSpace, span: Span) -> LocalId {
        self.f.locals.push(Local {
            name: name.into(),
            ty,
            space,
            quals: Default::default(),
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        });
        LocalId(self.f.locals.len() as u32 - 1)
    }

    /// The local linear id: `lid0 + L0 * (lid1 + L1 * lid2)`.
    fn linear_id(&self, span: Span) -> Expr {
        let lid = |d: u32| Expr { kind: K::WorkItem(WorkItemFn::LocalId, d), ty: SIZE_T, span };
        self.linear(&[lid(0), lid(1), lid(2)], span)
    }

    /// The linear id of the local id `ids` (missing dimensions are 0).
    fn linear(&self, ids: &[Expr], span: Span) -> Expr {
        let mut acc: Option<Expr> = None;
        for d in (0..3).rev() {
            let Some(id) = ids.get(d).cloned() else { continue };
            if self.size[d] == 1 && d > 0 {
                continue;
            }
            acc = Some(match acc {
                None => id,
                Some(outer) => binary(
                    BinaryOp::Add,
                    id,
                    binary(BinaryOp::Mul, outer, size_t(u64::from(self.size[d]), span), SIZE_T),
                    SIZE_T,
                ),
            });
        }
        acc.unwrap_or_else(|| size_t(0, span))
    }

    fn block(&mut self, b: Block) -> Block {
        b.into_iter().flat_map(|s| self.stmt(s)).collect()
    }

    /// A statement, preceded by the steps of the collectives it calls.
    fn stmt(&mut self, s: Stmt) -> Vec<Stmt> {
        let mut before = Vec::new();
        let s = match s {
            Stmt::Expr(e) => Stmt::Expr(self.expr(e, &mut before)),
            Stmt::Decl(id, Some(Init::Expr(e)), span) => {
                Stmt::Decl(id, Some(Init::Expr(self.expr(e, &mut before))), span)
            }
            Stmt::If(c, t, e, span) => {
                let c = self.expr(c, &mut before);
                Stmt::If(c, self.block(t), self.block(e), span)
            }
            Stmt::Switch(v, arms, span) => {
                let v = self.expr(v, &mut before);
                let arms = arms
                    .into_iter()
                    .map(|mut a| {
                        a.body = self.block(std::mem::take(&mut a.body));
                        a
                    })
                    .collect();
                Stmt::Switch(v, arms, span)
            }
            Stmt::Loop(mut l) => {
                for e in l.cond.iter().chain(l.step.iter()) {
                    let mut found = None;
                    crate::walk::for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| {
                        if matches!(x.kind, K::WorkGroup(..)) && found.is_none() {
                            found = Some(x.span);
                        }
                    });
                    if let Some(at) = found {
                        self.diags.push(
                            Diagnostic::error(
                                codes::UNSUPPORTED_BUILTIN,
                                "a work-group function in a loop's condition or step is not yet supported by kiln",
                            )
                            .at(at)
                            .with_help("compute it in the loop body into a variable, and test the variable"),
                        );
                    }
                }
                l.init = self.block(std::mem::take(&mut l.init));
                l.body = self.block(std::mem::take(&mut l.body));
                Stmt::Loop(l)
            }
            Stmt::Block(b) => Stmt::Block(self.block(b)),
            other => other,
        };
        before.push(s);
        before
    }

    /// `e` with each collective replaced by its result; the steps computing them go to
    /// `before`, innermost calls first.
    fn expr(&mut self, mut e: Expr, before: &mut Vec<Stmt>) -> Expr {
        for c in e.children_mut() {
            let taken = std::mem::replace(c, Expr::int(0, INT, c.span));
            *c = self.expr(taken, before);
        }
        match e.kind {
            K::WorkGroup(which, args) => self.collective(which, args, e.ty, e.span, before),
            K::AsyncCopy { dst, src, count, stride } => {
                self.async_copy(*dst, *src, *count, stride.map(|s| *s), e.span, before);
                // The event: kiln waits with a barrier, whatever the event.
                Expr::int(0, e.ty, e.span)
            }
            _ => e,
        }
    }

    /// `async_work_group_copy`: the first work-item copies the elements in a loop (the stride
    /// on the `__global` side); `wait_group_events` is the barrier that makes them visible.
    fn async_copy(
        &mut self,
        dst: Expr,
        src: Expr,
        count: Expr,
        stride: Option<Expr>,
        span: Span,
        before: &mut Vec<Stmt>,
    ) {
        let n = self.memories.len() + self.f.locals.len();
        let k = self.new_local(format!("async_copy.k{n}"), SIZE_T, AddrSpace::Private, span);
        let k_e = local(k, SIZE_T, span);
        let at = |p: &Expr, strided: bool| {
            let idx = match (&stride, strided) {
                (Some(s), true) => binary(BinaryOp::Mul, k_e.clone(), s.clone(), SIZE_T),
                _ => k_e.clone(),
            };
            let elem = p.ty.pointee().map(|x| x.ty.clone()).unwrap_or(Type::Error);
            let moved = Expr { kind: K::PtrAdd(Box::new(p.clone()), Box::new(idx)), ty: p.ty.clone(), span };
            Expr { kind: K::Deref(Box::new(moved)), ty: elem, span }
        };
        let global_dst = dst.ty.pointee().is_some_and(|p| p.space == AddrSpace::Global);
        let copy = assign(at(&dst, global_dst), at(&src, !global_dst));
        let step =
            Expr { kind: K::IncDec { target: Box::new(k_e.clone()), increment: true, prefix: true }, ty: SIZE_T, span };
        let each = Stmt::Loop(Box::new(Loop {
            kind: LoopKind::For,
            init: vec![Stmt::Decl(k, Some(Init::Expr(size_t(0, span))), span)],
            cond: Some(binary(BinaryOp::Lt, k_e.clone(), count, INT)),
            step: Some(step),
            body: vec![copy],
            // A copy is a stream through the memory ports, one element a cycle: unrolling it
            // would only multiply the ports' traffic per iteration.
            pragmas: LoopPragmas { unroll: Some(1), ..LoopPragmas::default() },
            transformations: Vec::new(),
            span,
        }));
        let first = binary(BinaryOp::Eq, self.linear_id(span), size_t(0, span), INT);
        before.push(Stmt::If(first, vec![each], vec![], span));
    }

    fn collective(&mut self, which: Collective, args: Vec<Expr>, ty: Type, span: Span, before: &mut Vec<Stmt>) -> Expr {
        let Some(s) = ty.scalar() else { return Expr::int(0, INT, span) };
        let mut args = args.into_iter();
        let Some(value) = args.next() else { return Expr::int(0, INT, span) };
        let ids: Vec<Expr> = args.collect();
        let wg = self.group_size();
        let n = self.memories.len();
        let array = Type::Array(Rc::new(ty.clone()), Some(wg));
        let input = self.new_local(format!("work_group.in{n}"), array.clone(), AddrSpace::Local, span);
        self.memories.push(Stmt::Decl(input, None, span));
        let scan = matches!(which, Collective::ScanInclusive(_) | Collective::ScanExclusive(_));
        // A scan's results are `out`; the others' the one value `total`.
        let total = self.new_local(format!("work_group.total{n}"), ty.clone(), AddrSpace::Local, span);
        if !scan {
            self.memories.push(Stmt::Decl(total, None, span));
        }
        let output = scan.then(|| {
            let id = self.new_local(format!("work_group.out{n}"), array.clone(), AddrSpace::Local, span);
            self.memories.push(Stmt::Decl(id, None, span));
            id
        });
        let lin = self.linear_id(span);
        // `all`/`any` combine `value != 0`.
        let value = match which {
            Collective::All | Collective::Any => binary(BinaryOp::Ne, value, Expr::int(0, ty.clone(), span), INT),
            _ => value,
        };
        before.push(assign(element(local(input, array.clone(), span), lin.clone()), value));
        let barrier = Stmt::Expr(Expr { kind: K::Barrier, ty: Type::Void, span });
        before.push(barrier.clone());
        let mut one = Vec::new();
        let total_place = local(total, ty.clone(), span);
        match which {
            Collective::Broadcast => {
                let at = self.linear(&ids, span);
                one.push(assign(total_place.clone(), element(local(input, array.clone(), span), at)));
            }
            _ => {
                let op = match which {
                    Collective::All => CollectiveOp::Min,
                    Collective::Any => CollectiveOp::Max,
                    Collective::Reduce(o) | Collective::ScanInclusive(o) | Collective::ScanExclusive(o) => o,
                    Collective::Broadcast => CollectiveOp::Add,
                };
                let acc = self.new_local(format!("work_group.acc{n}"), ty.clone(), AddrSpace::Private, span);
                let k = self.new_local(format!("work_group.k{n}"), SIZE_T, AddrSpace::Private, span);
                let acc_e = local(acc, ty.clone(), span);
                let k_e = local(k, SIZE_T, span);
                one.push(Stmt::Decl(acc, Some(Init::Expr(identity(op, s, span))), span));
                let next = combine(op, acc_e.clone(), element(local(input, array.clone(), span), k_e.clone()), s);
                let mut body = Vec::new();
                if let Some(out) = output {
                    let slot = element(local(out, array.clone(), span), k_e.clone());
                    if matches!(which, Collective::ScanExclusive(_)) {
                        body.push(assign(slot, acc_e.clone()));
                        body.push(assign(acc_e.clone(), next));
                    } else {
                        body.push(assign(acc_e.clone(), next));
                        body.push(assign(slot, acc_e.clone()));
                    }
                } else {
                    body.push(assign(acc_e.clone(), next));
                }
                let step = Expr {
                    kind: K::IncDec { target: Box::new(k_e.clone()), increment: true, prefix: true },
                    ty: SIZE_T,
                    span,
                };
                one.push(Stmt::Loop(Box::new(Loop {
                    kind: LoopKind::For,
                    init: vec![Stmt::Decl(k, Some(Init::Expr(size_t(0, span))), span)],
                    cond: Some(binary(BinaryOp::Lt, k_e, size_t(u64::from(wg), span), INT)),
                    step: Some(step),
                    body,
                    pragmas: LoopPragmas::default(),
                    transformations: Vec::new(),
                    span,
                })));
                if !scan {
                    one.push(assign(total_place.clone(), acc_e));
                }
            }
        }
        let first = binary(BinaryOp::Eq, lin.clone(), size_t(0, span), INT);
        before.push(Stmt::If(first, one, vec![], span));
        before.push(barrier);
        match output {
            Some(out) => element(local(out, array, span), lin),
            None => total_place,
        }
    }
}
