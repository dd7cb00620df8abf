//! Lowering of the typed program ([`kiln_hir`], legalized first by [`kiln_hir::legalize`],) to the dataflow IR.
//!
//! - Scalar local variables become SSA values. SSA is built structurally: every join block
//!   (if-merge, loop header, loop exit, `continue` target, `switch` arm) gets one parameter per
//!   variable in scope, in a canonical order; `simplify-params` later removes the redundant ones.
//! - Arrays, address-taken scalars and `__constant` data become memories. A pointer is lowered to
//!   a (memory, element index) pair known at compile time; a pointer that may refer to two
//!   memories is diagnosed when it is used.
//! - Calls are inlined; each inlined call gets fresh copies of the callee's locals and memories.
//! - `&&`, `||` and `?:` become control flow unless both sides can be evaluated speculatively.

mod atomic;
mod builtins;
mod coalesce;
mod expr;
mod float;
mod loops;
mod ndrange;
mod pipes;
mod stmt;

pub use loops::{AUTO_UNROLL_MAX_TRIP, MAX_UNROLL_COPIES};

use crate::ir::*;
use kiln_diagnostics::Span;
use kiln_diagnostics::{Diagnostic, codes};
use kiln_hir::legalize::{self, legalize};
use kiln_hir::types::AddrSpace;
use kiln_hir::types::{Scalar, Type};
use kiln_hir::{self as hir, FuncId, GlobalId, LocalId, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// Width of pointer indices.
pub const INDEX_WIDTH: u32 = 32;

/// The widest word a memory port moves per request.
pub const MAX_WORD_BITS: u32 = 512;

/// A local variable of one inlined instance of a function.
type VarKey = (u32, LocalId);

/// A pointer value: a memory and an index into it (in elements of the memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PtrVal {
    /// `None` for the null pointer.
    mem: Option<Mem>,
    index: Value,
}

/// The current value of a variable.
#[derive(Clone, Debug)]
enum EnvVal {
    Val(Value),
    Ptr(PtrVal),
    /// Never assigned on some path reaching here.
    Undef,
    /// A pointer that refers to different memories on different paths.
    Ambiguous(Vec<Rc<str>>),
}

/// How a local variable is stored.
#[derive(Clone, Copy, Debug)]
enum Storage {
    /// An SSA value (or pointer) tracked in the environment.
    Ssa,
    /// A memory (arrays, address-taken scalars).
    Mem(Mem),
    /// `n` elements per work-item of a work-group, from the local linear id times `n`
    /// (NDRange kernels: a variable or private array live across a barrier).
    PerItem(Mem, u32),
    /// Recomputed from its initializer at every use (NDRange kernels: a scalar live across a
    /// barrier whose value only depends on the work-item's ids).
    Remat,
}

/// The lowered value of an expression.
#[derive(Clone, Copy, Debug)]
enum RV {
    Val(Value),
    Ptr(PtrVal),
    Void,
}

/// An l-value.
#[derive(Clone, Debug)]
enum Place {
    Var(VarKey),
    Mem { mem: Mem, index: Value },
}

/// A block that several control paths join, with one parameter per variable in `vars`.
#[derive(Clone, Debug)]
struct Join {
    block: Block,
    vars: Vec<VarKey>,
    /// For pointer variables: the memory the parameter's index refers to.
    ptr_mems: HashMap<VarKey, Option<Mem>>,
    /// Pointer variables that got different memories on different incoming edges.
    conflicts: HashMap<VarKey, Vec<Rc<str>>>,
    /// Whether any edge reached this join yet.
    reached: bool,
    /// The arguments of every edge into the join so far.
    incoming: Vec<Vec<Value>>,
    /// A loop header is entered before its back edges exist; other joins only once every edge
    /// into them is known.
    loop_header: bool,
}

struct LoopCtx {
    break_to: usize,
    continue_to: usize,
}

/// One inlined function activation.
struct Frame {
    func: FuncId,
    instance: u32,
    /// Join index receiving `return`s (for inlined calls), or `None` for the kernel itself.
    ret_join: Option<usize>,
    ret_ptr_mem: Option<Option<Mem>>,
    storage: HashMap<LocalId, Storage>,
    address_taken: HashSet<LocalId>,
    rom_candidates: HashSet<LocalId>,
    /// Locals whose declaration was rejected with a diagnostic: their uses say nothing more.
    rejected: HashSet<LocalId>,
}

