//! Expressions: each C++ expression becomes an OpenCL C expression (a [`Val`]) and, where a
//! call was inlined, statements written before it.

use super::emit::{self, cx, ident, paren};
use super::stmt::Local;
use super::{Ctx, Elab, Ent};
use crate::ast::{self, BinOp, ExprKind, UnOp};
use crate::ty::{ClassId, Konst, Ty, from_hir, to_hir, wrap_int};
use kiln_diagnostics::{Span, codes};
use kiln_frontend::ast as c;
use kiln_hir::types::{AddrSpace, Scalar};
use std::rc::Rc;

/// An elaborated expression.
#[derive(Clone, Debug)]
pub struct Val {
    /// The OpenCL C expression; `None` for an object without storage (a function object, a
    /// lambda without copies) and for `void`.
    pub c: Option<c::Expr>,
    pub ty: Ty,
    /// Designates an object (an l-value).
    pub lv: bool,
    /// The address space of the object an l-value designates.
    pub space: AddrSpace,
    /// The value, when known at compile time.
    pub k: Option<Konst>,
    pub is_const: bool,
    pub span: Span,
}

impl Val {
    pub fn rv(c: c::Expr, ty: Ty, span: Span) -> Val {
        Val { c: Some(c), ty, lv: false, space: AddrSpace::Private, k: None, is_const: false, span }
    }

    pub fn lval(c: c::Expr, ty: Ty, space: AddrSpace, span: Span) -> Val {
        Val { c: Some(c), ty, lv: true, space, k: None, is_const: false, span }
    }

    pub fn konst(k: Konst, ty: Ty, span: Span) -> Val {
        let c = emit::konst_expr(&k, &ty, span);
        Val { c, ty, lv: false, space: AddrSpace::Private, k: Some(k), is_const: true, span }
    }

    pub fn error(span: Span) -> Val {
        Val { c: None, ty: Ty::Error, lv: false, space: AddrSpace::Private, k: None, is_const: false, span }
    }

    pub fn void(span: Span) -> Val {
        Val { c: None, ty: Ty::Void, lv: false, space: AddrSpace::Private, k: None, is_const: false, span }
    }

    pub fn phantom(cls: ClassId, span: Span) -> Val {
        Val { c: None, ty: Ty::Class(cls), lv: true, space: AddrSpace::Private, k: None, is_const: false, span }
    }

    pub fn is_error(&self) -> bool {
        self.ty.is_error()
    }

    /// The C expression, or a harmless `0` for values without one (errors).
    pub fn expr(&self) -> c::Expr {
        self.c.clone().unwrap_or_else(|| cx(c::ExprKind::Int("0".into()), self.span))
    }
}

/// An argument of a call: an expression, or a braced list converted to the parameter's type.
#[derive(Clone, Debug)]
pub enum Arg {
    Val(Val),
    Braced(Vec<ast::InitElem>, Span),
}

impl Arg {
    pub fn span(&self) -> Span {
        match self {
            Arg::Val(v) => v.span,
            Arg::Braced(_, s) => *s,
        }
    }

    pub fn val(&self) -> Option<&Val> {
        match self {
            Arg::Val(v) => Some(v),
            Arg::Braced(..) => None,
        }
    }
}

/// The usual arithmetic conversions of two scalars (OpenCL C's, without `double` promotion of
/// `float`).
pub fn arith_common(a: Scalar, b: Scalar) -> Scalar {
    let promote = |s: Scalar| if s.is_integer() && s.bits() < 32 || s == Scalar::Bool { Scalar::I32 } else { s };
    let (a, b) = (promote(a), promote(b));
    if a.is_float() || b.is_float() {
        return if a == Scalar::F64 || b == Scalar::F64 {
            Scalar::F64
        } else if a == Scalar::F32 || b == Scalar::F32 {
            Scalar::F32
        } else {
            Scalar::F16
        };
    }
    if a == b {
        return a;
    }
    let (wa, wb) = (a.bits(), b.bits());
    if wa != wb {
        let (wide, narrow) = if wa > wb { (a, b) } else { (b, a) };
        let _ = narrow;
        return wide;
    }
    if a.is_signed() { b } else { a }
}

