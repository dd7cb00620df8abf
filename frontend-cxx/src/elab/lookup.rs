//! Names and types: unqualified and qualified lookup, written types resolved to [`Ty`], and
//! class, function and alias templates instantiated for their arguments.

use super::{Class, Ctx, Elab, Ent, Env, NsId, Scope, Special, TemplateId, TemplateKind};
use crate::ast::{self, Name, TemplateArg, TypeKind, TypeWord};
use crate::ty::{ClassId, Konst, TArg, Ty, from_hir, scalar_name};
use kiln_diagnostics::{Span, codes};
use kiln_hir::types::{AddrSpace, Scalar};
use std::collections::HashMap;
use std::rc::Rc;

/// Function templates of the OpenCL C++ library that kiln writes as OpenCL C built-ins
/// (`convert_cast<int4, saturate::on>(x)` is `convert_int4_sat(x)`).
pub const LIBRARY_INTRINSICS: &[&str] =
    &["convert_cast", "as_type", "vload", "vstore", "vload_half", "vstore_half", "vloada_half", "vstorea_half"];

/// OpenCL C built-in functions (and the few helpers OpenCL C front ends know) callable from C++.
pub fn is_builtin_function(name: &str) -> bool {
    kiln_hir::builtins::family(name).is_some()
        || matches!(
            name,
            "printf" | "__fpga_reg" | "__builtin_expect" | "to_global" | "to_local" | "to_private" | "prefetch"
        )
}

