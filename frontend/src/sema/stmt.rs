//! Statements, local declarations, loop pragmas and `switch` arms.

use super::{Sema, Sym};
use crate::ast::{self, AddrSpace, StorageClass};
use crate::diag::{Diagnostic, codes};
use crate::hir::{self, Block, CaseLabel, Local, LoopKind, LoopPragmas, Stmt, SwitchArm};
use crate::source::Span;
use crate::types::Type;

/// Does every path through `b` end in `return` (or an endless loop)?
pub(super) fn always_returns(b: &Block) -> bool {
    b.iter().any(stmt_returns)
}

fn stmt_returns(s: &Stmt) -> bool {
    match s {
        Stmt::Return(..) => true,
        Stmt::Block(b) => always_returns(b),
        Stmt::If(_, t, e, _) => always_returns(t) && always_returns(e),
        Stmt::Loop(l) => {
            let endless = match &l.cond {
                None => true,
                Some(c) => c.as_int().is_some_and(|v| v != 0),
            };
            endless && !contains_break(&l.body)
        }
        Stmt::Switch(_, arms, _) => {
            arms.iter().any(|a| a.labels.iter().any(|(l, _)| matches!(l, CaseLabel::Default)))
                && arms.last().is_some_and(|a| always_returns(&a.body))
                && !arms.iter().any(|a| contains_break(&a.body))
        }
        _ => false,
    }
}

/// Does `b` contain a `break` that leaves the enclosing loop or switch?
fn contains_break(b: &Block) -> bool {
    b.iter().any(|s| match s {
        Stmt::Break(_) => true,
        Stmt::Block(b) => contains_break(b),
        Stmt::If(_, t, e, _) => contains_break(t) || contains_break(e),
        _ => false,
    })
}

