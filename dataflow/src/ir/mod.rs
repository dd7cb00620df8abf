//! The dataflow IR.
//!
//! A [`Kernel`] is a control-flow graph of [`Block`]s; each block holds an ordered list of
//! [`Op`]s forming a dataflow graph over SSA [`Value`]s, and ends in a [`Terminator`]. Values
//! flowing between blocks are passed as block parameters (no phi nodes).
//!
//! Invariants (checked by [`verify`](crate::verify)):
//! - every value is defined exactly once, by an op result or a block parameter, and every use is
//!   dominated by its definition;
//! - values are bit vectors of 1..=64 bits; signedness is a property of operations, not values;
//! - operand widths match what each op requires (see [`op::OpKind`]);
//! - memory operations of one block execute in list order; memories are distinct objects that
//!   never alias;
//! - the entry block has no predecessors; its parameters are the kernel's scalar arguments.
//!
//! Data is kept apart from order: op data lives in a table, the order of ops is each block's
//! `ops` list.

pub mod float;
pub mod op;
mod print;

use cranelift_entity::{PrimaryMap, entity_impl};
use kiln_diagnostics::Span;
pub use op::{BinOp, CastOp, CmpOp, FCmpOp, FloatConv, FloatOp, OpKind, PipeQuery, Round, UnOp};
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op(u32);
entity_impl!(Op, "op");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "b");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mem(u32);
entity_impl!(Mem, "m");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pipe(u32);
entity_impl!(Pipe, "pipe");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result of an op.
    Op(Op),
    /// The `n`th parameter of a block.
    Param(Block, u32),
}

#[derive(Clone, Debug)]
pub struct ValueData {
    pub width: u32,
    pub def: ValueDef,
    /// A source name, for readability of dumps, Verilog and VCD traces.
    pub name: Option<Rc<str>>,
}

#[derive(Clone, Debug)]
pub struct OpData {
    pub kind: OpKind,
    pub args: Vec<Value>,
    pub result: Option<Value>,
    pub block: Block,
    /// The source construct this op implements.
    pub span: Span,
}

impl OpData {
    /// The predicate operand of a predicated load or store.
    pub fn predicate(&self) -> Option<Value> {
        match self.kind {
            OpKind::Load(_) | OpKind::WordLoad(_) => self.args.get(1).copied(),
            OpKind::Store(_) | OpKind::WordStoreAt(_) => self.args.get(2).copied(),
            OpKind::WordStore { mask, .. } => self.args.get(1 + mask.count_ones() as usize).copied(),
            _ => None,
        }
    }
}

/// A jump target with the values passed to its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub block: Block,
    pub args: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    Jump(Target),
    /// On a 1-bit condition.
    Branch {
        cond: Value,
        then_to: Target,
        else_to: Target,
    },
    /// Multi-way branch on an integer value; case values are compared on the value's width.
    Switch {
        value: Value,
        cases: Vec<(u64, Target)>,
        default: Target,
    },
    Return,
    /// Placeholder while a block is being built; never present in a finished kernel.
    Unterminated,
}

impl Terminator {
    pub fn targets(&self) -> Vec<&Target> {
        match self {
            Terminator::Jump(t) => vec![t],
            Terminator::Branch { then_to, else_to, .. } => vec![then_to, else_to],
            Terminator::Switch { cases, default, .. } => cases.iter().map(|(_, t)| t).chain(Some(default)).collect(),
            Terminator::Return | Terminator::Unterminated => vec![],
        }
    }

    pub fn targets_mut(&mut self) -> Vec<&mut Target> {
        match self {
            Terminator::Jump(t) => vec![t],
            Terminator::Branch { then_to, else_to, .. } => vec![then_to, else_to],
            Terminator::Switch { cases, default, .. } => {
                cases.iter_mut().map(|(_, t)| t).chain(Some(default)).collect()
            }
            Terminator::Return | Terminator::Unterminated => vec![],
        }
    }

    /// Values the terminator reads (condition and jump arguments).
    pub fn uses(&self) -> Vec<Value> {
        let mut v = Vec::new();
        match self {
            Terminator::Branch { cond, .. } => v.push(*cond),
            Terminator::Switch { value, .. } => v.push(*value),
            _ => {}
        }
        for t in self.targets() {
            v.extend(t.args.iter().copied());
        }
        v
    }