impl Elab<'_> {
    // ----- lookup -----

    /// A name in a class (its own members, then its bases').
    pub fn class_member(&self, c: ClassId, n: &str) -> Option<(Ent, ClassId)> {
        let cls = &self.classes[c.0 as usize];
        if let Some(e) = cls.members.get(n) {
            return Some((e.clone(), c));
        }
        for b in &cls.bases {
            if let Some(r) = self.class_member(*b, n) {
                return Some(r);
            }
        }
        None
    }

    /// A data member of a class or of one of its bases: the path of base indices to it.
    pub fn find_field(&self, c: ClassId, n: &str) -> Option<(Vec<usize>, usize)> {
        let cls = &self.classes[c.0 as usize];
        if let Some(i) = cls.fields.iter().position(|f| &*f.name == n) {
            return Some((vec![], i));
        }
        for (bi, b) in cls.bases.iter().enumerate() {
            if let Some((mut path, i)) = self.find_field(*b, n) {
                path.insert(0, bi);
                return Some((path, i));
            }
        }
        None
    }

    fn ns_lookup(&self, ns: NsId, n: &str, seen: &mut Vec<NsId>) -> Option<Ent> {
        if seen.contains(&ns) {
            return None;
        }
        seen.push(ns);
        let nsd = &self.nss[ns.0 as usize];
        if let Some(e) = nsd.members.get(n) {
            return Some(e.clone());
        }
        for u in nsd.using.clone() {
            if let Some(e) = self.ns_lookup(u, n, seen) {
                return Some(e);
            }
        }
        None
    }

    /// Unqualified lookup outside any function body: class scopes, template parameters, then
    /// enclosing namespaces (with their using-directives).
    pub fn lookup_unqual(&self, n: &str, ctx: &Ctx) -> Option<Ent> {
        let mut cls = ctx.class;
        while let Some(c) = cls {
            if let Some((e, _)) = self.class_member(c, n) {
                return Some(e);
            }
            if let Some(a) = self.classes[c.0 as usize].ctx.env.get(n) {
                return Some(targ_ent(a));
            }
            cls = self.enclosing_class(c);
        }
        if let Some(a) = ctx.env.get(n) {
            return Some(targ_ent(a));
        }
        let mut ns = Some(ctx.ns);
        while let Some(cur) = ns {
            if let Some(e) = self.ns_lookup(cur, n, &mut Vec::new()) {
                return Some(e);
            }
            ns = self.nss[cur.0 as usize].parent;
        }
        None
    }

    /// The class a nested class is declared in.
    pub fn enclosing_class(&self, c: ClassId) -> Option<ClassId> {
        let cls: &Class = &self.classes[c.0 as usize];
        // A class's context names itself; its definition's outer context is one up.
        match cls.origin.as_ref() {
            Some((t, _)) => self.templates[t.0 as usize].owner,
            None => self.outer_of.get(&c).copied(),
        }
    }

    /// Looks up a possibly qualified name (instantiating templates it names with arguments).
    pub fn lookup_qual(&mut self, q: &ast::QualName, ctx: &Ctx) -> Option<Ent> {
        let mut cur: Option<Ent> = None;
        for (i, part) in q.parts.iter().enumerate() {
            let found = if i == 0 {
                if q.global {
                    self.ns_lookup(NsId(0), &part.name, &mut Vec::new())
                } else {
                    self.lookup_in_body_or_ctx(&part.name, ctx)
                }
            } else {
                match cur.clone() {
                    Some(Ent::Ns(ns)) => self.ns_lookup(ns, &part.name, &mut Vec::new()),
                    Some(Ent::Type(Ty::Class(c))) => self.class_member(c, &part.name).map(|(e, _)| e),
                    Some(Ent::Type(Ty::Enum(e))) => {
                        self.enums[e.0 as usize].members.get(&part.name).map(|v| Ent::Enumerator(e, *v))
                    }
                    _ => None,
                }
            };
            let found = match found {
                Some(f) => f,
                None if i == 0 && q.global && is_builtin_function(&part.name) => Ent::Builtin(part.name.clone()),
                None if i == 0 && q.global => match builtin_type(&part.name) {
                    Some(t) => Ent::Type(t),
                    None => return None,
                },
                None if i == 0 && !q.global && is_builtin_function(&part.name) => Ent::Builtin(part.name.clone()),
                None if i == 0 && !q.global => match builtin_type(&part.name) {
                    Some(t) => Ent::Type(t),
                    None => return None,
                },
                None if i > 0
                    && matches!(cur, Some(Ent::Ns(_)))
                    && (is_builtin_function(&part.name) || LIBRARY_INTRINSICS.contains(&&*part.name))
                    && self.is_library_ns(&cur) =>
                {
                    Ent::Builtin(part.name.clone())
                }
                None => return None,
            };
            // The injected name of a class template's instance, given arguments, names the
            // template (`Matrix<T, C, K>` inside `Matrix`).
            let found = match (&found, &part.targs) {
                (Ent::Type(Ty::Class(c)), Some(_)) => match &self.classes[c.0 as usize].origin {
                    Some((t, _)) => Ent::Template(*t),
                    None => found,
                },
                _ => found,
            };
            cur = Some(match (&found, &part.targs) {
                (Ent::Template(t), Some(args)) => {
                    let t = *t;
                    let targs = self.template_args(args, ctx)?;
                    self.instantiate(t, targs, part.span)?
                }
                (Ent::Template(t), None) if i + 1 < q.parts.len() => {
                    // `S::x` inside `S<T>`'s own definition names the current instance.
                    match self.current_instance(*t, ctx) {
                        Some(c) => Ent::Type(Ty::Class(c)),
                        None => found,
                    }
                }
                _ => found,
            });
        }
        cur
    }

    /// The namespace `cl` (the library's): its members include every OpenCL C built-in.
    fn is_library_ns(&self, e: &Option<Ent>) -> bool {
        matches!(e, Some(Ent::Ns(ns)) if &*self.nss[ns.0 as usize].name == "cl")
    }

    /// The instance of `t` whose definition `ctx` is inside.
    pub fn current_instance(&self, t: TemplateId, ctx: &Ctx) -> Option<ClassId> {
        let mut c = ctx.class;
        while let Some(cid) = c {
            if self.classes[cid.0 as usize].origin.as_ref().is_some_and(|(ot, _)| *ot == t) {
                return Some(cid);
            }
            c = self.enclosing_class(cid);
        }
        None
    }

    /// Unqualified lookup from inside a body: locals first.
    pub fn lookup_in_body_or_ctx(&self, n: &str, ctx: &Ctx) -> Option<Ent> {
        if let Some(fx) = &self.fx
            && let Some(e) = fx.local_ent(n)
        {
            return Some(e);
        }
        self.lookup_unqual(n, ctx)
    }

    // ----- types -----

    /// A written type as a [`Ty`], reporting what is wrong with it.
    pub fn resolve_type(&mut self, t: &ast::Type, ctx: &Ctx) -> Ty {
        self.resolve(t, ctx, true)
    }

    /// As [`Elab::resolve_type`], without diagnostics.
    pub fn resolve_type_quiet(&mut self, t: &ast::Type, ctx: &Ctx) -> Ty {
        let n = self.diags.len();
        let r = self.resolve(t, ctx, false);
        self.diags.truncate(n);
        r
    }

    fn resolve(&mut self, t: &ast::Type, ctx: &Ctx, report: bool) -> Ty {
        match &t.kind {
            TypeKind::Words(ws) => match words_type(ws) {
                Some(s) => s,
                None => {
                    if report {
                        self.err(codes::BAD_SPECIFIERS, "invalid combination of type specifiers", t.span);
                    }
                    Ty::Error
                }
            },
            TypeKind::Named(q) => self.named_type(q, ctx, report),
            TypeKind::Auto => {
                if report {
                    self.err(codes::CXX_UNSUPPORTED, "`auto` cannot be used here", t.span);
                }
                Ty::Error
            }
            TypeKind::Decltype(e) => self.decltype(e, ctx),
            TypeKind::Pointer(inner) => {
                let pointee = self.resolve(inner, ctx, report);
                let space = super::written_space_direct(inner).unwrap_or(AddrSpace::Generic);
                let (space, pointee) = match &pointee {
                    Ty::Class(c) => match &self.classes[c.0 as usize].special {
                        Some(Special::Storage(s, inner)) => (*s, inner.clone()),
                        _ => (space, pointee),
                    },
                    _ => (space, pointee),
                };
                Ty::Ptr(Rc::new(pointee), space, super::type_is_const_direct(inner))
            }
            TypeKind::Ref(inner, _) => {
                let r = self.resolve(inner, ctx, report);
                // A reference to a storage class (`local<T> &`) refers to the `T`.
                let r = match &r {
                    Ty::Class(c) => match &self.classes[c.0 as usize].special {
                        Some(Special::Storage(_, t)) => t.clone(),
                        _ => r,
                    },
                    _ => r,
                };
                match r {
                    Ty::Ref(..) => r,
                    r => Ty::Ref(Rc::new(r), super::type_is_const_direct(inner)),
                }
            }
            TypeKind::Array(inner, size) => {
                let e = self.resolve(inner, ctx, report);
                let n = match size {
                    Some(s) => match self.const_int(s, ctx) {
                        Some(v) if v > 0 && v <= u32::MAX as i128 => Some(v as u32),
                        Some(_) => {
                            if report {
                                self.err(codes::BAD_ARRAY_SIZE, "an array size must be positive", s.span);
                            }
                            return Ty::Error;
                        }
                        None => {
                            if report {
                                self.err(
                                    codes::VLA,
                                    "an array size must be a constant expression (OpenCL C++ does not support variable length arrays, OpenCL C++ 1.0 §2.9)",
                                    s.span,
                                );
                            }
                            return Ty::Error;
                        }
                    },
                    None => None,
                };
                Ty::Array(Rc::new(e), n)
            }
            TypeKind::Qualified { inner, .. } => self.resolve(inner, ctx, report),
            TypeKind::Pipe(inner, w) => {
                let p = self.resolve(inner, ctx, report);
                Ty::Pipe(Rc::new(p), *w)
            }
            TypeKind::Class(cd) => {
                let scope = self.decl_scope(ctx);
                match self.class_item(cd, ctx, scope, ast::Access::Public) {
                    Some(c) => Ty::Class(c),
                    None => Ty::Error,
                }
            }
            TypeKind::Enum(ed) => {
                let scope = self.decl_scope(ctx);
                self.enum_def(ed, ctx, scope);
                match ed.name.as_ref().and_then(|(n, _)| self.scope_member(scope, n)) {
                    Some(Ent::Type(t)) => t,
                    _ => Ty::INT,
                }
            }
        }
    }

    /// Where a class or enum defined inside a declaration is declared.
    pub fn decl_scope(&self, ctx: &Ctx) -> Scope {
        match ctx.class {
            Some(c) => Scope::Class(c),
            None => Scope::Ns(ctx.ns),
        }
    }

    fn named_type(&mut self, q: &ast::QualName, ctx: &Ctx, report: bool) -> Ty {
        // The library's vector template: `cl::vec<T, N>` is OpenCL's `Tn`.
        let last = q.last();
        if &*last.name == "__kiln_vector"
            && let Some(args) = &last.targs
        {
            let Some(targs) = self.template_args(args, ctx) else { return Ty::Error };
            return match targs.as_slice() {
                [TArg::Type(Ty::Scalar(s)), TArg::Value(Konst::Int(n), _)] if matches!(n, 2 | 3 | 4 | 8 | 16) => {
                    Ty::Vector(*s, *n as u8)
                }
                [TArg::Type(Ty::Scalar(s)), TArg::Value(Konst::Int(1), _)] => Ty::Scalar(*s),
                _ => {
                    if report {
                        self.err(
                            codes::CXX_TEMPLATE,
                            "`vec<T, N>` needs a scalar type and 2, 3, 4, 8 or 16",
                            last.span,
                        );
                    }
                    Ty::Error
                }
            };
        }
        if let Some(space) = pointer_template(&last.name)
            && let Some(args) = &last.targs
        {
            let Some(targs) = self.template_args(args, ctx) else { return Ty::Error };
            // `global_ptr<const T[]>` points to const elements.
            let written_const = matches!(args.first(), Some(ast::TemplateArg::Type(t)) if super::type_is_const(t));
            let is_const = space == AddrSpace::Constant || written_const;
            return match targs.as_slice() {
                [TArg::Type(Ty::Array(e, _))] => Ty::Ptr(e.clone(), space, is_const),
                [TArg::Type(t)] => Ty::Ptr(Rc::new(t.clone()), space, is_const),
                _ => Ty::Error,
            };
        }
        if matches!(&*last.name, "__kiln_atomic" | "__kiln_pipe" | "__kiln_pipe_storage")
            && let Some(args) = &last.targs
        {
            let Some(targs) = self.template_args(args, ctx) else { return Ty::Error };
            return match (&*last.name, targs.as_slice()) {
                ("__kiln_atomic", [TArg::Type(Ty::Scalar(s))])
                    if matches!(s, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::F32) =>
                {
                    Ty::Atomic(*s)
                }
                ("__kiln_pipe", [TArg::Type(t), TArg::Value(Konst::Int(a), _)]) => {
                    Ty::Pipe(Rc::new(t.clone()), *a == 1)
                }
                ("__kiln_pipe", [TArg::Type(t)]) => Ty::Pipe(Rc::new(t.clone()), false),
                ("__kiln_pipe_storage", [TArg::Type(t), TArg::Value(Konst::Int(n), _)]) => {
                    self.pipe_storage_class(t.clone(), *n, last.span)
                }
                _ => {
                    if report {
                        self.err(
                            codes::CXX_TEMPLATE,
                            format!("invalid template arguments for `{}`", last.name.trim_start_matches("__kiln_")),
                            last.span,
                        );
                    }
                    Ty::Error
                }
            };
        }
        if let Some(space) = storage_template(&last.name)
            && let Some(args) = &last.targs
        {
            let Some(targs) = self.template_args(args, ctx) else { return Ty::Error };
            return match targs.as_slice() {
                [TArg::Type(t)] => self.storage_class(space, t.clone(), last.span),
                _ => Ty::Error,
            };
        }
        // The library's pointer classes keep `const` on their element type (`global_ptr<const
        // int[]>`), which alias substitution would lose.
        if let Some(args) = &last.targs
            && matches!(&*last.name, "global_ptr" | "local_ptr" | "private_ptr" | "constant_ptr")
            && let [ast::TemplateArg::Type(t)] = args.as_slice()
            && super::type_is_const(t)
        {
            let mut base = q.clone();
            if let Some(l) = base.parts.last_mut() {
                l.targs = None;
            }
            if let Some(Ent::Template(tid)) = self.lookup_qual_quiet(&base, ctx)
                && let TemplateKind::Alias(_) = self.templates[tid.0 as usize].kind
                && &*self.nss[self.templates[tid.0 as usize].ctx.ns.0 as usize].name == "cl"
            {
                if let Ty::Ptr(e, sp, _) = self.named_type_inner(q, ctx, report) {
                    return Ty::Ptr(e, sp, true);
                }
            }
        }
        self.named_type_inner(q, ctx, report)
    }

    fn named_type_inner(&mut self, q: &ast::QualName, ctx: &Ctx, report: bool) -> Ty {
        match self.lookup_qual(q, ctx) {
            Some(Ent::Type(t)) => t,
            Some(Ent::Template(t)) => {
                // A class template's name inside its own definition is the current instance.
                if let Some(c) = self.current_instance(t, ctx) {
                    return Ty::Class(c);
                }
                if report {
                    self.err(codes::CXX_TEMPLATE, format!("`{}` needs template arguments", q.spelled()), q.span);
                }
                Ty::Error
            }
            Some(_) => {
                if report {
                    self.err(codes::CXX_NOT_A_TYPE, format!("`{}` is not a type", q.spelled()), q.span);
                }
                Ty::Error
            }
            None => {
                if report && !self.reported_inside(q.span) {
                    self.err(codes::UNDECLARED, format!("unknown type name `{}`", q.spelled()), q.span);
                }
                Ty::Error
            }
        }
    }

    /// Whether an error was already reported inside `span` (template arguments).
    pub fn reported_inside(&self, span: Span) -> bool {
        self.diags.iter().any(|d| {
            d.is_error() && d.span().is_some_and(|s| s.file == span.file && s.lo >= span.lo && s.hi <= span.hi)
        })
    }

    /// The storage class `cl::local<T>` (and the others): a class standing for `T` in `space`.
    fn storage_class(&mut self, space: AddrSpace, t: Ty, span: Span) -> Ty {
        if let Some(id) = self.storage_classes.get(&(space, t.clone())) {
            return Ty::Class(*id);
        }
        let word = match space {
            AddrSpace::Local => "local",
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            _ => "priv",
        };
        let name = format!("cl::{word}<{}>", self.display_ty(&t));
        let ctx = self.root_ctx();
        let id = self.new_class(name, ast::ClassKey::Struct, ctx, span);
        self.classes[id.0 as usize].special = Some(Special::Storage(space, t.clone()));
        self.classes[id.0 as usize].complete = true;
        self.storage_classes.insert((space, t), id);
        Ty::Class(id)
    }

    /// `cl::pipe_storage<T, N>`: a program-scope pipe of depth `N`.
    fn pipe_storage_class(&mut self, t: Ty, depth: i128, span: Span) -> Ty {
        let name = format!("cl::pipe_storage<{}, {depth}>", self.display_ty(&t));
        let ctx = self.root_ctx();
        let id = self.new_class(name, ast::ClassKey::Struct, ctx, span);
        self.classes[id.0 as usize].special = Some(Special::PipeStorage(t, depth.clamp(1, u32::MAX as i128) as u32));
        self.classes[id.0 as usize].complete = true;
        Ty::Class(id)
    }

    fn decltype(&mut self, e: &ast::Expr, ctx: &Ctx) -> Ty {
        match self.dry_type(e, ctx) {
            Some(t) => t,
            None => Ty::Error,
        }
    }

    /// Template arguments as written, resolved.
    pub fn template_args(&mut self, args: &[TemplateArg], ctx: &Ctx) -> Option<Vec<TArg>> {
        let mut out = Vec::new();
        for a in args {
            out.push(match a {
                TemplateArg::Type(t) => {
                    // A name that is a value (a constant) parses as a type name.
                    if let TypeKind::Named(q) = &t.kind
                        && let Some(Ent::Konst(k, ty)) = self.lookup_qual_quiet(q, ctx).map(|e| match e {
                            Ent::Enumerator(en, v) => Ent::Konst(Konst::Int(v), Ty::Enum(en)),
                            e => e,
                        })
                    {
                        TArg::Value(k, ty)
                    } else {
                        let ty = self.resolve_type(t, ctx);
                        if ty.is_error() {
                            return None;
                        }
                        TArg::Type(ty)
                    }
                }
                TemplateArg::Expr(e) => match self.const_eval_typed(e, ctx) {
                    Some((k, ty)) => TArg::Value(k, ty),
                    None => {
                        self.err_not_constant("a template argument", e.span);
                        return None;
                    }
                },
            });
        }
        Some(out)
    }

    pub fn lookup_qual_quiet(&mut self, q: &ast::QualName, ctx: &Ctx) -> Option<Ent> {
        let n = self.diags.len();
        let r = self.lookup_qual(q, ctx);
        self.diags.truncate(n);
        r
    }

    /// Instantiates a template for `args` (completing them with defaults).
    pub fn instantiate(&mut self, t: TemplateId, args: Vec<TArg>, span: Span) -> Option<Ent> {
        let tmpl_params = self.templates[t.0 as usize].params.clone();
        let tctx = self.templates[t.0 as usize].ctx.clone();
        // A parameter pack takes the remaining arguments (deduction gives them as one pack).
        let args = match tmpl_params.iter().position(|p| p.pack) {
            Some(i) if !(args.len() == i + 1 && matches!(args.get(i), Some(TArg::Pack(_)))) => {
                let mut a = args;
                let rest = if a.len() > i { a.split_off(i) } else { vec![] };
                a.push(TArg::Pack(rest));
                a
            }
            _ => args,
        };
        let mut env = Env { vars: HashMap::new(), parent: Some(tctx.env.clone()) };
        let mut full = Vec::new();
        for (i, p) in tmpl_params.iter().enumerate() {
            let a = match args.get(i) {
                Some(a) => a.clone(),
                None => {
                    let dctx = Ctx {
                        ns: tctx.ns,
                        class: tctx.class,
                        env: Rc::new(Env { vars: env.vars.clone(), parent: Some(tctx.env.clone()) }),
                    };
                    match &p.kind {
                        ast::TemplateParamKind::Type { default: Some(d) } => TArg::Type(self.resolve_type(d, &dctx)),
                        ast::TemplateParamKind::Value { default: Some(d), ty } => {
                            let want = self.resolve_type(ty, &dctx);
                            match self.const_eval(d, &dctx) {
                                Some(k) => TArg::Value(convert_konst(k, &want), want),
                                None => {
                                    self.err_not_constant("a default template argument", d.span);
                                    return None;
                                }
                            }
                        }
                        _ => {
                            let name = self.templates[t.0 as usize].name.clone();
                            self.err(codes::CXX_TEMPLATE, format!("too few template arguments for `{name}`"), span);
                            return None;
                        }
                    }
                }
            };
            let a = match (&p.kind, a) {
                (_, a @ TArg::Pack(_)) => a,
                (ast::TemplateParamKind::Value { ty, .. }, TArg::Value(k, _)) => {
                    let dctx = Ctx {
                        ns: tctx.ns,
                        class: tctx.class,
                        env: Rc::new(Env { vars: env.vars.clone(), parent: Some(tctx.env.clone()) }),
                    };
                    let want = self.resolve_type(ty, &dctx);
                    TArg::Value(convert_konst(k, &want), want)
                }
                (ast::TemplateParamKind::Type { .. }, a @ TArg::Type(_))
                | (ast::TemplateParamKind::Value { .. }, a @ TArg::Type(_)) => {
                    if matches!(p.kind, ast::TemplateParamKind::Value { .. }) {
                        let name = self.templates[t.0 as usize].name.clone();
                        self.err(
                            codes::CXX_TEMPLATE,
                            format!("template argument {} of `{name}` must be a value, not a type", i + 1),
                            span,
                        );
                        return None;
                    }
                    a
                }
                (ast::TemplateParamKind::Type { .. }, TArg::Value(..)) => {
                    let name = self.templates[t.0 as usize].name.clone();
                    self.err(
                        codes::CXX_TEMPLATE,
                        format!("template argument {} of `{name}` must be a type, not a value", i + 1),
                        span,
                    );
                    return None;
                }
            };
            env.vars.insert(p.name.clone(), a.clone());
            full.push(a);
        }
        if args.len() > tmpl_params.len() {
            let name = self.templates[t.0 as usize].name.clone();
            self.err(codes::CXX_TEMPLATE, format!("too many template arguments for `{name}`"), span);
            return None;
        }
        if let Some(e) = self.templates[t.0 as usize].instances.get(&full) {
            return Some(e.clone());
        }
        // Specializations: explicit ones match exactly, partial ones by deduction.
        let specs = self.templates[t.0 as usize].specializations.clone();
        let mut chosen: Option<(TemplateKind, Ctx, Env)> = None;
        for (args, kind, sctx) in self.templates[t.0 as usize].exact_specializations.clone() {
            if args == full {
                chosen = Some((kind, sctx.clone(), Env { vars: HashMap::new(), parent: Some(sctx.env.clone()) }));
                break;
            }
        }
        for (sparams, pattern, kind, sctx) in specs.iter().filter(|_| chosen.is_none()) {
            let mut bound = HashMap::new();
            if sparams.is_empty() {
                let Some(resolved) = self.template_args(pattern, sctx) else { continue };
                let n = tmpl_params.len().min(resolved.len());
                if resolved.len() == full.len() && resolved[..n] == full[..n] {
                    chosen = Some((
                        kind.clone(),
                        sctx.clone(),
                        Env { vars: HashMap::new(), parent: Some(sctx.env.clone()) },
                    ));
                    break;
                }
            } else if pattern.len() == full.len()
                && pattern.iter().zip(&full).all(|(p, a)| self.match_pattern(p, a, sparams, sctx, &mut bound))
                && sparams.iter().all(|p| bound.contains_key(&p.name))
            {
                chosen = Some((kind.clone(), sctx.clone(), Env { vars: bound, parent: Some(sctx.env.clone()) }));
                break;
            }
        }
        let (kind, base_ctx, env) = match chosen {
            Some(c) => c,
            None => (self.templates[t.0 as usize].kind.clone(), tctx.clone(), env),
        };
        let name = self.templates[t.0 as usize].name.clone();
        let display = format!("{name}<{}>", full.iter().map(|a| self.display_targ(a)).collect::<Vec<_>>().join(", "));
        let env = Rc::new(env);
        match kind {
            TemplateKind::Class(cd) => {
                let owner = self.templates[t.0 as usize].owner;
                let qual = match owner {
                    Some(o) => format!("{}::{display}", self.classes[o.0 as usize].name),
                    None => self.qualified_display(Scope::Ns(base_ctx.ns), &display),
                };
                let id = self.new_class(qual, cd.key, base_ctx.clone(), span);
                self.classes[id.0 as usize].origin = Some((t, full.clone()));
                self.templates[t.0 as usize].instances.insert(full, Ent::Type(Ty::Class(id)));
                if cd.members.is_none() {
                    self.err(codes::INCOMPLETE_TYPE, format!("`{display}` is declared but never defined"), span);
                    return Some(Ent::Type(Ty::Class(id)));
                }
                let cctx = Ctx { ns: base_ctx.ns, class: Some(id), env };
                self.classes[id.0 as usize].ctx = cctx.clone();
                self.define_class(id, &cd, &cctx);
                Some(Ent::Type(Ty::Class(id)))
            }
            TemplateKind::Alias(ty) => {
                let actx = Ctx { ns: base_ctx.ns, class: base_ctx.class, env };
                let r = self.resolve_type(&ty, &actx);
                let e = Ent::Type(r);
                self.templates[t.0 as usize].instances.insert(full, e.clone());
                Some(e)
            }
            TemplateKind::Func(def) => {
                let fctx = Ctx { ns: base_ctx.ns, class: base_ctx.class, env };
                let owner = self.templates[t.0 as usize].owner;
                let access = self.templates[t.0 as usize].access;
                let f = self.new_func(display.into(), def, fctx, owner, access, full.clone());
                let e = Ent::Funcs(vec![f], vec![]);
                self.templates[t.0 as usize].instances.insert(full, e.clone());
                Some(e)
            }
        }
    }

    /// Matches a partial specialization's argument pattern against an argument.
    fn match_pattern(
        &mut self,
        p: &TemplateArg,
        a: &TArg,
        params: &[ast::TemplateParam],
        ctx: &Ctx,
        bound: &mut HashMap<Name, TArg>,
    ) -> bool {
        match (p, a) {
            (TemplateArg::Type(pt), TArg::Type(at)) => self.deduce_type(pt, at, params, ctx, bound),
            (TemplateArg::Type(pt), TArg::Value(k, ty)) => {
                if let TypeKind::Named(q) = &pt.kind
                    && q.is_simple()
                    && params.iter().any(|x| x.name == q.parts[0].name)
                {
                    return bind(bound, &q.parts[0].name, TArg::Value(k.clone(), ty.clone()));
                }
                false
            }
            (TemplateArg::Expr(pe), TArg::Value(k, ty)) => {
                if let ast::ExprKind::Name(q) = &pe.kind
                    && q.is_simple()
                    && params.iter().any(|x| x.name == q.parts[0].name)
                {
                    return bind(bound, &q.parts[0].name, TArg::Value(k.clone(), ty.clone()));
                }
                self.const_eval(pe, ctx).is_some_and(|v| &v == k)
            }
            _ => false,
        }
    }

    /// Deduces template parameters from a written type `p` matched against the type `a`.
    pub fn deduce_type(
        &mut self,
        p: &ast::Type,
        a: &Ty,
        params: &[ast::TemplateParam],
        ctx: &Ctx,
        bound: &mut HashMap<Name, TArg>,
    ) -> bool {
        let is_param =
            |n: &str| params.iter().any(|x| &*x.name == n && matches!(x.kind, ast::TemplateParamKind::Type { .. }));
        match &p.kind {
            TypeKind::Named(q) if q.is_simple() && is_param(&q.parts[0].name) => {
                bind(bound, &q.parts[0].name, TArg::Type(a.clone()))
            }
            TypeKind::Qualified { inner, .. } => self.deduce_type(inner, a, params, ctx, bound),
            TypeKind::Ref(inner, _) => self.deduce_type(inner, a.strip_ref(), params, ctx, bound),
            TypeKind::Pointer(inner) => match a {
                Ty::Ptr(pa, _, _) => self.deduce_type(inner, pa, params, ctx, bound),
                Ty::Array(e, _) => self.deduce_type(inner, e, params, ctx, bound),
                _ => false,
            },
            TypeKind::Array(inner, size) => match a {
                Ty::Array(e, n) => {
                    if !self.deduce_type(inner, e, params, ctx, bound) {
                        return false;
                    }
                    match (size, n) {
                        (Some(s), Some(n)) => {
                            if let ast::ExprKind::Name(q) = &s.kind
                                && q.is_simple()
                                && params.iter().any(|x| x.name == q.parts[0].name)
                            {
                                return bind(
                                    bound,
                                    &q.parts[0].name,
                                    TArg::Value(Konst::Int(i128::from(*n)), Ty::SIZE),
                                );
                            }
                            true
                        }
                        _ => true,
                    }
                }
                _ => false,
            },
            TypeKind::Named(q) if q.last().targs.is_some() => {
                // `X<P...>` against an instance of `X`, or `vec<T, N>` against a vector.
                let last = q.last();
                let pargs = last.targs.clone().unwrap_or_default();
                if pointer_template(&last.name).is_some() {
                    let Ty::Ptr(e, _, _) = a else { return false };
                    return match pargs.as_slice() {
                        [TemplateArg::Type(t)] => match &t.kind {
                            TypeKind::Array(inner, None) => self.deduce_type(inner, e, params, ctx, bound),
                            _ => self.deduce_type(t, e, params, ctx, bound),
                        },
                        _ => false,
                    };
                }
                // An alias template is transparent: its definition with the pattern's arguments.
                let mut base = q.clone();
                if let Some(l) = base.parts.last_mut() {
                    l.targs = None;
                }
                if let Some(Ent::Template(at)) = self.lookup_qual_quiet(&base, ctx)
                    && let TemplateKind::Alias(body) = self.templates[at.0 as usize].kind.clone()
                {
                    let aparams = self.templates[at.0 as usize].params.clone();
                    let subst: HashMap<Name, TemplateArg> =
                        aparams.iter().map(|p| p.name.clone()).zip(pargs.iter().cloned()).collect();
                    let expanded = substitute(&body, &subst);
                    return self.deduce_type(&expanded, a, params, ctx, bound);
                }
                if (&*last.name == "vec" || &*last.name == "__kiln_vector")
                    && let Ty::Vector(s, n) = a
                    && pargs.len() == 2
                {
                    let ok = self.match_pattern(&pargs[0], &TArg::Type(Ty::Scalar(*s)), params, ctx, bound);
                    return ok
                        && self.match_pattern(
                            &pargs[1],
                            &TArg::Value(Konst::Int(i128::from(*n)), Ty::SIZE),
                            params,
                            ctx,
                            bound,
                        );
                }
                let Ty::Class(ac) = a else { return false };
                let Some((at, aargs)) = self.classes[ac.0 as usize].origin.clone() else { return false };
                let mut base = q.clone();
                if let Some(l) = base.parts.last_mut() {
                    l.targs = None;
                }
                match self.lookup_qual_quiet(&base, ctx) {
                    Some(Ent::Template(pt)) if pt == at => {}
                    // The injected name of a class template inside its own definition.
                    Some(Ent::Type(Ty::Class(c)))
                        if self.classes[c.0 as usize].origin.as_ref().is_some_and(|(t, _)| *t == at) => {}
                    _ => return false,
                }
                pargs.iter().zip(&aargs).all(|(pp, aa)| self.match_pattern(pp, aa, params, ctx, bound))
            }
            _ => {
                // A type without parameters: it must equal the argument.
                let all_bound = Ctx {
                    ns: ctx.ns,
                    class: ctx.class,
                    env: Rc::new(Env { vars: bound.clone(), parent: Some(ctx.env.clone()) }),
                };
                let t = self.resolve_type_quiet(p, &all_bound);
                &t == a.strip_ref()
            }
        }
    }

    // ----- display -----

    pub fn display_ty(&self, t: &Ty) -> String {
        match t {
            Ty::Void => "void".into(),
            Ty::Scalar(s) => scalar_name(*s).into(),
            Ty::Vector(s, n) => format!("{}{n}", scalar_name(*s)),
            Ty::Ptr(p, sp, c) => {
                let space = match sp {
                    AddrSpace::Generic => String::new(),
                    s => format!("{} ", s.keyword()),
                };
                format!("{space}{}{} *", if *c { "const " } else { "" }, self.display_ty(p))
            }
            Ty::Array(e, n) => match n {
                Some(n) => format!("{}[{n}]", self.display_ty(e)),
                None => format!("{}[]", self.display_ty(e)),
            },
            Ty::Class(c) => self.classes[c.0 as usize].name.clone(),
            Ty::Enum(e) => self.enums[e.0 as usize].name.clone(),
            Ty::Atomic(s) => format!("atomic_{}", scalar_name(*s)),
            Ty::Pipe(p, w) => format!("{} pipe {}", if *w { "write_only" } else { "read_only" }, self.display_ty(p)),
            Ty::Opaque(o) => o.name().into(),
            Ty::NullPtr => "nullptr_t".into(),
            Ty::Ref(t, c) => format!("{}{} &", if *c { "const " } else { "" }, self.display_ty(t)),
            Ty::Error => "<error>".into(),
        }
    }

    pub fn display_targ(&self, a: &TArg) -> String {
        match a {
            TArg::Type(t) => self.display_ty(t),
            TArg::Value(Konst::Int(v), Ty::Scalar(Scalar::Bool)) => (if *v != 0 { "true" } else { "false" }).into(),
            TArg::Value(Konst::Int(v), _) => v.to_string(),
            TArg::Value(Konst::Float(f), _) => f.to_string(),
            TArg::Value(Konst::Aggregate(_), _) => "{...}".into(),
            TArg::Pack(v) => v.iter().map(|a| self.display_targ(a)).collect::<Vec<_>>().join(", "),
        }
    }
}