impl Elab<'_> {
    pub fn ctx(&self) -> Ctx {
        match &self.fx {
            Some(fx) => fx.frame().ctx.clone(),
            None => self.root_ctx(),
        }
    }

    /// The scalar an enum is stored as.
    pub fn enum_scalar_of(&self, t: &Ty) -> Option<Scalar> {
        match t {
            Ty::Enum(e) => Some(self.enums[e.0 as usize].scalar),
            _ => None,
        }
    }

    pub fn hir_of(&self, t: &Ty) -> Option<kiln_hir::types::Type> {
        to_hir(t, &|e| self.enums[e.0 as usize].scalar)
    }

    /// OpenCL C's type for a C expression over operands of the given types (cached).
    pub fn oracle(&mut self, key: String, e: &c::Expr, operands: &[(Rc<str>, Ty)]) -> Option<Ty> {
        if let Some(r) = self.type_cache.get(&key) {
            return r.clone();
        }
        let mut ops = Vec::new();
        for (n, t) in operands {
            ops.push((n.clone(), self.hir_of(t)?));
        }
        let r = kiln_frontend::sema::type_of_expr(e, &ops, self.opts).ok().map(|t| from_hir(&t));
        self.type_cache.insert(key, r.clone());
        r
    }

    /// The type OpenCL C gives `op` applied to operands of these types (literal operands as
    /// written: OpenCL C types `x + 1` by `x`'s type).
    pub fn oracle_op(&mut self, build: &dyn Fn(Vec<c::Expr>) -> c::ExprKind, args: &[&Val], span: Span) -> Option<Ty> {
        let _ = span;
        let span = Span::default();
        let mut operands = Vec::new();
        let mut leaves = Vec::new();
        let mut key = String::new();
        for (i, a) in args.iter().enumerate() {
            let literal =
                a.c.as_ref()
                    .filter(|e| matches!(e.kind, c::ExprKind::Int(_) | c::ExprKind::Float(_) | c::ExprKind::Str(_)))
                    .cloned();
            match literal {
                Some(l) => {
                    key.push_str(&format!("{:?};", l.kind));
                    leaves.push(l);
                }
                None => {
                    let n: Rc<str> = format!("__k{i}").into();
                    key.push_str(&format!("{:?};", a.ty));
                    operands.push((n.clone(), a.ty.clone()));
                    leaves.push(ident(&n, span));
                }
            }
        }
        let e = cx(build(leaves), span);
        key.push_str(&format!("{:?}", e.kind));
        self.oracle(key, &e, &operands)
    }

    // ----- entry points -----

    /// Elaborates an expression in the current body.
    pub fn expr(&mut self, e: &ast::Expr) -> Val {
        match &e.kind {
            ExprKind::Paren(x) => {
                let mut v = self.expr(x);
                if let Some(c) = v.c.take() {
                    v.c = Some(paren(c));
                }
                v
            }
            ExprKind::Int(t) => self.int_literal(t, e.span),
            ExprKind::Float(t) => self.float_literal(t, e.span),
            ExprKind::Char(t) => {
                let v = kiln_frontend::literal::parse_char(t).unwrap_or(0);
                let mut val = Val::konst(Konst::Int(i128::from(v)), Ty::Scalar(Scalar::I8), e.span);
                val.c = Some(cx(c::ExprKind::Char(t.clone()), e.span));
                val
            }
            ExprKind::Str(parts) => Val::rv(
                cx(c::ExprKind::Str(parts.clone()), e.span),
                Ty::Ptr(Rc::new(Ty::Scalar(Scalar::I8)), AddrSpace::Constant, true),
                e.span,
            ),
            ExprKind::Bool(b) => Val::konst(Konst::Int(i128::from(*b)), Ty::BOOL, e.span),
            ExprKind::Nullptr => Val::rv(cx(c::ExprKind::Int("0".into()), e.span), Ty::NullPtr, e.span),
            ExprKind::This => {
                self.err(
                    codes::CXX_UNSUPPORTED,
                    "`this` as a pointer value is not supported by kiln (write `*this` or `this->member`)",
                    e.span,
                );
                Val::error(e.span)
            }
            ExprKind::Name(q) => self.name_expr(q, e.span),
            ExprKind::Unary(op, x) => self.unary(*op, x, e.span),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Assign(op, a, b) => self.assign(*op, a, b, e.span),
            ExprKind::Cond(a, b, d) => self.conditional(a, b, d, e.span),
            ExprKind::Comma(xs) => self.comma(xs, e.span),
            ExprKind::Call(f, args) => self.call_expr(f, args, e.span),
            ExprKind::Index(a, i) => self.index(a, i, e.span),
            ExprKind::Member(base, part, arrow) => self.member_expr(base, part, *arrow, e.span),
            ExprKind::CCast(t, x) | ExprKind::NamedCast(_, t, x) => {
                let ctx = self.ctx();
                let ty = self.resolve_type(t, &ctx);
                if let ExprKind::NamedCast(ast::CastKind::Static, ..) = &e.kind
                    && matches!(&x.kind, ExprKind::Paren(inner) if matches!(inner.kind, ExprKind::Comma(_)))
                {
                    // `static_cast<T>((a, b))` is a comma expression, not a vector literal.
                }
                self.cast_to(&ty, x, e.span)
            }
            ExprKind::Functional(t, args) => {
                let ctx = self.ctx();
                let ty = self.resolve_type(t, &ctx);
                self.functional(&ty, args, e.span)
            }
            ExprKind::Braced(t, elems) => match t {
                Some(t) => {
                    let ctx = self.ctx();
                    let ty = self.resolve_type(t, &ctx);
                    self.braced(&ty, elems, e.span)
                }
                None => {
                    self.err(codes::CXX_UNSUPPORTED, "a braced list needs a type here", e.span);
                    Val::error(e.span)
                }
            },
            ExprKind::SizeofType(t) => {
                let ctx = self.ctx();
                let ty = self.resolve_type(t, &ctx);
                self.sizeof_val(&ty, e.span)
            }
            ExprKind::SizeofExpr(x) => {
                let ty = self.dry_expr_type(x);
                self.sizeof_val(&ty, e.span)
            }
            ExprKind::AlignofType(t) => {
                let ctx = self.ctx();
                let ty = self.resolve_type(t, &ctx);
                match self.layout(&ty) {
                    Some((_, a)) => Val::konst(Konst::Int(i128::from(a)), Ty::SIZE, e.span),
                    None => Val::error(e.span),
                }
            }
            ExprKind::VecStepType(t) => {
                let ctx = self.ctx();
                let ty = self.resolve_type(t, &ctx);
                self.vec_step(&ty, e.span)
            }
            ExprKind::VecStepExpr(x) => {
                let ty = self.dry_expr_type(x);
                self.vec_step(&ty, e.span)
            }
            ExprKind::Lambda(l) => self.lambda(l, e.span),
            ExprKind::PackExpansion(_) => {
                self.err(
                    codes::CXX_TEMPLATE,
                    "a pack expansion `...` is allowed only in call arguments and braced lists",
                    e.span,
                );
                Val::error(e.span)
            }
            ExprKind::Fold { op, pack, init, left } => self.fold(*op, pack, init.as_deref(), *left, e.span),
            ExprKind::SizeofPack(n) => match self.pack_len(n) {
                Some(len) => Val::konst(Konst::Int(len as i128), Ty::SIZE, e.span),
                None => {
                    self.err(codes::CXX_TEMPLATE, format!("`{n}` is not a parameter pack"), e.span);
                    Val::error(e.span)
                }
            },
            ExprKind::Forbidden(what) => {
                self.err(codes::CXX_UNSUPPORTED, format!("`{what}` is not supported by kiln"), e.span);
                Val::error(e.span)
            }
        }
    }

    /// The type of an expression, without writing anything (`sizeof`, `decltype`).
    pub fn dry_expr_type(&mut self, e: &ast::Expr) -> Ty {
        self.dry(|s| s.expr(e).ty)
    }

    /// Runs `f` with its output discarded.
    pub fn dry<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let pushed = match self.fx.as_mut() {
            Some(fx) => {
                fx.blocks.push(Vec::new());
                true
            }
            None => false,
        };
        let structs = self.out_structs.len();
        let r = f(self);
        if pushed && let Some(fx) = self.fx.as_mut() {
            fx.blocks.pop();
        }
        let _ = structs;
        r
    }

    /// `decltype(e)` and similar outside a body.
    pub fn dry_type(&mut self, e: &ast::Expr, ctx: &Ctx) -> Option<Ty> {
        if self.fx.is_some() {
            let t = self.dry_expr_type(e);
            return (!t.is_error()).then_some(t);
        }
        self.const_eval_typed(e, ctx).map(|(_, t)| t)
    }

    fn int_literal(&mut self, t: &str, span: Span) -> Val {
        let lit = match kiln_frontend::literal::parse_int(t) {
            Ok(l) => l,
            Err(m) => {
                self.err(codes::BAD_LITERAL, m, span);
                return Val::error(span);
            }
        };
        let v = lit.value;
        let ty = if lit.suffix.long {
            if lit.suffix.unsigned || v > i64::MAX as u64 { Scalar::U64 } else { Scalar::I64 }
        } else if lit.suffix.unsigned {
            if v > u32::MAX as u64 { Scalar::U64 } else { Scalar::U32 }
        } else if v <= i32::MAX as u64 {
            Scalar::I32
        } else if lit.non_decimal && v <= u32::MAX as u64 {
            Scalar::U32
        } else if v <= i64::MAX as u64 {
            Scalar::I64
        } else {
            Scalar::U64
        };
        let mut val = Val::konst(Konst::Int(i128::from(v)), Ty::Scalar(ty), span);
        val.c = Some(cx(c::ExprKind::Int(t.into()), span));
        val
    }

    fn float_literal(&mut self, t: &str, span: Span) -> Val {
        match kiln_frontend::literal::parse_float(t) {
            Ok((f, suffix)) => {
                let s = match suffix {
                    kiln_frontend::literal::FloatSuffix::H => Scalar::F16,
                    _ => Scalar::F32,
                };
                let mut v = Val::konst(Konst::Float(super::lookup::round_float(f, s)), Ty::Scalar(s), span);
                v.c = Some(cx(c::ExprKind::Float(t.into()), span));
                v
            }
            Err(m) => {
                self.err(codes::BAD_LITERAL, m, span);
                Val::error(span)
            }
        }
    }

    // ----- names -----

    pub fn name_expr(&mut self, q: &ast::QualName, span: Span) -> Val {
        if q.is_simple() {
            let n = &q.parts[0].name;
            if let Some(l) = self.fx.as_ref().and_then(|fx| fx.local(n)) {
                return match l {
                    Local::Var(mut v) => {
                        v.span = span;
                        if let Some(c) = &mut v.c {
                            c.span = span;
                        }
                        v
                    }
                    Local::Ent(e) => self.ent_value(e, q, span),
                    Local::Pack(_) => {
                        self.err(
                            codes::CXX_TEMPLATE,
                            format!("parameter pack `{n}` must be expanded with `...`"),
                            span,
                        );
                        Val::error(span)
                    }
                };
            }
            // A data member of the current object.
            if let Some(v) = self.this_field(n, span) {
                return v;
            }
        }
        let ctx = self.ctx();
        match self.lookup_qual(q, &ctx) {
            Some(e) => self.ent_value(e, q, span),
            None => {
                if !self.reported_inside(q.span) {
                    self.err(codes::UNDECLARED, format!("use of undeclared identifier `{}`", q.spelled()), span);
                }
                Val::error(span)
            }
        }
    }

    /// `x` inside a member function: `this->x` (own or a base's data member).
    fn this_field(&mut self, n: &str, span: Span) -> Option<Val> {
        let this = self.fx.as_ref()?.frame().this.clone()?;
        let cls = this.ty.class()?;
        self.find_field(cls, n)?;
        Some(self.field_access(&this, cls, n, span))
    }

    /// The data member `n` of the object `obj` (of class `cls`).
    pub fn field_access(&mut self, obj: &Val, cls: ClassId, n: &str, span: Span) -> Val {
        let Some((path, idx)) = self.find_field(cls, n) else {
            self.err(codes::NO_MEMBER, format!("`{}` has no member `{n}`", self.classes[cls.0 as usize].name), span);
            return Val::error(span);
        };
        let mut cur_cls = cls;
        let mut e = obj.c.clone();
        for bi in path {
            let b = self.classes[cur_cls.0 as usize].bases[bi];
            if self.has_storage(b) {
                e = e.map(|x| emit::member(x, &super::base_field(bi), span));
            }
            cur_cls = b;
        }
        let f = &self.classes[cur_cls.0 as usize].fields[idx];
        let ty = f.ty.clone();
        if let Ty::Ref(_, is_const) = &ty {
            // A reference member: what this object's constructor bound it to.
            let key = (e.as_ref().map(crate::print::expr_text).unwrap_or_default(), f.name.clone());
            return match self.ref_members.get(&key) {
                Some(v) => {
                    let mut v = v.clone();
                    v.is_const |= *is_const;
                    v.span = span;
                    v
                }
                None => {
                    self.err(
                        codes::CXX_REFERENCE,
                        format!("reference member `{n}` is used before a constructor binds it"),
                        span,
                    );
                    Val::error(span)
                }
            };
        }
        let e = match e {
            Some(x) => Some(emit::member(x, &f.name.clone(), span)),
            None => {
                if matches!(ty, Ty::Class(c) if !self.has_storage(c)) {
                    None
                } else {
                    self.err(codes::CXX_UNSUPPORTED, "a member of an object without storage", span);
                    return Val::error(span);
                }
            }
        };
        Val { c: e, ty, lv: true, space: obj.space, k: None, is_const: obj.is_const, span }
    }

    pub fn ent_value(&mut self, e: Ent, q: &ast::QualName, span: Span) -> Val {
        match e {
            Ent::Konst(k, ty) => Val::konst(k, ty, span),
            Ent::Enumerator(en, v) => {
                let mut val = Val::konst(Konst::Int(v), Ty::Enum(en), span);
                let s = self.enums[en.0 as usize].scalar;
                val.c = Some(emit::int_lit(v, &Ty::Scalar(s), span));
                val
            }
            Ent::Global(g) => {
                let gl = &self.globals[g.0 as usize];
                let mut v = Val::lval(ident(&gl.cname, span), gl.ty.clone(), gl.space, span);
                v.is_const = gl.is_const;
                v
            }
            Ent::Funcs(..) | Ent::Builtin(_) => {
                self.err(
                    codes::CXX_FORBIDDEN,
                    format!(
                        "`{}` names a function: OpenCL C++ does not support function pointers (OpenCL C++ 1.0 §2.9)",
                        q.spelled()
                    ),
                    span,
                );
                Val::error(span)
            }
            Ent::Type(_) | Ent::Template(_) => {
                self.err(codes::CXX_NOT_A_TYPE, format!("`{}` is a type, not a value", q.spelled()), span);
                Val::error(span)
            }
            Ent::Ns(_) => {
                self.err(codes::CXX_NOT_A_TYPE, format!("`{}` is a namespace, not a value", q.spelled()), span);
                Val::error(span)
            }
        }
    }

    /// An l-value as C can use it as an object: a conditional l-value `c ? a : b` becomes
    /// `*(c ? &a : &b)`.
    pub fn as_object(&self, v: Val) -> Val {
        fn rewrite(e: c::Expr) -> c::Expr {
            let span = e.span;
            match e.kind {
                c::ExprKind::Paren(x) if matches!(x.kind, c::ExprKind::Cond(..) | c::ExprKind::Paren(_)) => rewrite(*x),
                c::ExprKind::Cond(cnd, a, b) => {
                    let pa = cx(c::ExprKind::Unary(UnOp::AddrOf, Box::new(paren(rewrite(*a)))), span);
                    let pb = cx(c::ExprKind::Unary(UnOp::AddrOf, Box::new(paren(rewrite(*b)))), span);
                    let sel = cx(c::ExprKind::Cond(cnd, Box::new(pa), Box::new(pb)), span);
                    cx(c::ExprKind::Unary(UnOp::Deref, Box::new(paren(sel))), span)
                }
                kind => c::Expr { kind, span },
            }
        }
        if !v.lv {
            return v;
        }
        let c = v.c.clone().map(rewrite);
        Val { c, ..v }
    }

    // ----- operators -----

    /// An operand as a value: a class object stays an object; arrays stay arrays (OpenCL C
    /// decays them itself).
    fn unary(&mut self, op: UnOp, x: &ast::Expr, span: Span) -> Val {
        // `*this` and `&*this`.
        if op == UnOp::Deref && matches!(x.kind, ExprKind::This) {
            return match self.fx.as_ref().and_then(|fx| fx.frame().this.clone()) {
                Some(mut t) => {
                    t.span = span;
                    t
                }
                None => {
                    self.err(codes::UNDECLARED, "`this` outside a member function", span);
                    Val::error(span)
                }
            };
        }
        let v = self.expr(x);
        if v.is_error() {
            return v;
        }
        if v.ty.is_class() && !(op == UnOp::AddrOf && !self.has_user_operator(&v, "operator&")) {
            let name = match op {
                UnOp::Neg => "operator-",
                UnOp::Plus => "operator+",
                UnOp::Not => "operator!",
                UnOp::BitNot => "operator~",
                UnOp::Deref => "operator*",
                UnOp::AddrOf => "operator&",
                UnOp::PreInc | UnOp::PostInc => "operator++",
                UnOp::PreDec | UnOp::PostDec => "operator--",
            };
            let mut args = vec![];
            if matches!(op, UnOp::PostInc | UnOp::PostDec) {
                args.push(Arg::Val(Val::konst(Konst::Int(0), Ty::INT, span)));
            }
            if op == UnOp::Not && !self.has_user_operator(&v, "operator!") {
                let b = self.to_bool(v, span);
                return self.unary_on(UnOp::Not, b, span);
            }
            return self.operator_call(name, v, args, span);
        }
        self.unary_on(op, v, span)
    }

    pub fn unary_on(&mut self, op: UnOp, v: Val, span: Span) -> Val {
        let v = if matches!(op, UnOp::AddrOf | UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec) {
            self.as_object(v)
        } else {
            v
        };
        let e = v.expr();
        match op {
            UnOp::Deref => match &v.ty {
                Ty::Ptr(p, sp, c) => {
                    let mut r = Val::lval(
                        cx(c::ExprKind::Unary(UnOp::Deref, Box::new(paren(e))), span),
                        (**p).clone(),
                        *sp,
                        span,
                    );
                    r.is_const = *c;
                    r
                }
                Ty::Array(el, _) => {
                    let r = Val::lval(
                        cx(c::ExprKind::Unary(UnOp::Deref, Box::new(paren(e))), span),
                        (**el).clone(),
                        v.space,
                        span,
                    );
                    r
                }
                _ => {
                    self.err(
                        codes::BAD_DEREF,
                        format!("cannot dereference a value of type `{}`", self.display_ty(&v.ty)),
                        span,
                    );
                    Val::error(span)
                }
            },
            UnOp::AddrOf => {
                if !v.lv {
                    self.err(codes::NOT_LVALUE, "cannot take the address of a temporary", span);
                    return Val::error(span);
                }
                if v.c.is_none() {
                    self.err(codes::CXX_UNSUPPORTED, "the address of an object without storage", span);
                    return Val::error(span);
                }
                Val::rv(
                    cx(c::ExprKind::Unary(UnOp::AddrOf, Box::new(paren(e))), span),
                    Ty::Ptr(Rc::new(v.ty.clone()), v.space, v.is_const),
                    span,
                )
            }
            _ => {
                if matches!(op, UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec) && !v.lv {
                    self.err(codes::NOT_LVALUE, "increment or decrement of something that is not an l-value", span);
                    return Val::error(span);
                }
                let k = match (&v.k, op, &v.ty) {
                    (Some(Konst::Int(a)), UnOp::Neg, t) => Some(Konst::Int(-a)).map(|k| (k, t.clone())),
                    (Some(Konst::Float(a)), UnOp::Neg, t) => Some((Konst::Float(-a), t.clone())),
                    (Some(k), UnOp::Plus, t) => Some((k.clone(), t.clone())),
                    (Some(Konst::Int(a)), UnOp::BitNot, t) => Some((Konst::Int(!a), t.clone())),
                    (Some(k), UnOp::Not, _) => k.truthy().map(|b| (Konst::Int(i128::from(!b)), Ty::BOOL)),
                    _ => None,
                };
                let not_scalar = op == UnOp::Not && !matches!(v.ty, Ty::Vector(..));
                let built = cx(c::ExprKind::Unary(op, Box::new(paren(e))), span);
                let ty = match &k {
                    Some((_, t)) if !matches!(t, Ty::Enum(_)) => {
                        let promoted = match t {
                            Ty::Scalar(s)
                                if op != UnOp::Not && (s.is_integer() && s.bits() < 32 || *s == Scalar::Bool) =>
                            {
                                Ty::INT
                            }
                            t => t.clone(),
                        };
                        Some(promoted)
                    }
                    _ => self.oracle_op(&|l| c::ExprKind::Unary(op, Box::new(l[0].clone())), &[&v], span),
                };
                let Some(ty) = ty else {
                    self.err(
                        codes::BAD_OPERANDS,
                        format!(
                            "invalid operand of type `{}` to unary `{}`",
                            self.display_ty(&v.ty),
                            crate::print::unop_spelling(op)
                        ),
                        span,
                    );
                    return Val::error(span);
                };
                let ty = if not_scalar { Ty::BOOL } else { ty };
                match k {
                    Some((k, _)) => {
                        let k = match (&ty, k) {
                            (Ty::Scalar(s), Konst::Int(x)) => Konst::Int(wrap_int(x, *s)),
                            (_, k) => k,
                        };
                        let mut r = Val::konst(k, ty, span);
                        r.c = Some(built);
                        r
                    }
                    None => Val::rv(built, ty, span),
                }
            }
        }
    }

    fn has_user_operator(&self, v: &Val, name: &str) -> bool {
        v.ty.class().is_some_and(|c| self.class_member(c, name).is_some())
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.logical(op, a, b, span);
        }
        let l = self.expr(a);
        let r = self.expr(b);
        if l.is_error() || r.is_error() {
            return Val::error(span);
        }
        self.binary_on(op, l, r, span)
    }

    pub fn binary_on(&mut self, op: BinOp, l: Val, r: Val, span: Span) -> Val {
        let scoped = |s: &Self, t: &Ty| matches!(t, Ty::Enum(e) if s.enums[e.0 as usize].scoped);
        if l.ty.is_class()
            || r.ty.is_class()
            || (scoped(self, &l.ty) || scoped(self, &r.ty)) && self.has_operator_anywhere(binop_name(op))
        {
            let name = binop_name(op);
            if l.ty.is_class() || r.ty.is_class() {
                return self.binary_operator_call(name, l, r, span);
            }
        }
        // Operator functions declared for enumerations (`mem_fence | mem_fence`).
        if matches!(l.ty, Ty::Enum(_)) || matches!(r.ty, Ty::Enum(_)) {
            if let Some(v) = self.enum_operator_call(binop_name(op), l.clone(), r.clone(), span) {
                return v;
            }
        }
        if scoped(self, &l.ty) || scoped(self, &r.ty) {
            let same = l.ty == r.ty;
            let cmp = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge);
            if !(same && cmp) {
                self.err(
                    codes::BAD_OPERANDS,
                    format!("invalid operands to `{}`: a scoped enumeration converts to no arithmetic type (use `static_cast`)", op.spelling()),
                    span,
                );
                return Val::error(span);
            }
        }
        let (le, re) = (l.expr(), r.expr());
        let built = c::ExprKind::Binary(op, Box::new(paren(le)), Box::new(paren(re)));
        // Pointer arithmetic, comparisons and vectors are OpenCL C's to type.
        let k = self.fold_binary(op, &l, &r);
        let ty = match &k {
            Some((_, t)) => Some(t.clone()),
            None => self.oracle_op(
                &|x| c::ExprKind::Binary(op, Box::new(x[0].clone()), Box::new(x[1].clone())),
                &[&l, &r],
                span,
            ),
        };
        let Some(ty) = ty else {
            self.err(
                codes::BAD_OPERANDS,
                format!(
                    "invalid operands to `{}` (`{}` and `{}`)",
                    op.spelling(),
                    self.display_ty(&l.ty),
                    self.display_ty(&r.ty)
                ),
                span,
            );
            return Val::error(span);
        };
        // C++: a comparison of scalars is a `bool` (OpenCL C's `int`; vectors keep `intN`).
        let cmp = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge);
        let ty = if cmp && matches!(ty, Ty::Scalar(_)) { Ty::BOOL } else { ty };
        match k {
            Some((k, _)) => {
                let mut v = Val::konst(k, ty, span);
                v.c = Some(cx(built, span));
                v
            }
            None => Val::rv(cx(built, span), ty, span),
        }
    }

    fn has_operator_anywhere(&self, _name: &str) -> bool {
        false
    }

    /// Compile-time folding of a binary operator on two constants (integers and floats).
    pub fn fold_binary(&self, op: BinOp, l: &Val, r: &Val) -> Option<(Konst, Ty)> {
        let (lk, rk) = (l.k.as_ref()?, r.k.as_ref()?);
        let ls = match &l.ty {
            Ty::Scalar(s) => *s,
            Ty::Enum(e) => self.enums[e.0 as usize].scalar,
            _ => return None,
        };
        let rs = match &r.ty {
            Ty::Scalar(s) => *s,
            Ty::Enum(e) => self.enums[e.0 as usize].scalar,
            _ => return None,
        };
        fold_scalar(op, lk, ls, rk, rs)
    }

    fn logical(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
        let l = self.expr(a);
        let l = self.to_bool(l, span);
        // The right operand runs only when needed: inlined calls in it go under an `if`.
        let mark = self.mark();
        let r = self.expr(b);
        let r = self.to_bool(r, span);
        let pre = self.take_since(mark);
        if l.is_error() || r.is_error() {
            return Val::error(span);
        }
        if let (Some(lk), true) = (l.k.as_ref().and_then(Konst::truthy), pre.is_empty()) {
            // `true && x`, `false || x`: x; the others are constants.
            return match (op, lk) {
                (BinOp::LogAnd, false) => Val::konst(Konst::Int(0), Ty::BOOL, span),
                (BinOp::LogOr, true) => Val::konst(Konst::Int(1), Ty::BOOL, span),
                _ => r,
            };
        }
        if pre.is_empty() {
            let built = cx(c::ExprKind::Binary(op, Box::new(paren(l.expr())), Box::new(paren(r.expr()))), span);
            let k = match (l.k.as_ref().and_then(Konst::truthy), r.k.as_ref().and_then(Konst::truthy)) {
                (Some(x), Some(y)) => Some(Konst::Int(i128::from(if op == BinOp::LogAnd { x && y } else { x || y }))),
                _ => None,
            };
            return match k {
                Some(k) => {
                    let mut v = Val::konst(k, Ty::BOOL, span);
                    v.c = Some(built);
                    v
                }
                None => Val::rv(built, Ty::BOOL, span),
            };
        }
        // bool t = l; if (t) { pre; t = r; }   (|| tests !t)
        let t = self.fresh("cond");
        self.push_decl(&t, &Ty::BOOL, Some(l.expr()), span);
        let test = if op == BinOp::LogAnd {
            ident(&t, span)
        } else {
            cx(c::ExprKind::Unary(UnOp::Not, Box::new(ident(&t, span))), span)
        };
        let mut body = pre;
        body.push(emit::stmt_expr(emit::assign(ident(&t, span), r.expr(), span)));
        self.push_stmt(emit::stmt(
            c::StmtKind::If(test, Box::new(emit::stmt(c::StmtKind::Compound(body), span)), None),
            span,
        ));
        Val::rv(ident(&t, span), Ty::BOOL, span)
    }

    /// A value tested as a condition: classes through `operator bool`.
    pub fn to_bool(&mut self, v: Val, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        if let Some(cls) = v.ty.class() {
            if let Some(f) = self.conversion_to(cls, &|t| t.is_arith() || t.is_pointer()) {
                return self.inline_call(f, Some(v), vec![], span);
            }
            self.err(
                codes::TYPE_MISMATCH,
                format!("a value of type `{}` cannot be used as a condition", self.display_ty(&v.ty)),
                span,
            );
            return Val::error(span);
        }
        v
    }

    fn assign(&mut self, op: Option<BinOp>, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
        let l = self.expr(a);
        if l.is_error() {
            return l;
        }
        let r = match &b.kind {
            ExprKind::Braced(None, elems) if l.ty.is_class() || matches!(l.ty, Ty::Vector(..) | Ty::Array(..)) => {
                self.braced(&l.ty.clone(), elems, b.span)
            }
            _ => self.expr(b),
        };
        if r.is_error() {
            return r;
        }
        self.assign_on(op, l, r, span)
    }

    pub fn assign_on(&mut self, op: Option<BinOp>, l: Val, r: Val, span: Span) -> Val {
        if let Some(cls) = l.ty.class() {
            let name = match op {
                None => "operator=".to_string(),
                Some(o) => format!("operator{}=", o.spelling()),
            };
            if self.class_member(cls, &name).is_some() || self.free_operator_exists(&name, &l, &r) {
                return self.operator_call(&name, l, vec![Arg::Val(r)], span);
            }
            if let Some(o) = op {
                // `a op= b` without `operator op=`: `a = a op b` when `op` is defined.
                let opname = binop_name(o);
                let sum = self.binary_operator_call(opname, l.clone(), r, span);
                if sum.is_error() {
                    return sum;
                }
                return self.assign_on(None, l, sum, span);
            }
            // The implicit copy assignment: members copied (a struct assignment in C).
            let r = self.convert_to_class(r, cls, span);
            if r.is_error() {
                return r;
            }
            if !self.has_storage(cls) {
                return l;
            }
            if !l.lv {
                self.err(codes::NOT_LVALUE, "assignment to a temporary", span);
                return Val::error(span);
            }
            self.copy_object(&l, &r, cls, span);
            return l;
        }
        if !l.lv {
            self.err(codes::NOT_LVALUE, "expression is not assignable", span);
            return Val::error(span);
        }
        let l = self.as_object(l);
        if l.is_const {
            self.err(codes::ASSIGN_CONST, "cannot assign to a const object", span);
            return Val::error(span);
        }
        let r = if let Some(rc) = r.ty.class() {
            // A class converted to the left's type by its conversion function.
            let lt = l.ty.clone();
            match self.conversion_to(rc, &|t| t == &lt || (t.is_arith() && lt.is_arith())) {
                Some(f) => self.inline_call(f, Some(r), vec![], span),
                None => {
                    self.err(
                        codes::TYPE_MISMATCH,
                        format!("cannot assign a `{}` to a `{}`", self.display_ty(&r.ty), self.display_ty(&lt)),
                        span,
                    );
                    return Val::error(span);
                }
            }
        } else {
            r
        };
        let e = cx(c::ExprKind::Assign(op, Box::new(l.expr()), Box::new(paren(r.expr()))), span);
        let mut v = Val::rv(e, l.ty.clone(), span);
        v.lv = false;
        v
    }

    /// Whether a non-member operator function `name` is declared for these operands (by
    /// ordinary or argument-dependent lookup).
    fn free_operator_exists(&mut self, name: &str, l: &Val, r: &Val) -> bool {
        let (fs, ts) = self.free_operators_pub(name, &[Arg::Val(l.clone()), Arg::Val(r.clone())]);
        !fs.is_empty() || !ts.is_empty()
    }

    fn conditional(&mut self, cnd: &ast::Expr, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
        let cv = self.expr(cnd);
        let cv = self.to_bool(cv, span);
        if let Some(k) = cv.k.as_ref().and_then(Konst::truthy) {
            // A constant condition: only the chosen arm is elaborated (as `if constexpr`-like
            // folding in templates).
            return if k { self.expr(a) } else { self.expr(b) };
        }
        let ma = self.mark();
        let av = self.expr(a);
        let pa = self.take_since(ma);
        let mb = self.mark();
        let bv = self.expr(b);
        let pb = self.take_since(mb);
        if cv.is_error() || av.is_error() || bv.is_error() {
            return Val::error(span);
        }
        let class_result = av.ty.is_class() || bv.ty.is_class();
        if pa.is_empty() && pb.is_empty() && !class_result {
            let built =
                c::ExprKind::Cond(Box::new(paren(cv.expr())), Box::new(paren(av.expr())), Box::new(paren(bv.expr())));
            // Arms of one type give that type (an enumeration stays one, as C++ says).
            let ty = if av.ty == bv.ty && !matches!(av.ty, Ty::Array(..)) {
                Some(av.ty.clone())
            } else {
                self.oracle_op(
                    &|x| c::ExprKind::Cond(Box::new(x[0].clone()), Box::new(x[1].clone()), Box::new(x[2].clone())),
                    &[&cv, &av, &bv],
                    span,
                )
            };
            let Some(ty) = ty else {
                self.err(codes::BAD_OPERANDS, "incompatible operand types in `?:`", span);
                return Val::error(span);
            };
            // Two l-values of one type give an l-value; C's `?:` gives a value, so where it is
            // used as an object it is written `*(c ? &a : &b)` ([`Elab::as_object`]).
            let mut v = Val::rv(cx(built, span), ty, span);
            if av.lv && bv.lv && av.ty == bv.ty && av.c.is_some() && bv.c.is_some() {
                v.lv = true;
                v.space = av.space;
                v.is_const = av.is_const || bv.is_const;
            }
            return v;
        }
        // T t; if (c) { pa; t = a; } else { pb; t = b; }
        let ty = if class_result {
            if av.ty != bv.ty {
                self.err(codes::BAD_OPERANDS, "the arms of `?:` have different class types", span);
                return Val::error(span);
            }
            av.ty.clone()
        } else {
            match self.oracle_op(
                &|x| c::ExprKind::Cond(Box::new(x[0].clone()), Box::new(x[1].clone()), Box::new(x[2].clone())),
                &[&cv, &av, &bv],
                span,
            ) {
                Some(t) => t,
                None => {
                    self.err(codes::BAD_OPERANDS, "incompatible operand types in `?:`", span);
                    return Val::error(span);
                }
            }
        };
        if let Ty::Class(c) = ty
            && !self.has_storage(c)
        {
            let mut x = pa;
            x.extend(pb);
            for s in x {
                self.push_item(s);
            }
            return Val::phantom(c, span);
        }
        let t = self.fresh("sel");
        if let Ty::Class(c) = &ty {
            self.emit_class(*c);
        }
        self.push_decl(&t, &ty, None, span);
        let mut ta = pa;
        ta.push(emit::stmt_expr(emit::assign(ident(&t, span), av.expr(), span)));
        let mut tb = pb;
        tb.push(emit::stmt_expr(emit::assign(ident(&t, span), bv.expr(), span)));
        self.push_stmt(emit::stmt(
            c::StmtKind::If(
                cv.expr(),
                Box::new(emit::stmt(c::StmtKind::Compound(ta), span)),
                Some(Box::new(emit::stmt(c::StmtKind::Compound(tb), span))),
            ),
            span,
        ));
        Val::rv(ident(&t, span), ty, span)
    }

    fn comma(&mut self, xs: &[ast::Expr], span: Span) -> Val {
        let mut last = Val::void(span);
        for (i, x) in xs.iter().enumerate() {
            let v = self.expr(x);
            if i + 1 < xs.len() {
                if let Some(e) = v.c.clone()
                    && emit::has_effects(&e)
                {
                    self.push_stmt_expr(e);
                }
            } else {
                last = v;
            }
        }
        last
    }

    fn index(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> Val {
        let av = self.expr(a);
        if av.is_error() {
            return av;
        }
        if av.ty.is_class() {
            let iv = self.call_arg(i);
            return self.operator_call("operator[]", av, vec![iv], span);
        }
        let iv = self.expr(i);
        if iv.is_error() {
            return iv;
        }
        let (elem, space, is_const) = match &av.ty {
            Ty::Ptr(p, sp, c) => ((**p).clone(), *sp, *c),
            Ty::Array(e, _) => ((**e).clone(), av.space, av.is_const),
            Ty::Vector(s, _) => (Ty::Scalar(*s), av.space, av.is_const),
            _ => {
                self.err(
                    codes::BAD_SUBSCRIPT,
                    format!("a value of type `{}` cannot be subscripted", self.display_ty(&av.ty)),
                    span,
                );
                return Val::error(span);
            }
        };
        let k = match (&av.k, &iv.k) {
            (Some(Konst::Aggregate(xs)), Some(Konst::Int(j))) => {
                usize::try_from(*j).ok().and_then(|j| xs.get(j).cloned())
            }
            _ => None,
        };
        let mut v = Val::lval(emit::index(av.expr(), iv.expr(), span), elem, space, span);
        v.is_const = is_const;
        v.k = k;
        v
    }

    fn member_expr(&mut self, base: &ast::Expr, part: &ast::NamePart, arrow: bool, span: Span) -> Val {
        let obj = self.member_object(base, arrow, span);
        if obj.is_error() {
            return obj;
        }
        match obj.ty.clone() {
            Ty::Class(cls) => {
                if self.find_field(cls, &part.name).is_some() {
                    return self.field_access(&obj, cls, &part.name, span);
                }
                match self.class_member(cls, &part.name) {
                    Some((Ent::Konst(k, t), _)) => Val::konst(k, t, span),
                    Some((Ent::Enumerator(e, v), _)) => Val::konst(Konst::Int(v), Ty::Enum(e), span),
                    Some((Ent::Funcs(..), _)) => {
                        self.err(
                            codes::CXX_FORBIDDEN,
                            format!(
                                "`{}` is a member function: call it (OpenCL C++ has no pointers to members)",
                                part.name
                            ),
                            span,
                        );
                        Val::error(span)
                    }
                    _ => {
                        self.err(
                            codes::NO_MEMBER,
                            format!("`{}` has no member `{}`", self.classes[cls.0 as usize].name, part.name),
                            part.span,
                        );
                        Val::error(span)
                    }
                }
            }
            Ty::Vector(..) => {
                let e = emit::member(obj.expr(), &part.name, span);
                let ty = self.oracle_op(
                    &|x| c::ExprKind::Member(Box::new(x[0].clone()), part.name.clone(), Span::default()),
                    &[&obj],
                    span,
                );
                match ty {
                    Some(t) => {
                        let mut v = Val::lval(e, t, obj.space, span);
                        v.lv = obj.lv;
                        v.is_const = obj.is_const;
                        v
                    }
                    None => {
                        self.err(codes::BAD_SWIZZLE, format!("invalid vector component `{}`", part.name), part.span);
                        Val::error(span)
                    }
                }
            }
            t => {
                self.err(
                    codes::NO_MEMBER,
                    format!("a value of type `{}` has no member `{}`", self.display_ty(&t), part.name),
                    span,
                );
                Val::error(span)
            }
        }
    }

    /// The object of `base.m` / `base->m`.
    pub fn member_object(&mut self, base: &ast::Expr, arrow: bool, span: Span) -> Val {
        if arrow {
            if matches!(base.kind, ExprKind::This) {
                return match self.fx.as_ref().and_then(|fx| fx.frame().this.clone()) {
                    Some(t) => t,
                    None => {
                        self.err(codes::UNDECLARED, "`this` outside a member function", span);
                        Val::error(span)
                    }
                };
            }
            let p = self.expr(base);
            if p.is_error() {
                return p;
            }
            if p.ty.is_class() {
                return self.operator_call("operator->", p, vec![], span);
            }
            return self.unary_on(UnOp::Deref, p, span);
        }
        self.expr(base)
    }

    // ----- conversions and construction -----

    /// `(T)e`, `static_cast<T>(e)`.
    pub fn cast_to(&mut self, ty: &Ty, x: &ast::Expr, span: Span) -> Val {
        if ty.is_error() {
            return Val::error(span);
        }
        if let Ty::Class(_) = ty {
            return self.functional(ty, std::slice::from_ref(x), span);
        }
        if let Ty::Ref(inner, _) = ty {
            let v = self.expr(x);
            let _ = inner;
            return v;
        }
        // A vector literal `(float4)(a, b, c, d)`.
        if let (Ty::Vector(..), ExprKind::Paren(inner)) = (ty, &x.kind)
            && let ExprKind::Comma(parts) = &inner.kind
        {
            return self.vector_literal(ty, parts, span);
        }
        let v = self.expr(x);
        self.convert_explicit(v, ty, span)
    }

    /// An explicit conversion of a value to a non-class type.
    pub fn convert_explicit(&mut self, v: Val, ty: &Ty, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        if let Some(cls) = v.ty.class() {
            let want = ty.clone();
            return match self
                .conversion_to(cls, &|t| t == &want)
                .or_else(|| self.conversion_to(cls, &|t| t.is_arith() && want.is_arith()))
            {
                Some(f) => {
                    let r = self.inline_call(f, Some(v), vec![], span);
                    if &r.ty == ty { r } else { self.convert_explicit(r, ty, span) }
                }
                None => {
                    self.err(
                        codes::BAD_CAST,
                        format!("cannot convert `{}` to `{}`", self.display_ty(&v.ty), self.display_ty(ty)),
                        span,
                    );
                    Val::error(span)
                }
            };
        }
        if ty == &Ty::Void {
            let mut r = Val::void(span);
            r.c = v.c;
            return r;
        }
        let target = match ty {
            Ty::Enum(e) => Ty::Scalar(self.enums[e.0 as usize].scalar),
            t => t.clone(),
        };
        let tn = crate::ty::c_type_name(&target, self, span);
        let e = cx(c::ExprKind::Cast(Box::new(tn), Box::new(paren(v.expr()))), span);
        let k = match (&v.k, &target) {
            (Some(k), Ty::Scalar(_)) => Some(super::lookup::convert_konst(k.clone(), &target)),
            _ => None,
        };
        match k {
            Some(k) => {
                let mut r = Val::konst(k, ty.clone(), span);
                r.c = Some(e);
                r
            }
            None => Val::rv(e, ty.clone(), span),
        }
    }

    fn vector_literal(&mut self, ty: &Ty, parts: &[ast::Expr], span: Span) -> Val {
        let vals: Vec<Val> = parts.iter().map(|p| self.expr(p)).collect();
        if vals.iter().any(Val::is_error) {
            return Val::error(span);
        }
        let inner =
            cx(c::ExprKind::Paren(Box::new(cx(c::ExprKind::Comma(vals.iter().map(Val::expr).collect()), span))), span);
        let tn = crate::ty::c_type_name(ty, self, span);
        Val::rv(cx(c::ExprKind::Cast(Box::new(tn), Box::new(inner)), span), ty.clone(), span)
    }

    /// `T(args)`: a functional cast, a vector literal, or a temporary object.
    pub fn functional(&mut self, ty: &Ty, args: &[ast::Expr], span: Span) -> Val {
        match ty {
            Ty::Error => Val::error(span),
            Ty::Class(cls) => {
                let argv: Vec<Arg> = self.call_args(args);
                if argv.iter().any(|a| a.val().is_some_and(Val::is_error)) {
                    return Val::error(span);
                }
                self.construct_temp(*cls, argv, span)
            }
            Ty::Vector(..) if args.len() > 1 => self.vector_literal(ty, args, span),
            _ => match args {
                [] => {
                    // Value-initialization: zero.
                    let zero = Val::konst(Konst::Int(0), Ty::INT, span);
                    self.convert_explicit(zero, ty, span)
                }
                [a] => {
                    let v = self.expr(a);
                    self.convert_explicit(v, ty, span)
                }
                _ => {
                    self.err(
                        codes::BAD_CAST,
                        format!("too many arguments to convert to `{}`", self.display_ty(ty)),
                        span,
                    );
                    Val::error(span)
                }
            },
        }
    }

    /// `T{...}`.
    pub fn braced(&mut self, ty: &Ty, elems: &[ast::InitElem], span: Span) -> Val {
        match ty {
            Ty::Class(cls) => self.construct_braced_temp(*cls, elems, span),
            Ty::Vector(..) => {
                let parts: Vec<ast::Expr> = elems
                    .iter()
                    .filter_map(|e| match &e.value {
                        ast::InitValue::Expr(x) => Some(x.clone()),
                        ast::InitValue::Brace(..) => None,
                    })
                    .collect();
                if parts.len() == 1 {
                    let v = self.expr(&parts[0]);
                    return self.convert_explicit(v, ty, span);
                }
                self.vector_literal(ty, &parts, span)
            }
            Ty::Array(..) => {
                // An array temporary: a compound literal.
                let init = self.initializer_list(ty, elems, span);
                let tn = crate::ty::c_type_name(ty, self, span);
                Val::rv(cx(c::ExprKind::CompoundLiteral(Box::new(tn), Box::new(init)), span), ty.clone(), span)
            }
            _ => match elems {
                [] => self.convert_explicit(Val::konst(Konst::Int(0), Ty::INT, span), ty, span),
                [ast::InitElem { value: ast::InitValue::Expr(x), .. }] => {
                    let v = self.expr(x);
                    self.convert_explicit(v, ty, span)
                }
                _ => {
                    self.err(
                        codes::BAD_INITIALIZER,
                        format!("too many initializers for `{}`", self.display_ty(ty)),
                        span,
                    );
                    Val::error(span)
                }
            },
        }
    }

    /// Call arguments, pack expansions expanded.
    pub fn call_args(&mut self, args: &[ast::Expr]) -> Vec<Arg> {
        let mut out = Vec::new();
        for a in args {
            match &a.kind {
                ExprKind::PackExpansion(pattern) => out.extend(self.expand(pattern).into_iter().map(Arg::Val)),
                _ => out.push(self.call_arg(a)),
            }
        }
        out
    }

    /// The number of elements of a parameter pack (a function parameter pack or a template
    /// parameter pack) named `n`.
    pub fn pack_len(&self, n: &str) -> Option<usize> {
        if let Some(Local::Pack(v)) = self.fx.as_ref().and_then(|fx| fx.local(n)) {
            return Some(v.len());
        }
        match self.ctx().env.get(n) {
            Some(crate::ty::TArg::Pack(v)) => Some(v.len()),
            _ => None,
        }
    }

    /// `pattern...`: the pattern once per element of the packs it names.
    pub fn expand(&mut self, pattern: &ast::Expr) -> Vec<Val> {
        let mut names = Vec::new();
        super::stmt::walk_expr(pattern, &mut |x| {
            if let ExprKind::Name(q) = &x.kind
                && q.is_simple()
            {
                names.push(q.parts[0].name.clone());
            }
            if let ExprKind::Functional(t, _) | ExprKind::CCast(t, _) | ExprKind::NamedCast(_, t, _) = &x.kind
                && let ast::TypeKind::Named(q) = &t.kind
                && q.is_simple()
            {
                names.push(q.parts[0].name.clone());
            }
        });
        names.retain(|n| self.pack_len(n).is_some());
        names.sort();
        names.dedup();
        let Some(len) = names.first().and_then(|n| self.pack_len(n)) else {
            self.err(codes::CXX_TEMPLATE, "a pack expansion `...` names no parameter pack", pattern.span);
            return vec![];
        };
        if names.iter().any(|n| self.pack_len(n) != Some(len)) {
            self.err(codes::CXX_TEMPLATE, "packs of different lengths are expanded together", pattern.span);
            return vec![];
        }
        let mut out = Vec::new();
        for i in 0..len {
            // Each pack name stands for its `i`th element while the pattern is elaborated.
            let saved_ctx = self.ctx();
            let mut vars = std::collections::HashMap::new();
            let mut locals = Vec::new();
            for n in &names {
                if let Some(Local::Pack(v)) = self.fx.as_ref().and_then(|fx| fx.local(n)) {
                    locals.push((n.clone(), Local::Var(v[i].clone())));
                } else if let Some(crate::ty::TArg::Pack(v)) = saved_ctx.env.get(n) {
                    vars.insert(n.clone(), v[i].clone());
                }
            }
            if let Some(fx) = self.fx.as_mut() {
                let f = fx.frame_mut();
                f.scopes.push(std::collections::HashMap::new());
                for (n, l) in locals {
                    if let Some(sc) = f.scopes.last_mut() {
                        sc.insert(n, l);
                    }
                }
                if !vars.is_empty() {
                    f.ctx = Ctx {
                        env: Rc::new(super::Env { vars, parent: Some(saved_ctx.env.clone()) }),
                        ..saved_ctx.clone()
                    };
                }
            }
            let v = self.expr(pattern);
            if let Some(fx) = self.fx.as_mut() {
                let f = fx.frame_mut();
                f.scopes.pop();
                f.ctx = saved_ctx;
            }
            out.push(v);
        }
        out
    }

    /// A fold expression over a pack.
    fn fold(&mut self, op: BinOp, pack: &ast::Expr, init: Option<&ast::Expr>, left: bool, span: Span) -> Val {
        // `(pack op ... op init)` arrives with the pack as `init`: whichever names a pack is it.
        let names_pack = |s: &Self, e: &ast::Expr| {
            let mut found = false;
            super::stmt::walk_expr(e, &mut |x| {
                if let ExprKind::Name(q) = &x.kind
                    && q.is_simple()
                    && s.pack_len(&q.parts[0].name).is_some()
                {
                    found = true;
                }
            });
            found
        };
        let (pack, init, left) = match init {
            Some(i) if names_pack(self, i) && !names_pack(self, pack) => (i, Some(pack), false),
            _ => (pack, init, left),
        };
        let mut vals = self.expand(pack);
        if let Some(i) = init {
            let iv = self.expr(i);
            if left { vals.insert(0, iv) } else { vals.push(iv) }
        }
        if vals.iter().any(Val::is_error) {
            return Val::error(span);
        }
        if vals.is_empty() {
            return match op {
                BinOp::LogAnd => Val::konst(Konst::Int(1), Ty::BOOL, span),
                BinOp::LogOr => Val::konst(Konst::Int(0), Ty::BOOL, span),
                _ => {
                    self.err(
                        codes::CXX_TEMPLATE,
                        format!("a fold of an empty pack over `{}` needs an initial value", op.spelling()),
                        span,
                    );
                    Val::error(span)
                }
            };
        }
        let combine = |s: &mut Self, a: Val, b: Val| -> Val {
            if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
                let (a, b) = (s.to_bool(a, span), s.to_bool(b, span));
                let e = cx(c::ExprKind::Binary(op, Box::new(paren(a.expr())), Box::new(paren(b.expr()))), span);
                return Val::rv(e, Ty::BOOL, span);
            }
            s.binary_on(op, a, b, span)
        };
        if left {
            let mut it = vals.into_iter();
            let mut acc = it.next().unwrap_or_else(|| Val::error(span));
            for v in it {
                acc = combine(self, acc, v);
            }
            acc
        } else {
            let mut it = vals.into_iter().rev();
            let mut acc = it.next().unwrap_or_else(|| Val::error(span));
            for v in it {
                acc = combine(self, v, acc);
            }
            acc
        }
    }

    /// A call argument (a braced list stays one for the parameter's type).
    pub fn call_arg(&mut self, a: &ast::Expr) -> Arg {
        match &a.kind {
            ExprKind::Braced(None, elems) => Arg::Braced(elems.clone(), a.span),
            _ => Arg::Val(self.expr(a)),
        }
    }

    fn sizeof_val(&mut self, ty: &Ty, span: Span) -> Val {
        match self.layout(ty) {
            Some((size, _)) => Val::konst(Konst::Int(i128::from(size)), Ty::SIZE, span),
            None => {
                if !ty.is_error() {
                    self.err(codes::INCOMPLETE_TYPE, format!("`sizeof` of `{}`", self.display_ty(ty)), span);
                }
                Val::error(span)
            }
        }
    }

    fn vec_step(&mut self, ty: &Ty, span: Span) -> Val {
        let n = match ty {
            Ty::Vector(_, n) => i128::from(if *n == 3 { 4 } else { *n }),
            Ty::Scalar(_) => 1,
            _ => {
                self.err(codes::BAD_OPERANDS, "`vec_step` needs a scalar or vector type", span);
                return Val::error(span);
            }
        };
        Val::konst(Konst::Int(n), Ty::INT, span)
    }

    /// Size and alignment in bytes, as OpenCL C lays types out.
    pub fn layout(&self, ty: &Ty) -> Option<(u32, u32)> {
        Some(match ty {
            Ty::Scalar(s) => {
                let b = if *s == Scalar::Bool { 1 } else { s.bits() / 8 };
                (b, b)
            }
            Ty::Enum(e) => {
                let s = self.enums[e.0 as usize].scalar;
                (s.bits() / 8, s.bits() / 8)
            }
            Ty::Vector(s, n) => {
                let (sz, _) = kiln_hir::types::vector_layout(*s, *n);
                (sz, sz)
            }
            Ty::Ptr(..) | Ty::NullPtr => (4, 4),
            Ty::Atomic(s) => (s.bits() / 8, s.bits() / 8),
            Ty::Array(e, Some(n)) => {
                let (s, a) = self.layout(e)?;
                (s * n, a)
            }
            Ty::Class(c) => {
                let cls = &self.classes[c.0 as usize];
                let mut off = 0u32;
                let mut align = 1u32;
                // Empty bases take no room (the empty base optimization); a reference member is
                // the size of a pointer, as C++ lays it out.
                let mut parts: Vec<Ty> =
                    cls.bases.iter().filter(|b| self.has_storage(**b)).map(|b| Ty::Class(*b)).collect();
                parts.extend(cls.fields.iter().map(|f| match &f.ty {
                    Ty::Ref(t, c) => Ty::Ptr(t.clone(), AddrSpace::Generic, *c),
                    t => t.clone(),
                }));
                let union = cls.key == ast::ClassKey::Union;
                for p in parts {
                    let (s, a) = self.layout(&p)?;
                    align = align.max(a);
                    if union {
                        off = off.max(s);
                    } else {
                        off = off.div_ceil(a) * a + s;
                    }
                }
                let size = off.div_ceil(align) * align;
                (size.max(1), align)
            }
            Ty::Ref(t, _) => return self.layout(t),
            _ => return None,
        })
    }
}

