//! The elaborator: C++ declarations, names, types, templates and calls resolved, and the
//! program written as OpenCL C that the OpenCL C front end then checks into the HIR.
//!
//! C++ for OpenCL maps onto OpenCL C 2.0 as follows:
//! - a class is a `struct` of its data members (a base class is an embedded first member); a
//!   class without data members (a function object, a lambda without copies) has no storage;
//! - every function call is *inlined* here: parameters become variables (or, for references
//!   and unchanged arguments, the argument itself), `this` is the object's l-value, `return`
//!   becomes an assignment and a forward `goto` past the inlined body. Kernels are the only
//!   functions left in the OpenCL C program. OpenCL C++ forbids recursion, so inlining ends;
//! - templates are instantiated for their arguments, overloads and operators resolved by C++'s
//!   ranking of conversions, `constexpr` values computed ([`crate::consteval`]);
//! - built-in operations on OpenCL C types (operators, vector components, built-in functions)
//!   are written as OpenCL C, and their types are OpenCL C's own answer
//!   ([`kiln_frontend::sema::type_of_expr`]).
//!
//! Spans of the written C point into the C++ source, so the OpenCL C front end's diagnostics
//! land on the C++ that caused them.

pub mod call;
mod emit;
pub mod expr;
pub mod lookup;
pub mod stmt;

use crate::ast::{self, Name};
use crate::ty::{CNames, ClassId, EnumId, Konst, TArg, Ty};
use kiln_diagnostics::{Diagnostic, Span, codes};
use kiln_frontend::Options;
use kiln_frontend::ast as c;
use kiln_hir::types::{AddrSpace, Scalar};
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NsId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TemplateId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);

/// What a name refers to.
#[derive(Clone, Debug)]
pub enum Ent {
    Ns(NsId),
    Type(Ty),
    Enumerator(EnumId, i128),
    /// An overload set: functions and function templates.
    Funcs(Vec<FuncId>, Vec<TemplateId>),
    /// A class or alias template.
    Template(TemplateId),
    Global(GlobalId),
    /// An OpenCL C built-in function (`cl::sin` is `::sin`).
    Builtin(Name),
    /// A compile-time value (a `constexpr` variable, a static constant member, a template
    /// value parameter).
    Konst(Konst, Ty),
}

pub struct Namespace {
    pub name: Name,
    pub parent: Option<NsId>,
    pub members: HashMap<Name, Ent>,
    pub using: Vec<NsId>,
}

/// Where a declaration was written: the scope its names are looked up in.
#[derive(Clone)]
pub struct Ctx {
    pub ns: NsId,
    pub class: Option<ClassId>,
    pub env: Rc<Env>,
}

/// Template parameters bound to arguments, innermost first.
#[derive(Default)]
pub struct Env {
    pub vars: HashMap<Name, TArg>,
    pub parent: Option<Rc<Env>>,
}

impl Env {
    pub fn get(&self, n: &str) -> Option<&TArg> {
        self.vars.get(n).or_else(|| self.parent.as_ref().and_then(|p| p.get(n)))
    }
}

pub struct Field {
    pub name: Name,
    pub ty: Ty,
    pub init: Option<ast::Init>,
    pub access: ast::Access,
    pub span: Span,
}

/// A closure's captures that live in the closure's type rather than its storage.
#[derive(Clone, Default)]
pub struct ClosureInfo {
    /// By-reference captures: the captured l-values as the lambda saw them.
    pub by_ref: Vec<(Name, expr::Val)>,
    /// The object `this` named where the lambda was written.
    pub this: Option<expr::Val>,
    /// The lambda's declaration context (where its body's names are looked up).
    pub ctx: Option<Ctx>,
    pub lambda: Option<Rc<ast::Lambda>>,
    /// Frames of locals visible where the lambda was written (for names it captures by
    /// default and reads only as constants).
    pub outer_consts: HashMap<Name, (Konst, Ty)>,
}

pub struct Class {
    pub name: String,
    pub tag: Name,
    pub key: ast::ClassKey,
    pub ctx: Ctx,
    pub bases: Vec<ClassId>,
    pub fields: Vec<Field>,
    pub members: HashMap<Name, Ent>,
    pub ctors: Vec<FuncId>,
    pub ctor_templates: Vec<TemplateId>,
    pub has_user_ctor: bool,
    pub complete: bool,
    pub emitted: bool,
    pub closure: Option<ClosureInfo>,
    /// The library's storage classes and wrappers that map onto OpenCL C types directly.
    pub special: Option<Special>,
    /// The template and arguments this class was instantiated from.
    pub origin: Option<(TemplateId, Vec<TArg>)>,
    pub span: Span,
}

/// Library classes that are OpenCL C constructs rather than structs.
#[derive(Clone, Debug, PartialEq)]
pub enum Special {
    /// `cl::local<T>`, `cl::global<T>`, `cl::constant<T>`, `cl::priv<T>`: a `T` in that
    /// address space.
    Storage(AddrSpace, Ty),
    /// `cl::pipe_storage<T, N>`: a program-scope pipe of packets `T`, `N` deep.
    PipeStorage(Ty, u32),
}

pub struct Func {
    pub name: Name,
    pub def: Rc<ast::FuncDef>,
    pub ctx: Ctx,
    /// The class whose member this is (not for friends).
    pub owner: Option<ClassId>,
    pub access: ast::Access,
    /// Set for a function instantiated from a template, with its arguments.
    pub targs: Vec<TArg>,
}

#[derive(Clone)]
pub enum TemplateKind {
    Class(Rc<ast::ClassDef>),
    Func(Rc<ast::FuncDef>),
    Alias(ast::Type),
}

pub struct Template {
    pub name: Name,
    pub params: Vec<ast::TemplateParam>,
    pub kind: TemplateKind,
    pub ctx: Ctx,
    /// For a member template: the class it belongs to.
    pub owner: Option<ClassId>,
    pub access: ast::Access,
    pub instances: HashMap<Vec<TArg>, Ent>,
    /// Explicit and partial specializations: their parameters, arguments as written, and
    /// definition.
    pub specializations: Vec<(Vec<ast::TemplateParam>, Vec<ast::TemplateArg>, TemplateKind, Ctx)>,
    /// Explicit specializations whose arguments were deduced from their parameter types
    /// (`template<> void f(global_ptr<float[]> p)`).
    pub exact_specializations: Vec<(Vec<TArg>, TemplateKind, Ctx)>,
    pub span: Span,
}

pub struct Global {
    /// Its value, for a constant table (`constexpr` evaluation reads it).
    pub konst: Option<Konst>,
    pub name: Name,
    pub cname: Name,
    pub ty: Ty,
    pub space: AddrSpace,
    pub is_const: bool,
}