fn bind(bound: &mut HashMap<Name, TArg>, n: &Name, a: TArg) -> bool {
    match bound.get(n) {
        Some(b) => *b == a,
        None => {
            bound.insert(n.clone(), a);
            true
        }
    }
}

/// The entity a template argument stands for inside the template.
pub fn targ_ent(a: &TArg) -> Ent {
    match a {
        TArg::Type(t) => Ent::Type(t.clone()),
        TArg::Value(k, t) => Ent::Konst(k.clone(), t.clone()),
        // A pack used without `...` (an error reported where it is used).
        TArg::Pack(_) => Ent::Type(Ty::Error),
    }
}

/// A compile-time value converted to a parameter's type.
pub fn convert_konst(k: Konst, to: &Ty) -> Konst {
    match (k, to) {
        (Konst::Int(v), Ty::Scalar(s)) if s.is_integer() || *s == Scalar::Bool => {
            Konst::Int(crate::ty::wrap_int(v, *s))
        }
        (Konst::Float(f), Ty::Scalar(s)) if s.is_integer() => Konst::Int(crate::ty::wrap_int(f.trunc() as i128, *s)),
        (Konst::Int(v), Ty::Scalar(s)) if s.is_float() => Konst::Float(round_float(v as f64, *s)),
        (Konst::Float(f), Ty::Scalar(s)) if s.is_float() => Konst::Float(round_float(f, *s)),
        (k, _) => k,
    }
}