pub(crate) struct Lowerer<'p> {
    prog: &'p Program,
    k: Kernel,
    cur: Block,
    env: BTreeMap<VarKey, EnvVal>,
    /// Variables declared in each open lexical scope.
    scopes: Vec<Vec<VarKey>>,
    joins: Vec<Join>,
    loops: Vec<LoopCtx>,
    frames: Vec<Frame>,
    next_instance: u32,
    globals: HashMap<GlobalId, Mem>,
    diags: Vec<Diagnostic>,
    /// Names of kernel-visible variables, for value naming.
    var_names: HashMap<VarKey, Rc<str>>,
    /// The ret join parameter holding the return value, per join index.
    ret_value_param: HashMap<usize, Value>,
    /// Apply loop transformations (unrolling).
    transform_loops: bool,
    /// See [`LowerOptions::coalesce_nests`].
    coalesce_nests: BTreeSet<usize>,
    /// Values known to be constants (for trip-count probes).
    const_memo: HashMap<Value, Option<u64>>,
    /// Indices into `k.loops` of the loops being lowered, innermost last.
    loop_info_stack: Vec<usize>,
    /// The work-group size given at build time (the kernel's attribute takes precedence).
    local_size: Option<[u32; 3]>,
    local_args: Vec<(Rc<str>, u32)>,
    /// The NDRange setting of the kernel being lowered.
    nd: Option<ndrange::NdCtx>,
    /// Where a `return` of the kernel goes: the next work-item, in NDRange kernels.
    kernel_return_to: Option<usize>,
    /// Initializers of variables recomputed at each use.
    remat: HashMap<LocalId, hir::Expr>,
    /// The kernel's pipe parameters.
    /// The kernel's pipe behind each pipe parameter of the kernel and of inlined helpers.
    pipe_params: HashMap<VarKey, Pipe>,
}

/// How to lower.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// Unroll loops (pragmas and automatic). Hardware is built with it; the emulator runs the
    /// kernel without it, as the reference for the transformations.
    pub loop_transforms: bool,
    /// Keep array elements that a loop uses at an unchanging index in registers (the HIR pass
    /// `scalar-replace`); like the loop transformations, the emulator runs without it.
    pub scalar_replacement: bool,
    /// The work-group size of NDRange kernels without `reqd_work_group_size`.
    pub local_size: Option<[u32; 3]>,
    /// Elements of `__local` memory behind `__local` pointer parameters, by name (the run
    /// spec's `{ local = N }`), for the parameters without `local_mem_size` (which fixes the
    /// size); otherwise [`DEFAULT_LOCAL_ARG_BYTES`].
    pub local_args: Vec<(Rc<str>, u32)>,
    /// Nests coalesced although their inner loop is short enough to be unrolled, by their index
    /// in [`Kernel::coalescible_nests`] (the driver tries each and keeps it where the schedule
    /// estimates no more cycles).
    pub coalesce_nests: BTreeSet<usize>,
    /// Under relaxed math, the partial sums a loop's float sum is split into (0 or 1: none;
    /// the driver chooses, `kiln_hir::legalize::Options::float_partial_sums`).
    pub float_partial_sums: u32,
}

/// The `__local` memory built behind a `__local` pointer parameter that says nothing about
/// its size (Intel's compiler has the same default).
pub const DEFAULT_LOCAL_ARG_BYTES: u32 = 16 * 1024;

/// Lowers every kernel of a program. Returns the module and diagnostics (lowering errors make
/// the affected kernel absent).
pub fn lower_program(prog: &Program) -> (Module, Vec<Diagnostic>) {
    let mut module = Module::default();
    let mut diags = Vec::new();
    for (id, _) in prog.kernels() {
        match lower_kernel(prog, id) {
            Ok(k) => module.kernels.push(k),
            Err(d) => diags.extend(d),
        }
    }
    (module, diags)
}

/// Lowers one kernel as written (no loop transformations).
pub fn lower_kernel(prog: &Program, id: FuncId) -> Result<Kernel, Vec<Diagnostic>> {
    lower_kernel_with(prog, id, &LowerOptions::default())
}

