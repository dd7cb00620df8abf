//! NDRange kernels: the work-items of a launch become loops (docs/timing.md, "NDRange
//! kernels").
//!
//! A kernel is an NDRange kernel when it calls a work-item function, a barrier, or declares
//! `__local` memory. Its global size arrives as extra scalar inputs (one per dimension, see
//! [`Implicit`]); its work-group size is static: `reqd_work_group_size`, or the size given at
//! build time.
//!
//! * **Streaming** (no barrier, no `__local` memory): one loop per dimension over the global
//!   ids, the innermost being dimension 0. The body is the kernel body; `return` moves on to the
//!   next work-item. Local and group ids are derived from the global id (by a constant local
//!   size), so work-items stream through one pipelined loop.
//! * **Grouped** (barriers or `__local` memory): loops over the work-groups; inside, the kernel
//!   is split at its barriers into *phases*, and each phase is a loop over the work-group's
//!   work-items, so every work-item finishes phase `k` before any starts phase `k + 1`. A
//!   barrier may sit at the kernel's top level or inside `for`/`while`/`if` whose controls are
//!   the same for every work-item of the group (kernel arguments, constants, group ids, sizes,
//!   and variables those loops declare); such a loop runs once per group, around its phases.
//!   A scalar variable used in more than one phase is kept per work-item: recomputed from its
//!   initializer where that only involves work-item ids and uniform values (`int lid =
//!   get_local_id(0);`), otherwise in a private memory indexed by the local linear id.
//!
//! Without a static work-group size (no `reqd_work_group_size`, none given at build time), a
//! kernel that needs one is built, as Intel's compiler builds it, for work-groups of any size
//! up to a maximum (`max_work_group_size`, else [`DEFAULT_MAX_WORK_GROUP_SIZE`]): the size is
//! an input at run time ([`Implicit::LocalSize`]) and per-work-item memories hold the maximum.

use super::*;
use kiln_hir::walk::{for_each_expr, for_each_stmt, writes_in_block};
use kiln_hir::{ExprKind as K, Loop, LoopKind, LoopPragmas, Stmt, WorkItemFn};
use std::collections::BTreeSet;

/// The environment keys of the loop variables: global ids, local ids, group ids.
const ND_INSTANCE: u32 = u32::MAX;
fn gid_key(d: u32) -> VarKey {
    (ND_INSTANCE, LocalId(d))
}
fn lid_key(d: u32) -> VarKey {
    (ND_INSTANCE, LocalId(3 + d))
}
fn grp_key(d: u32) -> VarKey {
    (ND_INSTANCE, LocalId(6 + d))
}

/// The largest work-group a kernel without a static size is built for, unless its
/// `max_work_group_size` says otherwise (Intel's default).
pub const DEFAULT_MAX_WORK_GROUP_SIZE: u32 = 256;

/// The NDRange setting while a kernel is lowered.
#[derive(Clone, Debug)]
pub(super) struct NdCtx {
    dims: u32,
    local: Option<[u32; 3]>,
    /// The work-group size inputs, when the size is given at run time, and the largest
    /// work-group the hardware holds then.
    local_inputs: [Option<Value>; 3],
    max_items: Option<u32>,
    grouped: bool,
    global_size: [Option<Value>; 3],
    num_groups: [Option<Value>; 3],
    work_dim: Option<Value>,
}

/// What a kernel body uses of the NDRange model.
#[derive(Default)]
struct Usage {
    fns: HashSet<WorkItemFn>,
    max_dim: u32,
    barrier: bool,
    local_memory: bool,
    /// A barrier in a called function.
    callee_barrier: Option<Span>,
}

/// The initializer of each scalar variable declared with one.
fn declared_inits(f: &hir::Function) -> HashMap<LocalId, hir::Expr> {
    let mut inits = HashMap::new();
    if let Some(body) = &f.body {
        for_each_stmt(body, &mut |s| {
            if let Stmt::Decl(id, Some(hir::Init::Expr(e)), _) = s {
                inits.insert(*id, e.clone());
            }
        });
    }
    inits
}