pub fn round_float(f: f64, s: Scalar) -> f64 {
    if s == Scalar::F32 { f as f32 as f64 } else { f }
}

/// The library's pointer classes (`global_ptr<T>`): OpenCL C pointers into an address space.
fn pointer_template(n: &str) -> Option<AddrSpace> {
    match n {
        "__kiln_ptr_global" => Some(AddrSpace::Global),
        "__kiln_ptr_local" => Some(AddrSpace::Local),
        "__kiln_ptr_private" => Some(AddrSpace::Private),
        "__kiln_ptr_constant" => Some(AddrSpace::Constant),
        _ => None,
    }
}

/// `local`, `global`, `constant`, `priv` storage class templates of the library.
fn storage_template(n: &str) -> Option<AddrSpace> {
    match n {
        "__kiln_local" => Some(AddrSpace::Local),
        "__kiln_global" => Some(AddrSpace::Global),
        "__kiln_constant" => Some(AddrSpace::Constant),
        "__kiln_priv" => Some(AddrSpace::Private),
        _ => None,
    }
}

/// OpenCL C's built-in type names (`uint`, `float4`, `size_t`, `event_t`, ...).
pub fn builtin_type(n: &str) -> Option<Ty> {
    if let Some(rest) = n.strip_prefix("atomic_") {
        let s = match rest {
            "int" => Scalar::I32,
            "uint" => Scalar::U32,
            "long" => Scalar::I64,
            "ulong" => Scalar::U64,
            "float" => Scalar::F32,
            _ => return None,
        };
        return Some(Ty::Atomic(s));
    }
    kiln_hir::types::builtin_type_name(n).or_else(|| kiln_hir::types::builtin_type_name_cl2(n)).map(|t| from_hir(&t))
}

