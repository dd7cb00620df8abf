//! Compile-time evaluation: `constexpr` functions and variables, template arguments, array
//! bounds, `static_assert`, `if constexpr`, `case` values — an interpreter over the C++ syntax
//! tree with OpenCL C's arithmetic (integers wrap to their type; `float` rounds to single
//! precision after every operation).
//!
//! What it cannot evaluate (a built-in function, memory, a non-constant variable) makes the
//! expression not a constant; callers report that where a constant is required.

use crate::ast::{self, BinOp, ExprKind, StmtKind, UnOp};
use crate::elab::expr::{Val, arith_common, fold_scalar};
use crate::elab::lookup::{convert_konst, round_float};
use crate::elab::stmt::Local;
use crate::elab::{Ctx, Elab, Ent, FuncId};
use crate::ty::{ClassId, Konst, Ty, wrap_int};
use kiln_hir::types::Scalar;
use std::collections::HashMap;
use std::rc::Rc;

/// Evaluation steps one constant expression may take (loops in `constexpr` functions).
const STEP_LIMIT: u64 = 2_000_000;

type KV = (Konst, Ty);

#[derive(Default)]
struct Frame {
    scopes: Vec<HashMap<ast::Name, KV>>,
    /// The object of a member function (a local named `<this>`).
    this_class: Option<ClassId>,
    ctx: Option<Ctx>,
}

struct Interp {
    frames: Vec<Frame>,
    steps: u64,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<KV>),
}

/// A place: a local and the path of element and member indices into it.
struct Place {
    frame: usize,
    name: ast::Name,
    path: Vec<usize>,
}

