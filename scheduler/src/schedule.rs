//! The schedule: when every operation of a kernel runs, and the hardware resources it uses.
//!
//! This is the contract between the scheduler, the cycle-accurate simulator and the RTL
//! generator. Its timing meaning is defined in `docs/timing.md`:
//!
//! - the kernel is a finite-state machine; block `b` with `steps(b) = n > 0` owns states
//!   `(b, 0) .. (b, n-1)`; a block with `n = 0` is an empty `return` block that transitions
//!   straight to `DONE`;
//! - in state `(b, i)` every op with `start == i` begins and every op with `end == i` delivers
//!   its result; a state *fires* when all of its memory requests have been accepted and all of
//!   its memory responses are available, and every blocking pipe transfer of the step can
//!   proceed; otherwise it stalls and nothing changes;
//! - a result used after its `end` step (or in another block) lives in a register written when
//!   its end state fires; block parameters are registers written on the transition into the
//!   block.

use crate::pipeline::{LoopAnalysis, Pipeline};
use crate::timing::Timing;
use cranelift_entity::SecondaryMap;
use kiln_dataflow::ir::{BinOp, Block, Kernel, Mem, Op, OpKind, Pipe, Value};
use std::collections::BTreeSet;
use std::fmt;

/// How an operation uses time and hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// A constant: no hardware, available everywhere.
    Constant,
    /// Combinational logic: result in the step it starts.
    Comb,
    /// Logic too slow for one clock period, split into `n ≥ 2` register-separated segments
    /// (fully pipelined, no shared hardware): operands are taken at `start`, the result is
    /// valid at `end = start + n - 1`.
    Multi(u32),
    /// A read through a memory port: request at `start`, response consumed at `end > start`.
    PortLoad(Mem),
    /// A write through a memory port at `start`.
    PortStore(Mem),
    /// A read of an on-chip memory: address at `start`, registered data at `end = start + 1`.
    MemLoad(Mem),
    /// A write to an on-chip memory at the end of `start`.
    MemStore(Mem),
    /// An operation on a shared multi-cycle unit: operands at `start`, result at `end`.
    Unit(UnitId),
    /// A transfer through a pipe in its step (`start == end`): a blocking one holds the state
    /// (or the pipeline) until the FIFO can take or give the packet.
    PipeTransfer(Pipe),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub u32);

/// A shared multi-cycle functional unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub kind: UnitKind,
    pub width: u32,
    pub latency: u32,
    /// Cycles per quotient bit (`Timing::divider_step_cycles`): 2 registers the step's sums
    /// between its carry chains and the selection of the next remainder.
    pub step_cycles: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// Sequential divider computing quotient and remainder, signed or unsigned.
    Divider { signed: bool },
}

impl Unit {
    pub fn name(&self, id: UnitId) -> String {
        match self.kind {
            UnitKind::Divider { signed } => format!("div{}_{}{}", id.0, if signed { "s" } else { "u" }, self.width),
        }
    }
}

/// Timing of one operation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpTime {
    pub start: u32,
    pub end: u32,
    /// Estimated arrival time of the result within its end step, in ns.
    pub ready_ns: f64,
}

/// A memory port (a pointer argument).
#[derive(Clone, Debug, Default)]
pub struct PortSched {
    /// Entries of the response buffer: the most loads that can be outstanding at once.
    pub resp_depth: u32,
}

#[derive(Clone, Debug)]
pub struct Schedule {
    pub kernel: Kernel,
    pub timing: Timing,
    pub clock_mhz: f64,
    /// Steps (FSM states) per block; 0 only for empty `return` blocks.
    pub steps: SecondaryMap<Block, u32>,
    pub class: SecondaryMap<Op, Option<OpClass>>,
    pub time: SecondaryMap<Op, OpTime>,
    /// Values that live in a register.
    pub registered: SecondaryMap<Value, bool>,
    pub ports: SecondaryMap<Mem, PortSched>,
    pub units: Vec<Unit>,
    /// Ops whose estimated combinational path exceeds the clock period.
    pub timing_violations: Vec<(Op, f64)>,
    /// Pipelined loops; their ops' times are relative to the start of an iteration.
    pub pipelines: Vec<Pipeline>,
    /// The pipeline a block belongs to.
    pub pipeline_of: SecondaryMap<Block, Option<u32>>,
    /// Every loop of the kernel, pipelined or not, with the reasons.
    pub loops: Vec<LoopAnalysis>,
    /// Split multiplies that register their operands in the fabric for a cycle before the
    /// multiplier blocks (`binding`); their `OpClass::Multi` counts that cycle.
    pub registered_operands: BTreeSet<Op>,
    /// Adds whose sum's top bit is their chain's carry out ([`Timing::carry_out_sums`]).
    pub carry_out_sums: BTreeSet<Op>,
}