pub struct EnumInfo {
    pub name: String,
    /// The namespace it is declared in (argument-dependent lookup of its operators).
    pub ns: NsId,
    pub scoped: bool,
    pub scalar: Scalar,
    pub members: HashMap<Name, i128>,
}

/// The elaborator's state.
pub struct Elab<'o> {
    pub opts: &'o Options,
    pub diags: Vec<Diagnostic>,
    pub nss: Vec<Namespace>,
    pub classes: Vec<Class>,
    pub enums: Vec<EnumInfo>,
    pub funcs: Vec<Func>,
    pub templates: Vec<Template>,
    pub globals: Vec<Global>,
    /// The OpenCL C program being written: struct definitions, program-scope variables, then
    /// kernels.
    pub out_structs: Vec<c::ExternalDecl>,
    pub out_globals: Vec<c::ExternalDecl>,
    pub out_kernels: Vec<c::ExternalDecl>,
    pub out_pragmas: Vec<c::ExternalDecl>,
    /// Unique-name counter for temporaries and inlined locals.
    pub counter: u32,
    /// C names already taken at program scope.
    pub taken: HashMap<String, u32>,
    /// The body being written, when inside one.
    pub fx: Option<stmt::FnState>,
    pub type_cache: HashMap<String, Option<Ty>>,
    /// Kernels, elaborated after every declaration is registered.
    pub kernels: Vec<(Rc<ast::FuncDef>, Ctx)>,
    /// Non-template functions, checked once even when never called.
    pub plain_funcs: Vec<FuncId>,
    pub used_funcs: std::collections::HashSet<FuncId>,
    /// The class a nested class is declared in.
    pub outer_of: HashMap<ClassId, ClassId>,
    /// The library's storage classes made so far (`cl::local<int>`).
    pub storage_classes: HashMap<(AddrSpace, Ty), ClassId>,
    /// What the reference members of objects are bound to: (the object as OpenCL C, member).
    pub ref_members: HashMap<(String, Name), expr::Val>,
}

impl CNames for Elab<'_> {
    fn class_tag(&self, c: ClassId) -> Rc<str> {
        self.classes[c.0 as usize].tag.clone()
    }

    fn enum_scalar(&self, e: EnumId) -> Scalar {
        self.enums[e.0 as usize].scalar
    }
}

/// Elaborates a parsed translation unit into an OpenCL C translation unit.
pub fn elaborate(items: &[ast::Item], opts: &Options) -> (c::TranslationUnit, Vec<Diagnostic>) {
    let mut e = Elab {
        opts,
        diags: Vec::new(),
        nss: vec![Namespace { name: "".into(), parent: None, members: HashMap::new(), using: vec![] }],
        classes: Vec::new(),
        enums: Vec::new(),
        funcs: Vec::new(),
        templates: Vec::new(),
        globals: Vec::new(),
        out_structs: Vec::new(),
        out_globals: Vec::new(),
        out_kernels: Vec::new(),
        out_pragmas: Vec::new(),
        counter: 0,
        taken: HashMap::new(),
        fx: None,
        type_cache: HashMap::new(),
        kernels: Vec::new(),
        plain_funcs: Vec::new(),
        used_funcs: Default::default(),
        outer_of: HashMap::new(),
        storage_classes: HashMap::new(),
        ref_members: HashMap::new(),
    };
    let ctx = e.root_ctx();
    e.items(items, &ctx);
    let kernels = std::mem::take(&mut e.kernels);
    for (k, ctx) in &kernels {
        e.kernel(k, ctx);
    }
    // Functions never called are still checked (their diagnostics, not their code).
    let plain = std::mem::take(&mut e.plain_funcs);
    for f in plain {
        if !e.used_funcs.contains(&f) {
            e.check_unused(f);
        }
    }
    let mut tu = c::TranslationUnit { items: Vec::new() };
    tu.items.extend(e.out_pragmas);
    tu.items.extend(e.out_structs);
    tu.items.extend(e.out_globals);
    tu.items.extend(e.out_kernels);
    (tu, e.diags)
}

impl<'o> Elab<'o> {
    pub fn root_ctx(&self) -> Ctx {
        Ctx { ns: NsId(0), class: None, env: Rc::new(Env::default()) }
    }

