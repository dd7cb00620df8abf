//! The typed, name-resolved program produced by a front end.
//!
//! Invariants (established by the front end, checked by [`crate::verify`], relied on
//! by lowering):
//! - every expression has its final type; implicit conversions are explicit [`ExprKind::Convert`]
//!   nodes, array-to-pointer decay is [`ExprKind::Decay`];
//! - `a[i]` is `*(a + i)`: [`ExprKind::Deref`] of [`ExprKind::PtrAdd`];
//! - operands of arithmetic [`ExprKind::Binary`] operators already have the operation's type
//!   (after promotions and the usual arithmetic conversions, or the vector conversions: a scalar
//!   operand of a vector operation is already splatted); scalar comparisons yield `int`, vector
//!   comparisons the signed integer vector of the operands' element size, with lanes -1 or 0;
//! - on vectors, `!`, `&&`, `||` and `?:` work lane by lane and evaluate every operand (no
//!   short-circuit); a `?:` with a vector condition picks by each condition lane's sign bit;
//! - names refer to [`LocalId`]s, [`GlobalId`]s and [`FuncId`]s, never to strings;
//! - `sizeof`, enum constants and other constant expressions are folded to constants;
//! - the call graph has no cycles and every called function has a body.

use crate::types::{AddrSpace, Quals, Scalar, Type};
use kiln_diagnostics::Span;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    pub records: Vec<Record>,
    /// The functions of kiln's math library that implement math built-ins, linked in by the
    /// front end where the program calls them (`legalize::mathlib` turns the calls into calls
    /// of these).
    pub math: Vec<(crate::builtins::FloatOp, FuncId)>,
    /// How the program's float arithmetic may be evaluated (its build options and pragmas).
    pub float_mode: FloatMode,
    /// The index of the first function of kiln's math library, once linked ([`Self::link_math`]):
    /// the functions from there on are the library's, whose operations round as written.
    pub library_start: Option<usize>,
}

/// How float arithmetic may be evaluated: what the build options (`-cl-denorms-are-zero`,
/// `-cl-fast-relaxed-math`, `-cl-unsafe-math-optimizations`, `-cl-mad-enable`) and `#pragma
/// OPENCL FP_CONTRACT` allow. By default none: every operation is rounded as written, in order,
/// subnormals kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatMode {
    /// Subnormal operands and results are flushed to zero of their sign.
    pub denormals_are_zero: bool,
    /// Sums may be reassociated (a float reduction split into partial sums).
    pub reassociate: bool,
    /// `a * b + c` may be computed with one rounding.
    pub contract: bool,
}

impl Program {
    /// Appends the functions and globals of `library` (which has no records) to this program,
    /// and records `math`'s functions of it, by name, as the implementations of their math
    /// built-ins. Returns whether every named function was found.
    pub fn link_math(&mut self, library: Program, math: &[(crate::builtins::FloatOp, &str)]) -> bool {
        let (fo, go) = (self.functions.len() as u32, self.globals.len() as u32);
        let mut functions = library.functions;
        for f in &mut functions {
            if let Some(body) = &mut f.body {
                crate::walk::for_each_expr_mut(body, &mut |e| match &mut e.kind {
                    ExprKind::Call(id, _) => id.0 += fo,
                    ExprKind::Global(id) => id.0 += go,
                    _ => {}
                });
            }
        }
        let mut found = true;
        for (op, name) in math {
            match functions.iter().position(|f| &*f.name == *name && f.body.is_some()) {
                Some(i) => self.math.push((*op, FuncId(fo + i as u32))),
                None => found = false,
            }
        }
        self.library_start.get_or_insert(self.functions.len());
        self.functions.extend(functions.into_iter().map(|mut f| {
            f.is_kernel = false;
            f
        }));
        self.globals.extend(library.globals);
        found
    }

    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_kernel && f.body.is_some())
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    pub fn kernel_by_name(&self, name: &str) -> Option<FuncId> {
        self.kernels().find(|(_, f)| &*f.name == name).map(|(i, _)| i)
    }
}

