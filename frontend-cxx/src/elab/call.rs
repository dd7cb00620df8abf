//! Calls: overload resolution (C++'s ranking of conversions), template argument deduction,
//! construction of objects, and the inlining of every called function into its caller.

use super::emit::{self, cx, ident};
use super::expr::{Arg, Val};
use super::stmt::{Local, RetInfo};
use super::{ClosureInfo, Ctx, Elab, Ent, Env, FuncId, TemplateId, TemplateKind};
use crate::ast::{self, ExprKind};
use crate::ty::{ClassId, Konst, TArg, Ty};
use kiln_diagnostics::{Span, codes};
use kiln_frontend::ast as c;
use kiln_hir::types::{AddrSpace, Scalar};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A function's declared parameter types and return type (`None`: deduced from `return`).
#[derive(Clone, Debug)]
pub struct Sig {
    pub params: Vec<Ty>,
    pub ret: Option<Ty>,
    /// Parameters with default arguments from this index on.
    pub required: usize,
}

/// A candidate of overload resolution.
#[derive(Clone)]
struct Cand {
    f: FuncId,
    /// The implicit object of a member function.
    this: Option<Val>,
    /// Arguments as the candidate receives them (a non-member operator gets the object first).
    args: Vec<Arg>,
    from_template: bool,
}

