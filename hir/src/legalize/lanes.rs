//! `lanes`: vectors become their lanes before lowering, so the dataflow IR and everything after it
//! only sees scalars (a vector operation is one scalar operation per lane, in parallel hardware).
//!
//! A rewrite of the typed program ([`hir`]) into an equivalent one without vector values:
//! - a vector variable becomes one scalar variable per lane; a vector parameter one parameter
//!   per lane (for a kernel, each lane becomes a scalar input of the hardware, marked with
//!   [`hir::LaneOf`] so the run spec can give the vector as one array);
//! - a vector in memory (`global int4 *p`, `int4 a[8]`) keeps its type: lowering stores it as its
//!   lanes, consecutive, with the padding lane of 3-element vectors (OpenCL's layout), and a
//!   lane access is a scalar access at `(element*)p + lane`;
//! - every vector expression becomes a list of pure scalar lane expressions; what has effects or
//!   reads memory (assignments, calls, loads) is evaluated once, in order, into a temporary first;
//! - `?:`, `&&`, `||` and `,` whose later operands hold vector work become statements, so they
//!   still evaluate those operands only when C does;
//! - `convert_<T>_sat` becomes compare-and-select clamps and `as_<T>` shifts and ORs of lanes,
//!   so lowering needs no operation beyond the scalar ones;
//! - `shuffle`/`shuffle2` pick source lanes: by wiring when a mask lane is constant, by a chain of
//!   selects on the mask lane's low bits otherwise.
//!
//! - a function returning a vector returns its lanes through pointer parameters appended to its
//!   own, which callers point at scalar temporaries.
//!
//! - a vector variable whose address is taken stays whole, in private memory like a vector array
//!   element.
//!
//! What it cannot express yet gets `E0503`: taking the address of a vector parameter.

use crate as hir;
use crate::builtins::{FloatBuiltin, FloatOp, Geometric, IntBuiltin};
use crate::types::{AddrSpace, Quals};
use crate::types::{INT, Pointee, SIZE_T, Scalar, Type};
use crate::{BinaryOp, Block, Expr, ExprKind as K, Init, Local, LocalId, Program, Stmt, UnaryOp};
use kiln_diagnostics::Span;
use kiln_diagnostics::{Diagnostic, codes};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The `lanes` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "lanes",
    requires: &[crate::verify::Invariant::NoRecords],
    ensures: &[crate::verify::Invariant::NoVectors],
    run: |prog, _, _| split_vectors(prog),
};