/// Is `x` the same in every work-item of a work-group (looking `depth` variables deep)?
fn uniform_var(f: &hir::Function, x: LocalId, r: &Refs, inits: &HashMap<LocalId, hir::Expr>, depth: u32) -> bool {
    if r.written.contains(&x) {
        return false;
    }
    let l = f.local(x);
    if r.group_decls.contains(&x) || (l.is_param && l.ty.scalar().is_some()) {
        return true;
    }
    let Some(init) = inits.get(&x).filter(|_| depth > 0 && l.ty.scalar().is_some() && l.space == AddrSpace::Private)
    else {
        return false;
    };
    let mut uniform = true;
    for_each_expr(&[Stmt::Expr(init.clone())], &mut |e| match &e.kind {
        K::Int(_) | K::Convert(_) | K::Unary(..) | K::Binary(..) => {}
        K::WorkItem(w, _) if !w.varies_within_group() => {}
        K::Local(y) if uniform_var(f, *y, r, inits, depth - 1) => {}
        _ => uniform = false,
    });
    uniform
}

/// One step of a work-group's program.
enum Phase<'h> {
    /// Work-item code: a loop over the work-group's work-items.
    Region { id: usize, stmts: Vec<&'h Stmt> },
    /// A loop containing barriers, run once per work-group around its phases.
    Loop { l: &'h Loop, body: Vec<Phase<'h>> },
    /// An `if` containing barriers, decided once per work-group.
    If { cond: &'h hir::Expr, then: Vec<Phase<'h>>, els: Vec<Phase<'h>>, span: Span },
}

fn is_barrier_stmt(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr(e) if matches!(e.kind, K::Barrier))
}

fn stmt_has_barrier(s: &Stmt) -> bool {
    let mut found = false;
    for_each_expr(std::slice::from_ref(s), &mut |e| found |= matches!(e.kind, K::Barrier));
    found
}

fn barrier_span(s: &Stmt) -> Option<Span> {
    let mut at = None;
    for_each_expr(std::slice::from_ref(s), &mut |e| {
        if matches!(e.kind, K::Barrier) && at.is_none() {
            at = Some(e.span);
        }
    });
    at
}

/// Splits a block at its barriers.
fn split<'h>(b: &'h [Stmt], next_id: &mut usize) -> Result<Vec<Phase<'h>>, Box<Diagnostic>> {
    let mut out = Vec::new();
    let mut cur: Vec<&Stmt> = Vec::new();
    let flush = |cur: &mut Vec<&'h Stmt>, out: &mut Vec<Phase<'h>>, next_id: &mut usize| {
        if !cur.is_empty() {
            out.push(Phase::Region { id: *next_id, stmts: std::mem::take(cur) });
            *next_id += 1;
        }
    };
    for s in b {
        if is_barrier_stmt(s) {
            flush(&mut cur, &mut out, next_id);
            continue;
        }
        if !stmt_has_barrier(s) {
            cur.push(s);
            continue;
        }
        flush(&mut cur, &mut out, next_id);
        match s {
            Stmt::Loop(l) => {
                let body = split(&l.body, next_id)?;
                out.push(Phase::Loop { l, body });
            }
            Stmt::If(c, t, e, span) => {
                let then = split(t, next_id)?;
                let els = split(e, next_id)?;
                out.push(Phase::If { cond: c, then, els, span: *span });
            }
            Stmt::Block(inner) => out.extend(split(inner, next_id)?),
            other => {
                let at = barrier_span(other).unwrap_or_default();
                return Err(Box::new(
                    Diagnostic::error(
                        codes::NON_UNIFORM_BARRIER,
                        "a barrier inside a `switch` or an expression cannot be placed in a work-group phase",
                    )
                    .at(at)
                    .with_help(
                        "move the barrier to the kernel's top level, or into a loop or `if` every work-item runs alike",
                    ),
                ));
            }
        }
    }
    flush(&mut cur, &mut out, next_id);
    Ok(out)
}

/// The locals each phase region refers to, and those the group-level controls refer to.
#[derive(Default)]
struct Refs {
    regions: HashMap<LocalId, BTreeSet<usize>>,
    /// Variables declared by a loop that contains barriers.
    group_decls: HashSet<LocalId>,
    /// Expressions evaluated once per work-group (loop controls and `if` conditions).
    group_exprs: Vec<(hir::Expr, Span)>,
    /// Variables written by work-item code.
    written: HashSet<LocalId>,
}