/// The scalar type basic type words name (`unsigned short`, `long int`).
pub fn words_type(ws: &[TypeWord]) -> Option<Ty> {
    let count = |w: TypeWord| ws.iter().filter(|x| **x == w).count();
    let signed = count(TypeWord::Signed);
    let unsigned = count(TypeWord::Unsigned);
    if signed + unsigned > 1 {
        return None;
    }
    let u = unsigned == 1;
    let only = |allowed: &[TypeWord]| {
        ws.iter().all(|w| allowed.contains(w) || matches!(w, TypeWord::Signed | TypeWord::Unsigned))
    };
    if count(TypeWord::Void) == 1 && ws.len() == 1 {
        return Some(Ty::Void);
    }
    if count(TypeWord::Bool) == 1 && ws.len() == 1 {
        return Some(Ty::BOOL);
    }
    if count(TypeWord::Float) == 1 && ws.len() == 1 {
        return Some(Ty::Scalar(Scalar::F32));
    }
    if count(TypeWord::Double) == 1 && ws.len() == 1 {
        return Some(Ty::Scalar(Scalar::F64));
    }
    if count(TypeWord::Half) == 1 && ws.len() == 1 {
        return Some(Ty::Scalar(Scalar::F16));
    }
    if count(TypeWord::Char) == 1 && only(&[TypeWord::Char]) {
        return Some(Ty::Scalar(if u { Scalar::U8 } else { Scalar::I8 }));
    }
    if count(TypeWord::Short) == 1 && only(&[TypeWord::Short, TypeWord::Int]) && count(TypeWord::Int) <= 1 {
        return Some(Ty::Scalar(if u { Scalar::U16 } else { Scalar::I16 }));
    }
    if count(TypeWord::Long) == 1 && only(&[TypeWord::Long, TypeWord::Int]) && count(TypeWord::Int) <= 1 {
        return Some(Ty::Scalar(if u { Scalar::U64 } else { Scalar::I64 }));
    }
    if count(TypeWord::Int) <= 1 && only(&[TypeWord::Int]) {
        return Some(Ty::Scalar(if u { Scalar::U32 } else { Scalar::I32 }));
    }
    None
}

