//! One kernel's schedule as a Verilog module: the FSM, pipelined loops, the datapath, the
//! memory-port logic, on-chip memories and dividers. The structure follows `docs/timing.md`
//! exactly; the simulator implements the same contract independently.
//!
//! Every memory access and divider operation is driven from an access [`Site`]: an FSM step or a
//! pipeline slot, with the condition that selects its operands, the event that commits it, and
//! its enable (predicate and loop test). Ports, memories and dividers are built from their sites
//! without caring which kind of schedule produced them.

mod bram;
mod control;
mod datapath;
mod divider;
mod dsp;
mod inverted_registers;
mod memory;
pub use memory::PORTS_ANSWER_NEXT_CYCLE;
mod multicycle;
mod pipeline;
mod pipes;
mod serial_sum;
mod sharing;

use crate::verilog::*;
use kiln_dataflow::ir::{Block, Kernel, Mem, MemKind, Op, OpKind, Value, ValueDef};
use kiln_diagnostics::Span;
use kiln_scheduler::Schedule;
use kiln_scheduler::schedule::OpClass;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The input port of a scalar argument: `arg_<name>`, or `launch_<what>` for the launch
/// parameters of NDRange kernels.
pub fn scalar_port(p: &kiln_dataflow::ir::Param) -> String {
    match p.implicit {
        Some(kiln_dataflow::ir::Implicit::GlobalSize(d)) => format!("launch_global_size{d}"),
        Some(kiln_dataflow::ir::Implicit::LocalSize(d)) => format!("launch_local_size{d}"),
        Some(kiln_dataflow::ir::Implicit::WorkDim) => "launch_work_dim".to_string(),
        None => format!("arg_{}", sanitize(&p.name)),
    }
}

/// Turns a C name into a Verilog-safe suffix.
fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// Where an operation's operands are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Step `i` of FSM block `b`.
    Fsm(Block, u32),
    /// Relative cycle `r` of pipeline `p`.
    Pipe(u32, u32),
}

/// One place where a memory access or a unit operation happens.
#[derive(Clone, Debug)]
struct Site {
    op: Op,
    at: At,
    /// Selects this site's address and data in the resource's muxes.
    sel: Expr,
    /// The event that commits the access (the state fires, or the pipeline advances).
    commit: Expr,
    /// The access's predicate (and loop test in a pipeline body); `1'b1` when unconditional.
    en: Expr,
}

struct Gen<'s> {
    s: &'s Schedule,
    k: &'s Kernel,
    m: Module,
    locate: &'s dyn Fn(Span) -> String,
    state_width: u32,
    state_index: BTreeMap<(Block, u32), u32>,
    port_index: BTreeMap<Mem, usize>,
    /// Registers in the chain of each pipeline value (one per initiation interval it is held).
    chains: HashMap<Value, u32>,
    /// The shared multiplier of each multiply that has one (`sharing.rs`).
    shared_multiplier_of: HashMap<Op, usize>,
    shared_multipliers: Vec<kiln_scheduler::binding::SharedMultiplier>,
    /// Wires that enter a carry chain inverted (`inverted_registers.rs`).
    inverted_chain_operands: BTreeSet<String>,
    /// Sums of shared multipliers' products built as accumulators (`serial_sum.rs`).
    serial_sums: Vec<serial_sum::SerialSum>,
    /// The operations those sums replace: no wire, no chain register.
    folded: BTreeSet<Op>,
}

impl<'s> Gen<'s> {
    /// The comment on an operation's wire: what it is, its cycles and its source line.
    fn op_comment(&self, op: kiln_dataflow::ir::Op) -> String {
        let k = &self.s.kernel;
        let t = self.s.time[op];
        format!("{} [{}..{}] @[{}]", k.ops[op].kind.mnemonic(), t.start, t.end, (self.locate)(k.ops[op].span))
    }

    fn wire_name(&self, v: Value) -> String {
        match &self.k.values[v].name {
            Some(n) => format!("{v}_{}", sanitize(n)),
            None => format!("{v}"),
        }
    }