/// Lowers one kernel.
pub fn lower_kernel_with(prog: &Program, id: FuncId, opts: &LowerOptions) -> Result<Kernel, Vec<Diagnostic>> {
    // A kernel with `max_work_group_size` is built for a work-group size given at run time.
    let runtime_size = prog.func(id).attrs.max_work_group_size.is_some();
    let local_size = if runtime_size { None } else { opts.local_size };
    let legal_opts = legalize::Options {
        local_size,
        float_partial_sums: opts.float_partial_sums,
        scalar_replacement: opts.scalar_replacement,
    };
    let legal = legalize(prog, id, &legal_opts).map_err(|f| match f {
        legalize::Failure::Diagnostics(d) => d,
        legalize::Failure::Invalid { pass, violations } => {
            vec![Diagnostic::internal_error(&format!("HIR pass `{pass}`"), &violations)]
        }
    })?;
    let prog = &legal;
    let f = prog.func(id);
    let mut l = Lowerer {
        prog,
        k: Kernel::new(f.name.clone(), f.span),
        cur: Block::from_u32(0),
        env: BTreeMap::new(),
        scopes: vec![vec![]],
        joins: vec![],
        loops: vec![],
        frames: vec![],
        next_instance: 0,
        globals: HashMap::new(),
        diags: vec![],
        var_names: HashMap::new(),
        ret_value_param: HashMap::new(),
        transform_loops: opts.loop_transforms,
        coalesce_nests: opts.coalesce_nests.clone(),
        const_memo: HashMap::new(),
        loop_info_stack: Vec::new(),
        local_size: opts.local_size,
        local_args: opts.local_args.clone(),
        nd: None,
        kernel_return_to: None,
        remat: HashMap::new(),
        pipe_params: HashMap::new(),
    };
    l.cur = l.k.entry;
    l.kernel_body(id);
    if l.diags.iter().any(Diagnostic::is_error) {
        return Err(l.diags);
    }
    l.k.relaxed_math = prog.float_mode.reassociate;
    if prog.float_mode.denormals_are_zero {
        use crate::passes::Pass;
        crate::passes::flush_subnormals::FlushSubnormals.run(&mut l.k);
    }
    Ok(l.k)
}

/// Bits of a scalar type in registers (`bool` is 1 bit).
pub(crate) fn scalar_width(s: Scalar) -> u32 {
    s.bits()
}

/// Number of scalar elements in a type stored in memory.
fn elem_count(ty: &Type) -> u32 {
    match ty {
        Type::Array(t, Some(n)) => elem_count(t) * n,
        Type::Vector(_, n) => u32::from(if *n == 3 { 4 } else { *n }),
        _ => 1,
    }
}

/// The innermost scalar element type of an (array) type.
fn base_scalar(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) | Type::Atomic(s) => Some(*s),
        Type::Array(t, _) => base_scalar(t),
        _ => None,
    }
}

fn flatten_init(init: &hir::Init, out: &mut Vec<hir::Expr>) {
    match init {
        hir::Init::Expr(e) => out.push(e.clone()),
        hir::Init::List(items) => {
            for i in items {
                flatten_init(i, out);
            }
        }
        hir::Init::Union(_, i) => flatten_init(i, out),
    }
}