/// A written type with template parameters replaced by written arguments (the expansion of an
/// alias template for deduction).
fn substitute(t: &ast::Type, subst: &HashMap<Name, TemplateArg>) -> ast::Type {
    let kind = match &t.kind {
        TypeKind::Named(q) if q.is_simple() => match subst.get(&q.parts[0].name) {
            Some(TemplateArg::Type(x)) => return x.clone(),
            _ => t.kind.clone(),
        },
        TypeKind::Named(q) => {
            let mut q = q.clone();
            for p in &mut q.parts {
                if let Some(args) = &mut p.targs {
                    for a in args.iter_mut() {
                        if let TemplateArg::Type(x) = a {
                            *x = substitute(x, subst);
                        } else if let TemplateArg::Expr(e) = a
                            && let ast::ExprKind::Name(n) = &e.kind
                            && n.is_simple()
                            && let Some(r) = subst.get(&n.parts[0].name)
                        {
                            *a = r.clone();
                        }
                    }
                }
            }
            TypeKind::Named(q)
        }
        TypeKind::Pointer(i) => TypeKind::Pointer(Box::new(substitute(i, subst))),
        TypeKind::Ref(i, r) => TypeKind::Ref(Box::new(substitute(i, subst)), *r),
        TypeKind::Array(i, n) => TypeKind::Array(Box::new(substitute(i, subst)), n.clone()),
        TypeKind::Qualified { inner, is_const, is_volatile, space } => TypeKind::Qualified {
            inner: Box::new(substitute(inner, subst)),
            is_const: *is_const,
            is_volatile: *is_volatile,
            space: *space,
        },
        other => other.clone(),
    };
    ast::Type { kind, span: t.span }
}
