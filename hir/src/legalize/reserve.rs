//! `reserve`: work-item pipe reservations become ordinary transfers, before any other rewrite.
//!
//! kiln's device allows one active reservation per pipe and work-item
//! (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS` is 1), of a constant number `N` of packets, the
//! same for every reservation of the pipe in a kernel. Each pipe parameter with reservations
//! gets, per work-item, a flag `active` and a buffer of `N` packets in registers:
//!
//! - `rid = reserve_read_pipe(p, N)` succeeds when no reservation is active and the FIFO holds
//!   at least `N` packets (`get_pipe_num_packets`); it then takes the `N` packets at once with
//!   blocking reads (which cannot wait: only this kernel reads the pipe) into the buffer;
//! - `rid = reserve_write_pipe(p, N)` succeeds when no reservation is active and the FIFO has
//!   room for `N` more (`get_pipe_max_packets - get_pipe_num_packets`);
//! - `read_pipe(p, rid, i, &v)` / `write_pipe(p, rid, i, &v)` read or write packet `i` of the
//!   buffer, giving 0, or -1 (and do nothing) when `rid` is not valid or `i ≥ N`;
//! - `commit_read_pipe(p, rid)` ends the reservation; `commit_write_pipe(p, rid)` puts the `N`
//!   packets into the FIFO in order with blocking writes, which find the room reserved unless
//!   the kernel wrote other packets in between, and ends it;
//! - a `reserve_id_t` is a `bool`: valid or not (`CLK_NULL_RESERVE_ID` is `false`).
//!
//! Untimed (the emulator) and in hardware the packets of a reservation are contiguous and in
//! order, as OpenCL C requires. A reservation must be the whole initializer or right-hand side
//! of an assignment, and a commit a statement of its own (`E0506` otherwise).

use crate::build::{assign, binary, local, log_and, new_private_local};
use crate::types::AddrSpace;
use crate::types::{BOOL, INT, Opaque, Pointee, Type, UINT};
use crate::{BinaryOp, Block, Expr, ExprKind as K, FuncId, Function, Init, LocalId, PipeRef, Program, Stmt, UnaryOp};
use kiln_diagnostics::Span;
use kiln_diagnostics::{Diagnostic, codes};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The `reserve` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "reserve",
    requires: &[],
    ensures: &[crate::verify::Invariant::NoReservations],
    run: |prog, kernel, _| lower_reservations(prog, kernel),
};

/// The registers behind the reservations of one pipe parameter.
struct Reserved {
    /// Packets per reservation.
    count: u32,
    packet: Type,
    active: LocalId,
    buffer: LocalId,
}

