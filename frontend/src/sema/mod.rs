//! Semantic analysis: name resolution, type checking and the OpenCL C language rules, turning the
//! [`ast`] into the typed [`hir`].
//!
//! Sema reports every problem it finds and keeps going (an expression with an error gets
//! [`Type::Error`], which is accepted everywhere afterwards), so one mistake gives one diagnostic.
//! It does not know about hardware: the checks for features kiln cannot build yet are gathered in
//! [`gate`] so that they can move to later stages as those stages learn the features.

mod async_copy;
mod atomic;
mod builtin_float;
mod builtin_int;
mod collective;
mod consteval;
mod half;
pub use consteval::integer_value;
mod decl;
mod expr;
mod gate;
mod goto;
mod init;
mod partition;
mod pipe;
mod printf;
mod record;
mod stmt;
mod vector;

use crate::ast::{self, AddrSpace, Quals, StorageClass};
use crate::diag::{Diagnostic, codes};
use crate::hir::{self, FuncId, GlobalId, KernelAttrs, Local, LocalId, Program};
use crate::options::Options;
use crate::source::Span;
use crate::types::{FnSig, Opaque, RecordId, Scalar, Type, TypeDisplay};
use std::collections::HashMap;
use std::rc::Rc;

/// What a name in scope refers to.
#[derive(Clone, Debug)]
enum Sym {
    Local(LocalId),
    Global(GlobalId),
    Func(FuncId),
    Typedef {
        ty: Type,
        quals: Quals,
        space: Option<AddrSpace>,
    },
    EnumConst(u64),
    /// A struct or union tag (keyed `struct NAME` / `union NAME`).
    Tag(crate::types::RecordId),
}

/// Per-function state while checking a body.
struct FnCtx {
    id: FuncId,
    locals: Vec<Local>,
    ret: Type,
    is_kernel: bool,
    /// Number of enclosing loops / breakable statements.
    loops: u32,
    breakables: u32,
    /// Scope depth of the function's outermost block.
    body_scope: usize,
    /// The flags that carry the function's `goto`s, when it has any.
    gotos: Option<goto::GotoPlan>,
    /// The loops and `switch`es being lowered, innermost last (by span).
    breakable_spans: Vec<crate::source::Span>,
}

pub struct Sema<'o> {
    opts: &'o Options,
    diags: Vec<Diagnostic>,
    prog: Program,
    scopes: Vec<HashMap<Rc<str>, Sym>>,
    fcx: Option<FnCtx>,
    /// Declarations of compound literals' objects made while checking the current statement,
    /// to go before it.
    pending_decls: Vec<hir::Stmt>,
    /// Call edges per function: (callee, call site).
    calls: HashMap<FuncId, Vec<(FuncId, Span)>>,
    /// Extensions enabled with `#pragma OPENCL EXTENSION`.
    enabled_extensions: Vec<String>,
    /// Set when constant evaluation reported its own error (so callers add no second one).
    const_error_reported: bool,
}

/// The result of analysis.
pub struct Analysis {
    pub program: Program,
    pub diags: Vec<Diagnostic>,
}

/// Analyses a parsed translation unit.
pub fn analyze(tu: &ast::TranslationUnit, opts: &Options) -> Analysis {
    let mut s = Sema::new(opts);
    for item in &tu.items {
        match item {
            ast::ExternalDecl::Function(f) => s.function_def(f),
            ast::ExternalDecl::Declaration(d) => s.file_declaration(d),
            ast::ExternalDecl::Pragma(p) => s.file_pragma(p),
        }
    }
    s.check_call_graph();
    let m = &opts.math;
    s.prog.float_mode.denormals_are_zero |= m.denorms_are_zero;
    s.prog.float_mode.reassociate |= m.fast_relaxed_math || m.unsafe_math_optimizations;
    s.prog.float_mode.contract |= m.mad_enable || m.fast_relaxed_math;
    Analysis { program: s.prog, diags: s.diags }
}

impl<'o> Sema<'o> {
    fn new(opts: &'o Options) -> Sema<'o> {
        Sema {
            opts,
            diags: Vec::new(),
            prog: Program::default(),
            scopes: vec![HashMap::new()],
            fcx: None,
            pending_decls: Vec::new(),
            calls: HashMap::new(),
            enabled_extensions: Vec::new(),
            const_error_reported: false,
        }
    }
}

impl Sema<'_> {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reports a built-in function called with the wrong number of arguments.
    fn wrong_arg_count(&mut self, name: &str, takes: usize, given: usize, span: Span) {
        let msg = format!("`{name}` takes {takes} argument(s) but {given} were given");
        self.err(Diagnostic::error(codes::ARG_COUNT, msg).at(span));
    }