/// What runs when control enters a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The block only returns: the kernel is done.
    Done,
    /// Step 0 of the block's FSM states.
    Step(Block),
    /// The pipelined loop whose header the block is.
    Pipeline(u32),
}

impl Schedule {
    /// How this schedule of a kernel is worse than `base`, another schedule of the same kernel
    /// (a loop's II or pipeline depth, or the FSM's length), if it is.
    pub fn worse_than(&self, base: &Schedule) -> Option<String> {
        let with = self;
        if base.loops.len() != with.loops.len() {
            return Some("the loop structure changed".to_string());
        }
        for (b, w) in base.loops.iter().zip(&with.loops) {
            match (b.achieved_ii, w.achieved_ii) {
                (Some(x), Some(y)) if y > x => return Some(format!("a loop's II would rise from {x} to {y}")),
                (Some(_), None) => return Some("a loop would no longer be pipelined".to_string()),
                _ => {}
            }
            if let (Some(x), Some(y)) = (b.depth, w.depth)
                && y > x
            {
                return Some(format!("a pipeline would deepen from {x} to {y} cycles"));
            }
        }
        let steps = |s: &Schedule| s.steps.values().map(|n| *n as u64).sum::<u64>();
        let (x, y) = (steps(base), steps(with));
        (y > x).then(|| format!("the FSM would take {y} steps instead of {x}"))
    }

    /// Whether this schedule is worse than `base` only in pipeline depths, each by at most one
    /// cycle: every loop keeps its II and its pipelining, and the FSM is no longer.
    pub fn deeper_by_at_most_one(&self, base: &Schedule) -> bool {
        if base.loops.len() != self.loops.len() {
            return false;
        }
        let loops_ok = base.loops.iter().zip(&self.loops).all(|(b, w)| {
            let ii_ok = match (b.achieved_ii, w.achieved_ii) {
                (Some(x), Some(y)) => y <= x,
                (Some(_), None) => false,
                _ => true,
            };
            let depth_ok = match (b.depth, w.depth) {
                (Some(x), Some(y)) => y <= x + 1,
                _ => true,
            };
            ii_ok && depth_ok
        });
        let steps = |s: &Schedule| s.steps.values().map(|n| *n as u64).sum::<u64>();
        loops_ok && steps(self) <= steps(base)
    }

    /// Whether some loop of this schedule runs at a lower II than in `base` (a cycle saved on
    /// every iteration of that loop, where a pipeline a cycle deeper costs one per entry).
    pub fn lowers_an_ii(&self, base: &Schedule) -> bool {
        base.loops.len() == self.loops.len()
            && base.loops.iter().zip(&self.loops).any(|(b, w)| match (b.achieved_ii, w.achieved_ii) {
                (Some(x), Some(y)) => y < x,
                (None, Some(_)) => true,
                _ => false,
            })
    }

    /// Whether a variant that may add loops of its own (a rewrite of the source: an array's
    /// initialization, a sum after a loop) lowers the II of some source loop and raises none:
    /// loops are matched by their span, and the added ones do not count.
    pub fn lowers_a_source_loops_ii(&self, base: &Schedule) -> bool {
        let mut lower = false;
        for b in &base.loops {
            for w in self.loops.iter().filter(|w| w.span == b.span) {
                match (b.achieved_ii, w.achieved_ii) {
                    (Some(x), Some(y)) if y < x => lower = true,
                    (Some(x), Some(y)) if y > x => return false,
                    (None, Some(_)) => lower = true,
                    (Some(_), None) => return false,
                    _ => {}
                }
            }
        }
        lower
    }

    pub fn period_ns(&self) -> f64 {
        1000.0 / self.clock_mhz
    }

    /// What runs when control enters `b`.
    pub fn entry_of(&self, b: Block) -> Entry {
        match self.pipeline_of[b] {
            Some(p) => Entry::Pipeline(p),
            None if self.steps[b] == 0 => Entry::Done,
            None => Entry::Step(b),
        }
    }

    pub fn pipeline(&self, i: u32) -> &Pipeline {
        &self.pipelines[i as usize]
    }

    pub fn class(&self, op: Op) -> OpClass {
        self.class[op].unwrap_or(OpClass::Constant)
    }

    /// Whether `op` reads an on-chip memory in a pipelined loop through an address register
    /// loaded the cycle before its start (`Timing::registers_read_address`, for a memory the
    /// loop reads at two sites or more): its address operand is used at `start - 1`.
    pub fn reads_address_early(&self, op: Op) -> bool {
        let k = &self.kernel;
        let (OpClass::MemLoad(m), Some(pi)) = (self.class(op), self.pipeline_of[k.ops[op].block]) else {
            return false;
        };
        let sites = self.pipelines[pi as usize].ops.iter().filter(|o| self.class(**o) == OpClass::MemLoad(m)).count();
        self.timing.registers_read_address(&k.mems[m], sites)
    }