impl Elab<'_> {
    // ----- signatures -----

    /// The types a parameter stands for: one, or one per element of the packs a parameter
    /// pack's type names (`Ts... xs`, `const Ts &... xs`).
    pub fn param_types(&mut self, p: &ast::Param, ctx: &Ctx) -> Vec<Ty> {
        if !p.pack {
            return vec![self.resolve_type(&p.ty, ctx)];
        }
        let mut names = Vec::new();
        collect_type_names(&p.ty, &mut names);
        let packs: Vec<(ast::Name, Vec<TArg>)> = names
            .into_iter()
            .filter_map(|n| match ctx.env.get(&n) {
                Some(TArg::Pack(v)) => Some((n, v.clone())),
                _ => None,
            })
            .collect();
        let Some(len) = packs.first().map(|(_, v)| v.len()) else {
            self.err(codes::CXX_TEMPLATE, "a function parameter pack's type names no template parameter pack", p.span);
            return vec![];
        };
        (0..len)
            .map(|i| {
                let vars = packs.iter().filter_map(|(n, v)| v.get(i).map(|a| (n.clone(), a.clone()))).collect();
                let ectx = Ctx { env: Rc::new(Env { vars, parent: Some(ctx.env.clone()) }), ..ctx.clone() };
                self.resolve_type(&p.ty, &ectx)
            })
            .collect()
    }

    pub fn sig(&mut self, f: FuncId) -> Sig {
        let def = self.funcs[f.0 as usize].def.clone();
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let params: Vec<Ty> = def.params.iter().flat_map(|p| self.param_types(p, &ctx)).collect();
        let ret = match &def.ret {
            Some(t) if matches!(t.kind, ast::TypeKind::Auto) => None,
            Some(t) => match &t.kind {
                ast::TypeKind::Ref(inner, _) if matches!(inner.kind, ast::TypeKind::Auto) => None,
                ast::TypeKind::Qualified { inner, .. } if matches!(inner.kind, ast::TypeKind::Auto) => None,
                _ => Some(self.resolve_type(t, &ctx)),
            },
            None => match &def.conversion {
                Some(t) => Some(self.resolve_type(t, &ctx)),
                None => Some(Ty::Void),
            },
        };
        let required = match def.params.iter().position(|p| p.default.is_some()) {
            Some(i) => {
                let before: Vec<ast::Param> = def.params[..i].to_vec();
                before.iter().map(|p| self.param_types(p, &ctx).len()).sum()
            }
            None => params.len(),
        };
        Sig { params, ret, required }
    }

    // ----- conversion ranks -----

    /// How well an argument converts to a parameter type: 0 exact, 1 promotion, 2 standard
    /// conversion, 3 user-defined; `None` when it does not.
    fn rank(&mut self, a: &Arg, p: &Ty) -> Option<u32> {
        match a {
            Arg::Braced(elems, _) => self.braced_rank(elems, p.strip_ref()),
            Arg::Val(v) => {
                if v.is_error() || p.is_error() {
                    return Some(0);
                }
                match p {
                    Ty::Ref(t, is_const) => {
                        let t = (**t).clone();
                        if v.lv && (*is_const || !v.is_const) {
                            if v.ty == t {
                                return Some(if *is_const && !v.is_const { 1 } else { 0 });
                            }
                            if let (Some(dc), Some(bc)) = (v.ty.class(), t.class())
                                && self.derives_from(dc, bc)
                            {
                                return Some(2);
                            }
                        }
                        if *is_const {
                            return self.value_rank(v, &t);
                        }
                        None
                    }
                    t => self.value_rank(v, t),
                }
            }
        }
    }

    /// The rank of each argument's conversion to its parameter, or `None` when one does not
    /// convert.
    fn arg_ranks(&mut self, args: &[Arg], params: &[Ty]) -> Option<Vec<u32>> {
        args.iter().zip(params).map(|(a, p)| self.rank(a, p)).collect()
    }

    fn braced_rank(&mut self, elems: &[ast::InitElem], p: &Ty) -> Option<u32> {
        match p {
            Ty::Class(c) => {
                let has_ctor = self.classes[c.0 as usize].has_user_ctor;
                if !has_ctor {
                    return (elems.len()
                        <= self.classes[c.0 as usize].fields.len() + self.classes[c.0 as usize].bases.len())
                    .then_some(3);
                }
                let n = elems.len();
                let ctors = self.classes[c.0 as usize].ctors.clone();
                ctors
                    .iter()
                    .any(|f| {
                        let d = &self.funcs[f.0 as usize].def;
                        let req = d.params.iter().position(|p| p.default.is_some()).unwrap_or(d.params.len());
                        n >= req && n <= d.params.len()
                    })
                    .then_some(3)
            }
            Ty::Array(..) | Ty::Vector(..) => Some(2),
            _ if elems.len() <= 1 => Some(2),
            _ => None,
        }
    }

    fn value_rank(&mut self, v: &Val, t: &Ty) -> Option<u32> {
        let from = v.ty.clone();
        if &from == t {
            return Some(0);
        }
        match (&from, t) {
            (Ty::Class(a), Ty::Class(b)) => {
                if self.derives_from(*a, *b) {
                    return Some(2);
                }
                if self.converting_ctor(*b, v).is_some() {
                    return Some(3);
                }
                let want = t.clone();
                self.conversion_to(*a, &|x| x == &want).map(|_| 3)
            }
            (_, Ty::Class(b)) => self.converting_ctor(*b, v).map(|_| 3),
            (Ty::Class(a), _) => {
                let want = t.clone();
                self.conversion_to(*a, &|x| x == &want || (x.is_arith() && want.is_arith())).map(|_| 3)
            }
            (Ty::Scalar(a), Ty::Scalar(b)) => {
                let promotion = (*b == Scalar::I32 && (a.bits() < 32 && a.is_integer() || *a == Scalar::Bool))
                    || (*a == Scalar::F16 && *b == Scalar::F32)
                    || (*a == Scalar::F32 && *b == Scalar::F64);
                Some(if promotion { 1 } else { 2 })
            }
            (Ty::Enum(e), Ty::Scalar(b)) => {
                if self.enums[e.0 as usize].scoped {
                    None
                } else {
                    Some(if *b == Scalar::I32 { 1 } else { 2 })
                }
            }
            (Ty::Scalar(_), Ty::Vector(..)) => Some(2),
            (Ty::Ptr(a, sa, ca), Ty::Ptr(b, sb, cb)) => {
                let space_ok = sa == sb || *sb == AddrSpace::Generic;
                let const_ok = !*ca || *cb;
                if !space_ok || !const_ok {
                    return None;
                }
                if a == b {
                    return Some(if sa == sb && ca == cb { 0 } else { 1 });
                }
                if **b == Ty::Void {
                    return Some(2);
                }
                if let (Some(dc), Some(bc)) = (a.class(), b.class())
                    && self.derives_from(dc, bc)
                {
                    return Some(2);
                }
                None
            }
            (Ty::Array(e, _), Ty::Ptr(b, sb, _)) => {
                let space_ok = v.space == *sb || *sb == AddrSpace::Generic;
                (space_ok && e == b).then_some(0)
            }
            (Ty::NullPtr, Ty::Ptr(..)) => Some(2),
            (Ty::Scalar(_), Ty::Ptr(..)) if v.k == Some(Konst::Int(0)) => Some(2),
            (Ty::Scalar(s), Ty::Enum(_)) if *s == Scalar::Bool => None,
            _ => None,
        }
    }

    pub fn derives_from(&self, d: ClassId, b: ClassId) -> bool {
        d == b || self.classes[d.0 as usize].bases.iter().any(|x| self.derives_from(*x, b))
    }

    /// A non-explicit constructor of `cls` taking one argument that `v` converts to by a
    /// standard conversion.
    fn converting_ctor(&mut self, cls: ClassId, v: &Val) -> Option<FuncId> {
        if v.ty == Ty::Class(cls) {
            return None;
        }
        let ctors = self.classes[cls.0 as usize].ctors.clone();
        for f in ctors {
            let def = self.funcs[f.0 as usize].def.clone();
            if def.flags.is_explicit || def.params.is_empty() {
                continue;
            }
            if def.params.iter().skip(1).any(|p| p.default.is_none()) {
                continue;
            }
            let sig = self.sig(f);
            let p = sig.params[0].clone();
            let r = match &p {
                Ty::Ref(t, c) if *c || v.lv => self.value_rank_std(v, t),
                Ty::Ref(..) => None,
                t => self.value_rank_std(v, t),
            };
            if r.is_some() {
                return Some(f);
            }
        }
        None
    }

    /// A standard conversion only (no user-defined step).
    fn value_rank_std(&mut self, v: &Val, t: &Ty) -> Option<u32> {
        if v.ty.is_class() || t.is_class() {
            return (v.ty == *t).then_some(0);
        }
        self.value_rank(v, t)
    }

    /// A conversion function of `cls` whose target satisfies `pred`.
    pub fn conversion_to(&mut self, cls: ClassId, pred: &dyn Fn(&Ty) -> bool) -> Option<FuncId> {
        let Some((Ent::Funcs(fs, _), _)) = self.class_member(cls, "operator") else { return None };
        for f in fs {
            let def = self.funcs[f.0 as usize].def.clone();
            let Some(t) = &def.conversion else { continue };
            let ctx = self.funcs[f.0 as usize].ctx.clone();
            let ty = self.resolve_type(t, &ctx);
            if pred(ty.strip_ref()) {
                return Some(f);
            }
        }
        None
    }

    // ----- overload resolution -----

    /// Picks the best candidate and inlines it.
    #[allow(clippy::too_many_arguments)]
    pub fn call_overloaded(
        &mut self,
        name: &str,
        funcs: Vec<FuncId>,
        templates: Vec<TemplateId>,
        this: Option<Val>,
        args: Vec<Arg>,
        explicit: Option<Vec<TArg>>,
        span: Span,
    ) -> Val {
        let mut cands = Vec::new();
        for f in funcs {
            let member = self.is_nonstatic_member(f);
            if explicit.is_some() {
                continue;
            }
            cands.push(Cand {
                f,
                this: if member { this.clone() } else { None },
                args: args.clone(),
                from_template: false,
            });
        }
        for t in templates {
            if let Some(f) = self.deduce_call(t, &args, explicit.as_deref(), span) {
                let member = self.is_nonstatic_member(f);
                cands.push(Cand {
                    f,
                    this: if member { this.clone() } else { None },
                    args: args.clone(),
                    from_template: true,
                });
            }
        }
        self.pick_and_call(name, cands, span)
    }

    fn is_nonstatic_member(&self, f: FuncId) -> bool {
        let func = &self.funcs[f.0 as usize];
        func.owner.is_some() && !func.def.flags.is_static
    }

    fn pick_and_call(&mut self, name: &str, cands: Vec<Cand>, span: Span) -> Val {
        let mut scored: Vec<(Cand, Vec<u32>)> = Vec::new();
        for cand in cands {
            let sig = self.sig(cand.f);
            let n = cand.args.len();
            if n > sig.params.len() || n < sig.required {
                continue;
            }
            let member = self.is_nonstatic_member(cand.f);
            let mut ranks = Vec::new();
            if member {
                // The implicit object: a const object needs a const member function.
                let is_const_fn = self.funcs[cand.f.0 as usize].def.flags.is_const;
                match &cand.this {
                    Some(t) if t.is_const && !is_const_fn => continue,
                    Some(t) => ranks.push(u32::from(is_const_fn && !t.is_const)),
                    None => continue,
                }
            }
            if let Some(r) = self.arg_ranks(&cand.args, &sig.params) {
                ranks.extend(r);
                scored.push((cand, ranks));
            }
        }
        if scored.is_empty() {
            let args = self.describe_args_of(name);
            self.err(codes::CXX_OVERLOAD, format!("no matching function for call to `{name}`{args}"), span);
            return Val::error(span);
        }
        // The best: no worse than every other in every argument.
        let variadic: HashSet<FuncId> = scored
            .iter()
            .map(|c| c.0.f)
            .filter(|f| self.funcs[f.0 as usize].def.params.iter().any(|p| p.pack))
            .collect();
        let s_variadic = |f: FuncId| variadic.contains(&f);
        let better = |a: &(Cand, Vec<u32>), b: &(Cand, Vec<u32>)| -> bool {
            if a.1.len() != b.1.len() {
                return false;
            }
            let no_worse = a.1.iter().zip(&b.1).all(|(x, y)| x <= y);
            let some_better = a.1.iter().zip(&b.1).any(|(x, y)| x < y);
            // Equal conversions: a non-template beats a template, and a template without a
            // parameter pack beats one with (it is more specialized).
            no_worse
                && (some_better
                    || (!a.0.from_template && b.0.from_template)
                    || (a.0.from_template && b.0.from_template && !s_variadic(a.0.f) && s_variadic(b.0.f)))
        };
        let mut best = 0;
        for i in 1..scored.len() {
            if better(&scored[i], &scored[best]) {
                best = i;
            }
        }
        for i in 0..scored.len() {
            if i != best && !better(&scored[best], &scored[i]) {
                // Identical candidates (a template instance found twice) are one.
                if scored[i].0.f == scored[best].0.f {
                    continue;
                }
                self.err(codes::CXX_OVERLOAD, format!("call to `{name}` is ambiguous"), span);
                return Val::error(span);
            }
        }
        let (cand, _) = scored.swap_remove(best);
        let access_ok = self.check_access(cand.f, span);
        if !access_ok {
            return Val::error(span);
        }
        self.inline_call(cand.f, cand.this, cand.args, span)
    }

    fn describe_args_of(&self, _name: &str) -> String {
        String::new()
    }

    /// Private and protected members are usable only inside their class (and classes derived
    /// from it, for protected ones).
    fn check_access(&mut self, f: FuncId, span: Span) -> bool {
        let func = &self.funcs[f.0 as usize];
        let Some(owner) = func.owner else { return true };
        if func.access == ast::Access::Public {
            return true;
        }
        let access = func.access;
        let ctx = self.ctx();
        let mut cur = ctx.class;
        while let Some(c) = cur {
            if c == owner || (access == ast::Access::Protected && self.derives_from(c, owner)) {
                return true;
            }
            // A lambda or nested class inside the member can use it too.
            cur = self.enclosing_class(c);
        }
        let what = if access == ast::Access::Private { "private" } else { "protected" };
        let msg = format!("`{}` is a {what} member of `{}`", func.name, self.classes[owner.0 as usize].name);
        self.err(codes::CXX_ACCESS, msg, span);
        false
    }

    pub fn deduce_call_pub(
        &mut self,
        t: TemplateId,
        args: &[Arg],
        explicit: Option<&[TArg]>,
        span: Span,
    ) -> Option<FuncId> {
        self.deduce_call(t, args, explicit, span)
    }

    /// Deduces a function template's arguments from a call and instantiates it.
    fn deduce_call(&mut self, t: TemplateId, args: &[Arg], explicit: Option<&[TArg]>, span: Span) -> Option<FuncId> {
        let TemplateKind::Func(def) = self.templates[t.0 as usize].kind.clone() else { return None };
        let params = self.templates[t.0 as usize].params.clone();
        let tctx = self.templates[t.0 as usize].ctx.clone();
        let mut bound: HashMap<ast::Name, TArg> = HashMap::new();
        if let Some(ex) = explicit {
            if ex.len() > params.len() {
                return None;
            }
            for (p, a) in params.iter().zip(ex) {
                bound.insert(p.name.clone(), a.clone());
            }
        }
        let n = self.diags.len();
        // A function parameter pack takes the remaining arguments, each deducing one element of
        // the template parameter packs its type names.
        if let Some(pi) = def.params.iter().position(|p| p.pack) {
            let pp = def.params[pi].clone();
            let pack_names: Vec<ast::Name> = params
                .iter()
                .filter(|x| x.pack && self.mentions_params(&pp.ty, std::slice::from_ref(x)))
                .map(|x| x.name.clone())
                .collect();
            let mut elems: HashMap<ast::Name, Vec<TArg>> = pack_names.iter().map(|n| (n.clone(), vec![])).collect();
            for a in args.iter().skip(pi) {
                let Arg::Val(v) = a else { return None };
                let by_ref = matches!(pp.ty.kind, ast::TypeKind::Ref(..));
                let aty = if by_ref { v.ty.clone() } else { v.ty.decay(v.space) };
                let mut trial = bound.clone();
                for pn in &pack_names {
                    trial.remove(pn);
                }
                if !self.deduce_type(&pp.ty, &aty, &params, &tctx, &mut trial) {
                    self.diags.truncate(n);
                    return None;
                }
                for pn in &pack_names {
                    match trial.get(pn) {
                        Some(t) => elems.entry(pn.clone()).or_default().push(t.clone()),
                        None => return None,
                    }
                }
            }
            for (pn, v) in elems {
                bound.insert(pn, TArg::Pack(v));
            }
        }
        for (p, a) in def.params.iter().take_while(|p| !p.pack).zip(args) {
            let Arg::Val(v) = a else { continue };
            if v.is_error() {
                continue;
            }
            // By value: arrays decay and top-level const goes; by reference: the type itself.
            // A parameter whose template parameters were all given explicitly is not deduced
            // (its argument converts).
            let explicit_names: Vec<ast::Name> = match explicit {
                Some(ex) => params.iter().take(ex.len()).map(|x| x.name.clone()).collect(),
                None => vec![],
            };
            let mentioned: Vec<&ast::TemplateParam> =
                params.iter().filter(|x| self.mentions_params(&p.ty, std::slice::from_ref(x))).collect();
            if !mentioned.is_empty() && mentioned.iter().all(|x| explicit_names.contains(&x.name)) {
                continue;
            }
            let by_ref = matches!(p.ty.kind, ast::TypeKind::Ref(..));
            let aty = if by_ref { v.ty.clone() } else { v.ty.decay(v.space) };
            let mut trial = bound.clone();
            if self.deduce_type(&p.ty, &aty, &params, &tctx, &mut trial) {
                bound = trial;
            } else if self.mentions_params(&p.ty, &params) {
                self.diags.truncate(n);
                return None;
            }
        }
        self.diags.truncate(n);
        // Parameters left undeduced take their defaults (instantiate fills them).
        let mut targs = Vec::new();
        for p in &params {
            match bound.get(&p.name) {
                Some(a) => targs.push(a.clone()),
                None if p.pack => targs.push(TArg::Pack(vec![])),
                None => {
                    let has_default = match &p.kind {
                        ast::TemplateParamKind::Type { default } => default.is_some(),
                        ast::TemplateParamKind::Value { default, .. } => default.is_some(),
                    };
                    if !has_default {
                        return None;
                    }
                    break;
                }
            }
        }
        match self.instantiate(t, targs, span)? {
            Ent::Funcs(fs, _) => fs.first().copied(),
            _ => None,
        }
    }

    fn mentions_params(&self, t: &ast::Type, params: &[ast::TemplateParam]) -> bool {
        match &t.kind {
            ast::TypeKind::Named(q) => q.parts.iter().any(|p| {
                params.iter().any(|x| x.name == p.name)
                    || p.targs.iter().flatten().any(|a| match a {
                        ast::TemplateArg::Type(t) => self.mentions_params(t, params),
                        ast::TemplateArg::Expr(e) => matches!(&e.kind, ExprKind::Name(q) if q.is_simple() && params.iter().any(|x| x.name == q.parts[0].name)),
                    })
            }),
            ast::TypeKind::Pointer(i) | ast::TypeKind::Ref(i, _) | ast::TypeKind::Array(i, _) | ast::TypeKind::Qualified { inner: i, .. } => {
                self.mentions_params(i, params)
            }
            _ => false,
        }
    }

    // ----- calls as written -----

    pub fn call_expr(&mut self, f: &ast::Expr, args: &[ast::Expr], span: Span) -> Val {
        match &f.kind {
            ExprKind::Name(q) => self.call_named(q, args, span),
            ExprKind::Member(base, part, arrow) => {
                let obj = self.member_object(base, *arrow, span);
                if obj.is_error() {
                    return obj;
                }
                let argv: Vec<Arg> = self.call_args(args);
                self.method_call(obj, part, argv, span)
            }
            ExprKind::Paren(inner) => self.call_expr(inner, args, span),
            _ => {
                let callee = self.expr(f);
                if callee.is_error() {
                    return callee;
                }
                let argv: Vec<Arg> = self.call_args(args);
                if callee.ty.is_class() {
                    return self.operator_call("operator()", callee, argv, span);
                }
                self.err(codes::NOT_CALLABLE, "this expression is not callable", span);
                Val::error(span)
            }
        }
    }

    fn call_named(&mut self, q: &ast::QualName, args: &[ast::Expr], span: Span) -> Val {
        let ctx = self.ctx();
        // A local function object or lambda.
        if q.is_simple()
            && let Some(Local::Var(v)) = self.fx.as_ref().and_then(|fx| fx.local(&q.parts[0].name))
        {
            let argv: Vec<Arg> = self.call_args(args);
            if v.ty.is_class() {
                return self.operator_call("operator()", v, argv, span);
            }
            self.err(codes::NOT_CALLABLE, format!("`{}` is not a function", q.parts[0].name), span);
            return Val::error(span);
        }
        // A data member of the current object that is a function object (`f(x)` in a member
        // function of a class holding a lambda).
        if q.is_simple()
            && let Some(this) = self.fx.as_ref().and_then(|fx| fx.frame().this.clone())
            && let Some(cls) = this.ty.class()
            && self.find_field(cls, &q.parts[0].name).is_some()
        {
            let fv = self.field_access(&this, cls, &q.parts[0].name, span);
            let argv: Vec<Arg> = self.call_args(args);
            if fv.ty.is_class() {
                return self.operator_call("operator()", fv, argv, span);
            }
            self.err(codes::NOT_CALLABLE, format!("`{}` is not a function", q.parts[0].name), span);
            return Val::error(span);
        }
        let argv: Vec<Arg> = self.call_args(args);
        if argv.iter().any(|a| a.val().is_some_and(Val::is_error)) {
            return Val::error(span);
        }
        let explicit = match &q.last().targs {
            Some(ts) => match self.template_args(ts, &ctx) {
                Some(t) => Some(t),
                None => return Val::error(span),
            },
            None => None,
        };
        // A member function of the current class (called on `*this`).
        if q.is_simple() || (q.parts.len() == 1 && explicit.is_some()) {
            let n = &q.parts[0].name;
            if let Some(this) = self.fx.as_ref().and_then(|fx| fx.frame().this.clone())
                && let Some(cls) = this.ty.class()
                && let Some((Ent::Funcs(fs, ts), _)) = self.class_member(cls, n)
            {
                return self.call_overloaded(n, fs, ts, Some(this), argv, explicit, span);
            }
            if let Some(cls) = ctx.class
                && let Some((Ent::Funcs(fs, ts), _)) = self.class_member(cls, n)
            {
                return self.call_overloaded(n, fs, ts, None, argv, explicit, span);
            }
        }
        let mut base = q.clone();
        if let Some(l) = base.parts.last_mut() {
            l.targs = None;
        }
        let found = self.lookup_qual(&base, &ctx);
        match found {
            Some(Ent::Funcs(mut fs, mut ts)) => {
                if q.is_simple() || explicit.is_some() && q.parts.len() == 1 {
                    let (af, at) = self.adl(&q.last().name, &argv);
                    for f in af {
                        if !fs.contains(&f) {
                            fs.push(f);
                        }
                    }
                    for t in at {
                        if !ts.contains(&t) {
                            ts.push(t);
                        }
                    }
                }
                self.call_overloaded(&q.spelled(), fs, ts, None, argv, explicit, span)
            }
            Some(Ent::Builtin(n)) if super::lookup::LIBRARY_INTRINSICS.contains(&&*n) => {
                self.library_call(&n, explicit, argv, span)
            }
            Some(Ent::Builtin(n)) => self.builtin_call(&n, argv, span),
            Some(Ent::Type(t)) => self.functional_args(&t, argv, span),
            Some(Ent::Template(t)) => {
                // A class template named with arguments is a type; without, its arguments are
                // deduced from a constructor (C++17), which kiln does not do.
                match explicit {
                    Some(ex) => match self.instantiate(t, ex, span) {
                        Some(Ent::Type(ty)) => self.functional_args(&ty, argv, span),
                        _ => Val::error(span),
                    },
                    None => {
                        self.err(
                            codes::CXX_TEMPLATE,
                            format!(
                                "`{}` needs template arguments (kiln does not deduce class template arguments)",
                                q.spelled()
                            ),
                            span,
                        );
                        Val::error(span)
                    }
                }
            }
            Some(other) => {
                let v = self.ent_value(other, q, span);
                if v.is_error() {
                    return v;
                }
                self.err(codes::NOT_CALLABLE, format!("`{}` is not a function", q.spelled()), span);
                Val::error(span)
            }
            None => {
                if q.is_simple() {
                    let (af, at) = self.adl(&q.last().name, &argv);
                    if !af.is_empty() || !at.is_empty() {
                        return self.call_overloaded(&q.spelled(), af, at, None, argv, explicit, span);
                    }
                    if super::lookup::is_builtin_function(&q.last().name) || q.last().name.starts_with("__builtin_") {
                        return self.builtin_call(&q.last().name, argv, span);
                    }
                }
                if !self.reported_inside(q.span) {
                    self.err(codes::UNDECLARED, format!("use of undeclared function `{}`", q.spelled()), q.span);
                }
                Val::error(span)
            }
        }
    }

    /// Functions named `n` in the namespaces of the arguments' classes (argument-dependent
    /// lookup), friends defined in those classes included.
    fn adl(&mut self, n: &str, args: &[Arg]) -> (Vec<FuncId>, Vec<TemplateId>) {
        let mut fs = Vec::new();
        let mut ts = Vec::new();
        let mut seen = HashSet::new();
        for a in args {
            let Some(v) = a.val() else { continue };
            let ns = match &v.ty {
                Ty::Class(c) => self.classes[c.0 as usize].ctx.ns,
                Ty::Enum(e) => self.enums[e.0 as usize].ns,
                _ => continue,
            };
            if !seen.insert(ns) {
                continue;
            }
            if let Some(Ent::Funcs(f, t)) = self.nss[ns.0 as usize].members.get(n).cloned() {
                fs.extend(f);
                ts.extend(t);
            }
        }
        (fs, ts)
    }

    /// `T(args)` with arguments already elaborated.
    fn functional_args(&mut self, t: &Ty, args: Vec<Arg>, span: Span) -> Val {
        match t {
            Ty::Class(c) => self.construct_temp(*c, args, span),
            _ => match args.as_slice() {
                [] => self.convert_explicit(Val::konst(Konst::Int(0), Ty::INT, span), t, span),
                [Arg::Val(v)] => self.convert_explicit(v.clone(), t, span),
                _ if matches!(t, Ty::Vector(..)) => {
                    let vals: Vec<c::Expr> = args.iter().filter_map(|a| a.val().map(Val::expr)).collect();
                    let inner = cx(c::ExprKind::Paren(Box::new(cx(c::ExprKind::Comma(vals), span))), span);
                    let tn = crate::ty::c_type_name(t, self, span);
                    Val::rv(cx(c::ExprKind::Cast(Box::new(tn), Box::new(inner)), span), t.clone(), span)
                }
                _ => {
                    self.err(
                        codes::BAD_CAST,
                        format!("cannot construct `{}` from these arguments", self.display_ty(t)),
                        span,
                    );
                    Val::error(span)
                }
            },
        }
    }

    /// `obj.f(args)`.
    pub fn method_call(&mut self, obj: Val, part: &ast::NamePart, args: Vec<Arg>, span: Span) -> Val {
        let ctx = self.ctx();
        let explicit = match &part.targs {
            Some(ts) => match self.template_args(ts, &ctx) {
                Some(t) => Some(t),
                None => return Val::error(span),
            },
            None => None,
        };
        match obj.ty.clone() {
            Ty::Class(cls) => {
                // A closure's or function object's data member called: `s.f(x)` where `f` is a
                // lambda stored in `s`.
                if self.find_field(cls, &part.name).is_some() {
                    let fv = self.field_access(&obj, cls, &part.name, span);
                    return self.operator_call("operator()", fv, args, span);
                }
                match self.class_member(cls, &part.name) {
                    Some((Ent::Funcs(fs, ts), _)) => {
                        self.call_overloaded(&part.name, fs, ts, Some(obj), args, explicit, span)
                    }
                    _ => {
                        self.err(
                            codes::NO_MEMBER,
                            format!("`{}` has no member function `{}`", self.classes[cls.0 as usize].name, part.name),
                            part.span,
                        );
                        Val::error(span)
                    }
                }
            }
            Ty::Atomic(s) => self.atomic_method(obj, s, &part.name, args, span),
            Ty::Ptr(..) if &*part.name == "get" && args.is_empty() => {
                // `global_ptr<T>::get()`: the library's pointers are OpenCL C pointers.
                let mut v = obj;
                v.lv = false;
                v
            }
            Ty::Pipe(..) => self.pipe_method(obj, &part.name, args, span),
            t => {
                self.err(
                    codes::NO_MEMBER,
                    format!("a value of type `{}` has no member function `{}`", self.display_ty(&t), part.name),
                    span,
                );
                Val::error(span)
            }
        }
    }

    /// `cl::atomic<T>`'s member functions on OpenCL C's atomic types.
    fn atomic_method(&mut self, obj: Val, _s: Scalar, name: &str, args: Vec<Arg>, span: Span) -> Val {
        let addr = self.unary_on(ast::UnOp::AddrOf, obj, span);
        if addr.is_error() {
            return addr;
        }
        let builtin = match name {
            "load" => "atomic_load",
            "store" => "atomic_store",
            "exchange" => "atomic_exchange",
            "fetch_add" => "atomic_fetch_add",
            "fetch_sub" => "atomic_fetch_sub",
            "fetch_and" => "atomic_fetch_and",
            "fetch_or" => "atomic_fetch_or",
            "fetch_xor" => "atomic_fetch_xor",
            "fetch_min" => "atomic_fetch_min",
            "fetch_max" => "atomic_fetch_max",
            "compare_exchange_strong" | "compare_exchange_weak" => {
                let mut a = args;
                if let Some(Arg::Val(exp)) = a.first().cloned() {
                    let p = self.unary_on(ast::UnOp::AddrOf, exp, span);
                    a[0] = Arg::Val(p);
                }
                let mut all = vec![Arg::Val(addr)];
                all.extend(a.into_iter().take(2));
                return self.builtin_call(&format!("atomic_{name}"), all, span);
            }
            _ => {
                self.err(codes::NO_MEMBER, format!("atomic objects have no member function `{name}`"), span);
                return Val::error(span);
            }
        };
        let mut all = vec![Arg::Val(addr)];
        // Memory orders and scopes: kiln performs every atomic operation in program order.
        all.extend(args.into_iter().take(if matches!(name, "load") { 0 } else { 1 }));
        self.builtin_call(builtin, all, span)
    }

    /// `cl::pipe<T>`'s `read` and `write` on an OpenCL C pipe.
    fn pipe_method(&mut self, obj: Val, name: &str, args: Vec<Arg>, span: Span) -> Val {
        match name {
            "read" | "write" => {
                let Some(Arg::Val(x)) = args.first().cloned() else {
                    self.err(codes::ARG_COUNT, format!("`{name}` takes the packet"), span);
                    return Val::error(span);
                };
                let p = if x.lv {
                    self.unary_on(ast::UnOp::AddrOf, x, span)
                } else {
                    let t = self.materialize(x, span);
                    self.unary_on(ast::UnOp::AddrOf, t, span)
                };
                let r = self.builtin_call(&format!("{name}_pipe"), vec![Arg::Val(obj), Arg::Val(p)], span);
                // OpenCL C returns 0 on success; the library returns `true`.
                if r.is_error() {
                    return r;
                }
                let zero = Val::konst(Konst::Int(0), Ty::INT, span);
                self.binary_on(ast::BinOp::Eq, r, zero, span)
            }
            "num_packets" | "max_packets" => self.builtin_call(&format!("get_pipe_{name}"), vec![Arg::Val(obj)], span),
            // `pipe_storage<T, N>::get<access>()`: the program-scope pipe itself.
            "get" => obj,
            _ => {
                self.err(codes::NO_MEMBER, format!("pipes have no member function `{name}`"), span);
                Val::error(span)
            }
        }
    }

    /// The library's conversion and vector load/store templates, as OpenCL C's built-ins.
    fn library_call(&mut self, name: &str, explicit: Option<Vec<TArg>>, args: Vec<Arg>, span: Span) -> Val {
        let ex = explicit.unwrap_or_default();
        let c_name = |s: &Self, t: &Ty| -> Option<String> {
            match t {
                Ty::Scalar(x) => Some(crate::ty::scalar_name(*x).to_string()),
                Ty::Vector(x, n) => Some(format!("{}{n}", crate::ty::scalar_name(*x))),
                Ty::Enum(e) => Some(crate::ty::scalar_name(s.enums[e.0 as usize].scalar).to_string()),
                _ => None,
            }
        };
        let enum_named = |s: &Self, a: &TArg, want: &str| -> Option<i128> {
            match a {
                TArg::Value(Konst::Int(v), Ty::Enum(e)) if s.enums[e.0 as usize].name.ends_with(want) => Some(*v),
                _ => None,
            }
        };
        let rounding = |v: i128| ["_rte", "_rtz", "_rtp", "_rtn"].get(v as usize).copied().unwrap_or("");
        let builtin = match name {
            "convert_cast" | "as_type" => {
                let Some(TArg::Type(t)) = ex.first() else {
                    self.err(codes::CXX_TEMPLATE, format!("`{name}` needs the target type: `{name}<T>(x)`"), span);
                    return Val::error(span);
                };
                let Some(tn) = c_name(self, t) else {
                    self.err(
                        codes::CXX_TEMPLATE,
                        format!("`{name}` converts to scalar and vector types, not `{}`", self.display_ty(t)),
                        span,
                    );
                    return Val::error(span);
                };
                if name == "as_type" {
                    format!("as_{tn}")
                } else {
                    let mut b = format!("convert_{tn}");
                    if ex.iter().skip(1).any(|a| enum_named(self, a, "saturate") == Some(1)) {
                        b.push_str("_sat");
                    }
                    if let Some(r) = ex.iter().skip(1).find_map(|a| enum_named(self, a, "rounding_mode")) {
                        b.push_str(rounding(r));
                    }
                    b
                }
            }
            "vload" | "vload_half" | "vloada_half" => {
                let n = match ex.first() {
                    Some(TArg::Value(Konst::Int(n), _)) => *n,
                    _ => {
                        self.err(
                            codes::CXX_TEMPLATE,
                            format!("`{name}` needs the vector size: `{name}<N>(offset, p)`"),
                            span,
                        );
                        return Val::error(span);
                    }
                };
                if name == "vload_half" && n == 1 { "vload_half".to_string() } else { format!("{name}{n}") }
            }
            _ => {
                // vstore(v, offset, p), vstore_half<R>(v, offset, p)
                let n = match args.first().and_then(Arg::val).map(|v| v.ty.clone()) {
                    Some(Ty::Vector(_, n)) => n.to_string(),
                    _ => String::new(),
                };
                let r = ex.iter().find_map(|a| enum_named(self, a, "rounding_mode")).map(rounding).unwrap_or("");
                format!("{name}{n}{r}")
            }
        };
        self.builtin_call(&builtin, args, span)
    }

    /// An OpenCL C built-in function called with elaborated arguments.
    pub fn builtin_call(&mut self, name: &str, args: Vec<Arg>, span: Span) -> Val {
        let mut vals = Vec::new();
        for a in args {
            match a {
                Arg::Val(v) if v.is_error() => return v,
                Arg::Val(v) if v.ty.is_class() => {
                    // A class converted by its conversion function, if it has exactly one.
                    let cls = v.ty.class().unwrap_or(crate::ty::ClassId(0));
                    match self.conversion_to(cls, &|t| !t.is_class()) {
                        Some(f) => vals.push(self.inline_call(f, Some(v.clone()), vec![], span)),
                        None => {
                            self.err(
                                codes::BUILTIN_ARGS,
                                format!("`{name}` cannot take an argument of type `{}`", self.display_ty(&v.ty)),
                                v.span,
                            );
                            return Val::error(span);
                        }
                    }
                }
                Arg::Val(v) => vals.push(v),
                Arg::Braced(_, s) => {
                    self.err(codes::BUILTIN_ARGS, format!("`{name}` cannot take a braced list"), s);
                    return Val::error(span);
                }
            }
        }
        let refs: Vec<&Val> = vals.iter().collect();
        let callee = name.to_string();
        let ty = self.oracle_op(&|l| c::ExprKind::Call(Box::new(ident(&callee, Span::default())), l), &refs, span);
        let Some(ty) = ty else {
            // Let OpenCL C's own diagnostic explain: write the call anyway.
            let e = cx(c::ExprKind::Call(Box::new(ident(name, span)), vals.iter().map(Val::expr).collect()), span);
            self.push_stmt_expr(e);
            let tys: Vec<String> = vals.iter().map(|v| format!("`{}`", self.display_ty(&v.ty))).collect();
            self.err(
                codes::BUILTIN_ARGS,
                format!("no overload of built-in `{name}` takes arguments of types {}", tys.join(", ")),
                span,
            );
            return Val::error(span);
        };
        let e = cx(c::ExprKind::Call(Box::new(ident(name, span)), vals.iter().map(Val::expr).collect()), span);
        if ty == Ty::Void {
            self.push_stmt_expr(e);
            return Val::void(span);
        }
        Val::rv(e, ty, span)
    }

    /// An operator function called on an object: members of its class, then non-member
    /// operators (found by ordinary and argument-dependent lookup).
    pub fn operator_call(&mut self, name: &str, obj: Val, args: Vec<Arg>, span: Span) -> Val {
        let Some(cls) = obj.ty.class() else {
            self.err(
                codes::BAD_OPERANDS,
                format!("no `{name}` for a value of type `{}`", self.display_ty(&obj.ty)),
                span,
            );
            return Val::error(span);
        };
        // A lambda's call operator.
        if name == "operator()"
            && let Some(info) = self.classes[cls.0 as usize].closure.clone()
        {
            return self.call_closure(obj, cls, info, args, span);
        }
        let mut cands = Vec::new();
        if let Some((Ent::Funcs(fs, ts), _)) = self.class_member(cls, name) {
            for f in fs {
                cands.push(Cand { f, this: Some(obj.clone()), args: args.clone(), from_template: false });
            }
            for t in ts {
                if let Some(f) = self.deduce_call(t, &args, None, span) {
                    cands.push(Cand { f, this: Some(obj.clone()), args: args.clone(), from_template: true });
                }
            }
        }
        let mut all_args = vec![Arg::Val(obj.clone())];
        all_args.extend(args.iter().cloned());
        let (fs, ts) = self.free_operators(name, &all_args);
        for f in fs {
            if self.funcs[f.0 as usize].owner.is_some() && !self.funcs[f.0 as usize].def.flags.is_friend {
                continue;
            }
            cands.push(Cand { f, this: None, args: all_args.clone(), from_template: false });
        }
        for t in ts {
            if let Some(f) = self.deduce_call(t, &all_args, None, span) {
                cands.push(Cand { f, this: None, args: all_args.clone(), from_template: true });
            }
        }
        if cands.is_empty() {
            self.err(codes::BAD_OPERANDS, format!("`{}` has no `{name}`", self.classes[cls.0 as usize].name), span);
            return Val::error(span);
        }
        self.pick_and_call(name, cands, span)
    }

    /// Operator functions for `l op r` on enumerations, when any are declared (`None`: the
    /// built-in operator).
    pub fn enum_operator_call(&mut self, name: &str, l: Val, r: Val, span: Span) -> Option<Val> {
        let all = vec![Arg::Val(l), Arg::Val(r)];
        let (fs, ts) = self.free_operators(name, &all);
        if fs.is_empty() && ts.is_empty() {
            return None;
        }
        Some(self.call_overloaded(name, fs, ts, None, all, None, span))
    }

    /// `l op r` where an operand is a class object.
    pub fn binary_operator_call(&mut self, name: &str, l: Val, r: Val, span: Span) -> Val {
        if l.ty.class().is_some() {
            return self.operator_call(name, l, vec![Arg::Val(r)], span);
        }
        let all = vec![Arg::Val(l), Arg::Val(r)];
        let (fs, ts) = self.free_operators(name, &all);
        if fs.is_empty() && ts.is_empty() {
            let (a, b) = (
                all[0].val().map(|v| v.ty.clone()).unwrap_or(Ty::Error),
                all[1].val().map(|v| v.ty.clone()).unwrap_or(Ty::Error),
            );
            self.err(
                codes::BAD_OPERANDS,
                format!("no `{name}` for operands of types `{}` and `{}`", self.display_ty(&a), self.display_ty(&b)),
                span,
            );
            return Val::error(span);
        }
        self.call_overloaded(name, fs, ts, None, all, None, span)
    }

    pub fn free_operators_pub(&mut self, name: &str, args: &[Arg]) -> (Vec<FuncId>, Vec<TemplateId>) {
        self.free_operators(name, args)
    }

    fn free_operators(&mut self, name: &str, args: &[Arg]) -> (Vec<FuncId>, Vec<TemplateId>) {
        let ctx = self.ctx();
        let (mut fs, mut ts) = match self.lookup_unqual(name, &ctx) {
            Some(Ent::Funcs(f, t)) => (f, t),
            _ => (vec![], vec![]),
        };
        let (af, at) = self.adl(name, args);
        for f in af {
            if !fs.contains(&f) {
                fs.push(f);
            }
        }
        for t in at {
            if !ts.contains(&t) {
                ts.push(t);
            }
        }
        (fs, ts)
    }

    // ----- inlining -----

    /// Writes a call of `f` inline: parameters bound, the body elaborated in its own frame.
    pub fn inline_call(&mut self, f: FuncId, this: Option<Val>, args: Vec<Arg>, span: Span) -> Val {
        self.used_funcs.insert(f);
        let def = self.funcs[f.0 as usize].def.clone();
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let name = self.funcs[f.0 as usize].name.clone();
        if self.fx.as_ref().is_some_and(|fx| fx.call_stack.contains(&f)) {
            self.err(
                codes::CXX_FORBIDDEN,
                format!(
                    "`{name}` calls itself: OpenCL C++ does not support recursive function calls (OpenCL C++ 1.0 §2.9)"
                ),
                span,
            );
            return Val::error(span);
        }
        if self.fx.as_ref().is_some_and(|fx| fx.call_stack.len() > 200) {
            self.err(codes::CXX_UNSUPPORTED, "calls nested too deeply", span);
            return Val::error(span);
        }
        let Some(body) = def.body.clone() else {
            if def.flags.defaulted {
                return self.defaulted_call(f, this, args, span);
            }
            self.err(codes::UNDEFINED_FUNCTION, format!("`{name}` is declared but never defined"), span);
            return Val::error(span);
        };
        let sig = self.sig(f);
        // A `constexpr` function of constant arguments is its value.
        if def.flags.is_constexpr
            && this.is_none()
            && args.len() == def.params.len()
            && let Some(consts) = args
                .iter()
                .map(|a| a.val().and_then(|v| v.k.clone().map(|k| (k, v.ty.clone()))))
                .collect::<Option<Vec<_>>>()
            && let Some((k, t)) = self.const_call(f, consts)
            && !matches!(k, Konst::Aggregate(_))
        {
            return Val::konst(k, t, span);
        }
        let modified = super::stmt::modified_names(&body);
        let single = single_return(&body);
        self.push_frame(ctx.clone(), this.clone(), Some(f), sig.ret.clone(), span);
        // Arguments, with the defaults of missing ones.
        let mut all = args;
        let mut at = 0usize;
        for p in def.params.iter() {
            let n = if p.pack { self.param_types(p, &ctx).len() } else { 1 };
            if at >= all.len()
                && let Some(d) = &p.default
            {
                let v = self.expr(d);
                all.push(Arg::Val(v));
            }
            at += n;
        }
        // Arguments in parameter order; a parameter pack takes as many as its types say.
        let mut all = all.into_iter();
        let mut next_ty = sig.params.clone().into_iter();
        for p in def.params.iter() {
            if p.pack {
                let n = self.param_types(p, &ctx).len();
                let mut elems = Vec::new();
                for k in 0..n {
                    let (Some(a), Some(pty)) = (all.next(), next_ty.next()) else { break };
                    let name = format!("{}_{k}", p.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_default());
                    let may_change = p.name.as_ref().is_some_and(|(n, _)| modified.contains(n));
                    if let Local::Var(v) = self.bind_param(&name, &pty, a, may_change, false, p.span) {
                        elems.push(v);
                    }
                }
                if let Some((pname, _)) = &p.name {
                    self.bind_local(pname.clone(), Local::Pack(elems));
                }
                continue;
            }
            let (Some(a), Some(pty)) = (all.next(), next_ty.next()) else { break };
            let Some((pname, _)) = &p.name else {
                // An unnamed parameter: the argument is still evaluated.
                if let Arg::Val(v) = a
                    && let Some(e) = v.c
                    && emit::has_effects(&e)
                {
                    self.push_stmt_expr(e);
                }
                continue;
            };
            let may_change = modified.contains(pname);
            let local = self.bind_param(pname, &pty, a, may_change, single, p.span);
            self.bind_local(pname.clone(), local);
        }
        let result = self.run_body(&body, span);
        self.pop_frame();
        result
    }

    /// `= default` functions: the implicit copy assignment and the default constructor.
    fn defaulted_call(&mut self, f: FuncId, this: Option<Val>, args: Vec<Arg>, span: Span) -> Val {
        let def = self.funcs[f.0 as usize].def.clone();
        if &*def.name.last().name == "operator="
            && let (Some(t), Some(Arg::Val(v))) = (this, args.into_iter().next())
        {
            if let Some(c) = &t.c {
                let e = emit::assign(c.clone(), v.expr(), span);
                self.push_stmt_expr(e);
            }
            return t;
        }
        Val::void(span)
    }

    /// A parameter bound to its argument: the argument itself (a reference, or an unchanged
    /// pure value) or a new variable holding it.
    pub fn bind_param(&mut self, name: &str, pty: &Ty, a: Arg, may_change: bool, single: bool, span: Span) -> Local {
        match pty {
            Ty::Ref(t, is_const) => {
                let v = match a {
                    Arg::Val(v) => v,
                    Arg::Braced(elems, s) => self.braced(t, &elems, s),
                };
                if v.is_error() {
                    return Local::Var(v);
                }
                let needs_conversion =
                    &v.ty != &**t && !(v.ty.class().zip(t.class()).is_some_and(|(d, b)| self.derives_from(d, b)));
                if v.lv && !needs_conversion {
                    let v = self.as_base(v, t, span);
                    let v = self.stabilize(v, span);
                    let mut v = v;
                    v.is_const |= *is_const;
                    return Local::Var(v);
                }
                if !*is_const && !v.lv {
                    self.err(
                        codes::CXX_REFERENCE,
                        format!("a non-const reference to `{}` cannot bind to a temporary", self.display_ty(t)),
                        v.span,
                    );
                    return Local::Var(Val::error(span));
                }
                // A const reference to a temporary: the temporary, converted.
                let conv = self.convert_implicit(v, t, span);
                let mut tmp = if !conv.lv && conv.c.as_ref().is_some_and(|e| matches!(e.kind, c::ExprKind::Ident(_))) {
                    conv
                } else {
                    self.materialize(conv, span)
                };
                tmp.is_const = true;
                tmp.lv = true;
                Local::Var(tmp)
            }
            t => {
                let v = match a {
                    Arg::Val(v) => v,
                    Arg::Braced(elems, s) => self.braced(t, &elems, s),
                };
                if v.is_error() {
                    return Local::Var(v);
                }
                let v = self.convert_implicit(v, t, span);
                if v.is_error() {
                    return Local::Var(v);
                }
                if let Ty::Class(c) = t
                    && !self.has_storage(*c)
                {
                    return Local::Var(Val { lv: true, ..v });
                }
                // Substitute an unchanged argument whose re-evaluation changes nothing.
                let pure = v.c.as_ref().is_some_and(|e| !emit::has_effects(e));
                if !may_change && (v.k.is_some() || (pure && (single || is_simple(&v)))) {
                    let mut v = v;
                    v.lv = false;
                    // A class argument stays an object (its members are read).
                    if v.ty.is_class() {
                        v.lv = true;
                        v.is_const = true;
                    }
                    return Local::Var(v);
                }
                let cname = self.fresh(name);
                if let Ty::Class(c) = t {
                    self.emit_class(*c);
                }
                self.push_decl(&cname, t, Some(v.expr()), span);
                let mut var = Val::lval(ident(&cname, span), t.clone(), AddrSpace::Private, span);
                var.k = None;
                if let Ty::Class(c) = t {
                    self.copy_ref_members(&var, &v, *c);
                }
                Local::Var(var)
            }
        }
    }

    /// An object of a derived class seen as its base class `t`.
    fn as_base(&mut self, v: Val, t: &Ty, span: Span) -> Val {
        let (Some(d), Some(b)) = (v.ty.class(), t.class()) else { return v };
        if d == b {
            return v;
        }
        let mut cur = v;
        let mut cls = d;
        while cls != b {
            let bases = self.classes[cls.0 as usize].bases.clone();
            let Some((i, next)) = bases.iter().enumerate().find(|(_, x)| self.derives_from(**x, b)) else { return cur };
            let e = if self.has_storage(*next) {
                cur.c.clone().map(|x| emit::member(x, &super::base_field(i), span))
            } else {
                None
            };
            cur = Val { c: e, ty: Ty::Class(*next), ..cur };
            cls = *next;
        }
        cur
    }

    /// C++'s rule for braced initializers: no narrowing conversion of an arithmetic value,
    /// unless it is a constant whose value the target type represents.
    pub fn check_narrowing(&mut self, v: &Val, to: &Ty, span: Span) {
        let from = match &v.ty {
            Ty::Scalar(s) => *s,
            Ty::Enum(e) if !self.enums[e.0 as usize].scoped => self.enums[e.0 as usize].scalar,
            _ => return,
        };
        let to_s = match to {
            Ty::Scalar(s) => *s,
            _ => return,
        };
        if from == to_s || to_s == Scalar::Bool && from == Scalar::Bool {
            return;
        }
        let narrowing = if from.is_float() && !to_s.is_float() {
            true
        } else if !from.is_float() && to_s.is_float() {
            !v.k.is_some()
        } else if from.is_float() && to_s.is_float() {
            to_s.bits() < from.bits() && v.k.is_none()
        } else {
            // Integers: narrowing unless every value of `from` fits, or the constant fits.
            let fits_all = to_s != Scalar::Bool
                && ((from.is_signed() == to_s.is_signed() && to_s.bits() >= from.bits())
                    || (!from.is_signed() && to_s.is_signed() && to_s.bits() > from.bits())
                    || from == Scalar::Bool);
            let konst_fits = v.k.as_ref().and_then(Konst::as_int).is_some_and(|x| crate::ty::wrap_int(x, to_s) == x);
            !fits_all && !konst_fits
        };
        if narrowing {
            self.err(
                codes::CXX_NARROWING,
                format!(
                    "narrowing conversion of a `{}` to `{}` in a braced initializer",
                    self.display_ty(&v.ty),
                    self.display_ty(to)
                ),
                span,
            );
        }
    }

    /// An implicit conversion to `t` (by OpenCL C for built-in types, by constructors and
    /// conversion functions for classes).
    pub fn convert_implicit(&mut self, v: Val, t: &Ty, span: Span) -> Val {
        if v.is_error() || &v.ty == t || t.is_error() {
            return v;
        }
        match (&v.ty, t) {
            (_, Ty::Class(c)) => self.convert_to_class(v, *c, span),
            (Ty::Class(c), _) => {
                let want = t.clone();
                match self
                    .conversion_to(*c, &|x| x == &want)
                    .or_else(|| self.conversion_to(*c, &|x| x.is_arith() && want.is_arith()))
                {
                    Some(f) => self.inline_call(f, Some(v), vec![], span),
                    None => {
                        self.err(
                            codes::TYPE_MISMATCH,
                            format!("no conversion from `{}` to `{}`", self.display_ty(&v.ty), self.display_ty(t)),
                            span,
                        );
                        Val::error(span)
                    }
                }
            }
            (Ty::Enum(e), _) if self.enums[e.0 as usize].scoped => {
                self.err(
                    codes::TYPE_MISMATCH,
                    format!(
                        "no implicit conversion from scoped enumeration `{}` (use `static_cast`)",
                        self.enums[e.0 as usize].name
                    ),
                    span,
                );
                Val::error(span)
            }
            (_, Ty::Scalar(_)) | (_, Ty::Enum(_)) => {
                // OpenCL C converts at the assignment; the value's type becomes the target's.
                let k = v.k.clone().map(|k| super::lookup::convert_konst(k, t));
                let mut r = v;
                if !matches!(r.ty, Ty::Scalar(_) | Ty::Enum(_)) || matches!(t, Ty::Enum(_)) {
                    return self.convert_explicit(r, t, span);
                }
                let tn = crate::ty::c_type_name(
                    &match t {
                        Ty::Enum(e) => Ty::Scalar(self.enums[e.0 as usize].scalar),
                        t => t.clone(),
                    },
                    self,
                    span,
                );
                r.c = Some(cx(c::ExprKind::Cast(Box::new(tn), Box::new(emit::paren(r.expr()))), span));
                r.ty = t.clone();
                r.k = k;
                r.lv = false;
                r
            }
            _ => {
                let mut r = v;
                r.ty = t.clone();
                r.lv = false;
                r
            }
        }
    }

    /// A value converted to a class: the object itself, a converting constructor, or a
    /// conversion function.
    pub fn convert_to_class(&mut self, v: Val, cls: ClassId, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        if let Some(d) = v.ty.class()
            && self.derives_from(d, cls)
        {
            return self.as_base(v, &Ty::Class(cls), span);
        }
        if let Some(f) = self.converting_ctor(cls, &v) {
            let tmp = self.temp_object(cls, span);
            self.construct_with(f, tmp.clone(), vec![Arg::Val(v)], span);
            return Val { lv: false, ..tmp };
        }
        if let Some(d) = v.ty.class()
            && let Some(f) = self.conversion_to(d, &|x| x == &Ty::Class(cls))
        {
            return self.inline_call(f, Some(v), vec![], span);
        }
        self.err(
            codes::TYPE_MISMATCH,
            format!("no conversion from `{}` to `{}`", self.display_ty(&v.ty), self.classes[cls.0 as usize].name),
            span,
        );
        Val::error(span)
    }

    /// A value stored in a new variable (a temporary with an address).
    pub fn materialize(&mut self, v: Val, span: Span) -> Val {
        if let Ty::Class(c) = v.ty
            && !self.has_storage(c)
        {
            return Val { lv: true, ..v };
        }
        let t = self.fresh("tmp");
        if let Ty::Class(c) = &v.ty {
            self.emit_class(*c);
        }
        let ty = v.ty.clone();
        if let Ty::Array(_, Some(n)) = &ty {
            // Arrays are copied element by element (C has no array assignment).
            self.push_decl(&t, &ty, None, span);
            let i = self.fresh("i");
            let iv = ident(&i, span);
            let d = self.c_declaration(
                &i,
                &Ty::INT,
                None,
                Some(c::Initializer::Expr(emit::int_lit(0, &Ty::INT, span))),
                span,
                &[],
                &self.ctx(),
            );
            let cond = cx(
                c::ExprKind::Binary(
                    c::BinOp::Lt,
                    Box::new(iv.clone()),
                    Box::new(emit::int_lit(i128::from(*n), &Ty::INT, span)),
                ),
                span,
            );
            let step = cx(c::ExprKind::Unary(c::UnOp::PreInc, Box::new(iv.clone())), span);
            let body = emit::stmt_expr(emit::assign(
                emit::index(ident(&t, span), iv.clone(), span),
                emit::index(v.expr(), iv, span),
                span,
            ));
            let body = match body {
                c::BlockItem::Stmt(s) => s,
                _ => emit::stmt(c::StmtKind::Expr(None), span),
            };
            self.push_stmt(emit::stmt(
                c::StmtKind::For(c::ForInit::Decl(d), Some(cond), Some(step), Box::new(body), c::LoopAttrs::default()),
                span,
            ));
            return Val::lval(ident(&t, span), ty, AddrSpace::Private, span);
        }
        self.push_decl(&t, &ty, Some(v.expr()), span);
        let var = Val::lval(ident(&t, span), ty.clone(), AddrSpace::Private, span);
        if let Ty::Class(c) = ty {
            self.copy_ref_members(&var, &v, c);
        }
        var
    }

    /// An l-value whose address expressions are evaluated once: indices with effects are
    /// computed into variables first.
    pub fn stabilize(&mut self, v: Val, span: Span) -> Val {
        let v = self.as_object(v);
        let Some(e) = v.c.clone() else { return v };
        if !emit::has_effects(&e) {
            return v;
        }
        let e = self.stabilize_expr(e, span);
        Val { c: Some(e), ..v }
    }

    fn stabilize_expr(&mut self, e: c::Expr, span: Span) -> c::Expr {
        match e.kind {
            c::ExprKind::Index(b, i) => {
                let b = self.stabilize_expr(*b, span);
                let i = if emit::has_effects(&i) {
                    let t = self.fresh("idx");
                    self.push_decl(&t, &Ty::Scalar(Scalar::I64), Some(*i), span);
                    ident(&t, span)
                } else {
                    *i
                };
                cx(c::ExprKind::Index(Box::new(b), Box::new(i)), e.span)
            }
            c::ExprKind::Member(b, n, s) => {
                let b = self.stabilize_expr(*b, span);
                cx(c::ExprKind::Member(Box::new(b), n, s), e.span)
            }
            c::ExprKind::Paren(x) => {
                let x = self.stabilize_expr(*x, span);
                cx(c::ExprKind::Paren(Box::new(x)), e.span)
            }
            _ => e,
        }
    }

    // ----- construction -----

    /// A new variable of class `cls` (no initialization), or an object without storage.
    pub fn temp_object(&mut self, cls: ClassId, span: Span) -> Val {
        if !self.has_storage(cls) {
            return Val::phantom(cls, span);
        }
        self.emit_class(cls);
        let t = self.fresh("obj");
        self.push_decl(&t, &Ty::Class(cls), None, span);
        Val::lval(ident(&t, span), Ty::Class(cls), AddrSpace::Private, span)
    }

    /// `T(args)` as a temporary object.
    pub fn construct_temp(&mut self, cls: ClassId, args: Vec<Arg>, span: Span) -> Val {
        // A copy of an object of the same class is the object itself.
        if let [Arg::Val(v)] = args.as_slice()
            && v.ty == Ty::Class(cls)
            && !self.has_user_copy_ctor(cls)
        {
            let mut v = v.clone();
            v.lv = false;
            return v;
        }
        let tmp = self.temp_object(cls, span);
        self.construct_into(cls, tmp.clone(), args, span);
        Val { lv: false, ..tmp }
    }

    fn has_user_copy_ctor(&mut self, cls: ClassId) -> bool {
        let ctors = self.classes[cls.0 as usize].ctors.clone();
        ctors.into_iter().any(|f| {
            let sig = self.sig(f);
            sig.params.len() == 1 && sig.params[0].strip_ref() == &Ty::Class(cls)
        })
    }

    /// `T{...}` as a temporary object.
    pub fn construct_braced_temp(&mut self, cls: ClassId, elems: &[ast::InitElem], span: Span) -> Val {
        let tmp = self.temp_object(cls, span);
        self.init_braced(cls, tmp.clone(), elems, span);
        Val { lv: false, ..tmp }
    }

    /// Initializes the object `target` from a braced list: an aggregate's members in order, or
    /// a constructor's arguments.
    pub fn init_braced(&mut self, cls: ClassId, target: Val, elems: &[ast::InitElem], span: Span) {
        if self.classes[cls.0 as usize].has_user_ctor {
            let args = self.braced_args(elems);
            self.construct_into_as(cls, target, args, true, span);
            return;
        }
        // An aggregate: bases, then fields, in order; the rest from their default member
        // initializers or zero (value-initialization).
        let nbases = self.classes[cls.0 as usize].bases.len();
        let fields: Vec<(ast::Name, Ty, Option<ast::Init>)> = self.classes[cls.0 as usize]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone(), f.init.clone()))
            .collect();
        let mut it = elems.iter();
        for bi in 0..nbases {
            let b = self.classes[cls.0 as usize].bases[bi];
            let sub = Val {
                c: target.c.clone().map(|x| emit::member(x, &super::base_field(bi), span)),
                ty: Ty::Class(b),
                ..target.clone()
            };
            match it.next() {
                Some(e) => self.init_member_from(sub, &Ty::Class(b), &e.value, span),
                None => self.default_init(b, sub, span),
            }
        }
        let rest: Vec<ast::InitElem> = it.cloned().collect();
        let rest = elide_braces(&rest, &fields.iter().map(|f| f.1.clone()).collect::<Vec<_>>());
        let mut positional: Vec<Option<&ast::InitElem>> = vec![None; fields.len()];
        let mut next = 0usize;
        for e in &rest {
            let idx = match &e.designator {
                Some((n, s)) => match fields.iter().position(|f| &f.0 == n) {
                    Some(i) => i,
                    None => {
                        self.err(
                            codes::NO_MEMBER,
                            format!("`{}` has no member `{n}`", self.classes[cls.0 as usize].name),
                            *s,
                        );
                        continue;
                    }
                },
                None => next,
            };
            if idx >= fields.len() {
                self.err(
                    codes::BAD_INITIALIZER,
                    format!("too many initializers for `{}`", self.classes[cls.0 as usize].name),
                    e.value.span(),
                );
                break;
            }
            positional[idx] = Some(e);
            next = idx + 1;
        }
        for (i, (fname, fty, finit)) in fields.iter().enumerate() {
            if let Ty::Ref(..) = fty {
                let init = positional[i].map(|e| match &e.value {
                    ast::InitValue::Expr(x) => ast::Init::Assign(x.clone()),
                    ast::InitValue::Brace(b, s) => ast::Init::Brace(b.clone(), *s),
                });
                self.init_ref_member(&target, fname, fty, init.as_ref().or(finit.as_ref()), span);
                continue;
            }
            let fv = self.field_access(&target, cls, fname, span);
            match positional[i] {
                Some(e) => self.init_member_from(fv, fty, &e.value, span),
                None => match finit {
                    Some(init) => {
                        let cctx = self.classes[cls.0 as usize].ctx.clone();
                        self.with_ctx_frame(cctx, Some(target.clone()), |s| s.init_object(fv, fty, Some(init), span));
                    }
                    None => self.zero_init(fv, fty, span),
                },
            }
        }
    }

    fn init_member_from(&mut self, target: Val, ty: &Ty, v: &ast::InitValue, span: Span) {
        match v {
            ast::InitValue::Expr(x)
                if !ty.is_class() && !matches!(ty, Ty::Array(..)) && !matches!(x.kind, ExprKind::Braced(..)) =>
            {
                let val = self.expr(x);
                if val.is_error() {
                    return;
                }
                self.check_narrowing(&val, ty, x.span);
                let val = self.convert_implicit(val, ty, span);
                if let Some(tc) = target.c {
                    self.push_stmt_expr(emit::assign(tc, val.expr(), span));
                }
            }
            ast::InitValue::Expr(x) => {
                let init = ast::Init::Assign(x.clone());
                self.init_object(target, ty, Some(&init), span)
            }
            ast::InitValue::Brace(b, s) => {
                let init = ast::Init::Brace(b.clone(), *s);
                self.init_object(target, ty, Some(&init), span)
            }
        }
    }

    /// Zero for a member without an initializer in a braced list.
    fn zero_init(&mut self, target: Val, ty: &Ty, span: Span) {
        match ty {
            Ty::Class(c) => self.init_braced(*c, target, &[], span),
            Ty::Array(e, Some(n)) => {
                for i in 0..*n {
                    let el = Val {
                        c: target.c.clone().map(|x| emit::index(x, emit::int_lit(i128::from(i), &Ty::INT, span), span)),
                        ty: (**e).clone(),
                        ..target.clone()
                    };
                    self.zero_init(el, e, span);
                }
            }
            Ty::Scalar(_) | Ty::Enum(_) | Ty::Vector(..) | Ty::Ptr(..) => {
                let zero = Val::konst(Konst::Int(0), Ty::INT, span);
                let z = self.convert_explicit(zero, ty, span);
                if let Some(c) = target.c {
                    self.push_stmt_expr(emit::assign(c, z.expr(), span));
                }
            }
            _ => {}
        }
    }

    /// Binds the reference member `name` of the object `obj` to `v`.
    fn bind_ref_member(&mut self, obj: &Val, name: &ast::Name, v: Val) {
        let key = (obj.c.as_ref().map(crate::print::expr_text).unwrap_or_default(), name.clone());
        self.ref_members.insert(key, v);
    }

    /// `dst = src` for objects of class `cls`: the data members copied (a struct assignment)
    /// and the reference members bound as the source's are.
    pub fn copy_object(&mut self, dst: &Val, src: &Val, cls: ClassId, span: Span) {
        if let (Some(t), Some(x)) = (dst.c.clone(), src.c.clone()) {
            self.push_stmt_expr(emit::assign(t, x, span));
        }
        self.copy_ref_members(dst, src, cls);
    }

    pub fn copy_ref_members(&mut self, dst: &Val, src: &Val, cls: ClassId) {
        let refs: Vec<ast::Name> = self.classes[cls.0 as usize]
            .fields
            .iter()
            .filter(|f| matches!(f.ty, Ty::Ref(..)))
            .map(|f| f.name.clone())
            .collect();
        if refs.is_empty() {
            return;
        }
        let (dk, sk) = (
            dst.c.as_ref().map(crate::print::expr_text).unwrap_or_default(),
            src.c.as_ref().map(crate::print::expr_text).unwrap_or_default(),
        );
        for n in refs {
            if let Some(v) = self.ref_members.get(&(sk.clone(), n.clone())).cloned() {
                self.ref_members.insert((dk.clone(), n), v);
            }
        }
    }

    /// Initializes the object `target` of type `ty` from an initializer (or default-initializes
    /// it without one), writing assignments.
    pub fn init_object(&mut self, target: Val, ty: &Ty, init: Option<&ast::Init>, span: Span) {
        match (ty, init) {
            (Ty::Class(c), None) => self.default_init(*c, target, span),
            (Ty::Class(c), Some(ast::Init::Brace(elems, s))) => self.init_braced(*c, target, elems, *s),
            (Ty::Class(c), Some(ast::Init::Paren(args, _))) => {
                let argv: Vec<Arg> = self.call_args(args);
                self.construct_into(*c, target, argv, span)
            }
            (Ty::Class(c), Some(ast::Init::Assign(e))) => {
                let v = match &e.kind {
                    ExprKind::Braced(None, elems) => {
                        self.init_braced(*c, target, elems, e.span);
                        return;
                    }
                    _ => self.expr(e),
                };
                if v.is_error() {
                    return;
                }
                if v.ty == Ty::Class(*c) {
                    if let (Some(t), Some(x)) = (target.c.clone(), v.c.clone()) {
                        self.push_stmt_expr(emit::assign(t, x, span));
                    }
                    return;
                }
                self.construct_into(*c, target, vec![Arg::Val(v)], span)
            }
            (_, None) => {}
            (Ty::Array(e, Some(n)), Some(ast::Init::Brace(elems, s))) => {
                let mut i = 0u32;
                for el in elems {
                    if i >= *n {
                        self.err(codes::BAD_INITIALIZER, "too many initializers for the array", *s);
                        break;
                    }
                    let tv = Val {
                        c: target.c.clone().map(|x| emit::index(x, emit::int_lit(i128::from(i), &Ty::INT, span), span)),
                        ty: (**e).clone(),
                        ..target.clone()
                    };
                    self.init_member_from(tv, e, &el.value, span);
                    i += 1;
                }
                for j in i..*n {
                    let tv = Val {
                        c: target.c.clone().map(|x| emit::index(x, emit::int_lit(i128::from(j), &Ty::INT, span), span)),
                        ty: (**e).clone(),
                        ..target.clone()
                    };
                    self.zero_init(tv, e, span);
                }
            }
            (t, Some(init)) => {
                let v = match init {
                    ast::Init::Assign(e) => self.expr(e),
                    ast::Init::Paren(args, _) if args.len() == 1 => self.expr(&args[0]),
                    ast::Init::Brace(elems, s) => self.braced(t, elems, *s),
                    ast::Init::Paren(_, s) => {
                        self.err(codes::BAD_INITIALIZER, "too many initializers", *s);
                        return;
                    }
                };
                if v.is_error() {
                    return;
                }
                let v = self.convert_implicit(v, t, span);
                if let Some(tc) = target.c {
                    self.push_stmt_expr(emit::assign(tc, v.expr(), span));
                }
            }
        }
    }

    /// Default-initialization: the default constructor, or members from their default member
    /// initializers.
    pub fn default_init(&mut self, cls: ClassId, target: Val, span: Span) {
        if self.classes[cls.0 as usize].has_user_ctor {
            self.construct_into(cls, target, vec![], span);
            return;
        }
        self.implicit_default_ctor(cls, target, span);
    }

    fn implicit_default_ctor(&mut self, cls: ClassId, target: Val, span: Span) {
        let bases = self.classes[cls.0 as usize].bases.clone();
        for (i, b) in bases.iter().enumerate() {
            let sub = Val {
                c: target.c.clone().map(|x| emit::member(x, &super::base_field(i), span)),
                ty: Ty::Class(*b),
                ..target.clone()
            };
            self.default_init(*b, sub, span);
        }
        let fields: Vec<(ast::Name, Ty, Option<ast::Init>)> = self.classes[cls.0 as usize]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone(), f.init.clone()))
            .collect();
        let cctx = self.classes[cls.0 as usize].ctx.clone();
        for (n, t, init) in fields {
            if init.is_none() && !matches!(t, Ty::Class(_)) {
                continue;
            }
            let fv = self.field_access(&target, cls, &n, span);
            self.with_ctx_frame(cctx.clone(), Some(target.clone()), |s| s.init_object(fv, &t, init.as_ref(), span));
        }
    }

    /// Constructs `target` with the constructor that best takes `args`.
    pub fn construct_into(&mut self, cls: ClassId, target: Val, args: Vec<Arg>, span: Span) {
        self.construct_into_as(cls, target, args, false, span)
    }

    /// As [`Elab::construct_into`]; `list`: the arguments came in braces (list-initialization,
    /// where narrowing conversions are errors).
    pub fn construct_into_as(&mut self, cls: ClassId, target: Val, args: Vec<Arg>, list: bool, span: Span) {
        let ctors = self.classes[cls.0 as usize].ctors.clone();
        let ctor_templates = self.classes[cls.0 as usize].ctor_templates.clone();
        // The implicit copy constructor.
        if let [Arg::Val(v)] = args.as_slice()
            && v.ty.class().is_some_and(|d| self.derives_from(d, cls))
            && !self.has_user_copy_ctor(cls)
        {
            let v = self.as_base(v.clone(), &Ty::Class(cls), span);
            self.copy_object(&target, &v, cls, span);
            return;
        }
        if ctors.is_empty() && ctor_templates.is_empty() {
            if args.is_empty() {
                self.implicit_default_ctor(cls, target, span);
                return;
            }
            // An aggregate initialized with parentheses (C++20) reads as braces.
            let elems: Option<Vec<ast::InitElem>> = None;
            let _ = elems;
            self.err(
                codes::CXX_CONSTRUCTOR,
                format!("`{}` has no constructor taking {} argument(s)", self.classes[cls.0 as usize].name, args.len()),
                span,
            );
            return;
        }
        let mut cands = Vec::new();
        for f in ctors {
            cands.push(Cand { f, this: Some(target.clone()), args: args.clone(), from_template: false });
        }
        for t in ctor_templates {
            if let Some(f) = self.deduce_call(t, &args, None, span) {
                cands.push(Cand { f, this: Some(target.clone()), args: args.clone(), from_template: true });
            }
        }
        // Constructors are member functions called on the new object.
        let name = self.classes[cls.0 as usize].name.clone();
        let chosen = self.pick_ctor(&name, cands, span);
        if let Some((f, args)) = chosen {
            if list {
                let sig = self.sig(f);
                for (a, p) in args.iter().zip(&sig.params) {
                    if let Arg::Val(v) = a {
                        self.check_narrowing(v, p.strip_ref(), v.span);
                    }
                }
            }
            self.construct_with(f, target, args, span);
        }
    }

    fn pick_ctor(&mut self, name: &str, cands: Vec<Cand>, span: Span) -> Option<(FuncId, Vec<Arg>)> {
        let mut scored: Vec<(Cand, Vec<u32>)> = Vec::new();
        for cand in cands {
            let sig = self.sig(cand.f);
            let n = cand.args.len();
            if n > sig.params.len() || n < sig.required {
                continue;
            }
            let mut ranks = Vec::new();
            if let Some(r) = self.arg_ranks(&cand.args, &sig.params) {
                ranks.extend(r);
                scored.push((cand, ranks));
            }
        }
        if scored.is_empty() {
            self.err(codes::CXX_CONSTRUCTOR, format!("no constructor of `{name}` takes these arguments"), span);
            return None;
        }
        let better =
            |a: &Vec<u32>, b: &Vec<u32>| a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y);
        let mut best = 0;
        for i in 1..scored.len() {
            if better(&scored[i].1, &scored[best].1) {
                best = i;
            }
        }
        for i in 0..scored.len() {
            if i != best && !better(&scored[best].1, &scored[i].1) && scored[i].0.f != scored[best].0.f {
                self.err(codes::CXX_OVERLOAD, format!("construction of `{name}` is ambiguous"), span);
                return None;
            }
        }
        let (cand, _) = scored.swap_remove(best);
        if !self.check_access(cand.f, span) {
            return None;
        }
        Some((cand.f, cand.args))
    }

    /// Runs a constructor on `target`: bases and members from the member initializers (or
    /// their defaults), then the body.
    pub fn construct_with(&mut self, f: FuncId, target: Val, args: Vec<Arg>, span: Span) {
        self.used_funcs.insert(f);
        let def = self.funcs[f.0 as usize].def.clone();
        let ctx = self.funcs[f.0 as usize].ctx.clone();
        let Some(cls) = target.ty.class() else { return };
        if self.fx.as_ref().is_some_and(|fx| fx.call_stack.contains(&f)) {
            self.err(codes::CXX_FORBIDDEN, "a constructor that delegates to itself: OpenCL C++ does not support recursive function calls (OpenCL C++ 1.0 §2.9)", span);
            return;
        }
        if def.body.is_none() && !def.flags.defaulted {
            self.err(
                codes::UNDEFINED_FUNCTION,
                format!("a constructor of `{}` is declared but never defined", self.classes[cls.0 as usize].name),
                span,
            );
            return;
        }
        let sig = self.sig(f);
        let body = def.body.clone().unwrap_or(ast::Stmt { kind: ast::StmtKind::Block(vec![]), span });
        let modified = super::stmt::modified_names(&body);
        let mut modified_all = modified;
        for mi in &def.inits {
            // Member initializers read parameters; only the body can change them.
            let _ = mi;
        }
        modified_all.extend(std::iter::empty::<ast::Name>());
        self.push_frame(ctx.clone(), Some(target.clone()), Some(f), Some(Ty::Void), span);
        let mut all = args;
        for i in all.len()..def.params.len() {
            if let Some(d) = &def.params[i].default {
                let v = self.expr(d);
                all.push(Arg::Val(v));
            }
        }
        for (i, (p, a)) in def.params.iter().zip(all).enumerate() {
            let pty = sig.params.get(i).cloned().unwrap_or(Ty::Error);
            let Some((pname, _)) = &p.name else { continue };
            let local = self.bind_param(pname, &pty, a, modified_all.contains(pname), false, p.span);
            self.bind_local(pname.clone(), local);
        }
        // A delegating constructor.
        let cname = self.classes[cls.0 as usize].name.clone();
        let short = cname.rsplit("::").next().unwrap_or(&cname).split('<').next().unwrap_or("").to_string();
        if let [mi] = def.inits.as_slice()
            && mi.name.is_simple()
            && *mi.name.parts[0].name == *short
        {
            let args = self.init_args(&mi.init);
            self.construct_into(cls, target.clone(), args, span);
        } else {
            let bases = self.classes[cls.0 as usize].bases.clone();
            for (i, b) in bases.iter().enumerate() {
                let sub = Val {
                    c: target.c.clone().map(|x| emit::member(x, &super::base_field(i), span)),
                    ty: Ty::Class(*b),
                    ..target.clone()
                };
                let bname = self.classes[b.0 as usize].name.clone();
                let bshort = bname.rsplit("::").next().unwrap_or(&bname).to_string();
                let bbase = bshort.split('<').next().unwrap_or("").to_string();
                let mi = def.inits.iter().find(|m| {
                    let n = &m.name.last().name;
                    **n == *bshort || **n == *bbase
                });
                match mi {
                    Some(m) => {
                        let args = self.init_args(&m.init);
                        self.construct_into(*b, sub, args, m.span);
                    }
                    None => self.default_init(*b, sub, span),
                }
            }
            let fields: Vec<(ast::Name, Ty, Option<ast::Init>)> = self.classes[cls.0 as usize]
                .fields
                .iter()
                .map(|f| (f.name.clone(), f.ty.clone(), f.init.clone()))
                .collect();
            for mi in &def.inits {
                let n = &mi.name.last().name;
                let known = fields.iter().any(|f| &f.0 == n)
                    || bases.iter().any(|b| {
                        let bn = self.classes[b.0 as usize].name.clone();
                        let bs = bn.rsplit("::").next().unwrap_or(&bn).to_string();
                        *bs == **n || bs.split('<').next() == Some(n)
                    });
                if !known {
                    self.err(codes::NO_MEMBER, format!("`{cname}` has no member or base `{n}` to initialize"), mi.span);
                }
            }
            for (n, t, finit) in fields {
                if let Ty::Ref(..) = t {
                    let init = def.inits.iter().find(|m| m.name.last().name == n).map(|m| m.init.clone()).or(finit);
                    self.init_ref_member(&target, &n, &t, init.as_ref(), span);
                    continue;
                }
                let fv = self.field_access(&target, cls, &n, span);
                match def.inits.iter().find(|m| m.name.last().name == n) {
                    Some(m) => self.init_object(fv, &t, Some(&m.init), m.span),
                    None => self.init_object(fv, &t, finit.as_ref(), span),
                }
            }
        }
        self.run_body(&body, span);
        self.pop_frame();
    }

    /// A reference member bound to the l-value its initializer names.
    fn init_ref_member(&mut self, obj: &Val, name: &ast::Name, ty: &Ty, init: Option<&ast::Init>, span: Span) {
        let Some(init) = init else {
            self.err(codes::CXX_REFERENCE, format!("reference member `{name}` is not initialized"), span);
            return;
        };
        let v = match init {
            ast::Init::Paren(a, _) if a.len() == 1 => self.expr(&a[0]),
            ast::Init::Assign(e) => self.expr(e),
            ast::Init::Brace(elems, _) if elems.len() == 1 => match &elems[0].value {
                ast::InitValue::Expr(e) => self.expr(e),
                ast::InitValue::Brace(_, s) => Val::error(*s),
            },
            _ => {
                self.err(codes::CXX_REFERENCE, format!("reference member `{name}` takes one initializer"), init.span());
                return;
            }
        };
        if v.is_error() {
            return;
        }
        if let Local::Var(bound) = self.bind_param(name, ty, Arg::Val(v), true, false, span) {
            self.bind_ref_member(obj, name, bound);
        }
    }

    /// The elements of a braced list as constructor arguments (pack expansions expanded).
    fn braced_args(&mut self, elems: &[ast::InitElem]) -> Vec<Arg> {
        let mut out = Vec::new();
        for e in elems {
            match &e.value {
                ast::InitValue::Expr(x) => match &x.kind {
                    ExprKind::PackExpansion(p) => out.extend(self.expand(p).into_iter().map(Arg::Val)),
                    _ => out.push(self.call_arg(x)),
                },
                ast::InitValue::Brace(b, s) => out.push(Arg::Braced(b.clone(), *s)),
            }
        }
        out
    }

    fn init_args(&mut self, init: &ast::Init) -> Vec<Arg> {
        match init {
            ast::Init::Paren(args, _) => self.call_args(args),
            ast::Init::Brace(elems, _) => self.braced_args(elems),
            ast::Init::Assign(e) => vec![self.call_arg(e)],
        }
    }

    // ----- lambdas -----

    /// A lambda expression: a closure class (its copies as data members) and its object.
    pub fn lambda(&mut self, l: &Rc<ast::Lambda>, span: Span) -> Val {
        let ctx = self.ctx();
        let loc = span.lo;
        let name = format!("lambda@{loc}");
        let cls = self.new_class(name, ast::ClassKey::Struct, ctx.clone(), span);
        self.classes[cls.0 as usize].complete = true;
        let mut info = ClosureInfo { ctx: Some(ctx.clone()), lambda: Some(l.clone()), ..Default::default() };
        let mut copies: Vec<(ast::Name, Val)> = Vec::new();
        let default = l.captures.iter().find_map(|c| match c {
            ast::Capture::Default { by_ref } => Some(*by_ref),
            _ => None,
        });
        let mut explicit: HashSet<ast::Name> = HashSet::new();
        for cap in &l.captures {
            match cap {
                ast::Capture::Default { .. } => {}
                ast::Capture::This(_) => info.this = self.fx.as_ref().and_then(|fx| fx.frame().this.clone()),
                ast::Capture::Name { name, by_ref, span } => {
                    explicit.insert(name.clone());
                    let q = ast::QualName::simple(name.clone(), *span);
                    let v = self.name_expr(&q, *span);
                    if v.is_error() {
                        continue;
                    }
                    if *by_ref {
                        let v = self.stabilize(v, *span);
                        info.by_ref.push((name.clone(), v));
                    } else {
                        copies.push((name.clone(), v));
                    }
                }
                ast::Capture::Init { name, by_ref, init, span } => {
                    explicit.insert(name.clone());
                    let v = self.expr(init);
                    if v.is_error() {
                        continue;
                    }
                    if *by_ref {
                        info.by_ref.push((name.clone(), v));
                    } else {
                        let _ = span;
                        copies.push((name.clone(), v));
                    }
                }
            }
        }
        if let Some(by_ref) = default {
            // Names the body uses that are locals of the enclosing function.
            let used = super::stmt::used_names(&l.body);
            let params: HashSet<ast::Name> =
                l.params.iter().filter_map(|p| p.name.as_ref().map(|(n, _)| n.clone())).collect();
            let mut used: Vec<ast::Name> =
                used.into_iter().filter(|n| !explicit.contains(n) && !params.contains(n)).collect();
            used.sort();
            for n in used {
                let Some(Local::Var(v)) = self.fx.as_ref().and_then(|fx| fx.local(&n)) else { continue };
                if let Some(k) = v.k.clone()
                    && v.is_const
                {
                    info.outer_consts.insert(n.clone(), (k, v.ty.clone()));
                    continue;
                }
                if by_ref {
                    info.by_ref.push((n, v));
                } else {
                    copies.push((n, v));
                }
            }
            if info.this.is_none() {
                info.this = self.fx.as_ref().and_then(|fx| fx.frame().this.clone());
            }
        }
        // The copies are the closure's data members.
        for (n, v) in &copies {
            let ty = v.ty.clone();
            self.classes[cls.0 as usize].fields.push(super::Field {
                name: n.clone(),
                ty,
                init: None,
                access: ast::Access::Public,
                span,
            });
        }
        self.classes[cls.0 as usize].closure = Some(info);
        if copies.is_empty() || !self.has_storage(cls) {
            return Val::phantom(cls, span);
        }
        self.emit_class(cls);
        let t = self.fresh("closure");
        self.push_decl(&t, &Ty::Class(cls), None, span);
        let obj = Val::lval(ident(&t, span), Ty::Class(cls), AddrSpace::Private, span);
        for (n, v) in copies {
            if matches!(v.ty, Ty::Class(c) if !self.has_storage(c)) {
                continue;
            }
            let fv = self.field_access(&obj, cls, &n, span);
            if let (Some(f), Some(x)) = (fv.c, v.c) {
                self.push_stmt_expr(emit::assign(f, x, span));
            }
        }
        Val { lv: false, ..obj }
    }

    /// Calls a lambda: its body in a frame of its captures and parameters.
    fn call_closure(&mut self, obj: Val, cls: ClassId, info: ClosureInfo, args: Vec<Arg>, span: Span) -> Val {
        let Some(l) = info.lambda.clone() else { return Val::error(span) };
        let Some(ctx) = info.ctx.clone() else { return Val::error(span) };
        if args.len() != l.params.len() && l.params.iter().filter(|p| p.default.is_none()).count() > args.len() {
            self.err(
                codes::ARG_COUNT,
                format!("the lambda takes {} argument(s) but {} were given", l.params.len(), args.len()),
                span,
            );
            return Val::error(span);
        }
        let ret = match &l.ret {
            Some(t) => Some(self.resolve_type(t, &ctx)),
            None => None,
        };
        let modified = super::stmt::modified_names(&l.body);
        self.push_frame(ctx.clone(), info.this.clone(), None, ret, span);
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().closure = Some(cls);
        }
        for (n, (k, t)) in &info.outer_consts {
            self.bind_local(n.clone(), Local::Var(Val::konst(k.clone(), t.clone(), span)));
        }
        for (n, v) in &info.by_ref {
            self.bind_local(n.clone(), Local::Var(v.clone()));
        }
        let fields: Vec<ast::Name> = self.classes[cls.0 as usize].fields.iter().map(|f| f.name.clone()).collect();
        for n in fields {
            let mut fv = self.field_access(&obj, cls, &n, span);
            fv.is_const = !l.is_mutable;
            self.bind_local(n, Local::Var(fv));
        }
        let mut all = args;
        for i in all.len()..l.params.len() {
            if let Some(d) = &l.params[i].default {
                let v = self.expr(d);
                all.push(Arg::Val(v));
            }
        }
        for (p, a) in l.params.iter().zip(all) {
            // `auto` parameters take the argument's type (a generic lambda).
            let pty = self.lambda_param_type(&p.ty, &a, &ctx);
            let Some((pname, _)) = &p.name else { continue };
            let local = self.bind_param(pname, &pty, a, modified.contains(pname), single_return(&l.body), p.span);
            self.bind_local(pname.clone(), local);
        }
        let r = self.run_body(&l.body, span);
        self.pop_frame();
        r
    }

    fn lambda_param_type(&mut self, t: &ast::Type, a: &Arg, ctx: &Ctx) -> Ty {
        let arg_ty = a.val().map(|v| v.ty.clone()).unwrap_or(Ty::Error);
        match &t.kind {
            ast::TypeKind::Auto => arg_ty.decay(a.val().map(|v| v.space).unwrap_or(AddrSpace::Private)),
            ast::TypeKind::Qualified { inner, is_const, .. } if matches!(inner.kind, ast::TypeKind::Auto) => {
                let _ = is_const;
                arg_ty.decay(AddrSpace::Private)
            }
            ast::TypeKind::Ref(inner, _) if contains_auto(inner) => {
                Ty::Ref(Rc::new(arg_ty), super::type_is_const(inner))
            }
            _ => self.resolve_type(t, ctx),
        }
    }

    /// Runs `f` in a frame of `ctx` with `this` (for default member initializers).
    pub fn with_ctx_frame(&mut self, ctx: Ctx, this: Option<Val>, f: impl FnOnce(&mut Self)) {
        self.push_frame(ctx, this, None, Some(Ty::Void), Span::default());
        f(self);
        self.pop_frame();
    }

    /// A template function's environment (used by `sizeof(T)` in its body).
    pub fn env_of(&self, f: FuncId) -> Rc<Env> {
        self.funcs[f.0 as usize].ctx.env.clone()
    }
}