    pub fn successors(&self) -> Vec<Block> {
        self.targets().into_iter().map(|t| t.block).collect()
    }
}

#[derive(Clone, Debug)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub ops: Vec<Op>,
    pub term: Terminator,
    pub span: Span,
}

/// Where a memory lives and who can see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemKind {
    /// A `__global` pointer argument: a memory port to host-visible memory.
    Global { param: u32 },
    /// A `__constant` pointer argument: a read-only memory port.
    ConstantArg { param: u32 },
    /// On-chip read-only memory (program-scope `__constant` arrays, constant private tables).
    Rom,
    /// On-chip private memory (private arrays, address-taken private scalars, and the
    /// per-work-item copies of variables that live across a barrier).
    Private,
    /// On-chip `__local` memory, shared by the work-items of a work-group.
    Local,
}

#[derive(Clone, Debug)]
pub struct MemData {
    pub name: Rc<str>,
    pub kind: MemKind,
    /// Bits per element.
    pub elem_width: u32,
    /// Whether elements are signed integers (for printing results; hardware does not care).
    pub elem_signed: bool,
    /// Whether elements are IEEE floats of `elem_width` bits (for run specs and results).
    pub elem_float: bool,
    /// Number of elements of on-chip memories; `None` for ports (size known at run time).
    pub len: Option<u32>,
    /// Initial contents of ROMs.
    pub init: Option<Vec<u64>>,
    /// Declared `volatile`: every access is kept and ordered.
    pub volatile: bool,
    /// Declared `restrict` (pointer arguments).
    pub restrict: bool,
    /// Updated by an atomic built-in somewhere: its elements are shared between work-items
    /// and iterations on purpose, so neither `#pragma ivdep` nor the independence of work-items
    /// removes a dependence between its accesses.
    pub atomic: bool,
    /// How the array may be split into banks.
    pub banking: Banking,
    /// Elements per word of a memory port (a power of two): a port of `N`-vectors moves a
    /// whole vector (its `N` lanes, a 3-vector's 4) per request; the `port-width` pass widens
    /// the port of a scalar buffer whose accesses come in aligned groups. 1 for everything
    /// else. Every access of a port of more than one lane is a word operation (`WordLoad`,
    /// `WordStore`) once the `widen` pass has run.
    pub lanes: u32,
    /// A buffer of vectors: its data comes in whole vectors, so every word of its port lies in
    /// it (run specs check this); a widened scalar buffer may end in part of a word.
    pub vector_buffer: bool,
    /// Accesses of the memory in different iterations of a loop are at least this many
    /// iterations apart (kiln's partial sums, `kiln_hir::Local::dependence_distance`).
    pub carried_distance: Option<u32>,
    pub span: Span,
}

/// Who decides how an on-chip array is split into banks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Banking {
    /// The `partition` pass, when a loop needs more ports than one memory has.
    #[default]
    Automatic,
    /// The user (`xcl_array_partition`); the `partition` pass applies it exactly.
    Requested(BankLayout),
    /// A bank of an array the user partitioned: never split again.
    Fixed,
}

/// A split of an array, seen as `outer × extent × stride` elements, along its `extent`
/// dimension into `banks` banks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankLayout {
    pub cyclic: bool,
    pub banks: u32,
    /// Elements between consecutive indices of the split dimension (product of the inner extents).
    pub stride: u32,
    pub extent: u32,
    /// The attribute as written, for the report.
    pub spelled: Rc<str>,
}

impl MemData {
    /// A plain memory of `len` unsigned integer elements (`None`: a buffer, sized by the
    /// launch): not volatile, restrict or atomic, banked automatically, one element per word.
    pub fn new(name: Rc<str>, kind: MemKind, elem_width: u32, len: Option<u32>, span: Span) -> MemData {
        MemData {
            name,
            kind,
            elem_width,
            elem_signed: false,
            elem_float: false,
            len,
            init: None,
            volatile: false,
            restrict: false,
            atomic: false,
            banking: Banking::Automatic,
            lanes: 1,
            vector_buffer: false,
            carried_distance: None,
            span,
        }
    }

    pub fn is_port(&self) -> bool {
        matches!(self.kind, MemKind::Global { .. } | MemKind::ConstantArg { .. })
    }