    /// Whether the current function is a helper (not a kernel).
    fn in_helper(&self) -> bool {
        self.fcx.as_ref().is_some_and(|f| !f.is_kernel)
    }

    /// Reports a built-in that kiln supports only in the kernel itself, called in a helper.
    fn kernel_only(&mut self, code: codes::Code, name: &str, callee: Span, help: &str) {
        self.err(
            Diagnostic::error(code, format!("`{name}` in a helper function is not yet supported by kiln"))
                .at(callee)
                .with_help(help.to_string()),
        );
    }

    /// The error for a call of an overloaded built-in that no overload accepts; callers add
    /// what the overloads take.
    fn no_overload(&self, name: &str, args: &[hir::Expr], at: Span) -> Diagnostic {
        let list: Vec<String> = args.iter().map(|a| format!("`{}`", self.show(&a.ty))).collect();
        Diagnostic::error(
            codes::BUILTIN_ARGS,
            format!("no overload of `{name}` takes arguments of types {}", list.join(", ")),
        )
        .at(at)
    }

    fn show(&self, ty: &Type) -> String {
        let records = &self.prog.records;
        let name = |r: RecordId| -> String {
            let rec = &records[r.0 as usize];
            let kw = if rec.is_union { "union" } else { "struct" };
            match &rec.name {
                Some(n) => format!("{kw} {n}"),
                None => format!("{kw} <anonymous>"),
            }
        };
        TypeDisplay { ty, record_name: &name }.to_string()
    }

    // ----- scopes -----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Declares a name in the innermost scope, reporting a redefinition there.
    fn bind(&mut self, name: &Rc<str>, span: Span, sym: Sym) {
        if crate::types::is_reserved_type_name(name) {
            self.err(
                Diagnostic::error(codes::RESERVED_TYPE, format!("`{name}` is a reserved type name in OpenCL C"))
                    .at(span),
            );
        }
        let scope = self.scopes.last_mut().map(|s| s.insert(name.clone(), sym));
        if let Some(Some(prev)) = scope {
            // Redeclaring a function or typedef with a compatible meaning is fine; callers check.
            if !matches!(prev, Sym::Func(_)) {
                self.err(Diagnostic::error(codes::REDEFINITION, format!("redefinition of `{name}`")).at(span));
            }
        }
    }

    fn new_local(&mut self, local: Local) -> LocalId {
        let Some(f) = self.fcx.as_mut() else { return LocalId(0) };
        f.locals.push(local);
        LocalId(f.locals.len() as u32 - 1)
    }

    fn local(&self, id: LocalId) -> Option<&Local> {
        self.fcx.as_ref().and_then(|f| f.locals.get(id.0 as usize))
    }

    /// A built-in type name of the selected OpenCL C version.
    fn builtin_type(&self, name: &str) -> Option<Type> {
        crate::types::builtin_type_name(name).or_else(|| {
            (self.opts.std >= crate::options::ClStd::Cl2_0).then(|| crate::types::builtin_type_name_cl2(name)).flatten()
        })
    }

    /// The default address space of a pointee written without one.
    fn default_pointee_space(&self) -> AddrSpace {
        if self.opts.std >= crate::options::ClStd::Cl2_0 { AddrSpace::Generic } else { AddrSpace::Private }
    }

    // ----- file scope -----

    fn file_pragma(&mut self, p: &ast::Pragma) {
        let words: Vec<&str> = p.words.iter().map(|(w, _)| &**w).collect();
        if let ["OPENCL", "FP_CONTRACT", "ON"] = words.as_slice() {
            self.prog.float_mode.contract = true;
        }
        if let ["OPENCL", "EXTENSION", name, ":", action] = words.as_slice() {
            if *action == "enable" {
                self.enabled_extensions.push(name.to_string());
            } else {
                self.enabled_extensions.retain(|e| e != name);
            }
        }
    }