/// Whether an argument can be repeated freely: a variable, a member of one, a constant.
fn is_simple(v: &Val) -> bool {
    fn simple(e: &c::Expr) -> bool {
        match &e.kind {
            c::ExprKind::Ident(_) | c::ExprKind::Int(_) | c::ExprKind::Float(_) | c::ExprKind::Char(_) => true,
            c::ExprKind::Member(b, _, _) | c::ExprKind::Paren(b) => simple(b),
            c::ExprKind::Index(b, i) => simple(b) && simple(i),
            c::ExprKind::Unary(c::UnOp::Neg, x) => simple(x),
            _ => false,
        }
    }
    v.c.as_ref().is_some_and(simple)
}

/// A body that is just `return e;` (its parameters may be substituted by their arguments).
pub fn single_return(body: &ast::Stmt) -> bool {
    match &body.kind {
        ast::StmtKind::Block(v) => v.len() == 1 && matches!(v[0].kind, ast::StmtKind::Return(_)),
        _ => false,
    }
}

fn contains_auto(t: &ast::Type) -> bool {
    match &t.kind {
        ast::TypeKind::Auto => true,
        ast::TypeKind::Qualified { inner, .. } => contains_auto(inner),
        _ => false,
    }
}

#[allow(dead_code)]
fn unused(_: &RetInfo, _: &Ctx) {}

