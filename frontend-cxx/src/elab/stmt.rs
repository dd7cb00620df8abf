//! Bodies: frames of inlined calls, statements, declarations, loops, `return`, and kernels.

use super::emit::{self, cx, ident};
use super::expr::{Arg, Val};
use super::{Ctx, Elab, Ent, FuncId};
use crate::ast::{self, ExprKind, StmtKind};
use crate::ty::{ClassId, Konst, Ty};
use kiln_diagnostics::{Span, codes};
use kiln_frontend::ast as c;
use kiln_hir::types::{AddrSpace, Quals};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What a name in a body refers to.
#[derive(Clone, Debug)]
pub enum Local {
    /// A variable, parameter or reference: the l-value it designates.
    Var(Val),
    /// A function parameter pack: its elements.
    Pack(Vec<Val>),
    /// A local type, alias or constant.
    Ent(Ent),
}

/// Where `return` goes in the body being elaborated.
#[derive(Clone, Debug)]
pub struct RetInfo {
    /// The kernel itself: `return;` stays.
    pub kernel: bool,
    /// The declared return type (`None`: deduced from the first `return`).
    pub ty: Option<Ty>,
    pub label: ast::Name,
    pub label_used: bool,
    /// The variable holding the result (a pointer to it for references).
    pub result: Option<ast::Name>,
    /// Where the result variable is declared: block depth and position.
    pub decl_at: (usize, usize),
    /// The value of a last `return e;` reached without a jump.
    pub final_val: Option<Val>,
}

impl Frame {
    fn new(
        ctx: Ctx,
        this: Option<Val>,
        func: Option<FuncId>,
        ret: Option<Ty>,
        label: ast::Name,
        decl_at: (usize, usize),
    ) -> Frame {
        Frame {
            scopes: vec![HashMap::new()],
            ctx,
            this,
            ret: RetInfo { kernel: false, ty: ret, label, label_used: false, result: None, decl_at, final_val: None },
            func,
            closure: None,
            labels: HashMap::new(),
            continues: Vec::new(),
        }
    }
}

pub struct Frame {
    pub scopes: Vec<HashMap<ast::Name, Local>>,
    pub ctx: Ctx,
    pub this: Option<Val>,
    pub ret: RetInfo,
    pub func: Option<FuncId>,
    /// The closure class whose body this is.
    pub closure: Option<ClassId>,
    /// C labels of this frame's source labels.
    pub labels: HashMap<ast::Name, ast::Name>,
    /// For each loop being written, innermost last: the label `continue` jumps to (`None`:
    /// a plain `continue`).
    pub continues: Vec<Option<ast::Name>>,
}

pub struct FnState {
    /// The frame used when no call is being elaborated (never popped).
    pub root: Frame,
    pub frames: Vec<Frame>,
    /// The statement lists being written, innermost last.
    pub blocks: Vec<Vec<c::BlockItem>>,
    pub call_stack: Vec<FuncId>,
    /// C names used in the kernel so far (every C name of a kernel is unique).
    pub names: HashSet<String>,
    /// `continue` labels jumped to.
    pub continues_used: HashSet<String>,
}

impl FnState {
    pub fn new(ctx: Ctx) -> FnState {
        FnState {
            root: Frame::new(ctx, None, None, None, "".into(), (0, 0)),
            frames: vec![],
            blocks: vec![Vec::new()],
            call_stack: vec![],
            names: HashSet::new(),
            continues_used: HashSet::new(),
        }
    }

    pub fn frame(&self) -> &Frame {
        self.frames.last().unwrap_or(&self.root)
    }

    pub fn frame_mut(&mut self) -> &mut Frame {
        match self.frames.last_mut() {
            Some(f) => f,
            None => &mut self.root,
        }
    }

    pub fn local(&self, n: &str) -> Option<Local> {
        let f = self.frame();
        f.scopes.iter().rev().find_map(|s| s.get(n).cloned())
    }

    /// A local type or constant (for name lookup outside expressions).
    pub fn local_ent(&self, n: &str) -> Option<Ent> {
        match self.local(n)? {
            Local::Ent(e) => Some(e),
            Local::Var(v) if v.k.is_some() && v.is_const => Some(Ent::Konst(v.k?, v.ty)),
            Local::Var(_) | Local::Pack(_) => None,
        }
    }
}

/// C names OpenCL C reserves that C++ allows as identifiers.
const C_RESERVED: &[&str] = &[
    "restrict",
    "uniform",
    "complex",
    "imaginary",
    "read_only",
    "write_only",
    "read_write",
    "vec_step",
    "pipe",
    "channel",
    "global",
    "local",
    "constant",
    "private",
    "kernel",
    "half",
    "bool",
    "true",
    "false",
    "signed",
    "unsigned",
];