    fn reg_name(&self, v: Value) -> String {
        format!("r_{}", self.wire_name(v))
    }

    fn chain_name(&self, v: Value, j: u32) -> String {
        format!("{}_d{j}", self.wire_name(v))
    }

    fn state_name(&self, b: Block, i: u32) -> String {
        format!("S_{}_{}", b.to_string().to_uppercase(), i)
    }

    fn in_state(&self, b: Block, i: u32) -> Expr {
        id(format!("in_{b}_{i}"))
    }

    fn fire(&self, b: Block, i: u32) -> Expr {
        id(format!("fire_{b}_{i}"))
    }

    fn port_prefix(&self, m: Mem) -> String {
        sanitize(&self.k.mems[m].name)
    }

    fn mem_name(&self, m: Mem) -> String {
        format!("mem_{m}_{}", sanitize(&self.k.mems[m].name))
    }

    /// The pipeline a value is computed in (header parameters included).
    fn pipeline_of_value(&self, v: Value) -> Option<u32> {
        match self.k.values[v].def {
            ValueDef::Param(b, _) => self.s.pipeline_of[b],
            ValueDef::Op(op) => self.s.pipeline_of[self.k.ops[op].block],
        }
    }

    /// The expression that gives value `v` to a use at `at`.
    fn src(&self, v: Value, at: At) -> Expr {
        let w = self.k.width(v);
        if let Some(c) = self.k.as_const(v) {
            return lit(w, c);
        }
        match at {
            At::Pipe(pi, r) if self.pipeline_of_value(v) == Some(pi) => self.pipe_src(pi, v, r),
            At::Pipe(..) => id(self.reg_name(v)),
            At::Fsm(b, i) => match self.k.values[v].def {
                ValueDef::Param(..) => id(self.reg_name(v)),
                ValueDef::Op(op) => {
                    let t = self.s.time[op];
                    if self.k.ops[op].block == b && t.end == i { id(self.wire_name(v)) } else { id(self.reg_name(v)) }
                }
            },
        }
    }

    /// The predicate of a memory op as seen at `at` (`1'b1` when unpredicated).
    fn pred_at(&self, op: Op, at: At) -> Expr {
        match self.k.ops[op].predicate() {
            Some(p) => self.src(p, at),
            None => lit(1, 1),
        }
    }

    /// Whether a load of `class` reads data that its memory clears when the load is
    /// predicated off (`Timing::clears_read_data`; `memory.rs`), so it needs no zeroing.
    fn clears_read_data(&self, class: OpClass) -> bool {
        match class {
            OpClass::MemLoad(m) => self.s.timing.clears_read_data() && self.s.output_register_blocks(m).is_none(),
            _ => false,
        }
    }

    /// Predicate and, for the body of a test-first pipelined loop, the loop test.
    fn enable_at(&self, op: Op, at: At) -> Expr {
        let mut terms = Vec::new();
        if self.k.ops[op].predicate().is_some() {
            terms.push(self.pred_at(op, at));
        }
        if let At::Pipe(pi, r) = at {
            let p = self.s.pipeline(pi);
            if p.guarded.contains(&op)
                && (self.k.ops[op].kind.is_memory() || self.k.ops[op].kind.is_pipe_transfer())
                && self.test_decides_at(pi, r)
            {
                terms.push(self.continues(pi, r));
            }
        }
        all(terms)
    }

    /// The access site of `op` at relative time `r` (its start or end).
    fn site(&self, op: Op, r: u32) -> Site {
        let b = self.k.ops[op].block;
        match self.s.pipeline_of[b] {
            Some(pi) => {
                let at = At::Pipe(pi, r);
                let sel = self.slot(pi, r);
                Site { op, at, commit: self.advances_at(pi, sel.clone()), sel, en: self.enable_at(op, at) }
            }
            None => {
                let at = At::Fsm(b, r);
                Site { op, at, sel: self.in_state(b, r), commit: self.fire(b, r), en: self.enable_at(op, at) }
            }
        }
    }