/// The program with the reservations of kernel `kernel` rewritten (only kernels have pipe
/// parameters; the other kernels' are rewritten, and reported, when they are lowered), every
/// `reserve_id_t` a `bool` and every `event_t` a `uint`.
fn lower_reservations(prog: &Program, kernel: FuncId) -> Result<Program, Vec<Diagnostic>> {
    let mut out = prog.clone();
    let mut diags = Vec::new();
    for (fi, f) in out.functions.iter_mut().enumerate() {
        let Some(body) = f.body.take() else { continue };
        if fi != kernel.0 as usize {
            let mut body = body;
            retype_block(&mut body);
            f.body = Some(body);
            for l in &mut f.locals {
                l.ty = retyped(&l.ty);
            }
            continue;
        }
        let mut pipes = BTreeMap::new();
        find_reservations(f, &body, &mut pipes, &mut diags);
        let mut prologue = Vec::new();
        for (pipe, r) in &mut pipes {
            let span = f.local(*pipe).span;
            let name = f.local(*pipe).name.clone();
            r.active = new_private_local(f, format!("{name}.reserved"), BOOL, span, None);
            r.buffer = new_private_local(
                f,
                format!("{name}.reservation"),
                Type::Array(Rc::new(r.packet.clone()), Some(r.count)),
                span,
                None,
            );
            prologue.push(Stmt::Decl(r.active, Some(Init::Expr(Expr::int(0, BOOL, span))), span));
            prologue.push(Stmt::Decl(r.buffer, None, span));
        }
        let mut rw = Rewriter { pipes: &pipes, diags: &mut diags };
        prologue.extend(rw.block(body));
        retype_block(&mut prologue);
        f.body = Some(prologue);
        for l in &mut f.locals {
            l.ty = retyped(&l.ty);
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// The pipe parameters a function reserves on, with their packet count (the same for every
/// reservation of a pipe).
fn find_reservations(f: &Function, body: &Block, out: &mut BTreeMap<LocalId, Reserved>, diags: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(LocalId, u32, Span)> = Vec::new();
    crate::walk::for_each_expr(body, &mut |e| {
        if let K::PipeReserve { pipe: PipeRef::Param(p), count, .. } = &e.kind {
            seen.push((*p, *count, e.span));
        }
    });
    for (p, count, span) in seen {
        match out.get(&p) {
            Some(r) if r.count != count => diags.push(
                Diagnostic::error(
                    codes::UNSUPPORTED_PIPE,
                    format!(
                        "this reservation of pipe `{}` is of {count} packet(s), an earlier one of {}",
                        f.local(p).name,
                        r.count
                    ),
                )
                .at(span)
                .with_note("kiln reserves the same number of packets each time on a pipe"),
            ),
            Some(_) => {}
            None => {
                let packet = match &f.local(p).ty {
                    Type::Pipe(t, _) => (**t).clone(),
                    _ => Type::Error,
                };
                out.insert(p, Reserved { count, packet, active: LocalId(0), buffer: LocalId(0) });
            }
        }
    }
}

struct Rewriter<'a> {
    pipes: &'a BTreeMap<LocalId, Reserved>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Rewriter<'_> {
    fn reserved(&mut self, pipe: &PipeRef, span: Span) -> Option<&Reserved> {
        let r = match pipe {
            PipeRef::Param(p) => self.pipes.get(p),
            PipeRef::Global(..) => None,
        };
        if r.is_none() {
            self.diags.push(
                Diagnostic::error(codes::PIPE_RULE, "this pipe has no reservation in this kernel").at(span).with_note(
                    "a reservation id must come from `reserve_read_pipe` or `reserve_write_pipe` on the same pipe",
                ),
            );
        }
        r
    }

    /// Element `i` of the reservation buffer.
    fn slot(r: &Reserved, i: Expr, span: Span) -> Expr {
        let elem = r.packet.clone();
        let array = local(r.buffer, Type::Array(Rc::new(elem.clone()), Some(r.count)), span);
        let ptr =
            Type::Pointer(Rc::new(Pointee { ty: elem.clone(), space: AddrSpace::Private, quals: Default::default() }));
        let decayed = Expr { kind: K::Decay(Box::new(array)), ty: ptr.clone(), span };
        let at = Expr { kind: K::PtrAdd(Box::new(decayed), Box::new(i)), ty: ptr, span };
        Expr { kind: K::Deref(Box::new(at)), ty: elem, span }
    }

    /// The statement of a reservation whose result goes to `target`.
    fn reserve(&mut self, pipe: &PipeRef, write: bool, target: Expr, span: Span) -> Stmt {
        let Some(r) = self.reserved(pipe, span) else { return Stmt::Block(vec![]) };
        let query = |max: bool| Expr { kind: K::PipeQuery { pipe: pipe.clone(), max }, ty: UINT, span };
        let room = if write { binary(BinaryOp::Sub, query(true), query(false), UINT) } else { query(false) };
        let idle = Expr { kind: K::Unary(UnaryOp::LogNot, Box::new(local(r.active, BOOL, span))), ty: INT, span };
        let enough = binary(BinaryOp::Ge, room, Expr::int(u64::from(r.count), UINT, span), INT);
        let mut taken = Vec::new();
        if !write {
            for k in 0..r.count {
                let dest = Self::slot(r, Expr::int(u64::from(k), INT, span), span);
                let read = K::PipeRead { pipe: pipe.clone(), blocking: true, dests: vec![dest], ok: None };
                taken.push(Stmt::Expr(Expr { kind: read, ty: Type::Void, span }));
            }
        }
        taken.push(Stmt::Expr(assign(local(r.active, BOOL, span), Expr::int(1, BOOL, span))));
        let rid_ty = target.ty.clone();
        taken.push(Stmt::Expr(assign(target.clone(), Expr::int(1, rid_ty.clone(), span))));
        let refused = vec![Stmt::Expr(assign(target, Expr::int(0, rid_ty, span)))];
        Stmt::If(log_and(idle, enough), taken, refused, span)
    }

    /// The statement of a commit.
    fn commit(&mut self, pipe: &PipeRef, write: bool, rid: Expr, span: Span) -> Stmt {
        let Some(r) = self.reserved(pipe, span) else { return Stmt::Block(vec![]) };
        let mut put = Vec::new();
        if write {
            for k in 0..r.count {
                let value = Self::slot(r, Expr::int(u64::from(k), INT, span), span);
                let w = K::PipeWrite { pipe: pipe.clone(), blocking: true, values: vec![value] };
                put.push(Stmt::Expr(Expr { kind: w, ty: Type::Void, span }));
            }
        }
        put.push(Stmt::Expr(assign(local(r.active, BOOL, span), Expr::int(0, BOOL, span))));
        Stmt::If(log_and(rid, local(r.active, BOOL, span)), put, vec![], span)
    }

    fn block(&mut self, b: Block) -> Block {
        b.into_iter().flat_map(|s| self.stmt(s)).collect()
    }

    /// A statement, or the two a reservation that initializes a variable becomes (the
    /// declaration stays in the enclosing block, in scope after the reservation).
    fn stmt(&mut self, s: Stmt) -> Vec<Stmt> {
        if let Stmt::Decl(id, Some(Init::Expr(e)), span) = &s
            && let K::PipeReserve { pipe, write, .. } = &e.kind
        {
            let target = local(*id, e.ty.clone(), e.span);
            let reserve = self.reserve(pipe, *write, target, e.span);
            return vec![Stmt::Decl(*id, None, *span), reserve];
        }
        vec![self.single(s)]
    }

    fn single(&mut self, s: Stmt) -> Stmt {
        match s {
            Stmt::Expr(Expr { kind: K::Assign(place, value), span, .. })
                if matches!(value.kind, K::PipeReserve { .. }) && !place.has_side_effects() =>
            {
                let K::PipeReserve { pipe, write, .. } = &value.kind else { return Stmt::Block(vec![]) };
                let place = self.expr(*place);
                self.reserve(pipe, *write, place, span)
            }
            Stmt::Expr(Expr { kind: K::PipeCommit { pipe, write, rid }, span, .. }) => {
                let rid = self.expr(*rid);
                self.commit(&pipe, write, rid, span)
            }
            Stmt::Expr(e) => Stmt::Expr(self.expr(e)),
            Stmt::Decl(id, Some(init), span) => Stmt::Decl(id, Some(self.init(init)), span),
            Stmt::If(c, t, e, span) => Stmt::If(self.expr(c), self.block(t), self.block(e), span),
            Stmt::Loop(mut l) => {
                l.init = self.block(std::mem::take(&mut l.init));
                l.cond = l.cond.map(|c| self.expr(c));
                l.step = l.step.map(|s| self.expr(s));
                l.body = self.block(std::mem::take(&mut l.body));
                Stmt::Loop(l)
            }
            Stmt::Switch(v, arms, span) => {
                let v = self.expr(v);
                let arms = arms
                    .into_iter()
                    .map(|mut a| {
                        a.body = self.block(std::mem::take(&mut a.body));
                        a
                    })
                    .collect();
                Stmt::Switch(v, arms, span)
            }
            Stmt::Return(Some(e), span) => Stmt::Return(Some(self.expr(e)), span),
            Stmt::Block(b) => Stmt::Block(self.block(b)),
            other => other,
        }
    }

    fn init(&mut self, i: Init) -> Init {
        match i {
            Init::Expr(e) => Init::Expr(self.expr(e)),
            Init::List(items) => Init::List(items.into_iter().map(|i| self.init(i)).collect()),
            Init::Union(n, i) => Init::Union(n, Box::new(self.init(*i))),
        }
    }

    /// An expression: the reads and writes of reserved packets become conditional copies;
    /// a reservation or commit anywhere else than where [`Self::stmt`] takes it is refused.
    fn expr(&mut self, mut e: Expr) -> Expr {
        for c in e.children_mut() {
            let taken = std::mem::replace(c, Expr::int(0, INT, c.span));
            *c = self.expr(taken);
        }
        let span = e.span;
        match e.kind {
            K::PipeReserved { pipe, write, rid, index, place } => {
                let Some(r) = self.reserved(&pipe, span) else { return e_error(span) };
                let inside = binary(BinaryOp::Lt, (*index).clone(), Expr::int(u64::from(r.count), UINT, span), INT);
                let slot = Self::slot(r, *index, span);
                let copy = if write { assign(slot, *place) } else { assign(*place, slot) };
                let done = Expr { kind: K::Comma(vec![copy, Expr::int(0, INT, span)]), ty: INT, span };
                let minus_one = Expr::int(u64::MAX, INT, span);
                Expr {
                    kind: K::Cond(Box::new(log_and(*rid, inside)), Box::new(done), Box::new(minus_one)),
                    ty: INT,
                    span,
                }
            }
            K::PipeReserve { .. } | K::PipeCommit { .. } => {
                let what = if matches!(e.kind, K::PipeReserve { .. }) {
                    "a pipe reservation must be the whole initializer of a `reserve_id_t` variable or the right-hand side of an assignment statement"
                } else {
                    "a commit must be a statement of its own"
                };
                self.diags.push(Diagnostic::error(codes::UNSUPPORTED_PIPE, what).at(span));
                e
            }
            _ => e,
        }
    }
}

fn e_error(span: Span) -> Expr {
    Expr::int(0, INT, span)
}

/// `reserve_id_t` becomes `bool` and `event_t` (whose values kiln never looks at) `uint`,
/// also inside arrays and pointers.
fn retyped(t: &Type) -> Type {
    match t {
        Type::Opaque(Opaque::ReserveId) => BOOL,
        Type::Opaque(Opaque::Event) => crate::types::UINT,
        Type::Array(inner, n) => Type::Array(Rc::new(retyped(inner)), *n),
        Type::Pointer(p) => Type::Pointer(Rc::new(Pointee { ty: retyped(&p.ty), space: p.space, quals: p.quals })),
        other => other.clone(),
    }
}

fn retype_expr(e: &mut Expr) {
    e.ty = retyped(&e.ty);
    for c in e.children_mut() {
        retype_expr(c);
    }
}

fn retype_init(i: &mut Init) {
    match i {
        Init::Expr(e) => retype_expr(e),
        Init::List(items) => items.iter_mut().for_each(retype_init),
        Init::Union(_, i) => retype_init(i),
    }
}

fn retype_block(b: &mut Block) {
    for s in b {
        match s {
            Stmt::Expr(e) | Stmt::Return(Some(e), _) => retype_expr(e),
            Stmt::Decl(_, Some(i), _) => retype_init(i),
            Stmt::If(c, t, e, _) => {
                retype_expr(c);
                retype_block(t);
                retype_block(e);
            }
            Stmt::Loop(l) => {
                retype_block(&mut l.init);
                l.cond.iter_mut().for_each(retype_expr);
                l.step.iter_mut().for_each(retype_expr);
                retype_block(&mut l.body);
            }
            Stmt::Switch(v, arms, _) => {
                retype_expr(v);
                arms.iter_mut().for_each(|a| retype_block(&mut a.body));
            }
            Stmt::Block(b) => retype_block(b),
            Stmt::Decl(..) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(None, _) => {}
        }
    }
}