fn collect_refs(phases: &[Phase], r: &mut Refs) {
    for p in phases {
        match p {
            Phase::Region { id, stmts } => {
                let block: Vec<Stmt> = stmts.iter().map(|s| (*s).clone()).collect();
                for_each_expr(&block, &mut |e| {
                    if let K::Local(x) = e.kind {
                        r.regions.entry(x).or_default().insert(*id);
                    }
                });
                for_each_stmt(&block, &mut |s| {
                    if let Stmt::Decl(x, _, _) = s {
                        r.regions.entry(*x).or_default().insert(*id);
                    }
                });
                r.written.extend(writes_in_block(&block));
            }
            Phase::Loop { l, body } => {
                for s in &l.init {
                    match s {
                        Stmt::Decl(x, Some(hir::Init::Expr(e)), span) => {
                            r.group_decls.insert(*x);
                            r.group_exprs.push((e.clone(), *span));
                        }
                        Stmt::Decl(x, _, _) => {
                            r.group_decls.insert(*x);
                        }
                        Stmt::Expr(e) => r.group_exprs.push((e.clone(), e.span)),
                        other => {
                            let _ = other;
                        }
                    }
                }
                if let Some(c) = &l.cond {
                    r.group_exprs.push((c.clone(), c.span));
                }
                if let Some(s) = &l.step {
                    r.group_exprs.push((s.clone(), s.span));
                }
                collect_refs(body, r);
            }
            Phase::If { cond, then, els, span } => {
                r.group_exprs.push(((*cond).clone(), *span));
                collect_refs(then, r);
                collect_refs(els, r);
            }
        }
    }
}

impl<'p> Lowerer<'p> {
    fn usage(&self, f: &hir::Function) -> Usage {
        let mut u = Usage {
            local_memory: f.locals.iter().any(|l| l.space == AddrSpace::Local && !l.is_param)
                || f.params
                    .iter()
                    .any(|p| matches!(&f.local(*p).ty, Type::Pointer(pt) if pt.space == AddrSpace::Local)),
            ..Default::default()
        };
        let mut seen: HashSet<FuncId> = HashSet::new();
        fn visit(prog: &Program, b: &hir::Block, u: &mut Usage, seen: &mut HashSet<FuncId>, in_callee: bool) {
            let mut calls = Vec::new();
            for_each_expr(b, &mut |e| match &e.kind {
                K::WorkItem(f, d) => {
                    u.fns.insert(*f);
                    if f.takes_dim() && *d < 3 {
                        u.max_dim = u.max_dim.max(*d);
                    }
                }
                K::Barrier => {
                    if in_callee {
                        u.callee_barrier.get_or_insert(e.span);
                    } else {
                        u.barrier = true;
                    }
                }
                K::Call(f, _) => calls.push(*f),
                _ => {}
            });
            for c in calls {
                if seen.insert(c)
                    && let Some(body) = &prog.func(c).body
                {
                    visit(prog, body, u, seen, true);
                }
            }
        }
        if let Some(body) = &f.body {
            visit(self.prog, body, &mut u, &mut seen, false);
        }
        u
    }