    fn file_declaration(&mut self, d: &ast::Declaration) {
        self.gate_specs(&d.specs);
        let base = self.base_type(&d.specs);
        if d.declarators.is_empty() {
            return;
        }
        for id in &d.declarators {
            let info = self.declarator_type(&base, &d.specs, &id.declarator);
            let Some((name, nspan)) = info.name.clone() else { continue };
            match d.specs.storage {
                Some((StorageClass::Typedef, _)) => {
                    if let Some(init) = &id.init {
                        self.err(
                            Diagnostic::error(codes::BAD_INITIALIZER, "a typedef cannot have an initializer")
                                .at(init.span()),
                        );
                    }
                    self.bind(&name, nspan, Sym::Typedef { ty: info.ty, quals: info.quals, space: info.space });
                    continue;
                }
                Some((StorageClass::Auto | StorageClass::Register, s)) => {
                    self.err(
                        Diagnostic::error(
                            codes::STORAGE_CLASS,
                            "`auto` and `register` are not allowed at program scope",
                        )
                        .at(s),
                    );
                }
                _ => {}
            }
            if let Type::Function(sig) = &info.ty {
                if id.init.is_some() {
                    self.err(
                        Diagnostic::error(codes::BAD_INITIALIZER, "a function cannot have an initializer").at(nspan),
                    );
                }
                self.declare_function(&name, nspan, sig.clone(), &d.specs, &id.declarator, None);
                continue;
            }
            if self.refuse_half(&info.ty, &format!("variable `{name}`"), nspan) {
                continue;
            }
            if Self::is_pipe_declaration(&info.ty) {
                let attrs: Vec<&ast::Attribute> = d.specs.attrs.iter().chain(&id.declarator.attrs).collect();
                let access_written = d.specs.access.is_some();
                self.program_scope_pipe(&name, nspan, info.ty, access_written, &attrs, id.init.is_some());
                continue;
            }
            self.program_scope_variable(&name, nspan, info, &d.specs, id.init.as_ref());
        }
    }

    fn program_scope_variable(
        &mut self,
        name: &Rc<str>,
        span: Span,
        info: decl::DeclInfo,
        specs: &ast::DeclSpecs,
        init: Option<&ast::Initializer>,
    ) {
        if info.ty.is_error() {
            return;
        }
        if crate::types::is_reserved_type_name(name) {
            self.err(
                Diagnostic::error(codes::RESERVED_TYPE, format!("`{name}` is a reserved type name in OpenCL C"))
                    .at(span),
            );
            return;
        }
        let space = info.space.unwrap_or(AddrSpace::Private);
        match space {
            AddrSpace::Constant => {}
            // OpenCL 2.0's program-scope `__global` variables: kiln keeps one in on-chip memory
            // of the kernel, starting each launch from its initializer (zero without one).
            AddrSpace::Global if self.opts.std == crate::options::ClStd::Cl1_2 => {
                self.err(
                    Diagnostic::error(
                        codes::PROGRAM_SCOPE_VAR,
                        format!("program-scope `__global` variable `{name}` needs OpenCL C 2.0 or later"),
                    )
                    .at(span)
                    .with_help("build with `-cl-std=CL2.0` (or CL3.0), or pass a buffer to the kernel"),
                );
                self.declare_invalid_global(name, span);
                return;
            }
            AddrSpace::Global if global_variable_type(&info.ty) => {
                self.err(
                    Diagnostic::warning(
                        codes::PROGRAM_SCOPE_GLOBAL,
                        format!("program-scope `__global` variable `{name}` is kept in on-chip memory of each kernel that uses it"),
                    )
                    .at(span)
                    .with_note("each launch starts it from its initializer; two kernels of a system do not share it")
                    .with_help("pass a buffer to share data between kernels and launches"),
                );
                let mut ty = info.ty;
                let init = match init {
                    Some(i) => self.initializer(&mut ty, i, true),
                    None => init::zero_init(&ty, span),
                };
                let id = GlobalId(self.prog.globals.len() as u32);
                self.prog.globals.push(hir::Global {
                    name: name.clone(),
                    ty,
                    space,
                    init: Some(init),
                    pipe_depth: None,
                    span,
                });
                self.bind(name, span, Sym::Global(id));
                return;
            }
            AddrSpace::Global => {
                self.err(
                    Diagnostic::error(
                        codes::PROGRAM_SCOPE_VAR,
                        format!("program-scope `__global` variable `{name}` is not a scalar or an array of scalars, which is all kiln builds"),
                    )
                    .at(span)
                    .with_help("pass a buffer to the kernel"),
                );
                self.declare_invalid_global(name, span);
                return;
            }
            AddrSpace::Local => {
                self.err(
                    Diagnostic::error(
                        codes::ADDRESS_SPACE,
                        format!("`__local` variable `{name}` must be declared inside a kernel"),
                    )
                    .at(span),
                );
                self.declare_invalid_global(name, span);
                return;
            }
            _ => {
                self.err(
                    Diagnostic::error(
                        codes::PROGRAM_SCOPE_VAR,
                        format!("program-scope variable `{name}` must be declared in the `__constant` address space"),
                    )
                    .at(span)
                    .with_help(format!("write `__constant {}`", self.show(&info.ty))),
                );
                self.declare_invalid_global(name, span);
                return;
            }
        }
        let _ = specs;
        let mut ty = info.ty;
        let init = match init {
            Some(i) => Some(self.initializer(&mut ty, i, true)),
            None => {
                if matches!(specs.storage, Some((StorageClass::Extern, _))) {
                    None
                } else {
                    self.err(
                        Diagnostic::error(
                            codes::CONSTANT_RULE,
                            format!("`__constant` variable `{name}` needs an initializer"),
                        )
                        .at(span),
                    );
                    None
                }
            }
        };
        let id = GlobalId(self.prog.globals.len() as u32);
        self.prog.globals.push(hir::Global { name: name.clone(), ty, space, init, pipe_depth: None, span });
        self.bind(name, span, Sym::Global(id));
    }