    pub fn is_on_chip(&self) -> bool {
        !self.is_port()
    }

    /// Whether an on-chip memory is built for block RAM: when it has more bits than the
    /// target's threshold (`memory.block_ram_min_bits` of the device model); smaller ones are
    /// registers and LUTs. The report and the RTL's `ram_style` both follow this one rule.
    pub fn in_block_ram(&self, block_ram_min_bits: u64) -> bool {
        u64::from(self.len.unwrap_or(0)) * u64::from(self.elem_width) > block_ram_min_bits
    }

    pub fn is_read_only(&self) -> bool {
        matches!(self.kind, MemKind::ConstantArg { .. } | MemKind::Rom)
    }
}

/// A kernel argument.
#[derive(Clone, Debug)]
pub enum ParamKind {
    /// A scalar passed by value: the entry block's parameter at this position.
    Scalar { value: Value, signed: bool, float: bool },
    /// A pointer to a buffer.
    Buffer { mem: Mem },
    /// An OpenCL 2.0 pipe parameter: one end of a FIFO the launch connects.
    Pipe { pipe: Pipe },
    /// A `__local` pointer parameter: the `__local` memory (of the size the kernel was built
    /// with) it points to; the host gives only a size, no data.
    Local { mem: Mem },
}

/// Which end of a FIFO a kernel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipeEnd {
    Read,
    Write,
}

/// Who names the FIFO behind a kernel's pipe.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PipeSource {
    /// A program-scope pipe (Xilinx) or channel (Intel), or one element of an array of them:
    /// every kernel of the program that uses the same name shares the FIFO.
    Program { name: Rc<str> },
    /// A pipe parameter of the kernel (at this parameter index); the launch says which FIFO.
    Param { param: u32 },
}

/// One end of a FIFO as a kernel sees it: packets of `lanes` (the widths of the packet's scalar
/// lanes, in order; one lane for a scalar packet).
#[derive(Clone, Debug)]
pub struct PipeData {
    /// The source name (`c`, `c[2]` for an element of a channel array, or the parameter's name).
    pub name: Rc<str>,
    pub source: PipeSource,
    pub end: PipeEnd,
    pub lanes: Vec<u32>,
    /// The packet type as written (`int`, `int4`), for reports and run specs.
    pub c_type: String,
    /// The depth the source asks for (`depth(N)`, `xcl_reqd_pipe_depth(N)`).
    pub depth: Option<u32>,
    pub span: Span,
}

impl PipeData {
    /// Bits of one packet.
    pub fn packet_width(&self) -> u32 {
        self.lanes.iter().sum()
    }

    /// An identifier for Verilog ports and traces: `c[2]` becomes `c_2`.
    pub fn ident(&self) -> String {
        self.name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect::<String>()
            .trim_end_matches('_')
            .to_string()
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Rc<str>,
    /// The OpenCL C type as written (for reports and run specs), e.g. `int`, `__global uint *`.
    pub c_type: String,
    pub kind: ParamKind,
    pub span: Span,
    /// A launch parameter the host sets (not a kernel argument), for NDRange kernels.
    pub implicit: Option<Implicit>,
    /// One lane of a vector argument passed by value (`int4 v` becomes four scalar parameters
    /// `v.s0`..`v.s3`); the host gives the vector's lanes in order.
    pub lane: Option<VectorLane>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorLane {
    /// The kernel argument's name (`v`) and OpenCL C type (`int4`).
    pub vector: Rc<str>,
    pub vector_c_type: String,
    pub index: u8,
    pub lanes: u8,
}

/// Launch parameters an NDRange kernel receives as extra scalar inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Implicit {
    /// The global size in a dimension.
    GlobalSize(u32),
    /// The work-group size in a dimension, for a kernel built for work-groups of any size up
    /// to its maximum ([`NdRangeInfo::max_work_group_size`]).
    LocalSize(u32),
    /// The number of dimensions of the launch.
    WorkDim,
}

/// How an NDRange kernel runs its work-items (see `lower::ndrange`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdRangeInfo {
    /// Dimensions the hardware iterates (1 to 3).
    pub dims: u32,
    /// The static work-group size, when the kernel has (or needs) one.
    pub local_size: Option<[u32; 3]>,
    /// For a kernel whose work-group size is an input at run time ([`Implicit::LocalSize`]):
    /// the largest work-group (in work-items) its per-work-item memories hold.
    pub max_work_group_size: Option<u32>,
    /// Work-group phases separated by barriers (1 without barriers).
    pub phases: u32,
    /// Work-items stream through one loop per dimension over the global range (no barriers,
    /// no `__local` memory), or run group by group, phase by phase.
    pub grouped: bool,
    /// Variables kept per work-item across barriers.
    pub per_item: Vec<String>,
}

