//! The HIR verifier: checks the invariants that each stage of legalization establishes and the
//! stages after it rely on. [`crate::legalize::legalize`] runs it after every pass, so that a
//! pass that breaks an invariant is named as the culprit instead of a later stage failing
//! obscurely.
//!
//! Only the kernel being built and the helpers it calls are checked: the passes rewrite one
//! kernel at a time.

use crate::types::Type;
use crate::walk::for_each_expr;
use crate::{BinaryOp, Expr, ExprKind as K, FuncId, Function, Init, Program, Stmt};
use kiln_diagnostics::Span;
use std::collections::BTreeSet;
use std::fmt;

/// A property of a program that one stage establishes and the stages after it rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Invariant {
    /// Every name resolves: local, global and function ids exist, every called function has a
    /// body, and no function calls itself through any chain of calls.
    Resolved,
    /// Every expression has its final type: no type is the error type, arithmetic operands have
    /// the operation's type, a scalar comparison is an `int`, an assignment's value has its
    /// place's type.
    Typed,
    /// No pipe reservation, reserved transfer or commit (`legalize::reserve`).
    NoReservations,
    /// No work-group collective function and no async work-group copy
    /// (`legalize::collectives`).
    NoCollectives,
    /// No struct or union: no value or member access of a record type (`legalize::records`).
    NoRecords,
    /// No vector values: every expression of a vector type is a vector in memory whose address
    /// is taken (lowering reads and writes its lanes as scalars), and no vector-only operation
    /// remains (`legalize::lanes`).
    NoVectors,
    /// No call of a math built-in that kiln's math library implements: each is a call of the
    /// library's function (`legalize::mathlib`).
    MathLinked,
}

impl Invariant {
    /// What a front end guarantees before any pass runs.
    pub const FRONT_END: &'static [Invariant] = &[Invariant::Resolved, Invariant::Typed];
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Invariant::Resolved => "every name resolves and the call graph is acyclic",
            Invariant::Typed => "every expression has its final type",
            Invariant::NoReservations => "no pipe reservations",
            Invariant::NoCollectives => "no work-group functions or async copies",
            Invariant::NoRecords => "no structs or unions",
            Invariant::NoVectors => "no vectors",
            Invariant::MathLinked => "math built-ins call kiln's math library",
        })
    }
}

/// One place where a program breaks an invariant.
#[derive(Clone, Debug)]
pub struct Violation {
    pub invariant: Invariant,
    pub function: String,
    pub span: Span,
    pub what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in `{}` (bytes {}..{}): {} ({})",
            self.function, self.span.lo, self.span.hi, self.what, self.invariant
        )
    }
}

/// Checks `invariants` on kernel `kernel` of `prog` and the functions it calls.
pub fn verify(prog: &Program, kernel: FuncId, invariants: &[Invariant]) -> Result<(), Vec<Violation>> {
    let mut v = Verifier { prog, invariants: invariants.iter().copied().collect(), out: vec![], function: "" };
    for id in reachable(prog, kernel, &mut v) {
        let Some(f) = prog.functions.get(id.0 as usize) else { continue };
        v.function = &f.name;
        v.function_decls(f);
        if let Some(body) = &f.body {
            v.block(f, body);
        }
    }
    if v.out.is_empty() { Ok(()) } else { Err(v.out) }
}

/// The kernel and every function it calls, directly or not; a missing callee or a cycle is a
/// [`Invariant::Resolved`] violation.
fn reachable(prog: &Program, kernel: FuncId, v: &mut Verifier) -> Vec<FuncId> {
    let mut order = vec![];
    let mut on_path = vec![];
    visit(prog, kernel, &mut order, &mut on_path, v);
    order
}