/// Brace elision: `{1, 2, 3, 4}` for a class whose member is an array `T[4]` initializes the
/// array's elements (the elements become one braced element for the array).
pub fn elide_braces(elems: &[ast::InitElem], fields: &[Ty]) -> Vec<ast::InitElem> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut f = 0;
    while i < elems.len() {
        let e = &elems[i];
        let flat = e.designator.is_none()
            && matches!(e.value, ast::InitValue::Expr(ref x) if !matches!(x.kind, ExprKind::Braced(..)));
        match fields.get(f) {
            Some(Ty::Array(_, Some(n))) if flat => {
                let take: Vec<ast::InitElem> = elems[i..]
                    .iter()
                    .take(*n as usize)
                    .take_while(|x| x.designator.is_none() && matches!(x.value, ast::InitValue::Expr(_)))
                    .cloned()
                    .collect();
                let span = take
                    .first()
                    .map(|x| x.value.span())
                    .unwrap_or_default()
                    .to(take.last().map(|x| x.value.span()).unwrap_or_default());
                i += take.len();
                out.push(ast::InitElem { designator: None, value: ast::InitValue::Brace(take, span) });
            }
            _ => {
                out.push(e.clone());
                i += 1;
            }
        }
        f = match &e.designator {
            Some(_) => f + 1,
            None => f + 1,
        };
    }
    out
}

/// Simple names a written type mentions (template parameters among them).
fn collect_type_names(t: &ast::Type, out: &mut Vec<ast::Name>) {
    match &t.kind {
        ast::TypeKind::Named(q) => {
            for p in &q.parts {
                out.push(p.name.clone());
                for a in p.targs.iter().flatten() {
                    if let ast::TemplateArg::Type(x) = a {
                        collect_type_names(x, out);
                    }
                }
            }
        }
        ast::TypeKind::Pointer(i)
        | ast::TypeKind::Ref(i, _)
        | ast::TypeKind::Array(i, _)
        | ast::TypeKind::Qualified { inner: i, .. } => collect_type_names(i, out),
        _ => {}
    }
}