    /// Sites where ops of `class` (as selected by `pick`) start.
    fn start_sites(&self, pick: &dyn Fn(OpClass) -> bool) -> Vec<Site> {
        self.s
            .scheduled_ops()
            .into_iter()
            .filter(|op| pick(self.s.class(*op)))
            .map(|op| self.site(op, self.s.time[op].start))
            .collect()
    }

    /// The multiplexer of a resource's address or data among its `cases` (a site and the value
    /// it presents), whose value only matters while one of the sites commits. The scheduler
    /// gives a resource at most one site per FSM step and, in a pipeline, per phase of the
    /// initiation interval (`kiln_scheduler::verify`), so a pipeline's sites are told apart by
    /// its one-hot phase register alone, an AND-OR with no stage valid bits or `active` in
    /// front of it. A phase bit is zero outside its pipeline's state (`pipeline_resets`), so
    /// where the owners are combined as an AND-OR the phase bits need no `active` either. Those
    /// selects were the iCE40's critical paths into the block RAMs' addresses of the stencils.
    fn site_mux(&self, cases: Vec<(&Site, Expr)>, width: u32) -> Expr {
        self.owners_mux(cases, width, SITE_OWNERS_CHAINED_BELOW)
    }

    /// [`Self::site_mux`] for a shared unit's operands (multipliers, dividers), whose owners
    /// are always chained: durbin's multiplier operands, from four owners, were a LUT level
    /// deeper as an AND-OR from a state's select into the SB_MAC16 (57.0 -> 51.8 MHz).
    fn operand_site_mux(&self, cases: Vec<(&Site, Expr)>, width: u32) -> Expr {
        self.owners_mux(cases, width, usize::MAX)
    }