fn visit(prog: &Program, id: FuncId, order: &mut Vec<FuncId>, on_path: &mut Vec<FuncId>, v: &mut Verifier) {
    if order.contains(&id) {
        return;
    }
    let Some(f) = prog.functions.get(id.0 as usize) else {
        v.report(Invariant::Resolved, Span::default(), format!("function id {} does not exist", id.0));
        return;
    };
    let Some(body) = &f.body else {
        v.report(Invariant::Resolved, f.span, format!("`{}` is called but has no body", f.name));
        return;
    };
    on_path.push(id);
    let mut callees = vec![];
    for_each_expr(body, &mut |e| {
        if let K::Call(callee, _) = e.kind {
            callees.push((callee, e.span));
        }
    });
    for (callee, span) in callees {
        if on_path.contains(&callee) {
            v.report(Invariant::Resolved, span, format!("`{}` is called recursively", f.name));
            continue;
        }
        visit(prog, callee, order, on_path, v);
    }
    on_path.pop();
    order.push(id);
}

struct Verifier<'p> {
    prog: &'p Program,
    invariants: BTreeSet<Invariant>,
    out: Vec<Violation>,
    function: &'p str,
}

impl Verifier<'_> {
    fn checks(&self, i: Invariant) -> bool {
        self.invariants.contains(&i)
    }

    fn report(&mut self, invariant: Invariant, span: Span, what: String) {
        if self.checks(invariant) {
            self.out.push(Violation { invariant, function: self.function.to_string(), span, what });
        }
    }

    /// A pass that splits variables leaves the originals in the function's list, unused, so
    /// only their types' soundness is checked here; their uses are checked where they occur.
    fn function_decls(&mut self, f: &Function) {
        for l in &f.locals {
            if contains(&l.ty, &|t| matches!(t, Type::Error)) {
                self.report(Invariant::Typed, l.span, format!("variable `{}` has the error type", l.name));
            }
        }
    }

    fn block(&mut self, f: &Function, body: &[Stmt]) {
        for s in body {
            match s {
                Stmt::Decl(id, init, span) => {
                    if f.locals.get(id.0 as usize).is_none() {
                        self.report(Invariant::Resolved, *span, format!("local id {} does not exist", id.0));
                    }
                    if let Some(init) = init {
                        self.init(f, init);
                    }
                }
                Stmt::Expr(e) => self.expr(f, e),
                Stmt::If(c, a, b, _) => {
                    self.expr(f, c);
                    self.block(f, a);
                    self.block(f, b);
                }
                Stmt::Loop(l) => {
                    self.block(f, &l.init);
                    for e in l.cond.iter().chain(l.step.iter()) {
                        self.expr(f, e);
                    }
                    self.block(f, &l.body);
                }
                Stmt::Switch(e, arms, _) => {
                    self.expr(f, e);
                    for arm in arms {
                        self.block(f, &arm.body);
                    }
                }
                Stmt::Return(e, _) => {
                    if let Some(e) = e {
                        self.expr(f, e);
                    }
                }
                Stmt::Block(b) => self.block(f, b),
                Stmt::Break(_) | Stmt::Continue(_) => {}
            }
        }
    }

    fn init(&mut self, f: &Function, init: &Init) {
        match init {
            Init::Expr(e) => self.expr(f, e),
            Init::List(items) => items.iter().for_each(|i| self.init(f, i)),
            Init::Union(_, i) => {
                self.report(Invariant::NoRecords, Span::default(), "a union initializer".into());
                self.init(f, i);
            }
        }
    }

    fn expr(&mut self, f: &Function, e: &Expr) {
        self.expr_in(f, e, false);
    }

    /// `addressed`: `e` is the operand of `&` or of an array's decay, so it may be an object in
    /// memory of any type.
    fn expr_in(&mut self, f: &Function, e: &Expr, addressed: bool) {
        self.node(f, e, addressed);
        let addresses = matches!(e.kind, K::AddrOf(_) | K::Decay(_));
        for c in e.children() {
            self.expr_in(f, c, addresses);
        }
    }

    fn node(&mut self, f: &Function, e: &Expr, addressed: bool) {
        let span = e.span;
        if contains(&e.ty, &|t| matches!(t, Type::Error)) {
            self.report(Invariant::Typed, span, "an expression has the error type".into());
        }
        let in_memory = addressed && matches!(e.kind, K::Local(_) | K::Global(_) | K::Deref(_));
        if matches!(e.ty, Type::Record(_)) && !in_memory {
            self.report(Invariant::NoRecords, span, "a value of a struct or union type".into());
        }
        if matches!(e.ty, Type::Vector(..)) && !in_memory {
            self.report(Invariant::NoVectors, span, "a value of a vector type".into());
        }
        match &e.kind {
            K::Local(id) if f.locals.get(id.0 as usize).is_none() => {
                self.report(Invariant::Resolved, span, format!("local id {} does not exist", id.0));
            }
            K::Global(id) if self.prog.globals.get(id.0 as usize).is_none() => {
                self.report(Invariant::Resolved, span, format!("global id {} does not exist", id.0));
            }
            K::Binary(op, a, b) => self.binary(*op, e, a, b),
            K::Assign(place, value) if is_arithmetic(&place.ty) && place.ty != value.ty => {
                self.report(
                    Invariant::Typed,
                    span,
                    format!("assigns a value of type {:?} to a place of type {:?}", value.ty, place.ty),
                );
            }
            K::Member(..) => self.report(Invariant::NoRecords, span, "a member access".into()),
            K::PipeReserve { .. } | K::PipeReserved { .. } | K::PipeCommit { .. } => {
                self.report(Invariant::NoReservations, span, "a pipe reservation".into());
            }
            K::WorkGroup(..) => self.report(Invariant::NoCollectives, span, "a work-group function".into()),
            K::AsyncCopy { .. } => self.report(Invariant::NoCollectives, span, "an async work-group copy".into()),
            K::FloatBuiltin(crate::builtins::FloatBuiltin::Op(op), _)
                if self.prog.math.iter().any(|(o, _)| o == op) =>
            {
                self.report(Invariant::MathLinked, span, format!("`{op:?}` is not a call of the math library"));
            }
            K::Swizzle(..) | K::VecLit(_) | K::Shuffle(..) | K::VLoad(..) | K::VStore { .. } | K::Geometric(..) => {
                self.report(Invariant::NoVectors, span, "a vector operation".into());
            }
            _ => {}
        }
    }

    fn binary(&mut self, op: BinaryOp, e: &Expr, a: &Expr, b: &Expr) {
        if !is_arithmetic(&a.ty) {
            return;
        }
        let problem = match op {
            _ if op.is_comparison() => match a.ty {
                Type::Scalar(_) if e.ty != crate::types::INT => Some("a scalar comparison is not an `int`"),
                _ if a.ty != b.ty => Some("the operands of a comparison have different types"),
                _ => None,
            },
            BinaryOp::Shl | BinaryOp::Shr => (a.ty != e.ty).then_some("a shift's left operand has another type"),
            _ => (a.ty != e.ty || b.ty != e.ty).then_some("an operand has another type than its operation"),
        };
        if let Some(p) = problem {
            self.report(Invariant::Typed, e.span, format!("{p} ({:?} {op:?} {:?} as {:?})", a.ty, b.ty, e.ty));
        }
    }
}

fn is_arithmetic(t: &Type) -> bool {
    matches!(t, Type::Scalar(_) | Type::Vector(..))
}

/// Whether `ty` or a type it is built from satisfies `p`. A pipe's packet type is not looked
/// into: a transfer moves a packet's scalar lanes whatever its type (`record_bytes::elements`).
fn contains(ty: &Type, p: &dyn Fn(&Type) -> bool) -> bool {
    p(ty)
        || match ty {
            Type::Pointer(to) => contains(&to.ty, p),
            Type::Array(elem, _) => contains(elem, p),
            _ => false,
        }
}
