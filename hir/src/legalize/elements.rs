//! What the loop passes know about array elements: element accesses and the variables whose
//! memory only they reach, indices as affine forms, the ranges of counted loops' counters, and
//! whether a loop runs at least once. Shared by `scalar-replace` and `rotate-loads`.

use crate::types::{AddrSpace, Type};
use crate::walk::{for_each_stmt, writes_in_block};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Function, Init, LocalId, Loop, LoopKind, Stmt, UnaryOp};
use std::collections::{BTreeMap, HashSet};

/// An element access `base[i0][i1]...`: one index per dimension.
#[derive(Clone)]
pub(super) struct Access {
    pub base: LocalId,
    pub indices: Vec<Expr>,
    /// The access as written (`*(... + i)`), to load and store the element with.
    pub expr: Expr,
}

/// The element access `e` is, if it is one: `*(root + i)` where `root` is a decayed array
/// variable, a pointer parameter, or a decayed sub-array access.
pub(super) fn access(e: &Expr) -> Option<Access> {
    let K::Deref(addr) = &e.kind else { return None };
    if matches!(e.ty, Type::Array(..)) {
        return None;
    }
    let (base, indices) = address(addr)?;
    Some(Access { base, indices, expr: e.clone() })
}

pub(super) fn address(addr: &Expr) -> Option<(LocalId, Vec<Expr>)> {
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
pub(super) fn visit(e: &Expr, on_access: &mut dyn FnMut(&Access), on_other: &mut dyn FnMut(LocalId)) {
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

pub(super) fn visit_block(b: &[Stmt], on_access: &mut dyn FnMut(&Access), on_other: &mut dyn FnMut(LocalId)) {
    // `for_each_expr` visits every sub-expression; take only the roots of each statement.
    let mut roots: Vec<Expr> = vec![];
    collect_roots(b, &mut roots);
    for r in &roots {
        visit(r, on_access, on_other);
    }
}

/// The top-level expressions of a block and of the blocks in it.
pub(super) fn collect_roots(b: &[Stmt], out: &mut Vec<Expr>) {
    pub(super) fn init(i: &Init, out: &mut Vec<Expr>) {
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
pub(super) fn eligible_bases(f: &Function, body: &Block) -> BTreeMap<LocalId, AddrSpace> {
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
pub(super) struct Affine {
    pub terms: BTreeMap<LocalId, i64>,
    pub constant: i64,
}

impl Affine {
    pub(super) fn of(e: &Expr) -> Option<Affine> {
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

    pub(super) fn scaled(mut self, by: i64) -> Affine {
        self.constant = self.constant.wrapping_mul(by);
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(by);
        }
        self.terms.retain(|_, c| *c != 0);
        self
    }

    pub(super) fn plus(mut self, other: &Affine, sign: i64) -> Affine {
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
pub(super) struct Ranges(pub Vec<(LocalId, (Affine, Affine))>);

impl Ranges {
    pub(super) fn insert(&mut self, v: LocalId, range: (Affine, Affine)) {
        self.0.retain(|(x, _)| *x != v);
        self.0.push((v, range));
    }

    pub(super) fn remove(&mut self, v: LocalId) {
        self.0.retain(|(x, _)| *x != v);
    }

    /// An upper bound of `a` over every point of the ranges, if the ranges bound each of its
    /// variables: the innermost counter is replaced by the bound that maximizes its term, then
    /// the next (a bound may name an outer counter), so `j - i` with `j < i` is at most `-1`.
    pub(super) fn max(&self, a: &Affine) -> Option<i64> {
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

    pub(super) fn min(&self, a: &Affine) -> Option<i64> {
        self.max(&a.clone().scaled(-1)).map(|m| -m)
    }

    /// Whether `a` and `b` are never equal.
    pub(super) fn differ(&self, a: &Expr, b: &Expr) -> bool {
        let (Some(a), Some(b)) = (Affine::of(a), Affine::of(b)) else { return false };
        let d = a.plus(&b, -1);
        self.max(&d).is_some_and(|m| m < 0) || self.min(&d).is_some_and(|m| m > 0)
    }
}

/// A counted loop `for (T v = lo; v < hi; v += c)` (or `<=`, or counting down with `>`/`>=`):
/// its counter and inclusive bounds, when `v` is declared by the loop, changed only by the step,
/// and the bounds read nothing the loop changes.
pub(super) fn counted(l: &Loop) -> Option<(LocalId, Expr, (Affine, Affine))> {
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
    if changed.contains(&v)
        || [&range.0, &range.1].iter().any(|r| r.terms.keys().any(|x| changed.contains(x) || *x == v))
    {
        return None;
    }
    Some((v, start.clone(), range))
}

pub(super) fn declared_in(b: &[Stmt], out: &mut HashSet<LocalId>) {
    for_each_stmt(b, &mut |s| {
        if let Stmt::Decl(id, ..) = s {
            out.insert(*id);
        }
    });
}

/// Adds the ranges of the counted loops inside `b`.
pub(super) fn inner_ranges(b: &[Stmt], ranges: &mut Ranges) {
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
pub(super) fn pure(e: &Expr) -> bool {
    let shallow = matches!(
        e.kind,
        K::Int(_)
            | K::Local(_)
            | K::Unary(..)
            | K::Binary(..)
            | K::Convert(_)
            | K::Cond(..)
            | K::LogAnd(..)
            | K::LogOr(..)
    );
    shallow && e.children().iter().all(|c| pure(c))
}

pub(super) fn same(a: &Expr, b: &Expr) -> bool {
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

pub(super) fn same_element(a: &Access, b: &Access) -> bool {
    a.base == b.base && a.indices.len() == b.indices.len() && a.indices.iter().zip(&b.indices).all(|(x, y)| same(x, y))
}

/// The places an expression writes: an assignment's target, an increment's, a pipe read's
/// destinations.
pub(super) fn written_place(e: &Expr) -> Option<Vec<&Expr>> {
    match &e.kind {
        K::Assign(place, _) | K::CompoundAssign { lhs: place, .. } | K::IncDec { target: place, .. } => {
            Some(vec![&**place])
        }
        K::PipeRead { dests, ok, .. } => Some(dests.iter().chain(ok.as_deref()).collect()),
        _ => None,
    }
}

/// `C[i][j]` for the loop report (and the register's name): the base and the variables of each index.
pub(super) fn element_name(f: &Function, a: &Access) -> String {
    let mut name = f.local(a.base).name.to_string();
    for i in &a.indices {
        name.push('[');
        name.push_str(&index_text(f, i));
        name.push(']');
    }
    name
}

pub(super) fn index_text(f: &Function, e: &Expr) -> String {
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

pub(super) enum FirstTest {
    Always,
    Never,
    Unknown,
    /// The loop's condition as evaluated before its first iteration.
    Test(Expr),
}

/// The loop's first test: its condition with the counter's start substituted, decided
/// statically when the ranges allow.
pub(super) fn first_test(l: &Loop, outer: &Ranges) -> FirstTest {
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
            let mut test = cond.clone();
            substitute(&mut test, *v, &|_| start.clone());
            FirstTest::Test(test)
        }
        _ => FirstTest::Unknown,
    }
}

/// The element accesses that run in every iteration of a loop body: those of its top-level
/// statements, outside `?:`, `&&` and `||`.
pub(super) fn unconditional_accesses(body: &[Stmt], out: &mut Vec<Access>) {
    fn expr(e: &Expr, out: &mut Vec<Access>) {
        if let Some(a) = access(e) {
            out.push(a.clone());
            a.indices.iter().for_each(|i| expr(i, out));
            return;
        }
        match &e.kind {
            K::Cond(c, _, _) => expr(c, out),
            K::LogAnd(a, _) | K::LogOr(a, _) => expr(a, out),
            _ => e.children().into_iter().for_each(|c| expr(c, out)),
        }
    }
    for s in body {
        match s {
            Stmt::Expr(e) => expr(e, out),
            Stmt::Decl(_, Some(Init::Expr(e)), _) => expr(e, out),
            Stmt::If(c, ..) => expr(c, out),
            _ => {}
        }
        // Nothing after a statement that may leave the iteration runs in every iteration.
        if matches!(s, Stmt::If(..) | Stmt::Switch(..) | Stmt::Block(_) | Stmt::Break(_)) {
            let mut leaves = false;
            for_each_stmt(std::slice::from_ref(s), &mut |x| leaves |= matches!(x, Stmt::Break(_) | Stmt::Return(..)));
            if leaves {
                return;
            }
        }
    }
}

/// Whether a loop's body runs at least once, for the loads a pass moves before it.
pub(super) enum Entry {
    /// Provably.
    Always,
    /// Only when this flag, computed by the declaration before the loop, is 1.
    Flag(LocalId, Stmt),
}

/// How a pass can tell, before a loop, whether its body runs: `None` when the loop never runs
/// or its first test cannot be written before it.
pub(super) fn entry_flag(f: &mut Function, l: &Loop, outer: &Ranges) -> Option<Entry> {
    let span = l.span;
    match first_test(l, outer) {
        FirstTest::Always => Some(Entry::Always),
        FirstTest::Never | FirstTest::Unknown => None,
        FirstTest::Test(test) => {
            let flag = crate::build::new_private_local(f, "entered".to_string(), crate::types::INT, span, None);
            let test = if test.ty == crate::types::INT {
                test
            } else {
                let zero = Expr::int(0, test.ty.clone(), span);
                crate::build::node(K::Binary(BinaryOp::Ne, Box::new(test), Box::new(zero)), crate::types::INT, span)
            };
            Some(Entry::Flag(flag, Stmt::Decl(flag, Some(Init::Expr(test)), span)))
        }
    }
}

/// `e` with every read of `v` replaced by `with(v's type)` (the replacement is not visited).
pub(super) fn substitute(e: &mut Expr, v: LocalId, with: &dyn Fn(&Type) -> Expr) {
    if matches!(e.kind, K::Local(x) if x == v) {
        *e = with(&e.ty);
        return;
    }
    for c in e.children_mut() {
        substitute(c, v, with);
    }
}

/// A variable name for the register that holds `element` (`C[i][j]` → `C_i__j_`).
pub(super) fn register_name(element: &str) -> String {
    element.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{binary, local};
    use crate::types::INT;
    use kiln_diagnostics::Span;

    fn var(n: u32) -> Expr {
        local(LocalId(n), INT, Span::default())
    }

    fn int(v: i64) -> Expr {
        Expr::int(v as u64, INT, Span::default())
    }

    fn affine(e: &Expr) -> Affine {
        Affine::of(e).unwrap()
    }

    #[test]
    fn indices_become_affine_forms_and_others_do_not() {
        // 3 * i + j - 2
        let e = binary(
            BinaryOp::Sub,
            binary(BinaryOp::Add, binary(BinaryOp::Mul, int(3), var(0), INT), var(1), INT),
            int(2),
            INT,
        );
        let a = affine(&e);
        assert_eq!(a.terms, BTreeMap::from([(LocalId(0), 3), (LocalId(1), 1)]));
        assert_eq!(a.constant, -2);
        assert!(Affine::of(&binary(BinaryOp::Mul, var(0), var(1), INT)).is_none(), "i * j is not affine");
        assert!(Affine::of(&binary(BinaryOp::Div, var(0), int(2), INT)).is_none(), "i / 2 is not affine");
    }

    #[test]
    fn nested_ranges_bound_differences_innermost_first() {
        // for (i = 0; i < 40; i++) for (j = 0; j < i; j++) for (k = 0; k < j; k++)
        let mut r = Ranges::default();
        r.insert(LocalId(0), (affine(&int(0)), affine(&int(39))));
        r.insert(LocalId(1), (affine(&int(0)), affine(&binary(BinaryOp::Sub, var(0), int(1), INT))));
        r.insert(LocalId(2), (affine(&int(0)), affine(&binary(BinaryOp::Sub, var(1), int(1), INT))));
        // k - i ≤ (j - 1) - i ≤ (i - 2) - i = -2: `A[k][j]` is never `A[i][j]`.
        assert_eq!(r.max(&affine(&binary(BinaryOp::Sub, var(2), var(0), INT))), Some(-2));
        assert!(r.differ(&var(2), &var(0)));
        assert!(r.differ(&var(2), &var(1)), "k < j");
        // i and i + 1 always differ; i and a variable without a range may not.
        assert!(r.differ(&var(0), &binary(BinaryOp::Add, var(0), int(1), INT)));
        assert!(!r.differ(&var(0), &var(7)));
        // j and k + 1 meet (j = k + 1 happens).
        assert!(!r.differ(&var(1), &binary(BinaryOp::Add, var(2), int(1), INT)));
    }
}