/// Loop annotations from the source, keyed by the loop's header block.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub header: Block,
    pub span: Span,
    pub pragmas: kiln_hir::LoopPragmas,
    /// Transformations applied while lowering (unrolling, coalescing), for the loop report.
    pub transformations: Vec<String>,
    /// The trip count when lowering knows it and the loop's shape does not show it (a coalesced
    /// loop's test is on the outer induction variable).
    pub known_trip_count: Option<u64>,
}

/// A loop that full unrolling removed, for the loop report.
#[derive(Clone, Debug)]
pub struct UnrolledLoop {
    pub span: Span,
    pub copies: u64,
    /// What asked for it (a pragma, or the automatic rule).
    pub why: String,
    /// What the HIR passes did to the loop before it was unrolled (`scalar-replace`, ...).
    pub transformations: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: Rc<str>,
    pub span: Span,
    pub params: Vec<Param>,
    pub values: PrimaryMap<Value, ValueData>,
    pub ops: PrimaryMap<Op, OpData>,
    pub blocks: PrimaryMap<Block, BlockData>,
    pub mems: PrimaryMap<Mem, MemData>,
    /// The pipes and channels the kernel reads or writes.
    pub pipes: PrimaryMap<Pipe, PipeData>,
    pub entry: Block,
    pub loops: Vec<LoopInfo>,
    /// Loops that were fully unrolled while lowering.
    pub unrolled: Vec<UnrolledLoop>,
    /// Nests whose inner loop lowering unrolls automatically, but which it could coalesce
    /// instead (`LowerOptions::coalesce_nests` picks them by their index here), in the order
    /// lowering met them: their outer loops' spans.
    pub coalescible_nests: Vec<Span>,
    /// What the optimizer did to memories and loops, for the report.
    pub notes: Vec<String>,
    /// Set for NDRange kernels.
    pub ndrange: Option<NdRangeInfo>,
    /// The source spans of the float operations that `soft-float` expanded into integer ones,
    /// with the float operation's mnemonic: the loop report names a float recurrence by them.
    pub float_spans: std::collections::BTreeMap<Span, &'static str>,
    /// Built with relaxed math (`-cl-fast-relaxed-math`, `-cl-unsafe-math-optimizations`).
    pub relaxed_math: bool,
}

impl Kernel {
    pub fn new(name: Rc<str>, span: Span) -> Kernel {
        let mut blocks = PrimaryMap::new();
        let entry = blocks.push(BlockData { params: vec![], ops: vec![], term: Terminator::Unterminated, span });
        Kernel {
            name,
            span,
            params: vec![],
            values: PrimaryMap::new(),
            ops: PrimaryMap::new(),
            blocks,
            mems: PrimaryMap::new(),
            pipes: PrimaryMap::new(),
            entry,
            loops: vec![],
            unrolled: vec![],
            coalescible_nests: vec![],
            notes: vec![],
            ndrange: None,
            float_spans: Default::default(),
            relaxed_math: false,
        }
    }

    pub fn width(&self, v: Value) -> u32 {
        self.values[v].width
    }

    pub fn new_block(&mut self, span: Span) -> Block {
        self.blocks.push(BlockData { params: vec![], ops: vec![], term: Terminator::Unterminated, span })
    }

    pub fn add_param(&mut self, block: Block, width: u32, name: Option<Rc<str>>) -> Value {
        let idx = self.blocks[block].params.len() as u32;
        let v = self.values.push(ValueData { width, def: ValueDef::Param(block, idx), name });
        self.blocks[block].params.push(v);
        v
    }

