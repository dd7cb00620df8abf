//! `scalar-replace`: an array element that a loop reads or writes at an index the loop does not
//! change lives in a register for the loop — loaded once before it, stored once after it:
//!
//! ```text
//! for (k = 0; k < N; k++)               int entered = 0 < N;   // omitted when provably true
//!     C[i][j] += A[i][k] * B[k][j];  →  int C_i_j; if (entered) C_i_j = C[i][j];
//!                                       for (k = 0; k < N; k++) C_i_j += A[i][k] * B[k][j];
//!                                       if (entered) C[i][j] = C_i_j;
//! ```
//!
//! In hardware this removes a memory recurrence (the load of one iteration waits for the store
//! of the one before) and the port accesses of every iteration. Elements only read in the loop
//! are loaded once and not stored.
//!
//! What makes it legal, per element `base[e]` of a loop:
//! - `base` is a private, `__local` or `__constant` array variable, or a pointer parameter that
//!   is never assigned, and every mention of it in the function is an element access — so no
//!   other pointer reaches its memory (kiln's memory model keeps pointer parameters apart);
//! - `e` is free of side effects and loads and reads no variable the loop changes;
//! - every other access of `base` in the loop is provably to another element: in some
//!   dimension the difference of the indices is never zero, by the ranges of the enclosing and
//!   inner counted loops ([`Affine`], [`Ranges`]);
//! - the loop has no `return` (which would skip the store after it), and for memory shared by
//!   work-items, no barrier.
//!
//! The emulator runs the kernel without this pass (it runs with the build's loop
//! transformations, [`super::Options::scalar_replacement`]), so emulator = simulator checks it.

use crate::build::{assign_stmt, local, new_private_local, node};
use crate::types::{AddrSpace, INT, Type};
use crate::walk::{for_each_expr, for_each_expr_mut, for_each_stmt, writes_in_block};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, Init, LocalId, Loop, LoopKind, Program, Stmt, UnaryOp};
use std::collections::{BTreeMap, HashSet};

/// The `scalar-replace` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "scalar-replace",
    requires: &[crate::verify::Invariant::NoRecords, crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, opts| Ok(if opts.scalar_replacement { replace_in_program(prog) } else { prog.clone() }),
};

fn replace_in_program(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.functions {
        if let Some(mut body) = f.body.take() {
            let bases = eligible_bases(f, &body);
            if !bases.is_empty() {
                let mut ranges = Ranges::default();
                rewrite_block(f, &mut body, &bases, &mut ranges);
            }
            f.body = Some(body);
        }
    }
    out
}

/// An element access `base[i0][i1]...`: one index per dimension.
#[derive(Clone)]
struct Access {
    base: LocalId,
    indices: Vec<Expr>,
    /// The access as written (`*(... + i)`), to load and store the element with.
    expr: Expr,
}

/// The element access `e` is, if it is one: `*(root + i)` where `root` is a decayed array
/// variable, a pointer parameter, or a decayed sub-array access.
fn access(e: &Expr) -> Option<Access> {
    let K::Deref(addr) = &e.kind else { return None };
    if matches!(e.ty, Type::Array(..)) {
        return None;
    }
    let (base, indices) = address(addr)?;
    Some(Access { base, indices, expr: e.clone() })
}

fn address(addr: &Expr) -> Option<(LocalId, Vec<Expr>)> {
    let K::PtrAdd(root, index) = &addr.kind else { return None };
    let (base, mut indices) = match &root.kind {
        K::Local(b) if matches!(root.ty, Type::Pointer(_)) => (*b, vec![]),
        K::Decay(array) => match &array.kind {
            K::Local(b) => (*b, vec![]),
            K::Deref(inner) if matches!(array.ty, Type::Array(..)) => address(inner)?,
            _ => return None,
        },
        _ => return None,
    };
    indices.push((**index).clone());
    Some((base, indices))
}

/// Visits `e`, calling `on_access` for every element access and `on_other` for every other
/// mention of a local variable; the parts of an access's address other than its indices are
/// not visited.
fn visit(e: &Expr, on_access: &mut dyn FnMut(&Access), on_other: &mut dyn FnMut(LocalId)) {
    if let K::AddrOf(x) = &e.kind
        && let Some(a) = access(x)
    {
        on_other(a.base);
        for i in &a.indices {
            visit(i, on_access, on_other);
        }
        return;
    }
    if let Some(a) = access(e) {
        on_access(&a);
        for i in &a.indices {
            visit(i, on_access, on_other);
        }
        return;
    }
    if let K::Local(id) = e.kind {
        on_other(id);
    }
    for c in e.children() {
        visit(c, on_access, on_other);
    }
}