impl Elab<'_> {
    // ----- output -----

    pub fn push_item(&mut self, it: c::BlockItem) {
        if let Some(fx) = self.fx.as_mut()
            && let Some(b) = fx.blocks.last_mut()
        {
            b.push(it);
        }
    }

    pub fn push_stmt(&mut self, s: c::Stmt) {
        self.push_item(c::BlockItem::Stmt(s));
    }

    pub fn push_stmt_expr(&mut self, e: c::Expr) {
        self.push_item(emit::stmt_expr(e));
    }

    pub fn mark(&self) -> (usize, usize) {
        match &self.fx {
            Some(fx) => (fx.blocks.len() - 1, fx.blocks.last().map_or(0, Vec::len)),
            None => (0, 0),
        }
    }

    /// The items written into the current block since `mark`, removed from it.
    pub fn take_since(&mut self, mark: (usize, usize)) -> Vec<c::BlockItem> {
        match self.fx.as_mut() {
            Some(fx) if fx.blocks.len() - 1 == mark.0 => {
                fx.blocks.last_mut().map(|b| b.split_off(mark.1.min(b.len()))).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// A C name for a variable: the name as written when the kernel has not used it yet.
    pub fn var_name(&mut self, wanted: &str) -> ast::Name {
        let reserved = C_RESERVED.contains(&wanted) || crate::elab::lookup::builtin_type(wanted).is_some();
        let taken = self.fx.as_ref().is_some_and(|fx| fx.names.contains(wanted));
        let n: ast::Name = if reserved || taken { self.fresh(wanted) } else { wanted.into() };
        if let Some(fx) = self.fx.as_mut() {
            fx.names.insert(n.to_string());
        }
        n
    }

    /// `T name = init;` in the current block.
    pub fn push_decl(&mut self, name: &str, ty: &Ty, init: Option<c::Expr>, span: Span) {
        if let Some(fx) = self.fx.as_mut() {
            fx.names.insert(name.to_string());
        }
        let d = self.c_declaration(name, ty, None, init.map(c::Initializer::Expr), span, &[], &self.ctx());
        self.push_item(c::BlockItem::Decl(d));
    }

    /// A C declaration of one variable.
    pub fn c_declaration(
        &mut self,
        name: &str,
        ty: &Ty,
        space: Option<AddrSpace>,
        init: Option<c::Initializer>,
        span: Span,
        attrs: &[ast::Attribute],
        ctx: &Ctx,
    ) -> c::Declaration {
        let ct = crate::ty::c_type(ty, self, span);
        let is_pointer = matches!(ty, Ty::Ptr(..));
        let (quals, mut spec_space) = (ct.quals, ct.space);
        if let Some(s) = space
            && s != AddrSpace::Private
            && !is_pointer
        {
            spec_space = Some(s);
        }
        let mut quals = quals;
        if space == Some(AddrSpace::Constant) && !is_pointer {
            quals.is_const = true;
        }
        let mut specs = crate::ty::specs_of(ct.spec, quals, spec_space, span);
        specs.attrs = self.c_attributes(attrs, ctx);
        c::Declaration {
            specs,
            declarators: vec![c::InitDeclarator {
                declarator: c::Declarator { name: Some((name.into(), span)), derived: ct.derived, attrs: vec![], span },
                init,
            }],
            span,
        }
    }

    /// Attributes passed on to OpenCL C, their arguments evaluated.
    pub fn c_attributes(&mut self, attrs: &[ast::Attribute], ctx: &Ctx) -> Vec<c::Attribute> {
        let mut out = Vec::new();
        for a in attrs {
            let name: ast::Name = match (a.scope.as_deref(), &*a.name) {
                (Some("cl"), "required_work_group_size") => "reqd_work_group_size".into(),
                (Some("cl"), "work_group_size_hint") => "work_group_size_hint".into(),
                (Some("cl"), "vec_type_hint") => "vec_type_hint".into(),
                (Some("cl"), "max_size") | (Some("cl"), "aligned") | (Some("cl"), "packed") => continue,
                (Some("cl"), "unroll_hint" | "ivdep") => continue,
                (Some(_), _) => continue,
                // C++'s own attributes are hints with nothing to build.
                (
                    None,
                    "maybe_unused" | "nodiscard" | "noreturn" | "deprecated" | "fallthrough" | "likely" | "unlikely"
                    | "carries_dependency",
                ) => continue,
                (None, n) => n.into(),
            };
            let mut args = Vec::new();
            for x in &a.args {
                args.push(self.c_attr_arg(x, ctx));
            }
            out.push(c::Attribute { name, args, span: a.span });
        }
        out
    }

    fn c_attr_arg(&mut self, x: &ast::Expr, ctx: &Ctx) -> c::AttrArg {
        match &x.kind {
            ExprKind::SizeofType(t) => {
                let ty = self.resolve_type(t, ctx);
                c::AttrArg::Type(crate::ty::c_type_name(&ty, self, x.span))
            }
            ExprKind::Name(q) if q.is_simple() && self.const_eval_quiet(x, ctx).is_none() => {
                c::AttrArg::Expr(ident(&q.parts[0].name, x.span))
            }
            ExprKind::Str(parts) => c::AttrArg::Expr(cx(c::ExprKind::Str(parts.clone()), x.span)),
            _ => match self.const_eval_typed(x, ctx) {
                Some((k, t)) => {
                    c::AttrArg::Expr(emit::konst_expr(&k, &t, x.span).unwrap_or_else(|| ident("0", x.span)))
                }
                None => {
                    self.err_not_constant("an attribute argument", x.span);
                    c::AttrArg::Expr(cx(c::ExprKind::Int("0".into()), x.span))
                }
            },
        }
    }

    // ----- frames -----

    pub fn push_frame(&mut self, ctx: Ctx, this: Option<Val>, func: Option<FuncId>, ret: Option<Ty>, span: Span) {
        let label = self.fresh("ret");
        let Some(fx) = self.fx.as_mut() else { return };
        let decl_at = (fx.blocks.len() - 1, fx.blocks.last().map_or(0, Vec::len));
        let _ = span;
        fx.frames.push(Frame::new(ctx, this, func, ret, label, decl_at));
        if let Some(f) = func {
            fx.call_stack.push(f);
        }
    }

    pub fn pop_frame(&mut self) {
        if let Some(fx) = self.fx.as_mut()
            && let Some(f) = fx.frames.pop()
            && f.func.is_some()
        {
            fx.call_stack.pop();
        }
    }

    pub fn bind_local(&mut self, name: ast::Name, l: Local) {
        if let Some(fx) = self.fx.as_mut()
            && let Some(s) = fx.frame_mut().scopes.last_mut()
        {
            s.insert(name, l);
        }
    }

    fn push_scope(&mut self) {
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().scopes.push(HashMap::new());
        }
    }

    fn pop_scope(&mut self) {
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().scopes.pop();
        }
    }

    /// Elaborates an inlined function's body into the current block; the call's value.
    pub fn run_body(&mut self, body: &ast::Stmt, span: Span) -> Val {
        let stmts: Vec<ast::Stmt> = match &body.kind {
            StmtKind::Block(v) => v.clone(),
            _ => vec![body.clone()],
        };
        self.tail_stmts(&stmts);
        let Some(fx) = self.fx.as_ref() else { return Val::error(span) };
        let ret = fx.frame().ret.clone();
        if ret.label_used {
            let label = ret.label.clone();
            self.push_stmt(emit::stmt(
                c::StmtKind::Labeled(label, Box::new(emit::stmt(c::StmtKind::Expr(None), span))),
                span,
            ));
        }
        match (ret.result, ret.final_val) {
            (Some(r), _) => {
                let ty = ret.ty.clone().unwrap_or(Ty::Error);
                // Insert the result's declaration before the body.
                let by_ref = matches!(ty, Ty::Ref(..));
                let decl_ty = match &ty {
                    Ty::Ref(t, c) => Ty::Ptr(t.clone(), AddrSpace::Generic, *c),
                    t => t.clone(),
                };
                if let Ty::Class(c) = &decl_ty {
                    self.emit_class(*c);
                }
                let ctx = self.ctx();
                let d = self.c_declaration(&r, &decl_ty, None, None, span, &[], &ctx);
                if let Some(fx) = self.fx.as_mut() {
                    let (depth, pos) = ret.decl_at;
                    if let Some(b) = fx.blocks.get_mut(depth) {
                        b.insert(pos.min(b.len()), c::BlockItem::Decl(d));
                    }
                }
                if by_ref {
                    let inner = ty.strip_ref().clone();
                    Val::lval(
                        cx(c::ExprKind::Unary(c::UnOp::Deref, Box::new(ident(&r, span))), span),
                        inner,
                        AddrSpace::Generic,
                        span,
                    )
                } else {
                    Val::rv(ident(&r, span), ty, span)
                }
            }
            (None, Some(v)) => v,
            (None, None) => match ret.ty {
                Some(Ty::Void) | None => Val::void(span),
                Some(t) => {
                    // Flowing off the end of a value-returning function (undefined in C++).
                    self.diags.push(
                        kiln_diagnostics::Diagnostic::warning(
                            codes::UNINITIALIZED_USE,
                            "a function that returns a value ends without `return`; kiln uses 0",
                        )
                        .at(span),
                    );
                    let zero = Val::konst(Konst::Int(0), Ty::INT, span);
                    if t.is_class() { Val::error(span) } else { self.convert_explicit(zero, &t, span) }
                }
            },
        }
    }

    /// Statements of a body whose last one is in tail position: a `return` there needs no jump,
    /// and neither does one at the end of a taken `if constexpr` branch or a nested block. The
    /// statements are written into the current block (every C name is unique, so the result
    /// may name the body's variables after it).
    fn tail_stmts(&mut self, stmts: &[ast::Stmt]) {
        self.push_scope();
        let n = stmts.len();
        for (i, s) in stmts.iter().enumerate() {
            if i + 1 < n {
                self.stmt(s);
                continue;
            }
            match &s.kind {
                StmtKind::Return(Some(rv)) if !self.fx.as_ref().is_some_and(|fx| fx.frame().ret.label_used) => {
                    let v = self.return_value(rv, s.span);
                    if let Some(fx) = self.fx.as_mut() {
                        fx.frame_mut().ret.final_val = Some(v);
                    }
                }
                StmtKind::Block(inner) => self.tail_stmts(inner),
                StmtKind::If { init: None, cond: ast::Cond::Expr(c), then, els, constexpr: true } => {
                    let ctx = self.ctx();
                    match self.const_eval(c, &ctx).and_then(|k| k.truthy()) {
                        Some(true) => self.tail_stmts(std::slice::from_ref(then)),
                        Some(false) => {
                            if let Some(e) = els {
                                self.tail_stmts(std::slice::from_ref(e));
                            }
                        }
                        None => self.err_not_constant("the condition of `if constexpr`", c.span),
                    }
                }
                _ => self.stmt(s),
            }
        }
        self.pop_scope();
    }

    /// The value of `return e;` converted to the function's return type (deducing it).
    fn return_value(&mut self, rv: &ast::ReturnValue, span: Span) -> Val {
        let declared = self.fx.as_ref().and_then(|fx| fx.frame().ret.ty.clone());
        let v = match rv {
            ast::ReturnValue::Expr(e) => match (&e.kind, &declared) {
                (ExprKind::Braced(None, elems), Some(t)) => self.braced(t.strip_ref(), elems, e.span),
                _ => self.expr(e),
            },
            ast::ReturnValue::Brace(elems, s) => match &declared {
                Some(t) => self.braced(t.strip_ref(), elems, *s),
                None => {
                    self.err(codes::CXX_UNSUPPORTED, "a braced `return` needs a declared return type", *s);
                    Val::error(*s)
                }
            },
        };
        if v.is_error() {
            return v;
        }
        match declared {
            Some(Ty::Ref(t, _)) => {
                if !v.lv {
                    self.err(codes::CXX_REFERENCE, "a reference cannot be returned to a temporary", span);
                    return Val::error(span);
                }
                let _ = t;
                v
            }
            Some(Ty::Void) => {
                if let Some(e) = v.c.clone() {
                    self.push_stmt_expr(e);
                }
                Val::void(span)
            }
            Some(t) => {
                let conv = self.convert_implicit(v, &t, span);
                let mut conv = conv;
                if conv.ty.is_class() {
                    conv.lv = false;
                }
                conv
            }
            None => {
                if let Some(fx) = self.fx.as_mut() {
                    let t = v.ty.decay(v.space);
                    fx.frame_mut().ret.ty = Some(t);
                }
                let mut v = v;
                if v.ty.is_class() {
                    v.lv = false;
                }
                v
            }
        }
    }

    fn return_stmt(&mut self, rv: Option<&ast::ReturnValue>, span: Span) {
        let Some(fx) = self.fx.as_ref() else { return };
        if fx.frame().ret.kernel {
            if let Some(rv) = rv {
                let v = self.return_value(rv, span);
                if !v.is_error() && v.ty != Ty::Void {
                    self.err(codes::BAD_RETURN, "a kernel returns no value", span);
                }
            }
            self.push_stmt(emit::stmt(c::StmtKind::Return(None), span));
            return;
        }
        let ret_ty = fx.frame().ret.ty.clone();
        let label = fx.frame().ret.label.clone();
        match rv {
            None => {}
            Some(rv) => {
                let v = self.return_value(rv, span);
                if !v.is_error() && !matches!(ret_ty, Some(Ty::Void)) && v.ty != Ty::Void {
                    let ty = self.fx.as_ref().and_then(|fx| fx.frame().ret.ty.clone()).unwrap_or(Ty::Error);
                    let name = match self.fx.as_ref().and_then(|fx| fx.frame().ret.result.clone()) {
                        Some(n) => n,
                        None => {
                            let n = self.fresh("result");
                            if let Some(fx) = self.fx.as_mut() {
                                fx.frame_mut().ret.result = Some(n.clone());
                                fx.names.insert(n.to_string());
                            }
                            n
                        }
                    };
                    let value = if matches!(ty, Ty::Ref(..)) {
                        let a = self.unary_on(ast::UnOp::AddrOf, v, span);
                        a.expr()
                    } else {
                        v.expr()
                    };
                    if !(matches!(&ty, Ty::Class(c) if !self.has_storage(*c))) {
                        self.push_stmt_expr(emit::assign(ident(&name, span), value, span));
                    }
                }
            }
        }
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().ret.label_used = true;
        }
        self.push_stmt(emit::stmt(c::StmtKind::Goto(label), span));
    }

    // ----- statements -----

    /// A statement as a C block of its own.
    fn stmt_block(&mut self, s: &ast::Stmt) -> c::Stmt {
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        self.push_scope();
        match &s.kind {
            StmtKind::Block(v) => {
                for x in v {
                    self.stmt(x);
                }
            }
            _ => self.stmt(s),
        }
        self.pop_scope();
        let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        emit::stmt(c::StmtKind::Compound(items), s.span)
    }

    pub fn stmt(&mut self, s: &ast::Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::Block(_) => {
                let b = self.stmt_block(s);
                self.push_stmt(b);
            }
            StmtKind::Expr(e) => {
                let v = self.expr(e);
                // A value computed for nothing (`x;`, the reference `operator+=` returns) is not
                // written.
                if !v.is_error()
                    && let Some(c) = v.c
                    && emit::has_effects(&c)
                {
                    self.push_stmt_expr(c);
                }
            }
            StmtKind::Empty => {}
            StmtKind::Decl(vars) => {
                for v in vars {
                    self.declare_var(v);
                }
            }
            StmtKind::LocalClass(cd) => {
                let ctx = self.ctx();
                let name = cd.name.as_ref().map(|q| q.last().name.to_string()).unwrap_or_else(|| "<anonymous>".into());
                let id = self.new_class(name.clone(), cd.key, ctx.clone(), cd.span);
                let inner = Ctx { ns: ctx.ns, class: Some(id), env: ctx.env.clone() };
                self.classes[id.0 as usize].ctx = inner.clone();
                if let Some(outer) = ctx.class {
                    self.outer_of.insert(id, outer);
                }
                self.bind_local(name.as_str().into(), Local::Ent(Ent::Type(Ty::Class(id))));
                if cd.members.is_some() {
                    self.define_class(id, cd, &inner);
                }
            }
            StmtKind::LocalEnum(ed) => {
                // Registered where the frame's context can find its enumerators.
                let ctx = self.ctx();
                let before = self.enums.len();
                let scope = super::Scope::Ns(ctx.ns);
                let dummy_ns = super::NsId(self.nss.len() as u32);
                self.nss.push(super::Namespace {
                    name: "".into(),
                    parent: Some(ctx.ns),
                    members: HashMap::new(),
                    using: vec![],
                });
                self.enum_def(ed, &ctx, super::Scope::Ns(dummy_ns));
                let _ = scope;
                let members: Vec<(ast::Name, Ent)> =
                    self.nss[dummy_ns.0 as usize].members.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                for (n, e) in members {
                    self.bind_local(n, Local::Ent(e));
                }
                let _ = before;
            }
            StmtKind::LocalAlias { name, ty } => {
                let ctx = self.ctx();
                let t = self.resolve_type(ty, &ctx);
                self.bind_local(name.clone(), Local::Ent(Ent::Type(t)));
            }
            StmtKind::UsingNamespace(q) => {
                let ctx = self.ctx();
                match self.lookup_qual(q, &ctx) {
                    Some(Ent::Ns(ns)) => {
                        // Local using-directives: the namespace's names become locals.
                        let members: Vec<(ast::Name, Ent)> =
                            self.nss[ns.0 as usize].members.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                        for (n, e) in members {
                            self.bind_local(n, Local::Ent(e));
                        }
                    }
                    _ => self.err(codes::CXX_NOT_A_TYPE, format!("`{}` is not a namespace", q.spelled()), span),
                }
            }
            StmtKind::StructuredBinding { names, by_ref, init } => self.structured_binding(names, *by_ref, init, span),
            StmtKind::UsingDecl(q) => {
                let ctx = self.ctx();
                match self.lookup_qual(q, &ctx) {
                    Some(e) => self.bind_local(q.last().name.clone(), Local::Ent(e)),
                    None => self.err(codes::UNDECLARED, format!("no declaration of `{}`", q.spelled()), span),
                }
            }
            StmtKind::StaticAssert(sa) => {
                let ctx = self.ctx();
                self.static_assert(sa, &ctx);
            }
            StmtKind::If { init, cond, then, els, constexpr } => {
                self.if_stmt(init.as_deref(), cond, then, els.as_deref(), *constexpr, span)
            }
            StmtKind::While { cond, body, annots } => self.while_stmt(cond, body, annots, span),
            StmtKind::DoWhile { body, cond, annots } => self.do_stmt(body, cond, annots, span),
            StmtKind::For { init, cond, step, body, annots } => {
                self.for_stmt(init, cond.as_ref(), step.as_ref(), body, annots, span)
            }
            StmtKind::RangeFor { var, range, body, annots } => self.range_for(var, range, body, annots, span),
            StmtKind::Switch { init, cond, body } => {
                self.push_scope();
                if let Some(fx) = self.fx.as_mut() {
                    fx.blocks.push(Vec::new());
                }
                if let Some(i) = init {
                    self.stmt(i);
                }
                let v = self.expr(cond);
                let v = match v.ty.clone() {
                    Ty::Enum(e) => Val { ty: Ty::Scalar(self.enums[e.0 as usize].scalar), ..v },
                    Ty::Class(_) => self.convert_implicit(v, &Ty::INT, span),
                    _ => v,
                };
                let b = self.stmt_block(body);
                self.push_stmt(emit::stmt(c::StmtKind::Switch(v.expr(), Box::new(b)), span));
                let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
                self.pop_scope();
                self.push_stmt(emit::stmt(c::StmtKind::Compound(items), span));
            }
            StmtKind::Case(v, body) => {
                let ctx = self.ctx();
                let k = self.const_eval_typed(v, &ctx);
                let Some((k, t)) = k else {
                    self.err_not_constant("a `case` value", v.span);
                    return;
                };
                let t = match t {
                    Ty::Enum(e) => Ty::Scalar(self.enums[e.0 as usize].scalar),
                    t => t,
                };
                let e = emit::konst_expr(&k, &t, v.span).unwrap_or_else(|| ident("0", v.span));
                let inner = self.single_stmt(body);
                self.push_stmt(emit::stmt(c::StmtKind::Case(e, Box::new(inner)), span));
            }
            StmtKind::Default(body) => {
                let inner = self.single_stmt(body);
                self.push_stmt(emit::stmt(c::StmtKind::Default(Box::new(inner)), span));
            }
            StmtKind::Break => self.push_stmt(emit::stmt(c::StmtKind::Break, span)),
            StmtKind::Continue => {
                let cont = self.fx.as_ref().and_then(|fx| fx.frame().continues.last().cloned()).flatten();
                match cont {
                    Some(l) => {
                        if let Some(fx) = self.fx.as_mut() {
                            fx.continues_used.insert(l.to_string());
                        }
                        self.push_stmt(emit::stmt(c::StmtKind::Goto(l), span))
                    }
                    None => self.push_stmt(emit::stmt(c::StmtKind::Continue, span)),
                }
            }
            StmtKind::Return(rv) => self.return_stmt(rv.as_ref(), span),
            StmtKind::Goto(l) => {
                let cl = self.frame_label(l);
                self.push_stmt(emit::stmt(c::StmtKind::Goto(cl), span));
            }
            StmtKind::Label(l, inner) => {
                let cl = self.frame_label(l);
                let inner = self.single_stmt(inner);
                self.push_stmt(emit::stmt(c::StmtKind::Labeled(cl, Box::new(inner)), span));
            }
            StmtKind::Pragma(p) => self.push_item(c::BlockItem::Pragma(p.clone())),
        }
    }

    /// `auto [a, b] = e;`: the names bound to the members (or elements) of a copy of `e`, or of
    /// `e` itself for `auto &`.
    fn structured_binding(&mut self, names: &[(ast::Name, Span)], by_ref: bool, init: &ast::Init, span: Span) {
        let v = match init {
            ast::Init::Assign(e) => self.expr(e),
            ast::Init::Paren(a, _) if a.len() == 1 => self.expr(&a[0]),
            ast::Init::Brace(elems, _) if elems.len() == 1 => match &elems[0].value {
                ast::InitValue::Expr(e) => self.expr(e),
                ast::InitValue::Brace(_, s) => Val::error(*s),
            },
            _ => {
                self.err(codes::BAD_INITIALIZER, "a structured binding takes one initializer", init.span());
                Val::error(span)
            }
        };
        if v.is_error() {
            for (n, _) in names {
                self.bind_local(n.clone(), Local::Var(Val::error(span)));
            }
            return;
        }
        let obj = if by_ref {
            if !v.lv {
                self.err(codes::CXX_REFERENCE, "`auto &[...]` needs an l-value", span);
                return;
            }
            self.stabilize(v, span)
        } else if !v.lv && v.c.as_ref().is_some_and(|x| matches!(x.kind, c::ExprKind::Ident(_))) {
            Val { lv: true, ..v }
        } else {
            self.materialize(v, span)
        };
        let parts: Vec<Val> = match obj.ty.clone() {
            Ty::Class(c) => {
                let fields: Vec<ast::Name> = self.classes[c.0 as usize].fields.iter().map(|f| f.name.clone()).collect();
                fields.iter().map(|f| self.field_access(&obj, c, f, span)).collect()
            }
            Ty::Array(e, Some(n)) => (0..n)
                .map(|i| Val {
                    c: obj.c.clone().map(|x| emit::index(x, emit::int_lit(i128::from(i), &Ty::INT, span), span)),
                    ty: (*e).clone(),
                    ..obj.clone()
                })
                .collect(),
            t => {
                self.err(
                    codes::TYPE_MISMATCH,
                    format!("a value of type `{}` cannot be decomposed", self.display_ty(&t)),
                    span,
                );
                return;
            }
        };
        if parts.len() != names.len() {
            self.err(codes::BAD_INITIALIZER, format!("{} names bind {} members", names.len(), parts.len()), span);
            return;
        }
        for ((n, _), p) in names.iter().zip(parts) {
            self.bind_local(n.clone(), Local::Var(p));
        }
    }

    /// The C label for a source label of the current frame (unique in the kernel).
    fn frame_label(&mut self, l: &ast::Name) -> ast::Name {
        if let Some(x) = self.fx.as_ref().and_then(|fx| fx.frame().labels.get(l).cloned()) {
            return x;
        }
        let kernel = self.fx.as_ref().is_some_and(|fx| fx.frames.len() == 1);
        let n: ast::Name = if kernel { l.clone() } else { self.fresh(l) };
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().labels.insert(l.clone(), n.clone());
        }
        n
    }

    /// A statement written as one C statement (a block when it needs several).
    fn single_stmt(&mut self, s: &ast::Stmt) -> c::Stmt {
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        self.stmt(s);
        let mut items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        if items.len() == 1
            && let Some(c::BlockItem::Stmt(_)) = items.first()
            && let Some(c::BlockItem::Stmt(st)) = items.pop()
        {
            return st;
        }
        emit::stmt(c::StmtKind::Compound(items), s.span)
    }

    fn if_stmt(
        &mut self,
        init: Option<&ast::Stmt>,
        cond: &ast::Cond,
        then: &ast::Stmt,
        els: Option<&ast::Stmt>,
        constexpr: bool,
        span: Span,
    ) {
        self.push_scope();
        let wrap = init.is_some() || matches!(cond, ast::Cond::Decl(_));
        if wrap && let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        if let Some(i) = init {
            self.stmt(i);
        }
        let cv = self.condition(cond);
        if constexpr {
            match cv.k.as_ref().and_then(Konst::truthy) {
                Some(true) => {
                    let b = self.stmt_block(then);
                    self.push_stmt(b);
                }
                Some(false) => {
                    if let Some(e) = els {
                        let b = self.stmt_block(e);
                        self.push_stmt(b);
                    }
                }
                None => self.err_not_constant("the condition of `if constexpr`", cond.span()),
            }
        } else if !cv.is_error() {
            let t = self.stmt_block(then);
            let e = els.map(|e| Box::new(self.stmt_block(e)));
            self.push_stmt(emit::stmt(c::StmtKind::If(cv.expr(), Box::new(t), e), span));
        }
        if wrap {
            let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
            self.push_stmt(emit::stmt(c::StmtKind::Compound(items), span));
        }
        self.pop_scope();
    }

    /// A condition: an expression, or a declaration whose variable is tested.
    fn condition(&mut self, cond: &ast::Cond) -> Val {
        match cond {
            ast::Cond::Expr(e) => {
                let v = self.expr(e);
                self.to_bool(v, e.span)
            }
            ast::Cond::Decl(d) => {
                self.declare_var(d);
                let q = ast::QualName::simple(d.name.clone(), d.name_span);
                let v = self.name_expr(&q, d.span);
                self.to_bool(v, d.span)
            }
        }
    }

    /// Loop pragmas and attributes as OpenCL C's loop annotations.
    fn loop_attrs(&mut self, annots: &ast::LoopAnnots) -> c::LoopAttrs {
        let ctx = self.ctx();
        let mut attrs = Vec::new();
        for a in &annots.attrs {
            let name: ast::Name = match (a.scope.as_deref(), &*a.name) {
                (Some("cl"), "unroll_hint") => "opencl_unroll_hint".into(),
                (Some("cl"), "ivdep") => "ivdep".into(),
                (Some(_), _) => continue,
                (None, n) => n.into(),
            };
            let mut args = Vec::new();
            for x in &a.args {
                args.push(self.c_attr_arg(x, &ctx));
            }
            // `[[cl::unroll_hint(-1)]]` and `[[cl::ivdep(-1)]]` are the spec's negative tests.
            attrs.push(c::Attribute { name, args, span: a.span });
        }
        let (la, diags) = kiln_frontend::parse::loop_attrs(&annots.pragmas, attrs, self.opts.std);
        self.diags.extend(diags);
        la
    }

    fn while_stmt(&mut self, cond: &ast::Cond, body: &ast::Stmt, annots: &ast::LoopAnnots, span: Span) {
        let la = self.loop_attrs(annots);
        self.push_scope();
        let mark = self.mark();
        let cv = self.condition(cond);
        let pre = self.take_since(mark);
        if cv.is_error() {
            self.pop_scope();
            return;
        }
        if pre.is_empty() {
            let (b, _) = self.with_continue(None, |s| s.stmt_block(body));
            self.push_stmt(emit::stmt(c::StmtKind::While(cv.expr(), Box::new(b), la), span));
        } else {
            // while (1) { pre; if (!cond) break; body }
            let (b, _) = self.with_continue(None, |s| s.stmt_block(body));
            let mut items = pre;
            items.push(c::BlockItem::Stmt(break_unless(cv.expr(), span)));
            items.push(c::BlockItem::Stmt(b));
            let one = cx(c::ExprKind::Int("1".into()), span);
            self.push_stmt(emit::stmt(
                c::StmtKind::While(one, Box::new(emit::stmt(c::StmtKind::Compound(items), span)), la),
                span,
            ));
        }
        self.pop_scope();
    }

    fn do_stmt(&mut self, body: &ast::Stmt, cond: &ast::Expr, annots: &ast::LoopAnnots, span: Span) {
        let la = self.loop_attrs(annots);
        // The condition is elaborated after the body (its inlined calls run each iteration).
        let cont = self.fresh("next");
        let (b, used) = self.with_continue(Some(&cont), |s| s.stmt_block(body));
        let mark = self.mark();
        let cv = self.expr(cond);
        let cv = self.to_bool(cv, span);
        let pre = self.take_since(mark);
        if pre.is_empty() && !used {
            self.push_stmt(emit::stmt(c::StmtKind::DoWhile(Box::new(b), cv.expr(), la), span));
            return;
        }
        let mut items = vec![c::BlockItem::Stmt(b)];
        if used {
            items.push(c::BlockItem::Stmt(emit::stmt(
                c::StmtKind::Labeled(cont, Box::new(emit::stmt(c::StmtKind::Expr(None), span))),
                span,
            )));
        }
        items.extend(pre);
        items.push(c::BlockItem::Stmt(break_unless(cv.expr(), span)));
        let one = cx(c::ExprKind::Int("1".into()), span);
        self.push_stmt(emit::stmt(
            c::StmtKind::While(one, Box::new(emit::stmt(c::StmtKind::Compound(items), span)), la),
            span,
        ));
    }

    /// Runs `f` (a loop body) with `continue` written as `goto label` (`None`: as `continue`);
    /// says whether a `goto` was written.
    fn with_continue<T>(&mut self, label: Option<&ast::Name>, f: impl FnOnce(&mut Self) -> T) -> (T, bool) {
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().continues.push(label.cloned());
        }
        let r = f(self);
        let used = match (self.fx.as_mut(), label) {
            (Some(fx), Some(l)) => fx.continues_used.remove(&**l),
            _ => false,
        };
        if let Some(fx) = self.fx.as_mut() {
            fx.frame_mut().continues.pop();
        }
        (r, used)
    }

    fn for_stmt(
        &mut self,
        init: &ast::ForInit,
        cond: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        annots: &ast::LoopAnnots,
        span: Span,
    ) {
        let la = self.loop_attrs(annots);
        self.push_scope();
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        // The initialization: declarations or an expression, written before the loop.
        match init {
            ast::ForInit::None => {}
            ast::ForInit::Expr(e) => {
                let v = self.expr(e);
                if let Some(c) = v.c {
                    self.push_stmt_expr(c);
                }
            }
            ast::ForInit::Decl(vars) => {
                for v in vars {
                    self.declare_var(v);
                }
            }
        }
        let init_items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        let mark = self.mark();
        let cv = match cond {
            Some(c) => {
                let v = self.expr(c);
                Some(self.to_bool(v, c.span))
            }
            None => None,
        };
        let cpre = self.take_since(mark);
        // The step is elaborated into its own list (its inlined calls run each iteration).
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        let sv = step.map(|s| self.expr(s));
        let spre = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        let simple = cpre.is_empty() && spre.is_empty();
        let cont = self.fresh("next");
        let (b, used) = self.with_continue(if simple { None } else { Some(&cont) }, |s| s.stmt_block(body));
        // A `for` whose initialization is plain declarations keeps them in the header.
        let header_decl = match init_items.as_slice() {
            [c::BlockItem::Decl(d)] if simple => Some(d.clone()),
            _ => None,
        };
        let mut out = Vec::new();
        if header_decl.is_none() {
            out.extend(init_items);
        }
        if simple {
            let finit = match header_decl {
                Some(d) => c::ForInit::Decl(d),
                None => c::ForInit::None,
            };
            let stepc = sv.and_then(|v| v.c);
            out.push(c::BlockItem::Stmt(emit::stmt(
                c::StmtKind::For(finit, cv.map(|v| v.expr()), stepc, Box::new(b), la),
                span,
            )));
        } else {
            let mut items = cpre;
            if let Some(cv) = cv {
                items.push(c::BlockItem::Stmt(break_unless(cv.expr(), span)));
            }
            items.push(c::BlockItem::Stmt(b));
            if used {
                items.push(c::BlockItem::Stmt(emit::stmt(
                    c::StmtKind::Labeled(cont, Box::new(emit::stmt(c::StmtKind::Expr(None), span))),
                    span,
                )));
            }
            items.extend(spre);
            if let Some(s) = sv.and_then(|v| v.c) {
                items.push(emit::stmt_expr(s));
            }
            let one = cx(c::ExprKind::Int("1".into()), span);
            out.push(c::BlockItem::Stmt(emit::stmt(
                c::StmtKind::While(one, Box::new(emit::stmt(c::StmtKind::Compound(items), span)), la),
                span,
            )));
        }
        self.pop_scope();
        if out.len() == 1
            && let Some(c::BlockItem::Stmt(s)) = out.pop()
        {
            self.push_stmt(s);
        } else {
            self.push_stmt(emit::stmt(c::StmtKind::Compound(out), span));
        }
    }

    /// `for (decl : range)` over an array or an object with `begin()` and `end()`.
    fn range_for(
        &mut self,
        var: &ast::VarDecl,
        range: &ast::Expr,
        body: &ast::Stmt,
        annots: &ast::LoopAnnots,
        span: Span,
    ) {
        let la = self.loop_attrs(annots);
        self.push_scope();
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        let r = self.expr(range);
        let r = if r.lv { self.stabilize(r, span) } else { self.materialize(r, span) };
        let by_ref = matches!(var.ty.kind, ast::TypeKind::Ref(..));
        let mut out_loop = None;
        match r.ty.clone() {
            Ty::Array(elem, Some(n)) => {
                let slot = IndexedSlot { base: r.expr(), elem: (*elem).clone(), space: r.space, is_const: r.is_const };
                out_loop = Some(self.index_loop(var, slot, i128::from(n), body, la, span));
            }
            Ty::Class(_) => {
                let part = |n: &str| ast::NamePart { name: n.into(), targs: None, span };
                let b0 = self.method_call(r.clone(), &part("begin"), vec![], span);
                let e0 = self.method_call(r.clone(), &part("end"), vec![], span);
                if b0.is_error() || e0.is_error() {
                    self.pop_scope();
                    let _ = self.fx.as_mut().and_then(|fx| fx.blocks.pop());
                    return;
                }
                // `begin()` and `end()` of an array member (`cl::array`): an index loop over the
                // array, which OpenCL C's loop passes count and unroll like any other.
                if let Some((base, n)) = array_range(&b0, &e0) {
                    let elem = match &b0.ty {
                        Ty::Ptr(e, _, _) => (**e).clone(),
                        _ => Ty::Error,
                    };
                    let slot = IndexedSlot { base, elem, space: b0.space, is_const: r.is_const };
                    let lp = self.index_loop(var, slot, n, body, la, span);
                    self.push_stmt(lp);
                    let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
                    self.pop_scope();
                    self.push_stmt(emit::stmt(c::StmtKind::Compound(items), span));
                    return;
                }
                let it = self.materialize(b0, span);
                let end = self.materialize(e0, span);
                let mark = self.mark();
                let cond = self.binary_on(c::BinOp::Ne, it.clone(), end, span);
                let cond = self.to_bool(cond, span);
                let cpre = self.take_since(mark);
                let element = self.unary_on(ast::UnOp::Deref, it.clone(), span);
                let element =
                    if it.ty.is_class() { self.operator_call("operator*", it.clone(), vec![], span) } else { element };
                let simple_step = !it.ty.is_class() && cpre.is_empty();
                let cont = self.fresh("next");
                let (b, used) = self.with_continue(if simple_step { None } else { Some(&cont) }, |s| {
                    s.range_body(var, element, body, span)
                });
                if let Some(fx) = self.fx.as_mut() {
                    fx.blocks.push(Vec::new());
                }
                let stepv = if it.ty.is_class() {
                    self.operator_call("operator++", it.clone(), vec![], span)
                } else {
                    self.unary_on(ast::UnOp::PreInc, it.clone(), span)
                };
                let mut spre = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
                if it.ty.is_class() {
                    // The step's value is unused.
                } else if let Some(c) = stepv.c.clone() {
                    spre.push(emit::stmt_expr(c));
                }
                if cpre.is_empty() && spre.len() == 1 && !it.ty.is_class() {
                    out_loop = Some(emit::stmt(
                        c::StmtKind::For(c::ForInit::None, Some(cond.expr()), stepv.c, Box::new(b), la),
                        span,
                    ));
                } else {
                    let mut items = cpre;
                    items.push(c::BlockItem::Stmt(break_unless(cond.expr(), span)));
                    items.push(c::BlockItem::Stmt(b));
                    if used {
                        items.push(c::BlockItem::Stmt(emit::stmt(
                            c::StmtKind::Labeled(cont, Box::new(emit::stmt(c::StmtKind::Expr(None), span))),
                            span,
                        )));
                    }
                    items.extend(spre);
                    let one = cx(c::ExprKind::Int("1".into()), span);
                    out_loop = Some(emit::stmt(
                        c::StmtKind::While(one, Box::new(emit::stmt(c::StmtKind::Compound(items), span)), la),
                        span,
                    ));
                }
            }
            Ty::Error => {}
            t => self.err(
                codes::TYPE_MISMATCH,
                format!("cannot iterate over a value of type `{}`", self.display_ty(&t)),
                range.span,
            ),
        }
        let _ = by_ref;
        if let Some(l) = out_loop {
            self.push_stmt(l);
        }
        let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        self.pop_scope();
        self.push_stmt(emit::stmt(c::StmtKind::Compound(items), span));
    }

    /// A range-`for`'s body with its variable bound to the element.
    /// `for (int i = 0; i < n; ++i) body` with the range variable bound to `base[i]`: a range
    /// over an array, which OpenCL C's loop passes count and unroll like any other loop.
    fn index_loop(
        &mut self,
        var: &ast::VarDecl,
        slot: IndexedSlot,
        n: i128,
        body: &ast::Stmt,
        la: c::LoopAttrs,
        span: Span,
    ) -> c::Stmt {
        let i = self.var_name("i");
        let iv = Val::lval(ident(&i, span), Ty::INT, AddrSpace::Private, span);
        let element = Val {
            c: Some(emit::index(slot.base, iv.expr(), span)),
            ty: slot.elem,
            lv: true,
            space: slot.space,
            k: None,
            is_const: slot.is_const,
            span,
        };
        let (b, _) = self.with_continue(None, |s| s.range_body(var, element, body, span));
        let zero = emit::int_lit(0, &Ty::INT, span);
        let d = self.c_declaration(&i, &Ty::INT, None, Some(c::Initializer::Expr(zero)), span, &[], &self.ctx());
        let bound = emit::int_lit(n, &Ty::INT, span);
        let cond = cx(c::ExprKind::Binary(c::BinOp::Lt, Box::new(iv.expr()), Box::new(bound)), span);
        let step = cx(c::ExprKind::Unary(c::UnOp::PreInc, Box::new(iv.expr())), span);
        emit::stmt(c::StmtKind::For(c::ForInit::Decl(d), Some(cond), Some(step), Box::new(b), la), span)
    }

    fn range_body(&mut self, var: &ast::VarDecl, element: Val, body: &ast::Stmt, span: Span) -> c::Stmt {
        if let Some(fx) = self.fx.as_mut() {
            fx.blocks.push(Vec::new());
        }
        self.push_scope();
        let by_ref = matches!(var.ty.kind, ast::TypeKind::Ref(..));
        if by_ref {
            let mut e = element;
            e.is_const |= super::type_is_const(&var.ty);
            self.bind_local(var.name.clone(), Local::Var(e));
        } else {
            let d = ast::VarDecl { init: None, ..var.clone() };
            self.declare_from_val(&d, element, span);
        }
        match &body.kind {
            StmtKind::Block(v) => {
                for x in v {
                    self.stmt(x);
                }
            }
            _ => self.stmt(body),
        }
        self.pop_scope();
        let items = self.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
        emit::stmt(c::StmtKind::Compound(items), body.span)
    }

    /// A declaration whose initial value is already elaborated (a range-`for`'s variable).
    fn declare_from_val(&mut self, d: &ast::VarDecl, v: Val, span: Span) {
        let ctx = self.ctx();
        let ty = if is_auto(&d.ty) { v.ty.decay(v.space) } else { self.resolve_type(&d.ty, &ctx) };
        let name = self.var_name(&d.name);
        if let Ty::Class(c) = &ty {
            if !self.has_storage(*c) {
                self.bind_local(d.name.clone(), Local::Var(Val { lv: true, ..v }));
                return;
            }
            self.emit_class(*c);
        }
        let v = self.convert_implicit(v, &ty, span);
        self.push_decl(&name, &ty, Some(v.expr()), span);
        let mut var = Val::lval(ident(&name, span), ty, AddrSpace::Private, span);
        var.is_const = super::type_is_const(&d.ty);
        self.bind_local(d.name.clone(), Local::Var(var));
    }

    // ----- declarations -----

    pub fn declare_var(&mut self, d: &ast::VarDecl) {
        let span = d.span;
        let ctx = self.ctx();
        if d.flags.is_typedef {
            let t = self.resolve_type(&d.ty, &ctx);
            self.bind_local(d.name.clone(), Local::Ent(Ent::Type(t)));
            return;
        }
        // `auto`: the initializer's type.
        if is_auto_anywhere(&d.ty) {
            let Some(init) = &d.init else {
                self.err(
                    codes::BAD_INITIALIZER,
                    format!("`auto` variable `{}` needs an initializer", d.name),
                    d.name_span,
                );
                return;
            };
            let v = match init {
                ast::Init::Assign(e) => self.expr(e),
                ast::Init::Paren(args, _) if args.len() == 1 => self.expr(&args[0]),
                ast::Init::Brace(elems, _) if elems.len() == 1 => match &elems[0].value {
                    ast::InitValue::Expr(e) => self.expr(e),
                    ast::InitValue::Brace(_, s) => {
                        self.err(codes::BAD_INITIALIZER, "cannot deduce `auto` from a nested braced list", *s);
                        return;
                    }
                },
                _ => {
                    self.err(codes::BAD_INITIALIZER, "cannot deduce `auto` from this initializer", init.span());
                    return;
                }
            };
            if v.is_error() {
                self.bind_local(d.name.clone(), Local::Var(Val::error(span)));
                return;
            }
            if let ast::TypeKind::Ref(inner, _) = &d.ty.kind {
                let is_const = super::type_is_const(inner);
                if !v.lv && !is_const {
                    self.err(codes::CXX_REFERENCE, "a non-const reference cannot bind to a temporary", d.span);
                    return;
                }
                let mut v = if v.lv { self.stabilize(v, span) } else { self.materialize(v, span) };
                v.is_const |= is_const;
                self.bind_local(d.name.clone(), Local::Var(v));
                return;
            }
            if let ast::TypeKind::Pointer(_) = &d.ty.kind {
                // `auto *p = ...`
            }
            let is_const = super::type_is_const(&d.ty) || d.flags.is_constexpr;
            self.bind_value(d, v, is_const, span);
            return;
        }
        let ty = self.resolve_type(&d.ty, &ctx);
        if ty.is_error() {
            self.bind_local(d.name.clone(), Local::Var(Val::error(span)));
            return;
        }
        let (space, ty) = self.storage_of(&ty, &d.ty);
        if let Ty::Ref(t, is_const) = &ty {
            let Some(init) = &d.init else {
                self.err(codes::CXX_REFERENCE, format!("reference `{}` needs an initializer", d.name), d.name_span);
                return;
            };
            let v = match init {
                ast::Init::Assign(e) => self.expr(e),
                ast::Init::Paren(a, _) if a.len() == 1 => self.expr(&a[0]),
                ast::Init::Brace(elems, s) => self.braced(t, elems, *s),
                _ => {
                    self.err(codes::BAD_INITIALIZER, "a reference takes one initializer", init.span());
                    return;
                }
            };
            if v.is_error() {
                self.bind_local(d.name.clone(), Local::Var(v));
                return;
            }
            let local = self.bind_param(&d.name, &ty, Arg::Val(v), true, false, span);
            if let Local::Var(mut v) = local {
                v.is_const |= *is_const;
                self.bind_local(d.name.clone(), Local::Var(v));
            }
            return;
        }
        // A pipe variable (`cl::pipe<int, write> p(storage);`) is the pipe it is initialized from.
        if let Ty::Pipe(..) = ty {
            let v = match &d.init {
                Some(ast::Init::Paren(a, _)) if a.len() == 1 => self.expr(&a[0]),
                Some(ast::Init::Assign(e)) => self.expr(e),
                Some(ast::Init::Brace(elems, _)) if elems.len() == 1 => match &elems[0].value {
                    ast::InitValue::Expr(e) => self.expr(e),
                    ast::InitValue::Brace(_, s) => Val::error(*s),
                },
                _ => {
                    self.err(
                        codes::PIPE_RULE,
                        format!(
                            "pipe `{}` must be initialized from a pipe (a `pipe_storage` or a pipe parameter)",
                            d.name
                        ),
                        d.name_span,
                    );
                    Val::error(span)
                }
            };
            if !v.is_error() && !matches!(v.ty, Ty::Pipe(..)) {
                self.err(codes::PIPE_RULE, format!("pipe `{}` must be initialized from a pipe", d.name), d.name_span);
            }
            // The end the declaration names (a program-scope pipe has both).
            let v = if v.is_error() { v } else { Val { ty: ty.clone(), ..v } };
            self.bind_local(d.name.clone(), Local::Var(v));
            return;
        }
        let is_const = super::type_is_const(&d.ty) || d.flags.is_constexpr;
        // A constant of arithmetic type with a constant initializer is a compile-time value.
        if (d.flags.is_constexpr || is_const)
            && (ty.is_arith() || matches!(ty, Ty::Array(..) | Ty::Class(_)))
            && let Some(init) = &d.init
        {
            let k = if d.flags.is_constexpr || ty.is_arith() { self.const_init_quiet(init, &ty, &ctx) } else { None };
            if let Some(k) = k.clone()
                && ty.is_arith()
            {
                let v = Val::konst(k, ty.clone(), span);
                self.bind_local(d.name.clone(), Local::Var(v));
                return;
            }
            if d.flags.is_constexpr && k.is_none() && ty.is_arith() {
                self.err_not_constant(&format!("the initializer of `constexpr` variable `{}`", d.name), init.span());
                self.bind_local(d.name.clone(), Local::Var(Val::error(span)));
                return;
            }
            if let Some(k) = k {
                // A constant table: a `__constant` array or object of the kernel.
                let name = self.var_name(&d.name);
                let cinit = self.konst_initializer(&k, &ty, span);
                if let Some(cl) = super::elem_class(&ty) {
                    self.emit_class(cl);
                }
                let decl =
                    self.c_declaration(&name, &ty, Some(AddrSpace::Constant), Some(cinit), d.name_span, &d.attrs, &ctx);
                self.push_item(c::BlockItem::Decl(decl));
                let mut v = Val::lval(ident(&name, span), ty, AddrSpace::Constant, span);
                v.is_const = true;
                v.k = Some(k);
                self.bind_local(d.name.clone(), Local::Var(v));
                return;
            }
        }
        let name = self.var_name(&d.name);
        let var_space = space.unwrap_or(AddrSpace::Private);
        match &ty {
            Ty::Class(c) if !self.has_storage(*c) => {
                let v = Val::phantom(*c, span);
                self.init_object(v.clone(), &ty, d.init.as_ref(), span);
                self.bind_local(d.name.clone(), Local::Var(v));
                return;
            }
            _ => {}
        }
        if let Some(cl) = super::elem_class(&ty) {
            self.emit_class(cl);
            // `T x = f();`: the call's temporary becomes the variable.
            if let (Ty::Class(c), Some(ast::Init::Assign(e))) = (&ty, &d.init)
                && var_space == AddrSpace::Private
            {
                let mark = self.mark();
                let v = match &e.kind {
                    ExprKind::Braced(None, _) => None,
                    _ => Some(self.expr(e)),
                };
                if let Some(v) = v {
                    if v.is_error() {
                        self.bind_local(d.name.clone(), Local::Var(v));
                        return;
                    }
                    if v.ty == Ty::Class(*c)
                        && !v.lv
                        && v.c.as_ref().is_some_and(|x| matches!(x.kind, c::ExprKind::Ident(_)))
                    {
                        let mut v = v;
                        v.lv = true;
                        v.is_const = is_const;
                        self.bind_local(d.name.clone(), Local::Var(v));
                        return;
                    }
                    let decl = self.c_declaration(&name, &ty, None, None, d.name_span, &d.attrs, &ctx);
                    self.push_item(c::BlockItem::Decl(decl));
                    let target = Val::lval(ident(&name, span), ty.clone(), var_space, span);
                    if v.ty == Ty::Class(*c) {
                        if let Some(x) = v.c.clone() {
                            self.push_stmt_expr(emit::assign(ident(&name, span), x, span));
                        }
                    } else {
                        self.construct_into(*c, target.clone(), vec![Arg::Val(v)], span);
                    }
                    let mut target = target;
                    target.is_const = is_const;
                    self.bind_local(d.name.clone(), Local::Var(target));
                    return;
                }
                let _ = mark;
            }
            // `T x{};` of a plain aggregate: C's zero initializer.
            if let Some(ast::Init::Brace(elems, _)) = &d.init
                && elems.is_empty()
                && var_space == AddrSpace::Private
                && let Some(zero) = self.zero_initializer(&ty, span)
            {
                let decl = self.c_declaration(&name, &ty, space, Some(zero), d.name_span, &d.attrs, &ctx);
                self.push_item(c::BlockItem::Decl(decl));
                let mut target = Val::lval(ident(&name, span), ty.clone(), var_space, span);
                target.is_const = is_const;
                self.bind_local(d.name.clone(), Local::Var(target));
                return;
            }
            let decl = self.c_declaration(&name, &ty, space, None, d.name_span, &d.attrs, &ctx);
            self.push_item(c::BlockItem::Decl(decl));
            let mut target = Val::lval(ident(&name, span), ty.clone(), var_space, span);
            self.bind_local(d.name.clone(), Local::Var(target.clone()));
            match (&ty, &d.init) {
                (Ty::Array(e, Some(n)), None) if elem_needs_init(self, e) => {
                    let Some(cl) = super::elem_class(e) else { return };
                    for i in 0..*n {
                        let el = Val {
                            c: Some(emit::index(
                                ident(&name, span),
                                emit::int_lit(i128::from(i), &Ty::INT, span),
                                span,
                            )),
                            ty: (**e).clone(),
                            ..target.clone()
                        };
                        self.default_init(cl, el, span);
                    }
                }
                _ => self.init_object(target.clone(), &ty, d.init.as_ref(), span),
            }
            target.is_const = is_const;
            self.bind_local(d.name.clone(), Local::Var(target));
            return;
        }
        // A built-in type: a C declaration with its initializer.
        let init = match &d.init {
            None => None,
            Some(ast::Init::Assign(e)) => match &e.kind {
                ExprKind::Braced(None, elems) => Some(self.initializer_list(&ty, elems, e.span)),
                _ => {
                    let v = self.expr(e);
                    if v.is_error() {
                        None
                    } else {
                        let v = if v.ty.is_class() { self.convert_implicit(v, &ty, span) } else { v };
                        Some(c::Initializer::Expr(v.expr()))
                    }
                }
            },
            Some(ast::Init::Paren(args, s)) => match args.as_slice() {
                [a] => {
                    let v = self.expr(a);
                    let v = if v.ty.is_class() { self.convert_implicit(v, &ty, span) } else { v };
                    (!v.is_error()).then(|| c::Initializer::Expr(v.expr()))
                }
                [] => None,
                _ => {
                    self.err(codes::BAD_INITIALIZER, "too many initializers", *s);
                    None
                }
            },
            Some(ast::Init::Brace(elems, s)) => match &ty {
                Ty::Array(..) => Some(self.initializer_list(&ty, elems, *s)),
                Ty::Vector(..) => {
                    let v = self.braced(&ty, elems, *s);
                    (!v.is_error()).then(|| c::Initializer::Expr(v.expr()))
                }
                _ => match elems.as_slice() {
                    [] => Some(c::Initializer::Expr(emit::int_lit(0, &Ty::INT, *s))),
                    [ast::InitElem { value: ast::InitValue::Expr(x), .. }] => {
                        let v = self.expr(x);
                        (!v.is_error()).then(|| c::Initializer::Expr(v.expr()))
                    }
                    _ => {
                        self.err(codes::BAD_INITIALIZER, "too many initializers", *s);
                        None
                    }
                },
            },
        };
        let mut decl = self.c_declaration(&name, &ty, space, init, d.name_span, &d.attrs, &ctx);
        decl.specs.quals.is_const |= is_const && space.is_none();
        if d.flags.is_static {
            decl.specs.storage = Some((c::StorageClass::Static, span));
        }
        self.push_item(c::BlockItem::Decl(decl));
        let mut v = Val::lval(ident(&name, span), ty, var_space, span);
        v.is_const = is_const;
        self.bind_local(d.name.clone(), Local::Var(v));
    }

    /// `auto x = v;` (or `const auto`): a new variable, or the temporary itself.
    fn bind_value(&mut self, d: &ast::VarDecl, v: Val, is_const: bool, span: Span) {
        let ty = v.ty.decay(v.space);
        if is_const && let Some(k) = v.k.clone().filter(|_| ty.is_arith()) {
            self.bind_local(d.name.clone(), Local::Var(Val::konst(k, ty, span)));
            return;
        }
        if let Ty::Class(c) = &ty {
            if !self.has_storage(*c) {
                self.bind_local(d.name.clone(), Local::Var(Val { lv: true, is_const, ..v }));
                return;
            }
            if !v.lv && v.c.as_ref().is_some_and(|x| matches!(x.kind, c::ExprKind::Ident(_))) {
                self.bind_local(d.name.clone(), Local::Var(Val { lv: true, is_const, ..v }));
                return;
            }
            self.emit_class(*c);
        }
        let name = self.var_name(&d.name);
        let ctx = self.ctx();
        let mut decl =
            self.c_declaration(&name, &ty, None, Some(c::Initializer::Expr(v.expr())), d.name_span, &d.attrs, &ctx);
        decl.specs.quals.is_const |= is_const && !ty.is_class();
        self.push_item(c::BlockItem::Decl(decl));
        let mut var = Val::lval(ident(&name, span), ty, AddrSpace::Private, span);
        var.is_const = is_const;
        self.bind_local(d.name.clone(), Local::Var(var));
    }

    /// C's all-zero initializer (`{{{0}}}`, braced to the first scalar) for a type whose
    /// value-initialization is all zeros: no constructors and no default member initializers.
    pub fn zero_initializer(&self, ty: &Ty, span: Span) -> Option<c::Initializer> {
        Some(match ty {
            Ty::Scalar(_) | Ty::Enum(_) | Ty::Vector(..) | Ty::Ptr(..) => {
                c::Initializer::Expr(emit::int_lit(0, &Ty::INT, span))
            }
            Ty::Array(e, Some(_)) => c::Initializer::List(vec![(vec![], self.zero_initializer(e, span)?)], span),
            Ty::Class(cid) => {
                let cls = &self.classes[cid.0 as usize];
                if cls.has_user_ctor || cls.special.is_some() || cls.fields.iter().any(|f| f.init.is_some()) {
                    return None;
                }
                let first = match (cls.bases.first(), cls.fields.first()) {
                    (Some(b), _) => Ty::Class(*b),
                    (None, Some(f)) => f.ty.clone(),
                    (None, None) => return None,
                };
                c::Initializer::List(vec![(vec![], self.zero_initializer(&first, span)?)], span)
            }
            _ => return None,
        })
    }

    /// A C initializer list for an array (nested lists for nested arrays) or a scalar.
    pub fn initializer_list(&mut self, ty: &Ty, elems: &[ast::InitElem], span: Span) -> c::Initializer {
        let elem_ty = match ty {
            Ty::Array(e, _) => (**e).clone(),
            t => t.clone(),
        };
        let mut items = Vec::new();
        for el in elems {
            if let ast::InitValue::Expr(x) = &el.value
                && let ExprKind::PackExpansion(pattern) = &x.kind
            {
                for v in self.expand(pattern) {
                    let v = if v.ty.is_class() && !elem_ty.is_class() {
                        self.convert_implicit(v, &elem_ty, span)
                    } else {
                        v
                    };
                    items.push((vec![], c::Initializer::Expr(v.expr())));
                }
                continue;
            }
            let init = match &el.value {
                ast::InitValue::Expr(x) => {
                    let v = self.expr(x);
                    let v = if v.ty.is_class() && !elem_ty.is_class() {
                        self.convert_implicit(v, &elem_ty, span)
                    } else {
                        v
                    };
                    c::Initializer::Expr(v.expr())
                }
                ast::InitValue::Brace(b, s) => {
                    if let Ty::Vector(..) = elem_ty {
                        let v = self.braced(&elem_ty, b, *s);
                        c::Initializer::Expr(v.expr())
                    } else {
                        self.initializer_list(&elem_ty, b, *s)
                    }
                }
            };
            let desig = match &el.designator {
                Some((n, s)) => vec![c::Designator::Field(n.clone(), *s)],
                None => vec![],
            };
            items.push((desig, init));
        }
        c::Initializer::List(items, span)
    }

    /// A compile-time value as a C initializer of type `ty`.
    pub fn konst_initializer(&mut self, k: &Konst, ty: &Ty, span: Span) -> c::Initializer {
        match (k, ty) {
            (Konst::Aggregate(xs), Ty::Array(e, _)) => {
                c::Initializer::List(xs.iter().map(|x| (vec![], self.konst_initializer(x, e, span))).collect(), span)
            }
            (Konst::Aggregate(xs), Ty::Class(cid)) => {
                let mut tys: Vec<Ty> = self.classes[cid.0 as usize].bases.iter().map(|b| Ty::Class(*b)).collect();
                tys.extend(self.classes[cid.0 as usize].fields.iter().map(|f| f.ty.clone()));
                c::Initializer::List(
                    xs.iter().zip(tys).map(|(x, t)| (vec![], self.konst_initializer(x, &t, span))).collect(),
                    span,
                )
            }
            (Konst::Aggregate(xs), Ty::Vector(s, _)) => {
                let parts: Vec<c::Expr> =
                    xs.iter().filter_map(|x| emit::konst_expr(x, &Ty::Scalar(*s), span)).collect();
                let inner = cx(c::ExprKind::Paren(Box::new(cx(c::ExprKind::Comma(parts), span))), span);
                let tn = crate::ty::c_type_name(ty, self, span);
                c::Initializer::Expr(cx(c::ExprKind::Cast(Box::new(tn), Box::new(inner)), span))
            }
            (k, t) => {
                let t = match t {
                    Ty::Enum(e) => Ty::Scalar(self.enums[e.0 as usize].scalar),
                    t => t.clone(),
                };
                c::Initializer::Expr(emit::konst_expr(k, &t, span).unwrap_or_else(|| ident("0", span)))
            }
        }
    }
}