    /// Appends an op to a block. `width` is the result width, `None` for ops without a result.
    pub fn push_op(&mut self, block: Block, kind: OpKind, args: Vec<Value>, width: Option<u32>, span: Span) -> Op {
        let op = self.ops.push(OpData { kind, args, result: None, block, span });
        if let Some(w) = width {
            let v = self.values.push(ValueData { width: w, def: ValueDef::Op(op), name: None });
            self.ops[op].result = Some(v);
        }
        self.blocks[block].ops.push(op);
        op
    }

    /// Inserts a constant of `width` bits into `op`'s block right before `op` (so that `op` can
    /// take it as an operand) and returns it.
    pub fn insert_const_before(&mut self, op: Op, value: u64, width: u32) -> Value {
        let (block, span) = (self.ops[op].block, self.ops[op].span);
        let c = self.ops.push(OpData { kind: OpKind::Const(value), args: vec![], result: None, block, span });
        let v = self.values.push(ValueData { width, def: ValueDef::Op(c), name: None });
        self.ops[c].result = Some(v);
        if let Some(pos) = self.blocks[block].ops.iter().position(|o| *o == op) {
            self.blocks[block].ops.insert(pos, c);
        }
        v
    }

    /// Appends an op and returns its result.
    pub fn push_value(&mut self, block: Block, kind: OpKind, args: Vec<Value>, width: u32, span: Span) -> Value {
        let op = self.push_op(block, kind, args, Some(width), span);
        self.ops[op].result.unwrap_or_else(|| unreachable!("push_op with a width always creates a result"))
    }

    pub fn result(&self, op: Op) -> Option<Value> {
        self.ops[op].result
    }