    /// Sites grouped by owner (a pipeline's `active`, an FSM step's select), in order.
    fn owners<'c>(&self, cases: Vec<(&'c Site, Expr)>) -> Vec<(Expr, Vec<(&'c Site, Expr)>)> {
        let mut owners: Vec<(Expr, Vec<(&Site, Expr)>)> = Vec::new();
        for (s, v) in cases {
            let owner = match s.at {
                At::Pipe(pi, _) => self.active(pi),
                At::Fsm(..) => s.sel.clone(),
            };
            match owners.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, group)) => group.push((s, v)),
                None => owners.push((owner, vec![(s, v)])),
            }
        }
        owners
    }

    /// The owners' choices of [`Self::site_mux`] where it chains them (below four owners):
    /// each owner's select and its sites' value.
    fn site_choices(&self, cases: Vec<(&Site, Expr)>, width: u32) -> Option<Vec<(Expr, Expr)>> {
        let owners = self.owners(cases);
        (owners.len() < SITE_OWNERS_CHAINED_BELOW)
            .then(|| owners.into_iter().map(|(owner, group)| (owner, self.phase_mux(group, width))).collect())
    }

    /// Sites grouped by owner, the owners chained in a multiplexer below `balanced_from` of
    /// them and an AND-OR from there on.
    fn owners_mux(&self, cases: Vec<(&Site, Expr)>, width: u32, balanced_from: usize) -> Expr {
        let owners = self.owners(cases);
        if owners.len() < balanced_from {
            let choices = owners.into_iter().map(|(owner, group)| (owner, self.phase_mux(group, width))).collect();
            return enabled_mux(choices, width);
        }
        // The owners (pipelines' `active`, FSM steps' selects) are never true together, so
        // from four on an AND-OR of them, which synthesis balances, not a chain of
        // multiplexers in priority order: fdtd-2d's read address of `hz`, shared by three
        // pipelines and a state, was four LUT levels from a pipeline's `active` to the block
        // RAMs on the iCE40 (47.4 -> 48.6 MHz, symm 55.6 -> 60.4 with `j <= i` carried by
        // exit-test; medians of three seeds). Two and three owners keep the chain, which needs
        // one select fewer (as an AND-OR seidel-2d read 48.9 against 53.7, jacobi-1d 54.9
        // against 59.1, durbin 51.8 against 57.0).
        // A pipeline's sites told apart by its phase are selected by their phase bits alone,
        // which imply `active` (`pipeline_resets`).
        let mask = |sel: Expr| if width == 1 { sel } else { Expr::Repeat(width, Box::new(sel)) };
        owners
            .into_iter()
            .flat_map(|(owner, group)| match self.phases_of(&group) {
                Some(phases) => {
                    group.into_iter().zip(phases).map(|((_, v), p)| bin(BinOp::And, mask(p), v)).collect::<Vec<_>>()
                }
                None => vec![bin(BinOp::And, mask(owner), self.phase_mux(group, width))],
            })
            .reduce(|a, b| bin(BinOp::Or, a, b))
            .unwrap_or(lit(width, 0))
    }

    /// The phase bit of each of a pipeline's sites, when they are all in distinct phases of an
    /// initiation interval above one.
    fn phases_of(&self, group: &[(&Site, Expr)]) -> Option<Vec<Expr>> {
        let phases: Vec<Expr> = group
            .iter()
            .map(|(s, _)| match s.at {
                At::Pipe(pi, r) if self.pp(pi).ii > 1 => Some(self.phase_is(pi, r % self.pp(pi).ii)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let distinct = phases.iter().enumerate().all(|(i, p)| !phases[..i].contains(p));
        distinct.then_some(phases)
    }

    /// One pipeline's (or one FSM step's) part of [`Self::site_mux`].
    fn phase_mux(&self, group: Vec<(&Site, Expr)>, width: u32) -> Expr {
        match self.phases_of(&group) {
            Some(phases) if group.len() > 1 => group
                .into_iter()
                .zip(phases)
                .map(|((_, v), p)| {
                    let mask = if width == 1 { p } else { Expr::Repeat(width, Box::new(p)) };
                    bin(BinOp::And, mask, v)
                })
                .reduce(|a, b| bin(BinOp::Or, a, b))
                .unwrap_or(lit(width, 0)),
            _ => enabled_mux(group.into_iter().map(|(s, v)| (s.sel.clone(), v)).collect(), width),
        }
    }

    /// Whether one of `sites` commits an enabled access: the OR of their `commit & en`, where
    /// a pipeline's sites in one stage under one enable are one term whose phase bits are
    /// ORed, or, where they are most of the initiation interval's phases, the other phase bits
    /// NORed. A stage's valid bit implies that the phase register is one-hot, so the two agree
    /// (`pipeline_resets`). doitgen's `C4` initialisation writes in 12 of its 12 phases from two
    /// stages: as an OR of 12 slots its write enable was four LUT levels from the phase
    /// register into the iCE40 block RAMs' `WCLKE`, the design's critical path.
    fn commits_any(&self, sites: &[Site]) -> Expr {
        // In the order of the sites, each group where its first site is: a term, or a group
        // (pipeline, stage, enable) with its phases and its first site's own commit.
        type Group = ((u32, u32, Expr), BTreeSet<u32>, Expr);
        let mut entries: Vec<Result<Expr, Group>> = Vec::new();
        for s in sites {
            match s.at {
                At::Pipe(pi, r) if self.pp(pi).ii > 1 => {
                    let ii = self.pp(pi).ii;
                    let key = (pi, r / ii, s.en.clone());
                    match entries.iter_mut().find_map(|e| e.as_mut().err().filter(|g| g.0 == key)) {
                        Some((_, phases, _)) => {
                            phases.insert(r % ii);
                        }
                        None => entries.push(Err((key, BTreeSet::from([r % ii]), s.commit.clone()))),
                    }
                }
                _ => entries.push(Ok(and(s.commit.clone(), s.en.clone()))),
            }
        }
        let terms = entries
            .into_iter()
            .map(|e| match e {
                Ok(term) => term,
                Err(((_, _, en), phases, commit)) if phases.len() == 1 => and(commit, en),
                Err(((pi, stage, en), phases, _)) => {
                    let ii = self.pp(pi).ii;
                    let bits = |set: Vec<u32>| any(set.into_iter().map(|p| self.phase_is(pi, p)).collect());
                    let others: Vec<u32> = (0..ii).filter(|p| !phases.contains(p)).collect();
                    let in_phase = if others.is_empty() {
                        lit(1, 1)
                    } else if others.len() < phases.len() {
                        un(UnOp::Not, bits(others))
                    } else {
                        bits(phases.into_iter().collect())
                    };
                    let slot = and(self.valid_bit(pi, stage), in_phase);
                    and(self.advances_at(pi, slot), en)
                }
            })
            .collect();
        any(terms)
    }

    fn result_width(&self, op: Op) -> u32 {
        self.k.ops[op].result.map(|r| self.k.width(r)).unwrap_or(1)
    }
}

/// `e[hi:lo]` of an operand `width` bits wide (the operand itself when that is all of it).
fn slice_w(e: &Expr, width: u32, hi: u32, lo: u32) -> Expr {
    if lo == 0 && hi + 1 == width {
        return e.clone();
    }
    slice(e, hi, lo)
}

/// `e[hi:lo]` for an identifier or literal operand (of width > hi).
fn slice(e: &Expr, hi: u32, lo: u32) -> Expr {
    match e {
        Expr::Ident(n) => {
            if hi == lo {
                Expr::Bit(n.clone(), hi)
            } else {
                Expr::Slice(n.clone(), hi, lo)
            }
        }
        Expr::Lit(_, v) => lit(hi - lo + 1, v >> lo),
        other => other.clone(),
    }
}

/// A 1-bit-safe bit select: single-bit signals are not indexed.
fn bit_of(name: &str, width: u32, i: u32) -> Expr {
    if width == 1 { id(name) } else { Expr::Bit(name.to_string(), i) }
}

/// Mux of `(condition, value)` pairs for mutually exclusive conditions; `default` otherwise.
fn one_hot_mux(cases: Vec<(Expr, Expr)>, default: Expr) -> Expr {
    cases.into_iter().rev().fold(default, |acc, (c, v)| cond(c, v, acc))
}

/// A one-hot multiplexer whose value only matters while one of its selects is high (a memory
/// address or write data beside its enable, a FIFO's data beside its valid): the last case
/// needs no select. Each select left out is a LUT level less in front of the memory, where the
/// iCE40's paths from pipeline control into a block RAM's address were the critical ones.
fn enabled_mux(cases: Vec<(Expr, Expr)>, width: u32) -> Expr {
    let mut cases = cases;
    match cases.pop() {
        Some((_, last)) => cases.into_iter().rev().fold(last, |acc, (c, v)| cond(c, v, acc)),
        None => lit(width, 0),
    }
}

/// How many owners [`Gen::site_mux`] chains in a multiplexer; from this many on, an AND-OR.
const SITE_OWNERS_CHAINED_BELOW: usize = 4;

/// [`enabled_mux`] (the first choice whose select is true, else the last), built from four
/// choices on as `(s0 | s1) ? (s0 ? v0 : v1) : rest`, which is the same function whatever the
/// selects, so that four choices are two LUT4 levels deep
/// (the select of the pair and the two values in one LUT) instead of three in a chain: fdtd-2d's
/// read address of `hz`, two pipelines' address registers, a third pipeline's and a state's
/// addresses, was three LUT levels in front of the block RAMs' `RADDR` (16.8 ns routed).
fn paired_mux(mut choices: Vec<(Expr, Expr)>, width: u32) -> Expr {
    if choices.len() < 4 {
        return enabled_mux(choices, width);
    }
    let rest = choices.split_off(2);
    let mut pair = choices.into_iter();
    match (pair.next(), pair.next()) {
        (Some((s0, v0)), Some((s1, v1))) => {
            cond(bin(BinOp::Or, s0.clone(), s1), cond(s0, v0, v1), paired_mux(rest, width))
        }
        _ => lit(width, 0),
    }
}

/// `a & b`, simplified when either is a constant 1.
fn and(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Lit(1, 1), _) => b,
        (_, Expr::Lit(1, 1)) => a,
        _ => bin(BinOp::And, a, b),
    }
}