/// Rewrites every function of `prog` so that no expression has a vector type.
fn split_vectors(prog: &Program) -> Result<Program, Vec<Diagnostic>> {
    let mut out = prog.clone();
    let mut diags = Vec::new();
    // Helper functions' new parameter lists first, so calls can be rewritten in any order.
    let mut lane_params: HashMap<u32, HashMap<LocalId, Vec<LocalId>>> = HashMap::new();
    let mut ret_outs: HashMap<u32, Vec<LocalId>> = HashMap::new();
    for (i, f) in out.functions.iter_mut().enumerate() {
        let mut split = HashMap::new();
        let mut params = Vec::new();
        for &p in &f.params.clone() {
            let local = f.local(p).clone();
            match local.ty {
                Type::Vector(s, n) => {
                    let ids = lane_locals(&mut f.locals, &local, s, n, true);
                    params.extend(ids.iter().copied());
                    split.insert(p, ids);
                }
                _ => params.push(p),
            }
        }
        // A function returning a vector returns it through one pointer per lane, appended to its
        // parameters; callers pass the addresses of scalar temporaries.
        if let Type::Vector(s, n) = f.ret {
            let ptr_ty = Type::pointer_to(Type::Scalar(s), AddrSpace::Private, Quals::default());
            let outs: Vec<LocalId> = (0..n)
                .map(|j| {
                    f.locals.push(Local {
                        name: format!("{}.ret.s{j:x}", f.name).into(),
                        ty: ptr_ty.clone(),
                        space: AddrSpace::Private,
                        quals: Quals::default(),
                        is_param: true,
                        partition: None,
                        lane_of: None,
                        dependence_distance: None,
                        span: f.span,
                    });
                    LocalId(f.locals.len() as u32 - 1)
                })
                .collect();
            params.extend(outs.iter().copied());
            f.ret = Type::Void;
            ret_outs.insert(i as u32, outs);
        }
        f.params = params;
        lane_params.insert(i as u32, split);
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    for g in &mut out.globals {
        if let Some(init) = &g.init {
            let mut s = Splitter::new(Vec::new(), HashMap::new(), &HashSet::new());
            let mut pre = Vec::new();
            g.init = Some(s.init(init, &g.ty, &mut pre));
            diags.extend(s.diags);
        }
    }
    for (i, f) in out.functions.iter_mut().enumerate() {
        let Some(body) = f.body.take() else { continue };
        let split = lane_params.remove(&(i as u32)).unwrap_or_default();
        let in_memory = address_taken_vectors(&body, &f.locals, &mut diags);
        let mut s = Splitter::new(std::mem::take(&mut f.locals), split, &in_memory);
        s.ret_outs = ret_outs.remove(&(i as u32));
        let new_body = s.block(&body);
        f.locals = s.locals;
        f.body = Some(new_body);
        diags.extend(s.diags);
    }
    if diags.iter().any(Diagnostic::is_error) { Err(diags) } else { Ok(out) }
}

/// Vector variables whose address (or a lane's address) is taken: they are kept whole in
/// private memory, lanes at consecutive elements. A vector parameter cannot be (its lanes arrive
/// as separate parameters); that is reported.
fn address_taken_vectors(body: &Block, locals: &[Local], diags: &mut Vec<Diagnostic>) -> HashSet<LocalId> {
    let mut taken = Vec::new();
    crate::walk::for_each_expr(body, &mut |e| {
        if let K::AddrOf(inner) = &e.kind {
            let mut base = &**inner;
            while let K::Swizzle(b, _) = &base.kind {
                base = b;
            }
            if let K::Local(id) = base.kind
                && base.ty.is_vector()
            {
                taken.push((id, e.span));
            }
        }
    });
    let mut out = HashSet::new();
    for (id, span) in taken {
        let Some(local) = locals.get(id.0 as usize) else { continue };
        if local.is_param {
            diags.push(
                Diagnostic::error(
                    codes::UNSUPPORTED_VECTOR,
                    format!("taking the address of vector parameter `{}` is not yet supported by kiln", local.name),
                )
                .at(span)
                .with_help("copy it into a local variable first"),
            );
        } else {
            out.insert(id);
        }
    }
    out
}

fn lane_locals(locals: &mut Vec<Local>, of: &Local, s: Scalar, n: u8, is_param: bool) -> Vec<LocalId> {
    (0..n)
        .map(|j| {
            locals.push(Local {
                name: format!("{}.s{j:x}", of.name).into(),
                ty: Type::Scalar(s),
                space: of.space,
                quals: of.quals,
                is_param,
                partition: None,
                lane_of: is_param.then(|| hir::LaneOf { vector: of.name.clone(), ty: of.ty.clone(), index: j }),
                dependence_distance: None,
                span: of.span,
            });
            LocalId(locals.len() as u32 - 1)
        })
        .collect()
}

fn vec_shape(ty: &Type) -> Option<(Scalar, u8)> {
    match ty {
        Type::Vector(s, n) => Some((*s, *n)),
        _ => None,
    }
}

/// Lanes a vector occupies in memory (3-element vectors have a padding lane).
fn alloc_lanes(n: u8) -> u8 {
    if n == 3 { 4 } else { n }
}

/// Whether an expression needs rewriting: it or a part of it is a vector, or it is one of the
/// conversions this pass expands.
fn needs_rewrite(e: &Expr) -> bool {
    e.ty.is_vector()
        || matches!(
            e.kind,
            K::Swizzle(..)
                | K::VecLit(_)
                | K::ConvertSat(_)
                | K::Bitcast(_)
                | K::VLoad(..)
                | K::VStore { .. }
                | K::Shuffle(..)
                | K::Geometric(..)
        )
        || e.children().into_iter().any(needs_rewrite)
}

/// Lane `k & low` of `src`: a wire when `k` is a constant, otherwise a chain of selects that
/// synthesis turns into a multiplexer.
fn select_lane(src: &[Expr], k: Expr, low: u64, m: Scalar, s: Scalar, span: Span) -> Expr {
    if let Some(c) = k.as_int() {
        return src[(c & low) as usize].clone();
    }
    let key = binary(BinaryOp::And, k, int(low, m, span), m, span);
    let mut out = src[src.len() - 1].clone();
    for (j, lane) in src.iter().enumerate().rev().skip(1) {
        let hit = binary(BinaryOp::Eq, key.clone(), int(j as u64, m, span), m, span);
        out = mk(K::Cond(Box::new(hit), Box::new(lane.clone()), Box::new(out)), Type::Scalar(s), span);
    }
    out
}

fn int(v: u64, s: Scalar, span: Span) -> Expr {
    Expr::int(hir::normalize(v, s), Type::Scalar(s), span)
}

fn float(x: f32, span: Span) -> Expr {
    mk(K::Float(x as f64), Type::Scalar(Scalar::F32), span)
}

/// `convert_<T>_rtX` of one lane.
fn conv_round(e: Expr, to: Scalar, r: hir::Rounding) -> Expr {
    let span = e.span;
    mk(K::ConvertRound(Box::new(e), r), Type::Scalar(to), span)
}

/// The same bits as a scalar of another type of one size (`as_float(int)`).
fn same_bits(e: Expr, to: Scalar) -> Expr {
    let from = e.ty.scalar().unwrap_or(to);
    if from == to || (from.is_integer() && to.is_integer()) {
        return conv(e, to);
    }
    let span = e.span;
    mk(K::Bitcast(Box::new(e)), Type::Scalar(to), span)
}

fn mk(kind: K, ty: Type, span: Span) -> Expr {
    Expr { kind, ty, span }
}

/// Converts a scalar expression to scalar type `to`, folding constants.
fn conv(e: Expr, to: Scalar) -> Expr {
    if e.ty == Type::Scalar(to) {
        return e;
    }
    let span = e.span;
    if let (K::Int(v), true) = (&e.kind, to.is_integer()) {
        return int(*v, to, span);
    }
    mk(K::Convert(Box::new(e)), Type::Scalar(to), span)
}

fn binary(op: BinaryOp, a: Expr, b: Expr, ty: Scalar, span: Span) -> Expr {
    let ty = if op.is_comparison() { INT } else { Type::Scalar(ty) };
    mk(K::Binary(op, Box::new(a), Box::new(b)), ty, span)
}

/// `-(c != 0)` as a lane of type `to`: a comparison result of a vector operation.
fn mask_lane(c: Expr, to: Scalar, span: Span) -> Expr {
    conv(mk(K::Unary(UnaryOp::Neg, Box::new(c)), INT, span), to)
}

/// Whether the sign bit of an integer lane is set, as an `int` 0/1.
fn sign_set(x: Expr, span: Span) -> Expr {
    let s = x.ty.scalar().unwrap_or(Scalar::I32);
    let signed = conv(x, s.to_signed());
    binary(BinaryOp::Lt, signed, int(0, s.to_signed(), span), s.to_signed(), span)
}

/// `x` (of integer type `from`) converted to `to`, clamped to `to`'s range.
fn saturate(x: Expr, from: Scalar, to: Scalar, span: Span) -> Expr {
    let (fmin, fmax) = from.int_range();
    let (tmin, tmax) = to.int_range();
    let mut out = conv(x.clone(), to);
    if tmax < fmax {
        let hi = binary(BinaryOp::Gt, x.clone(), int(tmax as u64, from, span), from, span);
        out = mk(K::Cond(Box::new(hi), Box::new(int(tmax as u64, to, span)), Box::new(out)), Type::Scalar(to), span);
    }
    if tmin > fmin {
        let lo = binary(BinaryOp::Lt, x, int(tmin as u64, from, span), from, span);
        out = mk(K::Cond(Box::new(lo), Box::new(int(tmin as u64, to, span)), Box::new(out)), Type::Scalar(to), span);
    }
    out
}

struct Splitter {
    locals: Vec<Local>,
    /// Vector variables and the scalar variables holding their lanes.
    split: HashMap<LocalId, Vec<LocalId>>,
    /// In a function returning a vector: the pointer parameters its lanes are returned through.
    ret_outs: Option<Vec<LocalId>>,
    diags: Vec<Diagnostic>,
}

impl Splitter {
    /// `in_memory`: vector variables whose address is taken; they stay whole, in memory.
    fn new(mut locals: Vec<Local>, mut split: HashMap<LocalId, Vec<LocalId>>, in_memory: &HashSet<LocalId>) -> Self {
        for i in 0..locals.len() {
            let id = LocalId(i as u32);
            if let Type::Vector(s, n) = locals[i].ty
                && !split.contains_key(&id)
                && !locals[i].is_param
                && !in_memory.contains(&id)
            {
                let local = locals[i].clone();
                let ids = lane_locals(&mut locals, &local, s, n, false);
                split.insert(id, ids);
            }
        }
        Splitter { locals, split, ret_outs: None, diags: Vec::new() }
    }

    fn error(&mut self, msg: String, span: Span) {
        self.diags.push(Diagnostic::error(codes::UNSUPPORTED_VECTOR, msg).at(span));
    }

    fn new_temp(&mut self, ty: Type, span: Span) -> LocalId {
        self.locals.push(Local {
            name: "vec.t".into(),
            ty,
            space: AddrSpace::Private,
            quals: Quals::default(),
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    /// Evaluates `e` once, here, into a temporary (constants and variables are used as they are).
    fn temp(&mut self, e: Expr, pre: &mut Block) -> Expr {
        if matches!(e.kind, K::Int(_)) || e.ty.is_void() {
            return e;
        }
        let span = e.span;
        let ty = e.ty.clone();
        let t = self.new_temp(ty.clone(), span);
        pre.push(Stmt::Decl(t, Some(Init::Expr(e)), span));
        mk(K::Local(t), ty, span)
    }

    fn temps(&mut self, lanes: Vec<Expr>, pre: &mut Block) -> Vec<Expr> {
        lanes.into_iter().map(|l| if matches!(l.kind, K::Local(_)) { l } else { self.temp(l, pre) }).collect()
    }

    /// Copies of the lanes' current values, taken before an assignment may change the variables
    /// they read (`v.zx = v.xz`).
    fn snapshot(&mut self, lanes: Vec<Expr>, pre: &mut Block) -> Vec<Expr> {
        lanes.into_iter().map(|l| self.temp(l, pre)).collect()
    }

    // ----- statements -----

    fn block(&mut self, b: &Block) -> Block {
        let mut out = Vec::new();
        for s in b {
            self.stmt(s, &mut out);
        }
        out
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Block) {
        match s {
            Stmt::Expr(e) => {
                if !needs_rewrite(e) {
                    out.push(s.clone());
                } else if e.ty.is_vector() {
                    self.lanes(e, out);
                } else {
                    let e = self.scalar(e, out);
                    out.push(Stmt::Expr(e));
                }
            }
            Stmt::Decl(id, init, span) => {
                if let Some(ids) = self.split.get(id).cloned() {
                    match init {
                        Some(init) => {
                            let ty = self.locals[id.0 as usize].ty.clone();
                            let lanes = self.init_lanes(init, &ty, out);
                            for (l, v) in ids.iter().zip(lanes) {
                                out.push(Stmt::Decl(*l, Some(Init::Expr(v)), *span));
                            }
                        }
                        None => ids.iter().for_each(|l| out.push(Stmt::Decl(*l, None, *span))),
                    }
                    return;
                }
                let ty = self.locals[id.0 as usize].ty.clone();
                let init = init.as_ref().map(|i| self.init(i, &ty, out));
                out.push(Stmt::Decl(*id, init, *span));
            }
            Stmt::If(c, t, e, span) => {
                let c = self.scalar(c, out);
                let (t, e) = (self.block(t), self.block(e));
                out.push(Stmt::If(c, t, e, *span));
            }
            Stmt::Loop(l) => {
                let mut l = (**l).clone();
                let mut init = self.block(&l.init);
                let hoist = |me: &mut Self, e: &Expr, init: &mut Block| -> Expr {
                    let mut pre = Vec::new();
                    let e2 = me.scalar(e, &mut pre);
                    me.as_expression(pre, e2, init)
                };
                let mut test_in_body = None;
                if let Some(c) = l.cond.as_ref().filter(|c| needs_rewrite(c)) {
                    let mut pre = Vec::new();
                    let c2 = self.scalar(&c.clone(), &mut pre);
                    if pre.iter().all(|s| matches!(s, Stmt::Decl(..) | Stmt::Expr(_))) {
                        l.cond = Some(self.as_expression(pre, c2, &mut init));
                    } else if l.kind != hir::LoopKind::DoWhile || !continues(&l.body) {
                        // The test needs statements (a vector `?:`, `&&` or `||` evaluates
                        // its later operands only when C does): it becomes `pre; if (!c) break;`
                        // at the top of the body (the end, for `do`), which is the same loop.
                        let span = c2.span;
                        let exit = mk(K::Unary(UnaryOp::LogNot, Box::new(c2)), INT, span);
                        pre.push(Stmt::If(exit, vec![Stmt::Break(span)], vec![], span));
                        test_in_body = Some(pre);
                        l.cond = None;
                    } else {
                        self.error(
                            "a `do`-`while` test with a vector `?:`, `&&` or `||`, in a loop whose body has `continue`, is not yet supported by kiln"
                                .into(),
                            c.span,
                        );
                    }
                }
                if let Some(st) = l.step.as_ref().filter(|c| needs_rewrite(c)) {
                    let st = st.clone();
                    l.step = Some(if st.ty.is_vector() {
                        let mut pre = Vec::new();
                        self.lanes(&st, &mut pre);
                        let void = mk(K::Comma(vec![]), Type::Void, st.span);
                        self.as_expression(pre, void, &mut init)
                    } else {
                        hoist(self, &st, &mut init)
                    });
                }
                l.init = init;
                l.body = self.block(&l.body);
                if let Some(test) = test_in_body {
                    if l.kind == hir::LoopKind::DoWhile {
                        l.body.extend(test);
                    } else {
                        l.body.splice(0..0, test);
                    }
                }
                out.push(Stmt::Loop(Box::new(l)));
            }
            Stmt::Switch(e, arms, span) => {
                let e = self.scalar(e, out);
                let arms = arms
                    .iter()
                    .map(|a| hir::SwitchArm { labels: a.labels.clone(), body: self.block(&a.body) })
                    .collect();
                out.push(Stmt::Switch(e, arms, *span));
            }
            Stmt::Return(Some(e), span) if needs_rewrite(e) => {
                if e.ty.is_vector() {
                    let lanes = self.lanes(e, out);
                    let lanes = self.temps(lanes, out);
                    for (out_ptr, lane) in self.ret_outs.clone().unwrap_or_default().into_iter().zip(lanes) {
                        let ptr_ty = self.locals[out_ptr.0 as usize].ty.clone();
                        let target =
                            mk(K::Deref(Box::new(mk(K::Local(out_ptr), ptr_ty, *span))), lane.ty.clone(), *span);
                        let ty = lane.ty.clone();
                        out.push(Stmt::Expr(mk(K::Assign(Box::new(target), Box::new(lane)), ty, *span)));
                    }
                    out.push(Stmt::Return(None, *span));
                    return;
                }
                let e = self.scalar(e, out);
                out.push(Stmt::Return(Some(e), *span));
            }
            Stmt::Block(b) => {
                let b = self.block(b);
                out.push(Stmt::Block(b));
            }
            _ => out.push(s.clone()),
        }
    }

    /// Turns statements computed for a loop test or step into one expression: the temporaries
    /// are declared before the loop and assigned in a comma expression.
    fn as_expression(&mut self, pre: Block, last: Expr, decls: &mut Block) -> Expr {
        let span = last.span;
        let mut items = Vec::new();
        for s in pre {
            match s {
                Stmt::Decl(t, Some(Init::Expr(e)), sp) => {
                    decls.push(Stmt::Decl(t, None, sp));
                    let ty = e.ty.clone();
                    items.push(mk(K::Assign(Box::new(mk(K::Local(t), ty.clone(), sp)), Box::new(e)), ty, sp));
                }
                Stmt::Decl(t, None, sp) => decls.push(Stmt::Decl(t, None, sp)),
                Stmt::Expr(e) => items.push(e),
                _ => {
                    self.error(
                        "a loop test or step with a vector `?:`, `&&` or `||` that needs statements is not yet supported by kiln"
                            .into(),
                        span,
                    );
                }
            }
        }
        if items.is_empty() {
            return last;
        }
        let ty = last.ty.clone();
        items.push(last);
        mk(K::Comma(items), ty, span)
    }

    /// An initializer for an object of type `ty` with its vectors as lane lists.
    fn init(&mut self, init: &Init, ty: &Type, pre: &mut Block) -> Init {
        match (init, ty) {
            (Init::Expr(e), Type::Vector(s, n)) => {
                let mut lanes = self.init_lanes(&Init::Expr(e.clone()), ty, pre);
                lanes.resize(alloc_lanes(*n) as usize, int(0, *s, e.span));
                Init::List(lanes.into_iter().map(Init::Expr).collect())
            }
            (Init::List(items), Type::Vector(s, n)) => {
                let mut lanes = self.init_lanes(init, ty, pre);
                let span = items.first().map(init_span).unwrap_or_default();
                lanes.resize(alloc_lanes(*n) as usize, int(0, *s, span));
                Init::List(lanes.into_iter().map(Init::Expr).collect())
            }
            (Init::List(items), Type::Array(elem, _)) => {
                Init::List(items.iter().map(|i| self.init(i, elem, pre)).collect())
            }
            (Init::Expr(e), _) if needs_rewrite(e) => Init::Expr(self.scalar(e, pre)),
            _ => init.clone(),
        }
    }

    /// The lanes a vector initializer gives (a brace list of scalars, or a vector expression).
    fn init_lanes(&mut self, init: &Init, ty: &Type, pre: &mut Block) -> Vec<Expr> {
        let Some((s, n)) = vec_shape(ty) else { return vec![] };
        match init {
            // Records are split before vectors: no union initializer is left here.
            Init::Union(_, i) => self.init_lanes(i, ty, pre),
            Init::Expr(e) if e.ty.is_vector() => self.lanes(e, pre),
            Init::Expr(e) => {
                let x = self.scalar(e, pre);
                let t = self.temp(conv(x, s), pre);
                vec![t; n as usize]
            }
            Init::List(items) => {
                let mut out = Vec::new();
                for i in items {
                    match i {
                        Init::Expr(e) if e.ty.is_vector() => out.extend(self.lanes(e, pre)),
                        Init::Expr(e) => {
                            let x = self.scalar(e, pre);
                            out.push(conv(x, s));
                        }
                        Init::List(_) | Init::Union(..) => out.extend(self.init_lanes(i, ty, pre)),
                    }
                }
                out.resize(n as usize, int(0, s, Span::default()));
                out.truncate(n as usize);
                out
            }
        }
    }

    // ----- scalar expressions that contain vector work -----

    fn scalar(&mut self, e: &Expr, pre: &mut Block) -> Expr {
        if !needs_rewrite(e) {
            return e.clone();
        }
        let span = e.span;
        let ty = e.ty.clone();
        let rebuild = |kind: K| mk(kind, ty.clone(), span);
        match &e.kind {
            K::Swizzle(..) => {
                let mut lanes = self.lanes(e, pre);
                lanes.pop().unwrap_or_else(|| int(0, Scalar::I32, span))
            }
            K::ConvertSat(x) => {
                let (from, to) = (x.ty.scalar().unwrap_or(Scalar::I32), ty.scalar().unwrap_or(Scalar::I32));
                let x = self.scalar(x, pre);
                let x = self.temp(x, pre);
                saturate(x, from, to, span)
            }
            K::Bitcast(x) => {
                let src = if x.ty.is_vector() { self.lanes(x, pre) } else { vec![self.scalar(x, pre)] };
                let mut out = self.reinterpret(src, &x.ty, &ty, pre, span);
                out.pop().unwrap_or_else(|| int(0, Scalar::I32, span))
            }
            K::VStore { data, offset, ptr } => {
                let d = self.lanes(data, pre);
                let d = self.temps(d, pre);
                let (p, base) = self.element_pointer(ptr, offset, d.len() as u8, pre);
                for (j, v) in d.into_iter().enumerate() {
                    let place = self.element(&p, &base, j as u64, span);
                    let vt = v.ty.clone();
                    pre.push(Stmt::Expr(mk(K::Assign(Box::new(place), Box::new(v)), vt, span)));
                }
                mk(K::Comma(vec![]), Type::Void, span)
            }
            K::IntBuiltin(b @ (IntBuiltin::Any | IntBuiltin::All), args) if args[0].ty.is_vector() => {
                let lanes = self.lanes(&args[0], pre);
                let op = if *b == IntBuiltin::Any { BinaryOp::Or } else { BinaryOp::And };
                let mut acc: Option<Expr> = None;
                for l in lanes {
                    let bit = sign_set(l, span);
                    acc = Some(match acc {
                        None => bit,
                        Some(a) => binary(op, a, bit, Scalar::I32, span),
                    });
                }
                acc.unwrap_or_else(|| int(0, Scalar::I32, span))
            }
            K::Assign(l, r) => {
                let r = self.scalar(r, pre);
                let l = self.scalar_place(l, pre);
                rebuild(K::Assign(Box::new(l), Box::new(r)))
            }
            K::CompoundAssign { op, lhs, rhs, op_ty } => {
                let r = self.scalar(rhs, pre);
                let l = self.scalar_place(lhs, pre);
                rebuild(K::CompoundAssign { op: *op, lhs: Box::new(l), rhs: Box::new(r), op_ty: op_ty.clone() })
            }
            K::IncDec { target, increment, prefix } => {
                let t = self.scalar_place(target, pre);
                rebuild(K::IncDec { target: Box::new(t), increment: *increment, prefix: *prefix })
            }
            K::AddrOf(x) => {
                let x = self.scalar_place(x, pre);
                rebuild(K::AddrOf(Box::new(x)))
            }
            K::LogAnd(a, b) | K::LogOr(a, b) => {
                let a = self.scalar(a, pre);
                let mut inner = Vec::new();
                let b2 = self.scalar(b, &mut inner);
                if inner.is_empty() {
                    return rebuild(match &e.kind {
                        K::LogAnd(..) => K::LogAnd(Box::new(a), Box::new(b2)),
                        _ => K::LogOr(Box::new(a), Box::new(b2)),
                    });
                }
                // `t = a != 0; if (t) t = b != 0;` (for `||`: `if (!t)`).
                let is_and = matches!(e.kind, K::LogAnd(..));
                let t = self.temp(truth(a, span), pre);
                inner.push(Stmt::Expr(mk(K::Assign(Box::new(t.clone()), Box::new(truth(b2, span))), INT, span)));
                let test =
                    if is_and { t.clone() } else { mk(K::Unary(UnaryOp::LogNot, Box::new(t.clone())), INT, span) };
                pre.push(Stmt::If(test, inner, vec![], span));
                t
            }
            K::Cond(c, a, b) => {
                let c = self.scalar(c, pre);
                let (mut pa, mut pb) = (Vec::new(), Vec::new());
                let a2 = self.scalar(a, &mut pa);
                let b2 = self.scalar(b, &mut pb);
                if pa.is_empty() && pb.is_empty() {
                    return rebuild(K::Cond(Box::new(c), Box::new(a2), Box::new(b2)));
                }
                if ty.is_void() {
                    pa.push(Stmt::Expr(a2));
                    pb.push(Stmt::Expr(b2));
                    pre.push(Stmt::If(c, pa, pb, span));
                    return mk(K::Comma(vec![]), Type::Void, span);
                }
                let t = self.new_temp(ty.clone(), span);
                let tv = mk(K::Local(t), ty.clone(), span);
                pa.push(Stmt::Expr(mk(K::Assign(Box::new(tv.clone()), Box::new(a2)), ty.clone(), span)));
                pb.push(Stmt::Expr(mk(K::Assign(Box::new(tv.clone()), Box::new(b2)), ty.clone(), span)));
                pre.push(Stmt::Decl(t, None, span));
                pre.push(Stmt::If(c, pa, pb, span));
                tv
            }
            K::Comma(items) => {
                let mut out = Vec::new();
                for (i, x) in items.iter().enumerate() {
                    let last = i + 1 == items.len();
                    if x.ty.is_vector() {
                        let lanes = self.lanes(x, pre);
                        if last {
                            return lanes.into_iter().next().unwrap_or_else(|| int(0, Scalar::I32, span));
                        }
                    } else if last {
                        out.push(self.scalar(x, pre));
                    } else {
                        let x = self.scalar(x, pre);
                        pre.push(Stmt::Expr(x));
                    }
                }
                rebuild(K::Comma(out))
            }
            K::Call(f, args) => {
                let args = self.call_args(args, pre);
                rebuild(K::Call(*f, args))
            }
            K::Printf(format, args) => {
                let args = args.iter().map(|a| self.scalar(a, pre)).collect();
                rebuild(K::Printf(format.clone(), args))
            }
            // Every other scalar node: rewrite the children in order.
            K::Deref(a) => rebuild(K::Deref(Box::new(self.scalar(a, pre)))),
            K::Member(a, i) => rebuild(K::Member(Box::new(self.scalar(a, pre)), *i)),
            K::Unary(op, a) => rebuild(K::Unary(*op, Box::new(self.scalar(a, pre)))),
            K::Convert(a) => rebuild(K::Convert(Box::new(self.scalar(a, pre)))),
            K::PtrCast(a) => rebuild(K::PtrCast(Box::new(self.scalar(a, pre)))),
            K::ToAddressSpace(a) => rebuild(K::ToAddressSpace(Box::new(self.scalar(a, pre)))),
            K::Decay(a) => rebuild(K::Decay(Box::new(self.scalar(a, pre)))),
            K::Binary(op, a, b) => {
                let a = self.scalar(a, pre);
                rebuild(K::Binary(*op, Box::new(a), Box::new(self.scalar(b, pre))))
            }
            K::PtrAdd(a, b) => {
                let a = self.scalar(a, pre);
                rebuild(K::PtrAdd(Box::new(a), Box::new(self.scalar(b, pre))))
            }
            K::PtrDiff(a, b) => {
                let a = self.scalar(a, pre);
                rebuild(K::PtrDiff(Box::new(a), Box::new(self.scalar(b, pre))))
            }
            K::PtrCmp(op, a, b) => {
                let a = self.scalar(a, pre);
                rebuild(K::PtrCmp(*op, Box::new(a), Box::new(self.scalar(b, pre))))
            }
            K::PtrCompoundAssign { sub, lhs, rhs } => {
                let r = self.scalar(rhs, pre);
                let l = self.scalar_place(lhs, pre);
                rebuild(K::PtrCompoundAssign { sub: *sub, lhs: Box::new(l), rhs: Box::new(r) })
            }
            K::IntBuiltin(b, args) => {
                let args = args.iter().map(|a| self.scalar(a, pre)).collect();
                rebuild(K::IntBuiltin(*b, args))
            }
            K::FloatBuiltin(b, args) => {
                let args = args.iter().map(|a| self.scalar(a, pre)).collect();
                rebuild(K::FloatBuiltin(*b, args))
            }
            K::ConvertRound(a, r) => rebuild(K::ConvertRound(Box::new(self.scalar(a, pre)), *r)),
            K::Geometric(g, args) => {
                let mut l = self.geometric(*g, args, 1, pre, span);
                l.pop().unwrap_or_else(|| int(0, Scalar::I32, span))
            }
            K::Atomic { op, ptr, args } => {
                let ptr = self.scalar(ptr, pre);
                let args = args.iter().map(|a| self.scalar(a, pre)).collect();
                rebuild(K::Atomic { op: *op, ptr: Box::new(ptr), args })
            }
            K::VLoad(..) | K::VecLit(_) | K::Shuffle(..) => {
                let mut l = self.lanes(e, pre);
                l.pop().unwrap_or_else(|| int(0, Scalar::I32, span))
            }
            // A transfer of a vector packet moves its lanes.
            K::PipeRead { pipe, blocking, dests, ok } => {
                let pipe = self.pipe_ref(pipe, pre);
                let dests = dests
                    .iter()
                    .flat_map(|d| if d.ty.is_vector() { self.place(d, pre) } else { vec![self.scalar_place(d, pre)] })
                    .collect();
                let ok = ok.as_ref().map(|o| Box::new(self.scalar_place(o, pre)));
                rebuild(K::PipeRead { pipe, blocking: *blocking, dests, ok })
            }
            K::PipeWrite { pipe, blocking, values } => {
                let pipe = self.pipe_ref(pipe, pre);
                let values = values.iter().flat_map(|v| self.lanes(v, pre)).collect();
                rebuild(K::PipeWrite { pipe, blocking: *blocking, values })
            }
            K::PipeQuery { pipe, max } => rebuild(K::PipeQuery { pipe: self.pipe_ref(pipe, pre), max: *max }),
            // Rewritten into transfers before the vector split (`reserve`).
            K::PipeReserve { .. } | K::PipeReserved { .. } | K::PipeCommit { .. } => e.clone(),
            // Rewritten into `__local` memory and barriers before the vector split
            // (`collectives`); their operands are scalars.
            K::WorkGroup(..) | K::AsyncCopy { .. } => e.clone(),
            K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) | K::WorkItem(..) | K::Barrier => e.clone(),
        }
    }

    /// A pipe reference with its channel index (a scalar) rewritten.
    fn pipe_ref(&mut self, r: &hir::PipeRef, pre: &mut Block) -> hir::PipeRef {
        match r {
            hir::PipeRef::Global(g, Some(i)) => hir::PipeRef::Global(*g, Some(Box::new(self.scalar(i, pre)))),
            other => other.clone(),
        }
    }

    /// The arguments of a call, with vector arguments passed as their lanes.
    fn call_args(&mut self, args: &[Expr], pre: &mut Block) -> Vec<Expr> {
        let mut out = Vec::new();
        for a in args {
            if a.ty.is_vector() {
                let lanes = self.lanes(a, pre);
                out.extend(self.temps(lanes, pre));
            } else {
                let x = self.scalar(a, pre);
                out.push(x);
            }
        }
        out
    }

    /// A scalar l-value, where a lane of a vector becomes the lane's own variable or element.
    fn scalar_place(&mut self, e: &Expr, pre: &mut Block) -> Expr {
        match &e.kind {
            K::Swizzle(..) => {
                let mut p = self.place(e, pre);
                p.pop().unwrap_or_else(|| int(0, Scalar::I32, e.span))
            }
            K::Deref(p) => {
                let p = self.scalar(p, pre);
                mk(K::Deref(Box::new(p)), e.ty.clone(), e.span)
            }
            K::Member(b, i) => {
                let b = self.scalar_place(b, pre);
                mk(K::Member(Box::new(b), *i), e.ty.clone(), e.span)
            }
            _ => self.scalar(e, pre),
        }
    }

    // ----- vector expressions -----

    /// A pointer to the element type of the vector `*p` points to, evaluated once.
    fn lane_pointer(&mut self, p: &Expr, pre: &mut Block) -> (Expr, Scalar, u8) {
        let (s, n) = p.ty.pointee().and_then(|pt| vec_shape(&pt.ty)).unwrap_or((Scalar::I32, 1));
        let quals = p.ty.pointee().map(|pt| (pt.space, pt.quals)).unwrap_or((AddrSpace::Private, Quals::default()));
        let p2 = self.scalar(p, pre);
        let p2 = self.temp(p2, pre);
        let to = Type::Pointer(Rc::new(Pointee { ty: Type::Scalar(s), space: quals.0, quals: quals.1 }));
        let span = p.span;
        (mk(K::PtrCast(Box::new(p2)), to, span), s, n)
    }

    /// Element `j` past a scalar pointer `p` (plus an optional element index `base`).
    fn element(&self, p: &Expr, base: &Option<Expr>, j: u64, span: Span) -> Expr {
        let s = p.ty.pointee().and_then(|pt| pt.ty.scalar()).unwrap_or(Scalar::I32);
        let idx = match base {
            Some(b) if j == 0 => b.clone(),
            Some(b) => binary(BinaryOp::Add, b.clone(), Expr::int(j, SIZE_T, span), Scalar::U32, span),
            None => Expr::int(j, SIZE_T, span),
        };
        let at = mk(K::PtrAdd(Box::new(p.clone()), Box::new(idx)), p.ty.clone(), span);
        mk(K::Deref(Box::new(at)), Type::Scalar(s), span)
    }

    /// `vloadN`/`vstoreN` addressing: the pointer and the first element's index `offset * N`.
    fn element_pointer(&mut self, ptr: &Expr, offset: &Expr, n: u8, pre: &mut Block) -> (Expr, Option<Expr>) {
        let p = self.scalar(ptr, pre);
        let p = self.temp(p, pre);
        let o = self.scalar(offset, pre);
        let span = offset.span;
        let base = binary(BinaryOp::Mul, o, Expr::int(n as u64, SIZE_T, span), Scalar::U32, span);
        let base = self.temp(base, pre);
        (p, Some(base))
    }

    /// The lanes of a vector l-value, as scalar l-values that can be used more than once.
    fn place(&mut self, e: &Expr, pre: &mut Block) -> Vec<Expr> {
        let span = e.span;
        match &e.kind {
            K::Local(id) => match self.split.get(id) {
                Some(ids) => ids.iter().map(|l| mk(K::Local(*l), self.locals[l.0 as usize].ty.clone(), span)).collect(),
                // A vector kept in memory: its lanes are consecutive elements there.
                None => {
                    let Some((s, n)) = vec_shape(&e.ty) else { return vec![] };
                    let lp = self.lane_base(e, s, AddrSpace::Private, span);
                    (0..n as u64).map(|j| self.element(&lp, &None, j, span)).collect()
                }
            },
            K::Deref(p) => {
                let (lp, _, n) = self.lane_pointer(p, pre);
                (0..n as u64).map(|j| self.element(&lp, &None, j, span)).collect()
            }
            K::Global(g) => {
                // A program-scope vector: its lanes are consecutive elements of its memory.
                let Some((s, n)) = vec_shape(&e.ty) else { return vec![] };
                let _ = g;
                let lp = self.lane_base(e, s, AddrSpace::Constant, span);
                (0..n as u64).map(|j| self.element(&lp, &None, j, span)).collect()
            }
            K::Swizzle(b, idx) => {
                let base = self.place(b, pre);
                idx.iter()
                    .map(|&i| base.get(i as usize).cloned().unwrap_or_else(|| int(0, Scalar::I32, span)))
                    .collect()
            }
            _ => {
                self.error("kiln cannot assign to this vector expression".into(), span);
                vec![]
            }
        }
    }

    /// A pointer to lane 0 of the vector object `e` (a variable in memory).
    fn lane_base(&self, e: &Expr, s: Scalar, space: AddrSpace, span: Span) -> Expr {
        let to = Type::Pointer(Rc::new(Pointee { ty: Type::Scalar(s), space, quals: Quals::default() }));
        let vp = Type::Pointer(Rc::new(Pointee { ty: e.ty.clone(), space, quals: Quals::default() }));
        let addr = mk(K::AddrOf(Box::new(e.clone())), vp, span);
        mk(K::PtrCast(Box::new(addr)), to, span)
    }

    /// The lanes of a vector expression: pure scalar expressions, one per lane.
    fn lanes(&mut self, e: &Expr, pre: &mut Block) -> Vec<Expr> {
        let span = e.span;
        let (s, n) = match (&e.ty, &e.kind) {
            (Type::Vector(s, n), _) => (*s, *n),
            // A one-lane swizzle is a scalar.
            (Type::Scalar(s), K::Swizzle(..)) => (*s, 1),
            _ => return vec![self.scalar(e, pre)],
        };
        let n = n as usize;
        match &e.kind {
            K::Local(id) if self.split.contains_key(id) => self.place(e, pre),
            K::Local(_) | K::Deref(_) | K::Global(_) => {
                let p = self.place(e, pre);
                self.temps(p, pre)
            }
            K::Swizzle(b, idx) => {
                let mut base = self.lanes(b, pre);
                let bs = vec_shape(&b.ty).map(|x| x.0).unwrap_or(s);
                base.resize(4.max(base.len()), int(0, bs, span));
                idx.iter().map(|&i| base.get(i as usize).cloned().unwrap_or_else(|| int(0, s, span))).collect()
            }
            K::VecLit(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    if p.ty.is_vector() {
                        out.extend(self.lanes(p, pre));
                    } else {
                        let x = self.scalar(p, pre);
                        out.push(self.temp(conv(x, s), pre));
                    }
                }
                out
            }
            K::Shuffle(sources, mask) => {
                let mut src = Vec::new();
                for x in sources {
                    let l = self.lanes(x, pre);
                    src.extend(self.temps(l, pre));
                }
                let m = vec_shape(&mask.ty).map(|v| v.0).unwrap_or(Scalar::U32);
                let mask = self.lanes(mask, pre);
                let mask = self.temps(mask, pre);
                // Only the low log2(lanes) bits of a mask lane count (§6.15.14).
                let low = src.len() as u64 - 1;
                mask.into_iter().map(|k| select_lane(&src, k, low, m, s, span)).collect()
            }
            K::Convert(x) if !x.ty.is_vector() => {
                let v = self.scalar(x, pre);
                let v = self.temp(conv(v, s), pre);
                vec![v; n]
            }
            K::Convert(x) => self.lanes(x, pre).into_iter().map(|l| conv(l, s)).collect(),
            K::ConvertSat(x) => {
                let from = vec_shape(&x.ty).map(|v| v.0).unwrap_or(s);
                let lanes = self.lanes(x, pre);
                let lanes = self.temps(lanes, pre);
                lanes.into_iter().map(|l| saturate(l, from, s, span)).collect()
            }
            K::Bitcast(x) => {
                let src = if x.ty.is_vector() { self.lanes(x, pre) } else { vec![self.scalar(x, pre)] };
                let mut out = self.reinterpret(src, &x.ty, &e.ty, pre, span);
                out.truncate(n);
                out
            }
            K::Unary(op, x) => {
                let from = vec_shape(&x.ty).map(|v| v.0).unwrap_or(s);
                let lanes = self.lanes(x, pre);
                lanes
                    .into_iter()
                    .map(|l| match op {
                        UnaryOp::LogNot => mask_lane(binary(BinaryOp::Eq, l, int(0, from, span), from, span), s, span),
                        _ => mk(K::Unary(*op, Box::new(l)), Type::Scalar(s), span),
                    })
                    .collect()
            }
            K::Binary(op, a, b) => {
                let from = vec_shape(&a.ty).map(|v| v.0).unwrap_or(s);
                let la = self.lanes(a, pre);
                let lb = self.lanes(b, pre);
                la.into_iter()
                    .zip(lb)
                    .map(|(x, y)| {
                        if op.is_comparison() {
                            mask_lane(binary(*op, x, y, from, span), s, span)
                        } else if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                            binary(*op, x, conv(y, s), s, span)
                        } else {
                            binary(*op, x, y, s, span)
                        }
                    })
                    .collect()
            }
            K::LogAnd(a, b) | K::LogOr(a, b) => {
                let from = vec_shape(&a.ty).map(|v| v.0).unwrap_or(s);
                let op = if matches!(e.kind, K::LogAnd(..)) { BinaryOp::And } else { BinaryOp::Or };
                let la = self.lanes(a, pre);
                let lb = self.lanes(b, pre);
                la.into_iter()
                    .zip(lb)
                    .map(|(x, y)| {
                        let x = binary(BinaryOp::Ne, x, int(0, from, span), from, span);
                        let y = binary(BinaryOp::Ne, y, int(0, from, span), from, span);
                        mask_lane(binary(op, x, y, Scalar::I32, span), s, span)
                    })
                    .collect()
            }
            K::Cond(c, a, b) if c.ty.is_vector() => {
                let lc = self.lanes(c, pre);
                let la = self.lanes(a, pre);
                let lb = self.lanes(b, pre);
                lc.into_iter()
                    .zip(la.into_iter().zip(lb))
                    .map(|(c, (x, y))| {
                        let test = sign_set(c, span);
                        mk(K::Cond(Box::new(test), Box::new(x), Box::new(y)), Type::Scalar(s), span)
                    })
                    .collect()
            }
            K::Cond(c, a, b) => {
                let c = self.scalar(c, pre);
                let (mut pa, mut pb) = (Vec::new(), Vec::new());
                let la = self.lanes(a, &mut pa);
                let lb = self.lanes(b, &mut pb);
                if pa.is_empty() && pb.is_empty() {
                    let c = self.temp(c, pre);
                    return la
                        .into_iter()
                        .zip(lb)
                        .map(|(x, y)| mk(K::Cond(Box::new(c.clone()), Box::new(x), Box::new(y)), Type::Scalar(s), span))
                        .collect();
                }
                let ts: Vec<LocalId> = (0..n).map(|_| self.new_temp(Type::Scalar(s), span)).collect();
                for (i, t) in ts.iter().enumerate() {
                    pre.push(Stmt::Decl(*t, None, span));
                    let tv = mk(K::Local(*t), Type::Scalar(s), span);
                    let (x, y) = (la[i].clone(), lb[i].clone());
                    pa.push(Stmt::Expr(mk(K::Assign(Box::new(tv.clone()), Box::new(x)), Type::Scalar(s), span)));
                    pb.push(Stmt::Expr(mk(K::Assign(Box::new(tv), Box::new(y)), Type::Scalar(s), span)));
                }
                pre.push(Stmt::If(c, pa, pb, span));
                ts.iter().map(|t| mk(K::Local(*t), Type::Scalar(s), span)).collect()
            }
            K::Assign(l, r) => {
                let rl = self.lanes(r, pre);
                let rl = self.snapshot(rl, pre);
                let pl = self.place(l, pre);
                for (p, v) in pl.into_iter().zip(&rl) {
                    pre.push(Stmt::Expr(mk(K::Assign(Box::new(p), Box::new(v.clone())), Type::Scalar(s), span)));
                }
                rl
            }
            K::CompoundAssign { op, lhs, rhs, op_ty } => {
                let os = vec_shape(op_ty).map(|v| v.0).unwrap_or(s);
                let rl = self.lanes(rhs, pre);
                let rl = self.snapshot(rl, pre);
                let pl = self.place(lhs, pre);
                let mut out = Vec::new();
                for (p, v) in pl.into_iter().zip(rl) {
                    let ca = K::CompoundAssign { op: *op, lhs: Box::new(p), rhs: Box::new(v), op_ty: Type::Scalar(os) };
                    out.push(self.temp(mk(ca, Type::Scalar(s), span), pre));
                }
                out
            }
            K::IncDec { target, increment, prefix } => {
                let pl = self.place(target, pre);
                pl.into_iter()
                    .map(|p| {
                        let k = K::IncDec { target: Box::new(p), increment: *increment, prefix: *prefix };
                        self.temp(mk(k, Type::Scalar(s), span), pre)
                    })
                    .collect()
            }
            K::Comma(items) => {
                let (last, rest) = match items.split_last() {
                    Some(x) => x,
                    None => return vec![],
                };
                for x in rest {
                    if x.ty.is_vector() {
                        self.lanes(x, pre);
                    } else {
                        let x = self.scalar(x, pre);
                        pre.push(Stmt::Expr(x));
                    }
                }
                self.lanes(last, pre)
            }
            K::VLoad(offset, ptr) => {
                let (p, base) = self.element_pointer(ptr, offset, n as u8, pre);
                let l: Vec<Expr> = (0..n as u64).map(|j| self.element(&p, &base, j, span)).collect();
                self.temps(l, pre)
            }
            K::IntBuiltin(b, args) => self.builtin_lanes(*b, args, s, n, pre, span),
            K::FloatBuiltin(b, args) => self.float_builtin_lanes(*b, args, s, n, pre, span),
            K::ConvertRound(x, r) => self.lanes(x, pre).into_iter().map(|l| conv_round(l, s, *r)).collect(),
            K::Geometric(g, args) => self.geometric(*g, args, n, pre, span),
            // A blocking read of a vector packet as a value: into zeroed temporaries.
            K::PipeRead { pipe, blocking, dests, ok } if dests.is_empty() => {
                let pipe = self.pipe_ref(pipe, pre);
                let ok = ok.as_ref().map(|o| Box::new(self.scalar_place(o, pre)));
                let temps: Vec<Expr> = (0..n)
                    .map(|_| {
                        let t = self.new_temp(Type::Scalar(s), span);
                        pre.push(Stmt::Decl(t, Some(Init::Expr(int(0, s, span))), span));
                        mk(K::Local(t), Type::Scalar(s), span)
                    })
                    .collect();
                let read = K::PipeRead { pipe, blocking: *blocking, dests: temps.clone(), ok };
                pre.push(Stmt::Expr(mk(read, Type::Void, span)));
                temps
            }
            K::Call(f, args) => {
                let mut args = self.call_args(args, pre);
                let mut lanes = Vec::new();
                for _ in 0..n {
                    let t = self.new_temp(Type::Scalar(s), span);
                    pre.push(Stmt::Decl(t, None, span));
                    let tv = mk(K::Local(t), Type::Scalar(s), span);
                    let ptr_ty = Type::pointer_to(Type::Scalar(s), AddrSpace::Private, Quals::default());
                    args.push(mk(K::AddrOf(Box::new(tv.clone())), ptr_ty, span));
                    lanes.push(tv);
                }
                pre.push(Stmt::Expr(mk(K::Call(*f, args), Type::Void, span)));
                lanes
            }
            _ => {
                self.error("kiln cannot build this vector expression yet".into(), span);
                vec![int(0, s, span); n]
            }
        }
    }

    fn builtin_lanes(
        &mut self,
        b: IntBuiltin,
        args: &[Expr],
        s: Scalar,
        n: usize,
        pre: &mut Block,
        span: Span,
    ) -> Vec<Expr> {
        let per_arg = self.arg_lanes(args, n, pre);
        (0..n)
            .map(|i| {
                let lane_args: Vec<Expr> = per_arg.iter().map(|l| l[i].clone()).collect();
                if b == IntBuiltin::Select {
                    // `select(a, b, c)`: each lane is `b` where `c`'s sign bit is set, else `a`.
                    let test = sign_set(lane_args[2].clone(), span);
                    let (x, y) = (lane_args[1].clone(), lane_args[0].clone());
                    return mk(K::Cond(Box::new(test), Box::new(x), Box::new(y)), Type::Scalar(s), span);
                }
                mk(K::IntBuiltin(b, lane_args), Type::Scalar(s), span)
            })
            .collect()
    }

    /// The lanes of each argument of a built-in call, evaluated once into temporaries; a scalar
    /// argument of a vector call (`min(v, 3)`) applies to every lane.
    fn arg_lanes(&mut self, args: &[Expr], n: usize, pre: &mut Block) -> Vec<Vec<Expr>> {
        let mut per_arg = Vec::new();
        for a in args {
            if a.ty.is_vector() {
                let l = self.lanes(a, pre);
                per_arg.push(self.temps(l, pre));
            } else {
                let x = self.scalar(a, pre);
                let x = self.temp(x, pre);
                per_arg.push(vec![x; n]);
            }
        }
        per_arg
    }

    fn float_builtin_lanes(
        &mut self,
        b: FloatBuiltin,
        args: &[Expr],
        s: Scalar,
        n: usize,
        pre: &mut Block,
        span: Span,
    ) -> Vec<Expr> {
        let per_arg = self.arg_lanes(args, n, pre);
        (0..n)
            .map(|i| {
                let lane_args: Vec<Expr> = per_arg.iter().map(|l| l[i].clone()).collect();
                match b {
                    // Vector relational results are -1/0 per lane.
                    FloatBuiltin::Relation(_) | FloatBuiltin::Class(_) => {
                        mask_lane(mk(K::FloatBuiltin(b, lane_args), INT, span), s, span)
                    }
                    // Vector `select` picks by the sign bit of each lane of `c`.
                    FloatBuiltin::Select => {
                        let test = sign_set(lane_args[2].clone(), span);
                        let (x, y) = (lane_args[1].clone(), lane_args[0].clone());
                        mk(K::Cond(Box::new(test), Box::new(x), Box::new(y)), Type::Scalar(s), span)
                    }
                    _ => mk(K::FloatBuiltin(b, lane_args), Type::Scalar(s), span),
                }
            })
            .collect()
    }

    /// A geometric built-in expanded into lane operations; `n` is the result's lane count (1 for
    /// `dot`, `length` and `distance`). `dot` adds the products in lane order.
    fn geometric(&mut self, g: Geometric, args: &[Expr], n: usize, pre: &mut Block, span: Span) -> Vec<Expr> {
        let f = Scalar::F32;
        let mut ls: Vec<Vec<Expr>> = Vec::new();
        for a in args {
            let l = if a.ty.is_vector() { self.lanes(a, pre) } else { vec![self.scalar(a, pre)] };
            ls.push(self.temps(l, pre));
        }
        let fb = |b: FloatBuiltin, xs: Vec<Expr>| mk(K::FloatBuiltin(b, xs), Type::Scalar(f), span);
        let dot = |xs: &[Expr], ys: &[Expr]| -> Expr {
            let mut acc: Option<Expr> = None;
            for (x, y) in xs.iter().zip(ys) {
                let p = binary(BinaryOp::Mul, x.clone(), y.clone(), f, span);
                acc = Some(match acc {
                    None => p,
                    Some(a) => binary(BinaryOp::Add, a, p, f, span),
                });
            }
            acc.unwrap_or_else(|| float(0.0, span))
        };
        match g {
            Geometric::Dot => vec![dot(&ls[0], &ls[1])],
            Geometric::Length => vec![fb(FloatBuiltin::Op(FloatOp::Sqrt), vec![dot(&ls[0], &ls[0])])],
            Geometric::Distance => {
                let d: Vec<Expr> = ls[0]
                    .iter()
                    .zip(&ls[1])
                    .map(|(x, y)| binary(BinaryOp::Sub, x.clone(), y.clone(), f, span))
                    .collect();
                let d = self.temps(d, pre);
                vec![fb(FloatBuiltin::Op(FloatOp::Sqrt), vec![dot(&d, &d)])]
            }
            Geometric::Normalize => {
                // A zero vector is returned unchanged (§6.15.5).
                let x = &ls[0];
                let sq = self.temp(dot(x, x), pre);
                let r = self.temp(fb(FloatBuiltin::Op(FloatOp::Rsqrt), vec![sq.clone()]), pre);
                let zero = binary(BinaryOp::Eq, sq, float(0.0, span), f, span);
                let zero = self.temp(zero, pre);
                x.iter()
                    .map(|l| {
                        let scaled = binary(BinaryOp::Mul, l.clone(), r.clone(), f, span);
                        mk(
                            K::Cond(Box::new(zero.clone()), Box::new(l.clone()), Box::new(scaled)),
                            Type::Scalar(f),
                            span,
                        )
                    })
                    .collect()
            }
            Geometric::Cross => {
                let (a, b) = (&ls[0], &ls[1]);
                let term = |i: usize, j: usize| {
                    let p = binary(BinaryOp::Mul, a[i].clone(), b[j].clone(), f, span);
                    let q = binary(BinaryOp::Mul, a[j].clone(), b[i].clone(), f, span);
                    binary(BinaryOp::Sub, p, q, f, span)
                };
                let mut out = vec![term(1, 2), term(2, 0), term(0, 1)];
                out.resize(n, float(0.0, span));
                out
            }
        }
    }

    /// `as_<T>`: the bytes of `src` (lanes of type `from`) read as lanes of type `to`.
    fn reinterpret(&mut self, src: Vec<Expr>, from: &Type, to: &Type, pre: &mut Block, span: Span) -> Vec<Expr> {
        let (fs, fnum) =
            vec_shape(from).map(|(s, n)| (s, alloc_lanes(n))).unwrap_or((from.scalar().unwrap_or(Scalar::I32), 1));
        let (ts, tnum) =
            vec_shape(to).map(|(s, n)| (s, alloc_lanes(n))).unwrap_or((to.scalar().unwrap_or(Scalar::I32), 1));
        let mut src = self.temps(src, pre);
        src.resize(fnum as usize, int(0, fs, span));
        let (fb, tb) = (fs.bits(), ts.bits());
        let uint = |bits: u32| match bits {
            8 => Scalar::U8,
            16 => Scalar::U16,
            32 => Scalar::U32,
            _ => Scalar::U64,
        };
        let (fu, tu) = (uint(fb), uint(tb));
        let mut out = Vec::new();
        for k in 0..tnum as u32 {
            let lane = if fb == tb {
                same_bits(src[k as usize].clone(), ts)
            } else if tb > fb {
                let r = tb / fb;
                let mut acc: Option<Expr> = None;
                for i in 0..r {
                    let part = conv(same_bits(src[(k * r + i) as usize].clone(), fu), tu);
                    let part = if i == 0 {
                        part
                    } else {
                        binary(BinaryOp::Shl, part, int((i * fb) as u64, tu, span), tu, span)
                    };
                    acc = Some(match acc {
                        None => part,
                        Some(a) => binary(BinaryOp::Or, a, part, tu, span),
                    });
                }
                same_bits(acc.unwrap_or_else(|| int(0, tu, span)), ts)
            } else {
                let r = fb / tb;
                let x = same_bits(src[(k / r) as usize].clone(), fu);
                let sh = (k % r) * tb;
                let x = if sh == 0 { x } else { binary(BinaryOp::Shr, x, int(sh as u64, fu, span), fu, span) };
                same_bits(conv(x, tu), ts)
            };
            out.push(lane);
        }
        out
    }
}

fn init_span(i: &Init) -> Span {
    match i {
        Init::Expr(e) => e.span,
        Init::List(l) => l.first().map(init_span).unwrap_or_default(),
        Init::Union(_, i) => init_span(i),
    }
}

/// `x != 0` for a scalar or pointer condition, as an `int` 0/1.
fn truth(x: Expr, span: Span) -> Expr {
    let x = if x.ty.is_pointer() { mk(K::Convert(Box::new(x)), Type::Scalar(Scalar::Bool), span) } else { x };
    let s = x.ty.scalar().unwrap_or(Scalar::I32);
    binary(BinaryOp::Ne, x, int(0, s, span), s, span)
}

/// Whether `body` has a `continue` of its own loop (not of a loop nested in it).
fn continues(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Continue(_) => true,
        Stmt::If(_, t, e, _) => continues(t) || continues(e),
        Stmt::Block(b) => continues(b),
        Stmt::Switch(_, arms, _) => arms.iter().any(|a| continues(&a.body)),
        _ => false,
    })
}