    /// Declares a program-scope variable whose declaration was refused, with the error type, so
    /// that its uses do not add "undeclared identifier" errors to the one already given.
    fn declare_invalid_global(&mut self, name: &Rc<str>, span: Span) {
        let id = GlobalId(self.prog.globals.len() as u32);
        let space = AddrSpace::Constant;
        self.prog.globals.push(hir::Global {
            name: name.clone(),
            ty: Type::Error,
            space,
            init: None,
            pipe_depth: None,
            span,
        });
        self.bind(name, span, Sym::Global(id));
    }

    /// Declares (or re-declares) a function and returns its id.
    fn declare_function(
        &mut self,
        name: &Rc<str>,
        span: Span,
        sig: Rc<FnSig>,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        _def: Option<()>,
    ) -> FuncId {
        if &**name == "main" {
            self.err(Diagnostic::error(codes::MAIN_FUNCTION, "a function cannot be named `main` in OpenCL C").at(span));
        }
        if let Some(ast::DerivedPart::Function { variadic: true, span: vs, .. }) = declarator.derived.last() {
            self.err(
                Diagnostic::error(
                    codes::VARIADIC_FUNCTION,
                    format!("function `{name}` is variadic; OpenCL C does not allow it"),
                )
                .at(*vs),
            );
        }
        let is_kernel = specs.kernel.is_some();
        if let Some(Sym::Func(prev)) = self.scopes[0].get(name).cloned() {
            let pf = &self.prog.functions[prev.0 as usize];
            let prev_sig = FnSig {
                ret: pf.ret.clone(),
                params: pf.params.iter().map(|p| pf.locals[p.0 as usize].ty.clone()).collect(),
            };
            if prev_sig != *sig || pf.is_kernel != is_kernel {
                let prev_span = pf.span;
                self.err(
                    Diagnostic::error(codes::CONFLICTING_DECL, format!("conflicting declarations of `{name}`"))
                        .at(span)
                        .with_label(prev_span, "previous declaration"),
                );
            }
            return prev;
        }
        if let Some(existing) = self.scopes[0].get(name)
            && !matches!(existing, Sym::Func(_))
        {
            self.err(
                Diagnostic::error(codes::REDEFINITION, format!("redefinition of `{name}` as a function")).at(span),
            );
        }
        let params = self.param_locals(&sig, declarator);
        let attrs = self.kernel_attrs(specs, declarator, is_kernel);
        let id = FuncId(self.prog.functions.len() as u32);
        self.prog.functions.push(hir::Function {
            name: name.clone(),
            span,
            is_kernel,
            ret: sig.ret.clone(),
            params: (0..params.len() as u32).map(LocalId).collect(),
            locals: params,
            body: None,
            attrs,
        });
        if let Some(s) = self.scopes.first_mut() {
            s.insert(name.clone(), Sym::Func(id));
        }
        if is_kernel {
            self.check_kernel_signature(id, declarator);
        }
        id
    }

    fn param_locals(&mut self, sig: &FnSig, declarator: &ast::Declarator) -> Vec<Local> {
        let Some(ast::DerivedPart::Function { params, .. }) = declarator.derived.last() else { return vec![] };
        params
            .iter()
            .zip(&sig.params)
            .map(|(p, ty)| {
                let (name, span) = p.declarator.name.clone().unwrap_or_else(|| ("".into(), p.span));
                let mut quals = p.specs.quals;
                if let Some(ast::DerivedPart::Pointer { quals: q, .. }) =
                    p.declarator.derived.iter().rev().find(|d| matches!(d, ast::DerivedPart::Pointer { .. }))
                    && !p.declarator.derived.is_empty()
                {
                    quals = *q;
                }
                Local {
                    name,
                    ty: ty.clone(),
                    space: AddrSpace::Private,
                    quals,
                    is_param: true,
                    partition: None,
                    lane_of: None,
                    dependence_distance: None,
                    span,
                }
            })
            .collect()
    }