fn visit_block(b: &[Stmt], on_access: &mut dyn FnMut(&Access), on_other: &mut dyn FnMut(LocalId)) {
    // `for_each_expr` visits every sub-expression; take only the roots of each statement.
    let mut roots: Vec<Expr> = vec![];
    collect_roots(b, &mut roots);
    for r in &roots {
        visit(r, on_access, on_other);
    }
}

/// The top-level expressions of a block and of the blocks in it.
fn collect_roots(b: &[Stmt], out: &mut Vec<Expr>) {
    fn init(i: &Init, out: &mut Vec<Expr>) {
        match i {
            Init::Expr(e) => out.push(e.clone()),
            Init::List(items) => items.iter().for_each(|i| init(i, out)),
            Init::Union(_, i) => init(i, out),
        }
    }
    for s in b {
        match s {
            Stmt::Expr(e) | Stmt::Return(Some(e), _) => out.push(e.clone()),
            Stmt::Decl(_, Some(i), _) => init(i, out),
            Stmt::If(c, t, e, _) => {
                out.push(c.clone());
                collect_roots(t, out);
                collect_roots(e, out);
            }
            Stmt::Loop(l) => {
                collect_roots(&l.init, out);
                out.extend(l.cond.iter().cloned());
                out.extend(l.step.iter().cloned());
                collect_roots(&l.body, out);
            }
            Stmt::Switch(v, arms, _) => {
                out.push(v.clone());
                arms.iter().for_each(|a| collect_roots(&a.body, out));
            }
            Stmt::Block(b) => collect_roots(b, out),
            Stmt::Decl(..) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(None, _) => {}
        }
    }
}

/// The variables whose memory only element accesses reach, with their address space.
fn eligible_bases(f: &Function, body: &Block) -> BTreeMap<LocalId, AddrSpace> {
    let written = writes_in_block(body);
    let mut candidates = BTreeMap::new();
    for (i, l) in f.locals.iter().enumerate() {
        let id = LocalId(i as u32);
        match &l.ty {
            Type::Array(..) if !l.quals.is_volatile && l.lane_of.is_none() && l.dependence_distance.is_none() => {
                candidates.insert(id, l.space);
            }
            Type::Pointer(p)
                if l.is_param
                    && !p.quals.is_volatile
                    && !written.contains(&id)
                    && matches!(p.space, AddrSpace::Global | AddrSpace::Local | AddrSpace::Constant)
                    && matches!(p.ty, Type::Scalar(_)) =>
            {
                candidates.insert(id, p.space);
            }
            _ => {}
        }
    }
    let mut escaping = HashSet::new();
    visit_block(body, &mut |_| {}, &mut |id| {
        escaping.insert(id);
    });
    // A `Decl` with a list initializer of an array writes it whole: still only its own memory.
    candidates.retain(|id, _| !escaping.contains(id));
    candidates
}

/// An integer expression as `constant + Σ coefficient · variable`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Affine {
    terms: BTreeMap<LocalId, i64>,
    constant: i64,
}