#[derive(Clone, Debug)]
pub struct Record {
    pub name: Option<Rc<str>>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u32,
    pub align: u32,
    /// Whether its members are known (`struct S;` declares an incomplete one).
    pub complete: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: Rc<str>,
    pub ty: Type,
    pub offset: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelAttrs {
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub work_group_size_hint: Option<[u32; 3]>,
    /// Intel's `max_work_group_size(N)` (or `(X, Y, Z)`, kept as their product): the largest
    /// work-group the hardware of a kernel without `reqd_work_group_size` is built for.
    pub max_work_group_size: Option<u32>,
    /// Intel's `__attribute__((local_mem_size(N)))` on `__local` pointer parameters: the
    /// bytes of `__local` memory to build behind the parameter at this index.
    pub local_mem_size: Vec<(usize, u32)>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: Rc<str>,
    pub span: Span,
    pub is_kernel: bool,
    pub ret: Type,
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub body: Option<Block>,
    pub attrs: KernelAttrs,
}

impl Function {
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.0 as usize]
    }
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: Rc<str>,
    pub ty: Type,
    /// `Private` for ordinary variables and parameters, `Local` for `__local` variables,
    /// `Constant` for kernel-scope `__constant` variables.
    pub space: AddrSpace,
    pub quals: Quals,
    pub is_param: bool,
    /// `__attribute__((xcl_array_partition(...)))` on an array variable.
    pub partition: Option<ArrayPartition>,
    /// Set by the lowering's vector split on the scalar lanes of a vector parameter: which
    /// parameter and lane this is (sema never sets it).
    pub lane_of: Option<LaneOf>,
    /// For an array: its elements accessed in different iterations of a loop are at least this
    /// many iterations apart (set by `legalize::partial-sums` on the partial sums it makes,
    /// which the scheduler's dependence analysis then separates by that distance).
    pub dependence_distance: Option<u32>,
    pub span: Span,
}

/// Lane `index` of the vector parameter `vector` of type `ty`.
#[derive(Clone, Debug)]
pub struct LaneOf {
    pub vector: Rc<str>,
    pub ty: Type,
    pub index: u8,
}

/// How the user asked an on-chip array to be split into banks (Xilinx `xcl_array_partition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayPartition {
    pub kind: PartitionKind,
    /// Number of banks for `cyclic` and `block`; the dimension's extent for `complete`.
    pub factor: u32,
    /// 1-based dimension of the array that is split (1 is the outermost); 0 splits every
    /// dimension (only meaningful for `complete`).
    pub dim: u32,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionKind {
    /// Element `j` of the dimension goes to bank `j mod factor`.
    Cyclic,
    /// Elements in consecutive runs of `ceil(extent / factor)` share a bank.
    Block,
    /// Every element of the dimension in its own bank (registers when the whole array is split).
    Complete,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: Rc<str>,
    pub ty: Type,
    pub space: AddrSpace,
    pub init: Option<Init>,
    /// For a program-scope pipe or channel (or array of them): the FIFO depth its attribute
    /// asks for (`depth(N)`, `xcl_reqd_pipe_depth(N)`).
    pub pipe_depth: Option<u32>,
    pub span: Span,
}

/// A resolved initializer: lists are complete (missing elements are explicit zeros) and in
/// element order.
#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    List(Vec<Init>),
    /// A union initialized through its member with this index.
    Union(u32, Box<Init>),
}

pub type Block = Vec<Stmt>;