    fn kernel_attrs(&mut self, specs: &ast::DeclSpecs, declarator: &ast::Declarator, is_kernel: bool) -> KernelAttrs {
        let mut attrs = KernelAttrs::default();
        for a in specs.attrs.iter().chain(&declarator.attrs) {
            match &*a.name {
                "reqd_work_group_size" | "work_group_size_hint" => {
                    if !is_kernel {
                        self.err(
                            Diagnostic::error(
                                codes::ATTRIBUTE_PLACEMENT,
                                format!("`{}` applies only to kernel functions", a.name),
                            )
                            .at(a.span),
                        );
                        continue;
                    }
                    let mut vals = [0u32; 3];
                    let mut ok = a.args.len() == 3;
                    for (i, arg) in a.args.iter().enumerate().take(3) {
                        match arg {
                            ast::AttrArg::Expr(e) => match self.const_u32(e) {
                                Some(v) if v > 0 => vals[i] = v,
                                _ => ok = false,
                            },
                            ast::AttrArg::Type(_) => ok = false,
                        }
                    }
                    if !ok {
                        self.err(
                            Diagnostic::error(
                                codes::WORK_GROUP_SIZE,
                                format!("`{}` needs three positive integer constants", a.name),
                            )
                            .at(a.span),
                        );
                        continue;
                    }
                    if &*a.name == "reqd_work_group_size" {
                        attrs.reqd_work_group_size = Some(vals);
                    } else {
                        attrs.work_group_size_hint = Some(vals);
                    }
                }
                "max_work_group_size" | "xcl_max_work_group_size" => {
                    let vals: Vec<Option<u32>> = a
                        .args
                        .iter()
                        .map(|arg| match arg {
                            ast::AttrArg::Expr(e) => self.const_u32(e).filter(|v| *v > 0),
                            ast::AttrArg::Type(_) => None,
                        })
                        .collect();
                    let product = vals.iter().try_fold(1u64, |acc, v| v.map(|v| acc * u64::from(v)));
                    match product {
                        Some(n) if is_kernel && (vals.len() == 1 || vals.len() == 3) && n <= 1 << 20 => {
                            attrs.max_work_group_size = Some(n as u32);
                        }
                        _ => self.err(
                            Diagnostic::error(
                                codes::WORK_GROUP_SIZE,
                                "`max_work_group_size` needs one or three positive integer constants, on a kernel",
                            )
                            .at(a.span),
                        ),
                    }
                }
                "vec_type_hint"
                | "max_global_work_dim"
                | "num_compute_units"
                | "num_simd_work_items"
                | "autorun"
                | "task"
                | "uses_global_work_offset"
                | "xcl_dataflow"
                | "xcl_zero_global_work_offset"
                | "always_inline"
                | "noinline"
                | "overloadable"
                | "const"
                | "pure"
                | "nosvm"
                | "scheduler_target_fmax_mhz" => {}
                _ => self.err(
                    Diagnostic::warning(codes::UNKNOWN_ATTRIBUTE, format!("unknown attribute `{}` ignored", a.name))
                        .at(a.span),
                ),
            }
        }
        if is_kernel && attrs.reqd_work_group_size.is_none() && attrs.max_work_group_size.is_none() {
            attrs.max_work_group_size = self.opts.max_work_group_size;
        }
        attrs
    }