    /// Lowers the body of an NDRange kernel; returns `false` for a single work-item kernel.
    pub(super) fn ndrange_body(&mut self, f: &'p hir::Function, body: &'p hir::Block) -> bool {
        let u = self.usage(f);
        // A kernel that states its maximum work-group size is built for any size up to it,
        // even when a launch's size is known at build time.
        let build_size = if f.attrs.max_work_group_size.is_some() { None } else { self.local_size };
        let local = f.attrs.reqd_work_group_size.or(build_size);
        // A kernel that never asks which work-item it is and has no barriers is a single
        // work-item kernel (Intel's "task"), also when it declares `__local` arrays: with no
        // work-group size given, OpenCL lets the implementation pick one, and kiln picks 1, so
        // the arrays are ordinary on-chip memories of the one work-item.
        let single_work_item = u.fns.is_empty() && !u.barrier && u.callee_barrier.is_none();
        if single_work_item && (!u.local_memory || local.is_none()) {
            return false;
        }
        if let Some(at) = u.callee_barrier {
            self.error(
                Diagnostic::error(
                    codes::NON_UNIFORM_BARRIER,
                    "a barrier in a function called by the kernel is not supported",
                )
                .at(at)
                .with_help("call the barrier from the kernel body itself"),
            );
            return true;
        }
        let grouped = u.barrier || u.local_memory;
        let needs_size = grouped || u.fns.iter().any(|x| x.needs_group_size());
        let max_items =
            (needs_size && local.is_none()).then(|| f.attrs.max_work_group_size.unwrap_or(DEFAULT_MAX_WORK_GROUP_SIZE));
        let mut dims = u.max_dim + 1;
        if let Some(ls) = local {
            for d in 0..3 {
                if ls[d as usize] > 1 {
                    dims = dims.max(d + 1);
                }
            }
        }
        let dims = dims.clamp(1, 3);
        // Launch parameters.
        let entry = self.k.entry;
        let span = f.span;
        let mut global_size = [None; 3];
        for d in 0..dims {
            global_size[d as usize] =
                Some(self.launch_input(entry, format!("__global_size{d}"), "size_t", Implicit::GlobalSize(d), span));
        }
        let mut work_dim = None;
        if u.fns.contains(&WorkItemFn::WorkDim) {
            work_dim = Some(self.launch_input(entry, "__work_dim".into(), "uint", Implicit::WorkDim, span));
        }
        let mut local_inputs = [None; 3];
        if max_items.is_some() {
            for d in 0..dims {
                local_inputs[d as usize] =
                    Some(self.launch_input(entry, format!("__local_size{d}"), "size_t", Implicit::LocalSize(d), span));
            }
        }
        let mut num_groups = [None; 3];
        for d in 0..dims as usize {
            let n = match (local, local_inputs[d]) {
                (Some(ls), _) => self.konst(ls[d] as u64, INDEX_WIDTH, span),
                (None, Some(v)) => v,
                (None, None) => continue,
            };
            let Some(gs) = global_size[d] else { continue };
            num_groups[d] = Some(self.emit(OpKind::Binary(BinOp::UDiv), vec![gs, n], INDEX_WIDTH, span));
        }
        self.nd = Some(NdCtx { dims, local, local_inputs, max_items, grouped, global_size, num_groups, work_dim });
        let mut info = NdRangeInfo {
            dims,
            local_size: local,
            max_work_group_size: max_items,
            phases: 1,
            grouped,
            per_item: vec![],
        };
        if !grouped {
            let loops: Vec<(VarKey, Value, String)> = (0..dims)
                .rev()
                .filter_map(|d| {
                    global_size[d as usize].map(|g| (gid_key(d), g, format!("work-items of dimension {d}")))
                })
                .collect();
            self.id_loops(&loops, span, &mut |l| {
                l.block(body);
            });
            self.k.ndrange = Some(info);
            return true;
        }
        let mut next = 0;
        let phases = match split(body, &mut next) {
            Ok(p) => p,
            Err(d) => {
                self.error(*d);
                return true;
            }
        };
        info.phases = next as u32;
        if !self.classify_state(f, &phases, &mut info) {
            return true;
        }
        self.k.ndrange = Some(info);
        let loops: Vec<(VarKey, Value, String)> = (0..dims)
            .rev()
            .filter_map(|d| num_groups[d as usize].map(|n| (grp_key(d), n, format!("work-groups of dimension {d}"))))
            .collect();
        self.id_loops(&loops, span, &mut |l| l.lower_phases(&phases));
        true
    }