impl Elab<'_> {
    /// The value of a constant expression, if it is one.
    pub fn const_eval(&mut self, e: &ast::Expr, ctx: &Ctx) -> Option<Konst> {
        self.const_eval_typed(e, ctx).map(|(k, _)| k)
    }

    pub fn const_eval_quiet(&mut self, e: &ast::Expr, ctx: &Ctx) -> Option<Konst> {
        let n = self.diags.len();
        let r = self.const_eval(e, ctx);
        self.diags.truncate(n);
        r
    }

    pub fn const_eval_typed(&mut self, e: &ast::Expr, ctx: &Ctx) -> Option<KV> {
        let mut it = Interp {
            frames: vec![Frame { scopes: vec![HashMap::new()], this_class: None, ctx: Some(ctx.clone()) }],
            steps: 0,
        };
        self.ce_expr(e, &mut it)
    }

    pub fn const_int(&mut self, e: &ast::Expr, ctx: &Ctx) -> Option<i128> {
        self.const_eval(e, ctx).and_then(|k| k.as_int())
    }

    /// A constant initializer of an object of type `ty`.
    pub fn const_init(&mut self, init: &ast::Init, ty: &Ty, ctx: &Ctx) -> Option<Konst> {
        let mut it = Interp {
            frames: vec![Frame { scopes: vec![HashMap::new()], this_class: None, ctx: Some(ctx.clone()) }],
            steps: 0,
        };
        self.ce_init(init, ty, &mut it)
    }

    pub fn const_init_quiet(&mut self, init: &ast::Init, ty: &Ty, ctx: &Ctx) -> Option<Konst> {
        let n = self.diags.len();
        let r = self.const_init(init, ty, ctx);
        self.diags.truncate(n);
        r
    }

    /// A `constexpr` function called with constant arguments, evaluated at compile time (its
    /// recursion is allowed: OpenCL C++ forbids only recursion that is not constant).
    pub fn const_call(&mut self, f: FuncId, args: Vec<KV>) -> Option<KV> {
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let mut it =
            Interp { frames: vec![Frame { scopes: vec![HashMap::new()], this_class: None, ctx: Some(ctx) }], steps: 0 };
        let n = self.diags.len();
        let r = self.ce_invoke(f, args, None, &mut it);
        self.diags.truncate(n);
        r
    }

    fn ce_ctx(&self, it: &Interp) -> Ctx {
        it.frames.last().and_then(|f| f.ctx.clone()).unwrap_or_else(|| self.ctx())
    }

    fn ce_init(&mut self, init: &ast::Init, ty: &Ty, it: &mut Interp) -> Option<Konst> {
        match init {
            ast::Init::Assign(e) => match &e.kind {
                ExprKind::Braced(None, elems) => self.ce_braced(ty, elems, it),
                _ => {
                    let (k, t) = self.ce_expr(e, it)?;
                    self.ce_convert(k, &t, ty)
                }
            },
            ast::Init::Paren(args, _) => match args.as_slice() {
                [a] if !ty.is_class() => {
                    let (k, t) = self.ce_expr(a, it)?;
                    self.ce_convert(k, &t, ty)
                }
                _ => match ty {
                    Ty::Class(c) => self.ce_construct(*c, args, it),
                    _ => None,
                },
            },
            ast::Init::Brace(elems, _) => self.ce_braced(ty, elems, it),
        }
    }

    fn ce_convert(&mut self, k: Konst, from: &Ty, to: &Ty) -> Option<Konst> {
        match (from, to) {
            (_, Ty::Scalar(_)) => Some(convert_konst(k, to)),
            (_, Ty::Enum(e)) => {
                let s = self.enums[e.0 as usize].scalar;
                Some(convert_konst(k, &Ty::Scalar(s)))
            }
            (a, b) if a == b => Some(k),
            (Ty::Array(..), Ty::Array(..)) => Some(k),
            (Ty::Class(a), Ty::Class(b)) if self.derives_from(*a, *b) => Some(k),
            _ => None,
        }
    }

    fn ce_braced(&mut self, ty: &Ty, elems: &[ast::InitElem], it: &mut Interp) -> Option<Konst> {
        match ty {
            Ty::Array(e, n) => {
                let n = (*n)? as usize;
                let mut out = Vec::new();
                for el in elems {
                    out.push(self.ce_init_value(&el.value, e, it)?);
                }
                if out.len() > n {
                    return None;
                }
                while out.len() < n {
                    out.push(self.ce_zero(e)?);
                }
                Some(Konst::Aggregate(out))
            }
            Ty::Class(c) => {
                if self.classes[c.0 as usize].has_user_ctor {
                    let args: Vec<ast::Expr> = elems
                        .iter()
                        .map(|e| match &e.value {
                            ast::InitValue::Expr(x) => Some(x.clone()),
                            ast::InitValue::Brace(..) => None,
                        })
                        .collect::<Option<_>>()?;
                    return self.ce_construct(*c, &args, it);
                }
                let bases = self.classes[c.0 as usize].bases.clone();
                let fields: Vec<(ast::Name, Ty, Option<ast::Init>)> = self.classes[c.0 as usize]
                    .fields
                    .iter()
                    .map(|f| (f.name.clone(), f.ty.clone(), f.init.clone()))
                    .collect();
                let mut out = Vec::new();
                let mut iter = elems.iter();
                for b in bases {
                    match iter.next() {
                        Some(el) => out.push(self.ce_init_value(&el.value, &Ty::Class(b), it)?),
                        None => out.push(self.ce_zero(&Ty::Class(b))?),
                    }
                }
                let owned: Vec<ast::InitElem> = iter.cloned().collect();
                let owned =
                    crate::elab::call::elide_braces(&owned, &fields.iter().map(|f| f.1.clone()).collect::<Vec<_>>());
                let rest: Vec<&ast::InitElem> = owned.iter().collect();
                let mut by_field: Vec<Option<&ast::InitElem>> = vec![None; fields.len()];
                let mut next = 0;
                for el in rest {
                    let i = match &el.designator {
                        Some((n, _)) => fields.iter().position(|f| &f.0 == n)?,
                        None => next,
                    };
                    if i >= fields.len() {
                        return None;
                    }
                    by_field[i] = Some(el);
                    next = i + 1;
                }
                let cctx = self.classes[c.0 as usize].ctx.clone();
                for (i, (_, t, init)) in fields.iter().enumerate() {
                    let v = match (by_field[i], init) {
                        (Some(el), _) => self.ce_init_value(&el.value, t, it)?,
                        (None, Some(init)) => {
                            it.frames.push(Frame {
                                scopes: vec![HashMap::new()],
                                this_class: None,
                                ctx: Some(cctx.clone()),
                            });
                            let r = self.ce_init(init, t, it);
                            it.frames.pop();
                            r?
                        }
                        (None, None) => self.ce_zero(t)?,
                    };
                    out.push(v);
                }
                Some(Konst::Aggregate(out))
            }
            Ty::Vector(s, n) => {
                let mut out = Vec::new();
                for el in elems {
                    let ast::InitValue::Expr(x) = &el.value else { return None };
                    let (k, t) = self.ce_expr(x, it)?;
                    out.push(self.ce_convert(k, &t, &Ty::Scalar(*s))?);
                }
                if out.len() == 1 {
                    let x = out[0].clone();
                    out = vec![x; usize::from(*n)];
                }
                Some(Konst::Aggregate(out))
            }
            t => match elems {
                [] => self.ce_zero(t),
                [el] => self.ce_init_value(&el.value, t, it),
                _ => None,
            },
        }
    }

    fn ce_init_value(&mut self, v: &ast::InitValue, ty: &Ty, it: &mut Interp) -> Option<Konst> {
        match v {
            ast::InitValue::Expr(x) => {
                let (k, t) = self.ce_expr(x, it)?;
                self.ce_convert(k, &t, ty)
            }
            ast::InitValue::Brace(elems, _) => self.ce_braced(ty, elems, it),
        }
    }

    fn ce_zero(&mut self, t: &Ty) -> Option<Konst> {
        Some(match t {
            Ty::Scalar(s) if s.is_float() => Konst::Float(0.0),
            Ty::Scalar(_) | Ty::Enum(_) => Konst::Int(0),
            Ty::Array(e, Some(n)) => Konst::Aggregate(vec![self.ce_zero(e)?; *n as usize]),
            Ty::Vector(s, n) => {
                Konst::Aggregate(vec![if s.is_float() { Konst::Float(0.0) } else { Konst::Int(0) }; usize::from(*n)])
            }
            Ty::Class(c) => {
                let mut parts: Vec<Ty> = self.classes[c.0 as usize].bases.iter().map(|b| Ty::Class(*b)).collect();
                parts.extend(self.classes[c.0 as usize].fields.iter().map(|f| f.ty.clone()));
                Konst::Aggregate(parts.iter().map(|p| self.ce_zero(p)).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }

    /// A `constexpr` constructor run at compile time.
    fn ce_construct(&mut self, cls: ClassId, args: &[ast::Expr], it: &mut Interp) -> Option<Konst> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.ce_expr(a, it)?);
        }
        if !self.classes[cls.0 as usize].has_user_ctor {
            if vals.is_empty() {
                return self.ce_braced(&Ty::Class(cls), &[], it);
            }
            if let [(k, t)] = vals.as_slice()
                && *t == Ty::Class(cls)
            {
                return Some(k.clone());
            }
            return None;
        }
        let ctors = self.classes[cls.0 as usize].ctors.clone();
        let f = self.ce_pick(&ctors, &vals)?;
        let def = self.funcs[f.0 as usize].def.clone();
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let sig = self.sig(f);
        let mut frame = Frame { scopes: vec![HashMap::new()], this_class: Some(cls), ctx: Some(ctx) };
        for (i, p) in def.params.iter().enumerate() {
            let pt = sig.params.get(i)?.strip_ref().clone();
            let (k, t) = match vals.get(i) {
                Some(v) => v.clone(),
                None => {
                    let d = p.default.as_ref()?;
                    self.ce_expr(d, it)?
                }
            };
            let k = self.ce_convert(k, &t, &pt)?;
            if let Some((n, _)) = &p.name {
                frame.scopes[0].insert(n.clone(), (k, pt));
            }
        }
        let mut obj = match self.ce_zero(&Ty::Class(cls)) {
            Some(Konst::Aggregate(v)) => v,
            _ => return None,
        };
        it.frames.push(frame);
        let nbases = self.classes[cls.0 as usize].bases.len();
        let fields: Vec<(ast::Name, Ty, Option<ast::Init>)> = self.classes[cls.0 as usize]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone(), f.init.clone()))
            .collect();
        for (i, (n, t, finit)) in fields.iter().enumerate() {
            let init = def.inits.iter().find(|m| &m.name.last().name == n).map(|m| m.init.clone()).or(finit.clone());
            if let Some(init) = init {
                let Some(v) = self.ce_init(&init, t, it) else {
                    it.frames.pop();
                    return None;
                };
                obj[nbases + i] = v;
            }
        }
        if let Some(last) = it.frames.last_mut() {
            last.scopes[0].insert("<this>".into(), (Konst::Aggregate(obj), Ty::Class(cls)));
        }
        let flow = match &def.body {
            Some(b) => self.ce_stmt(b, it),
            None => Some(Flow::Normal),
        };
        let fr = it.frames.pop()?;
        flow?;
        fr.scopes.into_iter().next().and_then(|mut s| s.remove("<this>")).map(|(k, _)| k)
    }

    /// The function of a set that best takes constant arguments.
    fn ce_pick(&mut self, fs: &[FuncId], vals: &[KV]) -> Option<FuncId> {
        let mut best: Option<(FuncId, u32)> = None;
        for f in fs {
            let sig = self.sig(*f);
            if vals.len() > sig.params.len() || vals.len() < sig.required {
                continue;
            }
            let mut score = 0;
            let mut ok = true;
            for ((_, t), p) in vals.iter().zip(&sig.params) {
                let p = p.strip_ref();
                if t == p {
                } else if t.is_arith() && p.is_arith() {
                    score += 2;
                } else if matches!((t, p), (Ty::Class(a), Ty::Class(b)) if self.derives_from(*a, *b)) {
                    score += 1;
                } else {
                    ok = false;
                }
            }
            if ok && best.is_none_or(|(_, s)| score < s) {
                best = Some((*f, score));
            }
        }
        best.map(|(f, _)| f)
    }

    fn ce_step(&mut self, it: &mut Interp) -> Option<()> {
        it.steps += 1;
        (it.steps <= STEP_LIMIT).then_some(())
    }

    fn ce_lookup_local(&self, it: &Interp, n: &str) -> Option<KV> {
        let f = it.frames.last()?;
        for s in f.scopes.iter().rev() {
            if let Some(v) = s.get(n) {
                return Some(v.clone());
            }
        }
        None
    }

    fn ce_name(&mut self, q: &ast::QualName, it: &mut Interp) -> Option<KV> {
        if q.is_simple() {
            let n = &q.parts[0].name;
            if let Some(v) = self.ce_lookup_local(it, n) {
                return Some(v);
            }
            // A member of the object of a member function being evaluated.
            if let Some(cls) = it.frames.last().and_then(|f| f.this_class)
                && let Some((path, idx)) = self.find_field(cls, n)
                && path.is_empty()
                && let Some((Konst::Aggregate(obj), _)) = self.ce_lookup_local(it, "<this>")
            {
                let nb = self.classes[cls.0 as usize].bases.len();
                let t = self.classes[cls.0 as usize].fields[idx].ty.clone();
                return obj.get(nb + idx).cloned().map(|k| (k, t));
            }
            // A constant of the body being elaborated.
            if it.frames.len() == 1
                && let Some(Local::Var(v)) = self.fx.as_ref().and_then(|fx| fx.local(n))
            {
                return v.k.map(|k| (k, v.ty));
            }
        }
        let ctx = self.ce_ctx(it);
        match self.lookup_qual(q, &ctx)? {
            Ent::Konst(k, t) => Some((k, t)),
            Ent::Enumerator(e, v) => Some((Konst::Int(v), Ty::Enum(e))),
            Ent::Global(g) => {
                let gl = &self.globals[g.0 as usize];
                gl.konst.clone().map(|k| (k, gl.ty.clone()))
            }
            _ => None,
        }
    }

    fn ce_expr(&mut self, e: &ast::Expr, it: &mut Interp) -> Option<KV> {
        self.ce_step(it)?;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Char(_) | ExprKind::Bool(_) => {
                let n = self.diags.len();
                let v: Val = self.dry(|s| s.expr(e));
                self.diags.truncate(n);
                v.k.map(|k| (k, v.ty))
            }
            ExprKind::Paren(x) => self.ce_expr(x, it),
            ExprKind::Name(q) => self.ce_name(q, it),
            ExprKind::Unary(op, x) => match op {
                UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                    let place = self.ce_place(x, it)?;
                    let (old, t) = self.ce_read(&place, it)?;
                    let s = self.ce_scalar(&t)?;
                    let delta = if matches!(op, UnOp::PreInc | UnOp::PostInc) { 1 } else { -1 };
                    let new = match &old {
                        Konst::Int(v) => Konst::Int(wrap_int(v + delta, s)),
                        Konst::Float(f) => Konst::Float(round_float(f + delta as f64, s)),
                        _ => return None,
                    };
                    self.ce_write(&place, new.clone(), it)?;
                    Some(if matches!(op, UnOp::PreInc | UnOp::PreDec) { (new, t) } else { (old, t) })
                }
                UnOp::Deref if matches!(x.kind, ExprKind::This) => self.ce_lookup_local(it, "<this>"),
                UnOp::Deref | UnOp::AddrOf => None,
                _ => {
                    let (k, t) = self.ce_expr(x, it)?;
                    let s = self.ce_scalar(&t)?;
                    let promoted = if s.is_integer() && s.bits() < 32 || s == Scalar::Bool { Scalar::I32 } else { s };
                    match (op, k) {
                        (UnOp::Neg, Konst::Int(v)) => Some((Konst::Int(wrap_int(-v, promoted)), Ty::Scalar(promoted))),
                        (UnOp::Neg, Konst::Float(f)) => Some((Konst::Float(-f), t)),
                        (UnOp::Plus, k) => Some((k, Ty::Scalar(promoted))),
                        (UnOp::BitNot, Konst::Int(v)) => {
                            Some((Konst::Int(wrap_int(!v, promoted)), Ty::Scalar(promoted)))
                        }
                        (UnOp::Not, k) => Some((Konst::Int(i128::from(!k.truthy()?)), Ty::BOOL)),
                        _ => None,
                    }
                }
            },
            ExprKind::Binary(op, a, b) => {
                if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
                    let l = self.ce_expr(a, it)?.0.truthy()?;
                    if (*op == BinOp::LogAnd && !l) || (*op == BinOp::LogOr && l) {
                        return Some((Konst::Int(i128::from(l)), Ty::BOOL));
                    }
                    let r = self.ce_expr(b, it)?.0.truthy()?;
                    return Some((Konst::Int(i128::from(r)), Ty::BOOL));
                }
                let (lk, lt) = self.ce_expr(a, it)?;
                let (rk, rt) = self.ce_expr(b, it)?;
                let ls = self.ce_scalar(&lt)?;
                let rs = self.ce_scalar(&rt)?;
                fold_scalar(*op, &lk, ls, &rk, rs)
            }
            ExprKind::Assign(op, a, b) => {
                let place = self.ce_place(a, it)?;
                let (_, lt) = self.ce_read(&place, it)?;
                let (rk, rt) = match &b.kind {
                    ExprKind::Braced(None, elems) => (self.ce_braced(&lt, elems, it)?, lt.clone()),
                    _ => self.ce_expr(b, it)?,
                };
                let v = match op {
                    None => self.ce_convert(rk, &rt, &lt)?,
                    Some(o) => {
                        let (old, _) = self.ce_read(&place, it)?;
                        let (k, t) = fold_scalar(*o, &old, self.ce_scalar(&lt)?, &rk, self.ce_scalar(&rt)?)?;
                        self.ce_convert(k, &t, &lt)?
                    }
                };
                self.ce_write(&place, v.clone(), it)?;
                Some((v, lt))
            }
            ExprKind::Cond(c, a, b) => {
                let t = self.ce_expr(c, it)?.0.truthy()?;
                let (x, y) = if t { (a, b) } else { (b, a) };
                let _ = y;
                let (k, ty) = self.ce_expr(x, it)?;
                Some((k, ty))
            }
            ExprKind::Comma(xs) => {
                let mut last = None;
                for x in xs {
                    last = Some(self.ce_expr(x, it)?);
                }
                last
            }
            ExprKind::CCast(t, x) | ExprKind::NamedCast(_, t, x) => {
                let ctx = self.ce_ctx(it);
                let ty = self.resolve_type_quiet(t, &ctx);
                let (k, from) = self.ce_expr(x, it)?;
                let k = self.ce_convert(k, &from, &ty)?;
                Some((k, ty))
            }
            ExprKind::Functional(t, args) => {
                let ctx = self.ce_ctx(it);
                let ty = self.resolve_type_quiet(t, &ctx);
                match (&ty, args.as_slice()) {
                    (Ty::Class(c), _) => self.ce_construct(*c, args, it).map(|k| (k, ty.clone())),
                    (_, []) => self.ce_zero(&ty).map(|k| (k, ty.clone())),
                    (_, [a]) => {
                        let (k, from) = self.ce_expr(a, it)?;
                        self.ce_convert(k, &from, &ty).map(|k| (k, ty.clone()))
                    }
                    _ => None,
                }
            }
            ExprKind::Braced(Some(t), elems) => {
                let ctx = self.ce_ctx(it);
                let ty = self.resolve_type_quiet(t, &ctx);
                self.ce_braced(&ty, elems, it).map(|k| (k, ty))
            }
            ExprKind::SizeofType(_) | ExprKind::SizeofExpr(_) | ExprKind::AlignofType(_) | ExprKind::VecStepType(_) => {
                let ctx = self.ce_ctx(it);
                let v = self.sizeof_in(e, &ctx);
                v.k.map(|k| (k, v.ty))
            }
            ExprKind::Index(a, i) => {
                let (ak, at) = self.ce_expr(a, it)?;
                let (ik, _) = self.ce_expr(i, it)?;
                let idx = usize::try_from(ik.as_int()?).ok()?;
                // `obj[i]` of a class whose `operator[]` returns an element of a member array.
                if let Ty::Class(c) = &at {
                    let (field, fty) = self.subscript_field(*c)?;
                    let Konst::Aggregate(xs) = ak else { return None };
                    let Konst::Aggregate(elems) = xs.get(field)?.clone() else { return None };
                    let et = match fty {
                        Ty::Array(e, _) => (*e).clone(),
                        _ => return None,
                    };
                    return elems.get(idx).cloned().map(|k| (k, et));
                }
                let Konst::Aggregate(xs) = ak else { return None };
                let et = match at {
                    Ty::Array(e, _) => (*e).clone(),
                    Ty::Vector(s, _) => Ty::Scalar(s),
                    _ => return None,
                };
                xs.get(idx).cloned().map(|k| (k, et))
            }
            ExprKind::Member(obj, part, arrow) => {
                let (ok, ot) = if *arrow && matches!(obj.kind, ExprKind::This) {
                    self.ce_lookup_local(it, "<this>")?
                } else if *arrow {
                    return None;
                } else {
                    self.ce_expr(obj, it)?
                };
                let cls = ot.class()?;
                match self.find_field(cls, &part.name) {
                    Some((path, idx)) => {
                        let mut cur = ok;
                        let mut c = cls;
                        for bi in path {
                            let Konst::Aggregate(xs) = cur else { return None };
                            cur = xs.get(bi)?.clone();
                            c = self.classes[c.0 as usize].bases[bi];
                        }
                        let nb = self.classes[c.0 as usize].bases.len();
                        let Konst::Aggregate(xs) = cur else { return None };
                        let t = self.classes[c.0 as usize].fields[idx].ty.clone();
                        xs.get(nb + idx).cloned().map(|k| (k, t))
                    }
                    None => match self.class_member(cls, &part.name) {
                        Some((Ent::Konst(k, t), _)) => Some((k, t)),
                        _ => None,
                    },
                }
            }
            ExprKind::Call(f, args) => self.ce_call(f, args, it),
            _ => None,
        }
    }

    fn sizeof_in(&mut self, e: &ast::Expr, ctx: &Ctx) -> Val {
        let n = self.diags.len();
        let have_fx = self.fx.is_some();
        let v = if have_fx {
            self.dry(|s| s.expr(e))
        } else {
            match &e.kind {
                ExprKind::SizeofType(t) | ExprKind::AlignofType(t) => {
                    let ty = self.resolve_type_quiet(t, ctx);
                    match self.layout(&ty) {
                        Some((s, a)) => {
                            let x = if matches!(e.kind, ExprKind::SizeofType(_)) { s } else { a };
                            Val::konst(Konst::Int(i128::from(x)), Ty::SIZE, e.span)
                        }
                        None => Val::error(e.span),
                    }
                }
                ExprKind::VecStepType(t) => {
                    let ty = self.resolve_type_quiet(t, ctx);
                    match ty {
                        Ty::Vector(_, n) => {
                            Val::konst(Konst::Int(i128::from(if n == 3 { 4 } else { n })), Ty::INT, e.span)
                        }
                        Ty::Scalar(_) => Val::konst(Konst::Int(1), Ty::INT, e.span),
                        _ => Val::error(e.span),
                    }
                }
                _ => Val::error(e.span),
            }
        };
        self.diags.truncate(n);
        v
    }

    fn ce_scalar(&self, t: &Ty) -> Option<Scalar> {
        match t {
            Ty::Scalar(s) => Some(*s),
            Ty::Enum(e) => Some(self.enums[e.0 as usize].scalar),
            _ => None,
        }
    }

    fn ce_call(&mut self, f: &ast::Expr, args: &[ast::Expr], it: &mut Interp) -> Option<KV> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.ce_expr(a, it)?);
        }
        let ctx = self.ce_ctx(it);
        let (cands, this): (Vec<FuncId>, Option<KV>) = match &f.kind {
            ExprKind::Name(q) => {
                let mut base = q.clone();
                let explicit = base.parts.last_mut().and_then(|l| l.targs.take());
                // A member function of the object being evaluated.
                let member = q.is_simple().then(|| it.frames.last().and_then(|fr| fr.this_class)).flatten();
                let ent = match member.and_then(|c| self.class_member(c, &q.parts[0].name)) {
                    Some((e, _)) => Some(e),
                    None => self.lookup_qual(&base, &ctx),
                };
                match ent? {
                    Ent::Funcs(fs, ts) => {
                        let mut all = fs;
                        for t in ts {
                            let ex = match &explicit {
                                Some(a) => Some(self.template_args(a, &ctx)?),
                                None => None,
                            };
                            let args: Vec<crate::elab::expr::Arg> = vals
                                .iter()
                                .map(|(k, t)| {
                                    crate::elab::expr::Arg::Val(Val {
                                        lv: true,
                                        ..Val::konst(k.clone(), t.clone(), f.span)
                                    })
                                })
                                .collect();
                            if let Some(fid) = self.deduce_for_consteval(t, &args, ex.as_deref(), f.span) {
                                all.push(fid);
                            }
                        }
                        let this = if member.is_some() { self.ce_lookup_local(it, "<this>") } else { None };
                        (all, this)
                    }
                    Ent::Type(Ty::Class(c)) => {
                        return self.ce_construct(c, args, it).map(|k| (k, Ty::Class(c)));
                    }
                    Ent::Type(t) => {
                        let (k, from) = vals.into_iter().next()?;
                        return self.ce_convert(k, &from, &t).map(|k| (k, t));
                    }
                    _ => return None,
                }
            }
            ExprKind::Member(obj, part, false) => {
                let (ok, ot) = self.ce_expr(obj, it)?;
                let cls = ot.class()?;
                match self.class_member(cls, &part.name)? {
                    (Ent::Funcs(fs, _), _) => (fs, Some((ok, ot))),
                    _ => return None,
                }
            }
            _ => return None,
        };
        let fid = self.ce_pick(&cands, &vals)?;
        self.ce_invoke(fid, vals, this, it)
    }

    fn ce_invoke(&mut self, f: FuncId, vals: Vec<KV>, this: Option<KV>, it: &mut Interp) -> Option<KV> {
        if it.frames.len() > 64 {
            return None;
        }
        let def = self.funcs[f.0 as usize].def.clone();
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let owner = self.funcs[f.0 as usize].owner;
        let sig = self.sig(f);
        let body = def.body.clone()?;
        let mut frame =
            Frame { scopes: vec![HashMap::new()], this_class: this.as_ref().and_then(|_| owner), ctx: Some(ctx) };
        let mut vals = vals;
        for (i, p) in def.params.iter().enumerate() {
            let pt = sig.params.get(i)?.strip_ref().clone();
            let (k, t) = if i < vals.len() {
                std::mem::replace(&mut vals[i], (Konst::Int(0), Ty::INT))
            } else {
                self.ce_expr(p.default.as_ref()?, it)?
            };
            let k = self.ce_convert(k, &t, &pt)?;
            if let Some((n, _)) = &p.name {
                frame.scopes[0].insert(n.clone(), (k, pt));
            }
        }
        if let Some(t) = this {
            frame.scopes[0].insert("<this>".into(), t);
        }
        it.frames.push(frame);
        let flow = self.ce_stmt(&body, it);
        it.frames.pop();
        match flow? {
            Flow::Return(Some((k, t))) => match &sig.ret {
                Some(r) if !matches!(r, Ty::Ref(..)) => self.ce_convert(k, &t, r).map(|k| (k, r.clone())),
                _ => Some((k, t)),
            },
            _ => None,
        }
    }

    fn ce_stmt(&mut self, s: &ast::Stmt, it: &mut Interp) -> Option<Flow> {
        self.ce_step(it)?;
        match &s.kind {
            StmtKind::Block(v) => {
                it.frames.last_mut()?.scopes.push(HashMap::new());
                let mut flow = Flow::Normal;
                for x in v {
                    match self.ce_stmt(x, it) {
                        Some(Flow::Normal) => {}
                        Some(f) => {
                            flow = f;
                            break;
                        }
                        None => {
                            it.frames.last_mut()?.scopes.pop();
                            return None;
                        }
                    }
                }
                it.frames.last_mut()?.scopes.pop();
                Some(flow)
            }
            StmtKind::Expr(e) => {
                self.ce_expr(e, it)?;
                Some(Flow::Normal)
            }
            StmtKind::Empty | StmtKind::StaticAssert(_) => Some(Flow::Normal),
            StmtKind::Decl(vs) => {
                for v in vs {
                    let ctx = self.ce_ctx(it);
                    let ty = if crate::elab::stmt::is_auto(&v.ty) {
                        match &v.init {
                            Some(ast::Init::Assign(e)) => self.ce_expr(e, it)?.1,
                            _ => return None,
                        }
                    } else {
                        self.resolve_type_quiet(&v.ty, &ctx)
                    };
                    let ty = ty.strip_ref().clone();
                    let k = match &v.init {
                        Some(i) => self.ce_init(i, &ty, it)?,
                        None => self.ce_zero(&ty)?,
                    };
                    it.frames.last_mut()?.scopes.last_mut()?.insert(v.name.clone(), (k, ty));
                }
                Some(Flow::Normal)
            }
            StmtKind::If { init, cond, then, els, .. } => {
                it.frames.last_mut()?.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.ce_stmt(i, it)?;
                }
                let c = match cond {
                    ast::Cond::Expr(e) => self.ce_expr(e, it)?.0.truthy()?,
                    ast::Cond::Decl(_) => return None,
                };
                let r = if c {
                    self.ce_stmt(then, it)
                } else if let Some(e) = els {
                    self.ce_stmt(e, it)
                } else {
                    Some(Flow::Normal)
                };
                it.frames.last_mut()?.scopes.pop();
                r
            }
            StmtKind::While { cond, body, .. } => loop {
                let c = match cond {
                    ast::Cond::Expr(e) => self.ce_expr(e, it)?.0.truthy()?,
                    ast::Cond::Decl(_) => return None,
                };
                if !c {
                    return Some(Flow::Normal);
                }
                match self.ce_stmt(body, it)? {
                    Flow::Break => return Some(Flow::Normal),
                    Flow::Return(v) => return Some(Flow::Return(v)),
                    _ => {}
                }
            },
            StmtKind::DoWhile { body, cond, .. } => loop {
                match self.ce_stmt(body, it)? {
                    Flow::Break => return Some(Flow::Normal),
                    Flow::Return(v) => return Some(Flow::Return(v)),
                    _ => {}
                }
                if !self.ce_expr(cond, it)?.0.truthy()? {
                    return Some(Flow::Normal);
                }
            },
            StmtKind::For { init, cond, step, body, .. } => {
                it.frames.last_mut()?.scopes.push(HashMap::new());
                let r = (|| {
                    match init {
                        ast::ForInit::None => {}
                        ast::ForInit::Expr(e) => {
                            self.ce_expr(e, it)?;
                        }
                        ast::ForInit::Decl(vs) => {
                            let s = ast::Stmt { kind: StmtKind::Decl(vs.clone()), span: s.span };
                            // Declared in the loop's own scope.
                            if let StmtKind::Decl(vs) = &s.kind {
                                for v in vs {
                                    let one = ast::Stmt { kind: StmtKind::Decl(vec![v.clone()]), span: s.span };
                                    self.ce_stmt(&one, it)?;
                                }
                            }
                        }
                    }
                    loop {
                        if let Some(c) = cond
                            && !self.ce_expr(c, it)?.0.truthy()?
                        {
                            return Some(Flow::Normal);
                        }
                        match self.ce_stmt(body, it)? {
                            Flow::Break => return Some(Flow::Normal),
                            Flow::Return(v) => return Some(Flow::Return(v)),
                            _ => {}
                        }
                        if let Some(st) = step {
                            self.ce_expr(st, it)?;
                        }
                    }
                })();
                it.frames.last_mut()?.scopes.pop();
                r
            }
            StmtKind::Break => Some(Flow::Break),
            StmtKind::Continue => Some(Flow::Continue),
            StmtKind::Return(None) => Some(Flow::Return(None)),
            StmtKind::Return(Some(ast::ReturnValue::Expr(e))) => Some(Flow::Return(Some(self.ce_expr(e, it)?))),
            _ => None,
        }
    }

    /// The place an l-value expression names.
    fn ce_place(&mut self, e: &ast::Expr, it: &mut Interp) -> Option<Place> {
        let frame = it.frames.len().checked_sub(1)?;
        match &e.kind {
            ExprKind::Paren(x) => self.ce_place(x, it),
            ExprKind::Name(q) if q.is_simple() => {
                let n = &q.parts[0].name;
                if self.ce_lookup_local(it, n).is_some() {
                    return Some(Place { frame, name: n.clone(), path: vec![] });
                }
                let cls = it.frames.last()?.this_class?;
                let (path, idx) = self.find_field(cls, n)?;
                if !path.is_empty() {
                    return None;
                }
                let nb = self.classes[cls.0 as usize].bases.len();
                Some(Place { frame, name: "<this>".into(), path: vec![nb + idx] })
            }
            ExprKind::Index(a, i) => {
                let mut p = self.ce_place(a, it)?;
                let idx = usize::try_from(self.ce_expr(i, it)?.0.as_int()?).ok()?;
                let (_, t) = self.ce_read(&p, it)?;
                if let Ty::Class(c) = t {
                    let (field, _) = self.subscript_field(c)?;
                    p.path.push(field);
                }
                p.path.push(idx);
                Some(p)
            }
            ExprKind::Member(obj, part, arrow) => {
                let mut p = if *arrow && matches!(obj.kind, ExprKind::This) {
                    Place { frame, name: "<this>".into(), path: vec![] }
                } else if *arrow {
                    return None;
                } else {
                    self.ce_place(obj, it)?
                };
                let (_, t) = self.ce_read(&p, it)?;
                let cls = t.class()?;
                let (bpath, idx) = self.find_field(cls, &part.name)?;
                let mut c = cls;
                for bi in bpath {
                    p.path.push(bi);
                    c = self.classes[c.0 as usize].bases[bi];
                }
                let nb = self.classes[c.0 as usize].bases.len();
                p.path.push(nb + idx);
                Some(p)
            }
            _ => None,
        }
    }

    fn ce_read(&mut self, p: &Place, it: &Interp) -> Option<KV> {
        let (mut k, mut t) = {
            let f = it.frames.get(p.frame)?;
            f.scopes.iter().rev().find_map(|s| s.get(&p.name)).cloned()?
        };
        for &i in &p.path {
            let Konst::Aggregate(xs) = k else { return None };
            k = xs.get(i)?.clone();
            t = self.ce_part_type(&t, i)?;
        }
        Some((k, t))
    }

    fn ce_part_type(&self, t: &Ty, i: usize) -> Option<Ty> {
        Some(match t {
            Ty::Array(e, _) => (**e).clone(),
            Ty::Vector(s, _) => Ty::Scalar(*s),
            Ty::Class(c) => {
                let cls = &self.classes[c.0 as usize];
                if i < cls.bases.len() {
                    Ty::Class(cls.bases[i])
                } else {
                    cls.fields.get(i - cls.bases.len())?.ty.clone()
                }
            }
            _ => return None,
        })
    }

    fn ce_write(&mut self, p: &Place, v: Konst, it: &mut Interp) -> Option<()> {
        let f = it.frames.get_mut(p.frame)?;
        let slot = f.scopes.iter_mut().rev().find_map(|s| s.get_mut(&p.name))?;
        let mut cur = &mut slot.0;
        for &i in &p.path {
            let Konst::Aggregate(xs) = cur else { return None };
            cur = xs.get_mut(i)?;
        }
        *cur = v;
        Some(())
    }

    /// For a class whose `operator[]` is `return m[i];` (a member array `m` indexed by its
    /// parameter, as `cl::array`'s): the position of `m` in the object's value and its type.
    fn subscript_field(&mut self, cls: ClassId) -> Option<(usize, Ty)> {
        let Some((Ent::Funcs(fs, _), _)) = self.class_member(cls, "operator[]") else { return None };
        for f in fs {
            let def = self.funcs[f.0 as usize].def.clone();
            let Some(ast::Stmt { kind: StmtKind::Block(body), .. }) = &def.body else { continue };
            let [ast::Stmt { kind: StmtKind::Return(Some(ast::ReturnValue::Expr(e))), .. }] = body.as_slice() else {
                continue;
            };
            let ExprKind::Index(base, idx) = &e.kind else { continue };
            let (ExprKind::Name(b), ExprKind::Name(ix)) = (&base.kind, &idx.kind) else { continue };
            let param = def.params.first().and_then(|p| p.name.as_ref()).map(|(n, _)| n.clone());
            if !b.is_simple() || !ix.is_simple() || param.as_deref() != Some(&*ix.parts[0].name) {
                continue;
            }
            let cl = &self.classes[cls.0 as usize];
            let fi = cl.fields.iter().position(|x| x.name == b.parts[0].name)?;
            return Some((cl.bases.len() + fi, cl.fields[fi].ty.clone()));
        }
        None
    }

    fn deduce_for_consteval(
        &mut self,
        t: crate::elab::TemplateId,
        args: &[crate::elab::expr::Arg],
        explicit: Option<&[crate::ty::TArg]>,
        span: kiln_diagnostics::Span,
    ) -> Option<FuncId> {
        self.deduce_call_pub(t, args, explicit, span)
    }
}

#[allow(dead_code)]
fn unused(_: Rc<()>, _: fn(Scalar, Scalar) -> Scalar) {
    let _ = arith_common;
}