    fn check_kernel_signature(&mut self, id: FuncId, declarator: &ast::Declarator) {
        let f = &self.prog.functions[id.0 as usize];
        let mut errs = Vec::new();
        if !f.ret.is_void() && !f.ret.is_error() {
            errs.push(
                Diagnostic::error(codes::KERNEL_RETURN, format!("kernel `{}` must return `void`", f.name)).at(f.span),
            );
        }
        let params = match declarator.derived.last() {
            Some(ast::DerivedPart::Function { params, .. }) => params.clone(),
            _ => vec![],
        };
        let mut local_sizes = Vec::new();
        for (index, (pid, pdecl)) in f.params.iter().zip(&params).enumerate() {
            let p = &f.locals[pid.0 as usize];
            let span = pdecl.span;
            for a in pdecl.specs.attrs.iter().chain(&pdecl.declarator.attrs) {
                if &*a.name != "local_mem_size" {
                    continue;
                }
                let is_local = matches!(&p.ty, Type::Pointer(pt) if pt.space == AddrSpace::Local);
                let bytes = match a.args.as_slice() {
                    [ast::AttrArg::Expr(e)] => Some(e),
                    _ => None,
                };
                local_sizes.push((index, is_local, bytes.cloned(), a.span));
            }
            let named_type = match &pdecl.specs.ty {
                ast::TypeSpec::Named(n, _) if pdecl.declarator.derived.is_empty() => Some(n.clone()),
                _ => None,
            };
            match &p.ty {
                Type::Scalar(Scalar::Bool) => errs.push(
                    Diagnostic::error(
                        codes::KERNEL_ARG,
                        format!("kernel parameter `{}` cannot have type `bool`", p.name),
                    )
                    .at(span),
                ),
                Type::Scalar(_)
                    if named_type
                        .as_deref()
                        .is_some_and(|n| matches!(n, "size_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t")) =>
                {
                    errs.push(
                        Diagnostic::error(
                            codes::KERNEL_ARG,
                            format!(
                                "kernel parameter `{}` cannot have type `{}`",
                                p.name,
                                named_type.as_deref().unwrap_or("size_t")
                            ),
                        )
                        .at(span)
                        .with_note("its size differs between host and device"),
                    )
                }
                Type::Scalar(Scalar::F16) => errs.push(
                    Diagnostic::error(
                        codes::KERNEL_ARG,
                        format!("kernel parameter `{}` cannot have type `half`", p.name),
                    )
                    .at(span),
                ),
                Type::Pointer(pt) => {
                    if matches!(pt.space, AddrSpace::Private | AddrSpace::Generic) {
                        errs.push(
                            Diagnostic::error(
                                codes::KERNEL_ARG,
                                format!("pointer parameter `{}` of a kernel must point to `__global`, `__constant` or `__local` memory", p.name),
                            )
                            .at(span)
                            .with_help("add `__global` to the parameter's type"),
                        );
                    } else if pt.ty.is_pointer() {
                        // OpenCL C 2.0 lifted the rule (§6.11); kiln still cannot follow a
                        // pointer loaded from memory.
                        let d = if self.opts.std < crate::options::ClStd::Cl2_0 {
                            Diagnostic::error(
                                codes::KERNEL_ARG,
                                format!("kernel parameter `{}` is a pointer to a pointer", p.name),
                            )
                            .with_note("OpenCL C 1.2 does not allow pointer-to-pointer kernel arguments")
                        } else {
                            Diagnostic::error(
                                codes::POINTER_ESCAPE,
                                format!("kernel parameter `{}` is a pointer to a pointer, which kiln cannot build", p.name),
                            )
                            .with_note("kiln resolves every pointer to a memory at compile time; a pointer read from memory cannot be resolved")
                        };
                        errs.push(d.at(span));
                    } else if matches!(pt.ty, Type::Scalar(Scalar::Bool)) {
                        errs.push(
                            Diagnostic::error(
                                codes::KERNEL_ARG,
                                format!("kernel parameter `{}` points to `bool`", p.name),
                            )
                            .at(span),
                        );
                    }
                }
                Type::Opaque(
                    Opaque::Event | Opaque::ReserveId | Opaque::ClkEvent | Opaque::Queue | Opaque::NdRange,
                ) => errs.push(
                    Diagnostic::error(
                        codes::KERNEL_ARG,
                        format!("kernel parameter `{}` cannot have this type", p.name),
                    )
                    .at(span),
                ),
                Type::Pipe(_, crate::types::PipeAccess::Program) => errs.push(
                    Diagnostic::error(
                        codes::PIPE_RULE,
                        format!("kernel parameter `{}` is a channel; channels are declared at program scope", p.name),
                    )
                    .at(span),
                ),
                _ => {}
            }
        }
        for e in errs {
            self.err(e);
        }
        for (index, is_local, bytes, at) in local_sizes {
            if !is_local {
                // A vendor attribute out of place is ignored, as clang does.
                self.err(
                    Diagnostic::warning(
                        codes::UNKNOWN_ATTRIBUTE,
                        "`local_mem_size` applies only to `__local` pointer parameters of a kernel; ignored",
                    )
                    .at(at),
                );
                continue;
            }
            match bytes.and_then(|e| self.const_u32(&e)).filter(|n| *n > 0) {
                Some(n) => self.prog.functions[id.0 as usize].attrs.local_mem_size.push((index, n)),
                None => self.err(
                    Diagnostic::error(
                        codes::ATTRIBUTE_PLACEMENT,
                        "`local_mem_size` needs a positive integer constant (bytes)",
                    )
                    .at(at),
                ),
            }
        }
    }