impl Sema<'_> {
    pub(super) fn block_items(&mut self, items: &[ast::BlockItem]) -> Block {
        if self.fcx.as_ref().is_some_and(|f| f.gotos.is_some()) {
            return self.block_items_with_jumps(items);
        }
        self.block_items_plain(items)
    }

    fn take_pending_decls(&mut self) -> Vec<Stmt> {
        std::mem::take(&mut self.pending_decls)
    }

    fn pending_decls_mut(&mut self) -> &mut Vec<Stmt> {
        &mut self.pending_decls
    }

    /// The items of a block, lowered in order (jumps between them already arranged for).
    pub(super) fn block_items_plain(&mut self, items: &[ast::BlockItem]) -> Block {
        let mut out = Vec::new();
        for item in items {
            match item {
                ast::BlockItem::Decl(d) => {
                    let outer = self.take_pending_decls();
                    let at = out.len();
                    self.local_declaration(d, &mut out);
                    let mine = std::mem::replace(self.pending_decls_mut(), outer);
                    out.splice(at..at, mine);
                }
                ast::BlockItem::Stmt(s) => {
                    if let Some(h) = self.stmt(s) {
                        out.push(h);
                    }
                }
                ast::BlockItem::Pragma(_) => {}
            }
        }
        out
    }

    /// A loop attribute written before a declaration applies to nothing: the loop it was meant
    /// for comes later, and the attribute must come immediately before it.
    fn loop_attributes_on_declaration(&mut self, d: &ast::Declaration) {
        let attrs = d.specs.attrs.iter().chain(d.declarators.iter().flat_map(|i| i.declarator.attrs.iter()));
        for a in attrs {
            if matches!(&*a.name, "opencl_unroll_hint" | "xcl_pipeline_loop" | "ivdep") {
                self.err(
                    Diagnostic::error(
                        codes::PRAGMA_NOT_BEFORE_LOOP,
                        format!("`{}` applies to a loop, not to a declaration", a.name),
                    )
                    .at(a.span)
                    .with_help("put it immediately before the `for`, `while` or `do` it is meant for"),
                );
            }
        }
    }

    /// Declares a variable whose declaration was refused, with the error type, so that its uses
    /// do not add "undeclared identifier" errors to the one already given.
    fn declare_invalid(&mut self, name: &std::rc::Rc<str>, span: Span) {
        let local = Local {
            name: name.clone(),
            ty: Type::Error,
            space: AddrSpace::Private,
            quals: Default::default(),
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        };
        let lid = self.new_local(local);
        self.bind(name, span, Sym::Local(lid));
    }

    fn at_kernel_outer_scope(&self) -> bool {
        self.fcx.as_ref().is_some_and(|f| f.is_kernel && self.scopes.len() == f.body_scope)
    }

    fn local_declaration(&mut self, d: &ast::Declaration, out: &mut Block) {
        self.gate_specs(&d.specs);
        self.loop_attributes_on_declaration(d);
        let base = self.base_type(&d.specs);
        for id in &d.declarators {
            let info = self.declarator_type(&base, &d.specs, &id.declarator);
            let Some((name, nspan)) = info.name.clone() else { continue };
            let storage = d.specs.storage;
            if let Some((StorageClass::Typedef, _)) = storage {
                self.bind(&name, nspan, Sym::Typedef { ty: info.ty, quals: info.quals, space: info.space });
                continue;
            }
            if let Type::Function(sig) = &info.ty {
                self.declare_function(&name, nspan, sig.clone(), &d.specs, &id.declarator, None);
                continue;
            }
            if self.refuse_half(&info.ty, &format!("variable `{name}`"), nspan) {
                self.declare_invalid(&name, nspan);
                continue;
            }
            let mut space = info.space.unwrap_or(AddrSpace::Private);
            match storage {
                Some((StorageClass::Register | StorageClass::Auto, s)) => {
                    self.err(
                        Diagnostic::error(codes::STORAGE_CLASS, "`auto` and `register` are not supported in OpenCL C")
                            .at(s),
                    );
                }
                Some((StorageClass::Extern, s)) => {
                    self.err(
                        Diagnostic::error(
                            codes::STORAGE_CLASS,
                            "`extern` variables inside functions are not supported",
                        )
                        .at(s),
                    );
                    self.declare_invalid(&name, nspan);
                    continue;
                }
                Some((StorageClass::Static, s)) if space != AddrSpace::Constant => {
                    let msg = if space == AddrSpace::Global {
                        "`static __global` variables need `__opencl_c_program_scope_global_variables`, which kiln does not implement"
                    } else {
                        "a `static` variable inside a function must be `__constant` (there is no implicit address space for it)"
                    };
                    self.err(Diagnostic::error(codes::STORAGE_CLASS, msg).at(s));
                    self.declare_invalid(&name, nspan);
                    continue;
                }
                _ => {}
            }
            if Self::is_pipe_declaration(&info.ty) {
                self.err(
                    Diagnostic::error(codes::PIPE_RULE, format!("pipe `{name}` cannot be declared inside a function"))
                        .at(nspan)
                        .with_note("a pipe is a kernel parameter or a program-scope declaration"),
                );
                self.declare_invalid(&name, nspan);
                continue;
            }
            match space {
                AddrSpace::Global => {
                    self.err(
                        Diagnostic::error(
                            codes::ADDRESS_SPACE,
                            format!("variable `{name}` cannot be declared `__global` inside a function"),
                        )
                        .at(nspan)
                        .with_note("only pointers can point to `__global` memory here"),
                    );
                    self.declare_invalid(&name, nspan);
                    continue;
                }
                AddrSpace::Local => {
                    if !self.at_kernel_outer_scope() {
                        self.err(
                            Diagnostic::error(
                                codes::ADDRESS_SPACE,
                                format!(
                                    "`__local` variable `{name}` must be declared in the outermost scope of a kernel"
                                ),
                            )
                            .at(nspan)
                            .with_note("every work-item of a work-group shares it, so it lives as long as the kernel"),
                        );
                    }
                    if let Some(init) = &id.init {
                        self.err(
                            Diagnostic::error(codes::BAD_INITIALIZER, "`__local` variables cannot be initialized")
                                .at(init.span()),
                        );
                        self.declare_invalid(&name, nspan);
                        continue;
                    }
                }
                AddrSpace::Constant => {
                    if id.init.is_none() {
                        self.err(
                            Diagnostic::error(
                                codes::CONSTANT_RULE,
                                format!("`__constant` variable `{name}` needs an initializer"),
                            )
                            .at(nspan),
                        );
                        self.declare_invalid(&name, nspan);
                        continue;
                    }
                    if !self.at_kernel_outer_scope() && !matches!(storage, Some((StorageClass::Static, _))) {
                        self.err(
                            Diagnostic::error(
                                codes::ADDRESS_SPACE,
                                format!("`__constant` variable `{name}` must be at program scope or in the outermost scope of a kernel"),
                            )
                            .at(nspan),
                        );
                        self.declare_invalid(&name, nspan);
                        continue;
                    }
                }
                AddrSpace::Generic => {
                    self.err(
                        Diagnostic::error(
                            codes::ADDRESS_SPACE,
                            "variables cannot be declared in the generic address space",
                        )
                        .at(nspan),
                    );
                    space = AddrSpace::Private;
                }
                AddrSpace::Private => {}
            }
            if space == AddrSpace::Private && is_atomic_object(&info.ty) {
                self.err(
                    Diagnostic::error(
                        codes::ATOMIC_RULE,
                        format!("atomic variable `{name}` is in private memory, which no other work-item can see"),
                    )
                    .at(nspan)
                    .with_note("OpenCL C leaves atomics on private objects undefined; kiln refuses them")
                    .with_help("declare it `__local`, or use a buffer in `__global` memory"),
                );
                self.declare_invalid(&name, nspan);
                continue;
            }
            if info.ty.is_void() {
                self.err(Diagnostic::error(codes::VOID_USE, format!("variable `{name}` has type `void`")).at(nspan));
                continue;
            }
            let mut ty = info.ty.clone();
            // C scoping: the variable is in scope in its own initializer
            // (`event_t e = async_work_group_copy(dst, src, n, e);`); its type is completed after.
            let lid = self.new_local(Local {
                name: name.clone(),
                ty: ty.clone(),
                space,
                quals: info.quals,
                is_param: false,
                partition: None,
                lane_of: None,
                dependence_distance: None,
                span: nspan,
            });
            self.bind(&name, nspan, Sym::Local(lid));
            let init = match &id.init {
                Some(i) => Some(self.initializer(&mut ty, i, space == AddrSpace::Constant)),
                None => {
                    if let Type::Array(_, None) = ty {
                        self.err(
                            Diagnostic::error(codes::INCOMPLETE_TYPE, format!("array `{name}` needs a size")).at(nspan),
                        );
                        ty = Type::Error;
                    }
                    None
                }
            };
            let partition = self.array_partition(&d.specs, &id.declarator, &ty, space);
            if let Some(l) = self.fcx.as_mut().and_then(|f| f.locals.get_mut(lid.0 as usize)) {
                l.ty = ty;
                l.partition = partition;
            }
            out.push(Stmt::Decl(lid, init, d.span));
        }
    }

    fn scoped_block(&mut self, s: &ast::Stmt) -> Block {
        self.push_scope();
        let b = match &s.kind {
            ast::StmtKind::Compound(items) => self.block_items(items),
            _ => self.stmt(s).into_iter().collect(),
        };
        self.pop_scope();
        b
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        // The objects of compound literals in this statement are declared just before it.
        let outer = self.take_pending_decls();
        let lowered = self.stmt_here(s);
        let mine = std::mem::replace(self.pending_decls_mut(), outer);
        let lowered = lowered?;
        let lowered = if mine.is_empty() { lowered } else { Stmt::Block(mine.into_iter().chain([lowered]).collect()) };
        Some(match &s.kind {
            ast::StmtKind::While(..)
            | ast::StmtKind::DoWhile(..)
            | ast::StmtKind::For(..)
            | ast::StmtKind::Switch(..) => self.propagate_jumps(s, lowered),
            _ => lowered,
        })
    }

    fn stmt_here(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let span = s.span;
        Some(match &s.kind {
            ast::StmtKind::Compound(items) => {
                self.push_scope();
                let b = self.block_items(items);
                self.pop_scope();
                Stmt::Block(b)
            }
            ast::StmtKind::Expr(None) => return None,
            ast::StmtKind::Expr(Some(e)) => Stmt::Expr(self.rvalue(e)),
            ast::StmtKind::If(c, t, e) => {
                let c = self.condition(c);
                let t = self.scoped_block(t);
                let e = e.as_ref().map(|e| self.scoped_block(e)).unwrap_or_default();
                Stmt::If(c, t, e, span)
            }
            ast::StmtKind::While(c, body, attrs) => {
                let pragmas = self.loop_pragmas(attrs);
                let c = self.condition(c);
                let body = self.loop_body(body, span);
                Stmt::Loop(Box::new(hir::Loop {
                    kind: LoopKind::While,
                    init: vec![],
                    cond: Some(c),
                    step: None,
                    body,
                    pragmas,
                    transformations: Vec::new(),
                    span,
                }))
            }
            ast::StmtKind::DoWhile(body, c, attrs) => {
                let pragmas = self.loop_pragmas(attrs);
                let body = self.loop_body(body, span);
                let c = self.condition(c);
                Stmt::Loop(Box::new(hir::Loop {
                    kind: LoopKind::DoWhile,
                    init: vec![],
                    cond: Some(c),
                    step: None,
                    body,
                    pragmas,
                    transformations: Vec::new(),
                    span,
                }))
            }
            ast::StmtKind::For(init, cond, step, body, attrs) => {
                let pragmas = self.loop_pragmas(attrs);
                self.push_scope();
                let mut init_block = Vec::new();
                match init {
                    ast::ForInit::None => {}
                    ast::ForInit::Expr(e) => init_block.push(Stmt::Expr(self.rvalue(e))),
                    ast::ForInit::Decl(d) => self.local_declaration(d, &mut init_block),
                }
                let cond = cond.as_ref().map(|c| self.condition(c));
                let step = step.as_ref().map(|e| self.rvalue(e));
                let body = self.loop_body(body, span);
                self.pop_scope();
                Stmt::Loop(Box::new(hir::Loop {
                    kind: LoopKind::For,
                    init: init_block,
                    cond,
                    step,
                    body,
                    pragmas,
                    transformations: Vec::new(),
                    span,
                }))
            }
            ast::StmtKind::Switch(v, body) => self.switch(v, body, span),
            ast::StmtKind::Case(v, inner) => {
                let _ = self.rvalue(v);
                self.err(
                    Diagnostic::error(codes::CASE_OUTSIDE_SWITCH, "`case` label outside a `switch` body").at(span),
                );
                return self.stmt(inner);
            }
            ast::StmtKind::Default(inner) => {
                self.err(
                    Diagnostic::error(codes::CASE_OUTSIDE_SWITCH, "`default` label outside a `switch` body").at(span),
                );
                return self.stmt(inner);
            }
            ast::StmtKind::Break => {
                if self.fcx.as_ref().is_some_and(|f| f.breakables == 0) {
                    self.err(Diagnostic::error(codes::BREAK_OUTSIDE, "`break` outside a loop or `switch`").at(span));
                    return None;
                }
                Stmt::Break(span)
            }
            ast::StmtKind::Continue => {
                if self.fcx.as_ref().is_some_and(|f| f.loops == 0) {
                    self.err(Diagnostic::error(codes::BREAK_OUTSIDE, "`continue` outside a loop").at(span));
                    return None;
                }
                Stmt::Continue(span)
            }
            ast::StmtKind::Return(v) => self.return_stmt(v.as_ref(), span),
            ast::StmtKind::Goto(label) => return self.goto_stmt(label, span),
            ast::StmtKind::Labeled(label, inner) => {
                let reset = self.label_reset(label, span);
                let mut inner = self.stmt(inner);
                if let Some(Stmt::Loop(l)) = &mut inner {
                    l.pragmas.label.get_or_insert_with(|| label.clone());
                }
                match reset {
                    Some(r) => Stmt::Block(std::iter::once(r).chain(inner).collect()),
                    None => return inner,
                }
            }
        })
    }

    fn loop_body(&mut self, body: &ast::Stmt, loop_span: Span) -> Block {
        if let Some(f) = self.fcx.as_mut() {
            f.loops += 1;
            f.breakables += 1;
            f.breakable_spans.push(loop_span);
        }
        let b = self.scoped_block(body);
        if let Some(f) = self.fcx.as_mut() {
            f.loops -= 1;
            f.breakables -= 1;
            f.breakable_spans.pop();
        }
        b
    }

    fn return_stmt(&mut self, v: Option<&ast::Expr>, span: Span) -> Stmt {
        let ret = self.fcx.as_ref().map(|f| f.ret.clone()).unwrap_or(Type::Void);
        match (v, ret.is_void()) {
            (None, true) => Stmt::Return(None, span),
            (None, false) => {
                if !ret.is_error() {
                    let msg = format!("non-void function must return a value of type `{}`", self.show(&ret));
                    self.err(Diagnostic::error(codes::BAD_RETURN, msg).at(span));
                }
                Stmt::Return(None, span)
            }
            (Some(e), true) => {
                let x = self.rvalue(e);
                if !x.ty.is_void() && !x.ty.is_error() {
                    self.err(
                        Diagnostic::error(codes::BAD_RETURN, "a `void` function cannot return a value").at(e.span),
                    );
                }
                Stmt::Return(None, span)
            }
            (Some(e), false) => {
                let x = self.rvalue(e);
                let x = self.assign_convert(x, &ret, "return value");
                Stmt::Return(Some(x), span)
            }
        }
    }

    fn switch(&mut self, v: &ast::Expr, body: &ast::Stmt, span: Span) -> Stmt {
        let value = self.rvalue(v);
        let value = if value.ty.is_integer() {
            let s = super::expr::promoted(value.ty.scalar().unwrap_or(crate::types::Scalar::I32));
            self.convert(value, &Type::Scalar(s))
        } else {
            if !value.ty.is_error() {
                let msg = format!("a `switch` value must be an integer, found `{}`", self.show(&value.ty));
                self.err(Diagnostic::error(codes::TYPE_MISMATCH, msg).at(value.span));
            }
            Expr0::err(value.span)
        };
        let vty = value.ty.clone();
        let items: Vec<ast::BlockItem> = match &body.kind {
            ast::StmtKind::Compound(items) => items.clone(),
            _ => vec![ast::BlockItem::Stmt(body.clone())],
        };
        if let Some(f) = self.fcx.as_mut() {
            f.breakables += 1;
            f.breakable_spans.push(span);
        }
        self.push_scope();
        let mut arms: Vec<SwitchArm> = Vec::new();
        let mut seen: Vec<(u64, Span)> = Vec::new();
        let mut default_seen: Option<Span> = None;
        for item in &items {
            // Peel `case A: case B: stmt` into labels + statement.
            let mut stmt_opt: Option<&ast::Stmt> = match item {
                ast::BlockItem::Stmt(s) => Some(s),
                _ => None,
            };
            let mut labels = Vec::new();
            while let Some(s) = stmt_opt {
                match &s.kind {
                    ast::StmtKind::Case(cv, inner) => {
                        let x = self.rvalue(cv);
                        let x = self.convert(x, &vty);
                        match self.const_value(&x) {
                            Some(c) if x.ty.is_integer() || vty.is_error() => {
                                if let Some((_, prev)) = seen.iter().find(|(p, _)| *p == c) {
                                    let prev = *prev;
                                    self.err(
                                        Diagnostic::error(codes::DUPLICATE_CASE, "duplicate `case` value")
                                            .at(cv.span)
                                            .with_label(prev, "previous case"),
                                    );
                                }
                                seen.push((c, cv.span));
                                labels.push((CaseLabel::Value(c), s.span));
                            }
                            _ => self.err(
                                Diagnostic::error(codes::NOT_CONSTANT, "a `case` value must be an integer constant")
                                    .at(cv.span),
                            ),
                        }
                        stmt_opt = Some(inner);
                    }
                    ast::StmtKind::Default(inner) => {
                        if let Some(prev) = default_seen {
                            self.err(
                                Diagnostic::error(codes::DUPLICATE_CASE, "multiple `default` labels in one `switch`")
                                    .at(s.span)
                                    .with_label(prev, "previous default"),
                            );
                        }
                        default_seen = Some(s.span);
                        labels.push((CaseLabel::Default, s.span));
                        stmt_opt = Some(inner);
                    }
                    _ => break,
                }
            }
            if !labels.is_empty() {
                arms.push(SwitchArm { labels, body: Vec::new() });
            }
            let checked = match (item, stmt_opt) {
                (ast::BlockItem::Decl(d), _) => {
                    let mut b = Vec::new();
                    self.local_declaration(d, &mut b);
                    b
                }
                (_, Some(s)) => {
                    if contains_nested_case(s) {
                        self.err(
                            Diagnostic::error(
                                codes::UNSUPPORTED_CASE_NESTING,
                                "a `case` label inside a nested statement of its `switch` is not supported by kiln",
                            )
                            .at(s.span),
                        );
                    }
                    self.stmt(s).into_iter().collect()
                }
                _ => vec![],
            };
            match arms.last_mut() {
                Some(a) => a.body.extend(checked),
                None => {
                    // Code before the first label can never run.
                }
            }
        }
        self.pop_scope();
        if let Some(f) = self.fcx.as_mut() {
            f.breakables -= 1;
            f.breakable_spans.pop();
        }
        Stmt::Switch(value, arms, span)
    }

    fn loop_pragmas(&mut self, a: &ast::LoopAttrs) -> LoopPragmas {
        let mut p = LoopPragmas::default();
        let positive = |s: &mut Self, e: &ast::Expr, what: &str| -> Option<u32> {
            let he = s.rvalue(e);
            let v = if he.ty.is_integer() { s.const_value(&he) } else { None };
            match v {
                Some(v) if (v as i64) > 0 && v <= u32::MAX as u64 => Some(v as u32),
                Some(v) => {
                    s.err(
                        Diagnostic::error(
                            codes::UNROLL_HINT,
                            format!("{what} must be a positive integer, found {}", v as i64),
                        )
                        .at(e.span),
                    );
                    None
                }
                None => {
                    s.err(
                        Diagnostic::error(codes::UNROLL_HINT, format!("{what} must be an integer constant")).at(e.span),
                    );
                    None
                }
            }
        };
        if let Some((arg, _)) = &a.unroll {
            p.unroll = match arg {
                None => Some(0),
                Some(e) => positive(self, e, "the unroll factor"),
            };
        }
        if let Some((arg, _)) = &a.ivdep {
            p.ivdep = Some(arg.as_ref().and_then(|e| positive(self, e, "`safelen`")));
        }
        if let Some((e, _)) = &a.ii {
            p.ii = positive(self, e, "the initiation interval");
        }
        if let Some((arg, _)) = &a.xcl_pipeline {
            p.ii = match arg {
                None => Some(1),
                Some(e) => positive(self, e, "the initiation interval"),
            };
        }
        if let Some((arg, _)) = &a.loop_coalesce {
            p.loop_coalesce = Some(arg.as_ref().and_then(|e| positive(self, e, "the coalescing depth")));
        }
        p.disable_pipelining = a.disable_pipelining.is_some();
        if let Some((e, _)) = &a.max_concurrency {
            p.max_concurrency = positive(self, e, "`max_concurrency`");
        }
        if let Some((e, _)) = &a.speculated_iterations {
            // Intel's common `speculated_iterations 0`: no iterations launched speculatively.
            let zero = {
                let he = self.rvalue(e);
                he.ty.is_integer() && self.const_value(&he) == Some(0)
            };
            p.speculated_iterations = if zero { Some(0) } else { positive(self, e, "`speculated_iterations`") };
        }
        p
    }
}

fn contains_nested_case(s: &ast::Stmt) -> bool {
    match &s.kind {
        ast::StmtKind::Case(..) | ast::StmtKind::Default(..) => true,
        ast::StmtKind::Compound(items) => items.iter().any(|i| match i {
            ast::BlockItem::Stmt(s) => contains_nested_case(s),
            _ => false,
        }),
        ast::StmtKind::If(_, t, e) => contains_nested_case(t) || e.as_ref().is_some_and(|e| contains_nested_case(e)),
        ast::StmtKind::While(_, b, _) | ast::StmtKind::DoWhile(b, _, _) | ast::StmtKind::For(_, _, _, b, _) => {
            contains_nested_case(b)
        }
        ast::StmtKind::Labeled(_, b) => contains_nested_case(b),
        _ => false,
    }
}

struct Expr0;
impl Expr0 {
    fn err(span: Span) -> hir::Expr {
        hir::Expr { kind: hir::ExprKind::Int(0), ty: Type::Error, span }
    }
}

/// Whether `ty` is an atomic type or an array of them.
fn is_atomic_object(ty: &Type) -> bool {
    match ty {
        Type::Atomic(_) => true,
        Type::Array(inner, _) => is_atomic_object(inner),
        _ => false,
    }
}