    pub fn err(&mut self, code: kiln_diagnostics::Code, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::error(code, msg.into()).at(span));
    }

    pub fn fresh(&mut self, base: &str) -> Name {
        self.counter += 1;
        let base: String = base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        format!("{}_{}", base.trim_matches('_'), self.counter).into()
    }

    /// A program-scope C name for `wanted`, unique in the program.
    pub fn program_name(&mut self, wanted: &str) -> Name {
        let clean: String =
            wanted.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let clean = clean.trim_matches('_').to_string();
        let n = self.taken.entry(clean.clone()).or_insert(0);
        *n += 1;
        if *n == 1 { clean.into() } else { format!("{clean}_{n}").into() }
    }

    // ----- registration -----

    pub fn add_member(&mut self, scope: Scope, name: Name, ent: Ent, span: Span) {
        let map = match scope {
            Scope::Ns(n) => &mut self.nss[n.0 as usize].members,
            Scope::Class(c) => &mut self.classes[c.0 as usize].members,
        };
        match (map.get_mut(&name), ent) {
            (Some(Ent::Funcs(fs, ts)), Ent::Funcs(nf, nt)) => {
                fs.extend(nf);
                ts.extend(nt);
            }
            (Some(Ent::Ns(_)), Ent::Ns(_)) => {}
            (Some(_), Ent::Funcs(..)) | (Some(Ent::Funcs(..)), _) => {
                self.err(codes::REDEFINITION, format!("redefinition of `{name}` as a different kind of entity"), span);
            }
            (Some(Ent::Type(_)), Ent::Type(_)) => {
                // A repeated typedef or a class defined after its declaration: the last wins.
                let _ = map.insert(name, Ent::Type(Ty::Error));
                self.err(codes::REDEFINITION, "redefinition of a type".to_string(), span);
            }
            (Some(_), e) => {
                map.insert(name.clone(), e);
            }
            (None, e) => {
                map.insert(name, e);
            }
        }
    }

    fn items(&mut self, items: &[ast::Item], ctx: &Ctx) {
        for it in items {
            self.item(it, ctx);
        }
    }

    fn item(&mut self, it: &ast::Item, ctx: &Ctx) {
        match it {
            ast::Item::Namespace { name, items, .. } => {
                let id = match name {
                    Some((n, _)) => match self.nss[ctx.ns.0 as usize].members.get(n) {
                        Some(Ent::Ns(id)) => *id,
                        _ => {
                            let id = NsId(self.nss.len() as u32);
                            self.nss.push(Namespace {
                                name: n.clone(),
                                parent: Some(ctx.ns),
                                members: HashMap::new(),
                                using: vec![],
                            });
                            self.nss[ctx.ns.0 as usize].members.insert(n.clone(), Ent::Ns(id));
                            id
                        }
                    },
                    None => {
                        // An unnamed namespace: its names are visible in the enclosing one.
                        let id = NsId(self.nss.len() as u32);
                        self.nss.push(Namespace {
                            name: "".into(),
                            parent: Some(ctx.ns),
                            members: HashMap::new(),
                            using: vec![],
                        });
                        self.nss[ctx.ns.0 as usize].using.push(id);
                        id
                    }
                };
                let inner = Ctx { ns: id, class: None, env: ctx.env.clone() };
                self.items(items, &inner);
            }
            ast::Item::UsingNamespace(q, span) => match self.lookup_qual(q, ctx) {
                Some(Ent::Ns(id)) => self.nss[ctx.ns.0 as usize].using.push(id),
                _ => self.err(codes::CXX_NOT_A_TYPE, format!("`{}` is not a namespace", q.spelled()), *span),
            },
            ast::Item::Using(q, span) => match self.lookup_qual(q, ctx) {
                Some(ent) => {
                    let name = q.last().name.clone();
                    self.add_member(Scope::Ns(ctx.ns), name, ent, *span);
                }
                None => {
                    let name = q.last().name.clone();
                    if lookup::is_builtin_function(&name) {
                        self.add_member(Scope::Ns(ctx.ns), name.clone(), Ent::Builtin(name), *span);
                    } else {
                        self.err(codes::UNDECLARED, format!("no declaration of `{}`", q.spelled()), *span);
                    }
                }
            },
            ast::Item::Alias { name, tparams, ty, span } => {
                if let Some(tps) = tparams {
                    let t = Template {
                        name: name.clone(),
                        params: tps.clone(),
                        kind: TemplateKind::Alias(ty.clone()),
                        ctx: ctx.clone(),
                        owner: None,
                        access: ast::Access::Public,
                        instances: HashMap::new(),
                        specializations: vec![],
                        exact_specializations: vec![],
                        span: *span,
                    };
                    let id = TemplateId(self.templates.len() as u32);
                    self.templates.push(t);
                    self.add_member(Scope::Ns(ctx.ns), name.clone(), Ent::Template(id), *span);
                } else {
                    let t = self.resolve_type(ty, ctx);
                    self.add_member(Scope::Ns(ctx.ns), name.clone(), Ent::Type(t), *span);
                }
            }
            ast::Item::Class(cd) => {
                self.class_item(cd, ctx, Scope::Ns(ctx.ns), ast::Access::Public);
            }
            ast::Item::Enum(ed) => {
                self.enum_def(ed, ctx, Scope::Ns(ctx.ns));
            }
            ast::Item::Func(fd) => self.func_item(fd, ctx),
            ast::Item::Var(v) => self.global_var(v, ctx),
            ast::Item::StaticAssert(sa) => self.static_assert(sa, ctx),
            ast::Item::Pragma(p) => self.out_pragmas.push(c::ExternalDecl::Pragma(p.clone())),
            ast::Item::Empty => {}
        }
    }

    /// Registers a class definition (or a class template) in `scope`.
    pub fn class_item(
        &mut self,
        cd: &Rc<ast::ClassDef>,
        ctx: &Ctx,
        scope: Scope,
        access: ast::Access,
    ) -> Option<ClassId> {
        let name = cd.name.as_ref().map(|q| q.last().name.clone());
        let is_spec = cd.name.as_ref().is_some_and(|q| q.last().targs.is_some());
        if let Some(tps) = &cd.tparams
            && (!tps.is_empty() || is_spec)
        {
            let Some(n) = name else {
                self.err(codes::CXX_TEMPLATE, "a class template needs a name", cd.span);
                return None;
            };
            if is_spec {
                // An explicit (`template<>`) or partial specialization of a template declared
                // before.
                let Some(q) = &cd.name else { return None };
                let mut base = q.clone();
                if let Some(last) = base.parts.last_mut() {
                    last.targs = None;
                }
                match self.lookup_qual(&base, ctx) {
                    Some(Ent::Template(t)) => {
                        let targs = q.last().targs.clone().unwrap_or_default();
                        self.templates[t.0 as usize].specializations.push((
                            tps.clone(),
                            targs,
                            TemplateKind::Class(cd.clone()),
                            ctx.clone(),
                        ));
                    }
                    _ => self.err(codes::CXX_TEMPLATE, format!("`{n}` is not a class template"), q.span),
                }
                return None;
            }
            // A template declared again (a forward declaration, then the definition).
            if let Some(Ent::Template(t)) = self.scope_member(scope, &n) {
                if cd.members.is_some() {
                    self.templates[t.0 as usize].kind = TemplateKind::Class(cd.clone());
                    self.templates[t.0 as usize].params = tps.clone();
                }
                return None;
            }
            let t = Template {
                name: n.clone(),
                params: tps.clone(),
                kind: TemplateKind::Class(cd.clone()),
                ctx: ctx.clone(),
                owner: match scope {
                    Scope::Class(c) => Some(c),
                    Scope::Ns(_) => None,
                },
                access,
                instances: HashMap::new(),
                specializations: vec![],
                exact_specializations: vec![],
                span: cd.span,
            };
            let id = TemplateId(self.templates.len() as u32);
            self.templates.push(t);
            self.add_member(scope, n, Ent::Template(id), cd.span);
            return None;
        }
        // A plain class: declared (forward) or defined.
        let existing = name.as_ref().and_then(|n| match self.scope_member(scope, n) {
            Some(Ent::Type(Ty::Class(c))) => Some(c),
            _ => None,
        });
        let id = match existing {
            Some(c) => c,
            None => {
                let display = match (&name, scope) {
                    (Some(n), _) => self.qualified_display(scope, n),
                    (None, _) => "<anonymous>".to_string(),
                };
                let id = self.new_class(display, cd.key, ctx.clone(), cd.span);
                if let Scope::Class(outer) = scope {
                    self.outer_of.insert(id, outer);
                }
                if let Some(n) = &name {
                    self.add_member(scope, n.clone(), Ent::Type(Ty::Class(id)), cd.span);
                }
                id
            }
        };
        if cd.members.is_some() {
            if self.classes[id.0 as usize].complete {
                self.err(
                    codes::REDEFINITION,
                    format!("redefinition of class `{}`", self.classes[id.0 as usize].name),
                    cd.span,
                );
                return Some(id);
            }
            let inner_ctx = Ctx { ns: ctx.ns, class: Some(id), env: ctx.env.clone() };
            self.classes[id.0 as usize].ctx = inner_ctx.clone();
            self.define_class(id, cd, &inner_ctx);
        }
        Some(id)
    }

    pub fn qualified_display(&self, scope: Scope, n: &str) -> String {
        match scope {
            Scope::Ns(ns) => {
                let mut parts = vec![n.to_string()];
                let mut cur = Some(ns);
                while let Some(c) = cur {
                    let nsd = &self.nss[c.0 as usize];
                    if !nsd.name.is_empty() {
                        parts.push(nsd.name.to_string());
                    }
                    cur = nsd.parent;
                }
                parts.reverse();
                parts.join("::")
            }
            Scope::Class(c) => format!("{}::{n}", self.classes[c.0 as usize].name),
        }
    }

    pub fn new_class(&mut self, name: String, key: ast::ClassKey, ctx: Ctx, span: Span) -> ClassId {
        let id = ClassId(self.classes.len() as u32);
        let tag = self.program_name(&name);
        self.classes.push(Class {
            name,
            tag,
            key,
            ctx,
            bases: vec![],
            fields: vec![],
            members: HashMap::new(),
            ctors: vec![],
            ctor_templates: vec![],
            has_user_ctor: false,
            complete: false,
            emitted: false,
            closure: None,
            special: None,
            origin: None,
            span,
        });
        id
    }

    pub fn scope_member(&self, scope: Scope, n: &str) -> Option<Ent> {
        match scope {
            Scope::Ns(ns) => self.nss[ns.0 as usize].members.get(n).cloned(),
            Scope::Class(c) => self.classes[c.0 as usize].members.get(n).cloned(),
        }
    }

    /// Fills in a class's bases and members from its definition.
    pub fn define_class(&mut self, id: ClassId, cd: &ast::ClassDef, ctx: &Ctx) {
        for (b, _) in &cd.bases {
            let t = self.resolve_type(b, ctx);
            match t {
                Ty::Class(bc) => {
                    self.require_complete(bc, b.span);
                    self.classes[id.0 as usize].bases.push(bc);
                }
                Ty::Error => {}
                _ => self.err(codes::CXX_NOT_A_TYPE, "a base must be a class", b.span),
            }
        }
        let scope = Scope::Class(id);
        let cname = cd.name.as_ref().map(|q| q.last().name.clone());
        // The injected class name.
        if let Some(n) = &cname {
            self.classes[id.0 as usize].members.insert(n.clone(), Ent::Type(Ty::Class(id)));
        }
        for m in cd.members.iter().flatten() {
            match m {
                ast::Member::Field { decl, access } => {
                    if decl.flags.is_static {
                        self.static_member(id, decl, ctx);
                        continue;
                    }
                    let ty = self.resolve_type(&decl.ty, ctx);
                    if let Ty::Class(fc) = ty {
                        self.require_complete(fc, decl.span);
                    }
                    self.classes[id.0 as usize].fields.push(Field {
                        name: decl.name.clone(),
                        ty,
                        init: decl.init.clone(),
                        access: *access,
                        span: decl.span,
                    });
                }
                ast::Member::Method { def, access, friend } => {
                    if def.flags.is_virtual {
                        // Reported, then kept as a plain member function (one error, no cascade).
                        self.err(
                            codes::CXX_FORBIDDEN,
                            "virtual functions are not allowed: OpenCL C++ does not support the virtual function qualifier (OpenCL C++ 1.0 §2.9)",
                            def.span,
                        );
                    }
                    if *friend {
                        // A friend defined in the class is a function of the enclosing
                        // namespace, found by argument-dependent lookup.
                        let fctx = Ctx { ns: ctx.ns, class: None, env: ctx.env.clone() };
                        let fctx = Ctx { class: Some(id), ..fctx };
                        if def.body.is_some() {
                            self.register_func(def, &fctx, Scope::Class(id), None, *access, true);
                        }
                        continue;
                    }
                    let is_ctor = cname.as_ref().is_some_and(|n| def.name.last().name == *n) && def.ret.is_none();
                    if is_ctor {
                        self.classes[id.0 as usize].has_user_ctor = true;
                        if def.flags.deleted {
                            continue;
                        }
                        if let Some(tps) = def.tparams.as_ref().filter(|t| !t.is_empty()) {
                            let t = self.new_template(
                                def.name.last().name.clone(),
                                tps.clone(),
                                TemplateKind::Func(def.clone()),
                                ctx.clone(),
                                Some(id),
                                *access,
                                def.span,
                            );
                            self.classes[id.0 as usize].ctor_templates.push(t);
                        } else {
                            let f = self.new_func("<ctor>".into(), def.clone(), ctx.clone(), Some(id), *access, vec![]);
                            self.classes[id.0 as usize].ctors.push(f);
                        }
                        continue;
                    }
                    if def.name.last().name.starts_with('~') {
                        // Destructors are trivial in OpenCL C++ kernels: nothing runs.
                        if def
                            .body
                            .as_ref()
                            .is_some_and(|b| matches!(&b.kind, ast::StmtKind::Block(v) if !v.is_empty()))
                        {
                            self.err(
                                codes::CXX_UNSUPPORTED,
                                "destructors with a body are not yet supported by kiln (kiln runs no destructors)",
                                def.span,
                            );
                        }
                        continue;
                    }
                    self.register_func(def, ctx, scope, Some(id), *access, false);
                }
                ast::Member::Class(inner) => {
                    self.class_item(inner, ctx, scope, ast::Access::Public);
                }
                ast::Member::Enum(ed) => self.enum_def(ed, ctx, scope),
                ast::Member::Alias { name, tparams, ty, span } => {
                    if let Some(tps) = tparams {
                        let t = self.new_template(
                            name.clone(),
                            tps.clone(),
                            TemplateKind::Alias(ty.clone()),
                            ctx.clone(),
                            Some(id),
                            ast::Access::Public,
                            *span,
                        );
                        self.add_member(scope, name.clone(), Ent::Template(t), *span);
                    } else {
                        let t = self.resolve_type(ty, ctx);
                        self.add_member(scope, name.clone(), Ent::Type(t), *span);
                    }
                }
                ast::Member::StaticAssert(sa) => self.static_assert(sa, ctx),
                ast::Member::Using(q, span) => {
                    if let Some(ent) = self.lookup_qual(q, ctx) {
                        self.add_member(scope, q.last().name.clone(), ent, *span);
                    }
                }
            }
        }
        self.classes[id.0 as usize].complete = true;
    }

    fn static_member(&mut self, id: ClassId, decl: &ast::VarDecl, ctx: &Ctx) {
        let ty = self.resolve_type(&decl.ty, ctx);
        let value = decl.init.as_ref().and_then(|i| self.const_init(i, &ty, ctx));
        match value {
            // A table (`static constexpr float coef[3] = {...}`): `__constant` data the kernels
            // index, its value kept for constant evaluation.
            Some(k @ Konst::Aggregate(_)) => {
                let display = format!("{}::{}", self.classes[id.0 as usize].name, decl.name);
                let cname = self.program_name(&display.replace("::", "_"));
                let gid = GlobalId(self.globals.len() as u32);
                self.globals.push(Global {
                    konst: Some(k.clone()),
                    name: decl.name.clone(),
                    cname: cname.clone(),
                    ty: ty.clone(),
                    space: AddrSpace::Constant,
                    is_const: true,
                });
                self.classes[id.0 as usize].members.insert(decl.name.clone(), Ent::Global(gid));
                if let Some(cl) = elem_class(&ty) {
                    self.emit_class(cl);
                }
                let init = self.konst_initializer(&k, &ty, decl.span);
                let d =
                    self.c_declaration(&cname, &ty, Some(AddrSpace::Constant), Some(init), decl.name_span, &[], ctx);
                self.out_globals.push(c::ExternalDecl::Declaration(d));
            }
            Some(k) => {
                self.classes[id.0 as usize].members.insert(decl.name.clone(), Ent::Konst(k, ty));
            }
            None => self.err(
                codes::CXX_UNSUPPORTED,
                "a static data member needs a constant initializer in kiln (`static constexpr`)",
                decl.span,
            ),
        }
    }

    pub fn new_template(
        &mut self,
        name: Name,
        params: Vec<ast::TemplateParam>,
        kind: TemplateKind,
        ctx: Ctx,
        owner: Option<ClassId>,
        access: ast::Access,
        span: Span,
    ) -> TemplateId {
        let id = TemplateId(self.templates.len() as u32);
        self.templates.push(Template {
            name,
            params,
            kind,
            ctx,
            owner,
            access,
            instances: HashMap::new(),
            specializations: vec![],
            exact_specializations: vec![],
            span,
        });
        id
    }

    pub fn new_func(
        &mut self,
        name: Name,
        def: Rc<ast::FuncDef>,
        ctx: Ctx,
        owner: Option<ClassId>,
        access: ast::Access,
        targs: Vec<TArg>,
    ) -> FuncId {
        let id = FuncId(self.funcs.len() as u32);
        self.funcs.push(Func { name, def, ctx, owner, access, targs });
        id
    }

    /// Registers a function (or function template) named by its definition in `scope`.
    fn register_func(
        &mut self,
        def: &Rc<ast::FuncDef>,
        ctx: &Ctx,
        scope: Scope,
        owner: Option<ClassId>,
        access: ast::Access,
        friend: bool,
    ) {
        let name = def.name.last().name.clone();
        let is_spec = def.name.last().targs.is_some();
        if let Some(tps) = &def.tparams
            && (!tps.is_empty() || is_spec)
        {
            if is_spec {
                match self.scope_member(scope, &name) {
                    Some(Ent::Funcs(_, ts)) if !ts.is_empty() => {
                        let targs = def.name.last().targs.clone().unwrap_or_default();
                        self.templates[ts[0].0 as usize].specializations.push((
                            tps.clone(),
                            targs,
                            TemplateKind::Func(def.clone()),
                            ctx.clone(),
                        ));
                    }
                    _ => self.err(codes::CXX_TEMPLATE, format!("`{name}` is not a function template"), def.span),
                }
                return;
            }
            let t = self.new_template(
                name.clone(),
                tps.clone(),
                TemplateKind::Func(def.clone()),
                ctx.clone(),
                owner,
                access,
                def.span,
            );
            let target = if friend { Scope::Ns(ctx.ns) } else { scope };
            self.add_member(target, name, Ent::Funcs(vec![], vec![t]), def.span);
            return;
        }
        // `template<> R f(params)`: an explicit specialization whose arguments come from its
        // parameter types.
        if def.tparams.as_ref().is_some_and(|t| t.is_empty())
            && let Some(Ent::Funcs(_, ts)) = self.scope_member(scope, &name)
        {
            for t in ts {
                let TemplateKind::Func(primary) = self.templates[t.0 as usize].kind.clone() else { continue };
                if primary.params.len() != def.params.len() {
                    continue;
                }
                let params = self.templates[t.0 as usize].params.clone();
                let tctx = self.templates[t.0 as usize].ctx.clone();
                let mut bound = HashMap::new();
                let mut ok = true;
                for (pp, sp) in primary.params.iter().zip(&def.params) {
                    let sty = self.resolve_type(&sp.ty, ctx);
                    if !self.deduce_type(&pp.ty, &sty, &params, &tctx, &mut bound) {
                        ok = false;
                    }
                }
                let targs: Option<Vec<TArg>> = params.iter().map(|p| bound.get(&p.name).cloned()).collect();
                if let (true, Some(targs)) = (ok, targs) {
                    self.templates[t.0 as usize].exact_specializations.push((
                        targs,
                        TemplateKind::Func(def.clone()),
                        ctx.clone(),
                    ));
                    return;
                }
            }
            self.err(
                codes::CXX_TEMPLATE,
                format!("`template<>` declares no specialization of a function template `{name}`"),
                def.span,
            );
            return;
        }
        // A declaration followed later by its definition: the definition replaces it.
        if let Some(Ent::Funcs(fs, _)) = self.scope_member(if friend { Scope::Ns(ctx.ns) } else { scope }, &name) {
            for f in fs {
                let existing = self.funcs[f.0 as usize].def.clone();
                if existing.body.is_none()
                    && def.body.is_some()
                    && existing.params.len() == def.params.len()
                    && self.same_params(&existing, def, ctx)
                {
                    self.funcs[f.0 as usize].def = def.clone();
                    return;
                }
                if def.body.is_none()
                    && existing.params.len() == def.params.len()
                    && self.same_params(&existing, def, ctx)
                {
                    return;
                }
            }
        }
        let f =
            self.new_func(name.clone(), def.clone(), ctx.clone(), if friend { None } else { owner }, access, vec![]);
        if owner.is_none() || friend {
            self.plain_funcs.push(f);
        }
        let target = if friend { Scope::Ns(ctx.ns) } else { scope };
        self.add_member(target, name, Ent::Funcs(vec![f], vec![]), def.span);
    }

    fn same_params(&mut self, a: &ast::FuncDef, b: &ast::FuncDef, ctx: &Ctx) -> bool {
        a.params.iter().zip(&b.params).all(|(x, y)| {
            let tx = self.resolve_type_quiet(&x.ty, ctx);
            let ty = self.resolve_type_quiet(&y.ty, ctx);
            tx == ty
        }) && a.flags.is_const == b.flags.is_const
    }

    fn func_item(&mut self, fd: &Rc<ast::FuncDef>, ctx: &Ctx) {
        if fd.flags.is_virtual {
            self.err(codes::CXX_FORBIDDEN, "virtual functions are not allowed: OpenCL C++ does not support the virtual function qualifier (OpenCL C++ 1.0 §2.9)", fd.span);
            return;
        }
        if fd.flags.is_kernel {
            if fd.tparams.is_some() {
                self.err(codes::CXX_TEMPLATE, "a kernel cannot be a template", fd.span);
                return;
            }
            if fd.body.is_some() {
                self.kernels.push((fd.clone(), ctx.clone()));
            }
            return;
        }
        if &*fd.name.last().name == "main" && fd.name.parts.len() == 1 {
            self.err(codes::MAIN_FUNCTION, "a function named `main` is not allowed in OpenCL", fd.span);
            return;
        }
        if fd.name.parts.len() > 1 || fd.name.global {
            // An out-of-line member definition `A::f` or `ns::f`.
            self.out_of_line(fd, ctx);
            return;
        }
        self.register_func(fd, ctx, Scope::Ns(ctx.ns), None, ast::Access::Public, false);
    }

    /// `R A::f(...) { ... }` after `A` declared `f`: the definition replaces the declaration.
    fn out_of_line(&mut self, fd: &Rc<ast::FuncDef>, ctx: &Ctx) {
        let mut scope_name = fd.name.clone();
        scope_name.parts.pop();
        let last = fd.name.last().name.clone();
        // `template <typename T> R S<T>::f(...)`: a member of the class template `S`.
        if fd.tparams.as_ref().is_some_and(|t| !t.is_empty())
            && let Some(p) = scope_name.parts.last_mut()
        {
            p.targs = None;
        }
        let scope_ent = self.lookup_qual(&scope_name, ctx);
        match scope_ent {
            Some(Ent::Ns(ns)) => {
                let nctx = Ctx { ns, class: None, env: ctx.env.clone() };
                let mut d = (**fd).clone();
                d.name = ast::QualName::simple(last, fd.name.span);
                self.register_func(&Rc::new(d), &nctx, Scope::Ns(ns), None, ast::Access::Public, false);
            }
            Some(Ent::Type(Ty::Class(cid))) => {
                let cname = scope_name.last().name.clone();
                let is_ctor = last == cname;
                let cctx = self.classes[cid.0 as usize].ctx.clone();
                if is_ctor {
                    for f in self.classes[cid.0 as usize].ctors.clone() {
                        let existing = self.funcs[f.0 as usize].def.clone();
                        if existing.body.is_none()
                            && existing.params.len() == fd.params.len()
                            && self.same_params(&existing, fd, &cctx)
                        {
                            let mut d = (**fd).clone();
                            d.name = existing.name.clone();
                            self.funcs[f.0 as usize].def = Rc::new(d);
                            return;
                        }
                    }
                    self.err(
                        codes::UNDECLARED,
                        format!("no constructor of `{cname}` is declared with these parameters"),
                        fd.name.span,
                    );
                    return;
                }
                if last.starts_with('~') {
                    return;
                }
                if let Some(Ent::Funcs(fs, _)) = self.classes[cid.0 as usize].members.get(&last).cloned() {
                    for f in fs {
                        let existing = self.funcs[f.0 as usize].def.clone();
                        if existing.body.is_none()
                            && existing.params.len() == fd.params.len()
                            && self.same_params(&existing, fd, &cctx)
                        {
                            let mut d = (**fd).clone();
                            d.name = existing.name.clone();
                            d.flags.is_static = existing.flags.is_static;
                            d.flags.is_const = fd.flags.is_const;
                            self.funcs[f.0 as usize].def = Rc::new(d);
                            return;
                        }
                    }
                }
                self.err(
                    codes::UNDECLARED,
                    format!(
                        "`{}` declares no member function `{last}` with these parameters",
                        self.classes[cid.0 as usize].name
                    ),
                    fd.name.span,
                );
            }
            Some(Ent::Template(t)) => {
                // A member of a class template defined outside it: kept with the template and
                // used by every instance.
                let tt = &mut self.templates[t.0 as usize];
                if let TemplateKind::Class(cd) = &tt.kind {
                    let mut cd2 = (**cd).clone();
                    let mut replaced = false;
                    if let Some(ms) = &mut cd2.members {
                        for m in ms.iter_mut() {
                            if let ast::Member::Method { def, .. } = m
                                && def.name.last().name == last
                                && def.body.is_none()
                                && def.params.len() == fd.params.len()
                            {
                                let mut d = (**fd).clone();
                                d.name = def.name.clone();
                                d.tparams = def.tparams.clone();
                                d.flags.is_static = def.flags.is_static;
                                *def = Rc::new(d);
                                replaced = true;
                                break;
                            }
                        }
                    }
                    if replaced {
                        tt.kind = TemplateKind::Class(Rc::new(cd2));
                        return;
                    }
                }
                self.err(
                    codes::UNDECLARED,
                    format!("the class template declares no member `{last}` with these parameters"),
                    fd.name.span,
                );
            }
            _ => self.err(
                codes::UNDECLARED,
                format!("`{}` is not a class or namespace", scope_name.spelled()),
                fd.name.span,
            ),
        }
    }

    pub fn enum_def(&mut self, ed: &ast::EnumDef, ctx: &Ctx, scope: Scope) {
        let scalar = match &ed.base {
            Some(t) => match self.resolve_type(t, ctx) {
                Ty::Scalar(s) if s.is_integer() || s == Scalar::Bool => s,
                _ => {
                    self.err(codes::TYPE_MISMATCH, "an enumeration's underlying type must be an integer type", t.span);
                    Scalar::I32
                }
            },
            None => Scalar::I32,
        };
        let id = EnumId(self.enums.len() as u32);
        let name = ed.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_else(|| "<anonymous enum>".into());
        self.enums.push(EnumInfo {
            name: name.clone(),
            ns: ctx.ns,
            scoped: ed.scoped,
            scalar,
            members: HashMap::new(),
        });
        if let Some((n, s)) = &ed.name {
            self.add_member(scope, n.clone(), Ent::Type(Ty::Enum(id)), *s);
        }
        let mut next: i128 = 0;
        for (n, s, v) in ed.variants.iter().flatten() {
            if let Some(v) = v {
                match self.const_int(v, ctx) {
                    Some(x) => next = x,
                    None => {}
                }
            }
            self.enums[id.0 as usize].members.insert(n.clone(), next);
            if !ed.scoped {
                self.add_member(scope, n.clone(), Ent::Enumerator(id, next), *s);
            }
            next += 1;
        }
    }

    pub fn static_assert(&mut self, sa: &ast::StaticAssert, ctx: &Ctx) {
        match self.const_eval(&sa.cond, ctx) {
            Some(k) => {
                if k.truthy() == Some(false) {
                    let msg = match &sa.message {
                        Some(m) => format!("static assertion failed: {m}"),
                        None => "static assertion failed".to_string(),
                    };
                    self.err(codes::CXX_STATIC_ASSERT, msg, sa.cond.span);
                }
            }
            None => self.err_not_constant("the condition of `static_assert`", sa.cond.span),
        }
    }

    pub fn err_not_constant(&mut self, what: &str, span: Span) {
        // One error per place: an error inside the expression was reported already.
        if self.diags.iter().any(|d| {
            d.is_error() && d.span().is_some_and(|s| s.lo >= span.lo && s.hi <= span.hi && s.file == span.file)
        }) {
            return;
        }
        self.err(codes::CXX_CONSTEXPR, format!("{what} is not a constant expression"), span);
    }

    fn global_var(&mut self, v: &ast::VarDecl, ctx: &Ctx) {
        if v.flags.is_typedef {
            return;
        }
        // `constexpr auto t = make_table();`: the type of the constant.
        let ty = if stmt::is_auto(&v.ty) {
            let typed = match &v.init {
                Some(ast::Init::Assign(e)) => self.const_eval_typed(e, ctx),
                Some(ast::Init::Paren(a, _)) if a.len() == 1 => self.const_eval_typed(&a[0], ctx),
                _ => None,
            };
            match typed {
                Some((_, t)) => t,
                None => {
                    self.err(
                        codes::CXX_CONSTEXPR,
                        format!("`auto` program-scope variable `{}` needs a constant initializer", v.name),
                        v.span,
                    );
                    return;
                }
            }
        } else {
            self.resolve_type(&v.ty, ctx)
        };
        if ty.is_error() {
            return;
        }
        if let Ty::Class(c) = &ty
            && let Some(Special::PipeStorage(packet, depth)) = self.classes[c.0 as usize].special.clone()
        {
            self.pipe_storage(v, packet, depth, ctx);
            return;
        }
        let (space, base_ty) = self.storage_of(&ty, &v.ty);
        let (space, base_ty) = match (space, &base_ty) {
            (None, _) if v.flags.is_constexpr => (Some(AddrSpace::Constant), base_ty),
            (sp, _) => (sp, base_ty),
        };
        let is_const = v.flags.is_constexpr || type_is_const(&v.ty);
        // A scalar constant is a compile-time value only.
        if (v.flags.is_constexpr || is_const) && base_ty.is_arith() {
            if let Some(init) = &v.init
                && let Some(k) = self.const_init(init, &base_ty, ctx)
            {
                self.add_member(Scope::Ns(ctx.ns), v.name.clone(), Ent::Konst(k, base_ty.clone()), v.name_span);
                return;
            }
            if v.flags.is_constexpr {
                self.err_not_constant(&format!("the initializer of `constexpr` variable `{}`", v.name), v.span);
                return;
            }
        }
        // Program-scope variables are `__global` by default, as in OpenCL C 2.0 and OpenCL C++.
        let space = match space {
            Some(s) => s,
            None if is_const => AddrSpace::Constant,
            None => AddrSpace::Global,
        };
        let cname = self.program_name(&self.qualified_display(Scope::Ns(ctx.ns), &v.name).replace("::", "_"));
        let gid = GlobalId(self.globals.len() as u32);
        let konst = match (&v.init, is_const) {
            (Some(i), true) => self.const_init_quiet(i, &base_ty, ctx),
            _ => None,
        };
        self.globals.push(Global {
            konst,
            name: v.name.clone(),
            cname: cname.clone(),
            ty: base_ty.clone(),
            space,
            is_const,
        });
        self.add_member(Scope::Ns(ctx.ns), v.name.clone(), Ent::Global(gid), v.name_span);
        let init = match &v.init {
            Some(i) => self.global_initializer(i, &base_ty, ctx, v.span),
            None => None,
        };
        if space == AddrSpace::Constant && init.is_none() {
            self.err(
                codes::CONSTANT_RULE,
                format!("`__constant` variable `{}` needs an initializer", v.name),
                v.name_span,
            );
            return;
        }
        if let Ty::Class(cid) = base_ty.strip_ref() {
            self.emit_class(*cid);
        }
        let decl = self.c_declaration(&cname, &base_ty, Some(space), init, v.name_span, &v.attrs, ctx);
        self.out_globals.push(c::ExternalDecl::Declaration(decl));
    }

    /// `cl::pipe_storage<T, N> p;`: a program-scope pipe (Xilinx's form in OpenCL C), whose ends
    /// the kernels that use it hold.
    fn pipe_storage(&mut self, v: &ast::VarDecl, packet: Ty, depth: u32, ctx: &Ctx) {
        let span = v.name_span;
        let cname = self.program_name(&self.qualified_display(Scope::Ns(ctx.ns), &v.name).replace("::", "_"));
        let ty = Ty::Pipe(Rc::new(packet), false);
        let gid = GlobalId(self.globals.len() as u32);
        self.globals.push(Global {
            konst: None,
            name: v.name.clone(),
            cname: cname.clone(),
            ty: ty.clone(),
            space: AddrSpace::Global,
            is_const: false,
        });
        self.add_member(Scope::Ns(ctx.ns), v.name.clone(), Ent::Global(gid), span);
        let mut decl = self.c_declaration(&cname, &ty, None, None, span, &[], ctx);
        let depth_attr = c::Attribute {
            name: "xcl_reqd_pipe_depth".into(),
            args: vec![c::AttrArg::Expr(emit::int_lit(i128::from(depth), &Ty::INT, span))],
            span,
        };
        if let Some(d) = decl.declarators.first_mut() {
            d.declarator.attrs.push(depth_attr);
        }
        self.out_globals.push(c::ExternalDecl::Declaration(decl));
    }

    /// A program-scope initializer: every element a compile-time constant.
    fn global_initializer(&mut self, init: &ast::Init, ty: &Ty, ctx: &Ctx, span: Span) -> Option<c::Initializer> {
        match self.const_init(init, ty, ctx) {
            Some(k) => Some(self.konst_initializer(&k, ty, span)),
            None => {
                self.err_not_constant("a program-scope variable's initializer", init.span());
                None
            }
        }
    }

    /// The address space a declared type names through the library's storage classes
    /// (`cl::local<T>`) and its object type; `None` for no storage class.
    pub fn storage_of(&self, ty: &Ty, written: &ast::Type) -> (Option<AddrSpace>, Ty) {
        if let Ty::Class(c) = ty
            && let Some(Special::Storage(space, inner)) = &self.classes[c.0 as usize].special
        {
            return (Some(*space), inner.clone());
        }
        (written_space(written), ty.clone())
    }

    fn kernel(&mut self, k: &Rc<ast::FuncDef>, ctx: &Ctx) {
        if let Some(r) = &k.ret {
            let t = self.resolve_type(r, ctx);
            if t != Ty::Void {
                self.err(codes::KERNEL_RETURN, "a kernel must return `void`", r.span);
                return;
            }
        }
        let before = self.diags.iter().filter(|d| d.is_error()).count();
        match stmt::kernel_def(self, k, ctx) {
            Some(def) => self.out_kernels.push(c::ExternalDecl::Function(def)),
            None => {
                if self.diags.iter().filter(|d| d.is_error()).count() == before {
                    self.err(codes::CXX_UNSUPPORTED, "kiln could not lower this kernel", k.span);
                }
            }
        }
    }

    fn check_unused(&mut self, f: FuncId) {
        let def = self.funcs[f.0 as usize].def.clone();
        if def.body.is_none() || def.flags.deleted {
            return;
        }
        stmt::check_only(self, f);
    }

    /// Emits a class's `struct` (after the structs of its members) once.
    pub fn emit_class(&mut self, id: ClassId) {
        if self.classes[id.0 as usize].emitted || !self.has_storage(id) {
            return;
        }
        self.classes[id.0 as usize].emitted = true;
        let span = self.classes[id.0 as usize].span;
        let mut fields = Vec::new();
        let bases = self.classes[id.0 as usize].bases.clone();
        for (i, b) in bases.iter().enumerate() {
            if self.has_storage(*b) {
                self.emit_class(*b);
                fields.push((base_field(i), Ty::Class(*b)));
            }
        }
        // Reference members are bound per object at compile time ([`Elab::ref_members`]); they
        // take no storage.
        let own: Vec<(Name, Ty)> = self.classes[id.0 as usize]
            .fields
            .iter()
            .filter(|f| !matches!(f.ty, Ty::Ref(..)))
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect();
        for (n, t) in own {
            if let Some(fc) = elem_class(&t) {
                if !self.has_storage(fc) {
                    continue;
                }
                self.emit_class(fc);
            }
            fields.push((n, t));
        }
        if fields.is_empty() {
            // Only reference members: one unused byte gives objects a name.
            fields.push(("kiln_unused".into(), Ty::Scalar(Scalar::U8)));
        }
        let mut cfields = Vec::new();
        for (n, t) in fields {
            let ct = crate::ty::c_type(&t, self, span);
            cfields.push(c::FieldDecl {
                specs: crate::ty::specs_of(ct.spec, ct.quals, ct.space, span),
                declarators: vec![(
                    c::Declarator { name: Some((n, span)), derived: ct.derived, attrs: vec![], span },
                    None,
                )],
                span,
            });
        }
        let key = self.classes[id.0 as usize].key;
        let rs = c::RecordSpec {
            name: Some((self.classes[id.0 as usize].tag.clone(), span)),
            fields: Some(cfields),
            attrs: vec![],
            span,
        };
        let spec = if key == ast::ClassKey::Union { c::TypeSpec::Union(rs) } else { c::TypeSpec::Struct(rs) };
        self.out_structs.push(c::ExternalDecl::Declaration(c::Declaration {
            specs: crate::ty::specs_of(spec, Default::default(), None, span),
            declarators: vec![],
            span,
        }));
    }

    /// Whether objects of the class occupy storage (some data member, own or inherited, does).
    pub fn has_storage(&self, id: ClassId) -> bool {
        let c = &self.classes[id.0 as usize];
        c.fields.iter().any(|f| matches!(f.ty, Ty::Ref(..)) || elem_class(&f.ty).is_none_or(|fc| self.has_storage(fc)))
            || c.bases.iter().any(|b| self.has_storage(*b))
    }

    /// Instantiates or completes a class before its members are used.
    pub fn require_complete(&mut self, id: ClassId, span: Span) -> bool {
        if self.classes[id.0 as usize].complete {
            return true;
        }
        self.err(
            codes::INCOMPLETE_TYPE,
            format!("`{}` is an incomplete type here", self.classes[id.0 as usize].name),
            span,
        );
        false
    }
}