    /// Decides how each variable crosses phases, and checks that barrier controls are uniform.
    fn classify_state(&mut self, f: &hir::Function, phases: &[Phase], info: &mut NdRangeInfo) -> bool {
        let mut r = Refs::default();
        collect_refs(phases, &mut r);
        // Uniform: the same in every work-item of a group. Group-loop variables and scalar
        // parameters are, and so is a variable set only by its declaration from uniform
        // values (`const int n = get_local_size(0);`), which every phase recomputes.
        let inits = declared_inits(f);
        let uniform_local = |x: LocalId, r: &Refs| uniform_var(f, x, r, &inits, 4);
        let mut ok = true;
        for (e, span) in &r.group_exprs {
            let mut problem: Option<String> = None;
            for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| match &x.kind {
                K::Local(id) if !uniform_local(*id, &r) => {
                    problem.get_or_insert(format!("`{}`, which each work-item may set differently", f.local(*id).name));
                }
                K::WorkItem(w, _) if w.varies_within_group() => {
                    problem.get_or_insert("a work-item id".to_string());
                }
                K::Deref(_) | K::Call(..) => {
                    problem.get_or_insert("memory or a function call, which kiln cannot prove uniform".to_string());
                }
                _ => {}
            });
            if let Some(p) = problem {
                self.error(
                    Diagnostic::error(
                        codes::NON_UNIFORM_BARRIER,
                        format!("a loop or `if` that contains a barrier depends on {p}"),
                    )
                    .at(*span)
                    .with_note("every work-item of a work-group must reach the same barriers; kiln runs such a loop once per work-group")
                    .with_help("compute the condition from kernel arguments, constants, group ids and sizes only"),
                );
                ok = false;
            }
        }
        let mut per_item: Vec<LocalId> = Vec::new();
        let mut remat_reads: Vec<LocalId> = Vec::new();
        let mut names = Vec::new();
        let mut vars: Vec<(&LocalId, &BTreeSet<usize>)> = r.regions.iter().collect();
        vars.sort_by_key(|(x, _)| **x);
        for (x, regions) in vars {
            if regions.len() < 2 || r.group_decls.contains(x) {
                continue;
            }
            let l = f.local(*x);
            if l.space == AddrSpace::Local || (l.is_param && !r.written.contains(x)) {
                continue;
            }
            let private_array = matches!(l.ty, Type::Array(..)) && !super::stmt::contains_pointer(&l.ty);
            if (l.ty.scalar().is_none() && !private_array) || l.is_param {
                self.error(
                    Diagnostic::error(
                        codes::NON_UNIFORM_BARRIER,
                        format!(
                            "`{}` is used on both sides of a barrier; kiln keeps scalars and arrays of scalars per work-item",
                            l.name
                        ),
                    )
                    .at(l.span)
                    .with_help("keep the data in a `__local` array indexed by the local id"),
                );
                ok = false;
                continue;
            }
            if private_array || self.frame().address_taken.contains(x) {
                per_item.push(*x);
                names.push(l.name.to_string());
                continue;
            }
            if let Some(init) = self.remat_init(f, *x, &r, &uniform_local) {
                // The locals the initializer reads (a temporary the lanes pass made) are
                // recomputed too, wherever `x` is.
                for_each_expr(&[Stmt::Expr(init.clone())], &mut |e| {
                    if let K::Local(id) = e.kind {
                        remat_reads.push(id);
                    }
                });
                self.remat.insert(*x, init);
                self.frames[0].storage.insert(*x, Storage::Remat);
                continue;
            }
            per_item.push(*x);
            names.push(l.name.to_string());
        }
        let items: u32 = info.local_size.map(|s| s.iter().product()).or(info.max_work_group_size).unwrap_or(1);
        for x in per_item {
            let l = f.local(x);
            let Some(s) = super::base_scalar(&l.ty) else { continue };
            let n = super::elem_count(&l.ty);
            let m = self.new_mem(format!("{}[work-item]", l.name).into(), MemKind::Private, s, Some(items * n), l.span);
            self.frames[0].storage.insert(x, Storage::PerItem(m, n));
        }
        // A uniform variable that group-level code reads (a loop bound) is recomputed there from
        // its initializer, as are the variables that initializer reads.
        let mut work: Vec<LocalId> = remat_reads;
        for (e, _) in &r.group_exprs {
            for_each_expr(&[Stmt::Expr(e.clone())], &mut |x| {
                if let K::Local(id) = x.kind {
                    work.push(id);
                }
            });
        }
        while let Some(x) = work.pop() {
            let l = f.local(x);
            if r.group_decls.contains(&x) || l.is_param || self.frames[0].storage.contains_key(&x) {
                continue;
            }
            if let Some(init) = self.remat_init(f, x, &r, &uniform_local) {
                for_each_expr(&[Stmt::Expr(init.clone())], &mut |e| {
                    if let K::Local(id) = e.kind {
                        work.push(id);
                    }
                });
                self.remat.insert(x, init);
                self.frames[0].storage.insert(x, Storage::Remat);
            }
        }
        info.per_item = names;
        ok
    }

    /// The initializer of `x` if it can be recomputed in any phase: `x` is only set by its
    /// declaration, from work-item functions, constants and uniform variables.
    fn remat_init(
        &self,
        f: &hir::Function,
        x: LocalId,
        r: &Refs,
        uniform: &dyn Fn(LocalId, &Refs) -> bool,
    ) -> Option<hir::Expr> {
        if r.written.contains(&x) {
            return None;
        }
        let body = f.body.as_ref()?;
        let mut init = None;
        for_each_stmt(body, &mut |s| {
            if let Stmt::Decl(id, Some(hir::Init::Expr(e)), _) = s
                && *id == x
            {
                init = Some(e.clone());
            }
        });
        let init = init?;
        let mut pure = true;
        for_each_expr(&[Stmt::Expr(init.clone())], &mut |e| match &e.kind {
            K::Int(_) | K::WorkItem(..) | K::Convert(_) | K::Unary(..) | K::Binary(..) => {}
            K::Local(y) if uniform(*y, r) => {}
            _ => pure = false,
        });
        pure.then_some(init)
    }

    /// Nested loops from 0 to each bound, outermost first; `body` runs innermost.
    fn id_loops(&mut self, loops: &[(VarKey, Value, String)], span: Span, body: &mut dyn FnMut(&mut Self)) {
        let Some(((var, bound, what), inner)) = loops.split_first() else {
            body(self);
            return;
        };
        self.scopes.push(Vec::new());
        let zero = self.konst(0, INDEX_WIDTH, span);
        let name: Rc<str> = match var.1.0 / 3 {
            0 => format!("global_id{}", var.1.0 % 3),
            1 => format!("local_id{}", var.1.0 % 3),
            _ => format!("group_id{}", var.1.0 % 3),
        }
        .into();
        self.declare_var(*var, name, EnvVal::Val(zero));
        let exit = self.new_join(span);
        let header = self.new_join(span);
        self.joins[header].loop_header = true;
        self.jump_to_join(header, span);
        self.enter_join(header);
        let header_block = self.joins[header].block;
        self.k.loops.push(LoopInfo {
            header: header_block,
            span,
            // Work-items never touch the same location between barriers unless the kernel has a
            // data race (undefined in OpenCL C), so a work-item loop carries no memory dependence.
            pragmas: LoopPragmas { ivdep: Some(None), ..Default::default() },
            transformations: vec![format!("the loop over the {what}")],
            known_trip_count: None,
        });
        self.loop_info_stack.push(self.k.loops.len() - 1);
        let Some(EnvVal::Val(i)) = self.env.get(var).cloned() else { return };
        let test = self.emit(OpKind::Cmp(CmpOp::Ult), vec![i, *bound], 1, span);
        self.enter_body_or_exit(test, exit, span);
        let cont = self.new_join(span);
        self.loops.push(LoopCtx { break_to: exit, continue_to: cont });
        let innermost = inner.is_empty();
        let saved_return = self.kernel_return_to;
        if innermost {
            self.kernel_return_to = Some(cont);
        }
        self.id_loops(inner, span, body);
        self.kernel_return_to = saved_return;
        self.loops.pop();
        self.jump_to_join(cont, span);
        self.enter_join(cont);
        if let Some(EnvVal::Val(i)) = self.env.get(var).cloned() {
            let one = self.konst(1, INDEX_WIDTH, span);
            let next = self.emit(OpKind::Binary(BinOp::Add), vec![i, one], INDEX_WIDTH, span);
            self.env.insert(*var, EnvVal::Val(next));
        }
        self.jump_to_join(header, span);
        self.loop_info_stack.pop();
        self.enter_join(exit);
        self.close_scope();
    }

    fn lower_phases(&mut self, phases: &[Phase]) {
        for p in phases {
            match p {
                Phase::Region { stmts, .. } => {
                    let Some(nd) = self.nd.clone() else { return };
                    let span = stmts.first().map(|s| stmt_span(s)).unwrap_or_default();
                    let loops: Vec<(VarKey, Value, String)> = (0..nd.dims)
                        .rev()
                        .map(|d| {
                            let n = self.local_size_value(&nd, d, span);
                            let size = match nd.max_items {
                                Some(m) => format!(" (its size an input at run time, at most {m} work-items)"),
                                None => String::new(),
                            };
                            (lid_key(d), n, format!("work-items of a work-group, dimension {d}{size}"))
                        })
                        .collect();
                    self.id_loops(&loops, span, &mut |l| {
                        for s in stmts {
                            l.stmt(s);
                        }
                    });
                }
                Phase::Loop { l, body } => self.group_loop(l, body),
                Phase::If { cond, then, els, span } => {
                    let c = self.cond(cond);
                    let merge = self.new_join(*span);
                    let then_b = self.k.new_block(*span);
                    let else_b = self.k.new_block(*span);
                    self.set_term(Terminator::Branch {
                        cond: c,
                        then_to: Target { block: then_b, args: vec![] },
                        else_to: Target { block: else_b, args: vec![] },
                    });
                    let saved = self.env.clone();
                    self.cur = then_b;
                    self.lower_phases(then);
                    self.jump_to_join(merge, *span);
                    self.env = saved;
                    self.cur = else_b;
                    self.lower_phases(els);
                    self.jump_to_join(merge, *span);
                    self.enter_join(merge);
                }
            }
        }
    }

    /// A loop containing barriers: its control runs once per work-group.
    fn group_loop(&mut self, l: &Loop, body: &[Phase]) {
        let span = l.span;
        self.scopes.push(Vec::new());
        for s in &l.init {
            self.stmt(s);
        }
        let exit = self.new_join(span);
        let header = self.new_join(span);
        self.joins[header].loop_header = true;
        self.jump_to_join(header, span);
        self.enter_join(header);
        let header_block = self.joins[header].block;
        self.k.loops.push(LoopInfo {
            header: header_block,
            span,
            pragmas: l.pragmas.clone(),
            transformations: vec![
                "contains barriers: runs once per work-group, one loop over the work-items per phase".into(),
            ],
            known_trip_count: None,
        });
        self.loop_info_stack.push(self.k.loops.len() - 1);
        let test_first = l.kind != LoopKind::DoWhile;
        if test_first && let Some(c) = &l.cond {
            let test = self.cond(c);
            self.enter_body_or_exit(test, exit, span);
        }
        self.lower_phases(body);
        if let Some(s) = &l.step {
            self.rvalue(s);
        }
        if !test_first && let Some(c) = &l.cond {
            let test = self.cond(c);
            let h_args = self.join_args(header, span);
            let e_args = self.join_args(exit, span);
            let (hb, eb) = (self.joins[header].block, self.joins[exit].block);
            self.terminate(
                Terminator::Branch {
                    cond: test,
                    then_to: Target { block: hb, args: h_args },
                    else_to: Target { block: eb, args: e_args },
                },
                span,
            );
        } else {
            self.jump_to_join(header, span);
        }
        self.loop_info_stack.pop();
        self.enter_join(exit);
        self.close_scope();
    }

    fn env_value(&mut self, key: VarKey, span: Span) -> Value {
        match self.env.get(&key) {
            Some(EnvVal::Val(v)) => *v,
            _ => self.konst(0, INDEX_WIDTH, span),
        }
    }

    /// A scalar input of the launch (a size, the dimension count) that the kernel's source does
    /// not declare.
    fn launch_input(&mut self, entry: Block, name: String, c_type: &str, implicit: Implicit, span: Span) -> Value {
        let name: Rc<str> = name.into();
        let v = self.k.add_param(entry, INDEX_WIDTH, Some(name.clone()));
        self.k.params.push(Param {
            name,
            c_type: c_type.into(),
            kind: ParamKind::Scalar { value: v, signed: false, float: false },
            span,
            implicit: Some(implicit),
            lane: None,
        });
        v
    }

    /// The work-group size in dimension `d`: a constant, or the run-time input.
    fn local_size_value(&mut self, nd: &NdCtx, d: u32, span: Span) -> Value {
        match (nd.local, nd.local_inputs[d as usize]) {
            (None, Some(v)) => v,
            (local, _) => self.konst(local.map(|l| l[d as usize]).unwrap_or(1) as u64, INDEX_WIDTH, span),
        }
    }

    /// Where the current work-item's `n` elements of per-work-item storage start.
    pub(super) fn per_item_base(&mut self, n: u32, span: Span) -> Value {
        let id = self.local_linear_id(span);
        if n == 1 {
            return id;
        }
        let size = self.konst(u64::from(n), INDEX_WIDTH, span);
        self.emit(OpKind::Binary(BinOp::Mul), vec![id, size], INDEX_WIDTH, span)
    }

    /// The local linear id of the current work-item (the index of per-work-item storage).
    pub(super) fn local_linear_id(&mut self, span: Span) -> Value {
        self.work_item(WorkItemFn::LocalLinearId, 0, span)
    }

    /// The value of a work-item function for the current work-item.
    pub(super) fn work_item(&mut self, f: WorkItemFn, d: u32, span: Span) -> Value {
        let Some(nd) = self.nd.clone() else {
            return self.konst(0, INDEX_WIDTH, span);
        };
        let c = |l: &mut Self, v: u64| l.konst(v, INDEX_WIDTH, span);
        let bin =
            |l: &mut Self, op: BinOp, a: Value, b: Value| l.emit(OpKind::Binary(op), vec![a, b], INDEX_WIDTH, span);
        if f.takes_dim() && d >= nd.dims {
            // A dimension the launch does not have.
            let v = match f {
                WorkItemFn::GlobalSize
                | WorkItemFn::LocalSize
                | WorkItemFn::EnqueuedLocalSize
                | WorkItemFn::NumGroups => 1,
                _ => 0,
            };
            return c(self, v);
        }
        match f {
            WorkItemFn::WorkDim => match nd.work_dim {
                Some(v) => v,
                None => c(self, nd.dims as u64),
            },
            WorkItemFn::GlobalSize => nd.global_size[d as usize].unwrap_or_else(|| c(self, 1)),
            WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => self.local_size_value(&nd, d, span),
            WorkItemFn::NumGroups => nd.num_groups[d as usize].unwrap_or_else(|| c(self, 1)),
            WorkItemFn::GlobalOffset => c(self, 0),
            WorkItemFn::LocalId | WorkItemFn::GroupId => {
                let local = f == WorkItemFn::LocalId;
                if nd.grouped {
                    self.env_value(if local { lid_key(d) } else { grp_key(d) }, span)
                } else {
                    // Streaming: both come from the global id and the work-group size.
                    let g = self.env_value(gid_key(d), span);
                    let n = self.local_size_value(&nd, d, span);
                    bin(self, if local { BinOp::URem } else { BinOp::UDiv }, g, n)
                }
            }
            WorkItemFn::GlobalId => {
                if nd.grouped {
                    let g = self.env_value(grp_key(d), span);
                    let n = self.local_size_value(&nd, d, span);
                    let base = bin(self, BinOp::Mul, g, n);
                    let l = self.env_value(lid_key(d), span);
                    bin(self, BinOp::Add, base, l)
                } else {
                    self.env_value(gid_key(d), span)
                }
            }
            WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId => {
                let global = f == WorkItemFn::GlobalLinearId;
                let mut acc: Option<Value> = None;
                for dd in (0..nd.dims).rev() {
                    let id = self.work_item(if global { WorkItemFn::GlobalId } else { WorkItemFn::LocalId }, dd, span);
                    acc = Some(match acc {
                        None => id,
                        Some(a) => {
                            let size = if global {
                                nd.global_size[dd as usize].unwrap_or_else(|| c(self, 1))
                            } else {
                                self.local_size_value(&nd, dd, span)
                            };
                            let scaled = bin(self, BinOp::Mul, a, size);
                            bin(self, BinOp::Add, scaled, id)
                        }
                    });
                }
                acc.unwrap_or_else(|| c(self, 0))
            }
        }
    }
}

fn stmt_span(s: &Stmt) -> Span {
    match s {
        Stmt::Expr(e) => e.span,
        Stmt::Decl(_, _, sp) | Stmt::If(_, _, _, sp) | Stmt::Switch(_, _, sp) => *sp,
        Stmt::Loop(l) => l.span,
        Stmt::Break(sp) | Stmt::Continue(sp) | Stmt::Return(_, sp) => *sp,
        Stmt::Block(b) => b.first().map(stmt_span).unwrap_or_default(),
    }
}