    fn function_def(&mut self, fd: &ast::FunctionDef) {
        self.gate_specs(&fd.specs);
        let base = self.base_type(&fd.specs);
        let info = self.declarator_type(&base, &fd.specs, &fd.declarator);
        let Some((name, nspan)) = info.name.clone() else { return };
        let Type::Function(sig) = &info.ty else {
            self.err(Diagnostic::error(codes::BAD_DECLARATOR, "a function body needs a function declarator").at(nspan));
            return;
        };
        if let Some((sc, s)) = fd.specs.storage
            && !matches!(sc, StorageClass::Static | StorageClass::Extern)
        {
            self.err(Diagnostic::error(codes::STORAGE_CLASS, "invalid storage class on a function definition").at(s));
        }
        let id = self.declare_function(&name, nspan, sig.clone(), &fd.specs, &fd.declarator, Some(()));
        if self.prog.functions[id.0 as usize].body.is_some() {
            let prev = self.prog.functions[id.0 as usize].span;
            self.err(
                Diagnostic::error(codes::REDEFINITION, format!("redefinition of function `{name}`"))
                    .at(nspan)
                    .with_label(prev, "previous definition"),
            );
            return;
        }
        if self.prog.functions[id.0 as usize].params.len() != sig.params.len() {
            // A conflicting prototype (already reported) fixed a different parameter list; checking
            // this body against it would only add noise. The function counts as defined, so its
            // calls are not reported as calls to an undefined function.
            self.prog.functions[id.0 as usize].body = Some(Vec::new());
            return;
        }
        // The definition's parameter names and spans win over a prototype's.
        let params = self.param_locals(sig, &fd.declarator);
        let f = &mut self.prog.functions[id.0 as usize];
        f.span = nspan;
        f.locals = params;
        let locals = f.locals.clone();
        let is_kernel = f.is_kernel;
        self.fcx = Some(FnCtx {
            id,
            locals,
            ret: sig.ret.clone(),
            is_kernel,
            loops: 0,
            breakables: 0,
            body_scope: self.scopes.len() + 1,
            gotos: None,
            breakable_spans: Vec::new(),
        });
        self.push_scope();
        let nparams = self.prog.functions[id.0 as usize].params.len();
        for i in 0..nparams {
            let l = self.fcx.as_ref().and_then(|f| f.locals.get(i).cloned());
            if let Some(l) = l
                && !l.name.is_empty()
            {
                self.bind(&l.name, l.span, Sym::Local(LocalId(i as u32)));
            }
        }
        let mut body = Vec::new();
        let plan = self.plan_gotos(&fd.body, &mut body);
        if let Some(f) = self.fcx.as_mut() {
            f.gotos = plan;
        }
        if let ast::StmtKind::Compound(items) = &fd.body.kind {
            body.extend(self.block_items(items));
        }
        self.pop_scope();
        if !sig.ret.is_void() && !sig.ret.is_error() && !stmt::always_returns(&body) {
            self.err(
                Diagnostic::warning(
                    codes::MISSING_RETURN,
                    format!("non-void function `{name}` may not return a value"),
                )
                .at(fd.body.span.to(Span::new(
                    fd.body.span.file,
                    fd.body.span.hi.saturating_sub(1),
                    fd.body.span.hi,
                ))),
            );
        }
        if let Some(fcx) = self.fcx.take() {
            let f = &mut self.prog.functions[id.0 as usize];
            f.locals = fcx.locals;
            f.body = Some(body);
        }
    }