/// The class of an object or of an array's elements.
pub fn elem_class(t: &Ty) -> Option<ClassId> {
    match t {
        Ty::Class(c) => Some(*c),
        Ty::Array(e, _) => elem_class(e),
        _ => None,
    }
}

/// The C member that holds the `i`th base class.
pub fn base_field(i: usize) -> Name {
    format!("base_{i}").into()
}

/// The address space written on a declared type (outermost qualifier).
pub fn written_space(t: &ast::Type) -> Option<AddrSpace> {
    match &t.kind {
        ast::TypeKind::Qualified { space: Some(s), .. } => Some(*s),
        ast::TypeKind::Qualified { inner, .. } => written_space(inner),
        ast::TypeKind::Array(inner, _) => written_space(inner),
        _ => None,
    }
}

pub fn type_is_const(t: &ast::Type) -> bool {
    match &t.kind {
        ast::TypeKind::Qualified { is_const: true, .. } => true,
        ast::TypeKind::Qualified { inner, .. } => type_is_const(inner),
        ast::TypeKind::Array(inner, _) => type_is_const(inner),
        _ => false,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Ns(NsId),
    Class(ClassId),
}

/// The address space written directly on a type (not inside an array or pointer).
pub fn written_space_direct(t: &ast::Type) -> Option<AddrSpace> {
    match &t.kind {
        ast::TypeKind::Qualified { space: Some(s), .. } => Some(*s),
        ast::TypeKind::Qualified { inner, .. } => written_space_direct(inner),
        _ => None,
    }
}

/// `const` written directly on a type.
pub fn type_is_const_direct(t: &ast::Type) -> bool {
    match &t.kind {
        ast::TypeKind::Qualified { is_const: true, .. } => true,
        ast::TypeKind::Qualified { inner, .. } => type_is_const_direct(inner),
        _ => false,
    }
}