pub fn binop_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Mul => "operator*",
        BinOp::Div => "operator/",
        BinOp::Rem => "operator%",
        BinOp::Add => "operator+",
        BinOp::Sub => "operator-",
        BinOp::Shl => "operator<<",
        BinOp::Shr => "operator>>",
        BinOp::Lt => "operator<",
        BinOp::Gt => "operator>",
        BinOp::Le => "operator<=",
        BinOp::Ge => "operator>=",
        BinOp::Eq => "operator==",
        BinOp::Ne => "operator!=",
        BinOp::BitAnd => "operator&",
        BinOp::BitXor => "operator^",
        BinOp::BitOr => "operator|",
        BinOp::LogAnd => "operator&&",
        BinOp::LogOr => "operator||",
    }
}

/// Folds `l op r` on scalar constants with OpenCL C's conversions; `None` when the result is
/// not a constant (division by zero, a shift out of range) or the operands are not scalars.
pub fn fold_scalar(op: BinOp, lk: &Konst, ls: Scalar, rk: &Konst, rs: Scalar) -> Option<(Konst, Ty)> {
    let cmp = matches!(op, BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne);
    if matches!(op, BinOp::Shl | BinOp::Shr) {
        let s = if ls.is_integer() && ls.bits() < 32 || ls == Scalar::Bool { Scalar::I32 } else { ls };
        if !s.is_integer() {
            return None;
        }
        let (a, b) = (lk.as_int()?, rk.as_int()?);
        let b = b.rem_euclid(i128::from(s.bits()));
        let v = if op == BinOp::Shl {
            wrap_int(a << b, s)
        } else if s.is_signed() {
            a >> b
        } else {
            (a & ((1i128 << s.bits()) - 1)) >> b
        };
        return Some((Konst::Int(wrap_int(v, s)), Ty::Scalar(s)));
    }
    let common = arith_common(ls, rs);
    if common.is_float() {
        let a = match lk {
            Konst::Int(v) => *v as f64,
            Konst::Float(f) => *f,
            _ => return None,
        };
        let b = match rk {
            Konst::Int(v) => *v as f64,
            Konst::Float(f) => *f,
            _ => return None,
        };
        let round = |x: f64| super::lookup::round_float(x, common);
        let (a, b) = (round(a), round(b));
        let v = match op {
            BinOp::Add => round(a + b),
            BinOp::Sub => round(a - b),
            BinOp::Mul => round(a * b),
            BinOp::Div => round(a / b),
            BinOp::Lt => return Some((Konst::Int(i128::from(a < b)), Ty::BOOL)),
            BinOp::Gt => return Some((Konst::Int(i128::from(a > b)), Ty::BOOL)),
            BinOp::Le => return Some((Konst::Int(i128::from(a <= b)), Ty::BOOL)),
            BinOp::Ge => return Some((Konst::Int(i128::from(a >= b)), Ty::BOOL)),
            BinOp::Eq => return Some((Konst::Int(i128::from(a == b)), Ty::BOOL)),
            BinOp::Ne => return Some((Konst::Int(i128::from(a != b)), Ty::BOOL)),
            _ => return None,
        };
        // `f32` rounding of each operation matches the hardware only without fused forms.
        return Some((Konst::Float(v), Ty::Scalar(common)));
    }
    let (a, b) = (wrap_int(lk.as_int()?, common), wrap_int(rk.as_int()?, common));
    let unsigned_view = |x: i128| if common.is_signed() { x } else { x & ((1i128 << common.bits()) - 1) };
    let (ua, ub) = (unsigned_view(a), unsigned_view(b));
    let v = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => {
            if b == 0 {
                return None;
            }
            if common.is_signed() { a / b } else { ua / ub }
        }
        BinOp::Rem => {
            if b == 0 {
                return None;
            }
            if common.is_signed() { a % b } else { ua % ub }
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Lt => i128::from(ua < ub),
        BinOp::Gt => i128::from(ua > ub),
        BinOp::Le => i128::from(ua <= ub),
        BinOp::Ge => i128::from(ua >= ub),
        BinOp::Eq => i128::from(a == b),
        BinOp::Ne => i128::from(a != b),
        _ => return None,
    };
    if cmp {
        return Some((Konst::Int(v), Ty::BOOL));
    }
    Some((Konst::Int(wrap_int(v, common)), Ty::Scalar(common)))
}