impl<'p> Lowerer<'p> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn frame(&self) -> &Frame {
        self.frames.last().unwrap_or_else(|| unreachable!("lowering always runs inside a frame"))
    }

    fn func(&self) -> &'p hir::Function {
        self.prog.func(self.frame().func)
    }

    fn key(&self, id: LocalId) -> VarKey {
        (self.frame().instance, id)
    }

    // ----- emission helpers -----

    fn emit(&mut self, kind: OpKind, args: Vec<Value>, width: u32, span: Span) -> Value {
        self.k.push_value(self.cur, kind, args, width, span)
    }

    fn konst(&mut self, v: u64, width: u32, span: Span) -> Value {
        self.emit(OpKind::Const(v & op::mask(width)), vec![], width, span)
    }

    /// Resizes an integer value, extending by `signed`.
    fn resize(&mut self, v: Value, to: u32, signed: bool, span: Span) -> Value {
        let from = self.k.width(v);
        if from == to {
            v
        } else if from > to {
            self.emit(OpKind::Cast(CastOp::Trunc), vec![v], to, span)
        } else if signed {
            self.emit(OpKind::Cast(CastOp::Sext), vec![v], to, span)
        } else {
            self.emit(OpKind::Cast(CastOp::Zext), vec![v], to, span)
        }
    }

    fn set_term(&mut self, t: Terminator) {
        self.k.blocks[self.cur].term = t;
    }

    /// Ends the current block with `t` and continues in a fresh block with no predecessors
    /// (code after `break`/`return` is unreachable and removed later).
    fn terminate(&mut self, t: Terminator, span: Span) {
        self.set_term(t);
        self.cur = self.k.new_block(span);
    }

    // ----- joins -----

    /// Creates a join block with parameters for every variable currently in scope.
    fn new_join(&mut self, span: Span) -> usize {
        let block = self.k.new_block(span);
        let vars: Vec<VarKey> = self.env.keys().copied().collect();
        let mut ptr_mems = HashMap::new();
        for v in &vars {
            let name = self.var_names.get(v).cloned();
            self.k.add_param(block, INDEX_WIDTH.max(1), name);
            if let Some(EnvVal::Ptr(p)) = self.env.get(v) {
                ptr_mems.insert(*v, p.mem);
            }
        }
        // Parameter widths are fixed once the variables' kinds are known; see `fix_param_widths`.
        self.joins.push(Join {
            block,
            vars,
            ptr_mems,
            conflicts: HashMap::new(),
            reached: false,
            incoming: Vec::new(),
            loop_header: false,
        });
        let j = self.joins.len() - 1;
        self.fix_param_widths(j);
        j
    }

    /// Gives each join parameter the width of its variable's current value.
    fn fix_param_widths(&mut self, j: usize) {
        let join = self.joins[j].clone();
        for (i, v) in join.vars.iter().enumerate() {
            let w = self.var_width(*v);
            let p = self.k.blocks[join.block].params[i];
            self.k.values[p].width = w;
        }
    }

    fn var_width(&self, v: VarKey) -> u32 {
        match self.env.get(&v) {
            Some(EnvVal::Val(x)) => self.k.width(*x),
            Some(EnvVal::Ptr(_)) | Some(EnvVal::Ambiguous(_)) => INDEX_WIDTH,
            _ => self.declared_width(v),
        }
    }

    fn declared_width(&self, v: VarKey) -> u32 {
        // The variable's declared type decides the width of an undefined value.
        let f = self.frames.iter().rev().find(|f| f.instance == v.0).map(|f| f.func);
        let ty = f.map(|f| self.prog.func(f).local(v.1).ty.clone());
        match ty {
            Some(Type::Scalar(s)) => scalar_width(s),
            _ => INDEX_WIDTH,
        }
    }

    /// The jump arguments for entering join `j` from the current block with the current
    /// environment. Records pointer-memory conflicts.
    fn join_args(&mut self, j: usize, span: Span) -> Vec<Value> {
        let vars = self.joins[j].vars.clone();
        let mut args = Vec::with_capacity(vars.len());
        for v in &vars {
            let w = {
                let p = self.k.blocks[self.joins[j].block].params[args.len()];
                self.k.width(p)
            };
            let val = match self.env.get(v).cloned() {
                Some(EnvVal::Val(x)) => {
                    if self.k.width(x) != w {
                        // A variable's width never changes; mismatches only happen for Undef
                        // params created before the first assignment.
                        self.resize(x, w, false, span)
                    } else {
                        x
                    }
                }
                Some(EnvVal::Ptr(p)) => {
                    match self.joins[j].ptr_mems.get(v).copied() {
                        None => {
                            self.joins[j].ptr_mems.insert(*v, p.mem);
                        }
                        Some(m) if m != p.mem => {
                            let names = self.mem_names(&[m, p.mem]);
                            self.joins[j].conflicts.insert(*v, names);
                        }
                        Some(_) => {}
                    }
                    p.index
                }
                Some(EnvVal::Ambiguous(names)) => {
                    self.joins[j].conflicts.insert(*v, names);
                    self.konst(0, w, span)
                }
                Some(EnvVal::Undef) | None => self.konst(0, w, span),
            };
            args.push(val);
        }
        self.joins[j].reached = true;
        self.joins[j].incoming.push(args.clone());
        args
    }

    fn mem_names(&self, mems: &[Option<Mem>]) -> Vec<Rc<str>> {
        mems.iter()
            .map(|m| match m {
                Some(m) => self.k.mems[*m].name.clone(),
                None => "NULL".into(),
            })
            .collect()
    }

    /// Jumps from the current block to join `j`.
    fn jump_to_join(&mut self, j: usize, span: Span) {
        let args = self.join_args(j, span);
        let block = self.joins[j].block;
        self.terminate(Terminator::Jump(Target { block, args }), span);
    }

    /// Ends the current block with a loop test: on `test` emission continues in a new body
    /// block, otherwise control leaves to join `exit`.
    fn enter_body_or_exit(&mut self, test: Value, exit: usize, span: Span) {
        let body = self.k.new_block(span);
        let exit_args = self.join_args(exit, span);
        let exit_block = self.joins[exit].block;
        self.set_term(Terminator::Branch {
            cond: test,
            then_to: Target { block: body, args: vec![] },
            else_to: Target { block: exit_block, args: exit_args },
        });
        self.cur = body;
    }

    /// Continues emission in join `j`: the environment becomes its parameters, or, where every
    /// edge into the join passes the same value, that value (so that constants stay visible to
    /// the loop transformations; `simplify-params` would remove such a parameter anyway).
    fn enter_join(&mut self, j: usize) {
        let join = self.joins[j].clone();
        self.cur = join.block;
        let params = self.k.blocks[join.block].params.clone();
        for (i, v) in join.vars.iter().enumerate() {
            let mut p = params[i];
            if !join.loop_header
                && let Some(first) = join.incoming.first()
                && join.incoming.iter().all(|args| args[i] == first[i])
            {
                p = first[i];
            }
            let val = if let Some(names) = join.conflicts.get(v) {
                EnvVal::Ambiguous(names.clone())
            } else if let Some(m) = join.ptr_mems.get(v) {
                EnvVal::Ptr(PtrVal { mem: *m, index: p })
            } else {
                EnvVal::Val(p)
            };
            self.env.insert(*v, val);
        }
    }

    // ----- memories -----

    fn new_mem(&mut self, name: Rc<str>, kind: MemKind, s: Scalar, len: Option<u32>, span: Span) -> Mem {
        self.k.mems.push(MemData {
            elem_signed: s.is_signed(),
            elem_float: s.is_float(),
            ..MemData::new(name, kind, scalar_width(s), len, span)
        })
    }

    /// The ROM holding a program-scope `__constant` array.
    fn global_mem(&mut self, g: GlobalId, span: Span) -> Option<Mem> {
        if let Some(m) = self.globals.get(&g) {
            return Some(*m);
        }
        let gl = self.prog.global(g);
        let Some(s) = base_scalar(&gl.ty) else {
            self.error(
                Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, "this constant's type is not supported").at(span),
            );
            return None;
        };
        if gl.space == AddrSpace::Global {
            // Written by the kernel: its memory is made, and initialized, at the kernel's entry
            // (see `kernel_body`).
            self.error(Diagnostic::internal_error("lowering", &[format!("program-scope `{}` has no memory", gl.name)]));
            return None;
        }
        let len = elem_count(&gl.ty);
        let m = self.new_mem(gl.name.clone(), MemKind::Rom, s, Some(len), gl.span);
        let mut values = Vec::new();
        if let Some(init) = &gl.init {
            let mut exprs = Vec::new();
            flatten_init(init, &mut exprs);
            values = exprs.iter().map(|e| e.as_bits().unwrap_or(0) & op::mask(scalar_width(s))).collect();
        }
        values.resize(len as usize, 0);
        self.k.mems[m].init = Some(values);
        self.globals.insert(g, m);
        Some(m)
    }

    // ----- kernel entry -----

    /// Program-scope `__global` variables (OpenCL 2.0) in on-chip memory, written with their
    /// initializers when the kernel starts: each launch starts from them.
    fn program_global_variables(&mut self, _kernel: FuncId) {
        let globals: Vec<(GlobalId, hir::Global)> = (0..self.prog.globals.len())
            .map(|i| (GlobalId(i as u32), self.prog.global(GlobalId(i as u32)).clone()))
            .filter(|(_, g)| g.space == AddrSpace::Global)
            .collect();
        for (g, gl) in globals {
            let Some(s) = base_scalar(&gl.ty) else { continue };
            let len = elem_count(&gl.ty);
            let m = self.new_mem(gl.name.clone(), MemKind::Private, s, Some(len), gl.span);
            let mut exprs = Vec::new();
            if let Some(init) = &gl.init {
                flatten_init(init, &mut exprs);
            }
            let w = scalar_width(s);
            for i in 0..len as usize {
                let v = exprs.get(i).and_then(|e| e.as_bits()).unwrap_or(0) & op::mask(w);
                let (idx, val) = (self.konst(i as u64, INDEX_WIDTH, gl.span), self.konst(v, w, gl.span));
                self.k.push_op(self.cur, OpKind::Store(m), vec![idx, val], None, gl.span);
            }
            self.globals.insert(g, m);
        }
    }

    fn kernel_body(&mut self, id: FuncId) {
        let f = self.prog.func(id);
        let instance = self.next_instance;
        self.next_instance += 1;
        let (address_taken, rom_candidates) = scan_function(f);
        self.frames.push(Frame {
            func: id,
            instance,
            ret_join: None,
            ret_ptr_mem: None,
            storage: HashMap::new(),
            address_taken,
            rom_candidates,
            rejected: HashSet::new(),
        });
        let entry = self.k.entry;
        self.program_global_variables(id);
        for (i, pid) in f.params.iter().enumerate() {
            let p = f.local(*pid);
            let key = (instance, *pid);
            self.var_names.insert(key, p.name.clone());
            let c_type = kiln_hir::types::TypeDisplay { ty: &p.ty, record_name: &|_| "struct".into() }.to_string();
            match &p.ty {
                Type::Scalar(s) => {
                    let v = self.k.add_param(entry, scalar_width(*s), Some(p.name.clone()));
                    let lane = p.lane_of.as_ref().map(|l| VectorLane {
                        vector: l.vector.clone(),
                        vector_c_type: kiln_hir::types::TypeDisplay { ty: &l.ty, record_name: &|_| "struct".into() }
                            .to_string(),
                        index: l.index,
                        lanes: match l.ty {
                            Type::Vector(_, n) => n,
                            _ => 1,
                        },
                    });
                    self.k.params.push(Param {
                        name: p.name.clone(),
                        c_type,
                        kind: ParamKind::Scalar { value: v, signed: s.is_signed(), float: s.is_float() },
                        span: p.span,
                        implicit: None,
                        lane,
                    });
                    self.frames[0].storage.insert(*pid, Storage::Ssa);
                    if self.frames[0].address_taken.contains(pid) {
                        let m = self.new_mem(p.name.clone(), MemKind::Private, *s, Some(1), p.span);
                        let z = self.konst(0, INDEX_WIDTH, p.span);
                        self.k.push_op(self.cur, OpKind::Store(m), vec![z, v], None, p.span);
                        self.frames[0].storage.insert(*pid, Storage::Mem(m));
                    } else {
                        self.env.insert(key, EnvVal::Val(v));
                    }
                }
                Type::Pointer(pt) => {
                    let Some(s) = base_scalar(&pt.ty).filter(|_| !pt.ty.is_pointer()) else {
                        self.error(
                            Diagnostic::error(
                                codes::KERNEL_ARG,
                                format!("parameter `{}` points to a type kiln cannot build", p.name),
                            )
                            .at(p.span),
                        );
                        continue;
                    };
                    let kind = match pt.space {
                        AddrSpace::Global => MemKind::Global { param: i as u32 },
                        AddrSpace::Constant => MemKind::ConstantArg { param: i as u32 },
                        AddrSpace::Local => {
                            let bytes = f.attrs.local_mem_size.iter().find(|(at, _)| *at == i).map(|(_, b)| *b);
                            let elem = (scalar_width(s) / 8).max(1);
                            // The attribute fixes the hardware; without it the launch's size is
                            // built (the run spec must then fit what was built).
                            let from_launch = self.local_args.iter().find(|(n, _)| **n == *p.name).map(|(_, n)| *n);
                            let len = match (bytes, from_launch) {
                                (Some(b), _) => b / elem,
                                (None, Some(n)) => n,
                                (None, None) => DEFAULT_LOCAL_ARG_BYTES / elem,
                            }
                            .max(1);
                            let m = self.new_mem(p.name.clone(), MemKind::Local, s, Some(len), p.span);
                            self.k.mems[m].volatile = pt.quals.is_volatile;
                            self.k.params.push(Param {
                                name: p.name.clone(),
                                c_type,
                                kind: ParamKind::Local { mem: m },
                                span: p.span,
                                implicit: None,
                                lane: None,
                            });
                            let zero = self.konst(0, INDEX_WIDTH, p.span);
                            self.frames[0].storage.insert(*pid, Storage::Ssa);
                            self.env.insert(key, EnvVal::Ptr(PtrVal { mem: Some(m), index: zero }));
                            continue;
                        }
                        _ => continue, // rejected by sema
                    };
                    let m = self.new_mem(p.name.clone(), kind, s, None, p.span);
                    self.k.mems[m].volatile = pt.quals.is_volatile;
                    self.k.mems[m].restrict = p.quals.is_restrict || pt.quals.is_restrict;
                    // A buffer of vectors moves a vector per request (a 3-vector takes 4 lanes), in
                    // words of at most `MAX_WORD_BITS` (a `long16` is two words).
                    if let Type::Vector(_, n) = pt.ty {
                        let fit = (MAX_WORD_BITS / scalar_width(s)).max(1);
                        self.k.mems[m].lanes = u32::from(n).next_power_of_two().min(fit);
                        self.k.mems[m].vector_buffer = true;
                    }
                    self.k.params.push(Param {
                        name: p.name.clone(),
                        c_type,
                        kind: ParamKind::Buffer { mem: m },
                        span: p.span,
                        implicit: None,
                        lane: None,
                    });
                    let zero = self.konst(0, INDEX_WIDTH, p.span);
                    self.frames[0].storage.insert(*pid, Storage::Ssa);
                    if self.frames[0].address_taken.contains(pid) {
                        self.error(
                            Diagnostic::error(
                                codes::POINTER_ESCAPE,
                                format!("the address of pointer parameter `{}` cannot be taken", p.name),
                            )
                            .at(p.span),
                        );
                    }
                    self.env.insert(key, EnvVal::Ptr(PtrVal { mem: Some(m), index: zero }));
                }
                Type::Pipe(..) => self.pipe_param(i, key, p),
                _ => {
                    self.error(
                        Diagnostic::error(
                            codes::KERNEL_ARG,
                            format!("parameter `{}` has a type kiln cannot build", p.name),
                        )
                        .at(p.span),
                    );
                }
            }
        }
        if let Some(body) = &f.body
            && !self.ndrange_body(f, body)
        {
            self.block(body);
        }
        // Falling off the end of the kernel returns.
        self.set_term(Terminator::Return);
        self.frames.pop();
    }
}