/// The ports of the module [`kernel_module`] builds.
pub fn interface(s: &Schedule) -> crate::Interface {
    let k = &s.kernel;
    crate::Interface {
        module: sanitize(&k.name),
        parameters: vec![],
        scalars: k
            .scalar_params()
            .map(|(i, p, v)| crate::ScalarPort { name: scalar_port(p), width: k.width(v), param: i })
            .collect(),
        memories: k
            .ports()
            .map(|(i, _, m)| crate::MemoryPort {
                prefix: sanitize(&k.mems[m].name),
                data_width: k.mems[m].elem_width * k.mems[m].lanes.max(1),
                lanes: k.mems[m].lanes.max(1),
                read_only: matches!(k.mems[m].kind, MemKind::ConstantArg { .. }),
                param: i,
            })
            .collect(),
        pipes: k
            .pipes
            .iter()
            .map(|(p, d)| crate::PipePort {
                prefix: format!("pipe_{}", d.ident()),
                name: d.name.to_string(),
                width: d.packet_width(),
                read: d.end == kiln_dataflow::ir::PipeEnd::Read,
                source: d.source.clone(),
                depth: d.depth,
                reads_count: pipes::queries(k, p, kiln_dataflow::ir::PipeQuery::Packets),
                reads_capacity: pipes::queries(k, p, kiln_dataflow::ir::PipeQuery::MaxPackets),
            })
            .collect(),
    }
}