impl Affine {
    fn of(e: &Expr) -> Option<Affine> {
        let integer = |t: &Type| t.scalar().is_some_and(|s| s.is_integer());
        if !integer(&e.ty) {
            return None;
        }
        match &e.kind {
            K::Int(v) => {
                let bits = e.ty.scalar()?.bits();
                let signed = e.ty.scalar()?.is_signed();
                let value = if signed || bits < 64 { *v as i64 } else { i64::try_from(*v).ok()? };
                Some(Affine { terms: BTreeMap::new(), constant: value })
            }
            K::Local(id) => Some(Affine { terms: BTreeMap::from([(*id, 1)]), constant: 0 }),
            K::Convert(x) if integer(&x.ty) && x.ty.scalar()?.bits() <= e.ty.scalar()?.bits() => Affine::of(x),
            K::Unary(UnaryOp::Neg, x) => Some(Affine::of(x)?.scaled(-1)),
            K::Binary(BinaryOp::Add, a, b) => Some(Affine::of(a)?.plus(&Affine::of(b)?, 1)),
            K::Binary(BinaryOp::Sub, a, b) => Some(Affine::of(a)?.plus(&Affine::of(b)?, -1)),
            K::Binary(BinaryOp::Mul, a, b) => {
                let (a, b) = (Affine::of(a)?, Affine::of(b)?);
                match (a.terms.is_empty(), b.terms.is_empty()) {
                    (true, _) => Some(b.scaled(a.constant)),
                    (_, true) => Some(a.scaled(b.constant)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn scaled(mut self, by: i64) -> Affine {
        self.constant = self.constant.wrapping_mul(by);
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(by);
        }
        self.terms.retain(|_, c| *c != 0);
        self
    }

    fn plus(mut self, other: &Affine, sign: i64) -> Affine {
        self.constant = self.constant.wrapping_add(other.constant.wrapping_mul(sign));
        for (v, c) in &other.terms {
            *self.terms.entry(*v).or_insert(0) += c * sign;
        }
        self.terms.retain(|_, c| *c != 0);
        self
    }
}

/// The inclusive bounds `lo ≤ v ≤ hi` of the counter `v` of each counted loop around or inside
/// the loop being rewritten, valid wherever `v` is in scope (its loop declares it), outer loops
/// first.
#[derive(Clone, Default)]
struct Ranges(Vec<(LocalId, (Affine, Affine))>);

impl Ranges {
    fn insert(&mut self, v: LocalId, range: (Affine, Affine)) {
        self.0.retain(|(x, _)| *x != v);
        self.0.push((v, range));
    }

    fn remove(&mut self, v: LocalId) {
        self.0.retain(|(x, _)| *x != v);
    }

    /// An upper bound of `a` over every point of the ranges, if the ranges bound each of its
    /// variables: the innermost counter is replaced by the bound that maximizes its term, then
    /// the next (a bound may name an outer counter), so `j - i` with `j < i` is at most `-1`.
    fn max(&self, a: &Affine) -> Option<i64> {
        let mut a = a.clone();
        for _ in 0..64 {
            let Some((&v, &c)) = a.terms.iter().max_by_key(|(v, _)| self.0.iter().position(|(x, _)| x == *v)) else {
                return Some(a.constant);
            };
            let (_, (lo, hi)) = self.0.iter().find(|(x, _)| *x == v)?;
            a.terms.remove(&v);
            a = a.plus(if c > 0 { hi } else { lo }, c);
        }
        None
    }

    fn min(&self, a: &Affine) -> Option<i64> {
        self.max(&a.clone().scaled(-1)).map(|m| -m)
    }

    /// Whether `a` and `b` are never equal.
    fn differ(&self, a: &Expr, b: &Expr) -> bool {
        let (Some(a), Some(b)) = (Affine::of(a), Affine::of(b)) else { return false };
        let d = a.plus(&b, -1);
        self.max(&d).is_some_and(|m| m < 0) || self.min(&d).is_some_and(|m| m > 0)
    }
}

/// A counted loop `for (T v = lo; v < hi; v += c)` (or `<=`, or counting down with `>`/`>=`):
/// its counter and inclusive bounds, when `v` is declared by the loop, changed only by the step,
/// and the bounds read nothing the loop changes.
fn counted(l: &Loop) -> Option<(LocalId, Expr, (Affine, Affine))> {
    if l.kind != LoopKind::For {
        return None;
    }
    let [Stmt::Decl(v, Some(Init::Expr(start)), _)] = l.init.as_slice() else { return None };
    let v = *v;
    let strip = |e: &Expr| -> Expr {
        let mut e = e.clone();
        while let K::Convert(x) = &e.kind {
            if x.ty.scalar().is_some_and(|s| s.is_integer()) && e.ty.scalar().is_some_and(|s| s.is_integer()) {
                e = (**x).clone();
            } else {
                break;
            }
        }
        e
    };
    let is_v = |e: &Expr| matches!(strip(e).kind, K::Local(x) if x == v);
    let step_sign = match &l.step.as_ref()?.kind {
        K::IncDec { target, increment, .. } if is_v(target) => {
            if *increment {
                1
            } else {
                -1
            }
        }
        K::CompoundAssign { op, lhs, rhs, .. } if is_v(lhs) => {
            rhs.as_int().filter(|c| *c > 0 && *c < 1 << 31)?;
            match op {
                BinaryOp::Add => 1,
                BinaryOp::Sub => -1,
                _ => return None,
            }
        }
        _ => return None,
    };
    let K::Binary(op, a, b) = &l.cond.as_ref()?.kind else { return None };
    // Normalize to `v op bound`.
    let (op, bound) = if is_v(a) {
        (*op, b)
    } else if is_v(b) {
        let flipped = match op {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Ge => BinaryOp::Le,
            _ => return None,
        };
        (flipped, a)
    } else {
        return None;
    };
    let start_a = Affine::of(start)?;
    let bound_a = Affine::of(&strip(bound))?;
    let one = Affine { terms: BTreeMap::new(), constant: 1 };
    let range = match (op, step_sign) {
        (BinaryOp::Lt, 1) => (start_a, bound_a.plus(&one, -1)),
        (BinaryOp::Le, 1) => (start_a, bound_a),
        (BinaryOp::Gt, -1) => (bound_a.plus(&one, 1), start_a),
        (BinaryOp::Ge, -1) => (bound_a, start_a),
        _ => return None,
    };
    let mut changed = writes_in_block(&l.body);
    declared_in(&l.body, &mut changed);
    if changed.contains(&v) || [&range.0, &range.1].iter().any(|r| r.terms.keys().any(|x| changed.contains(x) || *x == v))
    {
        return None;
    }
    Some((v, start.clone(), range))
}

fn declared_in(b: &[Stmt], out: &mut HashSet<LocalId>) {
    for_each_stmt(b, &mut |s| {
        if let Stmt::Decl(id, ..) = s {
            out.insert(*id);
        }
    });
}

/// Adds the ranges of the counted loops inside `b`.
fn inner_ranges(b: &[Stmt], ranges: &mut Ranges) {
    for_each_stmt(b, &mut |s| {
        if let Stmt::Loop(l) = s
            && let Some((v, _, r)) = counted(l)
        {
            ranges.insert(v, r);
        }
    });
}

/// Free of side effects, loads and calls: the same value wherever the variables it reads hold
/// the same values.
fn pure(e: &Expr) -> bool {
    let shallow = matches!(
        e.kind,
        K::Int(_) | K::Local(_) | K::Unary(..) | K::Binary(..) | K::Convert(_) | K::Cond(..) | K::LogAnd(..) | K::LogOr(..)
    );
    shallow && e.children().iter().all(|c| pure(c))
}

fn same(a: &Expr, b: &Expr) -> bool {
    if a.ty != b.ty {
        return false;
    }
    let kinds_match = match (&a.kind, &b.kind) {
        (K::Int(x), K::Int(y)) => x == y,
        (K::Local(x), K::Local(y)) => x == y,
        (K::Unary(x, _), K::Unary(y, _)) => x == y,
        (K::Binary(x, ..), K::Binary(y, ..)) => x == y,
        (K::Convert(_), K::Convert(_)) | (K::Cond(..), K::Cond(..)) => true,
        (K::LogAnd(..), K::LogAnd(..)) | (K::LogOr(..), K::LogOr(..)) => true,
        _ => false,
    };
    let (ca, cb) = (a.children(), b.children());
    kinds_match && ca.len() == cb.len() && ca.iter().zip(&cb).all(|(x, y)| same(x, y))
}

fn same_element(a: &Access, b: &Access) -> bool {
    a.base == b.base && a.indices.len() == b.indices.len() && a.indices.iter().zip(&b.indices).all(|(x, y)| same(x, y))
}

fn rewrite_block(f: &mut Function, b: &mut Block, bases: &BTreeMap<LocalId, AddrSpace>, ranges: &mut Ranges) {
    let stmts = std::mem::take(b);
    for s in stmts {
        match s {
            Stmt::Loop(mut l) => {
                let own = counted(&l);
                if let Some((v, _, r)) = &own {
                    ranges.insert(*v, r.clone());
                }
                rewrite_block(f, &mut l.body, bases, ranges);
                b.extend(replace_in_loop(f, *l, bases, ranges));
                if let Some((v, ..)) = own {
                    ranges.remove(v);
                }
            }
            Stmt::If(c, mut t, mut e, span) => {
                rewrite_block(f, &mut t, bases, ranges);
                rewrite_block(f, &mut e, bases, ranges);
                b.push(Stmt::If(c, t, e, span));
            }
            Stmt::Block(mut inner) => {
                rewrite_block(f, &mut inner, bases, ranges);
                b.push(Stmt::Block(inner));
            }
            Stmt::Switch(v, mut arms, span) => {
                for a in &mut arms {
                    rewrite_block(f, &mut a.body, bases, ranges);
                }
                b.push(Stmt::Switch(v, arms, span));
            }
            s => b.push(s),
        }
    }
}

/// The loop with its replaceable elements in registers, and the statements around it.
fn replace_in_loop(f: &mut Function, mut l: Loop, bases: &BTreeMap<LocalId, AddrSpace>, outer: &Ranges) -> Vec<Stmt> {
    let keep = |l: Loop| vec![Stmt::Loop(Box::new(l))];
    let mut parts: Vec<Stmt> = vec![];
    if let Some(c) = &l.cond {
        parts.push(Stmt::Expr(c.clone()));
    }
    if let Some(s) = &l.step {
        parts.push(Stmt::Expr(s.clone()));
    }
    parts.extend(l.body.iter().cloned());
    let mut exits = false;
    let mut barrier = false;
    for_each_stmt(&parts, &mut |s| exits |= matches!(s, Stmt::Return(..)));
    for_each_expr(&parts, &mut |e| barrier |= matches!(e.kind, K::Barrier));
    if exits || l.kind == LoopKind::While && l.cond.is_none() {
        return keep(l);
    }
    let mut changed = writes_in_block(&parts);
    declared_in(&parts, &mut changed);
    declared_in(&l.init, &mut changed);
    let mut accesses: Vec<Access> = vec![];
    visit_block(&parts, &mut |a| accesses.push(a.clone()), &mut |_| {});
    let mut ranges = outer.clone();
    inner_ranges(&l.body, &mut ranges);
    let invariant = |a: &Access| {
        a.indices.iter().all(|i| {
            let mut reads = HashSet::new();
            crate::walk::reads_in_expr(i, &mut reads);
            pure(i) && reads.iter().all(|r| !changed.contains(r))
        })
    };
    let mut writes: Vec<Access> = vec![];
    for_each_expr(&parts, &mut |e| {
        if let Some(place) = written_place(e) {
            writes.extend(place.iter().filter_map(|p| access(p)));
        }
    });
    let written_bases: HashSet<LocalId> = writes.iter().map(|w| w.base).collect();
    let mut chosen: Vec<Access> = vec![];
    for a in &accesses {
        let Some(space) = bases.get(&a.base) else { continue };
        if barrier && *space != AddrSpace::Private
            || changed.contains(&a.base)
            || chosen.iter().any(|c| same_element(c, a))
            || !invariant(a)
        {
            continue;
        }
        let apart = !written_bases.contains(&a.base)
            || accesses.iter().filter(|o| o.base == a.base && !same_element(o, a)).all(|o| {
            o.indices.len() == a.indices.len() && a.indices.iter().zip(&o.indices).any(|(x, y)| ranges.differ(x, y))
        });
        // An element only read is worth a register when it frees a port of its memory for the
        // loop's other accesses; otherwise the load before the loop only adds its latency.
        let read_only = !writes.iter().any(|w| same_element(w, a));
        let shares_port = accesses.iter().any(|o| o.base == a.base && !same_element(o, a));
        if apart && (!read_only || shares_port) {
            chosen.push(a.clone());
        }
    }
    if chosen.is_empty() {
        return keep(l);
    }
    // Whether the loop runs its body at least once: statically, or a flag computed before it.
    let span = l.span;
    let mut before = vec![];
    let entered: Option<LocalId> = match l.kind {
        LoopKind::DoWhile => None,
        _ => match first_test(&l, outer) {
            FirstTest::Always => None,
            FirstTest::Never => return keep(l),
            FirstTest::Unknown => return keep(l),
            FirstTest::Test(test) => {
                let flag = new_private_local(f, "entered".to_string(), INT, span, None);
                let test = if test.ty == INT {
                    test
                } else {
                    let zero = Expr::int(0, test.ty.clone(), span);
                    node(K::Binary(BinaryOp::Ne, Box::new(test), Box::new(zero)), INT, span)
                };
                before.push(Stmt::Decl(flag, Some(Init::Expr(test)), span));
                Some(flag)
            }
        },
    };
    let guarded = |s: Stmt| match entered {
        Some(flag) => Stmt::If(local(flag, INT, span), vec![s], vec![], span),
        None => s,
    };
    let mut after = vec![];
    for c in &chosen {
        let name = element_name(f, c);
        let reg_name: String = name.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
        let reg = new_private_local(f, reg_name, c.expr.ty.clone(), span, None);
        let reg_expr = local(reg, c.expr.ty.clone(), span);
        let mut stored = false;
        let mut replace = |e: &mut Expr| {
            if let Some(a) = access(e)
                && same_element(&a, c)
            {
                *e = reg_expr.clone();
            }
            stored |= written_place(e).is_some_and(|places| {
                places.iter().any(|x| access(x).is_some_and(|a| same_element(&a, c)))
            });
        };
        if let Some(cond) = &mut l.cond {
            let mut s = [Stmt::Expr(cond.clone())];
            for_each_expr_mut(&mut s, &mut replace);
            if let [Stmt::Expr(e)] = s {
                *cond = e;
            }
        }
        if let Some(step) = &mut l.step {
            let mut s = [Stmt::Expr(step.clone())];
            for_each_expr_mut(&mut s, &mut replace);
            if let [Stmt::Expr(e)] = s {
                *step = e;
            }
        }
        for_each_expr_mut(&mut l.body, &mut replace);
        before.push(Stmt::Decl(reg, None, span));
        before.push(guarded(assign_stmt(reg_expr.clone(), c.expr.clone())));
        if stored {
            after.push(guarded(assign_stmt(c.expr.clone(), reg_expr)));
            l.transformations.push(format!("scalar replacement: `{name}` kept in a register (loaded before the loop, stored after it)"));
        } else {
            l.transformations.push(format!("scalar replacement: `{name}` loaded once before the loop"));
        }
    }
    let mut out = before;
    out.push(Stmt::Loop(Box::new(l)));
    out.extend(after);
    vec![Stmt::Block(out)]
}

/// The places an expression writes: an assignment's target, an increment's, a pipe read's
/// destinations.
fn written_place(e: &Expr) -> Option<Vec<&Expr>> {
    match &e.kind {
        K::Assign(place, _) | K::CompoundAssign { lhs: place, .. } | K::IncDec { target: place, .. } => {
            Some(vec![&**place])
        }
        K::PipeRead { dests, ok, .. } => Some(dests.iter().chain(ok.as_deref()).collect()),
        _ => None,
    }
}

/// `C[i][j]` for the loop report (and the register's name): the base and the variables of each index.
fn element_name(f: &Function, a: &Access) -> String {
    let mut name = f.local(a.base).name.to_string();
    for i in &a.indices {
        name.push('[');
        name.push_str(&index_text(f, i));
        name.push(']');
    }
    name
}

fn index_text(f: &Function, e: &Expr) -> String {
    match &e.kind {
        K::Int(v) => {
            if e.ty.scalar().is_some_and(|s| s.is_signed()) {
                (*v as i64).to_string()
            } else {
                v.to_string()
            }
        }
        K::Local(id) => f.local(*id).name.to_string(),
        K::Convert(x) => index_text(f, x),
        K::Binary(op, a, b) => {
            let sym = match op {
                BinaryOp::Add => "+",
                BinaryOp::Sub => "-",
                BinaryOp::Mul => "*",
                BinaryOp::Div => "/",
                BinaryOp::Rem => "%",
                BinaryOp::Shl => "<<",
                BinaryOp::Shr => ">>",
                BinaryOp::And => "&",
                BinaryOp::Or => "|",
                BinaryOp::Xor => "^",
                _ => "?",
            };
            format!("{} {sym} {}", index_text(f, a), index_text(f, b))
        }
        _ => "…".to_string(),
    }
}

enum FirstTest {
    Always,
    Never,
    Unknown,
    /// The loop's condition as evaluated before its first iteration.
    Test(Expr),
}

/// The loop's first test: its condition with the counter's start substituted, decided
/// statically when the ranges allow.
fn first_test(l: &Loop, outer: &Ranges) -> FirstTest {
    let Some(cond) = &l.cond else { return FirstTest::Always };
    match l.init.as_slice() {
        [] => FirstTest::Test(cond.clone()),
        [Stmt::Decl(v, Some(Init::Expr(start)), _)] if pure(start) => {
            if let Some((_, _, (lo, hi))) = counted(l) {
                let gap = hi.plus(&lo, -1);
                if outer.min(&gap).is_some_and(|g| g >= 0) {
                    return FirstTest::Always;
                }
                if outer.max(&gap).is_some_and(|g| g < 0) {
                    return FirstTest::Never;
                }
            }
            let mut test = [Stmt::Expr(cond.clone())];
            let v = *v;
            for_each_expr_mut(&mut test, &mut |e| {
                if matches!(e.kind, K::Local(x) if x == v) {
                    *e = start.clone();
                }
            });
            match test {
                [Stmt::Expr(e)] => FirstTest::Test(e),
                _ => FirstTest::Unknown,
            }
        }
        _ => FirstTest::Unknown,
    }
}