    /// Reports recursion (a cycle in the call graph) and calls of functions without a body.
    fn check_call_graph(&mut self) {
        let mut ids: Vec<FuncId> = self.calls.keys().copied().collect();
        ids.sort();
        // Undefined callees.
        for caller in &ids {
            let edges = self.calls.get(caller).cloned().unwrap_or_default();
            for (callee, site) in edges {
                let f = &self.prog.functions[callee.0 as usize];
                if f.body.is_none() {
                    let name = f.name.clone();
                    let decl = f.span;
                    self.err(
                        Diagnostic::error(
                            codes::UNDEFINED_FUNCTION,
                            format!("function `{name}` is called but never defined"),
                        )
                        .at(site)
                        .with_label(decl, "declared here"),
                    );
                }
            }
        }
        // Cycles, found by depth-first search; each cycle reported once at its first call edge.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Active,
            Done,
        }
        let n = self.prog.functions.len();
        let mut mark = vec![Mark::New; n];
        let mut reported = std::collections::HashSet::new();
        let mut errs = Vec::new();
        fn dfs(
            f: FuncId,
            calls: &HashMap<FuncId, Vec<(FuncId, Span)>>,
            mark: &mut Vec<Mark>,
            stack: &mut Vec<(FuncId, Span)>,
            found: &mut Vec<Vec<(FuncId, Span)>>,
        ) {
            mark[f.0 as usize] = Mark::Active;
            for &(g, site) in calls.get(&f).map(|v| v.as_slice()).unwrap_or(&[]) {
                stack.push((g, site));
                match mark[g.0 as usize] {
                    Mark::New => dfs(g, calls, mark, stack, found),
                    Mark::Active => {
                        let start = stack.iter().position(|(h, _)| *h == g).map(|p| p + 1).unwrap_or(0);
                        let mut cyc: Vec<(FuncId, Span)> = stack[start..].to_vec();
                        if cyc.is_empty() {
                            cyc = vec![(g, site)];
                        }
                        found.push(cyc);
                    }
                    Mark::Done => {}
                }
                stack.pop();
            }
            mark[f.0 as usize] = Mark::Done;
        }
        let mut found = Vec::new();
        for i in 0..n {
            if mark[i] == Mark::New {
                let mut stack = vec![(FuncId(i as u32), Span::default())];
                dfs(FuncId(i as u32), &self.calls, &mut mark, &mut stack, &mut found);
            }
        }
        for cyc in found {
            let mut members: Vec<u32> = cyc.iter().map(|(f, _)| f.0).collect();
            members.sort();
            if !reported.insert(members) {
                continue;
            }
            let names: Vec<String> =
                cyc.iter().map(|(f, _)| self.prog.functions[f.0 as usize].name.to_string()).collect();
            let (_, site) = cyc[cyc.len() - 1];
            let chain = if names.len() == 1 {
                format!("`{}` calls itself", names[0])
            } else {
                let mut c: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                c.push(format!("`{}`", names[0]));
                format!("call cycle: {}", c.join(" -> "))
            };
            let mut d = Diagnostic::error(codes::RECURSION, format!("recursion is not allowed in OpenCL C ({chain})"))
                .at_labeled(site, "recursive call");
            for (_, s) in cyc.iter().take(cyc.len() - 1) {
                d = d.with_label(*s, "call in the cycle");
            }
            errs.push(d.with_help("rewrite the recursion as a loop with an explicit stack in a private array"));
        }
        for e in errs {
            self.err(e);
        }
    }

    fn record_call(&mut self, callee: FuncId, site: Span) {
        if let Some(f) = &self.fcx {
            self.calls.entry(f.id).or_default().push((callee, site));
        }
    }
}

/// A program-scope `__global` variable kiln builds: a scalar, or arrays of scalars.
fn global_variable_type(ty: &Type) -> bool {
    match ty {
        Type::Scalar(_) => true,
        Type::Array(inner, _) => global_variable_type(inner),
        _ => false,
    }
}

/// The type OpenCL C gives an expression whose identifiers name values of the given types, or
/// the diagnostics OpenCL C reports for it. For front ends that lower another language onto
/// OpenCL C (`kiln-frontend-cxx`) and must know a built-in's or an operator's result type
/// before they write the expression: OpenCL C's own rules answer, so the two never disagree.
/// The expression is checked as if in a kernel's body.
pub fn type_of_expr(expr: &ast::Expr, operands: &[(Rc<str>, Type)], opts: &Options) -> Result<Type, Vec<Diagnostic>> {
    let mut s = Sema::new(opts);
    let locals: Vec<Local> = operands
        .iter()
        .map(|(name, ty)| Local {
            name: name.clone(),
            ty: ty.clone(),
            space: AddrSpace::Private,
            quals: Quals::default(),
            is_param: true,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span: expr.span,
        })
        .collect();
    s.prog.functions.push(hir::Function {
        name: "<operands>".into(),
        span: expr.span,
        is_kernel: true,
        ret: Type::Void,
        params: (0..locals.len() as u32).map(LocalId).collect(),
        locals: locals.clone(),
        body: None,
        attrs: KernelAttrs::default(),
    });
    s.fcx = Some(FnCtx {
        id: FuncId(0),
        locals,
        ret: Type::Void,
        is_kernel: true,
        loops: 0,
        breakables: 0,
        body_scope: 1,
        gotos: None,
        breakable_spans: Vec::new(),
    });
    s.push_scope();
    for (i, (name, _)) in operands.iter().enumerate() {
        s.bind(name, expr.span, Sym::Local(LocalId(i as u32)));
    }
    let x = s.rvalue(expr);
    if s.diags.iter().any(Diagnostic::is_error) {
        return Err(s.diags);
    }
    Ok(x.ty)
}