    /// Where on-chip memory `m`'s reads take their data from the block RAMs' output register
    /// ([`Timing::registers_block_ram_output`], a load's data two cycles after its read): the
    /// blocks' configuration width and how many hold a word side by side.
    pub fn output_register_blocks(&self, m: Mem) -> Option<(u32, u32)> {
        let d = &self.kernel.mems[m];
        if !self.timing.registers_block_ram_output(d, 1000.0 / self.clock_mhz) {
            return None;
        }
        self.timing.output_register_blocks(d.elem_width, d.len.unwrap_or(0))
    }

    /// Whether on-chip memory `m`'s writes happen a cycle after their stores, from registers
    /// ([`Timing::registers_writes`]): a store's element is read no earlier than two cycles
    /// after it, and the store's time ends a cycle after its start.
    pub fn registers_writes(&self, m: Mem) -> bool {
        self.timing.registers_writes(m)
    }

    /// The states of the FSM in order: (block, step).
    pub fn states(&self) -> Vec<(Block, u32)> {
        let mut v = Vec::new();
        for b in self.kernel.rpo() {
            for i in 0..self.steps[b] {
                v.push((b, i));
            }
        }
        v
    }

    /// Ops of block `b` that start or end in step `i`, in program order.
    pub fn ops_at(&self, b: Block, i: u32) -> impl Iterator<Item = Op> + '_ {
        self.kernel.blocks[b].ops.iter().copied().filter(move |op| {
            let t = self.time[*op];
            self.class(*op) != OpClass::Constant && (t.start == i || t.end == i)
        })
    }

    /// Every operation that is scheduled (no constants): the state machine's blocks' in state
    /// order, then each pipeline's in iteration order.
    pub fn scheduled_ops(&self) -> Vec<Op> {
        let mut v = Vec::new();
        for b in self.kernel.rpo() {
            if self.pipeline_of[b].is_none() {
                v.extend(self.kernel.blocks[b].ops.iter().copied());
            }
        }
        for p in &self.pipelines {
            v.extend(p.ops.iter().copied());
        }
        v.retain(|op| self.class(*op) != OpClass::Constant);
        v
    }

    /// Estimated critical path among all chained operations, in ns.
    pub fn critical_path_ns(&self) -> f64 {
        self.kernel
            .ops
            .keys()
            .filter(|op| self.class(*op) == OpClass::Comb)
            .map(|op| self.time[op].ready_ns)
            .fold(0.0, f64::max)
    }
}

/// Classifies an op for scheduling. `unit` is assigned by the scheduler for divisions.
pub fn classify(k: &Kernel, op: Op) -> OpClass {
    let o = &k.ops[op];
    match &o.kind {
        OpKind::Const(_) => OpClass::Constant,
        OpKind::Load(m) => {
            if k.mems[*m].is_port() {
                OpClass::PortLoad(*m)
            } else {
                OpClass::MemLoad(*m)
            }
        }
        OpKind::Store(m) => {
            if k.mems[*m].is_port() {
                OpClass::PortStore(*m)
            } else {
                OpClass::MemStore(*m)
            }
        }
        // Word operations exist only on ports (the `widen` pass).
        OpKind::WordLoad(m) => OpClass::PortLoad(*m),
        OpKind::WordStore { mem, .. } | OpKind::WordStoreAt(mem) => OpClass::PortStore(*mem),
        OpKind::Binary(BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) => OpClass::Unit(UnitId(u32::MAX)),
        OpKind::PipeRead { pipe, .. } | OpKind::PipeWrite { pipe, .. } | OpKind::PipeQuery { pipe, .. } => {
            OpClass::PipeTransfer(*pipe)
        }
        _ => OpClass::Comb,
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "schedule {} @ {} MHz ({})", self.kernel.name, self.clock_mhz, self.timing.name)?;
        for b in self.kernel.rpo() {
            writeln!(f, "{b}: {} step(s)", self.steps[b])?;
            for &op in &self.kernel.blocks[b].ops {
                let o = &self.kernel.ops[op];
                let t = self.time[op];
                if self.class(op) == OpClass::Constant {
                    continue;
                }
                let res = o.result.map(|r| format!("{r} = ")).unwrap_or_default();
                let reg = o.result.filter(|r| self.registered[*r]).map(|_| " [reg]").unwrap_or("");
                writeln!(f, "  [{}..{}] {res}{}{reg}", t.start, t.end, o.kind.mnemonic())?;
            }
        }
        Ok(())
    }
}