/// Builds the Verilog module of a scheduled kernel.
pub fn kernel_module(s: &Schedule, locate: &dyn Fn(Span) -> String) -> Module {
    let k = &s.kernel;
    let states = s.states();
    let mut state_index = BTreeMap::new();
    for (n, st) in states.iter().enumerate() {
        state_index.insert(*st, n as u32 + 2);
    }
    let port_index = k.ports().enumerate().map(|(i, (_, _, m))| (m, i)).collect();
    let mut g = Gen {
        s,
        k,
        m: Module { name: sanitize(&k.name), ..Default::default() },
        locate,
        state_width: clog2(states.len() as u64 + 2 + s.pipelines.len() as u64),
        state_index,
        port_index,
        chains: HashMap::new(),
        shared_multiplier_of: HashMap::new(),
        shared_multipliers: Vec::new(),
        inverted_chain_operands: BTreeSet::new(),
        serial_sums: Vec::new(),
        folded: BTreeSet::new(),
    };
    g.bind_multipliers();
    g.find_serial_sums();
    g.compute_chains();
    g.header();
    g.interface_ports();
    if k.ops.keys().any(|op| matches!(s.class(op), OpClass::PortLoad(_) | OpClass::PortStore(_))) {
        g.m.params.push((PORTS_ANSWER_NEXT_CYCLE.to_string(), 1, 0));
    }
    g.fsm_decode(&states);
    g.pipeline_control_signals();
    g.datapath();
    g.pipeline_datapath();
    g.ports_logic();
    g.pipes_logic();
    g.on_chip_memories();
    g.dividers();
    g.shared_multiplier_logic();
    g.control(&states);
    // Where the carry cell cannot invert an operand (`carry_invert_ns`, the iCE40's).
    if s.timing.operators.carry_invert_ns > 0.0 {
        inverted_registers::register_inverted_operands(&mut g.m, &g.inverted_chain_operands);
    }
    g.m
}