fn break_unless(cond: c::Expr, span: Span) -> c::Stmt {
    let not = cx(c::ExprKind::Unary(c::UnOp::Not, Box::new(emit::paren(cond))), span);
    emit::stmt(c::StmtKind::If(not, Box::new(emit::stmt(c::StmtKind::Break, span)), None), span)
}

fn elem_needs_init(e: &Elab, t: &Ty) -> bool {
    match super::elem_class(t) {
        Some(c) => {
            let cls = &e.classes[c.0 as usize];
            cls.has_user_ctor || cls.fields.iter().any(|f| f.init.is_some() || elem_needs_init(e, &f.ty))
        }
        None => false,
    }
}

pub fn is_auto(t: &ast::Type) -> bool {
    match &t.kind {
        ast::TypeKind::Auto => true,
        ast::TypeKind::Qualified { inner, .. } => is_auto(inner),
        _ => false,
    }
}

fn is_auto_anywhere(t: &ast::Type) -> bool {
    match &t.kind {
        ast::TypeKind::Auto => true,
        ast::TypeKind::Qualified { inner, .. } | ast::TypeKind::Ref(inner, _) => is_auto_anywhere(inner),
        _ => false,
    }
}

/// Names a body may change: assigned, incremented, address taken, or passed where a reference
/// might bind (a call argument, the object of a member call).
pub fn modified_names(body: &ast::Stmt) -> HashSet<ast::Name> {
    let mut out = HashSet::new();
    walk_stmt(body, &mut |e| {
        let root = |x: &ast::Expr| root_name(x);
        match &e.kind {
            ExprKind::Assign(_, l, _) => {
                if let Some(n) = root(l) {
                    out.insert(n);
                }
            }
            ExprKind::Unary(op, x)
                if matches!(
                    op,
                    ast::UnOp::PreInc | ast::UnOp::PreDec | ast::UnOp::PostInc | ast::UnOp::PostDec | ast::UnOp::AddrOf
                ) =>
            {
                if let Some(n) = root(x) {
                    out.insert(n);
                }
            }
            ExprKind::Call(f, args) => {
                for a in args {
                    if let Some(n) = root(a) {
                        out.insert(n);
                    }
                }
                if let ExprKind::Member(obj, _, _) = &f.kind
                    && let Some(n) = root(obj)
                {
                    out.insert(n);
                }
            }
            ExprKind::Binary(_, a, b) => {
                // Operators on class objects are calls.
                for x in [a, b] {
                    if let Some(n) = root(x) {
                        let _ = n;
                    }
                }
            }
            ExprKind::Lambda(l) => {
                for c in &l.captures {
                    match c {
                        ast::Capture::Name { name, by_ref: true, .. } => {
                            out.insert(name.clone());
                        }
                        ast::Capture::Default { by_ref: true } => {
                            out.extend(used_names(&l.body));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    });
    // A range-`for` by reference may change its range.
    walk_stmts(body, &mut |s| {
        if let StmtKind::RangeFor { range, .. } = &s.kind
            && let Some(n) = root_name(range)
        {
            out.insert(n);
        }
        if let StmtKind::Decl(vs) = &s.kind {
            for v in vs {
                if matches!(v.ty.kind, ast::TypeKind::Ref(..))
                    && let Some(ast::Init::Assign(e)) = &v.init
                    && let Some(n) = root_name(e)
                {
                    out.insert(n);
                }
            }
        }
    });
    out
}

/// Simple names an expression or body mentions.
pub fn used_names(body: &ast::Stmt) -> HashSet<ast::Name> {
    let mut out = HashSet::new();
    walk_stmt(body, &mut |e| {
        if let ExprKind::Name(q) = &e.kind
            && q.is_simple()
        {
            out.insert(q.parts[0].name.clone());
        }
    });
    out
}

fn root_name(e: &ast::Expr) -> Option<ast::Name> {
    match &e.kind {
        ExprKind::Name(q) if q.is_simple() => Some(q.parts[0].name.clone()),
        ExprKind::Paren(x) | ExprKind::Member(x, _, false) | ExprKind::Index(x, _) => root_name(x),
        ExprKind::Unary(ast::UnOp::Deref, x) => root_name(x),
        _ => None,
    }
}

fn walk_stmts(s: &ast::Stmt, f: &mut dyn FnMut(&ast::Stmt)) {
    f(s);
    match &s.kind {
        StmtKind::Block(v) => v.iter().for_each(|x| walk_stmts(x, f)),
        StmtKind::If { init, then, els, .. } => {
            if let Some(i) = init {
                walk_stmts(i, f);
            }
            walk_stmts(then, f);
            if let Some(e) = els {
                walk_stmts(e, f);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::RangeFor { body, .. } => walk_stmts(body, f),
        StmtKind::Switch { body, .. }
        | StmtKind::Case(_, body)
        | StmtKind::Default(body)
        | StmtKind::Label(_, body) => walk_stmts(body, f),
        _ => {}
    }
}

/// Visits every expression of a statement (including inside lambdas).
pub fn walk_stmt(s: &ast::Stmt, f: &mut dyn FnMut(&ast::Expr)) {
    let on_init = |i: &ast::Init, f: &mut dyn FnMut(&ast::Expr)| match i {
        ast::Init::Assign(e) => walk_expr(e, f),
        ast::Init::Paren(es, _) => es.iter().for_each(|e| walk_expr(e, f)),
        ast::Init::Brace(es, _) => es.iter().for_each(|e| walk_elem(&e.value, f)),
    };
    match &s.kind {
        StmtKind::Block(v) => v.iter().for_each(|x| walk_stmt(x, f)),
        StmtKind::Expr(e) => walk_expr(e, f),
        StmtKind::Decl(vs) => {
            for v in vs {
                if let Some(i) = &v.init {
                    on_init(i, f);
                }
            }
        }
        StmtKind::If { init, cond, then, els, .. } => {
            if let Some(i) = init {
                walk_stmt(i, f);
            }
            match cond {
                ast::Cond::Expr(e) => walk_expr(e, f),
                ast::Cond::Decl(d) => {
                    if let Some(i) = &d.init {
                        on_init(i, f);
                    }
                }
            }
            walk_stmt(then, f);
            if let Some(e) = els {
                walk_stmt(e, f);
            }
        }
        StmtKind::While { cond, body, .. } => {
            match cond {
                ast::Cond::Expr(e) => walk_expr(e, f),
                ast::Cond::Decl(d) => {
                    if let Some(i) = &d.init {
                        on_init(i, f);
                    }
                }
            }
            walk_stmt(body, f);
        }
        StmtKind::DoWhile { body, cond, .. } => {
            walk_stmt(body, f);
            walk_expr(cond, f);
        }
        StmtKind::For { init, cond, step, body, .. } => {
            match init {
                ast::ForInit::Expr(e) => walk_expr(e, f),
                ast::ForInit::Decl(vs) => {
                    for v in vs {
                        if let Some(i) = &v.init {
                            on_init(i, f);
                        }
                    }
                }
                ast::ForInit::None => {}
            }
            if let Some(c) = cond {
                walk_expr(c, f);
            }
            if let Some(s) = step {
                walk_expr(s, f);
            }
            walk_stmt(body, f);
        }
        StmtKind::RangeFor { range, body, .. } => {
            walk_expr(range, f);
            walk_stmt(body, f);
        }
        StmtKind::Switch { init, cond, body } => {
            if let Some(i) = init {
                walk_stmt(i, f);
            }
            walk_expr(cond, f);
            walk_stmt(body, f);
        }
        StmtKind::Case(e, body) => {
            walk_expr(e, f);
            walk_stmt(body, f);
        }
        StmtKind::Default(b) | StmtKind::Label(_, b) => walk_stmt(b, f),
        StmtKind::Return(Some(ast::ReturnValue::Expr(e))) => walk_expr(e, f),
        StmtKind::Return(Some(ast::ReturnValue::Brace(es, _))) => es.iter().for_each(|e| walk_elem(&e.value, f)),
        _ => {}
    }
}

fn walk_elem(v: &ast::InitValue, f: &mut dyn FnMut(&ast::Expr)) {
    match v {
        ast::InitValue::Expr(e) => walk_expr(e, f),
        ast::InitValue::Brace(es, _) => es.iter().for_each(|e| walk_elem(&e.value, f)),
    }
}

pub fn walk_expr(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Paren(x)
        | ExprKind::Unary(_, x)
        | ExprKind::CCast(_, x)
        | ExprKind::NamedCast(_, _, x)
        | ExprKind::SizeofExpr(x)
        | ExprKind::VecStepExpr(x)
        | ExprKind::Member(x, _, _)
        | ExprKind::PackExpansion(x) => walk_expr(x, f),
        ExprKind::Fold { pack, init, .. } => {
            walk_expr(pack, f);
            if let Some(i) = init {
                walk_expr(i, f);
            }
        }
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Cond(a, b, c) => {
            walk_expr(a, f);
            walk_expr(b, f);
            walk_expr(c, f);
        }
        ExprKind::Comma(xs) | ExprKind::Functional(_, xs) => xs.iter().for_each(|x| walk_expr(x, f)),
        ExprKind::Call(c, xs) => {
            walk_expr(c, f);
            xs.iter().for_each(|x| walk_expr(x, f));
        }
        ExprKind::Braced(_, es) => es.iter().for_each(|x| walk_elem(&x.value, f)),
        ExprKind::Lambda(l) => {
            for c in &l.captures {
                if let ast::Capture::Init { init, .. } = c {
                    walk_expr(init, f);
                }
            }
            walk_stmt(&l.body, f);
        }
        _ => {}
    }
}

/// A kernel: its parameters as OpenCL C parameters, its body elaborated.
pub fn kernel_def(e: &mut Elab, k: &Rc<ast::FuncDef>, ctx: &Ctx) -> Option<c::FunctionDef> {
    let span = k.span;
    e.fx = Some(FnState::new(ctx.clone()));
    e.push_frame(ctx.clone(), None, None, Some(Ty::Void), span);
    if let Some(fx) = e.fx.as_mut() {
        fx.frame_mut().ret.kernel = true;
    }
    let mut params = Vec::new();
    for p in &k.params {
        let ty = e.resolve_type(&p.ty, ctx);
        let (space, ty) = e.storage_of(&ty, &p.ty);
        let Some((pname, pspan)) = &p.name else {
            e.err(codes::KERNEL_ARG, "kernel parameters must be named", p.span);
            continue;
        };
        if let Ty::Ref(..) = ty {
            e.err(codes::KERNEL_ARG, "a kernel parameter cannot be a reference", p.span);
            continue;
        }
        if let Some(c) = pointee_class(&ty) {
            e.emit_class(c);
        }
        if let Ty::Class(c) = &ty {
            e.emit_class(*c);
        }
        let cname = e.var_name(pname);
        let ct = crate::ty::c_type(&ty, e, *pspan);
        let mut specs = crate::ty::specs_of(ct.spec, ct.quals, ct.space, p.span);
        if let Some(s) = space
            && !matches!(ty, Ty::Ptr(..))
        {
            specs.addr_space = Some((s, p.span));
        }
        if let Ty::Pipe(_, w) = &ty {
            specs.access = Some((if *w { c::Access::WriteOnly } else { c::Access::ReadOnly }, p.span));
        }
        specs.quals.is_const |= super::type_is_const(&p.ty) && !matches!(ty, Ty::Ptr(..));
        params.push(c::ParamDecl {
            specs,
            declarator: c::Declarator {
                name: Some((cname.clone(), *pspan)),
                derived: ct.derived,
                attrs: vec![],
                span: p.span,
            },
            span: p.span,
        });
        let mut v = Val::lval(ident(&cname, *pspan), ty, space.unwrap_or(AddrSpace::Private), *pspan);
        v.is_const = super::type_is_const(&p.ty) && !matches!(v.ty, Ty::Ptr(..));
        e.bind_local(pname.clone(), Local::Var(v));
    }
    let body = k.body.clone()?;
    let stmts: Vec<ast::Stmt> = match &body.kind {
        StmtKind::Block(v) => v.clone(),
        _ => vec![body.clone()],
    };
    for s in &stmts {
        e.stmt(s);
    }
    let items = e.fx.as_mut().and_then(|fx| fx.blocks.pop()).unwrap_or_default();
    e.pop_frame();
    e.fx = None;
    let attrs = e.c_attributes(&k.attrs, ctx);
    let name = k.name.last().name.clone();
    let mut specs =
        crate::ty::specs_of(c::TypeSpec::Words(vec![(c::TypeWord::Void, span)]), Quals::default(), None, span);
    specs.kernel = Some(span);
    specs.attrs = attrs;
    Some(c::FunctionDef {
        specs,
        declarator: c::Declarator {
            name: Some((name, k.name.span)),
            derived: vec![c::DerivedPart::Function { params, variadic: false, span }],
            attrs: vec![],
            span,
        },
        body: emit::stmt(c::StmtKind::Compound(items), body.span),
        span,
    })
}

fn pointee_class(t: &Ty) -> Option<ClassId> {
    match t {
        Ty::Ptr(p, _, _) => super::elem_class(p),
        _ => None,
    }
}

/// Elaborates a function that is never called, for its diagnostics only.
pub fn check_only(e: &mut Elab, f: FuncId) {
    let def = e.funcs[f.0 as usize].def.clone();
    let ctx = e.funcs[f.0 as usize].ctx.clone();
    let Some(body) = def.body.clone() else { return };
    let span = def.span;
    e.fx = Some(FnState::new(ctx.clone()));
    let sig = e.sig(f);
    e.push_frame(ctx, None, Some(f), sig.ret.clone(), span);
    for (p, t) in def.params.iter().zip(&sig.params) {
        let Some((n, s)) = &p.name else { continue };
        let inner = t.strip_ref().clone();
        let mut v = match &inner {
            Ty::Class(c) if !e.has_storage(*c) => Val::phantom(*c, *s),
            _ => Val::lval(ident(n, *s), inner, AddrSpace::Private, *s),
        };
        if let Ty::Ref(_, c) = t {
            v.is_const = *c;
        }
        e.bind_local(n.clone(), Local::Var(v));
    }
    e.run_body(&body, span);
    e.pop_frame();
    e.fx = None;
}

/// `begin()` = `a` and `end()` = `a + N` (an array `a`, a constant `N`): the array and `N`.
fn array_range(b: &Val, e: &Val) -> Option<(c::Expr, i128)> {
    fn strip(x: &c::Expr) -> &c::Expr {
        match &x.kind {
            c::ExprKind::Paren(i) => strip(i),
            _ => x,
        }
    }
    let (bc, ec) = (strip(b.c.as_ref()?), strip(e.c.as_ref()?));
    if emit::has_effects(bc) || !matches!(b.ty, Ty::Ptr(..)) {
        return None;
    }
    let c::ExprKind::Binary(c::BinOp::Add, l, r) = &ec.kind else { return None };
    if crate::print::expr_text(strip(l)) != crate::print::expr_text(bc) {
        return None;
    }
    let c::ExprKind::Int(t) = &strip(r).kind else { return None };
    let n = kiln_frontend::literal::parse_int(t).ok()?.value;
    Some((bc.clone(), i128::from(n)))
}

/// The array a range-`for` walks by index.
struct IndexedSlot {
    base: c::Expr,
    elem: Ty,
    space: AddrSpace,
    is_const: bool,
}