    /// The op defining a value, if it is an op result.
    pub fn def_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def {
            ValueDef::Op(op) => Some(op),
            ValueDef::Param(..) => None,
        }
    }

    /// The constant a value is, if it is defined by a `Const` op.
    pub fn as_const(&self, v: Value) -> Option<u64> {
        match self.def_op(v).map(|op| &self.ops[op].kind) {
            Some(OpKind::Const(c)) => Some(*c),
            _ => None,
        }
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn rpo(&self) -> Vec<Block> {
        let mut seen = cranelift_entity::EntitySet::with_capacity(self.blocks.len());
        let mut post = Vec::new();
        let mut stack: Vec<(Block, usize)> = vec![(self.entry, 0)];
        seen.insert(self.entry);
        while let Some((b, i)) = stack.pop() {
            let succs = self.blocks[b].term.successors();
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[i];
                if !seen.contains(s) {
                    seen.insert(s);
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
            }
        }
        post.reverse();
        post
    }

    /// Predecessor lists of all blocks (reachable or not).
    pub fn predecessors(&self) -> cranelift_entity::SecondaryMap<Block, Vec<Block>> {
        let mut preds: cranelift_entity::SecondaryMap<Block, Vec<Block>> = cranelift_entity::SecondaryMap::new();
        for (b, data) in self.blocks.iter() {
            for s in data.term.successors() {
                if !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }
        preds
    }

    /// Replaces every use of `from` by `to` (in ops and terminators).
    pub fn replace_uses(&mut self, from: Value, to: Value) {
        for (_, op) in self.ops.iter_mut() {
            for a in &mut op.args {
                if *a == from {
                    *a = to;
                }
            }
        }
        for (_, b) in self.blocks.iter_mut() {
            match &mut b.term {
                Terminator::Branch { cond, .. } if *cond == from => *cond = to,
                Terminator::Switch { value, .. } if *value == from => *value = to,
                _ => {}
            }
            for t in b.term.targets_mut() {
                for a in &mut t.args {
                    if *a == from {
                        *a = to;
                    }
                }
            }
        }
    }

    /// Replaces the uses of `from` by `to` in block `b` (its ops and its terminator).
    pub fn replace_uses_in_block(&mut self, b: Block, from: Value, to: Value) {
        for op in self.blocks[b].ops.clone() {
            for a in &mut self.ops[op].args {
                if *a == from {
                    *a = to;
                }
            }
        }
        let term = &mut self.blocks[b].term;
        match term {
            Terminator::Branch { cond, .. } if *cond == from => *cond = to,
            Terminator::Switch { value, .. } if *value == from => *value = to,
            _ => {}
        }
        for t in term.targets_mut() {
            for a in &mut t.args {
                if *a == from {
                    *a = to;
                }
            }
        }
    }

    /// Rewrites the uses in one terminator through `subst` (a pass that defers its
    /// replacements reads a terminator through this before deciding on it).
    pub fn substitute_in_terminator(&mut self, b: Block, subst: &Substitution) {
        if subst.is_empty() {
            return;
        }
        let term = &mut self.blocks[b].term;
        match term {
            Terminator::Branch { cond, .. } => *cond = subst.resolve(*cond),
            Terminator::Switch { value, .. } => *value = subst.resolve(*value),
            Terminator::Jump(_) | Terminator::Return | Terminator::Unterminated => {}
        }
        for t in term.targets_mut() {
            for a in &mut t.args {
                *a = subst.resolve(*a);
            }
        }
    }

    /// Rewrites the arguments of one op through `subst`.
    pub fn substitute_in_op(&mut self, op: Op, subst: &Substitution) {
        if subst.is_empty() {
            return;
        }
        for a in &mut self.ops[op].args {
            *a = subst.resolve(*a);
        }
    }

    /// Replaces every use of each key of `subst` by what it resolves to, in one walk.
    pub fn apply_substitution(&mut self, subst: &Substitution) {
        let map: std::collections::HashMap<Value, Value> = subst.map.keys().map(|v| (*v, subst.resolve(*v))).collect();
        self.replace_all_uses(&map);
    }

    /// Replaces every use of each key of `map` by its value (in ops and terminators), in one
    /// walk over the kernel.
    pub fn replace_all_uses(&mut self, map: &std::collections::HashMap<Value, Value>) {
        if map.is_empty() {
            return;
        }
        let swap = |a: &mut Value| {
            if let Some(to) = map.get(a) {
                *a = *to;
            }
        };
        for (_, op) in self.ops.iter_mut() {
            op.args.iter_mut().for_each(swap);
        }
        for (_, b) in self.blocks.iter_mut() {
            match &mut b.term {
                Terminator::Branch { cond, .. } => swap(cond),
                Terminator::Switch { value, .. } => swap(value),
                _ => {}
            }
            for t in b.term.targets_mut() {
                t.args.iter_mut().for_each(swap);
            }
        }
    }

    /// The scalar-argument parameter values, in kernel parameter order.
    pub fn scalar_params(&self) -> impl Iterator<Item = (usize, &Param, Value)> {
        self.params.iter().enumerate().filter_map(|(i, p)| match p.kind {
            ParamKind::Scalar { value, .. } => Some((i, p, value)),
            ParamKind::Buffer { .. } | ParamKind::Pipe { .. } | ParamKind::Local { .. } => None,
        })
    }

    /// Memory ports (pointer arguments), in kernel parameter order.
    pub fn ports(&self) -> impl Iterator<Item = (usize, &Param, Mem)> {
        self.params.iter().enumerate().filter_map(|(i, p)| match p.kind {
            ParamKind::Buffer { mem } => Some((i, p, mem)),
            ParamKind::Scalar { .. } | ParamKind::Pipe { .. } | ParamKind::Local { .. } => None,
        })
    }

    /// The loop annotation whose header is `b`.
    pub fn loop_at(&self, b: Block) -> Option<&LoopInfo> {
        self.loops.iter().find(|l| l.header == b)
    }
}

/// All kernels of one translation unit, lowered.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub kernels: Vec<Kernel>,
}

impl Module {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| &*k.name == name)
    }
}

/// Replacements a pass collects while it walks a kernel and applies in one walk at the end
/// (`Kernel::replace_uses` walks the whole kernel per replacement, which is quadratic in a
/// pass that replaces many values, such as the expansion of soft-float operations).
/// Replacements chain: after `a → b` and `b → c`, `a` resolves to `c`.
#[derive(Debug, Default, Clone)]
pub struct Substitution {
    map: std::collections::HashMap<Value, Value>,
}

impl Substitution {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Records that the uses of `from` become uses of `to`.
    pub fn replace(&mut self, from: Value, to: Value) {
        let to = self.resolve(to);
        if to != from {
            self.map.insert(from, to);
        }
    }

    /// What `v` stands for after the replacements so far.
    pub fn resolve(&self, mut v: Value) -> Value {
        while let Some(&to) = self.map.get(&v) {
            v = to;
        }
        v
    }
}