impl Gen<'_> {
    fn header(&mut self) {
        let s = self.s;
        self.m.header = vec![
            format!(
                "Generated by kiln {} from kernel `{}` ({}).",
                env!("CARGO_PKG_VERSION"),
                self.k.name,
                (self.locate)(self.k.span)
            ),
            format!("Target {} at {} MHz. Timing contract: docs/timing.md.", s.timing.name, s.clock_mhz),
            "Memory ports: element-index addresses; requests valid/ready; in-order read responses.".to_string(),
        ];
    }

    fn interface_ports(&mut self) {
        let k = self.k;
        let mut ports = vec![
            Port { dir: Dir::Input, name: "clk".into(), width: 1, is_reg: false, comment: None },
            Port {
                dir: Dir::Input,
                name: "rst".into(),
                width: 1,
                is_reg: false,
                comment: Some("synchronous, active high".into()),
            },
            Port {
                dir: Dir::Input,
                name: "start".into(),
                width: 1,
                is_reg: false,
                comment: Some("sampled in the idle state".into()),
            },
            Port {
                dir: Dir::Output,
                name: "done".into(),
                width: 1,
                is_reg: false,
                comment: Some("high for one cycle at the end".into()),
            },
        ];
        for (_, p, v) in k.scalar_params() {
            ports.push(Port {
                dir: Dir::Input,
                name: scalar_port(p),
                width: k.width(v),
                is_reg: false,
                comment: Some(format!("{} {}", p.c_type, p.name)),
            });
        }
        for (_, p, m) in k.ports() {
            let d = &k.mems[m];
            let pre = self.port_prefix(m);
            let w = d.elem_width * d.lanes.max(1);
            let read_only = matches!(d.kind, MemKind::ConstantArg { .. });
            let out = |n: &str, width: u32, c: Option<String>| Port {
                dir: Dir::Output,
                name: format!("{pre}_{n}"),
                width,
                is_reg: false,
                comment: c,
            };
            let inp = |n: &str, width: u32| Port {
                dir: Dir::Input,
                name: format!("{pre}_{n}"),
                width,
                is_reg: false,
                comment: None,
            };
            ports.push(out("req_valid", 1, Some(format!("port for {} {}", p.c_type, p.name))));
            ports.push(inp("req_ready", 1));
            let unit = if d.lanes > 1 {
                format!("word index ({} elements per word)", d.lanes)
            } else {
                "element index".into()
            };
            ports.push(out("req_addr", 32, Some(unit)));
            if !read_only {
                ports.push(out("req_we", 1, None));
                ports.push(out("req_wdata", w, None));
                ports.push(out("req_wstrb", (w / 8).max(1), Some("byte enables".into())));
            }
            ports.push(inp("resp_valid", 1));
            ports.push(inp("resp_rdata", w));
        }
        self.pipe_ports(&mut ports);
        self.m.ports = ports;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(n: usize) -> Vec<(Expr, Expr)> {
        (0..n).map(|i| (id(format!("s{i}")), id(format!("v{i}")))).collect()
    }

    fn pair(a: usize, b: usize, rest: Expr) -> Expr {
        let (sa, sb) = (id(format!("s{a}")), id(format!("s{b}")));
        cond(bin(BinOp::Or, sa.clone(), sb), cond(sa, id(format!("v{a}")), id(format!("v{b}"))), rest)
    }

    #[test]
    fn choices_are_chained_below_four_and_paired_from_four() {
        // Three: the chain, the last choice's select unused.
        assert_eq!(paired_mux(choices(3), 8), cond(id("s0"), id("v0"), cond(id("s1"), id("v1"), id("v2"))));
        // Four: two pairs, two LUT levels.
        assert_eq!(paired_mux(choices(4), 8), pair(0, 1, cond(id("s2"), id("v2"), id("v3"))));
        // Five: a pair, then the chain of the other three.
        let rest = cond(id("s2"), id("v2"), cond(id("s3"), id("v3"), id("v4")));
        assert_eq!(paired_mux(choices(5), 8), pair(0, 1, rest));
        assert_eq!(paired_mux(choices(6), 8), pair(0, 1, pair(2, 3, cond(id("s4"), id("v4"), id("v5")))));
        assert_eq!(paired_mux(Vec::new(), 8), lit(8, 0));
    }
}