/// Loop annotations with their arguments evaluated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopPragmas {
    /// `Some(0)`: unroll fully; `Some(n)`: unroll by `n` (`1` disables unrolling).
    pub unroll: Option<u32>,
    /// `Some(None)`: no loop-carried memory dependences; `Some(Some(n))`: none closer than `n`.
    pub ivdep: Option<Option<u32>>,
    pub ii: Option<u32>,
    pub loop_coalesce: Option<Option<u32>>,
    pub disable_pipelining: bool,
    pub max_concurrency: Option<u32>,
    pub speculated_iterations: Option<u32>,
    /// The statement label the loop is written with (`read_a: for (...)`), which the loop
    /// report names it by.
    pub label: Option<Rc<str>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    While,
    DoWhile,
    For,
}

#[derive(Clone, Debug)]
pub struct Loop {
    pub kind: LoopKind,
    pub init: Block,
    /// `None` means "always true".
    pub cond: Option<Expr>,
    pub step: Option<Expr>,
    pub body: Block,
    pub pragmas: LoopPragmas,
    /// What the legalization passes did to the loop (`partial-sums`), for the loop report.
    pub transformations: Vec<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum CaseLabel {
    Value(u64),
    Default,
}

#[derive(Clone, Debug)]
pub struct SwitchArm {
    pub labels: Vec<(CaseLabel, Span)>,
    /// Falls through into the next arm unless it ends in `break`.
    pub body: Block,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(Expr),
    /// A local variable comes into scope; with an initializer, it is assigned.
    Decl(LocalId, Option<Init>, Span),
    If(Expr, Block, Block, Span),
    Loop(Box<Loop>),
    Switch(Expr, Vec<SwitchArm>, Span),
    Break(Span),
    Continue(Span),
    Return(Option<Expr>, Span),
    Block(Block),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    BitNot,
    /// `!x`: yields `int` 0/1 for scalars.
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne)
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

/// The rounding mode of a conversion to or from a float (`_rte`, `_rtz`, `_rtp`, `_rtn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    NearestEven,
    TowardZero,
    Up,
    Down,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant; the bits of its value, zero- or sign-extended to 64 bits.
    Int(u64),
    Float(f64),
    Local(LocalId),
    Global(GlobalId),
    /// `*p` — an l-value.
    Deref(Box<Expr>),
    /// A struct or union member — an l-value if the base is.
    Member(Box<Expr>, u32),
    Unary(UnaryOp, Box<Expr>),
    /// Both operands have the operation type (for shifts: the left operand's type, and the
    /// count its own promoted type).
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// Short-circuit `&&` / `||` on scalars; operands are conditions, the result `int`.
    LogAnd(Box<Expr>, Box<Expr>),
    LogOr(Box<Expr>, Box<Expr>),
    /// `p + i` with `i` in elements of the pointee type (the index has an integer type).
    PtrAdd(Box<Expr>, Box<Expr>),
    /// `p - q` in elements (`ptrdiff_t`).
    PtrDiff(Box<Expr>, Box<Expr>),
    /// Comparison of two pointers to the same address space.
    PtrCmp(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs`; the rhs already has the lhs type. The value is the stored value.
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`: `lhs = (T)((OpT)lhs op rhs)` where `op_ty` is the operation type and
    /// `rhs` has been converted to it (shift counts: to their promoted type).
    CompoundAssign {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        op_ty: Type,
    },
    /// Compound assignment on a pointer: `p += i` / `p -= i`.
    PtrCompoundAssign {
        sub: bool,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `++x`, `x++`, `--x`, `x--` on integers and pointers.
    IncDec {
        target: Box<Expr>,
        increment: bool,
        prefix: bool,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Converts the operand's value to `ty` with C semantics (integer truncation/extension,
    /// `!= 0` for bool, splat for vectors, float conversions).
    Convert(Box<Expr>),
    /// Reinterprets a pointer as a pointer to another type (`(global uchar*)p`).
    PtrCast(Box<Expr>),
    /// `to_global(p)`, `to_local(p)`, `to_private(p)`: `p` when it points into the expression
    /// type's address space, else the null pointer.
    ToAddressSpace(Box<Expr>),
    /// An array l-value used as a value: the pointer to its first element.
    Decay(Box<Expr>),
    AddrOf(Box<Expr>),
    Call(FuncId, Vec<Expr>),
    Comma(Vec<Expr>),
    /// `printf(format, ...)`: the format parsed (string arguments already part of its text)
    /// and one scalar argument per value it reads (a vector's lanes in order). An `int`, 0.
    Printf(Rc<crate::printf::Format>, Vec<Expr>),
    /// A work-item function (`get_global_id(0)`, ...) with its constant dimension.
    WorkItem(WorkItemFn, u32),
    /// `barrier(flags)` / `work_group_barrier(flags[, scope])`: only as a statement.
    Barrier,
    /// An integer built-in (`popcount`, `add_sat`, ...) on scalars; the arguments keep their
    /// own types (checked by sema), the result has the expression's type.
    IntBuiltin(crate::builtins::IntBuiltin, Vec<Expr>),
    /// `v.xy`, `v.s30`, `v.lo`: the lanes of a vector, in order. A lane index of 3 on a
    /// 3-element vector (`.hi`, `.odd`) reads the padding lane, whose value is 0. An l-value when
    /// the base is one and no lane repeats.
    Swizzle(Box<Expr>, Vec<u8>),
    /// `(int4)(a, b.xy, c)`: the parts' lanes in order; scalar parts already have the element
    /// type, vector parts the same element type.
    VecLit(Vec<Expr>),
    /// `convert_<T>_sat`: an integer conversion that clamps to the destination's range.
    ConvertSat(Box<Expr>),
    /// `convert_<T>[_sat]_rtX` between a float and another type: the conversion with an explicit
    /// rounding mode (float to integer always saturates in kiln, so `_sat` adds nothing there).
    ConvertRound(Box<Expr>, Rounding),
    /// A math, common or relational built-in on `float` arguments; scalar once vectors are split.
    FloatBuiltin(crate::builtins::FloatBuiltin, Vec<Expr>),
    /// A geometric built-in (`dot`, `cross`, `length`, `distance`, `normalize`); its lanes
    /// combine, so vector splitting expands it into scalar operations.
    Geometric(crate::builtins::Geometric, Vec<Expr>),
    /// `as_<T>`: the operand's bytes reinterpreted (little-endian lanes; sizes are equal).
    Bitcast(Box<Expr>),
    /// `shuffle(x, mask)` / `shuffle2(x, y, mask)`: result lane `i` is lane
    /// `mask[i] % (lanes of x and y together)` of the sources' lanes in order; the mask is an
    /// unsigned vector with the result's lane count.
    Shuffle(Vec<Expr>, Box<Expr>),
    /// `vloadN(offset, p)`: the N elements at `p + offset * N`; `p` points to the element type.
    VLoad(Box<Expr>, Box<Expr>),
    /// `vstoreN(data, offset, p)`: writes the N lanes of `data` at `p + offset * N`.
    VStore {
        data: Box<Expr>,
        offset: Box<Expr>,
        ptr: Box<Expr>,
    },
    /// An atomic operation on the object `ptr` points to (a scalar or an atomic type of
    /// 32 or 64 bits): one read and one write of it with nothing in between. `args` are the
    /// operation's operands (see [`AtomicOp`]), already of the object's scalar type except the
    /// `expected` pointer of [`AtomicOp::CompareExchange`]. Memory orders and scopes are gone:
    /// kiln's hardware performs every atomic operation in program order, which is `seq_cst`.
    Atomic {
        op: AtomicOp,
        ptr: Box<Expr>,
        args: Vec<Expr>,
    },
    /// Takes the next packet of a pipe; blocking, it waits while the pipe is empty.
    /// With no `dests` the value is the packet (`read_channel_intel(c)`), all zeros when none
    /// was taken, and `ok`, if given, is an l-value that receives 1 or 0 (taken or not).
    /// Otherwise the packet is assigned to the l-values `dests` — one of the packet type, or
    /// after the vector split one per lane — and the value (`int`) is 1 when a packet was
    /// taken, 0 when the pipe was empty and `dests` are unchanged.
    PipeRead {
        pipe: PipeRef,
        blocking: bool,
        dests: Vec<Expr>,
        ok: Option<Box<Expr>>,
    },
    /// Puts a packet — `values`: one of the packet type, or one per lane after the vector
    /// split — into a pipe; blocking, it waits while the pipe is full. The value (`int`) is 1
    /// when the packet was written, 0 when the pipe was full.
    PipeWrite {
        pipe: PipeRef,
        blocking: bool,
        values: Vec<Expr>,
    },
    /// `async_work_group_copy` (`stride` absent) or `async_work_group_strided_copy`: `count`
    /// elements between `src` and `dst`, one `__local` and one `__global` (the stride applies
    /// to the `__global` side); an `event_t`. Only in kernels, with operands free of side
    /// effects; lowered as a loop of the work-group's first work-item.
    AsyncCopy {
        dst: Box<Expr>,
        src: Box<Expr>,
        count: Box<Expr>,
        stride: Option<Box<Expr>>,
    },
    /// A work-group collective function: `args[0]` is the value (the predicate of
    /// `all`/`any`, an `int`), then, for a broadcast, 1 to 3 local ids (`size_t`, free of side
    /// effects). Only in kernels; lowered with `__local` memory and barriers.
    WorkGroup(Collective, Vec<Expr>),
    /// `get_pipe_num_packets(p)` (`max` false) or `get_pipe_max_packets(p)` of a pipe
    /// parameter: a `uint`.
    PipeQuery {
        pipe: PipeRef,
        max: bool,
    },
    /// `reserve_read_pipe(p, n)` / `reserve_write_pipe(p, n)` of a pipe parameter, with the
    /// packet count `count`, a constant: a `reserve_id_t`. Reservations, their reads, writes and
    /// commits are rewritten into transfers before lowering ([`crate::legalize`]).
    PipeReserve {
        pipe: PipeRef,
        write: bool,
        count: u32,
    },
    /// `read_pipe(p, rid, i, &v)` (the packet `i` of reservation `rid` into the l-value
    /// `place`) or `write_pipe(p, rid, i, &v)` (`place` into packet `i`): an `int`, 0 on
    /// success, -1 when `rid` is not valid or `i` is outside the reservation.
    PipeReserved {
        pipe: PipeRef,
        write: bool,
        rid: Box<Expr>,
        index: Box<Expr>,
        place: Box<Expr>,
    },
    /// `commit_read_pipe(p, rid)` / `commit_write_pipe(p, rid)`: `void`.
    PipeCommit {
        pipe: PipeRef,
        write: bool,
        rid: Box<Expr>,
    },
}

/// The pipe an expression transfers through.
#[derive(Clone, Debug)]
pub enum PipeRef {
    /// A program-scope pipe or channel; for an array of channels, the element's index (which
    /// lowering must find constant, after unrolling).
    Global(GlobalId, Option<Box<Expr>>),
    /// A pipe parameter of the kernel.
    Param(LocalId),
}

impl PipeRef {
    pub fn index(&self) -> Option<&Expr> {
        match self {
            PipeRef::Global(_, Some(i)) => Some(i),
            _ => None,
        }
    }

    pub fn index_mut(&mut self) -> Option<&mut Expr> {
        match self {
            PipeRef::Global(_, Some(i)) => Some(i),
            _ => None,
        }
    }
}

/// A work-group collective function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collective {
    All,
    Any,
    Broadcast,
    Reduce(CollectiveOp),
    ScanInclusive(CollectiveOp),
    ScanExclusive(CollectiveOp),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollectiveOp {
    Add,
    Min,
    Max,
}

/// What an [`ExprKind::Atomic`] does. "old" is the object's value before the operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Gives old; writes nothing (`atomic_load`).
    Load,
    /// Writes `args[0]` (`atomic_store`, `atomic_init`); no value.
    Store,
    /// Writes `args[0]`; gives old (`atomic_xchg`, `atomic_exchange`).
    Exchange,
    /// Writes `old op args[0]`; gives old. `Min`/`Max` compare with the object's signedness.
    Fetch(AtomicArith),
    /// Writes `old + 1` / `old - 1`; gives old (`atomic_inc`, `atomic_dec`).
    Inc,
    Dec,
    /// `atomic_cmpxchg(p, cmp, val)`: writes `old == cmp ? val : old`; gives old.
    CmpXchg,
    /// `atomic_compare_exchange_*(p, expected, desired)`: when `old == *expected` writes
    /// `desired` and gives true, otherwise stores old into `*expected` and gives false.
    CompareExchange,
    /// `atomic_flag_test_and_set`: writes 1; gives `old != 0` as a `bool`.
    TestAndSet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicArith {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
}

/// The work-item functions of OpenCL C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkItemFn {
    WorkDim,
    GlobalSize,
    GlobalId,
    LocalSize,
    EnqueuedLocalSize,
    LocalId,
    NumGroups,
    GroupId,
    GlobalOffset,
    GlobalLinearId,
    LocalLinearId,
}

impl WorkItemFn {
    pub fn from_name(name: &str) -> Option<WorkItemFn> {
        Some(match name {
            "get_work_dim" => WorkItemFn::WorkDim,
            "get_global_size" => WorkItemFn::GlobalSize,
            "get_global_id" => WorkItemFn::GlobalId,
            "get_local_size" => WorkItemFn::LocalSize,
            "get_enqueued_local_size" => WorkItemFn::EnqueuedLocalSize,
            "get_local_id" => WorkItemFn::LocalId,
            "get_num_groups" => WorkItemFn::NumGroups,
            "get_group_id" => WorkItemFn::GroupId,
            "get_global_offset" => WorkItemFn::GlobalOffset,
            "get_global_linear_id" => WorkItemFn::GlobalLinearId,
            "get_local_linear_id" => WorkItemFn::LocalLinearId,
            _ => return None,
        })
    }

    /// Whether the function takes a dimension argument.
    pub fn takes_dim(self) -> bool {
        !matches!(self, WorkItemFn::WorkDim | WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId)
    }

    /// Whether its value differs between the work-items of a work-group.
    pub fn varies_within_group(self) -> bool {
        matches!(
            self,
            WorkItemFn::GlobalId | WorkItemFn::LocalId | WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId
        )
    }

    /// Whether it depends on the work-group size (so a static size is needed).
    pub fn needs_group_size(self) -> bool {
        matches!(
            self,
            WorkItemFn::LocalSize
                | WorkItemFn::EnqueuedLocalSize
                | WorkItemFn::LocalId
                | WorkItemFn::NumGroups
                | WorkItemFn::GroupId
                | WorkItemFn::LocalLinearId
        )
    }
}

impl Expr {
    pub fn int(value: u64, ty: Type, span: Span) -> Expr {
        Expr { kind: ExprKind::Int(value), ty, span }
    }

    pub fn is_lvalue(&self) -> bool {
        match &self.kind {
            ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) => true,
            ExprKind::Member(b, _) => b.is_lvalue(),
            ExprKind::Swizzle(b, lanes) => {
                let lane_count = match b.ty {
                    Type::Vector(_, n) => n,
                    _ => 0,
                };
                b.is_lvalue()
                    && lanes.iter().all(|l| *l < lane_count)
                    && lanes.iter().enumerate().all(|(i, l)| !lanes[..i].contains(l))
            }
            _ => false,
        }
    }

    /// The constant integer value, if this is an integer constant.
    pub fn as_int(&self) -> Option<u64> {
        match self.kind {
            ExprKind::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The direct sub-expressions, in evaluation order.
    pub fn children(&self) -> Vec<&Expr> {
        use ExprKind as K;
        match &self.kind {
            K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) | K::WorkItem(..) | K::Barrier => vec![],
            K::Deref(a)
            | K::Member(a, _)
            | K::Unary(_, a)
            | K::Convert(a)
            | K::PtrCast(a)
            | K::ToAddressSpace(a)
            | K::Decay(a)
            | K::AddrOf(a)
            | K::IncDec { target: a, .. }
            | K::ConvertRound(a, _)
            | K::Swizzle(a, _)
            | K::ConvertSat(a)
            | K::Bitcast(a) => vec![&**a],
            K::Binary(_, a, b)
            | K::LogAnd(a, b)
            | K::LogOr(a, b)
            | K::PtrAdd(a, b)
            | K::PtrDiff(a, b)
            | K::PtrCmp(_, a, b)
            | K::Assign(a, b)
            | K::CompoundAssign { lhs: a, rhs: b, .. }
            | K::PtrCompoundAssign { lhs: a, rhs: b, .. }
            | K::VLoad(a, b) => vec![&**a, &**b],
            K::Cond(a, b, c) => vec![&**a, &**b, &**c],
            K::Call(_, args)
            | K::Comma(args)
            | K::IntBuiltin(_, args)
            | K::FloatBuiltin(_, args)
            | K::Geometric(_, args)
            | K::WorkGroup(_, args)
            | K::Printf(_, args)
            | K::VecLit(args) => args.iter().collect(),
            K::Shuffle(sources, mask) => {
                let mut v: Vec<&Expr> = sources.iter().collect();
                v.push(&**mask);
                v
            }
            K::VStore { data, offset, ptr } => vec![&**data, &**offset, &**ptr],
            K::Atomic { ptr, args, .. } => {
                let mut v = vec![&**ptr];
                v.extend(args.iter());
                v
            }
            K::PipeRead { pipe, dests, ok, .. } => {
                pipe.index().into_iter().chain(dests.iter()).chain(ok.as_deref()).collect()
            }
            K::PipeWrite { pipe, values, .. } => pipe.index().into_iter().chain(values.iter()).collect(),
            K::PipeQuery { pipe, .. } | K::PipeReserve { pipe, .. } => pipe.index().into_iter().collect(),
            K::PipeReserved { pipe, rid, index, place, .. } => {
                pipe.index().into_iter().chain([&**rid, &**index, &**place]).collect()
            }
            K::PipeCommit { pipe, rid, .. } => pipe.index().into_iter().chain([&**rid]).collect(),
            K::AsyncCopy { dst, src, count, stride } => {
                let mut v = vec![&**dst, &**src, &**count];
                v.extend(stride.as_deref());
                v
            }
        }
    }

    /// The direct sub-expressions, to rewrite in place.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        use ExprKind as K;
        match &mut self.kind {
            K::Int(_) | K::Float(_) | K::Local(_) | K::Global(_) | K::WorkItem(..) | K::Barrier => vec![],
            K::Deref(a)
            | K::Member(a, _)
            | K::Unary(_, a)
            | K::Convert(a)
            | K::PtrCast(a)
            | K::ToAddressSpace(a)
            | K::Decay(a)
            | K::AddrOf(a)
            | K::IncDec { target: a, .. }
            | K::ConvertRound(a, _)
            | K::Swizzle(a, _)
            | K::ConvertSat(a)
            | K::Bitcast(a) => vec![&mut **a],
            K::Binary(_, a, b)
            | K::LogAnd(a, b)
            | K::LogOr(a, b)
            | K::PtrAdd(a, b)
            | K::PtrDiff(a, b)
            | K::PtrCmp(_, a, b)
            | K::Assign(a, b)
            | K::CompoundAssign { lhs: a, rhs: b, .. }
            | K::PtrCompoundAssign { lhs: a, rhs: b, .. }
            | K::VLoad(a, b) => vec![&mut **a, &mut **b],
            K::Cond(a, b, c) => vec![&mut **a, &mut **b, &mut **c],
            K::Call(_, args)
            | K::Comma(args)
            | K::IntBuiltin(_, args)
            | K::FloatBuiltin(_, args)
            | K::Geometric(_, args)
            | K::WorkGroup(_, args)
            | K::Printf(_, args)
            | K::VecLit(args) => args.iter_mut().collect(),
            K::Shuffle(sources, mask) => {
                let mut v: Vec<&mut Expr> = sources.iter_mut().collect();
                v.push(&mut **mask);
                v
            }
            K::VStore { data, offset, ptr } => vec![&mut **data, &mut **offset, &mut **ptr],
            K::Atomic { ptr, args, .. } => {
                let mut v = vec![&mut **ptr];
                v.extend(args.iter_mut());
                v
            }
            K::PipeRead { pipe, dests, ok, .. } => {
                pipe.index_mut().into_iter().chain(dests.iter_mut()).chain(ok.as_deref_mut()).collect()
            }
            K::PipeWrite { pipe, values, .. } => pipe.index_mut().into_iter().chain(values.iter_mut()).collect(),
            K::PipeQuery { pipe, .. } | K::PipeReserve { pipe, .. } => pipe.index_mut().into_iter().collect(),
            K::PipeReserved { pipe, rid, index, place, .. } => {
                pipe.index_mut().into_iter().chain([&mut **rid, &mut **index, &mut **place]).collect()
            }
            K::PipeCommit { pipe, rid, .. } => pipe.index_mut().into_iter().chain([&mut **rid]).collect(),
            K::AsyncCopy { dst, src, count, stride } => {
                let mut v = vec![&mut **dst, &mut **src, &mut **count];
                v.extend(stride.as_deref_mut());
                v
            }
        }
    }

    /// Whether evaluating this expression may change state (an assignment, `++`/`--`, a call,
    /// an atomic, a barrier, a `vstore`):
    /// such an expression cannot be duplicated.
    pub fn has_side_effects(&self) -> bool {
        use ExprKind as K;
        let here = matches!(
            self.kind,
            K::Assign(..)
                | K::CompoundAssign { .. }
                | K::PtrCompoundAssign { .. }
                | K::IncDec { .. }
                | K::Call(..)
                | K::Atomic { .. }
                | K::PipeRead { .. }
                | K::PipeWrite { .. }
                | K::PipeReserve { .. }
                | K::PipeReserved { .. }
                | K::PipeCommit { .. }
                | K::WorkGroup(..)
                | K::AsyncCopy { .. }
                | K::Barrier
                | K::VStore { .. }
        );
        here || self.children().into_iter().any(Expr::has_side_effects)
    }

    /// The bits of a constant scalar: an integer, or a float literal in its type's IEEE format.
    pub fn as_bits(&self) -> Option<u64> {
        match (&self.kind, &self.ty) {
            (ExprKind::Int(v), _) => Some(*v),
            (ExprKind::Float(f), Type::Scalar(Scalar::F64)) => Some(f.to_bits()),
            (ExprKind::Float(f), _) => Some((*f as f32).to_bits() as u64),
            _ => None,
        }
    }
}

/// Sign- or zero-extends the low `bits` of `v` to 64 bits according to `s`.
pub fn normalize(v: u64, s: Scalar) -> u64 {
    let bits = s.bits();
    if bits >= 64 {
        return v;
    }
    if s == Scalar::Bool {
        return (v != 0) as u64;
    }
    let mask = (1u64 << bits) - 1;
    let low = v & mask;
    if s.is_signed() && (low >> (bits - 1)) & 1 == 1 { low | !mask } else { low }
}