/// Finds locals whose address is taken (they need memory) and private arrays that are only
/// read after their constant initializer (they can become ROMs).
fn scan_function(f: &hir::Function) -> (HashSet<LocalId>, HashSet<LocalId>) {
    let mut taken = HashSet::new();
    let mut array_uses_ok: HashMap<LocalId, bool> = HashMap::new();
    fn walk_expr(e: &hir::Expr, taken: &mut HashSet<LocalId>, ok: &mut HashMap<LocalId, bool>, read_ctx: bool) {
        use hir::ExprKind as K;
        match &e.kind {
            K::AddrOf(inner) => {
                if let K::Local(id) = inner.kind {
                    taken.insert(id);
                }
                walk_expr(inner, taken, ok, false);
            }
            K::Local(id) => {
                if matches!(e.ty, Type::Array(..)) && !read_ctx {
                    ok.insert(*id, false);
                }
            }
            // `a[i]` read: Deref(PtrAdd(Decay(Local a), i)).
            K::Deref(p) => {
                if let K::PtrAdd(base, idx) = &p.kind
                    && let K::Decay(arr) = &base.kind
                    && matches!(arr.kind, K::Local(_) | K::Deref(_))
                {
                    walk_expr(arr, taken, ok, read_ctx);
                    walk_expr(idx, taken, ok, true);
                    return;
                }
                if let K::Decay(arr) = &p.kind {
                    walk_expr(arr, taken, ok, read_ctx);
                    return;
                }
                walk_expr(p, taken, ok, false);
            }
            K::Assign(l, r)
            | K::CompoundAssign { lhs: l, rhs: r, .. }
            | K::PtrCompoundAssign { lhs: l, rhs: r, .. } => {
                walk_expr(l, taken, ok, false);
                walk_expr(r, taken, ok, true);
            }
            K::IncDec { target, .. } => walk_expr(target, taken, ok, false),
            K::Member(b, _) => walk_expr(b, taken, ok, read_ctx),
            K::Unary(_, a) | K::Convert(a) | K::PtrCast(a) | K::ToAddressSpace(a) => walk_expr(a, taken, ok, true),
            K::Decay(a) => walk_expr(a, taken, ok, false),
            K::Binary(_, a, b) | K::LogAnd(a, b) | K::LogOr(a, b) | K::PtrDiff(a, b) | K::PtrCmp(_, a, b) => {
                walk_expr(a, taken, ok, true);
                walk_expr(b, taken, ok, true);
            }
            K::PtrAdd(a, b) => {
                walk_expr(a, taken, ok, true);
                walk_expr(b, taken, ok, true);
            }
            K::Cond(c, a, b) => {
                walk_expr(c, taken, ok, true);
                walk_expr(a, taken, ok, true);
                walk_expr(b, taken, ok, true);
            }
            K::Call(_, args)
            | K::Comma(args)
            | K::IntBuiltin(_, args)
            | K::FloatBuiltin(_, args)
            | K::Geometric(_, args) => {
                for a in args {
                    walk_expr(a, taken, ok, true);
                }
            }
            K::ConvertRound(a, _) => walk_expr(a, taken, ok, true),
            K::Int(_) | K::Float(_) | K::Global(_) | K::WorkItem(..) | K::Barrier => {}
            // Vector forms are rewritten by `lanes` before lowering; walk them all the same.
            K::Swizzle(a, _) | K::ConvertSat(a) | K::Bitcast(a) => walk_expr(a, taken, ok, read_ctx),
            K::VecLit(args) => args.iter().for_each(|a| walk_expr(a, taken, ok, true)),
            K::Shuffle(sources, mask) => {
                sources.iter().for_each(|a| walk_expr(a, taken, ok, true));
                walk_expr(mask, taken, ok, true);
            }
            K::VLoad(a, b) => {
                walk_expr(a, taken, ok, true);
                walk_expr(b, taken, ok, true);
            }
            K::VStore { data, offset, ptr } => {
                walk_expr(data, taken, ok, true);
                walk_expr(offset, taken, ok, true);
                walk_expr(ptr, taken, ok, true);
            }
            // The object is written; so is `*expected` of a compare-exchange.
            K::Atomic { ptr, args, .. } => {
                walk_expr(ptr, taken, ok, false);
                for a in args {
                    walk_expr(a, taken, ok, !a.ty.is_pointer());
                }
            }
            // A read's destinations are written.
            K::PipeRead { pipe, dests, ok: flag, .. } => {
                pipe.index().into_iter().for_each(|i| walk_expr(i, taken, ok, true));
                dests.iter().chain(flag.as_deref()).for_each(|d| walk_expr(d, taken, ok, false));
            }
            K::PipeWrite { pipe, values, .. } => {
                pipe.index().into_iter().chain(values).for_each(|v| walk_expr(v, taken, ok, true));
            }
            K::PipeQuery { .. }
            | K::Printf(..)
            | K::PipeReserve { .. }
            | K::PipeReserved { .. }
            | K::PipeCommit { .. }
            | K::WorkGroup(..)
            | K::AsyncCopy { .. } => {
                e.children().into_iter().for_each(|c| walk_expr(c, taken, ok, true));
            }
        }
    }
    fn walk_block(
        b: &hir::Block,
        taken: &mut HashSet<LocalId>,
        ok: &mut HashMap<LocalId, bool>,
        init_const: &mut HashMap<LocalId, bool>,
    ) {
        for s in b {
            match s {
                hir::Stmt::Expr(e) => walk_expr(e, taken, ok, true),
                hir::Stmt::Decl(id, init, _) => {
                    if let Some(i) = init {
                        let mut exprs = Vec::new();
                        flatten_init(i, &mut exprs);
                        init_const.insert(*id, exprs.iter().all(|e| e.as_bits().is_some()));
                        for e in &exprs {
                            walk_expr(e, taken, ok, true);
                        }
                    } else {
                        init_const.insert(*id, false);
                    }
                }
                hir::Stmt::If(c, t, e, _) => {
                    walk_expr(c, taken, ok, true);
                    walk_block(t, taken, ok, init_const);
                    walk_block(e, taken, ok, init_const);
                }
                hir::Stmt::Loop(l) => {
                    walk_block(&l.init, taken, ok, init_const);
                    if let Some(c) = &l.cond {
                        walk_expr(c, taken, ok, true);
                    }
                    if let Some(s) = &l.step {
                        walk_expr(s, taken, ok, true);
                    }
                    walk_block(&l.body, taken, ok, init_const);
                }
                hir::Stmt::Switch(v, arms, _) => {
                    walk_expr(v, taken, ok, true);
                    for a in arms {
                        walk_block(&a.body, taken, ok, init_const);
                    }
                }
                hir::Stmt::Return(Some(e), _) => walk_expr(e, taken, ok, true),
                hir::Stmt::Block(b) => walk_block(b, taken, ok, init_const),
                _ => {}
            }
        }
    }
    let mut init_const = HashMap::new();
    if let Some(body) = &f.body {
        walk_block(body, &mut taken, &mut array_uses_ok, &mut init_const);
    }
    let roms = f
        .locals
        .iter()
        .enumerate()
        .map(|(i, _)| LocalId(i as u32))
        .filter(|id| {
            let l = f.local(*id);
            matches!(l.ty, Type::Array(..))
                && !l.is_param
                && init_const.get(id).copied().unwrap_or(false)
                && array_uses_ok.get(id).copied().unwrap_or(true)
        })
        .collect();
    (taken, roms)
}
